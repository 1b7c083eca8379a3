//! Stream analysis: which kernels of a function run one after the other on
//! the same thread. It follows the reference `compiler::StreamAnalysis`
//! step by step, because its stream ids are written into BEF files and must
//! come out the same.
//!
//! Forward pass: every op picks as its parent the operand producer with the
//! largest accumulated cost from the function entry (the root; arguments
//! count as produced by the root). Backward pass, in reverse op order: an op
//! with no scheduled users starts a stream; otherwise its cheap child
//! streams (below the cost threshold) are merged together, and the op joins
//! the most expensive child stream.
//!
//! Linear in the block apart from merges: per-node lists live in flat
//! arrays and set membership is hashed, so long dependency chains and
//! values with many users cost no more than short ones.

use rustc_hash::FxHashSet;

/// One op of the block, as the analysis sees it.
/// Borrows its operand lists, so that a caller can lay out the operands
/// of a whole block in two arrays.
pub struct StreamOp<'a> {
    /// Producer of each operand: `None` for a block argument (the root),
    /// else the index of the producing op in the block.
    pub operands: &'a [Option<usize>],
    /// Whether each operand is a `!tfrt.chain` (control, not data).
    pub operand_is_chain: &'a [bool],
    /// The op's cost; streams cheaper than `StreamOptions::cost_threshold`
    /// are merged.
    pub cost: i64,
}

/// The knobs of the analysis, read from a function's `tfrt.*` attributes.
#[derive(Debug, Clone, Copy)]
pub struct StreamOptions {
    /// Never below 1.
    pub cost_threshold: i64,
    /// Negative: no upper limit.
    pub upper_cost_threshold: i64,
    /// Also merge cheap child streams that depend on each other through data
    /// uses off the scheduling path (`tfrt.merge_inter_dependent_streams`).
    pub merge_inter_dependent_streams: bool,
}

impl Default for StreamOptions {
    fn default() -> Self {
        StreamOptions {
            cost_threshold: 1,
            upper_cost_threshold: -1,
            merge_inter_dependent_streams: false,
        }
    }
}

/// Result: the stream id of the root (the arguments pseudo kernel) and of
/// every op.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Streams {
    /// Stream id of the root: the pseudo kernel publishing the arguments.
    pub root: u64,
    /// Stream id of each op, in block order.
    pub ops: Vec<u64>,
}

/// Node index: 0 is the root, op `i` is `i + 1`.
type Node = usize;
const ROOT: Node = 0;
/// No stream assigned yet.
const NONE: usize = usize::MAX;

/// Per-node lists in one array: the list of node `n` is
/// `items[start[n]..start[n + 1]]`.
#[derive(Default)]
struct Lists {
    start: Vec<u32>,
    items: Vec<u32>,
}

impl Lists {
    /// Builds the lists from `(node, item)` pairs produced twice by
    /// `pairs` (once to count, once to fill), keeping the order in which
    /// `pairs` yields them. Reuses the arrays of the previous lists.
    fn build<I: Iterator<Item = (Node, u32)>>(&mut self, nodes: usize, pairs: impl Fn() -> I) {
        let Lists { start, items } = self;
        start.clear();
        start.resize(nodes + 2, 0);
        for (node, _) in pairs() {
            start[node + 2] += 1;
        }
        for n in 2..start.len() {
            start[n] += start[n - 1];
        }
        items.clear();
        items.resize(start[nodes + 1] as usize, 0);
        for (node, item) in pairs() {
            let slot = &mut start[node + 1];
            items[*slot as usize] = item;
            *slot += 1;
        }
        start.pop();
    }

    fn len(&self, node: Node) -> usize {
        (self.start[node + 1] - self.start[node]) as usize
    }

    fn get(&self, node: Node, i: usize) -> Node {
        self.items[self.start[node] as usize + i] as Node
    }
}

#[derive(Default, Clone)]
struct StreamInfo {
    cost: i64,
    merged_into: Option<usize>,
    /// An ordered set (the reference uses a SetVector); membership is
    /// kept in `Analysis::dep_set`.
    side_deps: Vec<usize>,
}

