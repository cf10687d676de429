//! The driver probe: measures the driver's f32 arithmetic (Thall's Table I, Da Graca and
//! Defour's Table 2) and whether the error-free transforms stay exact with and without
//! `precise`, then picks the configuration df64 programs are built with. A driver on which no
//! configuration is exact gets no configuration: df64 programs then refuse to run.
//!
//! What renderers take away (the GLSL and WGSL exports and the checks of a caller's context)
//! is [`crate::export`].

mod cache;
mod config;
#[doc(hidden)] // For df64gl-cli and the tests: not part of the API.
pub mod selftest;

use glow::HasContext;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::gl::{
    Framebuffer, GlContext, GlError, GlInfo, GlslLibrary, Layout, Pass, Program, Texture, Uniform,
    BARRIER_DEFINE, GPU_SHADER5_DEFINE, STATEMENT_MULTIPLY_DEFINE,
};
use crate::numeric::df64::{
    df64_split, df64_two_diff, df64_two_prod_dekker, df64_two_sqr, df64_two_sum,
};
use crate::numeric::reference::error_ulp32;

pub(crate) use cache::cache_dir;
pub use cache::{load_cached, store_cached};
pub(crate) use config::forced_protection;
use config::{decide, transforms_exact};
pub use config::{DriverConfig, Protection, TwoProdKind, TwoSumKind, PROTECTION_ENV, TWO_SUM_ENV};

/// Bumped whenever the probe's tests or decisions change, so cached results are redone.
pub const PROBE_VERSION: u32 = 4;

/// What can go wrong probing a driver.
#[derive(Debug, Error)]
pub enum ProbeError {
    /// The GL layer failed.
    #[error(transparent)]
    Gl(#[from] GlError),
    /// The WGSL export could not be made, or the WebGPU check could not run.
    #[error("WGSL: {detail}")]
    Wgsl {
        /// What went wrong, and what to do.
        detail: String,
    },
    /// The probe cache could not be read or written.
    #[error("probe cache at {path}: {detail}")]
    Cache {
        /// The cache file.
        path: String,
        /// What went wrong.
        detail: String,
    },
}

/// One row of the Table I reproduction.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct OpRow {
    /// The f32 operation ("add", "mul", ...).
    pub op: String,
    /// Smallest and largest signed error, in ulps of the f32 result (s23e8).
    pub min_ulp: f64,
    /// Largest signed error, in ulps of the f32 result.
    pub max_ulp: f64,
    /// Share of results equal to the correctly rounded (nearest-even) value.
    pub correctly_rounded: f64,
    /// "nearest", "chopped", "faithful" or "worse than faithful".
    pub rounding: String,
    /// Inputs measured.
    pub samples: usize,
}

impl OpRow {
    /// Every result correctly rounded.
    pub(crate) fn is_correctly_rounded(&self) -> bool {
        self.correctly_rounded == 1.0
    }
}

/// Whether an error-free transform came out exact, compiled with one protection.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct EftRow {
    /// The transform ("twoSum", "split", ...).
    pub transform: String,
    /// The protection it was compiled with.
    pub protection: Protection,
    /// Share of inputs whose result differs from the exact CPU result.
    pub wrong: f64,
    /// Inputs measured.
    pub samples: usize,
    /// The first wrong lane, as `inputs -> got, expected` in hexadecimal words, so a refusal
    /// names a case to look at.
    #[serde(default)]
    pub first_wrong: Option<String>,
}

impl EftRow {
    /// No input gave a wrong result.
    pub fn exact(&self) -> bool {
        self.wrong == 0.0
    }
}

