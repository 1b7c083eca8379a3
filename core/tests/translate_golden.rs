//! Golden BEF bytes for small host programs, derived by hand from the fact
//! sheets on BEF encoding and host programs (kept beside the project, not in it) and the
//! translator's layout rules, not by running the translator. Every program
//! pins each op's and function's location with an explicit
//! `loc("golden.mlir":L:C)` (equal to the op-name position MLIR would give),
//! so the bytes do not depend on the parser's default location rule.
//!
//! Rules the derivations rely on (the fact sheet, or the seed where it is silent):
//! - Strings: kernel names, type names, function names (`""` for regions),
//!   attribute names (and the names of symbol-array attributes), sorted
//!   bytewise, NUL-terminated; offsets are byte offsets.
//! - Post-order walk (nested ops first): per op its result types, then (with
//!   optional sections) the integer/float types of its attributes, then the
//!   argument types of each of its regions, which become anonymous functions
//!   right then; a function's argument types come after its body, and the
//!   function itself after its regions. Kernel codes in first-use order;
//!   attributes name-sorted per op, deduplicated module-wide in first-seen
//!   order.
//! - Registers: arguments, then results in op order; NumUses counts every use,
//!   return operands included; used-by lists name the newest use first and
//!   never the return; the pseudo kernel's first result (register NumRegs)
//!   is used by the kernels without operands, in op order.
//! - Locations are written function by function in FunctionIndex order: the
//!   body's location (the func op, or the op owning the region), then each
//!   kernel's, one record per use; location strings are shared, in first-use
//!   order.
//! - Sections take the alignment form only when their data would otherwise
//!   be misaligned (Attributes: the largest alignment inside; Functions: 4).
//! - Stream ids: the stream analysis with the default threshold 1 (each
//!   op's parent is the operand producer with the largest accumulated cost,
//!   ties keep the first operand; the backward pass numbers new streams from
//!   the last op up; a parent joins the child stream holding the return,
//!   else its most expensive child stream, so the root's stream is the
//!   return's).

mod common;

use bef::text::parse_module;
use bef::translate::mlir_to_bef;
use common::hex;

fn translate(source: &str) -> Vec<u8> {
    let module = parse_module(source, "golden.mlir").unwrap();
    mlir_to_bef(&module, Default::default()).unwrap()
}

/// `translate(source) == expected`, reporting the first differing offset.
fn assert_golden(name: &str, source: &str, expected: &[u8]) {
    let actual = translate(source);
    if actual != expected {
        let at = actual
            .iter()
            .zip(expected)
            .position(|(a, b)| a != b)
            .unwrap_or(actual.len().min(expected.len()));
        panic!(
            "{name}: the translation differs from the hand-derived bytes at offset {at} \
             ({} bytes, expected {})\nactual:   {}\nexpected: {}",
            actual.len(),
            expected.len(),
            hex(&actual),
            hex(expected)
        );
    }
}

/// `tfrt.new.chain`, a constant and a print: kernel codes in first-use order,
/// the sorted string table holding the attribute name `value`, the
/// pseudo kernel's users (both kernels without operands), and stream ids:
/// the print's parent is `%x` (its first operand; equal costs keep the
/// first), so `tfrt.new.chain` has no scheduled user and starts stream 1
/// while everything else, the root included, stays in stream 0.
#[test]
fn constant_and_print_with_a_chain() {
    const SRC: &str = r##"func.func @print_const() -> !tfrt.chain {
  %ch0 = tfrt.new.chain loc("golden.mlir":2:10)
  %x = tfrt.constant.i32 42 loc("golden.mlir":3:8)
  %ch1 = tfrt.print.i32 %x, %ch0 loc("golden.mlir":4:10)
  tfrt.return %ch1 : !tfrt.chain
} loc("golden.mlir":1:1)
"##;
    #[rustfmt::skip]
    let expected: &[u8] = &[
        // magic 0B EF, version 0
        0x0b, 0xef, 0x00,
        // Strings: 82 bytes; id 0, VBR(82<<1)
        0x00, 0x81, 0x24,
        //     0: "!tfrt.chain"
        b'!', b't', b'f', b'r', b't', b'.', b'c', b'h', b'a', b'i', b'n', 0,
        //    12: "i32"
        b'i', b'3', b'2', 0,
        //    16: "print_const"
        b'p', b'r', b'i', b'n', b't', b'_', b'c', b'o', b'n', b's', b't', 0,
        //    28: "tfrt.constant.i32"
        b't', b'f', b'r', b't', b'.', b'c', b'o', b'n', b's', b't', b'a', b'n', b't', b'.', b'i', b'3',
        b'2', 0,
        //    46: "tfrt.new.chain"
        b't', b'f', b'r', b't', b'.', b'n', b'e', b'w', b'.', b'c', b'h', b'a', b'i', b'n', 0,
        //    61: "tfrt.print.i32"
        b't', b'f', b'r', b't', b'.', b'p', b'r', b'i', b'n', b't', b'.', b'i', b'3', b'2', 0,
        //    76: "value"
        b'v', b'a', b'l', b'u', b'e', 0,
        // Attributes: 4 bytes; id 1, VBR(4<<1|1) (alignment form), alignment 4
        0x01, 0x09, 0x04,
        // padding: Attributes data starts at file offset 92
        0xcc,
        //   0: value = 42 : i32 (4-aligned)
        0x2a, 0x00, 0x00, 0x00,
        // Kernels: 4 bytes; id 2, VBR(4<<1)
        0x02, 0x08,
        //   3 kernels
        0x03,
        //   0: tfrt.new.chain
        0x2e,
        //   1: tfrt.constant.i32
        0x1c,
        //   2: tfrt.print.i32
        0x3d,
        // Types: 3 bytes; id 3, VBR(3<<1)
        0x03, 0x06,
        //   2 types
        0x02,
        //   0: !tfrt.chain (result of tfrt.new.chain, first op visited)
        0x00,
        //   1: i32
        0x0c,
        // FunctionIndex: 7 bytes; id 4, VBR(7<<1)
        0x04, 0x0e,
        //   1 function
        0x01,
        //   kind 0 (BEF)
        0x00,
        //   body offset, name "print_const"
        0x00, 0x10,
        //   no arguments
        0x00,
        //   1 result: type 0 (!tfrt.chain)
        0x01, 0x00,
        // Functions: 176 bytes; id 5, VBR(176<<1|1) (alignment form), alignment 4
        0x05, 0x82, 0x61, 0x04,
        //   function 0 print_const: body at Functions offset 0
        //   location record at offset 0
        0x00,
        //   register table: 3 registers, uses 1, 1, 1
        0x03, 0x01, 0x01, 0x01,
        //   kernel table: 4 kernels
        0x04,
        //     kernel 0: offset 0, 0 operands, stream 0
        0x00, 0x00, 0x00,
        //     kernel 1: offset 40, 0 operands, stream 1
        0x28, 0x00, 0x01,
        //     kernel 2: offset 76, 0 operands, stream 0
        0x4c, 0x00, 0x00,
        //     kernel 3: offset 116, 2 operands, stream 0
        0x74, 0x02, 0x00,
        //   result registers 2
        0x02,
        //   padding to 4
        0xcc,
        //   kernel 0 (+0): pseudo kernel: code 0xABABABAB, location 0xCDCDCDCD, 0 args, 0 attrs, 0 funcs, 1 results
        //     users per result [2]; results 3; users 1 2
        0xab, 0xab, 0xab, 0xab, 0xcd, 0xcd, 0xcd, 0xcd, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00,
        0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,
        //   kernel 1 (+40): tfrt.new.chain: code 0, location 4, 0 args, 0 attrs, 0 funcs, 1 results
        //     users per result [1]; results 0; users 3
        0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x03, 0x00, 0x00, 0x00,
        //   kernel 2 (+76): tfrt.constant.i32: code 1, location 8, 0 args, 1 attrs, 0 funcs, 1 results
        //     users per result [1]; attribute offsets 0; results 1; users 3
        0x01, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x01, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00,
        //   kernel 3 (+116): tfrt.print.i32: code 2, location 12, 2 args, 0 attrs, 0 funcs, 1 results
        //     users per result [0]; args 1 0; results 2
        0x02, 0x00, 0x00, 0x00, 0x0c, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,
        // LocationStrings: 12 bytes; id 6, VBR(12<<1)
        0x06, 0x18,
        //     0: "golden.mlir"
        b'g', b'o', b'l', b'd', b'e', b'n', b'.', b'm', b'l', b'i', b'r', 0,
        // Locations: 16 bytes; id 7, VBR(16<<1)
        0x07, 0x20,
        //     0: function print_const: "golden.mlir":1:1
        0x01, 0x00, 0x01, 0x01,
        //     4: tfrt.new.chain: 2:10
        0x01, 0x00, 0x02, 0x0a,
        //     8: tfrt.constant.i32: 3:8
        0x01, 0x00, 0x03, 0x08,
        //    12: tfrt.print.i32: 4:10
        0x01, 0x00, 0x04, 0x0a,
        // AttributeTypes: 3 bytes; id 8, VBR(3<<1)
        0x08, 0x06,
        //   1 attribute
        0x01,
        //   offset 0: type 8 (i32)
        0x00, 0x08,
        // AttributeNames: 3 bytes; id 9, VBR(3<<1)
        0x09, 0x06,
        //   1 function
        0x01,
        //   4 kernels (pseudo included); only kernel 2 has a name
        0x04,
        //   kernel 2: "value"
        0x4c,
        // RegisterTypes: 5 bytes; id 10, VBR(5<<1)
        0x0a, 0x0a,
        //   1 function
        0x01,
        //   3 registers: !tfrt.chain, i32, !tfrt.chain
        0x03, 0x00, 0x01, 0x00,
    ];
    assert_eq!(expected.len(), 345);
    assert_golden("constant_and_print_with_a_chain", SRC, expected);
}

