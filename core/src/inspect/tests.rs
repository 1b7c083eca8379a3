//! The listing against the corpus files: every range covers exactly the
//! bytes its row was read from, `item_at` agrees with the ranges, and
//! damaged files still list what they can.

use bef_test_support::corpus::{corpus_files, read_corpus};

use super::*;
use crate::format::reader::{Reader, u32_at};
use crate::format::{BefBuffer, FunctionKind};

fn corpus() -> Vec<(String, BefBuffer)> {
    corpus_files("bef", "bef")
        .into_iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, BefBuffer::copy_from(&std::fs::read(&p).unwrap()))
        })
        .collect()
}

fn corpus_file(name: &str) -> BefBuffer {
    BefBuffer::copy_from(&read_corpus(&format!("bef/{name}")))
}

/// Reads one VBR at `range.start` and checks that it ends at `range.end`.
fn vbr_at(bytes: &[u8], range: &Range<usize>) -> u64 {
    let mut r = Reader::new(&bytes[range.start..], range.start as u64);
    let value = r.vbr("test").unwrap();
    assert_eq!(r.offset() as usize, range.end, "VBR at {range:?}");
    value
}

/// Every item of the listing with its range, as a tree view would list
/// them.
fn all_items(listing: &Listing<'_>) -> Vec<(Vec<Item>, Range<usize>)> {
    let mut out = vec![(vec![Item::Header], listing.header().range())];
    for s in listing.sections() {
        let section = Item::Section(s.index);
        out.push((vec![section], s.range.clone()));
        if !s.used {
            continue;
        }
        let with = |item| vec![section, item];
        match s.kind {
            Some(SectionId::Strings) => {
                for (i, row) in listing.strings().rows().iter().enumerate() {
                    out.push((with(Item::String(i)), row.range.clone()));
                }
            }
            Some(SectionId::LocationStrings) => {
                for (i, row) in listing.location_strings().rows().iter().enumerate() {
                    out.push((with(Item::LocationString(i)), row.range.clone()));
                }
            }
            Some(SectionId::Attributes) => {
                for row in listing.attributes().iter() {
                    out.push((with(Item::Attribute(row.index)), row.range));
                }
            }
            Some(SectionId::AttributeTypes) => {
                for row in listing.attributes().iter() {
                    out.push((with(Item::AttributeType(row.index)), row.entry));
                }
            }
            Some(SectionId::Kernels) => {
                for row in listing.kernel_names().iter() {
                    out.push((with(Item::KernelName(row.index)), row.range));
                }
            }
            Some(SectionId::Types) => {
                for row in listing.types().iter() {
                    out.push((with(Item::Type(row.index)), row.range));
                }
            }
            Some(SectionId::FunctionIndex) => {
                for entry in listing.index_entries() {
                    out.push((with(Item::IndexEntry(entry.index)), entry.range));
                }
            }
            Some(SectionId::Functions) => {
                for f in listing.functions() {
                    let function = Item::Function(f.index);
                    out.push((vec![section, function], f.range.clone()));
                    let with = |item| vec![section, function, item];
                    for r in f.registers() {
                        out.push((with(Item::Register(r.index)), r.range));
                    }
                    for k in 0..f.kernel_table_len() {
                        let [row, ..] = f.kernel_entry_ranges(k).unwrap();
                        out.push((with(Item::KernelEntry(k)), row));
                    }
                    for k in f.kernels() {
                        out.push((with(Item::Kernel(k.index)), k.range.clone()));
                    }
                    for r in 0..f.results().len() {
                        out.push((with(Item::Result(r)), f.result_range(r).unwrap()));
                    }
                }
            }
            Some(SectionId::Locations) => {
                for row in listing.locations().iter() {
                    out.push((with(Item::Location(row.index)), row.range));
                }
            }
            Some(SectionId::AttributeNames) => {
                for f in 0..listing.function_count() {
                    let Some(entry) = listing.attribute_names(f) else {
                        continue;
                    };
                    let names = Item::AttributeNames(f);
                    let range = entry.range();
                    out.push((vec![section, names], span(range)));
                    for kernel in 0..entry.kernel_starts.len() - 1 {
                        for attribute in 0..entry.kernel(kernel).len() {
                            let item = Item::AttributeName { kernel, attribute };
                            let i = entry.kernel_starts[kernel] + attribute;
                            out.push((vec![section, names, item], span(entry.name_range(i))));
                        }
                    }
                }
            }
            Some(SectionId::RegisterTypes) => {
                for f in 0..listing.function_count() {
                    let Some(entry) = listing.register_types(f) else {
                        continue;
                    };
                    let types = Item::RegisterTypes(f);
                    out.push((vec![section, types], span(entry.range())));
                    for r in 0..entry.types.len() {
                        let item = Item::RegisterType(r);
                        out.push((vec![section, types, item], span(entry.type_range(r))));
                    }
                }
            }
            // Listed whole: no item below the section.
            Some(SectionId::Signatures) | None => {}
        }
    }
    out
}

