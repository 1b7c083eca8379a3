// Host tensors: dense tensors created with the dtype and rank their kernel
// names, filled, set element by element, compared and printed; string
// tensors (`!tfrt_tensor.tensor` is another spelling of `!t.tensor`); and
// sparse COO tensors converted from and back to dense ones.
// RUN: bef run --verify-diagnostics %s | FileCheck %s
// RUN: bef translate --mlir-to-bef %s | bef translate --bef-to-mlir - | FileCheck %s --check-prefix=TEXT

// TEXT-LABEL: func.func @dense() {
// TEXT: tfrt_dht.create_uninitialized_tensor.i32.2 [2, 3]
// TEXT: tfrt_dht.fill_tensor_with_constant.i32 %{{[0-9]+}}, %{{[0-9]+}} 7 : i32
// TEXT: tfrt_dht.set_tensor_with_constant_values.f64 %{{[0-9]+}}, %{{[0-9]+}} [1.500000e+00, -2.000000e+00]
// TEXT-LABEL: func.func @strings() {
// TEXT: "tfrt_sht.create_tensor"() {shape = [3], values = ["a", "bc", ""]} : () -> !t.tensor

// CHECK-LABEL: --- Running 'dense':
func.func @dense() {
  %ch0 = tfrt.new.chain
  %a = tfrt_dht.create_uninitialized_tensor.i32.2 [2 : i64, 3 : i64]
  %ch1 = tfrt_dht.fill_tensor_with_constant.i32 %a, %ch0 7 : i32
  // CHECK-NEXT: DenseHostTensor dtype = i32, shape = [2, 3], values = [7, 7, 7, 7, 7, 7]
  %ch2 = tfrt_dht.print_tensor %a, %ch1
  %b = tfrt_dht.create_uninitialized_tensor.f64.1 [2 : i64]
  %ch3 = tfrt_dht.set_tensor_with_constant_values.f64 %b, %ch2 [1.5 : f64, -2.0 : f64]
  // CHECK-NEXT: DenseHostTensor dtype = f64, shape = [2], values = [1.500000e+00, -2.000000e+00]
  %ch4 = tfrt_dht.print_tensor %b, %ch3
  %c = tfrt_dht.create_uninitialized_tensor.i32.2 [2 : i64, 3 : i64]
  %ch5 = tfrt_dht.set_tensor_with_constant_values.i32 %c, %ch4 [7 : i32, 7 : i32, 7 : i32, 7 : i32, 7 : i32, 7 : i32]
  %eq, %ch6 = tfrt_dht.tensor_equal.i32 %a, %c, %ch5
  // CHECK-NEXT: int1 = 1
  %ch7 = tfrt.print.i1 %eq, %ch6
  %ch8 = tfrt_dht.fill_tensor_with_constant.i32 %c, %ch7 8 : i32
  %ne, %ch9 = tfrt_dht.tensor_equal.i32 %a, %c, %ch8
  // CHECK-NEXT: int1 = 0
  %ch10 = tfrt.print.i1 %ne, %ch9
  %self, %ch11 = tfrt_dht.tensor_equal.i32 %a, %a, %ch10
  // CHECK-NEXT: int1 = 1
  %ch12 = tfrt.print.i1 %self, %ch11
  %shape = tfrt_dht.get_tensor_shape %a
  // CHECK-NEXT: shape = [2, 3]
  %ch13 = ts.print_shape %shape, %ch12
  %long = tfrt_dht.create_uninitialized_tensor.ui8.1 [20 : i64]
  // CHECK-NEXT: DenseHostTensor dtype = ui8, shape = [20], values = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, ... ]
  tfrt_dht.print_tensor %long, %ch13
  tfrt.return
}

// CHECK-LABEL: --- Running 'strings':
func.func @strings() {
  %ch0 = tfrt.new.chain
  %s = "tfrt_sht.create_tensor"() {shape = [3], values = ["a", "bc", ""]} : () -> !tfrt_tensor.tensor
  // CHECK-NEXT: StringHostTensor shape = [3], values = ["a", "bc", ""]
  %ch1 = tfrt_dht.print_tensor %s, %ch0
  %shape = tfrt_dht.get_tensor_shape %s
  // CHECK-NEXT: shape = [3]
  ts.print_shape %shape, %ch1
  tfrt.return
}

