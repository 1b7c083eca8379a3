//! Unit tests of the passes and the verifier, on small programs.

use super::Pass;
use super::canonicalize::{canonicalize, is_pure};
use super::inline::inline;
use super::print_stream::print_streams;
use super::verify::{check_registered_dialects, verify};
use crate::ir::{Diagnostic, Location, Module, Severity};
use crate::text::{PrintOptions, parse_module, print_module, render_diagnostic};

fn parse(source: &str) -> Module {
    parse_module(source, "t.mlir").unwrap_or_else(|d| panic!("{}", render_diagnostic(&d, source)))
}

fn print(module: &Module) -> String {
    print_module(module, PrintOptions::default())
}

/// The function bodies of the printed module, without the `module {}`
/// wrapper and indentation, one line each.
fn lines(module: &Module) -> Vec<String> {
    print(module)
        .lines()
        .map(str::trim)
        .filter(|l| *l != "module {" && *l != "}")
        .map(str::to_string)
        .collect()
}

/// Runs `f` on the parsed program, checks that the result still verifies
/// and returns its lines.
fn after(source: &str, f: impl FnOnce(&mut Module)) -> Vec<String> {
    let mut module = parse(source);
    verify(&module).unwrap_or_else(|d| panic!("input does not verify: {d}"));
    f(&mut module);
    verify(&module).unwrap_or_else(|d| panic!("output does not verify: {d}\n{}", print(&module)));
    lines(&module)
}

fn verify_error(source: &str) -> Diagnostic {
    let module = parse(source);
    match verify(&module) {
        Ok(()) => panic!("verified:\n{source}"),
        Err(d) => d,
    }
}

// ---- canonicalize -----------------------------------------------------------

#[test]
fn merge_of_chains_used_elsewhere_is_its_first_operand() {
    let got = after(
        "func.func @f(%a: !tfrt.chain, %b: !tfrt.chain) -> (!tfrt.chain, !tfrt.chain, !tfrt.chain) {
           %m = tfrt.merge.chains %a, %b : !tfrt.chain, !tfrt.chain
           %n = tfrt.merge.chains %m, %a : !tfrt.chain, !tfrt.chain
           tfrt.return %n, %a, %b : !tfrt.chain, !tfrt.chain, !tfrt.chain
         }",
        canonicalize,
    );
    // %m's operands are both used elsewhere: %m is %a. Then %n merges %a
    // (used elsewhere) twice over: %n is %a too.
    assert_eq!(
        got[1],
        "tfrt.return %arg0, %arg0, %arg1 : !tfrt.chain, !tfrt.chain, !tfrt.chain"
    );
    assert_eq!(got.len(), 2, "{got:?}");
}

#[test]
fn merge_keeps_the_chains_it_alone_uses() {
    let got = after(
        "func.func @f(%a: !tfrt.chain, %b: !tfrt.chain) -> (!tfrt.chain, !tfrt.chain) {
           %c = tfrt.new.chain
           %m = tfrt.merge.chains %a, %b, %c : !tfrt.chain, !tfrt.chain, !tfrt.chain
           tfrt.return %m, %b : !tfrt.chain, !tfrt.chain
         }",
        canonicalize,
    );
    assert_eq!(
        got[1..3],
        [
            "%0 = tfrt.new.chain",
            "%1 = tfrt.merge.chains %arg0, %0 : !tfrt.chain, !tfrt.chain"
        ]
    );
}

#[test]
fn merge_with_a_non_chain_first_operand_stays() {
    let got = after(
        "func.func @f(%x: i32) -> (!tfrt.chain, i32) {
           %m = tfrt.merge.chains %x : i32
           tfrt.return %m, %x : !tfrt.chain, i32
         }",
        canonicalize,
    );
    assert_eq!(got[1], "%0 = tfrt.merge.chains %arg0 : i32");
}

