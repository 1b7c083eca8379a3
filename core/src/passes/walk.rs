//! Walks shared by the passes: over nested ops, value uses and symbol
//! references. All iterative: nesting depth comes from untrusted input.

use rustc_hash::FxHashMap;

use crate::ir::{Attribute, Op, ValueId};

/// Calls `f` on `root` and every op nested in it, parents before children.
pub(super) fn for_each_op<'a>(root: &'a Op, mut f: impl FnMut(&'a Op)) {
    let mut stack = vec![root];
    while let Some(op) = stack.pop() {
        f(op);
        for region in op.regions.iter().rev() {
            for block in region.blocks.iter().rev() {
                stack.extend(block.ops.iter().rev());
            }
        }
    }
}

/// Calls `f` on `root` and every op nested in it, mutably (parents before
/// their children).
pub(super) fn for_each_op_mut(root: &mut Op, mut f: impl FnMut(&mut Op)) {
    let mut stack = vec![root];
    while let Some(op) = stack.pop() {
        f(op);
        for region in op.regions.iter_mut() {
            for block in region.blocks.iter_mut() {
                stack.extend(block.ops.iter_mut());
            }
        }
    }
}

/// How many times each value is used.
pub(super) type Counts = FxHashMap<ValueId, u32>;

/// Adds the uses of every value by `root` and the ops nested in it to
/// `counts`.
pub(super) fn count_uses(root: &Op, counts: &mut Counts) {
    for_each_op(root, |op| {
        for &v in &op.operands {
            *counts.entry(v).or_default() += 1;
        }
    });
}

/// The value `v` stands for after the replacements of `map` (followed
/// transitively: a replacement may itself have been replaced).
pub(super) fn resolve(map: &FxHashMap<ValueId, ValueId>, mut v: ValueId) -> ValueId {
    // Each step follows one entry; more steps than entries means a cycle,
    // which the passes never build.
    for _ in 0..=map.len() {
        match map.get(&v) {
            Some(&next) if next != v => v = next,
            _ => return v,
        }
    }
    v
}

/// Rewrites every operand of `root` and the ops nested in it through `map`.
pub(super) fn replace_uses(root: &mut Op, map: &FxHashMap<ValueId, ValueId>) {
    if map.is_empty() {
        return;
    }
    for_each_op_mut(root, |op| {
        for v in &mut op.operands {
            *v = resolve(map, *v);
        }
    });
}

/// Calls `f` with the root name of every symbol reference in `attr`
/// (inside arrays and dictionaries too).
pub(super) fn for_each_symbol_ref<'a>(attr: &'a Attribute, f: &mut impl FnMut(&'a str)) {
    let mut stack = vec![attr];
    while let Some(attr) = stack.pop() {
        match attr {
            Attribute::SymbolRef { root, .. } => f(root),
            Attribute::Array(items) => stack.extend(items.iter().rev()),
            Attribute::Dictionary(entries) => stack.extend(entries.iter().rev().map(|(_, v)| v)),
            Attribute::Distinct { referenced, .. } => stack.push(referenced),
            _ => {}
        }
    }
}

/// Calls `f` with every symbol an op's own attributes and properties
/// refer to (not those of nested ops).
pub(super) fn op_symbol_refs<'a>(op: &'a Op, f: &mut impl FnMut(&'a str)) {
    for (_, value) in &op.attributes {
        for_each_symbol_ref(value, f);
    }
    if let Some(properties) = op.properties.as_deref() {
        for_each_symbol_ref(properties, f);
    }
}

/// Whether the op or anything nested in it refers to a symbol.
pub(super) fn refers_to_symbols(op: &Op) -> bool {
    let mut any = false;
    for_each_op(op, |op| op_symbol_refs(op, &mut |_| any = true));
    any
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolve_follows_chains_and_stops_on_cycles() {
        let mut map = FxHashMap::default();
        map.insert(ValueId(1), ValueId(2));
        map.insert(ValueId(2), ValueId(3));
        assert_eq!(resolve(&map, ValueId(1)), ValueId(3));
        assert_eq!(resolve(&map, ValueId(7)), ValueId(7));
        map.insert(ValueId(3), ValueId(1));
        // A cycle ends after a bounded number of steps.
        let _ = resolve(&map, ValueId(1));
    }

    #[test]
    fn symbol_refs_inside_arrays_and_dictionaries() {
        let attr = Attribute::Array(vec![
            Attribute::symbol("a"),
            Attribute::Dictionary(vec![("k".into(), Attribute::symbol("b"))]),
            Attribute::i32(1),
        ]);
        let mut seen = Vec::new();
        for_each_symbol_ref(&attr, &mut |s| seen.push(s.to_string()));
        assert_eq!(seen, ["a", "b"]);
    }
}
