//! Every vector of `corpus/abi/function-abi.json` (taken from the
//! function-signature reference implementations) that specifies behaviour,
//! run against `bef::abi`. Vectors recording a reference bug are checked
//! against the strict behaviour, with the reason beside them; vectors
//! about other systems are listed in `NOT_BEHAVIOUR_HERE` with why, and
//! the last test checks that every vector is one or the other.

mod common;

use std::collections::{BTreeMap, BTreeSet};

use bef::abi::call::{CallSignature, Structure, check_raw};
use bef::abi::lexical::{Component, Lexer, SignatureBuilder};
use bef::abi::raw::{RawSignature, RawType, ScalarType, Side, raw_type_of_mlir};
use bef::abi::reflection::{Reflection, TypeRecord};
use bef::abi::sip::{self, SipKey, SipMangler, SipSignature, ToStringVisitor};
use bef::abi::{Buffer, ElementType, Mode, Value};
use serde_json::Value as Json;

/// Vectors that describe another system than this one, and why.
const NOT_BEHAVIOUR_HERE: &[(u64, &str)] = &[
    (
        42,
        "an exporter deciding which MLIR functions get reflection",
    ),
    (79, "TensorFlow's exporter refusing aliased functions"),
    (
        286,
        "IREE 3.13 VM declarations and calling-convention strings",
    ),
    (287, "IREE 3.13 VM declarations"),
    (288, "IREE 3.13 VM declarations"),
    (289, "IREE 3.13 VM declarations"),
    (290, "IREE 3.13 VM declarations (f64 demotion)"),
    (291, "IREE 3.13 VM declarations"),
    (292, "IREE 3.13 VM list types"),
    (293, "IREE 3.13 HAL types"),
    (294, "IREE 3.13 compiler errors"),
    (295, "IREE 3.13 module loading"),
    (296, "IREE 3.13 dropping iree.abi on func.func"),
    (297, "IREE 3.13 util.func reflection dictionaries"),
    (298, "IREE 3.13 iree.reflection dictionaries"),
    (299, "IREE 3.13 async functions and fences"),
    (300, "IREE 3.13 declaration overrides"),
    (301, "IREE 3.13 Python DeviceArray results"),
    (302, "IREE 3.13 Python keyword calls"),
];

struct Vectors(Vec<Json>);

impl Vectors {
    fn load() -> Vectors {
        let bytes = common::read_corpus("abi/function-abi.json");
        let json: Json = serde_json::from_slice(&bytes).expect("function-abi.json is JSON");
        Vectors(json.as_array().expect("a list of vectors").clone())
    }

    fn group(&self, group: &str) -> Vec<&Json> {
        let found: Vec<&Json> = self.0.iter().filter(|v| v["group"] == group).collect();
        assert!(!found.is_empty(), "no vectors in group {group}");
        found
    }

    fn by_id(&self, id: u64) -> &Json {
        self.0
            .iter()
            .find(|v| v["id"] == id)
            .unwrap_or_else(|| panic!("no vector {id}"))
    }
}

fn id(v: &Json) -> u64 {
    v["id"].as_u64().unwrap()
}

fn s<'a>(v: &'a Json, key: &str) -> &'a str {
    v[key]
        .as_str()
        .unwrap_or_else(|| panic!("vector {}: no string {key}", id(v)))
}

/// `\xHH` escapes as raw bytes (the vectors' notation for non-UTF-8 and
/// multi-byte contents).
fn unescape_hex(text: &str) -> Vec<u8> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i..].starts_with(b"\\x") && i + 4 <= bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 2..i + 4]).unwrap();
            out.push(u8::from_str_radix(hex, 16).unwrap());
            i += 4;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    out
}

/// The quoted argument of `Name('...')` or `Name("...")`.
fn quoted(input: &str) -> &str {
    let start = input.find(['\'', '"']).unwrap() + 1;
    let end = input.rfind(['\'', '"']).unwrap();
    &input[start..end]
}

fn lex_stream(input: &[u8]) -> String {
    let mut lexer = Lexer::new(input);
    let mut out = Vec::new();
    loop {
        match lexer.next_component() {
            None => {
                out.push("END".to_string());
                break;
            }
            Some(Err(_)) => {
                out.push("ERROR".to_string());
                break;
            }
            Some(Ok(c)) => out.push(c.to_string()),
        }
    }
    out.join(" ")
}