#[test]
fn dead_pure_ops_go_in_cascade_and_effects_stay() {
    let got = after(
        "func.func @f(%x: i32, %ch: !tfrt.chain) -> !tfrt.chain {
           %one = tfrt.constant.i32 1
           %a = tfrt.add.i32 %x, %one
           %b = tfrt.add.i32 %a, %a
           %eq = tfrt.equal.i32 %b, %x
           %ch1 = tfrt.print.i32 %x, %ch
           %kept = \"tfrt.unknown_op\"(%x) : (i32) -> i32
           tfrt.return %ch1 : !tfrt.chain
         }",
        canonicalize,
    );
    assert_eq!(
        got[1..],
        [
            "%0 = tfrt.print.i32 %arg0, %arg1",
            "%1 = \"tfrt.unknown_op\"(%arg0) : (i32) -> i32",
            "tfrt.return %0 : !tfrt.chain",
        ]
    );
}

#[test]
fn canonicalize_is_idempotent() {
    let source = "func.func @f(%a: !tfrt.chain, %b: !tfrt.chain) -> (!tfrt.chain, !tfrt.chain) {
                    %m = tfrt.merge.chains %a, %b : !tfrt.chain, !tfrt.chain
                    %z = tfrt.constant.i64 0
                    tfrt.return %m, %a : !tfrt.chain, !tfrt.chain
                  }";
    let once = after(source, canonicalize);
    let twice = after(source, |m| {
        canonicalize(m);
        canonicalize(m);
    });
    assert_eq!(once, twice);
}

#[test]
fn purity_follows_the_reference_definitions() {
    for pure in [
        "tfrt.constant.i32",
        "tfrt.constant.bf16",
        "tfrt.new.chain",
        "tfrt.merge.chains",
        "tfrt.add.f64",
        "tfrt.div.i64",
        "tfrt_test.count3.i32",
    ] {
        assert!(is_pure(pure), "{pure}");
    }
    for effect in [
        "tfrt.print.i32",
        "tfrt.call",
        "tfrt.constant.x",
        "tfrt_test.count3.f32",
        "my.add.i32",
        "tfrt",
    ] {
        assert!(!is_pure(effect), "{effect}");
    }
}

// ---- inline -----------------------------------------------------------------

const CALLEES: &str = "
func.func private @inc(%x: i32) -> i32 {
  %one = tfrt.constant.i32 1
  %y = tfrt.add.i32 %x, %one
  tfrt.return %y : i32
}
";

#[test]
fn private_callee_is_inlined_and_erased() {
    let source = format!(
        "{CALLEES}
         func.func @main(%x: i32) -> i32 {{
           %a = tfrt.call @inc(%x) : (i32) -> i32
           %b = tfrt.call @inc(%a) : (i32) -> i32
           tfrt.return %b : i32
         }}"
    );
    let got = after(&source, inline);
    assert_eq!(
        got,
        [
            "func.func @main(%arg0: i32) -> i32 {",
            "%0 = tfrt.constant.i32 1",
            "%1 = tfrt.add.i32 %arg0, %0",
            "%2 = tfrt.constant.i32 1",
            "%3 = tfrt.add.i32 %1, %2",
            "tfrt.return %3 : i32",
        ]
    );
}

#[test]
fn public_callee_stays_and_unused_private_functions_go() {
    let source = "func.func @id(%x: i32) -> i32 {
                    tfrt.return %x : i32
                  }
                  func.func private @never(%x: i32) -> i32 {
                    tfrt.return %x : i32
                  }
                  func.func @main(%x: i32) -> i32 {
                    %a = tfrt.call @id(%x) : (i32) -> i32
                    tfrt.return %a : i32
                  }";
    let got = after(source, inline);
    assert_eq!(
        got,
        [
            "func.func @id(%arg0: i32) -> i32 {",
            "tfrt.return %arg0 : i32",
            "func.func @main(%arg0: i32) -> i32 {",
            "tfrt.return %arg0 : i32",
        ]
    );
}

#[test]
fn recursion_is_not_unrolled() {
    let source = "func.func private @ping(%x: i32) -> i32 {
                    %a = tfrt.call @pong(%x) : (i32) -> i32
                    tfrt.return %a : i32
                  }
                  func.func private @pong(%x: i32) -> i32 {
                    %a = tfrt.call @ping(%x) : (i32) -> i32
                    tfrt.return %a : i32
                  }
                  func.func @self(%x: i32) -> i32 {
                    %a = tfrt.call @self(%x) : (i32) -> i32
                    tfrt.return %a : i32
                  }
                  func.func @main(%x: i32) -> i32 {
                    %a = tfrt.call @ping(%x) : (i32) -> i32
                    tfrt.return %a : i32
                  }";
    let got = after(source, inline);
    // @ping is inlined into @main, then @pong; the call to @ping that
    // brings back is on the inlining path and stays.
    let main = got
        .iter()
        .position(|l| l.starts_with("func.func @main"))
        .unwrap();
    assert_eq!(got[main + 1], "%0 = tfrt.call @ping(%arg0) : (i32) -> i32");
    assert!(got.contains(&"%0 = tfrt.call @self(%arg0) : (i32) -> i32".to_string()));
    assert!(got.iter().any(|l| l.starts_with("func.func private @pong")));
}

