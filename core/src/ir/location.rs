//! Source locations, as MLIR knows them.

use std::sync::Arc;

use super::attr::Attribute;

/// Where an op or value came from in the source, as MLIR's location attributes say.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub enum Location {
    /// `unknown`: nothing is known.
    #[default]
    Unknown,
    /// `"file.mlir":3:7`. The file name is shared: every op of a file
    /// carries one.
    FileLineCol {
        /// The file name, as written.
        file: Arc<str>,
        /// Line, from 1.
        line: u32,
        /// Column, from 1.
        column: u32,
    },
    /// `"file.mlir":1:2 to 3:4` (`to :4` on one line). A range whose end
    /// equals its start is a `FileLineCol`.
    FileRange {
        /// The file name, as written.
        file: Arc<str>,
        /// First line, from 1.
        start_line: u32,
        /// Column of the first character, from 1.
        start_column: u32,
        /// Last line, from 1.
        end_line: u32,
        /// Column of the end, from 1.
        end_column: u32,
    },
    /// `"name"` or `"name"(child)`; a bare name has an unknown child.
    Name {
        /// The name, any string.
        name: String,
        /// The location named; `Unknown` for a bare name.
        child: Box<Location>,
    },
    /// `callsite(callee at caller)`
    CallSite {
        /// Location of the called code.
        callee: Box<Location>,
        /// Location of the call.
        caller: Box<Location>,
    },
    /// `fused[a, b]` or `fused<metadata>[a, b]`
    Fused {
        /// The merged locations, in order.
        locations: Vec<Location>,
        /// Attribute attached to the fusion (`fused<metadata>`), if any.
        metadata: Option<Box<Attribute>>,
    },
}

impl Location {
    /// `"file":line:column`.
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
