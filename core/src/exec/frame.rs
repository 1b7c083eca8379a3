//! The kernel frame: what the executor hands a kernel (its arguments,
//! result slots, attributes, functions, location and context).

use std::cell::Cell;
use std::marker::PhantomData;
use std::sync::Arc;

use super::context::ExecutionContext;
use super::function::Function;
use super::program::Program;
use super::tables::{FunctionTables, KernelInfo};
use crate::runtime::{AsyncValue, Diagnostic, ErrorCode, HostContext, Location};

/// A kernel invocation. Kernels normally use the typed extractors of
/// [`kernel!`](crate::kernel) rather than the frame itself.
pub struct KernelFrame<'a> {
    /// The first `num_args` handles are the running kernel's arguments.
    /// Kept apart from the count (rather than a slice) so that the executor,
    /// which reuses one frame for a whole processing loop, only stores what
    /// changes between kernels.
    args: *const AsyncValue,
    num_args: usize,
    /// Likewise: the first `num_results` slots are the kernel's results.
    results: &'a [Cell<Option<AsyncValue>>],
    num_results: usize,
    pub(crate) program: &'a Arc<Program>,
    pub(crate) ctx: &'a ExecutionContext,
    /// The running kernel of `tables` (its code, location, attribute
    /// offsets and function indices are read from there on demand, so
    /// building a frame costs a few stores).
    pub(crate) tables: &'a FunctionTables,
    pub(crate) info: &'a KernelInfo,
    /// The argument handles are borrowed for `'a`.
    _args: PhantomData<&'a [AsyncValue]>,
}

impl<'a> KernelFrame<'a> {
    /// A frame for kernel `info` of `tables`, reading `args` and writing
    /// `results`.
    pub(crate) fn new(
        args: &'a [AsyncValue],
        results: &'a [Cell<Option<AsyncValue>>],
        program: &'a Arc<Program>,
        ctx: &'a ExecutionContext,
        tables: &'a FunctionTables,
        info: &'a KernelInfo,
    ) -> Self {
        // SAFETY: `args` is a slice borrowed for `'a`: all its handles are
        // initialised and valid while the frame lives; `results` is the
        // whole result buffer.
        unsafe {
            let mut frame = Self::over_buffers(args.as_ptr(), results, program, ctx, tables, info);
            frame.set_kernel(info, args.len(), results.len());
            frame
        }
    }

    /// A frame over the executor's reused buffers, describing no kernel
    /// yet (see [`set_kernel`](Self::set_kernel)).
    ///
    /// # Safety
    /// Whenever the frame is handed to a kernel after `set_kernel(_, n, _)`,
    /// the first `n` handles at `args` must be initialised and stay valid
    /// while the kernel runs.
    pub(crate) unsafe fn over_buffers(
        args: *const AsyncValue,
        results: &'a [Cell<Option<AsyncValue>>],
        program: &'a Arc<Program>,
        ctx: &'a ExecutionContext,
        tables: &'a FunctionTables,
        info: &'a KernelInfo,
    ) -> Self {
        KernelFrame {
            args,
            num_args: 0,
            results,
            num_results: 0,
            program,
            ctx,
            tables,
            info,
            _args: PhantomData,
        }
    }

    /// Makes the frame describe kernel `info`, whose arguments are the first
    /// `num_args` handles of the argument buffer and whose results the first
    /// `num_results` slots.
    ///
    /// # Safety
    /// As for [`over_buffers`](Self::over_buffers): the first `num_args`
    /// handles must be initialised before the frame is used; and
    /// `num_results` is at most the result buffer's length.
    #[inline(always)]
    pub(crate) unsafe fn set_kernel(
        &mut self,
        info: &'a KernelInfo,
        num_args: usize,
        num_results: usize,
    ) {
        debug_assert!(num_results <= self.results.len());
        self.info = info;
        self.num_args = num_args;
        self.num_results = num_results;
    }

