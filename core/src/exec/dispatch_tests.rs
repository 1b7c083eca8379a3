//! The executor's dispatch order under the single-threaded queue, against
//! the reference's rules applied by hand and by a model:
//!
//! 1. streams from the model of the reference's stream analysis
//!    (`translate::stream_model`), in which the root joins the stream that
//!    holds the return op;
//! 2. the reference executor's ready lists: a kernel's users are visited in
//!    used-by order (MLIR's use-list order, newest use first; the pseudo
//!    kernel's first result in block order); a ready kernel of the current
//!    stream goes inline, any other outline; with nothing inline, the
//!    stream of the first outline kernel is adopted and its kernels move
//!    inline (C++ `std::partition`); the other outline kernels are enqueued
//!    by stream id, one task per stream, before the next inline kernel,
//!    and inline kernels run last-in, first-out;
//! 3. the single-threaded queue: tasks only queue, and run first-in,
//!    first-out once the caller awaits or quiesces.
//!
//! The executor's order is what an observer sees (`KernelStart`).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use super::{ExecEvent, ExecutionContext, Function, KernelRegistry, Observer, Program};
use crate::format::BefBuffer;
use crate::runtime::{AsyncValue, HostContext};
use crate::translate::{StreamOp, StreamOptions, TranslateOptions, mlir_to_bef, stream_model};

/// Records the kernels an execution starts, in order.
#[derive(Default)]
struct Starts(Mutex<Vec<usize>>);

impl Observer for Starts {
    fn on_event(&self, event: &ExecEvent<'_>) {
        if let ExecEvent::KernelStart { kernel, .. } = event {
            self.0.lock().unwrap().push(*kernel as usize);
        }
    }
}

/// Runs `@f` of `source` with `args` on the single-threaded queue; the
/// kernels in the order they started.
fn observed_order(source: &str, args: &[i32]) -> Vec<usize> {
    // Other tests count the process's live values.
    let _serial = super::tests::LEAK_CHECK
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let module = crate::text::parse_module(source, "order.mlir").expect("parses");
    let bytes = mlir_to_bef(
        &module,
        TranslateOptions {
            optional_sections: false,
        },
    )
    .expect("translates");
    let mut registry = KernelRegistry::new();
    crate::kernels::register_all(&mut registry);
    let program = Program::load(BefBuffer::copy_from(&bytes), "order.bef", &registry).unwrap();
    let starts = Arc::new(Starts::default());
    let host = HostContext::with_work_queue_name("s").unwrap();
    let ctx = ExecutionContext::new(Arc::new(host)).with_observer(starts.clone());
    let f = Function::new(program.clone(), program.function_named("f").unwrap());
    let args: Vec<AsyncValue> = args.iter().map(|&a| AsyncValue::available(a)).collect();
    let results = f.execute(&ctx, &args);
    ctx.host().await_values(&results);
    ctx.host().quiesce();
    assert!(results.iter().all(|r| r.get::<i32>().is_ok()), "{source}");
    starts.0.lock().unwrap().clone()
}

#[test]
fn the_lifetimes_linear_block_runs_in_the_reference_order() {
    // TFRT's lifetimes.mlir test_linear with integers: kernel 1 stands
    // for tfrt.new.chain, 4 for vt.add and 5 for vt.print. The return is
    // the root's stream 0 and nothing is inline at entry, so kernel 1's
    // stream is adopted and 7, 6, 2, 3 are enqueued in stream order (1, 2,
    // 3, 4); kernel 1 runs, then the queue runs the tasks, and 3 makes 4
    // ready, whose stream is adopted in turn.
    let source = r#"func.func @f() {
  %ch = tfrt.constant.i32 0
  %v1 = tfrt.constant.i32 1
  %v2 = tfrt.constant.i32 2
  %r = tfrt.add.i32 %v1, %v2
  %p = tfrt.add.i32 %r, %ch
  %v4 = tfrt.constant.i32 4
  %v5 = tfrt.constant.i32 5
  tfrt.return
}
"#;
    assert_eq!(observed_order(source, &[]), [1, 7, 6, 2, 3, 4, 5]);
}

