//! `--inline`: MLIR's inliner, for `tfrt.call`.
//!
//! As upstream: the call graph's strongly connected components are visited
//! callees first. Each component is canonicalized (the inliner's default
//! pipeline), then the calls in its functions are inlined, and the two
//! steps repeat while something was inlined (at most 4 rounds). A call is
//! inlined unless the callee calls itself or the caller, or lies on the
//! path of inlining that produced the call (so recursion stops). Calls the
//! inlined bodies bring along are considered in the same round. A private
//! function that nothing refers to any more (or never did) is erased.
//!
//! What is legal to inline follows TFRT's dialect hooks: only `tfrt.call`
//! (not `tfrt.cond`, `tfrt.case` and the others that name functions), only
//! into a function body (not into the regions of `tfrt.if` and friends),
//! only callees of one block ending in `tfrt.return` (or `func.return`).
//! Ops of any dialect in the callee are inlined (upstream asks each op's
//! dialect; unregistered ops are treated as opaque here). Two additions
//! keep the result runnable by BEF: a `tfrt.sync` function is only inlined
//! into a `tfrt.sync` function and the other way round, and native
//! functions (declarations) are never inlined.
//!
//! Inlined ops are located at `callsite(their location at the call's)`.

use std::collections::VecDeque;
use std::collections::hash_map::Entry;

use rustc_hash::{FxHashMap, FxHashSet};

use super::canonicalize::simplify;
use super::walk::{for_each_op, op_symbol_refs, replace_uses, resolve};
use crate::ir::{
    Attribute, Block, Func, FuncKind, Location, Module, Op, Region, ValueData, ValueId,
};

/// Rounds of simplify-then-inline per component (upstream's default).
const MAX_ROUNDS: usize = 4;

/// Inlines calls throughout `module` (see the module docs), then renumbers
/// its values.
pub fn inline(module: &mut Module) {
    let graph = CallGraph::new(module);
    let mut uses = symbol_uses(module);
    let mut dead: FxHashSet<usize> = FxHashSet::default();
    for scc in graph.components() {
        for _ in 0..MAX_ROUNDS {
            for &node in &scc {
                let (body, values) = split(module);
                simplify(&mut body[node], values);
            }
            let mut inlined = false;
            for &node in &scc {
                if dead.contains(&node) {
                    continue;
                }
                if graph.is_dead(node, &uses) {
                    dead.insert(node);
                    continue;
                }
                inlined |= inline_into(module, &graph, node, &mut uses, &mut dead);
            }
            if !inlined {
                break;
            }
        }
    }
    // Private functions nothing refers to, including ones in no component
    // visited above.
    for node in 0..module.body().ops.len() {
        if graph.is_dead(node, &uses) {
            dead.insert(node);
        }
    }
    if !dead.is_empty() {
        let ops = std::mem::take(&mut module.body_mut().ops);
        module.body_mut().ops = ops
            .into_iter()
            .enumerate()
            .filter(|(i, _)| !dead.contains(i))
            .map(|(_, op)| op)
            .collect();
    }
    module.renumber_values();
}

/// The module's ops (functions among them) and its values, borrowed apart.
fn split(module: &mut Module) -> (&mut Vec<Op>, &mut Vec<ValueData>) {
    let Module { op, values, .. } = module;
    (&mut op.regions[0].blocks[0].ops, values)
}

/// How many symbol references name each symbol, anywhere in the module.
fn symbol_uses(module: &Module) -> FxHashMap<String, u32> {
    let mut uses: FxHashMap<String, u32> = FxHashMap::default();
    for_each_op(&module.op, |op| {
        op_symbol_refs(op, &mut |name| {
            *uses.entry(name.to_string()).or_default() += 1
        })
    });
    uses
}

/// The functions with bodies (the nodes, by their index among the module's
/// ops) and which of them each calls with `tfrt.call`. Built once, before
/// any inlining, as upstream does.
struct CallGraph {
    /// Module op index → its name and kind, for the functions with a body.
    nodes: FxHashMap<usize, (String, FuncKind, bool)>,
    by_name: FxHashMap<String, usize>,
    /// Callees of each node, each once, in order of first call.
    edges: FxHashMap<usize, Vec<usize>>,
}

impl CallGraph {
    fn new(module: &Module) -> CallGraph {
        let mut nodes = FxHashMap::default();
        let mut by_name = FxHashMap::default();
        for (i, op) in module.body().ops.iter().enumerate() {
            let Some(func) = Func::new(op) else {
                continue;
            };
            if func.body().is_none() {
                continue;
            }
            let name = func.name().to_string();
            // The first definition of a name wins, as a symbol table lookup.
            by_name.entry(name.clone()).or_insert(i);
            nodes.insert(i, (name, func.kind(), func.is_private()));
        }
        let mut edges: FxHashMap<usize, Vec<usize>> = FxHashMap::default();
        for &node in nodes.keys() {
            let mut callees: Vec<usize> = Vec::new();
            let mut seen: FxHashSet<usize> = FxHashSet::default();
            for_each_op(&module.body().ops[node], |op| {
                if let Some(&callee) = call_target(op).and_then(|n| by_name.get(n))
                    && seen.insert(callee)
                {
                    callees.push(callee);
                }
            });
            edges.insert(node, callees);
        }
        CallGraph {
            nodes,
            by_name,
            edges,
        }
    }

