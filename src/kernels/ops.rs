//! The operations the kernels run, each an enum: element-wise df64 ([`Df64Op`], its rows in
//! `catalog.rs`), complex df64, qf128, native f64, and the union that the cost benchmark times.
//! Each says its GLSL call, its CPU mirror and its reference.

use super::*;

/// An element-wise df64 operation the engine can run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "clap", clap(rename_all = "snake_case"))]
pub enum Df64Op {
    /// df64_add: a + b (0.5 ulp48, every operand of the domain).
    Add,
    /// df64_sub: a - b (0.5 ulp48).
    Sub,
    /// df64_mul: a * b (0.5 ulp48).
    Mul,
    /// df64_sqr: a * a (0.5 ulp48).
    Sqr,
    /// df64_mul_f32: a * b.hi, a df64 times an f32.
    MulF32,
    /// df64_div: a / b (1 ulp48).
    Div,
    /// df64_recip: 1 / a (1 ulp48).
    Recip,
    /// df64_sqrt: the square root of a (0.5 ulp48).
    Sqrt,
    /// df64_rsqrt: 1 / sqrt(a) (1 ulp48).
    Rsqrt,
    /// df64_add_unscaled: no exponent scaling (the FFT's), bounds for 2^-40 to 2^126 only.
    AddUnscaled,
    /// df64_mul_unscaled (the FFT's and the Mandelbrot orbit's).
    MulUnscaled,
    /// df64_div_unscaled.
    DivUnscaled,
    /// df64_sqrt_unscaled.
    SqrtUnscaled,
    /// df64_mul_fast: the fast tier's a * b (2 ulp48, every operand of the domain).
    MulFast,
    /// df64_sqr_fast: the fast tier's a * a (2 ulp48).
    SqrFast,
    /// df64_mul_f32_fast: the fast tier's a * b.hi (2 ulp48).
    MulF32Fast,
    /// df64_add_thall: Thall's published add.
    AddThall,
    /// df64_add_sloppy: Thall's add without the second TwoSum (fast, inexact under cancellation).
    AddSloppy,
    /// df64_sub_thall: Thall's published subtract.
    SubThall,
    /// df64_mul_thall: Thall's published multiply.
    MulThall,
    /// df64_sqr_thall: Thall's published square.
    SqrThall,
    /// df64_div_thall: Thall's division by Karp's method.
    DivThall,
    /// df64_recip_thall: Thall's reciprocal by Karp's method.
    RecipThall,
    /// df64_sqrt_thall: Thall's square root by Karp's method.
    SqrtThall,
    /// df64_rsqrt_thall: Thall's reciprocal square root.
    RsqrtThall,
    /// df64_neg: -a (exact).
    Neg,
    /// df64_abs: |a| (exact).
    Abs,
    /// df64_min: the smaller of a and b (exact).
    Min,
    /// df64_max: the larger of a and b (exact).
    Max,
    /// df64_eq: a == b, as (1, 0) or (0, 0).
    Eq,
    /// df64_neq: a != b, as (1, 0) or (0, 0).
    Neq,
    /// df64_lt: a < b, as (1, 0) or (0, 0).
    Lt,
    /// df64_le: a <= b, as (1, 0) or (0, 0).
    Le,
    /// df64_gt: a > b, as (1, 0) or (0, 0).
    Gt,
    /// df64_ge: a >= b, as (1, 0) or (0, 0).
    Ge,
    /// a * 2^n with n = b.hi as an integer.
    Ldexp,
    /// df64_exp: e^a.
    Exp,
    /// df64_expm1: e^a - 1, accurate near 0.
    Expm1,
    /// df64_log: the natural logarithm of a.
    Log,
    /// df64_log1p: ln(1 + a), accurate near 0.
    Log1p,
    /// df64_log2: the base-2 logarithm of a (exact at powers of two).
    Log2,
    /// df64_log10: the base-10 logarithm of a.
    Log10,
    /// df64_sin: the sine of a (radians).
    Sin,
    /// df64_cos: the cosine of a.
    Cos,
    /// df64_tan: the tangent of a.
    Tan,
    /// df64_atan: the arc tangent of a.
    Atan,
    /// atan2(a, b): a is y, b is x.
    Atan2,
    /// df64_asin: the arc sine of a.
    Asin,
    /// df64_acos: the arc cosine of a.
    Acos,
    /// df64_sinh: the hyperbolic sine of a.
    Sinh,
    /// df64_cosh: the hyperbolic cosine of a.
    Cosh,
    /// df64_tanh: the hyperbolic tangent of a.
    Tanh,
    /// a^b.
    Pow,
    /// df64_floor: the largest integer <= a (exact).
    Floor,
    /// df64_ceil: the smallest integer >= a (exact).
    Ceil,
    /// df64_round: a rounded to the nearest integer, halves away from zero (exact).
    Round,
    /// df64_trunc: a rounded toward zero (exact).
    Trunc,
    /// df64_fmod: a - trunc(a / b) b, exact where the result is a df64.
    Fmod,
    /// df64_remainder: a - round(a / b) b (IEEE remainder, quotient to nearest even).
    Remainder,
    /// The mantissa of frexp, in [0.5, 1).
    Frexp,
    /// The exponent of frexp, as (e, 0).
    FrexpExp,
    /// The f32 add on the same engine: the unit of the cost column.
    F32Add,
    /// The f32 multiply (Da Graca and Defour's Mul column).
    F32Mul,
    /// The f32 multiply-add a.hi * b.hi + a.lo (their Mad column).
    F32Mad,
    /// TwoSum(a.hi, b.hi) (Da Graca and Defour's Add12).
    TwoSum,
    /// TwoProduct(a.hi, b.hi) (their Mul12).
    TwoProd,
    /// Da Graca and Defour's Add22.
    AddDagraca,
    /// Da Graca and Defour's Mul22.
    MulDagraca,
}

