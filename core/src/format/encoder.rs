//! Module model → BEF bytes, laid out byte for byte as the reference
//! `mlir_to_bef` writes them (fact sheet `bef-encoding.md`).

use std::ops::Range;

use rustc_hash::{FxHashMap, FxHashSet};

use super::attr::Attribute;
use super::attr::emit_attribute;
use super::constants::FunctionKind;
use super::constants::{MAGIC, PSEUDO_KERNEL_LOCATION, SectionId, VERSION};
use super::emitter::{Emitter, vbr_len};
use super::error::{EncodeError, EncodeResult};
use super::kernel_layout::KernelHeader;
use super::location::Location;
use super::location::{LocationEmitter, LocationTree};
use super::model::{Body, Function, Kernel, KernelLocation, Module};

/// Encodes `module`. Deterministic: the same module gives the same bytes.
pub fn encode(module: &Module) -> EncodeResult<Vec<u8>> {
    Encoder::new(Source::of(module))?.finish(MIN_PARALLEL_KERNELS)
}

/// What the encoder reads: the tables of a module and its functions, which
/// are the model's (`Function`) or another layout of the same content (the
/// translator's bodies keep each kernel's lists in one array per function,
/// so that they cost no allocation per kernel).
pub(crate) struct Source<'m, F> {
    pub kernel_names: &'m [String],
    pub types: &'m [String],
    pub attributes: &'m [Attribute],
    pub functions: &'m [F],
    pub optional_sections: bool,
    pub extra_strings: &'m [String],
    pub signatures: &'m [super::signatures::FunctionSignatures],
}

impl<F> Clone for Source<'_, F> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<F> Copy for Source<'_, F> {}

impl<'m> Source<'m, Function> {
    fn of(module: &'m Module) -> Self {
        Source {
            kernel_names: &module.kernel_names,
            types: &module.types,
            attributes: &module.attributes,
            functions: &module.functions,
            optional_sections: module.optional_sections,
            extra_strings: &module.extra_strings,
            signatures: &module.signatures,
        }
    }
}

/// A function as the encoder reads it.
pub(crate) trait FunctionSource: Sync {
    type Body: BodySource;
    fn kind(&self) -> FunctionKind;
    fn name(&self) -> &str;
    fn arg_types(&self) -> &[u32];
    fn result_types(&self) -> &[u32];
    fn body(&self) -> Option<&Self::Body>;
}

/// A function body as the encoder reads it.
pub(crate) trait BodySource {
    /// How locations are kept: the model's, or the IR's (written without
    /// a conversion per kernel).
    type Location: LocationTree;
    fn location(&self) -> Option<&Self::Location>;
    fn num_registers(&self) -> u32;
    /// Empty unless optional sections are written.
    fn register_types(&self) -> &[u32];
    fn results(&self) -> &[u32];
    fn kernel_count(&self) -> usize;
    fn kernel(&self, index: usize) -> KernelRef<'_>;
    fn kernel_location(&self, index: usize) -> KernelPlace<'_, Self::Location>;
    /// The attribute names of every kernel, kernel after kernel.
    fn attribute_names(&self) -> impl Iterator<Item = &str>;
    /// The argument registers of every kernel, kernel after kernel.
    fn argument_registers(&self) -> impl Iterator<Item = &u32>;
    /// Uses of each register: operand uses (duplicates count) plus uses
    /// as a function result, as the register table records them.
    fn register_uses(&self) -> Vec<u64> {
        let mut uses = vec![0u64; self.num_registers() as usize];
        for &reg in self.argument_registers().chain(self.results()) {
            if let Some(count) = uses.get_mut(reg as usize) {
                *count += 1;
            }
        }
        uses
    }
}

/// One kernel of a body, borrowed.
pub(crate) struct KernelRef<'a> {
    pub code: u32,
    pub args: &'a [u32],
    pub attributes: &'a [u32],
    pub attribute_names: Names<'a>,
    pub functions: &'a [u32],
    pub results: &'a [u32],
    pub used_by: UsedBy<'a>,
    pub stream_id: u64,
}

