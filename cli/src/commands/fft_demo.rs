//! `fft-demo`: one signal through the texture-based Stockham FFT in f32, df64 and qf128 on the
//! GPU, each timed and measured against rustfft (f64) and a double-double FFT, with a PNG plot
//! of the spectra and their errors.

use std::path::PathBuf;

use clap::Parser;
use indicatif::{ProgressBar, ProgressStyle};

use crate::error::{ExperimentError, Session};
use crate::experiments::fft_demo::{
    run_fft_study, spectrum_plot, study_host_bytes, FftStudyOptions,
};
use crate::support::signal::{
    default_signal, read_signal, write_signal, SignalFormat, DEFAULT_TONES,
};
use df64gl::fft::{
    BlockScaled, Direction, FftError, FftOptions, FftPlanner, FftPrecision, FftShape, QfWrite,
    Radix, TwiddleSource,
};
use df64gl::gl::{host_memory_available, human_bytes, DeviceChoice, MesaDriver};
use df64gl::kernels::{Df64Kernels, KernelError};
use df64gl::numeric::qf128::{ComplexQf128, Qf128};

/// Default transform length of the embedded signal: seconds on llvmpipe for all three precisions.
const DEFAULT_SIZE: usize = 1 << 16;

/// The options of `fft-demo`.
#[derive(Parser)]
#[command(
    name = "fft-demo",
    version,
    about = "Thall's texture-based transposed Stockham FFT in f32, df64 and qf128 on your GPU, \
             measured against rustfft and a double-double FFT"
)]
pub struct FftDemoCli {
    /// Signal file: CSV (`re,im` or one real a line, decimals of any length and magnitude),
    /// WAV (first channel), raw little-endian f64 pairs, or raw df64 (.df64) or qf128 (.qf128)
    /// f32 words. Without it, an embedded signal: five tones from 1 down to 1e-12 plus 1e-14
    /// noise.
    #[arg(long)]
    input: Option<PathBuf>,
    /// Format of --input and --output (default: from the extension; unknown means raw).
    #[arg(long)]
    format: Option<SignalFormat>,
    /// Transform length, any N >= 1 (default: the input's own length, 65536 for the embedded
    /// signal). Given with --input, the input is zero-padded or truncated to it, with a note.
    #[arg(long)]
    size: Option<usize>,
    /// Precisions to run, comma-separated: f32, df64, qf128, and f64 (native double in the
    /// shaders, Warwick's comparison; skipped with a note where the driver has no double).
    #[arg(long, value_delimiter = ',', default_value = "f32,df64,qf128,f64")]
    precision: Vec<FftPrecision>,
    /// Butterfly radix: 4 (default, faster) or 2 (Thall's Algorithm 10 as published).
    #[arg(long, default_value = "4")]
    radix: Radix,
    /// Twiddles from the precomputed W_long texture or computed in the shader.
    #[arg(long, default_value = "table")]
    twiddles: TwiddleSource,
    /// qf128: both parts from one pass (mrt) or one pass each (two-pass).
    #[arg(long, default_value = "mrt")]
    qf_write: QfWrite,
    /// Run the inverse transform (with 1/N) instead of the forward one.
    #[arg(long)]
    inverse: bool,
    /// Write the transform of the most precise precision run to this file, to its full
    /// precision (CSV: 9, 17 or 36 significant digits; raw word formats: the words).
    #[arg(long)]
    output: Option<PathBuf>,
    /// PNG plot of the spectra and their errors.
    #[arg(long, default_value = "fft-demo.png")]
    plot: PathBuf,
    /// Skip the plot.
    #[arg(long)]
    no_plot: bool,
    /// Timed repetitions; the best is reported.
    #[arg(long, default_value_t = 3)]
    repeats: usize,
    /// EGL device: `auto`, an index or a name fragment (see `df64gl info --devices`).
    #[arg(long)]
    device: Option<String>,
    /// Mesa driver to run on: llvmpipe, softpipe or zink (zink needs mesa-vulkan-drivers).
    #[arg(long, value_name = "DRIVER")]
    gl_driver: Option<MesaDriver>,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
    /// Turn off block floating point (for testing the NaN guard only).
    #[arg(long, hide = true)]
    no_block_scaling: bool,
}