/// One op with an attribute of every scalar kind: natural alignment in the
/// Attributes section (one-byte values unaligned), strings behind a `u32`
/// length with escapes decoded, a type attribute as one dtype byte, and the
/// integer and float types of the attributes entering the Types section in
/// attribute-name order after the op's result type.
#[test]
fn attributes_of_every_scalar_kind() {
    const SRC: &str = r##"func.func @scalars() -> !tfrt.chain {
  %ch = "tfrt_test.attributes"() {
      a_i1 = true, b_i8 = -2 : i8, c_i16 = -300 : i16, d_i32 = 42 : i32,
      e_i64 = -5000000000 : i64, f_ui8 = 200 : ui8, g_ui16 = 60000 : ui16,
      h_ui32 = 4000000000 : ui32, i_ui64 = 18446744073709551615 : ui64,
      j_f16 = 1.0 : f16, k_bf16 = 1.0 : bf16, l_f32 = 1.5 : f32, m_f64 = -0.25 : f64,
      n_str = "hello", o_esc = "tab\09quote\22", p_type = f32
    } : () -> !tfrt.chain loc("golden.mlir":2:9)
  tfrt.return %ch : !tfrt.chain
} loc("golden.mlir":1:1)
"##;
    #[rustfmt::skip]
    let expected: &[u8] = &[
        // magic 0B EF, version 0
        0x0b, 0xef, 0x00,
        // Strings: 194 bytes; id 0, VBR(194<<1)
        0x00, 0x83, 0x04,
        //     0: "!tfrt.chain"
        b'!', b't', b'f', b'r', b't', b'.', b'c', b'h', b'a', b'i', b'n', 0,
        //    12: "a_i1"
        b'a', b'_', b'i', b'1', 0,
        //    17: "b_i8"
        b'b', b'_', b'i', b'8', 0,
        //    22: "bf16"
        b'b', b'f', b'1', b'6', 0,
        //    27: "c_i16"
        b'c', b'_', b'i', b'1', b'6', 0,
        //    33: "d_i32"
        b'd', b'_', b'i', b'3', b'2', 0,
        //    39: "e_i64"
        b'e', b'_', b'i', b'6', b'4', 0,
        //    45: "f16"
        b'f', b'1', b'6', 0,
        //    49: "f32"
        b'f', b'3', b'2', 0,
        //    53: "f64"
        b'f', b'6', b'4', 0,
        //    57: "f_ui8"
        b'f', b'_', b'u', b'i', b'8', 0,
        //    63: "g_ui16"
        b'g', b'_', b'u', b'i', b'1', b'6', 0,
        //    70: "h_ui32"
        b'h', b'_', b'u', b'i', b'3', b'2', 0,
        //    77: "i1"
        b'i', b'1', 0,
        //    80: "i16"
        b'i', b'1', b'6', 0,
        //    84: "i32"
        b'i', b'3', b'2', 0,
        //    88: "i64"
        b'i', b'6', b'4', 0,
        //    92: "i8"
        b'i', b'8', 0,
        //    95: "i_ui64"
        b'i', b'_', b'u', b'i', b'6', b'4', 0,
        //   102: "j_f16"
        b'j', b'_', b'f', b'1', b'6', 0,
        //   108: "k_bf16"
        b'k', b'_', b'b', b'f', b'1', b'6', 0,
        //   115: "l_f32"
        b'l', b'_', b'f', b'3', b'2', 0,
        //   121: "m_f64"
        b'm', b'_', b'f', b'6', b'4', 0,
        //   127: "n_str"
        b'n', b'_', b's', b't', b'r', 0,
        //   133: "o_esc"
        b'o', b'_', b'e', b's', b'c', 0,
        //   139: "p_type"
        b'p', b'_', b't', b'y', b'p', b'e', 0,
        //   146: "scalars"
        b's', b'c', b'a', b'l', b'a', b'r', b's', 0,
        //   154: "tfrt_test.attributes"
        b't', b'f', b'r', b't', b'_', b't', b'e', b's', b't', b'.', b'a', b't', b't', b'r', b'i', b'b',
        b'u', b't', b'e', b's', 0,
        //   175: "ui16"
        b'u', b'i', b'1', b'6', 0,
        //   180: "ui32"
        b'u', b'i', b'3', b'2', 0,
        //   185: "ui64"
        b'u', b'i', b'6', b'4', 0,
        //   190: "ui8"
        b'u', b'i', b'8', 0,
        // Attributes: 75 bytes; id 1, VBR(75<<1|1) (alignment form), alignment 8
        0x01, 0x81, 0x17, 0x08,
        // padding: Attributes data starts at file offset 208
        0xcc, 0xcc, 0xcc, 0xcc,
        //    0: a_i1 = true (one byte, no alignment)
        0x01,
        //    1: b_i8 = -2
        0xfe,
        //    2: c_i16 = -300
        0xd4, 0xfe,
        //    4: d_i32 = 42
        0x2a, 0x00, 0x00, 0x00,
        //    8: e_i64 = -5000000000
        0x00, 0x0e, 0xfa, 0xd5, 0xfe, 0xff, 0xff, 0xff,
        //   16: f_ui8 = 200
        0xc8,
        //   padding to 2
        0xcc,
        //   18: g_ui16 = 60000
        0x60, 0xea,
        //   20: h_ui32 = 4000000000
        0x00, 0x28, 0x6b, 0xee,
        //   24: i_ui64 = 2^64-1
        0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        //   32: j_f16 = 1.0 (bits 0x3C00)
        0x00, 0x3c,
        //   34: k_bf16 = 1.0 (bits 0x3F80)
        0x80, 0x3f,
        //   36: l_f32 = 1.5
        0x00, 0x00, 0xc0, 0x3f,
        //   40: m_f64 = -0.25
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xd0, 0xbf,
        //   48: n_str: length 5 (4-aligned), then the bytes, no NUL
        0x05, 0x00, 0x00, 0x00,
        b'h', b'e', b'l', b'l', b'o',
        //   padding to 4
        0xcc, 0xcc, 0xcc,
        //   60: o_esc: length 10, "tab\tquote\""
        0x0a, 0x00, 0x00, 0x00,
        b't', b'a', b'b', 0x09, b'q', b'u', b'o', b't', b'e', b'"',
        //   74: p_type = f32: one dtype byte (F32 = 10)
        0x0a,
        // Kernels: 3 bytes; id 2, VBR(3<<1)
        0x02, 0x06,
        //   1 kernel
        0x01,
        //   0: tfrt_test.attributes
        0x81, 0x1a,
        // Types: 19 bytes; id 3, VBR(19<<1)
        0x03, 0x26,
        //   14 types: the result type, then the integer and float types of the attributes in name order
        0x0e,
        //   0: !tfrt.chain
        0x00,
        //   1: i1
        0x4d,
        //   2: i8
        0x5c,
        //   3: i16
        0x50,
        //   4: i32
        0x54,
        //   5: i64
        0x58,
        //   6: ui8
        0x81, 0x3e,
        //   7: ui16
        0x81, 0x2f,
        //   8: ui32
        0x81, 0x34,
        //   9: ui64
        0x81, 0x39,
        //   10: f16
        0x2d,
        //   11: bf16
        0x16,
        //   12: f32
        0x31,
        //   13: f64
        0x35,
        // FunctionIndex: 8 bytes; id 4, VBR(8<<1)
        0x04, 0x10,
        //   1 function
        0x01,
        //   kind 0 (BEF)
        0x00,
        //   body offset, name "scalars"
        0x00, 0x81, 0x12,
        //   no arguments
        0x00,
        //   1 result: type 0 (!tfrt.chain)
        0x01, 0x00,
        // Functions: 144 bytes; id 5, VBR(144<<1|1) (alignment form), alignment 4
        0x05, 0x82, 0x21, 0x04,
        // padding: Functions data starts at file offset 324
        0xcc,
        //   function 0 scalars: body at Functions offset 0
        //   location record at offset 0
        0x00,
        //   register table: 1 registers, uses 1
        0x01, 0x01,
        //   kernel table: 2 kernels
        0x02,
        //     kernel 0: offset 0, 0 operands, stream 0
        0x00, 0x00, 0x00,
        //     kernel 1: offset 36, 0 operands, stream 0
        0x24, 0x00, 0x00,
        //   result registers 0
        0x00,
        //   padding to 4
        0xcc,
        //   kernel 0 (+0): pseudo kernel: code 0xABABABAB, location 0xCDCDCDCD, 0 args, 0 attrs, 0 funcs, 1 results
        //     users per result [1]; results 1; users 1
        0xab, 0xab, 0xab, 0xab, 0xcd, 0xcd, 0xcd, 0xcd, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
        0x01, 0x00, 0x00, 0x00,
        //   kernel 1 (+36): tfrt_test.attributes: code 0, location 4, 0 args, 16 attrs, 0 funcs, 1 results
        //     users per result [0]; attribute offsets 0 1 2 4 8 16 18 20 24 32 34 36 40 48 60 74; results 0
        0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00,
        0x10, 0x00, 0x00, 0x00, 0x12, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x18, 0x00, 0x00, 0x00,
        0x20, 0x00, 0x00, 0x00, 0x22, 0x00, 0x00, 0x00, 0x24, 0x00, 0x00, 0x00, 0x28, 0x00, 0x00, 0x00,
        0x30, 0x00, 0x00, 0x00, 0x3c, 0x00, 0x00, 0x00, 0x4a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        // LocationStrings: 12 bytes; id 6, VBR(12<<1)
        0x06, 0x18,
        //     0: "golden.mlir"
        b'g', b'o', b'l', b'd', b'e', b'n', b'.', b'm', b'l', b'i', b'r', 0,
        // Locations: 8 bytes; id 7, VBR(8<<1)
        0x07, 0x10,
        //     0: function scalars: "golden.mlir":1:1
        0x01, 0x00, 0x01, 0x01,
        //     4: tfrt_test.attributes: 2:9
        0x01, 0x00, 0x02, 0x09,
        // AttributeTypes: 33 bytes; id 8, VBR(33<<1)
        0x08, 0x42,
        //   16 attributes: offset, type
        0x10,
        //   a_i1: offset 0, type 5
        0x00, 0x05,
        //   b_i8: offset 1, type 6
        0x01, 0x06,
        //   c_i16: offset 2, type 7
        0x02, 0x07,
        //   d_i32: offset 4, type 8
        0x04, 0x08,
        //   e_i64: offset 8, type 9
        0x08, 0x09,
        //   f_ui8: offset 16, type 1
        0x10, 0x01,
        //   g_ui16: offset 18, type 2
        0x12, 0x02,
        //   h_ui32: offset 20, type 3
        0x14, 0x03,
        //   i_ui64: offset 24, type 4
        0x18, 0x04,
        //   j_f16: offset 32, type 14
        0x20, 0x0e,
        //   k_bf16: offset 34, type 15
        0x22, 0x0f,
        //   l_f32: offset 36, type 10
        0x24, 0x0a,
        //   m_f64: offset 40, type 11
        0x28, 0x0b,
        //   n_str: offset 48, type 16
        0x30, 0x10,
        //   o_esc: offset 60, type 16
        0x3c, 0x10,
        //   p_type: offset 74, type 25
        0x4a, 0x19,
        // AttributeNames: 20 bytes; id 9, VBR(20<<1)
        0x09, 0x28,
        //   1 function
        0x01,
        //   2 kernels (pseudo included)
        0x02,
        //   kernel 1: the 16 attribute names in name order
        0x0c, 0x11, 0x1b, 0x21, 0x27, 0x39, 0x3f, 0x46, 0x5f, 0x66, 0x6c, 0x73, 0x79, 0x7f, 0x81, 0x05,
        0x81, 0x0b,
        // RegisterTypes: 3 bytes; id 10, VBR(3<<1)
        0x0a, 0x06,
        //   1 function
        0x01,
        //   1 register: !tfrt.chain
        0x01, 0x00,
    ];
    assert_eq!(expected.len(), 554);
    assert_golden("attributes_of_every_scalar_kind", SRC, expected);
}

