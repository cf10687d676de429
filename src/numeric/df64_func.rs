//! CPU mirror of `glsl/df64_func.glsl`: df64 elementary functions, step for step in f32.
//!
//! Every function reduces its argument with multi-word constants and exact products, evaluates a
//! short series on a small interval, and ends in one accurate df64 operation, so the result is
//! within about 1 ulp48 (see `df64gl accuracy` for measured figures).
//!
//! Length: one Rust function per routine of `df64_func.glsl` (about 550 lines), side by side
//! with it, plus unit tests.

use super::df64::*;
use super::df64_consts::*;
use super::fpenv::ftz;

fn w2(t: &[f32], i: usize) -> Df64 {
    Df64::new(t[2 * i], t[2 * i + 1])
}

fn nan() -> Df64 {
    Df64::new(f32::NAN, 0.0)
}

/// x - k * (c0 + c1 + c2) with each product exact (TwoProduct) and accurate subtractions.
fn df64_reduce3(a: Df64, k: f32, c: &[f32; 3]) -> Df64 {
    let mut r = df64_add_core(a, df64_neg(df64_two_prod(k, c[0])));
    r = df64_add_core(r, df64_neg(df64_two_prod(k, c[1])));
    df64_add_core(r, Df64::new(-(k * c[2]), 0.0))
}

/// CPU mirror of `df64_div3`: n / d for three-word n and d (d nonzero and finite) to about
/// 2^-70 of the quotient: both scaled to [1, 4), the accurate df64 quotient q, the remainder
/// n - q d formed with exact products in the accumulator, and its quotient by d as a third
/// word; scaled back by the same powers of two.
fn df64_div3(n: [f32; 3], d: [f32; 3]) -> [f32; 3] {
    let (kn, kd) = (df64_normalizer(n[0]), df64_normalizer(d[0]));
    let (fnn, fd) = (df64_pow2(kn), df64_pow2(kd));
    let n = [n[0] * fnn, n[1] * fnn, n[2] * fnn];
    let d = [d[0] * fd, d[1] * fd, d[2] * fd];
    let q = df64_div(Df64::new(n[0], n[1]), Df64::new(d[0], d[1]));
    let p00 = df64_two_prod(q.hi, d[0]);
    let p01 = df64_two_prod(q.hi, d[1]);
    let p10 = df64_two_prod(q.lo, d[0]);
    let t = q.hi * d[2] + q.lo * d[1];
    let mut r = n;
    for v in [p00.hi, p00.lo, p01.hi, p10.hi, p01.lo, p10.lo, t] {
        r = df64_acc3(r, -v);
    }
    let delta = ((r[0] + r[1]) + r[2]) / d[0];
    let s = kd - kn;
    let s1 = s.clamp(-120, 120);
    let (f1, f2) = (df64_pow2(s1), df64_pow2((s - s1).clamp(-126, 127)));
    [(q.hi * f1) * f2, (q.lo * f1) * f2, (delta * f1) * f2]
}

/// c - a for three-word c and a, in the accumulator.
fn df64_sub3(c: [f32; 3], a: [f32; 3]) -> [f32; 3] {
    let mut r = c;
    for v in a {
        r = df64_acc3(r, -v);
    }
    r
}

/// a - k pi/2 with pi/2 to five words (~120 bits) and every product and partial sum exact, so
/// the result keeps its relative accuracy even when a lies within 2^-60 of a multiple of pi/2.
/// The largest terms cancel first, exactly, so the three-word accumulator starts near the size
/// of the result; the last word is a plain product so no error term goes subnormal.
fn df64_reduce_pi_2(a: Df64, k: f32) -> Df64 {
    let p0 = df64_two_prod(k, PI_2[0]);
    let p1 = df64_two_prod(k, PI_2[1]);
    let e = df64_two_diff(a.lo, p0.lo);
    let g = df64_two_sum(a.hi - p0.hi, e.hi);
    let h = df64_two_sum(g.hi, -p1.hi);
    let mut acc = [h.hi, h.lo, 0.0];
    acc = df64_acc3(acc, g.lo);
    acc = df64_acc3(acc, e.lo);
    acc = df64_acc3(acc, -p1.lo);
    for c in &PI_2[2..4] {
        let p = df64_two_prod(k, *c);
        acc = df64_acc3(acc, -p.hi);
        acc = df64_acc3(acc, -p.lo);
    }
    acc = df64_acc3(acc, -(k * PI_2[4]));
    let h = df64_two_sum(acc[0], acc[1]);
    df64_quick_two_sum(h.hi, h.lo + acc[2])
}

/// Horner in df64 on the accurate cores: c[first] + x * (c[first+step] + x * (...)),
/// coefficients as df64 pairs, with alternating signs when `alternate`.
fn df64_horner(
    x: Df64,
    table: &[f32],
    first: usize,
    count: usize,
    step: usize,
    alternate: bool,
) -> Df64 {
    let last = first + (count - 1) * step;
    let sign = |i: usize| -> f32 {
        if alternate && ((i - first) / step) % 2 == 1 {
            -1.0
        } else {
            1.0
        }
    };
    let mut h = w2(table, last);
    h = Df64::new(h.hi * sign(last), h.lo * sign(last));
    let mut i = last;
    while i > first {
        i -= step;
        let c = w2(table, i);
        h = df64_add_core(
            df64_mul_core(h, x),
            Df64::new(c.hi * sign(i), c.lo * sign(i)),
        );
    }
    h
}

// ---------------------------------------------------------------- exp family

/// expm1(t) for |t| <= ln2/64: t + t^2 (1/2 + t/6 + ... + t^5/7!).
fn df64_expm1_kernel(t: Df64) -> Df64 {
    let h = df64_horner(t, &INV_FACT, 2, 6, 1, false);
    df64_add_core(t, df64_mul_core(df64_sqr_core(t), h))
}

/// exp(a) = 2^n * T[j] * (1 + q): k = round(32 a / ln2) = 32 n + j, q = expm1(a - k ln2/32).
/// Returns (n, j, q); valid for |a| < about 2^17.
fn df64_exp_parts(a: Df64) -> (f32, usize, Df64) {
    let k = (a.hi * 46.166_24 + 0.5).floor();
    let t = df64_reduce3(a, k, &LN2_32);
    let q = df64_expm1_kernel(t);
    let n = (k / 32.0).floor();
    let j = (k - 32.0 * n) as usize;
    (n, j, q)
}

fn exp_table(j: usize) -> [f32; 3] {
    [
        EXP2_TABLE[3 * j],
        EXP2_TABLE[3 * j + 1],
        EXP2_TABLE[3 * j + 2],
    ]
}

/// Largest argument whose exp is finite in f32, and the smallest whose exp is normal.
pub const EXP_MAX: f32 = 88.722_83;
/// Below this exp(x) is +0 (ln 2^-150, where every f32 rounds to 0); from here up to
/// ln 2^-126 = -87.33654 the result is an f32 subnormal where the driver keeps subnormals.
pub const EXP_MIN: f32 = -103.972_08;

/// CPU mirror of `df64_exp` in `glsl/df64_func.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn df64_exp(a: Df64) -> Df64 {
    if a.hi.is_nan() {
        return a;
    }
    if a.hi > EXP_MAX {
        return Df64::new(f32::INFINITY, 0.0);
    }
    if a.hi < EXP_MIN {
        return Df64::ZERO;
    }
    let (n, j, q) = df64_exp_parts(a);
    let t = exp_table(j);
    let th = Df64::new(t[0], t[1]);
    // T + T q, with T's third word added to the small part: one final rounding.
    let small = df64_add_core(df64_mul_core(th, q), Df64::new(t[2], 0.0));
    df64_ldexp(df64_add_core(th, small), n as i32)
}

/// exp(a) - 1 without cancellation near 0.
pub fn df64_expm1(a: Df64) -> Df64 {
    if a.hi == 0.0 {
        return a; // +-0 in, the same zero out (odd function)
    }
    if a.hi.is_nan() {
        return a;
    }
    // Far from 0 the - 1 is one accurate subtraction (above 40 it is below exp's last bit's
    // worth, and near the top 2^n T alone would overflow where exp(a) does not).
    if a.hi < -20.0 || a.hi > 40.0 {
        return df64_sub(df64_exp(a), Df64::ONE);
    }
    df64_round3(df64_expm1_3(a))
}

/// CPU mirror of `df64_expm1_3`: expm1(a) in three words, unrounded, for a finite a in
/// [-20, 40] (for expm1 itself and for sinh and tanh, which divide by it).
fn df64_expm1_3(a: Df64) -> [f32; 3] {
    if a.hi.abs() < 0.010_830_425 {
        // The kernel's t + t^2 (1/2 + t/6 + ...), its tail not rounded into t.
        let h = df64_horner(a, &INV_FACT, 2, 6, 1, false);
        let u = df64_mul(df64_sqr(a), h);
        return df64_acc3(df64_acc3([a.hi, a.lo, 0.0], u.hi), u.lo);
    }
    let (n, j, q) = df64_exp_parts(a);
    let t = exp_table(j);
    let s = |x: f32| df64_ldexp(Df64::new(x, 0.0), n as i32).hi;
    // 2^n T - 1 + 2^n T q, the first difference exact.
    let w = df64_two_sum(s(t[0]), -1.0);
    let tq = df64_ldexp(df64_mul(Df64::new(t[0], t[1]), q), n as i32);
    let mut acc = [w.hi, w.lo, 0.0];
    for v in [tq.hi, s(t[1]), tq.lo, s(t[2])] {
        acc = df64_acc3(acc, v);
    }
    acc
}

