//! The accuracy oracle for df64: double-double arithmetic in f64 (about 106 bits), which is
//! exact or within ~2^-100 relative for every df64 operation df64gl measures, and the error
//! units the reports use.

use super::df64::Df64;

/// An f64 double-double `hi + lo`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Dd {
    /// The high part.
    pub hi: f64,
    /// The low part, |lo| <= ulp(hi) / 2.
    pub lo: f64,
}

fn two_sum(a: f64, b: f64) -> Dd {
    let s = a + b;
    let v = s - a;
    Dd {
        hi: s,
        lo: (a - (s - v)) + (b - v),
    }
}

fn quick_two_sum(a: f64, b: f64) -> Dd {
    let s = a + b;
    Dd {
        hi: s,
        lo: b - (s - a),
    }
}

fn two_prod(a: f64, b: f64) -> Dd {
    let p = a * b;
    Dd {
        hi: p,
        lo: a.mul_add(b, -p),
    }
}

impl Dd {
    /// An f64, exactly.
    pub fn from_f64(x: f64) -> Self {
        Dd { hi: x, lo: 0.0 }
    }

    /// The exact value of a df64 (two f32 always fit exactly in an f64 pair).
    pub fn from_df64(a: Df64) -> Self {
        two_sum(a.hi as f64, a.lo as f64)
    }

    /// Rounded to f64.
    pub fn to_f64(self) -> f64 {
        self.hi + self.lo
    }

    /// The nearest double-double to an oracle value (two roundings to f64: within 2^-105).
    pub fn from_big(x: &astro_float::BigFloat) -> Self {
        use super::oracle::{big, to_f64, ORACLE_BITS};
        let hi = to_f64(x);
        if !hi.is_finite() || hi == 0.0 {
            return Dd { hi, lo: 0.0 };
        }
        let rest = x.sub(&big(hi), ORACLE_BITS, astro_float::RoundingMode::ToEven);
        Dd {
            hi,
            lo: to_f64(&rest),
        }
    }

    /// `self * b`.
    pub(crate) fn mul_f64(self, b: f64) -> Dd {
        let p = two_prod(self.hi, b);
        quick_two_sum(p.hi, p.lo + self.lo * b)
    }

    fn long_div(self, b: Dd) -> Dd {
        let q1 = self.hi / b.hi;
        if !q1.is_finite() {
            return Dd::from_f64(q1);
        }
        let r = self - b.mul_f64(q1);
        let q2 = r.hi / b.hi;
        let r = r - b.mul_f64(q2);
        let q3 = r.hi / b.hi;
        quick_two_sum(q1, q2) + Dd::from_f64(q3)
    }

    /// Newton from the f64 root, with the residual in double-double.
    pub fn sqrt(self) -> Dd {
        if self.hi <= 0.0 {
            return Dd::from_f64(self.hi.sqrt());
        }
        let y = self.hi.sqrt();
        let r = self - two_prod(y, y);
        let s = quick_two_sum(y, r.hi / (2.0 * y));
        let r = self - s * s;
        s + Dd::from_f64(r.hi / (2.0 * s.hi))
    }

    /// `1 / self`.
    pub fn recip(self) -> Dd {
        Dd::from_f64(1.0) / self
    }
}

impl std::ops::Neg for Dd {
    type Output = Dd;
    fn neg(self) -> Dd {
        Dd {
            hi: -self.hi,
            lo: -self.lo,
        }
    }
}

impl std::ops::Add for Dd {
    type Output = Dd;
    /// QD's IEEE add.
    fn add(self, b: Dd) -> Dd {
        let s = two_sum(self.hi, b.hi);
        let t = two_sum(self.lo, b.lo);
        let s = quick_two_sum(s.hi, s.lo + t.hi);
        quick_two_sum(s.hi, s.lo + t.lo)
    }
}

impl std::ops::Sub for Dd {
    type Output = Dd;
    fn sub(self, b: Dd) -> Dd {
        self + (-b)
    }
}

impl std::ops::Mul for Dd {
    type Output = Dd;
    fn mul(self, b: Dd) -> Dd {
        let p = two_prod(self.hi, b.hi);
        let lo = p.lo + (self.hi * b.lo + self.lo * b.hi);
        quick_two_sum(p.hi, lo)
    }
}

impl std::ops::Div for Dd {
    type Output = Dd;
    /// Long division with three quotient terms.
    fn div(self, b: Dd) -> Dd {
        self.long_div(b)
    }
}

