//! Structural verification of a BEF file: what the decoder alone does not
//! check (indices and offsets in range, counts consistent, used-by lists
//! matching operands, pseudo-kernel conventions, optional sections
//! agreeing with the functions).

use std::collections::HashSet;

use super::constants::{
    FIRST_VIRTUAL_LOCATION, FunctionKind, PSEUDO_KERNEL_CODE, PSEUDO_KERNEL_LOCATION, SectionId,
};
use super::error::DecodeError;
use super::file::{BefFile, FunctionBody, KernelRecord};
use super::reader::Reader;

/// Stop collecting after this many problems; the first ones matter most.
const MAX_PROBLEMS: usize = 100;

/// Verifies `file`, returning every problem found (up to a limit), each
/// with the offset where it was found.
pub fn verify(file: &BefFile<'_>) -> Result<(), Vec<DecodeError>> {
    let mut v = Verifier {
        file,
        problems: Vec::new(),
    };
    v.run();
    if v.problems.is_empty() {
        Ok(())
    } else {
        Err(v.problems)
    }
}

struct Verifier<'f, 'a> {
    file: &'f BefFile<'a>,
    problems: Vec<DecodeError>,
}

impl Verifier<'_, '_> {
    fn report(&mut self, offset: u64, message: impl Into<String>) {
        if self.problems.len() < MAX_PROBLEMS {
            self.problems.push(DecodeError::new(offset, message));
        }
    }

    fn check<T>(&mut self, result: Result<T, DecodeError>) -> Option<T> {
        result.map_err(|e| self.report(e.offset, e.message)).ok()
    }

    fn run(&mut self) {
        let file = self.file;
        for id in SectionId::REQUIRED {
            if file.section(id).is_none() {
                self.report(
                    file.bytes().len() as u64,
                    format!("required {} section is missing", id.name()),
                );
            }
        }
        // Its framing; what it says is checked against the functions by
        // `abi::function::check_file`.
        self.check(file.signatures());
        let strings = file.section_data(SectionId::Strings);
        if strings.last().is_some_and(|&b| b != 0) {
            let end = file
                .section(SectionId::Strings)
                .map_or(0, |s| s.data_offset + s.len);
            self.report(end - 1, "Strings section does not end with a NUL byte");
        }
        let num_kernel_names = self.check(file.kernel_names()).map_or(0, <[_]>::len);
        let num_types = self.check(file.type_names()).map(<[_]>::len);
        let attribute_offsets: Option<HashSet<u32>> = match self.check(file.attribute_types()) {
            Some(Some(entries)) => Some(self.verify_attribute_types(entries)),
            _ => None,
        };
        self.verify_locations_section();

        let num_types = num_types.unwrap_or(usize::MAX);
        for (index, function) in file.functions().iter().enumerate() {
            for &ty in file
                .function_arg_types(index)
                .iter()
                .chain(file.function_result_types(index))
            {
                if ty as usize >= num_types {
                    self.report(
                        function.entry_offset,
                        format!(
                            "function '{}' uses type index {ty}, but there are {num_types} types",
                            function.name
                        ),
                    );
                }
            }
            if !function.kind.has_body() {
                continue;
            }
            let Some(body) = self.check(file.body(index)) else {
                continue;
            };
            let context = Context {
                index,
                num_kernel_names,
                attribute_offsets: attribute_offsets.as_ref(),
            };
            self.verify_body(&context, body);
        }
        self.verify_function_names_unique();
        self.check(file.attribute_names());
        if let Some(Some(register_types)) = self.check(file.register_types()) {
            let base = file
                .section(SectionId::RegisterTypes)
                .map_or(0, |s| s.data_offset);
            for (index, types) in register_types.iter().enumerate() {
                let (Some(types), Ok(body)) = (types, file.body(index)) else {
                    continue;
                };
                if types.len() != body.num_registers() {
                    self.report(base, format!("RegisterTypes gives {} types for function {index} which has {} registers", types.len(), body.num_registers()));
                }
                if let Some(&bad) = types.iter().find(|&&ty| ty as usize >= num_types) {
                    self.report(base, format!("RegisterTypes of function {index} uses type index {bad}, but there are {num_types} types"));
                }
            }
        }
    }

    /// Two functions of one name: a call binds to one while a reader of
    /// the file sees the other. (Region bodies have no name.)
    fn verify_function_names_unique(&mut self) {
        let mut first_of: std::collections::HashMap<&str, usize> = Default::default();
        for (index, function) in self.file.functions().iter().enumerate() {
            if function.name.is_empty() {
                continue;
            }
            if let Some(&first) = first_of.get(function.name) {
                self.report(
                    function.entry_offset,
                    format!(
                        "redefinition of symbol named '{}': functions {first} and {index} have that name",
                        function.name
                    ),
                );
            } else {
                first_of.insert(function.name, index);
            }
        }
    }

