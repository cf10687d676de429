//! The FFT study behind `fft-demo`: one signal through the GPU transform in f32, df64 and qf128,
//! each timed and measured against a host reference the way Thall's section III.D describes
//! (relative L2 error, round-trip RMSE of magnitude and phase, peak S/N, 5 N log2 N GFLOP/s).

use std::time::{Duration, Instant};

use rustfft::num_complex::Complex64;
use serde::Serialize;

use df64gl::fft::reference::{dft_dd, rel_l2, round_trip, rustfft_f64, words_dd, Cdd, RoundTrip};
use df64gl::fft::scale::ldexp;
use df64gl::fft::{
    gflops, BlockScaled, Direction, FftError, FftOptions, FftPlan, FftPlanner, FftPrecision,
    FftShape, GpuFft, QfWrite, Radix, TwiddleSource, Underflow,
};
use df64gl::kernels::Df64Kernels;
use df64gl::numeric::df64::ComplexDf64;
use df64gl::numeric::qf128::{ComplexQf128, Qf128};
use df64gl::numeric::Dd;

use crate::error::ExperimentError;
use crate::support::plot::{Canvas, Chart, Series, BLUE, GREEN, ORANGE, PURPLE, RED};

/// What Thall's FFT study runs: precisions, radix, twiddles, direction.
#[derive(Debug, Clone)]
pub struct FftStudyOptions {
    /// The precisions compared.
    pub precisions: Vec<FftPrecision>,
    /// The radix.
    pub radix: Radix,
    /// Where the twiddles come from.
    pub twiddles: TwiddleSource,
    /// How qf128 results are written.
    pub qf_write: QfWrite,
    /// Forward or inverse.
    pub direction: Direction,
    /// Timed repetitions (the best is reported).
    pub repeats: usize,
    /// Block floating point in the plans (see `fft::scale`); off only to test the NaN guard.
    pub block_scaling: bool,
}

impl Default for FftStudyOptions {
    fn default() -> Self {
        FftStudyOptions {
            precisions: vec![FftPrecision::F32, FftPrecision::Df64, FftPrecision::Qf128],
            radix: Radix::Four,
            twiddles: TwiddleSource::Table,
            qf_write: QfWrite::Mrt,
            direction: Direction::Forward,
            repeats: 3,
            block_scaling: true,
        }
    }
}

/// One precision's measurements.
#[derive(Debug, Clone, Serialize)]
pub struct PrecisionRow {
    /// The precision.
    pub precision: FftPrecision,
    /// Full-screen passes per transform.
    pub passes: usize,
    /// Plan time: textures, twiddles, shader compilation.
    pub plan_seconds: f64,
    /// Best time of one transform on the GPU (GL_TIME_ELAPSED where it measures draws, else
    /// wall-clock time between glFinish calls).
    pub seconds: f64,
    /// 5 N log2 N over `seconds`, in GFLOP/s.
    pub gflops: f64,
    /// ||X - X_ref|| / ||X_ref|| for the transform of the values as uploaded.
    pub rel_l2: f64,
    /// What the error is measured against.
    pub reference: &'static str,
    /// x' = F^-1(F(x)) (the other way round for `--inverse`) against x.
    pub round_trip: RoundTrip,
}

/// The study: one row per precision.
#[derive(Debug, Clone, Serialize)]
pub struct FftStudyReport {
    /// The device it ran on (short renderer name).
    pub device: String,
    /// Points.
    pub n: usize,
    /// The input signal.
    pub input: String,
    /// "forward" or "inverse".
    pub direction: &'static str,
    /// The radix.
    pub radix: Radix,
    /// Where the twiddles come from.
    pub twiddles: TwiddleSource,
    /// How qf128 results are written.
    pub qf_write: QfWrite,
    /// One row per precision.
    pub rows: Vec<PrecisionRow>,
    /// rustfft in f64 on the host, best of the same repetitions, planned once (the time of the
    /// transform alone, as the GPU rows time the passes alone).
    pub rustfft_seconds: f64,
    /// The input is `words * 2^block_exponent` on the GPU (block floating point).
    pub block_exponent: i32,
    /// Input parts too small next to the largest to be held.
    pub underflow: Underflow,
}

