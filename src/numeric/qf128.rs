//! CPU mirror of `glsl/qf128.glsl`: quad-float (four f32 words, about 96 bits) arithmetic,
//! step for step in f32, after Hida, Li and Bailey's quad-double algorithms (QD) and Thall's
//! Figs. 6 to 8.
//!
//! Length: one Rust function per GLSL routine of `qf128.glsl` (about 560 lines), kept in one
//! file so the two read side by side, plus the qf128 type's conversions and unit tests.

use astro_float::{BigFloat, Radix, RoundingMode};
use bytemuck::{Pod, Zeroable};
use serde::{Deserialize, Serialize};

use super::df64::*;
use super::oracle::{big, big_words, to_f64, Oracle, ORACLE_BITS};
use super::qf128_consts::*;

/// `x[0] + x[1] + x[2] + x[3]`, each word below half an ulp of the one before.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable, Serialize, Deserialize)]
pub struct Qf128 {
    /// The four words, largest first, each at most half an ulp of the one before.
    pub x: [f32; 4],
}

impl Qf128 {
    /// 0.
    pub const ZERO: Qf128 = Qf128 { x: [0.0; 4] };
    /// 1.
    pub const ONE: Qf128 = Qf128 {
        x: [1.0, 0.0, 0.0, 0.0],
    };

    /// The words as given (not renormalised).
    pub const fn new(x0: f32, x1: f32, x2: f32, x3: f32) -> Self {
        Qf128 {
            x: [x0, x1, x2, x3],
        }
    }

    /// An f32, exactly.
    pub fn from_f32(a: f32) -> Self {
        Qf128::new(a, 0.0, 0.0, 0.0)
    }

    /// A df64, exactly.
    pub fn from_df64(a: Df64) -> Self {
        Qf128::new(a.hi, a.lo, 0.0, 0.0)
    }

    /// The nearest df64 (the two leading words, the second rounded with the third).
    pub fn to_df64(self) -> Df64 {
        df64_quick_two_sum(self.x[0], self.x[1] + self.x[2])
    }

    /// The exact value.
    pub fn to_big(self) -> BigFloat {
        big_words(&self.x)
    }

    /// Greedy four-word split of `v`: each word is the nearest f32 to what remains.
    pub fn from_big(v: &BigFloat) -> Self {
        let mut r = v.clone();
        let mut x = [0.0f32; 4];
        for w in x.iter_mut() {
            let f = to_f64(&r) as f32;
            if !f.is_finite() {
                return Qf128::new(f, 0.0, 0.0, 0.0);
            }
            *w = f;
            if f == 0.0 {
                break;
            }
            r = r.sub(&big(f as f64), ORACLE_BITS, RoundingMode::ToEven);
        }
        Qf128 { x }
    }

    /// An f64, exactly (its 53 bits in three words).
    pub fn from_f64(v: f64) -> Self {
        Self::from_big(&big(v))
    }

    /// Parses a decimal string ("3.14159265358979323846264338327950288", "-1e-5"), correctly
    /// rounded at 256 bits before the split into words.
    pub fn from_decimal(text: &str) -> Option<Self> {
        let mut o = Oracle::new();
        let v = BigFloat::parse(
            text.trim(),
            Radix::Dec,
            ORACLE_BITS,
            RoundingMode::ToEven,
            o.consts(),
        );
        if v.is_nan() {
            return None;
        }
        Some(Self::from_big(&v))
    }

    /// Rounded to f64.
    pub fn to_f64(self) -> f64 {
        to_f64(&self.to_big())
    }
}

// ---------------------------------------------------------------- building blocks

fn two_sum(a: f32, b: f32) -> (f32, f32) {
    let r = df64_two_sum(a, b);
    (r.hi, r.lo)
}

fn quick_two_sum(a: f32, b: f32) -> (f32, f32) {
    let r = df64_quick_two_sum(a, b);
    (r.hi, r.lo)
}

fn two_prod(a: f32, b: f32) -> (f32, f32) {
    let r = df64_two_prod(a, b);
    (r.hi, r.lo)
}

fn nonfinite(x: f32) -> bool {
    x.is_nan() || x.is_infinite()
}

/// (a, b, c) -> error-free three-term sum with a the rounded sum.
fn three_sum(a: f32, b: f32, c: f32) -> (f32, f32, f32) {
    let (t1, t2) = two_sum(a, b);
    let (a, t3) = two_sum(c, t1);
    let (b, c) = two_sum(t2, t3);
    (a, b, c)
}

