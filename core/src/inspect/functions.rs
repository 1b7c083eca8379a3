//! Function bodies: the register table, the kernel table and the kernel
//! records, with who defines and who reads each register.

use std::ops::Range;
use std::sync::Arc;

use crate::format::constants::PSEUDO_KERNEL_CODE;
use crate::format::{
    BodyLayout, DecodeError, FunctionBody, FunctionKind, FunctionRegisterTypes, KernelHeader,
    KernelRecord,
};

use super::{Listing, span};

/// A decoded function body.
#[derive(Debug)]
pub struct Function<'a> {
    /// Position in the function index.
    pub index: usize,
    /// The name (`""` for the anonymous functions of regions).
    pub name: &'a str,
    /// How the function runs (never native: those have no body).
    pub kind: FunctionKind,
    /// Type indices of the arguments (from the function index).
    pub argument_types: Vec<u32>,
    /// Type indices of the results (from the function index).
    pub result_types: Vec<u32>,
    /// The body: from its start to the next body or the end of the
    /// Functions section. Empty when the body lies outside the section.
    pub range: Range<usize>,
    /// The location field (an offset into Locations, or a virtual offset);
    /// `None` if it could not be read.
    pub location: Option<u64>,
    body: Option<FunctionBody<'a>>,
    layout: BodyLayout,
    kernels: Vec<Kernel<'a>>,
    /// Per register, the kernel that defines it (`u32::MAX`: none).
    producers: Vec<u32>,
    /// The kernels reading register `r` are `users[user_starts[r]..user_starts[r + 1]]`.
    user_starts: Vec<usize>,
    users: Vec<u32>,
    /// `(register, result position)` for every function result, sorted.
    returns: Vec<(u32, u32)>,
    register_types: Option<Arc<FunctionRegisterTypes>>,
    problems: Vec<DecodeError>,
}

/// A kernel of a function: its row in the kernel table and its record.
#[derive(Debug, Clone)]
pub struct Kernel<'a> {
    /// Position in the function's kernel table (0 is the pseudo kernel
    /// that publishes the arguments).
    pub index: usize,
    /// The kernel code: an index into the Kernels section.
    pub code: u32,
    /// The kernel's name; `None` for the pseudo kernel and for codes
    /// without a readable name.
    pub name: Option<&'a str>,
    /// Whether this is the pseudo kernel.
    pub pseudo: bool,
    /// The record in the kernel list.
    pub range: Range<usize>,
    /// The row in the kernel table.
    pub entry_range: Range<usize>,
    /// The stream id of the kernel-table row.
    pub stream_id: u64,
    /// Operands that must be available before the kernel runs.
    pub num_operands: u32,
    /// The location field of the record.
    pub location: u32,
    /// The attributes, in record order.
    pub attributes: Vec<KernelAttribute<'a>>,
    record: KernelRecord<'a>,
}

/// An attribute of a kernel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelAttribute<'a> {
    /// Offset of the attribute in the Attributes section.
    pub offset: u32,
    /// The field of the record holding the offset.
    pub slot: Range<usize>,
    /// The attribute in [`Listing::attributes`], if listed there.
    pub attribute: Option<usize>,
    /// The attribute's name, from the AttributeNames section.
    pub name: Option<&'a str>,
    /// The name's entry in the AttributeNames section.
    pub name_range: Option<Range<usize>>,
}

/// A register of a function.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Register<'l> {
    /// The register number (arguments come first).
    pub index: usize,
    /// The use count recorded in the register table.
    pub uses: u32,
    /// The use count's bytes in the register table.
    pub range: Range<usize>,
    /// The register's type index, from the RegisterTypes section.
    pub type_index: Option<u32>,
    /// The type index's bytes in the RegisterTypes section.
    pub type_range: Option<Range<usize>>,
    /// The kernel that defines the register (kernel 0 for arguments).
    pub producer: Option<usize>,
    /// The kernels reading it, once per operand.
    pub users: &'l [u32],
    /// The function results it is returned as.
    pub returned_as: Vec<usize>,
}