// ---------------------------------------------------------------- log family

/// The exponent e of frexp (x = m 2^e, m in [0.5, 1)) from the bits of x, exactly as
/// `df64_exponent` in GLSL: right for normal nonzero x; 0 gives -126 and infinity 129.
pub fn f32_exponent(x: f32) -> i32 {
    ((x.to_bits() >> 23) & 0xff) as i32 - 126
}

/// 2 atanh(f) = 2 (f + f s), s = f^2/3 + f^4/5 + ... with `terms` odd reciprocals after 1.
fn df64_atanh2(f: Df64, terms: usize) -> Df64 {
    let f2 = df64_sqr_core(f);
    let s = df64_mul_core(f2, df64_horner(f2, &INV_ODD, 1, terms, 1, false));
    let at = df64_add_core(f, df64_mul_core(f, s));
    Df64::new(2.0 * at.hi, 2.0 * at.lo)
}

/// The special values of the logarithms: NaN for NaN and below 0, -inf at ±0 (a flushed
/// subnormal counts as 0), +inf at +inf; `None` for a finite a > 0.
fn df64_log_special(a: Df64) -> Option<Df64> {
    if a.hi.is_nan() || a.hi < 0.0 {
        return Some(nan());
    }
    if ftz(a.hi) == 0.0 {
        return Some(Df64::new(f32::NEG_INFINITY, 0.0));
    }
    a.hi.is_infinite().then_some(a)
}

/// The parts of ln a for a finite a > 0, as `df64_log_parts` in GLSL: (e, the row of c = i/64
/// in [`LOG_TABLE`], at = ln(m / c)) with a = 2^e m, m in [0.703125, 1.40625), so that
/// ln a = e ln 2 + ln c + at.
fn df64_log_parts(a: Df64) -> (f32, usize, Df64) {
    // A subnormal (where the driver keeps them) has no exponent in its bits: lift it by 2^24,
    // exactly, so that it has one.
    let (a, lift) = if df64_biased_exponent(a.hi) == 0 {
        (df64_scale_words(a, 16_777_216.0), 24)
    } else {
        (a, 0)
    };
    // m in [0.703125, 1.40625): no cancellation between e ln2 and ln m near 1.
    let mut e = f32_exponent(a.hi);
    let mut m = df64_ldexp(a, -e);
    e -= lift;
    if m.hi < 0.703_125 {
        m = Df64::new(2.0 * m.hi, 2.0 * m.lo);
        e -= 1;
    }
    let i = (m.hi * 64.0 + 0.5).floor();
    let c = i / 64.0;
    let f = df64_div_core(
        df64_add_core(m, Df64::new(-c, 0.0)),
        df64_add_core(m, Df64::new(c, 0.0)),
    );
    let at = df64_atanh2(f, 4);
    // i is 45 to 90 for a normalised input; the clamp keeps any other pair inside the table.
    let idx = 3 * ((i as i32).clamp(45, 91) - 45) as usize;
    (e as f32, idx, at)
}

/// Three words of [`LOG_TABLE`] from `idx` (zeros past its end, which `df64_log_parts` never
/// gives).
fn log_table(idx: usize) -> [f32; 3] {
    let w = |k: usize| LOG_TABLE.get(idx + k).copied().unwrap_or(0.0);
    [w(0), w(1), w(2)]
}

/// CPU mirror of `df64_log` in `glsl/df64_func.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn df64_log(a: Df64) -> Df64 {
    if let Some(r) = df64_log_special(a) {
        return r;
    }
    let (ef, idx, at) = df64_log_parts(a);
    let t = log_table(idx);
    let big = df64_add_core(df64_two_prod(ef, LN2[0]), Df64::new(t[0], t[1]));
    let small = df64_add_core(
        df64_add_core(
            df64_two_prod(ef, LN2[1]),
            Df64::new(t[2] + ef * LN2[2], 0.0),
        ),
        at,
    );
    df64_add_core(big, small)
}

/// log_b a = e log_b 2 + ln(m) log_b e (`df64_log_base` in GLSL): ln m in three words
/// ([`df64_log3_parts`]) times log_b e in three words, e log_b 2 in exact products, all summed
/// in the accumulator and rounded once; with log_b 2 = 1 (log2) a power of two gives its
/// exponent exactly (ln 1 is 0 in every word).
fn df64_log_base(a: Df64, log_b_2: &[f32; 3], log_b_e: &[f32; 3]) -> Df64 {
    if let Some(r) = df64_log_special(a) {
        return r;
    }
    let (ef, lm) = df64_log3_parts(a);
    let p = df64_mul3(lm, *log_b_e);
    let l0 = df64_two_prod(ef, log_b_2[0]);
    let l1 = df64_two_prod(ef, log_b_2[1]);
    let mut acc = [l0.hi, l0.lo, 0.0];
    for v in [p[0], l1.hi, p[1], l1.lo, ef * log_b_2[2], p[2]] {
        acc = df64_acc3(acc, v);
    }
    df64_round3(acc)
}

/// CPU mirror of `df64_log2`: the base-2 logarithm, exact at powers of two.
pub fn df64_log2(a: Df64) -> Df64 {
    df64_log_base(a, &[1.0, 0.0, 0.0], &LOG2_E)
}

/// CPU mirror of `df64_log10`: the base-10 logarithm.
pub fn df64_log10(a: Df64) -> Df64 {
    df64_log_base(a, &LOG10_2, &LOG10_E)
}

/// CPU mirror of `df64_log3`: ln a in three words (about 2^-66 of it) for a finite a > 0, for
/// pow: e ln 2 in exact products plus ln m from `df64_log3_parts`, summed in the exact
/// accumulator.
pub fn df64_log3(a: Df64) -> [f32; 3] {
    let (ef, lm) = df64_log3_parts(a);
    let l0 = df64_two_prod(ef, LN2[0]);
    let l1 = df64_two_prod(ef, LN2[1]);
    let mut acc = [l0.hi, l0.lo, 0.0];
    for w in [lm[0], l1.hi, lm[1], l1.lo, ef * LN2[2], lm[2]] {
        acc = df64_acc3(acc, w);
    }
    let h = df64_two_sum(acc[0], acc[1]);
    [h.hi, h.lo, acc[2]]
}

/// CPU mirror of `df64_log3_parts`: for a finite a > 0, (e, ln m) with a = 2^e m, m in
/// [0.703125, 1.40625), and ln m = ln c + 2 atanh((m - c) / (m + c)) in three words: the
/// quotient to three words ([`df64_div3`]), every term summed in the exact accumulator.
fn df64_log3_parts(a: Df64) -> (f32, [f32; 3]) {
    let (a, lift) = if df64_biased_exponent(a.hi) == 0 {
        (df64_scale_words(a, 16_777_216.0), 24)
    } else {
        (a, 0)
    };
    let mut e = f32_exponent(a.hi);
    let mut m = df64_ldexp(a, -e);
    e -= lift;
    if m.hi < 0.703_125 {
        m = Df64::new(2.0 * m.hi, 2.0 * m.lo);
        e -= 1;
    }
    let i = (m.hi * 64.0 + 0.5).floor();
    let c = i / 64.0;
    // m - c exactly: m.hi is within 1/128 of c (Sterbenz).
    let u = df64_two_sum(m.hi - c, m.lo);
    // f = (m - c) / (m + c) to three words, m + c exact in three.
    let f3 = df64_div3(
        [u.hi, u.lo, 0.0],
        df64_acc3(df64_acc3([c, 0.0, 0.0], m.hi), m.lo),
    );
    let (q, q2) = (Df64::new(f3[0], f3[1]), f3[2]);
    // 2 atanh(f) = 2 (f + f s), s = f^2 (1/3 + f^2/5 + f^4/7 + f^6/9), f s from q alone.
    let f2 = df64_sqr(q);
    let s = df64_mul(f2, df64_horner(f2, &INV_ODD, 1, 4, 1, false));
    let fs = df64_mul(q, s);
    // i is 45 to 90 for a normalised input; the clamp keeps any other value inside the table.
    let t = log_table(3 * ((i as i32).clamp(45, 91) - 45) as usize);
    let mut acc = t;
    for w in [2.0 * q.hi, 2.0 * q.lo, 2.0 * fs.hi, 2.0 * q2, 2.0 * fs.lo] {
        acc = df64_acc3(acc, w);
    }
    let h = df64_two_sum(acc[0], acc[1]);
    (e as f32, [h.hi, h.lo, acc[2]])
}

/// ln(1 + a), accurate for small a.
pub fn df64_log1p(a: Df64) -> Df64 {
    if a.hi == 0.0 {
        return a; // +-0 in, the same zero out (odd function)
    }
    if a.hi.is_nan() || a.hi < -1.0 {
        return nan();
    }
    if a.hi.is_infinite() {
        return a;
    }
    // ln(1 + a) = a (1 - a/2 + ...): below 2^-50 the series' second term is under 2^-51 a.
    if a.hi.abs() < df64_pow2(-50) {
        return a;
    }
    if a.hi.abs() < 0.25 {
        // 2 atanh(a / (2 + a)), |f| <= 1/7.
        let f = df64_div(a, df64_add(Df64::new(2.0, 0.0), a));
        return df64_atanh2(f, 10);
    }
    // 1 + a = h + l + d exactly (three words), so ln(1 + a) = ln(h + l) + d / (h + l): 1 + a
    // rounded to a df64 alone would lose up to 2^-49 absolute, all of ln's accuracy near a = -1.
    let s = df64_two_sum(1.0, a.hi);
    let w = df64_acc3([s.hi, s.lo, 0.0], a.lo);
    let u = df64_two_sum(w[0], w[1]);
    if ftz(u.hi) == 0.0 {
        return Df64::new(f32::NEG_INFINITY, 0.0);
    }
    let c = w[2] / u.hi;
    df64_add(df64_log(u), Df64::new(c, 0.0))
}