/// The state of the analysis of one block; its arrays are kept from
/// block to block (see `Scratch`).
#[derive(Default)]
struct Analysis {
    options: StreamOptions,
    /// Whether a stream can cost less than the threshold. Only such cheap
    /// streams are ever merged, and side dependencies are read only by
    /// merges: without them (the default threshold of 1 and positive
    /// costs) the side uses and dependencies are not recorded at all.
    merges: bool,
    /// Per node: its cost and its stream (`NONE` until built).
    cost: Vec<i64>,
    stream: Vec<usize>,
    /// Forward pass scratch, per node: accumulated cost from the root,
    /// parent, and the last user listed (see `forward`).
    cost_from_root: Vec<i64>,
    parent: Vec<Node>,
    seen: Vec<usize>,
    /// Forward pass scratch: `(def, user)` side uses.
    pairs: Vec<(Node, u32)>,
    /// Per node: the users whose parent it is, in block order.
    scheduled_users: Lists,
    /// Per node: data users not on the scheduling path, in block order.
    side_uses: Lists,
    /// The streams of the block are `streams[..live]`; the entries after
    /// them are left from earlier blocks, kept for their allocations.
    streams: Vec<StreamInfo>,
    live: usize,
    /// `(stream, dep)` for every `dep` in `streams[stream].side_deps`.
    dep_set: FxHashSet<(usize, usize)>,
    /// Scratch for `build_stream`.
    children: Vec<usize>,
}

/// Buffers of the analysis kept between blocks, so that a caller that
/// analyses many blocks allocates for the largest one only.
#[derive(Default)]
pub struct Scratch(Analysis);

