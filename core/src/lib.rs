//! `bef`: the TFRT Binary Executable Format and host runtime.
//!
//! Module map (see `../shared/DESIGN.md`): `format` owns BEF bytes,
//! `ir` is the host-program IR, `text` its MLIR syntax, `translate` moves
//! programs between IR and BEF, `runtime` owns AsyncValue, work queues,
//! allocators and the host context, `inspect` is the decoded listing of a
//! BEF file with the byte range of every row, `cli` the command front ends.

pub mod bytecode;
pub mod cli;
#[cfg(test)]
mod corpus_chunks;
pub mod dump;
pub mod exec;
pub mod format;
pub mod fuzz_targets;
pub mod global_alloc;
pub mod inspect;
pub mod ir;
pub mod kernels;
pub mod runtime;
pub mod text;
pub mod translate;
