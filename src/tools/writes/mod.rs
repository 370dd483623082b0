//! The writes tools.
