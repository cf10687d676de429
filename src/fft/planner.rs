//! The one place that makes every choice of a transform and judges every option combination:
//! which algorithm each axis runs ([`AxisAlgorithm`]), how each extent is padded, which radix,
//! twiddle source and qf128 write a precision runs ([`FftPlanner::settle`]), what a precision
//! needs of the driver ([`FftPlanner::refusal`]) and what the passes cannot do
//! ([`judge_options`]). Plans ask it; the command line asks it and never decides again.
//!
//! A new per-axis algorithm is one file (its steps on the Stockham passes, as `bluestein.rs`),
//! one [`AxisAlgorithm`] variant with its arm in [`axis_algorithm`], and the arm in
//! [`FftPlan`]'s run that calls it; a new kind of plan implements
//! [`GpuFft`](super::GpuFft) in its own file and gets a planner method.

use crate::gl::{human_bytes, GlContext, MEMORY_BUDGET_ENV};
use crate::kernels::Df64Kernels;

use super::stockham_mirror::odd_radices;
use super::stockham_plan::PlanParts;
use super::{
    FftError, FftOptions, FftPlan, FftPrecision, FftShape, QfWrite, Radix, RealFftPlan,
    TwiddleSource,
};

/// How one extent of the data is computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AxisAlgorithm {
    /// Not transformed (the rows of a batch): padded to a power of two with zero rows.
    Batch,
    /// A power of two: the Stockham passes (radix 2, 4 or 8).
    Stockham,
    /// `odd * 2^k` points of rows with table twiddles: the power-of-two stages, then one
    /// stage of the odd radix.
    MixedRadix {
        /// The odd factor (a radix of the passes: 3).
        odd: usize,
    },
    /// Any other length: Bluestein's chirp-z as a circular convolution of the padded
    /// power-of-two length on the Stockham passes.
    Bluestein,
}

/// One extent of the data as the planner settled it (slowest first, as [`FftShape::dims`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Extent {
    /// The user's length.
    pub(crate) n: usize,
    /// Its length on the GPU: n, or the power of two >= 2n - 1 for Bluestein, or the next
    /// power of two for a batch.
    pub(crate) padded: usize,
    /// How it is computed.
    pub(crate) algorithm: AxisAlgorithm,
}

impl Extent {
    pub(crate) fn transformed(&self) -> bool {
        self.algorithm != AxisAlgorithm::Batch
    }

    pub(crate) fn bluestein(&self) -> bool {
        self.algorithm == AxisAlgorithm::Bluestein
    }
}

/// Options as the planner settled them for one precision, with each change from what was
/// asked and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedOptions {
    /// What the plan runs with.
    pub options: FftOptions,
    /// Each change from the preferred options, as a sentence.
    pub changes: Vec<String>,
}

/// Makes every choice of a transform on one driver (see the module's text).
pub struct FftPlanner<'k> {
    kernels: &'k Df64Kernels,
}

impl<'k> FftPlanner<'k> {
    /// A planner for the kernels' context, driver configuration and proof.
    pub fn new(kernels: &'k Df64Kernels) -> Self {
        FftPlanner { kernels }
    }

    /// Why this driver cannot run `precision` (the way out in the message), or `None`.
    pub fn refusal(&self, precision: FftPrecision) -> Option<String> {
        match precision {
            FftPrecision::F32 => None,
            FftPrecision::F64 => self.kernels.double_support().err().map(|e| e.to_string()),
            FftPrecision::Df64 | FftPrecision::Qf128 => {
                self.kernels.df64_refusal().map(str::to_string)
            }
        }
    }

    /// The options `precision` runs with, from the caller's preferences: radix 8 has no qf128
    /// pass (16 color attachments), so qf128 runs radix 4 there; native double has no
    /// in-shader twiddles (GLSL has no double sin), so it reads the table.
    pub fn settle(&self, precision: FftPrecision, preferred: FftOptions) -> PlannedOptions {
        settle_options(precision, preferred)
    }

