// `bef run --call NAME --args JSON`: a function taking a dict of tensors
// and a list of scalars, structured by its `iree.abi` reflection, returns a
// tuple, printed as JSON; tensors also come from BTF files. Wrong arity,
// dtype and shape, and malformed JSON, are each one error line and exit
// status 1.
// RUN: bef run %s --call mix --args '[{"bias": [0.5, -0.5], "weights": [[1, 2], [3, 4]]}, [7, -9]]' \
// RUN:   | FileCheck %s --check-prefix=MIX
// RUN: bef run %s --call first_rows --args '[{"btf": "../corpus/btf/tensors.btf", "index": 0}]' \
// RUN:   | FileCheck %s --check-prefix=BTF
// RUN: bef run %s --call scalars --args '{"scale": 2.5, "count": 3}' | FileCheck %s --check-prefix=KW
// RUN: not bef run %s --call mix --args '[{"bias": [1, 2], "weights": [[1, 2], [3, 4]]}]' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ARITY
// RUN: not bef run %s --call mix \
// RUN:   --args '[{"bias": {"btf": "../corpus/btf/tensors.btf", "index": 1}, "weights": [[1, 2], [3, 4]]}, [7, -9]]' \
// RUN:   2>&1 | FileCheck %s --check-prefix=DTYPE
// RUN: not bef run %s --call mix --args '[{"bias": [1, 2, 3], "weights": [[1, 2], [3, 4]]}, [7, -9]]' \
// RUN:   2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not bef run %s --call mix --args '[{"bias": [1, 2' 2>&1 | FileCheck %s --check-prefix=JSON
// RUN: not bef run %s --call mix --args '[{"bias": [1, 2], "weights": [[1, 2], [3, 4]]}, [7.5, 1]]' \
// RUN:   2>&1 | FileCheck %s --check-prefix=SCALAR

// MIX: {{\[\[\[}}0.5,-0.5],14,{{\[\[}}1.0,2.0],[3.0,4.0]],-9]]
// MIX-NOT: {{.}}
func.func @mix(%bias: !t.tensor, %weights: !t.tensor, %n: i32, %m: i64)
    -> (!t.tensor, i32, !t.tensor, i64)
    attributes {iree.abi = "{\"a\":[[\"sdict\",[\"bias\",[\"ndarray\",\"f32\",1,2]],[\"weights\",[\"ndarray\",\"f32\",2,2,2]]],[\"slist\",\"i32\",\"i64\"]],\"r\":[[\"stuple\",[\"ndarray\",\"f32\",1,2],\"i32\",[\"ndarray\",\"f32\",2,2,2],\"i64\"]],\"v\":1}"} {
  %twice = tfrt.add.i32 %n, %n
  tfrt.return %bias, %twice, %weights, %m : !t.tensor, i32, !t.tensor, i64
}

// BTF: [{"rows":{{\[\[}}1.5,-2.0,3.25],[0.0,-0.5,6.0]]}]
// BTF-NOT: {{.}}
func.func @first_rows(%t: !t.tensor) -> !t.tensor
    attributes {iree.abi = "{\"a\":[[\"ndarray\",\"f32\",2,2,3]],\"r\":[[\"sdict\",[\"rows\",[\"ndarray\",\"f32\",2,2,3]]]],\"v\":1}"} {
  tfrt.return %t : !t.tensor
}

// KW: {{^}}[7.5,3]
// KW-NOT: {{.}}
func.func @scalars(%count: i32, %scale: f32) -> (f32, i32)
    attributes {iree.abi = "{\"a\":[[\"named\",\"count\",\"i32\"],[\"named\",\"scale\",\"f32\"]],\"r\":[\"f32\",\"i32\"],\"v\":1}"} {
  %s = tfrt.add.f32 %scale, %scale
  %t = tfrt.add.f32 %s, %scale
  tfrt.return %t, %count : f32, i32
}

// ARITY: error: --args: mismatched call arity: the function takes 2 arguments, 1 given
// ARITY-NOT: {{.}}
// DTYPE: error: --args: argument 0['bias']: unexpected tensor dtype i32. Expected dtype is f32
// DTYPE-NOT: {{.}}
// SHAPE: error: function 'mix': argument 0['bias']: expected f32[2], given Buffer<f32[3]> (dim 0 is 3, expected 2)
// SHAPE-NOT: {{.}}
// JSON: error: --args: the arguments are not JSON: EOF while parsing a list at line 1 column 15
// JSON-NOT: {{.}}
// SCALAR: error: --args: argument 1[0]: 7.5 is not i32
// SCALAR-NOT: {{.}}
