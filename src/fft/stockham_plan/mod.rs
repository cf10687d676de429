//! [`StockhamPlan`]: transforms of powers of two (and rows of 3 * 2^k, mixed radix), 1-D
//! batches to 3-D: textures, programs and twiddles allocated once, then upload, execute (one
//! full-screen pass per stage, ping-pong) and read back as often as needed.
//!
//! - this file: the plan, its buffers and twiddle textures, and its construction;
//! - `data.rs`: its [`GpuFft`](crate::fft::GpuFft) upload and download (exact block scaling);
//! - `passes.rs`: running the passes (stages, pointwise products, headroom rescale);
//! - `programs.rs`: building each pass's program;
//! - `selftest.rs`: each program's known-answer test against the CPU mirror.

use std::collections::HashMap;
use std::rc::Rc;

mod data;
mod passes;
mod programs;
mod selftest;

use crate::gl::{Framebuffer, GlContext, GlError, Layout, Program, Texture};
use crate::kernels::proof::Proof;
use crate::kernels::Df64Kernels;

use crate::numeric::df64::{ComplexDf64, Df64};
use crate::numeric::qf128::Qf128;
use crate::probe::DriverConfig;

use super::planner::{
    check_memory, extents, judge_attachments, judge_options, mixed_length, table_len, MemoryNeed,
};
use super::stockham_mirror::{ladder, Butterfly, MirrorStage};
use super::twiddle::{base_big, base_f64, w_long_mixed};
use super::{FftError, FftOptions, FftPrecision, FftShape, QfWrite, Radix, TwiddleSource};

/// One 1-D transform direction over the data: `odd * 2^log2_n` elements 2^log2_stride apart
/// (`odd` is the plan's).
#[derive(Debug, Clone, Copy)]
struct Axis {
    log2_n: u32,
    log2_stride: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum PassKind {
    /// A butterfly stage ([`BUTTERFLIES`]), reading planes or natural order.
    Stage {
        stage: MirrorStage,
        from_planes: bool,
    },
    Unscramble,
    RealPost,
    RealPre,
    Pointwise,
    Copy,
}

impl PassKind {
    /// The butterfly row of a stage pass.
    fn butterfly(self) -> Option<&'static Butterfly> {
        match self {
            PassKind::Stage { stage, .. } => stage.butterfly(),
            _ => None,
        }
    }

    /// The GLSL file of this kind's pass (its `main`, after `stockham_common.glsl`).
    fn module(self) -> &'static str {
        match self {
            PassKind::Stage { stage, .. } => stage.butterfly().map_or("", |b| b.module),
            PassKind::RealPost => "stockham_real_post.glsl",
            PassKind::RealPre => "stockham_real_pre.glsl",
            PassKind::Pointwise => "stockham_pointwise.glsl",
            PassKind::Unscramble | PassKind::Copy => "stockham_copy.glsl",
        }
    }

    /// Outputs per fragment: planes written, or 1 for natural order.
    fn outputs(self) -> usize {
        self.butterfly().map_or(1, |b| b.outputs)
    }

    /// The layout defines of `stockham_common.glsl`: outputs per fragment and, where the pass
    /// reads planes, `FFT_IN_PLANES`.
    fn layout_defines(self) -> Vec<(String, String)> {
        let mut defines = vec![("FFT_OUT_SLOTS".to_string(), self.outputs().to_string())];
        if self.reads_planes() {
            defines.push(("FFT_IN_PLANES".into(), "1".into()));
        }
        defines
    }

    fn writes_planes(self) -> bool {
        self.outputs() > 1
    }

    fn reads_planes(self) -> bool {
        match self {
            PassKind::Stage { from_planes, .. } => from_planes,
            PassKind::Unscramble => true,
            _ => false,
        }
    }
}

