//! Attribute values and their byte layouts in the Attributes section.
//!
//! Layouts follow the reference `BefAttrEncoder`/`BefAttrEmitter` (fact
//! sheet "Attribute layouts"): scalars at natural alignment, strings and
//! arrays behind a `u32` count, and shapes, dense elements and aggregates
//! behind the 8-byte header `{u8 alignment; u8 dtype; u16 prefix_size;
//! u32 byte_size}`.

use super::constants::MAX_NESTING;
use super::dtype::{ArrayElement, AttrType, DType, ScalarKind};
use super::emitter::{Emitter, padding_for};
use super::error::{DecodeError, DecodeResult, EncodeError, EncodeResult};
use super::reader::{Reader, u32_at};

/// An attribute value. Floats are kept as bit patterns so that every value,
/// NaNs included, compares equal to itself after a round trip.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Attribute {
    /// `i1`: a boolean.
    I1(bool),
    /// `i8`.
    I8(i8),
    /// `i16`.
    I16(i16),
    /// `i32`.
    I32(i32),
    /// `i64`.
    I64(i64),
    /// `ui8`.
    UI8(u8),
    /// `ui16`.
    UI16(u16),
    /// `ui32`.
    UI32(u32),
    /// `ui64`.
    UI64(u64),
    /// IEEE half precision, as its bit pattern.
    F16(u16),
    /// bfloat16, as its bit pattern.
    BF16(u16),
    /// IEEE single precision, as its bit pattern.
    F32(u32),
    /// IEEE double precision, as its bit pattern.
    F64(u64),
    /// String bytes (no NUL terminator, may hold any byte).
    String(Vec<u8>),
    /// A type attribute such as `f32`, stored as its dtype byte.
    Type(DType),
    /// A function name attribute (`BEFAttributeType::kFunc`).
    Func(Vec<u8>),
    /// `#corert.shape<...>`: `None` is unranked; `-1` marks an unknown dim.
    Shape(Option<Vec<i64>>),
    /// A dense elements attribute (`dense<...> : tensor<...>`).
    Dense(DenseAttr),
    /// Fixed-width elements of one kind; every value matches `element`.
    Array {
        /// Element kind shared by all values, which fixes their width and alignment.
        element: ArrayElement,
        /// The elements, in order.
        values: Vec<Attribute>,
    },
    /// Mixed or nested elements.
    Aggregate(Vec<Attribute>),
    /// A symbol reference into a compiled module, serialized as a
    /// compilation unit (`BEFAttributeType::kSymbolRef`).
    CompilationUnit(CompilationUnit),
}

/// A dense elements attribute: a shaped tensor of one dtype, stored flat.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct DenseAttr {
    /// Element type.
    pub dtype: DType,
    /// Dimension sizes, outermost first; empty for a scalar.
    pub shape: Vec<i64>,
    /// Little-endian element bytes, `product(shape) * size(dtype)` long
    /// (i1 takes one byte per element; splats are expanded).
    pub data: Vec<u8>,
}

/// A symbol reference (`@root::@nested...`) together with the serialized
/// module it refers to, as the reference emitter writes `kSymbolRef`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CompilationUnit {
    /// Identifier of the compilation unit, as the emitter assigned it.
    pub id: u64,
    /// Root symbol name, without `@`.
    pub root: Vec<u8>,
    /// Nested symbol names, outermost first, without `@`.
    pub nested: Vec<Vec<u8>>,
    /// The serialized module the symbols resolve in; opaque bytes.
    pub serialized: Vec<u8>,
}

impl Attribute {
    /// An `f32` attribute from its value (stored as its bits).
    pub fn f32(value: f32) -> Attribute {
        Attribute::F32(value.to_bits())
    }

    /// An `f64` attribute from its value (stored as its bits).
    pub fn f64(value: f64) -> Attribute {
        Attribute::F64(value.to_bits())
    }

    /// A string attribute from its bytes.
    pub fn string(value: impl Into<Vec<u8>>) -> Attribute {
        Attribute::String(value.into())
    }

    /// How many levels below this attribute its deepest part lies: one
    /// more than its deepest element's for an aggregate, 0 for anything
    /// else (array elements are not nested attributes). The encoder and
    /// decoder refuse attributes deeper than [`MAX_NESTING`]. Iterative,
    /// so any depth can be measured.
    pub fn nesting_depth(&self) -> usize {
        let mut deepest = 0;
        let mut stack = vec![(self, 0usize)];
        while let Some((attr, depth)) = stack.pop() {
            deepest = deepest.max(depth);
            if let Attribute::Aggregate(elements) = attr {
                stack.extend(elements.iter().map(|e| (e, depth + 1)));
            }
        }
        deepest
    }