    /// Whether the passes can run `options` on `shape` on this driver's context: `Ok`, or the
    /// refusal a plan would give, with the way out. (Whether the probe proved df64 here is
    /// [`refusal`](Self::refusal)'s answer.)
    ///
    /// It also checks that the padded data fit the driver's texture and that the plan's
    /// textures fit the memory the device has free ([`GlContext::memory_budget`]): what an
    /// [`FftPlan`] of `shape` would be refused for, before anything is allocated.
    pub fn judge(&self, shape: FftShape, options: FftOptions) -> Result<(), FftError> {
        judge_options(self.kernels.context(), shape, options)?;
        plan_extents(self.kernels.context(), shape, options).map(|_| ())
    }

    /// The algorithm of each extent of `shape` (slowest first) under `options`.
    pub fn algorithms(
        &self,
        shape: FftShape,
        options: FftOptions,
    ) -> Result<Vec<AxisAlgorithm>, FftError> {
        Ok(extents(self.kernels.context(), shape, options)?
            .into_iter()
            .map(|e| e.algorithm)
            .collect())
    }

    /// A plan of `shape` in `precision` with the fastest options measured (radix 4, the
    /// twiddle table, qf128 in one pass), refused with the reason where the driver cannot.
    pub fn plan(&self, shape: FftShape, precision: FftPrecision) -> Result<FftPlan, FftError> {
        self.plan_with(shape, precision, FftOptions::new(precision))
    }

    /// A plan of `shape` in `precision` with `preferred` options as [`settle`](Self::settle)
    /// adjusts them.
    pub fn plan_with(
        &self,
        shape: FftShape,
        precision: FftPrecision,
        preferred: FftOptions,
    ) -> Result<FftPlan, FftError> {
        if let Some(why) = self.refusal(precision) {
            return Err(FftError::Unsupported(why));
        }
        FftPlan::with_options(
            self.kernels,
            shape,
            self.settle(precision, preferred).options,
        )
    }

    /// `batch` real transforms of `n` points in `precision` (options settled as for
    /// [`plan_with`](Self::plan_with)).
    pub fn plan_real(
        &self,
        n: usize,
        batch: usize,
        precision: FftPrecision,
        preferred: FftOptions,
    ) -> Result<RealFftPlan, FftError> {
        if let Some(why) = self.refusal(precision) {
            return Err(FftError::Unsupported(why));
        }
        RealFftPlan::new(
            self.kernels,
            n,
            batch,
            self.settle(precision, preferred).options,
        )
    }
}

/// See [`FftPlanner::settle`].
pub(crate) fn settle_options(precision: FftPrecision, preferred: FftOptions) -> PlannedOptions {
    let mut options = FftOptions {
        precision,
        ..preferred
    };
    let mut changes = Vec::new();
    if precision == FftPrecision::Qf128 && options.radix == Radix::Eight {
        options.radix = Radix::Four;
        changes.push("qf128 runs radix 4 (radix 8 would write 16 color attachments)".into());
    }
    if precision == FftPrecision::F64 && options.twiddles == TwiddleSource::Direct {
        options.twiddles = TwiddleSource::Table;
        changes
            .push("native double reads the twiddle table (GLSL has no double sin and cos)".into());
    }
    PlannedOptions { options, changes }
}

/// The option combinations the passes cannot run, refused with the way out; every plan's
/// constructor asks this before it allocates anything.
pub(crate) fn judge_options(
    ctx: &GlContext,
    shape: FftShape,
    options: FftOptions,
) -> Result<(), FftError> {
    if options.precision == FftPrecision::Qf128 && options.radix == Radix::Eight {
        return Err(FftError::Unsupported(
            "radix 8 is built for f32, df64 and f64 (qf128 would write 16 color attachments): \
             use radix 4 for qf128"
                .into(),
        ));
    }
    if options.precision == FftPrecision::F64 {
        let info = ctx.info();
        if info.glsl_number < 400 && !info.gpu_shader_fp64 {
            return Err(FftError::Unsupported(format!(
                "the native double FFT needs GLSL 4.00 or GL_ARB_gpu_shader_fp64, which {} does \
                 not offer: use df64 (about 48 bits with f32 arithmetic)",
                info.renderer
            )));
        }
        if options.twiddles == TwiddleSource::Direct {
            return Err(FftError::Unsupported(
                "the native double FFT reads its twiddles from the table (GLSL has no double \
                 sin and cos): use --twiddles table"
                    .into(),
            ));
        }
    }
    if let FftShape::Rows { n, .. } = shape {
        if matches!(mixed_length(n), Some((odd, _)) if odd > 1)
            && options.twiddles == TwiddleSource::Direct
        {
            return Err(FftError::Unsupported(format!(
                "{n} points run as mixed radix with the twiddle table only: use \
                 TwiddleSource::Table (or FftPlan, which takes direct twiddles through \
                 Bluestein)"
            )));
        }
    }
    Ok(())
}

