//! How things are called on screen: functions, kernels, types, locations,
//! attribute values, and the path from the file down to a byte
//! (`functions › @fib › kernel 7 › attribute "value"`).

use bef::format::Location;
use bef::inspect::{FieldKind, Item, Kernel, Listing};

/// The name of function `index` of the function index: `@name`, the
/// region an anonymous function holds (`@tally tfrt.repeat.i32#9 body`, named
/// as `bef-trace` names it), or `<anonymous>`.
pub fn function_ref(listing: &Listing<'_>, index: u32) -> String {
    if listing.index_entry(index as usize).is_none() {
        return format!("<function {index}?>");
    }
    match listing.function_display_name(index as usize) {
        Some(name) => format!("@{name}"),
        None => "<anonymous>".to_owned(),
    }
}

/// A kernel's name, `<arguments>` for the pseudo kernel.
pub fn kernel_name(kernel: &Kernel<'_>) -> String {
    match (kernel.pseudo, kernel.name) {
        (true, _) => "<arguments>".to_owned(),
        (false, Some(name)) => name.to_owned(),
        (false, None) => format!("<kernel {}>", kernel.code),
    }
}

/// The name of type `index`.
pub fn type_name(listing: &Listing<'_>, index: u32) -> String {
    listing
        .type_name(index)
        .map_or_else(|| format!("<type {index}>"), str::to_owned)
}

/// Type names joined by `, `.
pub fn type_list(listing: &Listing<'_>, types: &[u32]) -> String {
    let names: Vec<String> = types.iter().map(|&t| type_name(listing, t)).collect();
    names.join(", ")
}

/// A location field's text: the decoded location, `<virtual ...>`, or the
/// problem.
pub fn location_text(listing: &Listing<'_>, offset: u64) -> String {
    match listing.location(offset) {
        Ok(Some(location)) => location.to_string(),
        Ok(None) => format!("<virtual {offset:#x}>"),
        Err(e) => format!("<error: {e}>"),
    }
}

/// Attributes larger than this are shown by their first bytes.
pub const LARGE_ATTRIBUTE: usize = 64 << 10;

/// A location as MLIR prints it, with file names cut to their last
/// component so that table cells stay short.
pub fn short_location(location: &bef::format::Location) -> String {
    match location {
        Location::Unknown => "unknown".to_owned(),
        Location::FileLineCol { file, line, column } => {
            let base = file.rsplit('/').next().unwrap_or(file);
            format!("{base}:{line}:{column}")
        }
        Location::Name { name, child } => match **child {
            Location::Unknown => format!("{name:?}"),
            ref child => format!("{name:?}({})", short_location(child)),
        },
        Location::CallSite { callee, caller } => format!(
            "callsite({} at {})",
            short_location(callee),
            short_location(caller)
        ),
        Location::Fused(parts) => {
            let parts: Vec<String> = parts.iter().map(short_location).collect();
            format!("fused[{}]", parts.join(", "))
        }
    }
}

/// A location field as a short table cell (see [`short_location`]).
pub fn short_location_text(listing: &Listing<'_>, offset: u64) -> String {
    match listing.location(offset) {
        Ok(Some(location)) => short_location(&location),
        Ok(None) => format!("<virtual {offset:#x}>"),
        Err(e) => format!("<error: {e}>"),
    }
}

/// The value of attribute `index` as text, or why it is unknown.
pub fn attribute_text(listing: &Listing<'_>, index: Option<usize>) -> String {
    let attributes = listing.attributes();
    let Some(row) = index.and_then(|i| attributes.get(i)) else {
        return if attributes.has_types() {
            "<not listed in AttributeTypes>".to_owned()
        } else {
            "<type unknown: no AttributeTypes section>".to_owned()
        };
    };
    // Large values are previewed from their bytes: decoding and printing
    // megabytes for one table cell would stall the screen.
    if row.range.len() > LARGE_ATTRIBUTE {
        let bytes = listing.bytes().get(row.range.clone()).unwrap_or(&[]);
        let head = String::from_utf8_lossy(&bytes[..bytes.len().min(48)]);
        return format!("<{} bytes> {head:?}…", row.range.len());
    }
    match listing.attribute_value(&row) {
        Ok(value) => clip(&value.to_string(), 200),
        Err(e) => format!("<error: {e}>"),
    }
}

