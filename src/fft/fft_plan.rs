//! [`FftPlan`]: a transform of any shape and length. The planner settles each extent
//! ([`AxisAlgorithm`](super::AxisAlgorithm)): powers of two, and the points of rows of 3 * 2^k
//! with table twiddles, go straight through the Stockham passes; every other length through
//! Bluestein's chirp-z ([`bluestein`](super::bluestein)) on the same passes, padded to a power
//! of two.

use crate::gl::{timed, GlContext, Timing};
use crate::kernels::Df64Kernels;
use crate::numeric::qf128::{ComplexQf128, Qf128};

use super::bluestein::{bluestein_factors, run_bluestein, Factors};
use super::planner::{judge_options, plan_extents, Extent};
use super::scale::first_non_finite;
use super::stockham_plan::{PassKind, StockhamPlan};
use super::{
    BlockScaled, Direction, FftError, FftOptions, FftPrecision, FftShape, GpuFft, Underflow,
};

/// A planned transform of any shape and length (see the module's text).
pub struct FftPlan {
    inner: StockhamPlan,
    shape: FftShape,
    extents: Vec<Extent>,
    /// Forward and inverse Bluestein factors, made on the first transform in that direction.
    factors: [Option<Factors>; 2],
}

fn direction_index(d: Direction) -> usize {
    match d {
        Direction::Forward => 0,
        Direction::Inverse => 1,
    }
}

impl FftPlan {
    /// Plans one `n`-point transform (any n >= 1) with the default options for `precision`.
    pub fn new(kernels: &Df64Kernels, n: usize, precision: FftPrecision) -> Result<Self, FftError> {
        Self::with_options(
            kernels,
            FftShape::Rows { n, batch: 1 },
            FftOptions::new(precision),
        )
    }

    /// A plan with these options (radix, twiddles, qf128 write, block scaling), refused with
    /// the reason where the passes cannot run them ([`FftPlanner::settle`](super::FftPlanner::settle)
    /// turns preferences into options that run).
    pub fn with_options(
        kernels: &Df64Kernels,
        shape: FftShape,
        options: FftOptions,
    ) -> Result<Self, FftError> {
        judge_options(kernels.context(), shape, options)?;
        let extents = plan_extents(kernels.context(), shape, options)?;
        let padded: Vec<usize> = extents.iter().map(|e| e.padded).collect();
        let inner = StockhamPlan::with_options(kernels, shape.with_dims(&padded), options)?;
        let mut plan = FftPlan {
            inner,
            shape,
            extents,
            factors: [None, None],
        };
        if plan.uses_bluestein() {
            plan.inner.ensure_program(PassKind::Pointwise)?;
        }
        Ok(plan)
    }

    /// The shape on the GPU (each Bluestein extent padded to its power of two).
    pub fn padded_shape(&self) -> FftShape {
        self.inner.shape()
    }

    /// Whether any extent goes through Bluestein's chirp-z.
    pub fn uses_bluestein(&self) -> bool {
        self.extents.iter().any(|e| e.bluestein())
    }

    /// Elements the plan takes: the product of the shape's extents.
    pub fn len(&self) -> usize {
        self.shape.total()
    }

    /// Never true: every extent is at least 1.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Whether each GPU axis (fastest first, as the Stockham plan orders them) satisfies `f`.
    fn axes_where(&self, f: impl Fn(&Extent) -> bool) -> Vec<bool> {
        self.extents
            .iter()
            .rev()
            .filter(|e| e.transformed())
            .map(f)
            .collect()
    }

    /// Padded index of every logical element, in logical order.
    fn padded_indices(&self) -> Vec<usize> {
        let mut out = vec![0usize];
        for e in &self.extents {
            let mut next = Vec::with_capacity(out.len() * e.n);
            for base in &out {
                for i in 0..e.n {
                    next.push(base * e.padded + i);
                }
            }
            out = next;
        }
        out
    }

