//! `ts.*`: tensor shapes (`!ts.shape`), partial shapes whose dimensions or
//! rank may be unknown (`!ts.partial_shape`), and shapes of a rank fixed by
//! the kernel's name (`!ts.fixed_rank_shape.N`).

use super::{MAX_NAMED_RANK, list};
use crate::exec::{Argument, ArrayAttribute, KernelFrame, KernelRegistry};
use crate::runtime::{Chain, HostContext};

/// A shape with every dimension known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TensorShape(pub Vec<i64>);

/// A shape whose dimensions may be unknown (`-1`), or whose rank may be
/// unknown (`None`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartialTensorShape(pub Option<Vec<i64>>);

/// A shape of the rank its kernel names (`ts.as_fixed_rank_shape.3`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FixedRankShape(pub Vec<i64>);

/// The dimension of a partial shape that is not known.
pub const UNKNOWN_DIMENSION: i64 = -1;

impl TensorShape {
    /// A shape from its dimensions, each at least zero.
    pub fn new(dims: Vec<i64>) -> Result<TensorShape, String> {
        if let Some(bad) = dims.iter().find(|&&d| d < 0) {
            return Err(format!("invalid dimension {bad} in shape {}", list(&dims)));
        }
        Ok(TensorShape(dims))
    }

    /// The product of the dimensions; `None` when it overflows `i64`.
    pub fn num_elements(&self) -> Option<i64> {
        self.0.iter().try_fold(1i64, |n, &d| n.checked_mul(d))
    }
}

impl PartialTensorShape {
    /// The shape if every dimension is known, else the reference's error.
    pub fn to_shape(&self) -> Result<TensorShape, String> {
        let Some(dims) = &self.0 else {
            return Err("Unknown rank".to_string());
        };
        let unknown: Vec<usize> = dims
            .iter()
            .enumerate()
            .filter(|(_, d)| **d == UNKNOWN_DIMENSION)
            .map(|(i, _)| i)
            .collect();
        if !unknown.is_empty() {
            return Err(format!(
                "Unknown dimensions at following indices = {}",
                list(unknown)
            ));
        }
        TensorShape::new(dims.clone())
    }
}

crate::kernel! {
    /// `ts.build_shape [1 : i64, 57 : i64]`
    fn build_shape(value: ArrayAttribute<i64>) -> Result<TensorShape, String> {
        TensorShape::new(value.iter().collect())
    }
}

crate::kernel! {
    /// `ts.print_shape %shape, %chain`
    fn print_shape(shape: Argument<TensorShape>, _chain: Argument<Chain>, host: &HostContext)
        -> Chain
    {
        host.print(&format!("shape = {}\n", list(&shape.0)));
        Chain
    }
}

crate::kernel! {
    /// `ts.equal_shape %a, %b`
    fn equal_shape(a: Argument<TensorShape>, b: Argument<TensorShape>) -> bool {
        *a == *b
    }
}

crate::kernel! {
    /// `ts.get_num_elements %shape`
    fn get_num_elements(shape: Argument<TensorShape>) -> Result<i64, String> {
        shape
            .num_elements()
            .ok_or_else(|| format!("the number of elements of shape {} overflows", list(&shape.0)))
    }
}

crate::kernel! {
    /// `ts.get_dimension %shape, %index`
    fn get_dimension(shape: Argument<TensorShape>, index: Argument<i32>) -> Result<i64, String> {
        usize::try_from(*index)
            .ok()
            .and_then(|i| shape.0.get(i).copied())
            .ok_or_else(|| {
                format!("dimension {} is out of range for shape {}", *index, list(&shape.0))
            })
    }
}

/// The rank a kernel name ends with (`ts.as_fixed_rank_shape.3`).
fn named_rank(frame: &KernelFrame<'_>) -> Result<usize, String> {
    frame
        .kernel_name()
        .rsplit('.')
        .next()
        .and_then(|r| r.parse().ok())
        .ok_or_else(|| format!("'{}' names no rank", frame.kernel_name()))
}

crate::kernel! {
    /// `ts.as_fixed_rank_shape.N %shape`
    fn as_fixed_rank_shape(shape: Argument<TensorShape>, frame: &KernelFrame)
        -> Result<FixedRankShape, String>
    {
        let rank = named_rank(frame)?;
        if shape.0.len() != rank {
            return Err(format!(
                "shape {} does not have rank {rank}",
                list(&shape.0)
            ));
        }
        Ok(FixedRankShape(shape.0.clone()))
    }
}

crate::kernel! {
    /// `ts.print_fixed_rank_shape.N %shape, %chain`
    fn print_fixed_rank_shape(
        shape: Argument<FixedRankShape>,
        _chain: Argument<Chain>,
        host: &HostContext,
    ) -> Chain {
        host.print(&format!("fixed_rank_shape = {}\n", list(&shape.0)));
        Chain
    }
}

crate::kernel! {
    /// `ts.build_partial_shape [-1 : i64, 57 : i64]`
    fn build_partial_shape(value: ArrayAttribute<i64>) -> Result<PartialTensorShape, String> {
        let dims: Vec<i64> = value.iter().collect();
        if let Some(bad) = dims.iter().find(|&&d| d < UNKNOWN_DIMENSION) {
            return Err(format!("invalid dimension {bad} in partial shape {}", list(&dims)));
        }
        Ok(PartialTensorShape(Some(dims)))
    }
}

crate::kernel! {
    /// `ts.build_unranked_partial_shape`
    fn build_unranked_partial_shape() -> PartialTensorShape {
        PartialTensorShape(None)
    }
}

crate::kernel! {
    /// `ts.print_partial_shape %shape, %chain`
    fn print_partial_shape(
        shape: Argument<PartialTensorShape>,
        _chain: Argument<Chain>,
        host: &HostContext,
    ) -> Chain {
        let text = match &shape.0 {
            Some(dims) => list(dims),
            None => "Unknown rank".to_string(),
        };
        host.print(&format!("partial_tensor_shape = {text}\n"));
        Chain
    }
}

crate::kernel! {
    /// `ts.to_shape %partial`: fails when a dimension or the rank is unknown.
    fn to_shape(shape: Argument<PartialTensorShape>) -> Result<TensorShape, String> {
        shape.to_shape()
    }
}

crate::kernel! {
    /// `ts.to_partial_shape %shape`
    fn to_partial_shape(shape: Argument<TensorShape>) -> PartialTensorShape {
        PartialTensorShape(Some(shape.0.clone()))
    }
}

pub(super) fn register(registry: &mut KernelRegistry) {
    registry.add_kernel("ts.build_shape", build_shape);
    registry.add_kernel("ts.print_shape", print_shape);
    registry.add_kernel("ts.equal_shape", equal_shape);
    registry.add_kernel("ts.get_num_elements", get_num_elements);
    registry.add_kernel("ts.get_dimension", get_dimension);
    registry.add_kernel("ts.build_partial_shape", build_partial_shape);
    registry.add_kernel(
        "ts.build_unranked_partial_shape",
        build_unranked_partial_shape,
    );
    registry.add_kernel("ts.print_partial_shape", print_partial_shape);
    registry.add_kernel("ts.to_shape", to_shape);
    registry.add_kernel("ts.to_partial_shape", to_partial_shape);
    for rank in 0..=MAX_NAMED_RANK {
        registry.add_kernel(
            &format!("ts.as_fixed_rank_shape.{rank}"),
            as_fixed_rank_shape,
        );
        registry.add_kernel(
            &format!("ts.print_fixed_rank_shape.{rank}"),
            print_fixed_rank_shape,
        );
    }
}
