// BTF readers exist for the dtypes the reference registers (f32, i32,
// i64, i8, ui8): an f64 reader is an unknown kernel, reported at load.
// RUN: not bef run %s 2>&1 | FileCheck %s

// CHECK-NOT: --- Running
// CHECK: models_unregistered_dtype.mlir:[[@LINE+4]]:{{[0-9]+}}: error: runtime error: unknown kernel name 'btf.read_dense_tensor.f64.1'
func.func @f64_reader() {
  %path = "tfrt_test.get_string"() { value = "../corpus/btf/tensors.btf" } : () -> !tfrt.string
  %i0 = tfrt.constant.i32 0
  %t = "btf.read_dense_tensor.f64.1"(%path, %i0) : (!tfrt.string, i32) -> !t.tensor
  tfrt.return
}
