//! The builtin dialect's custom attribute encodings (locations included):
//! a varint code, then the attribute's parameters (fact sheet, "Builtin
//! custom encodings"). Nested attributes, types and strings are indices.

use super::encoding::Reader;
use super::entries::{DecodeFailure, Decoded, EntryLookup, EntrySink};
use super::error::BytecodeError;
use crate::ir::{
    AffineBinary, AffineExpr, AffineMap, Attribute, DenseElements, IntegerSet, Location,
    Signedness, Type,
};
use crate::text::dense_layout::{element_size, num_elements, shaped};

const ARRAY: u64 = 0;
const DICTIONARY: u64 = 1;
const STRING: u64 = 2;
const STRING_WITH_TYPE: u64 = 3;
const FLAT_SYMBOL_REF: u64 = 4;
const SYMBOL_REF: u64 = 5;
const TYPE: u64 = 6;
const UNIT: u64 = 7;
const INTEGER: u64 = 8;
const FLOAT: u64 = 9;
const CALL_SITE_LOC: u64 = 10;
const FILE_LINE_COL_LOC: u64 = 11;
const FUSED_LOC: u64 = 12;
const FUSED_LOC_WITH_METADATA: u64 = 13;
const NAME_LOC: u64 = 14;
const UNKNOWN_LOC: u64 = 15;
const DENSE_RESOURCE: u64 = 16;
const DENSE_ARRAY: u64 = 17;
const DENSE_INT_OR_FP: u64 = 18;
const DENSE_STRING: u64 = 19;
const SPARSE: u64 = 20;
pub(crate) const DISTINCT: u64 = 21;
const FILE_LINE_COL_RANGE: u64 = 22;
const AFFINE_MAP: u64 = 23;
const INTEGER_SET: u64 = 24;
const STRIDED_LAYOUT: u64 = 25;

/// Upper bound on affine expression nesting (expressions decode with an
/// explicit stack; this bounds its size and the printer's recursion).
const MAX_AFFINE_DEPTH: usize = 256;

fn fail(at: usize, message: impl Into<String>) -> DecodeFailure {
    DecodeFailure::Error(BytecodeError::new(at, message))
}

fn attr(r: &mut Reader<'_>, lookup: &dyn EntryLookup) -> Decoded<Attribute> {
    let at = r.offset();
    lookup.attribute(r.varint()?, at)
}

fn ty(r: &mut Reader<'_>, lookup: &dyn EntryLookup) -> Decoded<Type> {
    let at = r.offset();
    lookup.type_(r.varint()?, at)
}

fn string<'l>(r: &mut Reader<'_>, lookup: &'l dyn EntryLookup) -> Decoded<&'l [u8]> {
    let at = r.offset();
    lookup.string(r.varint()?, at)
}

/// A nested attribute that must be a `StringAttr` (dictionary keys, file
/// names, symbol names), as UTF-8.
fn string_attr(r: &mut Reader<'_>, lookup: &dyn EntryLookup) -> Decoded<String> {
    let at = r.offset();
    match lookup.attribute(r.varint()?, at)? {
        Attribute::String { value, ty: None } => {
            String::from_utf8(value).map_err(|_| fail(at, "string attribute is not valid UTF-8"))
        }
        _ => Err(fail(at, "expected a string attribute")),
    }
}

fn location(r: &mut Reader<'_>, lookup: &dyn EntryLookup) -> Decoded<Location> {
    let at = r.offset();
    match lookup.attribute(r.varint()?, at)? {
        Attribute::Location(loc) => Ok(*loc),
        _ => Err(fail(at, "expected a location attribute")),
    }
}

fn locations(r: &mut Reader<'_>, lookup: &dyn EntryLookup) -> Decoded<Vec<Location>> {
    let n = r.count(1, "location")?;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        out.push(location(r, lookup)?);
    }
    Ok(out)
}

fn u32_varint(r: &mut Reader<'_>, what: &str) -> Decoded<u32> {
    let at = r.offset();
    let v = r.varint()?;
    u32::try_from(v).map_err(|_| fail(at, format!("{what} {v} does not fit 32 bits")))
}

/// Bit width of an integer or index type (index is 64 bits wide in
/// attributes), `None` for other types.
fn integer_width(ty: &Type) -> Option<u32> {
    match ty {
        Type::Integer { width, .. } => Some(*width),
        Type::Index => Some(64),
        _ => None,
    }
}