#[test]
fn lexical_builder_and_token_vectors() {
    let vectors = Vectors::load();
    let built: BTreeMap<u64, Vec<u8>> = BTreeMap::from([
        (1, {
            let mut b = SignatureBuilder::new();
            b.integer(b'_', 5)
                .integer(b'a', 1)
                .integer(b'z', 10)
                .integer(b'x', -5991);
            b.into_bytes()
        }),
        (2, {
            let mut b = SignatureBuilder::new();
            b.span(b'A', b"foobar").span(b'Z', b"FOOBAR_23_FOOBAR");
            b.into_bytes()
        }),
        (3, {
            let mut b = SignatureBuilder::new();
            b.span(b'A', b"12345").span(b'Z', b"-23");
            b.into_bytes()
        }),
        (4, {
            let mut b = SignatureBuilder::new();
            b.span(b'A', b"!2345").span(b'Z', b"-23");
            b.into_bytes()
        }),
        (5, {
            let mut outer = SignatureBuilder::new();
            outer.integer(b'_', 5);
            let mut inner = SignatureBuilder::new();
            inner.integer(b'_', 6);
            inner.append_to(&mut outer, b'X');
            outer.into_bytes()
        }),
    ]);
    for v in vectors.group("lex") {
        let input: Vec<u8> = match built.get(&id(v)) {
            Some(bytes) => {
                assert_eq!(bytes, s(v, "expected").as_bytes(), "vector {}", id(v));
                bytes.clone()
            }
            None => s(v, "raw_input").as_bytes().to_vec(),
        };
        // The token stream: `next_component` after the end or an error
        // gives the end or the error again, as the reference's `Next()`.
        let mut lexer = Lexer::new(&input);
        for expected in v["parse"].as_array().unwrap() {
            let got = lexer.next_component();
            match (expected, got) {
                (Json::String(e), None) if e == "END" => {}
                (Json::String(e), Some(Err(_))) if e == "ERROR" => {}
                (Json::Array(e), Some(Ok(Component::Integer { tag, value }))) => {
                    assert_eq!(e[0], "int", "vector {}", id(v));
                    assert_eq!(e[1], (tag as char).to_string());
                    assert_eq!(e[2], value);
                }
                (Json::Array(e), Some(Ok(Component::Span { tag, bytes }))) => {
                    assert_eq!(e[0], "span", "vector {}", id(v));
                    assert_eq!(e[1], (tag as char).to_string());
                    assert_eq!(e[2], bytes.len());
                    assert_eq!(e[3].as_str().unwrap().as_bytes(), bytes);
                }
                (e, got) => panic!("vector {}: expected {e}, got {got:?}", id(v)),
            }
        }
    }
    // The nested span of vector 5 reads as `INT(_,6)` then the end.
    assert_eq!(lex_stream(b"_6"), "INT(_,6) END");
}

#[test]
fn derived_lexical_vectors() {
    let vectors = Vectors::load();
    for v in vectors.group("derived_lex") {
        let input = unescape_hex(quoted(s(v, "input")));
        let expected = unescape_hex(s(v, "expected"));
        assert_eq!(
            lex_stream(&input).as_bytes(),
            expected,
            "vector {}: {}",
            id(v),
            s(v, "input")
        );
    }
    for v in vectors.group("derived_span") {
        let input = s(v, "input");
        let contents = if input.contains("120 x 'x'") {
            vec![b'x'; 120]
        } else {
            let inner = &input[input.find("contents (\"").unwrap() + 11..];
            unescape_hex(&inner[..inner.find('"').unwrap()])
        };
        let mut b = SignatureBuilder::new();
        b.span(b'K', &contents);
        let expected = s(v, "expected");
        if let Some(prefix) = expected.strip_suffix("xxx... total=125") {
            assert!(b.bytes().starts_with(prefix.as_bytes()), "vector {}", id(v));
            assert_eq!(b.bytes().len(), 125);
        } else {
            let expected = expected.split(" (").next().unwrap();
            assert_eq!(b.bytes(), unescape_hex(expected), "vector {}", id(v));
        }
    }
}

fn raw_item(mk: &Json) -> RawType {
    let mk = mk.as_array().unwrap();
    let code = |j: &Json| ScalarType::from_code(j.as_i64().unwrap() as i32).unwrap();
    match mk[0].as_str().unwrap() {
        "buf" => RawType::Buffer {
            element: code(&mk[1]),
            dims: mk[2]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| u32::try_from(d.as_i64().unwrap()).ok())
                .collect(),
        },
        "scalar" => RawType::Scalar(code(&mk[1])),
        "ref" => RawType::Ref,
        "unrec" => RawType::Unrecognized,
        other => panic!("unknown item {other}"),
    }
}

