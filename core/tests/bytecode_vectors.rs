//! The upstream MLIR bytecode vectors (`corpus/vectors/mlir-bytecode`):
//! read → print generic with locations matches `NAME.generic.mlir` (value
//! names compared up to renaming), read → write at the same version gives
//! the same bytes, and every malformed file in `invalid/` gives an error.

mod common;

use std::path::{Path, PathBuf};

use bef::bytecode::{self, WriteOptions};
use bef::text::{PrintOptions, print_module};

fn vectors_dir() -> PathBuf {
    common::corpus_path("vectors/mlir-bytecode")
}

fn bytecode_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(vectors_dir())
        .expect("vectors directory")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "mlirbc"))
        .collect();
    files.sort();
    files
}

/// Drops MLIR's `// 2 preds: ...` block comments, which this printer
/// does not write.
fn strip_comments(text: &str) -> String {
    text.lines()
        .map(|l| l.split_once("  // ").map_or(l, |(code, _)| code))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Renames `%name`s to `%vN` in order of first appearance, so texts that
/// differ only by MLIR's value numbering compare equal.
fn normalize_value_names(text: &str) -> String {
    let mut names: Vec<String> = Vec::new();
    let mut out = String::with_capacity(text.len());
    let bytes = text.as_bytes();
    let mut i = 0;
    let mut in_string = false;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'"' && (i == 0 || bytes[i - 1] != b'\\') {
            in_string = !in_string;
        }
        if c == b'%' && !in_string {
            let start = i + 1;
            let mut end = start;
            while end < bytes.len() && (bytes[end].is_ascii_alphanumeric() || bytes[end] == b'_') {
                end += 1;
            }
            let name = &text[start..end];
            let n = match names.iter().position(|x| x == name) {
                Some(n) => n,
                None => {
                    names.push(name.to_string());
                    names.len() - 1
                }
            };
            out.push_str(&format!("%v{n}"));
            i = end;
            continue;
        }
        out.push(c as char);
        i += 1;
    }
    out
}

/// `NAME` of `NAME.vN.mlirbc` / `NAME.variant.mlirbc`.
fn family(path: &Path) -> String {
    let file = path.file_name().unwrap().to_str().unwrap();
    file.split('.').next().unwrap().to_string()
}

fn header_version(bytes: &[u8]) -> u64 {
    bytecode::Structure::parse(bytes).expect("parses").version
}

