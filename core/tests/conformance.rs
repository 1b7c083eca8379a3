//! Executor conformance suite: the host programs in `corpus/conformance/`
//! run through the real `bef` binary, their output checked with FileCheck
//! semantics, lit style. The directives live in the program itself:
//!
//! ```text
//! // RUN: bef run --work-queue s %s | FileCheck %s
//! // RUN: tfrt_translate -mlir-to-bef %s | bef_executor -work_queue_type=mstd - \
//! // RUN:   | FileCheck %s --check-prefix=MT
//! // RUN: not bef run %s 2>&1 | FileCheck %s --check-prefix=ERR
//! // XFAIL: why this file is expected to fail (the reason is reported)
//! ```
//!
//! A RUN line is a pipeline of stages separated by `|`, run in order (each
//! stage gets the previous stage's standard output). Substitutions: `%s` the
//! program's path, `%S` its directory, `%t` a scratch path private to the
//! file (shared by its RUN lines), `%%` a literal `%`. Stages:
//! - `bef ...`: the binary under test; `tfrt_translate ...` is
//!   `bef translate ...`; `tfrt_opt ...` is `bef opt ...`;
//!   `bef_executor ...` / `bef_executor_lite ...` is
//!   `bef run --verify-diagnostics ...` (the reference runner always verifies).
//! - `cat FILE...`: the files' bytes (or its input when given no file).
//! - `FileCheck CHECKFILE [options]`: checked in-process with
//!   `litcheck-filecheck`; the options are FileCheck's (`--check-prefix`,
//!   `--check-prefixes`, `--implicit-check-not`, `--dump-input`, ...), also
//!   spelled with one dash.
//! - `not STAGE`: succeeds only when STAGE exits with a non-zero status.
//! - `cd DIR && PIPELINE` (at the start of a line only): the commands run
//!   in DIR, for programs that name files relative to the repository
//!   root (`cd %S/../.. && bef run ...`); otherwise they run in `core/`.
//! - Redirections: `2>&1` (standard error into the same pipe, interleaved
//!   as written), `< FILE`, `> FILE`.
//!
//! As with lit's pipefail, every stage must succeed. All failures are
//! collected and reported together with the file, the RUN line, the stage,
//! and the output that was checked. `CONFORMANCE_FILTER=text` runs only the
//! files whose name contains `text`.

mod common;

use std::fmt::Write as _;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use litcheck_filecheck::litcheck::diagnostics::{
    FileName, SourceLanguage, SourceManager, SourceManagerExt,
};
use litcheck_filecheck::litcheck::reporting::PrintDiagnostic;
use litcheck_filecheck::{Config, Options, Test};

/// Most programs are a handful of kernels; the slowest (a recursion
/// 100,000 calls deep) takes about 5 s unoptimized on an idle core, and
/// a loaded CI machine may be several times slower. Anything slower than
/// this is hung.
const STAGE_TIMEOUT: Duration = Duration::from_secs(60);

/// Output longer than this is cut in failure reports.
const SHOW_LIMIT: usize = 6000;

fn corpus_dir() -> PathBuf {
    let dir = common::corpus_path("conformance");
    // Canonical, so that paths in messages and diagnostics read cleanly.
    dir.canonicalize().unwrap_or(dir)
}

/// The directives of one program.
#[derive(Debug, Default, PartialEq)]
struct Directives {
    /// RUN lines after joining `\` continuations: (1-based line, command).
    runs: Vec<(usize, String)>,
    /// `XFAIL: reason`.
    xfail: Option<String>,
}

