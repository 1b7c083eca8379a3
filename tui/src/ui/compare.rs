//! The compare view (`befview A B`): the title, the comparison's lines
//! coloured by what they say (red: only in the first or faster in the
//! second, green: only in the second or slower, yellow: changed), the
//! selected line highlighted, and the keys.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph};

use crate::app::compare::CompareApp;
use crate::model::compare::Kind;

use Constraint::{Length, Min};

const KEYS: &str = " j/k move  g/G first/last  PgUp/PgDn page  ? keys  q quit";

const HELP: &str = " j/↓ next  k/↑ previous  gg/Home first  G/End last  Ctrl-d/Ctrl-u half \
page  PgDn/PgUp page  ? close  q quit";

/// The style of a line of kind `kind`.
fn style(kind: Kind) -> Style {
    match kind {
        Kind::Heading => Style::default().add_modifier(Modifier::BOLD),
        Kind::Removed => Style::default().fg(Color::LightRed),
        Kind::Added => Style::default().fg(Color::LightGreen),
        Kind::Changed => Style::default().fg(Color::Yellow),
        Kind::Plain => Style::default(),
        Kind::Note => Style::default().fg(Color::DarkGray),
    }
}

/// Draws the whole screen.
pub fn draw(frame: &mut Frame<'_>, app: &mut CompareApp) {
    let [title, body, footer] =
        Layout::vertical([Length(1), Min(3), Length(1)]).areas(frame.area());
    frame.render_widget(
        Paragraph::new(Line::styled(
            app.view.title.clone(),
            Style::default().fg(Color::Gray),
        )),
        title,
    );
    // The border takes two lines.
    app.fit(usize::from(body.height.saturating_sub(2)));
    let lines: Vec<Line> = app
        .view
        .lines
        .iter()
        .enumerate()
        .skip(app.scroll)
        .take(app.page)
        .map(|(i, line)| {
            let mut style = style(line.kind);
            if i == app.selected {
                style = style
                    .fg(Color::Black)
                    .bg(Color::Cyan)
                    .add_modifier(Modifier::BOLD);
            }
            Line::styled(line.text.clone(), style)
        })
        .collect();
    let verdict = if app.view.equal { "equal" } else { "different" };
    let block = Block::default().borders(Borders::ALL).title(format!(
        " Compare {}/{} · {verdict} ",
        (app.selected + 1).min(app.view.lines.len()),
        app.view.lines.len()
    ));
    frame.render_widget(Paragraph::new(lines).block(block), body);
    let keys = if app.help { HELP } else { KEYS };
    frame.render_widget(
        Paragraph::new(Line::styled(keys, Style::default().fg(Color::DarkGray))),
        footer,
    );
}
