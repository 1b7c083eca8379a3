//! Custom forms of `func.func` and `builtin.module`.

use super::*;

impl<'a> Parser<'a> {
    /// Parses `builtin.module @name attributes {...} { body }`.
    pub(super) fn parse_module(&mut self, op: &mut Op) -> R<Vec<Type>> {
        if self.at(Kind::AtId) {
            let name = self.parse_symbol_name()?;
            op.attributes
                .push(("sym_name".into(), Attribute::string(&name)));
        }
        self.opt_attributes_keyword(op)?;
        let mut region = self.parse_region(true, None)?;
        if region.blocks.is_empty() {
            region.blocks.push(Block::default());
        }
        op.regions.push(region);
        Ok(Vec::new())
    }
}

impl Printer<'_> {
    /// Prints `builtin.module @name attributes {...} { body }`; `false` if `op` does not fit it.
    pub(super) fn print_module(&mut self, op: &Op) -> bool {
        if !(Self::plain(op)
            && op.operands.is_empty()
            && op.results.is_empty()
            && op.regions.len() == 1
            && op.regions[0].blocks.len() == 1
            && op.regions[0].blocks[0].arguments.is_empty())
        {
            return false;
        }
        let mut skip: Vec<&str> = Vec::new();
        if let Some(Attribute::String { value, ty: None }) =
            find_attribute(&op.attributes, "sym_name")
            && let Ok(name) = std::str::from_utf8(value)
        {
            self.out.push(' ');
            self.symbol(name);
            skip.push("sym_name");
        }
        self.attributes_keyword(&op.attributes, &skip);
        self.out.push(' ');
        self.region(&op.regions[0], EntryMode::ModuleBody);
        true
    }
}

impl<'a> Parser<'a> {
    /// `[visibility] @name(args) [-> results] [attributes {...}] [{body}]`
    pub(super) fn parse_func_body(&mut self, op: &mut Op) -> R<()> {
        let mut extra: Vec<NamedAttribute> = Vec::new();
        if self.at(Kind::BareId) && matches!(self.text(self.tok), "private" | "public" | "nested") {
            extra.push((
                "sym_visibility".into(),
                Attribute::string(self.text(self.tok)),
            ));
            self.bump()?;
        }
        let name = self.parse_symbol_name()?;
        extra.push(("sym_name".into(), Attribute::string(&name)));
        self.expect(Kind::LParen, "expected '(' in function signature")?;
        let mut entry: Vec<EntryArg<'a>> = Vec::new();
        let mut inputs = Vec::new();
        let mut arg_attrs = Vec::new();
        let mut named: Option<bool> = None;
        if !self.at(Kind::RParen) {
            loop {
                let at = self.tok;
                let is_named = at.kind == Kind::PercentId;
                if *named.get_or_insert(is_named) != is_named {
                    return Err(self.err_here(if is_named {
                        "expected type instead of SSA identifier"
                    } else {
                        "expected SSA identifier"
                    }));
                }
                let u = if is_named {
                    let u = self.parse_use()?;
                    if u.end != at.end {
                        return Err(self.err(at, "invalid argument name"));
                    }
                    self.expect(Kind::Colon, "expected ':'")?;
                    Some(u)
                } else {
                    None
                };
                let ty = self.parse_type()?;
                let attrs = if self.at(Kind::LBrace) {
                    self.parse_attr_dict()?
                } else {
                    Vec::new()
                };
                if let Some(u) = u {
                    let loc = if self.at_keyword("loc") {
                        self.parse_trailing_loc()?
                    } else {
                        self.loc_at(at)
                    };
                    entry.push(EntryArg {
                        name: u.name,
                        idx: 0,
                        tok: at,
                        ty: ty.clone(),
                        loc,
                    });
                }
                inputs.push(ty);
                arg_attrs.push(attrs);
                if !self.eat(Kind::Comma)? {
                    break;
                }
            }
        }
        self.expect(Kind::RParen, "expected ')' in function signature")?;
        let mut results = Vec::new();
        let mut res_attrs = Vec::new();
        if self.eat(Kind::Arrow)? {
            if self.eat(Kind::LParen)? {
                if !self.at(Kind::RParen) {
                    loop {
                        results.push(self.parse_type()?);
                        res_attrs.push(if self.at(Kind::LBrace) {
                            self.parse_attr_dict()?
                        } else {
                            Vec::new()
                        });
                        if !self.eat(Kind::Comma)? {
                            break;
                        }
                    }
                }
                self.expect(Kind::RParen, "expected ')' in function result list")?;
            } else {
                let at = self.tok;
                let ty = self.parse_type()?;
                if matches!(ty, Type::Function { .. }) {
                    return Err(self.err(at, "expected non-function type"));
                }
                results.push(ty);
                res_attrs.push(Vec::new());
            }
        }
        let dict_list = |dicts: Vec<Vec<NamedAttribute>>| {
            dicts
                .iter()
                .any(|d| !d.is_empty())
                .then(|| Attribute::Array(dicts.into_iter().map(Attribute::Dictionary).collect()))
        };
        if let Some(a) = dict_list(arg_attrs) {
            extra.push(("arg_attrs".into(), a));
        }
        if let Some(a) = dict_list(res_attrs) {
            extra.push(("res_attrs".into(), a));
        }
        extra.push((
            "function_type".into(),
            Attribute::Type(Type::Function { inputs, results }),
        ));
        op.attributes = extra;
        self.opt_attributes_keyword(op)?;
        let region = if self.at(Kind::LBrace) {
            if named == Some(false) {
                return Err(self.err_here("expected named arguments for a function with a body"));
            }
            self.parse_region(true, Some(entry))?
        } else {
            Region::default()
        };
        op.regions.push(region);
        Ok(())
    }
}

