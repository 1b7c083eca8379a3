//! The top level: the module's ops, attribute and type aliases, and the
//! resolution of forward-referenced location aliases.

use super::*;

impl<'a> Parser<'a> {
    pub fn parse_top_level(mut self) -> R<Module> {
        let ops = self.parse_top_ops()?;
        let values = self.take_values();
        let mut module = top_level_module(ops, values, self.file);
        module.renumber_values();
        Ok(module)
    }

    /// The top-level ops, location aliases resolved; their values stay in
    /// the parser (`take_values`), in no particular order.
    pub(in crate::text) fn parse_top_ops(&mut self) -> R<Vec<Op>> {
        // About one value per line of a host program (30-odd bytes):
        // growing the arena instead would copy it over and over.
        self.module.values.reserve(self.src.len() / 32);
        self.push_scope(true);
        self.push_labels();
        let mut ops = Vec::new();
        loop {
            match self.tok.kind {
                Kind::Eof => break,
                Kind::HashId if self.peek_kind() == Kind::Equal => self.parse_attr_alias_def()?,
                Kind::BangId if self.peek_kind() == Kind::Equal => self.parse_type_alias_def()?,
                _ => self.parse_operation_into(&mut ops)?,
            }
        }
        let mut region = Region {
            blocks: vec![Block {
                arguments: Vec::new(),
                ops,
            }],
        };
        self.finish_labels(&mut region)?;
        self.pop_scope()?;
        let mut ops = std::mem::take(&mut region.blocks[0].ops);
        if !self.loc_alias_refs.is_empty() {
            self.resolve_loc_aliases(&mut ops)?;
        }
        Ok(ops)
    }

    pub(in crate::text) fn take_values(&mut self) -> Vec<ValueData> {
        std::mem::take(&mut self.module.values)
    }

    /// Whether the text parsed so far defined nothing that text parsed by
    /// another parser could refer to or clash with: no alias of any kind
    /// and no value at the top level.
    pub(in crate::text) fn defines_nothing_shared(&self) -> bool {
        self.attr_aliases.is_empty()
            && self.type_aliases.is_empty()
            && self.loc_aliases.is_empty()
            && self.scopes.first().is_none_or(|top| top.defs.is_empty())
    }

    pub(super) fn parse_attr_alias_def(&mut self) -> R<()> {
        let t = self.tok;
        let name = self.after_sigil(t);
        if name.contains('<') || name.contains('.') || name.is_empty() {
            return Err(self.err(t, "invalid attribute alias name"));
        }
        if self.attr_aliases.contains_key(name) || self.loc_aliases.contains_key(name) {
            return Err(self.err(t, format!("redefinition of attribute alias id '{name}'")));
        }
        self.bump()?;
        self.expect(Kind::Equal, "expected '='")?;
        if self.at_keyword("loc") && self.peek_kind() == Kind::LParen {
            let loc = self.parse_trailing_loc()?;
            let mut pending = Vec::new();
            self.placeholders(&loc, &mut pending);
            let alias = LocAlias {
                measure: measure::location(&loc),
                loc,
                def: t,
                pending,
            };
            self.loc_aliases.insert(name, alias);
            self.loc_alias_order.push(name);
        } else {
            let attr = self.parse_attribute()?;
            let m = measure::attribute(&attr);
            self.attr_aliases.insert(name, (attr, m));
        }
        Ok(())
    }

    pub(super) fn parse_type_alias_def(&mut self) -> R<()> {
        let t = self.tok;
        let name = self.after_sigil(t);
        if name.contains('<') || name.contains('.') || name.is_empty() {
            return Err(self.err(t, "invalid type alias name"));
        }
        if self.type_aliases.contains_key(name) {
            return Err(self.err(t, format!("redefinition of type alias id '{name}'")));
        }
        self.bump()?;
        self.expect(Kind::Equal, "expected '='")?;
        let ty = self.parse_type()?;
        let m = measure::of_type(&ty);
        self.type_aliases.insert(name, (ty, m));
        Ok(())
    }

