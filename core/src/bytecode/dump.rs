//! `bef dump` for MLIR bytecode: a listing of the file's framing (header,
//! sections with byte offsets, strings, dialects, op names, the
//! attribute/type table decoded and raw, resources, properties), built on
//! `Structure::parse` so that it shows files whose IR does not decode.

use std::fmt::Write;

use super::error::Result;
use super::reader::{EntrySpan, Structure};
use super::{SECTION_NAMES, section};
use crate::ir::{ResourceOwner, ResourceValue};

/// Raw bytes shown per entry unless `hex` asks for all of them.
const SHORT_HEX: usize = 16;
/// Characters of an attribute or type shown per entry: a small file can
/// describe a large value (entries referring to each other), and the
/// listing is for finding an entry, not for reading the value whole.
const SHORT_VALUE: usize = 200;

/// A listing and the entries that did not decode.
#[derive(Debug, Clone)]
pub struct Dump {
    /// The listing, one item per line.
    pub text: String,
    /// What did not decode, one message per entry (also shown in place).
    pub problems: Vec<String>,
}

/// `value`'s text cut after [`SHORT_VALUE`] characters, with a note of
/// the cut.
fn shortened(value: &impl std::fmt::Display) -> String {
    let (mut text, cut) = crate::text::display_prefix(value, SHORT_VALUE);
    if cut {
        text.push_str("… (cut)");
    }
    text
}

fn hex_bytes(data: &[u8], all: bool) -> String {
    let shown = if all {
        data
    } else {
        &data[..data.len().min(SHORT_HEX)]
    };
    let mut s: Vec<String> = shown.iter().map(|b| format!("{b:02x}")).collect();
    if shown.len() < data.len() {
        s.push(format!("... ({} bytes)", data.len()));
    }
    s.join(" ")
}

fn section_name(id: u8) -> &'static str {
    SECTION_NAMES.get(id as usize).copied().unwrap_or("?")
}

/// The listing of `bytes`; `hex` shows every raw byte of each entry
/// instead of the first 16. Fails (with the offset) only when the file
/// cannot be framed; entries that do not decode are listed with their
/// error, and returned as problems.
pub fn dump(bytes: &[u8], hex: bool) -> Result<Dump> {
    let s = Structure::parse(bytes)?;
    // A second table to decode from: decoding mutates its cache while the
    // first is borrowed for the listing.
    let mut t = Structure::parse(bytes)?.table;
    let mut out = String::new();
    let mut problems = Vec::new();
    // Writing to a String cannot fail.
    let w = &mut out;
    let _ = writeln!(w, "MLIR bytecode, {} bytes", bytes.len());
    let _ = writeln!(w, "Version: {}", s.version);
    let _ = writeln!(w, "Producer: {:?}", s.producer);

    let _ = writeln!(w, "Sections ({}):", s.sections.len());
    for info in &s.sections {
        let _ = writeln!(
            w,
            "  {:#08x}  {:<16} id {}  data {:#08x}..{:#08x} ({} bytes){}",
            info.header_offset,
            section_name(info.id),
            info.id,
            info.data.offset(),
            info.data.offset() + info.data.remaining(),
            info.data.remaining(),
            if info.aligned { "  aligned" } else { "" }
        );
    }

    let _ = writeln!(w, "Strings ({}):", s.table.strings.len());
    for (i, string) in s.table.strings.iter().enumerate() {
        let _ = writeln!(w, "  [{i}] {:?}", String::from_utf8_lossy(string));
    }

    let _ = writeln!(w, "Dialects ({}):", s.table.dialects.len());
    for (i, name) in s.table.dialects.iter().enumerate() {
        let version = s
            .dialect_versions
            .iter()
            .find(|(d, _)| *d == i)
            .map(|(_, v)| format!("  version bytes: {}", hex_bytes(v, hex)))
            .unwrap_or_default();
        let _ = writeln!(w, "  [{i}] {name}{version}");
    }

    let _ = writeln!(w, "Op names ({}):", s.op_names.len());
    for (i, op) in s.op_names.iter().enumerate() {
        let flag = if s.version < 5 {
            ""
        } else if op.registered {
            "  registered"
        } else {
            "  unregistered"
        };
        let _ = writeln!(w, "  [{i}] {}{flag}", op.full_name(&s.table.dialects));
    }

    let entry_line = |w: &mut String, i: usize, e: &EntrySpan, decoded: String| {
        let _ = writeln!(
            w,
            "  [{i}] {:#08x} {} {}: {decoded}",
            e.data.offset(),
            s.table.dialects.get(e.dialect).copied().unwrap_or("?"),
            if e.custom { "custom" } else { "assembly" },
        );
        let _ = writeln!(w, "       bytes: {}", hex_bytes(e.data.rest(), hex));
    };
    let _ = writeln!(w, "Attributes ({}):", s.table.attrs.len());
    for (i, e) in s.table.attrs.iter().enumerate() {
        let decoded = match t.attribute(i as u64, e.data.offset()) {
            Ok(a) => shortened(&crate::text::print_attribute(&a)),
            Err(err) => {
                problems.push(format!("attribute [{i}]: {err}"));
                format!("<error: {err}>")
            }
        };
        entry_line(w, i, e, decoded);
    }
    let _ = writeln!(w, "Types ({}):", s.table.types.len());
    for (i, e) in s.table.types.iter().enumerate() {
        let decoded = match t.type_(i as u64, e.data.offset()) {
            Ok(ty) => shortened(&ty),
            Err(err) => {
                problems.push(format!("type [{i}]: {err}"));
                format!("<error: {err}>")
            }
        };
        entry_line(w, i, e, decoded);
    }

    let resources: usize = s.resources.iter().map(|g| g.entries.len()).sum();
    let _ = writeln!(w, "Resources ({resources}):");
    for group in &s.resources {
        let owner = match &group.owner {
            ResourceOwner::Dialect(d) => format!("dialect {d}"),
            ResourceOwner::External(e) => format!("external {e}"),
        };
        let _ = writeln!(w, "  {owner}:");
        for r in &group.entries {
            let value = match &r.value {
                ResourceValue::Blob { alignment, data } => {
                    format!("blob, alignment {alignment}, {} bytes", data.len())
                }
                ResourceValue::Bool(b) => format!("bool {b}"),
                ResourceValue::String(v) => format!("string {v:?}"),
                ResourceValue::Declared => "declared, no data".to_string(),
            };
            let _ = writeln!(
                w,
                "    {:#08x} {:?} kind {}: {value}",
                r.offset, r.key, r.kind
            );
            let _ = writeln!(w, "       bytes: {}", hex_bytes(r.data, hex));
        }
    }

    if s.version >= 5 {
        let _ = writeln!(w, "Properties ({}):", s.properties.len());
        for (i, (offset, data)) in s.properties.iter().enumerate() {
            let _ = writeln!(w, "  [{i}] {offset:#08x} {}", hex_bytes(data, hex));
        }
    }
    if let Some(ir) = s.sections.iter().find(|x| x.id == section::IR) {
        let _ = writeln!(
            w,
            "IR: {:#08x}..{:#08x} ({} bytes)",
            ir.data.offset(),
            ir.data.offset() + ir.data.remaining(),
            ir.data.remaining()
        );
    }
    Ok(Dump {
        text: out,
        problems,
    })
}
