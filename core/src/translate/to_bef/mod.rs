//! IR → BEF, following the reference `mlir_to_bef` in two phases: collect
//! (walk the module in post-order, as MLIR's `walk` does, gathering kernel
//! names, types, functions and attributes in first-seen order, and
//! reporting every encoder restriction), then emit each function body.

mod collect;
mod emit;
mod flat;

use collect::{MIN_PARALLEL_OPS, canonical, collect, region_key, value_regions};
pub(super) use emit::analyze_block;
pub use emit::function_streams;

use std::ops::Range;

use rustc_hash::FxHashMap as HashMap;

use super::attributes::{self, Unsupported};
use super::compiled;
use super::streams::{self, StreamOp, StreamOptions};
use super::{ROOT_STREAM_IDS_ATTRIBUTE, STREAM_ID_ATTRIBUTE, is_skipped_attribute};
use crate::abi;
use crate::format::constants::MAX_NESTING;
use crate::format::{self, Attribute as BefAttribute, Body, FunctionKind, Kernel, KernelLocation};
use crate::ir::{
    Attribute, Block, Diagnostic, Func, FuncKind, Location, Module, Op, Region, Type, ValueId,
};

/// The op that ends every function body; not a kernel.
pub const RETURN_OP: &str = "tfrt.return";

/// Nesting of regions deeper than this is refused rather than recursed into.
const MAX_REGION_DEPTH: usize = 256;

/// Options of the text-to-BEF translation.
#[derive(Debug, Clone, Copy)]
pub struct TranslateOptions {
    /// Write the AttributeTypes, AttributeNames and RegisterTypes sections,
    /// which `bef_to_mlir` needs to rebuild attributes and value types
    /// (`--disable-optional-sections` clears it).
    pub optional_sections: bool,
}

impl Default for TranslateOptions {
    fn default() -> Self {
        TranslateOptions {
            optional_sections: true,
        }
    }
}

/// Translates `module` to BEF bytes, or reports every problem the reference
/// encoder would report.
pub fn mlir_to_bef(module: &Module, options: TranslateOptions) -> Result<Vec<u8>, Vec<Diagnostic>> {
    let value_region = value_regions(module);
    let flat = flat_with(module, &value_region, options, MIN_PARALLEL_OPS)?;
    format::encoder::encode_source(flat.source())
        .map_err(|e| vec![Diagnostic::new(module.op.location.clone(), e.0)])
}

/// Translates `module` to the BEF model (what `format::encode` writes).
pub fn mlir_to_bef_model(
    module: &Module,
    options: TranslateOptions,
) -> Result<format::Module, Vec<Diagnostic>> {
    model_with(module, options, MIN_PARALLEL_OPS)
}

/// [`mlir_to_bef_model`] collecting and emitting on two threads however
/// small the module (for the fuzz target that compares it with one
/// thread).
pub fn mlir_to_bef_model_on_two_threads(
    module: &Module,
    options: TranslateOptions,
) -> Result<format::Module, Vec<Diagnostic>> {
    model_with(module, options, 0)
}

/// [`mlir_to_bef`] collecting, emitting and encoding on two threads
/// however small the module.
#[cfg(test)]
fn mlir_to_bef_on_two_threads(
    module: &Module,
    options: TranslateOptions,
) -> Result<Vec<u8>, Vec<Diagnostic>> {
    let value_region = value_regions(module);
    let flat = flat_with(module, &value_region, options, 0)?;
    format::encoder::encode_source_on_two_threads(flat.source())
        .map_err(|e| vec![Diagnostic::new(module.op.location.clone(), e.0)])
}

/// `mlir_to_bef_model`, collecting and emitting on two threads when the
/// module has at least `min_parallel` ops in function bodies.
fn model_with(
    module: &Module,
    options: TranslateOptions,
    min_parallel: usize,
) -> Result<format::Module, Vec<Diagnostic>> {
    let value_region = value_regions(module);
    Ok(flat_with(module, &value_region, options, min_parallel)?.into_model())
}

