//! Running a [`StockhamPlan`]: the passes of each axis (one full-screen draw a stage,
//! ping-pong), the pointwise product, the headroom rescale, and where a non-finite value first
//! appears.

use crate::fft::scale::BlockScaled;
use crate::fft::{Direction, FftError, GpuFft};
use crate::gl::{timed, Framebuffer, GlContext, Pass, Timing, Uniform};

use super::{Axis, Buffer, Loc, Observer, PassKind, StageDone, StockhamPlan, HEADROOM_LOG2};

impl StockhamPlan {
    /// Rescales the data when one more transform could pass [`HEADROOM_LOG2`].
    pub(crate) fn ensure_headroom(&mut self) -> Result<(), FftError> {
        let all = vec![true; self.axes.len()];
        self.ensure_headroom_for(&all)
    }

    pub(super) fn ensure_headroom_for(&mut self, selected: &[bool]) -> Result<(), FftError> {
        let growth: i32 = self
            .axes
            .iter()
            .zip(selected)
            .filter(|(_, s)| **s)
            .map(|(a, _)| self.log2_len_ceil(*a))
            .sum();
        if self.options.block_scaling && self.bound_log2 + growth > HEADROOM_LOG2 {
            self.rescale()?;
        }
        Ok(())
    }

    /// ceil(log2 N) of an axis: the growth of its transform's magnitudes.
    pub(super) fn log2_len_ceil(&self, axis: Axis) -> i32 {
        (axis.log2_n + (self.odd as u32).next_power_of_two().trailing_zeros()) as i32
    }

    /// The whole data as one axis of `len` elements (copy and pointwise passes).
    fn whole(&self) -> Axis {
        Axis {
            log2_n: (self.len() / self.odd).trailing_zeros(),
            log2_stride: 0,
        }
    }

    /// Scales the data back to a largest part in [0.5, 1) through the host: rare, only when
    /// the tracked bound (loose: it assumes the worst growth of every pass) runs out of room.
    pub(super) fn rescale(&mut self) -> Result<(), FftError> {
        let history = std::mem::take(&mut self.history);
        let data = self.download_scaled()?;
        self.upload_scaled(&BlockScaled::from_qf128(&data.words, data.exponent)?)?;
        self.history = history;
        Ok(())
    }

    pub(super) fn after(&self) -> String {
        if self.history.is_empty() {
            "right after the upload".into()
        } else {
            format!("after {}", self.history.join(", then "))
        }
    }

    pub(super) fn non_finite(&self, element: usize, after: String) -> FftError {
        FftError::NonFiniteResult {
            precision: self.options.precision.name(),
            element,
            after,
        }
    }

    /// Runs every stage of every axis on the data on the GPU; returns the time of the passes.
    pub(crate) fn execute_passes(&mut self, direction: Direction) -> Result<Timing, FftError> {
        let ctx = self.ctx.clone();
        // A rescale (rare) reads the data back: outside the timed passes.
        self.ensure_headroom()?;
        let ((), timing) = timed(&ctx, || self.run(direction, false))?;
        Ok(timing)
    }

    /// [`execute_passes`](Self::execute_passes) without the timer (for callers that time a larger block).
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

    pub(super) fn copy_pass(&mut self) -> Result<(), FftError> {
        let axis = self.whole();
        self.pass(
            PassKind::Copy,
            axis,
            Loc::Natural(self.front),
            self.len(),
            1.0,
            1.0,
            None,
        )?;
        self.front = 1 - self.front;
        Ok(())
    }

    pub(super) fn pointwise(
        &mut self,
        b: &Buffer,
        exponent: i32,
        bound_log2: i32,
    ) -> Result<(), FftError> {
        self.ensure_program(PassKind::Pointwise)?;
        let axis = self.whole();
        self.pass(
            PassKind::Pointwise,
            axis,
            Loc::Natural(self.front),
            self.len(),
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
        self.require_power_of_two("the real-input transform")?;
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
        self.require_power_of_two("the real-input transform")?;
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

    /// An error for what only power-of-two plans do (the real-input passes).
    pub(super) fn require_power_of_two(&self, what: &str) -> Result<(), FftError> {
        if self.odd > 1 {
            return Err(FftError::Unsupported(format!(
                "{what} takes power-of-two lengths; this plan's have the odd factor {}",
                self.odd
            )));
        }
        Ok(())
    }

    pub(crate) fn context(&self) -> &GlContext {
        &self.ctx
    }

    /// One axis's stages; `observe` (if any) sees every pass's output as it is written.
    pub(super) fn run_axis(
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
        // The power of two of N (an odd factor's 1/odd is its stage's on the inverse).
        let l = axis.log2_n as i32;
        let (shift, exponent_delta) = match (self.options.block_scaling, direction) {
            (false, Direction::Forward) => (0, 0),
            (false, Direction::Inverse) => (l, 0),
            (true, Direction::Forward) => (l / 2, l / 2),
            (true, Direction::Inverse) => ((l + 1) / 2, -(l / 2)),
        };
        self.exponent += exponent_delta;
        // Each output is a sum of N inputs, then scaled.
        self.bound_log2 += self.log2_len_ceil(axis) - shift;
        let kinds = self.stage_kinds(axis)?;
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
            l *= kind.butterfly().map_or(1, |b| b.radix);
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
    pub(super) fn pass(
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
            // Ping-pong within the pair of buffers with as many planes as the pass writes.
            let outputs = kind.outputs();
            let first = self
                .planes
                .iter()
                .position(|b| b.planes == outputs)
                .ok_or_else(|| {
                    FftError::Unsupported(format!("internal: no planes buffer for {kind:?}"))
                })?;
            let next = match src {
                Loc::Planes(i, _) if i / 2 == first / 2 => i ^ 1,
                _ => first,
            };
            // The span Ls = L / outputs: where output t of fragment k Ls + j lands (the last
            // radix-2 stage's two butterflies make four outputs at L = N, span N/4).
            let ls = (l / outputs).trailing_zeros();
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
                .optional_uniform("u_in_radix", Uniform::I32(in_buf.planes as i32))
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
    pub(super) fn first_non_finite_at(&self, loc: Loc) -> Result<Option<usize>, FftError> {
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

    pub(super) fn plane_buffer(&self, i: usize) -> Result<&Buffer, FftError> {
        self.planes.get(i).ok_or_else(|| {
            FftError::Unsupported(format!("internal: a pass needs planes buffer {i}"))
        })
    }
}
