//! Moving data in and out of a [`StockhamPlan`]: its [`GpuFft`] upload (exact power-of-two
//! block scaling into the words the passes read) and download, for every precision.

use crate::fft::scale::{first_non_finite, qf_to_f64, split_f64, BlockScaled, Underflow};
use crate::fft::{Direction, FftError, FftOptions, FftPrecision, FftShape, GpuFft};
use crate::gl::{Layout, Timing};
use crate::numeric::df64::ComplexDf64;
use crate::numeric::qf128::{ComplexQf128, Qf128};

use super::{double_texel, high_words, texel_double, Buffer, GpuOperand, StockhamPlan};

impl GpuFft for StockhamPlan {
    fn shape(&self) -> FftShape {
        self.shape
    }

    fn options(&self) -> FftOptions {
        self.options
    }

    fn passes(&self) -> usize {
        self.axis_passes().iter().sum()
    }

    /// Loads `words * 2^exponent` (rounded to the plan's precision), rescaled so the largest
    /// part lies in [0.5, 1) unless block scaling is off; returns every part flushed on the way.
    fn upload_scaled(&mut self, data: &BlockScaled) -> Result<Underflow, FftError> {
        self.check_len(data.len())?;
        let rescaled;
        let data = if self.options.block_scaling {
            // Refuses a NaN or infinity, naming its index.
            rescaled = BlockScaled::from_qf128(&data.words, data.exponent)?;
            &BlockScaled {
                underflow: data.underflow.merge(rescaled.underflow),
                ..rescaled
            }
        } else {
            if let Some(i) = first_non_finite(&data.words) {
                return Err(FftError::NonFinite(i));
            }
            data
        };
        self.write_words(&self.natural[self.front], data)?;
        self.exponent = data.exponent;
        // Parts below 1 each: complex magnitudes below 2^1 (a bound only, for unscaled data).
        self.bound_log2 = 1;
        self.history.clear();
        Ok(data.underflow)
    }

    /// The current data exactly as block-scaled words (full precision, any magnitude).
    fn download_scaled(&self) -> Result<BlockScaled, FftError> {
        let words: Vec<ComplexQf128> = if self.options.precision == FftPrecision::Qf128 {
            let fb = &self.natural[self.front].all;
            let re: Vec<Qf128> = fb.read(&self.ctx, 0)?;
            let im: Vec<Qf128> = fb.read(&self.ctx, 1)?;
            re.into_iter()
                .zip(im)
                .take(self.len())
                .map(|(re, im)| ComplexQf128 { re, im })
                .collect()
        } else if self.options.precision == FftPrecision::F64 {
            let v: Vec<[f32; 4]> = self.natural[self.front].all.read(&self.ctx, 0)?;
            v.iter()
                .take(self.len())
                .map(|t| {
                    let (re, im) = texel_double(t);
                    ComplexQf128::new(split_f64(re), split_f64(im))
                })
                .collect()
        } else {
            let mut v: Vec<ComplexDf64> = self.natural[self.front].all.read(&self.ctx, 0)?;
            v.truncate(self.len());
            v.into_iter().map(ComplexQf128::from_df64).collect()
        };
        if let Some(i) = first_non_finite(&words) {
            return Err(self.non_finite(i, self.after()));
        }
        Ok(BlockScaled {
            words,
            exponent: self.exponent,
            underflow: Underflow::default(),
        })
    }

    /// Runs every stage of every axis on the data on the GPU; returns the time of the passes.
    fn execute(&mut self, direction: Direction) -> Result<Timing, FftError> {
        self.execute_passes(direction)
    }

    fn execute_checked(&mut self, direction: Direction) -> Result<(), FftError> {
        self.run(direction, true)
    }
}

impl StockhamPlan {
    pub(super) fn check_len(&self, got: usize) -> Result<(), FftError> {
        if got != self.len() {
            return Err(FftError::LengthMismatch { got, n: self.len() });
        }
        Ok(())
    }

    /// Stores the words of `data` (rounded to the plan's precision) in `buf`.
    pub(super) fn write_words(&self, buf: &Buffer, data: &BlockScaled) -> Result<(), FftError> {
        match self.options.precision {
            FftPrecision::Df64 | FftPrecision::F32 => {
                let f32_only = self.options.precision == FftPrecision::F32;
                let v: Vec<ComplexDf64> = data
                    .words
                    .iter()
                    .map(|c| {
                        let z = ComplexDf64 {
                            re: c.re.to_df64(),
                            im: c.im.to_df64(),
                        };
                        if f32_only {
                            high_words(z)
                        } else {
                            z
                        }
                    })
                    .collect();
                buf.textures[0].upload(&self.ctx, &v)?;
            }
            FftPrecision::F64 => {
                let v: Vec<[f32; 4]> = data
                    .words
                    .iter()
                    .map(|c| double_texel(qf_to_f64(c.re), qf_to_f64(c.im)))
                    .collect();
                buf.textures[0].upload(&self.ctx, &v)?;
            }
            FftPrecision::Qf128 => {
                let re: Vec<Qf128> = data.words.iter().map(|c| c.re).collect();
                let im: Vec<Qf128> = data.words.iter().map(|c| c.im).collect();
                buf.textures[0].upload(&self.ctx, &re)?;
                buf.textures[1].upload(&self.ctx, &im)?;
            }
        }
        Ok(())
    }

    /// A constant factor for [`multiply_by_operand`](Self::multiply_by_operand), kept on the
    /// GPU in the plan's layout and precision (Bluestein's chirps and filters).
    pub(crate) fn operand(&self, data: &[ComplexQf128]) -> Result<GpuOperand, FftError> {
        self.check_len(data.len())?;
        let scaled = BlockScaled::from_qf128(data, 0)?;
        let buffer = Buffer::natural(
            &self.ctx,
            self.natural_layout()?,
            self.options.precision == FftPrecision::Qf128,
        )?;
        self.write_words(&buffer, &scaled)?;
        Ok(GpuOperand {
            buffer,
            exponent: scaled.exponent,
        })
    }

    pub(super) fn natural_layout(&self) -> Result<Layout, FftError> {
        Ok(Layout::power_of_two(
            self.len(),
            self.ctx.info().max_texture_size,
        )?)
    }

    /// Multiplies the data, element by element, by a constant factor (see [`operand`]).
    pub(crate) fn multiply_by_operand(&mut self, factor: &GpuOperand) -> Result<(), FftError> {
        // Words of the factor lie below 1: complex magnitudes below 2^1.
        self.pointwise(&factor.buffer, factor.exponent, 1)
    }

    /// The exponent of the data on the GPU (see [`BlockScaled`]).
    pub fn exponent(&self) -> i32 {
        self.exponent
    }
}
