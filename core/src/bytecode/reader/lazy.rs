//! Lazy loading (`read_lazy`): the regions of isolated-from-above ops
//! below the root (functions, nested modules) stay as byte ranges of their
//! nested IR sections (versions 2+) and are decoded when first visited, as
//! upstream's lazy loading does. Kept out of `ir::Module` so the rest of
//! the crate sees ordinary, fully decoded ops.

use std::ops::Range;

use super::super::error::{BytecodeError, Result};
use super::Structure;
use super::ir::{Deferred, read_deferred, read_ir_with};
use crate::ir::{Module, Op};

/// A module whose isolated regions decode on demand. An op is named by its
/// path from `module().op`: (region, block, op) index triples.
pub struct LazyModule<'a> {
    structure: Structure<'a>,
    module: Module,
    pending: Vec<Deferred<'a>>,
}

/// Frames `bytes` and decodes the IR except the regions of isolated ops
/// below the root, which `LazyModule::load` decodes later. Errors inside
/// an undecoded region surface when it is loaded. Files before version 2
/// have no nested sections, so everything is decoded at once.
pub fn read_lazy(bytes: &[u8]) -> Result<LazyModule<'_>> {
    let mut structure = Structure::parse(bytes)?;
    let (mut module, pending, _) = read_ir_with(&mut structure, true)?;
    structure.attach_metadata(&mut module);
    Ok(LazyModule {
        structure,
        module,
        pending,
    })
}

impl<'a> LazyModule<'a> {
    /// The module as decoded so far: ops still pending have no regions.
    pub fn module(&self) -> &Module {
        &self.module
    }

    /// Paths of the ops whose regions are not decoded yet, with the byte
    /// range of the nested section holding them.
    pub fn pending(&self) -> impl Iterator<Item = (&[usize], Range<usize>)> + '_ {
        self.pending.iter().map(|d| {
            let start = d.data.offset();
            (d.path.as_slice(), start..start + d.data.remaining())
        })
    }

    /// Whether the op at `path` has its regions decoded.
    pub fn is_loaded(&self, path: &[usize]) -> bool {
        !self.pending.iter().any(|d| d.path == path)
    }

    /// The op at `path`, decoding its regions first if they are pending
    /// (isolated ops inside them become pending in turn).
    pub fn load(&mut self, path: &[usize]) -> Result<&Op> {
        if let Some(i) = self.pending.iter().position(|d| d.path == path) {
            let deferred = self.pending.swap_remove(i);
            self.decode(deferred)?;
        }
        op_at(&mut self.module.op, path)
            .map(|op| &*op)
            .ok_or_else(|| no_op(path))
    }

    /// Decodes every pending region: the same module `read` gives.
    pub fn into_module(mut self) -> Result<Module> {
        while let Some(deferred) = self.pending.pop() {
            self.decode(deferred)?;
        }
        self.module.renumber_values();
        Ok(self.module)
    }

    fn decode(&mut self, deferred: Deferred<'a>) -> Result<()> {
        let op = op_at(&mut self.module.op, &deferred.path).ok_or_else(|| no_op(&deferred.path))?;
        let shell = std::mem::take(op);
        let (decoded, nested, _) = read_deferred(
            &mut self.structure,
            shell,
            &deferred,
            &mut self.module.values,
            true,
        )?;
        *op_at(&mut self.module.op, &deferred.path).expect("found above") = decoded;
        self.pending.extend(nested.into_iter().map(|mut d| {
            d.path.splice(0..0, deferred.path.iter().copied());
            d
        }));
        Ok(())
    }
}

pub(super) fn op_at<'m>(mut op: &'m mut Op, path: &[usize]) -> Option<&'m mut Op> {
    if !path.len().is_multiple_of(3) {
        return None;
    }
    for step in path.chunks_exact(3) {
        op = op
            .regions
            .get_mut(step[0])?
            .blocks
            .get_mut(step[1])?
            .ops
            .get_mut(step[2])?;
    }
    Some(op)
}

fn no_op(path: &[usize]) -> BytecodeError {
    BytecodeError::new(0, format!("no op at path {path:?}"))
}
