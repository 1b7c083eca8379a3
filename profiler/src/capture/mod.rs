//! Capture: running a program with a recorder attached, and the recording
//! it produces, in memory and as a file.
//!
//! The recording lives here rather than beside the analysis: it is what
//! the recorder assembles and what the codec reads and writes, and the
//! analysis only reads it, so the layers point one way (capture, then
//! [`crate::analysis`], then [`crate::export`]). The program table and the
//! program file a recording is read with are here for the same reason:
//! [`record`] builds the table while recording, and [`program_file`]
//! supplies it to a recording read without one.

pub mod codec;
pub mod events;
pub mod flight;
pub mod live;
pub mod log;
pub mod program_file;
pub mod program_table;
pub mod record;
pub mod recorder;
pub mod recording;
pub mod sources;