/// A kernel's location as a body holds it.
pub(crate) enum KernelPlace<'a, L> {
    /// The pseudo kernel's fixed `0xCDCDCDCD`.
    Pseudo,
    /// A virtual offset.
    Virtual,
    /// A location, or a virtual offset when BEF cannot write it.
    At(&'a L),
}

/// A kernel's attribute names.
#[derive(Clone, Copy)]
pub(crate) enum Names<'a> {
    Owned(&'a [String]),
    Borrowed(&'a [&'a str]),
}

impl<'a> Names<'a> {
    pub fn len(self) -> usize {
        match self {
            Names::Owned(names) => names.len(),
            Names::Borrowed(names) => names.len(),
        }
    }

    pub fn iter(self) -> impl Iterator<Item = &'a str> {
        let (owned, borrowed) = match self {
            Names::Owned(names) => (names, &[][..]),
            Names::Borrowed(names) => (&[][..], names),
        };
        owned
            .iter()
            .map(String::as_str)
            .chain(borrowed.iter().copied())
    }
}

/// A kernel's used-by lists: one list per result.
#[derive(Clone, Copy)]
pub(crate) enum UsedBy<'a> {
    Lists(&'a [Vec<u32>]),
    /// The number of users of each result, then all users, result after
    /// result.
    Flat {
        counts: &'a [u32],
        users: &'a [u32],
    },
}

impl FunctionSource for Function {
    type Body = Body;
    fn kind(&self) -> FunctionKind {
        self.kind
    }
    fn name(&self) -> &str {
        &self.name
    }
    fn arg_types(&self) -> &[u32] {
        &self.arg_types
    }
    fn result_types(&self) -> &[u32] {
        &self.result_types
    }
    fn body(&self) -> Option<&Body> {
        self.body.as_ref()
    }
}

impl BodySource for Body {
    type Location = Location;
    fn location(&self) -> Option<&Location> {
        self.location.as_ref()
    }
    fn num_registers(&self) -> u32 {
        self.num_registers
    }
    fn register_types(&self) -> &[u32] {
        &self.register_types
    }
    fn results(&self) -> &[u32] {
        &self.results
    }
    fn kernel_count(&self) -> usize {
        self.kernels.len()
    }
    fn kernel_location(&self, index: usize) -> KernelPlace<'_, Location> {
        match &self.kernels[index].location {
            KernelLocation::Pseudo => KernelPlace::Pseudo,
            KernelLocation::Virtual => KernelPlace::Virtual,
            KernelLocation::At(location) => KernelPlace::At(location),
        }
    }
    fn attribute_names(&self) -> impl Iterator<Item = &str> {
        (self.kernels.iter()).flat_map(|k| k.attribute_names.iter().map(String::as_str))
    }
    fn argument_registers(&self) -> impl Iterator<Item = &u32> {
        self.kernels.iter().flat_map(|k| &k.args)
    }
    fn kernel(&self, index: usize) -> KernelRef<'_> {
        let kernel: &Kernel = &self.kernels[index];
        KernelRef {
            code: kernel.code,
            args: &kernel.args,
            attributes: &kernel.attributes,
            attribute_names: Names::Owned(&kernel.attribute_names),
            functions: &kernel.functions,
            results: &kernel.results,
            used_by: UsedBy::Lists(&kernel.used_by),
            stream_id: kernel.stream_id,
        }
    }
}

/// Encodes the functions of `source` with its tables.
pub(crate) fn encode_source<F: FunctionSource>(source: Source<'_, F>) -> EncodeResult<Vec<u8>> {
    Encoder::new(source)?.finish(MIN_PARALLEL_KERNELS)
}

/// [`encode_source`] with the bodies written on two threads however small
/// the module.
#[cfg(test)]
pub(crate) fn encode_source_on_two_threads<F: FunctionSource>(
    source: Source<'_, F>,
) -> EncodeResult<Vec<u8>> {
    Encoder::new(source)?.finish(0)
}

