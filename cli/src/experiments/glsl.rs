//! The exported df64 GLSL measured as its users run it: `df64gl glsl --target T` pasted into a
//! plain program of that GLSL version (no engine, no `#define`s of ours, the barrier uniform
//! set as the header asks), on random inputs read from float textures, against the oracle and
//! bit for bit against the CPU mirror. The probe shader's verdict is reported beside, so a
//! green probe over a broken routine shows.

use std::path::Path;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use super::accuracy::{random_df64, with_oracles};
use crate::error::ExperimentError;
use crate::web::browser::{page, parse_dom, run_page, BrowserBackend, PlainJob, RanOn};
use df64gl::export::snippet::{
    count_green, probe_shader, run_plain_shader, snippet, PlainOutput, PlainPixels, SnippetOptions,
    SnippetProbeResult, SnippetTarget,
};
use df64gl::gl::GlContext;
use df64gl::kernels::proof::df64_cases_at_the_ends;
use df64gl::kernels::Df64Op;
use df64gl::numeric::df64::Df64;
use df64gl::numeric::domain::{exponent_operand, judge, same_words, DomainCounts, Verdict};
use df64gl::numeric::fpenv::with_flush_to_zero;
use df64gl::numeric::oracle::{big_df64, error_ulp48};
use df64gl::numeric::reference::Dd;

/// One measured routine: operands drawn uniformly from `a` (and `b`), error bound in ulp48.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct ExportCase {
    /// The routine.
    pub op: Df64Op,
    /// The range, as shown.
    pub range: &'static str,
    /// Range of the first operand.
    pub a: (f64, f64),
    /// Range of the second, for two-operand routines.
    pub b: Option<(f64, f64)>,
    /// Largest error, ulp48.
    pub max_ulp48: f64,
    /// Operands (1 + u) 2^k with |k| <= this instead of the ranges, judged by the domain's
    /// rules (`numeric::domain`).
    pub exponents: Option<i32>,
}

const HALF_PI: f64 = std::f64::consts::FRAC_PI_2;

/// The routines a pasted snippet is held to: core ops <= 0.5 ulp48 (div <= 1), exp, log, sin
/// and cos <= 1 (sin and cos also at |x| up to 1000); then the core ops with exponents from
/// -100 to 100 (the domain's rules: results of 2^-100 to 2^126 within the bound beyond the
/// flush allowance, IEEE outside), after the 64 pairs at the ends of the range (infinities,
/// NaN, subnormals, signed zeros), which are held to the CPU mirror's IEEE answers.
pub fn export_cases() -> Vec<ExportCase> {
    let c = |op, range, a, b, max_ulp48| ExportCase {
        op,
        range,
        a,
        b,
        max_ulp48,
        exponents: None,
    };
    let sweep = |op, max_ulp48| ExportCase {
        op,
        range: "2^±100",
        a: (0.0, 0.0),
        b: None,
        max_ulp48,
        exponents: Some(100),
    };
    let unit = (-1.0, 1.0);
    vec![
        c(Df64Op::Add, "[-1, 1]", unit, Some(unit), 0.5),
        c(Df64Op::Sub, "[-1, 1]", unit, Some(unit), 0.5),
        c(Df64Op::Mul, "[-1, 1]", unit, Some(unit), 0.5),
        c(Df64Op::Div, "[-1, 1]", unit, Some(unit), 1.0),
        c(Df64Op::Sqrt, "[0, 1]", (0.0, 1.0), None, 0.5),
        c(Df64Op::Exp, "[-1, 1]", unit, None, 1.0),
        c(Df64Op::Log, "[1e-30, 1e30]", (1e-30, 1e30), None, 1.0),
        c(Df64Op::Sin, "[-pi/2, pi/2]", (-HALF_PI, HALF_PI), None, 1.0),
        c(Df64Op::Cos, "[-pi/2, pi/2]", (-HALF_PI, HALF_PI), None, 1.0),
        c(Df64Op::Sin, "[-1000, 1000]", (-1000.0, 1000.0), None, 1.0),
        c(Df64Op::Cos, "[-1000, 1000]", (-1000.0, 1000.0), None, 1.0),
        sweep(Df64Op::Add, 0.5),
        sweep(Df64Op::Sub, 0.5),
        sweep(Df64Op::Mul, 0.5),
        sweep(Df64Op::Div, 1.0),
        sweep(Df64Op::Sqrt, 0.5),
    ]
}

