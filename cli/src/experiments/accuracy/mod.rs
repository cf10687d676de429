//! Table II on this driver: max and RMS error of each df64 operation in ulp48 over random
//! inputs in Thall's operand ranges, checked bit for bit against the CPU mirror, with
//! Warwick's FP64-ulp statistics and the cost of each op relative to an f32 add.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use crate::error::{ExperimentError, Session};
use crate::support::paper::{
    dagraca_table5, thall_table2, warwick_table1, DagracaTable5, ThallTable2, WarwickTable1,
};
use crate::support::table::{num, text, ReportTable};

mod classes;
mod functions;
mod qf128;
mod qf128_classes;
mod qf128_exponents;
mod report;
pub mod vectors;
pub use classes::{
    bound_for, class_bound, class_cases, expected, flushed, judge_case, judge_expected,
    measure_class, ClassCase, Expected, ARGUMENT_CLASSES,
};
use df64gl::gl::GlInfo;
use df64gl::kernels::{Df64Kernels, Df64Op, Qf128Op, TimedOp};
use df64gl::numeric::catalog::{Args, Bound, Tier};
use df64gl::numeric::df64::{df64_quick_two_sum, Df64};
use df64gl::numeric::domain::{exponent_operand, judge, same_words, DomainCounts, Verdict};
use df64gl::numeric::qf128::{qf128_renorm4, Qf128};
use df64gl::numeric::reference::{error_ulp48, ulp_bits, ulp_distance_f64, Dd};
use df64gl::numeric::vec_catalog::vec_ops;
use df64gl::probe::DriverConfig;
pub(crate) use functions::with_oracles;
pub use functions::{function_cases, measure_function, FunctionCase};
pub use qf128::{measure_qf128, qf128_cases, random_qf128, QfCase};
pub use qf128_classes::{
    measure_qf128_classes, qf128_class_cases, QfClassCase, QfClassRow, QF128_FULL_FROM,
    QF128_FUNCTION_BOUND,
};
pub use qf128_exponents::{
    measure_qf128_exponents, qf128_at_exponent, qf128_exponent_operands, qf128_exponent_ops,
    QfExponentRow, QF128_BAND_EDGES,
};
pub use report::accuracy_table;

/// What `run_accuracy` measures and how much.
#[derive(Debug, Clone)]
pub struct AccuracyOptions {
    /// Random inputs per operation.
    pub samples: usize,
    /// Seed of the random inputs (the same seed gives the same inputs).
    pub seed: u64,
    /// The df64 operations of Table II.
    pub ops: Vec<Df64Op>,
    /// Inputs for Warwick's statistics (0 skips them).
    pub warwick_samples: usize,
    /// Measure cost relative to an f32 add.
    pub cost: bool,
    /// Texels per cost pass.
    pub cost_texels: usize,
    /// Inputs per df64 function row (0 skips the function table).
    pub function_samples: usize,
    /// Inputs per argument class in the sweep of every function over its argument classes
    /// (0 skips it).
    pub class_samples: usize,
    /// Inputs per qf128 row (0 skips the qf128 table).
    pub qf128_samples: usize,
    /// Inputs per op in the qf128 sweep over the exponent range (0 skips it).
    pub qf128_exponent_samples: usize,
    /// Inputs per argument class in the sweep of qf128's functions (0 skips it).
    pub qf128_class_samples: usize,
    /// Inputs for Da Graca and Defour's Table 5 (0 skips it).
    pub dagraca_samples: usize,
    /// Operand sets per class for each vector and matrix routine, in each stage (0 skips them).
    pub vector_samples: usize,
    /// Chains are lengthened until they take this much longer than an empty pass.
    pub cost_min_seconds: f64,
    /// Draw the op rows' operands as (1 + u) 2^k with |k| <= this (random signs) instead of
    /// Thall's ranges, and judge them by the domain's rules (`numeric::domain`).
    pub exponents: Option<i32>,
}

