// BTF files read by `btf.read_dense_tensor.T.N`: one tensor of each dtype
// the kernels read, ranks 0 to 4, an empty tensor; and each way a file or
// a request can be wrong, reported at the kernel that read it. The files
// are made by core/tests/btf_fixtures.rs; paths are relative to core/,
// where the tests run.
// RUN: bef run --verify-diagnostics %s | FileCheck %s
// RUN: bef run --verify-diagnostics --work-queue mstd:2 %s | FileCheck %s

// CHECK-LABEL: --- Running 'read_each_dtype':
func.func @read_each_dtype() {
  %ch0 = tfrt.new.chain
  %path = "tfrt_test.get_string"() { value = "../corpus/btf/tensors.btf" } : () -> !tfrt.string
  %i0 = tfrt.constant.i32 0
  %i1 = tfrt.constant.i32 1
  %i2 = tfrt.constant.i32 2
  %i3 = tfrt.constant.i32 3
  %i4 = tfrt.constant.i32 4
  %i11 = tfrt.constant.i32 11
  %i12 = tfrt.constant.i32 12
  %f32 = "btf.read_dense_tensor.f32.2"(%path, %i0) : (!tfrt.string, i32) -> !t.tensor
  // CHECK-NEXT: DenseHostTensor dtype = f32, shape = [2, 3], values = [1.500000e+00, -2.000000e+00, 3.250000e+00, 0.000000e+00, -5.000000e-01, 6.000000e+00]
  %ch1 = tfrt_dht.print_tensor %f32, %ch0
  %i32 = "btf.read_dense_tensor.i32.1"(%path, %i1) : (!tfrt.string, i32) -> !t.tensor
  // CHECK-NEXT: DenseHostTensor dtype = i32, shape = [4], values = [7, -1, 0, 2147483647]
  %ch2 = tfrt_dht.print_tensor %i32, %ch1
  %i64 = "btf.read_dense_tensor.i64.2"(%path, %i2) : (!tfrt.string, i32) -> !t.tensor
  // CHECK-NEXT: DenseHostTensor dtype = i64, shape = [2, 2], values = [-9, 8, 1099511627776, 0]
  %ch3 = tfrt_dht.print_tensor %i64, %ch2
  %i8 = "btf.read_dense_tensor.i8.1"(%path, %i3) : (!tfrt.string, i32) -> !t.tensor
  // CHECK-NEXT: DenseHostTensor dtype = i8, shape = [3], values = [-128, 0, 127]
  %ch4 = tfrt_dht.print_tensor %i8, %ch3
  %ui8 = "btf.read_dense_tensor.ui8.2"(%path, %i4) : (!tfrt.string, i32) -> !t.tensor
  // CHECK-NEXT: DenseHostTensor dtype = ui8, shape = [2, 2], values = [0, 1, 254, 255]
  %ch5 = tfrt_dht.print_tensor %ui8, %ch4
  %image = "btf.read_dense_tensor.f32.4"(%path, %i11) : (!tfrt.string, i32) -> !t.tensor
  // CHECK-NEXT: DenseHostTensor dtype = f32, shape = [1, 2, 2, 1], values = [1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]
  %ch6 = tfrt_dht.print_tensor %image, %ch5
  %empty = "btf.read_dense_tensor.f32.1"(%path, %i12) : (!tfrt.string, i32) -> !t.tensor
  // CHECK-NEXT: DenseHostTensor dtype = f32, shape = [0], values = []
  %ch7 = tfrt_dht.print_tensor %empty, %ch6
  tfrt.return
}

// CHECK-LABEL: --- Running 'bad_requests':
func.func @bad_requests() {
  %path = "tfrt_test.get_string"() { value = "../corpus/btf/tensors.btf" } : () -> !tfrt.string
  %past = tfrt.constant.i32 13
  %negative = tfrt.constant.i32 -1
  %i0 = tfrt.constant.i32 0
  %i5 = tfrt.constant.i32 5
  %i10 = tfrt.constant.i32 10
  // expected-error @+1 {{invalid tensor index 13 to read tensor from path ../corpus/btf/tensors.btf: out of range for this file}}
  %a = "btf.read_dense_tensor.f32.2"(%path, %past) : (!tfrt.string, i32) -> !t.tensor
  // expected-error @+1 {{invalid tensor index -1 to read tensor from path ../corpus/btf/tensors.btf: out of range for this file}}
  %b = "btf.read_dense_tensor.f32.2"(%path, %negative) : (!tfrt.string, i32) -> !t.tensor
  // expected-error @+1 {{unexpected tensor dtype f32. Expected dtype is i32}}
  %c = "btf.read_dense_tensor.i32.2"(%path, %i0) : (!tfrt.string, i32) -> !t.tensor
  // expected-error @+1 {{unexpected tensor rank 2. Expected rank is 3}}
  %d = "btf.read_dense_tensor.f32.3"(%path, %i0) : (!tfrt.string, i32) -> !t.tensor
  // expected-error @+1 {{unexpected tensor dtype f64. Expected dtype is i64}}
  %e = "btf.read_dense_tensor.i64.0"(%path, %i5) : (!tfrt.string, i32) -> !t.tensor
  // expected-error @+1 {{unexpected tensor layout COOrdinate list sparse tensor}}
  %f = "btf.read_dense_tensor.f32.2"(%path, %i10) : (!tfrt.string, i32) -> !t.tensor
  tfrt.return
}

// CHECK-LABEL: --- Running 'bad_files':
func.func @bad_files() {
  %missing = "tfrt_test.get_string"() { value = "../corpus/btf/no_such_file.btf" } : () -> !tfrt.string
  %directory = "tfrt_test.get_string"() { value = "../corpus/btf" } : () -> !tfrt.string
  %truncated = "tfrt_test.get_string"() { value = "../corpus/btf/truncated.btf" } : () -> !tfrt.string
  %overflow = "tfrt_test.get_string"() { value = "../corpus/btf/overflow.btf" } : () -> !tfrt.string
  %i0 = tfrt.constant.i32 0
  %i1 = tfrt.constant.i32 1
  // expected-error @+1 {{failed to open file ../corpus/btf/no_such_file.btf for reading}}
  %a = "btf.read_dense_tensor.f32.2"(%missing, %i0) : (!tfrt.string, i32) -> !t.tensor
  // expected-error @+1 {{failed to open file ../corpus/btf for reading: a directory, not a regular file}}
  %b = "btf.read_dense_tensor.f32.2"(%directory, %i0) : (!tfrt.string, i32) -> !t.tensor
  // expected-error @+1 {{the 62-byte file ends before the end of tensor 0's elements}}
  %c = "btf.read_dense_tensor.f32.2"(%truncated, %i0) : (!tfrt.string, i32) -> !t.tensor
  // expected-error @+1 {{tensor 0's dims make an element count or byte size that exceeds 64 bits}}
  %d = "btf.read_dense_tensor.f32.3"(%overflow, %i0) : (!tfrt.string, i32) -> !t.tensor
  // expected-error @+1 {{the 80-byte file ends before the end of tensor 1's dims}}
  %e = "btf.read_dense_tensor.i32.2"(%overflow, %i1) : (!tfrt.string, i32) -> !t.tensor
  tfrt.return
}
