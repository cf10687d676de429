//! Proving whole programs before use: each df64 or qf128 program is built under the strongest
//! configuration the probe proved, runs a known-answer self-test against the CPU mirror, and
//! moves to the next proven configuration when the test fails; with none left it is refused,
//! naming the program, the input and both values. See [`crate::probe::selftest`] for the
//! record of what passed.

use std::time::{Duration, Instant};

use crate::numeric::domain::exponent_operand;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::gl::GlInfo;
use crate::numeric::df64::{ComplexDf64, Df64};
use crate::numeric::fpenv::{with_flush_to_zero, with_fused_two_prod};
use crate::numeric::qf128::{qf128_add, Qf128};
use crate::probe::selftest::{
    all_verified, mark_verified, measure_rerun, record, words_agree, words_text, SelfTestFailure,
    SelfTestRecord, NON_NEAREST_TOLERANCE_BITS,
};
use crate::probe::{DriverConfig, ProbeReport, TwoProdKind};
use std::cell::Cell;

use super::KernelError;

/// What the self-tests need from the probe.
#[derive(Debug, Clone)]
pub struct Proof {
    /// The configurations the probe proved, strongest first; the first is the one in use.
    pub configs: Vec<DriverConfig>,
    /// f32 rounds to nearest: results must equal the mirror bit for bit.
    pub round_to_nearest: bool,
    /// The driver flushes subnormals: the mirror runs with flush-to-zero.
    pub flushes_subnormals: bool,
    /// Why df64 is refused here (no configuration proven), if it is.
    pub refusal: Option<String>,
}

/// Where a self-test case lies for the op under test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CaseDomain {
    /// Operands and exact result in the op's domain: its bound holds.
    In,
    /// Outside the domain of an op that keeps f32 accuracy there.
    Outside,
    /// Outside the domain of an op that promises nothing there (the unscaled ops).
    Unpromised,
}

/// A self-test's outcome: how many cases ran, and the first that failed.
pub struct Outcome {
    /// Cases run.
    pub cases: usize,
    /// The first case that failed.
    pub failure: Option<SelfTestFailure>,
}

impl Proof {
    /// The proof a probe report holds.
    pub fn from_report(report: &ProbeReport) -> Self {
        Proof {
            configs: report.proven_configs(),
            round_to_nearest: report.round_to_nearest(),
            flushes_subnormals: report.flushes_subnormal_results && report.flushes_subnormal_inputs,
            refusal: report.config.is_none().then(|| report.decision.clone()),
        }
    }

    /// `f(i)` for i in 0..n on the CPU in this driver's floating-point environment.
    pub fn mirror_map<R: Clone + Default>(&self, n: usize, f: impl Fn(usize) -> R) -> Vec<R> {
        let mut out = vec![R::default(); n];
        self.in_env(|| {
            for (i, cell) in out.iter_mut().enumerate() {
                *cell = std::hint::black_box(f(i));
            }
        });
        out
    }

    /// `f()` in this driver's floating-point environment (flush-to-zero where it flushes), with
    /// the TwoProduct of the configuration under test inside [`build_proven`], else of the
    /// configuration in use.
    pub(crate) fn in_env<T>(&self, f: impl FnOnce() -> T) -> T {
        let two_prod = CONFIG_UNDER_TEST
            .with(Cell::get)
            .or_else(|| self.configs.first().map(|c| c.two_prod));
        let fused = two_prod == Some(TwoProdKind::Fma);
        with_flush_to_zero(self.flushes_subnormals, || with_fused_two_prod(fused, f))
    }

