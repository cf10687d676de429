//! The df64 functions at every argument: each function over classes of arguments (±0,
//! subnormals, the smallest normals, tiny, small, unit, large and huge magnitudes, ±inf, NaN,
//! and the ends of its own range), each result judged against the correctly rounded oracle
//! where the result lies in the domain and against the IEEE rules (C99 Annex F) elsewhere.
//!
//! A driver that flushes subnormals reads a subnormal operand as ±0, so there a result is
//! right when it is right for the operand as given or for the operand flushed.

use astro_float::BigFloat;

use super::*;
use df64gl::numeric::df64_func::{EXP_MAX, EXP_MIN, TRIG_SHORT};
use df64gl::numeric::oracle::{big, big_df64, Oracle};
use df64gl::numeric::trig_hard_cases::trig_hard_cases;

/// The argument classes, in the tables' column order (df64's functions and qf128's).
pub const ARGUMENT_CLASSES: [&str; 11] = [
    "±0",
    "subnormal",
    "min normal",
    "tiny",
    "small",
    "unit",
    "large",
    "huge",
    "±inf",
    "NaN",
    "edges",
];

/// One row of the sweep: a function over one class of arguments.
#[derive(Debug, Clone)]
pub struct ClassCase {
    /// The function.
    pub op: Df64Op,
    /// The class, as the report prints it ("subnormal", "b: huge", "edges", ...).
    pub class: String,
    /// First operands.
    pub a: Vec<Df64>,
    /// Second operands (zeros for one-operand functions).
    pub b: Vec<Df64>,
}

/// The functions the sweep covers: every function of `df64_func.glsl` (the catalog's function
/// rows) and ldexp.
pub fn swept() -> Vec<Df64Op> {
    Df64Op::ALL
        .into_iter()
        .filter(|op| op.is_function() || *op == Df64Op::Ldexp)
        .collect()
}

/// The engine's stated bound in ulp48 for a swept function wherever its result lies in the
/// domain (2^-100 to 2^126), from its catalog row; 0 for the exact ones (rounding, frexp,
/// ldexp). Fmod and remainder: exact wherever the result is a df64 and |a/b| < 2^24, rounded
/// once otherwise.
pub fn class_bound(op: Df64Op) -> f64 {
    op.bound().max_ulp48().unwrap_or(0.0)
}

/// The bound for one pair of operands: powi's grows with |n| ((|n| - 1) ulp48 for n >= 2,
/// |n| + 1 for n < 0); every other op's is its catalog row's (pow's no longer grows with
/// |y ln x|: its logarithm is carried in three words).
pub fn bound_for(op: Df64Op, a: Df64, b: Df64) -> f64 {
    let _ = a;
    match op {
        Df64Op::Powi => {
            let n = b.hi as f64;
            if n < 0.0 {
                -n + 1.0
            } else {
                (n - 1.0).max(0.5)
            }
        }
        _ => class_bound(op),
    }
}

/// (1 + u) 2^k, k uniform in [lo, hi], a random sign unless `positive`, with a full low word
/// (dropped where it would be subnormal, so every driver reads the same operand).
fn magnitude(rng: &mut ChaCha8Rng, lo: i32, hi: i32, positive: bool) -> Df64 {
    let k = rng.gen_range(lo..=hi);
    df64gl::numeric::domain::operand_at_exponent(rng, k, positive)
}

/// x with a full random low word (hi = x rounded to f32).
fn near(rng: &mut ChaCha8Rng, x: f64) -> Df64 {
    let mut d = Df64::from_f64(x);
    let lo = (rng.gen_range(-0.5..0.5) * ulp_bits(d.hi as f64, 23)) as f32;
    if lo.abs() >= f32::MIN_POSITIVE {
        d = df64_quick_two_sum(d.hi, lo);
    }
    d
}