/// Like three_sum, the last two terms added into one.
fn three_sum2(a: f32, b: f32, c: f32) -> (f32, f32) {
    let (t1, t2) = two_sum(a, b);
    let (a, t3) = two_sum(c, t1);
    (a, t2 + t3)
}

/// QD's renormalization of four terms: the five-term one with a zero fifth term (every extra
/// step it takes is then quick_two_sum(x, 0) = (x, 0), so the words are the same).
pub fn qf128_renorm4(c0: f32, c1: f32, c2: f32, c3: f32) -> Qf128 {
    qf128_renorm5(c0, c1, c2, c3, 0.0)
}

/// QD's (and Thall's Fig. 6) renormalization of five terms into four.
pub fn qf128_renorm5(c0: f32, c1: f32, c2: f32, c3: f32, c4: f32) -> Qf128 {
    if c0.is_infinite() {
        return Qf128::new(c0, c1, c2, c3);
    }
    let (s0, c4) = quick_two_sum(c3, c4);
    let (s0, c3) = quick_two_sum(c2, s0);
    let (s0, c2) = quick_two_sum(c1, s0);
    let (c0, c1) = quick_two_sum(c0, s0);
    let (mut s0, mut s1, mut s2, mut s3) = (c0, c1, 0.0, 0.0);
    if s1 != 0.0 {
        (s1, s2) = quick_two_sum(s1, c2);
        if s2 != 0.0 {
            (s2, s3) = quick_two_sum(s2, c3);
            if s3 != 0.0 {
                s3 += c4;
            } else {
                (s2, s3) = quick_two_sum(s2, c4);
            }
        } else {
            (s1, s2) = quick_two_sum(s1, c3);
            if s2 != 0.0 {
                (s2, s3) = quick_two_sum(s2, c4);
            } else {
                (s1, s2) = quick_two_sum(s1, c4);
            }
        }
    } else {
        (s0, s1) = quick_two_sum(s0, c2);
        if s1 != 0.0 {
            (s1, s2) = quick_two_sum(s1, c3);
            if s2 != 0.0 {
                (s2, s3) = quick_two_sum(s2, c4);
            } else {
                (s1, s2) = quick_two_sum(s1, c4);
            }
        } else {
            (s0, s1) = quick_two_sum(s0, c3);
            if s1 != 0.0 {
                (s1, s2) = quick_two_sum(s1, c4);
            } else {
                (s0, s1) = quick_two_sum(s0, c4);
            }
        }
    }
    Qf128::new(s0, s1, s2, s3)
}

// ---------------------------------------------------------------- addition

/// CPU mirror of `qf128_neg` in `glsl/qf128.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn qf128_neg(a: Qf128) -> Qf128 {
    Qf128::new(-a.x[0], -a.x[1], -a.x[2], -a.x[3])
}

/// Thall's Fig. 7 (QD's sloppy_add): fast, no IEEE-style bound when a and b nearly cancel.
pub fn qf128_add_sloppy(a: Qf128, b: Qf128) -> Qf128 {
    let (s0, t0) = two_sum(a.x[0], b.x[0]);
    if nonfinite(s0) {
        return Qf128::from_f32(s0);
    }
    let (s1, t1) = two_sum(a.x[1], b.x[1]);
    let (s2, t2) = two_sum(a.x[2], b.x[2]);
    let (s3, t3) = two_sum(a.x[3], b.x[3]);
    let (s1, t0) = two_sum(s1, t0);
    let (s2, t0, t1) = three_sum(s2, t0, t1);
    let (s3, t0) = three_sum2(s3, t0, t2);
    let t0 = t0 + t1 + t3;
    qf128_renorm5(s0, s1, s2, s3, t0)
}

/// Adds c to the pair (a, b); returns the word that no longer fits, or 0 (QD).
fn quick_three_accum(a: &mut f32, b: &mut f32, c: f32) -> f32 {
    let (s, bb) = two_sum(*b, c);
    let (s, aa) = two_sum(*a, s);
    *a = aa;
    *b = bb;
    let za = *a != 0.0;
    let zb = *b != 0.0;
    if za && zb {
        return s;
    }
    if !zb {
        *b = *a;
        *a = s;
    } else {
        *a = s;
    }
    0.0
}