    /// Whether the GPU's words equal the mirror's: bit for bit on round-to-nearest drivers,
    /// else within [`NON_NEAREST_TOLERANCE_BITS`] of the leading word.
    ///
    /// On a driver that flushes subnormals a subnormal word and a zero of the same sign are
    /// the same number to it: NVIDIA's `-a` flushes a subnormal a, llvmpipe's keeps it.
    pub fn agree(&self, got: &[f32], want: &[f32]) -> bool {
        let scale = want.first().map_or(0.0, |w| w.abs() as f64);
        let tol = (!self.round_to_nearest).then_some(NON_NEAREST_TOLERANCE_BITS);
        let read = |x: f32| {
            if self.flushes_subnormals && x.is_subnormal() {
                0.0f32.copysign(x)
            } else {
                x
            }
        };
        got.len() == want.len()
            && got
                .iter()
                .zip(want)
                .all(|(g, w)| words_agree(read(*g), read(*w), scale, tol))
    }

    /// Compares df64 results case by case like [`compare`](Self::compare), except on a driver
    /// whose f32 division or square root is not correctly rounded. There the GPU's first
    /// quotient or root can differ from the CPU's by an f32 ulp, so the mirror cannot predict
    /// its words, and case `i` is judged against `exact(i)` (the exact value and where the
    /// case lies): in the op's domain it may also differ from the mirror by twice the mirror's
    /// own error; outside it, where the routine is only as good as f32 (Thall's division on
    /// operands whose error terms fall below 2^-126 and are flushed), it must be within 2^-22
    /// of the exact value, as the mirror is; where the op promises nothing (an unscaled op
    /// beyond its domain: NVIDIA's f32 division gives 0 for a divisor above 2^126), any
    /// finite result passes. A broken error-free transform in the domain still fails: the
    /// mirror's error, and so the slack, is about 2^-48 there.
    pub(crate) fn compare_df64(
        &self,
        program: &str,
        got: &[Df64],
        want: &[Df64],
        exact: impl Fn(usize) -> Option<(f64, CaseDomain)>,
        input: impl Fn(usize) -> String,
    ) -> Outcome {
        let within_slack = |i: usize| {
            let (g, w) = (got[i].to_f64(), want[i].to_f64());
            if self.round_to_nearest || !g.is_finite() || !w.is_finite() {
                return false;
            }
            match exact(i) {
                Some((x, CaseDomain::In)) => (g - w).abs() <= 2.0 * (w - x).abs(),
                Some((x, CaseDomain::Outside)) => (g - x).abs() <= x.abs() * 2f64.powi(-22),
                Some((_, CaseDomain::Unpromised)) => true,
                None => false,
            }
        };
        self.compare_accepting(program, got, want, df64_words, input, within_slack)
    }

    /// Compares values case by case (`words` gives each value's f32 words); the first
    /// disagreement, described by `input(i)`.
    pub fn compare<T>(
        &self,
        program: &str,
        got: &[T],
        want: &[T],
        words: impl Fn(&T) -> Vec<f32>,
        input: impl Fn(usize) -> String,
    ) -> Outcome {
        self.compare_accepting(program, got, want, words, input, |_| false)
    }

    /// [`compare`](Self::compare), where case `i` also passes when `accept(i)`.
    fn compare_accepting<T>(
        &self,
        program: &str,
        got: &[T],
        want: &[T],
        words: impl Fn(&T) -> Vec<f32>,
        input: impl Fn(usize) -> String,
        accept: impl Fn(usize) -> bool,
    ) -> Outcome {
        let failure = got
            .iter()
            .zip(want)
            .enumerate()
            .position(|(i, (g, w))| !self.agree(&words(g), &words(w)) && !accept(i))
            .map(|i| SelfTestFailure {
                program: program.to_string(),
                input: input(i),
                got: words_text(&words(&got[i])),
                expected: words_text(&words(&want[i])),
            });
        Outcome {
            cases: got.len(),
            failure,
        }
    }
}

thread_local! {
    /// The TwoProduct of the configuration whose self-test runs now, so that the mirror
    /// computes the expected words the same way.
    static CONFIG_UNDER_TEST: Cell<Option<TwoProdKind>> = const { Cell::new(None) };
}

