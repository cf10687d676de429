//! Known answers for a check that runs where the Rust side cannot: each exported df64 routine
//! (and the qf128 ones) on operands from every class (unit, small, large, the exponent ends,
//! ±0, ±inf, NaN), with what it must return (the oracle's value in three f64 words, NaN, or
//! exact words) and the CPU mirror's words. The JavaScript module's `check` (`js/index.js`)
//! embeds them with the rule of each routine ([`JudgeRule`]), which the Rust checks read too.
//!
//! Every case is checked here against the mirror before it is embedded: a vector the mirror
//! itself fails is an error in the generator or the library, never shipped.

use astro_float::BigFloat;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use crate::error::ExperimentError;
use crate::experiments::accuracy::vectors::{vec_operands, VecClass};
use crate::experiments::accuracy::{
    bound_for, expected, qf128_cases, random_qf128, Expected, QF128_FULL_FROM,
};
pub use df64gl::export::known::{AnswerKind, JudgeRule};
use df64gl::kernels::{Df64Op, Qf128Op};
use df64gl::numeric::catalog::{Args, Bound, Range};
use df64gl::numeric::df64::Df64;
use df64gl::numeric::domain::{
    in_log2_range, operand_at_exponent, FAST_TRIG_ARGUMENT_LOG2, UNSCALED_DOMAIN_LOG2,
};
use df64gl::numeric::fpenv::with_flush_to_zero;
use df64gl::numeric::oracle::{big, big_df64, big_words, to_f64, Oracle};
use df64gl::numeric::qf128::{qf128_neg, Qf128};
use df64gl::numeric::trig_hard_cases::{trig_hard_cases, trig_hard_cases_qf128};
use df64gl::numeric::vec_catalog::{vec_ops, VecOpRow};

/// A kind with its words.
type Answer = (AnswerKind, [f64; 3]);

/// One case: operands, the mirror's words, and what the routine must return.
#[derive(Debug, Clone, Serialize)]
pub struct KnownAnswer {
    /// First operand's words (2 for df64, 4 for qf128).
    pub a: Vec<f32>,
    /// Second operand's words (zeros for one-operand routines).
    pub b: Vec<f32>,
    /// The CPU mirror's result words.
    pub mirror: Vec<f32>,
    /// How `want` is read.
    pub kind: AnswerKind,
    /// The exact value as three f64 words (each the nearest double to what the ones before
    /// left), or the exact first word.
    pub want: [f64; 3],
    /// The bound in ulp48 (df64) or ulp96 (qf128) for this case.
    pub bound: f64,
}

/// One routine's cases.
#[derive(Debug, Clone, Serialize)]
pub struct KnownRoutine {
    /// The routine ("add", "exp", ...).
    pub name: &'static str,
    /// Its GLSL call on `a` and `b` (vec2 for df64, vec4 for qf128), a vec2 or vec4.
    pub call: &'static str,
    /// The largest bound of its cases.
    pub bound: f64,
    /// The cases.
    pub cases: Vec<KnownAnswer>,
}

/// The exact value as three f64 words.
pub fn f64_words(o: &mut Oracle, x: &BigFloat) -> [f64; 3] {
    let mut rest = x.clone();
    let mut out = [0.0; 3];
    for w in &mut out {
        *w = to_f64(&rest);
        if *w == 0.0 || !w.is_finite() {
            break;
        }
        rest = o.sub(&rest, &big(*w));
    }
    out
}

/// The df64 routines `check` covers: every op whose catalog row documents a bound (the
/// accurate defaults, the fast tier, the unscaled variants, the comparisons and exact
/// operations, the error-free transforms and every function). Thall's and Da Graca's
/// published routines (kept for the papers' tables, with no bound over the domain) and the
/// plain f32 rows are left out.
pub fn checked_df64_ops() -> Vec<Df64Op> {
    Df64Op::ALL
        .into_iter()
        .filter(|op| op.bound() != Bound::Unbounded)
        .collect()
}

/// The documented bound of a checked op in ulp48 (0: exact), from its catalog row. An op with
/// no stated bound is an error, not a pass.
pub fn df64_bound(op: Df64Op) -> Result<f64, ExperimentError> {
    op.bound().max_ulp48().ok_or_else(|| {
        ExperimentError::Invalid(format!(
            "df64 op {} has no documented bound for the known-answer check",
            op.name()
        ))
    })
}

/// The value with a zero hi's sign kept.
fn signed_value(d: Df64) -> f64 {
    if d.lo == 0.0 {
        d.hi as f64
    } else {
        d.to_f64()
    }
}