/// A call between two functions: the callee becomes a function index, not an
/// attribute (no name, no attribute type); the two `value` attributes are
/// different and both kept; locations are written function by function.
/// In `add_one` the add's parent is `%x` (the root, first operand), so the
/// constant has no scheduled user and gets stream 1.
#[test]
fn call_between_two_functions() {
    const SRC: &str = r##"func.func @add_one(%x: i32) -> i32 {
  %one = tfrt.constant.i32 1 loc("golden.mlir":2:10)
  %y = tfrt.add.i32 %x, %one loc("golden.mlir":3:8)
  tfrt.return %y : i32
} loc("golden.mlir":1:1)

func.func @caller() -> i32 {
  %a = tfrt.constant.i32 41 loc("golden.mlir":8:8)
  %r = tfrt.call @add_one(%a) : (i32) -> i32 loc("golden.mlir":9:8)
  tfrt.return %r : i32
} loc("golden.mlir":7:1)
"##;
    #[rustfmt::skip]
    let expected: &[u8] = &[
        // magic 0B EF, version 0
        0x0b, 0xef, 0x00,
        // Strings: 66 bytes; id 0, VBR(66<<1)
        0x00, 0x81, 0x04,
        //     0: "add_one"
        b'a', b'd', b'd', b'_', b'o', b'n', b'e', 0,
        //     8: "caller"
        b'c', b'a', b'l', b'l', b'e', b'r', 0,
        //    15: "i32"
        b'i', b'3', b'2', 0,
        //    19: "tfrt.add.i32"
        b't', b'f', b'r', b't', b'.', b'a', b'd', b'd', b'.', b'i', b'3', b'2', 0,
        //    32: "tfrt.call"
        b't', b'f', b'r', b't', b'.', b'c', b'a', b'l', b'l', 0,
        //    42: "tfrt.constant.i32"
        b't', b'f', b'r', b't', b'.', b'c', b'o', b'n', b's', b't', b'a', b'n', b't', b'.', b'i', b'3',
        b'2', 0,
        //    60: "value"
        b'v', b'a', b'l', b'u', b'e', 0,
        // Attributes: 8 bytes; id 1, VBR(8<<1|1) (alignment form), alignment 4
        0x01, 0x11, 0x04,
        // padding: Attributes data starts at file offset 76
        0xcc,
        //   0: value = 1 : i32 (add_one)
        0x01, 0x00, 0x00, 0x00,
        //   4: value = 41 : i32 (caller)
        0x29, 0x00, 0x00, 0x00,
        // Kernels: 4 bytes; id 2, VBR(4<<1)
        0x02, 0x08,
        //   3 kernels, in first-use order
        0x03,
        //   0: tfrt.constant.i32
        0x2a,
        //   1: tfrt.add.i32
        0x13,
        //   2: tfrt.call
        0x20,
        // Types: 2 bytes; id 3, VBR(2<<1)
        0x03, 0x04,
        //   1 type
        0x01,
        //   0: i32
        0x0f,
        // FunctionIndex: 15 bytes; id 4, VBR(15<<1)
        0x04, 0x1e,
        //   2 functions
        0x02,
        //   add_one: kind 0
        0x00,
        //   body offset, name
        0x00, 0x00,
        //   1 argument: i32
        0x01, 0x00,
        //   1 result: i32
        0x01, 0x00,
        //   caller: kind 0
        0x00,
        //   body offset, name
        0x81, 0x10, 0x08,
        //   no arguments
        0x00,
        //   1 result: i32
        0x01, 0x00,
        // Functions: 276 bytes; id 5, VBR(276<<1|1) (alignment form), alignment 4
        0x05, 0x84, 0x29, 0x04,
        // padding: Functions data starts at file offset 116
        0xcc,
        //   function 0 add_one: body at Functions offset 0
        //   location record at offset 0
        0x00,
        //   register table: 3 registers, uses 1, 1, 1
        0x03, 0x01, 0x01, 0x01,
        //   kernel table: 3 kernels
        0x03,
        //     kernel 0: offset 0, 0 operands, stream 0
        0x00, 0x00, 0x00,
        //     kernel 1: offset 48, 0 operands, stream 1
        0x30, 0x00, 0x01,
        //     kernel 2: offset 88, 2 operands, stream 0
        0x58, 0x02, 0x00,
        //   result registers 2
        0x02,
        //   kernel 0 (+0): pseudo kernel: code 0xABABABAB, location 0xCDCDCDCD, 0 args, 0 attrs, 0 funcs, 2 results
        //     users per result [1, 1]; results 3 0; users 1 | 2
        0xab, 0xab, 0xab, 0xab, 0xcd, 0xcd, 0xcd, 0xcd, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
        0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,
        //   kernel 1 (+48): tfrt.constant.i32: code 0, location 4, 0 args, 1 attrs, 0 funcs, 1 results
        //     users per result [1]; attribute offsets 0; results 1; users 2
        0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,
        //   kernel 2 (+88): tfrt.add.i32: code 1, location 8, 2 args, 0 attrs, 0 funcs, 1 results
        //     users per result [0]; args 0 1; results 2
        0x01, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,
        //   function 1 caller: body at Functions offset 144
        //   location record at offset 12
        0x0c,
        //   register table: 2 registers, uses 1, 1
        0x02, 0x01, 0x01,
        //   kernel table: 3 kernels
        0x03,
        //     kernel 0: offset 0, 0 operands, stream 0
        0x00, 0x00, 0x00,
        //     kernel 1: offset 36, 0 operands, stream 0
        0x24, 0x00, 0x00,
        //     kernel 2: offset 76, 1 operands, stream 0
        0x4c, 0x01, 0x00,
        //   result registers 1
        0x01,
        //   padding to 4
        0xcc,
        //   kernel 0 (+0): pseudo kernel: code 0xABABABAB, location 0xCDCDCDCD, 0 args, 0 attrs, 0 funcs, 1 results
        //     users per result [1]; results 2; users 1
        0xab, 0xab, 0xab, 0xab, 0xcd, 0xcd, 0xcd, 0xcd, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,
        0x01, 0x00, 0x00, 0x00,
        //   kernel 1 (+36): tfrt.constant.i32: code 0, location 16, 0 args, 1 attrs, 0 funcs, 1 results
        //     users per result [1]; attribute offsets 4; results 0; users 2
        0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,
        //   kernel 2 (+76): tfrt.call: code 2, location 20, 1 args, 0 attrs, 1 funcs, 1 results
        //     users per result [0]; args 0; functions 0; results 1
        0x02, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
        // LocationStrings: 12 bytes; id 6, VBR(12<<1)
        0x06, 0x18,
        //     0: "golden.mlir"
        b'g', b'o', b'l', b'd', b'e', b'n', b'.', b'm', b'l', b'i', b'r', 0,
        // Locations: 24 bytes; id 7, VBR(24<<1)
        0x07, 0x30,
        //     0: function add_one: "golden.mlir":1:1
        0x01, 0x00, 0x01, 0x01,
        //     4: tfrt.constant.i32: 2:10
        0x01, 0x00, 0x02, 0x0a,
        //     8: tfrt.add.i32: 3:8
        0x01, 0x00, 0x03, 0x08,
        //    12: function caller: 7:1
        0x01, 0x00, 0x07, 0x01,
        //    16: tfrt.constant.i32: 8:8
        0x01, 0x00, 0x08, 0x08,
        //    20: tfrt.call: 9:8
        0x01, 0x00, 0x09, 0x08,
        // AttributeTypes: 5 bytes; id 8, VBR(5<<1)
        0x08, 0x0a,
        //   2 attributes
        0x02,
        //   offset 0: i32
        0x00, 0x08,
        //   offset 4: i32
        0x04, 0x08,
        // AttributeNames: 5 bytes; id 9, VBR(5<<1)
        0x09, 0x0a,
        //   2 functions
        0x02,
        //   add_one: 3 kernels
        0x03,
        //     kernel 1: "value"
        0x3c,
        //   caller: 3 kernels (the callee is a function, not an attribute)
        0x03,
        //     kernel 1: "value"
        0x3c,
        // RegisterTypes: 8 bytes; id 10, VBR(8<<1)
        0x0a, 0x10,
        //   2 functions
        0x02,
        //   add_one: 3 registers of i32
        0x03, 0x00, 0x00, 0x00,
        //   caller: 2 registers of i32
        0x02, 0x00, 0x00,
    ];
    assert_eq!(expected.len(), 456);
    assert_golden("call_between_two_functions", SRC, expected);
}

