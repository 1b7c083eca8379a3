func.func @f() -> f32 {
  %x = tfrt.constant.f32 1.0 loc(#loc0)
  %ch = tfrt.new.chain loc(fused["a.py":42:314, "b"])
  %ch2 = tfrt.print.f32 %x, %ch loc(callsite("f" at "a.py":1:2))
  tfrt.return %x : f32 loc(unknown)
}
#loc0 = loc("name"("x.mlir":3:7))
