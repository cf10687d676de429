//! The operations the kernels run, each an enum: element-wise df64 ([`Df64Op`], its rows in
//! `catalog.rs`), complex df64, qf128, native f64, and the union that the cost benchmark times.
//! Each says its GLSL call, its CPU mirror and its reference.

use super::*;

/// An element-wise df64 operation the engine can run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "cli", clap(rename_all = "snake_case"))]
pub enum Df64Op {
    Add,
    Sub,
    Mul,
    Sqr,
    MulF32,
    Div,
    Recip,
    Sqrt,
    Rsqrt,
    /// df64_add_unscaled: no exponent scaling (the FFT's), bounds for 2^-40 to 2^126 only.
    AddUnscaled,
    /// df64_mul_unscaled (the FFT's and the Mandelbrot orbit's).
    MulUnscaled,
    /// df64_div_unscaled.
    DivUnscaled,
    /// df64_sqrt_unscaled.
    SqrtUnscaled,
    AddThall,
    AddSloppy,
    SubThall,
    MulThall,
    SqrThall,
    DivThall,
    RecipThall,
    SqrtThall,
    RsqrtThall,
    Neg,
    Abs,
    Min,
    Max,
    Eq,
    Neq,
    Lt,
    Le,
    Gt,
    Ge,
    /// a * 2^n with n = b.hi as an integer.
    Ldexp,
    Exp,
    Expm1,
    Log,
    Log1p,
    Sin,
    Cos,
    Tan,
    Atan,
    /// atan2(a, b): a is y, b is x.
    Atan2,
    Asin,
    Acos,
    Sinh,
    Cosh,
    Tanh,
    /// a^b.
    Pow,
    Floor,
    Ceil,
    Round,
    Trunc,
    Fmod,
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
    pub const ALL: [Df64Op; 63] = [
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

    /// The elementary functions of `df64_func.glsl` that have an accuracy target.
    pub const FUNCTIONS: [Df64Op; 16] = [
        Df64Op::Exp,
        Df64Op::Expm1,
        Df64Op::Log,
        Df64Op::Log1p,
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
    Add,
    Sub,
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
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "cli", clap(rename_all = "snake_case"))]
pub enum Qf128Op {
    Add,
    AddSloppy,
    Sub,
    Mul,
    MulSloppy,
    MulF32,
    MulDf64,
    Sqr,
    Div,
    Recip,
    Sqrt,
    Rsqrt,
    Exp,
    Log,
    Sin,
    Cos,
}

type QfMirror = fn(Qf128, Qf128) -> Qf128;

impl Qf128Op {
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

    pub(super) fn glsl(self) -> &'static str {
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
    Add,
    Sub,
    Mul,
    Div,
    Sqrt,
}

impl F64Op {
    pub const ALL: [F64Op; 5] = [F64Op::Add, F64Op::Sub, F64Op::Mul, F64Op::Div, F64Op::Sqrt];

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
    Df64(Df64Op),
    Qf128(Qf128Op),
    F64(F64Op),
}

impl TimedOp {
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
