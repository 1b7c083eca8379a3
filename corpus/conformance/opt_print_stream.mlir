// --tfrt-print-stream reports the stream analysis (the one the translator
// writes into BEF) as remarks: one at each function for its root stream,
// one at each op. --verify-diagnostics matches them against the
// expected-remark annotations; without it they go to standard error.
// RUN: bef opt --tfrt-print-stream --verify-diagnostics %s
// RUN: tfrt_opt -tfrt-print-stream %s 2>&1 | FileCheck %s

module attributes {tfrt.cost_threshold = 3 : i64} {

// Two independent ops, each of cost 3 (the threshold, the cost of ops that
// state none): each starts a stream; the entry continues in the first and
// the second forks.
// CHECK: remark: stream id: 0, stream cost: 5, parent stream: -1, child streams: [1]
// expected-remark@+1 {{stream id: 0, stream cost: 5, parent stream: -1, child streams: [1]}}
func.func @fork() -> (i32, i32) {
  // expected-remark@+1 {{stream id: 0, stream cost: 5, parent stream: -1}}
  %a = tfrt.constant.i32 1
  // CHECK: remark: stream id: 1, stream cost: 3, parent stream: 0
  // expected-remark@+1 {{stream id: 1, stream cost: 3, parent stream: 0}}
  %b = tfrt.constant.i32 2
  // expected-remark@+1 {{stream id: 0, stream cost: 5, parent stream: -1}}
  tfrt.return %a, %b : i32, i32
}

// Cheap independent ops (stated cost 1, below the threshold) merge into one
// stream that the entry continues.
// expected-remark@+1 {{stream id: 0, stream cost: 4, parent stream: -1}}
func.func @cheap(%x: i32) -> (i32, i32) {
  // expected-remark@+1 {{stream id: 0, stream cost: 4, parent stream: -1}}
  %a = tfrt_test.test_cost %x {id = 0 : i64, _tfrt_cost = 1 : i64} : i32
  // expected-remark@+1 {{stream id: 0, stream cost: 4, parent stream: -1}}
  %b = tfrt_test.test_cost %x {id = 1 : i64, _tfrt_cost = 1 : i64} : i32
  // expected-remark@+1 {{stream id: 0, stream cost: 4, parent stream: -1}}
  tfrt.return %a, %b : i32, i32
}

// The entry continues in the stream of the return, even a cheaper one: the
// return uses nothing, so it starts stream 0 by itself and the entry joins
// it; %a and its user (stream 2, cost 2) and %c (stream 1) fork.
// CHECK: remark: stream id: 0, stream cost: 2, parent stream: -1, child streams: [2, 1]
// expected-remark@+1 {{stream id: 0, stream cost: 2, parent stream: -1, child streams: [2, 1]}}
func.func @return_stream() attributes {tfrt.cost_threshold = 1 : i64} {
  // CHECK: remark: stream id: 2, stream cost: 2, parent stream: 0
  // expected-remark@+1 {{stream id: 2, stream cost: 2, parent stream: 0}}
  %a = tfrt.constant.i32 1
  // expected-remark@+1 {{stream id: 2, stream cost: 2, parent stream: 0}}
  %b = tfrt.add.i32 %a, %a
  // expected-remark@+1 {{stream id: 1, stream cost: 1, parent stream: 0}}
  %c = tfrt.constant.i32 2
  // expected-remark@+1 {{stream id: 0, stream cost: 2, parent stream: -1}}
  tfrt.return
}

}