/// An APInt of `width` bits as little-endian 64-bit words.
fn read_apint(r: &mut Reader<'_>, width: u32) -> Decoded<Vec<u64>> {
    if width <= 8 {
        return Ok(vec![u64::from(r.byte()?)]);
    }
    if width <= 64 {
        return Ok(vec![r.signed_varint()? as u64]);
    }
    let at = r.offset();
    let n = r.count(1, "APInt word")?;
    // Only the active words are written; the rest are zero.
    if n == 0 || n > width.div_ceil(64) as usize {
        return Err(fail(at, format!("{n} words for a {width}-bit integer")));
    }
    (0..n).map(|_| Ok(r.signed_varint()? as u64)).collect()
}

fn write_apint(sink: &mut dyn EntrySink, words: &[u64], width: u32) {
    if width <= 8 {
        sink.byte(words.first().copied().unwrap_or(0) as u8 & mask8(width));
    } else if width <= 64 {
        sink.signed_varint(words.first().copied().unwrap_or(0) as i64);
    } else {
        // APInt::getActiveWords: up to the highest set bit, at least one.
        let active = words.iter().rposition(|&w| w != 0).map_or(1, |i| i + 1);
        sink.varint(active as u64);
        for &w in &words[..active] {
            sink.signed_varint(w as i64);
        }
    }
}

fn mask8(width: u32) -> u8 {
    if width >= 8 { 0xFF } else { (1u8 << width) - 1 }
}

/// Keeps the low `width` bits of `words` (and exactly the words needed).
fn truncate_words(mut words: Vec<u64>, width: u32) -> Vec<u64> {
    let n = (width.div_ceil(64) as usize).max(1);
    words.resize(n, 0);
    if !width.is_multiple_of(64) {
        words[n - 1] &= (1u64 << (width % 64)) - 1;
    }
    if width == 0 {
        words[0] = 0;
    }
    words
}

/// The IR form of an integer attribute of `ty` with these bits.
fn integer_attr(words: Vec<u64>, ty: Type, at: usize) -> Decoded<Attribute> {
    let Some(width) = integer_width(&ty) else {
        return Err(fail(
            at,
            format!("integer attribute of non-integer type {ty}"),
        ));
    };
    let words = truncate_words(words, width);
    let unsigned = matches!(
        ty,
        Type::Integer {
            signedness: Signedness::Unsigned,
            ..
        }
    );
    if width == 1
        && matches!(
            ty,
            Type::Integer {
                signedness: Signedness::Signless,
                ..
            }
        )
    {
        return Ok(Attribute::Bool(words[0] & 1 == 1));
    }
    let fits = width < 128 || (width == 128 && !(unsigned && words[1] >> 63 == 1));
    if width > 128 || !fits {
        return Ok(Attribute::WideInteger { words, ty });
    }
    let raw = u128::from(words[0]) | (u128::from(words.get(1).copied().unwrap_or(0)) << 64);
    let value = if unsigned || width == 0 {
        raw as i128
    } else {
        let shift = 128 - width;
        ((raw << shift) as i128) >> shift
    };
    Ok(Attribute::Integer { value, ty })
}

/// The bits of an `Integer` value for an APInt of `width`.
fn integer_words(value: i128, width: u32) -> Vec<u64> {
    let raw = value as u128;
    truncate_words(vec![raw as u64, (raw >> 64) as u64], width)
}

fn float_width(ty: &Type) -> Option<u32> {
    match ty {
        Type::Float(kind) => Some(kind.bit_width()),
        _ => None,
    }
}