/// Modules with fewer kernels than this write their bodies on one thread:
/// a second thread costs more than it saves on small modules.
const MIN_PARALLEL_KERNELS: usize = 16 << 10;

/// [`encode`] with the bodies written on two threads however small the
/// module (for the fuzz target that compares it with one thread).
pub fn encode_on_two_threads(module: &Module) -> EncodeResult<Vec<u8>> {
    Encoder::new(Source::of(module))?.finish(0)
}

/// The number of items (of the given sizes, `total` together) that hold
/// half of the total: where work is cut in two for two threads.
pub(crate) fn halfway(sizes: impl Iterator<Item = usize>, total: usize) -> usize {
    let mut behind = 0;
    let mut count = 0;
    for size in sizes {
        behind += size;
        count += 1;
        if behind * 2 >= total {
            break;
        }
    }
    count
}

struct Encoder<'m, F> {
    module: Source<'m, F>,
    strings: FxHashMap<&'m str, u64>,
    string_section: Emitter,
    attribute_offsets: Vec<u32>,
}

/// What `emit_bodies` writes for a run of functions; `finish` puts the runs
/// together in function order.
#[derive(Default)]
struct BodyRun {
    /// Per function, the ends of its header in `headers` and of its kernel
    /// list in `lists`; `None` for a function without body.
    spans: Vec<Option<(usize, usize)>>,
    headers: Emitter,
    /// Kernel lists, 4-byte words only: each starts aligned.
    lists: Emitter,
    attribute_names: Emitter,
    register_types: Emitter,
}

impl BodyRun {
    /// Per function: the bytes of its header and of its kernel list, or
    /// `None` for a function without body.
    fn bodies(&self) -> impl Iterator<Item = Option<(&[u8], &[u8])>> + '_ {
        let (mut header, mut list) = (0, 0);
        self.spans.iter().map(move |span| {
            span.map(|(header_end, list_end)| {
                let body = (
                    &self.headers.bytes()[header..header_end],
                    &self.lists.bytes()[list..list_end],
                );
                (header, list) = (header_end, list_end);
                body
            })
        })
    }
}

fn fail<T>(message: String) -> EncodeResult<T> {
    Err(EncodeError(message))
}

fn fixed32(value: u64, what: &str) -> EncodeResult<u32> {
    u32::try_from(value)
        .map_err(|_| EncodeError(format!("{what} {value:#x} does not fit in a FIXED32 field")))
}

impl<'m, F: FunctionSource> Encoder<'m, F> {
    fn new(module: Source<'m, F>) -> EncodeResult<Self> {
        // De-duplicated by hashing (most names recur), then sorted.
        let mut unique: FxHashSet<&str> = FxHashSet::default();
        unique.extend(module.kernel_names.iter().map(String::as_str));
        unique.extend(module.types.iter().map(String::as_str));
        unique.extend(module.functions.iter().map(|f| f.name()));
        unique.extend(module.extra_strings.iter().map(String::as_str));
        if module.optional_sections {
            for body in module.functions.iter().filter_map(|f| f.body()) {
                unique.extend(body.attribute_names());
            }
        }
        let mut names: Vec<&str> = unique.into_iter().collect();
        names.sort_unstable();
        let mut string_section = Emitter::new();
        let mut strings = FxHashMap::with_capacity_and_hasher(names.len(), Default::default());
        for name in names {
            if name.as_bytes().contains(&0) {
                return fail(format!("string {name:?} contains a NUL byte"));
            }
            strings.insert(name, string_section.len() as u64);
            string_section.extend(name.as_bytes());
            string_section.byte(0);
        }
        Ok(Encoder {
            module,
            strings,
            string_section,
            attribute_offsets: Vec::new(),
        })
    }

    fn string(&self, s: &str) -> u64 {
        self.strings[s]
    }

