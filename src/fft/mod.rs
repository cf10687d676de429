//! The texture-based transposed Stockham FFT (Thall's Algorithms 8 to 10): the data as a
//! W x H RGBA32F texture of complex df64 values, one full-screen fragment pass per stage,
//! ping-pong between two textures, and the N-1 twiddles W_long in a texture of their own.
//!
//! Plan once (textures, program, twiddles), then upload, execute and read back as often as
//! needed; the data stays on the GPU between stages and between transforms.

use thiserror::Error;

use crate::gl::{
    timed, GlContext, GlError, GlslLibrary, Layout, Pass, PingPong, Program, Texture, Timing,
    Uniform,
};
use crate::kernels::{Df64Kernels, KernelError};
use crate::numeric::df64::ComplexDf64;
use crate::probe::DriverConfig;

#[derive(Debug, Error)]
pub enum FftError {
    #[error("FFT length {0} is not a power of two: pad the input with zeros to the next power of two ({1})")]
    NotPowerOfTwo(usize, usize),
    #[error("FFT length {0} is too small: the transform needs at least 2 points")]
    TooShort(usize),
    #[error(transparent)]
    Gl(#[from] GlError),
    #[error(transparent)]
    Kernel(#[from] KernelError),
    #[error("data of {got} points given to a plan of {n} points")]
    LengthMismatch { got: usize, n: usize },
}

/// Arithmetic of the transform.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum FftPrecision {
    /// Plain f32 complex arithmetic: the baseline.
    F32,
    /// Complex df64 with the accurate df64 routines.
    Df64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Forward,
    /// The inverse transform with the 1/N scaling.
    Inverse,
}

/// A planned transform of one length and precision.
pub struct StockhamPlan {
    ctx: GlContext,
    n: usize,
    log2_n: u32,
    layout: Layout,
    precision: FftPrecision,
    program: Program,
    twiddles: Texture,
    buffers: PingPong,
}

/// W_long: w_L^j = exp(-2 pi i j / L) for L = 2, 4, ..., n, j < L/2, at index L/2 + j - 1,
/// computed in f64 (sin and cos to about 1 f64 ulp, so each twiddle is the nearest df64 to
/// within a hair).
pub fn twiddles(n: usize) -> Vec<ComplexDf64> {
    let mut w = vec![ComplexDf64::default(); n.max(1)];
    let mut l = 2;
    while l <= n {
        let half = l / 2;
        for j in 0..half {
            let angle = -2.0 * std::f64::consts::PI * j as f64 / l as f64;
            w[half + j - 1] = ComplexDf64::from_f64(angle.cos(), angle.sin());
        }
        l *= 2;
    }
    w
}

impl StockhamPlan {
    /// Plans an `n`-point transform (n a power of two, 2 to the texture limit squared).
    pub fn new(kernels: &Df64Kernels, n: usize, precision: FftPrecision) -> Result<Self, FftError> {
        let ctx = kernels.context().clone();
        Self::with_config(&ctx, kernels.config(), n, precision)
    }

    fn with_config(
        ctx: &GlContext,
        config: DriverConfig,
        n: usize,
        precision: FftPrecision,
    ) -> Result<Self, FftError> {
        if n < 2 {
            return Err(FftError::TooShort(n));
        }
        if !n.is_power_of_two() {
            return Err(FftError::NotPowerOfTwo(n, n.next_power_of_two()));
        }
        let layout = Layout::power_of_two(n, ctx.info().max_texture_size)?;
        let mut defines = config.defines();
        if precision == FftPrecision::F32 {
            defines.push(("FFT_F32".into(), "1".into()));
        }
        let program = Program::build(ctx, &GlslLibrary::builtin(), "stockham.glsl", &defines)?;
        let mut w = twiddles(n);
        if precision == FftPrecision::F32 {
            for t in &mut w {
                t.re.lo = 0.0;
                t.im.lo = 0.0;
            }
        }
        let twiddles = Texture::with_data(ctx, layout.width, layout.height, &w)?;
        let buffers = PingPong::new(ctx, layout.width, layout.height)?;
        Ok(StockhamPlan {
            ctx: ctx.clone(),
            n,
            log2_n: n.trailing_zeros(),
            layout,
            precision,
            program,
            twiddles,
            buffers,
        })
    }

    pub fn len(&self) -> usize {
        self.n
    }

    pub fn is_empty(&self) -> bool {
        false
    }

    pub fn precision(&self) -> FftPrecision {
        self.precision
    }

    /// Texture width x height the data lives in.
    pub fn shape(&self) -> (u32, u32) {
        (self.layout.width, self.layout.height)
    }

    /// Loads `data` onto the GPU (f32 plans drop the low words).
    pub fn upload(&mut self, data: &[ComplexDf64]) -> Result<(), FftError> {
        if data.len() != self.n {
            return Err(FftError::LengthMismatch {
                got: data.len(),
                n: self.n,
            });
        }
        if self.precision == FftPrecision::F32 {
            let v: Vec<ComplexDf64> = data
                .iter()
                .map(|c| {
                    let mut c = *c;
                    c.re.lo = 0.0;
                    c.im.lo = 0.0;
                    c
                })
                .collect();
            self.buffers.front().upload(&self.ctx, &v)?;
        } else {
            self.buffers.front().upload(&self.ctx, data)?;
        }
        Ok(())
    }

    /// Runs the log2(N) stages on the data on the GPU; returns the time of the passes.
    pub fn execute(&mut self, direction: Direction) -> Result<Timing, FftError> {
        let conj = if direction == Direction::Inverse {
            -1.0
        } else {
            1.0
        };
        let log2_width = self.layout.width.trailing_zeros() as i32;
        let inv_n = 1.0 / self.n as f32; // a power of two: exact
        let (ctx, program, twiddles, n, log2_n) = (
            &self.ctx,
            &self.program,
            &self.twiddles,
            self.n,
            self.log2_n,
        );
        let buffers = &mut self.buffers;
        let ((), timing) = timed(ctx, || {
            for q in 1..=log2_n {
                let last = q == log2_n;
                let scale = if last && direction == Direction::Inverse {
                    inv_n
                } else {
                    1.0
                };
                Pass::new(program)
                    .input("u_data", buffers.front())
                    .input("u_twiddle", twiddles)
                    .uniform("u_L", Uniform::I32(1 << q))
                    .uniform("u_n", Uniform::I32(n as i32))
                    .uniform("u_log2_width", Uniform::I32(log2_width))
                    .uniform("u_conj", Uniform::F32(conj))
                    .uniform("u_scale", Uniform::F32(scale))
                    .run(ctx, buffers.back_framebuffer())?;
                buffers.swap();
            }
            Ok(())
        })?;
        Ok(timing)
    }

    /// Reads the current data back.
    pub fn download(&self) -> Result<Vec<ComplexDf64>, FftError> {
        Ok(self.buffers.front_framebuffer().read(&self.ctx, 0)?)
    }

    /// Upload, execute, download.
    pub fn transform(
        &mut self,
        data: &[ComplexDf64],
        direction: Direction,
    ) -> Result<Vec<ComplexDf64>, FftError> {
        self.upload(data)?;
        self.execute(direction)?;
        self.download()
    }
}
