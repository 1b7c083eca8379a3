//! `bef dump FILE.btf`: one line per tensor of a Binary Tensor Format
//! file, written as each is summarized, so that memory stays flat
//! however many tensors the file declares.

use std::io::Write;

use bef::btf::BtfFile;
use bef::btf::summary::{self, ScanBudget, Statistics, TensorSummary};

use crate::console;
use crate::failure::Failure;
use crate::input::Input;

/// Damaged records reported in full on standard error; the rest are counted.
const REPORTED_PROBLEMS: usize = 100;

/// The column headings, padded as [`row`] pads its cells.
const HEADING: &str = "    #  dtype  layout  shape                offset     data at          min          max         mean    NaN  first values";

/// Lists `input` as BTF. Damaged records are listed as unreadable, their
/// errors (each naming its offset) follow on standard error, and the
/// command fails.
pub fn write(input: &Input, out: &mut impl Write) -> Result<(), Failure> {
    let bytes = input.bytes();
    let file = BtfFile::parse(bytes)
        .map_err(|e| Failure::Message(format!("{} is not valid BTF: {e}", input.name)))?;
    let plural = if file.len() == 1 { "" } else { "s" };
    writeln!(
        out,
        "{}: BTF, {} tensor{plural}, {} bytes",
        input.name,
        file.len(),
        bytes.len()
    )?;
    if file.is_empty() {
        return Ok(());
    }
    writeln!(out, "{HEADING}")?;
    let (mut problems, mut skipped) = (0usize, false);
    for (index, summary) in
        summary::summaries(&file, ScanBudget::for_file(bytes.len() as u64)).enumerate()
    {
        match summary {
            Ok(summary) => {
                skipped |= summary.statistics == Statistics::Skipped;
                writeln!(out, "{}", row(&summary))?;
            }
            Err(error) => {
                writeln!(out, "{index:>5}  unreadable (offset {})", error.offset)?;
                if problems < REPORTED_PROBLEMS {
                    console::err_line(&format!(
                        "error: {} is not valid BTF: tensor {index}: {error}",
                        input.name
                    ));
                }
                problems += 1;
            }
        }
    }
    if skipped {
        writeln!(
            out,
            "(statistics marked `skipped`: the file's records share bytes, and scanning \
             stops after its size plus {} MiB)",
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
    format!(
        "{:>5}  {:<5}  {:<6}  {:<18}  {:>8}  {:>10}  {min:>11}  {max:>11}  {mean:>11}  {nan:>5}  {}",
        summary.index,
        summary.dtype.name(),
        summary.layout_name(),
        summary.shape_text(),
        summary.offset,
        summary.data_offset,
        summary.preview_text(),
    )
}
