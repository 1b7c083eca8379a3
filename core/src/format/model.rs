//! An owned, offset-free model of a BEF module: what the encoder writes and
//! what `BefFile::to_module` reads back. Tables keep their order so that a
//! module decoded from a reference file re-encodes to the same bytes.

use super::attr::Attribute;
use super::constants::FunctionKind;
use super::location::Location;

/// A whole BEF module with indices in place of offsets.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Module {
    /// Kernel names; a kernel's `code` indexes this table.
    pub kernel_names: Vec<String>,
    /// Type names in MLIR's printed form (`i32`, `!tfrt.chain`).
    pub types: Vec<String>,
    /// Top-level attributes in Attributes-section order, de-duplicated;
    /// kernels refer to them by position.
    pub attributes: Vec<Attribute>,
    /// The FunctionIndex, in order; kernels refer to functions by position.
    pub functions: Vec<Function>,
    /// Write the AttributeTypes, AttributeNames and RegisterTypes sections
    /// (needed to turn BEF back into text, not to run it).
    pub optional_sections: bool,
    /// Strings the Strings section holds although nothing refers to them.
    /// The reference encoder adds the name of every attribute that holds an
    /// array of symbol references (`branches` of `tfrt.case`) although only
    /// the functions are written.
    pub extra_strings: Vec<String>,
    /// Signature metadata of the functions that have some, by increasing
    /// function index (the Signatures section, written when not empty).
    pub signatures: Vec<super::signatures::FunctionSignatures>,
}

/// One FunctionIndex entry and, unless native, its body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Function {
    /// How the function runs.
    pub kind: FunctionKind,
    /// Empty for functions made from regions.
    pub name: String,
    /// Indices into `Module::types`.
    pub arg_types: Vec<u32>,
    /// Indices into `Module::types`.
    pub result_types: Vec<u32>,
    /// `None` exactly for native functions.
    pub body: Option<Body>,
}

/// The body of a BEF or sync function.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Body {
    /// `None` stands for a location the writer could not encode (a
    /// "virtual" offset).
    pub location: Option<Location>,
    /// Registers: arguments first, then op results in op order.
    pub num_registers: u32,
    /// Type index per register; empty unless optional sections are written.
    pub register_types: Vec<u32>,
    /// The kernel table. Entry 0 is the pseudo kernel that publishes the
    /// arguments; used-by lists index this table.
    pub kernels: Vec<Kernel>,
    /// Registers returned, one per function result.
    pub results: Vec<u32>,
}

/// One kernel (op) of a function body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kernel {
    /// Index into `Module::kernel_names`, or `PSEUDO_KERNEL_CODE`.
    pub code: u32,
    /// Where the kernel's location field points.
    pub location: KernelLocation,
    /// Argument registers, duplicates allowed.
    pub args: Vec<u32>,
    /// Indices into `Module::attributes`.
    pub attributes: Vec<u32>,
    /// Attribute names, parallel to `attributes`; empty unless optional
    /// sections are written.
    pub attribute_names: Vec<String>,
    /// Indices into `Module::functions`.
    pub functions: Vec<u32>,
    /// Result registers.
    pub results: Vec<u32>,
    /// Per result, the kernel-table indices of its users, once per use.
    pub used_by: Vec<Vec<u32>>,
    /// Stream the kernel runs on (see `KernelEntry::stream_id`).
    pub stream_id: u64,
}

/// The location field of a kernel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KernelLocation {
    /// The pseudo kernel's fixed `0xCDCDCDCD`.
    Pseudo,
    /// A location the writer could not encode.
    Virtual,
    /// A location written in the Locations section.
    At(Location),
}

impl Kernel {
    /// The pseudo kernel of a function with `num_args` arguments and
    /// `num_registers` registers; `used_by[0]` lists the kernels without
    /// operands, `used_by[1 + i]` the users of argument `i`.
    pub fn pseudo(
        num_args: u32,
        num_registers: u32,
        used_by: Vec<Vec<u32>>,
        stream_id: u64,
    ) -> Kernel {
        let mut results = vec![num_registers];
        results.extend(0..num_args);
        Kernel {
            code: super::constants::PSEUDO_KERNEL_CODE,
            location: KernelLocation::Pseudo,
            args: Vec::new(),
            attributes: Vec::new(),
            attribute_names: Vec::new(),
            functions: Vec::new(),
            results,
            used_by,
            stream_id,
        }
    }
}

impl Body {
    /// Fills every kernel's used-by lists from the argument lists, listing
    /// users in kernel-table order (the pseudo kernel's result 0 is used by
    /// every kernel without operands).
    pub fn compute_used_by(&mut self) {
        let num_registers = self.num_registers as usize;
        let mut users: Vec<Vec<u32>> = vec![Vec::new(); num_registers + 1];
        for (index, kernel) in self.kernels.iter().enumerate().skip(1) {
            if kernel.args.is_empty() {
                users[num_registers].push(index as u32);
            }
            for &arg in &kernel.args {
                if let Some(list) = users.get_mut(arg as usize) {
                    list.push(index as u32);
                }
            }
        }
        for kernel in &mut self.kernels {
            kernel.used_by = kernel
                .results
                .iter()
                .map(|&reg| users.get(reg as usize).cloned().unwrap_or_default())
                .collect();
        }
    }
}