/// Runs a parsed `fft-demo` command line.
pub fn run_fft_demo(cli: FftDemoCli) -> Result<(), ExperimentError> {
    if cli.precision.is_empty() {
        return Err(ExperimentError::Invalid(
            "--precision needs at least one of f32, df64, qf128".into(),
        ));
    }
    if cli.repeats == 0 {
        return Err(ExperimentError::Invalid(
            "--repeats must be at least 1".into(),
        ));
    }
    if let Some(driver) = cli.gl_driver {
        driver.select()?;
    }
    // A file's length bounds what reading it takes; the embedded signal is made only after
    // the length is judged, so a length too large is refused before anything is allocated.
    let read = match &cli.input {
        Some(path) => {
            let s = read_signal(path, cli.format)?;
            let d = format!("{} ({} samples)", path.display(), s.len());
            if let Some(w) = s.underflow.warning() {
                eprintln!("fft-demo: warning: {w}");
            }
            Some((s, d))
        }
        None => None,
    };
    let size = match (&read, cli.size) {
        (_, Some(n)) => n,
        (Some((s, _)), None) => s.len(),
        (None, None) => DEFAULT_SIZE,
    };
    check_size(size)?;

    let session = Session::open(&DeviceChoice::from_arg_or_env(cli.device.as_deref()), false)?;
    let kernels = Df64Kernels::f32_only(&session.ctx, &session.probe);
    // The planner says which precisions this driver runs; the rest are skipped with its reason.
    let planner = FftPlanner::new(&kernels);
    let mut precisions = Vec::new();
    let mut skipped: Vec<(FftPrecision, String)> = Vec::new();
    for p in &cli.precision {
        match planner.refusal(*p) {
            None => precisions.push(*p),
            Some(why) => skipped.push((*p, why)),
        }
    }
    if let (true, Some((p, why))) = (precisions.is_empty(), skipped.first()) {
        return Err(if *p == FftPrecision::F64 {
            FftError::Unsupported(why.clone()).into()
        } else {
            KernelError::Refused(why.clone()).into()
        });
    }
    // Each plan's texture and memory limits, then the host's, before the signal is made.
    for p in &precisions {
        let preferred = FftOptions::new(*p)
            .radix(cli.radix)
            .twiddles(cli.twiddles)
            .qf_write(cli.qf_write)
            .block_scaling(!cli.no_block_scaling);
        planner.judge(
            FftShape::Rows { n: size, batch: 1 },
            planner.settle(*p, preferred).options,
        )?;
    }
    check_host_memory(size, precisions.len())?;

    let (mut signal, description) = match read {
        Some(read) => read,
        None => {
            let tones: Vec<String> = DEFAULT_TONES
                .iter()
                .map(|(_, a)| format!("{a:e}"))
                .collect();
            (
                BlockScaled::from_f64(&default_signal(size))?,
                format!(
                    "embedded signal: tones of {} plus 1e-14 noise",
                    tones.join(", ")
                ),
            )
        }
    };
    if signal.len() < size {
        eprintln!(
            "fft-demo: note: zero-padding {} samples to {size} as --size asks: this is the \
             {size}-point transform of the padded signal, not the {}-point DFT of your data",
            signal.len(),
            signal.len()
        );
    } else if signal.len() > size {
        eprintln!(
            "fft-demo: note: using the first {size} of {} samples",
            signal.len()
        );
    }
    signal
        .words
        .resize(size, ComplexQf128::new(Qf128::ZERO, Qf128::ZERO));

    for (p, why) in &skipped {
        if *p == FftPrecision::F64 {
            eprintln!("fft-demo: skipped f64: {why}");
        }
    }
    let protected: Vec<&str> = skipped
        .iter()
        .filter(|(p, _)| matches!(p, FftPrecision::Df64 | FftPrecision::Qf128))
        .map(|(p, _)| p.name())
        .collect();
    if let Some((_, why)) = skipped
        .iter()
        .find(|(p, _)| matches!(p, FftPrecision::Df64 | FftPrecision::Qf128))
    {
        eprintln!(
            "fft-demo: skipped {}: {why} The f32 transform runs unprotected (plain f32, as any \
             GPU FFT).",
            protected.join(" and ")
        );
    }
    let options = FftStudyOptions {
        precisions,
        radix: cli.radix,
        twiddles: cli.twiddles,
        qf_write: cli.qf_write,
        direction: if cli.inverse {
            Direction::Inverse
        } else {
            Direction::Forward
        },
        repeats: cli.repeats,
        block_scaling: !cli.no_block_scaling,
    };
    let bar = ProgressBar::new_spinner();
    bar.set_style(
        ProgressStyle::with_template("{spinner} {msg} [{elapsed}]")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    let study = run_fft_study(&kernels, &signal, &description, &options, &mut |label| {
        bar.set_message(label.to_string());
        bar.tick();
    })?;
    bar.finish_and_clear();

    if let Some(path) = &cli.output {
        // The most precise precision run: qf128, then native double, df64, f32.
        let rank = |p: &FftPrecision| match p {
            FftPrecision::F32 => 0,
            FftPrecision::Df64 => 1,
            FftPrecision::F64 => 2,
            FftPrecision::Qf128 => 3,
        };
        if let Some((precision, spectrum)) = study.outputs.iter().max_by_key(|(p, _)| rank(p)) {
            write_signal(path, cli.format, spectrum, *precision)?;
        }
    }
    if !cli.no_plot {
        spectrum_plot(&study).write_png(&cli.plot)?;
    }
    if cli.json {
        let text = serde_json::to_string_pretty(&study.report)
            .map_err(|e| ExperimentError::Invalid(format!("JSON output: {e}")))?;
        println!("{text}");
    } else {
        print!("{}", study.report.table());
        if let Some(path) = &cli.output {
            println!("wrote {}", path.display());
        }
        if !cli.no_plot {
            println!("wrote {}", cli.plot.display());
        }
    }
    Ok(())
}

/// The study's host-side copies must fit the host's available memory (where the host says).
fn check_host_memory(size: usize, precisions: usize) -> Result<(), ExperimentError> {
    let needed = study_host_bytes(size, precisions);
    match host_memory_available() {
        Some(available) if needed > available as u128 => Err(ExperimentError::Invalid(format!(
            "--size {size} with {precisions} precision(s) needs about {} of host memory (the \
             signal, each precision's output and reference) and the host has {} available: \
             use a smaller --size, or fewer --precision",
            human_bytes(needed),
            human_bytes(available as u128)
        ))),
        _ => Ok(()),
    }
}

/// The plan checks the length against the driver's texture limit; this only refuses 0.
fn check_size(n: usize) -> Result<(), ExperimentError> {
    if n == 0 {
        return Err(ExperimentError::Invalid(
            "--size 0 (or an empty input): the transform length must be at least 1".into(),
        ));
    }
    Ok(())
}