/// The general classes, each `n` operands (the fixed ones fewer).
fn general_classes(
    rng: &mut ChaCha8Rng,
    n: usize,
    positive: bool,
) -> Vec<(&'static str, Vec<Df64>)> {
    let d = |x: f32| Df64::new(x, 0.0);
    let sign = |rng: &mut ChaCha8Rng| {
        if positive || rng.gen::<bool>() {
            1.0f32
        } else {
            -1.0
        }
    };
    let mut range = |lo, hi| {
        (0..n)
            .map(|_| magnitude(rng, lo, hi, positive))
            .collect::<Vec<_>>()
    };
    let tiny = range(-125, -61);
    let small = range(-60, -9);
    let unit = range(-8, 3);
    let large = range(4, 22);
    let mut huge = range(23, 127);
    let min_normal = range(-126, -126);
    huge.extend([d(f32::MAX), d(-f32::MAX)]);
    let mut subnormal: Vec<Df64> = (0..n)
        .map(|_| {
            let bits = rng.gen_range(1u32..0x0080_0000);
            d(sign(rng) * f32::from_bits(bits))
        })
        .collect();
    subnormal.extend([
        d(f32::from_bits(1)),
        d(-f32::from_bits(1)),
        d(f32::from_bits(0x007f_ffff)),
    ]);
    vec![
        ("±0", vec![d(0.0), d(-0.0)]),
        ("subnormal", subnormal),
        ("min normal", min_normal),
        ("tiny", tiny),
        ("small", small),
        ("unit", unit),
        ("large", large),
        ("huge", huge),
        ("±inf", vec![d(f32::INFINITY), d(f32::NEG_INFINITY)]),
        ("NaN", vec![d(f32::NAN), d(-f32::NAN)]),
    ]
}

/// n operands near the points (in turn), each moved by up to ±spread, with full low words.
fn around(rng: &mut ChaCha8Rng, n: usize, points: &[f64], spread: f64) -> Vec<Df64> {
    (0..n)
        .map(|i| {
            let p = points[i % points.len()] + rng.gen_range(-spread..spread);
            near(rng, p)
        })
        .collect()
}

/// The f32 (24-bit) and df64 (48-bit) arguments closest to a multiple of pi/2 at each exponent
/// from 2^-1 to 2^127, both signs: found once per process (the search takes about a second).
pub fn trig_hard_arguments() -> Vec<Df64> {
    static CASES: std::sync::OnceLock<Vec<Df64>> = std::sync::OnceLock::new();
    CASES
        .get_or_init(|| {
            let mut o = Oracle::new();
            let mut cases = trig_hard_cases(&mut o, 24, -24..=104);
            cases.extend(trig_hard_cases(&mut o, 48, -48..=80));
            cases
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    if i % 2 == 1 {
                        Df64::new(-c.x.hi, -c.x.lo)
                    } else {
                        c.x
                    }
                })
                .collect()
        })
        .clone()
}