/// What the probe measured on a driver and the configuration it chose.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ProbeReport {
    /// The probe version that made it ([`PROBE_VERSION`]).
    pub probe_version: u32,
    /// The driver.
    pub driver: GlInfo,
    /// Table I: each f32 operation's rounding.
    pub ops: Vec<OpRow>,
    /// 1 + 2^-23 plus 2^-24 (a tie) rounds to 1 + 2^-22, and 1 + 2^-24 to 1.
    pub ties_to_even: bool,
    /// 1 - (1 - 2^-24) == 2^-24.
    pub guard_digit: bool,
    /// 2^-126 * 0.5 gives 0 instead of the subnormal 2^-127.
    pub flushes_subnormal_results: bool,
    /// A subnormal input (2^-140) times 2^20 gives 0 instead of 2^-120.
    pub flushes_subnormal_inputs: bool,
    /// fma(a, b, -fl(a*b)) is nonzero somewhere: fma() is fused.
    pub fma_fused: bool,
    /// Each error-free transform under each protection.
    pub transforms: Vec<EftRow>,
    /// The configuration df64 programs use; `None` when nothing is exact here.
    pub config: Option<DriverConfig>,
    /// Why there is no configuration, or what was chosen and why.
    pub decision: String,
    /// Whether this report came from the cache rather than a fresh run.
    #[serde(default)]
    pub from_cache: bool,
}

impl ProbeReport {
    /// The Table I row of an operation.
    pub fn op(&self, name: &str) -> Option<&OpRow> {
        self.ops.iter().find(|r| r.op == name)
    }

    /// The row of a transform under a protection.
    pub fn transform(&self, name: &str, protection: Protection) -> Option<&EftRow> {
        self.transforms
            .iter()
            .find(|r| r.transform == name && r.protection == protection)
    }

    /// f32 +, -, *, / and sqrt all round to nearest, so GPU df64 results must equal the CPU
    /// mirror bit for bit.
    pub fn round_to_nearest(&self) -> bool {
        ["add", "sub", "mul", "div", "sqrt"]
            .iter()
            .all(|n| self.op(n).is_some_and(OpRow::is_correctly_rounded))
    }

    /// The configuration, or the reason df64 cannot run here.
    pub fn require_config(&self) -> Result<DriverConfig, String> {
        self.config.ok_or_else(|| self.decision.clone())
    }

    /// Every configuration the probe proved, strongest first, beginning with the chosen one:
    /// where a program's self-test fails under one, the engine tries the next. A forced
    /// protection has no fallback (it is a test of the proof).
    pub(crate) fn proven_configs(&self) -> Vec<DriverConfig> {
        let Some(chosen) = self.config else {
            return Vec::new();
        };
        let mut configs = vec![chosen];
        if forced_protection().is_some() {
            return configs;
        }
        let weaker = Protection::ALL
            .iter()
            .skip_while(|p| **p != chosen.protection)
            .skip(1);
        for p in weaker {
            if transforms_exact(&self.transforms, *p) {
                configs.push(DriverConfig {
                    protection: *p,
                    two_prod: TwoProdKind::Dekker,
                    two_sum: chosen.two_sum,
                });
            }
        }
        configs
    }

    /// Thall's Table I layout, for the terminal.
    pub fn table(&self) -> String {
        let mut s = String::new();
        s.push_str(&format!(
            "Driver: {} / {} / OpenGL {} / GLSL {}\n",
            self.driver.vendor, self.driver.renderer, self.driver.version, self.driver.glsl_version
        ));
        s.push_str("\nf32 arithmetic, error in ulps of s23e8 (exact rounding [-0.5, 0.5], chopped (-1.0, 0.0]):\n");
        s.push_str(&format!(
            "{:<16} {:>22} {:>12} {:<22}\n",
            "Operation", "error range [ulp]", "exact %", "rounding"
        ));
        for r in &self.ops {
            s.push_str(&format!(
                "{:<16} {:>22} {:>12.4} {:<22}\n",
                r.op,
                format!("[{:.3}, {:.3}]", r.min_ulp, r.max_ulp),
                100.0 * r.correctly_rounded,
                r.rounding
            ));
        }
        let yn = |b: bool| if b { "yes" } else { "no" };
        s.push_str(&format!(
            "\nties to even: {}   guard digit on subtraction: {}   subnormal results flushed: {}   subnormal inputs flushed: {}   fma fused: {}\n",
            yn(self.ties_to_even),
            yn(self.guard_digit),
            yn(self.flushes_subnormal_results),
            yn(self.flushes_subnormal_inputs),
            yn(self.fma_fused)
        ));
        s.push_str("\nerror-free transforms (share of wrong results):\n");
        s.push_str(&format!(
            "{:<16} {:>14} {:>14} {:>14} {:>14}\n",
            "transform", "none", "precise", "precise (ext)", "barrier"
        ));
        let mut names: Vec<&str> = self
            .transforms
            .iter()
            .map(|r| r.transform.as_str())
            .collect();
        names.dedup();
        for n in names {
            let cell = |p: Protection| {
                self.transform(n, p)
                    .map(|r| format!("{:.2}%", 100.0 * r.wrong))
                    .unwrap_or_else(|| "n/a".into())
            };
            s.push_str(&format!(
                "{:<16} {:>14} {:>14} {:>14} {:>14}\n",
                n,
                cell(Protection::None),
                cell(Protection::Precise),
                cell(Protection::PreciseExtension),
                cell(Protection::Barrier)
            ));
        }
        s.push_str(&format!("\ndecision: {}\n", self.decision));
        s
    }
}

