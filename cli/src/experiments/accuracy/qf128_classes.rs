//! qf128's functions (exp, log, sin, cos) over classes of arguments, as the df64 sweep does for
//! df64's: ±0, subnormals, the smallest normals, tiny, small, unit, large, huge (up to
//! f32::MAX), ±inf, NaN and each function's own edges (exp's overflow and underflow limits,
//! log near 1 and at every power of two, sin and cos at the f32, df64 and 96-bit arguments
//! hardest for the long reduction and at multiples of pi/2 far out). Every argument has four populated words.
//! Judged by the bound as a function of magnitude, |result - exact| <= T ulp96(exact) + C 2^-126,
//! and by IEEE's values at the special ones.

use astro_float::BigFloat;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use super::functions::with_oracles;
use super::qf128_exponents::qf128_at_exponent;
use crate::error::ExperimentError;
use df64gl::kernels::{Df64Kernels, Qf128Op};
use df64gl::numeric::oracle::{big, big_words, error_ulp96, to_f64, Oracle, ORACLE_BITS};
use df64gl::numeric::qf128::{qf128_renorm4, Qf128};
use df64gl::numeric::trig_hard_cases::trig_hard_cases_qf128;

use super::classes::{trig_hard_arguments, ARGUMENT_CLASSES};

/// The qf128 functions the sweep runs.
const QF128_CLASS_OPS: [Qf128Op; 4] = [Qf128Op::Exp, Qf128Op::Log, Qf128Op::Sin, Qf128Op::Cos];

/// The documented bound of the qf128 functions: (T, C) in |result - exact| <= T ulp96(exact)
/// + C 2^-126 (docs/accuracy-functions.md, "qf128 at every exponent").
pub const QF128_FUNCTION_BOUND: (f64, f64) = (8.0, 4.0);

/// Above this magnitude a qf128 keeps all 96 bits where subnormals are flushed (its fourth word,
/// about 2^-96 of it, is then normal): the table's ulp96 cells count results from here up.
pub const QF128_FULL_FROM: f64 = 9.313225746154785e-10; // 2^-30

/// One class of arguments of one function.
#[derive(Debug, Clone)]
pub struct QfClassCase {
    /// The function.
    pub op: Qf128Op,
    /// The class's name (one of [`ARGUMENT_CLASSES`]).
    pub class: &'static str,
    /// The arguments.
    pub a: Vec<Qf128>,
}

fn signed(rng: &mut ChaCha8Rng, x: Qf128) -> Qf128 {
    if rng.gen::<bool>() {
        Qf128::new(-x.x[0], -x.x[1], -x.x[2], -x.x[3])
    } else {
        x
    }
}

/// The nearest qf128 to `x` (for the edges: powers, multiples of constants).
fn nearest(x: &BigFloat) -> Qf128 {
    df64gl::numeric::oracle::round_to_qf128(x)
}

