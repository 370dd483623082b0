//! The people tools.