/// Storage for one copy of the data: natural order (1 texture, or re and im textures for
/// qf128) or planes (one array texture of one layer per output of the writer; 8 for qf128:
/// re from 0, im from 4).
struct Buffer {
    textures: Vec<Texture>,
    /// Every attachment: what a one-pass program writes.
    all: Framebuffer,
    /// qf128 two-pass: the real and the imaginary attachments alone.
    parts: Option<[Framebuffer; 2]>,
    log2_width: u32,
    /// Planes: the writer's outputs per fragment (3, 4 or 8); 1 for natural order.
    planes: usize,
}

impl Buffer {
    fn natural(ctx: &GlContext, layout: Layout, qf: bool) -> Result<Self, FftError> {
        let (w, h) = (layout.width, layout.height);
        let re = Texture::new(ctx, w, h)?;
        if !qf {
            let all = Framebuffer::new(ctx, &[&re])?;
            return Ok(Buffer {
                textures: vec![re],
                all,
                parts: None,
                log2_width: w.trailing_zeros(),
                planes: 1,
            });
        }
        let im = Texture::new(ctx, w, h)?;
        let all = Framebuffer::new(ctx, &[&re, &im])?;
        let parts = [
            Framebuffer::new(ctx, &[&re])?,
            Framebuffer::new(ctx, &[&im])?,
        ];
        Ok(Buffer {
            textures: vec![re, im],
            all,
            parts: Some(parts),
            log2_width: w.trailing_zeros(),
            planes: 1,
        })
    }

    fn planes(
        ctx: &GlContext,
        layout: Layout,
        qf: bool,
        mrt: bool,
        planes: usize,
    ) -> Result<Self, FftError> {
        let (w, h) = (layout.width, layout.height);
        let count = planes as u32;
        let layers = if qf { 8 } else { count };
        let arr = Texture::new_array(ctx, w, h, layers)?;
        let attach = |layers: &mut dyn Iterator<Item = u32>| -> Result<Framebuffer, GlError> {
            let l: Vec<(&Texture, u32)> = layers.map(|i| (&arr, i)).collect();
            Framebuffer::from_layers(ctx, &l)
        };
        let (all, parts) = if !qf {
            (attach(&mut (0..count))?, None)
        } else {
            // Real parts in layers 0.., imaginary parts in 4..: the shader's im offset.
            let re = || 0..count;
            let im = || 4..4 + count;
            let both = || -> Result<Framebuffer, GlError> { attach(&mut re().chain(im())) };
            if mrt {
                (both()?, Some([attach(&mut re())?, attach(&mut im())?]))
            } else {
                (
                    attach(&mut re())?,
                    Some([attach(&mut re())?, attach(&mut im())?]),
                )
            }
        };
        Ok(Buffer {
            textures: vec![arr],
            all,
            parts,
            log2_width: w.trailing_zeros(),
            planes,
        })
    }
}

/// A constant factor on the GPU in a plan's layout: `words * 2^exponent`.
pub(crate) struct GpuOperand {
    buffer: Buffer,
    exponent: i32,
}

/// Where the current data lies.
#[derive(Debug, Clone, Copy)]
enum Loc {
    Natural(usize),
    /// Planes buffer, and the span exponent its writer used.
    Planes(usize, u32),
}

/// One pass just drawn, for an [`Observer`].
struct StageDone {
    index: usize,
    total: usize,
    kind: PassKind,
    loc: Loc,
    /// L after the stage.
    l: usize,
    conj: f32,
    scale: f32,
}

/// Sees every pass's output as a transform runs: the check for non-finite values, the
/// self-tests' comparison with the mirror.
type Observer<'a> = &'a mut dyn FnMut(&StockhamPlan, &StageDone) -> Result<(), FftError>;

/// Largest log2 magnitude the words may reach inside a transform: far enough below f32's
/// 2^128 that Dekker's split (x 4097) and the butterflies' sums cannot overflow.
const HEADROOM_LOG2: i32 = 100;

