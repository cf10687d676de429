//! Numeric kernels on the GPU: element-wise df64 operations as fragment programs built from
//! `glsl/df64.glsl` with the probe's configuration. Refuses to exist on a driver the probe
//! could not prove exact.

use std::cell::RefCell;
use std::collections::HashMap;

use serde::Serialize;
use thiserror::Error;

use crate::gl::{
    timed, Framebuffer, GlContext, GlError, GlslLibrary, Layout, Pass, Program, Texture, Timing,
    Uniform,
};
use astro_float::BigFloat;

use crate::numeric::df64::{self as m, ComplexDf64, Df64};
use crate::numeric::oracle::{big_df64, Oracle};
use crate::numeric::qf128::{self as q, Qf128};
use crate::numeric::reference::Dd;
use crate::probe::{DriverConfig, ProbeReport};

mod ops;
#[doc(hidden)] // For df64gl-cli and the tests: not part of the API.
pub mod proof;
pub use ops::{ComplexOp, Df64Op, F64Op, Qf128Op, TimedOp};
use proof::{build_proven, complex_words, qf128_words, CaseDomain, Outcome, Proof};

/// What can go wrong building or running a kernel.
#[derive(Debug, Error)]
pub enum KernelError {
    /// The GL layer failed.
    #[error(transparent)]
    Gl(#[from] GlError),
    /// A program this driver could not prove (why).
    #[error("{0}")]
    Refused(String),
    /// Operands of different lengths.
    #[error("operands differ in length: {a} and {b} elements")]
    LengthMismatch {
        /// Elements of the first operand.
        a: usize,
        /// Elements of the second.
        b: usize,
    },
    #[error("df64 {op}: element {element}: {what} {value:e} is outside the domain where its \
             error bound is proven (zero, or magnitudes from 2^{lo} to 2^{hi}, about {lo_dec:.1e} \
             to {hi_dec:.1e}): scale the data by a power of two first (exact), or call \
             apply_unchecked to compute it anyway", lo_dec = 2f64.powi(*lo), hi_dec = 2f64.powi(*hi))]
    /// An operand or result outside the domain where the bound is proven.
    OutOfDomain {
        /// The op.
        op: &'static str,
        /// The element.
        element: usize,
        /// "operand a", "operand b" or "result".
        what: &'static str,
        /// Its value.
        value: f64,
        /// The domain's lower end, as a power of two.
        lo: i32,
        /// Its upper end.
        hi: i32,
    },
}

use crate::numeric::domain::in_log2_range;
pub use crate::numeric::domain::{DF64_DOMAIN_LOG2, UNSCALED_DOMAIN_LOG2};

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum ProgramKey {
    Lanes(Df64Op),
    Chain(TimedOp),
    Complex(ComplexOp),
    Qf(Qf128Op),
}

impl ProgramKey {
    /// How errors and `df64gl selftest` name the program.
    fn program_name(self) -> String {
        match self {
            ProgramKey::Lanes(op) => format!("elementwise.glsl ({})", op.glsl()),
            ProgramKey::Complex(op) => format!("elementwise.glsl ({})", op.glsl()),
            ProgramKey::Qf(op) => format!("elementwise.glsl ({})", op.glsl()),
            ProgramKey::Chain(op) => format!("elementwise.glsl (timing chain of {})", op.name()),
        }
    }
}

fn df64_text(x: Df64) -> String {
    format!("{:e} ({:e} + {:e})", x.to_f64(), x.hi, x.lo)
}

/// Compiles element-wise df64 programs on demand (once each) and runs them.
pub struct Df64Kernels {
    ctx: GlContext,
    config: DriverConfig,
    proof: Proof,
    library: GlslLibrary,
    programs: RefCell<HashMap<ProgramKey, std::rc::Rc<Program>>>,
}

impl Df64Kernels {
    /// Kernels configured by `report`; an error when the probe found no exact configuration.
    ///
    /// ```
    /// use df64gl::gl::{DeviceChoice, GlContext};
    /// use df64gl::kernels::{Df64Kernels, Df64Op};
    /// use df64gl::numeric::df64::Df64;
    /// use df64gl::probe::probe_driver;
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let ctx = GlContext::headless(&DeviceChoice::Auto)?;
    /// let kernels = Df64Kernels::new(&ctx, &probe_driver(&ctx, false)?)?;
    /// // sqrt(2) squared in df64: 2 within 2^-45.
    /// let two = vec![Df64::from_f64(2.0)];
    /// let root = kernels.apply(Df64Op::Sqrt, &two, &two)?;
    /// let square = kernels.apply(Df64Op::Mul, &root, &root)?;
    /// assert!((square[0].to_f64() - 2.0).abs() < 2f64.powi(-45));
    /// # Ok(())
    /// # }
    /// ```
    pub fn new(ctx: &GlContext, report: &ProbeReport) -> Result<Self, KernelError> {
        report.require_config().map_err(KernelError::Refused)?;
        Ok(Self::f32_only(ctx, report))
    }

