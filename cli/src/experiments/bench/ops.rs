//! `df64gl bench ops`: throughput of f32, df64, qf128 and native double (GLSL `double`)
//! operations on the engine, per op per lane, as ratios to the f32 add and to the native
//! double op of the same arithmetic, all taken in one run.

use serde::Serialize;

use df64gl::kernels::{Df64Kernels, Df64Op, F64Op, KernelError, Qf128Op, TimedOp};
use df64gl::numeric::catalog::Tier;

use crate::error::ExperimentError;

/// Which ops `bench ops` times.
#[derive(Debug, Clone)]
pub struct OpBenchOptions {
    /// The ops.
    pub ops: Vec<TimedOp>,
    /// Texels per timed pass (two df64 or double lanes each, one qf128).
    pub texels: usize,
    /// Chains are lengthened until they take this much longer than an empty pass.
    pub min_seconds: f64,
}

impl OpBenchOptions {
    /// The ops Warwick's Table 2 compares: df64 (accurate and Thall's) and double + - x /.
    pub fn warwick() -> Vec<TimedOp> {
        vec![
            Df64Op::F32Add.into(),
            Df64Op::Add.into(),
            Df64Op::Sub.into(),
            Df64Op::Mul.into(),
            Df64Op::Div.into(),
            Df64Op::AddThall.into(),
            Df64Op::SubThall.into(),
            Df64Op::MulThall.into(),
            Df64Op::DivThall.into(),
            F64Op::Add.into(),
            F64Op::Sub.into(),
            F64Op::Mul.into(),
            F64Op::Div.into(),
        ]
    }

    /// Every op the bench command times by default.
    pub fn all() -> Vec<TimedOp> {
        let mut ops: Vec<TimedOp> = vec![
            Df64Op::F32Add.into(),
            Df64Op::F32Mul.into(),
            Df64Op::F32Mad.into(),
        ];
        // The accurate defaults, the same without exponent scaling (what the FFT uses: the
        // scaling's cost), the fast tier and Thall's published routines, from the catalog.
        ops.extend(
            Df64Op::ALL
                .into_iter()
                .filter(|op| {
                    matches!(
                        op.tier(),
                        Tier::Accurate | Tier::Unscaled | Tier::Fast | Tier::Thall
                    )
                })
                .map(TimedOp::from),
        );
        ops.extend([Qf128Op::Add, Qf128Op::Mul, Qf128Op::Div, Qf128Op::Sqrt].map(TimedOp::from));
        ops.extend(F64Op::ALL.map(TimedOp::from));
        ops
    }
}

impl Default for OpBenchOptions {
    fn default() -> Self {
        OpBenchOptions {
            ops: Self::all(),
            texels: 1 << 16,
            min_seconds: 0.02,
        }
    }
}

/// The native double op with the same arithmetic, if any.
pub fn double_counterpart(op: TimedOp) -> Option<F64Op> {
    use Df64Op as D;
    match op {
        TimedOp::Df64(D::Add | D::AddThall | D::AddSloppy | D::AddDagraca) => Some(F64Op::Add),
        TimedOp::Df64(D::Sub | D::SubThall) => Some(F64Op::Sub),
        TimedOp::Df64(D::Mul | D::MulThall | D::MulDagraca) => Some(F64Op::Mul),
        TimedOp::Df64(D::Div | D::DivThall) => Some(F64Op::Div),
        TimedOp::Df64(D::Sqrt | D::SqrtThall) => Some(F64Op::Sqrt),
        TimedOp::Qf128(Qf128Op::Add) => Some(F64Op::Add),
        TimedOp::Qf128(Qf128Op::Sub) => Some(F64Op::Sub),
        TimedOp::Qf128(Qf128Op::Mul) => Some(F64Op::Mul),
        TimedOp::Qf128(Qf128Op::Div) => Some(F64Op::Div),
        TimedOp::Qf128(Qf128Op::Sqrt) => Some(F64Op::Sqrt),
        _ => None,
    }
}

/// One op's time.
#[derive(Debug, Clone, Serialize)]
pub struct OpBenchRow {
    /// The op.
    pub op: String,
    /// "f32", "df64", "qf128" or "f64".
    pub kind: &'static str,
    /// GPU nanoseconds per op per lane (every lane in flight: a throughput figure).
    pub ns_per_op: Option<f64>,
    /// Time relative to the f32 add of this run.
    pub vs_f32_add: Option<f64>,
    /// Warwick's speed-up: time of the native double op over the time of this op (> 1: this
    /// op is faster than double).
    pub speedup_over_f64: Option<f64>,
    /// Why the row has no time (for example: no double in this driver's shaders).
    pub note: Option<String>,
}