/// Accurate add (QD's ieee_add): merges the eight words by magnitude into a two-word
/// accumulator, so the result satisfies an IEEE-style relative error bound.
pub fn qf128_add(a: Qf128, b: Qf128) -> Qf128 {
    let s0 = a.x[0] + b.x[0];
    if nonfinite(s0) {
        return Qf128::from_f32(s0);
    }
    let (a, b) = (a.x, b.x);
    let (mut i, mut j, mut k) = (0usize, 0usize, 0usize);
    let mut x = [0.0f32; 4];
    let mut u = if a[i].abs() > b[j].abs() {
        i += 1;
        a[i - 1]
    } else {
        j += 1;
        b[j - 1]
    };
    let mut v = if a[i].abs() > b[j].abs() {
        i += 1;
        a[i - 1]
    } else {
        j += 1;
        b[j - 1]
    };
    (u, v) = quick_two_sum(u, v);
    // QD drops the accumulator's low word when the last input arrives with k = 3, the whole
    // accumulator when the four words fill up first, and rounds the unmerged inputs into the
    // fourth word. Here all of that becomes a fifth term for the renormalization (QD's version
    // erred by 64 ulp96 on cancelling sums, adding them to the fourth word by 4).
    let mut leftover = 0.0f32;
    let mut stored = false;
    while k < 4 {
        if i >= 4 && j >= 4 {
            x[k] = u;
            if k < 3 {
                k += 1;
                x[k] = v;
            } else {
                leftover = v;
            }
            stored = true;
            break;
        }
        let t = if i >= 4 {
            j += 1;
            b[j - 1]
        } else if j >= 4 || a[i].abs() > b[j].abs() {
            i += 1;
            a[i - 1]
        } else {
            j += 1;
            b[j - 1]
        };
        let s = quick_three_accum(&mut u, &mut v, t);
        if s != 0.0 {
            x[k] = s;
            k += 1;
        }
    }
    // The unmerged inputs, as the GLSL adds them: remaining words first, then the zeros its
    // shifted queues hold (adding them can only turn a -0 into +0, which GLSL does too).
    if !stored {
        leftover += u + v;
    }
    for k in 0..4 {
        leftover += a.get(i + k).copied().unwrap_or(0.0);
    }
    for k in 0..4 {
        leftover += b.get(j + k).copied().unwrap_or(0.0);
    }
    qf128_renorm5(x[0], x[1], x[2], x[3], leftover)
}

/// CPU mirror of `qf128_sub` in `glsl/qf128.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn qf128_sub(a: Qf128, b: Qf128) -> Qf128 {
    qf128_add(a, qf128_neg(b))
}

/// CPU mirror of `qf128_sub_sloppy` in `glsl/qf128.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn qf128_sub_sloppy(a: Qf128, b: Qf128) -> Qf128 {
    qf128_add_sloppy(a, qf128_neg(b))
}

// ---------------------------------------------------------------- multiplication

/// The part of QD's sloppy and accurate multiplies that is the same: the O(1), O(eps) and
/// O(eps^2) products error-free and summed. Returns (p0, p1, s0, s1, s2) and the error words
/// (q0, q3, q4, q5) that the two versions treat differently.
struct MulHead {
    p0: f32,
    p1: f32,
    s0: f32,
    s1: f32,
    s2: f32,
    q0: f32,
    q3: f32,
    q4: f32,
    q5: f32,
}

fn qf128_mul_head(a: &[f32; 4], b: &[f32; 4]) -> MulHead {
    let (p0, q0) = two_prod(a[0], b[0]);
    let (p1, q1) = two_prod(a[0], b[1]);
    let (p2, q2) = two_prod(a[1], b[0]);
    let (p3, q3) = two_prod(a[0], b[2]);
    let (p4, q4) = two_prod(a[1], b[1]);
    let (p5, q5) = two_prod(a[2], b[0]);
    let (p1, p2, q0) = three_sum(p1, p2, q0);
    let (p2, q1, q2) = three_sum(p2, q1, q2);
    let (p3, p4, p5) = three_sum(p3, p4, p5);
    let (s0, t0) = two_sum(p2, p3);
    let (s1, t1) = two_sum(q1, p4);
    let s2 = q2 + p5;
    let (s1, t0) = two_sum(s1, t0);
    let s2 = s2 + (t0 + t1);
    MulHead {
        p0,
        p1,
        s0,
        s1,
        s2,
        q0,
        q3,
        q4,
        q5,
    }
}

