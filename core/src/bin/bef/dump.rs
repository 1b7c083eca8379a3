//! `bef dump`: a readelf-style listing of a BEF file, as text or JSON.
//! The listing is built once as data, then rendered, so the two outputs
//! always agree.

use std::collections::HashMap;
use std::io::{self, Write};

use serde::Serialize;

use bef::format::constants::PSEUDO_KERNEL_CODE;
use bef::format::dtype::AttrType;
use bef::format::reader::Reader;
use bef::format::{BefFile, DecodeResult, SectionId};

/// What to list.
#[derive(Debug, Clone, Default)]
pub struct DumpOptions {
    /// Only this section (and the header).
    pub section: Option<SectionId>,
    /// Raw bytes beside decoded fields.
    pub hex: bool,
}

#[derive(Serialize)]
pub struct Listing {
    pub size: u64,
    pub version: u8,
    pub sections: Vec<SectionRow>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strings: Option<Vec<StringRow>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attributes: Option<Vec<AttributeRow>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kernels: Option<Vec<NameRow>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub types: Option<Vec<NameRow>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub function_index: Option<Vec<FunctionRow>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub functions: Option<Vec<FunctionListing>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location_strings: Option<Vec<StringRow>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub locations: Option<Vec<LocationRow>>,
}

#[derive(Serialize)]
pub struct SectionRow {
    pub id: u8,
    pub name: String,
    pub header_offset: u64,
    pub data_offset: u64,
    pub length: u64,
    pub alignment: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hex: Option<String>,
}

#[derive(Serialize)]
pub struct StringRow {
    pub offset: u64,
    pub value: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hex: Option<String>,
}

#[derive(Serialize)]
pub struct AttributeRow {
    pub offset: u32,
    #[serde(rename = "type")]
    pub ty: String,
    pub value: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hex: Option<String>,
}

#[derive(Serialize)]
pub struct NameRow {
    pub index: usize,
    pub name: String,
}

#[derive(Serialize)]
pub struct FunctionRow {
    pub index: usize,
    pub name: String,
    pub kind: &'static str,
    pub offset: u64,
    pub arguments: Vec<String>,
    pub results: Vec<String>,
}

#[derive(Serialize)]
pub struct FunctionListing {
    pub index: usize,
    pub name: String,
    pub kind: &'static str,
    pub offset: u64,
    pub location: String,
    pub registers: Vec<RegisterRow>,
    pub kernels: Vec<KernelListing>,
    pub results: Vec<u32>,
}

#[derive(Serialize)]
pub struct RegisterRow {
    pub index: usize,
    pub uses: u32,
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub ty: Option<String>,
}

#[derive(Serialize)]
pub struct KernelListing {
    pub index: usize,
    pub offset: u64,
    pub code: u32,
    pub name: String,
    pub stream_id: u64,
    pub num_operands: u32,
    pub location: String,
    pub arguments: Vec<u32>,
    pub attributes: Vec<KernelAttribute>,
    pub functions: Vec<NameRow>,
    pub results: Vec<ResultRow>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hex: Option<String>,
}

#[derive(Serialize)]
pub struct KernelAttribute {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub offset: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
}

#[derive(Serialize)]
pub struct ResultRow {
    pub register: u32,
    pub used_by: Vec<u32>,
}

#[derive(Serialize)]
pub struct LocationRow {
    pub offset: u64,
    pub location: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hex: Option<String>,
}

/// Bytes as spaced hex, shortened past 64 bytes.
pub fn hex(bytes: &[u8]) -> String {
    const LIMIT: usize = 64;
    let mut out: Vec<String> = bytes
        .iter()
        .take(LIMIT)
        .map(|b| format!("{b:02x}"))
        .collect();
    if bytes.len() > LIMIT {
        out.push(format!("... ({} bytes)", bytes.len()));
    }
    out.join(" ")
}

struct Builder<'f, 'a> {
    file: &'f BefFile<'a>,
    options: &'f DumpOptions,
    /// Location text by offset: each location is decoded once even when
    /// many kernels share it.
    locations: HashMap<u64, String>,
}

/// Builds the listing of `file`.
pub fn listing(file: &BefFile<'_>, options: &DumpOptions) -> DecodeResult<Listing> {
    Builder {
        file,
        options,
        locations: HashMap::new(),
    }
    .build()
}

impl Builder<'_, '_> {
    fn wants(&self, id: SectionId) -> bool {
        self.options.section.is_none_or(|s| s == id)
    }

    fn hex(&self, bytes: &[u8]) -> Option<String> {
        self.options.hex.then(|| hex(bytes))
    }

