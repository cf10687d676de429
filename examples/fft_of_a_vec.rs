//! The FFT of your own `Vec` on the GPU in df64 (about 48 bits), any length, in a few lines.
//!
//! `cargo run --release --example fft_of_a_vec`

use df64gl::fft::{Complex64, Direction, FftPlanner, FftPrecision, FftShape, GpuFft};
use df64gl::gl::{DeviceChoice, GlContext};
use df64gl::kernels::Df64Kernels;
use df64gl::probe::probe_driver;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Your data: 1,000 samples of two tones, at bins 50 and 120.
    let n = 1000;
    let signal: Vec<Complex64> = (0..n)
        .map(|t| {
            let x = t as f64 / n as f64;
            let v = (std::f64::consts::TAU * 50.0 * x).sin()
                + 0.5 * (std::f64::consts::TAU * 120.0 * x).cos();
            Complex64::new(v, 0.0)
        })
        .collect();

    // A GL context, the driver's probe (cached after the first run) and the proven kernels.
    let ctx = GlContext::headless(&DeviceChoice::Auto)?;
    let probe = probe_driver(&ctx, false)?;
    let kernels = Df64Kernels::new(&ctx, &probe)?;

    // Any length: 1,000 is not a power of two, so the planner runs Bluestein on the GPU.
    let planner = FftPlanner::new(&kernels);
    let mut plan = planner.plan(FftShape::Rows { n, batch: 1 }, FftPrecision::Df64)?;
    plan.upload(&signal)?;
    plan.execute(Direction::Forward)?;
    let spectrum: Vec<Complex64> = plan.download()?;

    // The two strongest bins of the first half.
    let mut bins: Vec<usize> = (0..n / 2).collect();
    bins.sort_by(|a, b| spectrum[*b].norm().total_cmp(&spectrum[*a].norm()));
    let mut peaks = [bins[0], bins[1]];
    peaks.sort_unstable();
    println!("peak bins: {}, {}", peaks[0], peaks[1]);
    println!(
        "|X[50]| = {:.12}, |X[120]| = {:.12} (exact: 500, 250)",
        spectrum[50].norm(),
        spectrum[120].norm()
    );

    // Against rustfft in f64 on the host.
    let mut reference = signal.clone();
    rustfft::FftPlanner::new()
        .plan_fft_forward(n)
        .process(&mut reference);
    let worst = spectrum
        .iter()
        .zip(&reference)
        .map(|(a, b)| (a - b).norm())
        .fold(0.0, f64::max);
    println!("largest difference from rustfft: {worst:.3e}");
    Ok(())
}
