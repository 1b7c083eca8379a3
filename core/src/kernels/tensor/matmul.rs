//! Matrix products: `tfrt_test.matmul.T.2` (T in f32, i32, i64) and
//! `eigen.matmul.T` (f32, i32), both
//! `(%alpha: T, %a, %b, %beta: T, %c, %chain) -> !tfrt.chain` computing
//! `C = alpha * A B + beta * C` as BLAS defines it (with `beta == 0`, C is
//! not read).
//!
//! Floats go through the `gemm` crate (its kernels reach this machine's
//! vector units; see `docs/performance.md` for how it was chosen), integers
//! through a loop. An f32 B seen unchanged before (constant weights) is
//! multiplied from its packed form instead, on CPUs with AVX-512
//! ([`packed_gemm`]). A product of at least [`PARALLEL_WORK`] multiply-adds is
//! split into one block of rows (or of columns, for wide products) per
//! worker of the work queue: the kernel computes one block itself and
//! queues the others, and the result chain completes when the last block
//! is done. The blocks hold the tensors' locks ([`ReadLease`],
//! [`WriteLease`]) until then.
//!
//! The fused kernels (`matmul_fused.rs`) run the same blocks with an
//! [`Epilogue`]: each block of C is first filled with the bias row, then
//! multiplied into, then passed through ReLU, while it is in cache.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use parking_lot::Mutex;

use super::dense::{DenseHostTensor, ReadLease, WriteLease};
use super::mnist::max_zero;
use super::numeric::{Number, dense_of_rank, dims, lock_for_update, view, view_mut};
use super::packed_gemm::{self, PackedRhs};
use super::{HostTensor, list};
use crate::exec::{Argument, KernelFrame, KernelRegistry, KernelWork, Out};
use crate::runtime::Diagnostic;
use crate::runtime::{AsyncValueRef, Chain};

/// Multiply-adds from which a product is split across the workers.
pub const PARALLEL_WORK: usize = 1 << 20;

/// A number the matrix product is defined for.
pub(crate) trait MatmulScalar: Number + crate::exec::TypeName {
    /// B as the blocks read it; `data` is `b`'s elements, read-locked by
    /// the caller until the blocks are done.
    fn rhs(b: &DenseHostTensor, data: &[Self], shape: Shape) -> Rhs<Self> {
        let _ = (b, shape);
        Rhs::plain(data.as_ptr())
    }

    /// Computes block `block` of `C = alpha A B + beta C` (`scalars` is
    /// `(alpha, beta)`)
    /// for row-major `A` (m x k), `B` (k x n) and `C` (m x n).
    ///
    /// # Safety
    /// `a`, `b` and `c` point to `m*k`, `k*n` and `m*n` valid elements;
    /// the block of `c` is written by no one else meanwhile, and `a` and
    /// `b` are not written.
    unsafe fn block(
        shape: Shape,
        scalars: (Self, Self),
        a: *const Self,
        b: &Rhs<Self>,
        c: *mut Self,
        block: Block,
    );
}

/// The right-hand operand: its elements, and for f32 the packed form the
/// cache of [`packed_gemm`] keeps, when there is one.
pub(crate) struct Rhs<T> {
    data: *const T,
    packed: Option<Arc<PackedRhs>>,
}

impl<T> Rhs<T> {
    fn plain(data: *const T) -> Rhs<T> {
        Rhs { data, packed: None }
    }
}

/// The sizes of a product: A is m x k, B is k x n.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Shape {
    m: usize,
    k: usize,
    n: usize,
}

impl Shape {
    /// The product's work: a multiply and an add per term, A and B read,
    /// C written (and read when `beta` is not 0).
    fn work(self, element: usize, reads_c: bool) -> KernelWork {
        let (m, k, n) = (self.m as u64, self.k as u64, self.n as u64);
        let elements = m * k + k * n + m * n * (1 + u64::from(reads_c));
        KernelWork {
            flops: 2u64.saturating_mul(m).saturating_mul(n).saturating_mul(k),
            bytes: elements.saturating_mul(element as u64),
        }
    }
}

/// A block of C: its rows and columns.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Block {
    rows: (usize, usize),
    cols: (usize, usize),
}

/// What a fused kernel does to each block of C around its product: the
/// steps of the unfused `broadcast`, `matmul` and `relu_inplace`, in their
/// order and with their arithmetic, so that the results are the same bits.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Epilogue<T> {
    /// The bias row (n elements): the block's rows start as it, as the
    /// broadcast tensor would, before the product adds `beta` times them.
    /// Not written when `beta` is 0, since the product then reads no C.
    pub bias: Option<*const T>,
    /// ReLU over the block once the product is in it.
    pub relu: bool,
}