#[test]
fn calls_in_regions_and_across_kinds_stay() {
    let source = format!(
        "{CALLEES}
         func.func @sync(%x: i32) -> i32 attributes {{tfrt.sync}} {{
           tfrt.return %x : i32
         }}
         func.func private @native(%x: i32) -> i32 attributes {{tfrt.native}}
         func.func @main(%c: i1, %x: i32) -> i32 {{
           %r = tfrt.if %c, %x : (i32) -> (i32) {{
             %y = tfrt.call @inc(%x) : (i32) -> i32
             tfrt.return %y : i32
           }} else {{
             tfrt.return %x : i32
           }}
           %s = tfrt.call @sync(%r) : (i32) -> i32
           %n = tfrt.call @native(%s) : (i32) -> i32
           tfrt.return %n : i32
         }}"
    );
    let got = after(&source, inline);
    for call in [
        "%1 = tfrt.call @inc(%arg1) : (i32) -> i32",
        "%2 = tfrt.call @sync(%0) : (i32) -> i32",
        "%3 = tfrt.call @native(%2) : (i32) -> i32",
    ] {
        assert!(
            got.contains(&call.to_string()),
            "{call} missing in {got:#?}"
        );
    }
    assert!(got.iter().any(|l| l.starts_with("func.func private @inc")));
}

#[test]
fn inlined_regions_get_fresh_values_and_call_site_locations() {
    let source = "func.func private @pick(%c: i1, %x: i32) -> i32 {
                    %r = tfrt.if %c, %x : (i32) -> (i32) {
                      %y = tfrt.add.i32 %x, %x
                      tfrt.return %y : i32
                    } else {
                      tfrt.return %x : i32
                    }
                    tfrt.return %r : i32
                  }
                  func.func @main(%c: i1, %x: i32) -> (i32, i32) {
                    %a = tfrt.call @pick(%c, %x) : (i1, i32) -> i32
                    %b = tfrt.call @pick(%c, %a) : (i1, i32) -> i32
                    tfrt.return %a, %b : i32, i32
                  }";
    let mut module = parse(source);
    inline(&mut module);
    verify(&module).unwrap();
    let func = module.functions().next().unwrap();
    assert_eq!(func.name(), "main");
    let ops = &func.body().unwrap().blocks[0].ops;
    assert_eq!(ops.len(), 3, "{}", print(&module));
    assert_ne!(ops[0].results, ops[1].results);
    let Location::CallSite { callee, caller } = &ops[0].location else {
        panic!("{:?}", ops[0].location);
    };
    assert_eq!(**callee, Location::file_line_col("t.mlir", 2, 26));
    assert_eq!(**caller, Location::file_line_col("t.mlir", 11, 26));
    // The nested op is relocated too.
    let nested = &ops[1].regions[0].blocks[0].ops[0];
    assert!(matches!(nested.location, Location::CallSite { .. }));
    // And the module prints and parses back.
    let text = print_module(
        &module,
        PrintOptions {
            generic: false,
            debug_info: true,
        },
    );
    assert_eq!(parse(&text), module);
}

// ---- print stream -------------------------------------------------------------

