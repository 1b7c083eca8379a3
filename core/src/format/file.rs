//! `BefFile<'a>`: a zero-copy view of BEF bytes. Opening parses only the
//! section table and the function index; everything else (kernel and type
//! tables, function bodies, optional sections) is decoded when first asked
//! for and cached.

use std::ops::Range;
use std::sync::OnceLock;

use super::attr::{Attribute, decode_attribute};
use super::constants::{
    FIRST_VIRTUAL_LOCATION, FunctionKind, KERNEL_ALIGNMENT, MAGIC, SectionId, VERSION,
};
use super::dtype::AttrType;
use super::error::{DecodeError, DecodeResult};
use super::kernel_layout::KernelHeader;
use super::location::{Location, LocationDecoder};
use super::reader::{Reader, c_string_at, u32_at};

/// One section as framed in the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SectionInfo {
    /// Section id byte; may be one this crate does not know.
    pub id: u8,
    /// Offset of the section id byte.
    pub header_offset: u64,
    /// Offset of the first data byte.
    pub data_offset: u64,
    /// Length of the data in bytes, padding excluded.
    pub len: u64,
    /// Present when the header used the alignment form.
    pub alignment: Option<u8>,
}

impl SectionInfo {
    /// The section's id, if it is a standard one.
    pub fn known(&self) -> Option<SectionId> {
        SectionId::from_u8(self.id)
    }

    /// The standard name of the section, or `Unknown(id)`.
    pub fn name(&self) -> String {
        self.known().map_or_else(
            || format!("Unknown({})", self.id),
            |id| id.name().to_owned(),
        )
    }

    fn range(&self) -> Range<usize> {
        self.data_offset as usize..(self.data_offset + self.len) as usize
    }
}

/// An entry of the FunctionIndex section.
#[derive(Debug, Clone)]
pub struct FunctionEntry<'a> {
    /// How the function runs, and whether it has a body.
    pub kind: FunctionKind,
    /// Offset of the body in the Functions section.
    pub offset: u64,
    /// Function name, from the Strings section.
    pub name: &'a str,
    /// Offset of the name in the Strings section.
    pub name_offset: u64,
    /// Absolute offset of this index entry (its kind byte; the body offset
    /// follows).
    pub entry_offset: u64,
    /// Where the entry's other fields lie.
    pub layout: EntryLayout,
    arg_types: Range<usize>,
    result_types: Range<usize>,
}

/// Absolute offsets of the fields of a FunctionIndex entry after its kind
/// byte and body offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EntryLayout {
    /// The name offset.
    pub name: u64,
    /// The argument count, followed by the argument type indices.
    pub arguments: u64,
    /// The result count, followed by the result type indices.
    pub results: u64,
    /// Just past the entry.
    pub end: u64,
}

/// The Kernels or Types section as read by
/// [`BefFile::read_name_table`]: the entries before any damage, and the
/// damage.
#[derive(Debug, Clone)]
pub struct NameTable<'a> {
    /// The entry count.
    pub count: Range<u64>,
    /// The entries read; entry `i` spans `entries[i].at` to the next
    /// entry's `at` (the last to [`end`](Self::end)).
    pub entries: Vec<NameEntry<'a>>,
    /// Just past the last entry read.
    pub end: u64,
    /// Why reading stopped before the end of the section, if it did.
    pub error: Option<DecodeError>,
}

impl NameTable<'_> {
    /// The bytes of entry `index`.
    pub fn entry_range(&self, index: usize) -> Range<u64> {
        let end = self.entries.get(index + 1).map_or(self.end, |e| e.at);
        self.entries[index].at..end
    }
}

/// One entry of the Kernels or Types section.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NameEntry<'a> {
    /// Absolute offset of the entry.
    pub at: u64,
    /// Offset of the name in the Strings section.
    pub string_offset: u64,
    /// The name; `None` when `string_offset` is not the start of a valid
    /// string ([`BefFile::string`] says why).
    pub name: Option<&'a str>,
}

