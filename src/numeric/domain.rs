//! Where df64's error bounds hold, and how a result outside it must look.
//!
//! A df64 has f32's exponent range. The accurate routines of `df64.glsl` scale their operands
//! by exact powers of two, so their bounds hold for every result of magnitude 2^-100 to 2^126,
//! with one allowance: on a driver that flushes subnormals, a low word under 2^-126 is lost,
//! so a result may also be off by up to 2^-126 absolute (a result near 2^-100 can need a low
//! word of 2^-124 and less). Outside the domain the IEEE rules apply: results that overflow
//! are ±inf, never NaN; results that underflow are ±0 or the nearest value the words can hold.
//!
//! [`judge`] applies these rules to one result; the accuracy experiment's exponent sweep and the
//! tests use it on the GPU, the exported snippets and the CPU mirror.

use rand::Rng;

use super::df64::Df64;
use super::reference::{ulp48, Dd};

/// log2 of the result magnitudes where the accurate df64 ops keep their bounds.
pub const DF64_DOMAIN_LOG2: (i32, i32) = (-100, 126);

/// log2 of the magnitudes (operands and results) where the `*_unscaled` variants keep their
/// bounds: below it their error terms leave f32's normal range.
pub const UNSCALED_DOMAIN_LOG2: (i32, i32) = (-40, 126);

/// log2 of the largest argument of the fast tier's sine and cosine: up to it the remainder of
/// the reduction (one f32 estimate of the quadrant) stays within 1 of 0, where their series hold.
pub const FAST_TRIG_ARGUMENT_LOG2: i32 = 20;

/// Whether x is zero or its magnitude lies in [2^lo, 2^hi].
pub fn in_log2_range(x: f64, (lo, hi): (i32, i32)) -> bool {
    x == 0.0 || (x.is_finite() && (2f64.powi(lo)..=2f64.powi(hi)).contains(&x.abs()))
}

/// Whether x is zero or its magnitude lies in the domain.
pub fn in_domain(x: f64) -> bool {
    in_log2_range(x, DF64_DOMAIN_LOG2)
}

/// The absolute error a result may carry beyond its ulp48 bound: the smallest low word the
/// driver keeps (2^-126 where it flushes subnormals, 2^-149 where it keeps them).
pub(crate) fn floor_allowance(flushes_subnormals: bool) -> f64 {
    if flushes_subnormals {
        2f64.powi(-126)
    } else {
        2f64.powi(-149)
    }
}

/// (1 + u) 2^k with u uniform in [0, 1), k uniform in `[-exponents, exponents]` (clamped to
/// f32's normal range), a random sign unless `positive`, and a full low word (dropped where it
/// would be subnormal, as a GPU would flush it).
pub fn exponent_operand(rng: &mut impl Rng, exponents: i32, positive: bool) -> Df64 {
    let k = rng.gen_range(-exponents..=exponents).clamp(-126, 127);
    operand_at_exponent(rng, k, positive)
}

/// (1 + u) 2^k with u uniform in [0, 1), a random sign unless `positive`, and a full low word
/// (dropped where it would be subnormal); f32::MAX with the sign where it rounds past it.
pub fn operand_at_exponent(rng: &mut impl Rng, k: i32, positive: bool) -> Df64 {
    let sign = if positive || rng.gen::<bool>() {
        1.0
    } else {
        -1.0
    };
    let x = sign * (1.0 + rng.gen::<f64>()) * 2f64.powi(k);
    let mut d = Df64::from_f64(x);
    if !d.hi.is_finite() {
        d = Df64::new(f32::MAX.copysign(x as f32), 0.0);
    }
    if d.lo.abs() < f32::MIN_POSITIVE {
        d.lo = 0.0;
    }
    d
}

/// Bit-equal words, every NaN equal to every NaN (drivers differ in the NaN they produce).
pub fn same_words(a: Df64, b: Df64) -> bool {
    let w = |x: f32, y: f32| x.to_bits() == y.to_bits() || x.is_nan() && y.is_nan();
    w(a.hi, b.hi) && w(a.lo, b.lo)
}

/// How many results of a measurement fell in the domain, outside it, and outside it against
/// the IEEE rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct DomainCounts {
    /// Results whose exact value lies in the domain.
    pub in_domain: usize,
    /// Results whose exact value lies outside it.
    pub outside: usize,
    /// Of those, results that break the IEEE rules (NaN for an overflow, say).
    pub outside_wrong: usize,
}

/// What one result is, under the domain's rules.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Verdict {
    /// The exact result lies in the domain: the error in ulp48 beyond the floor allowance.
    InDomain(f64),
    /// Outside the domain (or non-finite) and as the IEEE rules require.
    OutsideOk,
    /// Outside the domain and not as required: NaN for a finite or infinite exact result, a
    /// finite value where the result overflows, or more than the allowance below the domain.
    OutsideWrong,
}

