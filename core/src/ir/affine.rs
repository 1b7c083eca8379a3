//! Affine maps and integer sets (`affine_map<...>`, `affine_set<...>`), as
//! MLIR's builtin dialect stores them: expression trees over dimensions,
//! symbols and constants. Printing follows MLIR's `AffineExpr` printer.

use std::fmt;

/// The binary operators of affine expressions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AffineBinary {
    /// `a + b`.
    Add,
    /// `a * b` (one side must be constant for the expression to be affine).
    Mul,
    /// `a mod b`: the non-negative remainder.
    Mod,
    /// `a floordiv b`: division rounding toward negative infinity.
    FloorDiv,
    /// `a ceildiv b`: division rounding toward positive infinity.
    CeilDiv,
}

/// An affine expression over dimensions `d<i>`, symbols `s<i>` and constants.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum AffineExpr {
    /// Dimension `d<i>`.
    Dim(u32),
    /// Symbol `s<i>`.
    Symbol(u32),
    /// An integer constant.
    Constant(i64),
    /// `lhs <kind> rhs`.
    Binary {
        /// The operator.
        kind: AffineBinary,
        /// Left operand.
        lhs: Box<AffineExpr>,
        /// Right operand.
        rhs: Box<AffineExpr>,
    },
}

/// `(d0, d1)[s0] -> (d0 + s0, d1)`
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AffineMap {
    /// Number of dimensions (`d0` ... `d<n-1>`).
    pub num_dims: u32,
    /// Number of symbols (`s0` ... `s<n-1>`).
    pub num_symbols: u32,
    /// The result expressions, in order.
    pub results: Vec<AffineExpr>,
}

/// `(d0)[s0] : (d0 - s0 >= 0, d0 == 0)`; `is_equality[i]` says whether
/// constraint `i` is `== 0` (else `>= 0`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct IntegerSet {
    /// Number of dimensions (`d0` ... `d<n-1>`).
    pub num_dims: u32,
    /// Number of symbols (`s0` ... `s<n-1>`).
    pub num_symbols: u32,
    /// The constraint expressions, each compared with 0.
    pub constraints: Vec<AffineExpr>,
    /// Per constraint, whether it is `== 0` rather than `>= 0`.
    pub is_equality: Vec<bool>,
}

impl AffineMap {
    /// `(d0, ..., dn-1) -> (d0, ..., dn-1)`
    pub fn identity(num_dims: u32) -> AffineMap {
        AffineMap {
            num_dims,
            num_symbols: 0,
            results: (0..num_dims).map(AffineExpr::Dim).collect(),
        }
    }

    /// Whether this is `(d0, ..., dn-1) -> (d0, ..., dn-1)` with no symbols.
    pub fn is_identity(&self) -> bool {
        self.num_symbols == 0
            && self.results.len() == self.num_dims as usize
            && self
                .results
                .iter()
                .enumerate()
                .all(|(i, e)| *e == AffineExpr::Dim(i as u32))
    }

    /// Distinct dimensions only, no symbols (a permutation when every
    /// dimension appears).
    pub fn is_projected_permutation(&self) -> bool {
        if self.num_symbols != 0 || self.results.len() > self.num_dims as usize {
            return false;
        }
        let mut seen = vec![false; self.num_dims as usize];
        self.results.iter().all(|e| match e {
            AffineExpr::Dim(d) if (*d as usize) < seen.len() && !seen[*d as usize] => {
                seen[*d as usize] = true;
                true
            }
            _ => false,
        })
    }

    /// Whether the results are every dimension, each once, in any order.
    pub fn is_permutation(&self) -> bool {
        self.results.len() == self.num_dims as usize && self.is_projected_permutation()
    }
}

fn write_dims_and_symbols(f: &mut fmt::Formatter<'_>, dims: u32, symbols: u32) -> fmt::Result {
    f.write_str("(")?;
    for d in 0..dims {
        if d > 0 {
            f.write_str(", ")?;
        }
        write!(f, "d{d}")?;
    }
    f.write_str(")")?;
    if symbols > 0 {
        f.write_str("[")?;
        for s in 0..symbols {
            if s > 0 {
                f.write_str(", ")?;
            }
            write!(f, "s{s}")?;
        }
        f.write_str("]")?;
    }
    Ok(())
}

