// Kernels that fail or report errors at run time; translation only needs them to be well formed.
func.func @test_fail() -> i32 {
  %x = "tfrt_test.fail"() : () -> i32
  tfrt.return %x : i32
}

func.func @report_errors() -> !tfrt.chain {
  %ch0 = tfrt.new.chain
  %ch1 = "tfrt_test.report_error_sync"(%ch0) {message = "something bad happened"} : (!tfrt.chain) -> !tfrt.chain
  %ch2 = "tfrt_test.report_error_async"(%ch1) {message = "something bad happened asynchronously"} : (!tfrt.chain) -> !tfrt.chain
  tfrt.return %ch2 : !tfrt.chain
}

func.func @sync_fail() -> i32 attributes {tfrt.sync} {
  %x = "tfrt_test.fail_s"() : () -> i32
  tfrt.return %x : i32
}