/// What `op(a, b)` must return: the accuracy sweep's rules (oracle and C99 Annex F) for the
/// functions and arithmetic, and the plain definitions for sign, comparisons and the
/// error-free transforms. `None` for cases the check leaves out (min and max of NaN or of
/// zeros of both signs, which the library does not specify).
fn df64_expected(op: Df64Op, a: Df64, b: Df64, o: &mut Oracle) -> Option<Expected> {
    use Df64Op::*;
    let (x, y) = (signed_value(a), signed_value(b));
    let nan = x.is_nan() || y.is_nan();
    let flag = |t: bool| Some(Expected::Exact(if t { 1.0 } else { 0.0 }));
    let cmp = || big_df64(a).partial_cmp(&big_df64(b));
    match op {
        // int(b.x) of a non-finite float is undefined in GLSL.
        Ldexp | Powi if !y.is_finite() => None,
        Neg | Abs if nan => Some(Expected::Nan),
        Neg | Abs if x == 0.0 || x.is_infinite() => {
            Some(Expected::Exact(if op == Neg { -x } else { x.abs() }))
        }
        Neg => Some(Expected::Value(big_df64(a).neg())),
        Abs => Some(Expected::Value(big_df64(a).abs())),
        Min | Max if nan || (x == 0.0 && y == 0.0) => None,
        Min | Max => {
            let first = match cmp()? {
                std::cmp::Ordering::Less => op == Min,
                _ => op == Max,
            };
            let v = if first { a } else { b };
            Some(if v.hi.is_infinite() {
                Expected::Exact(v.hi as f64)
            } else {
                Expected::Value(big_df64(v))
            })
        }
        Eq | Neq | Lt | Le | Gt | Ge if nan => flag(op == Neq),
        Eq => flag(cmp()? == std::cmp::Ordering::Equal),
        Neq => flag(cmp()? != std::cmp::Ordering::Equal),
        Lt => flag(cmp()? == std::cmp::Ordering::Less),
        Le => flag(cmp()? != std::cmp::Ordering::Greater),
        Gt => flag(cmp()? == std::cmp::Ordering::Greater),
        Ge => flag(cmp()? != std::cmp::Ordering::Less),
        TwoSum | TwoProd => {
            if !(x.is_finite() && y.is_finite()) {
                return None;
            }
            let (p, q) = (big(a.hi as f64), big(b.hi as f64));
            Some(Expected::Value(if op == TwoSum {
                o.add(&p, &q)
            } else {
                o.mul(&p, &q)
            }))
        }
        // Zero, infinite or NaN operands: IEEE double arithmetic on the signed values is exact
        // there and keeps the signs of zeros and infinities (the oracle has no signed zero).
        _ if op.ieee().is_some()
            && !(x.is_finite() && y.is_finite() && x != 0.0 && (op.unary() || y != 0.0)) =>
        {
            let v = op.ieee().map_or(f64::NAN, |f| f(x, y));
            Some(if v.is_nan() {
                Expected::Nan
            } else {
                Expected::Exact(v)
            })
        }
        _ => Some(expected(op, a, b, o)),
    }
}

/// The kind and words of an expectation, or `None` where its value lies outside `domain`
/// (log2 of magnitudes) and is neither zero nor infinite: the check keeps to what the
/// library documents.
fn encode(o: &mut Oracle, e: &Expected, domain: (i32, i32)) -> Option<(AnswerKind, [f64; 3])> {
    match e {
        Expected::Nan => Some((AnswerKind::Nan, [f64::NAN, 0.0, 0.0])),
        Expected::Exact(v) if *v == 0.0 || v.is_infinite() || (*v as f32) as f64 == *v => {
            Some((AnswerKind::Exact, [*v, 0.0, 0.0]))
        }
        Expected::Exact(v) => Some((AnswerKind::Value, [*v, 0.0, 0.0])),
        Expected::Value(v) => {
            let x = to_f64(v);
            if x == 0.0 {
                Some((AnswerKind::Zero, [0.0; 3]))
            } else if x.is_infinite() {
                Some((AnswerKind::Exact, [x, 0.0, 0.0]))
            } else if x.is_nan() {
                Some((AnswerKind::Nan, [f64::NAN, 0.0, 0.0]))
            } else if in_log2_range(x, domain) {
                Some((AnswerKind::Value, f64_words(o, v)))
            } else {
                None
            }
        }
    }
}

