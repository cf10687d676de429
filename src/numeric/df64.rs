//! CPU mirror of `glsl/df64.glsl`: the same algorithms, step for step, in f32 arithmetic.
//!
//! Rust evaluates f32 expressions exactly as written (no reassociation, no FMA contraction),
//! so on a driver whose f32 `+ - * / sqrt` round to nearest, the GPU results equal these bit
//! for bit. Function names match the GLSL ones.
//!
//! Length: one Rust function per GLSL routine of `df64.glsl` (about 500 lines), kept in one
//! file so the two read side by side, plus the mirror's own unit tests.

use bytemuck::{Pod, Zeroable};

use super::df64_consts::TWO_OVER_PI_DIGITS;
use super::fpenv::{ftz, fused_two_prod};
use serde::{Deserialize, Serialize};

/// A double-float: the unevaluated sum `hi + lo` with `|lo| <= ulp(hi)/2`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable, Serialize, Deserialize)]
pub struct Df64 {
    /// The high word: the value rounded to f32.
    pub hi: f32,
    /// The low word: the rest, |lo| <= ulp(hi) / 2.
    pub lo: f32,
}

/// A complex df64, laid out as one RGBA32F texel `[re_hi, re_lo, im_hi, im_lo]`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable, Serialize, Deserialize)]
pub struct ComplexDf64 {
    /// Real part.
    pub re: Df64,
    /// Imaginary part.
    pub im: Df64,
}

impl Df64 {
    /// 0.
    pub const ZERO: Df64 = Df64 { hi: 0.0, lo: 0.0 };
    /// 1.
    pub const ONE: Df64 = Df64 { hi: 1.0, lo: 0.0 };

    /// The pair as given (not renormalised).
    pub const fn new(hi: f32, lo: f32) -> Self {
        Df64 { hi, lo }
    }

    /// The nearest df64 to `x`: `hi = fl32(x)`, `lo = fl32(x - hi)` (`x - hi` is exact in f64).
    pub fn from_f64(x: f64) -> Self {
        let hi = x as f32;
        if !hi.is_finite() {
            return Df64 { hi, lo: 0.0 };
        }
        let lo = (x - hi as f64) as f32;
        Df64 { hi, lo }
    }

    /// `hi + lo` rounded to f64 (exact when the two terms are within 29 binades of each other).
    pub fn to_f64(self) -> f64 {
        self.hi as f64 + self.lo as f64
    }

    /// An f32, exactly.
    pub fn from_f32(x: f32) -> Self {
        df64_from_f32(x)
    }

    /// Rounded to f32 (hi + lo).
    pub fn to_f32(self) -> f32 {
        df64_to_f32(self)
    }

    /// Both words finite.
    pub fn is_finite(self) -> bool {
        self.hi.is_finite() && self.lo.is_finite()
    }
}

impl ComplexDf64 {
    /// From its parts.
    pub fn new(re: Df64, im: Df64) -> Self {
        ComplexDf64 { re, im }
    }

    /// From f64 parts, each split into two words.
    pub fn from_f64(re: f64, im: f64) -> Self {
        ComplexDf64 {
            re: Df64::from_f64(re),
            im: Df64::from_f64(im),
        }
    }
}

/// `DF64_SPLIT_THRESHOLD` in GLSL: above 2^112, `4097 * a` could overflow, so split scales first.
pub const SPLIT_THRESHOLD: f32 = 5.192_297e33; // 2^112
const SPLIT_DOWN: f32 = 6.103_515_6e-5; // 2^-14
const SPLIT_UP: f32 = 16384.0; // 2^14

// ---------------------------------------------------------------- error-free transforms

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

// ---------------------------------------------------------------- exponent scaling

/// 2^k for -126 <= k <= 127, exactly, from its bits.
pub fn df64_pow2(k: i32) -> f32 {
    f32::from_bits(((k + 127) << 23) as u32)
}

/// The biased exponent field of x: 0 for zero and subnormals, 255 for inf and NaN.
pub fn df64_biased_exponent(x: f32) -> i32 {
    ((x.to_bits() >> 23) & 0xff) as i32
}

/// k such that x * 2^k has magnitude in [1, 4): x nonzero and finite (a subnormal counts as
/// 2^-126).
pub fn df64_normalizer(x: f32) -> i32 {
    (127 - df64_biased_exponent(x).max(1)).max(-126)
}