    /// The scalar dtype of an integer or float attribute.
    pub fn scalar_dtype(&self) -> Option<DType> {
        Some(match self {
            Attribute::I1(_) => DType::I1,
            Attribute::I8(_) => DType::I8,
            Attribute::I16(_) => DType::I16,
            Attribute::I32(_) => DType::I32,
            Attribute::I64(_) => DType::I64,
            Attribute::UI8(_) => DType::UI8,
            Attribute::UI16(_) => DType::UI16,
            Attribute::UI32(_) => DType::UI32,
            Attribute::UI64(_) => DType::UI64,
            Attribute::F16(_) => DType::F16,
            Attribute::BF16(_) => DType::BF16,
            Attribute::F32(_) => DType::F32,
            Attribute::F64(_) => DType::F64,
            _ => return None,
        })
    }

    /// The element kind this value has when it appears inside an array.
    pub fn array_element(&self) -> Option<ArrayElement> {
        match self {
            Attribute::Type(_) => Some(ArrayElement::Type),
            other => other.scalar_dtype().map(ArrayElement::Scalar),
        }
    }

    /// The attribute type code stored in AttributeTypes and in aggregate
    /// element tags.
    pub fn attr_type(&self) -> AttrType {
        if let Some(dtype) = self.scalar_dtype() {
            return AttrType::scalar(dtype);
        }
        match self {
            Attribute::String(_) => AttrType::scalar(DType::String),
            Attribute::Type(_) => AttrType::TYPE,
            Attribute::Func(_) => AttrType::FUNC,
            Attribute::Shape(_) => AttrType::SHAPE,
            Attribute::Dense(_) => AttrType::DENSE,
            Attribute::Array { element, .. } => AttrType::array_of(*element),
            Attribute::Aggregate(_) => AttrType::AGGREGATE,
            Attribute::CompilationUnit(_) => AttrType::SYMBOL_REF,
            _ => unreachable!("scalars are handled above"),
        }
    }

    /// Alignment the reference encoder assumes for this value when it sizes
    /// an enclosing aggregate (`BefAttrEmitter::GetAlignment`).
    fn aggregate_alignment(&self) -> usize {
        match self {
            Attribute::String(_) | Attribute::Func(_) => 4,
            Attribute::Type(_) | Attribute::CompilationUnit(_) => 1,
            Attribute::Shape(Some(_)) => 8,
            Attribute::Shape(None) => 1,
            Attribute::Dense(_) => 8,
            Attribute::Array { .. } | Attribute::Aggregate(_) => 8,
            scalar => scalar
                .scalar_dtype()
                .and_then(DType::host_size)
                // An i1 counts as zero bytes wide (1 bit / 8) in the reference.
                .map_or(1, |size| {
                    if scalar.scalar_dtype() == Some(DType::I1) {
                        0
                    } else {
                        size
                    }
                }),
        }
    }

    fn scalar_bytes(&self) -> Option<([u8; 8], usize)> {
        let mut out = [0u8; 8];
        let len = match self {
            Attribute::I1(v) => {
                out[0] = u8::from(*v);
                1
            }
            Attribute::I8(v) => put(&mut out, &v.to_le_bytes()),
            Attribute::UI8(v) => put(&mut out, &[*v]),
            Attribute::I16(v) => put(&mut out, &v.to_le_bytes()),
            Attribute::UI16(v) | Attribute::F16(v) | Attribute::BF16(v) => {
                put(&mut out, &v.to_le_bytes())
            }
            Attribute::I32(v) => put(&mut out, &v.to_le_bytes()),
            Attribute::UI32(v) | Attribute::F32(v) => put(&mut out, &v.to_le_bytes()),
            Attribute::I64(v) => put(&mut out, &v.to_le_bytes()),
            Attribute::UI64(v) | Attribute::F64(v) => put(&mut out, &v.to_le_bytes()),
            Attribute::Type(dtype) => put(&mut out, &[*dtype as u8]),
            _ => return None,
        };
        Some((out, len))
    }
}

fn put(out: &mut [u8; 8], bytes: &[u8]) -> usize {
    out[..bytes.len()].copy_from_slice(bytes);
    bytes.len()
}

fn to_u32(value: usize, what: &str) -> EncodeResult<u32> {
    u32::try_from(value).map_err(|_| EncodeError(format!("{what} {value} does not fit in 32 bits")))
}

