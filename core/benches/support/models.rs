//! The programs and arguments of the model benchmarks (`benches/models.rs`),
//! shared with the `packed_weights` example so both run the same pass.

use std::sync::Arc;

use bef::exec::{AllocatorKind, Function, Input, KernelRegistry, Runner};
use bef::format::DType;
use bef::kernels::tensor::{DenseHostTensor, HostTensor, TensorShape};
use bef::runtime::{AsyncValue, Chain, MallocAllocator};

pub const QUEUES: [&str; 2] = ["s", "mstd:2"];
pub const BATCH: i64 = 100;
pub const INPUTS: i64 = 784;
pub const HIDDEN: i64 = 512;
pub const CLASSES: i64 = 10;

/// The two benchmarked functions. `@mlp_forward` is the computation of
/// `bm_mnist`, written for this benchmark.
pub const PROGRAM: &str = r#"
func.func @matmul(%a: !t.tensor, %b: !t.tensor, %c: !t.tensor, %ch0: !tfrt.chain) -> !tfrt.chain {
  %one = tfrt.constant.f32 1.0
  %zero = tfrt.constant.f32 0.0
  %ch1 = "tfrt_test.matmul.f32.2"(%one, %a, %b, %zero, %c, %ch0) : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  tfrt.return %ch1 : !tfrt.chain
}

func.func @mlp_forward(%w1: !t.tensor, %b1: !t.tensor, %w2: !t.tensor, %b2: !t.tensor,
                       %x: !t.tensor, %labels: !t.tensor, %ch0: !tfrt.chain) -> !t.tensor {
  %one = tfrt.constant.f32 1.0
  %hidden_shape = ts.build_shape [100 : i64, 512 : i64]
  %hidden = "tfrt_test.broadcast.f32.2"(%b1, %hidden_shape, %ch0) : (!t.tensor, !ts.shape, !tfrt.chain) -> !t.tensor
  %ch1 = "tfrt_test.matmul.f32.2"(%one, %x, %w1, %one, %hidden, %ch0) : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %ch2 = "tfrt_test.relu_inplace.f32"(%hidden, %ch1) : (!t.tensor, !tfrt.chain) -> !tfrt.chain
  %scores_shape = ts.build_shape [100 : i64, 10 : i64]
  %scores = "tfrt_test.broadcast.f32.2"(%b2, %scores_shape, %ch0) : (!t.tensor, !ts.shape, !tfrt.chain) -> !t.tensor
  %ch3 = "tfrt_test.matmul.f32.2"(%one, %hidden, %w2, %one, %scores, %ch2) : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %predicted = "tfrt_test.argmax.f32.2"(%scores, %ch3) : (!t.tensor, !tfrt.chain) -> !t.tensor
  %ch4 = "tfrt_test.equal_inplace.i32"(%labels, %predicted, %ch3) : (!t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %correct = "tfrt_dht.create_uninitialized_tensor.f32.1"() { shape = [100 : i64] } : () -> !t.tensor
  %ch5 = "tfrt_test.cast.i32_to_f32"(%predicted, %correct, %ch4) : (!t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %accuracy = "tfrt_test.reduce_mean.f32.1"(%correct, %ch5) : (!t.tensor, !tfrt.chain) -> !t.tensor
  tfrt.return %accuracy : !t.tensor
}
"#;

pub fn runner(queue: &str) -> Runner {
    let mut registry = KernelRegistry::new();
    bef::kernels::register_all(&mut registry);
    Runner::builder(registry)
        .work_queue(queue)
        .allocator(AllocatorKind::Malloc)
        .build()
        .expect("valid work queue")
}

pub fn function(runner: &Runner, name: &str) -> Function {
    let input = Input::from_bytes(PROGRAM.as_bytes(), "models.mlir").expect("the program reads");
    let program = runner.load(input).expect("the program translates");
    runner
        .function(&program, name)
        .expect("the function exists")
}

/// A dense tensor of `dims` whose elements are all `value`.
pub fn filled<T: Copy>(
    dtype: DType,
    dims: &[i64],
    value: T,
    to_bytes: fn(T) -> [u8; 4],
) -> AsyncValue {
    let count: i64 = dims.iter().product();
    let bytes: Vec<u8> = (0..count).flat_map(|_| to_bytes(value)).collect();
    let tensor = DenseHostTensor::from_bytes(
        dtype,
        TensorShape(dims.to_vec()),
        &bytes,
        Arc::new(MallocAllocator),
    )
    .expect("the tensor is made");
    AsyncValue::available(HostTensor::Dense(tensor))
}

pub fn f32s(dims: &[i64], value: f32) -> AsyncValue {
    filled(DType::F32, dims, value, f32::to_le_bytes)
}

pub fn call(runner: &Runner, function: &Function, args: &[AsyncValue]) {
    let call = runner.call(function, args, None).expect("the call starts");
    assert!(call.results()[0].is_concrete(), "the call succeeds");
    call.finish();
}

/// The arguments of `@mlp_forward`: weights of ones as `bm_mnist` fills
/// them, and labels.
pub fn mlp_args() -> [AsyncValue; 7] {
    [
        f32s(&[INPUTS, HIDDEN], 1.0),
        f32s(&[HIDDEN], 1.0),
        f32s(&[HIDDEN, CLASSES], 1.0),
        f32s(&[CLASSES], 1.0),
        f32s(&[BATCH, INPUTS], 1.0),
        filled(DType::I32, &[BATCH], 7i32, i32::to_le_bytes),
        AsyncValue::available(Chain),
    ]
}

/// `c = a b` through `gemm` as `tfrt_test.matmul` calls it (row-major,
/// `beta == 0`): gemm computes the transposed product.
pub fn gemm_product(m: usize, k: usize, n: usize, a: &[f32], b: &[f32], c: &mut [f32]) {
    assert_eq!((a.len(), b.len(), c.len()), (m * k, k * n, m * n));
    // SAFETY: the slices have the sizes checked above; c is borrowed
    // exclusively and a, b shared for the call.
    unsafe {
        gemm::gemm(
            m,
            n,
            k,
            c.as_mut_ptr(),
            1,
            n as isize,
            false,
            a.as_ptr(),
            1,
            k as isize,
            b.as_ptr(),
            1,
            n as isize,
            0.0,
            1.0,
            false,
            false,
            false,
            gemm::Parallelism::None,
        )
    }
}
