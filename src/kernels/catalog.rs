//! The catalog of element-wise df64 operations: one row per [`Df64Op`] with everything the
//! engine needs of it (its name, the GLSL call, the CPU mirror, the double-double reference and
//! the oracle where it has an error to measure, and its kind), so adding an op touches the enum
//! and one row here. Rows are in the enum's order (a test checks it).

use astro_float::BigFloat;

use super::Df64Op;
use crate::numeric::df64::{self as m, Df64};
use crate::numeric::df64_func as f;
use crate::numeric::oracle::Oracle;
use crate::numeric::reference::Dd;

/// The mirror: the same routine in Rust f32 arithmetic on (a, b).
pub(crate) type Mirror = fn(Df64, Df64) -> Df64;
/// The exact result in double-double, for ops with an error to measure.
pub(crate) type Reference = fn(Dd, Dd) -> Dd;
/// The exact (or correctly rounded at the oracle's precision) result.
pub(crate) type OracleFn = fn(&mut Oracle, &BigFloat, &BigFloat) -> BigFloat;

/// No flags.
pub(crate) const NONE: u8 = 0;
/// Uses only its first operand.
pub(crate) const UNARY: u8 = 1;
/// Exact on every finite operand (sign, comparisons, rounding to integers, exponents): no
/// domain beyond finiteness.
pub(crate) const EXACT: u8 = 2;
/// A sum: exempt from the result's domain check (a cancelling sum is exact).
pub(crate) const SUM: u8 = 4;
/// A function of `df64_func.glsl` (timed with a fixed-argument chain).
pub(crate) const FUNCTION: u8 = 8;
/// A `*_unscaled` op: its bound holds only from 2^-40.
pub(crate) const UNSCALED: u8 = 16;

/// One op of the catalog.
pub(crate) struct OpRow {
    pub op: Df64Op,
    pub name: &'static str,
    pub glsl: &'static str,
    pub mirror: Mirror,
    pub reference: Option<Reference>,
    pub oracle: Option<OracleFn>,
    pub flags: u8,
}

fn flag(b: bool) -> Df64 {
    Df64::new(if b { 1.0 } else { 0.0 }, 0.0)
}

