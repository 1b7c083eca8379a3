//! Function signatures from untrusted bytes: raw, SIP and JSON reflection
//! parsers give an error or a signature that re-encodes to an equivalent
//! one, in both modes, in time linear in the input.

use bef::abi::raw::Side;
use bef::abi::sip::{self, ToStringVisitor};
use bef::abi::{Mode, RawSignature, Reflection, SipSignature};

const MODES: [Mode; 2] = [Mode::Strict, Mode::Lenient];

/// Reads `data` as a raw signature.
pub fn abi_raw_parse(data: &[u8]) {
    for mode in MODES {
        let Ok(signature) = RawSignature::parse(data, mode) else {
            continue;
        };
        let _ = signature.to_string();
        let mangled = signature.mangle();
        // The mangling is canonical and strict whatever was read.
        let reread = RawSignature::parse(&mangled, Mode::Strict)
            .unwrap_or_else(|e| panic!("{mangled:?} does not read back: {e}"));
        assert_eq!(reread, signature);
        assert_eq!(reread.mangle(), mangled);
    }
}

/// Reads `data` as a SIP signature, through the visitor and as a tree.
pub fn abi_sip_parse(data: &[u8]) {
    for mode in MODES {
        for side in [Side::Input, Side::Result] {
            let mut visitor = ToStringVisitor::default();
            let _ = sip::visit(data, side, mode, &mut visitor);
            // Rendering is linear in the input: each byte opens at most
            // one line of at most MAX_NESTING indents and a number.
            assert!(visitor.text().len() <= 16 + data.len() * (2 * sip::MAX_NESTING + 16));
        }
        let Ok(signature) = SipSignature::parse(data, mode) else {
            continue;
        };
        let mangled = signature.mangle();
        let reread = SipSignature::parse(&mangled, mode)
            .unwrap_or_else(|e| panic!("{mangled:?} does not read back: {e}"));
        assert_eq!(reread, signature);
        if mode == Mode::Strict {
            assert!(mangled.len() <= data.len(), "strict re-encoding grew");
        }
    }
}

/// Reads `data` as JSON reflection.
pub fn abi_json_parse(data: &[u8]) {
    for mode in MODES {
        let Ok(reflection) = Reflection::from_json(data, mode) else {
            continue;
        };
        let _ = reflection.to_string();
        let _ = reflection.raw_signature();
        let text = reflection.to_json();
        let reread = Reflection::from_json(text.as_bytes(), mode)
            .unwrap_or_else(|e| panic!("{text} does not read back: {e}"));
        assert_eq!(reread, reflection);
        assert_eq!(reread.to_json(), text);
    }
}
