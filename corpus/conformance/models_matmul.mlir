// Matrix products C = alpha * A B + beta * C (`tfrt_test.matmul.T.2` for
// f32, i32 and i64, and `eigen.matmul.T`), with beta 0 (C not read) and
// not; a product large enough to be split across the workers of mstd:2;
// C given as one of its own inputs; and the shape and dtype errors, each
// at the kernel's line.
// RUN: bef run --verify-diagnostics %s | FileCheck %s
// RUN: bef run --verify-diagnostics --work-queue mstd:2 %s | FileCheck %s

// CHECK-LABEL: --- Running 'products':
func.func @products() {
  %ch0 = tfrt.new.chain
  %a = tfrt_dht.create_uninitialized_tensor.i32.2 [2 : i64, 3 : i64]
  %ch1 = tfrt_dht.set_tensor_with_constant_values.i32 %a, %ch0 [1 : i32, 2 : i32, 3 : i32, 4 : i32, 5 : i32, 6 : i32]
  %b = tfrt_dht.create_uninitialized_tensor.i32.2 [3 : i64, 2 : i64]
  %ch2 = tfrt_dht.set_tensor_with_constant_values.i32 %b, %ch1 [1 : i32, 0 : i32, 0 : i32, 1 : i32, 1 : i32, 1 : i32]
  %c = tfrt_dht.create_uninitialized_tensor.i32.2 [2 : i64, 2 : i64]
  %ch3 = tfrt_dht.fill_tensor_with_constant.i32 %c, %ch2 100 : i32
  %one = tfrt.constant.i32 1
  %two = tfrt.constant.i32 2
  %zero = tfrt.constant.i32 0
  %ch4 = "tfrt_test.matmul.i32.2"(%two, %a, %b, %zero, %c, %ch3)
    : (i32, !t.tensor, !t.tensor, i32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  // CHECK-NEXT: DenseHostTensor dtype = i32, shape = [2, 2], values = [8, 10, 20, 22]
  %ch5 = tfrt_dht.print_tensor %c, %ch4
  %ch6 = "eigen.matmul.i32"(%one, %a, %b, %one, %c, %ch5)
    : (i32, !t.tensor, !t.tensor, i32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  // CHECK-NEXT: DenseHostTensor dtype = i32, shape = [2, 2], values = [12, 15, 30, 33]
  %ch7 = tfrt_dht.print_tensor %c, %ch6

  %x = tfrt_dht.create_uninitialized_tensor.i64.2 [1 : i64, 2 : i64]
  %ch8 = tfrt_dht.set_tensor_with_constant_values.i64 %x, %ch7 [3 : i64, -4 : i64]
  %y = tfrt_dht.create_uninitialized_tensor.i64.2 [2 : i64, 1 : i64]
  %ch9 = tfrt_dht.set_tensor_with_constant_values.i64 %y, %ch8 [5 : i64, 6 : i64]
  %z = tfrt_dht.create_uninitialized_tensor.i64.2 [1 : i64, 1 : i64]
  %one64 = tfrt.constant.i64 1
  %zero64 = tfrt.constant.i64 0
  %ch10 = "tfrt_test.matmul.i64.2"(%one64, %x, %y, %zero64, %z, %ch9)
    : (i64, !t.tensor, !t.tensor, i64, !t.tensor, !tfrt.chain) -> !tfrt.chain
  // CHECK-NEXT: DenseHostTensor dtype = i64, shape = [1, 1], values = [-9]
  %ch11 = tfrt_dht.print_tensor %z, %ch10

  // f32, C = 0.5 * A A + 2 * C with A square and C the identity.
  %f = tfrt_dht.create_uninitialized_tensor.f32.2 [2 : i64, 2 : i64]
  %ch12 = tfrt_dht.set_tensor_with_constant_values.f32 %f, %ch11 [1.0 : f32, 2.0 : f32, 3.0 : f32, 4.0 : f32]
  %g = tfrt_dht.create_uninitialized_tensor.f32.2 [2 : i64, 2 : i64]
  %ch13 = tfrt_dht.set_tensor_with_constant_values.f32 %g, %ch12 [1.0 : f32, 0.0 : f32, 0.0 : f32, 1.0 : f32]
  %half = tfrt.constant.f32 0.5
  %twof = tfrt.constant.f32 2.0
  %ch14 = "eigen.matmul.f32"(%half, %f, %f, %twof, %g, %ch13)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  // CHECK-NEXT: DenseHostTensor dtype = f32, shape = [2, 2], values = [5.500000e+00, 5.000000e+00, 7.500000e+00, 1.300000e+01]
  %ch15 = tfrt_dht.print_tensor %g, %ch14

  // C is also A: the product reads A as it was.
  %onef = tfrt.constant.f32 1.0
  %zerof = tfrt.constant.f32 0.0
  %ch16 = "tfrt_test.matmul.f32.2"(%onef, %f, %f, %zerof, %f, %ch15)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  // CHECK-NEXT: DenseHostTensor dtype = f32, shape = [2, 2], values = [7.000000e+00, 1.000000e+01, 1.500000e+01, 2.200000e+01]
  %ch17 = tfrt_dht.print_tensor %f, %ch16
  tfrt.return
}

// CHECK-LABEL: --- Running 'large_product':
func.func @large_product() {
  %ch0 = tfrt.new.chain
  %one = tfrt.constant.f32 1.0
  %zero = tfrt.constant.f32 0.0
  %a = tfrt_dht.create_uninitialized_tensor.f32.2 [130 : i64, 128 : i64]
  %ch1 = tfrt_dht.fill_tensor_with_constant.f32 %a, %ch0 0.5 : f32
  %b = tfrt_dht.create_uninitialized_tensor.f32.2 [128 : i64, 96 : i64]
  %ch2 = tfrt_dht.fill_tensor_with_constant.f32 %b, %ch1 3.0 : f32
  %c = tfrt_dht.create_uninitialized_tensor.f32.2 [130 : i64, 96 : i64]
  %ch3 = "tfrt_test.matmul.f32.2"(%one, %a, %b, %zero, %c, %ch2)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %expected = tfrt_dht.create_uninitialized_tensor.f32.2 [130 : i64, 96 : i64]
  %ch4 = tfrt_dht.fill_tensor_with_constant.f32 %expected, %ch3 192.0 : f32
  %same, %ch5 = tfrt_dht.tensor_equal.f32 %c, %expected, %ch4
  // CHECK-NEXT: int1 = 1
  tfrt.print.i1 %same, %ch5
  tfrt.return
}

// CHECK-LABEL: --- Running 'shape_errors':
func.func @shape_errors() {
  %ch0 = tfrt.new.chain
  %one = tfrt.constant.f32 1.0
  %a = tfrt_dht.create_uninitialized_tensor.f32.2 [6 : i64, 8 : i64]
  %b = tfrt_dht.create_uninitialized_tensor.f32.2 [7 : i64, 8 : i64]
  %c = tfrt_dht.create_uninitialized_tensor.f32.2 [6 : i64, 8 : i64]
  %v = tfrt_dht.create_uninitialized_tensor.f32.1 [8 : i64]
  %i = tfrt_dht.create_uninitialized_tensor.i32.2 [8 : i64, 8 : i64]
  %bt = tfrt_dht.create_uninitialized_tensor.f32.2 [8 : i64, 1 : i64]
  // expected-error @+1 {{MatMul input tensors inner dimension mismatch: [6, 8] vs. [7, 8]}}
  %ch1 = "tfrt_test.matmul.f32.2"(%one, %a, %b, %one, %c, %ch0)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  // expected-error @+1 {{MatMul output shape [6, 8] does not match product shape of inputs: [6, 8] * [8, 1]}}
  %ch2 = "eigen.matmul.f32"(%one, %a, %bt, %one, %c, %ch0)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  // expected-error @+1 {{MatMul input B must have rank 2, got shape [8]}}
  %ch3 = "eigen.matmul.f32"(%one, %a, %v, %one, %c, %ch0)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  // expected-error @+1 {{expected a tensor of f32, got one of i32}}
  %ch4 = "tfrt_test.matmul.f32.2"(%one, %a, %i, %one, %c, %ch0)
    : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  tfrt.return
}
