//! `tfrt.parallel_for.i32` (region body) and `tfrt.parallel_call.i32`
//! (function body): split `[start, end)` into blocks of `fixed` size, run
//! the body on each block (`body(block_start, block_end, args...)`) on the
//! work queue and complete the result chain when every block is done.
//!
//! A body with no results is done when its execution returns (all its
//! kernels are synchronous); a body returning one chain is done when that
//! chain is available.
//!
//! A loop splits into at most [`MAX_PARALLEL_BLOCKS`] blocks (more is an
//! error value). Blocks are not queued all at once: at most
//! [`MAX_BLOCKS_QUEUED`] tasks are, each running the next block not yet
//! started and then queuing itself again, so memory does not grow with
//! the number of blocks.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use crate::exec::{Argument, ExecutionContext, Function, KernelRegistry, Out, RemainingArguments};
use crate::runtime::{AsyncValue, AsyncValueRef, Chain, Diagnostic, ErrorCode};

/// Most blocks one loop may split its range into.
pub const MAX_PARALLEL_BLOCKS: u64 = 1 << 20;

/// Most tasks one loop has on the work queue at a time.
pub const MAX_BLOCKS_QUEUED: u64 = 64;

/// Shared by the blocks of one loop.
struct Loop {
    ctx: ExecutionContext,
    body: Function,
    args: Vec<AsyncValue>,
    /// Blocks not yet done.
    pending: AtomicUsize,
    done: AsyncValueRef<Chain>,
    /// The range and block size.
    start: i64,
    end: i64,
    block: i64,
    /// Number of blocks.
    count: u64,
    /// The next block to start.
    next: AtomicU64,
}

impl Loop {
    /// Block `index`'s bounds; both lie within [start, end], so they fit
    /// in i32.
    fn bounds(&self, index: u64) -> (i32, i32) {
        let s = self.start + index as i64 * self.block;
        (s as i32, (s + self.block).min(self.end) as i32)
    }

    /// A queued task: runs the next block not yet started, then queues
    /// itself again while blocks remain.
    fn run_next(self: Arc<Self>) {
        let index = self.next.fetch_add(1, Ordering::Relaxed);
        if index >= self.count {
            return;
        }
        let (s, e) = self.bounds(index);
        self.run_block(s, e);
        if index + 1 < self.count {
            let ctx = self.ctx.clone();
            ctx.enqueue_work(move || self.run_next());
        }
    }

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
        // At most 2^32 - 1 blocks: no overflow.
        let count = ((end - start + block - 1) / block) as u64;
        if count > MAX_PARALLEL_BLOCKS {
            return Err(Diagnostic::new(format!(
                "[{start}, {end}) in blocks of {block} makes {count} blocks, \
                 more than the {MAX_PARALLEL_BLOCKS} one parallel loop may have"
            ))
            .with_code(ErrorCode::ResourceExhausted));
        }
        let state = Arc::new(Loop {
            ctx: ctx.clone(),
            body,
            args: args.to_vec(),
            pending: AtomicUsize::new(count as usize),
            done: done.allocate(),
            start,
            end,
            block,
            count,
            next: AtomicU64::new(1),
        });
        // The first block runs on this thread, the others on the queue.
        for _ in 1..count.min(MAX_BLOCKS_QUEUED + 1) {
            let state = state.clone();
            ctx.enqueue_work(move || state.run_next());
        }
        let (s, e) = state.bounds(0);
        state.run_block(s, e);
        Ok(())
    }
}

pub(super) fn register(registry: &mut KernelRegistry) {
    registry.add_kernel("tfrt.parallel_for.i32", parallel_for_i32);
    registry.add_kernel("tfrt.parallel_call.i32", parallel_for_i32);
}