/// Writes the common header `{alignment, dtype, prefix_size, byte_size}`
/// followed by `fields`, padded so that `offset + prefix_size` is a
/// multiple of `alignment` (`BefAttrEncoder::EncodeHeader`).
fn emit_header(
    e: &mut Emitter,
    alignment: u8,
    dtype: DType,
    prefix_size: usize,
    byte_size: u32,
    fields: &[u32],
) -> EncodeResult<usize> {
    let prefix = u16::try_from(prefix_size).map_err(|_| {
        EncodeError(format!(
            "attribute header prefix {prefix_size} exceeds 65535 bytes"
        ))
    })?;
    let padding = padding_for(e.len() + prefix_size, usize::from(alignment));
    e.pad(usize::from(alignment), padding);
    let offset = e.len();
    e.byte(alignment);
    e.byte(dtype as u8);
    e.extend(&prefix.to_le_bytes());
    e.extend(&byte_size.to_le_bytes());
    for field in fields {
        e.extend(&field.to_le_bytes());
    }
    Ok(offset)
}

/// Writes the `u32 count` of an array so that its payload meets
/// `payload_alignment` (`EncodeArrayAttrHeader`).
fn emit_array_header(
    e: &mut Emitter,
    count: usize,
    payload_alignment: usize,
) -> EncodeResult<usize> {
    if payload_alignment <= 4 {
        e.align(4);
    } else {
        let padding = padding_for(e.len() + 4, payload_alignment);
        e.pad(payload_alignment, padding);
    }
    let offset = e.len();
    e.extend(&to_u32(count, "array length")?.to_le_bytes());
    Ok(offset)
}

fn emit_empty(e: &mut Emitter) -> usize {
    e.align(4);
    let offset = e.len();
    e.extend(&0u32.to_le_bytes());
    offset
}

/// Appends `attr` to an Attributes section under construction and returns
/// the offset kernels use to refer to it. Aggregates nested deeper than
/// [`MAX_NESTING`] levels, which readers refuse, are refused.
pub fn emit_attribute(e: &mut Emitter, attr: &Attribute) -> EncodeResult<usize> {
    emit_nested(e, attr, 0)
}

/// `emit_attribute` for an attribute `depth` aggregates deep.
fn emit_nested(e: &mut Emitter, attr: &Attribute, depth: usize) -> EncodeResult<usize> {
    if depth > MAX_NESTING {
        return Err(EncodeError(format!(
            "attributes nested deeper than {MAX_NESTING} levels"
        )));
    }
    if let Some((bytes, len)) = attr.scalar_bytes() {
        // One-byte values are written without alignment bookkeeping, as in
        // the reference's shortcut.
        if len > 1 {
            e.align(len);
        }
        let offset = e.len();
        e.extend(&bytes[..len]);
        return Ok(offset);
    }
    match attr {
        Attribute::String(bytes) | Attribute::Func(bytes) => {
            if bytes.is_empty() {
                return Ok(emit_empty(e));
            }
            let offset = emit_array_header(e, bytes.len(), 1)?;
            e.extend(bytes);
            Ok(offset)
        }
        Attribute::Array { element, values } => {
            if values.is_empty() {
                return Ok(emit_empty(e));
            }
            let offset = emit_array_header(e, values.len(), element.alignment())?;
            for (i, value) in values.iter().enumerate() {
                if value.array_element() != Some(*element) {
                    return Err(EncodeError(format!(
                        "array element {i} is {} but the array holds {}",
                        value.attr_type().name(),
                        element.name()
                    )));
                }
                emit_nested(e, value, depth)?;
            }
            Ok(offset)
        }
        Attribute::Shape(None) => Ok(emit_empty(e)),
        Attribute::Shape(Some(dims)) => {
            let rank = to_u32(dims.len(), "shape rank")?;
            if dims.is_empty() {
                return emit_header(e, 4, DType::Invalid, 0, 12, &[0]);
            }
            let byte_size = to_u32(12 + 8 * dims.len(), "shape size")?;
            let offset = emit_header(e, 8, DType::Invalid, 12, byte_size, &[rank])?;
            for dim in dims {
                e.extend(&dim.to_le_bytes());
            }
            Ok(offset)
        }
        Attribute::Dense(dense) => emit_dense(e, dense),
        Attribute::Aggregate(elements) => emit_aggregate(e, elements, depth),
        Attribute::CompilationUnit(unit) => {
            let offset = e.len();
            e.vbr(unit.id);
            e.vbr(unit.root.len() as u64);
            e.vbr(unit.nested.len() as u64);
            for name in &unit.nested {
                e.vbr(name.len() as u64);
            }
            e.vbr(unit.serialized.len() as u64);
            e.extend(&unit.root);
            for name in &unit.nested {
                e.extend(name);
            }
            e.extend(&unit.serialized);
            e.byte(0);
            Ok(offset)
        }
        _ => unreachable!("scalars are handled above"),
    }
}