impl Default for AccuracyOptions {
    fn default() -> Self {
        // The fast functions (exp_fast ...) have no two-operand reference: they are measured
        // against the oracle in the functions table, with the accurate functions.
        let mut ops = Df64Op::ACCURATE.to_vec();
        ops.extend(Df64Op::FAST.iter().filter(|op| op.reference().is_some()));
        ops.extend(Df64Op::THALL);
        AccuracyOptions {
            samples: 1 << 22,
            seed: 2007,
            ops,
            warwick_samples: 1 << 20,
            cost: true,
            cost_texels: 1 << 16,
            cost_min_seconds: 0.02,
            function_samples: 1 << 22,
            class_samples: 1 << 12,
            qf128_samples: 1 << 22,
            qf128_exponent_samples: 1 << 14,
            qf128_class_samples: 1 << 10,
            dagraca_samples: 1 << 24,
            vector_samples: 1 << 12,
            exponents: None,
        }
    }
}

/// The accuracy target (max, RMS in ulp48) of an accurate default or a fast-tier op: the
/// bound its catalog row documents.
pub fn target(op: Df64Op) -> Option<(f64, f64)> {
    match (op.tier(), op.bound()) {
        (Tier::Accurate | Tier::Fast, Bound::Ulp48 { max, rms }) => Some((max, rms)),
        _ => None,
    }
}

/// Thall's operand ranges (Table II) for an op's first operand, from its catalog row.
pub fn operand_range(op: Df64Op) -> (f64, f64, &'static str) {
    op.range().unit_interval()
}

pub use crate::support::operands::random_df64;

/// The unit an error is counted in: ulp48 = 2^(e-47) for df64, ulp96 = 2^(e-95) for qf128,
/// where 2^e <= |x| < 2^(e+1) (Thall's Table II units).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ErrorUnit {
    /// df64: 2^(e-47).
    Ulp48,
    /// qf128: 2^(e-95).
    Ulp96,
}

impl ErrorUnit {
    /// "ulp48" or "ulp96".
    pub fn name(self) -> &'static str {
        match self {
            ErrorUnit::Ulp48 => "ulp48",
            ErrorUnit::Ulp96 => "ulp96",
        }
    }
}

/// The bound a row must meet: on the largest error and, where one is stated, on the RMS.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Target {
    /// Largest error allowed.
    pub max: f64,
    /// RMS error allowed, where stated.
    pub rms: Option<f64>,
}

impl Target {
    /// Both bounds met.
    pub fn met(&self, max: f64, rms: f64) -> bool {
        max <= self.max && self.rms.is_none_or(|r| rms <= r)
    }
}

/// One measured row of the accuracy report: a df64 operation (with its variant), a df64
/// function on one input range, or a qf128 operation, against the correctly rounded oracle.
#[derive(Debug, Clone, Serialize)]
pub struct AccuracyRow {
    /// The operation or function.
    pub op: String,
    /// For df64 operations: which routine ("accurate", "thall", ...).
    pub variant: Option<&'static str>,
    /// The operands' range, as shown.
    pub range: String,
    /// Inputs measured.
    pub samples: usize,
    /// What `max` and `rms` count.
    pub unit: ErrorUnit,
    /// Largest error.
    pub max: f64,
    /// Root mean square error.
    pub rms: f64,
    /// The bound of the accurate defaults (none for Thall's published routines).
    pub target: Option<Target>,
    /// Whether the row meets `target` (or, for fmod, is exact wherever the result is a df64).
    pub meets_target: Option<bool>,
    /// Thall's G80 (max, rms) for the same operation, from `assets/thall-table2.json`.
    pub thall_g80: Option<(f64, f64)>,
    /// Results that differ in any bit from the CPU mirror.
    pub mirror_mismatches: usize,
    /// The probe showed round-to-nearest, so mismatches are errors.
    pub mirror_must_match: bool,
    /// fmod: (results that differ from the exact value, results that are exactly a df64).
    pub inexact_of_representable: Option<(usize, usize)>,
    /// Time per op relative to an f32 add on the same engine (chained ops, one run).
    pub cost_vs_f32_add: Option<f64>,
    /// GPU nanoseconds per op per lane (all lanes in flight, so a throughput figure).
    pub ns_per_op: Option<f64>,
    /// Exponent sweep only: results whose exact value lies in the domain (max and rms are over
    /// these, beyond the flush allowance) and results outside it that break the IEEE rules.
    pub domain: Option<DomainCounts>,
}