/// 2m such that x * 2^(2m) has magnitude in [1, 4): even, so a root scales back exactly.
pub fn df64_even_normalizer(x: f32) -> i32 {
    -2 * ((df64_biased_exponent(x).max(1) - 127) >> 1)
}

/// ±0 with the sign of x.
fn df64_signed_zero(x: f32) -> f32 {
    f32::from_bits(x.to_bits() & 0x8000_0000)
}

/// Both words times `f` (exact for a power of two, barring overflow and underflow).
pub fn df64_scale_words(a: Df64, f: f32) -> Df64 {
    Df64::new(a.hi * f, a.lo * f)
}

/// r * 2^n for a result of a scaled core (|r.hi| in [2^-3, 2^5]) and any n: the first factor
/// keeps the high word normal, the second rounds it once, so it is exact unless the result
/// overflows (then (±inf, 0)) or underflows (then ±0, or the low word flushed or rounded).
pub fn df64_scale(r: Df64, n: i32) -> Df64 {
    let n1 = n.clamp(-120, 120);
    let s = df64_scale_words(r, df64_pow2(n1));
    df64_finish(df64_scale_words(s, df64_pow2((n - n1).clamp(-126, 127))))
}

/// The smallest normal f32, 2^-126.
const DF64_MIN_NORMAL: f32 = f32::MIN_POSITIVE;
/// 2^126.
const DF64_POW2_126: f32 = 8.507_059e37;

/// CPU mirror of `df64_scale_bits`: the bits of 2^(E-127) for x's biased exponent E taken in
/// [1, 253] (zero and subnormals as 2^-126, magnitudes from 2^127 as 2^126), from a clamp of
/// |x| and a mask (a NaN gives the bits of +inf; its caller's result is the special one).
pub fn df64_scale_bits(x: f32) -> u32 {
    x.abs().clamp(DF64_MIN_NORMAL, DF64_POW2_126).to_bits() & 0x7f80_0000
}

/// 2^-63 and 2^63: the range of `df64_product_scale_bits`.
const DF64_POW2_M63: f32 = 1.084_202_2e-19;
const DF64_POW2_63: f32 = 9.223_372e18;

/// CPU mirror of `df64_product_scale_bits`: as `df64_scale_bits` with E taken in [64, 190]
/// (2^-63 to 2^63), so that the product of two scales is a normal f32.
pub fn df64_product_scale_bits(x: f32) -> u32 {
    x.abs().clamp(DF64_POW2_M63, DF64_POW2_63).to_bits() & 0x7f80_0000
}

/// 2^(E-127) for `df64_scale_bits`' bits.
pub fn df64_scale_up(bits: u32) -> f32 {
    f32::from_bits(bits)
}

/// 2^(127-E) for `df64_scale_bits`' bits (wrapping as the GLSL's int arithmetic does).
pub fn df64_scale_down(bits: u32) -> f32 {
    f32::from_bits(0x7f00_0000u32.wrapping_sub(bits))
}

/// CPU mirror of `df64_rescale`: r * f * g for powers of two f, g from 2^-126 to 2^126, one
/// rounding of the high word; outside the normal range through 2^64 f g and then 2^-64 (or
/// 2^-64 f g and then 2^64).
pub fn df64_rescale(r: Df64, f: f32, g: f32) -> Df64 {
    const UP: f32 = 1.844_674_4e19;
    const DOWN: f32 = 5.421_011e-20;
    let fg = f * g;
    let (f1, f2) = if fg < DF64_MIN_NORMAL {
        ((f * UP) * g, DOWN)
    } else if fg > DF64_POW2_126 {
        ((f * DOWN) * g, UP)
    } else {
        (fg, 1.0)
    };
    df64_scale_words(df64_scale_words(r, f1), f2)
}

/// Zero, infinite or NaN, from the bits in one unsigned compare (a flushed subnormal result
/// is zero already).
pub fn df64_ieee_special(x: f32) -> bool {
    (x.to_bits() & 0x7fff_ffff).wrapping_sub(1) >= 0x7f7f_ffff
}

/// CPU mirror of `df64_ieee_or`: (x, 0) where x, the high words' IEEE result, is zero,
/// infinite or NaN; otherwise r, (±inf, 0) where r overflowed.
pub fn df64_ieee_or(x: f32, r: Df64) -> Df64 {
    if df64_ieee_special(x) {
        Df64::new(x, 0.0)
    } else {
        df64_finish(r)
    }
}

