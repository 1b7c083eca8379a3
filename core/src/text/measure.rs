//! Sizes and nesting depths of parsed attributes, types and locations.
//! An alias's value is measured once, at its definition; every use of the
//! alias copies the value, and is charged for what it copies and checked
//! for how deep it nests where it is used.

use crate::ir::{Attribute, Location, Type};

/// What a value holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Measure {
    /// Attributes, types and locations in the value, the root included.
    pub size: u64,
    /// Nodes of any kind on the longest path down from the root.
    pub levels: u32,
    /// Attribute nodes on the path with most of them.
    pub attr_levels: u32,
    /// Location nodes on the path with most of them.
    pub loc_levels: u32,
}

/// Which kind a node is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Attribute,
    Type,
    Location,
}

impl Measure {
    /// A node of `kind` above `children`.
    fn node(kind: Kind, children: impl IntoIterator<Item = Measure>) -> Measure {
        let mut m = Measure::default();
        for child in children {
            m.size = m.size.saturating_add(child.size);
            m.levels = m.levels.max(child.levels);
            m.attr_levels = m.attr_levels.max(child.attr_levels);
            m.loc_levels = m.loc_levels.max(child.loc_levels);
        }
        m.size = m.size.saturating_add(1);
        m.levels += 1;
        m.attr_levels += u32::from(kind == Kind::Attribute);
        m.loc_levels += u32::from(kind == Kind::Location);
        m
    }
}

/// Measures an attribute. Recursion is bounded by the parser's nesting
/// limits, which every parsed value and every use of an alias obey.
pub(super) fn attribute(attr: &Attribute) -> Measure {
    let one = |a: &Attribute| attribute(a);
    let ty = |t: &Type| of_type(t);
    let node = |children: Vec<Measure>| Measure::node(Kind::Attribute, children);
    match attr {
        Attribute::Integer { ty: t, .. }
        | Attribute::Float { ty: t, .. }
        | Attribute::WideInteger { ty: t, .. }
        | Attribute::Type(t)
        | Attribute::DenseArray { element: t, .. }
        | Attribute::DenseResource { ty: t, .. }
        | Attribute::DenseStrings { ty: t, .. } => node(vec![ty(t)]),
        Attribute::DenseElements(dense) => node(vec![ty(&dense.ty)]),
        Attribute::String { ty: t, .. } => node(t.iter().map(ty).collect()),
        Attribute::Array(elements) => node(elements.iter().map(one).collect()),
        Attribute::Dictionary(entries) => node(entries.iter().map(|(_, a)| one(a)).collect()),
        Attribute::Location(loc) => node(vec![location(loc)]),
        Attribute::Distinct { referenced, .. } => node(vec![one(referenced)]),
        Attribute::Sparse {
            ty: t,
            indices,
            values,
        } => node(vec![ty(t), one(indices), one(values)]),
        Attribute::Unit
        | Attribute::Bool(_)
        | Attribute::SymbolRef { .. }
        | Attribute::Shape(_)
        | Attribute::Dialect { .. }
        | Attribute::AffineMap(_)
        | Attribute::IntegerSet(_)
        | Attribute::StridedLayout { .. } => node(Vec::new()),
    }
}

/// Measures a type.
pub(super) fn of_type(ty: &Type) -> Measure {
    let one = |t: &Type| of_type(t);
    let attr = |a: &Attribute| attribute(a);
    let node = |children: Vec<Measure>| Measure::node(Kind::Type, children);
    match ty {
        Type::Complex(element) => node(vec![one(element)]),
        Type::Tensor {
            element, encoding, ..
        } => node(
            std::iter::once(one(element))
                .chain(encoding.as_deref().map(attr))
                .collect(),
        ),
        Type::Vector { element, .. } => node(vec![one(element)]),
        Type::MemRef {
            element,
            layout,
            memory_space,
            ..
        } => node(
            std::iter::once(one(element))
                .chain(layout.as_deref().map(attr))
                .chain(memory_space.as_deref().map(attr))
                .collect(),
        ),
        Type::Function { inputs, results } => node(inputs.iter().chain(results).map(one).collect()),
        Type::Tuple(elements) => node(elements.iter().map(one).collect()),
        Type::Integer { .. }
        | Type::Index
        | Type::Float(_)
        | Type::None
        | Type::Token
        | Type::Dialect { .. } => node(Vec::new()),
    }
}

/// Measures a location. A name counts as a level above its child even
/// when the child is unknown (`"name"`), as BEF writes it.
pub(super) fn location(loc: &Location) -> Measure {
    let node = |children: Vec<Measure>| Measure::node(Kind::Location, children);
    match loc {
        Location::Unknown | Location::FileLineCol { .. } | Location::FileRange { .. } => {
            node(Vec::new())
        }
        Location::Name { child, .. } => node(vec![location(child)]),
        Location::CallSite { callee, caller } => node(vec![location(callee), location(caller)]),
        Location::Fused {
            locations,
            metadata,
        } => node(
            locations
                .iter()
                .map(location)
                .chain(metadata.as_deref().map(attribute))
                .collect(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_levels_by_kind() {
        let leaf = Location::file_line_col("f", 1, 2);
        assert_eq!(
            location(&leaf),
            Measure {
                size: 1,
                levels: 1,
                attr_levels: 0,
                loc_levels: 1
            }
        );
        let named = Location::Name {
            name: "n".into(),
            child: Box::new(Location::Unknown),
        };
        assert_eq!(location(&named).loc_levels, 2);
        let attr = Attribute::Array(vec![
            Attribute::i32(1),
            Attribute::Array(vec![Attribute::Location(Box::new(named))]),
        ]);
        let m = attribute(&attr);
        assert_eq!(m.attr_levels, 3);
        assert_eq!(m.loc_levels, 2);
        assert_eq!(m.levels, 5);
        // [i32 1 (+ its type), [loc (name, unknown)]]: 1 + 2 + 1 + 1 + 2.
        assert_eq!(m.size, 7);
    }
}
