//! `bef`: the TFRT Binary Executable Format and host runtime.
//!
//! Module map (see `../shared/DESIGN.md`): `format` owns BEF bytes,
//! `runtime` owns AsyncValue, work queues, allocators and the host context.

pub mod dump;
pub mod format;
pub mod fuzz_targets;
pub mod ir;
pub mod runtime;
pub mod text;
