//! qf128 at every exponent: each qf128 op with operands drawn so that its results spread over
//! the whole f32 exponent range, its error bucketed by the magnitude of the exact result.
//!
//! Why by magnitude: a qf128's four words step down about 24 binades each, so its fourth word
//! leaves the normal range (2^-126) about 72 binades before its leading word does. Below a
//! result of about 2^-54 the trailing words are flushed (or subnormal) and the precision falls
//! with the magnitude; this sweep shows where 96 bits hold and how they degrade, on the driver
//! at hand.

use super::functions::with_oracles;
use super::*;
use df64gl::numeric::oracle::{error_ulp96, to_f64};

/// log2 edges of the result bands: [-126, -102), [-102, -78), ... [120, 128). Results below
/// 2^-126 form a band of their own (`lo` = i32::MIN).
pub const QF128_BAND_EDGES: [i32; 12] = [-126, -102, -78, -54, -30, 0, 30, 60, 90, 110, 120, 128];

/// The ops of the sweep: every qf128 op but Thall's sloppy ones, which promise no bound.
pub fn qf128_exponent_ops() -> impl Iterator<Item = Qf128Op> {
    Qf128Op::ALL
        .into_iter()
        .filter(|op| !matches!(op, Qf128Op::AddSloppy | Qf128Op::MulSloppy))
}

/// (1 + u) 2^k as a qf128 with four full words (each further word within half an ulp of the
/// one before), a random sign unless `positive`; words below 2^-126 are dropped, as a driver
/// that flushes subnormals holds them. k is clamped to [-126, 127].
pub fn qf128_at_exponent(rng: &mut impl Rng, k: i32, positive: bool) -> Qf128 {
    let k = k.clamp(-126, 127);
    let sign = if positive || rng.gen::<bool>() {
        1.0
    } else {
        -1.0
    };
    let x = sign * (1.0 + rng.gen::<f64>()) * 2f64.powi(k);
    let mut w = [(x as f32), 0.0, 0.0, 0.0];
    if !w[0].is_finite() {
        w[0] = f32::MAX.copysign(sign as f32);
    }
    for i in 1..4 {
        let v = (rng.gen_range(-0.5..0.5) * ulp_bits(w[i - 1] as f64, 23)) as f32;
        w[i] = if v.abs() < f32::MIN_POSITIVE { 0.0 } else { v };
        if w[i] == 0.0 {
            break;
        }
    }
    let r = qf128_renorm4(w[0], w[1], w[2], w[3]);
    let r = Qf128::new(r.x[0], r.x[1], r.x[2], r.x[3]);
    if r.x.iter().all(|v| v.is_finite()) {
        Qf128::new(
            r.x[0],
            flush_word(r.x[1]),
            flush_word(r.x[2]),
            flush_word(r.x[3]),
        )
    } else {
        Qf128::from_f32(w[0])
    }
}

fn flush_word(x: f32) -> f32 {
    if x.abs() < f32::MIN_POSITIVE {
        0.0
    } else {
        x
    }
}

/// Operands of `op` whose exact result lies near 2^k (within a few binades): sums of two
/// operands at 2^k and up to 30 binades below, products and quotients of a factor near 1 and
/// one near 2^k, squares and roots of 2^(k/2) and 2^(2k); exp over its whole argument range,
/// log of every exponent, sine and cosine from 2^-126 to 2^127 (k is then the argument's: above
/// 2^0 through Payne and Hanek's reduction).
pub fn qf128_exponent_operands(op: Qf128Op, k: i32, rng: &mut impl Rng) -> (Qf128, Qf128) {
    let near_one = |rng: &mut ChaCha8Rng| rng.gen_range(-8..=8);
    let mut r = ChaCha8Rng::seed_from_u64(rng.gen());
    let (a, b) = match op {
        Qf128Op::Add | Qf128Op::Sub | Qf128Op::AddSloppy => {
            let gap = r.gen_range(0..30);
            (
                qf128_at_exponent(&mut r, k, false),
                qf128_at_exponent(&mut r, k - gap, false),
            )
        }
        Qf128Op::Mul | Qf128Op::MulSloppy | Qf128Op::MulF32 | Qf128Op::MulDf64 => {
            let j = near_one(&mut r);
            (
                qf128_at_exponent(&mut r, k - j, false),
                qf128_at_exponent(&mut r, j, false),
            )
        }
        Qf128Op::Div => {
            let j = near_one(&mut r);
            (
                qf128_at_exponent(&mut r, k + j, false),
                qf128_at_exponent(&mut r, j, false),
            )
        }
        Qf128Op::Sqr => (
            qf128_at_exponent(&mut r, k.div_euclid(2), false),
            Qf128::ZERO,
        ),
        Qf128Op::Recip => (qf128_at_exponent(&mut r, -k - 1, false), Qf128::ZERO),
        Qf128Op::Sqrt => (qf128_at_exponent(&mut r, 2 * k, true), Qf128::ZERO),
        Qf128Op::Rsqrt => (qf128_at_exponent(&mut r, -2 * k, true), Qf128::ZERO),
        Qf128Op::Exp => {
            // e^x over the whole range: x from ln 2^-126 to ln 2^127.
            let x: f64 = r.gen_range(-87.3..88.0);
            (random_qf128(&mut r, x, x + 1e-3), Qf128::ZERO)
        }
        Qf128Op::Log => (qf128_at_exponent(&mut r, k, true), Qf128::ZERO),
        Qf128Op::Sin | Qf128Op::Cos => (qf128_at_exponent(&mut r, k, false), Qf128::ZERO),
    };
    (a, op.second_operand(b))
}

