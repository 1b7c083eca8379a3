//! `befview FILE`: the terminal inspector; `befview --dump VIEW FILE`
//! prints a view as text; `--program PROGRAM` gives a recording the
//! program it ran; `befview A B` compares two programs or two recordings
//! (`--dump compare A B` prints the comparison). Exit status: 0 success, 1 a file that cannot be
//! opened, 2 a usage error.

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

use bef::tool_io::escape;
use befview::dump::{BTF_VIEWS, COMPARE_VIEWS, VIEWS, dump, is_view};
use befview::{App, Document, Loaded};

fn usage() -> String {
    let mut text = String::from(
        "befview: inspect a BEF file in the terminal\n\n\
         Usage: befview FILE | RECORDING [--program PROGRAM]\n       befview --attach SOCKET [--program PROGRAM]\n       befview --dump VIEW FILE [--program PROGRAM]\n       befview --dump tensor FILE.btf --index N\n       befview A B | befview --dump compare A B\n       befview --help\n\n\
         FILE is BEF (memory-mapped), MLIR text (.mlir) or MLIR bytecode (.mlirbc);\n\
         MLIR is translated to BEF on the fly, so every kernel shows its source line.\n\
         A Binary Tensor Format file (.btf) opens in a Tensors view instead: each\n\
         tensor's dtype, layout, shape, offsets, min, max, mean, NaN count and first\n\
         values, and the selected tensor's detail; Enter shows a tensor in full, a heat\n\
         map or its numbers (z).\n\n\
         Tabs: 1 Sections (framing, sizes, the decoder's and verifier's findings)\n\
         \x20     2 Hex (coloured by field, data inspector, item tree, offsets, search, marks)\n\
         \x20     3 Functions (table; open one for its kernels and registers; with a\n\
         \x20       recording, its kernels and functions timed as bef-trace stats)\n\
         \x20     4 Source (kernels beside their source lines)\n\
         \x20     5 Strings·Attributes·Types·Locations\n\
         \x20     6 Execution (a bef-trace recording: events under a time cursor, register\n\
         \x20       states, kernel times, waiting inputs, errors)\n\n\
         A RECORDING opens with the program it names (as recorded, else beside it), or\n\
         with --program PROGRAM, which must be the program it ran (the hash of its BEF\n\
         bytes is checked). A recording made with `bef-trace record --no-embed` keeps\n\
         no names of its own: it needs that program.\n\n\
         Two FILEs, A and B, open a compare view: two programs (BEF or MLIR) show\n\
         what `bef diff A B` prints; two recordings show each function's and kernel's\n\
         self time in both and the change (matched by name and location, the largest\n\
         change first), then both critical paths.\n\n\
         --attach SOCKET follows a recording while it is made (`bef-trace record\n\
         --live SOCKET`): the Execution tab grows as events arrive (status LIVE, then\n\
         REPLAY once the run ended); P pauses the updates, w saves what arrived.\n\n\
         --dump VIEW prints one view as plain text and exits. Views:\n",
    );
    for (view, what) in VIEWS {
        text.push_str(&format!("  {view:<11} {what}\n"));
    }
    text.push_str("Views of a BTF file:\n");
    for (view, what) in BTF_VIEWS {
        text.push_str(&format!("  {view:<11} {what}\n"));
    }
    text.push_str("Views of two files:\n");
    for (view, what) in COMPARE_VIEWS {
        text.push_str(&format!("  {view:<11} {what}\n"));
    }
    text.push_str("\nKeys:\n");
    for (keys, help) in befview::app::keys::help_lines() {
        if !keys.is_empty() {
            text.push_str(&format!("  {keys:<18} {help}\n"));
        }
    }
    text
}

/// The events of the file opened: none (not a recording), read
/// (`--dump`), or to read on a worker while the screen starts (the
/// recording's bytes, and the program file to read them with).
enum Events {
    None,
    Read(Box<befview::model::execution::Trace>),
    Later(
        bef::format::BefBuffer,
        Option<bef_trace::program_file::ProgramFile>,
    ),
}

enum Mode {
    View(PathBuf),
    Dump(String, PathBuf),
    /// Two files compared; `true` to print the comparison.
    Compare(PathBuf, PathBuf, bool),
    Help,
}

