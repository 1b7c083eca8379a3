//! Entries of the attribute, type, location, dialect and op-name tables:
//! found or added on first use, with their reference counts.

use super::*;

impl<'m> Numbering<'m> {
    fn number_dialect(&mut self, name: &str) -> usize {
        if let Some(&i) = self.dialect_index.get(name) {
            return i;
        }
        let i = self.dialects.len();
        self.dialects.push(name.to_string());
        self.dialect_index.insert(name.to_string(), i);
        i
    }

    pub(super) fn number_builtin_dialect(&mut self) -> usize {
        match self.builtin_dialect {
            Some(i) => i,
            None => {
                let i = self.number_dialect("builtin");
                self.builtin_dialect = Some(i);
                i
            }
        }
    }

    /// Counts a use of `attr`; its entry index.
    pub(super) fn number_attr(&mut self, attr: Key<'_, 'm, Attribute>) -> u32 {
        match attr {
            Key::Module(Attribute::Location(loc)) => return self.number_loc(Key::Module(loc)),
            Key::Temporary(Attribute::Location(loc)) => {
                return self.number_loc(Key::Temporary(loc));
            }
            Key::Module(Attribute::Dictionary(entries)) => {
                return self.number_dict(Key::Module(entries));
            }
            Key::Temporary(Attribute::Dictionary(entries)) => {
                return self.number_dict(Key::Temporary(entries));
            }
            _ => {}
        }
        let hash = hash_of(attr.get());
        if let Some(i) = self.find_attr(hash, attr.get()) {
            return count_use(&mut self.attrs, i);
        }
        let dialect = match attr.get() {
            Attribute::Dialect { dialect, .. } => self.number_dialect(dialect),
            Attribute::Shape(_) => self.number_dialect("corert"),
            _ => self.number_builtin_dialect(),
        };
        let key = AttrKey::Attr(attr.keep());
        let i = add_entry(
            &mut self.attr_index,
            &mut self.attrs,
            hash,
            key,
            dialect,
            attr_key_hash,
        );
        // Nested entries are numbered by a dry run of the encoder.
        builtin_attrs::encode(attr.get(), &mut NumberingSink { n: self });
        i as u32
    }

    pub(super) fn number_dict(&mut self, entries: Key<'_, 'm, [NamedAttribute]>) -> u32 {
        let hash = hash_of(entries.get());
        if let Some(i) = self.find_dict(hash, entries.get()) {
            return count_use(&mut self.attrs, i);
        }
        let dialect = self.number_builtin_dialect();
        let key = AttrKey::Dict(entries.keep());
        let i = add_entry(
            &mut self.dict_index,
            &mut self.attrs,
            hash,
            key,
            dialect,
            attr_key_hash,
        );
        builtin_attrs::encode_dictionary(entries.get(), &mut NumberingSink { n: self });
        i as u32
    }

    pub(super) fn number_loc(&mut self, loc: Key<'_, 'm, Location>) -> u32 {
        // A module without locations has the unknown one for every op;
        // its entry is kept apart, found without hashing.
        if !matches!(loc.get(), Location::Unknown) {
            return self.find_or_add_loc(loc);
        }
        if let Some(i) = self.unknown_loc {
            return count_use(&mut self.attrs, i as usize);
        }
        let i = self.find_or_add_loc(loc);
        self.unknown_loc = Some(i);
        i
    }

    fn find_or_add_loc(&mut self, loc: Key<'_, 'm, Location>) -> u32 {
        if let Location::FileLineCol { file, line, column } = loc.get() {
            return self.find_or_add_file_loc(file, *line, *column);
        }
        let hash = loc_hash(loc.get());
        if let Some(i) = self.find_loc(hash, loc.get()) {
            return count_use(&mut self.attrs, i);
        }
        let dialect = self.number_builtin_dialect();
        let key = AttrKey::Loc(loc.keep());
        let i = add_entry(
            &mut self.loc_index,
            &mut self.attrs,
            hash,
            key,
            dialect,
            attr_key_hash,
        );
        // A file location refers to nothing but its file name: numbered
        // directly rather than by a dry run of the encoder (one per op).
        let mut sink = NumberingSink { n: self };
        match loc.get() {
            Location::Unknown => {}
            Location::FileRange { file, .. } => sink.file_name(file),
            other => builtin_attrs::encode_location(other, &mut sink),
        }
        i as u32
    }

