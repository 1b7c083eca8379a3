//! The exports of an analysed recording: folded stacks and flame graphs,
//! Perfetto and Chrome traces, statistics.

pub mod chrome;
pub mod flamegraph;
pub mod folded;
pub mod perfetto;
pub mod stats;
