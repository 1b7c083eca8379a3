//! `Function`: a handle to one function of a loaded program, callable from
//! the runner and from control-flow kernels (`tfrt.call`, `tfrt.if`, ...).

use std::sync::Arc;

use super::context::ExecutionContext;
use super::observer::{Caller, ExecEvent, Operands, now};
use super::program::{FunctionInfo, Program};
use super::{call_depth, executor, sync_interpreter};
use crate::format::FunctionKind;
use crate::runtime::{AsyncValue, Diagnostic, ErrorCode};

/// A function of a program (cheap to clone: an `Arc` and an index).
#[derive(Clone)]
pub struct Function {
    program: Arc<Program>,
    index: usize,
}

impl std::fmt::Debug for Function {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Function")
            .field("name", &self.name())
            .field("index", &self.index)
            .finish()
    }
}

impl Function {
    /// Function `index` of `program`; `index` must be in range.
    pub fn new(program: Arc<Program>, index: usize) -> Self {
        assert!(
            index < program.functions().len(),
            "function index out of range"
        );
        Function { program, index }
    }

    /// The program the function belongs to.
    pub fn program(&self) -> &Arc<Program> {
        &self.program
    }

    /// The function's position in the FunctionIndex.
    pub fn index(&self) -> usize {
        self.index
    }

    /// Name, kind and signature of the function.
    pub fn info(&self) -> &FunctionInfo {
        &self.program.functions()[self.index]
    }

    /// The function's name.
    pub fn name(&self) -> &str {
        &self.info().name
    }

    /// Whether the executor, the sync interpreter or native code runs it.
    pub fn kind(&self) -> FunctionKind {
        self.info().kind
    }

    /// Number of arguments the function takes.
    pub fn num_arguments(&self) -> usize {
        self.info().argument_types.len()
    }

    /// Number of results the function returns.
    pub fn num_results(&self) -> usize {
        self.info().result_types.len()
    }

    /// Runs the function on `args` and returns its results (unavailable
    /// until computed; errors as error values).
    pub fn execute(&self, ctx: &ExecutionContext, args: &[AsyncValue]) -> Vec<AsyncValue> {
        let mut results = Vec::with_capacity(self.num_results());
        self.execute_into(ctx, args, &mut results);
        results
    }

    /// Like [`execute`](Self::execute), appending the results to `results`.
    pub fn execute_into(
        &self,
        ctx: &ExecutionContext,
        args: &[AsyncValue],
        results: &mut Vec<AsyncValue>,
    ) {
        if args.len() != self.num_arguments() {
            return self.arity_mismatch(args.len(), results);
        }
        let depth_limit = ctx.host().max_call_depth();
        let call = call_depth::nested_call(self.name(), depth_limit, || {
            self.execute_checked(ctx, args, results)
        });
        if let Err(diagnostic) = call {
            self.too_deep(ctx, diagnostic, results);
        }
    }

    // The error paths are out of line so that the frame every nested call
    // puts on the stack stays small (deep recursion pays it per level).

    #[cold]
    #[inline(never)]
    fn arity_mismatch(&self, given: usize, results: &mut Vec<AsyncValue>) {
        let error = AsyncValue::error(
            Diagnostic::new(format!(
                "function '{}' takes {} arguments but was called with {given}",
                self.name(),
                self.num_arguments(),
            ))
            .with_code(ErrorCode::InvalidArgument),
        );
        results.extend(std::iter::repeat_n(error, self.num_results()));
    }

    #[cold]
    #[inline(never)]
    fn too_deep(
        &self,
        ctx: &ExecutionContext,
        diagnostic: Diagnostic,
        results: &mut Vec<AsyncValue>,
    ) {
        // Reported, not only returned: runaway recursion is a bug in the
        // program even when nothing reads the results.
        let error = ctx.emit_error(diagnostic);
        results.extend(std::iter::repeat_n(error, self.num_results()));
    }

    #[cold]
    #[inline(never)]
    fn unreadable(&self, e: impl std::fmt::Display, results: &mut Vec<AsyncValue>) {
        let error = AsyncValue::error(
            Diagnostic::new(format!("could not read function '{}': {e}", self.name()))
                .with_code(ErrorCode::Internal),
        );
        results.extend(std::iter::repeat_n(error, self.num_results()));
    }

    /// [`execute_into`](Self::execute_into) once the call is admitted.
    fn execute_checked(
        &self,
        ctx: &ExecutionContext,
        args: &[AsyncValue],
        results: &mut Vec<AsyncValue>,
    ) {
        match self.kind() {
            FunctionKind::Native => self.execute_native(ctx, args, results),
            kind => match self.program.tables(self.index) {
                Ok(tables) if kind == FunctionKind::Sync => {
                    sync_interpreter::execute(&self.program, tables, ctx, args, results)
                }
                Ok(tables) => executor::execute(&self.program, tables, ctx, args, results),
                Err(e) => self.unreadable(e, results),
            },
        }
    }

    fn execute_native(
        &self,
        ctx: &ExecutionContext,
        args: &[AsyncValue],
        results: &mut Vec<AsyncValue>,
    ) {
        let Some(native) = self.program.native(self.index) else {
            let error = AsyncValue::error(
                Diagnostic::new(format!(
                    "native function '{}' is not registered",
                    self.name()
                ))
                .with_code(ErrorCode::NotFound),
            );
            results.extend(std::iter::repeat_n(error, self.num_results()));
            return;
        };
        let mut slots: Vec<Option<AsyncValue>> = vec![None; self.num_results()];
        match ctx.observer() {
            None => native(ctx, args, &mut slots),
            Some(observer) => {
                // No kernel table: the body is reported as kernel 0, and
                // names itself as the caller of what it runs.
                let execution = ExecutionContext::next_execution_id();
                let (thread, time) = now();
                observer.on_event(&ExecEvent::FunctionBegin {
                    execution,
                    function: self.index,
                    name: self.name(),
                    kind: FunctionKind::Native,
                    caller: ctx.caller(),
                    thread,
                    time,
                });
                observer.on_event(&ExecEvent::KernelStart {
                    execution,
                    kernel: 0,
                    name: self.name(),
                    operands: Operands::default(),
                    thread,
                    time,
                });
                let body_ctx = ctx.called_from(Caller {
                    execution,
                    kernel: 0,
                });
                native(&body_ctx, args, &mut slots);
                let (thread, time) = now();
                observer.on_event(&ExecEvent::KernelEnd {
                    execution,
                    kernel: 0,
                    skipped: false,
                    operands: Operands::default(),
                    thread,
                    time,
                });
                observer.on_event(&ExecEvent::FunctionEnd {
                    execution,
                    thread,
                    time,
                });
            }
        }
        for (i, slot) in slots.into_iter().enumerate() {
            results.push(slot.unwrap_or_else(|| {
                AsyncValue::error(
                    Diagnostic::new(format!(
                        "native function '{}' did not set its result #{i}",
                        self.name()
                    ))
                    .with_code(ErrorCode::Internal),
                )
            }));
        }
    }
}