/// Dense int-or-float data as the IR keeps it: `i1` one byte per element,
/// a splat as one element.
fn dense_from_blob(ty: Type, blob: &[u8], at: usize) -> Decoded<Attribute> {
    let Some((Some(dims), element)) = shaped(&ty) else {
        return Err(fail(at, format!("dense elements of unshaped type {ty}")));
    };
    let Some(count) = num_elements(dims) else {
        return Err(fail(at, format!("dense elements of dynamic type {ty}")));
    };
    let is_bool = matches!(element, Type::Integer { width: 1, .. });
    if is_bool {
        let count_bytes = count.div_ceil(8);
        // A splat is one byte of all zeros or all ones.
        if blob.len() == 1 && (blob[0] == 0 || blob[0] == 0xFF) && count != 1 {
            return Ok(Attribute::DenseElements(DenseElements {
                ty,
                splat: true,
                data: vec![blob[0] & 1],
            }));
        }
        let data: Vec<u8> = if blob.len() as u64 == count_bytes {
            (0..count as usize)
                .map(|i| (blob[i / 8] >> (i % 8)) & 1)
                .collect()
        } else if blob.len() as u64 == count {
            // One byte per element is accepted too.
            blob.iter().map(|b| b & 1).collect()
        } else {
            return Err(fail(
                at,
                format!("{} bytes for {count} i1 elements", blob.len()),
            ));
        };
        let mut d = DenseElements {
            ty,
            splat: false,
            data,
        };
        d.make_splat_if_uniform(1);
        return Ok(Attribute::DenseElements(d));
    }
    let Some(size) = element_size(element) else {
        return Err(fail(
            at,
            format!("dense elements of element type {element}"),
        ));
    };
    let full = (size as u64).checked_mul(count);
    let splat = blob.len() == size && count != 1 && full != Some(size as u64);
    if !splat && full != Some(blob.len() as u64) {
        return Err(fail(
            at,
            format!(
                "{} bytes of data for {count} elements of {element}",
                blob.len()
            ),
        ));
    }
    let mut d = DenseElements {
        ty,
        splat,
        data: blob.to_vec(),
    };
    if count > 0 {
        d.make_splat_if_uniform(size);
    }
    Ok(Attribute::DenseElements(d))
}

/// The bytecode blob of IR dense data: `i1` bit-packed (a splat as `00` or
/// `ff`).
fn dense_to_blob(d: &DenseElements) -> std::borrow::Cow<'_, [u8]> {
    let is_bool = shaped(&d.ty).is_some_and(|(_, e)| matches!(e, Type::Integer { width: 1, .. }));
    if !is_bool {
        return std::borrow::Cow::Borrowed(&d.data);
    }
    if d.splat {
        let on = d.data.first().is_some_and(|b| b & 1 == 1);
        return std::borrow::Cow::Owned(vec![if on { 0xFF } else { 0 }]);
    }
    let mut packed = vec![0u8; d.data.len().div_ceil(8)];
    for (i, b) in d.data.iter().enumerate() {
        packed[i / 8] |= (b & 1) << (i % 8);
    }
    std::borrow::Cow::Owned(packed)
}

fn read_affine_expr(r: &mut Reader<'_>) -> Decoded<AffineExpr> {
    // Prefix order: a binary node is followed by its two operands. Build
    // bottom-up with an explicit stack of pending binary nodes.
    enum Pending {
        Binary(AffineBinary, Option<AffineExpr>),
    }
    let mut stack: Vec<Pending> = Vec::new();
    loop {
        let at = r.offset();
        let kind = r.varint()?;
        let mut done = match kind {
            0 => AffineExpr::Dim(u32_varint(r, "dimension")?),
            1 => AffineExpr::Symbol(u32_varint(r, "symbol")?),
            2 => AffineExpr::Constant(r.signed_varint()?),
            3..=7 => {
                if stack.len() >= MAX_AFFINE_DEPTH {
                    return Err(fail(at, "affine expression nested too deeply"));
                }
                let op = match kind {
                    3 => AffineBinary::Add,
                    4 => AffineBinary::Mul,
                    5 => AffineBinary::Mod,
                    6 => AffineBinary::FloorDiv,
                    _ => AffineBinary::CeilDiv,
                };
                stack.push(Pending::Binary(op, None));
                continue;
            }
            _ => return Err(fail(at, format!("unknown affine expression kind {kind}"))),
        };
        // Attach the finished expression to pending nodes.
        loop {
            match stack.pop() {
                None => return Ok(done),
                Some(Pending::Binary(op, None)) => {
                    stack.push(Pending::Binary(op, Some(done)));
                    break;
                }
                Some(Pending::Binary(op, Some(lhs))) => {
                    done = AffineExpr::Binary {
                        kind: op,
                        lhs: Box::new(lhs),
                        rhs: Box::new(done),
                    };
                }
            }
        }
    }
}

