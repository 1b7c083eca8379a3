//! Property tests of the passes on arbitrary IR: the verifier never
//! panics; every pass takes a module that verifies to one that still does,
//! prints, parses back to itself and is left alone by a second run of the
//! same pass (canonicalization and inlining reach a fixed point).

use arbitrary::Unstructured;
use bef::ir::Module;
use bef::passes::{Pass, verify};
use bef::text::arbitrary_ir::{Config, arbitrary_module_with};
use bef::text::{PrintOptions, parse_module, print_module, render_diagnostic};
use proptest::prelude::*;

fn printed(m: &Module) -> String {
    print_module(
        m,
        PrintOptions {
            generic: false,
            debug_info: true,
        },
    )
}

fn check(module: &Module) -> Result<(), TestCaseError> {
    if verify::verify(module).is_err() {
        return Ok(());
    }
    for pass in Pass::ALL {
        let mut m = module.clone();
        let _ = pass.run(&mut m);
        let text = printed(&m);
        if let Err(d) = verify::verify(&m) {
            return Err(TestCaseError::fail(format!(
                "{} broke the module: {d}\nbefore:\n{}\nafter:\n{text}",
                pass.name(),
                printed(module)
            )));
        }
        let back = parse_module(&text, "p.mlir").map_err(|d| {
            TestCaseError::fail(format!("{}\n{text}", render_diagnostic(&d, &text)))
        })?;
        prop_assert_eq!(
            &back,
            &m,
            "{} output does not parse back:\n{}",
            pass.name(),
            text
        );
        let mut again = m.clone();
        let _ = pass.run(&mut again);
        prop_assert_eq!(printed(&again), text, "{} is not idempotent", pass.name());
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn passes_keep_modules_valid(data in proptest::collection::vec(any::<u8>(), 0..4096)) {
        let mut u = Unstructured::new(&data);
        for bef_encodable in [true, false] {
            let config = Config { bef_encodable, ..Config::default() };
            if let Ok(module) = arbitrary_module_with(&mut u, config) {
                check(&module)?;
            }
        }
    }
}