/// Thall's Fig. 8 (QD's sloppy_mul): the O(eps^3) terms as plain products.
pub fn qf128_mul_sloppy(a: Qf128, b: Qf128) -> Qf128 {
    let (a, b) = (a.x, b.x);
    let p0 = a[0] * b[0];
    if nonfinite(p0) {
        return Qf128::from_f32(p0);
    }
    let h = qf128_mul_head(&a, &b);
    let s1 =
        h.s1 + (a[0] * b[3] + a[1] * b[2] + a[2] * b[1] + a[3] * b[0] + h.q0 + h.q3 + h.q4 + h.q5);
    qf128_renorm5(h.p0, h.p1, h.s0, s1, h.s2)
}

/// Accurate multiply (QD's accurate_mul): the O(eps^3) products error-free too.
pub fn qf128_mul(a: Qf128, b: Qf128) -> Qf128 {
    let (a, b) = (a.x, b.x);
    let p0 = a[0] * b[0];
    if nonfinite(p0) {
        return Qf128::from_f32(p0);
    }
    let h = qf128_mul_head(&a, &b);
    let (p6, q6) = two_prod(a[0], b[3]);
    let (p7, q7) = two_prod(a[1], b[2]);
    let (p8, q8) = two_prod(a[2], b[1]);
    let (p9, q9) = two_prod(a[3], b[0]);
    let (q0, q3) = two_sum(h.q0, h.q3);
    let (q4, q5) = two_sum(h.q4, h.q5);
    let (p6, p7) = two_sum(p6, p7);
    let (p8, p9) = two_sum(p8, p9);
    let (t0, t1) = two_sum(q0, q4);
    let t1 = t1 + (q3 + q5);
    let (r0, r1) = two_sum(p6, p8);
    let r1 = r1 + (p7 + p9);
    let (q3, q4) = two_sum(t0, r0);
    let q4 = q4 + (t1 + r1);
    let (t0, t1) = two_sum(q3, h.s1);
    let t1 = t1 + q4;
    let t1 = t1 + (a[1] * b[3] + a[2] * b[2] + a[3] * b[1] + q6 + q7 + q8 + q9 + h.s2);
    qf128_renorm5(h.p0, h.p1, h.s0, t0, t1)
}

/// a * b for an f32 b.
pub fn qf128_mul_f32(a: Qf128, b: f32) -> Qf128 {
    let a = a.x;
    let (p0, q0) = two_prod(a[0], b);
    if nonfinite(p0) {
        return Qf128::from_f32(p0);
    }
    let (p1, q1) = two_prod(a[1], b);
    let (p2, q2) = two_prod(a[2], b);
    let p3 = a[3] * b;
    let s0 = p0;
    let (s1, s2) = two_sum(q0, p1);
    let (s2, q1, p2) = three_sum(s2, q1, p2);
    let (q1, q2) = three_sum2(q1, q2, p3);
    let s3 = q1;
    let s4 = q2 + p2;
    qf128_renorm5(s0, s1, s2, s3, s4)
}

/// a * b for a df64 b.
pub fn qf128_mul_df64(a: Qf128, b: Df64) -> Qf128 {
    let a = a.x;
    let (p0, q0) = two_prod(a[0], b.hi);
    if nonfinite(p0) {
        return Qf128::from_f32(p0);
    }
    let (p1, q1) = two_prod(a[0], b.lo);
    let (p2, q2) = two_prod(a[1], b.hi);
    let (p3, q3) = two_prod(a[1], b.lo);
    let (p4, q4) = two_prod(a[2], b.hi);
    let (p1, p2, q0) = three_sum(p1, p2, q0);
    let (p2, p3, p4) = three_sum(p2, p3, p4);
    let (q1, q2) = two_sum(q1, q2);
    let (s0, t0) = two_sum(p2, q1);
    let (s1, t1) = two_sum(p3, q2);
    let (s1, t0) = two_sum(s1, t0);
    let s2 = t0 + t1 + p4;
    let p2 = s0;
    let p3 = a[2] * b.lo + a[3] * b.hi + q3 + q4;
    let (p3, q0) = three_sum2(p3, q0, s1);
    let p4 = q0 + s2;
    qf128_renorm5(p0, p1, p2, p3, p4)
}

