//! `--fuse-matmul-epilogue`: a matrix product's bias and ReLU fused into
//! one kernel. TFRT's MNIST programs write a dense layer as
//!
//! ```text
//! %c   = "tfrt_test.broadcast.f32.2"(%bias, %shape, %ch0)
//! %ch1 = "tfrt_test.matmul.f32.2"(%alpha, %x, %w, %beta, %c, %ch)
//! %ch2 = "tfrt_test.relu_inplace.f32"(%c, %ch1)
//! ```
//!
//! which this pass rewrites to
//!
//! ```text
//! %c, %ch2 = "tfrt_test.matmul_bias_relu.f32"(%alpha, %x, %w, %beta, %bias, %shape, %ch0, %ch)
//! ```
//!
//! (`tfrt_test.matmul_bias.T` when no ReLU follows), for T in f32, i32 and
//! i64, the product `tfrt_test.matmul.T.2` or `eigen.matmul.T`. The fused
//! kernel computes each block of C with its bias rows and ReLU while it is
//! in cache (`kernels/tensor/matmul_fused.rs`), with the same results.
//!
//! It fuses only where nothing can tell: the ops carry no attributes or
//! regions; C is the broadcast's result, read by the product as its C
//! operand only, by the ReLU as its only tensor, and otherwise only by ops
//! ordered after the last fused op's chain (they use it, or a value made
//! from it, in their block), so nobody sees C half made; the product's
//! chain goes only to the ReLU when the ReLU is fused. The fused op takes
//! every operand of the ops it replaces (the chains deduplicated) and
//! stands where the last of them stood; its results are the same values,
//! C and the last chain. Bodies of `tfrt.sync` functions are left as they
//! are. Everything else is unchanged, and a program without the pattern
//! comes out identical.

use rustc_hash::{FxHashMap, FxHashSet};

use super::walk::{Counts, count_uses, for_each_op};
use crate::ir::{Block, FUNC_OP, Location, Module, Op, ValueId};

/// The dtypes the fused kernels exist for.
const DTYPES: [&str; 3] = ["f32", "i32", "i64"];

/// Operand uses the pass may look at in one run (listing a block's uses,
/// checking the order of a tensor's readers): a hostile program of many
/// candidates each read far away, or nested deep, is checked up to this,
/// and what is left after is not fused.
const ORDERING_BUDGET: usize = 1 << 22;

/// The names of the fused kernels the pass writes (for checking that the
/// runtime registers each one).
pub fn fused_kernel_names() -> Vec<String> {
    DTYPES
        .iter()
        .flat_map(|t| {
            [
                format!("tfrt_test.matmul_bias.{t}"),
                format!("tfrt_test.matmul_bias_relu.{t}"),
            ]
        })
        .collect()
}

/// Fuses every pattern of `module` (see the module docs), then renumbers
/// its values. Returns how many products were fused.
pub fn fuse_matmul_epilogue(module: &mut Module) -> usize {
    let mut counts = Counts::default();
    count_uses(&module.op, &mut counts);
    let mut budget = ORDERING_BUDGET;
    let mut fused = 0;
    let mut blocks: Vec<&mut Block> = module
        .op
        .regions
        .iter_mut()
        .flat_map(|r| r.blocks.iter_mut())
        .collect();
    while let Some(block) = blocks.pop() {
        fused += fuse_block(block, &counts, &mut budget);
        for op in block.ops.iter_mut() {
            if op.name == FUNC_OP && op.attribute("tfrt.sync").is_some() {
                continue;
            }
            for region in op.regions.iter_mut() {
                blocks.extend(region.blocks.iter_mut());
            }
        }
    }
    if fused > 0 {
        module.renumber_values();
    }
    fused
}

/// One pattern found: the ops' indices in the block.
struct Match {
    dtype: &'static str,
    broadcast: usize,
    product: usize,
    relu: Option<usize>,
}

impl Match {
    /// The op the fused op replaces in place: the last of the pattern.
    fn last(&self) -> usize {
        self.relu.unwrap_or(self.product)
    }
}

/// What one block's ops use, top-level ops standing for the ops nested
/// in them.
struct BlockUses {
    /// Per op, every value it and the ops nested in it use.
    by_op: Vec<Vec<ValueId>>,
    /// Per value, the ops using it (once per use), in block order.
    users: FxHashMap<ValueId, Vec<usize>>,
}

impl BlockUses {
    /// The uses of `block`'s ops, or `None` when listing them would pass
    /// the budget (each block lists the blocks nested in it again).
    fn of(block: &Block, budget: &mut usize) -> Option<BlockUses> {
        let mut by_op = Vec::with_capacity(block.ops.len());
        let mut users: FxHashMap<ValueId, Vec<usize>> = FxHashMap::default();
        for (index, op) in block.ops.iter().enumerate() {
            let mut used = Vec::new();
            for_each_op(op, |nested| used.extend_from_slice(&nested.operands));
            if !spend(budget, used.len() + 1) {
                return None;
            }
            for &v in &used {
                users.entry(v).or_default().push(index);
            }
            by_op.push(used);
        }
        Some(BlockUses { by_op, users })
    }