    /// The file; bodies on two threads when the module has at least
    /// `min_parallel` kernels.
    fn finish(mut self, min_parallel: usize) -> EncodeResult<Vec<u8>> {
        let module = self.module;
        let optional = module.optional_sections;
        let mut attributes = Emitter::new();
        let mut attribute_types = Emitter::new();
        attribute_types.vbr(module.attributes.len() as u64);
        for (index, attr) in module.attributes.iter().enumerate() {
            let offset = emit_attribute(&mut attributes, attr)
                .map_err(|EncodeError(e)| EncodeError(format!("attribute {index}: {e}")))?;
            self.attribute_offsets
                .push(fixed32(offset as u64, "attribute offset")?);
            attribute_types.vbr(offset as u64);
            attribute_types.vbr(u64::from(attr.attr_type().0));
        }
        let kernel_table = self.name_table(module.kernel_names);
        let type_table = self.name_table(module.types);

        // Locations are numbered in order (strings shared, virtual offsets
        // counting down), so they are written first; the bodies, which
        // only refer to them, may then be written on two threads.
        let mut locations = LocationEmitter::new();
        let places = self.place_locations(&mut locations)?;
        let count = module.functions.len();
        let kernels_of = |function: &F| function.body().map_or(0, |b| b.kernel_count());
        let total: usize = module.functions.iter().map(kernels_of).sum();
        let cut = if total >= min_parallel {
            halfway(module.functions.iter().map(kernels_of), total)
        } else {
            count
        };
        let second_places = module.functions[..cut]
            .iter()
            .filter(|f| f.body().is_some() && f.kind().has_body())
            .map(|f| 1 + kernels_of(f))
            .sum::<usize>();
        let (first, second) = std::thread::scope(|scope| {
            let second = (cut < count)
                .then(|| scope.spawn(|| self.emit_bodies(cut..count, &places[second_places..])));
            let first = self.emit_bodies(0..cut, &places);
            let second = second.map(|thread| {
                thread
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            });
            (first, second)
        });
        let runs = [Some(first?), second.transpose()?];
        let bodies = || runs.iter().flatten().flat_map(BodyRun::bodies);
        // The Functions section goes from the runs straight into the
        // output (the largest section is not copied twice): its length and
        // the offsets of the functions are computed first.
        let mut functions_len = 0;
        // Kernel lists are 4-byte aligned: the section is once it has one.
        let mut functions_alignment = 1;
        let mut function_offsets = Vec::with_capacity(count);
        for body in bodies() {
            function_offsets.push(functions_len as u64);
            if let Some((header, list)) = body {
                functions_len = (functions_len + header.len()).next_multiple_of(4) + list.len();
                functions_alignment = 4;
            }
        }
        let mut attribute_names = Emitter::new();
        let mut register_types = Emitter::new();
        attribute_names.vbr(count as u64);
        register_types.vbr(count as u64);
        for run in runs.iter().flatten() {
            attribute_names.extend(run.attribute_names.bytes());
            register_types.extend(run.register_types.bytes());
        }

        let mut index = Emitter::new();
        index.vbr(module.functions.len() as u64);
        for (function, offset) in module.functions.iter().zip(function_offsets) {
            index.byte(function.kind() as u8);
            index.vbr(offset);
            index.vbr(self.string(function.name()));
            for types in [function.arg_types(), function.result_types()] {
                index.vbr(types.len() as u64);
                for &ty in types {
                    self.check_type(ty)?;
                    index.vbr(u64::from(ty));
                }
            }
        }
        // Sections are built first so the output is allocated once.
        let sections = [
            &self.string_section,
            &attributes,
            &kernel_table,
            &type_table,
            &index,
            &locations.strings,
            &locations.locations,
            &attribute_types,
            &attribute_names,
            &register_types,
        ];
        let capacity = sections.iter().map(|s| s.len() + 24).sum::<usize>() + functions_len + 32;
        let mut out = Emitter::with_capacity(capacity);
        out.extend(&MAGIC);
        out.byte(VERSION);
        emit_section(&mut out, SectionId::Strings, &self.string_section);
        emit_section(&mut out, SectionId::Attributes, &attributes);
        emit_section(&mut out, SectionId::Kernels, &kernel_table);
        emit_section(&mut out, SectionId::Types, &type_table);
        emit_section(&mut out, SectionId::FunctionIndex, &index);
        section_header(
            &mut out,
            SectionId::Functions,
            functions_len,
            functions_alignment,
        );
        // The section starts aligned, so aligning `out` aligns in it.
        let functions_start = out.len();
        for (header, list) in bodies().flatten() {
            out.extend(header);
            out.align(4);
            out.extend(list);
        }
        debug_assert_eq!(out.len() - functions_start, functions_len);
        if locations.concrete_count > 0 {
            emit_section(&mut out, SectionId::LocationStrings, &locations.strings);
            emit_section(&mut out, SectionId::Locations, &locations.locations);
        }
        if optional {
            emit_section(&mut out, SectionId::AttributeTypes, &attribute_types);
            emit_section(&mut out, SectionId::AttributeNames, &attribute_names);
            emit_section(&mut out, SectionId::RegisterTypes, &register_types);
        }
        if !self.module.signatures.is_empty() {
            let signatures = super::signatures::emit(self.module.signatures);
            emit_section(&mut out, SectionId::Signatures, &signatures);
        }
        Ok(out.into_bytes())
    }

