//! `bef dump`: a readelf-style listing of a BEF file, as text or JSON,
//! rendered from [`bef::inspect::Listing`] (both outputs show the same
//! model, so they agree). Damaged parts are listed up to the damage; the
//! problems are returned for the caller to report.

use std::borrow::Cow;
use std::io::{self, Write};

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

use bef::format::{DecodeError, SectionId};
use bef::inspect::{Function, Kernel, Listing, Section, section_name, sort_errors};

/// What to list.
#[derive(Debug, Clone, Default)]
pub struct DumpOptions {
    /// Only this section: its row of the section table and its listing.
    pub section: Option<SectionId>,
    /// Raw bytes beside decoded fields.
    pub hex: bool,
}

impl DumpOptions {
    fn wants(&self, id: SectionId) -> bool {
        self.section.is_none_or(|s| s == id)
    }

    /// Whether the section table shows section `section`.
    fn shows(&self, section: &Section) -> bool {
        self.section.is_none_or(|s| section.kind == Some(s))
    }

    /// Whether a section is listed when the whole file is: the optional
    /// sections appear through the attributes, kernels and registers they
    /// describe, and on their own only when asked for.
    fn lists(&self, id: SectionId) -> bool {
        match id {
            SectionId::AttributeTypes | SectionId::AttributeNames | SectionId::RegisterTypes => {
                self.section == Some(id)
            }
            _ => self.wants(id),
        }
    }

    /// Whether the signatures are listed: when asked for, and in a whole
    /// listing of a file with signature metadata.
    fn lists_signatures(&self, listing: &Listing<'_>) -> bool {
        match self.section {
            Some(id) => id == SectionId::Signatures,
            None => listing.section(SectionId::Signatures).is_some(),
        }
    }
}

/// Bytes as spaced hex, shortened past 64 bytes.
pub fn hex(bytes: &[u8]) -> String {
    const LIMIT: usize = 64;
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(3 * bytes.len().min(LIMIT) + 24);
    for (i, &b) in bytes.iter().take(LIMIT).enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 0xf)]));
    }
    if bytes.len() > LIMIT {
        out.push_str(&format!(" ... ({} bytes)", bytes.len()));
    }
    out
}

/// The problems in what `options` lists: the framing and function-index
/// problems, and those of the sections listed. Sorted by offset.
pub fn problems(listing: &Listing<'_>, options: &DumpOptions) -> Vec<DecodeError> {
    let mut errors = listing.problems().to_vec();
    match options.section {
        None => errors.extend_from_slice(listing.errors()),
        Some(id) => errors.extend(listing.section_errors(id)),
    }
    sort_errors(&mut errors);
    errors
}

/// `@name`, or `<anonymous>` for the functions of regions.
fn function_name(name: &str) -> String {
    if name.is_empty() {
        "<anonymous>".to_owned()
    } else {
        format!("@{name}")
    }
}

fn type_name(listing: &Listing<'_>, index: u32) -> String {
    listing
        .type_name(index)
        .map_or_else(|| format!("<type {index}>"), str::to_owned)
}

fn type_names(listing: &Listing<'_>, types: &[u32]) -> Vec<String> {
    types.iter().map(|&t| type_name(listing, t)).collect()
}

/// The text of a location field: the location, `<virtual 0x...>`, or the
/// problem.
fn location_text(listing: &Listing<'_>, offset: u64) -> String {
    match listing.location(offset) {
        Ok(Some(location)) => location.to_string(),
        Ok(None) => format!("<virtual {offset:#x}>"),
        Err(e) => format!("<error: {e}>"),
    }
}

fn kernel_name(kernel: &Kernel<'_>) -> String {
    match (kernel.pseudo, kernel.name) {
        (true, _) => "<arguments>".to_owned(),
        (false, Some(name)) => name.to_owned(),
        (false, None) => format!("<kernel {}>", kernel.code),
    }
}

