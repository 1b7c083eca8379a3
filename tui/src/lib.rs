//! `befview`: a terminal inspector for BEF files.
//!
//! The pieces, one responsibility each: [`input`] reads the file given
//! (regular files only; large ones mapped and watched, so that their
//! truncation is reported: `bef::tool_io::sigbus`), [`document`] opens it
//! (MLIR translated), [`tensors`] opens a BTF file for its Tensors view,
//! [`analysis`] decodes the whole file for findings and
//! users, [`keys`] is the key table, [`app`] is the state and how actions
//! change it, [`views`] draws it (one file per view; [`columns`] sizes
//! table columns, [`durations`] writes times), [`dump`] prints a
//! view as text, and [`terminal`] runs the event loop and restores the
//! terminal on every exit.

pub mod analysis;
pub mod app;
pub mod columns;
pub mod document;
pub mod dump;
pub mod durations;
pub mod execution;
pub mod input;
pub mod inspector;
pub mod keys;
pub mod names;
pub mod simulate;
pub mod tensors;
pub mod terminal;
pub mod views;

pub use app::{App, Tab};
pub use document::{Document, Loaded};