/// Lanes at the start of the raw-op inputs that hold the special cases.
const SPECIAL_LANES: usize = 8;

struct Inputs {
    a: Vec<f32>,
    b: Vec<f32>,
    layout: Layout,
}

fn random_f32(rng: &mut ChaCha8Rng, emin: i32, emax: i32) -> f32 {
    let m: f64 = rng.gen_range(1.0..2.0);
    let e = rng.gen_range(emin..=emax);
    let s = if rng.gen_bool(0.5) { -1.0 } else { 1.0 };
    (s * m * 2f64.powi(e)) as f32
}

/// Runs the probe program on `a`, `b` (4 lanes a texel) and returns the 4 result lanes.
struct ProbeRunner<'a> {
    ctx: &'a GlContext,
    ta: Texture,
    tb: Texture,
    /// Kept alive for `fb`, which renders into it.
    _out: Texture,
    fb: Framebuffer,
}

impl<'a> ProbeRunner<'a> {
    fn new(ctx: &'a GlContext, inputs: &Inputs) -> Result<Self, GlError> {
        let (w, h) = (inputs.layout.width, inputs.layout.height);
        let ta = Texture::with_data(ctx, w, h, &inputs.a)?;
        let tb = Texture::with_data(ctx, w, h, &inputs.b)?;
        let out = Texture::new(ctx, w, h)?;
        let fb = Framebuffer::new(ctx, &[&out])?;
        Ok(ProbeRunner {
            ctx,
            ta,
            tb,
            _out: out,
            fb,
        })
    }

    fn run(&self, program: &Program, test: i32) -> Result<Vec<f32>, GlError> {
        Pass::new(program)
            .input("u_a", &self.ta)
            .input("u_b", &self.tb)
            .uniform("u_test", Uniform::I32(test))
            .run(self.ctx, &self.fb)?;
        self.fb.read(self.ctx, 0)
    }
}

fn make_raw_inputs(samples: usize, max_tex: u32) -> Result<Inputs, GlError> {
    let layout = Layout::padded(samples, 4, max_tex)?;
    let n = layout.capacity();
    let mut rng = ChaCha8Rng::seed_from_u64(0x7AB1E1);
    // Exponents within +-20: sums and products of two such f32 are exact in f64.
    let mut a: Vec<f32> = (0..n).map(|_| random_f32(&mut rng, -20, 20)).collect();
    let mut b: Vec<f32> = (0..n).map(|_| random_f32(&mut rng, -20, 20)).collect();
    let specials: [(f32, f32); SPECIAL_LANES] = [
        (1.0 + f32::EPSILON, f32::EPSILON / 2.0), // add tie: nearest-even gives 1 + 2^-22
        (1.0, f32::EPSILON / 2.0),                // add tie: nearest-even gives 1
        (1.0, 1.0 - f32::EPSILON / 2.0),          // sub: guard digit gives 2^-24
        (f32::MIN_POSITIVE, 0.5),                 // mul: subnormal result 2^-127
        (2f32.powi(-140), 2f32.powi(20)),         // mul: subnormal input
        (3.0, 7.0),
        (1.5, 0.75),
        (2.0, 0.5),
    ];
    for (i, (x, y)) in specials.iter().enumerate() {
        a[i] = *x;
        b[i] = *y;
    }
    Ok(Inputs { a, b, layout })
}

