//! Locations (Locations and LocationStrings sections).

use std::ops::Range;
use std::sync::Arc;

use rustc_hash::FxHashMap;

use super::constants::MAX_NESTING;
use super::emitter::Emitter;
use super::error::{DecodeError, DecodeResult, EncodeError, EncodeResult};
use super::reader::{Reader, c_string_at};

/// A source location, as MLIR knows them.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Location {
    /// No location (`loc(unknown)`).
    Unknown,
    /// A position in a source file.
    FileLineCol {
        /// Shared: every location of a file names the same string.
        file: Arc<str>,
        /// Line, counting from 1 as MLIR does.
        line: u64,
        /// Column, counting from 1 as MLIR does.
        column: u64,
    },
    /// A named location, such as an op's name in the source graph.
    Name {
        /// The name; any string (printed quoted).
        name: String,
        /// What the name is attached to; `Unknown` when nothing is.
        child: Box<Location>,
    },
    /// A call site: `callee` reached from `caller`.
    CallSite {
        /// Location of the called code.
        callee: Box<Location>,
        /// Location of the call.
        caller: Box<Location>,
    },
    /// Several locations merged into one, in order.
    Fused(Vec<Location>),
}

const UNKNOWN: u8 = 0;
const FILE_LINE_COL: u8 = 1;
const NAME: u8 = 2;
const CALL_SITE: u8 = 3;
const FUSED: u8 = 4;

impl std::fmt::Display for Location {
    /// MLIR's spelling without the `loc(...)` wrapper.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Location::Unknown => write!(f, "unknown"),
            Location::FileLineCol { file, line, column } => write!(f, "{file:?}:{line}:{column}"),
            Location::Name { name, child } => match **child {
                Location::Unknown => write!(f, "{name:?}"),
                ref child => write!(f, "{name:?}({child})"),
            },
            Location::CallSite { callee, caller } => write!(f, "callsite({callee} at {caller})"),
            Location::Fused(locations) => {
                write!(f, "fused[")?;
                for (i, location) in locations.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{location}")?;
                }
                write!(f, "]")
            }
        }
    }
}

/// Builds the Locations and LocationStrings sections. Strings are shared;
/// locations are written once per use, as the reference does.
#[derive(Default)]
pub struct LocationEmitter {
    /// The Locations section being built.
    pub locations: Emitter,
    /// The LocationStrings section being built.
    pub strings: Emitter,
    string_offsets: FxHashMap<String, u64>,
    /// The file name looked up last and its offset.
    last_file: Option<(Arc<str>, u64)>,
    /// Number of concrete locations written; the two sections are only
    /// emitted when this is non-zero.
    pub concrete_count: usize,
    next_virtual: u32,
}

impl LocationEmitter {
    /// An emitter with both sections empty.
    pub fn new() -> Self {
        LocationEmitter {
            locations: Emitter::new(),
            strings: Emitter::new(),
            string_offsets: FxHashMap::default(),
            last_file: None,
            concrete_count: 0,
            next_virtual: u32::MAX,
        }
    }

    /// The location field for an op: the offset of its newly written
    /// location, or for `None` or a location BEF cannot write the next
    /// virtual offset counting down from `u32::MAX`. A location nested
    /// deeper than [`MAX_NESTING`] levels, which readers refuse, is an
    /// error (nothing of it is written).
    pub(crate) fn op_location<L: LocationTree>(
        &mut self,
        location: Option<&L>,
    ) -> EncodeResult<u64> {
        match location.filter(|l| l.is_supported()) {
            Some(location) => {
                let depth = written_depth(location);
                if depth > MAX_NESTING {
                    return Err(EncodeError(format!(
                        "locations nested deeper than {MAX_NESTING} levels ({depth} levels)"
                    )));
                }
                self.concrete_count += 1;
                Ok(self.emit(location))
            }
            None => {
                self.next_virtual -= 1;
                Ok(u64::from(self.next_virtual))
            }
        }
    }

    /// The offset of a location's file name: most locations of a module
    /// share one `Arc`, recognised by its address before any hashing.
    fn file(&mut self, file: &Arc<str>) -> u64 {
        if let Some((last, offset)) = &self.last_file
            && Arc::ptr_eq(last, file)
        {
            return *offset;
        }
        let offset = self.string(file);
        self.last_file = Some((file.clone(), offset));
        offset
    }

