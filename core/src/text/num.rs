//! Numbers: integer range checks against a type, float formats (f16, bf16,
//! tf32 from f64 with round-to-nearest-even, f80/f128 exactly from the
//! decimal text),
//! and MLIR-style float printing that always round-trips.

use crate::ir::{FloatKind, Signedness, Type};

/// Decimal digits to u128, `None` on overflow.
pub(crate) fn parse_dec(digits: &str) -> Option<u128> {
    let mut v: u128 = 0;
    for c in digits.bytes() {
        v = v
            .checked_mul(10)?
            .checked_add(u128::from(c.wrapping_sub(b'0')))?;
    }
    Some(v)
}

/// Hex digits (without `0x`) to u128, `None` on overflow.
pub(crate) fn parse_hex(digits: &str) -> Option<u128> {
    if digits.len() > 32 {
        let trimmed = digits.trim_start_matches('0');
        if trimmed.len() > 32 {
            return None;
        }
        return u128::from_str_radix(if trimmed.is_empty() { "0" } else { trimmed }, 16).ok();
    }
    u128::from_str_radix(digits, 16).ok()
}

/// An integer literal parsed from the source: sign, magnitude and whether it
/// was written in hex (then it is a bit pattern).
#[derive(Debug, Clone, Copy)]
pub(crate) struct IntLiteral {
    pub negative: bool,
    pub magnitude: u128,
    pub hex: bool,
}

/// (width, signedness) of an integer-like type; index is 64-bit signless.
pub(crate) fn int_type_info(ty: &Type) -> Option<(u32, Signedness)> {
    match ty {
        Type::Integer { width, signedness } => Some((*width, *signedness)),
        Type::Index => Some((64, Signedness::Signless)),
        _ => None,
    }
}

fn sign_extend(bits: u128, width: u32) -> i128 {
    if width == 0 {
        0
    } else if width >= 128 {
        bits as i128
    } else {
        let shift = 128 - width;
        ((bits << shift) as i128) >> shift
    }
}

/// The stored value of an integer attribute (see `ir::Attribute::Integer`):
/// sign-extended for signless and signed types, the plain value for
/// unsigned ones; signless `i1` stores 0 or 1.
pub(crate) fn integer_value(lit: IntLiteral, ty: &Type) -> Result<i128, String> {
    let (width, signedness) = int_type_info(ty).ok_or("expected integer type")?;
    if width > 128 {
        return Err(format!(
            "integer attributes wider than 128 bits are not supported ({ty})"
        ));
    }
    let out_of_range = || "integer constant out of range for attribute".to_string();
    let fits = |v: u128, bits: u32| bits >= 128 || v < (1u128 << bits);
    let m = lit.magnitude;
    if signedness == Signedness::Unsigned {
        if lit.negative && m != 0 {
            return Err("negative integer literal not valid for unsigned integer type".into());
        }
        if !fits(m, width) || m > i128::MAX as u128 {
            return Err(out_of_range());
        }
        return Ok(m as i128);
    }
    let value = if lit.hex && !lit.negative {
        if !fits(m, width) {
            return Err(out_of_range());
        }
        sign_extend(m, width)
    } else if lit.negative {
        // -2^(w-1) ..= 0
        if width == 0 {
            if m != 0 {
                return Err(out_of_range());
            }
            0
        } else {
            let limit = 1u128 << (width - 1).min(127);
            if m > limit {
                return Err(out_of_range());
            }
            (m as i128).wrapping_neg()
        }
    } else {
        let ok = if signedness == Signedness::Signed {
            width > 0 && fits(m, width - 1)
        } else {
            fits(m, width)
        };
        if !(ok || (m == 0 && width == 0)) {
            return Err(out_of_range());
        }
        sign_extend(m, width)
    };
    if width == 1 && signedness == Signedness::Signless {
        return Ok(value & 1);
    }
    Ok(value)
}

/// (exponent bits, mantissa bits) of the IEEE-like small formats.
fn small_format(kind: FloatKind) -> Option<(u32, u32)> {
    match kind {
        FloatKind::F16 => Some((5, 10)),
        FloatKind::BF16 => Some((8, 7)),
        FloatKind::TF32 => Some((8, 10)),
        _ => None,
    }
}

/// Rounds an f64 to a binary format with `exp_bits` exponent and
/// `man_bits` mantissa bits, round-to-nearest-even; returns the bits.
pub(crate) fn f64_to_small(x: f64, exp_bits: u32, man_bits: u32) -> u64 {
    let b = x.to_bits();
    let sign = (b >> 63) << (exp_bits + man_bits);
    let exp = ((b >> 52) & 0x7ff) as i32;
    let man = b & ((1u64 << 52) - 1);
    let max_exp = (1u64 << exp_bits) - 1;
    let bias = (1i32 << (exp_bits - 1)) - 1;
    if exp == 0x7ff {
        if man == 0 {
            return sign | (max_exp << man_bits);
        }
        // Quiet NaN, keeping the top payload bits.
        return sign | (max_exp << man_bits) | (1 << (man_bits - 1)) | (man >> (52 - man_bits));
    }
    if exp == 0 {
        // Zero or an f64 subnormal, far below the smallest small subnormal.
        return sign;
    }
    let full: u128 = u128::from((1u64 << 52) | man);
    let e_out = exp - 1023 + bias;
    if e_out >= max_exp as i32 {
        return sign | (max_exp << man_bits);
    }
    let shift: u32 = if e_out <= 0 {
        (52 - man_bits as i32 + 1 - e_out) as u32
    } else {
        52 - man_bits
    };
    let q = if shift >= 120 {
        0
    } else {
        let q = full >> shift;
        let rem = full & ((1u128 << shift) - 1);
        let half = 1u128 << (shift - 1);
        if rem > half || (rem == half && q & 1 == 1) {
            q + 1
        } else {
            q
        }
    } as u64;
    if e_out <= 0 {
        // Subnormal; a carry into bit `man_bits` is the smallest normal.
        sign | q
    } else {
        // q is in [2^m, 2^(m+1)]; a carry bumps the exponent (maybe to inf).
        sign | ((e_out as u64) << man_bits).wrapping_add(q - (1u64 << man_bits))
    }
}

