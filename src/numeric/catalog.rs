//! The catalog of element-wise df64 operations: one row per op with everything known of it
//! (its name, the GLSL call, the CPU mirror, the double-double reference and the oracle, the
//! operands it reads, its tier, its documented bound and its IEEE value at zeros, infinities
//! and NaN). The [`Df64Op`] enum, its groups ([`Df64Op::ACCURATE`], ...) and the command-line
//! and JSON names are all derived from the rows, so adding an op is one GLSL function, one
//! mirror and one row here.

use astro_float::BigFloat;

use crate::numeric::df64::{self as m, Df64};
use crate::numeric::df64_func as f;
use crate::numeric::domain::{DF64_DOMAIN_LOG2, FAST_TRIG_ARGUMENT_LOG2, UNSCALED_DOMAIN_LOG2};
use crate::numeric::oracle::Oracle;
use crate::numeric::reference::Dd;

/// The mirror: the same routine in Rust f32 arithmetic on (a, b).
pub type Mirror = fn(Df64, Df64) -> Df64;
/// The exact result in double-double, for ops with an error to measure.
pub type Reference = fn(Dd, Dd) -> Dd;
/// The exact (or correctly rounded at the oracle's precision) result.
pub(crate) type OracleFn = fn(&mut Oracle, &BigFloat, &BigFloat) -> BigFloat;
/// The IEEE result on the f64 values of the operands, where one is zero, infinite or NaN.
pub(crate) type IeeeFn = fn(f64, f64) -> f64;

/// What the GLSL call reads of its operands `a` and `b` (both vec2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Args {
    /// Two df64.
    Two,
    /// One df64 (`a`); `b` is ignored.
    One,
    /// A df64 and the f32 `b.x`.
    WithF32,
    /// A df64 and the integer exponent `int(b.x)`.
    WithExponent,
    /// The f32 words `a.x` and `b.x` (the error-free transforms).
    Words,
}

/// Where the op's first operand is sampled by default: Thall's ranges (Table II) are [-1, 1],
/// [0, 1] for square roots, (0, 1] where zero has no finite result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Range {
    /// Either sign: [-1, 1].
    Signed,
    /// No negative operand: [0, 1].
    NonNegative,
    /// Positive operands only: (0, 1].
    Positive,
}

impl Range {
    /// The interval and how tables print it.
    pub fn unit_interval(self) -> (f64, f64, &'static str) {
        match self {
            Range::Signed => (-1.0, 1.0, "[-1, 1]"),
            Range::NonNegative => (0.0, 1.0, "[0, 1]"),
            Range::Positive => (f64::MIN_POSITIVE, 1.0, "(0, 1)"),
        }
    }
}

/// The family an op belongs to, which decides where the engine lists it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tier {
    /// The accurate defaults (scaled, every exponent of the domain).
    Accurate,
    /// The fast tier: no exponent scaling and no IEEE special values, for less work (its own
    /// bounds over its own domain: see [`Df64Op::domain_log2`]).
    Fast,
    /// No exponent scaling: bounds from 2^-40 only.
    Unscaled,
    /// Thall's routines as published (no bound over the domain).
    Thall,
    /// Exact on every finite operand: sign, comparisons, ldexp.
    Exact,
    /// A function of `df64_func.glsl`.
    Function,
    /// An error-free transform of two f32 words.
    Transform,
    /// A baseline for the papers' tables: plain f32 and Da Graca and Defour's routines.
    Baseline,
}

/// The documented bound of an op wherever its operands and result lie in its domain.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Bound {
    /// Within `max` ulp48 of the exact value, and an RMS error target of `rms` ulp48 on
    /// Thall's operand ranges (for functions, over their documented argument classes).
    Ulp48 {
        /// The largest error, in ulp48.
        max: f64,
        /// The RMS error target, in ulp48.
        rms: f64,
    },
    /// Exact on every finite operand.
    Exact,
    /// The exact sum or product as two words.
    ErrorFree,
    /// No documented bound (published routines kept for the papers, baselines).
    Unbounded,
}

impl Bound {
    /// The largest error in ulp48 (0 for exact and error-free ops); `None` when unbounded.
    pub fn max_ulp48(self) -> Option<f64> {
        match self {
            Bound::Ulp48 { max, .. } => Some(max),
            Bound::Exact | Bound::ErrorFree => Some(0.0),
            Bound::Unbounded => None,
        }
    }
}

/// One op of the catalog.
pub struct OpRow {
    /// The op.
    pub op: Df64Op,
    /// The name in tables, JSON and on the command line.
    pub name: &'static str,
    /// The GLSL expression on the vec2 lanes `a` and `b`.
    pub glsl: &'static str,
    /// The CPU mirror.
    pub mirror: Mirror,
    /// The exact result in double-double, where there is an error to measure.
    pub reference: Option<Reference>,
    /// The exact result at the oracle's precision (`b` as the call reads it, see `args`).
    pub oracle: Option<OracleFn>,
    /// What the call reads of its operands.
    pub args: Args,
    /// Where its first operand is sampled by default.
    pub range: Range,
    /// Its family.
    pub tier: Tier,
    /// Its documented bound.
    pub bound: Bound,
    /// The IEEE value where an operand is zero, infinite or NaN (the arithmetic ops).
    pub ieee: Option<IeeeFn>,
    /// A sum: exempt from the result's domain check (a cancelling sum is exact).
    pub sum: bool,
}

fn flag(b: bool) -> Df64 {
    Df64::new(if b { 1.0 } else { 0.0 }, 0.0)
}

