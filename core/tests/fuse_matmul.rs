//! `bef opt --fuse-matmul-epilogue` on the digits classifier of
//! `corpus/models/digits/`: the fused program computes the same bits as
//! the program as written, through the library (its layers' scores, on the
//! held-out images and on them repeated until both products are split
//! across the workers) and through the command line (`bef opt | bef
//! translate | bef run`); and a product with bad operands fails with the
//! unfused kernels' messages.

mod common;

use std::sync::{Arc, Mutex, MutexGuard};

use bef::btf::{BtfDType, BtfFile, Payload};
use bef::exec::{AllocatorKind, Input, KernelRegistry, Runner};
use bef::format::DType;
use bef::kernels::tensor::{DenseHostTensor, HostTensor, PARALLEL_WORK, TensorShape};
use bef::passes::fuse_matmul::{fuse_matmul_epilogue, fused_kernel_names};
use bef::runtime::{AsyncValue, Chain, MallocAllocator};
use bef::text::{PrintOptions, parse_module, print_module};

const PROGRAM: &str = "models/digits/digits.mlir";
const WEIGHTS: &str = "models/digits/digits.btf";
const HIDDEN: i64 = 32;
const CLASSES: i64 = 10;

fn source() -> String {
    String::from_utf8(common::read_corpus(PROGRAM)).expect("the program is text")
}

/// The program with its products fused, as `bef opt` prints it; checks
/// that both layers were fused.
fn fused_source() -> String {
    let mut module = parse_module(&source(), "digits.mlir").expect("the program parses");
    assert_eq!(fuse_matmul_epilogue(&mut module), 2, "both layers fuse");
    let text = print_module(&module, PrintOptions::default());
    assert!(
        text.contains("\"tfrt_test.matmul_bias_relu.f32\""),
        "{text}"
    );
    assert!(text.contains("\"tfrt_test.matmul_bias.f32\""), "{text}");
    assert!(!text.contains("tfrt_test.relu_inplace"), "{text}");
    text
}

/// Runs are checked for leaked AsyncValues by a count the whole process
/// shares: the tests that run programs take turns.
fn one_at_a_time() -> MutexGuard<'static, ()> {
    static TURN: Mutex<()> = Mutex::new(());
    TURN.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn runner(queue: &str) -> Runner {
    let mut registry = KernelRegistry::new();
    bef::kernels::register_all(&mut registry);
    Runner::builder(registry)
        .work_queue(queue)
        .allocator(AllocatorKind::LeakCheck)
        .build()
        .expect("runner")
}

/// The held-out images of `digits.btf` (record 4), `copies` times over.
fn images(copies: usize) -> (Vec<u8>, i64) {
    let bytes = common::read_corpus(WEIGHTS);
    let file = BtfFile::parse(&bytes).expect("digits.btf parses");
    let record = file.record(4).expect("record 4 reads");
    assert_eq!(record.dtype, BtfDType::F32);
    let Payload::Dense { data, .. } = record.payload else {
        panic!("record 4 is not dense");
    };
    let rows = record.dims[0] as i64 * copies as i64;
    (data.repeat(copies), rows)
}

/// The scores `@forward` computes for `images` (`rows` of 64 pixels) in
/// `program`, as bytes, run from the repository's root (the program
/// names its BTF file from there).
fn scores(program: &str, queue: &str, images: &[u8], rows: i64) -> Vec<u8> {
    std::env::set_current_dir(common::repo_root()).expect("the repository root exists");
    let runner = runner(queue);
    let input = Input::from_bytes(program.as_bytes(), "digits.mlir").expect("the program reads");
    let program = runner.load(input).expect("the program translates");
    let forward = runner.function(&program, "forward").expect("@forward");
    let tensor = DenseHostTensor::from_bytes(
        DType::F32,
        TensorShape(vec![rows, 64]),
        images,
        Arc::new(MallocAllocator),
    )
    .expect("the images make a tensor");
    let args = [
        AsyncValue::available(HostTensor::Dense(tensor)),
        AsyncValue::available(TensorShape(vec![rows, HIDDEN])),
        AsyncValue::available(TensorShape(vec![rows, CLASSES])),
        AsyncValue::available(Chain),
    ];
    let call = runner.call(&forward, &args, None).expect("the call starts");
    assert!(
        call.results()[1].is_concrete(),
        "@forward completes its chain"
    );
    let bytes = {
        let scores = call.results()[0]
            .get::<HostTensor>()
            .expect("a tensor result")
            .dense()
            .expect("a dense tensor");
        assert_eq!(scores.shape().0, [rows, CLASSES]);
        scores.read().expect("readable").to_vec()
    };
    assert!(call.finish().is_clean(), "the call leaks nothing");
    bytes
}