/// The register and kernel tables of one function, decoded once.
#[derive(Debug)]
pub struct FunctionBody<'a> {
    /// Location offset of the function (may be virtual).
    pub location: u64,
    /// Uses per register, as recorded in the register table.
    pub register_uses: Vec<u32>,
    /// The kernel table, in kernel order (0 is the pseudo kernel).
    pub kernels: Vec<KernelEntry>,
    /// Result registers, one per function result.
    pub results: Vec<u32>,
    /// Absolute offset of the function body.
    pub offset: u64,
    /// Absolute offset of the kernel list.
    pub kernel_list_offset: u64,
    kernel_list: &'a [u8],
}

/// Where the parts of a function body lie (absolute offsets), filled by
/// [`BefFile::read_body`] for tools that map bytes to fields. Parts that
/// were not reached are empty.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BodyLayout {
    /// The function's location offset.
    pub location: Range<u64>,
    /// The register count.
    pub register_count: Range<u64>,
    /// Each register's use count.
    pub register_uses: Vec<Range<u64>>,
    /// The kernel count.
    pub kernel_count: Range<u64>,
    /// Each row of the kernel table read, including rows whose record is
    /// unusable.
    pub kernel_table: Vec<KernelTableRow>,
    /// Each result register.
    pub results: Vec<Range<u64>>,
    /// Padding between the tables and the 4-aligned kernel list.
    pub padding: Range<u64>,
    /// The kernel list, to the end of the function.
    pub kernel_list: Range<u64>,
}

/// A row of a function's kernel table with where its fields lie.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelTableRow {
    /// The row's values.
    pub entry: KernelEntry,
    /// The record offset.
    pub offset: Range<u64>,
    /// The operand count.
    pub num_operands: Range<u64>,
    /// The stream id.
    pub stream_id: Range<u64>,
}

impl KernelTableRow {
    /// The whole row.
    pub fn range(&self) -> Range<u64> {
        self.offset.start..self.stream_id.end
    }
}

/// A row of a function's kernel table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KernelEntry {
    /// Byte offset of the record in the kernel list.
    pub offset: u32,
    /// Operands that must be available before the kernel runs.
    pub num_operands: u32,
    /// Stream the kernel is scheduled on: kernels of one stream run one
    /// after the other on one thread.
    pub stream_id: u64,
}

/// A kernel record: FIXED32 words read in place.
#[derive(Debug, Clone, Copy)]
pub struct KernelRecord<'a> {
    words: U32s<'a>,
    /// Absolute offset of the record.
    pub offset: u64,
}

/// Little-endian u32 values read in place.
#[derive(Debug, Clone, Copy)]
pub struct U32s<'a>(&'a [u8]);

impl<'a> U32s<'a> {
    /// Number of values.
    pub fn len(&self) -> usize {
        self.0.len() / 4
    }

    /// Whether there are no values.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Value `index`, if in range.
    pub fn get(&self, index: usize) -> Option<u32> {
        u32_at(self.0, index.checked_mul(4)?)
    }

    /// The values in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = u32> + use<'a> {
        self.0
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
    }

    /// The values, copied.
    pub fn to_vec(&self) -> Vec<u32> {
        self.iter().collect()
    }

    fn slice(&self, words: Range<usize>) -> U32s<'a> {
        U32s(&self.0[words.start * 4..words.end * 4])
    }

    /// The underlying little-endian bytes.
    pub fn bytes(&self) -> &'a [u8] {
        self.0
    }
}