fn make_eft_inputs(samples: usize, max_tex: u32) -> Result<Inputs, GlError> {
    let layout = Layout::padded(samples, 4, max_tex)?;
    let n = layout.capacity();
    let mut rng = ChaCha8Rng::seed_from_u64(0xEF7);
    let mut a = Vec::with_capacity(n);
    let mut b = Vec::with_capacity(n);
    for _ in 0..n {
        let x = random_f32(&mut rng, -30, 30);
        // b within 0..30 binades of a, so TwoSum's error term is usually nonzero.
        let gap = rng.gen_range(0..30);
        let y = random_f32(&mut rng, 0, 0) * x.abs() * 2f32.powi(-gap);
        a.push(x);
        b.push(y);
    }
    // Split overflow region: values beyond 2^112.
    for (i, x) in a.iter_mut().take(8).enumerate() {
        *x = (1.5 + i as f32 / 16.0) * 2f32.powi(113 + i as i32);
    }
    Ok(Inputs { a, b, layout })
}

fn classify(row_errs: &[f64], results: &[f32], exact_rounded: &[f32]) -> (f64, f64, f64, String) {
    let mut min = f64::INFINITY;
    let mut max = f64::NEG_INFINITY;
    let mut toward_zero = true;
    let mut same = 0usize;
    for ((e, r), x) in row_errs.iter().zip(results).zip(exact_rounded) {
        min = min.min(*e);
        max = max.max(*e);
        let signed = if *r < 0.0 { -*e } else { *e };
        if !(signed <= 1e-12 && signed > -1.0) {
            toward_zero = false;
        }
        if r.to_bits() == x.to_bits() {
            same += 1;
        }
    }
    let share = same as f64 / row_errs.len().max(1) as f64;
    let worst = min.abs().max(max.abs());
    let rounding = if share == 1.0 {
        "nearest"
    } else if toward_zero {
        "chopped"
    } else if worst < 1.0 {
        "faithful"
    } else {
        "worse than faithful"
    };
    (min, max, share, rounding.to_string())
}