    /// Kernels for f32 work on any driver: on one where the probe refused df64, every df64
    /// and qf128 program is refused when built (naming the probe's reason), and plain f32
    /// programs (the f32 FFT) are built without a self-test (nothing there to prove).
    pub fn f32_only(ctx: &GlContext, report: &ProbeReport) -> Self {
        Df64Kernels {
            ctx: ctx.clone(),
            config: report.config.unwrap_or(DriverConfig {
                protection: crate::probe::Protection::None,
                two_prod: crate::probe::TwoProdKind::Dekker,
                two_sum: crate::probe::TwoSumKind::Sorted,
            }),
            proof: Proof::from_report(report),
            library: GlslLibrary::builtin(),
            programs: RefCell::new(HashMap::new()),
        }
    }

    /// Why df64 is refused on this driver, if it is.
    pub fn df64_refusal(&self) -> Option<&str> {
        self.proof.refusal.as_deref()
    }

    /// The configuration the probe proved (programs may fall back to a later one).
    pub fn config(&self) -> DriverConfig {
        self.config
    }

    /// The probe showed round-to-nearest f32, so results must equal the CPU mirror bit for bit.
    pub fn round_to_nearest(&self) -> bool {
        self.proof.round_to_nearest
    }

    /// The probe saw the driver flush subnormal results and inputs: the mirror runs
    /// flush-to-zero, and a subnormal word reads as a zero of its sign.
    pub fn flushes_subnormals(&self) -> bool {
        self.proof.flushes_subnormals
    }

    /// What the programs' self-tests compare against (see [`proof`]).
    pub fn proof(&self) -> &Proof {
        &self.proof
    }

    /// `f(i)` for i in 0..n on the CPU, in the floating-point environment of this driver
    /// (subnormals flushed when the probe saw it flush them), for comparing GPU results with
    /// the CPU mirror bit for bit.
    pub fn mirror_map<R: Clone + Default>(&self, n: usize, f: impl Fn(usize) -> R) -> Vec<R> {
        self.proof.mirror_map(n, f)
    }

    /// The GL context.
    pub fn context(&self) -> &GlContext {
        &self.ctx
    }

    /// Builds a program of the GLSL library with this driver's df64 configuration plus
    /// `defines` (experiments beyond the element-wise kernels: Leibniz, Mandelbrot).
    pub fn build_program(
        &self,
        entry: &str,
        defines: &[(&str, &str)],
    ) -> Result<Program, KernelError> {
        self.build_program_with(self.config, entry, defines)
    }

