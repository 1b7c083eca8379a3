//! The exports of an analysed recording: folded stacks and flame graphs,
//! Perfetto and Chrome traces, pprof profiles, statistics, the critical
//! path.
//!
//! Every export has one shape, [`Export`]: its options, written from a
//! [`Model`] to any output, telling its progress through one
//! [`Progress`]. What exports share (lanes, frame names, slice arguments)
//! is the model's ([`crate::analysis::model::presentation`]).

use std::io::{self, Write};

use crate::analysis::model::Model;
use crate::progress::Progress;

pub mod chrome;
pub mod critical_path;
pub mod flamegraph;
pub mod folded;
pub mod perfetto;
pub mod pprof;
pub mod stats;

/// An export, given by its options: what every exporter implements.
pub trait Export {
    /// Writes the export of `model` to `out`, a piece at a time where the
    /// format allows, telling how far it has got through `progress`.
    fn write(&self, model: &Model, out: &mut dyn Write, progress: Progress) -> io::Result<()>;
}