    /// This frame with another context (for the same kernel, arguments and
    /// results).
    pub(crate) fn with_context<'b>(&self, ctx: &'b ExecutionContext) -> KernelFrame<'b>
    where
        'a: 'b,
    {
        KernelFrame { ctx, ..*self }
    }

    /// The kernel's result slots.
    #[inline(always)]
    pub(crate) fn result_slots(&self) -> &'a [Cell<Option<AsyncValue>>] {
        debug_assert!(self.num_results <= self.results.len());
        // SAFETY: `num_results` never exceeds the buffer's length (the
        // contract of `set_kernel`; equal in `new`).
        unsafe { self.results.get_unchecked(..self.num_results) }
    }

    /// The kernel's name as the program spells it.
    pub fn kernel_name(&self) -> &'a str {
        self.program
            .kernel_names()
            .get(self.info.header.code as usize)
            .map_or("?", String::as_str)
    }

    /// The kernel's argument values, in order.
    #[inline]
    pub fn arguments(&self) -> &'a [AsyncValue] {
        // SAFETY: the first `num_args` handles are initialised and borrowed
        // for `'a` (a slice in `new`; the contract of `over_buffers` and
        // `set_kernel` otherwise).
        unsafe { std::slice::from_raw_parts(self.args, self.num_args) }
    }

    /// Number of results the kernel must set.
    #[inline]
    pub fn num_results(&self) -> usize {
        self.num_results
    }

    /// Sets result `index` (ignored past the number of results the program
    /// declares: the executor then reports the missing results instead).
    #[inline]
    pub fn set_result(&self, index: usize, value: AsyncValue) {
        if let Some(slot) = self.result_slots().get(index) {
            slot.set(Some(value));
        }
    }

    /// Whether result `index` has been set.
    pub fn has_result(&self, index: usize) -> bool {
        self.result_slots().get(index).is_some_and(|slot| {
            let value = slot.take();
            let set = value.is_some();
            slot.set(value);
            set
        })
    }

    /// Offsets of the kernel's attributes in the Attributes section.
    #[inline]
    pub fn attribute_offsets(&self) -> &'a [u32] {
        self.tables.operands_of(self.info).1
    }

    /// The Attributes section.
    #[inline]
    pub fn attribute_section(&self) -> &'a [u8] {
        self.program.attribute_bytes()
    }

    /// The kernel's function attributes as function indices.
    fn function_indices(&self) -> &'a [u32] {
        self.tables.operands_of(self.info).2
    }

    /// Number of functions the kernel refers to (regions and callees).
    pub fn num_functions(&self) -> usize {
        self.function_indices().len()
    }

    /// Function attribute `index` as a handle the kernel may keep.
    pub fn function(&self, index: usize) -> Option<Function> {
        let f = *self.function_indices().get(index)?;
        Some(Function::new(self.program.clone(), f as usize))
    }

    /// The program the kernel belongs to.
    pub fn program(&self) -> &'a Arc<Program> {
        self.program
    }

    /// The execution context the kernel runs under (host, observer, caller).
    #[inline]
    pub fn context(&self) -> &'a ExecutionContext {
        self.ctx
    }

    /// The host context: work queue, allocator, cancellation, shared objects.
    #[inline]
    pub fn host(&self) -> &'a HostContext {
        self.ctx.host()
    }

    /// The kernel's source location (decoded on demand).
    pub fn location(&self) -> Option<Location> {
        self.program.location(self.info.header.location)
    }

    /// The kernel's debug info: the names its location carries (see
    /// [`Program::debug_info`](super::Program::debug_info)), `None` when it
    /// has none.
    pub fn debug_info(&self) -> Option<String> {
        self.program.debug_info(self.info.header.location)
    }

    /// The kernel's location as the file encodes it: its offset in the
    /// Locations section, distinct for each kernel the translator emitted
    /// (also for unknown locations), and an identity of the program it is
    /// in (equal for kernels of one loaded program).
    pub fn location_key(&self) -> (usize, u32) {
        (
            Arc::as_ptr(self.program) as usize,
            self.info.header.location,
        )
    }

    /// A diagnostic at the kernel's location.
    pub fn diagnostic(&self, message: impl Into<String>) -> Diagnostic {
        let mut diag = Diagnostic::new(message);
        diag.location = self.location();
        diag
    }

    /// Reports `message` at the kernel's location and returns the error
    /// value (for results completed later).
    pub fn emit_error(&self, message: impl Into<String>) -> AsyncValue {
        self.ctx.emit_error(self.diagnostic(message))
    }

    /// Reports `diag` (located at the kernel unless it has a location) and
    /// makes every result not yet set that error.
    pub fn report(&self, mut diag: Diagnostic) {
        if diag.location.is_none() {
            diag.location = self.location();
        }
        let error = self.ctx.emit_error(diag);
        self.set_unset_results(&error);
    }

    /// Like [`report`](Self::report) with a message and a code.
    pub fn report_error(&self, message: impl Into<String>, code: ErrorCode) {
        self.report(Diagnostic::new(message).with_code(code));
    }

    /// Sets every unset result to `value`.
    pub fn set_unset_results(&self, value: &AsyncValue) {
        for slot in self.result_slots() {
            let current = slot.take();
            slot.set(Some(current.unwrap_or_else(|| value.clone())));
        }
    }
}
