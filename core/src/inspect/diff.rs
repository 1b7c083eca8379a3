//! The structural difference of two BEF files, for `bef diff` and
//! `befview A.bef B.bef`: what changed in the header, which sections one
//! file has and the other lacks, entries added to or removed from the
//! string, kernel, type and attribute tables, and functions added, removed
//! or changed, down to their kernels.
//!
//! Nothing here compares bytes: two files that list the same program are
//! equal however their tables are laid out. Functions are paired by name;
//! the anonymous functions of regions by the kernels that own them.
//! Kernels are aligned within a pair of functions by a longest common
//! subsequence, first of whole kernels (name, attributes, functions
//! called) and then, within what is left between two aligned kernels, of
//! kernel names, so that a kernel whose attribute changed shows as changed
//! rather than as removed and added. Operands are compared through the
//! alignment (register `%4` of one file is `%5` of the other when the
//! kernels producing them are aligned), so inserting a kernel does not make
//! every later one look changed. Locations are compared only on request:
//! editing a source file moves every later line.
//!
//! The alignment is quadratic, so its work is bounded: a function whose
//! kernels (after the common start and end are set aside) would need more
//! than [`FUNCTION_ALIGNMENT_CELLS`], or a file past its total budget, is
//! compared by position instead, and [`Diff::notes`] says which.

use std::collections::hash_map::DefaultHasher;
use std::collections::{HashMap, VecDeque};
use std::fmt::{self, Write as _};
use std::hash::Hasher;

use super::{Function, Kernel, Listing};
use crate::format::SectionId;

/// The most cells (kernels of one × kernels of the other) aligned for one
/// function; the table takes two bytes a cell.
pub const FUNCTION_ALIGNMENT_CELLS: u64 = 16 << 20;

/// The default total of cells aligned for a whole file.
pub const DEFAULT_ALIGNMENT_CELLS: u64 = 256 << 20;

/// How many characters of an attribute's value are shown (values are
/// compared whole).
const VALUE_SHOWN: usize = 120;

/// What to compare.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DiffOptions {
    /// Compare the locations of functions and kernels, and the
    /// LocationStrings table.
    pub locations: bool,
    /// Cells the kernel alignment may use over the whole file (see the
    /// [module documentation](self)).
    pub alignment_cells: u64,
}

impl Default for DiffOptions {
    fn default() -> Self {
        DiffOptions {
            locations: false,
            alignment_cells: DEFAULT_ALIGNMENT_CELLS,
        }
    }
}

/// One value that differs: what it is, and its text in each file.
#[cfg_attr(feature = "json", derive(serde::Serialize))]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldChange {
    /// What differs (`arguments`, `attributes`, a section's name, ...).
    pub field: String,
    /// The old file's value.
    pub old: String,
    /// The new file's value.
    pub new: String,
}

/// The entries of one table found in one file only (as many times as one
/// file has them more than the other).
#[cfg_attr(feature = "json", derive(serde::Serialize))]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableDiff {
    /// The section: `Strings`, `Kernels`, `Types`, `Attributes`,
    /// `LocationStrings`.
    pub table: &'static str,
    /// Entries only the old file has, in its order.
    pub removed: Vec<String>,
    /// Entries only the new file has, in its order.
    pub added: Vec<String>,
}

/// Whether a function or kernel was removed, added or changed.
#[cfg_attr(feature = "json", derive(serde::Serialize))]
#[cfg_attr(feature = "json", serde(rename_all = "lowercase"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Only in the old file.
    Removed,
    /// Only in the new file.
    Added,
    /// In both, different.
    Changed,
}

/// A function that differs.
#[cfg_attr(feature = "json", derive(serde::Serialize))]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionDiff {
    /// `@name`, or the region an anonymous function holds.
    pub name: String,
    /// Removed, added or changed.
    pub status: Status,
    /// Its position in the old file's function index.
    pub old: Option<usize>,
    /// Its position in the new file's function index.
    pub new: Option<usize>,
    /// Kind, types and kernel count, for a function in one file only.
    pub summary: Option<String>,
    /// Differences of the function itself: kind, arguments, results,
    /// signature, returned registers, location.
    pub fields: Vec<FieldChange>,
    /// Kernels removed, added or changed, in kernel order.
    pub kernels: Vec<KernelDiff>,
}

/// A kernel that differs.
#[cfg_attr(feature = "json", derive(serde::Serialize))]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelDiff {
    /// Removed, added or changed.
    pub status: Status,
    /// Its position in the old function's kernel table.
    pub old: Option<usize>,
    /// Its position in the new function's kernel table.
    pub new: Option<usize>,
    /// The kernel as one line (`%3 = tfrt.add.i32(%1, %2)`), from the new
    /// file unless it was removed.
    pub text: String,
    /// For a changed kernel, what differs.
    pub fields: Vec<FieldChange>,
}