/// The ends of each function's own range: where it switches method, saturates, overflows,
/// underflows or stops (the trigonometric limit), on both sides.
fn edges(op: Df64Op, rng: &mut ChaCha8Rng, n: usize) -> Vec<Df64> {
    let mut around = |points: &[f64], spread: f64| around(rng, n, points, spread);
    let (exp_max, exp_min) = (EXP_MAX as f64, EXP_MIN as f64);
    let _ = exp_min;
    match op {
        Df64Op::Exp | Df64Op::Expm1 | Df64Op::Sinh | Df64Op::Cosh => {
            let mut v = around(
                &[exp_max, -exp_max, exp_min, -87.336_54, -58.0, 20.0, -20.0],
                0.5,
            );
            v.extend(around(&[0.010_830_425, -0.010_830_425], 1e-4));
            v
        }
        Df64Op::Tanh => around(&[20.0, -20.0, 0.0108, -0.0108], 0.2),
        Df64Op::Log | Df64Op::Log2 | Df64Op::Log10 => {
            let mut v: Vec<Df64> = (1..48)
                .flat_map(|k| [1.0 + 2f64.powi(-k), 1.0 - 2f64.powi(-k)])
                .map(Df64::from_f64)
                .collect();
            v.extend(around(&[1.0, 0.703_125, 1.406_25], 1e-3));
            // Exact powers of two and ten (log2 and log10 of them are integers), and both
            // sides of each: where the result crosses zero or an integer.
            for k in -149..=127 {
                v.push(Df64::from_f64(2f64.powi(k)));
            }
            for k in -45..=38 {
                v.push(Df64::from_f64(10f64.powi(k)));
            }
            v.extend(around(&[2.0, 0.5, 10.0, 0.1], 1e-6));
            v
        }
        Df64Op::Log1p => {
            let mut v: Vec<Df64> = (1..48)
                .flat_map(|k| [2f64.powi(-k) - 1.0, -(2f64.powi(-k)), 2f64.powi(-k)])
                .map(Df64::from_f64)
                .collect();
            v.extend(around(
                &[0.25, -0.25, -0.5, -1.0 + 1e-3, 1.0, 16_777_216.0],
                1e-3,
            ));
            v
        }
        Df64Op::Sin | Df64Op::Cos | Df64Op::Tan => {
            let short = TRIG_SHORT as f64;
            // Multiples of pi/2 up to the short reduction's end, both sides of that end, and
            // the f32 and df64 arguments closest to multiples of pi/2 at every exponent from
            // 2^-1 to 2^127 (the long reduction's hardest cases), with either sign.
            let mut v: Vec<Df64> = around(&[0.0], 5_000_000.0)
                .into_iter()
                .take(n / 2)
                .map(|k| Df64::from_f64(k.hi.round() as f64 * std::f64::consts::FRAC_PI_2))
                .collect();
            v.extend(around(&[short, -short, std::f64::consts::FRAC_PI_4], 1.0));
            v.extend(trig_hard_arguments());
            v
        }
        Df64Op::Asin | Df64Op::Acos => {
            let mut v: Vec<Df64> = (1..48)
                .flat_map(|k| [1.0 - 2f64.powi(-k), 2f64.powi(-k) - 1.0])
                .map(Df64::from_f64)
                .collect();
            v.extend([1.0, -1.0, 1.0 + 2f64.powi(-23), -1.0 - 2f64.powi(-23)].map(Df64::from_f64));
            v.push(Df64::new(1.0, 2f32.powi(-40)));
            v.push(Df64::new(1.0, -2f32.powi(-40)));
            v
        }
        Df64Op::Atan => around(&[1.0, -1.0, 64.0, 1.0 / 64.0], 1e-3),
        Df64Op::Floor | Df64Op::Ceil | Df64Op::Round | Df64Op::Trunc => {
            // Integers and ties, with low words that pull either way, at every magnitude.
            (0..n)
                .map(|i| {
                    let k = rng.gen_range(0..60);
                    let m = (rng.gen::<u64>() >> 10) as f64 * 2f64.powi(k - 54).max(1.0);
                    let x = (m.floor() + [0.0, 0.5, -0.5, 1e-9][i % 4])
                        .copysign(rng.gen::<f64>() - 0.5);
                    let hi = x as f32;
                    let lo = [0.0f32, 2f32.powi(-30), -2f32.powi(-30), 0.5][i % 4 / 2 + i % 2];
                    df64_quick_two_sum(hi, if hi.abs() >= 2f32.powi(30) { lo } else { 0.0 })
                })
                .collect()
        }
        Df64Op::Frexp | Df64Op::FrexpExp | Df64Op::Ldexp => (0..n)
            .map(|_| {
                let k = rng.gen_range(-126..=127);
                let hi = 2f32.powi(k).copysign(rng.gen::<f32>() - 0.5);
                let lo = -hi * 2f32.powi(-30) * rng.gen::<f32>();
                Df64::new(
                    hi,
                    if lo.abs() >= f32::MIN_POSITIVE {
                        lo
                    } else {
                        0.0
                    },
                )
            })
            .collect(),
        _ => vec![],
    }
}

