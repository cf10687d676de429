//! The real-input FFT: N reals x packed as N/2 complex z_k = x_2k + i x_2k+1, an N/2-point
//! complex transform, and one more pass on the GPU that separates the even and odd halves into
//! the N/2 + 1 bins X_0 .. X_(N/2) (the rest are their conjugates). The inverse runs the same
//! way back: one pass that joins the bins into N/2 complex values, an inverse N/2-point
//! transform, and the packed reals are the N reals (with the inverse's 1/N).

use crate::gl::{timed, Timing};
use crate::kernels::Df64Kernels;
use crate::numeric::qf128::{ComplexQf128, Qf128};

use super::stockham_plan::StockhamPlan;
use super::{BlockScaled, Direction, FftData, FftError, FftOptions, FftShape, GpuFft, Underflow};

/// What the GPU holds: the packed reals (time domain) or the packed bins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Holds {
    Reals,
    Bins,
}

/// `batch` real transforms of `n` points each. As a [`GpuFft`], its time domain is `batch * n`
/// reals (upload them as any real format, or complex with zero imaginary parts) and its
/// frequency domain the `batch * (n/2 + 1)` bins X_0 ..= X_(N/2) of each row; the length of
/// what is uploaded says which. `execute(Forward)` takes reals to bins, `execute(Inverse)`
/// bins to reals (with 1/N).
pub struct RealFftPlan {
    inner: StockhamPlan,
    n: usize,
    batch: usize,
    holds: Holds,
}

impl RealFftPlan {
    /// Plans `batch` real transforms of `n` points (a power of two, at least 4).
    ///
    /// ```
    /// use df64gl::fft::{Complex64, Direction, FftOptions, FftPrecision, GpuFft, RealFftPlan};
    /// use df64gl::numeric::df64::Df64;
    /// # use df64gl::gl::{DeviceChoice, GlContext};
    /// # use df64gl::kernels::Df64Kernels;
    /// # use df64gl::probe::probe_driver;
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let ctx = GlContext::headless(&DeviceChoice::Auto)?;
    /// # let kernels = Df64Kernels::new(&ctx, &probe_driver(&ctx, false)?)?;
    /// // cos(2 pi 3 t / 16): all its energy in bin 3, 16/2 = 8.
    /// let x: Vec<Df64> = (0..16)
    ///     .map(|t| Df64::from_f64((std::f64::consts::TAU * 3.0 * t as f64 / 16.0).cos()))
    ///     .collect();
    /// let mut plan = RealFftPlan::new(&kernels, 16, 1, FftOptions::new(FftPrecision::Df64))?;
    /// plan.upload(&x)?;
    /// plan.execute(Direction::Forward)?;
    /// let bins: Vec<Complex64> = plan.download()?;
    /// assert_eq!(bins.len(), plan.bins());
    /// assert!((bins[3].re - 8.0).abs() < 1e-13 && bins[2].norm() < 1e-13);
    /// # Ok(())
    /// # }
    /// ```
    pub fn new(
        kernels: &Df64Kernels,
        n: usize,
        batch: usize,
        options: FftOptions,
    ) -> Result<Self, FftError> {
        if n < 4 {
            return Err(FftError::TooShort(
                n,
                "reals (the real-input FFT needs 4)".into(),
            ));
        }
        if !n.is_power_of_two() {
            return Err(FftError::not_power_of_two(n));
        }
        let shape = FftShape::Rows { n: n / 2, batch };
        // The separating pass needs w_N^k, k < N/2: the W_long table of N points.
        let inner = StockhamPlan::build(
            kernels.context(),
            kernels.config(),
            kernels.proof(),
            shape,
            options,
            n,
        )?;
        Ok(RealFftPlan {
            inner,
            n,
            batch,
            holds: Holds::Reals,
        })
    }

    /// Real samples per row.
    pub fn len(&self) -> usize {
        self.n
    }

    /// Never true.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Bins per row: N/2 + 1.
    pub fn bins(&self) -> usize {
        self.n / 2 + 1
    }

    /// Rows of N reals (as complex words with zero imaginary parts) to rows of N/2 packed
    /// complex values z_k = x_2k + i x_2k+1.
    fn pack_reals(&self, words: &[ComplexQf128]) -> Result<Vec<ComplexQf128>, FftError> {
        if let Some(i) = words.iter().position(|c| c.im.x.iter().any(|w| *w != 0.0)) {
            return Err(FftError::ShapeMismatch(format!(
                "element {i} of the {} reals has a non-zero imaginary part: a real FFT takes \
                 reals (use FftPlan for complex data)",
                self.n * self.batch
            )));
        }
        Ok(words
            .chunks_exact(2)
            .map(|p| ComplexQf128::new(p[0].re, p[1].re))
            .collect())
    }

    /// Rows of N/2 + 1 bins to rows of N/2: bin 0 carries X_0 in re and X_(N/2) in im.
    fn pack_bins(&self, bins: &[ComplexQf128]) -> Result<Vec<ComplexQf128>, FftError> {
        let m = self.n / 2;
        let mut out = Vec::with_capacity(self.batch * m);
        for (row, b) in bins.chunks_exact(m + 1).enumerate() {
            for bin in [0, m] {
                if b[bin].im.x.iter().any(|w| *w != 0.0) {
                    return Err(FftError::NotReal {
                        row,
                        bin,
                        n: self.n,
                    });
                }
            }
            out.push(ComplexQf128::new(b[0].re, b[m].re));
            out.extend_from_slice(&b[1..m]);
        }
        Ok(out)
    }

