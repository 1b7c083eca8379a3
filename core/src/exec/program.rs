//! A loaded BEF program: the file's bytes, every kernel name resolved to an
//! implementation, and each function's tables decoded once (on first call)
//! into the compact form the executor reads.

use std::ops::Range;
use std::sync::{Arc, OnceLock};

use self_cell::self_cell;

use super::error::LoadError;
use super::registry::{KernelImpl, KernelRegistry, NativeFn};
use super::tables::FunctionTables;
use crate::format::location::LocationDecoder;
use crate::format::{
    BefBuffer, BefFile, DecodeError, FunctionKind, Location as BefLocation, SectionId,
};
use crate::runtime::Location;

self_cell!(
    /// The buffer and the zero-copy view over it.
    struct LoadedFile {
        owner: BefBuffer,
        #[not_covariant]
        dependent: BefFile,
    }
);

/// What the runtime knows about one entry of the FunctionIndex.
#[derive(Debug, Clone)]
pub struct FunctionInfo {
    /// The function's name (empty for the body of a region).
    pub name: String,
    /// Whether the executor, the sync interpreter or native code runs it.
    pub kind: FunctionKind,
    /// Argument type names (`i32`, `!tfrt.chain`, ...).
    pub argument_types: Vec<String>,
    /// Result type names.
    pub result_types: Vec<String>,
}

/// A BEF file ready to run. Shared (`Arc`) by every execution and by the
/// [`Function`](super::Function) handles kernels hold.
pub struct Program {
    file: LoadedFile,
    /// A name for diagnostics (usually the path).
    name: String,
    attributes: Range<usize>,
    kernel_names: Vec<String>,
    kernels: Vec<KernelImpl>,
    functions: Vec<FunctionInfo>,
    natives: Vec<Option<NativeFn>>,
    tables: Vec<OnceLock<Result<Arc<FunctionTables>, LoadError>>>,
}

impl std::fmt::Debug for Program {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Program")
            .field("name", &self.name)
            .field("functions", &self.functions.len())
            .field("kernels", &self.kernel_names.len())
            .finish()
    }
}

impl Program {
    /// Opens `buffer` and resolves every kernel and native function against
    /// `registry`. An unknown kernel name fails with `unknown kernel name
    /// 'X'` at the location of the first kernel using it.
    pub fn load(
        buffer: BefBuffer,
        name: impl Into<String>,
        registry: &KernelRegistry,
    ) -> Result<Arc<Program>, LoadError> {
        let name = name.into();
        let file =
            LoadedFile::try_new(buffer, |buffer| buffer.open()).map_err(LoadError::decode)?;
        let (attributes, kernel_names, functions) = file
            .with_dependent(|_, bef| -> Result<_, DecodeError> {
                // What `bef verify` rejects never runs: its checks (used-by
                // lists, definitions before use, kernels that can never
                // become ready) are what the executor relies on.
                // The first problem is reported; `bef verify` lists them all.
                if let Err(mut problems) = crate::format::verify(bef) {
                    return Err(problems.swap_remove(0));
                }
                let attributes = section_range(bef, SectionId::Attributes);
                let kernel_names: Vec<String> =
                    bef.kernel_names()?.iter().map(|s| s.to_string()).collect();
                let types = bef.type_names()?;
                let type_name = |i: &u32| -> Result<String, DecodeError> {
                    types
                        .get(*i as usize)
                        .map(|s| s.to_string())
                        .ok_or_else(|| {
                            DecodeError::new(
                                bef.section(SectionId::FunctionIndex)
                                    .map_or(0, |s| s.data_offset),
                                format!("type index {i} is out of range ({} types)", types.len()),
                            )
                        })
                };
                let mut functions = Vec::with_capacity(bef.functions().len());
                for (i, entry) in bef.functions().iter().enumerate() {
                    functions.push(FunctionInfo {
                        name: entry.name.to_string(),
                        kind: entry.kind,
                        argument_types: bef
                            .function_arg_types(i)
                            .iter()
                            .map(type_name)
                            .collect::<Result<_, _>>()?,
                        result_types: bef
                            .function_result_types(i)
                            .iter()
                            .map(type_name)
                            .collect::<Result<_, _>>()?,
                    });
                }
                Ok((attributes, kernel_names, functions))
            })
            .map_err(LoadError::decode)?;
        let tables = functions.iter().map(|_| OnceLock::new()).collect();
        let mut program = Program {
            file,
            name,
            attributes,
            kernel_names,
            kernels: Vec::new(),
            functions,
            natives: Vec::new(),
            tables,
        };
        let mut kernels = Vec::with_capacity(program.kernel_names.len());
        for (code, kernel_name) in program.kernel_names.iter().enumerate() {
            match registry.kernel(kernel_name) {
                Some(kernel) => kernels.push(kernel),
                None => return Err(program.unknown_kernel(code as u32)),
            }
        }
        program.kernels = kernels;
        let mut natives = Vec::with_capacity(program.functions.len());
        for info in &program.functions {
            if info.kind != FunctionKind::Native {
                natives.push(None);
                continue;
            }
            match registry.native_function(&info.name) {
                Some(f) => natives.push(Some(f)),
                None => {
                    return Err(LoadError::new(format!(
                        "unknown native function '{}'",
                        info.name
                    )));
                }
            }
        }
        program.natives = natives;
        Ok(Arc::new(program))
    }

