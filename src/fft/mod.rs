//! The texture-based transposed Stockham FFT (Thall's Algorithms 8 to 10) in f32, df64 and
//! qf128: the data as RGBA32F textures, one full-screen fragment pass per stage, ping-pong
//! between two buffers, twiddles from Thall's W_long texture or computed in the shader.
//!
//! - [`StockhamPlan`]: complex transforms of rows (batched) or of a 2-D image, forward and
//!   inverse (1/N), radix 2 (Algorithm 10 as published) or radix 4 (four outputs per
//!   fragment through four color attachments, a radix-2 stage last when log2 N is odd);
//! - mixed radix: rows of 3 * 2^k points run the power-of-two stages, then one radix-3 stage
//!   (the butterflies are rows of [`stockham::BUTTERFLIES`]: radix, outputs, place, GLSL file);
//! - [`FftPlan`]: any length in every dimension (1-D batches, 2-D, 3-D): powers of two (and rows
//!   of 3 * 2^k) straight through the Stockham passes, other lengths by Bluestein's chirp-z
//!   through them;
//! - [`Convolution`]: linear and circular convolution and correlation, on the GPU from upload
//!   to readback;
//! - [`RealFftPlan`]: N reals to the N/2 + 1 bins, through an N/2-point complex transform;
//! - [`reference`](mod@reference): the host references (rustfft in f64, a double-double FFT for qf128) and
//!   the paper's error measures (relative L2, round-trip RMSE of magnitude and phase, peak S/N).
//!
//! Plan once (textures, programs, twiddles), then upload, execute and read back as often as
//! needed; data stays on the GPU between stages, transforms and pointwise products.

mod bluestein;
mod convolution;
mod plan;
mod real;
pub mod reference;
pub mod scale;
pub mod stockham;
pub mod twiddle;

pub use bluestein::FftPlan;
pub use convolution::{Convolution, Product, Wrap};
pub use plan::{FftShape, StockhamPlan};
pub use real::RealFftPlan;
/// The complex double the f64 upload and download methods take (rustfft's).
pub use rustfft::num_complex::Complex64;
pub use scale::{BlockScaled, Underflow};

use thiserror::Error;

use crate::gl::GlError;
use crate::kernels::KernelError;

/// What can go wrong planning or running a transform; each message says what to do.
#[derive(Debug, Error)]
pub enum FftError {
    /// A `StockhamPlan` length that is not a power of two (the length, the next one up).
    #[error("FFT length {0} is not a power of two (nor, for rows with table twiddles, 3 times one), which StockhamPlan needs: use FftPlan, which takes any length (Bluestein), or pad the input with zeros to {1} if that transform is the one you want")]
    NotPowerOfTwo(usize, usize),
    /// An extent of 0 (which one).
    #[error("an FFT over 0 {0}: every extent must be at least 1")]
    ZeroLength(String),
    /// More texels than the driver's largest texture holds.
    #[error(
        "{what} needs {texels} texels on the GPU, more than this driver's {limit} x {limit} \
         texture holds ({why}): the largest that fits is {largest}"
    )]
    TooLarge {
        /// The transform asked for.
        what: String,
        /// Texels it needs.
        texels: u128,
        /// GL_MAX_TEXTURE_SIZE.
        limit: u32,
        /// Why that many texels (the layout).
        why: &'static str,
        /// The largest transform of that kind that fits.
        largest: String,
    },
    /// An extent of 1 where the transform needs 2 (the extent, which one).
    #[error("an FFT over {0} {1} is too small: the transform needs at least 2")]
    TooShort(usize, String),
    /// A batch that is not a power of two.
    #[error("batch of {0} transforms: the batch must be a power of two, at least 1 (pad with zero rows)")]
    BadBatch(usize),
    /// A NaN or infinity in the input (its index).
    #[error("input element {0} is NaN or infinite: the FFT needs finite input (clean or clamp the data first)")]
    NonFinite(usize),
    /// The GL layer failed.
    #[error(transparent)]
    Gl(#[from] GlError),
    /// A kernel (or a program's proof) failed.
    #[error(transparent)]
    Kernel(#[from] KernelError),
    /// Data whose length is not the plan's.
    #[error("data of {got} points given to a plan of {n} points")]
    LengthMismatch {
        /// Points given.
        got: usize,
        /// Points the plan holds.
        n: usize,
    },
    /// A pointwise product of plans that differ.
    #[error("the two plans differ in size or precision; a pointwise product needs equal plans")]
    PlanMismatch,
    /// What this driver or these options cannot do (the reason and the way out).
    #[error("{0}")]
    Unsupported(String),
    /// A spectrum given to the inverse real FFT that is not the spectrum of reals.
    #[error(
        "bin {bin} of row {row} has a non-zero imaginary part: bins 0 and N/2 of the spectrum \
         of {n} reals are real, so this is not the spectrum of a real signal (set those \
         imaginary parts to 0, or use the complex FftPlan)"
    )]
    NotReal {
        /// The row.
        row: usize,
        /// The bin (0 or N/2).
        bin: usize,
        /// The real transform's length.
        n: usize,
    },
    /// Data of another shape than the plan's (what differs).
    #[error("{0}")]
    ShapeMismatch(String),
    /// A NaN or infinity out of finite input: a fault to report.
    #[error(
        "the {precision} FFT produced a NaN or infinity from finite input: element {element} \
             {after}. This is a fault of the driver or of df64gl: please report it with the \
             output of `df64gl info` and `df64gl probe`"
    )]
    NonFiniteResult {
        /// The FFT's precision.
        precision: &'static str,
        /// The first element found non-finite.
        element: usize,
        /// After which pass it appeared.
        after: String,
    },
    /// A result beyond the range of the type it is read back as.
    #[error(
        "result element {element} exceeds the range of {what}: read the result with \
             download_f64 or download_scaled (fft-demo: write CSV, which has no range limit)"
    )]
    ResultOutOfRange {
        /// The element.
        element: usize,
        /// The type it does not fit ("f64", "df64").
        what: String,
    },
}

