//! Addition, subtraction, multiplication and squaring: the accurate routines at every
//! exponent, their unscaled and core forms, and the fast tier.

use super::*;

/// The accurate sum's core (`df64_add_core`): the four input terms summed error-free down to
/// one final rounding of the low word (about 0.25 ulp48); finite operands. The GLSL's TwoSums
/// (`df64_two_sum_in_add`) are the sorted ones or Knuth's by `DF64_TWO_SUM_KNUTH`: the same
/// words (see [`df64_two_sum_sorted`]), so this mirror serves both.
pub fn df64_add_core(a: Df64, b: Df64) -> Df64 {
    let s = df64_two_sum_sorted(a.hi, b.hi);
    let t = df64_two_sum_sorted(a.lo, b.lo);
    // a + b == s.hi + u.hi + (u.lo + t.lo), the last pair ~2^-48 of the sum.
    let u = df64_two_sum_sorted(s.lo, t.hi);
    let w = u.lo + t.lo;
    // QuickTwoSum is exact here (AccurateDWPlusDW's Fast2Sum(sh, c)).
    let h = df64_quick_two_sum(s.hi, u.hi);
    let lo = h.lo + w;
    df64_quick_two_sum(h.hi, lo)
}

/// Accurate add without scaling: error terms below 2^-126 are lost on flushing drivers, so
/// results under about 2^-77 can miss the bound.
pub fn df64_add_unscaled(a: Df64, b: Df64) -> Df64 {
    let s = a.hi + b.hi;
    if df64_nonfinite(s) {
        return Df64::new(s, 0.0);
    }
    df64_finish(df64_add_core(a, b))
}

/// Accurate add at every exponent: operands both under 2^-40 are lifted by 2^80 (exact) so that
/// no error term falls below f32's normal range, and the sum is brought back with one rounding.
/// Branch-free in GLSL (a factor of 1 otherwise), the same steps here.
pub fn df64_add(a: Df64, b: Df64) -> Df64 {
    let tiny = a.hi.abs().max(b.hi.abs()) < df64_pow2(-40);
    let (up, down) = if tiny {
        (df64_pow2(80), df64_pow2(-80))
    } else {
        (1.0, 1.0)
    };
    let r = df64_add_unscaled(df64_scale_words(a, up), df64_scale_words(b, up));
    let r = df64_scale_words(r, down);
    // -0 + -0 is -0; the error-free sum would give +0.
    if ftz(a.hi) == 0.0 && ftz(b.hi) == 0.0 {
        Df64::new(ftz(a.hi) + ftz(b.hi), 0.0)
    } else {
        r
    }
}

/// CPU mirror of `df64_neg` in `glsl/df64.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn df64_neg(a: Df64) -> Df64 {
    Df64::new(-a.hi, -a.lo)
}

/// CPU mirror of `df64_sub` in `glsl/df64.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn df64_sub(a: Df64, b: Df64) -> Df64 {
    df64_add(a, df64_neg(b))
}

/// CPU mirror of `df64_sub_unscaled` in `glsl/df64.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn df64_sub_unscaled(a: Df64, b: Df64) -> Df64 {
    df64_add_unscaled(a, df64_neg(b))
}

/// Accurate multiply without scaling: the cross products are formed error-free and summed so
/// that only the final low word is rounded (about 0.25 ulp48); the bound holds for operands
/// and results of magnitude 2^-40 to 2^126.
pub fn df64_mul_unscaled(a: Df64, b: Df64) -> Df64 {
    let p = a.hi * b.hi;
    if df64_nonfinite(p) {
        return Df64::new(p, 0.0);
    }
    df64_finish(df64_mul_core(a, b))
}

/// The accurate product's core (`df64_mul_core`): cross products error-free, one rounding of
/// the low word; finite operands brought into range by the caller.
pub fn df64_mul_core(a: Df64, b: Df64) -> Df64 {
    let p = df64_two_prod(a.hi, b.hi);
    let c1 = df64_two_prod(a.hi, b.lo);
    let c2 = df64_two_prod(a.lo, b.hi);
    let t = df64_two_sum(c1.hi, c2.hi);
    let t2 = df64_two_sum(p.lo, t.hi);
    let low = ((t.lo + t2.lo) + (c1.lo + c2.lo)) + a.lo * b.lo;
    let h = df64_quick_two_sum(p.hi, t2.hi);
    let lo = h.lo + low;
    df64_quick_two_sum(h.hi, lo)
}

/// Accurate multiply at every exponent: both operands scaled by exact powers of two (to [1, 2)
/// from 2^-63 to 2^64), multiplied, and the product scaled back with one rounding.
pub fn df64_mul(a: Df64, b: Df64) -> Df64 {
    let (ea, eb) = (df64_product_scale_bits(a.hi), df64_product_scale_bits(b.hi));
    let r = df64_mul_core(
        df64_scale_words(a, df64_scale_down(ea)),
        df64_scale_words(b, df64_scale_down(eb)),
    );
    let t = df64_scale_words(r, df64_scale_up(ea) * df64_scale_up(eb));
    df64_ieee_or(a.hi * b.hi, t)
}

/// Accurate square without scaling (df64_mul_unscaled with a == b, one cross product).
pub fn df64_sqr_unscaled(a: Df64) -> Df64 {
    let p = a.hi * a.hi;
    if df64_nonfinite(p) {
        return Df64::new(p, 0.0);
    }
    df64_finish(df64_sqr_core(a))
}

