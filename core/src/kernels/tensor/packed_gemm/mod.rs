//! An f32 matrix product whose right-hand operand is packed once and then
//! reused: `C = alpha A B + beta C` for row-major A, B and C, as BLAS
//! defines it (with `beta == 0`, C is not read).
//!
//! B is copied into panels of `NR` = 32 columns ([`PackedRhs`]), each
//! panel its k rows of 32 floats one after the other (zeros past the last
//! column), so the microkernel reads it as a stream of aligned vectors.
//! The driver splits the depth into equal blocks of at most `KC` = 256
//! rows (a panel's block, 32 KiB, stays in L1 while the register tiles of
//! A's rows run over it) and the rows into blocks of `MC` = 480 (A's
//! block stays in L2), and computes any block of rows and columns of C,
//! so the matmul kernel's split across workers shares one packed B. A is
//! read where it is, row by row.
//!
//! The microkernel is AVX-512 (`kernel.rs`), tiles of up to 12 rows by 32
//! columns (16 for a last panel that narrow): a packed B exists only on a
//! CPU that has AVX-512F ([`PackedRhs::new`] returns `None` elsewhere), so
//! holding one is the proof the kernel can run. `cache.rs` keeps the
//! packed forms of weights between calls, keyed by the tensor and its
//! write count.

// Elsewhere no packed B can exist, so the driver's parts go unused.
#![cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]

mod cache;
#[cfg(target_arch = "x86_64")]
mod kernel;

pub(crate) use cache::packed_for;
pub use cache::{CACHE_BYTES, cached_bytes, reuse_packed_weights};

/// Columns of a panel: two AVX-512 vectors of f32.
pub(crate) const NR: usize = 32;
/// Rows of A one register tile covers (the tile holds `MR x NR` sums in
/// 24 of the 32 vector registers).
pub(crate) const MR: usize = 12;
/// Depth of a block of k at most: a panel's block is `KC * NR * 4` =
/// 32 KiB. The depth is split into blocks of equal size, so that no block
/// is much shorter than the others (784 into 4 of 196).
pub(crate) const KC: usize = 256;
/// Rows of a block of A: `MC * KC * 4` = 480 KiB, in L2.
pub(crate) const MC: usize = 40 * MR;

/// One 64-byte line of a panel, so that every row of a panel is aligned.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Line([f32; 16]);

/// B (k x n) in panels of 32 columns: panel `j` holds rows `0..k` of
/// columns `32 j ..`, each row 32 floats (zeros past `n`).
pub struct PackedRhs {
    k: usize,
    n: usize,
    lines: Box<[Line]>,
}

impl std::fmt::Debug for PackedRhs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PackedRhs({} x {})", self.k, self.n)
    }
}

/// Whether this CPU runs the packed product's microkernel.
pub fn supported() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512f")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The bytes B packs into (its columns rounded up to [`NR`]), or `None`
/// when that overflows.
pub(crate) fn packed_bytes(k: usize, n: usize) -> Option<usize> {
    n.div_ceil(NR)
        .checked_mul(NR)?
        .checked_mul(k)?
        .checked_mul(size_of::<f32>())
}

impl PackedRhs {
    /// B packed from row-major `b` (k x n), or `None` when this CPU lacks
    /// the microkernel or the size overflows.
    ///
    /// # Panics
    /// When `b` does not hold k x n elements.
    pub fn new(b: &[f32], k: usize, n: usize) -> Option<PackedRhs> {
        assert_eq!(b.len(), k * n, "B is k x n");
        if !supported() {
            return None;
        }
        let lines_count = packed_bytes(k, n)? / size_of::<Line>();
        let mut lines = vec![Line([0.0; 16]); lines_count].into_boxed_slice();
        let floats: &mut [f32] = bytemuck_lines(&mut lines);
        for (p, row) in b.chunks_exact(n.max(1)).take(k).enumerate() {
            for (j, columns) in row.chunks(NR).enumerate() {
                let start = (j * k + p) * NR;
                floats[start..start + columns.len()].copy_from_slice(columns);
            }
        }
        Some(PackedRhs { k, n, lines })
    }

    /// The bytes the packed form holds.
    pub(crate) fn bytes(&self) -> usize {
        size_of_val(&*self.lines)
    }

    /// Row `p` of panel `j`.
    fn panel_row(&self, j: usize, p: usize) -> *const f32 {
        let floats = self.lines.as_ptr().cast::<f32>();
        // SAFETY: panel j < n / NR rounded up, and p <= k, so the offset
        // is at most the end of the lines.
        unsafe { floats.add((j * self.k + p) * NR) }
    }
}

