//! `bef-trace`: records the execution of BEF programs and turns recordings
//! into flame graphs, Perfetto and Chrome traces, pprof profiles,
//! statistics and critical paths.
//!
//! ```text
//! capture/   Recorder (an Observer: per-thread lock-free logs)
//!              └─ Recording ──codec::write──▶ run.beftrace ──codec::read──▶ Recording
//!                                 (--no-embed: the program's table comes
//!                                  from program_file::attach)
//! analysis/    ├─ Selection (--from/--to, --function, --thread: the part kept)
//!              └─ Model (runs, stacks, edges, counters, error marks)
//!                   └─ critical_path (the path, slack, replays)
//! export/           ├─ folded / flamegraph / diff     (inferno)
//!                   ├─ perfetto (protobuf) / chrome   (trace viewers)
//!                   ├─ pprof (gzipped profile.proto)  (go tool pprof)
//!                   └─ stats / critical_path          (text or JSON)
//! ```
//!
//! Layers point one way: capture knows nothing of the analysis, and the
//! analysis nothing of the exports. Every export has one shape,
//! [`export::Export`] (`write(&Model, &mut dyn Write, Progress)`, the
//! export given by its options), tells its progress through one
//! [`progress::Progress`], and names what it shows through
//! [`analysis::model::presentation`], so that the exports agree on frames,
//! thread ids, lanes and slice arguments. [`display`] and [`progress`] are
//! shared by every layer and the command.
//!
//! The recording format is versioned ([`capture::codec::VERSION`]) and
//! read with every count checked against the bytes that remain, so a
//! recording from anywhere can be read without panicking or
//! over-allocating.
//!
//! # Bounds
//!
//! Whatever a recording claims, reading it, its [`Model`] and every
//! analysis and export of it take time linear in its size (times a
//! logarithm for sorting), and memory of at most [`MEMORY_PER_BYTE`] bytes
//! per byte of the recording file plus [`MEMORY_BASE`]. What makes that
//! hold where a recording could claim more:
//! - a register's readers are followed only from its first publication in
//!   an execution, and at most [`analysis::model::EDGES_PER_EVENT`] per event of the
//!   execution (the rest are counted, [`Model::readers_left_out`]);
//! - names are shown cut to [`display::NAME_WIDTH`] characters, longer
//!   texts (locations, messages, paths) to [`display::TEXT_WIDTH`], so that
//!   a name repeated for each run costs its width, not its length;
//! - folded stacks keep fewer calls when they would exceed
//!   [`export::folded::TEXT_PER_LINE`] bytes a line (beyond [`export::folded::TEXT_BASE`]);
//! - stream lanes, call chains, kernel ends and the shared wall clock are
//!   found through heaps and indexes, never by scanning what is open.
//!
//! A recording made without its program's table (`--no-embed`) is read
//! with the program ([`capture::program_file`]), whose table then adds memory
//! linear in the program's size.
//!
//! `tests/hostile_recordings.rs` checks the bound on a generator of
//! hostile recordings, and the `trace_read` fuzz target on every input.

pub mod analysis;
pub mod capture;
pub mod display;
pub mod export;
pub mod progress;

/// The most memory reading a recording and any of its analyses and
/// exports need together, per byte of the recording file (see the
/// [crate] documentation), beyond [`MEMORY_BASE`].
pub const MEMORY_PER_BYTE: usize = 512;

/// See [`MEMORY_PER_BYTE`].
pub const MEMORY_BASE: usize = 64 << 20;

// What other crates read recordings through, at the root as well.
pub use analysis::model::{self, Model};
pub use analysis::selection::{Selection, SelectionError};
pub use capture::codec::{self, ReadError, read, read_owned, write};
pub use capture::program_file;
pub use capture::record::{CancelHandle, RecordOptions, record_file};
pub use capture::recorder::{Recorder, RecorderOptions};
pub use capture::recording::{self, Recording};
