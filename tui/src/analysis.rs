//! What needs the whole file decoded: every problem (decoder and verifier)
//! and who uses each string, attribute and type. Computed once, off the UI
//! thread in the terminal (see `terminal`), on demand elsewhere.

use std::collections::HashMap;
use std::ops::Range;

use bef::inspect::Listing;

/// Where a finding comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FindingSource {
    /// The lenient decoder could not read something.
    Decoder,
    /// The structural verifier rejects something that decodes.
    Verifier,
}

/// One problem in the file, at a byte offset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// Absolute offset of the byte where the problem was found.
    pub offset: usize,
    /// What is wrong.
    pub message: String,
    /// Who found it.
    pub source: FindingSource,
}

/// A kernel as the Source tab lists it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SourceKernel {
    /// The function (index into the function index).
    pub function: usize,
    /// The kernel (index into its kernel table).
    pub kernel: usize,
    /// The source line (0-based) its location points at, if any.
    pub line: Option<usize>,
}

/// The whole-file results.
#[derive(Debug, Default)]
pub struct Analysis {
    /// Every problem, sorted by offset.
    pub findings: Vec<Finding>,
    /// Users of each string, by its offset in the Strings section.
    pub string_users: HashMap<u64, Vec<String>>,
    /// Users of each attribute, by its position in the attribute list.
    pub attribute_users: HashMap<usize, Vec<String>>,
    /// Users of each type, by type index.
    pub type_users: HashMap<u32, Vec<String>>,
    /// Every kernel but the pseudo kernels, in function order, with its
    /// line in the source file.
    pub kernels: Vec<SourceKernel>,
}

/// How many users a list keeps by name (the count is always exact).
const NAMED_USERS: usize = 16;

fn add_user<K: std::hash::Hash + Eq>(map: &mut HashMap<K, Vec<String>>, key: K, user: String) {
    map.entry(key).or_default().push(user);
}

impl Analysis {
    /// Decodes everything in `listing` and collects the results; kernel
    /// lines are those of locations in file `source`.
    pub fn new(listing: &Listing<'_>, source: Option<&str>) -> Analysis {
        let mut findings: Vec<Finding> = listing
            .errors()
            .iter()
            .map(|e| Finding {
                offset: e.offset as usize,
                message: e.message.clone(),
                source: FindingSource::Decoder,
            })
            .collect();
        if let Err(problems) = bef::format::verify(listing.file()) {
            findings.extend(problems.into_iter().map(|e| Finding {
                offset: e.offset as usize,
                message: e.message,
                source: FindingSource::Verifier,
            }));
        }
        findings.sort_by(|a, b| (a.offset, &a.message).cmp(&(b.offset, &b.message)));
        findings.dedup_by(|a, b| a.offset == b.offset && a.message == b.message);

        let mut analysis = Analysis {
            findings,
            ..Analysis::default()
        };
        for row in listing.kernel_names().iter() {
            add_user(
                &mut analysis.string_users,
                row.string_offset,
                format!("kernel name {}", row.index),
            );
        }
        for row in listing.types().iter() {
            add_user(
                &mut analysis.string_users,
                row.string_offset,
                format!("type {}", row.index),
            );
        }
        for entry in listing.index_entries() {
            let name = crate::names::function_name(entry.name);
            add_user(
                &mut analysis.string_users,
                entry.name_offset,
                format!("function {name}"),
            );
            for (i, &t) in entry.argument_types.iter().enumerate() {
                add_user(&mut analysis.type_users, t, format!("{name} argument {i}"));
            }
            for (i, &t) in entry.result_types.iter().enumerate() {
                add_user(&mut analysis.type_users, t, format!("{name} result {i}"));
            }
        }
        for function in listing.functions() {
            let name = crate::names::function_name(function.name);
            for kernel in function.kernels() {
                if !kernel.pseudo {
                    let line = source.and_then(|file| {
                        let location = listing.location(kernel.location_offset()?).ok()??;
                        crate::views::source::line_of(&location, file)
                    });
                    analysis.kernels.push(SourceKernel {
                        function: function.index,
                        kernel: kernel.index,
                        line: line.map(|l| l.saturating_sub(1) as usize),
                    });
                }
                for a in &kernel.attributes {
                    if let Some(index) = a.attribute {
                        add_user(
                            &mut analysis.attribute_users,
                            index,
                            format!("{name} kernel {}", kernel.index),
                        );
                    }
                }
            }
            for register in function.registers() {
                if let Some(t) = register.type_index {
                    add_user(
                        &mut analysis.type_users,
                        t,
                        format!("{name} %{}", register.index),
                    );
                }
            }
        }
        analysis
    }

    /// The findings inside `range`.
    pub fn findings_in(&self, range: Range<usize>) -> &[Finding] {
        let start = self.findings.partition_point(|f| f.offset < range.start);
        let end = self.findings.partition_point(|f| f.offset < range.end);
        &self.findings[start..end.max(start)]
    }
}

/// A user list as one cell: the count, and the first users by name.
pub fn users_text(users: Option<&Vec<String>>) -> String {
    match users {
        None => "0".to_owned(),
        Some(users) => {
            let shown: Vec<&str> = users.iter().take(NAMED_USERS).map(String::as_str).collect();
            let more = if users.len() > shown.len() {
                ", …"
            } else {
                ""
            };
            format!("{}: {}{more}", users.len(), shown.join(", "))
        }
    }
}
