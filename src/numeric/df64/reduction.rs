//! Payne and Hanek's argument reduction for the trigonometric functions: the argument times
//! 2/pi, taken from the digits of 2/pi near the argument's exponent, so that huge arguments
//! reduce exactly.

use super::*;

pub(super) fn two_over_pi_digit(i: i32) -> i32 {
    if (1..=32).contains(&i) {
        TWO_OVER_PI_DIGITS[(i - 1) as usize]
    } else {
        0
    }
}

/// Digits of the long reduction's accumulator: digit 0 the integer part, 1 to 20 the fraction.
pub(super) const LONG_DIGITS: usize = 21;

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