/// Runs a self-test with the mirror's TwoProduct set to `config`'s.
fn test_under<R>(config: DriverConfig, test: impl FnOnce() -> R) -> R {
    let old = CONFIG_UNDER_TEST.with(|c| c.replace(Some(config.two_prod)));
    let r = test();
    CONFIG_UNDER_TEST.with(|c| c.set(old));
    r
}

/// Builds a program (or a set of programs that are tested together) under the first proven
/// configuration whose self-test passes, skipping the test for sources that passed before.
/// `build` returns the programs and their compile time, `sources` their fragment sources,
/// `test` runs them on known answers.
pub fn build_proven<T, E: From<KernelError>>(
    info: &GlInfo,
    proof: &Proof,
    name: &str,
    mut build: impl FnMut(DriverConfig) -> Result<T, E>,
    sources: impl Fn(&T) -> Vec<String>,
    mut test: impl FnMut(&T) -> Result<Outcome, E>,
) -> Result<(T, DriverConfig), E> {
    let mut tried = Vec::new();
    let mut first_failure = None;
    for config in &proof.configs {
        let start = Instant::now();
        let built = build(*config)?;
        let compile = start.elapsed();
        let texts = sources(&built);
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let protection = config.protection.name();
        if all_verified(info, &refs) {
            record(SelfTestRecord {
                program: name.to_string(),
                protection,
                cases: 0,
                compile,
                test: Duration::ZERO,
                rerun: None,
                cached: true,
                passed: true,
            });
            return Ok((built, *config));
        }
        let start = Instant::now();
        let outcome = test_under(*config, || test(&built))?;
        let test_time = start.elapsed();
        // A self-test that ran no case proved nothing: an error, never a pass.
        if outcome.cases == 0 && outcome.failure.is_none() {
            return Err(KernelError::Refused(format!(
                "the self-test of {name} ran no known-answer case, so nothing proves it on this \
                 driver; this is a bug in df64gl, please report it"
            ))
            .into());
        }
        let rerun = if measure_rerun() {
            let start = Instant::now();
            test_under(*config, || test(&built))?;
            Some(start.elapsed())
        } else {
            None
        };
        record(SelfTestRecord {
            program: name.to_string(),
            protection,
            cases: outcome.cases,
            compile,
            test: test_time,
            rerun,
            cached: false,
            passed: outcome.failure.is_none(),
        });
        match outcome.failure {
            None => {
                for s in &refs {
                    mark_verified(info, s);
                }
                return Ok((built, *config));
            }
            Some(f) => {
                tried.push(format!("{protection}: failed"));
                first_failure.get_or_insert(f);
            }
        }
    }
    let detail = match (first_failure, &proof.refusal) {
        (Some(f), _) => format!("{f} (tried {})", tried.join(", ")),
        (None, Some(why)) => why.clone(),
        (None, None) => "the probe proved no configuration on this driver".into(),
    };
    Err(KernelError::Refused(format!(
        "df64 refused for {name}: {detail}. Its results would be silently wrong on this driver; \
         `df64gl selftest` lists every program's result, and f32 work still runs."
    ))
    .into())
}

/// Known-answer df64 operands: near-ties, cancellation, multiples of pi/2 (argument
/// reduction), both ends of the exponent domain, signed zeros and units, then seeded random
/// values of every sign over 2^-30 to 2^30 with full low words. Pairs (a, b) take b from the
/// list reversed, plus an exact negation and a near-cancellation of each random a.
pub fn df64_cases() -> Vec<(Df64, Df64)> {
    let mut pairs = df64_cases_near_one();
    pairs.extend(df64_cases_at_the_ends());
    pairs
}

