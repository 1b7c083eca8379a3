//! The f32 tensor kernels of the reference's `resnet_tensor_kernels.cc`:
//! pooling, flattening, zero padding, softmax, gradient descent,
//! subtraction, transposition, the mean over axis 0 and the 2-D
//! broadcast. Images are NHWC. Each writes a tensor the program made and
//! returns a chain; shapes are checked, with the reference's messages,
//! before anything is written.

use super::mnist::update;
use super::numeric::{dense_of, dense_of_rank, dims, lock_for_update, view, view_mut};
use super::{HostTensor, list};
use crate::exec::{Argument, ArrayAttribute, KernelFrame, KernelRegistry, StringAttribute};
use crate::runtime::Chain;
use crate::runtime::Diagnostic;

/// The two positive values of a `[h : i32, w : i32]` attribute.
fn pair(values: &ArrayAttribute<'_, i32>, what: &str, least: i32) -> Result<[usize; 2], String> {
    let v = values.to_vec();
    match v[..] {
        [h, w] if h >= least && w >= least => Ok([h as usize, w as usize]),
        [_, _] => Err(format!("{what} must be at least {least}, got {}", list(&v))),
        _ => Err(format!("expects {what} to have 2 elements")),
    }
}

/// The padding before and after along one axis, as the reference computes
/// it for `same`: `pool - stride`, or `pool - input % stride` when the
/// stride does not divide the input, split with the extra row after.
fn same_padding(input: usize, pool: usize, stride: usize) -> (i64, i64) {
    let rest = input % stride;
    let total = pool as i64
        - if rest == 0 {
            stride as i64
        } else {
            rest as i64
        };
    // As the reference's int(total / 2.0) and int(total / 2.0 + 0.5).
    (
        (total as f64 / 2.0) as i64,
        (total as f64 / 2.0 + 0.5) as i64,
    )
}

/// The output size of a pooling along one axis, if any.
fn pooled(input: usize, before: i64, after: i64, pool: usize, stride: usize) -> Option<usize> {
    let span = input as i64 + before + after - pool as i64;
    (span >= 0).then(|| (span / stride as i64) as usize + 1)
}

crate::kernel! {
    /// `tfrt_test.max_pooling_2d.f32 %input, %output, %chain
    /// {padding = "valid" | "same", pool_size = [h, w], strides = [h, w]}`.
    /// Each output element is the greatest input element of its window
    /// (padding excluded).
    fn max_pooling_2d(
        input: Argument<HostTensor>,
        output: Argument<HostTensor>,
        _chain: Argument<Chain>,
        padding: StringAttribute,
        pool_size: ArrayAttribute<i32>,
        strides: ArrayAttribute<i32>,
    ) -> Result<Chain, Diagnostic> {
        let input = dense_of_rank::<f32>(&input, 4, "MaxPool2D input")?;
        let output = dense_of_rank::<f32>(&output, 4, "MaxPool2D output")?;
        let pool = pair(&pool_size, "pool_size", 1).map_err(|e| format!("MaxPool2D {e}"))?;
        let stride = pair(&strides, "strides", 1).map_err(|e| format!("MaxPool2D {e}"))?;
        let from = dims(input);
        let pads = match &*padding {
            "same" => [
                same_padding(from[1], pool[0], stride[0]),
                same_padding(from[2], pool[1], stride[1]),
            ],
            "valid" => [(0, 0), (0, 0)],
            other => return Err(format!("MaxPool2D padding '{other}' is not recognized").into()),
        };
        let out = dims(output);
        let height = pooled(from[1], pads[0].0, pads[0].1, pool[0], stride[0]);
        let width = pooled(from[2], pads[1].0, pads[1].1, pool[1], stride[1]);
        let expected = height.zip(width).map(|(h, w)| vec![from[0], h, w, from[3]]);
        if expected.as_ref() != Some(&out) {
            return Err(match expected {
                Some(expected) => format!(
                    "MaxPool2D output shape {} does not match the expected output shape {}",
                    list(&out),
                    list(&expected)
                ),
                None => format!(
                    "MaxPool2D pool_size {} is larger than the padded input {}",
                    list(pool),
                    list(&from)
                ),
            }
            .into());
        }
        let (inputs, mut written) = lock_for_update(&[input], output)?;
        max_pool(
            view::<f32>(&inputs[0]),
            &from,
            view_mut::<f32>(&mut written),
            &out,
            pool,
            stride,
            [pads[0].0, pads[1].0],
        );
        Ok(Chain)
    }
}