    /// The error for kernel `code`, located at its first use in function
    /// index order (the error path only, so a scan is fine).
    fn unknown_kernel(&self, code: u32) -> LoadError {
        let message = format!("unknown kernel name '{}'", self.kernel_names[code as usize]);
        let location = self.file.with_dependent(|_, bef| {
            for index in 0..bef.functions().len() {
                let Ok(body) = bef.body(index) else { continue };
                for record in body.kernel_records().skip(1) {
                    if record.code() == code {
                        return Some(record.location());
                    }
                }
            }
            None
        });
        let location = location.and_then(|offset| self.location(offset));
        LoadError::new(message).at(location)
    }

    /// A name for diagnostics.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The BEF file's bytes.
    pub fn bytes(&self) -> &[u8] {
        self.file.borrow_owner().bytes()
    }

    /// The Attributes section.
    #[inline]
    pub fn attribute_bytes(&self) -> &[u8] {
        &self.bytes()[self.attributes.clone()]
    }

    /// The functions of the FunctionIndex, in order.
    pub fn functions(&self) -> &[FunctionInfo] {
        &self.functions
    }

    /// The position of the function named `name`, if there is one.
    pub fn function_named(&self, name: &str) -> Option<usize> {
        self.functions.iter().position(|f| f.name == name)
    }

    /// The call signature of function `index`: its types refined by its
    /// signature metadata (strictly read), or why the metadata does not
    /// fit the function.
    pub fn call_signature(&self, index: usize) -> Result<crate::abi::call::CallSignature, String> {
        self.file.with_dependent(|_, bef| {
            crate::abi::function::call_signature_in_file(bef, index, crate::abi::Mode::Strict)
        })
    }

    /// The kernel names, by kernel code.
    pub fn kernel_names(&self) -> &[String] {
        &self.kernel_names
    }

    pub(crate) fn native(&self, index: usize) -> Option<NativeFn> {
        self.natives.get(index).copied().flatten()
    }

    /// The decoded tables of BEF or sync function `index` (decoded and
    /// validated on first use, then shared).
    pub fn tables(&self, index: usize) -> Result<&Arc<FunctionTables>, &LoadError> {
        self.tables[index]
            .get_or_init(|| {
                self.file.with_dependent(|_, bef| {
                    let implementation = |code: u32| self.kernels.get(code as usize).copied();
                    FunctionTables::decode(bef, index, self.kernel_names.len(), &implementation)
                        .map(Arc::new)
                })
            })
            .as_ref()
    }

