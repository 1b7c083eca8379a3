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

/// The builtin attribute kinds of the custom encoding, one row each: code,
/// kind, name, the function reading its parameters and the one writing
/// them. `decode`, `encode` and `encode_location` all go through this one
/// table, so a kind cannot be read without being written or the reverse.
/// Location kinds read and write a `Location`; the others an `Attribute`.
macro_rules! builtin_attribute_kinds {
    ($m:ident) => {
        $m! {
            attributes {
                0 Array "Array" read_array write_array;
                1 Dictionary "Dictionary" read_dictionary write_dictionary;
                2 String "String" read_string write_string;
                3 StringWithType "StringWithType" read_string_with_type write_string;
                4 FlatSymbolRef "FlatSymbolRef" read_flat_symbol_ref write_symbol_ref;
                5 SymbolRef "SymbolRef" read_symbol_ref write_symbol_ref;
                6 Type "Type" read_type write_type;
                7 Unit "Unit" read_unit write_unit;
                8 Integer "Integer" read_integer write_integer;
                9 Float "Float" read_float write_float;
                16 DenseResource "DenseResourceElements" read_dense_resource write_dense_resource;
                17 DenseArray "DenseArray" read_dense_array write_dense_array;
                18 DenseIntOrFp "DenseIntOrFPElements" read_dense_int_or_fp write_dense_int_or_fp;
                19 DenseString "DenseStringElements" read_dense_string write_dense_string;
                20 Sparse "SparseElements" read_sparse write_sparse;
                21 Distinct "Distinct" read_distinct write_distinct;
                23 AffineMap "AffineMap" read_affine_map_attr write_affine_map_attr;
                24 IntegerSet "IntegerSet" read_integer_set write_integer_set;
                25 StridedLayout "StridedLayout" read_strided_layout write_strided_layout;
            }
            locations {
                10 CallSiteLoc "CallSiteLoc" read_call_site_loc write_call_site_loc;
                11 FileLineColLoc "FileLineColLoc" file_line_col write_file_line_col_loc;
                12 FusedLoc "FusedLoc" read_fused_loc write_fused_loc;
                13 FusedLocWithMetadata "FusedLocWithMetadata" read_fused_loc_with_metadata write_fused_loc;
                14 NameLoc "NameLoc" read_name_loc write_name_loc;
                15 UnknownLoc "UnknownLoc" read_unknown_loc write_unknown_loc;
                22 FileLineColRange "FileLineColRange" read_file_line_col_range write_file_line_col_range;
            }
        }
    };
}

/// Defines `Kind` and its dispatch from the rows of `builtin_attribute_kinds!`.
macro_rules! define_kinds {
    (
        attributes { $($acode:literal $AKind:ident $aname:literal $aread:ident $awrite:ident;)* }
        locations { $($lcode:literal $LKind:ident $lname:literal $lread:ident $lwrite:ident;)* }
    ) => {
        /// A builtin attribute kind of the custom encoding.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        enum Kind {
            $($AKind,)*
            $($LKind,)*
        }

        impl Kind {
            #[cfg(test)]
            const ALL: &'static [Kind] = &[$(Kind::$AKind,)* $(Kind::$LKind,)*];

            /// The varint code that starts the kind's encoding.
            const fn code(self) -> u64 {
                match self {
                    $(Kind::$AKind => $acode,)*
                    $(Kind::$LKind => $lcode,)*
                }
            }

            fn from_code(code: u64) -> Option<Kind> {
                match code {
                    $($acode => Some(Kind::$AKind),)*
                    $($lcode => Some(Kind::$LKind),)*
                    _ => None,
                }
            }

            /// The kind's name in MLIR's builtin dialect.
            #[cfg(test)]
            fn name(self) -> &'static str {
                match self {
                    $(Kind::$AKind => $aname,)*
                    $(Kind::$LKind => $lname,)*
                }
            }

            /// Reads the kind's parameters (after its code).
            fn read(self, r: &mut Reader<'_>, lookup: &dyn EntryLookup) -> Decoded<Attribute> {
                match self {
                    $(Kind::$AKind => $aread(r, lookup),)*
                    $(Kind::$LKind => Ok(Attribute::Location(Box::new($lread(r, lookup)?))),)*
                }
            }

            /// Writes the parameters of `attr`, which `Kind::of` mapped to this kind.
            fn write(self, attr: &Attribute, sink: &mut dyn EntrySink) {
                match (self, attr) {
                    $((Kind::$AKind, _) => $awrite(attr, sink),)*
                    $((Kind::$LKind, Attribute::Location(loc)) => $lwrite(loc, sink),)*
                    _ => not_of_kind(self),
                }
            }

            /// Writes the parameters of `loc`, which `Kind::of_location`
            /// mapped to this kind.
            fn write_location<S: EntrySink + ?Sized>(self, loc: &Location, sink: &mut S) {
                match self {
                    $(Kind::$LKind => $lwrite(loc, sink),)*
                    _ => not_of_kind(self),
                }
            }
        }
    };
}