fn parse_directives(source: &str) -> Directives {
    let mut d = Directives::default();
    let mut pending: Option<(usize, String)> = None;
    for (i, line) in source.lines().enumerate() {
        let Some(comment) = line.trim_start().strip_prefix("//") else {
            continue;
        };
        let comment = comment.trim_start();
        if let Some(cmd) = comment.strip_prefix("RUN:") {
            let cmd = cmd.trim();
            let (text, continues) = match cmd.strip_suffix('\\') {
                Some(head) => (head.trim_end(), true),
                None => (cmd, false),
            };
            let entry = pending.get_or_insert_with(|| (i + 1, String::new()));
            if !entry.1.is_empty() {
                entry.1.push(' ');
            }
            entry.1.push_str(text);
            if !continues {
                d.runs.extend(pending.take());
            }
        } else if let Some(reason) = comment.strip_prefix("XFAIL:") {
            d.xfail = Some(reason.trim().to_string());
        }
    }
    // A trailing `\` with nothing after it still names a command.
    d.runs.extend(pending);
    d
}

/// Shell-like words: whitespace separates, quotes group, `|` is a word of
/// its own even when written without spaces.
fn split_words(cmd: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = cmd.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' | '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some(q) if q == c => break,
                        Some('\\') if c == '"' => cur.extend(chars.next()),
                        Some(x) => cur.push(x),
                        None => return Err(format!("unterminated {c} quote")),
                    }
                }
            }
            '\\' => {
                in_word = true;
                cur.extend(chars.next());
            }
            '|' => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
                words.push("|".into());
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            ';' | '&' | '`' | '$' | '(' | ')' => {
                // `2>&1` is handled as a whole word below; anything else
                // needs a real shell, which this harness deliberately is not.
                if c == '&' && cur.ends_with("2>") {
                    cur.push(c);
                    in_word = true;
                } else {
                    return Err(format!("unsupported shell syntax '{c}' in RUN line"));
                }
            }
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    Ok(words)
}

#[derive(Debug, Default, PartialEq)]
struct Stage {
    /// Number of `not` prefixes: an odd count inverts the exit status.
    nots: usize,
    argv: Vec<String>,
    merge_stderr: bool,
    stdin_file: Option<String>,
    stdout_file: Option<String>,
}

fn parse_pipeline(cmd: &str) -> Result<Vec<Stage>, String> {
    let words = split_words(cmd)?;
    let mut stages = Vec::new();
    for group in words.split(|w| w == "|") {
        let mut stage = Stage::default();
        let mut it = group.iter();
        while let Some(w) = it.next() {
            match w.as_str() {
                "not" if stage.argv.is_empty() => stage.nots += 1,
                "2>&1" => stage.merge_stderr = true,
                "<" => stage.stdin_file = Some(it.next().ok_or("'<' needs a file")?.clone()),
                ">" => stage.stdout_file = Some(it.next().ok_or("'>' needs a file")?.clone()),
                w if w.starts_with('<') && w.len() > 1 => stage.stdin_file = Some(w[1..].into()),
                w if w.starts_with('>') && w.len() > 1 => stage.stdout_file = Some(w[1..].into()),
                _ => stage.argv.push(w.clone()),
            }
        }
        if stage.argv.is_empty() {
            return Err("empty pipeline stage".into());
        }
        stages.push(stage);
    }
    let filecheck_at = stages.iter().position(|s| s.argv[0] == "FileCheck");
    if filecheck_at.is_some_and(|i| i + 1 != stages.len()) {
        return Err("FileCheck must be the last stage of a pipeline".into());
    }
    Ok(stages)
}

/// Applies lit's substitutions. `%t` must be replaced before `%s` would
/// see it, and `%%` protects a literal percent sign.
fn substitute(cmd: &str, file: &Path, tmp: &Path) -> String {
    let mut out = String::new();
    let mut chars = cmd.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        match chars.peek() {
            Some('s') => out.push_str(&file.display().to_string()),
            Some('S') => out.push_str(
                &file
                    .parent()
                    .unwrap_or(Path::new("."))
                    .display()
                    .to_string(),
            ),
            Some('t') => out.push_str(&tmp.display().to_string()),
            Some('%') => out.push('%'),
            _ => {
                out.push('%');
                continue;
            }
        }
        chars.next();
    }
    out
}

/// What one stage produced.
struct Outcome {
    status: Option<i32>,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
}

