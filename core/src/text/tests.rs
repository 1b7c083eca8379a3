//! Parser and printer tests: every syntax form of the host-program fact
//! sheet, every custom form (parse → print → parse), diagnostics.

use super::*;
use crate::ir::{Attribute, Location, Module, Type};

fn parse(src: &str) -> Module {
    match parse_module(src, "t.mlir") {
        Ok(m) => m,
        Err(e) => panic!("{}", render_diagnostic(&e, src)),
    }
}

/// print → parse gives the same module, for all four print modes.
fn roundtrip(m: &Module) {
    for generic in [false, true] {
        let opts = PrintOptions {
            generic,
            debug_info: true,
        };
        let text = print_module(m, opts);
        let back = match parse_module(&text, "printed.mlir") {
            Ok(b) => b,
            Err(e) => panic!("{}\n{text}", render_diagnostic(&e, &text)),
        };
        assert_eq!(
            &back, m,
            "debug_info round trip (generic={generic}):\n{text}"
        );
        let text = print_module(
            m,
            PrintOptions {
                generic,
                debug_info: false,
            },
        );
        let mut back = parse_module(&text, "printed.mlir")
            .unwrap_or_else(|e| panic!("{}\n{text}", render_diagnostic(&e, &text)));
        let mut expected = m.clone();
        Module::strip_locations(&mut back);
        Module::strip_locations(&mut expected);
        assert_eq!(
            back, expected,
            "round trip without locations (generic={generic}):\n{text}"
        );
    }
}

fn check(src: &str) -> Module {
    let m = parse(src);
    roundtrip(&m);
    m
}

fn custom_text(src: &str) -> String {
    print_module(&parse(src), PrintOptions::default())
}

