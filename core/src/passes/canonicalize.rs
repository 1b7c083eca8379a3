//! `--canonicalize`: the local simplifications MLIR's canonicalizer makes
//! to host programs, repeated until nothing changes:
//!
//! - Side-effect-free ops (the reference marks them `Pure`: constants,
//!   `tfrt.new.chain`, `tfrt.merge.chains`, arithmetic and comparisons,
//!   `tfrt_test.count3.*`) whose results nobody uses are erased.
//! - `tfrt.merge.chains` keeps only the operands it is the only user of
//!   (a chain used elsewhere is ordered anyway). When none is left it is
//!   replaced by its first operand; when all are, it stays. The reference
//!   replaces it by its first operand whatever that operand's type; here a
//!   first operand that is not a `!tfrt.chain` leaves the op as it is, so
//!   that the result stays well typed.
//!
//! Ops of unknown or unregistered ops are never touched: nothing is known
//! of their effects.

use rustc_hash::FxHashMap;

use super::walk::{Counts, count_uses, refers_to_symbols, replace_uses, resolve};
use crate::ir::{Block, Module, Op, ValueData, ValueId};

/// How many sweeps at most (MLIR's greedy rewriter stops after 10 too).
const MAX_SWEEPS: usize = 10;

/// Canonicalizes every op of `module`, then renumbers its values.
pub fn canonicalize(module: &mut Module) {
    let Module { op, values, .. } = module;
    simplify(op, values);
    module.renumber_values();
}

/// Canonicalizes the ops nested in `root` (a function, or the module).
/// Returns whether anything changed. Values keep their ids: the caller
/// renumbers.
pub(super) fn simplify(root: &mut Op, values: &[ValueData]) -> bool {
    let mut changed_any = false;
    for _ in 0..MAX_SWEEPS {
        // Sized by the ops of `root`, not by the module's values: the
        // inliner simplifies one function at a time.
        let mut counts = Counts::default();
        count_uses(root, &mut counts);
        let mut replaced: FxHashMap<ValueId, ValueId> = FxHashMap::default();
        let mut changed = false;
        let mut blocks: Vec<&mut Block> = root
            .regions
            .iter_mut()
            .flat_map(|r| r.blocks.iter_mut())
            .collect();
        while let Some(block) = blocks.pop() {
            changed |= sweep_block(block, &mut counts, &mut replaced, values);
            for op in block.ops.iter_mut() {
                for region in op.regions.iter_mut() {
                    blocks.extend(region.blocks.iter_mut());
                }
            }
        }
        replace_uses(root, &replaced);
        if !changed {
            break;
        }
        changed_any = true;
    }
    changed_any
}

/// One sweep over a block: merge-chain folding in program order, then
/// dead-op removal in reverse order (so that chains of dead ops go in one
/// sweep). `counts` and `replaced` are kept up to date.
fn sweep_block(
    block: &mut Block,
    counts: &mut Counts,
    replaced: &mut FxHashMap<ValueId, ValueId>,
    values: &[ValueData],
) -> bool {
    let mut changed = false;
    let ops = std::mem::take(&mut block.ops);
    let mut kept: Vec<Op> = Vec::with_capacity(ops.len());
    for mut op in ops {
        for v in &mut op.operands {
            *v = resolve(replaced, *v);
        }
        if op.name == "tfrt.merge.chains" {
            match fold_merge_chains(&mut op, counts, values) {
                Fold::Unchanged => {}
                Fold::Shrunk => changed = true,
                Fold::Replaced(by) => {
                    let result = op.results[0];
                    replaced.insert(result, by);
                    add_count(counts, by, use_count(counts, result));
                    set_count(counts, result, 0);
                    for v in &op.operands {
                        sub_count(counts, *v);
                    }
                    changed = true;
                    continue;
                }
            }
        }
        kept.push(op);
    }
    // Dead ops, last first.
    let mut live: Vec<Op> = Vec::with_capacity(kept.len());
    while let Some(op) = kept.pop() {
        let dead = is_pure(&op.name)
            && op.regions.is_empty()
            && op.results.iter().all(|r| use_count(counts, *r) == 0)
            && !refers_to_symbols(&op);
        if dead {
            for v in &op.operands {
                sub_count(counts, resolve(replaced, *v));
            }
            changed = true;
            continue;
        }
        live.push(op);
    }
    live.reverse();
    block.ops = live;
    changed
}

enum Fold {
    Unchanged,
    /// Operands used elsewhere were dropped.
    Shrunk,
    /// The op goes; its result is this value.
    Replaced(ValueId),
}

/// The merge-chains pattern (see the module docs).
fn fold_merge_chains(op: &mut Op, counts: &mut Counts, values: &[ValueData]) -> Fold {
    if op.results.len() != 1 || op.operands.is_empty() || !op.regions.is_empty() {
        return Fold::Unchanged;
    }
    let one_use = op
        .operands
        .iter()
        .filter(|v| use_count(counts, **v) == 1)
        .count();
    if one_use == op.operands.len() {
        return Fold::Unchanged;
    }
    if one_use == 0 {
        let first = op.operands[0];
        let result = op.results[0];
        let same_type = match (values.get(first.index()), values.get(result.index())) {
            (Some(a), Some(b)) => a.ty == b.ty,
            _ => false,
        };
        return if same_type {
            Fold::Replaced(first)
        } else {
            Fold::Unchanged
        };
    }
    let (keep, drop): (Vec<ValueId>, Vec<ValueId>) = op
        .operands
        .iter()
        .partition(|v| use_count(counts, **v) == 1);
    for v in drop {
        sub_count(counts, v);
    }
    op.operands = keep;
    Fold::Shrunk
}

fn use_count(counts: &Counts, v: ValueId) -> u32 {
    counts.get(&v).copied().unwrap_or(0)
}

fn set_count(counts: &mut Counts, v: ValueId, n: u32) {
    counts.insert(v, n);
}

fn add_count(counts: &mut Counts, v: ValueId, n: u32) {
    *counts.entry(v).or_default() += n;
}

fn sub_count(counts: &mut Counts, v: ValueId) {
    if let Some(c) = counts.get_mut(&v) {
        *c = c.saturating_sub(1);
    }
}

/// Whether the reference declares op `name` free of side effects (`Pure`).
pub fn is_pure(name: &str) -> bool {
    const SCALARS: [&str; 9] = [
        "i1", "i32", "i64", "ui32", "ui64", "f16", "bf16", "f32", "f64",
    ];
    const ARITHMETIC: [&str; 11] = [
        "add",
        "sub",
        "mul",
        "mul_s",
        "minimum",
        "maximum",
        "and",
        "or",
        "div",
        "equal",
        "lessequal",
    ];
    if matches!(
        name,
        "tfrt.new.chain"
            | "tfrt.merge.chains"
            | "tfrt.constant.complex64"
            | "tfrt.constant.complex128"
    ) {
        return true;
    }
    if let Some(rest) = name.strip_prefix("tfrt_test.count3.") {
        return matches!(rest, "i32" | "i64");
    }
    let Some(rest) = name.strip_prefix("tfrt.") else {
        return false;
    };
    let Some((op, ty)) = rest.split_once('.') else {
        return false;
    };
    SCALARS.contains(&ty) && (op == "constant" || op == "constant_s" || ARITHMETIC.contains(&op))
}
