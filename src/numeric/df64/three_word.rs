//! Sums carried in three words (an accumulator, its rounding to df64, its square root) and the
//! hypotenuse built on them.

use super::*;

/// CPU mirror of `df64_acc3`: exact running sum in three words: the third absorbs roundings ~2^-72 below the first.
pub(crate) fn df64_acc3(a: [f32; 3], t: f32) -> [f32; 3] {
    let s0 = df64_two_sum(a[0], t);
    let s1 = df64_two_sum(a[1], s0.lo);
    [s0.hi, s1.hi, a[2] + s1.lo]
}

/// CPU mirror of `df64_round3`: a three-word sum (from [`df64_acc3`]) rounded once to a df64.
pub(crate) fn df64_round3(a: [f32; 3]) -> Df64 {
    let h = df64_two_sum(a[0], a[1]);
    df64_quick_two_sum(h.hi, h.lo + a[2])
}

/// CPU mirror of `df64_sqrt3`: sqrt(w) for a three-word w > 0 whose root lies in [2^-30, 2^30]:
/// the accurate df64 root s and (w - s^2) / 2s, the remainder formed with exact products, as a
/// third word.
pub(crate) fn df64_sqrt3(w: [f32; 3]) -> [f32; 3] {
    let s = df64_sqrt(Df64::new(w[0], w[1]));
    if ftz(s.hi) == 0.0 {
        return [s.hi, 0.0, 0.0];
    }
    let p = df64_two_prod(s.hi, s.hi);
    let q = df64_two_prod(2.0 * s.hi, s.lo);
    let mut r = w;
    for v in [p.hi, p.lo, q.hi, q.lo, s.lo * s.lo] {
        r = df64_acc3(r, -v);
    }
    [s.hi, s.lo, ((r[0] + r[1]) + r[2]) / (2.0 * s.hi)]
}

/// CPU mirror of `df64_hypot` in `glsl/df64.glsl`: sqrt(a^2 + b^2) at every exponent (1 ulp48),
/// both operands scaled by the power of two that brings the larger to [1, 4), the squares
/// summed in three words from exact products, rooted to three words and rounded once.
pub fn df64_hypot(a: Df64, b: Df64) -> Df64 {
    let (a, b) = (df64_abs(a), df64_abs(b));
    if a.hi.is_infinite() || b.hi.is_infinite() {
        return Df64::new(f32::INFINITY, 0.0);
    }
    if a.hi.is_nan() || b.hi.is_nan() {
        return Df64::new(f32::NAN, 0.0);
    }
    let (big, small) = if df64_lt(a, b) { (b, a) } else { (a, b) };
    let apart = df64_biased_exponent(big.hi) - df64_biased_exponent(small.hi);
    if ftz(big.hi) == 0.0 || apart > 60 {
        return big;
    }
    let k = df64_normalizer(big.hi);
    let sb = df64_scale_words(big, df64_pow2(k));
    let ss = df64_scale_words(small, df64_pow2(k));
    let p = df64_two_prod(sb.hi, sb.hi);
    let q = df64_two_prod(2.0 * sb.hi, sb.lo);
    let u = df64_two_prod(ss.hi, ss.hi);
    let v = df64_two_prod(2.0 * ss.hi, ss.lo);
    let mut w = [p.hi, p.lo, 0.0];
    for t in [
        u.hi,
        q.hi,
        v.hi,
        u.lo,
        q.lo,
        v.lo,
        sb.lo * sb.lo + ss.lo * ss.lo,
    ] {
        w = df64_acc3(w, t);
    }
    df64_scale(df64_round3(df64_sqrt3(w)), -k)
}
