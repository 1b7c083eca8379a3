//! A function's register and kernel tables in the form the executor reads,
//! decoded once from the BEF body and validated so that execution can index
//! without checks: every register a kernel reads has exactly one producer
//! that names the reader in its used-by list, ready counts match the
//! producers, and every index is in range. A file that breaks these rules is
//! refused at load with the offset of the offending kernel, instead of
//! hanging or corrupting reference counts at run time.

use super::error::LoadError;
use super::registry::{KernelFn, KernelImpl};
use crate::format::{BefFile, DecodeError, FunctionBody, FunctionKind, KernelHeader};

/// Sentinel of an unproduced register in the producer map.
const NONE: u32 = u32::MAX;

/// One kernel of a function.
#[derive(Debug, Clone, Copy)]
pub struct KernelInfo {
    /// Word index of the record in the tables' `words`.
    pub(crate) offset: u32,
    /// The stream the translator put the kernel in.
    pub(crate) stream_id: u32,
    /// Runs when its first argument is available (a registration property);
    /// only that argument's producer counts towards its ready count.
    pub(crate) non_strict: bool,
    /// The record's header, copied so that the executor computes slices
    /// without dependent loads.
    pub(crate) header: KernelHeader,
    /// The kernel's implementation, resolved once (the pseudo kernel has
    /// none and never runs).
    pub(crate) func: Option<KernelFn>,
    /// Index in the tables' `operands` of the argument registers
    /// (followed by the attribute offsets and function indices).
    pub(crate) args: u32,
    /// Index in the tables' `outputs` of the first result.
    pub(crate) outputs: u32,
}

/// How the executor stores a value published into a register.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RegisterKind {
    /// Only the producer writes it, after which its readers borrow it.
    /// (First, so the common case is the zero discriminant: one test.)
    Plain,
    /// Nothing reads it: the value is dropped.
    Unread,
    /// A function result: it holds a placeholder the value is forwarded to.
    Result,
    /// A non-strict reader may install a placeholder before the producer
    /// runs; the producer then forwards to it.
    ReadEarly,
}

/// One result of a kernel, as the executor publishes it.
#[derive(Debug, Clone, Copy)]
pub struct Output {
    pub register: u32,
    pub kind: RegisterKind,
    /// `links[users..users + num_users]` are the kernels whose ready count
    /// this result decrements.
    pub users: u32,
    pub num_users: u32,
}

/// A ready-count link from a result to a kernel that waits for it. Links of
/// a non-strict kernel's later arguments are left out: it waits only for
/// its first.
#[derive(Debug, Clone, Copy)]
pub struct UserLink {
    pub kernel: u32,
    /// The kernel's stream, copied so scheduling needs no other load.
    pub stream: u32,
}

impl KernelInfo {
    /// Calls the kernel's implementation on `frame`.
    #[inline(always)]
    pub fn invoke(&self, frame: &super::frame::KernelFrame<'_>) {
        match self.func {
            Some(func) => func(frame),
            // Load resolves every kernel; only the pseudo kernel, which
            // never runs, has none.
            None => frame.report_error(
                "kernel has no implementation",
                crate::runtime::ErrorCode::Internal,
            ),
        }
    }
}

/// Decoded tables of one BEF or sync function.
#[derive(Debug)]
pub struct FunctionTables {
    pub(crate) index: usize,
    pub(crate) name: String,
    pub(crate) kind: FunctionKind,
    pub(crate) num_arguments: usize,
    /// Kernel 0 is the argument pseudo kernel.
    pub(crate) kernels: Box<[KernelInfo]>,
    /// The kernel list as FIXED32 words.
    pub(crate) words: Box<[u32]>,
    /// Every kernel's argument registers, attribute offsets and function
    /// indices, copied out of `words` back to back: what execution reads of
    /// the records, packed densely (fewer cache lines per kernel).
    pub(crate) operands: Box<[u32]>,
    /// Result register of each function result.
    pub(crate) results: Box<[u32]>,
    /// Per register: the uses an execution waits for before releasing the
    /// value: its readers, plus the producer's forward when the register may
    /// hold a placeholder.
    pub(crate) initial_uses: Box<[u32]>,
    /// Per kernel: the producers that must publish before it runs (its
    /// ready count when an execution starts).
    pub(crate) initial_ready: Box<[u32]>,
    /// Every kernel's results, in kernel order (see [`KernelInfo::outputs`]).
    pub(crate) outputs: Box<[Output]>,
    /// The user links of every output (see [`Output::users`]).
    pub(crate) links: Box<[UserLink]>,
    /// The most arguments and results of any kernel: the executor sizes
    /// its frame buffers once per processing loop.
    pub(crate) max_arguments: usize,
    pub(crate) max_results: usize,
}