/// Takes `--program PROGRAM` and `--index N` out of `args`: the program
/// and the index (each given at most once), and the other arguments.
type Options = (Option<PathBuf>, Option<u64>, Vec<OsString>);

fn take_options(args: &[OsString]) -> Result<Options, String> {
    let mut program = None;
    let mut index = None;
    let mut rest = Vec::with_capacity(args.len());
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.to_str() {
            Some("--program") => {
                let file = args.next().ok_or("--program needs a PROGRAM file")?;
                if program.replace(PathBuf::from(file)).is_some() {
                    return Err("--program given twice".to_owned());
                }
            }
            Some("--index") => {
                let n = args.next().ok_or("--index needs a tensor index N")?;
                let n = n
                    .to_str()
                    .and_then(|n| n.parse::<u64>().ok())
                    .ok_or_else(|| {
                        format!(
                            "--index takes a tensor index (0, 1, ...), not '{}'",
                            escape::terminal(&n.to_string_lossy())
                        )
                    })?;
                if index.replace(n).is_some() {
                    return Err("--index given twice".to_owned());
                }
            }
            _ => rest.push(arg.clone()),
        }
    }
    Ok((program, index, rest))
}

/// Reads the arguments. A FILE is any bytes (a path need not be UTF-8);
/// flags and VIEW are compared as text.
fn parse(args: &[OsString]) -> Result<Mode, String> {
    let text = |arg: &OsString| arg.to_str().map(str::to_owned);
    let is_flag = |arg: &OsString| arg.as_encoded_bytes().starts_with(b"-");
    match args {
        [flag] if text(flag).is_some_and(|f| f == "--help" || f == "-h") => Ok(Mode::Help),
        [flag, view, a, b] if text(flag).as_deref() == Some("--dump") => match text(view) {
            Some(view) if view == "compare" => {
                Ok(Mode::Compare(PathBuf::from(a), PathBuf::from(b), true))
            }
            _ => Err("--dump VIEW takes one FILE; only --dump compare takes two".to_owned()),
        },
        [flag, view, _]
            if text(flag).as_deref() == Some("--dump")
                && text(view).as_deref() == Some("compare") =>
        {
            Err("--dump compare needs two files, A and B".to_owned())
        }
        [flag, view, file] if text(flag).as_deref() == Some("--dump") => match text(view) {
            Some(view) if is_view(&view) => Ok(Mode::Dump(view, PathBuf::from(file))),
            _ => {
                let names: Vec<&str> = VIEWS
                    .iter()
                    .chain(BTF_VIEWS)
                    .chain(COMPARE_VIEWS)
                    .map(|(v, _)| *v)
                    .collect();
                Err(format!(
                    "unknown view '{}' (expected one of {})",
                    escape::terminal(&view.to_string_lossy()),
                    names.join(", ")
                ))
            }
        },
        [flag, ..] if text(flag).as_deref() == Some("--dump") => {
            Err("--dump needs a VIEW and a FILE".to_owned())
        }
        [file] if !is_flag(file) || file == "-" => Ok(Mode::View(PathBuf::from(file))),
        [a, b] if !is_flag(a) && !is_flag(b) => {
            Ok(Mode::Compare(PathBuf::from(a), PathBuf::from(b), false))
        }
        [] => Err("no FILE given".to_owned()),
        [other, ..] if is_flag(other) => Err(format!(
            "unknown option '{}'",
            escape::terminal(&other.to_string_lossy())
        )),
        _ => Err("expected one FILE, or two to compare".to_owned()),
    }
}

/// Shows (or with `print`, prints) the comparison of the files `a` and
/// `b`.
fn compare(a: &std::path::Path, b: &std::path::Path, print: bool) -> ExitCode {
    let view = match befview::model::compare::open(a, b) {
        Ok(view) => view,
        Err(e) => {
            eprintln!("{}", escape::terminal_lines(&e.to_string()));
            return ExitCode::from(1);
        }
    };
    let result = if print {
        let stdout = std::io::stdout();
        let mut out = std::io::BufWriter::new(stdout.lock());
        befview::dump::compare(&mut out, &view).and_then(|()| std::io::Write::flush(&mut out))
    } else {
        befview::terminal::run_compare(&mut befview::app::compare::CompareApp::new(view))
    };
    ending(result)
}

