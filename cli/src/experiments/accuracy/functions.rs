//! The df64 function rows: each elementary function (exp, log, sin, cos, tan, atan, ..., fmod)
//! over its operand ranges against the correctly rounded oracle, on all cores.

use super::*;

/// One row of the df64 function table: an elementary function over an operand range.
#[derive(Debug, Clone, Copy)]
pub struct FunctionCase {
    /// The function.
    pub op: Df64Op,
    /// Range label as the report prints it.
    pub range: &'static str,
    /// Range of the first operand.
    pub a: (f64, f64),
    /// Range of the second operand, for two-operand functions.
    pub b: Option<(f64, f64)>,
    /// (max, rms) in ulp48; `None` for fmod, whose criterion is exactness.
    pub target: Option<(f64, f64)>,
    /// The op's name in Thall's Table II, where he has the same row.
    pub thall: Option<&'static str>,
}

pub(super) const HALF_PI: f64 = std::f64::consts::FRAC_PI_2;
const TWO_20: f64 = 1_048_576.0;

/// Thall's Table II function rows, then the functions he did not have and wide ranges.
pub fn function_cases() -> Vec<FunctionCase> {
    let c = |op, range, a, b, target: Option<(f64, f64)>, thall| FunctionCase {
        op,
        range,
        a,
        b,
        target,
        thall,
    };
    let one = Some((1.0, 0.5));
    let two = Some((2.0, 0.5));
    let four = Some((4.0, 1.0));
    vec![
        c(Df64Op::Exp, "[-1, 1]", (-1.0, 1.0), None, one, Some("exp")),
        c(Df64Op::Log1p, "[1, 2]", (1.0, 2.0), None, one, Some("ln1p")),
        c(
            Df64Op::Sin,
            "[-pi/2, pi/2]",
            (-HALF_PI, HALF_PI),
            None,
            one,
            Some("sin"),
        ),
        c(
            Df64Op::Cos,
            "[-pi/2, pi/2]",
            (-HALF_PI, HALF_PI),
            None,
            one,
            Some("cos"),
        ),
        c(Df64Op::Exp, "[-50, 88]", (-50.0, 88.0), None, one, None),
        c(Df64Op::Expm1, "[-1, 1]", (-1.0, 1.0), None, one, None),
        c(Df64Op::Log, "[0.5, 2]", (0.5, 2.0), None, one, None),
        c(Df64Op::Log, "[1e-30, 1e30]", (1e-30, 1e30), None, one, None),
        c(Df64Op::Log2, "[0.5, 2]", (0.5, 2.0), None, one, None),
        c(
            Df64Op::Log2,
            "[1e-30, 1e30]",
            (1e-30, 1e30),
            None,
            one,
            None,
        ),
        c(Df64Op::Log10, "[0.5, 2]", (0.5, 2.0), None, one, None),
        c(
            Df64Op::Log10,
            "[1e-30, 1e30]",
            (1e-30, 1e30),
            None,
            one,
            None,
        ),
        c(
            Df64Op::Log1p,
            "[-0.25, 0.25]",
            (-0.25, 0.25),
            None,
            one,
            None,
        ),
        c(
            Df64Op::Sin,
            "[-2^20, 2^20]",
            (-TWO_20, TWO_20),
            None,
            one,
            None,
        ),
        c(
            Df64Op::Cos,
            "[-2^20, 2^20]",
            (-TWO_20, TWO_20),
            None,
            one,
            None,
        ),
        c(Df64Op::Tan, "[-1.5, 1.5]", (-1.5, 1.5), None, one, None),
        c(Df64Op::Atan, "[-10, 10]", (-10.0, 10.0), None, one, None),
        c(
            Df64Op::Atan2,
            "[-10, 10]^2",
            (-10.0, 10.0),
            Some((-10.0, 10.0)),
            one,
            None,
        ),
        c(Df64Op::Asin, "[-1, 1]", (-1.0, 1.0), None, one, None),
        c(Df64Op::Acos, "[-1, 1]", (-1.0, 1.0), None, one, None),
        c(Df64Op::Sinh, "[-5, 5]", (-5.0, 5.0), None, one, None),
        c(Df64Op::Cosh, "[-5, 5]", (-5.0, 5.0), None, one, None),
        c(Df64Op::Tanh, "[-5, 5]", (-5.0, 5.0), None, one, None),
        c(
            Df64Op::Pow,
            "x [0.5, 2], y [-4, 4]",
            (0.5, 2.0),
            Some((-4.0, 4.0)),
            two,
            None,
        ),
        // The fast tier's functions, on the same ranges (sin and cos to the end of their
        // domain, 2^20).
        c(Df64Op::ExpFast, "[-1, 1]", (-1.0, 1.0), None, two, None),
        c(Df64Op::ExpFast, "[-50, 88]", (-50.0, 88.0), None, two, None),
        c(Df64Op::LogFast, "[0.5, 2]", (0.5, 2.0), None, two, None),
        c(
            Df64Op::LogFast,
            "[1e-30, 1e30]",
            (1e-30, 1e30),
            None,
            two,
            None,
        ),
        c(
            Df64Op::SinFast,
            "[-pi/2, pi/2]",
            (-HALF_PI, HALF_PI),
            None,
            four,
            None,
        ),
        c(
            Df64Op::CosFast,
            "[-pi/2, pi/2]",
            (-HALF_PI, HALF_PI),
            None,
            four,
            None,
        ),
        c(
            Df64Op::SinFast,
            "[-2^20, 2^20]",
            (-TWO_20, TWO_20),
            None,
            four,
            None,
        ),
        c(
            Df64Op::CosFast,
            "[-2^20, 2^20]",
            (-TWO_20, TWO_20),
            None,
            four,
            None,
        ),
        // |a/b| <= 2e6 < 2^24, where fmod is exact whenever the result is a df64.
        c(
            Df64Op::Fmod,
            "[-1e6, 1e6] / [0.5, 10]",
            (-1e6, 1e6),
            Some((0.5, 10.0)),
            None,
            None,
        ),
    ]
}