    fn build(mut self) -> DecodeResult<Listing> {
        let file = self.file;
        let sections = file
            .sections()
            .iter()
            .map(|s| SectionRow {
                id: s.id,
                name: s.name(),
                header_offset: s.header_offset,
                data_offset: s.data_offset,
                length: s.len,
                alignment: s.alignment,
                hex: self.hex(&file.bytes()[s.header_offset as usize..s.data_offset as usize]),
            })
            .collect();
        let strings = self
            .wants(SectionId::Strings)
            .then(|| self.string_table(SectionId::Strings));
        let location_strings = self
            .wants(SectionId::LocationStrings)
            .then(|| self.string_table(SectionId::LocationStrings));
        let attributes = if self.wants(SectionId::Attributes) {
            Some(self.attributes()?)
        } else {
            None
        };
        let names = |table: &[&str]| {
            table
                .iter()
                .enumerate()
                .map(|(index, n)| NameRow {
                    index,
                    name: (*n).to_owned(),
                })
                .collect()
        };
        let kernels = if self.wants(SectionId::Kernels) {
            Some(names(file.kernel_names()?))
        } else {
            None
        };
        let types = if self.wants(SectionId::Types) {
            Some(names(file.type_names()?))
        } else {
            None
        };
        let function_index = self
            .wants(SectionId::FunctionIndex)
            .then(|| self.function_index());
        let functions = if self.wants(SectionId::Functions) {
            Some(self.functions()?)
        } else {
            None
        };
        let locations = if self.wants(SectionId::Locations) {
            Some(self.locations_section()?)
        } else {
            None
        };
        Ok(Listing {
            size: file.bytes().len() as u64,
            version: file.bytes()[2],
            sections,
            strings,
            attributes,
            kernels,
            types,
            function_index,
            functions,
            location_strings,
            locations,
        })
    }

    fn string_table(&self, id: SectionId) -> Vec<StringRow> {
        let data = self.file.section_data(id);
        let mut rows = Vec::new();
        let mut offset = 0;
        for piece in data.split_inclusive(|&b| b == 0) {
            let text = piece.strip_suffix(&[0]).unwrap_or(piece);
            rows.push(StringRow {
                offset: offset as u64,
                value: String::from_utf8_lossy(text).into_owned(),
                hex: self.hex(piece),
            });
            offset += piece.len();
        }
        rows
    }

    fn attributes(&self) -> DecodeResult<Vec<AttributeRow>> {
        let Some(entries) = self.file.attribute_types()? else {
            return Ok(Vec::new());
        };
        let data = self.file.section_data(SectionId::Attributes);
        entries
            .iter()
            .map(|&(offset, ty)| {
                let value = self.file.attribute(offset, ty)?.to_string();
                let extent = bef::format::attr::attribute_extent(data, offset as usize, ty);
                let bytes = data
                    .get(offset as usize..offset as usize + extent)
                    .unwrap_or_default();
                Ok(AttributeRow {
                    offset,
                    ty: ty.name(),
                    value,
                    hex: self.hex(bytes),
                })
            })
            .collect()
    }

    fn type_name(&self, index: u32) -> String {
        match self
            .file
            .type_names()
            .ok()
            .and_then(|t| t.get(index as usize))
        {
            Some(name) => (*name).to_owned(),
            None => format!("<type {index}>"),
        }
    }

    fn function_index(&self) -> Vec<FunctionRow> {
        let file = self.file;
        file.functions()
            .iter()
            .enumerate()
            .map(|(index, f)| FunctionRow {
                index,
                name: f.name.to_owned(),
                kind: f.kind.name(),
                offset: f.offset,
                arguments: file
                    .function_arg_types(index)
                    .iter()
                    .map(|&t| self.type_name(t))
                    .collect(),
                results: file
                    .function_result_types(index)
                    .iter()
                    .map(|&t| self.type_name(t))
                    .collect(),
            })
            .collect()
    }

    fn location_text(&mut self, offset: u64) -> DecodeResult<String> {
        if let Some(text) = self.locations.get(&offset) {
            return Ok(text.clone());
        }
        let text = match self.file.location(offset)? {
            Some(location) => location.to_string(),
            None => format!("<virtual {offset:#x}>"),
        };
        self.locations.insert(offset, text.clone());
        Ok(text)
    }