/// The extents of an [`FftPlan`] of `shape`, refused where the padded data do not fit the
/// texture or the plan's textures (with Bluestein's factors) do not fit the device's memory.
pub(crate) fn plan_extents(
    ctx: &GlContext,
    shape: FftShape,
    options: FftOptions,
) -> Result<Vec<Extent>, FftError> {
    let extents = extents(ctx, shape, options)?;
    let padded: Vec<usize> = extents.iter().map(|e| e.padded).collect();
    let gpu_shape = shape.with_dims(&padded);
    let operands = if extents.iter().any(|e| e.bluestein()) {
        2
    } else {
        0
    };
    let need = PlanParts::of(gpu_shape, options)?.texels(
        gpu_shape,
        options,
        table_len(gpu_shape),
        operands,
    );
    check_memory(ctx, shape, options, &need)?;
    Ok(extents)
}

/// The longest transform a plan's twiddle table serves: the points of rows, or the longest
/// extent of an image or volume.
pub(crate) fn table_len(shape: FftShape) -> usize {
    match shape {
        FftShape::Rows { n, .. } => n,
        _ => shape.dims().into_iter().max().unwrap_or(2),
    }
}

/// Texels a plan allocates (RGBA32F, 16 bytes each): on the device, and the host-side copies
/// of the data and twiddles made while uploading.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct MemoryNeed {
    /// The plan's textures.
    pub(crate) device_texels: u128,
    /// The host's copies while uploading (they count where textures are host memory).
    pub(crate) host_texels: u128,
}

const TEXEL_BYTES: u128 = 16;

/// Refuses a plan whose textures need more memory than the device has free now, where the
/// driver (or `DF64GL_MEMORY_BUDGET`) says how much that is; names what would fit.
pub(crate) fn check_memory(
    ctx: &GlContext,
    shape: FftShape,
    options: FftOptions,
    need: &MemoryNeed,
) -> Result<(), FftError> {
    let Some(budget) = ctx.memory_budget().map_err(FftError::Unsupported)? else {
        return Ok(());
    };
    let texels = need.device_texels + if budget.host { need.host_texels } else { 0 };
    let needed = texels.saturating_mul(TEXEL_BYTES);
    let available = budget.bytes as u128;
    if needed <= available {
        return Ok(());
    }
    // Memory is linear in the length: the halvings that bring it within the budget.
    let mut halvings = 0u32;
    while halvings < 127 && (needed >> halvings) > available {
        halvings += 1;
    }
    Err(FftError::OutOfMemory {
        needed,
        available,
        message: format!(
            "{} needs about {} of texture memory, and {} is {}: use a length (or batch) \
             about {} times smaller{}; {MEMORY_BUDGET_ENV} sets the budget by hand",
            describe(&shape),
            human_bytes(needed),
            budget.source,
            human_bytes(available),
            1u128 << halvings,
            if options.precision == FftPrecision::Qf128 {
                ", or df64 rather than qf128 (half the memory)"
            } else {
                ""
            }
        ),
    })
}

/// Whether the driver has the color attachments for passes that write `outputs` values a
/// fragment (one attachment each; qf128 written in one pass: two, real and imaginary).
pub(crate) fn judge_attachments(
    ctx: &GlContext,
    options: FftOptions,
    outputs: usize,
) -> Result<(), FftError> {
    let info = ctx.info();
    let max = info.max_color_attachments.min(info.max_draw_buffers) as usize;
    let qf = options.precision == FftPrecision::Qf128;
    if !qf && outputs > max {
        return Err(FftError::Unsupported(format!(
            "a pass of {outputs} outputs writes {outputs} color attachments and this driver has \
             {max}: use radix 4"
        )));
    }
    if qf && options.qf_write == QfWrite::Mrt && 2 * outputs > max {
        return Err(FftError::Unsupported(format!(
            "a qf128 pass of {outputs} outputs in one pass writes {} color attachments and this \
             driver has {max}: use the two-pass qf128 write (--qf-write two-pass) or radix 2",
            2 * outputs
        )));
    }
    Ok(())
}

