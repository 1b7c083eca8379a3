//! MLIR bytecode primitives: the prefix varint, signed and flagged varints,
//! NUL-terminated strings, and section framing, for reading (a zero-copy
//! cursor over the input that knows its absolute offset) and writing.

use super::error::{BytecodeError, Result};

/// The padding byte between a section header or blob header and aligned
/// data.
pub const ALIGNMENT_BYTE: u8 = 0xCB;

/// A cursor over part of the input. `base` is the absolute offset of
/// `data[0]` in the file, so errors and dumps can name file offsets.
#[derive(Debug, Clone, Copy)]
pub struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
    base: usize,
}

#[cold]
fn index_error(at: usize, v: u64) -> BytecodeError {
    BytecodeError::new(at, format!("index {v} out of range"))
}

impl<'a> Reader<'a> {
    pub fn new(data: &'a [u8], base: usize) -> Reader<'a> {
        Reader { data, pos: 0, base }
    }

    /// Absolute file offset of the next byte.
    pub fn offset(&self) -> usize {
        self.base + self.pos
    }

    pub fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    pub fn is_empty(&self) -> bool {
        self.pos == self.data.len()
    }

    /// The unread bytes.
    pub fn rest(&self) -> &'a [u8] {
        &self.data[self.pos..]
    }

    pub fn error(&self, message: impl Into<String>) -> BytecodeError {
        BytecodeError::new(self.offset(), message)
    }

    pub fn byte(&mut self) -> Result<u8> {
        let Some(&b) = self.data.get(self.pos) else {
            return Err(self.error("attempting to parse a byte at the end of the bytecode"));
        };
        self.pos += 1;
        Ok(b)
    }