/// The difference of two listings. Empty when they list the same program.
#[cfg_attr(feature = "json", derive(serde::Serialize))]
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Diff {
    /// Header fields that differ (the format version).
    pub header: Vec<FieldChange>,
    /// Sections present in one file only (`present` or `absent`).
    pub sections: Vec<FieldChange>,
    /// Tables whose entries differ.
    pub tables: Vec<TableDiff>,
    /// Functions that differ, in the new file's order (removed ones where
    /// they stood in the old file).
    pub functions: Vec<FunctionDiff>,
    /// Functions in both files and equal.
    pub unchanged_functions: usize,
    /// Where the comparison was coarser than asked (kernels compared by
    /// position).
    pub notes: Vec<String>,
}

/// How a line of the rendered difference reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineKind {
    /// The files' names, a function's or table's heading.
    Heading,
    /// Only in the old file.
    Removed,
    /// Only in the new file.
    Added,
    /// In both, different.
    Changed,
    /// A remark: unchanged counts, coarser comparisons.
    Note,
}

/// A line of the rendered difference. The text comes from the files:
/// escape it before showing it on a terminal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiffLine {
    /// How it reads.
    pub kind: LineKind,
    /// Its nesting (0 for files, tables and functions).
    pub depth: u8,
    /// The text, starting with its marker (`-`, `+`, `~`).
    pub text: String,
}

impl Diff {
    /// Whether the files list the same program.
    pub fn is_empty(&self) -> bool {
        self.header.is_empty()
            && self.sections.is_empty()
            && self.tables.is_empty()
            && self.functions.is_empty()
    }

    /// The difference as lines, as `bef diff` prints them and `befview`
    /// shows them; `old_name` and `new_name` name the files.
    pub fn lines(&self, old_name: &str, new_name: &str) -> Vec<DiffLine> {
        let mut lines = Vec::new();
        let mut push = |kind, depth, text: String| lines.push(DiffLine { kind, depth, text });
        push(LineKind::Heading, 0, format!("--- {old_name}"));
        push(LineKind::Heading, 0, format!("+++ {new_name}"));
        for change in &self.header {
            push(
                LineKind::Changed,
                0,
                format!("~ header {}: {} → {}", change.field, change.old, change.new),
            );
        }
        for change in &self.sections {
            let (kind, marker, file) = if change.old == "present" {
                (LineKind::Removed, '-', old_name)
            } else {
                (LineKind::Added, '+', new_name)
            };
            push(
                kind,
                0,
                format!("{marker} section {} (only in {file})", change.field),
            );
        }
        for table in &self.tables {
            push(
                LineKind::Heading,
                0,
                format!(
                    "{}: {} removed, {} added",
                    table.table,
                    table.removed.len(),
                    table.added.len()
                ),
            );
            for entry in &table.removed {
                push(LineKind::Removed, 1, format!("- {entry}"));
            }
            for entry in &table.added {
                push(LineKind::Added, 1, format!("+ {entry}"));
            }
        }
        for function in &self.functions {
            match function.status {
                Status::Removed | Status::Added => {
                    let (kind, marker) = if function.status == Status::Removed {
                        (LineKind::Removed, '-')
                    } else {
                        (LineKind::Added, '+')
                    };
                    let summary = function.summary.as_deref().unwrap_or_default();
                    push(kind, 0, format!("{marker} {} {summary}", function.name));
                }
                Status::Changed => {
                    push(LineKind::Heading, 0, format!("{}: changed", function.name));
                    for change in &function.fields {
                        push(
                            LineKind::Changed,
                            1,
                            format!("~ {}: {} → {}", change.field, change.old, change.new),
                        );
                    }
                    for kernel in &function.kernels {
                        kernel_lines(kernel, &mut push);
                    }
                }
            }
        }
        if self.unchanged_functions > 0 || !self.functions.is_empty() {
            push(
                LineKind::Note,
                0,
                format!(
                    "{} function(s) changed, {} unchanged",
                    self.functions.len(),
                    self.unchanged_functions
                ),
            );
        }
        for note in &self.notes {
            push(LineKind::Note, 0, format!("note: {note}"));
        }
        if self.is_empty() {
            push(LineKind::Note, 0, "no differences".to_owned());
        }
        lines
    }
}

fn kernel_lines(kernel: &KernelDiff, push: &mut impl FnMut(LineKind, u8, String)) {
    let position = |k: Option<usize>| k.map_or_else(|| "-".to_owned(), |k| k.to_string());
    match kernel.status {
        Status::Removed => push(
            LineKind::Removed,
            1,
            format!("- [{}] {}", position(kernel.old), kernel.text),
        ),
        Status::Added => push(
            LineKind::Added,
            1,
            format!("+ [{}] {}", position(kernel.new), kernel.text),
        ),
        Status::Changed => {
            let at = if kernel.old == kernel.new {
                position(kernel.new)
            } else {
                format!("{}→{}", position(kernel.old), position(kernel.new))
            };
            push(LineKind::Changed, 1, format!("~ [{at}] {}", kernel.text));
            for change in &kernel.fields {
                push(
                    LineKind::Changed,
                    2,
                    format!("{}: {} → {}", change.field, change.old, change.new),
                );
            }
        }
    }
}