/// One routine of the export measured in a plain program.
#[derive(Debug, Clone, Serialize)]
pub struct ExportRow {
    /// The routine.
    pub op: String,
    /// The range.
    pub range: String,
    /// Inputs measured.
    pub samples: usize,
    /// Largest error, ulp48.
    pub max_ulp48: f64,
    /// RMS error, ulp48.
    pub rms_ulp48: f64,
    /// The documented bound, ulp48.
    pub bound: f64,
    /// Results that differ in any bit from the CPU mirror's (run in the flush mode measured on
    /// the same context).
    pub mirror_mismatches: usize,
    /// Exponent rows: results in and outside the domain, and those outside breaking the rules.
    pub domain: Option<DomainCounts>,
    /// It passed.
    pub passed: bool,
}

/// The export measured as a user would use it: pasted into a plain program.
#[derive(Debug, Clone, Serialize)]
pub struct ExportReport {
    /// The GLSL target.
    pub target: SnippetTarget,
    /// GL_RENDERER.
    pub renderer: String,
    /// GL_VERSION.
    pub version: String,
    /// GL_SHADING_LANGUAGE_VERSION.
    pub glsl_version: String,
    /// The snippet's own probe shader on the same context.
    pub probe: SnippetProbeResult,
    /// Subnormal handling measured by a plain program on the same context: (results flushed,
    /// inputs flushed). The mirror runs flushing when both are.
    pub flushes_subnormals: (bool, bool),
    /// One row per routine and range.
    pub rows: Vec<ExportRow>,
}

impl ExportReport {
    /// Rows over their bound, and a probe that is green over a broken routine.
    pub fn failures(&self) -> Vec<String> {
        let mut f: Vec<String> = self
            .rows
            .iter()
            .filter(|r| !r.passed)
            .map(|r| {
                let outside = r.domain.map_or(String::new(), |d| {
                    format!(
                        ", {} results outside the domain break the IEEE rules",
                        d.outside_wrong
                    )
                });
                format!(
                    "{} on {}: max {:.3e} ulp48 (bound {}){outside}",
                    r.op, r.range, r.max_ulp48, r.bound
                )
            })
            .collect();
        if !f.is_empty() && self.probe.passed() {
            f.push("the probe shader is all green although a routine is broken".into());
        }
        f
    }

    /// The report as aligned text for a terminal.
    pub fn table(&self) -> String {
        let mut s = format!(
            "{} export in a plain program on {} ({}, GLSL {}); probe shader: {} of {} green; \
             subnormal results flushed: {}, inputs flushed: {}\n",
            self.target.version_line(),
            self.renderer,
            self.version,
            self.glsl_version,
            self.probe.green,
            self.probe.pixels,
            yes_no(self.flushes_subnormals.0),
            yes_no(self.flushes_subnormals.1),
        );
        s.push_str(&format!(
            "{:<6} {:<16} {:>8} {:>12} {:>12} {:>7} {:>10} {:>17} {:>6}\n",
            "op",
            "range",
            "samples",
            "max ulp48",
            "rms ulp48",
            "bound",
            "!= mirror",
            "outside (wrong)",
            "ok"
        ));
        for r in &self.rows {
            let outside = r.domain.map_or("-".to_string(), |d| {
                format!("{} ({})", d.outside, d.outside_wrong)
            });
            s.push_str(&format!(
                "{:<6} {:<16} {:>8} {:>12.4} {:>12.4} {:>7} {:>10} {:>17} {:>6}\n",
                r.op,
                r.range,
                r.samples,
                r.max_ulp48,
                r.rms_ulp48,
                r.bound,
                r.mirror_mismatches,
                outside,
                if r.passed { "yes" } else { "NO" }
            ));
        }
        if self.rows.iter().any(|r| r.domain.is_some()) {
            s.push_str(
                "2^±100 rows: max and rms over results of magnitude 2^-100 to 2^126, beyond the \
                 smallest low word the driver keeps (2^-126 where it flushes)\n",
            );
        }
        s
    }
}