/// Every case: for one-operand functions the general classes and the function's edges; for
/// atan2, pow, fmod and remainder each class for one operand with the other ordinary, and the
/// classes against each other for the special values; ldexp over exponents -300 to 300.
pub fn class_cases(samples: usize, seed: u64) -> Vec<ClassCase> {
    let mut out = Vec::new();
    for op in swept() {
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ (op as u64).wrapping_mul(0x9E37_79B9));
        let n = samples.max(1);
        let positive_first = false;
        let classes = general_classes(&mut rng, n, positive_first);
        let ordinary = |rng: &mut ChaCha8Rng, op: Df64Op| -> Df64 {
            match op {
                Df64Op::Pow => magnitude(rng, -1, 0, true),
                _ => magnitude(rng, -4, 4, false),
            }
        };
        let case = |class: String, a: Vec<Df64>, b: Vec<Df64>| ClassCase { op, class, a, b };
        match op {
            Df64Op::Atan2 | Df64Op::Pow | Df64Op::Fmod | Df64Op::Remainder => {
                for (name, xs) in &classes {
                    let others: Vec<Df64> = xs.iter().map(|_| ordinary(&mut rng, op)).collect();
                    let ys: Vec<Df64> = if op == Df64Op::Pow {
                        // Exponents that keep y ln x within the result's range: [-4, 4].
                        xs.iter()
                            .map(|_| magnitude(&mut rng, -3, 1, false))
                            .collect()
                    } else {
                        others.clone()
                    };
                    out.push(case(format!("a: {name}"), xs.clone(), ys));
                    out.push(case(format!("b: {name}"), others, xs.clone()));
                }
                // Special values against each other (and against ±1, the units of pow).
                let specials: Vec<Df64> = [
                    0.0,
                    -0.0,
                    1.0,
                    -1.0,
                    0.5,
                    -2.5,
                    3.0,
                    f32::INFINITY,
                    f32::NEG_INFINITY,
                    f32::NAN,
                ]
                .map(|x| Df64::new(x, 0.0))
                .to_vec();
                let (mut a, mut b) = (Vec::new(), Vec::new());
                for x in &specials {
                    for y in &specials {
                        a.push(*x);
                        b.push(*y);
                    }
                }
                out.push(case("specials".into(), a, b));
                if op == Df64Op::Pow {
                    // Results across the whole range: y ln x up to ±100.
                    let (mut a, mut b) = (Vec::new(), Vec::new());
                    for _ in 0..n {
                        let x = magnitude(&mut rng, -60, 60, true);
                        let t = rng.gen_range(-100.0..88.0) / x.to_f64().ln();
                        a.push(x);
                        b.push(Df64::new(t as f32, 0.0));
                    }
                    out.push(case("wide results".into(), a, b));
                }
            }
            Df64Op::Ldexp | Df64Op::Powi => {
                // powi: the exponents its bound is stated for (|n| <= 8).
                let range = if op == Df64Op::Powi { 8 } else { 300 };
                for (name, xs) in &classes {
                    let ys = xs
                        .iter()
                        .map(|_| Df64::new(rng.gen_range(-range..=range) as f32, 0.0))
                        .collect();
                    out.push(case(name.to_string(), xs.clone(), ys));
                }
                let e = edges(op, &mut rng, n);
                let ys = e
                    .iter()
                    .map(|_| Df64::new(rng.gen_range(-range.min(60)..=range.min(60)) as f32, 0.0))
                    .collect();
                out.push(case("edges".into(), e, ys));
            }
            _ => {
                for (name, xs) in &classes {
                    out.push(case(
                        name.to_string(),
                        xs.clone(),
                        vec![Df64::ZERO; xs.len()],
                    ));
                }
                let e = edges(op, &mut rng, n);
                if !e.is_empty() {
                    let zeros = vec![Df64::ZERO; e.len()];
                    out.push(case("edges".into(), e, zeros));
                }
            }
        }
    }
    out
}

