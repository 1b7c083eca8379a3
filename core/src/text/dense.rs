//! `dense<...> : tensor<...>` and `array<T: ...>` attributes: parsing into
//! the little-endian storage of `ir::DenseElements`, and printing back.
//!
//! Like MLIR, a literal whose elements are all equal (including a single
//! element) is stored as a splat; splats are never expanded.

use super::lexer::{Kind, Token};
use super::num::{self, format_float};
use super::parser::{Parser, R};
use crate::ir::{Attribute, DenseElements, Signedness, Type};

enum Lit {
    Int { negative: bool, tok: Token },
    Float { negative: bool, tok: Token },
    Bool(bool, Token),
    Complex(Box<Lit>, Box<Lit>, Token),
    List(Vec<Lit>, Token),
}

impl Lit {
    fn tok(&self) -> Token {
        match self {
            Lit::Int { tok, .. } | Lit::Float { tok, .. } => *tok,
            Lit::Bool(_, t) | Lit::Complex(_, _, t) | Lit::List(_, t) => *t,
        }
    }
}

/// Bytes per element of a dense element type (`i1` takes a byte).
pub(crate) fn element_size(ty: &Type) -> Option<usize> {
    match ty {
        Type::Integer { width, .. } if (1..=128).contains(width) => {
            Some(width.div_ceil(8) as usize)
        }
        Type::Index => Some(8),
        Type::Float(k) => Some(k.bit_width().div_ceil(8) as usize),
        Type::Complex(e) if !matches!(**e, Type::Complex(_)) => element_size(e).map(|s| 2 * s),
        _ => None,
    }
}

/// Dimensions and element type of a shaped type; `None` dims is unranked.
pub(crate) fn shaped(ty: &Type) -> Option<(Option<&[i64]>, &Type)> {
    match ty {
        Type::Tensor { shape, element, .. } => Some((shape.as_deref(), element)),
        Type::Vector { shape, element, .. } => Some((Some(shape), element)),
        _ => None,
    }
}

/// Element count of a static shape, `None` when dynamic or overflowing.
pub(crate) fn num_elements(dims: &[i64]) -> Option<u64> {
    dims.iter().try_fold(
        1u64,
        |n, &d| {
            if d < 0 { None } else { n.checked_mul(d as u64) }
        },
    )
}

impl<'a> Parser<'a> {
    fn parse_dense_lit(&mut self) -> R<Lit> {
        self.enter()?;
        let t = self.tok;
        let lit = match t.kind {
            Kind::LSquare => {
                self.bump()?;
                let mut items = Vec::new();
                if !self.at(Kind::RSquare) {
                    loop {
                        items.push(self.parse_dense_lit()?);
                        if !self.eat(Kind::Comma)? {
                            break;
                        }
                    }
                }
                self.expect(Kind::RSquare, "expected ']' in dense literal")?;
                Lit::List(items, t)
            }
            Kind::LParen => {
                self.bump()?;
                let re = self.parse_scalar_lit()?;
                self.expect(Kind::Comma, "expected ',' in complex literal")?;
                let im = self.parse_scalar_lit()?;
                self.expect(Kind::RParen, "expected ')' in complex literal")?;
                Lit::Complex(Box::new(re), Box::new(im), t)
            }
            _ => self.parse_scalar_lit()?,
        };
        self.leave();
        Ok(lit)
    }

    fn parse_scalar_lit(&mut self) -> R<Lit> {
        let t = self.tok;
        if self.at_keyword("true") || self.at_keyword("false") {
            self.bump()?;
            return Ok(Lit::Bool(self.text(t) == "true", t));
        }
        let negative = self.eat(Kind::Minus)?;
        let tok = self.tok;
        let lit = match tok.kind {
            Kind::Integer => Lit::Int { negative, tok },
            Kind::Float => Lit::Float { negative, tok },
            _ => return Err(self.err_here("expected element literal of primitive type")),
        };
        self.bump()?;
        Ok(lit)
    }

    fn encode_element(&self, lit: &Lit, ty: &Type, out: &mut Vec<u8>) -> R<()> {
        let size = element_size(ty).ok_or_else(|| {
            self.err(
                lit.tok(),
                format!("unsupported element type '{ty}' in dense attribute"),
            )
        })?;
        match (ty, lit) {
            (Type::Complex(e), Lit::Complex(re, im, _)) => {
                self.encode_element(re, e, out)?;
                self.encode_element(im, e, out)
            }
            (Type::Complex(_), _) => Err(self.err(lit.tok(), "expected complex literal")),
            (Type::Float(kind), Lit::Int { negative, tok } | Lit::Float { negative, tok }) => {
                let bits = self.float_bits(*negative, *tok, *kind, true)?;
                out.extend_from_slice(&bits.to_le_bytes()[..size]);
                Ok(())
            }
            (Type::Integer { width: 1, .. }, Lit::Bool(b, _)) => {
                out.push(u8::from(*b));
                Ok(())
            }
            (Type::Integer { .. } | Type::Index, Lit::Int { negative, tok }) => {
                let lit = self.int_literal(*negative, *tok)?;
                let v = num::integer_value(lit, ty).map_err(|m| self.err(*tok, m))?;
                if size == 1 && matches!(ty, Type::Integer { width: 1, .. }) {
                    out.push((v & 1) as u8);
                } else {
                    out.extend_from_slice(&(v as u128).to_le_bytes()[..size]);
                }
                Ok(())
            }
            (Type::Integer { .. } | Type::Index, Lit::Float { tok, .. }) => {
                Err(self.err(*tok, "floating point value not valid for specified type"))
            }
            (_, Lit::List(_, t)) => Err(self.err(*t, "unexpected nested list in dense literal")),
            _ => Err(self.err(
                lit.tok(),
                format!("invalid element literal for type '{ty}'"),
            )),
        }
    }