/// The operand classes: name, exponent range, how many cases to keep.
const CLASSES: [(&str, i32, i32, usize); 5] = [
    ("unit", -4, 4, 10),
    ("small", -60, -9, 3),
    ("large", 5, 40, 3),
    ("tiny", -98, -61, 3),
    ("huge", 41, 125, 3),
];

/// Special operands for every routine.
const SPECIALS: [f32; 8] = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::NAN,
];

/// Operand pairs for `op` from one class, before the filter.
fn df64_candidate(op: Df64Op, rng: &mut ChaCha8Rng, lo: i32, hi: i32) -> Option<(Df64, Df64)> {
    use Df64Op::*;
    let positive = op.range() != Range::Signed;
    let (lo, hi) = match op {
        // Unscaled and the fast arithmetic: operands and results from 2^-40.
        _ if op.domain_log2() == UNSCALED_DOMAIN_LOG2 => (lo.max(-18), hi.min(60)),
        // The fast sine and cosine: arguments up to 2^20.
        SinFast | CosFast => (lo, hi.min(FAST_TRIG_ARGUMENT_LOG2 - 1)),
        Asin | Acos => (lo.min(-1), hi.min(-1)),
        _ => (lo, hi),
    };
    if lo > hi {
        return None;
    }
    let k = rng.gen_range(lo..=hi);
    let a = operand_at_exponent(rng, k, positive);
    // The other operand near 1 half the time, from the same class otherwise.
    let kb = match op {
        Pow => rng.gen_range(-3..=1),
        _ if rng.gen::<bool>() => rng.gen_range(-2..=2),
        _ => rng.gen_range(lo..=hi),
    };
    let b = match op.args() {
        Args::WithExponent if op == Powi => Df64::new(rng.gen_range(-8..=8) as f32, 0.0),
        Args::WithExponent => Df64::new(rng.gen_range(-60..=60) as f32, 0.0),
        _ => operand_at_exponent(rng, kb, false),
    };
    Some(op.operands_as_read(a, b))
}

/// The long trigonometric reduction's hardest arguments for the known answers: for 24 and 48
/// bits, the four closest to a multiple of pi/2 between 2^23 and 2^128 and the closest at the
/// top exponent, alternately negated.
fn hardest_trig_arguments(o: &mut Oracle) -> Vec<Df64> {
    let mut out = Vec::new();
    for (bits, exponents) in [(24, 0..=104), (48, -24..=80)] {
        let mut cases = trig_hard_cases(o, bits, exponents);
        let top = cases.last().copied();
        cases.sort_by(|a, b| a.distance_log2.total_cmp(&b.distance_log2));
        out.extend(cases.iter().take(4).chain(top.as_ref()).map(|c| c.x));
    }
    out.iter()
        .enumerate()
        .map(|(i, x)| {
            if i % 2 == 1 {
                Df64::new(-x.hi, -x.lo)
            } else {
                *x
            }
        })
        .collect()
}

