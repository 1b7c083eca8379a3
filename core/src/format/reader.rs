//! A zero-copy cursor over untrusted bytes. Every read is bounds-checked and
//! every failure names the absolute file offset where it happened.

use super::error::{DecodeError, DecodeResult};

/// Longest VBR encoding of a u64: ceil(64 / 7) bytes.
pub const MAX_VBR_LEN: usize = 10;

/// A cursor over a slice of a file that knows the slice's absolute offset,
/// so that its errors name the file offset. `what` arguments name the value
/// being read, for those errors.
#[derive(Clone, Debug)]
pub struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
    /// Absolute file offset of `data[0]`.
    base: u64,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `data`, which begins at file offset `base`.
    pub fn new(data: &'a [u8], base: u64) -> Self {
        Reader { data, pos: 0, base }
    }

    /// Absolute file offset of the next byte.
    pub fn offset(&self) -> u64 {
        self.base + self.pos as u64
    }

    /// Position relative to the start of this reader's data.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Bytes left to read.
    pub fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    /// Whether every byte has been read.
    pub fn is_empty(&self) -> bool {
        self.pos == self.data.len()
    }

    /// An error at the current offset.
    pub fn error(&self, message: impl Into<String>) -> DecodeError {
        DecodeError::new(self.offset(), message)
    }

    fn eof(&self, what: &str) -> DecodeError {
        self.error(format!("unexpected end of data reading {what}"))
    }

    /// Reads one byte.
    pub fn u8(&mut self, what: &str) -> DecodeResult<u8> {
        let byte = *self.data.get(self.pos).ok_or_else(|| self.eof(what))?;
        self.pos += 1;
        Ok(byte)
    }

    /// A VBR integer: big-endian groups of seven bits, high bit set on every
    /// byte but the last.
    pub fn vbr(&mut self, what: &str) -> DecodeResult<u64> {
        let start = self.offset();
        let mut value: u64 = 0;
        for _ in 0..MAX_VBR_LEN {
            let byte = self.u8(what)?;
            if value >> 57 != 0 {
                return Err(DecodeError::new(
                    start,
                    format!("{what} does not fit in 64 bits"),
                ));
            }
            value = (value << 7) | u64::from(byte & 0x7f);
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(DecodeError::new(
            start,
            format!("{what} is longer than {MAX_VBR_LEN} bytes"),
        ))
    }

    /// A VBR integer that must fit in a u32 (register, kernel and type
    /// indices).
    pub fn vbr_u32(&mut self, what: &str) -> DecodeResult<u32> {
        let start = self.offset();
        let value = self.vbr(what)?;
        u32::try_from(value)
            .map_err(|_| DecodeError::new(start, format!("{what} {value} does not fit in 32 bits")))
    }

    /// A count of items that each take at least `min_item_len` bytes: the
    /// count is checked against the bytes that remain before anyone
    /// allocates room for it.
    pub fn count(&mut self, what: &str, min_item_len: usize) -> DecodeResult<usize> {
        let start = self.offset();
        let count = self.vbr(what)?;
        let fits = usize::try_from(count).ok().filter(|&n| {
            n.checked_mul(min_item_len)
                .is_some_and(|len| len <= self.remaining())
        });
        fits.ok_or_else(|| {
            DecodeError::new(
                start,
                format!(
                    "{what} {count} exceeds the {} bytes that remain",
                    self.remaining()
                ),
            )
        })
    }

    /// Reads a little-endian `u32` (no alignment required).
    pub fn u32_le(&mut self, what: &str) -> DecodeResult<u32> {
        let bytes = self.bytes(4, what)?;
        Ok(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
    }

    /// Reads the next `len` bytes, borrowed from the input.
    pub fn bytes(&mut self, len: usize, what: &str) -> DecodeResult<&'a [u8]> {
        if len > self.remaining() {
            return Err(self.error(format!(
                "{what} needs {len} bytes but only {} remain",
                self.remaining()
            )));
        }
        let slice = &self.data[self.pos..self.pos + len];
        self.pos += len;
        Ok(slice)
    }

    /// Skips padding so that the next read is at a multiple of `alignment`
    /// relative to the start of this reader.
    pub fn align_to(&mut self, alignment: usize, what: &str) -> DecodeResult<()> {
        let padding = self.pos.next_multiple_of(alignment) - self.pos;
        self.bytes(padding, what).map(|_| ())
    }

    /// Fails unless every byte has been read; `what` names the enclosing
    /// structure in the message.
    pub fn expect_end(&self, what: &str) -> DecodeResult<()> {
        if self.is_empty() {
            Ok(())
        } else {
            Err(self.error(format!(
                "{} unexpected trailing bytes in {what}",
                self.remaining()
            )))
        }
    }
}

/// Reads the little-endian u32 at `pos` of `data`, if it is in range.
pub fn u32_at(data: &[u8], pos: usize) -> Option<u32> {
    let bytes = data.get(pos..pos.checked_add(4)?)?;
    Some(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
}

/// Reads the NUL-terminated UTF-8 string starting at `offset` of a string
/// table whose first byte is at absolute file offset `base`.
pub fn c_string_at<'a>(
    table: &'a [u8],
    offset: u64,
    base: u64,
    what: &str,
) -> DecodeResult<&'a str> {
    let start = usize::try_from(offset)
        .ok()
        .filter(|&start| start < table.len())
        .ok_or_else(|| {
            DecodeError::new(
                base,
                format!(
                    "{what} offset {offset} is outside the {}-byte string table",
                    table.len()
                ),
            )
        })?;
    let at = base + offset;
    let len = table[start..]
        .iter()
        .position(|&b| b == 0)
        .ok_or_else(|| DecodeError::new(at, format!("{what} is not NUL-terminated")))?;
    std::str::from_utf8(&table[start..start + len])
        .map_err(|e| DecodeError::new(at, format!("{what} is not valid UTF-8: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vbr_examples_from_the_fact_sheet() {
        for (bytes, value) in [
            (&[0x7f][..], 127u64),
            (&[0x81, 0x00][..], 128),
            (&[0xff, 0x7f][..], 16383),
            (&[0x81, 0x80, 0x00][..], 16384),
        ] {
            assert_eq!(Reader::new(bytes, 0).vbr("v").unwrap(), value);
        }
    }

    #[test]
    fn vbr_overflow_and_truncation_are_errors() {
        let too_big = [0x82, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00];
        let err = Reader::new(&too_big, 16).vbr("count").unwrap_err();
        assert_eq!(err.offset, 16);
        assert!(err.message.contains("64 bits"), "{err}");
        let err = Reader::new(&[0x81], 3).vbr("count").unwrap_err();
        assert_eq!(
            err.to_string(),
            "unexpected end of data reading count at offset 0x4"
        );
    }

    #[test]
    fn counts_are_checked_against_remaining_bytes() {
        // 2^60 as VBR.
        let mut bytes = vec![0x90];
        bytes.extend([0x80; 7]);
        bytes.push(0x00);
        let err = Reader::new(&bytes, 0).count("kernel count", 1).unwrap_err();
        assert!(err.message.contains("1152921504606846976"), "{err}");
    }
}
