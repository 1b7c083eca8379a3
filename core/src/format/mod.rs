//! BEF bytes: primitives, sections, attributes, locations, reader, encoder
//! and verifier.
