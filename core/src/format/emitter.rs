//! A byte buffer that tracks the alignment its contents require, the
//! encoder-side mirror of `Reader`. Padding bytes are `0xCC`, as the
//! reference encoder writes them.

/// The byte the encoder pads with (the reference's choice, kept for identical files).
pub const PADDING_BYTE: u8 = 0xCC;

/// A growing byte buffer that remembers the largest alignment its contents
/// need, so that it can later be placed (in a section or another emitter) at
/// that alignment.
#[derive(Default, Debug, Clone)]
pub struct Emitter {
    bytes: Vec<u8>,
    required_alignment: usize,
}

/// Number of bytes of the VBR encoding of `value`.
pub fn vbr_len(value: u64) -> usize {
    let bits = 64 - value.leading_zeros() as usize;
    bits.div_ceil(7).max(1)
}

/// Bytes needed to move `offset` up to a multiple of `alignment`.
pub fn padding_for(offset: usize, alignment: usize) -> usize {
    offset.next_multiple_of(alignment) - offset
}

impl Emitter {
    /// An empty emitter, requiring alignment 1.
    pub fn new() -> Self {
        Emitter {
            bytes: Vec::new(),
            required_alignment: 1,
        }
    }

    /// Empties the buffer (keeping its capacity) and resets the required
    /// alignment.
    pub fn clear(&mut self) {
        self.bytes.clear();
        self.required_alignment = 1;
    }

    /// An empty emitter with room for `capacity` bytes.
    pub fn with_capacity(capacity: usize) -> Self {
        Emitter {
            bytes: Vec::with_capacity(capacity),
            required_alignment: 1,
        }
    }

    /// Room for `additional` more bytes.
    pub fn reserve(&mut self, additional: usize) {
        self.bytes.reserve(additional);
    }

    /// Bytes written so far.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Whether nothing has been written.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The bytes written.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The bytes written, taking them.
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }

    /// The largest alignment any content asked for (at least 1).
    pub fn required_alignment(&self) -> usize {
        self.required_alignment.max(1)
    }

    /// Appends one byte.
    pub fn byte(&mut self, byte: u8) {
        self.bytes.push(byte);
    }

    /// Appends bytes as they are, without aligning.
    pub fn extend(&mut self, bytes: &[u8]) {
        self.bytes.extend_from_slice(bytes);
    }

    /// Appends `value` as a VBR integer (big-endian groups of 7 bits).
    #[inline]
    pub fn vbr(&mut self, value: u64) {
        // Most numbers (register and kernel indices, counts) fit one byte.
        if value < 0x80 {
            self.bytes.push(value as u8);
        } else {
            self.vbr_long(value);
        }
    }

    fn vbr_long(&mut self, value: u64) {
        // Two and three bytes (offsets, line numbers) without the loop.
        let group = |shift: u32| (value >> shift) as u8 & 0x7f;
        if value < 1 << 14 {
            self.bytes.extend_from_slice(&[group(7) | 0x80, group(0)]);
            return;
        }
        if value < 1 << 21 {
            self.bytes
                .extend_from_slice(&[group(14) | 0x80, group(7) | 0x80, group(0)]);
            return;
        }
        let len = vbr_len(value);
        let mut buf = [0u8; 10];
        let mut rest = value;
        for (i, slot) in buf[..len].iter_mut().enumerate().rev() {
            let group = rest as u8 & 0x7f;
            *slot = if i + 1 < len { group | 0x80 } else { group };
            rest >>= 7;
        }
        self.bytes.extend_from_slice(&buf[..len]);
    }

    /// Pads to a multiple of `alignment` (a power of two); 0 and 1 are
    /// no-ops that do not raise the required alignment, as in the reference.
    pub fn align(&mut self, alignment: usize) {
        if alignment < 2 {
            return;
        }
        debug_assert!(alignment.is_power_of_two());
        let padding = padding_for(self.bytes.len(), alignment);
        self.pad(alignment, padding);
    }

    /// Writes `count` padding bytes and records `alignment` as required.
    pub fn pad(&mut self, alignment: usize, count: usize) {
        if count > 0 {
            self.bytes.resize(self.bytes.len() + count, PADDING_BYTE);
        }
        self.required_alignment = self.required_alignment.max(alignment);
    }

    /// Appends a little-endian `u16` at 2-byte alignment.
    pub fn u16(&mut self, value: u16) {
        self.align(2);
        self.extend(&value.to_le_bytes());
    }

    /// Appends a little-endian `u32` at 4-byte alignment.
    pub fn u32(&mut self, value: u32) {
        self.align(4);
        self.extend(&value.to_le_bytes());
    }

    /// `u32` for each of `values`, aligned once.
    #[inline]
    pub fn u32s(&mut self, values: &[u32]) {
        self.u32_runs(&[values]);
    }

    /// `u32s` of each run in turn, aligned and grown once (a kernel's
    /// words come in several arrays).
    #[inline]
    pub fn u32_runs(&mut self, runs: &[&[u32]]) {
        self.align(4);
        self.bytes
            .reserve(4 * runs.iter().map(|run| run.len()).sum::<usize>());
        for run in runs {
            for value in *run {
                self.bytes.extend_from_slice(&value.to_le_bytes());
            }
        }
    }

    /// Appends a little-endian `u64` at 8-byte alignment.
    pub fn u64(&mut self, value: u64) {
        self.align(8);
        self.extend(&value.to_le_bytes());
    }

    /// Appends another emitter's bytes at its required alignment.
    pub fn append(&mut self, other: &Emitter) {
        self.align(other.required_alignment());
        self.extend(&other.bytes);
    }

    /// Replaces the bytes at `offset` (already written) with `bytes`; used to
    /// fill in a size or offset known only later.
    pub fn overwrite(&mut self, offset: usize, bytes: &[u8]) {
        self.bytes[offset..offset + bytes.len()].copy_from_slice(bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vbr_matches_the_fact_sheet() {
        for (value, bytes) in [
            (0u64, &[0x00][..]),
            (127, &[0x7f]),
            (128, &[0x81, 0x00]),
            (16383, &[0xff, 0x7f]),
            (16384, &[0x81, 0x80, 0x00]),
            ((1 << 21) - 1, &[0xff, 0xff, 0x7f]),
            (1 << 21, &[0x81, 0x80, 0x80, 0x00]),
            (
                u64::MAX,
                &[0x81, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f],
            ),
        ] {
            let mut e = Emitter::new();
            e.vbr(value);
            assert_eq!(e.bytes(), bytes, "{value}");
            assert_eq!(vbr_len(value), bytes.len());
        }
        assert_eq!(vbr_len(u64::MAX), 10);
    }

    #[test]
    fn alignment_pads_with_cc_and_is_tracked() {
        let mut e = Emitter::new();
        e.byte(1);
        e.u32(7);
        assert_eq!(e.bytes(), &[1, 0xcc, 0xcc, 0xcc, 7, 0, 0, 0]);
        assert_eq!(e.required_alignment(), 4);
        e.align(1);
        assert_eq!(e.required_alignment(), 4);
    }
}