/// Computes one block of `C = alpha A B + beta C` with its epilogue.
///
/// # Safety
/// As [`MatmulScalar::block`]; `epilogue.bias`, when set, points to `n`
/// valid elements that nobody writes meanwhile.
unsafe fn block_with_epilogue<T: MatmulScalar>(
    shape: Shape,
    (alpha, beta): (T, T),
    (a, b, c): (*const T, &Rhs<T>, *mut T),
    block: Block,
    epilogue: Epilogue<T>,
) {
    let n = shape.n;
    let (cols, width) = (block.cols.0, block.cols.1 - block.cols.0);
    if let Some(bias) = epilogue.bias
        && beta != T::ZERO
    {
        for i in block.rows.0..block.rows.1 {
            // SAFETY: row i's columns of the block are inside C and the
            // block is the caller's alone; the bias has n elements.
            unsafe { std::ptr::copy_nonoverlapping(bias.add(cols), c.add(i * n + cols), width) };
        }
    }
    // SAFETY: the caller's guarantees are the block's.
    unsafe { T::block(shape, (alpha, beta), a, b, c, block) };
    if epilogue.relu {
        for i in block.rows.0..block.rows.1 {
            // SAFETY: as for the bias, inside C and the caller's alone.
            let row = unsafe { std::slice::from_raw_parts_mut(c.add(i * n + cols), width) };
            for x in row {
                *x = max_zero(*x);
            }
        }
    }
}

/// A block of a float product through the `gemm` crate.
trait GemmBlock: Sized {
    /// As [`MatmulScalar::block`], for B's elements.
    ///
    /// # Safety
    /// As [`MatmulScalar::block`].
    unsafe fn gemm_block(
        shape: Shape,
        scalars: (Self, Self),
        a: *const Self,
        b: *const Self,
        c: *mut Self,
        block: Block,
    );
}

macro_rules! float_blocks {
    ($($t:ty),*) => {$(
        impl GemmBlock for $t {
            unsafe fn gemm_block(shape: Shape, (alpha, beta): ($t, $t), a: *const $t, b: *const $t, c: *mut $t, block: Block) {
                let Shape { k, n, .. } = shape;
                let (m_block, n_block) = (block.rows.1 - block.rows.0, block.cols.1 - block.cols.0);
                if m_block == 0 || n_block == 0 {
                    return;
                }
                // SAFETY: the offsets stay inside A, B and C, which have
                // the sizes the caller guarantees; the block of C is the
                // caller's alone.
                unsafe {
                    let dst = c.add(block.rows.0 * n + block.cols.0);
                    if k == 0 {
                        for i in 0..m_block {
                            for j in 0..n_block {
                                let out = dst.add(i * n + j);
                                *out = if beta == 0.0 { 0.0 } else { beta * *out };
                            }
                        }
                        return;
                    }
                    // gemm computes dst = alpha' dst + beta' lhs rhs.
                    gemm::gemm(
                        m_block,
                        n_block,
                        k,
                        dst,
                        1,
                        n as isize,
                        beta != 0.0,
                        a.add(block.rows.0 * k),
                        1,
                        k as isize,
                        b.add(block.cols.0),
                        1,
                        n as isize,
                        beta,
                        alpha,
                        false,
                        false,
                        false,
                        gemm::Parallelism::None,
                    );
                }
            }
        }
    )*};
}

float_blocks!(f32, f64);

impl MatmulScalar for f32 {
    fn rhs(b: &DenseHostTensor, data: &[f32], shape: Shape) -> Rhs<f32> {
        Rhs {
            data: data.as_ptr(),
            packed: packed_gemm::packed_for(b, data, shape.k, shape.n),
        }
    }

    unsafe fn block(
        shape: Shape,
        scalars: (f32, f32),
        a: *const f32,
        b: &Rhs<f32>,
        c: *mut f32,
        block: Block,
    ) {
        let Some(packed) = &b.packed else {
            // SAFETY: the caller's guarantees.
            return unsafe { f32::gemm_block(shape, scalars, a, b.data, c, block) };
        };
        let region = packed_gemm::Region {
            rows: block.rows,
            cols: block.cols,
        };
        // SAFETY: A is m x k and C m x n (the caller's guarantees), the
        // packed B is k x n, and the block of C is the caller's alone.
        unsafe {
            packed_gemm::multiply(packed, scalars.0, scalars.1, a, shape.k, c, shape.n, region)
        }
    }
}