/// Warwick's statistics of one op: distance in f64 ulps to the f64 result.
#[derive(Debug, Clone, Serialize)]
pub struct WarwickStats {
    /// The operation.
    pub op: String,
    /// Inputs measured.
    pub samples: usize,
    /// Mean distance.
    pub mean: f64,
    /// Median distance.
    pub median: f64,
    /// Largest distance.
    pub max: f64,
    /// Smallest distance.
    pub min: f64,
    /// Standard deviation.
    pub sd: f64,
    /// Counts of ULP distances: `[0]` exact, `[k]` in [2^(k-1), 2^k) (Warwick's figures).
    pub log2_histogram: Vec<usize>,
}

/// Everything `df64gl accuracy` measured, with the published values beside it.
#[derive(Debug, Clone, Serialize)]
pub struct AccuracyReport {
    /// The driver it ran on.
    pub driver: GlInfo,
    /// The configuration the programs were built with.
    pub config: DriverConfig,
    /// Seed of the random inputs (the same seed gives the same inputs).
    pub seed: u64,
    /// Table II: the df64 operations.
    pub rows: Vec<AccuracyRow>,
    /// Warwick's statistics, per op.
    pub warwick: Vec<WarwickStats>,
    /// Warwick's published Table 1.
    pub warwick_paper: WarwickTable1,
    /// Thall's published Table II.
    pub thall_paper: ThallTable2,
    /// The df64 functions.
    pub functions: Vec<AccuracyRow>,
    /// The df64 functions by argument class (range = the class).
    pub function_classes: Vec<AccuracyRow>,
    /// For each class row that missed its bound or broke a rule, the last such result.
    pub function_class_worst: Vec<String>,
    /// The qf128 operations.
    pub qf128: Vec<AccuracyRow>,
    /// The qf128 operations by magnitude of the result, over the whole exponent range.
    pub qf128_exponents: Vec<QfExponentRow>,
    /// qf128's functions by argument class.
    pub qf128_classes: Vec<QfClassRow>,
    /// Da Graca and Defour's Table 5 measured here.
    pub dagraca_table5: Vec<DagracaMeasured>,
    /// Their published Table 5.
    pub dagraca_paper: DagracaTable5,
    /// The vector and matrix routines, per operand class, in the vertex and fragment stages.
    pub vectors: Vec<vectors::VecAccuracyRow>,
    /// How the cost column was measured.
    pub cost_method: String,
}

/// One row of Da Graca and Defour's Table 5 measured here.
#[derive(Debug, Clone, Serialize)]
pub struct DagracaMeasured {
    /// The operation.
    pub op: String,
    /// The df64gl routine measured for that row.
    pub routine: String,
    /// Inputs measured.
    pub samples: usize,
    /// log2 of the largest |result - exact| / |exact|; `None` when every result was exact.
    pub log2_max_rel_error: Option<f64>,
}

fn inputs(op: Df64Op, n: usize, seed: u64, exponents: Option<i32>) -> (Vec<Df64>, Vec<Df64>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ (op as u64).wrapping_mul(0x9E37_79B9));
    let (lo, hi, _) = operand_range(op);
    let positive = lo >= 0.0;
    let mut a = Vec::with_capacity(n);
    let mut b = Vec::with_capacity(n);
    for _ in 0..n {
        let mut y = if let Some(e) = exponents {
            a.push(exponent_operand(&mut rng, e, positive));
            exponent_operand(&mut rng, e, false)
        } else {
            a.push(random_df64(&mut rng, lo, hi));
            random_df64(&mut rng, -1.0, 1.0)
        };
        if op.args() == Args::WithF32 {
            y.lo = 0.0;
        }
        b.push(y);
    }
    (a, b)
}