#[test]
fn fused_digits_scores_are_the_same_bits() {
    let _turn = one_at_a_time();
    let fused = fused_source();
    let unfused = source();
    // The held-out images, then ten times as many: 3,600 rows make both
    // products large enough to be split across the workers.
    for copies in [1, 10] {
        let (pixels, rows) = images(copies);
        if copies == 10 {
            assert!((rows * 64 * HIDDEN) as usize >= PARALLEL_WORK);
            assert!((rows * HIDDEN * CLASSES) as usize >= PARALLEL_WORK);
        }
        for queue in ["s", "mstd:2"] {
            let want = scores(&unfused, queue, &pixels, rows);
            let got = scores(&fused, queue, &pixels, rows);
            assert!(
                want == got,
                "{rows} images under {queue}: the fused scores differ"
            );
        }
    }
}

/// What `bef run` prints for `@digits` and `@predictions`.
fn run_output(args: &[&str], stdin: Option<&[u8]>) -> String {
    let out = common::bef(args, stdin);
    let stdout = common::text(&out.stdout);
    assert!(
        out.status.success(),
        "bef {args:?}: {stdout}{}",
        common::text(&out.stderr)
    );
    stdout
}

#[test]
fn fused_through_the_command_line_prints_the_same_accuracy() {
    let program = common::corpus_path(PROGRAM);
    let program = program.to_str().expect("a UTF-8 path");
    let out = common::bef(
        &[
            "opt",
            "--allow-unregistered-dialect",
            "--fuse-matmul-epilogue",
            program,
        ],
        None,
    );
    assert!(out.status.success(), "{}", common::text(&out.stderr));
    let fused_text = common::text(&out.stdout);
    assert!(fused_text.contains("tfrt_test.matmul_bias_relu.f32"));
    let bef = common::bef(&["translate", "--mlir-to-bef"], Some(&out.stdout));
    assert!(bef.status.success(), "{}", common::text(&bef.stderr));
    for queue in ["s", "mstd:2"] {
        let functions = ["--functions", "digits,predictions", "--work-queue", queue];
        let mut unfused_args = vec!["run", program];
        unfused_args.extend(functions);
        let want = run_output(&unfused_args, None);
        let mut fused_args = vec!["run", "-"];
        fused_args.extend(functions);
        let got = run_output(&fused_args, Some(&bef.stdout));
        assert!(want.contains("values = [9.694445e-01]"), "{want}");
        assert_eq!(got, want, "under {queue}");
    }
}

/// A layer whose operands are given by `@layer`'s caller.
const LAYER: &str = r#"
func.func @layer(%x: !t.tensor, %w: !t.tensor, %b: !t.tensor, %shape: !ts.shape, %ch0: !tfrt.chain) -> (!t.tensor, !tfrt.chain) {
  %one = tfrt.constant.f32 1.0
  %c = "tfrt_test.broadcast.f32.2"(%b, %shape, %ch0) : (!t.tensor, !ts.shape, !tfrt.chain) -> !t.tensor
  %ch1 = "tfrt_test.matmul.f32.2"(%one, %x, %w, %one, %c, %ch0) : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %ch2 = "tfrt_test.relu_inplace.f32"(%c, %ch1) : (!t.tensor, !tfrt.chain) -> !tfrt.chain
  tfrt.return %c, %ch2 : !t.tensor, !tfrt.chain
}
"#;

fn zeros(dims: &[i64]) -> AsyncValue {
    let count: i64 = dims.iter().product();
    let tensor = DenseHostTensor::from_bytes(
        DType::F32,
        TensorShape(dims.to_vec()),
        &vec![0u8; 4 * count as usize],
        Arc::new(MallocAllocator),
    )
    .expect("the tensor is made");
    AsyncValue::available(HostTensor::Dense(tensor))
}