impl<'a> KernelRecord<'a> {
    /// The record's fixed header (its layout: [`KernelHeader`]).
    pub fn header(&self) -> KernelHeader {
        let mut words = [0; KernelHeader::WORDS];
        for (i, word) in words.iter_mut().enumerate() {
            *word = self.words.get(i).unwrap_or(0);
        }
        KernelHeader::from_words(words)
    }
    /// Index of the kernel's name in the Kernels section (`PSEUDO_KERNEL_CODE`
    /// for the pseudo kernel).
    pub fn code(&self) -> u32 {
        self.header().code
    }
    /// Location offset of the kernel (may be virtual).
    pub fn location(&self) -> u32 {
        self.header().location
    }
    /// Number of argument registers.
    pub fn num_args(&self) -> usize {
        self.header().num_args as usize
    }
    /// Number of attributes.
    pub fn num_attributes(&self) -> usize {
        self.header().num_attributes as usize
    }
    /// Number of function references.
    pub fn num_functions(&self) -> usize {
        self.header().num_functions as usize
    }
    /// Number of results.
    pub fn num_results(&self) -> usize {
        self.header().num_results as usize
    }
    /// Argument registers, in operand order.
    pub fn args(&self) -> U32s<'a> {
        self.words.slice(self.header().args())
    }
    /// Offsets into the Attributes section.
    pub fn attributes(&self) -> U32s<'a> {
        self.words.slice(self.header().attributes())
    }
    /// Indices into the FunctionIndex.
    pub fn functions(&self) -> U32s<'a> {
        self.words.slice(self.header().functions())
    }
    /// Result registers.
    pub fn results(&self) -> U32s<'a> {
        self.words.slice(self.header().results())
    }
    /// Number of users of each result.
    pub fn num_used_by(&self) -> U32s<'a> {
        self.words.slice(self.header().used_by_counts())
    }
    /// Users of result `index` (kernel-table indices).
    pub fn used_by(&self, index: usize) -> U32s<'a> {
        let before: usize = self
            .num_used_by()
            .iter()
            .take(index)
            .map(|n| n as usize)
            .sum();
        let count = self.num_used_by().get(index).unwrap_or(0) as usize;
        let start = self.header().used_by_lists_start() + before;
        self.words.slice(start..start + count)
    }
    /// The record's bytes.
    pub fn bytes(&self) -> &'a [u8] {
        self.words.bytes()
    }
}

/// Number of words of the record at `words`, validated against its length.
fn record_words(words: U32s<'_>) -> Option<usize> {
    let mut header = [0; KernelHeader::WORDS];
    for (i, slot) in header.iter_mut().enumerate() {
        *slot = words.get(i)?;
    }
    let header = KernelHeader::from_words(header);
    let fixed = header.checked_fixed_words()?;
    if fixed > words.len() {
        return None;
    }
    let users = words
        .slice(header.used_by_counts())
        .iter()
        .try_fold(0usize, |acc, n| acc.checked_add(n as usize))?;
    let total = fixed.checked_add(users)?;
    (total <= words.len()).then_some(total)
}

/// Frames the section at `r`. A section cut short by the end of the data is
/// returned shortened to the bytes present, with the error; a header that
/// cannot be read gives only the error.
fn read_section(r: &mut Reader<'_>) -> (Option<SectionInfo>, Option<DecodeError>) {
    let header_offset = r.offset();
    let mut header = || {
        let id = r.u8("section id")?;
        let length_and_flag = r.vbr("section length")?;
        let alignment = if length_and_flag & 1 == 1 {
            let alignment = r.u8("section alignment")?;
            if !alignment.is_power_of_two() {
                return Err(DecodeError::new(
                    r.offset() - 1,
                    format!("section alignment {alignment} is not a power of two"),
                ));
            }
            r.align_to(usize::from(alignment), "section alignment padding")?;
            Some(alignment)
        } else {
            None
        };
        Ok((id, length_and_flag >> 1, alignment))
    };
    let (id, len, alignment) = match header() {
        Ok(header) => header,
        Err(e) => return (None, Some(e)),
    };
    let data_offset = r.offset();
    let name = SectionId::from_u8(id).map_or_else(
        || format!("section {id}"),
        |s| format!("{} section", s.name()),
    );
    let problem = match usize::try_from(len) {
        Ok(len_usize) => r.bytes(len_usize, &name).err(),
        Err(_) => Some(DecodeError::new(
            header_offset,
            format!("{name} length {len} is too large"),
        )),
    };
    let len = match problem {
        // Keep what is there: everything up to the end of the data.
        Some(_) => {
            let present = r.remaining();
            let _ = r.bytes(present, &name);
            present as u64
        }
        None => len,
    };
    let section = SectionInfo {
        id,
        header_offset,
        data_offset,
        len,
        alignment,
    };
    (Some(section), problem)
}