// ---------------------------------------------------------------- trigonometry

/// Above this |x.hi| the argument goes to Payne and Hanek's reduction ([`df64_reduce_long`]):
/// below it round(2x/pi) is an exact f32 and pi/2 in five words is enough.
pub const TRIG_SHORT: f32 = 8_388_608.0; // 2^23

/// CPU mirror of `df64_mul3`: a b for three-word a and b to about 2^-68 of the product (the
/// three leading products exact, the next three rounded), summed in the exact accumulator.
pub fn df64_mul3(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    let p00 = df64_two_prod(a[0], b[0]);
    let p01 = df64_two_prod(a[0], b[1]);
    let p10 = df64_two_prod(a[1], b[0]);
    let t = (a[0] * b[2] + a[1] * b[1]) + a[2] * b[0];
    let mut acc = [p00.hi, p00.lo, 0.0];
    for v in [p01.hi, p10.hi, p01.lo, p10.lo, t] {
        acc = df64_acc3(acc, v);
    }
    let h = df64_two_sum(acc[0], acc[1]);
    [h.hi, h.lo, acc[2]]
}

/// (f0 + f1 + f2) pi/2 for the words of [`df64_reduce_long`], as a df64.
fn df64_times_pi_2(f: [f32; 3]) -> Df64 {
    let p = df64_mul3(f, [PI_2[0], PI_2[1], PI_2[2]]);
    df64_quick_two_sum(p[0], p[1] + p[2])
}

/// CPU mirror of `df64_trig_reduce`: r = a - n pi/2 with |r| <= pi/4, and n mod 4; the
/// five-word subtraction for |a.hi| <= 2^23, Payne and Hanek's reduction above.
pub fn df64_trig_reduce(a: Df64) -> (Df64, i32) {
    if a.hi.abs() > TRIG_SHORT {
        let (n, f, f_exp) = df64_reduce_long([a.hi, a.lo, 0.0, 0.0], 2);
        return (df64_ldexp(df64_times_pi_2([f[0], f[1], f[2]]), f_exp), n);
    }
    let mut k = (a.hi * INV_PI_2[0] + 0.5).floor();
    let mut r = df64_reduce_pi_2(a, k);
    // Near 2^23 the f32 estimate of k can be one off (rounding, and the low word it ignores):
    // one step puts r back in [-pi/4, pi/4], where the series hold.
    if r.hi > PI_4[0] {
        k += 1.0;
        r = df64_reduce_pi_2(a, k);
    } else if r.hi < -PI_4[0] {
        k -= 1.0;
        r = df64_reduce_pi_2(a, k);
    }
    (r, (k - 4.0 * (k / 4.0).floor()) as i32)
}

/// CPU mirror of `df64_sincos_reduced`: (sin r, cos r) for |r| <= pi/4, the series alone.
pub fn df64_sincos_reduced(r: Df64) -> (Df64, Df64) {
    let r2 = df64_sqr(r);
    // sin r = r + r^3 (-1/3! + r^2/5! - ...), cos r = 1 + r^2 (-1/2! + r^2/4! - ...).
    let sp = df64_horner(r2, &INV_FACT, 3, 8, 2, true);
    let s = df64_add(r, df64_mul(df64_mul(r, r2), df64_neg(sp)));
    let cp = df64_horner(r2, &INV_FACT, 2, 9, 2, true);
    let c = df64_add(Df64::ONE, df64_mul(r2, df64_neg(cp)));
    (s, c)
}

/// CPU mirror of `df64_sin_or_cos_reduced`: sin r (odd false) or cos r (odd true) for
/// |r| <= pi/4, the one series that is wanted (sin's coefficients padded with a zero at the top),
/// its four highest terms in f32, the others' steps on the cores and r^2, the last product and
/// the sum scaled.
pub fn df64_sin_or_cos_reduced(r: Df64, odd: bool) -> Df64 {
    let r2 = df64_sqr(r);
    let z = r2.hi;
    let mut t = if odd { w2(&INV_FACT, 18).hi } else { 0.0 };
    for k in (5..8).rev() {
        let c = w2(&INV_FACT, if odd { 2 * k + 2 } else { 2 * k + 3 }).hi;
        t = (if k % 2 == 1 { -c } else { c }) + z * t;
    }
    let mut h = Df64::new(t, 0.0);
    for k in (0..5).rev() {
        let c = w2(&INV_FACT, if odd { 2 * k + 2 } else { 2 * k + 3 });
        h = df64_add_core(
            df64_mul_core(h, r2),
            if k % 2 == 1 { df64_neg(c) } else { c },
        );
    }
    let a = if odd { Df64::ONE } else { r };
    let b = if odd { r2 } else { df64_mul(r, r2) };
    df64_add(a, df64_mul(b, df64_neg(h)))
}

/// CPU mirror of `df64_sin_or_cos`: sin a, or cos a as sin a in the next quadrant.
fn df64_sin_or_cos(a: Df64, want_cos: bool) -> Df64 {
    if !a.hi.is_finite() {
        return nan();
    }
    let (r, q) = df64_trig_reduce(a);
    let q = q + i32::from(want_cos);
    let v = df64_sin_or_cos_reduced(r, q & 1 == 1);
    if q & 2 == 2 {
        df64_neg(v)
    } else {
        v
    }
}

/// CPU mirror of `df64_sin` in `glsl/df64_func.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn df64_sin(a: Df64) -> Df64 {
    if a.hi == 0.0 {
        return a; // sin(+-0) = +-0
    }
    df64_sin_or_cos(a, false)
}

/// CPU mirror of `df64_cos` in `glsl/df64_func.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn df64_cos(a: Df64) -> Df64 {
    df64_sin_or_cos(a, true)
}

/// CPU mirror of `df64_sincos`: (sin a, cos a) from one reduction, the same words as
/// `df64_sin` and `df64_cos`.
pub fn df64_sincos(a: Df64) -> (Df64, Df64) {
    if !a.hi.is_finite() {
        return (nan(), nan());
    }
    let (r, q) = df64_trig_reduce(a);
    let signed = |v: Df64, q: i32| if q & 2 == 2 { df64_neg(v) } else { v };
    let s = signed(df64_sin_or_cos_reduced(r, q & 1 == 1), q);
    let c = signed(df64_sin_or_cos_reduced(r, q & 1 == 0), q + 1);
    (if a.hi == 0.0 { a } else { s }, c)
}

/// CPU mirror of `df64_sincos3`: sin r and cos r for |r| <= pi/4 in three words each (for
/// tan's one rounding): sin's series tail as a df64 on r, cos as 1 - r^2/2 with r^2/2 in
/// exact words plus r^4 (1/4! - r^2/6! + ...).
fn df64_sincos3(r: Df64) -> ([f32; 3], [f32; 3]) {
    let r2 = df64_sqr(r);
    let sp = df64_horner(r2, &INV_FACT, 3, 8, 2, true);
    let t = df64_mul(df64_mul(r, r2), df64_neg(sp));
    let s = df64_acc3(df64_acc3([r.hi, r.lo, 0.0], t.hi), t.lo);
    let cp = df64_horner(r2, &INV_FACT, 4, 8, 2, true);
    let u = df64_mul(df64_sqr(r2), cp);
    let p = df64_two_prod(r.hi, r.hi);
    let q = df64_two_prod(r.hi, r.lo);
    let mut c = [1.0, 0.0, 0.0];
    for v in [
        -0.5 * p.hi,
        u.hi,
        -q.hi,
        -0.5 * p.lo,
        u.lo,
        -q.lo,
        -0.5 * (r.lo * r.lo),
    ] {
        c = df64_acc3(c, v);
    }
    (s, c)
}

/// Below this |x| an odd function whose series is x (1 + O(x^2)) returns x itself: the
/// O(x^2) is under 2^-52 of it (0.03 ulp48), and its rounding steps would meet the flush floor.
pub const ODD_TINY: f32 = 1.490_116_1e-8; // 2^-26

/// CPU mirror of `df64_tan` in `glsl/df64_func.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn df64_tan(a: Df64) -> Df64 {
    if a.hi.abs() < ODD_TINY {
        return a; // tan(x) = x (1 + x^2/3 + ...): +-0 and every tiny x as they are
    }
    if !a.hi.is_finite() {
        return nan();
    }
    let (r, q) = df64_trig_reduce(a);
    let (s, c) = df64_sincos3(r);
    // tan = sin / cos, or -cos / sin in the odd quadrants, each rounded once (one division on
    // operands chosen first, as the shader compiles it once).
    let odd = q & 1 == 1;
    let (num, den) = if odd { (c, s) } else { (s, c) };
    let t = df64_round3(df64_div3(num, den));
    if odd {
        df64_neg(t)
    } else {
        t
    }
}