/// A planned transform of one shape and precision.
pub struct StockhamPlan {
    ctx: GlContext,
    config: DriverConfig,
    options: FftOptions,
    shape: FftShape,
    axes: Vec<Axis>,
    natural: [Buffer; 2],
    /// Planes: a pair for each number of outputs the stages write (4 for radix 4 and the
    /// last radix-2 stage, 8 for radix 8, 3 for radix 3), ping-pong within a pair;
    /// `Loc::Planes` indexes this.
    planes: Vec<Buffer>,
    /// The odd factor of the transform lengths: 1, or the radix of the mixed radix's last stage
    /// (rows of 3 * 2^k points).
    odd: usize,
    front: usize,
    twiddles: Option<(Vec<Texture>, u32)>,
    programs: HashMap<PassKind, Vec<Rc<Program>>>,
    /// The probe's proof, for the programs' self-tests; `None` in a plan that is itself a
    /// self-test (it runs the programs of the plan being proven).
    proof: Option<Proof>,
    /// The data on the GPU are `words * 2^exponent` (block floating point).
    exponent: i32,
    /// log2 of a bound on the words' complex magnitudes, tracked through each pass's growth;
    /// past [`HEADROOM_LOG2`] the data are rescaled before the next transform.
    bound_log2: i32,
    /// What ran since the last upload, for error messages.
    history: Vec<&'static str>,
}

fn log2_checked(n: usize, what: &str) -> Result<u32, FftError> {
    if n < 2 {
        return Err(FftError::TooShort(n, what.to_string()));
    }
    if !n.is_power_of_two() {
        return Err(FftError::not_power_of_two(n));
    }
    Ok(n.trailing_zeros())
}

/// The passes of one axis: the butterfly stages of its ladder, then the unscramble pass when
/// the last stage wrote planes.
fn ladder_kinds(options: &FftOptions, odd: usize, axis: Axis) -> Result<Vec<PassKind>, FftError> {
    let radix = match options.radix {
        Radix::Two => 2,
        Radix::Four => 4,
        Radix::Eight => 8,
    };
    let qf = options.precision == FftPrecision::Qf128;
    let stages = ladder(axis.log2_n, odd, radix, qf).ok_or_else(|| {
        FftError::Unsupported(format!(
            "no butterfly stages for {odd} * 2^{} points in {} at radix {radix}: use FftPlan \
             (Bluestein)",
            axis.log2_n,
            options.precision.name()
        ))
    })?;
    let mut kinds = Vec::new();
    let mut from_planes = false;
    for stage in stages {
        let kind = PassKind::Stage { stage, from_planes };
        from_planes = kind.writes_planes();
        kinds.push(kind);
    }
    if from_planes {
        kinds.push(PassKind::Unscramble);
    }
    Ok(kinds)
}

/// What a plan of a (padded) shape allocates, known before it allocates: its axes, the odd
/// radix of mixed rows, and the output counts whose planes buffers it needs.
pub(crate) struct PlanParts {
    axes: Vec<Axis>,
    odd: usize,
    outputs: Vec<usize>,
}

impl PlanParts {
    pub(crate) fn of(shape: FftShape, options: FftOptions) -> Result<Self, FftError> {
        let mut odd = 1;
        let axes = match shape {
            FftShape::Rows { n, batch } => {
                if batch == 0 || !batch.is_power_of_two() {
                    return Err(FftError::BadBatch(batch));
                }
                let log2_n = match mixed_length(n) {
                    Some((o, log2)) if o > 1 => {
                        odd = o;
                        log2
                    }
                    _ => log2_checked(n, "points")?,
                };
                vec![Axis {
                    log2_n,
                    log2_stride: 0,
                }]
            }
            FftShape::Image { .. } | FftShape::Volume { .. } => {
                // Fastest extent first; each axis strides over the ones before it.
                let names = ["depth", "rows", "columns"];
                let dims = shape.dims();
                let names = &names[names.len() - dims.len()..];
                let mut axes = Vec::new();
                let mut stride = 0;
                for (d, name) in dims.iter().zip(names).rev() {
                    let log2_n = log2_checked(*d, name)?;
                    axes.push(Axis {
                        log2_n,
                        log2_stride: stride,
                    });
                    stride += log2_n;
                }
                axes
            }
        };
        // A pair of planes buffers for each number of outputs the stages write.
        let mut outputs: Vec<usize> = Vec::new();
        for axis in &axes {
            for kind in ladder_kinds(&options, odd, *axis)? {
                if kind.writes_planes() && !outputs.contains(&kind.outputs()) {
                    outputs.push(kind.outputs());
                }
            }
        }
        Ok(PlanParts { axes, odd, outputs })
    }