/// Runs the whole probe (about a second on llvmpipe with the default sample count).
pub fn run_probe(ctx: &GlContext, samples: usize) -> Result<ProbeReport, ProbeError> {
    let info = ctx.info().clone();
    let library = GlslLibrary::builtin();
    let has_fma = info.glsl_number >= 400;
    let two_sum = TwoSumKind::for_driver(&info);
    let build = |protection: Protection, fma: bool| {
        let config = DriverConfig {
            protection,
            two_prod: if fma {
                TwoProdKind::Fma
            } else {
                TwoProdKind::Dekker
            },
            two_sum,
        };
        Program::build(ctx, &library, "probe.glsl", &config.defines())
    };
    // Every protection the driver can build, strongest first.
    let mut variants: Vec<(Protection, Program)> = Vec::new();
    for p in Protection::ALL {
        if p.available(&info) {
            variants.push((p, build(p, false)?));
        }
    }
    // A protection outside the list (the 0.1.0 barrier) is probed only when forced.
    if let Some(f) = forced_protection().filter(|f| !Protection::ALL.contains(f)) {
        variants.push((f, build(f, false)?));
    }
    let strongest_precise = variants
        .iter()
        .map(|v| v.0)
        .find(|p| matches!(p, Protection::Precise | Protection::PreciseExtension));
    let max_tex = info.max_texture_size;

    // ---- raw f32 operations
    let raw = make_raw_inputs(samples.max(SPECIAL_LANES * 2), max_tex)?;
    let runner = ProbeRunner::new(ctx, &raw)?;
    // The raw operations are measured through the strongest protection (no rewrite to see).
    let reference = &variants[0].1;
    type Exact = fn(f32, f32) -> f64;
    let raw_ops: [(&str, i32, Exact); 7] = [
        ("add", 0, |a, b| a as f64 + b as f64),
        ("sub", 1, |a, b| a as f64 - b as f64),
        ("mul", 2, |a, b| a as f64 * b as f64),
        ("div", 3, |a, b| a as f64 / b as f64),
        ("mul by recip", 4, |a, b| a as f64 / b as f64),
        ("sqrt", 5, |a, _| (a.abs() as f64).sqrt()),
        ("inversesqrt", 6, |a, _| 1.0 / (a.abs() as f64).sqrt()),
    ];
    let mut ops = Vec::new();
    let mut specials_out: Vec<Vec<f32>> = Vec::new();
    // sqrt and inversesqrt take |a|.
    let sqrt_runner = ProbeRunner::new(
        ctx,
        &Inputs {
            a: raw.a.iter().map(|x| x.abs()).collect(),
            b: raw.b.clone(),
            layout: raw.layout,
        },
    )?;
    for (name, test, exact) in raw_ops {
        let result = if test >= 5 {
            sqrt_runner.run(reference, test)?
        } else {
            runner.run(reference, test)?
        };
        let range = SPECIAL_LANES..raw.layout.capacity();
        let mut errs = Vec::with_capacity(range.len());
        let mut rounded = Vec::with_capacity(range.len());
        for i in range.clone() {
            // Double rounding from f64 is innocuous for + - * / sqrt (53 >= 2*24 + 2).
            let x = exact(raw.a[i], raw.b[i]);
            errs.push(error_ulp32(result[i], x));
            rounded.push(x as f32);
        }
        let (min, max, share, rounding) = classify(&errs, &result[range], &rounded);
        ops.push(OpRow {
            op: name.to_string(),
            min_ulp: min,
            max_ulp: max,
            correctly_rounded: share,
            rounding,
            samples: errs.len(),
        });
        specials_out.push(result[..SPECIAL_LANES].to_vec());
    }
    let add = &specials_out[0];
    let sub = &specials_out[1];
    let mul = &specials_out[2];
    let ties_to_even = add[0] == 1.0 + 2.0 * f32::EPSILON && add[1] == 1.0;
    let guard_digit = sub[2] == f32::EPSILON / 2.0;
    let flushes_subnormal_results = mul[3] == 0.0;
    let flushes_subnormal_inputs = mul[4] == 0.0;

    // ---- fma
    let fma_fused = if has_fma {
        let r = runner.run(reference, 7)?;
        r.iter().any(|x| *x != 0.0)
    } else {
        false
    };

    // ---- error-free transforms, under each protection
    let eft = make_eft_inputs(samples, max_tex)?;
    let eft_runner = ProbeRunner::new(ctx, &eft)?;
    let mut transforms = Vec::new();
    let fma_program = match strongest_precise {
        Some(p) if has_fma => Some(build(p, true)?),
        _ => None,
    };
    type Expect = fn(f32, f32) -> [f32; 2];
    let checks: [(&str, i32, Expect); 4] = [
        ("twoSum", 10, |a, b| {
            let r = df64_two_sum(a, b);
            [r.hi, r.lo]
        }),
        ("split", 11, |a, _| {
            let r = df64_split(a);
            [r.hi, r.lo]
        }),
        ("twoProd (Dekker)", 12, |a, b| {
            let r = df64_two_prod_dekker(a, b);
            [r.hi, r.lo]
        }),
        ("twoProd (fma)", 13, |a, b| {
            let p = a * b;
            [p, (a as f64 * b as f64 - p as f64) as f32]
        }),
    ];
    for (name, test, expect) in checks {
        for (protection, program) in &variants {
            if test == 13 && !has_fma {
                continue;
            }
            let r = eft_runner.run(program, test)?;
            transforms.push(eft_row(name, *protection, &eft, &r, expect));
        }
    }
    // twoDiff and twoSqr ride along in one test (lanes x and y).
    for (protection, program) in &variants {
        let r = eft_runner.run(program, 14)?;
        let n = eft.layout.texels();
        let mut wrong = 0usize;
        let mut total = 0usize;
        let mut first_wrong = None;
        for t in 0..n {
            let (a0, b0, a1) = (eft.a[4 * t], eft.b[4 * t], eft.a[4 * t + 1]);
            let d = df64_two_diff(a0, b0);
            let q = df64_two_sqr(a1);
            let want = [d.hi, d.lo, q.hi, q.lo];
            // A square beyond the f32 range carries no error term to check (as in eft_row).
            if want.iter().any(|w| !w.is_finite()) {
                continue;
            }
            total += 1;
            let got = &r[4 * t..4 * t + 4];
            if !got.iter().zip(&want).all(|(g, w)| same_f32(*g, *w)) {
                wrong += 1;
                first_wrong.get_or_insert_with(|| describe_lane(&[a0, b0, a1], got, &want));
            }
        }
        transforms.push(EftRow {
            transform: "twoDiff+twoSqr".into(),
            protection: *protection,
            wrong: wrong as f64 / total.max(1) as f64,
            samples: total,
            first_wrong,
        });
    }
    let fma_exact = fma_program
        .as_ref()
        .map(|p| -> Result<bool, GlError> {
            let r = eft_runner.run(p, 13)?;
            Ok(eft_row("", Protection::Precise, &eft, &r, checks[3].2).exact())
        })
        .transpose()?
        .unwrap_or(false);

    let available: Vec<Protection> = variants.iter().map(|v| v.0).collect();
    let (config, decision) = decide(
        &available,
        forced_protection(),
        fma_fused,
        fma_exact,
        &transforms,
        two_sum,
    );
    unsafe { ctx.gl().flush() };
    Ok(ProbeReport {
        probe_version: PROBE_VERSION,
        driver: info,
        ops,
        ties_to_even,
        guard_digit,
        flushes_subnormal_results,
        flushes_subnormal_inputs,
        fma_fused,
        transforms,
        config,
        decision,
        from_cache: false,
    })
}