builtin_attribute_kinds!(define_kinds);

/// The code of a `distinct` attribute, which the reader looks for before
/// choosing how to decode a file.
pub(crate) const DISTINCT: u64 = Kind::Distinct.code();

/// A writer was handed a value that `Kind::of` maps to another kind.
fn not_of_kind(kind: Kind) -> ! {
    unreachable!("value is not a builtin {kind:?} attribute")
}

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
    if r.varint().ok()? != Kind::FileLineColLoc.code() {
        return None;
    }
    let file = r.varint().ok()?;
    let line = u32::try_from(r.varint().ok()?).ok()?;
    let column = u32::try_from(r.varint().ok()?).ok()?;
    Some((file, line, column))
}

/// Decodes the custom encoding of a builtin attribute (the whole entry).
pub fn decode(r: &mut Reader<'_>, lookup: &dyn EntryLookup) -> Decoded<Attribute> {
    let code_at = r.offset();
    let code = r.varint()?;
    match Kind::from_code(code) {
        Some(kind) => kind.read(r, lookup),
        None => Err(fail(
            code_at,
            format!("unknown builtin attribute code {code}"),
        )),
    }
}

fn read_array(r: &mut Reader<'_>, lookup: &dyn EntryLookup) -> Decoded<Attribute> {
    let n = r.count(1, "array element")?;
    let mut items = Vec::with_capacity(n);
    for _ in 0..n {
        items.push(attr(r, lookup)?);
    }
    Ok(Attribute::Array(items))
}

fn read_dictionary(r: &mut Reader<'_>, lookup: &dyn EntryLookup) -> Decoded<Attribute> {
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
    Ok(Attribute::Dictionary(entries))
}

fn read_string(r: &mut Reader<'_>, lookup: &dyn EntryLookup) -> Decoded<Attribute> {
    Ok(Attribute::String {
        value: string(r, lookup)?.to_vec(),
        ty: None,
    })
}

fn read_string_with_type(r: &mut Reader<'_>, lookup: &dyn EntryLookup) -> Decoded<Attribute> {
    let value = string(r, lookup)?.to_vec();
    Ok(Attribute::String {
        value,
        ty: Some(ty(r, lookup)?),
    })
}

fn read_flat_symbol_ref(r: &mut Reader<'_>, lookup: &dyn EntryLookup) -> Decoded<Attribute> {
    Ok(Attribute::SymbolRef {
        root: string_attr(r, lookup)?,
        nested: Vec::new(),
    })
}

fn read_symbol_ref(r: &mut Reader<'_>, lookup: &dyn EntryLookup) -> Decoded<Attribute> {
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
    Ok(Attribute::SymbolRef { root, nested })
}

fn read_type(r: &mut Reader<'_>, lookup: &dyn EntryLookup) -> Decoded<Attribute> {
    Ok(Attribute::Type(ty(r, lookup)?))
}

fn read_unit(_: &mut Reader<'_>, _: &dyn EntryLookup) -> Decoded<Attribute> {
    Ok(Attribute::Unit)
}

fn read_integer(r: &mut Reader<'_>, lookup: &dyn EntryLookup) -> Decoded<Attribute> {
    let at = r.offset();
    let t = ty(r, lookup)?;
    let Some(width) = integer_width(&t) else {
        return Err(fail(at, format!("integer attribute of type {t}")));
    };
    let words = read_apint(r, width)?;
    integer_attr(words, t, at)
}