/// Pairs across f32's whole exponent range and at its ends, where the routines scale their
/// operands and the mirror must model the driver's subnormal handling: random exponents from
/// -126 to 127, overflow, underflow, subnormals, zeros, infinities and NaN.
pub fn df64_cases_at_the_ends() -> Vec<(Df64, Df64)> {
    let mut rng = ChaCha8Rng::seed_from_u64(0xe4d5);
    let d = |hi: f32| Df64::new(hi, 0.0);
    let max = Df64::new(f32::MAX, f32::MAX * 2f32.powi(-25));
    let tiny = Df64::from_f64(1.3 * 2f64.powi(-100));
    let mut pairs = vec![
        (max, d(2.0)),
        (max, max),
        (Df64::from_f64(1.7e23), Df64::from_f64(1.9e23)),
        (tiny, tiny),
        (tiny, Df64::from_f64(3.1e-27)),
        (Df64::from_f64(1.7e-19), Df64::from_f64(2.7e-27)),
        (d(f32::MIN_POSITIVE), d(0.75)),
        (d(f32::MIN_POSITIVE), d(-f32::MIN_POSITIVE)),
        (d(9.9e-40), d(1e30)),
        (d(-9.9e-40), d(2.0)),
        (d(f32::INFINITY), d(0.0)),
        (d(f32::INFINITY), d(f32::INFINITY)),
        (d(f32::NEG_INFINITY), d(2.0)),
        (d(f32::NAN), d(1.0)),
        (d(1.0), d(f32::NAN)),
        (d(0.0), d(f32::INFINITY)),
        (d(1.0), d(0.0)),
        (d(-1.0), d(-0.0)),
        (d(-0.0), d(-0.0)),
        (d(-0.0), d(0.0)),
    ];
    for _ in 0..44 {
        let a = exponent_operand(&mut rng, 127, false);
        let b = exponent_operand(&mut rng, 127, false);
        pairs.push((a, b));
    }
    pairs
}

/// The pairs near 1 and up to 2^120 that the self-tests began with.
fn df64_cases_near_one() -> Vec<(Df64, Df64)> {
    let mut rng = ChaCha8Rng::seed_from_u64(0x5e1f_7e57);
    let half_pi = std::f64::consts::FRAC_PI_2;
    let mut values: Vec<Df64> = vec![
        Df64::new(0.0, 0.0),
        Df64::new(-0.0, 0.0),
        Df64::new(1.0, 0.0),
        Df64::new(-1.0, 0.0),
        Df64::new(0.5, 0.0),
        Df64::new(2.5, 0.0),
        Df64::new(-2.5, 0.0),
        Df64::new(3.0, 0.0),
        // 1 + 2^-23 and a low word of half an ulp: ties in the renormalisation.
        Df64::new(1.0 + f32::EPSILON, f32::EPSILON * 0.5 * f32::EPSILON),
        Df64::new(1.0, -f32::EPSILON * 0.25),
        Df64::new(1.0 - f32::EPSILON * 0.5, f32::EPSILON * f32::EPSILON * 0.25),
        Df64::from_f64(2f64.powi(-60) * 1.2345678901234),
        Df64::from_f64(2f64.powi(100) * 1.7654321098765),
        Df64::from_f64(-2f64.powi(120) * 1.1),
        Df64::from_f64(1000.0),
        Df64::from_f64(1e-3),
        Df64::from_f64(0.7),
        Df64::from_f64(std::f64::consts::LN_2 * 10.0),
    ];
    for k in [1.0, 2.0, 3.0, 4.0, -1.0, 637.0] {
        values.push(Df64::from_f64(half_pi * k));
        values.push(Df64::from_f64(half_pi * k * (1.0 + 1e-12)));
    }
    while values.len() < 64 {
        let e: i32 = rng.gen_range(-30..=30);
        let m: f64 = rng.gen_range(1.0..2.0);
        let sign = if rng.gen_bool(0.5) { -1.0 } else { 1.0 };
        values.push(Df64::from_f64(sign * m * 2f64.powi(e)));
    }
    let mut pairs: Vec<(Df64, Df64)> = values
        .iter()
        .zip(values.iter().rev())
        .map(|(a, b)| (*a, *b))
        .collect();
    for a in values.iter().skip(24).take(16) {
        pairs.push((*a, Df64::new(-a.hi, -a.lo)));
        pairs.push((*a, Df64::from_f64(-a.to_f64() * (1.0 + 2f64.powi(-30)))));
    }
    pairs
}