    /// `dense<...> : type` with the current token at `dense`.
    pub(crate) fn parse_dense(&mut self) -> R<Attribute> {
        self.bump()?;
        self.expect(Kind::Less, "expected '<' after 'dense'")?;
        let hex = if self.at(Kind::String) {
            let t = self.tok;
            self.bump()?;
            Some(t)
        } else {
            None
        };
        let lit = if hex.is_none() {
            Some(self.parse_dense_lit()?)
        } else {
            None
        };
        self.expect(Kind::Greater, "expected '>' to close dense literal")?;
        self.expect(Kind::Colon, "expected ':' and type after dense literal")?;
        let ty_tok = self.tok;
        let ty = self.parse_type()?;
        let (dims, element) = shaped(&ty)
            .ok_or_else(|| self.err(ty_tok, "elements literal must be a shaped type"))?;
        let size = element_size(element).ok_or_else(|| {
            self.err(
                ty_tok,
                format!("unsupported element type '{element}' in dense attribute"),
            )
        })?;
        let numel = dims.and_then(num_elements);
        if let Some(t) = hex {
            let s = self.decode_string(t)?;
            let data = std::str::from_utf8(&s)
                .ok()
                .and_then(|s| s.strip_prefix("0x"))
                .and_then(decode_hex)
                .ok_or_else(|| self.err(t, "expected hex string of the form '0x...'"))?;
            let splat = data.len() == size;
            if !splat && numel.and_then(|n| n.checked_mul(size as u64)) != Some(data.len() as u64) {
                return Err(self.err(t, "elements hex data size is invalid for provided type"));
            }
            return Ok(Attribute::DenseElements(canonical(ty, size, data, splat)));
        }
        let lit = lit.expect("literal");
        if !matches!(lit, Lit::List(..)) {
            let mut data = Vec::with_capacity(size);
            self.encode_element(&lit, element, &mut data)?;
            return Ok(Attribute::DenseElements(DenseElements {
                ty,
                splat: true,
                data,
            }));
        }
        let Some(dims) = dims.filter(|d| num_elements(d).is_some()) else {
            return Err(self.err(ty_tok, "elements literal type must have static shape"));
        };
        if !shape_matches(&lit, dims) {
            return Err(self.err(
                lit.tok(),
                format!("elements literal shape does not match type '{ty}'"),
            ));
        }
        let mut data = Vec::new();
        let mut stack = vec![&lit];
        // Leaves in row-major order: push children reversed.
        while let Some(l) = stack.pop() {
            match l {
                Lit::List(items, _) => stack.extend(items.iter().rev()),
                leaf => self.encode_element(leaf, element, &mut data)?,
            }
        }
        Ok(Attribute::DenseElements(canonical(ty, size, data, false)))
    }

    /// `array<i32: 1, 2>` with the current token at `array`.
    pub(crate) fn parse_dense_array(&mut self) -> R<Attribute> {
        self.bump()?;
        self.expect(Kind::Less, "expected '<' after 'array'")?;
        let ty_tok = self.tok;
        let element = self.parse_type()?;
        if !matches!(element, Type::Integer { .. } | Type::Float(_))
            || element_size(&element).is_none()
        {
            return Err(self.err(ty_tok, "expected integer or float type in array attribute"));
        }
        let mut data = Vec::new();
        if self.eat(Kind::Colon)? {
            loop {
                let lit = self.parse_scalar_lit()?;
                self.encode_element(&lit, &element, &mut data)?;
                if !self.eat(Kind::Comma)? {
                    break;
                }
            }
        }
        self.expect(Kind::Greater, "expected '>' to close array attribute")?;
        Ok(Attribute::DenseArray { element, data })
    }
}

fn shape_matches(lit: &Lit, dims: &[i64]) -> bool {
    match (lit, dims.split_first()) {
        (Lit::List(items, _), Some((&d, rest))) => {
            items.len() as i64 == d && items.iter().all(|i| shape_matches(i, rest))
        }
        (Lit::List(..), None) => false,
        (_, Some(_)) => false,
        (_, None) => true,
    }
}