/// Every checked df64 routine's cases (seeded), each gated on the mirror.
pub fn df64_known_answers(seed: u64) -> Result<Vec<KnownRoutine>, ExperimentError> {
    let mut o = Oracle::new();
    let mut out = Vec::new();
    for op in checked_df64_ops() {
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ fnv(op.name()));
        let domain = op.domain_log2();
        let mut cases = Vec::new();
        let consider = |o: &mut Oracle, a: Df64, b: Df64, cases: &mut Vec<KnownAnswer>| {
            let Some(e) = df64_expected(op, a, b, o) else {
                return Ok(false);
            };
            let Some((kind, want)) = encode(o, &e, domain) else {
                return Ok(false);
            };
            let bound = if op == Df64Op::Pow {
                bound_for(op, a, b)
            } else {
                df64_bound(op)?
            };
            let m = (op.mirror())(a, b);
            let err = JudgeRule::for_words(2).error(&[m.hi, m.lo], kind, want, 0.0);
            if err > bound {
                return Err(ExperimentError::Invalid(format!(
                    "known answers: the CPU mirror of {} on ({:?}, {:?}) gives {:?}, {} ulp48 \
                     from {:?} {:?} (bound {bound}): fix the mirror or the expectation",
                    op.name(),
                    a,
                    b,
                    m,
                    err,
                    kind,
                    want
                )));
            }
            cases.push(KnownAnswer {
                a: vec![a.hi, a.lo],
                b: vec![b.hi, b.lo],
                mirror: vec![m.hi, m.lo],
                kind,
                want,
                bound,
            });
            Ok::<bool, ExperimentError>(true)
        };
        for (_, lo, hi, keep) in CLASSES {
            let mut kept = 0;
            for _ in 0..keep * 20 {
                if kept == keep {
                    break;
                }
                let Some((a, b)) = df64_candidate(op, &mut rng, lo, hi) else {
                    break;
                };
                if consider(&mut o, a, b, &mut cases)? {
                    kept += 1;
                }
            }
        }
        // The arguments hardest for the long trigonometric reduction: the four f32 and four
        // df64 values closest to a multiple of pi/2 above 2^23, and the closest near 2^127.
        if matches!(op, Df64Op::Sin | Df64Op::Cos | Df64Op::Tan) {
            for x in hardest_trig_arguments(&mut o) {
                let (a, b) = op.operands_as_read(x, Df64::new(0.0, 0.0));
                consider(&mut o, a, b, &mut cases)?;
            }
        }
        // The unscaled variants and the fast arithmetic promise nothing outside 2^-40 to 2^126
        // (no IEEE specials).
        let specials = if domain == UNSCALED_DOMAIN_LOG2 {
            &[][..]
        } else {
            &SPECIALS[..]
        };
        let other = 1.5f32;
        for &s in specials {
            let pairs = if op.unary() {
                vec![(s, 0.0)]
            } else {
                vec![(s, other), (other, s)]
            };
            for (x, y) in pairs {
                let (a, b) = op.operands_as_read(Df64::new(x, 0.0), Df64::new(y, 0.0));
                consider(&mut o, a, b, &mut cases)?;
            }
        }
        if !op.unary() && !specials.is_empty() {
            let inf = f32::INFINITY;
            for (x, y) in [
                (0.0, 0.0),
                (inf, -inf),
                (inf, inf),
                (0.0, inf),
                (-0.0, -0.0),
            ] {
                let (a, b) = op.operands_as_read(Df64::new(x, 0.0), Df64::new(y, 0.0));
                consider(&mut o, a, b, &mut cases)?;
            }
        }
        if cases.len() < 8 {
            return Err(ExperimentError::Invalid(format!(
                "known answers: only {} cases for {}",
                cases.len(),
                op.name()
            )));
        }
        let bound = cases.iter().map(|c| c.bound).fold(0.0, f64::max);
        out.push(KnownRoutine {
            name: op.name(),
            call: op.glsl(),
            bound,
            cases,
        });
    }
    Ok(out)
}

