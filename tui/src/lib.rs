//! `befview`: a terminal inspector for BEF files.
//!
//! The pieces, one responsibility each: [`input`] reads the file given
//! (regular files only; large ones mapped and watched, so that their
//! truncation is reported: `bef::tool_io::sigbus`), [`document`] opens it
//! (MLIR translated), [`tensors`] opens a BTF file for its Tensors view,
//! [`analysis`] decodes the whole file for findings and users, [`rows`]
//! holds every list as data ([`columns`] says how its columns are sized,
//! [`durations`] writes times), [`keys`] is the key table, [`app`] is the
//! state and how events change it ([`events`]), [`worker`] does the
//! background work, [`views`] draws it (one file per view; [`palette`]
//! and [`help`] give the colours and the help screen), [`dump`] prints a
//! view as text, and [`terminal`] runs the event loop and restores the
//! terminal on every exit.

pub mod analysis;
pub mod app;
pub mod columns;
pub mod document;
pub mod dump;
pub mod durations;
pub mod events;
pub mod execution;
pub mod help;
pub mod input;
pub mod inspector;
pub mod keys;
pub mod names;
pub mod palette;
pub mod rows;
pub mod search;
pub mod simulate;
pub mod tab;
pub mod tensors;
pub mod terminal;
pub mod views;
pub mod worker;

pub use app::App;
pub use document::{Document, Loaded};
pub use tab::Tab;
