//! MLIR text: any bytes through the parser, printer and translator.

/// An error rendered with its source line: bounded whatever its location
/// says (a column of 4294967295 once meant 4 GiB of padding).
fn render_bounded(diag: &bef::ir::Diagnostic, source: &str) {
    let rendered = bef::text::render_diagnostic(diag, source);
    // The header, then at most a quoted line and a caret line of
    // `MAX_QUOTED_LINE` characters (four bytes at most each) and `…`s, or
    // a note.
    let bound = diag.to_string().len() + 8 * bef::text::MAX_QUOTED_LINE + 256;
    assert!(
        rendered.len() <= bound,
        "{} bytes rendered for {diag}",
        rendered.len()
    );
}

/// Any bytes → parse as MLIR text. Must never panic. When the text parses,
/// printing (custom and generic form, with locations) and parsing again
/// must reach a fixed point, and translating to BEF must not panic either;
/// what the translator writes must open, verify and decode. Errors must
/// render with a bounded source excerpt. The two-thread paths of large
/// inputs (parse, translation, encoding), forced on, must give what one
/// thread gives.
pub fn mlir_parse(data: &[u8]) {
    let Ok(source) = std::str::from_utf8(data) else {
        return;
    };
    let parsed = bef::text::parse_module(source, "fuzz.mlir");
    if let Err(error) = &parsed {
        render_bounded(error, source);
    }
    // Large texts are parsed, translated and encoded on two threads; forced
    // here, each must give what one thread gives.
    assert_eq!(
        bef::text::parse_module_on_two_threads(source, "fuzz.mlir"),
        parsed,
        "the two-thread parse differs"
    );
    let Ok(module) = parsed else {
        return;
    };
    let options = bef::translate::TranslateOptions::default();
    let model = bef::translate::mlir_to_bef_model(&module, options);
    if let Err(errors) = &model {
        for error in errors {
            render_bounded(error, source);
        }
    }
    assert_eq!(
        bef::translate::mlir_to_bef_model_on_two_threads(&module, options),
        model,
        "the two-thread translation differs"
    );
    if let Ok(model) = model {
        let encoded = bef::format::encode(&model);
        assert_eq!(
            bef::format::encoder::encode_on_two_threads(&model),
            encoded,
            "the two-thread encoding differs"
        );
        // The product path encodes the translator's flat bodies directly:
        // it must write what encoding the model writes.
        let direct = bef::translate::mlir_to_bef(&module, options);
        if let Ok(bytes) = &direct {
            let buffer = bef::format::BefBuffer::copy_from(bytes);
            let file = buffer.open().expect("what the translator writes opens");
            if let Err(problems) = bef::format::verify(&file) {
                panic!("what the translator writes fails verification: {problems:?}");
            }
            file.to_module()
                .expect("what the translator writes decodes");
        }
        let direct = direct.map_err(|mut errors| errors.remove(0).message);
        assert_eq!(
            direct,
            encoded.map_err(|e| e.0),
            "the flat bodies encode differently"
        );
    }
    for generic in [false, true] {
        let options = bef::text::PrintOptions {
            generic,
            debug_info: true,
        };
        let printed = bef::text::print_module(&module, options);
        let reparsed = bef::text::parse_module(&printed, "fuzz.mlir")
            .unwrap_or_else(|e| panic!("printed module does not parse: {e}\n{printed}"));
        assert_eq!(
            reparsed, module,
            "print → parse changed the module:\n{printed}"
        );
        let again = bef::text::print_module(&reparsed, options);
        assert_eq!(again, printed, "printing is not a fixed point");
    }
}
