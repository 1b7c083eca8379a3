//! The tensor kernels of the reference's `mnist_tensor_kernels.cc`, for T
//! in f32, i32 and i64 (and `cast.i32_to_f32`). Each writes a tensor the
//! program made (`relu.T %a, %b` writes `b`) and returns a chain, except
//! `broadcast`, `reduce_mean` and `argmax`, which return a new tensor. As
//! in the reference, a trailing chain argument orders the kernel and is
//! otherwise unused. Operands must have the dtype the name spells and
//! matching shapes; anything else is an error at the kernel.

use super::dense::{DenseHostTensor, named_dtype_and_rank};
use super::numeric::{Number, dense_of, dense_of_rank, dims, lock_for_update, view, view_mut};
use super::shape::TensorShape;
use super::{HostTensor, list};
use crate::exec::{Argument, KernelFrame, KernelRegistry, KernelWork};
use crate::runtime::Chain;
use crate::runtime::Diagnostic;

/// Fails unless `a` and `b` have the same shape.
pub(crate) fn same_shape(
    frame: &KernelFrame<'_>,
    a: &DenseHostTensor,
    b: &DenseHostTensor,
) -> Result<(), String> {
    if a.shape() != b.shape() {
        return Err(format!(
            "'{}' operands have different shapes: {} vs. {}",
            frame.kernel_name(),
            list(&a.shape().0),
            list(&b.shape().0)
        ));
    }
    Ok(())
}

/// `out[i] = f(input[i], out[i])` over tensors of one shape.
pub(crate) fn update<T: Number, U: Number>(
    frame: &KernelFrame<'_>,
    input: &DenseHostTensor,
    out: &DenseHostTensor,
    f: impl Fn(T, U) -> U,
) -> Result<Chain, String> {
    same_shape(frame, input, out)?;
    let (inputs, mut written) = lock_for_update(&[input], out)?;
    for (o, &x) in view_mut::<U>(&mut written)
        .iter_mut()
        .zip(view::<T>(&inputs[0]))
    {
        *o = f(x, *o);
    }
    // Each element: the input's read, the output's read and written.
    frame.report_work(|| element_wise(out.num_elements(), size_of::<T>() + 2 * size_of::<U>()));
    Ok(Chain)
}

/// `out[i] = f(a[i], b[i])` over tensors of one shape.
fn combine<T: Number>(
    frame: &KernelFrame<'_>,
    a: &DenseHostTensor,
    b: &DenseHostTensor,
    out: &DenseHostTensor,
    f: impl Fn(T, T) -> T,
) -> Result<Chain, String> {
    same_shape(frame, a, b)?;
    same_shape(frame, a, out)?;
    let (inputs, mut written) = lock_for_update(&[a, b], out)?;
    let (x, y) = (view::<T>(&inputs[0]), view::<T>(&inputs[1]));
    for ((o, &p), &q) in view_mut::<T>(&mut written).iter_mut().zip(x).zip(y) {
        *o = f(p, q);
    }
    // Each element: two inputs read, the output written.
    frame.report_work(|| element_wise(out.num_elements(), 3 * size_of::<T>()));
    Ok(Chain)
}

/// The work of an element-wise kernel over `elements` elements, each
/// moving `bytes_each` bytes.
pub(crate) fn element_wise(elements: usize, bytes_each: usize) -> KernelWork {
    KernelWork {
        flops: 0,
        bytes: (elements as u64).saturating_mul(bytes_each as u64),
    }
}

/// ReLU of one element: `x` if it is above 0, else 0 (NaN too).
pub(crate) fn max_zero<T: Number>(x: T) -> T {
    if x > T::ZERO { x } else { T::ZERO }
}

fn indicator<T: Number>(condition: bool) -> T {
    if condition { T::ONE } else { T::ZERO }
}

crate::kernel! {
    /// `tfrt_test.relu.T %a, %b`: `b = max(a, 0)`.
    fn relu<T: Number>(
        a: Argument<HostTensor>,
        b: Argument<HostTensor>,
        frame: &KernelFrame,
    ) -> Result<Chain, Diagnostic> {
        Ok(update::<T, T>(
            frame,
            dense_of::<T>(&a)?,
            dense_of::<T>(&b)?,
            |x, _| max_zero(x),
        )?)
    }
}

