//! The `?` screen, generated from the key table.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use crate::keys::{BINDINGS, keys_label};

/// The help text, one line per binding, then what the tabs show.
pub fn lines() -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = BINDINGS
        .iter()
        .map(|b| (keys_label(b), b.help.to_owned()))
        .collect();
    out.push((String::new(), String::new()));
    for (i, tab) in crate::app::Tab::ALL.iter().enumerate() {
        out.push((format!("tab {}", i + 1), tab_help(*tab).to_owned()));
    }
    out.push((
        "mouse".to_owned(),
        "wheel scrolls, click selects a tab, row or byte".to_owned(),
    ));
    out
}

fn tab_help(tab: crate::app::Tab) -> &'static str {
    use crate::app::Tab;
    match tab {
        Tab::Sections => "Sections: framing, item counts, size; findings with offsets",
        Tab::Hex => "Hex: bytes coloured by field, inspector, item tree at the cursor",
        Tab::Functions => "Functions: table; Enter opens kernels and registers (h/l)",
        Tab::Source => "Source: kernels beside their source lines (h/l switches)",
        Tab::Tables => "Strings·Attributes·Types·Locations (h/l switches table)",
    }
}

/// Draws the help screen.
pub fn draw(frame: &mut Frame<'_>, area: Rect) {
    let width = BINDINGS
        .iter()
        .map(|b| keys_label(b).chars().count())
        .max()
        .unwrap_or(8)
        + 2;
    let text: Vec<Line<'_>> = lines()
        .into_iter()
        .map(|(keys, help)| {
            Line::from(vec![
                Span::styled(
                    format!("{keys:>width$}  "),
                    Style::default()
                        .fg(Color::Cyan)
                        .add_modifier(Modifier::BOLD),
                ),
                Span::raw(help),
            ])
        })
        .collect();
    let block = Block::default()
        .borders(Borders::ALL)
        .title("Keys (? or Esc closes)");
    frame.render_widget(
        Paragraph::new(text).block(block).wrap(Wrap { trim: false }),
        area,
    );
}
