//! The packed product against a naive triple loop (in f64) and against
//! the `gemm` crate's path, on shapes around the tile sizes.

use super::{MR, NR, PackedRhs, Region, multiply, multiply_all, supported};
use crate::kernels::tensor::matmul::multiply_for_test;

/// Deterministic values in [-1, 1).
fn values(len: usize, seed: u64) -> Vec<f32> {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 40) as f32 / (1u64 << 23) as f32 - 1.0
        })
        .collect()
}

/// `alpha A B + beta C` in f64, C not read when beta is 0.
fn naive(
    (m, k, n): (usize, usize, usize),
    alpha: f32,
    a: &[f32],
    b: &[f32],
    beta: f32,
    c: &[f32],
) -> Vec<f64> {
    let mut out = vec![0.0; m * n];
    for i in 0..m {
        for j in 0..n {
            let sum: f64 = (0..k)
                .map(|p| f64::from(a[i * k + p]) * f64::from(b[p * n + j]))
                .sum();
            let old = if beta == 0.0 {
                0.0
            } else {
                f64::from(beta) * f64::from(c[i * n + j])
            };
            out[i * n + j] = f64::from(alpha) * sum + old;
        }
    }
    out
}

/// Close to the f64 result: within f32 rounding of k terms of size <= 1.
fn assert_close(got: &[f32], want: &[f64], k: usize, what: &str) {
    let tolerance = 1e-6 * (k as f64 + 4.0) * 4.0;
    for (i, (&g, &w)) in got.iter().zip(want).enumerate() {
        assert!(
            (f64::from(g) - w).abs() <= tolerance,
            "{what}: element {i}: {g} against {w}"
        );
    }
}

const EDGES: [usize; 8] = [1, 2, 15, 16, 17, 31, 33, 65];

#[test]
fn packed_products_match_the_naive_product_and_gemm() {
    if !supported() {
        assert!(PackedRhs::new(&[1.0], 1, 1).is_none());
        return;
    }
    let mut case = 0;
    for &m in &[1, MR - 1, MR, MR + 1, 2 * MR + 5, 100] {
        for &k in &[1, 7, 16, 17, 255, 256, 257, 784] {
            for &n in EDGES.iter().chain(&[NR, NR + 1, 2 * NR - 1, 100]) {
                // Each shape with one of the scalar pairs, in turn.
                case += 1;
                let scalars = [(1.0, 0.0), (1.0, 1.0), (-0.5, 2.0), (2.0, -1.0)];
                {
                    let (alpha, beta) = scalars[case as usize % scalars.len()];
                    let a = values(m * k, case);
                    let b = values(k * n, case + 1000);
                    let c = values(m * n, case + 2000);
                    let want = naive((m, k, n), alpha, &a, &b, beta, &c);
                    let packed = PackedRhs::new(&b, k, n).expect("the CPU has AVX-512F");
                    let mut got = c.clone();
                    multiply_all(&packed, alpha, &a, m, beta, &mut got);
                    let what = format!("{m}x{k}x{n} alpha {alpha} beta {beta}");
                    assert_close(&got, &want, k, &what);
                    let mut through_gemm = c.clone();
                    multiply_for_test((m, k, n), alpha, &a, &b, beta, &mut through_gemm, 1);
                    assert_close(
                        &got,
                        &through_gemm
                            .iter()
                            .map(|&x| f64::from(x))
                            .collect::<Vec<_>>(),
                        k,
                        &what,
                    );
                }
            }
        }
    }
}

