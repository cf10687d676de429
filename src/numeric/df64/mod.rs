//! CPU mirror of `glsl/df64.glsl`: the same algorithms, step for step, in f32 arithmetic.
//!
//! Rust evaluates f32 expressions exactly as written (no reassociation, no FMA contraction),
//! so on a driver whose f32 `+ - * / sqrt` round to nearest, the GPU results equal these bit
//! for bit. Function names match the GLSL ones, and every function is re-exported here.
//!
//! One concern a file: the error-free transforms (`transforms.rs`), exponent scaling
//! (`scaling.rs`), the arithmetic (`arithmetic.rs`), division and square root
//! (`div_sqrt.rs`), comparisons (`compare.rs`), three-word sums and the hypotenuse
//! (`three_word.rs`), Payne and Hanek's reduction (`reduction.rs`), complex numbers
//! (`complex.rs`) and the published algorithms the tables compare with (`published.rs`).

mod arithmetic;
mod compare;
mod complex;
mod div_sqrt;
mod published;
mod reduction;
mod scaling;
mod three_word;
mod transforms;

pub use arithmetic::*;
pub use compare::*;
pub use complex::*;
pub use div_sqrt::*;
pub use published::*;
pub use reduction::*;
pub use scaling::*;
pub use three_word::*;
pub use transforms::*;

use bytemuck::{Pod, Zeroable};

use super::df64_consts::TWO_OVER_PI_DIGITS;
use super::fpenv::{ftz, fused_two_prod};
use serde::{Deserialize, Serialize};

/// A double-float: the unevaluated sum `hi + lo` with `|lo| <= ulp(hi)/2`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable, Serialize, Deserialize)]
pub struct Df64 {
    /// The high word: the value rounded to f32.
    pub hi: f32,
    /// The low word: the rest, |lo| <= ulp(hi) / 2.
    pub lo: f32,
}

/// A complex df64, laid out as one RGBA32F texel `[re_hi, re_lo, im_hi, im_lo]`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable, Serialize, Deserialize)]
pub struct ComplexDf64 {
    /// Real part.
    pub re: Df64,
    /// Imaginary part.
    pub im: Df64,
}

impl Df64 {
    /// 0.
    pub const ZERO: Df64 = Df64 { hi: 0.0, lo: 0.0 };
    /// 1.
    pub const ONE: Df64 = Df64 { hi: 1.0, lo: 0.0 };

    /// The pair as given (not renormalised).
    pub const fn new(hi: f32, lo: f32) -> Self {
        Df64 { hi, lo }
    }

    /// The nearest df64 to `x`: `hi = fl32(x)`, `lo = fl32(x - hi)` (`x - hi` is exact in f64).
    pub fn from_f64(x: f64) -> Self {
        let hi = x as f32;
        if !hi.is_finite() {
            return Df64 { hi, lo: 0.0 };
        }
        let lo = (x - hi as f64) as f32;
        Df64 { hi, lo }
    }

    /// `hi + lo` rounded to f64 (exact when the two terms are within 29 binades of each other).
    pub fn to_f64(self) -> f64 {
        self.hi as f64 + self.lo as f64
    }

    /// An f32, exactly.
    pub fn from_f32(x: f32) -> Self {
        df64_from_f32(x)
    }

    /// Rounded to f32 (hi + lo).
    pub fn to_f32(self) -> f32 {
        df64_to_f32(self)
    }

    /// Both words finite.
    pub fn is_finite(self) -> bool {
        self.hi.is_finite() && self.lo.is_finite()
    }
}

impl ComplexDf64 {
    /// From its parts.
    pub fn new(re: Df64, im: Df64) -> Self {
        ComplexDf64 { re, im }
    }

    /// From f64 parts, each split into two words.
    pub fn from_f64(re: f64, im: f64) -> Self {
        ComplexDf64 {
            re: Df64::from_f64(re),
            im: Df64::from_f64(im),
        }
    }
}

/// `DF64_SPLIT_THRESHOLD` in GLSL: above 2^112, `4097 * a` could overflow, so split scales first.
pub const SPLIT_THRESHOLD: f32 = 5.192_297e33; // 2^112
const SPLIT_DOWN: f32 = 6.103_515_6e-5; // 2^-14
const SPLIT_UP: f32 = 16384.0; // 2^14

impl std::ops::Add for Df64 {
    type Output = Df64;
    fn add(self, rhs: Df64) -> Df64 {
        df64_add(self, rhs)
    }
}

impl std::ops::Sub for Df64 {
    type Output = Df64;
    fn sub(self, rhs: Df64) -> Df64 {
        df64_sub(self, rhs)
    }
}

impl std::ops::Mul for Df64 {
    type Output = Df64;
    fn mul(self, rhs: Df64) -> Df64 {
        df64_mul(self, rhs)
    }
}

impl std::ops::Div for Df64 {
    type Output = Df64;
    fn div(self, rhs: Df64) -> Df64 {
        df64_div(self, rhs)
    }
}

impl std::ops::Neg for Df64 {
    type Output = Df64;
    fn neg(self) -> Df64 {
        df64_neg(self)
    }
}

#[cfg(test)]
mod tests;