#[test]
fn vectors_print_like_upstream() {
    let mut failures = Vec::new();
    for path in bytecode_files() {
        let expected_path = vectors_dir().join(format!("{}.generic.mlir", family(&path)));
        let Ok(expected) = std::fs::read_to_string(&expected_path) else {
            continue;
        };
        let bytes = std::fs::read(&path).unwrap();
        let module = match bytecode::read_aligned(&bytes) {
            Ok(m) => m,
            Err(e) => {
                failures.push(format!("{}: read failed: {e}", path.display()));
                continue;
            }
        };
        let printed = print_module(
            &module,
            PrintOptions {
                generic: true,
                debug_info: true,
            },
        );
        // Versions 0-4 cannot hold the properties of unregistered ops.
        let unregistered_old = family(&path) == "unregistered" && header_version(&bytes) < 5;
        if normalize_value_names(&strip_comments(&printed))
            != normalize_value_names(&strip_comments(&expected))
            && !unregistered_old
        {
            failures.push(format!(
                "{}: printed text differs\n--- got\n{printed}\n--- expected\n{expected}",
                path.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn rewriting_at_the_same_version_gives_identical_bytes() {
    let mut failures = Vec::new();
    for path in bytecode_files() {
        let bytes = std::fs::read(&path).unwrap();
        let module = match bytecode::read_aligned(&bytes) {
            Ok(m) => m,
            Err(e) => {
                failures.push(format!("{}: read failed: {e}", path.display()));
                continue;
            }
        };
        let origin = module.origin.clone().expect("origin");
        let written = bytecode::write(
            &module,
            &WriteOptions {
                version: origin.version,
                producer: origin.producer.clone(),
            },
        );
        match written {
            Ok(w) if w.bytes == bytes => {}
            Ok(w) => {
                let first = w
                    .bytes
                    .iter()
                    .zip(&bytes)
                    .position(|(a, b)| a != b)
                    .unwrap_or(w.bytes.len().min(bytes.len()));
                failures.push(format!(
                    "{}: {} bytes written, {} expected, first difference at {first}",
                    path.display(),
                    w.bytes.len(),
                    bytes.len()
                ));
            }
            Err(e) => failures.push(format!("{}: write failed: {e}", path.display())),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn invalid_files_give_located_errors() {
    let dir = vectors_dir().join("invalid");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).expect("invalid/") {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "mlirbc") {
            continue;
        }
        count += 1;
        let bytes = std::fs::read(&path).unwrap();
        let name = path.file_name().unwrap().to_str().unwrap();
        if name == "empty_file.mlirbc" || name == "bad_magic.mlirbc" {
            // Not bytecode at all: upstream falls back to its text parser.
            assert!(!bytecode::is_bytecode(&bytes), "{name}");
            continue;
        }
        let err = bytecode::read_aligned(&bytes).expect_err(name);
        assert!(
            err.offset <= bytes.len(),
            "{name}: offset {} past the end",
            err.offset
        );
        let expected = match name {
            "magic_only.mlirbc" => "attempting to parse a byte at the end of the bytecode",
            "version_7.mlirbc" => "bytecode version 7 is newer than the current version 6",
            "truncated_half.mlirbc" => "attempting to parse",
            "invalid_section_id.mlirbc" => "invalid section ID: 9",
            "duplicate_string_section.mlirbc" => "duplicate top-level section: String (0)",
            "missing_properties_section.mlirbc" => {
                "missing data for top-level section: Properties (8)"
            }
            other => panic!("no expectation for {other}: {err}"),
        };
        assert!(err.message.contains(expected), "{name}: {err}");
    }
    assert!(count >= 8, "found {count} invalid files");
}

/// A dialect named with a dot (`func.`) would turn an op named just by
/// it into `func.`, which the writer splits as dialect `func`: the reader
/// refuses such a name where it stands (found by `mlirbc_read`).
#[test]
fn dialect_names_with_a_dot_are_refused() {
    let path = common::corpus_path("fuzz/mlirbc_read/dialect_name_with_dot.mlirbc");
    let bytes = std::fs::read(&path).unwrap();
    let err = bytecode::read_aligned(&bytes).expect_err("refused");
    assert!(
        err.message.contains("dialect name 'func.' contains '.'"),
        "{err}"
    );
    assert!(err.offset > 0 && err.offset < bytes.len(), "{err}");
}

/// `bytes` copied to a buffer aligned as `read_aligned`'s, for the readers
/// that borrow their input.
fn aligned(bytes: &[u8]) -> (Vec<u8>, usize) {
    let align = bytecode::MAX_BUFFER_ALIGNMENT;
    let mut storage = vec![0u8; bytes.len() + align];
    let start = storage.as_ptr().align_offset(align);
    storage[start..start + bytes.len()].copy_from_slice(bytes);
    (storage, start)
}

#[test]
fn lazy_reads_decode_to_the_eager_module() {
    for path in bytecode_files() {
        let bytes = std::fs::read(&path).unwrap();
        let (storage, start) = aligned(&bytes);
        let input = &storage[start..start + bytes.len()];
        let Ok(eager) = bytecode::read(input) else {
            continue;
        };
        let lazy = bytecode::read_lazy(input).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        // Functions sit in nested sections from version 2 on.
        let deferred = lazy.pending().count();
        assert_eq!(
            deferred > 0,
            header_version(input) >= 2 && eager.functions().count() > 0,
            "{path:?}"
        );
        assert_eq!(lazy.into_module().unwrap(), eager, "{path:?}");
    }
}

#[test]
fn lazy_regions_decode_only_when_visited() {
    let bytes = std::fs::read(vectors_dir().join("cf_blocks.v6.mlirbc")).unwrap();
    let eager = bytecode::read_aligned(&bytes).unwrap();
    // Overwrite the body of the second function: an eager read fails, a
    // lazy one only when that function is visited.
    let (pending, second_range) = {
        let lazy = bytecode::read_lazy(&bytes).unwrap();
        let pending: Vec<(Vec<usize>, std::ops::Range<usize>)> =
            lazy.pending().map(|(p, r)| (p.to_vec(), r)).collect();
        assert_eq!(pending.len(), 2);
        for (p, _) in &pending {
            assert!(!lazy.is_loaded(p));
        }
        // Undecoded functions have no regions and no values yet.
        assert!(lazy.module().functions().all(|f| f.body().is_none()));
        assert!(lazy.module().values.len() < eager.values.len());
        let second = pending[1].1.clone();
        (pending, second)
    };
    let mut broken = bytes.clone();
    broken[second_range.clone()].fill(0xFF);
    assert!(bytecode::read(&broken).is_err());

    let mut lazy = bytecode::read_lazy(&broken).unwrap();
    let first = lazy.load(&pending[0].0).unwrap().clone();
    assert!(lazy.is_loaded(&pending[0].0) && !lazy.is_loaded(&pending[1].0));
    let eager_first = &eager.body().ops[pending[0].0[2]];
    assert_eq!(first.name, eager_first.name);
    assert_eq!(first.regions.len(), eager_first.regions.len());
    assert_eq!(
        first.regions[0].blocks.len(),
        eager_first.regions[0].blocks.len()
    );
    let err = lazy.load(&pending[1].0).unwrap_err();
    assert!(second_range.contains(&err.offset), "{err}");

    // Loading in any order gives the eager module.
    let mut lazy = bytecode::read_lazy(&bytes).unwrap();
    lazy.load(&pending[1].0).unwrap();
    assert!(lazy.is_loaded(&pending[1].0) && !lazy.is_loaded(&pending[0].0));
    assert_eq!(lazy.into_module().unwrap(), eager);
    assert!(
        bytecode::read_lazy(&bytes)
            .unwrap()
            .load(&[9, 9, 9])
            .is_err()
    );
}