    /// Charges the use of an alias at `t` for the copy of its value
    /// (measured `m`) and checks how deep the copy nests where it goes:
    /// below `attrs` attributes and `locs` locations.
    pub(super) fn copy_alias(&mut self, t: Token, m: Measure, attrs: u32, locs: u32) -> R<()> {
        let name = self.text(t);
        // The depth of the deepest node of a kind, the root being at 0.
        let deepest = |enclosing: u32, levels: u32| (enclosing + levels).saturating_sub(1);
        if m.loc_levels > 0 && deepest(locs, m.loc_levels) > MAX_LEVELS {
            return Err(self.err(
                t,
                format!("locations nested deeper than {MAX_NESTING} levels (through {name})"),
            ));
        }
        if m.attr_levels > 0 && deepest(attrs, m.attr_levels) > MAX_LEVELS {
            return Err(self.err(
                t,
                format!("attributes nested deeper than {MAX_NESTING} levels (through {name})"),
            ));
        }
        if self.depth.saturating_add(m.levels) > MAX_PARSE_NESTING {
            return Err(self.err(t, format!("nesting too deep (through {name})")));
        }
        self.charge_copy(t, m.size)
    }

    /// Takes `size` copied nodes from what uses of aliases may copy.
    pub(super) fn charge_copy(&mut self, t: Token, size: u64) -> R<()> {
        match self.alias_budget.checked_sub(size) {
            Some(rest) => {
                self.alias_budget = rest;
                Ok(())
            }
            None => {
                let limit = (self.src.len() as u64)
                    .saturating_mul(ALIAS_COPIES_PER_BYTE)
                    .saturating_add(ALIAS_ALLOWANCE);
                Err(self.err(
                    t,
                    format!(
                        "aliases expand to more than {limit} attributes, types and locations \
                         ({ALIAS_COPIES_PER_BYTE} per byte of input, plus {ALIAS_ALLOWANCE})"
                    ),
                ))
            }
        }
    }

    /// The index into `loc_alias_refs` if `loc` is a placeholder.
    pub(super) fn placeholder(&self, loc: &Location) -> Option<usize> {
        match loc {
            Location::FileLineCol { file, line, .. }
                if std::sync::Arc::ptr_eq(file, &self.alias_mark) =>
            {
                Some(*line as usize)
            }
            _ => None,
        }
    }

    /// Adds the placeholders in `loc` to `out`. Recursion is bounded by
    /// `MAX_NESTING`, which every parsed location obeys.
    pub(super) fn placeholders(&self, loc: &Location, out: &mut Vec<u32>) {
        if let Some(index) = self.placeholder(loc) {
            out.push(index as u32);
            return;
        }
        match loc {
            Location::Name { child, .. } => self.placeholders(child, out),
            Location::CallSite { callee, caller } => {
                self.placeholders(callee, out);
                self.placeholders(caller, out);
            }
            Location::Fused { locations, .. } => {
                for l in locations {
                    self.placeholders(l, out);
                }
            }
            _ => {}
        }
    }

    /// Replaces the placeholders of forward-referenced location aliases:
    /// first in the aliases' own definitions (an alias that refers to
    /// itself, directly or through others, is an error at its definition),
    /// then in the top-level ops last to first (depth first), then in the
    /// values.
    pub(super) fn resolve_loc_aliases(&mut self, ops: &mut [Op]) -> R<()> {
        let order = std::mem::take(&mut self.loc_alias_order);
        let mut state: FxHashMap<&'a str, Resolving> = FxHashMap::default();
        for &name in &order {
            self.resolve_alias(name, &mut state)?;
        }
        let mut stack: Vec<&mut Op> = ops.iter_mut().collect();
        while let Some(op) = stack.pop() {
            self.fix_loc(&mut op.location, 0)?;
            for region in &mut op.regions {
                for block in &mut region.blocks {
                    stack.extend(block.ops.iter_mut());
                }
            }
        }
        let mut values = std::mem::take(&mut self.module.values);
        for value in &mut values {
            if let Some(loc) = &mut value.location {
                self.fix_loc(loc, 0)?;
            }
        }
        self.module.values = values;
        Ok(())
    }

