//! The teams tools.
