//! `bef diff`: the programs of `corpus/diff/`, each `base.mlir` changed in
//! one way, translated to BEF and compared; exit status 0 equal, 1
//! different, 2 trouble (usage, unreadable or damaged input).

mod common;

use std::path::PathBuf;

use common::{bef, scratch_dir, text};
use serde_json::Value;

/// Translates `corpus/diff/NAME.mlir` to BEF in a scratch directory.
fn translated(dir: &std::path::Path, name: &str) -> String {
    let output = dir.join(format!("{name}.bef"));
    let source = format!("corpus/diff/{name}.mlir");
    let out = bef(
        &[
            "translate",
            &source,
            "-o",
            output.to_str().expect("UTF-8 path"),
        ],
        None,
    );
    assert!(out.status.success(), "{source}: {}", text(&out.stderr));
    output.to_str().expect("UTF-8 path").to_owned()
}

fn scratch(test: &str) -> PathBuf {
    scratch_dir(&format!("diff-cli-{test}"))
}

/// `bef diff --json` of two files: the exit status and the report.
fn json_diff(old: &str, new: &str, extra: &[&str]) -> (Option<i32>, Value) {
    let mut args = vec!["diff", "--json", old, new];
    args.extend_from_slice(extra);
    let out = bef(&args, None);
    let report = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}{}", text(&out.stdout), text(&out.stderr)));
    (out.status.code(), report)
}

fn array(value: &Value) -> &Vec<Value> {
    value.as_array().expect("an array")
}

#[test]
fn identical_programs_are_equal_in_any_form() {
    let dir = scratch("identical");
    let base = translated(&dir, "base");
    let out = bef(&["diff", &base, &base], None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("no differences"), "{stdout}");
    assert!(
        stdout.contains("0 function(s) changed, 4 unchanged"),
        "{stdout}"
    );
    // MLIR text is translated first: the same program as its BEF.
    let (status, report) = json_diff(&base, "corpus/diff/base.mlir", &[]);
    assert_eq!(status, Some(0));
    assert_eq!(report["equal"], true);
    assert!(array(&report["diff"]["functions"]).is_empty());
    // Region functions are paired through the kernels owning them.
    assert_eq!(report["diff"]["unchanged_functions"], 4);
}

#[test]
fn one_kernel_more_is_one_insertion() {
    let dir = scratch("kernel");
    let (old, new) = (translated(&dir, "base"), translated(&dir, "one_kernel"));
    let (status, report) = json_diff(&old, &new, &[]);
    assert_eq!(status, Some(1));
    let functions = array(&report["diff"]["functions"]);
    assert_eq!(functions.len(), 1, "{report:#}");
    let main = &functions[0];
    assert_eq!(main["name"], "@main");
    assert_eq!(main["status"], "changed");
    assert!(array(&main["fields"]).is_empty(), "{main:#}");
    // Every later kernel reads registers renumbered by the insertion, and
    // none of them shows as changed.
    let kernels = array(&main["kernels"]);
    assert_eq!(kernels.len(), 1, "{main:#}");
    assert_eq!(kernels[0]["status"], "added");
    assert_eq!(kernels[0]["old"], Value::Null);
    let line = kernels[0]["text"].as_str().expect("text");
    assert!(line.contains("= tfrt.print.i32(%"), "{line}");
    // The regions of the `tfrt.if` after it are unchanged, and no table
    // gained an entry (tfrt.print.i32 was already a kernel name).
    assert_eq!(report["diff"]["unchanged_functions"], 3);
    assert!(array(&report["diff"]["tables"]).is_empty(), "{report:#}");

    let out = bef(&["diff", &old, &new], None);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("@main: changed\n"), "{stdout}");
    assert!(stdout.contains("\n  + [5] "), "{stdout}");
    // A pipe gets no colour; --color=always does.
    assert!(!stdout.contains('\x1b'), "{stdout}");
    let out = bef(&["diff", "--color=always", &old, &new], None);
    assert!(text(&out.stdout).contains("\x1b[32m+ [5] "));
}