fn yes_no(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

/// A plain program that shows how the context treats subnormals: u_a holds (2^-126, 2^-140);
/// it writes (2^-126 * 0.5, 2^-140 * 2^20): zero in the first where results are flushed, in
/// the second where inputs are.
fn flush_program(target: SnippetTarget) -> String {
    let mut src = format!("{}\n", target.version_line());
    if target.is_es() {
        src.push_str("precision highp float;\nprecision highp int;\n");
    }
    src.push_str(
        "uniform highp sampler2D u_a;
out vec4 result;
void main() {
    vec4 a = texelFetch(u_a, ivec2(gl_FragCoord.xy), 0);
    result = vec4(a.x * 0.5, a.y * 1048576.0, 0.0, 1.0);
}
",
    );
    src
}

/// (results flushed, inputs flushed) from the flush program's output.
fn flush_mode(out: &[f32]) -> (bool, bool) {
    (
        out.first().is_some_and(|x| *x == 0.0),
        out.get(1).is_some_and(|x| *x == 0.0),
    )
}

/// The complete fragment shader a user would write around the snippet to apply one routine to
/// two df64 values per texel of `u_a` and `u_b`.
pub fn plain_program(options: &SnippetOptions, op: Df64Op) -> Result<String, ExperimentError> {
    let mut src = format!("{}\n", options.target.version_line());
    if options.target.is_es() {
        src.push_str("precision highp float;\nprecision highp int;\n");
    }
    src.push_str(&snippet(options)?);
    src.push_str(&format!(
        "
uniform highp sampler2D u_a;
uniform highp sampler2D u_b;
out vec4 result;
vec2 apply_op(vec2 a, vec2 b) {{ return {}; }}
void main() {{
    ivec2 p = ivec2(gl_FragCoord.xy);
    vec4 a = texelFetch(u_a, p, 0);
    vec4 b = texelFetch(u_b, p, 0);
    result = vec4(apply_op(a.xy, b.xy), apply_op(a.zw, b.zw));
}}
",
        op.glsl()
    ));
    Ok(src)
}

/// The operands of one measured case.
pub struct CaseOperands {
    case: ExportCase,
    a: Vec<Df64>,
    b: Vec<Df64>,
}

/// The jobs of an export measurement (the probe shader, then one per [`export_cases`] row,
/// `samples` operand pairs each) and the operands to check the results against.
pub fn export_jobs(
    options: &SnippetOptions,
    samples: usize,
    seed: u64,
) -> Result<(Vec<PlainJob>, Vec<CaseOperands>), ExperimentError> {
    let mut jobs = vec![
        PlainJob {
            source: probe_shader(options)?,
            inputs: Vec::new(),
            size: (PROBE_SIZE, PROBE_SIZE),
            output: PlainOutput::Rgba8,
        },
        PlainJob {
            source: flush_program(options.target),
            inputs: vec![("u_a", vec![2f32.powi(-126), 2f32.powi(-140), 0.0, 0.0])],
            size: (1, 1),
            output: PlainOutput::Rgba32f,
        },
    ];
    let width = 256usize;
    let texels = samples.div_ceil(2).max(1);
    let height = texels.div_ceil(width);
    let n = 2 * width * height;
    let mut operands = Vec::new();
    for (k, case) in export_cases().into_iter().enumerate() {
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ ((k as u64) << 32));
        let (a, b): (Vec<Df64>, Vec<Df64>) = match case.exponents {
            Some(e) => {
                // The pairs at the ends first (infinities, NaN, subnormals, signed zeros,
                // overflow, underflow: held to the mirror), then the sweep.
                let positive = case.op == Df64Op::Sqrt;
                let ends = df64_cases_at_the_ends();
                (0..n)
                    .map(|i| match ends.get(i) {
                        Some(pair) => *pair,
                        None => {
                            let a = exponent_operand(&mut rng, e, positive);
                            (a, exponent_operand(&mut rng, e, false))
                        }
                    })
                    .unzip()
            }
            None => {
                let a = (0..n)
                    .map(|_| random_df64(&mut rng, case.a.0, case.a.1))
                    .collect();
                let b = match case.b {
                    Some((lo, hi)) => (0..n).map(|_| random_df64(&mut rng, lo, hi)).collect(),
                    None => vec![Df64::ZERO; n],
                };
                (a, b)
            }
        };
        let words = |v: &[Df64]| v.iter().flat_map(|d| [d.hi, d.lo]).collect::<Vec<f32>>();
        jobs.push(PlainJob {
            source: plain_program(options, case.op)?,
            inputs: vec![("u_a", words(&a)), ("u_b", words(&b))],
            size: (width as i32, height as i32),
            output: PlainOutput::Rgba32f,
        });
        operands.push(CaseOperands { case, a, b });
    }
    Ok((jobs, operands))
}