/// The odd factor and log2 of the rest of a row length that the passes take as it is: a power
/// of two, or one of the odd radices ([`odd_radices`]) times one.
pub(crate) fn mixed_length(n: usize) -> Option<(usize, u32)> {
    if n < 2 {
        return None;
    }
    let log2 = n.trailing_zeros();
    let odd = n >> log2;
    (odd == 1 || odd_radices().any(|r| r == odd)).then_some((odd, log2))
}

/// The algorithm and GPU length of one extent (`transformed`: a transform runs along it;
/// `mixed`: the passes take an odd radix times a power of two as it is, in rows with table
/// twiddles). The arm a new algorithm adds.
/// The padded length is `u128`: past `usize` it is only a size to refuse.
pub(crate) fn axis_algorithm(n: usize, transformed: bool, mixed: bool) -> (AxisAlgorithm, u128) {
    let n128 = n as u128;
    if !transformed {
        return (AxisAlgorithm::Batch, n128.next_power_of_two());
    }
    if n >= 2 && n.is_power_of_two() {
        return (AxisAlgorithm::Stockham, n128);
    }
    match mixed_length(n) {
        Some((odd, _)) if mixed => (AxisAlgorithm::MixedRadix { odd }, n128),
        _ => (
            AxisAlgorithm::Bluestein,
            (2 * n128).saturating_sub(1).next_power_of_two().max(2),
        ),
    }
}

/// "a transform of 1 x 1000 (rows of the batch x points)": a shape as refusals name it.
fn describe(shape: &FftShape) -> String {
    let dims: Vec<String> = shape.dims().iter().map(|n| n.to_string()).collect();
    format!(
        "a transform of {} ({})",
        dims.join(" x "),
        extent_names(shape).join(" x ")
    )
}

/// The names of a shape's extents, slowest first.
pub(crate) fn extent_names(shape: &FftShape) -> Vec<&'static str> {
    match shape {
        FftShape::Rows { .. } => vec!["rows of the batch", "points"],
        FftShape::Image { .. } => vec!["rows", "columns"],
        FftShape::Volume { .. } => vec!["slices", "rows", "columns"],
    }
}

/// Every extent of `shape` as `options` run it, refused when one is 0 or the padded data do
/// not fit the driver's texture.
pub(crate) fn extents(
    ctx: &GlContext,
    shape: FftShape,
    options: FftOptions,
) -> Result<Vec<Extent>, FftError> {
    let names = extent_names(&shape);
    // Mixed radix: the points of rows, with the twiddle table (see StockhamPlan).
    let mixed = matches!(shape, FftShape::Rows { .. }) && options.twiddles == TwiddleSource::Table;
    let mut padded = Vec::new();
    for ((n, transformed), name) in shape.dims().iter().zip(shape.transformed()).zip(&names) {
        if *n == 0 {
            return Err(FftError::ZeroLength(name.to_string()));
        }
        padded.push(axis_algorithm(*n, transformed, mixed));
    }
    check_fits(ctx, &shape, &padded)?;
    // Each padded extent fits the texture, so it fits usize.
    Ok(shape
        .dims()
        .iter()
        .zip(padded)
        .map(|(n, (algorithm, padded))| Extent {
            n: *n,
            padded: usize::try_from(padded).unwrap_or(usize::MAX),
            algorithm,
        })
        .collect())
}

/// Texels of the padded data: the product of the padded extents (saturating: past `u128`
/// it is only a size to refuse).
fn padded_texels(padded: &[(AxisAlgorithm, u128)]) -> u128 {
    padded
        .iter()
        .fold(1u128, |acc, (_, p)| acc.saturating_mul(*p))
}