crate::kernel! {
    /// `tfrt_test.relu_inplace.T %a`: `a = max(a, 0)`.
    fn relu_inplace<T: Number>(
        a: Argument<HostTensor>,
        frame: &KernelFrame,
    ) -> Result<Chain, Diagnostic> {
        let a = dense_of::<T>(&a)?;
        for x in view_mut::<T>(&mut a.write()?) {
            *x = max_zero(*x);
        }
        frame.report_work(|| element_wise(a.num_elements(), 2 * size_of::<T>()));
        Ok(Chain)
    }
}

crate::kernel! {
    /// `tfrt_test.relu_grad_inplace.T %activation, %gradient`:
    /// `gradient *= (activation > 0)`.
    fn relu_grad_inplace<T: Number>(
        a: Argument<HostTensor>,
        g: Argument<HostTensor>,
        frame: &KernelFrame,
    ) -> Result<Chain, Diagnostic> {
        Ok(update::<T, T>(
            frame,
            dense_of::<T>(&a)?,
            dense_of::<T>(&g)?,
            |x, grad| grad.times(indicator(x > T::ZERO)),
        )?)
    }
}

crate::kernel! {
    /// `tfrt_test.add.T %a, %b, %c`: `c = a + b`.
    fn add<T: Number>(
        a: Argument<HostTensor>,
        b: Argument<HostTensor>,
        c: Argument<HostTensor>,
        frame: &KernelFrame,
    ) -> Result<Chain, Diagnostic> {
        let (a, b, c) = (dense_of::<T>(&a)?, dense_of::<T>(&b)?, dense_of::<T>(&c)?);
        Ok(combine::<T>(frame, a, b, c, T::plus)?)
    }
}

crate::kernel! {
    /// `tfrt_test.add_inplace.T %a, %b`: `b += a`.
    fn add_inplace<T: Number>(
        a: Argument<HostTensor>,
        b: Argument<HostTensor>,
        frame: &KernelFrame,
    ) -> Result<Chain, Diagnostic> {
        Ok(update::<T, T>(
            frame,
            dense_of::<T>(&a)?,
            dense_of::<T>(&b)?,
            |x, y| x.plus(y),
        )?)
    }
}

crate::kernel! {
    /// `tfrt_test.equal.T %a, %b, %c`: `c = (a == b)` as 1 or 0.
    fn equal<T: Number>(
        a: Argument<HostTensor>,
        b: Argument<HostTensor>,
        c: Argument<HostTensor>,
        frame: &KernelFrame,
    ) -> Result<Chain, Diagnostic> {
        let (a, b, c) = (dense_of::<T>(&a)?, dense_of::<T>(&b)?, dense_of::<T>(&c)?);
        Ok(combine::<T>(frame, a, b, c, |x, y| indicator(x == y))?)
    }
}

crate::kernel! {
    /// `tfrt_test.equal_inplace.T %a, %b`: `b = (a == b)` as 1 or 0.
    fn equal_inplace<T: Number>(
        a: Argument<HostTensor>,
        b: Argument<HostTensor>,
        frame: &KernelFrame,
    ) -> Result<Chain, Diagnostic> {
        Ok(update::<T, T>(
            frame,
            dense_of::<T>(&a)?,
            dense_of::<T>(&b)?,
            |x, y| indicator(x == y),
        )?)
    }
}

crate::kernel! {
    /// `tfrt_test.cast.i32_to_f32 %a, %b`: `b = a` converted.
    fn cast_i32_to_f32(
        a: Argument<HostTensor>,
        b: Argument<HostTensor>,
        frame: &KernelFrame,
    ) -> Result<Chain, Diagnostic> {
        Ok(update::<i32, f32>(
            frame,
            dense_of::<i32>(&a)?,
            dense_of::<f32>(&b)?,
            |x, _| x as f32,
        )?)
    }
}