    fn find_or_add_file_loc(&mut self, file: &Arc<str>, line: u32, column: u32) -> u32 {
        // Locations of one file come in runs.
        let ptr = Arc::as_ptr(file) as *const u8;
        let file_entry = match self.last_file {
            Some((last, i)) if last == ptr => Some(i as u32),
            _ => {
                let found = self.file_entry(file);
                if let Some(f) = found {
                    // Kept for the next location of this allocation.
                    self.file_index
                        .entry(ptr)
                        .or_insert_with(|| (file.clone(), f as usize));
                    self.last_file = Some((ptr, f as usize));
                }
                found
            }
        };
        if let Some(f) = file_entry
            && let Some(i) = self.find_file_loc(f, line, column)
        {
            return count_use(&mut self.attrs, i);
        }
        let i = self.attrs.len();
        let dialect = self.number_builtin_dialect() as u32;
        let key = |file| AttrKey::FileLineCol { file, line, column };
        let file = match file_entry {
            // Nearly always: the entry is pushed whole, once.
            Some(f) => {
                push(
                    &mut self.attrs,
                    Entry {
                        key: key(f),
                        dialect,
                        refs: 1,
                    },
                );
                count_use(&mut self.attrs, f as usize)
            }
            // The file name is numbered after the location, as upstream
            // does: the entry is completed once it has its number.
            None => {
                self.attrs.push(Entry {
                    key: key(NONE),
                    dialect,
                    refs: 1,
                });
                NumberingSink { n: self }.file_name(file);
                let f = self.last_file.map_or(NONE, |(_, f)| f as u32);
                self.attrs[i].key = key(f);
                f
            }
        };
        let (attrs, hash) = (&self.attrs, file_loc_hash(file, line, column));
        self.loc_index
            .insert(hash, i, |j| attr_key_hash(&attrs[j].key));
        i as u32
    }

    pub(super) fn number_type(&mut self, ty: Key<'_, 'm, Type>) -> u32 {
        // Types come in runs (an op's results, similar ops in a row): a
        // compare with the last one spares most hashes.
        if let Some(last) = self.last_type
            && *self.types[last as usize].key == *ty.get()
        {
            return count_use(&mut self.types, last as usize);
        }
        let i = self.find_or_add_type(ty);
        self.last_type = Some(i);
        i
    }

    fn find_or_add_type(&mut self, ty: Key<'_, 'm, Type>) -> u32 {
        let hash = hash_of(ty.get());
        if let Some(i) = self
            .type_index
            .find(hash, |i| *self.types[i].key == *ty.get())
        {
            return count_use(&mut self.types, i);
        }
        let dialect = match type_dialect(ty.get()) {
            Some(d) => self.number_dialect(d),
            None => self.number_builtin_dialect(),
        };
        let i = add_entry(
            &mut self.type_index,
            &mut self.types,
            hash,
            ty.keep(),
            dialect,
            |t| hash_of(&**t),
        );
        builtin_types::encode(ty.get(), &mut NumberingSink { n: self });
        i as u32
    }

    /// Counts a use of op name `name`; its entry index.
    pub(super) fn number_op_name(&mut self, name: &str) -> u32 {
        // Op names come in repeating sequences: the name that followed
        // the last one before is compared first, sparing the hash.
        let last = self.last_op_name;
        if let Some(last) = last {
            let predicted = self.op_names[last as usize].next_name;
            if predicted != NONE && self.op_names[predicted as usize].name == name {
                self.op_names[predicted as usize].refs += 1;
                self.last_op_name = Some(predicted);
                return predicted;
            }
        }
        let i = self.find_or_add_op_name(name);
        if let Some(last) = last {
            self.op_names[last as usize].next_name = i;
        }
        self.last_op_name = Some(i);
        i
    }

    fn find_or_add_op_name(&mut self, name: &str) -> u32 {
        if let Some(&i) = self.op_name_index.get(name) {
            self.op_names[i].refs += 1;
            return i as u32;
        }
        let dialect_name = name.split_once('.').map_or(name, |(d, _)| d);
        let dialect = self.number_dialect(dialect_name);
        self.op_name_index
            .insert(name.to_string(), self.op_names.len());
        self.op_names.push(OpNameEntry {
            name: name.to_string(),
            dialect,
            refs: 1,
            origin_registered: self.origin.map(|o| o.is_registered(name)),
            definition: ops::lookup(name),
            last_properties: Vec::new(),
            last_results: Vec::new(),
            next_name: NONE,
        });
        (self.op_names.len() - 1) as u32
    }
}
