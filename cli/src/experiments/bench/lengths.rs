//! `df64gl bench lengths`: the transform at every length, not only powers of two. Accuracy
//! over lengths (every N up to a bound, powers of ten, primes) in f32 and df64 against
//! rustfft (f64) and, for small N, the DFT by its definition in double-double; qf128 against
//! the double-double DFT; and Bluestein's cost, df64 at 10^6 points over the power-of-two
//! transform it runs on (2^21), times taken in one run.

use std::time::Duration;

use rand::{Rng, SeedableRng};
use rustfft::num_complex::Complex64;
use serde::Serialize;

use df64gl::fft::reference::{dft_dd, naive_dft_dd, rel_l2, rustfft_c64, words_dd, Cdd};
use df64gl::fft::{
    Direction, FftError, FftOptions, FftPlan, FftPlanner, FftPrecision, FftShape, GpuFft,
    StockhamPlan,
};
use df64gl::kernels::Df64Kernels;
use df64gl::numeric::qf128::{ComplexQf128, Qf128};

use crate::error::ExperimentError;

/// Which lengths `bench lengths` transforms.
#[derive(Debug, Clone)]
pub struct LengthSweepOptions {
    /// Every length 1..=this in f32 and df64.
    pub every_up_to: usize,
    /// Every length 1..=this in qf128 (and the double-double reference).
    pub qf128_every_up_to: usize,
    /// Further lengths (powers of ten, primes) in f32 and df64.
    pub large: Vec<usize>,
    /// Further qf128 lengths.
    pub qf128_large: Vec<usize>,
    /// Up to this N the f32 and df64 results are also checked against the definition.
    pub naive_up_to: usize,
    /// Bluestein's cost: df64 at this length against the power of two it pads to (0: skip).
    pub cost_length: usize,
    /// Mixed radix's cost: df64 at this length (an odd radix times a power of two) against the
    /// next power of two, and its error against rustfft (0: skip).
    pub mixed_length: usize,
    /// Timed runs per measurement; the best is kept.
    pub repeats: usize,
}

impl Default for LengthSweepOptions {
    fn default() -> Self {
        LengthSweepOptions {
            every_up_to: 4096,
            qf128_every_up_to: 64,
            large: vec![
                10_000, 100_000, 1_000_000, 8191, 65_537, 131_071, 524_287, 999_983,
            ],
            qf128_large: vec![100, 127, 1000, 1009, 4093, 4095, 4096],
            naive_up_to: 64,
            cost_length: 1_000_000,
            mixed_length: 3 << 18,
            repeats: 3,
        }
    }
}

/// The worst error of one precision over a group of lengths.
#[derive(Debug, Clone, Serialize)]
pub struct LengthGroup {
    /// The precision.
    pub precision: FftPrecision,
    /// The lengths, as shown.
    pub lengths: String,
    /// Lengths in the group.
    pub count: usize,
    /// What the error is measured against.
    pub reference: &'static str,
    /// Largest relative L2 error, forward and inverse, and the length where it occurred.
    pub max_rel_l2: f64,
    /// The length of the largest error.
    pub worst_length: usize,
    /// The bound the group must stay under.
    pub target: f64,
}

/// Bluestein's cost: a length against the power of two it pads to.
#[derive(Debug, Clone, Serialize)]
pub struct BluesteinCost {
    /// The length.
    pub n: usize,
    /// The power of two its convolution uses.
    pub padded: usize,
    /// Seconds of one transform of `n` points.
    pub bluestein_seconds: f64,
    /// The power-of-two transform of the padded length.
    pub power_of_two_seconds: f64,
    /// Bluestein time over the power-of-two time.
    pub ratio: f64,
}

/// Mixed radix's cost: a length with an odd factor, run through the power-of-two stages and
/// one odd-radix stage, against the next power of two.
#[derive(Debug, Clone, Serialize)]
pub struct MixedRadixCost {
    /// The length.
    pub n: usize,
    /// The power of two it is compared with.
    pub power_of_two: usize,
    /// Full-screen passes of one transform of `n` points, and of the power of two.
    pub passes: usize,
    /// Passes of the power of two.
    pub power_of_two_passes: usize,
    /// Seconds of one df64 forward transform of `n` points.
    pub mixed_seconds: f64,
    /// Seconds of the power of two.
    pub power_of_two_seconds: f64,
    /// Mixed time over the power-of-two time.
    pub ratio: f64,
    /// Relative L2 error of the forward transform against rustfft (f64).
    pub rel_l2_vs_rustfft: f64,
}