/// Compares two listings. Damaged files are compared as far as they decode;
/// callers that must refuse them check [`Listing::errors`] first.
pub fn diff(old: &Listing<'_>, new: &Listing<'_>, options: &DiffOptions) -> Diff {
    let mut diff = Diff::default();
    if old.header().version != new.header().version {
        diff.header.push(FieldChange {
            field: "version".to_owned(),
            old: old.header().version.to_string(),
            new: new.header().version.to_string(),
        });
    }
    diff.sections = section_changes(old, new, options);
    diff.tables = table_diffs(old, new, options);
    let mut comparer = Comparer {
        old: Side::new(old),
        new: Side::new(new),
        options: *options,
        budget: options.alignment_cells,
        notes: Vec::new(),
    };
    let (functions, unchanged) = comparer.functions();
    diff.functions = functions;
    diff.unchanged_functions = unchanged;
    diff.notes = comparer.notes;
    diff
}

/// The sections, by name, present in one file only.
fn section_changes(
    old: &Listing<'_>,
    new: &Listing<'_>,
    options: &DiffOptions,
) -> Vec<FieldChange> {
    let names = |listing: &Listing<'_>| -> Vec<String> {
        listing
            .sections()
            .iter()
            .filter(|s| s.used)
            .filter(|s| options.locations || !is_location_section(s.kind))
            .map(|s| s.name().into_owned())
            .collect()
    };
    let (old_names, new_names) = (names(old), names(new));
    let mut changes = Vec::new();
    for name in old_names.iter().filter(|n| !new_names.contains(n)) {
        changes.push(FieldChange {
            field: name.clone(),
            old: "present".to_owned(),
            new: "absent".to_owned(),
        });
    }
    for name in new_names.iter().filter(|n| !old_names.contains(n)) {
        changes.push(FieldChange {
            field: name.clone(),
            old: "absent".to_owned(),
            new: "present".to_owned(),
        });
    }
    changes
}

fn is_location_section(kind: Option<SectionId>) -> bool {
    matches!(
        kind,
        Some(SectionId::Locations | SectionId::LocationStrings)
    )
}

/// The entries of each table found in one file only.
fn table_diffs(old: &Listing<'_>, new: &Listing<'_>, options: &DiffOptions) -> Vec<TableDiff> {
    let strings = |l: &Listing<'_>, id: SectionId| -> Vec<String> {
        let table = match id {
            SectionId::Strings => l.strings(),
            _ => l.location_strings(),
        };
        table
            .rows()
            .iter()
            .map(|row| format!("{:?}", row.text()))
            .collect()
    };
    let names = |l: &Listing<'_>, id: SectionId| -> Vec<String> {
        let table = match id {
            SectionId::Kernels => l.kernel_names(),
            _ => l.types(),
        };
        table
            .iter()
            .map(|row| {
                row.name
                    .map_or_else(|| "<unreadable>".to_owned(), str::to_owned)
            })
            .collect()
    };
    let attributes = |l: &Listing<'_>| -> Vec<String> {
        l.attributes()
            .iter()
            .map(|row| {
                let value = attribute_text(l, Some(row.index));
                format!("{} {}", row.ty.name(), value.shown)
            })
            .collect()
    };
    let mut tables = vec![
        (
            "Strings",
            strings(old, SectionId::Strings),
            strings(new, SectionId::Strings),
        ),
        (
            "Kernels",
            names(old, SectionId::Kernels),
            names(new, SectionId::Kernels),
        ),
        (
            "Types",
            names(old, SectionId::Types),
            names(new, SectionId::Types),
        ),
        ("Attributes", attributes(old), attributes(new)),
    ];
    if options.locations {
        tables.push((
            "LocationStrings",
            strings(old, SectionId::LocationStrings),
            strings(new, SectionId::LocationStrings),
        ));
    }
    tables
        .into_iter()
        .filter_map(|(table, old, new)| {
            let (removed, added) = multiset_difference(old, new);
            (!removed.is_empty() || !added.is_empty()).then_some(TableDiff {
                table,
                removed,
                added,
            })
        })
        .collect()
}

/// The entries of `old` not matched by one of `new`, and the other way
/// round, each in its list's order.
fn multiset_difference(old: Vec<String>, new: Vec<String>) -> (Vec<String>, Vec<String>) {
    let mut balance: HashMap<&str, isize> = HashMap::new();
    for entry in &old {
        *balance.entry(entry).or_default() += 1;
    }
    for entry in &new {
        *balance.entry(entry).or_default() -= 1;
    }
    let mut surplus_old = balance.clone();
    let removed: Vec<String> = old
        .iter()
        .filter(|entry| take_one(&mut surplus_old, entry, 1))
        .cloned()
        .collect();
    let added: Vec<String> = new
        .iter()
        .filter(|entry| take_one(&mut balance, entry, -1))
        .cloned()
        .collect();
    (removed, added)
}