/// `tfrt.if` with a then and an else region: the regions become anonymous
/// functions 0 and 1 (name `""`, the empty string at offset 0), added when
/// the `tfrt.if` is visited and before `select`; each region body carries the
/// location of the `tfrt.if`; `i1` enters the Types section only with the
/// arguments of `select`, after its body; a register used only by the
/// return has one use and no users.
#[test]
fn if_with_two_regions() {
    const SRC: &str = r##"func.func @select(%cond: i1, %a: i32, %b: i32) -> i32 {
  %r = tfrt.if %cond, %a, %b : (i32, i32) -> (i32) {
    tfrt.return %a : i32
  } else {
    %s = tfrt.add.i32 %a, %b loc("golden.mlir":5:10)
    tfrt.return %s : i32
  } loc("golden.mlir":2:8)
  tfrt.return %r : i32
} loc("golden.mlir":1:1)
"##;
    #[rustfmt::skip]
    let expected: &[u8] = &[
        // magic 0B EF, version 0
        0x0b, 0xef, 0x00,
        // Strings: 36 bytes; id 0, VBR(36<<1)
        0x00, 0x48,
        //     0: ""
        0,
        //     1: "i1"
        b'i', b'1', 0,
        //     4: "i32"
        b'i', b'3', b'2', 0,
        //     8: "select"
        b's', b'e', b'l', b'e', b'c', b't', 0,
        //    15: "tfrt.add.i32"
        b't', b'f', b'r', b't', b'.', b'a', b'd', b'd', b'.', b'i', b'3', b'2', 0,
        //    28: "tfrt.if"
        b't', b'f', b'r', b't', b'.', b'i', b'f', 0,
        // Attributes: 0 bytes; id 1, VBR(0<<1)
        0x01, 0x00,
        // Kernels: 3 bytes; id 2, VBR(3<<1)
        0x02, 0x06,
        //   2 kernels: the add in the else region is visited before the tfrt.if
        0x02,
        //   0: tfrt.add.i32
        0x0f,
        //   1: tfrt.if
        0x1c,
        // Types: 3 bytes; id 3, VBR(3<<1)
        0x03, 0x06,
        //   2 types
        0x02,
        //   0: i32 (result of the add)
        0x04,
        //   1: i1 (argument of select, added after its body)
        0x01,
        // FunctionIndex: 27 bytes; id 4, VBR(27<<1)
        0x04, 0x36,
        //   3 functions: the two regions, then select
        0x03,
        //   kind 0
        0x00,
        //   body offset, name ""
        0x00, 0x00,
        //   2 arguments: i32, i32
        0x02, 0x00, 0x00,
        //   1 result: i32
        0x01, 0x00,
        //   kind 0
        0x00,
        //   body offset, name ""
        0x3c, 0x00,
        //   2 arguments: i32, i32
        0x02, 0x00, 0x00,
        //   1 result: i32
        0x01, 0x00,
        //   kind 0
        0x00,
        //   body offset, name "select"
        0x81, 0x2c, 0x08,
        //   3 arguments: i1, i32, i32
        0x03, 0x01, 0x00, 0x00,
        //   1 result: i32
        0x01, 0x00,
        // Functions: 308 bytes; id 5, VBR(308<<1|1) (alignment form), alignment 4
        0x05, 0x84, 0x69, 0x04,
        // padding: Functions data starts at file offset 88
        0xcc, 0xcc,
        //   function 0: then region: body at Functions offset 0
        //   location record at offset 0
        0x00,
        //   register table: 2 registers, uses 1, 0
        0x02, 0x01, 0x00,
        //   kernel table: 1 kernels
        0x01,
        //     kernel 0: offset 0, 0 operands, stream 0
        0x00, 0x00, 0x00,
        //   result registers 0
        0x00,
        //   padding to 4
        0xcc, 0xcc, 0xcc,
        //   kernel 0 (+0): pseudo kernel: code 0xABABABAB, location 0xCDCDCDCD, 0 args, 0 attrs, 0 funcs, 3 results
        //     users per result [0, 0, 0]; results 2 0 1
        0xab, 0xab, 0xab, 0xab, 0xcd, 0xcd, 0xcd, 0xcd, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
        //   function 1: else region: body at Functions offset 60
        //   location record at offset 4
        0x04,
        //   register table: 3 registers, uses 1, 1, 1
        0x03, 0x01, 0x01, 0x01,
        //   kernel table: 2 kernels
        0x02,
        //     kernel 0: offset 0, 0 operands, stream 0
        0x00, 0x00, 0x00,
        //     kernel 1: offset 56, 2 operands, stream 0
        0x38, 0x02, 0x00,
        //   result registers 2
        0x02,
        //   padding to 4
        0xcc, 0xcc, 0xcc,
        //   kernel 0 (+0): pseudo kernel: code 0xABABABAB, location 0xCDCDCDCD, 0 args, 0 attrs, 0 funcs, 3 results
        //     users per result [0, 1, 1]; results 3 0 1; users - | 1 | 1
        0xab, 0xab, 0xab, 0xab, 0xcd, 0xcd, 0xcd, 0xcd, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
        0x01, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
        0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
        //   kernel 1 (+56): tfrt.add.i32: code 0, location 8, 2 args, 0 attrs, 0 funcs, 1 results
        //     users per result [0]; args 0 1; results 2
        0x00, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,
        //   function 2 select: body at Functions offset 172
        //   location record at offset 12
        0x0c,
        //   register table: 4 registers, uses 1, 1, 1, 1
        0x04, 0x01, 0x01, 0x01, 0x01,
        //   kernel table: 2 kernels
        0x02,
        //     kernel 0: offset 0, 0 operands, stream 0
        0x00, 0x00, 0x00,
        //     kernel 1: offset 68, 3 operands, stream 0
        0x44, 0x03, 0x00,
        //   result registers 3
        0x03,
        //   padding to 4
        0xcc, 0xcc,
        //   kernel 0 (+0): pseudo kernel: code 0xABABABAB, location 0xCDCDCDCD, 0 args, 0 attrs, 0 funcs, 4 results
        //     users per result [0, 1, 1, 1]; results 4 0 1 2; users - | 1 | 1 | 1
        0xab, 0xab, 0xab, 0xab, 0xcd, 0xcd, 0xcd, 0xcd, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
        0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
        0x01, 0x00, 0x00, 0x00,
        //   kernel 1 (+68): tfrt.if: code 1, location 16, 3 args, 0 attrs, 2 funcs, 1 results
        //     users per result [0]; args 0 1 2; functions 0 1; results 3
        0x01, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
        0x03, 0x00, 0x00, 0x00,
        // LocationStrings: 12 bytes; id 6, VBR(12<<1)
        0x06, 0x18,
        //     0: "golden.mlir"
        b'g', b'o', b'l', b'd', b'e', b'n', b'.', b'm', b'l', b'i', b'r', 0,
        // Locations: 20 bytes; id 7, VBR(20<<1)
        0x07, 0x28,
        //     0: region 0 (then): the location of its tfrt.if, 2:8
        0x01, 0x00, 0x02, 0x08,
        //     4: region 1 (else): the tfrt.if again
        0x01, 0x00, 0x02, 0x08,
        //     8: tfrt.add.i32: 5:10
        0x01, 0x00, 0x05, 0x0a,
        //    12: function select: 1:1
        0x01, 0x00, 0x01, 0x01,
        //    16: tfrt.if: 2:8
        0x01, 0x00, 0x02, 0x08,
        // AttributeTypes: 1 bytes; id 8, VBR(1<<1)
        0x08, 0x02,
        //   no attributes
        0x00,
        // AttributeNames: 4 bytes; id 9, VBR(4<<1)
        0x09, 0x08,
        //   3 functions
        0x03,
        //   kernel counts 1, 2, 2; no names
        0x01, 0x02, 0x02,
        // RegisterTypes: 13 bytes; id 10, VBR(13<<1)
        0x0a, 0x1a,
        //   3 functions
        0x03,
        //   then: 2 registers of i32
        0x02, 0x00, 0x00,
        //   else: 3 registers of i32
        0x03, 0x00, 0x00, 0x00,
        //   select: i1, i32, i32, i32
        0x04, 0x01, 0x00, 0x00, 0x00,
    ];
    assert_eq!(expected.len(), 456);
    assert_golden("if_with_two_regions", SRC, expected);
}

