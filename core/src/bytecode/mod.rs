//! MLIR bytecode: reader and writer for every version of the format (0-6),
//! interoperable with upstream MLIR. See `../shared/spec/mlir-bytecode.md`.
//!
//! - `read` decodes a file into an `ir::Module` (version, producer,
//!   registered op names and resources kept in `Module::origin` and
//!   `Module::resources`); `Structure::parse` frames a file without
//!   decoding it (used by `bef dump`).
//! - `write` encodes a module at any version, numbering attributes, types,
//!   op names and strings as upstream does, so re-writing an upstream file
//!   at its version reproduces its bytes.

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
pub use writer::{WriteOptions, Written, write};

/// `ML\xefR`
pub const MAGIC: [u8; 4] = [0x4D, 0x4C, 0xEF, 0x52];

/// The newest version this crate reads and writes (and writes by default).
pub const MAX_VERSION: u64 = 6;

/// The producer string written by default.
pub const DEFAULT_PRODUCER: &str = "MLIR24.0.0git";

/// Section ids.
pub mod section {
    pub const STRING: u8 = 0;
    pub const DIALECT: u8 = 1;
    pub const ATTR_TYPE: u8 = 2;
    pub const ATTR_TYPE_OFFSET: u8 = 3;
    pub const IR: u8 = 4;
    pub const RESOURCE: u8 = 5;
    pub const RESOURCE_OFFSET: u8 = 6;
    pub const DIALECT_VERSIONS: u8 = 7;
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
