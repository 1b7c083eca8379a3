//! `--tfrt-print-stream`: the stream analysis of every function, reported
//! as remarks in the reference's format, one at the function (its root
//! stream) and one at each op of its body:
//!
//! ```text
//! stream id: 0, stream cost: 22, parent stream: -1, child streams: [1]
//! ```
//!
//! `child streams` lists the streams the op (or, at the function, the
//! function entry) starts, and is left out when there are none. The
//! analysis is the translator's (`translate::function_streams`), so the
//! ids are those written into BEF.

use std::fmt::Write;

use crate::ir::{Diagnostic, Module};
use crate::translate::{StreamTree, function_streams};

/// The remarks for every function of `module` with a body, in order.
pub fn print_streams(module: &Module) -> Vec<Diagnostic> {
    let mut remarks = Vec::new();
    for func in module.functions() {
        let Some(block) = func.body().and_then(|b| b.blocks.first()) else {
            continue;
        };
        let Some(tree) = function_streams(module, func.op) else {
            continue;
        };
        remarks.push(Diagnostic::remark(
            func.op.location.clone(),
            describe(&tree, None),
        ));
        for (i, op) in block.ops.iter().enumerate() {
            remarks.push(Diagnostic::remark(
                op.location.clone(),
                describe(&tree, Some(i)),
            ));
        }
    }
    remarks
}

/// The remark for the root (`None`) or op `op` of a function.
fn describe(tree: &StreamTree, op: Option<usize>) -> String {
    let Some(stream) = tree.stream_of(op) else {
        return "no stream".to_string();
    };
    let parent = stream.parent.map_or(-1, |p| p as i128);
    let mut text = format!(
        "stream id: {}, stream cost: {}, parent stream: {parent}",
        stream.id, stream.cost
    );
    let children = tree.children_of(op);
    if !children.is_empty() {
        text.push_str(", child streams: [");
        for (i, child) in children.iter().enumerate() {
            if i > 0 {
                text.push_str(", ");
            }
            let _ = write!(text, "{child}");
        }
        text.push(']');
    }
    text
}
