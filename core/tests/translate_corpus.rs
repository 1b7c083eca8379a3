//! Every host program under `corpus/mlir/`, and every `// -----` chunk of
//! `corpus/conformance/` that translates, survives text → BEF → text → BEF
//! with identical bytes, through the custom and the generic printer, with
//! and without optional sections where that is possible.

mod common;

use std::path::PathBuf;

use bef::format::BefBuffer;
use bef::text::{PrintOptions, parse_module, print_module, render_diagnostic, split_input};
use bef::translate::{TranslateOptions, bef_to_mlir, mlir_to_bef};

fn programs() -> Vec<PathBuf> {
    let dir = common::corpus_path("mlir");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "mlir"))
        .collect();
    files.sort();
    files
}

fn to_bef(source: &str, name: &str) -> Vec<u8> {
    let module =
        parse_module(source, name).unwrap_or_else(|d| panic!("{}", render_diagnostic(&d, source)));
    mlir_to_bef(&module, TranslateOptions::default()).unwrap_or_else(|ds| {
        let rendered: Vec<String> = ds.iter().map(|d| render_diagnostic(d, source)).collect();
        panic!("{}", rendered.join("\n"))
    })
}

fn to_text(bef: &[u8], options: PrintOptions) -> String {
    let buffer = BefBuffer::copy_from(bef);
    let file = buffer.open().expect("translated BEF opens");
    print_module(
        &bef_to_mlir(&file).expect("translated BEF decodes"),
        options,
    )
}

#[test]
fn corpus_programs_round_trip_to_identical_bytes() {
    let programs = programs();
    assert!(programs.len() >= 40, "only {} programs", programs.len());
    for path in &programs {
        let name = path.file_name().unwrap().to_str().unwrap();
        let source = std::fs::read_to_string(path).unwrap();
        let first = to_bef(&source, name);
        for generic in [false, true] {
            let options = PrintOptions {
                generic,
                debug_info: true,
            };
            let text = to_text(&first, options);
            let second = to_bef(&text, name);
            assert!(
                second == first,
                "{name}: text → BEF → text (generic: {generic}) → BEF changed the bytes; text was:\n{text}"
            );
            // Printing what was parsed back is a fixed point.
            assert_eq!(
                to_text(&second, options),
                text,
                "{name}: printing is not stable"
            );
        }
    }
}

/// The conformance programs use every op, kernel and custom form the
/// runner and translator support, several per file (`// -----`). Chunks
/// that are meant to be rejected (expected-error tests) do not translate;
/// all the others must round-trip, and there must be many of them.
#[test]
fn conformance_chunks_round_trip_to_identical_bytes() {
    let mut round_tripped = 0;
    for path in common::corpus_files("conformance", "mlir") {
        let file = path.file_name().unwrap().to_str().unwrap().to_string();
        let source = std::fs::read_to_string(&path).unwrap();
        for chunk in split_input(&source) {
            let name = format!("{file}:{}", chunk.first_line);
            let Ok(module) = parse_module(chunk.text, &name) else {
                continue;
            };
            let Ok(first) = mlir_to_bef(&module, TranslateOptions::default()) else {
                continue;
            };
            for generic in [false, true] {
                let options = PrintOptions {
                    generic,
                    debug_info: true,
                };
                let text = to_text(&first, options);
                assert!(
                    to_bef(&text, &name) == first,
                    "{name}: text → BEF → text (generic: {generic}) → BEF changed the bytes; text was:\n{text}"
                );
            }
            round_tripped += 1;
        }
    }
    assert!(
        round_tripped >= 100,
        "only {round_tripped} conformance chunks translate"
    );
}

#[test]
fn corpus_programs_translate_without_optional_sections() {
    for path in programs() {
        let name = path.file_name().unwrap().to_str().unwrap();
        let source = std::fs::read_to_string(&path).unwrap();
        let module = parse_module(&source, name).unwrap();
        let full = mlir_to_bef(&module, TranslateOptions::default()).unwrap();
        let lean = mlir_to_bef(
            &module,
            TranslateOptions {
                optional_sections: false,
            },
        )
        .unwrap();
        assert!(lean.len() < full.len(), "{name}");
        let buffer = BefBuffer::copy_from(&lean);
        let file = buffer.open().unwrap();
        bef::format::verify(&file).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        // Without the optional sections the text has placeholders (as in
        // the reference): the functions are all there, values typed `none`.
        assert!(bef::translate::missing_optional_sections(&file), "{name}");
        let rebuilt = bef_to_mlir(&file).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        assert_eq!(
            rebuilt.functions().count(),
            module.functions().count(),
            "{name}"
        );
    }
}