/// A native declaration (kind 1, no body, offset 0, types from its
/// signature) and a sync function (kind 2) in generic form. The add's parent
/// is `%x`, so `%y` has no scheduled user and gets stream 1.
#[test]
fn native_declaration_and_sync_function() {
    const SRC: &str = r##"func.func private @native_add(i32, i32) -> i32 attributes {tfrt.native} loc("golden.mlir":1:1)

func.func @sync_add() -> i32 attributes {tfrt.sync} {
  %x = "tfrt.constant_s.i32"() {value = 1 : i32} : () -> i32 loc("golden.mlir":4:8)
  %y = "tfrt.constant_s.i32"() {value = 2 : i32} : () -> i32 loc("golden.mlir":5:8)
  %z = "tfrt.add_s.i32"(%x, %y) : (i32, i32) -> i32 loc("golden.mlir":6:8)
  tfrt.return %z : i32
} loc("golden.mlir":3:1)
"##;
    #[rustfmt::skip]
    let expected: &[u8] = &[
        // magic 0B EF, version 0
        0x0b, 0xef, 0x00,
        // Strings: 65 bytes; id 0, VBR(65<<1)
        0x00, 0x81, 0x02,
        //     0: "i32"
        b'i', b'3', b'2', 0,
        //     4: "native_add"
        b'n', b'a', b't', b'i', b'v', b'e', b'_', b'a', b'd', b'd', 0,
        //    15: "sync_add"
        b's', b'y', b'n', b'c', b'_', b'a', b'd', b'd', 0,
        //    24: "tfrt.add_s.i32"
        b't', b'f', b'r', b't', b'.', b'a', b'd', b'd', b'_', b's', b'.', b'i', b'3', b'2', 0,
        //    39: "tfrt.constant_s.i32"
        b't', b'f', b'r', b't', b'.', b'c', b'o', b'n', b's', b't', b'a', b'n', b't', b'_', b's', b'.',
        b'i', b'3', b'2', 0,
        //    59: "value"
        b'v', b'a', b'l', b'u', b'e', 0,
        // Attributes: 8 bytes; id 1, VBR(8<<1|1) (alignment form), alignment 4
        0x01, 0x11, 0x04,
        // padding: Attributes data starts at file offset 76
        0xcc, 0xcc,
        //   0: value = 1 : i32
        0x01, 0x00, 0x00, 0x00,
        //   4: value = 2 : i32
        0x02, 0x00, 0x00, 0x00,
        // Kernels: 3 bytes; id 2, VBR(3<<1)
        0x02, 0x06,
        //   2 kernels
        0x02,
        //   0: tfrt.constant_s.i32
        0x27,
        //   1: tfrt.add_s.i32
        0x18,
        // Types: 2 bytes; id 3, VBR(2<<1)
        0x03, 0x04,
        //   1 type
        0x01,
        //   0: i32 (from the native declaration, the first op visited)
        0x00,
        // FunctionIndex: 15 bytes; id 4, VBR(15<<1)
        0x04, 0x1e,
        //   2 functions
        0x02,
        //   native_add: kind 1 (native)
        0x01,
        //   offset 0 (no body), name
        0x00, 0x04,
        //   2 arguments: i32, i32
        0x02, 0x00, 0x00,
        //   1 result: i32
        0x01, 0x00,
        //   sync_add: kind 2 (sync)
        0x02,
        //   body offset, name
        0x00, 0x0f,
        //   no arguments
        0x00,
        //   1 result: i32
        0x01, 0x00,
        // Functions: 180 bytes; id 5, VBR(180<<1|1) (alignment form), alignment 4
        0x05, 0x82, 0x69, 0x04,
        // padding: Functions data starts at file offset 116
        0xcc, 0xcc,
        //   function 1 sync_add: body at Functions offset 0
        //   location record at offset 0
        0x00,
        //   register table: 3 registers, uses 1, 1, 1
        0x03, 0x01, 0x01, 0x01,
        //   kernel table: 4 kernels
        0x04,
        //     kernel 0: offset 0, 0 operands, stream 0
        0x00, 0x00, 0x00,
        //     kernel 1: offset 40, 0 operands, stream 0
        0x28, 0x00, 0x00,
        //     kernel 2: offset 80, 0 operands, stream 1
        0x50, 0x00, 0x01,
        //     kernel 3: offset 120, 2 operands, stream 0
        0x78, 0x02, 0x00,
        //   result registers 2
        0x02,
        //   padding to 4
        0xcc,
        //   kernel 0 (+0): pseudo kernel: code 0xABABABAB, location 0xCDCDCDCD, 0 args, 0 attrs, 0 funcs, 1 results
        //     users per result [2]; results 3; users 1 2
        0xab, 0xab, 0xab, 0xab, 0xcd, 0xcd, 0xcd, 0xcd, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00,
        0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,
        //   kernel 1 (+40): tfrt.constant_s.i32: code 0, location 4, 0 args, 1 attrs, 0 funcs, 1 results
        //     users per result [1]; attribute offsets 0; results 0; users 3
        0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00,
        //   kernel 2 (+80): tfrt.constant_s.i32: code 0, location 8, 0 args, 1 attrs, 0 funcs, 1 results
        //     users per result [1]; attribute offsets 4; results 1; users 3
        0x00, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00,
        0x01, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00,
        //   kernel 3 (+120): tfrt.add_s.i32: code 1, location 12, 2 args, 0 attrs, 0 funcs, 1 results
        //     users per result [0]; args 0 1; results 2
        0x01, 0x00, 0x00, 0x00, 0x0c, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,
        // LocationStrings: 12 bytes; id 6, VBR(12<<1)
        0x06, 0x18,
        //     0: "golden.mlir"
        b'g', b'o', b'l', b'd', b'e', b'n', b'.', b'm', b'l', b'i', b'r', 0,
        // Locations: 16 bytes; id 7, VBR(16<<1)
        0x07, 0x20,
        //     0: function sync_add: 3:1
        0x01, 0x00, 0x03, 0x01,
        //     4: %x: 4:8
        0x01, 0x00, 0x04, 0x08,
        //     8: %y: 5:8
        0x01, 0x00, 0x05, 0x08,
        //    12: %z: 6:8
        0x01, 0x00, 0x06, 0x08,
        // AttributeTypes: 5 bytes; id 8, VBR(5<<1)
        0x08, 0x0a,
        //   2 attributes
        0x02,
        //   offset 0: i32
        0x00, 0x08,
        //   offset 4: i32
        0x04, 0x08,
        // AttributeNames: 4 bytes; id 9, VBR(4<<1)
        0x09, 0x08,
        //   2 functions (nothing for the native one)
        0x02,
        //   sync_add: 4 kernels
        0x04,
        //     kernel 1: "value"
        0x3b,
        //     kernel 2: "value"
        0x3b,
        // RegisterTypes: 5 bytes; id 10, VBR(5<<1)
        0x0a, 0x0a,
        //   2 functions (nothing for the native one)
        0x02,
        //   sync_add: 3 registers of i32
        0x03, 0x00, 0x00, 0x00,
    ];
    assert_eq!(expected.len(), 348);
    assert_golden("native_declaration_and_sync_function", SRC, expected);
}

