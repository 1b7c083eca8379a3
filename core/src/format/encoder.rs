//! Module model → BEF bytes, laid out byte for byte as the reference
//! `mlir_to_bef` writes them (fact sheet `bef-encoding.md`).

use std::collections::BTreeSet;

use rustc_hash::FxHashMap;

use super::attr::emit_attribute;
use super::constants::{MAGIC, PSEUDO_KERNEL_LOCATION, SectionId, VERSION};
use super::emitter::{Emitter, vbr_len};
use super::error::{EncodeError, EncodeResult};
use super::location::LocationEmitter;
use super::model::{Body, Kernel, KernelLocation, Module};

/// Encodes `module`. Deterministic: the same module gives the same bytes.
pub fn encode(module: &Module) -> EncodeResult<Vec<u8>> {
    Encoder::new(module)?.finish()
}

struct Encoder<'m> {
    module: &'m Module,
    strings: FxHashMap<&'m str, u64>,
    string_section: Emitter,
    attribute_offsets: Vec<u32>,
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
        let mut names: BTreeSet<&str> = BTreeSet::new();
        names.extend(module.kernel_names.iter().map(String::as_str));
        names.extend(module.types.iter().map(String::as_str));
        names.extend(module.functions.iter().map(|f| f.name.as_str()));
        names.extend(module.extra_strings.iter().map(String::as_str));
        if module.optional_sections {
            let kernels = module
                .functions
                .iter()
                .filter_map(|f| f.body.as_ref())
                .flat_map(|b| &b.kernels);
            names.extend(kernels.flat_map(|k| k.attribute_names.iter().map(String::as_str)));
        }
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

    fn finish(mut self) -> EncodeResult<Vec<u8>> {
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

        let mut locations = LocationEmitter::new();
        let mut functions = Emitter::new();
        let mut attribute_names = Emitter::new();
        let mut register_types = Emitter::new();
        attribute_names.vbr(module.functions.len() as u64);
        register_types.vbr(module.functions.len() as u64);
        let mut function_offsets = Vec::with_capacity(module.functions.len());
        let mut kernel_list = Emitter::new();
        for (index, function) in module.functions.iter().enumerate() {
            function_offsets.push(functions.len() as u64);
            match (&function.body, function.kind.has_body()) {
                (Some(body), true) => {
                    self.emit_body(
                        body,
                        function.arg_types.len(),
                        &mut kernel_list,
                        &mut functions,
                        &mut locations,
                        &mut attribute_names,
                        &mut register_types,
                    )
                    .map_err(|EncodeError(e)| {
                        EncodeError(format!("function {index} ('{}'): {e}", function.name))
                    })?;
                }
                (None, false) => {}
                (Some(_), false) => {
                    return fail(format!(
                        "native function '{}' cannot have a body",
                        function.name
                    ));
                }
                (None, true) => return fail(format!("function '{}' needs a body", function.name)),
            }
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

    #[allow(clippy::too_many_arguments)]
    fn emit_body(
        &self,
        body: &Body,
        num_args: usize,
        kernel_list: &mut Emitter,
        functions: &mut Emitter,
        locations: &mut LocationEmitter,
        attribute_names: &mut Emitter,
        register_types: &mut Emitter,
    ) -> EncodeResult<()> {
        if (body.num_registers as usize) < num_args {
            return fail(format!(
                "{} registers cannot hold {num_args} arguments",
                body.num_registers
            ));
        }
        let location = locations.op_location(body.location.as_ref());
        functions.vbr(location);
        let uses = body.register_uses();
        functions.vbr(uses.len() as u64);
        for count in uses {
            functions.vbr(count);
        }
        functions.vbr(body.kernels.len() as u64);

        let optional = self.module.optional_sections;
        if optional {
            attribute_names.vbr(body.kernels.len() as u64);
        }
        kernel_list.clear();
        for (index, kernel) in body.kernels.iter().enumerate() {
            functions.vbr(kernel_list.len() as u64);
            functions.vbr(kernel.args.len() as u64);
            functions.vbr(kernel.stream_id);
            self.emit_kernel(kernel, kernel_list, locations)
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
                    attribute_names.vbr(self.string(name));
                }
            }
        }
        for &reg in &body.results {
            functions.vbr(u64::from(reg));
        }
        functions.align(4);
        functions.append(kernel_list);

        if optional {
            if body.register_types.len() != body.num_registers as usize {
                return fail(format!(
                    "{} register types for {} registers",
                    body.register_types.len(),
                    body.num_registers
                ));
            }
            register_types.vbr(u64::from(body.num_registers));
            for &ty in &body.register_types {
                self.check_type(ty)?;
                register_types.vbr(u64::from(ty));
            }
        }
        Ok(())
    }

    fn emit_kernel(
        &self,
        kernel: &Kernel,
        list: &mut Emitter,
        locations: &mut LocationEmitter,
    ) -> EncodeResult<()> {
        if kernel.used_by.len() != kernel.results.len() {
            return fail(format!(
                "{} used-by lists for {} results",
                kernel.used_by.len(),
                kernel.results.len()
            ));
        }
        let location = match &kernel.location {
            KernelLocation::Pseudo => u64::from(PSEUDO_KERNEL_LOCATION),
            KernelLocation::Virtual => locations.op_location(None),
            KernelLocation::At(location) => locations.op_location(Some(location)),
        };
        list.u32(kernel.code);
        list.u32(fixed32(location, "location offset")?);
        for count in [
            kernel.args.len(),
            kernel.attributes.len(),
            kernel.functions.len(),
            kernel.results.len(),
        ] {
            list.u32(fixed32(count as u64, "count")?);
        }
        for users in &kernel.used_by {
            list.u32(fixed32(users.len() as u64, "user count")?);
        }
        for &arg in &kernel.args {
            list.u32(arg);
        }
        for &attr in &kernel.attributes {
            let offset = self.attribute_offsets.get(attr as usize).ok_or_else(|| {
                EncodeError(format!(
                    "attribute index {attr} is out of range ({} attributes)",
                    self.attribute_offsets.len()
                ))
            })?;
            list.u32(*offset);
        }
        for &function in &kernel.functions {
            if function as usize >= self.module.functions.len() {
                return fail(format!("function index {function} is out of range"));
            }
            list.u32(function);
        }
        for &result in &kernel.results {
            list.u32(result);
        }
        for &user in kernel.used_by.iter().flatten() {
            list.u32(user);
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
}