    fn verify_attribute_types(
        &mut self,
        entries: &[(u32, super::dtype::AttrType)],
    ) -> HashSet<u32> {
        let base = self
            .file
            .section(SectionId::AttributeTypes)
            .map_or(0, |s| s.data_offset);
        for &(offset, ty) in entries {
            if let Err(e) = self.file.attribute(offset, ty) {
                self.report(
                    e.offset,
                    format!(
                        "attribute at {offset:#x} of type {}: {}",
                        ty.name(),
                        e.message
                    ),
                );
            }
        }
        let _ = base;
        entries.iter().map(|&(offset, _)| offset).collect()
    }

    /// The Locations section is a sequence of records; each must decode.
    fn verify_locations_section(&mut self) {
        let decoder = self.file.location_decoder();
        let mut r = Reader::new(decoder.locations, decoder.locations_base);
        while !r.is_empty() {
            if self.check(decoder.read(&mut r, 0)).is_none() {
                return;
            }
        }
    }

    fn verify_location(&mut self, offset: u64, field_at: u64, what: &str) {
        let len = self.file.section_data(SectionId::Locations).len() as u64;
        if offset < len {
            if let Err(e) = self.file.location(offset) {
                self.report(field_at, format!("{what}: {}", e.message));
            }
        } else if offset < FIRST_VIRTUAL_LOCATION {
            self.report(
                field_at,
                format!(
                    "{what} offset {offset:#x} is past the end of the {len}-byte Locations section"
                ),
            );
        }
    }

    /// Verifies one function body: its counts, every kernel record, the
    /// results, the recorded use counts, that every kernel can run, and the
    /// used-by lists.
    fn verify_body(&mut self, cx: &Context<'_>, body: &FunctionBody<'_>) {
        let file = self.file;
        let function = &file.functions()[cx.index];
        let name = function.name;
        let num_args = file.function_arg_types(cx.index).len();
        let num_registers = body.num_registers();
        let num_kernels = body.kernels.len();
        self.verify_location(
            body.location,
            body.offset,
            &format!("location of function '{name}'"),
        );
        if num_registers < num_args {
            self.report(
                body.offset,
                format!("function '{name}' has {num_registers} registers for {num_args} arguments"),
            );
            return;
        }
        if num_kernels == 0 {
            self.report(
                body.offset,
                format!("function '{name}' has no pseudo kernel"),
            );
            return;
        }

        let problems_before = self.problems.len();
        let mut flow = Dataflow::new(num_registers, num_kernels);
        let mut previous_end = 0u64;
        for (k, (record, entry)) in body.kernel_records().zip(&body.kernels).enumerate() {
            let at = record.offset;
            if at < previous_end {
                self.report(
                    at,
                    format!("kernel {k} of '{name}' overlaps the previous kernel"),
                );
            }
            previous_end = at + record.bytes().len() as u64;
            if entry.num_operands as usize != record.num_args() {
                self.report(
                    at,
                    format!(
                        "kernel {k} of '{name}' waits for {} operands but has {} arguments",
                        entry.num_operands,
                        record.num_args()
                    ),
                );
            }
            if k == 0 {
                self.verify_pseudo_kernel(&record, name, num_args, num_registers);
            } else {
                if record.code() as usize >= cx.num_kernel_names {
                    self.report(
                        at,
                        format!(
                            "kernel {k} of '{name}' has code {} but there are {} kernel names",
                            record.code(),
                            cx.num_kernel_names
                        ),
                    );
                }
                self.verify_location(
                    u64::from(record.location()),
                    at + 4,
                    &format!("location of kernel {k} of '{name}'"),
                );
            }
            self.record_reads(&mut flow, name, k, &record);
            self.verify_references(cx, name, k, &record);
            self.record_writes(&mut flow, name, k, &record, num_kernels);
        }
        self.verify_results(body, function.kind, name, num_args, &mut flow.uses);
        for (reg, (&recorded, &counted)) in body.register_uses.iter().zip(&flow.uses).enumerate() {
            if recorded != counted {
                self.report(body.offset, format!("register {reg} of '{name}' records {recorded} uses but is used {counted} times"));
            }
            if flow.defined_by[reg].is_none() {
                self.report(
                    body.offset,
                    format!("register {reg} of '{name}' is never defined"),
                );
            }
        }
        if self.problems.len() == problems_before {
            self.verify_every_kernel_can_run(body, name, &flow.users, &flow.results_of);
        }
        self.verify_used_by_lists(body, name, &mut flow.users);
    }

