//! The published algorithms, as published: Thall's (2007), QD's sloppy add, Da Graca and
//! Defour's Add22 and Mul22. The engine does not run them; the accuracy tables compare the
//! engine's routines with them.

use super::*;

/// Thall's df64_add (QD's IEEE add, Joldes-Muller-Popescu AccurateDWPlusDW), as published.
pub fn df64_add_thall(a: Df64, b: Df64) -> Df64 {
    let mut s = df64_two_sum(a.hi, b.hi);
    let t = df64_two_sum(a.lo, b.lo);
    s.lo += t.hi;
    s = df64_quick_two_sum(s.hi, s.lo);
    s.lo += t.lo;
    df64_quick_two_sum(s.hi, s.lo)
}

/// The sloppy add (QD's sloppy_add): one TwoSum, no bound when a and b nearly cancel.
pub fn df64_add_sloppy(a: Df64, b: Df64) -> Df64 {
    let s = df64_two_sum(a.hi, b.hi);
    let e = s.lo + (a.lo + b.lo);
    df64_quick_two_sum(s.hi, e)
}

/// Da Graca and Defour's Add22 (their Theorem 5), for their Table 5.
pub fn df64_add_dagraca(a: Df64, b: Df64) -> Df64 {
    let r = a.hi + b.hi;
    let s = if a.hi.abs() >= b.hi.abs() {
        (((a.hi - r) + b.hi) + b.lo) + a.lo
    } else {
        (((b.hi - r) + a.hi) + a.lo) + b.lo
    };
    df64_two_sum(r, s)
}

/// CPU mirror of `df64_sub_thall` in `glsl/df64.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn df64_sub_thall(a: Df64, b: Df64) -> Df64 {
    df64_add_thall(a, df64_neg(b))
}

/// Thall's df64_mult, as published.
pub fn df64_mul_thall(a: Df64, b: Df64) -> Df64 {
    let mut p = df64_two_prod(a.hi, b.hi);
    p.lo += a.hi * b.lo;
    p.lo += a.lo * b.hi;
    df64_quick_two_sum(p.hi, p.lo)
}

/// Da Graca and Defour's Mul22 (Dekker's), for their Table 5.
pub fn df64_mul_dagraca(a: Df64, b: Df64) -> Df64 {
    let t = df64_two_prod(a.hi, b.hi);
    let t3 = ((a.hi * b.lo) + (a.lo * b.hi)) + t.lo;
    df64_two_sum(t.hi, t3)
}

/// Thall's df64_sqr.
pub fn df64_sqr_thall(a: Df64) -> Df64 {
    let mut p = df64_two_sqr(a.hi);
    p.lo += 2.0 * a.hi * a.lo;
    df64_quick_two_sum(p.hi, p.lo)
}

/// Thall's Karp division (Fig. 1): one f32 reciprocal, one df64 product, mixed-precision rest.
pub fn df64_div_thall(b: Df64, a: Df64) -> Df64 {
    let xn = 1.0 / a.hi;
    let yn = b.hi * xn;
    let diff = df64_sub_thall(b, df64_mul_thall(a, Df64::new(yn, 0.0))).hi;
    let prod = df64_two_prod(xn, diff);
    df64_add_thall(Df64::new(yn, 0.0), prod)
}

/// CPU mirror of `df64_recip_thall` in `glsl/df64.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn df64_recip_thall(a: Df64) -> Df64 {
    df64_div_thall(Df64::ONE, a)
}

/// Thall's Karp square root (Fig. 1). `inversesqrt` is mirrored as `1/sqrt`, which is what a
/// correctly rounding driver gives; drivers with an approximate `inversesqrt` differ here.
pub fn df64_sqrt_thall(a: Df64) -> Df64 {
    if ftz(a.hi) <= 0.0 || df64_nonfinite(a.hi) {
        return df64_sqrt_special(a);
    }
    let xn = 1.0 / a.hi.sqrt();
    let yn = a.hi * xn;
    let ynsqr = df64_sqr_thall(Df64::new(yn, 0.0));
    let diff = df64_sub_thall(a, ynsqr).hi;
    let p = df64_two_prod(xn, diff);
    let prod = Df64::new(p.hi * 0.5, p.lo * 0.5);
    df64_add_thall(Df64::new(yn, 0.0), prod)
}

/// Thall-style rsqrt: Karp reciprocal of the Karp square root.
pub fn df64_rsqrt_thall(a: Df64) -> Df64 {
    df64_recip_thall(df64_sqrt_thall(a))
}