/// The qf128 routines with a documented bound, on their table's ranges, with the specials.
pub fn qf128_known_answers(
    seed: u64,
    per_range: usize,
) -> Result<Vec<KnownRoutine>, ExperimentError> {
    let mut o = Oracle::new();
    let mut out: Vec<KnownRoutine> = Vec::new();
    for case in qf128_cases() {
        let Some(bound) = case.target else { continue };
        let op = case.op;
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ fnv(op.name()) ^ fnv(case.range));
        let mut cases = Vec::new();
        let mut push =
            |o: &mut Oracle, a: Qf128, b: Qf128, kind: Option<(AnswerKind, [f64; 3])>| {
                let b = op.second_operand(b);
                let (kind, want) = match kind {
                    Some(k) => k,
                    None => {
                        let e = op.oracle(o, &big_words(&a.x), &big_words(&b.x));
                        (AnswerKind::Value, f64_words(o, &e))
                    }
                };

                let m = (op.mirror())(a, b);
                let err = JudgeRule::for_words(4).error(&m.x, kind, want, 0.0);
                if err > bound {
                    return Err(ExperimentError::Invalid(format!(
                        "known answers: the qf128 mirror of {} on ({:?}, {:?}) is {} ulp96 off \
                     (bound {bound})",
                        op.name(),
                        a,
                        b,
                        err
                    )));
                }
                cases.push(KnownAnswer {
                    a: a.x.to_vec(),
                    b: b.x.to_vec(),
                    mirror: m.x.to_vec(),
                    kind,
                    want,
                    bound,
                });
                Ok(())
            };
        for _ in 0..per_range {
            let a = random_qf128(&mut rng, case.a.0, case.a.1);
            let b = random_qf128(&mut rng, case.b.0, case.b.1);
            push(&mut o, a, b, None)?;
        }
        // IEEE specials, as tests/qf128.rs states them.
        let inf = f32::INFINITY;
        let exact = |v: f32| Some((AnswerKind::Exact, [v as f64, 0.0, 0.0]));
        let nan = Some((AnswerKind::Nan, [f64::NAN, 0.0, 0.0]));
        let specials: Vec<(f32, f32, Option<Answer>)> = match op {
            Qf128Op::Add if case.range == "[-1, 1]" => {
                vec![(inf, 1.0, exact(inf)), (inf, -inf, nan)]
            }
            Qf128Op::Mul => vec![(inf, 0.0, nan), (f32::NAN, 1.0, nan)],
            Qf128Op::Div => vec![
                (1.0, 0.0, exact(inf)),
                (0.0, 0.0, nan),
                (1.0, inf, exact(0.0)),
            ],
            Qf128Op::Sqrt => vec![(-1.0, 0.0, nan), (inf, 0.0, exact(inf))],
            Qf128Op::Exp if case.range == "[-1, 1]" => {
                vec![
                    (0.0, 0.0, exact(1.0)),
                    (100.0, 0.0, exact(inf)),
                    (-100.0, 0.0, exact(0.0)),
                ]
            }
            Qf128Op::Log if case.range == "[0.5, 2]" => {
                vec![
                    (1.0, 0.0, exact(0.0)),
                    (0.0, 0.0, exact(-inf)),
                    (-1.0, 0.0, nan),
                ]
            }
            Qf128Op::Sin if case.range == "[-pi/2, pi/2]" => {
                vec![(0.0, 0.0, exact(0.0)), (inf, 0.0, nan)]
            }
            Qf128Op::Cos if case.range == "[-pi/2, pi/2]" => {
                vec![(0.0, 0.0, exact(1.0)), (f32::NAN, 0.0, nan)]
            }
            _ => vec![],
        };
        for (x, y, k) in specials {
            push(&mut o, Qf128::from_f32(x), Qf128::from_f32(y), k)?;
        }
        // The arguments hardest for the long reduction (which qf128 shares with df64): the f32,
        // df64 and 96-bit ones closest to a multiple of pi/2, where this function's result is
        // at least 2^-30 (below it a qf128's last words are subnormal, and the check judges a
        // flushing driver's four words with no floor), so that a driver that breaks the
        // reduction on four words is refused too. Deeper ones are in the accuracy sweep.
        if matches!(op, Qf128Op::Sin | Qf128Op::Cos) && case.range == "[-pi/2, pi/2]" {
            let mut args: Vec<Qf128> = hardest_trig_arguments(&mut o)
                .iter()
                .map(|x| Qf128::new(x.hi, x.lo, 0.0, 0.0))
                .collect();
            let mut q = trig_hard_cases_qf128(&mut o, -96..=32);
            let top = q.last().copied();
            q.sort_by(|a, b| a.1.total_cmp(&b.1));
            for (i, (x, _)) in q.iter().take(8).chain(top.as_ref()).enumerate() {
                args.push(if i % 2 == 1 { qf128_neg(*x) } else { *x });
            }
            // Only where the mirror gives the same words with subnormals flushed as without:
            // the check compares every word with it, on drivers of both kinds.
            let mirror = op.mirror();
            for x in args {
                let e = op.oracle(&mut o, &big_words(&x.x), &big(0.0));
                let ieee = mirror(x, Qf128::ZERO);
                let flushed = with_flush_to_zero(true, || mirror(x, Qf128::ZERO));
                let same = ieee
                    .x
                    .iter()
                    .zip(&flushed.x)
                    .all(|(a, b)| a.to_bits() == b.to_bits());
                if to_f64(&e).abs() >= QF128_FULL_FROM && same {
                    push(&mut o, x, Qf128::ZERO, None)?;
                }
            }
        }
        match out.iter_mut().find(|r| r.name == op.name()) {
            Some(r) => r.cases.extend(cases),
            None => out.push(KnownRoutine {
                name: op.name(),
                call: op.glsl(),
                bound,
                cases,
            }),
        }
    }
    Ok(out)
}

/// One evaluation of a vector routine: its operands, and per result component what it must
/// return (kind, exact words, the size of the routine's unit there) and the mirror's words.
#[derive(Debug, Clone)]
pub struct KnownVecAnswer {
    /// The operand numbers, laid out as the routine's shapes say.
    pub operands: Vec<Df64>,
    /// Per result component: kind, exact words, unit size, the mirror's words.
    pub components: Vec<(AnswerKind, [f64; 3], f64, Df64)>,
}

/// One vector routine's evaluations.
#[derive(Clone)]
pub struct KnownVecRoutine {
    /// The catalog row.
    pub row: &'static VecOpRow,
    /// Its evaluations.
    pub evaluations: Vec<KnownVecAnswer>,
}