impl fmt::Display for AffineMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_dims_and_symbols(f, self.num_dims, self.num_symbols)?;
        f.write_str(" -> (")?;
        for (i, e) in self.results.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{e}")?;
        }
        f.write_str(")")
    }
}

impl fmt::Display for IntegerSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_dims_and_symbols(f, self.num_dims, self.num_symbols)?;
        f.write_str(" : (")?;
        for (i, e) in self.constraints.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            let eq = self.is_equality.get(i).copied().unwrap_or(false);
            write!(f, "{e} {} 0", if eq { "==" } else { ">=" })?;
        }
        f.write_str(")")
    }
}

impl fmt::Display for AffineExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_expr(f, self, false)
    }
}

/// MLIR's printer: `a + b * -1` prints as `a - b`, `a + -c` as `a - c`;
/// nested binary operands are parenthesized.
fn write_expr(f: &mut fmt::Formatter<'_>, e: &AffineExpr, parens: bool) -> fmt::Result {
    let (kind, lhs, rhs) = match e {
        AffineExpr::Dim(d) => return write!(f, "d{d}"),
        AffineExpr::Symbol(s) => return write!(f, "s{s}"),
        AffineExpr::Constant(c) => return write!(f, "{c}"),
        AffineExpr::Binary { kind, lhs, rhs } => (*kind, &**lhs, &**rhs),
    };
    if parens {
        f.write_str("(")?;
    }
    match kind {
        AffineBinary::Add => {
            write_expr(f, lhs, true)?;
            match rhs {
                AffineExpr::Binary {
                    kind: AffineBinary::Mul,
                    lhs: inner,
                    rhs: factor,
                } if **factor == AffineExpr::Constant(-1) => {
                    f.write_str(" - ")?;
                    write_expr(f, inner, true)?;
                }
                AffineExpr::Constant(c) if *c < 0 && *c != i64::MIN => {
                    write!(f, " - {}", -c)?;
                }
                _ => {
                    f.write_str(" + ")?;
                    write_expr(f, rhs, true)?;
                }
            }
        }
        _ => {
            let op = match kind {
                AffineBinary::Mul => " * ",
                AffineBinary::Mod => " mod ",
                AffineBinary::FloorDiv => " floordiv ",
                AffineBinary::CeilDiv => " ceildiv ",
                AffineBinary::Add => unreachable!("handled above"),
            };
            write_expr(f, lhs, true)?;
            f.write_str(op)?;
            write_expr(f, rhs, true)?;
        }
    }
    if parens {
        f.write_str(")")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bin(kind: AffineBinary, lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr {
        AffineExpr::Binary {
            kind,
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
        }
    }

    #[test]
    fn prints_like_mlir() {
        let map = AffineMap {
            num_dims: 2,
            num_symbols: 1,
            results: vec![
                bin(AffineBinary::Add, AffineExpr::Dim(0), AffineExpr::Symbol(0)),
                bin(
                    AffineBinary::Mul,
                    AffineExpr::Dim(1),
                    AffineExpr::Constant(2),
                ),
            ],
        };
        assert_eq!(map.to_string(), "(d0, d1)[s0] -> (d0 + s0, d1 * 2)");
        let set = IntegerSet {
            num_dims: 2,
            num_symbols: 1,
            constraints: vec![
                bin(
                    AffineBinary::Add,
                    AffineExpr::Dim(0),
                    bin(
                        AffineBinary::Mul,
                        AffineExpr::Symbol(0),
                        AffineExpr::Constant(-1),
                    ),
                ),
                bin(
                    AffineBinary::Add,
                    AffineExpr::Dim(1),
                    AffineExpr::Constant(-1),
                ),
            ],
            is_equality: vec![false, true],
        };
        assert_eq!(
            set.to_string(),
            "(d0, d1)[s0] : (d0 - s0 >= 0, d1 - 1 == 0)"
        );
        assert!(AffineMap::identity(3).is_identity());
        assert!(!map.is_projected_permutation());
    }
}