/// The padded data must fit the driver's texture (GL_MAX_TEXTURE_SIZE squared texels); the
/// error names the limit and the largest length of the longest extent that fits.
fn check_fits(
    ctx: &GlContext,
    shape: &FftShape,
    extents: &[(AxisAlgorithm, u128)],
) -> Result<(), FftError> {
    let limit = ctx.info().max_texture_size;
    let capacity = (limit as u128) * (limit as u128);
    let texels = padded_texels(extents);
    if texels <= capacity {
        return Ok(());
    }
    let names = extent_names(shape);
    let dims = shape.dims();
    let Some((k, _)) = extents
        .iter()
        .enumerate()
        .filter(|(_, (a, _))| *a != AxisAlgorithm::Batch)
        .max_by_key(|(i, _)| dims.get(*i).copied().unwrap_or(0))
    else {
        return Err(FftError::ShapeMismatch(
            "a shape with no transformed extent".into(),
        ));
    };
    let others = extents
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != k)
        .fold(1u128, |acc, (_, (_, p))| acc.saturating_mul(*p));
    let room = capacity / others.max(1);
    let pow2 = if room == 0 {
        0
    } else {
        1u128 << (127 - room.leading_zeros())
    };
    Err(FftError::TooLarge {
        what: describe(shape),
        texels,
        limit,
        why: "a length that is not a power of two is padded to a power of two of at least \
              2n - 1 for Bluestein's convolution",
        largest: format!(
            "{} {} with the other extents as they are ({pow2} if a power of two, {} otherwise)",
            pow2,
            names.get(k).copied().unwrap_or("points"),
            pow2 / 2
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn padded_length(n: usize, transformed: bool, mixed: bool) -> (usize, bool) {
        let (a, p) = axis_algorithm(n, transformed, mixed);
        (p as usize, a == AxisAlgorithm::Bluestein)
    }

    #[test]
    fn padded_lengths_follow_bluestein() {
        for mixed in [false, true] {
            assert_eq!(padded_length(1, true, mixed), (2, true));
            assert_eq!(padded_length(2, true, mixed), (2, false));
            assert_eq!(padded_length(1024, true, mixed), (1024, false));
            assert_eq!(padded_length(1000, true, mixed), (2048, true));
            assert_eq!(padded_length(1_000_000, true, mixed), (1 << 21, true));
            assert_eq!(padded_length(3, false, mixed), (4, false));
            assert_eq!(padded_length(1, false, mixed), (1, false));
            assert_eq!(padded_length(5 << 4, true, mixed), (256, true));
        }
        // Past usize the padded length is still a number to refuse, not a wrap.
        // 2 (2^64 - 1) - 1 = 2^65 - 3 pads to 2^65.
        let (_, huge) = axis_algorithm(usize::MAX, true, false);
        assert_eq!(huge, 1u128 << (usize::BITS + 1));
        let (_, batch) = axis_algorithm(usize::MAX, false, false);
        assert_eq!(batch, 1u128 << usize::BITS);
        assert_eq!(padded_length(3, true, false), (8, true));
        assert_eq!(padded_length(3, true, true), (3, false));
        assert_eq!(padded_length(3 << 18, true, false), (1 << 21, true));
        assert_eq!(padded_length(3 << 18, true, true), (3 << 18, false));
    }

    #[test]
    fn settling_adjusts_only_what_a_precision_cannot_run() {
        let eight = FftOptions::new(FftPrecision::Df64).radix(Radix::Eight);
        let df = settle_options(FftPrecision::Df64, eight);
        assert_eq!(df.options.radix, Radix::Eight);
        assert!(df.changes.is_empty());
        let qf = settle_options(FftPrecision::Qf128, eight);
        assert_eq!(qf.options.radix, Radix::Four);
        assert_eq!(qf.options.precision, FftPrecision::Qf128);
        assert_eq!(qf.changes.len(), 1);
        let direct = FftOptions::new(FftPrecision::F64).twiddles(TwiddleSource::Direct);
        let f64p = settle_options(FftPrecision::F64, direct);
        assert_eq!(f64p.options.twiddles, TwiddleSource::Table);
        let f32p = settle_options(FftPrecision::F32, direct);
        assert_eq!(f32p.options.twiddles, TwiddleSource::Direct);
    }
}