/// What a function must return: NaN, an exact value (a zero's sign counts), or a value to
/// measure in ulp48 against the oracle.
#[derive(Debug, Clone)]
pub enum Expected {
    /// NaN (any payload).
    Nan,
    /// Exactly this value (±0, ±inf, ±1 and the other exact results).
    Exact(f64),
    /// The correctly rounded value of the function (finite).
    Value(BigFloat),
}

fn is_odd_integer(y: f64) -> bool {
    y.is_finite() && y.fract() == 0.0 && (y / 2.0).fract() != 0.0
}

/// IEEE (C99 Annex F) results where an operand is ±0, ±inf or NaN or lies outside the
/// function's domain, and the engine's documented limits (exp below ln 2^-150 is +0); `None` where the oracle decides.
fn ieee_special(op: Df64Op, a: Df64, b: Df64, o: &mut Oracle) -> Option<Expected> {
    use Expected::{Exact, Nan};
    // The value, with the sign of a zero hi kept (hi + lo loses it).
    let value = |d: Df64| if d.lo == 0.0 { d.hi as f64 } else { d.to_f64() };
    let (x, y) = (value(a), value(b));
    let pi_times = |o: &mut Oracle, k: f64| {
        let p = o.pi();
        Expected::Value(p.mul(&big(k), 256, astro_float::RoundingMode::ToEven))
    };
    let inf = f64::INFINITY;
    Some(match op {
        Df64Op::Pow => {
            if y == 0.0 || x == 1.0 {
                Exact(1.0)
            } else if x.is_nan() || y.is_nan() {
                Nan
            } else if y.is_infinite() {
                if x.abs() == 1.0 {
                    Exact(1.0)
                } else if (x.abs() < 1.0) == (y > 0.0) {
                    Exact(0.0)
                } else {
                    Exact(inf)
                }
            } else if x == 0.0 || x.is_infinite() {
                let odd = is_odd_integer(y);
                let neg = x.is_sign_negative() && odd;
                let big_result = (x == 0.0) == (y < 0.0);
                let v = if big_result { inf } else { 0.0 };
                Exact(if neg { -v } else { v })
            } else if x < 0.0 && y.fract() != 0.0 {
                Nan
            } else {
                return None;
            }
        }
        // powi: n = int(b.x); x^0 = 1 for every x, NaN among them; zeros and infinities as
        // pow's (Annex F), negative for a negative x and an odd n.
        Df64Op::Powi => {
            let n = b.hi.trunc();
            let sign = if x.is_sign_negative() && n % 2.0 != 0.0 {
                -1.0
            } else {
                1.0
            };
            match x {
                _ if n == 0.0 => Exact(1.0),
                _ if x.is_nan() => Nan,
                _ if x == 0.0 => Exact(sign * if n > 0.0 { 0.0 } else { inf }),
                _ if x.is_infinite() => Exact(sign * if n > 0.0 { inf } else { 0.0 }),
                _ => return None,
            }
        }
        // frexp's exponent of 0, inf and NaN is 0 (C leaves it unspecified for the last two).
        Df64Op::FrexpExp if !x.is_finite() || x == 0.0 => Exact(0.0),
        _ if x.is_nan() || y.is_nan() => Nan,
        Df64Op::Exp => match x {
            _ if x == 0.0 => Exact(1.0),
            _ if a.hi > EXP_MAX => Exact(inf),
            _ if a.hi < EXP_MIN => Exact(0.0),
            _ => return None,
        },
        Df64Op::Expm1 => match x {
            _ if x == 0.0 || x == inf => Exact(x),
            _ if x == -inf => Exact(-1.0),
            _ if a.hi > EXP_MAX => Exact(inf),
            _ => return None,
        },
        Df64Op::Log | Df64Op::Log1p | Df64Op::Log2 | Df64Op::Log10 => {
            let one = if op == Df64Op::Log1p { 1.0 } else { 0.0 };
            let u = x + one;
            match x {
                _ if op == Df64Op::Log1p && x == 0.0 => Exact(x),
                _ if u < 0.0 || (x < -one) => Nan,
                _ if u == 0.0 => Exact(-inf),
                _ if x == inf => Exact(inf),
                _ if op != Df64Op::Log1p && x == 1.0 => Exact(0.0),
                _ => return None,
            }
        }
        Df64Op::Sin | Df64Op::Tan if x == 0.0 => Exact(x),
        Df64Op::Cos if x == 0.0 => Exact(1.0),
        Df64Op::Sin | Df64Op::Cos | Df64Op::Tan if x.is_infinite() => Nan,
        Df64Op::Atan | Df64Op::Asin | Df64Op::Sinh | Df64Op::Tanh if x == 0.0 => Exact(x),
        Df64Op::Atan if x.is_infinite() => pi_times(o, 0.5f64.copysign(x)),
        Df64Op::Asin | Df64Op::Acos if x.abs() > 1.0 => Nan,
        Df64Op::Acos if x == 1.0 => Exact(0.0),
        Df64Op::Sinh | Df64Op::Cosh if x.is_infinite() || a.hi.abs() > EXP_MAX => {
            Exact(if op == Df64Op::Sinh {
                x.signum() * inf
            } else {
                inf
            })
        }
        Df64Op::Cosh if x == 0.0 => Exact(1.0),
        Df64Op::Tanh if x.is_infinite() => Exact(x.signum()),
        Df64Op::Atan2 => {
            // Exact quadrant values where an operand is infinite or both are zero.
            let nx = b.hi.is_sign_negative();
            let (yv, xv) = (x, y);
            let k = if xv.is_infinite() {
                match (yv.is_infinite(), nx) {
                    (true, false) => 1.0,
                    (true, true) => 3.0,
                    (false, false) => 0.0,
                    (false, true) => 4.0,
                }
            } else if yv.is_infinite() {
                2.0
            } else if yv == 0.0 && xv == 0.0 {
                if nx {
                    4.0
                } else {
                    0.0
                }
            } else if yv == 0.0 {
                if xv < 0.0 {
                    4.0
                } else {
                    0.0
                }
            } else {
                return None;
            };
            let s = if a.hi.is_sign_negative() { -1.0 } else { 1.0 };
            if k == 0.0 {
                Exact(0.0 * s)
            } else {
                pi_times(o, s * k / 4.0)
            }
        }
        Df64Op::Floor | Df64Op::Ceil | Df64Op::Round | Df64Op::Trunc
            if x == 0.0 || x.is_infinite() =>
        {
            Exact(x)
        }
        Df64Op::Fmod | Df64Op::Remainder => {
            if x.is_infinite() || y == 0.0 {
                Nan
            } else if y.is_infinite() || x == 0.0 {
                Exact(x)
            } else if df64gl::numeric::df64_func::df64_beyond_mod_limit(a, b) {
                // The documented limit: NaN for quotients of 2^24 and more.
                Nan
            } else {
                return None;
            }
        }
        Df64Op::Frexp if x == 0.0 || x.is_infinite() => Exact(x),
        Df64Op::Ldexp if x == 0.0 || x.is_infinite() => Exact(x),
        _ => return None,
    })
}

