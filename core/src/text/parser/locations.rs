//! Locations: `loc(...)` in all its forms.

use super::*;

impl<'a> Parser<'a> {
    /// `loc(...)` at the current token.
    pub fn parse_trailing_loc(&mut self) -> R<Location> {
        self.expect_keyword("loc")?;
        self.expect(Kind::LParen, "expected '(' in location")?;
        let loc = self.parse_loc_body()?;
        self.expect(Kind::RParen, "expected ')' in location")?;
        Ok(loc)
    }

    pub(super) fn parse_u32(&mut self, what: &str) -> R<u32> {
        let t = self.expect(
            Kind::Integer,
            &format!("expected integer {what} in location"),
        )?;
        self.text(t)
            .parse::<u32>()
            .map_err(|_| self.err(t, format!("expected integer {what} in location")))
    }

    /// Location bodies recurse through small frames only: the leaves (and
    /// their error paths) live in `loc_leaf`.
    pub(super) fn parse_loc_body(&mut self) -> R<Location> {
        if self.loc_depth > MAX_LEVELS {
            return Err(self.err_here(format!("locations nested deeper than {MAX_NESTING} levels")));
        }
        self.enter()?;
        self.loc_depth += 1;
        let r = self.parse_loc_inner();
        self.loc_depth -= 1;
        self.leave();
        r
    }

    pub(super) fn parse_loc_inner(&mut self) -> R<Location> {
        if self.at_keyword("callsite") {
            self.bump()?;
            self.expect(Kind::LParen, "expected '(' in callsite location")?;
            let callee = self.parse_loc_body()?;
            self.expect_keyword("at")?;
            let caller = self.parse_loc_body()?;
            self.expect(Kind::RParen, "expected ')' in callsite location")?;
            return Ok(Location::CallSite {
                callee: Box::new(callee),
                caller: Box::new(caller),
            });
        }
        if self.at_keyword("fused") {
            self.bump()?;
            let metadata = if self.eat(Kind::Less)? {
                // Attributes inside locations cost more of the budget.
                self.enter_weighted(REGION_WEIGHT)?;
                let a = self.parse_attribute();
                self.leave_weighted(REGION_WEIGHT);
                let a = a?;
                self.expect(Kind::Greater, "expected '>' after fused location metadata")?;
                Some(Box::new(a))
            } else {
                None
            };
            self.expect(Kind::LSquare, "expected '[' in fused location")?;
            let mut locations = Vec::new();
            if !self.at(Kind::RSquare) {
                loop {
                    locations.push(self.parse_loc_body()?);
                    if !self.eat(Kind::Comma)? {
                        break;
                    }
                }
            }
            self.expect(Kind::RSquare, "expected ']' in fused location")?;
            return Ok(Location::Fused {
                locations,
                metadata,
            });
        }
        let (loc, named) = self.loc_leaf()?;
        if let Some(name) = named {
            let child = self.parse_loc_body()?;
            self.expect(Kind::RParen, "expected ')' after child location of NameLoc")?;
            return Ok(Location::Name {
                name,
                child: Box::new(child),
            });
        }
        Ok(loc)
    }

    /// A location without nested locations; `(_, Some(name))` when a
    /// `"name"(` was read and the child location follows.
    #[inline(never)]
    pub(super) fn loc_leaf(&mut self) -> R<(Location, Option<String>)> {
        let t = self.tok;
        let loc = match t.kind {
            Kind::BareId if self.text(t) == "unknown" => {
                self.bump()?;
                Location::Unknown
            }
            Kind::String => {
                let s = self.decode_string_utf8(t)?;
                self.bump()?;
                if self.eat(Kind::Colon)? {
                    let line = self.parse_u32("line number")?;
                    self.expect(Kind::Colon, "expected ':' in FileLineColLoc")?;
                    let column = self.parse_u32("column number")?;
                    Location::FileLineCol {
                        file: s.into(),
                        line,
                        column,
                    }
                } else if self.eat(Kind::LParen)? {
                    return Ok((Location::Unknown, Some(s)));
                } else {
                    // A bare name stands above an unknown location.
                    if self.loc_depth > MAX_LEVELS {
                        return Err(self.err(
                            t,
                            format!("locations nested deeper than {MAX_NESTING} levels"),
                        ));
                    }
                    Location::Name {
                        name: s,
                        child: Box::new(Location::Unknown),
                    }
                }
            }
            Kind::HashId => {
                let name = self.after_sigil(t);
                self.bump()?;
                match self.loc_aliases.get(name) {
                    Some(alias) => {
                        let (m, loc) = (alias.measure, alias.loc.clone());
                        let enclosing = self.loc_depth.saturating_sub(1);
                        self.copy_alias(t, m, self.attr_depth, enclosing)?;
                        loc
                    }
                    None => {
                        let index = self.loc_alias_refs.len() as u32;
                        self.loc_alias_refs.push((name, t));
                        Location::FileLineCol {
                            file: self.alias_mark.clone(),
                            line: index,
                            column: u32::MAX,
                        }
                    }
                }
            }
            _ => return Err(self.err_here("expected location instance")),
        };
        Ok((loc, None))
    }
}
