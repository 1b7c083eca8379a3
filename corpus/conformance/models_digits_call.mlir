// The digits classifier of corpus/models/digits/ called on one held-out
// image given as JSON (the first of digits.btf's test images, a 7), with
// `bef run --call`: its class comes back as JSON. The model reads its
// weights by a path relative to the repository root, where it runs.
// RUN: cd %S/../.. && bef run corpus/models/digits/digits.mlir --call classify \
// RUN:   --args '[[[0.0,0.0,0.125,0.8125,1.0,0.5625,0.0,0.0,0.0,0.0,0.75,0.75,0.4375,1.0,0.1875,0.0,0.0,0.0625,0.875,0.1875,0.0,1.0,0.25,0.0,0.0,0.0,0.0,0.25,0.625,1.0,0.375,0.0,0.0,0.0,0.0,0.8125,1.0,1.0,0.5625,0.0,0.0,0.0,0.0,0.3125,0.8125,0.0625,0.0,0.0,0.0,0.0,0.0,0.6875,0.5625,0.0,0.0,0.0,0.0,0.0,0.0625,1.0,0.25,0.0,0.0,0.0]]]' \
// RUN:   | FileCheck %s
// The same image from a file.
// RUN: cd %S/../.. && bef run corpus/models/digits/digits.mlir --call classify \
// RUN:   --args @corpus/conformance/digits_image.json | FileCheck %s
// An image of the wrong size: one error line naming the argument.
// RUN: cd %S/../.. && not bef run corpus/models/digits/digits.mlir --call classify \
// RUN:   --args '[[[0.0,1.0]]]' 2>&1 | FileCheck %s --check-prefix=SHAPE

// CHECK: {{\[\[7\]\]}}
// CHECK-NOT: {{.}}

// SHAPE: error: function 'classify': argument 0: expected f32[1x64], given Buffer<f32[1x2]> (dim 1 is 2, expected 64)
// SHAPE-NOT: {{.}}
