// `ts.*` shapes: built from attributes, printed, compared, counted, turned
// into fixed-rank and partial shapes and back. A partial shape with unknown
// dimensions or rank is no shape: `ts.to_shape` fails, naming them.
// RUN: bef run --verify-diagnostics %s | FileCheck %s
// RUN: bef translate --mlir-to-bef %s | bef run --verify-diagnostics --source %s - | FileCheck %s
// RUN: bef translate --mlir-to-bef %s | bef translate --bef-to-mlir - | FileCheck %s --check-prefix=TEXT

// TEXT-LABEL: func.func @shapes() {
// TEXT: ts.build_shape [4, 0, 7]
// TEXT: ts.print_shape %{{[0-9]+}}, %{{[0-9]+}}
// TEXT: ts.as_fixed_rank_shape.3
// TEXT: ts.build_partial_shape [-1, 3]
// TEXT: ts.build_unranked_partial_shape

// CHECK-LABEL: --- Running 'shapes':
func.func @shapes() {
  %ch0 = tfrt.new.chain
  %a = ts.build_shape [4 : i64, 0 : i64, 7 : i64]
  // CHECK-NEXT: shape = [4, 0, 7]
  %ch1 = ts.print_shape %a, %ch0
  %scalar = ts.build_shape []
  // CHECK-NEXT: shape = []
  %ch2 = ts.print_shape %scalar, %ch1
  %n = ts.get_num_elements %a
  // CHECK-NEXT: int64 = 0
  %ch3 = tfrt.print.i64 %n, %ch2
  %one = ts.get_num_elements %scalar
  // CHECK-NEXT: int64 = 1
  %ch4 = tfrt.print.i64 %one, %ch3
  %i = tfrt.constant.i32 2
  %d = ts.get_dimension %a, %i
  // CHECK-NEXT: int64 = 7
  %ch5 = tfrt.print.i64 %d, %ch4
  %fixed = ts.as_fixed_rank_shape.3 %a
  // CHECK-NEXT: fixed_rank_shape = [4, 0, 7]
  %ch6 = ts.print_fixed_rank_shape.3 %fixed, %ch5
  %b = ts.build_shape [4 : i64, 0 : i64, 7 : i64]
  %same = ts.equal_shape %a, %b
  // CHECK-NEXT: int1 = 1
  %ch7 = tfrt.print.i1 %same, %ch6
  %different = ts.equal_shape %a, %scalar
  // CHECK-NEXT: int1 = 0
  %ch8 = tfrt.print.i1 %different, %ch7
  %p = ts.build_partial_shape [-1 : i64, 3 : i64]
  // CHECK-NEXT: partial_tensor_shape = [-1, 3]
  %ch9 = ts.print_partial_shape %p, %ch8
  %u = ts.build_unranked_partial_shape
  // CHECK-NEXT: partial_tensor_shape = Unknown rank
  %ch10 = ts.print_partial_shape %u, %ch9
  %known = ts.to_partial_shape %a
  // CHECK-NEXT: partial_tensor_shape = [4, 0, 7]
  %ch11 = ts.print_partial_shape %known, %ch10
  %back = ts.to_shape %known
  // CHECK-NEXT: shape = [4, 0, 7]
  ts.print_shape %back, %ch11
  tfrt.return
}

// CHECK-LABEL: --- Running 'shape_errors':
func.func @shape_errors() {
  %ch0 = tfrt.new.chain
  %p = ts.build_partial_shape [-1 : i64, 5 : i64, -1 : i64, -1 : i64]
  // expected-error @+1 {{runtime error: Unknown dimensions at following indices = [0, 2, 3]}}
  %s = ts.to_shape %p
  %u = ts.build_unranked_partial_shape
  // expected-error @+1 {{runtime error: Unknown rank}}
  %t = ts.to_shape %u
  %a = ts.build_shape [2 : i64, 3 : i64]
  // expected-error @+1 {{runtime error: shape [2, 3] does not have rank 3}}
  %f = ts.as_fixed_rank_shape.3 %a
  %i = tfrt.constant.i32 2
  // expected-error @+1 {{runtime error: dimension 2 is out of range for shape [2, 3]}}
  %d = ts.get_dimension %a, %i
  // expected-error @+1 {{runtime error: invalid dimension -3 in shape [1, -3]}}
  %bad = ts.build_shape [1 : i64, -3 : i64]
  // expected-error @+1 {{runtime error: invalid dimension -2 in partial shape [-2]}}
  %badp = ts.build_partial_shape [-2 : i64]
  %big = ts.build_shape [4294967296 : i64, 4294967296 : i64]
  // expected-error @+1 {{runtime error: the number of elements of shape [4294967296, 4294967296] overflows}}
  %n = ts.get_num_elements %big
  tfrt.return
}
