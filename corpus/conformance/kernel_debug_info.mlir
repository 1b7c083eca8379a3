// A kernel's debug info is the names its location carries: a name, the
// names of a fused location joined, a call site's callee; a file position
// carries none. Unknown locations still tell kernels apart.
// RUN: bef run %s | FileCheck %s
// RUN: bef translate --mlir-to-bef %s | bef run - | FileCheck %s

// CHECK-LABEL: --- Running 'names':
func.func @names() -> !tfrt.chain {
  %c0 = tfrt.new.chain
  // CHECK-NEXT: {{^outer/inner$}}
  %c1 = "tfrt_test.print_debug_info"(%c0) : (!tfrt.chain) -> !tfrt.chain loc(#named)
  // CHECK-NEXT: {{^Kernel has no debug info$}}
  %c2 = "tfrt_test.print_debug_info"(%c1) : (!tfrt.chain) -> !tfrt.chain
  // CHECK-NEXT: {{^Kernel has no debug info$}}
  %c3 = "tfrt_test.print_debug_info"(%c2) : (!tfrt.chain) -> !tfrt.chain loc("x.py":3:4)
  // CHECK-NEXT: {{^onetwo$}}
  %c4 = "tfrt_test.print_debug_info"(%c3) : (!tfrt.chain) -> !tfrt.chain loc(fused["one", "x.py":1:1, "two"])
  // CHECK-NEXT: {{^callee$}}
  %c5 = "tfrt_test.print_debug_info"(%c4) : (!tfrt.chain) -> !tfrt.chain loc(callsite("callee" at "caller"))
  // CHECK-NEXT: {{^named$}}
  %c6 = "tfrt_test.print_debug_info"(%c5) : (!tfrt.chain) -> !tfrt.chain loc("named"("x.py":9:9))
  // CHECK-NEXT: {{^Kernel has no debug info$}}
  %c7 = "tfrt_test.print_debug_info"(%c6) : (!tfrt.chain) -> !tfrt.chain loc(unknown)
  tfrt.return %c7 : !tfrt.chain
}
// CHECK-NEXT: 'names' returned !tfrt.chain value

// CHECK-LABEL: --- Running 'unknown_locations_differ':
func.func @unknown_locations_differ() -> !tfrt.chain {
  %a = "tfrt_test.unique_loc"() {name = "first"} : () -> !tfrt.chain loc(unknown)
  %b = "tfrt_test.unique_loc"() {name = "second"} : () -> !tfrt.chain loc(unknown)
  %c = "tfrt_test.unique_loc"() {name = "third"} : () -> !tfrt.chain loc(unknown)
  %d = "tfrt_test.unique_loc"() {name = "fourth"} : () -> !tfrt.chain loc(unknown)
  %ch = tfrt.merge.chains %a, %b, %c, %d : !tfrt.chain, !tfrt.chain, !tfrt.chain, !tfrt.chain
  tfrt.return %ch : !tfrt.chain
}
// CHECK-NEXT: 'unknown_locations_differ' returned !tfrt.chain value

#named = loc("outer/inner")