fn read_float(r: &mut Reader<'_>, lookup: &dyn EntryLookup) -> Decoded<Attribute> {
    let at = r.offset();
    let t = ty(r, lookup)?;
    let Some(width) = float_width(&t) else {
        return Err(fail(at, format!("float attribute of type {t}")));
    };
    let words = truncate_words(read_apint(r, width)?, width);
    let bits = u128::from(words[0]) | (u128::from(words.get(1).copied().unwrap_or(0)) << 64);
    Ok(Attribute::Float { bits, ty: t })
}

fn read_call_site_loc(r: &mut Reader<'_>, lookup: &dyn EntryLookup) -> Decoded<Location> {
    let callee = Box::new(location(r, lookup)?);
    let caller = Box::new(location(r, lookup)?);
    Ok(Location::CallSite { callee, caller })
}

fn read_fused_loc(r: &mut Reader<'_>, lookup: &dyn EntryLookup) -> Decoded<Location> {
    Ok(Location::Fused {
        locations: locations(r, lookup)?,
        metadata: None,
    })
}

fn read_fused_loc_with_metadata(r: &mut Reader<'_>, lookup: &dyn EntryLookup) -> Decoded<Location> {
    let locs = locations(r, lookup)?;
    Ok(Location::Fused {
        locations: locs,
        metadata: Some(Box::new(attr(r, lookup)?)),
    })
}

fn read_name_loc(r: &mut Reader<'_>, lookup: &dyn EntryLookup) -> Decoded<Location> {
    let name = string_attr(r, lookup)?;
    let child = Box::new(location(r, lookup)?);
    Ok(Location::Name { name, child })
}

fn read_unknown_loc(_: &mut Reader<'_>, _: &dyn EntryLookup) -> Decoded<Location> {
    Ok(Location::Unknown)
}

fn read_dense_resource(r: &mut Reader<'_>, lookup: &dyn EntryLookup) -> Decoded<Attribute> {
    let t = ty(r, lookup)?;
    let at = r.offset();
    let handle = lookup.resource(r.varint()?, at)?;
    Ok(Attribute::DenseResource { ty: t, handle })
}

fn read_dense_array(r: &mut Reader<'_>, lookup: &dyn EntryLookup) -> Decoded<Attribute> {
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
    Ok(Attribute::DenseArray {
        element,
        data: data.to_vec(),
    })
}

fn read_dense_int_or_fp(r: &mut Reader<'_>, lookup: &dyn EntryLookup) -> Decoded<Attribute> {
    let at = r.offset();
    let t = ty(r, lookup)?;
    let blob_len = r.index()?;
    let blob = r.bytes(blob_len)?;
    dense_from_blob(t, blob, at)
}

fn read_dense_string(r: &mut Reader<'_>, lookup: &dyn EntryLookup) -> Decoded<Attribute> {
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
    Ok(Attribute::DenseStrings {
        ty: t,
        splat,
        values,
    })
}

fn read_sparse(r: &mut Reader<'_>, lookup: &dyn EntryLookup) -> Decoded<Attribute> {
    let t = ty(r, lookup)?;
    let at = r.offset();
    let indices = attr(r, lookup)?;
    let values = attr(r, lookup)?;
    if !matches!(indices, Attribute::DenseElements(_)) {
        return Err(fail(at, "sparse indices must be dense elements"));
    }
    Ok(Attribute::Sparse {
        ty: t,
        indices: Box::new(indices),
        values: Box::new(values),
    })
}

fn read_distinct(r: &mut Reader<'_>, lookup: &dyn EntryLookup) -> Decoded<Attribute> {
    Ok(Attribute::Distinct {
        // The table assigns identities after decoding.
        id: 0,
        referenced: Box::new(attr(r, lookup)?),
    })
}

fn read_file_line_col_range(r: &mut Reader<'_>, lookup: &dyn EntryLookup) -> Decoded<Location> {
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
    Ok(if (start_line, start_column) == (end_line, end_column) {
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
    })
}

fn read_affine_map_attr(r: &mut Reader<'_>, _: &dyn EntryLookup) -> Decoded<Attribute> {
    Ok(Attribute::AffineMap(read_affine_map(r)?))
}

