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
//! the child stream that contains the block's return op if there is one,
//! else the most expensive child stream. So the root's stream, where the
//! function starts, is the one that returns.
//!
//! Linear in the block apart from merges: per-node lists live in flat
//! arrays and set membership is hashed, so long dependency chains and
//! values with many users cost no more than short ones.

use rustc_hash::{FxHashMap, FxHashSet};

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
    /// Whether this is the block's return op (`tfrt.return`). A block has
    /// at most one; every op on its path from the root, the root included,
    /// joins the stream that contains it.
    pub is_return: bool,
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
    /// The node that starts the stream: its first op's parent, once that
    /// parent is built (`ROOT` until then, and for the root's stream).
    parent_op: Node,
    merged_into: Option<usize>,
    /// An ordered set (the reference uses a SetVector); membership is
    /// kept in `Analysis::dep_set`.
    side_deps: Vec<usize>,
    /// Whether the return op is in this stream (or in one merged into it).
    has_return: bool,
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
    /// The return op's node (`NONE` when the block has none).
    return_node: Node,
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

/// One stream of a [`StreamTree`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamInfoSummary {
    /// The stream's id (as written into BEF).
    pub id: u64,
    /// The sum of the costs of its ops (and of the root's, 1, for the root
    /// stream).
    pub cost: i64,
    /// The id of the stream it forks from; `None` for the root stream.
    pub parent: Option<u64>,
}

/// The stream tree of a block, as the reference's `StreamAnalysis` reports
/// it: each op's stream, and each stream's cost, parent and children.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamTree {
    /// The stream ids, as `analyze` gives them.
    pub ids: Streams,
    /// Every stream, the root's first, then in the block order of their
    /// first ops.
    pub streams: Vec<StreamInfoSummary>,
    /// The streams each node starts: `None` for the root (the function
    /// entry), `Some(i)` for op `i` of the block; each list in block
    /// order of the child streams' first ops. Nodes that start none are
    /// left out.
    pub children: FxHashMap<Option<usize>, Vec<u64>>,
    /// Stream id → index in `streams`.
    position: FxHashMap<u64, usize>,
}

impl StreamTree {
    /// The stream of the root (`None`) or of op `op` of the block.
    pub fn stream_of(&self, op: Option<usize>) -> Option<&StreamInfoSummary> {
        let id = match op {
            None => self.ids.root,
            Some(i) => *self.ids.ops.get(i)?,
        };
        self.streams.get(*self.position.get(&id)?)
    }

    /// The streams that the root (`None`) or op `op` starts.
    pub fn children_of(&self, op: Option<usize>) -> &[u64] {
        self.children.get(&op).map_or(&[], Vec::as_slice)
    }
}

