//! The library's modules form layers: each module uses only the modules
//! listed before it in `lib.rs`'s order (below), so none reaches up. This
//! reads every `crate::<module>` path in each module's non-test source.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Bottom to top, as `lib.rs`'s documentation lists them.
const LAYERS: [&str; 13] = [
    "tool_io",
    "format",
    "abi",
    "ir",
    "text",
    "bytecode",
    "translate",
    "passes",
    "inspect",
    "runtime",
    "exec",
    "btf",
    "kernels",
];

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

/// The modules `source` names as `crate::<module>` in code (not in
/// comments), up to its first `#[cfg(test)]` item (unit tests sit at the
/// end of a file).
fn used_modules(source: &str) -> BTreeSet<String> {
    let before_tests = source.split("#[cfg(test)]").next().unwrap_or("");
    let code: String = before_tests
        .lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let mut used = BTreeSet::new();
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() {
            used.insert(name);
        }
    }
    // `use crate::{a, b::c}` groups.
    for (at, _) in code.match_indices("crate::{") {
        let group = &code[at + "crate::{".len()..];
        let group = &group[..group.find('}').unwrap_or(group.len())];
        for item in group.split(',') {
            let name = item.trim().split("::").next().unwrap_or("").trim();
            used.insert(name.to_string());
        }
    }
    used
}

#[test]
fn modules_use_only_the_layers_below_them() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut violations = Vec::new();
    for (level, module) in LAYERS.iter().enumerate() {
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
            for used in used_modules(&source) {
                let Some(used_level) = LAYERS.iter().position(|m| *m == used) else {
                    continue; // a macro, `crate::kernel!`, or not a module
                };
                if used_level > level {
                    violations.push(format!(
                        "{} ({module}) uses {used}, a layer above it",
                        file.strip_prefix(&src).unwrap_or(file).display()
                    ));
                }
            }
        }
    }
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}

#[test]
fn the_checker_sees_uses() {
    let used = used_modules(
        "use crate::{exec::Runner, text};\n/// [`x`](crate::btf)\nfn f() { crate::ir::Type::Index; }\n#[cfg(test)]\nuse crate::kernels;",
    );
    let names: Vec<&str> = used.iter().map(String::as_str).collect();
    assert_eq!(names, ["exec", "ir", "text"]);
}