/// Zero (or a flushed subnormal), infinite or NaN.
pub fn df64_special(x: f32) -> bool {
    ftz(x) == 0.0 || df64_nonfinite(x)
}

// ---------------------------------------------------------------- addition

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

/// CPU mirror of `df64_sub_thall` in `glsl/df64.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn df64_sub_thall(a: Df64, b: Df64) -> Df64 {
    df64_add_thall(a, df64_neg(b))
}

// ---------------------------------------------------------------- multiplication

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

/// Thall's df64_sqr.
pub fn df64_sqr_thall(a: Df64) -> Df64 {
    let mut p = df64_two_sqr(a.hi);
    p.lo += 2.0 * a.hi * a.lo;
    df64_quick_two_sum(p.hi, p.lo)
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

// ---------------------------------------------------------------- the fast tier

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

// ---------------------------------------------------------------- division

/// Thall's Karp division (Fig. 1): one f32 reciprocal, one df64 product, mixed-precision rest.
pub fn df64_div_thall(b: Df64, a: Df64) -> Df64 {
    let xn = 1.0 / a.hi;
    let yn = b.hi * xn;
    let diff = df64_sub_thall(b, df64_mul_thall(a, Df64::new(yn, 0.0))).hi;
    let prod = df64_two_prod(xn, diff);
    df64_add_thall(Df64::new(yn, 0.0), prod)
}

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
fn df64_div_special(a: f32, b: f32) -> Df64 {
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

/// CPU mirror of `df64_recip_thall` in `glsl/df64.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn df64_recip_thall(a: Df64) -> Df64 {
    df64_div_thall(Df64::ONE, a)
}

// ---------------------------------------------------------------- square root

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

/// sqrt of 0, negatives, infinities and NaN as IEEE: ±0 (and a subnormal the driver flushes)
/// -> ±0, x < 0 -> NaN, +inf -> +inf, NaN -> NaN.
fn df64_sqrt_special(a: Df64) -> Df64 {
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

/// Thall-style rsqrt: Karp reciprocal of the Karp square root.
pub fn df64_rsqrt_thall(a: Df64) -> Df64 {
    df64_recip_thall(df64_sqrt_thall(a))
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

// ---------------------------------------------------------------- comparisons and friends

/// CPU mirror of `df64_eq` in `glsl/df64.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn df64_eq(a: Df64, b: Df64) -> bool {
    a.hi == b.hi && a.lo == b.lo
}

/// CPU mirror of `df64_neq` in `glsl/df64.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn df64_neq(a: Df64, b: Df64) -> bool {
    !(a.hi == b.hi && a.lo == b.lo)
}

/// CPU mirror of `df64_lt` in `glsl/df64.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn df64_lt(a: Df64, b: Df64) -> bool {
    a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo)
}

/// CPU mirror of `df64_le` in `glsl/df64.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn df64_le(a: Df64, b: Df64) -> bool {
    a.hi < b.hi || (a.hi == b.hi && a.lo <= b.lo)
}

/// CPU mirror of `df64_gt` in `glsl/df64.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn df64_gt(a: Df64, b: Df64) -> bool {
    a.hi > b.hi || (a.hi == b.hi && a.lo > b.lo)
}

/// CPU mirror of `df64_ge` in `glsl/df64.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn df64_ge(a: Df64, b: Df64) -> bool {
    a.hi > b.hi || (a.hi == b.hi && a.lo >= b.lo)
}

/// CPU mirror of `df64_abs` in `glsl/df64.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn df64_abs(a: Df64) -> Df64 {
    if a.hi < 0.0 {
        df64_neg(a)
    } else {
        Df64::new(a.hi.abs(), a.lo)
    }
}

// ---------------------------------------------------------------- three-word sums

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

// ---------------------------------------------------------------- Payne and Hanek's reduction

fn two_over_pi_digit(i: i32) -> i32 {
    if (1..=32).contains(&i) {
        TWO_OVER_PI_DIGITS[(i - 1) as usize]
    } else {
        0
    }
}

/// Digits of the long reduction's accumulator: digit 0 the integer part, 1 to 20 the fraction.
const LONG_DIGITS: usize = 21;

