//! Table II on this driver: max and RMS error of each df64 operation in ulp48 over random
//! inputs in Thall's operand ranges, checked bit for bit against the CPU mirror, with
//! Warwick's FP64-ulp statistics and the cost of each op relative to an f32 add.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use super::paper::{
    dagraca_table5, thall_table2, warwick_table1, DagracaTable5, ThallTable2, WarwickTable1,
};
use super::{ExperimentError, Session};
use crate::gl::GlInfo;
use crate::kernels::{Df64Kernels, Df64Op, Qf128Op, TimedOp};
use crate::numeric::df64::{df64_quick_two_sum, Df64};
use crate::numeric::domain::{exponent_operand, judge, same_words, DomainCounts, Verdict};
use crate::numeric::qf128::{qf128_renorm4, Qf128};
use crate::numeric::reference::{error_ulp48, ulp_bits, ulp_distance_f64, Dd};
use crate::probe::DriverConfig;

#[derive(Debug, Clone)]
pub struct AccuracyOptions {
    /// Random inputs per operation.
    pub samples: usize,
    pub seed: u64,
    pub ops: Vec<Df64Op>,
    /// Inputs for Warwick's statistics (0 skips them).
    pub warwick_samples: usize,
    /// Measure cost relative to an f32 add.
    pub cost: bool,
    /// Texels per cost pass.
    pub cost_texels: usize,
    /// Inputs per df64 function row (0 skips the function table).
    pub function_samples: usize,
    /// Inputs per qf128 row (0 skips the qf128 table).
    pub qf128_samples: usize,
    /// Inputs for Da Graca and Defour's Table 5 (0 skips it).
    pub dagraca_samples: usize,
    /// Chains are lengthened until they take this much longer than an empty pass.
    pub cost_min_seconds: f64,
    /// Draw the op rows' operands as (1 + u) 2^k with |k| <= this (random signs) instead of
    /// Thall's ranges, and judge them by the domain's rules (`numeric::domain`).
    pub exponents: Option<i32>,
}

impl Default for AccuracyOptions {
    fn default() -> Self {
        let mut ops = Df64Op::ACCURATE.to_vec();
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
            qf128_samples: 1 << 22,
            dagraca_samples: 1 << 24,
            exponents: None,
        }
    }
}

/// The accuracy target of an accurate default, from the engine's specification.
pub fn target(op: Df64Op) -> Option<(f64, f64)> {
    match op {
        Df64Op::Add | Df64Op::Sub | Df64Op::Mul | Df64Op::Sqr | Df64Op::Sqrt | Df64Op::MulF32 => {
            Some((0.5, 0.25))
        }
        Df64Op::Div | Df64Op::Recip | Df64Op::Rsqrt => Some((1.0, 0.25)),
        _ => None,
    }
}

/// Thall's operand ranges (Table II) for an op's operands.
pub fn operand_range(op: Df64Op) -> (f64, f64, &'static str) {
    match op {
        Df64Op::Sqrt | Df64Op::SqrtThall => (0.0, 1.0, "[0, 1]"),
        Df64Op::Rsqrt | Df64Op::RsqrtThall => (f64::MIN_POSITIVE, 1.0, "(0, 1)"),
        _ => (-1.0, 1.0, "[-1, 1]"),
    }
}

