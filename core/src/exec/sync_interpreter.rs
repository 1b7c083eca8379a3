//! The sync interpreter: runs a `tfrt.sync` function's kernels one after
//! the other in table order on the calling thread. Every kernel must
//! produce available values; an error argument skips the kernel (its
//! results become that error), as in the asynchronous executor.

use std::cell::Cell;
use std::sync::Arc;

use super::context::ExecutionContext;
use super::frame::KernelFrame;
use super::program::Program;
use super::tables::FunctionTables;
use crate::runtime::{AsyncValue, Diagnostic, ErrorCode};

pub(crate) fn execute(
    program: &Arc<Program>,
    tables: &Arc<FunctionTables>,
    ctx: &ExecutionContext,
    args: &[AsyncValue],
    results: &mut Vec<AsyncValue>,
) {
    let mut registers: Vec<Option<AsyncValue>> = vec![None; tables.num_registers()];
    let pseudo = tables.record(0);
    for (register, arg) in pseudo.results()[1..].iter().zip(args) {
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
        let cancelled = ctx.host().cancel_value();
        let error = cancelled
            .as_ref()
            .or_else(|| kernel_args.iter().find(|a| a.is_error()));
        match error {
            Some(e) => kernel_results
                .iter()
                .for_each(|slot| slot.set(Some(e.clone()))),
            None => {
                let frame = KernelFrame {
                    args: &kernel_args,
                    results: &kernel_results,
                    attributes: record.attributes(),
                    functions: record.functions(),
                    program,
                    ctx,
                    code: record.code(),
                    location: record.location(),
                };
                (program.kernel_impl(record.code()).func)(&frame);
            }
        }
        for (n, &register) in record.results().iter().enumerate() {
            let value = match kernel_results[n].take() {
                Some(v) if v.is_available() => v,
                Some(_) => unavailable(program, ctx, record.code(), record.location()),
                None => missing(program, ctx, record.code(), record.location(), n),
            };
            registers[register as usize] = Some(value);
        }
    }
    for &register in tables.results.iter() {
        results.push(registers[register as usize].take().expect("validated"));
    }
}

#[cold]
fn unavailable(program: &Program, ctx: &ExecutionContext, code: u32, location: u32) -> AsyncValue {
    let mut diag = Diagnostic::new(format!(
        "kernel '{}' returned an unavailable value in a sync function",
        program.kernel_names()[code as usize]
    ))
    .with_code(ErrorCode::FailedPrecondition);
    diag.location = program.location(location);
    ctx.emit_error(diag)
}

#[cold]
fn missing(
    program: &Program,
    ctx: &ExecutionContext,
    code: u32,
    location: u32,
    n: usize,
) -> AsyncValue {
    let mut diag = Diagnostic::new(format!(
        "kernel '{}' did not set its result #{n}",
        program.kernel_names()[code as usize]
    ))
    .with_code(ErrorCode::Internal);
    diag.location = program.location(location);
    ctx.emit_error(diag)
}