#[test]
fn item_at_agrees_with_the_ranges_of_every_row() {
    for (name, buffer) in corpus() {
        let listing = Listing::new(buffer.bytes()).unwrap();
        assert!(
            listing.errors().is_empty(),
            "{name}: {:?}",
            listing.errors()
        );
        check_lookups(&listing, 1).unwrap();
        for (items, range) in all_items(&listing) {
            assert_eq!(
                listing.range_of(&items),
                Some(range.clone()),
                "{name}: {items:?}"
            );
            if range.is_empty() {
                continue;
            }
            for at in [range.start, range.end - 1] {
                let path = listing.item_at(at);
                if super::items::has_children(items.last().unwrap()) {
                    assert!(
                        path.items.starts_with(&items),
                        "{name}: {path:?} in {items:?}"
                    );
                } else {
                    assert_eq!(path.items, items, "{name}: byte {at:#x} of {range:?}");
                }
            }
        }
    }
}

#[test]
fn every_byte_of_a_valid_file_has_a_field() {
    for (name, buffer) in corpus() {
        let listing = Listing::new(buffer.bytes()).unwrap();
        let bytes = listing.bytes();
        let attributes = listing
            .section(SectionId::Attributes)
            .map(|s| s.data.clone());
        for (at, &byte) in bytes.iter().enumerate() {
            let path = listing.item_at(at);
            if path.field.is_none() {
                // Only the padding between attributes belongs to no field.
                assert!(
                    attributes.as_ref().is_some_and(|a| a.contains(&at)) && byte == 0xcc,
                    "{name}: byte {at:#x} ({byte:#04x}) is in no field: {path:?}"
                );
            }
        }
        // A window's fields are the fields of its bytes, in order.
        let fields = listing.fields_in(0..bytes.len());
        let mut expected: Vec<Field> = (0..bytes.len())
            .filter_map(|at| listing.item_at(at).field)
            .collect();
        expected.dedup();
        assert_eq!(fields, expected, "{name}");
    }
}

