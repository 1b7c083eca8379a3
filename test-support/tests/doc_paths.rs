//! Every file path the documentation names exists: in the repository's
//! Markdown files and in the `//!` comments of the crates' sources, each
//! backticked span or link target that looks like a path (it contains `/`
//! and ends in a file name with an extension, or it ends with `/`), and in
//! `//!` comments also a bare `name.rs`, a file of the module's own.
//!
//! A path in a Markdown file is found from the repository root, the file's
//! own directory, a crate's directory or a crate's `src/` (the module
//! tables name files by module, `text/custom/mod.rs`). A path in a `//!`
//! comment is found from the root, its crate's directory or `src/`, its
//! file's directory or its module's directory (`foo/` beside `foo.rs`).
//!
//! The `//!` comments of `tui/src` and `profiler/src` are left out while
//! those crates' files are moved into folders; add them to
//! [`CHECKED_SOURCES`] once the moves have landed.

use std::path::{Path, PathBuf};

/// The crates, by directory.
const CRATES: [&str; 5] = ["core", "fuzz", "test-support", "tui", "profiler"];

/// The source trees whose `//!` comments are checked.
const CHECKED_SOURCES: [&str; 3] = ["core/src", "fuzz/src", "test-support/src"];

/// Paths that are not this repository's, by the file naming them: another
/// project's files, and spellings of a path given as examples.
const NOT_OURS: [(&str, &str); 6] = [
    // tokio's loom shim, which `sync.rs` follows.
    ("core/src/runtime/sync.rs", "src/loom/"),
    // TFRT's benchmark program, timed there.
    (
        "docs/performance.md",
        "backends/cpu/mlir_tests/mnist/matmul.mlir",
    ),
    // The reference translator's stream analysis.
    (
        "core/src/translate/stream_model.rs",
        "lib/compiler/stream_analysis.cc",
    ),
    // Spellings of one path that the output check must see through.
    ("core/src/tool_io/output.rs", "./p.mlir"),
    ("core/src/tool_io/output.rs", "../dir/p.mlir"),
    // A pattern: one dump per vector and version.
    (
        "corpus/vectors/mlir-bytecode/README.md",
        "dumps/NAME.vN.dump.txt",
    ),
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("test-support sits in the repository")
        .to_path_buf()
}

/// The backticked spans (outside fenced code blocks, with line breaks and
/// the indentation after them removed) and link targets of `text`.
fn named(text: &str) -> Vec<String> {
    let mut prose = String::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            prose.push_str(line);
            prose.push('\n');
        }
    }
    let mut names = Vec::new();
    let mut parts = prose.split('`');
    parts.next(); // before the first backtick
    while let Some(span) = parts.next() {
        let joined: String = span.split('\n').map(str::trim).collect::<Vec<_>>().concat();
        names.push(joined);
        parts.next(); // text between this span and the next
    }
    for (at, _) in prose.match_indices("](") {
        let rest = &prose[at + 2..];
        if let Some(end) = rest.find(')') {
            names.push(rest[..end].to_string());
        }
    }
    names
}

/// `name` without its `#anchor`, if it looks like a path inside the
/// repository.
fn as_path(name: &str) -> Option<&str> {
    let path = name.split('#').next().unwrap_or("");
    if path.contains("://")
        || path.starts_with('/')
        || path
            .chars()
            .any(|c| c.is_whitespace() || "<>*{}$|,;:\"'=()[]!@&?%^".contains(c) || !c.is_ascii())
        || !path.contains('/')
    {
        return None;
    }
    if path.ends_with('/') {
        return Some(path);
    }
    let file = path.rsplit('/').next().unwrap_or("");
    let (stem, extension) = file.rsplit_once('.')?;
    let has_letter = |s: &str| s.chars().any(|c| c.is_ascii_alphabetic());
    (!stem.is_empty()
        && has_letter(file)
        && !extension.is_empty()
        && extension.chars().all(|c| c.is_ascii_alphanumeric()))
    .then_some(path)
}