/// Whether `entry` still has a surplus in direction `sign`; uses it up.
fn take_one(balance: &mut HashMap<&str, isize>, entry: &str, sign: isize) -> bool {
    match balance.get_mut(entry) {
        Some(n) if *n * sign > 0 => {
            *n -= sign;
            true
        }
        _ => false,
    }
}

/// An attribute's value as shown (cut) and a hash of all of it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct ValueText {
    shown: String,
    hash: u64,
}

/// A `fmt::Write` that keeps the first [`VALUE_SHOWN`] characters and
/// hashes everything, so that a large value is compared whole without being
/// held as text.
struct BoundedText {
    shown: String,
    kept: usize,
    cut: bool,
    hasher: DefaultHasher,
}

impl fmt::Write for BoundedText {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.hasher.write(s.as_bytes());
        for c in s.chars() {
            if self.kept == VALUE_SHOWN {
                self.cut = true;
                break;
            }
            self.shown.push(c);
            self.kept += 1;
        }
        Ok(())
    }
}

fn bounded_text(value: &impl fmt::Display) -> ValueText {
    let mut text = BoundedText {
        shown: String::new(),
        kept: 0,
        cut: false,
        hasher: DefaultHasher::new(),
    };
    // Writing into BoundedText never fails.
    let _ = write!(text, "{value}");
    if text.cut {
        text.shown.push('…');
    }
    ValueText {
        shown: text.shown,
        hash: text.hasher.finish(),
    }
}

/// The value of attribute `index` of the listing's table.
fn attribute_text(listing: &Listing<'_>, index: Option<usize>) -> ValueText {
    let row = index.and_then(|i| listing.attributes().get(i));
    match row.map(|row| listing.attribute_value(&row)) {
        Some(Ok(value)) => bounded_text(&value),
        Some(Err(e)) => bounded_text(&format_args!("<error: {e}>")),
        None => bounded_text(&"<unlisted attribute>"),
    }
}

/// A function a kernel refers to: by name, or the anonymous function of a
/// region (whose contents are compared as a function of their own).
#[derive(Debug, Clone, PartialEq, Eq)]
enum FunctionRef {
    Named(String),
    Region(usize),
}

/// A kernel as compared.
#[derive(Debug)]
struct KernelView {
    name: String,
    operands: Vec<u32>,
    results: Vec<u32>,
    /// `name = value` (or the value, without AttributeNames).
    attributes: Vec<String>,
    functions: Vec<FunctionRef>,
    location: Option<String>,
    /// Equal for kernels equal in everything but registers and location.
    key: u32,
    /// Equal for kernels of the same name.
    name_key: u32,
}

impl KernelView {
    fn text(&self) -> String {
        let mut text = String::new();
        if !self.results.is_empty() {
            text.push_str(&registers(&self.results));
            text.push_str(" = ");
        }
        let _ = write!(text, "{}({})", self.name, registers(&self.operands));
        if !self.attributes.is_empty() {
            let _ = write!(text, " {{{}}}", self.attributes.join(", "));
        }
        if !self.functions.is_empty() {
            let _ = write!(text, " [{}]", function_refs(&self.functions));
        }
        text
    }
}

fn registers(registers: &[u32]) -> String {
    let names: Vec<String> = registers.iter().map(|r| format!("%{r}")).collect();
    names.join(", ")
}

fn function_refs(functions: &[FunctionRef]) -> String {
    let names: Vec<String> = functions
        .iter()
        .map(|f| match f {
            FunctionRef::Named(name) => format!("@{name}"),
            FunctionRef::Region(_) => "region".to_owned(),
        })
        .collect();
    names.join(", ")
}

/// One file, with what the comparison caches about it.
struct Side<'l, 'a> {
    listing: &'l Listing<'a>,
    /// Attribute values by offset in the Attributes section.
    values: HashMap<u32, ValueText>,
    paired: Vec<bool>,
}

impl<'l, 'a> Side<'l, 'a> {
    fn new(listing: &'l Listing<'a>) -> Self {
        Side {
            listing,
            values: HashMap::new(),
            paired: vec![false; listing.function_count()],
        }
    }

    fn value(&mut self, offset: u32, attribute: Option<usize>) -> &ValueText {
        let listing = self.listing;
        self.values
            .entry(offset)
            .or_insert_with(|| attribute_text(listing, attribute))
    }

    /// `@name`, or the region the anonymous function holds.
    fn function_name(&self, index: usize) -> String {
        let own = self.listing.index_entry(index).map_or("", |e| e.name);
        if !own.is_empty() {
            return format!("@{own}");
        }
        match self.listing.function_display_name(index) {
            Some(region) => region.to_owned(),
            None => format!("<anonymous function {index}>"),
        }
    }

