//! `bef opt`'s work: any text through the verifier and the passes.

use bef::passes::{Pass, verify};
use bef::text::{PrintOptions, parse_module, print_module};

/// Any bytes → parse as MLIR text, verify, and when the module verifies
/// run every pass pipeline of one or two passes. Must never panic; every
/// pass must leave a module that verifies, prints and parses back to
/// itself.
pub fn opt_passes(data: &[u8]) {
    let Ok(source) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(module) = parse_module(source, "fuzz.mlir") else {
        return;
    };
    let _ = verify::check_registered_dialects(&module);
    if verify::verify(&module).is_err() {
        return;
    }
    for first in Pass::ALL {
        for second in [None, Some(Pass::Inline), Some(Pass::Canonicalize)] {
            let mut m = module.clone();
            for pass in std::iter::once(first).chain(second) {
                let _ = pass.run(&mut m);
                if let Err(d) = verify::verify(&m) {
                    panic!(
                        "{} left a module that does not verify: {d}\n{}",
                        pass.name(),
                        print_module(&m, PrintOptions::default())
                    );
                }
            }
            let options = PrintOptions {
                generic: false,
                debug_info: true,
            };
            let printed = print_module(&m, options);
            let back = parse_module(&printed, "fuzz.mlir")
                .unwrap_or_else(|e| panic!("the output does not parse: {e}\n{printed}"));
            assert_eq!(back, m, "print → parse changed the output:\n{printed}");
        }
    }
}
