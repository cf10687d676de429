//! Division, reciprocal, square root and reciprocal square root by Karp's method, with the
//! IEEE answers for zero, infinity and NaN.

use super::*;

/// The accurate quotient's core (`df64_div_core`): long division with three quotient terms
/// (QD's accurate div): q1 = a/b in f32, then the remainders a - q1*b and r - q2*b are formed
/// error-free enough that the final rounding of the low word dominates.
pub fn df64_div_core(a: Df64, b: Df64) -> Df64 {
    let q1 = a.hi / b.hi;
    // r = a - q1*b, exactly up to ~2^-72 |a|.
    let p = df64_two_prod(q1, b.hi);
    let pl = df64_two_prod(q1, b.lo);
    let d = a.hi - p.hi; // exact (Sterbenz)
    let s1 = df64_two_sum(d, a.lo);
    let s2 = df64_two_sum(p.lo, pl.hi);
    let r0 = df64_two_diff(s1.hi, s2.hi);
    let r = df64_quick_two_sum(r0.hi, ((s1.lo - s2.lo) + r0.lo) - pl.lo);
    let q2 = r.hi / b.hi;
    // r2 = r - q2*b, needed only to a few bits.
    let p2 = df64_two_prod(q2, b.hi);
    let r2 = ((r.hi - p2.hi) + (r.lo - p2.lo)) - q2 * b.lo;
    let q3 = r2 / b.hi;
    let h = df64_quick_two_sum(q1, q2);
    let lo = h.lo + q3;
    df64_quick_two_sum(h.hi, lo)
}

/// Accurate division without scaling; domain as df64_mul_unscaled.
pub fn df64_div_unscaled(a: Df64, b: Df64) -> Df64 {
    let q1 = a.hi / b.hi;
    // Infinite or NaN quotients, and x / inf (= 0 or NaN), are final as they stand.
    if df64_nonfinite(q1) || df64_nonfinite(b.hi) {
        return Df64::new(q1, 0.0);
    }
    df64_finish(df64_div_core(a, b))
}

/// The fast quotient: the accurate core alone (1 ulp48 over the fast tier's domain).
pub fn df64_div_fast(a: Df64, b: Df64) -> Df64 {
    df64_div_core(a, b)
}

/// Zero, infinite or NaN operands of a division, as IEEE (sign from both operands).
pub(super) fn df64_div_special(a: f32, b: f32) -> Df64 {
    let sign_of = f32::from_bits(a.to_bits() ^ (b.to_bits() & 0x8000_0000));
    let nan = a.is_nan()
        || b.is_nan()
        || (a == 0.0 && b == 0.0)
        || (df64_nonfinite(a) && df64_nonfinite(b));
    if nan {
        Df64::new(f32::NAN, 0.0)
    } else if b == 0.0 || df64_nonfinite(a) {
        Df64::new(f32::INFINITY.copysign(sign_of), 0.0)
    } else {
        Df64::new(df64_signed_zero(sign_of), 0.0)
    }
}

/// Accurate division at every exponent: dividend and divisor scaled to [1, 4), the quotient
/// (in (1/4, 4)) scaled back with one rounding.
pub fn df64_div(a: Df64, b: Df64) -> Df64 {
    if df64_special(a.hi) || df64_special(b.hi) {
        return df64_div_special(a.hi, b.hi);
    }
    let (ea, eb) = (df64_scale_bits(a.hi), df64_scale_bits(b.hi));
    let r = df64_div_core(
        df64_scale_words(a, df64_scale_down(ea)),
        df64_scale_words(b, df64_scale_down(eb)),
    );
    df64_finish(df64_rescale(r, df64_scale_up(ea), df64_scale_down(eb)))
}

/// CPU mirror of `df64_recip` in `glsl/df64.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn df64_recip(a: Df64) -> Df64 {
    df64_div(Df64::ONE, a)
}

