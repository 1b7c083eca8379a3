//! MLIR text front end: lexer, parser (generic form and the custom forms of
//! the standard kernels), printer and diagnostics.
//!
//! - A file without a top-level `module` (or with several top-level ops) is
//!   wrapped in an implicit module located at `filename:0:0`, as MLIR does.
//! - Ops without `loc(...)` get the file:line:col of their name token;
//!   function and block arguments the position of their `%name`.
//! - Location aliases (`#loc0 = loc(...)`) may be defined after their uses;
//!   one that refers to itself, directly or through others, is an error at
//!   its definition.
//! - Custom forms: see `custom/mod.rs` (one table for the parser and printer).
//! - Large files are parsed on two threads (`parallel.rs`), with the
//!   same result.
//! - Untrusted input never panics; attributes and locations nested deeper
//!   than [`crate::format::constants::MAX_NESTING`] levels (what BEF
//!   readers accept), also through aliases, are rejected, as is any other
//!   nesting deeper than 256 levels (`nesting too deep`); numbers in the
//!   input are never used as allocation sizes and splats are not expanded;
//!   what uses of aliases copy is bounded by the size of the input.

mod custom;
mod dense;
mod diagnostics;
mod lexer;
mod measure;
mod num;
mod parallel;
mod parser;
mod printer;
mod type_display;

#[cfg(feature = "arbitrary")]
pub mod arbitrary_ir;

/// Shape and element-size helpers of dense element attributes, shared with
/// the MLIR bytecode codecs.
pub(crate) mod dense_layout {
    pub(crate) use super::dense::{element_size, num_elements, shaped};
}

pub use diagnostics::{
    Chunk, ExpectedDiagnostic, LineIndex, MAX_QUOTED_LINE, SourceLine, SourceLines,
    expected_diagnostics, render_diagnostic, render_diagnostic_line, split_input,
};

use crate::ir::{self, Diagnostic};

/// How `print_module` writes a module.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct PrintOptions {
    /// Generic op form everywhere (`--mlir-print-op-generic`).
    pub generic: bool,
    /// `loc(...)` after every op and argument (`--mlir-print-debuginfo`).
    pub debug_info: bool,
}

/// Parses a whole file.
pub fn parse_module(source: &str, filename: &str) -> Result<ir::Module, Diagnostic> {
    parse_module_at(source, filename, 1)
}

/// Like `parse_module`, for one `// -----` chunk that starts at 1-based line
/// `first_line` of the file, so locations and errors keep the file's line
/// numbers.
pub fn parse_module_at(
    source: &str,
    filename: &str,
    first_line: u32,
) -> Result<ir::Module, Diagnostic> {
    parallel::parse(source, filename, first_line, parallel::MIN_PARALLEL_BYTES).map_err(|e| *e)
}

/// [`parse_module`] on two threads however short the text (for the fuzz
/// target that compares it with one thread).
pub fn parse_module_on_two_threads(source: &str, filename: &str) -> Result<ir::Module, Diagnostic> {
    parallel::parse(source, filename, 1, 0).map_err(|e| *e)
}

/// Parses one type (`i32`, `!tfrt.chain`, `tensor<2x?xf32>`); errors are
/// located in a file named `<type>`.
pub fn parse_type(text: &str) -> Result<ir::Type, Diagnostic> {
    parse_whole(text, "<type>", "unexpected text after type", |p| {
        p.parse_type()
    })
}

/// Parses one attribute (`1 : i32`, `[@a, @b]`, `dense<1> : tensor<2xi32>`);
/// errors are located in a file named `<attribute>`.
pub fn parse_attribute(text: &str) -> Result<ir::Attribute, Diagnostic> {
    parse_whole(
        text,
        "<attribute>",
        "unexpected text after attribute",
        |p| p.parse_attribute(),
    )
}

/// `text` as one item read by `item`, in a file named `file`.
fn parse_whole<T>(
    text: &str,
    file: &str,
    trailing: &str,
    item: impl FnOnce(&mut parser::Parser<'_>) -> parser::R<T>,
) -> Result<T, Diagnostic> {
    let parse = || {
        let mut p = parser::Parser::new(text, file, 1)?;
        let value = item(&mut p)?;
        if !p.at(lexer::Kind::Eof) {
            return Err(p.err_here(trailing));
        }
        Ok(value)
    };
    parse().map_err(|e| *e)
}

/// Prints a module; see `PrintOptions`.
pub fn print_module(module: &ir::Module, options: PrintOptions) -> String {
    printer::print_module(module, options)
}

/// An attribute in MLIR syntax (as it appears in an attribute dictionary).
pub fn print_attribute(attr: &ir::Attribute) -> String {
    let mut s = String::new();
    printer::write_attr(&mut s, attr);
    s
}

/// An attribute where MLIR lets its type go unsaid (a memref's layout and
/// memory space): an i64 integer or f64 float prints without `: type`.
pub(crate) fn print_attribute_elided(attr: &ir::Attribute) -> String {
    let mut s = String::new();
    printer::write_attr_elided(&mut s, attr);
    s
}

/// `loc(...)`
pub fn print_location(loc: &ir::Location) -> String {
    printer::location_string(loc)
}

#[cfg(test)]
mod tests;

/// `value` as text cut after `limit` characters, and whether it was cut.
/// Formatting stops at the cut, so a huge value is never rendered whole.
pub fn display_prefix(value: &impl std::fmt::Display, limit: usize) -> (String, bool) {
    struct Prefix {
        text: String,
        chars: usize,
        limit: usize,
        cut: bool,
    }
    impl std::fmt::Write for Prefix {
        fn write_str(&mut self, s: &str) -> std::fmt::Result {
            for c in s.chars() {
                if self.chars == self.limit {
                    self.cut = true;
                    return Err(std::fmt::Error);
                }
                self.text.push(c);
                self.chars += 1;
            }
            Ok(())
        }
    }
    let mut out = Prefix {
        text: String::new(),
        chars: 0,
        limit,
        cut: false,
    };
    let _ = std::fmt::write(&mut out, format_args!("{value}"));
    (out.text, out.cut)
}
