//! The type records of JSON reflection, the `iree.abi` function attribute
//! (`{"a":[args],"r":[results],"v":1}`), and how they are derived. Reading
//! and writing the JSON text is in [`json`](super::json) (feature `json`).

use std::collections::BTreeMap;
use std::fmt;

use super::raw::{RawType, ScalarType, parse_ranked_tensor};
use super::sip::{MAX_NESTING, SipKey};
use super::value::ElementType;

/// The current reflection version (`"v":1`).
pub const VERSION: u64 = 1;

/// The type of one argument, result or slot.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TypeRecord {
    /// A scalar (`"i32"`, `"bf16"`).
    Scalar(ElementType),
    /// A null reference; in a sequence, a slot no leaf fills.
    Null,
    /// A type the records do not describe (`"unknown"`).
    Unknown,
    /// An n-dimensional array; `dims` is `None` for unknown rank, a dim
    /// `None` when dynamic.
    NdArray {
        /// The element type.
        element: ElementType,
        /// The dims, if the rank is known.
        dims: Option<Vec<Option<u64>>>,
    },
    /// A fixed-arity list, each slot with its own type (`slist`).
    SList(Vec<TypeRecord>),
    /// The same, passed as a tuple (`stuple`).
    STuple(Vec<TypeRecord>),
    /// Named slots, keys sorted bytewise (`sdict`); only the values are
    /// passed.
    SDict(Vec<(String, TypeRecord)>),
    /// A root argument that may be passed by keyword (`named`).
    Named(String, Box<TypeRecord>),
    /// A list of any length whose elements share a type
    /// (`py_homogeneous_list`).
    HomogeneousList(Box<TypeRecord>),
    /// The 2021 form of keyword arguments, one trailing record holding
    /// them all (`sdict_kwargs`); read in lenient mode only.
    SDictKwargs(Vec<(String, TypeRecord)>),
}

/// The reflection of one function.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Reflection {
    /// One record per argument.
    pub args: Vec<TypeRecord>,
    /// One record per result.
    pub results: Vec<TypeRecord>,
}

impl TypeRecord {
    /// The record of an MLIR type (`tensor<?x3xi32>` is
    /// `["ndarray","i32",2,null,3]`, `i32` is `"i32"`); `tuple<...>` is
    /// flattened to its members, as the reference's exporter does.
    pub fn of_mlir(type_name: &str) -> Vec<TypeRecord> {
        let type_name = type_name.trim();
        if let Some(inner) = type_name
            .strip_prefix("tuple<")
            .and_then(|t| t.strip_suffix('>'))
        {
            return split_top_level(inner)
                .into_iter()
                .flat_map(TypeRecord::of_mlir)
                .collect();
        }
        if let Some(element) = ElementType::from_mlir_name(type_name) {
            return vec![TypeRecord::Scalar(element)];
        }
        if let Some((element, dims)) = parse_ranked_tensor(type_name) {
            return vec![TypeRecord::NdArray {
                element,
                dims: Some(dims.into_iter().map(|d| d.map(u64::from)).collect()),
            }];
        }
        if let Some(element) = type_name
            .strip_prefix("tensor<*x")
            .and_then(|t| t.strip_suffix('>'))
            .and_then(ElementType::from_mlir_name)
        {
            return vec![TypeRecord::NdArray {
                element,
                dims: None,
            }];
        }
        vec![TypeRecord::Unknown]
    }

    /// The raw type of a leaf record; `None` for structures and null
    /// slots, which are no argument of their own.
    pub fn raw_type(&self) -> Option<RawType> {
        match self {
            TypeRecord::Scalar(element) => Some(RawType::Scalar(ScalarType::of(*element))),
            TypeRecord::NdArray {
                element,
                dims: Some(dims),
            } => Some(RawType::Buffer {
                element: ScalarType::of(*element),
                dims: dims
                    .iter()
                    .map(|d| d.and_then(|d| u32::try_from(d).ok()))
                    .collect(),
            }),
            TypeRecord::NdArray { dims: None, .. } | TypeRecord::Unknown => {
                Some(RawType::Unrecognized)
            }
            TypeRecord::HomogeneousList(_) => Some(RawType::Ref),
            TypeRecord::Named(_, inner) => inner.raw_type(),
            _ => None,
        }
    }