/// The report plus the spectra, for plots and output files.
pub struct FftStudy {
    /// The measurements.
    pub report: FftStudyReport,
    /// Each precision's transform, to its full precision and in the signal's units.
    pub outputs: Vec<(FftPrecision, BlockScaled)>,
    /// Each precision's transform of the signal, in the units of its block scale (for plots).
    pub spectra: Vec<(FftPrecision, Vec<Complex64>)>,
    /// Each precision's `|X[k] - reference[k]|`, taken in double-double.
    pub errors: Vec<(FftPrecision, Vec<f64>)>,
    /// The most accurate reference computed (double-double when qf128 ran, else rustfft).
    pub reference: Vec<Complex64>,
}

fn opposite(d: Direction) -> Direction {
    match d {
        Direction::Forward => Direction::Inverse,
        Direction::Inverse => Direction::Forward,
    }
}

fn to_c64(v: &[Cdd]) -> Vec<Complex64> {
    v.iter().map(|c| c.to_c64()).collect()
}

/// The signal as one precision holds it: f32 plans the nearest f32 words, df64 the nearest
/// df64, qf128 the words as given (with the same block exponent).
fn held_by(signal: &BlockScaled, precision: FftPrecision) -> BlockScaled {
    let words = signal
        .words
        .iter()
        .map(|c| {
            let round = |q: Qf128| match precision {
                FftPrecision::Qf128 => q,
                FftPrecision::Df64 => Qf128::from_df64(q.to_df64()),
                FftPrecision::F32 => Qf128::from_f32(q.to_df64().hi),
                FftPrecision::F64 => {
                    df64gl::fft::scale::split_f64(df64gl::fft::scale::qf_to_f64(q))
                }
            };
            ComplexQf128::new(round(c.re), round(c.im))
        })
        .collect();
    BlockScaled {
        words,
        exponent: signal.exponent,
        underflow: signal.underflow,
    }
}

/// The plan's data in double-double, in the units of the input's block scale; a NaN or
/// infinity is located pass by pass (`held` re-uploaded) so the error names the pass.
fn gpu_result(
    plan: &mut FftPlan,
    held: &BlockScaled,
    steps: &[Direction],
) -> Result<(Vec<Cdd>, BlockScaled), FftError> {
    match plan.download_scaled() {
        Ok(out) => Ok((words_dd(&out.words, out.exponent - held.exponent), out)),
        Err(e @ FftError::NonFiniteResult { .. }) => {
            plan.upload_scaled(held)?;
            for d in steps {
                plan.execute_checked(*d)?;
            }
            Err(e)
        }
        Err(e) => Err(e),
    }
}

/// Host bytes the study holds per point at its peak: the signal and its exact copy, each
/// precision's output, round trip and reference, and rustfft's buffers. Peak resident memory
/// measured on llvmpipe between 2^18 and 2^20 points (textures included, which the plan's own
/// check also counts): 414 bytes a point for f32 or df64 alone, 512 for qf128, 638 for all
/// four precisions; rounded up here.
pub fn study_host_bytes(n: usize, precisions: usize) -> u128 {
    n as u128 * (512 + 64 * precisions as u128)
}