/// A df64 with a full-precision low word: hi uniform in [lo, hi), lo uniform within ulp(hi)/2.
pub fn random_df64(rng: &mut impl Rng, lo: f64, hi: f64) -> Df64 {
    let x: f64 = rng.gen_range(lo..hi);
    let h = x as f32;
    if h == 0.0 {
        return Df64::new(h, 0.0);
    }
    let l = (rng.gen_range(-0.5..0.5) * ulp_bits(h as f64, 23)) as f32;
    let d = df64_quick_two_sum(h, l);
    if d.hi as f64 <= lo || d.hi as f64 >= hi {
        Df64::new(h, 0.0)
    } else {
        d
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct AccuracyRow {
    pub op: String,
    pub variant: &'static str,
    pub range: String,
    pub samples: usize,
    pub max_ulp48: f64,
    pub rms_ulp48: f64,
    /// (max, rms) targets for the accurate defaults.
    pub target: Option<(f64, f64)>,
    pub meets_target: Option<bool>,
    /// Thall's G80 (max, rms) for the same operation, from `assets/thall-table2.json`.
    pub thall_g80: Option<(f64, f64)>,
    /// Results that differ in any bit from the CPU mirror.
    pub mirror_mismatches: usize,
    /// The probe showed round-to-nearest, so mismatches are errors.
    pub mirror_must_match: bool,
    /// Time per op relative to an f32 add on the same engine (chained ops, one run).
    pub cost_vs_f32_add: Option<f64>,
    /// GPU nanoseconds per op per lane (all lanes in flight, so a throughput figure).
    pub ns_per_op: Option<f64>,
    /// Exponent sweep only: results whose exact value lies in the domain (max and rms are over
    /// these, beyond the flush allowance) and results outside it that break the IEEE rules.
    pub domain: Option<DomainCounts>,
}

#[derive(Debug, Clone, Serialize)]
pub struct WarwickStats {
    pub op: String,
    pub samples: usize,
    pub mean: f64,
    pub median: f64,
    pub max: f64,
    pub min: f64,
    pub sd: f64,
    /// Counts of ULP distances: `[0]` exact, `[k]` in [2^(k-1), 2^k) (Warwick's figures).
    pub log2_histogram: Vec<usize>,
}

#[derive(Debug, Clone, Serialize)]
pub struct AccuracyReport {
    pub driver: GlInfo,
    pub config: DriverConfig,
    pub seed: u64,
    pub rows: Vec<AccuracyRow>,
    pub warwick: Vec<WarwickStats>,
    pub warwick_paper: WarwickTable1,
    pub thall_paper: ThallTable2,
    pub functions: Vec<FunctionRow>,
    pub qf128: Vec<QfRow>,
    pub dagraca_table5: Vec<DagracaMeasured>,
    pub dagraca_paper: DagracaTable5,
    pub cost_method: String,
}

/// One row of Da Graca and Defour's Table 5 measured here.
#[derive(Debug, Clone, Serialize)]
pub struct DagracaMeasured {
    pub op: String,
    /// The df64gl routine measured for that row.
    pub routine: String,
    pub samples: usize,
    /// log2 of the largest |result - exact| / |exact|; `None` when every result was exact.
    pub log2_max_rel_error: Option<f64>,
}

impl AccuracyReport {
    /// Rows of accurate defaults that miss their targets, or any mirror mismatch that must not be.
    pub fn failures(&self) -> Vec<String> {
        let mut f = Vec::new();
        for r in &self.rows {
            if r.meets_target == Some(false) {
                f.push(format!(
                    "{}: max {:.3} / rms {:.3} ulp48 misses target {:?}",
                    r.op, r.max_ulp48, r.rms_ulp48, r.target
                ));
            }
            if let (Some(d), Some(_)) = (r.domain, r.target) {
                if d.outside_wrong > 0 {
                    f.push(format!(
                        "{}: {} of {} results outside the domain break the IEEE rules",
                        r.op, d.outside_wrong, d.outside
                    ));
                }
            }
            if r.mirror_must_match && r.mirror_mismatches > 0 {
                f.push(format!(
                    "{}: {} results differ from the CPU mirror",
                    r.op, r.mirror_mismatches
                ));
            }
        }
        for r in &self.functions {
            if r.meets_target == Some(false) || (r.mirror_must_match && r.mirror_mismatches > 0) {
                f.push(format!(
                    "{} on {}: max {:.3} / rms {:.3} ulp48 (target {:?}), exactness {:?}, mirror diffs {}",
                    r.op, r.range, r.max_ulp48, r.rms_ulp48, r.target, r.inexact_of_representable, r.mirror_mismatches
                ));
            }
        }
        for r in &self.qf128 {
            if r.meets_target == Some(false) || (r.mirror_must_match && r.mirror_mismatches > 0) {
                f.push(format!(
                    "qf128 {} on {}: max {:.3} ulp96 (target {:?}), mirror diffs {}",
                    r.op, r.range, r.max_ulp96, r.target, r.mirror_mismatches
                ));
            }
        }
        f
    }

    pub fn table(&self) -> String {
        let mut s = format!(
            "df64 accuracy on {} ({}), ulp48 = 2^(e-47); {} inputs per op, seed {}\n",
            self.driver.renderer,
            self.driver.version,
            self.rows.first().map(|r| r.samples).unwrap_or(0),
            self.seed
        );
        s.push_str(&format!(
            "{:<12} {:<9} {:<8} {:>11} {:>8} {:>12} {:>10} {:>8} {:>12} {:>8}\n",
            "op",
            "variant",
            "range",
            "max",
            "rms",
            "target",
            "Thall G80",
            "mirror",
            "cost/f32add",
            "ns/op"
        ));
        for r in &self.rows {
            let target = match (r.target, r.meets_target) {
                (Some((m, q)), Some(ok)) => format!("{m}/{q} {}", if ok { "ok" } else { "MISS" }),
                _ => "-".into(),
            };
            let thall = pair_cell(r.thall_g80);
            let mirror = mirror_cell(r.mirror_mismatches);
            let cost = cost_cell(r.cost_vs_f32_add, 1);
            let ns = r
                .ns_per_op
                .map(|c| format!("{c:.3}"))
                .unwrap_or_else(|| "-".into());
            s.push_str(&format!(
                "{:<12} {:<9} {:<8} {:>11.3} {:>8.3} {:>12} {:>10} {:>8} {:>12} {:>8}\n",
                r.op, r.variant, r.range, r.max_ulp48, r.rms_ulp48, target, thall, mirror, cost, ns
            ));
        }
        if self.rows.iter().any(|r| r.domain.is_some()) {
            s.push_str(
                "exponent sweep: max and rms over results of magnitude 2^-100 to 2^126, beyond \
                 the flush allowance; results outside must be ±inf on overflow (never NaN), ±0 \
                 or within the allowance on underflow\n",
            );
            for r in &self.rows {
                if let Some(d) = r.domain {
                    s.push_str(&format!(
                        "  {:<12} in domain {:>8}   outside {:>8}   outside breaking the rules {:>6}\n",
                        r.op, d.in_domain, d.outside, d.outside_wrong
                    ));
                }
            }
        }
        if !self.warwick.is_empty() {
            s.push_str(&format!(
                "\nWarwick's statistics: distance in f64 ulps to the f64 result, inputs uniform in [-1e6, 1e6] ({} samples)\n",
                self.warwick[0].samples
            ));
            s.push_str(&format!(
                "{:<12} {:>10} {:>8} {:>10} {:>6} {:>10}   {}\n",
                "op", "mean", "median", "max", "min", "sd", "Warwick (CUDA): mean/median/max/sd"
            ));
            for w in &self.warwick {
                let paper = self
                    .warwick_paper
                    .rows
                    .iter()
                    .find(|p| w.op.starts_with(&p.op))
                    .map(|p| format!("{}/{}/{}/{}", p.mean, p.median, p.max, p.sd))
                    .unwrap_or_default();
                s.push_str(&format!(
                    "{:<12} {:>10.3} {:>8} {:>10} {:>6} {:>10.3}   {}\n",
                    w.op, w.mean, w.median, w.max, w.min, w.sd, paper
                ));
            }
        }
        if !self.functions.is_empty() {
            s.push_str(&format!(
                "\ndf64 functions against the correctly rounded oracle (astro-float, 256 bits), ulp48; {} inputs per row\n",
                self.functions[0].samples
            ));
            s.push_str(&format!(
                "{:<8} {:<24} {:>9} {:>7} {:>14} {:>11} {:>8} {:>12}\n",
                "function", "range", "max", "rms", "target", "Thall G80", "mirror", "cost/f32add"
            ));
            for r in &self.functions {
                let target = match (r.target, r.inexact_of_representable) {
                    (Some((m, q)), _) => format!("{m}/{q}"),
                    (None, Some((bad, of))) => format!("exact {}/{}", of - bad, of),
                    _ => "-".into(),
                };
                let thall = pair_cell(r.thall_g80);
                let mirror = mirror_cell(r.mirror_mismatches);
                let cost = cost_cell(r.cost_vs_f32_add, 0);
                s.push_str(&format!(
                    "{:<8} {:<24} {:>9.3} {:>7.3} {:>14} {:>11} {:>8} {:>12}\n",
                    r.op, r.range, r.max_ulp48, r.rms_ulp48, target, thall, mirror, cost
                ));
            }
        }
        if !self.qf128.is_empty() {
            s.push_str(&format!(
                "\nqf128 against the oracle, ulp96 = 2^(e-95); {} inputs per row\n",
                self.qf128[0].samples
            ));
            s.push_str(&format!(
                "{:<10} {:<16} {:>9} {:>7} {:>7} {:>8} {:>12}\n",
                "op", "range", "max", "rms", "target", "mirror", "cost/f32add"
            ));
            for r in &self.qf128 {
                let target = r
                    .target
                    .map(|t| t.to_string())
                    .unwrap_or_else(|| "-".into());
                let mirror = mirror_cell(r.mirror_mismatches);
                let cost = cost_cell(r.cost_vs_f32_add, 0);
                s.push_str(&format!(
                    "{:<10} {:<16} {:>9.3} {:>7.3} {:>7} {:>8} {:>12}\n",
                    r.op, r.range, r.max_ulp96, r.rms_ulp96, target, mirror, cost
                ));
            }
        }
        if !self.dagraca_table5.is_empty() {
            s.push_str(&format!(
                "\nDa Graca and Defour Table 5: log2 of the max relative error over {} inputs (paper: {})\n",
                self.dagraca_table5[0].samples, self.dagraca_paper.device
            ));
            s.push_str(&format!(
                "{:<8} {:<16} {:>10} {:>10}\n",
                "op", "routine", "measured", "paper"
            ));
            let show = |v: Option<f64>| v.map_or("exact".to_string(), |v| format!("{v:.1}"));
            for r in &self.dagraca_table5 {
                let paper = self
                    .dagraca_paper
                    .rows
                    .iter()
                    .find(|p| p.op == r.op)
                    .map(|p| show(p.log2_max_rel_error))
                    .unwrap_or_default();
                s.push_str(&format!(
                    "{:<8} {:<16} {:>10} {:>10}\n",
                    r.op,
                    r.routine,
                    show(r.log2_max_rel_error),
                    paper
                ));
            }
        }
        s.push_str(&format!("\ncost: {}\n", self.cost_method));
        s
    }
}

/// "max/rms" of a published pair, or "-".
fn pair_cell(p: Option<(f64, f64)>) -> String {
    p.map(|(m, q)| format!("{m}/{q}"))
        .unwrap_or_else(|| "-".into())
}

/// "=" when the GPU matched the CPU mirror everywhere, else the count of differences.
fn mirror_cell(mismatches: usize) -> String {
    if mismatches == 0 {
        "=".to_string()
    } else {
        format!("{mismatches} diff")
    }
}

fn cost_cell(cost: Option<f64>, decimals: usize) -> String {
    cost.map(|c| format!("{c:.decimals$}x"))
        .unwrap_or_else(|| "-".into())
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
        if op == Df64Op::MulF32 {
            y.lo = 0.0;
        }
        b.push(y);
    }
    (a, b)
}

fn variant(op: Df64Op) -> &'static str {
    if Df64Op::THALL.contains(&op) {
        "thall"
    } else {
        "accurate"
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
        + if dagraca { 6 } else { 0 };
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
        rows.push(AccuracyRow {
            op: op.name().to_string(),
            variant: variant(op),
            range,
            samples: a.len(),
            max_ulp48: max,
            rms_ulp48: rms,
            target: t,
            meets_target: t.map(|(tm, tr)| max <= tm && rms <= tr),
            domain,
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
        qf128,
        dagraca_table5: dagraca_rows,
        dagraca_paper: dagraca_table5()?,
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

/// One row of the df64 function table: an elementary function over an operand range.
#[derive(Debug, Clone, Copy)]
pub struct FunctionCase {
    pub op: Df64Op,
    /// Range label as the report prints it.
    pub range: &'static str,
    pub a: (f64, f64),
    pub b: Option<(f64, f64)>,
    /// (max, rms) in ulp48; `None` for fmod, whose criterion is exactness.
    pub target: Option<(f64, f64)>,
    /// The op's name in Thall's Table II, where he has the same row.
    pub thall: Option<&'static str>,
}

const HALF_PI: f64 = std::f64::consts::FRAC_PI_2;
const TWO_20: f64 = 1_048_576.0;

/// Thall's Table II function rows, then the functions he did not have and wide ranges.
pub fn function_cases() -> Vec<FunctionCase> {
    let c = |op, range, a, b, target: Option<(f64, f64)>, thall| FunctionCase {
        op,
        range,
        a,
        b,
        target,
        thall,
    };
    let one = Some((1.0, 0.5));
    let two = Some((2.0, 0.5));
    vec![
        c(Df64Op::Exp, "[-1, 1]", (-1.0, 1.0), None, one, Some("exp")),
        c(Df64Op::Log1p, "[1, 2]", (1.0, 2.0), None, one, Some("ln1p")),
        c(
            Df64Op::Sin,
            "[-pi/2, pi/2]",
            (-HALF_PI, HALF_PI),
            None,
            one,
            Some("sin"),
        ),
        c(
            Df64Op::Cos,
            "[-pi/2, pi/2]",
            (-HALF_PI, HALF_PI),
            None,
            one,
            Some("cos"),
        ),
        c(Df64Op::Exp, "[-50, 88]", (-50.0, 88.0), None, one, None),
        c(Df64Op::Expm1, "[-1, 1]", (-1.0, 1.0), None, one, None),
        c(Df64Op::Log, "[0.5, 2]", (0.5, 2.0), None, one, None),
        c(Df64Op::Log, "[1e-30, 1e30]", (1e-30, 1e30), None, one, None),
        c(
            Df64Op::Log1p,
            "[-0.25, 0.25]",
            (-0.25, 0.25),
            None,
            one,
            None,
        ),
        c(
            Df64Op::Sin,
            "[-2^20, 2^20]",
            (-TWO_20, TWO_20),
            None,
            one,
            None,
        ),
        c(
            Df64Op::Cos,
            "[-2^20, 2^20]",
            (-TWO_20, TWO_20),
            None,
            one,
            None,
        ),
        c(Df64Op::Tan, "[-1.5, 1.5]", (-1.5, 1.5), None, two, None),
        c(Df64Op::Atan, "[-10, 10]", (-10.0, 10.0), None, two, None),
        c(
            Df64Op::Atan2,
            "[-10, 10]^2",
            (-10.0, 10.0),
            Some((-10.0, 10.0)),
            two,
            None,
        ),
        c(Df64Op::Asin, "[-1, 1]", (-1.0, 1.0), None, two, None),
        c(Df64Op::Acos, "[-1, 1]", (-1.0, 1.0), None, two, None),
        c(Df64Op::Sinh, "[-5, 5]", (-5.0, 5.0), None, two, None),
        c(Df64Op::Cosh, "[-5, 5]", (-5.0, 5.0), None, two, None),
        c(Df64Op::Tanh, "[-5, 5]", (-5.0, 5.0), None, two, None),
        c(
            Df64Op::Pow,
            "x [0.5, 2], y [-4, 4]",
            (0.5, 2.0),
            Some((-4.0, 4.0)),
            Some((4.0, 0.5)),
            None,
        ),
        // |a/b| <= 2e6 < 2^24, where fmod is exact whenever the result is a df64.
        c(
            Df64Op::Fmod,
            "[-1e6, 1e6] / [0.5, 10]",
            (-1e6, 1e6),
            Some((0.5, 10.0)),
            None,
            None,
        ),
    ]
}

#[derive(Debug, Clone, Serialize)]
pub struct FunctionRow {
    pub op: String,
    pub range: String,
    pub samples: usize,
    pub max_ulp48: f64,
    pub rms_ulp48: f64,
    pub target: Option<(f64, f64)>,
    pub meets_target: Option<bool>,
    pub thall_g80: Option<(f64, f64)>,
    pub mirror_mismatches: usize,
    pub mirror_must_match: bool,
    /// fmod: (results that differ from the exact value, results that are exactly a df64).
    pub inexact_of_representable: Option<(usize, usize)>,
    pub cost_vs_f32_add: Option<f64>,
}

/// `f(oracle, i)` for i in 0..n on all cores, each thread with its own oracle.
pub(crate) fn with_oracles<T: Send + Clone + Default>(
    n: usize,
    f: impl Fn(&mut crate::numeric::oracle::Oracle, usize) -> T + Sync,
) -> Vec<T> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |t| t.get())
        .max(1);
    let chunk = n.div_ceil(threads).max(1);
    let mut out = vec![T::default(); n];
    std::thread::scope(|scope| {
        for (t, slot) in out.chunks_mut(chunk).enumerate() {
            let f = &f;
            scope.spawn(move || {
                let mut o = crate::numeric::oracle::Oracle::new();
                for (k, cell) in slot.iter_mut().enumerate() {
                    *cell = f(&mut o, t * chunk + k);
                }
            });
        }
    });
    out
}

/// Errors in ulp48 of `results` against the oracle, and whether the exact value is a df64.
fn oracle_errors(
    case: &FunctionCase,
    a: &[Df64],
    b: &[Df64],
    results: &[Df64],
) -> Vec<(f64, bool)> {
    use crate::numeric::oracle::{big_df64, error_ulp48, is_df64};
    with_oracles(a.len(), |o, i| {
        let (x, y) = (big_df64(a[i]), big_df64(b[i]));
        match case.op.oracle(o, &x, &y) {
            Some(exact) => {
                let representable = case.target.is_some() || is_df64(&exact);
                (error_ulp48(results[i], &exact), representable)
            }
            None => (0.0, true),
        }
    })
}

/// Measures one function case on the GPU: oracle errors and the CPU-mirror comparison.
pub fn measure_function(
    kernels: &Df64Kernels,
    case: &FunctionCase,
    samples: usize,
    seed: u64,
) -> Result<FunctionRow, ExperimentError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ ((case.op as u64) << 20) ^ case.a.1.to_bits());
    let a: Vec<Df64> = (0..samples)
        .map(|_| random_df64(&mut rng, case.a.0, case.a.1))
        .collect();
    let b: Vec<Df64> = match case.b {
        Some((lo, hi)) => (0..samples)
            .map(|_| random_df64(&mut rng, lo, hi))
            .collect(),
        None => vec![Df64::ZERO; samples],
    };
    let got = kernels.apply_unchecked(case.op, &a, &b)?;
    let mirror = case.op.mirror();
    let expected = kernels.mirror_map(samples, |i| mirror(a[i], b[i]));
    let mismatches = (0..samples)
        .filter(|&i| {
            let m = expected[i];
            m.hi.to_bits() != got[i].hi.to_bits() || m.lo.to_bits() != got[i].lo.to_bits()
        })
        .count();
    let errs = oracle_errors(case, &a, &b, &got);
    let considered: Vec<f64> = errs.iter().filter(|e| e.1).map(|e| e.0).collect();
    let max = considered.iter().cloned().fold(0.0, f64::max);
    let rms =
        (considered.iter().map(|e| e * e).sum::<f64>() / considered.len().max(1) as f64).sqrt();
    let inexact = case.target.is_none().then(|| {
        (
            considered.iter().filter(|e| **e != 0.0).count(),
            considered.len(),
        )
    });
    let thall = thall_table2()?;
    Ok(FunctionRow {
        op: case.op.name().to_string(),
        range: case.range.to_string(),
        samples,
        max_ulp48: max,
        rms_ulp48: rms,
        target: case.target,
        meets_target: match (case.target, inexact) {
            (Some((tm, tr)), _) => Some(max <= tm && rms <= tr),
            (None, Some((bad, _))) => Some(bad == 0),
            _ => None,
        },
        thall_g80: case
            .thall
            .and_then(|n| thall.rows.iter().find(|r| r.op == n))
            .map(|r| (r.max, r.rms)),
        mirror_mismatches: mismatches,
        mirror_must_match: kernels.round_to_nearest(),
        inexact_of_representable: inexact,
        cost_vs_f32_add: None,
    })
}

