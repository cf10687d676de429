//! Convolution and correlation through the FFT, data on the GPU from upload to readback: the
//! kernel is transformed once and kept on the GPU; each signal is uploaded, transformed,
//! multiplied by the kernel's spectrum, transformed back and read.
//!
//! - linear (the full result, `a + b - 1` points): both zero-padded to a power of two, so the
//!   transforms are plain Stockham ones;
//! - circular (both of length n): transforms of length n itself (Bluestein where n is not a
//!   power of two).
//!
//! Correlation is the convolution with the kernel reversed and conjugated (done on the host
//! when the kernel is set): linear lags run from -(b - 1) to a - 1, as numpy's
//! `correlate(a, b, "full")`; circular lag k is `sum_n a_((n + k) mod n) conj(b_n)`.

use rustfft::num_complex::Complex64;

use crate::gl::{timed, Timing};
use crate::kernels::Df64Kernels;

use super::{BlockScaled, Direction, FftError, FftOptions, FftPlan, FftShape, GpuFft};

/// How the signal wraps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wrap {
    /// The full linear result, `signal + kernel - 1` points.
    Linear,
    /// Indices modulo n: signal and kernel both of n points, n points out.
    Circular,
}

/// Which product.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Product {
    /// `sum_m a_(k-m) b_m`.
    Convolution,
    /// `sum_n a_(n+k) conj(b_n)`.
    Correlation,
}

/// A planned convolution or correlation of signals of one length with one kernel.
pub struct Convolution {
    signal: FftPlan,
    kernel: FftPlan,
    signal_len: usize,
    kernel_len: usize,
    wrap: Wrap,
    product: Product,
    /// Whether a kernel's spectrum is on the GPU, and whether that kernel was real.
    kernel_set: Option<bool>,
}

impl Convolution {
    /// Plans the convolution of inputs of these lengths (see the type's documentation).
    pub fn new(
        kernels: &Df64Kernels,
        signal_len: usize,
        kernel_len: usize,
        wrap: Wrap,
        product: Product,
        options: FftOptions,
    ) -> Result<Self, FftError> {
        if signal_len == 0 || kernel_len == 0 {
            return Err(FftError::ZeroLength(
                "points of a convolution's signal or kernel".into(),
            ));
        }
        let n = match wrap {
            Wrap::Linear => (signal_len + kernel_len - 1).next_power_of_two().max(2),
            Wrap::Circular => {
                if signal_len != kernel_len {
                    return Err(FftError::ShapeMismatch(format!(
                        "a circular convolution takes a signal and a kernel of the same length; \
                         got {signal_len} and {kernel_len} (pad the shorter one with zeros to \
                         the period you mean, or use the linear convolution)"
                    )));
                }
                signal_len
            }
        };
        let shape = FftShape::Rows { n, batch: 1 };
        Ok(Convolution {
            signal: FftPlan::with_options(kernels, shape, options)?,
            kernel: FftPlan::with_options(kernels, shape, options)?,
            signal_len,
            kernel_len,
            wrap,
            product,
            kernel_set: None,
        })
    }

    /// Points of the result: `signal + kernel - 1` (linear) or n (circular).
    pub fn output_len(&self) -> usize {
        match self.wrap {
            Wrap::Linear => self.signal_len + self.kernel_len - 1,
            Wrap::Circular => self.signal_len,
        }
    }

    /// The transforms' length (the power of two of a linear convolution).
    pub fn transform_len(&self) -> usize {
        self.signal.len()
    }

    /// Sets the kernel (complex, any finite f64): transformed on the GPU and kept there.
    pub fn set_kernel(&mut self, kernel: &[Complex64]) -> Result<(), FftError> {
        if kernel.len() != self.kernel_len {
            return Err(FftError::LengthMismatch {
                got: kernel.len(),
                n: self.kernel_len,
            });
        }
        let n = self.transform_len();
        let zero = Complex64::new(0.0, 0.0);
        let mut padded = vec![zero; n];
        match (self.product, self.wrap) {
            (Product::Convolution, _) => padded[..kernel.len()].copy_from_slice(kernel),
            (Product::Correlation, Wrap::Linear) => {
                for (m, p) in padded.iter_mut().take(kernel.len()).enumerate() {
                    *p = kernel[kernel.len() - 1 - m].conj();
                }
            }
            (Product::Correlation, Wrap::Circular) => {
                for (m, p) in padded.iter_mut().enumerate() {
                    *p = kernel[(n - m) % n].conj();
                }
            }
        }
        self.kernel.upload(&padded)?;
        self.kernel.execute(Direction::Forward)?;
        self.kernel_set = Some(kernel.iter().all(|c| c.im == 0.0));
        Ok(())
    }

    /// Sets a real kernel.
    pub fn set_kernel_real(&mut self, kernel: &[f64]) -> Result<(), FftError> {
        let c: Vec<Complex64> = kernel.iter().map(|v| Complex64::new(*v, 0.0)).collect();
        self.set_kernel(&c)
    }

    /// Uploads a signal, block-scaled (any finite f64).
    pub fn upload_signal(&mut self, signal: &[Complex64]) -> Result<(), FftError> {
        if signal.len() != self.signal_len {
            return Err(FftError::LengthMismatch {
                got: signal.len(),
                n: self.signal_len,
            });
        }
        let mut padded = signal.to_vec();
        padded.resize(self.transform_len(), Complex64::new(0.0, 0.0));
        self.signal.upload(&padded)?;
        Ok(())
    }

    /// The convolution of the signal on the GPU with the kernel, on the GPU: forward
    /// transform, product with the kernel's spectrum, inverse transform.
    pub fn execute(&mut self) -> Result<Timing, FftError> {
        if self.kernel_set.is_none() {
            return Err(FftError::ShapeMismatch(
                "no kernel set: call set_kernel before convolving".into(),
            ));
        }
        self.signal.ensure_factors(Direction::Forward)?;
        self.signal.ensure_factors(Direction::Inverse)?;
        let ctx = self.signal.context().clone();
        let ((), t) = timed(&ctx, || {
            self.signal.run(Direction::Forward, false)?;
            self.signal.multiply_by(&self.kernel)?;
            self.signal.run(Direction::Inverse, false)
        })?;
        Ok(t)
    }

    /// The result to full precision at any magnitude ([`output_len`](Self::output_len) points).
    pub fn download_scaled(&self) -> Result<BlockScaled, FftError> {
        let mut out = self.signal.download_scaled()?;
        out.words.truncate(self.output_len());
        Ok(out)
    }

    /// The result rounded to f64.
    pub fn download_f64(&self) -> Result<Vec<Complex64>, FftError> {
        self.download_scaled()?.to_f64()
    }

    /// Upload, execute, download.
    pub fn apply(&mut self, signal: &[Complex64]) -> Result<Vec<Complex64>, FftError> {
        self.upload_signal(signal)?;
        self.execute()?;
        self.download_f64()
    }

    /// A real signal with a real kernel: the real result.
    pub fn apply_real(&mut self, signal: &[f64]) -> Result<Vec<f64>, FftError> {
        if self.kernel_set == Some(false) {
            return Err(FftError::ShapeMismatch(
                "the kernel is complex, so the result is complex: use apply, or set a real \
                 kernel with set_kernel_real"
                    .into(),
            ));
        }
        let c: Vec<Complex64> = signal.iter().map(|v| Complex64::new(*v, 0.0)).collect();
        Ok(self.apply(&c)?.into_iter().map(|z| z.re).collect())
    }
}
