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
use crate::runtime::{AsyncValue, ErrorCode};

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
            registers[register as usize] = Some(value);
        }
    }
    for &register in tables.results.iter() {
        results.push(registers[register as usize].take().expect("validated"));
    }
}
