//! Complex df64 arithmetic on [`ComplexDf64`]: sum, difference and product.

use super::*;

/// CPU mirror of `cdf64_add` in `glsl/df64.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn cdf64_add(a: ComplexDf64, b: ComplexDf64) -> ComplexDf64 {
    ComplexDf64::new(df64_add(a.re, b.re), df64_add(a.im, b.im))
}

/// CPU mirror of `cdf64_sub` in `glsl/df64.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn cdf64_sub(a: ComplexDf64, b: ComplexDf64) -> ComplexDf64 {
    ComplexDf64::new(df64_sub(a.re, b.re), df64_sub(a.im, b.im))
}

/// CPU mirror of `cdf64_mul` in `glsl/df64.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn cdf64_mul(a: ComplexDf64, b: ComplexDf64) -> ComplexDf64 {
    ComplexDf64::new(
        df64_sub(df64_mul(a.re, b.re), df64_mul(a.im, b.im)),
        df64_add(df64_mul(a.re, b.im), df64_mul(a.im, b.re)),
    )
}
