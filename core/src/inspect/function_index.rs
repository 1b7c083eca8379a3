//! The FunctionIndex section: one entry per function.

use std::ops::Range;

use crate::format::{BefFile, FunctionKind};

/// One entry of the function index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexEntry<'l> {
    /// Position in the function index, as kernels refer to functions.
    pub index: usize,
    /// How the function runs.
    pub kind: FunctionKind,
    /// The name (`""` for the anonymous functions of regions).
    pub name: &'l str,
    /// Offset of the name in the Strings section.
    pub name_offset: u64,
    /// Offset of the body in the Functions section (meaningless for
    /// native functions).
    pub body_offset: u64,
    /// Type indices of the arguments.
    pub argument_types: &'l [u32],
    /// Type indices of the results.
    pub result_types: &'l [u32],
    /// The whole entry.
    pub range: Range<usize>,
    /// The kind byte.
    pub kind_range: Range<usize>,
    /// The body offset.
    pub body_offset_range: Range<usize>,
    /// The name offset.
    pub name_range: Range<usize>,
    /// The argument count and argument types.
    pub arguments_range: Range<usize>,
    /// The result count and result types.
    pub results_range: Range<usize>,
}

impl<'l> IndexEntry<'l> {
    pub(super) fn new(file: &'l BefFile<'_>, index: usize) -> Option<IndexEntry<'l>> {
        let entry = file.functions().get(index)?;
        let at = entry.entry_offset as usize;
        let layout = entry.layout;
        let [name, arguments, results, end] =
            [layout.name, layout.arguments, layout.results, layout.end].map(|o| o as usize);
        Some(IndexEntry {
            index,
            kind: entry.kind,
            name: entry.name,
            name_offset: entry.name_offset,
            body_offset: entry.offset,
            argument_types: file.function_arg_types(index),
            result_types: file.function_result_types(index),
            range: at..end,
            kind_range: at..at + 1,
            body_offset_range: at + 1..name,
            name_range: name..arguments,
            arguments_range: arguments..results,
            results_range: results..end,
        })
    }
}