/// Locations of every kind: FileLineCol, Name (bare: child unknown), Fused,
/// CallSite, unknown, and a `#loc0` alias defined after the function. One
/// record per use; location strings shared in first-use order.
#[test]
fn locations_of_every_kind() {
    const SRC: &str = r##"func.func @locations() -> !tfrt.chain {
  %ch0 = tfrt.new.chain loc("golden.mlir":2:10)
  %ch1 = "tfrt_test.print_hello"(%ch0) : (!tfrt.chain) -> !tfrt.chain loc("hello")
  %ch2 = "tfrt_test.print_hello"(%ch1) : (!tfrt.chain) -> !tfrt.chain loc(fused["a.py":42:314, "b"])
  %ch3 = "tfrt_test.print_hello"(%ch2) : (!tfrt.chain) -> !tfrt.chain loc(callsite("f" at "a.py":1:2))
  %ch4 = "tfrt_test.print_hello"(%ch3) : (!tfrt.chain) -> !tfrt.chain loc(unknown)
  %ch5 = "tfrt_test.print_hello"(%ch4) : (!tfrt.chain) -> !tfrt.chain loc(#loc0)
  tfrt.return %ch5 : !tfrt.chain
} loc("golden.mlir":1:1)
#loc0 = loc("scope/op"("golden.mlir":7:10))
"##;
    #[rustfmt::skip]
    let expected: &[u8] = &[
        // magic 0B EF, version 0
        0x0b, 0xef, 0x00,
        // Strings: 59 bytes; id 0, VBR(59<<1)
        0x00, 0x76,
        //     0: "!tfrt.chain"
        b'!', b't', b'f', b'r', b't', b'.', b'c', b'h', b'a', b'i', b'n', 0,
        //    12: "locations"
        b'l', b'o', b'c', b'a', b't', b'i', b'o', b'n', b's', 0,
        //    22: "tfrt.new.chain"
        b't', b'f', b'r', b't', b'.', b'n', b'e', b'w', b'.', b'c', b'h', b'a', b'i', b'n', 0,
        //    37: "tfrt_test.print_hello"
        b't', b'f', b'r', b't', b'_', b't', b'e', b's', b't', b'.', b'p', b'r', b'i', b'n', b't', b'_',
        b'h', b'e', b'l', b'l', b'o', 0,
        // Attributes: 0 bytes; id 1, VBR(0<<1)
        0x01, 0x00,
        // Kernels: 3 bytes; id 2, VBR(3<<1)
        0x02, 0x06,
        //   2 kernels
        0x02,
        //   0: tfrt.new.chain
        0x16,
        //   1: tfrt_test.print_hello
        0x25,
        // Types: 2 bytes; id 3, VBR(2<<1)
        0x03, 0x04,
        //   1 type
        0x01,
        //   0: !tfrt.chain
        0x00,
        // FunctionIndex: 7 bytes; id 4, VBR(7<<1)
        0x04, 0x0e,
        //   1 function
        0x01,
        //   kind 0
        0x00,
        //   body offset, name
        0x00, 0x0c,
        //   no arguments
        0x00,
        //   1 result: !tfrt.chain
        0x01, 0x00,
        // Functions: 304 bytes; id 5, VBR(304<<1|1) (alignment form), alignment 4
        0x05, 0x84, 0x61, 0x04,
        //   function 0 locations: body at Functions offset 0
        //   location record at offset 0
        0x00,
        //   register table: 6 registers, uses 1, 1, 1, 1, 1, 1
        0x06, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01,
        //   kernel table: 7 kernels
        0x07,
        //     kernel 0: offset 0, 0 operands, stream 0
        0x00, 0x00, 0x00,
        //     kernel 1: offset 36, 0 operands, stream 0
        0x24, 0x00, 0x00,
        //     kernel 2: offset 72, 1 operands, stream 0
        0x48, 0x01, 0x00,
        //     kernel 3: offset 112, 1 operands, stream 0
        0x70, 0x01, 0x00,
        //     kernel 4: offset 152, 1 operands, stream 0
        0x81, 0x18, 0x01, 0x00,
        //     kernel 5: offset 192, 1 operands, stream 0
        0x81, 0x40, 0x01, 0x00,
        //     kernel 6: offset 232, 1 operands, stream 0
        0x81, 0x68, 0x01, 0x00,
        //   result registers 5
        0x05,
        //   padding to 4
        0xcc, 0xcc,
        //   kernel 0 (+0): pseudo kernel: code 0xABABABAB, location 0xCDCDCDCD, 0 args, 0 attrs, 0 funcs, 1 results
        //     users per result [1]; results 6; users 1
        0xab, 0xab, 0xab, 0xab, 0xcd, 0xcd, 0xcd, 0xcd, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x06, 0x00, 0x00, 0x00,
        0x01, 0x00, 0x00, 0x00,
        //   kernel 1 (+36): tfrt.new.chain: code 0, location 4, 0 args, 0 attrs, 0 funcs, 1 results
        //     users per result [1]; results 0; users 2
        0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x02, 0x00, 0x00, 0x00,
        //   kernel 2 (+72): print_hello %ch1: code 1, location 8, 1 args, 0 attrs, 0 funcs, 1 results
        //     users per result [1]; args 0; results 1; users 3
        0x01, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x01, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00,
        //   kernel 3 (+112): print_hello %ch2: code 1, location 11, 1 args, 0 attrs, 0 funcs, 1 results
        //     users per result [1]; args 1; results 2; users 4
        0x01, 0x00, 0x00, 0x00, 0x0b, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
        0x02, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00,
        //   kernel 4 (+152): print_hello %ch3: code 1, location 21, 1 args, 0 attrs, 0 funcs, 1 results
        //     users per result [1]; args 2; results 3; users 5
        0x01, 0x00, 0x00, 0x00, 0x15, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,
        0x03, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00,
        //   kernel 5 (+192): print_hello %ch4: code 1, location 29, 1 args, 0 attrs, 0 funcs, 1 results
        //     users per result [1]; args 3; results 4; users 6
        0x01, 0x00, 0x00, 0x00, 0x1d, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00,
        0x04, 0x00, 0x00, 0x00, 0x06, 0x00, 0x00, 0x00,
        //   kernel 6 (+232): print_hello %ch5: code 1, location 30, 1 args, 0 attrs, 0 funcs, 1 results
        //     users per result [0]; args 4; results 5
        0x01, 0x00, 0x00, 0x00, 0x1e, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00,
        0x05, 0x00, 0x00, 0x00,
        // LocationStrings: 36 bytes (first-use order, not sorted); id 6, VBR(36<<1)
        0x06, 0x48,
        //     0: "golden.mlir"
        b'g', b'o', b'l', b'd', b'e', b'n', b'.', b'm', b'l', b'i', b'r', 0,
        //    12: "hello"
        b'h', b'e', b'l', b'l', b'o', 0,
        //    18: "a.py"
        b'a', b'.', b'p', b'y', 0,
        //    23: "b"
        b'b', 0,
        //    25: "f"
        b'f', 0,
        //    27: "scope/op"
        b's', b'c', b'o', b'p', b'e', b'/', b'o', b'p', 0,
        // Locations: 36 bytes (one record per use); id 7, VBR(36<<1)
        0x07, 0x48,
        //     0: function: FileLineCol "golden.mlir":1:1 (string 0)
        0x01, 0x00, 0x01, 0x01,
        //     4: tfrt.new.chain: FileLineCol 2:10
        0x01, 0x00, 0x02, 0x0a,
        //     8: Name "hello" (string 12), child unknown
        0x02, 0x0c, 0x00,
        //    11: Fused, 2 locations: FileLineCol "a.py" (string 18):42:314 (VBR 82 3a), Name "b" (string 23) of unknown
        0x04, 0x02, 0x01, 0x12, 0x2a, 0x82, 0x3a, 0x02, 0x17, 0x00,
        //    21: CallSite: callee Name "f" (string 25) of unknown, caller FileLineCol "a.py":1:2
        0x03, 0x02, 0x19, 0x00, 0x01, 0x12, 0x01, 0x02,
        //    29: Unknown
        0x00,
        //    30: the #loc0 alias: Name "scope/op" (string 27) of FileLineCol "golden.mlir":7:10
        0x02, 0x1b, 0x01, 0x00, 0x07, 0x0a,
        // AttributeTypes: 1 bytes; id 8, VBR(1<<1)
        0x08, 0x02,
        //   no attributes
        0x00,
        // AttributeNames: 2 bytes; id 9, VBR(2<<1)
        0x09, 0x04,
        //   1 function, 7 kernels, no names
        0x01, 0x07,
        // RegisterTypes: 8 bytes; id 10, VBR(8<<1)
        0x0a, 0x10,
        //   1 function
        0x01,
        //   6 registers of !tfrt.chain
        0x06, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    ];
    assert_eq!(expected.len(), 485);
    assert_golden("locations_of_every_kind", SRC, expected);
}

