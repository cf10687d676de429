//! The interface every GPU plan implements ([`GpuFft`]) and the data formats it moves
//! ([`FftData`]): the upload and download of each format are written once, here, on top of
//! the one exact representation every plan takes and gives, [`BlockScaled`] (qf128 words and
//! a power-of-two exponent).

use rustfft::num_complex::{Complex32, Complex64};

use crate::gl::Timing;
use crate::numeric::df64::{ComplexDf64, Df64};
use crate::numeric::qf128::{ComplexQf128, Qf128};

use super::scale::{first_non_finite, ldexp, BlockScaled, Underflow};
use super::{Direction, FftError, FftOptions, FftPrecision, FftShape};

/// A planned transform on the GPU: [`StockhamPlan`](super::StockhamPlan),
/// [`FftPlan`](super::FftPlan) (any length, Bluestein where needed) and
/// [`RealFftPlan`](super::RealFftPlan) all implement it, so code written against it runs any
/// of them.
///
/// ```
/// use df64gl::fft::{Complex64, Direction, FftPlanner, FftPrecision, FftShape, GpuFft};
/// # use df64gl::gl::{DeviceChoice, GlContext};
/// # use df64gl::kernels::Df64Kernels;
/// # use df64gl::probe::probe_driver;
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # let ctx = GlContext::headless(&DeviceChoice::Auto)?;
/// # let kernels = Df64Kernels::new(&ctx, &probe_driver(&ctx, false)?)?;
/// let planner = FftPlanner::new(&kernels);
/// let mut plan = planner.plan(FftShape::Rows { n: 12, batch: 1 }, FftPrecision::Df64)?;
/// let x: Vec<Complex64> = (0..12).map(|t| Complex64::new(t as f64, 1.0)).collect();
/// let spectrum: Vec<Complex64> = plan.transform(&x, Direction::Forward)?;
/// let sum: Complex64 = x.iter().sum();
/// assert!((spectrum[0] - sum).norm() < 1e-12);
/// # Ok(())
/// # }
/// ```
pub trait GpuFft {
    /// The shape of the data the forward transform takes (a real plan: rows of reals).
    fn shape(&self) -> FftShape;

    /// The options it runs with (as the planner settled them).
    fn options(&self) -> FftOptions;

    /// Full-screen passes one forward transform draws.
    fn passes(&self) -> usize;

    /// Loads `words * 2^exponent`: the exact form every format goes through. Returns what
    /// could not be kept (parts about 2^126 below the largest; see [`Underflow`]).
    fn upload_scaled(&mut self, data: &BlockScaled) -> Result<Underflow, FftError>;

    /// The data on the GPU exactly, at any magnitude.
    fn download_scaled(&self) -> Result<BlockScaled, FftError>;

    /// Runs the transform on the data on the GPU; returns the time of its passes.
    fn execute(&mut self, direction: Direction) -> Result<Timing, FftError>;

    /// [`execute`](Self::execute) reading every pass back: slow, for finding the pass where a
    /// NaN or infinity first appears (the error names it).
    fn execute_checked(&mut self, direction: Direction) -> Result<(), FftError>;

    /// The arithmetic.
    fn precision(&self) -> FftPrecision {
        self.options().precision
    }

    /// Loads data in any [`FftData`] format (rounded to the plan's precision, block-scaled).
    fn upload<D: FftData>(&mut self, data: &[D]) -> Result<Underflow, FftError>
    where
        Self: Sized,
    {
        self.upload_scaled(&D::to_scaled(data)?)
    }

    /// Reads the data on the GPU back in any [`FftData`] format.
    fn download<D: FftData>(&self) -> Result<Vec<D>, FftError>
    where
        Self: Sized,
    {
        D::from_scaled(&self.download_scaled()?, self.precision())
    }

    /// Upload, execute, download, in one format.
    fn transform<D: FftData>(
        &mut self,
        data: &[D],
        direction: Direction,
    ) -> Result<Vec<D>, FftError>
    where
        Self: Sized,
    {
        self.upload(data)?;
        self.execute(direction)?;
        self.download()
    }
}

/// A format of the data a plan uploads and downloads: complex or real, in f32, f64, df64 or
/// qf128. Reals are complex values with zero imaginary parts (a real plan's time domain, or a
/// complex plan fed real data); reading reals back from data with a non-zero imaginary part is
/// an error.
pub trait FftData: Sized + Copy {
    /// The values as exact block-scaled words; an error naming the first NaN or infinity.
    fn to_scaled(data: &[Self]) -> Result<BlockScaled, FftError>;

    /// The values of `data`, read from a plan of `precision` (df64 and f32 plans: the words
    /// as the GPU left them; qf128 and f64 plans: rounded); an error naming the first value
    /// this format cannot hold.
    fn from_scaled(data: &BlockScaled, precision: FftPrecision) -> Result<Vec<Self>, FftError>;
}

/// Exact qf128 words with exponent 0 (the plan rescales them), after the finiteness check.
fn words_scaled(words: Vec<ComplexQf128>) -> Result<BlockScaled, FftError> {
    if let Some(i) = first_non_finite(&words) {
        return Err(FftError::NonFinite(i));
    }
    Ok(BlockScaled {
        words,
        exponent: 0,
        underflow: Underflow::default(),
    })
}

/// A GPU word times 2^`exponent` as an f32; `None` past f32's range.
fn unscale_word(w: f32, exponent: i32) -> Option<f32> {
    let v = ldexp(w as f64, exponent) as f32;
    v.is_finite().then_some(v)
}