fn edges(op: Qf128Op, o: &mut Oracle, rng: &mut ChaCha8Rng, n: usize) -> Vec<Qf128> {
    let mut out = Vec::new();
    let near = |rng: &mut ChaCha8Rng, x: f64, rel: f64| {
        let y = x * (1.0 + rng.gen_range(-rel..rel));
        qf128_at_exponent_value(rng, y)
    };
    match op {
        Qf128Op::Exp => {
            for _ in 0..n / 4 {
                out.push(near(rng, 88.72283, 1e-7)); // either side of the overflow limit
                out.push(near(rng, -87.33654, 1e-7)); // the underflow limit
                out.push(near(rng, -103.97, 1e-3)); // far below it: +0
                let k = rng.gen_range(-120..=127) as f64;
                out.push(near(rng, k * std::f64::consts::LN_2, 1e-12)); // near powers of two
            }
        }
        Qf128Op::Log => {
            // 1 + 2^-k (1 + u) on both sides of 1: results near 2^-k, down to 2^-100.
            for i in 0..n / 2 {
                let k = 1 + (i % 100) as i32;
                let u = rng.gen_range(0.0..1.0);
                let d = big(2f64.powi(-k) * (1.0 + u));
                let one = big(1.0);
                let x = if i % 4 < 2 {
                    one.add(&d, ORACLE_BITS, astro_float::RoundingMode::ToEven)
                } else {
                    one.sub(
                        &d.mul(&big(0.5), ORACLE_BITS, astro_float::RoundingMode::ToEven),
                        ORACLE_BITS,
                        astro_float::RoundingMode::ToEven,
                    )
                };
                out.push(nearest(&x));
            }
            for e in (-126..=127).step_by(3) {
                out.push(Qf128::from_f32(2f32.powi(e)));
            }
            out.push(Qf128::from_f32(f32::MAX));
            out.push(Qf128::from_f32(f32::MIN_POSITIVE));
        }
        Qf128Op::Sin | Qf128Op::Cos => {
            // The f32, df64 and 96-bit arguments closest to a multiple of pi/2 at each exponent
            // from 2^-1 to 2^127 (the 96-bit ones come within 2^-100 of one).
            for x in trig_hard_arguments() {
                out.push(Qf128::new(x.hi, x.lo, 0.0, 0.0));
            }
            for (x, _) in trig_hard_cases_qf128(o, -96..=32) {
                out.push(signed(rng, x));
            }
            // k pi/2 rounded to a qf128, far out: results near 2^-100 relative to the argument.
            let half_pi = o
                .pi()
                .mul(&big(0.5), ORACLE_BITS, astro_float::RoundingMode::ToEven);
            for _ in 0..n / 4 {
                let k = rng.gen_range(1u64..(1 << 40)) as f64;
                out.push(signed(
                    rng,
                    nearest(&half_pi.mul(&big(k), ORACLE_BITS, astro_float::RoundingMode::ToEven)),
                ));
            }
            // Either side of pi/4, where the long reduction takes over.
            for _ in 0..n / 8 {
                out.push(near(rng, std::f64::consts::FRAC_PI_4, 1e-7));
            }
        }
        _ => {}
    }
    out
}

/// A qf128 with all four words populated whose value is about `x`.
fn qf128_at_exponent_value(rng: &mut ChaCha8Rng, x: f64) -> Qf128 {
    let h = x as f32;
    if h == 0.0 || !h.is_finite() {
        return Qf128::from_f32(h);
    }
    let u = h.abs() * 2f32.powi(-24);
    let w = [
        h,
        ((x - h as f64) as f32) + u * rng.gen_range(-0.25f32..0.25),
        u * 2f32.powi(-24) * rng.gen_range(-0.5f32..0.5),
        u * 2f32.powi(-48) * rng.gen_range(-0.5f32..0.5),
    ];
    let w = w.map(|v| if v.abs() < f32::MIN_POSITIVE { 0.0 } else { v });
    qf128_renorm4(w[0], w[1], w[2], w[3])
}

/// Every function's arguments, class by class: `n` per class (the edges and specials as many
/// as they are).
pub fn qf128_class_cases(n: usize, seed: u64) -> Vec<QfClassCase> {
    let mut o = Oracle::new();
    let mut out = Vec::new();
    for op in QF128_CLASS_OPS {
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x9f12_8c1a ^ ((op as u64) << 24));
        let positive = op == Qf128Op::Log;
        for class in ARGUMENT_CLASSES {
            let mut a = Vec::new();
            let at = |rng: &mut ChaCha8Rng, lo: i32, hi: i32| {
                let k = rng.gen_range(lo..=hi);
                qf128_at_exponent(rng, k, positive)
            };
            match class {
                "±0" => a.extend([Qf128::ZERO, Qf128::from_f32(-0.0)]),
                "subnormal" => {
                    for _ in 0..n {
                        let m = rng.gen_range(1u32..0x80_0000);
                        let s = if positive || rng.gen::<bool>() {
                            0
                        } else {
                            0x8000_0000
                        };
                        a.push(Qf128::from_f32(f32::from_bits(m | s)));
                    }
                }
                "min normal" => {
                    for _ in 0..n {
                        a.push(at(&mut rng, -126, -126));
                    }
                }
                "tiny" => (0..n).for_each(|_| a.push(at(&mut rng, -125, -61))),
                "small" => (0..n).for_each(|_| a.push(at(&mut rng, -60, -9))),
                "unit" => (0..n).for_each(|_| a.push(at(&mut rng, -8, 3))),
                "large" => (0..n).for_each(|_| a.push(at(&mut rng, 4, 22))),
                "huge" => {
                    (0..n).for_each(|_| a.push(at(&mut rng, 23, 127)));
                    a.push(Qf128::from_f32(f32::MAX));
                    if !positive {
                        a.push(Qf128::from_f32(-f32::MAX));
                    }
                }
                "±inf" => a.extend([
                    Qf128::from_f32(f32::INFINITY),
                    Qf128::from_f32(f32::NEG_INFINITY),
                ]),
                "NaN" => a.push(Qf128::from_f32(f32::NAN)),
                _ => a = edges(op, &mut o, &mut rng, n),
            }
            if positive && !matches!(class, "±0" | "±inf" | "NaN" | "subnormal") {
                // log's negative arguments: a few in each class (NaN), the rest positive.
                for x in a.iter_mut().step_by(16) {
                    *x = Qf128::new(-x.x[0], -x.x[1], -x.x[2], -x.x[3]);
                }
            }
            out.push(QfClassCase { op, class, a });
        }
    }
    out
}