    /// The leaves of this record, in the order they are passed.
    pub fn leaves(&self) -> Vec<&TypeRecord> {
        let mut out = Vec::new();
        let mut stack = vec![self];
        while let Some(record) = stack.pop() {
            match record {
                TypeRecord::SList(slots) | TypeRecord::STuple(slots) => {
                    stack.extend(slots.iter().rev())
                }
                TypeRecord::SDict(slots) | TypeRecord::SDictKwargs(slots) => {
                    stack.extend(slots.iter().rev().map(|(_, t)| t))
                }
                TypeRecord::Named(_, inner) => stack.push(inner),
                TypeRecord::Null => {}
                leaf => out.push(leaf),
            }
        }
        out
    }
}

impl Reflection {
    /// The reflection of a function of MLIR types.
    pub fn of_mlir_types(args: &[&str], results: &[&str]) -> Reflection {
        Reflection {
            args: args.iter().flat_map(|t| TypeRecord::of_mlir(t)).collect(),
            results: results
                .iter()
                .flat_map(|t| TypeRecord::of_mlir(t))
                .collect(),
        }
    }

    /// The flat raw signature the records describe: their leaves in order.
    pub fn raw_signature(&self) -> super::RawSignature {
        let flat = |records: &[TypeRecord]| {
            records
                .iter()
                .flat_map(TypeRecord::leaves)
                .filter_map(TypeRecord::raw_type)
                .collect()
        };
        super::RawSignature {
            inputs: flat(&self.args),
            results: flat(&self.results),
        }
    }

    /// The records of a function whose flat arguments and results sit at
    /// the index paths given, each with its leaf type: integer-keyed
    /// levels become `slist` (`stuple` among results), string-keyed ones
    /// `sdict`; at the root, argument positions are the records in order
    /// and string keys `named` records after them; a result structure is
    /// one record. Slot `i` of a sequence holds the child of key `i`, or
    /// null where there is none.
    pub fn from_index_paths(
        args: &[(Vec<SipKey>, TypeRecord)],
        results: &[(Vec<SipKey>, TypeRecord)],
    ) -> Result<Reflection, String> {
        let args_tree = Trie::build(args)?;
        let results_tree = Trie::build(results)?;
        let args = match args_tree {
            Trie::Empty => Vec::new(),
            Trie::Leaf(record) => vec![record],
            Trie::Node(children) => {
                let mut positional = Vec::new();
                let mut named = Vec::new();
                for (key, child) in children {
                    match key {
                        TrieKey::Index(i) => {
                            gap_fill(&mut positional, i as usize);
                            positional.push(child.record(false)?);
                        }
                        TrieKey::Name(name) => {
                            named.push(TypeRecord::Named(name, Box::new(child.record(false)?)))
                        }
                    }
                }
                positional.extend(named);
                positional
            }
        };
        let results = match results_tree {
            Trie::Empty => Vec::new(),
            tree => vec![tree.record(true)?],
        };
        Ok(Reflection { args, results })
    }
}