    fn name_table(&self, names: &[String]) -> Emitter {
        let mut table = Emitter::new();
        table.vbr(names.len() as u64);
        for name in names {
            table.vbr(self.string(name));
        }
        table
    }

    fn check_type(&self, ty: u32) -> EncodeResult<()> {
        if (ty as usize) < self.module.types.len() {
            Ok(())
        } else {
            fail(format!(
                "type index {ty} is out of range ({} types)",
                self.module.types.len()
            ))
        }
    }

    /// The location field of every body and kernel with a body to write,
    /// in order: a body's own, then its kernels'.
    fn place_locations(&self, locations: &mut LocationEmitter) -> EncodeResult<Vec<u64>> {
        let kernels: usize = (self.module.functions.iter())
            .filter_map(|f| f.body())
            .map(|b| b.kernel_count() + 1)
            .sum();
        let mut places = Vec::with_capacity(kernels);
        // A file:line:col location takes about eight bytes.
        locations.locations.reserve(kernels * 8);
        for function in self.module.functions {
            let Some(body) = function.body().filter(|_| function.kind().has_body()) else {
                continue;
            };
            let name = function.name();
            let place = locations
                .op_location(body.location())
                .map_err(|EncodeError(e)| EncodeError(format!("function '{name}': {e}")))?;
            places.push(place);
            for index in 0..body.kernel_count() {
                let place = match body.kernel_location(index) {
                    KernelPlace::Pseudo => Ok(u64::from(PSEUDO_KERNEL_LOCATION)),
                    KernelPlace::Virtual => {
                        locations.op_location::<<F::Body as BodySource>::Location>(None)
                    }
                    KernelPlace::At(location) => locations.op_location(Some(location)),
                };
                places.push(place.map_err(|EncodeError(e)| {
                    EncodeError(format!("function '{name}', kernel {index}: {e}"))
                })?);
            }
        }
        Ok(places)
    }

