//! `bef run --call F --args '[{"btf": PATH, "index": N, "rows": [START,
//! END]}]'`: rows of a BTF tensor's outermost dimension as an argument,
//! on the digits classifier and its held-out images, and the bounds
//! checked with one clear error line.

mod common;

const PROGRAM: &str = "corpus/models/digits/digits.mlir";
const TENSORS: &str = "corpus/models/digits/digits.btf";

fn classify(rows: &str) -> std::process::Output {
    let args = format!(r#"[{{"btf": "{TENSORS}", "index": 4, "rows": {rows}}}]"#);
    common::bef(
        &["run", PROGRAM, "--call", "classify", "--args", &args],
        None,
    )
}

#[test]
fn one_row_of_the_images_is_classified() {
    let out = classify("[0, 1]");
    let stdout = common::text(&out.stdout);
    assert!(out.status.success(), "{}", common::text(&out.stderr));
    assert_eq!(stdout.trim(), "[[7]]", "{stdout}");
    // Another image gives its own digit, so the rows do select.
    let other = common::text(&classify("[1, 2]").stdout);
    assert!(other.trim().starts_with("[["), "{other}");
}

#[test]
fn rows_out_of_bounds_are_one_clear_error() {
    for (rows, message) in [
        ("[360, 361]", "not within tensor 4's 360 rows"),
        ("[2, 1]", "not within tensor 4's 360 rows"),
        ("[0]", "\"rows\" is [START, END]"),
        ("[0, -1]", "whole numbers"),
        ("\"all\"", "\"rows\" is [START, END]"),
    ] {
        let out = classify(rows);
        let stderr = common::text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{rows}: {stderr}");
        assert!(out.stdout.is_empty(), "{rows}");
        assert_eq!(stderr.lines().count(), 1, "{rows}: {stderr}");
        assert!(stderr.contains(message), "{rows}: {stderr}");
    }
}
