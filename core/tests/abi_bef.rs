//! Signature metadata in BEF: the `iree.abi` and `iree.abi.sip` function
//! attributes go to the Signatures section and back, through text, BEF
//! and MLIR bytecode; the section is checked by `bef verify`; readers
//! skip sections they do not know.

mod common;

use bef::abi::function::{call_signature_in_file, check_file};
use bef::abi::{Mode, REFLECTION_ATTRIBUTE, SIP_ATTRIBUTE};
use bef::format::{self, BefBuffer, FunctionSignatures, SectionId};
use bef::text::{PrintOptions, parse_module, print_module};
use bef::translate::{TranslateOptions, bef_to_mlir, mlir_to_bef, mlir_to_bef_model};

const PROGRAM: &str = "mlir/function_signatures.mlir";

fn source() -> String {
    String::from_utf8(common::read_corpus(PROGRAM)).unwrap()
}

fn to_bef(text: &str, options: TranslateOptions) -> Vec<u8> {
    mlir_to_bef(&parse_module(text, "t.mlir").unwrap(), options).unwrap()
}

fn attribute_text(module: &bef::ir::Module, function: &str, name: &str) -> Option<Vec<u8>> {
    let op = module.body().ops.iter().find(|op| {
        op.attribute("sym_name")
            .and_then(|a| a.as_str())
            .is_some_and(|n| n == function.as_bytes())
    })?;
    op.attribute(name)
        .and_then(|a| a.as_str())
        .map(<[u8]>::to_vec)
}

#[test]
fn attributes_survive_text_bef_text_and_bytecode() {
    let text = source();
    let original = parse_module(&text, "t.mlir").unwrap();
    let reflection = attribute_text(&original, "add", REFLECTION_ATTRIBUTE).unwrap();
    let sip = attribute_text(&original, "pair", SIP_ATTRIBUTE).unwrap();
    // Without the optional sections too: the metadata is needed to call.
    for options in [
        TranslateOptions::default(),
        TranslateOptions {
            optional_sections: false,
        },
    ] {
        let bef = to_bef(&text, options);
        let buffer = BefBuffer::copy_from(&bef);
        let file = buffer.open().unwrap();
        assert!(file.section(SectionId::Signatures).is_some());
        let entries = file.signatures().unwrap();
        assert_eq!(
            entries,
            vec![
                FunctionSignatures {
                    function: 0,
                    reflection: Some(String::from_utf8(reflection.clone()).unwrap()),
                    sip: None
                },
                FunctionSignatures {
                    function: 1,
                    reflection: None,
                    sip: Some(sip.clone())
                },
            ]
        );
        if options.optional_sections {
            let back = bef_to_mlir(&file).unwrap();
            assert_eq!(
                attribute_text(&back, "add", REFLECTION_ATTRIBUTE),
                Some(reflection.clone())
            );
            assert_eq!(
                attribute_text(&back, "pair", SIP_ATTRIBUTE),
                Some(sip.clone())
            );
            // (`translate_corpus` checks that the bytes come back too.)
            let printed = print_module(&back, PrintOptions::default());
            assert!(printed.contains("attributes {iree.abi = "), "{printed}");
            assert!(printed.contains("attributes {iree.abi.sip = "), "{printed}");
        }
    }
    for version in [0, 6] {
        let written = bef::bytecode::write(
            &original,
            &bef::bytecode::WriteOptions {
                version,
                ..Default::default()
            },
        )
        .unwrap();
        let read = bef::bytecode::read(&written.bytes).unwrap();
        assert_eq!(
            attribute_text(&read, "add", REFLECTION_ATTRIBUTE),
            Some(reflection.clone())
        );
        assert_eq!(
            attribute_text(&read, "pair", SIP_ATTRIBUTE),
            Some(sip.clone())
        );
    }
}

#[test]
fn files_without_metadata_have_no_signatures_section() {
    let bef = to_bef(
        "func.func @f(%a: i32) -> i32 {\n  tfrt.return %a : i32\n}\n",
        TranslateOptions::default(),
    );
    let buffer = BefBuffer::copy_from(&bef);
    let file = buffer.open().unwrap();
    assert!(file.section(SectionId::Signatures).is_none());
    assert_eq!(file.signatures(), Ok(Vec::new()));
    let signature = call_signature_in_file(&file, 0, Mode::Strict).unwrap();
    assert_eq!(signature.raw.mangle(), b"I6!S3!t6R6!S3!t6");
}

#[test]
fn call_signatures_come_from_types_and_metadata() {
    let bef = to_bef(&source(), TranslateOptions::default());
    let buffer = BefBuffer::copy_from(&bef);
    let file = buffer.open().unwrap();
    let add = call_signature_in_file(&file, 0, Mode::Strict).unwrap();
    assert_eq!(add.raw.to_string(), "(sint32, sint32) -> (sint32)");
    assert_eq!(add.arity(), 2);
    let pair = call_signature_in_file(&file, 1, Mode::Strict).unwrap();
    assert_eq!(
        pair.raw.to_string(),
        "(sint32, float32) -> (sint32, float32)"
    );
    assert!(check_file(&file).is_empty());
}

