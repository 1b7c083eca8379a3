//! `bef`: the TFRT Binary Executable Format and host runtime.
//!
//! Modules, bottom to top: each uses only modules above it in this list
//! (tests aside), which a test checks against the `use crate::` lines.
//! - [`tool_io`]: what tools share to handle untrusted files: terminal
//!   escaping, the policy for files named inside files, safe outputs, the
//!   SIGBUS watch over mapped files.
//! - [`mod@format`]: BEF bytes — zero-copy reading, the encoder, attribute and
//!   location codecs, the structural verifier (uses `tool_io` for mapped
//!   files).
//! - [`abi`]: function signatures (raw, SIP, JSON reflection) and the
//!   typed values callers pass and get back.
//! - [`ir`]: the in-memory host-program IR shared by every translator.
//! - [`text`]: MLIR text — lexer, parser (generic and custom op forms),
//!   printer (also the `Display` of IR types), diagnostics.
//! - [`bytecode`]: the MLIR bytecode reader and writer, every version.
//! - [`translate`]: IR → BEF and BEF → IR.
//! - [`passes`]: the verifier and the passes of `bef opt` (inlining,
//!   canonicalization, stream analysis remarks), over the IR.
//! - [`inspect`]: the decoded listing of a BEF file for `bef dump` and the
//!   tools, every row with its byte range.
//! - [`runtime`]: AsyncValue, work queues, host allocators, the host
//!   context.
//! - [`exec`]: kernel registry, program loading, the BEF executor and sync
//!   interpreter, observer events. Its `Runner` loads any input form, so it
//!   uses the translators above.
//! - [`btf`]: the Binary Tensor Format, the tensor files model programs
//!   read: a bounded zero-copy reader and a writer.
//! - [`kernels`]: the standard kernel library.
//!
//! The `bef` command (feature `cli`, on by default) lives in
//! `src/bin/bef/`; the random-program generators used by property tests and
//! fuzzing are behind the `arbitrary` feature.

pub mod abi;
pub mod btf;
pub mod bytecode;
pub mod exec;
pub mod format;
pub mod inspect;
pub mod ir;
pub mod kernels;
pub mod passes;
pub mod runtime;
#[cfg(test)]
mod test_corpus;
pub mod text;
pub mod tool_io;
pub mod translate;