fn read_integer_set(r: &mut Reader<'_>, _: &dyn EntryLookup) -> Decoded<Attribute> {
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
    Ok(Attribute::IntegerSet(IntegerSet {
        num_dims,
        num_symbols,
        constraints,
        is_equality: flags.iter().map(|&b| b != 0).collect(),
    }))
}

fn read_strided_layout(r: &mut Reader<'_>, _: &dyn EntryLookup) -> Decoded<Attribute> {
    let offset = r.signed_varint()?;
    let n = r.count(1, "stride")?;
    let strides = (0..n)
        .map(|_| Ok(r.signed_varint()?))
        .collect::<Decoded<Vec<_>>>()?;
    Ok(Attribute::StridedLayout { offset, strides })
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
    sink.varint(Kind::Dictionary.code());
    write_dictionary_entries(entries, sink);
}

/// A `file:line:col` location whose file name's attribute number is
/// already known (the writer keeps such locations by their numbers).
pub fn encode_numbered_file_line_col<S: EntrySink + ?Sized>(
    file: u64,
    line: u32,
    column: u32,
    sink: &mut S,
) {
    sink.varint(Kind::FileLineColLoc.code());
    sink.varint(file);
    sink.varint(u64::from(line));
    sink.varint(u64::from(column));
}

/// Writes the custom encoding of a location.
/// Generic so that the writer's sinks are called directly: it encodes a
/// location per op.
pub fn encode_location<S: EntrySink + ?Sized>(loc: &Location, sink: &mut S) {
    let kind = Kind::of_location(loc);
    sink.varint(kind.code());
    kind.write_location(loc, sink);
}

/// Writes the custom encoding of `attr`; `false` when it has none (dialect
/// attributes, and forms without a builtin code) and goes as text.
pub fn encode(attr: &Attribute, sink: &mut dyn EntrySink) -> bool {
    let Some(kind) = Kind::of(attr) else {
        return false;
    };
    sink.varint(kind.code());
    kind.write(attr, sink);
    true
}

impl Kind {
    /// The kind `attr` is encoded as; `None` when it has no custom encoding.
    fn of(attr: &Attribute) -> Option<Kind> {
        Some(match attr {
            Attribute::Unit => Kind::Unit,
            Attribute::Bool(_) => Kind::Integer,
            Attribute::Integer { ty, .. } | Attribute::WideInteger { ty, .. } => {
                integer_width(ty)?;
                Kind::Integer
            }
            Attribute::Float { ty, .. } => {
                float_width(ty)?;
                Kind::Float
            }
            Attribute::String { ty: None, .. } => Kind::String,
            Attribute::String { ty: Some(_), .. } => Kind::StringWithType,
            Attribute::Type(_) => Kind::Type,
            Attribute::SymbolRef { nested, .. } if nested.is_empty() => Kind::FlatSymbolRef,
            Attribute::SymbolRef { .. } => Kind::SymbolRef,
            Attribute::Array(_) => Kind::Array,
            Attribute::Dictionary(_) => Kind::Dictionary,
            Attribute::DenseElements(_) => Kind::DenseIntOrFp,
            Attribute::DenseArray { .. } => Kind::DenseArray,
            Attribute::Location(loc) => Kind::of_location(loc),
            Attribute::AffineMap(_) => Kind::AffineMap,
            Attribute::IntegerSet(_) => Kind::IntegerSet,
            Attribute::StridedLayout { .. } => Kind::StridedLayout,
            Attribute::Distinct { .. } => Kind::Distinct,
            Attribute::DenseResource { .. } => Kind::DenseResource,
            Attribute::DenseStrings { .. } => Kind::DenseString,
            Attribute::Sparse { .. } => Kind::Sparse,
            Attribute::Shape(_) | Attribute::Dialect { .. } => return None,
        })
    }

    /// The kind `loc` is encoded as.
    fn of_location(loc: &Location) -> Kind {
        match loc {
            Location::Unknown => Kind::UnknownLoc,
            Location::FileLineCol { .. } => Kind::FileLineColLoc,
            Location::FileRange { .. } => Kind::FileLineColRange,
            Location::Name { .. } => Kind::NameLoc,
            Location::CallSite { .. } => Kind::CallSiteLoc,
            Location::Fused {
                metadata: Some(_), ..
            } => Kind::FusedLocWithMetadata,
            Location::Fused { metadata: None, .. } => Kind::FusedLoc,
        }
    }
}