/// Every element-wise df64 op, in [`Df64Op`]'s order.
pub(crate) const DF64_OPS: [OpRow; 68] = [
    OpRow {
        op: Df64Op::Add,
        name: "add",
        glsl: "df64_add(a, b)",
        mirror: m::df64_add,
        reference: Some(|a, b| a + b),
        oracle: Some(|o, a, b| o.add(a, b)),
        flags: SUM,
    },
    OpRow {
        op: Df64Op::Sub,
        name: "sub",
        glsl: "df64_sub(a, b)",
        mirror: m::df64_sub,
        reference: Some(|a, b| a - b),
        oracle: Some(|o, a, b| o.sub(a, b)),
        flags: SUM,
    },
    OpRow {
        op: Df64Op::Mul,
        name: "mul",
        glsl: "df64_mul(a, b)",
        mirror: m::df64_mul,
        reference: Some(|a, b| a * b),
        oracle: Some(|o, a, b| o.mul(a, b)),
        flags: NONE,
    },
    OpRow {
        op: Df64Op::Sqr,
        name: "sqr",
        glsl: "df64_sqr(a)",
        mirror: |a, _| m::df64_sqr(a),
        reference: Some(|a, _| a * a),
        oracle: Some(|o, a, _| o.mul(a, a)),
        flags: UNARY,
    },
    OpRow {
        op: Df64Op::MulF32,
        name: "mul_f32",
        glsl: "df64_mul_f32(a, b.x)",
        mirror: |a, b| m::df64_mul_f32(a, b.hi),
        reference: Some(|a, b| a.mul_f64(b.hi as f32 as f64)),
        oracle: None,
        flags: NONE,
    },
    OpRow {
        op: Df64Op::Div,
        name: "div",
        glsl: "df64_div(a, b)",
        mirror: m::df64_div,
        reference: Some(|a, b| a / b),
        oracle: Some(|o, a, b| o.div(a, b)),
        flags: NONE,
    },
    OpRow {
        op: Df64Op::Recip,
        name: "recip",
        glsl: "df64_recip(a)",
        mirror: |a, _| m::df64_recip(a),
        reference: Some(|a, _| a.recip()),
        oracle: Some(|o, a, _| o.recip(a)),
        flags: UNARY,
    },
    OpRow {
        op: Df64Op::Sqrt,
        name: "sqrt",
        glsl: "df64_sqrt(a)",
        mirror: |a, _| m::df64_sqrt(a),
        reference: Some(|a, _| a.sqrt()),
        oracle: Some(|o, a, _| o.sqrt(a)),
        flags: UNARY,
    },
    OpRow {
        op: Df64Op::Rsqrt,
        name: "rsqrt",
        glsl: "df64_rsqrt(a)",
        mirror: |a, _| m::df64_rsqrt(a),
        reference: Some(|a, _| a.sqrt().recip()),
        oracle: Some(|o, a, _| o.rsqrt(a)),
        flags: UNARY,
    },
    OpRow {
        op: Df64Op::AddUnscaled,
        name: "add_unscaled",
        glsl: "df64_add_unscaled(a, b)",
        mirror: m::df64_add_unscaled,
        reference: Some(|a, b| a + b),
        oracle: None,
        flags: SUM | UNSCALED,
    },
    OpRow {
        op: Df64Op::MulUnscaled,
        name: "mul_unscaled",
        glsl: "df64_mul_unscaled(a, b)",
        mirror: m::df64_mul_unscaled,
        reference: Some(|a, b| a * b),
        oracle: None,
        flags: UNSCALED,
    },
    OpRow {
        op: Df64Op::DivUnscaled,
        name: "div_unscaled",
        glsl: "df64_div_unscaled(a, b)",
        mirror: m::df64_div_unscaled,
        reference: Some(|a, b| a / b),
        oracle: None,
        flags: UNSCALED,
    },
    OpRow {
        op: Df64Op::SqrtUnscaled,
        name: "sqrt_unscaled",
        glsl: "df64_sqrt_unscaled(a)",
        mirror: |a, _| m::df64_sqrt_unscaled(a),
        reference: Some(|a, _| a.sqrt()),
        oracle: None,
        flags: UNARY | UNSCALED,
    },
    OpRow {
        op: Df64Op::MulFast,
        name: "mul_fast",
        glsl: "df64_mul_fast(a, b)",
        mirror: m::df64_mul_fast,
        reference: Some(|a, b| a * b),
        oracle: Some(|o, a, b| o.mul(a, b)),
        flags: NONE,
    },
    OpRow {
        op: Df64Op::SqrFast,
        name: "sqr_fast",
        glsl: "df64_sqr_fast(a)",
        mirror: |a, _| m::df64_sqr_fast(a),
        reference: Some(|a, _| a * a),
        oracle: Some(|o, a, _| o.mul(a, a)),
        flags: UNARY,
    },
    OpRow {
        op: Df64Op::MulF32Fast,
        name: "mul_f32_fast",
        glsl: "df64_mul_f32_fast(a, b.x)",
        mirror: |a, b| m::df64_mul_f32_fast(a, b.hi),
        reference: Some(|a, b| a.mul_f64(b.hi as f32 as f64)),
        oracle: None,
        flags: NONE,
    },
    OpRow {
        op: Df64Op::AddThall,
        name: "add_thall",
        glsl: "df64_add_thall(a, b)",
        mirror: m::df64_add_thall,
        reference: Some(|a, b| a + b),
        oracle: None,
        flags: SUM,
    },
    OpRow {
        op: Df64Op::AddSloppy,
        name: "add_sloppy",
        glsl: "df64_add_sloppy(a, b)",
        mirror: m::df64_add_sloppy,
        reference: Some(|a, b| a + b),
        oracle: None,
        flags: SUM,
    },
    OpRow {
        op: Df64Op::SubThall,
        name: "sub_thall",
        glsl: "df64_sub_thall(a, b)",
        mirror: m::df64_sub_thall,
        reference: Some(|a, b| a - b),
        oracle: None,
        flags: SUM,
    },
    OpRow {
        op: Df64Op::MulThall,
        name: "mul_thall",
        glsl: "df64_mul_thall(a, b)",
        mirror: m::df64_mul_thall,
        reference: Some(|a, b| a * b),
        oracle: None,
        flags: NONE,
    },
    OpRow {
        op: Df64Op::SqrThall,
        name: "sqr_thall",
        glsl: "df64_sqr_thall(a)",
        mirror: |a, _| m::df64_sqr_thall(a),
        reference: Some(|a, _| a * a),
        oracle: None,
        flags: UNARY,
    },
    OpRow {
        op: Df64Op::DivThall,
        name: "div_thall",
        glsl: "df64_div_thall(a, b)",
        mirror: m::df64_div_thall,
        reference: Some(|a, b| a / b),
        oracle: None,
        flags: NONE,
    },
    OpRow {
        op: Df64Op::RecipThall,
        name: "recip_thall",
        glsl: "df64_recip_thall(a)",
        mirror: |a, _| m::df64_recip_thall(a),
        reference: Some(|a, _| a.recip()),
        oracle: None,
        flags: UNARY,
    },
    OpRow {
        op: Df64Op::SqrtThall,
        name: "sqrt_thall",
        glsl: "df64_sqrt_thall(a)",
        mirror: |a, _| m::df64_sqrt_thall(a),
        reference: Some(|a, _| a.sqrt()),
        oracle: None,
        flags: UNARY,
    },
    OpRow {
        op: Df64Op::RsqrtThall,
        name: "rsqrt_thall",
        glsl: "df64_rsqrt_thall(a)",
        mirror: |a, _| m::df64_rsqrt_thall(a),
        reference: Some(|a, _| a.sqrt().recip()),
        oracle: None,
        flags: UNARY,
    },
    OpRow {
        op: Df64Op::Neg,
        name: "neg",
        glsl: "df64_neg(a)",
        mirror: |a, _| m::df64_neg(a),
        reference: None,
        oracle: None,
        flags: UNARY | EXACT,
    },
    OpRow {
        op: Df64Op::Abs,
        name: "abs",
        glsl: "df64_abs(a)",
        mirror: |a, _| m::df64_abs(a),
        reference: None,
        oracle: None,
        flags: UNARY | EXACT,
    },
    OpRow {
        op: Df64Op::Min,
        name: "min",
        glsl: "df64_min(a, b)",
        mirror: m::df64_min,
        reference: None,
        oracle: None,
        flags: EXACT,
    },
    OpRow {
        op: Df64Op::Max,
        name: "max",
        glsl: "df64_max(a, b)",
        mirror: m::df64_max,
        reference: None,
        oracle: None,
        flags: EXACT,
    },
    OpRow {
        op: Df64Op::Eq,
        name: "eq",
        glsl: "vec2(df64_eq(a, b) ? 1.0 : 0.0, 0.0)",
        mirror: |a, b| flag(m::df64_eq(a, b)),
        reference: None,
        oracle: None,
        flags: EXACT,
    },
    OpRow {
        op: Df64Op::Neq,
        name: "neq",
        glsl: "vec2(df64_neq(a, b) ? 1.0 : 0.0, 0.0)",
        mirror: |a, b| flag(m::df64_neq(a, b)),
        reference: None,
        oracle: None,
        flags: EXACT,
    },
    OpRow {
        op: Df64Op::Lt,
        name: "lt",
        glsl: "vec2(df64_lt(a, b) ? 1.0 : 0.0, 0.0)",
        mirror: |a, b| flag(m::df64_lt(a, b)),
        reference: None,
        oracle: None,
        flags: EXACT,
    },
    OpRow {
        op: Df64Op::Le,
        name: "le",
        glsl: "vec2(df64_le(a, b) ? 1.0 : 0.0, 0.0)",
        mirror: |a, b| flag(m::df64_le(a, b)),
        reference: None,
        oracle: None,
        flags: EXACT,
    },
    OpRow {
        op: Df64Op::Gt,
        name: "gt",
        glsl: "vec2(df64_gt(a, b) ? 1.0 : 0.0, 0.0)",
        mirror: |a, b| flag(m::df64_gt(a, b)),
        reference: None,
        oracle: None,
        flags: EXACT,
    },
    OpRow {
        op: Df64Op::Ge,
        name: "ge",
        glsl: "vec2(df64_ge(a, b) ? 1.0 : 0.0, 0.0)",
        mirror: |a, b| flag(m::df64_ge(a, b)),
        reference: None,
        oracle: None,
        flags: EXACT,
    },
    OpRow {
        op: Df64Op::Ldexp,
        name: "ldexp",
        glsl: "df64_ldexp(a, int(b.x))",
        mirror: |a, b| m::df64_ldexp(a, b.hi as i32),
        reference: None,
        oracle: None,
        flags: EXACT,
    },
    OpRow {
        op: Df64Op::Exp,
        name: "exp",
        glsl: "df64_exp(a)",
        mirror: |a, _| f::df64_exp(a),
        reference: None,
        oracle: Some(|o, a, _| o.exp(a)),
        flags: UNARY | FUNCTION,
    },
    OpRow {
        op: Df64Op::Expm1,
        name: "expm1",
        glsl: "df64_expm1(a)",
        mirror: |a, _| f::df64_expm1(a),
        reference: None,
        oracle: Some(|o, a, _| o.expm1(a)),
        flags: UNARY | FUNCTION,
    },
    OpRow {
        op: Df64Op::Log,
        name: "log",
        glsl: "df64_log(a)",
        mirror: |a, _| f::df64_log(a),
        reference: None,
        oracle: Some(|o, a, _| o.ln(a)),
        flags: UNARY | FUNCTION,
    },
    OpRow {
        op: Df64Op::Log1p,
        name: "log1p",
        glsl: "df64_log1p(a)",
        mirror: |a, _| f::df64_log1p(a),
        reference: None,
        oracle: Some(|o, a, _| o.ln1p(a)),
        flags: UNARY | FUNCTION,
    },
    OpRow {
        op: Df64Op::Log2,
        name: "log2",
        glsl: "df64_log2(a)",
        mirror: |a, _| f::df64_log2(a),
        reference: None,
        oracle: Some(|o, a, _| o.log2(a)),
        flags: UNARY | FUNCTION,
    },
    OpRow {
        op: Df64Op::Log10,
        name: "log10",
        glsl: "df64_log10(a)",
        mirror: |a, _| f::df64_log10(a),
        reference: None,
        oracle: Some(|o, a, _| o.log10(a)),
        flags: UNARY | FUNCTION,
    },
    OpRow {
        op: Df64Op::Sin,
        name: "sin",
        glsl: "df64_sin(a)",
        mirror: |a, _| f::df64_sin(a),
        reference: None,
        oracle: Some(|o, a, _| o.sin(a)),
        flags: UNARY | FUNCTION,
    },
    OpRow {
        op: Df64Op::Cos,
        name: "cos",
        glsl: "df64_cos(a)",
        mirror: |a, _| f::df64_cos(a),
        reference: None,
        oracle: Some(|o, a, _| o.cos(a)),
        flags: UNARY | FUNCTION,
    },
    OpRow {
        op: Df64Op::Tan,
        name: "tan",
        glsl: "df64_tan(a)",
        mirror: |a, _| f::df64_tan(a),
        reference: None,
        oracle: Some(|o, a, _| o.tan(a)),
        flags: UNARY | FUNCTION,
    },
    OpRow {
        op: Df64Op::Atan,
        name: "atan",
        glsl: "df64_atan(a)",
        mirror: |a, _| f::df64_atan(a),
        reference: None,
        oracle: Some(|o, a, _| o.atan(a)),
        flags: UNARY | FUNCTION,
    },
    OpRow {
        op: Df64Op::Atan2,
        name: "atan2",
        glsl: "df64_atan2(a, b)",
        mirror: f::df64_atan2,
        reference: None,
        oracle: Some(|o, a, b| o.atan2(a, b)),
        flags: FUNCTION,
    },
    OpRow {
        op: Df64Op::Asin,
        name: "asin",
        glsl: "df64_asin(a)",
        mirror: |a, _| f::df64_asin(a),
        reference: None,
        oracle: Some(|o, a, _| o.asin(a)),
        flags: UNARY | FUNCTION,
    },
    OpRow {
        op: Df64Op::Acos,
        name: "acos",
        glsl: "df64_acos(a)",
        mirror: |a, _| f::df64_acos(a),
        reference: None,
        oracle: Some(|o, a, _| o.acos(a)),
        flags: UNARY | FUNCTION,
    },
    OpRow {
        op: Df64Op::Sinh,
        name: "sinh",
        glsl: "df64_sinh(a)",
        mirror: |a, _| f::df64_sinh(a),
        reference: None,
        oracle: Some(|o, a, _| o.sinh(a)),
        flags: UNARY | FUNCTION,
    },
    OpRow {
        op: Df64Op::Cosh,
        name: "cosh",
        glsl: "df64_cosh(a)",
        mirror: |a, _| f::df64_cosh(a),
        reference: None,
        oracle: Some(|o, a, _| o.cosh(a)),
        flags: UNARY | FUNCTION,
    },
    OpRow {
        op: Df64Op::Tanh,
        name: "tanh",
        glsl: "df64_tanh(a)",
        mirror: |a, _| f::df64_tanh(a),
        reference: None,
        oracle: Some(|o, a, _| o.tanh(a)),
        flags: UNARY | FUNCTION,
    },
    OpRow {
        op: Df64Op::Pow,
        name: "pow",
        glsl: "df64_pow(a, b)",
        mirror: f::df64_pow,
        reference: None,
        oracle: Some(|o, a, b| o.pow(a, b)),
        flags: FUNCTION,
    },
    OpRow {
        op: Df64Op::Floor,
        name: "floor",
        glsl: "df64_floor(a)",
        mirror: |a, _| f::df64_floor(a),
        reference: None,
        oracle: None,
        flags: UNARY | EXACT | FUNCTION,
    },
    OpRow {
        op: Df64Op::Ceil,
        name: "ceil",
        glsl: "df64_ceil(a)",
        mirror: |a, _| f::df64_ceil(a),
        reference: None,
        oracle: None,
        flags: UNARY | EXACT | FUNCTION,
    },
    OpRow {
        op: Df64Op::Round,
        name: "round",
        glsl: "df64_round(a)",
        mirror: |a, _| f::df64_round(a),
        reference: None,
        oracle: None,
        flags: UNARY | EXACT | FUNCTION,
    },
    OpRow {
        op: Df64Op::Trunc,
        name: "trunc",
        glsl: "df64_trunc(a)",
        mirror: |a, _| f::df64_trunc(a),
        reference: None,
        oracle: None,
        flags: UNARY | EXACT | FUNCTION,
    },
    OpRow {
        op: Df64Op::Fmod,
        name: "fmod",
        glsl: "df64_fmod(a, b)",
        mirror: f::df64_fmod,
        reference: None,
        oracle: Some(|o, a, b| o.fmod(a, b)),
        flags: FUNCTION,
    },
    OpRow {
        op: Df64Op::Remainder,
        name: "remainder",
        glsl: "df64_remainder(a, b)",
        mirror: f::df64_remainder,
        reference: None,
        oracle: None,
        flags: FUNCTION,
    },
    OpRow {
        op: Df64Op::Frexp,
        name: "frexp",
        glsl: "df64_frexp_mantissa(a)",
        mirror: |a, _| f::df64_frexp(a).0,
        reference: None,
        oracle: None,
        flags: UNARY | EXACT | FUNCTION,
    },
    OpRow {
        op: Df64Op::FrexpExp,
        name: "frexp_exp",
        glsl: "df64_frexp_exponent(a)",
        mirror: |a, _| Df64::new(f::df64_frexp(a).1 as f32, 0.0),
        reference: None,
        oracle: None,
        flags: UNARY | EXACT | FUNCTION,
    },
    OpRow {
        op: Df64Op::F32Add,
        name: "f32_add",
        glsl: "vec2(a.x + b.x, 0.0)",
        mirror: |a, b| Df64::new(a.hi + b.hi, 0.0),
        reference: None,
        oracle: None,
        flags: NONE,
    },
    OpRow {
        op: Df64Op::F32Mul,
        name: "f32_mul",
        glsl: "vec2(a.x * b.x, 0.0)",
        mirror: |a, b| Df64::new(a.hi * b.hi, 0.0),
        reference: None,
        oracle: None,
        flags: NONE,
    },
    OpRow {
        op: Df64Op::F32Mad,
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
        flags: NONE,
    },
    OpRow {
        op: Df64Op::TwoSum,
        name: "add12",
        glsl: "df64_two_sum(a.x, b.x)",
        mirror: |a, b| m::df64_two_sum(a.hi, b.hi),
        reference: Some(|a, b| Dd::from_f64(a.hi) + Dd::from_f64(b.hi)),
        oracle: None,
        flags: SUM,
    },
    OpRow {
        op: Df64Op::TwoProd,
        name: "mul12",
        glsl: "df64_two_prod(a.x, b.x)",
        mirror: |a, b| m::df64_two_prod(a.hi, b.hi),
        reference: Some(|a, b| Dd::from_f64(a.hi) * Dd::from_f64(b.hi)),
        oracle: None,
        flags: NONE,
    },
    OpRow {
        op: Df64Op::AddDagraca,
        name: "add22_dagraca",
        glsl: "df64_add_dagraca(a, b)",
        mirror: m::df64_add_dagraca,
        reference: Some(|a, b| a + b),
        oracle: None,
        flags: SUM,
    },
    OpRow {
        op: Df64Op::MulDagraca,
        name: "mul22_dagraca",
        glsl: "df64_mul_dagraca(a, b)",
        mirror: m::df64_mul_dagraca,
        reference: Some(|a, b| a * b),
        oracle: None,
        flags: NONE,
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_follow_the_enum() {
        for (i, op) in Df64Op::ALL.iter().enumerate() {
            assert_eq!(DF64_OPS[i].op, *op, "row {i}");
            assert_eq!(*op as usize, i);
        }
        let mut names: Vec<&str> = DF64_OPS.iter().map(|r| r.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), DF64_OPS.len(), "names are unique");
    }
}
