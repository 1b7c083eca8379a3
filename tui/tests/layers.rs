//! The modules of `befview` depend on each other one way, by role: the
//! model (`model::*`) knows neither the app nor the views, except the key
//! table and the tabs (list titles name keys); the app (`app::*`) knows no
//! view; only the drivers draw, through the views' entry points; and no
//! circle anywhere. Checked over the `crate::` paths of every source file
//! (comments left out), one module per file (`model::rows` for its folder).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The entry points of the views: what drivers may call.
const VIEW_ENTRY_POINTS: &[&str] = &["draw", "draw_compare", "draw_tensors"];

/// The folders that group modules by role.
const ROLES: &[&str] = &["model", "app", "ui"];

/// The modules of `ui` that do not draw: the colours and the help screen's
/// text, which the app (its scrolling) and `--dump help` read too.
const UI_DATA: &[&str] = &["ui::help", "ui::palette"];

/// The drivers.
const DRIVERS: &[&str] = &["dump", "simulate", "terminal"];

/// What the model may use outside itself: the key table and the tabs.
const BELOW_THE_MODEL: &[&str] = &["app::keys", "app::tab"];

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

/// The module a file belongs to: `app/keys.rs` → `app::keys`,
/// `model/rows/state.rs` → `model::rows`, `ui/mod.rs` → `ui`, `dump.rs` →
/// `dump`; `None` for the crate root and the binary.
fn module_of(src: &Path, file: &Path) -> Option<String> {
    let relative = file.strip_prefix(src).expect("under src");
    let parts: Vec<&str> = relative
        .components()
        .filter_map(|c| c.as_os_str().to_str())
        .map(|c| c.strip_suffix(".rs").unwrap_or(c))
        .collect();
    match parts.as_slice() {
        [] | ["lib" | "main"] => None,
        [role, "mod"] => Some((*role).to_owned()),
        [role, name, ..] => Some(format!("{role}::{name}")),
        [name] => Some((*name).to_owned()),
    }
}

/// The module a `crate::` path names: its role folder's module when the
/// second segment is one (`crate::app::keys::Action` → `app::keys`), else
/// its first segment (`crate::app::App` → `app`).
fn target_of(src: &Path, path: &[String]) -> String {
    let first = &path[0];
    if ROLES.contains(&first.as_str())
        && let Some(second) = path.get(1)
    {
        let dir = src.join(first);
        if dir.join(format!("{second}.rs")).is_file() || dir.join(second).is_dir() {
            return format!("{first}::{second}");
        }
    }
    first.clone()
}

/// Whether `module` draws: `ui` and its files but the ones in [`UI_DATA`].
fn is_view(module: &str) -> bool {
    (module == "ui" || module.starts_with("ui::")) && !UI_DATA.contains(&module)
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
            let target = target_of(&src, &path);
            if target != module {
                edges
                    .entry(module.clone())
                    .or_default()
                    .insert(target.clone());
            }
            if is_view(&target)
                && !is_view(&module)
                && !(target == "ui"
                    && path
                        .get(1)
                        .is_some_and(|p| VIEW_ENTRY_POINTS.contains(&p.as_str())))
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
        .filter(|(from, to)| !is_view(from) && to.iter().any(|t| is_view(t)))
        .map(|(from, _)| from.as_str())
        .collect();
    assert_eq!(
        callers,
        BTreeSet::from(["simulate", "terminal"]),
        "only the drivers draw"
    );
    for module in edges.keys() {
        if is_view(module) || DRIVERS.contains(&module.as_str()) {
            continue;
        }
        let reached = reachable(&edges, module);
        assert!(
            !reached.iter().any(|m| is_view(m)),
            "{module} depends on the views through {reached:?}"
        );
    }
}

#[test]
fn the_model_knows_neither_the_app_nor_the_views() {
    let (edges, _) = graph();
    let model: Vec<&String> = edges.keys().filter(|m| m.starts_with("model::")).collect();
    assert!(model.len() > 5, "the model's modules are found: {model:?}");
    for module in model {
        let outside: Vec<String> = reachable(&edges, module)
            .into_iter()
            .filter(|m| !m.starts_with("model::") && !BELOW_THE_MODEL.contains(&m.as_str()))
            .collect();
        assert!(
            outside.is_empty(),
            "{module} depends on {outside:?} above the model"
        );
    }
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
        "use crate::model::rows::{self, ListId};\nlet x = crate::model::names::clip(a); // crate::ui::x\n\
         fn f() -> notcrate::a {}",
    );
    assert_eq!(
        paths,
        vec![
            vec!["model".to_owned(), "rows".to_owned()],
            vec!["model".to_owned(), "names".to_owned(), "clip".to_owned()]
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
