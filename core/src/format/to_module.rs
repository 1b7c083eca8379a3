//! BEF bytes → module model, the inverse of `encode`. Needs the optional
//! sections whenever the file has attributes (their types live there),
//! unless a placeholder stands for them.

use std::collections::{HashMap, HashSet};

use super::attr::Attribute;
use super::constants::{PSEUDO_KERNEL_CODE, PSEUDO_KERNEL_LOCATION, SectionId};
use super::error::{DecodeError, DecodeResult};
use super::file::{BefFile, FunctionBody};
use super::model::{Body, Function, Kernel, KernelLocation, Module};

impl BefFile<'_> {
    /// Decodes the whole file into an owned model.
    pub fn to_module(&self) -> DecodeResult<Module> {
        self.to_module_with(None)
    }

    /// As [`to_module`](Self::to_module), but a file written without the
    /// optional sections, whose attributes cannot be decoded without their
    /// types, gets `placeholder` for every attribute (the last entry of the
    /// model's attributes) instead of an error. A file with the optional
    /// sections decodes as with `to_module`.
    pub fn to_module_with_placeholder(&self, placeholder: Attribute) -> DecodeResult<Module> {
        self.to_module_with(Some(placeholder))
    }

    fn to_module_with(&self, placeholder: Option<Attribute>) -> DecodeResult<Module> {
        let attribute_types = self.attribute_types()?;
        let mut attributes = match attribute_types {
            Some(entries) => entries
                .iter()
                .map(|&(offset, ty)| self.attribute(offset, ty))
                .collect::<DecodeResult<Vec<_>>>()?,
            None => Vec::new(),
        };
        // Untyped attributes all stand for the placeholder.
        let placeholder_index = match (attribute_types, placeholder) {
            (None, Some(placeholder)) => {
                attributes.push(placeholder);
                Some(attributes.len() as u32 - 1)
            }
            _ => None,
        };
        let attribute_index: HashMap<u32, u32> = attribute_types
            .unwrap_or_default()
            .iter()
            .enumerate()
            .map(|(i, &(offset, _))| (offset, i as u32))
            .collect();
        let attribute_names = self.attribute_names()?;
        let register_types = self.register_types()?;
        let present = [
            attribute_types.is_some(),
            attribute_names.is_some(),
            register_types.is_some(),
        ];
        let optional_sections = present == [true; 3];
        if present.contains(&true) && !optional_sections {
            let first = [
                SectionId::AttributeTypes,
                SectionId::AttributeNames,
                SectionId::RegisterTypes,
            ]
            .into_iter()
            .find_map(|id| self.section(id))
            .map_or(0, |s| s.header_offset);
            return Err(DecodeError::new(
                first,
                "file has only some of the optional sections (AttributeTypes, AttributeNames, RegisterTypes); the model needs all or none",
            ));
        }

        let mut functions = Vec::with_capacity(self.functions().len());
        for (index, entry) in self.functions().iter().enumerate() {
            let body = if entry.kind.has_body() {
                let names = attribute_names.as_ref().and_then(|all| all[index].as_ref());
                let types = register_types
                    .as_ref()
                    .and_then(|all| all[index].clone())
                    .unwrap_or_default();
                Some(self.body_model(
                    self.body(index)?,
                    &attribute_index,
                    placeholder_index,
                    names,
                    types,
                )?)
            } else {
                None
            };
            functions.push(Function {
                kind: entry.kind,
                name: entry.name.to_owned(),
                arg_types: self.function_arg_types(index).to_vec(),
                result_types: self.function_result_types(index).to_vec(),
                body,
            });
        }
        let mut module = Module {
            kernel_names: self
                .kernel_names()?
                .iter()
                .map(|s| (*s).to_owned())
                .collect(),
            types: self.type_names()?.iter().map(|s| (*s).to_owned()).collect(),
            attributes,
            functions,
            optional_sections,
            extra_strings: Vec::new(),
            signatures: self.signatures()?,
        };
        module.extra_strings = self.unreferenced_strings(&module)?;
        Ok(module)
    }

    /// Strings of the Strings section that no table refers to, sorted and
    /// without repeats (the encoder writes a sorted set of strings).
    fn unreferenced_strings(&self, module: &Module) -> DecodeResult<Vec<String>> {
        let mut referenced: HashSet<&str> = HashSet::new();
        referenced.extend(module.kernel_names.iter().map(String::as_str));
        referenced.extend(module.types.iter().map(String::as_str));
        referenced.extend(module.functions.iter().map(|f| f.name.as_str()));
        let kernels = module
            .functions
            .iter()
            .filter_map(|f| f.body.as_ref())
            .flat_map(|b| &b.kernels);
        referenced.extend(kernels.flat_map(|k| k.attribute_names.iter().map(String::as_str)));
        let data = self.section_data(SectionId::Strings);
        let base = self
            .section(SectionId::Strings)
            .map_or(0, |s| s.data_offset);
        let mut extra = Vec::new();
        let mut start = 0;
        while start < data.len() {
            let Some(len) = data[start..].iter().position(|&b| b == 0) else {
                return Err(DecodeError::new(
                    base + start as u64,
                    "string is not NUL-terminated before the end of the Strings section",
                ));
            };
            let bytes = &data[start..start + len];
            let text = std::str::from_utf8(bytes)
                .map_err(|_| DecodeError::new(base + start as u64, "string is not valid UTF-8"))?;
            if !referenced.contains(text) {
                extra.push(text.to_owned());
            }
            start += len + 1;
        }
        extra.sort();
        extra.dedup();
        Ok(extra)
    }

    fn body_model(
        &self,
        body: &FunctionBody<'_>,
        attribute_index: &HashMap<u32, u32>,
        placeholder_index: Option<u32>,
        names: Option<&Vec<Vec<&str>>>,
        register_types: Vec<u32>,
    ) -> DecodeResult<Body> {
        let mut kernels = Vec::with_capacity(body.kernels.len());
        for (i, (record, entry)) in body.kernel_records().zip(&body.kernels).enumerate() {
            if entry.num_operands as usize != record.num_args() {
                return Err(DecodeError::new(
                    record.offset,
                    format!(
                        "kernel {i} waits for {} operands but has {} arguments",
                        entry.num_operands,
                        record.num_args()
                    ),
                ));
            }
            let location = if i == 0
                && record.code() == PSEUDO_KERNEL_CODE
                && record.location() == PSEUDO_KERNEL_LOCATION
            {
                KernelLocation::Pseudo
            } else {
                match self
                    .location(u64::from(record.location()))
                    .map_err(|e| DecodeError::new(record.offset + 4, e.message))?
                {
                    Some(location) => KernelLocation::At(location),
                    None => KernelLocation::Virtual,
                }
            };
            let attributes = record
                .attributes()
                .iter()
                .map(|offset| {
                    attribute_index.get(&offset).copied().or(placeholder_index).ok_or_else(|| {
                        let base = self.section(SectionId::AttributeTypes).map_or(record.offset, |s| s.data_offset);
                        DecodeError::new(base, format!("kernel {i} refers to attribute offset {offset:#x}, which AttributeTypes does not list"))
                    })
                })
                .collect::<DecodeResult<Vec<_>>>()?;
            let attribute_names = names
                .and_then(|n| n.get(i))
                .map(|n| n.iter().map(|s| (*s).to_owned()).collect())
                .unwrap_or_default();
            kernels.push(Kernel {
                code: record.code(),
                location,
                args: record.args().to_vec(),
                attributes,
                attribute_names,
                functions: record.functions().to_vec(),
                results: record.results().to_vec(),
                used_by: (0..record.num_results())
                    .map(|r| record.used_by(r).to_vec())
                    .collect(),
                stream_id: entry.stream_id,
            });
        }
        Ok(Body {
            location: self.location(body.location)?,
            num_registers: body.num_registers() as u32,
            register_types,
            kernels,
            results: body.results.clone(),
        })
    }
}