    fn type_list(&self, types: &[u32]) -> String {
        let names: Vec<String> = types
            .iter()
            .map(|&t| {
                self.listing
                    .type_name(t)
                    .map_or_else(|| format!("<type {t}>"), str::to_owned)
            })
            .collect();
        format!("({})", names.join(", "))
    }

    fn location_text(&self, offset: u64) -> String {
        match self.listing.location(offset) {
            Ok(Some(location)) => location.to_string(),
            Ok(None) => format!("<virtual {offset:#x}>"),
            Err(e) => format!("<error: {e}>"),
        }
    }

    /// Kind, signature and kernel count of function `index`.
    fn summary(&self, index: usize) -> String {
        let Some(entry) = self.listing.index_entry(index) else {
            return String::new();
        };
        let kernels = self
            .listing
            .function(index)
            .map(|f| format!(", {} kernels", f.kernels().len()))
            .unwrap_or_default();
        format!(
            "({}) {} -> {}{kernels}",
            entry.kind.name(),
            self.type_list(entry.argument_types),
            self.type_list(entry.result_types)
        )
    }

    fn view(&mut self, kernel: &Kernel<'_>, keys: &mut Keys, locations: bool) -> KernelView {
        let name = match (kernel.pseudo, kernel.name) {
            (true, _) => "<arguments>".to_owned(),
            (false, Some(name)) => name.to_owned(),
            (false, None) => format!("<kernel {}>", kernel.code),
        };
        let mut key = name.clone();
        let mut attributes = Vec::with_capacity(kernel.attributes.len());
        for a in &kernel.attributes {
            let value = self.value(a.offset, a.attribute).clone();
            let _ = write!(key, "\0{}\0{:x}", a.name.unwrap_or(""), value.hash);
            attributes.push(match a.name {
                Some(name) => format!("{name} = {}", value.shown),
                None => value.shown,
            });
        }
        let entries = self.listing.file().functions();
        let functions: Vec<FunctionRef> = kernel
            .functions()
            .map(|f| match entries.get(f as usize) {
                Some(entry) if !entry.name.is_empty() => FunctionRef::Named(entry.name.to_owned()),
                _ => FunctionRef::Region(f as usize),
            })
            .collect();
        key.push('\0');
        key.push_str(&function_refs(&functions));
        let location = if locations {
            kernel.location_offset().map(|l| self.location_text(l))
        } else {
            None
        };
        KernelView {
            name_key: keys.intern(&name),
            key: keys.intern(&key),
            name,
            operands: kernel.arguments().collect(),
            results: kernel.results().collect(),
            attributes,
            functions,
            location,
        }
    }
}

/// Interned keys: two kernels compare equal by comparing two numbers.
#[derive(Default)]
struct Keys(HashMap<String, u32>);

impl Keys {
    fn intern(&mut self, key: &str) -> u32 {
        if let Some(&id) = self.0.get(key) {
            return id;
        }
        let id = self.0.len() as u32;
        self.0.insert(key.to_owned(), id);
        id
    }
}

struct Comparer<'l, 'a, 'b> {
    old: Side<'l, 'a>,
    new: Side<'l, 'b>,
    options: DiffOptions,
    /// Alignment cells left for the file.
    budget: u64,
    notes: Vec<String>,
}

/// A kernel of each file, aligned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    Pair(usize, usize),
    Removed(usize),
    Added(usize),
}