fn write_affine_expr(sink: &mut dyn EntrySink, e: &AffineExpr) {
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        match e {
            AffineExpr::Dim(d) => {
                sink.varint(0);
                sink.varint(u64::from(*d));
            }
            AffineExpr::Symbol(s) => {
                sink.varint(1);
                sink.varint(u64::from(*s));
            }
            AffineExpr::Constant(c) => {
                sink.varint(2);
                sink.signed_varint(*c);
            }
            AffineExpr::Binary { kind, lhs, rhs } => {
                sink.varint(match kind {
                    AffineBinary::Add => 3,
                    AffineBinary::Mul => 4,
                    AffineBinary::Mod => 5,
                    AffineBinary::FloorDiv => 6,
                    AffineBinary::CeilDiv => 7,
                });
                stack.push(rhs);
                stack.push(lhs);
            }
        }
    }
}

fn read_affine_map(r: &mut Reader<'_>) -> Decoded<AffineMap> {
    let at = r.offset();
    let head = r.varint()?;
    let num_dims = u32::try_from(head >> 2).map_err(|_| fail(at, "too many dimensions"))?;
    // Dimensions and symbols cost nothing to declare but are listed when
    // the map is printed: at most 64 per remaining byte of the file.
    let declarable = r.remaining() as u64 * 64 + 64;
    if u64::from(num_dims) > declarable {
        return Err(fail(
            at,
            format!(
                "affine map declares {num_dims} dimensions, more than the {declarable} its file can declare"
            ),
        ));
    }
    match head & 3 {
        0 => Ok(AffineMap::identity(num_dims)),
        1 => {
            let n = num_dims as usize;
            if n > r.remaining() {
                return Err(fail(at, "permutation longer than the data"));
            }
            let results = (0..n)
                .map(|_| Ok(AffineExpr::Dim(u32_varint(r, "dimension")?)))
                .collect::<Decoded<Vec<_>>>()?;
            Ok(AffineMap {
                num_dims,
                num_symbols: 0,
                results,
            })
        }
        2 => {
            let n = r.count(1, "result")?;
            let results = (0..n)
                .map(|_| Ok(AffineExpr::Dim(u32_varint(r, "dimension")?)))
                .collect::<Decoded<Vec<_>>>()?;
            Ok(AffineMap {
                num_dims,
                num_symbols: 0,
                results,
            })
        }
        _ => {
            let symbols_at = r.offset();
            let num_symbols = u32_varint(r, "symbol count")?;
            if u64::from(num_dims) + u64::from(num_symbols) > declarable {
                return Err(fail(
                    symbols_at,
                    format!(
                        "affine map declares {num_dims} dimensions and {num_symbols} symbols, more than the {declarable} its file can declare"
                    ),
                ));
            }
            let n = r.count(2, "result")?;
            let results = (0..n)
                .map(|_| read_affine_expr(r))
                .collect::<Decoded<Vec<_>>>()?;
            Ok(AffineMap {
                num_dims,
                num_symbols,
                results,
            })
        }
    }
}

fn write_affine_map(sink: &mut dyn EntrySink, map: &AffineMap) {
    let dims = u64::from(map.num_dims) << 2;
    if map.is_identity() {
        sink.varint(dims);
    } else if map.is_permutation() {
        sink.varint(dims | 1);
        for e in &map.results {
            if let AffineExpr::Dim(d) = e {
                sink.varint(u64::from(*d));
            }
        }
    } else if map.is_projected_permutation() {
        sink.varint(dims | 2);
        sink.varint(map.results.len() as u64);
        for e in &map.results {
            if let AffineExpr::Dim(d) = e {
                sink.varint(u64::from(*d));
            }
        }
    } else {
        sink.varint(dims | 3);
        sink.varint(u64::from(map.num_symbols));
        sink.varint(map.results.len() as u64);
        for e in &map.results {
            write_affine_expr(sink, e);
        }
    }
}

/// The parameters of a `FileLineColLoc`.
fn file_line_col(r: &mut Reader<'_>, lookup: &dyn EntryLookup) -> Decoded<Location> {
    let at = r.offset();
    let file = lookup.file_name(r.varint()?, at)?;
    let line = u32_varint(r, "line")?;
    let column = u32_varint(r, "column")?;
    Ok(Location::FileLineCol { file, line, column })
}