/// Max pooling of NHWC `input` of dims `from` into `out` of dims `to`.
pub(crate) fn max_pool(
    input: &[f32],
    from: &[usize],
    out: &mut [f32],
    to: &[usize],
    pool: [usize; 2],
    stride: [usize; 2],
    pad_before: [i64; 2],
) {
    let (h_in, w_in, channels) = (from[1] as i64, from[2] as i64, from[3]);
    for n in 0..to[0] {
        for y in 0..to[1] {
            for x in 0..to[2] {
                let at = ((n * to[1] + y) * to[2] + x) * channels;
                let cell = &mut out[at..at + channels];
                cell.fill(f32::NEG_INFINITY);
                for dy in 0..pool[0] {
                    let row = (y * stride[0] + dy) as i64 - pad_before[0];
                    if row < 0 || row >= h_in {
                        continue;
                    }
                    for dx in 0..pool[1] {
                        let col = (x * stride[1] + dx) as i64 - pad_before[1];
                        if col < 0 || col >= w_in {
                            continue;
                        }
                        let from_at =
                            ((n * from[1] + row as usize) * from[2] + col as usize) * channels;
                        for (o, &v) in cell.iter_mut().zip(&input[from_at..from_at + channels]) {
                            *o = o.max(v);
                        }
                    }
                }
            }
        }
    }
}

crate::kernel! {
    /// `tfrt_test.global_average_pooling.f32 %input, %output, %chain`: the
    /// mean over height and width of an NHWC image, `[N, C]`.
    fn global_average_pooling(
        input: Argument<HostTensor>,
        output: Argument<HostTensor>,
        _chain: Argument<Chain>,
    ) -> Result<Chain, Diagnostic> {
        let input = dense_of_rank::<f32>(&input, 4, "GlobalAveragePool input")?;
        let output = dense_of_rank::<f32>(&output, 2, "GlobalAveragePool output")?;
        let (from, to) = (dims(input), dims(output));
        if to != [from[0], from[3]] {
            return Err(format!(
                "GlobalAveragePool output shape {} does not match the input shape {}",
                list(&to),
                list(&from)
            )
            .into());
        }
        let (inputs, mut written) = lock_for_update(&[input], output)?;
        global_average(
            view::<f32>(&inputs[0]),
            &from,
            view_mut::<f32>(&mut written),
        );
        Ok(Chain)
    }
}

/// The mean over H and W of NHWC `input` of dims `from`, into `[N, C]`.
pub(crate) fn global_average(input: &[f32], from: &[usize], out: &mut [f32]) {
    let (pixels, channels) = (from[1] * from[2], from[3]);
    for n in 0..from[0] {
        let sums = &mut out[n * channels..(n + 1) * channels];
        sums.fill(0.0);
        for p in 0..pixels {
            let at = (n * pixels + p) * channels;
            for (s, &v) in sums.iter_mut().zip(&input[at..at + channels]) {
                *s += v;
            }
        }
        for s in sums {
            *s /= pixels as f32;
        }
    }
}

crate::kernel! {
    /// `tfrt_test.flatten.f32 %input, %output, %chain`: the elements copied
    /// to an output with the same first dimension and element count.
    fn flatten(
        input: Argument<HostTensor>,
        output: Argument<HostTensor>,
        _chain: Argument<Chain>,
    ) -> Result<Chain, Diagnostic> {
        let (input, output) = (dense_of::<f32>(&input)?, dense_of::<f32>(&output)?);
        let (from, to) = (dims(input), dims(output));
        if from.is_empty()
            || to.is_empty()
            || from[0] != to[0]
            || input.num_elements() != output.num_elements()
        {
            return Err(format!(
                "Flatten output shape {} does not match the input shape {}",
                list(&to),
                list(&from)
            )
            .into());
        }
        let (inputs, mut written) = lock_for_update(&[input], output)?;
        written.copy_from_slice(&inputs[0]);
        Ok(Chain)
    }
}

