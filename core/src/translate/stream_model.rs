//! A direct model of the reference's stream analysis (`StreamAnalysis`
//! in `lib/compiler/stream_analysis.cc`), written for clarity rather than
//! speed (quadratic on long chains). Tests check the linear analysis and
//! the executor's dispatch order against it.

use super::streams::{StreamOp, StreamOptions, Streams};

/// Node index: 0 is the root, op `i` is `i + 1`.
type Node = usize;
const ROOT: Node = 0;

#[derive(Default, Clone)]
struct OpInfo {
    cost: i64,
    is_return: bool,
    stream: Option<usize>,
    scheduled_users: Vec<Node>,
    /// Data users not on the scheduling path, in insertion order.
    side_uses: Vec<Node>,
}

#[derive(Default, Clone)]
struct StreamInfo {
    cost: i64,
    parent: Option<Node>,
    merged_into: Option<usize>,
    /// An ordered set (the reference uses a SetVector).
    side_deps: Vec<usize>,
    contains_return_op: bool,
}

struct Analysis {
    options: StreamOptions,
    ops: Vec<OpInfo>,
    streams: Vec<StreamInfo>,
}

/// The stream ids of the root and of every op of `block`.
pub fn analyze(block: &[StreamOp<'_>], options: StreamOptions) -> Streams {
    let mut analysis = Analysis {
        options,
        ops: vec![OpInfo::default(); block.len() + 1],
        streams: Vec::new(),
    };
    analysis.forward(block);
    for node in (1..=block.len()).rev() {
        analysis.build_stream(node);
    }
    analysis.build_stream(ROOT);
    let root = analysis.resolve(ROOT) as u64;
    let ops = (1..=block.len())
        .map(|n| analysis.resolve(n) as u64)
        .collect();
    Streams { root, ops }
}

fn insert_unique<T: PartialEq>(set: &mut Vec<T>, value: T) {
    if !set.contains(&value) {
        set.push(value);
    }
}

impl Analysis {
    fn forward(&mut self, block: &[StreamOp<'_>]) {
        self.ops[ROOT].cost = 1;
        let mut cost_from_root = vec![0i64; block.len() + 1];
        cost_from_root[ROOT] = 1;
        for (i, op) in block.iter().enumerate() {
            let node = i + 1;
            self.ops[node].cost = op.cost;
            self.ops[node].is_return = op.is_return;
            let mut total = op.cost;
            if op.operands.is_empty() {
                self.ops[ROOT].scheduled_users.push(node);
            } else {
                let mut parent = ROOT;
                let mut parent_cost = 0;
                for (&producer, &is_chain) in op.operands.iter().zip(op.operand_is_chain) {
                    let def = producer.map_or(ROOT, |p| p + 1);
                    if !is_chain {
                        insert_unique(&mut self.ops[def].side_uses, node);
                    }
                    if cost_from_root[def] > parent_cost {
                        parent = def;
                        parent_cost = cost_from_root[def];
                    }
                }
                self.ops[parent].side_uses.retain(|&u| u != node);
                self.ops[parent].scheduled_users.push(node);
                total = total.saturating_add(parent_cost);
            }
            cost_from_root[node] = total;
        }
    }

    fn latest(&self, mut stream: usize) -> usize {
        while let Some(next) = self.streams[stream].merged_into {
            stream = next;
        }
        stream
    }

    /// The final stream of `node`, compressing the merge chain on the way.
    fn resolve(&mut self, node: Node) -> usize {
        let start = self.ops[node]
            .stream
            .expect("streams are built before they are resolved");
        let last = self.latest(start);
        let mut stream = start;
        while let Some(next) = self.streams[stream].merged_into {
            self.streams[stream].merged_into = Some(last);
            stream = next;
        }
        self.ops[node].stream = Some(last);
        last
    }

    fn merge(&mut self, from: usize, to: usize) {
        let deps = std::mem::take(&mut self.streams[from].side_deps);
        for dep in deps.iter().copied() {
            let dep = self.latest(dep);
            if dep != to {
                insert_unique(&mut self.streams[to].side_deps, dep);
            }
        }
        self.streams[from].side_deps = deps;
        self.streams[to].side_deps.retain(|&d| d != from);
        self.streams[to].cost = self.streams[to]
            .cost
            .saturating_add(self.streams[from].cost);
        if self.streams[from].contains_return_op {
            self.streams[to].contains_return_op = true;
        }
        self.streams[from].merged_into = Some(to);
    }

    fn assign(&mut self, node: Node, stream: usize) {
        self.ops[node].stream = Some(stream);
        self.streams[stream].cost = self.streams[stream]
            .cost
            .saturating_add(self.ops[node].cost);
        if self.ops[node].is_return {
            self.streams[stream].contains_return_op = true;
        }
        let users = self.ops[node].side_uses.clone();
        for user in users {
            let id = self.resolve(user);
            if id != stream {
                insert_unique(&mut self.streams[stream].side_deps, id);
                insert_unique(&mut self.streams[id].side_deps, stream);
            }
        }
    }

    fn new_stream(&mut self, node: Node) {
        self.streams.push(StreamInfo::default());
        let id = self.streams.len() - 1;
        self.assign(node, id);
    }

    fn merge_inter_dependent(&mut self, children: &mut Vec<usize>) {
        let threshold = self.options.cost_threshold;
        let candidates: Vec<usize> = children.clone();
        let mut stale: Vec<usize> = Vec::new();
        for &child in &candidates {
            if stale.contains(&child) {
                continue;
            }
            let mut to_merge: Vec<usize> = Vec::new();
            for dep in self.streams[child].side_deps.clone() {
                if candidates.contains(&dep) {
                    let dep = self.latest(dep);
                    if self.streams[dep].cost >= threshold {
                        continue;
                    }
                    insert_unique(&mut to_merge, dep);
                }
            }
            for stream in to_merge {
                self.merge(stream, child);
                stale.push(stream);
                if self.streams[child].cost >= threshold {
                    break;
                }
            }
        }
        children.retain(|id| !stale.contains(id));
    }

    fn build_stream(&mut self, node: Node) {
        if self.ops[node].scheduled_users.is_empty() {
            self.new_stream(node);
            return;
        }
        let threshold = self.options.cost_threshold;
        let upper = self.options.upper_cost_threshold;
        let mut children = Vec::with_capacity(self.ops[node].scheduled_users.len());
        for i in 0..self.ops[node].scheduled_users.len() {
            let child = self.ops[node].scheduled_users[i];
            let stream = self.ops[child]
                .stream
                .expect("users come later in the block and are built first");
            self.streams[stream].parent = Some(node);
            children.push(stream);
        }
        if self.options.merge_inter_dependent_streams && children.len() > 1 {
            self.merge_inter_dependent(&mut children);
        }

        let mut max_cost = 0;
        let mut max_stream: Option<usize> = None;
        let mut consider = |cost: i64, stream: usize, max_cost: &mut i64| {
            if (upper < 0 || cost < upper) && *max_cost < cost {
                *max_cost = cost;
                max_stream = Some(stream);
            }
        };
        let mut merged: Vec<usize> = Vec::new();
        for child in children.iter().copied() {
            let cost = self.streams[child].cost;
            if cost >= threshold {
                consider(cost, child, &mut max_cost);
                continue;
            }
            match merged.last() {
                Some(&last) if self.streams[last].cost < threshold => self.merge(child, last),
                _ => merged.push(child),
            }
            let last = *merged.last().expect("just pushed or present");
            consider(self.streams[last].cost, last, &mut max_cost);
        }
        // The child stream holding the return op, wherever the
        // merges above put it, wins over the most expensive one.
        let return_stream = children
            .iter()
            .map(|&child| self.latest(child))
            .find(|&stream| self.streams[stream].contains_return_op);

        match return_stream.or(max_stream) {
            None => self.new_stream(node),
            Some(stream) => {
                self.streams[stream].parent = None;
                self.assign(node, stream);
                if let Some(&cheap) = merged.last()
                    && self.streams[cheap].cost < threshold
                    && cheap != stream
                {
                    let current = self.ops[node].stream.expect("just assigned");
                    self.merge(cheap, current);
                }
            }
        }
    }
}
