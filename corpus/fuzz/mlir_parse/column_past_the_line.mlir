"tfrt.x"() {x = unit} : () -> () loc("fuzz.mlir":1:4294967295)