/// The exact f64 value of a small-format bit pattern.
pub(crate) fn small_to_f64(bits: u64, exp_bits: u32, man_bits: u32) -> f64 {
    let sign = if (bits >> (exp_bits + man_bits)) & 1 == 1 {
        -1.0
    } else {
        1.0
    };
    let exp = ((bits >> man_bits) & ((1 << exp_bits) - 1)) as i32;
    let man = bits & ((1 << man_bits) - 1);
    let max_exp = (1i32 << exp_bits) - 1;
    let bias = (1i32 << (exp_bits - 1)) - 1;
    if exp == max_exp {
        return if man == 0 {
            sign * f64::INFINITY
        } else {
            f64::NAN
        };
    }
    let (m, e) = if exp == 0 {
        (man as f64, 1 - bias - man_bits as i32)
    } else {
        (
            ((1u64 << man_bits) | man) as f64,
            exp - bias - man_bits as i32,
        )
    };
    sign * m * 2f64.powi(e)
}

/// f64 widened exactly to x87 80-bit extended precision.
fn f64_to_f80(x: f64) -> u128 {
    let b = x.to_bits();
    let sign = u128::from(b >> 63) << 79;
    let exp = ((b >> 52) & 0x7ff) as i64;
    let man = b & ((1u64 << 52) - 1);
    if exp == 0x7ff {
        let m = if man == 0 {
            1u128 << 63
        } else {
            (3u128 << 62) | (u128::from(man) << 11)
        };
        return sign | (0x7fffu128 << 64) | m;
    }
    if exp == 0 {
        if man == 0 {
            return sign;
        }
        // Normalize the f64 subnormal.
        let lz = man.leading_zeros() as i64 - 11; // leading zeros within 53-bit field
        let e = 1 - 1023 - lz + 16383;
        let m = u128::from(man) << (11 + lz);
        return sign | ((e as u128) << 64) | m;
    }
    let e = exp - 1023 + 16383;
    sign | ((e as u128) << 64) | (1u128 << 63) | (u128::from(man) << 11)
}

/// f64 widened exactly to IEEE binary128.
fn f64_to_f128(x: f64) -> u128 {
    let b = x.to_bits();
    let sign = u128::from(b >> 63) << 127;
    let exp = ((b >> 52) & 0x7ff) as i64;
    let man = u128::from(b & ((1u64 << 52) - 1));
    if exp == 0x7ff {
        return sign | (0x7fffu128 << 112) | (man << 60);
    }
    if exp == 0 {
        if man == 0 {
            return sign;
        }
        let lz = (man.leading_zeros() as i64) - (128 - 52);
        let e = 1 - 1023 - (lz + 1) + 16383;
        let m = (man << (lz + 1)) & ((1u128 << 52) - 1);
        return sign | ((e as u128) << 112) | (m << 60);
    }
    sign | (((exp - 1023 + 16383) as u128) << 112) | (man << 60)
}

/// Bits of a decimal float literal (optionally signed) in `kind`.
pub(crate) fn float_bits_from_decimal(text: &str, kind: FloatKind) -> Option<u128> {
    Some(match kind {
        FloatKind::F32 => u128::from(text.parse::<f32>().ok()?.to_bits()),
        FloatKind::F64 => u128::from(text.parse::<f64>().ok()?.to_bits()),
        FloatKind::F80 | FloatKind::F128 => match wide::parse_decimal(text, kind) {
            Some(bits) => bits,
            None => {
                // `inf`, `nan` and the other spellings f64 accepts.
                let v = text.parse::<f64>().ok().filter(|v| !v.is_finite())?;
                if kind == FloatKind::F80 {
                    f64_to_f80(v)
                } else {
                    f64_to_f128(v)
                }
            }
        },
        k if k.minifloat_layout().is_some() => {
            // At most 256 patterns: find the one with exactly this value.
            let value = text.parse::<f64>().ok()?;
            let patterns = 1u64 << k.bit_width();
            let found = (0..patterns).find(|&bits| {
                minifloat_to_f64(bits, k)
                    .is_some_and(|v| v == value && v.is_sign_negative() == value.is_sign_negative())
            })?;
            u128::from(found)
        }
        k => {
            let (e, m) = small_format(k)?;
            u128::from(f64_to_small(text.parse::<f64>().ok()?, e, m))
        }
    })
}

/// The value of an 8-bit-or-smaller float pattern, `None` for NaN and
/// infinities (printed as hex).
fn minifloat_to_f64(bits: u64, kind: FloatKind) -> Option<f64> {
    let (exp_bits, man_bits, bias) = kind.minifloat_layout()?;
    let width = kind.bit_width();
    let max_exp = (1u64 << exp_bits) - 1;
    let max_man = (1u64 << man_bits) - 1;
    if kind == FloatKind::F8E8M0FNU {
        // Exponent only, no sign; all ones is NaN.
        return (bits != 0xFF).then(|| 2f64.powi(bits as i32 - bias));
    }
    let negative = (bits >> (width - 1)) & 1 == 1;
    let exp = (bits >> man_bits) & max_exp;
    let man = bits & max_man;
    let name = kind.name();
    if name.ends_with("FNUZ") && bits == 1 << (width - 1) {
        return None; // the only NaN; no negative zero
    }
    let ieee_like = !name.contains("FN");
    if ieee_like && exp == max_exp {
        return None;
    }
    if name.ends_with("FN") && width == 8 && exp == max_exp && man == max_man {
        return None;
    }
    let magnitude = if exp == 0 {
        man as f64 * 2f64.powi(1 - bias - man_bits as i32)
    } else {
        ((1u64 << man_bits) | man) as f64 * 2f64.powi(exp as i32 - bias - man_bits as i32)
    };
    Some(if negative { -magnitude } else { magnitude })
}