    fn string(&mut self, s: &str) -> u64 {
        if let Some(&offset) = self.string_offsets.get(s) {
            return offset;
        }
        let offset = self.strings.len() as u64;
        self.strings.extend(s.as_bytes());
        self.strings.byte(0);
        self.string_offsets.insert(s.to_owned(), offset);
        offset
    }

    /// Writes a supported `location`, leaving out what BEF cannot write
    /// below it as `to_model` does.
    fn emit<L: LocationTree>(&mut self, location: &L) -> u64 {
        let offset = self.locations.len() as u64;
        match location.node() {
            // Unsupported: not reached (callers check), written as unknown.
            Node::Unknown | Node::Unsupported => self.locations.byte(UNKNOWN),
            Node::FileLineCol { file, line, column } => {
                self.locations.byte(FILE_LINE_COL);
                let file = self.file(file);
                self.locations.vbr(file);
                self.locations.vbr(line);
                self.locations.vbr(column);
            }
            Node::Name { name, child } => {
                self.locations.byte(NAME);
                let name = self.string(name);
                self.locations.vbr(name);
                if child.is_supported() {
                    self.emit(child);
                } else {
                    self.locations.byte(UNKNOWN);
                }
            }
            Node::CallSite { callee, caller } => {
                self.locations.byte(CALL_SITE);
                self.emit(callee);
                self.emit(caller);
            }
            Node::Fused(locations) => {
                self.locations.byte(FUSED);
                let supported = || locations.iter().filter(|l| l.is_supported());
                self.locations.vbr(supported().count() as u64);
                for location in supported() {
                    self.emit(location);
                }
            }
        }
        offset
    }
}

/// One node of a location tree the emitter writes: the model's
/// [`Location`], or another tree (the IR's) that may hold kinds BEF cannot
/// write, so that the translator writes its locations without converting
/// them first.
pub(crate) enum Node<'a, L> {
    Unknown,
    FileLineCol {
        file: &'a Arc<str>,
        line: u64,
        column: u64,
    },
    Name {
        name: &'a str,
        child: &'a L,
    },
    CallSite {
        callee: &'a L,
        caller: &'a L,
    },
    Fused(&'a [L]),
    /// A kind BEF has no encoding for (MLIR's file ranges).
    Unsupported,
}

pub(crate) trait LocationTree: Sized {
    fn node(&self) -> Node<'_, Self>;

    /// Whether BEF can write this location (`IsSupportedLocation` of the
    /// reference's `BefLocationEmitter`): a name always is (an unsupported
    /// child is written as unknown), a call site when both its ends are, a
    /// fused location when one of its parts is (the others are left out).
    fn is_supported(&self) -> bool {
        match self.node() {
            Node::Unsupported => false,
            Node::CallSite { callee, caller } => callee.is_supported() && caller.is_supported(),
            Node::Fused(locations) => locations.iter().any(Self::is_supported),
            _ => true,
        }
    }
}

impl LocationTree for Location {
    fn node(&self) -> Node<'_, Self> {
        match self {
            Location::Unknown => Node::Unknown,
            Location::FileLineCol { file, line, column } => Node::FileLineCol {
                file,
                line: *line,
                column: *column,
            },
            Location::Name { name, child } => Node::Name { name, child },
            Location::CallSite { callee, caller } => Node::CallSite { callee, caller },
            Location::Fused(locations) => Node::Fused(locations),
        }
    }

    fn is_supported(&self) -> bool {
        true
    }
}

/// How many levels below its root the deepest part of `location` lies as
/// BEF writes it (what the decoder counts: a name's child, even an unknown
/// one, lies a level below it; parts BEF cannot write are left out).
/// Iterative, so any depth can be measured.
pub(crate) fn written_depth<L: LocationTree>(location: &L) -> usize {
    let mut deepest = 0;
    let mut stack = vec![(location, 0usize)];
    while let Some((location, depth)) = stack.pop() {
        deepest = deepest.max(depth);
        match location.node() {
            Node::Name { child, .. } => {
                // The child, written as unknown when BEF cannot write it.
                deepest = deepest.max(depth + 1);
                if child.is_supported() {
                    stack.push((child, depth + 1));
                }
            }
            Node::CallSite { callee, caller } => {
                stack.push((callee, depth + 1));
                stack.push((caller, depth + 1));
            }
            Node::Fused(locations) => {
                stack.extend(
                    locations
                        .iter()
                        .filter(|l| l.is_supported())
                        .map(|l| (l, depth + 1)),
                );
            }
            Node::Unknown | Node::FileLineCol { .. } | Node::Unsupported => {}
        }
    }
    deepest
}

