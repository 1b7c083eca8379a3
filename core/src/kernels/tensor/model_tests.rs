//! Property tests of the model kernels' arithmetic against naive
//! references, on random shapes with empty and 1-element dimensions; and
//! the locking rules (aliased operands, a tensor in use).

use proptest::prelude::*;

use super::dense::{DenseHostTensor, IN_USE};
use super::matmul::{multiply_for_test, multiply_packed_for_test};
use super::mnist::{argmax_of, broadcast_rows, mean};
use super::numeric::{lock_for_update, view, view_mut};
use super::resnet::{column_means, global_average, max_pool, softmax, transpose};
use super::shape::TensorShape;
use crate::format::DType;
use crate::runtime::MallocAllocator;

/// A dimension: often 0 or 1, otherwise small.
fn dim() -> impl Strategy<Value = usize> {
    prop_oneof![Just(0usize), Just(1usize), 2usize..9]
}

fn values(len: usize) -> impl Strategy<Value = Vec<f32>> {
    proptest::collection::vec(-8i32..8, len)
        .prop_map(|v| v.into_iter().map(|x| x as f32 / 2.0).collect())
}

/// `alpha A B + beta C` for A (m x k), B (k x n), C (m x n).
fn naive_matmul(
    (m, k, n): (usize, usize, usize),
    (alpha, beta): (f64, f64),
    a: &[f64],
    b: &[f64],
    c: &[f64],
) -> Vec<f64> {
    let mut out = vec![0.0; m * n];
    for i in 0..m {
        for j in 0..n {
            let sum: f64 = (0..k).map(|p| a[i * k + p] * b[p * n + j]).sum();
            out[i * n + j] = alpha * sum
                + if beta == 0.0 {
                    0.0
                } else {
                    beta * c[i * n + j]
                };
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn matmul_matches_the_naive_product(
        (m, k, n) in (dim(), dim(), dim()),
        seed in any::<u64>(),
        alpha in prop_oneof![Just(1.0f64), Just(-0.5), Just(2.0)],
        beta in prop_oneof![Just(0.0f64), Just(1.0), Just(-3.0)],
        workers in 1usize..5,
    ) {
        // Small integers: every product is exact in f32, f64 and integers.
        let mut state = seed | 1;
        let mut next = || { state ^= state << 13; state ^= state >> 7; state ^= state << 17; (state % 7) as f64 - 3.0 };
        let a: Vec<f64> = (0..m * k).map(|_| next()).collect();
        let b: Vec<f64> = (0..k * n).map(|_| next()).collect();
        let c: Vec<f64> = (0..m * n).map(|_| next()).collect();
        let expected = naive_matmul((m, k, n), (alpha, beta), &a, &b, &c);

        let mut c64 = c.clone();
        multiply_for_test((m, k, n), alpha, &a, &b, beta, &mut c64, workers);
        prop_assert_eq!(&c64, &expected);

        let to32 = |v: &[f64]| v.iter().map(|&x| x as f32).collect::<Vec<f32>>();
        let mut c32 = to32(&c);
        multiply_for_test((m, k, n), alpha as f32, &to32(&a), &to32(&b), beta as f32, &mut c32, workers);
        prop_assert_eq!(c32, to32(&expected));
        let mut packed = to32(&c);
        if multiply_packed_for_test((m, k, n), alpha as f32, &to32(&a), &to32(&b), beta as f32, &mut packed, workers).is_some() {
            prop_assert_eq!(packed, to32(&expected), "B packed");
        }

        // Integer scalars: alpha and beta rounded toward integers.
        let (ai, bi) = (alpha.trunc() as i64, beta.trunc() as i64);
        let expected = naive_matmul((m, k, n), (ai as f64, bi as f64), &a, &b, &c);
        let toi = |v: &[f64]| v.iter().map(|&x| x as i64).collect::<Vec<i64>>();
        let mut ci = toi(&c);
        multiply_for_test((m, k, n), ai, &toi(&a), &toi(&b), bi, &mut ci, workers);
        prop_assert_eq!(&ci, &toi(&expected));
        let to_i32 = |v: &[f64]| v.iter().map(|&x| x as i32).collect::<Vec<i32>>();
        let mut ci32 = to_i32(&c);
        multiply_for_test((m, k, n), ai as i32, &to_i32(&a), &to_i32(&b), bi as i32, &mut ci32, workers);
        prop_assert_eq!(ci32, to_i32(&expected));
    }

    #[test]
    fn broadcast_repeats_the_row(row in proptest::collection::vec(any::<i32>(), 0..6), copies in dim()) {
        let mut out = vec![0i32; row.len() * copies];
        broadcast_rows(&row, &mut out);
        for (i, &v) in out.iter().enumerate() {
            prop_assert_eq!(v, row[i % row.len()]);
        }
    }

    #[test]
    fn reductions_match_sums((rows, cols) in (dim(), dim()), data in values(64)) {
        let input = &data[..rows * cols];
        let mut means = vec![0.0f32; cols];
        column_means(input, rows, &mut means);
        for (c, &got) in means.iter().enumerate() {
            let sum: f32 = (0..rows).map(|r| input[r * cols + c]).sum();
            let want = sum / rows as f32;
            prop_assert!(got == want || (got.is_nan() && want.is_nan()), "column {}: {} vs {}", c, got, want);
        }
        let row = &data[..cols];
        let want = row.iter().sum::<f32>() / cols as f32;
        let got = mean(row).unwrap();
        prop_assert!(got == want || (got.is_nan() && want.is_nan()));
        let ints: Vec<i64> = row.iter().map(|&x| (x * 2.0) as i64).collect();
        match mean(&ints) {
            Some(v) => prop_assert_eq!(v, ints.iter().sum::<i64>() / ints.len() as i64),
            None => prop_assert!(ints.is_empty()),
        }
        if !row.is_empty() {
            let best = argmax_of(row);
            prop_assert!(row.iter().all(|&x| x <= row[best]));
            prop_assert!(row[..best].iter().all(|&x| x < row[best]), "not the first greatest");
        }
    }

    #[test]
    fn softmax_is_a_distribution_ordered_as_its_input(data in values(12).prop_flat_map(|v| (Just(v.clone()), 1usize..=v.len().max(1)))) {
        let (data, len) = data;
        let mut out = data[..len].to_vec();
        softmax(&mut out);
        let total: f32 = out.iter().sum();
        prop_assert!((total - 1.0).abs() < 1e-5, "sums to {}", total);
        let max: f32 = data[..len].iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let denominator: f64 = data[..len].iter().map(|&x| f64::from(x - max).exp()).sum();
        for (i, &p) in out.iter().enumerate() {
            let want = f64::from(data[i] - max).exp() / denominator;
            prop_assert!((f64::from(p) - want).abs() < 1e-6, "{} vs {}", p, want);
        }
    }

    #[test]
    fn pooling_matches_the_naive_window(
        (n, h, w, c) in (dim(), 1usize..7, 1usize..7, dim()),
        (ph, pw, sh, sw) in (1usize..4, 1usize..4, 1usize..4, 1usize..4),
        (pad_h, pad_w) in (0i64..2, 0i64..2),
        data in values(8 * 6 * 6 * 8),
    ) {
        let input = &data[..n * h * w * c];
        let (out_h, out_w) = (
            ((h as i64 + 2 * pad_h - ph as i64) / sh as i64 + 1).max(0) as usize,
            ((w as i64 + 2 * pad_w - pw as i64) / sw as i64 + 1).max(0) as usize,
        );
        prop_assume!(h as i64 + 2 * pad_h >= ph as i64 && w as i64 + 2 * pad_w >= pw as i64);
        let mut out = vec![0.0f32; n * out_h * out_w * c];
        max_pool(input, &[n, h, w, c], &mut out, &[n, out_h, out_w, c], [ph, pw], [sh, sw], [pad_h, pad_w]);
        for b in 0..n {
            for y in 0..out_h {
                for x in 0..out_w {
                    for ch in 0..c {
                        let mut want = f32::NEG_INFINITY;
                        for dy in 0..ph {
                            for dx in 0..pw {
                                let (r, s) = ((y * sh + dy) as i64 - pad_h, (x * sw + dx) as i64 - pad_w);
                                if r >= 0 && s >= 0 && (r as usize) < h && (s as usize) < w {
                                    want = want.max(input[((b * h + r as usize) * w + s as usize) * c + ch]);
                                }
                            }
                        }
                        prop_assert_eq!(out[((b * out_h + y) * out_w + x) * c + ch], want);
                    }
                }
            }
        }
        let mut averages = vec![0.0f32; n * c];
        global_average(input, &[n, h, w, c], &mut averages);
        for b in 0..n {
            for ch in 0..c {
                let sum: f32 = (0..h * w).map(|p| input[(b * h * w + p) * c + ch]).sum();
                prop_assert_eq!(averages[b * c + ch], sum / (h * w) as f32);
            }
        }
    }

    #[test]
    fn transpose_swaps_indices((rows, cols) in (dim(), dim()), data in values(64)) {
        let input = &data[..rows * cols];
        let mut out = vec![0.0f32; rows * cols];
        transpose(input, rows, cols, &mut out);
        for r in 0..rows {
            for c in 0..cols {
                prop_assert_eq!(out[c * rows + r], input[r * cols + c]);
            }
        }
    }
}

fn tensor(values: &[f32]) -> DenseHostTensor {
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    DenseHostTensor::from_bytes(
        DType::F32,
        TensorShape(vec![values.len() as i64]),
        &bytes,
        std::sync::Arc::new(MallocAllocator),
    )
    .unwrap()
}

#[test]
fn an_input_that_is_the_output_is_read_from_a_copy() {
    let a = tensor(&[1.0, 2.0, 3.0]);
    let (inputs, mut out) = lock_for_update(&[&a, &a], &a).unwrap();
    let (x, y) = (
        view::<f32>(&inputs[0]).to_vec(),
        view::<f32>(&inputs[1]).to_vec(),
    );
    for ((o, p), q) in view_mut::<f32>(&mut out).iter_mut().zip(x).zip(y) {
        *o = p + q;
    }
    drop((inputs, out));
    assert_eq!(view::<f32>(&a.read().unwrap()), &[2.0, 4.0, 6.0]);
}

#[test]
fn a_tensor_in_use_is_an_error_not_a_wait() {
    let a = tensor(&[1.0]);
    let b = tensor(&[2.0]);
    let lease = a.lease_write().unwrap();
    assert_eq!(a.read().unwrap_err(), IN_USE);
    assert_eq!(lock_for_update(&[&a], &b).err(), Some(IN_USE));
    assert!(a.describe().contains("<being written>"));
    drop(lease);
    let reading = a.lease_read().unwrap();
    assert!(a.read().is_ok(), "readers share the tensor");
    assert_eq!(a.write().unwrap_err(), IN_USE);
    drop(reading);
    assert!(a.write().is_ok());
}
