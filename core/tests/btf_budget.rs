//! Every scan of a BTF listing within its budget: records may share bytes
//! (every entry of the offset table may name one record), so the dims,
//! COO coordinates and elements a listing checks are charged to one
//! budget of the file's size plus `EXTRA_SCAN_BYTES`. Measured in bytes
//! read, never in time.

mod common;

use bef::btf::summary::{self, EXTRA_SCAN_BYTES, PREVIEW_VALUES, ScanBudget};
use bef::btf::{HEADER_BYTES, SliceSource, Source};
use common::shared_coo_btf;

/// A source that counts the bytes read through it.
struct Counting<'a> {
    inner: SliceSource<'a>,
    read: u64,
}

impl Source for Counting<'_> {
    fn size(&self) -> u64 {
        self.inner.size()
    }

    fn read_at(&mut self, offset: u64, out: &mut [u8]) -> std::io::Result<()> {
        self.read += out.len() as u64;
        self.inner.read_at(offset, out)
    }
}

/// Lists `bytes` within `budget`; returns the bytes read, the bytes
/// charged, and how many records were checked, skipped and unreadable.
fn list(bytes: &[u8], mut budget: ScanBudget) -> (u64, u64, [usize; 3]) {
    let mut source = Counting {
        inner: SliceSource(bytes),
        read: 0,
    };
    let mut rows = [0usize; 3];
    let (_, tensors) = summary::summaries(&mut source, &mut budget).expect("the table fits");
    for tensor in tensors {
        match tensor {
            Ok(_) => rows[0] += 1,
            Err(e) if e.is_not_scanned() => rows[1] += 1,
            Err(e) => panic!("{e}"),
        }
    }
    (source.read, budget.spent(), rows)
}

/// What a listing reads besides what it charges: per entry, the entry,
/// the record's header, the shapes of a COO record's coordinates and
/// values and a preview; and the count.
fn uncharged(entries: u64) -> u64 {
    8 + entries * (8 + HEADER_BYTES + 16 + 8 + PREVIEW_VALUES as u64 * 8)
}

#[test]
fn one_coo_record_named_by_every_entry_is_checked_within_the_budget() {
    // 100,000 entries naming one record of 16,384 coordinates: 0.9 MB,
    // 13 GB of coordinates if each entry were checked on its own.
    let (entries, coordinates) = (100_000, 16_384);
    let bytes = shared_coo_btf(entries, coordinates);
    let size = bytes.len() as u64;
    let budget = size + EXTRA_SCAN_BYTES;
    let (read, spent, [checked, skipped, _]) = list(&bytes, ScanBudget::for_file(size));
    assert!(spent <= budget, "{spent} bytes charged, budget {budget}");
    assert!(read <= budget + uncharged(entries), "{read} bytes read");
    // Each record checked costs its dims and coordinates, and its values
    // while the budget lasts.
    let per_record = 8 + 8 * coordinates;
    let checked = checked as u64;
    assert!(
        (budget / (per_record + coordinates)..=budget / per_record).contains(&checked),
        "{checked} checked"
    );
    assert_eq!(checked + skipped as u64, entries);
}

#[test]
fn the_work_is_linear_in_the_file_whatever_the_sharing() {
    let budget = 1 << 20;
    for (entries, coordinates) in [(10_000, 8), (10_000, 4096), (100, 100_000), (1, 200_000)] {
        let bytes = shared_coo_btf(entries, coordinates);
        let (read, spent, [checked, skipped, _]) = list(&bytes, ScanBudget::bytes(budget));
        assert!(spent <= budget, "{entries}×{coordinates}: {spent} charged");
        assert!(
            read <= budget + uncharged(entries),
            "{entries}×{coordinates}: {read} bytes read"
        );
        assert_eq!(checked + skipped, entries as usize);
        assert!(checked > 0 || 8 + 8 * coordinates > budget);
    }
}