#[test]
fn raw_item_and_function_vectors() {
    let vectors = Vectors::load();
    for v in vectors.group("raw_item") {
        let item = raw_item(&v["mk"]);
        assert_eq!(
            item.mangle(),
            s(v, "expected").as_bytes(),
            "vector {}",
            id(v)
        );
        // Every item reads back, `U` included (the reference cannot).
        let signature = RawSignature {
            inputs: vec![item.clone()],
            results: vec![],
        };
        assert_eq!(
            RawSignature::parse(&signature.mangle(), Mode::Strict),
            Ok(signature)
        );
    }
    for v in vectors.group("raw_fn") {
        let signature = RawSignature {
            inputs: v["ins"].as_array().unwrap().iter().map(raw_item).collect(),
            results: v["outs"].as_array().unwrap().iter().map(raw_item).collect(),
        };
        assert_eq!(
            signature.mangle(),
            s(v, "expected").as_bytes(),
            "vector {}",
            id(v)
        );
        let parsed = RawSignature::parse(s(v, "expected").as_bytes(), Mode::Strict).unwrap();
        assert_eq!(parsed, signature);
        assert_eq!(parsed.to_string(), s(v, "tostring"), "vector {}", id(v));
    }
}

/// `(t1, t2) -> t3` or `(t1) -> (t2, t3)`, as MLIR type names.
fn mlir_function_type(text: &str) -> (Vec<String>, Vec<String>) {
    let (args, results) = text.split_once(" -> ").unwrap();
    let list = |t: &str| -> Vec<String> {
        let t = t.trim();
        let t = t
            .strip_prefix('(')
            .and_then(|t| t.strip_suffix(')'))
            .unwrap_or(t);
        let mut parts = Vec::new();
        let (mut depth, mut start) = (0, 0);
        for (i, c) in t.char_indices() {
            match c {
                '<' => depth += 1,
                '>' => depth -= 1,
                ',' if depth == 0 => {
                    parts.push(t[start..i].trim().to_string());
                    start = i + 1;
                }
                _ => {}
            }
        }
        if !t[start..].trim().is_empty() {
            parts.push(t[start..].trim().to_string());
        }
        parts
    };
    (list(args), list(results))
}

fn raw_of_function_type(text: &str) -> RawSignature {
    let (args, results) = mlir_function_type(text);
    RawSignature {
        inputs: args.iter().map(|t| raw_type_of_mlir(t)).collect(),
        results: results.iter().map(|t| raw_type_of_mlir(t)).collect(),
    }
}

#[test]
fn raw_signatures_of_mlir_functions() {
    let vectors = Vectors::load();
    for v in vectors.group("mlir_raw") {
        if id(v) == 42 {
            continue;
        }
        let input = s(v, "input");
        let function_type = &input[input
            .find("): ")
            .map_or_else(|| input.find(": ").unwrap() + 2, |i| i + 3)..];
        let signature = raw_of_function_type(function_type);
        assert_eq!(
            String::from_utf8(signature.mangle()).unwrap(),
            s(v, "expected"),
            "vector {}: {input}",
            id(v)
        );
    }
    for v in vectors.group("mlir_partial") {
        let input = s(v, "input");
        match v.get("partial").and_then(Json::as_str) {
            Some(partial) => {
                let mut words = input.split_whitespace().skip(1);
                let which = words.next().unwrap();
                let type_name = words.next().unwrap();
                let side = if which.starts_with("arg") {
                    Side::Input
                } else {
                    Side::Result
                };
                let got = RawSignature::partial(side, &raw_type_of_mlir(type_name));
                assert_eq!(got, partial.as_bytes(), "vector {}", id(v));
            }
            None => {
                // A function whose partial signatures are incomplete.
                let result = if input.contains("missingArgumentPartial") {
                    RawSignature::merge_partials(&[None], &[])
                } else {
                    RawSignature::merge_partials(&[Some(b"I6!B3!d1")], &[None])
                };
                let expected = s(v, "expected").strip_prefix("error: ").unwrap();
                assert_eq!(
                    result.unwrap_err(),
                    expected.to_lowercase(),
                    "vector {}",
                    id(v)
                );
            }
        }
    }
    // Merging complete partials gives the whole signature.
    let merged = RawSignature::merge_partials(
        &[Some(b"I10!B7!t7d4d4"), Some(b"I10!B7!t7d5d5")],
        &[Some(b"R10!B7!t7d5d5")],
    )
    .unwrap();
    assert_eq!(
        merged.mangle(),
        vectors.by_id(28)["expected"].as_str().unwrap().as_bytes()
    );
}