impl<'a> FunctionBody<'a> {
    /// Number of registers, function arguments included.
    pub fn num_registers(&self) -> usize {
        self.register_uses.len()
    }

    /// The record of kernel `index` (0 is the pseudo kernel).
    pub fn kernel(&self, index: usize) -> KernelRecord<'a> {
        let entry = self.kernels[index];
        let words = U32s(&self.kernel_list[entry.offset as usize..]);
        let len = record_words(words).unwrap_or(0);
        KernelRecord {
            words: words.slice(0..len),
            offset: self.kernel_list_offset + u64::from(entry.offset),
        }
    }

    /// The kernel records in kernel-table order, pseudo kernel first.
    pub fn kernel_records(&self) -> impl Iterator<Item = KernelRecord<'a>> + '_ {
        (0..self.kernels.len()).map(|i| self.kernel(i))
    }
}

/// A parsed BEF file borrowing its bytes.
pub struct BefFile<'a> {
    bytes: &'a [u8],
    sections: Vec<SectionInfo>,
    known: [Option<usize>; SectionId::ALL.len()],
    functions: Vec<FunctionEntry<'a>>,
    function_types: Vec<u32>,
    /// End (exclusive, section-relative) of each function's bytes.
    function_ends: Vec<u64>,
    bodies: Vec<OnceLock<DecodeResult<FunctionBody<'a>>>>,
    kernel_names: OnceLock<DecodeResult<Vec<&'a str>>>,
    type_names: OnceLock<DecodeResult<Vec<&'a str>>>,
    pub(super) attribute_types: OnceLock<DecodeResult<Option<AttributeTable>>>,
}

/// The AttributeTypes section: (offset, type) of every attribute.
pub type AttributeTable = Vec<(u32, AttrType)>;

/// Attribute names per kernel (`[kernel][attribute]`) of one function.
pub type KernelAttributeNames<'a> = Vec<Vec<&'a str>>;

impl std::fmt::Debug for BefFile<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BefFile")
            .field("len", &self.bytes.len())
            .field("sections", &self.sections)
            .field("functions", &self.functions.len())
            .finish()
    }
}