fn variant(op: Df64Op) -> &'static str {
    match op.tier() {
        Tier::Thall => "thall",
        Tier::Fast => "fast",
        _ => "accurate",
    }
}

fn thall_name(op: Df64Op) -> &'static str {
    op.name().trim_end_matches("_thall")
}

/// Runs the accuracy experiment; `progress` is called after each step with (done, total, label).
pub fn run_accuracy(
    session: &Session,
    options: &AccuracyOptions,
    progress: &mut dyn FnMut(usize, usize, &str),
) -> Result<AccuracyReport, ExperimentError> {
    if options.samples == 0 {
        return Err(ExperimentError::Invalid(
            "--samples must be at least 1".into(),
        ));
    }
    // A row without a reference would show an error of 0 it never measured.
    let unmeasurable: Vec<&str> = options
        .ops
        .iter()
        .filter(|op| op.reference().is_none())
        .map(|op| op.name())
        .collect();
    if !unmeasurable.is_empty() {
        return Err(ExperimentError::Invalid(format!(
            "--ops {}: no two-operand reference for Table II; the functions are measured \
             against the oracle in the functions table (leave them out of --ops and keep \
             --function-samples above 0)",
            unmeasurable.join(",")
        )));
    }
    let kernels = Df64Kernels::new(&session.ctx, &session.probe)?;
    let thall = thall_table2()?;
    let warwick_paper = warwick_table1()?;
    let warwick_ops: &[Df64Op] = if options.warwick_samples > 0 {
        &[
            Df64Op::Add,
            Df64Op::Sub,
            Df64Op::Mul,
            Df64Op::Div,
            Df64Op::AddThall,
            Df64Op::SubThall,
            Df64Op::MulThall,
            Df64Op::DivThall,
        ]
    } else {
        &[]
    };
    let cases = if options.function_samples > 0 {
        function_cases()
    } else {
        vec![]
    };
    let class_cases = if options.class_samples > 0 {
        classes::class_cases(options.class_samples, options.seed)
    } else {
        vec![]
    };
    let qf_cases = if options.qf128_samples > 0 {
        qf128_cases()
    } else {
        vec![]
    };
    let dagraca = options.dagraca_samples > 0;
    let total = options.ops.len() * (1 + options.cost as usize)
        + warwick_ops.len()
        + options.cost as usize
        + cases.len() * (1 + options.cost as usize)
        + qf_cases.len() * (1 + options.cost as usize)
        + class_cases.len()
        + (options.qf128_exponent_samples > 0) as usize
        + (options.qf128_class_samples > 0) as usize
        + if dagraca { 6 } else { 0 }
        + if options.vector_samples > 0 {
            vec_ops().len()
        } else {
            0
        };
    let mut done = 0usize;
    let mut rows = Vec::new();
    for &op in &options.ops {
        progress(done, total, op.name());
        let (a, b) = inputs(op, options.samples, options.seed, options.exponents);
        let got = kernels.apply_unchecked(op, &a, &b)?;
        let mirror = op.mirror();
        let expected = kernels.mirror_map(a.len(), |i| mirror(a[i], b[i]));
        let reference = op.reference();
        let t = target(op);
        let flush = kernels.proof().flushes_subnormals;
        let (mut max, mut sum_sq, mut mismatches, mut counted) = (0.0f64, 0.0f64, 0usize, 0usize);
        let mut domain = options.exponents.map(|_| DomainCounts {
            in_domain: 0,
            outside: 0,
            outside_wrong: 0,
        });
        for i in 0..a.len() {
            let m = expected[i];
            if !same_words(m, got[i]) {
                mismatches += 1;
            }
            let Some(r) = reference else { continue };
            let exact = r(Dd::from_df64(a[i]), Dd::from_df64(b[i]));
            let e = match domain.as_mut() {
                None => error_ulp48(got[i], exact),
                Some(d) => match judge(got[i], exact, t.map_or(f64::INFINITY, |t| t.0), flush) {
                    Verdict::InDomain(e) => {
                        d.in_domain += 1;
                        e
                    }
                    v => {
                        d.outside += 1;
                        d.outside_wrong += (v == Verdict::OutsideWrong) as usize;
                        continue;
                    }
                },
            };
            max = max.max(e);
            sum_sq += e * e;
            counted += 1;
        }
        let rms = (sum_sq / counted.max(1) as f64).sqrt();
        let range = match options.exponents {
            Some(e) => format!("2^±{e}"),
            None => operand_range(op).2.to_string(),
        };
        let target = t.map(|(max, rms)| Target {
            max,
            rms: Some(rms),
        });
        rows.push(AccuracyRow {
            op: op.name().to_string(),
            variant: Some(variant(op)),
            range,
            samples: a.len(),
            unit: ErrorUnit::Ulp48,
            max,
            rms,
            target,
            meets_target: target.map(|t| t.met(max, rms)),
            domain,
            inexact_of_representable: None,
            thall_g80: thall
                .rows
                .iter()
                .find(|r| r.op == thall_name(op))
                .map(|r| (r.max, r.rms)),
            mirror_mismatches: mismatches,
            mirror_must_match: kernels.round_to_nearest(),
            cost_vs_f32_add: None,
            ns_per_op: None,
        });
        done += 1;
    }
    let mut warwick = Vec::new();
    for &op in warwick_ops {
        progress(done, total, &format!("warwick {}", op.name()));
        warwick.push(warwick_stats(
            &kernels,
            op,
            options.warwick_samples,
            options.seed,
        )?);
        done += 1;
    }
    if options.cost {
        progress(done, total, "cost: f32 add");
        let cost = |op: Df64Op| kernels.op_cost(op, options.cost_texels, options.cost_min_seconds);
        let base = cost(Df64Op::F32Add)?.seconds_per_op;
        done += 1;
        for (i, &op) in options.ops.iter().enumerate() {
            progress(done, total, &format!("cost: {}", op.name()));
            let c = cost(op)?;
            rows[i].cost_vs_f32_add = (base > 0.0).then(|| c.seconds_per_op / base);
            rows[i].ns_per_op = Some(c.seconds_per_op * 1e9);
            done += 1;
        }
    }
    let mut functions = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        progress(done, total, &format!("{} {}", case.op.name(), case.range));
        functions.push(measure_function(
            &kernels,
            case,
            options.function_samples,
            options.seed + i as u64,
        )?);
        done += 1;
    }
    if options.cost && !cases.is_empty() {
        let cost = |op: Df64Op| kernels.op_cost(op, options.cost_texels, options.cost_min_seconds);
        let base = cost(Df64Op::F32Add)?.seconds_per_op;
        for (row, case) in functions.iter_mut().zip(&cases) {
            progress(done, total, &format!("cost: {}", case.op.name()));
            row.cost_vs_f32_add = (base > 0.0)
                .then(|| cost(case.op).map(|c| c.seconds_per_op / base))
                .transpose()?;
            done += 1;
        }
    }
    let mut function_classes = Vec::new();
    let mut function_class_worst = Vec::new();
    for case in &class_cases {
        progress(done, total, &format!("{} {}", case.op.name(), case.class));
        let (row, worst) = classes::measure_class(&kernels, case)?;
        if !worst.is_empty() {
            function_class_worst.push(format!("{} {}: {worst}", row.op, row.range));
        }
        function_classes.push(row);
        done += 1;
    }
    let mut qf128 = Vec::new();
    for (i, case) in qf_cases.iter().enumerate() {
        progress(
            done,
            total,
            &format!("qf128 {} {}", case.op.name(), case.range),
        );
        qf128.push(measure_qf128(
            &kernels,
            case,
            options.qf128_samples,
            options.seed + i as u64,
        )?);
        done += 1;
    }
    if options.cost && !qf_cases.is_empty() {
        let cost = |op: TimedOp| kernels.op_cost(op, options.cost_texels, options.cost_min_seconds);
        let base = cost(Df64Op::F32Add.into())?.seconds_per_op;
        for (row, case) in qf128.iter_mut().zip(&qf_cases) {
            progress(done, total, &format!("cost: qf128 {}", case.op.name()));
            row.cost_vs_f32_add = (base > 0.0)
                .then(|| cost(case.op.into()).map(|c| c.seconds_per_op / base))
                .transpose()?;
            done += 1;
        }
    }
    let mut qf128_exponents = Vec::new();
    if options.qf128_exponent_samples > 0 {
        progress(done, total, "qf128 at every exponent");
        qf128_exponents =
            measure_qf128_exponents(&kernels, options.qf128_exponent_samples, options.seed)?;
        done += 1;
    }
    let mut qf128_classes = Vec::new();
    if options.qf128_class_samples > 0 {
        progress(done, total, "qf128 functions by argument class");
        qf128_classes = measure_qf128_classes(&kernels, options.qf128_class_samples, options.seed)?;
        done += 1;
    }
    let mut dagraca_rows = Vec::new();
    if dagraca {
        for (op, table_op) in [
            (Df64Op::TwoSum, "add12"),
            (Df64Op::TwoProd, "mul12"),
            (Df64Op::AddDagraca, "add22"),
            (Df64Op::MulDagraca, "mul22"),
            (Df64Op::Add, "add22"),
            (Df64Op::Mul, "mul22"),
        ] {
            progress(done, total, &format!("Da Graca table 5: {}", op.name()));
            let worst = max_relative_error(&kernels, op, options.dagraca_samples, options.seed)?;
            dagraca_rows.push(DagracaMeasured {
                op: table_op.to_string(),
                routine: op.name().to_string(),
                samples: options.dagraca_samples,
                log2_max_rel_error: worst.map(f64::log2),
            });
            done += 1;
        }
    }
    let mut vector_rows = Vec::new();
    if options.vector_samples > 0 {
        vector_rows = vectors::measure_vectors(
            &session.ctx,
            options.vector_samples,
            options.seed,
            kernels.proof().flushes_subnormals,
            kernels.round_to_nearest(),
            &mut |name| {
                progress(done, total, &format!("vectors: {name}"));
                done += 1;
            },
        )?;
    }
    progress(total, total, "done");
    Ok(AccuracyReport {
        driver: session.ctx.info().clone(),
        config: kernels.config(),
        seed: options.seed,
        rows,
        warwick,
        warwick_paper,
        thall_paper: thall,
        functions,
        function_classes,
        function_class_worst,
        qf128,
        qf128_exponents,
        qf128_classes,
        dagraca_table5: dagraca_rows,
        dagraca_paper: dagraca_table5()?,
        vectors: vector_rows,
        cost_method: format!(
            "per-op time (GL_TIME_ELAPSED, or wall-clock on llvmpipe) over {} texels (2 lanes each): a pass with a dependent chain of K ops \
             minus a pass with none, over K, K doubled until the difference reaches {} s; best of 3; \
             divided by the same for an f32 add, all in this run",
            options.cost_texels, options.cost_min_seconds
        ),
    })
}

