//! Products with weights that stay the same are computed from a packed B
//! kept between calls (on CPUs with AVX-512); a kernel writing B must make
//! the next product use the new values. Run through the runtime on both
//! queues, the product large enough to be split across the workers.

use std::sync::Arc;

use bef::exec::{AllocatorKind, Input, KernelRegistry, Runner};
use bef::format::DType;
use bef::kernels::tensor::packed_gemm;
use bef::kernels::tensor::{DenseHostTensor, HostTensor, TensorShape};
use bef::runtime::{AsyncValue, Chain, MallocAllocator};

const PROGRAM: &str = r#"
func.func @product(%a: !t.tensor, %b: !t.tensor, %c: !t.tensor, %ch0: !tfrt.chain) -> !tfrt.chain {
  %one = tfrt.constant.f32 1.0
  %zero = tfrt.constant.f32 0.0
  %ch1 = "tfrt_test.matmul.f32.2"(%one, %a, %b, %zero, %c, %ch0) : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  tfrt.return %ch1 : !tfrt.chain
}

func.func @overwrite(%b: !t.tensor, %ch0: !tfrt.chain) -> !tfrt.chain {
  %ch1 = tfrt_dht.fill_tensor_with_constant.f32 %b, %ch0 2.0 : f32
  tfrt.return %ch1 : !tfrt.chain
}
"#;

/// A product of over `PARALLEL_WORK` multiply-adds, so `mstd:2` splits it.
const M: usize = 64;
const K: usize = 129;
const N: usize = 161;

fn tensor(rows: usize, cols: usize, values: &[f32]) -> AsyncValue {
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
    let shape = TensorShape(vec![rows as i64, cols as i64]);
    let dense = DenseHostTensor::from_bytes(DType::F32, shape, &bytes, Arc::new(MallocAllocator))
        .expect("the tensor is made");
    AsyncValue::available(HostTensor::Dense(dense))
}

fn elements(value: &AsyncValue) -> Vec<f32> {
    let tensor = value.get::<HostTensor>().expect("a tensor");
    let dense = tensor.dense().expect("dense");
    let bytes = dense.read().expect("readable");
    bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
        .collect()
}

/// `a b` for small integers: exact in f32 whatever the order of the sums.
fn expected(a: &[f32], b: &[f32]) -> Vec<f32> {
    let mut out = vec![0.0; M * N];
    for i in 0..M {
        for j in 0..N {
            out[i * N + j] = (0..K).map(|p| a[i * K + p] * b[p * N + j]).sum();
        }
    }
    out
}

#[test]
fn writing_the_weights_replaces_their_packed_form() {
    const { assert!(M * K * N >= bef::kernels::tensor::PARALLEL_WORK) };
    let a: Vec<f32> = (0..M * K).map(|i| (i % 5) as f32 - 2.0).collect();
    let b: Vec<f32> = (0..K * N).map(|i| (i % 7) as f32 - 3.0).collect();
    for queue in ["s", "mstd:2"] {
        let mut registry = KernelRegistry::new();
        bef::kernels::register_all(&mut registry);
        let runner = Runner::builder(registry)
            .work_queue(queue)
            .allocator(AllocatorKind::Malloc)
            .build()
            .expect("runner");
        let program = runner
            .load(Input::from_bytes(PROGRAM.as_bytes(), "packed.mlir").expect("reads"))
            .expect("translates");
        let product = runner.function(&program, "product").expect("@product");
        let overwrite = runner.function(&program, "overwrite").expect("@overwrite");
        let args = [
            tensor(M, K, &a),
            tensor(K, N, &b),
            tensor(M, N, &vec![f32::NAN; M * N]),
            AsyncValue::available(Chain),
        ];
        let run = |function, args: &[AsyncValue]| {
            let call = runner.call(function, args, None).expect("the call starts");
            assert!(call.results()[0].is_concrete(), "the call succeeds");
            assert!(call.finish().is_clean());
        };

        let before = expected(&a, &b);
        // The first call packs nothing (and drops the packed forms of
        // tensors gone), the second packs B, the third reuses it.
        let mut held = 0;
        for call in 0..3 {
            run(&product, &args);
            assert_eq!(elements(&args[2]), before, "{queue}: call {call}");
            if call == 0 {
                held = packed_gemm::cached_bytes();
            }
        }
        if packed_gemm::supported() {
            assert!(
                packed_gemm::cached_bytes() >= held + K * N * 4,
                "{queue}: B is packed and kept"
            );
        }

        run(&overwrite, &[args[1].clone(), args[3].clone()]);
        let after = expected(&a, &vec![2.0; K * N]);
        assert_ne!(before, after);
        for call in 0..3 {
            run(&product, &args);
            assert_eq!(
                elements(&args[2]),
                after,
                "{queue}: call {call} after the write"
            );
        }
    }
}