/// A kernel record viewed in place.
#[derive(Clone, Copy)]
pub struct Record<'a> {
    /// The record and everything after it.
    words: &'a [u32],
    header: KernelHeader,
}

impl<'a> Record<'a> {
    #[inline(always)]
    fn new(words: &'a [u32], info: &KernelInfo) -> Self {
        Record {
            words,
            header: info.header,
        }
    }
    #[inline(always)]
    pub fn code(&self) -> u32 {
        self.header.code
    }
    #[inline(always)]
    pub fn location(&self) -> u32 {
        self.header.location
    }
    #[inline(always)]
    pub fn num_arguments(&self) -> usize {
        self.header.num_args as usize
    }
    #[inline(always)]
    pub fn num_results(&self) -> usize {
        self.header.num_results as usize
    }
    #[inline(always)]
    pub fn arguments(&self) -> &'a [u32] {
        &self.words[self.header.args()]
    }
    #[inline(always)]
    pub fn attributes(&self) -> &'a [u32] {
        &self.words[self.header.attributes()]
    }
    #[inline(always)]
    pub fn functions(&self) -> &'a [u32] {
        &self.words[self.header.functions()]
    }
    #[inline(always)]
    pub fn results(&self) -> &'a [u32] {
        &self.words[self.header.results()]
    }
    /// The users of every result, one slice after the other.
    #[inline(always)]
    pub fn used_by_counts(&self) -> &'a [u32] {
        &self.words[self.header.used_by_counts()]
    }
    #[inline(always)]
    pub fn used_by_start(&self) -> usize {
        self.header.used_by_lists_start()
    }
    #[inline(always)]
    pub fn words(&self) -> &'a [u32] {
        self.words
    }
}