#[test]
fn an_adopted_stream_runs_in_the_order_partition_leaves_it() {
    // Four constants under threshold 2: the first and third cost 2 and
    // get a stream each, the cheap second and fourth share one. The
    // return stays apart (that shared stream already costs 2), so the
    // root's stream holds no constant and at entry all four are outline,
    // in block order. Kernel 1's stream is adopted: partition swaps 1 with
    // 4, leaving 4, 2, 3 outline, enqueued by stream as [3] and [4, 2].
    // That task runs 2 before 4, where a stable split would run 4 first.
    let block = Block {
        args: 0,
        ops: vec![(vec![], 2), (vec![], 1), (vec![], 2), (vec![], 1)],
        returned: Vec::new(),
        threshold: 2,
        merge_inter_dependent: false,
    };
    let streams = block.streams();
    assert_eq!(streams[2], streams[4]);
    assert!(streams[3] < streams[2] && !streams[1..].contains(&streams[0]));
    assert_eq!(block.reference_order(), [1, 3, 2, 4]);
    assert_eq!(observed_order(&block.source(), &[]), [1, 3, 2, 4]);
}

/// A value of a random block: argument `i` or the result of op `i`.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Value {
    Arg(usize),
    Op(usize),
}

/// A random block: constants and sums, the costs the stream analysis
/// reads, and the values returned.
#[derive(Debug)]
struct Block {
    args: usize,
    /// Per op: its operands (none: a constant; two: a sum) and its cost.
    ops: Vec<(Vec<Value>, i64)>,
    returned: Vec<Value>,
    threshold: i64,
    merge_inter_dependent: bool,
}

impl Block {
    fn random(next: &mut impl FnMut(u64) -> u64) -> Block {
        let args = next(3) as usize;
        let n = next(10) as usize + 1;
        let mut ops: Vec<(Vec<Value>, i64)> = Vec::with_capacity(n);
        let pick = |i: usize, next: &mut dyn FnMut(u64) -> u64| {
            let choices = (args + i) as u64;
            let back = next(choices.min(4)) as usize;
            let k = args + i - 1 - back;
            if k < args {
                Value::Arg(k)
            } else {
                Value::Op(k - args)
            }
        };
        for i in 0..n {
            let operands = if args + i == 0 || next(3) == 0 {
                Vec::new()
            } else {
                vec![pick(i, &mut *next), pick(i, &mut *next)]
            };
            ops.push((operands, next(8) as i64 + 1));
        }
        let returned = (0..next(3)).map(|_| pick(n, &mut *next)).collect();
        Block {
            args,
            ops,
            returned,
            threshold: next(6) as i64 + 1,
            merge_inter_dependent: next(2) == 0,
        }
    }

    fn source(&self) -> String {
        let name = |v: &Value| match v {
            Value::Arg(i) => format!("%a{i}"),
            Value::Op(i) => format!("%v{i}"),
        };
        let params: Vec<String> = (0..self.args).map(|i| format!("%a{i}: i32")).collect();
        let results = vec!["i32"; self.returned.len()].join(", ");
        let mut s = format!(
            "module attributes {{tfrt.cost_threshold = {} : i64}} {{\n\
             func.func @f({}) -> ({results}) attributes \
             {{tfrt.merge_inter_dependent_streams = {}}} {{\n",
            self.threshold,
            params.join(", "),
            self.merge_inter_dependent
        );
        for (i, (operands, cost)) in self.ops.iter().enumerate() {
            if operands.is_empty() {
                s.push_str(&format!(
                    "  %v{i} = \"tfrt.constant.i32\"() {{value = {i} : i32, _tfrt_cost = {cost} : i64}} : () -> i32\n"
                ));
            } else {
                s.push_str(&format!(
                    "  %v{i} = \"tfrt.add.i32\"({}, {}) {{_tfrt_cost = {cost} : i64}} : (i32, i32) -> i32\n",
                    name(&operands[0]),
                    name(&operands[1])
                ));
            }
        }
        if self.returned.is_empty() {
            s.push_str("  tfrt.return\n");
        } else {
            let values: Vec<String> = self.returned.iter().map(name).collect();
            s.push_str(&format!(
                "  tfrt.return {} : {results}\n",
                values.join(", ")
            ));
        }
        s.push_str("}\n}\n");
        s
    }

