//! `df64gl repro`: every paper experiment on this driver, written as a report folder
//! (REPORT.md, report.json, PNG plots) with each paper's published values (from `assets/`)
//! beside the values measured here, every column labelled with its source and device.

use std::path::{Path, PathBuf};
use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rustfft::num_complex::Complex64;
use serde::Serialize;

use super::accuracy::{run_accuracy, AccuracyOptions, AccuracyReport};
use super::fft_study::{run_fft_study, FftStudyOptions, PrecisionRow};
use super::ops_bench::{run_op_bench, OpBenchOptions, OpBenchReport};
use super::paper::{paper_table, PaperTable};
use super::plot::{Canvas, Chart, Series, BLUE, GREEN, ORANGE, RED};
use super::{ExperimentError, Session};
use crate::fft::{FftPrecision, Radix, TwiddleSource};
use crate::gl::{timed, Framebuffer, GlInfo, Pass, Program, Texture, Uniform};
use crate::kernels::proof::Outcome;
use crate::kernels::{Df64Kernels, Df64Op, F64Op, KernelError};
use crate::numeric::df64::{self as m, Df64};
use crate::numeric::reference::{ulp_bits, ulp_distance_f64, Dd};
use crate::probe::{run_probe, ProbeReport, DEFAULT_SAMPLES};

#[derive(Debug, Clone)]
pub struct ReproOptions {
    /// The report folder.
    pub out: PathBuf,
    /// Smaller samples and sizes: under two minutes on llvmpipe.
    pub quick: bool,
    /// Overwrite the files of an existing report folder.
    pub force: bool,
    pub seed: u64,
}

/// A table cell: a number, or text (an interval, "exact", "not in paper").
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum Cell {
    Num(f64),
    Text(String),
}

fn num(x: f64) -> Cell {
    if x.is_finite() {
        Cell::Num(x)
    } else {
        // JSON has no infinities; keep them as text rather than null.
        Cell::Text(format!("{x}"))
    }
}

fn text(s: impl Into<String>) -> Cell {
    Cell::Text(s.into())
}

fn json_cell(v: &serde_json::Value) -> Cell {
    match v {
        serde_json::Value::Number(n) => n.as_f64().map_or_else(|| text(n.to_string()), num),
        serde_json::Value::String(s) => text(s.clone()),
        serde_json::Value::Null => text("exact"),
        other => text(other.to_string()),
    }
}

const NOT_IN_PAPER: &str = "not in paper";