impl Comparer<'_, '_, '_> {
    /// The functions that differ, in order, and how many are equal.
    fn functions(&mut self) -> (Vec<FunctionDiff>, usize) {
        let (old_listing, new_listing) = (self.old.listing, self.new.listing);
        let mut queue: VecDeque<(usize, usize)> = VecDeque::new();
        let mut by_name: HashMap<&str, VecDeque<usize>> = HashMap::new();
        for entry in new_listing.index_entries() {
            if !entry.name.is_empty() {
                by_name
                    .entry(entry.name)
                    .or_default()
                    .push_back(entry.index);
            }
        }
        for entry in old_listing.index_entries() {
            if entry.name.is_empty() {
                continue;
            }
            if let Some(index) = by_name.get_mut(entry.name).and_then(VecDeque::pop_front) {
                self.old.paired[entry.index] = true;
                self.new.paired[index] = true;
                queue.push_back((entry.index, index));
            }
        }
        let mut diffs: Vec<(usize, FunctionDiff)> = Vec::new();
        let mut unchanged = 0;
        while let Some((old, new)) = queue.pop_front() {
            let diff = self.function_pair(old, new, &mut queue);
            if diff.fields.is_empty() && diff.kernels.is_empty() {
                unchanged += 1;
            } else {
                diffs.push((new, diff));
            }
        }
        for index in 0..self.old.paired.len() {
            if !self.old.paired[index] {
                // Removed functions sort where they stood.
                diffs.push((
                    index,
                    FunctionDiff {
                        name: self.old.function_name(index),
                        status: Status::Removed,
                        old: Some(index),
                        new: None,
                        summary: Some(self.old.summary(index)),
                        fields: Vec::new(),
                        kernels: Vec::new(),
                    },
                ));
            }
        }
        for index in 0..self.new.paired.len() {
            if !self.new.paired[index] {
                diffs.push((
                    index,
                    FunctionDiff {
                        name: self.new.function_name(index),
                        status: Status::Added,
                        old: None,
                        new: Some(index),
                        summary: Some(self.new.summary(index)),
                        fields: Vec::new(),
                        kernels: Vec::new(),
                    },
                ));
            }
        }
        diffs.sort_by_key(|(at, diff)| (*at, diff.status != Status::Removed));
        (diffs.into_iter().map(|(_, d)| d).collect(), unchanged)
    }

    /// Compares function `old` with function `new`; queues the pairs of
    /// region functions their aligned kernels refer to.
    fn function_pair(
        &mut self,
        old: usize,
        new: usize,
        queue: &mut VecDeque<(usize, usize)>,
    ) -> FunctionDiff {
        let name = self.new.function_name(new);
        let mut fields = self.signature_changes(old, new);
        let (old_listing, new_listing) = (self.old.listing, self.new.listing);
        let kernels = match (old_listing.function(old), new_listing.function(new)) {
            (Some(a), Some(b)) => self.kernels(&name, a, b, &mut fields, queue),
            _ => Vec::new(),
        };
        FunctionDiff {
            name,
            status: Status::Changed,
            old: Some(old),
            new: Some(new),
            summary: None,
            fields,
            kernels,
        }
    }

    fn signature_changes(&self, old: usize, new: usize) -> Vec<FieldChange> {
        let mut fields = Vec::new();
        let (Some(a), Some(b)) = (
            self.old.listing.index_entry(old),
            self.new.listing.index_entry(new),
        ) else {
            return fields;
        };
        let mut compare = |field: &str, old: String, new: String| {
            if old != new {
                fields.push(FieldChange {
                    field: field.to_owned(),
                    old,
                    new,
                });
            }
        };
        compare("kind", a.kind.name().to_owned(), b.kind.name().to_owned());
        compare(
            "arguments",
            self.old.type_list(a.argument_types),
            self.new.type_list(b.argument_types),
        );
        compare(
            "results",
            self.old.type_list(a.result_types),
            self.new.type_list(b.result_types),
        );
        let signature = |side: &Side<'_, '_>, index| {
            side.listing
                .signature(index)
                .map_or_else(String::new, |row| {
                    let mut text = row.structured.unwrap_or(row.readable);
                    if let Some(reflection) = row.reflection {
                        let _ = write!(text, " reflection {reflection}");
                    }
                    text
                })
        };
        compare(
            "signature",
            signature(&self.old, old),
            signature(&self.new, new),
        );
        fields
    }

    /// Aligns and compares the kernels of two functions.
    fn kernels(
        &mut self,
        name: &str,
        a: &Function<'_>,
        b: &Function<'_>,
        fields: &mut Vec<FieldChange>,
        queue: &mut VecDeque<(usize, usize)>,
    ) -> Vec<KernelDiff> {
        let locations = self.options.locations;
        let mut keys = Keys::default();
        let old: Vec<KernelView> = a
            .kernels()
            .iter()
            .map(|k| self.old.view(k, &mut keys, locations))
            .collect();
        let new: Vec<KernelView> = b
            .kernels()
            .iter()
            .map(|k| self.new.view(k, &mut keys, locations))
            .collect();
        let steps = self.align(name, &old, &new);
        // Registers of the old function as the new one numbers them, from
        // the results of aligned kernels.
        let mut registers: HashMap<u32, u32> = HashMap::new();
        for step in &steps {
            if let Step::Pair(i, j) = *step {
                for (&r, &s) in old[i].results.iter().zip(&new[j].results) {
                    registers.insert(r, s);
                }
            }
        }
        let same_registers = |a: &[u32], b: &[u32]| {
            a.len() == b.len() && a.iter().zip(b).all(|(r, s)| registers.get(r) == Some(s))
        };
        if !same_registers(a.results(), b.results()) {
            fields.push(FieldChange {
                field: "returns".to_owned(),
                old: registers_or_none(a.results()),
                new: registers_or_none(b.results()),
            });
        }
        if locations {
            let text = |side: &Side<'_, '_>, f: &Function<'_>| {
                f.location
                    .map_or_else(|| "<unread>".to_owned(), |l| side.location_text(l))
            };
            let (old_location, new_location) = (text(&self.old, a), text(&self.new, b));
            if old_location != new_location {
                fields.push(FieldChange {
                    field: "location".to_owned(),
                    old: old_location,
                    new: new_location,
                });
            }
        }
        let mut diffs = Vec::new();
        for step in steps {
            match step {
                Step::Removed(i) => diffs.push(KernelDiff {
                    status: Status::Removed,
                    old: Some(i),
                    new: None,
                    text: old[i].text(),
                    fields: Vec::new(),
                }),
                Step::Added(j) => diffs.push(KernelDiff {
                    status: Status::Added,
                    old: None,
                    new: Some(j),
                    text: new[j].text(),
                    fields: Vec::new(),
                }),
                Step::Pair(i, j) => {
                    let (k, l) = (&old[i], &new[j]);
                    self.queue_regions(k, l, queue);
                    let changes = kernel_changes(k, l, &same_registers);
                    if !changes.is_empty() {
                        diffs.push(KernelDiff {
                            status: Status::Changed,
                            old: Some(i),
                            new: Some(j),
                            text: l.text(),
                            fields: changes,
                        });
                    }
                }
            }
        }
        diffs
    }

    /// Pairs the region functions two aligned kernels refer to, by position.
    fn queue_regions(
        &mut self,
        k: &KernelView,
        l: &KernelView,
        queue: &mut VecDeque<(usize, usize)>,
    ) {
        for (f, g) in k.functions.iter().zip(&l.functions) {
            if let (FunctionRef::Region(f), FunctionRef::Region(g)) = (f, g)
                && self.old.paired.get(*f) == Some(&false)
                && self.new.paired.get(*g) == Some(&false)
            {
                self.old.paired[*f] = true;
                self.new.paired[*g] = true;
                queue.push_back((*f, *g));
            }
        }
    }

    /// The alignment of two kernel lists: whole kernels first, then, between
    /// two aligned kernels, kernels of the same name.
    fn align(&mut self, function: &str, old: &[KernelView], new: &[KernelView]) -> Vec<Step> {
        let keys = |views: &[KernelView]| -> Vec<u32> { views.iter().map(|v| v.key).collect() };
        let names =
            |views: &[KernelView]| -> Vec<u32> { views.iter().map(|v| v.name_key).collect() };
        let (old_keys, new_keys) = (keys(old), keys(new));
        let (old_names, new_names) = (names(old), names(new));
        let (matched, complete) = common_subsequence(&old_keys, &new_keys, &mut self.budget);
        let mut coarse = !complete;
        let mut steps = Vec::with_capacity(old.len().max(new.len()));
        let (mut i, mut j) = (0, 0);
        let ends = matched.iter().copied().chain([(old.len(), new.len())]);
        for (next_i, next_j) in ends {
            // The gap before the next aligned pair: kernels of one name.
            let gap_old = &old_names[i..next_i];
            let gap_new = &new_names[j..next_j];
            let pairs = match common_subsequence(gap_old, gap_new, &mut self.budget) {
                (pairs, true) if !coarse => pairs,
                _ => {
                    coarse |= !gap_old.is_empty() && !gap_new.is_empty();
                    positional_pairs(gap_old, gap_new)
                }
            };
            let (mut p, mut q) = (0, 0);
            for (x, y) in pairs.into_iter().chain([(gap_old.len(), gap_new.len())]) {
                steps.extend((p..x).map(|k| Step::Removed(i + k)));
                steps.extend((q..y).map(|k| Step::Added(j + k)));
                if x < gap_old.len() {
                    steps.push(Step::Pair(i + x, j + y));
                }
                (p, q) = (x + 1, y + 1);
            }
            if next_i < old.len() {
                steps.push(Step::Pair(next_i, next_j));
            }
            (i, j) = (next_i + 1, next_j + 1);
        }
        if coarse {
            self.notes.push(format!(
                "the kernels of {function} ({} and {}) are too many to align within the budget; compared by position",
                old.len(),
                new.len()
            ));
        }
        steps
    }
}

