//! The Functions tab: the function table (sortable) and, for an opened
//! function, its kernel table and register table.

use std::ops::Range;

use bef::inspect::{Function, Kernel, Listing};

use super::{ListId, State};
use crate::model::names::{
    attribute_text, clip, function_ref, kernel_name, short_location_text, type_list, type_name,
};

/// The column the function table is sorted by, in `s` order.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum SortKey {
    /// The function's index: the file's order.
    #[default]
    Index,
    /// Its name.
    Name,
    /// Its kind (BEF, native, sync).
    Kind,
    /// Its register count, most first.
    Registers,
    /// Its kernel count, most first.
    Kernels,
    /// Its size in bytes, largest first.
    Size,
}

impl SortKey {
    /// Every sort, in `s` order.
    pub const ALL: &'static [SortKey] = &[
        SortKey::Index,
        SortKey::Name,
        SortKey::Kind,
        SortKey::Registers,
        SortKey::Kernels,
        SortKey::Size,
    ];

    /// The name the title gives it (`sorted by registers`).
    pub fn name(self) -> &'static str {
        match self {
            SortKey::Index => "index",
            SortKey::Name => "name",
            SortKey::Kind => "kind",
            SortKey::Registers => "registers",
            SortKey::Kernels => "kernels",
            SortKey::Size => "size",
        }
    }

    /// The sort `s` goes to next, back to the first after the last.
    pub fn next(self) -> SortKey {
        let at = SortKey::ALL.iter().position(|&k| k == self).unwrap_or(0);
        SortKey::ALL[(at + 1) % SortKey::ALL.len()]
    }

    /// Whether the largest come first (counts and sizes).
    pub fn descending(self) -> bool {
        matches!(self, SortKey::Registers | SortKey::Kernels | SortKey::Size)
    }

    /// Function `index` of `listing`'s place in this order (ascending;
    /// [`descending`](Self::descending) says whether it is reversed).
    pub fn key(self, listing: &Listing<'_>, index: usize) -> (u64, String) {
        let entry = listing.index_entry(index);
        let f = listing.function(index);
        match self {
            SortKey::Index => (index as u64, String::new()),
            SortKey::Name => (0, entry.map(|e| e.name.to_owned()).unwrap_or_default()),
            SortKey::Kind => (
                0,
                entry.map(|e| e.kind.name().to_owned()).unwrap_or_default(),
            ),
            SortKey::Registers => (f.map_or(0, |f| f.register_count() as u64), String::new()),
            SortKey::Kernels => (f.map_or(0, |f| f.kernels().len() as u64), String::new()),
            SortKey::Size => (f.map_or(0, |f| f.range.len() as u64), String::new()),
        }
    }

    /// Function indices `order` sorted by this key.
    pub fn sort(self, listing: &Listing<'_>, order: &mut [usize]) {
        order.sort_by_cached_key(|&i| self.key(listing, i));
        if self.descending() {
            order.reverse();
        }
    }
}

/// The number of rows.
pub fn len(app: &State<'_, '_>, id: ListId) -> usize {
    match id {
        ListId::Functions => app.function_order.len(),
        ListId::Kernels => opened(app).map_or(0, |f| f.kernels().len()),
        _ => opened(app).map_or(0, |f| f.register_count()),
    }
}

fn opened<'v, 'a>(app: &State<'v, 'a>) -> Option<&'v Function<'a>> {
    app.doc.listing.function(app.open_function?)
}

fn registers(list: impl Iterator<Item = u32>) -> String {
    let names: Vec<String> = list.map(|r| format!("%{r}")).collect();
    names.join(", ")
}

/// A kernel's results; the pseudo kernel's first result is no register
/// (its number is one past the last) but the start of the kernels without
/// operands.
fn result_registers(kernel: &Kernel<'_>) -> String {
    let names: Vec<String> = kernel
        .results()
        .enumerate()
        .map(|(i, r)| {
            if kernel.pseudo && i == 0 {
                "start".to_owned()
            } else {
                format!("%{r}")
            }
        })
        .collect();
    names.join(", ")
}