    /// A kernel's attribute offsets and function indices are in range.
    fn verify_references(
        &mut self,
        cx: &Context<'_>,
        name: &str,
        k: usize,
        record: &KernelRecord<'_>,
    ) {
        let at = record.offset;
        let attributes_len = self.file.section_data(SectionId::Attributes).len();
        let num_functions = self.file.functions().len();
        for offset in record.attributes().iter() {
            let listed = cx.attribute_offsets.is_none_or(|set| set.contains(&offset));
            if offset as usize >= attributes_len || !listed {
                self.report(at, format!("kernel {k} of '{name}' refers to attribute offset {offset:#x}, which is not an attribute"));
            }
        }
        for f in record.functions().iter() {
            if f as usize >= num_functions {
                self.report(
                    at,
                    format!("kernel {k} of '{name}' refers to function {f} of {num_functions}"),
                );
            }
        }
    }

    /// Adds kernel `k`'s reads to `flow`, reporting registers out of range.
    fn record_reads(
        &mut self,
        flow: &mut Dataflow,
        name: &str,
        k: usize,
        record: &KernelRecord<'_>,
    ) {
        let at = record.offset;
        let num_registers = flow.uses.len();
        for reg in record.args().iter() {
            match flow.uses.get_mut(reg as usize) {
                Some(count) => {
                    *count += 1;
                    flow.users[reg as usize].push(k as u32);
                }
                None => self.report(
                    at,
                    format!("kernel {k} of '{name}' reads register {reg} of {num_registers}"),
                ),
            }
        }
        if record.num_args() == 0 && k > 0 {
            flow.users[num_registers].push(k as u32);
        }
    }

    /// Adds kernel `k`'s writes to `flow`, reporting registers out of
    /// range, registers written twice and users that are no kernel.
    fn record_writes(
        &mut self,
        flow: &mut Dataflow,
        name: &str,
        k: usize,
        record: &KernelRecord<'_>,
        num_kernels: usize,
    ) {
        let at = record.offset;
        let num_registers = flow.uses.len();
        flow.results_of.push(record.results().to_vec());
        for reg in record.results().iter() {
            match flow.defined_by.get_mut(reg as usize) {
                Some(slot @ None) => *slot = Some(k),
                Some(Some(other)) => self.report(
                    at,
                    format!("register {reg} of '{name}' is defined by kernels {other} and {k}"),
                ),
                None => self.report(
                    at,
                    format!("kernel {k} of '{name}' writes register {reg} of {num_registers}"),
                ),
            }
        }
        for users_of in (0..record.num_results()).map(|r| record.used_by(r)) {
            if let Some(bad) = users_of
                .iter()
                .find(|&u| u == 0 || u as usize >= num_kernels)
            {
                self.report(at, format!("kernel {k} of '{name}' lists kernel {bad} as a user, but there are {num_kernels} kernels"));
            }
        }
    }

    /// The returned registers are in range (each counts as a use); a sync
    /// function returns no argument and no register twice.
    fn verify_results(
        &mut self,
        body: &FunctionBody<'_>,
        kind: FunctionKind,
        name: &str,
        num_args: usize,
        uses: &mut [u32],
    ) {
        let num_registers = uses.len();
        for reg in body.results.iter() {
            match uses.get_mut(*reg as usize) {
                Some(count) => *count += 1,
                None => self.report(
                    body.offset,
                    format!("function '{name}' returns register {reg} of {num_registers}"),
                ),
            }
        }
        if kind == FunctionKind::Sync {
            let mut seen = HashSet::new();
            for (i, &reg) in body.results.iter().enumerate() {
                if (reg as usize) < num_args {
                    self.report(
                        body.offset,
                        format!("return value {i} is an argument in sync function '{name}'"),
                    );
                }
                if !seen.insert(reg) {
                    self.report(
                        body.offset,
                        format!("return value {i} is duplicated in sync function '{name}'"),
                    );
                }
            }
        }
    }

    /// Each result's used-by list must name its users once per use.
    fn verify_used_by_lists(
        &mut self,
        body: &FunctionBody<'_>,
        name: &str,
        users: &mut [Vec<u32>],
    ) {
        for (k, record) in body.kernel_records().enumerate() {
            for (r, reg) in record.results().iter().enumerate() {
                let Some(expected) = users.get_mut(reg as usize) else {
                    continue;
                };
                let mut listed = record.used_by(r).to_vec();
                listed.sort_unstable();
                expected.sort_unstable();
                if listed != *expected {
                    self.report(record.offset, format!("kernel {k} of '{name}': users of register {reg} are listed as {listed:?} but are {expected:?}"));
                }
            }
        }
    }