/// `text` cut to `max` characters, with `…` when cut.
pub fn clip(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_owned(),
        Some((at, _)) => format!("{}…", &text[..at]),
    }
}

/// Text quoted for a path step, clipped.
fn quoted(text: &str) -> String {
    format!("{:?}", clip(text, 40))
}

/// The path from the file down to byte `offset`, as one line.
pub fn path_at(listing: &Listing<'_>, offset: usize) -> String {
    let path = listing.item_at(offset);
    let mut steps: Vec<String> = Vec::new();
    let mut function: Option<usize> = None;
    let mut kernel: Option<usize> = None;
    for item in &path.items {
        steps.push(match *item {
            Item::Header => "header".to_owned(),
            Item::Section(i) => listing
                .sections()
                .get(i)
                .map_or_else(|| format!("section {i}"), |s| s.name().to_lowercase()),
            Item::Unframed => "unframed bytes".to_owned(),
            Item::String(i) => listing.strings().get(i).map_or_else(
                || format!("string {i}"),
                |s| format!("string {}", quoted(&s.text())),
            ),
            Item::LocationString(i) => listing.location_strings().get(i).map_or_else(
                || format!("string {i}"),
                |s| format!("string {}", quoted(&s.text())),
            ),
            Item::Attribute(i) => format!("attribute {i}"),
            Item::AttributeType(i) => format!("attribute {i} type"),
            Item::KernelName(i) => listing.kernel_names().get(i).map_or_else(
                || format!("kernel name {i}"),
                |r| format!("kernel name {i} {}", quoted(r.name.unwrap_or("?"))),
            ),
            Item::Type(i) => listing.types().get(i).map_or_else(
                || format!("type {i}"),
                |r| format!("type {i} {}", quoted(r.name.unwrap_or("?"))),
            ),
            Item::IndexEntry(i) | Item::Function(i) => {
                function = Some(i);
                function_ref(listing, i as u32)
            }
            Item::AttributeNames(i) | Item::RegisterTypes(i) => {
                function = Some(i);
                function_ref(listing, i as u32)
            }
            Item::Register(i) => format!("register %{i}"),
            Item::RegisterType(i) => format!("register %{i} type"),
            Item::KernelEntry(i) => format!("kernel table row {i}"),
            Item::Kernel(i) => {
                kernel = Some(i);
                let name = function
                    .and_then(|f| listing.function(f))
                    .and_then(|f| f.kernel(i))
                    .map(kernel_name)
                    .unwrap_or_default();
                format!("kernel {i} {name}").trim_end().to_owned()
            }
            Item::AttributeName { kernel, attribute } => {
                format!("kernel {kernel} › attribute {attribute} name")
            }
            Item::Result(i) => format!("result {i}"),
            Item::Location(i) => format!("location {i}"),
        });
    }
    if let Some(field) = &path.field {
        let attribute_name = (field.kind == FieldKind::AttributeRef)
            .then(|| {
                let k = listing.function(function?)?.kernel(kernel?)?;
                k.attributes.get(field.index?)?.name
            })
            .flatten();
        steps.push(match (attribute_name, field.index) {
            (Some(name), _) => format!("attribute {name:?}"),
            (None, Some(i)) => format!("{} {i}", field.kind.label()),
            (None, None) => field.kind.label().to_owned(),
        });
    }
    if steps.is_empty() {
        "end of file".to_owned()
    } else {
        steps.join(" › ")
    }
}

/// The line (1-based) of file `file` a location points at: its first
/// position in that file, looking through names, the callee then the
/// caller of a call site, and fused parts.
pub fn line_of(location: &Location, file: &str) -> Option<u64> {
    match location {
        Location::Unknown => None,
        Location::FileLineCol { file: f, line, .. } => (**f == *file).then_some(*line),
        Location::Name { child, .. } => line_of(child, file),
        Location::CallSite { callee, caller } => {
            line_of(callee, file).or_else(|| line_of(caller, file))
        }
        Location::Fused(parts) => parts.iter().find_map(|p| line_of(p, file)),
    }
}