impl<'a> BefFile<'a> {
    /// Parses the header, the section table and the function index. The
    /// buffer must start at an 8-byte-aligned address, as the reference
    /// loader requires (attributes are aligned relative to it).
    pub fn open(bytes: &'a [u8]) -> DecodeResult<BefFile<'a>> {
        let (file, mut problems) = BefFile::open_lenient(bytes)?;
        if problems.is_empty() {
            Ok(file)
        } else {
            Err(problems.swap_remove(0))
        }
    }

    /// Opens a possibly damaged file, for tools that list what they can:
    /// fails only when the bytes are not a BEF file at all (misaligned
    /// buffer, wrong magic or version). Framing stops at the first section
    /// that cannot be framed (a section cut short by the end of the file is
    /// kept, shortened to the bytes present); a second section with a known
    /// id is kept in [`sections`](Self::sections) but not used; the function
    /// index keeps the entries read before the first bad one. The problems
    /// are returned in file order; [`open`](Self::open) fails with the first.
    pub fn open_lenient(bytes: &'a [u8]) -> DecodeResult<(BefFile<'a>, Vec<DecodeError>)> {
        if !(bytes.as_ptr() as usize).is_multiple_of(8) {
            return Err(DecodeError::new(
                0,
                "BEF buffer is not 8-byte aligned (copy it into an aligned buffer)",
            ));
        }
        let mut r = Reader::new(bytes, 0);
        let magic = r.bytes(2, "BEF magic number")?;
        if magic != MAGIC {
            return Err(DecodeError::new(
                0,
                format!(
                    "not a BEF file: magic {:02x} {:02x}, expected 0b ef",
                    magic[0], magic[1]
                ),
            ));
        }
        let version = r.u8("BEF version")?;
        if version != VERSION {
            return Err(DecodeError::new(
                2,
                format!("unsupported BEF version {version}"),
            ));
        }
        let mut problems = Vec::new();
        let mut sections = Vec::new();
        let mut known = [None; SectionId::ALL.len()];
        while !r.is_empty() {
            let (section, problem) = read_section(&mut r);
            let stop = problem.is_some();
            problems.extend(problem);
            let Some(section) = section else { break };
            if let Some(id) = section.known() {
                if known[id.index()].is_some() {
                    problems.push(DecodeError::new(
                        section.header_offset,
                        format!("duplicate {} section", id.name()),
                    ));
                } else {
                    known[id.index()] = Some(sections.len());
                }
            }
            sections.push(section);
            if stop {
                break;
            }
        }
        let mut file = BefFile {
            bytes,
            sections,
            known,
            functions: Vec::new(),
            function_types: Vec::new(),
            function_ends: Vec::new(),
            bodies: Vec::new(),
            kernel_names: OnceLock::new(),
            type_names: OnceLock::new(),
            attribute_types: OnceLock::new(),
        };
        problems.extend(file.read_function_index().err());
        Ok((file, problems))
    }

    /// Reads the function index, keeping the entries before the first bad
    /// one.
    fn read_function_index(&mut self) -> DecodeResult<()> {
        let mut functions = Vec::new();
        let result = self.read_function_entries(&mut functions);
        let functions_len = self.section_data(SectionId::Functions).len() as u64;
        let mut starts: Vec<u64> = functions
            .iter()
            .filter(|f| f.kind.has_body())
            .map(|f| f.offset)
            .collect();
        starts.sort_unstable();
        starts.dedup();
        self.function_ends = functions
            .iter()
            .map(|f| {
                let next = starts.partition_point(|&s| s <= f.offset);
                starts.get(next).copied().unwrap_or(functions_len)
            })
            .collect();
        self.bodies = (0..functions.len()).map(|_| OnceLock::new()).collect();
        self.functions = functions;
        result
    }

    fn read_function_entries(
        &mut self,
        functions: &mut Vec<FunctionEntry<'a>>,
    ) -> DecodeResult<()> {
        let (data, base) = self.section_with_base(SectionId::FunctionIndex);
        let mut r = Reader::new(data, base);
        if data.is_empty() {
            return Ok(());
        }
        // An entry takes at least 5 bytes: kind, offset, name, two counts.
        let count = r.count("function count", 5)?;
        functions.reserve_exact(count);
        for _ in 0..count {
            let entry_offset = r.offset();
            let kind_byte = r.u8("function kind")?;
            let kind = FunctionKind::from_u8(kind_byte).ok_or_else(|| {
                DecodeError::new(entry_offset, format!("unknown function kind {kind_byte}"))
            })?;
            let offset = r.vbr("function offset")?;
            let name_at = r.offset();
            let name_offset = r.vbr("function name offset")?;
            let name = self
                .string(name_offset)
                .map_err(|e| DecodeError::new(name_at, e.message))?;
            let mut types = |r: &mut Reader<'a>, what: &str| -> DecodeResult<Range<usize>> {
                let n = r.count(what, 1)?;
                let start = self.function_types.len();
                for _ in 0..n {
                    self.function_types.push(r.vbr_u32("type index")?);
                }
                Ok(start..self.function_types.len())
            };
            let arguments_at = r.offset();
            let arg_types = types(&mut r, "argument count")?;
            let results_at = r.offset();
            let result_types = types(&mut r, "result count")?;
            functions.push(FunctionEntry {
                kind,
                offset,
                name,
                name_offset,
                entry_offset,
                layout: EntryLayout {
                    name: name_at,
                    arguments: arguments_at,
                    results: results_at,
                    end: r.offset(),
                },
                arg_types,
                result_types,
            });
        }
        r.expect_end("FunctionIndex section")
    }

    /// The whole file.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// Every section in file order, unknown ones included.
    pub fn sections(&self) -> &[SectionInfo] {
        &self.sections
    }

    /// The section with standard id `id`, if present.
    pub fn section(&self, id: SectionId) -> Option<&SectionInfo> {
        self.known[id.index()].map(|i| &self.sections[i])
    }