/// What a qf128 function must return for `a`, judged by IEEE's rules at the special values and
/// the bound elsewhere.
#[derive(Debug, Clone, PartialEq)]
enum QfExpected {
    /// NaN.
    Nan,
    /// This exact f32 value in the first word and zeros after it (a zero's sign counts).
    Exact(f32),
    /// A number: within T ulp96 of it plus C 2^-126 (±inf past f32::MAX, and allowed from
    /// 2^127 up).
    Value(BigFloat),
}

/// The value `op` must give for `a` (read as the driver reads it: a flushed subnormal word is
/// ±0 there).
fn qf128_expected(op: Qf128Op, a: Qf128, o: &mut Oracle) -> QfExpected {
    let x = a.x[0];
    if x.is_nan() {
        return QfExpected::Nan;
    }
    if x.is_infinite() {
        return match (op, x > 0.0) {
            (Qf128Op::Exp, true) | (Qf128Op::Log, true) => QfExpected::Exact(f32::INFINITY),
            (Qf128Op::Exp, false) => QfExpected::Exact(0.0),
            _ => QfExpected::Nan,
        };
    }
    if x == 0.0 {
        return match op {
            Qf128Op::Exp | Qf128Op::Cos => QfExpected::Exact(1.0),
            Qf128Op::Log => QfExpected::Exact(f32::NEG_INFINITY),
            _ => QfExpected::Exact(x),
        };
    }
    if op == Qf128Op::Log && x < 0.0 {
        return QfExpected::Nan;
    }
    QfExpected::Value(op.oracle(o, &big_words(&a.x), &big(0.0)))
}

/// The verdict on one result: `Err` with the reason where it breaks the rules, else the error
/// in ulp96 (for a number) and its correct bits.
fn qf128_judge(
    got: &Qf128,
    want: &QfExpected,
    (t, c): (f64, f64),
) -> Result<Option<(f64, f64, f64)>, String> {
    let g = got.x[0];
    let min_normal = f32::MIN_POSITIVE as f64;
    match want {
        QfExpected::Nan => g
            .is_nan()
            .then_some(None)
            .ok_or_else(|| "not NaN".to_string()),
        QfExpected::Exact(v) => {
            let same = g.to_bits() == v.to_bits() && got.x[1..].iter().all(|w| *w == 0.0);
            same.then_some(None).ok_or_else(|| format!("not {v:?}"))
        }
        QfExpected::Value(exact) => {
            let x = to_f64(exact);
            if x.abs() > f32::MAX as f64 {
                return (g.is_infinite() && (g > 0.0) == (x > 0.0))
                    .then_some(None)
                    .ok_or_else(|| "finite beyond f32::MAX".to_string());
            }
            // From 2^127 up an infinity is allowed (the documented limit: exp is +inf past
            // x.hi = 88.72283 even where the lower words bring the value just under ln f32::MAX).
            if g.is_infinite() && x.abs() >= 2f64.powi(127) && (g > 0.0) == (x > 0.0) {
                return Ok(None);
            }
            if !g.is_finite() {
                return Err(format!("{g} for the number {x:e}"));
            }
            let diff = got
                .to_big()
                .sub(exact, ORACLE_BITS, astro_float::RoundingMode::ToEven);
            let abs = to_f64(&diff).abs();
            let ulps = error_ulp96(&got.x, exact);
            // ulp96(x) = 2^(e - 95) for 2^e <= |x| < 2^(e + 1).
            let ulp = if x == 0.0 {
                0.0
            } else {
                2f64.powi(x.abs().log2().floor() as i32 - 95)
            };
            if abs > t * ulp + c * min_normal {
                return Err(format!("{ulps:.3} ulp96 ({abs:e} absolute) from {x:e}"));
            }
            let bits = if abs == 0.0 {
                120.0
            } else {
                (-(abs / x.abs()).log2()).min(120.0)
            };
            Ok(Some((x, ulps, bits)))
        }
    }
}