/// All elements equal (or exactly one) → a single-element splat.
fn canonical(ty: Type, size: usize, data: Vec<u8>, splat: bool) -> DenseElements {
    if !splat && size > 0 && !data.is_empty() {
        let first = &data[..size];
        if data.chunks_exact(size).all(|c| c == first) {
            return DenseElements {
                ty,
                splat: true,
                data: first.to_vec(),
            };
        }
    }
    DenseElements { ty, splat, data }
}

fn decode_hex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    let b = s.as_bytes();
    (0..b.len())
        .step_by(2)
        .map(|i| {
            let h = (b[i] as char).to_digit(16)?;
            let l = (b[i + 1] as char).to_digit(16)?;
            Some((h * 16 + l) as u8)
        })
        .collect()
}

/// One element of `data` (exactly `element_size(ty)` bytes) as MLIR text.
pub(crate) fn write_element(out: &mut String, bytes: &[u8], ty: &Type) {
    use std::fmt::Write;
    match ty {
        Type::Complex(e) => {
            let half = bytes.len() / 2;
            out.push('(');
            write_element(out, &bytes[..half], e);
            // Upstream writes no space between the parts.
            out.push(',');
            write_element(out, &bytes[half..], e);
            out.push(')');
        }
        Type::Float(kind) => {
            let mut buf = [0u8; 16];
            buf[..bytes.len()].copy_from_slice(bytes);
            out.push_str(&format_float(u128::from_le_bytes(buf), *kind));
        }
        Type::Integer { width: 1, .. } => {
            out.push_str(if bytes[0] & 1 == 1 { "true" } else { "false" })
        }
        _ => {
            let (width, signedness) = num::int_type_info(ty).unwrap_or((64, Signedness::Signless));
            let mut buf = [0u8; 16];
            buf[..bytes.len()].copy_from_slice(bytes);
            let raw = u128::from_le_bytes(buf);
            let w = width.min(128);
            let masked = if w >= 128 {
                raw
            } else {
                raw & ((1u128 << w) - 1)
            };
            if signedness == Signedness::Unsigned {
                let _ = write!(out, "{masked}");
            } else {
                let shift = 128 - w;
                let v = ((masked << shift) as i128) >> shift;
                let _ = write!(out, "{v}");
            }
        }
    }
}

/// `dense<...>` body (without the `: type`).
pub(crate) fn write_dense(out: &mut String, d: &DenseElements) {
    let hex = |out: &mut String| {
        out.push_str("\"0x");
        for b in &d.data {
            out.push_str(&format!("{b:02X}"));
        }
        out.push('"');
    };
    out.push_str("dense<");
    let Some((dims, element)) = shaped(&d.ty) else {
        hex(out);
        out.push('>');
        return;
    };
    let Some(size) = element_size(element).filter(|&s| s > 0) else {
        hex(out);
        out.push('>');
        return;
    };
    if d.splat && d.data.len() == size {
        write_element(out, &d.data, element);
    } else if let Some(dims) = dims.filter(|dims| {
        !d.splat
            && num_elements(dims).and_then(|n| n.checked_mul(size as u64))
                == Some(d.data.len() as u64)
            && list_cost(dims) <= 4 * (d.data.len() as u64 / size as u64) + 64
    }) {
        let mut chunks = d.data.chunks_exact(size);
        write_nested(out, dims, element, &mut chunks);
    } else {
        hex(out);
    }
    out.push('>');
}

/// How many brackets a nested list of `dims` prints (a zero dimension
/// after large ones would print many empty lists for no data).
fn list_cost(dims: &[i64]) -> u64 {
    let mut cost = 0u64;
    let mut prefix = 1u64;
    for &d in dims {
        prefix = prefix.saturating_mul(d.max(0) as u64);
        cost = cost.saturating_add(prefix);
    }
    cost
}

fn write_nested(
    out: &mut String,
    dims: &[i64],
    element: &Type,
    chunks: &mut std::slice::ChunksExact<'_, u8>,
) {
    match dims.split_first() {
        None => {
            if let Some(c) = chunks.next() {
                write_element(out, c, element);
            }
        }
        Some((&n, rest)) => {
            out.push('[');
            for i in 0..n {
                if i > 0 {
                    out.push_str(", ");
                }
                write_nested(out, rest, element, chunks);
            }
            out.push(']');
        }
    }
}

/// `array<T: a, b>`.
pub(crate) fn write_dense_array(out: &mut String, element: &Type, data: &[u8]) {
    use std::fmt::Write;
    let _ = write!(out, "array<{element}");
    if let Some(size) = element_size(element).filter(|&s| s > 0) {
        for (i, c) in data.chunks_exact(size).enumerate() {
            out.push_str(if i == 0 { ": " } else { ", " });
            write_element(out, c, element);
        }
    }
    out.push('>');
}