/// A kernel location's text; empty for the pseudo kernel.
fn kernel_location(listing: &Listing<'_>, kernel: &Kernel<'_>) -> String {
    kernel
        .location_offset()
        .map_or_else(String::new, |offset| location_text(listing, offset))
}

/// The name of a name-table entry, or why it has none.
fn entry_name(name: Option<&str>, string_offset: u64) -> String {
    name.map_or_else(
        || format!("<no string at offset {string_offset:#x}>"),
        str::to_owned,
    )
}

/// How much of an attribute's value a kernel line shows: the whole value is
/// in the Attributes section, once however many kernels share it.
const KERNEL_ATTRIBUTE_SHOWN: usize = 160;

/// The value of kernel attribute `a` as text (long values cut), or why it
/// is unknown.
fn attribute_text(listing: &Listing<'_>, attribute: Option<usize>) -> Result<String, String> {
    let attributes = listing.attributes();
    let Some(row) = attribute.and_then(|i| attributes.get(i)) else {
        return Err(if attributes.has_types() {
            "<not listed in AttributeTypes>".to_owned()
        } else {
            "<type unknown: no AttributeTypes section>".to_owned()
        });
    };
    listing
        .attribute_value(&row)
        .map(|v| {
            let (mut text, cut) = bef::text::display_prefix(&v, KERNEL_ATTRIBUTE_SHOWN);
            if cut {
                text.push_str("… (cut; in full under Attributes)");
            }
            text
        })
        .map_err(|e| format!("<error: {e}>"))
}

fn function_ref<'a>(listing: &Listing<'a>, index: u32) -> &'a str {
    listing
        .file()
        .functions()
        .get(index as usize)
        .map_or("<out of range>", |f| f.name)
}

/// Renders the listing as text.
pub fn write_text(
    out: &mut impl Write,
    listing: &Listing<'_>,
    options: &DumpOptions,
) -> io::Result<()> {
    Text {
        out,
        listing,
        options,
        started: false,
    }
    .write()
}

struct Text<'o, 'l, 'a, W> {
    out: &'o mut W,
    listing: &'l Listing<'a>,
    options: &'l DumpOptions,
    /// Whether anything was written (blocks are separated by a blank line).
    started: bool,
}