    /// Resolves alias `name` and, first, the aliases it refers to, on an
    /// explicit stack (a chain of aliases may be as long as the input).
    pub(super) fn resolve_alias(
        &mut self,
        name: &'a str,
        state: &mut FxHashMap<&'a str, Resolving>,
    ) -> R<()> {
        if state.contains_key(name) {
            return Ok(());
        }
        // Each entry: an alias and how many of its pending references are
        // known to be resolved.
        let mut stack: Vec<(&'a str, usize)> = vec![(name, 0)];
        state.insert(name, Resolving::Started);
        while let Some(&(current, next)) = stack.last() {
            if let Some(&index) = self.loc_aliases[current].pending.get(next) {
                if let Some(top) = stack.last_mut() {
                    top.1 += 1;
                }
                let (target, tok) = self.loc_alias_refs[index as usize];
                match (state.get(target), self.loc_aliases.contains_key(target)) {
                    (_, false) => {
                        return Err(self.err(tok, format!("undefined symbol alias id '{target}'")));
                    }
                    (Some(Resolving::Done), _) => {}
                    (Some(Resolving::Started), _) => {
                        return Err(self.alias_cycle(target, &stack));
                    }
                    (None, _) => {
                        state.insert(target, Resolving::Started);
                        stack.push((target, 0));
                    }
                }
                continue;
            }
            // Every alias it refers to is resolved: replace its
            // placeholders.
            let mut alias = self.loc_aliases.remove(current).expect("defined");
            if !alias.pending.is_empty() {
                self.fix_loc(&mut alias.loc, 0)?;
                alias.measure = measure::location(&alias.loc);
                alias.pending = Vec::new();
            }
            self.loc_aliases.insert(current, alias);
            state.insert(current, Resolving::Done);
            stack.pop();
        }
        Ok(())
    }

    /// The error for alias `target`, which refers to itself through the
    /// aliases above it on `stack`.
    #[cold]
    pub(super) fn alias_cycle(&self, target: &str, stack: &[(&'a str, usize)]) -> Error {
        let def = self.loc_aliases[target].def;
        let from = stack.iter().position(|&(n, _)| n == target).unwrap_or(0);
        let through: Vec<String> = stack[from + 1..]
            .iter()
            .map(|(n, _)| format!("#{n}"))
            .collect();
        let message = if through.is_empty() {
            format!("location alias #{target} refers to itself")
        } else {
            format!(
                "location alias #{target} refers to itself through {}",
                through.join(", ")
            )
        };
        self.err(def, message)
    }

    /// Replaces the placeholders in `loc`, whose root lies `depth`
    /// locations deep, by their (resolved) aliases.
    pub(super) fn fix_loc(&mut self, loc: &mut Location, depth: u32) -> R<()> {
        if let Some(index) = self.placeholder(loc) {
            let (name, tok) = self.loc_alias_refs[index];
            let Some(alias) = self.loc_aliases.get(name) else {
                return Err(self.err(tok, format!("undefined symbol alias id '{name}'")));
            };
            let (measure, target) = (alias.measure, alias.loc.clone());
            // Attributes in locations (fused metadata) are roots of their
            // own; only their size counts here.
            self.copy_alias(tok, measure, 0, depth)?;
            *loc = target;
            return Ok(());
        }
        match loc {
            Location::Name { child, .. } => self.fix_loc(child, depth + 1)?,
            Location::CallSite { callee, caller } => {
                self.fix_loc(callee, depth + 1)?;
                self.fix_loc(caller, depth + 1)?;
            }
            Location::Fused { locations, .. } => {
                for l in locations {
                    self.fix_loc(l, depth + 1)?;
                }
            }
            _ => {}
        }
        Ok(())
    }
}
