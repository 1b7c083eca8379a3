//! Passes over host programs, the work of `bef opt` (the reference's
//! `tfrt_opt`): the op verifier, and the transformations and analyses a
//! pipeline can name.
//!
//! - [`verify`]: the invariants of the ops this crate knows (operand and
//!   result types, function returns, callees, regions), reported with the
//!   reference's messages; also the check for ops of unregistered dialects.
//! - [`canonicalize`]: drops unused side-effect-free ops and folds
//!   `tfrt.merge.chains` (`--canonicalize`).
//! - [`inline`]: inlines `tfrt.call`s the way MLIR's inliner does, erasing
//!   private functions nothing refers to any more (`--inline`).
//! - [`print_stream`]: reports the stream analysis of every function as
//!   remarks (`--tfrt-print-stream`).
//! - [`fuse_matmul`]: fuses a matrix product's bias broadcast and ReLU into
//!   one kernel (`--fuse-matmul-epilogue`; not a reference pass).
//!
//! Every pass takes a verified [`Module`] and leaves a verified one; value
//! ids are renumbered canonically afterwards.

pub mod canonicalize;
pub mod fuse_matmul;
pub mod inline;
pub mod print_stream;
pub mod verify;
mod walk;

use crate::ir::{Diagnostic, Module};

/// A pass `bef opt` can run, by its reference name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Pass {
    /// `inline`: inline calls (see [`inline`]).
    Inline,
    /// `canonicalize`: local simplifications (see [`canonicalize`]).
    Canonicalize,
    /// `tfrt-print-stream`: stream analysis remarks (see [`print_stream`]).
    PrintStream,
    /// `fuse-matmul-epilogue`: products fused with their bias and ReLU
    /// (see [`fuse_matmul`]).
    FuseMatmulEpilogue,
}

impl Pass {
    /// Every pass, in the order `bef opt --help` lists them.
    pub const ALL: [Pass; 4] = [
        Pass::Canonicalize,
        Pass::FuseMatmulEpilogue,
        Pass::Inline,
        Pass::PrintStream,
    ];

    /// The pass's command-line name (`inline`, `canonicalize`,
    /// `tfrt-print-stream`, `fuse-matmul-epilogue`).
    pub fn name(self) -> &'static str {
        match self {
            Pass::Inline => "inline",
            Pass::Canonicalize => "canonicalize",
            Pass::PrintStream => "tfrt-print-stream",
            Pass::FuseMatmulEpilogue => "fuse-matmul-epilogue",
        }
    }

    /// The pass named `name`, if there is one.
    pub fn from_name(name: &str) -> Option<Pass> {
        Pass::ALL.into_iter().find(|p| p.name() == name)
    }

    /// Runs the pass over `module`. Returns the diagnostics it reports
    /// (remarks; never errors for a verified module).
    pub fn run(self, module: &mut Module) -> Vec<Diagnostic> {
        match self {
            Pass::Inline => {
                inline::inline(module);
                Vec::new()
            }
            Pass::Canonicalize => {
                canonicalize::canonicalize(module);
                Vec::new()
            }
            Pass::PrintStream => print_stream::print_streams(module),
            Pass::FuseMatmulEpilogue => {
                fuse_matmul::fuse_matmul_epilogue(module);
                Vec::new()
            }
        }
    }
}

#[cfg(test)]
mod tests;