fn emit_dense(e: &mut Emitter, dense: &DenseAttr) -> EncodeResult<usize> {
    let size = dense
        .dtype
        .host_size()
        .filter(|_| dense.dtype.is_dense_element())
        .ok_or_else(|| {
            EncodeError(format!(
                "dense elements of {} cannot be encoded",
                dense.dtype.mlir_name()
            ))
        })?;
    let count = dense_element_count(&dense.shape).ok_or_else(|| {
        EncodeError(format!(
            "dense shape {:?} has no valid element count",
            dense.shape
        ))
    })?;
    if count.checked_mul(size as u64) != Some(dense.data.len() as u64) {
        return Err(EncodeError(format!(
            "dense data has {} bytes but shape {:?} of {} needs {count} elements",
            dense.data.len(),
            dense.shape,
            dense.dtype.mlir_name()
        )));
    }
    let element_offset = 20 + 8 * dense.shape.len();
    let byte_size = to_u32(element_offset + dense.data.len(), "dense attribute size")?;
    let fields = [
        to_u32(element_offset, "dense element offset")?,
        to_u32(count as usize, "dense element count")?,
        to_u32(dense.shape.len(), "dense rank")?,
    ];
    let offset = emit_header(e, 8, dense.dtype, element_offset, byte_size, &fields)?;
    for dim in &dense.shape {
        e.extend(&dim.to_le_bytes());
    }
    e.extend(&dense.data);
    Ok(offset)
}

/// Number of elements of a dense shape, if every dimension is known and
/// the product fits.
pub fn dense_element_count(shape: &[i64]) -> Option<u64> {
    shape.iter().try_fold(1u64, |acc, &dim| {
        let dim = u64::try_from(dim).ok()?;
        acc.checked_mul(dim)
    })
}

fn emit_aggregate(e: &mut Emitter, elements: &[Attribute], depth: usize) -> EncodeResult<usize> {
    if elements.is_empty() {
        return Ok(emit_empty(e));
    }
    let alignment = elements
        .iter()
        .map(Attribute::aggregate_alignment)
        .max()
        .unwrap_or(1)
        .max(4);
    let count = to_u32(elements.len(), "aggregate length")?;
    let offset = emit_header(
        e,
        alignment as u8,
        DType::Invalid,
        12 + 4 * elements.len(),
        0,
        &[count],
    )?;
    let mut offset_slot = e.len();
    for _ in elements {
        e.extend(&0u32.to_le_bytes());
    }
    for element in elements {
        // Room for the element's type tag; the tag is finally written to the
        // byte just before the element, wherever its alignment put it.
        e.byte(super::emitter::PADDING_BYTE);
        let element_offset = emit_nested(e, element, depth + 1)?;
        e.overwrite(element_offset - 1, &[element.attr_type().0]);
        let relative = to_u32(element_offset - offset, "aggregate element offset")?;
        e.overwrite(offset_slot, &relative.to_le_bytes());
        offset_slot += 4;
    }
    let byte_size = to_u32(e.len() - offset, "aggregate size")?;
    e.overwrite(offset + 4, &byte_size.to_le_bytes());
    Ok(offset)
}

/// Decodes the attribute of type `ty` at `offset` of the Attributes section
/// `section`, whose first byte is at absolute file offset `base`.
pub fn decode_attribute(
    section: &[u8],
    base: u64,
    offset: usize,
    ty: AttrType,
) -> DecodeResult<Attribute> {
    AttrDecoder { section, base }.decode(offset, ty, 0)
}

struct AttrDecoder<'a> {
    section: &'a [u8],
    base: u64,
}