fn eft_row(
    name: &str,
    protection: Protection,
    inputs: &Inputs,
    result: &[f32],
    expect: fn(f32, f32) -> [f32; 2],
) -> EftRow {
    let texels = inputs.layout.texels();
    let mut wrong = 0usize;
    let mut total = 0usize;
    let mut first_wrong = None;
    for t in 0..texels {
        for lane in 0..2 {
            let (a, b) = (inputs.a[4 * t + lane], inputs.b[4 * t + lane]);
            let e = expect(a, b);
            if !e[0].is_finite() || !e[1].is_finite() {
                continue; // products beyond the f32 range carry no error term to check
            }
            let got = [result[4 * t + 2 * lane], result[4 * t + 2 * lane + 1]];
            total += 1;
            if !(same_f32(got[0], e[0]) && same_f32(got[1], e[1])) {
                wrong += 1;
                first_wrong.get_or_insert_with(|| describe_lane(&[a, b], &got, &e));
            }
        }
    }
    EftRow {
        transform: name.to_string(),
        protection,
        wrong: wrong as f64 / total.max(1) as f64,
        samples: total,
        first_wrong,
    }
}

/// Equal bits, or both NaN: drivers differ in the NaN they produce, and a NaN payload is no
/// broken transform.
fn same_f32(a: f32, b: f32) -> bool {
    a.to_bits() == b.to_bits() || a.is_nan() && b.is_nan()
}

/// One lane of an error-free transform check, in words that can be pasted into a test.
fn describe_lane(inputs: &[f32], got: &[f32], want: &[f32]) -> String {
    let words = |xs: &[f32]| {
        xs.iter()
            .map(|x| format!("{:#010x}", x.to_bits()))
            .collect::<Vec<_>>()
            .join(" ")
    };
    format!(
        "inputs [{}] gave [{}], exact [{}]",
        words(inputs),
        words(got),
        words(want)
    )
}

