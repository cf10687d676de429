//! The planned transform: textures, programs and twiddles allocated once, then upload,
//! execute (one full-screen pass per stage, ping-pong) and read back as often as needed.

use std::collections::HashMap;
use std::rc::Rc;

mod selftest;

use crate::gl::{
    timed, Framebuffer, GlContext, GlError, GlslLibrary, Layout, Pass, Program, Texture, Timing,
    Uniform,
};
use crate::kernels::proof::{build_proven, Proof};
use crate::kernels::Df64Kernels;
use rustfft::num_complex::Complex64;

use crate::numeric::df64::{ComplexDf64, Df64};
use crate::numeric::qf128::{ComplexQf128, Qf128};
use crate::probe::DriverConfig;

use super::scale::{ldexp, qf_to_f64, split_f64, BlockScaled, Underflow};
use super::twiddle::{base_big, base_f64, w_long};
use super::{Direction, FftError, FftOptions, FftPrecision, QfWrite, Radix, TwiddleSource};

/// What is transformed: a batch of 1-D rows, a 2-D image (rows, then columns) or a 3-D
/// volume (rows, columns, then depth).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FftShape {
    /// `batch` transforms of `n` points, stored one after the other.
    Rows { n: usize, batch: usize },
    /// A `rows x cols` image in row-major order; the 2-D transform.
    Image { rows: usize, cols: usize },
    /// A `depth x rows x cols` volume, `cols` fastest; the 3-D transform.
    Volume {
        depth: usize,
        rows: usize,
        cols: usize,
    },
}

impl FftShape {
    pub fn total(&self) -> usize {
        self.dims().iter().product()
    }

    /// The extents, slowest first (a batch of rows: `[batch, n]`).
    pub fn dims(&self) -> Vec<usize> {
        match *self {
            FftShape::Rows { n, batch } => vec![batch, n],
            FftShape::Image { rows, cols } => vec![rows, cols],
            FftShape::Volume { depth, rows, cols } => vec![depth, rows, cols],
        }
    }

    /// Whether the extent at `dims()[i]` is transformed (the batch is not).
    pub fn transformed(&self) -> Vec<bool> {
        match self {
            FftShape::Rows { .. } => vec![false, true],
            FftShape::Image { .. } => vec![true, true],
            FftShape::Volume { .. } => vec![true, true, true],
        }
    }

    /// The same kind of shape with other extents (slowest first, as [`dims`](Self::dims)).
    pub(crate) fn with_dims(&self, d: &[usize]) -> FftShape {
        match self {
            FftShape::Rows { .. } => FftShape::Rows {
                batch: d[0],
                n: d[1],
            },
            FftShape::Image { .. } => FftShape::Image {
                rows: d[0],
                cols: d[1],
            },
            FftShape::Volume { .. } => FftShape::Volume {
                depth: d[0],
                rows: d[1],
                cols: d[2],
            },
        }
    }
}

/// One 1-D transform direction over the data: 2^log2_n elements 2^log2_stride apart.
#[derive(Debug, Clone, Copy)]
struct Axis {
    log2_n: u32,
    log2_stride: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum PassKind {
    Radix2,
    Radix4First,
    Radix4,
    Radix8First,
    Radix8,
    Radix2Last,
    Unscramble,
    RealPost,
    RealPre,
    Pointwise,
    Copy,
}

impl PassKind {
    /// The GLSL file of this kind's pass (its `main`, after `stockham_common.glsl`).
    fn module(self) -> &'static str {
        match self {
            PassKind::Radix2 => "stockham_radix2.glsl",
            PassKind::Radix4First | PassKind::Radix4 => "stockham_radix4.glsl",
            PassKind::Radix8First | PassKind::Radix8 => "stockham_radix8.glsl",
            PassKind::Radix2Last => "stockham_radix2_last.glsl",
            PassKind::RealPost => "stockham_real_post.glsl",
            PassKind::RealPre => "stockham_real_pre.glsl",
            PassKind::Pointwise => "stockham_pointwise.glsl",
            PassKind::Unscramble | PassKind::Copy => "stockham_copy.glsl",
        }
    }

    /// The layout defines of `stockham_common.glsl`: outputs per fragment and, where the pass
    /// reads planes, `FFT_IN_PLANES`.
    fn layout_defines(self) -> Vec<(String, String)> {
        let slots = match (self.writes_planes(), self.writes_eight()) {
            (false, _) => "1",
            (true, false) => "4",
            (true, true) => "8",
        };
        let mut defines = vec![("FFT_OUT_SLOTS".to_string(), slots.to_string())];
        if self.reads_planes() {
            defines.push(("FFT_IN_PLANES".into(), "1".into()));
        }
        defines
    }