#[test]
fn one_attribute_changed_is_one_changed_kernel() {
    let dir = scratch("attribute");
    let (old, new) = (translated(&dir, "base"), translated(&dir, "one_attribute"));
    let (status, report) = json_diff(&old, &new, &[]);
    assert_eq!(status, Some(1));
    let functions = array(&report["diff"]["functions"]);
    assert_eq!(functions.len(), 1, "{report:#}");
    let kernels = array(&functions[0]["kernels"]);
    assert_eq!(kernels.len(), 1, "{report:#}");
    let kernel = &kernels[0];
    assert_eq!(kernel["status"], "changed");
    assert_eq!(
        (kernel["old"].clone(), kernel["new"].clone()),
        (3.into(), 3.into())
    );
    let fields = array(&kernel["fields"]);
    assert_eq!(fields.len(), 1, "{kernel:#}");
    assert_eq!(fields[0]["field"], "attributes");
    assert!(
        fields[0]["old"].as_str().unwrap().contains("129"),
        "{kernel:#}"
    );
    assert!(
        fields[0]["new"].as_str().unwrap().contains("130"),
        "{kernel:#}"
    );
    // The Attributes table lost one value and gained another.
    let tables = array(&report["diff"]["tables"]);
    assert_eq!(tables.len(), 1, "{report:#}");
    assert_eq!(tables[0]["table"], "Attributes");
    assert_eq!(tables[0]["removed"], serde_json::json!(["i32 129 : i32"]));
    assert_eq!(tables[0]["added"], serde_json::json!(["i32 130 : i32"]));
}

#[test]
fn one_function_more_is_listed_with_its_signature() {
    let dir = scratch("function");
    let (old, new) = (translated(&dir, "base"), translated(&dir, "one_function"));
    let out = bef(&["diff", &old, &new], None);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("+ @twice (bef) (i32) -> (i32), 2 kernels"),
        "{stdout}"
    );
    assert!(
        stdout.contains("1 function(s) changed, 4 unchanged"),
        "{stdout}"
    );
    // The other way round it is removed.
    let (status, report) = json_diff(&new, &old, &[]);
    assert_eq!(status, Some(1));
    let functions = array(&report["diff"]["functions"]);
    assert_eq!(functions.len(), 1);
    assert_eq!(functions[0]["status"], "removed");
    assert_eq!(functions[0]["name"], "@twice");
}

#[test]
fn locations_are_compared_only_when_asked() {
    let dir = scratch("locations");
    // one_function.mlir's header comment is a line shorter than base's:
    // every kernel of the shared functions moved up a line.
    let (old, new) = (translated(&dir, "base"), translated(&dir, "one_function"));
    let (_, report) = json_diff(&old, &new, &["--locations"]);
    let functions = array(&report["diff"]["functions"]);
    let main = functions
        .iter()
        .find(|f| f["name"] == "@main")
        .expect("@main moved");
    let location = array(&main["fields"])
        .iter()
        .find(|f| f["field"] == "location")
        .expect("a location change");
    assert!(
        location["old"].as_str().unwrap().contains(":3:")
            && location["new"].as_str().unwrap().contains(":2:"),
        "{location:#}"
    );
}

#[test]
fn damaged_missing_and_misused_inputs_exit_2() {
    let dir = scratch("damaged");
    let base = translated(&dir, "base");
    let mut bytes = std::fs::read(&base).expect("translated");
    bytes.truncate(bytes.len() * 2 / 3);
    let damaged = dir.join("damaged.bef");
    std::fs::write(&damaged, &bytes).expect("written");
    let damaged = damaged.to_str().expect("UTF-8 path");
    let out = bef(&["diff", &base, damaged], None);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(&format!("{damaged} is not valid BEF")) && stderr.contains("at offset 0x"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());

    let out = bef(&["diff", &base, "corpus/diff/missing.bef"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("corpus/diff/missing.bef does not exist"));
    let out = bef(&["diff", &base], None);
    assert_eq!(out.status.code(), Some(2));
    let out = bef(&["diff", "-", "-"], None);
    assert_eq!(out.status.code(), Some(2));
    // Not a program at all.
    let out = bef(&["diff", &base, "corpus/diff"], None);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn kernels_too_many_to_align_are_compared_by_position() {
    let dir = scratch("large");
    // 4,200 constants each side, all but one shared but shifted by one:
    // aligning them would take more than the per-function table bound.
    let program = |first: usize| {
        let mut text = String::from("func.func @big() -> i32 {\n");
        for i in first..first + 4200 {
            text.push_str(&format!("  %v{i} = tfrt.constant.i32 {i}\n"));
        }
        text.push_str(&format!("  tfrt.return %v{first} : i32\n}}\n"));
        text
    };
    let (old, new) = (dir.join("big_old.mlir"), dir.join("big_new.mlir"));
    std::fs::write(&old, program(0)).expect("written");
    std::fs::write(&new, program(1)).expect("written");
    let started = std::time::Instant::now();
    let out = bef(
        &[
            "diff",
            old.to_str().expect("UTF-8 path"),
            new.to_str().expect("UTF-8 path"),
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("note: the kernels of @big (4201 and 4201) are too many to align"),
        "{}",
        &stdout[stdout.len().saturating_sub(2000)..]
    );
    // By position, every constant changed its value.
    assert_eq!(stdout.matches("\n  ~ [").count(), 4200);
    assert!(started.elapsed() < std::time::Duration::from_secs(60));
}