/// Maps a tool name to the real command line.
fn command_line(argv: &[String]) -> Result<Vec<String>, String> {
    let bin = env!("CARGO_BIN_EXE_bef").to_string();
    let (head, rest) = argv.split_first().expect("stage has a command");
    let mut out = match head.as_str() {
        "bef" => vec![bin],
        "tfrt_translate" => vec![bin, "translate".into()],
        "tfrt_opt" => vec![bin, "opt".into()],
        "bef_executor" | "bef_executor_lite" => {
            vec![bin, "run".into(), "--verify-diagnostics".into()]
        }
        other => return Err(format!("unknown tool '{other}' in RUN line")),
    };
    out.extend(rest.iter().cloned());
    Ok(out)
}

fn run_process(
    argv: &[String],
    input: Vec<u8>,
    merge_stderr: bool,
    dir: Option<&Path>,
) -> Result<Outcome, String> {
    let mut cmd = Command::new(&argv[0]);
    if let Some(dir) = dir {
        cmd.current_dir(dir);
    }
    cmd.args(&argv[1..])
        .stdin(Stdio::piped())
        .env("NO_COLOR", "1");
    // With `2>&1` both streams share one pipe so that their lines keep the
    // order in which the program wrote them, as in a shell.
    let (merged_reader, stderr_reader) = if merge_stderr {
        let (reader, writer) = std::io::pipe().map_err(|e| format!("pipe: {e}"))?;
        let w2 = writer.try_clone().map_err(|e| format!("pipe: {e}"))?;
        cmd.stdout(writer).stderr(w2);
        (Some(reader), None)
    } else {
        cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
        (None, Some(()))
    };
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", argv[0]))?;
    // The command holds the pipe's write ends; drop them so that reading
    // sees end-of-file when the child exits.
    drop(cmd);
    let mut stdin = child.stdin.take().expect("piped stdin");
    let writer = std::thread::spawn(move || {
        // A program that does not read its input closes the pipe early.
        let _ = stdin.write_all(&input);
    });
    let read_all = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = r.read_to_end(&mut buf);
            buf
        })
    };
    let (out_thread, err_thread) = match merged_reader {
        Some(reader) => (read_all(Box::new(reader)), None),
        None => {
            let _ = stderr_reader;
            let out = child.stdout.take().expect("piped stdout");
            let err = child.stderr.take().expect("piped stderr");
            (read_all(Box::new(out)), Some(read_all(Box::new(err))))
        }
    };
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if start.elapsed() > STAGE_TIMEOUT => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "timed out after {} s: {}",
                    STAGE_TIMEOUT.as_secs(),
                    argv.join(" ")
                ));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(1)),
            Err(e) => return Err(format!("wait: {e}")),
        }
    };
    let _ = writer.join();
    let stdout = out_thread.join().unwrap_or_default();
    let stderr = err_thread
        .map(|t| t.join().unwrap_or_default())
        .unwrap_or_default();
    Ok(Outcome {
        status: status.code(),
        stdout,
        stderr,
    })
}

/// FileCheck options take their value either after `=` or as the next word.
const FILECHECK_VALUE_OPTIONS: &[&str] = &[
    "check-prefix",
    "check-prefixes",
    "comment-prefixes",
    "implicit-check-not",
    "dump-input",
    "dump-input-filter",
    "D",
];

