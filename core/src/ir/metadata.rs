//! What a module carries besides its ops: external resources (the data of
//! `dense_resource` attributes and such) and, for a module read from MLIR
//! bytecode, where it came from.

/// A named group of resources: a dialect's (`builtin` holds the blobs of
/// `dense_resource` attributes) or an external one (keyed by the name of
/// the tool that owns it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceGroup {
    /// Who owns the resources.
    pub owner: ResourceOwner,
    /// The resources, in file order.
    pub entries: Vec<ResourceEntry>,
}

/// The owner of a resource group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResourceOwner {
    /// A dialect, by namespace (`builtin`).
    Dialect(String),
    /// Something outside the IR, by its key (a tool's name).
    External(String),
}

/// One resource: a key and its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceEntry {
    /// The key, unique within its group; `dense_resource` handles name it.
    pub key: String,
    /// The resource's data.
    pub value: ResourceValue,
}

/// The data of a resource.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResourceValue {
    /// Raw bytes that must sit at an address aligned to `alignment`.
    Blob {
        /// Required alignment of the data's address, in bytes (a power of two).
        alignment: u64,
        /// The blob's bytes.
        data: Vec<u8>,
    },
    /// A boolean.
    Bool(bool),
    /// A string.
    String(String),
    /// Declared (referenced) without data, e.g. when the writer elided it.
    Declared,
}

/// Facts about the MLIR bytecode a module was read from, kept so that
/// writing it back at the same version reproduces the file.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BytecodeOrigin {
    /// Bytecode format version of the file.
    pub version: u64,
    /// Producer string of the file's header.
    pub producer: String,
    /// Op names the producer had registered (known only from version 5,
    /// where op names carry that flag), sorted.
    pub registered_ops: Vec<String>,
    /// Dialect version blobs (version 1+), by dialect name, in file order.
    pub dialect_versions: Vec<(String, Vec<u8>)>,
}

impl BytecodeOrigin {
    /// Whether `op_name` was registered with the producer.
    pub fn is_registered(&self, op_name: &str) -> bool {
        self.registered_ops
            .binary_search_by(|name| name.as_str().cmp(op_name))
            .is_ok()
    }
}
