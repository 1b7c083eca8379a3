//! Analysis of a recording: the [`model::Model`] every export is built
//! from, the critical path over its graph with its replays, and the
//! [`selection::Selection`] of a recording's part to analyse, and the
//! comparison of two recordings.

pub mod compare;
pub mod critical_path;
pub mod model;
pub mod selection;