use catalog::{Mirror, Reference, EXACT, FUNCTION, SUM, UNARY, UNSCALED};

impl Df64Op {
    /// This op's row of the catalog ([`catalog::DF64_OPS`]).
    pub(super) fn row(self) -> &'static catalog::OpRow {
        let row = &catalog::DF64_OPS[self as usize];
        debug_assert_eq!(row.op, self, "the catalog follows the enum's order");
        row
    }

    /// Every op, in declaration order.
    pub const ALL: [Df64Op; 68] = [
        Df64Op::Add,
        Df64Op::Sub,
        Df64Op::Mul,
        Df64Op::Sqr,
        Df64Op::MulF32,
        Df64Op::Div,
        Df64Op::Recip,
        Df64Op::Sqrt,
        Df64Op::Rsqrt,
        Df64Op::AddUnscaled,
        Df64Op::MulUnscaled,
        Df64Op::DivUnscaled,
        Df64Op::SqrtUnscaled,
        Df64Op::MulFast,
        Df64Op::SqrFast,
        Df64Op::MulF32Fast,
        Df64Op::AddThall,
        Df64Op::AddSloppy,
        Df64Op::SubThall,
        Df64Op::MulThall,
        Df64Op::SqrThall,
        Df64Op::DivThall,
        Df64Op::RecipThall,
        Df64Op::SqrtThall,
        Df64Op::RsqrtThall,
        Df64Op::Neg,
        Df64Op::Abs,
        Df64Op::Min,
        Df64Op::Max,
        Df64Op::Eq,
        Df64Op::Neq,
        Df64Op::Lt,
        Df64Op::Le,
        Df64Op::Gt,
        Df64Op::Ge,
        Df64Op::Ldexp,
        Df64Op::Exp,
        Df64Op::Expm1,
        Df64Op::Log,
        Df64Op::Log1p,
        Df64Op::Log2,
        Df64Op::Log10,
        Df64Op::Sin,
        Df64Op::Cos,
        Df64Op::Tan,
        Df64Op::Atan,
        Df64Op::Atan2,
        Df64Op::Asin,
        Df64Op::Acos,
        Df64Op::Sinh,
        Df64Op::Cosh,
        Df64Op::Tanh,
        Df64Op::Pow,
        Df64Op::Floor,
        Df64Op::Ceil,
        Df64Op::Round,
        Df64Op::Trunc,
        Df64Op::Fmod,
        Df64Op::Remainder,
        Df64Op::Frexp,
        Df64Op::FrexpExp,
        Df64Op::F32Add,
        Df64Op::F32Mul,
        Df64Op::F32Mad,
        Df64Op::TwoSum,
        Df64Op::TwoProd,
        Df64Op::AddDagraca,
        Df64Op::MulDagraca,
    ];

    /// The accurate defaults, the Table II rows with targets.
    pub const ACCURATE: [Df64Op; 9] = [
        Df64Op::Add,
        Df64Op::Sub,
        Df64Op::Mul,
        Df64Op::Sqr,
        Df64Op::MulF32,
        Df64Op::Div,
        Df64Op::Recip,
        Df64Op::Sqrt,
        Df64Op::Rsqrt,
    ];

    /// The fast tier: within 2 ulp48 over the same domain as the accurate defaults, for about
    /// half their work.
    pub const FAST: [Df64Op; 3] = [Df64Op::MulFast, Df64Op::SqrFast, Df64Op::MulF32Fast];

    /// The elementary functions of `df64_func.glsl` that have an accuracy target.
    pub const FUNCTIONS: [Df64Op; 18] = [
        Df64Op::Exp,
        Df64Op::Expm1,
        Df64Op::Log,
        Df64Op::Log1p,
        Df64Op::Log2,
        Df64Op::Log10,
        Df64Op::Sin,
        Df64Op::Cos,
        Df64Op::Tan,
        Df64Op::Atan,
        Df64Op::Atan2,
        Df64Op::Asin,
        Df64Op::Acos,
        Df64Op::Sinh,
        Df64Op::Cosh,
        Df64Op::Tanh,
        Df64Op::Pow,
        Df64Op::Fmod,
    ];

    /// Thall's routines as published.
    pub const THALL: [Df64Op; 9] = [
        Df64Op::AddThall,
        Df64Op::AddSloppy,
        Df64Op::SubThall,
        Df64Op::MulThall,
        Df64Op::SqrThall,
        Df64Op::DivThall,
        Df64Op::RecipThall,
        Df64Op::SqrtThall,
        Df64Op::RsqrtThall,
    ];

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

    /// Exact on every finite operand (sign, comparisons, rounding to integers, exponent
    /// handling): no domain beyond finiteness.
    pub(super) fn exact(self) -> bool {
        self.row().flags & EXACT != 0
    }

    /// The public kernels' guard: finite operands, and operands and results in the domain
    /// (sums are exempt from the result check: a cancelling sum is exact).
    pub fn check_domain(self, a: &[Df64], b: &[Df64]) -> Result<(), KernelError> {
        if a.len() != b.len() {
            return Err(KernelError::LengthMismatch {
                a: a.len(),
                b: b.len(),
            });
        }
        let sum = self.row().flags & SUM != 0;
        let (lo, hi) = self.domain_log2();
        let in_domain = |x: f64| in_log2_range(x, (lo, hi));
        let out = |element, what, value| KernelError::OutOfDomain {
            op: self.name(),
            element,
            what,
            value,
            lo,
            hi,
        };
        for (i, (x, y)) in a.iter().zip(b).enumerate() {
            let operands: &[(&'static str, Df64)] = if self.unary() {
                &[("operand", *x)]
            } else {
                &[("first operand", *x), ("second operand", *y)]
            };
            for (what, v) in operands {
                let ok = if self.exact() {
                    v.is_finite()
                } else {
                    in_domain(v.hi as f64)
                };
                if !ok {
                    return Err(out(i, what, v.to_f64()));
                }
            }
            if let (Some(r), false) = (self.reference(), sum || self.exact()) {
                let exact = r(Dd::from_df64(*x), Dd::from_df64(*y)).to_f64();
                if !in_domain(exact) {
                    return Err(out(i, "result", exact));
                }
            }
        }
        Ok(())
    }

    /// log2 of the magnitudes where the op's bound holds: the `*_unscaled` ops skip the
    /// exponent scaling and hold only from 2^-40.
    pub fn domain_log2(self) -> (i32, i32) {
        if self.row().flags & UNSCALED != 0 {
            UNSCALED_DOMAIN_LOG2
        } else {
            DF64_DOMAIN_LOG2
        }
    }

    /// Uses only the first operand.
    pub fn unary(self) -> bool {
        self.row().flags & UNARY != 0
    }

    /// An elementary function of `df64_func.glsl` (timed with a fixed-argument chain).
    pub fn is_function(self) -> bool {
        self.row().flags & FUNCTION != 0
    }

    /// The exact (or correctly rounded at the oracle's precision) value of an accurate op or an
    /// elementary function.
    pub fn oracle(self, o: &mut Oracle, a: &BigFloat, b: &BigFloat) -> Option<BigFloat> {
        self.row().oracle.map(|f| f(o, a, b))
    }
}