impl FunctionTables {
    /// The record of kernel `id`.
    #[inline(always)]
    pub fn record(&self, id: usize) -> Record<'_> {
        self.record_of(&self.kernels[id])
    }

    /// The record of the kernel `info` describes.
    #[inline(always)]
    pub fn record_of<'a>(&'a self, info: &KernelInfo) -> Record<'a> {
        Record::new(&self.words[info.offset as usize..], info)
    }

    /// Number of registers of the function.
    pub fn num_registers(&self) -> usize {
        self.initial_uses.len()
    }

    /// Decodes and validates function `index` of `bef`: copies the kernel
    /// records into the executor's form, then checks the register graph
    /// (producers, reads, used-by lists, results) one rule at a time, and
    /// derives what the executor needs from it.
    pub fn decode(
        bef: &BefFile<'_>,
        index: usize,
        num_kernel_codes: usize,
        implementation: &dyn Fn(u32) -> Option<KernelImpl>,
    ) -> Result<FunctionTables, LoadError> {
        let entry = &bef.functions()[index];
        let body = bef.body(index).map_err(LoadError::decode)?;
        let name = entry.name.to_string();
        let site = Site { name: &name, body };
        if body.kernels.is_empty() {
            return Err(site.error(body.offset, "has no argument pseudo kernel".into()));
        }
        let num_arguments = bef.function_arg_types(index).len();
        let copied = copy_records(&site, implementation)?;
        let mut tables = FunctionTables {
            index,
            name: name.clone(),
            kind: entry.kind,
            num_arguments,
            max_arguments: copied.max_count(|h| h.num_args),
            max_results: copied.max_count(|h| h.num_results),
            kernels: copied.kernels.into_boxed_slice(),
            words: copied.words.into_boxed_slice(),
            operands: copied.operands.into_boxed_slice(),
            results: body.results.clone().into_boxed_slice(),
            initial_uses: Box::default(),
            initial_ready: Box::default(),
            outputs: Box::default(),
            links: Box::default(),
        };
        tables.check_pseudo_kernel(&site)?;
        let producer = tables.producers(&site, num_kernel_codes, bef.functions().len())?;
        let reads = tables.check_reads(&site, &producer)?;
        let mut ready = tables.check_used_by_lists(&site, &reads.expected_in)?;
        let is_result = tables.result_registers(&site, &producer)?;
        let read_early = tables.mark_non_strict(is_result.len(), &mut ready, implementation);
        tables.initial_uses = (0..body.num_registers())
            .map(|r| reads.reader_counts[r] + u32::from(is_result[r] || read_early[r]))
            .collect();
        tables.initial_ready = ready.into_boxed_slice();
        tables.build_outputs(&RegisterFacts {
            reader_counts: reads.reader_counts,
            is_result,
            read_early,
        });
        if tables.kind == FunctionKind::Sync {
            check_sync_function(&tables).map_err(|m| site.error(body.offset, m))?;
        }
        Ok(tables)
    }

    /// The argument pseudo kernel reads nothing and writes the pseudo
    /// register and the function's arguments.
    fn check_pseudo_kernel(&self, site: &Site<'_>) -> Result<(), LoadError> {
        let pseudo = self.record(0);
        if pseudo.num_arguments() != 0
            || pseudo.attributes().len() + pseudo.functions().len() != 0
            || pseudo.num_results() != self.num_arguments + 1
        {
            return Err(site.kernel_error(
                0,
                format!(
                    "the argument pseudo kernel must have no operands and {} results",
                    self.num_arguments + 1
                ),
            ));
        }
        Ok(())
    }

    /// The producer of every register, (kernel, result number), checking
    /// kernel codes, register and function indices, and single writers.
    fn producers(
        &self,
        site: &Site<'_>,
        num_kernel_codes: usize,
        num_functions: usize,
    ) -> Result<Vec<(u32, u32)>, LoadError> {
        let num_registers = site.body.num_registers();
        let mut producer = vec![(NONE, NONE); num_registers];
        for id in 0..self.kernels.len() {
            let record = self.record(id);
            if id > 0 && record.code() as usize >= num_kernel_codes {
                return Err(site.kernel_error(
                    id,
                    format!(
                        "kernel {id} has code {} but the file names {num_kernel_codes} kernels",
                        record.code()
                    ),
                ));
            }
            for (n, &register) in record.results().iter().enumerate() {
                if id == 0 && n == 0 {
                    continue; // the pseudo register that triggers operand-less kernels
                }
                let slot = producer.get_mut(register as usize).ok_or_else(|| {
                    site.kernel_error(
                        id,
                        format!("kernel {id} writes register {register} of {num_registers}"),
                    )
                })?;
                if slot.0 != NONE {
                    return Err(site.kernel_error(
                        id,
                        format!(
                            "register {register} is written by kernels {} and {id}",
                            slot.0
                        ),
                    ));
                }
                *slot = (id as u32, n as u32);
            }
            if let Some(&f) = record
                .functions()
                .iter()
                .find(|&&f| f as usize >= num_functions)
            {
                return Err(site.kernel_error(
                    id,
                    format!("kernel {id} names function {f} of {num_functions}"),
                ));
            }
        }
        Ok(producer)
    }

    /// Every read needs a producer (earlier, in a sync function); every
    /// kernel without operands is triggered by the pseudo register.
    fn check_reads(&self, site: &Site<'_>, producer: &[(u32, u32)]) -> Result<Reads, LoadError> {
        let num_registers = producer.len();
        let mut expected_in = vec![0u32; self.kernels.len()];
        let mut reader_counts = vec![0u32; num_registers];
        for (id, expected) in expected_in.iter_mut().enumerate().skip(1) {
            let record = self.record(id);
            if record.num_arguments() == 0 {
                *expected = 1;
            }
            for &register in record.arguments() {
                let Some(&(p, _)) = producer.get(register as usize) else {
                    return Err(site.kernel_error(
                        id,
                        format!("kernel {id} reads register {register} of {num_registers}"),
                    ));
                };
                if p == NONE {
                    return Err(site.kernel_error(
                        id,
                        format!("kernel {id} reads register {register}, which nothing writes"),
                    ));
                }
                if p as usize >= id && self.kind == FunctionKind::Sync {
                    return Err(site.kernel_error(
                        id,
                        format!("sync kernel {id} reads register {register} before it is written"),
                    ));
                }
                reader_counts[register as usize] += 1;
                *expected += 1;
            }
        }
        Ok(Reads {
            reader_counts,
            expected_in,
        })
    }

    /// Each producer lists every reader once per read, and each kernel's
    /// operand count equals its reads and its producer links. Returns each
    /// kernel's ready count (its operand count; operand-less kernels wait
    /// for the pseudo register).
    fn check_used_by_lists(
        &self,
        site: &Site<'_>,
        expected_in: &[u32],
    ) -> Result<Vec<u32>, LoadError> {
        let num_kernels = self.kernels.len();
        let mut listed = vec![0u32; num_kernels];
        for id in 0..num_kernels {
            let record = self.record(id);
            let mut at = record.used_by_start();
            for (n, &count) in record.used_by_counts().iter().enumerate() {
                let register = record.results()[n];
                for &user in &record.words()[at..at + count as usize] {
                    if user == 0 || user as usize >= num_kernels {
                        return Err(site.kernel_error(
                            id,
                            format!("kernel {id} lists user {user} of {num_kernels} kernels"),
                        ));
                    }
                    let reads = if id == 0 && n == 0 {
                        (self.record(user as usize).num_arguments() == 0) as usize
                    } else {
                        self.record(user as usize)
                            .arguments()
                            .iter()
                            .filter(|&&r| r == register)
                            .count()
                    };
                    if reads == 0 {
                        return Err(site.kernel_error(
                            id,
                            format!(
                                "kernel {id} lists kernel {user} as a user of register {register}, \
                                 which it does not read"
                            ),
                        ));
                    }
                    listed[user as usize] += 1;
                }
                at += count as usize;
            }
        }
        let ready: Vec<u32> = site
            .body
            .kernels
            .iter()
            .map(|k| k.num_operands.max(1))
            .collect();
        for id in 1..num_kernels {
            if listed[id] != expected_in[id] || ready[id] != expected_in[id] {
                return Err(site.kernel_error(
                    id,
                    format!(
                        "kernel {id} has {} operands but {} reads and {} producer links",
                        ready[id], expected_in[id], listed[id]
                    ),
                ));
            }
        }
        Ok(ready)
    }

    /// Which registers the function returns; each must have a producer.
    fn result_registers(
        &self,
        site: &Site<'_>,
        producer: &[(u32, u32)],
    ) -> Result<Vec<bool>, LoadError> {
        let mut is_result = vec![false; producer.len()];
        for &register in self.results.iter() {
            match producer.get(register as usize) {
                Some(&(p, _)) if p != NONE => is_result[register as usize] = true,
                _ => {
                    return Err(site.error(
                        site.body.offset,
                        format!("result register {register} is never written"),
                    ));
                }
            }
        }
        Ok(is_result)
    }

    /// Marks the non-strict kernels, which wait only for their first
    /// argument's producer, lowering their ready counts. Returns the
    /// registers such a kernel may read before their producer runs.
    fn mark_non_strict(
        &mut self,
        num_registers: usize,
        ready: &mut [u32],
        implementation: &dyn Fn(u32) -> Option<KernelImpl>,
    ) -> Vec<bool> {
        let mut read_early = vec![false; num_registers];
        for (id, ready_count) in ready.iter_mut().enumerate().skip(1) {
            let record = self.record_of(&self.kernels[id]);
            let arguments = record.arguments();
            let Some(&first) = arguments.first() else {
                continue;
            };
            if !implementation(record.code()).is_some_and(|k| k.non_strict) {
                continue;
            }
            *ready_count = arguments.iter().filter(|&&r| r == first).count() as u32;
            for &register in arguments.iter().filter(|&&r| r != first) {
                read_early[register as usize] = true;
            }
            self.kernels[id].non_strict = true;
        }
        read_early
    }
}