    /// Texels (RGBA32F) the plan's textures take: two natural buffers, a pair of planes
    /// buffers per output count, the twiddle table of `table_len` points, and `operands`
    /// more natural buffers (Bluestein's factors).
    pub(crate) fn texels(
        &self,
        shape: FftShape,
        options: FftOptions,
        table_len: usize,
        operands: usize,
    ) -> MemoryNeed {
        let qf = options.precision == FftPrecision::Qf128;
        let per_point: u128 = if qf { 2 } else { 1 };
        let total = shape
            .dims()
            .iter()
            .fold(1u128, |acc, d| acc.saturating_mul(*d as u128));
        let natural = per_point * total;
        let planes: u128 = self
            .outputs
            .iter()
            .map(|c| 2 * (total / *c as u128) * if qf { 8 } else { *c as u128 })
            .sum();
        let table = match options.twiddles {
            TwiddleSource::Direct => 0,
            TwiddleSource::Table => per_point * (table_len.max(2) as u128).next_power_of_two(),
        };
        MemoryNeed {
            device_texels: (2 + operands as u128) * natural + planes + table,
            host_texels: natural + table,
        }
    }
}

impl StockhamPlan {
    /// Plans one `n`-point transform with the default options for `precision`.
    ///
    /// ```
    /// use df64gl::fft::{Direction, FftPrecision, GpuFft, StockhamPlan};
    /// use df64gl::numeric::df64::ComplexDf64;
    /// # use df64gl::gl::{DeviceChoice, GlContext};
    /// # use df64gl::kernels::Df64Kernels;
    /// # use df64gl::probe::probe_driver;
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let ctx = GlContext::headless(&DeviceChoice::Auto)?;
    /// # let kernels = Df64Kernels::new(&ctx, &probe_driver(&ctx, false)?)?;
    /// // An impulse at t = 1: its spectrum is w^k = exp(-2 pi i k / 8).
    /// let mut x = vec![ComplexDf64::from_f64(0.0, 0.0); 8];
    /// x[1] = ComplexDf64::from_f64(1.0, 0.0);
    /// let mut plan = StockhamPlan::new(&kernels, 8, FftPrecision::Df64)?;
    /// let spectrum = plan.transform(&x, Direction::Forward)?;
    /// let angle = -std::f64::consts::TAU * 3.0 / 8.0;
    /// assert!((spectrum[3].re.to_f64() - angle.cos()).abs() < 1e-14);
    /// assert!((spectrum[3].im.to_f64() - angle.sin()).abs() < 1e-14);
    /// # Ok(())
    /// # }
    /// ```
    pub fn new(kernels: &Df64Kernels, n: usize, precision: FftPrecision) -> Result<Self, FftError> {
        Self::with_options(
            kernels,
            FftShape::Rows { n, batch: 1 },
            FftOptions::new(precision),
        )
    }

    /// Plans transforms of `shape` with `options`, on the kernels' context and configuration.
    pub fn with_options(
        kernels: &Df64Kernels,
        shape: FftShape,
        options: FftOptions,
    ) -> Result<Self, FftError> {
        Self::on_driver(
            kernels.context(),
            kernels.config(),
            kernels.proof(),
            shape,
            options,
        )
    }

    /// Plans transforms of `shape` with `options` on `ctx`, its programs built under `config`
    /// and proven against the mirror in the floating-point environment `proof` describes
    /// (both from the driver's probe: [`Proof::from_report`], `ProbeReport::require_config`);
    /// no kernel set needed.
    pub fn on_driver(
        ctx: &GlContext,
        config: DriverConfig,
        proof: &Proof,
        shape: FftShape,
        options: FftOptions,
    ) -> Result<Self, FftError> {
        Self::build(ctx, config, proof, shape, options, table_len(shape))
    }

