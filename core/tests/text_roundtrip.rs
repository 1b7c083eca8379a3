//! Property test: arbitrary IR → print (custom and generic forms, with and
//! without locations) → parse → the same module.

use arbitrary::Unstructured;
use bef::ir::Module;
use bef::text::arbitrary_ir::{Config, arbitrary_module_with};
use bef::text::{PrintOptions, parse_module, print_module, render_diagnostic};
use proptest::prelude::*;

fn check(m: &Module) -> Result<(), TestCaseError> {
    for generic in [false, true] {
        let text = print_module(
            m,
            PrintOptions {
                generic,
                debug_info: true,
            },
        );
        let back = parse_module(&text, "p.mlir").map_err(|e| {
            TestCaseError::fail(format!("{}\n{text}", render_diagnostic(&e, &text)))
        })?;
        prop_assert_eq!(&back, m, "generic={} text:\n{}", generic, text);
        // A fixed point: printing the parsed module gives the same text.
        prop_assert_eq!(
            print_module(
                &back,
                PrintOptions {
                    generic,
                    debug_info: true
                }
            ),
            text
        );

        let text = print_module(
            m,
            PrintOptions {
                generic,
                debug_info: false,
            },
        );
        let mut back = parse_module(&text, "p.mlir").map_err(|e| {
            TestCaseError::fail(format!("{}\n{text}", render_diagnostic(&e, &text)))
        })?;
        let mut expected = m.clone();
        Module::strip_locations(&mut back);
        Module::strip_locations(&mut expected);
        prop_assert_eq!(
            back,
            expected,
            "generic={} without locations:\n{}",
            generic,
            text
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_ir_round_trips(bytes in proptest::collection::vec(any::<u8>(), 0..4096), bef in any::<bool>()) {
        let mut u = Unstructured::new(&bytes);
        let cfg = Config { bef_encodable: bef, ..Config::default() };
        let Ok(m) = arbitrary_module_with(&mut u, cfg) else { return Ok(()) };
        check(&m)?;
    }
}