    /// The bodies of `functions`, whose locations start at `places`.
    fn emit_bodies(&self, functions: Range<usize>, mut places: &[u64]) -> EncodeResult<BodyRun> {
        // Sized from the kernel count (a typical kernel takes a few header
        // bytes and a dozen list words), so that the buffers rarely grow.
        let kernels: usize = self.module.functions[functions.clone()]
            .iter()
            .filter_map(|f| f.body())
            .map(|b| b.kernel_count())
            .sum();
        let mut run = BodyRun {
            headers: Emitter::with_capacity(kernels * 4),
            lists: Emitter::with_capacity(kernels * 48),
            ..BodyRun::default()
        };
        for index in functions {
            let function = &self.module.functions[index];
            match (function.body(), function.kind().has_body()) {
                (Some(body), true) => {
                    let (here, rest) = places.split_at(1 + body.kernel_count());
                    places = rest;
                    self.emit_body(body, function.arg_types().len(), here, &mut run)
                        .map_err(|EncodeError(e)| {
                            EncodeError(format!("function {index} ('{}'): {e}", function.name()))
                        })?;
                    run.spans.push(Some((run.headers.len(), run.lists.len())));
                }
                (None, false) => run.spans.push(None),
                (Some(_), false) => {
                    return fail(format!(
                        "native function '{}' cannot have a body",
                        function.name()
                    ));
                }
                (None, true) => {
                    return fail(format!("function '{}' needs a body", function.name()));
                }
            }
        }
        Ok(run)
    }

    /// One body: its header into `run.headers`, its kernel list into
    /// `run.lists`; `places` holds its location fields.
    fn emit_body(
        &self,
        body: &F::Body,
        num_args: usize,
        places: &[u64],
        run: &mut BodyRun,
    ) -> EncodeResult<()> {
        let num_registers = body.num_registers();
        if (num_registers as usize) < num_args {
            return fail(format!(
                "{num_registers} registers cannot hold {num_args} arguments"
            ));
        }
        let header = &mut run.headers;
        header.vbr(places[0]);
        let kernel_count = body.kernel_count();
        let uses = body.register_uses();
        header.vbr(uses.len() as u64);
        for count in uses {
            header.vbr(count);
        }
        header.vbr(kernel_count as u64);

        let optional = self.module.optional_sections;
        if optional {
            run.attribute_names.vbr(kernel_count as u64);
        }
        let list_start = run.lists.len();
        for (index, &location) in (0..kernel_count).zip(&places[1..]) {
            let kernel = body.kernel(index);
            run.headers.vbr((run.lists.len() - list_start) as u64);
            run.headers.vbr(kernel.args.len() as u64);
            run.headers.vbr(kernel.stream_id);
            self.emit_kernel(&kernel, location, &mut run.lists)
                .map_err(|EncodeError(e)| EncodeError(format!("kernel {index}: {e}")))?;
            if optional {
                if kernel.attribute_names.len() != kernel.attributes.len() {
                    return fail(format!(
                        "kernel {index} has {} attributes but {} attribute names",
                        kernel.attributes.len(),
                        kernel.attribute_names.len()
                    ));
                }
                for name in kernel.attribute_names.iter() {
                    run.attribute_names.vbr(self.string(name));
                }
            }
        }
        for &reg in body.results() {
            run.headers.vbr(u64::from(reg));
        }

        if optional {
            let register_types = body.register_types();
            if register_types.len() != num_registers as usize {
                return fail(format!(
                    "{} register types for {num_registers} registers",
                    register_types.len(),
                ));
            }
            run.register_types.vbr(u64::from(num_registers));
            for &ty in register_types {
                self.check_type(ty)?;
                run.register_types.vbr(u64::from(ty));
            }
        }
        Ok(())
    }