/// Judges `got` against the exact result. `bound` is the op's bound in ulp48 (used below the
/// domain, where the result may be ±0 or within bound ulp48 + the allowance).
pub fn judge(got: Df64, exact: Dd, bound: f64, flushes_subnormals: bool) -> Verdict {
    let x = exact.to_f64();
    let allowance = floor_allowance(flushes_subnormals);
    if x.is_nan() {
        return if got.hi.is_nan() {
            Verdict::OutsideOk
        } else {
            Verdict::OutsideWrong
        };
    }
    if got.hi.is_nan() || got.lo.is_nan() {
        return Verdict::OutsideWrong;
    }
    // Past the largest f32 a result may round to ±inf (with a zero low word), or stay finite
    // within its bound (a df64 holds up to half an f32 ulp more than f32::MAX).
    if got.hi.is_infinite() {
        let inf_ok = got.hi.signum() as f64 == x.signum() && got.lo == 0.0;
        return if inf_ok && x.abs() > f32::MAX as f64 {
            Verdict::OutsideOk
        } else {
            Verdict::OutsideWrong
        };
    }
    if !x.is_finite() || !got.is_finite() {
        return Verdict::OutsideWrong;
    }
    let diff = (Dd::from_df64(got) - exact).to_f64().abs();
    let beyond = (diff - allowance).max(0.0);
    if in_domain(x) && x != 0.0 {
        return Verdict::InDomain(beyond / ulp48(x));
    }
    // Above or below the domain (or an exact zero): the bound beyond the allowance still.
    let ok = if x == 0.0 {
        diff == 0.0
    } else {
        beyond <= bound * ulp48(x)
    };
    if ok {
        Verdict::OutsideOk
    } else {
        Verdict::OutsideWrong
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn judge_applies_the_rules() {
        let one = Dd::from_f64(1.0);
        assert_eq!(judge(Df64::ONE, one, 0.5, true), Verdict::InDomain(0.0));
        let off = Df64::new(1.0, 2f32.powi(-47));
        assert_eq!(judge(off, one, 0.5, true), Verdict::InDomain(1.0));
        // Overflow: inf with a zero low word, never NaN or a finite value.
        let big = Dd::from_f64(1e40);
        assert_eq!(
            judge(Df64::new(f32::INFINITY, 0.0), big, 0.5, true),
            Verdict::OutsideOk
        );
        assert_eq!(
            judge(Df64::new(f32::NAN, 0.0), big, 0.5, true),
            Verdict::OutsideWrong
        );
        assert_eq!(
            judge(Df64::new(f32::MAX, 0.0), big, 0.5, true),
            Verdict::OutsideWrong
        );
        assert_eq!(
            judge(Df64::new(-f32::INFINITY, 0.0), big, 0.5, true),
            Verdict::OutsideWrong
        );
        // Just past f32::MAX a df64 may still hold the result: finite within the bound is fine.
        let past = Df64::new(f32::MAX, 2f32.powi(103));
        let exact = Dd::from_df64(past) + Dd::from_f64(2.0);
        assert_eq!(judge(past, exact, 0.5, true), Verdict::OutsideOk);
        assert_eq!(
            judge(Df64::ONE, Dd::from_f64(1e39), 0.5, true),
            Verdict::OutsideWrong
        );
        assert!(
            matches!(judge(Df64::ONE, Dd::from_f64(1e30), 0.5, true), Verdict::InDomain(e) if e > 1e10)
        );
        // Underflow: ±0 is fine on a flushing driver, 2^-120 is not.
        let tiny = Dd::from_f64(1e-40);
        assert_eq!(judge(Df64::ZERO, tiny, 0.5, true), Verdict::OutsideOk);
        let far = Df64::new(2f32.powi(-120), 0.0);
        assert_eq!(judge(far, tiny, 0.5, true), Verdict::OutsideWrong);
        // NaN propagates, and only where the exact result is NaN.
        let nan = Dd::from_f64(f64::NAN);
        assert_eq!(
            judge(Df64::new(f32::NAN, 0.0), nan, 0.5, true),
            Verdict::OutsideOk
        );
        assert_eq!(judge(Df64::ONE, nan, 0.5, true), Verdict::OutsideWrong);
        // A lost low word near 2^-100 is within the allowance.
        let x = 2f64.powi(-100) + 2f64.powi(-127);
        let exact = Dd::from_f64(x);
        let got = Df64::new(2f32.powi(-100), 0.0);
        assert_eq!(judge(got, exact, 0.5, true), Verdict::InDomain(0.0));
        assert!(matches!(judge(got, exact, 0.5, false), Verdict::InDomain(e) if e > 1.0));
    }

    #[test]
    fn exponent_operands_span_the_range() {
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(16);
        let xs: Vec<Df64> = (0..4096)
            .map(|_| exponent_operand(&mut rng, 100, false))
            .collect();
        let exps: Vec<i32> = xs
            .iter()
            .map(|d| d.hi.abs().log2().floor() as i32)
            .collect();
        assert!(exps.iter().all(|e| (-100..=100).contains(e)));
        assert!(*exps.iter().min().unwrap() < -90 && *exps.iter().max().unwrap() > 90);
        assert!(xs
            .iter()
            .all(|d| d.lo == 0.0 || d.lo.abs() >= f32::MIN_POSITIVE));
    }
}
