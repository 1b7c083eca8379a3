//! Flame graphs (SVG, through inferno) of folded stacks, and differential
//! flame graphs of two recordings.

use std::io::{self, Write};

use inferno::differential;
use inferno::flamegraph::{self, Direction, Options};

use crate::display;
use crate::folded::{self, FoldOptions};
use crate::model::Model;

/// How the SVG is drawn.
#[derive(Debug, Clone, Default)]
pub struct FlameOptions {
    /// Folding: clock, lanes, time order.
    pub fold: FoldOptions,
    /// An icicle graph: stacks grow downwards from the top.
    pub inverted: bool,
    /// The title (inferno's default when empty), shown as
    /// [`display::text`] shows text.
    pub title: String,
}

fn inferno_options(options: &FlameOptions) -> Options<'static> {
    let mut opt = Options::default();
    opt.count_name = "ns".into();
    opt.name_type = "Kernel:".into();
    if !options.title.is_empty() {
        opt.title = display::xml_safe(&display::text(&options.title)).into_owned();
    } else if options.fold.time_order {
        opt.title = "Flame Chart".into();
    }
    if options.inverted {
        opt.direction = Direction::Inverted;
    }
    opt.flame_chart = options.fold.time_order;
    // Same input, same picture.
    opt.deterministic = true;
    opt.hash = true;
    opt
}

/// Writes the flame graph (or chart) of `model` as SVG.
pub fn write_svg(model: &Model<'_>, options: &FlameOptions, out: impl Write) -> io::Result<()> {
    let mut lines = folded::fold(model, &options.fold);
    if options.fold.time_order {
        // inferno reads flame-chart input newest first.
        lines.reverse();
    }
    let mut opt = inferno_options(options);
    if model.recording.header.partial {
        opt.subtitle = Some(display::PARTIAL.into());
    }
    render(&lines, &mut opt, out)
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
pub fn diff_folded(before: &Model<'_>, after: &Model<'_>) -> io::Result<String> {
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
/// red where it spends more time than `before`, blue where less.
pub fn write_diff_svg(
    before: &Model<'_>,
    after: &Model<'_>,
    title: &str,
    out: impl Write,
) -> io::Result<()> {
    let folded = diff_folded(before, after)?;
    let mut opt = inferno_options(&FlameOptions {
        title: title.to_string(),
        ..Default::default()
    });
    if before.recording.header.partial || after.recording.header.partial {
        opt.subtitle = Some(display::PARTIAL.into());
    }
    if folded.trim().is_empty() {
        let nothing = format!("{NOTHING} 1 1");
        return flamegraph::from_lines(&mut opt, [nothing.as_str()], out);
    }
    flamegraph::from_lines(&mut opt, folded.lines(), out)
}