/// A qf128 with all four words populated: x uniform in [lo, hi), each further word uniform
/// within half an ulp of the one before, renormalized.
pub fn random_qf128(rng: &mut impl Rng, lo: f64, hi: f64) -> Qf128 {
    let x: f64 = rng.gen_range(lo..hi);
    let mut w = [x as f32, 0.0, 0.0, 0.0];
    for k in 1..4 {
        if w[k - 1] == 0.0 {
            break;
        }
        w[k] = (rng.gen_range(-0.5..0.5) * ulp_bits(w[k - 1] as f64, 23)) as f32;
    }
    let r = qf128_renorm4(w[0], w[1], w[2], w[3]);
    if (r.x[0] as f64) < lo || (r.x[0] as f64) >= hi {
        Qf128::from_f32(w[0])
    } else {
        r
    }
}

/// One row of the qf128 table.
#[derive(Debug, Clone, Copy)]
pub struct QfCase {
    pub op: Qf128Op,
    pub range: &'static str,
    pub a: (f64, f64),
    pub b: (f64, f64),
    /// Max error target in ulp96 (none for Thall's sloppy routines).
    pub target: Option<f64>,
}

/// The qf128 rows: Thall's operand ranges, then wide ranges for the functions.
pub fn qf128_cases() -> Vec<QfCase> {
    let c = |op, range, a, b, target| QfCase {
        op,
        range,
        a,
        b,
        target,
    };
    let unit = (-1.0, 1.0);
    vec![
        c(Qf128Op::Add, "[-1, 1]", unit, unit, Some(2.0)),
        c(Qf128Op::Sub, "[-1, 1]", unit, unit, Some(2.0)),
        c(Qf128Op::Mul, "[-1, 1]", unit, unit, Some(2.0)),
        c(Qf128Op::Sqr, "[-1, 1]", unit, unit, Some(2.0)),
        c(Qf128Op::MulF32, "[-1, 1]", unit, unit, Some(2.0)),
        c(Qf128Op::MulDf64, "[-1, 1]", unit, unit, Some(2.0)),
        c(Qf128Op::Div, "[-1, 1]", unit, unit, Some(4.0)),
        c(Qf128Op::Recip, "[-1, 1]", unit, unit, Some(4.0)),
        c(Qf128Op::Sqrt, "[0, 1]", (0.0, 1.0), unit, Some(4.0)),
        c(
            Qf128Op::Rsqrt,
            "(0, 1)",
            (f64::MIN_POSITIVE, 1.0),
            unit,
            Some(4.0),
        ),
        c(Qf128Op::Exp, "[-1, 1]", unit, unit, Some(8.0)),
        // Below e^-20 ~ 2^-29 the fourth word of the result would be subnormal.
        c(Qf128Op::Exp, "[-20, 80]", (-20.0, 80.0), unit, Some(8.0)),
        c(Qf128Op::Log, "[0.5, 2]", (0.5, 2.0), unit, Some(8.0)),
        c(
            Qf128Op::Log,
            "[1e-10, 1e10]",
            (1e-10, 1e10),
            unit,
            Some(8.0),
        ),
        c(
            Qf128Op::Sin,
            "[-pi/2, pi/2]",
            (-HALF_PI, HALF_PI),
            unit,
            Some(8.0),
        ),
        c(
            Qf128Op::Cos,
            "[-pi/2, pi/2]",
            (-HALF_PI, HALF_PI),
            unit,
            Some(8.0),
        ),
        c(
            Qf128Op::Sin,
            "[-1024, 1024]",
            (-1024.0, 1024.0),
            unit,
            Some(8.0),
        ),
        c(
            Qf128Op::Cos,
            "[-1024, 1024]",
            (-1024.0, 1024.0),
            unit,
            Some(8.0),
        ),
        c(Qf128Op::AddSloppy, "[-1, 1]", unit, unit, None),
        c(Qf128Op::MulSloppy, "[-1, 1]", unit, unit, None),
    ]
}