/// ulp48(x) = 2^(e-47) where 2^e <= |x| < 2^(e+1): the unit of a 48-bit significand, the unit
/// of Thall's Table II.
/// `x * 2^k`, exact whenever the result is a normal f64 (the factor is applied in steps that
/// are themselves representable; a subnormal result is rounded once, at the last step).
pub fn ldexp(mut x: f64, mut k: i32) -> f64 {
    while k > 1000 {
        x *= 2f64.powi(1000);
        k -= 1000;
    }
    while k < -1000 {
        x *= 2f64.powi(-1000);
        k += 1000;
    }
    x * 2f64.powi(k)
}

/// ulp48(x) = 2^(e-47) where 2^e <= |x| < 2^(e+1) (the accuracy unit of Thall's Table II).
pub fn ulp48(x: f64) -> f64 {
    ulp_bits(x, 47)
}

/// ulp of a `p+1`-bit significand at x: 2^(e-p).
pub fn ulp_bits(x: f64, p: i32) -> f64 {
    let ax = x.abs();
    if ax == 0.0 || !ax.is_finite() {
        return f64::MIN_POSITIVE;
    }
    let e = ax.log2().floor() as i32;
    // log2 can be off by one at binade edges: fix up exactly.
    let mut e = e;
    if 2f64.powi(e) > ax {
        e -= 1;
    } else if 2f64.powi(e + 1) <= ax {
        e += 1;
    }
    2f64.powi(e - p)
}

/// |result - exact| in ulp48 of the exact value; 0 when both are the same non-finite value,
/// infinity when only one is finite.
pub fn error_ulp48(result: Df64, exact: Dd) -> f64 {
    if !exact.hi.is_finite() || !result.hi.is_finite() {
        let same = (exact.hi.is_nan() && result.hi.is_nan()) || (exact.hi == result.hi as f64);
        return if same { 0.0 } else { f64::INFINITY };
    }
    let diff = (Dd::from_df64(result) - exact).to_f64().abs();
    if diff == 0.0 {
        return 0.0;
    }
    diff / ulp48(exact.to_f64())
}

/// Signed error in ulp of an f32 result (2^(e-23)) against an f64 value.
pub(crate) fn error_ulp32(result: f32, exact: f64) -> f64 {
    (result as f64 - exact) / ulp_bits(exact, 23)
}

/// Distance in f64 ulps between two f64 values, counted over the ordered bit patterns
/// (Warwick's measure).
pub fn ulp_distance_f64(a: f64, b: f64) -> u64 {
    fn ordered(x: f64) -> i128 {
        let bits = x.to_bits() as i64;
        if bits < 0 {
            (i64::MIN as i128) - (bits as i128)
        } else {
            bits as i128
        }
    }
    if a.is_nan() || b.is_nan() {
        return u64::MAX;
    }
    (ordered(a) - ordered(b))
        .unsigned_abs()
        .min(u64::MAX as u128) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ulp48_matches_definition() {
        assert_eq!(ulp48(1.0), 2f64.powi(-47));
        assert_eq!(ulp48(1.999), 2f64.powi(-47));
        assert_eq!(ulp48(2.0), 2f64.powi(-46));
        assert_eq!(ulp48(-0.75), 2f64.powi(-48));
    }

    #[test]
    fn oracle_division_and_sqrt_are_consistent() {
        let x = Dd::from_f64(2.0);
        let s = x.sqrt();
        let back = (s * s - x).to_f64().abs();
        assert!(back < 1e-30, "{back}");
        let q = Dd::from_f64(1.0) / Dd::from_f64(3.0);
        let back = (q.mul_f64(3.0) - Dd::from_f64(1.0)).to_f64().abs();
        assert!(back < 1e-31, "{back}");
    }

    #[test]
    fn warwick_distance_counts_representable_steps() {
        assert_eq!(ulp_distance_f64(1.0, 1.0), 0);
        assert_eq!(
            ulp_distance_f64(1.0, f64::from_bits(1.0f64.to_bits() + 3)),
            3
        );
        // +0 and -0 are the same number; the smallest subnormals are two steps apart via 0.
        assert_eq!(ulp_distance_f64(-0.0, 0.0), 0);
        assert_eq!(ulp_distance_f64(f64::from_bits(1), -f64::from_bits(1)), 2);
        assert_eq!(
            ulp_distance_f64(-1.0, -f64::from_bits(1.0f64.to_bits() + 1)),
            1
        );
    }
}
