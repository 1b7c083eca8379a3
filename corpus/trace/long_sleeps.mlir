// Twenty functions that each sleep a second on the blocking pool, run one
// after the other: twenty seconds unless the recording is stopped, when
// the sleep under way finishes and the functions after it do not start.

func.func @sleep_01() -> !tfrt.chain {
  %second = tfrt.constant.i32 1000000
  %done = "tfrt_test.blocking.usleep"(%second) : (i32) -> !tfrt.chain
  tfrt.return %done : !tfrt.chain
}

func.func @sleep_02() -> !tfrt.chain {
  %second = tfrt.constant.i32 1000000
  %done = "tfrt_test.blocking.usleep"(%second) : (i32) -> !tfrt.chain
  tfrt.return %done : !tfrt.chain
}

func.func @sleep_03() -> !tfrt.chain {
  %second = tfrt.constant.i32 1000000
  %done = "tfrt_test.blocking.usleep"(%second) : (i32) -> !tfrt.chain
  tfrt.return %done : !tfrt.chain
}

func.func @sleep_04() -> !tfrt.chain {
  %second = tfrt.constant.i32 1000000
  %done = "tfrt_test.blocking.usleep"(%second) : (i32) -> !tfrt.chain
  tfrt.return %done : !tfrt.chain
}

func.func @sleep_05() -> !tfrt.chain {
  %second = tfrt.constant.i32 1000000
  %done = "tfrt_test.blocking.usleep"(%second) : (i32) -> !tfrt.chain
  tfrt.return %done : !tfrt.chain
}

func.func @sleep_06() -> !tfrt.chain {
  %second = tfrt.constant.i32 1000000
  %done = "tfrt_test.blocking.usleep"(%second) : (i32) -> !tfrt.chain
  tfrt.return %done : !tfrt.chain
}

func.func @sleep_07() -> !tfrt.chain {
  %second = tfrt.constant.i32 1000000
  %done = "tfrt_test.blocking.usleep"(%second) : (i32) -> !tfrt.chain
  tfrt.return %done : !tfrt.chain
}

func.func @sleep_08() -> !tfrt.chain {
  %second = tfrt.constant.i32 1000000
  %done = "tfrt_test.blocking.usleep"(%second) : (i32) -> !tfrt.chain
  tfrt.return %done : !tfrt.chain
}

func.func @sleep_09() -> !tfrt.chain {
  %second = tfrt.constant.i32 1000000
  %done = "tfrt_test.blocking.usleep"(%second) : (i32) -> !tfrt.chain
  tfrt.return %done : !tfrt.chain
}

func.func @sleep_10() -> !tfrt.chain {
  %second = tfrt.constant.i32 1000000
  %done = "tfrt_test.blocking.usleep"(%second) : (i32) -> !tfrt.chain
  tfrt.return %done : !tfrt.chain
}

func.func @sleep_11() -> !tfrt.chain {
  %second = tfrt.constant.i32 1000000
  %done = "tfrt_test.blocking.usleep"(%second) : (i32) -> !tfrt.chain
  tfrt.return %done : !tfrt.chain
}

func.func @sleep_12() -> !tfrt.chain {
  %second = tfrt.constant.i32 1000000
  %done = "tfrt_test.blocking.usleep"(%second) : (i32) -> !tfrt.chain
  tfrt.return %done : !tfrt.chain
}

func.func @sleep_13() -> !tfrt.chain {
  %second = tfrt.constant.i32 1000000
  %done = "tfrt_test.blocking.usleep"(%second) : (i32) -> !tfrt.chain
  tfrt.return %done : !tfrt.chain
}

func.func @sleep_14() -> !tfrt.chain {
  %second = tfrt.constant.i32 1000000
  %done = "tfrt_test.blocking.usleep"(%second) : (i32) -> !tfrt.chain
  tfrt.return %done : !tfrt.chain
}

func.func @sleep_15() -> !tfrt.chain {
  %second = tfrt.constant.i32 1000000
  %done = "tfrt_test.blocking.usleep"(%second) : (i32) -> !tfrt.chain
  tfrt.return %done : !tfrt.chain
}

func.func @sleep_16() -> !tfrt.chain {
  %second = tfrt.constant.i32 1000000
  %done = "tfrt_test.blocking.usleep"(%second) : (i32) -> !tfrt.chain
  tfrt.return %done : !tfrt.chain
}

func.func @sleep_17() -> !tfrt.chain {
  %second = tfrt.constant.i32 1000000
  %done = "tfrt_test.blocking.usleep"(%second) : (i32) -> !tfrt.chain
  tfrt.return %done : !tfrt.chain
}

func.func @sleep_18() -> !tfrt.chain {
  %second = tfrt.constant.i32 1000000
  %done = "tfrt_test.blocking.usleep"(%second) : (i32) -> !tfrt.chain
  tfrt.return %done : !tfrt.chain
}

func.func @sleep_19() -> !tfrt.chain {
  %second = tfrt.constant.i32 1000000
  %done = "tfrt_test.blocking.usleep"(%second) : (i32) -> !tfrt.chain
  tfrt.return %done : !tfrt.chain
}

func.func @sleep_20() -> !tfrt.chain {
  %second = tfrt.constant.i32 1000000
  %done = "tfrt_test.blocking.usleep"(%second) : (i32) -> !tfrt.chain
  tfrt.return %done : !tfrt.chain
}