impl MatmulScalar for f64 {
    unsafe fn block(
        shape: Shape,
        scalars: (f64, f64),
        a: *const f64,
        b: &Rhs<f64>,
        c: *mut f64,
        block: Block,
    ) {
        // SAFETY: the caller's guarantees.
        unsafe { f64::gemm_block(shape, scalars, a, b.data, c, block) }
    }
}

macro_rules! integer_blocks {
    ($($t:ty),*) => {$(
        impl MatmulScalar for $t {
            unsafe fn block(shape: Shape, (alpha, beta): ($t, $t), a: *const $t, b: &Rhs<$t>, c: *mut $t, block: Block) {
                let Shape { m, k, n } = shape;
                let b = b.data;
                // SAFETY: the caller guarantees the sizes and that the
                // block of C is its own; A and B are only read, and C is
                // only touched inside the block, through `c` directly.
                let (a, b) = unsafe {
                    (std::slice::from_raw_parts(a, m * k), std::slice::from_raw_parts(b, k * n))
                };
                let mut row = vec![0 as $t; block.cols.1 - block.cols.0];
                for i in block.rows.0..block.rows.1 {
                    row.fill(0);
                    for p in 0..k {
                        let x = a[i * k + p];
                        let b_row = &b[p * n + block.cols.0..p * n + block.cols.1];
                        for (acc, &y) in row.iter_mut().zip(b_row) {
                            *acc = acc.wrapping_add(x.wrapping_mul(y));
                        }
                    }
                    for (j, &sum) in row.iter().enumerate() {
                        // SAFETY: (i, cols.0 + j) is inside the block.
                        let out = unsafe { &mut *c.add(i * n + block.cols.0 + j) };
                        let scaled = alpha.wrapping_mul(sum);
                        *out = if beta == 0 { scaled } else { scaled.wrapping_add(beta.wrapping_mul(*out)) };
                    }
                }
            }
        }
    )*};
}

integer_blocks!(i32, i64);

/// A product split into blocks, shared by the tasks computing them.
struct Product<T> {
    shape: Shape,
    alpha: T,
    beta: T,
    a: *const T,
    b: Rhs<T>,
    c: *mut T,
    epilogue: Epilogue<T>,
    /// Keep A, B (and the bias) read-locked and C write-locked while
    /// blocks run; taken (unlocking them) by the last block before it
    /// completes `done`.
    leases: Mutex<Option<(Vec<ReadLease>, WriteLease)>>,
    blocks: Vec<Block>,
    remaining: AtomicUsize,
    done: AsyncValueRef<Chain>,
}

// SAFETY: the pointers point into the buffers the leases keep locked (A, B
// and the bias for reading, C for writing) until every block is done;
// blocks write disjoint parts of C, and A, B and the bias are only read.
unsafe impl<T: Send> Send for Product<T> {}
// SAFETY: as above: shared access only reads A, B and the bias and writes
// each block of C from one task.
unsafe impl<T: Sync> Sync for Product<T> {}

impl<T: MatmulScalar> Product<T> {
    fn run_block(self: &Arc<Self>, index: usize) {
        // SAFETY: the leases keep the buffers alive and locked while any
        // block runs (they are taken only after `remaining` reaches zero),
        // they have the shape's sizes (checked by the kernel), and block
        // `index` is computed by this call only.
        unsafe {
            block_with_epilogue(
                self.shape,
                (self.alpha, self.beta),
                (self.a, &self.b, self.c),
                self.blocks[index],
                self.epilogue,
            )
        };
        if self.remaining.fetch_sub(1, Ordering::AcqRel) == 1 {
            // Unlock before completing: kernels waiting for the chain may
            // run inline and use the tensors.
            drop(self.leases.lock().take());
            self.done.emplace(Chain);
        }
    }
}

/// The blocks a product is split into for `workers` workers.
fn split(shape: Shape, workers: usize) -> Vec<Block> {
    let Shape { m, k, n } = shape;
    let parts = if m.saturating_mul(k).saturating_mul(n) < PARALLEL_WORK {
        1
    } else {
        workers.max(1)
    };
    let along_rows = m >= n;
    let length = if along_rows { m } else { n };
    let parts = parts.min(length.max(1));
    (0..parts)
        .map(|p| {
            let range = (length * p / parts, length * (p + 1) / parts);
            if along_rows {
                Block {
                    rows: range,
                    cols: (0, n),
                }
            } else {
                Block {
                    rows: (0, m),
                    cols: range,
                }
            }
        })
        .collect()
}