impl<W: Write> Text<'_, '_, '_, W> {
    /// Starts a block with its heading.
    fn heading(&mut self, heading: std::fmt::Arguments<'_>) -> io::Result<()> {
        if self.started {
            writeln!(self.out)?;
        }
        self.started = true;
        writeln!(self.out, "{heading}")
    }

    fn hex_line(&mut self, bytes: &[u8]) -> io::Result<()> {
        if self.options.hex {
            writeln!(self.out, "         bytes: {}", hex(bytes))?;
        }
        Ok(())
    }

    fn error_line(&mut self, indent: &str, error: Option<&DecodeError>) -> io::Result<()> {
        match error {
            Some(e) => writeln!(self.out, "{indent}error: {e}"),
            None => Ok(()),
        }
    }

    fn write(mut self) -> io::Result<()> {
        let options = self.options;
        self.header()?;
        for id in SectionId::ALL {
            if !options.lists(id) {
                continue;
            }
            match id {
                SectionId::Strings | SectionId::LocationStrings => self.strings(id)?,
                SectionId::Attributes => self.attributes()?,
                SectionId::Kernels | SectionId::Types => self.names(id)?,
                SectionId::FunctionIndex => self.function_index()?,
                SectionId::Functions => self.functions()?,
                SectionId::Locations => self.locations()?,
                SectionId::AttributeTypes => self.attribute_types()?,
                SectionId::AttributeNames => self.attribute_names()?,
                SectionId::RegisterTypes => self.register_types()?,
                SectionId::Signatures => {
                    if options.lists_signatures(self.listing) {
                        self.signatures()?;
                    }
                }
            }
        }
        Ok(())
    }

    fn header(&mut self) -> io::Result<()> {
        let listing = self.listing;
        let bytes = listing.bytes();
        self.heading(format_args!(
            "BEF file: {} bytes, format version {}",
            bytes.len(),
            listing.header().version
        ))?;
        writeln!(self.out)?;
        writeln!(self.out, "Sections:")?;
        writeln!(
            self.out,
            "  [Nr] Id  Name              Header     Offset     Length     Align"
        )?;
        for s in listing.sections().iter().filter(|s| self.options.shows(s)) {
            let align = s.alignment.map_or("-".to_owned(), |a| a.to_string());
            writeln!(
                self.out,
                "  [{:2}] {:<3} {:<17} {:#010x} {:#010x} {:#010x} {align}",
                s.index,
                s.id,
                s.name(),
                s.range.start,
                s.data.start,
                s.data.len()
            )?;
            if self.options.hex {
                writeln!(self.out, "       header bytes: {}", hex(&bytes[s.header()]))?;
            }
        }
        for problem in listing.problems() {
            writeln!(self.out, "  error: {problem}")?;
        }
        Ok(())
    }

    fn strings(&mut self, id: SectionId) -> io::Result<()> {
        let listing = self.listing;
        let strings = match id {
            SectionId::Strings => listing.strings(),
            _ => listing.location_strings(),
        };
        self.heading(format_args!("{} ({}):", id.name(), strings.len()))?;
        for s in strings.rows() {
            writeln!(self.out, "  {:#06x}  {:?}", strings.offset_of(s), s.text())?;
            self.hex_line(&listing.bytes()[s.range.clone()])?;
        }
        Ok(())
    }

    fn attributes(&mut self) -> io::Result<()> {
        let listing = self.listing;
        let attributes = listing.attributes();
        self.heading(format_args!("Attributes ({}):", attributes.len()))?;
        for a in attributes.iter() {
            let value = match listing.attribute_value(&a) {
                Ok(value) => value.to_string(),
                Err(e) => format!("<error: {e}>"),
            };
            writeln!(self.out, "  {:#06x}  {:<12} {value}", a.offset, a.ty.name())?;
            self.hex_line(&listing.bytes()[a.range.clone()])?;
        }
        self.error_line("  ", attributes.error())
    }

    fn names(&mut self, id: SectionId) -> io::Result<()> {
        let names = match id {
            SectionId::Kernels => self.listing.kernel_names(),
            _ => self.listing.types(),
        };
        self.heading(format_args!("{} ({}):", id.name(), names.len()))?;
        for r in names.iter() {
            writeln!(
                self.out,
                "  [{:3}] {}",
                r.index,
                entry_name(r.name, r.string_offset)
            )?;
        }
        self.error_line("  ", names.error())
    }

    fn signatures(&mut self) -> io::Result<()> {
        let rows = self.listing.signatures();
        self.heading(format_args!("Signatures ({}):", rows.len()))?;
        for row in rows {
            match &row.raw {
                Ok(raw) => writeln!(
                    self.out,
                    "  [{:3}] {}  {raw}  {}",
                    row.function,
                    function_name(&row.name),
                    row.readable
                )?,
                Err(e) => writeln!(
                    self.out,
                    "  [{:3}] {}  error: {e}",
                    row.function,
                    function_name(&row.name)
                )?,
            }
            for (label, text) in [
                ("structure", &row.structured),
                ("reflection", &row.reflection),
                ("sip", &row.sip),
            ] {
                if let Some(text) = text {
                    writeln!(self.out, "        {label}: {text}")?;
                }
            }
        }
        Ok(())
    }

    fn function_index(&mut self) -> io::Result<()> {
        let listing = self.listing;
        self.heading(format_args!(
            "FunctionIndex ({}):",
            listing.function_count()
        ))?;
        for f in listing.index_entries() {
            writeln!(
                self.out,
                "  [{:3}] {:<7} {}({}) -> ({})  body at {:#x}",
                f.index,
                f.kind.name(),
                function_name(f.name),
                type_names(listing, f.argument_types).join(", "),
                type_names(listing, f.result_types).join(", "),
                f.body_offset
            )?;
        }
        Ok(())
    }

    fn functions(&mut self) -> io::Result<()> {
        let listing = self.listing;
        let count = listing.functions().count();
        self.heading(format_args!("Functions ({count}):"))?;
        for function in listing.functions() {
            self.function(function)?;
        }
        Ok(())
    }

    fn function(&mut self, f: &Function<'_>) -> io::Result<()> {
        let listing = self.listing;
        let location = f
            .location
            .map_or_else(|| "<unread>".to_owned(), |l| location_text(listing, l));
        let at = if f.range.is_empty() {
            "-".to_owned()
        } else {
            format!("{:#x}", f.range.start)
        };
        writeln!(
            self.out,
            "\nFunction [{}] {} ({}) at {at}, location {location}",
            f.index,
            function_name(f.name),
            f.kind.name(),
        )?;
        writeln!(self.out, "  registers ({}):", f.register_count())?;
        for r in f.registers() {
            let ty = r
                .type_index
                .map(|t| format!(" : {}", type_name(listing, t)))
                .unwrap_or_default();
            writeln!(self.out, "    %{}{ty}  uses {}", r.index, r.uses)?;
        }
        writeln!(self.out, "  kernels ({}):", f.kernels().len())?;
        for k in f.kernels() {
            writeln!(
                self.out,
                "    [{}] {} at {:#x}  stream {}  operands {}",
                k.index,
                kernel_name(k),
                k.range.start,
                k.stream_id,
                k.num_operands
            )?;
            let location = kernel_location(listing, k);
            if !location.is_empty() {
                writeln!(self.out, "        loc {location}")?;
            }
            if k.arguments().len() > 0 {
                let args: Vec<String> = k.arguments().map(|r| format!("%{r}")).collect();
                writeln!(self.out, "        args {}", args.join(", "))?;
            }
            for a in &k.attributes {
                let value = attribute_text(listing, a.attribute).unwrap_or_else(|e| e);
                writeln!(
                    self.out,
                    "        {} = {value}  (attribute {:#x})",
                    a.name.unwrap_or("attr"),
                    a.offset
                )?;
            }
            for func in k.functions() {
                writeln!(
                    self.out,
                    "        function [{func}] {}",
                    function_name(function_ref(listing, func))
                )?;
            }
            for (i, register) in k.results().enumerate() {
                let used_by: Vec<u32> = k.used_by(i).collect();
                // The pseudo kernel's first result is no register (its
                // number is one past the last): it starts the kernels
                // without operands.
                let what = if k.pseudo && i == 0 {
                    format!("start (%{register})")
                } else {
                    format!("result %{register}")
                };
                writeln!(self.out, "        {what} -> used by {used_by:?}")?;
            }
            self.hex_line(k.bytes())?;
        }
        let results: Vec<String> = f.results().iter().map(|r| format!("%{r}")).collect();
        writeln!(self.out, "  returns ({})", results.join(", "))?;
        for problem in f.problems() {
            writeln!(self.out, "  error: {problem}")?;
        }
        Ok(())
    }

    fn locations(&mut self) -> io::Result<()> {
        let listing = self.listing;
        let locations = listing.locations();
        self.heading(format_args!("Locations ({}):", locations.len()))?;
        for l in locations.iter() {
            writeln!(
                self.out,
                "  {:#06x}  {}",
                l.offset,
                location_text(listing, l.offset)
            )?;
            self.hex_line(&listing.bytes()[l.range.clone()])?;
        }
        self.error_line("  ", locations.error())
    }

    fn attribute_types(&mut self) -> io::Result<()> {
        let listing = self.listing;
        let attributes = listing.attributes();
        self.heading(format_args!("AttributeTypes ({}):", attributes.len()))?;
        for a in attributes.iter() {
            writeln!(
                self.out,
                "  [{:3}] {:#06x}  {}",
                a.index,
                a.offset,
                a.ty.name()
            )?;
            self.hex_line(&listing.bytes()[a.entry.clone()])?;
        }
        self.error_line("  ", attributes.error())
    }

    fn attribute_names(&mut self) -> io::Result<()> {
        let listing = self.listing;
        let entries: Vec<_> = (0..listing.function_count())
            .filter_map(|f| listing.attribute_names(f))
            .collect();
        self.heading(format_args!("AttributeNames ({}):", entries.len()))?;
        for entry in &entries {
            let name = function_ref(listing, entry.function as u32);
            writeln!(
                self.out,
                "  function [{}] {}:",
                entry.function,
                function_name(name)
            )?;
            for kernel in 0..entry.kernel_starts.len().saturating_sub(1) {
                let names: Vec<String> = entry
                    .kernel(kernel)
                    .iter()
                    .map(|n| entry_name(n.name, n.string_offset))
                    .collect();
                if !names.is_empty() {
                    writeln!(self.out, "    kernel [{kernel}]: {}", names.join(", "))?;
                }
            }
            let range = entry.range();
            self.hex_line(&listing.bytes()[range.start as usize..range.end as usize])?;
        }
        self.error_line("  ", listing.attribute_names_error().as_ref())
    }

    fn register_types(&mut self) -> io::Result<()> {
        let listing = self.listing;
        let entries: Vec<_> = (0..listing.function_count())
            .filter_map(|f| listing.register_types(f))
            .collect();
        self.heading(format_args!("RegisterTypes ({}):", entries.len()))?;
        for entry in &entries {
            let name = function_ref(listing, entry.function as u32);
            let types: Vec<String> = entry
                .types
                .iter()
                .enumerate()
                .map(|(r, &t)| format!("%{r} : {}", type_name(listing, t)))
                .collect();
            writeln!(
                self.out,
                "  function [{}] {}: {}",
                entry.function,
                function_name(name),
                types.join(", ")
            )?;
            let range = entry.range();
            self.hex_line(&listing.bytes()[range.start as usize..range.end as usize])?;
        }
        self.error_line("  ", listing.register_types_error().as_ref())
    }
}