#[test]
fn stream_remarks_cover_the_function_and_each_op() {
    let module = parse(
        "module attributes {tfrt.cost_threshold = 2 : i64} {
           func.func @f() -> (i32, i32) {
             %a = tfrt.constant.i32 1
             %b = tfrt.constant.i32 2
             tfrt.return %a, %b : i32, i32
           }
         }",
    );
    let remarks = print_streams(&module);
    let messages: Vec<&str> = remarks.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "stream id: 0, stream cost: 4, parent stream: -1, child streams: [1]",
            "stream id: 0, stream cost: 4, parent stream: -1",
            "stream id: 1, stream cost: 2, parent stream: 0",
            "stream id: 0, stream cost: 4, parent stream: -1",
        ]
    );
    assert!(remarks.iter().all(|d| d.severity == Severity::Remark));
    assert_eq!(
        remarks[0].location.primary_position(),
        Some(("t.mlir", 2, 12))
    );
    // The pass leaves the module as it was.
    let mut copy = module.clone();
    assert_eq!(Pass::PrintStream.run(&mut copy).len(), 4);
    assert_eq!(copy, module);
}

#[test]
fn threshold_zero_is_the_average_stated_cost() {
    let program = |threshold: i64| {
        parse(&format!(
            "func.func @f(%x: i32) -> i32 attributes {{tfrt.cost_threshold = {threshold} : i64}} {{
               %a = tfrt_test.test_cost %x {{id = 0 : i64, _tfrt_cost = 4 : i64}} : i32
               %b = tfrt_test.test_cost %x {{id = 1 : i64, _tfrt_cost = 4 : i64}} : i32
               %c = tfrt_test.test_cost %x {{id = 2 : i64, _tfrt_cost = 4 : i64}} : i32
               %d = tfrt_test.test_cost %x {{id = 3 : i64, _tfrt_cost = 4 : i64}} : i32
               %e = tfrt_test.test_cost %a, %b, %c, %d {{id = 4 : i64, _tfrt_cost = 20 : i64}} : i32, i32, i32, i32
               tfrt.return %e : i32
             }}"
        ))
    };
    let messages =
        |m: &Module| -> Vec<String> { print_streams(m).into_iter().map(|d| d.message).collect() };
    // (4 * 4 + 20) / 5 = 7.
    let auto = messages(&program(0));
    assert_eq!(auto, messages(&program(7)));
    assert_ne!(auto, messages(&program(1)));
}

// ---- verify -------------------------------------------------------------------

#[test]
fn verifier_messages() {
    let cases: [(&str, &str); 10] = [
        (
            "func.func @f(%x: i32) { tfrt.return %x : i32 }",
            "'tfrt.return' op has 1 operands, but enclosing function returns 0",
        ),
        (
            "func.func @f(%x: i32) -> !tfrt.chain { tfrt.return %x : i32 }",
            "type of return operand 0 ('i32') doesn't match function result type ('!tfrt.chain')",
        ),
        (
            "func.func @f(%c: i1, %v: i32) -> i32 {
               tfrt.if %c, %v : (i32) -> () { tfrt.return %v : i32 }
               tfrt.return %v : i32
             }",
            "'tfrt.return' op operand types don't match 'tfrt.if' result",
        ),
        (
            "func.func @f() { %a = \"ts.build_shape\"() { value = [1 : i64] } : () -> i64
               tfrt.return }",
            "'ts.build_shape' op result #0 must be !ts.shape type, but got 'i64'",
        ),
        (
            "func.func @f(%x: i32) -> i32 {
               %r = tfrt_test.test_cost %x {id = 0 : i64, _tfrt_cost = 0 : i64} : i32
               tfrt.return %r : i32 }",
            "'tfrt_test.test_cost' op cost value must be larger than 0",
        ),
        (
            "func.func @f(%x: i32) -> i32 {
               %r = \"tfrt_test.test_cost\"(%x) {id = 0 : i64} : (i32) -> i32
               tfrt.return %r : i32 }",
            "'tfrt_test.test_cost' op requires attribute '_tfrt_cost'",
        ),
        (
            "func.func @g(%x: i32) -> i32 { tfrt.return %x : i32 }
             func.func @f(%x: i32) -> i64 {
               %r = tfrt.call @g(%x) : (i32) -> i64
               tfrt.return %r : i64 }",
            "'tfrt.call' op result type mismatch",
        ),
        (
            "func.func @f(%x: i32) -> i32 {
               %r:2 = \"tfrt.add.i32\"(%x, %x) : (i32, i32) -> (i32, i32)
               tfrt.return %r#0 : i32 }",
            "'tfrt.add.i32' op requires one result",
        ),
        (
            "func.func @f(%x: i32) -> i64 {
               %r = tfrt_test.do.async %x : (i32) -> (i64) { tfrt.return %x : i32 }
               tfrt.return %r : i64 }",
            "'tfrt.return' op operand types don't match 'tfrt_test.do.async' result",
        ),
        (
            "func.func @f(%x: i32) {
               tfrt_test.benchmark \"b\"(%x : i32) max_count = 1 { tfrt.return }
               tfrt.return }",
            "'tfrt_test.benchmark' op incorrect number of return values. One return value is expected",
        ),
    ];
    for (source, message) in cases {
        assert_eq!(verify_error(source).message, message, "{source}");
    }
}