/// The words unscaled to f32 exponents (exact while they lie in f32's range).
fn unscaled_qf128(data: &BlockScaled) -> Result<Vec<ComplexQf128>, FftError> {
    data.words
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let q = |x: Qf128| -> Option<Qf128> {
                let mut out = [0.0f32; 4];
                for (o, w) in out.iter_mut().zip(x.x) {
                    *o = unscale_word(w, data.exponent)?;
                }
                Some(Qf128 { x: out })
            };
            match (q(c.re), q(c.im)) {
                (Some(re), Some(im)) => Ok(ComplexQf128 { re, im }),
                _ => Err(FftError::ResultOutOfRange {
                    element: i,
                    what: "f32's exponents (df64 and qf128 words)".into(),
                }),
            }
        })
        .collect()
}

/// A qf128 word set as df64: rounded for qf128 and f64 plans, the two words as the GPU left
/// them for df64 and f32 plans (exactly what the passes computed).
fn df64_of(x: Qf128, precision: FftPrecision) -> Df64 {
    match precision {
        FftPrecision::Qf128 | FftPrecision::F64 => x.to_df64(),
        FftPrecision::Df64 | FftPrecision::F32 => Df64::new(x.x[0], x.x[1]),
    }
}

/// The real parts, or an error at the first non-zero imaginary part.
fn real_parts<T>(values: Vec<T>, im_is_zero: impl Fn(&T) -> bool) -> Result<Vec<T>, FftError> {
    if let Some(i) = values.iter().position(|v| !im_is_zero(v)) {
        return Err(FftError::ShapeMismatch(format!(
            "element {i} has a non-zero imaginary part: these data are complex, download them \
             as a complex format (Complex64, ComplexDf64, ComplexQf128)"
        )));
    }
    Ok(values)
}

fn real_words<T>(data: &[T], word: impl Fn(&T) -> Qf128) -> Vec<ComplexQf128> {
    data.iter()
        .map(|x| ComplexQf128::new(word(x), Qf128::ZERO))
        .collect()
}

impl FftData for Complex64 {
    fn to_scaled(data: &[Self]) -> Result<BlockScaled, FftError> {
        BlockScaled::from_f64(data)
    }
    fn from_scaled(data: &BlockScaled, _: FftPrecision) -> Result<Vec<Self>, FftError> {
        data.to_f64()
    }
}

impl FftData for ComplexQf128 {
    fn to_scaled(data: &[Self]) -> Result<BlockScaled, FftError> {
        words_scaled(data.to_vec())
    }
    fn from_scaled(data: &BlockScaled, _: FftPrecision) -> Result<Vec<Self>, FftError> {
        unscaled_qf128(data)
    }
}

impl FftData for ComplexDf64 {
    fn to_scaled(data: &[Self]) -> Result<BlockScaled, FftError> {
        words_scaled(data.iter().map(|c| ComplexQf128::from_df64(*c)).collect())
    }
    fn from_scaled(data: &BlockScaled, precision: FftPrecision) -> Result<Vec<Self>, FftError> {
        Ok(unscaled_qf128(data)?
            .into_iter()
            .map(|c| ComplexDf64 {
                re: df64_of(c.re, precision),
                im: df64_of(c.im, precision),
            })
            .collect())
    }
}

impl FftData for Complex32 {
    fn to_scaled(data: &[Self]) -> Result<BlockScaled, FftError> {
        words_scaled(
            data.iter()
                .map(|c| ComplexQf128::new(Qf128::from_f32(c.re), Qf128::from_f32(c.im)))
                .collect(),
        )
    }
    fn from_scaled(data: &BlockScaled, precision: FftPrecision) -> Result<Vec<Self>, FftError> {
        Ok(ComplexDf64::from_scaled(data, precision)?
            .into_iter()
            .map(|c| Complex32::new(c.re.to_f32(), c.im.to_f32()))
            .collect())
    }
}

impl FftData for f64 {
    fn to_scaled(data: &[Self]) -> Result<BlockScaled, FftError> {
        let c: Vec<Complex64> = data.iter().map(|x| Complex64::new(*x, 0.0)).collect();
        BlockScaled::from_f64(&c)
    }
    fn from_scaled(data: &BlockScaled, _: FftPrecision) -> Result<Vec<Self>, FftError> {
        Ok(real_parts(data.to_f64()?, |c| c.im == 0.0)?
            .into_iter()
            .map(|c| c.re)
            .collect())
    }
}

impl FftData for f32 {
    fn to_scaled(data: &[Self]) -> Result<BlockScaled, FftError> {
        words_scaled(real_words(data, |x| Qf128::from_f32(*x)))
    }
    fn from_scaled(data: &BlockScaled, precision: FftPrecision) -> Result<Vec<Self>, FftError> {
        Ok(Df64::from_scaled(data, precision)?
            .into_iter()
            .map(|x| x.to_f32())
            .collect())
    }
}

impl FftData for Df64 {
    fn to_scaled(data: &[Self]) -> Result<BlockScaled, FftError> {
        words_scaled(real_words(data, |x| Qf128::from_df64(*x)))
    }
    fn from_scaled(data: &BlockScaled, precision: FftPrecision) -> Result<Vec<Self>, FftError> {
        Ok(real_parts(ComplexDf64::from_scaled(data, precision)?, |c| {
            c.im.hi == 0.0 && c.im.lo == 0.0
        })?
        .into_iter()
        .map(|c| c.re)
        .collect())
    }
}

impl FftData for Qf128 {
    fn to_scaled(data: &[Self]) -> Result<BlockScaled, FftError> {
        words_scaled(real_words(data, |x| *x))
    }
    fn from_scaled(data: &BlockScaled, _: FftPrecision) -> Result<Vec<Self>, FftError> {
        Ok(
            real_parts(unscaled_qf128(data)?, |c| c.im.x.iter().all(|w| *w == 0.0))?
                .into_iter()
                .map(|c| c.re)
                .collect(),
        )
    }
}
