//! A name must resolve to exactly one thing: two functions of one name, or
//! two names that differ only in bytes that are not UTF-8, are errors in
//! the translator (as in upstream MLIR) and in `bef verify`, never a call
//! that binds to a function other than the one a reader sees.

mod common;

use bef::format::{BefBuffer, Body, Function, FunctionKind, Kernel, Module, encode, verify};
use bef::translate::{TranslateOptions, mlir_to_bef};
use common::{bef, text};

fn translate_errors(source: &str) -> Vec<String> {
    let module = match bef::text::parse_module(source, "p.mlir") {
        Ok(module) => module,
        Err(diag) => return vec![diag.to_string()],
    };
    match mlir_to_bef(&module, TranslateOptions::default()) {
        Ok(_) => Vec::new(),
        Err(diags) => diags.iter().map(|d| d.to_string()).collect(),
    }
}

const TWICE: &str = "func.func @f() -> i32 {
  %c = tfrt.constant.i32 1
  tfrt.return %c : i32
}
func.func @f() -> i32 {
  %c = tfrt.constant.i32 2
  tfrt.return %c : i32
}
";

#[test]
fn a_second_function_of_one_name_is_a_redefinition() {
    assert_eq!(
        translate_errors(TWICE),
        ["p.mlir:5:1: error: redefinition of symbol named 'f'"]
    );
    // Collected on two threads, one definition in each half: the same.
    let module = bef::text::parse_module(TWICE, "p.mlir").unwrap();
    let errors: Vec<String> =
        bef::translate::mlir_to_bef_model_on_two_threads(&module, TranslateOptions::default())
            .unwrap_err()
            .iter()
            .map(|d| d.to_string())
            .collect();
    assert_eq!(
        errors,
        ["p.mlir:5:1: error: redefinition of symbol named 'f'"]
    );
    let dir = common::scratch_dir("symbols-twice");
    let path = dir.join("twice.mlir");
    std::fs::write(&path, TWICE).unwrap();
    let out = bef(&["run", path.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("redefinition of symbol named 'f'"));
    assert!(!text(&out.stdout).contains("returned"), "nothing ran");
}

#[test]
fn names_that_are_not_utf8_are_refused_not_merged() {
    let source = "func.func @\"a\\FF\"() -> i32 {
  %0 = tfrt.call @\"a\\FE\"() : () -> i32
  tfrt.return %0 : i32
}
func.func @\"a\\FE\"() -> i32 {
  %c = tfrt.constant.i32 1
  tfrt.return %c : i32
}
";
    assert_eq!(
        translate_errors(source),
        ["p.mlir:1:12: error: name is not valid UTF-8"]
    );
}

/// `@main` returning its argument, `copies` times under one name.
fn same_name_functions(copies: usize) -> Vec<u8> {
    let function = || {
        let mut body = Body {
            location: None,
            num_registers: 1,
            register_types: vec![0],
            kernels: vec![Kernel::pseudo(1, 1, vec![Vec::new(); 2], 0)],
            results: vec![0],
        };
        body.compute_used_by();
        Function {
            kind: FunctionKind::Bef,
            name: "main".into(),
            arg_types: vec![0],
            result_types: vec![0],
            body: Some(body),
        }
    };
    encode(&Module {
        kernel_names: Vec::new(),
        types: vec!["!tfrt.chain".into()],
        attributes: Vec::new(),
        functions: (0..copies).map(|_| function()).collect(),
        optional_sections: true,
        extra_strings: Vec::new(),
        signatures: Vec::new(),
    })
    .expect("the model encodes")
}

#[test]
fn verify_names_functions_that_share_a_name() {
    let once = BefBuffer::copy_from(&same_name_functions(1));
    verify(&once.open().unwrap()).expect("one @main is fine");
    let twice = BefBuffer::copy_from(&same_name_functions(2));
    let problems: Vec<String> = verify(&twice.open().unwrap())
        .unwrap_err()
        .iter()
        .map(|p| p.to_string())
        .collect();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].contains("redefinition of symbol named 'main': functions 0 and 1"),
        "{problems:?}"
    );
}