#[test]
fn verifier_points_at_the_offending_op() {
    let d = verify_error(
        "func.func @f(%x: i32) -> i32 {
           %y = tfrt.add.i32 %x, %x
           tfrt.return %x : i32
           tfrt.return %y : i32
         }",
    );
    assert_eq!(
        d.message,
        "'tfrt.return' op must be the last operation in the parent block"
    );
    assert_eq!(d.location.primary_position(), Some(("t.mlir", 3, 12)));
}

#[test]
fn every_translatable_corpus_program_verifies() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for (path, chunk) in crate::test_corpus::corpus_chunks() {
        // Programs that are wrong on purpose say what is wrong.
        if chunk.contains("expected-error") {
            continue;
        }
        let Ok(module) = parse_module(&chunk, "c.mlir") else {
            continue;
        };
        if crate::translate::mlir_to_bef(&module, Default::default()).is_err() {
            continue;
        }
        if let Err(d) = verify(&module) {
            failures.push(format!(
                "{}: {}",
                path.display(),
                render_diagnostic(&d, &chunk)
            ));
        }
        checked += 1;
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked > 100, "only {checked} programs");
}

#[test]
fn unregistered_dialects_are_reported() {
    let module = parse("func.func @f() { \"use\"() : () -> ()\n tfrt.return }");
    let d = check_registered_dialects(&module).unwrap_err();
    assert!(
        d.message
            .starts_with("operation being parsed with an unregistered dialect")
    );
    assert_eq!(d.location.primary_position(), Some(("t.mlir", 1, 18)));
    let module = parse("func.func @f(%x: !my.type) { tfrt.return }");
    let d = check_registered_dialects(&module).unwrap_err();
    assert!(d.message.contains("'!my.type'"), "{}", d.message);
    let module = parse(
        "func.func @f(%t: !t.tensor, %ch: !tfrt.chain) -> !tfrt.chain {
           %c = tfrt_dht.print_tensor %t, %ch
           tfrt.return %c : !tfrt.chain }",
    );
    check_registered_dialects(&module).unwrap();
}

#[test]
fn passes_have_their_reference_names() {
    for pass in Pass::ALL {
        assert_eq!(Pass::from_name(pass.name()), Some(pass));
    }
    assert_eq!(Pass::from_name("cse"), None);
}

// ---- fuse-matmul-epilogue ---------------------------------------------------

/// The lines of `source` after the fusion pass, and how many it fused.
fn fused(source: &str) -> (Vec<String>, usize) {
    let mut count = 0;
    let lines = after(source, |m| {
        count = super::fuse_matmul::fuse_matmul_epilogue(m);
    });
    (lines, count)
}

/// A dense layer as TFRT's MNIST program writes it, with `$TAIL` standing
/// for the rest of the function.
const LAYER: &str = r#"func.func @f(%x: !t.tensor, %w: !t.tensor, %b: !t.tensor, %s: !ts.shape, %ch0: !tfrt.chain) -> (!t.tensor, !tfrt.chain) {
  %one = tfrt.constant.f32 1.0
  %c = "tfrt_test.broadcast.f32.2"(%b, %s, %ch0) : (!t.tensor, !ts.shape, !tfrt.chain) -> !t.tensor
  %ch1 = "tfrt_test.matmul.f32.2"(%one, %x, %w, %one, %c, %ch0) : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
  %ch2 = "tfrt_test.relu_inplace.f32"(%c, %ch1) : (!t.tensor, !tfrt.chain) -> !tfrt.chain
  $TAIL
}"#;

fn layer(tail: &str) -> String {
    LAYER.replace("$TAIL", tail)
}