/// One cell of the qf128 class table.
#[derive(Debug, Clone, Serialize)]
pub struct QfClassRow {
    /// The function.
    pub op: String,
    /// The class.
    pub class: String,
    /// Arguments run.
    pub samples: usize,
    /// Results that were numbers.
    pub values: usize,
    /// Worst ulp96 over results of magnitude 2^-30 and up; `None` when there were none.
    pub max_ulp96: Option<f64>,
    /// The fewest correct bits over results that were numbers below 2^-30 (120 when none).
    pub min_bits_below: f64,
    /// Results that broke the bound or IEEE's rules.
    pub wrong: usize,
    /// Results whose words differ from the CPU mirror's.
    pub mirror_mismatches: usize,
    /// The last wrong result, as text (empty when none).
    pub worst_case: String,
}

/// Runs every class of every qf128 function on the GPU, against the oracle and the mirror.
pub fn measure_qf128_classes(
    kernels: &Df64Kernels,
    per_class: usize,
    seed: u64,
) -> Result<Vec<QfClassRow>, ExperimentError> {
    let flush = kernels.flushes_subnormals();
    let read = |x: f32| {
        if flush && x.is_subnormal() {
            0.0f32.copysign(x)
        } else {
            x
        }
    };
    let mut rows = Vec::new();
    for case in qf128_class_cases(per_class, seed) {
        let zeros = vec![Qf128::ZERO; case.a.len()];
        let got = kernels.apply_qf128(case.op, &case.a, &zeros)?;
        let mirror = case.op.mirror();
        let want = kernels.mirror_map(case.a.len(), |i| mirror(case.a[i], Qf128::ZERO));
        let verdicts = with_oracles(case.a.len(), |o, i| {
            let a = case.a[i];
            let as_read = Qf128 { x: a.x.map(read) };
            let judge = |o: &mut Oracle, a: Qf128| {
                qf128_judge(
                    &got[i],
                    &qf128_expected(case.op, a, o),
                    QF128_FUNCTION_BOUND,
                )
            };
            // A flushing driver may read a subnormal word as ±0 or keep it: either is right.
            Some(match judge(o, a) {
                Ok(v) => Ok(v),
                Err(e) if flush && as_read != a => judge(o, as_read).map_err(|_| e),
                Err(e) => Err(e),
            })
        });
        let mut row = QfClassRow {
            op: case.op.name().to_string(),
            class: case.class.to_string(),
            samples: case.a.len(),
            values: 0,
            max_ulp96: None,
            min_bits_below: 120.0,
            wrong: 0,
            mirror_mismatches: 0,
            worst_case: String::new(),
        };
        for (i, v) in verdicts.iter().enumerate() {
            let differs = got[i].x.iter().zip(&want[i].x).any(|(g, w)| {
                let (g, w) = (read(*g), read(*w));
                !(g.to_bits() == w.to_bits() || g.is_nan() && w.is_nan())
            });
            row.mirror_mismatches += differs as usize;
            match v {
                Some(Err(e)) => {
                    row.wrong += 1;
                    row.worst_case = format!("{}({:?}) = {:?}: {e}", row.op, case.a[i].x, got[i].x);
                }
                Some(Ok(Some((x, ulps, bits)))) => {
                    row.values += 1;
                    if x.abs() >= QF128_FULL_FROM {
                        row.max_ulp96 = Some(row.max_ulp96.unwrap_or(0.0).max(*ulps));
                    } else {
                        row.min_bits_below = row.min_bits_below.min(*bits);
                    }
                }
                _ => {}
            }
        }
        rows.push(row);
    }
    Ok(rows)
}