    fn functions(&mut self) -> DecodeResult<Vec<FunctionListing>> {
        let file = self.file;
        let kernel_names = file.kernel_names()?;
        let attribute_types: HashMap<u32, AttrType> = file
            .attribute_types()?
            .unwrap_or_default()
            .iter()
            .copied()
            .collect();
        let attribute_names = file.attribute_names()?;
        let register_types = file.register_types()?;
        let mut out = Vec::new();
        for (index, function) in file.functions().iter().enumerate() {
            if !function.kind.has_body() {
                continue;
            }
            let body = file.body(index)?;
            let types = register_types.as_ref().and_then(|all| all[index].as_ref());
            let registers = body
                .register_uses
                .iter()
                .enumerate()
                .map(|(i, &uses)| RegisterRow {
                    index: i,
                    uses,
                    ty: types.and_then(|t| t.get(i)).map(|&t| self.type_name(t)),
                })
                .collect();
            let names = attribute_names.as_ref().and_then(|all| all[index].as_ref());
            let mut kernels = Vec::with_capacity(body.kernels.len());
            for (k, (record, entry)) in body.kernel_records().zip(&body.kernels).enumerate() {
                let pseudo = k == 0 && record.code() == PSEUDO_KERNEL_CODE;
                let name = if pseudo {
                    "<arguments>".to_owned()
                } else {
                    kernel_names.get(record.code() as usize).map_or_else(
                        || format!("<kernel {}>", record.code()),
                        |n| (*n).to_owned(),
                    )
                };
                let location = if pseudo {
                    String::new()
                } else {
                    self.location_text(u64::from(record.location()))?
                };
                let attributes = record
                    .attributes()
                    .iter()
                    .enumerate()
                    .map(|(a, offset)| {
                        let value = attribute_types
                            .get(&offset)
                            .map(|&ty| file.attribute(offset, ty))
                            .transpose()?
                            .map(|v| v.to_string());
                        let name = names
                            .and_then(|n| n.get(k))
                            .and_then(|n| n.get(a))
                            .map(|s| (*s).to_owned());
                        Ok(KernelAttribute {
                            name,
                            offset,
                            value,
                        })
                    })
                    .collect::<DecodeResult<Vec<_>>>()?;
                let functions = record
                    .functions()
                    .iter()
                    .map(|f| NameRow {
                        index: f as usize,
                        name: file
                            .functions()
                            .get(f as usize)
                            .map_or("<out of range>", |f| f.name)
                            .to_owned(),
                    })
                    .collect();
                let results = record
                    .results()
                    .iter()
                    .enumerate()
                    .map(|(r, register)| ResultRow {
                        register,
                        used_by: record.used_by(r).to_vec(),
                    })
                    .collect();
                kernels.push(KernelListing {
                    index: k,
                    offset: record.offset,
                    code: record.code(),
                    name,
                    stream_id: entry.stream_id,
                    num_operands: entry.num_operands,
                    location,
                    arguments: record.args().to_vec(),
                    attributes,
                    functions,
                    results,
                    hex: self.hex(record.bytes()),
                });
            }
            out.push(FunctionListing {
                index,
                name: function.name.to_owned(),
                kind: function.kind.name(),
                offset: body.offset,
                location: self.location_text(body.location)?,
                registers,
                kernels,
                results: body.results.clone(),
            });
        }
        Ok(out)
    }

    fn locations_section(&self) -> DecodeResult<Vec<LocationRow>> {
        let decoder = self.file.location_decoder();
        let mut r = Reader::new(decoder.locations, decoder.locations_base);
        let mut rows = Vec::new();
        while !r.is_empty() {
            let start = r.position();
            let location = decoder.read(&mut r, 0)?;
            let bytes = &decoder.locations[start..r.position()];
            rows.push(LocationRow {
                offset: start as u64,
                location: location.to_string(),
                hex: self.hex(bytes),
            });
        }
        Ok(rows)
    }
}

