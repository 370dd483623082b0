//! The channels tools.