/// qf128 operands from the df64 cases: each value extended by two more words (a renormalised
/// sum, so the words do not overlap).
pub fn qf128_cases() -> Vec<(Qf128, Qf128)> {
    let extend = |x: Df64, salt: f64| {
        let tail = Df64::from_f64(x.to_f64() * salt * 2f64.powi(-49));
        qf128_add(Qf128::from_df64(x), Qf128::from_df64(tail))
    };
    df64_cases_near_one()
        .into_iter()
        .enumerate()
        .map(|(i, (a, b))| {
            let s = 0.3 + (i % 7) as f64 * 0.1;
            (extend(a, s), extend(b, -s))
        })
        .collect()
}

/// Complex operands: consecutive df64 pairs.
pub(crate) fn complex_cases() -> Vec<(ComplexDf64, ComplexDf64)> {
    let d = df64_cases();
    d.iter()
        .zip(d.iter().skip(1).chain(d.iter().take(1)))
        .map(|((a, b), (c, e))| (ComplexDf64::new(*a, *b), ComplexDf64::new(*e, *c)))
        .collect()
}

/// The words of a df64, for a self-test message.
pub(crate) fn df64_words(x: &Df64) -> Vec<f32> {
    vec![x.hi, x.lo]
}

/// The words of a qf128.
pub(crate) fn qf128_words(x: &Qf128) -> Vec<f32> {
    x.x.to_vec()
}

