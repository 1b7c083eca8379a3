//! SSA values: scopes, uses with forward references, definitions.

use super::*;

impl<'a> Parser<'a> {
    pub(super) fn push_scope(&mut self, isolated: bool) {
        self.recent = [None; 2];
        if self.nscopes == self.scopes.len() {
            self.scopes.push(Scope::default());
        }
        let scope = &mut self.scopes[self.nscopes];
        scope.defs.clear();
        scope.fwd.clear();
        scope.isolated = isolated;
        if isolated {
            self.visible_start = self.nscopes;
        }
        self.nscopes += 1;
    }

    pub(super) fn pop_scope(&mut self) -> R<()> {
        self.recent = [None; 2];
        self.nscopes -= 1;
        let top = self.nscopes;
        self.visible_start = self.nearest_isolated();
        if self.scopes[top].fwd.is_empty() {
            return Ok(());
        }
        let isolated = self.scopes[top].isolated;
        if isolated || top == 0 {
            let first = self.scopes[top]
                .fwd
                .values()
                .map(|(_, t)| *t)
                .min_by_key(|t| t.start)
                .expect("non-empty");
            return Err(self.err(first, "use of undeclared SSA value name"));
        }
        let fwd = std::mem::take(&mut self.scopes[top].fwd);
        let parent = &mut self.scopes[top - 1];
        for (k, v) in fwd {
            parent.fwd.entry(k).or_insert(v);
        }
        Ok(())
    }

    /// The scopes a lookup may see: from the innermost out to the nearest
    /// isolated one.
    pub(super) fn visible_scopes(&self) -> std::ops::Range<usize> {
        debug_assert_eq!(self.visible_start, self.nearest_isolated());
        self.visible_start..self.nscopes
    }

    /// The nearest isolated scope at or below the innermost one (0 when
    /// none is), found by walking down.
    pub(super) fn nearest_isolated(&self) -> usize {
        let mut lo = self.nscopes.saturating_sub(1);
        while lo > 0 && !self.scopes[lo].isolated {
            lo -= 1;
        }
        lo
    }

    pub(super) fn use_text(&self, u: &Use<'a>) -> &'a str {
        &self.src[u.tok.start as usize..u.end as usize]
    }

    // Inlined: the result is then built in place rather than returned
    // through memory (two uses per op in most programs).
    #[inline(always)]
    pub fn parse_use(&mut self) -> R<Use<'a>> {
        let tok = self.tok;
        if tok.kind != Kind::PercentId {
            return Err(self.err_here("expected SSA operand"));
        }
        let name = self.after_sigil(tok);
        self.bump()?;
        let mut idx = 0;
        let mut end = tok.end;
        if self.tok.kind == Kind::HashId && self.tok.start == tok.end {
            let digits = self.after_sigil(self.tok);
            if !digits.bytes().all(|c| c.is_ascii_digit()) {
                return Err(self.err_here("expected result number"));
            }
            idx = digits
                .parse::<u32>()
                .map_err(|_| self.err_here("invalid result number"))?;
            end = self.tok.end;
            self.bump()?;
        }
        Ok(Use {
            name,
            idx,
            tok,
            end,
        })
    }