#[derive(Debug, Clone, Serialize)]
pub struct ReportTable {
    pub id: String,
    pub title: String,
    /// Where each column's values come from: the paper (with its device) and this run.
    pub sources: Vec<String>,
    pub notes: Vec<String>,
    pub columns: Vec<String>,
    pub rows: Vec<Vec<Cell>>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ReproReport {
    /// Short device name used in column labels, and the full driver description.
    pub device: String,
    pub driver: GlInfo,
    pub quick: bool,
    pub seed: u64,
    pub seconds: f64,
    pub tables: Vec<ReportTable>,
    pub plots: Vec<String>,
}

impl ReproReport {
    pub fn table(&self, id: &str) -> Option<&ReportTable> {
        self.tables.iter().find(|t| t.id == id)
    }
}

/// "llvmpipe (LLVM 15.0.6, 256 bits)" -> "llvmpipe"; "NVIDIA H100 80GB HBM3/PCIe/SSE2" ->
/// "NVIDIA H100 80GB HBM3".
pub fn short_device(info: &GlInfo) -> String {
    let r = info.renderer.as_str();
    let end = [r.find(" ("), r.find('/')]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(r.len());
    r[..end].trim().to_string()
}

/// Refuses an existing report folder unless `force`; run before any measurement.
pub fn check_out_dir(out: &Path, force: bool) -> Result<(), ExperimentError> {
    if out.exists() && !force {
        return Err(ExperimentError::Invalid(format!(
            "report folder {} exists: pass --force to overwrite its files, or choose another \
             --out",
            out.display()
        )));
    }
    if out.exists() && !out.is_dir() {
        return Err(ExperimentError::Invalid(format!(
            "{} exists and is not a folder: choose another --out",
            out.display()
        )));
    }
    Ok(())
}

struct Sizes {
    probe_samples: usize,
    accuracy: AccuracyOptions,
    dagraca_tries: usize,
    op_texels: usize,
    op_min_seconds: f64,
    leibniz_side: u32,
    fft_log2: std::ops::RangeInclusive<u32>,
    fft_repeats: usize,
}

fn sizes(quick: bool, seed: u64) -> Sizes {
    if quick {
        Sizes {
            probe_samples: 1 << 14,
            accuracy: AccuracyOptions {
                samples: 1 << 14,
                seed,
                warwick_samples: 1 << 16,
                cost_texels: 1 << 14,
                cost_min_seconds: 0.004,
                function_samples: 1 << 11,
                qf128_samples: 1 << 10,
                dagraca_samples: 1 << 16,
                ..AccuracyOptions::default()
            },
            dagraca_tries: 3,
            op_texels: 1 << 14,
            op_min_seconds: 0.005,
            leibniz_side: 32,
            fft_log2: 4..=12,
            fft_repeats: 2,
        }
    } else {
        Sizes {
            probe_samples: DEFAULT_SAMPLES,
            accuracy: AccuracyOptions {
                seed,
                ..AccuracyOptions::default()
            },
            dagraca_tries: 5,
            op_texels: 1 << 16,
            op_min_seconds: 0.02,
            leibniz_side: 64,
            fft_log2: 4..=22,
            fft_repeats: 3,
        }
    }
}

/// Runs every experiment; `progress` gets (stage, stages, what).
pub fn run_repro(
    session: &Session,
    options: &ReproOptions,
    progress: &mut dyn FnMut(usize, usize, &str),
) -> Result<(ReproReport, Vec<(String, Canvas)>), ExperimentError> {
    check_out_dir(&options.out, options.force)?;
    let start = Instant::now();
    let s = sizes(options.quick, options.seed);
    let dev = short_device(session.ctx.info());
    let kernels = Df64Kernels::new(&session.ctx, &session.probe)?;
    const STAGES: usize = 6;
    let mut tables = Vec::new();
    let mut plots = Vec::new();

    progress(0, STAGES, "Thall Table I: probing the driver");
    let probe = run_probe(&session.ctx, s.probe_samples)?;
    tables.extend(thall_table1(&probe, &dev)?);

    let stage = |k: usize, name: &str| {
        let name = name.to_string();
        move |p: &mut dyn FnMut(usize, usize, &str), d: usize, t: usize, what: &str| {
            p(k, STAGES, &format!("{name}: {what} ({d}/{t})"))
        }
    };
    let report = {
        let st = stage(1, "Table II, Warwick Table 1, Da Graca Table 5");
        run_accuracy(session, &s.accuracy, &mut |d, t, w| st(progress, d, t, w))?
    };
    tables.extend(thall_table2(&report, &dev));
    let (warwick1, hist) = warwick_table1(&report, &dev)?;
    tables.push(warwick1);
    plots.extend(hist);
    tables.push(dagraca_table5(&report, &dev));

    let (t3, t4, plot) = {
        let st = stage(2, "Da Graca Tables 3 and 4");
        dagraca_timings(&kernels, s.dagraca_tries, &dev, &mut |d, t, w| {
            st(progress, d, t, w)
        })?
    };
    tables.push(t3);
    tables.push(t4);
    plots.push(("dagraca-gpu-times.png".into(), plot));

    let ops = {
        let st = stage(3, "Warwick Table 2");
        let o = OpBenchOptions {
            ops: OpBenchOptions::warwick(),
            texels: s.op_texels,
            min_seconds: s.op_min_seconds,
        };
        run_op_bench(&kernels, &o, &mut |d, t, w| st(progress, d, t, w))?
    };
    tables.push(warwick_table2(&ops, &dev)?);

    let leibniz = {
        let st = stage(4, "Warwick Tables 3 and 4 (Leibniz)");
        run_leibniz(&kernels, s.leibniz_side, 2000, &mut |d, t, w| {
            st(progress, d, t, w)
        })?
    };
    tables.extend(warwick_tables34(&leibniz, &dev)?);

    let (fft, fft_plot) = {
        let st = stage(5, "Thall FFT study");
        thall_fft(&kernels, &s, options.seed, &dev, &mut |d, t, w| {
            st(progress, d, t, w)
        })?
    };
    tables.push(fft);
    plots.push(("thall-fft-accuracy.png".into(), fft_plot));
    progress(STAGES, STAGES, "done");

    Ok((
        ReproReport {
            device: dev,
            driver: session.ctx.info().clone(),
            quick: options.quick,
            seed: options.seed,
            seconds: start.elapsed().as_secs_f64(),
            tables,
            plots: plots.iter().map(|(n, _)| n.clone()).collect(),
        },
        plots,
    ))
}

fn paper_label(col: &str, who: &str) -> String {
    format!("{col} [{who}]")
}

fn thall_table1(probe: &ProbeReport, dev: &str) -> Result<Vec<ReportTable>, ExperimentError> {
    let paper = paper_table("thall-table1.json")?;
    let mut columns = vec!["operation".to_string()];
    columns.extend(paper.columns.iter().map(|c| paper_label(c, "Thall 2007")));
    columns.extend([
        format!("error range, ulp [{dev}]"),
        format!("correctly rounded, % [{dev}]"),
        format!("rounding [{dev}]"),
    ]);
    let rows = probe
        .ops
        .iter()
        .map(|r| {
            let mut row = vec![text(&r.op)];
            match paper.row(&r.op) {
                Some(p) => row.extend(p.values.iter().map(json_cell)),
                None => row.extend(paper.columns.iter().map(|_| text(NOT_IN_PAPER))),
            }
            row.extend([
                text(format!("[{:.3}, {:.3}]", r.min_ulp, r.max_ulp)),
                num(100.0 * r.correctly_rounded),
                text(&r.rounding),
            ]);
            row
        })
        .collect();
    let eft_rows = probe
        .transforms
        .iter()
        .map(|t| {
            vec![
                text(&t.transform),
                text(t.protection.name()),
                num(100.0 * t.wrong),
                num(t.samples as f64),
            ]
        })
        .collect();
    Ok(vec![
        ReportTable {
            id: "thall-table1".into(),
            title: "Thall Table I: f32 arithmetic error (GPU paranoia)".into(),
            sources: vec![
                format!("{} ({})", paper.source, paper.device),
                format!("measured: df64gl probe on {dev}, {} inputs per op", probe.ops.first().map_or(0, |r| r.samples)),
            ],
            notes: vec![format!(
                "Also measured: ties to even {}, guard digit {}, subnormal results flushed {}, fma fused {}.",
                probe.ties_to_even, probe.guard_digit, probe.flushes_subnormal_results, probe.fma_fused
            )],
            columns,
            rows,
        },
        ReportTable {
            id: "probe-eft".into(),
            title: "Error-free transforms as this driver compiles them (share of wrong results)".into(),
            sources: vec![format!("measured: df64gl probe on {dev}")],
            notes: vec![format!("Configuration chosen: {}", probe.decision)],
            columns: vec![
                "transform".into(),
                "compiled".into(),
                format!("wrong, % [{dev}]"),
                "inputs".into(),
            ],
            rows: eft_rows,
        },
    ])
}

fn opt_num(v: Option<f64>, missing: &str) -> Cell {
    v.map_or_else(|| text(missing), num)
}

fn mirror_cell(mismatches: usize, must: bool) -> Cell {
    if mismatches == 0 {
        text("equal")
    } else if must {
        text(format!("{mismatches} differ (error)"))
    } else {
        text(format!("{mismatches} differ"))
    }
}

fn thall_table2(r: &AccuracyReport, dev: &str) -> Vec<ReportTable> {
    let paper_src = format!("{} ({})", r.thall_paper.source, r.thall_paper.device);
    let cols = |first: &[&str], unit: &str| {
        let mut c: Vec<String> = first.iter().map(|s| s.to_string()).collect();
        c.extend([
            "G80 max [Thall 2007]".into(),
            "G80 RMS [Thall 2007]".into(),
            format!("max, {unit} [{dev}]"),
            format!("RMS, {unit} [{dev}]"),
            format!("cost / f32 add [{dev}]"),
            format!("GPU vs CPU mirror [{dev}]"),
        ]);
        c
    };
    let arithmetic = r
        .rows
        .iter()
        .map(|a| {
            vec![
                text(&a.op),
                text(a.variant),
                text(&a.range),
                opt_num(a.thall_g80.map(|t| t.0), NOT_IN_PAPER),
                opt_num(a.thall_g80.map(|t| t.1), NOT_IN_PAPER),
                num(a.max_ulp48),
                num(a.rms_ulp48),
                opt_num(a.cost_vs_f32_add, "not measured"),
                mirror_cell(a.mirror_mismatches, a.mirror_must_match),
            ]
        })
        .collect();
    let functions = r
        .functions
        .iter()
        .map(|f| {
            vec![
                text(&f.op),
                text(&f.range),
                opt_num(f.thall_g80.map(|t| t.0), NOT_IN_PAPER),
                opt_num(f.thall_g80.map(|t| t.1), NOT_IN_PAPER),
                num(f.max_ulp48),
                num(f.rms_ulp48),
                opt_num(f.cost_vs_f32_add, "not measured"),
                mirror_cell(f.mirror_mismatches, f.mirror_must_match),
            ]
        })
        .collect();
    let qf = r
        .qf128
        .iter()
        .map(|q| {
            vec![
                text(&q.op),
                text(&q.range),
                opt_num(q.target, "none"),
                num(q.max_ulp96),
                num(q.rms_ulp96),
                opt_num(q.cost_vs_f32_add, "not measured"),
                mirror_cell(q.mirror_mismatches, q.mirror_must_match),
            ]
        })
        .collect();
    let samples = |n: usize| {
        format!("measured: df64gl on {dev}, {n} random inputs per row, against the oracle (astro-float, 256 bits) and the CPU mirror")
    };
    vec![
        ReportTable {
            id: "thall-table2".into(),
            title: "Thall Table II: df64 arithmetic, max and RMS error in ulp48".into(),
            sources: vec![paper_src.clone(), samples(r.rows.first().map_or(0, |a| a.samples))],
            notes: vec![
                "variant 'accurate': df64gl's defaults; 'thall': the routines as published.".into(),
                r.cost_method.clone(),
            ],
            columns: cols(&["op", "variant", "range"], "ulp48"),
            rows: arithmetic,
        },
        ReportTable {
            id: "thall-table2-functions".into(),
            title: "Thall Table II: df64 functions, max and RMS error in ulp48".into(),
            sources: vec![paper_src, samples(r.functions.first().map_or(0, |f| f.samples))],
            notes: vec!["Thall's rows are exp, ln(1+x) (here log1p on [1, 2]), sin and cos; the rest are df64gl's additions.".into()],
            columns: cols(&["function", "range"], "ulp48"),
            rows: functions,
        },
        ReportTable {
            id: "qf128".into(),
            title: "qf128 (the new Table II rows): max and RMS error in ulp96".into(),
            sources: vec![samples(r.qf128.first().map_or(0, |q| q.samples))],
            notes: vec!["Thall describes qf128 (his Figs. 6 to 8) but publishes no error table for it; the target column is df64gl's specification.".into()],
            columns: vec![
                "op".into(),
                "range".into(),
                "target max, ulp96 [df64gl spec]".into(),
                format!("max, ulp96 [{dev}]"),
                format!("RMS, ulp96 [{dev}]"),
                format!("cost / f32 add [{dev}]"),
                format!("GPU vs CPU mirror [{dev}]"),
            ],
            rows: qf,
        },
    ]
}

fn warwick_table1(
    r: &AccuracyReport,
    dev: &str,
) -> Result<(ReportTable, Vec<(String, Canvas)>), ExperimentError> {
    let mut rows = Vec::new();
    let mut plots = Vec::new();
    for p in &r.warwick_paper.rows {
        let mut group = vec![vec![
            text(&p.op),
            text("Warwick 2020 (CUDA GPUs)"),
            num(p.mean),
            num(p.median),
            num(p.max),
            num(p.min),
            num(p.sd),
            num(1_024_000.0),
        ]];
        let variants = [
            (p.op.clone(), "df64 accurate"),
            (format!("{}_thall", p.op), "df64 Thall"),
        ];
        let mut series_data = Vec::new();
        for (name, label) in &variants {
            if let Some(w) = r.warwick.iter().find(|w| &w.op == name) {
                group.push(vec![
                    text(&p.op),
                    text(format!("{label} [{dev}]")),
                    num(w.mean),
                    num(w.median),
                    num(w.max),
                    num(w.min),
                    num(w.sd),
                    num(w.samples as f64),
                ]);
                let total = w.samples.max(1) as f64;
                series_data.push((
                    *label,
                    w.log2_histogram
                        .iter()
                        .map(|c| 100.0 * *c as f64 / total)
                        .collect::<Vec<f64>>(),
                ));
            }
        }
        rows.extend(group);
        if !series_data.is_empty() {
            let buckets = series_data.iter().map(|(_, v)| v.len()).max().unwrap_or(1);
            let padded: Vec<(&str, Vec<f64>)> = series_data
                .into_iter()
                .map(|(l, mut v)| {
                    v.resize(buckets, 0.0);
                    (l, v)
                })
                .collect();
            let title = format!("Warwick Fig.: ULP distance to FP64, df64 {} on {dev}", p.op);
            let chart = Chart {
                title: &title,
                x_label: "bucket k: ULP in [2^(k-1), 2^k), 0: exact",
                y_label: "% of inputs",
                x_range: (0.0, buckets as f64),
                y_range: (0.0, 100.0),
                y_step: 20.0,
                series: padded
                    .iter()
                    .zip([BLUE, ORANGE])
                    .map(|((l, v), c)| Series {
                        label: l,
                        color: c,
                        y: v,
                    })
                    .collect(),
            };
            plots.push((format!("warwick-ulp-{}.png", p.op), chart.render(720, 360)));
        }
    }
    Ok((
        ReportTable {
            id: "warwick-table1".into(),
            title: "Warwick Table 1: ULP distance of df64 results to FP64 (inputs uniform in [-1e6, 1e6])".into(),
            sources: vec![
                format!("{} ({})", r.warwick_paper.source, r.warwick_paper.device),
                format!("measured: df64gl on {dev}, control in f64 on the CPU"),
            ],
            notes: vec!["Histograms: warwick-ulp-<op>.png (log2 buckets, as his Figs. 1 to 4 show distributions).".into()],
            columns: vec![
                "op".into(),
                "source".into(),
                "mean".into(),
                "median".into(),
                "max".into(),
                "min".into(),
                "sd".into(),
                "samples".into(),
            ],
            rows,
        },
        plots,
    ))
}

fn dagraca_table5(r: &AccuracyReport, dev: &str) -> ReportTable {
    let rows = r
        .dagraca_table5
        .iter()
        .map(|m| {
            let paper = r
                .dagraca_paper
                .rows
                .iter()
                .find(|p| p.op == m.op)
                .map_or_else(
                    || text(NOT_IN_PAPER),
                    |p| opt_num(p.log2_max_rel_error, "exact"),
                );
            vec![
                text(&m.op),
                text(&m.routine),
                paper,
                opt_num(m.log2_max_rel_error, "exact"),
                num(m.samples as f64),
            ]
        })
        .collect();
    ReportTable {
        id: "dagraca-table5".into(),
        title: "Da Graca and Defour Table 5: log2 of the maximum relative error".into(),
        sources: vec![
            format!("{} ({})", r.dagraca_paper.source, r.dagraca_paper.device),
            format!("measured: df64gl on {dev}, against the oracle"),
        ],
        notes: vec!["Routines *_dagraca are their algorithms as published; add and mul are df64gl's accurate defaults measured on the same inputs.".into()],
        columns: vec![
            "op".into(),
            "routine".into(),
            "log2 max rel error [Da Graca 2006]".into(),
            format!("log2 max rel error [{dev}]"),
            "inputs".into(),
        ],
        rows,
    }
}

/// Da Graca and Defour's columns and the df64gl routines measured for them, plus df64gl's
/// own accurate add and mul.
const DAGRACA_OPS: [(&str, Df64Op); 9] = [
    ("Add", Df64Op::F32Add),
    ("Mul", Df64Op::F32Mul),
    ("Mad", Df64Op::F32Mad),
    ("Add12", Df64Op::TwoSum),
    ("Mul12", Df64Op::TwoProd),
    ("Add22", Df64Op::AddDagraca),
    ("Mul22", Df64Op::MulDagraca),
    ("df64gl add", Df64Op::Add),
    ("df64gl mul", Df64Op::Mul),
];
const DAGRACA_SIZES: [usize; 5] = [4096, 16384, 65536, 262144, 1048576];

/// Best time of `f` over the elements, `tries` times.
fn cpu_time(
    tries: usize,
    a: &[Df64],
    b: &[Df64],
    out: &mut [Df64],
    f: impl Fn(Df64, Df64) -> Df64,
) -> f64 {
    let mut best = f64::INFINITY;
    for _ in 0..tries.max(1) {
        let t = Instant::now();
        for ((o, x), y) in out.iter_mut().zip(a).zip(b) {
            *o = f(*x, *y);
        }
        std::hint::black_box(&mut *out);
        best = best.min(t.elapsed().as_secs_f64());
    }
    best
}

fn cpu_op_time(op: Df64Op, tries: usize, a: &[Df64], b: &[Df64], out: &mut [Df64]) -> f64 {
    // Each routine inlined into its own loop, as Da Graca and Defour's CPU code would be.
    match op {
        Df64Op::F32Add => cpu_time(tries, a, b, out, |x, y| Df64::new(x.hi + y.hi, 0.0)),
        Df64Op::F32Mul => cpu_time(tries, a, b, out, |x, y| Df64::new(x.hi * y.hi, 0.0)),
        Df64Op::F32Mad => cpu_time(tries, a, b, out, |x, y| Df64::new(x.hi * y.hi + x.lo, 0.0)),
        Df64Op::TwoSum => cpu_time(tries, a, b, out, |x, y| m::df64_two_sum(x.hi, y.hi)),
        Df64Op::TwoProd => cpu_time(tries, a, b, out, |x, y| m::df64_two_prod(x.hi, y.hi)),
        Df64Op::AddDagraca => cpu_time(tries, a, b, out, m::df64_add_dagraca),
        Df64Op::MulDagraca => cpu_time(tries, a, b, out, m::df64_mul_dagraca),
        Df64Op::Mul => cpu_time(tries, a, b, out, m::df64_mul),
        _ => cpu_time(tries, a, b, out, m::df64_add),
    }
}

fn dagraca_timings(
    kernels: &Df64Kernels,
    tries: usize,
    dev: &str,
    progress: &mut dyn FnMut(usize, usize, &str),
) -> Result<(ReportTable, ReportTable, Canvas), ExperimentError> {
    let total = DAGRACA_OPS.len() * 2;
    let mut gpu = vec![vec![0.0; DAGRACA_OPS.len()]; DAGRACA_SIZES.len()];
    let mut cpu = gpu.clone();
    let mut rng = ChaCha8Rng::seed_from_u64(2006);
    let n_max = DAGRACA_SIZES[DAGRACA_SIZES.len() - 1];
    let a: Vec<Df64> = (0..n_max)
        .map(|_| Df64::from_f64(rng.gen_range(-1.0..1.0)))
        .collect();
    let b: Vec<Df64> = (0..n_max)
        .map(|_| Df64::from_f64(rng.gen_range(-1.0..1.0)))
        .collect();
    let mut out = vec![Df64::new(0.0, 0.0); n_max];
    for (j, (name, op)) in DAGRACA_OPS.iter().enumerate() {
        progress(j, total, &format!("GPU {name}"));
        for (i, &n) in DAGRACA_SIZES.iter().enumerate() {
            // Two elements per RGBA32F texel; one pass applying the op once.
            gpu[i][j] = kernels
                .time_chain(*op, n / 2, 1, tries)?
                .best()
                .as_secs_f64();
        }
        progress(DAGRACA_OPS.len() + j, total, &format!("CPU {name}"));
        for (i, &n) in DAGRACA_SIZES.iter().enumerate() {
            cpu[i][j] = cpu_op_time(*op, tries, &a[..n], &b[..n], &mut out[..n]);
        }
    }
    let make =
        |id: &str, title: &str, paper: PaperTable, times: &[Vec<f64>], what: String, here: &str| {
            let unit = times[0][0];
            let mut columns = vec!["elements".to_string(), "source".to_string()];
            columns.extend(DAGRACA_OPS.iter().map(|(n, _)| n.to_string()));
            let mut rows = Vec::new();
            for (i, &n) in DAGRACA_SIZES.iter().enumerate() {
                let mut p = vec![
                    num(n as f64),
                    text(format!("Da Graca 2006 ({})", paper.device)),
                ];
                for (name, _) in DAGRACA_OPS.iter() {
                    let col = paper.columns.iter().position(|c| c == name);
                    let v = paper
                        .row(&n.to_string())
                        .zip(col)
                        .map(|(r, c)| json_cell(&r.values[c]));
                    p.push(v.unwrap_or_else(|| text(NOT_IN_PAPER)));
                }
                rows.push(p);
                let mut m = vec![num(n as f64), text(format!("measured [{here}]"))];
                m.extend(times[i].iter().map(|t| num(t / unit)));
                rows.push(m);
            }
            ReportTable {
                id: id.into(),
                title: title.into(),
                sources: vec![format!("{} ({})", paper.source, paper.device), what],
                notes: vec![format!(
                    "Normalised to the f32 Add on 4096 elements of the same table ({:.3} us here).",
                    unit * 1e6
                )],
                columns,
                rows,
            }
        };
    let t3 = make(
        "dagraca-table3",
        "Da Graca and Defour Table 3: GPU time per pass, normalised to the f32 Add on 4096 elements",
        paper_table("dagraca-table3.json")?,
        &gpu,
        format!("measured: one full-screen pass over the elements (two per RGBA32F texel) on {dev}, GL_TIME_ELAPSED where it measures draws, else wall-clock time between glFinish calls (llvmpipe), best of {tries}"),
        dev,
    );
    let t4 = make(
        "dagraca-table4",
        "Da Graca and Defour Table 4: CPU time (the Rust mirrors), normalised to the f32 Add on 4096 elements",
        paper_table("dagraca-table4.json")?,
        &cpu,
        format!("measured: the CPU mirrors in one loop per routine, one thread of this machine's CPU, best of {tries}"),
        "host CPU, Rust mirror",
    );
    progress(total, total, "done");
    let series: Vec<Vec<f64>> = (0..7)
        .map(|j| {
            DAGRACA_SIZES
                .iter()
                .enumerate()
                .map(|(i, _)| (gpu[i][j] / gpu[0][0]).log10())
                .collect()
        })
        .collect();
    // Seven distinct colours, one per column of the table (the plot module has four).
    let colors = [
        BLUE,
        GREEN,
        ORANGE,
        RED,
        [148, 103, 189],
        [140, 86, 75],
        [227, 119, 194],
    ];
    let title = format!("Da Graca Table 3 on {dev}: log10 GPU time / f32 Add at 4096");
    let ymax = series
        .iter()
        .flatten()
        .fold(1.0f64, |a, b| a.max(*b))
        .ceil();
    let chart = Chart {
        title: &title,
        x_label: "log4(elements / 4096)",
        y_label: "log10 time",
        x_range: (0.0, 4.0),
        y_range: (-1.0, ymax),
        y_step: 1.0,
        series: DAGRACA_OPS[..7]
            .iter()
            .zip(&series)
            .zip(colors)
            .map(|(((name, _), y), c)| Series {
                label: name,
                color: c,
                y,
            })
            .collect(),
    };
    Ok((t3, t4, chart.render(720, 400)))
}

fn warwick_table2(ops: &OpBenchReport, dev: &str) -> Result<ReportTable, ExperimentError> {
    let paper = paper_table("warwick-table2.json")?;
    let mut rows: Vec<Vec<Cell>> = paper
        .rows
        .iter()
        .map(|r| {
            let mut row = vec![text(format!("{} [Warwick 2020]", r.label))];
            row.extend(r.values.iter().map(json_cell));
            row
        })
        .collect();
    let get = |name: &str| ops.rows.iter().find(|r| r.op == name);
    let slug = get(F64Op::Add.name())
        .and_then(|r| r.vs_f32_add)
        .map_or_else(|| text("no double here"), num);
    for (label, names) in [
        ("df64 accurate", ["add", "sub", "mul", "div"]),
        (
            "df64 Thall",
            ["add_thall", "sub_thall", "mul_thall", "div_thall"],
        ),
    ] {
        let mut row = vec![text(format!("{label} [{dev}]"))];
        for n in names {
            row.push(
                get(n)
                    .and_then(|r| r.speedup_over_f64)
                    .map_or_else(|| text("no double here"), num),
            );
        }
        row.push(slug.clone());
        rows.push(row);
    }
    let mut columns = vec!["GPU / variant".to_string()];
    columns.extend(paper.columns.iter().cloned());
    Ok(ReportTable {
        id: "warwick-table2".into(),
        title: "Warwick Table 2: speed-up of df64 over native double (double time / df64 time)".into(),
        sources: vec![
            format!("{} ({})", paper.source, paper.device),
            format!("measured: GLSL double against df64 on {dev}, {}", ops.method),
        ],
        notes: vec!["Slug factor: Warwick quotes each GPU's specification; here it is measured, double add time over f32 add time.".into()],
        columns,
        rows,
    })
}

/// One variant of the Leibniz series on the GPU.
#[derive(Debug, Clone, Serialize)]
pub struct LeibnizRow {
    pub variant: &'static str,
    /// The GPU result as an f64 (exact for f32, df64 and double).
    pub value: f64,
    /// GPU seconds of one pass over all lanes.
    pub seconds: f64,
    pub lanes: usize,
    /// ULP distance (of f64) to the GPU's native double result (Warwick's measure).
    pub ulp_vs_f64: Option<u64>,
    /// |value - exact partial sum| in ulps of f64 at the exact value.
    pub f64_ulps_vs_exact: f64,
    /// Equal bit for bit to the CPU computation of the same algorithm (f32 is not checked:
    /// GLSL's f32 division need not be correctly rounded).
    pub matches_cpu: Option<bool>,
}

/// The df64 partial sum of `glsl/leibniz.glsl` (before the exact times 4), with the accurate
/// routines or Thall's, as the shader sums it.
fn leibniz_mirror(terms: i32, thall: bool) -> Df64 {
    let one = Df64::new(1.0, 0.0);
    let mut acc = Df64::new(0.0, 0.0);
    for k in 0..terms {
        let d = Df64::new((2 * k + 1) as f32, 0.0);
        acc = match (k % 2 == 0, thall) {
            (true, false) => m::df64_add(acc, m::df64_div(one, d)),
            (false, false) => m::df64_sub(acc, m::df64_div(one, d)),
            (true, true) => m::df64_add_thall(acc, m::df64_div_thall(one, d)),
            (false, true) => m::df64_sub_thall(acc, m::df64_div_thall(one, d)),
        };
    }
    acc
}

/// Builds (and self-tests) the df64 Leibniz programs (`df64gl selftest`).
pub fn prepare_leibniz(kernels: &Df64Kernels) -> Result<(), KernelError> {
    proven_leibniz(kernels, "df64", "LEIBNIZ_DF64", false)?;
    proven_leibniz(kernels, "df64 Thall", "LEIBNIZ_THALL", true)?;
    Ok(())
}

/// A df64 Leibniz program, built once its self-test passed.
fn proven_leibniz(
    kernels: &Df64Kernels,
    name: &str,
    define: &str,
    thall: bool,
) -> Result<Program, KernelError> {
    let label = format!("leibniz.glsl ({name})");
    kernels.build_program_proven("leibniz.glsl", &[(define, "1")], &label, |p| {
        leibniz_self_test(kernels, p, thall, &label)
    })
}

/// Known-answer test of a df64 Leibniz program: 1,001 terms on a 4 x 4 target, every lane
/// against [`leibniz_mirror`] (times 4, exact) bit for bit.
fn leibniz_self_test(
    kernels: &Df64Kernels,
    program: &Program,
    thall: bool,
    label: &str,
) -> Result<Outcome, KernelError> {
    const TERMS: i32 = 1001;
    let ctx = kernels.context();
    let tex = Texture::new(ctx, 4, 4)?;
    let fb = Framebuffer::new(ctx, &[&tex])?;
    Pass::new(program)
        .uniform("u_terms", Uniform::I32(TERMS))
        .run(ctx, &fb)?;
    let got: Vec<[f32; 4]> = fb.read(ctx, 0)?;
    let acc = kernels.mirror_map(1, |_| leibniz_mirror(TERMS, thall))[0];
    let want = vec![[4.0 * acc.hi, 4.0 * acc.lo, 0.0, 0.0]; got.len()];
    Ok(kernels.proof().compare(
        label,
        &got,
        &want,
        |w| w.to_vec(),
        |i| format!("lane {i}, the series to {TERMS} terms"),
    ))
}

pub fn run_leibniz(
    kernels: &Df64Kernels,
    side: u32,
    terms: i32,
    progress: &mut dyn FnMut(usize, usize, &str),
) -> Result<Vec<LeibnizRow>, ExperimentError> {
    let ctx = kernels.context();
    let ext = kernels.double_support();
    let variants: [(&str, &str); 4] = [
        ("f32", "LEIBNIZ_F32"),
        ("df64", "LEIBNIZ_DF64"),
        ("df64 Thall", "LEIBNIZ_THALL"),
        ("f64", "LEIBNIZ_F64"),
    ];
    // The exact partial sum and the CPU versions of each algorithm, summed in the same order.
    let (mut exact, mut f64_sum) = (Dd::from_f64(0.0), 0.0f64);
    for k in 0..terms {
        let d = (2 * k + 1) as f64;
        let term = Dd::from_f64(1.0) / Dd::from_f64(d);
        if k % 2 == 0 {
            exact = exact + term;
            f64_sum += 1.0 / d;
        } else {
            exact = exact - term;
            f64_sum -= 1.0 / d;
        }
    }
    let acc = leibniz_mirror(terms, false);
    let acc_thall = leibniz_mirror(terms, true);
    let exact = exact * Dd::from_f64(4.0);
    let cpu = |v: &str| match v {
        "df64" => Some(4.0 * acc.to_f64()),
        "df64 Thall" => Some(4.0 * acc_thall.to_f64()),
        "f64" => Some(4.0 * f64_sum),
        _ => None,
    };
    let tex = Texture::new(ctx, side, side)?;
    let fb = Framebuffer::new(ctx, &[&tex])?;
    let mut rows: Vec<LeibnizRow> = Vec::new();
    for (i, (name, define)) in variants.iter().enumerate() {
        progress(i, variants.len(), name);
        let mut defines = vec![(*define, "1")];
        if *name == "f64" {
            match &ext {
                Ok(true) => defines.push(("LEIBNIZ_FP64_EXTENSION", "1")),
                Ok(false) => {}
                Err(e) => {
                    return Err(ExperimentError::Invalid(format!(
                        "Warwick's Leibniz test needs double in shaders: {e}"
                    )))
                }
            }
        }
        let program = match *name {
            "df64" | "df64 Thall" => proven_leibniz(kernels, name, define, *name == "df64 Thall")?,
            _ => kernels.build_program("leibniz.glsl", &defines)?,
        };
        let pass = Pass::new(&program).uniform("u_terms", Uniform::I32(terms));
        pass.run(ctx, &fb)?;
        let mut best = f64::INFINITY;
        for _ in 0..3 {
            let ((), t) = timed::<_, ExperimentError>(ctx, || Ok(pass.run(ctx, &fb)?))?;
            best = best.min(t.best().as_secs_f64());
        }
        let texels: Vec<[f32; 4]> = fb.read(ctx, 0)?;
        let w = texels[0];
        if texels
            .iter()
            .any(|t| t.map(f32::to_bits) != w.map(f32::to_bits))
        {
            return Err(ExperimentError::Invalid(format!(
                "Leibniz {name}: lanes disagree on the same series; the driver is not deterministic"
            )));
        }
        let value = w[0] as f64 + w[1] as f64 + w[2] as f64;
        let err = (Dd::from_f64(value) - exact).to_f64().abs();
        rows.push(LeibnizRow {
            variant: name,
            value,
            seconds: best,
            lanes: (side * side) as usize,
            ulp_vs_f64: None,
            f64_ulps_vs_exact: err / ulp_bits(exact.to_f64(), 52),
            matches_cpu: cpu(name).map(|c| c.to_bits() == value.to_bits()),
        });
    }
    progress(variants.len(), variants.len(), "done");
    if let Some(d) = rows.iter().find(|r| r.variant == "f64").map(|r| r.value) {
        for r in &mut rows {
            r.ulp_vs_f64 = Some(ulp_distance_f64(r.value, d));
        }
    }
    Ok(rows)
}

fn warwick_tables34(rows: &[LeibnizRow], dev: &str) -> Result<Vec<ReportTable>, ExperimentError> {
    let t3p = paper_table("warwick-table3.json")?;
    let t4p = paper_table("warwick-table4.json")?;
    let time = |v: &str| rows.iter().find(|r| r.variant == v).map(|r| r.seconds);
    let (f32t, f64t) = (time("f32"), time("f64"));
    let paper_rows = |p: &PaperTable| -> Vec<Vec<Cell>> {
        p.rows
            .iter()
            .map(|r| {
                let mut row = vec![text(format!("{} [Warwick 2020]", r.label))];
                row.extend(r.values.iter().map(json_cell));
                row
            })
            .collect()
    };
    let mut t3 = paper_rows(&t3p);
    let mut t4 = paper_rows(&t4p);
    for v in ["df64", "df64 Thall"] {
        let Some(r) = rows.iter().find(|r| r.variant == v) else {
            continue;
        };
        t3.push(vec![
            text(format!("{v} [{dev}]")),
            opt_num(f64t.map(|d| d / r.seconds), "no double here"),
            opt_num(r.ulp_vs_f64.map(|u| u as f64), "no double here"),
        ]);
        t4.push(vec![
            text(format!("{v} [{dev}]")),
            opt_num(f32t.map(|f| r.seconds / f), "no f32 time"),
            opt_num(f64t.zip(f32t).map(|(d, f)| d / f), "no double here"),
        ]);
    }
    let lanes = rows.first().map_or(0, |r| r.lanes);
    let method = format!("measured: one pass on {dev} in which each of {lanes} fragments sums the 2000-term series (Warwick: one CUDA thread, 100,000 repetitions), GPU time best of 3");
    let detail = rows
        .iter()
        .map(|r| {
            vec![
                text(r.variant),
                text(format!("{:.17}", r.value)),
                num(r.f64_ulps_vs_exact),
                opt_num(r.ulp_vs_f64.map(|u| u as f64), "no double here"),
                num(r.seconds * 1e3),
                r.matches_cpu.map_or_else(
                    || text("not checked"),
                    |m| text(if m { "equal" } else { "differs" }),
                ),
            ]
        })
        .collect();
    let mut c3 = vec!["GPU / variant".to_string()];
    c3.extend(t3p.columns.iter().cloned());
    let mut c4 = vec!["GPU / variant".to_string()];
    c4.extend(t4p.columns.iter().cloned());
    Ok(vec![
        ReportTable {
            id: "warwick-table3".into(),
            title: "Warwick Table 3: pi by Leibniz (2000 terms), speed-up of df64 over double and ULP error against double".into(),
            sources: vec![format!("{} ({})", t3p.source, t3p.device), method.clone()],
            notes: vec![],
            columns: c3,
            rows: t3,
        },
        ReportTable {
            id: "warwick-table4".into(),
            title: "Warwick Table 4: effective slug factor of the pi calculation (time over the f32 time)".into(),
            sources: vec![format!("{} ({})", t4p.source, t4p.device), method.clone()],
            notes: vec!["Warwick's FP64 column is the specified slug factor; here the double column is measured (double time over f32 time).".into()],
            columns: c4,
            rows: t4,
        },
        ReportTable {
            id: "leibniz".into(),
            title: "Leibniz pi (2000 terms) on this driver, each precision".into(),
            sources: vec![method],
            notes: vec!["The exact partial sum is computed in double-double on the CPU; 'CPU' is the same algorithm in the same order on the host.".into()],
            columns: vec![
                "variant".into(),
                format!("4 x sum [{dev}]"),
                "error, f64 ulps vs exact partial sum".into(),
                "ULP distance to GPU double".into(),
                format!("ms per pass [{dev}]"),
                "GPU vs CPU".into(),
            ],
            rows: detail,
        },
    ])
}

fn thall_fft(
    kernels: &Df64Kernels,
    s: &Sizes,
    seed: u64,
    dev: &str,
    progress: &mut dyn FnMut(usize, usize, &str),
) -> Result<(ReportTable, Canvas), ExperimentError> {
    let paper = paper_table("thall-fft.json")?;
    let ms: Vec<u32> = s.fft_log2.clone().collect();
    let mut rows = Vec::new();
    let (mut rmse_table, mut rmse_direct) = (Vec::new(), Vec::new());
    for (i, &m) in ms.iter().enumerate() {
        progress(i, ms.len(), &format!("N = 2^{m}"));
        let n = 1usize << m;
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ (m as u64) << 32);
        let signal: Vec<Complex64> = (0..n)
            .map(|_| Complex64::new(rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0)))
            .collect();
        let signal = crate::fft::BlockScaled::from_f64(&signal)?;
        let study =
            |radix: Radix, twiddles: TwiddleSource| -> Result<PrecisionRow, ExperimentError> {
                let options = FftStudyOptions {
                    precisions: vec![FftPrecision::Df64],
                    radix,
                    twiddles,
                    repeats: s.fft_repeats,
                    ..FftStudyOptions::default()
                };
                let st = run_fft_study(
                    kernels,
                    &signal,
                    "uniform random complex",
                    &options,
                    &mut |_| {},
                )?;
                st.report
                    .rows
                    .into_iter()
                    .next()
                    .ok_or_else(|| ExperimentError::Invalid("FFT study returned no row".into()))
            };
        let table = study(Radix::Two, TwiddleSource::Table)?;
        let direct = study(Radix::Two, TwiddleSource::Direct)?;
        let r4 = study(Radix::Four, TwiddleSource::Table)?;
        rmse_table.push(table.round_trip.rmse_magnitude.log10());
        rmse_direct.push(direct.round_trip.rmse_magnitude.log10());
        rows.push(vec![
            num(m as f64),
            num(n as f64),
            num(table.round_trip.rmse_magnitude),
            num(table.round_trip.rmse_phase),
            num(table.round_trip.peak_snr_db),
            num(table.gflops),
            num(direct.round_trip.rmse_magnitude),
            num(direct.round_trip.rmse_phase),
            num(direct.round_trip.peak_snr_db),
            num(direct.gflops),
            num(r4.gflops),
            num(table.rel_l2),
        ]);
    }
    progress(ms.len(), ms.len(), "done");
    let title = format!("Thall FFT on {dev}: log10 RMSE of |x'| - |x| (round trip), df64 radix 2");
    let chart = Chart {
        title: &title,
        x_label: "m = log2 N",
        y_label: "log10 RMSE",
        x_range: (
            *ms.first().unwrap_or(&0) as f64,
            *ms.last().unwrap_or(&0) as f64 + 1.0,
        ),
        y_range: (-17.0, -12.0),
        y_step: 1.0,
        series: vec![
            Series {
                label: "W_long table",
                color: BLUE,
                y: &rmse_table,
            },
            Series {
                label: "df64 sincos in shader",
                color: RED,
                y: &rmse_direct,
            },
        ],
    };
    let col = |what: &str, tw: &str| format!("{what}, {tw} [{dev}]");
    Ok((
        ReportTable {
            id: "thall-fft".into(),
            title: "Thall's FFT study: df64 transposed Stockham, round-trip accuracy and GFLOP/s, precomputed vs in-shader twiddles".into(),
            sources: vec![
                format!("{} ({})", paper.source, paper.device),
                format!("measured: df64gl on {dev}, uniform random complex input in [-1, 1]^2, best of {} forward transforms", s.fft_repeats),
            ],
            notes: paper.note.clone().into_iter().chain([
                "Radix 2 is the paper's Algorithm 10; the radix-4 column is df64gl's default engine. GFLOP/s = 5 N log2 N / time. rel L2: forward transform against rustfft in f64.".to_string(),
            ]).collect(),
            columns: vec![
                "m".into(),
                "N".into(),
                col("RMSE |x|", "table"),
                col("RMSE phase", "table"),
                col("peak S/N dB", "table"),
                col("GFLOP/s", "table"),
                col("RMSE |x|", "direct"),
                col("RMSE phase", "direct"),
                col("peak S/N dB", "direct"),
                col("GFLOP/s", "direct"),
                col("GFLOP/s radix 4", "table"),
                col("rel L2 vs rustfft", "table"),
            ],
            rows,
        },
        chart.render(720, 400),
    ))
}