/// A complex df64 operation (one complex number per texel).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ComplexOp {
    /// cdf64_add: a + b.
    Add,
    /// cdf64_sub: a - b.
    Sub,
    /// cdf64_mul: a * b.
    Mul,
}

impl ComplexOp {
    pub(super) fn glsl(self) -> &'static str {
        match self {
            ComplexOp::Add => "cdf64_add(a, b)",
            ComplexOp::Sub => "cdf64_sub(a, b)",
            ComplexOp::Mul => "cdf64_mul(a, b)",
        }
    }

    /// The CPU mirror (`numeric::df64`).
    pub fn mirror(self) -> fn(ComplexDf64, ComplexDf64) -> ComplexDf64 {
        match self {
            ComplexOp::Add => m::cdf64_add,
            ComplexOp::Sub => m::cdf64_sub,
            ComplexOp::Mul => m::cdf64_mul,
        }
    }
}

/// An element-wise qf128 operation (one qf128 per RGBA32F texel).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "clap", clap(rename_all = "snake_case"))]
pub enum Qf128Op {
    /// qf128_add: a + b (2 ulp96).
    Add,
    /// qf128_add_sloppy: Thall's add (no bound).
    AddSloppy,
    /// qf128_sub: a - b (2 ulp96).
    Sub,
    /// qf128_mul: a * b (2 ulp96).
    Mul,
    /// qf128_mul_sloppy: Thall's multiply (no bound).
    MulSloppy,
    /// qf128_mul_f32: a times the f32 `b.x[0]` (2 ulp96).
    MulF32,
    /// qf128_mul_df64: a times the df64 (`b.x[0]`, `b.x[1]`) (2 ulp96).
    MulDf64,
    /// qf128_sqr: a * a (2 ulp96).
    Sqr,
    /// qf128_div: a / b (4 ulp96).
    Div,
    /// qf128_recip: 1 / a (4 ulp96).
    Recip,
    /// qf128_sqrt: the square root of a (4 ulp96).
    Sqrt,
    /// qf128_rsqrt: 1 / sqrt(a) (4 ulp96).
    Rsqrt,
    /// qf128_exp: e^a (8 ulp96).
    Exp,
    /// qf128_log: ln a (8 ulp96).
    Log,
    /// qf128_sin: sin a (8 ulp96).
    Sin,
    /// qf128_cos: cos a (8 ulp96).
    Cos,
}