    fn writes_planes(self) -> bool {
        matches!(
            self,
            PassKind::Radix4First
                | PassKind::Radix4
                | PassKind::Radix8First
                | PassKind::Radix8
                | PassKind::Radix2Last
        )
    }

    /// Writes the eight planes of a radix-8 stage (else four).
    fn writes_eight(self) -> bool {
        matches!(self, PassKind::Radix8First | PassKind::Radix8)
    }

    fn reads_planes(self) -> bool {
        matches!(
            self,
            PassKind::Radix4 | PassKind::Radix8 | PassKind::Radix2Last | PassKind::Unscramble
        )
    }
}

/// Storage for one copy of the data: natural order (1 texture, or re and im textures for
/// qf128) or planes (one array texture of 4 layers, 8 for qf128: re in 0-3, im in 4-7; or 8
/// layers for radix 8).
struct Buffer {
    textures: Vec<Texture>,
    /// Every attachment: what a one-pass program writes.
    all: Framebuffer,
    /// qf128 two-pass: the real and the imaginary attachments alone.
    parts: Option<[Framebuffer; 2]>,
    log2_width: u32,
    /// Planes: log2 of the writer's radix (2 or 3); 0 for natural order.
    log2_radix: u32,
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
                log2_radix: 0,
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
            log2_radix: 0,
        })
    }

    fn planes(
        ctx: &GlContext,
        layout: Layout,
        qf: bool,
        mrt: bool,
        log2_radix: u32,
    ) -> Result<Self, FftError> {
        let (w, h) = (layout.width, layout.height);
        let radix = 1u32 << log2_radix;
        let layers = if qf { 8 } else { radix };
        let max = ctx
            .info()
            .max_color_attachments
            .min(ctx.info().max_draw_buffers);
        if !qf && radix > max {
            return Err(FftError::Unsupported(format!(
                "radix {radix} writes {radix} color attachments and this driver has {max}: use \
                 radix 4"
            )));
        }
        let arr = Texture::new_array(ctx, w, h, layers)?;
        let attach = |range: std::ops::Range<u32>| -> Result<Framebuffer, GlError> {
            let l: Vec<(&Texture, u32)> = range.map(|i| (&arr, i)).collect();
            Framebuffer::from_layers(ctx, &l)
        };
        let (all, parts) = if !qf {
            (attach(0..radix)?, None)
        } else if mrt {
            if max < 8 {
                return Err(FftError::Unsupported(format!(
                    "qf128 radix-4 in one pass writes 8 color attachments and this driver has \
                     {max}: use the two-pass qf128 write (--qf-write two-pass) or radix 2"
                )));
            }
            (attach(0..8)?, Some([attach(0..4)?, attach(4..8)?]))
        } else {
            (attach(0..4)?, Some([attach(0..4)?, attach(4..8)?]))
        };
        Ok(Buffer {
            textures: vec![arr],
            all,
            parts,
            log2_width: w.trailing_zeros(),
            log2_radix,
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
    /// Planes: two of four layers (radix 4, and the stages that end a radix-8 transform),
    /// then two of eight (radix 8); `Loc::Planes` indexes this.
    planes: Vec<Buffer>,
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
        return Err(FftError::NotPowerOfTwo(n, n.next_power_of_two()));
    }
    Ok(n.trailing_zeros())
}

impl StockhamPlan {
    /// Plans one `n`-point transform with the default options for `precision`.
    ///
    /// ```
    /// use df64gl::fft::{Direction, FftPrecision, StockhamPlan};
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
        let largest = match shape {
            FftShape::Rows { n, .. } => n,
            _ => shape.dims().into_iter().max().unwrap_or(2),
        };
        Self::build(ctx, config, proof, shape, options, largest)
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
        let kinds = plan.transform_kinds();
        plan.prove(&kinds)?;
        Ok(plan)
    }

    /// Every pass kind the transforms of this plan draw.
    fn transform_kinds(&self) -> Vec<PassKind> {
        let mut kinds: Vec<PassKind> = Vec::new();
        for kind in self.axes.iter().flat_map(|a| self.stage_kinds(*a)) {
            if !kinds.contains(&kind) {
                kinds.push(kind);
            }
        }
        kinds
    }

    /// Textures, buffers and twiddles, without programs.
    fn allocate(
        ctx: &GlContext,
        config: DriverConfig,
        shape: FftShape,
        options: FftOptions,
        table_len: usize,
    ) -> Result<Self, FftError> {
        let axes = match shape {
            FftShape::Rows { n, batch } => {
                if batch == 0 || !batch.is_power_of_two() {
                    return Err(FftError::BadBatch(batch));
                }
                vec![Axis {
                    log2_n: log2_checked(n, "points")?,
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
        if options.precision == FftPrecision::F64 {
            check_double(ctx, options)?;
        }
        let total = shape.total();
        let max = ctx.info().max_texture_size;
        let layout = Layout::power_of_two(total, max)?;
        let qf = options.precision == FftPrecision::Qf128;
        let mrt = options.qf_write == QfWrite::Mrt;
        let natural = [
            Buffer::natural(ctx, layout, qf)?,
            Buffer::natural(ctx, layout, qf)?,
        ];
        if options.radix == Radix::Eight && qf {
            return Err(FftError::Unsupported(
                "radix 8 is built for f32, df64 and f64 (qf128 would write 16 color \
                 attachments): use radix 4 for qf128"
                    .into(),
            ));
        }
        let mut planes = Vec::new();
        if options.radix != Radix::Two && axes.iter().any(|a| a.log2_n >= 2) {
            let pl = Layout::power_of_two(total / 4, max)?;
            for _ in 0..2 {
                planes.push(Buffer::planes(ctx, pl, qf, mrt, 2)?);
            }
        }
        if options.radix == Radix::Eight && axes.iter().any(|a| a.log2_n >= 3) {
            let pl = Layout::power_of_two(total / 8, max)?;
            for _ in 0..2 {
                planes.push(Buffer::planes(ctx, pl, qf, mrt, 3)?);
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
            front: 0,
            twiddles,
            programs: HashMap::new(),
            proof: None,
            exponent: 0,
            bound_log2: 1,
            history: Vec::new(),
        })
    }

    fn stage_kinds(&self, axis: Axis) -> Vec<PassKind> {
        let n = axis.log2_n;
        if self.options.radix == Radix::Two || n < 2 {
            return vec![PassKind::Radix2; n as usize];
        }
        if self.options.radix == Radix::Eight && n >= 3 {
            // Radix-8 stages, then one radix-4 (log2 N = 2 mod 3) or radix-2 (1 mod 3) stage.
            let mut kinds = vec![PassKind::Radix8First];
            kinds.extend(std::iter::repeat_n(PassKind::Radix8, (n / 3 - 1) as usize));
            match n % 3 {
                1 => kinds.push(PassKind::Radix2Last),
                2 => kinds.push(PassKind::Radix4),
                _ => {}
            }
            kinds.push(PassKind::Unscramble);
            return kinds;
        }
        let mut kinds = vec![PassKind::Radix4First];
        kinds.extend(std::iter::repeat_n(PassKind::Radix4, (n / 2 - 1) as usize));
        if n % 2 == 1 {
            kinds.push(PassKind::Radix2Last);
        }
        kinds.push(PassKind::Unscramble);
        kinds
    }

    pub(crate) fn ensure_program(&mut self, kind: PassKind) -> Result<(), FftError> {
        self.prove(&[kind])
    }

    /// Builds and self-tests the passes not drawn by a transform: the real transform's both
    /// ways, the pointwise product and the copy (`df64gl selftest` proves every program).
    pub fn prove_single_passes(&mut self) -> Result<(), FftError> {
        self.prove(&[
            PassKind::RealPost,
            PassKind::RealPre,
            PassKind::Pointwise,
            PassKind::Copy,
        ])
    }

    /// Builds the programs of `kinds` that this plan lacks under the first proven
    /// configuration whose known-answer self-test passes (see [`selftest`]).
    fn prove(&mut self, kinds: &[PassKind]) -> Result<(), FftError> {
        let missing: Vec<PassKind> = kinds
            .iter()
            .copied()
            .filter(|k| !self.programs.contains_key(k))
            .collect();
        if missing.is_empty() {
            return Ok(());
        }
        let Some(proof) = self.proof.clone() else {
            return Err(FftError::Unsupported(format!(
                "internal: a self-test plan lacks the programs for {missing:?}"
            )));
        };
        let baseline = matches!(
            self.options.precision,
            FftPrecision::F32 | FftPrecision::F64
        );
        if baseline && proof.refusal.is_some() {
            // df64 refused here: plain f32 passes still run, unprotected and untested, as any
            // f32 GPU FFT would (the f32 FFT is the baseline, not a df64 result).
            for kind in missing {
                let programs = self.build_programs(kind, self.config)?;
                self.programs.insert(kind, programs);
            }
            return Ok(());
        }
        let info = self.ctx.info().clone();
        let name = format!("stockham ({} {missing:?} passes)", self.variant_text());
        let build = |config: DriverConfig| -> Result<_, FftError> {
            let mut map = HashMap::new();
            for kind in &missing {
                map.insert(*kind, self.build_programs(*kind, config)?);
            }
            Ok(map)
        };
        let sources = |map: &HashMap<PassKind, Vec<Rc<Program>>>| {
            map.values()
                .flatten()
                .map(|p| p.source().text.clone())
                .collect()
        };
        let test = |map: &HashMap<PassKind, Vec<Rc<Program>>>| self.self_test(map, &missing);
        let (built, config) = build_proven(&info, &proof, &name, build, sources, test)?;
        self.programs.extend(built);
        self.config = config;
        Ok(())
    }

    /// "df64, table twiddles" (and the qf128 write): what the pass programs are built for.
    fn variant_text(&self) -> String {
        let mut s = format!(
            "{}, {} twiddles",
            self.options.precision.name(),
            match self.options.twiddles {
                TwiddleSource::Table => "table",
                TwiddleSource::Direct => "direct",
            }
        );
        if self.options.precision == FftPrecision::Qf128 {
            s.push_str(match self.options.qf_write {
                QfWrite::Mrt => ", one-pass write",
                QfWrite::TwoPass => ", two-pass write",
            });
        }
        s
    }

    /// The program (two for the two-pass qf128 write) of one pass kind under `config`.
    fn build_programs(
        &self,
        kind: PassKind,
        config: DriverConfig,
    ) -> Result<Vec<Rc<Program>>, FftError> {
        let mut base = config.defines();
        base.extend(kind.layout_defines());
        match self.options.precision {
            FftPrecision::F32 => base.push(("FFT_F32".into(), "1".into())),
            FftPrecision::Df64 => {}
            FftPrecision::F64 => {
                base.push(("FFT_F64".into(), "1".into()));
                if self.ctx.info().glsl_number < 400 {
                    base.push((crate::gl::FP64_EXTENSION_DEFINE.into(), "1".into()));
                }
            }
            FftPrecision::Qf128 => base.push(("FFT_QF128".into(), "1".into())),
        }
        if self.options.twiddles == TwiddleSource::Direct {
            base.push(("FFT_DIRECT".into(), "1".into()));
        }
        let parts: Vec<Option<&str>> = if self.two_pass() {
            vec![Some("1"), Some("2")]
        } else {
            vec![None]
        };
        let lib = GlslLibrary::builtin();
        let mut programs = Vec::new();
        for part in parts {
            let mut defines = base.clone();
            if let Some(p) = part {
                defines.push(("FFT_PART".into(), p.into()));
            }
            programs.push(Rc::new(Program::build(
                &self.ctx,
                &lib,
                kind.module(),
                &defines,
            )?));
        }
        Ok(programs)
    }

    fn two_pass(&self) -> bool {
        self.options.precision == FftPrecision::Qf128 && self.options.qf_write == QfWrite::TwoPass
    }

    pub fn options(&self) -> FftOptions {
        self.options
    }

    pub fn shape(&self) -> FftShape {
        self.shape
    }

    /// Elements the plan holds (all rows, or the whole image).
    pub fn len(&self) -> usize {
        self.shape.total()
    }

    pub fn is_empty(&self) -> bool {
        false
    }

    pub fn precision(&self) -> FftPrecision {
        self.options.precision
    }

    /// Width x height of the natural-order texture the data lives in.
    pub fn texture_shape(&self) -> (u32, u32) {
        let t = &self.natural[0].textures[0];
        (t.width(), t.height())
    }

    /// Passes one `execute` draws (stages, plane unscrambling, both qf128 parts).
    pub fn passes(&self) -> usize {
        self.axis_passes().iter().sum()
    }

    /// The passes of each axis (fastest first).
    pub(crate) fn axis_passes(&self) -> Vec<usize> {
        let per = if self.two_pass() { 2 } else { 1 };
        self.axes
            .iter()
            .map(|a| self.stage_kinds(*a).len() * per)
            .collect()
    }

    fn check_len(&self, got: usize) -> Result<(), FftError> {
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
    fn write_words(&self, buf: &Buffer, data: &BlockScaled) -> Result<(), FftError> {
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

    fn natural_layout(&self) -> Result<Layout, FftError> {
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

    /// Rescales the data when one more transform could pass [`HEADROOM_LOG2`].
    pub(crate) fn ensure_headroom(&mut self) -> Result<(), FftError> {
        let all = vec![true; self.axes.len()];
        self.ensure_headroom_for(&all)
    }

    fn ensure_headroom_for(&mut self, selected: &[bool]) -> Result<(), FftError> {
        let growth: i32 = self
            .axes
            .iter()
            .zip(selected)
            .filter(|(_, s)| **s)
            .map(|(a, _)| a.log2_n as i32)
            .sum();
        if self.options.block_scaling && self.bound_log2 + growth > HEADROOM_LOG2 {
            self.rescale()?;
        }
        Ok(())
    }

    /// Scales the data back to a largest part in [0.5, 1) through the host: rare, only when
    /// the tracked bound (loose: it assumes the worst growth of every pass) runs out of room.
    fn rescale(&mut self) -> Result<(), FftError> {
        let history = std::mem::take(&mut self.history);
        let data = self.download_scaled()?;
        self.upload_scaled(&BlockScaled::from_qf128(&data.words, data.exponent)?)?;
        self.history = history;
        Ok(())
    }

    fn after(&self) -> String {
        if self.history.is_empty() {
            "right after the upload".into()
        } else {
            format!("after {}", self.history.join(", then "))
        }
    }

    fn non_finite(&self, element: usize, after: String) -> FftError {
        FftError::NonFiniteResult {
            precision: self.options.precision.name(),
            element,
            after,
        }
    }

    /// Runs every stage of every axis on the data on the GPU; returns the time of the passes.
    pub fn execute(&mut self, direction: Direction) -> Result<Timing, FftError> {
        let ctx = self.ctx.clone();
        // A rescale (rare) reads the data back: outside the timed passes.
        self.ensure_headroom()?;
        let ((), timing) = timed(&ctx, || self.run(direction, false))?;
        Ok(timing)
    }

    /// [`execute`](Self::execute) reading every pass's output back and checking it: slow, for
    /// finding the pass where a NaN or infinity first appears (the error names it).
    pub fn execute_checked(&mut self, direction: Direction) -> Result<(), FftError> {
        self.run(direction, true)
    }

    /// [`execute`](Self::execute) without the timer (for callers that time a larger block).
    pub(crate) fn run(&mut self, direction: Direction, check: bool) -> Result<(), FftError> {
        let all = vec![true; self.axes.len()];
        self.run_axes(direction, &all, check)
    }

    /// The transforms along the axes `selected` (fastest axis first: columns, rows, depth).
    pub(crate) fn run_axes(
        &mut self,
        direction: Direction,
        selected: &[bool],
        check: bool,
    ) -> Result<(), FftError> {
        self.ensure_headroom_for(selected)?;
        for (i, axis) in self.axes.clone().into_iter().enumerate() {
            if !selected.get(i).copied().unwrap_or(false) {
                continue;
            }
            let mut find_non_finite = |plan: &StockhamPlan, stage: &StageDone| {
                let Some(element) = plan.first_non_finite_at(stage.loc)? else {
                    return Ok(());
                };
                let after = format!(
                    "in pass {} of {} ({:?}) along axis {i} of {}",
                    stage.index + 1,
                    stage.total,
                    stage.kind,
                    match direction {
                        Direction::Forward => "a forward transform",
                        Direction::Inverse => "an inverse transform",
                    }
                );
                Err(plan.non_finite(element, after))
            };
            let observer: Option<Observer> = if check {
                Some(&mut find_non_finite)
            } else {
                None
            };
            self.run_axis(axis, direction, observer)?;
        }
        self.history.push(match direction {
            Direction::Forward => "a forward transform",
            Direction::Inverse => "an inverse transform",
        });
        Ok(())
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

    /// Upload, execute, download in qf128.
    pub fn transform_qf128(
        &mut self,
        data: &[ComplexQf128],
        direction: Direction,
    ) -> Result<Vec<ComplexQf128>, FftError> {
        self.upload_qf128(data)?;
        self.execute(direction)?;
        self.download_qf128()
    }

    /// Multiplies the data, element by element, by the data of `other` (same shape and
    /// precision), on the GPU: the frequency-domain step of a convolution.
    pub fn multiply_by(&mut self, other: &StockhamPlan) -> Result<(), FftError> {
        if other.shape.total() != self.shape.total()
            || other.options.precision != self.options.precision
        {
            return Err(FftError::PlanMismatch);
        }
        self.pointwise(
            &other.natural[other.front],
            other.exponent,
            other.bound_log2,
        )
    }

    /// One copy of the data (natural order to natural order, the same texels read and written
    /// as a pass of this plan), timed: the floor of a pass on this device.
    pub fn time_copy(&mut self) -> Result<Timing, FftError> {
        self.ensure_program(PassKind::Copy)?;
        let ctx = self.ctx.clone();
        let ((), t) = timed(&ctx, || self.copy_pass())?;
        Ok(t)
    }

    fn copy_pass(&mut self) -> Result<(), FftError> {
        let axis = Axis {
            log2_n: self.len().trailing_zeros(),
            log2_stride: 0,
        };
        self.pass(
            PassKind::Copy,
            axis,
            Loc::Natural(self.front),
            1 << axis.log2_n,
            1.0,
            1.0,
            None,
        )?;
        self.front = 1 - self.front;
        Ok(())
    }

    fn pointwise(&mut self, b: &Buffer, exponent: i32, bound_log2: i32) -> Result<(), FftError> {
        self.ensure_program(PassKind::Pointwise)?;
        let axis = Axis {
            log2_n: self.len().trailing_zeros(),
            log2_stride: 0,
        };
        self.pass(
            PassKind::Pointwise,
            axis,
            Loc::Natural(self.front),
            1 << axis.log2_n,
            1.0,
            1.0,
            Some(b),
        )?;
        self.front = 1 - self.front;
        self.exponent += exponent;
        self.bound_log2 += bound_log2;
        self.history.push("a pointwise product");
        Ok(())
    }

    /// The real-input FFT's last pass over an `n/2`-point transform of packed reals.
    pub(crate) fn real_post(&mut self) -> Result<(), FftError> {
        self.ensure_program(PassKind::RealPost)?;
        let axis = self.axes[0];
        let m = 1usize << axis.log2_n;
        self.pass(
            PassKind::RealPost,
            axis,
            Loc::Natural(self.front),
            2 * m,
            1.0,
            1.0,
            None,
        )?;
        self.front = 1 - self.front;
        // X_k = (Z_k + conj Z_(N/2-k))/2 - i w^k (Z_k - conj Z_(N/2-k))/2: at most twice |Z|.
        self.bound_log2 += 1;
        Ok(())
    }

    /// The inverse real-input FFT's first pass, before an inverse `n/2`-point transform.
    pub(crate) fn real_pre(&mut self) -> Result<(), FftError> {
        self.ensure_program(PassKind::RealPre)?;
        let axis = self.axes[0];
        let m = 1usize << axis.log2_n;
        self.pass(
            PassKind::RealPre,
            axis,
            Loc::Natural(self.front),
            2 * m,
            -1.0,
            1.0,
            None,
        )?;
        self.front = 1 - self.front;
        // Z_k = E_k + i O_k: at most twice the largest bin.
        self.bound_log2 += 1;
        self.history.push("the inverse real transform's first pass");
        Ok(())
    }

    pub(crate) fn context(&self) -> &GlContext {
        &self.ctx
    }

    /// One axis's stages; `observe` (if any) sees every pass's output as it is written.
    fn run_axis(
        &mut self,
        axis: Axis,
        direction: Direction,
        mut observe: Option<Observer>,
    ) -> Result<(), FftError> {
        let conj = if direction == Direction::Inverse {
            -1.0
        } else {
            1.0
        };
        // The last pass scales the words by 2^-shift (exact). Without block scaling: 1/N on
        // the inverse, as its definition has it. With it, about 1/sqrt(N) each way (floor
        // forward, ceil inverse) and the rest of the inverse's 1/N in the exponent: the words
        // keep their energy, so round trips neither grow nor shrink them.
        let l = axis.log2_n as i32;
        let (shift, exponent_delta) = match (self.options.block_scaling, direction) {
            (false, Direction::Forward) => (0, 0),
            (false, Direction::Inverse) => (l, 0),
            (true, Direction::Forward) => (l / 2, l / 2),
            (true, Direction::Inverse) => ((l + 1) / 2, -(l / 2)),
        };
        self.exponent += exponent_delta;
        // Each output is a sum of N inputs, then scaled.
        self.bound_log2 += l - shift;
        let kinds = self.stage_kinds(axis);
        let last = kinds.len() - 1;
        let total = kinds.len();
        let mut loc = Loc::Natural(self.front);
        let mut l: usize = 1;
        for (i, kind) in kinds.into_iter().enumerate() {
            let scale = if i == last {
                1.0 / (1u64 << shift) as f32
            } else {
                1.0
            };
            l *= match kind {
                PassKind::Radix2 | PassKind::Radix2Last => 2,
                PassKind::Radix4First | PassKind::Radix4 => 4,
                PassKind::Radix8First | PassKind::Radix8 => 8,
                _ => 1,
            };
            loc = self.pass(kind, axis, loc, l, conj, scale, None)?;
            if let Some(observe) = observe.as_mut() {
                let stage = StageDone {
                    index: i,
                    total,
                    kind,
                    loc,
                    l,
                    conj,
                    scale,
                };
                observe(self, &stage)?;
            }
        }
        match loc {
            Loc::Natural(f) => self.front = f,
            Loc::Planes(..) => {
                return Err(FftError::Unsupported(
                    "internal: a transform ended in planes".into(),
                ))
            }
        }
        Ok(())
    }

    /// Draws one pass of `kind` reading `src`; returns where it wrote.
    #[allow(clippy::too_many_arguments)]
    fn pass(
        &self,
        kind: PassKind,
        axis: Axis,
        src: Loc,
        l: usize,
        conj: f32,
        scale: f32,
        second: Option<&Buffer>,
    ) -> Result<Loc, FftError> {
        let (in_buf, in_ls) = match src {
            Loc::Natural(i) => (&self.natural[i], 0),
            Loc::Planes(i, ls) => (self.plane_buffer(i)?, ls),
        };
        if kind.reads_planes() != matches!(src, Loc::Planes(..)) {
            return Err(FftError::Unsupported(format!(
                "internal: pass {kind:?} given the wrong input storage"
            )));
        }
        let (dst, out_buf) = if kind.writes_planes() {
            // Ping-pong within the pair of the radix written (four planes: 0 and 1, eight: 2
            // and 3).
            let first = if kind.writes_eight() { 2 } else { 0 };
            let next = match src {
                Loc::Planes(i, _) if i / 2 == first / 2 => i ^ 1,
                _ => first,
            };
            let ls = match kind {
                PassKind::Radix2Last => axis.log2_n - 2,
                PassKind::Radix8First | PassKind::Radix8 => (l / 8).trailing_zeros(),
                _ => (l / 4).trailing_zeros(),
            };
            (Loc::Planes(next, ls), self.plane_buffer(next)?)
        } else {
            let next = match src {
                Loc::Natural(i) => 1 - i,
                Loc::Planes(..) => 1 - self.front,
            };
            (Loc::Natural(next), &self.natural[next])
        };
        let programs = self
            .programs
            .get(&kind)
            .ok_or_else(|| FftError::Unsupported(format!("internal: no program for {kind:?}")))?;
        let targets: Vec<&Framebuffer> = match &out_buf.parts {
            Some(parts) if programs.len() == 2 => parts.iter().collect(),
            _ => vec![&out_buf.all],
        };
        for (program, target) in programs.iter().zip(targets) {
            // The qf128 two-pass copy's imaginary program reads u_in_im alone.
            let mut pass = if kind == PassKind::Copy {
                Pass::new(program).optional_input("u_in", &in_buf.textures[0])
            } else {
                Pass::new(program).input("u_in", &in_buf.textures[0])
            };
            pass = pass
                .optional_uniform("u_log2_n", Uniform::I32(axis.log2_n as i32))
                .optional_uniform("u_log2_stride", Uniform::I32(axis.log2_stride as i32))
                .optional_uniform("u_log2_out_width", Uniform::I32(out_buf.log2_width as i32))
                .optional_uniform("u_log2_in_width", Uniform::I32(in_buf.log2_width as i32))
                .optional_uniform("u_in_log2_ls", Uniform::I32(in_ls as i32))
                .optional_uniform("u_in_log2_radix", Uniform::I32(in_buf.log2_radix as i32))
                .optional_uniform("u_L", Uniform::I32(l as i32))
                .optional_uniform("u_radix", Uniform::I32(4))
                .optional_uniform("u_conj", Uniform::F32(conj))
                .optional_uniform("u_scale", Uniform::F32(scale));
            if let Some(im) = in_buf.textures.get(1) {
                pass = pass.optional_input("u_in_im", im);
            }
            if let Some(b) = second {
                pass = pass.input("u_in_b", &b.textures[0]);
                if let Some(im) = b.textures.get(1) {
                    pass = pass.input("u_in_b_im", im);
                }
            }
            if let Some((tw, log2_w)) = &self.twiddles {
                pass = pass
                    .optional_input("u_twiddle", &tw[0])
                    .optional_uniform("u_log2_twiddle_width", Uniform::I32(*log2_w as i32));
                if let Some(im) = tw.get(1) {
                    pass = pass.optional_input("u_twiddle_im", im);
                }
            }
            pass.run(&self.ctx, target)?;
        }
        Ok(dst)
    }

    /// The first non-finite element a pass wrote (every attachment of its output), if any.
    fn first_non_finite_at(&self, loc: Loc) -> Result<Option<usize>, FftError> {
        let buf = match loc {
            Loc::Natural(i) => &self.natural[i],
            Loc::Planes(i, _) => self.plane_buffer(i)?,
        };
        let fbs: Vec<&Framebuffer> = match &buf.parts {
            Some(parts) if self.two_pass() => parts.iter().collect(),
            _ => vec![&buf.all],
        };
        let mut first: Option<usize> = None;
        for fb in fbs {
            for a in 0..fb.attachments() {
                let v: Vec<[f32; 4]> = fb.read(&self.ctx, a)?;
                if let Some(i) = v.iter().position(|t| t.iter().any(|w| !w.is_finite())) {
                    first = Some(first.map_or(i, |f| f.min(i)));
                }
            }
        }
        Ok(first)
    }

    fn plane_buffer(&self, i: usize) -> Result<&Buffer, FftError> {
        self.planes.get(i).ok_or_else(|| {
            FftError::Unsupported(format!("internal: a pass needs planes buffer {i}"))
        })
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

/// Native double needs `double` in shaders and the twiddle table (GLSL has no double sin).
fn check_double(ctx: &GlContext, options: FftOptions) -> Result<(), FftError> {
    let info = ctx.info();
    if info.glsl_number < 400 && !info.gpu_shader_fp64 {
        return Err(FftError::Unsupported(format!(
            "the native double FFT needs GLSL 4.00 or GL_ARB_gpu_shader_fp64, which {} does not \
             offer: use df64 (about 48 bits with f32 arithmetic)",
            info.renderer
        )));
    }
    if options.twiddles == TwiddleSource::Direct {
        return Err(FftError::Unsupported(
            "the native double FFT reads its twiddles from the table (GLSL has no double sin \
             and cos): use --twiddles table"
                .into(),
        ));
    }
    Ok(())
}

fn high_words(c: ComplexDf64) -> ComplexDf64 {
    ComplexDf64 {
        re: Df64::new(c.re.hi, 0.0),
        im: Df64::new(c.im.hi, 0.0),
    }
}

pub(crate) fn first_non_finite(words: &[ComplexQf128]) -> Option<usize> {
    words
        .iter()
        .position(|z| z.re.x.iter().chain(&z.im.x).any(|w| !w.is_finite()))
}

/// A GPU word times 2^`exponent` as an f32; `None` past f32's range.
fn unscale_word(w: f32, exponent: i32) -> Option<f32> {
    let v = ldexp(w as f64, exponent) as f32;
    v.is_finite().then_some(v)
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
            TwiddleWords::Pairs(w_long(n, &base_f64(n), ComplexDf64::default(), |(c, s)| {
                let z = ComplexDf64 {
                    re: Df64::from_f64(*c),
                    im: Df64::from_f64(*s),
                };
                if f32_only {
                    high_words(z)
                } else {
                    z
                }
            }))
        }
        FftPrecision::F64 => TwiddleWords::Doubles(w_long(n, &base_f64(n), (0.0, 0.0), |p| *p)),
        FftPrecision::Qf128 => {
            let w = w_long(n, &base_big(n), (Qf128::ZERO, Qf128::ZERO), |(c, s)| {
                (Qf128::from_big(c), Qf128::from_big(s))
            });
            TwiddleWords::Qf(
                w.iter().map(|p| p.0).collect(),
                w.iter().map(|p| p.1).collect(),
            )
        }
    }
}

/// W_long textures for transforms up to `n` points (see [`twiddle_words`]).
fn twiddle_textures(
    ctx: &GlContext,
    precision: FftPrecision,
    n: usize,
) -> Result<(Vec<Texture>, u32), FftError> {
    let layout = Layout::power_of_two(n.max(2), ctx.info().max_texture_size)?;
    let log2_w = layout.width.trailing_zeros();
    let (w, h) = (layout.width, layout.height);
    let textures = match twiddle_words(precision, n) {
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
