//! What a module carries besides its ops: external resources (the data of
//! `dense_resource` attributes and such) and, for a module read from MLIR
//! bytecode, where it came from.

/// A named group of resources: a dialect's (`builtin` holds the blobs of
/// `dense_resource` attributes) or an external one (keyed by the name of
/// the tool that owns it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceGroup {
    pub owner: ResourceOwner,
    pub entries: Vec<ResourceEntry>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResourceOwner {
    Dialect(String),
    External(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceEntry {
    pub key: String,
    pub value: ResourceValue,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResourceValue {
    /// Raw bytes that must sit at an address aligned to `alignment`.
    Blob {
        alignment: u64,
        data: Vec<u8>,
    },
    Bool(bool),
    String(String),
    /// Declared (referenced) without data, e.g. when the writer elided it.
    Declared,
}

/// Facts about the MLIR bytecode a module was read from, kept so that
/// writing it back at the same version reproduces the file.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BytecodeOrigin {
    pub version: u64,
    pub producer: String,
    /// Op names the producer had registered (known only from version 5,
    /// where op names carry that flag), sorted.
    pub registered_ops: Vec<String>,
    /// Dialect version blobs (version 1+), by dialect name, in file order.
    pub dialect_versions: Vec<(String, Vec<u8>)>,
}

impl BytecodeOrigin {
    pub fn is_registered(&self, op_name: &str) -> bool {
        self.registered_ops
            .binary_search_by(|name| name.as_str().cmp(op_name))
            .is_ok()
    }
}