/// Renders a listing as text.
pub fn write_text(out: &mut impl Write, listing: &Listing) -> io::Result<()> {
    writeln!(
        out,
        "BEF file: {} bytes, format version {}",
        listing.size, listing.version
    )?;
    writeln!(out)?;
    writeln!(out, "Sections:")?;
    writeln!(
        out,
        "  [Nr] Id  Name              Header     Offset     Length     Align"
    )?;
    for (i, s) in listing.sections.iter().enumerate() {
        let align = s.alignment.map_or("-".to_owned(), |a| a.to_string());
        writeln!(
            out,
            "  [{i:2}] {:<3} {:<17} {:#010x} {:#010x} {:#010x} {align}",
            s.id, s.name, s.header_offset, s.data_offset, s.length
        )?;
        if let Some(h) = &s.hex {
            writeln!(out, "       header bytes: {h}")?;
        }
    }
    let hex_line = |out: &mut dyn Write, hex: &Option<String>| -> io::Result<()> {
        match hex {
            Some(h) => writeln!(out, "         bytes: {h}"),
            None => Ok(()),
        }
    };
    if let Some(strings) = &listing.strings {
        writeln!(out, "\nStrings ({}):", strings.len())?;
        for s in strings {
            writeln!(out, "  {:#06x}  {:?}", s.offset, s.value)?;
            hex_line(out, &s.hex)?;
        }
    }
    if let Some(attributes) = &listing.attributes {
        writeln!(out, "\nAttributes ({}):", attributes.len())?;
        for a in attributes {
            writeln!(out, "  {:#06x}  {:<12} {}", a.offset, a.ty, a.value)?;
            hex_line(out, &a.hex)?;
        }
    }
    for (title, rows) in [("Kernels", &listing.kernels), ("Types", &listing.types)] {
        if let Some(rows) = rows {
            writeln!(out, "\n{title} ({}):", rows.len())?;
            for r in rows {
                writeln!(out, "  [{:3}] {}", r.index, r.name)?;
            }
        }
    }
    if let Some(index) = &listing.function_index {
        writeln!(out, "\nFunction index ({}):", index.len())?;
        for f in index {
            let name = if f.name.is_empty() {
                "<anonymous>".to_owned()
            } else {
                format!("@{}", f.name)
            };
            writeln!(
                out,
                "  [{:3}] {:<7} {name}({}) -> ({})  body at {:#x}",
                f.index,
                f.kind,
                f.arguments.join(", "),
                f.results.join(", "),
                f.offset
            )?;
        }
    }
    if let Some(functions) = &listing.functions {
        for f in functions {
            let name = if f.name.is_empty() {
                "<anonymous>".to_owned()
            } else {
                format!("@{}", f.name)
            };
            writeln!(
                out,
                "\nFunction [{}] {name} ({}) at {:#x}, location {}",
                f.index, f.kind, f.offset, f.location
            )?;
            writeln!(out, "  registers ({}):", f.registers.len())?;
            for r in &f.registers {
                let ty =
                    r.ty.as_deref()
                        .map(|t| format!(" : {t}"))
                        .unwrap_or_default();
                writeln!(out, "    %{}{ty}  uses {}", r.index, r.uses)?;
            }
            writeln!(out, "  kernels ({}):", f.kernels.len())?;
            for k in &f.kernels {
                writeln!(
                    out,
                    "    [{}] {} at {:#x}  stream {}  operands {}",
                    k.index, k.name, k.offset, k.stream_id, k.num_operands
                )?;
                if !k.location.is_empty() {
                    writeln!(out, "        loc {}", k.location)?;
                }
                if !k.arguments.is_empty() {
                    let args: Vec<String> = k.arguments.iter().map(|r| format!("%{r}")).collect();
                    writeln!(out, "        args {}", args.join(", "))?;
                }
                for a in &k.attributes {
                    let name = a.name.as_deref().unwrap_or("attr");
                    let value = a
                        .value
                        .as_deref()
                        .unwrap_or("<type unknown: no AttributeTypes section>");
                    writeln!(out, "        {name} = {value}  (attribute {:#x})", a.offset)?;
                }
                for func in &k.functions {
                    let name = if func.name.is_empty() {
                        "<anonymous>".to_owned()
                    } else {
                        format!("@{}", func.name)
                    };
                    writeln!(out, "        function [{}] {name}", func.index)?;
                }
                for r in &k.results {
                    writeln!(
                        out,
                        "        result %{} -> used by {:?}",
                        r.register, r.used_by
                    )?;
                }
                hex_line(out, &k.hex)?;
            }
            let results: Vec<String> = f.results.iter().map(|r| format!("%{r}")).collect();
            writeln!(out, "  returns ({})", results.join(", "))?;
        }
    }
    if let Some(strings) = &listing.location_strings {
        writeln!(out, "\nLocation strings ({}):", strings.len())?;
        for s in strings {
            writeln!(out, "  {:#06x}  {:?}", s.offset, s.value)?;
            hex_line(out, &s.hex)?;
        }
    }
    if let Some(locations) = &listing.locations {
        writeln!(out, "\nLocations ({}):", locations.len())?;
        for l in locations {
            writeln!(out, "  {:#06x}  {}", l.offset, l.location)?;
            hex_line(out, &l.hex)?;
        }
    }
    Ok(())
}

/// Renders a listing as pretty JSON.
pub fn write_json(out: &mut impl Write, listing: &Listing) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, listing).map_err(io::Error::other)?;
    writeln!(out)
}