#[test]
fn rows_hold_the_values_of_their_bytes() {
    for (name, buffer) in corpus() {
        let listing = Listing::new(buffer.bytes()).unwrap();
        let file = listing.file();
        let bytes = listing.bytes();
        for s in listing.sections() {
            let info = &file.sections()[s.index];
            assert_eq!(bytes[s.range.start], info.id);
            assert_eq!(s.data.start as u64, info.data_offset);
            assert_eq!(s.data.len() as u64, info.len);
            assert_eq!(vbr_at(bytes, &s.length_range) >> 1, s.length);
        }
        let strings = listing.strings();
        for row in strings.rows() {
            assert_eq!(&bytes[row.text_range()], row.bytes);
            assert_eq!(bytes[row.range.end - 1], 0, "{name}: terminator");
            let offset = strings.offset_of(row) as u64;
            assert_eq!(file.string(offset).unwrap().as_bytes(), row.bytes);
            assert_eq!(
                strings.index_of_offset(offset),
                strings.index_containing(row.range.start)
            );
        }
        for (names, expected) in [
            (listing.kernel_names(), file.kernel_names().unwrap()),
            (listing.types(), file.type_names().unwrap()),
        ] {
            assert_eq!(names.len(), expected.len());
            for row in names.iter() {
                assert_eq!(vbr_at(bytes, &row.range), row.string_offset);
                assert_eq!(row.name, Some(expected[row.index]));
            }
        }
        let attributes = listing.attributes();
        let data = listing.section(SectionId::Attributes).unwrap().data.clone();
        for row in attributes.iter() {
            assert_eq!(row.range.start - data.start, row.offset as usize);
            assert!(listing.attribute_value(&row).is_ok());
            let mut r = Reader::new(&bytes[row.entry.clone()], row.entry.start as u64);
            assert_eq!(r.vbr("offset").unwrap(), u64::from(row.offset));
            assert_eq!(r.vbr("type").unwrap(), u64::from(row.ty.0));
            assert!(r.is_empty());
        }
        for entry in listing.index_entries() {
            assert_eq!(bytes[entry.kind_range.start], entry.kind as u8);
            assert_eq!(vbr_at(bytes, &entry.body_offset_range), entry.body_offset);
            assert_eq!(vbr_at(bytes, &entry.name_range), entry.name_offset);
            assert_eq!(file.string(entry.name_offset).unwrap(), entry.name);
        }
        for f in listing.functions() {
            let body = file.body(f.index).unwrap();
            assert_eq!(f.range.start as u64, body.offset);
            assert_eq!(vbr_at(bytes, &f.location_range()), f.location.unwrap());
            assert_eq!(
                vbr_at(bytes, &f.register_count_range()),
                f.register_count() as u64
            );
            assert_eq!(
                vbr_at(bytes, &f.kernel_count_range()),
                f.kernels().len() as u64
            );
            assert!(bytes[f.padding_range()].iter().all(|&b| b == 0xcc));
            for r in f.registers() {
                assert_eq!(vbr_at(bytes, &r.range), u64::from(r.uses));
            }
            for (k, record) in f.kernels().iter().zip(body.kernel_records()) {
                assert_eq!(&bytes[k.range.clone()], record.bytes(), "{name}");
                assert_eq!(u32_at(bytes, k.range.start), Some(k.code));
                assert_eq!(u32_at(bytes, k.range.start + 4), Some(k.location));
                let [row, offset, operands, stream] = f.kernel_entry_ranges(k.index).unwrap();
                assert_eq!((row.start, row.end), (offset.start, stream.end));
                let list = f.kernel_list_range().start as u64;
                assert_eq!(vbr_at(bytes, &offset) + list, k.range.start as u64);
                assert_eq!(vbr_at(bytes, &operands), u64::from(k.num_operands));
                assert_eq!(vbr_at(bytes, &stream), k.stream_id);
                for a in &k.attributes {
                    assert_eq!(u32_at(bytes, a.slot.start), Some(a.offset));
                    assert_eq!(a.slot.len(), 4);
                    let row = attributes.get(a.attribute.unwrap()).unwrap();
                    assert_eq!(row.offset, a.offset);
                    let name_range = a.name_range.clone().unwrap();
                    let name = file.string(vbr_at(bytes, &name_range)).unwrap();
                    assert_eq!(Some(name), a.name);
                }
            }
            for (i, &register) in f.results().iter().enumerate() {
                assert_eq!(
                    vbr_at(bytes, &f.result_range(i).unwrap()),
                    u64::from(register)
                );
            }
            if let Some(types) = listing.register_types(f.index) {
                for r in f.registers() {
                    let range = r.type_range.unwrap();
                    assert_eq!(vbr_at(bytes, &range), u64::from(r.type_index.unwrap()));
                    assert_eq!(Some(types.types[r.index]), r.type_index);
                }
            }
        }
        let locations = listing.locations();
        for row in locations.iter() {
            let decoded = listing.location(row.offset).unwrap();
            assert!(decoded.is_some(), "{name}");
            assert_eq!(locations.index_of_offset(row.offset), Some(row.index));
        }
        if let Some(last) = locations.iter().last() {
            assert_eq!(
                last.range.end,
                listing.section(SectionId::Locations).unwrap().data.end
            );
        }
    }
}

