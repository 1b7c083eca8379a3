//! `vt.*` value-tracking kernels: when values are created and released.

use crate::kernels::test_support::{run, serial};

const SRC: &str = r#"
func.func @test_linear() {
  %ch0 = tfrt.new.chain
  %v1 = "vt.constant"() { value = 1 : i32 } : () -> !vt.value
  %v2 = "vt.constant"() { value = 2 : i32 } : () -> !vt.value
  %r = "vt.add"(%v1, %v2) : (!vt.value,  !vt.value) -> !vt.value
  "vt.print"(%r, %ch0) : (!vt.value, !tfrt.chain) -> (!tfrt.chain)
  "vt.constant"() { value = 4 : i32 } : () -> !vt.value
  tfrt.return
}
func.func @no_op(%x: !vt.value) -> !vt.value {
  tfrt.return %x : !vt.value
}
func.func @call_no_op() {
  %c1 = "vt.constant"() { value = 2 : i32 } : () -> !vt.value
  %x = tfrt.call @no_op(%c1) : (!vt.value) -> !vt.value
  %ch0 = tfrt.new.chain
  "vt.print"(%x, %ch0) : (!vt.value, !tfrt.chain) -> (!tfrt.chain)
  tfrt.return
}
func.func @share_to_two() {
  %c1 = "vt.constant"() { value = 1 : i32 } : () -> !vt.value
  %x1, %x2 = "tfrt_test.share_to_two"(%c1) : (!vt.value) -> (!vt.value, !vt.value)
  %ch0 = tfrt.new.chain
  "vt.print"(%x1, %ch0) : (!vt.value, !tfrt.chain) -> (!tfrt.chain)
  "vt.print"(%x2, %ch0) : (!vt.value, !tfrt.chain) -> (!tfrt.chain)
  tfrt.return
}
func.func @bad_add() {
  %c1 = "vt.constant"() { value = 1 : i32 } : () -> !vt.value
  %i = tfrt.constant.i32 1
  %r = "vt.add"(%c1, %i) : (!vt.value, i32) -> !vt.value
  tfrt.return
}
"#;

/// Where `line` is in `lines` (it must occur exactly once).
fn position(lines: &[&str], line: &str) -> usize {
    let found: Vec<usize> = (0..lines.len()).filter(|&i| lines[i] == line).collect();
    assert_eq!(found.len(), 1, "{line:?} in {lines:#?}");
    found[0]
}

#[test]
fn linear_values_are_destroyed_after_their_last_use() {
    let _serial = serial();
    // The order of independent kernels (vt.constant 4 against the others)
    // is the executor's; each value's own history is the kernels'.
    for queue in ["s", "mstd:2"] {
        let r = run(SRC, "test_linear", queue);
        let lines = r.lines();
        assert_eq!(lines.len(), 13, "{lines:#?}");
        let at = |line: &str| position(&lines, line);
        for v in 1..=4 {
            let constructed = at(&format!("constructed vt.value({v})"));
            let moved = at(&format!("move constructed vt.value({v})"));
            // On two threads another kernel's line may fall in between.
            if queue == "s" {
                assert_eq!(constructed + 1, moved, "{queue}");
            } else {
                assert!(constructed < moved, "{queue}");
            }
            assert!(
                at(&format!("move constructed vt.value({v})"))
                    < at(&format!("destroyed vt.value({v})"))
            );
        }
        for v in 1..=2 {
            assert!(at("move constructed vt.value(3)") < at(&format!("destroyed vt.value({v})")));
        }
        assert!(at("print vt_value(3)") < at("destroyed vt.value(3)"));
        assert!(at("move constructed vt.value(3)") < at("print vt_value(3)"));
    }
}

#[test]
fn calls_and_sharing_keep_one_value() {
    let _serial = serial();
    let r = run(SRC, "call_no_op", "s");
    assert_eq!(
        r.lines(),
        [
            "constructed vt.value(2)",
            "move constructed vt.value(2)",
            "print vt_value(2)",
            "destroyed vt.value(2)",
        ]
    );
    let r = run(SRC, "share_to_two", "s");
    assert_eq!(
        r.lines(),
        [
            "constructed vt.value(1)",
            "move constructed vt.value(1)",
            "print vt_value(1)",
            "print vt_value(1)",
            "destroyed vt.value(1)",
        ]
    );
    let r = run(SRC, "bad_add", "mstd:2");
    assert_eq!(r.errors.len(), 1, "{:?}", r.errors);
    assert!(
        r.errors[0].message.contains("argument #1"),
        "{:?}",
        r.errors
    );
    assert!(
        r.output.ends_with("destroyed vt.value(1)\n"),
        "{}",
        r.output
    );
}