#[test]
fn python_function_abi_vectors() {
    let vectors = Vectors::load();
    for v in vectors.group("py_function_abi") {
        let input = s(v, "input");
        let f = &input[input.find("f=\"").unwrap() + 3..];
        let f = &f[..f.find('"').unwrap()];
        let signature =
            RawSignature::from_attributes(Some("1"), Some(f.as_bytes()), Mode::Strict).unwrap();
        let mut expected = format!("<FunctionAbi {signature}");
        if let Some(at) = input.find("sip=\"") {
            let sip = &input[at + 5..];
            let sip = &sip[..sip.find('"').unwrap()];
            let parsed = SipSignature::parse(sip.as_bytes(), Mode::Strict).unwrap();
            assert_eq!(parsed.mangle(), sip.as_bytes());
            expected.push_str(&format!(" SIP:'{sip}'"));
        }
        expected.push('>');
        assert_eq!(expected, s(v, "expected"), "vector {}", id(v));
    }
    // Buffers that do not fit the signature's buffer: the message names
    // what differs.
    let f32_10x128x64 = raw_type_of_mlir("tensor<10x128x64xf32>");
    let zeros = |element: ElementType, shape: Vec<u64>| {
        let len = shape.iter().product::<u64>() as usize * element.size();
        Value::Buffer(Buffer::new(element, shape, vec![0; len]).unwrap())
    };
    let cases = [
        (61, zeros(ElementType::F32, vec![10]), "rank 1, expected 3"),
        (
            62,
            zeros(ElementType::F64, vec![10, 128, 64]),
            "Buffer<f64[10x128x64]>",
        ),
        (
            63,
            zeros(ElementType::I32, vec![10, 128, 64]),
            "Buffer<i32[10x128x64]>",
        ),
        (
            64,
            zeros(ElementType::F32, vec![10, 32, 64]),
            "dim 1 is 32, expected 128",
        ),
    ];
    for (vector, value, detail) in cases {
        assert!(s(vectors.by_id(vector), "expected").starts_with("ValueError: Mismatched buffer"));
        let message = check_raw(&f32_10x128x64, &value, "argument 0")
            .unwrap_err()
            .to_string();
        assert!(
            message.starts_with("argument 0: expected Buffer<float32[10x128x64]>, given")
                && message.contains(detail),
            "vector {vector}: {message}"
        );
    }
    assert!(
        check_raw(
            &f32_10x128x64,
            &zeros(ElementType::F32, vec![10, 128, 64]),
            "a"
        )
        .is_ok()
    );
    let missing = RawSignature::from_attributes(Some("1"), None, Mode::Strict).unwrap_err();
    assert!(
        missing.starts_with("no raw ABI reflection metadata"),
        "vector 65: {missing}"
    );
    let version =
        RawSignature::from_attributes(Some("2"), Some(b"I1!R1!"), Mode::Strict).unwrap_err();
    assert!(
        version.starts_with("unsupported raw function ABI version"),
        "vector 66: {version}"
    );
}

fn path_of(json: &Json) -> Vec<SipKey> {
    json.as_array()
        .unwrap()
        .iter()
        .map(|k| match k {
            Json::String(name) => SipKey::Name(name.as_bytes().to_vec()),
            n => SipKey::Index(n.as_i64().unwrap() as i32),
        })
        .collect()
}

fn mangle_assignments(ins: &Json, results: &Json) -> Vec<u8> {
    let mut mangler = SipMangler::new();
    for (side, list) in [(Side::Input, ins), (Side::Result, results)] {
        for assignment in list.as_array().unwrap() {
            let index = assignment[0].as_i64().unwrap() as i32;
            mangler
                .set_raw_index(side, &path_of(&assignment[1]), index)
                .unwrap();
        }
    }
    mangler.mangle()
}

fn rendered(signature: &[u8], side: Side, mode: Mode) -> (String, Result<(), sip::SipError>) {
    let mut visitor = ToStringVisitor::default();
    let result = sip::visit(signature, side, mode, &mut visitor);
    (visitor.text().to_string(), result)
}

#[test]
fn sip_mangler_and_rendering_vectors() {
    let vectors = Vectors::load();
    for v in vectors.group("sip_fn") {
        let mangled = mangle_assignments(&v["in_assign"], &v["res_assign"]);
        assert_eq!(mangled, s(v, "expected").as_bytes(), "vector {}", id(v));
        for (side, key) in [
            (Side::Input, "inputs_tostring"),
            (Side::Result, "results_tostring"),
        ] {
            let (text, result) = rendered(&mangled, side, Mode::Strict);
            assert_eq!(result, Ok(()));
            assert_eq!(text, s(v, key), "vector {}", id(v));
        }
    }
    for v in vectors.group("tf_sip") {
        let mangled = mangle_assignments(&v["in_assign"], &v["res_assign"]);
        assert_eq!(mangled, s(v, "expected").as_bytes(), "vector {}", id(v));
    }
}

