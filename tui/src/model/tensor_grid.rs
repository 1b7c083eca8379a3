//! One tensor in full, as a grid: a dense tensor's elements
//! in rows of its innermost dimension (a matrix as itself; a higher rank's
//! outer dimensions flattened into rows, each row named by its index), a
//! COO tensor's stored elements one per row (coordinates, then the value).
//! Elements are read from the bytes they are in when asked for (a BTF
//! file's, or a recorded value's: [`Grid::dense`]), so a grid of any size
//! costs only what is shown; `--dump tensor` streams every one.

use std::io::{self, Write};

use bef::btf::summary::{Value, compact};
use bef::btf::{BtfDType, BtfFile, Payload};
use bef::tool_io::escape;

/// A tensor's elements as rows and columns.
#[derive(Debug, Clone, PartialEq)]
pub struct Grid {
    /// What the tensor is (`tensor 4`, `%3 of execution 2`), for the title.
    pub name: String,
    /// Its element type.
    pub dtype: BtfDType,
    /// Its dimensions.
    pub dims: Vec<u64>,
    /// Rows: the product of the outer dimensions (dense), or the stored
    /// elements (COO).
    pub rows: u64,
    /// Columns: the innermost dimension (dense), or the rank and the value
    /// (COO).
    pub columns: u64,
    /// The least and greatest finite element, for colours; `None` when
    /// the tensor has none (or too many to scan for them).
    pub range: Option<(f64, f64)>,
    layout: GridLayout,
}

#[derive(Debug, Clone, PartialEq)]
enum GridLayout {
    /// Elements at this byte range of the file.
    Dense { data: std::ops::Range<usize> },
    /// Coordinates and values at these byte ranges.
    Coo {
        indices: std::ops::Range<usize>,
        values: std::ops::Range<usize>,
    },
}

/// Elements scanned at most for a grid's colour range; past it, colours
/// follow the elements on screen.
const RANGE_SCAN: u64 = 1 << 24;

/// What one cell of a grid holds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Cell {
    /// An element.
    Element(Value),
    /// A COO coordinate.
    Coordinate(u64),
}

impl Cell {
    /// The cell as text: integers in full, floats to six digits.
    pub fn text(self) -> String {
        match self {
            Cell::Element(v @ (Value::F32(_) | Value::F64(_))) => compact(v.as_f64()),
            Cell::Element(v) => v.to_string(),
            Cell::Coordinate(c) => c.to_string(),
        }
    }

    /// The element's value, for its colour (coordinates have none).
    pub fn value(self) -> Option<f64> {
        match self {
            Cell::Element(v) => Some(v.as_f64()).filter(|x| x.is_finite()),
            Cell::Coordinate(_) => None,
        }
    }
}

impl Grid {
    /// Tensor `index` of the BTF file `bytes`, or why it cannot be read
    /// (described, never quoting the file).
    pub fn open(bytes: &[u8], index: u64) -> Result<Grid, String> {
        let file = BtfFile::parse(bytes).map_err(|e| e.to_string())?;
        if index >= file.len() {
            return Err(format!(
                "tensor {index} is out of range: the file holds {} (0 to {})",
                file.len(),
                file.len().saturating_sub(1)
            ));
        }
        let record = file.record(index).map_err(|e| e.to_string())?;
        let base = bytes.as_ptr() as usize;
        let range = |s: &[u8]| {
            let start = s.as_ptr() as usize - base;
            start..start + s.len()
        };
        let (rows, columns, layout) = match &record.payload {
            Payload::Dense { data, .. } => {
                let columns = record.dims.last().copied().unwrap_or(1);
                let rows = match record.dims.len() {
                    0 => 1,
                    n => record.dims[..n - 1].iter().product(),
                };
                (rows, columns, GridLayout::Dense { data: range(data) })
            }
            Payload::Coo {
                indices,
                values,
                count,
                ..
            } => (
                *count,
                record.dims.len() as u64 + 1,
                GridLayout::Coo {
                    indices: range(indices),
                    values: range(values),
                },
            ),
        };
        let mut grid = Grid {
            name: format!("tensor {index}"),
            dtype: record.dtype,
            dims: record.dims.clone(),
            rows,
            columns,
            range: None,
            layout,
        };
        grid.range = grid.scan_range(bytes);
        Ok(grid)
    }