    /// The ops of the block using `v`, or `None` when `v` is also used
    /// outside the block (`counts` holds every use in the module).
    fn users_in_block(&self, v: ValueId, counts: &Counts) -> Option<&[usize]> {
        let users = self.users.get(&v).map_or(&[][..], Vec::as_slice);
        let all = counts.get(&v).copied().unwrap_or(0) as usize;
        (users.len() == all).then_some(users)
    }
}

/// Fuses the patterns of one block (not of blocks nested in it); returns
/// how many.
fn fuse_block(block: &mut Block, counts: &Counts, budget: &mut usize) -> usize {
    if !block.ops.iter().any(|op| broadcast_dtype(op).is_some()) {
        return 0;
    }
    let Some(uses) = BlockUses::of(block, budget) else {
        return 0;
    };
    let matches: Vec<Match> = (0..block.ops.len())
        .filter_map(|i| find_match(block, &uses, counts, i, budget))
        .collect();
    if matches.is_empty() {
        return 0;
    }
    // Patterns never share ops (each has its own broadcast result, which
    // is its product's C and its ReLU's tensor); checked all the same, so
    // that the ops are taken once.
    let mut replaced: FxHashMap<usize, usize> = FxHashMap::default();
    let mut removed: FxHashSet<usize> = FxHashSet::default();
    let mut fused = 0;
    for (k, m) in matches.iter().enumerate() {
        let parts = [Some(m.broadcast), Some(m.product), m.relu];
        if parts.iter().flatten().any(|i| removed.contains(i)) {
            continue;
        }
        removed.extend(parts.into_iter().flatten());
        replaced.insert(m.last(), k);
        fused += 1;
    }
    let ops = std::mem::take(&mut block.ops);
    let mut originals: Vec<Option<Op>> = ops.into_iter().map(Some).collect();
    let mut kept = Vec::with_capacity(originals.len());
    for index in 0..originals.len() {
        if let Some(&k) = replaced.get(&index) {
            kept.push(fused_op(&matches[k], &mut originals));
        } else if !removed.contains(&index)
            && let Some(op) = originals[index].take()
        {
            kept.push(op);
        }
    }
    block.ops = kept;
    fused
}

/// The pattern whose broadcast is op `i`, if it may be fused.
fn find_match(
    block: &Block,
    uses: &BlockUses,
    counts: &Counts,
    i: usize,
    budget: &mut usize,
) -> Option<Match> {
    let ops = &block.ops;
    let broadcast = &ops[i];
    let dtype = broadcast_dtype(broadcast)?;
    if broadcast.results.len() != 1 || broadcast.operands.len() < 2 {
        return None;
    }
    let c = broadcast.results[0];
    let c_users = uses.users_in_block(c, counts)?;
    // The first op to use C must be the product, using it as C only.
    let &p = c_users.first()?;
    let product = &ops[p];
    if !is_product(product, dtype)
        || product.results.len() != 1
        || product.operands.len() < 5
        || product.operands[4] != c
        || occurrences(&product.operands, c) != 1
    {
        return None;
    }
    let chain = product.results[0];
    // With the ReLU: the product's chain goes to it alone.
    if let Some(users) = uses.users_in_block(chain, counts)
        && let Some(&r) = users.first()
        && users.iter().all(|&u| u == r)
        && is_relu_of(&ops[r], dtype, c)
    {
        let others: Vec<usize> = c_users
            .iter()
            .copied()
            .filter(|&u| u != p && u != r)
            .collect();
        if ordered_after(block, uses, r, ops[r].results[0], &others, budget) {
            return Some(Match {
                dtype,
                broadcast: i,
                product: p,
                relu: Some(r),
            });
        }
    }
    let others: Vec<usize> = c_users.iter().copied().filter(|&u| u != p).collect();
    ordered_after(block, uses, p, chain, &others, budget).then_some(Match {
        dtype,
        broadcast: i,
        product: p,
        relu: None,
    })
}