/// The function being decoded, for errors: its name, and its kernels' byte
/// offsets in the file.
struct Site<'b> {
    name: &'b str,
    body: &'b FunctionBody<'b>,
}

impl Site<'_> {
    fn error(&self, offset: u64, message: String) -> LoadError {
        LoadError::decode(DecodeError::new(
            offset,
            format!("function '{}': {message}", self.name),
        ))
    }

    /// An error at the record of kernel `id`.
    fn kernel_error(&self, id: usize, message: String) -> LoadError {
        let offset = self.body.kernel_list_offset + u64::from(self.body.kernels[id].offset);
        self.error(offset, message)
    }
}

/// The kernel records copied into the executor's form.
struct CopiedRecords {
    kernels: Vec<KernelInfo>,
    /// Every record's words, back to back.
    words: Vec<u32>,
    /// Every kernel's arguments, attributes and functions, back to back.
    operands: Vec<u32>,
}

impl CopiedRecords {
    /// The largest of a header count over the kernels that run (the pseudo
    /// kernel never runs, so its counts do not size frames).
    fn max_count(&self, count: fn(&KernelHeader) -> u32) -> usize {
        self.kernels
            .iter()
            .skip(1)
            .map(|k| count(&k.header) as usize)
            .max()
            .unwrap_or(0)
    }
}