/// The translation in the encoder's flat layout.
/// `value_region` comes from `value_regions`.
fn flat_with<'m>(
    module: &'m Module,
    value_region: &'m [Option<ParentRegion>],
    options: TranslateOptions,
    min_parallel: usize,
) -> Result<FlatModule<'m>, Vec<Diagnostic>> {
    let mut collector = collect(module, options, value_region, min_parallel);
    collector.check_function_references();
    if !collector.errors.is_empty() {
        return Err(collector.errors);
    }
    collector.emit(min_parallel)
}

/// The translated module: the model's tables, with bodies that keep the
/// lists of all their kernels in one array (no allocation per kernel).
struct FlatModule<'m> {
    kernel_names: Vec<String>,
    types: Vec<String>,
    attributes: Vec<BefAttribute>,
    functions: Vec<FlatFunction<'m>>,
    optional_sections: bool,
    extra_strings: Vec<String>,
    signatures: Vec<format::FunctionSignatures>,
}

struct FlatFunction<'m> {
    kind: FunctionKind,
    name: &'m str,
    arg_types: Vec<u32>,
    result_types: Vec<u32>,
    body: Option<FlatBody<'m>>,
}

/// A body whose kernels' lists live in `words` and attribute names in
/// `names`.
struct FlatBody<'m> {
    /// The IR's locations, converted only as the encoder writes them.
    location: &'m Location,
    num_registers: u32,
    register_types: Vec<u32>,
    results: Vec<u32>,
    kernels: Vec<FlatKernel<'m>>,
    words: Vec<u32>,
    names: Vec<&'m str>,
}

/// A kernel of a `FlatBody`: from `start` in `words`, its arguments,
/// attributes, functions, results, the user count of each result and the
/// users; from `names_start`, `names` attribute names.
struct FlatKernel<'m> {
    /// `None` for the pseudo kernel.
    location: Option<&'m Location>,
    code: u32,
    stream_id: u64,
    start: u32,
    args: u32,
    attributes: u32,
    functions: u32,
    results: u32,
    users: u32,
    names_start: u32,
    names: u32,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum ParentRegion {
    Module,
    Region(RegionKey),
}

/// A region by address, its identity while the module is borrowed (an
/// address rather than a pointer, so that the collector can be shared
/// with the thread emitting half of the bodies).
type RegionKey = usize;

struct FunctionEntry<'m> {
    name: &'m str,
    kind: FunctionKind,
    /// The op whose location the body carries and whose options (cost
    /// threshold) the stream analysis reads.
    owner: &'m Op,
    region_index: usize,
    /// `None` for native functions.
    region: Option<&'m Region>,
}

struct Collector<'m> {
    module: &'m Module,
    options: TranslateOptions,
    errors: Vec<Diagnostic>,
    kernel_names: Vec<String>,
    kernel_ids: HashMap<&'m str, u32>,
    /// The name `add_kernel` saw last (in `kernel_ids`).
    last_kernel: Option<&'m str>,
    types: Vec<Type>,
    type_ids: HashMap<Type, u32>,
    /// The type `add_type` gave last (`u32::MAX`: none yet).
    last_type: u32,
    functions: Vec<FunctionEntry<'m>>,
    named_functions: HashMap<&'m str, u32>,
    region_functions: HashMap<RegionKey, u32>,
    attributes: Vec<BefAttribute>,
    attribute_ids: HashMap<Attribute, u32>,
    /// Bytes the dense splats converted so far expand to in BEF, which
    /// stores every element: bounded for the whole module, not only per
    /// attribute, as each splat is a few bytes of text.
    splat_bytes: u64,
    /// Bytes of the compiled modules serialized so far (each symbol that
    /// names one carries a copy), bounded like the splats.
    unit_bytes: u64,
    extra_strings: Vec<String>,
    /// Symbol references to check once every function is known.
    /// With the name of the op that holds each.
    function_references: Vec<(&'m Attribute, Location, &'m str)>,
    /// The region that defines each value (`None`: no block or op does).
    value_region: &'m [Option<ParentRegion>],
    /// The type index of each op result and block argument seen by the
    /// collection (`u32::MAX`: not seen), so that register types need no
    /// hashing.
    value_type: Vec<u32>,
}

