//! `df64gl bench fft`: transform times of the engine in f32, df64 (radix 2 and 4), qf128 and
//! native double (GLSL `double`, where the driver has it) against rustfft f64 on the host, for a range of sizes, all in one run, as ratios (this
//! machine is shared and noisy: only ratios taken in one run compare); and each precision's
//! time per pass over the floor, a pass that only copies the same texels.

use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use serde::Serialize;

use df64gl::fft::{
    gflops, Direction, FftOptions, FftPlanner, FftPrecision, FftShape, GpuFft, Radix, StockhamPlan,
    TwiddleSource,
};
use df64gl::kernels::Df64Kernels;
use df64gl::numeric::df64::ComplexDf64;
use rustfft::num_complex::Complex64;

use crate::error::ExperimentError;

/// Sizes and variants of `df64gl bench fft`.
#[derive(Debug, Clone)]
pub struct FftBenchOptions {
    /// Smallest size, as log2 N.
    pub min_log2: u32,
    /// Largest size, as log2 N.
    pub max_log2: u32,
    /// Largest log2 N for qf128 (its twiddle table comes from the oracle: seconds at 2^22).
    pub qf128_max_log2: u32,
    /// Timed runs per measurement; the best is kept.
    pub repeats: usize,
    /// Where the twiddles come from.
    pub twiddles: TwiddleSource,
}

impl Default for FftBenchOptions {
    fn default() -> Self {
        FftBenchOptions {
            min_log2: 10,
            max_log2: 22,
            qf128_max_log2: 20,
            repeats: 3,
            twiddles: TwiddleSource::Table,
        }
    }
}

/// One plan's best forward transform and its floor, in seconds.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct PlanTime {
    /// Best time of one forward transform.
    pub seconds: f64,
    /// Passes per transform.
    pub passes: usize,
    /// Best time of one copy pass over the same textures (the memory floor of a pass).
    pub copy_seconds: f64,
}

impl PlanTime {
    /// Time per pass over the floor: 1 is a pass as cheap as copying its texels.
    pub fn per_pass_over_floor(&self) -> f64 {
        self.seconds / self.passes as f64 / self.copy_seconds
    }
}

/// Best forward-transform times at one size (None: not run).
#[derive(Debug, Clone, Serialize)]
pub struct FftBenchRow {
    /// The size, as log2 N.
    pub log2_n: u32,
    /// f32, radix 4.
    pub f32: PlanTime,
    /// df64, Thall's radix-2 passes.
    pub df64_radix2: PlanTime,
    /// df64, radix 4.
    pub df64: PlanTime,
    /// df64, radix 8.
    pub df64_radix8: PlanTime,
    /// f32, radix 8.
    pub f32_radix8: PlanTime,
    /// qf128, radix 4 (None where not run).
    pub qf128: Option<PlanTime>,
    /// Native double on the GPU (None where shaders have no double).
    pub f64: Option<PlanTime>,
    /// rustfft in f64 on the CPU, seconds.
    pub rustfft_f64: f64,
}

impl FftBenchRow {
    /// df64 time over f32 time (radix 4).
    pub fn df64_over_f32(&self) -> f64 {
        self.df64.seconds / self.f32.seconds
    }
    /// df64 time over rustfft time.
    pub fn df64_over_rustfft(&self) -> f64 {
        self.df64.seconds / self.rustfft_f64
    }
    /// df64 radix-2 time over radix-4 time.
    pub fn radix4_speedup(&self) -> f64 {
        self.df64_radix2.seconds / self.df64.seconds
    }
    /// Radix 8 over radix 4 (> 1: radix 8 is faster).
    pub fn radix8_speedup(&self) -> f64 {
        self.df64.seconds / self.df64_radix8.seconds
    }
}

/// The benchmark: one row per size.
#[derive(Debug, Clone, Serialize)]
pub struct FftBenchReport {
    /// The device it ran on (short renderer name).
    pub device: String,
    /// Where the twiddles come from.
    pub twiddles: TwiddleSource,
    /// Timed runs per measurement; the best is kept.
    pub repeats: usize,
    /// One row per size.
    pub rows: Vec<FftBenchRow>,
}