/// sqrt of 0, negatives, infinities and NaN as IEEE: ±0 (and a subnormal the driver flushes)
/// -> ±0, x < 0 -> NaN, +inf -> +inf, NaN -> NaN.
pub(super) fn df64_sqrt_special(a: Df64) -> Df64 {
    let x = ftz(a.hi);
    if x == 0.0 {
        Df64::new(df64_signed_zero(x), 0.0)
    } else if x < 0.0 || x.is_nan() {
        Df64::new(f32::NAN, 0.0)
    } else {
        Df64::new(a.hi, 0.0)
    }
}

/// The accurate root's core (`df64_sqrt_core`), for a positive finite a of magnitude 2^-60 to
/// 2^126: a Karp step from the f32 root, then one correction with the residual a - s^2 formed
/// from exact words (two exact products, two TwoSums and an exact cancellation) to about
/// 2^-68 a: about 0.4 ulp48.
pub fn df64_sqrt_core(a: Df64) -> Df64 {
    let y = a.hi.sqrt();
    let p = df64_two_sqr(y);
    let d = ((a.hi - p.hi) - p.lo) + a.lo;
    let s1 = df64_quick_two_sum(y, d / (2.0 * y));
    let p2 = df64_two_sqr(s1.hi);
    let q = df64_two_prod(2.0 * s1.hi, s1.lo);
    let u1 = df64_two_sum(-p2.lo, -q.hi);
    let u2 = df64_two_sum(a.hi - p2.hi, a.lo);
    let r = (u2.hi + u1.hi) + (((u2.lo + u1.lo) - q.lo) - s1.lo * s1.lo);
    let lo = s1.lo + r / (2.0 * s1.hi);
    df64_quick_two_sum(s1.hi, lo)
}

/// Accurate square root without scaling, for a of magnitude 2^-60 to 2^126.
pub fn df64_sqrt_unscaled(a: Df64) -> Df64 {
    if ftz(a.hi) <= 0.0 || df64_nonfinite(a.hi) {
        return df64_sqrt_special(a);
    }
    df64_finish(df64_sqrt_core(a))
}

/// The fast root: the accurate core alone (0.5 ulp48 over the fast tier's domain), and
/// sqrt(±0) = ±0.
pub fn df64_sqrt_fast(a: Df64) -> Df64 {
    if ftz(a.hi) == 0.0 {
        return Df64::new(ftz(a.hi), 0.0);
    }
    df64_sqrt_core(a)
}

/// Accurate square root at every exponent: a scaled by an even power of two to [1, 4), its
/// root scaled back exactly.
pub fn df64_sqrt(a: Df64) -> Df64 {
    if ftz(a.hi) <= 0.0 || df64_nonfinite(a.hi) {
        return df64_sqrt_special(a);
    }
    // The scale's exponent with its lowest bit cleared (even): 2^(126-E) down, 2^((E-126)/2)
    // back, both normal.
    let e = df64_scale_bits(a.hi) & 0x7f00_0000;
    let r = df64_sqrt_core(df64_scale_words(
        a,
        f32::from_bits(0x7e80_0000u32.wrapping_sub(e)),
    ));
    df64_scale_words(r, f32::from_bits((e >> 1) + 0x2000_0000))
}

/// Accurate 1/sqrt(a) at every exponent: the square root of the accurate reciprocal (the root
/// halves the reciprocal's relative error: on 2^22 inputs in (0,1), recip(sqrt(a)) gave 0.97
/// ulp48 max, this 0.55) of a scaled to [1, 4), scaled back exactly.
pub fn df64_rsqrt(a: Df64) -> Df64 {
    if ftz(a.hi) == 0.0 {
        return Df64::new(f32::INFINITY.copysign(a.hi), 0.0);
    }
    if a.hi < 0.0 || df64_nonfinite(a.hi) {
        let r = if a.hi > 0.0 { 0.0 } else { f32::NAN };
        return Df64::new(r, 0.0);
    }
    let k = df64_even_normalizer(a.hi);
    let sa = df64_scale_words(a, df64_pow2(k));
    let r = df64_sqrt_unscaled(df64_div_unscaled(Df64::ONE, sa));
    df64_scale_words(r, df64_pow2(k / 2))
}