/// Renders the listing as pretty JSON. Rows are serialized one at a time
/// as they are read from the listing, so memory stays proportional to the
/// largest row, not to the output.
pub fn write_json(
    out: &mut impl Write,
    listing: &Listing<'_>,
    options: &DumpOptions,
) -> io::Result<()> {
    // Names and strings from the file: escaped for a terminal as well.
    use bef::tool_io::json::{TerminalSafe, write};
    write(
        &mut *out,
        TerminalSafe::pretty(),
        &Json { listing, options },
    )
    .map_err(io::Error::other)?;
    writeln!(out)
}

struct Json<'l, 'a> {
    listing: &'l Listing<'a>,
    options: &'l DumpOptions,
}

/// A JSON array serialized from an iterator, one element at a time.
struct Seq<F>(F);

impl<F, I> Serialize for Seq<F>
where
    F: Fn() -> I,
    I: IntoIterator,
    I::Item: Serialize,
{
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq((self.0)())
    }
}

// The JSON rows, in their key order.

#[derive(Serialize)]
struct SectionJson {
    id: u8,
    name: Cow<'static, str>,
    header_offset: usize,
    data_offset: usize,
    length: usize,
    alignment: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hex: Option<String>,
}

#[derive(Serialize)]
struct StringJson<'s> {
    offset: usize,
    value: Cow<'s, str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hex: Option<String>,
}