fn warwick_stats(
    kernels: &Df64Kernels,
    op: Df64Op,
    n: usize,
    seed: u64,
) -> Result<WarwickStats, ExperimentError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed.wrapping_add(0x3A3));
    let xs: Vec<f64> = (0..n).map(|_| rng.gen_range(-1e6..1e6)).collect();
    let ys: Vec<f64> = (0..n).map(|_| rng.gen_range(-1e6..1e6)).collect();
    let a: Vec<Df64> = xs.iter().map(|x| Df64::from_f64(*x)).collect();
    let b: Vec<Df64> = ys.iter().map(|y| Df64::from_f64(*y)).collect();
    let got = kernels.apply_unchecked(op, &a, &b)?;
    let control = |x: f64, y: f64| match thall_name(op) {
        "add" => x + y,
        "sub" => x - y,
        "mul" => x * y,
        _ => x / y,
    };
    let mut d: Vec<f64> = (0..n)
        .map(|i| ulp_distance_f64(got[i].to_f64(), control(xs[i], ys[i])) as f64)
        .collect();
    d.sort_by(|x, y| x.total_cmp(y));
    let mean = d.iter().sum::<f64>() / n as f64;
    let var = d.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n as f64;
    let median = if n % 2 == 1 {
        d[n / 2]
    } else {
        0.5 * (d[n / 2 - 1] + d[n / 2])
    };
    let mut log2_histogram = Vec::new();
    for &x in &d {
        // x is an integer distance; 64 - leading_zeros is 0 for 0, k for [2^(k-1), 2^k).
        let k = (64 - (x as u64).leading_zeros()) as usize;
        if log2_histogram.len() <= k {
            log2_histogram.resize(k + 1, 0);
        }
        log2_histogram[k] += 1;
    }
    Ok(WarwickStats {
        op: op.name().to_string(),
        samples: n,
        log2_histogram,
        mean,
        median,
        max: d[n - 1],
        min: d[0],
        sd: var.sqrt(),
    })
}

