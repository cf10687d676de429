//! The real-input FFT: N reals x packed as N/2 complex z_k = x_2k + i x_2k+1, an N/2-point
//! complex transform, and one more pass on the GPU that separates the even and odd halves into
//! the N/2 + 1 bins X_0 .. X_(N/2) (the rest are their conjugates).

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
        let inner = StockhamPlan::build(kernels, shape, options, n)?;
        Ok(RealFftPlan { inner, n, batch })
    }

    pub fn len(&self) -> usize {
        self.n
    }

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