type QfMirror = fn(Qf128, Qf128) -> Qf128;

impl Qf128Op {
    /// Every qf128 op, in the order the tables list them.
    pub const ALL: [Qf128Op; 16] = [
        Qf128Op::Add,
        Qf128Op::Sub,
        Qf128Op::Mul,
        Qf128Op::Sqr,
        Qf128Op::MulF32,
        Qf128Op::MulDf64,
        Qf128Op::Div,
        Qf128Op::Recip,
        Qf128Op::Sqrt,
        Qf128Op::Rsqrt,
        Qf128Op::Exp,
        Qf128Op::Log,
        Qf128Op::Sin,
        Qf128Op::Cos,
        Qf128Op::AddSloppy,
        Qf128Op::MulSloppy,
    ];

    /// The name in tables, JSON and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Qf128Op::Add => "add",
            Qf128Op::AddSloppy => "add_sloppy",
            Qf128Op::Sub => "sub",
            Qf128Op::Mul => "mul",
            Qf128Op::MulSloppy => "mul_sloppy",
            Qf128Op::MulF32 => "mul_f32",
            Qf128Op::MulDf64 => "mul_df64",
            Qf128Op::Sqr => "sqr",
            Qf128Op::Div => "div",
            Qf128Op::Recip => "recip",
            Qf128Op::Sqrt => "sqrt",
            Qf128Op::Rsqrt => "rsqrt",
            Qf128Op::Exp => "exp",
            Qf128Op::Log => "log",
            Qf128Op::Sin => "sin",
            Qf128Op::Cos => "cos",
        }
    }

    /// The GLSL call on `a` and `b` (vec4), a vec4.
    pub fn glsl(self) -> &'static str {
        match self {
            Qf128Op::Add => "qf128_add(a, b)",
            Qf128Op::AddSloppy => "qf128_add_sloppy(a, b)",
            Qf128Op::Sub => "qf128_sub(a, b)",
            Qf128Op::Mul => "qf128_mul(a, b)",
            Qf128Op::MulSloppy => "qf128_mul_sloppy(a, b)",
            Qf128Op::MulF32 => "qf128_mul_f32(a, b.x)",
            Qf128Op::MulDf64 => "qf128_mul_df64(a, b.xy)",
            Qf128Op::Sqr => "qf128_sqr(a)",
            Qf128Op::Div => "qf128_div(a, b)",
            Qf128Op::Recip => "qf128_recip(a)",
            Qf128Op::Sqrt => "qf128_sqrt(a)",
            Qf128Op::Rsqrt => "qf128_rsqrt(a)",
            Qf128Op::Exp => "qf128_exp(a)",
            Qf128Op::Log => "qf128_log(a)",
            Qf128Op::Sin => "qf128_sin(a)",
            Qf128Op::Cos => "qf128_cos(a)",
        }
    }

    /// The CPU mirror: the same algorithm in f32 arithmetic (`numeric::qf128`).
    pub fn mirror(self) -> QfMirror {
        match self {
            Qf128Op::Add => q::qf128_add,
            Qf128Op::AddSloppy => q::qf128_add_sloppy,
            Qf128Op::Sub => q::qf128_sub,
            Qf128Op::Mul => q::qf128_mul,
            Qf128Op::MulSloppy => q::qf128_mul_sloppy,
            Qf128Op::MulF32 => |a, b| q::qf128_mul_f32(a, b.x[0]),
            Qf128Op::MulDf64 => |a, b| q::qf128_mul_df64(a, Df64::new(b.x[0], b.x[1])),
            Qf128Op::Sqr => |a, _| q::qf128_sqr(a),
            Qf128Op::Div => q::qf128_div,
            Qf128Op::Recip => |a, _| q::qf128_recip(a),
            Qf128Op::Sqrt => |a, _| q::qf128_sqrt(a),
            Qf128Op::Rsqrt => |a, _| q::qf128_rsqrt(a),
            Qf128Op::Exp => |a, _| q::qf128_exp(a),
            Qf128Op::Log => |a, _| q::qf128_log(a),
            Qf128Op::Sin => |a, _| q::qf128_sin(a),
            Qf128Op::Cos => |a, _| q::qf128_cos(a),
        }
    }

    /// The operand the op really uses of b (words beyond it are ignored by the op).
    pub fn second_operand(self, b: Qf128) -> Qf128 {
        match self {
            Qf128Op::MulF32 => Qf128::new(b.x[0], 0.0, 0.0, 0.0),
            Qf128Op::MulDf64 => Qf128::new(b.x[0], b.x[1], 0.0, 0.0),
            _ => b,
        }
    }

    /// The correctly rounded result (256 bits) from the oracle.
    pub fn oracle(self, o: &mut Oracle, a: &BigFloat, b: &BigFloat) -> BigFloat {
        match self {
            Qf128Op::Add | Qf128Op::AddSloppy => o.add(a, b),
            Qf128Op::Sub => o.sub(a, b),
            Qf128Op::Mul | Qf128Op::MulSloppy | Qf128Op::MulF32 | Qf128Op::MulDf64 => o.mul(a, b),
            Qf128Op::Sqr => o.mul(a, a),
            Qf128Op::Div => o.div(a, b),
            Qf128Op::Recip => o.recip(a),
            Qf128Op::Sqrt => o.sqrt(a),
            Qf128Op::Rsqrt => o.rsqrt(a),
            Qf128Op::Exp => o.exp(a),
            Qf128Op::Log => o.ln(a),
            Qf128Op::Sin => o.sin(a),
            Qf128Op::Cos => o.cos(a),
        }
    }
}