fn registers_or_none(list: &[u32]) -> String {
    if list.is_empty() {
        "none".to_owned()
    } else {
        registers(list)
    }
}

/// What differs between two aligned kernels.
fn kernel_changes(
    k: &KernelView,
    l: &KernelView,
    same_registers: &impl Fn(&[u32], &[u32]) -> bool,
) -> Vec<FieldChange> {
    let mut changes = Vec::new();
    let mut compare = |field: &str, differs: bool, old: String, new: String| {
        if differs {
            changes.push(FieldChange {
                field: field.to_owned(),
                old,
                new,
            });
        }
    };
    compare("name", k.name != l.name, k.name.clone(), l.name.clone());
    compare(
        "operands",
        !same_registers(&k.operands, &l.operands),
        registers_or_none(&k.operands),
        registers_or_none(&l.operands),
    );
    compare(
        "results",
        k.results.len() != l.results.len(),
        k.results.len().to_string(),
        l.results.len().to_string(),
    );
    // Attributes and functions are in the key: compare their texts only
    // when the keys differ.
    let keyed = k.key != l.key;
    let attributes = |v: &KernelView| format!("{{{}}}", v.attributes.join(", "));
    compare(
        "attributes",
        keyed && k.attributes != l.attributes,
        attributes(k),
        attributes(l),
    );
    if keyed && k.attributes == l.attributes && k.functions == l.functions && k.name == l.name {
        // Same texts, different hashes: values that differ past what is shown.
        compare(
            "attributes",
            true,
            format!("{} (differs past what is shown)", attributes(k)),
            attributes(l),
        );
    }
    compare(
        "functions",
        keyed && function_refs(&k.functions) != function_refs(&l.functions),
        function_refs(&k.functions),
        function_refs(&l.functions),
    );
    compare(
        "location",
        k.location != l.location,
        k.location.clone().unwrap_or_default(),
        l.location.clone().unwrap_or_default(),
    );
    changes
}