/// The error messages of `@layer`'s two results (none for a value), in
/// `program`, for operands of these shapes.
fn layer_errors(program: &str, x: &[i64], w: &[i64], b: &[i64], shape: &[i64]) -> Vec<String> {
    let program_text = program;
    let runner = runner("s");
    let input = Input::from_bytes(program.as_bytes(), "layer.mlir").expect("the program reads");
    let program = runner.load(input).expect("the program translates");
    let layer = runner.function(&program, "layer").expect("@layer");
    let args = [
        zeros(x),
        zeros(w),
        zeros(b),
        AsyncValue::available(TensorShape(shape.to_vec())),
        AsyncValue::available(Chain),
    ];
    let call = runner.call(&layer, &args, None).expect("the call starts");
    let errors = call
        .results()
        .iter()
        .map(|r| {
            r.error_diagnostic()
                .map(|e| e.message.clone())
                .unwrap_or_default()
        })
        .collect();
    let report = call.finish();
    assert!(
        report.is_clean(),
        "the call leaks {report:?}:\n{program_text}"
    );
    errors
}

#[test]
fn bad_operands_fail_with_the_unfused_messages() {
    let _turn = one_at_a_time();
    let mut module = parse_module(LAYER, "layer.mlir").expect("the layer parses");
    assert_eq!(fuse_matmul_epilogue(&mut module), 1);
    let fused = print_module(&module, PrintOptions::default());
    let cases: [(&str, [&[i64]; 4], &str); 4] = [
        (
            "inner dimensions",
            [&[2, 3], &[4, 5], &[5], &[2, 5]],
            "inner dimension mismatch",
        ),
        (
            "output shape",
            [&[2, 3], &[3, 5], &[5], &[4, 5]],
            "does not match product shape",
        ),
        (
            "bias and shape",
            [&[2, 3], &[3, 5], &[4], &[2, 5]],
            "broadcast input tensor dimension and target shape mismatch",
        ),
        (
            "bias rank",
            [&[2, 3], &[3, 5], &[1, 5], &[2, 5]],
            "broadcast input must have rank 1",
        ),
    ];
    for (case, [x, w, b, shape], expected) in cases {
        let want = layer_errors(LAYER, x, w, b, shape);
        let got = layer_errors(&fused, x, w, b, shape);
        assert!(want[1].contains(expected), "{case}: {want:?}");
        assert_eq!(got, want, "{case}");
    }
    // Good operands: no error either way.
    let shapes: [&[i64]; 4] = [&[2, 3], &[3, 5], &[5], &[2, 5]];
    let [x, w, b, shape] = shapes;
    assert_eq!(layer_errors(&fused, x, w, b, shape), ["", ""]);
}

#[test]
fn every_fused_kernel_the_pass_writes_is_registered() {
    let mut registry = KernelRegistry::new();
    bef::kernels::register_all(&mut registry);
    for name in fused_kernel_names() {
        assert!(registry.kernel(&name).is_some(), "{name} is not registered");
    }
}

/// A layer of `dtype` with product `product`, its tensor and chain
/// returned.
fn typed_layer(dtype: &str, product: &str) -> String {
    LAYER
        .replace(
            "tfrt.constant.f32 1.0",
            &format!(
                "tfrt.constant.{dtype} {}",
                if dtype == "f32" { "1.0" } else { "1" }
            ),
        )
        .replace(".f32", &format!(".{dtype}"))
        .replace("(f32,", &format!("({dtype},"))
        .replace(", f32,", &format!(", {dtype},"))
        .replace("\"tfrt_test.matmul.", &format!("\"{product}"))
}

/// A tensor of `dims` with small values of both signs, as `bytes_of`
/// writes them.
fn mixed(dtype: DType, dims: &[i64], seed: i64, bytes_of: ElementBytes) -> AsyncValue {
    let count: i64 = dims.iter().product();
    let bytes: Vec<u8> = (0..count)
        .flat_map(|i| bytes_of((i * 7919 + seed * 104_729) % 13 - 6))
        .collect();
    let tensor = DenseHostTensor::from_bytes(
        dtype,
        TensorShape(dims.to_vec()),
        &bytes,
        Arc::new(MallocAllocator),
    )
    .expect("the tensor is made");
    AsyncValue::available(HostTensor::Dense(tensor))
}

/// How a test writes one element of a dtype, from a small integer.
type ElementBytes = fn(i64) -> Vec<u8>;

/// The sizes (m, k, n) of the layers `layer_output` runs.
const LAYER_SIZES: (i64, i64, i64) = (300, 64, 64);