/// `f(oracle, i)` for i in 0..n on all cores, each thread with its own oracle.
pub(crate) fn with_oracles<T: Send + Clone + Default>(
    n: usize,
    f: impl Fn(&mut df64gl::numeric::oracle::Oracle, usize) -> T + Sync,
) -> Vec<T> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |t| t.get())
        .max(1);
    let chunk = n.div_ceil(threads).max(1);
    let mut out = vec![T::default(); n];
    std::thread::scope(|scope| {
        for (t, slot) in out.chunks_mut(chunk).enumerate() {
            let f = &f;
            scope.spawn(move || {
                let mut o = df64gl::numeric::oracle::Oracle::new();
                for (k, cell) in slot.iter_mut().enumerate() {
                    *cell = f(&mut o, t * chunk + k);
                }
            });
        }
    });
    out
}

/// Errors in ulp48 of `results` against the oracle, and whether the exact value is a df64.
fn oracle_errors(
    case: &FunctionCase,
    a: &[Df64],
    b: &[Df64],
    results: &[Df64],
) -> Vec<(f64, bool)> {
    use df64gl::numeric::oracle::{big_df64, error_ulp48, is_df64};
    with_oracles(a.len(), |o, i| {
        let (x, y) = (big_df64(a[i]), big_df64(b[i]));
        match case.op.oracle(o, &x, &y) {
            Some(exact) => {
                let representable = case.target.is_some() || is_df64(&exact);
                (error_ulp48(results[i], &exact), representable)
            }
            None => (0.0, true),
        }
    })
}

/// Measures one function case on the GPU: oracle errors and the CPU-mirror comparison.
pub fn measure_function(
    kernels: &Df64Kernels,
    case: &FunctionCase,
    samples: usize,
    seed: u64,
) -> Result<AccuracyRow, ExperimentError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ ((case.op as u64) << 20) ^ case.a.1.to_bits());
    let a: Vec<Df64> = (0..samples)
        .map(|_| random_df64(&mut rng, case.a.0, case.a.1))
        .collect();
    let b: Vec<Df64> = match case.b {
        Some((lo, hi)) => (0..samples)
            .map(|_| random_df64(&mut rng, lo, hi))
            .collect(),
        None => vec![Df64::ZERO; samples],
    };
    let got = kernels.apply_unchecked(case.op, &a, &b)?;
    let mirror = case.op.mirror();
    let expected = kernels.mirror_map(samples, |i| mirror(a[i], b[i]));
    let mismatches = (0..samples)
        .filter(|&i| {
            let m = expected[i];
            m.hi.to_bits() != got[i].hi.to_bits() || m.lo.to_bits() != got[i].lo.to_bits()
        })
        .count();
    let errs = oracle_errors(case, &a, &b, &got);
    let considered: Vec<f64> = errs.iter().filter(|e| e.1).map(|e| e.0).collect();
    let max = considered.iter().cloned().fold(0.0, f64::max);
    let rms =
        (considered.iter().map(|e| e * e).sum::<f64>() / considered.len().max(1) as f64).sqrt();
    let inexact = case.target.is_none().then(|| {
        (
            considered.iter().filter(|e| **e != 0.0).count(),
            considered.len(),
        )
    });
    let thall = thall_table2()?;
    let target = case.target.map(|(max, rms)| Target {
        max,
        rms: Some(rms),
    });
    Ok(AccuracyRow {
        op: case.op.name().to_string(),
        variant: None,
        range: case.range.to_string(),
        samples,
        unit: ErrorUnit::Ulp48,
        max,
        rms,
        target,
        meets_target: match (target, inexact) {
            (Some(t), _) => Some(t.met(max, rms)),
            (None, Some((bad, _))) => Some(bad == 0),
            _ => None,
        },
        thall_g80: case
            .thall
            .and_then(|n| thall.rows.iter().find(|r| r.op == n))
            .map(|r| (r.max, r.rms)),
        mirror_mismatches: mismatches,
        mirror_must_match: kernels.round_to_nearest(),
        inexact_of_representable: inexact,
        cost_vs_f32_add: None,
        ns_per_op: None,
        domain: None,
    })
}