#[test]
fn registers_know_their_producer_users_and_returns() {
    let buffer = corpus_file("add_i32.bef");
    let listing = Listing::new(buffer.bytes()).unwrap();
    let f = listing.function(0).unwrap();
    assert_eq!((f.name, f.kind), ("add", FunctionKind::Bef));
    let types = |t: &[u32]| t.iter().map(|&t| listing.type_name(t)).collect::<Vec<_>>();
    assert_eq!(types(&f.argument_types), [Some("i32"), Some("i32")]);
    assert_eq!(types(&f.result_types), [Some("i32")]);
    let registers: Vec<_> = f.registers().collect();
    assert_eq!(registers.len(), 3);
    for argument in &registers[..2] {
        assert_eq!(argument.producer, Some(0));
        assert_eq!(argument.users, [1]);
        assert!(argument.returned_as.is_empty());
        assert_eq!(listing.type_name(argument.type_index.unwrap()), Some("i32"));
    }
    assert_eq!(registers[2].producer, Some(1));
    assert!(registers[2].users.is_empty());
    assert_eq!(registers[2].returned_as, [0]);
    let add = f.kernel(1).unwrap();
    assert_eq!(add.name, Some("tfrt.add.i32"));
    assert_eq!(add.arguments().collect::<Vec<_>>(), [0, 1]);
    assert_eq!(add.results().collect::<Vec<_>>(), [2]);
    assert!(f.kernel(0).unwrap().pseudo);
    assert_eq!(f.kernel(0).unwrap().location_offset(), None);
    let location = listing
        .location(add.location_offset().unwrap())
        .unwrap()
        .unwrap();
    assert!(
        location.to_string().starts_with("\"golden.mlir\":"),
        "{location}"
    );
}

#[test]
fn kernels_list_named_attributes_and_function_references() {
    let buffer = corpus_file("functions_and_aggregates.bef");
    let listing = Listing::new(buffer.bytes()).unwrap();
    assert!(
        listing.function(3).is_none(),
        "native functions have no body"
    );
    assert_eq!(listing.index_entry(3).unwrap().kind, FunctionKind::Native);
    let main = listing.function(1).unwrap();
    let call = main.kernel(1).unwrap();
    assert_eq!(call.name, Some("tfrt.call"));
    let names: Vec<_> = call.attributes.iter().map(|a| a.name.unwrap()).collect();
    assert_eq!(names, ["agg", "nested"]);
    let agg = listing
        .attributes()
        .get(call.attributes[0].attribute.unwrap())
        .unwrap();
    let value = listing.attribute_value(&agg).unwrap().to_string();
    assert_eq!(value, "[\"s\", [1 : i32]]");
    assert_eq!(call.functions().collect::<Vec<_>>(), [1, 2]);
    assert_eq!(call.used_by(0).collect::<Vec<_>>(), [2]);
    // The attribute's bytes and its slot in the record lead back to it.
    let path = listing.item_at(agg.range.start);
    assert_eq!(path.items.last(), Some(&Item::Attribute(agg.index)));
    assert_eq!(path.field.unwrap().kind, FieldKind::AttributeBytes);
    let slot = listing.item_at(call.attributes[1].slot.start + 2);
    assert_eq!(slot.items[1..], [Item::Function(1), Item::Kernel(1)]);
    assert_eq!(
        slot.field.unwrap(),
        Field::nth(FieldKind::AttributeRef, 1, call.attributes[1].slot.clone())
    );
}

#[test]
fn listing_one_function_decodes_only_that_one() {
    let buffer = corpus_file("functions_and_aggregates.bef");
    let listing = Listing::new(buffer.bytes()).unwrap();
    let main = listing.function(1).unwrap();
    assert_eq!(main.kernels().len(), 4);
    let decoded: Vec<bool> = listing
        .functions
        .iter()
        .map(|f| f.get().is_some())
        .collect();
    assert_eq!(decoded, [false, true, false, false]);
    // A byte of the last function's body decodes that function alone.
    let sync = listing.file().functions()[2].offset as usize
        + listing.section(SectionId::Functions).unwrap().data.start;
    assert_eq!(listing.item_at(sync + 1).items[1], Item::Function(2));
    let decoded: Vec<bool> = listing
        .functions
        .iter()
        .map(|f| f.get().is_some())
        .collect();
    assert_eq!(decoded, [false, true, true, false]);
}