/// Arithmetic of the transform.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum FftPrecision {
    /// Plain f32 complex arithmetic: the baseline.
    F32,
    /// Complex df64 with the accurate df64 routines (about 48 bits).
    Df64,
    /// Complex qf128 (about 96 bits), real and imaginary parts in two textures.
    Qf128,
    /// Native double (GLSL `double`, GLSL 4.00 or GL_ARB_gpu_shader_fp64): the comparator a
    /// user with fast FP64 hardware would pick instead (Warwick's comparison at the FFT level).
    F64,
}

impl FftPrecision {
    /// "f32", "df64", "qf128" or "f64".
    pub fn name(self) -> &'static str {
        match self {
            FftPrecision::F32 => "f32",
            FftPrecision::Df64 => "df64",
            FftPrecision::Qf128 => "qf128",
            FftPrecision::F64 => "f64",
        }
    }
}

/// Butterfly radix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Radix {
    /// Thall's Algorithm 10: one output per fragment, log2 N passes.
    #[cfg_attr(feature = "clap", value(name = "2"))]
    #[serde(rename = "2")]
    Two,
    /// Radix 4: one butterfly (four outputs) per fragment, ceil(log2 N / 2) passes + 1 copy.
    #[cfg_attr(feature = "clap", value(name = "4"))]
    #[serde(rename = "4")]
    Four,
    /// Radix 8 (f32, df64, f64): eight outputs per fragment through eight color attachments,
    /// a radix-4 or radix-2 stage to finish, ceil(log2 N / 3) passes + 1 copy.
    #[cfg_attr(feature = "clap", value(name = "8"))]
    #[serde(rename = "8")]
    Eight,
}

/// Where the twiddle factors come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum TwiddleSource {
    /// Thall's W_long texture, computed on the host (f64 for f32/df64, the oracle for qf128).
    Table,
    /// Computed per fragment with df64 (or qf128) sincos: the paper's "direct computation".
    Direct,
}

/// How a qf128 pass writes its real and imaginary textures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum QfWrite {
    /// One pass, both parts through two (radix 4: eight) color attachments.
    Mrt,
    /// Two passes, one part each.
    TwoPass,
}

/// How a plan computes: its arithmetic, radix, twiddle source and qf128 write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct FftOptions {
    /// The arithmetic.
    pub precision: FftPrecision,
    /// Radix 2 (Thall's published passes), 4 or 8.
    pub radix: Radix,
    /// Twiddles from the W_long table or computed in the shader.
    pub twiddles: TwiddleSource,
    /// qf128: both parts in one pass or one part per pass.
    pub qf_write: QfWrite,
    /// Block floating point (see [`scale`]): on by default. Off only to test what the guards
    /// catch: without it sums overflow f32 for data near 1e38.
    pub block_scaling: bool,
}

impl FftOptions {
    /// Radix 4, the W_long table, qf128 written in one pass: the fastest choices measured.
    pub fn new(precision: FftPrecision) -> Self {
        FftOptions {
            precision,
            radix: Radix::Four,
            twiddles: TwiddleSource::Table,
            qf_write: QfWrite::Mrt,
            block_scaling: true,
        }
    }

    /// With or without block floating point.
    pub fn block_scaling(mut self, on: bool) -> Self {
        self.block_scaling = on;
        self
    }

    /// With this radix.
    pub fn radix(mut self, radix: Radix) -> Self {
        self.radix = radix;
        self
    }

    /// With twiddles from this source.
    pub fn twiddles(mut self, twiddles: TwiddleSource) -> Self {
        self.twiddles = twiddles;
        self
    }

    /// With this qf128 write.
    pub fn qf_write(mut self, qf_write: QfWrite) -> Self {
        self.qf_write = qf_write;
        self
    }
}

/// Which transform: forward (exp(-2 pi i jk/N)) or inverse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// The forward transform, unscaled.
    Forward,
    /// The inverse transform with the 1/N scaling.
    Inverse,
}

/// The paper's operation count of one N-point transform, 5 N log2 N, over `seconds`, in GFLOP/s.
pub fn gflops(n: usize, seconds: f64) -> f64 {
    5.0 * n as f64 * (n as f64).log2() / seconds / 1e9
}
