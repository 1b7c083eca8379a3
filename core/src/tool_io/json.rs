//! JSON in and out of the tools, with one rule each way:
//! - [`parse_strict`] reads JSON refusing an object that repeats a key, at
//!   the key's `line`/`column`. serde_json keeps the last of two equal
//!   keys; another reader of the same text may keep the first, so two
//!   readers would see two different argument lists or signatures.
//! - [`TerminalSafe`] wraps a serde_json formatter so that strings escape,
//!   as a `\u` escape of four hex digits, every character
//!   [`escape::is_unsafe`] names (DEL, C1 controls, bidirectional
//!   overrides and isolates, zero-width characters), which serde_json
//!   writes raw. The text stays JSON that reads back to the same
//!   strings, and a terminal shows it as written.

use std::io;

use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::ser::{CompactFormatter, Formatter, PrettyFormatter};
use serde_json::{Map, Number, Value};

use super::escape;

/// The JSON value in `text`, refusing duplicate object keys (the error
/// names the key and its line and column). serde_json's nesting limit (128
/// levels) holds.
pub fn parse_strict(text: &[u8]) -> serde_json::Result<Value> {
    let mut deserializer = serde_json::Deserializer::from_slice(text);
    let value = StrictValue::deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok(value.0)
}

struct StrictValue(Value);

impl<'de> Deserialize<'de> for StrictValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(StrictVisitor).map(StrictValue)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        // JSON text has no NaN or infinity; serde_json refuses overflow.
        Number::from_f64(v)
            .map(Value::Number)
            .ok_or_else(|| E::custom("number out of range"))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(StrictValue(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                // serde_json adds the line and column of the key.
                return Err(de::Error::custom(format_args!(
                    "duplicate key \"{}\"",
                    escape::terminal(&key)
                )));
            }
            let StrictValue(value) = map.next_value()?;
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

/// A serde_json formatter that also escapes the characters a terminal
/// would act on or hide (see the module's documentation).
pub struct TerminalSafe<F>(pub F);

impl TerminalSafe<CompactFormatter> {
    /// Compact JSON, one line.
    pub fn compact() -> Self {
        TerminalSafe(CompactFormatter)
    }
}

impl TerminalSafe<PrettyFormatter<'static>> {
    /// Pretty JSON, indented by two spaces.
    pub fn pretty() -> Self {
        TerminalSafe(PrettyFormatter::new())
    }
}

/// `value` as JSON written to `out` through [`TerminalSafe`] `formatter`.
pub fn write<W: io::Write, F: Formatter>(
    out: W,
    formatter: TerminalSafe<F>,
    value: &impl serde::Serialize,
) -> serde_json::Result<()> {
    let mut serializer = serde_json::Serializer::with_formatter(out, formatter);
    value.serialize(&mut serializer)
}

/// `value` as pretty JSON, safe for a terminal, with a final newline.
pub fn to_pretty_string(value: &impl serde::Serialize) -> serde_json::Result<String> {
    let mut out = Vec::new();
    write(&mut out, TerminalSafe::pretty(), value)?;
    out.push(b'\n');
    // serde_json writes UTF-8, and the escapes are ASCII.
    String::from_utf8(out).map_err(|e| serde::ser::Error::custom(e.to_string()))
}

/// `value` as compact JSON, safe for a terminal.
pub fn to_compact_string(value: &impl serde::Serialize) -> serde_json::Result<String> {
    let mut out = Vec::new();
    write(&mut out, TerminalSafe::compact(), value)?;
    String::from_utf8(out).map_err(|e| serde::ser::Error::custom(e.to_string()))
}

macro_rules! forward {
    ($($name:ident($($arg:ident: $ty:ty),*);)*) => {
        $(
            fn $name<W: ?Sized + io::Write>(&mut self, writer: &mut W $(, $arg: $ty)*) -> io::Result<()> {
                self.0.$name(writer $(, $arg)*)
            }
        )*
    };
}

impl<F: Formatter> Formatter for TerminalSafe<F> {
    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        let mut start = 0;
        for (at, c) in fragment.char_indices() {
            if !escape::is_unsafe(c) {
                continue;
            }
            if start < at {
                self.0.write_string_fragment(writer, &fragment[start..at])?;
            }
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                write!(writer, "\\u{unit:04x}")?;
            }
            start = at + c.len_utf8();
        }
        if start < fragment.len() {
            self.0.write_string_fragment(writer, &fragment[start..])?;
        }
        Ok(())
    }

    forward! {
        begin_array();
        end_array();
        begin_array_value(first: bool);
        end_array_value();
        begin_object();
        end_object();
        begin_object_key(first: bool);
        end_object_key();
        begin_object_value();
        end_object_value();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicate_keys_are_refused_where_they_are() {
        let error = parse_strict(b"{\"a\": 1,\n \"b\": {\"c\": 2, \"c\": 3}}").unwrap_err();
        let text = error.to_string();
        assert!(text.contains("duplicate key \"c\""), "{text}");
        assert_eq!(error.line(), 2);
        assert!(parse_strict(b"[{\"a\": 1}, {\"a\": 2}]").is_ok());
        assert!(parse_strict(b"{\"a\": 1} x").is_err());
    }

    #[test]
    fn values_read_as_serde_json_reads_them() {
        let text = br#"{"a": [1, -2, 3.5, 18446744073709551615, true, null, "x\u202e"]}"#;
        let strict = parse_strict(text).expect("reads");
        let plain: Value = serde_json::from_slice(text).expect("reads");
        assert_eq!(strict, plain);
    }

    #[test]
    fn deep_nesting_is_an_error() {
        let text = "[".repeat(100_000);
        assert!(parse_strict(text.as_bytes()).is_err());
    }

    #[test]
    fn unsafe_characters_are_escaped_and_read_back() {
        let name = "a\u{1b}b\u{7f}c\u{9b}d\u{202e}e\u{2066}f é\n\u{feff}";
        let text = to_compact_string(&name).expect("serialises");
        assert_eq!(
            text,
            "\"a\\u001bb\\u007fc\\u009bd\\u202ee\\u2066f é\\n\\ufeff\""
        );
        assert!(text.chars().all(|c| !escape::is_unsafe(c)));
        let back: String = serde_json::from_str(&text).expect("reads back");
        assert_eq!(back, name);
        let pretty = to_pretty_string(&vec![name, "plain"]).expect("serialises");
        assert!(pretty.starts_with("[\n  \""), "{pretty}");
        assert!(pretty.chars().all(|c| c == '\n' || !escape::is_unsafe(c)));
    }
}
