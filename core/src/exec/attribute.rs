//! Typed, bounds-checked reads of kernel attributes from the Attributes
//! section. The bytes are untrusted: every read checks its range and gives
//! an error naming the kernel's attribute and the offset.

use crate::format::attr::decode_attribute;
use crate::format::{AttrType, Attribute as BefAttribute};

/// A fixed-width little-endian scalar stored in the Attributes section.
pub trait AttrScalar: Copy + Send + Sync + 'static {
    /// Bytes the value takes in the section.
    const SIZE: usize;
    /// The type's name in error messages (`i32`, `f64`, ...).
    const NAME: &'static str;
    /// Decodes the value from exactly `SIZE` little-endian bytes.
    fn from_le(bytes: &[u8]) -> Self;
}

macro_rules! scalar {
    ($($t:ty => $name:literal),* $(,)?) => {$(
        impl AttrScalar for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            const NAME: &'static str = $name;
            #[inline]
            fn from_le(bytes: &[u8]) -> Self {
                let mut raw = [0u8; std::mem::size_of::<$t>()];
                raw.copy_from_slice(&bytes[..Self::SIZE]);
                <$t>::from_le_bytes(raw)
            }
        }
    )*};
}

scalar!(i8 => "i8", i16 => "i16", i32 => "i32", i64 => "i64", u8 => "ui8", u16 => "ui16",
        u32 => "ui32", u64 => "ui64", f32 => "f32", f64 => "f64");

impl AttrScalar for bool {
    const SIZE: usize = 1;
    const NAME: &'static str = "i1";
    #[inline]
    fn from_le(bytes: &[u8]) -> Self {
        bytes[0] != 0
    }
}

/// Reads attributes of one section.
#[derive(Clone, Copy)]
pub struct AttributeReader<'a> {
    /// The bytes of the Attributes section; offsets are relative to its start.
    pub section: &'a [u8],
}

impl<'a> AttributeReader<'a> {
    fn range(&self, offset: usize, len: usize, what: &str) -> Result<&'a [u8], String> {
        offset
            .checked_add(len)
            .and_then(|end| self.section.get(offset..end))
            .ok_or_else(|| {
                format!(
                    "{what} at attribute offset {offset:#x} ({len} bytes) runs past the end of \
                     the {}-byte Attributes section",
                    self.section.len()
                )
            })
    }

    /// The scalar of type `T` at `offset`, or why it cannot be read there.
    #[inline]
    pub fn scalar<T: AttrScalar>(&self, offset: u32) -> Result<T, String> {
        Ok(T::from_le(self.range(offset as usize, T::SIZE, T::NAME)?))
    }

    /// The `u32` that precedes strings and arrays.
    fn length(&self, offset: usize, what: &str) -> Result<usize, String> {
        let bytes = self.range(offset, 4, what)?;
        Ok(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]) as usize)
    }

    /// A string or function-name attribute: `u32 length` then the bytes.
    pub fn bytes(&self, offset: u32) -> Result<&'a [u8], String> {
        let offset = offset as usize;
        let len = self.length(offset, "string length")?;
        self.range(offset + 4, len, "string")
    }

    /// The string attribute at `offset` (its length precedes it), or why it cannot be read there.
    pub fn string(&self, offset: u32) -> Result<&'a str, String> {
        std::str::from_utf8(self.bytes(offset)?)
            .map_err(|e| format!("string attribute at offset {offset:#x} is not UTF-8: {e}"))
    }

    /// An array of fixed-width elements: `u32 count` then the payload.
    pub fn array<T: AttrScalar>(&self, offset: u32) -> Result<ArrayAttr<'a, T>, String> {
        let offset = offset as usize;
        let count = self.length(offset, "array length")?;
        let len = count.checked_mul(T::SIZE).ok_or("array length overflows")?;
        let bytes = self.range(offset + 4, len, "array elements")?;
        Ok(ArrayAttr {
            bytes,
            _marker: std::marker::PhantomData,
        })
    }

    /// Any attribute decoded to an owned tree (for aggregates, shapes and
    /// dense elements, which kernels read rarely).
    pub fn decode(&self, offset: u32, ty: AttrType) -> Result<BefAttribute, String> {
        decode_attribute(self.section, 0, offset as usize, ty).map_err(|e| e.message)
    }
}

/// A borrowed array attribute; elements are decoded on access (no
/// alignment assumption).
#[derive(Clone, Copy)]
pub struct ArrayAttr<'a, T> {
    bytes: &'a [u8],
    _marker: std::marker::PhantomData<T>,
}

impl<'a, T: AttrScalar> ArrayAttr<'a, T> {
    /// Number of elements.
    pub fn len(&self) -> usize {
        self.bytes.len() / T::SIZE
    }

    /// Whether the array has no elements.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Element `index`, if in range.
    pub fn get(&self, index: usize) -> Option<T> {
        let start = index.checked_mul(T::SIZE)?;
        self.bytes.get(start..start + T::SIZE).map(T::from_le)
    }

    /// The elements in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = T> + 'a {
        self.bytes.chunks_exact(T::SIZE).map(T::from_le)
    }

    /// The elements, copied.
    pub fn to_vec(&self) -> Vec<T> {
        self.iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_are_bounds_checked() {
        let section = [7u8, 0, 0, 0, 2, 0, 0, 0, b'h', b'i', 0, 0, 9, 0];
        let r = AttributeReader { section: &section };
        assert_eq!(r.scalar::<i32>(0), Ok(7));
        assert_eq!(r.string(4), Ok("hi"));
        assert!(
            r.scalar::<i64>(8)
                .unwrap_err()
                .contains("runs past the end")
        );
        assert!(r.string(12).is_err());
        assert!(r.scalar::<i32>(u32::MAX).is_err());
        let a = r.array::<u8>(4).unwrap();
        assert_eq!(a.to_vec(), vec![b'h', b'i']);
        assert!(r.array::<i64>(0).is_err());
    }
}