impl<'a> Kernel<'a> {
    /// Registers read, in operand order.
    pub fn arguments(&self) -> impl ExactSizeIterator<Item = u32> + 'a {
        self.record.args().iter()
    }

    /// Functions referred to (indices into the function index).
    pub fn functions(&self) -> impl ExactSizeIterator<Item = u32> + 'a {
        self.record.functions().iter()
    }

    /// Registers written, in result order.
    pub fn results(&self) -> impl ExactSizeIterator<Item = u32> + 'a {
        self.record.results().iter()
    }

    /// The kernels that use result `result`, once per use.
    pub fn used_by(&self, result: usize) -> impl ExactSizeIterator<Item = u32> + 'a {
        self.record.used_by(result).iter()
    }

    /// The location offset to decode with [`Listing::location`]; `None` for
    /// the pseudo kernel, whose location field is a marker.
    pub fn location_offset(&self) -> Option<u64> {
        (!self.pseudo).then_some(u64::from(self.location))
    }

    /// The record's bytes.
    pub fn bytes(&self) -> &'a [u8] {
        self.record.bytes()
    }

    /// The record's header: its counts, and where each part of the record
    /// lies.
    pub fn header(&self) -> KernelHeader {
        self.record.header()
    }

    /// The bytes of word `word` of the record.
    pub(super) fn word(&self, word: usize) -> Range<usize> {
        let at = self.range.start + 4 * word;
        at..at + 4
    }
}