/// The sweep: each group's worst error and Bluestein's cost.
#[derive(Debug, Clone, Serialize)]
pub struct LengthSweepReport {
    /// The device it ran on (short renderer name).
    pub device: String,
    /// One group per precision and set of lengths.
    pub groups: Vec<LengthGroup>,
    /// Bluestein's cost, where measured.
    pub cost: Option<BluesteinCost>,
    /// Mixed radix's cost, where measured.
    pub mixed: Option<MixedRadixCost>,
}

fn target(p: FftPrecision) -> f64 {
    match p {
        FftPrecision::F32 => 1e-6,
        FftPrecision::Df64 => 1e-14,
        FftPrecision::Qf128 => 1e-27,
        // rustfft's own f64 error is of the same order.
        FftPrecision::F64 => 1e-14,
    }
}

fn signal(n: usize) -> Vec<Complex64> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(n as u64);
    (0..n)
        .map(|_| Complex64::new(rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0)))
        .collect()
}

fn rustfft_ref(x: &[Complex64], direction: Direction) -> Vec<Cdd> {
    rustfft_c64(x, direction)
        .into_iter()
        .map(Cdd::from_c64)
        .collect()
}

/// Worst error of `precision` over `lengths`, forward and inverse (`naive`: against the
/// definition instead of the fast reference).
fn measure(
    kernels: &Df64Kernels,
    precision: FftPrecision,
    lengths: &[usize],
    naive: bool,
    progress: &mut dyn FnMut(&str),
) -> Result<(f64, usize), ExperimentError> {
    let mut worst = (0.0f64, 0usize);
    for &n in lengths {
        progress(&format!("{} N = {n}", precision.name()));
        let x = signal(n);
        // The input as the plan holds it, exactly, in double-double.
        let held: Vec<ComplexQf128> = x
            .iter()
            .map(|c| {
                let q = |v: f64| match precision {
                    FftPrecision::F32 => Qf128::from_f32(v as f32),
                    _ => Qf128::from_df64(df64gl::numeric::df64::Df64::from_f64(v)),
                };
                ComplexQf128::new(q(c.re), q(c.im))
            })
            .collect();
        let held_dd: Vec<Cdd> = held.iter().map(|c| Cdd::from_qf128(*c)).collect();
        let held_c64: Vec<Complex64> = held_dd.iter().map(|c| c.to_c64()).collect();
        let mut plan = FftPlan::new(kernels, n, precision)?;
        for d in [Direction::Forward, Direction::Inverse] {
            plan.upload(&held)?;
            plan.execute(d)?;
            let out = plan.download_scaled()?;
            let got = words_dd(&out.words, out.exponent);
            let reference = if precision == FftPrecision::Qf128 {
                dft_dd(&held_dd, d)
            } else if naive {
                naive_dft_dd(&held_dd, d)
            } else {
                rustfft_ref(&held_c64, d)
            };
            let e = rel_l2(&got, &reference);
            if e > worst.0 || e.is_nan() {
                worst = (e, n);
            }
        }
    }
    Ok(worst)
}

/// Every length the sweep plans, judged by the planner before anything runs or is
/// allocated: the longest of each "every N" range (N and N - 1, which pads furthest), the
/// listed lengths, and the cost lengths with the powers of two they are set against.
fn judge_sweep(kernels: &Df64Kernels, options: &LengthSweepOptions) -> Result<(), ExperimentError> {
    let planner = FftPlanner::new(kernels);
    let longest = |n: usize| [n, n.saturating_sub(1)].into_iter().filter(|n| *n >= 1);
    let pow2 = |n: usize| n.checked_next_power_of_two().unwrap_or(usize::MAX);
    let cost = [options.cost_length, options.mixed_length]
        .into_iter()
        .filter(|n| *n > 0)
        .flat_map(|n| [n, pow2(n)]);
    let fast: Vec<(usize, &str)> = longest(options.every_up_to)
        .map(|n| (n, "--every-up-to"))
        .chain(options.large.iter().map(|n| (*n, "--lengths")))
        .chain(cost.map(|n| (n, "--cost-length / --mixed-length")))
        .collect();
    let qf: Vec<(usize, &str)> = longest(options.qf128_every_up_to)
        .map(|n| (n, "--qf128-every-up-to"))
        .chain(options.qf128_large.iter().map(|n| (*n, "--qf128-lengths")))
        .collect();
    let runs = [FftPrecision::F32, FftPrecision::Df64]
        .into_iter()
        .flat_map(|p| fast.iter().map(move |(n, what)| (p, *n, *what)))
        .chain(qf.iter().map(|(n, what)| (FftPrecision::Qf128, *n, *what)));
    for (p, n, what) in runs {
        if n == 0 {
            return Err(ExperimentError::Invalid(format!(
                "{what}: a length of 0; every length must be at least 1"
            )));
        }
        planner
            .judge(FftShape::Rows { n, batch: 1 }, FftOptions::new(p))
            .map_err(|e| ExperimentError::Invalid(format!("{what} {n} ({}): {e}", p.name())))?;
    }
    Ok(())
}

