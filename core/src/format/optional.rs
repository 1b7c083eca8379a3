//! The optional sections (AttributeTypes, AttributeNames, RegisterTypes):
//! strict readers for the loader and the decoder, and lenient ones that
//! keep what they read before any damage, with the offset of every entry,
//! for tools that list files. The per-function sections are read one
//! function at a time through a [`FunctionCursor`], so that a tool listing
//! function N reads only as far as function N.

use std::ops::Range;

use super::constants::SectionId;
use super::dtype::AttrType;
use super::error::{DecodeError, DecodeResult};
use super::file::{BefFile, KernelAttributeNames};
use super::reader::Reader;

/// The AttributeTypes section as read by [`BefFile::read_attribute_types`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttributeTypeTable {
    /// The entry count.
    pub count: Range<u64>,
    /// The entries read, in increasing attribute offset.
    pub entries: Vec<AttributeTypeEntry>,
    /// Just past the last entry read.
    pub end: u64,
    /// Why reading stopped before the end of the section, if it did.
    pub error: Option<DecodeError>,
}

impl AttributeTypeTable {
    /// The bytes of entry `index`.
    pub fn entry_range(&self, index: usize) -> Range<u64> {
        let end = self.entries.get(index + 1).map_or(self.end, |e| e.at);
        self.entries[index].at..end
    }
}

/// One entry of the AttributeTypes section.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttributeTypeEntry {
    /// Absolute offset of the entry.
    pub at: u64,
    /// Offset of the attribute in the Attributes section.
    pub offset: u32,
    /// Its type.
    pub ty: AttrType,
}

/// Where reading AttributeNames or RegisterTypes stands: the next function
/// to read and the position of its entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionCursor {
    id: SectionId,
    /// Position relative to the section start.
    position: usize,
    /// The next function index to consider.
    function: usize,
    /// The function count at the section start.
    count: Range<u64>,
    finished: bool,
}

impl FunctionCursor {
    /// The function count at the start of the section.
    pub fn count_range(&self) -> Range<u64> {
        self.count.clone()
    }

    /// The next function the cursor will read (natives are skipped).
    pub fn next_function(&self) -> usize {
        self.function
    }

    /// Whether the section has been read to its end or to a problem.
    pub fn is_finished(&self) -> bool {
        self.finished
    }
}

/// The entry of one function in the AttributeNames section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionAttributeNames<'a> {
    /// The function (an index into the FunctionIndex).
    pub function: usize,
    /// The kernel count.
    pub kernel_count: Range<u64>,
    /// Every name, kernel after kernel.
    pub names: Vec<AttributeNameEntry<'a>>,
    /// Where each kernel's names start in `names`, and a last element
    /// `names.len()`.
    pub kernel_starts: Vec<usize>,
    /// Just past the entry.
    pub end: u64,
}

impl<'a> FunctionAttributeNames<'a> {
    /// The whole entry.
    pub fn range(&self) -> Range<u64> {
        self.kernel_count.start..self.end
    }

    /// The names of kernel `kernel`'s attributes (empty past the last
    /// kernel).
    pub fn kernel(&self, kernel: usize) -> &[AttributeNameEntry<'a>] {
        match (
            self.kernel_starts.get(kernel),
            self.kernel_starts.get(kernel + 1),
        ) {
            (Some(&start), Some(&end)) => &self.names[start..end],
            _ => &[],
        }
    }

    /// The bytes of name `index` of `names`.
    pub fn name_range(&self, index: usize) -> Range<u64> {
        let end = self.names.get(index + 1).map_or(self.end, |e| e.at);
        self.names[index].at..end
    }
}

/// One attribute name in the AttributeNames section.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttributeNameEntry<'a> {
    /// Absolute offset of the entry.
    pub at: u64,
    /// Offset of the name in the Strings section.
    pub string_offset: u64,
    /// The name; `None` when `string_offset` is not the start of a valid
    /// string ([`BefFile::string`] says why).
    pub name: Option<&'a str>,
}

/// The entry of one function in the RegisterTypes section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionRegisterTypes {
    /// The function (an index into the FunctionIndex).
    pub function: usize,
    /// The register count.
    pub count: Range<u64>,
    /// A type index per register.
    pub types: Vec<u32>,
    /// Absolute offset of each type index.
    pub starts: Vec<u64>,
    /// Just past the entry.
    pub end: u64,
}

impl FunctionRegisterTypes {
    /// The whole entry.
    pub fn range(&self) -> Range<u64> {
        self.count.start..self.end
    }