/// A new tensor of `T` and `shape`, from the host allocator.
fn new_tensor<T: Number>(
    frame: &KernelFrame<'_>,
    shape: Vec<usize>,
) -> Result<DenseHostTensor, String> {
    let dims = shape.into_iter().map(|d| d as i64).collect();
    DenseHostTensor::zeros(T::DTYPE, TensorShape(dims), frame.host().shared_allocator())
}

/// The elements of `input` repeated along new leading dimensions to fill
/// `target`, whose last dimension is the input's length.
pub(crate) fn broadcast_rows<T: Number>(input: &[T], out: &mut [T]) {
    if input.is_empty() {
        return;
    }
    for row in out.chunks_exact_mut(input.len()) {
        row.copy_from_slice(input);
    }
}

crate::kernel! {
    /// `tfrt_test.broadcast.T.N %a, %shape -> tensor`: the rank-1 `a`
    /// repeated to the rank-N `shape`, whose last dimension must be `a`'s.
    fn broadcast<T: Number>(
        a: Argument<HostTensor>,
        target: Argument<TensorShape>,
        frame: &KernelFrame,
    ) -> Result<HostTensor, Diagnostic> {
        let (_, rank) = named_dtype_and_rank(frame)?;
        let (a, out) = broadcast_operands::<T>(frame, &a, &target, rank)?;
        broadcast_rows::<T>(view(&a.read()?), view_mut(&mut out.write()?));
        Ok(HostTensor::Dense(out))
    }
}

/// Checks `broadcast`'s operands (the rank-1 input, a target shape of
/// `rank` whose last dimension is the input's) and makes the tensor of the
/// target shape it fills; the fused products check theirs alike.
pub(crate) fn broadcast_operands<'t, T: Number>(
    frame: &KernelFrame<'_>,
    input: &'t HostTensor,
    target: &TensorShape,
    rank: usize,
) -> Result<(&'t DenseHostTensor, DenseHostTensor), String> {
    let a = dense_of_rank::<T>(input, 1, "broadcast input")?;
    if target.0.len() != rank {
        return Err(format!(
            "broadcast target shape {} does not have rank {rank}",
            list(&target.0)
        ));
    }
    if target.0.last() != a.shape().0.first() {
        return Err(format!(
            "broadcast input tensor dimension and target shape mismatch: {} vs. {}",
            list(&a.shape().0),
            list(&target.0)
        ));
    }
    let out = DenseHostTensor::zeros(T::DTYPE, target.clone(), frame.host().shared_allocator())?;
    Ok((a, out))
}

/// The mean of `values` (0/0 for no float values, as the reference).
pub(crate) fn mean<T: Number>(values: &[T]) -> Option<T> {
    values
        .iter()
        .fold(T::ZERO, |sum, &x| sum.plus(x))
        .mean_of(values.len())
}

crate::kernel! {
    /// `tfrt_test.reduce_mean.T.1 %a -> tensor`: the mean of a rank-1 tensor,
    /// as a rank-0 tensor.
    fn reduce_mean<T: Number>(
        a: Argument<HostTensor>,
        frame: &KernelFrame,
    ) -> Result<HostTensor, Diagnostic> {
        let a = dense_of_rank::<T>(&a, 1, "reduce_mean input")?;
        let value = mean(view::<T>(&a.read()?))
            .ok_or("reduce_mean of an empty integer tensor divides by zero")?;
        let out = new_tensor::<T>(frame, vec![])?;
        view_mut::<T>(&mut out.write()?)[0] = value;
        Ok(HostTensor::Dense(out))
    }
}

/// The position of the first greatest of `values` (NaN never is), 0 for
/// none, as Eigen's `argmax`.
pub(crate) fn argmax_of<T: Number>(values: &[T]) -> usize {
    let mut best = (0, T::LOWEST);
    for (i, &x) in values.iter().enumerate() {
        if x > best.1 {
            best = (i, x);
        }
    }
    best.0
}