    /// A diagnostic about kernel `kernel_code` at location `location`: the
    /// kernel's name is put in front of `message` (which says what it did).
    pub(crate) fn kernel_diagnostic(
        &self,
        kernel_code: u32,
        location: u32,
        message: &str,
        code: crate::runtime::ErrorCode,
    ) -> crate::runtime::Diagnostic {
        let name = self
            .kernel_names
            .get(kernel_code as usize)
            .map_or("?", String::as_str);
        let mut diag =
            crate::runtime::Diagnostic::new(format!("kernel '{name}' {message}")).with_code(code);
        diag.location = self.location(location);
        diag
    }

    /// Decodes the location at `offset` of the Locations section to the
    /// first file:line:col it contains (`None` for unknown or bad offsets).
    pub fn location(&self, offset: u32) -> Option<Location> {
        self.decoded_location(offset)
            .and_then(|decoded| first_file_line_col(&decoded))
    }

    /// The debug info of the location at `offset` of the Locations
    /// section: the names it carries, as the reference derives them (see
    /// `debug_info_of`); `None` when it names nothing, or for bad
    /// offsets.
    pub fn debug_info(&self, offset: u32) -> Option<String> {
        self.decoded_location(offset)
            .and_then(|decoded| debug_info_of(&decoded))
    }

    /// The location record at `offset`, decoded (`None` for unknown or bad
    /// offsets, or a file without locations).
    fn decoded_location(&self, offset: u32) -> Option<BefLocation> {
        self.file.with_dependent(|_, bef| {
            let (locations, locations_base) = section_slice(bef, SectionId::Locations);
            let (strings, strings_base) = section_slice(bef, SectionId::LocationStrings);
            let decoder = LocationDecoder {
                locations,
                locations_base,
                strings,
                strings_base,
            };
            decoder.decode_at(u64::from(offset)).ok()
        })
    }
}

fn section_range(bef: &BefFile<'_>, id: SectionId) -> Range<usize> {
    match bef.section(id) {
        Some(s) => s.data_offset as usize..(s.data_offset + s.len) as usize,
        None => 0..0,
    }
}

fn section_slice<'a>(bef: &BefFile<'a>, id: SectionId) -> (&'a [u8], u64) {
    let range = section_range(bef, id);
    (&bef.bytes()[range.clone()], range.start as u64)
}

/// The first file:line:col in a location tree (the callee first for call
/// sites, as MLIR reports them), iteratively to bound the stack.
/// The debug info a location carries, following the reference: a name
/// location gives its name, a call site its callee's debug info, a fused
/// location the debug infos of its parts joined without separator, and a
/// file position or an unknown location none. Nesting is bounded by the
/// location decoder.
pub(crate) fn debug_info_of(location: &BefLocation) -> Option<String> {
    match location {
        BefLocation::Unknown | BefLocation::FileLineCol { .. } => None,
        BefLocation::Name { name, .. } => Some(name.clone()),
        BefLocation::CallSite { callee, .. } => debug_info_of(callee),
        BefLocation::Fused(parts) => {
            let names: Vec<String> = parts.iter().filter_map(debug_info_of).collect();
            (!names.is_empty()).then(|| names.concat())
        }
    }
}

fn first_file_line_col(location: &BefLocation) -> Option<Location> {
    let mut stack = vec![location];
    while let Some(loc) = stack.pop() {
        match loc {
            BefLocation::Unknown => {}
            BefLocation::FileLineCol { file, line, column } => {
                return Some(Location {
                    file: file.to_string(),
                    line: u32::try_from(*line).unwrap_or(u32::MAX),
                    column: u32::try_from(*column).unwrap_or(u32::MAX),
                });
            }
            BefLocation::Name { child, .. } => stack.push(child),
            BefLocation::CallSite { callee, caller } => {
                stack.push(caller);
                stack.push(callee);
            }
            BefLocation::Fused(children) => stack.extend(children.iter().rev()),
        }
    }
    None
}