    /// The bytes of register `index`'s type.
    pub fn type_range(&self, index: usize) -> Range<u64> {
        let end = self.starts.get(index + 1).copied().unwrap_or(self.end);
        self.starts[index]..end
    }
}

impl<'a> BefFile<'a> {
    /// The AttributeTypes section as (offset, type) pairs, if present.
    pub fn attribute_types(&self) -> DecodeResult<Option<&[(u32, AttrType)]>> {
        let parsed = self.attribute_types.get_or_init(|| {
            let Some(table) = self.read_attribute_types() else {
                return Ok(None);
            };
            if let Some(error) = table.error {
                return Err(error);
            }
            Ok(Some(
                table.entries.iter().map(|e| (e.offset, e.ty)).collect(),
            ))
        });
        parsed.as_ref().map(Option::as_deref).map_err(Clone::clone)
    }

    /// Reads the AttributeTypes section as far as it goes, with the offset
    /// of every entry; `None` when the section is absent. Reading stops at
    /// an entry that is not above the previous one, as attributes are
    /// looked up by offset.
    pub fn read_attribute_types(&self) -> Option<AttributeTypeTable> {
        self.section(SectionId::AttributeTypes)?;
        let (data, base) = self.section_with_base(SectionId::AttributeTypes);
        let mut r = Reader::new(data, base);
        let mut table = AttributeTypeTable {
            count: base..base,
            entries: Vec::new(),
            end: base,
            error: None,
        };
        let result = (|| {
            let count = r.count("attribute count", 2)?;
            table.count.end = r.offset();
            table.end = r.offset();
            table.entries.reserve_exact(count);
            let mut previous: Option<u32> = None;
            for _ in 0..count {
                let at = r.offset();
                let offset = r.vbr_u32("attribute offset")?;
                if previous.is_some_and(|p| p >= offset) {
                    return Err(DecodeError::new(
                        at,
                        format!("attribute offset {offset:#x} is not above the previous one"),
                    ));
                }
                previous = Some(offset);
                let ty = r.vbr("attribute type")?;
                let ty = u8::try_from(ty).map_err(|_| {
                    DecodeError::new(at, format!("attribute type {ty} is not a byte"))
                })?;
                table.entries.push(AttributeTypeEntry {
                    at,
                    offset,
                    ty: AttrType(ty),
                });
                table.end = r.offset();
            }
            r.expect_end("AttributeTypes section")
        })();
        table.error = result.err();
        Some(table)
    }

    /// Starts reading the AttributeNames (`id` =
    /// [`SectionId::AttributeNames`]) or RegisterTypes section one function
    /// at a time: `None` when the section is absent, an error when its
    /// function count is unreadable or differs from the FunctionIndex's.
    pub fn function_cursor(&self, id: SectionId) -> Option<DecodeResult<FunctionCursor>> {
        self.section(id)?;
        let (data, base) = self.section_with_base(id);
        let mut r = Reader::new(data, base);
        let at = r.offset();
        let count = match r.vbr("function count") {
            Ok(count) => count,
            Err(e) => return Some(Err(e)),
        };
        if count != self.functions().len() as u64 {
            return Some(Err(DecodeError::new(
                at,
                format!(
                    "{} lists {count} functions but the FunctionIndex has {}",
                    id.name(),
                    self.functions().len()
                ),
            )));
        }
        Some(Ok(FunctionCursor {
            id,
            position: r.position(),
            function: 0,
            count: at..r.offset(),
            finished: false,
        }))
    }

    /// Moves `cursor` to the next function with a body and the reader to its
    /// entry; `None` at the end of the section (checking that nothing
    /// follows the last entry) or after a problem.
    fn advance(&self, cursor: &mut FunctionCursor) -> Option<DecodeResult<(usize, Reader<'a>)>> {
        if cursor.finished {
            return None;
        }
        let functions = self.functions();
        while cursor.function < functions.len() && !functions[cursor.function].kind.has_body() {
            cursor.function += 1;
        }
        let (data, base) = self.section_with_base(cursor.id);
        let rest = data.get(cursor.position..).unwrap_or_default();
        let r = Reader::new(rest, base + cursor.position as u64);
        if cursor.function == functions.len() {
            cursor.finished = true;
            let section = format!("{} section", cursor.id.name());
            return r.expect_end(&section).err().map(Err);
        }
        Some(Ok((cursor.function, r)))
    }

    /// Records where `r` stopped, or that the section is finished.
    fn settle<T>(cursor: &mut FunctionCursor, r: &Reader<'_>, result: &DecodeResult<T>) {
        match result {
            Ok(_) => {
                cursor.position += r.position();
                cursor.function += 1;
            }
            Err(_) => cursor.finished = true,
        }
    }