/// `inputs{[0,'x']:0,['b']:1} results{[]:0}` (or `{name:0}` for a
/// one-step dict path) as (side, path, index).
fn assignments(text: &str) -> Vec<(Side, Vec<SipKey>, i32)> {
    let mut out = Vec::new();
    for (side, name) in [(Side::Input, "inputs{"), (Side::Result, "results{")] {
        let Some(start) = text.find(name) else {
            continue;
        };
        let body = &text[start + name.len()..];
        let body = &body[..body.find('}').unwrap()];
        let mut entries = Vec::new();
        let (mut depth, mut from) = (0, 0);
        for (i, c) in body.char_indices() {
            match c {
                '[' => depth += 1,
                ']' => depth -= 1,
                ',' if depth == 0 => {
                    entries.push(&body[from..i]);
                    from = i + 1;
                }
                _ => {}
            }
        }
        entries.push(&body[from..]);
        for entry in entries.into_iter().map(str::trim).filter(|e| !e.is_empty()) {
            let (path, index) = entry.rsplit_once(':').unwrap();
            let path = match path.strip_prefix('[') {
                Some(list) => list
                    .strip_suffix(']')
                    .unwrap()
                    .split(',')
                    .filter(|k| !k.is_empty())
                    .map(|k| match k.strip_prefix('\'') {
                        Some(name) => SipKey::Name(unescape_hex(name.strip_suffix('\'').unwrap())),
                        None => SipKey::Index(k.trim().parse().unwrap()),
                    })
                    .collect(),
                None => vec![SipKey::Name(path.as_bytes().to_vec())],
            };
            out.push((side, path, index.trim().parse().unwrap()));
        }
    }
    out
}

#[test]
fn derived_sip_mangler_vectors() {
    let vectors = Vectors::load();
    // The reference refuses these assignments too; the signature holds
    // the ones accepted.
    let refused: BTreeMap<u64, usize> = BTreeMap::from([(223, 1), (226, 1), (232, 0)]);
    for v in vectors.group("derived_sip_mangle") {
        let mut mangler = SipMangler::new();
        let mut failed = Vec::new();
        for (n, (side, path, index)) in assignments(s(v, "input")).into_iter().enumerate() {
            if mangler.set_raw_index(side, &path, index).is_err() {
                failed.push(n);
            }
        }
        let mangled = mangler.mangle();
        if id(v) == 229 {
            // Reference bug: adding [0,1] under the leaf at [0] silently
            // drops that leaf. Here the second path is refused and the
            // signature keeps the leaf.
            assert_eq!(failed, vec![1]);
            assert_eq!(mangled, b"I8!S5!k0_0R1!");
            continue;
        }
        assert_eq!(
            mangled,
            unescape_hex(s(v, "expected")),
            "vector {}: {}",
            id(v),
            s(v, "input")
        );
        assert_eq!(
            failed,
            refused.get(&id(v)).into_iter().copied().collect::<Vec<_>>()
        );
    }
}

/// Reference behaviour the strict parser rejects: `(vector, why)`.
const SIP_STRICT_REJECTS: &[(u64, &str)] = &[
    (245, "several root values"),
    (253, "a key without a value"),
    (261, "a string key in a sequence"),
    (263, "an integer key in a dict"),
    (265, "no results span: a truncated signature"),
    (267, "no inputs span"),
    (268, "no inputs span: a truncated signature"),
    (269, "keys out of order"),
    (271, "a repeated key"),
    (273, "a negative raw index"),
];

fn unescape_newlines(text: &str) -> String {
    text.replace("\\n", "\n")
}

#[test]
fn derived_sip_parser_vectors() {
    let vectors = Vectors::load();
    for v in vectors.group("derived_sip_parse") {
        let input = s(v, "input");
        let signature = quoted(input).as_bytes();
        let side = if input.contains("VisitInputs") {
            Side::Input
        } else {
            Side::Result
        };
        let expected = s(v, "expected");
        let (error, partial) = match expected.strip_prefix("error: ") {
            Some(rest) => {
                let (error, partial) = rest.split_once("; partial ToString=").unwrap();
                (Some(error), partial)
            }
            None => (None, expected.strip_prefix("ToString=").unwrap()),
        };
        let partial = unescape_newlines(partial.trim_matches('\''));
        // Lenient mode is the reference: the same rendering, the same
        // error, and what was visited before it.
        let (text, result) = rendered(signature, side, Mode::Lenient);
        assert_eq!(text, partial, "vector {}: {input}", id(v));
        match error {
            None => assert_eq!(result, Ok(()), "vector {}", id(v)),
            Some(error) => {
                let message = result.unwrap_err().what.to_string();
                assert!(
                    message.starts_with(&error.to_lowercase()),
                    "vector {}: {message} vs {error}",
                    id(v)
                );
            }
        }
        // Strict mode agrees except where the reference lets malformed
        // signatures through.
        let (strict_text, strict) = rendered(signature, side, Mode::Strict);
        if let Some((_, why)) = SIP_STRICT_REJECTS.iter().find(|(n, _)| *n == id(v)) {
            assert!(strict.is_err(), "vector {}: strict accepts {why}", id(v));
        } else {
            match error {
                None => assert_eq!((strict_text, strict), (partial, Ok(())), "vector {}", id(v)),
                // Strict mode may stop earlier, at a key of the wrong kind.
                Some(_) => assert!(strict.is_err(), "vector {}", id(v)),
            }
        }
        // What parses strictly mangles back to itself.
        if let Ok(parsed) = SipSignature::parse(signature, Mode::Strict) {
            assert_eq!(parsed.mangle(), signature, "vector {}", id(v));
        }
    }
}