    /// `table_len`: the largest L the twiddle table serves (the real-input FFT needs 2 n).
    pub(crate) fn build(
        ctx: &GlContext,
        config: DriverConfig,
        proof: &Proof,
        shape: FftShape,
        options: FftOptions,
        table_len: usize,
    ) -> Result<Self, FftError> {
        let mut plan = Self::allocate(ctx, config, shape, options, table_len)?;
        plan.proof = Some(proof.clone());
        let kinds = plan.transform_kinds()?;
        plan.prove(&kinds)?;
        Ok(plan)
    }

    /// Every pass kind the transforms of this plan draw.
    fn transform_kinds(&self) -> Result<Vec<PassKind>, FftError> {
        let mut kinds: Vec<PassKind> = Vec::new();
        for axis in &self.axes {
            for kind in self.stage_kinds(*axis)? {
                if !kinds.contains(&kind) {
                    kinds.push(kind);
                }
            }
        }
        Ok(kinds)
    }

    /// Textures, buffers and twiddles, without programs.
    fn allocate(
        ctx: &GlContext,
        config: DriverConfig,
        shape: FftShape,
        options: FftOptions,
        table_len: usize,
    ) -> Result<Self, FftError> {
        judge_options(ctx, shape, options)?;
        // The texture limit first (it names the largest shape that fits), then memory.
        extents(ctx, shape, options)?;
        let parts = PlanParts::of(shape, options)?;
        check_memory(
            ctx,
            shape,
            options,
            &parts.texels(shape, options, table_len, 0),
        )?;
        let PlanParts { axes, odd, outputs } = parts;
        let total = shape.total();
        let max = ctx.info().max_texture_size;
        let layout = Layout::power_of_two_width(total, max)?;
        let qf = options.precision == FftPrecision::Qf128;
        let mrt = options.qf_write == QfWrite::Mrt;
        let natural = [
            Buffer::natural(ctx, layout, qf)?,
            Buffer::natural(ctx, layout, qf)?,
        ];
        let mut planes = Vec::new();
        for count in outputs {
            judge_attachments(ctx, options, count)?;
            let pl = Layout::power_of_two_width(total / count, max)?;
            for _ in 0..2 {
                planes.push(Buffer::planes(ctx, pl, qf, mrt, count)?);
            }
        }
        let twiddles = match options.twiddles {
            TwiddleSource::Direct => None,
            TwiddleSource::Table => Some(twiddle_textures(ctx, options.precision, table_len)?),
        };
        Ok(StockhamPlan {
            ctx: ctx.clone(),
            config,
            options,
            shape,
            axes,
            natural,
            planes,
            odd,
            front: 0,
            twiddles,
            programs: HashMap::new(),
            proof: None,
            exponent: 0,
            bound_log2: 1,
            history: Vec::new(),
        })
    }

    /// Elements the plan holds (all rows, or the whole image).
    pub fn len(&self) -> usize {
        self.shape.total()
    }

    /// Never true: a plan holds at least two elements.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Width x height of the natural-order texture the data lives in.
    pub fn texture_shape(&self) -> (u32, u32) {
        let t = &self.natural[0].textures[0];
        (t.width(), t.height())
    }

    /// The passes of each axis (fastest first).
    pub(crate) fn axis_passes(&self) -> Vec<usize> {
        let per = if self.two_pass() { 2 } else { 1 };
        self.axes
            .iter()
            .map(|a| self.stage_kinds(*a).map_or(0, |k| k.len()) * per)
            .collect()
    }
}

/// A complex double as one texel: the 32-bit halves of re and im, low half first, stored as
/// the bits of f32 words (`FFT_F64` reads them back with `packDouble2x32`).
pub(crate) fn double_texel(re: f64, im: f64) -> [f32; 4] {
    let half = |x: f64, hi: bool| f32::from_bits((x.to_bits() >> if hi { 32 } else { 0 }) as u32);
    [
        half(re, false),
        half(re, true),
        half(im, false),
        half(im, true),
    ]
}

