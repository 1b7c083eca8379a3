//! `bef-trace`: records the execution of BEF programs and turns recordings
//! into flame graphs, Perfetto and Chrome traces, statistics and critical
//! paths.
//!
//! ```text
//! Recorder (an Observer: per-thread lock-free logs)
//!   └─ Recording ──codec::write──▶ run.beftrace ──codec::read──▶ Recording
//!        └─ Model (runs, stacks, edges, counters, error marks)
//!             ├─ folded / flamegraph / diff     (inferno)
//!             ├─ perfetto (protobuf) / chrome   (trace viewers)
//!             ├─ stats
//!             └─ critical_path
//! ```
//!
//! The recording format is versioned ([`codec::VERSION`]) and read with
//! every count checked against the bytes that remain, so a recording from
//! anywhere can be read without panicking or over-allocating.

pub mod chrome;
pub mod codec;
pub mod critical_path;
pub mod flamegraph;
pub mod folded;
pub mod log;
pub mod model;
pub mod perfetto;
pub mod program_table;
pub mod record;
pub mod recorder;
pub mod recording;
pub mod stats;

pub use codec::{ReadError, read, write};
pub use model::Model;
pub use record::{CancelHandle, RecordOptions, record_file};
pub use recorder::{Recorder, RecorderOptions};
pub use recording::Recording;