/// Runs FileCheck in-process: `Ok(())` on a match, otherwise the rendered
/// diagnostic.
fn filecheck(args: &[String], input: &[u8]) -> Result<(), String> {
    let mut check_file = None;
    let mut options = Vec::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        if let Some(opt) = arg.strip_prefix('-') {
            // LLVM spells long options with one dash as well.
            let opt = opt.strip_prefix('-').unwrap_or(opt);
            let name = opt.split_once('=').map_or(opt, |(n, _)| n);
            options.push(if name == "D" || opt.starts_with('D') && opt.len() > 1 {
                format!("-{opt}")
            } else {
                format!("--{opt}")
            });
            if !opt.contains('=') && FILECHECK_VALUE_OPTIONS.contains(&name) {
                options.extend(it.next().cloned());
            }
        } else if check_file.is_none() {
            check_file = Some(arg.clone());
        } else {
            return Err(format!("FileCheck: unexpected argument '{arg}'"));
        }
    }
    let check_file = check_file.ok_or("FileCheck: no check file given")?;
    let mut parsed = <Options as clap::Parser>::try_parse_from(&options)
        .map_err(|e| format!("FileCheck: bad options {options:?}: {e}"))?;
    parsed.color = clap::ColorChoice::Never;
    let config = Config {
        options: parsed,
        ..Config::default()
    };
    config
        .options
        .validate()
        .map_err(|e| format!("FileCheck: {e}"))?;
    let match_file = config
        .source_manager
        .load_file(Path::new(&check_file))
        .map_err(|e| format!("FileCheck: cannot read {check_file}: {e}"))?;
    let text = String::from_utf8_lossy(input).into_owned();
    let input_file: Arc<_> =
        config
            .source_manager
            .load(SourceLanguage::Unknown, FileName::from("<stdin>"), text);
    Test::new(match_file, &config)
        .verify(input_file)
        .map(|_| ())
        .map_err(|report| format!("{}", PrintDiagnostic::new_without_color(report)))
}

fn show(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    if text.len() <= SHOW_LIMIT {
        return text.into_owned();
    }
    let mut cut = SHOW_LIMIT;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}\n[... {} more bytes]", &text[..cut], text.len() - cut)
}

fn indent(text: &str) -> String {
    text.lines().fold(String::new(), |mut s, l| {
        let _ = writeln!(s, "    | {l}");
        s
    })
}

/// Runs one RUN line; `Err` carries the explanation.
fn run_line(cmd: &str, file: &Path, tmp: &Path) -> Result<(), String> {
    let cmd = substitute(cmd, file, tmp);
    let (dir, cmd) = match cmd
        .strip_prefix("cd ")
        .and_then(|rest| rest.split_once(" && "))
    {
        Some((dir, rest)) => (Some(PathBuf::from(dir.trim())), rest.to_string()),
        None => (None, cmd),
    };
    let stages = parse_pipeline(&cmd)?;
    let mut data: Vec<u8> = Vec::new();
    for (n, stage) in stages.iter().enumerate() {
        let input = match &stage.stdin_file {
            Some(path) => std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))?,
            None => std::mem::take(&mut data),
        };
        let label = format!("stage {} `{}`", n + 1, stage.argv.join(" "));
        let outcome = match stage.argv[0].as_str() {
            "FileCheck" => match filecheck(&stage.argv[1..], &input) {
                Ok(()) => Outcome {
                    status: Some(0),
                    stdout: Vec::new(),
                    stderr: Vec::new(),
                },
                Err(message) => Outcome {
                    status: Some(1),
                    stdout: Vec::new(),
                    stderr: format!("{message}\n  checked input:\n{}", indent(&show(&input)))
                        .into_bytes(),
                },
            },
            "cat" => {
                let mut out = Vec::new();
                if stage.argv.len() == 1 {
                    out = input;
                }
                for path in &stage.argv[1..] {
                    out.extend(
                        std::fs::read(path).map_err(|e| format!("cat: cannot read {path}: {e}"))?,
                    );
                }
                Outcome {
                    status: Some(0),
                    stdout: out,
                    stderr: Vec::new(),
                }
            }
            _ => run_process(
                &command_line(&stage.argv)?,
                input,
                stage.merge_stderr,
                dir.as_deref(),
            )
            .map_err(|e| format!("{label}: {e}"))?,
        };
        let succeeded = outcome.status == Some(0);
        if succeeded == (stage.nots % 2 == 1) {
            let expectation = if stage.nots % 2 == 1 {
                "a failure (`not`) but it succeeded"
            } else {
                "success"
            };
            let status = outcome
                .status
                .map_or("killed by a signal".to_string(), |c| {
                    format!("exit status {c}")
                });
            let mut msg = format!("{label}: expected {expectation}; {status}\n");
            if stage.argv[0] == "FileCheck" {
                msg.push_str(&String::from_utf8_lossy(&outcome.stderr));
            } else {
                let _ = write!(
                    msg,
                    "  stdout:\n{}  stderr:\n{}",
                    indent(&show(&outcome.stdout)),
                    indent(&show(&outcome.stderr))
                );
            }
            return Err(msg);
        }
        data = outcome.stdout;
        if let Some(path) = &stage.stdout_file {
            std::fs::write(path, &data).map_err(|e| format!("cannot write {path}: {e}"))?;
            data.clear();
        }
    }
    Ok(())
}

