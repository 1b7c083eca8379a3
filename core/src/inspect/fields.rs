//! Fields: what each run of bytes of an item holds, for colouring a hex
//! view and for a data inspector.

use std::ops::Range;

use crate::format::LocationField;
use crate::format::reader::Reader;

use super::functions::Kernel;

/// What a field holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FieldKind {
    /// The magic number `0b ef`.
    Magic,
    /// The format version byte.
    Version,
    /// A section's id byte.
    SectionId,
    /// A section's length (and alignment flag).
    SectionLength,
    /// A section's alignment byte.
    SectionAlignment,
    /// Padding that aligns what follows.
    Padding,
    /// A count of the entries, registers, kernels, types or locations that
    /// follow.
    Count,
    /// The bytes of a string.
    StringText,
    /// The NUL byte ending a string.
    StringTerminator,
    /// An offset into the Strings or LocationStrings section.
    StringRef,
    /// The bytes of an attribute.
    AttributeBytes,
    /// An offset into the Attributes section.
    AttributeRef,
    /// An attribute type code.
    AttributeType,
    /// An index into the Types section.
    TypeRef,
    /// A function's kind byte.
    FunctionKind,
    /// The offset of a function's body in the Functions section.
    BodyOffset,
    /// An offset into the Locations section (or a virtual one).
    LocationRef,
    /// A register's use count.
    UseCount,
    /// The offset of a kernel record in the kernel list.
    KernelOffset,
    /// The operands a kernel waits for.
    OperandCount,
    /// A kernel's stream id.
    StreamId,
    /// A register a function returns.
    ReturnRegister,
    /// A kernel's code: an index into the Kernels section.
    KernelCode,
    /// A kernel record's argument count.
    ArgumentCount,
    /// A kernel record's attribute count.
    AttributeCount,
    /// A kernel record's function count.
    FunctionCount,
    /// A kernel record's result count.
    ResultCount,
    /// The number of users of a kernel result.
    UsedByCount,
    /// A register a kernel reads.
    ArgumentRegister,
    /// An index into the function index.
    FunctionRef,
    /// A register a kernel writes.
    ResultRegister,
    /// A kernel that uses a result (an index into the kernel table).
    UsedBy,
    /// The kind byte of a location.
    LocationKind,
    /// The line of a file location.
    Line,
    /// The column of a file location.
    Column,
}

impl FieldKind {
    /// A short description, for a data inspector.
    pub fn label(self) -> &'static str {
        match self {
            FieldKind::Magic => "magic number",
            FieldKind::Version => "format version",
            FieldKind::SectionId => "section id",
            FieldKind::SectionLength => "section length",
            FieldKind::SectionAlignment => "section alignment",
            FieldKind::Padding => "padding",
            FieldKind::Count => "count",
            FieldKind::StringText => "string",
            FieldKind::StringTerminator => "NUL terminator",
            FieldKind::StringRef => "string offset",
            FieldKind::AttributeBytes => "attribute value",
            FieldKind::AttributeRef => "attribute offset",
            FieldKind::AttributeType => "attribute type",
            FieldKind::TypeRef => "type index",
            FieldKind::FunctionKind => "function kind",
            FieldKind::BodyOffset => "body offset",
            FieldKind::LocationRef => "location offset",
            FieldKind::UseCount => "use count",
            FieldKind::KernelOffset => "kernel record offset",
            FieldKind::OperandCount => "operand count",
            FieldKind::StreamId => "stream id",
            FieldKind::ReturnRegister => "returned register",
            FieldKind::KernelCode => "kernel code",
            FieldKind::ArgumentCount => "argument count",
            FieldKind::AttributeCount => "attribute count",
            FieldKind::FunctionCount => "function count",
            FieldKind::ResultCount => "result count",
            FieldKind::UsedByCount => "user count",
            FieldKind::ArgumentRegister => "argument register",
            FieldKind::FunctionRef => "function index",
            FieldKind::ResultRegister => "result register",
            FieldKind::UsedBy => "user kernel",
            FieldKind::LocationKind => "location kind",
            FieldKind::Line => "line",
            FieldKind::Column => "column",
        }
    }
}

