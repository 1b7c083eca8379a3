//! `tfrt.parallel_for.i32` (region body) and `tfrt.parallel_call.i32`
//! (function body): split `[start, end)` into blocks of `fixed` size, run
//! the body on each block (`body(block_start, block_end, args...)`) on the
//! work queue and complete the result chain when every block is done.
//!
//! A body with no results is done when its execution returns (all its
//! kernels are synchronous); a body returning one chain is done when that
//! chain is available.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::exec::{Argument, ExecutionContext, Function, KernelRegistry, Out, RemainingArguments};
use crate::runtime::{AsyncValue, AsyncValueRef, Chain, Diagnostic, ErrorCode};

/// Shared by the blocks of one loop.
struct Loop {
    ctx: ExecutionContext,
    body: Function,
    args: Vec<AsyncValue>,
    pending: AtomicUsize,
    done: AsyncValueRef<Chain>,
}

impl Loop {
    fn run_block(self: &Arc<Self>, start: i32, end: i32) {
        let mut args = Vec::with_capacity(self.args.len() + 2);
        args.push(AsyncValue::available(start));
        args.push(AsyncValue::available(end));
        args.extend(self.args.iter().cloned());
        let results = self.body.execute(&self.ctx, &args);
        match results.into_iter().next() {
            Some(chain) => {
                let this = self.clone();
                chain.and_then(move || this.block_done());
            }
            None => self.block_done(),
        }
    }

    fn block_done(&self) {
        if self.pending.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.done.emplace(Chain);
        }
    }
}

crate::kernel! {
    fn parallel_for_i32(
        start: Argument<i32>,
        end: Argument<i32>,
        block_size: Argument<i32>,
        args: RemainingArguments,
        done: Out<Chain>,
        body: Function,
        ctx: &ExecutionContext,
    ) -> Result<(), Diagnostic> {
        let invalid = |m: String| Diagnostic::new(m).with_code(ErrorCode::InvalidArgument);
        if body.num_results() > 1 {
            return Err(invalid("Invalid parallel body function result types".into()));
        }
        if body.num_arguments() != args.len() + 2 {
            return Err(invalid(format!(
                "parallel body '{}' takes {} arguments but is given {} (block start, end and {} values)",
                body.name(),
                body.num_arguments(),
                args.len() + 2,
                args.len()
            )));
        }
        if *block_size <= 0 {
            return Err(invalid(format!("block size must be positive, got {}", *block_size)));
        }
        let (start, end, block) = (i64::from(*start), i64::from(*end), i64::from(*block_size));
        if end <= start {
            done.emplace(Chain);
            return Ok(());
        }
        let blocks: Vec<(i32, i32)> = (0..)
            .map(|i| start + i * block)
            .take_while(|&s| s < end)
            // Both bounds lie within [start, end], so they fit in i32.
            .map(|s| (s as i32, (s + block).min(end) as i32))
            .collect();
        let state = Arc::new(Loop {
            ctx: ctx.clone(),
            body,
            args: args.to_vec(),
            pending: AtomicUsize::new(blocks.len()),
            done: done.allocate(),
        });
        // The first block runs on this thread, the others on the queue.
        for &(s, e) in &blocks[1..] {
            let state = state.clone();
            ctx.enqueue_work(move || state.run_block(s, e));
        }
        state.run_block(blocks[0].0, blocks[0].1);
        Ok(())
    }
}

pub(super) fn register(registry: &mut KernelRegistry) {
    registry.add_kernel("tfrt.parallel_for.i32", parallel_for_i32);
    registry.add_kernel("tfrt.parallel_call.i32", parallel_for_i32);
}