/// Copies every kernel record of the function and resolves its
/// implementation (the pseudo kernel, 0, has none).
fn copy_records(
    site: &Site<'_>,
    implementation: &dyn Fn(u32) -> Option<KernelImpl>,
) -> Result<CopiedRecords, LoadError> {
    let body = site.body;
    let too_large = |offset| site.error(offset, "kernel list is larger than 16 GiB".into());
    let mut words = Vec::new();
    let mut operands = Vec::new();
    let mut kernels = Vec::with_capacity(body.kernels.len());
    for (id, record) in body.kernel_records().enumerate() {
        let offset = u32::try_from(words.len()).map_err(|_| too_large(record.offset))?;
        words.extend(
            record
                .bytes()
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
        );
        // The format reader checked that the counts fit the record.
        let header = record.header();
        let stream_id = u32::try_from(body.kernels[id].stream_id).unwrap_or(u32::MAX);
        kernels.push(KernelInfo {
            offset,
            stream_id,
            non_strict: false,
            header,
            func: if id == 0 {
                None
            } else {
                implementation(record.code()).map(|k| k.func)
            },
            args: u32::try_from(operands.len()).map_err(|_| too_large(record.offset))?,
            outputs: 0,
        });
        // Arguments, attributes and functions lie back to back.
        let run = header.args().start..header.functions().end;
        let run = (offset as usize + run.start)..(offset as usize + run.end);
        let run = words.get(run).ok_or_else(|| {
            site.error(
                record.offset,
                format!("kernel {id} has more operands than its record holds"),
            )
        })?;
        operands.extend_from_slice(run);
    }
    Ok(CopiedRecords {
        kernels,
        words,
        operands,
    })
}

/// What the read check counted.
struct Reads {
    /// Kernel operands reading each register.
    reader_counts: Vec<u32>,
    /// Each kernel's reads (1 for an operand-less kernel: the pseudo
    /// register).
    expected_in: Vec<u32>,
}

/// What decoding learned about each register, for the outputs' kinds.
struct RegisterFacts {
    /// Kernel operands reading the register (function results apart).
    reader_counts: Vec<u32>,
    is_result: Vec<bool>,
    /// A non-strict kernel may read it before its producer runs (and
    /// install a placeholder the producer must forward).
    read_early: Vec<bool>,
}