    /// Bin 0 holds X_0 in its real part and X_(N/2) (also real) in its imaginary part.
    fn unpack_bins(&self, packed: &[ComplexQf128]) -> Vec<ComplexQf128> {
        let m = self.n / 2;
        let real = |re: Qf128| ComplexQf128::new(re, Qf128::ZERO);
        let mut out = Vec::with_capacity(self.batch * (m + 1));
        for row in packed.chunks_exact(m) {
            out.push(real(row[0].re));
            out.extend_from_slice(&row[1..]);
            out.push(real(row[0].im));
        }
        out
    }

    /// The plan must hold what a transform in `direction` takes: reals forward, bins back.
    fn expect_input_of(&self, direction: Direction) -> Result<(), FftError> {
        let takes = match direction {
            Direction::Forward => Holds::Reals,
            Direction::Inverse => Holds::Bins,
        };
        if self.holds == takes {
            return Ok(());
        }
        Err(FftError::ShapeMismatch(match direction {
            Direction::Forward => format!(
                "the forward real transform takes the reals and the plan holds bins: upload \
                 {} reals first",
                self.n * self.batch
            ),
            Direction::Inverse => format!(
                "the inverse real transform takes the bins and the plan holds reals: upload \
                 {} bins (N/2 + 1 a row) or run the forward transform first",
                self.bins() * self.batch
            ),
        }))
    }

    fn run(&mut self, direction: Direction, check: bool) -> Result<(), FftError> {
        match direction {
            Direction::Forward => {
                self.inner.run(Direction::Forward, check)?;
                self.inner.real_post()?;
                self.holds = Holds::Bins;
            }
            Direction::Inverse => {
                self.inner.real_pre()?;
                self.inner.run(Direction::Inverse, check)?;
                self.holds = Holds::Reals;
            }
        }
        Ok(())
    }

    /// Upload reals, transform, download bins (in any formats).
    pub fn forward<R: FftData, C: FftData>(&mut self, reals: &[R]) -> Result<Vec<C>, FftError> {
        self.upload(reals)?;
        self.execute(Direction::Forward)?;
        self.download()
    }

    /// Upload bins, inverse transform (with 1/N), download reals (in any formats).
    pub fn inverse<C: FftData, R: FftData>(&mut self, bins: &[C]) -> Result<Vec<R>, FftError> {
        self.upload(bins)?;
        self.execute(Direction::Inverse)?;
        self.download()
    }
}

impl GpuFft for RealFftPlan {
    /// Rows of `n` reals.
    fn shape(&self) -> FftShape {
        FftShape::Rows {
            n: self.n,
            batch: self.batch,
        }
    }

    fn options(&self) -> FftOptions {
        self.inner.options()
    }

    /// The complex transform's passes and the separating pass.
    fn passes(&self) -> usize {
        self.inner.passes() + 1
    }

    /// `batch * n` reals (complex words with zero imaginary parts) or `batch * (n/2 + 1)`
    /// bins; X_0 and X_(N/2) of a real signal are real, so a non-zero imaginary part there
    /// is an error.
    fn upload_scaled(&mut self, data: &BlockScaled) -> Result<Underflow, FftError> {
        let (reals, bins) = (self.n * self.batch, self.bins() * self.batch);
        let (packed, holds) = if data.len() == reals {
            (self.pack_reals(&data.words)?, Holds::Reals)
        } else if data.len() == bins {
            (self.pack_bins(&data.words)?, Holds::Bins)
        } else {
            // The nearer of the two lengths it takes is the one the caller meant.
            let n = if data.len().abs_diff(bins) < data.len().abs_diff(reals) {
                bins
            } else {
                reals
            };
            return Err(FftError::LengthMismatch { got: data.len(), n });
        };
        let underflow = self.inner.upload_scaled(&BlockScaled {
            words: packed,
            ..*data
        })?;
        self.holds = holds;
        Ok(underflow)
    }

    /// The reals (complex words with zero imaginary parts) or the bins, whichever it holds.
    fn download_scaled(&self) -> Result<BlockScaled, FftError> {
        let packed = self.inner.download_scaled()?;
        let words = match self.holds {
            Holds::Reals => packed
                .words
                .iter()
                .flat_map(|z| {
                    [
                        ComplexQf128::new(z.re, Qf128::ZERO),
                        ComplexQf128::new(z.im, Qf128::ZERO),
                    ]
                })
                .collect(),
            Holds::Bins => self.unpack_bins(&packed.words),
        };
        Ok(BlockScaled { words, ..packed })
    }

    fn execute(&mut self, direction: Direction) -> Result<Timing, FftError> {
        self.expect_input_of(direction)?;
        let ctx = self.inner.context().clone();
        // A rescale (rare) reads the data back: outside the timed passes.
        self.inner.ensure_headroom()?;
        let ((), t) = timed(&ctx, || self.run(direction, false))?;
        Ok(t)
    }

    fn execute_checked(&mut self, direction: Direction) -> Result<(), FftError> {
        self.expect_input_of(direction)?;
        self.run(direction, true)
    }
}