/// Reference behaviour the strict raw parser rejects, and why.
const RAW_STRICT_REJECTS: &[(u64, &str)] = &[
    (148, "results before inputs"),
    (152, "a component after the results span"),
    (158, "a dim below -1"),
    (166, "components after the results span"),
    (282, "a component after the results span"),
];

/// Reference bugs (silent truncation, endless loops): both modes report an
/// error.
const RAW_BUGS: &[(u64, &str)] = &[
    (275, "the reference never returns"),
    (276, "the reference never returns"),
    (277, "the reference never returns"),
    (278, "the reference never returns"),
    (279, "the reference never returns"),
    (280, "the reference never returns"),
    (281, "a trailing 'R' without a length is a lexical error"),
    (283, "a lexical error inside the inputs span"),
    (284, "a lexical error inside a buffer's fields"),
    (285, "a lexical error inside a buffer's fields"),
];

/// Unrecognized items round-trip here (the reference cannot read them).
const RAW_U_ITEMS: &[u64] = &[143, 153, 154];

#[test]
fn derived_raw_vectors() {
    let vectors = Vectors::load();
    for v in vectors.group("derived_raw_mangle") {
        // The reference's mangling, canonical: it parses and mangles back.
        let expected = s(v, "expected").as_bytes();
        let parsed = RawSignature::parse(expected, Mode::Strict).unwrap();
        assert_eq!(parsed.mangle(), expected, "vector {}", id(v));
    }
    for v in vectors.group("derived_raw_parse") {
        let signature = quoted(s(v, "input")).as_bytes();
        // Notes after the rendering are in parentheses, two spaces after it.
        let expected = s(v, "expected").split("  (").next().unwrap();
        let strict = RawSignature::parse(signature, Mode::Strict);
        let lenient = RawSignature::parse(signature, Mode::Lenient);
        if RAW_BUGS.iter().any(|(n, _)| *n == id(v)) {
            assert!(strict.is_err() && lenient.is_err(), "vector {}", id(v));
        } else if RAW_U_ITEMS.contains(&id(v)) {
            let parsed = strict.unwrap();
            assert!(parsed.to_string().contains("Unrecognized<?>"));
            assert_eq!(parsed.mangle(), signature);
        } else if let Some(error) = expected.strip_prefix("error: ") {
            let error = error.replace("ScalarType", "scalar type");
            for result in [strict, lenient] {
                let message = result.unwrap_err().to_string();
                assert!(
                    message.contains(&error.to_lowercase()),
                    "vector {}: {message} vs {error}",
                    id(v)
                );
            }
        } else {
            assert_eq!(lenient.unwrap().to_string(), expected, "vector {}", id(v));
            if RAW_STRICT_REJECTS.iter().any(|(n, _)| *n == id(v)) {
                assert!(strict.is_err(), "vector {}", id(v));
            } else {
                assert_eq!(strict.unwrap().to_string(), expected, "vector {}", id(v));
            }
        }
    }
}

/// Index paths with their leaf types.
type Paths = Vec<(Vec<SipKey>, TypeRecord)>;

fn nd(element: ElementType, dims: &[u64]) -> TypeRecord {
    TypeRecord::NdArray {
        element,
        dims: Some(dims.iter().map(|&d| Some(d)).collect()),
    }
}