#[test]
fn a_window_inside_a_kernel_gives_only_its_fields() {
    let buffer = corpus_file("add_i32.bef");
    let listing = Listing::new(buffer.bytes()).unwrap();
    let add = listing.function(0).unwrap().kernel(1).unwrap().clone();
    // Words 6.. of the add kernel: user count, two arguments, result.
    let window = add.range.start + 24..add.range.start + 40;
    let kinds: Vec<_> = listing
        .fields_in(window.clone())
        .into_iter()
        .map(|f| (f.kind, f.index))
        .collect();
    assert_eq!(
        kinds,
        [
            (FieldKind::UsedByCount, Some(0)),
            (FieldKind::ArgumentRegister, Some(0)),
            (FieldKind::ArgumentRegister, Some(1)),
            (FieldKind::ResultRegister, Some(0)),
        ]
    );
    // A window starting mid-field still shows that field.
    let fields = listing.fields_in(window.start + 1..window.start + 2);
    assert_eq!(fields.len(), 1);
    assert_eq!(fields[0].range, window.start..window.start + 4);
}

/// Cuts `functions_and_aggregates.bef` inside kernel 2 of `main`.
#[test]
fn a_truncated_file_lists_its_decodable_parts() {
    let full_buffer = corpus_file("functions_and_aggregates.bef");
    let full = Listing::new(full_buffer.bytes()).unwrap();
    let cut = full.function(1).unwrap().kernel(2).unwrap().range.start + 8;
    let buffer = BefBuffer::copy_from(&full_buffer.bytes()[..cut]);
    let listing = Listing::new(buffer.bytes()).unwrap();
    check_lookups(&listing, 1).unwrap();
    assert_eq!(listing.problems().len(), 1, "{:?}", listing.problems());
    assert!(
        listing
            .section(SectionId::Functions)
            .unwrap()
            .is_truncated()
    );
    assert_eq!(listing.strings().rows(), full.strings().rows());
    assert_eq!(listing.kernel_names().len(), 4);
    assert_eq!(listing.function_count(), 4);
    // The first function is whole; main keeps the kernels before the cut.
    let first = listing.function(0).unwrap();
    assert!(first.error().is_none());
    assert_eq!(
        first.kernels().len(),
        full.function(0).unwrap().kernels().len()
    );
    let main = listing.function(1).unwrap();
    assert_eq!(main.kernels().len(), 2);
    assert_eq!(main.register_count(), 4);
    assert!(
        main.error().unwrap().message.contains("kernel 2"),
        "{:?}",
        main.error()
    );
    assert!(listing.function(2).unwrap().error().is_some());
    let errors = listing.errors();
    assert!(
        errors
            .iter()
            .any(|e| e.message.contains("Functions section needs"))
    );
    assert!(errors.windows(2).all(|w| w[0].offset <= w[1].offset));
}

#[test]
fn every_truncation_and_bit_flip_lists_without_panicking() {
    for (name, buffer) in corpus() {
        let bytes = buffer.bytes();
        for len in 0..bytes.len() {
            let cut = BefBuffer::copy_from(&bytes[..len]);
            match Listing::new(cut.bytes()) {
                Ok(listing) => {
                    check_lookups(&listing, 1).unwrap();
                    let _ = listing.errors();
                }
                Err(e) => assert!(len < 3, "{name}[..{len}]: {e}"),
            }
        }
        for at in 3..bytes.len() {
            for bit in [0, 7] {
                let mut flipped = bytes.to_vec();
                flipped[at] ^= 1 << bit;
                let flipped = BefBuffer::copy_from(&flipped);
                let listing = Listing::new(flipped.bytes()).unwrap();
                check_lookups(&listing, 1).unwrap();
            }
        }
    }
}