/// Shows (or with `view`, prints) the tensors of the BTF file at `path`;
/// `tensor` prints every element of tensor `index`.
fn tensors(path: &std::path::Path, view: Option<&str>, index: Option<u64>) -> ExitCode {
    match (view, index) {
        (Some("tensors"), None) | (None, None) => {}
        (Some("tensor"), Some(_)) => {}
        (Some("tensor"), None) => {
            eprintln!("befview: --dump tensor needs --index N, the tensor to print");
            return ExitCode::from(2);
        }
        (_, Some(_)) => {
            eprintln!("befview: --index N is for --dump tensor");
            return ExitCode::from(2);
        }
        (Some(view), None) => {
            eprintln!("befview: a BTF file's views are tensors and tensor (not {view})");
            return ExitCode::from(2);
        }
    }
    let opened = befview::model::input::read(path)
        .and_then(|buffer| befview::model::tensors::TensorFile::open_buffer(path, buffer));
    let file = match opened {
        Ok(file) => file,
        Err(e) => {
            eprintln!("{}", escape::terminal_lines(&e.to_string()));
            return ExitCode::from(1);
        }
    };
    let result = match (view, index) {
        (Some(_), Some(index)) => {
            let grid = match file.grid(index) {
                Ok(grid) => grid,
                Err(why) => {
                    eprintln!(
                        "befview: {}: {}",
                        escape::path(path),
                        escape::terminal(&why)
                    );
                    return ExitCode::from(1);
                }
            };
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::new(stdout.lock());
            grid.write_all(file.bytes(), &mut out)
                .and_then(|()| std::io::Write::flush(&mut out))
        }
        (Some(_), None) => {
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::new(stdout.lock());
            befview::dump::tensors(&mut out, &file).and_then(|()| std::io::Write::flush(&mut out))
        }
        (None, _) => {
            befview::terminal::run_tensors(&mut befview::app::tensors::TensorsApp::new(file))
        }
    };
    ending(result)
}

/// Takes `--attach SOCKET` out of `args`: the socket (given at most
/// once), and the other arguments.
fn attach_option(args: &[OsString]) -> Result<(Option<PathBuf>, Vec<OsString>), String> {
    let mut socket = None;
    let mut rest = Vec::with_capacity(args.len());
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        if arg.to_str() != Some("--attach") {
            rest.push(arg.clone());
            continue;
        }
        let path = args.next().ok_or("--attach needs a SOCKET")?;
        if socket.replace(PathBuf::from(path)).is_some() {
            return Err("--attach given twice".to_owned());
        }
    }
    Ok((socket, rest))
}