    fn build_program_with(
        &self,
        config: DriverConfig,
        entry: &str,
        defines: &[(&str, &str)],
    ) -> Result<Program, KernelError> {
        let mut all = config.defines();
        all.extend(defines.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        Ok(Program::build(&self.ctx, &self.library, entry, &all)?)
    }

    /// [`build_program`](Self::build_program) under the first proven configuration whose
    /// known-answer `test` passes (skipped when this source passed before on this driver);
    /// refused, naming `name`, the input and the values, when none does.
    pub fn build_program_proven(
        &self,
        entry: &str,
        defines: &[(&str, &str)],
        name: &str,
        test: impl FnMut(&Program) -> Result<Outcome, KernelError>,
    ) -> Result<Program, KernelError> {
        let build = |config: DriverConfig| self.build_program_with(config, entry, defines);
        let sources = |p: &Program| vec![p.source().text.clone()];
        let (program, _) = build_proven(self.ctx.info(), &self.proof, name, build, sources, test)?;
        Ok(program)
    }

    /// Whether shaders here can use `double`: `Ok(false)` natively (GLSL 4.00+), `Ok(true)`
    /// through GL_ARB_gpu_shader_fp64 (the shader must enable it), an error when neither.
    pub fn double_support(&self) -> Result<bool, KernelError> {
        let info = self.ctx.info();
        if info.glsl_number >= 400 {
            Ok(false)
        } else if info.gpu_shader_fp64 {
            Ok(true)
        } else {
            Err(KernelError::Gl(GlError::Unsupported(format!(
                "native double needs GLSL 4.00 or GL_ARB_gpu_shader_fp64, which {} does not offer",
                info.renderer
            ))))
        }
    }

    fn program(&self, key: ProgramKey) -> Result<std::rc::Rc<Program>, KernelError> {
        if let Some(p) = self.programs.borrow().get(&key) {
            return Ok(p.clone());
        }
        let p = match key {
            // The timing chains' results are never returned, and the native-double ones hold
            // no df64: built as they are.
            ProgramKey::Chain(_) => std::rc::Rc::new(self.build_elementwise(key, self.config)?),
            ProgramKey::Lanes(_) | ProgramKey::Complex(_) | ProgramKey::Qf(_) => {
                let build = |config: DriverConfig| self.build_elementwise(key, config);
                let sources = |p: &Program| vec![p.source().text.clone()];
                let test = |p: &Program| self.self_test(key, p);
                let name = key.program_name();
                let (p, _) =
                    build_proven(self.ctx.info(), &self.proof, &name, build, sources, test)?;
                std::rc::Rc::new(p)
            }
        };
        self.programs.borrow_mut().insert(key, p.clone());
        Ok(p)
    }

    /// The known-answer test of an element-wise program: [`proof::df64_cases`] (or their
    /// qf128 and complex forms) against the mirror.
    fn self_test(&self, key: ProgramKey, program: &Program) -> Result<Outcome, KernelError> {
        let name = key.program_name();
        Ok(match key {
            ProgramKey::Lanes(op) => {
                let (a, mut b): (Vec<Df64>, Vec<Df64>) = proof::df64_cases().into_iter().unzip();
                if op.args() == crate::numeric::catalog::Args::WithExponent {
                    // b is the exponent: every integer from -40 to 40 over the cases.
                    for (i, x) in b.iter_mut().enumerate() {
                        *x = Df64::new((i % 81) as f32 - 40.0, 0.0);
                    }
                }
                let got = self.run_program_texels(program, &a, &b, 2)?.0;
                let mirror = op.mirror();
                let want = self.mirror_map(a.len(), |i| mirror(a[i], b[i]));
                // The exact value, for the slack of drivers whose f32 division or square
                // root is not correctly rounded (nothing is computed on the others).
                let reference = op.reference();
                let oracle = RefCell::new(None::<Oracle>);
                let domain = op.domain_log2();
                let beyond = if domain == DF64_DOMAIN_LOG2 {
                    CaseDomain::Outside
                } else {
                    CaseDomain::Unpromised
                };
                let exact = |i: usize| {
                    let x = match reference {
                        Some(r) => r(Dd::from_df64(a[i]), Dd::from_df64(b[i])).to_f64(),
                        None => {
                            let mut o = oracle.borrow_mut();
                            let o = o.get_or_insert_with(Oracle::new);
                            let (x, y) = (big_df64(a[i]), big_df64(b[i]));
                            crate::numeric::oracle::to_f64(&op.oracle(o, &x, &y)?)
                        }
                    };
                    let operands = [Some(a[i]), (!op.unary()).then_some(b[i])];
                    let in_domain = operands
                        .iter()
                        .flatten()
                        .all(|v| in_log2_range(v.hi as f64, domain))
                        && in_log2_range(x, domain);
                    Some((x, if in_domain { CaseDomain::In } else { beyond }))
                };
                self.proof.compare_df64(&name, &got, &want, exact, |i| {
                    format!("a = {}, b = {}", df64_text(a[i]), df64_text(b[i]))
                })
            }
            ProgramKey::Complex(op) => {
                let (a, b): (Vec<ComplexDf64>, Vec<ComplexDf64>) =
                    proof::complex_cases().into_iter().unzip();
                let got = self.run_program_texels(program, &a, &b, 1)?.0;
                let mirror = op.mirror();
                let want = self.mirror_map(a.len(), |i| mirror(a[i], b[i]));
                self.proof.compare(&name, &got, &want, complex_words, |i| {
                    format!("a = {:?}, b = {:?}", a[i], b[i])
                })
            }
            ProgramKey::Qf(op) => {
                let (a, b): (Vec<Qf128>, Vec<Qf128>) = proof::qf128_cases()
                    .into_iter()
                    .map(|(a, b)| (a, op.second_operand(b)))
                    .unzip();
                let got = self.run_program_texels(program, &a, &b, 1)?.0;
                let mirror = op.mirror();
                let want = self.mirror_map(a.len(), |i| mirror(a[i], b[i]));
                self.proof.compare(&name, &got, &want, qf128_words, |i| {
                    format!("a = {:?}, b = {:?}", a[i].x, b[i].x)
                })
            }
            // Never asked: `program` builds the chains unproven (their results are never
            // returned). Refused, so a chain cannot pass a self-test with no cases.
            ProgramKey::Chain(_) => {
                return Err(KernelError::Refused(format!(
                    "{name} is a timing chain, which has no known answers to prove it by; \
                     run the op itself for results"
                )))
            }
        })
    }

    fn build_elementwise(
        &self,
        key: ProgramKey,
        config: DriverConfig,
    ) -> Result<Program, KernelError> {
        let mut defines = config.defines();
        let (op_expr, extra) = match key {
            ProgramKey::Lanes(op) => (op.glsl(), None),
            ProgramKey::Chain(TimedOp::Df64(op)) => {
                if op.chains_through_fixed_argument() {
                    defines.push(("ELEMENTWISE_CHAIN_FIXED".into(), "1".into()));
                }
                (op.glsl(), Some("ELEMENTWISE_CHAIN"))
            }
            ProgramKey::Chain(TimedOp::Qf128(op)) => {
                defines.push(("ELEMENTWISE_VEC4".into(), "1".into()));
                (op.glsl(), Some("ELEMENTWISE_CHAIN"))
            }
            ProgramKey::Chain(TimedOp::F64(op)) => {
                if self.double_support()? {
                    defines.push((crate::gl::FP64_EXTENSION_DEFINE.into(), "1".into()));
                }
                (op.glsl(), Some("ELEMENTWISE_F64"))
            }
            ProgramKey::Complex(op) => (op.glsl(), Some("ELEMENTWISE_VEC4")),
            ProgramKey::Qf(op) => (op.glsl(), Some("ELEMENTWISE_VEC4")),
        };
        defines.push(("ELEMENTWISE_OP(a, b)".into(), op_expr.into()));
        if let Some(e) = extra {
            defines.push((e.into(), "1".into()));
        }
        Ok(Program::build(
            &self.ctx,
            &self.library,
            "elementwise.glsl",
            &defines,
        )?)
    }

    fn run_texels<T: bytemuck::Pod>(
        &self,
        key: ProgramKey,
        a: &[T],
        b: &[T],
        per_texel: usize,
    ) -> Result<(Vec<T>, Timing), KernelError> {
        // Lengths first: a mismatch must not cost a compile.
        if a.len() != b.len() {
            return Err(KernelError::LengthMismatch {
                a: a.len(),
                b: b.len(),
            });
        }
        let program = self.program(key)?;
        self.run_program_texels(&program, a, b, per_texel)
    }

    /// One draw of `program` over `a` and `b` (`per_texel` values to a texel).
    fn run_program_texels<T: bytemuck::Pod>(
        &self,
        program: &Program,
        a: &[T],
        b: &[T],
        per_texel: usize,
    ) -> Result<(Vec<T>, Timing), KernelError> {
        if a.len() != b.len() {
            return Err(KernelError::LengthMismatch {
                a: a.len(),
                b: b.len(),
            });
        }
        let layout = Layout::padded(a.len(), per_texel, self.ctx.info().max_texture_size)?;
        let pad = |v: &[T]| {
            let mut p = v.to_vec();
            p.resize(layout.capacity(), T::zeroed());
            p
        };
        let ta = Texture::with_data(&self.ctx, layout.width, layout.height, &pad(a))?;
        let tb = Texture::with_data(&self.ctx, layout.width, layout.height, &pad(b))?;
        let out = Texture::new(&self.ctx, layout.width, layout.height)?;
        let fb = Framebuffer::new(&self.ctx, &[&out])?;
        let ((), timing) = timed(&self.ctx, || {
            Pass::new(program)
                .input("u_a", &ta)
                .optional_input("u_b", &tb)
                .run(&self.ctx, &fb)
        })?;
        let mut r: Vec<T> = fb.read(&self.ctx, 0)?;
        r.truncate(a.len());
        Ok((r, timing))
    }

    /// `op` applied element-wise on the GPU (unary ops ignore `b`, which must still match `a`'s
    /// length). Operands (and, where the exact result is known, results) outside
    /// [`DF64_DOMAIN_LOG2`] are an error naming the element: there the 48-bit bound is not
    /// proven.
    pub fn apply(&self, op: Df64Op, a: &[Df64], b: &[Df64]) -> Result<Vec<Df64>, KernelError> {
        op.check_domain(a, b)?;
        self.apply_unchecked(op, a, b)
    }

    /// [`apply`](Self::apply) without the domain check: for measuring the routines anywhere.
    pub fn apply_unchecked(
        &self,
        op: Df64Op,
        a: &[Df64],
        b: &[Df64],
    ) -> Result<Vec<Df64>, KernelError> {
        Ok(self.run_texels(ProgramKey::Lanes(op), a, b, 2)?.0)
    }

    /// Like [`apply`](Self::apply), also returning the time of the draw.
    pub fn apply_timed(
        &self,
        op: Df64Op,
        a: &[Df64],
        b: &[Df64],
    ) -> Result<(Vec<Df64>, Timing), KernelError> {
        op.check_domain(a, b)?;
        self.run_texels(ProgramKey::Lanes(op), a, b, 2)
    }

    /// Applies a complex op element by element (one complex df64 per texel).
    pub fn apply_complex(
        &self,
        op: ComplexOp,
        a: &[ComplexDf64],
        b: &[ComplexDf64],
    ) -> Result<Vec<ComplexDf64>, KernelError> {
        Ok(self.run_texels(ProgramKey::Complex(op), a, b, 1)?.0)
    }

    /// A qf128 `op` applied element-wise on the GPU.
    pub fn apply_qf128(
        &self,
        op: Qf128Op,
        a: &[Qf128],
        b: &[Qf128],
    ) -> Result<Vec<Qf128>, KernelError> {
        Ok(self.run_texels(ProgramKey::Qf(op), a, b, 1)?.0)
    }

    /// Time of one pass over `texels` texels (2 lanes each) applying `op` `repeat` times in a
    /// dependent chain, best of `tries`. Operands lie in [0.5, 1) and near 1, so chains neither
    /// overflow nor take the early exits for infinities.
    pub fn time_chain(
        &self,
        op: impl Into<TimedOp>,
        texels: usize,
        repeat: i32,
        tries: usize,
    ) -> Result<Timing, KernelError> {
        let op = op.into();
        let layout = Layout::padded(texels, 1, self.ctx.info().max_texture_size)?;
        let n = layout.capacity() * 2;
        let a: Vec<Df64> = (0..n)
            .map(|i| Df64::from_f64(0.5 + (i % 997) as f64 / 1994.0))
            .collect();
        let b: Vec<Df64> = (0..n)
            .map(|i| Df64::from_f64(1.0 + ((i % 991) as f64 - 495.0) * 1e-6))
            .collect();
        let ta = Texture::with_data(&self.ctx, layout.width, layout.height, &a)?;
        let tb = Texture::with_data(&self.ctx, layout.width, layout.height, &b)?;
        let out = Texture::new(&self.ctx, layout.width, layout.height)?;
        let fb = Framebuffer::new(&self.ctx, &[&out])?;
        let program = self.program(ProgramKey::Chain(op))?;
        let pass = Pass::new(&program)
            .input("u_a", &ta)
            .optional_input("u_b", &tb)
            .uniform("u_repeat", Uniform::I32(repeat));
        // Warm-up draw: first use can include driver-side compilation.
        pass.run(&self.ctx, &fb)?;
        let mut best: Option<Timing> = None;
        for _ in 0..tries.max(1) {
            let ((), t) = timed(&self.ctx, || pass.run(&self.ctx, &fb))?;
            if best.is_none_or(|b| t.best() < b.best()) {
                best = Some(t);
            }
        }
        Ok(best.unwrap_or(Timing {
            wall: std::time::Duration::ZERO,
            gpu: None,
        }))
    }

    /// Seconds per op per lane: the time of a chain of K ops minus that of K = 0 (fetch and
    /// store alone), over K, with K doubled until the difference is at least `min_seconds`.
    /// A qf128 texel holds one value, so its cost is per texel.
    pub fn op_cost(
        &self,
        op: impl Into<TimedOp>,
        texels: usize,
        min_seconds: f64,
    ) -> Result<OpCost, KernelError> {
        let op = op.into();
        let lanes = match op {
            TimedOp::Df64(_) | TimedOp::F64(_) => (texels * 2) as f64,
            TimedOp::Qf128(_) => texels as f64,
        };
        let base = self.time_chain(op, texels, 0, 5)?.best().as_secs_f64();
        let mut repeat = 8;
        loop {
            let t = self.time_chain(op, texels, repeat, 3)?.best().as_secs_f64();
            if t - base >= min_seconds || repeat >= 1 << 16 {
                return Ok(OpCost {
                    seconds_per_op: (t - base).max(0.0) / (repeat as f64 * lanes),
                    repeat,
                    overhead_seconds: base,
                });
            }
            repeat *= 2;
        }
    }
}

/// The measured cost of one df64 op on this device.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct OpCost {
    /// Seconds per op per lane.
    pub seconds_per_op: f64,
    /// Chain length that made the difference measurable.
    pub repeat: i32,
    /// Time of the pass with no ops (fetch and store).
    pub overhead_seconds: f64,
}
