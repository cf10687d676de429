//! The real-input FFT: N reals x packed as N/2 complex z_k = x_2k + i x_2k+1, an N/2-point
//! complex transform, and one more pass on the GPU that separates the even and odd halves into
//! the N/2 + 1 bins X_0 .. X_(N/2) (the rest are their conjugates). The inverse runs the same
//! way back: one pass that joins the bins into N/2 complex values, an inverse N/2-point
//! transform, and the packed reals are the N reals (with the inverse's 1/N).

use crate::gl::{timed, Timing};
use crate::kernels::Df64Kernels;
use crate::numeric::df64::{ComplexDf64, Df64};
use crate::numeric::qf128::{ComplexQf128, Qf128};

use super::plan::{FftShape, StockhamPlan};
use super::{BlockScaled, Direction, FftError, FftOptions, Underflow};
use rustfft::num_complex::Complex64;

/// `batch` real transforms of `n` points each.
pub struct RealFftPlan {
    inner: StockhamPlan,
    n: usize,
    batch: usize,
}

impl RealFftPlan {
    /// Plans `batch` real transforms of `n` points (a power of two, at least 4).
    ///
    /// ```
    /// use df64gl::fft::{FftOptions, FftPrecision, RealFftPlan};
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
    /// plan.execute()?;
    /// let bins = plan.download_f64()?;
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
            return Err(FftError::NotPowerOfTwo(n, n.next_power_of_two()));
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
        Ok(RealFftPlan { inner, n, batch })
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

    /// Loads `batch * n` reals (row after row), block-scaled like [`StockhamPlan::upload`].
    pub fn upload(&mut self, reals: &[Df64]) -> Result<Underflow, FftError> {
        self.check(reals.len())?;
        let z: Vec<ComplexDf64> = reals
            .chunks_exact(2)
            .map(|p| ComplexDf64 { re: p[0], im: p[1] })
            .collect();
        self.inner.upload(&z)
    }

    /// Uploads qf128 reals (all rows).
    pub fn upload_qf128(&mut self, reals: &[Qf128]) -> Result<Underflow, FftError> {
        self.check(reals.len())?;
        let z: Vec<ComplexQf128> = reals
            .chunks_exact(2)
            .map(|p| ComplexQf128::new(p[0], p[1]))
            .collect();
        self.inner.upload_qf128(&z)
    }

    fn check(&self, got: usize) -> Result<(), FftError> {
        if got != self.n * self.batch {
            return Err(FftError::LengthMismatch {
                got,
                n: self.n * self.batch,
            });
        }
        Ok(())
    }

    /// The forward transform on the GPU (complex stages and the separating pass).
    pub fn execute(&mut self) -> Result<Timing, FftError> {
        let ctx = self.inner.context().clone();
        self.inner.ensure_headroom()?;
        let ((), t) = timed(&ctx, || {
            self.inner.run(Direction::Forward, false)?;
            self.inner.real_post()
        })?;
        Ok(t)
    }

    /// Loads `batch * (n/2 + 1)` bins X_0 ..= X_(N/2) per row for the inverse transform. X_0
    /// and X_(N/2) of a real signal are real: a non-zero imaginary part there is an error.
    pub fn upload_bins(&mut self, bins: &[ComplexDf64]) -> Result<Underflow, FftError> {
        let q: Vec<ComplexQf128> = bins.iter().map(|c| ComplexQf128::from_df64(*c)).collect();
        self.upload_bins_qf128(&q)
    }

    /// [`upload_bins`](Self::upload_bins) for f64 bins of any magnitude.
    pub fn upload_bins_f64(&mut self, bins: &[Complex64]) -> Result<Underflow, FftError> {
        self.check_bins(bins.len())?;
        let scaled = BlockScaled::from_f64(bins)?;
        let packed = self.pack_bins(&scaled.words)?;
        self.inner.upload_scaled(&BlockScaled {
            words: packed,
            ..scaled
        })
    }

    /// Uploads the N/2 + 1 bins of each row in qf128, for the inverse transform.
    pub fn upload_bins_qf128(&mut self, bins: &[ComplexQf128]) -> Result<Underflow, FftError> {
        self.check_bins(bins.len())?;
        let packed = self.pack_bins(bins)?;
        self.inner.upload_qf128(&packed)
    }