/// `analyze`, also reporting each stream's cost, parent and children (what
/// `--tfrt-print-stream` prints).
pub fn analyze_tree(block: &[StreamOp<'_>], options: StreamOptions) -> StreamTree {
    let mut scratch = Scratch::default();
    let ids = analyze_in(block, options, &mut scratch);
    let analysis = &scratch.0;
    let mut position: FxHashMap<u64, usize> = FxHashMap::default();
    let mut streams: Vec<StreamInfoSummary> = Vec::new();
    let mut children: FxHashMap<Option<usize>, Vec<u64>> = FxHashMap::default();
    position.insert(ids.root, 0);
    streams.push(StreamInfoSummary {
        id: ids.root,
        cost: analysis.streams[ids.root as usize].cost,
        parent: None,
    });
    let node_stream = |node: Node| match node {
        ROOT => ids.root,
        n => ids.ops[n - 1],
    };
    // In block order, as the reference finalizes: a stream is listed at its
    // first op, and as a child of the node that starts it.
    for &id in &ids.ops {
        if position.contains_key(&id) {
            continue;
        }
        let info = &analysis.streams[id as usize];
        position.insert(id, streams.len());
        streams.push(StreamInfoSummary {
            id,
            cost: info.cost,
            parent: Some(node_stream(info.parent_op)),
        });
        let parent_op = match info.parent_op {
            ROOT => None,
            n => Some(n - 1),
        };
        children.entry(parent_op).or_default().push(id);
    }
    StreamTree {
        ids,
        streams,
        children,
        position,
    }
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
            return_node,
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
        *return_node = NONE;
        for (i, op) in block.iter().enumerate() {
            if op.is_return {
                *return_node = i + 1;
            }
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
        self.streams[to].has_return |= self.streams[from].has_return;
        self.streams[from].merged_into = Some(to);
    }

    fn assign(&mut self, node: Node, stream: usize) {
        self.stream[node] = stream;
        self.streams[stream].cost = self.streams[stream].cost.saturating_add(self.cost[node]);
        if node == self.return_node {
            self.streams[stream].has_return = true;
        }
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
            let mut return_stream = None;
            for i in 0..users {
                let stream = self.stream[self.scheduled_users.get(node, i)];
                self.streams[stream].parent_op = node;
                let cost = self.streams[stream].cost;
                if joinable(upper, cost, max_cost) {
                    max_cost = cost;
                    max_stream = Some(stream);
                }
                if self.streams[stream].has_return {
                    return_stream = Some(stream);
                }
            }
            match return_stream.or(max_stream) {
                None => self.new_stream(node),
                Some(stream) => {
                    self.streams[stream].parent_op = ROOT;
                    self.assign(node, stream);
                }
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
            // The node starts each child stream, unless it joins it below.
            self.streams[stream].parent_op = node;
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
        // The child stream holding the return op, once seen: a cheap one
        // may have been merged into `merged`, which then holds it.
        let mut return_stream: Option<usize> = None;
        for &child in &children {
            let cost = self.streams[child].cost;
            let holder = if cost >= threshold {
                consider(cost, child, &mut max_cost);
                child
            } else {
                match merged {
                    Some(last) if self.streams[last].cost < threshold => self.merge(child, last),
                    _ => merged = Some(child),
                }
                let last = merged.expect("just set or present");
                consider(self.streams[last].cost, last, &mut max_cost);
                last
            };
            if self.streams[holder].has_return {
                return_stream = Some(holder);
            }
        }
        self.children = children;

        match return_stream.or(max_stream) {
            None => self.new_stream(node),
            Some(stream) => {
                // The stream's first op is now this node, whose own parent
                // is not built yet.
                self.streams[stream].parent_op = ROOT;
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
    use crate::translate::stream_model as reference;

    fn op(operands: &'static [Option<usize>], cost: i64) -> StreamOp<'static> {
        static NO_CHAINS: [bool; 8] = [false; 8];
        StreamOp {
            operands,
            operand_is_chain: &NO_CHAINS[..operands.len()],
            cost,
            is_return: false,
        }
    }

    /// The return op (cost 1, as every return costs).
    fn ret(operands: &'static [Option<usize>]) -> StreamOp<'static> {
        StreamOp {
            is_return: true,
            ..op(operands, 1)
        }
    }

    #[test]
    fn the_root_joins_the_stream_that_returns() {
        // %ch = new.chain; %1 = c; %2 = c; %3 = add %1, %2;
        // print %3, %ch; c; c; return (no operands). Every op costs the
        // threshold, 1, so none merge. The return starts stream 0 and the
        // root joins it, although the stream of %1, %3 and the print costs
        // more; ids follow the reverse pass.
        let block = [
            op(&[], 1),
            op(&[], 1),
            op(&[], 1),
            op(&[Some(1), Some(2)], 1),
            op(&[Some(3), Some(0)], 1),
            op(&[], 1),
            op(&[], 1),
            ret(&[]),
        ];
        let streams = analyze(&block, StreamOptions::default());
        assert_eq!(streams.ops, [5, 3, 4, 3, 3, 2, 1, 0]);
        assert_eq!(streams.root, 0);
        let tree = analyze_tree(&block, StreamOptions::default());
        assert_eq!(tree.stream_of(None).unwrap().cost, 2);
        assert_eq!(tree.children_of(None), [5, 3, 4, 2, 1]);
    }

    #[test]
    fn a_cheap_return_stream_merged_away_still_holds_the_root() {
        // Under threshold 10: two cheap constants and a return of neither.
        // The return's stream (cost 1) is merged into the first cheap
        // child, which the root then joins rather than an expensive one.
        let block = [op(&[], 4), op(&[], 20), op(&[], 4), ret(&[])];
        let options = StreamOptions {
            cost_threshold: 10,
            ..StreamOptions::default()
        };
        let streams = analyze(&block, options);
        assert_eq!(streams, reference::analyze(&block, options));
        assert_eq!(streams.root, streams.ops[3]);
        assert_eq!(streams.ops[0], streams.ops[3]);
        assert_ne!(streams.ops[1], streams.ops[3]);
    }

    #[test]
    fn the_tree_lists_costs_parents_and_children() {
        // Three independent constants of cost 10 (the threshold) returned
        // together: the entry continues in the first; the other two fork
        // from the entry, listed in block order.
        let block = [
            op(&[], 10),
            op(&[], 10),
            op(&[], 10),
            op(&[Some(0), Some(1), Some(2)], 1),
        ];
        let options = StreamOptions {
            cost_threshold: 10,
            ..StreamOptions::default()
        };
        let tree = analyze_tree(&block, options);
        assert_eq!(tree.ids, analyze(&block, options));
        let root = tree.stream_of(None).unwrap();
        assert_eq!((root.id, root.cost, root.parent), (0, 12, None));
        assert_eq!(tree.children_of(None), [2, 1]);
        let second = tree.stream_of(Some(1)).unwrap();
        assert_eq!((second.id, second.cost, second.parent), (2, 10, Some(0)));
        assert_eq!(tree.stream_of(Some(2)).unwrap().id, 1);
        assert_eq!(tree.stream_of(Some(3)).unwrap().id, 0);
        assert!(tree.children_of(Some(0)).is_empty());
        assert!(tree.stream_of(Some(9)).is_none());
    }

    #[test]
    fn a_serial_chain_is_one_stream_with_the_root() {
        // %0 = const; %1 = add %0, %0; %2 = add %1, %1; return %2
        let block = [
            op(&[], 1),
            op(&[Some(0), Some(0)], 1),
            op(&[Some(1), Some(1)], 1),
            ret(&[Some(2)]),
        ];
        let streams = analyze(&block, StreamOptions::default());
        assert!(streams.ops.iter().all(|&s| s == streams.root));
    }

    #[test]
    fn independent_expensive_ops_get_their_own_streams() {
        // Two independent ops of cost 10 with threshold 5, both returned.
        // The return follows its most expensive producer (the first one,
        // ties keep the first), and the root follows the return.
        let block = [op(&[], 10), op(&[], 10), ret(&[Some(0), Some(1)])];
        let options = StreamOptions {
            cost_threshold: 5,
            ..StreamOptions::default()
        };
        let streams = analyze(&block, options);
        assert_ne!(streams.ops[0], streams.ops[1]);
        assert_eq!(streams.ops[2], streams.ops[0]);
        assert_eq!(streams.root, streams.ops[0]);
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

    /// Random blocks, most ending in a return op: the linear analysis
    /// gives the reference's ids, also in buffers left by the blocks
    /// before, and the root is in the stream of the return.
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
            let returns = next(4) != 0;
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
                let is_return = returns && i == n - 1;
                costs.push(if is_return {
                    1
                } else {
                    next(12) as i64 + if next(5) == 0 { -2 } else { 1 }
                });
            }
            let block: Vec<StreamOp> = (0..n)
                .map(|i| StreamOp {
                    operands: &operands[i],
                    operand_is_chain: &chains[i],
                    cost: costs[i],
                    is_return: returns && i == n - 1,
                })
                .collect();
            let options = StreamOptions {
                // Thresholds below 1 too (the public analysis takes any).
                cost_threshold: next(17) as i64 - 2,
                upper_cost_threshold: if next(3) == 0 { next(30) as i64 } else { -1 },
                merge_inter_dependent_streams: next(2) == 0,
            };
            let streams = analyze_in(&block, options, &mut scratch);
            assert_eq!(
                streams,
                reference::analyze(&block, options),
                "{options:?} {operands:?} {chains:?} {costs:?} return: {returns}"
            );
            if returns {
                assert_eq!(streams.root, streams.ops[n - 1], "{operands:?}");
            }
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
                is_return: false,
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