impl AttrDecoder<'_> {
    /// An error at `offset`, or at the end of the section for an offset
    /// past it (errors point inside the input).
    fn err(&self, offset: usize, message: impl Into<String>) -> DecodeError {
        let offset = offset.min(self.section.len());
        DecodeError::new(self.base + offset as u64, message)
    }

    fn bytes(&self, offset: usize, len: usize, what: &str) -> DecodeResult<&[u8]> {
        offset
            .checked_add(len)
            .and_then(|end| self.section.get(offset..end))
            .ok_or_else(|| {
                self.err(
                    offset.min(self.section.len()),
                    format!("{what} ({len} bytes) runs past the end of the Attributes section"),
                )
            })
    }

    fn u32(&self, offset: usize, what: &str) -> DecodeResult<u32> {
        u32_at(self.section, offset).ok_or_else(|| {
            self.err(
                offset.min(self.section.len()),
                format!("{what} runs past the end of the Attributes section"),
            )
        })
    }

    fn decode(&self, offset: usize, ty: AttrType, depth: usize) -> DecodeResult<Attribute> {
        if depth > MAX_NESTING {
            return Err(self.err(
                offset,
                format!("attributes nested deeper than {MAX_NESTING} levels"),
            ));
        }
        if let Some(element) = ty.array_element() {
            return self.decode_array(offset, element);
        }
        if ty.is_array() {
            return Err(self.err(offset, format!("unknown array attribute type {}", ty.0)));
        }
        match ty {
            AttrType::TYPE => {
                let code = self.bytes(offset, 1, "type attribute")?[0];
                let dtype = DType::from_u8(code).ok_or_else(|| {
                    self.err(offset, format!("unknown dtype {code} in type attribute"))
                })?;
                Ok(Attribute::Type(dtype))
            }
            AttrType::FUNC => Ok(Attribute::Func(
                self.length_prefixed(offset, "function name")?.to_vec(),
            )),
            AttrType::SHAPE => self.decode_shape(offset),
            AttrType::DENSE => self.decode_dense(offset),
            AttrType::AGGREGATE => self.decode_aggregate(offset, depth),
            AttrType::SYMBOL_REF => self.decode_compilation_unit(offset),
            AttrType(code) if code == DType::String as u8 => Ok(Attribute::String(
                self.length_prefixed(offset, "string attribute")?.to_vec(),
            )),
            AttrType(code) => {
                let kind = DType::from_u8(code)
                    .and_then(ScalarKind::from_dtype)
                    .ok_or_else(|| self.err(offset, format!("unknown attribute type {code}")))?;
                self.decode_scalar(offset, kind.dtype())
            }
        }
    }

    fn decode_scalar(&self, offset: usize, dtype: DType) -> DecodeResult<Attribute> {
        let size = dtype.host_size().unwrap_or(1);
        let b = self.bytes(offset, size, dtype.mlir_name())?;
        let mut raw = [0u8; 8];
        raw[..size].copy_from_slice(b);
        let u = u64::from_le_bytes(raw);
        Ok(match dtype {
            DType::I1 => Attribute::I1(b[0] != 0),
            DType::I8 => Attribute::I8(b[0] as i8),
            DType::UI8 => Attribute::UI8(b[0]),
            DType::I16 => Attribute::I16(u as u16 as i16),
            DType::UI16 => Attribute::UI16(u as u16),
            DType::F16 => Attribute::F16(u as u16),
            DType::BF16 => Attribute::BF16(u as u16),
            DType::I32 => Attribute::I32(u as u32 as i32),
            DType::UI32 => Attribute::UI32(u as u32),
            DType::F32 => Attribute::F32(u as u32),
            DType::I64 => Attribute::I64(u as i64),
            DType::UI64 => Attribute::UI64(u),
            DType::F64 => Attribute::F64(u),
            other => {
                return Err(self.err(
                    offset,
                    format!("{} is not a scalar attribute type", other.mlir_name()),
                ));
            }
        })
    }

    fn length_prefixed(&self, offset: usize, what: &str) -> DecodeResult<&[u8]> {
        let len = self.u32(offset, what)? as usize;
        self.bytes(offset + 4, len, what)
    }

    fn decode_array(&self, offset: usize, element: ArrayElement) -> DecodeResult<Attribute> {
        let count = self.u32(offset, "array length")? as usize;
        let size = element.size();
        let payload = self.bytes(offset + 4, count.saturating_mul(size), "array elements")?;
        let values = payload
            .chunks_exact(size)
            .enumerate()
            .map(|(i, _)| {
                let at = offset + 4 + i * size;
                match element {
                    ArrayElement::Type => self.decode(at, AttrType::TYPE, 0),
                    ArrayElement::Scalar(dtype) => self.decode_scalar(at, dtype),
                }
            })
            .collect::<DecodeResult<Vec<_>>>()?;
        Ok(Attribute::Array { element, values })
    }

    /// Reads the common header; returns (alignment, dtype byte, prefix size,
    /// byte size). The whole `byte_size` must lie inside the section.
    fn header(&self, offset: usize, what: &str) -> DecodeResult<(u8, u8, usize, usize)> {
        let head = self.bytes(offset, 8, what)?;
        let alignment = head[0];
        let prefix = usize::from(u16::from_le_bytes([head[2], head[3]]));
        let byte_size = u32::from_le_bytes([head[4], head[5], head[6], head[7]]) as usize;
        if !alignment.is_power_of_two() {
            return Err(self.err(
                offset,
                format!("{what} alignment {alignment} is not a power of two"),
            ));
        }
        self.bytes(offset, byte_size, what)?;
        Ok((alignment, head[1], prefix, byte_size))
    }

    fn decode_shape(&self, offset: usize) -> DecodeResult<Attribute> {
        if self.u32(offset, "shape")? == 0 {
            return Ok(Attribute::Shape(None));
        }
        let (_, _, _, byte_size) = self.header(offset, "shape attribute")?;
        let rank = self.u32(offset + 8, "shape rank")? as usize;
        if rank.checked_mul(8).and_then(|n| n.checked_add(12)) != Some(byte_size) {
            return Err(self.err(
                offset,
                format!("shape of rank {rank} cannot be {byte_size} bytes"),
            ));
        }
        let dims = self.bytes(offset + 12, rank * 8, "shape dimensions")?;
        Ok(Attribute::Shape(Some(read_i64s(dims))))
    }

    fn decode_dense(&self, offset: usize) -> DecodeResult<Attribute> {
        let (_, dtype_code, prefix, byte_size) = self.header(offset, "dense attribute")?;
        let dtype = DType::from_u8(dtype_code)
            .filter(|d| d.is_dense_element())
            .ok_or_else(|| {
                self.err(
                    offset + 1,
                    format!("dtype {dtype_code} cannot be a dense element type"),
                )
            })?;
        let element_offset = self.u32(offset + 8, "dense element offset")? as usize;
        let element_count = u64::from(self.u32(offset + 12, "dense element count")?);
        let rank = self.u32(offset + 16, "dense rank")? as usize;
        if rank.checked_mul(8).and_then(|n| n.checked_add(20)) != Some(element_offset)
            || prefix != element_offset
        {
            return Err(self.err(
                offset + 8,
                format!("dense element offset {element_offset} does not match rank {rank}"),
            ));
        }
        if element_offset > byte_size {
            return Err(self.err(
                offset + 4,
                format!("dense size {byte_size} is smaller than its header"),
            ));
        }
        let shape = read_i64s(self.bytes(offset + 20, rank * 8, "dense shape")?);
        if dense_element_count(&shape) != Some(element_count) {
            return Err(self.err(
                offset + 12,
                format!("dense element count {element_count} does not match shape {shape:?}"),
            ));
        }
        let data_len = byte_size - element_offset;
        let size = dtype.host_size().unwrap_or(1) as u64;
        if element_count.checked_mul(size) != Some(data_len as u64) {
            return Err(self.err(
                offset + 4,
                format!(
                    "dense data of {data_len} bytes does not hold {element_count} elements of {}",
                    dtype.mlir_name()
                ),
            ));
        }
        let data = self
            .bytes(offset + element_offset, data_len, "dense elements")?
            .to_vec();
        Ok(Attribute::Dense(DenseAttr { dtype, shape, data }))
    }

    fn decode_aggregate(&self, offset: usize, depth: usize) -> DecodeResult<Attribute> {
        if self.u32(offset, "aggregate")? == 0 {
            return Ok(Attribute::Aggregate(Vec::new()));
        }
        let (_, _, _, byte_size) = self.header(offset, "aggregate attribute")?;
        let count = self.u32(offset + 8, "aggregate length")? as usize;
        let table_end = count
            .checked_mul(4)
            .and_then(|n| n.checked_add(12))
            .filter(|&end| end <= byte_size)
            .ok_or_else(|| {
                self.err(
                    offset + 8,
                    format!("aggregate of {count} elements does not fit in {byte_size} bytes"),
                )
            })?;
        // Elements must be disjoint, in order and inside the aggregate, so that
        // decoding work stays proportional to the bytes (no shared subtrees).
        let mut elements = Vec::new();
        let mut free_from = table_end;
        for i in 0..count {
            let slot = offset + 12 + 4 * i;
            let relative = self.u32(slot, "aggregate element offset")? as usize;
            let at = offset + relative;
            let tag = if relative > free_from && relative < byte_size {
                AttrType(self.section[at - 1])
            } else {
                return Err(self.err(slot, format!("aggregate element {i} offset {relative} overlaps its neighbours or lies outside the aggregate")));
            };
            if tag == AttrType::SYMBOL_REF {
                return Err(self.err(
                    at - 1,
                    format!(
                        "aggregate element {i} is a symbol reference, which aggregates cannot hold"
                    ),
                ));
            }
            let end = relative + attribute_extent(self.section, at, tag);
            if end > byte_size {
                return Err(self.err(
                    at,
                    format!("aggregate element {i} runs past the end of the aggregate"),
                ));
            }
            elements.push(self.decode(at, tag, depth + 1)?);
            free_from = end;
        }
        Ok(Attribute::Aggregate(elements))
    }

    fn decode_compilation_unit(&self, offset: usize) -> DecodeResult<Attribute> {
        let tail = self.section.get(offset..).unwrap_or_default();
        let start = offset.min(self.section.len());
        let mut r = Reader::new(tail, self.base + start as u64);
        let id = r.vbr("compilation unit id")?;
        let root_len = r.vbr("symbol name length")?;
        let nested_count = r.count("nested symbol count", 1)?;
        let nested_lens = (0..nested_count)
            .map(|_| r.vbr("nested symbol length"))
            .collect::<DecodeResult<Vec<_>>>()?;
        let serialized_len = r.vbr("compilation unit length")?;
        let mut take = |len: u64, what: &str| -> DecodeResult<Vec<u8>> {
            let len = usize::try_from(len)
                .map_err(|_| r.error(format!("{what} length {len} is too large")))?;
            Ok(r.bytes(len, what)?.to_vec())
        };
        let root = take(root_len, "symbol name")?;
        let nested = nested_lens
            .into_iter()
            .map(|len| take(len, "nested symbol name"))
            .collect::<DecodeResult<Vec<_>>>()?;
        let serialized = take(serialized_len, "compilation unit")?;
        if r.u8("compilation unit terminator")? != 0 {
            return Err(r.error("compilation unit is not NUL-terminated"));
        }
        Ok(Attribute::CompilationUnit(CompilationUnit {
            id,
            root,
            nested,
            serialized,
        }))
    }
}