/// The model location BEF writes for `location`, `None` when it writes a
/// virtual offset instead.
pub(crate) fn to_model<L: LocationTree>(location: &L) -> Option<Location> {
    if !location.is_supported() {
        return None;
    }
    let known = |l: &L| to_model(l).unwrap_or(Location::Unknown);
    Some(match location.node() {
        Node::Unknown | Node::Unsupported => Location::Unknown,
        Node::FileLineCol { file, line, column } => Location::FileLineCol {
            file: file.clone(),
            line,
            column,
        },
        Node::Name { name, child } => Location::Name {
            name: name.to_string(),
            child: Box::new(known(child)),
        },
        Node::CallSite { callee, caller } => Location::CallSite {
            callee: Box::new(known(callee)),
            caller: Box::new(known(caller)),
        },
        Node::Fused(locations) => Location::Fused(locations.iter().filter_map(to_model).collect()),
    })
}

/// A field of a location record, as reported by
/// [`LocationDecoder::read_traced`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LocationField {
    /// The kind byte that starts every location.
    Kind,
    /// An offset into LocationStrings: a file name or a location name.
    String,
    /// The line of a file location.
    Line,
    /// The column of a file location.
    Column,
    /// The number of parts of a fused location.
    Count,
}

/// Reads locations from the two sections.
#[derive(Clone, Copy)]
pub struct LocationDecoder<'a> {
    /// The Locations section's data.
    pub locations: &'a [u8],
    /// Absolute file offset of the Locations data, for error offsets.
    pub locations_base: u64,
    /// The LocationStrings section's data.
    pub strings: &'a [u8],
    /// Absolute file offset of the LocationStrings data, for error offsets.
    pub strings_base: u64,
}

impl<'a> LocationDecoder<'a> {
    /// Decodes the location at `offset` of the Locations section.
    pub fn decode_at(&self, offset: u64) -> DecodeResult<Location> {
        let start = usize::try_from(offset)
            .ok()
            .filter(|&start| start < self.locations.len())
            .ok_or_else(|| {
                DecodeError::new(
                    self.locations_base,
                    format!(
                        "location offset {offset:#x} is outside the {}-byte Locations section",
                        self.locations.len()
                    ),
                )
            })?;
        let mut reader = Reader::new(&self.locations[start..], self.locations_base + offset);
        self.read(&mut reader, 0)
    }

    /// Decodes the next location from `reader`, which reads the Locations
    /// section.
    pub fn read(&self, r: &mut Reader<'a>, depth: usize) -> DecodeResult<Location> {
        self.read_traced(r, depth, &mut |_, _| {})
    }

    /// [`read`](Self::read), telling `trace` where each field lies
    /// (absolute offsets), for tools that map bytes to fields.
    pub fn read_traced(
        &self,
        r: &mut Reader<'a>,
        depth: usize,
        trace: &mut impl FnMut(LocationField, Range<u64>),
    ) -> DecodeResult<Location> {
        if depth > MAX_NESTING {
            return Err(r.error(format!("locations nested deeper than {MAX_NESTING} levels")));
        }
        let kind_at = r.offset();
        let kind = r.u8("location kind")?;
        trace(LocationField::Kind, kind_at..r.offset());
        Ok(match kind {
            UNKNOWN => Location::Unknown,
            FILE_LINE_COL => {
                let file = self.string(r, "file name", trace)?.into();
                let at = r.offset();
                let line = r.vbr("line")?;
                trace(LocationField::Line, at..r.offset());
                let at = r.offset();
                let column = r.vbr("column")?;
                trace(LocationField::Column, at..r.offset());
                Location::FileLineCol { file, line, column }
            }
            NAME => {
                let name = self.string(r, "location name", trace)?;
                let child = Box::new(self.read_traced(r, depth + 1, trace)?);
                Location::Name { name, child }
            }
            CALL_SITE => {
                let callee = Box::new(self.read_traced(r, depth + 1, trace)?);
                let caller = Box::new(self.read_traced(r, depth + 1, trace)?);
                Location::CallSite { callee, caller }
            }
            FUSED => {
                let at = r.offset();
                let count = r.count("fused location count", 1)?;
                trace(LocationField::Count, at..r.offset());
                let locations = (0..count)
                    .map(|_| self.read_traced(r, depth + 1, trace))
                    .collect::<DecodeResult<Vec<_>>>()?;
                Location::Fused(locations)
            }
            kind => {
                return Err(DecodeError::new(
                    kind_at,
                    format!("unknown location kind {kind}"),
                ));
            }
        })
    }

