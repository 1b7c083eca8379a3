func.func @m(%a: memref<?x?xf32>, %b: memref<*xi8>, %c: memref<4xf32, 1>) {
  tfrt.return
}
