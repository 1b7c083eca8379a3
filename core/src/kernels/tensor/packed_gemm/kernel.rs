//! The AVX-512 microkernel: a tile of up to [`MR`] rows by [`NR`] columns
//! of C, its sums kept in vector registers over one block of k.

use std::arch::x86_64::{
    __m512, __mmask16, _mm512_add_ps, _mm512_fmadd_ps, _mm512_load_ps, _mm512_mask_storeu_ps,
    _mm512_maskz_loadu_ps, _mm512_mul_ps, _mm512_set1_ps, _mm512_setzero_ps, _mm512_storeu_ps,
};

use super::{MR, NR};

/// One tile's operands.
pub(super) struct Tile {
    /// Rows of the block of k.
    pub(super) kc: usize,
    /// A's first row at the block's first column.
    pub(super) a: *const f32,
    /// Elements between A's rows.
    pub(super) lda: usize,
    /// The panel's row at the block's first row (64-byte aligned).
    pub(super) b: *const f32,
    /// C's first row at the panel's first column.
    pub(super) c: *mut f32,
    /// Elements between C's rows.
    pub(super) ldc: usize,
    pub(super) alpha: f32,
    pub(super) beta: f32,
    /// Whether C is read (`beta * C` added): false for `beta == 0`.
    pub(super) read_c: bool,
    /// The panel's columns `first..last` this tile writes.
    pub(super) columns: (usize, usize),
}

/// Runs `tile` on its first `height` (1 to [`MR`]) rows; a tile whose
/// columns all lie in the panel's first 16 computes only those (the last
/// panel of a narrow B).
///
/// # Safety
/// The CPU has AVX-512F; `height` rows of A from `tile.a` hold `tile.kc`
/// readable elements each; the panel holds `tile.kc` rows from `tile.b`;
/// the columns `tile.columns` of `height` rows of C from `tile.c` are
/// readable and writable by this call alone.
pub(super) unsafe fn run(height: usize, tile: &Tile) {
    macro_rules! heights {
        ($($h:literal)*) => {
            match height {
                // SAFETY: the caller's guarantees, for `h` = height rows.
                $($h => unsafe {
                    if tile.columns.1 <= 16 {
                        tile_of::<$h, 1>(tile)
                    } else {
                        tile_of::<$h, 2>(tile)
                    }
                },)*
                _ => panic!("tile height {height} outside 1..={MR}"),
            }
        };
    }
    const _: () = assert!(MR == 12 && NR == 32, "the heights below are 1..=MR");
    heights!(1 2 3 4 5 6 7 8 9 10 11 12)
}

/// The lanes of `first..last` within the 16 lanes from `base`.
fn lanes(base: usize, (first, last): (usize, usize)) -> __mmask16 {
    let from = first.clamp(base, base + 16) - base;
    let to = last.clamp(base, base + 16) - base;
    (((1u32 << to) - (1u32 << from)) & 0xffff) as __mmask16
}

/// The tile for `H` rows and the panel's first `V` vectors of 16 columns.
///
/// # Safety
/// As [`run`], with `H` rows; with `V` = 1, `tile.columns` end by 16.
#[target_feature(enable = "avx512f")]
unsafe fn tile_of<const H: usize, const V: usize>(tile: &Tile) {
    let Tile {
        kc,
        a,
        lda,
        b,
        c,
        ldc,
        alpha,
        beta,
        read_c,
        columns,
    } = *tile;
    let mut sums = [[_mm512_setzero_ps(); V]; H];
    let mut b_row = b;
    let mut a_col = a;
    for _ in 0..kc {
        // SAFETY: the panel has kc aligned rows of NR floats from `b`,
        // and A's H rows kc elements from `a`; both pointers advance
        // one row (column) per step.
        unsafe {
            let mut row = [_mm512_setzero_ps(); V];
            for (v, vector) in row.iter_mut().enumerate() {
                *vector = _mm512_load_ps(b_row.add(16 * v));
            }
            for (i, sum) in sums.iter_mut().enumerate() {
                let x = _mm512_set1_ps(*a_col.add(i * lda));
                for (s, &vector) in sum.iter_mut().zip(&row) {
                    *s = _mm512_fmadd_ps(x, vector, *s);
                }
            }
            b_row = b_row.add(NR);
            a_col = a_col.add(1);
        }
    }
    let alpha = _mm512_set1_ps(alpha);
    let beta = _mm512_set1_ps(beta);
    let masks = [lanes(0, columns), lanes(16, columns)];
    let full = columns == (0, NR);
    for (i, sum) in sums.iter().enumerate() {
        for (half, &mask) in masks.iter().enumerate().take(V) {
            // SAFETY: row i < H of C, at the panel's column 16 * half; the
            // loads and stores touch only the lanes of `columns` (all 16
            // when `full`), which the caller gives this call alone.
            unsafe {
                // Wrapping: with fewer than 16 columns left, the vector
                // may reach past C's end; only the masked lanes are used.
                let out = c.wrapping_add(i * ldc + 16 * half);
                let mut value: __m512 = _mm512_mul_ps(alpha, sum[half]);
                if read_c {
                    let old = if full {
                        std::ptr::read_unaligned(out.cast::<__m512>())
                    } else {
                        _mm512_maskz_loadu_ps(mask, out)
                    };
                    value = _mm512_add_ps(value, _mm512_mul_ps(beta, old));
                }
                if full {
                    _mm512_storeu_ps(out, value);
                } else if mask != 0 {
                    _mm512_mask_storeu_ps(out, mask, value);
                }
            }
        }
    }
}
