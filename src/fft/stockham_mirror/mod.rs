//! CPU mirror of `glsl/stockham_*.glsl`: each pass with the same operations in the same order in
//! f32 arithmetic (the f32, df64 and qf128 variants), on data in natural (logical) order. The
//! passes' known-answer self-tests compare the GPU with it bit for bit; the plane layout and
//! the texture addressing are copies, so only the arithmetic is mirrored.
//!
//! One concern a file: the complex types of each precision (`complex.rs`), one pass and its
//! butterflies (`stage.rs`), the radices and the ladder of passes for a length
//! (`radices.rs`), and the passes of real transforms (`real.rs`).

use crate::numeric::df64::{
    df64_add_unscaled, df64_mul_f32_unscaled, df64_mul_unscaled, df64_scale_words,
    df64_sub_unscaled, ComplexDf64, Df64,
};
use crate::numeric::df64_consts::PI_2;
use crate::numeric::df64_func::df64_sincos_reduced;
use crate::numeric::qf128::{
    qf128_add, qf128_mul, qf128_mul_f32, qf128_sincos_reduced, qf128_sub, ComplexQf128, Qf128,
};
use crate::numeric::qf128_consts::QF_PI_2;

use super::FftPrecision;
use crate::gl::GlslLibrary;

mod complex;
mod radices;
mod real;
mod stage;

pub use complex::*;
pub use radices::*;
pub use real::*;
pub use stage::*;

#[cfg(test)]
mod tests;