/// CPU mirror of `df64_reduce_long` in `glsl/df64.glsl`: Payne and Hanek's reduction in
/// integer arithmetic. For x the sum of the first `words` words of `w` (`w[0]` the largest,
/// nonzero and finite): |x| 2/pi = n + f with n an integer and |f| <= 1/2; returns (n mod 4,
/// f) signed as x (x 2/pi = -n - f for a negative x), f = (sum of the five words) 2^f_exp,
/// each word exact (the first an integer of 13 to 24 bits; together within 2^(f_exp - 96) +
/// 2^-224 of f, at least 108 bits of it).
/// Integer operations wrap as GLSL's do (no input makes them: every column stays below 2^28).
pub fn df64_reduce_long(w: [f32; 4], words: usize) -> (i32, [f32; 5], i32) {
    let mut acc = [0i32; LONG_DIGITS];
    let neg = w[0] < 0.0;
    for &x in w.iter().take(words) {
        let bits = x.to_bits() as i32;
        let be = (bits >> 23) & 0xff;
        if x == 0.0 || be == 0xff {
            continue;
        }
        let m = (bits & 0x7f_ffff) | if be == 0 { 0 } else { 0x80_0000 };
        let e = be.max(1) - 150;
        // x = m 2^e = m 2^s 4096^q with 0 <= s < 12, and m 2^s < 2^36 in three digits.
        let q = (e + 1200) / 12 - 100;
        let s = e - 12 * q;
        let low = (m & 0xfff) << s;
        let high = (m >> 12) << s;
        let m0 = low & 0xfff;
        let m1 = (low >> 12) + (high & 0xfff);
        let m2 = high >> 12;
        let sg = if (x < 0.0) != neg { -1 } else { 1 };
        // The window of 2/pi this word needs, read once.
        let d: [i32; LONG_DIGITS + 2] = std::array::from_fn(|i| two_over_pi_digit(q + i as i32));
        for (p, a) in acc.iter_mut().enumerate() {
            let column = m0
                .wrapping_mul(d[p])
                .wrapping_add(m1.wrapping_mul(d[p + 1]))
                .wrapping_add(m2.wrapping_mul(d[p + 2]));
            *a = a.wrapping_add(sg * column);
        }
    }
    // Carries, low to high (the bias makes the shift a floor division).
    for p in (1..LONG_DIGITS).rev() {
        let c = (acc[p].wrapping_add(0x4000_0000) >> 12) - 0x4_0000;
        acc[p] = acc[p].wrapping_sub(c.wrapping_mul(4096));
        acc[p - 1] = acc[p - 1].wrapping_add(c);
    }
    let mut n = acc[0].wrapping_add(0x4000_0000) & 3;
    let mut sign = if neg { -1.0f32 } else { 1.0 };
    if acc[1] >= 2048 {
        // f >= 1/2: n + 1, and f - 1 = -(1 - f), the fraction's digits negated.
        n = (n + 1) & 3;
        sign = -sign;
        let mut carry = 1;
        for d in acc[1..].iter_mut().rev() {
            let v = 4095 - *d + carry;
            carry = v >> 12;
            *d = v & 0xfff;
        }
    }
    // The fraction's digits shifted until the first is nonzero (at most 19 places), paired
    // into words scaled by 2^(12 lead + 24).
    let mut digits = [0i32; LONG_DIGITS - 1];
    digits.copy_from_slice(&acc[1..]);
    let mut lead = 0;
    for _ in 0..19 {
        if digits[0] == 0 {
            digits.rotate_left(1);
            digits[LONG_DIGITS - 2] = 0;
            lead += 1;
        }
    }
    const SCALE: [f32; 5] = [
        1.0,
        5.960_464_5e-8,
        3.552_713_7e-15,
        2.117_582_4e-22,
        1.262_177_5e-29,
    ];
    let mut out = [0.0f32; 5];
    for (t, word) in out.iter_mut().enumerate() {
        let pair = digits[2 * t] * 4096 + digits[2 * t + 1];
        *word = (sign * pair as f32) * SCALE[t];
    }
    let n = if neg { (4 - n) & 3 } else { n };
    (n, out, -12 * lead - 24)
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

/// CPU mirror of `df64_min` in `glsl/df64.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn df64_min(a: Df64, b: Df64) -> Df64 {
    if df64_lt(b, a) {
        b
    } else {
        a
    }
}