    /// The dense tensor `name` of `dtype` and `dims` whose elements are
    /// all of `data` (row-major, little-endian), or why they disagree.
    pub fn dense(name: String, dtype: BtfDType, dims: &[u64], data: &[u8]) -> Result<Grid, String> {
        let count = dims.iter().try_fold(1u64, |n, &d| n.checked_mul(d));
        if count.and_then(|n| n.checked_mul(dtype.size() as u64)) != Some(data.len() as u64) {
            return Err(format!(
                "{} bytes of elements do not make a {} tensor of dims {dims:?}",
                data.len(),
                dtype.name()
            ));
        }
        let columns = dims.last().copied().unwrap_or(1);
        let rows = match dims.len() {
            0 => 1,
            n => dims[..n - 1].iter().product(),
        };
        let mut grid = Grid {
            name,
            dtype,
            dims: dims.to_vec(),
            rows,
            columns,
            range: None,
            layout: GridLayout::Dense {
                data: 0..data.len(),
            },
        };
        grid.range = grid.scan_range(data);
        Ok(grid)
    }

    fn stored(&self) -> u64 {
        match self.layout {
            GridLayout::Dense { .. } => self.rows.saturating_mul(self.columns),
            GridLayout::Coo { .. } => self.rows,
        }
    }

    /// The least and greatest finite element, scanning at most
    /// [`RANGE_SCAN`] of them.
    fn scan_range(&self, bytes: &[u8]) -> Option<(f64, f64)> {
        let stored = self.stored();
        if stored > RANGE_SCAN {
            return None;
        }
        let mut range: Option<(f64, f64)> = None;
        for i in 0..stored {
            let Some(x) = self.element(bytes, i).map(Value::as_f64) else {
                continue;
            };
            if x.is_finite() {
                range = Some(range.map_or((x, x), |(lo, hi)| (lo.min(x), hi.max(x))));
            }
        }
        range
    }

    /// Stored element `i`.
    fn element(&self, bytes: &[u8], i: u64) -> Option<Value> {
        let size = self.dtype.size() as u64;
        let data = match &self.layout {
            GridLayout::Dense { data } => data,
            GridLayout::Coo { values, .. } => values,
        };
        let start = data.start as u64 + i.checked_mul(size)?;
        let end = start + size;
        if end > data.end as u64 {
            return None;
        }
        Some(Value::from_le(
            self.dtype,
            bytes.get(start as usize..end as usize)?,
        ))
    }

    /// The cell at `row`, `column` of the grid over the file's `bytes`.
    pub fn cell(&self, bytes: &[u8], row: u64, column: u64) -> Option<Cell> {
        if row >= self.rows || column >= self.columns {
            return None;
        }
        match &self.layout {
            GridLayout::Dense { .. } => self
                .element(bytes, row * self.columns + column)
                .map(Cell::Element),
            GridLayout::Coo { indices, .. } => {
                let rank = self.columns - 1;
                if column == rank {
                    return self.element(bytes, row).map(Cell::Element);
                }
                let at = indices.start as u64 + (row * rank + column) * 8;
                let raw = bytes.get(at as usize..at as usize + 8)?;
                Some(Cell::Coordinate(u64::from_le_bytes(raw.try_into().ok()?)))
            }
        }
    }

    /// Whether the grid lists stored elements (COO) rather than a dense
    /// tensor's rows.
    pub fn is_sparse(&self) -> bool {
        matches!(self.layout, GridLayout::Coo { .. })
    }