impl<'a> Function<'a> {
    pub(super) fn read(listing: &Listing<'a>, index: usize) -> Function<'a> {
        let file = listing.file();
        let entry = &file.functions()[index];
        let mut layout = BodyLayout::default();
        let mut problems = Vec::new();
        let body = match file.read_body(index, Some(&mut layout)) {
            Ok((body, problem)) => {
                problems.extend(problem);
                Some(body)
            }
            Err(e) => {
                problems.push(e);
                None
            }
        };
        let range = match &body {
            Some(body) => {
                let start = body.offset as usize;
                let bodies = listing.function_bodies();
                let next = bodies.partition_point(|&(s, _)| s <= start);
                let end = bodies.get(next).map_or_else(
                    || listing.section_end(crate::format::SectionId::Functions),
                    |&(s, _)| s,
                );
                start..end
            }
            None => 0..0,
        };
        let mut function = Function {
            index,
            name: entry.name,
            kind: entry.kind,
            argument_types: file.function_arg_types(index).to_vec(),
            result_types: file.function_result_types(index).to_vec(),
            range,
            location: (!layout.location.is_empty())
                .then(|| body.as_ref().map_or(0, |b| b.location)),
            body: None,
            layout,
            kernels: Vec::new(),
            producers: Vec::new(),
            user_starts: Vec::new(),
            users: Vec::new(),
            returns: Vec::new(),
            register_types: listing.register_types(index),
            problems,
        };
        if let Some(body) = body {
            function.read_kernels(listing, &body);
            function.index_registers(&body);
            function.body = Some(body);
        }
        function
    }

    /// Lists the kernels, stopping at the first record that overlaps the
    /// previous one (the records of a valid file follow each other; this
    /// also keeps the listing proportional to the file).
    fn read_kernels(&mut self, listing: &Listing<'a>, body: &FunctionBody<'a>) {
        let names = listing.kernel_names();
        let attributes = listing.attributes();
        let attribute_names = listing.attribute_names(self.index);
        self.kernels.reserve_exact(body.kernels.len());
        let mut previous_end = 0;
        for (k, (record, entry)) in body.kernel_records().zip(&body.kernels).enumerate() {
            let start = record.offset as usize;
            if start < previous_end {
                self.problems.push(DecodeError::new(
                    record.offset,
                    format!("kernel {k} of '{}' overlaps the previous kernel", self.name),
                ));
                break;
            }
            let range = start..start + record.bytes().len();
            previous_end = range.end;
            let pseudo = k == 0 && record.code() == PSEUDO_KERNEL_CODE;
            let name = if pseudo {
                None
            } else {
                names.get(record.code() as usize).and_then(|n| n.name)
            };
            let first_attribute = record.header().attributes().start;
            let names_of_kernel = attribute_names.as_ref().map(|n| {
                let start = n.kernel_starts.get(k).copied().unwrap_or(n.names.len());
                (n, start, n.kernel(k))
            });
            let attributes = record
                .attributes()
                .iter()
                .enumerate()
                .map(|(a, offset)| {
                    let at = start + 4 * (first_attribute + a);
                    let name = names_of_kernel
                        .as_ref()
                        .and_then(|(all, first, of_kernel)| {
                            let entry = of_kernel.get(a)?;
                            Some((entry.name, span(all.name_range(first + a))))
                        });
                    KernelAttribute {
                        offset,
                        slot: at..at + 4,
                        attribute: attributes.find(offset),
                        name: name.as_ref().and_then(|(n, _)| *n),
                        name_range: name.map(|(_, r)| r),
                    }
                })
                .collect();
            let entry_range = self
                .layout
                .kernel_table
                .get(k)
                .map_or(0..0, |row| span(row.range()));
            self.kernels.push(Kernel {
                index: k,
                code: record.code(),
                name,
                pseudo,
                range,
                entry_range,
                stream_id: entry.stream_id,
                num_operands: entry.num_operands,
                location: record.location(),
                attributes,
                record,
            });
        }
    }

    /// Finds who defines and who reads each register.
    fn index_registers(&mut self, body: &FunctionBody<'a>) {
        let count = body.register_uses.len();
        self.producers = vec![u32::MAX; count];
        let mut starts = vec![0usize; count + 1];
        for kernel in &self.kernels {
            for register in kernel.results() {
                if let Some(slot) = self.producers.get_mut(register as usize)
                    && *slot == u32::MAX
                {
                    *slot = kernel.index as u32;
                }
            }
            for register in kernel.arguments() {
                if let Some(n) = starts.get_mut(register as usize + 1)
                    && (register as usize) < count
                {
                    *n += 1;
                }
            }
        }
        for i in 1..starts.len() {
            starts[i] += starts[i - 1];
        }
        let mut users = vec![0u32; starts[count]];
        let mut next = starts.clone();
        for kernel in &self.kernels {
            for register in kernel.arguments() {
                if (register as usize) < count {
                    users[next[register as usize]] = kernel.index as u32;
                    next[register as usize] += 1;
                }
            }
        }
        self.user_starts = starts;
        self.users = users;
        self.returns = body
            .results
            .iter()
            .enumerate()
            .map(|(position, &register)| (register, position as u32))
            .collect();
        self.returns.sort_unstable();
    }

    /// The kernels whose records could be listed, in kernel-table order.
    pub fn kernels(&self) -> &[Kernel<'a>] {
        &self.kernels
    }

    /// Kernel `index`.
    pub fn kernel(&self, index: usize) -> Option<&Kernel<'a>> {
        self.kernels.get(index)
    }

    /// The number of registers read from the register table.
    pub fn register_count(&self) -> usize {
        self.body.as_ref().map_or(0, |b| b.register_uses.len())
    }