/// CPU mirror of `df64_max` in `glsl/df64.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn df64_max(a: Df64, b: Df64) -> Df64 {
    if df64_gt(b, a) {
        b
    } else {
        a
    }
}

// ---------------------------------------------------------------- complex

/// CPU mirror of `cdf64_add` in `glsl/df64.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn cdf64_add(a: ComplexDf64, b: ComplexDf64) -> ComplexDf64 {
    ComplexDf64::new(df64_add(a.re, b.re), df64_add(a.im, b.im))
}

/// CPU mirror of `cdf64_sub` in `glsl/df64.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn cdf64_sub(a: ComplexDf64, b: ComplexDf64) -> ComplexDf64 {
    ComplexDf64::new(df64_sub(a.re, b.re), df64_sub(a.im, b.im))
}

/// CPU mirror of `cdf64_mul` in `glsl/df64.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn cdf64_mul(a: ComplexDf64, b: ComplexDf64) -> ComplexDf64 {
    ComplexDf64::new(
        df64_sub(df64_mul(a.re, b.re), df64_mul(a.im, b.im)),
        df64_add(df64_mul(a.re, b.im), df64_mul(a.im, b.re)),
    )
}

impl std::ops::Add for Df64 {
    type Output = Df64;
    fn add(self, rhs: Df64) -> Df64 {
        df64_add(self, rhs)
    }
}

impl std::ops::Sub for Df64 {
    type Output = Df64;
    fn sub(self, rhs: Df64) -> Df64 {
        df64_sub(self, rhs)
    }
}

impl std::ops::Mul for Df64 {
    type Output = Df64;
    fn mul(self, rhs: Df64) -> Df64 {
        df64_mul(self, rhs)
    }
}

impl std::ops::Div for Df64 {
    type Output = Df64;
    fn div(self, rhs: Df64) -> Df64 {
        df64_div(self, rhs)
    }
}

