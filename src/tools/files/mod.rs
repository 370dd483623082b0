//! The files tools.