/// The exact result of a rounding, frexp or ldexp op, from the operand's exact value.
fn exact_result(op: Df64Op, a: Df64, b: Df64) -> Option<BigFloat> {
    let x = big_df64(a);
    let half = big(0.5);
    Some(match op {
        Df64Op::Floor => x.floor(),
        Df64Op::Ceil => x.ceil(),
        Df64Op::Trunc => x.int(),
        Df64Op::Round => {
            let r = x.abs().add_full_prec(&half).floor();
            if a.hi < 0.0 {
                r.neg()
            } else {
                r
            }
        }
        Df64Op::Frexp | Df64Op::FrexpExp => {
            // astro-float's exponent e gives |x| in [2^(e-1), 2^e): frexp's exponent.
            let e = x.exponent()?;
            if op == Df64Op::FrexpExp {
                big(e as f64)
            } else {
                let mut m = x.clone();
                m.set_exponent(0);
                m
            }
        }
        Df64Op::Ldexp => {
            let mut m = x.clone();
            let e = m.exponent()?;
            m.set_exponent(e + b.hi as i32);
            m
        }
        _ => return None,
    })
}

/// The IEEE remainder of x by y: x - n y, n the integer nearest x / y, ties to even.
fn remainder_exact(o: &mut Oracle, x: &BigFloat, y: &BigFloat) -> BigFloat {
    let r = o.fmod(&x.abs(), &y.abs());
    let ay = y.abs();
    let twice = r.add_full_prec(&r);
    let rm = astro_float::RoundingMode::ToEven;
    let r = match twice.cmp(&ay) {
        Some(c) if c > 0 => r.sub_full_prec(&ay),
        Some(0) => {
            // A tie: the quotient (|x| - r) / |y| is an integer; round to the even one.
            let q = x.abs().sub_full_prec(&r).div(&ay, 512, rm);
            let odd = !q.mul(&big(0.5), 512, rm).is_int();
            if odd {
                r.sub_full_prec(&ay)
            } else {
                r
            }
        }
        _ => r,
    };
    if x.is_negative() {
        r.neg()
    } else {
        r
    }
}

