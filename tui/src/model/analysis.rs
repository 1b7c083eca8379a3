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

/// Something that uses a string, attribute or type; small, so that a
/// file with millions of uses stays cheap, and named when shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum User {
    /// Entry N of the Kernels section.
    KernelName(u32),
    /// Entry N of the Types section.
    Type(u32),
    /// Function N's name.
    Function(u32),
    /// Argument `index` of function `function`.
    Argument {
        /// The function.
        function: u32,
        /// The argument.
        index: u32,
    },
    /// Result `index` of function `function`.
    Result {
        /// The function.
        function: u32,
        /// The result.
        index: u32,
    },
    /// Kernel `kernel` of function `function`.
    Kernel {
        /// The function.
        function: u32,
        /// The kernel.
        kernel: u32,
    },
    /// The name of an attribute of kernel `kernel` of function `function`
    /// (the AttributeNames section).
    AttributeName {
        /// The function.
        function: u32,
        /// The kernel.
        kernel: u32,
    },
    /// Register `register` of function `function`.
    Register {
        /// The function.
        function: u32,
        /// The register.
        register: u32,
    },
}

impl User {
    /// How the user is shown (`@main kernel 7`).
    pub fn text(self, listing: &Listing<'_>) -> String {
        let name = |f: u32| crate::model::names::function_ref(listing, f);
        match self {
            User::KernelName(i) => format!("kernel name {i}"),
            User::Type(i) => format!("type {i}"),
            User::Function(f) => format!("function {}", name(f)),
            User::Argument { function, index } => format!("{} argument {index}", name(function)),
            User::Result { function, index } => format!("{} result {index}", name(function)),
            User::Kernel { function, kernel } => format!("{} kernel {kernel}", name(function)),
            User::AttributeName { function, kernel } => {
                format!("{} kernel {kernel} attribute name", name(function))
            }
            User::Register { function, register } => {
                format!("{} %{register}", name(function))
            }
        }
    }
}

/// The whole-file results.
#[derive(Debug, Default)]
pub struct Analysis {
    /// Every problem, sorted by offset.
    pub findings: Vec<Finding>,
    /// Users of each string, by its offset in the Strings section.
    pub string_users: HashMap<u64, Vec<User>>,
    /// Users of each attribute, by its position in the attribute list.
    pub attribute_users: HashMap<usize, Vec<User>>,
    /// Users of each type, by type index.
    pub type_users: HashMap<u32, Vec<User>>,
    /// Every kernel but the pseudo kernels, in function order, with its
    /// line in the source file.
    pub kernels: Vec<SourceKernel>,
    /// The item count of each section (`Listing::item_count`), which reads
    /// whole sections: kept off the first frame.
    pub section_items: Vec<Option<usize>>,
}

/// How many users a list keeps by name (the count is always exact).
const NAMED_USERS: usize = 16;

fn add_user<K: std::hash::Hash + Eq>(map: &mut HashMap<K, Vec<User>>, key: K, user: User) {
    map.entry(key).or_default().push(user);
}