/// The probe report for this driver: from the cache when one matches, else a fresh run that is
/// then cached. `fresh` forces a new run.
///
/// ```
/// use df64gl::gl::{DeviceChoice, GlContext};
/// use df64gl::probe::probe_driver;
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let ctx = GlContext::headless(&DeviceChoice::Auto)?;
/// let report = probe_driver(&ctx, false)?;
/// // The configuration df64 programs will use here, or why df64 is refused.
/// match report.require_config() {
///     Ok(config) => println!("df64 runs with {config:?}"),
///     Err(why) => println!("df64 refused: {why}"),
/// }
/// # Ok(())
/// # }
/// ```
pub fn probe_driver(ctx: &GlContext, fresh: bool) -> Result<ProbeReport, ProbeError> {
    // A forced protection is a test of the probe itself: never cached, never from the cache.
    let forced = forced_protection().is_some();
    if !fresh && !forced {
        if let Some(r) = load_cached(ctx.info()) {
            return Ok(r);
        }
    }
    let report = run_probe(ctx, DEFAULT_SAMPLES)?;
    if !forced {
        // A cache that cannot be written only costs a re-probe next time.
        let _ = store_cached(&report);
    }
    Ok(report)
}

/// Inputs per probe test (lanes).
pub const DEFAULT_SAMPLES: usize = 1 << 16;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nan_payloads_are_no_broken_transform() {
        // NVIDIA returns 0x7fffffff where the CPU returns 0xffc00000 for inf - inf.
        assert!(same_f32(
            f32::from_bits(0x7fff_ffff),
            f32::from_bits(0xffc0_0000)
        ));
        assert!(same_f32(-0.0, -0.0));
        assert!(!same_f32(0.0, -0.0));
        assert!(!same_f32(f32::NAN, f32::INFINITY));
    }

    #[test]
    fn the_sums_two_sum_follows_the_vendor_into_the_defines() {
        let mut info = GlInfo {
            vendor: "NVIDIA Corporation".into(),
            ..GlInfo::default()
        };
        let knuth = TwoSumKind::for_driver(&info);
        info.vendor = "Mesa".into();
        let sorted = TwoSumKind::for_driver(&info);
        if std::env::var(TWO_SUM_ENV).is_err() {
            assert_eq!((knuth, sorted), (TwoSumKind::Knuth, TwoSumKind::Sorted));
        }
        for (kind, want) in [(TwoSumKind::Knuth, "1"), (TwoSumKind::Sorted, "0")] {
            let config = DriverConfig {
                protection: Protection::Precise,
                two_prod: TwoProdKind::Dekker,
                two_sum: kind,
            };
            let defines = config.defines();
            assert!(
                defines.contains(&("DF64_TWO_SUM_KNUTH".to_string(), want.to_string())),
                "{defines:?}"
            );
        }
        // A cached configuration from before the choice reads as the sorted form.
        let old: DriverConfig =
            serde_json::from_str(r#"{"protection":"precise","two_prod":"Dekker"}"#)
                .expect("a configuration without two_sum");
        assert_eq!(old.two_sum, TwoSumKind::Sorted);
    }

    #[test]
    fn a_refusal_names_a_wrong_lane() {
        let row = |transform: &str, protection, wrong: f64, first_wrong: Option<String>| EftRow {
            transform: transform.into(),
            protection,
            wrong,
            samples: 100,
            first_wrong,
        };
        let lane = describe_lane(&[1.0, 2f32.powi(-30)], &[1.0, 0.0], &[1.0, 2f32.powi(-30)]);
        assert_eq!(
            lane,
            "inputs [0x3f800000 0x30800000] gave [0x3f800000 0x00000000], exact [0x3f800000 0x30800000]"
        );
        let rows = vec![
            row("twoSum", Protection::Precise, 0.01, Some(lane.clone())),
            row("twoSum", Protection::None, 0.9, Some("x".into())),
        ];
        let (config, why) = decide(
            &[Protection::Precise, Protection::None],
            None,
            false,
            false,
            &rows,
            TwoSumKind::Sorted,
        );
        assert!(config.is_none());
        assert!(why.contains(&format!("twoSum (precise): {lane}")), "{why}");
    }
}
