// Kernels located in files a viewer must not show: system files, a
// device, and names the replaying test makes into a file that is not a
// source (secret.txt), links to such files (environ_link.mlir to
// /proc/self/environ, secret_link.mlir to secret.txt, zero_link.mlir to
// /dev/zero) and a FIFO (pipe.mlir). As BEF or bytecode, whose source is
// looked up by these names, none of them may be read.
func.func @main() -> !tfrt.chain {
  %ch0 = tfrt.new.chain loc("/etc/passwd":1:1)
  %ch1 = "tfrt_test.print_debug_info"(%ch0) : (!tfrt.chain) -> (!tfrt.chain) loc("/proc/self/environ":1:1)
  %ch2 = "tfrt_test.print_debug_info"(%ch1) : (!tfrt.chain) -> (!tfrt.chain) loc("/dev/zero":1:1)
  %ch3 = "tfrt_test.print_debug_info"(%ch2) : (!tfrt.chain) -> (!tfrt.chain) loc("environ_link.mlir":1:1)
  %ch4 = "tfrt_test.print_debug_info"(%ch3) : (!tfrt.chain) -> (!tfrt.chain) loc("secret.txt":1:1)
  %ch5 = "tfrt_test.print_debug_info"(%ch4) : (!tfrt.chain) -> (!tfrt.chain) loc("secret_link.mlir":1:1)
  %ch6 = "tfrt_test.print_debug_info"(%ch5) : (!tfrt.chain) -> (!tfrt.chain) loc("zero_link.mlir":1:1)
  %ch7 = "tfrt_test.print_debug_info"(%ch6) : (!tfrt.chain) -> (!tfrt.chain) loc("pipe.mlir":1:1)
  tfrt.return %ch7 : !tfrt.chain
}