    pub fn bytes(&mut self, len: usize) -> Result<&'a [u8]> {
        if len > self.remaining() {
            return Err(self.error(format!(
                "attempting to parse {len} bytes when only {} remain",
                self.remaining()
            )));
        }
        let out = &self.data[self.pos..self.pos + len];
        self.pos += len;
        Ok(out)
    }

    /// PrefixVarInt: the trailing zeros of the first byte count the extra
    /// bytes; a zero first byte means 8 raw little-endian bytes follow.
    #[inline]
    pub fn varint(&mut self) -> Result<u64> {
        // Most values fit in one byte (odd first byte).
        if let Some(&first) = self.data.get(self.pos)
            && first & 1 == 1
        {
            self.pos += 1;
            return Ok(u64::from(first >> 1));
        }
        self.long_varint()
    }

    #[inline(never)]
    fn long_varint(&mut self) -> Result<u64> {
        // With eight bytes left, one unaligned load covers every form but
        // the 9-byte one (first byte 0).
        if let Some(chunk) = self.data.get(self.pos..self.pos + 8)
            && chunk[0] != 0
        {
            let word = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
            let len = chunk[0].trailing_zeros() as usize + 1;
            let value = if len == 8 {
                word
            } else {
                word & ((1u64 << (8 * len)) - 1)
            };
            self.pos += len;
            return Ok(value >> len);
        }
        // The 9-byte form, or fewer than eight bytes left (entries and
        // property blobs are short slices): the bytes present, assembled
        // without a copy.
        let first = self.byte()?;
        if first == 0 {
            let raw = self.bytes(8)?;
            return Ok(u64::from_le_bytes(raw.try_into().expect("8 bytes")));
        }
        let extra = first.trailing_zeros() as usize;
        let rest = self.bytes(extra)?;
        let word = rest
            .iter()
            .rev()
            .fold(0u64, |word, &b| (word << 8) | u64::from(b));
        Ok(((word << 8) | u64::from(first)) >> (extra + 1))
    }

    pub fn signed_varint(&mut self) -> Result<i64> {
        let v = self.varint()?;
        Ok(((v >> 1) as i64) ^ -((v & 1) as i64))
    }

    /// `(value << 1) | flag`
    pub fn varint_with_flag(&mut self) -> Result<(u64, bool)> {
        let v = self.varint()?;
        Ok((v >> 1, v & 1 == 1))
    }

    /// A varint used as a count of items that take at least
    /// `min_item_bytes` each: rejected when the rest cannot hold them, so a
    /// count never sizes an allocation larger than the input.
    #[inline]
    pub fn count(&mut self, min_item_bytes: usize, what: &str) -> Result<usize> {
        let at = self.offset();
        let n = self.varint()?;
        match usize::try_from(n) {
            Ok(n) if n.saturating_mul(min_item_bytes) <= self.remaining() => Ok(n),
            _ => Err(self.count_error(at, n, what)),
        }
    }

    #[cold]
    fn count_error(&self, at: usize, n: u64, what: &str) -> BytecodeError {
        BytecodeError::new(
            at,
            format!(
                "{what} count {n} exceeds the {} bytes that remain",
                self.remaining()
            ),
        )
    }

    /// A varint that must fit in `usize`, for indices checked later.
    #[inline]
    pub fn index(&mut self) -> Result<usize> {
        let at = self.offset();
        let v = self.varint()?;
        usize::try_from(v).map_err(|_| index_error(at, v))
    }

    /// A NUL-terminated string (without the NUL).
    pub fn nul_terminated(&mut self) -> Result<&'a [u8]> {
        let rest = self.rest();
        let Some(len) = rest.iter().position(|&b| b == 0) else {
            return Err(self.error("string is not NUL-terminated"));
        };
        self.pos += len + 1;
        Ok(&rest[..len])
    }

    /// Skips `0xCB` padding up to `alignment`, counted from the absolute
    /// address of the data in memory (which must itself be aligned, as the
    /// reference reader requires).
    pub fn align_to(&mut self, alignment: u64) -> Result<()> {
        if !alignment.is_power_of_two() {
            return Err(self.error(format!("alignment {alignment} is not a power of two")));
        }
        let address = self.data.as_ptr() as usize + self.pos;
        let Ok(alignment) = usize::try_from(alignment) else {
            return Err(self.error(format!("alignment {alignment} is too large")));
        };
        let padding = address.wrapping_neg() & (alignment - 1);
        for _ in 0..padding {
            if self.byte()? != ALIGNMENT_BYTE {
                return Err(BytecodeError::new(
                    self.offset() - 1,
                    "expected alignment byte (0xCB)",
                ));
            }
        }
        Ok(())
    }

    /// A section header and its data: `(id, has alignment)`, then the
    /// reader for its contents.
    pub fn section(&mut self) -> Result<(u8, Reader<'a>)> {
        let header_at = self.offset();
        let code = self.byte()?;
        let id = code & 0x7F;
        let length = self.varint()?;
        if code & 0x80 != 0 {
            let alignment = self.varint()?;
            self.align_to(alignment)?;
        }
        let Ok(length) = usize::try_from(length) else {
            return Err(BytecodeError::new(header_at, "section length out of range"));
        };
        let base = self.offset();
        let data = self.bytes(length)?;
        Ok((id, Reader::new(data, base)))
    }
}

/// Appends bytecode primitives to a byte vector, tracking the alignment the
/// content needs relative to its own start.
#[derive(Debug, Default, Clone)]
pub struct Emitter {
    pub bytes: Vec<u8>,
    pub required_alignment: u64,
}

impl Emitter {
    pub fn new() -> Emitter {
        Emitter {
            bytes: Vec::new(),
            required_alignment: 1,
        }
    }

    pub fn with_capacity(capacity: usize) -> Emitter {
        Emitter {
            bytes: Vec::with_capacity(capacity),
            required_alignment: 1,
        }
    }

    /// Empties the emitter, keeping its allocation.
    pub fn clear(&mut self) {
        self.bytes.clear();
        self.required_alignment = 1;
    }

    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    #[inline(always)]
    pub fn byte(&mut self, b: u8) {
        self.bytes.push(b);
    }

    pub fn raw(&mut self, data: &[u8]) {
        self.bytes.extend_from_slice(data);
    }

    #[inline(always)]
    pub fn varint(&mut self, value: u64) {
        push_varint(&mut self.bytes, value);
    }

    pub fn signed_varint(&mut self, value: i64) {
        self.varint(((value << 1) ^ (value >> 63)) as u64);
    }

    #[inline(always)]
    pub fn varint_with_flag(&mut self, value: u64, flag: bool) {
        self.varint((value << 1) | u64::from(flag));
    }

    pub fn nul_terminated(&mut self, s: &[u8]) {
        self.raw(s);
        self.byte(0);
    }

