//! The interface between the attribute/type table and the builtin
//! dialect's custom encodings: what a decoder may ask the reader for (and
//! how it says that an entry it needs is not decoded yet), and what an
//! encoder hands to the writer (which either numbers or emits it).

use std::sync::Arc;

use super::error::BytecodeError;
use crate::ir::{Attribute, Location, Type};

/// An attribute or type entry another entry depends on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryRef {
    Attr(usize),
    Type(usize),
}

#[derive(Debug)]
pub enum DecodeFailure {
    /// The entry needs this one first: decode it, then retry.
    Missing(EntryRef),
    Error(BytecodeError),
}

impl From<BytecodeError> for DecodeFailure {
    fn from(e: BytecodeError) -> DecodeFailure {
        DecodeFailure::Error(e)
    }
}

pub type Decoded<T> = std::result::Result<T, DecodeFailure>;

/// What a custom decoder can look up; `at` is the offset of the index
/// being resolved, for errors.
pub trait EntryLookup {
    fn attribute(&self, index: u64, at: usize) -> Decoded<Attribute>;
    /// The string attribute `index` as a location's file name; a reader
    /// shares one allocation between the many locations naming a file.
    fn file_name(&self, index: u64, at: usize) -> Decoded<Arc<str>>;
    fn type_(&self, index: u64, at: usize) -> Decoded<Type>;
    fn string(&self, index: u64, at: usize) -> Decoded<&[u8]>;
    /// The key of dialect resource `index` (`dense_resource` handles).
    fn resource(&self, index: u64, at: usize) -> Decoded<String>;
}

/// Where a custom encoder writes. The numbering pass implements it to
/// discover nested entries in the order upstream does; the emitting pass
/// to write bytes.
pub trait EntrySink {
    fn varint(&mut self, value: u64);
    fn signed_varint(&mut self, value: i64);
    fn byte(&mut self, value: u8);
    /// varint length, then the bytes.
    fn blob(&mut self, data: &[u8]);
    /// An index into the string section.
    fn string(&mut self, s: &[u8]);
    fn attribute(&mut self, attr: &Attribute);
    fn location(&mut self, loc: &Location);
    /// A location's file name, written as a string attribute. Sinks
    /// remember it by its shared allocation: every location of a file
    /// names it.
    fn file_name(&mut self, file: &Arc<str>);
    fn type_(&mut self, ty: &Type);
    /// A `builtin` dialect resource handle.
    fn resource(&mut self, key: &str);
}