impl FunctionTables {
    /// Flattens every result's register kind and user links (validated
    /// before) into [`outputs`](Self::outputs) and [`links`](Self::links).
    fn build_outputs(&mut self, facts: &RegisterFacts) {
        let mut outputs = Vec::new();
        let mut links = Vec::new();
        for id in 0..self.kernels.len() {
            self.kernels[id].outputs = outputs.len() as u32;
            let record = self.record(id);
            let mut at = record.used_by_start();
            for (n, &count) in record.used_by_counts().iter().enumerate() {
                let register = record.results()[n];
                let users = links.len() as u32;
                for &user in &record.words()[at..at + count as usize] {
                    let info = &self.kernels[user as usize];
                    let counts_towards_ready = !info.non_strict
                        || self.record_of(info).arguments().first() == Some(&register);
                    if counts_towards_ready {
                        links.push(UserLink {
                            kernel: user,
                            stream: info.stream_id,
                        });
                    }
                }
                at += count as usize;
                let r = register as usize;
                let kind = if id == 0 && n == 0 {
                    RegisterKind::Unread // the pseudo register
                } else if facts.is_result[r] {
                    RegisterKind::Result
                } else if facts.reader_counts[r] == 0 {
                    RegisterKind::Unread
                } else if facts.read_early[r] {
                    RegisterKind::ReadEarly
                } else {
                    RegisterKind::Plain
                };
                outputs.push(Output {
                    register,
                    kind,
                    users,
                    num_users: links.len() as u32 - users,
                });
            }
        }
        self.outputs = outputs.into_boxed_slice();
        self.links = links.into_boxed_slice();
    }

    /// Kernel `id`, where `id` comes from these tables (a user link or a
    /// result's producer).
    #[inline(always)]
    pub(crate) fn kernel(&self, id: u32) -> &KernelInfo {
        debug_assert!((id as usize) < self.kernels.len());
        // SAFETY: `decode` checks every user link against the kernel count;
        // the tables are immutable once decoded.
        unsafe { self.kernels.get_unchecked(id as usize) }
    }

    /// The outputs of kernel `info` (one of these tables' kernels).
    #[inline(always)]
    pub(crate) fn outputs_of(&self, info: &KernelInfo) -> &[Output] {
        let range = info.outputs as usize..info.outputs as usize + info.header.num_results as usize;
        debug_assert!(range.end <= self.outputs.len());
        // SAFETY: `build_outputs` gives each kernel one output per result,
        // in order, starting at `info.outputs`.
        unsafe { self.outputs.get_unchecked(range) }
    }

    /// The kernels `output` makes ready.
    #[inline(always)]
    pub(crate) fn users_of(&self, output: &Output) -> &[UserLink] {
        let range = output.users as usize..output.users as usize + output.num_users as usize;
        debug_assert!(range.end <= self.links.len());
        // SAFETY: `build_outputs` records each output's links where it
        // pushed them.
        unsafe { self.links.get_unchecked(range) }
    }

    /// The argument registers, attribute offsets and function indices of
    /// kernel `info` (one of these tables' kernels).
    #[inline(always)]
    pub(crate) fn operands_of(&self, info: &KernelInfo) -> (&[u32], &[u32], &[u32]) {
        let KernelHeader {
            num_args,
            num_attributes,
            num_functions,
            ..
        } = info.header;
        let (num_args, num_attributes, num_functions) = (
            num_args as usize,
            num_attributes as usize,
            num_functions as usize,
        );
        let start = info.args as usize;
        let end = start + num_args + num_attributes + num_functions;
        debug_assert!(end <= self.operands.len());
        // SAFETY: `decode` copied each kernel's three runs, of the lengths
        // its counts give, to `operands` at `args`.
        let operands = unsafe { self.operands.get_unchecked(start..end) };
        // SAFETY: `operands` holds the three runs back to back (length
        // computed above).
        let (arguments, rest) = unsafe { operands.split_at_unchecked(num_args) };
        // SAFETY: as above.
        let (attributes, functions) = unsafe { rest.split_at_unchecked(num_attributes) };
        (arguments, attributes, functions)
    }
}

/// Sync functions may not return an argument or the same value twice (the
/// interpreter moves each result out of its register).
fn check_sync_function(tables: &FunctionTables) -> Result<(), String> {
    let pseudo = tables.record(0);
    let arguments = &pseudo.results()[1..];
    for (i, register) in tables.results.iter().enumerate() {
        if arguments.contains(register) {
            return Err(format!(
                "sync function returns argument register {register}"
            ));
        }
        if tables.results[..i].contains(register) {
            return Err(format!("sync function returns register {register} twice"));
        }
    }
    Ok(())
}
