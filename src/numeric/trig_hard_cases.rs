//! The arguments hardest for a trigonometric argument reduction: for each binary exponent, the
//! f32 (24-bit) and df64 (48-bit) values closest to a multiple of pi/2, found as libm authors
//! find them. With x = m 2^e (m an integer of `bits` bits), x 2/pi is m alpha plus an integer
//! for alpha = frac(2^e 2/pi), so x is near a multiple of pi/2 where m alpha is near an integer.
//! The best such m are denominators of alpha's continued fraction: its convergents and
//! semiconvergents, and the smallest multiples of them that have `bits` bits. Each candidate is
//! measured in the oracle's arithmetic (alpha to 640 bits) and the closest kept.
//!
//! Used by the accuracy sweeps, the known answers and the tests (they compute their own
//! references from the oracle; this only chooses arguments).

use astro_float::{BigFloat, RoundingMode};

use super::df64::Df64;
use super::oracle::{big, round_to_qf128, to_f64, Oracle};
use super::qf128::Qf128;

/// Precision of alpha and of the candidates' distances, in bits: 2^e shifts 2/pi by up to 128
/// bits and a 48-bit m then needs about 48 + 64 more.
const SEARCH_BITS: usize = 640;
const RM: RoundingMode = RoundingMode::ToEven;

/// One hard argument.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TrigHardCase {
    /// The argument (exact: an f32 when `bits` <= 24).
    pub x: Df64,
    /// log2 of |x 2/pi - n| for the nearest integer n: how close x is to a multiple of pi/2,
    /// in units of pi/2.
    pub distance_log2: f64,
}

/// |t - round(t)|.
fn distance_to_integer(t: &BigFloat) -> BigFloat {
    let f = t.fract();
    let f = if f.is_negative() { f.neg() } else { f };
    let g = big(1.0).sub(&f, SEARCH_BITS, RM);
    if f.cmp(&g).is_some_and(|c| c <= 0) {
        f
    } else {
        g
    }
}

/// The denominators of alpha's convergents and semiconvergents up to `limit` (alpha in
/// [0, 1)), at most `max_steps` semiconvergents per partial quotient (the ones next to each
/// convergent, where the best approximations lie).
fn denominators(alpha: &BigFloat, limit: u128) -> Vec<u128> {
    let mut out = Vec::new();
    let (mut q_prev, mut q) = (1u128, 0u128); // q_{-2} = 1, q_{-1} = 0
    let mut x = alpha.clone();
    for _ in 0..200 {
        let a_big = x.floor();
        let a = to_f64(&a_big);
        if !a.is_finite() || a < 0.0 {
            break;
        }
        let a = if a > 1e36 { u128::MAX } else { a as u128 };
        // Semiconvergents q_{k-2} + t q_{k-1}, t = 1..a (t = a is the convergent).
        let max_steps = 64u128;
        for t in (1..=a.min(max_steps)).chain(a.saturating_sub(max_steps).max(max_steps + 1)..=a) {
            let Some(d) = t.checked_mul(q).and_then(|v| v.checked_add(q_prev)) else {
                break;
            };
            if d > limit {
                break;
            }
            out.push(d);
        }
        let Some(q_next) = a.checked_mul(q).and_then(|v| v.checked_add(q_prev)) else {
            break;
        };
        if q_next > limit {
            break;
        }
        q_prev = q;
        q = q_next;
        let frac = x.sub(&a_big, SEARCH_BITS, RM);
        if frac.is_zero() {
            break;
        }
        x = frac.reciprocal(SEARCH_BITS, RM);
    }
    out.retain(|&d| d > 0);
    out.sort_unstable();
    out.dedup();
    out
}

/// For each exponent e in `exponents`, the `bits`-bit m (m in [2^(bits-1), 2^bits), `bits` at
/// most 96) for which m 2^e is closest to a multiple of pi/2: (e, m, the distance in units of
/// pi/2).
fn closest_to_multiples(
    o: &mut Oracle,
    bits: u32,
    exponents: std::ops::RangeInclusive<i32>,
) -> Vec<(i32, u128, BigFloat)> {
    let bits = bits.clamp(2, 96);
    let lo_m = 1u128 << (bits - 1);
    let hi_m = (1u128 << bits) - 1;
    let two_over_pi = big(2.0).div(&o.consts().pi(SEARCH_BITS, RM), SEARCH_BITS, RM);
    let mut out = Vec::new();
    for e in exponents {
        let scale = BigFloat::from_f64(2f64.powi(e), SEARCH_BITS);
        let alpha = two_over_pi.mul(&scale, SEARCH_BITS, RM).fract();
        let mut best: Option<(BigFloat, u128)> = None;
        for q in denominators(&alpha, hi_m) {
            // The smallest multiples of q with `bits` bits.
            let first = lo_m.div_ceil(q).max(1);
            for c in first..first + 4 {
                let Some(m) = c.checked_mul(q).filter(|m| (lo_m..=hi_m).contains(m)) else {
                    break;
                };
                let t = alpha.mul(&BigFloat::from_u128(m, SEARCH_BITS), SEARCH_BITS, RM);
                let d = distance_to_integer(&t);
                if best
                    .as_ref()
                    .is_none_or(|(bd, _)| d.cmp(bd).is_some_and(|c| c < 0))
                {
                    best = Some((d, m));
                }
            }
        }
        if let Some((d, m)) = best {
            out.push((e, m, d));
        }
    }
    out
}