/// CPU mirror of `df64_atan_unit3`: atan(z) for a three-word z in [0, 1], in three words:
/// atan(c) from the table (c = round(64 z)/64) plus atan(t), t = (z - c) / (1 + z c) formed to
/// three words (z - c exactly, 1 + z c with exact products), |t| <= 1/128.
fn df64_atan_unit3(z: [f32; 3]) -> [f32; 3] {
    let i = (z[0] * 64.0 + 0.5).floor();
    let c = i / 64.0;
    // z[0] - c is exact: z[0] is within 1/128 of c (Sterbenz), or c = 0.
    let n = df64_two_sum(z[0] - c, z[1]);
    let num = df64_acc3([n.hi, n.lo, 0.0], z[2]);
    let p = df64_two_prod(z[0], c);
    let pl = df64_two_prod(z[1], c);
    let mut den = [1.0, 0.0, 0.0];
    for v in [p.hi, pl.hi, p.lo, pl.lo, z[2] * c] {
        den = df64_acc3(den, v);
    }
    let t3 = df64_div3(num, den);
    // atan t = t + t^3 (-1/3 + t^2/5 - t^4/7).
    let t = Df64::new(t3[0], t3[1]);
    let t2 = df64_sqr(t);
    let poly = df64_horner(t2, &INV_ODD, 1, 3, 1, true);
    let tail = df64_mul(df64_mul(t, t2), df64_neg(poly));
    // i is 0 to 64 for z in [0, 1]; the clamp keeps any other value inside the table.
    let idx = 3 * (i as i32).clamp(0, 64) as usize;
    let mut acc = [ATAN_TABLE[idx], ATAN_TABLE[idx + 1], ATAN_TABLE[idx + 2]];
    for v in [t3[0], t3[1], tail.hi, t3[2], tail.lo] {
        acc = df64_acc3(acc, v);
    }
    acc
}

/// The three words of pi/2 and pi.
fn pi_2_3() -> [f32; 3] {
    [PI_2[0], PI_2[1], PI_2[2]]
}
fn pi_3() -> [f32; 3] {
    [PI[0], PI[1], PI[2]]
}

/// atan2(y, x) for y, x >= 0 in three words (both finite, not both zero): atan(y/x) or
/// pi/2 - atan(x/y), whichever has its ratio in [0, 1]; each ratio to three words (one
/// division and one series on operands chosen first, as the shader compiles them once).
fn df64_atan2_first3(y: [f32; 3], x: [f32; 3]) -> [f32; 3] {
    let direct = df64_le(Df64::new(y[0], y[1]), Df64::new(x[0], x[1]));
    let (num, den) = if direct { (y, x) } else { (x, y) };
    let a = df64_atan_unit3(df64_div3(num, den));
    if direct {
        a
    } else {
        df64_sub3(pi_2_3(), a)
    }
}

/// CPU mirror of `df64_atan` in `glsl/df64_func.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn df64_atan(a: Df64) -> Df64 {
    if a.hi.abs() < ODD_TINY {
        return a; // atan(x) = x (1 - x^2/3 + ...): +-0 and every tiny x as they are
    }
    if a.hi.is_nan() {
        return a;
    }
    let x = df64_abs(a);
    let r = if x.hi.is_infinite() {
        Df64::new(PI_2[0], PI_2[1])
    } else {
        df64_round3(df64_atan2_first3([x.hi, x.lo, 0.0], [1.0, 0.0, 0.0]))
    };
    if a.hi < 0.0 {
        df64_neg(r)
    } else {
        r
    }
}

/// IEEE atan2 where an argument is infinite or both are zero: k pi/4 with the sign of y, k
/// from the quadrant (0, 1, 2, 3 or 4), in df64.
fn df64_atan2_special(y: f32, x: f32) -> Df64 {
    let x_negative = x.is_sign_negative();
    let k: f32 = if x.is_infinite() {
        match (y.is_infinite(), x_negative) {
            (true, false) => 1.0,
            (true, true) => 3.0,
            (false, false) => 0.0,
            (false, true) => 4.0,
        }
    } else if y.is_infinite() {
        2.0
    } else if x_negative {
        4.0
    } else {
        0.0
    };
    let r = if k == 0.0 {
        Df64::new(0.0, 0.0)
    } else {
        df64_mul_f32(Df64::new(PI[0], PI[1]), 0.25 * k)
    };
    if y.is_sign_negative() {
        df64_neg(r)
    } else {
        r
    }
}

/// CPU mirror of `df64_atan2` in `glsl/df64_func.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn df64_atan2(y: Df64, x: Df64) -> Df64 {
    if y.hi.is_nan() || x.hi.is_nan() {
        return nan();
    }
    if !y.hi.is_finite() || !x.hi.is_finite() || (ftz(y.hi) == 0.0 && ftz(x.hi) == 0.0) {
        return df64_atan2_special(ftz(y.hi), ftz(x.hi));
    }
    let (ay, ax) = (df64_abs(y), df64_abs(x));
    let mut r = df64_atan2_first3([ay.hi, ay.lo, 0.0], [ax.hi, ax.lo, 0.0]);
    if x.hi < 0.0 {
        r = df64_sub3(pi_3(), r);
    }
    let r = df64_round3(r);
    // The sign bit, so that atan2(-0, x) is -0 or -pi.
    if y.hi.is_sign_negative() {
        df64_neg(r)
    } else {
        r
    }
}

/// CPU mirror of `df64_sqrt_1m_sq3`: sqrt(1 - a^2) for 0 <= a <= 1 in three words, 1 - a^2
/// formed as (1 - a)(1 + a) with both factors exact in three words.
fn df64_sqrt_1m_sq3(a: Df64) -> [f32; 3] {
    let u = df64_acc3(df64_acc3([1.0, 0.0, 0.0], -a.hi), -a.lo);
    let v = df64_acc3(df64_acc3([1.0, 0.0, 0.0], a.hi), a.lo);
    df64_sqrt3(df64_mul3(u, v))
}

/// CPU mirror of `df64_asin` in `glsl/df64_func.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn df64_asin(a: Df64) -> Df64 {
    if a.hi.abs() < ODD_TINY {
        return a; // asin(x) = x (1 + x^2/6 + ...): +-0 and every tiny x as they are
    }
    if a.hi.is_nan() || a.hi.abs() > 1.0 {
        return nan();
    }
    let x = df64_abs(a);
    let r = df64_round3(df64_atan2_first3([x.hi, x.lo, 0.0], df64_sqrt_1m_sq3(x)));
    if a.hi < 0.0 {
        df64_neg(r)
    } else {
        r
    }
}

/// CPU mirror of `df64_acos` in `glsl/df64_func.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn df64_acos(a: Df64) -> Df64 {
    if a.hi.is_nan() || a.hi.abs() > 1.0 {
        return nan();
    }
    let x = df64_abs(a);
    let r = df64_atan2_first3(df64_sqrt_1m_sq3(x), [x.hi, x.lo, 0.0]);
    df64_round3(if a.hi < 0.0 { df64_sub3(pi_3(), r) } else { r })
}

// ---------------------------------------------------------------- hyperbolic

/// CPU mirror of `df64_sinh` in `glsl/df64_func.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn df64_sinh(a: Df64) -> Df64 {
    if a.hi.abs() < ODD_TINY {
        return a; // sinh(x) = x (1 + x^2/6 + ...): +-0 and every tiny x as they are
    }
    if a.hi.is_nan() {
        return a;
    }
    let x = df64_abs(a);
    let r = if x.hi > EXP_MAX {
        Df64::new(f32::INFINITY, 0.0)
    } else if x.hi > 20.0 {
        // e^x / 2: the e^-x / 2 it leaves out is under 2^-57 of it.
        let e = df64_exp(x);
        Df64::new(0.5 * e.hi, 0.5 * e.lo)
    } else {
        // (e - 1/e)/2 = (m + m/(m + 1))/2 with m = expm1(x) in three words: no cancellation
        // near 0, and one rounding.
        let m = df64_expm1_3(x);
        let mut s = m;
        for v in df64_div3(m, df64_acc3(m, 1.0)) {
            s = df64_acc3(s, v);
        }
        let s = df64_round3(s);
        Df64::new(0.5 * s.hi, 0.5 * s.lo)
    };
    if a.hi < 0.0 {
        df64_neg(r)
    } else {
        r
    }
}

/// CPU mirror of `df64_cosh` in `glsl/df64_func.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn df64_cosh(a: Df64) -> Df64 {
    if a.hi.is_nan() {
        return a;
    }
    let x = df64_abs(a);
    if x.hi > EXP_MAX {
        return Df64::new(f32::INFINITY, 0.0);
    }
    let e = df64_exp(x);
    let s = df64_add(e, df64_recip(e));
    Df64::new(0.5 * s.hi, 0.5 * s.lo)
}

/// CPU mirror of `df64_tanh` in `glsl/df64_func.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn df64_tanh(a: Df64) -> Df64 {
    if a.hi.abs() < ODD_TINY {
        return a; // tanh(x) = x (1 - x^2/3 + ...): +-0 and every tiny x as they are
    }
    if a.hi.is_nan() {
        return a;
    }
    let x = df64_abs(a);
    let r = if x.hi > 20.0 {
        Df64::ONE
    } else {
        // m / (m + 2), m = expm1(2x) in three words, rounded once.
        let m = df64_expm1_3(Df64::new(2.0 * x.hi, 2.0 * x.lo));
        df64_round3(df64_div3(m, df64_acc3(m, 2.0)))
    };
    if a.hi < 0.0 {
        df64_neg(r)
    } else {
        r
    }
}

// ---------------------------------------------------------------- pow

/// CPU mirror of `df64_is_integer` in `glsl/df64_func.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn df64_is_integer(a: Df64) -> bool {
    df64_eq(df64_floor(a), a)
}