crate::kernel! {
    /// `tfrt_test.zero_padding.f32 %input, %output, %chain {padding = [h, w]}`:
    /// the NHWC image with `h` rows of zeros above and below and `w` columns
    /// left and right.
    fn zero_padding(
        input: Argument<HostTensor>,
        output: Argument<HostTensor>,
        _chain: Argument<Chain>,
        padding: ArrayAttribute<i32>,
    ) -> Result<Chain, Diagnostic> {
        let input = dense_of_rank::<f32>(&input, 4, "ZeroPadding input")?;
        let output = dense_of_rank::<f32>(&output, 4, "ZeroPadding output")?;
        let pad = pair(&padding, "padding", 0).map_err(|e| match e.starts_with("expects") {
            true => "ZeroPadding expects padding of length 2".to_string(),
            false => format!("ZeroPadding {e}"),
        })?;
        let (from, to) = (dims(input), dims(output));
        let expected = vec![from[0], from[1] + 2 * pad[0], from[2] + 2 * pad[1], from[3]];
        if to != expected {
            return Err(format!(
                "ZeroPadding output shape {} does not match the expected output shape {}",
                list(&to),
                list(&expected)
            )
            .into());
        }
        let (inputs, mut written) = lock_for_update(&[input], output)?;
        let (x, y) = (view::<f32>(&inputs[0]), view_mut::<f32>(&mut written));
        y.fill(0.0);
        let row = from[2] * from[3];
        for n in 0..from[0] {
            for h in 0..from[1] {
                let at = (n * from[1] + h) * row;
                let to_at = ((n * to[1] + h + pad[0]) * to[2] + pad[1]) * to[3];
                y[to_at..to_at + row].copy_from_slice(&x[at..at + row]);
            }
        }
        Ok(Chain)
    }
}

crate::kernel! {
    /// `tfrt_test.softmax_inplace.f32 %a, %chain`: `a = exp(a) / sum(exp(a))`
    /// over the whole tensor, as the reference. The greatest element is
    /// subtracted first (the reference computes it but leaves it unused), so
    /// large inputs do not overflow; the result is the same up to rounding.
    fn softmax_inplace(
        a: Argument<HostTensor>,
        _chain: Argument<Chain>,
    ) -> Result<Chain, Diagnostic> {
        let a = dense_of::<f32>(&a)?;
        softmax(view_mut::<f32>(&mut a.write()?));
        Ok(Chain)
    }
}

/// Softmax over all of `values`, in place.
pub(crate) fn softmax(values: &mut [f32]) {
    let max = values.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut sum = 0.0f32;
    for v in values.iter_mut() {
        *v = (*v - max).exp();
        sum += *v;
    }
    for v in values.iter_mut() {
        *v /= sum;
    }
}

crate::kernel! {
    /// `tfrt_test.gradient_descent.f32 %gradient, %lr, %output, %chain`:
    /// `output -= gradient * lr`, `lr` a one-element tensor.
    fn gradient_descent(
        gradient: Argument<HostTensor>,
        lr: Argument<HostTensor>,
        output: Argument<HostTensor>,
        frame: &KernelFrame,
    ) -> Result<Chain, Diagnostic> {
        let lr = dense_of::<f32>(&lr)?;
        let rate = match view::<f32>(&lr.read()?) {
            [rate] => *rate,
            _ => return Err("GradientDescent lr should have only one element".into()),
        };
        let (gradient, output) = (dense_of::<f32>(&gradient)?, dense_of::<f32>(&output)?);
        Ok(update::<f32, f32>(frame, gradient, output, |g, o| {
            o - g * rate
        })?)
    }
}

crate::kernel! {
    /// `tfrt_test.subtract_inplace.f32 %input, %output, %chain`: `output -= input`.
    fn subtract_inplace(
        input: Argument<HostTensor>,
        output: Argument<HostTensor>,
        _chain: Argument<Chain>,
        frame: &KernelFrame,
    ) -> Result<Chain, Diagnostic> {
        let (input, output) = (dense_of::<f32>(&input)?, dense_of::<f32>(&output)?);
        Ok(update::<f32, f32>(frame, input, output, |x, o| o - x)?)
    }
}

crate::kernel! {
    /// `tfrt_test.tensor_transpose.f32 %input, %output, %chain` (rank 2).
    fn tensor_transpose(
        input: Argument<HostTensor>,
        output: Argument<HostTensor>,
        _chain: Argument<Chain>,
    ) -> Result<Chain, Diagnostic> {
        let input = dense_of_rank::<f32>(&input, 2, "TensorTranspose input")?;
        let output = dense_of_rank::<f32>(&output, 2, "TensorTranspose output")?;
        let (from, to) = (dims(input), dims(output));
        if to != [from[1], from[0]] {
            return Err(format!(
                "TensorTranspose output shape {} does not match the input shape {}",
                list(&to),
                list(&from)
            )
            .into());
        }
        let (inputs, mut written) = lock_for_update(&[input], output)?;
        transpose(
            view::<f32>(&inputs[0]),
            from[0],
            from[1],
            view_mut::<f32>(&mut written),
        );
        Ok(Chain)
    }
}