/// A bare file of a module, `name.rs`.
fn as_module_file(name: &str) -> Option<&str> {
    let stem = name.strip_suffix(".rs")?;
    (!stem.is_empty() && stem.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .then_some(name)
}

fn files(dir: &Path, extension: &str, out: &mut Vec<PathBuf>) {
    // Other tests make and remove scratch directories while this one
    // walks the tree: one that is gone has nothing to check.
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        // Links are not followed: a test's link into /proc is no doc.
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            if !name.starts_with('.') && name != "target" {
                files(&path, extension, out);
            }
        } else if path.extension().is_some_and(|e| e == extension) {
            out.push(path);
        }
    }
}

/// Checks each name in `names` that `pick` takes against `bases`, adding
/// what is missing to `missing`.
fn check(
    file: &Path,
    names: &[String],
    pick: fn(&str) -> Option<&str>,
    bases: &[PathBuf],
    missing: &mut Vec<String>,
) {
    let root = root();
    let relative = file.strip_prefix(&root).unwrap_or(file);
    let shown = relative.to_string_lossy().replace('\\', "/");
    for name in names {
        let Some(path) = pick(name) else { continue };
        if NOT_OURS.contains(&(shown.as_str(), path)) {
            continue;
        }
        if !bases.iter().any(|base| base.join(path).exists()) {
            missing.push(format!("{shown}: `{path}`"));
        }
    }
}

fn crate_dirs() -> Vec<PathBuf> {
    let root = root();
    CRATES
        .iter()
        .flat_map(|c| [root.join(c), root.join(c).join("src")])
        .collect()
}

#[test]
fn paths_in_markdown_files_exist() {
    let root = root();
    let mut markdown = Vec::new();
    files(&root, "md", &mut markdown);
    assert!(markdown.iter().any(|f| f.ends_with("ARCHITECTURE.md")));
    let mut missing = Vec::new();
    for file in &markdown {
        // A file another test removed meanwhile has nothing to check.
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        let mut bases = vec![root.clone(), file.parent().expect("a directory").into()];
        bases.extend(crate_dirs());
        check(file, &named(&text), as_path, &bases, &mut missing);
    }
    assert!(
        missing.is_empty(),
        "paths named in Markdown that do not exist:\n{}",
        missing.join("\n")
    );
}

#[test]
fn paths_in_module_comments_exist() {
    let root = root();
    let mut missing = Vec::new();
    for source in CHECKED_SOURCES {
        let src = root.join(source);
        let krate = src.parent().expect("a crate").to_path_buf();
        let mut sources = Vec::new();
        files(&src, "rs", &mut sources);
        assert!(!sources.is_empty(), "no sources under {}", src.display());
        for file in &sources {
            let text = std::fs::read_to_string(file).expect("source reads");
            let comment: String = text
                .lines()
                .filter_map(|l| l.trim_start().strip_prefix("//!"))
                .collect::<Vec<_>>()
                .join("\n");
            let names = named(&comment);
            let dir = file.parent().expect("a directory").to_path_buf();
            let module_dir = file.with_extension("");
            let bases = [
                root.clone(),
                krate.clone(),
                src.clone(),
                dir.clone(),
                module_dir.clone(),
            ];
            check(file, &names, as_path, &bases, &mut missing);
            let bases = [dir, module_dir, src.clone()];
            check(file, &names, as_module_file, &bases, &mut missing);
        }
    }
    assert!(
        missing.is_empty(),
        "paths named in `//!` comments that do not exist:\n{}",
        missing.join("\n")
    );
}

#[test]
fn what_looks_like_a_path() {
    assert_eq!(
        named(
            "a `text/custom.rs` and [b](docs/x.md#y)\n```\n`no/t.rs`\n```\n`profiler/src/\n  model.rs`"
        ),
        ["text/custom.rs", "profiler/src/model.rs", "docs/x.md#y"]
    );
    assert_eq!(as_path("docs/x.md#y"), Some("docs/x.md"));
    assert_eq!(as_path("kernels/tensor/"), Some("kernels/tensor/"));
    for not_a_path in [
        "tool_io::sigbus",
        "https://a/b.c",
        "/proc/self/maps",
        "f32[100,784]",
        "a/b",
        "1/2.5",
        "corpus/fuzz/<target>/",
        "--flag=a/b.c",
    ] {
        assert_eq!(as_path(not_a_path), None, "{not_a_path}");
    }
    assert_eq!(as_module_file("numbering.rs"), Some("numbering.rs"));
    assert_eq!(as_module_file("a b.rs"), None);
}
