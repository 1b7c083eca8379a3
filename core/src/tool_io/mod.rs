//! What a tool needs to handle untrusted files safely, in one place so that
//! every tool follows the same rules:
//! - [`escape`]: untrusted text (names, paths, values, messages quoting
//!   them) made safe to print on a terminal;
//! - `json` (with the `json` feature): JSON arguments read refusing
//!   duplicate keys, and JSON written with the characters a terminal acts
//!   on escaped;
//! - [`named_files`]: which files named *inside* a file (a location's
//!   source, a recording's program) may be read, and reading them with
//!   bounds;
//! - [`output`]: refusing to write over an input, and writing outputs
//!   through a temporary file so that a failed run leaves no half file;
//! - [`sigbus`]: a mapped file truncated by another process ends the tool
//!   with a message naming it (and the terminal restored), not a crash.
//!
//! `docs/security.md` lists, per tool, what is read, what is refused and
//! which bounds hold.

pub mod escape;
#[cfg(feature = "json")]
pub mod json;
pub mod named_files;
pub mod output;
pub mod sigbus;
