//! The error-free transforms (mirrors of `df64.glsl`'s): TwoSum, QuickTwoSum, TwoDiff,
//! Dekker's split and TwoProduct (on Veltkamp's split, the bit split, or a fused multiply-add),
//! and the finishing step that lets an overflow stay infinite.

use super::*;

/// CPU mirror of `df64_from_f32` in `glsl/df64.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn df64_from_f32(a: f32) -> Df64 {
    Df64::new(a, 0.0)
}

/// CPU mirror of `df64_to_f32` in `glsl/df64.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn df64_to_f32(a: Df64) -> f32 {
    a.hi + a.lo
}

/// `|a| >= |b|` (or a == 0): s + e == a + b exactly.
pub fn df64_quick_two_sum(a: f32, b: f32) -> Df64 {
    let s = a + b;
    let e = b - (s - a);
    Df64::new(s, e)
}

/// Knuth's TwoSum: s + e == a + b exactly, for any a, b.
pub fn df64_two_sum(a: f32, b: f32) -> Df64 {
    let s = a + b;
    let v = s - a;
    let e = (a - (s - v)) + (b - v);
    Df64::new(s, e)
}

/// TwoSum by magnitude: the operands ordered by one comparison, then QuickTwoSum (exact, as
/// |big| >= |small|) with its error term as `small + (big - s)`: the same s and e as
/// [`df64_two_sum`] bit for bit, a zero e's sign included (both give +0 there; QuickTwoSum's
/// `small - (s - big)` gives -0 where small is -0), so which of the two a driver runs is a
/// matter of its cost alone.
pub fn df64_two_sum_sorted(a: f32, b: f32) -> Df64 {
    let swap = b.abs() > a.abs();
    let (big, small) = if swap { (b, a) } else { (a, b) };
    let s = big + small;
    let e = small + (big - s);
    Df64::new(s, e)
}

/// s + e == a - b exactly.
pub fn df64_two_diff(a: f32, b: f32) -> Df64 {
    let s = a - b;
    let v = s - a;
    let e = (a - (s - v)) - (b + v);
    Df64::new(s, e)
}

/// Dekker's split into two 12-bit halves, scaled around 2^112 so that `4097 * a` cannot overflow.
pub fn df64_split(a: f32) -> Df64 {
    if a.abs() > SPLIT_THRESHOLD {
        let s = a * SPLIT_DOWN;
        let t = 4097.0 * s;
        let hi = t - (t - s);
        let lo = s - hi;
        Df64::new(hi * SPLIT_UP, lo * SPLIT_UP)
    } else {
        let t = 4097.0 * a;
        let hi = t - (t - a);
        let lo = a - hi;
        Df64::new(hi, lo)
    }
}

/// Dekker/Veltkamp TwoProduct from Veltkamp's splits (the probe's and Thall's version):
/// p + e == a * b exactly (barring underflow).
pub fn df64_two_prod_dekker(a: f32, b: f32) -> Df64 {
    let p = a * b;
    let sa = df64_split(a);
    let sb = df64_split(b);
    let e = ((sa.hi * sb.hi - p) + sa.hi * sb.lo + sa.lo * sb.hi) + sa.lo * sb.lo;
    Df64::new(p, e)
}

/// CPU mirror of `df64_split_bits`: a rounded to its 12 leading bits by an integer add and
/// mask, and the exact rest. Exact for |a| < (2 - 2^-12) 2^127; above, hi rounds up to inf.
pub fn df64_split_bits(a: f32) -> Df64 {
    let hi = f32::from_bits(a.to_bits().wrapping_add(0x800) & 0xffff_f000);
    Df64::new(hi, a - hi)
}

/// CPU mirror of `df64_two_prod_bits`: Dekker's TwoProduct on the bit split, for |a|, |b| < 2^127.
pub fn df64_two_prod_bits(a: f32, b: f32) -> Df64 {
    let p = a * b;
    let sa = df64_split_bits(a);
    let sb = df64_split_bits(b);
    let e = (((sa.hi * sb.hi - p) + sa.hi * sb.lo) + sa.lo * sb.hi) + sa.lo * sb.lo;
    Df64::new(p, e)
}

/// TwoProduct with a fused multiply-add: exact only where the hardware fuses. `mul_add` may
/// run in software, outside the SSE flush mode, so its operands and result are read as a
/// flushing GPU reads them.
pub fn df64_two_prod_fma(a: f32, b: f32) -> Df64 {
    let p = a * b;
    let e = ftz(ftz(a).mul_add(ftz(b), -p));
    Df64::new(p, e)
}

/// The engine's TwoProduct, as the program under test was built: fused where the mirror runs
/// inside `fpenv::with_fused_two_prod(true, ..)`, Dekker's on the bit split otherwise. The two
/// give the same pair wherever both are exact; they differ above 2^127 and below 2^-126.
pub fn df64_two_prod(a: f32, b: f32) -> Df64 {
    if fused_two_prod() {
        df64_two_prod_fma(a, b)
    } else {
        df64_two_prod_bits(a, b)
    }
}

/// p + e == a * a exactly, for |a| < 2^127.
pub fn df64_two_sqr(a: f32) -> Df64 {
    let p = a * a;
    let s = df64_split_bits(a);
    let e = ((s.hi * s.hi - p) + 2.0 * s.hi * s.lo) + s.lo * s.lo;
    Df64::new(p, e)
}

/// Infinite or NaN, from the bits (as the GLSL does, where some compilers fold `isinf` away).
pub(crate) fn df64_nonfinite(x: f32) -> bool {
    x.to_bits() & 0x7f80_0000 == 0x7f80_0000
}

/// Returns (hi, 0) when hi overflowed or is NaN, so results follow IEEE: inf stays inf.
pub(crate) fn df64_finish(r: Df64) -> Df64 {
    if df64_nonfinite(r.hi) {
        Df64::new(r.hi, 0.0)
    } else {
        r
    }
}