/// a^2 (QD's sqr).
pub fn qf128_sqr(a: Qf128) -> Qf128 {
    let a = a.x;
    let (p0, q0) = two_prod(a[0], a[0]);
    if nonfinite(p0) {
        return Qf128::from_f32(p0);
    }
    let (p1, q1) = two_prod(2.0 * a[0], a[1]);
    let (p2, q2) = two_prod(2.0 * a[0], a[2]);
    let (p3, q3) = two_prod(a[1], a[1]);
    let (p1, q0) = two_sum(q0, p1);
    let (q0, q1) = two_sum(q0, q1);
    let (p2, p3) = two_sum(p2, p3);
    let (s0, t0) = two_sum(q0, p2);
    let (s1, t1) = two_sum(q1, p3);
    let (s1, t0) = two_sum(s1, t0);
    let t0 = t0 + t1;
    let (s1, t0) = quick_two_sum(s1, t0);
    let (p2, t1) = quick_two_sum(s0, s1);
    let (p3, q0) = quick_two_sum(t1, t0);
    let p4 = 2.0 * a[0] * a[3];
    let p5 = 2.0 * a[1] * a[2];
    let (p4, p5) = two_sum(p4, p5);
    let (q2, q3) = two_sum(q2, q3);
    let (t0, t1) = two_sum(p4, q2);
    let t1 = t1 + p5 + q3;
    let (p3, p4) = two_sum(p3, t0);
    let p4 = p4 + q0 + t1;
    qf128_renorm5(p0, p1, p2, p3, p4)
}

/// a * 2^n, exact unless it overflows or underflows.
pub fn qf128_ldexp(a: Qf128, n: i32) -> Qf128 {
    let h = df64_ldexp(Df64::new(a.x[0], a.x[1]), n);
    let l = df64_ldexp(Df64::new(a.x[2], a.x[3]), n);
    Qf128::new(h.hi, h.lo, l.hi, l.lo)
}

// ---------------------------------------------------------------- division and roots

/// Long division with five quotient words (QD's accurate_div), on operands whose exponents
/// are near 0: the unscaled core of [`qf128_div`].
pub fn qf128_div_unscaled(a: Qf128, b: Qf128) -> Qf128 {
    let q0 = a.x[0] / b.x[0];
    if nonfinite(q0) || nonfinite(b.x[0]) {
        return Qf128::from_f32(q0);
    }
    let mut r = qf128_sub(a, qf128_mul_f32(b, q0));
    let q1 = r.x[0] / b.x[0];
    r = qf128_sub(r, qf128_mul_f32(b, q1));
    let q2 = r.x[0] / b.x[0];
    r = qf128_sub(r, qf128_mul_f32(b, q2));
    let q3 = r.x[0] / b.x[0];
    r = qf128_sub(r, qf128_mul_f32(b, q3));
    let q4 = r.x[0] / b.x[0];
    qf128_renorm5(q0, q1, q2, q3, q4)
}

/// r * 2^n for a result of a scaled core; an overflow is (±inf, 0, 0, 0).
fn qf128_scale(r: Qf128, n: i32) -> Qf128 {
    let s = qf128_ldexp(r, n);
    if nonfinite(s.x[0]) {
        Qf128::from_f32(s.x[0])
    } else {
        s
    }
}

/// CPU mirror of `qf128_div`: division at every exponent, both operands scaled to [1, 4) by
/// exact powers of two, divided by [`qf128_div_unscaled`], the quotient scaled back.
pub fn qf128_div(a: Qf128, b: Qf128) -> Qf128 {
    if df64_special(a.x[0]) || df64_special(b.x[0]) {
        return qf128_div_unscaled(a, b);
    }
    let ka = df64_normalizer(a.x[0]);
    let kb = df64_normalizer(b.x[0]);
    let q = qf128_div_unscaled(qf128_ldexp(a, ka), qf128_ldexp(b, kb));
    qf128_scale(q, kb - ka)
}

/// CPU mirror of `qf128_recip` in `glsl/qf128.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn qf128_recip(a: Qf128) -> Qf128 {
    qf128_div(Qf128::ONE, a)
}