#[test]
fn any_region_is_computed_alone() {
    if !supported() {
        return;
    }
    let (m, k, n) = (29, 40, 75);
    let (a, b) = (values(m * k, 1), values(k * n, 2));
    let packed = PackedRhs::new(&b, k, n).expect("the CPU has AVX-512F");
    let want = naive((m, k, n), 1.0, &a, &b, 0.0, &[]);
    for (rows, cols) in [
        ((0, m), (0, n)),
        ((3, 17), (5, 41)),
        ((28, 29), (31, 33)),
        ((0, 1), (74, 75)),
    ] {
        // Outside the region C keeps its NaNs: nothing there is read or written.
        let mut c = vec![f32::NAN; m * n];
        let region = Region { rows, cols };
        // SAFETY: A and C are m x k and m x n, borrowed for the call.
        unsafe { multiply(&packed, 1.0, 0.0, a.as_ptr(), k, c.as_mut_ptr(), n, region) };
        for i in 0..m {
            for j in 0..n {
                let inside = (rows.0..rows.1).contains(&i) && (cols.0..cols.1).contains(&j);
                let got = c[i * n + j];
                if inside {
                    assert!(
                        (f64::from(got) - want[i * n + j]).abs() < 1e-4,
                        "({i}, {j}) of {region:?}"
                    );
                } else {
                    assert!(got.is_nan(), "({i}, {j}) outside {region:?} was written");
                }
            }
        }
    }
}

#[test]
fn beta_zero_ignores_c_and_nan_spreads_from_a_and_b() {
    if !supported() {
        return;
    }
    let (m, k, n) = (13, 20, 40);
    let mut a = values(m * k, 3);
    let mut b = values(k * n, 4);
    a[5 * k + 7] = f32::NAN;
    b[9 * n + 33] = f32::INFINITY;
    let packed = PackedRhs::new(&b, k, n).expect("the CPU has AVX-512F");
    let mut c = vec![f32::NAN; m * n];
    multiply_all(&packed, 1.0, &a, m, 0.0, &mut c);
    for i in 0..m {
        for j in 0..n {
            let got = c[i * n + j];
            if i == 5 {
                assert!(got.is_nan(), "row 5 has A's NaN: ({i}, {j}) = {got}");
            } else if j == 33 {
                assert!(
                    got.is_infinite() || got.is_nan(),
                    "column 33 has B's inf: ({i}, {j}) = {got}"
                );
            } else {
                assert!(
                    got.is_finite(),
                    "C's NaNs are not read with beta 0: ({i}, {j}) = {got}"
                );
            }
        }
    }
    // With beta 1, C's NaNs stay.
    let mut c = vec![f32::NAN; m * n];
    multiply_all(&packed, 1.0, &a, m, 1.0, &mut c);
    assert!(c.iter().all(|x| x.is_nan()));
}

#[test]
fn empty_depth_scales_c() {
    if !supported() {
        return;
    }
    let packed = PackedRhs::new(&[], 0, 3).expect("the CPU has AVX-512F");
    let mut c = vec![1.0, 2.0, f32::NAN, 4.0, 5.0, 6.0];
    multiply_all(&packed, 1.0, &[], 2, 0.0, &mut c);
    assert_eq!(c, [0.0; 6]);
    let mut c = vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
    multiply_all(&packed, 1.0, &[], 2, -2.0, &mut c);
    assert_eq!(c, [-2.0, -4.0, -6.0, -8.0, -10.0, -12.0]);
}

#[test]
fn the_cache_packs_on_the_second_sighting_until_a_write() {
    use crate::kernels::tensor::dense::DenseHostTensor;
    use crate::kernels::tensor::shape::TensorShape;
    use std::sync::Arc;

    if !supported() {
        return;
    }
    let (k, n) = (9, 40);
    let values = values(k * n, 7);
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    let shape = TensorShape(vec![k as i64, n as i64]);
    let allocator = Arc::new(crate::runtime::MallocAllocator);
    let b = DenseHostTensor::from_bytes(crate::format::DType::F32, shape, &bytes, allocator)
        .expect("the tensor is made");
    let lookup = || {
        let data = b.read().expect("readable");
        super::packed_for(&b, bytemuck::cast_slice(&data), k, n)
    };
    assert!(lookup().is_none(), "the first sighting packs nothing");
    let packed = lookup().expect("the second packs");
    let again = lookup().expect("the third reuses");
    assert!(Arc::ptr_eq(&packed, &again));
    assert!(super::cached_bytes() >= packed.bytes());

    drop(b.write().expect("writable"));
    assert!(lookup().is_none(), "a write drops the packed form");
    let repacked = lookup().expect("packed again");
    assert!(!Arc::ptr_eq(&packed, &repacked));

    // Another shape of the same tensor is another key.
    let data = b.read().expect("readable");
    assert!(super::packed_for(&b, bytemuck::cast_slice(&data), n, k).is_none());
}