/// MLIR type names separated by top-level commas (`tensor<2xf32>, i32`).
fn split_top_level(list: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0usize, 0);
    for (i, c) in list.char_indices() {
        match c {
            '<' | '(' => depth += 1,
            '>' | ')' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                parts.push(&list[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if !list[start..].trim().is_empty() {
        parts.push(&list[start..]);
    }
    parts
}

impl fmt::Display for TypeRecord {
    /// A readable form: `f32[2x?]`, `[i32, f32]`, `(a, b)`, `{a: i32}`,
    /// `a=i32`, `list<i64>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let join = |items: &[TypeRecord]| {
            items
                .iter()
                .map(TypeRecord::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        };
        let join_named = |slots: &[(String, TypeRecord)]| {
            slots
                .iter()
                .map(|(k, t)| format!("{k}: {t}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        match self {
            TypeRecord::Scalar(e) => write!(f, "{e}"),
            TypeRecord::Null => f.write_str("null"),
            TypeRecord::Unknown => f.write_str("unknown"),
            TypeRecord::NdArray {
                element,
                dims: None,
            } => write!(f, "{element}[*]"),
            TypeRecord::NdArray {
                element,
                dims: Some(dims),
            } => {
                let dims: Vec<String> = dims
                    .iter()
                    .map(|d| d.map_or("?".to_string(), |d| d.to_string()))
                    .collect();
                write!(f, "{element}[{}]", dims.join("x"))
            }
            TypeRecord::SList(slots) => write!(f, "[{}]", join(slots)),
            TypeRecord::STuple(slots) => write!(f, "({})", join(slots)),
            TypeRecord::SDict(slots) => write!(f, "{{{}}}", join_named(slots)),
            TypeRecord::SDictKwargs(slots) => write!(f, "**{{{}}}", join_named(slots)),
            TypeRecord::Named(name, inner) => write!(f, "{name}={inner}"),
            TypeRecord::HomogeneousList(inner) => write!(f, "list<{inner}>"),
        }
    }
}

impl fmt::Display for Reflection {
    /// `(f32[2x3], n=i32) -> ((f32[3], i32))`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let join = |items: &[TypeRecord]| {
            items
                .iter()
                .map(TypeRecord::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        };
        write!(f, "({}) -> ({})", join(&self.args), join(&self.results))
    }
}

/// Fills a sequence with null slots up to position `len`.
fn gap_fill(slots: &mut Vec<TypeRecord>, len: usize) {
    while slots.len() < len {
        slots.push(TypeRecord::Null);
    }
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum TrieKey {
    Index(i64),
    Name(String),
}

/// The index paths as a tree.
enum Trie {
    /// Nothing yet.
    Empty,
    Leaf(TypeRecord),
    Node(BTreeMap<TrieKey, Trie>),
}

impl Trie {
    fn build(paths: &[(Vec<SipKey>, TypeRecord)]) -> Result<Trie, String> {
        let mut root = Trie::Empty;
        for (path, record) in paths {
            if path.len() > MAX_NESTING {
                return Err(format!("an index path is longer than {MAX_NESTING} steps"));
            }
            let mut node = &mut root;
            for key in path {
                let key = match key {
                    SipKey::Index(i) if *i >= 0 => TrieKey::Index(i64::from(*i)),
                    SipKey::Index(i) => return Err(format!("negative sequence key {i}")),
                    SipKey::Name(name) => TrieKey::Name(
                        String::from_utf8(name.clone())
                            .map_err(|_| "a dict key is not UTF-8".to_string())?,
                    ),
                };
                if matches!(node, Trie::Empty) {
                    *node = Trie::Node(BTreeMap::new());
                }
                node = match node {
                    Trie::Node(children) => children.entry(key).or_insert(Trie::Empty),
                    _ => return Err("an index path goes below a leaf".to_string()),
                };
            }
            if !matches!(node, Trie::Empty) {
                return Err("an index path is assigned twice".to_string());
            }
            *node = Trie::Leaf(record.clone());
        }
        Ok(root)
    }

    /// The record of this subtree; sequences are `stuple`s among results.
    fn record(self, result: bool) -> Result<TypeRecord, String> {
        match self {
            Trie::Empty => Ok(TypeRecord::Null),
            Trie::Leaf(record) => Ok(record),
            Trie::Node(children) => {
                let all_names = children.keys().all(|k| matches!(k, TrieKey::Name(_)));
                let all_indices = children.keys().all(|k| matches!(k, TrieKey::Index(_)));
                if all_names {
                    let slots = children
                        .into_iter()
                        .map(|(key, child)| match key {
                            TrieKey::Name(name) => Ok((name, child.record(result)?)),
                            TrieKey::Index(_) => Err("mixed keys".to_string()),
                        })
                        .collect::<Result<_, String>>()?;
                    return Ok(TypeRecord::SDict(slots));
                }
                if !all_indices {
                    return Err("a level mixes sequence and dict keys".to_string());
                }
                let mut slots = Vec::new();
                for (key, child) in children {
                    if let TrieKey::Index(i) = key {
                        // Slot i holds key i: positions without a key are
                        // null (the reference miscounts these gaps).
                        gap_fill(&mut slots, i as usize);
                        slots.push(child.record(result)?);
                    }
                }
                Ok(if result {
                    TypeRecord::STuple(slots)
                } else {
                    TypeRecord::SList(slots)
                })
            }
        }
    }
}