/// Runs the study on `signal` (any length: Bluestein where it is not a power of two). Every measure is taken in the units of
/// the signal's block scale (the relative ones do not depend on it); the round-trip RMSE is
/// scaled back to the signal's units.
pub fn run_fft_study(
    kernels: &Df64Kernels,
    signal: &BlockScaled,
    input: &str,
    options: &FftStudyOptions,
    progress: &mut dyn FnMut(&str),
) -> Result<FftStudy, ExperimentError> {
    let n = signal.len();
    let dir = options.direction;
    let repeats = options.repeats.max(1);
    let mut rows = Vec::new();
    let mut spectra = Vec::new();
    let mut errors = Vec::new();
    let mut reference_out: Option<Vec<Complex64>> = None;
    let mut outputs = Vec::new();
    let planner = FftPlanner::new(kernels);
    for &precision in &options.precisions {
        progress(&format!("{} plan", precision.name()));
        // The planner settles what this precision runs (qf128 at radix 8 runs radix 4, native
        // double reads the twiddle table).
        let preferred = FftOptions::new(precision)
            .radix(options.radix)
            .twiddles(options.twiddles)
            .qf_write(options.qf_write)
            .block_scaling(options.block_scaling);
        let fft_options = planner.settle(precision, preferred).options;
        let t0 = Instant::now();
        let mut plan = FftPlan::with_options(kernels, FftShape::Rows { n, batch: 1 }, fft_options)?;
        let plan_seconds = t0.elapsed().as_secs_f64();
        // The values as this precision holds them, and exactly, in double-double.
        let mut held = held_by(signal, precision);
        if !options.block_scaling {
            // The data as the user gave them, unscaled: what the NaN guard is tested on.
            let f = |q: Qf128| Qf128 {
                x: q.x.map(|w| ldexp(w as f64, held.exponent) as f32),
            };
            held.words = held
                .words
                .iter()
                .map(|c| ComplexQf128::new(f(c.re), f(c.im)))
                .collect();
            held.exponent = 0;
        }
        let input_dd = words_dd(&held.words, 0);
        progress(&format!("{} transform", precision.name()));
        plan.upload_scaled(&held)?;
        let mut best = plan.execute(dir)?.best();
        let (got, output) = gpu_result(&mut plan, &held, &[dir])?;
        plan.execute(opposite(dir))?;
        let (back, _) = gpu_result(&mut plan, &held, &[dir, opposite(dir)])?;
        for _ in 1..repeats {
            // Forward then inverse keeps the data bounded between repetitions.
            best = best.min(plan.execute(dir)?.best());
            plan.execute(opposite(dir))?;
        }
        progress(&format!("{} reference", precision.name()));
        let (reference, label): (Vec<Cdd>, &'static str) = if precision == FftPrecision::Qf128 {
            (dft_dd(&input_dd, dir), "double-double FFT")
        } else {
            let as_df64: Vec<ComplexDf64> = input_dd
                .iter()
                .map(|c| ComplexDf64::from_f64(c.re.to_f64(), c.im.to_f64()))
                .collect();
            let r = rustfft_f64(&as_df64, dir);
            (
                r.iter()
                    .map(|z| Cdd {
                        re: Dd::from_f64(z.re),
                        im: Dd::from_f64(z.im),
                    })
                    .collect(),
                "rustfft f64",
            )
        };
        let seconds = best.as_secs_f64();
        let mut round_trip = round_trip(&input_dd, &back);
        round_trip.rmse_magnitude = ldexp(round_trip.rmse_magnitude, held.exponent);
        rows.push(PrecisionRow {
            precision,
            passes: plan.passes(),
            plan_seconds,
            seconds,
            gflops: gflops(n, seconds),
            rel_l2: rel_l2(&got, &reference),
            reference: label,
            round_trip,
        });
        outputs.push((precision, output));
        if precision == FftPrecision::Qf128 || reference_out.is_none() {
            reference_out = Some(to_c64(&reference));
        }
        errors.push((
            precision,
            got.iter()
                .zip(&reference)
                .map(|(g, r)| (g.re - r.re).to_f64().hypot((g.im - r.im).to_f64()))
                .collect(),
        ));
        spectra.push((precision, to_c64(&got)));
    }
    // The host reference's speed on the same input: planned once, the transform alone.
    let host_input: Vec<Complex64> = to_c64(&words_dd(&signal.words, 0));
    let host_fft = match dir {
        Direction::Forward => rustfft::FftPlanner::<f64>::new().plan_fft_forward(n),
        Direction::Inverse => rustfft::FftPlanner::<f64>::new().plan_fft_inverse(n),
    };
    let mut rust_best = Duration::MAX;
    for _ in 0..repeats {
        let mut v = host_input.clone();
        let t = Instant::now();
        host_fft.process(&mut v);
        rust_best = rust_best.min(t.elapsed());
    }
    let reference = reference_out.ok_or_else(|| {
        ExperimentError::Invalid("the FFT study needs at least one precision".into())
    })?;
    Ok(FftStudy {
        report: FftStudyReport {
            device: kernels.context().info().renderer.clone(),
            n,
            input: input.to_string(),
            direction: match dir {
                Direction::Forward => "forward",
                Direction::Inverse => "inverse",
            },
            radix: options.radix,
            twiddles: options.twiddles,
            qf_write: options.qf_write,
            rows,
            rustfft_seconds: rust_best.as_secs_f64(),
            block_exponent: signal.exponent,
            underflow: signal.underflow,
        },
        outputs,
        spectra,
        errors,
        reference,
    })
}