    /// The data of a section; empty when the section is absent.
    pub fn section_data(&self, id: SectionId) -> &'a [u8] {
        self.section_with_base(id).0
    }

    pub(super) fn section_with_base(&self, id: SectionId) -> (&'a [u8], u64) {
        match self.section(id) {
            Some(s) => (&self.bytes[s.range()], s.data_offset),
            None => (&[], self.bytes.len() as u64),
        }
    }

    fn section_base(&self, id: SectionId) -> u64 {
        self.section_with_base(id).1
    }

    /// The string at `offset` of the Strings section.
    pub fn string(&self, offset: u64) -> DecodeResult<&'a str> {
        let (data, base) = self.section_with_base(SectionId::Strings);
        c_string_at(data, offset, base, "string")
    }

    /// Reads the Kernels or Types section as far as it goes, with the offset
    /// of every entry. An empty or absent section is an empty table.
    pub fn read_name_table(&self, id: SectionId) -> NameTable<'a> {
        let (data, base) = self.section_with_base(id);
        let what = match id {
            SectionId::Kernels => "kernel",
            _ => "type",
        };
        let mut table = NameTable {
            count: base..base,
            entries: Vec::new(),
            end: base,
            error: None,
        };
        if data.is_empty() {
            return table;
        }
        let mut r = Reader::new(data, base);
        let result = (|| {
            let count = r.count(&format!("{what} count"), 1)?;
            table.count.end = r.offset();
            table.entries.reserve_exact(count);
            for _ in 0..count {
                let at = r.offset();
                let string_offset = r.vbr(&format!("{what} name offset"))?;
                table.entries.push(NameEntry {
                    at,
                    string_offset,
                    name: self.string(string_offset).ok(),
                });
                table.end = r.offset();
            }
            r.expect_end(&format!("{} section", id.name()))
        })();
        table.error = result.err();
        table
    }

    fn name_table(&self, id: SectionId) -> DecodeResult<Vec<&'a str>> {
        let table = self.read_name_table(id);
        table
            .entries
            .iter()
            .map(|entry| {
                entry.name.ok_or_else(|| {
                    let e = self.string(entry.string_offset).err();
                    let message = e.map_or_else(String::new, |e| e.message);
                    DecodeError::new(entry.at, message)
                })
            })
            .chain(table.error.map(Err))
            .collect()
    }

    /// Kernel names; kernel code N is the Nth.
    pub fn kernel_names(&self) -> DecodeResult<&[&'a str]> {
        self.kernel_names
            .get_or_init(|| self.name_table(SectionId::Kernels))
            .as_deref()
            .map_err(Clone::clone)
    }

    /// Type names; type index N is the Nth.
    pub fn type_names(&self) -> DecodeResult<&[&'a str]> {
        self.type_names
            .get_or_init(|| self.name_table(SectionId::Types))
            .as_deref()
            .map_err(Clone::clone)
    }

    /// The FunctionIndex entries, in index order.
    pub fn functions(&self) -> &[FunctionEntry<'a>] {
        &self.functions
    }

    /// Type indices of the arguments of function `index`.
    pub fn function_arg_types(&self, index: usize) -> &[u32] {
        &self.function_types[self.functions[index].arg_types.clone()]
    }

    /// Type indices of the results of function `index`.
    pub fn function_result_types(&self, index: usize) -> &[u32] {
        &self.function_types[self.functions[index].result_types.clone()]
    }

    /// Finds a function by name (the first one, if names repeat).
    pub fn function_named(&self, name: &str) -> Option<usize> {
        self.functions.iter().position(|f| f.name == name)
    }

    /// The decoded tables of function `index`, decoded on first use.
    pub fn body(&self, index: usize) -> DecodeResult<&FunctionBody<'a>> {
        let entry = self.functions.get(index).ok_or_else(|| {
            DecodeError::new(
                self.section_base(SectionId::FunctionIndex),
                format!("function index {index} is out of range"),
            )
        })?;
        if !entry.kind.has_body() {
            return Err(DecodeError::new(
                entry.entry_offset,
                format!("function '{}' is native and has no body", entry.name),
            ));
        }
        self.bodies[index]
            .get_or_init(|| self.decode_body(index))
            .as_ref()
            .map_err(Clone::clone)
    }

    fn decode_body(&self, index: usize) -> DecodeResult<FunctionBody<'a>> {
        let (body, problem) = self.read_body_impl(index, None, false)?;
        match problem {
            Some(problem) => Err(problem),
            None => Ok(body),
        }
    }

    /// Decodes the tables of function `index` without caching them, as far
    /// as they go, for tools that list damaged files: returns the body with
    /// what was read before the first problem, and that problem. Kernels
    /// whose record cannot be read, and those after them, are left out of
    /// the body's kernel table (`layout` still lists their rows). Fails when
    /// there is no body to read (native function, index or offset out of
    /// range). A body that runs past the end of a Functions section cut
    /// short by the end of the file is read up to there. When `layout` is
    /// given, it receives where each part lies.
    pub fn read_body(
        &self,
        index: usize,
        layout: Option<&mut BodyLayout>,
    ) -> DecodeResult<(FunctionBody<'a>, Option<DecodeError>)> {
        self.read_body_impl(index, layout, true)
    }

    fn read_body_impl(
        &self,
        index: usize,
        mut layout: Option<&mut BodyLayout>,
        to_section_end: bool,
    ) -> DecodeResult<(FunctionBody<'a>, Option<DecodeError>)> {
        let entry = self.functions.get(index).ok_or_else(|| {
            DecodeError::new(
                self.section_base(SectionId::FunctionIndex),
                format!("function index {index} is out of range"),
            )
        })?;
        if !entry.kind.has_body() {
            return Err(DecodeError::new(
                entry.entry_offset,
                format!("function '{}' is native and has no body", entry.name),
            ));
        }
        let (data, base) = self.section_with_base(SectionId::Functions);
        let mut end = self.function_ends[index] as usize;
        if to_section_end {
            end = end.min(data.len());
        }
        let start = usize::try_from(entry.offset)
            .ok()
            .filter(|&start| start < end && end <= data.len())
            .ok_or_else(|| {
                DecodeError::new(
                    entry.entry_offset,
                    format!(
                        "function '{}' offset {:#x} is outside the {}-byte Functions section",
                        entry.name,
                        entry.offset,
                        data.len()
                    ),
                )
            })?;
        let mut body = FunctionBody {
            location: 0,
            register_uses: Vec::new(),
            kernels: Vec::new(),
            results: Vec::new(),
            offset: base + start as u64,
            kernel_list_offset: base + end as u64,
            kernel_list: &[],
        };
        if let Some(layout) = layout.as_deref_mut() {
            *layout = BodyLayout::default();
        }
        // Relative positions in `r` are function-relative; the kernel list is
        // aligned relative to the section, so track the absolute start.
        let mut r = Reader::new(&data[start..end], base + start as u64);
        let problem = (|| {
            let mark = |r: &Reader<'_>, at: u64| at..r.offset();
            let at = r.offset();
            body.location = r.vbr("function location")?;
            let location = mark(&r, at);
            let at = r.offset();
            let num_registers = r.count("register count", 1)?;
            let register_count = mark(&r, at);
            if let Some(l) = layout.as_deref_mut() {
                l.location = location;
                l.register_count = register_count;
                l.register_uses.reserve_exact(num_registers);
            }
            body.register_uses.reserve_exact(num_registers);
            for _ in 0..num_registers {
                let at = r.offset();
                body.register_uses.push(r.vbr_u32("register use count")?);
                if let Some(l) = layout.as_deref_mut() {
                    l.register_uses.push(mark(&r, at));
                }
            }
            let at = r.offset();
            let num_kernels = r.count("kernel count", 3)?;
            if let Some(l) = layout.as_deref_mut() {
                l.kernel_count = mark(&r, at);
                l.kernel_table.reserve_exact(num_kernels);
            }
            let kernels = read_kernel_table(&mut r, num_kernels, layout.as_deref_mut())?;
            let num_results = entry.result_types.len();
            body.results.reserve_exact(num_results.min(r.remaining()));
            for _ in 0..num_results {
                let at = r.offset();
                body.results.push(r.vbr_u32("result register")?);
                if let Some(l) = layout.as_deref_mut() {
                    l.results.push(mark(&r, at));
                }
            }
            let list_start = (start + r.position()).next_multiple_of(KERNEL_ALIGNMENT);
            let list_start = list_start.min(end);
            body.kernel_list = &data[list_start..end];
            body.kernel_list_offset = base + list_start as u64;
            if let Some(l) = layout.as_deref_mut() {
                l.padding = r.offset()..body.kernel_list_offset;
                l.kernel_list = body.kernel_list_offset..base + end as u64;
            }
            body.kernels = kernels;
            check_records_fit(&mut body, entry.name)
        })()
        .err();
        Ok((body, problem))
    }

    /// Decodes the attribute of type `ty` at `offset` of the Attributes section.
    pub fn attribute(&self, offset: u32, ty: AttrType) -> DecodeResult<Attribute> {
        let (data, base) = self.section_with_base(SectionId::Attributes);
        decode_attribute(data, base, offset as usize, ty)
    }

    /// A decoder of the Locations section (with its LocationStrings).
    pub fn location_decoder(&self) -> LocationDecoder<'a> {
        let (locations, locations_base) = self.section_with_base(SectionId::Locations);
        let (strings, strings_base) = self.section_with_base(SectionId::LocationStrings);
        LocationDecoder {
            locations,
            locations_base,
            strings,
            strings_base,
        }
    }

    /// The location at a kernel's or function's location offset; `None` for
    /// virtual offsets.
    pub fn location(&self, offset: u64) -> DecodeResult<Option<Location>> {
        let len = self.section_data(SectionId::Locations).len() as u64;
        if offset >= len && offset >= FIRST_VIRTUAL_LOCATION {
            return Ok(None);
        }
        self.location_decoder().decode_at(offset).map(Some)
    }
}