pub(crate) fn texel_double(t: &[f32; 4]) -> (f64, f64) {
    let join =
        |lo: f32, hi: f32| f64::from_bits(((hi.to_bits() as u64) << 32) | lo.to_bits() as u64);
    (join(t[0], t[1]), join(t[2], t[3]))
}

fn high_words(c: ComplexDf64) -> ComplexDf64 {
    ComplexDf64 {
        re: Df64::new(c.re.hi, 0.0),
        im: Df64::new(c.im.hi, 0.0),
    }
}

/// The W_long words for transforms up to `n` points, as uploaded: complex df64 texels (f32
/// plans keep the high words), or qf128 real and imaginary parts.
enum TwiddleWords {
    Pairs(Vec<ComplexDf64>),
    /// Native double: (cos, -sin) in f64.
    Doubles(Vec<(f64, f64)>),
    Qf(Vec<Qf128>, Vec<Qf128>),
}

fn twiddle_words(precision: FftPrecision, n: usize) -> TwiddleWords {
    let n = n.max(2);
    match precision {
        FftPrecision::F32 | FftPrecision::Df64 => {
            let f32_only = precision == FftPrecision::F32;
            TwiddleWords::Pairs(padded_table(
                n,
                &base_f64(n),
                ComplexDf64::default(),
                |(c, s)| {
                    let z = ComplexDf64 {
                        re: Df64::from_f64(*c),
                        im: Df64::from_f64(*s),
                    };
                    if f32_only {
                        high_words(z)
                    } else {
                        z
                    }
                },
            ))
        }
        FftPrecision::F64 => {
            TwiddleWords::Doubles(padded_table(n, &base_f64(n), (0.0, 0.0), |p| *p))
        }
        FftPrecision::Qf128 => {
            let w = padded_table(n, &base_big(n), (Qf128::ZERO, Qf128::ZERO), |(c, s)| {
                (Qf128::from_big(c), Qf128::from_big(s))
            });
            TwiddleWords::Qf(
                w.iter().map(|p| p.0).collect(),
                w.iter().map(|p| p.1).collect(),
            )
        }
    }
}

/// The twiddle table of `n` points ([`w_long_mixed`]) padded to a power of two, the length
/// of its texture's layout.
fn padded_table<B: Clone, T: Clone>(
    n: usize,
    base: &[B],
    fill: T,
    convert: impl Fn(&B) -> T,
) -> Vec<T> {
    let mut w = w_long_mixed(n, base, fill.clone(), convert);
    w.resize(w.len().next_power_of_two(), fill);
    w
}

/// W_long textures for transforms up to `n` points (see [`twiddle_words`]).
fn twiddle_textures(
    ctx: &GlContext,
    precision: FftPrecision,
    n: usize,
) -> Result<(Vec<Texture>, u32), FftError> {
    let words = twiddle_words(precision, n);
    let len = match &words {
        TwiddleWords::Pairs(p) => p.len(),
        TwiddleWords::Doubles(d) => d.len(),
        TwiddleWords::Qf(re, _) => re.len(),
    };
    let layout = Layout::power_of_two(len, ctx.info().max_texture_size)?;
    let log2_w = layout.width.trailing_zeros();
    let (w, h) = (layout.width, layout.height);
    let textures = match words {
        TwiddleWords::Pairs(p) => vec![Texture::with_data(ctx, w, h, &p)?],
        TwiddleWords::Doubles(d) => {
            let t: Vec<[f32; 4]> = d.iter().map(|(c, s)| double_texel(*c, *s)).collect();
            vec![Texture::with_data(ctx, w, h, &t)?]
        }
        TwiddleWords::Qf(re, im) => vec![
            Texture::with_data(ctx, w, h, &re)?,
            Texture::with_data(ctx, w, h, &im)?,
        ],
    };
    Ok((textures, log2_w))
}
