//! What befview shows, as data: the file read and opened, what decoding
//! all of it finds, a recording, a BTF file, two inputs compared, and
//! every list with its columns. Nothing here knows the app's state or draws.

pub mod analysis;
pub mod columns;
pub mod compare;
pub mod document;
pub mod durations;
pub mod execution;
pub mod input;
pub mod inspector;
pub mod names;
pub mod profile;
pub mod rows;
pub mod step_index;
pub mod tensor_grid;
pub mod tensors;
pub mod watch;
