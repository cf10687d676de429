//! The texture-based transposed Stockham FFT (Thall's Algorithms 8 to 10) in f32, df64, qf128
//! and native f64: the data as RGBA32F textures, one full-screen fragment pass per stage,
//! ping-pong between two buffers, twiddles from Thall's W_long texture or computed in the shader.
//!
//! Every GPU plan implements one interface, [`GpuFft`]: upload, execute, download, with the
//! data in any format ([`FftData`]: f32, f64, df64 or qf128, complex or real). One planner,
//! [`FftPlanner`], makes every choice (algorithm per axis, radix, twiddles, what a precision
//! and the driver allow) and is the only place that judges an option combination.
//!
//! | file | holds |
//! |---|---|
//! | `gpu_fft.rs` | [`GpuFft`], [`FftData`] |
//! | `planner.rs` | [`FftPlanner`], [`AxisAlgorithm`], the judgement of options |
//! | `options.rs` | [`FftShape`], [`FftOptions`] and their enums |
//! | `stockham_plan/` | [`StockhamPlan`]: powers of two and rows of 3 * 2^k (mixed radix), 1-D to 3-D |
//! | `fft_plan.rs` | [`FftPlan`]: any length, each axis as the planner chose |
//! | `bluestein.rs` | Bluestein's chirp-z on the Stockham passes (lengths that are not 2^k or 3 * 2^k) |
//! | `real_plan.rs` | [`RealFftPlan`]: N reals to the N/2 + 1 bins and back |
//! | `convolution.rs` | [`Convolution`]: linear and circular convolution and correlation |
//! | `stockham_mirror/` | the CPU mirror of the passes (what the self-tests compare with) |
//! | `reference.rs` | host references and the paper's error measures |
//! | `scale.rs`, `twiddle.rs` | block floating point; the twiddle and chirp tables |
//!
//! Plan once (textures, programs, twiddles), then upload, execute and read back as often as
//! needed; data stays on the GPU between stages, transforms and pointwise products.

mod bluestein;
mod convolution;
mod error;
mod fft_plan;
mod gpu_fft;
mod options;
mod planner;
mod real_plan;
pub mod reference;
pub mod scale;
#[doc(hidden)] // For df64gl-cli and the tests: not part of the API.
pub mod stockham_mirror;
mod stockham_plan;
mod twiddle;

pub use convolution::{Convolution, Product, Wrap};
pub use error::FftError;
pub use fft_plan::FftPlan;
pub use gpu_fft::{FftData, GpuFft};
pub use options::{Direction, FftOptions, FftPrecision, FftShape, QfWrite, Radix, TwiddleSource};
pub use planner::{AxisAlgorithm, FftPlanner, PlannedOptions};
pub use real_plan::RealFftPlan;
/// The complex double the f64 upload and download take (rustfft's).
pub use rustfft::num_complex::Complex64;
pub use scale::{BlockScaled, Underflow};
pub use stockham_plan::StockhamPlan;

/// The paper's operation count of one N-point transform, 5 N log2 N, over `seconds`, in GFLOP/s.
pub fn gflops(n: usize, seconds: f64) -> f64 {
    5.0 * n as f64 * (n as f64).log2() / seconds / 1e9
}