/// What `op(a, b)` must return.
pub fn expected(op: Df64Op, a: Df64, b: Df64, o: &mut Oracle) -> Expected {
    if let Some(e) = ieee_special(op, a, b, o) {
        return e;
    }
    if let Some(v) = exact_result(op, a, b) {
        return Expected::Value(v);
    }
    let (x, y) = (big_df64(a), big_df64(b));
    let v = if op == Df64Op::Remainder {
        remainder_exact(o, &x, &y)
    } else {
        match op.oracle(o, &x, &y) {
            Some(v) => v,
            None => return Expected::Nan,
        }
    };
    if v.is_nan() {
        Expected::Nan
    } else {
        Expected::Value(v)
    }
}

/// The judgement of one result: its error in ulp48 where the exact value lies in the domain,
/// or whether it follows the rules elsewhere.
pub fn judge_expected(got: Df64, want: &Expected, bound: f64, flush: bool) -> Verdict {
    match want {
        Expected::Nan => {
            if got.hi.is_nan() {
                Verdict::OutsideOk
            } else {
                Verdict::OutsideWrong
            }
        }
        Expected::Exact(v) => {
            let same_zero = *v == 0.0
                && got.hi == 0.0
                && got.lo == 0.0
                && got.hi.is_sign_negative() == v.is_sign_negative();
            let same = *v != 0.0 && got.hi as f64 == *v && (got.lo == 0.0 || v.is_infinite());
            if same_zero || (same && !got.lo.is_nan()) {
                Verdict::OutsideOk
            } else if v.is_finite() && *v != 0.0 {
                judge(got, Dd::from_f64(*v), bound, flush)
            } else {
                Verdict::OutsideWrong
            }
        }
        Expected::Value(v) => {
            let exact = Dd::from_big(v);
            if exact.to_f64().is_infinite() && got.hi.is_infinite() && got.lo == 0.0 {
                return if got.hi.is_sign_negative() == exact.to_f64().is_sign_negative() {
                    Verdict::OutsideOk
                } else {
                    Verdict::OutsideWrong
                };
            }
            judge(got, exact, bound, flush)
        }
    }
}