#[test]
fn json_reflection_vectors() {
    let vectors = Vectors::load();
    for v in vectors.group("json") {
        let expected = s(v, "expected");
        // Vector 88 is the 2021 form, which only lenient mode reads.
        let mode = if id(v) == 88 {
            Mode::Lenient
        } else {
            Mode::Strict
        };
        if id(v) == 88 {
            assert!(Reflection::from_json(expected.as_bytes(), Mode::Strict).is_err());
        }
        let parsed = Reflection::from_json(expected.as_bytes(), mode).unwrap();
        assert_eq!(parsed.to_json(), expected, "vector {}", id(v));
    }
    // Derived from MLIR function types.
    for (vector, function_type) in [
        (
            80,
            "(tensor<2x3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<2x3xf32>)",
        ),
        (
            81,
            "(tuple<tensor<3xf32>, tensor<2x3xf32>>) -> tuple<tensor<3xf32>, tensor<2x3xf32>>",
        ),
        (89, "(tensor<?xi32>) -> tensor<i32>"),
        (90, "(tensor<?x3xi32>) -> tensor<3xi32>"),
        (91, "(tensor<?xi32>) -> tensor<?xi32>"),
        (92, "(tensor<i32>) -> ()"),
        (93, "() -> tensor<i32>"),
        (94, "() -> ()"),
        (95, "(tensor<1x128x128x1xf32>) -> tensor<1x128x128x1xf32>"),
    ] {
        let (args, results) = mlir_function_type(function_type);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let results: Vec<&str> = results.iter().map(String::as_str).collect();
        let reflection = Reflection::of_mlir_types(&args, &results);
        assert_eq!(
            reflection.to_json(),
            s(vectors.by_id(vector), "expected"),
            "vector {vector}"
        );
    }
    // Derived from index paths.
    let f16 = nd(ElementType::F32, &[16]);
    let scalar = nd(ElementType::F32, &[]);
    let idx = |i: i32| SipKey::Index(i);
    let key = |k: &str| SipKey::Name(k.as_bytes().to_vec());
    let cases: Vec<(u64, Paths, Paths)> = vec![
        (
            82,
            vec![(vec![idx(0)], f16.clone()), (vec![idx(1)], f16.clone())],
            vec![(vec![idx(0)], f16.clone()), (vec![idx(1)], f16.clone())],
        ),
        (
            83,
            vec![(vec![idx(0)], f16.clone())],
            vec![(vec![], f16.clone())],
        ),
        (
            85,
            vec![
                (vec![idx(0), key("dict"), key("a")], f16.clone()),
                (vec![idx(0), key("dict"), key("b")], f16.clone()),
                (vec![idx(0), key("list"), idx(0)], f16.clone()),
                (vec![idx(0), key("list"), idx(1)], f16.clone()),
                (vec![idx(1)], scalar.clone()),
            ],
            vec![
                (vec![key("dict"), key("a")], f16.clone()),
                (vec![key("dict"), key("b")], f16.clone()),
                (vec![key("list"), idx(0)], f16.clone()),
                (vec![key("list"), idx(1)], f16.clone()),
            ],
        ),
        (
            86,
            vec![
                (vec![key("a")], f16.clone()),
                (vec![key("b")], f16.clone()),
                (vec![key("scalar")], scalar.clone()),
            ],
            vec![
                (vec![key("dict"), key("a")], f16.clone()),
                (vec![key("dict"), key("b")], f16.clone()),
                (vec![key("dict"), key("scalar")], scalar.clone()),
            ],
        ),
    ];
    for (vector, args, results) in cases {
        let reflection = Reflection::from_index_paths(&args, &results).unwrap();
        assert_eq!(
            reflection.to_json(),
            s(vectors.by_id(vector), "expected"),
            "vector {vector}"
        );
    }
    // Vector 84 records the same as 82 for a returned list.
    assert_eq!(
        s(vectors.by_id(84), "expected"),
        s(vectors.by_id(82), "expected")
    );
    // Gaps: slot i holds the child of key i, or null (the reference
    // miscounts them).
    let gapped = Reflection::from_index_paths(
        &[
            (vec![idx(0), idx(0)], scalar.clone()),
            (vec![idx(0), idx(2)], scalar.clone()),
        ],
        &[],
    )
    .unwrap();
    assert_eq!(
        gapped.to_json(),
        r#"{"a":[["slist",["ndarray","f32",0],null,["ndarray","f32",0]]],"r":[],"v":1}"#
    );
}

fn signature_of(vector: &Json) -> CallSignature {
    let input = s(vector, "input");
    let structure = match input.strip_prefix("iree.abi=") {
        Some(rest) if rest.starts_with('{') => {
            let json = &rest[..rest.find("; ").unwrap()];
            Structure::Reflection(Reflection::from_json(json.as_bytes(), Mode::Strict).unwrap())
        }
        _ => Structure::Flat,
    };
    let raw = match &structure {
        Structure::Reflection(r) => r.raw_signature(),
        _ => RawSignature {
            inputs: vec![RawType::Scalar(ScalarType::Sint32); 2],
            results: vec![RawType::Scalar(ScalarType::Sint32); 2],
        },
    };
    CallSignature { raw, structure }
}