    /// `%a, %b#1, ...` (possibly empty, when the next token is no `%`).
    pub fn parse_use_list(&mut self) -> R<Vec<Use<'a>>> {
        let mut uses = Vec::new();
        self.parse_use_list_into(&mut uses)?;
        Ok(uses)
    }

    /// `parse_use_list`, appending to `uses`.
    pub fn parse_use_list_into(&mut self, uses: &mut Vec<Use<'a>>) -> R<()> {
        if self.tok.kind != Kind::PercentId {
            return Ok(());
        }
        loop {
            uses.push(self.parse_use()?);
            if !self.eat(Kind::Comma)? {
                return Ok(());
            }
        }
    }

    /// The value of `key` in the visible scopes: a definition (then
    /// remembered in `recent`), else a forward reference.
    pub(super) fn lookup(&mut self, key: (&'a str, u32)) -> Option<ValueId> {
        let range = self.visible_scopes();
        for s in range.clone().rev() {
            if let Some(&v) = self.scopes[s].defs.get(&key) {
                self.recent[1] = Some((key.0, key.1, v));
                return Some(v);
            }
        }
        for s in range.rev() {
            if let Some(&(v, _)) = self.scopes[s].fwd.get(&key) {
                return Some(v);
            }
        }
        None
    }

    /// Resolves a use against the visible definitions, or records a
    /// forward reference.
    // Inlined like `parse_use` (most ops resolve two uses).
    #[inline(always)]
    pub fn resolve(&mut self, u: &Use<'a>, ty: &Type) -> R<ValueId> {
        let key = (u.name, u.idx);
        let mut found = self
            .recent
            .iter()
            .flatten()
            .find(|&&(name, idx, _)| idx == u.idx && same_name(name, u.name))
            .map(|&(_, _, v)| v);
        if found.is_none() {
            found = self.lookup(key);
        }
        if let Some(v) = found {
            let prior = self.module.value_type(v);
            if !prior.same_as(ty) {
                return Err(self.err(
                    u.tok,
                    format!(
                        "use of value '{}' expects different type than prior uses: '{ty}' vs '{prior}'",
                        self.use_text(u)
                    ),
                ));
            }
            return Ok(v);
        }
        let v = self.module.new_value(ty.clone(), None);
        let top = self.nscopes - 1;
        self.scopes[top].fwd.insert(key, (v, u.tok));
        Ok(v)
    }

    /// The values of `uses`, of the given types (owned or borrowed).
    pub fn resolve_all<T: std::borrow::Borrow<Type>>(
        &mut self,
        uses: &[Use<'a>],
        types: &[T],
        at: Token,
    ) -> R<Vec<ValueId>> {
        if uses.len() != types.len() {
            return Err(self.operand_count_error(at, uses.len(), types.len()));
        }
        let mut values = Vec::with_capacity(uses.len());
        for (u, t) in uses.iter().zip(types) {
            values.push(self.resolve(u, t.borrow())?);
        }
        Ok(values)
    }

    /// `found` operands where the op takes `expected`.
    pub(crate) fn operand_count_error(&self, at: Token, found: usize, expected: usize) -> Error {
        self.err(
            at,
            format!("{found} operands present, but expected {expected}"),
        )
    }

    /// Defines `%name` (`#idx`) in the innermost scope.
    pub fn define(
        &mut self,
        name: &'a str,
        idx: u32,
        tok: Token,
        ty: Type,
        loc: Option<Location>,
    ) -> R<ValueId> {
        self.define_in(name, idx, tok, ty, loc, None)
    }

    /// `define`, into the value `slot` reserved for it (unless the value
    /// was used before its definition: the forward reference's value
    /// wins and the slot stays undefined, for `renumber_values` to drop).
    pub(super) fn define_in(
        &mut self,
        name: &'a str,
        idx: u32,
        tok: Token,
        ty: Type,
        loc: Option<Location>,
        slot: Option<ValueId>,
    ) -> R<ValueId> {
        let key = (name, idx);
        let top = self.nscopes - 1;
        // The innermost scope is checked when the value goes in (one
        // lookup instead of two): a value it defines has no forward
        // reference left, so the steps below cannot fail first.
        for s in self.visible_scopes().start..top {
            if self.scopes[s].defs.contains_key(&key) {
                return Err(self.err(tok, format!("redefinition of SSA value '%{name}'")));
            }
        }
        let fwd = &mut self.scopes[top].fwd;
        let forward = if fwd.is_empty() {
            None
        } else {
            fwd.remove(&key)
        };
        let v = if let Some((v, _)) = forward {
            let prior = self.module.value_type(v);
            if !prior.same_as(&ty) {
                return Err(self.err(
                    tok,
                    format!(
                        "definition of SSA value '%{name}#{idx}' has type '{ty}' but was used with type '{prior}'"
                    ),
                ));
            }
            self.module.values[v.index()].location = loc.map(Box::new);
            v
        } else if let Some(v) = slot {
            let value = &mut self.module.values[v.index()];
            fill_placeholder(&mut value.ty, ty, |t| matches!(t, Type::None));
            value.location = loc.map(Box::new);
            v
        } else {
            self.module.new_value(ty, loc)
        };
        match self.scopes[top].defs.entry(key) {
            std::collections::hash_map::Entry::Vacant(entry) => {
                entry.insert(v);
                self.recent[0] = Some((name, idx, v));
            }
            std::collections::hash_map::Entry::Occupied(_) => {
                return Err(self.err(tok, format!("redefinition of SSA value '%{name}'")));
            }
        }
        Ok(v)
    }

    /// A list of result types, in a reused allocation when one is free.
    pub(crate) fn result_types<const N: usize>(&mut self, types: [Type; N]) -> Vec<Type> {
        let mut list = self.type_lists.pop().unwrap_or_default();
        list.extend(types);
        list
    }
}