    fn callees(&self, node: usize) -> &[usize] {
        self.edges.get(&node).map_or(&[], Vec::as_slice)
    }

    /// A private function nothing refers to.
    fn is_dead(&self, node: usize, uses: &FxHashMap<String, u32>) -> bool {
        match self.nodes.get(&node) {
            Some((name, _, true)) => uses.get(name).copied().unwrap_or(0) == 0,
            _ => false,
        }
    }

    /// Strongly connected components, callees before callers (Tarjan's
    /// algorithm, iteratively), the functions in module order otherwise.
    fn components(&self) -> Vec<Vec<usize>> {
        let mut order: Vec<usize> = self.nodes.keys().copied().collect();
        order.sort_unstable();
        let mut index: FxHashMap<usize, usize> = FxHashMap::default();
        let mut low: FxHashMap<usize, usize> = FxHashMap::default();
        let mut on_stack: FxHashSet<usize> = FxHashSet::default();
        let mut stack: Vec<usize> = Vec::new();
        let mut out: Vec<Vec<usize>> = Vec::new();
        let mut next = 0usize;
        for &start in &order {
            if index.contains_key(&start) {
                continue;
            }
            // (node, next edge to look at)
            let mut work: Vec<(usize, usize)> = vec![(start, 0)];
            index.insert(start, next);
            low.insert(start, next);
            next += 1;
            stack.push(start);
            on_stack.insert(start);
            while let Some(&mut (node, ref mut edge)) = work.last_mut() {
                let callees = self.callees(node);
                if let Some(&callee) = callees.get(*edge) {
                    *edge += 1;
                    match index.entry(callee) {
                        Entry::Vacant(slot) => {
                            slot.insert(next);
                            low.insert(callee, next);
                            next += 1;
                            stack.push(callee);
                            on_stack.insert(callee);
                            work.push((callee, 0));
                        }
                        Entry::Occupied(seen) => {
                            if on_stack.contains(&callee) {
                                let l = low[&node].min(*seen.get());
                                low.insert(node, l);
                            }
                        }
                    }
                    continue;
                }
                work.pop();
                if let Some(&(parent, _)) = work.last() {
                    let l = low[&parent].min(low[&node]);
                    low.insert(parent, l);
                }
                if low[&node] == index[&node] {
                    let mut scc = Vec::new();
                    while let Some(member) = stack.pop() {
                        on_stack.remove(&member);
                        scc.push(member);
                        if member == node {
                            break;
                        }
                    }
                    scc.sort_unstable();
                    out.push(scc);
                }
            }
        }
        out
    }
}

/// The function a `tfrt.call` names with a flat symbol reference.
fn call_target(op: &Op) -> Option<&str> {
    if op.name != "tfrt.call" {
        return None;
    }
    match op.attribute("callee")? {
        Attribute::SymbolRef { root, nested } if nested.is_empty() => Some(root),
        _ => None,
    }
}

/// Inlining history: which callee an inlined call came from, and the
/// history of the call that brought it in.
type History = Vec<(usize, Option<usize>)>;

fn history_includes(history: &History, node: usize, mut at: Option<usize>) -> bool {
    while let Some(i) = at {
        let Some(&(callee, parent)) = history.get(i) else {
            return false;
        };
        if callee == node {
            return true;
        }
        at = parent;
    }
    false
}

/// Inlines the calls in the body of function `caller`. Returns whether any
/// call was inlined.
fn inline_into(
    module: &mut Module,
    graph: &CallGraph,
    caller: usize,
    uses: &mut FxHashMap<String, u32>,
    dead: &mut FxHashSet<usize>,
) -> bool {
    let caller_kind = match graph.nodes.get(&caller) {
        Some((_, kind, _)) => *kind,
        None => return false,
    };
    let (body, _) = split(module);
    let mut caller_op = std::mem::take(&mut body[caller]);
    let mut replaced: FxHashMap<ValueId, ValueId> = FxHashMap::default();
    let mut history: History = Vec::new();
    let mut inlined = false;
    if let Some(region) = caller_op.regions.first_mut() {
        for block in &mut region.blocks {
            let mut queue: VecDeque<(Op, Option<usize>)> = std::mem::take(&mut block.ops)
                .into_iter()
                .map(|op| (op, None))
                .collect();
            let mut out: Vec<Op> = Vec::with_capacity(queue.len());
            while let Some((call, from)) = queue.pop_front() {
                let target = call_target(&call).and_then(|name| graph.by_name.get(name).copied());
                let Some(target) = target.filter(|&t| {
                    !dead.contains(&t)
                        && !history_includes(&history, t, from)
                        && should_inline(graph, caller, caller_kind, t)
                }) else {
                    out.push(call);
                    continue;
                };
                let (body, values) = split(module);
                let Some(cloned) = clone_callee(&body[target], &call, &replaced, values) else {
                    out.push(call);
                    continue;
                };
                let Inlined { ops, returned } = cloned;
                for (&result, &value) in call.results.iter().zip(&returned) {
                    replaced.insert(result, value);
                }
                // The call's reference goes, the inlined ops' come.
                if let Some(name) = call_target(&call)
                    && let Some(n) = uses.get_mut(name)
                {
                    *n = n.saturating_sub(1);
                }
                for op in &ops {
                    for_each_op(op, |op| {
                        op_symbol_refs(op, &mut |name| {
                            *uses.entry(name.to_string()).or_default() += 1
                        })
                    });
                }
                history.push((target, from));
                let id = Some(history.len() - 1);
                for op in ops.into_iter().rev() {
                    queue.push_front((op, id));
                }
                inlined = true;
            }
            block.ops = out;
        }
    }
    replace_uses(&mut caller_op, &replaced);
    let (body, _) = split(module);
    body[caller] = caller_op;
    inlined
}