#[test]
fn malformed_metadata_is_refused_by_the_translator() {
    for (attribute, value, message) in [
        ("iree.abi", r#"{\"a\":[\"i32\"]}"#, "missing key"),
        ("iree.abi", "not json", "not JSON"),
        ("iree.abi.sip", "I1!R", "is not a SIP signature"),
        ("iree.abi", "5", "not a JSON object"),
    ] {
        let text = format!(
            "func.func @f(%a: i32) -> i32 attributes {{{attribute} = \"{value}\"}} {{\n  tfrt.return %a : i32\n}}\n"
        );
        let module = parse_module(&text, "t.mlir").unwrap();
        let errors = mlir_to_bef(&module, TranslateOptions::default()).unwrap_err();
        assert!(
            errors[0].message.contains(message),
            "{attribute}={value}: {}",
            errors[0].message
        );
        assert!(errors[0].message.starts_with("'func.func' op attribute"));
    }
    let text = "func.func @f(%a: i32) -> i32 attributes {iree.abi = 5 : i32} {\n  tfrt.return %a : i32\n}\n";
    let errors = mlir_to_bef(
        &parse_module(text, "t.mlir").unwrap(),
        TranslateOptions::default(),
    )
    .unwrap_err();
    assert_eq!(
        errors[0].message,
        "'func.func' op attribute 'iree.abi' must be a string"
    );
}

/// The model of the corpus program with its metadata replaced.
fn with_signatures(signatures: Vec<FunctionSignatures>) -> Vec<u8> {
    let mut model = mlir_to_bef_model(
        &parse_module(&source(), "t.mlir").unwrap(),
        TranslateOptions::default(),
    )
    .unwrap();
    model.signatures = signatures;
    format::encode(&model).unwrap()
}

#[test]
fn verify_checks_metadata_against_the_functions() {
    let cases = [
        (
            FunctionSignatures {
                function: 0,
                reflection: Some(r#"{"a":["i32"],"r":["i32"],"v":1}"#.into()),
                sip: None,
            },
            "the reflection describes 1 arguments, the function has 2",
        ),
        (
            FunctionSignatures {
                function: 0,
                reflection: Some(r#"{"a":["f32","i32"],"r":["i32"],"v":1}"#.into()),
                sip: None,
            },
            "the reflection gives argument 0 the type f32, but it is i32",
        ),
        (
            FunctionSignatures {
                function: 1,
                reflection: None,
                sip: Some(b"I12!S9!k0_0k1_0R1!".to_vec()),
            },
            "raw index 0 appears twice",
        ),
        (
            FunctionSignatures {
                function: 1,
                reflection: None,
                sip: Some(b"I8!S5!k0_0R1!".to_vec()),
            },
            "no leaf is argument 1",
        ),
    ];
    for (entry, message) in cases {
        let bef = with_signatures(vec![entry]);
        let buffer = BefBuffer::copy_from(&bef);
        let file = buffer.open().unwrap();
        assert_eq!(format::verify(&file), Ok(()));
        let problems = check_file(&file);
        assert_eq!(problems.len(), 1);
        assert!(
            problems[0].message.contains(message),
            "{}",
            problems[0].message
        );
        // `bef verify` reports it and fails.
        let path = common::scratch_dir("abi_verify").join("bad.bef");
        std::fs::write(&path, &bef).unwrap();
        let out = common::bef(&["verify", path.to_str().unwrap()], None);
        assert_eq!(out.status.code(), Some(1));
        let stderr = common::text(&out.stderr);
        assert!(stderr.contains(message), "{stderr}");
    }
}

#[test]
fn damaged_sections_are_decode_errors() {
    let bef = to_bef(&source(), TranslateOptions::default());
    let buffer = BefBuffer::copy_from(&bef);
    let file = buffer.open().unwrap();
    let section = file.section(SectionId::Signatures).unwrap().clone();
    // A count past the section's bytes, then a function out of range.
    for (at, byte, message) in [
        (
            section.data_offset as usize,
            0x7f,
            "more than its bytes can hold",
        ),
        (section.data_offset as usize + 1, 0x09, "names function 9"),
    ] {
        let mut damaged = bef.clone();
        damaged[at] = byte;
        let buffer = BefBuffer::copy_from(&damaged);
        let file = buffer.open().unwrap();
        let error = file.signatures().unwrap_err();
        assert!(error.message.contains(message), "{error}");
        assert!(format::verify(&file).is_err());
    }
}

#[test]
fn readers_skip_sections_they_do_not_know() {
    // A section of an id no reader knows, after the others: the file
    // opens, verifies and runs as before.
    let mut bef = to_bef(&source(), TranslateOptions::default());
    bef.extend_from_slice(&[40, 3 << 1, 1, 2, 3]);
    let buffer = BefBuffer::copy_from(&bef);
    let file = buffer.open().unwrap();
    assert_eq!(file.sections().last().unwrap().id, 40);
    assert_eq!(format::verify(&file), Ok(()));
    let mut registry = bef::exec::KernelRegistry::new();
    bef::kernels::register_all(&mut registry);
    let runner = bef::exec::Runner::builder(registry).build().unwrap();
    let program = runner
        .load(bef::exec::Input::from_bytes(&bef, "t.bef").unwrap())
        .unwrap();
    assert_eq!(program.function_named("pair"), Some(1));
}
