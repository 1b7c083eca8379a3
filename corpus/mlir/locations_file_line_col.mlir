// Explicit FileLineCol locations on ops and on a function, next to ops that take their own position.
func.func @file_line_col() -> i32 {
  %a = tfrt.constant.i32 1 loc("file.mlir":3:7)
  %b = tfrt.constant.i32 2 loc("other/dir/model.py":120:15)
  %c = tfrt.add.i32 %a, %b
  %d = "tfrt_test.identity"(%c) : (i32) -> i32 loc("file.mlir":100000:1)
  tfrt.return %d : i32
} loc("file.mlir":1:1)
