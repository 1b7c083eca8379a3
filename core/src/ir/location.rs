//! Source locations, as MLIR knows them.

use std::sync::Arc;

use super::attr::Attribute;

#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub enum Location {
    #[default]
    Unknown,
    /// `"file.mlir":3:7`. The file name is shared: every op of a file
    /// carries one.
    FileLineCol {
        file: Arc<str>,
        line: u32,
        column: u32,
    },
    /// `"file.mlir":1:2 to 3:4` (`to :4` on one line). A range whose end
    /// equals its start is a `FileLineCol`.
    FileRange {
        file: Arc<str>,
        start_line: u32,
        start_column: u32,
        end_line: u32,
        end_column: u32,
    },
    /// `"name"` or `"name"(child)`; a bare name has an unknown child.
    Name { name: String, child: Box<Location> },
    /// `callsite(callee at caller)`
    CallSite {
        callee: Box<Location>,
        caller: Box<Location>,
    },
    /// `fused[a, b]` or `fused<metadata>[a, b]`
    Fused {
        locations: Vec<Location>,
        metadata: Option<Box<Attribute>>,
    },
}

impl Location {
    pub fn file_line_col(file: &str, line: u32, column: u32) -> Location {
        Location::FileLineCol {
            file: file.into(),
            line,
            column,
        }
    }

    /// The first file:line:col inside this location (what a diagnostic
    /// points at), looking through names, call sites (the callee) and
    /// fused locations.
    pub fn primary_position(&self) -> Option<(&str, u32, u32)> {
        match self {
            Location::Unknown => None,
            Location::FileLineCol { file, line, column } => Some((&**file, *line, *column)),
            Location::FileRange {
                file,
                start_line,
                start_column,
                ..
            } => Some((&**file, *start_line, *start_column)),
            Location::Name { child, .. } => child.primary_position(),
            Location::CallSite { callee, .. } => callee.primary_position(),
            Location::Fused { locations, .. } => {
                locations.iter().find_map(Location::primary_position)
            }
        }
    }
}