/// A custom-encoded entry as a `FileLineColLoc`'s (file name attribute
/// index, line, column), for the reader's fast path for op locations:
/// `None` when the entry encodes something else or does not decode (the
/// caller then decodes it with `decode`, which reports why). Leaves
/// trailing bytes to the caller.
pub fn decode_file_line_col(r: &mut Reader<'_>) -> Option<(u64, u32, u32)> {
    if r.varint().ok()? != FILE_LINE_COL_LOC {
        return None;
    }
    let file = r.varint().ok()?;
    let line = u32::try_from(r.varint().ok()?).ok()?;
    let column = u32::try_from(r.varint().ok()?).ok()?;
    Some((file, line, column))
}

/// Decodes the custom encoding of a builtin attribute (the whole entry).
///
/// One piece: a match with one short arm per attribute code of the
/// encoding, the reading counterpart of the writer's table; split, the
/// codes would no longer be checkable against the writer at a glance.
pub fn decode(r: &mut Reader<'_>, lookup: &dyn EntryLookup) -> Decoded<Attribute> {
    let code_at = r.offset();
    let code = r.varint()?;
    Ok(match code {
        ARRAY => {
            let n = r.count(1, "array element")?;
            let mut items = Vec::with_capacity(n);
            for _ in 0..n {
                items.push(attr(r, lookup)?);
            }
            Attribute::Array(items)
        }
        DICTIONARY => {
            let n = r.count(2, "dictionary entry")?;
            let mut entries: Vec<(String, Attribute)> = Vec::with_capacity(n);
            for _ in 0..n {
                let at = r.offset();
                let name = string_attr(r, lookup)?;
                let value = attr(r, lookup)?;
                if entries.last().is_some_and(|(prev, _)| *prev >= name) {
                    return Err(fail(at, format!("dictionary key '{name}' out of order")));
                }
                entries.push((name, value));
            }
            Attribute::Dictionary(entries)
        }
        STRING => Attribute::String {
            value: string(r, lookup)?.to_vec(),
            ty: None,
        },
        STRING_WITH_TYPE => {
            let value = string(r, lookup)?.to_vec();
            Attribute::String {
                value,
                ty: Some(ty(r, lookup)?),
            }
        }
        FLAT_SYMBOL_REF => Attribute::SymbolRef {
            root: string_attr(r, lookup)?,
            nested: Vec::new(),
        },
        SYMBOL_REF => {
            let root = string_attr(r, lookup)?;
            let n = r.count(1, "nested reference")?;
            let mut nested = Vec::with_capacity(n);
            for _ in 0..n {
                let at = r.offset();
                match attr(r, lookup)? {
                    Attribute::SymbolRef {
                        root,
                        nested: inner,
                    } if inner.is_empty() => nested.push(root),
                    _ => return Err(fail(at, "expected a flat symbol reference")),
                }
            }
            Attribute::SymbolRef { root, nested }
        }
        TYPE => Attribute::Type(ty(r, lookup)?),
        UNIT => Attribute::Unit,
        INTEGER => {
            let at = r.offset();
            let t = ty(r, lookup)?;
            let Some(width) = integer_width(&t) else {
                return Err(fail(at, format!("integer attribute of type {t}")));
            };
            let words = read_apint(r, width)?;
            integer_attr(words, t, at)?
        }
        FLOAT => {
            let at = r.offset();
            let t = ty(r, lookup)?;
            let Some(width) = float_width(&t) else {
                return Err(fail(at, format!("float attribute of type {t}")));
            };
            let words = truncate_words(read_apint(r, width)?, width);
            let bits =
                u128::from(words[0]) | (u128::from(words.get(1).copied().unwrap_or(0)) << 64);
            Attribute::Float { bits, ty: t }
        }
        CALL_SITE_LOC => {
            let callee = Box::new(location(r, lookup)?);
            let caller = Box::new(location(r, lookup)?);
            Attribute::Location(Box::new(Location::CallSite { callee, caller }))
        }
        FILE_LINE_COL_LOC => Attribute::Location(Box::new(file_line_col(r, lookup)?)),
        FUSED_LOC => Attribute::Location(Box::new(Location::Fused {
            locations: locations(r, lookup)?,
            metadata: None,
        })),
        FUSED_LOC_WITH_METADATA => {
            let locs = locations(r, lookup)?;
            Attribute::Location(Box::new(Location::Fused {
                locations: locs,
                metadata: Some(Box::new(attr(r, lookup)?)),
            }))
        }
        NAME_LOC => {
            let name = string_attr(r, lookup)?;
            let child = Box::new(location(r, lookup)?);
            Attribute::Location(Box::new(Location::Name { name, child }))
        }
        UNKNOWN_LOC => Attribute::Location(Box::new(Location::Unknown)),
        DENSE_RESOURCE => {
            let t = ty(r, lookup)?;
            let at = r.offset();
            let handle = lookup.resource(r.varint()?, at)?;
            Attribute::DenseResource { ty: t, handle }
        }
        DENSE_ARRAY => {
            let at = r.offset();
            let element = ty(r, lookup)?;
            let count = r.varint()?;
            let blob_len = r.index()?;
            let data = r.bytes(blob_len)?;
            let size = match &element {
                Type::Integer { width: 1, .. } => Some(1),
                other => element_size(other),
            };
            if size.and_then(|s| (s as u64).checked_mul(count)) != Some(data.len() as u64) {
                return Err(fail(
                    at,
                    format!("dense array of {count} {element} with {} bytes", data.len()),
                ));
            }
            Attribute::DenseArray {
                element,
                data: data.to_vec(),
            }
        }
        DENSE_INT_OR_FP => {
            let at = r.offset();
            let t = ty(r, lookup)?;
            let blob_len = r.index()?;
            let blob = r.bytes(blob_len)?;
            dense_from_blob(t, blob, at)?
        }
        DENSE_STRING => {
            let at = r.offset();
            let t = ty(r, lookup)?;
            let splat = r.varint()? != 0;
            let count = match shaped(&t) {
                _ if splat => 1,
                Some((Some(dims), _)) => num_elements(dims)
                    .ok_or_else(|| fail(at, format!("dense strings of dynamic type {t}")))?,
                _ => return Err(fail(at, format!("dense strings of unshaped type {t}"))),
            };
            if count > r.remaining() as u64 {
                return Err(fail(at, format!("{count} strings exceed the data")));
            }
            let mut values = Vec::with_capacity(count as usize);
            for _ in 0..count {
                values.push(string(r, lookup)?.to_vec());
            }
            Attribute::DenseStrings {
                ty: t,
                splat,
                values,
            }
        }
        SPARSE => {
            let t = ty(r, lookup)?;
            let at = r.offset();
            let indices = attr(r, lookup)?;
            let values = attr(r, lookup)?;
            if !matches!(indices, Attribute::DenseElements(_)) {
                return Err(fail(at, "sparse indices must be dense elements"));
            }
            Attribute::Sparse {
                ty: t,
                indices: Box::new(indices),
                values: Box::new(values),
            }
        }
        DISTINCT => Attribute::Distinct {
            // The table assigns identities after decoding.
            id: 0,
            referenced: Box::new(attr(r, lookup)?),
        },
        FILE_LINE_COL_RANGE => {
            let at = r.offset();
            let file = lookup.file_name(r.varint()?, at)?;
            let at = r.offset();
            let n = r.varint()?;
            if n > 4 {
                return Err(fail(at, format!("{n} line/column values in a file range")));
            }
            let mut v = [0u32; 4];
            for slot in v.iter_mut().take(n as usize) {
                *slot = u32_varint(r, "line or column")?;
            }
            let (start_line, start_column, end_line, end_column) = match n {
                0 => (0, 0, 0, 0),
                1 => (v[0], 0, v[0], 0),
                2 => (v[0], v[1], v[0], v[1]),
                3 => (v[0], v[1], v[0], v[2]),
                _ => (v[0], v[1], v[2], v[3]),
            };
            let loc = if (start_line, start_column) == (end_line, end_column) {
                Location::FileLineCol {
                    file,
                    line: start_line,
                    column: start_column,
                }
            } else {
                Location::FileRange {
                    file,
                    start_line,
                    start_column,
                    end_line,
                    end_column,
                }
            };
            Attribute::Location(Box::new(loc))
        }
        AFFINE_MAP => Attribute::AffineMap(read_affine_map(r)?),
        INTEGER_SET => {
            let at = r.offset();
            let num_dims = u32_varint(r, "dimension count")?;
            let num_symbols = u32_varint(r, "symbol count")?;
            // As for affine maps: listed when printed, so bounded by the file.
            let declarable = r.remaining() as u64 * 64 + 64;
            if u64::from(num_dims) + u64::from(num_symbols) > declarable {
                return Err(fail(
                    at,
                    format!(
                        "integer set declares {num_dims} dimensions and {num_symbols} symbols, more than the {declarable} its file can declare"
                    ),
                ));
            }
            let n = r.count(2, "constraint")?;
            let constraints = (0..n)
                .map(|_| read_affine_expr(r))
                .collect::<Decoded<Vec<_>>>()?;
            let flags = r.bytes(n)?;
            Attribute::IntegerSet(IntegerSet {
                num_dims,
                num_symbols,
                constraints,
                is_equality: flags.iter().map(|&b| b != 0).collect(),
            })
        }
        STRIDED_LAYOUT => {
            let offset = r.signed_varint()?;
            let n = r.count(1, "stride")?;
            let strides = (0..n)
                .map(|_| Ok(r.signed_varint()?))
                .collect::<Decoded<Vec<_>>>()?;
            Attribute::StridedLayout { offset, strides }
        }
        _ => {
            return Err(fail(
                code_at,
                format!("unknown builtin attribute code {code}"),
            ));
        }
    })
}

