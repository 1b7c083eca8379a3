//! The `?` screen's text, for the screen, its scrolling and `--dump help`:
//! the key table's help ([`crate::app::keys::help_lines`]), then what the hex
//! view's colours mark ([`crate::ui::palette::legend`]).

use ratatui::style::Color;

use crate::app::keys::{self, Action};
use crate::app::tab::Tab;
use crate::ui::palette;

/// One line of the help screen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HelpLine {
    /// The keys, or what stands for a colour; empty for text alone.
    pub keys: String,
    /// What they do or mark.
    pub text: String,
    /// The colour `keys` is drawn in, for a legend swatch.
    pub swatch: Option<Color>,
}

/// The keys column of a legend line in text; on screen a swatch of its
/// colour replaces it.
pub const LEGEND_KEY: &str = "colour";

fn line(keys: String, text: String) -> HelpLine {
    HelpLine {
        keys,
        text,
        swatch: None,
    }
}

/// Every line of the help screen, in order.
pub fn lines() -> Vec<HelpLine> {
    let mut out: Vec<HelpLine> = keys::help_lines()
        .into_iter()
        .map(|(keys, text)| line(keys, text))
        .collect();
    out.push(line(String::new(), String::new()));
    out.push(line(String::new(), "Hex colours:".to_owned()));
    out.extend(
        palette::legend()
            .into_iter()
            .map(|(colour, text)| HelpLine {
                keys: LEGEND_KEY.to_owned(),
                text,
                swatch: Some(colour),
            }),
    );
    let key = |action| keys::label(action, Some(Tab::Hex));
    out.push(line(
        "on red".to_owned(),
        "a byte where a decoder or verifier finding points".to_owned(),
    ));
    out.push(line(
        "underlined".to_owned(),
        format!(
            "a mark ({} sets or removes, {} goes to the next)",
            key(Action::Bookmark),
            key(Action::NextBookmark)
        ),
    ));
    out.push(line(
        "dark blue".to_owned(),
        format!("behind the bytes {} framed", key(Action::Enter)),
    ));
    out
}