/// Assigns a stream to every op of `block`, as the reference's stream
/// analysis does.
pub fn analyze(block: &[StreamOp<'_>], options: StreamOptions) -> Streams {
    analyze_in(block, options, &mut Scratch::default())
}

/// `analyze`, in the buffers of `scratch`.
pub fn analyze_in(
    block: &[StreamOp<'_>],
    options: StreamOptions,
    scratch: &mut Scratch,
) -> Streams {
    let analysis = &mut scratch.0;
    analysis.forward(block, options);
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

impl Analysis {
    /// Forward pass: every op's parent (the operand producer with the
    /// largest accumulated cost, the first one on ties), the scheduled
    /// users of each node and its side uses (non-chain uses by ops that
    /// have another parent, each user once).
    fn forward(&mut self, block: &[StreamOp<'_>], options: StreamOptions) {
        let Analysis {
            options: kept_options,
            merges,
            cost,
            stream,
            cost_from_root,
            parent,
            seen,
            pairs,
            scheduled_users,
            side_uses,
            streams: _,
            live,
            dep_set,
            children: _,
        } = self;
        *kept_options = options;
        // Stream costs are sums of node costs, the root's being 1: when
        // every cost is positive no stream costs less than 1, so none is
        // cheap unless the threshold is above 1.
        *merges = options.cost_threshold > 1 || block.iter().any(|op| op.cost < 1);
        *live = 0;
        dep_set.clear();
        let nodes = block.len() + 1;
        cost.clear();
        cost.reserve(nodes);
        cost.push(1);
        cost_from_root.clear();
        cost_from_root.reserve(nodes);
        cost_from_root.push(1i64);
        parent.clear();
        parent.reserve(nodes);
        parent.push(ROOT);
        for op in block {
            cost.push(op.cost);
            let mut best = ROOT;
            let mut best_cost = 0;
            for &producer in op.operands {
                let def = producer.map_or(ROOT, |p| p + 1);
                if cost_from_root[def] > best_cost {
                    best = def;
                    best_cost = cost_from_root[def];
                }
            }
            let total = if op.operands.is_empty() {
                op.cost
            } else {
                op.cost.saturating_add(best_cost)
            };
            parent.push(best);
            cost_from_root.push(total);
        }
        let parent = &*parent;
        scheduled_users.build(nodes, || (1..nodes).map(|node| (parent[node], node as u32)));
        stream.clear();
        stream.resize(nodes, NONE);
        if !*merges {
            return;
        }
        // `seen[def] == node`: `node` already listed as a user of `def`.
        seen.clear();
        seen.resize(nodes, usize::MAX);
        pairs.clear();
        for (i, op) in block.iter().enumerate() {
            let node = i + 1;
            for (&producer, &is_chain) in op.operands.iter().zip(op.operand_is_chain) {
                let def = producer.map_or(ROOT, |p| p + 1);
                if !is_chain && seen[def] != node {
                    seen[def] = node;
                    if def != parent[node] {
                        pairs.push((def, node as u32));
                    }
                }
            }
        }
        side_uses.build(nodes, || pairs.iter().copied());
    }

    fn add_dep(&mut self, stream: usize, dep: usize) {
        if self.dep_set.insert((stream, dep)) {
            self.streams[stream].side_deps.push(dep);
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
        let start = self.stream[node];
        assert!(start != NONE, "streams are built before they are resolved");
        let last = self.latest(start);
        let mut stream = start;
        while let Some(next) = self.streams[stream].merged_into {
            self.streams[stream].merged_into = Some(last);
            stream = next;
        }
        self.stream[node] = last;
        last
    }

    fn merge(&mut self, from: usize, to: usize) {
        let deps = std::mem::take(&mut self.streams[from].side_deps);
        for dep in deps.iter().copied() {
            let dep = self.latest(dep);
            if dep != to {
                self.add_dep(to, dep);
            }
        }
        self.streams[from].side_deps = deps;
        if self.dep_set.remove(&(to, from)) {
            self.streams[to].side_deps.retain(|&d| d != from);
        }
        self.streams[to].cost = self.streams[to]
            .cost
            .saturating_add(self.streams[from].cost);
        self.streams[from].merged_into = Some(to);
    }

    fn assign(&mut self, node: Node, stream: usize) {
        self.stream[node] = stream;
        self.streams[stream].cost = self.streams[stream].cost.saturating_add(self.cost[node]);
        if !self.merges {
            return;
        }
        for i in 0..self.side_uses.len(node) {
            let user = self.side_uses.get(node, i);
            let id = self.resolve(user);
            if id != stream {
                self.add_dep(stream, id);
                self.add_dep(id, stream);
            }
        }
    }

    fn new_stream(&mut self, node: Node) {
        let id = self.live;
        if id == self.streams.len() {
            self.streams.push(StreamInfo::default());
        } else {
            // A fresh entry that keeps only the old one's allocation.
            let mut side_deps = std::mem::take(&mut self.streams[id].side_deps);
            side_deps.clear();
            self.streams[id] = StreamInfo {
                side_deps,
                ..StreamInfo::default()
            };
        }
        self.live += 1;
        self.assign(node, id);
    }

    fn merge_inter_dependent(&mut self, children: &mut Vec<usize>) {
        let threshold = self.options.cost_threshold;
        let candidates: FxHashSet<usize> = children.iter().copied().collect();
        let mut stale: FxHashSet<usize> = FxHashSet::default();
        let mut to_merge: Vec<usize> = Vec::new();
        let mut to_merge_set: FxHashSet<usize> = FxHashSet::default();
        for &child in children.iter() {
            if stale.contains(&child) {
                continue;
            }
            to_merge.clear();
            to_merge_set.clear();
            for k in 0..self.streams[child].side_deps.len() {
                let dep = self.streams[child].side_deps[k];
                if candidates.contains(&dep) {
                    let dep = self.latest(dep);
                    if self.streams[dep].cost >= threshold {
                        continue;
                    }
                    if to_merge_set.insert(dep) {
                        to_merge.push(dep);
                    }
                }
            }
            for &stream in &to_merge {
                self.merge(stream, child);
                stale.insert(stream);
                if self.streams[child].cost >= threshold {
                    break;
                }
            }
        }
        children.retain(|id| !stale.contains(id));
    }

    fn build_stream(&mut self, node: Node) {
        let users = self.scheduled_users.len(node);
        if users == 0 {
            self.new_stream(node);
            return;
        }
        let threshold = self.options.cost_threshold;
        let upper = self.options.upper_cost_threshold;
        if !self.merges {
            // No stream is cheap, so nothing below merges: the node joins
            // the child stream the loop below would pick.
            let mut max_cost = 0;
            let mut max_stream = None;
            for i in 0..users {
                let stream = self.stream[self.scheduled_users.get(node, i)];
                let cost = self.streams[stream].cost;
                if joinable(upper, cost, max_cost) {
                    max_cost = cost;
                    max_stream = Some(stream);
                }
            }
            match max_stream {
                None => self.new_stream(node),
                Some(stream) => self.assign(node, stream),
            }
            return;
        }
        // A buffer reused from node to node.
        let mut children = std::mem::take(&mut self.children);
        children.clear();
        for i in 0..users {
            let child = self.scheduled_users.get(node, i);
            let stream = self.stream[child];
            assert!(
                stream != NONE,
                "users come later in the block and are built first"
            );
            children.push(stream);
        }
        if self.options.merge_inter_dependent_streams && children.len() > 1 {
            self.merge_inter_dependent(&mut children);
        }

        let mut max_cost = 0;
        let mut max_stream: Option<usize> = None;
        let mut consider = |cost: i64, stream: usize, max_cost: &mut i64| {
            if joinable(upper, cost, *max_cost) {
                *max_cost = cost;
                max_stream = Some(stream);
            }
        };
        // The last stream cheap children were merged into (the reference
        // keeps a list of them but only ever looks at its last entry).
        let mut merged: Option<usize> = None;
        for &child in &children {
            let cost = self.streams[child].cost;
            if cost >= threshold {
                consider(cost, child, &mut max_cost);
                continue;
            }
            match merged {
                Some(last) if self.streams[last].cost < threshold => self.merge(child, last),
                _ => merged = Some(child),
            }
            let last = merged.expect("just set or present");
            consider(self.streams[last].cost, last, &mut max_cost);
        }
        self.children = children;

        match max_stream {
            None => self.new_stream(node),
            Some(stream) => {
                self.assign(node, stream);
                if let Some(cheap) = merged
                    && self.streams[cheap].cost < threshold
                    && cheap != stream
                {
                    let current = self.stream[node];
                    self.merge(cheap, current);
                }
            }
        }
    }
}

/// Whether a node may join a child stream costing `cost` rather than the
/// best one so far (costing `max_cost`): the most expensive one below the
/// upper threshold (`upper`, negative: none), the first on ties.
fn joinable(upper: i64, cost: i64, max_cost: i64) -> bool {
    (upper < 0 || cost < upper) && max_cost < cost
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The previous implementation (quadratic on long chains), kept to
    /// check that the linear one gives the same stream ids.
    mod reference {
        use super::super::{StreamOp, StreamOptions, Streams};
        /// Node index: 0 is the root, op `i` is `i + 1`.
        type Node = usize;
        const ROOT: Node = 0;

        #[derive(Default, Clone)]
        struct OpInfo {
            cost: i64,
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
        }

        struct Analysis {
            options: StreamOptions,
            ops: Vec<OpInfo>,
            streams: Vec<StreamInfo>,
        }

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
                self.streams[from].merged_into = Some(to);
            }

            fn assign(&mut self, node: Node, stream: usize) {
                self.ops[node].stream = Some(stream);
                self.streams[stream].cost = self.streams[stream]
                    .cost
                    .saturating_add(self.ops[node].cost);
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
                for child in children {
                    let cost = self.streams[child].cost;
                    if cost >= threshold {
                        consider(cost, child, &mut max_cost);
                        continue;
                    }
                    match merged.last() {
                        Some(&last) if self.streams[last].cost < threshold => {
                            self.merge(child, last)
                        }
                        _ => merged.push(child),
                    }
                    let last = *merged.last().expect("just pushed or present");
                    consider(self.streams[last].cost, last, &mut max_cost);
                }

                match max_stream {
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
    }

    fn op(operands: &'static [Option<usize>], cost: i64) -> StreamOp<'static> {
        static NO_CHAINS: [bool; 8] = [false; 8];
        StreamOp {
            operands,
            operand_is_chain: &NO_CHAINS[..operands.len()],
            cost,
        }
    }

    #[test]
    fn a_serial_chain_is_one_stream_with_the_root() {
        // %0 = const; %1 = add %0, %0; %2 = add %1, %1; return %2
        let block = [
            op(&[], 1),
            op(&[Some(0), Some(0)], 1),
            op(&[Some(1), Some(1)], 1),
            op(&[Some(2)], 1),
        ];
        let streams = analyze(&block, StreamOptions::default());
        assert!(streams.ops.iter().all(|&s| s == streams.root));
    }

    #[test]
    fn independent_expensive_ops_get_their_own_streams() {
        // Two independent ops of cost 10 with threshold 5; the root joins
        // the most expensive child (the first one, ties keep the first).
        let block = [op(&[], 10), op(&[], 10), op(&[Some(0), Some(1)], 1)];
        let options = StreamOptions {
            cost_threshold: 5,
            ..StreamOptions::default()
        };
        let streams = analyze(&block, options);
        assert_ne!(streams.ops[0], streams.ops[1]);
        assert_eq!(streams.root, streams.ops[0]);
        // The return-like last op follows its most expensive producer.
        assert_eq!(streams.ops[2], streams.ops[0]);
    }

    #[test]
    fn cheap_siblings_are_merged() {
        // Three independent cheap ops (cost 1) under threshold 10 end up
        // in one stream, which the root continues.
        let block = [op(&[], 1), op(&[], 1), op(&[], 1)];
        let options = StreamOptions {
            cost_threshold: 10,
            ..StreamOptions::default()
        };
        let streams = analyze(&block, options);
        assert_eq!(streams.ops[0], streams.ops[1]);
        assert_eq!(streams.ops[1], streams.ops[2]);
        assert_eq!(streams.root, streams.ops[0]);
    }

    #[test]
    fn default_threshold_splits_fan_out() {
        // With threshold 1 every op is "expensive": two independent users
        // of one producer form two streams.
        let block = [op(&[], 1), op(&[Some(0)], 1), op(&[Some(0)], 1)];
        let streams = analyze(&block, StreamOptions::default());
        assert_ne!(streams.ops[1], streams.ops[2]);
    }

    /// Random blocks: the linear analysis gives the reference's ids, also
    /// in buffers left by the blocks before.
    #[test]
    fn matches_the_reference_on_random_blocks() {
        let mut scratch = Scratch::default();
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |bound: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % bound
        };
        for _ in 0..3000 {
            let n = next(40) as usize + 1;
            let mut operands: Vec<Vec<Option<usize>>> = Vec::new();
            let mut chains: Vec<Vec<bool>> = Vec::new();
            let mut costs = Vec::new();
            for i in 0..n {
                let count = next(5) as usize;
                let ops: Vec<Option<usize>> = (0..count)
                    .map(|_| {
                        if i == 0 || next(4) == 0 {
                            None
                        } else {
                            // Mostly recent producers: chains and fan-in.
                            let back = (next(i as u64) as usize).min(next(4) as usize * 3);
                            Some(i - 1 - back.min(i - 1))
                        }
                    })
                    .collect();
                chains.push(ops.iter().map(|_| next(3) == 0).collect());
                operands.push(ops);
                costs.push(next(12) as i64 + if next(5) == 0 { -2 } else { 1 });
            }
            let block: Vec<StreamOp> = (0..n)
                .map(|i| StreamOp {
                    operands: &operands[i],
                    operand_is_chain: &chains[i],
                    cost: costs[i],
                })
                .collect();
            let options = StreamOptions {
                // Thresholds below 1 too (the public analysis takes any).
                cost_threshold: next(17) as i64 - 2,
                upper_cost_threshold: if next(3) == 0 { next(30) as i64 } else { -1 },
                merge_inter_dependent_streams: next(2) == 0,
            };
            assert_eq!(
                analyze_in(&block, options, &mut scratch),
                reference::analyze(&block, options),
                "{options:?} {operands:?} {chains:?} {costs:?}"
            );
        }
    }

    #[test]
    fn a_long_chain_with_a_shared_operand_is_one_stream() {
        // %one = const; %v0 = add %x, %one; %v{i} = add %v{i-1}, %one
        let n = 20_000;
        let operands: Vec<[Option<usize>; 2]> = (0..n)
            .map(|i| match i {
                0 => [None, None],
                1 => [None, Some(0)],
                _ => [Some(i - 1), Some(0)],
            })
            .collect();
        let block: Vec<StreamOp> = operands
            .iter()
            .enumerate()
            .map(|(i, ops)| StreamOp {
                operands: if i == 0 { &ops[..0] } else { ops },
                operand_is_chain: &[false, false][..if i == 0 { 0 } else { 2 }],
                cost: 1,
            })
            .collect();
        let streams = analyze(&block, StreamOptions::default());
        assert!(
            streams.ops[1..].iter().all(|&s| s == streams.root),
            "{:?}",
            &streams.ops[..5]
        );
        assert_eq!(
            analyze(&block[..2000], StreamOptions::default()),
            reference::analyze(&block[..2000], StreamOptions::default())
        );
    }
}