    /// Reads the AttributeNames entry of the next function with a body.
    /// Needs that function's body (the attribute count of each kernel).
    pub fn next_attribute_names(
        &self,
        cursor: &mut FunctionCursor,
    ) -> Option<DecodeResult<FunctionAttributeNames<'a>>> {
        debug_assert_eq!(cursor.id, SectionId::AttributeNames);
        let (function, mut r) = match self.advance(cursor)? {
            Ok(next) => next,
            Err(e) => return Some(Err(e)),
        };
        let result = (|| {
            let body = self.body(function)?;
            let at = r.offset();
            let count = r.count("kernel count", 0)?;
            if count != body.kernels.len() {
                return Err(DecodeError::new(
                    at,
                    format!(
                        "AttributeNames lists {count} kernels for function '{}' which has {}",
                        self.functions()[function].name,
                        body.kernels.len()
                    ),
                ));
            }
            let mut entry = FunctionAttributeNames {
                function,
                kernel_count: at..r.offset(),
                names: Vec::new(),
                kernel_starts: Vec::with_capacity(count + 1),
                end: r.offset(),
            };
            for kernel in body.kernel_records() {
                entry.kernel_starts.push(entry.names.len());
                for _ in 0..kernel.num_attributes() {
                    let at = r.offset();
                    let string_offset = r.vbr("attribute name offset")?;
                    entry.names.push(AttributeNameEntry {
                        at,
                        string_offset,
                        name: self.string(string_offset).ok(),
                    });
                }
            }
            entry.kernel_starts.push(entry.names.len());
            entry.end = r.offset();
            Ok(entry)
        })();
        Self::settle(cursor, &r, &result);
        Some(result)
    }

    /// Reads the RegisterTypes entry of the next function with a body.
    pub fn next_register_types(
        &self,
        cursor: &mut FunctionCursor,
    ) -> Option<DecodeResult<FunctionRegisterTypes>> {
        debug_assert_eq!(cursor.id, SectionId::RegisterTypes);
        let (function, mut r) = match self.advance(cursor)? {
            Ok(next) => next,
            Err(e) => return Some(Err(e)),
        };
        let result = (|| {
            let at = r.offset();
            let count = r.count("register count", 1)?;
            let mut entry = FunctionRegisterTypes {
                function,
                count: at..r.offset(),
                types: Vec::with_capacity(count),
                starts: Vec::with_capacity(count),
                end: r.offset(),
            };
            for _ in 0..count {
                entry.starts.push(r.offset());
                entry.types.push(r.vbr_u32("register type")?);
            }
            entry.end = r.offset();
            Ok(entry)
        })();
        Self::settle(cursor, &r, &result);
        Some(result)
    }

    /// Parses the AttributeNames section: per function with a body, per
    /// kernel, the names of its attributes. Entries of native functions are
    /// absent (the reference writer counts them but writes nothing).
    pub fn attribute_names(&self) -> DecodeResult<Option<Vec<Option<KernelAttributeNames<'a>>>>> {
        let Some(cursor) = self.function_cursor(SectionId::AttributeNames) else {
            return Ok(None);
        };
        let mut cursor = cursor?;
        let mut all = vec![None; self.functions().len()];
        while let Some(entry) = self.next_attribute_names(&mut cursor) {
            let entry = entry?;
            let mut kernels = Vec::with_capacity(entry.kernel_starts.len().saturating_sub(1));
            for window in entry.kernel_starts.windows(2) {
                let names = entry.names[window[0]..window[1]]
                    .iter()
                    .map(|name| {
                        name.name.ok_or_else(|| {
                            let e = self.string(name.string_offset).err();
                            DecodeError::new(name.at, e.map_or_else(String::new, |e| e.message))
                        })
                    })
                    .collect::<DecodeResult<Vec<_>>>()?;
                kernels.push(names);
            }
            all[entry.function] = Some(kernels);
        }
        Ok(Some(all))
    }

    /// Parses the RegisterTypes section: per function with a body, a type
    /// index per register.
    pub fn register_types(&self) -> DecodeResult<Option<Vec<Option<Vec<u32>>>>> {
        let Some(cursor) = self.function_cursor(SectionId::RegisterTypes) else {
            return Ok(None);
        };
        let mut cursor = cursor?;
        let mut all = vec![None; self.functions().len()];
        while let Some(entry) = self.next_register_types(&mut cursor) {
            let entry = entry?;
            all[entry.function] = Some(entry.types);
        }
        Ok(Some(all))
    }
}