fn cell_md(c: &Cell) -> String {
    match c {
        Cell::Text(s) => s.replace('|', "\\|"),
        Cell::Num(x) => {
            let a = x.abs();
            if *x == x.trunc() && a < 1e9 {
                format!("{x:.0}")
            } else if a != 0.0 && !(1e-3..1e6).contains(&a) {
                format!("{x:.3e}")
            } else if a >= 100.0 {
                format!("{x:.1}")
            } else {
                format!("{x:.4}")
                    .trim_end_matches('0')
                    .trim_end_matches('.')
                    .to_string()
            }
        }
    }
}

impl ReproReport {
    pub fn markdown(&self) -> String {
        let mut s = format!(
            "# df64gl: the papers' experiments on {}\n\nDriver: {} / {} / OpenGL {} / GLSL {}. \
             Run: {} mode, seed {}, {:.0} s. Columns say where each value comes from: \
             [paper] for published values, [{}] for this run.\n",
            self.device,
            self.driver.vendor,
            self.driver.renderer,
            self.driver.version,
            self.driver.glsl_version,
            if self.quick { "quick" } else { "full" },
            self.seed,
            self.seconds,
            self.device
        );
        for t in &self.tables {
            s.push_str(&format!("\n## {}\n\n", t.title));
            for src in &t.sources {
                s.push_str(&format!("- {src}\n"));
            }
            for n in &t.notes {
                s.push_str(&format!("- {n}\n"));
            }
            s.push('\n');
            s.push_str(&format!("| {} |\n", t.columns.join(" | ")));
            s.push_str(&format!("|{}\n", " --- |".repeat(t.columns.len())));
            for r in &t.rows {
                let cells: Vec<String> = r.iter().map(cell_md).collect();
                s.push_str(&format!("| {} |\n", cells.join(" | ")));
            }
        }
        if !self.plots.is_empty() {
            s.push_str("\n## Plots\n\n");
            for p in &self.plots {
                s.push_str(&format!("![{p}]({p})\n"));
            }
        }
        s
    }