#[test]
fn broadcast_product_and_relu_fuse() {
    let (lines, count) = fused(&layer(
        "%m = \"tfrt_test.argmax.f32.2\"(%c, %ch2) : (!t.tensor, !tfrt.chain) -> !t.tensor
         tfrt.return %c, %ch2 : !t.tensor, !tfrt.chain",
    ));
    assert_eq!(count, 1);
    assert_eq!(
        lines[2],
        "%1:2 = \"tfrt_test.matmul_bias_relu.f32\"(%0, %arg0, %arg1, %0, %arg2, %arg3, %arg4) \
         : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !ts.shape, !tfrt.chain) -> (!t.tensor, !tfrt.chain)"
    );
    assert_eq!(
        lines[3],
        "%2 = \"tfrt_test.argmax.f32.2\"(%1#0, %1#1) : (!t.tensor, !tfrt.chain) -> !t.tensor"
    );
    assert_eq!(lines[4], "tfrt.return %1#0, %1#1 : !t.tensor, !tfrt.chain");
    assert_eq!(lines.len(), 5);
}

#[test]
fn mnist_layers_fuse_with_and_without_relu() {
    // TFRT's `mnist_compute`: the second layer has no ReLU, and its
    // product reads the first layer's result after the ReLU's chain. The
    // operands are all i32 here, and the product `eigen.matmul`.
    let source = r#"func.func @f(%x: !t.tensor, %w1: !t.tensor, %b1: !t.tensor, %w2: !t.tensor, %b2: !t.tensor, %s1: !ts.shape, %s2: !ts.shape, %ch0: !tfrt.chain) -> !t.tensor {
      %one = tfrt.constant.i32 1
      %a1 = "tfrt_test.broadcast.i32.2"(%b1, %s1, %ch0) : (!t.tensor, !ts.shape, !tfrt.chain) -> !t.tensor
      %ch1 = "eigen.matmul.i32"(%one, %x, %w1, %one, %a1, %ch0) : (i32, !t.tensor, !t.tensor, i32, !t.tensor, !tfrt.chain) -> !tfrt.chain
      %r1 = "tfrt_test.relu_inplace.i32"(%a1, %ch1) : (!t.tensor, !tfrt.chain) -> !tfrt.chain
      %a2 = "tfrt_test.broadcast.i32.2"(%b2, %s2, %ch0) : (!t.tensor, !ts.shape, !tfrt.chain) -> !t.tensor
      %ch2 = "tfrt_test.matmul.i32.2"(%one, %a1, %w2, %one, %a2, %r1) : (i32, !t.tensor, !t.tensor, i32, !t.tensor, !tfrt.chain) -> !tfrt.chain
      %m = "tfrt_test.argmax.i32.2"(%a2, %ch2) : (!t.tensor, !tfrt.chain) -> !t.tensor
      tfrt.return %m : !t.tensor
    }"#;
    let (lines, count) = fused(source);
    assert_eq!(count, 2);
    assert_eq!(
        lines[2],
        "%1:2 = \"tfrt_test.matmul_bias_relu.i32\"(%0, %arg0, %arg1, %0, %arg2, %arg5, %arg7) \
         : (i32, !t.tensor, !t.tensor, i32, !t.tensor, !ts.shape, !tfrt.chain) -> (!t.tensor, !tfrt.chain)"
    );
    // The chains of the broadcast and of the product, in order.
    assert_eq!(
        lines[3],
        "%2:2 = \"tfrt_test.matmul_bias.i32\"(%0, %1#0, %arg3, %0, %arg4, %arg6, %arg7, %1#1) \
         : (i32, !t.tensor, !t.tensor, i32, !t.tensor, !ts.shape, !tfrt.chain, !tfrt.chain) -> (!t.tensor, !tfrt.chain)"
    );
    assert_eq!(
        lines[4],
        "%3 = \"tfrt_test.argmax.i32.2\"(%2#0, %2#1) : (!t.tensor, !tfrt.chain) -> !t.tensor"
    );
}