fn write_array(attr: &Attribute, sink: &mut dyn EntrySink) {
    let Attribute::Array(items) = attr else {
        not_of_kind(Kind::Array)
    };
    sink.varint(items.len() as u64);
    for item in items {
        sink.attribute(item);
    }
}

fn write_dictionary(attr: &Attribute, sink: &mut dyn EntrySink) {
    let Attribute::Dictionary(entries) = attr else {
        not_of_kind(Kind::Dictionary)
    };
    write_dictionary_entries(entries, sink);
}

fn write_dictionary_entries(entries: &[(String, Attribute)], sink: &mut dyn EntrySink) {
    sink.varint(entries.len() as u64);
    for (name, value) in entries {
        sink.attribute(&string_attribute(name));
        sink.attribute(value);
    }
}

/// `String` and `StringWithType`: the type follows when there is one.
fn write_string(attr: &Attribute, sink: &mut dyn EntrySink) {
    let Attribute::String { value, ty } = attr else {
        not_of_kind(Kind::String)
    };
    sink.string(value);
    if let Some(t) = ty {
        sink.type_(t);
    }
}

/// `FlatSymbolRef` and `SymbolRef`: the nested references follow when
/// there are any.
fn write_symbol_ref(attr: &Attribute, sink: &mut dyn EntrySink) {
    let Attribute::SymbolRef { root, nested } = attr else {
        not_of_kind(Kind::SymbolRef)
    };
    sink.attribute(&string_attribute(root));
    if !nested.is_empty() {
        sink.varint(nested.len() as u64);
        for n in nested {
            sink.attribute(&Attribute::symbol(n));
        }
    }
}

fn write_type(attr: &Attribute, sink: &mut dyn EntrySink) {
    let Attribute::Type(t) = attr else {
        not_of_kind(Kind::Type)
    };
    sink.type_(t);
}

fn write_unit(_: &Attribute, _: &mut dyn EntrySink) {}

fn write_integer(attr: &Attribute, sink: &mut dyn EntrySink) {
    match attr {
        Attribute::Bool(b) => {
            sink.type_(&Type::i(1));
            sink.byte(u8::from(*b));
        }
        Attribute::Integer { value, ty } => {
            let Some(width) = integer_width(ty) else {
                not_of_kind(Kind::Integer)
            };
            sink.type_(ty);
            write_apint(sink, &integer_words(*value, width), width);
        }
        Attribute::WideInteger { words, ty } => {
            let Some(width) = integer_width(ty) else {
                not_of_kind(Kind::Integer)
            };
            sink.type_(ty);
            write_apint(sink, &truncate_words(words.clone(), width), width);
        }
        _ => not_of_kind(Kind::Integer),
    }
}

fn write_float(attr: &Attribute, sink: &mut dyn EntrySink) {
    let Attribute::Float { bits, ty } = attr else {
        not_of_kind(Kind::Float)
    };
    let Some(width) = float_width(ty) else {
        not_of_kind(Kind::Float)
    };
    sink.type_(ty);
    let words = truncate_words(vec![*bits as u64, (*bits >> 64) as u64], width);
    write_apint(sink, &words, width);
}

fn write_dense_resource(attr: &Attribute, sink: &mut dyn EntrySink) {
    let Attribute::DenseResource { ty, handle } = attr else {
        not_of_kind(Kind::DenseResource)
    };
    sink.type_(ty);
    sink.resource(handle);
}

fn write_dense_array(attr: &Attribute, sink: &mut dyn EntrySink) {
    let Attribute::DenseArray { element, data } = attr else {
        not_of_kind(Kind::DenseArray)
    };
    let size = match element {
        Type::Integer { width: 1, .. } => 1,
        other => element_size(other).unwrap_or(1).max(1),
    };
    sink.type_(element);
    sink.varint((data.len() / size) as u64);
    sink.blob(data);
}

fn write_dense_int_or_fp(attr: &Attribute, sink: &mut dyn EntrySink) {
    let Attribute::DenseElements(d) = attr else {
        not_of_kind(Kind::DenseIntOrFp)
    };
    sink.type_(&d.ty);
    sink.blob(&dense_to_blob(d));
}