/// Every vector and matrix routine's known answers (seeded): evaluations from each class, and
/// the zero, infinite and NaN vectors for length and normalize; each component gated on the
/// mirror.
pub fn vec_known_answers(seed: u64) -> Result<Vec<KnownVecRoutine>, ExperimentError> {
    let mut o = Oracle::new();
    let mut out = Vec::new();
    for row in vec_ops() {
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ fnv(row.name));
        let mut operands: Vec<Vec<Df64>> = Vec::new();
        for class in VecClass::ALL {
            let keep = if class == VecClass::Unit { 3 } else { 2 };
            operands.extend((0..keep).map(|_| vec_operands(row, class, &mut rng)));
        }
        if row.name.ends_with("_length") || row.name.ends_with("_normalize") {
            let n = row.input_numbers();
            for special in [0.0, f32::INFINITY, f32::NAN] {
                let mut x = vec_operands(row, VecClass::Unit, &mut rng);
                if special == 0.0 {
                    x = vec![Df64::ZERO; n];
                } else {
                    x[n - 1] = Df64::new(special, 0.0);
                }
                operands.push(x);
            }
        }
        let mut evaluations = Vec::new();
        for x in operands {
            let exact = (row.exact)(&mut o, &x.iter().map(|d| big_df64(*d)).collect::<Vec<_>>());
            let fx: Vec<f64> = x.iter().map(|d| d.to_f64()).collect();
            let terms = row.terms.map(|t| t(&fx));
            let mirror = (row.mirror)(&x);
            let mut components = Vec::new();
            for (i, e) in exact.iter().enumerate() {
                let v = to_f64(e);
                let (kind, want) = if v.is_nan() {
                    (AnswerKind::Nan, [f64::NAN, 0.0, 0.0])
                } else if v.is_infinite() {
                    (AnswerKind::Exact, [v, 0.0, 0.0])
                } else {
                    (AnswerKind::Value, f64_words(&mut o, e))
                };
                let t = terms
                    .as_ref()
                    .and_then(|t| t.get(i).copied())
                    .unwrap_or(0.0);
                let size = row.unit.size(v, t);
                let m = mirror.get(i).copied().unwrap_or(Df64::new(f32::NAN, 0.0));
                let err =
                    JudgeRule::for_vector(row.unit.label()).error(&[m.hi, m.lo], kind, want, size);
                // NaN fails too.
                if err.is_nan() || err > row.bound {
                    return Err(ExperimentError::Invalid(format!(
                        "known answers: the CPU mirror of {} on {:?} gives {:?} for component \
                         {i}, {err} {} from {want:?} (bound {}): fix the mirror or the expectation",
                        row.name,
                        x,
                        m,
                        row.unit.label(),
                        row.bound
                    )));
                }
                components.push((kind, want, size, m));
            }
            evaluations.push(KnownVecAnswer {
                operands: x,
                components,
            });
        }
        out.push(KnownVecRoutine { row, evaluations });
    }
    Ok(out)
}

/// FNV-1a of a name: seeds that do not move when routines are added.
fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_checked_op_has_cases_of_every_kind_it_can_have() {
        let routines = df64_known_answers(1).unwrap();
        assert_eq!(routines.len(), checked_df64_ops().len());
        for r in &routines {
            let kinds: Vec<AnswerKind> = r.cases.iter().map(|c| c.kind).collect();
            let flags = r.call.contains("? 1.0 : 0.0");
            // No NaN result: the unscaled variants and the fast arithmetic (no specials), min
            // and max (NaN operands unspecified), the error-free transforms (finite words) and
            // the comparisons.
            let no_specials = Df64Op::from_name(r.name)
                .is_some_and(|op| op.domain_log2() == UNSCALED_DOMAIN_LOG2);
            let no_nan = no_specials
                || ["min", "max", "add12", "mul12", "frexp_exp"].contains(&r.name)
                || flags;
            assert!(
                no_nan || kinds.contains(&AnswerKind::Nan),
                "{}: no NaN case",
                r.name
            );
            let values = kinds.iter().filter(|k| **k == AnswerKind::Value).count();
            assert!(flags || values >= 8, "{}: {values} value cases", r.name);
        }
        let q = qf128_known_answers(1, 4).unwrap();
        assert!(q.iter().any(|r| r.name == "div") && q.iter().all(|r| r.cases.len() >= 4));
    }
}