/// The lines as the floats they hold.
fn bytemuck_lines(lines: &mut [Line]) -> &mut [f32] {
    let len = lines.len() * 16;
    // SAFETY: a Line is 16 f32 with no padding (repr(C), 64 bytes, align
    // 64), so the lines are `len` contiguous, initialized f32s, borrowed
    // mutably for the result's lifetime.
    unsafe { std::slice::from_raw_parts_mut(lines.as_mut_ptr().cast::<f32>(), len) }
}

/// Rows and columns of C one call computes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Region {
    pub(crate) rows: (usize, usize),
    pub(crate) cols: (usize, usize),
}

/// `C = alpha A B + beta C` on `region` of C, for B packed.
///
/// # Safety
/// `a` points to a row-major A whose rows `region.rows` hold `b.k()`
/// readable elements each, `lda` apart; `c` to a row-major C whose rows
/// `region.rows` hold `b.n()` elements, `ldc` apart, of which those in
/// `region.cols` are readable and writable by this call alone (others
/// may write the rest of C meanwhile: they are not touched). `region.cols`
/// ends at most at `b.n()`.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn multiply(
    b: &PackedRhs,
    alpha: f32,
    beta: f32,
    a: *const f32,
    lda: usize,
    c: *mut f32,
    ldc: usize,
    region: Region,
) {
    let Region { rows, cols } = region;
    assert!(cols.1 <= b.n && rows.0 <= rows.1 && cols.0 <= cols.1);
    if rows.0 == rows.1 || cols.0 == cols.1 {
        return;
    }
    if b.k == 0 {
        for i in rows.0..rows.1 {
            for j in cols.0..cols.1 {
                // SAFETY: (i, j) is in the region, C's caller-owned part.
                let out = unsafe { &mut *c.add(i * ldc + j) };
                *out = if beta == 0.0 { 0.0 } else { beta * *out };
            }
        }
        return;
    }
    #[cfg(target_arch = "x86_64")]
    {
        let blocks = b.k.div_ceil(KC);
        let block_depth = b.k.div_ceil(blocks);
        let mut depth = 0;
        while depth < b.k {
            let kc = block_depth.min(b.k - depth);
            // The first block of k scales C by beta; the others add to it.
            let (beta_here, read_c) = if depth == 0 {
                (beta, beta != 0.0)
            } else {
                (1.0, true)
            };
            let mut top = rows.0;
            while top < rows.1 {
                let bottom = (top + MC).min(rows.1);
                for j in cols.0 / NR..cols.1.div_ceil(NR) {
                    let first = (j * NR).max(cols.0) - j * NR;
                    let last = ((j + 1) * NR).min(cols.1) - j * NR;
                    let mut row = top;
                    while row < bottom {
                        let height = MR.min(bottom - row);
                        // SAFETY: row < rows.1 and depth < k: the offset
                        // stays inside A's rows of the region.
                        let a_tile = unsafe { a.add(row * lda + depth) };
                        // SAFETY: row < rows.1 and j * NR < n: the offset
                        // stays inside C's rows of the region.
                        let c_tile = unsafe { c.add(row * ldc + j * NR) };
                        let tile = kernel::Tile {
                            kc,
                            a: a_tile,
                            lda,
                            b: b.panel_row(j, depth),
                            c: c_tile,
                            ldc,
                            alpha,
                            beta: beta_here,
                            read_c,
                            columns: (first, last),
                        };
                        // SAFETY: a packed B exists, so the CPU has
                        // AVX-512F; the tile's A rows, B panel rows and
                        // C columns are inside the caller's region.
                        unsafe { kernel::run(height, &tile) };
                        row += height;
                    }
                }
                top = bottom;
            }
            depth += kc;
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (alpha, a, lda);
        unreachable!("a PackedRhs exists only on x86_64 with AVX-512F");
    }
}

/// `C = alpha A B + beta C` for row-major slices over all of C, A being
/// `m` rows (tests and benchmarks).
///
/// # Panics
/// When A is not `m` x k or C not `m` x n for B's k and n.
pub fn multiply_all(b: &PackedRhs, alpha: f32, a: &[f32], m: usize, beta: f32, c: &mut [f32]) {
    let (k, n) = (b.k, b.n);
    assert_eq!(a.len(), m * k, "A is m x k");
    assert_eq!(c.len(), m * n, "C is m x n");
    let region = Region {
        rows: (0, m),
        cols: (0, n),
    };
    // SAFETY: the slices have the sizes checked above and are borrowed
    // (C exclusively) for the call.
    unsafe { multiply(b, alpha, beta, a.as_ptr(), k, c.as_mut_ptr(), n, region) };
}

#[cfg(test)]
mod tests;