/// Declares [`Df64Op`] (one variant per row, in the rows' order), [`Df64Op::ALL`] and
/// [`DF64_OPS`] from the rows, so the enum and the table cannot disagree.
macro_rules! catalog {
    ($($(#[doc = $doc:literal])* $op:ident { $($field:ident: $value:expr,)* })*) => {
        /// An element-wise df64 operation the engine can run: one row of the catalog.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Df64Op {
            $($(#[doc = $doc])* $op,)*
        }

        const COUNT: usize = [$(Df64Op::$op),*].len();

        impl Df64Op {
            /// Every op, in the catalog's order.
            pub const ALL: [Df64Op; COUNT] = [$(Df64Op::$op),*];
        }

        /// Every element-wise df64 op, in [`Df64Op`]'s order.
        pub const DF64_OPS: [OpRow; COUNT] = [$(OpRow { op: Df64Op::$op, $($field: $value,)* }),*];
    };
}

catalog! {
    /// df64_add: a + b (0.5 ulp48, every operand of the domain).
    Add {
        name: "add",
        glsl: "df64_add(a, b)",
        mirror: m::df64_add,
        reference: Some(|a, b| a + b),
        oracle: Some(|o, a, b| o.add(a, b)),
        args: Args::Two,
        range: Range::Signed,
        tier: Tier::Accurate,
        bound: Bound::Ulp48 { max: 0.5, rms: 0.25 },
        ieee: Some(|x, y| x + y),
        sum: true,
    }
    /// df64_sub: a - b (0.5 ulp48).
    Sub {
        name: "sub",
        glsl: "df64_sub(a, b)",
        mirror: m::df64_sub,
        reference: Some(|a, b| a - b),
        oracle: Some(|o, a, b| o.sub(a, b)),
        args: Args::Two,
        range: Range::Signed,
        tier: Tier::Accurate,
        bound: Bound::Ulp48 { max: 0.5, rms: 0.25 },
        ieee: Some(|x, y| x - y),
        sum: true,
    }
    /// df64_mul: a * b (0.5 ulp48).
    Mul {
        name: "mul",
        glsl: "df64_mul(a, b)",
        mirror: m::df64_mul,
        reference: Some(|a, b| a * b),
        oracle: Some(|o, a, b| o.mul(a, b)),
        args: Args::Two,
        range: Range::Signed,
        tier: Tier::Accurate,
        bound: Bound::Ulp48 { max: 0.5, rms: 0.25 },
        ieee: Some(|x, y| x * y),
        sum: false,
    }
    /// df64_sqr: a * a (0.5 ulp48).
    Sqr {
        name: "sqr",
        glsl: "df64_sqr(a)",
        mirror: |a, _| m::df64_sqr(a),
        reference: Some(|a, _| a * a),
        oracle: Some(|o, a, _| o.mul(a, a)),
        args: Args::One,
        range: Range::Signed,
        tier: Tier::Accurate,
        bound: Bound::Ulp48 { max: 0.5, rms: 0.25 },
        ieee: Some(|x, _| x * x),
        sum: false,
    }
    /// df64_mul_f32: a * b.hi, a df64 times an f32.
    MulF32 {
        name: "mul_f32",
        glsl: "df64_mul_f32(a, b.x)",
        mirror: |a, b| m::df64_mul_f32(a, b.hi),
        reference: Some(|a, b| a.mul_f64(b.hi as f32 as f64)),
        oracle: Some(|o, a, b| o.mul(a, b)),
        args: Args::WithF32,
        range: Range::Signed,
        tier: Tier::Accurate,
        bound: Bound::Ulp48 { max: 0.5, rms: 0.25 },
        ieee: Some(|x, y| x * y),
        sum: false,
    }
    /// df64_div: a / b (1 ulp48).
    Div {
        name: "div",
        glsl: "df64_div(a, b)",
        mirror: m::df64_div,
        reference: Some(|a, b| a / b),
        oracle: Some(|o, a, b| o.div(a, b)),
        args: Args::Two,
        range: Range::Signed,
        tier: Tier::Accurate,
        bound: Bound::Ulp48 { max: 1.0, rms: 0.25 },
        ieee: Some(|x, y| x / y),
        sum: false,
    }
    /// df64_recip: 1 / a (1 ulp48).
    Recip {
        name: "recip",
        glsl: "df64_recip(a)",
        mirror: |a, _| m::df64_recip(a),
        reference: Some(|a, _| a.recip()),
        oracle: Some(|o, a, _| o.recip(a)),
        args: Args::One,
        range: Range::Signed,
        tier: Tier::Accurate,
        bound: Bound::Ulp48 { max: 1.0, rms: 0.25 },
        ieee: Some(|x, _| 1.0 / x),
        sum: false,
    }
    /// df64_sqrt: the square root of a (0.5 ulp48).
    Sqrt {
        name: "sqrt",
        glsl: "df64_sqrt(a)",
        mirror: |a, _| m::df64_sqrt(a),
        reference: Some(|a, _| a.sqrt()),
        oracle: Some(|o, a, _| o.sqrt(a)),
        args: Args::One,
        range: Range::NonNegative,
        tier: Tier::Accurate,
        bound: Bound::Ulp48 { max: 0.5, rms: 0.25 },
        ieee: Some(|x, _| x.sqrt()),
        sum: false,
    }
    /// df64_rsqrt: 1 / sqrt(a) (1 ulp48).
    Rsqrt {
        name: "rsqrt",
        glsl: "df64_rsqrt(a)",
        mirror: |a, _| m::df64_rsqrt(a),
        reference: Some(|a, _| a.sqrt().recip()),
        oracle: Some(|o, a, _| o.rsqrt(a)),
        args: Args::One,
        range: Range::Positive,
        tier: Tier::Accurate,
        bound: Bound::Ulp48 { max: 1.0, rms: 0.25 },
        ieee: Some(|x, _| 1.0 / x.sqrt()),
        sum: false,
    }
    /// df64_add_unscaled: no exponent scaling (the FFT's), bounds for 2^-40 to 2^126 only.
    AddUnscaled {
        name: "add_unscaled",
        glsl: "df64_add_unscaled(a, b)",
        mirror: m::df64_add_unscaled,
        reference: Some(|a, b| a + b),
        oracle: Some(|o, a, b| o.add(a, b)),
        args: Args::Two,
        range: Range::Signed,
        tier: Tier::Unscaled,
        bound: Bound::Ulp48 { max: 0.5, rms: 0.25 },
        ieee: Some(|x, y| x + y),
        sum: true,
    }
    /// df64_mul_unscaled (the FFT's and the Mandelbrot orbit's).
    MulUnscaled {
        name: "mul_unscaled",
        glsl: "df64_mul_unscaled(a, b)",
        mirror: m::df64_mul_unscaled,
        reference: Some(|a, b| a * b),
        oracle: Some(|o, a, b| o.mul(a, b)),
        args: Args::Two,
        range: Range::Signed,
        tier: Tier::Unscaled,
        bound: Bound::Ulp48 { max: 0.5, rms: 0.25 },
        ieee: Some(|x, y| x * y),
        sum: false,
    }
    /// df64_div_unscaled.
    DivUnscaled {
        name: "div_unscaled",
        glsl: "df64_div_unscaled(a, b)",
        mirror: m::df64_div_unscaled,
        reference: Some(|a, b| a / b),
        oracle: Some(|o, a, b| o.div(a, b)),
        args: Args::Two,
        range: Range::Signed,
        tier: Tier::Unscaled,
        bound: Bound::Ulp48 { max: 1.0, rms: 0.25 },
        ieee: Some(|x, y| x / y),
        sum: false,
    }
    /// df64_sqrt_unscaled.
    SqrtUnscaled {
        name: "sqrt_unscaled",
        glsl: "df64_sqrt_unscaled(a)",
        mirror: |a, _| m::df64_sqrt_unscaled(a),
        reference: Some(|a, _| a.sqrt()),
        oracle: Some(|o, a, _| o.sqrt(a)),
        args: Args::One,
        range: Range::NonNegative,
        tier: Tier::Unscaled,
        bound: Bound::Ulp48 { max: 0.5, rms: 0.25 },
        ieee: Some(|x, _| x.sqrt()),
        sum: false,
    }
    /// df64_mul_fast: the fast tier's a * b (2 ulp48 over the fast domain, no scaling).
    MulFast {
        name: "mul_fast",
        glsl: "df64_mul_fast(a, b)",
        mirror: m::df64_mul_fast,
        reference: Some(|a, b| a * b),
        oracle: Some(|o, a, b| o.mul(a, b)),
        args: Args::Two,
        range: Range::Signed,
        tier: Tier::Fast,
        bound: Bound::Ulp48 { max: 2.0, rms: 0.5 },
        ieee: Some(|x, y| x * y),
        sum: false,
    }
    /// df64_sqr_fast: the fast tier's a * a (2 ulp48 over the fast domain).
    SqrFast {
        name: "sqr_fast",
        glsl: "df64_sqr_fast(a)",
        mirror: |a, _| m::df64_sqr_fast(a),
        reference: Some(|a, _| a * a),
        oracle: Some(|o, a, _| o.mul(a, a)),
        args: Args::One,
        range: Range::Signed,
        tier: Tier::Fast,
        bound: Bound::Ulp48 { max: 2.0, rms: 0.5 },
        ieee: Some(|x, _| x * x),
        sum: false,
    }
    /// df64_mul_f32_fast: the fast tier's a * b.hi (2 ulp48 over the fast domain).
    MulF32Fast {
        name: "mul_f32_fast",
        glsl: "df64_mul_f32_fast(a, b.x)",
        mirror: |a, b| m::df64_mul_f32_fast(a, b.hi),
        reference: Some(|a, b| a.mul_f64(b.hi as f32 as f64)),
        oracle: Some(|o, a, b| o.mul(a, b)),
        args: Args::WithF32,
        range: Range::Signed,
        tier: Tier::Fast,
        bound: Bound::Ulp48 { max: 2.0, rms: 0.5 },
        ieee: Some(|x, y| x * y),
        sum: false,
    }
    /// df64_add_fast: the fast tier's a + b (the accurate core alone: 0.5 ulp48 over the fast domain).
    AddFast {
        name: "add_fast",
        glsl: "df64_add_fast(a, b)",
        mirror: m::df64_add_fast,
        reference: Some(|a, b| a + b),
        oracle: Some(|o, a, b| o.add(a, b)),
        args: Args::Two,
        range: Range::Signed,
        tier: Tier::Fast,
        bound: Bound::Ulp48 { max: 0.5, rms: 0.25 },
        ieee: Some(|x, y| x + y),
        sum: true,
    }
    /// df64_sub_fast: the fast tier's a - b (0.5 ulp48 over the fast domain).
    SubFast {
        name: "sub_fast",
        glsl: "df64_sub_fast(a, b)",
        mirror: m::df64_sub_fast,
        reference: Some(|a, b| a - b),
        oracle: Some(|o, a, b| o.sub(a, b)),
        args: Args::Two,
        range: Range::Signed,
        tier: Tier::Fast,
        bound: Bound::Ulp48 { max: 0.5, rms: 0.25 },
        ieee: Some(|x, y| x - y),
        sum: true,
    }
    /// df64_div_fast: the fast tier's a / b (the accurate core alone: 1 ulp48 over the fast domain).
    DivFast {
        name: "div_fast",
        glsl: "df64_div_fast(a, b)",
        mirror: m::df64_div_fast,
        reference: Some(|a, b| a / b),
        oracle: Some(|o, a, b| o.div(a, b)),
        args: Args::Two,
        range: Range::Signed,
        tier: Tier::Fast,
        bound: Bound::Ulp48 { max: 1.0, rms: 0.25 },
        ieee: Some(|x, y| x / y),
        sum: false,
    }
    /// df64_sqrt_fast: the fast tier's square root (0.5 ulp48 over the fast domain).
    SqrtFast {
        name: "sqrt_fast",
        glsl: "df64_sqrt_fast(a)",
        mirror: |a, _| m::df64_sqrt_fast(a),
        reference: Some(|a, _| a.sqrt()),
        oracle: Some(|o, a, _| o.sqrt(a)),
        args: Args::One,
        range: Range::NonNegative,
        tier: Tier::Fast,
        bound: Bound::Ulp48 { max: 0.5, rms: 0.25 },
        ieee: Some(|x, _| x.sqrt()),
        sum: false,
    }
    /// df64_exp_fast: the fast tier's e^a (2 ulp48 for results of 2^-100 to 2^126).
    ExpFast {
        name: "exp_fast",
        glsl: "df64_exp_fast(a)",
        mirror: |a, _| f::df64_exp_fast(a),
        reference: None,
        oracle: Some(|o, a, _| o.exp(a)),
        args: Args::One,
        range: Range::Signed,
        tier: Tier::Fast,
        bound: Bound::Ulp48 { max: 2.0, rms: 0.5 },
        ieee: None,
        sum: false,
    }
    /// df64_log_fast: the fast tier's ln a (2 ulp48 for a of 2^-100 to 2^126).
    LogFast {
        name: "log_fast",
        glsl: "df64_log_fast(a)",
        mirror: |a, _| f::df64_log_fast(a),
        reference: None,
        oracle: Some(|o, a, _| o.ln(a)),
        args: Args::One,
        range: Range::Positive,
        tier: Tier::Fast,
        bound: Bound::Ulp48 { max: 2.0, rms: 0.5 },
        ieee: None,
        sum: false,
    }
    /// df64_sin_fast: the fast tier's sine (4 ulp48 for |a| up to 2^20).
    SinFast {
        name: "sin_fast",
        glsl: "df64_sin_fast(a)",
        mirror: |a, _| f::df64_sin_fast(a),
        reference: None,
        oracle: Some(|o, a, _| o.sin(a)),
        args: Args::One,
        range: Range::Signed,
        tier: Tier::Fast,
        bound: Bound::Ulp48 { max: 4.0, rms: 1.0 },
        ieee: None,
        sum: false,
    }
    /// df64_cos_fast: the fast tier's cosine (4 ulp48 for |a| up to 2^20).
    CosFast {
        name: "cos_fast",
        glsl: "df64_cos_fast(a)",
        mirror: |a, _| f::df64_cos_fast(a),
        reference: None,
        oracle: Some(|o, a, _| o.cos(a)),
        args: Args::One,
        range: Range::Signed,
        tier: Tier::Fast,
        bound: Bound::Ulp48 { max: 4.0, rms: 1.0 },
        ieee: None,
        sum: false,
    }
    /// df64_add_thall: Thall's published add.
    AddThall {
        name: "add_thall",
        glsl: "df64_add_thall(a, b)",
        mirror: m::df64_add_thall,
        reference: Some(|a, b| a + b),
        oracle: None,
        args: Args::Two,
        range: Range::Signed,
        tier: Tier::Thall,
        bound: Bound::Unbounded,
        ieee: None,
        sum: true,
    }
    /// df64_add_sloppy: Thall's add without the second TwoSum (fast, inexact under cancellation).
    AddSloppy {
        name: "add_sloppy",
        glsl: "df64_add_sloppy(a, b)",
        mirror: m::df64_add_sloppy,
        reference: Some(|a, b| a + b),
        oracle: None,
        args: Args::Two,
        range: Range::Signed,
        tier: Tier::Thall,
        bound: Bound::Unbounded,
        ieee: None,
        sum: true,
    }
    /// df64_sub_thall: Thall's published subtract.
    SubThall {
        name: "sub_thall",
        glsl: "df64_sub_thall(a, b)",
        mirror: m::df64_sub_thall,
        reference: Some(|a, b| a - b),
        oracle: None,
        args: Args::Two,
        range: Range::Signed,
        tier: Tier::Thall,
        bound: Bound::Unbounded,
        ieee: None,
        sum: true,
    }
    /// df64_mul_thall: Thall's published multiply.
    MulThall {
        name: "mul_thall",
        glsl: "df64_mul_thall(a, b)",
        mirror: m::df64_mul_thall,
        reference: Some(|a, b| a * b),
        oracle: None,
        args: Args::Two,
        range: Range::Signed,
        tier: Tier::Thall,
        bound: Bound::Unbounded,
        ieee: None,
        sum: false,
    }
    /// df64_sqr_thall: Thall's published square.
    SqrThall {
        name: "sqr_thall",
        glsl: "df64_sqr_thall(a)",
        mirror: |a, _| m::df64_sqr_thall(a),
        reference: Some(|a, _| a * a),
        oracle: None,
        args: Args::One,
        range: Range::Signed,
        tier: Tier::Thall,
        bound: Bound::Unbounded,
        ieee: None,
        sum: false,
    }
    /// df64_div_thall: Thall's division by Karp's method.
    DivThall {
        name: "div_thall",
        glsl: "df64_div_thall(a, b)",
        mirror: m::df64_div_thall,
        reference: Some(|a, b| a / b),
        oracle: None,
        args: Args::Two,
        range: Range::Signed,
        tier: Tier::Thall,
        bound: Bound::Unbounded,
        ieee: None,
        sum: false,
    }
    /// df64_recip_thall: Thall's reciprocal by Karp's method.
    RecipThall {
        name: "recip_thall",
        glsl: "df64_recip_thall(a)",
        mirror: |a, _| m::df64_recip_thall(a),
        reference: Some(|a, _| a.recip()),
        oracle: None,
        args: Args::One,
        range: Range::Signed,
        tier: Tier::Thall,
        bound: Bound::Unbounded,
        ieee: None,
        sum: false,
    }
    /// df64_sqrt_thall: Thall's square root by Karp's method.
    SqrtThall {
        name: "sqrt_thall",
        glsl: "df64_sqrt_thall(a)",
        mirror: |a, _| m::df64_sqrt_thall(a),
        reference: Some(|a, _| a.sqrt()),
        oracle: None,
        args: Args::One,
        range: Range::NonNegative,
        tier: Tier::Thall,
        bound: Bound::Unbounded,
        ieee: None,
        sum: false,
    }
    /// df64_rsqrt_thall: Thall's reciprocal square root.
    RsqrtThall {
        name: "rsqrt_thall",
        glsl: "df64_rsqrt_thall(a)",
        mirror: |a, _| m::df64_rsqrt_thall(a),
        reference: Some(|a, _| a.sqrt().recip()),
        oracle: None,
        args: Args::One,
        range: Range::Positive,
        tier: Tier::Thall,
        bound: Bound::Unbounded,
        ieee: None,
        sum: false,
    }
    /// df64_neg: -a (exact).
    Neg {
        name: "neg",
        glsl: "df64_neg(a)",
        mirror: |a, _| m::df64_neg(a),
        reference: None,
        oracle: None,
        args: Args::One,
        range: Range::Signed,
        tier: Tier::Exact,
        bound: Bound::Exact,
        ieee: None,
        sum: false,
    }
    /// df64_abs: |a| (exact).
    Abs {
        name: "abs",
        glsl: "df64_abs(a)",
        mirror: |a, _| m::df64_abs(a),
        reference: None,
        oracle: None,
        args: Args::One,
        range: Range::Signed,
        tier: Tier::Exact,
        bound: Bound::Exact,
        ieee: None,
        sum: false,
    }
    /// df64_min: the smaller of a and b (exact).
    Min {
        name: "min",
        glsl: "df64_min(a, b)",
        mirror: m::df64_min,
        reference: None,
        oracle: None,
        args: Args::Two,
        range: Range::Signed,
        tier: Tier::Exact,
        bound: Bound::Exact,
        ieee: None,
        sum: false,
    }
    /// df64_max: the larger of a and b (exact).
    Max {
        name: "max",
        glsl: "df64_max(a, b)",
        mirror: m::df64_max,
        reference: None,
        oracle: None,
        args: Args::Two,
        range: Range::Signed,
        tier: Tier::Exact,
        bound: Bound::Exact,
        ieee: None,
        sum: false,
    }
    /// df64_eq: a == b, as (1, 0) or (0, 0).
    Eq {
        name: "eq",
        glsl: "vec2(df64_eq(a, b) ? 1.0 : 0.0, 0.0)",
        mirror: |a, b| flag(m::df64_eq(a, b)),
        reference: None,
        oracle: None,
        args: Args::Two,
        range: Range::Signed,
        tier: Tier::Exact,
        bound: Bound::Exact,
        ieee: None,
        sum: false,
    }
    /// df64_neq: a != b, as (1, 0) or (0, 0).
    Neq {
        name: "neq",
        glsl: "vec2(df64_neq(a, b) ? 1.0 : 0.0, 0.0)",
        mirror: |a, b| flag(m::df64_neq(a, b)),
        reference: None,
        oracle: None,
        args: Args::Two,
        range: Range::Signed,
        tier: Tier::Exact,
        bound: Bound::Exact,
        ieee: None,
        sum: false,
    }
    /// df64_lt: a < b, as (1, 0) or (0, 0).
    Lt {
        name: "lt",
        glsl: "vec2(df64_lt(a, b) ? 1.0 : 0.0, 0.0)",
        mirror: |a, b| flag(m::df64_lt(a, b)),
        reference: None,
        oracle: None,
        args: Args::Two,
        range: Range::Signed,
        tier: Tier::Exact,
        bound: Bound::Exact,
        ieee: None,
        sum: false,
    }
    /// df64_le: a <= b, as (1, 0) or (0, 0).
    Le {
        name: "le",
        glsl: "vec2(df64_le(a, b) ? 1.0 : 0.0, 0.0)",
        mirror: |a, b| flag(m::df64_le(a, b)),
        reference: None,
        oracle: None,
        args: Args::Two,
        range: Range::Signed,
        tier: Tier::Exact,
        bound: Bound::Exact,
        ieee: None,
        sum: false,
    }
    /// df64_gt: a > b, as (1, 0) or (0, 0).
    Gt {
        name: "gt",
        glsl: "vec2(df64_gt(a, b) ? 1.0 : 0.0, 0.0)",
        mirror: |a, b| flag(m::df64_gt(a, b)),
        reference: None,
        oracle: None,
        args: Args::Two,
        range: Range::Signed,
        tier: Tier::Exact,
        bound: Bound::Exact,
        ieee: None,
        sum: false,
    }
    /// df64_ge: a >= b, as (1, 0) or (0, 0).
    Ge {
        name: "ge",
        glsl: "vec2(df64_ge(a, b) ? 1.0 : 0.0, 0.0)",
        mirror: |a, b| flag(m::df64_ge(a, b)),
        reference: None,
        oracle: None,
        args: Args::Two,
        range: Range::Signed,
        tier: Tier::Exact,
        bound: Bound::Exact,
        ieee: None,
        sum: false,
    }
    /// a * 2^n with n = b.hi as an integer.
    Ldexp {
        name: "ldexp",
        glsl: "df64_ldexp(a, int(b.x))",
        mirror: |a, b| m::df64_ldexp(a, b.hi as i32),
        reference: None,
        oracle: None,
        args: Args::WithExponent,
        range: Range::Signed,
        tier: Tier::Exact,
        bound: Bound::Exact,
        ieee: None,
        sum: false,
    }
    /// df64_exp: e^a.
    Exp {
        name: "exp",
        glsl: "df64_exp(a)",
        mirror: |a, _| f::df64_exp(a),
        reference: None,
        oracle: Some(|o, a, _| o.exp(a)),
        args: Args::One,
        range: Range::Signed,
        tier: Tier::Function,
        bound: Bound::Ulp48 { max: 1.0, rms: 0.25 },
        ieee: None,
        sum: false,
    }
    /// df64_expm1: e^a - 1, accurate near 0.
    Expm1 {
        name: "expm1",
        glsl: "df64_expm1(a)",
        mirror: |a, _| f::df64_expm1(a),
        reference: None,
        oracle: Some(|o, a, _| o.expm1(a)),
        args: Args::One,
        range: Range::Signed,
        tier: Tier::Function,
        bound: Bound::Ulp48 { max: 1.0, rms: 0.25 },
        ieee: None,
        sum: false,
    }
    /// df64_log: the natural logarithm of a.
    Log {
        name: "log",
        glsl: "df64_log(a)",
        mirror: |a, _| f::df64_log(a),
        reference: None,
        oracle: Some(|o, a, _| o.ln(a)),
        args: Args::One,
        range: Range::Positive,
        tier: Tier::Function,
        bound: Bound::Ulp48 { max: 1.0, rms: 0.25 },
        ieee: None,
        sum: false,
    }
    /// df64_log1p: ln(1 + a), accurate near 0.
    Log1p {
        name: "log1p",
        glsl: "df64_log1p(a)",
        mirror: |a, _| f::df64_log1p(a),
        reference: None,
        oracle: Some(|o, a, _| o.ln1p(a)),
        args: Args::One,
        range: Range::Signed,
        tier: Tier::Function,
        bound: Bound::Ulp48 { max: 1.0, rms: 0.25 },
        ieee: None,
        sum: false,
    }
    /// df64_log2: the base-2 logarithm of a (exact at powers of two).
    Log2 {
        name: "log2",
        glsl: "df64_log2(a)",
        mirror: |a, _| f::df64_log2(a),
        reference: None,
        oracle: Some(|o, a, _| o.log2(a)),
        args: Args::One,
        range: Range::Positive,
        tier: Tier::Function,
        bound: Bound::Ulp48 { max: 1.0, rms: 0.25 },
        ieee: None,
        sum: false,
    }
    /// df64_log10: the base-10 logarithm of a.
    Log10 {
        name: "log10",
        glsl: "df64_log10(a)",
        mirror: |a, _| f::df64_log10(a),
        reference: None,
        oracle: Some(|o, a, _| o.log10(a)),
        args: Args::One,
        range: Range::Positive,
        tier: Tier::Function,
        bound: Bound::Ulp48 { max: 1.0, rms: 0.25 },
        ieee: None,
        sum: false,
    }
    /// df64_sin: the sine of a (radians).
    Sin {
        name: "sin",
        glsl: "df64_sin(a)",
        mirror: |a, _| f::df64_sin(a),
        reference: None,
        oracle: Some(|o, a, _| o.sin(a)),
        args: Args::One,
        range: Range::Signed,
        tier: Tier::Function,
        bound: Bound::Ulp48 { max: 1.0, rms: 0.25 },
        ieee: None,
        sum: false,
    }
    /// df64_cos: the cosine of a.
    Cos {
        name: "cos",
        glsl: "df64_cos(a)",
        mirror: |a, _| f::df64_cos(a),
        reference: None,
        oracle: Some(|o, a, _| o.cos(a)),
        args: Args::One,
        range: Range::Signed,
        tier: Tier::Function,
        bound: Bound::Ulp48 { max: 1.0, rms: 0.25 },
        ieee: None,
        sum: false,
    }
    /// df64_tan: the tangent of a.
    Tan {
        name: "tan",
        glsl: "df64_tan(a)",
        mirror: |a, _| f::df64_tan(a),
        reference: None,
        oracle: Some(|o, a, _| o.tan(a)),
        args: Args::One,
        range: Range::Signed,
        tier: Tier::Function,
        bound: Bound::Ulp48 { max: 1.0, rms: 0.25 },
        ieee: None,
        sum: false,
    }
    /// df64_atan: the arc tangent of a.
    Atan {
        name: "atan",
        glsl: "df64_atan(a)",
        mirror: |a, _| f::df64_atan(a),
        reference: None,
        oracle: Some(|o, a, _| o.atan(a)),
        args: Args::One,
        range: Range::Signed,
        tier: Tier::Function,
        bound: Bound::Ulp48 { max: 1.0, rms: 0.25 },
        ieee: None,
        sum: false,
    }
    /// atan2(a, b): a is y, b is x.
    Atan2 {
        name: "atan2",
        glsl: "df64_atan2(a, b)",
        mirror: f::df64_atan2,
        reference: None,
        oracle: Some(|o, a, b| o.atan2(a, b)),
        args: Args::Two,
        range: Range::Signed,
        tier: Tier::Function,
        bound: Bound::Ulp48 { max: 1.0, rms: 0.25 },
        ieee: None,
        sum: false,
    }
    /// df64_asin: the arc sine of a.
    Asin {
        name: "asin",
        glsl: "df64_asin(a)",
        mirror: |a, _| f::df64_asin(a),
        reference: None,
        oracle: Some(|o, a, _| o.asin(a)),
        args: Args::One,
        range: Range::Signed,
        tier: Tier::Function,
        bound: Bound::Ulp48 { max: 1.0, rms: 0.25 },
        ieee: None,
        sum: false,
    }
    /// df64_acos: the arc cosine of a.
    Acos {
        name: "acos",
        glsl: "df64_acos(a)",
        mirror: |a, _| f::df64_acos(a),
        reference: None,
        oracle: Some(|o, a, _| o.acos(a)),
        args: Args::One,
        range: Range::Signed,
        tier: Tier::Function,
        bound: Bound::Ulp48 { max: 1.0, rms: 0.25 },
        ieee: None,
        sum: false,
    }
    /// df64_sinh: the hyperbolic sine of a.
    Sinh {
        name: "sinh",
        glsl: "df64_sinh(a)",
        mirror: |a, _| f::df64_sinh(a),
        reference: None,
        oracle: Some(|o, a, _| o.sinh(a)),
        args: Args::One,
        range: Range::Signed,
        tier: Tier::Function,
        bound: Bound::Ulp48 { max: 1.0, rms: 0.25 },
        ieee: None,
        sum: false,
    }
    /// df64_cosh: the hyperbolic cosine of a.
    Cosh {
        name: "cosh",
        glsl: "df64_cosh(a)",
        mirror: |a, _| f::df64_cosh(a),
        reference: None,
        oracle: Some(|o, a, _| o.cosh(a)),
        args: Args::One,
        range: Range::Signed,
        tier: Tier::Function,
        bound: Bound::Ulp48 { max: 1.0, rms: 0.25 },
        ieee: None,
        sum: false,
    }
    /// df64_tanh: the hyperbolic tangent of a.
    Tanh {
        name: "tanh",
        glsl: "df64_tanh(a)",
        mirror: |a, _| f::df64_tanh(a),
        reference: None,
        oracle: Some(|o, a, _| o.tanh(a)),
        args: Args::One,
        range: Range::Signed,
        tier: Tier::Function,
        bound: Bound::Ulp48 { max: 1.0, rms: 0.25 },
        ieee: None,
        sum: false,
    }
    /// a^b.
    Pow {
        name: "pow",
        glsl: "df64_pow(a, b)",
        mirror: f::df64_pow,
        reference: None,
        oracle: Some(|o, a, b| o.pow(a, b)),
        args: Args::Two,
        range: Range::Positive,
        tier: Tier::Function,
        bound: Bound::Ulp48 { max: 2.0, rms: 0.25 },
        ieee: None,
        sum: false,
    }
    /// a^n for an integer n (b.x) by binary powering: within (|n| - 1) ulp48 for n >= 2 and
    /// |n| + 1 for n < 0, exact where every power on the way is a df64. The bound here is
    /// for the |n| <= 8 that the sweeps and the known answers take.
    Powi {
        name: "powi",
        glsl: "df64_powi(a, int(b.x))",
        mirror: |a, b| f::df64_powi(a, b.hi as i32),
        reference: None,
        oracle: Some(|o, a, b| o.powi(a, &b.int())),
        args: Args::WithExponent,
        range: Range::Signed,
        tier: Tier::Function,
        bound: Bound::Ulp48 { max: 9.0, rms: 0.5 },
        ieee: None,
        sum: false,
    }
    /// df64_floor: the largest integer <= a (exact).
    Floor {
        name: "floor",
        glsl: "df64_floor(a)",
        mirror: |a, _| f::df64_floor(a),
        reference: None,
        oracle: None,
        args: Args::One,
        range: Range::Signed,
        tier: Tier::Function,
        bound: Bound::Exact,
        ieee: None,
        sum: false,
    }
    /// df64_ceil: the smallest integer >= a (exact).
    Ceil {
        name: "ceil",
        glsl: "df64_ceil(a)",
        mirror: |a, _| f::df64_ceil(a),
        reference: None,
        oracle: None,
        args: Args::One,
        range: Range::Signed,
        tier: Tier::Function,
        bound: Bound::Exact,
        ieee: None,
        sum: false,
    }
    /// df64_round: a rounded to the nearest integer, halves away from zero (exact).
    Round {
        name: "round",
        glsl: "df64_round(a)",
        mirror: |a, _| f::df64_round(a),
        reference: None,
        oracle: None,
        args: Args::One,
        range: Range::Signed,
        tier: Tier::Function,
        bound: Bound::Exact,
        ieee: None,
        sum: false,
    }
    /// df64_trunc: a rounded toward zero (exact).
    Trunc {
        name: "trunc",
        glsl: "df64_trunc(a)",
        mirror: |a, _| f::df64_trunc(a),
        reference: None,
        oracle: None,
        args: Args::One,
        range: Range::Signed,
        tier: Tier::Function,
        bound: Bound::Exact,
        ieee: None,
        sum: false,
    }
    /// df64_fmod: a - trunc(a / b) b, exact where the result is a df64.
    Fmod {
        name: "fmod",
        glsl: "df64_fmod(a, b)",
        mirror: f::df64_fmod,
        reference: None,
        oracle: Some(|o, a, b| o.fmod(a, b)),
        args: Args::Two,
        range: Range::Signed,
        tier: Tier::Function,
        bound: Bound::Ulp48 { max: 1.0, rms: 0.25 },
        ieee: None,
        sum: false,
    }
    /// df64_remainder: a - round(a / b) b (IEEE remainder, quotient to nearest even).
    Remainder {
        name: "remainder",
        glsl: "df64_remainder(a, b)",
        mirror: f::df64_remainder,
        reference: None,
        oracle: None,
        args: Args::Two,
        range: Range::Signed,
        tier: Tier::Function,
        bound: Bound::Ulp48 { max: 1.0, rms: 0.25 },
        ieee: None,
        sum: false,
    }
    /// The mantissa of frexp, in [0.5, 1).
    Frexp {
        name: "frexp",
        glsl: "df64_frexp_mantissa(a)",
        mirror: |a, _| f::df64_frexp(a).0,
        reference: None,
        oracle: None,
        args: Args::One,
        range: Range::Signed,
        tier: Tier::Function,
        bound: Bound::Exact,
        ieee: None,
        sum: false,
    }
    /// The exponent of frexp, as (e, 0).
    FrexpExp {
        name: "frexp_exp",
        glsl: "df64_frexp_exponent(a)",
        mirror: |a, _| Df64::new(f::df64_frexp(a).1 as f32, 0.0),
        reference: None,
        oracle: None,
        args: Args::One,
        range: Range::Signed,
        tier: Tier::Function,
        bound: Bound::Exact,
        ieee: None,
        sum: false,
    }
    /// The f32 add on the same engine: the unit of the cost column.
    F32Add {
        name: "f32_add",
        glsl: "vec2(a.x + b.x, 0.0)",
        mirror: |a, b| Df64::new(a.hi + b.hi, 0.0),
        reference: None,
        oracle: None,
        args: Args::Two,
        range: Range::Signed,
        tier: Tier::Baseline,
        bound: Bound::Unbounded,
        ieee: None,
        sum: false,
    }
    /// The f32 multiply (Da Graca and Defour's Mul column).
    F32Mul {
        name: "f32_mul",
        glsl: "vec2(a.x * b.x, 0.0)",
        mirror: |a, b| Df64::new(a.hi * b.hi, 0.0),
        reference: None,
        oracle: None,
        args: Args::Two,
        range: Range::Signed,
        tier: Tier::Baseline,
        bound: Bound::Unbounded,
        ieee: None,
        sum: false,
    }
    /// The f32 multiply-add a.hi * b.hi + a.lo (their Mad column).
    F32Mad {
        name: "f32_mad",
        glsl: "vec2(a.x * b.x + a.y, 0.0)",
        // Unprotected, so a compiler may contract it where fma is fused (NVIDIA does): the
        // mirror follows the TwoProduct the driver was proven with.
        mirror: |a, b| {
            let r = if crate::numeric::fpenv::fused_two_prod() {
                a.hi.mul_add(b.hi, a.lo)
            } else {
                a.hi * b.hi + a.lo
            };
            Df64::new(r, 0.0)
        },
        reference: None,
        oracle: None,
        args: Args::Two,
        range: Range::Signed,
        tier: Tier::Baseline,
        bound: Bound::Unbounded,
        ieee: None,
        sum: false,
    }
    /// TwoSum(a.hi, b.hi) (Da Graca and Defour's Add12).
    TwoSum {
        name: "add12",
        glsl: "df64_two_sum(a.x, b.x)",
        mirror: |a, b| m::df64_two_sum(a.hi, b.hi),
        reference: Some(|a, b| Dd::from_f64(a.hi) + Dd::from_f64(b.hi)),
        oracle: None,
        args: Args::Words,
        range: Range::Signed,
        tier: Tier::Transform,
        bound: Bound::ErrorFree,
        ieee: None,
        sum: true,
    }
    /// TwoProduct(a.hi, b.hi) (their Mul12).
    TwoProd {
        name: "mul12",
        glsl: "df64_two_prod(a.x, b.x)",
        mirror: |a, b| m::df64_two_prod(a.hi, b.hi),
        reference: Some(|a, b| Dd::from_f64(a.hi) * Dd::from_f64(b.hi)),
        oracle: None,
        args: Args::Words,
        range: Range::Signed,
        tier: Tier::Transform,
        bound: Bound::ErrorFree,
        ieee: None,
        sum: false,
    }
    /// Da Graca and Defour's Add22.
    AddDagraca {
        name: "add22_dagraca",
        glsl: "df64_add_dagraca(a, b)",
        mirror: m::df64_add_dagraca,
        reference: Some(|a, b| a + b),
        oracle: None,
        args: Args::Two,
        range: Range::Signed,
        tier: Tier::Baseline,
        bound: Bound::Unbounded,
        ieee: None,
        sum: true,
    }
    /// Da Graca and Defour's Mul22.
    MulDagraca {
        name: "mul22_dagraca",
        glsl: "df64_mul_dagraca(a, b)",
        mirror: m::df64_mul_dagraca,
        reference: Some(|a, b| a * b),
        oracle: None,
        args: Args::Two,
        range: Range::Signed,
        tier: Tier::Baseline,
        bound: Bound::Unbounded,
        ieee: None,
        sum: false,
    }
    /// df64_hypot: sqrt(a^2 + b^2) with no overflow or underflow on the way (1 ulp48).
    Hypot {
        name: "hypot",
        glsl: "df64_hypot(a, b)",
        mirror: m::df64_hypot,
        reference: Some(|a, b| (a * a + b * b).sqrt()),
        oracle: Some(|o, a, b| {
            let (a2, b2) = (o.mul(a, a), o.mul(b, b));
            let sum = o.add(&a2, &b2);
            o.sqrt(&sum)
        }),
        args: Args::Two,
        range: Range::Signed,
        tier: Tier::Accurate,
        bound: Bound::Ulp48 { max: 1.0, rms: 0.25 },
        ieee: Some(f64::hypot),
        sum: false,
    }
}

/// The lists the engine shows: each a filter on the rows, in the catalog's order.
#[derive(Clone, Copy)]
enum Group {
    Tier(Tier),
    /// The functions with an error to measure (an oracle and a bound).
    MeasuredFunctions,
}

const fn in_group(row: &OpRow, group: Group) -> bool {
    match group {
        Group::Tier(t) => row.tier as u8 == t as u8,
        Group::MeasuredFunctions => {
            row.tier as u8 == Tier::Function as u8
                && row.oracle.is_some()
                && matches!(row.bound, Bound::Ulp48 { .. })
        }
    }
}

const fn group_len(group: Group) -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < DF64_OPS.len() {
        if in_group(&DF64_OPS[i], group) {
            n += 1;
        }
        i += 1;
    }
    n
}

const fn group<const N: usize>(group: Group) -> [Df64Op; N] {
    let mut out = [Df64Op::Add; N];
    let (mut i, mut n) = (0, 0);
    while i < DF64_OPS.len() {
        if in_group(&DF64_OPS[i], group) {
            out[n] = DF64_OPS[i].op;
            n += 1;
        }
        i += 1;
    }
    out
}

const ACCURATE: Group = Group::Tier(Tier::Accurate);
const FAST: Group = Group::Tier(Tier::Fast);
const THALL: Group = Group::Tier(Tier::Thall);

impl Df64Op {
    /// The accurate defaults: 0.5 or 1 ulp48 at every exponent of the domain.
    pub const ACCURATE: [Df64Op; group_len(ACCURATE)] = group(ACCURATE);

    /// The fast tier: the arithmetic within 0.5 to 2 ulp48 for operands and results from 2^-40,
    /// exp and log within 2, sin and cos within 4 for arguments up to 2^20.
    pub const FAST: [Df64Op; group_len(FAST)] = group(FAST);

    /// The elementary functions of `df64_func.glsl` that have an accuracy target.
    pub const FUNCTIONS: [Df64Op; group_len(Group::MeasuredFunctions)] =
        group(Group::MeasuredFunctions);

    /// Thall's routines as published.
    pub const THALL: [Df64Op; group_len(THALL)] = group(THALL);

    /// This op's row of the catalog.
    pub fn row(self) -> &'static OpRow {
        // The rows follow the enum (the macro declares both), so the index is in range.
        &DF64_OPS[self as usize]
    }

    /// The op of that name (as [`name`](Self::name) gives it), if any.
    pub fn from_name(name: &str) -> Option<Df64Op> {
        DF64_OPS.iter().find(|r| r.name == name).map(|r| r.op)
    }

    /// The name in tables, JSON and on the command line.
    pub fn name(self) -> &'static str {
        self.row().name
    }

    /// The GLSL expression applied to the df64 lanes `a` and `b` (vec2).
    pub fn glsl(self) -> &'static str {
        self.row().glsl
    }

    /// The CPU mirror of the same routine.
    pub fn mirror(self) -> Mirror {
        self.row().mirror
    }

    /// The exact (double-double) result, for operations that have an error to measure.
    pub fn reference(self) -> Option<Reference> {
        self.row().reference
    }

    /// The exact (or correctly rounded at the oracle's precision) value, where the row has
    /// an oracle.
    pub fn oracle(self, o: &mut Oracle, a: &BigFloat, b: &BigFloat) -> Option<BigFloat> {
        self.row().oracle.map(|f| f(o, a, b))
    }

    /// What the call reads of its operands.
    pub fn args(self) -> Args {
        self.row().args
    }

    /// Where its first operand is sampled by default.
    pub fn range(self) -> Range {
        self.row().range
    }

    /// Its family.
    pub fn tier(self) -> Tier {
        self.row().tier
    }

    /// Its documented bound.
    pub fn bound(self) -> Bound {
        self.row().bound
    }

    /// The IEEE result where an operand is zero, infinite or NaN, for the arithmetic ops.
    pub fn ieee(self) -> Option<IeeeFn> {
        self.row().ieee
    }

    /// A sum (exempt from the result's domain check: a cancelling sum is exact).
    pub(crate) fn is_sum(self) -> bool {
        self.row().sum
    }

    /// Exact on every finite operand (sign, comparisons, rounding to integers, exponent
    /// handling): no domain beyond finiteness.
    pub fn exact(self) -> bool {
        self.row().bound == Bound::Exact
    }

    /// Uses only the first operand.
    pub fn unary(self) -> bool {
        self.row().args == Args::One
    }

    /// A function of `df64_func.glsl` (timed with a fixed-argument chain).
    pub fn is_function(self) -> bool {
        self.row().tier == Tier::Function
    }

    /// Timed through a fixed argument, since a chain of its own outputs would leave its domain
    /// (exp, log, asin, ...): the functions, and the fast tier's exp, log, sin and cos.
    pub fn chains_through_fixed_argument(self) -> bool {
        self.is_function()
            || matches!(
                self,
                Df64Op::ExpFast | Df64Op::LogFast | Df64Op::SinFast | Df64Op::CosFast
            )
    }

    /// The operands as the GLSL call reads them: one word each for the error-free transforms,
    /// a single second word for the f32 and exponent arguments, no second operand for unary
    /// ops.
    pub fn operands_as_read(self, a: Df64, b: Df64) -> (Df64, Df64) {
        match self.args() {
            Args::Words => (Df64::new(a.hi, 0.0), Df64::new(b.hi, 0.0)),
            Args::WithF32 | Args::WithExponent => (a, Df64::new(b.hi, 0.0)),
            Args::One => (a, Df64::ZERO),
            Args::Two => (a, b),
        }
    }

    /// log2 of the magnitudes (operands and result) where the op's bound holds: the
    /// `*_unscaled` ops and the fast arithmetic skip the exponent scaling and hold only from
    /// 2^-40; the fast sine and cosine take arguments up to 2^20.
    pub fn domain_log2(self) -> (i32, i32) {
        match self {
            Df64Op::ExpFast | Df64Op::LogFast => DF64_DOMAIN_LOG2,
            Df64Op::SinFast | Df64Op::CosFast => (DF64_DOMAIN_LOG2.0, FAST_TRIG_ARGUMENT_LOG2),
            _ if matches!(self.tier(), Tier::Unscaled | Tier::Fast) => UNSCALED_DOMAIN_LOG2,
            _ => DF64_DOMAIN_LOG2,
        }
    }
}

impl serde::Serialize for Df64Op {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

#[cfg(feature = "clap")]
impl clap::ValueEnum for Df64Op {
    fn value_variants<'a>() -> &'a [Self] {
        &Df64Op::ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.name()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_follow_the_enum_and_names_are_unique() {
        for (i, op) in Df64Op::ALL.iter().enumerate() {
            assert_eq!(DF64_OPS[i].op, *op, "row {i}");
            assert_eq!(*op as usize, i);
            assert_eq!(Df64Op::from_name(op.name()), Some(*op));
        }
        let mut names: Vec<&str> = DF64_OPS.iter().map(|r| r.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), DF64_OPS.len(), "names are unique");
    }

    #[test]
    fn every_checked_op_can_be_judged() {
        for row in &DF64_OPS {
            // An op with an error bound has a reference or an oracle to measure it by.
            if let Bound::Ulp48 { .. } = row.bound {
                assert!(
                    row.reference.is_some() || row.oracle.is_some() || row.op == Df64Op::Remainder,
                    "{} states a bound but has nothing to measure it against",
                    row.name
                );
            }
        }
    }
}