fn qf128_sqrt_special(a: Qf128) -> Qf128 {
    if a.x[0] == 0.0 {
        Qf128::from_f32(a.x[0])
    } else {
        Qf128::from_f32(a.x[0].sqrt())
    }
}

/// Square root of a in [1, 4): the accurate df64 root s, then one Karp step
/// s + (a - s^2) / (2 s) with the residual in qf128.
fn qf128_sqrt_unscaled(a: Qf128) -> Qf128 {
    let s0 = df64_sqrt(a.to_df64());
    let s = Qf128::from_df64(s0);
    let d = qf128_sub(a, qf128_sqr(s));
    let inv = df64_recip(Df64::new(2.0 * s0.hi, 2.0 * s0.lo));
    qf128_add(s, qf128_mul_df64(d, inv))
}

/// Square root at every exponent: a scaled by an even power of two to [1, 4), the root
/// scaled back by half of it.
pub fn qf128_sqrt(a: Qf128) -> Qf128 {
    if a.x[0] <= 0.0 || nonfinite(a.x[0]) {
        return qf128_sqrt_special(a);
    }
    let k = df64_even_normalizer(a.x[0]);
    qf128_scale(qf128_sqrt_unscaled(qf128_ldexp(a, k)), -k / 2)
}

/// 1/sqrt(a) for a in [1, 4): the accurate df64 value y, then one Newton step
/// y + y (1 - a y^2) / 2 in qf128.
fn qf128_rsqrt_unscaled(a: Qf128) -> Qf128 {
    let y0 = df64_rsqrt(a.to_df64());
    let y = Qf128::from_df64(y0);
    let e = qf128_sub(Qf128::ONE, qf128_mul(a, qf128_sqr(y)));
    qf128_add(y, qf128_mul_df64(e, Df64::new(0.5 * y0.hi, 0.5 * y0.lo)))
}

/// 1/sqrt(a) at every exponent, scaled as [`qf128_sqrt`].
pub fn qf128_rsqrt(a: Qf128) -> Qf128 {
    if a.x[0] <= 0.0 || nonfinite(a.x[0]) {
        return qf128_recip(qf128_sqrt_special(a));
    }
    let k = df64_even_normalizer(a.x[0]);
    qf128_scale(qf128_rsqrt_unscaled(qf128_ldexp(a, k)), k / 2)
}

// ---------------------------------------------------------------- comparisons

/// CPU mirror of `qf128_eq` in `glsl/qf128.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn qf128_eq(a: Qf128, b: Qf128) -> bool {
    a.x == b.x
}

/// CPU mirror of `qf128_lt` in `glsl/qf128.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn qf128_lt(a: Qf128, b: Qf128) -> bool {
    let (a, b) = (a.x, b.x);
    a[0] < b[0]
        || (a[0] == b[0]
            && (a[1] < b[1] || (a[1] == b[1] && (a[2] < b[2] || (a[2] == b[2] && a[3] < b[3])))))
}

/// CPU mirror of `qf128_gt` in `glsl/qf128.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn qf128_gt(a: Qf128, b: Qf128) -> bool {
    qf128_lt(b, a)
}

/// CPU mirror of `qf128_le` in `glsl/qf128.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn qf128_le(a: Qf128, b: Qf128) -> bool {
    !qf128_gt(a, b)
}

/// CPU mirror of `qf128_ge` in `glsl/qf128.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn qf128_ge(a: Qf128, b: Qf128) -> bool {
    !qf128_lt(a, b)
}

// ---------------------------------------------------------------- elementary functions

fn qf_word4(t: &[f32], i: usize) -> Qf128 {
    Qf128::new(t[4 * i], t[4 * i + 1], t[4 * i + 2], t[4 * i + 3])
}

/// Horner over 4-word coefficients t[first], t[first+step], ... (count of them), with
/// alternating signs when asked: c0 + x (c1 + x (...)).
fn qf128_horner(
    x: Qf128,
    t: &[f32],
    first: usize,
    count: usize,
    step: usize,
    alternate: bool,
) -> Qf128 {
    let coef = |k: usize| -> Qf128 {
        let c = qf_word4(t, first + k * step);
        if alternate && k % 2 == 1 {
            qf128_neg(c)
        } else {
            c
        }
    };
    let mut h = coef(count - 1);
    for k in (0..count - 1).rev() {
        h = qf128_add(qf128_mul(h, x), coef(k));
    }
    h
}

