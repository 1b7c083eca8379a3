//! Every flag of the three tools that takes a path, against one hostile
//! set: `/proc/self/environ`, `.bef` and `.mlir` links to it, `/dev/zero`,
//! a FIFO, a directory and a sparse file past the named-file bound. Each
//! run must fail or refuse, never print the secret planted in its
//! environment, and end (a 20 s guard against hangs, not a timing test).
//!
//! `bef` and `bef-trace` are the binaries built beside `befview` (`cargo
//! build -p bef -p bef-trace --bins` with the same profile).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const SECRET: &str = "s3cr3t-named-paths-token";

fn tool(name: &str) -> PathBuf {
    let befview = PathBuf::from(env!("CARGO_BIN_EXE_befview"));
    let path = befview.with_file_name(name);
    assert!(
        path.exists(),
        "{} is missing: build it with the same profile (cargo build -p bef -p bef-trace --bins)",
        path.display()
    );
    path
}

fn corpus(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../corpus")
        .join(name)
}

/// Runs `program args` in `dir` with the secret in its environment;
/// returns its exit status and everything it printed.
fn run(dir: &Path, program: &Path, args: &[String]) -> (Option<i32>, String) {
    let started = Instant::now();
    let mut child = Command::new(program)
        .args(args)
        .current_dir(dir)
        .env("SECRET_TOKEN", SECRET)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the tool starts");
    let mut stdout = child.stdout.take().expect("piped");
    let mut stderr = child.stderr.take().expect("piped");
    let out = std::thread::spawn(move || {
        let mut b = Vec::new();
        std::io::Read::read_to_end(&mut stdout, &mut b).ok();
        b
    });
    let err = std::thread::spawn(move || {
        let mut b = Vec::new();
        std::io::Read::read_to_end(&mut stderr, &mut b).ok();
        b
    });
    let status = loop {
        if let Some(status) = child.try_wait().expect("waitable") {
            break status;
        }
        if started.elapsed() > Duration::from_secs(20) {
            child.kill().ok();
            panic!("{} {args:?} still running after 20 s", program.display());
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let mut text = out.join().expect("stdout");
    text.extend(err.join().expect("stderr"));
    (status.code(), String::from_utf8_lossy(&text).into_owned())
}

#[test]
fn every_path_flag_refuses_the_hostile_set() {
    let dir = std::env::temp_dir().join(format!("befview-named-paths-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let (bef, trace, befview) = (
        tool("bef"),
        tool("bef-trace"),
        PathBuf::from(env!("CARGO_BIN_EXE_befview")),
    );
    // A program with a typed call and a recording of a program.
    std::fs::copy(
        corpus("conformance/call_typed_arguments.mlir"),
        dir.join("call.mlir"),
    )
    .expect("copied");
    std::fs::copy(corpus("befview/execution.mlir"), dir.join("p.mlir")).expect("copied");
    let recorded = run(
        &dir,
        &trace,
        &[
            "record".into(),
            "p.mlir".into(),
            "-o".into(),
            "r.beftrace".into(),
        ],
    );
    assert!(dir.join("r.beftrace").exists(), "{recorded:?}");
    // The hostile set.
    std::os::unix::fs::symlink("/proc/self/environ", dir.join("environ.bef")).expect("link");
    std::os::unix::fs::symlink("/proc/self/environ", dir.join("environ.mlir")).expect("link");
    let fifo = std::ffi::CString::new(dir.join("pipe.mlir").to_str().expect("utf-8")).expect("c");
    // SAFETY: `fifo` is a NUL-terminated path that outlives the call.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    std::fs::create_dir(dir.join("dir.mlir")).expect("a directory");
    std::fs::File::create(dir.join("sparse.mlir"))
        .and_then(|f| f.set_len(2 << 30))
        .expect("a sparse file");
    let hostile = [
        "/proc/self/environ",
        "environ.bef",
        "environ.mlir",
        "/dev/zero",
        "pipe.mlir",
        "dir.mlir",
        "sparse.mlir",
    ];
    let s = |v: &[&str]| v.iter().map(|a| a.to_string()).collect::<Vec<_>>();
    for path in hostile {
        let btf = format!(r#"[{{"btf": "{path}", "index": 0}}]"#);
        let args_file = format!("@{path}");
        let mut runs: Vec<(&Path, Vec<String>)> = vec![
            (&bef, s(&["run", path])),
            (&bef, s(&["run", "--source", path, "p.mlir"])),
            (
                &bef,
                s(&["run", "call.mlir", "--call", "mix", "--args", &args_file]),
            ),
            (
                &bef,
                s(&["run", "call.mlir", "--call", "first_rows", "--args", &btf]),
            ),
            (&befview, s(&["--dump", "sections", path])),
            (
                &befview,
                s(&["--dump", "execution", "r.beftrace", "--program", path]),
            ),
            (&trace, s(&["record", path, "-o", "out.beftrace"])),
            (&trace, s(&["run", path])),
            (&trace, s(&["stats", path])),
        ];
        for command in [
            vec!["stats", "r.beftrace"],
            vec!["critical-path", "r.beftrace"],
            vec!["folded", "r.beftrace"],
            vec!["flamegraph", "r.beftrace", "-o", "x.svg"],
            vec!["perfetto", "r.beftrace", "-o", "x.pftrace"],
            vec!["chrome-json", "r.beftrace", "-o", "x.json"],
            vec!["pprof", "r.beftrace", "-o", "x.pb"],
            vec!["diff", "r.beftrace", "r.beftrace", "-o", "x.svg"],
        ] {
            let mut args = s(&command);
            args.extend(s(&["--program", path]));
            runs.push((&trace, args));
        }
        for (program, args) in runs {
            let (code, text) = run(&dir, program, &args);
            let shown = format!("{} {args:?}", program.display());
            assert_ne!(code, Some(0), "{shown}: accepted\n{text}");
            assert_ne!(code, None, "{shown}: killed by a signal\n{text}");
            assert!(!text.contains(SECRET), "{shown}: the secret shown\n{text}");
            assert!(
                !text.contains("SECRET_TOKEN"),
                "{shown}: the environment shown\n{text}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