/// The value of a float attribute as f64 when the format converts exactly
/// (bf16, f16, f32, f64), else `None`.
fn float_value(bits: u128, kind: FloatKind) -> Option<f64> {
    match kind {
        FloatKind::F32 => Some(f64::from(f32::from_bits(bits as u32))),
        FloatKind::F64 => Some(f64::from_bits(bits as u64)),
        FloatKind::F16 | FloatKind::BF16 | FloatKind::TF32 => {
            let (e, m) = small_format(kind)?;
            Some(small_to_f64(bits as u64, e, m))
        }
        k if k.minifloat_layout().is_some() => minifloat_to_f64(bits as u64, k),
        _ => None,
    }
}

/// `0x3F800000`: the bit pattern, zero-padded to the format's hex width.
pub(crate) fn hex_bits(bits: u128, width: u32) -> String {
    let digits = width.div_ceil(4) as usize;
    format!("0x{bits:0digits$X}")
}

/// MLIR's float spelling: `1.000000e+00` when that round-trips exactly,
/// else the shortest round-trip decimal (always with a `.`), else the hex
/// bit pattern (NaN, infinities). f80 and f128 follow upstream exactly:
/// APFloat's six-digit form if it reads back to the same bits, else its
/// default form (enough digits to round-trip) if that has a `.`, else hex.
pub(crate) fn format_float(bits: u128, kind: FloatKind) -> String {
    let hex = || hex_bits(bits, kind.bit_width());
    if matches!(kind, FloatKind::F80 | FloatKind::F128) {
        let round_trips = |s: &String| float_bits_from_decimal(s, kind) == Some(bits);
        if let Some(s) = wide::apfloat_string(bits, kind, 6, 0, false).filter(round_trips) {
            return s;
        }
        // The read-back check on the default form never fails (it has
        // enough digits); it only guards the text round trip.
        return wide::apfloat_string(bits, kind, 0, 3, true)
            .filter(|s| s.contains('.') && round_trips(s))
            .unwrap_or_else(hex);
    }
    let Some(v) = float_value(bits, kind) else {
        return hex();
    };
    if !v.is_finite() {
        return hex();
    }
    let round_trips = |s: &str| float_bits_from_decimal(s, kind) == Some(bits);
    let s = mlir_exponent_style(&format!("{v:.6e}"));
    if round_trips(&s) {
        return s;
    }
    let shortest = if kind == FloatKind::F32 {
        format!("{:e}", v as f32)
    } else {
        format!("{v:e}")
    };
    let s = mlir_exponent_style(&shortest);
    if round_trips(&s) { s } else { hex() }
}

/// `1.5e0` → `1.5e+00`, `1e-7` → `1.0e-07`.
fn mlir_exponent_style(s: &str) -> String {
    let (mantissa, exp) = s.split_once('e').unwrap_or((s, "0"));
    let (sign, digits) = match exp.strip_prefix('-') {
        Some(d) => ('-', d),
        None => ('+', exp),
    };
    let dot = if mantissa.contains('.') { "" } else { ".0" };
    format!("{mantissa}{dot}e{sign}{digits:0>2}")
}

/// Exact decimal conversion of the f80 and f128 formats, both ways, with
/// big integers: parsing rounds to nearest, ties to even, like APFloat;
/// printing is APFloat's `toString`, so `format_float` can apply upstream's
/// print-then-reparse rule.
mod wide {
    use super::FloatKind;
    use std::cmp::Ordering;

    /// Little-endian base-2^32 natural number.
    #[derive(Clone, PartialEq, Eq)]
    struct Big(Vec<u32>);

    impl Big {
        fn from_u128(v: u128) -> Big {
            let mut b = Big((0..4).map(|i| (v >> (32 * i)) as u32).collect());
            b.trim();
            b
        }
        fn to_u128(&self) -> Option<u128> {
            (self.0.len() <= 4).then(|| {
                self.0
                    .iter()
                    .rev()
                    .fold(0u128, |acc, &w| (acc << 32) | u128::from(w))
            })
        }
        fn trim(&mut self) {
            while self.0.last() == Some(&0) {
                self.0.pop();
            }
        }
        fn bits(&self) -> u64 {
            self.0.last().map_or(0, |&top| {
                32 * (self.0.len() as u64 - 1) + u64::from(32 - top.leading_zeros())
            })
        }
        /// `self * m + a`.
        fn mul_add_small(&mut self, m: u32, a: u32) {
            let mut carry = u64::from(a);
            for w in &mut self.0 {
                let t = u64::from(*w) * u64::from(m) + carry;
                *w = t as u32;
                carry = t >> 32;
            }
            if carry > 0 {
                self.0.push(carry as u32);
            }
        }
        fn mul_pow5(&mut self, mut k: u64) {
            while k >= 13 {
                self.mul_add_small(1_220_703_125, 0); // 5^13
                k -= 13;
            }
            self.mul_add_small(5u32.pow(k as u32), 0);
        }
        fn shl(&mut self, n: u64) {
            if self.0.is_empty() {
                return;
            }
            let (words, bits) = ((n / 32) as usize, (n % 32) as u32);
            if bits > 0 {
                let mut carry = 0u32;
                for w in &mut self.0 {
                    let t = (*w << bits) | carry;
                    carry = *w >> (32 - bits);
                    *w = t;
                }
                if carry > 0 {
                    self.0.push(carry);
                }
            }
            self.0.splice(0..0, std::iter::repeat_n(0, words));
        }
        /// `self -= other`; requires `self >= other`.
        fn sub(&mut self, other: &Big) {
            let mut borrow = 0i64;
            for (i, w) in self.0.iter_mut().enumerate() {
                let o = other.0.get(i).map_or(0, |&o| i64::from(o));
                let t = i64::from(*w) - o - borrow;
                borrow = i64::from(t < 0);
                *w = t.rem_euclid(1 << 32) as u32;
            }
            self.trim();
        }
        fn cmp(&self, other: &Big) -> Ordering {
            self.0
                .len()
                .cmp(&other.0.len())
                .then_with(|| self.0.iter().rev().cmp(other.0.iter().rev()))
        }
    }

