//! Small inputs that would expand exponentially if shared entries were
//! copied without limit: aliases that refer to the next alias twice. Each
//! gives a clear error (or its result) within the memory budget of its
//! size.

mod common;

use common::counting::{Counting, alone, budget, peak_during};

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
    let _alone = alone();
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
    let _alone = alone();
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
    let _alone = alone();
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

/// MLIR bytecode stores an attribute once however often it is used; here
/// each array holds the next one twice, so the file is small but the
/// tree it stands for has a million leaves.
#[test]
fn bytecode_entries_that_double_are_refused() {
    let _alone = alone();
    use bef::ir::Attribute;
    let source = "func.func @f() attributes {big = 0 : i32} {\n  tfrt.return\n}\n";
    let mut module = bef::text::parse_module(source, "shared.mlir").expect("parses");
    let mut big = Attribute::Bool(true);
    for _ in 0..20 {
        big = Attribute::Array(vec![big.clone(), big]);
    }
    let func = &mut module.op.regions[0].blocks[0].ops[0];
    func.attributes
        .iter_mut()
        .find(|named| named.0 == "big")
        .expect("the attribute")
        .1 = big;
    let written = bef::bytecode::write(&module, &Default::default()).expect("writes");
    drop(module);
    let bytes = written.bytes;
    assert!(bytes.len() < 2000, "{} bytes", bytes.len());
    let (result, peak) = peak_during(|| bef::bytecode::read_aligned(&bytes));
    let error = result.expect_err("the entries expand too far");
    assert!(error.message.contains("stand for more than"), "{error}");
    assert!(peak <= budget(bytes.len()), "{peak} bytes");
}

/// Counts that cost nothing to declare but are listed when printed: an
/// affine map or integer set declaring billions of dimensions is refused
/// when read, quickly and within the budget.
#[test]
fn affine_dimension_counts_are_bounded_by_the_file() {
    let _alone = alone();
    use bef::ir::{AffineMap, Attribute, IntegerSet};
    let huge_map = Attribute::AffineMap(AffineMap {
        num_dims: 3_000_000_000,
        num_symbols: 0,
        results: Vec::new(),
    });
    let huge_set = Attribute::IntegerSet(IntegerSet {
        num_dims: 7,
        num_symbols: 4_000_000_000,
        constraints: Vec::new(),
        is_equality: Vec::new(),
    });
    for (attribute, what) in [
        (huge_map, "dimensions, more than"),
        (huge_set, "symbols, more than"),
    ] {
        let source = "func.func @f() attributes {big = 0 : i32} {\n  tfrt.return\n}\n";
        let mut module = bef::text::parse_module(source, "affine.mlir").expect("parses");
        module.op.regions[0].blocks[0].ops[0].attributes[0].1 = attribute;
        let bytes = bef::bytecode::write(&module, &Default::default())
            .expect("writes")
            .bytes;
        let started = std::time::Instant::now();
        let (result, peak) = peak_during(|| bef::bytecode::read_aligned(&bytes));
        let error = result.expect_err("the count is refused");
        assert!(error.message.contains(what), "{error}");
        assert!(peak <= budget(bytes.len()), "{peak} bytes");
        assert!(started.elapsed().as_secs() < 5);
        let out = common::bef(&["dump", "-"], Some(&bytes));
        assert!(
            out.stdout.len() < 1 << 20,
            "{} bytes of dump",
            out.stdout.len()
        );
    }
}

/// A splat is a few bytes of text but BEF stores every element: forty
/// distinct 64 MiB splats are refused as a whole, not written.
#[test]
fn dense_splats_are_bounded_per_module() {
    let _alone = alone();
    let mut source = String::from("func.func @f() {\n");
    for i in 0..40 {
        source.push_str(&format!(
            "  \"tfrt_test.sink\"() {{value = dense<{i}> : tensor<16777216xi32>}} : () -> ()\n"
        ));
    }
    source.push_str("  tfrt.return\n}\n");
    let module = bef::text::parse_module(&source, "splats.mlir").expect("parses");
    let (result, peak) = peak_during(|| {
        bef::translate::mlir_to_bef(&module, bef::translate::TranslateOptions::default())
    });
    let errors = result.expect_err("the splats expand too far");
    assert!(
        errors[0].message.contains("splats expand to more than"),
        "{}",
        errors[0].message
    );
    assert!(peak <= budget(source.len()), "{peak} bytes");
}

/// BEF stores an attribute once however many kernels use it; translating
/// back to MLIR copies it to every use. A 100 KB string used by 10,000
/// kernels is refused rather than copied a gigabyte's worth.
#[test]
fn shared_bef_attributes_are_not_copied_without_bound() {
    let _alone = alone();
    use bef::format::{
        Attribute, BefBuffer, Body, Function, FunctionKind, Kernel, KernelLocation, Module, encode,
    };
    let mut kernels = vec![Kernel::pseudo(0, 0, vec![Vec::new()], 0)];
    for _ in 0..10_000 {
        kernels.push(Kernel {
            code: 0,
            location: KernelLocation::Virtual,
            args: Vec::new(),
            attributes: vec![0],
            attribute_names: vec!["value".into()],
            functions: Vec::new(),
            results: Vec::new(),
            used_by: Vec::new(),
            stream_id: 0,
        });
    }
    let mut body = Body {
        location: None,
        num_registers: 0,
        register_types: Vec::new(),
        kernels,
        results: Vec::new(),
    };
    body.compute_used_by();
    let bytes = encode(&Module {
        kernel_names: vec!["tfrt_test.sink".into()],
        types: vec!["i32".into()],
        attributes: vec![Attribute::String(vec![b'x'; 100_000])],
        functions: vec![Function {
            kind: FunctionKind::Bef,
            name: "main".into(),
            arg_types: Vec::new(),
            result_types: Vec::new(),
            body: Some(body),
        }],
        optional_sections: true,
        extra_strings: Vec::new(),
        signatures: Vec::new(),
    })
    .expect("encodes");
    let buffer = BefBuffer::copy_from(&bytes);
    let file = buffer.open().expect("opens");
    let (result, peak) = peak_during(|| bef::translate::bef_to_mlir(&file));
    let error = result.expect_err("too many copies");
    assert!(error.message.contains("copy more than"), "{error}");
    assert!(
        peak <= budget(bytes.len()),
        "{peak} bytes for {} bytes",
        bytes.len()
    );
}
