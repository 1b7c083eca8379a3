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

/// The reflection typed call arguments are read with when the input
/// carries none that reads: every kind of record.
pub(crate) const DEFAULT_REFLECTION: &str = r#"{"a":[["named","t",["ndarray","f32",2,2,2]],["named","d",["sdict",["x","i8"],["y",["slist","f32","i64"]]]],["named","s",["stuple","i1","i64",["ndarray","i32",1,null]]],["named","c",null]],"r":[],"v":1}"#;

/// Reads `data` as typed call arguments (`bef run --call NAME --args
/// JSON`): the first line is the reflection to read them with (a default
/// one if it does not read), the rest the JSON arguments. Arguments that
/// read are written back as JSON, which must be valid, safe for a
/// terminal and linear in the input's size.
pub fn abi_call_arguments(data: &[u8]) {
    use bef::abi::json_values::{BtfReader, arguments_from_json, values_to_json};
    let (first, arguments) = match data.iter().position(|&b| b == b'\n') {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => (&[][..], data),
    };
    let reflection = Reflection::from_json(first, Mode::Strict)
        .or_else(|_| Reflection::from_json(DEFAULT_REFLECTION.as_bytes(), Mode::Strict))
        .unwrap_or_else(|e| panic!("the default reflection does not read: {e}"));
    // No file is read while fuzzing; a BTF reference is an error.
    let no_btf: BtfReader<'_> = &|_, _, _, _| Err("no BTF files while fuzzing".to_string());
    let Ok(read) = arguments_from_json(arguments, &reflection.args, no_btf) else {
        return;
    };
    let values: Vec<_> = read
        .positional
        .iter()
        .chain(read.keywords.values())
        .cloned()
        .collect();
    let text = values_to_json(&values);
    assert!(
        text.len() <= 64 + 32 * arguments.len(),
        "{} bytes of JSON from {} of arguments",
        text.len(),
        arguments.len()
    );
    assert!(
        !text.chars().any(bef::tool_io::escape::is_unsafe),
        "unsafe character in {text}"
    );
    bef::tool_io::json::parse_strict(text.as_bytes())
        .unwrap_or_else(|e| panic!("{text} is not JSON: {e}"));
}