#[test]
fn python_invoker_vectors() {
    let vectors = Vectors::load();
    let i32s = |v: &[i32]| v.iter().map(|&x| Value::I32(x)).collect::<Vec<_>>();
    let kw = |pairs: &[(&str, i32)]| {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), Value::I32(*v)))
            .collect::<BTreeMap<_, _>>()
    };
    let dict = |pairs: &[(&str, i32)]| Value::Struct(kw(pairs));
    let flat = |n: u64, args: &[Value], keywords: BTreeMap<String, Value>| {
        signature_of(vectors.by_id(n)).flatten_with_keywords(args, &keywords)
    };
    assert_eq!(
        flat(96, &i32s(&[-1]), kw(&[("a", 1), ("b", 2)])),
        Ok(i32s(&[-1, 1, 2]))
    );
    assert_eq!(
        flat(97, &[Value::List(i32s(&[2, 3]))], kw(&[])),
        Ok(i32s(&[2, 3]))
    );
    let long = flat(98, &[Value::List(i32s(&[2, 3, 4]))], kw(&[])).unwrap_err();
    assert!(
        long.to_string()
            .contains("a sequence with 2 values, given 3 values"),
        "{long}"
    );
    assert_eq!(
        flat(99, &[Value::Tuple(i32s(&[2, 3]))], kw(&[])),
        Ok(i32s(&[2, 3]))
    );
    assert_eq!(
        flat(100, &[dict(&[("b", 3), ("a", 2)])], kw(&[])),
        Ok(i32s(&[2, 3]))
    );
    let extra = flat(101, &[dict(&[("a", 2), ("b", 3), ("c", 4)])], kw(&[])).unwrap_err();
    assert!(
        extra.to_string().contains("a dict with 2 values"),
        "{extra}"
    );
    let missing = flat(102, &[dict(&[("a", 2), ("c", 3)])], kw(&[])).unwrap_err();
    assert!(missing.to_string().contains("'c'"), "{missing}");
    let missing = flat(102, &[dict(&[("a", 2)])], kw(&[])).unwrap_err();
    assert!(missing.to_string().contains("key 'b'"), "{missing}");
    let rebuilt = signature_of(vectors.by_id(103)).rebuild(i32s(&[3, 4]));
    assert_eq!(rebuilt, Ok(vec![Value::List(i32s(&[3, 4]))]));
    let rebuilt = signature_of(vectors.by_id(104)).rebuild(vec![
        Value::I32(3),
        Value::I32(100),
        Value::I32(200),
        Value::I64(6),
    ]);
    assert_eq!(
        rebuilt,
        Ok(vec![
            Value::I32(3),
            Value::List(vec![dict(&[("bar", 100), ("foo", 200)]), Value::I64(6)])
        ])
    );
    for (vector, args, keywords) in [
        (105, vec![], kw(&[("a", 1), ("b", 1)])),
        (106, i32s(&[-1]), kw(&[("a", 1)])),
    ] {
        let error = flat(vector, &args, keywords).unwrap_err();
        assert!(
            error.to_string().starts_with("mismatched call arity"),
            "{vector}: {error}"
        );
    }
    let unknown = flat(107, &i32s(&[-1]), kw(&[("a", 1), ("b", 2), ("c", 3)])).unwrap_err();
    assert_eq!(unknown.to_string(), "keyword argument 'c' is unknown");
    let buffer =
        |element, data: Vec<u8>| Value::Buffer(Buffer::new(element, vec![2], data).unwrap());
    let ints = buffer(
        ElementType::I32,
        [1i32, 0].iter().flat_map(|x| x.to_ne_bytes()).collect(),
    );
    assert_eq!(
        flat(108, std::slice::from_ref(&ints), kw(&[])),
        Ok(vec![ints])
    );
    let bools = buffer(ElementType::I1, vec![1, 0]);
    let rebuilt = signature_of(vectors.by_id(109)).rebuild(vec![bools.clone()]);
    assert_eq!(rebuilt, Ok(vec![bools]));
    let list = Value::List(vec![Value::I64(1), Value::I64(2)]);
    let rebuilt = signature_of(vectors.by_id(110)).rebuild(vec![list.clone()]);
    assert_eq!(rebuilt, Ok(vec![list]));
    let plain = signature_of(vectors.by_id(111));
    assert_eq!(plain.flatten(&i32s(&[1, 2])), Ok(i32s(&[1, 2])));
    assert_eq!(plain.rebuild(i32s(&[3, 4])), Ok(i32s(&[3, 4])));
}

/// The groups each test above covers, and the vectors read by id.
const COVERED_GROUPS: &[&str] = &[
    "lex",
    "raw_item",
    "raw_fn",
    "sip_fn",
    "mlir_raw",
    "mlir_partial",
    "py_function_abi",
    "py_function_abi_error",
    "tf_sip",
    "json",
    "py_invoker",
    "derived_raw_mangle",
    "derived_raw_parse",
    "derived_lex",
    "derived_span",
    "derived_sip_mangle",
    "derived_sip_parse",
];

#[test]
fn every_vector_is_tested_or_explained() {
    let vectors = Vectors::load();
    assert_eq!(vectors.0.len(), 302);
    let unexplained: BTreeSet<u64> = vectors
        .0
        .iter()
        .filter(|v| !COVERED_GROUPS.contains(&v["group"].as_str().unwrap()))
        .map(id)
        .filter(|n| !NOT_BEHAVIOUR_HERE.iter().any(|(m, _)| m == n))
        .collect();
    assert!(
        unexplained.is_empty(),
        "vectors neither tested nor explained: {unexplained:?}"
    );
}
