//! The word layout of a kernel record in a function body, defined once
//! for the reader, the encoder, the executor's tables and the listings:
//!
//! ```text
//! code location nargs nattrs nfuncs nresults   the header (6 words)
//! used-by count × nresults
//! argument register × nargs
//! attribute offset × nattrs
//! function index × nfuncs
//! result register × nresults
//! used-by lists (the counts' sum of kernel indices)
//! ```

use std::ops::Range;

/// A kernel record's fixed header.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KernelHeader {
    /// Index of the kernel's name in the Kernels section
    /// (`PSEUDO_KERNEL_CODE` for the pseudo kernel).
    pub code: u32,
    /// Offset of the kernel's location in the Locations section.
    pub location: u32,
    /// Number of argument registers.
    pub num_args: u32,
    /// Number of attributes.
    pub num_attributes: u32,
    /// Number of function references.
    pub num_functions: u32,
    /// Number of results.
    pub num_results: u32,
}

impl KernelHeader {
    /// Words of the header.
    pub const WORDS: usize = 6;

    /// The header whose words are `words`, in record order.
    pub fn from_words(words: [u32; Self::WORDS]) -> KernelHeader {
        let [
            code,
            location,
            num_args,
            num_attributes,
            num_functions,
            num_results,
        ] = words;
        KernelHeader {
            code,
            location,
            num_args,
            num_attributes,
            num_functions,
            num_results,
        }
    }

    /// The header's words, in record order.
    pub fn to_words(self) -> [u32; Self::WORDS] {
        [
            self.code,
            self.location,
            self.num_args,
            self.num_attributes,
            self.num_functions,
            self.num_results,
        ]
    }

    /// Where the results' user counts lie, in words from the record's start.
    #[inline(always)]
    pub fn used_by_counts(&self) -> Range<usize> {
        Self::WORDS..Self::WORDS + self.num_results as usize
    }

    /// Where the argument registers lie.
    #[inline(always)]
    pub fn args(&self) -> Range<usize> {
        let start = self.used_by_counts().end;
        start..start + self.num_args as usize
    }

    /// Where the attribute offsets lie.
    #[inline(always)]
    pub fn attributes(&self) -> Range<usize> {
        let start = self.args().end;
        start..start + self.num_attributes as usize
    }

    /// Where the function indices lie.
    #[inline(always)]
    pub fn functions(&self) -> Range<usize> {
        let start = self.attributes().end;
        start..start + self.num_functions as usize
    }

    /// Where the result registers lie.
    #[inline(always)]
    pub fn results(&self) -> Range<usize> {
        let start = self.functions().end;
        start..start + self.num_results as usize
    }

    /// Where the used-by lists start (they run for the user counts' sum).
    #[inline(always)]
    pub fn used_by_lists_start(&self) -> usize {
        self.results().end
    }

    /// The words before the used-by lists, or `None` if the counts
    /// overflow (a hostile header): check this before using the ranges
    /// of a header read from a file.
    pub fn checked_fixed_words(&self) -> Option<usize> {
        [
            self.num_results,
            self.num_args,
            self.num_attributes,
            self.num_functions,
            self.num_results,
        ]
        .iter()
        .try_fold(Self::WORDS, |total, &count| {
            total.checked_add(usize::try_from(count).ok()?)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_follow_each_other() {
        let header = KernelHeader::from_words([7, 40, 2, 1, 3, 2]);
        assert_eq!(header.to_words(), [7, 40, 2, 1, 3, 2]);
        assert_eq!(header.used_by_counts(), 6..8);
        assert_eq!(header.args(), 8..10);
        assert_eq!(header.attributes(), 10..11);
        assert_eq!(header.functions(), 11..14);
        assert_eq!(header.results(), 14..16);
        assert_eq!(header.used_by_lists_start(), 16);
        assert_eq!(header.checked_fixed_words(), Some(16));
    }

    #[test]
    fn overflowing_counts_are_caught() {
        let header = KernelHeader::from_words([0, 0, u32::MAX, u32::MAX, u32::MAX, u32::MAX]);
        if usize::BITS == 32 {
            assert_eq!(header.checked_fixed_words(), None);
        } else {
            assert_eq!(
                header.checked_fixed_words(),
                Some(6 + 5 * u32::MAX as usize)
            );
        }
    }
}
