//! The tabs, in key order.

/// The tabs, in key order (`1`..).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tab {
    /// Sections and findings.
    Sections,
    /// Structure-coloured hex with the data inspector.
    Hex,
    /// Functions, and one function's kernels and registers.
    Functions,
    /// Kernels beside their source lines; every location decoded.
    Source,
    /// Strings, attributes and types.
    Tables,
    /// A recorded run: events under a time cursor, register states.
    Execution,
}

/// Cells the tab bar keeps for the file's name before it shortens titles.
const MIN_FILE_CELLS: usize = 24;

impl Tab {
    /// Every tab, in order.
    pub const ALL: &'static [Tab] = &[
        Tab::Sections,
        Tab::Hex,
        Tab::Functions,
        Tab::Source,
        Tab::Tables,
        Tab::Execution,
    ];

    /// The tab's title.
    pub fn title(self) -> &'static str {
        match self {
            Tab::Sections => "Sections",
            Tab::Hex => "Hex",
            Tab::Functions => "Functions",
            Tab::Source => "Source",
            Tab::Tables => "Strings·Attributes·Types",
            Tab::Execution => "Execution",
        }
    }

    /// Its name in the help screen's contexts (`hex: next byte`).
    pub fn short_name(self) -> String {
        match self {
            Tab::Tables => "tables".to_owned(),
            other => other.title().to_lowercase(),
        }
    }

    /// How the tab bar labels it, as tab `i`.
    pub fn label(self, i: usize) -> String {
        format!(" {} {} ", i + 1, self.title())
    }

    /// The tab bar's labels for a bar `width` cells wide: the titles, or
    /// on a narrow screen shorter ones (`Tables`), so that every tab and
    /// part of the file's name stay visible.
    pub fn labels(width: u16) -> Vec<String> {
        let full: Vec<String> = Tab::ALL
            .iter()
            .enumerate()
            .map(|(i, t)| t.label(i))
            .collect();
        let cells: usize = full.iter().map(|l| l.chars().count() + 1).sum();
        if cells + MIN_FILE_CELLS <= usize::from(width) {
            return full;
        }
        Tab::ALL
            .iter()
            .enumerate()
            .map(|(i, t)| match t {
                Tab::Tables => format!(" {} Tables ", i + 1),
                _ => t.label(i),
            })
            .collect()
    }

    /// Its position in [`ALL`](Self::ALL).
    pub fn index(self) -> usize {
        Tab::ALL.iter().position(|&t| t == self).unwrap_or(0)
    }

    /// What the tab shows, for the help screen.
    pub fn help(self) -> &'static str {
        match self {
            Tab::Sections => "Sections: framing, item counts, size; findings with offsets",
            Tab::Hex => "Hex: bytes coloured by field, inspector, item tree at the cursor",
            Tab::Functions => {
                "Functions: table; open one for its kernels above its registers; with a recording, its kernels and functions timed"
            }
            Tab::Source => "Source: kernels beside their source lines",
            Tab::Tables => "Strings·Attributes·Types·Locations, one table at a time",
            Tab::Execution => "Execution: events of a recording, registers at the cursor",
        }
    }
}
