//! Host programs ↔ BEF.
//!
//! `mlir_to_bef` lays a module out exactly as the reference `mlir_to_bef`
//! does (fact sheet `bef-encoding.md`), including its order of types,
//! kernels, functions and attributes, its stream analysis and its error
//! messages. `bef_to_mlir` rebuilds the module from a file's optional
//! sections, so that text → BEF → text → BEF gives the same bytes.

mod attributes;
mod compiled;
mod from_bef;
#[cfg(test)]
pub(crate) mod stream_model;
mod streams;
mod to_bef;

pub use attributes::{dtype_of, type_of};
pub use from_bef::{bef_to_mlir, missing_optional_sections};
pub use streams::{
    StreamInfoSummary, StreamOp, StreamOptions, StreamTree, Streams, analyze as analyze_streams,
    analyze_tree as analyze_stream_tree,
};
pub use to_bef::{TranslateOptions, mlir_to_bef, mlir_to_bef_model};
pub use to_bef::{function_streams, mlir_to_bef_model_on_two_threads};

/// Attribute names the encoder leaves out of kernels. `_tfrt_cost` is the
/// reference's cost annotation for the stream analysis; the other two carry
/// stream ids decoded from a BEF file through text, so that re-encoding
/// gives the same streams even though the costs that made them are gone.
pub const COST_ATTRIBUTE: &str = "_tfrt_cost";
/// Stream id of a kernel decoded from BEF, so that re-encoding keeps it.
pub const STREAM_ID_ATTRIBUTE: &str = "_tfrt_stream_id";
/// Stream ids of the roots of an op's regions (or of a function's body)
/// decoded from BEF, so that re-encoding keeps them; `-1` for none.
pub const ROOT_STREAM_IDS_ATTRIBUTE: &str = "_tfrt_root_stream_ids";

fn is_skipped_attribute(name: &str) -> bool {
    matches!(
        name,
        COST_ATTRIBUTE | STREAM_ID_ATTRIBUTE | ROOT_STREAM_IDS_ATTRIBUTE
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{BefBuffer, BefFile};
    use crate::ir::{Attribute, Block, FUNC_OP, Location, Module, Op, Region, Type};

    fn loc(line: u32, column: u32) -> Location {
        Location::file_line_col("golden.mlir", line, column)
    }

    /// The program of `corpus/bef/add_i32.bef`, built as IR.
    fn add_i32() -> Module {
        let mut module = Module::new(Location::Unknown);
        let a = module.new_value(Type::i(32), None);
        let b = module.new_value(Type::i(32), None);
        let c = module.new_value(Type::i(32), None);
        let mut func = Op::new(FUNC_OP, loc(1, 1));
        func.set_attribute("sym_name", Attribute::string("add"));
        func.set_attribute(
            "function_type",
            Attribute::Type(Type::Function {
                inputs: vec![Type::i(32), Type::i(32)],
                results: vec![Type::i(32)],
            }),
        );
        let mut add = Op::new("tfrt.add.i32", loc(2, 8));
        add.operands = vec![a, b];
        add.results = vec![c];
        let mut ret = Op::new("tfrt.return", loc(3, 3));
        ret.operands = vec![c];
        func.regions.push(Region {
            blocks: vec![Block {
                arguments: vec![a, b],
                ops: vec![add, ret],
            }],
        });
        module.body_mut().ops.push(func);
        module
    }

    #[test]
    fn add_i32_matches_the_hand_checked_golden_file() {
        let golden = std::fs::read(crate::test_corpus::corpus_path("bef/add_i32.bef")).unwrap();
        let bytes = mlir_to_bef(&add_i32(), TranslateOptions::default()).unwrap();
        assert_eq!(bytes, golden);
    }

    #[test]
    fn add_i32_comes_back_from_bef() {
        let bytes = mlir_to_bef(&add_i32(), TranslateOptions::default()).unwrap();
        let buffer = BefBuffer::copy_from(&bytes);
        let file = BefFile::open(buffer.bytes()).unwrap();
        let module = bef_to_mlir(&file).unwrap();
        let again = mlir_to_bef(&module, TranslateOptions::default()).unwrap();
        assert_eq!(again, bytes);
    }
}
