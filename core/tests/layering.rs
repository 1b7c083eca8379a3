//! Which top-level module of `bef` may use which: [`USES`], a table of
//! allowed edges, bottom to top. The test reads every `crate::<module>`
//! path (and `super::` path that climbs to the crate root) in each module's
//! non-test source and fails on an edge the table lacks, and on an edge the
//! table has that no code uses, so that the table is the code's. The table's
//! modules are `lib.rs`'s `pub mod`s, listed in the order of `lib.rs`'s
//! documentation, and `ARCHITECTURE.md` shows the same table.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Each module and the modules it may use, bottom to top: a module uses
/// only modules listed before it, so none reaches up and there is no cycle.
const USES: &[(&str, &[&str])] = &[
    ("tool_io", &[]),
    ("format", &["tool_io"]),
    ("abi", &["format", "tool_io"]),
    ("ir", &[]),
    ("text", &["format", "ir"]),
    ("bytecode", &["ir", "text"]),
    ("translate", &["abi", "bytecode", "format", "ir", "text"]),
    ("passes", &["ir", "translate"]),
    ("inspect", &["abi", "format"]),
    ("runtime", &[]),
    (
        "exec",
        &[
            "abi",
            "bytecode",
            "format",
            "ir",
            "runtime",
            "text",
            "translate",
        ],
    ),
    ("btf", &["format"]),
    (
        "kernels",
        &["abi", "btf", "exec", "format", "runtime", "tool_io"],
    ),
];