/// Transforms every length of the options forward and back and measures the errors.
pub fn run_length_sweep(
    kernels: &Df64Kernels,
    options: &LengthSweepOptions,
    progress: &mut dyn FnMut(&str),
) -> Result<LengthSweepReport, ExperimentError> {
    if options.every_up_to == 0 || options.repeats == 0 {
        return Err(ExperimentError::Invalid(
            "--every-up-to and --repeats must be at least 1".into(),
        ));
    }
    judge_sweep(kernels, options)?;
    let mut groups = Vec::new();
    let every: Vec<usize> = (1..=options.every_up_to).collect();
    let small: Vec<usize> = (1..=options.naive_up_to.min(options.every_up_to)).collect();
    for p in [FftPrecision::F32, FftPrecision::Df64] {
        let sets: [(&[usize], String, bool, &'static str); 3] = [
            (
                &small,
                format!("every N in 1..={}", small.len()),
                true,
                "DFT by its definition (double-double)",
            ),
            (
                &every,
                format!("every N in 1..={}", options.every_up_to),
                false,
                "rustfft f64",
            ),
            (&options.large, list(&options.large), false, "rustfft f64"),
        ];
        for (lengths, label, naive, reference) in sets {
            if lengths.is_empty() {
                continue;
            }
            let (max_rel_l2, worst_length) = measure(kernels, p, lengths, naive, progress)?;
            groups.push(LengthGroup {
                precision: p,
                lengths: label,
                count: lengths.len(),
                reference,
                max_rel_l2,
                worst_length,
                target: target(p),
            });
        }
    }
    let qf_every: Vec<usize> = (1..=options.qf128_every_up_to).collect();
    for (lengths, label) in [
        (
            &qf_every,
            format!("every N in 1..={}", options.qf128_every_up_to),
        ),
        (&options.qf128_large, list(&options.qf128_large)),
    ] {
        if lengths.is_empty() {
            continue;
        }
        let (max_rel_l2, worst_length) =
            measure(kernels, FftPrecision::Qf128, lengths, false, progress)?;
        groups.push(LengthGroup {
            precision: FftPrecision::Qf128,
            lengths: label,
            count: lengths.len(),
            reference: "double-double DFT (Bluestein, oracle chirp)",
            max_rel_l2,
            worst_length,
            target: target(FftPrecision::Qf128),
        });
    }
    let cost = if options.cost_length > 0 {
        progress("Bluestein cost");
        Some(bluestein_cost(
            kernels,
            options.cost_length,
            options.repeats,
        )?)
    } else {
        None
    };
    let mixed = if options.mixed_length > 0 {
        progress("mixed radix cost");
        Some(mixed_radix_cost(
            kernels,
            options.mixed_length,
            options.repeats,
        )?)
    } else {
        None
    };
    Ok(LengthSweepReport {
        device: kernels.context().info().renderer.clone(),
        groups,
        cost,
        mixed,
    })
}

/// Best df64 forward transforms of `n` points (mixed radix) and of the next power of two,
/// alternating so both see the same machine load; the mixed result against rustfft.
fn mixed_radix_cost(
    kernels: &Df64Kernels,
    n: usize,
    repeats: usize,
) -> Result<MixedRadixCost, ExperimentError> {
    let mut mixed = FftPlan::new(kernels, n, FftPrecision::Df64)?;
    if mixed.uses_bluestein() {
        return Err(ExperimentError::Invalid(format!(
            "--mixed-length {n} is not an odd radix times a power of two: the plan pads it for \
             Bluestein (3 * 2^k runs as mixed radix)"
        )));
    }
    let power_of_two = n.next_power_of_two();
    let mut pow2 = StockhamPlan::new(kernels, power_of_two, FftPrecision::Df64)?;
    let x = signal(n);
    mixed.upload(&x)?;
    pow2.upload(&signal(power_of_two))?;
    let (a, b) = best_of_alternating(
        repeats,
        &mut |d| mixed.execute(d).map(|t| t.best()),
        &mut |d| pow2.execute(d).map(|t| t.best()),
    )?;
    // The error of one forward transform of the data as the plan holds it.
    mixed.upload(&x)?;
    mixed.execute(Direction::Forward)?;
    let got: Vec<Cdd> = mixed
        .download::<Complex64>()?
        .into_iter()
        .map(Cdd::from_c64)
        .collect();
    let error = rel_l2(&got, &rustfft_ref(&x, Direction::Forward));
    Ok(MixedRadixCost {
        n,
        power_of_two,
        passes: mixed.passes(),
        power_of_two_passes: pow2.passes(),
        mixed_seconds: a.as_secs_f64(),
        power_of_two_seconds: b.as_secs_f64(),
        ratio: a.as_secs_f64() / b.as_secs_f64(),
        rel_l2_vs_rustfft: error,
    })
}

fn list(v: &[usize]) -> String {
    v.iter()
        .map(|n| n.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Best forward times of two transforms over `repeats` rounds, each forward followed by its
/// inverse (the data keep their size), alternating so both see the same machine load, after an
/// untimed round (shader compiles on first draw, Bluestein's factors on first use).
fn best_of_alternating(
    repeats: usize,
    a: &mut dyn FnMut(Direction) -> Result<Duration, FftError>,
    b: &mut dyn FnMut(Direction) -> Result<Duration, FftError>,
) -> Result<(Duration, Duration), ExperimentError> {
    for d in [Direction::Forward, Direction::Inverse] {
        a(d)?;
        b(d)?;
    }
    let (mut best_a, mut best_b) = (Duration::MAX, Duration::MAX);
    for _ in 0..repeats.max(1) {
        best_a = best_a.min(a(Direction::Forward)?);
        a(Direction::Inverse)?;
        best_b = best_b.min(b(Direction::Forward)?);
        b(Direction::Inverse)?;
    }
    Ok((best_a, best_b))
}

/// Best forward transform of df64 at `n` (any length) and at the power of two Bluestein pads
/// it to, alternating so both see the same machine load.
fn bluestein_cost(
    kernels: &Df64Kernels,
    n: usize,
    repeats: usize,
) -> Result<BluesteinCost, ExperimentError> {
    let mut any = FftPlan::new(kernels, n, FftPrecision::Df64)?;
    let padded = any.padded_shape().total();
    let mut pow2 = StockhamPlan::new(kernels, padded, FftPrecision::Df64)?;
    any.upload(&signal(n))?;
    pow2.upload(&signal(padded))?;
    let (a, b) = best_of_alternating(
        repeats,
        &mut |d| any.execute(d).map(|t| t.best()),
        &mut |d| pow2.execute(d).map(|t| t.best()),
    )?;
    Ok(BluesteinCost {
        n,
        padded,
        bluestein_seconds: a.as_secs_f64(),
        power_of_two_seconds: b.as_secs_f64(),
        ratio: a.as_secs_f64() / b.as_secs_f64(),
    })
}

impl LengthSweepReport {
    /// The report as aligned text for a terminal.
    pub fn table(&self) -> String {
        let mut s = format!(
            "FFT accuracy over lengths on {} (forward and inverse; relative L2 error against the \
             reference, computed in double-double)\n\n",
            self.device
        );
        s.push_str(
            "| precision | lengths | count | reference | max rel. L2 | at N | target | met |\n",
        );
        s.push_str("| --- | --- | --- | --- | --- | --- | --- | --- |\n");
        for g in &self.groups {
            s.push_str(&format!(
                "| {} | {} | {} | {} | {:.2e} | {} | {:.0e} | {} |\n",
                g.precision.name(),
                g.lengths,
                g.count,
                g.reference,
                g.max_rel_l2,
                g.worst_length,
                g.target,
                if g.max_rel_l2 <= g.target {
                    "yes"
                } else {
                    "NO"
                },
            ));
        }
        if let Some(c) = &self.cost {
            s.push_str(&format!(
                "\nBluestein's cost, df64 forward, best times in one run: N = {} takes {:.1} ms, \
                 the power-of-two transform of its padded length {} takes {:.1} ms: {:.2}x\n",
                c.n,
                c.bluestein_seconds * 1e3,
                c.padded,
                c.power_of_two_seconds * 1e3,
                c.ratio
            ));
        }
        if let Some(m) = &self.mixed {
            s.push_str(&format!(
                "\nMixed radix, df64 forward, best times in one run: N = {} ({} passes) takes \
                 {:.1} ms, the power of two {} ({} passes) takes {:.1} ms: {:.2}x; relative L2 \
                 error against rustfft {:.2e}\n",
                m.n,
                m.passes,
                m.mixed_seconds * 1e3,
                m.power_of_two,
                m.power_of_two_passes,
                m.power_of_two_seconds * 1e3,
                m.ratio,
                m.rel_l2_vs_rustfft
            ));
        }
        s
    }

    /// Whether every group met its target.
    pub fn met(&self) -> bool {
        self.groups.iter().all(|g| g.max_rel_l2 <= g.target)
            && self
                .mixed
                .as_ref()
                .is_none_or(|m| m.rel_l2_vs_rustfft <= target(FftPrecision::Df64))
    }
}
