//! The Execution tab: the events under the time cursor, the registers of
//! the execution at the cursor (errors marked, values the last step
//! changed highlighted) and the kernel at the cursor.

use bef_trace::model::ErrorMark;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use super::{PROBLEM, draw_list};
use crate::app::App;
use crate::app::keys::{self, Action};
use crate::app::tab::Tab;
use crate::model::rows::ListId;
use crate::model::rows::State;
use crate::model::rows::execution::kernel_lines;

/// The style of a row: values changed by the last step stand out.
pub fn row_style(app: &State<'_, '_>, id: ListId, row: usize) -> Style {
    let Some(trace) = app.trace.as_ref() else {
        return Style::default();
    };
    match id {
        ListId::Events => match trace.step_mark(row) {
            Some(ErrorMark::Origin) => Style::default().fg(PROBLEM).add_modifier(Modifier::BOLD),
            Some(ErrorMark::Poisoned) => Style::default().fg(Color::LightRed),
            None => Style::default(),
        },
        _ => {
            let changed = app.selected_execution().is_some_and(|e| {
                trace
                    .registers_at(app.time_cursor(), e)
                    .get(row)
                    .is_some_and(|r| r.changed)
            });
            if changed {
                Style::default()
                    .fg(Color::Black)
                    .bg(Color::Yellow)
                    .add_modifier(Modifier::BOLD)
            } else {
                Style::default()
            }
        }
    }
}

/// Draws the tab.
pub fn draw(frame: &mut Frame<'_>, app: &mut App<'_, '_>, area: Rect) {
    if let Some(loading) = &app.execution.loading {
        // Other tabs stay usable meanwhile; keys are never held up.
        let text = vec![
            Line::from(format!(
                "Loading {}: {}… {} s",
                bef::tool_io::escape::path(&loading.path),
                loading.phase,
                loading.seconds
            )),
            Line::from(""),
            Line::from(format!(
                "The other tabs show the program meanwhile; {} quits.",
                keys::label(Action::Quit, Some(Tab::Execution))
            )),
        ];
        frame.render_widget(
            Paragraph::new(text)
                .wrap(Wrap { trim: false })
                .block(Block::default().borders(Borders::ALL).title("Execution")),
            area,
        );
        return;
    }
    let [left, right] =
        Layout::horizontal([Constraint::Percentage(60), Constraint::Percentage(40)]).areas(area);
    let info = kernel_lines(&app.rows());
    let info_height = (info.len() as u16 + 2).min(right.height / 2).max(3);
    let [registers, kernel] =
        Layout::vertical([Constraint::Min(3), Constraint::Length(info_height)]).areas(right);
    draw_list(frame, app, ListId::Events, left, 0);
    draw_list(frame, app, ListId::ExecRegisters, registers, 1);
    let lines: Vec<Line> = info
        .into_iter()
        .map(|l| {
            if l.starts_with('!') {
                Line::from(Span::styled(l, Style::default().fg(PROBLEM)))
            } else {
                Line::from(l)
            }
        })
        .collect();
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(Style::default().fg(Color::DarkGray))
        .title("Kernel at the cursor");
    frame.render_widget(
        Paragraph::new(lines)
            .block(block)
            .wrap(Wrap { trim: false }),
        kernel,
    );
}