/// `befview --attach SOCKET`: the live recording served there.
fn attached(socket: &std::path::Path, program: Option<&std::path::Path>) -> ExitCode {
    let fail = |e: &dyn std::fmt::Display| {
        eprintln!("{}", escape::terminal_lines(&e.to_string()));
        ExitCode::from(1)
    };
    let attached = match befview::app::attach::attach(socket) {
        Ok(attached) => attached,
        Err(e) => return fail(&e),
    };
    let opened = befview::model::execution::open_program(socket, &attached.first, program);
    let (loaded, program) = match opened {
        Ok(opened) => opened,
        Err(e) => return fail(&e),
    };
    let doc = match Document::new(&loaded) {
        Ok(doc) => doc,
        Err(e) => return fail(&e),
    };
    match befview::terminal::run_attached(&doc, attached, program) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("befview: {}", escape::terminal(&e.to_string()));
            ExitCode::from(1)
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    match attach_option(&args).and_then(|(socket, rest)| {
        let (program, index, rest) = take_options(&rest)?;
        Ok((socket, program, index, rest))
    }) {
        Ok((Some(socket), program, None, rest)) if rest.is_empty() => {
            return attached(&socket, program.as_deref());
        }
        Ok((Some(_), _, _, _)) => {
            eprintln!(
                "befview: --attach SOCKET takes no FILE, no --index and no --dump (see --help)"
            );
            return ExitCode::from(2);
        }
        Ok((None, _, _, _)) => {}
        Err(e) => {
            eprintln!("befview: {e}\nUsage: befview --attach SOCKET (see --help)");
            return ExitCode::from(2);
        }
    }
    let mode = match take_options(&args)
        .and_then(|(program, index, rest)| Ok((parse(&rest)?, program, index)))
    {
        Ok(mode) => mode,
        Err(e) => {
            eprintln!("befview: {e}\nUsage: befview FILE | befview --dump VIEW FILE (see --help)");
            return ExitCode::from(2);
        }
    };
    let (path, view) = match mode.0 {
        Mode::Help => {
            print!("{}", usage());
            return ExitCode::SUCCESS;
        }
        Mode::View(path) => (path, None),
        Mode::Dump(view, path) => (path, Some(view)),
        Mode::Compare(a, b, print) => {
            if mode.1.is_some() {
                eprintln!(
                    "befview: --program is for one recording; compare recordings that carry their program"
                );
                return ExitCode::from(2);
            }
            return compare(&a, &b, print);
        }
    };
    let program = mode.1;
    let index = mode.2;
    let misused = |file: &std::path::Path| {
        eprintln!(
            "befview: --program is for a bef-trace recording, and {} is not one",
            escape::path(file)
        );
        ExitCode::from(2)
    };
    if befview::model::tensors::is_btf(&path) {
        if program.is_some() {
            return misused(&path);
        }
        return tensors(&path, view.as_deref(), index);
    }
    if view.as_deref() == Some("compare") {
        eprintln!("befview: --dump compare needs two files, A and B");
        return ExitCode::from(2);
    }
    if matches!(view.as_deref(), Some("tensors" | "tensor")) {
        eprintln!("befview: the tensor views are for BTF files (named .btf)");
        return ExitCode::from(2);
    }
    if index.is_some() {
        eprintln!("befview: --index N is for --dump tensor of a BTF file");
        return ExitCode::from(2);
    }
    let fail = |e: &dyn std::fmt::Display| {
        // Diagnostics quote the file's lines.
        eprintln!("{}", escape::terminal_lines(&e.to_string()));
        ExitCode::from(1)
    };
    let buffer = match befview::model::input::read(&path) {
        Ok(buffer) => buffer,
        Err(e) => return fail(&e),
    };
    // A recording on screen starts from its header: its events are read
    // in the background, so the first frame does not wait for them.
    let given = program.as_deref();
    let (events, opened) = if befview::model::execution::is_recording(buffer.bytes()) {
        let opened = match &view {
            Some(_) => befview::model::execution::open(&path, buffer.bytes(), given)
                .map(|(trace, loaded)| (Events::Read(Box::new(trace)), loaded)),
            None => befview::model::execution::open_program(&path, buffer.bytes(), given)
                .map(|(loaded, program)| (Events::Later(buffer, program), loaded)),
        };
        match opened {
            Ok(opened) => opened,
            Err(e) => return fail(&e),
        }
    } else if program.is_some() {
        return misused(&path);
    } else {
        match Loaded::from_buffer(&path, buffer) {
            Ok(loaded) => (Events::None, loaded),
            Err(e) => return fail(&e),
        }
    };
    let doc = match Document::new(&opened) {
        Ok(doc) => doc,
        Err(e) => return fail(&e),
    };
    let result = match (view, events) {
        (Some(view), events) => {
            let mut app = match events {
                Events::Read(trace) => App::with_trace(&doc, *trace),
                _ => App::new(&doc),
            };
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::new(stdout.lock());
            dump(&mut out, &mut app, &view).and_then(|()| std::io::Write::flush(&mut out))
        }
        (None, Events::Later(recording, program)) => {
            befview::terminal::run_loading(&doc, &path, recording, program)
        }
        (None, _) => befview::terminal::run(&doc),
    };
    ending(result)
}

/// The exit status of a view or dump that ended with `result`: a closed
/// pipe (`befview --dump ... | head`) is not a failure.
fn ending(result: std::io::Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("befview: {}", escape::terminal(&e.to_string()));
            ExitCode::from(1)
        }
    }
}