    /// `floor(a / b)` (at most 127 bits, else `None`) and how twice the
    /// remainder compares to `b` (the rounding direction).
    fn divide(mut a: Big, b: &Big) -> Option<(u128, Ordering)> {
        let span = a.bits().saturating_sub(b.bits());
        if span > 126 || b.0.is_empty() {
            return None;
        }
        let mut q = 0u128;
        for i in (0..=span).rev() {
            let mut bi = b.clone();
            bi.shl(i);
            if a.cmp(&bi) != Ordering::Less {
                a.sub(&bi);
                q |= 1 << i;
            }
        }
        a.shl(1);
        Some((q, a.cmp(b)))
    }

    /// (significand bits with the integer bit, bit of the sign, whether the
    /// integer bit is stored) of the wide formats.
    fn layout(kind: FloatKind) -> Option<(u32, u32, bool)> {
        match kind {
            FloatKind::F80 => Some((64, 79, true)),
            FloatKind::F128 => Some((113, 127, false)),
            _ => None,
        }
    }

    const BIAS: i64 = 16383;
    /// More significant digits than any midpoint between two f80 or f128
    /// values has (about 11,600 for the f128 subnormals): digits beyond
    /// are folded into one sticky digit without changing the rounding.
    const MAX_DIGITS: usize = 12_000;

    /// Bits of a decimal literal (`[+-]digits[.digits][e[+-]digits]`),
    /// correctly rounded; `None` when the text is not such a literal.
    /// Work is bounded by the text length and the formats' exponent range:
    /// exponents beyond it saturate to infinity or zero without big numbers.
    pub(super) fn parse_decimal(text: &str, kind: FloatKind) -> Option<u128> {
        let (p, sign_at, explicit_int) = layout(kind)?;
        let (negative, rest) = match text.as_bytes().first() {
            Some(b'-') => (true, &text[1..]),
            Some(b'+') => (false, &text[1..]),
            _ => (false, text),
        };
        let sign = u128::from(negative) << sign_at;
        let exp_shift = if explicit_int { 64 } else { 112 };
        let infinity = sign | (0x7fff << exp_shift) | if explicit_int { 1 << 63 } else { 0 };
        let (mantissa, exponent) = match rest.find(['e', 'E']) {
            Some(i) => (&rest[..i], Some(&rest[i + 1..])),
            None => (rest, None),
        };
        let (int_part, frac_part) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let is_digits = |s: &str| s.bytes().all(|c| c.is_ascii_digit());
        if (int_part.is_empty() && frac_part.is_empty())
            || !is_digits(int_part)
            || !is_digits(frac_part)
        {
            return None;
        }
        // Saturating: anything beyond 10^±(10^12) is far out of range.
        let mut exp10: i64 = match exponent {
            None => 0,
            Some(e) => {
                let (neg, digits) = match e.as_bytes().first() {
                    Some(b'-') => (true, &e[1..]),
                    Some(b'+') => (false, &e[1..]),
                    _ => (false, e),
                };
                if digits.is_empty() || !is_digits(digits) {
                    return None;
                }
                let v = digits.bytes().fold(0i64, |acc, c| {
                    (acc * 10 + i64::from(c - b'0')).min(1_000_000_000_000)
                });
                if neg { -v } else { v }
            }
        };
        exp10 -= frac_part.len() as i64;
        let all: Vec<u8> = int_part.bytes().chain(frac_part.bytes()).collect();
        let first = all.iter().position(|&c| c != b'0');
        let Some(first) = first else {
            return Some(sign);
        };
        let last = all.iter().rposition(|&c| c != b'0').unwrap_or(first);
        exp10 += (all.len() - 1 - last) as i64;
        let mut digits = &all[first..=last];
        let mut sticky = false;
        if digits.len() > MAX_DIGITS {
            exp10 += (digits.len() - MAX_DIGITS) as i64;
            digits = &digits[..MAX_DIGITS];
            sticky = true; // the last dropped nonzero digit is nonzero
        }
        // Leading digit's decimal position: 10^lead <= |value| < 10^(lead+1).
        let lead = exp10 + digits.len() as i64 - 1;
        if lead > 4933 {
            return Some(infinity); // f80 and f128 end near 1.19e4932
        }
        if lead < -4970 {
            return Some(sign); // below half the smallest f128 subnormal
        }
        let mut num = Big(Vec::new());
        for chunk in digits.chunks(9) {
            let v = chunk
                .iter()
                .fold(0u32, |acc, &c| acc * 10 + u32::from(c - b'0'));
            num.mul_add_small(10u32.pow(chunk.len() as u32), v);
        }
        if sticky {
            num.mul_add_small(10, 1);
            exp10 -= 1;
        }
        // value = num / den * 2^e2
        let mut den = Big::from_u128(1);
        if exp10 >= 0 {
            num.mul_pow5(exp10 as u64);
        } else {
            den.mul_pow5(exp10.unsigned_abs());
        }
        let e2 = exp10;
        let min_lsb = 1 - BIAS - (i64::from(p) - 1);
        let quotient = |t: i64| {
            let (mut a, mut b) = (num.clone(), den.clone());
            if e2 >= t {
                a.shl((e2 - t) as u64);
            } else {
                b.shl((t - e2) as u64);
            }
            divide(a, &b)
        };
        // Exponent of the last significand bit: p bits, or fewer below the
        // normal range.
        let bits_diff = num.bits() as i64 - den.bits() as i64;
        let mut t = (e2 + bits_diff - i64::from(p)).max(min_lsb);
        let (mut q, mut half) = quotient(t)?;
        if q >> p != 0 {
            t += 1;
            (q, half) = quotient(t)?;
        }
        let round_up = match half {
            Ordering::Greater => true,
            Ordering::Equal => q & 1 == 1,
            Ordering::Less => false,
        };
        if round_up {
            q += 1;
            if q >> p != 0 {
                q >>= 1;
                t += 1;
            }
        }
        let biased = if q >> (p - 1) != 0 {
            t + i64::from(p) - 1 + BIAS
        } else {
            0 // subnormal
        };
        if biased >= 0x7fff {
            return Some(infinity);
        }
        let stored = if explicit_int {
            q
        } else {
            q & ((1 << (p - 1)) - 1)
        };
        Some(sign | ((biased as u128) << exp_shift) | stored)
    }