    fn check_bins(&self, got: usize) -> Result<(), FftError> {
        let want = self.bins() * self.batch;
        if got != want {
            return Err(FftError::LengthMismatch { got, n: want });
        }
        Ok(())
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

    /// The inverse transform on the GPU (with 1/N): the bins on the GPU (uploaded, or left by
    /// [`execute`](Self::execute)) to the N reals of each row.
    pub fn execute_inverse(&mut self) -> Result<Timing, FftError> {
        let ctx = self.inner.context().clone();
        self.inner.ensure_headroom()?;
        let ((), t) = timed(&ctx, || {
            self.inner.real_pre()?;
            self.inner.run(Direction::Inverse, false)
        })?;
        Ok(t)
    }

    /// The reals after [`execute_inverse`](Self::execute_inverse), row after row, to full
    /// precision at any magnitude (re parts of the words; the imaginary parts are 0).
    pub fn download_reals_scaled(&self) -> Result<BlockScaled, FftError> {
        let packed = self.inner.download_scaled()?;
        let words = packed
            .words
            .iter()
            .flat_map(|z| {
                [
                    ComplexQf128::new(z.re, Qf128::ZERO),
                    ComplexQf128::new(z.im, Qf128::ZERO),
                ]
            })
            .collect();
        Ok(BlockScaled { words, ..packed })
    }

    /// The reals after [`execute_inverse`](Self::execute_inverse), rounded to f64.
    pub fn download_reals_f64(&self) -> Result<Vec<f64>, FftError> {
        Ok(self
            .download_reals_scaled()?
            .to_f64()?
            .into_iter()
            .map(|z| z.re)
            .collect())
    }

    /// The reals after [`execute_inverse`](Self::execute_inverse) in df64 (f32 exponents).
    pub fn download_reals(&self) -> Result<Vec<Df64>, FftError> {
        Ok(self
            .inner
            .download()?
            .into_iter()
            .flat_map(|z| [z.re, z.im])
            .collect())
    }

    /// Bins 0 ..= N/2 of every row, in df64.
    pub fn download(&self) -> Result<Vec<ComplexDf64>, FftError> {
        let packed = self.inner.download()?;
        Ok(self.unpack(&packed, |re| ComplexDf64 { re, im: Df64::ZERO }))
    }

    /// Bins 0 ..= N/2 of every row to full precision at any magnitude (see [`BlockScaled`]).
    pub fn download_scaled(&self) -> Result<BlockScaled, FftError> {
        let packed = self.inner.download_scaled()?;
        Ok(BlockScaled {
            words: self.unpack(&packed.words, |re| ComplexQf128::new(re, Qf128::ZERO)),
            ..packed
        })
    }

    /// Bins 0 ..= N/2 of every row, rounded to f64 (no f32 exponent limit).
    pub fn download_f64(&self) -> Result<Vec<Complex64>, FftError> {
        self.download_scaled()?.to_f64()
    }

    /// The N/2 + 1 bins of each row in qf128.
    pub fn download_qf128(&self) -> Result<Vec<ComplexQf128>, FftError> {
        let packed = self.inner.download_qf128()?;
        Ok(self.unpack(&packed, |re| ComplexQf128::new(re, Qf128::ZERO)))
    }

    /// Bin 0 holds X_0 in its real part and X_(N/2) (also real) in its imaginary part.
    fn unpack<C: Copy + ReIm<W>, W: Copy>(&self, packed: &[C], real: impl Fn(W) -> C) -> Vec<C> {
        let m = self.n / 2;
        let mut out = Vec::with_capacity(self.batch * (m + 1));
        for row in packed.chunks_exact(m) {
            out.push(real(row[0].re()));
            out.extend_from_slice(&row[1..]);
            out.push(real(row[0].im()));
        }
        out
    }

    /// The inverse: upload bins, execute, download reals.
    pub fn inverse(&mut self, bins: &[ComplexDf64]) -> Result<Vec<Df64>, FftError> {
        self.upload_bins(bins)?;
        self.execute_inverse()?;
        self.download_reals()
    }

    /// Upload, execute, download.
    pub fn transform(&mut self, reals: &[Df64]) -> Result<Vec<ComplexDf64>, FftError> {
        self.upload(reals)?;
        self.execute()?;
        self.download()
    }
}

/// Real and imaginary parts of a complex element type.
trait ReIm<W> {
    fn re(&self) -> W;
    fn im(&self) -> W;
}

impl ReIm<Df64> for ComplexDf64 {
    fn re(&self) -> Df64 {
        self.re
    }
    fn im(&self) -> Df64 {
        self.im
    }
}

impl ReIm<Qf128> for ComplexQf128 {
    fn re(&self) -> Qf128 {
        self.re
    }
    fn im(&self) -> Qf128 {
        self.im
    }
}
