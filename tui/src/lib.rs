//! `befview`: a terminal inspector for BEF files.
//!
//! The pieces, by role. [`model`] is what the file and its recording are:
//! the input read (regular files only; large ones mapped and watched, so
//! that their truncation is reported: `bef::tool_io::sigbus`), the
//! document opened (MLIR translated), the whole-file analysis, a
//! recording, a BTF file for its Tensors view, and every list as data
//! (`model::rows`). [`app`] is the state and how events change it: one
//! component per tab, the key table, the events and the background work.
//! [`ui`] draws it (one file per view, with the colours and the help
//! screen). The drivers: [`dump`] prints a view as text, [`terminal`] runs
//! the event loop and restores the terminal on every exit, and
//! [`simulate`] feeds input bytes as events.

pub mod app;
pub mod dump;
pub mod model;
pub mod simulate;
pub mod terminal;
pub mod ui;

pub use app::App;
pub use app::tab::Tab;
pub use model::document::{Document, Loaded};