/// Side of the probe shader's square image.
const PROBE_SIZE: i32 = 64;

/// The report from the jobs' outputs (in job order: probe and flush program first).
pub fn export_report(
    options: &SnippetOptions,
    on: RanOn,
    outputs: &[PlainPixels],
    operands: &[CaseOperands],
) -> Result<ExportReport, ExperimentError> {
    let [PlainPixels::Rgba8(probe_pixels), PlainPixels::Rgba32f(flush_out), results @ ..] = outputs
    else {
        return Err(ExperimentError::Invalid(
            "the probe shader's 8-bit image or the flush program's output is missing".into(),
        ));
    };
    let flushes = flush_mode(flush_out);
    let flush = flushes.0 && flushes.1;
    let probe = SnippetProbeResult {
        target: options.target,
        fallback: !options.target.has_precise() && !options.no_fallback,
        pixels: (PROBE_SIZE * PROBE_SIZE) as usize,
        green: count_green(probe_pixels),
    };
    let mut rows = Vec::new();
    for (ops, pixels) in operands.iter().zip(results) {
        let PlainPixels::Rgba32f(out) = pixels else {
            return Err(ExperimentError::Invalid("float read-back expected".into()));
        };
        let (case, a, b) = (ops.case, &ops.a, &ops.b);
        let n = a.len();
        if out.len() < 2 * n {
            return Err(ExperimentError::Invalid(format!(
                "{}: {} result words for {n} operands",
                case.op.name(),
                out.len()
            )));
        }
        let got: Vec<Df64> = out.chunks_exact(2).map(|w| Df64::new(w[0], w[1])).collect();
        let mirror = case.op.mirror();
        let want: Vec<Df64> = with_flush_to_zero(flush, || {
            let (a, b) = std::hint::black_box((a, b));
            std::hint::black_box((0..n).map(|i| mirror(a[i], b[i])).collect())
        });
        let mirror_mismatches = (0..n).filter(|&i| !same_words(want[i], got[i])).count();
        // NaN: no oracle value; None: outside the domain (judged by the IEEE rules).
        // Zeros too: the oracle's zero has no sign, so x / -0 is the mirror's to judge.
        let special = |x: Df64| !x.is_finite() || x.hi.abs() < f32::MIN_POSITIVE;
        let errs = with_oracles(n, |o, i| {
            if special(a[i]) || special(b[i]) {
                // No oracle value: the mirror comparison holds these to the IEEE answers.
                return None;
            }
            match case.op.oracle(o, &big_df64(a[i]), &big_df64(b[i])) {
                Some(exact) if case.exponents.is_some() => {
                    match judge(got[i], Dd::from_big(&exact), case.max_ulp48, flush) {
                        Verdict::InDomain(e) => Some(e),
                        Verdict::OutsideOk => None,
                        Verdict::OutsideWrong => Some(f64::INFINITY),
                    }
                }
                Some(exact) => Some(error_ulp48(got[i], &exact)),
                None => Some(f64::NAN),
            }
        });
        let domain = case.exponents.map(|_| DomainCounts {
            in_domain: errs
                .iter()
                .filter(|e| e.is_some_and(f64::is_finite))
                .count(),
            outside: errs
                .iter()
                .filter(|e| e.is_none_or(f64::is_infinite))
                .count(),
            outside_wrong: errs.iter().filter(|e| **e == Some(f64::INFINITY)).count(),
        });
        let counted: Vec<f64> = errs
            .iter()
            .flatten()
            .copied()
            .filter(|e| e.is_finite() || e.is_nan())
            .collect();
        let max = counted.iter().cloned().fold(0.0, f64::max);
        let max = if counted.iter().any(|e| e.is_nan()) {
            f64::NAN
        } else {
            max
        };
        let rms = (counted.iter().map(|e| e * e).sum::<f64>() / counted.len().max(1) as f64).sqrt();
        rows.push(ExportRow {
            op: case.op.name().to_string(),
            range: case.range.to_string(),
            samples: n,
            max_ulp48: max,
            rms_ulp48: rms,
            bound: case.max_ulp48,
            mirror_mismatches,
            passed: max <= case.max_ulp48 && domain.is_none_or(|d| d.outside_wrong == 0),
            domain,
        });
    }
    Ok(ExportReport {
        target: options.target,
        renderer: on.renderer,
        version: on.version,
        glsl_version: on.glsl_version,
        probe,
        flushes_subnormals: flushes,
        rows,
    })
}