#[derive(Debug, Clone, Serialize)]
pub struct QfRow {
    pub op: String,
    pub range: String,
    pub samples: usize,
    pub max_ulp96: f64,
    pub rms_ulp96: f64,
    pub target: Option<f64>,
    pub meets_target: Option<bool>,
    /// Results that differ in any bit from the CPU mirror (run in the driver's subnormal mode).
    pub mirror_mismatches: usize,
    pub mirror_must_match: bool,
    /// Time per op relative to an f32 add on the same engine (one run).
    pub cost_vs_f32_add: Option<f64>,
}

/// Measures one qf128 case on the GPU against the oracle and the CPU mirror.
pub fn measure_qf128(
    kernels: &Df64Kernels,
    case: &QfCase,
    samples: usize,
    seed: u64,
) -> Result<QfRow, ExperimentError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ ((case.op as u64) << 24) ^ case.a.1.to_bits());
    let a: Vec<Qf128> = (0..samples)
        .map(|_| random_qf128(&mut rng, case.a.0, case.a.1))
        .collect();
    let b: Vec<Qf128> = (0..samples)
        .map(|_| {
            case.op
                .second_operand(random_qf128(&mut rng, case.b.0, case.b.1))
        })
        .collect();
    let got = kernels.apply_qf128(case.op, &a, &b)?;
    let mirror = case.op.mirror();
    let expected = kernels.mirror_map(samples, |i| mirror(a[i], b[i]));
    let mismatches = (0..samples)
        .filter(|&i| (0..4).any(|w| expected[i].x[w].to_bits() != got[i].x[w].to_bits()))
        .count();
    let errs = with_oracles(samples, |o, i| {
        let exact = case.op.oracle(o, &a[i].to_big(), &b[i].to_big());
        crate::numeric::oracle::error_ulp96(&got[i].x, &exact)
    });
    let max = errs.iter().cloned().fold(0.0, f64::max);
    let rms = (errs.iter().map(|e| e * e).sum::<f64>() / samples.max(1) as f64).sqrt();
    Ok(QfRow {
        op: case.op.name().to_string(),
        range: case.range.to_string(),
        samples,
        max_ulp96: max,
        rms_ulp96: rms,
        target: case.target,
        meets_target: case.target.map(|t| max <= t),
        mirror_mismatches: mismatches,
        mirror_must_match: kernels.round_to_nearest(),
        cost_vs_f32_add: None,
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