impl FftStudyReport {
    /// The report as aligned text for a terminal.
    pub fn table(&self) -> String {
        let mut s = format!(
            "FFT of {} points, {} ({}), radix {}, {} twiddles, on {}\n\n",
            self.n,
            self.direction,
            self.input,
            match self.radix {
                Radix::Two => "2 (Algorithm 10)",
                Radix::Four => "4",
                Radix::Eight => "8 (qf128: 4)",
            },
            match self.twiddles {
                TwiddleSource::Table => "W_long table",
                TwiddleSource::Direct => "in-shader",
            },
            self.device
        );
        s.push_str("| precision | passes | plan [ms] | time [ms] | GFLOP/s | rel. L2 error | reference | RMSE magnitude (rel.) | RMSE phase [rad] | peak S/N [dB] |\n");
        s.push_str("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
        for r in &self.rows {
            s.push_str(&format!(
                "| {} | {} | {:.0} | {:.2} | {:.3} | {:.2e} | {} | {:.2e} ({:.2e}) | {:.2e} | {:.1} |\n",
                r.precision.name(),
                r.passes,
                r.plan_seconds * 1e3,
                r.seconds * 1e3,
                r.gflops,
                r.rel_l2,
                r.reference,
                r.round_trip.rmse_magnitude,
                r.round_trip.rmse_magnitude_relative,
                r.round_trip.rmse_phase,
                r.round_trip.peak_snr_db,
            ));
        }
        s.push_str(&format!(
            "| rustfft f64 (host) | - | - | {:.2} | {:.3} | - | - | - | - | - |\n",
            self.rustfft_seconds * 1e3,
            gflops(self.n, self.rustfft_seconds)
        ));
        let find = |p: FftPrecision| self.rows.iter().find(|r| r.precision == p);
        if let (Some(f), Some(d)) = (find(FftPrecision::F32), find(FftPrecision::Df64)) {
            s.push_str(&format!(
                "\ndf64 time / f32 time: {:.2}; df64 time / rustfft f64 time: {:.2}\n",
                d.seconds / f.seconds,
                d.seconds / self.rustfft_seconds
            ));
        }
        s
    }
}

/// Magnitudes in dB relative to `peak` (zeros become -inf, drawn as gaps).
fn db(values: impl Iterator<Item = f64>, peak: f64) -> Vec<f64> {
    values.map(|m| 20.0 * (m / peak).log10()).collect()
}

/// Two charts: each precision's spectrum, and its error against the reference, in dB
/// relative to the spectrum's peak.
pub fn spectrum_plot(study: &FftStudy) -> Canvas {
    let peak = study
        .reference
        .iter()
        .map(|z| z.norm())
        .fold(0.0f64, f64::max)
        .max(f64::MIN_POSITIVE);
    let color = |p: FftPrecision| match p {
        FftPrecision::F32 => RED,
        FftPrecision::Df64 => BLUE,
        FftPrecision::Qf128 => GREEN,
        FftPrecision::F64 => PURPLE,
    };
    let spectra: Vec<(FftPrecision, Vec<f64>)> = study
        .spectra
        .iter()
        .map(|(p, s)| (*p, db(s.iter().map(|z| z.norm()), peak)))
        .collect();
    let errors: Vec<(FftPrecision, Vec<f64>)> = study
        .errors
        .iter()
        .map(|(p, e)| (*p, db(e.iter().copied(), peak)))
        .collect();
    let n = study.report.n as f64;
    let title_top = format!(
        "|X[k]|, {} points ({})",
        study.report.n, study.report.direction
    );
    let top = Chart {
        title: &title_top,
        x_label: "bin k",
        y_label: "dB re peak",
        x_range: (0.0, n),
        y_range: (-360.0, 0.0),
        y_step: 40.0,
        series: spectra
            .iter()
            .map(|(p, y)| Series {
                label: p.name(),
                color: color(*p),
                y,
            })
            .collect(),
    };
    let title_bottom = "|X[k] - reference[k]| (f32, df64: rustfft f64; qf128: double-double)";
    let mut bottom_series: Vec<Series> = errors
        .iter()
        .map(|(p, y)| Series {
            label: p.name(),
            color: color(*p),
            y,
        })
        .collect();
    if bottom_series.is_empty() {
        bottom_series.push(Series {
            label: "none",
            color: ORANGE,
            y: &[],
        });
    }
    let bottom = Chart {
        title: title_bottom,
        x_label: "bin k",
        y_label: "dB re peak",
        x_range: (0.0, n),
        y_range: (-720.0, 0.0),
        y_step: 80.0,
        series: bottom_series,
    };
    Canvas::stack(&top.render(1200, 480), &bottom.render(1200, 480))
}
