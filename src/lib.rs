//! df64gl: double-float (df64, about 48 bits) and quad-float (qf128, about 96 bits) arithmetic
//! as OpenGL fragment programs on RGBA32F textures, after Thall (2007), and the FFT built on it.
//!
//! GPUs (and WebGL) compute in f32; a df64 is an unevaluated sum of two f32 (`hi + lo`), a qf128
//! of four, and their arithmetic is built from error-free transforms (twoSum, Dekker's split and
//! twoProd) that only hold when the shader compiler leaves every rounding where it was written.
//! Compilers fold `(a + b) - a` to `b` and fuse or reassociate operations, each in its own way,
//! so nothing here runs on a driver before it has been proven there: [`probe`] measures the
//! driver's f32 arithmetic and the transforms, and every df64 and qf128 program runs a
//! known-answer self-test against its CPU mirror ([`numeric`]) when it is built ([`kernels`]).
//!
//! # Usage
//!
//! Open a context, probe it (the result is cached per driver) and take the proven kernels;
//! then compute element-wise, transform, or export the GLSL for your own renderer.
//!
//! ```
//! use df64gl::gl::{DeviceChoice, GlContext};
//! use df64gl::kernels::{Df64Kernels, Df64Op};
//! use df64gl::numeric::df64::Df64;
//! use df64gl::probe::probe_driver;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let ctx = GlContext::headless(&DeviceChoice::Auto)?;
//! let probe = probe_driver(&ctx, false)?;
//! let kernels = Df64Kernels::new(&ctx, &probe)?;
//!
//! // One third, times three, in df64 on the GPU: 1 to within 2^-46.
//! let third = kernels.apply(Df64Op::Div, &[Df64::from_f64(1.0)], &[Df64::from_f64(3.0)])?;
//! let one = kernels.apply(Df64Op::Mul, &third, &[Df64::from_f64(3.0)])?;
//! assert!((one[0].to_f64() - 1.0).abs() < 2f64.powi(-46));
//! # Ok(())
//! # }
//! ```
//!
//! The FFT of any length, forward and back:
//!
//! ```
//! use df64gl::fft::{Complex64, Direction, FftPlanner, FftPrecision, FftShape, GpuFft};
//! # use df64gl::gl::{DeviceChoice, GlContext};
//! # use df64gl::kernels::Df64Kernels;
//! # use df64gl::probe::probe_driver;
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let ctx = GlContext::headless(&DeviceChoice::Auto)?;
//! # let kernels = Df64Kernels::new(&ctx, &probe_driver(&ctx, false)?)?;
//! let x: Vec<Complex64> = (0..100).map(|t| Complex64::new(t as f64, 0.0)).collect();
//! let planner = FftPlanner::new(&kernels);
//! let mut plan = planner.plan(FftShape::Rows { n: x.len(), batch: 1 }, FftPrecision::Df64)?;
//! plan.upload(&x)?;
//! plan.execute(Direction::Forward)?;
//! plan.execute(Direction::Inverse)?;
//! let back = plan.download::<Complex64>()?;
//! assert!(back.iter().zip(&x).all(|(a, b)| (a - b).norm() < 1e-11));
//! # Ok(())
//! # }
//! ```
//!
//! # Layers
//!
//! Data flows one way, top to bottom (the command lines and the papers' experiments, the
//! benchmarks, the Mandelbrot zoom and the WebGL page are the `df64gl-cli` package in `cli/`,
//! built on this one; a renderer that adds `df64gl` gets none of their dependencies):
//!
//! - [`export`]: the GLSL and WGSL for your own renderer and the checks that prove them on
//!   your context;
//! - [`fft`]: [`fft::FftPlanner`] and the plans behind one interface, [`fft::GpuFft`]:
//!   [`fft::StockhamPlan`] (powers of two), [`fft::FftPlan`] (any length, 1-D to 3-D),
//!   [`fft::RealFftPlan`]; [`fft::Convolution`];
//! - [`kernels`]: [`kernels::Df64Kernels`], the proven element-wise df64 and qf128 programs;
//! - [`probe`]: the driver probe (Thall's Table I), its cache and configuration, and the
//!   exports' machinery (what [`export`] gathers);
//! - [`numeric`]: `Df64`, `Qf128` and their CPU mirrors (the GLSL's algorithms in Rust f32),
//!   the correctly rounded oracle;
//! - [`gl`]: contexts, textures, framebuffers, programs and passes over `glow`.
//!
//! The GLSL modules (`glsl/`) are the shaders; each numeric one has its mirror in the Rust
//! module of the same name.
//!
//! Modules that are public but hidden from these docs (the catalogs' sweeps, known answers,
//! self-test records, the FFT's CPU mirror, the wgpu harness) serve the command line
//! (`df64gl-cli`) and the tests; they are not the API and may change in any release.

// Every public item is documented; keep it so.
#![warn(missing_docs)]

pub mod export;
pub mod fft;
pub mod gl;
mod glsl_text;
pub mod kernels;
pub mod numeric;
pub mod probe;

pub use numeric::df64::{ComplexDf64, Df64};
pub use numeric::qf128::{ComplexQf128, Qf128};

/// The README's Rust examples, compiled (and the FFT one run) as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeExamples;