#[derive(Serialize)]
struct AttributeJson {
    offset: u32,
    #[serde(rename = "type")]
    ty: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    value: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hex: Option<String>,
}

#[derive(Serialize)]
struct NameJson<'s> {
    index: usize,
    name: Cow<'s, str>,
}

#[derive(Serialize)]
struct IndexJson<'s> {
    index: usize,
    name: &'s str,
    kind: &'static str,
    offset: u64,
    arguments: Vec<String>,
    results: Vec<String>,
}

#[derive(Serialize)]
struct SignatureJson {
    function: usize,
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    raw: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    readable: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    structure: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reflection: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sip: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

#[derive(Serialize)]
struct RegisterJson {
    index: usize,
    uses: u32,
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    ty: Option<String>,
}

#[derive(Serialize)]
struct KernelJson<'s> {
    index: usize,
    offset: usize,
    code: u32,
    name: String,
    stream_id: u64,
    num_operands: u32,
    location: String,
    arguments: Vec<u32>,
    attributes: Vec<KernelAttributeJson<'s>>,
    functions: Vec<FunctionRefJson<'s>>,
    results: Vec<ResultJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hex: Option<String>,
}

#[derive(Serialize)]
struct KernelAttributeJson<'s> {
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<&'s str>,
    offset: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    value: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