crate::kernel! {
    /// `tfrt_test.argmax.T.2 %a -> tensor`: for each row of a rank-2 tensor,
    /// the position of its greatest element, as i32.
    fn argmax<T: Number>(
        a: Argument<HostTensor>,
        frame: &KernelFrame,
    ) -> Result<HostTensor, Diagnostic> {
        let a = dense_of_rank::<T>(&a, 2, "argmax input")?;
        let (rows, cols) = (dims(a)[0], dims(a)[1]);
        let out = new_tensor::<i32>(frame, vec![rows])?;
        {
            let (data, mut written) = (a.read()?, out.write()?);
            let values = view::<T>(&data);
            for (r, o) in view_mut::<i32>(&mut written).iter_mut().enumerate() {
                *o = argmax_of(&values[r * cols..(r + 1) * cols]) as i32;
            }
        }
        Ok(HostTensor::Dense(out))
    }
}

crate::kernel! {
    /// `tfrt_test.slice_inplace.T.3 %input, %begin, %chain, %output`:
    /// `output = input[begin : begin + output's shape]` for rank-3 tensors,
    /// `begin` a rank-1 i64 tensor of 3 elements.
    fn slice_inplace<T: Number>(
        input: Argument<HostTensor>,
        begin: Argument<HostTensor>,
        _chain: Argument<Chain>,
        output: Argument<HostTensor>,
    ) -> Result<Chain, Diagnostic> {
        let input = dense_of_rank::<T>(&input, 3, "slice input")?;
        let output = dense_of_rank::<T>(&output, 3, "slice output")?;
        let begin = dense_of_rank::<i64>(&begin, 1, "slice begin")?;
        let start: Vec<i64> = view::<i64>(&begin.read()?).to_vec();
        if start.len() != 3 {
            return Err("the size of 'begin_index' should match the input tensor rank".into());
        }
        let (from, size) = (dims(input), dims(output));
        let fits = (0..3).all(|i| {
            usize::try_from(start[i])
                .ok()
                .and_then(|s| s.checked_add(size[i]))
                .is_some_and(|end| end <= from[i])
        });
        if !fits {
            return Err(format!(
                "a slice of shape {} at {} does not fit in the input of shape {}",
                list(&size),
                list(&start),
                list(&from)
            )
            .into());
        }
        let (inputs, mut written) = lock_for_update(&[input], output)?;
        let (x, y) = (view::<T>(&inputs[0]), view_mut::<T>(&mut written));
        let s: Vec<usize> = start.iter().map(|&v| v as usize).collect();
        for i in 0..size[0] {
            for j in 0..size[1] {
                let at = ((s[0] + i) * from[1] + s[1] + j) * from[2] + s[2];
                let to = (i * size[1] + j) * size[2];
                y[to..to + size[2]].copy_from_slice(&x[at..at + size[2]]);
            }
        }
        Ok(Chain)
    }
}

macro_rules! register_for {
    ($registry:ident, $($t:ty),*) => {$(
        let name = <$t as super::element::Element>::DTYPE.mlir_name();
        let kernels: [(String, crate::exec::Kernel); 12] = [
            (format!("tfrt_test.relu.{name}"), relu::<$t>()),
            (format!("tfrt_test.relu_inplace.{name}"), relu_inplace::<$t>()),
            (format!("tfrt_test.add.{name}"), add::<$t>()),
            (format!("tfrt_test.add_inplace.{name}"), add_inplace::<$t>()),
            (format!("tfrt_test.equal.{name}"), equal::<$t>()),
            (format!("tfrt_test.equal_inplace.{name}"), equal_inplace::<$t>()),
            (format!("tfrt_test.broadcast.{name}.2"), broadcast::<$t>()),
            (format!("tfrt_test.broadcast.{name}.3"), broadcast::<$t>()),
            (format!("tfrt_test.reduce_mean.{name}.1"), reduce_mean::<$t>()),
            (format!("tfrt_test.argmax.{name}.2"), argmax::<$t>()),
            (format!("tfrt_test.relu_grad_inplace.{name}"), relu_grad_inplace::<$t>()),
            (format!("tfrt_test.slice_inplace.{name}.3"), slice_inplace::<$t>()),
        ];
        for (name, kernel) in kernels {
            $registry.add_kernel(&name, kernel);
        }
    )*};
}

pub(super) fn register(registry: &mut KernelRegistry) {
    register_for!(registry, f32, i32, i64);
    registry.add_kernel("tfrt_test.cast.i32_to_f32", cast_i32_to_f32);
}