    /// Every kernel must become ready once the pseudo kernel has run: a
    /// kernel that waits, directly or not, for its own result would block
    /// the executor forever. Runs the readiness rule of the executor on
    /// the dataflow graph (`users[r]`: the kernels reading register `r`,
    /// once per read; `results_of[k]`: the registers kernel `k` defines)
    /// and names the kernels that never become ready.
    fn verify_every_kernel_can_run(
        &mut self,
        body: &FunctionBody<'_>,
        name: &str,
        users: &[Vec<u32>],
        results_of: &[Vec<u32>],
    ) {
        let mut pending: Vec<usize> = body
            .kernel_records()
            .map(|record| record.num_args().max(1))
            .collect();
        pending[0] = 0;
        let mut available = vec![false; users.len()];
        let mut ran = vec![false; results_of.len()];
        let mut to_run = vec![0usize];
        while let Some(k) = to_run.pop() {
            ran[k] = true;
            for &reg in &results_of[k] {
                let Some(slot) = available.get_mut(reg as usize) else {
                    continue;
                };
                if std::mem::replace(slot, true) {
                    continue;
                }
                for &user in &users[reg as usize] {
                    let waiting = &mut pending[user as usize];
                    *waiting -= 1;
                    if *waiting == 0 {
                        to_run.push(user as usize);
                    }
                }
            }
        }
        let stuck: Vec<usize> = (0..ran.len()).filter(|&k| !ran[k]).collect();
        if let Some(&first) = stuck.first() {
            let at = body
                .kernel_records()
                .nth(first)
                .map_or(body.offset, |record| record.offset);
            let names = self.file.kernel_names().unwrap_or_default();
            let shown: Vec<String> = stuck
                .iter()
                .take(8)
                .map(|&k| {
                    let code = body.kernel_records().nth(k).map(|r| r.code() as usize);
                    match code.and_then(|c| names.get(c)) {
                        Some(kernel) => format!("{k} ({kernel})"),
                        None => k.to_string(),
                    }
                })
                .collect();
            let more = if stuck.len() > shown.len() {
                ", ..."
            } else {
                ""
            };
            self.report(
                at,
                format!(
                    "kernels {}{more} of '{name}' can never run: they wait for each other's results (a dataflow cycle)",
                    shown.join(", ")
                ),
            );
        }
    }

    fn verify_pseudo_kernel(
        &mut self,
        record: &KernelRecord<'_>,
        name: &str,
        num_args: usize,
        num_registers: usize,
    ) {
        let at = record.offset;
        if record.code() != PSEUDO_KERNEL_CODE || record.location() != PSEUDO_KERNEL_LOCATION {
            self.report(
                at,
                format!(
                    "kernel 0 of '{name}' is not the pseudo kernel (code {:#x}, location {:#x})",
                    record.code(),
                    record.location()
                ),
            );
        }
        if record.num_args() + record.num_attributes() + record.num_functions() != 0 {
            self.report(
                at,
                format!("pseudo kernel of '{name}' has arguments, attributes or functions"),
            );
        }
        let expected: Vec<u32> = std::iter::once(num_registers as u32)
            .chain(0..num_args as u32)
            .collect();
        if record.results().to_vec() != expected {
            self.report(at, format!("pseudo kernel of '{name}' must define the pseudo register {num_registers} and arguments 0..{num_args}"));
        }
    }
}

struct Context<'s> {
    index: usize,
    num_kernel_names: usize,
    attribute_offsets: Option<&'s HashSet<u32>>,
}

/// Who defines and who uses each register of a function being verified.
struct Dataflow {
    /// The kernel defining each register, and (at index `num_registers`)
    /// the pseudo register that triggers kernels without operands.
    defined_by: Vec<Option<usize>>,
    /// The registers each kernel defines.
    results_of: Vec<Vec<u32>>,
    /// Reads of each register, the function's results included.
    uses: Vec<u32>,
    /// The kernels reading each register, once per read (the pseudo
    /// register last).
    users: Vec<Vec<u32>>,
}

impl Dataflow {
    fn new(num_registers: usize, num_kernels: usize) -> Dataflow {
        Dataflow {
            defined_by: vec![None; num_registers + 1],
            results_of: Vec::with_capacity(num_kernels),
            uses: vec![0; num_registers],
            users: vec![Vec::new(); num_registers + 1],
        }
    }
}
