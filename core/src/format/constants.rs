//! Fixed numbers of the format (fact sheet `bef-encoding.md`, mirroring the
//! reference `bef_encoding.h`).

/// The first two bytes of every BEF file.
pub const MAGIC: [u8; 2] = [0x0B, 0xEF];
/// The format version after the magic; the only one there is.
pub const VERSION: u8 = 0;

/// Code of the pseudo kernel that publishes a function's arguments.
pub const PSEUDO_KERNEL_CODE: u32 = 0xABAB_ABAB;
/// Location field of the pseudo kernel.
pub const PSEUDO_KERNEL_LOCATION: u32 = 0xCDCD_CDCD;
/// Offsets at or above this value in a location field are "virtual": the
/// reference encoder hands them out, counting down from `u32::MAX`, to ops
/// whose location it cannot encode.
pub const FIRST_VIRTUAL_LOCATION: u64 = 0x8000_0000;
/// Kernel records are arrays of FIXED32, 4-aligned.
pub const KERNEL_ALIGNMENT: usize = 4;
/// Deepest nesting of locations and of aggregate attributes: how many
/// levels below the root the deepest part may lie. One limit for every
/// tool, so that what one writes the others read: the text parser refuses
/// deeper locations and attributes, the encoder (and the translator, naming
/// the op) refuses to write them, and the decoder to read them.
pub const MAX_NESTING: usize = 64;

/// The standard section identifiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum SectionId {
    /// Sorted NUL-terminated strings (kernel, type, function and attribute
    /// names), referenced by byte offset.
    Strings = 0,
    /// Attribute values at natural alignment, referenced by byte offset from
    /// kernel records.
    Attributes = 1,
    /// Kernel names as string offsets; a kernel record's code is an index here.
    Kernels = 2,
    /// Type names as string offsets; signatures and register types are
    /// indices here.
    Types = 3,
    /// Per function: kind, body offset, name and signature.
    FunctionIndex = 4,
    /// Function bodies: register and kernel tables, result registers and
    /// kernel records (4-aligned).
    Functions = 5,
    /// NUL-terminated strings (file names, location names) of the Locations
    /// section.
    LocationStrings = 6,
    /// Location records, referenced by offset from functions and kernels.
    Locations = 7,
    /// Per attribute offset, its type code (optional; needed to print
    /// attributes back as text).
    AttributeTypes = 8,
    /// Per function and kernel, the names of its attributes (optional).
    AttributeNames = 9,
    /// Per function, the type index of each register (optional).
    RegisterTypes = 10,
    /// Per function with any, its signature metadata: JSON reflection
    /// and a SIP signature (optional; this implementation's own, see
    /// [`format::signatures`](super::signatures)). Ids 11 to 15 are left
    /// to the reference's own additions.
    Signatures = 16,
}

impl SectionId {
    /// Sections every BEF writer emits (the rest are optional).
    pub const REQUIRED: [SectionId; 6] = [
        SectionId::Strings,
        SectionId::Attributes,
        SectionId::Kernels,
        SectionId::Types,
        SectionId::FunctionIndex,
        SectionId::Functions,
    ];

    /// Every section id, in id order.
    pub const ALL: [SectionId; 12] = [
        SectionId::Strings,
        SectionId::Attributes,
        SectionId::Kernels,
        SectionId::Types,
        SectionId::FunctionIndex,
        SectionId::Functions,
        SectionId::LocationStrings,
        SectionId::Locations,
        SectionId::AttributeTypes,
        SectionId::AttributeNames,
        SectionId::RegisterTypes,
        SectionId::Signatures,
    ];

    /// The section with id `id`, if it is a standard one.
    pub fn from_u8(id: u8) -> Option<SectionId> {
        SectionId::ALL.into_iter().find(|s| *s as u8 == id)
    }

    /// The section's position in [`ALL`](Self::ALL), for tables indexed
    /// by section.
    pub fn index(self) -> usize {
        SectionId::ALL
            .iter()
            .position(|s| *s == self)
            .unwrap_or_default()
    }

    /// The section's name as the reference spells it (`FunctionIndex`).
    pub fn name(self) -> &'static str {
        match self {
            SectionId::Strings => "Strings",
            SectionId::Attributes => "Attributes",
            SectionId::Kernels => "Kernels",
            SectionId::Types => "Types",
            SectionId::FunctionIndex => "FunctionIndex",
            SectionId::Functions => "Functions",
            SectionId::LocationStrings => "LocationStrings",
            SectionId::Locations => "Locations",
            SectionId::AttributeTypes => "AttributeTypes",
            SectionId::AttributeNames => "AttributeNames",
            SectionId::RegisterTypes => "RegisterTypes",
            SectionId::Signatures => "Signatures",
        }
    }

    /// Looks a section up by name, ignoring case, `-` and `_`
    /// (`function-index`, `FunctionIndex` and `function_index` all work).
    pub fn from_name(name: &str) -> Option<SectionId> {
        let wanted: String = name
            .chars()
            .filter(|c| *c != '-' && *c != '_')
            .map(|c| c.to_ascii_lowercase())
            .collect();
        SectionId::ALL
            .into_iter()
            .find(|id| id.name().to_ascii_lowercase() == wanted)
    }
}

/// How a function in the FunctionIndex is executed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FunctionKind {
    /// Asynchronous dataflow function run by the BEF executor.
    Bef = 0,
    /// Host function resolved by name; no body.
    Native = 1,
    /// Function run sequentially by the sync interpreter.
    Sync = 2,
}

impl FunctionKind {
    /// The kind with the byte `kind` of the FunctionIndex.
    pub fn from_u8(kind: u8) -> Option<FunctionKind> {
        match kind {
            0 => Some(FunctionKind::Bef),
            1 => Some(FunctionKind::Native),
            2 => Some(FunctionKind::Sync),
            _ => None,
        }
    }

    /// Lowercase name: `bef`, `native` or `sync`.
    pub fn name(self) -> &'static str {
        match self {
            FunctionKind::Bef => "bef",
            FunctionKind::Native => "native",
            FunctionKind::Sync => "sync",
        }
    }

    /// Whether functions of this kind have a body in the Functions section.
    pub fn has_body(self) -> bool {
        self != FunctionKind::Native
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn section_names_round_trip() {
        for id in SectionId::ALL {
            assert_eq!(SectionId::from_u8(id as u8), Some(id));
            assert_eq!(SectionId::from_name(id.name()), Some(id));
        }
        assert_eq!(
            SectionId::from_name("function-index"),
            Some(SectionId::FunctionIndex)
        );
        assert_eq!(SectionId::from_u8(11), None);
    }
}