#[derive(Serialize)]
struct FunctionRefJson<'s> {
    index: u32,
    name: &'s str,
}

#[derive(Serialize)]
struct ResultJson {
    register: u32,
    used_by: Vec<u32>,
}

#[derive(Serialize)]
struct LocationJson {
    offset: u64,
    location: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    hex: Option<String>,
}

#[derive(Serialize)]
struct AttributeTypeJson {
    index: usize,
    offset: u32,
    #[serde(rename = "type")]
    ty: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    hex: Option<String>,
}

#[derive(Serialize)]
struct AttributeNamesJson {
    function: usize,
    kernels: Vec<Vec<String>>,
}

#[derive(Serialize)]
struct RegisterTypesJson {
    function: usize,
    types: Vec<String>,
}

#[derive(Serialize)]
struct ErrorJson<'s> {
    offset: u64,
    message: &'s str,
}

impl Json<'_, '_> {
    fn hex(&self, bytes: &[u8]) -> Option<String> {
        self.options.hex.then(|| hex(bytes))
    }

    fn kernel<'s>(&self, k: &'s Kernel<'s>) -> KernelJson<'s>
    where
        Self: 's,
    {
        let listing = self.listing;
        let attributes = k
            .attributes
            .iter()
            .map(|a| {
                let (value, error) = match a.attribute.map(|_| attribute_text(listing, a.attribute))
                {
                    None => (None, None),
                    Some(Ok(value)) => (Some(value), None),
                    Some(Err(e)) => (None, Some(e)),
                };
                KernelAttributeJson {
                    name: a.name,
                    offset: a.offset,
                    value,
                    error,
                }
            })
            .collect();
        KernelJson {
            index: k.index,
            offset: k.range.start,
            code: k.code,
            name: kernel_name(k),
            stream_id: k.stream_id,
            num_operands: k.num_operands,
            location: kernel_location(listing, k),
            arguments: k.arguments().collect(),
            attributes,
            functions: k
                .functions()
                .map(|f| FunctionRefJson {
                    index: f,
                    name: function_ref(listing, f),
                })
                .collect(),
            results: k
                .results()
                .enumerate()
                .map(|(i, register)| ResultJson {
                    register,
                    used_by: k.used_by(i).collect(),
                })
                .collect(),
            hex: self.hex(k.bytes()),
        }
    }
}

/// A function, its kernels serialized one at a time.
struct FunctionJson<'j, 'l, 'a> {
    json: &'j Json<'l, 'a>,
    function: &'l Function<'a>,
}

