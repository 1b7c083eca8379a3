//! The decoded listing of a BEF file, for `bef dump`, the `befview`
//! inspector and the profiler: the header, the sections, every table and
//! every function, each row with the byte range it was read from
//! (absolute offsets into the file), and lookups from a byte back to the
//! items that hold it ([`Listing::item_at`]) and to the fields it belongs
//! to ([`Listing::fields_in`]). No printing, no serialization.
//!
//! Decoding is lazy: opening frames the sections and reads the function
//! index; each table is read when first asked for, and each function when
//! it is (listing function N reads the tables of functions before it only
//! when the file has an AttributeNames section, whose entries can only be
//! found by walking those tables). Everything is cached, so a listing can
//! be shared between threads.
//!
//! Decoding is tolerant: a damaged file gives everything that can still be
//! read, and the problems with their offsets. A table keeps its entries up
//! to the damage ([`Names::error`], [`Locations::error`], ...), a function
//! its parts up to the damage ([`Function::error`]), and other functions
//! are unaffected. [`Listing::errors`] collects every problem.
//!
//! The bytes come from the existing readers of [`crate::format`]; this
//! module only arranges what they report.

mod attributes;
mod check;
pub mod diff;
mod fields;
mod function_index;
mod functions;
mod items;
mod locations;
mod optional;
mod regions;
mod sections;
mod signatures;
mod strings;
mod tables;
#[cfg(test)]
mod tests;

use std::ops::Range;
use std::sync::OnceLock;

use crate::format::location::Location;
use crate::format::{BefFile, DecodeError, DecodeResult, SectionId};

pub use attributes::{AttributeRow, Attributes};
pub use check::check_lookups;
pub use fields::{Field, FieldKind};
pub use function_index::IndexEntry;
pub use functions::{Function, Kernel, KernelAttribute, Register};
pub use items::{Item, ItemPath};
pub use locations::{LocationRow, Locations};
pub use regions::{MAX_REGION_DEPTH, region_role};
pub use sections::{Header, Section, section_name};
pub use signatures::SignatureRow;
pub use strings::{StringRow, Strings};
pub use tables::{NameRow, Names};

use optional::PerFunction;

/// The listing of one BEF file, borrowing its bytes. See the
/// [module documentation](self).
pub struct Listing<'a> {
    file: BefFile<'a>,
    /// Problems found framing the sections and reading the function index.
    problems: Vec<DecodeError>,
    header: Header,
    sections: Vec<Section>,
    strings: OnceLock<Strings<'a>>,
    location_strings: OnceLock<Strings<'a>>,
    kernel_names: OnceLock<Names<'a>>,
    types: OnceLock<Names<'a>>,
    attributes: OnceLock<Attributes>,
    locations: OnceLock<Locations>,
    functions: Box<[OnceLock<Box<Function<'a>>>]>,
    /// Functions with a body by body start: `(absolute start, function)`.
    bodies: OnceLock<Vec<(usize, usize)>>,
    attribute_names: PerFunction<crate::format::FunctionAttributeNames<'a>>,
    register_types: PerFunction<crate::format::FunctionRegisterTypes>,
    /// The Signatures section's entries (empty when it does not decode).
    signature_entries: OnceLock<Vec<crate::format::FunctionSignatures>>,
    /// Names of the regions anonymous functions hold (see `regions`).
    region_names: OnceLock<Vec<Option<String>>>,
    errors: OnceLock<Vec<DecodeError>>,
}

impl std::fmt::Debug for Listing<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Listing")
            .field("len", &self.file.bytes().len())
            .field("sections", &self.sections.len())
            .field("functions", &self.functions.len())
            .field("problems", &self.problems)
            .finish()
    }
}

/// An absolute range of the format readers (u64 offsets) as a range of the
/// in-memory bytes; every offset they report lies within the bytes.
fn span(range: Range<u64>) -> Range<usize> {
    range.start as usize..range.end as usize
}

impl<'a> Listing<'a> {
    /// Lists `bytes`, which must start at an 8-byte-aligned address (see
    /// [`crate::format::BefBuffer`]). Fails only when the bytes are not a
    /// BEF file at all (misaligned, wrong magic or version); damage after
    /// the header is reported by [`problems`](Self::problems) and the
    /// tables.
    pub fn new(bytes: &'a [u8]) -> DecodeResult<Listing<'a>> {
        let (file, problems) = BefFile::open_lenient(bytes)?;
        let header = Header::new(bytes);
        let sections = sections::sections(&file);
        let functions = (0..file.functions().len())
            .map(|_| OnceLock::new())
            .collect();
        Ok(Listing {
            problems,
            header,
            sections,
            strings: OnceLock::new(),
            location_strings: OnceLock::new(),
            kernel_names: OnceLock::new(),
            types: OnceLock::new(),
            attributes: OnceLock::new(),
            locations: OnceLock::new(),
            functions,
            bodies: OnceLock::new(),
            attribute_names: PerFunction::new(SectionId::AttributeNames),
            register_types: PerFunction::new(SectionId::RegisterTypes),
            signature_entries: OnceLock::new(),
            region_names: OnceLock::new(),
            errors: OnceLock::new(),
            file,
        })
    }

    /// The file as the format readers see it.
    pub fn file(&self) -> &BefFile<'a> {
        &self.file
    }

