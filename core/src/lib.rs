//! `bef`: the TFRT Binary Executable Format and host runtime.
//!
//! A program in MLIR text, translated to BEF and run:
//!
//! ```
//! use bef::exec::{Input, KernelRegistry, ResultValue, Runner};
//!
//! let text = r#"
//! func.func @add_one(%x: i32) -> i32 {
//!   %one = tfrt.constant.i32 1
//!   %y = tfrt.add.i32 %x, %one
//!   tfrt.return %y : i32
//! }
//! func.func @main() -> i32 {
//!   %two = tfrt.constant.i32 2
//!   %three = tfrt.call @add_one(%two) : (i32) -> i32
//!   tfrt.return %three : i32
//! }
//! "#;
//! let module = bef::text::parse_module(text, "add.mlir")?;
//! let bytes = bef::translate::mlir_to_bef(&module, Default::default())
//!     .map_err(|diagnostics| diagnostics[0].clone())?;
//!
//! let mut registry = KernelRegistry::new();
//! bef::kernels::register_all(&mut registry);
//! let runner = Runner::builder(registry).build()?;
//! let program = runner.load(Input::from_bytes(&bytes, "add.bef")?)?;
//! let main = runner.function(&program, "main")?;
//! let finished = runner.run(&main, &[], None)?;
//! assert_eq!(finished.results, [ResultValue::I32(3)]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The same bytes as `bef dump` and `befview` list them, every row with
//! its byte range:
//!
//! ```
//! # let module = bef::text::parse_module(
//! #     "func.func @main() -> i32 {\n  %c = tfrt.constant.i32 3\n  tfrt.return %c : i32\n}\n",
//! #     "main.mlir",
//! # )?;
//! # let bytes = bef::translate::mlir_to_bef(&module, Default::default())
//! #     .map_err(|diagnostics| diagnostics[0].clone())?;
//! use bef::format::SectionId;
//! use bef::inspect::Listing;
//!
//! let listing = Listing::new(&bytes)?;
//! assert!(listing.problems().is_empty());
//! let functions = listing.section(SectionId::Functions).expect("a Functions section");
//! assert!(functions.range.end <= bytes.len());
//! let main = listing.functions().find(|f| f.name == "main").expect("main is listed");
//! assert!(functions.range.start <= main.range.start && main.range.end <= functions.range.end);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Modules, bottom to top: each uses only modules above it in this list
//! (tests aside). `core/tests/layering.rs` holds the table of which may
//! use which, in this order, and checks it against the `use crate::`
//! lines; `ARCHITECTURE.md` shows the same table.
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