impl std::ops::Neg for Df64 {
    type Output = Df64;
    fn neg(self) -> Df64 {
        df64_neg(self)
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::numeric::mirror_suite as suite;
    use crate::numeric::oracle::big;

    /// f32 pairs of every relation: equal exponents, far apart, opposite signs, ties.
    fn pairs(n: usize) -> Vec<(f32, f32)> {
        let mut rng = ChaCha8Rng::seed_from_u64(2007);
        let mut v = vec![(1.0, 2f32.powi(-24)), (1.0, -2f32.powi(-25)), (3.0, 3.0)];
        v.extend((0..n).map(|_| {
            let a = rng.gen_range(-1.0f32..1.0) * 2f32.powi(rng.gen_range(-30..30));
            let b = rng.gen_range(-1.0f32..1.0) * 2f32.powi(rng.gen_range(-30..30));
            (a, b)
        }));
        v
    }

    /// The engine picks Knuth's TwoSum or the sorted one per driver by cost alone, so the two
    /// must return the same words: over random bit patterns (subnormals included), every pair
    /// of a set of edges (±0, the smallest subnormal, 2^-126, 1, the largest finite) and
    /// nearly cancelling pairs, each pair is error-free in f64 and equal bit for bit, and a
    /// zero error term is +0.
    #[test]
    fn sorted_two_sum_gives_knuths_words_bit_for_bit() {
        let mut rng = ChaCha8Rng::seed_from_u64(48);
        let edges = [
            0.0f32,
            f32::from_bits(1),
            f32::MIN_POSITIVE,
            1.0,
            1.0 + f32::EPSILON,
            3.0,
            f32::MAX,
        ];
        let mut cases: Vec<(f32, f32)> = Vec::new();
        for &x in &edges {
            for &y in &edges {
                for (sx, sy) in [(1.0, 1.0), (1.0, -1.0), (-1.0, 1.0), (-1.0, -1.0)] {
                    cases.push((sx * x, sy * y));
                }
            }
        }
        for _ in 0..200_000 {
            let a = f32::from_bits(rng.gen());
            let b = match rng.gen_range(0..3) {
                0 => f32::from_bits(rng.gen()),
                // Same binade, opposite sign: cancellation.
                1 => -a * (1.0 + rng.gen_range(-1e-5f32..1e-5)),
                _ => a * 2f32.powi(rng.gen_range(-30..0)),
            };
            cases.push((a, b));
        }
        let mut checked = 0;
        for (a, b) in cases {
            if !(a + b).is_finite() || !a.is_finite() || !b.is_finite() {
                continue;
            }
            let k = df64_two_sum(a, b);
            let q = df64_two_sum_sorted(a, b);
            assert_eq!(
                (q.hi.to_bits(), q.lo.to_bits()),
                (k.hi.to_bits(), k.lo.to_bits()),
                "{a:e} + {b:e}: sorted ({:e}, {:e}) against Knuth's ({:e}, {:e})",
                q.hi,
                q.lo,
                k.hi,
                k.lo
            );
            assert_eq!(
                q.hi as f64 + q.lo as f64,
                a as f64 + b as f64,
                "{a:e} + {b:e}"
            );
            if q.lo == 0.0 {
                assert!(q.lo.is_sign_positive(), "{a:e} + {b:e}: e is -0");
            }
            checked += 1;
        }
        assert!(checked > 150_000, "only {checked} finite pairs");
    }

    #[test]
    fn two_sum_and_two_diff_are_error_free() {
        for (a, b) in pairs(20_000) {
            // f32 sums and differences are exact in f64 at these exponent gaps.
            for (r, exact) in [
                (df64_two_sum(a, b), a as f64 + b as f64),
                (df64_two_diff(a, b), a as f64 - b as f64),
            ] {
                assert_eq!(r.hi as f64 + r.lo as f64, exact, "{a:e}, {b:e}: {r:?}");
                assert!(r.lo.abs() <= f32::EPSILON * r.hi.abs() / 2.0, "{r:?}");
            }
            if a.abs() >= b.abs() {
                let q = df64_quick_two_sum(a, b);
                assert_eq!(q.hi as f64 + q.lo as f64, a as f64 + b as f64);
            }
        }
    }

    #[test]
    fn split_and_two_prod_are_error_free() {
        for (a, b) in pairs(20_000) {
            let s = df64_split(a);
            assert_eq!(s.hi + s.lo, a, "split({a:e})");
            // Each half fits in 12 bits, so their products are exact in f32.
            for h in [s.hi, s.lo] {
                assert_eq!(h.to_bits() & 0xfff, 0, "split({a:e}) = {s:?}");
            }
            // The bit split gives the same kind of halves from integer operations.
            let t = df64_split_bits(a);
            assert_eq!(t.hi + t.lo, a, "split_bits({a:e})");
            assert!(
                t.lo.abs() <= t.hi.abs() * 2f32.powi(-12),
                "split_bits({a:e}) = {t:?}"
            );
            for h in [t.hi, t.lo] {
                assert_eq!(h.to_bits() & 0xfff, 0, "split_bits({a:e}) = {t:?}");
            }
            // f32 x f32 is exact in f64.
            let p = df64_two_prod(a, b);
            assert_eq!(
                p.hi as f64 + p.lo as f64,
                a as f64 * b as f64,
                "{a:e} * {b:e}"
            );
            let dekker = df64_two_prod_dekker(a, b);
            assert_eq!((dekker.hi, dekker.lo), (p.hi, p.lo));
        }
    }

    #[test]
    fn arithmetic_within_its_bounds_near_one_and_across_exponents() {
        let near_one = suite::arithmetic_within_bounds::<Df64>(4000, 0);
        let spread = suite::arithmetic_within_bounds::<Df64>(4000, 40);
        eprintln!("df64 worst (add, sub, mul, div, sqrt) in ulp48: {near_one:?}, {spread:?}");
    }

    #[test]
    fn identities_are_exact_and_results_normalised() {
        suite::identities_are_exact::<Df64>(2000);
        suite::results_stay_normalised::<Df64>(2000);
    }

    #[test]
    fn from_f64_keeps_48_bits_and_round_trips() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for _ in 0..10_000 {
            let x: f64 = rng.gen_range(-1e10..1e10);
            let d = Df64::from_f64(x);
            let err = suite::error(d, &big(x));
            assert!(err <= 0.5, "{x}: {d:?} {err}");
            // A df64's value is an f64 (48 bits fit in 53): it converts back to itself.
            let back = Df64::from_f64(d.to_f64());
            assert_eq!((back.hi, back.lo), (d.hi, d.lo), "{x}");
        }
    }
}