#[test]
fn a_tensor_read_before_the_last_chain_is_not_fused() {
    // The tensor is printed on the product's chain, between the product
    // and the ReLU: the ReLU stays, the broadcast and product fuse.
    let (lines, count) = fused(&layer(
        "%p = tfrt_dht.print_tensor %c, %ch1
         tfrt.return %c, %ch2 : !t.tensor, !tfrt.chain",
    ));
    assert_eq!(count, 1);
    assert!(
        lines[2].starts_with("%1:2 = \"tfrt_test.matmul_bias.f32\""),
        "{lines:#?}"
    );
    assert!(
        lines[3].starts_with("%2 = \"tfrt_test.relu_inplace.f32\"(%1#0, %1#1)"),
        "{lines:#?}"
    );

    // Read on the first chain, racing the product: nothing fuses, and the
    // program comes out as it went in.
    let source = layer(
        "%p = tfrt_dht.print_tensor %c, %ch0
         tfrt.return %c, %ch2 : !t.tensor, !tfrt.chain",
    );
    let (lines, count) = fused(&source);
    assert_eq!(count, 0);
    assert_eq!(lines, after(&source, |_| {}));

    // Read through a value made from the final chain: fused.
    let (_, count) = fused(&layer(
        "%m = tfrt.merge.chains %ch0, %ch2 : !tfrt.chain, !tfrt.chain
         %p = tfrt_dht.print_tensor %c, %m
         tfrt.return %c, %p : !t.tensor, !tfrt.chain",
    ));
    assert_eq!(count, 1);
}

#[test]
fn a_product_chain_read_elsewhere_keeps_the_relu() {
    let (lines, count) = fused(&layer("tfrt.return %c, %ch1 : !t.tensor, !tfrt.chain"));
    assert_eq!(count, 1);
    assert!(
        lines[2].starts_with("%1:2 = \"tfrt_test.matmul_bias.f32\""),
        "{lines:#?}"
    );
    assert!(
        lines[3].starts_with("%2 = \"tfrt_test.relu_inplace.f32\""),
        "{lines:#?}"
    );
}

#[test]
fn programs_without_the_pattern_come_out_identical() {
    let layer_with = |from: &str, to: &str| {
        let source = layer("tfrt.return %c, %ch2 : !t.tensor, !tfrt.chain");
        assert!(source.contains(from), "{from}");
        source.replacen(from, to, 1)
    };
    let sources = [
        // C is also the product's input A.
        layer_with("(%one, %x, %w, %one, %c, %ch0)", "(%one, %c, %w, %one, %c, %ch0)"),
        // Dtypes that differ: the kernels would fail, so leave them.
        layer_with("\"tfrt_test.matmul.f32.2\"", "\"tfrt_test.matmul.i32.2\""),
        // Rank 3: no fused kernel.
        layer_with("\"tfrt_test.broadcast.f32.2\"", "\"tfrt_test.broadcast.f32.3\""),
        // An attribute on the product.
        layer_with(
            "%ch0) : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain)",
            "%ch0) {_tfrt_cost = 5 : i64} : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain)",
        ),
        // A product into a tensor that is not a broadcast's.
        "func.func @g(%x: !t.tensor, %w: !t.tensor, %c: !t.tensor, %ch0: !tfrt.chain) -> !tfrt.chain {
           %one = tfrt.constant.f32 1.0
           %ch1 = \"tfrt_test.matmul.f32.2\"(%one, %x, %w, %one, %c, %ch0) : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
           %ch2 = \"tfrt_test.relu_inplace.f32\"(%c, %ch1) : (!t.tensor, !tfrt.chain) -> !tfrt.chain
           tfrt.return %ch2 : !tfrt.chain
         }"
        .to_string(),
        // A sync function.
        layer("tfrt.return %c, %ch2 : !t.tensor, !tfrt.chain")
            .replacen(") -> (!t.tensor, !tfrt.chain) {", ") -> (!t.tensor, !tfrt.chain) attributes {tfrt.sync} {", 1),
    ];
    for source in &sources {
        let mut module = parse(source);
        verify(&module).unwrap_or_else(|d| panic!("{d}\n{source}"));
        let before = module.clone();
        assert_eq!(
            super::fuse_matmul::fuse_matmul_epilogue(&mut module),
            0,
            "{source}"
        );
        assert_eq!(module, before, "{source}");
    }
}

