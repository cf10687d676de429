//! The mirror's own unit tests: the transforms error-free, the arithmetic within its bounds.
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