/// CPU mirror of `df64_powi`: x^n for an integer n by binary powering over |n|'s bits
/// (1 / x^|n| for n < 0), within max(|n| - 1, 0) ulp48 for n > 0 and |n| + 1 for n < 0;
/// exact wherever every power on the way is a df64.
pub fn df64_powi(x: Df64, n: i32) -> Df64 {
    if n == 0 {
        return Df64::ONE;
    }
    // A NaN in either word is NaN (x^1 would return a NaN low word under a finite high one).
    if x.hi.is_nan() || x.lo.is_nan() {
        return nan();
    }
    // |n|, clamped to 2^30 with its parity kept (beyond, every |x| != 1 over- or underflows).
    let k = if n < 0 {
        -(n.max(-0x4000_0000))
    } else {
        n.min(0x4000_0000)
    };
    let k = (k & 0x7fff_fffe) | (n & 1);
    let mut top = f32_exponent(k as f32) - 1;
    if (k >> top) == 0 {
        top -= 1;
    }
    // x = m 2^e with |m.hi| in [1/2, 1), each power kept so, the exponent applied at the end.
    let plain = ftz(x.hi) == 0.0 || !x.hi.is_finite();
    let e = if plain { 0 } else { f32_exponent(x.hi) };
    let m = df64_ldexp(x, -e);
    let mut r = m;
    let mut re = e;
    for bit in (0..top).rev() {
        r = df64_sqr(r);
        re *= 2;
        if (k >> bit) & 1 == 1 {
            r = df64_mul(r, m);
            re += e;
        }
        let f = if plain { 0 } else { f32_exponent(r.hi) };
        r = df64_ldexp(r, -f);
        re = (re + f).clamp(-100_000, 100_000);
    }
    if n < 0 {
        r = df64_recip(r);
        re = -re;
    }
    df64_ldexp(r, re)
}

/// CPU mirror of `df64_span`: the bits a df64 spans, from its leading bit to its last set one;
/// 99 when a word is subnormal.
pub fn df64_span(a: Df64) -> i32 {
    let w = if a.lo != 0.0 { a.lo } else { a.hi };
    let bits = w.to_bits() as i32;
    let be = (bits >> 23) & 0xff;
    if be == 0 || df64_biased_exponent(a.hi) == 0 {
        return 99;
    }
    let mant = (bits & 0x7f_ffff) | 0x80_0000;
    let lowest = mant & mant.wrapping_neg();
    let low = be - 150 + df64_biased_exponent(lowest as f32) - 127;
    f32_exponent(a.hi) - low
}

/// CPU mirror of `df64_pow` in `glsl/df64_func.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn df64_pow(x: Df64, y: Df64) -> Df64 {
    // C99 Annex F: pow(x, ±0) = pow(1, y) = 1 for any x and y, NaN among them.
    if ftz(y.hi) == 0.0 || (x.hi == 1.0 && x.lo == 0.0) {
        return Df64::ONE;
    }
    if x.hi.is_nan() || y.hi.is_nan() {
        return nan();
    }
    if y.hi.is_infinite() {
        if x.hi.abs() == 1.0 && x.lo == 0.0 {
            return Df64::ONE;
        }
        let r = if (x.hi.abs() < 1.0) == (y.hi > 0.0) {
            0.0
        } else {
            f32::INFINITY
        };
        return Df64::new(r, 0.0);
    }
    let integer = df64_is_integer(y);
    let odd = integer && !df64_is_integer(Df64::new(0.5 * y.hi, 0.5 * y.lo));
    if ftz(x.hi) == 0.0 || x.hi.is_infinite() {
        // ±0 and ±inf: 0 or inf, negative for a negative x and an odd integer y.
        let r = if (ftz(x.hi) == 0.0) == (y.hi < 0.0) {
            f32::INFINITY
        } else {
            0.0
        };
        let neg = x.hi.is_sign_negative() && odd;
        return Df64::new(if neg { -r } else { r }, 0.0);
    }
    if x.hi < 0.0 && !integer {
        return nan();
    }
    // Exact cases exact: sqrt for y = 1/2, binary powering where every power is a df64.
    if y.hi == 0.5 && y.lo == 0.0 {
        return df64_sqrt(x);
    }
    if integer && y.hi.abs() <= 48.0 {
        let n = (y.hi + y.lo) as i32;
        let span = df64_span(x);
        if span * n.abs() <= 48 && (n > 0 || span == 1) {
            return df64_powi(x, n);
        }
    }
    // exp(y ln|x|) with y ln|x| in three words: exp of the first two, times 1 + the third.
    let l = df64_log3(df64_abs(x));
    // Far outside exp's range (y huge) the exact products would overflow: exp of the f32
    // product alone is the same 0 or inf.
    // One exp, on the argument chosen first (as the shader compiles it once).
    let t = y.hi * l[0];
    let near = t.abs() <= 256.0;
    let z = if near {
        df64_mul3([y.hi, y.lo, 0.0], l)
    } else {
        [t, 0.0, 0.0]
    };
    let mut r = df64_exp(Df64::new(z[0], z[1]));
    if near && r.hi.is_finite() && ftz(r.hi) != 0.0 {
        r = df64_add(r, df64_mul_f32(r, z[2]));
    }
    if odd && x.hi < 0.0 {
        df64_neg(r)
    } else {
        r
    }
}

// ---------------------------------------------------------------- rounding and remainders

/// CPU mirror of `df64_floor` in `glsl/df64_func.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn df64_floor(a: Df64) -> Df64 {
    let a = Df64::new(ftz(a.hi), ftz(a.lo));
    let h = a.hi.floor();
    // An integral hi with a zero low word (±0 and ±inf among them) is its own floor.
    if h == a.hi && a.lo == 0.0 {
        return Df64::new(h, 0.0);
    }
    if h == a.hi {
        df64_quick_two_sum(h, a.lo.floor())
    } else {
        Df64::new(h, 0.0)
    }
}

/// CPU mirror of `df64_ceil` in `glsl/df64_func.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn df64_ceil(a: Df64) -> Df64 {
    let a = Df64::new(ftz(a.hi), ftz(a.lo));
    let h = a.hi.ceil();
    if h == a.hi && a.lo == 0.0 {
        return Df64::new(h, 0.0);
    }
    if h == a.hi {
        df64_quick_two_sum(h, a.lo.ceil())
    } else {
        Df64::new(h, 0.0)
    }
}

/// CPU mirror of `df64_trunc` in `glsl/df64_func.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn df64_trunc(a: Df64) -> Df64 {
    if a.hi < 0.0 {
        df64_ceil(a)
    } else {
        df64_floor(a)
    }
}

/// Round half away from zero (C `round`).
pub fn df64_round(a: Df64) -> Df64 {
    let t = df64_trunc(a);
    let d = df64_sub(a, t);
    if df64_ge(d, Df64::new(0.5, 0.0)) {
        df64_add(t, Df64::ONE)
    } else if df64_le(d, Df64::new(-0.5, 0.0)) {
        df64_sub(t, Df64::ONE)
    } else {
        t
    }
}

/// r - q bs for an f32 integer q: exact products, summed in the exact three-word accumulator,
/// so the result is exact whenever it is a df64 (partial sums may be far larger than it).
fn df64_sub_digit(r: Df64, q: f32, bs: Df64) -> Df64 {
    let p0 = df64_two_prod(q, bs.hi);
    let p1 = df64_two_prod(q, bs.lo);
    let mut acc = [r.hi - p0.hi, 0.0, 0.0];
    for t in [r.lo, -p0.lo, -p1.hi, -p1.lo] {
        acc = df64_acc3(acc, t);
    }
    let h = df64_two_sum(acc[0], acc[1]);
    df64_quick_two_sum(h.hi, h.lo + acc[2])
}

/// |a| reduced modulo |b| by long division in quotient digits of at most 24 bits. With
/// `nearest`, the last digit is rounded to nearest (ties to even) and the result lies in
/// [-|b|/2, |b|/2] (IEEE remainder); otherwise it is truncated and the result lies in [0, |b|).
fn df64_mod_core(a: Df64, b: Df64, nearest: bool) -> Df64 {
    df64_mod_core_dividing(a, b, nearest, |x, y| x / y)
}

/// [`df64_mod_core`] with the f32 division its digit estimates use given, so that a test can
/// run it with a division as inexact as GLSL allows (2.5 ulp; NVIDIA's is not correctly
/// rounded).
fn df64_mod_core_dividing(a: Df64, b: Df64, nearest: bool, div: impl Fn(f32, f32) -> f32) -> Df64 {
    let bb = df64_abs(b);
    let mut r = df64_abs(a);
    for _ in 0..12 {
        if !nearest && df64_lt(r, bb) {
            break;
        }
        let eq = f32_exponent(div(r.hi, bb.hi));
        let s = (eq - 24).max(0);
        if s == 0 && nearest {
            // Last digit, rounded to nearest; corrections cover a digit off by one.
            let mut q = (div(r.hi, bb.hi) + 0.5).floor();
            let mut n = df64_sub_digit(r, q, bb);
            let half = Df64::new(0.5 * bb.hi, 0.5 * bb.lo);
            // The digit can be off by more than one where `/` is not correctly rounded (2.5
            // ulp of a quotient near 2^24 is 2.5 units); n is exact, so n / b, rounded, is the
            // error within one, and the second step takes the last unit.
            for _ in 0..2 {
                if df64_gt(n, half) {
                    q += (div(n.hi, bb.hi) + 0.5).floor().max(1.0);
                    n = df64_sub_digit(r, q, bb);
                } else if df64_lt(n, df64_neg(half)) {
                    q += (div(n.hi, bb.hi) + 0.5).floor().min(-1.0);
                    n = df64_sub_digit(r, q, bb);
                }
            }
            // A tie goes to the even quotient.
            let odd = q - 2.0 * (q / 2.0).floor() == 1.0;
            if odd && df64_eq(n, half) {
                n = df64_sub_digit(r, q + 1.0, bb);
            } else if odd && df64_eq(n, df64_neg(half)) {
                n = df64_sub_digit(r, q - 1.0, bb);
            }
            return n;
        }
        let bs = df64_ldexp(bb, s);
        let mut q = div(r.hi, bs.hi).floor().max(1.0);
        let mut n = df64_sub_digit(r, q, bs);
        // The f32 digit can be off by a few units either way (the division, correctly rounded
        // or up to 2.5 ulp off as GLSL allows, and the ignored low words); n is exact, so
        // floor(n / bs) is the error within one, and the second step takes the last unit. Each
        // step recomputes from r, so no inexact intermediate is kept.
        for _ in 0..2 {
            if n.hi < 0.0 {
                q += div(n.hi, bs.hi).floor().min(-1.0);
                n = df64_sub_digit(r, q, bs);
            } else if df64_ge(n, bs) {
                q += div(n.hi, bs.hi).floor().max(1.0);
                n = df64_sub_digit(r, q, bs);
            }
        }
        r = n;
    }
    r
}

