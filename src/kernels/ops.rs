//! The operations the kernels run, each an enum: element-wise df64 ([`Df64Op`], its rows in
//! `numeric/catalog.rs`), complex df64, qf128, native f64, and the union that the cost benchmark times.
//! Each says its GLSL call, its CPU mirror and its reference.

use super::*;

pub use crate::numeric::catalog::Df64Op;

impl Df64Op {
    /// The public kernels' guard: finite operands, and operands and results in the domain
    /// (sums are exempt from the result check: a cancelling sum is exact).
    pub fn check_domain(self, a: &[Df64], b: &[Df64]) -> Result<(), KernelError> {
        if a.len() != b.len() {
            return Err(KernelError::LengthMismatch {
                a: a.len(),
                b: b.len(),
            });
        }
        let sum = self.is_sum();
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