    /// Writes REPORT.md, report.json and the plots into `out` (created if missing).
    pub fn write(&self, out: &Path, plots: &[(String, Canvas)]) -> Result<(), ExperimentError> {
        std::fs::create_dir_all(out)
            .map_err(|e| ExperimentError::Io(out.display().to_string(), e))?;
        let md = out.join("REPORT.md");
        std::fs::write(&md, self.markdown())
            .map_err(|e| ExperimentError::Io(md.display().to_string(), e))?;
        let json = out.join("report.json");
        let text = serde_json::to_string_pretty(self)
            .map_err(|e| ExperimentError::Invalid(format!("report JSON: {e}")))?;
        std::fs::write(&json, text)
            .map_err(|e| ExperimentError::Io(json.display().to_string(), e))?;
        for (name, canvas) in plots {
            canvas.write_png(&out.join(name))?;
        }
        Ok(())
    }
}

/// Cells that are empty or say nothing was measured, as (table, row, column) labels: what
/// the tests require to be none.
pub fn missing_cells(report: &ReproReport) -> Vec<String> {
    let mut missing = Vec::new();
    for t in &report.tables {
        if t.rows.is_empty() {
            missing.push(format!("{}: no rows", t.id));
        }
        for (i, r) in t.rows.iter().enumerate() {
            if r.len() != t.columns.len() {
                missing.push(format!(
                    "{} row {i}: {} cells for {} columns",
                    t.id,
                    r.len(),
                    t.columns.len()
                ));
            }
            for (j, c) in r.iter().enumerate() {
                let empty = match c {
                    Cell::Text(s) => s.is_empty() || s == "not measured" || s.starts_with("no "),
                    Cell::Num(x) => !x.is_finite(),
                };
                if empty {
                    missing.push(format!(
                        "{} row {i} column {}",
                        t.id,
                        t.columns.get(j).map_or("?", |c| c)
                    ));
                }
            }
        }
    }
    missing
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn device_names_shorten_for_column_labels() {
        let mut info = GlInfo {
            device: String::new(),
            vendor: String::new(),
            renderer: "llvmpipe (LLVM 15.0.6, 256 bits)".into(),
            version: String::new(),
            glsl_version: String::new(),
            major: 4,
            minor: 5,
            glsl_number: 450,
            max_texture_size: 16384,
            max_color_attachments: 8,
            max_array_texture_layers: 2048,
            max_draw_buffers: 8,
            gpu_shader_fp64: true,
            gpu_shader5: true,
            timer_query: true,
            extensions_of_interest: vec![],
        };
        assert_eq!(short_device(&info), "llvmpipe");
        info.renderer = "NVIDIA H100 80GB HBM3/PCIe/SSE2".into();
        assert_eq!(short_device(&info), "NVIDIA H100 80GB HBM3");
    }

    #[test]
    fn markdown_numbers_read_well() {
        assert_eq!(cell_md(&num(4096.0)), "4096");
        assert_eq!(cell_md(&num(0.25)), "0.25");
        assert_eq!(cell_md(&num(2.81e-15)), "2.810e-15");
        assert_eq!(cell_md(&num(123.456)), "123.5");
        assert_eq!(cell_md(&text("a|b")), "a\\|b");
    }

    #[test]
    fn an_existing_report_folder_needs_force() {
        let dir = std::env::temp_dir().join(format!("df64gl-repro-exists-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let err = check_out_dir(&dir, false).unwrap_err().to_string();
        assert!(err.contains("--force"), "{err}");
        check_out_dir(&dir, true).unwrap();
        check_out_dir(&dir.join("new"), false).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