/// a - k (c0 + c1 + c2 + c3 + c4): exact products of the first four words, accurate adds.
fn qf128_reduce(a: Qf128, k: f32, c: &[f32; 5]) -> Qf128 {
    let mut r = a;
    for w in &c[..4] {
        let (p, e) = two_prod(k, *w);
        r = qf128_add(r, Qf128::new(-p, -e, 0.0, 0.0));
    }
    qf128_add(r, Qf128::from_f32(-(k * c[4])))
}

/// CPU mirror of `qf128_exp` in `glsl/qf128.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn qf128_exp(a: Qf128) -> Qf128 {
    if a.x[0].is_nan() {
        return a;
    }
    if a.x[0] > 88.722_83 {
        return Qf128::from_f32(f32::INFINITY);
    }
    if a.x[0] < -87.336_54 {
        return Qf128::ZERO;
    }
    let k = (a.x[0] * 46.166_24 + 0.5).floor();
    let t = qf128_reduce(a, k, &QF_LN2_32);
    // expm1(t) = t + t^2 (1/2! + t/3! + ... + t^9/11!), |t| <= ln2/64.
    let h = qf128_horner(t, &QF_INV_FACT, 2, 10, 1, false);
    let q = qf128_add(t, qf128_mul(qf128_sqr(t), h));
    let n = (k / 32.0).floor();
    let j = (k - 32.0 * n) as usize;
    let tj = qf_word4(&QF_EXP2_TABLE, j);
    qf128_ldexp(qf128_add(tj, qf128_mul(tj, q)), n as i32)
}

/// CPU mirror of `qf128_log` in `glsl/qf128.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn qf128_log(a: Qf128) -> Qf128 {
    if a.x[0].is_nan() || a.x[0] < 0.0 {
        return Qf128::from_f32(f32::NAN);
    }
    if super::fpenv::ftz(a.x[0]) == 0.0 {
        return Qf128::from_f32(f32::NEG_INFINITY);
    }
    if a.x[0].is_infinite() {
        return a;
    }
    // A subnormal (where the driver keeps them) has no exponent in its bits: lift it by 2^24,
    // exactly, so that it has one.
    let (a, lift) = if super::df64::df64_biased_exponent(a.x[0]) == 0 {
        (
            Qf128 {
                x: a.x.map(|w| w * 16_777_216.0),
            },
            24,
        )
    } else {
        (a, 0)
    };
    let mut e = super::df64_func::f32_exponent(a.x[0]);
    let mut m = qf128_ldexp(a, -e);
    e -= lift;
    if m.x[0] < 0.703_125 {
        m = qf128_ldexp(m, 1);
        e -= 1;
    }
    let i = (m.x[0] * 64.0 + 0.5).floor();
    let c = Qf128::from_f32(i / 64.0);
    let f = qf128_div(qf128_sub(m, c), qf128_add(m, c));
    let f2 = qf128_sqr(f);
    // 2 atanh f = 2 (f + f s), s = f^2 (1/3 + f^2/5 + ... + f^12/15), |f| <= 1/181.
    let s = qf128_mul(f2, qf128_horner(f2, &QF_INV_ODD, 1, 7, 1, false));
    let at = qf128_ldexp(qf128_add(f, qf128_mul(f, s)), 1);
    let ef = e as f32;
    // i is 45 to 90 for a normalised input; the clamp keeps any other value inside the table.
    let mut r = qf_word4(&QF_LOG_TABLE, ((i as i32).clamp(45, 91) - 45) as usize);
    for w in &QF_LN2[..4] {
        let (p, q) = two_prod(ef, *w);
        r = qf128_add(r, Qf128::new(p, q, 0.0, 0.0));
    }
    r = qf128_add(r, Qf128::from_f32(ef * QF_LN2[4]));
    qf128_add(r, at)
}

/// CPU mirror of `qf128_sincos_reduced`: (sin r, cos r) for |r| <= pi/4, the series alone.
pub fn qf128_sincos_reduced(r: Qf128) -> (Qf128, Qf128) {
    let r2 = qf128_sqr(r);
    // sin r = r - r^3 (1/3! - r^2/5! + ... + r^24/27!), cos r = 1 - r^2 (1/2! - ... + r^26/28!).
    let sp = qf128_horner(r2, &QF_INV_FACT, 3, 13, 2, true);
    let s = qf128_sub(r, qf128_mul(qf128_mul(r, r2), sp));
    let cp = qf128_horner(r2, &QF_INV_FACT, 2, 14, 2, true);
    let c = qf128_sub(Qf128::ONE, qf128_mul(r2, cp));
    (s, c)
}

