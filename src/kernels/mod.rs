//! Numeric kernels on the GPU: element-wise df64 operations as fragment programs built from
//! `glsl/df64.glsl` with the probe's configuration. Refuses to exist on a driver the probe
//! could not prove exact.

use std::cell::RefCell;
use std::collections::HashMap;

use serde::Serialize;
use thiserror::Error;

use crate::gl::{
    timed, Framebuffer, GlContext, GlError, GlslLibrary, Layout, Pass, Program, Texture, Timing,
    Uniform,
};
use astro_float::BigFloat;

use crate::numeric::df64::{self as m, ComplexDf64, Df64};
use crate::numeric::oracle::Oracle;
use crate::numeric::qf128::{self as q, Qf128};
use crate::numeric::reference::Dd;
use crate::probe::{DriverConfig, ProbeReport};

mod catalog;
pub mod proof;
use proof::{build_proven, complex_words, df64_words, qf128_words, Outcome, Proof};

#[derive(Debug, Error)]
pub enum KernelError {
    #[error(transparent)]
    Gl(#[from] GlError),
    #[error("{0}")]
    Refused(String),
    #[error("operands differ in length: {a} and {b} elements")]
    LengthMismatch { a: usize, b: usize },
    #[error("df64 {op}: element {element}: {what} {value:e} is outside the domain where its \
             error bound is proven (zero, or magnitudes from 2^{lo} to 2^{hi}, about {lo_dec:.1e} \
             to {hi_dec:.1e}): scale the data by a power of two first (exact), or call \
             apply_unchecked to compute it anyway", lo_dec = 2f64.powi(*lo), hi_dec = 2f64.powi(*hi))]
    OutOfDomain {
        op: &'static str,
        element: usize,
        what: &'static str,
        value: f64,
        lo: i32,
        hi: i32,
    },
}

use crate::numeric::domain::in_log2_range;
pub use crate::numeric::domain::{DF64_DOMAIN_LOG2, UNSCALED_DOMAIN_LOG2};

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
    fn row(self) -> &'static catalog::OpRow {
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
    fn exact(self) -> bool {
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
    fn glsl(self) -> &'static str {
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

    fn glsl(self) -> &'static str {
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

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum ProgramKey {
    Lanes(Df64Op),
    Chain(TimedOp),
    Complex(ComplexOp),
    Qf(Qf128Op),
}

impl ProgramKey {
    /// How errors and `df64gl selftest` name the program.
    fn program_name(self) -> String {
        match self {
            ProgramKey::Lanes(op) => format!("elementwise.glsl ({})", op.glsl()),
            ProgramKey::Complex(op) => format!("elementwise.glsl ({})", op.glsl()),
            ProgramKey::Qf(op) => format!("elementwise.glsl ({})", op.glsl()),
            ProgramKey::Chain(op) => format!("elementwise.glsl (timing chain of {})", op.name()),
        }
    }
}

fn df64_text(x: Df64) -> String {
    format!("{:e} ({:e} + {:e})", x.to_f64(), x.hi, x.lo)
}

/// Compiles element-wise df64 programs on demand (once each) and runs them.
pub struct Df64Kernels {
    ctx: GlContext,
    config: DriverConfig,
    proof: Proof,
    library: GlslLibrary,
    programs: RefCell<HashMap<ProgramKey, std::rc::Rc<Program>>>,
}

impl Df64Kernels {
    /// Kernels configured by `report`; an error when the probe found no exact configuration.
    ///
    /// ```
    /// use df64gl::gl::{DeviceChoice, GlContext};
    /// use df64gl::kernels::{Df64Kernels, Df64Op};
    /// use df64gl::numeric::df64::Df64;
    /// use df64gl::probe::probe_driver;
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let ctx = GlContext::headless(&DeviceChoice::Auto)?;
    /// let kernels = Df64Kernels::new(&ctx, &probe_driver(&ctx, false)?)?;
    /// // sqrt(2) squared in df64: 2 within 2^-45.
    /// let two = vec![Df64::from_f64(2.0)];
    /// let root = kernels.apply(Df64Op::Sqrt, &two, &two)?;
    /// let square = kernels.apply(Df64Op::Mul, &root, &root)?;
    /// assert!((square[0].to_f64() - 2.0).abs() < 2f64.powi(-45));
    /// # Ok(())
    /// # }
    /// ```
    pub fn new(ctx: &GlContext, report: &ProbeReport) -> Result<Self, KernelError> {
        report.require_config().map_err(KernelError::Refused)?;
        Ok(Self::f32_only(ctx, report))
    }

    /// Kernels for f32 work on any driver: on one where the probe refused df64, every df64
    /// and qf128 program is refused when built (naming the probe's reason), and plain f32
    /// programs (the f32 FFT) are built without a self-test (nothing there to prove).
    pub fn f32_only(ctx: &GlContext, report: &ProbeReport) -> Self {
        Df64Kernels {
            ctx: ctx.clone(),
            config: report.config.unwrap_or(DriverConfig {
                protection: crate::probe::Protection::None,
                two_prod: crate::probe::TwoProdKind::Dekker,
            }),
            proof: Proof::from_report(report),
            library: GlslLibrary::builtin(),
            programs: RefCell::new(HashMap::new()),
        }
    }

    /// Why df64 is refused on this driver, if it is.
    pub fn df64_refusal(&self) -> Option<&str> {
        self.proof.refusal.as_deref()
    }

    pub fn config(&self) -> DriverConfig {
        self.config
    }

    /// The probe showed round-to-nearest f32, so results must equal the CPU mirror bit for bit.
    pub fn round_to_nearest(&self) -> bool {
        self.proof.round_to_nearest
    }

    /// What the programs' self-tests compare against (see [`proof`]).
    pub fn proof(&self) -> &Proof {
        &self.proof
    }

    /// `f(i)` for i in 0..n on the CPU, in the floating-point environment of this driver
    /// (subnormals flushed when the probe saw it flush them), for comparing GPU results with
    /// the CPU mirror bit for bit.
    pub fn mirror_map<R: Clone + Default>(&self, n: usize, f: impl Fn(usize) -> R) -> Vec<R> {
        self.proof.mirror_map(n, f)
    }

    pub fn context(&self) -> &GlContext {
        &self.ctx
    }

    /// Builds a program of the GLSL library with this driver's df64 configuration plus
    /// `defines` (experiments beyond the element-wise kernels: Leibniz, Mandelbrot).
    pub fn build_program(
        &self,
        entry: &str,
        defines: &[(&str, &str)],
    ) -> Result<Program, KernelError> {
        self.build_program_with(self.config, entry, defines)
    }

    fn build_program_with(
        &self,
        config: DriverConfig,
        entry: &str,
        defines: &[(&str, &str)],
    ) -> Result<Program, KernelError> {
        let mut all = config.defines();
        all.extend(defines.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        Ok(Program::build(&self.ctx, &self.library, entry, &all)?)
    }

    /// [`build_program`](Self::build_program) under the first proven configuration whose
    /// known-answer `test` passes (skipped when this source passed before on this driver);
    /// refused, naming `name`, the input and the values, when none does.
    pub fn build_program_proven(
        &self,
        entry: &str,
        defines: &[(&str, &str)],
        name: &str,
        test: impl FnMut(&Program) -> Result<Outcome, KernelError>,
    ) -> Result<Program, KernelError> {
        let build = |config: DriverConfig| self.build_program_with(config, entry, defines);
        let sources = |p: &Program| vec![p.source().text.clone()];
        let (program, _) = build_proven(self.ctx.info(), &self.proof, name, build, sources, test)?;
        Ok(program)
    }

    /// Whether shaders here can use `double`: `Ok(false)` natively (GLSL 4.00+), `Ok(true)`
    /// through GL_ARB_gpu_shader_fp64 (the shader must enable it), an error when neither.
    pub fn double_support(&self) -> Result<bool, KernelError> {
        let info = self.ctx.info();
        if info.glsl_number >= 400 {
            Ok(false)
        } else if info.gpu_shader_fp64 {
            Ok(true)
        } else {
            Err(KernelError::Gl(GlError::Unsupported(format!(
                "native double needs GLSL 4.00 or GL_ARB_gpu_shader_fp64, which {} does not offer",
                info.renderer
            ))))
        }
    }

    fn program(&self, key: ProgramKey) -> Result<std::rc::Rc<Program>, KernelError> {
        if let Some(p) = self.programs.borrow().get(&key) {
            return Ok(p.clone());
        }
        let p = match key {
            // The timing chains' results are never returned, and the native-double ones hold
            // no df64: built as they are.
            ProgramKey::Chain(_) => std::rc::Rc::new(self.build_elementwise(key, self.config)?),
            ProgramKey::Lanes(_) | ProgramKey::Complex(_) | ProgramKey::Qf(_) => {
                let build = |config: DriverConfig| self.build_elementwise(key, config);
                let sources = |p: &Program| vec![p.source().text.clone()];
                let test = |p: &Program| self.self_test(key, p);
                let name = key.program_name();
                let (p, _) =
                    build_proven(self.ctx.info(), &self.proof, &name, build, sources, test)?;
                std::rc::Rc::new(p)
            }
        };
        self.programs.borrow_mut().insert(key, p.clone());
        Ok(p)
    }

    /// The known-answer test of an element-wise program: [`proof::df64_cases`] (or their
    /// qf128 and complex forms) against the mirror.
    fn self_test(&self, key: ProgramKey, program: &Program) -> Result<Outcome, KernelError> {
        let name = key.program_name();
        Ok(match key {
            ProgramKey::Lanes(op) => {
                let (a, mut b): (Vec<Df64>, Vec<Df64>) = proof::df64_cases().into_iter().unzip();
                if op == Df64Op::Ldexp {
                    // b is the exponent: every integer from -40 to 40 over the cases.
                    for (i, x) in b.iter_mut().enumerate() {
                        *x = Df64::new((i % 81) as f32 - 40.0, 0.0);
                    }
                }
                let got = self.run_program_texels(program, &a, &b, 2)?.0;
                let mirror = op.mirror();
                let want = self.mirror_map(a.len(), |i| mirror(a[i], b[i]));
                self.proof.compare(&name, &got, &want, df64_words, |i| {
                    format!("a = {}, b = {}", df64_text(a[i]), df64_text(b[i]))
                })
            }
            ProgramKey::Complex(op) => {
                let (a, b): (Vec<ComplexDf64>, Vec<ComplexDf64>) =
                    proof::complex_cases().into_iter().unzip();
                let got = self.run_program_texels(program, &a, &b, 1)?.0;
                let mirror = op.mirror();
                let want = self.mirror_map(a.len(), |i| mirror(a[i], b[i]));
                self.proof.compare(&name, &got, &want, complex_words, |i| {
                    format!("a = {:?}, b = {:?}", a[i], b[i])
                })
            }
            ProgramKey::Qf(op) => {
                let (a, b): (Vec<Qf128>, Vec<Qf128>) = proof::qf128_cases()
                    .into_iter()
                    .map(|(a, b)| (a, op.second_operand(b)))
                    .unzip();
                let got = self.run_program_texels(program, &a, &b, 1)?.0;
                let mirror = op.mirror();
                let want = self.mirror_map(a.len(), |i| mirror(a[i], b[i]));
                self.proof.compare(&name, &got, &want, qf128_words, |i| {
                    format!("a = {:?}, b = {:?}", a[i].x, b[i].x)
                })
            }
            ProgramKey::Chain(_) => Outcome {
                cases: 0,
                failure: None,
            },
        })
    }

    fn build_elementwise(
        &self,
        key: ProgramKey,
        config: DriverConfig,
    ) -> Result<Program, KernelError> {
        let mut defines = config.defines();
        let (op_expr, extra) = match key {
            ProgramKey::Lanes(op) => (op.glsl(), None),
            ProgramKey::Chain(TimedOp::Df64(op)) => {
                if op.is_function() {
                    defines.push(("ELEMENTWISE_CHAIN_FIXED".into(), "1".into()));
                }
                (op.glsl(), Some("ELEMENTWISE_CHAIN"))
            }
            ProgramKey::Chain(TimedOp::Qf128(op)) => {
                defines.push(("ELEMENTWISE_VEC4".into(), "1".into()));
                (op.glsl(), Some("ELEMENTWISE_CHAIN"))
            }
            ProgramKey::Chain(TimedOp::F64(op)) => {
                if self.double_support()? {
                    defines.push((crate::gl::FP64_EXTENSION_DEFINE.into(), "1".into()));
                }
                (op.glsl(), Some("ELEMENTWISE_F64"))
            }
            ProgramKey::Complex(op) => (op.glsl(), Some("ELEMENTWISE_VEC4")),
            ProgramKey::Qf(op) => (op.glsl(), Some("ELEMENTWISE_VEC4")),
        };
        defines.push(("ELEMENTWISE_OP(a, b)".into(), op_expr.into()));
        if let Some(e) = extra {
            defines.push((e.into(), "1".into()));
        }
        Ok(Program::build(
            &self.ctx,
            &self.library,
            "elementwise.glsl",
            &defines,
        )?)
    }

    fn run_texels<T: bytemuck::Pod>(
        &self,
        key: ProgramKey,
        a: &[T],
        b: &[T],
        per_texel: usize,
    ) -> Result<(Vec<T>, Timing), KernelError> {
        // Lengths first: a mismatch must not cost a compile.
        if a.len() != b.len() {
            return Err(KernelError::LengthMismatch {
                a: a.len(),
                b: b.len(),
            });
        }
        let program = self.program(key)?;
        self.run_program_texels(&program, a, b, per_texel)
    }

    /// One draw of `program` over `a` and `b` (`per_texel` values to a texel).
    fn run_program_texels<T: bytemuck::Pod>(
        &self,
        program: &Program,
        a: &[T],
        b: &[T],
        per_texel: usize,
    ) -> Result<(Vec<T>, Timing), KernelError> {
        if a.len() != b.len() {
            return Err(KernelError::LengthMismatch {
                a: a.len(),
                b: b.len(),
            });
        }
        let layout = Layout::padded(a.len(), per_texel, self.ctx.info().max_texture_size)?;
        let pad = |v: &[T]| {
            let mut p = v.to_vec();
            p.resize(layout.capacity(), T::zeroed());
            p
        };
        let ta = Texture::with_data(&self.ctx, layout.width, layout.height, &pad(a))?;
        let tb = Texture::with_data(&self.ctx, layout.width, layout.height, &pad(b))?;
        let out = Texture::new(&self.ctx, layout.width, layout.height)?;
        let fb = Framebuffer::new(&self.ctx, &[&out])?;
        let ((), timing) = timed(&self.ctx, || {
            Pass::new(program)
                .input("u_a", &ta)
                .optional_input("u_b", &tb)
                .run(&self.ctx, &fb)
        })?;
        let mut r: Vec<T> = fb.read(&self.ctx, 0)?;
        r.truncate(a.len());
        Ok((r, timing))
    }

    /// `op` applied element-wise on the GPU (unary ops ignore `b`, which must still match `a`'s
    /// length). Operands (and, where the exact result is known, results) outside
    /// [`DF64_DOMAIN_LOG2`] are an error naming the element: there the 48-bit bound is not
    /// proven.
    pub fn apply(&self, op: Df64Op, a: &[Df64], b: &[Df64]) -> Result<Vec<Df64>, KernelError> {
        op.check_domain(a, b)?;
        self.apply_unchecked(op, a, b)
    }

    /// [`apply`](Self::apply) without the domain check: for measuring the routines anywhere.
    pub fn apply_unchecked(
        &self,
        op: Df64Op,
        a: &[Df64],
        b: &[Df64],
    ) -> Result<Vec<Df64>, KernelError> {
        Ok(self.run_texels(ProgramKey::Lanes(op), a, b, 2)?.0)
    }

    /// Like [`apply`](Self::apply), also returning the time of the draw.
    pub fn apply_timed(
        &self,
        op: Df64Op,
        a: &[Df64],
        b: &[Df64],
    ) -> Result<(Vec<Df64>, Timing), KernelError> {
        op.check_domain(a, b)?;
        self.run_texels(ProgramKey::Lanes(op), a, b, 2)
    }

    pub fn apply_complex(
        &self,
        op: ComplexOp,
        a: &[ComplexDf64],
        b: &[ComplexDf64],
    ) -> Result<Vec<ComplexDf64>, KernelError> {
        Ok(self.run_texels(ProgramKey::Complex(op), a, b, 1)?.0)
    }

    /// A qf128 `op` applied element-wise on the GPU.
    pub fn apply_qf128(
        &self,
        op: Qf128Op,
        a: &[Qf128],
        b: &[Qf128],
    ) -> Result<Vec<Qf128>, KernelError> {
        Ok(self.run_texels(ProgramKey::Qf(op), a, b, 1)?.0)
    }

    /// Time of one pass over `texels` texels (2 lanes each) applying `op` `repeat` times in a
    /// dependent chain, best of `tries`. Operands lie in [0.5, 1) and near 1, so chains neither
    /// overflow nor take the early exits for infinities.
    pub fn time_chain(
        &self,
        op: impl Into<TimedOp>,
        texels: usize,
        repeat: i32,
        tries: usize,
    ) -> Result<Timing, KernelError> {
        let op = op.into();
        let layout = Layout::padded(texels, 1, self.ctx.info().max_texture_size)?;
        let n = layout.capacity() * 2;
        let a: Vec<Df64> = (0..n)
            .map(|i| Df64::from_f64(0.5 + (i % 997) as f64 / 1994.0))
            .collect();
        let b: Vec<Df64> = (0..n)
            .map(|i| Df64::from_f64(1.0 + ((i % 991) as f64 - 495.0) * 1e-6))
            .collect();
        let ta = Texture::with_data(&self.ctx, layout.width, layout.height, &a)?;
        let tb = Texture::with_data(&self.ctx, layout.width, layout.height, &b)?;
        let out = Texture::new(&self.ctx, layout.width, layout.height)?;
        let fb = Framebuffer::new(&self.ctx, &[&out])?;
        let program = self.program(ProgramKey::Chain(op))?;
        let pass = Pass::new(&program)
            .input("u_a", &ta)
            .optional_input("u_b", &tb)
            .uniform("u_repeat", Uniform::I32(repeat));
        // Warm-up draw: first use can include driver-side compilation.
        pass.run(&self.ctx, &fb)?;
        let mut best: Option<Timing> = None;
        for _ in 0..tries.max(1) {
            let ((), t) = timed(&self.ctx, || pass.run(&self.ctx, &fb))?;
            if best.is_none_or(|b| t.best() < b.best()) {
                best = Some(t);
            }
        }
        Ok(best.unwrap_or(Timing {
            wall: std::time::Duration::ZERO,
            gpu: None,
        }))
    }

    /// Seconds per op per lane: the time of a chain of K ops minus that of K = 0 (fetch and
    /// store alone), over K, with K doubled until the difference is at least `min_seconds`.
    /// A qf128 texel holds one value, so its cost is per texel.
    pub fn op_cost(
        &self,
        op: impl Into<TimedOp>,
        texels: usize,
        min_seconds: f64,
    ) -> Result<OpCost, KernelError> {
        let op = op.into();
        let lanes = match op {
            TimedOp::Df64(_) | TimedOp::F64(_) => (texels * 2) as f64,
            TimedOp::Qf128(_) => texels as f64,
        };
        let base = self.time_chain(op, texels, 0, 5)?.best().as_secs_f64();
        let mut repeat = 8;
        loop {
            let t = self.time_chain(op, texels, repeat, 3)?.best().as_secs_f64();
            if t - base >= min_seconds || repeat >= 1 << 16 {
                return Ok(OpCost {
                    seconds_per_op: (t - base).max(0.0) / (repeat as f64 * lanes),
                    repeat,
                    overhead_seconds: base,
                });
            }
            repeat *= 2;
        }
    }
}

/// The measured cost of one df64 op on this device.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct OpCost {
    pub seconds_per_op: f64,
    /// Chain length that made the difference measurable.
    pub repeat: i32,
    /// Time of the pass with no ops (fetch and store).
    pub overhead_seconds: f64,
}