    /// The file's bytes.
    pub fn bytes(&self) -> &'a [u8] {
        self.file.bytes()
    }

    /// Problems found framing the sections (framing stops at the first) and
    /// reading the function index (it keeps the entries before the first).
    pub fn problems(&self) -> &[DecodeError] {
        &self.problems
    }

    /// The magic number and version.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The sections in file order, up to any framing damage.
    pub fn sections(&self) -> &[Section] {
        &self.sections
    }

    /// The section with id `id` that the readers use (the first of that id).
    pub fn section(&self, id: SectionId) -> Option<&Section> {
        self.sections.iter().find(|s| s.kind == Some(id) && s.used)
    }

    /// The absolute end of the data of section `id`; the end of the file
    /// when the section is absent.
    fn section_end(&self, id: SectionId) -> usize {
        self.section(id).map_or(self.bytes().len(), |s| s.data.end)
    }

    /// The number of items of section `index` of [`sections`](Self::sections):
    /// strings, attributes, kernel names, types, functions (index entries,
    /// or bodies for the Functions section), locations, or per-function
    /// entries; `None` for unknown and unused sections. Reads the section.
    pub fn item_count(&self, index: usize) -> Option<usize> {
        let section = self.sections.get(index).filter(|s| s.used)?;
        Some(match section.kind? {
            SectionId::Strings => self.strings().len(),
            SectionId::Attributes | SectionId::AttributeTypes => self.attributes().len(),
            SectionId::Kernels => self.kernel_names().len(),
            SectionId::Types => self.types().len(),
            SectionId::FunctionIndex => self.function_count(),
            SectionId::Functions => self.function_bodies().len(),
            SectionId::LocationStrings => self.location_strings().len(),
            SectionId::Locations => self.locations().len(),
            SectionId::AttributeNames | SectionId::RegisterTypes => self
                .file
                .functions()
                .iter()
                .filter(|f| f.kind.has_body())
                .count(),
            SectionId::Signatures => self.file.signatures().map_or(0, |s| s.len()),
        })
    }

    /// The Strings section.
    pub fn strings(&self) -> &Strings<'a> {
        self.strings
            .get_or_init(|| Strings::read(&self.file, SectionId::Strings))
    }

    /// The LocationStrings section.
    pub fn location_strings(&self) -> &Strings<'a> {
        self.location_strings
            .get_or_init(|| Strings::read(&self.file, SectionId::LocationStrings))
    }

    /// The Kernels section: kernel code N is the Nth name.
    pub fn kernel_names(&self) -> &Names<'a> {
        self.kernel_names
            .get_or_init(|| Names::read(&self.file, SectionId::Kernels))
    }

    /// The Types section: type index N is the Nth name.
    pub fn types(&self) -> &Names<'a> {
        self.types
            .get_or_init(|| Names::read(&self.file, SectionId::Types))
    }

    /// The name of type `index`, if the Types section has it.
    pub fn type_name(&self, index: u32) -> Option<&'a str> {
        self.types().get(index as usize)?.name
    }

    /// The attributes, as the AttributeTypes section lists them.
    pub fn attributes(&self) -> &Attributes {
        self.attributes.get_or_init(|| Attributes::read(&self.file))
    }

    /// Decodes the value of an attribute. Not cached: values can be large.
    pub fn attribute_value(&self, row: &AttributeRow) -> DecodeResult<crate::format::Attribute> {
        self.file.attribute(row.offset, row.ty)
    }

    /// The Locations section, record by record.
    pub fn locations(&self) -> &Locations {
        self.locations.get_or_init(|| Locations::read(&self.file))
    }

    /// Decodes the location at `offset` of the Locations section (a
    /// function's or kernel's location field); `None` for a virtual offset.
    /// Not cached.
    pub fn location(&self, offset: u64) -> DecodeResult<Option<Location>> {
        self.file.location(offset)
    }

    /// The number of entries of the function index.
    pub fn function_count(&self) -> usize {
        self.file.functions().len()
    }

    /// Entry `index` of the function index.
    pub fn index_entry(&self, index: usize) -> Option<IndexEntry<'_>> {
        IndexEntry::new(&self.file, index)
    }

    /// The entries of the function index.
    pub fn index_entries(&self) -> impl Iterator<Item = IndexEntry<'_>> + '_ {
        (0..self.function_count()).filter_map(|i| IndexEntry::new(&self.file, i))
    }

    /// Function `index` of the function index, decoded on first use; `None`
    /// for native functions (no body) and indices out of range.
    pub fn function(&self, index: usize) -> Option<&Function<'a>> {
        let entry = self.file.functions().get(index)?;
        if !entry.kind.has_body() {
            return None;
        }
        Some(self.functions[index].get_or_init(|| Box::new(Function::read(self, index))))
    }

    /// The functions that have a body, in function index order.
    pub fn functions(&self) -> impl Iterator<Item = &Function<'a>> + '_ {
        (0..self.function_count()).filter_map(|i| self.function(i))
    }

    /// Calls `visit` with each function that has a body, in function index
    /// order, without caching what it decodes: a function already decoded
    /// is lent from the cache, any other is decoded for the call and
    /// dropped after it. For whole-file passes (errors, users), which would
    /// otherwise keep every function decoded (several times the file's
    /// size for a file of small kernels).
    pub fn visit_functions(&self, mut visit: impl FnMut(&Function<'a>)) {
        for index in 0..self.function_count() {
            let Some(entry) = self.file.functions().get(index) else {
                continue;
            };
            if !entry.kind.has_body() {
                continue;
            }
            match self.functions[index].get() {
                Some(function) => visit(function),
                None => visit(&Function::read(self, index)),
            }
        }
    }

    /// Functions with a body as `(absolute body start, function index)`,
    /// in body order (several functions may share a body).
    fn function_bodies(&self) -> &[(usize, usize)] {
        self.bodies.get_or_init(|| {
            let base = self
                .file
                .section(SectionId::Functions)
                .map_or(0, |s| s.data_offset);
            let len = self.file.section_data(SectionId::Functions).len() as u64;
            let mut bodies: Vec<(usize, usize)> = self
                .file
                .functions()
                .iter()
                .enumerate()
                .filter(|(_, f)| f.kind.has_body() && f.offset < len)
                .map(|(i, f)| ((base + f.offset) as usize, i))
                .collect();
            bodies.sort_unstable();
            bodies
        })
    }

    /// The AttributeNames entry of function `index`, reading the section up
    /// to it; `None` when the section is absent or damaged before it.
    pub fn attribute_names(
        &self,
        index: usize,
    ) -> Option<std::sync::Arc<crate::format::FunctionAttributeNames<'a>>> {
        self.attribute_names.get(&self.file, index)
    }

    /// The RegisterTypes entry of function `index`, reading the section up
    /// to it; `None` when the section is absent or damaged before it.
    pub fn register_types(
        &self,
        index: usize,
    ) -> Option<std::sync::Arc<crate::format::FunctionRegisterTypes>> {
        self.register_types.get(&self.file, index)
    }

    /// Why the AttributeNames section could not be read to its end, if so
    /// (reads all of it).
    pub fn attribute_names_error(&self) -> Option<DecodeError> {
        self.attribute_names.error(&self.file)
    }

    /// Why the RegisterTypes section could not be read to its end, if so
    /// (reads all of it).
    pub fn register_types_error(&self) -> Option<DecodeError> {
        self.register_types.error(&self.file)
    }

    /// The problems that stop part of section `id` from being listed
    /// (besides [`problems`](Self::problems)): names that are not strings,
    /// attributes that do not decode, tables cut short, damaged functions
    /// and locations of functions and kernels that do not decode. Decodes
    /// the section. The Attributes and AttributeTypes sections share their
    /// problems.
    pub fn section_errors(&self, id: SectionId) -> Vec<DecodeError> {
        match id {
            SectionId::Strings | SectionId::LocationStrings | SectionId::FunctionIndex => {
                Vec::new()
            }
            SectionId::Kernels => self.kernel_names().errors(&self.file),
            SectionId::Types => self.types().errors(&self.file),
            SectionId::Attributes | SectionId::AttributeTypes => {
                let attributes = self.attributes();
                let mut errors: Vec<DecodeError> =
                    attributes.error().cloned().into_iter().collect();
                errors.extend(
                    attributes
                        .iter()
                        .filter_map(|row| self.attribute_value(&row).err()),
                );
                errors
            }
            SectionId::Functions => {
                let mut errors = Vec::new();
                self.visit_functions(|f| errors.extend(f.errors(self)));
                errors
            }
            SectionId::Locations => self.locations().error().cloned().into_iter().collect(),
            SectionId::AttributeNames => self.attribute_names_error().into_iter().collect(),
            SectionId::RegisterTypes => self.register_types_error().into_iter().collect(),
            SectionId::Signatures => self.file.signatures().err().into_iter().collect(),
        }
    }

    /// Every problem in the file that stops something from being listed,
    /// sorted by offset: [`problems`](Self::problems) and the
    /// [`section_errors`](Self::section_errors) of every section. Decodes
    /// everything. Structural problems of a file that decodes (indices out
    /// of range, inconsistent counts) are the verifier's
    /// ([`verify`](fn@crate::format::verify)). Collected once.
    pub fn errors(&self) -> &[DecodeError] {
        self.errors.get_or_init(|| {
            let mut errors = self.problems.clone();
            for id in SectionId::ALL {
                if id != SectionId::AttributeTypes {
                    errors.extend(self.section_errors(id));
                }
            }
            sort_errors(&mut errors);
            errors
        })
    }
}

/// Sorts problems by offset and removes repeats.
pub fn sort_errors(errors: &mut Vec<DecodeError>) {
    errors.sort_by(|a, b| (a.offset, &a.message).cmp(&(b.offset, &b.message)));
    errors.dedup();
}