// CHECK-LABEL: --- Running 'sparse':
func.func @sparse() {
  %ch0 = tfrt.new.chain
  %d = tfrt_dht.create_uninitialized_tensor.i32.2 [2 : i64, 2 : i64]
  %ch1 = tfrt_dht.set_tensor_with_constant_values.i32 %d, %ch0 [0 : i32, 5 : i32, 6 : i32, 0 : i32]
  %s, %ch2 = coo.convert_dht_to_coo.i32.2 %d, %ch1
  // CHECK-NEXT: CooHostTensor dtype = i32, shape = [2, 2], indices = [0, 1, 1, 0], values = [5, 6]
  %ch3 = tfrt_dht.print_tensor %s, %ch2
  %back, %ch4 = coo.convert_coo_to_dht.i32.2 %s, %ch3
  // CHECK-NEXT: DenseHostTensor dtype = i32, shape = [2, 2], values = [0, 5, 6, 0]
  %ch5 = tfrt_dht.print_tensor %back, %ch4
  %same, %ch6 = tfrt_dht.tensor_equal.i32 %d, %back, %ch5
  // CHECK-NEXT: int1 = 1
  %ch7 = tfrt.print.i1 %same, %ch6
  // Not square: the coordinates are the reference's (see coo.rs), and
  // converting back restores the dense tensor.
  %r = tfrt_dht.create_uninitialized_tensor.f32.2 [3 : i64, 2 : i64]
  %ch8 = tfrt_dht.set_tensor_with_constant_values.f32 %r, %ch7 [0.0 : f32, 1.0 : f32, 0.0 : f32, 0.0 : f32, 0.0 : f32, 2.5 : f32]
  %rs, %ch9 = coo.convert_dht_to_coo.f32.2 %r, %ch8
  // CHECK-NEXT: CooHostTensor dtype = f32, shape = [3, 2], indices = [0, 1, 1, 2], values = [1.000000e+00, 2.500000e+00]
  %ch10 = tfrt_dht.print_tensor %rs, %ch9
  %rd, %ch11 = coo.convert_coo_to_dht.f32.2 %rs, %ch10
  %req, %ch12 = tfrt_dht.tensor_equal.f32 %r, %rd, %ch11
  // CHECK-NEXT: int1 = 1
  %ch13 = tfrt.print.i1 %req, %ch12
  %rs2, %ch14 = coo.convert_dht_to_coo.f32.2 %rd, %ch13
  %seq, %ch15 = coo.tensor_equal.f32.2 %rs, %rs2, %ch14
  // CHECK-NEXT: int1 = 1
  %ch16 = tfrt.print.i1 %seq, %ch15
  %z = tfrt_dht.create_uninitialized_tensor.f32.2 [3 : i64, 2 : i64]
  %zs, %ch17 = coo.convert_dht_to_coo.f32.2 %z, %ch16
  %zeq, %ch18 = coo.tensor_equal.f32.2 %rs, %zs, %ch17
  // CHECK-NEXT: int1 = 0
  %ch19 = tfrt.print.i1 %zeq, %ch18
  // CHECK-NEXT: CooHostTensor dtype = f32, shape = [3, 2], indices = [], values = []
  tfrt_dht.print_tensor %zs, %ch19
  tfrt.return
}

// CHECK-LABEL: --- Running 'tensor_errors':
func.func @tensor_errors() {
  %ch0 = tfrt.new.chain
  // expected-error @+1 {{runtime error: a f64 tensor of shape [65536, 65536] would take more than the 268435456 bytes a tensor may}}
  %big = tfrt_dht.create_uninitialized_tensor.f64.2 [65536 : i64, 65536 : i64]
  %b = tfrt_dht.create_uninitialized_tensor.i32.1 [3 : i64]
  // expected-error @+1 {{runtime error: 2 values given for a tensor of 3 elements}}
  %ch1 = tfrt_dht.set_tensor_with_constant_values.i32 %b, %ch0 [1 : i32, 2 : i32]
  // expected-error @+1 {{runtime error: expected a tensor of f32, got one of i32}}
  %ch2 = tfrt_dht.fill_tensor_with_constant.f32 %b, %ch0 1.0 : f32
  // expected-error @+1 {{runtime error: 'coo.convert_dht_to_coo.i32.2' expects a 2-d tensor of i32, got a 1-d tensor of i32}}
  %s, %ch3 = coo.convert_dht_to_coo.i32.2 %b, %ch0
  // expected-error @+1 {{runtime error: expected a COO host tensor, got a dense host tensor}}
  %d, %ch4 = coo.convert_coo_to_dht.i32.1 %b, %ch0
  // expected-error @+1 {{runtime error: 1 values given for a tensor of shape [2]}}
  %str = "tfrt_sht.create_tensor"() {shape = [2], values = ["x"]} : () -> !t.tensor
  tfrt.return
}
