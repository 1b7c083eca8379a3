//! Text from a recording as the tools show it. A recording can name a
//! kernel with a megabyte, and the exports repeat a kernel's name for
//! each of its runs: every name is shown cut to a fixed width, the middle
//! replaced by `…`, so that what a tool writes grows with the number of
//! runs, not with runs × the longest name. And a name can hold terminal
//! escapes: what is shown has every control and invisible format
//! character escaped (`bef::tool_io::escape::terminal`), in every output,
//! terminal or file, so that no export carries them on to a viewer.

use std::borrow::Cow;

use bef::tool_io::escape;

/// Characters of a kernel, function or thread name shown, wherever it is
/// shown (tables, folded stacks, flame graphs, trace viewers, JSON).
pub const NAME_WIDTH: usize = 60;

/// Characters of a longer text shown: a source location, an error
/// message, the program's path.
pub const TEXT_WIDTH: usize = 240;

/// What the exports say of a partial recording
/// ([`Header::partial`](crate::capture::recording::Header::partial)).
pub const PARTIAL: &str = "partial recording: the run was stopped before it ended";

/// What the outputs say of events lost to full buffers: `count` of them,
/// from the end of a thread's run or (`--keep last`) from its start.
pub fn dropped(count: u64, kept: crate::capture::recording::Keep) -> String {
    match kept {
        crate::capture::recording::Keep::First => {
            format!("{count} events dropped (buffers full: the latest are missing)")
        }
        crate::capture::recording::Keep::Last => format!(
            "{count} events dropped (buffers full, --keep last: the earliest are missing; \
             kernels that started before a thread's window are shown from its beginning, cut)"
        ),
    }
}

/// What stands for the characters left out.
pub const ELLIPSIS: char = '…';

/// `text` if it has at most `width` characters; otherwise its first and
/// last characters around [`ELLIPSIS`], `width` characters in all. Takes
/// time proportional to `width`, not to `text`.
pub fn elide(text: &str, width: usize) -> Cow<'_, str> {
    let width = width.max(3);
    // The byte offset after `width` characters, if there are more.
    let Some((cut, _)) = text.char_indices().nth(width) else {
        return Cow::Borrowed(text);
    };
    debug_assert!(cut < text.len());
    let head = (width - 1) / 2;
    let tail = width - 1 - head;
    let head_end = text.char_indices().nth(head).map_or(text.len(), |(i, _)| i);
    let tail_start = text
        .char_indices()
        .rev()
        .nth(tail - 1)
        .map_or(0, |(i, _)| i);
    let mut out = String::with_capacity(head_end + 3 + text.len() - tail_start);
    out.push_str(&text[..head_end]);
    out.push(ELLIPSIS);
    out.push_str(&text[tail_start..]);
    Cow::Owned(out)
}

/// A name for display: cut to [`NAME_WIDTH`] characters, then escaped
/// (an escaped character takes a few more).
pub fn name(name: &str) -> Cow<'_, str> {
    escaped(elide(name, NAME_WIDTH))
}

/// A longer text for display: cut to [`TEXT_WIDTH`], then escaped.
pub fn text(text: &str) -> Cow<'_, str> {
    escaped(elide(text, TEXT_WIDTH))
}

/// `text` with what XML 1.0 forbids besides control characters (which
/// [`escape::terminal`] has escaped): the non-characters U+FFFE and
/// U+FFFF, written as escapes the same way.
pub fn xml_safe(text: &str) -> Cow<'_, str> {
    if !text.contains(['\u{fffe}', '\u{ffff}']) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.replace('\u{fffe}', "\\u{fffe}")
            .replace('\u{ffff}', "\\u{ffff}"),
    )
}

/// `value` as pretty JSON, safe for a terminal
/// ([`bef::tool_io::json::TerminalSafe`]), ending with a newline.
pub fn terminal_json(value: &impl serde::Serialize) -> serde_json::Result<String> {
    bef::tool_io::json::to_pretty_string(value)
}

fn escaped(text: Cow<'_, str>) -> Cow<'_, str> {
    match escape::terminal(&text) {
        Cow::Borrowed(_) => text,
        Cow::Owned(escaped) => Cow::Owned(escaped),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_escapes_what_serde_leaves_raw() {
        let name = "a\u{1b}b\u{7f}c\u{9b}d\u{202e}e\u{2066}f é\n";
        let text = terminal_json(&name).expect("serialises");
        assert_eq!(text, "\"a\\u001bb\\u007fc\\u009bd\\u202ee\\u2066f é\\n\"\n");
        let pretty = terminal_json(&vec![name]).expect("serialises");
        assert!(pretty.starts_with("[\n  \""), "{pretty}");
        let back: String = serde_json::from_str(&text).expect("reads back");
        assert_eq!(back, name);
    }

    #[test]
    fn short_texts_are_kept() {
        assert!(matches!(
            elide("tfrt.add.i32", 60),
            Cow::Borrowed("tfrt.add.i32")
        ));
        let exact = "é".repeat(60);
        assert_eq!(elide(&exact, 60), exact);
    }

    #[test]
    fn long_texts_keep_both_ends_at_the_width() {
        let long = format!("{}middle{}", "a".repeat(100), "z".repeat(100));
        let shown = elide(&long, 60);
        assert_eq!(shown.chars().count(), 60);
        assert!(shown.starts_with(&"a".repeat(29)), "{shown}");
        assert!(shown.ends_with(&"z".repeat(30)), "{shown}");
        assert!(shown.contains(ELLIPSIS));
        // Multi-byte characters are never split.
        let wide = "語".repeat(1000);
        let shown = elide(&wide, 61);
        assert_eq!(shown.chars().count(), 61);
        assert_eq!(shown.chars().filter(|&c| c == ELLIPSIS).count(), 1);
    }

    #[test]
    fn names_are_cut_then_escaped() {
        assert_eq!(name("a\u{1b}]0;title\u{7}b"), "a\\u{1b}]0;title\\u{7}b");
        let long = format!("\u{1b}{}\r", "x".repeat(100));
        let shown = name(&long);
        assert!(
            shown.starts_with("\\u{1b}x") && shown.ends_with("x\\r"),
            "{shown}"
        );
        assert!(!shown.chars().any(escape::is_unsafe), "{shown}");
        assert!(matches!(name("tfrt.add.i32"), Cow::Borrowed(_)));
    }

    #[test]
    fn a_megabyte_name_is_cut_in_time_of_its_width() {
        let huge = "x".repeat(1 << 20);
        let started = std::time::Instant::now();
        for _ in 0..100_000 {
            assert_eq!(
                elide(&huge, NAME_WIDTH).len(),
                NAME_WIDTH - 1 + ELLIPSIS.len_utf8()
            );
        }
        // Copying the name each time would take minutes.
        assert!(started.elapsed() < std::time::Duration::from_secs(20));
    }
}