    /// How row `row` is named: its outer coordinates (`[2, 5, :]`), or for
    /// COO the stored element's number.
    pub fn row_label(&self, row: u64) -> String {
        if self.is_sparse() || self.dims.len() < 2 {
            return format!("{row}");
        }
        let outer = &self.dims[..self.dims.len() - 1];
        let mut coords = vec![0u64; outer.len()];
        let mut rest = row;
        for (c, &d) in coords.iter_mut().zip(outer).rev() {
            *c = rest % d.max(1);
            rest /= d.max(1);
        }
        let parts: Vec<String> = coords.iter().map(u64::to_string).collect();
        format!("[{}, :]", parts.join(", "))
    }

    /// The title: `tensor 4 · f32 [360, 64] · 360 rows × 64 columns`.
    pub fn title(&self) -> String {
        let dims: Vec<String> = self.dims.iter().map(u64::to_string).collect();
        let what = if self.is_sparse() {
            format!("{} stored elements (coordinates, value)", self.rows)
        } else {
            format!("{} rows × {} columns", self.rows, self.columns)
        };
        format!(
            "{} · {} [{}] · {what}",
            self.name,
            self.dtype.name(),
            dims.join(", ")
        )
    }

    /// Writes every element: the title, then one line per row (its label,
    /// then its cells), streamed as read.
    pub fn write_all(&self, bytes: &[u8], out: &mut impl Write) -> io::Result<()> {
        writeln!(out, "{}", escape::terminal(&self.title()))?;
        let mut line = String::new();
        for row in 0..self.rows {
            line.clear();
            line.push_str(&self.row_label(row));
            for column in 0..self.columns {
                line.push(' ');
                match self.cell(bytes, row, column) {
                    Some(cell) => line.push_str(&cell.text()),
                    None => line.push('?'),
                }
            }
            writeln!(out, "{line}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bef::btf::TensorToWrite;

    fn file() -> Vec<u8> {
        let matrix: Vec<u8> = (0..6i32).flat_map(|v| v.to_le_bytes()).collect();
        bef::btf::write(&[TensorToWrite::Dense {
            dtype: BtfDType::I32,
            dims: &[2, 3],
            data: &matrix,
        }])
        .expect("a BTF file")
    }

    #[test]
    fn a_matrix_is_its_rows_and_columns() {
        let bytes = file();
        let grid = Grid::open(&bytes, 0).expect("tensor 0");
        assert_eq!((grid.rows, grid.columns), (2, 3));
        assert_eq!(
            grid.cell(&bytes, 1, 2).map(Cell::text).as_deref(),
            Some("5")
        );
        assert_eq!(grid.cell(&bytes, 2, 0), None);
        assert_eq!(grid.range, Some((0.0, 5.0)));
        assert_eq!(grid.row_label(1), "[1, :]");
        let mut out = Vec::new();
        grid.write_all(&bytes, &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "tensor 0 · i32 [2, 3] · 2 rows × 3 columns\n[0, :] 0 1 2\n[1, :] 3 4 5\n"
        );
        assert!(Grid::open(&bytes, 1).unwrap_err().contains("out of range"));
    }

    #[test]
    fn elements_alone_make_the_same_grid() {
        let data: Vec<u8> = (0..6i32).flat_map(|v| v.to_le_bytes()).collect();
        let grid = Grid::dense("%2".into(), BtfDType::I32, &[2, 3], &data).expect("a grid");
        let from_file = Grid::open(&file(), 0).expect("tensor 0");
        assert_eq!(
            (grid.rows, grid.columns, grid.range),
            (2, 3, Some((0.0, 5.0)))
        );
        assert_eq!(grid.cell(&data, 1, 2), from_file.cell(&file(), 1, 2));
        assert!(
            grid.title().starts_with("%2 · i32 [2, 3]"),
            "{}",
            grid.title()
        );
        let err = Grid::dense("%2".into(), BtfDType::I32, &[2, 2], &data).unwrap_err();
        assert!(err.contains("24 bytes"), "{err}");
    }
}