/// CPU mirror of `qf128_trig_reduce`: r = a - n pi/2 with |r| <= pi/4, and n mod 4, for every
/// finite a: a itself up to pi/4, Payne and Hanek's reduction on all four words above (the
/// fraction's five words renormalised, times pi/2 in four words).
pub fn qf128_trig_reduce(a: Qf128) -> (Qf128, i32) {
    // f32(pi/4) = 0.7853982, a little above pi/4: the series holds there too.
    if a.x[0].abs() <= std::f32::consts::FRAC_PI_4 {
        return (a, 0);
    }
    let (n, f, f_exp) = df64_reduce_long(a.x, 4);
    let fr = qf128_renorm5(f[0], f[1], f[2], f[3], f[4]);
    let pi_2 = Qf128::new(QF_PI_2[0], QF_PI_2[1], QF_PI_2[2], QF_PI_2[3]);
    (qf128_ldexp(qf128_mul(fr, pi_2), f_exp), n)
}

/// CPU mirror of `qf128_sincos` in `glsl/qf128.glsl`: (sin a, cos a) for every finite a.
pub fn qf128_sincos(a: Qf128) -> (Qf128, Qf128) {
    let nan = Qf128::from_f32(f32::NAN);
    if !a.x[0].is_finite() {
        return (nan, nan);
    }
    let (r, q) = qf128_trig_reduce(a);
    let (s, c) = qf128_sincos_reduced(r);
    if q == 0 {
        (s, c)
    } else if q == 1 {
        (c, qf128_neg(s))
    } else if q == 2 {
        (qf128_neg(s), qf128_neg(c))
    } else {
        (qf128_neg(c), s)
    }
}

/// CPU mirror of `qf128_sin` in `glsl/qf128.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn qf128_sin(a: Qf128) -> Qf128 {
    if a.x[0] == 0.0 {
        return a; // sin(+-0) = +-0
    }
    qf128_sincos(a).0
}

/// CPU mirror of `qf128_cos` in `glsl/qf128.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn qf128_cos(a: Qf128) -> Qf128 {
    qf128_sincos(a).1
}

/// A complex qf128: the FFT's qf128 element (real and imaginary parts live in two textures).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable, Serialize, Deserialize)]
pub struct ComplexQf128 {
    /// Real part.
    pub re: Qf128,
    /// Imaginary part.
    pub im: Qf128,
}

impl ComplexQf128 {
    /// From its parts.
    pub fn new(re: Qf128, im: Qf128) -> Self {
        ComplexQf128 { re, im }
    }

    /// The exact value of a complex df64.
    pub fn from_df64(c: ComplexDf64) -> Self {
        ComplexQf128::new(Qf128::from_df64(c.re), Qf128::from_df64(c.im))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numeric::mirror_suite as suite;

    #[test]
    fn arithmetic_within_its_bounds_near_one_and_across_exponents() {
        // The fourth word must stay a normal f32 (about 2^-96 of the value): exponents
        // within +-8 keep every result above 2^-30.
        let near_one = suite::arithmetic_within_bounds::<Qf128>(1500, 0);
        let spread = suite::arithmetic_within_bounds::<Qf128>(1500, 8);
        eprintln!("qf128 worst (add, sub, mul, div, sqrt) in ulp96: {near_one:?}, {spread:?}");
    }

    #[test]
    fn identities_are_exact_and_results_normalised() {
        suite::identities_are_exact::<Qf128>(1000);
        suite::results_stay_normalised::<Qf128>(1000);
    }

    #[test]
    fn decimal_and_big_conversions_round_trip_to_96_bits() {
        let pi =
            Qf128::from_decimal("3.14159265358979323846264338327950288419716939937510").unwrap();
        let mut o = Oracle::new();
        assert!(suite::error(pi, &o.pi()) < 0.01, "{pi:?}");
        let third = Qf128::from_big(&o.div(&big(1.0), &big(3.0)));
        let back = qf128_mul(third, Qf128::from_f64(3.0));
        assert!(suite::error(back, &big(1.0)) <= 2.0, "{back:?}");
    }
}
