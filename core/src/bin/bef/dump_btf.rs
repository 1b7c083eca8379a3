//! `bef dump FILE.btf`: one line per tensor of a Binary Tensor Format
//! file, written as each is summarized, so that memory stays flat
//! however many tensors the file declares.

use std::io::Write;

use bef::btf::summary::{self, ScanBudget, Statistics, TensorSummary};
use bef::btf::{FileSource, SliceSource, Source};

use crate::console;
use crate::failure::Failure;
use crate::input::Input;

/// Damaged records reported in full on standard error; the rest are counted.
const REPORTED_PROBLEMS: usize = 100;

use bef::btf::summary::COLUMNS as HEADING;

/// Lists `input` as BTF. Damaged records are listed as unreadable, their
/// errors (each naming the tensor and the part of its record, never a
/// value read from the file) follow on standard error, and the command
/// fails. Records past the scan budget are listed as skipped.
pub fn write(input: &Input, out: &mut impl Write) -> Result<(), Failure> {
    let bytes = input.bytes();
    // A file is read a chunk at a time rather than through its mapping, so
    // that scanning a large tensor keeps memory flat; standard input is
    // already in memory.
    let mut file_source;
    let mut slice_source;
    // (A FIFO or device was read whole and is not opened again.)
    let regular =
        input.path.as_os_str() != "-" && std::fs::metadata(&input.path).is_ok_and(|m| m.is_file());
    let source: &mut dyn Source = match regular.then(|| std::fs::File::open(&input.path)) {
        Some(Ok(file)) => {
            file_source = FileSource::new(file, bytes.len() as u64);
            &mut file_source
        }
        _ => {
            slice_source = SliceSource(bytes);
            &mut slice_source
        }
    };
    let mut budget = ScanBudget::for_file(bytes.len() as u64);
    let (count, tensors) = summary::summaries(source, &mut budget)
        .map_err(|e| Failure::Message(format!("{} is not valid BTF: {e}", input.name)))?;
    let plural = if count == 1 { "" } else { "s" };
    writeln!(
        out,
        "{}: BTF, {count} tensor{plural}, {} bytes",
        input.name,
        bytes.len()
    )?;
    if count == 0 {
        return Ok(());
    }
    writeln!(out, "{}", line(&HEADING.map(String::from)))?;
    let (mut problems, mut skipped) = (0usize, false);
    for (index, summary) in tensors.enumerate() {
        match summary {
            Ok(summary) => {
                skipped |= summary.statistics == Statistics::Skipped;
                writeln!(out, "{}", row(&summary))?;
            }
            Err(error) if error.is_not_scanned() => {
                skipped = true;
                writeln!(out, "{index:>5}  skipped (not checked)")?;
            }
            Err(error) => {
                // The error names the part of the record, never where it is.
                writeln!(out, "{index:>5}  unreadable")?;
                if problems < REPORTED_PROBLEMS {
                    console::err_line(&format!("error: {} is not valid BTF: {error}", input.name));
                }
                problems += 1;
            }
        }
    }
    if skipped {
        writeln!(
            out,
            "(tensors and statistics marked `skipped`: the file's records share bytes, and \
             scanning stops after its size plus {} MiB)",
            summary::EXTRA_SCAN_BYTES >> 20
        )?;
    }
    out.flush()?;
    match problems {
        0 => Ok(()),
        n if n > REPORTED_PROBLEMS => {
            console::err_line(&format!(
                "error: {}: {} more unreadable tensors",
                input.name,
                n - REPORTED_PROBLEMS
            ));
            Err(Failure::Reported)
        }
        _ => Err(Failure::Reported),
    }
}

/// One tensor's line, in the columns of [`HEADING`].
fn row(summary: &TensorSummary) -> String {
    let [min, max, mean, nan] = summary.statistics_cells();
    line(&[
        summary.index.to_string(),
        summary.dtype.name().to_owned(),
        summary.layout_name().to_owned(),
        summary.shape_text(),
        summary.offset.to_string(),
        summary.data_offset.to_string(),
        min,
        max,
        mean,
        nan,
        summary.preview_text(),
    ])
}

/// Cells padded to their columns: numbers to the right, names to the
/// left, the first values last and unpadded.
fn line(cells: &[String; 11]) -> String {
    let [
        index,
        dtype,
        layout,
        shape,
        offset,
        data,
        min,
        max,
        mean,
        nan,
        values,
    ] = cells;
    format!(
        "{index:>5}  {dtype:<5}  {layout:<6}  {shape:<18}  {offset:>10}  {data:>10}  \
         {min:>12}  {max:>12}  {mean:>12}  {nan:>5}  {values}"
    )
}
