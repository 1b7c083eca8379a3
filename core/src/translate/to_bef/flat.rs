//! The flat form of the translated module that the encoder reads: the
//! functions, their bodies and kernels in shared arrays, and the encoder's
//! source traits over them.

use super::*;

impl<'m> FlatModule<'m> {
    pub(super) fn source(&self) -> format::encoder::Source<'_, FlatFunction<'m>> {
        format::encoder::Source {
            kernel_names: &self.kernel_names,
            types: &self.types,
            attributes: &self.attributes,
            functions: &self.functions,
            optional_sections: self.optional_sections,
            extra_strings: &self.extra_strings,
            signatures: &self.signatures,
        }
    }

    pub(super) fn into_model(self) -> format::Module {
        let functions = self
            .functions
            .into_iter()
            .map(|f| format::Function {
                body: f.body.as_ref().map(FlatBody::to_model),
                kind: f.kind,
                name: f.name.to_string(),
                arg_types: f.arg_types,
                result_types: f.result_types,
            })
            .collect();
        format::Module {
            kernel_names: self.kernel_names,
            types: self.types,
            attributes: self.attributes,
            functions,
            optional_sections: self.optional_sections,
            extra_strings: self.extra_strings,
            signatures: self.signatures,
        }
    }
}

impl FlatBody<'_> {
    pub(super) fn to_model(&self) -> Body {
        use format::encoder::{BodySource, KernelPlace, UsedBy};
        let kernels = (0..self.kernels.len())
            .map(|index| {
                let k = self.kernel(index);
                let used_by = match k.used_by {
                    UsedBy::Flat { counts, mut users } => counts
                        .iter()
                        .map(|&n| {
                            let (these, rest) = users.split_at(n as usize);
                            users = rest;
                            these.to_vec()
                        })
                        .collect(),
                    UsedBy::Lists(lists) => lists.to_vec(),
                };
                let location = match self.kernel_location(index) {
                    KernelPlace::Pseudo => KernelLocation::Pseudo,
                    KernelPlace::Virtual => KernelLocation::Virtual,
                    KernelPlace::At(location) => match format::location::to_model(location) {
                        Some(location) => KernelLocation::At(location),
                        None => KernelLocation::Virtual,
                    },
                };
                Kernel {
                    code: k.code,
                    location,
                    args: k.args.to_vec(),
                    attributes: k.attributes.to_vec(),
                    attribute_names: k.attribute_names.iter().map(str::to_string).collect(),
                    functions: k.functions.to_vec(),
                    results: k.results.to_vec(),
                    used_by,
                    stream_id: k.stream_id,
                }
            })
            .collect();
        Body {
            location: format::location::to_model(self.location),
            num_registers: self.num_registers,
            register_types: self.register_types.clone(),
            kernels,
            results: self.results.clone(),
        }
    }
}

impl<'m> format::encoder::FunctionSource for FlatFunction<'m> {
    type Body = FlatBody<'m>;
    fn kind(&self) -> FunctionKind {
        self.kind
    }
    fn name(&self) -> &str {
        self.name
    }
    fn arg_types(&self) -> &[u32] {
        &self.arg_types
    }
    fn result_types(&self) -> &[u32] {
        &self.result_types
    }
    fn body(&self) -> Option<&FlatBody<'m>> {
        self.body.as_ref()
    }
}

impl format::encoder::BodySource for FlatBody<'_> {
    type Location = Location;
    fn location(&self) -> Option<&Location> {
        Some(self.location)
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
    fn kernel_location(&self, index: usize) -> format::encoder::KernelPlace<'_, Location> {
        match self.kernels[index].location {
            Some(location) => format::encoder::KernelPlace::At(location),
            None => format::encoder::KernelPlace::Pseudo,
        }
    }
    fn attribute_names(&self) -> impl Iterator<Item = &str> {
        self.names.iter().copied()
    }
    fn argument_registers(&self) -> impl Iterator<Item = &u32> {
        self.kernels.iter().flat_map(|k| {
            let start = k.start as usize;
            &self.words[start..start + k.args as usize]
        })
    }
    #[inline]
    fn kernel(&self, index: usize) -> format::encoder::KernelRef<'_> {
        let k = &self.kernels[index];
        let args = k.start as usize;
        let attributes = args + k.args as usize;
        let functions = attributes + k.attributes as usize;
        let results = functions + k.functions as usize;
        let counts = results + k.results as usize;
        let users = counts + k.results as usize;
        let end = users + k.users as usize;
        let words = &self.words[..end];
        let names = k.names_start as usize;
        format::encoder::KernelRef {
            code: k.code,
            args: &words[args..attributes],
            attributes: &words[attributes..functions],
            attribute_names: format::encoder::Names::Borrowed(
                &self.names[names..names + k.names as usize],
            ),
            functions: &words[functions..results],
            results: &words[results..counts],
            used_by: format::encoder::UsedBy::Flat {
                counts: &words[counts..users],
                users: &words[users..end],
            },
            stream_id: k.stream_id,
        }
    }
}
