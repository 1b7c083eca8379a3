//! BEF bytes: primitives, sections, attributes, locations, the zero-copy
//! reader, the encoder and the verifier. No knowledge of kernels.

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