    fn string(
        &self,
        r: &mut Reader<'a>,
        what: &str,
        trace: &mut impl FnMut(LocationField, Range<u64>),
    ) -> DecodeResult<String> {
        let at = r.offset();
        let offset = r.vbr(what)?;
        trace(LocationField::String, at..r.offset());
        c_string_at(self.strings, offset, self.strings_base, what)
            .map(str::to_owned)
            .map_err(|e| DecodeError::new(at, e.message))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Location {
        Location::Fused(vec![
            Location::FileLineCol {
                file: "a.py".into(),
                line: 42,
                column: 314,
            },
            Location::Name {
                name: "b".into(),
                child: Box::new(Location::CallSite {
                    callee: Box::new(Location::Unknown),
                    caller: Box::new(Location::FileLineCol {
                        file: "a.py".into(),
                        line: 1,
                        column: 2,
                    }),
                }),
            },
        ])
    }

    #[test]
    fn every_kind_round_trips_and_strings_are_shared() {
        let mut e = LocationEmitter::new();
        let first = e.op_location(Some(&sample())).unwrap();
        let second = e.op_location(Some(&sample())).unwrap();
        assert_ne!(first, second, "locations are written once per use");
        assert_eq!(e.strings.bytes(), b"a.py\0b\0");
        let d = LocationDecoder {
            locations: e.locations.bytes(),
            locations_base: 0,
            strings: e.strings.bytes(),
            strings_base: 0,
        };
        assert_eq!(d.decode_at(second).unwrap(), sample());
        assert_eq!(
            sample().to_string(),
            r#"fused["a.py":42:314, "b"(callsite(unknown at "a.py":1:2))]"#
        );
    }

    #[test]
    fn virtual_offsets_count_down() {
        let mut e = LocationEmitter::new();
        assert_eq!(e.op_location::<Location>(None), Ok(0xFFFF_FFFE));
        assert_eq!(e.op_location::<Location>(None), Ok(0xFFFF_FFFD));
        assert_eq!(e.concrete_count, 0);
    }

    #[test]
    fn locations_deeper_than_readers_accept_are_not_written() {
        let nested = |depth: usize| {
            let mut loc = Location::Unknown;
            for _ in 0..depth {
                loc = Location::CallSite {
                    callee: Box::new(loc),
                    caller: Box::new(Location::Unknown),
                };
            }
            loc
        };
        let mut e = LocationEmitter::new();
        assert_eq!(
            e.op_location(Some(&nested(65))),
            Err(EncodeError(
                "locations nested deeper than 64 levels (65 levels)".into()
            ))
        );
        assert!(e.locations.bytes().is_empty(), "nothing of it is written");
        let offset = e.op_location(Some(&nested(64))).unwrap();
        let d = LocationDecoder {
            locations: e.locations.bytes(),
            locations_base: 0,
            strings: e.strings.bytes(),
            strings_base: 0,
        };
        assert_eq!(d.decode_at(offset).unwrap(), nested(64));
        // The deepest part counts, wherever it is; a bare name's unknown
        // child is a level below it.
        let fused = Location::Fused(vec![
            Location::Unknown,
            nested(3),
            Location::Name {
                name: "n".into(),
                child: Box::new(Location::Unknown),
            },
        ]);
        assert_eq!(written_depth(&fused), 4);
        assert_eq!(written_depth(&Location::Unknown), 0);
        assert_eq!(
            written_depth(&Location::Name {
                name: "n".into(),
                child: Box::new(Location::Unknown),
            }),
            1
        );
    }

    #[test]
    fn deep_nesting_is_an_error() {
        let mut bytes = vec![CALL_SITE; 10_000];
        bytes.push(UNKNOWN);
        let d = LocationDecoder {
            locations: &bytes,
            locations_base: 0,
            strings: &[],
            strings_base: 0,
        };
        let err = d.decode_at(0).unwrap_err();
        assert!(err.message.contains("nested deeper"), "{err}");
    }
}