/// A native double-precision operation in GLSL (`double`, core since GLSL 4.00, else
/// GL_ARB_gpu_shader_fp64): the baseline Warwick compares extended precision with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum F64Op {
    /// a + b in double.
    Add,
    /// a - b in double.
    Sub,
    /// a * b in double.
    Mul,
    /// a / b in double.
    Div,
    /// sqrt(a) in double.
    Sqrt,
}

impl F64Op {
    /// Every native double op.
    pub const ALL: [F64Op; 5] = [F64Op::Add, F64Op::Sub, F64Op::Mul, F64Op::Div, F64Op::Sqrt];

    /// "f64_add", ...: the name in tables and on the command line.
    /// The name in tables, JSON and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            F64Op::Add => "f64_add",
            F64Op::Sub => "f64_sub",
            F64Op::Mul => "f64_mul",
            F64Op::Div => "f64_div",
            F64Op::Sqrt => "f64_sqrt",
        }
    }

    /// The GLSL expression on the doubles `a` and `b`.
    pub fn glsl(self) -> &'static str {
        match self {
            F64Op::Add => "(a + b)",
            F64Op::Sub => "(a - b)",
            F64Op::Mul => "(a * b)",
            F64Op::Div => "(a / b)",
            F64Op::Sqrt => "sqrt(a)",
        }
    }
}

/// An operation whose cost can be timed: a df64, a qf128 or a native double one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TimedOp {
    /// An element-wise df64 op.
    Df64(Df64Op),
    /// A qf128 op.
    Qf128(Qf128Op),
    /// A native double op.
    F64(F64Op),
}

impl TimedOp {
    /// The op's name in tables ("qf128_" before a qf128 op's).
    pub fn name(self) -> String {
        match self {
            TimedOp::Df64(op) => op.name().to_string(),
            TimedOp::Qf128(op) => format!("qf128_{}", op.name()),
            TimedOp::F64(op) => op.name().to_string(),
        }
    }
}

impl From<F64Op> for TimedOp {
    fn from(op: F64Op) -> Self {
        TimedOp::F64(op)
    }
}

impl From<Df64Op> for TimedOp {
    fn from(op: Df64Op) -> Self {
        TimedOp::Df64(op)
    }
}

impl From<Qf128Op> for TimedOp {
    fn from(op: Qf128Op) -> Self {
        TimedOp::Qf128(op)
    }
}
