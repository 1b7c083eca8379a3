//! Property tests: arbitrary BEF-encodable IR → BEF → IR → BEF.
//!
//! BEF does not keep everything text can say (return locations, function
//! visibility, module attributes, properties vs dictionary), so the first
//! decode normalizes; from there on the IR and the bytes must be a fixed
//! point: IR₁ → BEF₁ → IR₂ → BEF₂ with BEF₁ = BEF₂ and IR₂ → BEF → IR₂,
//! and IR₂ printed as text and parsed back gives BEF₁ again.

use arbitrary::Unstructured;
use proptest::prelude::*;

use bef::format::BefBuffer;
use bef::ir::Module;
use bef::text::arbitrary_ir::arbitrary_bef_module;
use bef::translate::{TranslateOptions, bef_to_mlir, mlir_to_bef};

fn decode(bytes: &[u8]) -> Module {
    let buffer = BefBuffer::copy_from(bytes);
    let file = buffer.open().expect("translated BEF opens");
    bef::format::verify(&file).expect("translated BEF verifies");
    bef_to_mlir(&file).expect("translated BEF decodes")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 384, ..ProptestConfig::default() })]

    #[test]
    fn ir_to_bef_to_ir_is_a_fixed_point(data in proptest::collection::vec(any::<u8>(), 0..4096)) {
        let Ok(module) = arbitrary_bef_module(&mut Unstructured::new(&data)) else {
            return Ok(());
        };
        let first = mlir_to_bef(&module, TranslateOptions::default())
            .unwrap_or_else(|e| panic!("generated module does not translate: {e:?}\n{}", bef::text::print_module(&module, Default::default())));
        let decoded = decode(&first);
        let second = mlir_to_bef(&decoded, TranslateOptions::default())
            .unwrap_or_else(|e| panic!("decoded module does not translate: {e:?}"));
        prop_assert!(second == first, "IR → BEF → IR → BEF changed the bytes");
        prop_assert!(decode(&second) == decoded, "decode is not a fixed point");
        // And through text, with locations.
        let text = bef::text::print_module(&decoded, bef::text::PrintOptions { generic: false, debug_info: true });
        let parsed = bef::text::parse_module(&text, "roundtrip.mlir")
            .unwrap_or_else(|d| panic!("{}\n{text}", bef::text::render_diagnostic(&d, &text)));
        // Block arguments pick up the positions of their names when
        // parsed; BEF does not hold argument locations, so compare bytes.
        let third = mlir_to_bef(&parsed, TranslateOptions::default())
            .unwrap_or_else(|e| panic!("printed module does not translate: {e:?}\n{text}"));
        prop_assert!(third == first, "IR → BEF → IR → text → IR → BEF changed the bytes:\n{}", text);
    }
}