/// The words of a complex df64.
pub(crate) fn complex_words(x: &ComplexDf64) -> Vec<f32> {
    vec![x.re.hi, x.re.lo, x.im.hi, x.im.lo]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cases_cover_the_hard_spots() {
        let d = df64_cases();
        assert!(d.len() >= 96);
        assert!(d
            .iter()
            .any(|(a, b)| a.hi == -b.hi && a.lo == -b.lo && a.hi != 0.0));
        assert!(d.iter().any(|(a, _)| a.hi.abs() > 1e30));
        assert!(d.iter().any(|(a, _)| a.hi != 0.0 && a.hi.abs() < 1e-17));
        let far = 637.0 * std::f64::consts::FRAC_PI_2;
        assert!(d.iter().any(|(a, _)| (a.to_f64() - far).abs() < 1e-6));
        assert!(d.iter().any(|(a, _)| a.hi.is_nan()));
        assert!(d.iter().any(|(a, b)| a.hi.is_infinite() && b.hi == 0.0));
        assert!(d
            .iter()
            .any(|(a, _)| a.hi != 0.0 && a.hi.abs() < f32::MIN_POSITIVE));
        assert!(d
            .iter()
            .any(|(a, _)| a.hi.abs() > 2f32.powi(120) && a.hi.is_finite()));
        assert!(d
            .iter()
            .any(|(a, _)| a.hi != 0.0 && a.hi.abs() < 2f32.powi(-110)));
        let q = qf128_cases();
        assert!(q.len() >= 96);
        assert!(q.iter().any(|(a, _)| a.x[2] != 0.0));
    }

    /// A proof for a driver like NVIDIA's: f32 division not correctly rounded, subnormals
    /// flushed.
    fn non_nearest_flushing() -> Proof {
        Proof {
            configs: vec![],
            round_to_nearest: false,
            flushes_subnormals: true,
            refusal: None,
        }
    }

    #[test]
    fn a_flushing_driver_may_return_zero_for_a_subnormal() {
        let proof = non_nearest_flushing();
        let sub = f32::from_bits(0x0006_b9a0);
        assert!(proof.agree(&[-0.0, -0.0], &[-sub, -0.0]));
        let nearest = Proof {
            round_to_nearest: true,
            ..non_nearest_flushing()
        };
        assert!(nearest.agree(&[-0.0, -0.0], &[-sub, -0.0]));
        assert!(
            !nearest.agree(&[0.0, 0.0], &[-sub, 0.0]),
            "the sign still counts"
        );
        let keeps = Proof {
            flushes_subnormals: false,
            ..nearest
        };
        assert!(!keeps.agree(&[-0.0, -0.0], &[-sub, -0.0]));
    }

    #[test]
    fn slack_off_round_to_nearest_follows_the_case_domain() {
        let proof = non_nearest_flushing();
        let x = 1.0 / 3.0;
        let mirror = Df64::from_f64(x);
        // An error of 2^-30: a broken error-free transform, far beyond the mirror's 2^-49.
        let broken = Df64::from_f64(x * (1.0 + 2f64.powi(-30)));
        let judge = |got: Df64, domain: CaseDomain| {
            proof
                .compare_df64(
                    "p",
                    &[got],
                    &[mirror],
                    |_| Some((x, domain)),
                    |i| i.to_string(),
                )
                .failure
                .is_none()
        };
        assert!(judge(mirror, CaseDomain::In));
        assert!(
            !judge(broken, CaseDomain::In),
            "in the domain a broken result fails"
        );
        assert!(
            judge(broken, CaseDomain::Outside),
            "outside, f32 accuracy is the promise"
        );
        let off = Df64::from_f64(x * 1.01);
        assert!(!judge(off, CaseDomain::Outside));
        assert!(judge(off, CaseDomain::Unpromised));
        let nan = Df64::new(f32::NAN, 0.0);
        assert!(
            !judge(nan, CaseDomain::Unpromised),
            "a NaN for a finite value never passes"
        );
        // On a round-to-nearest driver the words must be equal, whatever the domain.
        let nearest = Proof {
            round_to_nearest: true,
            ..non_nearest_flushing()
        };
        assert!(nearest
            .compare_df64(
                "p",
                &[broken],
                &[mirror],
                |_| Some((x, CaseDomain::Unpromised)),
                |i| i.to_string()
            )
            .failure
            .is_some());
    }

    #[test]
    fn the_mirror_follows_the_two_product_under_test() {
        // Near f32::MAX Dekker's partial products overflow; a fused product stays exact.
        let a = f32::from_bits(0x7effffff);
        let b = 2.0f32;
        let proof = Proof {
            configs: vec![DriverConfig {
                protection: crate::probe::Protection::Precise,
                two_prod: TwoProdKind::Fma,
                two_sum: Default::default(),
            }],
            round_to_nearest: true,
            flushes_subnormals: false,
            refusal: None,
        };
        let fused = proof.in_env(|| crate::numeric::df64::df64_two_prod(a, b));
        assert_eq!(fused.hi as f64 + fused.lo as f64, a as f64 * b as f64);
        let dekker = test_under(
            DriverConfig {
                protection: crate::probe::Protection::Precise,
                two_prod: TwoProdKind::Dekker,
                two_sum: Default::default(),
            },
            || proof.in_env(|| crate::numeric::df64::df64_two_prod(a, b)),
        );
        assert_eq!(dekker.hi, fused.hi);
        assert!(
            !dekker.lo.is_finite(),
            "Dekker's split overflows here: {dekker:?}"
        );
    }

    #[test]
    fn compare_names_the_first_difference() {
        let proof = Proof {
            configs: vec![],
            round_to_nearest: true,
            flushes_subnormals: false,
            refusal: None,
        };
        let got = [Df64::new(1.0, 0.0), Df64::new(2.0, 1e-9)];
        let want = [Df64::new(1.0, 0.0), Df64::new(2.0, 0.0)];
        let o = proof.compare("p", &got, &want, df64_words, |i| format!("case {i}"));
        let f = o.failure.expect("differs");
        assert_eq!(f.input, "case 1");
        assert_eq!(o.cases, 2);
        assert!(proof
            .compare("p", &want, &want, df64_words, |i| i.to_string())
            .failure
            .is_none());
    }
}
