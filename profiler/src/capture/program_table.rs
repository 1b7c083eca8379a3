//! The program's static structure as a recording keeps it, read from the
//! BEF bytes through `bef::inspect`: function names and kinds (an
//! anonymous function named by the region it holds,
//! [`Listing::region_names`]), each
//! kernel's name, BEF offset, source location and stream, and which
//! kernels read each register (the consumers of every dataflow edge).

use std::fmt::Write as _;

use bef::exec::Program;
use bef::inspect::Listing;

use crate::capture::recording::{FunctionInfo, FunctionKind, KernelInfo, RegisterInfo};

/// Room for a typical location's text (`"file.mlir":line:column`).
const LOCATION_CAPACITY: usize = 64;

/// What the pseudo kernel that publishes a function's arguments is called.
pub const ARGUMENTS: &str = "(arguments)";

/// The table of every function of `program`.
pub fn program_table(program: &Program) -> Vec<FunctionInfo> {
    // A program that loaded decodes; a listing that fails leaves the names
    // the program itself knows.
    let listing = Listing::new(program.bytes()).ok();
    let region_names = listing.as_ref().map(Listing::region_names);
    program
        .functions()
        .iter()
        .enumerate()
        .map(|(index, info)| {
            let region = region_names
                .as_ref()
                .and_then(|names| names.get(index)?.clone());
            let mut function = FunctionInfo {
                name: match region {
                    Some(region) if info.name.is_empty() => region,
                    _ => info.name.clone(),
                },
                kind: FunctionKind::from(info.kind),
                kernels: Vec::new(),
                registers: Vec::new(),
                signature: listing
                    .as_ref()
                    .and_then(|l| l.signature(index))
                    .map(|row| match row.raw {
                        Ok(raw) => {
                            format!("{} [{raw}]", row.structured.unwrap_or(row.readable))
                        }
                        Err(e) => format!("unusable signature: {e}"),
                    })
                    .unwrap_or_default(),
            };
            let body = listing.as_ref().and_then(|l| Some((l, l.function(index)?)));
            if let Some((listing, body)) = body {
                function.kernels = body
                    .kernels()
                    .iter()
                    .map(|k| KernelInfo {
                        name: match k.name {
                            _ if k.pseudo => ARGUMENTS.to_string(),
                            Some(name) => name.to_string(),
                            None => format!("kernel#{}", k.code),
                        },
                        bef_offset: k.range.start as u64,
                        location: k
                            .location_offset()
                            .and_then(|offset| listing.location(offset).ok().flatten())
                            .map(|l| {
                                // Sized once: `to_string` grew it a few
                                // times per kernel.
                                let mut text = String::with_capacity(LOCATION_CAPACITY);
                                let _ = write!(text, "{l}");
                                text
                            })
                            .unwrap_or_default(),
                        stream: k.stream_id,
                    })
                    .collect();
                function.registers = body
                    .registers()
                    .map(|r| RegisterInfo {
                        users: r.users.to_vec(),
                    })
                    .collect();
            }
            function
        })
        .collect()
}