/// The `StringAttr` for a name (dictionary keys, file names, symbols).
/// The string attribute `"s"` (no type).
pub(crate) fn string_attribute(s: &str) -> Attribute {
    Attribute::String {
        value: s.as_bytes().to_vec(),
        ty: None,
    }
}

/// Writes the custom encoding of a dictionary attribute with `entries`.
pub fn encode_dictionary(entries: &[(String, Attribute)], sink: &mut dyn EntrySink) {
    sink.varint(DICTIONARY);
    sink.varint(entries.len() as u64);
    for (name, value) in entries {
        sink.attribute(&string_attribute(name));
        sink.attribute(value);
    }
}

/// A `file:line:col` location whose file name's attribute number is
/// already known (the writer keeps such locations by their numbers).
pub fn encode_numbered_file_line_col<S: EntrySink + ?Sized>(
    file: u64,
    line: u32,
    column: u32,
    sink: &mut S,
) {
    sink.varint(FILE_LINE_COL_LOC);
    sink.varint(file);
    sink.varint(u64::from(line));
    sink.varint(u64::from(column));
}

/// Writes the custom encoding of a location.
/// Generic so that the writer's sinks are called directly: it encodes a
/// location per op.
pub fn encode_location<S: EntrySink + ?Sized>(loc: &Location, sink: &mut S) {
    match loc {
        Location::Unknown => sink.varint(UNKNOWN_LOC),
        Location::FileLineCol { file, line, column } => {
            sink.varint(FILE_LINE_COL_LOC);
            sink.file_name(file);
            sink.varint(u64::from(*line));
            sink.varint(u64::from(*column));
        }
        Location::FileRange {
            file,
            start_line,
            start_column,
            end_line,
            end_column,
        } => {
            sink.varint(FILE_LINE_COL_RANGE);
            sink.file_name(file);
            if start_line == end_line {
                sink.varint(3);
                sink.varint(u64::from(*start_line));
                sink.varint(u64::from(*start_column));
                sink.varint(u64::from(*end_column));
            } else {
                sink.varint(4);
                for v in [start_line, start_column, end_line, end_column] {
                    sink.varint(u64::from(*v));
                }
            }
        }
        Location::Name { name, child } => {
            sink.varint(NAME_LOC);
            sink.attribute(&string_attribute(name));
            sink.location(child);
        }
        Location::CallSite { callee, caller } => {
            sink.varint(CALL_SITE_LOC);
            sink.location(callee);
            sink.location(caller);
        }
        Location::Fused {
            locations,
            metadata,
        } => {
            sink.varint(if metadata.is_some() {
                FUSED_LOC_WITH_METADATA
            } else {
                FUSED_LOC
            });
            sink.varint(locations.len() as u64);
            for l in locations {
                sink.location(l);
            }
            if let Some(m) = metadata {
                sink.attribute(m);
            }
        }
    }
}