    /// The reference's stream of each kernel (0: the pseudo kernel).
    fn streams(&self) -> Vec<u64> {
        let producer = |v: &Value| match v {
            Value::Arg(_) => None,
            Value::Op(i) => Some(*i),
        };
        let operands: Vec<Vec<Option<usize>>> = self
            .ops
            .iter()
            .map(|(ops, _)| ops.iter().map(producer).collect())
            .chain(std::iter::once(
                self.returned.iter().map(producer).collect(),
            ))
            .collect();
        let chains: Vec<Vec<bool>> = operands.iter().map(|o| vec![false; o.len()]).collect();
        let mut block: Vec<StreamOp> = Vec::with_capacity(operands.len());
        for (i, (operands, chains)) in operands.iter().zip(&chains).enumerate() {
            let is_return = i == self.ops.len();
            block.push(StreamOp {
                operands,
                operand_is_chain: chains,
                cost: if is_return { 1 } else { self.ops[i].1 },
                is_return,
            });
        }
        let options = StreamOptions {
            cost_threshold: self.threshold,
            upper_cost_threshold: -1,
            merge_inter_dependent_streams: self.merge_inter_dependent,
        };
        let streams = stream_model::analyze(&block, options);
        std::iter::once(streams.root)
            .chain(streams.ops[..self.ops.len()].iter().copied())
            .collect()
    }

    /// The users of each result of each kernel, in used-by order: result 0
    /// of the pseudo kernel starts the constants (block order), its result
    /// `1 + i` is argument `i`; a value's users are listed newest use
    /// first, never the return.
    fn users(&self) -> Vec<Vec<Vec<usize>>> {
        let users_of = |value: Value| -> Vec<usize> {
            let mut users = Vec::new();
            for (i, (operands, _)) in self.ops.iter().enumerate().rev() {
                for operand in operands.iter().rev() {
                    if *operand == value {
                        users.push(i + 1);
                    }
                }
            }
            users
        };
        let constants = (0..self.ops.len())
            .filter(|&i| self.ops[i].0.is_empty())
            .map(|i| i + 1)
            .collect();
        let pseudo = std::iter::once(constants)
            .chain((0..self.args).map(|a| users_of(Value::Arg(a))))
            .collect();
        std::iter::once(pseudo)
            .chain((0..self.ops.len()).map(|i| vec![users_of(Value::Op(i))]))
            .collect()
    }

    /// The kernels in the order the reference runs them.
    fn reference_order(&self) -> Vec<usize> {
        let mut executor = ReferenceExecutor {
            streams: self.streams(),
            users: self.users(),
            // Operands still to come; one for a kernel without operands.
            ready: std::iter::once(0)
                .chain(self.ops.iter().map(|(operands, _)| operands.len().max(1)))
                .collect(),
            tasks: VecDeque::new(),
            order: Vec::new(),
        };
        executor.run();
        executor.order
    }
}

/// The reference executor's ready lists (`ReadyKernelQueue`).
struct ReadyKernelQueue {
    stream: u64,
    inline: Vec<usize>,
    outline: Vec<usize>,
}

/// The reference executor over one execution, with a single-threaded
/// queue of tasks (each a stream and its kernels).
struct ReferenceExecutor {
    streams: Vec<u64>,
    users: Vec<Vec<Vec<usize>>>,
    ready: Vec<usize>,
    tasks: VecDeque<(u64, Vec<usize>)>,
    order: Vec<usize>,
}