    fn scatter(&self, words: &[ComplexQf128]) -> Vec<ComplexQf128> {
        let zero = ComplexQf128::new(Qf128::ZERO, Qf128::ZERO);
        let mut padded = vec![zero; self.inner.len()];
        for (w, i) in words.iter().zip(self.padded_indices()) {
            padded[i] = *w;
        }
        padded
    }

    pub(crate) fn context(&self) -> &GlContext {
        self.inner.context()
    }

    /// Multiplies the data, element by element, by the data of `other` (same shape and
    /// precision), on the GPU: the frequency-domain step of a convolution. The padding of a
    /// Bluestein transform's output is zero, so the product of the padded data is the product
    /// of the user's.
    pub fn multiply_by(&mut self, other: &FftPlan) -> Result<(), FftError> {
        if other.shape != self.shape {
            return Err(FftError::PlanMismatch);
        }
        self.inner.multiply_by(&other.inner)
    }

    /// The transform without the timer (callers time a larger block); factors made first.
    pub(crate) fn run(&mut self, direction: Direction, check: bool) -> Result<(), FftError> {
        if !self.uses_bluestein() {
            return self.inner.run(direction, check);
        }
        self.ensure_factors(direction)?;
        let blue = self.axes_where(|e| e.bluestein());
        let Some(factors) = &self.factors[direction_index(direction)] else {
            return Err(FftError::Unsupported(
                "internal: Bluestein factors missing".into(),
            ));
        };
        run_bluestein(&mut self.inner, &blue, factors, direction, check)
    }

    pub(crate) fn ensure_factors(&mut self, direction: Direction) -> Result<(), FftError> {
        let i = direction_index(direction);
        if self.factors[i].is_some() || !self.uses_bluestein() {
            return Ok(());
        }
        let qf = self.precision() == FftPrecision::Qf128;
        self.factors[i] = Some(bluestein_factors(
            &self.inner,
            &self.extents,
            qf,
            direction,
        )?);
        Ok(())
    }
}

impl GpuFft for FftPlan {
    /// The shape the user asked for (before padding).
    fn shape(&self) -> FftShape {
        self.shape
    }

    fn options(&self) -> FftOptions {
        self.inner.options()
    }

    /// With Bluestein: both of its transforms along those axes and the three products.
    fn passes(&self) -> usize {
        if !self.uses_bluestein() {
            return self.inner.passes();
        }
        let per_axis = self.inner.axis_passes();
        let twice: usize = self
            .axes_where(|e| e.bluestein())
            .iter()
            .zip(&per_axis)
            .map(|(b, p)| if *b { 2 * p } else { *p })
            .sum();
        twice + 3
    }

    fn upload_scaled(&mut self, data: &BlockScaled) -> Result<Underflow, FftError> {
        if data.len() != self.len() {
            return Err(FftError::LengthMismatch {
                got: data.len(),
                n: self.len(),
            });
        }
        // Named by its index in the caller's data, before the padding moves it.
        if let Some(i) = first_non_finite(&data.words) {
            return Err(FftError::NonFinite(i));
        }
        self.inner.upload_scaled(&BlockScaled {
            words: self.scatter(&data.words),
            ..*data
        })
    }

    fn download_scaled(&self) -> Result<BlockScaled, FftError> {
        let all = self.inner.download_scaled()?;
        if all.words.len() == self.len() {
            return Ok(all);
        }
        Ok(BlockScaled {
            words: self
                .padded_indices()
                .iter()
                .filter_map(|i| all.words.get(*i).copied())
                .collect(),
            ..all
        })
    }

    fn execute(&mut self, direction: Direction) -> Result<Timing, FftError> {
        if !self.uses_bluestein() {
            return self.inner.execute(direction);
        }
        self.ensure_factors(direction)?;
        let ctx = self.inner.context().clone();
        let ((), t) = timed(&ctx, || self.run(direction, false))?;
        Ok(t)
    }

    fn execute_checked(&mut self, direction: Direction) -> Result<(), FftError> {
        self.ensure_factors(direction)?;
        self.run(direction, true)
    }
}