/// fmod and remainder are exact for |a/b| < 2^24; beyond it (|a.hi / b.hi| >= this) their
/// quotient digits can go wrong, so there they return NaN rather than a wrong number.
pub const MOD_LIMIT: f32 = 16_777_216.0;

/// Whether fmod and remainder of (a, b) lie beyond [`MOD_LIMIT`] (or their quotient is NaN),
/// as the GLSL's `!(abs(a.x / b.x) < DF64_MOD_LIMIT)`.
pub fn df64_beyond_mod_limit(a: Df64, b: Df64) -> bool {
    (a.hi / b.hi).abs().partial_cmp(&MOD_LIMIT) != Some(std::cmp::Ordering::Less)
}

/// C `fmod`: a - trunc(a/b) b, with the sign of a. Exact whenever the result is a df64 and
/// |a/b| < 2^24; NaN where |a.hi / b.hi| >= 2^24 ([`MOD_LIMIT`]).
pub fn df64_fmod(a: Df64, b: Df64) -> Df64 {
    if a.hi.is_nan() || b.hi.is_nan() || !a.hi.is_finite() || ftz(b.hi) == 0.0 {
        return nan();
    }
    if !b.hi.is_finite() {
        return a;
    }
    if df64_beyond_mod_limit(a, b) {
        return nan();
    }
    // Huge operands are scaled down by 2^64 (exactly) first: the digit products split them.
    let k = if a.hi.abs().max(b.hi.abs()) > 1.267_650_6e30 {
        64
    } else {
        0
    };
    let r = df64_ldexp(
        df64_mod_core(df64_ldexp(a, -k), df64_ldexp(b, -k), false),
        k,
    );
    // The sign bit, so that fmod(-0, b) is -0.
    if a.hi.is_sign_negative() {
        df64_neg(r)
    } else {
        r
    }
}

/// IEEE remainder: a - n b with n the integer nearest a/b, ties to even (same exactness as fmod).
pub fn df64_remainder(a: Df64, b: Df64) -> Df64 {
    if a.hi.is_nan() || b.hi.is_nan() || !a.hi.is_finite() || ftz(b.hi) == 0.0 {
        return nan();
    }
    if !b.hi.is_finite() {
        return a;
    }
    if df64_beyond_mod_limit(a, b) {
        return nan();
    }
    // |a| <= |b|/2 is its own remainder (a tie goes to the even quotient, 0).
    let ab = df64_abs(b);
    if df64_le(df64_abs(a), Df64::new(0.5 * ab.hi, 0.5 * ab.lo)) {
        return a;
    }
    let k = if a.hi.abs().max(b.hi.abs()) > 1.267_650_6e30 {
        64
    } else {
        0
    };
    let r = df64_ldexp(df64_mod_core(df64_ldexp(a, -k), df64_ldexp(b, -k), true), k);
    if a.hi.is_sign_negative() {
        df64_neg(r)
    } else {
        r
    }
}

/// (m, e) with a = m 2^e and |m| in [0.5, 1).
pub fn df64_frexp(a: Df64) -> (Df64, i32) {
    if ftz(a.hi) == 0.0 {
        return (Df64::new(ftz(a.hi), 0.0), 0);
    }
    if !a.hi.is_finite() {
        return (a, 0);
    }
    // A subnormal (where the driver keeps them) is lifted by 2^24 first, as in df64_log.
    let (a, lift) = if df64_biased_exponent(a.hi) == 0 {
        (df64_scale_words(a, 16_777_216.0), 24)
    } else {
        (a, 0)
    };
    let e = f32_exponent(a.hi);
    let mut m = df64_ldexp(a, -e);
    let mut e = e - lift;
    // hi = +-0.5 with a low word of the other sign lies below 0.5 in magnitude.
    if m.hi.abs() == 0.5 && m.hi * m.lo < 0.0 {
        m = Df64::new(2.0 * m.hi, 2.0 * m.lo);
        e -= 1;
    }
    (m, e)
}

// ---------------------------------------------------------------- the fast tier

/// CPU mirror of `df64_exp_fast`: e^a = 2^n T\[j\] (1 + q), q = t + t^2 (1/2 + t (1/6 + t R)) with
/// R = 1/24 + t/120 + t^2/720 in f32, on the fast arithmetic. Within 2 ulp48 for results of
/// 2^-100 to 2^128; arguments past -105 and 89 act as those ends (the scaling under- or
/// overflows); NaN gives NaN.
pub fn df64_exp_fast(a: Df64) -> Df64 {
    let xc = a.hi.clamp(-105.0, 89.0);
    let x = if xc == a.hi { a } else { Df64::new(xc, 0.0) };
    let k = (x.hi * 46.166_24 + 0.5).floor();
    let mut t = df64_add_fast(x, df64_neg(df64_two_prod(k, LN2_32[0])));
    t = df64_add_fast(t, df64_neg(df64_two_prod(k, LN2_32[1])));
    t = df64_add_fast(t, Df64::new(-(k * LN2_32[2]), 0.0));
    let r = INV_FACT[8] + t.hi * (INV_FACT[10] + t.hi * INV_FACT[12]);
    let h = df64_add_fast(w2(&INV_FACT, 3), Df64::new(t.hi * r, 0.0));
    let g = df64_add_fast(Df64::new(0.5, 0.0), df64_mul_fast(t, h));
    let q = df64_add_fast(t, df64_mul_fast(df64_sqr_fast(t), g));
    let n = (k / 32.0).floor();
    let j = ((k - 32.0 * n) as i32).clamp(0, 31) as usize;
    let tab = exp_table(j);
    let th = Df64::new(tab[0], tab[1]);
    let small = df64_add_fast(df64_mul_fast(th, q), Df64::new(tab[2], 0.0));
    let e = df64_add_fast(th, small);
    // 2^n in two exact factors, so that the result rounds once.
    let ni = (n as i32).clamp(-160, 128);
    let n1 = ni / 2;
    let v = df64_scale_words(df64_scale_words(e, df64_pow2(n1)), df64_pow2(ni - n1));
    if a.hi.is_nan() {
        a
    } else {
        df64_finish(v)
    }
}

/// CPU mirror of `df64_log_fast`: ln a = e ln 2 + ln c + 2 atanh f, 2 atanh f = 2 (f + f f^2 S),
/// S = 1/3 + f^2 (1/5 + f^2/7) with the f^2 terms in f32, on the fast arithmetic. Within 2
/// ulp48 for a from 2^-100 to 2^128; IEEE's values at zeros, infinities, NaN and below 0 (a
/// subnormal counts as 0).
pub fn df64_log_fast(a: Df64) -> Df64 {
    let bits = a.hi.to_bits() as i32;
    let mut e = f32_exponent(a.hi);
    let e1 = e / 2;
    let m = df64_scale_words(
        df64_scale_words(a, df64_pow2((-e1).clamp(-126, 126))),
        df64_pow2((e1 - e).clamp(-126, 126)),
    );
    let low = m.hi < 0.703_125;
    let m = if low { df64_scale_words(m, 2.0) } else { m };
    if low {
        e -= 1;
    }
    let i = (m.hi * 64.0 + 0.5).floor();
    let c = i / 64.0;
    let f = df64_div_fast(
        df64_sub_fast(m, Df64::new(c, 0.0)),
        df64_add_fast(m, Df64::new(c, 0.0)),
    );
    let f2 = df64_sqr_fast(f);
    let s2 = f2.hi * (INV_ODD[4] + f2.hi * INV_ODD[6]);
    let s = df64_add_fast(w2(&INV_ODD, 1), Df64::new(s2, 0.0));
    let at = df64_scale_words(
        df64_add_fast(f, df64_mul_fast(f, df64_mul_fast(f2, s))),
        2.0,
    );
    let idx = 3 * ((i as i32).clamp(45, 91) - 45) as usize;
    let ef = e as f32;
    let t = log_table(idx);
    let big = df64_add_fast(df64_two_prod(ef, LN2[0]), Df64::new(t[0], t[1]));
    let t3 = t[2] + ef * LN2[2];
    let small = df64_add_fast(
        df64_add_fast(df64_two_prod(ef, LN2[1]), Df64::new(t3, 0.0)),
        at,
    );
    let v = df64_add_fast(big, small);
    if (0x0080_0000..0x7f80_0000).contains(&bits) {
        v
    } else if ftz(a.hi) == 0.0 || (0..0x0080_0000).contains(&bits) {
        Df64::new(f32::NEG_INFINITY, 0.0)
    } else if bits == 0x7f80_0000 {
        Df64::new(f32::INFINITY, 0.0)
    } else {
        nan()
    }
}