/// Runs one program's RUN lines; returns the failure report, if any.
fn run_file(path: &Path) -> Result<usize, String> {
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let source = std::fs::read_to_string(path).map_err(|e| format!("{name}: cannot read: {e}"))?;
    let directives = parse_directives(&source);
    if directives.runs.is_empty() {
        return Err(format!(
            "{name}: no RUN lines: a program must check something"
        ));
    }
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("conformance")
        .join(&name);
    let _ = std::fs::create_dir_all(tmp.parent().unwrap());
    let mut failures = String::new();
    for (line, cmd) in &directives.runs {
        if let Err(e) = run_line(cmd, path, &tmp) {
            let _ = writeln!(failures, "{name}:{line}: RUN: {cmd}\n{e}");
        }
    }
    match (&directives.xfail, failures.is_empty()) {
        (None, true) => Ok(directives.runs.len()),
        (None, false) => Err(failures),
        // Expected to fail and did: the reason is in the file.
        (Some(_), false) => Ok(directives.runs.len()),
        (Some(reason), true) => Err(format!(
            "{name}: XFAIL ({reason}) but every RUN line passed: remove the XFAIL line\n"
        )),
    }
}

#[test]
fn conformance() {
    let dir = corpus_dir();
    let filter = std::env::var("CONFORMANCE_FILTER").ok();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
        .filter(|p| {
            filter
                .as_deref()
                .is_none_or(|f| p.file_name().unwrap().to_string_lossy().contains(f))
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no programs in {}", dir.display());
    let start = Instant::now();
    let mut failed = Vec::new();
    let mut runs = 0;
    let mut xfails = Vec::new();
    for path in &files {
        match run_file(path) {
            Ok(n) => runs += n,
            Err(report) => failed.push(report),
        }
        let source = std::fs::read_to_string(path).unwrap_or_default();
        if let Some(reason) = parse_directives(&source).xfail {
            xfails.push(format!("{}: {reason}", path.file_name().unwrap().display()));
        }
    }
    eprintln!(
        "conformance: {} programs, {runs} RUN lines passed, {} failed, {} XFAIL, {:.1} s",
        files.len(),
        failed.len(),
        xfails.len(),
        start.elapsed().as_secs_f64()
    );
    for x in &xfails {
        eprintln!("  XFAIL {x}");
    }
    if !failed.is_empty() {
        panic!(
            "{} of {} conformance programs failed:\n\n{}",
            failed.len(),
            files.len(),
            failed.join("\n")
        );
    }
}

// The harness's own pieces: each must be able to fail.

#[test]
fn directives_join_continuations() {
    let src =
        "// RUN: bef run %s \\\n//  RUN:   | FileCheck %s\nx\n// RUN: true\n// XFAIL: bug 7\n";
    let d = parse_directives(src);
    assert_eq!(
        d.runs,
        vec![
            (1, "bef run %s | FileCheck %s".to_string()),
            (4, "true".to_string())
        ]
    );
    assert_eq!(d.xfail.as_deref(), Some("bug 7"));
}

#[test]
fn pipelines_split_with_not_and_redirections() {
    let stages = parse_pipeline("not bef run x.mlir 2>&1|FileCheck x.mlir --check-prefix=E")
        .expect("parses");
    assert_eq!(stages.len(), 2);
    assert_eq!(stages[0].nots, 1);
    assert!(stages[0].merge_stderr);
    assert_eq!(stages[0].argv, ["bef", "run", "x.mlir"]);
    assert_eq!(stages[1].argv, ["FileCheck", "x.mlir", "--check-prefix=E"]);
    assert!(parse_pipeline("bef run x && echo").is_err());
    assert!(parse_pipeline("FileCheck x | bef run").is_err());
    assert_eq!(
        split_words("a 'b c' \"d\\\"e\"").unwrap(),
        ["a", "b c", "d\"e"]
    );
}

#[test]
fn substitutions() {
    let got = substitute(
        "%s %S %t.bef 100%%",
        Path::new("/c/p.mlir"),
        Path::new("/tmp/p"),
    );
    assert_eq!(got, "/c/p.mlir /c /tmp/p.bef 100%");
}

#[test]
fn filecheck_accepts_and_rejects() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("conformance-self-test");
    std::fs::create_dir_all(&dir).unwrap();
    let check = dir.join("check.mlir");
    std::fs::write(
        &check,
        "// CHECK-LABEL: --- Running 'f'\n// CHECK-NEXT: int32 = [[V:[0-9]+]]\n\
         // CHECK-NOT: error\n// CHECK: 'f' returned [[V]]\n// ALT: {{^}}only{{$}}\n",
    )
    .unwrap();
    let arg = |s: &str| s.to_string();
    let path = check.display().to_string();
    let good = b"--- Running 'f':\nint32 = 42\n'f' returned 42\n";
    assert_eq!(filecheck(&[arg(&path)], good), Ok(()));
    // A different returned value breaks the variable match.
    let bad = b"--- Running 'f':\nint32 = 42\n'f' returned 43\n";
    let err = filecheck(&[arg(&path)], bad).expect_err("mismatch must fail");
    assert!(err.contains("returned"), "{err}");
    // CHECK-NOT between the matches.
    let noisy = b"--- Running 'f':\nint32 = 1\nerror: x\n'f' returned 1\n";
    assert!(filecheck(&[arg(&path)], noisy).is_err());
    // Prefix selection, in the single-dash spelling.
    assert_eq!(
        filecheck(&[arg(&path), arg("-check-prefix=ALT")], b"only\n"),
        Ok(())
    );
    assert!(
        filecheck(
            &[arg(&path), arg("--check-prefix"), arg("ALT")],
            b"not only\n"
        )
        .is_err()
    );
}

#[test]
fn stage_status_and_not() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let file = dir.join("conformance-status.txt");
    std::fs::write(&file, "x").unwrap();
    // `bef` with an unknown subcommand fails, so `not` makes it pass.
    assert!(run_line("bef no-such-subcommand", &file, dir).is_err());
    assert!(run_line("not bef no-such-subcommand", &file, dir).is_ok());
    assert!(run_line("not not bef no-such-subcommand", &file, dir).is_err());
    assert!(run_line("frobnicate %s", &file, dir).is_err());
}

#[test]
fn xfail_must_fail() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("conformance-xfail");
    std::fs::create_dir_all(&dir).unwrap();
    let passing = dir.join("passing.mlir");
    std::fs::write(
        &passing,
        "// RUN: bef translate --mlir-to-bef %s -o %t.bef\n// XFAIL: claims a bug\n\
         func.func @f() {\n  tfrt.return\n}\n",
    )
    .unwrap();
    let err = run_file(&passing).expect_err("an XFAIL that passes is a failure");
    assert!(err.contains("claims a bug"), "{err}");
    let failing = dir.join("failing.mlir");
    std::fs::write(
        &failing,
        "// RUN: not bef translate --mlir-to-bef %s -o %t.bef\n// XFAIL: known\n\
         func.func @f() {\n  tfrt.return\n}\n",
    )
    .unwrap();
    assert!(run_file(&failing).is_ok());
    std::fs::write(&failing, "func.func @f() {\n  tfrt.return\n}\n").unwrap();
    assert!(run_file(&failing).is_err(), "a program without RUN lines");
}