/// Pairs `old[i]` with `new[i]` where the two are equal, for lists too long
/// to align.
fn positional_pairs(old: &[u32], new: &[u32]) -> Vec<(usize, usize)> {
    old.iter()
        .zip(new)
        .enumerate()
        .filter(|(_, (a, b))| a == b)
        .map(|(i, _)| (i, i))
        .collect()
}

/// A longest common subsequence of `old` and `new` as increasing pairs of
/// positions, and whether it is complete. The common start and end are
/// matched first and cost nothing; the rest is aligned only when its table
/// takes at most [`FUNCTION_ALIGNMENT_CELLS`] and `budget` (which it draws
/// from), and is otherwise left unmatched (incomplete).
fn common_subsequence(old: &[u32], new: &[u32], budget: &mut u64) -> (Vec<(usize, usize)>, bool) {
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let suffix = old[prefix..]
        .iter()
        .rev()
        .zip(new[prefix..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let a = &old[prefix..old.len() - suffix];
    let b = &new[prefix..new.len() - suffix];
    let mut pairs: Vec<(usize, usize)> = (0..prefix).map(|i| (i, i)).collect();
    let mut complete = true;
    if !a.is_empty() && !b.is_empty() {
        let cells = (a.len() as u64 + 1) * (b.len() as u64 + 1);
        if cells > FUNCTION_ALIGNMENT_CELLS || cells > *budget {
            complete = false;
        } else {
            *budget -= cells;
            pairs.extend(
                lcs_table(a, b)
                    .into_iter()
                    .map(|(i, j)| (prefix + i, prefix + j)),
            );
        }
    }
    let (old_end, new_end) = (old.len() - suffix, new.len() - suffix);
    pairs.extend((0..suffix).map(|k| (old_end + k, new_end + k)));
    (pairs, complete)
}

/// The classic dynamic programme: `table[i][j]` is the length of a longest
/// common subsequence of `a[i..]` and `b[j..]`. Lengths fit in `u16`: the
/// cell bound keeps the shorter list under 4,097 entries.
fn lcs_table(a: &[u32], b: &[u32]) -> Vec<(usize, usize)> {
    let width = b.len() + 1;
    let mut table = vec![0u16; (a.len() + 1) * width];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            table[i * width + j] = if a[i] == b[j] {
                table[(i + 1) * width + j + 1] + 1
            } else {
                table[(i + 1) * width + j].max(table[i * width + j + 1])
            };
        }
    }
    let mut pairs = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if a[i] == b[j] {
            pairs.push((i, j));
            i += 1;
            j += 1;
        } else if table[(i + 1) * width + j] >= table[i * width + j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_subsequence_finds_an_insertion() {
        let mut budget = 1000;
        let (pairs, complete) = common_subsequence(&[1, 2, 3, 4], &[1, 2, 9, 3, 4], &mut budget);
        assert!(complete);
        assert_eq!(pairs, vec![(0, 0), (1, 1), (2, 3), (3, 4)]);
        // Prefix and suffix are free: nothing was drawn from the budget.
        assert_eq!(budget, 1000);
    }

    #[test]
    fn common_subsequence_aligns_the_middle_within_the_budget() {
        let mut budget = 1000;
        let (pairs, complete) = common_subsequence(&[5, 1, 2, 6], &[7, 2, 1, 2, 8], &mut budget);
        assert!(complete);
        assert_eq!(pairs, vec![(1, 2), (2, 3)]);
        assert_eq!(budget, 1000 - 5 * 6);
        // Over the budget: only the common start and end are matched.
        let mut small = 10;
        assert_eq!(
            common_subsequence(&[0, 5, 1, 2, 6, 9], &[0, 7, 2, 1, 2, 8, 9], &mut small),
            (vec![(0, 0), (5, 6)], false)
        );
        assert_eq!(small, 10);
    }

    #[test]
    fn multiset_difference_keeps_surplus_in_order() {
        let v = |s: &[&str]| s.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let (removed, added) = multiset_difference(v(&["a", "b", "a", "c"]), v(&["c", "a", "d"]));
        assert_eq!(removed, v(&["a", "b"]));
        assert_eq!(added, v(&["d"]));
    }

    #[test]
    fn long_values_are_cut_but_compared_whole() {
        let long = "x".repeat(500);
        let other = format!("{}y", "x".repeat(499));
        let (a, b) = (bounded_text(&long), bounded_text(&other));
        assert_eq!(a.shown, b.shown);
        assert!(a.shown.ends_with('…'));
        assert_ne!(a.hash, b.hash);
    }
}