impl Serialize for FunctionJson<'_, '_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let listing = self.json.listing;
        let f = self.function;
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("index", &f.index)?;
        map.serialize_entry("name", f.name)?;
        map.serialize_entry("kind", f.kind.name())?;
        map.serialize_entry("offset", &f.range.start)?;
        let location = f
            .location
            .map_or_else(|| "<unread>".to_owned(), |l| location_text(listing, l));
        map.serialize_entry("location", &location)?;
        let registers = Seq(|| {
            f.registers().map(|r| RegisterJson {
                index: r.index,
                uses: r.uses,
                ty: r.type_index.map(|t| type_name(listing, t)),
            })
        });
        map.serialize_entry("registers", &registers)?;
        let kernels = Seq(|| f.kernels().iter().map(|k| self.json.kernel(k)));
        map.serialize_entry("kernels", &kernels)?;
        map.serialize_entry("results", f.results())?;
        if !f.problems().is_empty() {
            let problems: Vec<String> = f.problems().iter().map(|e| e.to_string()).collect();
            map.serialize_entry("errors", &problems)?;
        }
        map.end()
    }
}

impl Serialize for Json<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let listing = self.listing;
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("size", &listing.bytes().len())?;
        map.serialize_entry("version", &listing.header().version)?;
        map.serialize_entry("sections", &self.sections())?;
        for id in SectionId::ALL {
            if self.options.lists(id) {
                self.serialize_section(&mut map, id)?;
            }
        }
        let errors = problems(listing, self.options);
        if !errors.is_empty() {
            let errors = Seq(|| {
                errors.iter().map(|e| ErrorJson {
                    offset: e.offset,
                    message: &e.message,
                })
            });
            map.serialize_entry("errors", &errors)?;
        }
        map.end()
    }
}

/// The JSON document's entries, one method per section listing.
impl Json<'_, '_> {
    /// The entry of section `id`'s listing, under its key.
    fn serialize_section<M: SerializeMap>(
        &self,
        map: &mut M,
        id: SectionId,
    ) -> Result<(), M::Error> {
        match id {
            SectionId::Strings => map.serialize_entry("strings", &self.strings(id)),
            SectionId::Attributes => map.serialize_entry("attributes", &self.attributes()),
            SectionId::Kernels => map.serialize_entry("kernels", &self.names(id)),
            SectionId::Types => map.serialize_entry("types", &self.names(id)),
            SectionId::FunctionIndex => {
                map.serialize_entry("function_index", &self.function_index())
            }
            SectionId::Functions => map.serialize_entry("functions", &self.functions()),
            SectionId::LocationStrings => {
                map.serialize_entry("location_strings", &self.strings(id))
            }
            SectionId::Locations => map.serialize_entry("locations", &self.locations()),
            SectionId::AttributeTypes => {
                map.serialize_entry("attribute_types", &self.attribute_types())
            }
            SectionId::AttributeNames => {
                map.serialize_entry("attribute_names", &self.attribute_names())
            }
            SectionId::Signatures if self.options.lists_signatures(self.listing) => {
                map.serialize_entry("signatures", &self.signatures())
            }
            SectionId::Signatures => Ok(()),
            SectionId::RegisterTypes => {
                map.serialize_entry("register_types", &self.register_types())
            }
        }
    }