/// Measures every [`export_cases`] routine of the snippet `options` describes on `ctx` (a GLES
/// context for es300), `samples` operand pairs each.
pub fn measure_export(
    ctx: &GlContext,
    options: &SnippetOptions,
    samples: usize,
    seed: u64,
) -> Result<ExportReport, ExperimentError> {
    let (jobs, operands) = export_jobs(options, samples, seed)?;
    let mut outputs = Vec::new();
    for job in &jobs {
        let inputs: Vec<(&str, &[f32])> =
            job.inputs.iter().map(|(n, d)| (*n, d.as_slice())).collect();
        outputs.push(run_plain_shader(
            ctx,
            options.target,
            &job.source,
            &inputs,
            job.size,
            job.output,
        )?);
    }
    let info = ctx.info();
    let on = RanOn {
        renderer: info.renderer.clone(),
        version: info.version.clone(),
        glsl_version: info.glsl_version.clone(),
    };
    export_report(options, on, &outputs, &operands)
}

/// The export of `options` (es300) measured in WebGL 2 in headless Chromium on `backend`:
/// the probe shader and every routine, as [`measure_export`] does on a
/// native context.
pub fn measure_export_in_browser(
    chromium: &Path,
    backend: BrowserBackend,
    options: &SnippetOptions,
    samples: usize,
    seed: u64,
) -> Result<ExportReport, ExperimentError> {
    if !options.target.is_es() {
        return Err(ExperimentError::Invalid(
            "WebGL 2 takes GLSL ES 3.00: use --target es300 with --browser".into(),
        ));
    }
    let (jobs, operands) = export_jobs(options, samples, seed)?;
    let html = page(&jobs)?;
    let path = std::env::temp_dir().join(format!("df64gl-webgl2-{}.html", std::process::id()));
    std::fs::write(&path, html).map_err(|e| ExperimentError::Io(path.display().to_string(), e))?;
    let dom = run_page(chromium, backend, &path, "", &[]);
    let _ = std::fs::remove_file(&path);
    let (mut on, outputs) = parse_dom(&dom?, &jobs)?;
    on.renderer = format!("{} ({})", on.renderer, backend.name());
    export_report(options, on, &outputs, &operands)
}
