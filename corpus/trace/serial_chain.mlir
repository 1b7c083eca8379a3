// A serial chain: each add reads the previous result, so every kernel is
// on the critical path and none has slack.
func.func @chain() -> i32 {
  %v0 = tfrt.constant.i32 1
  %v1 = tfrt.add.i32 %v0, %v0
  %v2 = tfrt.add.i32 %v1, %v1
  %v3 = tfrt.add.i32 %v2, %v2
  %v4 = tfrt.add.i32 %v3, %v3
  %v5 = tfrt.add.i32 %v4, %v4
  %v6 = tfrt.add.i32 %v5, %v5
  %v7 = tfrt.add.i32 %v6, %v6
  %v8 = tfrt.add.i32 %v7, %v7
  tfrt.return %v8 : i32
}