/// The coefficient of z^k in the fast series of sin (odd false: (-1)^k / (2k + 1)!) or cos (odd
/// true: (-1)^k / (2k)!).
fn df64_trig_fast_coef(odd: bool, k: usize) -> Df64 {
    let c = w2(&INV_FACT, if odd { 2 * k } else { 2 * k + 1 });
    if k % 2 == 1 {
        df64_neg(c)
    } else {
        c
    }
}

/// CPU mirror of `df64_sin_or_cos_fast`: sin a or cos a for |a| <= 2^20 (4 ulp48): the five-word
/// reduction, k from one f32 product, one series for the quadrant with five df64 coefficients
/// and four in f32.
fn df64_sin_or_cos_fast(a: Df64, want_cos: bool) -> Df64 {
    let k = (a.hi * INV_PI_2[0] + 0.5).floor();
    let r = df64_reduce_pi_2(a, k);
    let q = (k - 4.0 * (k / 4.0).floor()) as i32 + i32::from(want_cos);
    let odd = q & 1 == 1;
    let z = df64_sqr_core(r);
    let zx = z.hi;
    let c = |k| df64_trig_fast_coef(odd, k).hi;
    let tail = c(6) + zx * (c(7) + zx * (c(8) + zx * c(9)));
    let mut p = df64_add_fast(df64_trig_fast_coef(odd, 5), Df64::new(zx * tail, 0.0));
    for i in (1..=4).rev() {
        p = df64_add_fast(df64_trig_fast_coef(odd, i), df64_mul_fast(z, p));
    }
    let lead = if odd { Df64::ONE } else { r };
    let b = if odd { z } else { df64_mul_fast(r, z) };
    let v = df64_add_fast(lead, df64_mul_core(b, p));
    let v = if q & 2 == 2 { df64_neg(v) } else { v };
    if a.hi.is_finite() {
        v
    } else {
        nan()
    }
}

/// CPU mirror of `df64_sin_fast`: sin a within 4 ulp48 for |a| <= 2^20; sin(±0) = ±0.
pub fn df64_sin_fast(a: Df64) -> Df64 {
    let v = df64_sin_or_cos_fast(a, false);
    if a.hi == 0.0 {
        a
    } else {
        v
    }
}