    fn emit_kernel(
        &self,
        kernel: &KernelRef<'_>,
        location: u64,
        list: &mut Emitter,
    ) -> EncodeResult<()> {
        let used_by_lists = match kernel.used_by {
            UsedBy::Lists(lists) => lists.len(),
            UsedBy::Flat { counts, .. } => counts.len(),
        };
        if used_by_lists != kernel.results.len() {
            return fail(format!(
                "{used_by_lists} used-by lists for {} results",
                kernel.results.len()
            ));
        }
        let head = KernelHeader {
            code: kernel.code,
            location: fixed32(location, "location offset")?,
            num_args: fixed32(kernel.args.len() as u64, "count")?,
            num_attributes: fixed32(kernel.attributes.len() as u64, "count")?,
            num_functions: fixed32(kernel.functions.len() as u64, "count")?,
            num_results: fixed32(kernel.results.len() as u64, "count")?,
        }
        .to_words();
        // Words are written in runs, aligned once: the flat layout has
        // each run in one array.
        match kernel.used_by {
            UsedBy::Lists(lists) => {
                list.u32s(&head);
                for users in lists {
                    list.u32(fixed32(users.len() as u64, "user count")?);
                }
                list.u32s(kernel.args);
            }
            UsedBy::Flat { counts, .. } => list.u32_runs(&[&head, counts, kernel.args]),
        }
        for &attr in kernel.attributes {
            let offset = self.attribute_offsets.get(attr as usize).ok_or_else(|| {
                EncodeError(format!(
                    "attribute index {attr} is out of range ({} attributes)",
                    self.attribute_offsets.len()
                ))
            })?;
            list.u32(*offset);
        }
        if let Some(&function) = kernel
            .functions
            .iter()
            .find(|&&f| f as usize >= self.module.functions.len())
        {
            return fail(format!("function index {function} is out of range"));
        }
        match kernel.used_by {
            UsedBy::Lists(lists) => {
                list.u32_runs(&[kernel.functions, kernel.results]);
                for users in lists {
                    list.u32s(users);
                }
            }
            UsedBy::Flat { users, .. } => {
                list.u32_runs(&[kernel.functions, kernel.results, users]);
            }
        }
        Ok(())
    }
}

/// `SECTION ::= id VBR(len << 1 | aligned) [alignment padding*] data`; the
/// alignment form is used only when the data would otherwise be misaligned.
fn emit_section(out: &mut Emitter, id: SectionId, data: &Emitter) {
    section_header(out, id, data.len(), data.required_alignment());
    out.extend(data.bytes());
}

/// The start of a section of `len` bytes of data that needs `alignment`,
/// up to where the data goes.
fn section_header(out: &mut Emitter, id: SectionId, len: usize, alignment: usize) {
    out.byte(id as u8);
    let shifted = (len as u64) << 1;
    if alignment > 1 && !(out.len() + vbr_len(shifted)).is_multiple_of(alignment) {
        out.vbr(shifted | 1);
        out.byte(alignment as u8);
        out.align(alignment);
    } else {
        out.vbr(shifted);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_module_is_27_bytes() {
        let module = Module {
            optional_sections: true,
            extra_strings: Vec::new(),
            ..Module::default()
        };
        let bytes = encode(&module).unwrap();
        let expected = [
            0x0b, 0xef, 0x00, 0x00, 0x00, 0x01, 0x00, 0x02, 0x02, 0x00, 0x03, 0x02, 0x00, 0x04,
            0x02, 0x00, 0x05, 0x00, 0x08, 0x02, 0x00, 0x09, 0x02, 0x00, 0x0a, 0x02, 0x00,
        ];
        assert_eq!(bytes, expected);
    }

    /// Bodies written on two threads (forced however small the module)
    /// give the bytes written on one.
    #[test]
    fn bodies_on_two_threads_give_the_same_bytes() {
        let dir = crate::test_corpus::corpus_path("bef");
        let mut compared = 0;
        for entry in std::fs::read_dir(&dir).expect("corpus") {
            let path = entry.expect("entry").path();
            let bytes = std::fs::read(&path).expect("readable");
            let buffer = crate::format::BefBuffer::copy_from(&bytes);
            let Ok(module) = buffer.open().and_then(|file| file.to_module()) else {
                continue;
            };
            let encode_with =
                |min_parallel| Encoder::new(Source::of(&module))?.finish(min_parallel);
            let one = encode_with(usize::MAX).expect("encodes");
            assert_eq!(encode_with(0).expect("encodes"), one, "{}", path.display());
            compared += 1;
        }
        assert!(compared >= 5, "only {compared} files compared");
    }
}
