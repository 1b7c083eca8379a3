//! BEF bytes: primitives, sections, attributes, locations, the zero-copy
//! reader, the encoder and the verifier. No knowledge of kernels.
//!
//! An owned [`Module`] encoded, then read back in place and verified:
//!
//! ```
//! use bef::format::{BefBuffer, Function, FunctionKind, Module, encode, verify};
//!
//! let module = Module {
//!     types: vec!["i32".to_string()],
//!     functions: vec![Function {
//!         kind: FunctionKind::Native,
//!         name: "host_add".to_string(),
//!         arg_types: vec![0, 0],
//!         result_types: vec![0],
//!         body: None,
//!     }],
//!     ..Module::default()
//! };
//! let bytes = encode(&module)?;
//! let buffer = BefBuffer::copy_from(&bytes);
//! let file = buffer.open()?;
//! assert_eq!(verify(&file), Ok(()));
//! assert_eq!(file.functions()[0].name, "host_add");
//! assert_eq!(file.type_names()?, ["i32"]);
//! assert_eq!(file.to_module()?, module);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#[cfg(feature = "arbitrary")]
pub mod arbitrary_model;
pub mod attr;
pub mod buffer;
pub mod constants;
pub mod display;
pub mod dtype;
pub mod emitter;
pub mod encoder;
pub mod error;
pub mod file;
pub mod kernel_layout;
pub mod location;
pub mod model;
pub mod optional;
pub mod reader;
pub mod signatures;
mod to_module;
pub mod verify;

pub use attr::{Attribute, CompilationUnit, DenseAttr};
pub use buffer::BefBuffer;
pub use constants::{FunctionKind, SectionId};
pub use dtype::{ArrayElement, AttrType, DType};
pub use encoder::encode;
pub use error::{DecodeError, DecodeResult, EncodeError, EncodeResult};
pub use file::{
    BefFile, BodyLayout, EntryLayout, FunctionBody, FunctionEntry, KernelEntry, KernelRecord,
    KernelTableRow, NameEntry, NameTable, SectionInfo, U32s,
};
pub use kernel_layout::KernelHeader;
pub use location::{Location, LocationField};
pub use model::{Body, Function, Kernel, KernelLocation, Module};
pub use optional::{
    AttributeNameEntry, AttributeTypeEntry, AttributeTypeTable, FunctionAttributeNames,
    FunctionCursor, FunctionRegisterTypes,
};
pub use signatures::FunctionSignatures;
pub use verify::verify;