/// `bench ops`: each op's time per lane and against an f32 add and native double.
#[derive(Debug, Clone, Serialize)]
pub struct OpBenchReport {
    /// The device it ran on (short renderer name).
    pub device: String,
    /// Texels per pass.
    pub texels: usize,
    /// How the times were taken.
    pub method: String,
    /// One row per op.
    pub rows: Vec<OpBenchRow>,
}

fn kind(op: TimedOp) -> &'static str {
    match op {
        TimedOp::Df64(Df64Op::F32Add | Df64Op::F32Mul | Df64Op::F32Mad) => "f32",
        TimedOp::Df64(_) => "df64",
        TimedOp::Qf128(_) => "qf128",
        TimedOp::F64(_) => "f64",
    }
}

/// Times every op of `options` (the f32 add and the double counterparts are timed too when
/// not listed, since the ratios need them).
pub fn run_op_bench(
    kernels: &Df64Kernels,
    options: &OpBenchOptions,
    progress: &mut dyn FnMut(usize, usize, &str),
) -> Result<OpBenchReport, ExperimentError> {
    if options.texels == 0 || options.min_seconds <= 0.0 {
        return Err(ExperimentError::Invalid(
            "op bench: texels and min_seconds must be positive".into(),
        ));
    }
    let mut needed: Vec<TimedOp> = vec![Df64Op::F32Add.into()];
    for &op in &options.ops {
        if !needed.contains(&op) {
            needed.push(op);
        }
        if let Some(d) = double_counterpart(op) {
            if !needed.contains(&d.into()) {
                needed.push(d.into());
            }
        }
    }
    let mut seconds: Vec<(TimedOp, Result<f64, String>)> = Vec::new();
    for (i, &op) in needed.iter().enumerate() {
        progress(i, needed.len(), &op.name());
        let t = match kernels.op_cost(op, options.texels, options.min_seconds) {
            Ok(c) => Ok(c.seconds_per_op),
            // A driver without double in shaders: the double rows say so, the rest run.
            Err(KernelError::Gl(df64gl::gl::GlError::Unsupported(why))) => Err(why),
            Err(e) => return Err(e.into()),
        };
        seconds.push((op, t));
    }
    progress(needed.len(), needed.len(), "done");
    let time_of = |op: TimedOp| {
        seconds
            .iter()
            .find(|(o, _)| *o == op)
            .and_then(|(_, t)| t.as_ref().ok().copied())
            .filter(|t| *t > 0.0)
    };
    let f32_add = time_of(Df64Op::F32Add.into());
    let rows = options
        .ops
        .iter()
        .map(|&op| {
            let t = time_of(op);
            let note = seconds
                .iter()
                .find(|(o, _)| *o == op)
                .and_then(|(_, t)| t.as_ref().err().cloned());
            OpBenchRow {
                op: op.name(),
                kind: kind(op),
                ns_per_op: t.map(|t| t * 1e9),
                vs_f32_add: t.zip(f32_add).map(|(t, b)| t / b),
                speedup_over_f64: double_counterpart(op)
                    .and_then(|d| time_of(d.into()))
                    .zip(t)
                    .map(|(d, t)| d / t),
                note,
            }
        })
        .collect();
    Ok(OpBenchReport {
        device: kernels.context().info().renderer.clone(),
        texels: options.texels,
        method: format!(
            "time per op per lane (GL_TIME_ELAPSED, or wall-clock where the query does not measure \
             draws, as on llvmpipe) over {} texels: a pass with a dependent chain of K ops minus \
             a pass with none, over K, K doubled until the difference reaches {} s; best of 3",
            options.texels, options.min_seconds
        ),
        rows,
    })
}

impl OpBenchReport {
    /// The report as aligned text for a terminal.
    pub fn table(&self) -> String {
        let mut s = format!(
            "Op throughput on {} ({})\n{:<18} {:>6} {:>12} {:>12} {:>14}\n",
            self.device, self.method, "op", "kind", "ns/op/lane", "x f32 add", "speed-up/f64"
        );
        let num = |v: Option<f64>, p: usize| v.map_or("-".to_string(), |v| format!("{v:.p$}"));
        for r in &self.rows {
            s.push_str(&format!(
                "{:<18} {:>6} {:>12} {:>12} {:>14}{}\n",
                r.op,
                r.kind,
                num(r.ns_per_op, 4),
                num(r.vs_f32_add, 2),
                num(r.speedup_over_f64, 3),
                r.note
                    .as_ref()
                    .map(|n| format!("  ({n})"))
                    .unwrap_or_default()
            ));
        }
        s
    }
}
