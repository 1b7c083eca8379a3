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
    out.push((String::new(), String::new()));
    out.push((String::new(), "Hex colours:".to_owned()));
    out.extend(
        super::palette::legend()
            .into_iter()
            .map(|(_, what)| (LEGEND_KEY.to_owned(), what)),
    );
    out.push((
        "on red".to_owned(),
        "a byte where a decoder or verifier finding points".to_owned(),
    ));
    out.push((
        "underlined".to_owned(),
        "a mark (m sets or removes, ' goes to the next)".to_owned(),
    ));
    out.push((
        "dark blue".to_owned(),
        "behind the bytes Enter framed".to_owned(),
    ));
    out
}

/// The key column of a legend line: on screen a swatch of its colour
/// replaces it.
const LEGEND_KEY: &str = "colour";

/// What stands for a colour on screen, drawn in it.
const SWATCH: &str = "██████";

fn tab_help(tab: crate::app::Tab) -> &'static str {
    use crate::app::Tab;
    match tab {
        Tab::Sections => "Sections: framing, item counts, size; findings with offsets",
        Tab::Hex => "Hex: bytes coloured by field, inspector, item tree at the cursor",
        Tab::Functions => "Functions: table; Enter opens kernels and registers (h/l)",
        Tab::Source => "Source: kernels beside their source lines (h/l switches)",
        Tab::Tables => "Strings·Attributes·Types·Locations (h/l switches table)",
        Tab::Execution => "Execution: events of a recording, registers at the cursor ([ ] { })",
    }
}

/// Draws the help screen from line `app.help_scroll`.
pub fn draw(frame: &mut Frame<'_>, area: Rect, app: &mut crate::app::App<'_, '_>) {
    app.page = area.height.saturating_sub(2).max(1) as usize;
    let width = BINDINGS
        .iter()
        .map(|b| keys_label(b).chars().count())
        .max()
        .unwrap_or(8)
        + 2;
    // The swatches take their legend's colours, in order.
    let mut colours = super::palette::legend().into_iter().map(|(c, _)| c);
    let text: Vec<Line<'_>> = lines()
        .into_iter()
        .map(|(keys, help)| {
            let (keys, style) = if keys == LEGEND_KEY {
                let colour = colours.next().unwrap_or(Color::Gray);
                (SWATCH.to_owned(), Style::default().fg(colour))
            } else {
                let style = Style::default()
                    .fg(Color::Cyan)
                    .add_modifier(Modifier::BOLD);
                (keys, style)
            };
            Line::from(vec![
                Span::styled(format!("{keys:>width$}  "), style),
                Span::raw(help),
            ])
        })
        .collect();
    let total = text.len();
    let block = Block::default().borders(Borders::ALL).title(format!(
        "Keys (? or Esc closes; j/k scroll, line {} of {total})",
        app.help_scroll + 1
    ));
    frame.render_widget(
        Paragraph::new(text)
            .block(block)
            .wrap(Wrap { trim: false })
            .scroll((app.help_scroll.min(u16::MAX as usize) as u16, 0)),
        area,
    );
}
