//! Flame graphs (SVG, through inferno) of folded stacks, and differential
//! flame graphs of two recordings.

use std::io::{self, Write};

use inferno::differential;
use inferno::flamegraph::{self, Direction, Options};

use crate::analysis::model::Model;
use crate::display;
use crate::export::Export;
use crate::export::folded::{self, FoldOptions};
use crate::progress::Progress;

/// How the SVG is drawn.
#[derive(Debug, Clone, Default)]
pub struct FlameOptions {
    /// Folding: clock, lanes, time order.
    pub fold: FoldOptions,
    /// An icicle graph: stacks grow downwards from the top.
    pub inverted: bool,
    /// The title, shown as [`display::text`] shows text; when empty, one
    /// naming the program, the clock and the unit ([`default_title`]).
    pub title: String,
}

/// The program a recording ran, as titles name it: its file name.
fn program_name(model: &Model) -> String {
    let path = &model.recording.header.program_path;
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    display::name(if name.is_empty() { path } else { name }).into_owned()
}

/// `fizzbuzz.mlir: CPU time in kernels, ns` (a flame chart, lanes per
/// thread and an icicle say so too).
pub fn default_title(model: &Model, options: &FlameOptions) -> String {
    let what = if options.fold.time_order {
        "flame chart"
    } else {
        "flame graph"
    };
    let lanes = if options.fold.per_thread {
        ", per thread"
    } else {
        ""
    };
    format!(
        "{}: {what} of {}{lanes}, in ns",
        program_name(model),
        options.fold.clock.describe()
    )
}

fn inferno_options(title: &str, options: &FlameOptions) -> Options<'static> {
    let mut opt = Options::default();
    opt.count_name = "ns".into();
    opt.name_type = "Kernel:".into();
    opt.title = display::xml_safe(&display::text(title)).into_owned();
    if options.inverted {
        opt.direction = Direction::Inverted;
    }
    opt.flame_chart = options.fold.time_order;
    // Same input, same picture.
    opt.deterministic = true;
    opt.hash = true;
    opt
}

impl Export for FlameOptions {
    /// Writes the flame graph (or chart) of `model` as SVG.
    fn write(&self, model: &Model, out: &mut dyn Write, progress: Progress) -> io::Result<()> {
        progress.step("drawing", || {
            let mut lines = folded::fold(model, &self.fold);
            if self.fold.time_order {
                // inferno reads flame-chart input newest first.
                lines.reverse();
            }
            let title = if self.title.is_empty() {
                default_title(model, self)
            } else {
                self.title.clone()
            };
            let mut opt = inferno_options(&title, self);
            if model.recording.header.partial {
                opt.subtitle = Some(display::PARTIAL.into());
            }
            render(&lines, &mut opt, out)
        })
    }
}

/// The one frame drawn for a recording without kernel time (a program
/// whose functions have no kernels, or that failed before running any).
pub const NOTHING: &str = "(no kernel time recorded)";

fn render(lines: &[(String, u64)], opt: &mut Options<'_>, out: impl Write) -> io::Result<()> {
    let mut text: Vec<String> = lines.iter().map(|(s, n)| format!("{s} {n}")).collect();
    if text.is_empty() {
        text.push(format!("{NOTHING} 1"));
    }
    flamegraph::from_lines(opt, text.iter().map(String::as_str), out)
}

/// The folded differential of `before` and `after` (CPU time, each stack
/// with both counts, `before` scaled to `after`'s total), as inferno's
/// `differential` writes it.
pub fn diff_folded(before: &Model, after: &Model) -> io::Result<String> {
    let fold = FoldOptions::default();
    let a = folded::to_text(&folded::fold(before, &fold));
    let b = folded::to_text(&folded::fold(after, &fold));
    let mut out = Vec::new();
    differential::from_readers(
        differential::Options {
            normalize: true,
            strip_hex: false,
        },
        a.as_bytes(),
        b.as_bytes(),
        &mut out,
    )?;
    String::from_utf8(out).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

/// The differential flame graph of two recordings: the shape of `after`,
/// red where it spends more time than `before`, blue where less. `names`
/// are how the two recordings are called (their file names) in the title
/// and the legend under it.
pub fn write_diff_svg(
    before: &Model,
    after: &Model,
    names: (&str, &str),
    out: impl Write,
) -> io::Result<()> {
    let folded = diff_folded(before, after)?;
    let (before_name, after_name) = (display::name(names.0), display::name(names.1));
    let title = format!(
        "{}: {after_name} against {before_name}, CPU time in kernels, in ns",
        program_name(after)
    );
    let mut opt = inferno_options(&title, &FlameOptions::default());
    let mut legend = format!(
        "widths: {after_name}; red: more time than in {before_name}, blue: less \
         ({before_name} scaled to the same total)"
    );
    if before.recording.header.partial || after.recording.header.partial {
        legend.push_str("; ");
        legend.push_str(display::PARTIAL);
    }
    opt.subtitle = Some(display::xml_safe(&legend).into_owned());
    if folded.trim().is_empty() {
        let nothing = format!("{NOTHING} 1 1");
        return flamegraph::from_lines(&mut opt, [nothing.as_str()], out);
    }
    flamegraph::from_lines(&mut opt, folded.lines(), out)
}