/// One band of one op in the exponent sweep.
#[derive(Debug, Clone, Serialize)]
pub struct QfExponentRow {
    /// The op.
    pub op: String,
    /// log2 range of the exact results in this band: [lo, hi); lo = -1000 for the band below
    /// 2^-126.
    pub band: (i32, i32),
    /// Results in the band.
    pub samples: usize,
    /// Largest error in ulp96 of the exact value (not measured below 2^-126).
    pub max_ulp96: f64,
    /// The fewest correct bits: -log2 of the largest relative error (capped at 120).
    pub min_bits: f64,
    /// The largest absolute error, in units of 2^-126.
    pub max_abs_min_normal: f64,
    /// Results that are NaN where the exact value is a number, infinite below 2^127, or
    /// finite beyond f32::MAX.
    pub nonfinite_wrong: usize,
    /// Results whose words differ from the CPU mirror's (NaN equal to NaN; on a flushing
    /// driver a subnormal word equal to a zero of its sign).
    pub mirror_mismatches: usize,
}

/// Band index of an exact result of log2 magnitude `e` (`None` for zero).
fn band_of(x: f64) -> Option<usize> {
    if x == 0.0 || !x.is_finite() {
        return None;
    }
    let e = x.abs().log2().floor() as i32;
    if e < QF128_BAND_EDGES[0] {
        return Some(0);
    }
    QF128_BAND_EDGES
        .windows(2)
        .position(|w| e >= w[0] && e < w[1])
        .map(|i| i + 1)
}

fn band_range(i: usize) -> (i32, i32) {
    if i == 0 {
        (-1000, QF128_BAND_EDGES[0])
    } else {
        (QF128_BAND_EDGES[i - 1], QF128_BAND_EDGES[i])
    }
}

/// Measures every op of [`qf128_exponent_ops`] on `per_op` operand pairs whose result
/// exponents are uniform over [-140, 127], against the oracle and the mirror.
pub fn measure_qf128_exponents(
    kernels: &Df64Kernels,
    per_op: usize,
    seed: u64,
) -> Result<Vec<QfExponentRow>, ExperimentError> {
    let mut rows = Vec::new();
    for op in qf128_exponent_ops() {
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ ((op as u64) << 32) ^ 0x9f128);
        let (a, b): (Vec<Qf128>, Vec<Qf128>) = (0..per_op)
            .map(|_| {
                let k = rng.gen_range(-140..=127);
                qf128_exponent_operands(op, k, &mut rng)
            })
            .unzip();
        let got = kernels.apply_qf128(op, &a, &b)?;
        let mirror = op.mirror();
        let want = kernels.mirror_map(per_op, |i| mirror(a[i], b[i]));
        let flush = kernels.flushes_subnormals();
        let read = |x: f32| {
            if flush && x.is_subnormal() {
                0.0f32.copysign(x)
            } else {
                x
            }
        };
        let differs = |g: &Qf128, w: &Qf128| {
            g.x.iter().zip(&w.x).any(|(g, w)| {
                let (g, w) = (read(*g), read(*w));
                !(g.to_bits() == w.to_bits() || g.is_nan() && w.is_nan())
            })
        };
        // (exact value as f64, error in ulp96, absolute error)
        let errs = with_oracles(per_op, |o, i| {
            let exact = op.oracle(o, &a[i].to_big(), &b[i].to_big());
            let x = to_f64(&exact);
            let ulps = error_ulp96(&got[i].x, &exact);
            let abs = to_f64(&o.sub(&got[i].to_big(), &exact)).abs();
            (x, ulps, abs)
        });
        let bands = QF128_BAND_EDGES.len();
        let mut acc: Vec<QfExponentRow> = (0..bands)
            .map(|i| QfExponentRow {
                op: op.name().to_string(),
                band: band_range(i),
                samples: 0,
                max_ulp96: 0.0,
                min_bits: 120.0,
                max_abs_min_normal: 0.0,
                nonfinite_wrong: 0,
                mirror_mismatches: 0,
            })
            .collect();
        for (i, (x, ulps, abs)) in errs.iter().enumerate() {
            let Some(band) = band_of(*x) else { continue };
            let row = &mut acc[band];
            row.samples += 1;
            let g = got[i].x[0];
            let wrong = (g.is_nan() && !x.is_nan())
                || (g.is_infinite() && x.abs() < 2f64.powi(127))
                || (g.is_finite() && x.abs() > f32::MAX as f64);
            if wrong {
                row.nonfinite_wrong += 1;
                continue;
            }
            if differs(&got[i], &want[i]) {
                row.mirror_mismatches += 1;
            }
            if !g.is_finite() {
                continue;
            }
            if band > 0 {
                row.max_ulp96 = row.max_ulp96.max(*ulps);
            }
            row.max_abs_min_normal = row.max_abs_min_normal.max(abs / f32::MIN_POSITIVE as f64);
            let rel = abs / x.abs();
            let bits = if rel > 0.0 {
                (-rel.log2()).min(120.0)
            } else {
                120.0
            };
            row.min_bits = row.min_bits.min(bits);
        }
        rows.extend(acc.into_iter().filter(|r| r.samples > 0));
    }
    Ok(rows)
}