/// Best of `repeats` forward transforms (each followed by an inverse, untimed, so the data
/// stays bounded), and the best of as many copy passes.
fn time_plan(
    kernels: &Df64Kernels,
    x: &[ComplexDf64],
    options: FftOptions,
    repeats: usize,
) -> Result<PlanTime, ExperimentError> {
    let n = x.len();
    let mut plan = StockhamPlan::with_options(kernels, FftShape::Rows { n, batch: 1 }, options)?;
    plan.upload(x)?;
    // A first, untimed transform and copy: llvmpipe compiles shader variants on first draw.
    plan.execute(Direction::Forward)?;
    plan.execute(Direction::Inverse)?;
    plan.time_copy()?;
    let mut best = Duration::MAX;
    let mut copy = Duration::MAX;
    for _ in 0..repeats.max(1) {
        best = best.min(plan.execute(Direction::Forward)?.best());
        plan.execute(Direction::Inverse)?;
        copy = copy.min(plan.time_copy()?.best());
    }
    Ok(PlanTime {
        seconds: best.as_secs_f64(),
        passes: plan.passes(),
        copy_seconds: copy.as_secs_f64(),
    })
}

/// Times every variant at every size, each the best of `repeats`.
pub fn run_fft_bench(
    kernels: &Df64Kernels,
    options: &FftBenchOptions,
    progress: &mut dyn FnMut(usize, usize, &str),
) -> Result<FftBenchReport, ExperimentError> {
    if options.min_log2 < 1 || options.min_log2 > options.max_log2 || options.max_log2 > 28 {
        return Err(ExperimentError::Invalid(format!(
            "sizes 2^{} .. 2^{}: need 1 <= min <= max <= 28",
            options.min_log2, options.max_log2
        )));
    }
    let planner = FftPlanner::new(kernels);
    // The largest size of each variant, judged before anything runs or is allocated.
    let largest = |p: FftPrecision| {
        if p == FftPrecision::Qf128 {
            options.qf128_max_log2.min(options.max_log2)
        } else {
            options.max_log2
        }
    };
    for p in [
        FftPrecision::F32,
        FftPrecision::Df64,
        FftPrecision::Qf128,
        FftPrecision::F64,
    ] {
        if planner.refusal(p).is_some() || largest(p) < options.min_log2 {
            continue;
        }
        let settled = planner
            .settle(p, FftOptions::new(p).twiddles(options.twiddles))
            .options;
        let radices: &[Radix] = match p {
            FftPrecision::F32 | FftPrecision::Df64 => &[Radix::Four, Radix::Two, Radix::Eight],
            _ => &[settled.radix],
        };
        for radix in radices {
            let n = 1usize << largest(p);
            planner
                .judge(FftShape::Rows { n, batch: 1 }, settled.radix(*radix))
                .map_err(|e| {
                    ExperimentError::Invalid(format!(
                        "{} at 2^{} (lower --max-log2{}): {e}",
                        p.name(),
                        largest(p),
                        if p == FftPrecision::Qf128 {
                            " or --qf128-max-log2"
                        } else {
                            ""
                        }
                    ))
                })?;
        }
    }
    let mut rows = Vec::new();
    let total = (options.max_log2 - options.min_log2 + 1) as usize;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2007);
    for (i, m) in (options.min_log2..=options.max_log2).enumerate() {
        progress(i, total, &format!("2^{m}"));
        let n = 1usize << m;
        let x: Vec<ComplexDf64> = (0..n)
            .map(|_| ComplexDf64::from_f64(rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0)))
            .collect();
        // As the planner settles them (native double reads the twiddle table).
        let opts = |p: FftPrecision| {
            planner
                .settle(p, FftOptions::new(p).twiddles(options.twiddles))
                .options
        };
        let r = options.repeats;
        let f32 = time_plan(kernels, &x, opts(FftPrecision::F32), r)?;
        let df64 = time_plan(kernels, &x, opts(FftPrecision::Df64), r)?;
        let df64_radix2 = time_plan(kernels, &x, opts(FftPrecision::Df64).radix(Radix::Two), r)?;
        let df64_radix8 = time_plan(kernels, &x, opts(FftPrecision::Df64).radix(Radix::Eight), r)?;
        let f32_radix8 = time_plan(kernels, &x, opts(FftPrecision::F32).radix(Radix::Eight), r)?;
        let f64 = if planner.refusal(FftPrecision::F64).is_none() {
            Some(time_plan(kernels, &x, opts(FftPrecision::F64), r)?)
        } else {
            None
        };
        let qf128 = if m <= options.qf128_max_log2 {
            Some(time_plan(kernels, &x, opts(FftPrecision::Qf128), r)?)
        } else {
            None
        };
        // rustfft planned once, timed on the transform alone, like the GPU passes.
        let input: Vec<Complex64> = x
            .iter()
            .map(|c| Complex64::new(c.re.to_f64(), c.im.to_f64()))
            .collect();
        let fft = rustfft::FftPlanner::<f64>::new().plan_fft_forward(n);
        let mut host = Duration::MAX;
        for _ in 0..r.max(1) + 1 {
            let mut v = input.clone();
            let t = Instant::now();
            fft.process(&mut v);
            host = host.min(t.elapsed());
        }
        rows.push(FftBenchRow {
            log2_n: m,
            f32,
            df64_radix2,
            df64,
            df64_radix8,
            f32_radix8,
            qf128,
            f64,
            rustfft_f64: host.as_secs_f64(),
        });
    }
    progress(total, total, "done");
    Ok(FftBenchReport {
        device: kernels.context().info().renderer.clone(),
        twiddles: options.twiddles,
        repeats: options.repeats,
        rows,
    })
}

