//! Arbitrary IR for property tests and fuzzing.