fn modules() -> Vec<&'static str> {
    USES.iter().map(|(module, _)| *module).collect()
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("source directory reads") {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Source a test build alone compiles: test modules and test-only files.
fn is_test_only(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    name == "tests.rs"
        || name.ends_with("_tests.rs")
        || name == "test_support.rs"
        || name.starts_with("arbitrary")
}

/// How many `super::` climb from `file` to the crate root: the length of
/// its module path (`btf/mod.rs` is `btf`, `btf/reader.rs` is
/// `btf::reader`).
fn depth(file: &Path) -> usize {
    let relative = file.strip_prefix(src()).unwrap_or(file);
    let parts = relative.components().count();
    if relative.file_name().is_some_and(|n| n == "mod.rs") {
        parts - 1
    } else {
        parts
    }
}

/// The names at the start of a path after `prefix`: one for `a::b`, each
/// item's first for a group `{a::b, c}`.
fn first_names(rest: &str, used: &mut BTreeSet<String>) {
    if let Some(group) = rest.strip_prefix('{') {
        let mut level = 0usize;
        let mut item = String::new();
        for c in group.chars() {
            match c {
                '{' => level += 1,
                '}' if level == 0 => break,
                '}' => level -= 1,
                ',' if level == 0 => {
                    first_names(item.trim(), used);
                    item.clear();
                    continue;
                }
                _ => {}
            }
            item.push(c);
        }
        first_names(item.trim(), used);
        return;
    }
    let name: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    if !name.is_empty() {
        used.insert(name);
    }
}

/// The names `source` uses at the crate root, as `crate::<name>` or as
/// `super::` repeated `depth` times, in code (not in comments), up to its
/// first `#[cfg(test)]` item (unit tests sit at the end of a file).
fn used_modules(source: &str, depth: usize) -> BTreeSet<String> {
    let before_tests = source.split("#[cfg(test)]").next().unwrap_or("");
    let code: String = before_tests
        .lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let mut used = BTreeSet::new();
    for (at, _) in code.match_indices("crate::") {
        first_names(&code[at + "crate::".len()..], &mut used);
    }
    if depth > 0 {
        let climb = "super::".repeat(depth);
        for (at, _) in code.match_indices(&climb) {
            let before = code[..at].chars().next_back();
            if before.is_some_and(|c| c == ':' || c.is_ascii_alphanumeric() || c == '_') {
                continue; // part of a longer climb
            }
            let rest = &code[at + climb.len()..];
            if !rest.starts_with("super::") {
                first_names(rest, &mut used);
            }
        }
    }
    used
}

/// Every edge between top-level modules in the code, as `(user, used,
/// file)`.
fn edges_in_code() -> Vec<(String, String, String)> {
    let src = src();
    let modules = modules();
    let mut edges = Vec::new();
    for module in &modules {
        let mut files = Vec::new();
        let dir = src.join(module);
        if dir.is_dir() {
            rust_files(&dir, &mut files);
        }
        let single = src.join(format!("{module}.rs"));
        if single.is_file() {
            files.push(single);
        }
        assert!(
            !files.is_empty(),
            "module {module} has no source under {}",
            src.display()
        );
        for file in files.iter().filter(|f| !is_test_only(f)) {
            let source = std::fs::read_to_string(file).expect("source reads");
            for used in used_modules(&source, depth(file)) {
                // Macros (`crate::kernel!`) and items of lib.rs are not modules.
                if used != *module && modules.contains(&used.as_str()) {
                    let shown = file.strip_prefix(&src).unwrap_or(file).display();
                    edges.push((module.to_string(), used, shown.to_string()));
                }
            }
        }
    }
    edges
}

#[test]
fn modules_use_only_the_modules_the_table_allows() {
    let edges = edges_in_code();
    let allowed = |user: &str, used: &str| {
        USES.iter()
            .any(|(module, uses)| *module == user && uses.contains(&used))
    };
    let violations: Vec<String> = edges
        .iter()
        .filter(|(user, used, _)| !allowed(user, used))
        .map(|(user, used, file)| {
            format!("{file} ({user}) uses {used}, which the table in core/tests/layering.rs does not allow")
        })
        .collect();
    assert!(violations.is_empty(), "{}", violations.join("\n"));
    let unused: Vec<String> = USES
        .iter()
        .flat_map(|(user, uses)| uses.iter().map(move |used| (*user, *used)))
        .filter(|(user, used)| !edges.iter().any(|(u, v, _)| u == user && v == used))
        .map(|(user, used)| format!("{user} → {used}"))
        .collect();
    assert!(
        unused.is_empty(),
        "edges of the table no code uses (remove them here and in ARCHITECTURE.md):\n{}",
        unused.join("\n")
    );
}

#[test]
fn the_table_points_down() {
    for (at, (module, uses)) in USES.iter().enumerate() {
        for used in *uses {
            let below = USES[..at].iter().any(|(m, _)| m == used);
            assert!(below, "{module} uses {used}, which is not listed before it");
        }
    }
}

#[test]
fn the_table_lists_lib_rs_modules_in_its_order() {
    let lib = std::fs::read_to_string(src().join("lib.rs")).expect("lib.rs reads");
    let declared: BTreeSet<&str> = lib
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub mod "))
        .map(|l| l.trim_end_matches(';').trim())
        .collect();
    let listed: BTreeSet<&str> = modules().into_iter().collect();
    assert_eq!(declared, listed, "lib.rs's `pub mod`s and the table differ");
    // lib.rs's documentation lists them bottom to top: "- [`abi`]: ...".
    let documented: Vec<&str> = lib
        .lines()
        .filter_map(|l| l.strip_prefix("//! - [`"))
        .filter_map(|l| l.split('`').next())
        .map(|name| name.trim_start_matches("mod@"))
        .collect();
    assert_eq!(
        documented,
        modules(),
        "lib.rs's documentation lists the modules in another order than the table"
    );
}

#[test]
fn architecture_md_shows_the_table() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../ARCHITECTURE.md");
    let text = std::fs::read_to_string(&path).expect("ARCHITECTURE.md reads");
    let header = "| module | may use |";
    let start = text
        .find(header)
        .expect("ARCHITECTURE.md has a `| module | may use |` table");
    let rows: Vec<(String, Vec<String>)> = text[start..]
        .lines()
        .skip(2) // the header and its rule
        .take_while(|l| l.starts_with('|'))
        .map(|row| {
            let cells: Vec<&str> = row.trim_matches('|').split('|').map(str::trim).collect();
            let names = |cell: &str| -> Vec<String> {
                cell.split(',')
                    .map(|n| n.trim().trim_matches('`').to_string())
                    .filter(|n| !n.is_empty() && n != "—")
                    .collect()
            };
            let module = names(cells[0]).concat();
            (module, names(cells.get(1).copied().unwrap_or("")))
        })
        .collect();
    let table: Vec<(String, Vec<String>)> = USES
        .iter()
        .map(|(m, uses)| (m.to_string(), uses.iter().map(|u| u.to_string()).collect()))
        .collect();
    assert_eq!(
        rows, table,
        "ARCHITECTURE.md's table of module dependencies differs from core/tests/layering.rs"
    );
}

#[test]
fn the_checker_sees_uses() {
    let used = used_modules(
        "use crate::{exec::Runner, text::{self, a}};\n/// [`x`](crate::btf)\nfn f() { crate::ir::Type::Index; }\nuse super::super::abi;\nuse super::super::super::format;\n#[cfg(test)]\nuse crate::kernels;",
        2,
    );
    let names: Vec<&str> = used.iter().map(String::as_str).collect();
    assert_eq!(names, ["abi", "exec", "ir", "text"]);
    assert_eq!(depth(&src().join("btf/mod.rs")), 1);
    assert_eq!(depth(&src().join("btf/reader.rs")), 2);
}