impl Analysis {
    /// Decodes everything in `listing` and collects the results; kernel
    /// lines are those of locations in file `source`.
    pub fn new(listing: &Listing<'_>, source: Option<&str>) -> Analysis {
        // The decoder's problems, but for the Functions section's: those
        // come from the one pass over the functions below, which decodes
        // each function and each kernel location once.
        let mut decode_errors: Vec<bef::format::DecodeError> = listing.problems().to_vec();
        for id in bef::format::SectionId::ALL {
            if !matches!(
                id,
                bef::format::SectionId::AttributeTypes | bef::format::SectionId::Functions
            ) {
                decode_errors.extend(listing.section_errors(id));
            }
        }
        let mut verifier_findings: Vec<Finding> = Vec::new();
        if let Err(problems) = bef::format::verify(listing.file()) {
            verifier_findings.extend(problems.into_iter().map(|e| Finding {
                offset: e.offset as usize,
                message: e.message,
                source: FindingSource::Verifier,
            }));
        }

        let mut analysis = Analysis {
            section_items: (0..listing.sections().len())
                .map(|i| listing.item_count(i))
                .collect(),
            ..Analysis::default()
        };
        for row in listing.kernel_names().iter() {
            add_user(
                &mut analysis.string_users,
                row.string_offset,
                User::KernelName(row.index as u32),
            );
        }
        for row in listing.types().iter() {
            add_user(
                &mut analysis.string_users,
                row.string_offset,
                User::Type(row.index as u32),
            );
        }
        for entry in listing.index_entries() {
            let function = entry.index as u32;
            add_user(
                &mut analysis.string_users,
                entry.name_offset,
                User::Function(function),
            );
            for (i, &t) in entry.argument_types.iter().enumerate() {
                add_user(
                    &mut analysis.type_users,
                    t,
                    User::Argument {
                        function,
                        index: i as u32,
                    },
                );
            }
            for (i, &t) in entry.result_types.iter().enumerate() {
                add_user(
                    &mut analysis.type_users,
                    t,
                    User::Result {
                        function,
                        index: i as u32,
                    },
                );
            }
        }
        for f in 0..listing.function_count() {
            let Some(entry) = listing.attribute_names(f) else {
                continue;
            };
            for kernel in 0..entry.kernel_starts.len().saturating_sub(1) {
                for name in entry.kernel(kernel) {
                    add_user(
                        &mut analysis.string_users,
                        name.string_offset,
                        User::AttributeName {
                            function: f as u32,
                            kernel: kernel as u32,
                        },
                    );
                }
            }
        }
        // Decoded one at a time and dropped: caching every function would
        // hold several times the file's size for a file of small kernels.
        listing.visit_functions(|function| {
            let index = function.index as u32;
            decode_errors.extend(function.problems().iter().cloned());
            if let Some(Err(e)) = function.location.map(|offset| listing.location(offset)) {
                decode_errors.push(e);
            }
            for kernel in function.kernels() {
                let location =
                    kernel
                        .location_offset()
                        .and_then(|offset| match listing.location(offset) {
                            Ok(location) => location,
                            Err(e) => {
                                decode_errors.push(e);
                                None
                            }
                        });
                if !kernel.pseudo {
                    let line = source
                        .and_then(|file| crate::model::names::line_of(location.as_ref()?, file));
                    analysis.kernels.push(SourceKernel {
                        function: function.index,
                        kernel: kernel.index,
                        line: line.map(|l| l.saturating_sub(1) as usize),
                    });
                }
                for a in &kernel.attributes {
                    if let Some(attribute) = a.attribute {
                        add_user(
                            &mut analysis.attribute_users,
                            attribute,
                            User::Kernel {
                                function: index,
                                kernel: kernel.index as u32,
                            },
                        );
                    }
                }
            }
            for register in function.registers() {
                if let Some(t) = register.type_index {
                    add_user(
                        &mut analysis.type_users,
                        t,
                        User::Register {
                            function: index,
                            register: register.index as u32,
                        },
                    );
                }
            }
        });
        bef::inspect::sort_errors(&mut decode_errors);
        // The decoder's first: where both report the same problem, the
        // stable sort and the dedup below keep the decoder's.
        analysis.findings = decode_errors
            .into_iter()
            .map(|e| Finding {
                offset: e.offset as usize,
                message: e.message,
                source: FindingSource::Decoder,
            })
            .chain(verifier_findings)
            .collect();
        analysis
            .findings
            .sort_by(|a, b| (a.offset, &a.message).cmp(&(b.offset, &b.message)));
        analysis
            .findings
            .dedup_by(|a, b| a.offset == b.offset && a.message == b.message);
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
pub fn users_text(listing: &Listing<'_>, users: Option<&Vec<User>>) -> String {
    match users {
        None => "0".to_owned(),
        Some(users) => {
            let shown: Vec<String> = users
                .iter()
                .take(NAMED_USERS)
                .map(|u| u.text(listing))
                .collect();
            let more = if users.len() > shown.len() {
                ", …"
            } else {
                ""
            };
            format!("{}: {}{more}", users.len(), shown.join(", "))
        }
    }
}
