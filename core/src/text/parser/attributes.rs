//! Attributes: dictionaries, arrays, numbers and `#` attributes.

use super::*;

impl<'a> Parser<'a> {
    /// `{a = 1, b}`: sorted by name, duplicates rejected.
    pub fn parse_attr_dict(&mut self) -> R<Vec<NamedAttribute>> {
        self.enter()?;
        self.expect(Kind::LBrace, "expected '{' in attribute dictionary")?;
        let mut entries: Vec<(String, Attribute, Token)> = Vec::new();
        if !self.at(Kind::RBrace) {
            loop {
                let t = self.tok;
                let key = match t.kind {
                    Kind::BareId => self.text(t).to_string(),
                    Kind::String => self.decode_string_utf8(t)?,
                    _ => return Err(self.err_here("expected attribute name")),
                };
                self.bump()?;
                let value = if self.eat(Kind::Equal)? {
                    self.parse_attribute()?
                } else {
                    Attribute::Unit
                };
                entries.push((key, value, t));
                if !self.eat(Kind::Comma)? {
                    break;
                }
            }
        }
        self.expect(Kind::RBrace, "expected '}' in attribute dictionary")?;
        self.leave();
        self.sorted_dict(entries)
    }

    pub fn sorted_dict(
        &self,
        mut entries: Vec<(String, Attribute, Token)>,
    ) -> R<Vec<NamedAttribute>> {
        if !entries.is_sorted_by(|a, b| a.0 < b.0) {
            entries.sort_by(|a, b| a.0.cmp(&b.0).then(a.2.start.cmp(&b.2.start)));
            if let Some(w) = entries.windows(2).find(|w| w[0].0 == w[1].0) {
                return Err(self.err(
                    w[1].2,
                    format!("duplicate key '{}' in dictionary attribute", w[1].0),
                ));
            }
        }
        Ok(entries.into_iter().map(|(k, v, _)| (k, v)).collect())
    }

    /// Attributes recurse through small frames only (arrays and
    /// dictionaries); everything else is read by `attribute_leaf`.
    pub fn parse_attribute(&mut self) -> R<Attribute> {
        if self.attr_depth > MAX_LEVELS {
            return Err(self.err_here(format!(
                "attributes nested deeper than {MAX_NESTING} levels"
            )));
        }
        self.enter()?;
        self.attr_depth += 1;
        let r = match self.tok.kind {
            Kind::LSquare => self.parse_array_attr(),
            Kind::LBrace => self.parse_attr_dict().map(Attribute::Dictionary),
            _ => self.attribute_leaf(),
        };
        self.attr_depth -= 1;
        self.leave();
        r
    }

    pub(super) fn parse_array_attr(&mut self) -> R<Attribute> {
        self.bump()?;
        let mut items = Vec::new();
        if !self.at(Kind::RSquare) {
            loop {
                items.push(self.parse_attribute()?);
                if !self.eat(Kind::Comma)? {
                    break;
                }
            }
        }
        self.expect(Kind::RSquare, "expected ']' in array attribute")?;
        Ok(Attribute::Array(items))
    }

    #[inline(never)]
    pub(super) fn attribute_leaf(&mut self) -> R<Attribute> {
        let t = self.tok;
        let attr = match t.kind {
            Kind::String => {
                let value = self.decode_string(t)?;
                self.bump()?;
                let ty = if self.eat(Kind::Colon)? {
                    Some(self.parse_type()?)
                } else {
                    None
                };
                Attribute::String { value, ty }
            }
            Kind::AtId => {
                let root = self.parse_symbol_name()?;
                let mut nested = Vec::new();
                while self.eat(Kind::ColonColon)? {
                    nested.push(self.parse_symbol_name()?);
                }
                Attribute::SymbolRef { root, nested }
            }
            Kind::Integer | Kind::Float | Kind::Minus => {
                let negative = self.eat(Kind::Minus)?;
                let num = self.tok;
                if !matches!(num.kind, Kind::Integer | Kind::Float) {
                    return Err(self.err_here("expected integer or float literal"));
                }
                self.bump()?;
                let ty = if self.eat(Kind::Colon)? {
                    Some(self.parse_type()?)
                } else {
                    None
                };
                self.number_attr(negative, num, ty)?
            }
            Kind::HashId => {
                self.bump()?;
                self.hash_attr(t)?
            }
            Kind::BangId | Kind::LParen => Attribute::Type(self.parse_type()?),
            Kind::BareId => match self.text(t) {
                "true" | "false" => {
                    self.bump()?;
                    Attribute::Bool(self.text(t) == "true")
                }
                "unit" => {
                    self.bump()?;
                    Attribute::Unit
                }
                "dense" => self.parse_dense()?,
                "array" => self.parse_dense_array()?,
                "loc" if self.peek_kind() == Kind::LParen => {
                    self.enter_weighted(REGION_WEIGHT)?;
                    let loc = self.parse_trailing_loc();
                    self.leave_weighted(REGION_WEIGHT);
                    Attribute::Location(Box::new(loc?))
                }
                _ => Attribute::Type(self.parse_type().map_err(|e| {
                    if e.location == self.loc_at(t) {
                        self.err(t, "expected attribute value")
                    } else {
                        e
                    }
                })?),
            },
            _ => return Err(self.err_here("expected attribute value")),
        };
        Ok(attr)
    }