/// `@layer`'s tensor, as bytes, from two calls on the same operands (the
/// second may multiply by weights packed on the first).
fn layer_output(program: &str, queue: &str, dtype: DType, bytes_of: ElementBytes) -> [Vec<u8>; 2] {
    let program_text = program;
    let runner = runner(queue);
    let input = Input::from_bytes(program.as_bytes(), "layer.mlir").expect("the program reads");
    let program = runner.load(input).expect("the program translates");
    let layer = runner.function(&program, "layer").expect("@layer");
    let (m, k, n) = LAYER_SIZES;
    let args = [
        mixed(dtype, &[m, k], 1, bytes_of),
        mixed(dtype, &[k, n], 2, bytes_of),
        mixed(dtype, &[n], 3, bytes_of),
        AsyncValue::available(TensorShape(vec![m, n])),
        AsyncValue::available(Chain),
    ];
    [0, 1].map(|_| {
        let call = runner.call(&layer, &args, None).expect("the call starts");
        assert!(call.results()[1].is_concrete(), "the layer succeeds");
        let bytes = {
            let c = call.results()[0].get::<HostTensor>().expect("a tensor");
            let bytes = c.dense().expect("dense").read().expect("readable").to_vec();
            // ReLU left zeros and positive values.
            assert!(bytes.iter().any(|&b| b != 0));
            bytes
        };
        let report = call.finish();
        assert!(
            report.is_clean(),
            "under {queue} the call leaks {report:?}:\n{program_text}"
        );
        bytes
    })
}

#[test]
fn every_dtype_and_product_fuses_to_the_same_bits() {
    let _turn = one_at_a_time();
    // Large enough to be split across the workers.
    const { assert!((LAYER_SIZES.0 * LAYER_SIZES.1 * LAYER_SIZES.2) as usize >= PARALLEL_WORK) };
    let f32_bytes: ElementBytes = |v| (v as f32 * 0.37).to_le_bytes().to_vec();
    let i32_bytes: ElementBytes = |v| (v as i32).to_le_bytes().to_vec();
    let i64_bytes: ElementBytes = |v| v.to_le_bytes().to_vec();
    let cases = [
        ("f32", "tfrt_test.matmul.", DType::F32, f32_bytes),
        ("f32", "eigen.matmul.", DType::F32, f32_bytes),
        ("i32", "tfrt_test.matmul.", DType::I32, i32_bytes),
        ("i32", "eigen.matmul.", DType::I32, i32_bytes),
        ("i64", "tfrt_test.matmul.", DType::I64, i64_bytes),
    ];
    let scaled = typed_layer("f32", "tfrt_test.matmul.").replace(
        "(%one, %x, %w, %one, %c, %ch0)",
        "(%half, %x, %w, %zero, %c, %ch0)",
    );
    let scaled = scaled.replacen(
        "%one = tfrt.constant.f32 1.0",
        "%one = tfrt.constant.f32 1.0\n  %half = tfrt.constant.f32 0.5\n  %zero = tfrt.constant.f32 0.0",
        1,
    );
    assert!(scaled.contains("%half, %x"));
    let mut sources: Vec<(String, &str, &str, DType, ElementBytes)> = cases
        .iter()
        .map(|&(dtype, product, kind, bytes_of)| {
            (typed_layer(dtype, product), dtype, product, kind, bytes_of)
        })
        .collect();
    // C = 0.5 A B: beta 0, so the bias is not read.
    sources.push((scaled, "f32", "tfrt_test.matmul.", DType::F32, f32_bytes));
    for (mut source, dtype, product, kind, bytes_of) in sources {
        if product == "eigen.matmul." {
            source = source.replace(
                &format!("eigen.matmul.{dtype}.2"),
                &format!("eigen.matmul.{dtype}"),
            );
        }
        let mut module = parse_module(&source, "layer.mlir").expect("the layer parses");
        assert_eq!(fuse_matmul_epilogue(&mut module), 1, "{source}");
        let fused = print_module(&module, PrintOptions::default());
        assert!(
            fused.contains(&format!("tfrt_test.matmul_bias_relu.{dtype}")),
            "{fused}"
        );
        for queue in ["s", "mstd:2"] {
            let want = layer_output(&source, queue, kind, bytes_of);
            let got = layer_output(&fused, queue, kind, bytes_of);
            assert!(
                want == got,
                "{dtype} {product} under {queue}: the fused tensor differs"
            );
        }
    }
}
