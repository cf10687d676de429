//! `df64gl repro`: every paper experiment on this driver, written as a report folder
//! (REPORT.md, report.json, PNG plots) with each paper's published values (from `assets/`)
//! beside the values measured here, every column labelled with its source and device.
//!
//! One file per paper, as each builds its tables: `thall.rs` (Tables I, II and the FFT study),
//! `dagraca.rs` (Tables 3 to 5), `warwick.rs` (Tables 1 to 4); this file holds the report types,
//! the sizes of a full and a quick run, and the run itself.

mod dagraca;
mod thall;
mod warwick;

use dagraca::{dagraca_table5, dagraca_timings};
use thall::{thall_fft, thall_table1, thall_table2};
pub use warwick::{prepare_leibniz, run_leibniz, LeibnizRow};
use warwick::{warwick_table1, warwick_table2, warwick_tables34};

use std::path::{Path, PathBuf};
use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rustfft::num_complex::Complex64;
use serde::Serialize;

use super::accuracy::{run_accuracy, AccuracyOptions, AccuracyReport};
use super::bench::ops::{run_op_bench, OpBenchOptions, OpBenchReport};
use super::fft_demo::{run_fft_study, FftStudyOptions, PrecisionRow};
use crate::error::{ExperimentError, Session};
use crate::support::paper::{paper_table, PaperTable};
use crate::support::plot::{Canvas, Chart, Series, BLUE, GREEN, ORANGE, RED};
use df64gl::fft::{FftPrecision, Radix, TwiddleSource};
use df64gl::gl::{timed, Framebuffer, GlInfo, Pass, Program, Texture, Uniform};
use df64gl::kernels::proof::Outcome;
use df64gl::kernels::{Df64Kernels, Df64Op, F64Op, KernelError};
use df64gl::numeric::df64::{self as m, Df64};
use df64gl::numeric::reference::{ulp_bits, ulp_distance_f64, Dd};
use df64gl::probe::{run_probe, ProbeReport, DEFAULT_SAMPLES};

/// Where `repro` writes its report and how much it runs.
#[derive(Debug, Clone)]
pub struct ReproOptions {
    /// The report folder.
    pub out: PathBuf,
    /// Smaller samples and sizes: under two minutes on llvmpipe.
    pub quick: bool,
    /// Overwrite the files of an existing report folder.
    pub force: bool,
    /// Seed of the random inputs (the same seed gives the same inputs).
    pub seed: u64,
}

pub use crate::support::table::{num, text, Cell, ReportTable};

fn json_cell(v: &serde_json::Value) -> Cell {
    match v {
        serde_json::Value::Number(n) => n.as_f64().map_or_else(|| text(n.to_string()), num),
        serde_json::Value::String(s) => text(s.clone()),
        serde_json::Value::Null => text("exact"),
        other => text(other.to_string()),
    }
}

const NOT_IN_PAPER: &str = "not in paper";

/// The report of `repro`: every table and plot.
#[derive(Debug, Clone, Serialize)]
pub struct ReproReport {
    /// Short device name used in column labels, and the full driver description.
    pub device: String,
    /// The driver it ran on.
    pub driver: GlInfo,
    /// A quick run (smaller samples and sizes).
    pub quick: bool,
    /// Seed of the random inputs (the same seed gives the same inputs).
    pub seed: u64,
    /// Seconds the run took.
    pub seconds: f64,
    /// The tables, in report order.
    pub tables: Vec<ReportTable>,
    /// The PNG files written.
    pub plots: Vec<String>,
}

impl ReproReport {
    /// The table with this id.
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
                qf128_exponent_samples: 1 << 10,
                dagraca_samples: 1 << 16,
                // Not papers' tables: `df64gl accuracy` has the vector and qf128 class sweeps.
                vector_samples: 0,
                qf128_class_samples: 0,
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
                vector_samples: 0,
                qf128_class_samples: 0,
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

impl ReproReport {
    /// REPORT.md: the driver, then every table and plot.
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
            s.push_str(&t.markdown());
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