impl ReferenceExecutor {
    fn run(&mut self) {
        let mut queue = ReadyKernelQueue {
            stream: self.streams[0],
            inline: Vec::new(),
            outline: Vec::new(),
        };
        for result in 0..self.users[0].len() {
            let users = self.users[0][result].clone();
            self.decrement_ready_count_and_enqueue(&mut queue, &users);
        }
        self.process_ready_kernels(queue);
        // `Await` and `Quiesce`: the queued tasks, first in, first out.
        while let Some((stream, inline)) = self.tasks.pop_front() {
            self.process_ready_kernels(ReadyKernelQueue {
                stream,
                inline,
                outline: Vec::new(),
            });
        }
    }

    fn decrement_ready_count_and_enqueue(&mut self, queue: &mut ReadyKernelQueue, users: &[usize]) {
        for &kernel in users {
            self.ready[kernel] -= 1;
            if self.ready[kernel] == 0 {
                if self.streams[kernel] == queue.stream {
                    queue.inline.push(kernel);
                } else {
                    queue.outline.push(kernel);
                }
            }
        }
    }

    fn switch_stream_id(&self, queue: &mut ReadyKernelQueue) {
        let Some(&first) = queue.outline.first() else {
            return;
        };
        queue.stream = self.streams[first];
        let stream = queue.stream;
        let begin = std_partition(&mut queue.outline, |k| self.streams[k] != stream);
        queue.inline = queue.outline.split_off(begin);
    }

    /// `std::sort` by stream (an insertion sort, so stable, for the 16 or
    /// fewer kernels of these blocks), then one task per stream.
    fn enqueue_ready_kernels(&mut self, kernels: &mut Vec<usize>) {
        kernels.sort_by_key(|&k| self.streams[k]);
        for group in kernels.chunk_by(|&a, &b| self.streams[a] == self.streams[b]) {
            self.tasks
                .push_back((self.streams[group[0]], group.to_vec()));
        }
        kernels.clear();
    }

    fn process_ready_kernels(&mut self, mut queue: ReadyKernelQueue) {
        if queue.inline.is_empty() {
            self.switch_stream_id(&mut queue);
        }
        if !queue.outline.is_empty() {
            self.enqueue_ready_kernels(&mut queue.outline);
        }
        while let Some(kernel) = queue.inline.pop() {
            self.order.push(kernel);
            let users = self.users[kernel][0].clone();
            self.decrement_ready_count_and_enqueue(&mut queue, &users);
            if queue.inline.is_empty() {
                self.switch_stream_id(&mut queue);
            }
            if !queue.outline.is_empty() {
                self.enqueue_ready_kernels(&mut queue.outline);
            }
        }
    }
}

/// libstdc++'s `std::partition` for bidirectional iterators, line by line.
fn std_partition(v: &mut [usize], pred: impl Fn(usize) -> bool) -> usize {
    let (mut first, mut last) = (0, v.len());
    loop {
        loop {
            if first == last {
                return first;
            } else if pred(v[first]) {
                first += 1;
            } else {
                break;
            }
        }
        last -= 1;
        loop {
            if first == last {
                return first;
            } else if !pred(v[last]) {
                last -= 1;
            } else {
                break;
            }
        }
        v.swap(first, last);
        first += 1;
    }
}

#[test]
fn random_blocks_run_in_the_reference_order() {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = |bound: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % bound
    };
    let mut reordered = 0;
    for _ in 0..400 {
        let block = Block::random(&mut next);
        let source = block.source();
        let args: Vec<i32> = (0..block.args as i32).collect();
        let expected = block.reference_order();
        assert_eq!(observed_order(&source, &args), expected, "{source}");
        if expected.windows(2).any(|w| w[0] > w[1]) {
            reordered += 1;
        }
    }
    // Most blocks do not run in block order, so the order is really tested.
    assert!(
        reordered > 200,
        "only {reordered} blocks ran out of block order"
    );
}