    /// APFloat's `toString(precision, max_padding, truncate_zero)` of a
    /// finite f80 or f128 value; `None` for NaN, infinities and f80
    /// unnormals (printed as hex).
    pub(super) fn apfloat_string(
        bits: u128,
        kind: FloatKind,
        format_precision: u32,
        max_padding: u32,
        truncate_zero: bool,
    ) -> Option<String> {
        let (p, sign_at, explicit_int) = layout(kind)?;
        let negative = (bits >> sign_at) & 1 == 1;
        let (m, mut e) = if explicit_int {
            let exp = ((bits >> 64) & 0x7fff) as i64;
            let m = u128::from(bits as u64);
            if exp == 0x7fff || (exp != 0 && m >> 63 == 0) {
                return None;
            }
            (m, exp.max(1) - BIAS - 63)
        } else {
            let exp = ((bits >> 112) & 0x7fff) as i64;
            let mut m = bits & ((1u128 << 112) - 1);
            if exp == 0x7fff {
                return None;
            }
            if exp != 0 {
                m |= 1 << 112;
            }
            (m, exp.max(1) - BIAS - 112)
        };
        let mut out = String::from(if negative { "-" } else { "" });
        if m == 0 {
            if max_padding != 0 {
                out.push('0');
            } else if truncate_zero {
                out.push_str("0.0E+0");
            } else {
                out.push_str("0.0");
                out.extend(std::iter::repeat_n(
                    '0',
                    format_precision.saturating_sub(1) as usize,
                ));
                out.push_str("e+00");
            }
            return Some(out);
        }
        let precision = if format_precision == 0 {
            2 + p * 59 / 196
        } else {
            format_precision
        } as usize;
        // m * 2^e as sig * 10^exp10, exactly.
        let tz = m.trailing_zeros();
        let m = m >> tz;
        e += i64::from(tz);
        let mut sig = Big::from_u128(m);
        let mut exp10 = 0i64;
        if e >= 0 {
            sig.shl(e as u64);
        } else {
            sig.mul_pow5(e.unsigned_abs());
            exp10 = e;
        }
        // First, truncating, cut to roughly the precision in bits (which
        // can drop the digit the decimal rounding below would look at).
        let have = sig.bits();
        let required = (precision as u64 * 196).div_ceil(59);
        let tens = have.saturating_sub(required) * 59 / 196;
        let sig = if tens > 0 {
            exp10 += tens as i64;
            let mut divisor = Big::from_u128(1);
            divisor.mul_pow5(tens);
            divisor.shl(tens);
            divide(sig, &divisor)?.0
        } else {
            sig.to_u128()?
        };
        let mut digits = sig.to_string().into_bytes();
        while digits.last() == Some(&b'0') {
            digits.pop();
            exp10 += 1;
        }
        // Then to `precision` digits, half up on the first dropped digit.
        if digits.len() > precision {
            let up = digits[precision] >= b'5';
            exp10 += (digits.len() - precision) as i64;
            digits.truncate(precision);
            if up {
                while digits.last() == Some(&b'9') {
                    digits.pop();
                    exp10 += 1;
                }
                match digits.last_mut() {
                    Some(d) => *d += 1,
                    None => digits.push(b'1'),
                }
            }
            while digits.last() == Some(&b'0') {
                digits.pop();
                exp10 += 1;
            }
        }
        let nd = digits.len() as i64;
        let scientific = if max_padding == 0 {
            true
        } else if exp10 >= 0 {
            exp10 > i64::from(max_padding) || nd + exp10 > precision as i64
        } else {
            let msd = exp10 + nd - 1;
            msd < 0 && -msd > i64::from(max_padding)
        };
        let text = |d: &[u8]| String::from_utf8_lossy(d).into_owned();
        if scientific {
            let e10 = exp10 + nd - 1;
            out.push(char::from(digits[0]));
            out.push('.');
            if nd == 1 && truncate_zero {
                out.push('0');
            } else {
                out.push_str(&text(&digits[1..]));
            }
            if !truncate_zero && precision + 1 > digits.len() {
                out.extend(std::iter::repeat_n('0', precision + 1 - digits.len()));
            }
            out.push(if truncate_zero { 'E' } else { 'e' });
            out.push(if e10 < 0 { '-' } else { '+' });
            let mag = e10.unsigned_abs().to_string();
            if !truncate_zero && mag.len() < 2 {
                out.push('0');
            }
            out.push_str(&mag);
        } else if exp10 >= 0 {
            out.push_str(&text(&digits));
            out.extend(std::iter::repeat_n('0', exp10 as usize));
        } else {
            let whole = exp10 + nd;
            if whole > 0 {
                out.push_str(&text(&digits[..whole as usize]));
                out.push('.');
                out.push_str(&text(&digits[whole as usize..]));
            } else {
                out.push_str("0.");
                out.extend(std::iter::repeat_n('0', whole.unsigned_abs() as usize));
                out.push_str(&text(&digits));
            }
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f16(x: f64) -> u64 {
        f64_to_small(x, 5, 10)
    }
    fn bf16(x: f64) -> u64 {
        f64_to_small(x, 8, 7)
    }

    #[test]
    fn f16_conversion() {
        assert_eq!(f16(1.0), 0x3C00);
        assert_eq!(f16(-2.0), 0xC000);
        assert_eq!(f16(65504.0), 0x7BFF);
        assert_eq!(f16(65520.0), 0x7C00); // rounds up to inf
        assert_eq!(f16(65519.99), 0x7BFF);
        assert_eq!(f16(f64::INFINITY), 0x7C00);
        assert_eq!(f16(0.0), 0);
        assert_eq!(f16(-0.0), 0x8000);
        assert_eq!(f16(5.960464477539063e-8), 1); // smallest subnormal
        assert_eq!(f16(2f64.powi(-25)), 0); // half of it: ties to even (0)
        assert_eq!(f16(2.99e-8), 1);
        assert_eq!(f16(8.940696716308594e-8), 2); // 1.5 ulp ties to even (2)
        assert_eq!(f16(6.097555160522461e-5), 0x3FF); // largest subnormal
        assert_eq!(f16(6.103515625e-5), 0x400); // smallest normal
        // 1 + 2^-11 is a tie between 1 and 1 + 2^-10: even is 1.
        assert_eq!(f16(1.0 + 2f64.powi(-11)), 0x3C00);
        // 1 + 3 * 2^-11 ties between odd and even mantissas: rounds up.
        assert_eq!(f16(1.0 + 3.0 * 2f64.powi(-11)), 0x3C02);
        assert_eq!(f16(0.1), 0x2E66);
        assert_eq!(f16(f64::NAN) & 0x7C00, 0x7C00);
        assert_ne!(f16(f64::NAN) & 0x3FF, 0);
        assert_eq!(f16(1e-300), 0);
    }

    #[test]
    fn bf16_conversion() {
        assert_eq!(bf16(1.0), 0x3F80);
        assert_eq!(bf16(-0.5), 0xBF00);
        assert_eq!(bf16(0.1), 0x3DCD);
        assert_eq!(bf16(3.0e38), 0x7F62);
        assert_eq!(bf16(3.4e38), 0x7F80); // above max bf16 ~3.39e38 rounds to inf
        // 1 + 2^-8 is a tie: even is 1.
        assert_eq!(bf16(1.0 + 2f64.powi(-8)), 0x3F80);
        assert_eq!(bf16(1.0 + 3.0 * 2f64.powi(-8)), 0x3F82);
    }

    #[test]
    fn small_roundtrip_exhaustive() {
        for bits in 0u64..0x10000 {
            for (e, m) in [(5, 10), (8, 7)] {
                let v = small_to_f64(bits, e, m);
                if v.is_nan() {
                    continue;
                }
                assert_eq!(f64_to_small(v, e, m), bits, "{bits:#x}");
            }
        }
    }

    #[test]
    fn float_formatting() {
        assert_eq!(
            format_float(1.0f32.to_bits().into(), FloatKind::F32),
            "1.000000e+00"
        );
        assert_eq!(
            format_float((-2.25f64).to_bits().into(), FloatKind::F64),
            "-2.250000e+00"
        );
        assert_eq!(
            format_float(0.1f64.to_bits().into(), FloatKind::F64),
            "1.000000e-01"
        );
        assert_eq!(
            format_float(0.1f32.to_bits().into(), FloatKind::F32),
            "1.000000e-01"
        );
        assert_eq!(
            format_float(0.123456789f64.to_bits().into(), FloatKind::F64),
            "1.23456789e-01"
        );
        assert_eq!(
            format_float(1e-7f32.to_bits().into(), FloatKind::F32),
            "1.000000e-07"
        );
        assert_eq!(
            format_float(16777217f64.to_bits().into(), FloatKind::F64),
            "1.6777217e+07"
        );
        assert_eq!(
            format_float(1e300f64.to_bits().into(), FloatKind::F64),
            "1.000000e+300"
        );
        assert_eq!(
            format_float(f32::NAN.to_bits().into(), FloatKind::F32),
            "0x7FC00000"
        );
        assert_eq!(format_float(0x7C00, FloatKind::F16), "0x7C00");
        assert_eq!(format_float(0x3C00, FloatKind::F16), "1.000000e+00");
        assert_eq!(format_float(1, FloatKind::F16), "5.960464e-08");
        for bits in [1u32, 0x0080_0000, 0x7F7F_FFFF, 0x3DCC_CCCD, 0x8000_0000] {
            let s = format_float(bits.into(), FloatKind::F32);
            assert_eq!(
                float_bits_from_decimal(&s, FloatKind::F32),
                Some(bits.into()),
                "{s}"
            );
        }
        for bits in 0u128..0x10000 {
            for kind in [FloatKind::F16, FloatKind::BF16] {
                let s = format_float(bits, kind);
                if !s.starts_with("0x") {
                    assert_eq!(float_bits_from_decimal(&s, kind), Some(bits), "{s}");
                }
            }
        }
    }

    #[test]
    fn wide_floats() {
        assert_eq!(f64_to_f80(1.0), (0x3fffu128 << 64) | (1u128 << 63));
        assert_eq!(f64_to_f128(1.0), 0x3fffu128 << 112);
        assert_eq!(f64_to_f128(-2.0), (1u128 << 127) | (0x4000u128 << 112));
        let tiny = f64::from_bits(1);
        assert_eq!(f64_to_f128(tiny) >> 112, 16383 - 1074);
        assert_eq!(f64_to_f80(tiny), ((16383u128 - 1074) << 64) | (1u128 << 63));
    }

    fn f80(text: &str) -> u128 {
        float_bits_from_decimal(text, FloatKind::F80).unwrap()
    }
    fn f128(text: &str) -> u128 {
        float_bits_from_decimal(text, FloatKind::F128).unwrap()
    }

    /// Expected patterns checked with exact rational arithmetic (Python's
    /// `fractions.Fraction`, round half to even).
    #[test]
    fn wide_decimal_parsing() {
        assert_eq!(f80("0.1"), 0x3FFB_CCCC_CCCC_CCCC_CCCD);
        assert_eq!(f128("0.1"), 0x3FFB_9999_9999_9999_9999_9999_9999_999A);
        assert_eq!(f80("1"), 0x3FFF_8000_0000_0000_0000);
        assert_eq!(f80("-2.5"), 0xC000_A000_0000_0000_0000);
        assert_eq!(f128("-2.5"), 0xC000_4000_0000_0000_0000_0000_0000_0000);
        assert_eq!(f80("00012.5000e+0001"), f80("125"));
        assert_eq!(f80(".5"), f80("5e-1"));
        assert_eq!(f80("5."), f80("5E0"));
        assert_eq!(f80("0"), 0);
        assert_eq!(f80("-0.0e5"), 1 << 79);
        assert_eq!(f128("-0"), 1 << 127);
        // Largest f80 and the first values past it.
        assert_eq!(f80("1e4932"), 0x7FFE_D72C_B2A9_5C7E_F6CD);
        assert_eq!(
            f80("1.18973149535723176502e4932"),
            0x7FFE_FFFF_FFFF_FFFF_FFFF
        );
        assert_eq!(
            f80("1.18973149535723176505e4932"),
            0x7FFE_FFFF_FFFF_FFFF_FFFF
        );
        assert_eq!(f80("1.2e4932"), 0x7FFF_8000_0000_0000_0000);
        assert_eq!(f80("-1.19e4932"), 0xFFFF_8000_0000_0000_0000);
        assert_eq!(
            f128("1.189731495357231765085759326628007017e4932"),
            0x7FFE_FFFF_FFFF_FFFF_FFFF_FFFF_FFFF_FFFF
        );
        assert_eq!(f128("1.19e4932"), 0x7FFF << 112);
        // Smallest normal f128, smallest subnormals, and half of them.
        assert_eq!(f128("3.3621031431120935062626778173217526e-4932"), 1 << 112);
        assert_eq!(f128("6.475175119438025110924438958227646552e-4966"), 1);
        assert_eq!(f128("3.3e-4966"), 1);
        assert_eq!(f128("3e-4966"), 0);
        assert_eq!(f80("3.6451995318824746025e-4951"), 1);
        // 2^-16446 is exactly half the smallest f80 subnormal (a tie that
        // goes to 0); its digits truncated are below it, one more above.
        let half_f80_min = "1.82259976594123730126420296680970990819952540784678167186049";
        assert_eq!(f80(&format!("{half_f80_min}e-4951")), 0);
        assert_eq!(f80(&format!("{half_f80_min}1e-4951")), 1);
        assert_eq!(f80("1.8225997659412373013e-4951"), 1);
        // Ties between neighbours go to the even mantissa: 1 + 2^-64 is
        // half an f80 ulp above 1, 1 + 3 * 2^-64 half an ulp above 1 + ulp.
        let tie = "1.0000000000000000000542101086242752217003726400434970855712890625";
        assert_eq!(f80(tie), 0x3FFF_8000_0000_0000_0000);
        assert_eq!(
            f80("1.0000000000000000001626303258728256651011179201304912567138671875"),
            0x3FFF_8000_0000_0000_0002
        );
        assert_eq!(
            f80("1.00000000000000000005421010862427522171"),
            0x3FFF_8000_0000_0000_0001
        );
        // 1 + 2^-113 is half an f128 ulp above 1.
        let tie128 = "1.00000000000000000000000000000000009629649721936179265279889712924636592690508241076940976199693977832794189453125";
        assert_eq!(f128(tie128), 0x3FFF << 112);
        assert_eq!(f128(&format!("{tie128}1")), (0x3FFF << 112) | 1);
        // Digits past the first 12,000 still decide a tie (one sticky
        // digit), and trailing zeros do not.
        let zeros = "0".repeat(15_000);
        assert_eq!(f80(&format!("{tie}{zeros}")), 0x3FFF_8000_0000_0000_0000);
        assert_eq!(f80(&format!("{tie}{zeros}1")), 0x3FFF_8000_0000_0000_0001);
        assert_eq!(f80(&format!("0.{zeros}1e15000")), f80("0.1"));
        // Hostile exponents saturate without big numbers.
        assert_eq!(f80("1e999999999"), 0x7FFF_8000_0000_0000_0000);
        assert_eq!(f128("-1e99999999999999999999999999"), 0xFFFF << 112);
        assert_eq!(f128("1e-999999999"), 0);
        assert_eq!(f80("-1e-99999999999999999999999999"), 1 << 79);
        assert_eq!(f80("0e999999999999"), 0);
        assert_eq!(f80(&format!("1{zeros}e-15000")), f80("1"));
        // Spellings f64 accepts for the special values; junk is refused.
        assert_eq!(f80("inf"), 0x7FFF_8000_0000_0000_0000);
        assert_eq!(f128("-inf"), 0xFFFF << 112);
        assert_eq!(f80("nan") >> 64, 0x7FFF);
        for junk in [
            "", "-", ".", "e5", "1e", "1e+", "1.2.3", "0x10", "1f", "--1", "+-1",
        ] {
            assert_eq!(
                float_bits_from_decimal(junk, FloatKind::F80),
                None,
                "{junk}"
            );
            assert_eq!(
                float_bits_from_decimal(junk, FloatKind::F128),
                None,
                "{junk}"
            );
        }
    }

    /// Upstream's rule: APFloat's six-digit form when it reads back to the
    /// same bits, else its default form (`toString()`) when that has a
    /// `.`, else hex. Strings checked against the exact values.
    #[test]
    fn wide_float_printing() {
        for (v, text) in [
            (1.0, "1.000000e+00"),
            (-1.0, "-1.000000e+00"),
            (0.375, "3.750000e-01"),
            (1e10, "1.000000e+10"),
            (1e22, "1.000000e+22"),
            (0.0, "0.000000e+00"),
            (-0.0, "-0.000000e+00"),
        ] {
            assert_eq!(format_float(f64_to_f80(v), FloatKind::F80), text);
            assert_eq!(format_float(f64_to_f128(v), FloatKind::F128), text);
        }
        let f80_tenth = 0x3FFB_CCCC_CCCC_CCCC_CCCDu128;
        let f80_max = 0x7FFE_FFFF_FFFF_FFFF_FFFFu128;
        let f128_max = 0x7FFE_FFFF_FFFF_FFFF_FFFF_FFFF_FFFF_FFFFu128;
        for (bits, kind, text) in [
            (
                0x3FFB_9999_9999_9999_9999_9999_9999_999A,
                FloatKind::F128,
                "1.000000e-01",
            ),
            (f80_tenth, FloatKind::F80, "1.000000e-01"),
            (f80_tenth + 1, FloatKind::F80, "0.100000000000000000008"),
            // f64's 0.1 widened is not the f128 nearest 0.1.
            (
                f64_to_f128(0.1),
                FloatKind::F128,
                "0.100000000000000005551115123125782702",
            ),
            // Half up on the seventh digit: 6.4751751...e-4966.
            (1, FloatKind::F128, "6.475180e-4966"),
            (1, FloatKind::F80, "3.645200e-4951"),
            (f80_max, FloatKind::F80, "1.18973149535723176502E+4932"),
            (
                f128_max,
                FloatKind::F128,
                "1.18973149535723176508575932662800702E+4932",
            ),
            (
                (1 << 112) - 1,
                FloatKind::F128,
                "3.36210314311209350626267781732175196E-4932",
            ),
            (
                0x4063_8000_0000_0000_0000,
                FloatKind::F80,
                "1.2676506002282294015E+30",
            ), // 2^100
            (
                f64_to_f128(1e300),
                FloatKind::F128,
                "1.00000000000000005250476025520442025E+300",
            ),
            (
                f64_to_f128(1.0) | 1,
                FloatKind::F128,
                "1.00000000000000000000000000000000019",
            ),
            (f64_to_f80(1e-5), FloatKind::F80, "1.0000000000000000818E-5"),
            (f64_to_f80(123.456), FloatKind::F80, "123.45600000000000307"),
            // An integer whose default form has no `.`: hex, as upstream.
            (
                f64_to_f80(1234567.0),
                FloatKind::F80,
                "0x401396B4380000000000",
            ),
            (
                f64_to_f80(f64::INFINITY),
                FloatKind::F80,
                "0x7FFF8000000000000000",
            ),
            (
                0x7FFF << 112,
                FloatKind::F128,
                "0x7FFF0000000000000000000000000000",
            ),
            // An f80 unnormal (exponent set, integer bit clear).
            (
                0x3FFF_0000_0000_0000_0001,
                FloatKind::F80,
                "0x3FFF0000000000000001",
            ),
        ] {
            assert_eq!(format_float(bits, kind), text, "{bits:#x}");
            if !text.starts_with("0x") {
                assert_eq!(float_bits_from_decimal(text, kind), Some(bits), "{text}");
            }
        }
    }

    #[test]
    fn integer_ranges() {
        let lit = |negative, magnitude| IntLiteral {
            negative,
            magnitude,
            hex: false,
        };
        let i8t = Type::i(8);
        assert_eq!(integer_value(lit(false, 127), &i8t), Ok(127));
        assert_eq!(integer_value(lit(false, 255), &i8t), Ok(-1));
        assert!(integer_value(lit(false, 256), &i8t).is_err());
        assert_eq!(integer_value(lit(true, 128), &i8t), Ok(-128));
        assert!(integer_value(lit(true, 129), &i8t).is_err());
        assert_eq!(integer_value(lit(false, 255), &Type::ui(8)), Ok(255));
        assert!(integer_value(lit(true, 1), &Type::ui(8)).is_err());
        let si8 = Type::Integer {
            width: 8,
            signedness: Signedness::Signed,
        };
        assert!(integer_value(lit(false, 128), &si8).is_err());
        assert_eq!(integer_value(lit(true, 128), &si8), Ok(-128));
        assert_eq!(integer_value(lit(false, 1), &Type::i(1)), Ok(1));
        assert_eq!(integer_value(lit(true, 1), &Type::i(1)), Ok(1));
        assert!(integer_value(lit(false, 2), &Type::i(1)).is_err());
        assert_eq!(
            integer_value(lit(false, u64::MAX.into()), &Type::ui(64)),
            Ok(u64::MAX.into())
        );
        assert_eq!(
            integer_value(lit(false, u64::MAX.into()), &Type::i(64)),
            Ok(-1)
        );
        let hex = IntLiteral {
            negative: false,
            magnitude: 0xFF,
            hex: true,
        };
        assert_eq!(integer_value(hex, &i8t), Ok(-1));
        assert!(integer_value(lit(false, 1), &Type::i(129)).is_err());
        assert_eq!(
            integer_value(lit(true, 1u128 << 127), &Type::i(128)),
            Ok(i128::MIN)
        );
        assert_eq!(integer_value(lit(false, 0), &Type::i(0)), Ok(0));
        assert!(integer_value(lit(false, 1), &Type::i(0)).is_err());
        assert_eq!(
            parse_dec("340282366920938463463374607431768211455"),
            Some(u128::MAX)
        );
        assert_eq!(parse_dec("340282366920938463463374607431768211456"), None);
        assert_eq!(parse_hex("000000000000000000000000000000000001"), Some(1));
    }
}