/// The operand as a driver that flushes subnormals reads it.
pub fn flushed(a: Df64) -> Df64 {
    let f = |x: f32| {
        if x.is_subnormal() {
            0.0f32.copysign(x)
        } else {
            x
        }
    };
    Df64::new(f(a.hi), f(a.lo))
}

/// Judges one result for the operands as given and, on a flushing driver, as flushed: the
/// better of the two verdicts.
pub fn judge_case(op: Df64Op, a: Df64, b: Df64, got: Df64, flush: bool, o: &mut Oracle) -> Verdict {
    let bound = bound_for(op, a, b);
    let v = judge_expected(got, &expected(op, a, b, o), bound, flush);
    let (fa, fb) = (flushed(a), flushed(b));
    if !flush || (same_words(fa, a) && same_words(fb, b)) {
        return v;
    }
    let w = judge_expected(got, &expected(op, fa, fb, o), bound, flush);
    let rank = |v: &Verdict| match v {
        Verdict::OutsideOk => 0.0,
        Verdict::InDomain(e) => *e,
        Verdict::OutsideWrong => f64::INFINITY,
    };
    if rank(&w) < rank(&v) {
        w
    } else {
        v
    }
}

/// Runs one class case on the GPU: the worst error in the domain, the results outside it that
/// break the rules, and the comparison with the CPU mirror; the worst case in `worst`.
pub fn measure_class(
    kernels: &Df64Kernels,
    case: &ClassCase,
) -> Result<(AccuracyRow, String), ExperimentError> {
    let got = kernels.apply_unchecked(case.op, &case.a, &case.b)?;
    let mirror = case.op.mirror();
    let want = kernels.mirror_map(case.a.len(), |i| mirror(case.a[i], case.b[i]));
    let flush = kernels.proof().flushes_subnormals;
    let verdicts = with_oracles(case.a.len(), |o, i| {
        Some(judge_case(case.op, case.a[i], case.b[i], got[i], flush, o))
    });
    let mut domain = DomainCounts {
        in_domain: 0,
        outside: 0,
        outside_wrong: 0,
    };
    let (mut max, mut sum_sq, mut worst, mut over) = (0.0f64, 0.0f64, String::new(), 0usize);
    for (i, v) in verdicts.iter().enumerate() {
        let Some(v) = v else { continue };
        let note = || {
            format!(
                "{}({:?}, {:?}) = {:?}",
                case.op.name(),
                case.a[i],
                case.b[i],
                got[i]
            )
        };
        match v {
            Verdict::InDomain(e) => {
                domain.in_domain += 1;
                max = max.max(*e);
                if *e > bound_for(case.op, case.a[i], case.b[i]) {
                    over += 1;
                    worst = note();
                }
                sum_sq += e * e;
            }
            Verdict::OutsideOk => domain.outside += 1,
            Verdict::OutsideWrong => {
                domain.outside += 1;
                domain.outside_wrong += 1;
                worst = note();
            }
        }
    }
    let mismatches = (0..got.len())
        .filter(|&i| !same_words(got[i], want[i]))
        .count();
    let rms = (sum_sq / domain.in_domain.max(1) as f64).sqrt();
    let target = Target {
        max: class_bound(case.op),
        rms: None,
    };
    Ok((
        AccuracyRow {
            op: case.op.name().to_string(),
            variant: None,
            range: case.class.clone(),
            samples: case.a.len(),
            unit: ErrorUnit::Ulp48,
            max,
            rms,
            target: Some(target),
            meets_target: Some(over == 0),
            thall_g80: None,
            mirror_mismatches: mismatches,
            mirror_must_match: kernels.round_to_nearest(),
            inexact_of_representable: None,
            cost_vs_f32_add: None,
            ns_per_op: None,
            domain: Some(domain),
        },
        worst,
    ))
}
