//! MLIR bytecode: reader and writer for every version of the format (0-6),
//! interoperable with upstream MLIR (the format of `mlir/lib/Bytecode`).
//!
//! - `read` decodes a file into an `ir::Module` (version, producer,
//!   registered op names and resources kept in `Module::origin` and
//!   `Module::resources`); `Structure::parse` frames a file without
//!   decoding it (used by `bef dump`).
//! - `write` encodes a module at any version, numbering attributes, types,
//!   op names and strings as upstream does, so re-writing an upstream file
//!   at its version reproduces its bytes.
//!
//! ```
//! use bef::bytecode::{WriteOptions, ir_as_read, read, write};
//!
//! let module = bef::text::parse_module(
//!     "func.func @main() -> i32 {\n  %c = tfrt.constant.i32 7\n  tfrt.return %c : i32\n}\n",
//!     "seven.mlir",
//! )?;
//! for version in [0, 6] {
//!     let options = WriteOptions { version, ..WriteOptions::default() };
//!     let written = write(&module, &options)?;
//!     assert!(bef::bytecode::is_bytecode(&written.bytes));
//!     let back = read(&written.bytes)?;
//!     assert_eq!(ir_as_read(back, version), ir_as_read(module.clone(), version));
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod builtin_attrs;
mod builtin_types;
mod compare;
pub mod dump;
mod encoding;
mod entries;
mod error;
pub mod ops;
mod reader;
mod writer;

pub use compare::ir_as_read;
pub use error::{BytecodeError, Result};
pub use reader::{
    LazyModule, MAX_BUFFER_ALIGNMENT, Structure, is_bytecode, read, read_aligned, read_lazy,
};
pub use writer::{WriteOptions, Written, write, write_splitting};

/// `ML\xefR`
pub const MAGIC: [u8; 4] = [0x4D, 0x4C, 0xEF, 0x52];

/// The newest version this crate reads and writes (and writes by default).
pub const MAX_VERSION: u64 = 6;

/// The producer string written by default.
pub const DEFAULT_PRODUCER: &str = "MLIR24.0.0git";

/// Section ids.
pub mod section {
    /// Interned strings.
    pub const STRING: u8 = 0;
    /// Dialect names, op names and (nested) dialect versions.
    pub const DIALECT: u8 = 1;
    /// The attribute and type entries.
    pub const ATTR_TYPE: u8 = 2;
    /// Per dialect, the size of each attribute and type entry.
    pub const ATTR_TYPE_OFFSET: u8 = 3;
    /// The top-level op and its nested regions.
    pub const IR: u8 = 4;
    /// Dialect resource and external resource data.
    pub const RESOURCE: u8 = 5;
    /// Per resource group, the key, kind and size of each entry.
    pub const RESOURCE_OFFSET: u8 = 6;
    /// Dialect version blobs; only nested inside the Dialect section.
    pub const DIALECT_VERSIONS: u8 = 7;
    /// Native properties of ops (version 5+).
    pub const PROPERTIES: u8 = 8;
}

/// Section names by id, as upstream's diagnostics spell them.
pub const SECTION_NAMES: [&str; 9] = [
    "String",
    "Dialect",
    "AttrType",
    "AttrTypeOffset",
    "IR",
    "Resource",
    "ResourceOffset",
    "DialectVersions",
    "Properties",
];