/// The accurate square's core (`df64_sqr_core`).
pub fn df64_sqr_core(a: Df64) -> Df64 {
    let p = df64_two_sqr(a.hi);
    let c = df64_two_prod(a.hi, a.lo);
    let t2 = df64_two_sum(p.lo, 2.0 * c.hi);
    let low = (t2.lo + 2.0 * c.lo) + a.lo * a.lo;
    let h = df64_quick_two_sum(p.hi, t2.hi);
    let lo = h.lo + low;
    df64_quick_two_sum(h.hi, lo)
}

/// Accurate square at every exponent.
pub fn df64_sqr(a: Df64) -> Df64 {
    let e = df64_product_scale_bits(a.hi);
    let r = df64_sqr_core(df64_scale_words(a, df64_scale_down(e)));
    let t = df64_scale_words(r, df64_scale_up(e) * df64_scale_up(e));
    df64_ieee_or(a.hi * a.hi, t)
}

/// a * b for an f32 b, accurate at every exponent.
pub fn df64_mul_f32(a: Df64, b: f32) -> Df64 {
    let (ea, eb) = (df64_product_scale_bits(a.hi), df64_product_scale_bits(b));
    let r = df64_mul_f32_core(
        df64_scale_words(a, df64_scale_down(ea)),
        b * df64_scale_down(eb),
    );
    let t = df64_scale_words(r, df64_scale_up(ea) * df64_scale_up(eb));
    df64_ieee_or(a.hi * b, t)
}

/// a * b for an f32 b, accurate, without scaling (domain as df64_mul_unscaled).
pub fn df64_mul_f32_unscaled(a: Df64, b: f32) -> Df64 {
    let p = a.hi * b;
    if df64_nonfinite(p) {
        return Df64::new(p, 0.0);
    }
    df64_finish(df64_mul_f32_core(a, b))
}

/// a * b for an f32 b: the core (`df64_mul_f32_core`), for operands the caller has brought
/// into range.
pub fn df64_mul_f32_core(a: Df64, b: f32) -> Df64 {
    let p = df64_two_prod(a.hi, b);
    let c = df64_two_prod(a.lo, b);
    let t2 = df64_two_sum(p.lo, c.hi);
    let low = t2.lo + c.lo;
    let h = df64_quick_two_sum(p.hi, t2.hi);
    let lo = h.lo + low;
    df64_quick_two_sum(h.hi, lo)
}

/// The fast add: the accurate core alone, no scaling and no special values (0.5 ulp48 for
/// operands and results of magnitude 2^-40 to 2^126 or zero).
pub fn df64_add_fast(a: Df64, b: Df64) -> Df64 {
    df64_add_core(a, b)
}

/// The fast subtract (the fast add of -b).
pub fn df64_sub_fast(a: Df64, b: Df64) -> Df64 {
    df64_add_fast(a, df64_neg(b))
}

/// The fast multiply (within 2 ulp48 for operands and results of magnitude 2^-40 to 2^126 or
/// zero; no scaling, no special values): the high words' product error-free, the cross products
/// rounded once each (each at most 0.5 ulp48 of the result), the rest summed error-free down to
/// the final rounding of the low word (0.5 ulp48): 1.5 at most, bound 2.
pub fn df64_mul_fast(a: Df64, b: Df64) -> Df64 {
    let p = df64_two_prod(a.hi, b.hi);
    let t = df64_two_sum(a.hi * b.lo, a.lo * b.hi);
    let t2 = df64_two_sum(p.lo, t.hi);
    let low = (t.lo + t2.lo) + a.lo * b.lo;
    let h = df64_quick_two_sum(p.hi, t2.hi);
    let lo = h.lo + low;
    df64_quick_two_sum(h.hi, lo)
}

/// The fast square: the one cross product 2 a.hi a.lo rounded once (at most 1 ulp48), the rest
/// as [`df64_mul_fast`].
pub fn df64_sqr_fast(a: Df64) -> Df64 {
    let p = df64_two_sqr(a.hi);
    let c = (2.0 * a.hi) * a.lo;
    let t2 = df64_two_sum(p.lo, c);
    let low = t2.lo + a.lo * a.lo;
    let h = df64_quick_two_sum(p.hi, t2.hi);
    let lo = h.lo + low;
    df64_quick_two_sum(h.hi, lo)
}

/// The fast product with an f32: a.lo b rounded once (at most 0.5 ulp48), the rest as
/// [`df64_mul_fast`].
pub fn df64_mul_f32_fast(a: Df64, b: f32) -> Df64 {
    let p = df64_two_prod(a.hi, b);
    let t2 = df64_two_sum(p.lo, a.lo * b);
    let h = df64_quick_two_sum(p.hi, t2.hi);
    let lo = h.lo + t2.lo;
    df64_quick_two_sum(h.hi, lo)
}

/// a * 2^n, exact unless it overflows or underflows (GLSL: `ldexp` on each word).
pub fn df64_ldexp(a: Df64, n: i32) -> Df64 {
    // Zero stays zero for every n (an f64 2^n overflows to infinity past 1023); a subnormal
    // is zero where the driver flushes.
    let f = |x: f32| {
        let x = ftz(x);
        if x == 0.0 {
            x
        } else {
            (x as f64 * 2f64.powi(n)) as f32
        }
    };
    // An overflow is (±inf, 0), as every routine returns it.
    df64_finish(Df64::new(f(a.hi), f(a.lo)))
}