/// Checks the operands' shapes as the reference's `eigen.matmul` does.
pub(crate) fn product_shape(
    a: &DenseHostTensor,
    b: &DenseHostTensor,
    c: &DenseHostTensor,
) -> Result<Shape, String> {
    let (da, db, dc) = (dims(a), dims(b), dims(c));
    if da[1] != db[0] {
        return Err(format!(
            "MatMul input tensors inner dimension mismatch: {} vs. {}",
            list(&da),
            list(&db)
        ));
    }
    if dc[0] != da[0] || dc[1] != db[1] {
        return Err(format!(
            "MatMul output shape {} does not match product shape of inputs: {} * {}",
            list(&dc),
            list(&da),
            list(&db)
        ));
    }
    Ok(Shape {
        m: da[0],
        k: da[1],
        n: db[1],
    })
}

/// The product's operands A and B, checked as the matmul kernels check
/// them.
pub(crate) fn product_inputs<'t, T: MatmulScalar>(
    a: &'t HostTensor,
    b: &'t HostTensor,
) -> Result<(&'t DenseHostTensor, &'t DenseHostTensor), String> {
    Ok((
        dense_of_rank::<T>(a, 2, "MatMul input A")?,
        dense_of_rank::<T>(b, 2, "MatMul input B")?,
    ))
}

/// The operands of a product: `C = alpha A B + beta C`, then the
/// epilogue's steps; `bias` is the epilogue's bias row, if any.
pub(crate) struct Operands<'t, T> {
    pub shape: Shape,
    pub alpha: T,
    pub beta: T,
    pub a: &'t DenseHostTensor,
    pub b: &'t DenseHostTensor,
    pub c: &'t DenseHostTensor,
    pub bias: Option<&'t DenseHostTensor>,
    pub relu: bool,
}

