//! Analysis of a recording: the [`model::Model`] every export is built
//! from, and the critical path over its graph with its replays.

pub mod critical_path;
pub mod model;