/// The attributes of a kernel as `name = value` pairs.
pub fn kernel_attributes(listing: &Listing<'_>, kernel: &Kernel<'_>) -> String {
    let parts: Vec<String> = kernel
        .attributes
        .iter()
        .map(|a| {
            let value = attribute_text(listing, a.attribute);
            match a.name {
                Some(name) => format!("{name} = {value}"),
                None => value,
            }
        })
        .collect();
    clip(&parts.join("; "), 300)
}

/// The cells of a row.
pub fn cells(app: &State<'_, '_>, id: ListId, row: usize) -> Vec<String> {
    let listing = &app.doc.listing;
    match id {
        ListId::Functions => {
            let Some(entry) = app
                .function_order
                .get(row)
                .and_then(|&i| listing.index_entry(i))
            else {
                return Vec::new();
            };
            let body = listing.function(entry.index);
            let count = |n: Option<usize>| n.map_or_else(|| "-".to_owned(), |n| n.to_string());
            let kind = match entry.kind {
                bef::format::FunctionKind::Bef => "async",
                bef::format::FunctionKind::Sync => "sync",
                bef::format::FunctionKind::Native => "native",
            };
            vec![
                entry.index.to_string(),
                function_ref(listing, entry.index as u32),
                kind.to_owned(),
                type_list(listing, entry.argument_types),
                type_list(listing, entry.result_types),
                count(body.map(|f| f.register_count())),
                count(body.map(|f| f.kernels().iter().filter(|k| !k.pseudo).count())),
                count(body.map(|f| f.range.len())),
            ]
        }
        ListId::Kernels => {
            let Some(k) = opened(app).and_then(|f| f.kernels().get(row)) else {
                return Vec::new();
            };
            let functions: Vec<String> = k.functions().map(|f| function_ref(listing, f)).collect();
            let used_by: Vec<String> = (0..k.results().len())
                .map(|i| {
                    let users: Vec<String> = k.used_by(i).map(|u| u.to_string()).collect();
                    format!("[{}]", users.join(","))
                })
                .collect();
            vec![
                k.index.to_string(),
                kernel_name(k),
                registers(k.arguments()),
                result_registers(k),
                kernel_attributes(listing, k),
                functions.join(", "),
                used_by.join(" "),
                k.stream_id.to_string(),
                k.location_offset()
                    .map_or_else(String::new, |l| short_location_text(listing, l)),
            ]
        }
        _ => {
            let Some(f) = opened(app) else {
                return Vec::new();
            };
            let Some(r) = f.register(row) else {
                return Vec::new();
            };
            let producer = match r.producer.and_then(|p| f.kernel(p)) {
                Some(k) if k.pseudo => "argument".to_owned(),
                Some(k) => format!("{} {}", k.index, kernel_name(k)),
                None => "-".to_owned(),
            };
            let mut users: Vec<String> = r.users.iter().map(|u| u.to_string()).collect();
            users.extend(r.returned_as.iter().map(|i| format!("return {i}")));
            vec![
                format!("%{}", r.index),
                r.type_index
                    .map_or_else(|| "-".to_owned(), |t| type_name(listing, t)),
                producer,
                users.join(", "),
                r.uses.to_string(),
            ]
        }
    }
}

/// The bytes of a row.
pub fn range(app: &State<'_, '_>, id: ListId, row: usize) -> Option<Range<usize>> {
    let listing = &app.doc.listing;
    match id {
        ListId::Functions => {
            let index = *app.function_order.get(row)?;
            match listing.function(index) {
                Some(f) if !f.range.is_empty() => Some(f.range.clone()),
                _ => listing.index_entry(index).map(|e| e.range),
            }
        }
        ListId::Kernels => opened(app)?.kernels().get(row).map(|k| k.range.clone()),
        _ => opened(app)?.register(row).map(|r| r.range),
    }
}
