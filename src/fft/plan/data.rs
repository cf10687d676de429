//! Moving data in and out of a plan: upload (exact power-of-two block scaling into the words
//! the passes read) and download (back to df64, qf128 or f64), for every precision.

use super::*;

impl StockhamPlan {
    pub(super) fn check_len(&self, got: usize) -> Result<(), FftError> {
        if got != self.len() {
            return Err(FftError::LengthMismatch { got, n: self.len() });
        }
        Ok(())
    }

    /// Loads complex df64 data (f32 plans keep the high words, qf128 plans take it exactly),
    /// block-scaled: returns what could not be kept (parts ~2^126 below the largest).
    pub fn upload(&mut self, data: &[ComplexDf64]) -> Result<Underflow, FftError> {
        let q: Vec<ComplexQf128> = data.iter().map(|c| ComplexQf128::from_df64(*c)).collect();
        self.upload_qf128(&q)
    }

    /// Loads complex qf128 data (df64 and f32 plans round it to their precision).
    pub fn upload_qf128(&mut self, data: &[ComplexQf128]) -> Result<Underflow, FftError> {
        self.check_len(data.len())?;
        if let Some(i) = first_non_finite(data) {
            return Err(FftError::NonFinite(i));
        }
        self.upload_scaled(&BlockScaled {
            words: data.to_vec(),
            exponent: 0,
            underflow: Underflow::default(),
        })
    }

    /// Loads any finite f64 data (1e-300 and 1e300 alike), block-scaled.
    pub fn upload_f64(&mut self, data: &[Complex64]) -> Result<Underflow, FftError> {
        self.check_len(data.len())?;
        self.upload_scaled(&BlockScaled::from_f64(data)?)
    }

    /// Loads `words * 2^exponent` (rounded to the plan's precision), rescaled so the largest
    /// part lies in [0.5, 1) unless block scaling is off; returns every part flushed on the way.
    pub fn upload_scaled(&mut self, data: &BlockScaled) -> Result<Underflow, FftError> {
        self.check_len(data.len())?;
        let rescaled;
        let data = if self.options.block_scaling {
            rescaled = BlockScaled::from_qf128(&data.words, data.exponent)?;
            &BlockScaled {
                underflow: data.underflow.merge(rescaled.underflow),
                ..rescaled
            }
        } else {
            data
        };
        self.write_words(&self.natural[self.front], data)?;
        self.exponent = data.exponent;
        // Parts below 1 each: complex magnitudes below 2^1 (a bound only, for unscaled data).
        self.bound_log2 = 1;
        self.history.clear();
        Ok(data.underflow)
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

    /// The current data exactly as block-scaled words (full precision, any magnitude).
    pub fn download_scaled(&self) -> Result<BlockScaled, FftError> {
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

    /// Reads the current data back as complex f64 (every precision's value to f64's 53 bits).
    pub fn download_f64(&self) -> Result<Vec<Complex64>, FftError> {
        self.download_scaled()?.to_f64()
    }

    /// Reads the current data back as complex df64 (qf128 plans round to df64); an error when
    /// a value exceeds f32's exponent range (read those with `download_f64`).
    pub fn download(&self) -> Result<Vec<ComplexDf64>, FftError> {
        let qf = matches!(
            self.options.precision,
            FftPrecision::Qf128 | FftPrecision::F64
        );
        let df64 = |x: Qf128| {
            if qf {
                x.to_df64()
            } else {
                Df64::new(x.x[0], x.x[1])
            }
        };
        Ok(self
            .download_qf128()?
            .into_iter()
            .map(|c| ComplexDf64 {
                re: df64(c.re),
                im: df64(c.im),
            })
            .collect())
    }

    /// Reads the current data back as complex qf128 (exact for every precision while the
    /// values lie in f32's exponent range; an error naming the element otherwise).
    pub fn download_qf128(&self) -> Result<Vec<ComplexQf128>, FftError> {
        let data = self.download_scaled()?;
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

    /// The exponent of the data on the GPU (see [`BlockScaled`]).
    pub fn exponent(&self) -> i32 {
        self.exponent
    }
}
