//! Types: builtin, dialect and aliased.

use super::*;

impl<'a> Parser<'a> {
    /// Types recurse through small frames only: `type_head` reads
    /// everything up to a nested type.
    pub fn parse_type(&mut self) -> R<Type> {
        self.enter()?;
        let r = self.parse_type_inner();
        self.leave();
        r
    }

    pub(super) fn parse_type_inner(&mut self) -> R<Type> {
        Ok(match self.type_head()? {
            Head::Done(ty) => ty,
            Head::Function => {
                let inputs = self.parse_type_list_until(Kind::RParen)?;
                self.expect(Kind::RParen, "expected ')'")?;
                self.expect(Kind::Arrow, "expected '->' in function type")?;
                let results = self.parse_function_results()?;
                Type::Function { inputs, results }
            }
            Head::Complex => {
                let e = self.parse_type()?;
                self.expect(Kind::Greater, "expected '>' in complex type")?;
                Type::Complex(Box::new(e))
            }
            Head::Tuple => {
                let es = self.parse_type_list_until(Kind::Greater)?;
                self.expect(Kind::Greater, "expected '>' in tuple type")?;
                Type::Tuple(es)
            }
            Head::Tensor(shape) => {
                let element = Box::new(self.parse_type()?);
                self.expect(Kind::Greater, "expected '>' in tensor type")?;
                Type::Tensor {
                    shape,
                    element,
                    encoding: None,
                }
            }
            Head::MemRef(shape) => {
                let element = Box::new(self.parse_type()?);
                let (layout, memory_space) = self.memref_layout_and_space()?;
                self.expect(Kind::Greater, "expected '>' in memref type")?;
                Type::MemRef {
                    shape,
                    element,
                    layout,
                    memory_space,
                }
            }
            Head::Vector(shape) => {
                let element = Box::new(self.parse_type()?);
                self.expect(Kind::Greater, "expected '>' in vector type")?;
                Type::Vector {
                    shape,
                    element,
                    scalable: Vec::new(),
                }
            }
        })
    }

    /// After a memref's element type: `, layout`, `, memory space` or
    /// both. As in MLIR, a lone attribute that is neither an affine map
    /// nor a strided layout is the memory space.
    #[allow(clippy::type_complexity)]
    pub(super) fn memref_layout_and_space(
        &mut self,
    ) -> R<(Option<Box<Attribute>>, Option<Box<Attribute>>)> {
        let (mut layout, mut space) = (None, None);
        while self.at(Kind::Comma) {
            let comma = self.tok;
            self.bump()?;
            let attr = self.parse_attribute()?;
            let is_layout = matches!(
                attr,
                Attribute::AffineMap(_) | Attribute::StridedLayout { .. }
            );
            if is_layout && layout.is_none() && space.is_none() {
                layout = Some(Box::new(attr));
            } else if space.is_none() && !is_layout {
                space = Some(Box::new(attr));
            } else {
                return Err(self.err(comma, "expected '>' in memref type"));
            }
        }
        Ok((layout, space))
    }

    #[inline(never)]
    pub(super) fn type_head(&mut self) -> R<Head> {
        let t = self.tok;
        match t.kind {
            Kind::BareId => self.keyword_type_head(),
            Kind::LParen => {
                self.bump()?;
                Ok(Head::Function)
            }
            Kind::BangId => {
                self.bump()?;
                Ok(Head::Done(self.dialect_type(t)?))
            }
            _ => Err(self.err_here("expected type")),
        }
    }

    /// `(t, ...)` or a single non-function type after `->`.
    pub fn parse_function_results(&mut self) -> R<Vec<Type>> {
        if self.eat(Kind::LParen)? {
            let results = self.parse_type_list_until(Kind::RParen)?;
            self.expect(Kind::RParen, "expected ')'")?;
            Ok(results)
        } else {
            let t = self.tok;
            let ty = self.parse_type()?;
            if matches!(ty, Type::Function { .. }) {
                return Err(self.err(t, "expected non-function type"));
            }
            Ok(vec![ty])
        }
    }

    /// Comma-separated types, empty when the next token is `end`.
    pub fn parse_type_list_until(&mut self, end: Kind) -> R<Vec<Type>> {
        let mut types = Vec::new();
        if self.at(end) {
            return Ok(types);
        }
        loop {
            types.push(self.parse_type()?);
            if !self.eat(Kind::Comma)? {
                return Ok(types);
            }
        }
    }

    /// Comma-separated types, at least one.
    pub fn parse_type_list(&mut self) -> R<Vec<Type>> {
        let mut types = Vec::new();
        loop {
            types.push(self.parse_type()?);
            if !self.eat(Kind::Comma)? {
                return Ok(types);
            }
        }
    }

