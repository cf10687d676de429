//! Exponent scaling by exact powers of two: what lets the arithmetic keep 48 bits at every
//! exponent (operands brought near 1, results scaled back), and the IEEE special-value tests.

use super::*;

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
pub(super) fn df64_signed_zero(x: f32) -> f32 {
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
pub(super) const DF64_MIN_NORMAL: f32 = f32::MIN_POSITIVE;

/// 2^126.
pub(super) const DF64_POW2_126: f32 = 8.507_059e37;

/// CPU mirror of `df64_scale_bits`: the bits of 2^(E-127) for x's biased exponent E taken in
/// [1, 253] (zero and subnormals as 2^-126, magnitudes from 2^127 as 2^126), from a clamp of
/// |x| and a mask (a NaN gives the bits of +inf; its caller's result is the special one).
pub fn df64_scale_bits(x: f32) -> u32 {
    x.abs().clamp(DF64_MIN_NORMAL, DF64_POW2_126).to_bits() & 0x7f80_0000
}

/// 2^-63 and 2^63: the range of `df64_product_scale_bits`.
pub(super) const DF64_POW2_M63: f32 = 1.084_202_2e-19;

pub(super) const DF64_POW2_63: f32 = 9.223_372e18;

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
