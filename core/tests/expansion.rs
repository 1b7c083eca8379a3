//! Small inputs that would expand exponentially if shared entries were
//! copied without limit: aliases that refer to the next alias twice. Each
//! gives a clear error (or its result) within the memory budget of its
//! size.

mod common;

use common::counting::{Counting, budget, peak_during};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// `levels` aliases, each using the next one twice, in the text form
/// `make(name, next)` gives, defined before use (the deepest first); the
/// deepest uses `leaf`.
fn doubling_aliases(
    levels: usize,
    sigil: char,
    make: impl Fn(&str, &str) -> String,
    leaf: &str,
) -> String {
    let mut text = String::new();
    for i in (0..levels).rev() {
        let next = if i + 1 == levels {
            leaf.to_string()
        } else {
            format!("{sigil}a{}", i + 1)
        };
        let line = make(&format!("{sigil}a{i}"), &next);
        text.push_str(&format!("{sigil}a{i} = {line}\n"));
    }
    text
}

fn parse_error(source: &str) -> (String, usize) {
    let (result, peak) = peak_during(|| bef::text::parse_module(source, "expand.mlir"));
    let error = result.expect_err("the aliases expand too far");
    (error.to_string(), peak)
}

#[test]
fn attribute_aliases_that_double_are_refused() {
    let mut source = doubling_aliases(40, '#', |_, next| format!("[{next}, {next}]"), "1 : i32");
    source.push_str("func.func @f() attributes {big = #a0} {\n  tfrt.return\n}\n");
    assert!(source.len() < 1000);
    let (error, peak) = parse_error(&source);
    assert!(error.contains("aliases expand to more than"), "{error}");
    assert!(error.contains("expand.mlir:"), "{error}");
    assert!(peak <= budget(source.len()), "{peak} bytes");
}

#[test]
fn type_aliases_that_double_are_refused() {
    let mut source = doubling_aliases(40, '!', |_, next| format!("tuple<{next}, {next}>"), "i32");
    source.push_str("func.func @f(%x: !a0) {\n  tfrt.return\n}\n");
    let (error, peak) = parse_error(&source);
    assert!(error.contains("aliases expand to more than"), "{error}");
    assert!(peak <= budget(source.len()), "{peak} bytes");
    let mut source = doubling_aliases(
        40,
        '!',
        |_, next| format!("(tuple<{next}>, tuple<{next}>) -> tuple<{next}>"),
        "i32",
    );
    source.push_str("func.func @f(%x: !a0) {\n  tfrt.return\n}\n");
    let (error, peak) = parse_error(&source);
    assert!(error.contains("aliases expand to more than"), "{error}");
    assert!(peak <= budget(source.len()), "{peak} bytes");
}

#[test]
fn aliases_used_often_but_shallowly_still_parse() {
    // One alias used 10,000 times stands for far less than the budget.
    let mut source = String::from("#s = \"a shared string attribute\"\n!t = tuple<i32, i64>\n");
    for i in 0..10_000 {
        source.push_str(&format!(
            "func.func @f{i}(%x: !t) attributes {{s = #s}} {{\n  tfrt.return\n}}\n"
        ));
    }
    let module = bef::text::parse_module(&source, "many.mlir").expect("parses");
    assert!(!module.op.regions.is_empty());
}