    pub(super) fn dialect_type(&mut self, t: Token) -> R<Type> {
        let body = self.after_sigil(t);
        let lt = body.find('<');
        let dot = body.find('.');
        match (dot, lt) {
            (Some(d), l) if l.is_none_or(|l| d < l) => {
                let (dialect, rest) = (&body[..d], &body[d + 1..]);
                if dialect.is_empty() || rest.is_empty() {
                    return Err(self.err(t, "invalid dialect type"));
                }
                // The tensor dialect's type has two spellings; `!t.tensor`
                // is the one printed.
                if (dialect, rest) == ("tfrt_tensor", "tensor") {
                    return Ok(Type::dialect("t", "tensor"));
                }
                Ok(Type::dialect(dialect, rest))
            }
            (_, Some(l)) => {
                if l == 0 {
                    return Err(self.err(t, "invalid dialect type"));
                }
                Ok(Type::dialect(&body[..l], &body[l..]))
            }
            _ => match self.type_aliases.get(body) {
                Some((ty, m)) => {
                    let (ty, m) = (ty.clone(), *m);
                    self.copy_alias(t, m, self.attr_depth, self.loc_depth)?;
                    Ok(ty)
                }
                None => Err(self.err(t, format!("undefined symbol alias id '{body}'"))),
            },
        }
    }

    pub(super) fn keyword_type_head(&mut self) -> R<Head> {
        let t = self.tok;
        let word = self.text(t);
        // Integer types first, the most common: no other type keyword is
        // `i`, `si` or `ui` followed by digits only.
        let int = |prefix: &str, s: Signedness| {
            word.strip_prefix(prefix)
                .filter(|d| !d.is_empty() && d.bytes().all(|c| c.is_ascii_digit()))
                .map(|d| (d, s))
        };
        if let Some((digits, signedness)) = int("i", Signedness::Signless)
            .or_else(|| int("si", Signedness::Signed))
            .or_else(|| int("ui", Signedness::Unsigned))
        {
            let width = digits
                .parse::<u32>()
                .ok()
                .filter(|&w| w <= 16_777_215)
                .ok_or_else(|| self.err(t, "invalid integer width"))?;
            self.bump()?;
            return Ok(Head::Done(Type::Integer { width, signedness }));
        }
        let simple = match word {
            "index" => Some(Type::Index),
            "none" => Some(Type::None),
            _ => FloatKind::from_name(word).map(Type::Float),
        };
        if let Some(ty) = simple {
            self.bump()?;
            return Ok(Head::Done(ty));
        }
        match word {
            "complex" | "tuple" => {
                self.bump()?;
                self.expect(Kind::Less, &format!("expected '<' in {word} type"))?;
                Ok(if word == "complex" {
                    Head::Complex
                } else {
                    Head::Tuple
                })
            }
            "tensor" | "vector" | "memref" => {
                let vector = word == "vector";
                self.bump()?;
                if !self.at(Kind::Less) {
                    return Err(self.err_here(format!("expected '<' in {word} type")));
                }
                let shape = self.scan_dims(!vector)?;
                Ok(match word {
                    "tensor" => Head::Tensor(shape),
                    "memref" => Head::MemRef(shape),
                    _ => Head::Vector(shape.unwrap_or_default()),
                })
            }
            _ => Err(self.err(t, "expected non-function type")),
        }
    }

    /// With the current token `<`: scans `2x?x` (or `*x`) by hand, since
    /// the lexer would glue `x3xf32` into an identifier, and leaves the
    /// current token at the element type. `None` is unranked.
    pub(super) fn scan_dims(&mut self, allow_unranked: bool) -> R<Option<Vec<i64>>> {
        let bytes = self.src.as_bytes();
        let mut i = self.tok.end as usize;
        let skip = |mut i: usize| {
            while i < bytes.len() && matches!(bytes[i], b' ' | b'\t' | b'\r' | b'\n') {
                i += 1;
            }
            i
        };
        let mut dims = Vec::new();
        let mut unranked = false;
        loop {
            i = skip(i);
            let at = i;
            match bytes.get(i) {
                Some(b'*') if allow_unranked && dims.is_empty() && !unranked => {
                    unranked = true;
                    i += 1;
                }
                Some(b'?') if !unranked => {
                    dims.push(DYNAMIC);
                    i += 1;
                }
                Some(c) if c.is_ascii_digit() && !unranked => {
                    while i < bytes.len() && bytes[i].is_ascii_digit() {
                        i += 1;
                    }
                    let d = self.src[at..i]
                        .parse::<i64>()
                        .map_err(|_| self.err_at_byte(at, "invalid dimension"))?;
                    dims.push(d);
                }
                _ => break,
            }
            i = skip(i);
            if bytes.get(i) != Some(&b'x') {
                return Err(self.err_at_byte(i, "expected 'x' in dimension list"));
            }
            i += 1;
            if unranked {
                break;
            }
        }
        self.lex.reset_to(i);
        self.bump()?;
        Ok(if unranked { None } else { Some(dims) })
    }

    pub(super) fn err_at_byte(&self, pos: usize, message: &str) -> Error {
        let (line, col) = self.lex.line_col_at(pos);
        Box::new(Diagnostic::new(
            Location::file_line_col(self.file, line, col),
            message,
        ))
    }
}