/// Whether every op of `targets` (indices after `last`, in order) uses
/// `chain` or a value made from it by ops of the block after `last`.
fn ordered_after(
    block: &Block,
    uses: &BlockUses,
    last: usize,
    chain: ValueId,
    targets: &[usize],
    budget: &mut usize,
) -> bool {
    if targets.first().is_some_and(|&t| t <= last) {
        return false;
    }
    // Most readers take the chain itself: no walk for them.
    let mut walk_to = Vec::new();
    for &t in targets {
        let used = &uses.by_op[t];
        if !spend(budget, used.len()) {
            return false;
        }
        if !used.contains(&chain) {
            walk_to.push(t);
        }
    }
    let targets = walk_to;
    let Some(&furthest) = targets.last() else {
        return true;
    };
    let targets: FxHashSet<usize> = targets.into_iter().collect();
    let mut reached: FxHashSet<ValueId> = FxHashSet::default();
    reached.insert(chain);
    for j in last + 1..=furthest {
        let used = &uses.by_op[j];
        if !spend(budget, used.len()) {
            return false;
        }
        if used.iter().any(|v| reached.contains(v)) {
            reached.extend(block.ops[j].results.iter().copied());
        } else if targets.contains(&j) {
            return false;
        }
    }
    true
}

/// Takes `checks` from `budget`; false, and the budget spent, when it has
/// fewer left.
fn spend(budget: &mut usize, checks: usize) -> bool {
    if checks > *budget {
        *budget = 0;
        return false;
    }
    *budget -= checks;
    true
}

/// The fused op of `m`, taking its ops out of `ops`.
fn fused_op(m: &Match, ops: &mut [Option<Op>]) -> Op {
    let take = |ops: &mut [Option<Op>], i: usize| {
        ops[i]
            .take()
            .expect("fuse_block takes each op into one pattern only")
    };
    let broadcast = take(ops, m.broadcast);
    let product = take(ops, m.product);
    let relu = m.relu.map(|r| take(ops, r));
    let c = broadcast.results[0];
    let product_chain = product.results[0];
    let last_chain = relu.as_ref().map_or(product_chain, |r| r.results[0]);

    let mut operands: Vec<ValueId> = product.operands[..4].to_vec();
    operands.extend_from_slice(&broadcast.operands[..2]);
    let mut extras: Vec<ValueId> = broadcast.operands[2..].to_vec();
    extras.extend_from_slice(&product.operands[5..]);
    if let Some(relu) = &relu {
        extras.extend(relu.operands[1..].iter().filter(|&&v| v != product_chain));
    }
    let mut seen = FxHashSet::default();
    operands.extend(extras.into_iter().filter(|v| seen.insert(*v)));

    let mut locations = vec![product.location, broadcast.location];
    locations.extend(relu.map(|r| r.location));
    let name = if m.relu.is_some() {
        format!("tfrt_test.matmul_bias_relu.{}", m.dtype)
    } else {
        format!("tfrt_test.matmul_bias.{}", m.dtype)
    };
    let mut op = Op::new(name, fused_location(locations));
    op.operands = operands;
    op.results = vec![c, last_chain];
    op
}

/// MLIR's fused location of `parts`: unknown parts and repeats dropped,
/// one part left standing alone.
fn fused_location(parts: Vec<Location>) -> Location {
    let mut distinct: Vec<Location> = Vec::new();
    for part in parts {
        if part != Location::Unknown && !distinct.contains(&part) {
            distinct.push(part);
        }
    }
    match distinct.len() {
        0 => Location::Unknown,
        1 => distinct.remove(0),
        _ => Location::Fused {
            locations: distinct,
            metadata: None,
        },
    }
}

/// An op with nothing but operands and results: no attributes, properties,
/// regions or successors.
fn is_plain(op: &Op) -> bool {
    op.attributes.is_empty()
        && op.properties.is_none()
        && op.opaque_properties.is_none()
        && op.regions.is_empty()
        && op.successors.is_empty()
}

/// The dtype of a fusable `tfrt_test.broadcast.T.2`.
fn broadcast_dtype(op: &Op) -> Option<&'static str> {
    let rest = op.name.strip_prefix("tfrt_test.broadcast.")?;
    let dtype = DTYPES
        .into_iter()
        .find(|t| rest.strip_prefix(t) == Some(".2"))?;
    is_plain(op).then_some(dtype)
}

/// Whether `op` is a plain matrix product of `dtype`.
fn is_product(op: &Op, dtype: &str) -> bool {
    let name = op.name.as_str();
    let tfrt_test = name
        .strip_prefix("tfrt_test.matmul.")
        .and_then(|rest| rest.strip_suffix(".2"))
        == Some(dtype);
    // `eigen.matmul` is registered for f32 and i32.
    let eigen = name.strip_prefix("eigen.matmul.") == Some(dtype) && dtype != "i64";
    (tfrt_test || eigen) && is_plain(op)
}

/// Whether `op` is a plain `tfrt_test.relu_inplace.T` of tensor `c` alone.
fn is_relu_of(op: &Op, dtype: &str, c: ValueId) -> bool {
    op.name.strip_prefix("tfrt_test.relu_inplace.") == Some(dtype)
        && is_plain(op)
        && op.results.len() == 1
        && op.operands.first() == Some(&c)
        && occurrences(&op.operands, c) == 1
}

fn occurrences(values: &[ValueId], v: ValueId) -> usize {
    values.iter().filter(|&&x| x == v).count()
}