/// CPU mirror of `df64_cos_fast`: cos a within 4 ulp48 for |a| <= 2^20.
pub fn df64_cos_fast(a: Df64) -> Df64 {
    df64_sin_or_cos_fast(a, true)
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::numeric::mirror_suite as suite;
    use crate::numeric::oracle::{big_df64, error_ulp48, is_df64, to_f64, Oracle};
    use astro_float::BigFloat;

    /// fmod's and remainder's long division with an f32 division 2 ulp off (GLSL allows 2.5;
    /// NVIDIA's `/` is not correctly rounded), always up, always down, or either way by the
    /// operands' bits: still exact, against the oracle's exact remainder, for quotients from 1
    /// to just under 2^24 (where 2 ulp of the quotient is 2 units of the digit) and for the
    /// two cases an H200 got wrong.
    #[test]
    fn fmod_and_remainder_stay_exact_with_a_division_two_ulp_off() {
        use rand::Rng;
        let off = |by: i32| {
            move |x: f32, y: f32| {
                let q = x / y;
                let by = if by == 0 {
                    if (x.to_bits() ^ y.to_bits().rotate_left(7)) & 4 == 0 {
                        2
                    } else {
                        -2
                    }
                } else {
                    by
                };
                if q.is_finite() && q != 0.0 {
                    f32::from_bits((q.to_bits() as i64 + by as i64) as u32)
                } else {
                    q
                }
            }
        };
        let mut rng = ChaCha8Rng::seed_from_u64(24);
        let df64_near = |rng: &mut ChaCha8Rng, x: f64| {
            let hi = x as f32;
            let ulp = f32::from_bits(hi.abs().to_bits() + 1) - hi.abs();
            Df64::new(hi, ulp * rng.gen_range(-0.5f32..0.5))
        };
        let mut cases = vec![
            (
                Df64::new(0.087_361_105, -3.068_413_5e-9),
                Df64::new(5.618_647e-9, 1.656_098e-16),
            ),
            (
                Df64::new(50_785_960.0, -0.950_266_54),
                Df64::new(3.381_106_6, 1.140_465e-7),
            ),
        ];
        for _ in 0..3000 {
            let bx = rng.gen_range(1.0..2.0) * 2f64.powi(rng.gen_range(-40..40));
            let b = df64_near(&mut rng, bx);
            let quotient = if rng.gen_bool(0.7) {
                rng.gen_range(8_388_608.0..16_777_000.0)
            } else {
                2f64.powf(rng.gen_range(0.0..24.0))
            };
            let ax = b.to_f64() * quotient;
            let a = df64_near(&mut rng, ax);
            cases.push((a, b));
        }
        let mut oracle = Oracle::new();
        let mut checked = 0;
        for (a, b) in cases {
            if df64_beyond_mod_limit(a, b) {
                continue;
            }
            let (x, y) = (big_df64(a), big_df64(b));
            let trunc = oracle.fmod(&x, &y);
            // The IEEE remainder from the truncated one: past half of b, or at half with an
            // odd quotient, it is trunc - b.
            let twice = oracle.add(&trunc, &trunc);
            let taken = oracle.sub(&x, &trunc);
            let n = to_f64(&oracle.div(&taken, &y));
            let past_half = oracle.sub(&twice, &y);
            let nearest = match to_f64(&past_half).partial_cmp(&0.0) {
                Some(std::cmp::Ordering::Greater) => oracle.sub(&trunc, &y),
                Some(std::cmp::Ordering::Equal) if n % 2.0 == 1.0 => oracle.sub(&trunc, &y),
                _ => trunc.clone(),
            };
            for by in [2, -2, 0] {
                for (want, is_nearest) in [(&trunc, false), (&nearest, true)] {
                    if !is_df64(want)
                        || (is_nearest && df64_le(a, Df64::new(0.5 * b.hi, 0.5 * b.lo)))
                    {
                        continue;
                    }
                    let got = df64_mod_core_dividing(a, b, is_nearest, off(by));
                    assert_eq!(
                        error_ulp48(got, want),
                        0.0,
                        "{} of {a:?} by {b:?} (quotient {n}) with the division {by:+} ulp: {got:?}, exact {}",
                        if is_nearest { "remainder" } else { "fmod" },
                        to_f64(want)
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 10_000, "only {checked} results checked");
    }

    /// df64_sincos runs both series on one reduction: it must give df64_sin's and df64_cos's
    /// words, at every exponent, at the quadrant edges, and at ±0, infinities and NaN.
    #[test]
    fn sincos_gives_sin_and_cos_words() {
        use rand::Rng;
        let mut rng = ChaCha8Rng::seed_from_u64(41);
        let mut args: Vec<Df64> = [
            0.0f32,
            -0.0,
            1.0,
            -1.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
        ]
        .iter()
        .map(|&x| Df64::new(x, 0.0))
        .collect();
        for k in -8..8 {
            // Near each multiple of pi/4, where the quadrant and the series change.
            let x = k as f64 * std::f64::consts::FRAC_PI_4;
            args.push(Df64::new(x as f32, (x - x as f32 as f64) as f32));
        }
        for _ in 0..20_000 {
            let hi = rng.gen_range(0.5f32..1.0) * 2f32.powi(rng.gen_range(-60..100));
            let hi = if rng.gen() { -hi } else { hi };
            args.push(Df64::new(hi, hi * rng.gen_range(-5.9e-8f32..5.9e-8)));
        }
        let same = |x: Df64, y: Df64| {
            (x.hi.to_bits() == y.hi.to_bits() && x.lo.to_bits() == y.lo.to_bits())
                || (x.hi.is_nan() && y.hi.is_nan())
        };
        for a in args {
            let (s, c) = df64_sincos(a);
            assert!(
                same(s, df64_sin(a)),
                "sin of {a:?}: {s:?} against {:?}",
                df64_sin(a)
            );
            assert!(
                same(c, df64_cos(a)),
                "cos of {a:?}: {c:?} against {:?}",
                df64_cos(a)
            );
        }
    }

    /// log of a subnormal: once an index out of bounds (panic) in the mirror and -87.9 instead
    /// of -92.1 on softpipe; now within 1 ulp48 where subnormals are kept, -inf where flushed.
    #[test]
    fn log_of_a_subnormal() {
        use crate::numeric::fpenv::{flush_to_zero_supported, with_flush_to_zero};
        use crate::numeric::oracle::{big_df64, error_ulp48};
        let mut o = Oracle::new();
        for x in [1e-40f32, 1e-45, f32::from_bits(0x007f_ffff)] {
            let a = Df64::new(x, 0.0);
            let got = df64_log(std::hint::black_box(a));
            let err = error_ulp48(got, &o.ln(&big_df64(a)));
            assert!(err <= 1.0, "log({x:e}) = {got:?}: {err} ulp48");
            if flush_to_zero_supported() {
                let flushed = with_flush_to_zero(true, || df64_log(std::hint::black_box(a)));
                assert_eq!(flushed.hi, f32::NEG_INFINITY, "log({x:e}) flushed");
            }
        }
    }

    /// Every one-argument function of the mirror within 1 ulp48 of the oracle (its documented
    /// bound, stated here) on its primary range with full low words: tan up to near its poles
    /// (1.5), atan past 1, asin and acos over their whole domain.
    #[test]
    fn elementary_functions_within_one_ulp48() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut o = Oracle::new();
        type Exact = fn(&mut Oracle, &BigFloat) -> BigFloat;
        type Case = (&'static str, f64, f64, fn(Df64) -> Df64, Exact);
        let cases: [Case; 15] = [
            ("exp", -1.0, 1.0, df64_exp, |o, x| o.exp(x)),
            ("expm1", -1.0, 1.0, df64_expm1, |o, x| o.expm1(x)),
            ("log", 0.5, 2.0, df64_log, |o, x| o.ln(x)),
            ("log1p", -0.25, 0.25, df64_log1p, |o, x| o.ln1p(x)),
            ("log2", 0.5, 2.0, df64_log2, |o, x| o.log2(x)),
            ("log10", 0.5, 2.0, df64_log10, |o, x| o.log10(x)),
            ("sin", -1.5, 1.5, df64_sin, |o, x| o.sin(x)),
            ("cos", -1.5, 1.5, df64_cos, |o, x| o.cos(x)),
            ("tan", -1.5, 1.5, df64_tan, |o, x| o.tan(x)),
            ("atan", -10.0, 10.0, df64_atan, |o, x| o.atan(x)),
            ("asin", -1.0, 1.0, df64_asin, |o, x| o.asin(x)),
            ("acos", -1.0, 1.0, df64_acos, |o, x| o.acos(x)),
            ("sinh", -5.0, 5.0, df64_sinh, |o, x| o.sinh(x)),
            ("cosh", -5.0, 5.0, df64_cosh, |o, x| o.cosh(x)),
            ("tanh", -5.0, 5.0, df64_tanh, |o, x| o.tanh(x)),
        ];
        for (name, lo, hi, f, exact) in cases {
            let mut worst = 0.0f64;
            for _ in 0..1500 {
                let x: Df64 = suite::random(&mut rng, lo, hi, 0);
                let want = exact(&mut o, &suite::exact(x));
                let err = suite::error(f(x), &want);
                assert!(err <= 1.0, "{name}({x:?}) = {:?}: {err} ulp48", f(x));
                worst = worst.max(err);
            }
            eprintln!("{name}: worst {worst:.3} ulp48");
        }
    }

    /// Payne and Hanek's reduction: n and f against the oracle's x 2/pi (at 640 bits, from
    /// its own pi) for the hardest f32 and df64 arguments and random ones up to 2^128, and
    /// sin, cos and tan there within their bounds (1 ulp48 each wherever the result is
    /// at least 2^-100).
    #[test]
    fn long_reduction_for_every_finite_argument() {
        use crate::numeric::oracle::{big, big_df64, big_words, to_f64};
        use crate::numeric::trig_hard_cases::trig_hard_cases;
        use astro_float::RoundingMode;
        use rand::Rng;
        let mut o = Oracle::new();
        let mut args: Vec<Df64> = trig_hard_cases(&mut o, 24, 0..=104)
            .iter()
            .map(|c| c.x)
            .collect();
        args.extend(trig_hard_cases(&mut o, 48, -24..=80).iter().map(|c| c.x));
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for _ in 0..600 {
            let hi = (2f64.powf(rng.gen_range(23.0..128.0)) as f32).min(f32::MAX);
            let lo = (rng.gen::<f64>() - 0.5) * hi as f64 * 2f64.powi(-24);
            args.push(Df64::new(hi, lo as f32));
        }
        args.extend([
            Df64::new(f32::MAX, 0.0),
            Df64::new(f32::MAX, 1e31),
            Df64::new(8_388_608.5, 0.0),
        ]);
        let rm = RoundingMode::ToEven;
        let two_over_pi = big(2.0).div(&o.consts().pi(640, rm), 640, rm);
        let mut worst = [0.0f64; 3];
        for (i, &x0) in args.iter().enumerate() {
            let x = if i % 2 == 1 { df64_neg(x0) } else { x0 };
            // The reduction: x 2/pi - (-1)^neg (n + f) must be a multiple of 4.
            let (n, f, f_exp) = df64_reduce_long([x.hi, x.lo, 0.0, 0.0], 2);
            let t = big_df64(x).mul(&two_over_pi, 640, rm);
            let fv = big_words(&f).mul(&big(2f64.powi(f_exp)), 640, rm);
            let got = big(n as f64).add(&fv, 640, rm);
            let d = t.sub(&got, 640, rm).div(&big(4.0), 640, rm);
            let dist = to_f64(&d.sub(&d.floor(), 640, rm));
            let off = dist.min(1.0 - dist);
            // Five words hold f to below the last bit of the fifth (2^(f_exp - 96)); the digits
            // end at 2^-240.
            let limit = 2f64.powi(f_exp - 96) + 2f64.powi(-220);
            assert!(
                off < limit,
                "{x:?}: n {n}, f {f:?} 2^{f_exp}: off by {off:e}"
            );
            assert!(to_f64(&fv).abs() <= 0.5, "{x:?}: f {f:?} 2^{f_exp}");
            // The functions.
            let xv = big_df64(x);
            for (k, (name, got, want, bound)) in [
                ("sin", df64_sin(x), o.sin(&xv), 1.0),
                ("cos", df64_cos(x), o.cos(&xv), 1.0),
                ("tan", df64_tan(x), o.tan(&xv), 1.0),
            ]
            .into_iter()
            .enumerate()
            {
                let err = suite::error(got, &want);
                assert!(err <= bound, "{name}({x:?}) = {got:?}: {err} ulp48");
                worst[k] = worst[k].max(err);
            }
        }
        eprintln!(
            "sin {:.3} cos {:.3} tan {:.3} ulp48 over {}",
            worst[0],
            worst[1],
            worst[2],
            args.len()
        );
    }

    /// pow within 2 ulp48 at every |y ln x| up to 88 (the logarithm in three words), exact
    /// where the result is a df64 (integer powers, square roots), and powi within its bound
    /// (|n| - 1 for n >= 2, |n| + 1 for n < 0); references from the oracle.
    #[test]
    fn pow_without_error_growth_and_exact_where_the_result_is_a_df64() {
        use crate::numeric::oracle::{big, big_df64, is_df64, to_f64};
        use astro_float::RoundingMode;
        use rand::Rng;
        let mut o = Oracle::new();
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for (lo, hi) in [(0.0, 1.0), (1.0, 16.0), (16.0, 64.0), (64.0, 88.0)] {
            let mut worst = 0.0f64;
            let mut n = 0;
            while n < 40 {
                let lx: f64 = rng.gen_range(-40.0..40.0) * std::f64::consts::LN_2;
                let t: f64 = rng.gen_range(lo..hi) * if rng.gen::<bool>() { 1.0 } else { -1.0 };
                let x = Df64::from_f64(lx.exp());
                let y = Df64::from_f64(t / lx);
                let want = o.pow(&big_df64(x), &big_df64(y));
                let mag = to_f64(&want).abs();
                if !(mag >= 2f64.powi(-100) && mag < 2f64.powi(126)) {
                    continue;
                }
                let got = df64_pow(x, y);
                let err = suite::error(got, &want);
                assert!(err <= 2.0, "pow({x:?}, {y:?}) = {got:?}: {err} ulp48");
                worst = worst.max(err);
                n += 1;
            }
            eprintln!("pow, |y ln x| in [{lo}, {hi}): worst {worst:.3} ulp48");
        }
        let rm = RoundingMode::ToEven;
        for base in [3.0f32, 1.5, 0.75, 10.0, 2.0, 0.5, 7.0] {
            for k in 1..=40 {
                let x = Df64::new(base, 0.0);
                let want = big_df64(x).powi(k, 1024, rm);
                if to_f64(&want) >= 2f64.powi(126) {
                    continue;
                }
                let got = df64_pow(x, Df64::new(k as f32, 0.0));
                let err = suite::error(got, &want);
                if is_df64(&want) {
                    assert_eq!(err, 0.0, "{base}^{k} is a df64: got {got:?}");
                } else {
                    assert!(err <= 2.0, "{base}^{k} = {got:?}: {err} ulp48");
                }
            }
        }
        assert_eq!(
            df64_pow(Df64::new(2.0, 0.0), Df64::new(-3.0, 0.0)),
            Df64::new(0.125, 0.0)
        );
        let s = df64_pow(Df64::new(2.0, 0.0), Df64::new(0.5, 0.0));
        assert_eq!(s, df64_sqrt(Df64::new(2.0, 0.0)));
        for n in [2i32, 3, 8, -1, -4, 17] {
            for _ in 0..100 {
                let x = Df64::from_f64(rng.gen_range(0.5..2.0));
                let p = big_df64(x).powi(n.unsigned_abs() as usize, 1024, rm);
                let want = if n < 0 { big(1.0).div(&p, 256, rm) } else { p };
                let bound = if n < 0 {
                    n.abs() as f64 + 1.0
                } else {
                    (n as f64 - 1.0).max(0.5)
                };
                let err = suite::error(df64_powi(x, n), &want);
                assert!(
                    err <= bound,
                    "powi({x:?}, {n}): {err} ulp48 (bound {bound})"
                );
            }
        }
        // Any int: no panic, and the parity of huge n kept.
        assert_eq!(df64_powi(Df64::new(-1.0, 0.0), i32::MAX).hi, -1.0);
        assert_eq!(df64_powi(Df64::new(-1.0, 0.0), i32::MIN).hi, 1.0);
        assert_eq!(df64_powi(Df64::new(2.0, 0.0), i32::MAX).hi, f32::INFINITY);
    }
}
