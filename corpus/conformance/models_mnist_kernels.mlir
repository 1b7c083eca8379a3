// The element-wise, broadcast, reduction, argmax, cast and slice kernels
// of TFRT's MNIST programs, for f32, i32 and i64; operands of different
// shapes or dtypes, empty reductions and slices out of range are errors
// at the kernel's line.
// RUN: bef run --verify-diagnostics %s | FileCheck %s

// CHECK-LABEL: --- Running 'elementwise':
func.func @elementwise() {
  %ch0 = tfrt.new.chain
  %a = tfrt_dht.create_uninitialized_tensor.i64.1 [4 : i64]
  %ch1 = tfrt_dht.set_tensor_with_constant_values.i64 %a, %ch0 [-2 : i64, 0 : i64, 3 : i64, 5 : i64]
  %b = tfrt_dht.create_uninitialized_tensor.i64.1 [4 : i64]
  %ch2 = "tfrt_test.relu.i64"(%a, %b, %ch1) : (!t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain
  // CHECK-NEXT: DenseHostTensor dtype = i64, shape = [4], values = [0, 0, 3, 5]
  %ch3 = tfrt_dht.print_tensor %b, %ch2
  %c = tfrt_dht.create_uninitialized_tensor.i64.1 [4 : i64]
  %ch4 = "tfrt_test.add.i64"(%a, %b, %c, %ch3) : (!t.tensor, !t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain
  // CHECK-NEXT: DenseHostTensor dtype = i64, shape = [4], values = [-2, 0, 6, 10]
  %ch5 = tfrt_dht.print_tensor %c, %ch4
  %ch6 = "tfrt_test.equal.i64"(%a, %b, %c, %ch5) : (!t.tensor, !t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain
  // CHECK-NEXT: DenseHostTensor dtype = i64, shape = [4], values = [0, 1, 1, 1]
  %ch7 = tfrt_dht.print_tensor %c, %ch6
  %ch8 = "tfrt_test.add_inplace.i64"(%a, %c, %ch7) : (!t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain
  // CHECK-NEXT: DenseHostTensor dtype = i64, shape = [4], values = [-2, 1, 4, 6]
  %ch9 = tfrt_dht.print_tensor %c, %ch8
  %ch10 = "tfrt_test.equal_inplace.i64"(%b, %c, %ch9) : (!t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain
  // CHECK-NEXT: DenseHostTensor dtype = i64, shape = [4], values = [0, 0, 0, 0]
  %ch11 = tfrt_dht.print_tensor %c, %ch10
  %ch12 = "tfrt_test.relu_inplace.i64"(%a, %ch11) : (!t.tensor, !tfrt.chain) -> !tfrt.chain
  // CHECK-NEXT: DenseHostTensor dtype = i64, shape = [4], values = [0, 0, 3, 5]
  %ch13 = tfrt_dht.print_tensor %a, %ch12

  %act = tfrt_dht.create_uninitialized_tensor.f32.1 [3 : i64]
  %ch14 = tfrt_dht.set_tensor_with_constant_values.f32 %act, %ch13 [-1.0 : f32, 0.0 : f32, 2.0 : f32]
  %grad = tfrt_dht.create_uninitialized_tensor.f32.1 [3 : i64]
  %ch15 = tfrt_dht.fill_tensor_with_constant.f32 %grad, %ch14 0.25 : f32
  %ch16 = "tfrt_test.relu_grad_inplace.f32"(%act, %grad, %ch15) : (!t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain
  // CHECK-NEXT: DenseHostTensor dtype = f32, shape = [3], values = [0.000000e+00, 0.000000e+00, 2.500000e-01]
  %ch17 = tfrt_dht.print_tensor %grad, %ch16
  // The same tensor as both operands: every element equals itself.
  %ch18 = "tfrt_test.equal_inplace.f32"(%act, %act, %ch17) : (!t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain
  // CHECK-NEXT: DenseHostTensor dtype = f32, shape = [3], values = [1.000000e+00, 1.000000e+00, 1.000000e+00]
  %ch19 = tfrt_dht.print_tensor %act, %ch18

  %ints = tfrt_dht.create_uninitialized_tensor.i32.1 [3 : i64]
  %ch20 = tfrt_dht.set_tensor_with_constant_values.i32 %ints, %ch19 [-7 : i32, 0 : i32, 16777217 : i32]
  %floats = tfrt_dht.create_uninitialized_tensor.f32.1 [3 : i64]
  %ch21 = "tfrt_test.cast.i32_to_f32"(%ints, %floats, %ch20) : (!t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain
  // CHECK-NEXT: DenseHostTensor dtype = f32, shape = [3], values = [-7.000000e+00, 0.000000e+00, 1.677722e+07]
  %ch22 = tfrt_dht.print_tensor %floats, %ch21
  tfrt.return
}

// CHECK-LABEL: --- Running 'reductions':
func.func @reductions() {
  %ch0 = tfrt.new.chain
  %bias = tfrt_dht.create_uninitialized_tensor.i32.1 [3 : i64]
  %ch1 = tfrt_dht.set_tensor_with_constant_values.i32 %bias, %ch0 [1 : i32, 9 : i32, 9 : i32]
  %shape = ts.build_shape [2 : i64, 3 : i64]
  %m = "tfrt_test.broadcast.i32.2"(%bias, %shape, %ch1) : (!t.tensor, !ts.shape, !tfrt.chain) -> !t.tensor
  // CHECK-NEXT: DenseHostTensor dtype = i32, shape = [2, 3], values = [1, 9, 9, 1, 9, 9]
  %ch2 = tfrt_dht.print_tensor %m, %ch1
  // Ties go to the first greatest element.
  %arg = "tfrt_test.argmax.i32.2"(%m, %ch2) : (!t.tensor, !tfrt.chain) -> !t.tensor
  // CHECK-NEXT: DenseHostTensor dtype = i32, shape = [2], values = [1, 1]
  %ch3 = tfrt_dht.print_tensor %arg, %ch2
  %mean = "tfrt_test.reduce_mean.i32.1"(%bias, %ch3) : (!t.tensor, !tfrt.chain) -> !t.tensor
  // CHECK-NEXT: DenseHostTensor dtype = i32, shape = [], values = [6]
  %ch4 = tfrt_dht.print_tensor %mean, %ch3
  %shape3 = ts.build_shape [2 : i64, 1 : i64, 3 : i64]
  %cube = "tfrt_test.broadcast.i32.3"(%bias, %shape3, %ch4) : (!t.tensor, !ts.shape, !tfrt.chain) -> !t.tensor
  // CHECK-NEXT: DenseHostTensor dtype = i32, shape = [2, 1, 3], values = [1, 9, 9, 1, 9, 9]
  %ch5 = tfrt_dht.print_tensor %cube, %ch4

  %input = tfrt_dht.create_uninitialized_tensor.f32.3 [2 : i64, 2 : i64, 3 : i64]
  %ch6 = tfrt_dht.set_tensor_with_constant_values.f32 %input, %ch5
    [0.0 : f32, 1.0 : f32, 2.0 : f32, 3.0 : f32, 4.0 : f32, 5.0 : f32, 6.0 : f32, 7.0 : f32, 8.0 : f32, 9.0 : f32, 10.0 : f32, 11.0 : f32]
  %begin = tfrt_dht.create_uninitialized_tensor.i64.1 [3 : i64]
  %ch7 = tfrt_dht.set_tensor_with_constant_values.i64 %begin, %ch6 [1 : i64, 0 : i64, 1 : i64]
  %slice = tfrt_dht.create_uninitialized_tensor.f32.3 [1 : i64, 2 : i64, 2 : i64]
  %ch8 = "tfrt_test.slice_inplace.f32.3"(%input, %begin, %ch7, %slice) : (!t.tensor, !t.tensor, !tfrt.chain, !t.tensor) -> !tfrt.chain
  // CHECK-NEXT: DenseHostTensor dtype = f32, shape = [1, 2, 2], values = [7.000000e+00, 8.000000e+00, 1.000000e+01, 1.100000e+01]
  %ch9 = tfrt_dht.print_tensor %slice, %ch8
  tfrt.return
}

// CHECK-LABEL: --- Running 'errors':
func.func @errors() {
  %ch0 = tfrt.new.chain
  %a = tfrt_dht.create_uninitialized_tensor.f32.1 [3 : i64]
  %b = tfrt_dht.create_uninitialized_tensor.f32.1 [4 : i64]
  %c = tfrt_dht.create_uninitialized_tensor.f32.1 [3 : i64]
  %i = tfrt_dht.create_uninitialized_tensor.i32.1 [3 : i64]
  %empty = tfrt_dht.create_uninitialized_tensor.i64.1 [0 : i64]
  %m = tfrt_dht.create_uninitialized_tensor.f32.2 [2 : i64, 3 : i64]
  // expected-error @+1 {{'tfrt_test.add.f32' operands have different shapes: [3] vs. [4]}}
  %ch1 = "tfrt_test.add.f32"(%a, %b, %c, %ch0) : (!t.tensor, !t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain
  // expected-error @+1 {{expected a tensor of f32, got one of i32}}
  %ch2 = "tfrt_test.relu.f32"(%i, %c, %ch0) : (!t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %shape = ts.build_shape [2 : i64, 4 : i64]
  // expected-error @+1 {{broadcast input tensor dimension and target shape mismatch: [3] vs. [2, 4]}}
  %d = "tfrt_test.broadcast.f32.2"(%a, %shape, %ch0) : (!t.tensor, !ts.shape, !tfrt.chain) -> !t.tensor
  // expected-error @+1 {{broadcast target shape [2, 4] does not have rank 3}}
  %e = "tfrt_test.broadcast.f32.3"(%b, %shape, %ch0) : (!t.tensor, !ts.shape, !tfrt.chain) -> !t.tensor
  // expected-error @+1 {{reduce_mean of an empty integer tensor divides by zero}}
  %f = "tfrt_test.reduce_mean.i64.1"(%empty, %ch0) : (!t.tensor, !tfrt.chain) -> !t.tensor
  // expected-error @+1 {{reduce_mean input must have rank 1, got shape [2, 3]}}
  %g = "tfrt_test.reduce_mean.f32.1"(%m, %ch0) : (!t.tensor, !tfrt.chain) -> !t.tensor
  // expected-error @+1 {{argmax input must have rank 2, got shape [3]}}
  %h = "tfrt_test.argmax.f32.2"(%a, %ch0) : (!t.tensor, !tfrt.chain) -> !t.tensor
  %cube = tfrt_dht.create_uninitialized_tensor.f32.3 [2 : i64, 2 : i64, 2 : i64]
  %begin = tfrt_dht.create_uninitialized_tensor.i64.1 [3 : i64]
  %ch3 = tfrt_dht.set_tensor_with_constant_values.i64 %begin, %ch0 [1 : i64, 1 : i64, 1 : i64]
  %out = tfrt_dht.create_uninitialized_tensor.f32.3 [2 : i64, 1 : i64, 1 : i64]
  // expected-error @+1 {{a slice of shape [2, 1, 1] at [1, 1, 1] does not fit in the input of shape [2, 2, 2]}}
  %ch4 = "tfrt_test.slice_inplace.f32.3"(%cube, %begin, %ch3, %out) : (!t.tensor, !t.tensor, !tfrt.chain, !t.tensor) -> !tfrt.chain
  %short = tfrt_dht.create_uninitialized_tensor.i64.1 [2 : i64]
  // expected-error @+1 {{the size of 'begin_index' should match the input tensor rank}}
  %ch5 = "tfrt_test.slice_inplace.f32.3"(%cube, %short, %ch0, %out) : (!t.tensor, !t.tensor, !tfrt.chain, !t.tensor) -> !tfrt.chain
  tfrt.return
}