impl Printer<'_> {
    pub(super) fn print_func(&mut self, op: &Op) -> bool {
        if !(Self::plain(op)
            && op.operands.is_empty()
            && op.results.is_empty()
            && op.regions.len() == 1)
        {
            return false;
        }
        let name = match find_attribute(&op.attributes, "sym_name") {
            Some(Attribute::String { value, ty: None }) => match std::str::from_utf8(value) {
                Ok(n) => n,
                Err(_) => return false,
            },
            _ => return false,
        };
        let Some(Attribute::Type(Type::Function { inputs, results })) =
            find_attribute(&op.attributes, "function_type")
        else {
            return false;
        };
        let mut skip = vec!["sym_name", "function_type"];
        let visibility = match find_attribute(&op.attributes, "sym_visibility") {
            Some(Attribute::String { value, ty: None })
                if matches!(value.as_slice(), b"private" | b"public" | b"nested") =>
            {
                skip.push("sym_visibility");
                std::str::from_utf8(value).ok()
            }
            _ => None,
        };
        let dicts = |key: &str, n: usize| match find_attribute(&op.attributes, key) {
            Some(Attribute::Array(items))
                if items.len() == n
                    && items.iter().all(|i| matches!(i, Attribute::Dictionary(_)))
                    && items
                        .iter()
                        .any(|i| matches!(i, Attribute::Dictionary(d) if !d.is_empty())) =>
            {
                Some(items.as_slice())
            }
            _ => None,
        };
        let arg_attrs = dicts("arg_attrs", inputs.len());
        let res_attrs = dicts("res_attrs", results.len());
        if arg_attrs.is_some() {
            skip.push("arg_attrs");
        }
        if res_attrs.is_some() {
            skip.push("res_attrs");
        }
        let region = &op.regions[0];
        let entry = region.blocks.first();
        if let Some(entry) = entry
            && !self.types_are(&entry.arguments, inputs)
        {
            return false;
        }
        self.out.push(' ');
        if let Some(v) = visibility {
            self.out.push_str(v);
            self.out.push(' ');
        }
        self.symbol(name);
        self.out.push('(');
        for (i, ty) in inputs.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            if let Some(entry) = entry {
                let arg = entry.arguments[i];
                self.value(arg);
                self.out.push_str(": ");
                let _ = write!(self.out, "{ty}");
                if let Some(Attribute::Dictionary(d)) = arg_attrs.map(|a| &a[i])
                    && !d.is_empty()
                {
                    self.out.push(' ');
                    self.attr(&arg_attrs.expect("some")[i]);
                }
                if self.opts.debug_info
                    && let Some(loc) = &self.m.values[arg.index()].location
                {
                    self.out.push(' ');
                    self.out
                        .push_str(&crate::text::printer::location_string(loc));
                }
            } else {
                let _ = write!(self.out, "{ty}");
                if let Some(Attribute::Dictionary(d)) = arg_attrs.map(|a| &a[i])
                    && !d.is_empty()
                {
                    self.out.push(' ');
                    self.attr(&arg_attrs.expect("some")[i]);
                }
            }
        }
        self.out.push(')');
        let single = results.len() == 1
            && !matches!(results[0], Type::Function { .. })
            && res_attrs.is_none();
        if single {
            let _ = write!(self.out, " -> {}", results[0]);
        } else if !results.is_empty() {
            self.out.push_str(" -> (");
            for (i, ty) in results.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                let _ = write!(self.out, "{ty}");
                if let Some(Attribute::Dictionary(d)) = res_attrs.map(|a| &a[i])
                    && !d.is_empty()
                {
                    self.out.push(' ');
                    self.attr(&res_attrs.expect("some")[i]);
                }
            }
            self.out.push(')');
        }
        self.attributes_keyword(&op.attributes, &skip);
        if entry.is_some() {
            self.out.push(' ');
            self.region(region, EntryMode::Implicit);
        }
        true
    }
}