    pub fn align_to(&mut self, alignment: u64) {
        if alignment < 2 {
            return;
        }
        while !(self.bytes.len() as u64).is_multiple_of(alignment) {
            self.byte(ALIGNMENT_BYTE);
        }
        self.required_alignment = self.required_alignment.max(alignment);
    }

    /// Section framing as upstream does it: when the content needs an
    /// alignment the current position does not have, the id's high bit is
    /// set and the alignment and padding follow the length.
    pub fn section(&mut self, id: u8, content: &Emitter) {
        let code_at = self.bytes.len();
        self.byte(id);
        self.varint(content.bytes.len() as u64);
        let alignment = content.required_alignment;
        if alignment > 1 {
            if self.bytes.len() as u64 & (alignment - 1) != 0 {
                self.varint(alignment);
                self.align_to(alignment);
                self.bytes[code_at] |= 0x80;
            } else {
                self.required_alignment = self.required_alignment.max(alignment);
            }
        }
        self.bytes.extend_from_slice(&content.bytes);
    }
}

/// PrefixVarInt encoding of `value` (minimal length). Always inlined: the
/// call's register saves cost more than the encoding (the writer emits a
/// million varints per large module).
#[inline(always)]
pub fn push_varint(out: &mut Vec<u8>, value: u64) {
    if value < 1 << 7 {
        out.push(((value << 1) | 1) as u8);
        return;
    }
    // Values of more than 56 bits take the 9-byte form.
    if value >= 1 << 56 {
        out.push(0);
        out.extend_from_slice(&value.to_le_bytes());
        return;
    }
    let bits = 64 - value.leading_zeros() as usize;
    let extra = (bits - 1) / 7; // 1..=7 extra bytes
    let encoded = ((value << 1) | 1) << extra;
    // A fixed-size copy then a truncation: cheaper than copying a
    // variable-length slice (a `memcpy` call per varint in profiles).
    let len = out.len();
    out.extend_from_slice(&encoded.to_le_bytes());
    out.truncate(len + extra + 1);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_round_trip_at_every_length() {
        let mut values = vec![0u64, 1, 127, 128, 300, 1 << 20, u64::MAX, i64::MAX as u64];
        for shift in 0..64 {
            values.push(1u64 << shift);
            values.push((1u64 << shift) - 1);
        }
        for &v in &values {
            let mut out = Vec::new();
            push_varint(&mut out, v);
            let mut r = Reader::new(&out, 0);
            assert_eq!(r.varint().unwrap(), v, "value {v}");
            assert!(r.is_empty(), "value {v} left bytes");
        }
        // Back to back, so most reads have eight bytes ahead (the one-load
        // path) and the last ones do not.
        let mut out = Vec::new();
        for &v in &values {
            push_varint(&mut out, v);
        }
        let mut r = Reader::new(&out, 0);
        for &v in &values {
            assert_eq!(r.varint().unwrap(), v, "value {v} in sequence");
        }
        assert!(r.is_empty());
    }

    #[test]
    fn known_encodings() {
        let enc = |v| {
            let mut out = Vec::new();
            push_varint(&mut out, v);
            out
        };
        assert_eq!(enc(0), [0x01]);
        assert_eq!(enc(3), [0x07]);
        assert_eq!(enc(133), [0x16, 0x02]);
        assert_eq!(enc(1_000_000 << 2), [0x08, 0x90, 0xd0, 0x03]);
        // Non-minimal encodings are accepted.
        assert_eq!(Reader::new(&[0x02, 0x00], 0).varint().unwrap(), 0);
    }

    #[test]
    fn signed_varints_zigzag() {
        for v in [0i64, -1, 1, 4, -7, i64::MIN, i64::MAX] {
            let mut e = Emitter::new();
            e.signed_varint(v);
            assert_eq!(Reader::new(&e.bytes, 0).signed_varint().unwrap(), v);
        }
    }

    #[test]
    fn truncated_input_reports_offset() {
        let err = Reader::new(&[0x00, 1, 2], 10).varint().unwrap_err();
        assert_eq!(err.offset, 11);
        let err = Reader::new(&[0x07], 4).count(1, "string").unwrap_err();
        assert!(err.message.contains("exceeds"), "{err}");
    }
}
