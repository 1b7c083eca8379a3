//! Module model → BEF bytes, laid out byte for byte as the reference
//! `mlir_to_bef` writes them (fact sheet `bef-encoding.md`).

use std::ops::Range;

use rustc_hash::{FxHashMap, FxHashSet};

use super::attr::emit_attribute;
use super::constants::{MAGIC, PSEUDO_KERNEL_LOCATION, SectionId, VERSION};
use super::emitter::{Emitter, vbr_len};
use super::error::{EncodeError, EncodeResult};
use super::location::LocationEmitter;
use super::model::{Body, Function, Kernel, KernelLocation, Module};

/// Encodes `module`. Deterministic: the same module gives the same bytes.
pub fn encode(module: &Module) -> EncodeResult<Vec<u8>> {
    Encoder::new(module)?.finish(MIN_PARALLEL_KERNELS)
}

/// Modules with fewer kernels than this write their bodies on one thread:
/// a second thread costs more than it saves on small modules.
const MIN_PARALLEL_KERNELS: usize = 16 << 10;

/// [`encode`] with the bodies written on two threads however small the
/// module (for the fuzz target that compares it with one thread).
pub(crate) fn encode_on_two_threads(module: &Module) -> EncodeResult<Vec<u8>> {
    Encoder::new(module)?.finish(0)
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

struct Encoder<'m> {
    module: &'m Module,
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

fn fail<T>(message: String) -> EncodeResult<T> {
    Err(EncodeError(message))
}

fn fixed32(value: u64, what: &str) -> EncodeResult<u32> {
    u32::try_from(value)
        .map_err(|_| EncodeError(format!("{what} {value:#x} does not fit in a FIXED32 field")))
}

impl<'m> Encoder<'m> {
    fn new(module: &'m Module) -> EncodeResult<Self> {
        // De-duplicated by hashing (most names recur), then sorted.
        let mut unique: FxHashSet<&str> = FxHashSet::default();
        unique.extend(module.kernel_names.iter().map(String::as_str));
        unique.extend(module.types.iter().map(String::as_str));
        unique.extend(module.functions.iter().map(|f| f.name.as_str()));
        unique.extend(module.extra_strings.iter().map(String::as_str));
        if module.optional_sections {
            for body in module.functions.iter().filter_map(|f| f.body.as_ref()) {
                for kernel in &body.kernels {
                    unique.extend(kernel.attribute_names.iter().map(String::as_str));
                }
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
        for attr in &module.attributes {
            let offset = emit_attribute(&mut attributes, attr)?;
            self.attribute_offsets
                .push(fixed32(offset as u64, "attribute offset")?);
            attribute_types.vbr(offset as u64);
            attribute_types.vbr(u64::from(attr.attr_type().0));
        }
        let kernel_table = self.name_table(&module.kernel_names);
        let type_table = self.name_table(&module.types);

        // Locations are numbered in order (strings shared, virtual offsets
        // counting down), so they are written first; the bodies, which
        // only refer to them, may then be written on two threads.
        let mut locations = LocationEmitter::new();
        let places = self.place_locations(&mut locations);
        let count = module.functions.len();
        let kernels_of =
            |function: &Function| function.body.as_ref().map_or(0, |b| b.kernels.len());
        let total: usize = module.functions.iter().map(kernels_of).sum();
        let cut = if total >= min_parallel {
            halfway(module.functions.iter().map(kernels_of), total)
        } else {
            count
        };
        let second_places = module.functions[..cut]
            .iter()
            .filter(|f| f.body.is_some() && f.kind.has_body())
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
        let size: usize = runs
            .iter()
            .flatten()
            .map(|run| run.headers.len() + run.lists.len() + 3 * run.spans.len())
            .sum();
        let mut functions = Emitter::with_capacity(size);
        let mut attribute_names = Emitter::new();
        let mut register_types = Emitter::new();
        attribute_names.vbr(count as u64);
        register_types.vbr(count as u64);
        let mut function_offsets = Vec::with_capacity(count);
        for run in runs.iter().flatten() {
            let (mut header, mut list) = (0, 0);
            for span in &run.spans {
                function_offsets.push(functions.len() as u64);
                if let &Some((header_end, list_end)) = span {
                    functions.extend(&run.headers.bytes()[header..header_end]);
                    functions.align(4);
                    functions.extend(&run.lists.bytes()[list..list_end]);
                    (header, list) = (header_end, list_end);
                }
            }
            attribute_names.extend(run.attribute_names.bytes());
            register_types.extend(run.register_types.bytes());
        }

        let mut index = Emitter::new();
        index.vbr(module.functions.len() as u64);
        for (function, offset) in module.functions.iter().zip(function_offsets) {
            index.byte(function.kind as u8);
            index.vbr(offset);
            index.vbr(self.string(&function.name));
            for types in [&function.arg_types, &function.result_types] {
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
            &functions,
            &locations.strings,
            &locations.locations,
            &attribute_types,
            &attribute_names,
            &register_types,
        ];
        let capacity = sections.iter().map(|s| s.len() + 24).sum::<usize>() + 8;
        let mut out = Emitter::with_capacity(capacity);
        out.extend(&MAGIC);
        out.byte(VERSION);
        emit_section(&mut out, SectionId::Strings, &self.string_section);
        emit_section(&mut out, SectionId::Attributes, &attributes);
        emit_section(&mut out, SectionId::Kernels, &kernel_table);
        emit_section(&mut out, SectionId::Types, &type_table);
        emit_section(&mut out, SectionId::FunctionIndex, &index);
        emit_section(&mut out, SectionId::Functions, &functions);
        if locations.concrete_count > 0 {
            emit_section(&mut out, SectionId::LocationStrings, &locations.strings);
            emit_section(&mut out, SectionId::Locations, &locations.locations);
        }
        if optional {
            emit_section(&mut out, SectionId::AttributeTypes, &attribute_types);
            emit_section(&mut out, SectionId::AttributeNames, &attribute_names);
            emit_section(&mut out, SectionId::RegisterTypes, &register_types);
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
    fn place_locations(&self, locations: &mut LocationEmitter) -> Vec<u64> {
        let kernels: usize = (self.module.functions.iter())
            .filter_map(|f| f.body.as_ref())
            .map(|b| b.kernels.len() + 1)
            .sum();
        let mut places = Vec::with_capacity(kernels);
        // A file:line:col location takes about eight bytes.
        locations.locations.reserve(kernels * 8);
        for function in &self.module.functions {
            let Some(body) = function.body.as_ref().filter(|_| function.kind.has_body()) else {
                continue;
            };
            places.push(locations.op_location(body.location.as_ref()));
            places.extend(body.kernels.iter().map(|kernel| match &kernel.location {
                KernelLocation::Pseudo => u64::from(PSEUDO_KERNEL_LOCATION),
                KernelLocation::Virtual => locations.op_location(None),
                KernelLocation::At(location) => locations.op_location(Some(location)),
            }));
        }
        places
    }

    /// The bodies of `functions`, whose locations start at `places`.
    fn emit_bodies(&self, functions: Range<usize>, mut places: &[u64]) -> EncodeResult<BodyRun> {
        // Sized from the kernel count (a typical kernel takes a few header
        // bytes and a dozen list words), so that the buffers rarely grow.
        let kernels: usize = self.module.functions[functions.clone()]
            .iter()
            .filter_map(|f| f.body.as_ref())
            .map(|b| b.kernels.len())
            .sum();
        let mut run = BodyRun {
            headers: Emitter::with_capacity(kernels * 4),
            lists: Emitter::with_capacity(kernels * 48),
            ..BodyRun::default()
        };
        for index in functions {
            let function = &self.module.functions[index];
            match (&function.body, function.kind.has_body()) {
                (Some(body), true) => {
                    let (here, rest) = places.split_at(1 + body.kernels.len());
                    places = rest;
                    self.emit_body(body, function.arg_types.len(), here, &mut run)
                        .map_err(|EncodeError(e)| {
                            EncodeError(format!("function {index} ('{}'): {e}", function.name))
                        })?;
                    run.spans.push(Some((run.headers.len(), run.lists.len())));
                }
                (None, false) => run.spans.push(None),
                (Some(_), false) => {
                    return fail(format!(
                        "native function '{}' cannot have a body",
                        function.name
                    ));
                }
                (None, true) => return fail(format!("function '{}' needs a body", function.name)),
            }
        }
        Ok(run)
    }

    /// One body: its header into `run.headers`, its kernel list into
    /// `run.lists`; `places` holds its location fields.
    fn emit_body(
        &self,
        body: &Body,
        num_args: usize,
        places: &[u64],
        run: &mut BodyRun,
    ) -> EncodeResult<()> {
        if (body.num_registers as usize) < num_args {
            return fail(format!(
                "{} registers cannot hold {num_args} arguments",
                body.num_registers
            ));
        }
        let header = &mut run.headers;
        header.vbr(places[0]);
        let uses = body.register_uses();
        header.vbr(uses.len() as u64);
        for count in uses {
            header.vbr(count);
        }
        header.vbr(body.kernels.len() as u64);

        let optional = self.module.optional_sections;
        if optional {
            run.attribute_names.vbr(body.kernels.len() as u64);
        }
        let list_start = run.lists.len();
        for ((index, kernel), &location) in body.kernels.iter().enumerate().zip(&places[1..]) {
            run.headers.vbr((run.lists.len() - list_start) as u64);
            run.headers.vbr(kernel.args.len() as u64);
            run.headers.vbr(kernel.stream_id);
            self.emit_kernel(kernel, location, &mut run.lists)
                .map_err(|EncodeError(e)| EncodeError(format!("kernel {index}: {e}")))?;
            if optional {
                if kernel.attribute_names.len() != kernel.attributes.len() {
                    return fail(format!(
                        "kernel {index} has {} attributes but {} attribute names",
                        kernel.attributes.len(),
                        kernel.attribute_names.len()
                    ));
                }
                for name in &kernel.attribute_names {
                    run.attribute_names.vbr(self.string(name));
                }
            }
        }
        for &reg in &body.results {
            run.headers.vbr(u64::from(reg));
        }

        if optional {
            if body.register_types.len() != body.num_registers as usize {
                return fail(format!(
                    "{} register types for {} registers",
                    body.register_types.len(),
                    body.num_registers
                ));
            }
            run.register_types.vbr(u64::from(body.num_registers));
            for &ty in &body.register_types {
                self.check_type(ty)?;
                run.register_types.vbr(u64::from(ty));
            }
        }
        Ok(())
    }

    fn emit_kernel(&self, kernel: &Kernel, location: u64, list: &mut Emitter) -> EncodeResult<()> {
        if kernel.used_by.len() != kernel.results.len() {
            return fail(format!(
                "{} used-by lists for {} results",
                kernel.used_by.len(),
                kernel.results.len()
            ));
        }
        list.u32s(&[kernel.code, fixed32(location, "location offset")?]);
        let counts = [
            kernel.args.len(),
            kernel.attributes.len(),
            kernel.functions.len(),
            kernel.results.len(),
        ];
        for count in counts {
            list.u32(fixed32(count as u64, "count")?);
        }
        for users in &kernel.used_by {
            list.u32(fixed32(users.len() as u64, "user count")?);
        }
        list.u32s(&kernel.args);
        for &attr in &kernel.attributes {
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
        list.u32s(&kernel.functions);
        list.u32s(&kernel.results);
        for users in &kernel.used_by {
            list.u32s(users);
        }
        Ok(())
    }
}

/// `SECTION ::= id VBR(len << 1 | aligned) [alignment padding*] data`; the
/// alignment form is used only when the data would otherwise be misaligned.
fn emit_section(out: &mut Emitter, id: SectionId, data: &Emitter) {
    out.byte(id as u8);
    let shifted = (data.len() as u64) << 1;
    let alignment = data.required_alignment();
    if alignment > 1 && !(out.len() + vbr_len(shifted)).is_multiple_of(alignment) {
        out.vbr(shifted | 1);
        out.byte(alignment as u8);
        out.align(alignment);
    } else {
        out.vbr(shifted);
    }
    out.extend(data.bytes());
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
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/bef");
        let mut compared = 0;
        for entry in std::fs::read_dir(&dir).expect("corpus") {
            let path = entry.expect("entry").path();
            let bytes = std::fs::read(&path).expect("readable");
            let buffer = crate::format::BefBuffer::copy_from(&bytes);
            let Ok(module) = buffer.open().and_then(|file| file.to_module()) else {
                continue;
            };
            let encode_with = |min_parallel| Encoder::new(&module)?.finish(min_parallel);
            let one = encode_with(usize::MAX).expect("encodes");
            assert_eq!(encode_with(0).expect("encodes"), one, "{}", path.display());
            compared += 1;
        }
        assert!(compared >= 5, "only {compared} files compared");
    }
}