fn log2_of(d: &BigFloat) -> f64 {
    let dist = to_f64(d);
    if dist > 0.0 {
        dist.log2()
    } else {
        f64::NEG_INFINITY
    }
}

/// For each exponent e in `exponents`, the `bits`-bit m (m in [2^(bits-1), 2^bits)) for which
/// m 2^e is closest to a multiple of pi/2. `bits` is at most 48.
pub fn trig_hard_cases(
    o: &mut Oracle,
    bits: u32,
    exponents: std::ops::RangeInclusive<i32>,
) -> Vec<TrigHardCase> {
    closest_to_multiples(o, bits.clamp(2, 48), exponents)
        .into_iter()
        .map(|(e, m, d)| TrigHardCase {
            x: Df64::from_f64(m as f64 * 2f64.powi(e)),
            distance_log2: log2_of(&d),
        })
        .collect()
}

/// The 96-bit arguments (qf128's four words, exactly) closest to a multiple of pi/2 for each
/// exponent e in `exponents` (m 2^e with m of 96 bits): (x, log2 of the distance in units of
/// pi/2).
pub fn trig_hard_cases_qf128(
    o: &mut Oracle,
    exponents: std::ops::RangeInclusive<i32>,
) -> Vec<(Qf128, f64)> {
    closest_to_multiples(o, 96, exponents)
        .into_iter()
        .map(|(e, m, d)| {
            let mut x = BigFloat::from_u128(m, SEARCH_BITS);
            x.set_exponent(x.exponent().unwrap_or(0) + e);
            (round_to_qf128(&x), log2_of(&d))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::df64_consts::TWO_OVER_PI_DIGITS;
    use super::super::oracle::big_df64;
    use super::*;

    /// Bit i (weight 2^-i, i >= 1) of 2/pi, from the digit table.
    fn two_over_pi_bit(i: i32) -> u128 {
        let d = TWO_OVER_PI_DIGITS[((i - 1) / 12) as usize] as u128;
        (d >> (11 - (i - 1) % 12)) & 1
    }

    /// The closest 24-bit m at exponent e by trying every one: frac(2^e 2/pi) as a 128-bit
    /// fraction, m times it modulo 1 in wrapping u128 arithmetic (exact to 2^-100).
    fn brute_force_f32(e: i32) -> (f64, u64) {
        let alpha = (1..=128).fold(0u128, |a, j| (a << 1) | two_over_pi_bit(e + j));
        let (d, m) = ((1u64 << 23)..(1u64 << 24))
            .map(|m| {
                let t = alpha.wrapping_mul(m as u128);
                (t.min(t.wrapping_neg()), m)
            })
            .min()
            .unwrap_or((u128::MAX, 0));
        ((d as f64 / 2f64.powi(128)).log2(), m)
    }

    #[test]
    fn the_search_finds_the_closest_f32_that_trying_every_one_finds() {
        let mut o = Oracle::new();
        let cases = trig_hard_cases(&mut o, 24, 0..=104);
        assert_eq!(cases.len(), 105);
        let two_over_pi = big(2.0).div(&o.pi(), 256, RM);
        for (e, c) in (0..=104).zip(&cases) {
            // An f32, exactly.
            assert_eq!(c.x.lo, 0.0, "{:?}", c.x);
            // The distance is what the oracle says of x itself.
            let t = o.mul(&big_df64(c.x), &two_over_pi);
            let d = to_f64(&distance_to_integer(&t)).log2();
            assert!(
                (d - c.distance_log2).abs() < 0.01,
                "2^{e}: {c:?}, oracle {d}"
            );
            if [0, 33, 104].contains(&e) {
                let (bd, m) = brute_force_f32(e);
                assert!(
                    (bd - c.distance_log2).abs() < 0.01,
                    "2^{e}: search {c:?}, every m: {m} at 2^{bd}"
                );
            }
        }
        // A random 24-bit m is about 2^-2 away; the closest ones are 2^-19 to 2^-30.
        let closest = cases.iter().map(|c| c.distance_log2).fold(0.0, f64::min);
        assert!(closest < -29.0, "{closest}");
    }

    #[test]
    fn df64_cases_use_both_words_and_come_closer_than_f32_ones() {
        let mut o = Oracle::new();
        let cases = trig_hard_cases(&mut o, 48, 0..=20);
        assert!(cases.iter().all(|c| c.distance_log2 < -40.0), "{cases:?}");
        assert!(
            cases.iter().filter(|c| c.x.lo != 0.0).count() > 15,
            "{cases:?}"
        );
    }

    /// The 96-bit search: every argument exactly a qf128 (its words sum to m 2^e), and far
    /// closer to a multiple of pi/2 than any 48-bit one (a random 96-bit m is about 2^-2 away).
    #[test]
    fn qf128_cases_are_exact_and_come_closest() {
        use super::super::oracle::big_words;
        let mut o = Oracle::new();
        let cases = trig_hard_cases_qf128(&mut o, 0..=12);
        assert_eq!(cases.len(), 13);
        let two_over_pi = big(2.0).div(&o.pi(), 256, RM);
        for (x, d) in &cases {
            assert!(x.x[3] != 0.0, "{x:?}");
            let t = o.mul(&big_words(&x.x), &two_over_pi);
            let od = to_f64(&distance_to_integer(&t)).log2();
            assert!((od - d).abs() < 0.01, "{x:?}: {d}, oracle {od}");
            assert!(*d < -80.0, "{x:?}: {d}");
        }
    }
}
