//! The qf128 rows: each qf128 operation over its operand range against the oracle, in ulp96,
//! and bit for bit against the CPU mirror.

use super::functions::HALF_PI;
use super::*;

/// A qf128 with all four words populated: x uniform in [lo, hi), each further word uniform
/// within half an ulp of the one before, renormalized.
pub fn random_qf128(rng: &mut impl Rng, lo: f64, hi: f64) -> Qf128 {
    let x: f64 = rng.gen_range(lo..hi);
    let mut w = [x as f32, 0.0, 0.0, 0.0];
    for k in 1..4 {
        if w[k - 1] == 0.0 {
            break;
        }
        w[k] = (rng.gen_range(-0.5..0.5) * ulp_bits(w[k - 1] as f64, 23)) as f32;
    }
    let r = qf128_renorm4(w[0], w[1], w[2], w[3]);
    if (r.x[0] as f64) < lo || (r.x[0] as f64) >= hi {
        Qf128::from_f32(w[0])
    } else {
        r
    }
}

/// One row of the qf128 table.
#[derive(Debug, Clone, Copy)]
pub struct QfCase {
    /// The operation.
    pub op: Qf128Op,
    /// The range, as shown.
    pub range: &'static str,
    /// Range of the first operand.
    pub a: (f64, f64),
    /// Range of the second operand.
    pub b: (f64, f64),
    /// Max error target in ulp96 (none for Thall's sloppy routines).
    pub target: Option<f64>,
}

/// The qf128 rows: Thall's operand ranges, then wide ranges for the functions.
pub fn qf128_cases() -> Vec<QfCase> {
    let c = |op, range, a, b, target| QfCase {
        op,
        range,
        a,
        b,
        target,
    };
    let unit = (-1.0, 1.0);
    vec![
        c(Qf128Op::Add, "[-1, 1]", unit, unit, Some(2.0)),
        c(Qf128Op::Sub, "[-1, 1]", unit, unit, Some(2.0)),
        c(Qf128Op::Mul, "[-1, 1]", unit, unit, Some(2.0)),
        c(Qf128Op::Sqr, "[-1, 1]", unit, unit, Some(2.0)),
        c(Qf128Op::MulF32, "[-1, 1]", unit, unit, Some(2.0)),
        c(Qf128Op::MulDf64, "[-1, 1]", unit, unit, Some(2.0)),
        c(Qf128Op::Div, "[-1, 1]", unit, unit, Some(4.0)),
        c(Qf128Op::Recip, "[-1, 1]", unit, unit, Some(4.0)),
        c(Qf128Op::Sqrt, "[0, 1]", (0.0, 1.0), unit, Some(4.0)),
        c(
            Qf128Op::Rsqrt,
            "(0, 1)",
            (f64::MIN_POSITIVE, 1.0),
            unit,
            Some(4.0),
        ),
        c(Qf128Op::Exp, "[-1, 1]", unit, unit, Some(8.0)),
        // Below e^-20 ~ 2^-29 the fourth word of the result would be subnormal.
        c(Qf128Op::Exp, "[-20, 80]", (-20.0, 80.0), unit, Some(8.0)),
        c(Qf128Op::Log, "[0.5, 2]", (0.5, 2.0), unit, Some(8.0)),
        c(
            Qf128Op::Log,
            "[1e-10, 1e10]",
            (1e-10, 1e10),
            unit,
            Some(8.0),
        ),
        c(
            Qf128Op::Sin,
            "[-pi/2, pi/2]",
            (-HALF_PI, HALF_PI),
            unit,
            Some(8.0),
        ),
        c(
            Qf128Op::Cos,
            "[-pi/2, pi/2]",
            (-HALF_PI, HALF_PI),
            unit,
            Some(8.0),
        ),
        c(
            Qf128Op::Sin,
            "[-1024, 1024]",
            (-1024.0, 1024.0),
            unit,
            Some(8.0),
        ),
        c(
            Qf128Op::Cos,
            "[-1024, 1024]",
            (-1024.0, 1024.0),
            unit,
            Some(8.0),
        ),
        // Payne and Hanek's reduction on all four words.
        c(
            Qf128Op::Sin,
            "[-1e30, 1e30]",
            (-1e30, 1e30),
            unit,
            Some(8.0),
        ),
        c(
            Qf128Op::Cos,
            "[-1e30, 1e30]",
            (-1e30, 1e30),
            unit,
            Some(8.0),
        ),
        c(Qf128Op::AddSloppy, "[-1, 1]", unit, unit, None),
        c(Qf128Op::MulSloppy, "[-1, 1]", unit, unit, None),
    ]
}

/// Measures one qf128 case on the GPU against the oracle and the CPU mirror.
pub fn measure_qf128(
    kernels: &Df64Kernels,
    case: &QfCase,
    samples: usize,
    seed: u64,
) -> Result<AccuracyRow, ExperimentError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ ((case.op as u64) << 24) ^ case.a.1.to_bits());
    let a: Vec<Qf128> = (0..samples)
        .map(|_| random_qf128(&mut rng, case.a.0, case.a.1))
        .collect();
    let b: Vec<Qf128> = (0..samples)
        .map(|_| {
            case.op
                .second_operand(random_qf128(&mut rng, case.b.0, case.b.1))
        })
        .collect();
    let got = kernels.apply_qf128(case.op, &a, &b)?;
    let mirror = case.op.mirror();
    let expected = kernels.mirror_map(samples, |i| mirror(a[i], b[i]));
    let mismatches = (0..samples)
        .filter(|&i| (0..4).any(|w| expected[i].x[w].to_bits() != got[i].x[w].to_bits()))
        .count();
    let errs = with_oracles(samples, |o, i| {
        let exact = case.op.oracle(o, &a[i].to_big(), &b[i].to_big());
        df64gl::numeric::oracle::error_ulp96(&got[i].x, &exact)
    });
    let max = errs.iter().cloned().fold(0.0, f64::max);
    let rms = (errs.iter().map(|e| e * e).sum::<f64>() / samples.max(1) as f64).sqrt();
    let target = case.target.map(|max| Target { max, rms: None });
    Ok(AccuracyRow {
        op: case.op.name().to_string(),
        variant: None,
        range: case.range.to_string(),
        samples,
        unit: ErrorUnit::Ulp96,
        max,
        rms,
        target,
        meets_target: target.map(|t| t.met(max, rms)),
        thall_g80: None,
        mirror_mismatches: mismatches,
        mirror_must_match: kernels.round_to_nearest(),
        inexact_of_representable: None,
        cost_vs_f32_add: None,
        ns_per_op: None,
        domain: None,
    })
}
