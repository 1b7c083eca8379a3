//! The modules of `befview` depend on each other one way: the row model
//! and the app never on the views, and no circle anywhere. Checked over
//! the `crate::` paths of every source file (comments left out).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The entry points of the views: what drivers may call.
const VIEW_ENTRY_POINTS: &[&str] = &["draw", "draw_tensors"];

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("the source directory lists") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a file belongs to (`views/hex.rs` → `views`), or
/// `None` for the crate root and the binary.
fn module_of(src: &Path, file: &Path) -> Option<String> {
    let relative = file.strip_prefix(src).expect("under src");
    let first = relative.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (name != "lib" && name != "main").then(|| name.to_owned())
}

/// Every `crate::a::b…` path in the code of `text` (line comments out),
/// as its segments.
fn crate_paths(text: &str) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            let before = rest[..at].chars().last();
            rest = &rest[at + "crate::".len()..];
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let mut segments = Vec::new();
            let mut tail = rest;
            loop {
                let end = tail
                    .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .unwrap_or(tail.len());
                if end > 0 {
                    segments.push(tail[..end].to_owned());
                }
                tail = &tail[end..];
                if let Some(next) = tail.strip_prefix("::")
                    && next.starts_with(|c: char| c.is_alphanumeric() || c == '_')
                {
                    tail = next;
                } else {
                    break;
                }
            }
            if !segments.is_empty() {
                paths.push(segments);
            }
        }
    }
    paths
}

fn graph() -> (BTreeMap<String, BTreeSet<String>>, Vec<String>) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut into_views = Vec::new();
    for file in &files {
        let Some(module) = module_of(&src, file) else {
            continue;
        };
        let text = std::fs::read_to_string(file).expect("a source file reads");
        edges.entry(module.clone()).or_default();
        for path in crate_paths(&text) {
            let target = &path[0];
            if *target != module {
                edges
                    .entry(module.clone())
                    .or_default()
                    .insert(target.clone());
            }
            if target == "views"
                && module != "views"
                && !path
                    .get(1)
                    .is_some_and(|p| VIEW_ENTRY_POINTS.contains(&p.as_str()))
            {
                into_views.push(format!("{}: crate::{}", file.display(), path.join("::")));
            }
        }
    }
    (edges, into_views)
}

#[test]
fn only_drivers_call_the_views_and_only_their_entry_points() {
    let (edges, into_views) = graph();
    assert!(
        into_views.is_empty(),
        "non-view modules reach into the views:\n{}",
        into_views.join("\n")
    );
    let callers: BTreeSet<&str> = edges
        .iter()
        .filter(|(_, to)| to.contains("views"))
        .map(|(from, _)| from.as_str())
        .collect();
    assert_eq!(
        callers,
        BTreeSet::from(["simulate", "terminal"]),
        "only the drivers draw"
    );
    for below in [
        "app",
        "rows",
        "keys",
        "tab",
        "events",
        "execution",
        "analysis",
    ] {
        let reached = reachable(&edges, below);
        assert!(
            !reached.contains("views"),
            "{below} depends on the views through {reached:?}"
        );
    }
    assert!(
        !reachable(&edges, "rows").contains("app"),
        "the row model is below the app"
    );
}

#[test]
fn no_import_circle_between_modules() {
    let (edges, _) = graph();
    for start in edges.keys() {
        for next in &edges[start] {
            let back = reachable(&edges, next);
            assert!(
                !back.contains(start),
                "{start} → {next} → … → {start} is a circle (from {next}: {back:?})"
            );
        }
    }
}

#[test]
fn the_path_reader_sees_what_a_use_line_names() {
    let paths = crate_paths(
        "use crate::rows::{self, ListId};\nlet x = crate::names::clip(a); // crate::views::x\n\
         fn f() -> notcrate::a {}",
    );
    assert_eq!(
        paths,
        vec![
            vec!["rows".to_owned()],
            vec!["names".to_owned(), "clip".to_owned()]
        ]
    );
}

/// The modules `from` leads to (itself not included unless in a circle).
fn reachable(edges: &BTreeMap<String, BTreeSet<String>>, from: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut stack: Vec<&str> = edges
        .get(from)
        .map(|s| s.iter().map(String::as_str).collect())
        .unwrap_or_default();
    while let Some(m) = stack.pop() {
        if seen.insert(m.to_owned()) {
            stack.extend(edges.get(m).into_iter().flatten().map(String::as_str));
        }
    }
    seen
}