    pub(crate) fn int_literal(&self, negative: bool, num: Token) -> R<IntLiteral> {
        let text = self.text(num);
        let (magnitude, hex) = match text.strip_prefix("0x") {
            Some(h) => (num::parse_hex(h), true),
            None => (num::parse_dec(text), false),
        };
        let magnitude = magnitude
            .ok_or_else(|| self.err(num, "integer constant out of range for attribute"))?;
        Ok(IntLiteral {
            negative,
            magnitude,
            hex,
        })
    }

    /// An integer or float literal (after an optional `-`) with its type.
    pub fn number_attr(&self, negative: bool, num: Token, ty: Option<Type>) -> R<Attribute> {
        match num.kind {
            Kind::Integer => {
                let ty = ty.unwrap_or(Type::i(64));
                if let Type::Float(kind) = ty {
                    let bits = self.float_bits(negative, num, kind, false)?;
                    return Ok(Attribute::Float { bits, ty });
                }
                if num::int_type_info(&ty).is_none() {
                    return Err(self.err(num, "integer literal not valid for specified type"));
                }
                let lit = self.int_literal(negative, num)?;
                let value = num::integer_value(lit, &ty).map_err(|m| self.err(num, m))?;
                Ok(Attribute::Integer { value, ty })
            }
            _ => {
                let ty = ty.unwrap_or(Type::f64());
                let Type::Float(kind) = ty else {
                    return Err(self.err(num, "floating point value not valid for specified type"));
                };
                let bits = self.float_bits(negative, num, kind, false)?;
                Ok(Attribute::Float { bits, ty })
            }
        }
    }

    /// Bits of a float literal token in `kind`: hex integers are the bit
    /// pattern, decimal integers and floats are converted.
    pub(crate) fn float_bits(
        &self,
        negative: bool,
        num: Token,
        kind: FloatKind,
        allow_int: bool,
    ) -> R<u128> {
        let text = self.text(num);
        let width = kind.bit_width();
        if let Some(h) = text.strip_prefix("0x") {
            if negative {
                return Err(self.err(
                    num,
                    "hexadecimal float literal should not have a leading minus",
                ));
            }
            let bits = num::parse_hex(h)
                .filter(|&b| width >= 128 || b < (1u128 << width))
                .ok_or_else(|| self.err(num, "hexadecimal float constant out of range for type"))?;
            return Ok(bits);
        }
        if num.kind == Kind::Integer && !allow_int {
            return Err(self.err(
                num,
                "unexpected decimal integer literal for a floating point value",
            ));
        }
        let bits = num::float_bits_from_decimal(text, kind)
            .ok_or_else(|| self.err(num, "invalid floating point literal"))?;
        Ok(if negative {
            bits | (1u128 << (width - 1))
        } else {
            bits
        })
    }

    pub(super) fn hash_attr(&mut self, t: Token) -> R<Attribute> {
        let body = self.after_sigil(t);
        let lt = body.find('<');
        let dot = body.find('.');
        let (dialect, rest) = match (dot, lt) {
            (Some(d), l) if l.is_none_or(|l| d < l) => (&body[..d], &body[d + 1..]),
            (_, Some(l)) => (&body[..l], &body[l..]),
            _ => {
                // The alias stands for the attribute being parsed, below
                // the others `attr_depth` counts.
                let attrs = self.attr_depth.saturating_sub(1);
                if let Some((a, m)) = self.attr_aliases.get(body) {
                    let (a, m) = (a.clone(), *m);
                    self.copy_alias(t, m, attrs, self.loc_depth)?;
                    return Ok(a);
                }
                if let Some(alias) = self.loc_aliases.get(body) {
                    if let Some(&index) = alias.pending.first() {
                        let (later, _) = self.loc_alias_refs[index as usize];
                        return Err(self.err(
                            t,
                            format!(
                                "location alias #{body} is used as an attribute before \
                                 #{later}, which it refers to, is defined"
                            ),
                        ));
                    }
                    let (l, m) = (alias.loc.clone(), alias.measure);
                    self.copy_alias(t, m, attrs + 1, self.loc_depth)?;
                    return Ok(Attribute::Location(Box::new(l)));
                }
                return Err(self.err(t, format!("undefined symbol alias id '{body}'")));
            }
        };
        if dialect.is_empty() || rest.is_empty() {
            return Err(self.err(t, "invalid dialect attribute"));
        }
        if dialect == "corert"
            && let Some(shape) = rest
                .strip_prefix("shape<")
                .and_then(|s| s.strip_suffix('>'))
            && let Some(dims) = parse_shape_body(shape)
        {
            return Ok(Attribute::Shape(dims));
        }
        Ok(Attribute::Dialect {
            dialect: dialect.to_string(),
            body: rest.to_string(),
        })
    }
}
