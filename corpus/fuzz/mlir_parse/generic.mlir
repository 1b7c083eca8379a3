module attributes {tfrt.cost_threshold = 3 : i64} {
  func.func @f(%ch: !tfrt.chain) -> (!tfrt.chain, i32) {
    %r:2 = "test.op"(%ch) {a = [1 : i32, "s", [2.5 : f32]], b = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>} : (!tfrt.chain) -> (!tfrt.chain, i32) loc("gen.mlir":3:5)
    tfrt.return %r#0, %r#1 : !tfrt.chain, i32
  }
}
