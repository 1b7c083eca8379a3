//! The digits classifier of `corpus/models/digits/`: the network is
//! recomputed here in plain Rust from the same BTF file, and its
//! predictions and accuracy must equal those of the BEF program, run both
//! through the library and through `bef run` (the README's first command).

mod common;

use bef::btf::{BtfDType, BtfFile, Payload};
use bef::exec::{AllocatorKind, Input, KernelRegistry, Runner};
use bef::kernels::tensor::HostTensor;

const PROGRAM: &str = "corpus/models/digits/digits.mlir";
const WEIGHTS: &str = "models/digits/digits.btf";

/// A dense f32 or i32 record of the file: its dims and elements.
struct Tensor<T> {
    dims: Vec<usize>,
    values: Vec<T>,
}

fn dense<T>(
    file: &BtfFile<'_>,
    index: u64,
    dtype: BtfDType,
    decode: fn([u8; 4]) -> T,
) -> Tensor<T> {
    let record = file.record(index).expect("record reads");
    assert_eq!(record.dtype, dtype, "record {index}'s dtype");
    let Payload::Dense { data, .. } = record.payload else {
        panic!("record {index} is not dense");
    };
    Tensor {
        dims: record.dims.iter().map(|&d| d as usize).collect(),
        values: data
            .chunks_exact(4)
            .map(|c| decode(c.try_into().expect("4 bytes")))
            .collect(),
    }
}

/// `x [n, k] × w [k, m] + b [m]`, row by row, as f32.
fn affine(x: &[f32], n: usize, w: &Tensor<f32>, b: &Tensor<f32>) -> Vec<f32> {
    let (k, m) = (w.dims[0], w.dims[1]);
    assert_eq!(x.len(), n * k);
    let mut out = Vec::with_capacity(n * m);
    for row in x.chunks_exact(k) {
        for j in 0..m {
            let dot: f32 = (0..k).map(|i| row[i] * w.values[i * m + j]).sum();
            out.push(dot + b.values[j]);
        }
    }
    out
}

/// The first index of the largest score of each row, as `argmax` defines it.
fn argmax_rows(scores: &[f32], width: usize) -> Vec<i32> {
    scores
        .chunks_exact(width)
        .map(|row| {
            let mut best = 0;
            for (j, &s) in row.iter().enumerate() {
                if s > row[best] {
                    best = j;
                }
            }
            best as i32
        })
        .collect()
}

/// The predictions and labels computed here from the BTF file.
fn reference_predictions() -> (Vec<i32>, Vec<i32>) {
    let bytes = common::read_corpus(WEIGHTS);
    let file = BtfFile::parse(&bytes).expect("digits.btf parses");
    let f32s = |i| dense(&file, i, BtfDType::F32, f32::from_le_bytes);
    let (w1, b1, w2, b2, images) = (f32s(0), f32s(1), f32s(2), f32s(3), f32s(4));
    let labels = dense(&file, 5, BtfDType::I32, i32::from_le_bytes);
    let n = images.dims[0];
    let hidden: Vec<f32> = affine(&images.values, n, &w1, &b1)
        .into_iter()
        .map(|v| v.max(0.0))
        .collect();
    let scores = affine(&hidden, n, &w2, &b2);
    (argmax_rows(&scores, w2.dims[1]), labels.values)
}

/// The predictions of the program's `@predictions`, run by the library
/// from the repository's root (where the program's BTF path is rooted).
fn program_predictions(queue: &str) -> Vec<i32> {
    std::env::set_current_dir(common::repo_root()).expect("the repository root exists");
    let mut registry = KernelRegistry::new();
    bef::kernels::register_all(&mut registry);
    let runner = Runner::builder(registry)
        .work_queue(queue)
        .allocator(AllocatorKind::LeakCheck)
        .build()
        .expect("runner");
    let program = runner
        .load(Input::read(PROGRAM).expect("program reads"))
        .expect("program translates");
    let function = runner
        .function(&program, "predictions")
        .expect("@predictions");
    let call = runner.call(&function, &[], None).expect("runs");
    let predicted = {
        let tensor = call.results()[0]
            .get::<HostTensor>()
            .expect("a tensor result")
            .dense()
            .expect("a dense tensor");
        assert_eq!(tensor.shape().0, [360]);
        let buffer = tensor.read().expect("readable");
        buffer
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes(c.try_into().expect("4 bytes")))
            .collect()
    };
    assert!(call.finish().is_clean(), "the call leaks nothing");
    predicted
}

#[test]
fn the_program_predicts_what_plain_rust_computes() {
    let (expected, labels) = reference_predictions();
    assert_eq!(expected.len(), 360);
    for queue in ["s", "mstd:2"] {
        let predicted = program_predictions(queue);
        let differing: Vec<usize> = (0..expected.len())
            .filter(|&i| predicted[i] != expected[i])
            .collect();
        assert!(
            differing.is_empty(),
            "under {queue}, images {differing:?} are classified differently"
        );
    }

    // `bef run` prints the same accuracy.
    let correct = expected.iter().zip(&labels).filter(|(p, l)| p == l).count();
    let accuracy = correct as f32 / labels.len() as f32;
    assert!(accuracy > 0.9, "the network learned something: {accuracy}");
    let out = common::bef(&["run", PROGRAM, "--functions", "digits"], None);
    let stdout = common::text(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        common::text(&out.stderr)
    );
    let prefix = "DenseHostTensor dtype = f32, shape = [], values = [";
    let printed: f32 = stdout
        .lines()
        .find_map(|l| l.strip_prefix(prefix)?.strip_suffix(']'))
        .unwrap_or_else(|| panic!("no accuracy line in:\n{stdout}"))
        .parse()
        .expect("the accuracy is a number");
    // Printed with 7 significant digits.
    assert!(
        (printed - accuracy).abs() <= 1e-6,
        "bef run printed {printed}, plain Rust computes {accuracy}"
    );
}