/// The largest |result - exact| / |exact| of `op` over `samples` df64 inputs in [-1, 1]
/// (batches of 2^22 on the GPU); `None` when every result is exact.
pub fn max_relative_error(
    kernels: &Df64Kernels,
    op: Df64Op,
    samples: usize,
    seed: u64,
) -> Result<Option<f64>, ExperimentError> {
    let reference = op
        .reference()
        .ok_or_else(|| ExperimentError::Invalid(format!("{} has no reference", op.name())))?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xDA6);
    let mut worst = 0.0f64;
    let mut left = samples;
    while left > 0 {
        let n = left.min(1 << 22);
        left -= n;
        // Add12 and Mul12 take f32 operands: their inputs have no low word.
        let f32_operands = matches!(op, Df64Op::TwoSum | Df64Op::TwoProd);
        let mut draw = || {
            let x = random_df64(&mut rng, -1.0, 1.0);
            if f32_operands {
                Df64::new(x.hi, 0.0)
            } else {
                x
            }
        };
        let a: Vec<Df64> = (0..n).map(|_| draw()).collect();
        let b: Vec<Df64> = (0..n).map(|_| draw()).collect();
        let got = kernels.apply_unchecked(op, &a, &b)?;
        for i in 0..n {
            let exact = reference(Dd::from_df64(a[i]), Dd::from_df64(b[i]));
            let e = exact.to_f64();
            if e == 0.0 || !e.is_finite() {
                continue;
            }
            let diff = (Dd::from_df64(got[i]) - exact).to_f64().abs();
            worst = worst.max(diff / e.abs());
        }
    }
    Ok((worst > 0.0).then_some(worst))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_op_has_a_reference_for_its_table_ii_row() {
        let ops = AccuracyOptions::default().ops;
        for op in &ops {
            assert!(op.reference().is_some(), "{} has no reference", op.name());
        }
        // The fast arithmetic stays in the table; the fast functions are in the functions one.
        assert!(ops.contains(&Df64Op::MulFast) && ops.contains(&Df64Op::SqrtFast));
        assert!(!ops.contains(&Df64Op::ExpFast));
        let cases = function_cases();
        for op in [
            Df64Op::ExpFast,
            Df64Op::LogFast,
            Df64Op::SinFast,
            Df64Op::CosFast,
        ] {
            assert!(
                cases.iter().any(|c| c.op == op),
                "{} not measured",
                op.name()
            );
        }
    }
}