    fn sections(&self) -> impl Serialize + '_ {
        Seq(move || {
            let bytes = self.listing.bytes();
            let shown = self
                .listing
                .sections()
                .iter()
                .filter(|s| self.options.shows(s));
            shown.map(move |s| SectionJson {
                id: s.id,
                name: section_name(s.id),
                header_offset: s.range.start,
                data_offset: s.data.start,
                length: s.data.len(),
                alignment: s.alignment,
                hex: self.hex(&bytes[s.header()]),
            })
        })
    }

    /// The strings or the location strings.
    fn strings(&self, id: SectionId) -> impl Serialize + '_ {
        let listing = self.listing;
        let strings = match id {
            SectionId::Strings => listing.strings(),
            _ => listing.location_strings(),
        };
        Seq(move || {
            strings.rows().iter().map(move |s| StringJson {
                offset: strings.offset_of(s),
                value: s.text(),
                hex: self.hex(&listing.bytes()[s.range.clone()]),
            })
        })
    }

    /// The kernel names or the type names.
    fn names(&self, id: SectionId) -> impl Serialize + '_ {
        let names = match id {
            SectionId::Kernels => self.listing.kernel_names(),
            _ => self.listing.types(),
        };
        Seq(move || {
            names.iter().map(|r| NameJson {
                index: r.index,
                name: Cow::Owned(entry_name(r.name, r.string_offset)),
            })
        })
    }

    fn attributes(&self) -> impl Serialize + '_ {
        let listing = self.listing;
        Seq(move || {
            listing.attributes().iter().map(move |a| {
                let (value, error) = match listing.attribute_value(&a) {
                    Ok(value) => (Some(value.to_string()), None),
                    Err(e) => (None, Some(e.to_string())),
                };
                AttributeJson {
                    offset: a.offset,
                    ty: a.ty.name(),
                    value,
                    error,
                    hex: self.hex(&listing.bytes()[a.range.clone()]),
                }
            })
        })
    }

    fn function_index(&self) -> impl Serialize + '_ {
        let listing = self.listing;
        Seq(move || {
            listing.index_entries().map(move |f| IndexJson {
                index: f.index,
                name: f.name,
                kind: f.kind.name(),
                offset: f.body_offset,
                arguments: type_names(listing, f.argument_types),
                results: type_names(listing, f.result_types),
            })
        })
    }

    fn functions(&self) -> impl Serialize + '_ {
        Seq(move || {
            self.listing.functions().map(|function| FunctionJson {
                json: self,
                function,
            })
        })
    }

    fn locations(&self) -> impl Serialize + '_ {
        let listing = self.listing;
        Seq(move || {
            listing.locations().iter().map(move |l| LocationJson {
                offset: l.offset,
                location: location_text(listing, l.offset),
                hex: self.hex(&listing.bytes()[l.range.clone()]),
            })
        })
    }

    fn attribute_types(&self) -> impl Serialize + '_ {
        let listing = self.listing;
        Seq(move || {
            listing.attributes().iter().map(move |a| AttributeTypeJson {
                index: a.index,
                offset: a.offset,
                ty: a.ty.name(),
                hex: self.hex(&listing.bytes()[a.entry.clone()]),
            })
        })
    }

    fn attribute_names(&self) -> impl Serialize + '_ {
        let listing = self.listing;
        Seq(move || {
            (0..listing.function_count())
                .filter_map(|f| listing.attribute_names(f))
                .map(|entry| {
                    let kernels = entry.kernel_starts.len().saturating_sub(1);
                    let kernels = (0..kernels)
                        .map(|k| {
                            entry
                                .kernel(k)
                                .iter()
                                .map(|n| entry_name(n.name, n.string_offset))
                                .collect()
                        })
                        .collect();
                    AttributeNamesJson {
                        function: entry.function,
                        kernels,
                    }
                })
        })
    }

    fn signatures(&self) -> impl Serialize + '_ {
        let rows = self.listing.signatures().into_iter().map(|row| {
            let ok = row.raw.is_ok();
            SignatureJson {
                function: row.function,
                name: row.name,
                raw: row.raw.as_ref().ok().cloned(),
                readable: ok.then_some(row.readable),
                structure: row.structured,
                reflection: row.reflection,
                sip: row.sip,
                error: row.raw.err(),
            }
        });
        rows.collect::<Vec<SignatureJson>>()
    }

    fn register_types(&self) -> impl Serialize + '_ {
        let listing = self.listing;
        Seq(move || {
            (0..listing.function_count())
                .filter_map(|f| listing.register_types(f))
                .map(|entry| RegisterTypesJson {
                    function: entry.function,
                    types: type_names(listing, &entry.types),
                })
        })
    }
}
