//! The sync interpreter: runs a `tfrt.sync` function's kernels one after
//! the other in table order on the calling thread. Every kernel must
//! produce available values; an error argument skips the kernel (its
//! results become that error), as in the asynchronous executor.
//!
//! With an observer attached it reports the function's begin and end, each
//! kernel's start and end and every register it writes (arguments first,
//! as results of kernel 0); kernels run in table order, so there is no
//! `KernelReady`.

use std::cell::Cell;
use std::sync::Arc;

use super::context::ExecutionContext;
use super::frame::KernelFrame;
use super::observer::{Caller, ExecEvent, ExecutionId, Operands, now};
use super::program::Program;
use super::tables::FunctionTables;
use crate::format::FunctionKind;
use crate::runtime::{AsyncValue, ErrorCode};

pub(crate) fn execute(
    program: &Arc<Program>,
    tables: &Arc<FunctionTables>,
    ctx: &ExecutionContext,
    args: &[AsyncValue],
    results: &mut Vec<AsyncValue>,
) {
    let Some(observer) = ctx.observer() else {
        return interpret::<false>(program, tables, ctx, args, results, 0);
    };
    let id = ExecutionContext::next_execution_id();
    let (thread, time) = now();
    observer.on_event(&ExecEvent::FunctionBegin {
        execution: id,
        function: tables.index,
        name: &tables.name,
        kind: FunctionKind::Sync,
        caller: ctx.caller(),
        thread,
        time,
    });
    interpret::<true>(program, tables, ctx, args, results, id);
    let (thread, time) = now();
    observer.on_event(&ExecEvent::FunctionEnd {
        execution: id,
        thread,
        time,
    });
}

/// Reports the event `event` makes to the context's observer (`OBSERVED`
/// executions only: the others skip the call at compile time).
#[inline(always)]
fn emit<'e, const OBSERVED: bool>(ctx: &ExecutionContext, event: impl FnOnce() -> ExecEvent<'e>) {
    if OBSERVED && let Some(observer) = ctx.observer() {
        observer.on_event(&event());
    }
}

/// Reports that `value` was written into `register` by kernel `producer`.
#[inline(always)]
fn register_set<const OBSERVED: bool>(
    ctx: &ExecutionContext,
    execution: ExecutionId,
    register: u32,
    producer: u32,
    value: &AsyncValue,
) {
    emit::<OBSERVED>(ctx, || {
        let (thread, time) = now();
        ExecEvent::RegisterSet {
            execution,
            register,
            producer,
            state: value.state(),
            value,
            thread,
            time,
        }
    });
}

/// Runs the function; `execution` is its id when `OBSERVED`.
fn interpret<const OBSERVED: bool>(
    program: &Arc<Program>,
    tables: &Arc<FunctionTables>,
    ctx: &ExecutionContext,
    args: &[AsyncValue],
    results: &mut Vec<AsyncValue>,
    execution: ExecutionId,
) {
    let mut registers: Vec<Option<AsyncValue>> = vec![None; tables.num_registers()];
    let pseudo = tables.record(0);
    for (register, arg) in pseudo.results()[1..].iter().zip(args) {
        register_set::<OBSERVED>(ctx, execution, *register, 0, arg);
        registers[*register as usize] = Some(arg.clone());
    }
    let mut kernel_args = Vec::new();
    let mut kernel_results: Vec<Cell<Option<AsyncValue>>> = Vec::new();
    for id in 1..tables.kernels.len() {
        let record = tables.record(id);
        kernel_args.clear();
        // Validation guarantees every argument register was written by an
        // earlier kernel.
        kernel_args.extend(
            record
                .arguments()
                .iter()
                .map(|&r| registers[r as usize].clone().expect("validated")),
        );
        kernel_results.clear();
        kernel_results.resize_with(record.num_results(), || Cell::new(None));
        emit::<OBSERVED>(ctx, || {
            let (thread, time) = now();
            ExecEvent::KernelStart {
                execution,
                kernel: id as u32,
                name: program.kernel_names()[record.code() as usize].as_str(),
                operands: Operands {
                    registers: record.arguments(),
                    values: &kernel_args,
                },
                thread,
                time,
            }
        });
        let cancelled = ctx.host().cancel_value();
        let error = cancelled
            .as_ref()
            .or_else(|| kernel_args.iter().find(|a| a.is_error()));
        match error {
            Some(e) => kernel_results
                .iter()
                .for_each(|slot| slot.set(Some(e.clone()))),
            None if OBSERVED => {
                // The kernel names itself as the caller of what it runs.
                let kernel_ctx = ctx.called_from(Caller {
                    execution,
                    kernel: id as u32,
                });
                let frame = KernelFrame::new(
                    &kernel_args,
                    &kernel_results,
                    program,
                    &kernel_ctx,
                    tables,
                    &tables.kernels[id],
                );
                tables.kernels[id].invoke(&frame);
            }
            None => {
                let frame = KernelFrame::new(
                    &kernel_args,
                    &kernel_results,
                    program,
                    ctx,
                    tables,
                    &tables.kernels[id],
                );
                tables.kernels[id].invoke(&frame);
            }
        }
        emit::<OBSERVED>(ctx, || {
            let (thread, time) = now();
            ExecEvent::KernelEnd {
                execution,
                kernel: id as u32,
                skipped: error.is_some(),
                operands: Operands {
                    registers: record.arguments(),
                    values: &kernel_args,
                },
                thread,
                time,
            }
        });
        for (n, &register) in record.results().iter().enumerate() {
            let value = match kernel_results[n].take() {
                Some(v) if v.is_available() => v,
                other => {
                    let (message, code) = match other {
                        Some(_) => (
                            "returned an unavailable value in a sync function".to_string(),
                            ErrorCode::FailedPrecondition,
                        ),
                        None => (format!("did not set its result #{n}"), ErrorCode::Internal),
                    };
                    ctx.emit_error(program.kernel_diagnostic(
                        record.code(),
                        record.location(),
                        &message,
                        code,
                    ))
                }
            };
            register_set::<OBSERVED>(ctx, execution, register, id as u32, &value);
            registers[register as usize] = Some(value);
        }
    }
    for &register in tables.results.iter() {
        results.push(registers[register as usize].take().expect("validated"));
    }
}