/// The product on this thread, under short-lived locks (an input that is
/// also C is read from a copy).
fn multiply_here<T: MatmulScalar>(p: &Operands<'_, T>) -> Result<(), &'static str> {
    let (inputs, mut out) = lock_for_update(&[p.a, p.b], p.c)?;
    let bias = p.bias.map(DenseHostTensor::read).transpose()?;
    let (x, y) = (view::<T>(&inputs[0]), view::<T>(&inputs[1]));
    // A B that is also C is a copy, not worth packing.
    let rhs = if p.c.same_as(p.b) {
        Rhs::plain(y.as_ptr())
    } else {
        T::rhs(p.b, y, p.shape)
    };
    let z = view_mut::<T>(&mut out);
    let all = Block {
        rows: (0, p.shape.m),
        cols: (0, p.shape.n),
    };
    let epilogue = Epilogue {
        bias: bias.as_deref().map(|bytes| view::<T>(bytes).as_ptr()),
        relu: p.relu,
    };
    // SAFETY: the views have the shape's sizes (checked by the kernel, the
    // bias n elements), C is write-locked by this thread and A, B and the
    // bias are read-locked (or copies), so nothing else touches them
    // during the call.
    unsafe {
        block_with_epilogue(
            p.shape,
            (p.alpha, p.beta),
            (x.as_ptr(), &rhs, z.as_mut_ptr()),
            all,
            epilogue,
        )
    };
    Ok(())
}

/// Runs a product whose operands are checked: here when it is small (or
/// C is also an input), else split across the workers. `done` completes
/// when C holds the result.
pub(crate) fn run_product<T: MatmulScalar>(
    frame: &KernelFrame<'_>,
    p: Operands<'_, T>,
    done: &Out<'_, Chain>,
) -> Result<(), Diagnostic> {
    // Reported before the work: the blocks queued elsewhere are the
    // kernel's too, and the kernel may return before they run.
    frame.report_work(|| {
        let mut work = p.shape.work(size_of::<T>(), p.beta != T::ZERO);
        if p.bias.is_some() {
            work.bytes = work
                .bytes
                .saturating_add((p.shape.n * size_of::<T>()) as u64);
        }
        work
    });
    let blocks = split(p.shape, frame.host().parallelism_level());
    if blocks.len() <= 1 || p.c.same_as(p.a) || p.c.same_as(p.b) {
        multiply_here(&p)?;
        done.emplace(Chain);
        return Ok(());
    }
    let mut reads: Vec<ReadLease> = vec![p.a.lease_read()?, p.b.lease_read()?];
    if let Some(bias) = p.bias {
        reads.push(bias.lease_read()?);
    }
    let mut c_lease: WriteLease = p.c.lease_write()?;
    let a_ptr = view::<T>(&reads[0][..]).as_ptr();
    let rhs = T::rhs(p.b, view::<T>(&reads[1][..]), p.shape);
    let bias_ptr = reads.get(2).map(|lease| view::<T>(&lease[..]).as_ptr());
    let c_ptr = view_mut::<T>(&mut c_lease[..]).as_mut_ptr();
    let product = Arc::new(Product {
        shape: p.shape,
        alpha: p.alpha,
        beta: p.beta,
        a: a_ptr,
        b: rhs,
        c: c_ptr,
        epilogue: Epilogue {
            bias: bias_ptr,
            relu: p.relu,
        },
        leases: Mutex::new(Some((reads, c_lease))),
        remaining: AtomicUsize::new(blocks.len()),
        blocks,
        done: done.allocate(),
    });
    for index in 1..product.blocks.len() {
        let product = product.clone();
        frame
            .context()
            .enqueue_work(move || product.run_block(index));
    }
    product.run_block(0);
    Ok(())
}

crate::kernel! {
    /// The matmul kernels: `(alpha, A, B, beta, C, chain...) -> chain`.
    fn matmul<T: MatmulScalar>(
        alpha: Argument<T>,
        a: Argument<HostTensor>,
        b: Argument<HostTensor>,
        beta: Argument<T>,
        c: Argument<HostTensor>,
        done: Out<Chain>,
        frame: &KernelFrame,
    ) -> Result<(), Diagnostic> {
        let (a, b) = product_inputs::<T>(&a, &b)?;
        let c = dense_of_rank::<T>(&c, 2, "MatMul output C")?;
        let shape = product_shape(a, b, c)?;
        let operands = Operands {
            shape,
            alpha: *alpha,
            beta: *beta,
            a,
            b,
            c,
            bias: None,
            relu: false,
        };
        run_product(frame, operands, &done)
    }
}

pub(super) fn register(registry: &mut KernelRegistry) {
    registry.add_kernel("tfrt_test.matmul.f32.2", matmul::<f32>());
    registry.add_kernel("tfrt_test.matmul.i32.2", matmul::<i32>());
    registry.add_kernel("tfrt_test.matmul.i64.2", matmul::<i64>());
    registry.add_kernel("eigen.matmul.f32", matmul::<f32>());
    registry.add_kernel("eigen.matmul.i32", matmul::<i32>());
}

/// As [`multiply_for_test`] for f32, B packed (`None` on CPUs without the
/// packed kernel).
#[cfg(test)]
pub(crate) fn multiply_packed_for_test(
    shape: (usize, usize, usize),
    alpha: f32,
    a: &[f32],
    b: &[f32],
    beta: f32,
    c: &mut [f32],
    workers: usize,
) -> Option<()> {
    let (m, k, n) = shape;
    assert_eq!((a.len(), c.len()), (m * k, m * n));
    let rhs = Rhs {
        data: b.as_ptr(),
        packed: Some(Arc::new(PackedRhs::new(b, k, n)?)),
    };
    let shape = Shape { m, k, n };
    for block in split(shape, workers) {
        // SAFETY: the slices have the shape's sizes and are borrowed
        // exclusively (c) or shared (a, b) for the call.
        unsafe {
            f32::block(
                shape,
                (alpha, beta),
                a.as_ptr(),
                &rhs,
                c.as_mut_ptr(),
                block,
            )
        };
    }
    Some(())
}

#[cfg(test)]
pub(crate) fn multiply_for_test<T: MatmulScalar>(
    shape: (usize, usize, usize),
    alpha: T,
    a: &[T],
    b: &[T],
    beta: T,
    c: &mut [T],
    workers: usize,
) {
    let shape = Shape {
        m: shape.0,
        k: shape.1,
        n: shape.2,
    };
    assert_eq!(
        (a.len(), b.len(), c.len()),
        (shape.m * shape.k, shape.k * shape.n, shape.m * shape.n)
    );
    for block in split(shape, workers) {
        // SAFETY: the slices have the shape's sizes and are borrowed
        // exclusively (c) or shared (a, b) for the call.
        unsafe {
            T::block(
                shape,
                (alpha, beta),
                a.as_ptr(),
                &Rhs::plain(b.as_ptr()),
                c.as_mut_ptr(),
                block,
            )
        };
    }
}