/// Reads a function body's kernel table of `num_kernels` entries, with
/// each field's byte range into `layout`.
fn read_kernel_table(
    r: &mut Reader<'_>,
    num_kernels: usize,
    mut layout: Option<&mut BodyLayout>,
) -> DecodeResult<Vec<KernelEntry>> {
    let mark = |r: &Reader<'_>, at: u64| at..r.offset();
    let mut kernels = Vec::with_capacity(num_kernels);
    for _ in 0..num_kernels {
        let at = r.offset();
        let offset = r.vbr("kernel offset")?;
        let offset = u32::try_from(offset)
            .ok()
            .filter(|o| (*o as usize).is_multiple_of(KERNEL_ALIGNMENT))
            .ok_or_else(|| {
                DecodeError::new(
                    at,
                    format!("kernel offset {offset} is not a 4-byte-aligned 32-bit value"),
                )
            })?;
        let operands_at = r.offset();
        let num_operands = r.vbr_u32("kernel operand count")?;
        let stream_at = r.offset();
        let stream_id = r.vbr("stream id")?;
        let kernel = KernelEntry {
            offset,
            num_operands,
            stream_id,
        };
        kernels.push(kernel);
        if let Some(l) = layout.as_deref_mut() {
            l.kernel_table.push(KernelTableRow {
                entry: kernel,
                offset: at..operands_at,
                num_operands: operands_at..stream_at,
                stream_id: mark(r, stream_at),
            });
        }
    }
    Ok(kernels)
}

/// Checks that every kernel of `body` has a whole record in its kernel
/// list; the kernels from the first that does not are dropped from
/// `body`, so that what is kept can be listed.
fn check_records_fit(body: &mut FunctionBody<'_>, function: &str) -> DecodeResult<()> {
    let unusable = body.kernels.iter().position(|k| {
        let words = U32s(
            body.kernel_list
                .get(k.offset as usize..)
                .unwrap_or_default(),
        );
        record_words(words).is_none()
    });
    let Some(i) = unusable else {
        return Ok(());
    };
    // The record's offset, or the end of the list it is past.
    let offset = (body.kernels[i].offset as usize).min(body.kernel_list.len());
    let at = body.kernel_list_offset + offset as u64;
    body.kernels.truncate(i);
    Err(DecodeError::new(
        at,
        format!("kernel {i} of function '{function}' runs past the end of the function"),
    ))
}