/// Arrays, dense elements, a shape with an unknown dimension and a type
/// array; the second op reuses the first op's array (one copy in the
/// Attributes section). `i32` is in the Types section only as the element
/// type of an array attribute. Streams: the two kernels and the return have
/// no operands, so all three are scheduled users of the root and none has a
/// user; the backward pass opens stream 0 (the return), 1 (second kernel)
/// and 2 (first kernel), and the root joins the return's stream 0 (all cost
/// 1; without the return it would join its first child, stream 2).
#[test]
fn arrays_dense_shape_and_shared_attributes() {
    const SRC: &str = r##"func.func @arrays() {
  "tfrt_test.attrs"() {arr = [1 : i32, 2 : i32], dense = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>, shape = #corert.shape<1x?x3>, types = [f64, f32]} : () -> () loc("golden.mlir":2:3)
  "tfrt_test.attrs"() {arr = [1 : i32, 2 : i32], name = "x"} : () -> () loc("golden.mlir":3:3)
  tfrt.return
} loc("golden.mlir":1:1)
"##;
    #[rustfmt::skip]
    let expected: &[u8] = &[
        // magic 0B EF, version 0
        0x0b, 0xef, 0x00,
        // Strings: 54 bytes; id 0, VBR(54<<1)
        0x00, 0x6c,
        //     0: "arr"
        b'a', b'r', b'r', 0,
        //     4: "arrays"
        b'a', b'r', b'r', b'a', b'y', b's', 0,
        //    11: "dense"
        b'd', b'e', b'n', b's', b'e', 0,
        //    17: "i32"
        b'i', b'3', b'2', 0,
        //    21: "name"
        b'n', b'a', b'm', b'e', 0,
        //    26: "shape"
        b's', b'h', b'a', b'p', b'e', 0,
        //    32: "tfrt_test.attrs"
        b't', b'f', b'r', b't', b'_', b't', b'e', b's', b't', b'.', b'a', b't', b't', b'r', b's', 0,
        //    48: "types"
        b't', b'y', b'p', b'e', b's', 0,
        // Attributes: 117 bytes (the second op reuses arr); id 1, VBR(117<<1|1) (alignment form), alignment 8
        0x01, 0x81, 0x6b, 0x08,
        // padding: Attributes data starts at file offset 64
        0xcc,
        //   0: arr = [1 : i32, 2 : i32] (I32 array): count 2, then the 4-aligned elements 1, 2
        0x02, 0x00, 0x00, 0x00,
        0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,
        //   12: dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>: header {alignment 8, dtype 8 (i32), prefix 36 = 20 + 8*rank, byte size 52}
        0x08, 0x08, 0x24, 0x00, 0x34, 0x00, 0x00, 0x00,
        //     element offset 36, element count 4, rank 2
        0x24, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,
        //     dims 2, 2 (i64)
        0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        //     elements 1, 2, 3, 4 (row-major i32)
        0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00,
        //   padding: header at 68, so that header + 12 is 8-aligned
        0xcc, 0xcc, 0xcc, 0xcc,
        //   68: #corert.shape<1x?x3>: header {alignment 8, dtype 0, prefix 12, byte size 12 + 8*3 = 36}
        0x08, 0x00, 0x0c, 0x00, 0x24, 0x00, 0x00, 0x00,
        //     rank 3
        0x03, 0x00, 0x00, 0x00,
        //     dims 1, -1 (unknown), 3 (i64, 8-aligned)
        0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        //   104: types = [f64, f32] (type array): count 2
        0x02, 0x00, 0x00, 0x00,
        //     dtypes F64 = 11, F32 = 10
        0x0b, 0x0a,
        //   padding to 4
        0xcc, 0xcc,
        //   112: name = "x": length 1
        0x01, 0x00, 0x00, 0x00,
        b'x',
        // Kernels: 2 bytes; id 2, VBR(2<<1)
        0x02, 0x04,
        //   1 kernel
        0x01,
        //   0: tfrt_test.attrs
        0x20,
        // Types: 2 bytes; id 3, VBR(2<<1)
        0x03, 0x04,
        //   1 type
        0x01,
        //   0: i32 (element type of arr; no value has it)
        0x11,
        // FunctionIndex: 6 bytes; id 4, VBR(6<<1)
        0x04, 0x0c,
        //   1 function
        0x01,
        //   kind 0
        0x00,
        //   body offset, name
        0x00, 0x04,
        //   no arguments, no results
        0x00, 0x00,
        // Functions: 124 bytes; id 5, VBR(124<<1)
        0x05, 0x81, 0x78,
        //   function 0 arrays: body at Functions offset 0
        //   location record at offset 0
        0x00,
        //   register table: no registers
        0x00,
        //   kernel table: 3 kernels
        0x03,
        //     kernel 0: offset 0, 0 operands, stream 0
        0x00, 0x00, 0x00,
        //     kernel 1: offset 40, 0 operands, stream 2
        0x28, 0x00, 0x02,
        //     kernel 2: offset 80, 0 operands, stream 1
        0x50, 0x00, 0x01,
        //   kernel 0 (+0): pseudo kernel: code 0xABABABAB, location 0xCDCDCDCD, 0 args, 0 attrs, 0 funcs, 1 results
        //     users per result [2]; results 0; users 1 2
        0xab, 0xab, 0xab, 0xab, 0xcd, 0xcd, 0xcd, 0xcd, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,
        //   kernel 1 (+40): tfrt_test.attrs: code 0, location 4, 0 args, 4 attrs, 0 funcs, 0 results
        //     users per result []; attribute offsets 0 12 68 104
        0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0c, 0x00, 0x00, 0x00,
        0x44, 0x00, 0x00, 0x00, 0x68, 0x00, 0x00, 0x00,
        //   kernel 2 (+80): tfrt_test.attrs: code 0, location 8, 0 args, 2 attrs, 0 funcs, 0 results
        //     users per result []; attribute offsets 0 112
        0x00, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x70, 0x00, 0x00, 0x00,
        // LocationStrings: 12 bytes; id 6, VBR(12<<1)
        0x06, 0x18,
        //     0: "golden.mlir"
        b'g', b'o', b'l', b'd', b'e', b'n', b'.', b'm', b'l', b'i', b'r', 0,
        // Locations: 12 bytes; id 7, VBR(12<<1)
        0x07, 0x18,
        //     0: function arrays: 1:1
        0x01, 0x00, 0x01, 0x01,
        //     4: first tfrt_test.attrs: 2:3
        0x01, 0x00, 0x02, 0x03,
        //     8: second tfrt_test.attrs: 3:3
        0x01, 0x00, 0x03, 0x03,
        // AttributeTypes: 13 bytes; id 8, VBR(13<<1)
        0x08, 0x1a,
        //   5 attributes
        0x05,
        //   0: I32 array (0x80 | 8)
        0x00, 0x81, 0x08,
        //   12: dense
        0x0c, 0x1c,
        //   68: shape
        0x44, 0x1b,
        //   104: type array (0x80 | 25)
        0x68, 0x81, 0x19,
        //   112: string
        0x70, 0x10,
        // AttributeNames: 8 bytes; id 9, VBR(8<<1)
        0x09, 0x10,
        //   1 function, 3 kernels
        0x01, 0x03,
        //   kernel 1: arr, dense, shape, types
        0x00, 0x0b, 0x1a, 0x30,
        //   kernel 2: arr, name
        0x00, 0x15,
        // RegisterTypes: 2 bytes; id 10, VBR(2<<1)
        0x0a, 0x04,
        //   1 function with 0 registers
        0x01, 0x00,
    ];
    assert_eq!(expected.len(), 381);
    assert_golden("arrays_dense_shape_and_shared_attributes", SRC, expected);
}