    /// Register `index`.
    pub fn register(&self, index: usize) -> Option<Register<'_>> {
        let body = self.body.as_ref()?;
        let uses = *body.register_uses.get(index)?;
        let types = self.register_types.as_deref();
        let ty = types.and_then(|t| Some((*t.types.get(index)?, span(t.type_range(index)))));
        let producer = self.producers[index];
        let returns = &self.returns;
        let first = returns.partition_point(|&(r, _)| (r as usize) < index);
        let returned_as = returns[first..]
            .iter()
            .take_while(|&&(r, _)| r as usize == index)
            .map(|&(_, position)| position as usize)
            .collect();
        Some(Register {
            index,
            uses,
            range: span(self.layout.register_uses[index].clone()),
            type_index: ty.as_ref().map(|(t, _)| *t),
            type_range: ty.map(|(_, r)| r),
            producer: (producer != u32::MAX).then_some(producer as usize),
            users: &self.users[self.user_starts[index]..self.user_starts[index + 1]],
            returned_as,
        })
    }

    /// The registers in order.
    pub fn registers(&self) -> impl ExactSizeIterator<Item = Register<'_>> + '_ {
        (0..self.register_count()).map(|i| self.register(i).expect("index in range"))
    }

    /// The registers returned, one per function result read.
    pub fn results(&self) -> &[u32] {
        self.body.as_ref().map_or(&[], |b| &b.results)
    }

    /// The bytes of result `index`'s register.
    pub fn result_range(&self, index: usize) -> Option<Range<usize>> {
        self.layout.results.get(index).cloned().map(span)
    }

    /// The location field.
    pub fn location_range(&self) -> Range<usize> {
        span(self.layout.location.clone())
    }

    /// The register count field.
    pub fn register_count_range(&self) -> Range<usize> {
        span(self.layout.register_count.clone())
    }

    /// The kernel count field.
    pub fn kernel_count_range(&self) -> Range<usize> {
        span(self.layout.kernel_count.clone())
    }

    /// The number of kernel-table rows read (kernels past a damaged record
    /// have a row but no [`Kernel`]).
    pub fn kernel_table_len(&self) -> usize {
        self.layout.kernel_table.len()
    }

    /// The row `index` of the kernel table, and its three fields: record
    /// offset, operand count, stream id.
    pub fn kernel_entry_ranges(&self, index: usize) -> Option<[Range<usize>; 4]> {
        let row = self.layout.kernel_table.get(index)?;
        Some([
            span(row.range()),
            span(row.offset.clone()),
            span(row.num_operands.clone()),
            span(row.stream_id.clone()),
        ])
    }

    /// The padding before the kernel list.
    pub fn padding_range(&self) -> Range<usize> {
        span(self.layout.padding.clone())
    }

    /// The kernel list, to the end of the function.
    pub fn kernel_list_range(&self) -> Range<usize> {
        span(self.layout.kernel_list.clone())
    }

    /// The first problem that stopped decoding, if any: the parts before it
    /// are listed.
    pub fn error(&self) -> Option<&DecodeError> {
        self.problems.first()
    }

    /// Every problem that stopped decoding part of the function.
    pub fn problems(&self) -> &[DecodeError] {
        &self.problems
    }

    /// The problems of the function: its own, and locations (its own and its
    /// kernels') that do not decode.
    pub(super) fn errors(&self, listing: &Listing<'_>) -> Vec<DecodeError> {
        let mut errors = self.problems.clone();
        let locations = self
            .location
            .iter()
            .copied()
            .chain(self.kernels.iter().filter_map(Kernel::location_offset));
        errors.extend(locations.filter_map(|offset| listing.location(offset).err()));
        errors
    }

    /// The kernel whose record holds absolute offset `at`.
    pub(super) fn kernel_containing(&self, at: usize) -> Option<usize> {
        // Records follow each other in table order (overlaps end the list)
        // but may leave gaps.
        let i = self.kernels.partition_point(|k| k.range.start <= at);
        let i = i.checked_sub(1)?;
        self.kernels[i].range.contains(&at).then_some(i)
    }

    /// The kernel-table row holding absolute offset `at`.
    pub(super) fn kernel_entry_containing(&self, at: usize) -> Option<usize> {
        let rows = &self.layout.kernel_table;
        let i = rows.partition_point(|r| r.offset.start as usize <= at);
        let i = i.checked_sub(1)?;
        span(rows[i].range()).contains(&at).then_some(i)
    }

    /// The register whose use count holds absolute offset `at`.
    pub(super) fn register_containing(&self, at: usize) -> Option<usize> {
        let uses = &self.layout.register_uses;
        let i = uses.partition_point(|r| r.start as usize <= at);
        let i = i.checked_sub(1)?;
        span(uses[i].clone()).contains(&at).then_some(i)
    }

    /// The result whose register holds absolute offset `at`.
    pub(super) fn result_containing(&self, at: usize) -> Option<usize> {
        let results = &self.layout.results;
        let i = results.partition_point(|r| r.start as usize <= at);
        let i = i.checked_sub(1)?;
        span(results[i].clone()).contains(&at).then_some(i)
    }
}
