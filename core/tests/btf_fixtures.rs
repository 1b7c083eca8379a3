//! The BTF files under `corpus/btf/` (read by the conformance programs)
//! and `corpus/fuzz/btf_read/` (the fuzz seeds) are made here: this test
//! checks that the checked-in files are what the writer makes, and
//! `BLESS=1` rewrites them.

mod common;

use bef::btf::{self, BtfDType, TensorToWrite};

fn le<T: Copy, const N: usize>(values: &[T], to: fn(T) -> [u8; N]) -> Vec<u8> {
    values.iter().flat_map(|&v| to(v)).collect()
}

/// One tensor of every dtype and of ranks 0 to 4, a COO tensor and an
/// empty one.
fn tensors() -> Vec<u8> {
    let f32s = le(&[1.5f32, -2.0, 3.25, 0.0, -0.5, 6.0], f32::to_le_bytes);
    let i32s = le(&[7i32, -1, 0, 2147483647], i32::to_le_bytes);
    let i64s = le(&[-9i64, 8, 1 << 40, 0], i64::to_le_bytes);
    let i8s = le(&[-128i8, 0, 127], i8::to_le_bytes);
    let u8s = [0u8, 1, 254, 255];
    let f64s = le(&[0.125f64], f64::to_le_bytes);
    let i16s = le(&[-300i16, 300], i16::to_le_bytes);
    let u16s = le(&[65535u16, 1], u16::to_le_bytes);
    let u32s = le(&[4000000000u32, 5], u32::to_le_bytes);
    let u64s = le(&[u64::MAX, 6], u64::to_le_bytes);
    let coo_values = le(&[4.0f32, -1.0], f32::to_le_bytes);
    let image = le(&[1.0f32, 2.0, 3.0, 4.0], f32::to_le_bytes);
    let dense = |dtype, dims, data| TensorToWrite::Dense { dtype, dims, data };
    btf::write(&[
        dense(BtfDType::F32, &[2, 3], &f32s),
        dense(BtfDType::I32, &[4], &i32s),
        dense(BtfDType::I64, &[2, 2], &i64s),
        dense(BtfDType::I8, &[3], &i8s),
        dense(BtfDType::UI8, &[2, 2], &u8s),
        dense(BtfDType::F64, &[], &f64s),
        dense(BtfDType::I16, &[2], &i16s),
        dense(BtfDType::UI16, &[2], &u16s),
        dense(BtfDType::UI32, &[2], &u32s),
        dense(BtfDType::UI64, &[2], &u64s),
        TensorToWrite::Coo {
            dtype: BtfDType::F32,
            dims: &[3, 3],
            indices: &[0, 0, 2, 1],
            values: &coo_values,
        },
        dense(BtfDType::F32, &[1, 2, 2, 1], &image),
        dense(BtfDType::F32, &[0], &[]),
    ])
    .expect("the fixture tensors are consistent")
}

/// One f32 [2, 3] tensor cut in the middle of its elements.
fn truncated() -> Vec<u8> {
    let data = le(&[1.0f32; 6], f32::to_le_bytes);
    let mut bytes = btf::write(&[TensorToWrite::Dense {
        dtype: BtfDType::F32,
        dims: &[2, 3],
        data: &data,
    }])
    .expect("consistent");
    bytes.truncate(bytes.len() - 10);
    bytes
}

/// A record of rank 3 whose dims multiply past 64 bits, followed by a
/// record whose rank asks for more dims than the file has.
fn overflow() -> Vec<u8> {
    let mut bytes = Vec::new();
    for word in [2u64, 24, 64] {
        bytes.extend_from_slice(&word.to_le_bytes());
    }
    // Record 0 at 24: rank 3, f32, dense, dims 2^32 x 2^32 x 2.
    bytes.extend_from_slice(&3u64.to_le_bytes());
    bytes.extend_from_slice(&[4, 0, 0, 0, 0, 0, 0, 0]);
    for dim in [1u64 << 32, 1 << 32, 2] {
        bytes.extend_from_slice(&dim.to_le_bytes());
    }
    // Record 1 at 64: rank 2^40, i32.
    bytes.extend_from_slice(&(1u64 << 40).to_le_bytes());
    bytes.extend_from_slice(&[2, 0, 0, 0, 0, 0, 0, 0]);
    bytes
}

/// Entries and coordinates of `fuzz/regressions/btf_shared_coo_record.btf`:
/// 56,888 bytes, whose entries would ask 88 MB of coordinate checks if each were
/// checked on its own, past the 64 MiB a listing scans beyond the size.
const SHARED_COO: (u64, u64) = (3072, 3584);

fn fixtures() -> Vec<(&'static str, Vec<u8>)> {
    let (tensors, truncated, overflow) = (tensors(), truncated(), overflow());
    let (entries, coordinates) = SHARED_COO;
    vec![
        (
            "fuzz/regressions/btf_shared_coo_record.btf",
            common::shared_coo_btf(entries, coordinates),
        ),
        ("btf/tensors.btf", tensors.clone()),
        ("btf/truncated.btf", truncated.clone()),
        ("btf/overflow.btf", overflow.clone()),
        ("fuzz/btf_read/tensors.btf", tensors),
        ("fuzz/btf_read/truncated.btf", truncated),
        ("fuzz/btf_read/overflow.btf", overflow),
    ]
}

#[test]
fn checked_in_btf_files_are_what_the_writer_makes() {
    let bless = std::env::var_os("BLESS").is_some();
    for (relative, bytes) in fixtures() {
        let path = common::repo_root().join("corpus").join(relative);
        if bless {
            std::fs::create_dir_all(path.parent().expect("in a directory")).expect("mkdir");
            std::fs::write(&path, &bytes).expect("write fixture");
        }
        let on_disk = common::read_corpus(relative);
        assert!(
            on_disk == bytes,
            "{} differs from what the writer makes (BLESS=1 rewrites it)",
            path.display()
        );
    }
}

#[test]
fn fixtures_read_as_intended() {
    let tensors = tensors();
    let file = btf::BtfFile::parse(&tensors).expect("reads");
    assert_eq!(file.len(), 13);
    assert!(file.records().all(|r| r.is_ok()));
    let truncated = truncated();
    let error = btf::BtfFile::parse(&truncated)
        .and_then(|f| f.record(0))
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "the 62-byte file ends before the end of tensor 0's elements"
    );
    let overflow = overflow();
    let file = btf::BtfFile::parse(&overflow).expect("reads");
    assert!(
        file.record(0)
            .unwrap_err()
            .to_string()
            .contains("exceeds 64 bits")
    );
    assert_eq!(
        file.record(1).unwrap_err().to_string(),
        "the 80-byte file ends before the end of tensor 1's dims"
    );
}