#[test]
fn damage_stays_in_the_item_it_hits() {
    let buffer = corpus_file("functions_and_aggregates.bef");
    let full = Listing::new(buffer.bytes()).unwrap();
    // A kernel name pointing past the strings: only that name is lost.
    let mut bytes = buffer.bytes().to_vec();
    let entry = full.kernel_names().get(1).unwrap().range;
    assert_eq!(entry.len(), 1);
    bytes[entry.start] = 0x7f;
    let damaged = BefBuffer::copy_from(&bytes);
    let listing = Listing::new(damaged.bytes()).unwrap();
    let names: Vec<_> = listing.kernel_names().iter().map(|r| r.name).collect();
    assert_eq!(
        names,
        [
            Some("tfrt.call"),
            None,
            Some("tfrt_test.native"),
            Some("tfrt.new.chain")
        ]
    );
    let errors = listing.errors();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].offset, entry.start as u64);

    // Kernel 1 of the first function claims a huge argument count: that
    // function loses the kernel, the others are whole.
    let mut bytes = buffer.bytes().to_vec();
    let kernel = full.function(0).unwrap().kernel(1).unwrap().range.start;
    bytes[kernel + 8..kernel + 12].copy_from_slice(&u32::MAX.to_le_bytes());
    let damaged = BefBuffer::copy_from(&bytes);
    let listing = Listing::new(damaged.bytes()).unwrap();
    check_lookups(&listing, 1).unwrap();
    let first = listing.function(0).unwrap();
    assert_eq!(first.kernels().len(), 1);
    assert_eq!(first.error().unwrap().offset, kernel as u64);
    for f in [1, 2] {
        let (damaged, whole) = (listing.function(f).unwrap(), full.function(f).unwrap());
        assert!(damaged.error().is_none());
        assert_eq!(damaged.kernels().len(), whole.kernels().len());
    }
}

#[test]
fn overlapping_kernel_records_end_the_kernel_list() {
    let buffer = corpus_file("functions_and_aggregates.bef");
    let full = Listing::new(buffer.bytes()).unwrap();
    let main = full.function(1).unwrap();
    // Point kernel 3's table row at kernel 2's record.
    let [_, offset, ..] = main.kernel_entry_ranges(3).unwrap();
    let target = main.kernel(2).unwrap().range.start - main.kernel_list_range().start;
    let mut bytes = buffer.bytes().to_vec();
    // The same number of VBR bytes (leading zero groups are allowed).
    for (i, at) in offset.clone().rev().enumerate() {
        let continued = if at + 1 == offset.end { 0 } else { 0x80 };
        bytes[at] = continued | ((target >> (7 * i)) & 0x7f) as u8;
    }
    let damaged = BefBuffer::copy_from(&bytes);
    let listing = Listing::new(damaged.bytes()).unwrap();
    let main = listing.function(1).unwrap();
    assert_eq!(main.kernels().len(), 3);
    assert!(main.error().unwrap().message.contains("overlaps"));
    assert_eq!(main.kernel_table_len(), 4);
    check_lookups(&listing, 1).unwrap();
}

#[test]
fn a_bad_section_table_keeps_the_sections_before_it() {
    let buffer = corpus_file("add_i32.bef");
    let full = Listing::new(buffer.bytes()).unwrap();
    // An alignment byte that is not a power of two in the Functions header.
    let functions = full.section(SectionId::Functions).unwrap();
    let at = functions.alignment_range.clone().unwrap().start;
    let mut bytes = buffer.bytes().to_vec();
    bytes[at] = 3;
    let damaged = BefBuffer::copy_from(&bytes);
    let listing = Listing::new(damaged.bytes()).unwrap();
    assert_eq!(listing.sections().len(), 5);
    assert_eq!(listing.problems()[0].offset, at as u64);
    assert_eq!(
        listing.kernel_names().get(0).unwrap().name,
        Some("tfrt.add.i32")
    );
    assert_eq!(listing.item_at(at).items, [Item::Unframed]);
    assert_eq!(
        listing.range_of(&[Item::Unframed]),
        Some(functions.range.start..bytes.len())
    );
    check_lookups(&listing, 1).unwrap();
}

#[test]
fn section_names_are_the_section_ids_names() {
    for id in SectionId::ALL {
        assert_eq!(section_name(id as u8), id.name());
        assert_eq!(SectionId::from_name(&section_name(id as u8)), Some(id));
    }
    assert_eq!(section_name(42), "Unknown(42)");
}

#[test]
fn a_listing_can_be_shared_between_threads() {
    fn shared<T: Send + Sync>() {}
    shared::<Listing<'_>>();
    let buffer = corpus_file("functions_and_aggregates.bef");
    let listing = Listing::new(buffer.bytes()).unwrap();
    // Functions decoded from several threads at once are decoded once.
    let kernels: Vec<usize> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..4)
            .map(|_| s.spawn(|| listing.function(1).unwrap().kernels().len()))
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).collect()
    });
    assert_eq!(kernels, [4; 4]);
}
