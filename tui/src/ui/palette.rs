//! The colour of field kinds and sections, shared by every view and the
//! help screen's legend: the same kind is always the same colour.

use bef::format::SectionId;
use bef::inspect::FieldKind;
use ratatui::style::Color;

/// The colour of a field kind.
pub fn field(kind: FieldKind) -> Color {
    use FieldKind::*;
    match kind {
        Magic | Version => Color::LightMagenta,
        SectionId => Color::Yellow,
        SectionLength | SectionAlignment => Color::LightYellow,
        Padding => Color::DarkGray,
        Count | ArgumentCount | AttributeCount | FunctionCount | ResultCount | UsedByCount => {
            Color::Cyan
        }
        StringText => Color::Green,
        StringTerminator => Color::Gray,
        StringRef => Color::LightGreen,
        AttributeBytes => Color::Rgb(230, 160, 60),
        AttributeRef => Color::Rgb(255, 190, 110),
        AttributeType => Color::Rgb(200, 130, 40),
        TypeRef => Color::LightBlue,
        FunctionKind => Color::Rgb(180, 120, 255),
        BodyOffset | KernelOffset => Color::Rgb(150, 150, 255),
        LocationRef => Color::Rgb(120, 200, 200),
        UseCount => Color::Rgb(255, 120, 160),
        OperandCount => Color::Rgb(120, 220, 160),
        StreamId => Color::Rgb(160, 200, 90),
        ReturnRegister => Color::Rgb(255, 100, 100),
        KernelCode => Color::LightCyan,
        ArgumentRegister => Color::Rgb(255, 150, 150),
        FunctionRef => Color::Rgb(200, 150, 255),
        ResultRegister => Color::Rgb(255, 200, 200),
        UsedBy => Color::Rgb(220, 220, 120),
        LocationKind => Color::Rgb(90, 170, 170),
        Line | Column => Color::Rgb(140, 220, 220),
    }
}

/// Every field kind, in the order the hex legend lists their colours.
pub const FIELD_KINDS: [FieldKind; 35] = {
    use FieldKind::*;
    [
        Magic,
        Version,
        SectionId,
        SectionLength,
        SectionAlignment,
        Padding,
        Count,
        ArgumentCount,
        AttributeCount,
        FunctionCount,
        ResultCount,
        UsedByCount,
        StringText,
        StringTerminator,
        StringRef,
        AttributeBytes,
        AttributeRef,
        AttributeType,
        TypeRef,
        FunctionKind,
        BodyOffset,
        KernelOffset,
        LocationRef,
        UseCount,
        OperandCount,
        StreamId,
        ReturnRegister,
        KernelCode,
        ArgumentRegister,
        FunctionRef,
        ResultRegister,
        UsedBy,
        LocationKind,
        Line,
        Column,
    ]
};

/// The hex view's colours, each with what it marks: field kinds
/// sharing a colour on one line, then the sections' colours for bytes
/// no field claims.
pub fn legend() -> Vec<(Color, String)> {
    let mut out: Vec<(Color, String)> = Vec::new();
    for kind in FIELD_KINDS {
        let colour = field(kind);
        match out.iter_mut().find(|(c, _)| *c == colour) {
            Some((_, text)) => {
                text.push_str(", ");
                text.push_str(kind.label());
            }
            None => out.push((colour, kind.label().to_owned())),
        }
    }
    for id in SectionId::ALL {
        out.push((
            section(Some(id)),
            format!("{} section, outside fields", id.name()),
        ));
    }
    out.push((section(None), "outside any section".to_owned()));
    out
}

/// The colour of bytes of a section that no field claims, and of its
/// row in the Sections view.
pub fn section(kind: Option<SectionId>) -> Color {
    match kind {
        Some(SectionId::Strings) => Color::Rgb(90, 140, 90),
        Some(SectionId::Attributes) => Color::Rgb(170, 120, 60),
        Some(SectionId::AttributeTypes) => Color::Rgb(150, 100, 50),
        Some(SectionId::Kernels) => Color::Rgb(70, 150, 160),
        Some(SectionId::Types) => Color::Rgb(80, 110, 170),
        Some(SectionId::FunctionIndex) => Color::Rgb(130, 100, 180),
        Some(SectionId::Functions) => Color::Rgb(160, 90, 120),
        Some(SectionId::LocationStrings) => Color::Rgb(100, 150, 100),
        Some(SectionId::Locations) => Color::Rgb(80, 140, 140),
        Some(SectionId::AttributeNames) => Color::Rgb(150, 130, 90),
        Some(SectionId::RegisterTypes) => Color::Rgb(110, 110, 150),
        Some(SectionId::Signatures) => Color::Rgb(170, 150, 200),
        None => Color::Gray,
    }
}