/// Writes the custom encoding of `attr`; `false` when it has none (dialect
/// attributes, and forms without a builtin code) and goes as text.
pub fn encode(attr: &Attribute, sink: &mut dyn EntrySink) -> bool {
    match attr {
        Attribute::Unit => sink.varint(UNIT),
        Attribute::Bool(b) => {
            sink.varint(INTEGER);
            sink.type_(&Type::i(1));
            sink.byte(u8::from(*b));
        }
        Attribute::Integer { value, ty } => {
            let Some(width) = integer_width(ty) else {
                return false;
            };
            sink.varint(INTEGER);
            sink.type_(ty);
            write_apint(sink, &integer_words(*value, width), width);
        }
        Attribute::WideInteger { words, ty } => {
            let Some(width) = integer_width(ty) else {
                return false;
            };
            sink.varint(INTEGER);
            sink.type_(ty);
            write_apint(sink, &truncate_words(words.clone(), width), width);
        }
        Attribute::Float { bits, ty } => {
            let Some(width) = float_width(ty) else {
                return false;
            };
            sink.varint(FLOAT);
            sink.type_(ty);
            let words = truncate_words(vec![*bits as u64, (*bits >> 64) as u64], width);
            write_apint(sink, &words, width);
        }
        Attribute::String { value, ty } => {
            sink.varint(if ty.is_some() {
                STRING_WITH_TYPE
            } else {
                STRING
            });
            sink.string(value);
            if let Some(t) = ty {
                sink.type_(t);
            }
        }
        Attribute::Type(t) => {
            sink.varint(TYPE);
            sink.type_(t);
        }
        Attribute::SymbolRef { root, nested } => {
            if nested.is_empty() {
                sink.varint(FLAT_SYMBOL_REF);
                sink.attribute(&string_attribute(root));
            } else {
                sink.varint(SYMBOL_REF);
                sink.attribute(&string_attribute(root));
                sink.varint(nested.len() as u64);
                for n in nested {
                    sink.attribute(&Attribute::symbol(n));
                }
            }
        }
        Attribute::Array(items) => {
            sink.varint(ARRAY);
            sink.varint(items.len() as u64);
            for item in items {
                sink.attribute(item);
            }
        }
        Attribute::Dictionary(entries) => encode_dictionary(entries, sink),
        Attribute::DenseElements(d) => {
            sink.varint(DENSE_INT_OR_FP);
            sink.type_(&d.ty);
            sink.blob(&dense_to_blob(d));
        }
        Attribute::DenseArray { element, data } => {
            let size = match element {
                Type::Integer { width: 1, .. } => 1,
                other => element_size(other).unwrap_or(1).max(1),
            };
            sink.varint(DENSE_ARRAY);
            sink.type_(element);
            sink.varint((data.len() / size) as u64);
            sink.blob(data);
        }
        Attribute::Location(loc) => encode_location(loc, sink),
        Attribute::AffineMap(map) => {
            sink.varint(AFFINE_MAP);
            write_affine_map(sink, map);
        }
        Attribute::IntegerSet(set) => {
            sink.varint(INTEGER_SET);
            sink.varint(u64::from(set.num_dims));
            sink.varint(u64::from(set.num_symbols));
            sink.varint(set.constraints.len() as u64);
            for c in &set.constraints {
                write_affine_expr(sink, c);
            }
            for i in 0..set.constraints.len() {
                sink.byte(u8::from(set.is_equality.get(i).copied().unwrap_or(false)));
            }
        }
        Attribute::StridedLayout { offset, strides } => {
            sink.varint(STRIDED_LAYOUT);
            sink.signed_varint(*offset);
            sink.varint(strides.len() as u64);
            for &s in strides {
                sink.signed_varint(s);
            }
        }
        Attribute::Distinct { referenced, .. } => {
            sink.varint(DISTINCT);
            sink.attribute(referenced);
        }
        Attribute::DenseResource { ty, handle } => {
            sink.varint(DENSE_RESOURCE);
            sink.type_(ty);
            sink.resource(handle);
        }
        Attribute::DenseStrings { ty, splat, values } => {
            sink.varint(DENSE_STRING);
            sink.type_(ty);
            sink.varint(u64::from(*splat));
            for v in values {
                sink.string(v);
            }
        }
        Attribute::Sparse {
            ty,
            indices,
            values,
        } => {
            sink.varint(SPARSE);
            sink.type_(ty);
            sink.attribute(indices);
            sink.attribute(values);
        }
        Attribute::Shape(_) | Attribute::Dialect { .. } => return false,
    }
    true
}