fn write_dense_string(attr: &Attribute, sink: &mut dyn EntrySink) {
    let Attribute::DenseStrings { ty, splat, values } = attr else {
        not_of_kind(Kind::DenseString)
    };
    sink.type_(ty);
    sink.varint(u64::from(*splat));
    for v in values {
        sink.string(v);
    }
}

fn write_sparse(attr: &Attribute, sink: &mut dyn EntrySink) {
    let Attribute::Sparse {
        ty,
        indices,
        values,
    } = attr
    else {
        not_of_kind(Kind::Sparse)
    };
    sink.type_(ty);
    sink.attribute(indices);
    sink.attribute(values);
}

fn write_distinct(attr: &Attribute, sink: &mut dyn EntrySink) {
    let Attribute::Distinct { referenced, .. } = attr else {
        not_of_kind(Kind::Distinct)
    };
    sink.attribute(referenced);
}

fn write_affine_map_attr(attr: &Attribute, sink: &mut dyn EntrySink) {
    let Attribute::AffineMap(map) = attr else {
        not_of_kind(Kind::AffineMap)
    };
    write_affine_map(sink, map);
}

fn write_integer_set(attr: &Attribute, sink: &mut dyn EntrySink) {
    let Attribute::IntegerSet(set) = attr else {
        not_of_kind(Kind::IntegerSet)
    };
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

fn write_strided_layout(attr: &Attribute, sink: &mut dyn EntrySink) {
    let Attribute::StridedLayout { offset, strides } = attr else {
        not_of_kind(Kind::StridedLayout)
    };
    sink.signed_varint(*offset);
    sink.varint(strides.len() as u64);
    for &s in strides {
        sink.signed_varint(s);
    }
}

fn write_call_site_loc<S: EntrySink + ?Sized>(loc: &Location, sink: &mut S) {
    let Location::CallSite { callee, caller } = loc else {
        not_of_kind(Kind::CallSiteLoc)
    };
    sink.location(callee);
    sink.location(caller);
}

fn write_file_line_col_loc<S: EntrySink + ?Sized>(loc: &Location, sink: &mut S) {
    let Location::FileLineCol { file, line, column } = loc else {
        not_of_kind(Kind::FileLineColLoc)
    };
    sink.file_name(file);
    sink.varint(u64::from(*line));
    sink.varint(u64::from(*column));
}

/// `FusedLoc` and `FusedLocWithMetadata`: the metadata follows when there
/// is some.
fn write_fused_loc<S: EntrySink + ?Sized>(loc: &Location, sink: &mut S) {
    let Location::Fused {
        locations,
        metadata,
    } = loc
    else {
        not_of_kind(Kind::FusedLoc)
    };
    sink.varint(locations.len() as u64);
    for l in locations {
        sink.location(l);
    }
    if let Some(m) = metadata {
        sink.attribute(m);
    }
}

fn write_name_loc<S: EntrySink + ?Sized>(loc: &Location, sink: &mut S) {
    let Location::Name { name, child } = loc else {
        not_of_kind(Kind::NameLoc)
    };
    sink.attribute(&string_attribute(name));
    sink.location(child);
}

fn write_unknown_loc<S: EntrySink + ?Sized>(_: &Location, _: &mut S) {}

fn write_file_line_col_range<S: EntrySink + ?Sized>(loc: &Location, sink: &mut S) {
    let Location::FileRange {
        file,
        start_line,
        start_column,
        end_line,
        end_column,
    } = loc
    else {
        not_of_kind(Kind::FileLineColRange)
    };
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

#[cfg(test)]
mod tests {
    use super::Kind;

    #[test]
    fn codes_are_dense_and_round_trip() {
        let mut codes: Vec<u64> = Kind::ALL.iter().map(|k| k.code()).collect();
        codes.sort_unstable();
        assert_eq!(codes, (0..Kind::ALL.len() as u64).collect::<Vec<_>>());
        for &kind in Kind::ALL {
            assert_eq!(Kind::from_code(kind.code()), Some(kind), "{}", kind.name());
        }
        let mut names: Vec<&str> = Kind::ALL.iter().map(|k| k.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Kind::ALL.len());
    }
}