/// `tfrt.case` (generic form, so the attribute name is pinned) with an
/// array of function references: two function indices, no attribute, but
/// the name `branches` is still in the Strings section. In `b1` the add uses
/// `%x` twice: two register uses and two entries in the pseudo kernel's
/// used-by list. In `pick`, `%x` is used by the case and then by the add:
/// its used-by list names the add (the newest use) first.
#[test]
fn case_with_an_array_of_functions() {
    const SRC: &str = r##"func.func @b0(%x: i32) -> i32 {
  tfrt.return %x : i32
} loc("golden.mlir":1:1)

func.func @b1(%x: i32) -> i32 {
  %y = tfrt.add.i32 %x, %x loc("golden.mlir":6:8)
  tfrt.return %y : i32
} loc("golden.mlir":5:1)

func.func @pick(%i: i32, %x: i32) -> i32 {
  %r = "tfrt.case"(%i, %x) {branches = [@b0, @b1]} : (i32, i32) -> i32 loc("golden.mlir":11:8)
  %s = tfrt.add.i32 %x, %r loc("golden.mlir":12:8)
  tfrt.return %s : i32
} loc("golden.mlir":10:1)
"##;
    #[rustfmt::skip]
    let expected: &[u8] = &[
        // magic 0B EF, version 0
        0x0b, 0xef, 0x00,
        // Strings: 47 bytes ("branches" is kept although nothing refers to it); id 0, VBR(47<<1)
        0x00, 0x5e,
        //     0: "b0"
        b'b', b'0', 0,
        //     3: "b1"
        b'b', b'1', 0,
        //     6: "branches"
        b'b', b'r', b'a', b'n', b'c', b'h', b'e', b's', 0,
        //    15: "i32"
        b'i', b'3', b'2', 0,
        //    19: "pick"
        b'p', b'i', b'c', b'k', 0,
        //    24: "tfrt.add.i32"
        b't', b'f', b'r', b't', b'.', b'a', b'd', b'd', b'.', b'i', b'3', b'2', 0,
        //    37: "tfrt.case"
        b't', b'f', b'r', b't', b'.', b'c', b'a', b's', b'e', 0,
        // Attributes: 0 bytes; id 1, VBR(0<<1)
        0x01, 0x00,
        // Kernels: 3 bytes; id 2, VBR(3<<1)
        0x02, 0x06,
        //   2 kernels
        0x02,
        //   0: tfrt.add.i32
        0x18,
        //   1: tfrt.case
        0x25,
        // Types: 2 bytes; id 3, VBR(2<<1)
        0x03, 0x04,
        //   1 type
        0x01,
        //   0: i32
        0x0f,
        // FunctionIndex: 24 bytes; id 4, VBR(24<<1)
        0x04, 0x30,
        //   3 functions
        0x03,
        //   b0: kind 0
        0x00,
        //   body offset, name
        0x00, 0x00,
        //   1 argument: i32
        0x01, 0x00,
        //   1 result: i32
        0x01, 0x00,
        //   b1: kind 0
        0x00,
        //   body offset, name
        0x30, 0x03,
        //   1 argument: i32
        0x01, 0x00,
        //   1 result: i32
        0x01, 0x00,
        //   pick: kind 0
        0x00,
        //   body offset, name
        0x81, 0x14, 0x13,
        //   2 arguments: i32, i32
        0x02, 0x00, 0x00,
        //   1 result: i32
        0x01, 0x00,
        // Functions: 320 bytes; id 5, VBR(320<<1)
        0x05, 0x85, 0x00,
        //   function 0 b0: %x 0; returns its argument: body at Functions offset 0
        //   location record at offset 0
        0x00,
        //   register table: 1 registers, uses 1
        0x01, 0x01,
        //   kernel table: 1 kernels
        0x01,
        //     kernel 0: offset 0, 0 operands, stream 0
        0x00, 0x00, 0x00,
        //   result registers 0
        0x00,
        //   kernel 0 (+0): pseudo kernel: code 0xABABABAB, location 0xCDCDCDCD, 0 args, 0 attrs, 0 funcs, 2 results
        //     users per result [0, 0]; results 1 0
        0xab, 0xab, 0xab, 0xab, 0xcd, 0xcd, 0xcd, 0xcd, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        //   function 1 b1: %x 0 (used twice by the add), %y 1: body at Functions offset 48
        //   location record at offset 4
        0x04,
        //   register table: 2 registers, uses 2, 1
        0x02, 0x02, 0x01,
        //   kernel table: 2 kernels
        0x02,
        //     kernel 0: offset 0, 0 operands, stream 0
        0x00, 0x00, 0x00,
        //     kernel 1: offset 48, 2 operands, stream 0
        0x30, 0x02, 0x00,
        //   result registers 1
        0x01,
        //   kernel 0 (+0): pseudo kernel: code 0xABABABAB, location 0xCDCDCDCD, 0 args, 0 attrs, 0 funcs, 2 results
        //     users per result [0, 2]; results 2 0; users - | 1 1
        0xab, 0xab, 0xab, 0xab, 0xcd, 0xcd, 0xcd, 0xcd, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,
        0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
        //   kernel 1 (+48): tfrt.add.i32: code 0, location 8, 2 args, 0 attrs, 0 funcs, 1 results
        //     users per result [0]; args 0 0; results 1
        0x00, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
        //   function 2 pick: %i 0, %x 1 (used by kernels 1 and 2: listed newest first), %r 2, %s 3: body at Functions offset 148
        //   location record at offset 12
        0x0c,
        //   register table: 4 registers, uses 1, 2, 1, 1
        0x04, 0x01, 0x02, 0x01, 0x01,
        //   kernel table: 3 kernels
        0x03,
        //     kernel 0: offset 0, 0 operands, stream 0
        0x00, 0x00, 0x00,
        //     kernel 1: offset 60, 2 operands, stream 0
        0x3c, 0x02, 0x00,
        //     kernel 2: offset 112, 2 operands, stream 0
        0x70, 0x02, 0x00,
        //   result registers 3
        0x03,
        //   padding to 4
        0xcc, 0xcc, 0xcc,
        //   kernel 0 (+0): pseudo kernel: code 0xABABABAB, location 0xCDCDCDCD, 0 args, 0 attrs, 0 funcs, 3 results
        //     users per result [0, 1, 2]; results 4 0 1; users - | 1 | 2 1
        0xab, 0xab, 0xab, 0xab, 0xcd, 0xcd, 0xcd, 0xcd, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
        0x02, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
        0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
        //   kernel 1 (+60): tfrt.case: code 1, location 16, 2 args, 0 attrs, 2 funcs, 1 results
        //     users per result [1]; args 0 1; functions 0 1; results 2; users 2
        0x01, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,
        0x02, 0x00, 0x00, 0x00,
        //   kernel 2 (+112): tfrt.add.i32: code 0, location 20, 2 args, 0 attrs, 0 funcs, 1 results
        //     users per result [0]; args 1 2; results 3
        0x00, 0x00, 0x00, 0x00, 0x14, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
        0x02, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00,
        // LocationStrings: 12 bytes; id 6, VBR(12<<1)
        0x06, 0x18,
        //     0: "golden.mlir"
        b'g', b'o', b'l', b'd', b'e', b'n', b'.', b'm', b'l', b'i', b'r', 0,
        // Locations: 24 bytes; id 7, VBR(24<<1)
        0x07, 0x30,
        //     0: function b0: 1:1
        0x01, 0x00, 0x01, 0x01,
        //     4: function b1: 5:1
        0x01, 0x00, 0x05, 0x01,
        //     8: tfrt.add.i32: 6:8
        0x01, 0x00, 0x06, 0x08,
        //    12: function pick: 10:1
        0x01, 0x00, 0x0a, 0x01,
        //    16: tfrt.case: 11:8
        0x01, 0x00, 0x0b, 0x08,
        //    20: tfrt.add.i32: 12:8
        0x01, 0x00, 0x0c, 0x08,
        // AttributeTypes: 1 bytes; id 8, VBR(1<<1)
        0x08, 0x02,
        //   no attributes: the branches are functions
        0x00,
        // AttributeNames: 4 bytes; id 9, VBR(4<<1)
        0x09, 0x08,
        //   3 functions with 1, 2, 3 kernels; no names
        0x03, 0x01, 0x02, 0x03,
        // RegisterTypes: 11 bytes; id 10, VBR(11<<1)
        0x0a, 0x16,
        //   3 functions
        0x03,
        //   b0: 1 register
        0x01, 0x00,
        //   b1: 2 registers
        0x02, 0x00, 0x00,
        //   pick: 4 registers
        0x04, 0x00, 0x00, 0x00, 0x00,
    ];
    assert_eq!(expected.len(), 474);
    assert_golden("case_with_an_array_of_functions", SRC, expected);
}