/// `out` (cols x rows) = the transpose of `input` (rows x cols).
pub(crate) fn transpose(input: &[f32], rows: usize, cols: usize, out: &mut [f32]) {
    for (r, row) in input.chunks_exact(cols.max(1)).take(rows).enumerate() {
        for (c, &v) in row.iter().enumerate() {
            out[c * rows + r] = v;
        }
    }
}

crate::kernel! {
    /// `tfrt_test.mean_axis_zero.f32 %input, %output, %chain`: the mean of
    /// each column of a rank-2 tensor.
    fn mean_axis_zero(
        input: Argument<HostTensor>,
        output: Argument<HostTensor>,
        _chain: Argument<Chain>,
    ) -> Result<Chain, Diagnostic> {
        let input = dense_of_rank::<f32>(&input, 2, "MeanAxisZero input")?;
        let output = dense_of_rank::<f32>(&output, 1, "MeanAxisZero output")?;
        let (from, to) = (dims(input), dims(output));
        if from[1] != to[0] {
            return Err(format!(
                "MeanAxisZero output shape {} does not match the input shape {}",
                list(&to),
                list(&from)
            )
            .into());
        }
        let (inputs, mut written) = lock_for_update(&[input], output)?;
        column_means(
            view::<f32>(&inputs[0]),
            from[0],
            view_mut::<f32>(&mut written),
        );
        Ok(Chain)
    }
}

/// The mean of each column of `input` (`rows` rows of `out.len()`).
pub(crate) fn column_means(input: &[f32], rows: usize, out: &mut [f32]) {
    out.fill(0.0);
    for row in input.chunks_exact(out.len().max(1)).take(rows) {
        for (o, &v) in out.iter_mut().zip(row) {
            *o += v;
        }
    }
    for o in out {
        *o /= rows as f32;
    }
}

crate::kernel! {
    /// `tfrt_test.broadcast_2d.f32 %input, %output, %chain`: `[N, C]` to
    /// `[N, H, W, C]`, each pixel a copy of its image's row.
    fn broadcast_2d(
        input: Argument<HostTensor>,
        output: Argument<HostTensor>,
        _chain: Argument<Chain>,
    ) -> Result<Chain, Diagnostic> {
        let input = dense_of_rank::<f32>(&input, 2, "Broadcast2D input")?;
        let output = dense_of_rank::<f32>(&output, 4, "Broadcast2D output")?;
        let (from, to) = (dims(input), dims(output));
        // The reference reports only when both dimensions differ, and
        // then reads out of bounds when one does; either is an error here.
        if from[0] != to[0] || from[1] != to[3] {
            return Err(format!(
                "Broadcast2D output shape {} does not match the input shape {}",
                list(&to),
                list(&from)
            )
            .into());
        }
        let (inputs, mut written) = lock_for_update(&[input], output)?;
        let (x, y) = (view::<f32>(&inputs[0]), view_mut::<f32>(&mut written));
        let (pixels, channels) = (to[1] * to[2], to[3]);
        for n in 0..to[0] {
            super::mnist::broadcast_rows(
                &x[n * channels..(n + 1) * channels],
                &mut y[n * pixels * channels..(n + 1) * pixels * channels],
            );
        }
        Ok(Chain)
    }
}

pub(super) fn register(registry: &mut KernelRegistry) {
    let kernels: [(&str, crate::exec::Kernel); 10] = [
        ("tfrt_test.max_pooling_2d.f32", max_pooling_2d),
        (
            "tfrt_test.global_average_pooling.f32",
            global_average_pooling,
        ),
        ("tfrt_test.flatten.f32", flatten),
        ("tfrt_test.zero_padding.f32", zero_padding),
        ("tfrt_test.softmax_inplace.f32", softmax_inplace),
        ("tfrt_test.gradient_descent.f32", gradient_descent),
        ("tfrt_test.subtract_inplace.f32", subtract_inplace),
        ("tfrt_test.tensor_transpose.f32", tensor_transpose),
        ("tfrt_test.mean_axis_zero.f32", mean_axis_zero),
        ("tfrt_test.broadcast_2d.f32", broadcast_2d),
    ];
    for (name, kernel) in kernels {
        registry.add_kernel(name, kernel);
    }
}