fn read_i64s(bytes: &[u8]) -> Vec<i64> {
    bytes
        .chunks_exact(8)
        .map(|c| i64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]))
        .collect()
}

fn compilation_unit_extent(section: &[u8], offset: usize) -> Option<usize> {
    let mut r = Reader::new(section.get(offset..)?, 0);
    r.vbr("id").ok()?;
    let mut payload = r.vbr("root").ok()?;
    for _ in 0..r.vbr("nested").ok()? {
        payload = payload.checked_add(r.vbr("nested").ok()?)?;
    }
    payload = payload.checked_add(r.vbr("size").ok()?)?.checked_add(1)?;
    usize::try_from(payload).ok()?.checked_add(r.position())
}

/// Byte length of the attribute of type `ty` at `offset`, for hex dumps.
pub fn attribute_extent(section: &[u8], offset: usize, ty: AttrType) -> usize {
    let len_at = |pos: usize| u32_at(section, pos).map_or(0, |n| n as usize);
    let extent = if let Some(element) = ty.array_element() {
        4 + len_at(offset).saturating_mul(element.size())
    } else {
        match ty {
            AttrType::TYPE => 1,
            AttrType::FUNC => 4 + len_at(offset),
            AttrType::SHAPE | AttrType::AGGREGATE | AttrType::DENSE => match len_at(offset) {
                0 => 4,
                _ => len_at(offset + 4),
            },
            AttrType::SYMBOL_REF => compilation_unit_extent(section, offset).unwrap_or(0),
            AttrType(code) if code == DType::String as u8 => 4 + len_at(offset),
            AttrType(code) => DType::from_u8(code).and_then(DType::host_size).unwrap_or(0),
        }
    };
    extent.min(section.len().saturating_sub(offset))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encode(attr: &Attribute) -> (Vec<u8>, usize) {
        let mut e = Emitter::new();
        let offset = emit_attribute(&mut e, attr).unwrap();
        (e.into_bytes(), offset)
    }

    fn round_trip(attr: Attribute) {
        let (bytes, offset) = encode(&attr);
        let back = decode_attribute(&bytes, 0, offset, attr.attr_type()).unwrap();
        assert_eq!(back, attr);
    }

    #[test]
    fn scalars_are_little_endian_at_natural_alignment() {
        let mut e = Emitter::new();
        emit_attribute(&mut e, &Attribute::I1(true)).unwrap();
        let at = emit_attribute(&mut e, &Attribute::I32(-2)).unwrap();
        assert_eq!(at, 4);
        assert_eq!(e.bytes(), &[1, 0xcc, 0xcc, 0xcc, 0xfe, 0xff, 0xff, 0xff]);
    }

    #[test]
    fn one_byte_scalars_do_not_raise_alignment() {
        let mut e = Emitter::new();
        emit_attribute(&mut e, &Attribute::UI8(9)).unwrap();
        emit_attribute(&mut e, &Attribute::Type(DType::F32)).unwrap();
        assert_eq!(e.required_alignment(), 1);
        assert_eq!(e.bytes(), &[9, 10]);
    }

    #[test]
    fn string_layout() {
        let (bytes, offset) = encode(&Attribute::string("hi"));
        assert_eq!(offset, 0);
        assert_eq!(bytes, [2, 0, 0, 0, b'h', b'i']);
        let (bytes, _) = encode(&Attribute::string(""));
        assert_eq!(bytes, [0, 0, 0, 0]);
    }

    #[test]
    fn i64_array_payload_is_8_aligned() {
        let attr = Attribute::Array {
            element: ArrayElement::Scalar(DType::I64),
            values: vec![Attribute::I64(1), Attribute::I64(-1)],
        };
        let (bytes, offset) = encode(&attr);
        assert_eq!(offset, 4);
        assert_eq!(&bytes[..8], &[0xcc, 0xcc, 0xcc, 0xcc, 2, 0, 0, 0]);
        assert_eq!(bytes.len(), 24);
        round_trip(attr);
    }

    #[test]
    fn ranked_shape_layout() {
        let (bytes, offset) = encode(&Attribute::Shape(Some(vec![2, -1])));
        // pad[4]; {8, 0, 12, 28}; rank 2; dims
        assert_eq!(offset, 4);
        assert_eq!(&bytes[4..16], &[8, 0, 12, 0, 28, 0, 0, 0, 2, 0, 0, 0]);
        assert_eq!(bytes.len(), 32);
        round_trip(Attribute::Shape(Some(vec![2, -1])));
        round_trip(Attribute::Shape(Some(vec![])));
        round_trip(Attribute::Shape(None));
    }

    #[test]
    fn dense_layout() {
        let dense = Attribute::Dense(DenseAttr {
            dtype: DType::I32,
            shape: vec![2],
            data: vec![1, 0, 0, 0, 2, 0, 0, 0],
        });
        let (bytes, offset) = encode(&dense);
        assert_eq!(offset, 4);
        // header {8, i32, prefix 28, size 36}; element_offset 28; count 2; rank 1
        assert_eq!(
            &bytes[4..24],
            &[
                8, 8, 28, 0, 36, 0, 0, 0, 28, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0
            ]
        );
        assert_eq!(bytes.len(), 4 + 36);
        round_trip(dense);
    }

    #[test]
    fn aggregate_tags_sit_just_before_each_element() {
        let agg = Attribute::Aggregate(vec![
            Attribute::string("s"),
            Attribute::I32(7),
            Attribute::Aggregate(vec![Attribute::f32(1.5)]),
        ]);
        let (bytes, offset) = encode(&agg);
        assert_eq!(offset, 0);
        let first = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
        assert_eq!(bytes[first - 1], 16);
        round_trip(agg);
    }

    #[test]
    fn hostile_aggregates_are_rejected() {
        // The encoder writes as deep as the decoder reads, and no deeper.
        let mut nested = Attribute::I32(1);
        for _ in 0..MAX_NESTING {
            nested = Attribute::Aggregate(vec![nested]);
        }
        assert_eq!(nested.nesting_depth(), MAX_NESTING);
        let (bytes, offset) = encode(&nested);
        assert_eq!(
            decode_attribute(&bytes, 0, offset, AttrType::AGGREGATE),
            Ok(nested.clone())
        );
        // Read one level further down, its innermost value lies too deep.
        let decoder = AttrDecoder {
            section: &bytes,
            base: 0,
        };
        let err = decoder.decode(offset, AttrType::AGGREGATE, 1).unwrap_err();
        assert_eq!(err.message, "attributes nested deeper than 64 levels");
        let deeper = Attribute::Aggregate(vec![nested]);
        assert_eq!(
            emit_attribute(&mut Emitter::new(), &deeper),
            Err(EncodeError(
                "attributes nested deeper than 64 levels".into()
            ))
        );

        let mut bytes = encode(&Attribute::Aggregate(vec![Attribute::I8(1)])).0;
        bytes[12] = 0xff; // element offset far outside
        let err = decode_attribute(&bytes, 0, 0, AttrType::AGGREGATE).unwrap_err();
        assert!(err.message.contains("outside the aggregate"), "{err}");

        // Two elements sharing one offset would let nested aggregates
        // multiply decoding work; they are rejected.
        let mut bytes = encode(&Attribute::Aggregate(vec![
            Attribute::I8(1),
            Attribute::I8(2),
        ]))
        .0;
        let first = bytes[12];
        bytes[16] = first;
        let err = decode_attribute(&bytes, 0, 0, AttrType::AGGREGATE).unwrap_err();
        assert!(err.message.contains("overlaps"), "{err}");
    }
}