/// A field of an item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    /// What the field holds.
    pub kind: FieldKind,
    /// The position of the field among the fields of its kind in the item,
    /// for list elements (the third argument register, the second type);
    /// the user count of a result and its users share the result's
    /// position, users are numbered across all results.
    pub index: Option<usize>,
    /// The field's bytes.
    pub range: Range<usize>,
}

impl Field {
    pub(super) fn new(kind: FieldKind, range: Range<usize>) -> Field {
        Field {
            kind,
            index: None,
            range,
        }
    }

    pub(super) fn nth(kind: FieldKind, index: usize, range: Range<usize>) -> Field {
        Field {
            kind,
            index: Some(index),
            range,
        }
    }
}

/// Collects fields that overlap a window.
pub(super) struct Fields {
    window: Range<usize>,
    pub(super) out: Vec<Field>,
}

impl Fields {
    pub(super) fn new(window: Range<usize>) -> Fields {
        Fields {
            window,
            out: Vec::new(),
        }
    }

    pub(super) fn push(&mut self, field: Field) {
        let r = &field.range;
        if !r.is_empty() && r.start < self.window.end && self.window.start < r.end {
            self.out.push(field);
        }
    }

    /// A run of VBR integers: a count, then the elements, each of `kind`.
    pub(super) fn counted_vbrs(&mut self, bytes: &[u8], range: Range<usize>, kind: FieldKind) {
        let Some(data) = bytes.get(range.clone()) else {
            return;
        };
        let mut r = Reader::new(data, range.start as u64);
        let mut index = None;
        while !r.is_empty() {
            let at = r.offset() as usize;
            if r.vbr("field").is_err() {
                return;
            }
            let here = at..r.offset() as usize;
            match index {
                None => self.push(Field::new(FieldKind::Count, here)),
                Some(i) => self.push(Field::nth(kind, i, here)),
            }
            index = Some(index.map_or(0, |i| i + 1));
        }
    }

    /// Consecutive VBR integers of the given kinds.
    pub(super) fn vbrs(&mut self, bytes: &[u8], range: Range<usize>, kinds: &[FieldKind]) {
        let Some(data) = bytes.get(range.clone()) else {
            return;
        };
        let mut r = Reader::new(data, range.start as u64);
        for &kind in kinds {
            let at = r.offset() as usize;
            if r.vbr("field").is_err() {
                return;
            }
            self.push(Field::new(kind, at..r.offset() as usize));
        }
    }

    /// The words of a kernel record, only those in the window.
    pub(super) fn kernel(&mut self, kernel: &Kernel<'_>) {
        let header = [
            FieldKind::KernelCode,
            FieldKind::LocationRef,
            FieldKind::ArgumentCount,
            FieldKind::AttributeCount,
            FieldKind::FunctionCount,
            FieldKind::ResultCount,
        ];
        for (word, kind) in header.into_iter().enumerate() {
            self.push(Field::new(kind, kernel.word(word)));
        }
        let layout = kernel.header();
        let total_words = kernel.bytes().len() / 4;
        // Word ranges of each list, in record order.
        let users = layout.used_by_lists_start();
        let lists = [
            (FieldKind::UsedByCount, layout.used_by_counts()),
            (FieldKind::ArgumentRegister, layout.args()),
            (FieldKind::AttributeRef, layout.attributes()),
            (FieldKind::FunctionRef, layout.functions()),
            (FieldKind::ResultRegister, layout.results()),
            (FieldKind::UsedBy, users..total_words.max(users)),
        ];
        // Only the words in the window: a record can be large.
        let first_word = self.window.start.saturating_sub(kernel.range.start) / 4;
        let last_word = self
            .window
            .end
            .saturating_sub(kernel.range.start)
            .div_ceil(4);
        for (kind, words) in lists {
            let (start, end) = (words.start, words.end);
            let from = first_word.clamp(start, end);
            let to = last_word.clamp(start, end);
            for word in from..to {
                self.push(Field::nth(kind, word - start, kernel.word(word)));
            }
        }
    }
}

/// The field kind of a part of a location record.
pub(super) fn location_field(field: LocationField) -> FieldKind {
    match field {
        LocationField::Kind => FieldKind::LocationKind,
        LocationField::String => FieldKind::StringRef,
        LocationField::Line => FieldKind::Line,
        LocationField::Column => FieldKind::Column,
        LocationField::Count => FieldKind::Count,
    }
}