/// Upstream's `shouldInline`, with the kind check of the module docs.
fn should_inline(graph: &CallGraph, caller: usize, caller_kind: FuncKind, target: usize) -> bool {
    if target == caller {
        return false;
    }
    if graph
        .callees(target)
        .iter()
        .any(|&c| c == target || c == caller)
    {
        return false;
    }
    matches!(graph.nodes.get(&target), Some((_, kind, _)) if *kind == caller_kind)
}

/// A callee's body, copied for one call site.
struct Inlined {
    /// The body's ops without its terminator.
    ops: Vec<Op>,
    /// What replaces each of the call's results.
    returned: Vec<ValueId>,
}

/// Copies the body of `callee` for `call`, or `None` when it cannot be
/// inlined (several blocks, no return, a count mismatch).
fn clone_callee(
    callee: &Op,
    call: &Op,
    replaced: &FxHashMap<ValueId, ValueId>,
    values: &mut Vec<ValueData>,
) -> Option<Inlined> {
    let block = match callee.regions.first()?.blocks.as_slice() {
        [block] => block,
        _ => return None,
    };
    let (terminator, body) = block.ops.split_last()?;
    if !matches!(terminator.name.as_str(), "tfrt.return" | "func.return")
        || terminator.operands.len() != call.results.len()
        || block.arguments.len() != call.operands.len()
    {
        return None;
    }
    let mut map: FxHashMap<ValueId, ValueId> = FxHashMap::default();
    for (&arg, &operand) in block.arguments.iter().zip(&call.operands) {
        map.insert(arg, resolve(replaced, operand));
    }
    let mut cloner = Cloner {
        map,
        values,
        caller: &call.location,
    };
    let ops = body.iter().map(|op| cloner.op(op)).collect();
    let returned = terminator
        .operands
        .iter()
        .map(|v| cloner.map.get(v).copied().unwrap_or(*v))
        .collect();
    Some(Inlined { ops, returned })
}

/// Copies ops with fresh values, relocated to the call site.
struct Cloner<'a> {
    map: FxHashMap<ValueId, ValueId>,
    values: &'a mut Vec<ValueData>,
    caller: &'a Location,
}

impl Cloner<'_> {
    fn location(&self, location: &Location) -> Location {
        Location::CallSite {
            callee: Box::new(location.clone()),
            caller: Box::new(self.caller.clone()),
        }
    }

    fn fresh(&mut self, old: ValueId) -> ValueId {
        let id = ValueId(self.values.len() as u32);
        let data = self.values.get(old.index()).cloned().map(|mut d| {
            d.location = d.location.as_deref().map(|l| Box::new(self.location(l)));
            d.use_list_order = None;
            d
        });
        self.values.push(data.unwrap_or(ValueData {
            ty: crate::ir::Type::None,
            location: None,
            use_list_order: None,
        }));
        self.map.insert(old, id);
        id
    }

    /// Regions nest as deep as the input allows (the readers bound it).
    fn op(&mut self, op: &Op) -> Op {
        let operands = op
            .operands
            .iter()
            .map(|v| self.map.get(v).copied().unwrap_or(*v))
            .collect();
        let results = op.results.iter().map(|&r| self.fresh(r)).collect();
        let regions = op
            .regions
            .iter()
            .map(|region| Region {
                blocks: region
                    .blocks
                    .iter()
                    .map(|block| {
                        let arguments = block.arguments.iter().map(|&a| self.fresh(a)).collect();
                        Block {
                            arguments,
                            ops: Vec::new(),
                        }
                    })
                    .collect(),
            })
            .collect::<Vec<Region>>();
        // Block arguments are all mapped before any op uses them (a
        // successor's arguments may be used in an earlier block).
        let mut regions = regions;
        for (new, old) in regions.iter_mut().zip(&op.regions) {
            for (new_block, old_block) in new.blocks.iter_mut().zip(&old.blocks) {
                new_block.ops = old_block.ops.iter().map(|o| self.op(o)).collect();
            }
        }
        Op {
            name: op.name.clone(),
            operands,
            results,
            successors: op.successors.clone(),
            attributes: op.attributes.clone(),
            properties: op.properties.clone(),
            opaque_properties: op.opaque_properties.clone(),
            regions,
            location: self.location(&op.location),
        }
    }
}