impl FftBenchReport {
    /// The report as aligned text for a terminal.
    pub fn table(&self) -> String {
        let mut s = format!(
            "FFT forward transform, best of {} (ms; GFLOP/s = 5 N log2 N / t), on {}; GPU rows time \
             the passes alone (data on the GPU), rustfft f64 the host transform alone (planned \
             once)\n\n",
            self.repeats, self.device
        );
        s.push_str("| N | f32 | f32 radix 8 | df64 radix 2 | df64 radix 4 | df64 radix 8 | qf128 | GPU f64 | rustfft f64 | df64/f32 | df64/GPU f64 | df64/rustfft | radix-4 speed-up | radix-8 speed-up | df64 GFLOP/s |\n");
        s.push_str("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
        for r in &self.rows {
            let n = 1usize << r.log2_n;
            s.push_str(&format!(
                "| 2^{} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} | {} | {} | {:.3} | {:.2} | {} | {:.2} | {:.2} | {:.2} | {:.3} |\n",
                r.log2_n,
                r.f32.seconds * 1e3,
                r.f32_radix8.seconds * 1e3,
                r.df64_radix2.seconds * 1e3,
                r.df64.seconds * 1e3,
                r.df64_radix8.seconds * 1e3,
                r.qf128
                    .map_or("-".into(), |q| format!("{:.3}", q.seconds * 1e3)),
                r.f64
                    .map_or("-".into(), |q| format!("{:.3}", q.seconds * 1e3)),
                r.rustfft_f64 * 1e3,
                r.df64_over_f32(),
                r.f64
                    .map_or("-".into(), |q| format!("{:.2}", r.df64.seconds / q.seconds)),
                r.df64_over_rustfft(),
                r.radix4_speedup(),
                r.radix8_speedup(),
                gflops(n, r.df64.seconds),
            ));
        }
        s.push_str(
            "\nTime per pass over the floor (one pass that copies the same texels, natural order \
             to natural order; qf128 copies both textures): 1.0 is a pass as cheap as its memory \
             traffic\n\n",
        );
        s.push_str("| N | f32 passes | f32 copy (ms) | f32 pass/floor | df64 radix 2 pass/floor | df64 passes | df64 copy (ms) | df64 pass/floor | df64 radix 8 passes | df64 radix 8 pass/floor | qf128 copy (ms) | qf128 pass/floor | GPU f64 pass/floor |\n");
        s.push_str(
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n",
        );
        for r in &self.rows {
            s.push_str(&format!(
                "| 2^{} | {} | {:.3} | {:.2} | {:.2} | {} | {:.3} | {:.2} | {} | {:.2} | {} | {} | {} |\n",
                r.log2_n,
                r.f32.passes,
                r.f32.copy_seconds * 1e3,
                r.f32.per_pass_over_floor(),
                r.df64_radix2.per_pass_over_floor(),
                r.df64.passes,
                r.df64.copy_seconds * 1e3,
                r.df64.per_pass_over_floor(),
                r.df64_radix8.passes,
                r.df64_radix8.per_pass_over_floor(),
                r.qf128
                    .map_or("-".into(), |q| format!("{:.3}", q.copy_seconds * 1e3)),
                r.qf128
                    .map_or("-".into(), |q| format!("{:.2}", q.per_pass_over_floor())),
                r.f64
                    .map_or("-".into(), |q| format!("{:.2}", q.per_pass_over_floor())),
            ));
        }
        s
    }
}