struct FunctionEmitter<'c, 'm> {
    collector: &'c Collector<'m>,
    /// Register number of each value in the function being emitted.
    register: Vec<u32>,
    /// Per value: 0 before its definition, else its producer (see `body`).
    producer: Vec<u32>,
    errors: Vec<Diagnostic>,
    /// Scratch for a kernel's function list.
    functions: Vec<u32>,
    /// Per register of the function being emitted: its number of users,
    /// then where its next user goes (see `make_room_for_users`).
    users: Vec<u32>,
    /// Buffers of the stream analysis, kept from function to function.
    streams: streams::Scratch,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A module collected and emitted on two threads (forced however
    /// small) gives the model, or the errors, of one thread.
    #[test]
    fn two_threads_give_the_same_model() {
        let mut compared = 0;
        for (path, chunk) in crate::test_corpus::corpus_chunks() {
            let Ok(module) = crate::text::parse_module(&chunk, "t.mlir") else {
                continue;
            };
            let options = TranslateOptions::default();
            let one = model_with(&module, options, usize::MAX);
            assert_eq!(model_with(&module, options, 0), one, "{}", path.display());
            compared += 1;
        }
        assert!(compared > 20, "only {compared} programs compared");
    }

    /// The bytes written from the flat bodies, on one thread or two, are
    /// those of the model.
    #[test]
    fn flat_bodies_encode_as_the_model() {
        let mut compared = 0;
        for (path, chunk) in crate::test_corpus::corpus_chunks() {
            let Ok(module) = crate::text::parse_module(&chunk, "t.mlir") else {
                continue;
            };
            for optional_sections in [true, false] {
                let options = TranslateOptions { optional_sections };
                let Ok(model) = mlir_to_bef_model(&module, options) else {
                    continue;
                };
                let from_model = format::encode(&model).map_err(|e| e.0);
                let strip =
                    |r: Result<Vec<u8>, Vec<Diagnostic>>| r.map_err(|mut e| e.remove(0).message);
                let path = path.display();
                assert_eq!(strip(mlir_to_bef(&module, options)), from_model, "{path}");
                let two = strip(mlir_to_bef_on_two_threads(&module, options));
                assert_eq!(two, from_model, "{path}");
                compared += 1;
            }
        }
        assert!(compared > 20, "only {compared} programs compared");
    }

    /// IR locations written directly give the bytes of their model
    /// conversion, file ranges (which BEF cannot write) included.
    #[test]
    fn ir_locations_are_written_as_their_model() {
        use format::location::{LocationEmitter, to_model};
        let at = |line| Location::file_line_col("a.mlir", line, 1);
        let range = || Location::FileRange {
            file: "a.mlir".into(),
            start_line: 1,
            start_column: 2,
            end_line: 3,
            end_column: 4,
        };
        let name = |name: &str, child| Location::Name {
            name: name.into(),
            child: Box::new(child),
        };
        let call = |callee, caller| Location::CallSite {
            callee: Box::new(callee),
            caller: Box::new(caller),
        };
        let fused = |locations| Location::Fused {
            locations,
            metadata: None,
        };
        let cases = [
            at(1),
            range(),
            name("n", range()),
            name("m", call(at(2), range())),
            call(name("unwritten", at(3)), range()),
            call(at(4), name("c", range())),
            fused(vec![range(), at(5), name("f", fused(vec![range()]))]),
            fused(vec![range(), call(range(), at(6))]),
            Location::Unknown,
        ];
        let mut direct = LocationEmitter::new();
        let mut converted = LocationEmitter::new();
        for location in &cases {
            assert_eq!(
                direct.op_location(Some(location)),
                converted.op_location(to_model(location).as_ref()),
                "{location:?}"
            );
        }
        assert_eq!(direct.locations.bytes(), converted.locations.bytes());
        assert_eq!(direct.strings.bytes(), converted.strings.bytes());
        assert_eq!(direct.concrete_count, converted.concrete_count);
    }
}