#[test]
fn the_fused_op_carries_the_fused_locations() {
    let mut module = parse(&layer("tfrt.return %c, %ch2 : !t.tensor, !tfrt.chain"));
    assert_eq!(super::fuse_matmul::fuse_matmul_epilogue(&mut module), 1);
    let text = print_module(
        &module,
        PrintOptions {
            generic: false,
            debug_info: true,
        },
    );
    // The product's line first: errors point at it.
    assert!(
        text.contains("loc(fused[\"t.mlir\":4:10, \"t.mlir\":3:8, \"t.mlir\":5:10])"),
        "{text}"
    );
}

#[test]
fn fusion_inside_regions_and_a_second_run_changes_nothing() {
    let source = r#"func.func @f(%x: !t.tensor, %w: !t.tensor, %b: !t.tensor, %s: !ts.shape, %ch0: !tfrt.chain, %n: i32) -> !tfrt.chain {
      %r:5 = tfrt.repeat.i32 %n, %ch0, %x, %w, %b, %s : !tfrt.chain, !t.tensor, !t.tensor, !t.tensor, !ts.shape {
        %one = tfrt.constant.f32 1.0
        %c = "tfrt_test.broadcast.f32.2"(%b, %s, %ch0) : (!t.tensor, !ts.shape, !tfrt.chain) -> !t.tensor
        %ch1 = "tfrt_test.matmul.f32.2"(%one, %x, %w, %one, %c, %ch0) : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
        %ch2 = "tfrt_test.relu_inplace.f32"(%c, %ch1) : (!t.tensor, !tfrt.chain) -> !tfrt.chain
        tfrt.return %ch2, %x, %w, %b, %s : !tfrt.chain, !t.tensor, !t.tensor, !t.tensor, !ts.shape
      }
      tfrt.return %r#0 : !tfrt.chain
    }"#;
    let mut module = parse(source);
    verify(&module).unwrap_or_else(|d| panic!("{d}"));
    assert_eq!(super::fuse_matmul::fuse_matmul_epilogue(&mut module), 1);
    verify(&module).unwrap_or_else(|d| panic!("{d}\n{}", print(&module)));
    assert!(print(&module).contains("tfrt_test.matmul_bias_relu.f32"));
    let once = module.clone();
    assert_eq!(super::fuse_matmul::fuse_matmul_epilogue(&mut module), 0);
    assert_eq!(module, once);
}

#[test]
fn checking_the_order_of_far_readers_is_bounded() {
    // 2,000 layers whose tensors are all read at the end, after a merge
    // of every layer's chain: each layer's check walks to the end, which
    // the pass's budget cuts short. What it fused is right all the same.
    let layers = 2_000;
    let mut source = String::from(
        "func.func @f(%x: !t.tensor, %w: !t.tensor, %b: !t.tensor, %s: !ts.shape, %ch0: !tfrt.chain) -> !tfrt.chain {
         %one = tfrt.constant.f32 1.0\n",
    );
    for i in 0..layers {
        source.push_str(&format!(
            "%c{i} = \"tfrt_test.broadcast.f32.2\"(%b, %s, %ch0) : (!t.tensor, !ts.shape, !tfrt.chain) -> !t.tensor
             %m{i} = \"tfrt_test.matmul.f32.2\"(%one, %x, %w, %one, %c{i}, %ch0) : (f32, !t.tensor, !t.tensor, f32, !t.tensor, !tfrt.chain) -> !tfrt.chain
             %r{i} = \"tfrt_test.relu_inplace.f32\"(%c{i}, %m{i}) : (!t.tensor, !tfrt.chain) -> !tfrt.chain\n"
        ));
    }
    let chains: Vec<String> = (0..layers).map(|i| format!("%r{i}")).collect();
    let types = vec!["!tfrt.chain"; layers].join(", ");
    source.push_str(&format!(
        "%all = tfrt.merge.chains {} : {types}\n",
        chains.join(", ")
    ));
    for i in 0..layers {
        source.push_str(&format!("%p{i} = tfrt_dht.print_tensor %c{i}, %all\n"));
    }
    source.push_str("tfrt.return %all : !tfrt.chain }");
    let (lines, count) = fused(&source);
    assert!(count > 0 && count < layers, "{count} of {layers} fused");
    let fused_ops = lines
        .iter()
        .filter(|l| l.contains("matmul_bias_relu"))
        .count();
    assert_eq!(fused_ops, count);
}
