// The f32 kernels of TFRT's ResNet and MNIST-training programs: pooling
// (valid and same padding), global average pooling, flattening, zero
// padding, softmax, gradient descent, subtraction, transposition, column
// means, the 2-D broadcast and tensor_allclose; and their shape errors,
// with the reference's messages, at the kernel's line.
// RUN: bef run --verify-diagnostics %s | FileCheck %s

// CHECK-LABEL: --- Running 'images':
func.func @images() {
  %ch0 = tfrt.new.chain
  // One 3x3 image of 2 channels: channel 0 counts up, channel 1 down.
  %in = tfrt_dht.create_uninitialized_tensor.f32.4 [1 : i64, 3 : i64, 3 : i64, 2 : i64]
  %ch1 = tfrt_dht.set_tensor_with_constant_values.f32 %in, %ch0
    [1.0 : f32, -1.0 : f32, 2.0 : f32, -2.0 : f32, 3.0 : f32, -3.0 : f32,
     4.0 : f32, -4.0 : f32, 5.0 : f32, -5.0 : f32, 6.0 : f32, -6.0 : f32,
     7.0 : f32, -7.0 : f32, 8.0 : f32, -8.0 : f32, 9.0 : f32, -9.0 : f32]
  %valid = tfrt_dht.create_uninitialized_tensor.f32.4 [1 : i64, 1 : i64, 1 : i64, 2 : i64]
  %ch2 = "tfrt_test.max_pooling_2d.f32"(%in, %valid, %ch1)
    { padding = "valid", pool_size = [2 : i32, 2 : i32], strides = [2 : i32, 2 : i32] }
    : (!t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain
  // CHECK-NEXT: DenseHostTensor dtype = f32, shape = [1, 1, 1, 2], values = [5.000000e+00, -1.000000e+00]
  %ch3 = tfrt_dht.print_tensor %valid, %ch2
  %same = tfrt_dht.create_uninitialized_tensor.f32.4 [1 : i64, 2 : i64, 2 : i64, 2 : i64]
  %ch4 = "tfrt_test.max_pooling_2d.f32"(%in, %same, %ch3)
    { padding = "same", pool_size = [2 : i32, 2 : i32], strides = [2 : i32, 2 : i32] }
    : (!t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain
  // CHECK-NEXT: DenseHostTensor dtype = f32, shape = [1, 2, 2, 2], values = [5.000000e+00, -1.000000e+00, 6.000000e+00, -3.000000e+00, 8.000000e+00, -7.000000e+00, 9.000000e+00, -9.000000e+00]
  %ch5 = tfrt_dht.print_tensor %same, %ch4
  %avg = tfrt_dht.create_uninitialized_tensor.f32.2 [1 : i64, 2 : i64]
  %ch6 = "tfrt_test.global_average_pooling.f32"(%in, %avg, %ch5) : (!t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain
  // CHECK-NEXT: DenseHostTensor dtype = f32, shape = [1, 2], values = [5.000000e+00, -5.000000e+00]
  %ch7 = tfrt_dht.print_tensor %avg, %ch6
  %padded = tfrt_dht.create_uninitialized_tensor.f32.4 [1 : i64, 3 : i64, 5 : i64, 2 : i64]
  %ch8 = "tfrt_test.zero_padding.f32"(%valid, %padded, %ch7) { padding = [1 : i32, 2 : i32] }
    : (!t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %flat = tfrt_dht.create_uninitialized_tensor.f32.2 [1 : i64, 30 : i64]
  %ch9 = "tfrt_test.flatten.f32"(%padded, %flat, %ch8) : (!t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %row = tfrt_dht.create_uninitialized_tensor.f32.1 [30 : i64]
  %ch10 = "tfrt_test.mean_axis_zero.f32"(%flat, %row, %ch9) : (!t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %expected = tfrt_dht.create_uninitialized_tensor.f32.1 [30 : i64]
  %ch11 = tfrt_dht.set_tensor_with_constant_values.f32 %expected, %ch10
    [0.0 : f32, 0.0 : f32, 0.0 : f32, 0.0 : f32, 0.0 : f32, 0.0 : f32, 0.0 : f32, 0.0 : f32, 0.0 : f32, 0.0 : f32,
     0.0 : f32, 0.0 : f32, 0.0 : f32, 0.0 : f32, 5.0 : f32, -1.0 : f32, 0.0 : f32, 0.0 : f32, 0.0 : f32, 0.0 : f32,
     0.0 : f32, 0.0 : f32, 0.0 : f32, 0.0 : f32, 0.0 : f32, 0.0 : f32, 0.0 : f32, 0.0 : f32, 0.0 : f32, 0.0 : f32]
  %same_row, %ch12 = tfrt_dht.tensor_equal.f32 %row, %expected, %ch11
  // CHECK-NEXT: int1 = 1
  %ch13 = tfrt.print.i1 %same_row, %ch12
  %wide = tfrt_dht.create_uninitialized_tensor.f32.4 [1 : i64, 1 : i64, 2 : i64, 2 : i64]
  %ch14 = "tfrt_test.broadcast_2d.f32"(%avg, %wide, %ch13) : (!t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain
  // CHECK-NEXT: DenseHostTensor dtype = f32, shape = [1, 1, 2, 2], values = [5.000000e+00, -5.000000e+00, 5.000000e+00, -5.000000e+00]
  %ch15 = tfrt_dht.print_tensor %wide, %ch14
  tfrt.return
}

// CHECK-LABEL: --- Running 'training':
func.func @training() {
  %ch0 = tfrt.new.chain
  %logits = tfrt_dht.create_uninitialized_tensor.f32.2 [1 : i64, 3 : i64]
  %ch1 = tfrt_dht.set_tensor_with_constant_values.f32 %logits, %ch0 [1000.0 : f32, 1000.0 : f32, 1000.0 : f32]
  // Large logits do not overflow.
  %ch2 = "tfrt_test.softmax_inplace.f32"(%logits, %ch1) : (!t.tensor, !tfrt.chain) -> !tfrt.chain
  // CHECK-NEXT: DenseHostTensor dtype = f32, shape = [1, 3], values = [3.333333e-01, 3.333333e-01, 3.333333e-01]
  %ch3 = tfrt_dht.print_tensor %logits, %ch2
  %w = tfrt_dht.create_uninitialized_tensor.f32.2 [1 : i64, 3 : i64]
  %ch4 = tfrt_dht.set_tensor_with_constant_values.f32 %w, %ch3 [1.0 : f32, 2.0 : f32, 3.0 : f32]
  %lr = tfrt_dht.create_uninitialized_tensor.f32.1 [1 : i64]
  %ch5 = tfrt_dht.fill_tensor_with_constant.f32 %lr, %ch4 0.5 : f32
  %g = tfrt_dht.create_uninitialized_tensor.f32.2 [1 : i64, 3 : i64]
  %ch6 = tfrt_dht.set_tensor_with_constant_values.f32 %g, %ch5 [2.0 : f32, 0.0 : f32, -2.0 : f32]
  %ch7 = "tfrt_test.gradient_descent.f32"(%g, %lr, %w, %ch6) : (!t.tensor, !t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain
  // CHECK-NEXT: DenseHostTensor dtype = f32, shape = [1, 3], values = [0.000000e+00, 2.000000e+00, 4.000000e+00]
  %ch8 = tfrt_dht.print_tensor %w, %ch7
  %ch9 = "tfrt_test.subtract_inplace.f32"(%g, %w, %ch8) : (!t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain
  // CHECK-NEXT: DenseHostTensor dtype = f32, shape = [1, 3], values = [-2.000000e+00, 2.000000e+00, 6.000000e+00]
  %ch10 = tfrt_dht.print_tensor %w, %ch9
  %t = tfrt_dht.create_uninitialized_tensor.f32.2 [3 : i64, 1 : i64]
  %ch11 = "tfrt_test.tensor_transpose.f32"(%w, %t, %ch10) : (!t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain
  // CHECK-NEXT: DenseHostTensor dtype = f32, shape = [3, 1], values = [-2.000000e+00, 2.000000e+00, 6.000000e+00]
  %ch12 = tfrt_dht.print_tensor %t, %ch11
  %near = tfrt_dht.create_uninitialized_tensor.f32.2 [3 : i64, 1 : i64]
  %ch13 = tfrt_dht.set_tensor_with_constant_values.f32 %near, %ch12 [-2.0000002 : f32, 2.0 : f32, 6.0 : f32]
  %close2, %ch14 = "tfrt_dht.tensor_allclose.f32"(%t, %near, %ch13) : (!t.tensor, !t.tensor, !tfrt.chain) -> (i1, !tfrt.chain)
  // CHECK-NEXT: int1 = 1
  %ch15 = tfrt.print.i1 %close2, %ch14
  %ch16 = tfrt_dht.set_tensor_with_constant_values.f32 %near, %ch15 [-2.001 : f32, 2.0 : f32, 6.0 : f32]
  %close1000, %ch17 = "tfrt_dht.tensor_allclose.1000ulp.f32"(%t, %near, %ch16) : (!t.tensor, !t.tensor, !tfrt.chain) -> (i1, !tfrt.chain)
  // CHECK-NEXT: int1 = 0
  %ch18 = tfrt.print.i1 %close1000, %ch17
  %close100000, %ch19 = "tfrt_dht.tensor_allclose.100000ulp.f32"(%t, %near, %ch18) : (!t.tensor, !t.tensor, !tfrt.chain) -> (i1, !tfrt.chain)
  // CHECK-NEXT: int1 = 1
  %ch20 = tfrt.print.i1 %close100000, %ch19
  tfrt.return
}

// CHECK-LABEL: --- Running 'shape_errors':
func.func @shape_errors() {
  %ch0 = tfrt.new.chain
  %in = tfrt_dht.create_uninitialized_tensor.f32.4 [2 : i64, 3 : i64, 3 : i64, 6 : i64]
  %out = tfrt_dht.create_uninitialized_tensor.f32.4 [2 : i64, 1 : i64, 1 : i64, 6 : i64]
  %flat = tfrt_dht.create_uninitialized_tensor.f32.2 [2 : i64, 5 : i64]
  %m = tfrt_dht.create_uninitialized_tensor.f32.2 [2 : i64, 3 : i64]
  %v = tfrt_dht.create_uninitialized_tensor.f32.1 [2 : i64]
  // expected-error @+1 {{MaxPool2D expects pool_size to have 2 elements}}
  %ch1 = "tfrt_test.max_pooling_2d.f32"(%in, %out, %ch0)
    { padding = "valid", pool_size = [3 : i32], strides = [3 : i32, 3 : i32] }
    : (!t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain
  // expected-error @+1 {{MaxPool2D strides must be at least 1, got [0, 3]}}
  %ch2 = "tfrt_test.max_pooling_2d.f32"(%in, %out, %ch0)
    { padding = "valid", pool_size = [3 : i32, 3 : i32], strides = [0 : i32, 3 : i32] }
    : (!t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain
  // expected-error @+1 {{MaxPool2D pool_size [5, 5] is larger than the padded input [2, 3, 3, 6]}}
  %ch3 = "tfrt_test.max_pooling_2d.f32"(%in, %out, %ch0)
    { padding = "valid", pool_size = [5 : i32, 5 : i32], strides = [1 : i32, 1 : i32] }
    : (!t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain
  // expected-error @+1 {{GlobalAveragePool output shape [2, 3] does not match the input shape [2, 3, 3, 6]}}
  %ch4 = "tfrt_test.global_average_pooling.f32"(%in, %m, %ch0) : (!t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain
  // expected-error @+1 {{Flatten output shape [2, 5] does not match the input shape [2, 3, 3, 6]}}
  %ch5 = "tfrt_test.flatten.f32"(%in, %flat, %ch0) : (!t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain
  // expected-error @+1 {{ZeroPadding expects padding of length 2}}
  %ch6 = "tfrt_test.zero_padding.f32"(%in, %out, %ch0) { padding = [1 : i32] } : (!t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain
  // expected-error @+1 {{ZeroPadding output shape [2, 1, 1, 6] does not match the expected output shape [2, 5, 5, 6]}}
  %ch7 = "tfrt_test.zero_padding.f32"(%in, %out, %ch0) { padding = [1 : i32, 1 : i32] } : (!t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain
  // expected-error @+1 {{GradientDescent lr should have only one element}}
  %ch8 = "tfrt_test.gradient_descent.f32"(%m, %v, %m, %ch0) : (!t.tensor, !t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain
  // expected-error @+1 {{'tfrt_test.subtract_inplace.f32' operands have different shapes: [2] vs. [2, 3]}}
  %ch9 = "tfrt_test.subtract_inplace.f32"(%v, %m, %ch0) : (!t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain
  // expected-error @+1 {{TensorTranspose output shape [2, 3] does not match the input shape [2, 3]}}
  %ch10 = "tfrt_test.tensor_transpose.f32"(%m, %m, %ch0) : (!t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain
  // expected-error @+1 {{MeanAxisZero output shape [2] does not match the input shape [2, 3]}}
  %ch11 = "tfrt_test.mean_axis_zero.f32"(%m, %v, %ch0) : (!t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain
  // expected-error @+1 {{Broadcast2D output shape [2, 1, 1, 6] does not match the input shape [2, 3]}}
  %ch12 = "tfrt_test.broadcast_2d.f32"(%m, %out, %ch0) : (!t.tensor, !t.tensor, !tfrt.chain) -> !tfrt.chain
  tfrt.return
}