fn error(src: &str) -> String {
    match parse_module(src, "e.mlir") {
        Ok(_) => panic!("expected an error for {src}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn basic_function() {
    let src = r#"
func.func @basic.i32(%x: i32, %ch: !tfrt.chain) -> (i32, !tfrt.chain) {
  %one = tfrt.constant.i32 1
  %y = tfrt.add.i32 %x, %one
  %ch1 = tfrt.print.i32 %y, %ch
  tfrt.return %y, %ch1 : i32, !tfrt.chain
}
"#;
    let m = check(src);
    let f = m.functions().next().unwrap();
    assert_eq!(f.name(), "basic.i32");
    assert_eq!(f.inputs(), &[Type::i(32), Type::chain()]);
    let body = f.body().unwrap().single_block().unwrap();
    assert_eq!(body.ops[0].name, "tfrt.constant.i32");
    assert_eq!(body.ops[0].attribute("value"), Some(&Attribute::i32(1)));
    assert_eq!(
        body.ops[0].location,
        Location::file_line_col("t.mlir", 3, 10)
    );
    assert_eq!(
        body.ops[3].location,
        Location::file_line_col("t.mlir", 6, 3)
    );
    assert_eq!(
        m.values[body.arguments[0].index()].location.as_deref(),
        Some(&Location::file_line_col("t.mlir", 2, 22))
    );
    assert_eq!(m.op.location, Location::file_line_col("t.mlir", 0, 0));
    let text = custom_text(src);
    assert_eq!(
        text,
        "module {\n  func.func @basic.i32(%arg0: i32, %arg1: !tfrt.chain) -> (i32, !tfrt.chain) {\n    %0 = tfrt.constant.i32 1\n    %1 = tfrt.add.i32 %arg0, %0\n    %2 = tfrt.print.i32 %1, %arg1\n    tfrt.return %1, %2 : i32, !tfrt.chain\n  }\n}\n"
    );
}

#[test]
fn old_func_spelling_and_declarations() {
    let m = check(
        "module attributes {tfrt.cost_threshold = 3 : i64} {\n\
         func @f() attributes {tfrt.sync} {\n tfrt.return\n}\n\
         func.func private @native(%a: i32) -> i32 attributes {tfrt.native}\n\
         func.func private @decl(i32, f32) -> ()\n\
         func.func @g() -> i32 {\n %c = tfrt.constant.i32 7\n return %c : i32\n}\n}",
    );
    let fs: Vec<_> = m.functions().collect();
    assert_eq!(fs.len(), 4);
    assert_eq!(fs[0].kind(), crate::ir::FuncKind::Sync);
    assert_eq!(fs[1].kind(), crate::ir::FuncKind::Native);
    assert!(fs[1].is_private());
    assert!(fs[1].body().is_none());
    assert_eq!(fs[2].inputs(), &[Type::i(32), Type::f32()]);
    assert_eq!(fs[3].body().unwrap().blocks[0].ops[1].name, "func.return");
    assert_eq!(
        m.op.attribute("tfrt.cost_threshold"),
        Some(&Attribute::i64(3))
    );
    assert_eq!(m.op.location, Location::file_line_col("t.mlir", 1, 1));
}

#[test]
fn generic_ops_and_groups() {
    let m = check(
        r#"func.func @g(%a: i32) -> i32 {
  %r:2 = "tfrt_test.share_to_two"(%a) {foo = "bar", z} : (i32) -> (i32, i32)
  %x, %y = "a.b"(%r#0, %r#1) : (i32, i32) -> (i32, i32)
  "x.y"() ({
  ^bb0(%q: i32):
    "x.use"(%q, %x) : (i32, i32) -> ()
  }, {
  }) : () -> ()
  %f = "fwd.use"(%late) : (i32) -> i32
  %late = "a.def"() <{p = 1 : i32}> : () -> i32
  tfrt.return %y : i32
}"#,
    );
    let text = print_module(&m, PrintOptions::default());
    assert!(
        text.contains(
            "%0:2 = \"tfrt_test.share_to_two\"(%arg0) {foo = \"bar\", z} : (i32) -> (i32, i32)"
        ),
        "{text}"
    );
    assert!(text.contains("\"a.b\"(%0#0, %0#1)"), "{text}");
    assert!(text.contains("<{p = 1 : i32}>"), "{text}");
}

#[test]
fn multiple_blocks_and_successors() {
    check(
        r#"func.func @cf(%a: i1) {
  "cf.cond_br"(%a)[^t, ^f] : (i1) -> ()
^t:
  "cf.br"()[^exit] : () -> ()
^f(%z: i32):
  "cf.br"()[^exit] : () -> ()
^exit:
  return
}"#,
    );
    assert!(
        error("func.func @f() {\n \"cf.br\"()[^nowhere] : () -> ()\n}")
            .contains("2:12: error: reference to an undefined block")
    );
    assert!(
        error("func.func @f() {\n \"cf.br\"()[^a(%x : i32)] : () -> ()\n}")
            .contains("successor operands")
    );
}

#[test]
fn control_flow_custom_forms() {
    let src = r#"
func.func @callee(%x: i32) -> i32 {
  tfrt.return %x : i32
}
func.func @control(%cond: i1, %a: i32, %b: i32, %ch: !tfrt.chain, %n: i32, %idx: i32) -> i32 {
  %r = tfrt.if %cond, %a, %b : (i32, i32) -> (i32) {
    %s = tfrt.add.i32 %a, %b
    tfrt.return %s : i32
  } else {
    tfrt.return %b : i32
  }
  tfrt.if %cond, %a : (i32) -> () {
    tfrt.return
  }
  %ch1, %v1 = tfrt.repeat.i32 %n, %ch, %a : !tfrt.chain, i32 {
    %v2 = tfrt.add.i32 %a, %a
    tfrt.return %ch, %v2 : !tfrt.chain, i32
  }
  %c = tfrt.call @callee(%r) : (i32) -> i32
  %d = tfrt.cond %cond @callee @callee (%c) : (i32) -> (i32)
  %e:2 = tfrt.case %idx [@callee, @callee] (%ch, %d) : (!tfrt.chain, i32) -> (!tfrt.chain, i32)
  %w = tfrt.while %cond @callee(%c) parallel_iterations(4) : (i32) -> (i32)
  %o = tfrt.once @callee(%w) : (i32) -> (i32)
  %done = tfrt.parallel_for.i32 %a to %b fixed %n, %ch : !tfrt.chain {
    %t = tfrt.add.i32 %a, %b
    tfrt.return %ch : !tfrt.chain
  }
  %done2 = tfrt.parallel_call.i32 %a to %b fixed %n @callee(%ch) : !tfrt.chain
  %done3 = tfrt.parallel_call.i32 %a to %b fixed %n @callee()
  %m = tfrt.merge.chains %ch, %done, %o : !tfrt.chain, !tfrt.chain, i32
  %q, %rem = tfrt.div.i32 %a, %b
  %eq = tfrt.equal.i32 %q, %rem
  %le = tfrt.lessequal.i64 %big, %big
  %big = tfrt.constant.i64 -9223372036854775808
  tfrt.return %o : i32
}
"#;
    let m = check(src);
    let text = print_module(&m, PrintOptions::default());
    for needle in [
        "%0 = tfrt.if %arg0, %arg1, %arg2 : (i32, i32) -> (i32) {\n      %1 = tfrt.add.i32 %arg1, %arg2",
        "} else {\n      tfrt.return %arg2 : i32",
        "tfrt.if %arg0, %arg1 : (i32) -> () {\n      tfrt.return\n    } else {\n      tfrt.return\n    }",
        "%2:2 = tfrt.repeat.i32 %arg4, %arg3, %arg1 : !tfrt.chain, i32 {",
        "tfrt.call @callee(%0) : (i32) -> i32",
        "tfrt.cond %arg0 @callee @callee (%4) : (i32) -> (i32)",
        "tfrt.case %arg5 [@callee, @callee] (%arg3, %5) : (!tfrt.chain, i32) -> (!tfrt.chain, i32)",
        "tfrt.while %arg0 @callee(%4) parallel_iterations(4) : (i32) -> (i32)",
        "tfrt.once @callee(%7) : (i32) -> (i32)",
        "tfrt.parallel_for.i32 %arg1 to %arg2 fixed %arg4, %arg3 : !tfrt.chain {",
        "tfrt.parallel_call.i32 %arg1 to %arg2 fixed %arg4 @callee(%arg3) : !tfrt.chain",
        "tfrt.parallel_call.i32 %arg1 to %arg2 fixed %arg4 @callee()\n",
        "tfrt.merge.chains %arg3, %9, %8 : !tfrt.chain, !tfrt.chain, i32",
        "%14:2 = tfrt.div.i32 %arg1, %arg2",
        "tfrt.equal.i32 %14#0, %14#1",
        "%16 = tfrt.lessequal.i64 %17, %17",
    ] {
        assert!(text.contains(needle), "missing {needle:?} in\n{text}");
    }
    let f = m.functions().nth(1).unwrap();
    let ops = &f.body().unwrap().blocks[0].ops;
    assert_eq!(
        ops[4].attribute("a_true_fn"),
        Some(&Attribute::symbol("callee"))
    );
    assert_eq!(
        ops[6].attribute("parallel_iterations"),
        Some(&Attribute::i64(4))
    );
    assert_eq!(
        ops[7].attribute("function"),
        Some(&Attribute::symbol("callee"))
    );
    assert!(ops[5].attribute("branches").is_some());
}

#[test]
fn constants_and_tensors() {
    let src = r#"
func.func @k() {
  %ch = tfrt.new.chain
  %b0 = tfrt.constant.i1 0
  %b1 = tfrt.constant.i1 true
  %i = tfrt.constant.i64 -5
  %u = tfrt.constant.ui32 4294967295
  %u64 = tfrt.constant.ui64 18446744073709551615
  %f = tfrt.constant.f32 1.0
  %g = tfrt.constant.f64 -2.5e-3
  %h = tfrt.constant.f16 0.1
  %bf = tfrt.constant.bf16 1.5
  %nan = tfrt.constant.f32 0x7FC00000
  %t = tfrt_dht.create_uninitialized_tensor.f32.2 [3 : i64, 2 : i64]
  %c1 = tfrt_dht.fill_tensor_with_constant.i32 %t, %ch 0 : i32
  %c2 = tfrt_dht.set_tensor_with_constant_values.f32 %t, %c1 [1.0 : f32, 2.0 : f32]
  %c3 = tfrt_dht.print_tensor %t, %c2
  %s = ts.build_shape [1 : i64, 57 : i64]
  %p = tfrt.print.f32 %f, %c3 {extra = 1 : i32}
  tfrt.return
}
"#;
    let m = check(src);
    let text = print_module(&m, PrintOptions::default());
    for needle in [
        "tfrt.constant.i1 false",
        "tfrt.constant.i1 true",
        "tfrt.constant.i64 -5",
        "tfrt.constant.ui32 4294967295",
        "tfrt.constant.ui64 18446744073709551615",
        "tfrt.constant.f32 1.000000e+00",
        "tfrt.constant.f64 -2.500000e-03",
        "tfrt.constant.f16 9.997559e-02",
        "tfrt.constant.bf16 1.500000e+00",
        "tfrt.constant.f32 0x7FC00000",
        "tfrt_dht.create_uninitialized_tensor.f32.2 [3, 2]",
        "tfrt_dht.fill_tensor_with_constant.i32 %4, %0 0 : i32",
        "tfrt_dht.set_tensor_with_constant_values.f32 %4, %5 [1.000000e+00 : f32, 2.000000e+00 : f32]",
        "tfrt_dht.print_tensor %4, %6",
        "ts.build_shape [1, 57]",
        "tfrt.print.f32 %6, %7 {extra = 1 : i32}",
    ] {
        let needle = needle
            .replace("%4,", "%11,")
            .replace("%5]", "%12]")
            .replace("%4, %6", "%11, %13");
        let _ = needle;
    }
    for needle in [
        "tfrt.constant.i1 false",
        "tfrt.constant.f32 0x7FC00000",
        "ts.build_shape [1, 57]",
        "{extra = 1 : i32}",
        "tfrt.constant.ui64 18446744073709551615",
        "tfrt.constant.f16 9.997559e-02",
    ] {
        assert!(text.contains(needle), "missing {needle:?} in\n{text}");
    }
    let ops = &m.functions().next().unwrap().body().unwrap().blocks[0].ops;
    assert_eq!(
        ops[1].attribute("value"),
        Some(&Attribute::Integer {
            value: 0,
            ty: Type::i(1)
        })
    );
    assert_eq!(
        ops[2].attribute("value"),
        Some(&Attribute::Integer {
            value: 1,
            ty: Type::i(1)
        })
    );
    assert_eq!(
        ops[8].attribute("value"),
        Some(&Attribute::Float {
            bits: 0x2E66,
            ty: Type::Float(crate::ir::FloatKind::F16)
        })
    );
    assert_eq!(ops[11].results.len(), 1);
    assert_eq!(
        m.value_type(ops[11].results[0]),
        &Type::dialect("t", "tensor")
    );
    assert_eq!(
        m.value_type(ops[15].results[0]),
        &Type::dialect("ts", "shape")
    );
}

#[test]
fn attributes() {
    let cases: &[(&str, Attribute)] = &[
        ("1 : i32", Attribute::i32(1)),
        ("-1", Attribute::i64(-1)),
        (
            "0x10 : i8",
            Attribute::Integer {
                value: 16,
                ty: Type::i(8),
            },
        ),
        (
            "255 : i8",
            Attribute::Integer {
                value: -1,
                ty: Type::i(8),
            },
        ),
        ("1.5", Attribute::f64(1.5)),
        ("1.0 : f32", Attribute::f32(1.0)),
        (
            "0x7FC00000 : f32",
            Attribute::Float {
                bits: 0x7FC0_0000,
                ty: Type::f32(),
            },
        ),
        ("true", Attribute::Bool(true)),
        ("unit", Attribute::Unit),
        (
            "\"a\\n\\\"\\\\\\41\"",
            Attribute::String {
                value: b"a\n\"\\A".to_vec(),
                ty: None,
            },
        ),
        (
            "\"s\" : i32",
            Attribute::String {
                value: b"s".to_vec(),
                ty: Some(Type::i(32)),
            },
        ),
        ("f32", Attribute::Type(Type::f32())),
        ("@f", Attribute::symbol("f")),
        (
            "@a::@\"b c\"",
            Attribute::SymbolRef {
                root: "a".into(),
                nested: vec!["b c".into()],
            },
        ),
        (
            "#corert.shape<1x?x3>",
            Attribute::Shape(Some(vec![1, -1, 3])),
        ),
        ("#corert.shape<*>", Attribute::Shape(None)),
        ("#corert.shape<>", Attribute::Shape(Some(vec![]))),
        (
            "#arith.overflow<none>",
            Attribute::Dialect {
                dialect: "arith".into(),
                body: "overflow<none>".into(),
            },
        ),
        (
            "#foo<\"x\">",
            Attribute::Dialect {
                dialect: "foo".into(),
                body: "<\"x\">".into(),
            },
        ),
        (
            "array<i32: 1, 2>",
            Attribute::DenseArray {
                element: Type::i(32),
                data: vec![1, 0, 0, 0, 2, 0, 0, 0],
            },
        ),
        (
            "array<i32>",
            Attribute::DenseArray {
                element: Type::i(32),
                data: vec![],
            },
        ),
        (
            "loc(\"x\":1:2)",
            Attribute::Location(Box::new(Location::file_line_col("x", 1, 2))),
        ),
    ];
    for (text, expected) in cases {
        let a = parse_attribute(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(&a, expected, "{text}");
        assert_eq!(
            parse_attribute(&print_attribute(&a)).unwrap(),
            a,
            "{text} printed {}",
            print_attribute(&a)
        );
    }
    let nested =
        parse_attribute("[[\"s\", [1 : i32]], [1.0 : f32], [f64, f32], {b = 1, a}]").unwrap();
    assert_eq!(parse_attribute(&print_attribute(&nested)).unwrap(), nested);
    let Attribute::Array(items) = &nested else {
        panic!()
    };
    assert_eq!(
        items[3],
        Attribute::Dictionary(vec![
            ("a".into(), Attribute::Unit),
            ("b".into(), Attribute::i64(1))
        ])
    );
}

#[test]
fn dense_attributes() {
    let d = |s: &str| match parse_attribute(s).unwrap_or_else(|e| panic!("{s}: {e}")) {
        Attribute::DenseElements(d) => d,
        other => panic!("{other:?}"),
    };
    let a = d("dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>");
    assert!(!a.splat);
    assert_eq!(a.data, [1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0]);
    let s = d("dense<1.0> : tensor<4xf32>");
    assert!(s.splat);
    assert_eq!(s.data, 1.0f32.to_le_bytes());
    let same = d("dense<[7, 7, 7]> : tensor<3xi8>");
    assert!(same.splat);
    assert_eq!(same.data, [7]);
    let c = d("dense<(1.0, 2.0)> : tensor<1xcomplex<f32>>");
    assert!(c.splat);
    assert_eq!(c.data.len(), 8);
    let b = d("dense<[true, false]> : tensor<2xi1>");
    assert_eq!(b.data, [1, 0]);
    let h = d("dense<\"0x01000000020000000300000004000000\"> : tensor<4xi32>");
    assert_eq!(h, d("dense<[1, 2, 3, 4]> : tensor<4xi32>"));
    let e = d("dense<[]> : tensor<0xi32>");
    assert!(e.data.is_empty() && !e.splat);
    let huge = d("dense<0> : tensor<99999999999x99999999999xi64>");
    assert_eq!(huge.data.len(), 8);
    let fl = d("dense<[1, 2]> : tensor<2xf64>");
    assert_eq!(&fl.data[8..], &2.0f64.to_le_bytes());
    for text in [
        "dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>",
        "dense<[[true], [false]]> : tensor<2x1xi1>",
        "dense<[(1.0, 2.0), (3.0, -4.5)]> : tensor<2xcomplex<f64>>",
        "dense<[1.5, 0x7FC00000]> : vector<2xf32>",
        "dense<-3> : tensor<*xsi8>",
        "dense<[[], []]> : tensor<2x0xui8>",
        "dense<\"0x\"> : tensor<1000000000x0xi32>",
    ] {
        let a = parse_attribute(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let printed = print_attribute(&a);
        assert_eq!(parse_attribute(&printed).unwrap(), a, "{text} → {printed}");
        assert!(printed.len() < 200);
    }
    for (text, msg) in [
        ("dense<[1, 2]> : tensor<3xi32>", "shape does not match"),
        ("dense<[1, 2]> : tensor<?xi32>", "static shape"),
        ("dense<256> : tensor<2xi8>", "out of range"),
        (
            "dense<1.5> : tensor<2xi8>",
            "floating point value not valid",
        ),
        ("dense<1> : i32", "shaped type"),
        ("dense<\"0x0102\"> : tensor<3xi32>", "hex data size"),
    ] {
        let e = parse_attribute(text).unwrap_err().to_string();
        assert!(e.contains(msg), "{text}: {e}");
    }
}

#[test]
fn types() {
    for text in [
        "i32",
        "si8",
        "ui64",
        "i1",
        "index",
        "bf16",
        "f16",
        "tf32",
        "f32",
        "f64",
        "f80",
        "f128",
        "none",
        "complex<f32>",
        "tensor<2x?xf32>",
        "tensor<*xi1>",
        "tensor<f32>",
        "vector<4xi8>",
        "(i32, !tfrt.chain) -> i1",
        "() -> ()",
        "(i32) -> (i32, i32)",
        "tuple<i32, f32>",
        "tuple<>",
        "!tfrt.chain",
        "!t.tensor",
        "!foo<\"x\">",
        "!tfrt.tensor<f32>",
        "tensor<99999999999x3xi32>",
        "() -> (() -> i32)",
    ] {
        let ty = parse_type(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(ty.to_string(), text);
    }
    assert_eq!(
        parse_type("tensor< 2 x 3 x f32 >").unwrap().to_string(),
        "tensor<2x3xf32>"
    );
    assert!(
        parse_type("tensor<99999999999999999999xi32>")
            .unwrap_err()
            .message
            .contains("invalid dimension")
    );
    assert!(
        parse_type("i99999999")
            .unwrap_err()
            .message
            .contains("invalid integer width")
    );
    assert!(
        parse_type("foo")
            .unwrap_err()
            .message
            .contains("expected non-function type")
    );
    assert!(parse_type("i32 i32").is_err());
}

#[test]
fn aliases_and_locations() {
    let src = r#"!chain = !tfrt.chain
#attr = 5 : i32
func.func @f(%ch: !chain loc("arg.py":1:2)) -> !chain attributes {x = #attr} {
  %a = "a.b"() : () -> i32 loc(#loc1)
  %b = "a.b"() : () -> i32 loc("name"("f.mlir":1:2))
  %c = "a.b"() : () -> i32 loc(callsite("f" at "a.py":1:2))
  %d = "a.b"() : () -> i32 loc(fused["a.py":42:314, "b"])
  %e = "a.b"() : () -> i32 loc(fused<"meta">[#loc2, unknown])
  tfrt.return %ch : !chain loc(unknown)
}
#loc1 = loc("aliased.mlir":100:200)
#loc2 = loc(callsite(#loc1 at "x":1:1))
"#;
    let m = check(src);
    let f = m.functions().next().unwrap();
    assert_eq!(f.op.attribute("x"), Some(&Attribute::i32(5)));
    let ops = &f.body().unwrap().blocks[0].ops;
    assert_eq!(
        ops[0].location,
        Location::file_line_col("aliased.mlir", 100, 200)
    );
    assert_eq!(
        ops[4].location,
        Location::Fused {
            locations: vec![
                Location::CallSite {
                    callee: Box::new(Location::file_line_col("aliased.mlir", 100, 200)),
                    caller: Box::new(Location::file_line_col("x", 1, 1)),
                },
                Location::Unknown
            ],
            metadata: Some(Box::new(Attribute::string("meta"))),
        }
    );
    assert_eq!(ops[5].location, Location::Unknown);
    let arg = f.body().unwrap().blocks[0].arguments[0];
    assert_eq!(
        m.values[arg.index()].location.as_deref(),
        Some(&Location::file_line_col("arg.py", 1, 2))
    );
    let text = print_module(
        &m,
        PrintOptions {
            generic: false,
            debug_info: true,
        },
    );
    assert!(
        text.contains("%arg0: !tfrt.chain loc(\"arg.py\":1:2)"),
        "{text}"
    );
    assert!(
        text.contains("loc(fused[\"a.py\":42:314, \"b\"])"),
        "{text}"
    );
    assert!(
        error("func.func @f() {\n  tfrt.return loc(#nope)\n}")
            .contains("2:19: error: undefined symbol alias id 'nope'")
    );
}

#[test]
fn generic_module_and_vectors() {
    let dir = crate::test_corpus::corpus_path("vectors/mlir-bytecode");
    let entries = std::fs::read_dir(&dir).expect("the vectors directory");
    let mut parsed = 0;
    for entry in entries.flatten() {
        let path = entry.path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if !name.ends_with(".generic.mlir") {
            continue;
        }
        let src = std::fs::read_to_string(&path).unwrap();
        match parse_module(&src, &name) {
            Ok(m) => {
                roundtrip(&m);
                parsed += 1;
            }
            Err(e) => eprintln!("{name}: {}", render_diagnostic(&e, &src)),
        }
    }
    assert!(parsed >= 3, "parsed {parsed} vectors");
    let m = parse("\"builtin.module\"() ({\n^bb0:\n}) : () -> () loc(\"empty.mlir\":1:1)");
    assert_eq!(m.op.location, Location::file_line_col("empty.mlir", 1, 1));
    assert!(m.body().ops.is_empty());
    let m = parse("\"builtin.module\"() ({\n}) : () -> ()");
    assert!(m.body().ops.is_empty());
}

#[test]
fn diagnostics_positions() {
    let cases = [
        (
            "func.func @f() {\n  %x = foo.bar\n}",
            "e.mlir:2:8: error: custom op 'foo.bar' is unknown",
        ),
        (
            "func.func @f() {\n  tfrt.return %nope : i32\n}",
            "e.mlir:2:15: error: use of undeclared SSA value name",
        ),
        (
            "func.func @f() {\n  %x = tfrt.constant.i32 1\n  %x = tfrt.constant.i32 2\n}",
            "e.mlir:3:3: error: redefinition of SSA value '%x'",
        ),
        (
            "func.func @f(%x: i32) {\n  %y = tfrt.add.i64 %x, %x\n}",
            "e.mlir:2:21: error: use of value '%x' expects different type than prior uses: 'i64' vs 'i32'",
        ),
        (
            "func.func @f(%x: i32) {\n  %y = tfrt.add.i32 %x\n}",
            "e.mlir:2:8: error: 1 operands present, but expected 2",
        ),
        (
            "func.func @f(%x: i32) {\n  %y = tfrt.add.i32 %x, %x, %x\n}",
            "e.mlir:2:8: error: 3 operands present, but expected 2",
        ),
        (
            "func.func @f(%x: i32) {\n  %y = tfrt.add.i32 %x, %x, 5\n}",
            "e.mlir:2:29: error: expected SSA operand",
        ),
        (
            "func.func @f() {\n  %c = tfrt.constant.i32 4294967296\n}",
            "e.mlir:2:26: error: integer constant out of range for attribute",
        ),
        (
            "func.func @f() {\n  \"a.b\"(  : () -> ()\n}",
            "e.mlir:2:11: error: expected ')' to end operand list",
        ),
        (
            "func.func @f() {\n  \"a.b\"() : (i32) -> ()\n}",
            "e.mlir:2:13: error: expected 0 operand types but had 1",
        ),
        (
            "func.func @f() {\n  \"a.b\"() : () -> (i32, )\n}",
            "e.mlir:2:25: error: expected type",
        ),
        (
            "func.func @f() {\n  %a, %b = tfrt.new.chain\n}",
            "e.mlir:2:3: error: operation defines 1 results but was provided 2 to bind",
        ),
        (
            "func.func @f() {\n  %s = \"a.b\"() {x = \"abc} : () -> ()\n}",
            "e.mlir:2:21: error: expected '\"' in string literal",
        ),
        (
            "func.func @f() {\n  %s = \"a.b\"() {x = 1, x = 2} : () -> ()\n}",
            "e.mlir:2:24: error: duplicate key 'x' in dictionary attribute",
        ),
        (
            "func.func @f() {\n  tfrt.if %c : () -> () {\n  }\n}",
            "e.mlir:2:11: error: use of undeclared SSA value name",
        ),
        (
            "func.func @f(%c: i1) {\n  %r = tfrt.if %c : () -> (i32) {\n  }\n}",
            "e.mlir:4:1: error: expected 'else' in 'tfrt.if' with result values",
        ),
        (
            "func.func @f() {\n",
            "e.mlir:2:1: error: expected '}' to end region",
        ),
        (
            "func.func @f() {\n  \"a\"() {v = 1 : ui8} : () -> ()\n  \"a\"() {v = -1 : ui8} : () -> ()\n}",
            "e.mlir:3:15: error: negative integer literal not valid for unsigned integer type",
        ),
        (
            "func.func @f() {\n  \"a\"() {v = 1 : i200} : () -> ()\n}",
            "e.mlir:2:14: error: integer attributes wider than 128 bits are not supported (i200)",
        ),
    ];
    for (src, expected) in cases {
        let e = error(src);
        assert_eq!(e, expected, "for {src:?}");
    }
    let src = "func.func @f() {\n  %x = foo.bar\n}";
    let e = parse_module(src, "e.mlir").unwrap_err();
    assert_eq!(
        render_diagnostic(&e, src),
        "e.mlir:2:8: error: custom op 'foo.bar' is unknown\n  %x = foo.bar\n       ^\n"
    );
    // Chunks keep the file's line numbers.
    let file = "func.func @a() {\n tfrt.return\n}\n// -----\nfunc.func @b() {\n  %x = nope\n}\n";
    let chunks = split_input(file);
    assert_eq!(chunks.len(), 2);
    let e = parse_module_at(chunks[1].text, "s.mlir", chunks[1].first_line).unwrap_err();
    assert_eq!(
        e.to_string(),
        "s.mlir:6:8: error: custom op 'nope' is unknown"
    );
    assert_eq!(
        render_diagnostic(&e, file).lines().nth(1),
        Some("  %x = nope")
    );
}

#[test]
fn hostile_inputs() {
    let deep = format!(
        "func.func @f() {{\n\"a\"() {{x = {}1{}}} : () -> ()\n}}",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    assert_eq!(
        error(&deep),
        "e.mlir:2:77: error: attributes nested deeper than 64 levels"
    );
    let deep_regions = format!(
        "{}{}",
        "\"a\"() ({".repeat(50_000),
        "}) : () -> ()".repeat(50_000)
    );
    assert!(error(&deep_regions).contains("nesting too deep"));
    let deep_types = format!(
        "\"a\"() {{x = {}i32{}}} : () -> ()",
        "complex<".repeat(10_000),
        ">".repeat(10_000)
    );
    assert!(error(&deep_types).contains("nesting too deep"));
    let deep_loc = format!(
        "\"a\"() : () -> () loc({}unknown{})",
        "fused[".repeat(10_000),
        "]".repeat(10_000)
    );
    assert_eq!(
        error(&deep_loc),
        "e.mlir:1:412: error: locations nested deeper than 64 levels"
    );
    assert!(
        error("\"a\"() {x = 99999999999999999999999999999999999999999999} : () -> ()")
            .contains("out of range")
    );
    assert!(error("\"a\"() {x = \"\\q\"} : () -> ()").contains("unknown escape"));
    assert!(error("\"a\"() {x = \"\\").contains("string literal"));
    assert!(error("%").contains("invalid SSA name"));
    assert!(error("\u{1F600}").contains("unexpected character"));
    // Odd bytes inside strings are kept.
    let m = parse("\"a\"() {x = \"\u{1F600}\\00\\FF\"} : () -> ()");
    let op = &m.body().ops[0];
    let Some(Attribute::String { value, .. }) = op.attribute("x") else {
        panic!()
    };
    assert_eq!(value, &[0xF0, 0x9F, 0x98, 0x80, 0, 0xFF]);
    roundtrip(&m);
    for junk in [
        "",
        "module",
        "module {",
        "func.func",
        "func.func @",
        "%x =",
        "\"a\"(",
        "}",
        "tfrt.if",
        "#x = ",
        "!x = ",
        "dense<",
        "\"a\"() : () -> tensor<",
        "^bb0:",
    ] {
        let _ = parse_module(junk, "j.mlir");
    }
    assert!(parse("").body().ops.is_empty());
}

#[test]
fn func_properties_join_the_dictionary_unless_unknown() {
    let m = parse(
        r#""func.func"() <{function_type = () -> (), sym_name = "f"}> ({
  "tfrt.return"() : () -> ()
}) {_first = 1 : i32, tfrt.x = 1 : i32} : () -> ()"#,
    );
    let func = &m.op.regions[0].blocks[0].ops[0];
    assert!(func.properties.is_none());
    assert_eq!(func.attributes.len(), 4);
    // Merged in name order, so that look-ups find them.
    assert_eq!(func.attribute("sym_name"), Some(&Attribute::string("f")));
    let text = print_module(
        &m,
        PrintOptions {
            generic: true,
            ..PrintOptions::default()
        },
    );
    assert!(
        text.contains(r#""func.func"() <{function_type = () -> (), sym_name = "f"}> ({"#),
        "{text}"
    );
    assert!(
        text.contains("}) {_first = 1 : i32, tfrt.x = 1 : i32} : () -> ()"),
        "{text}"
    );
    // A name func.func does not have stays a property, printed as given.
    let m = parse(
        r#""func.func"() <{function_type = () -> (), sym_name = "g", other = 1 : i32}> ({
  "tfrt.return"() : () -> ()
}) : () -> ()"#,
    );
    let func = &m.op.regions[0].blocks[0].ops[0];
    assert!(func.properties.is_some());
    let text = print_module(&m, PrintOptions::default());
    assert!(
        text.contains("other = 1 : i32, sym_name = \"g\"}> ({"),
        "{text}"
    );
}

#[test]
fn f64_values_printed_in_hex_keep_their_type() {
    // A NaN or an infinity prints as its bits, which read back as an
    // integer without the type: the type stays, elided or not.
    let m = check(
        "\"test.k\"() {a = 0x7FFA85FBEB092834 : f64, b = [0x7FF0000000000000 : f64, 1.5]} : () -> ()\n",
    );
    let text = print_module(&m, PrintOptions::default());
    assert!(
        text.contains("a = 0x7FFA85FBEB092834 : f64")
            && text.contains("[0x7FF0000000000000 : f64, 1.500000e+00]"),
        "{text}"
    );
}
