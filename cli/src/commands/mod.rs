//! The commands of `df64gl` and `fft-demo`, one module each; [`run`] dispatches a parsed
//! command line. The binaries only parse their arguments and call in here.

mod accuracy;
pub mod args;
mod bench;
pub mod fft_demo;
mod glsl;
mod info;
mod js;
mod mandelbrot;
mod probe;
mod repro;
mod selftest;
pub mod selftest_programs;
mod web;
mod wgsl;

use crate::error::{ExperimentError, Session};
use crate::web::browser::{find_chromium, CHROMIUM_ENV};
use df64gl::gl::DeviceChoice;
use df64gl::kernels::Df64Kernels;
use indicatif::{ProgressBar, ProgressStyle};
use std::process::ExitCode;

use args::{BenchCommand, Cli, Command};

/// "640x480" to (640, 480).
pub(crate) fn progress_bar() -> ProgressBar {
    let bar = ProgressBar::new(1);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} {msg} [{elapsed}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// The callback experiments report progress through: (done, total, what).
pub(crate) fn progress(bar: &ProgressBar) -> impl FnMut(usize, usize, &str) + '_ {
    |done, total, label| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
        bar.set_message(label.to_string());
    }
}

/// A report as JSON with `--json`, else as its text table.
pub(crate) fn print_report<T: serde::Serialize>(
    json: bool,
    report: &T,
    table: impl FnOnce(&T) -> String,
) -> Result<(), ExperimentError> {
    if json {
        print_json(report)
    } else {
        print!("{}", table(report));
        Ok(())
    }
}

/// df64 kernels on the chosen device, with its (cached) probe.
pub(crate) fn kernels_on(device: &DeviceChoice) -> Result<Df64Kernels, ExperimentError> {
    let session = Session::open(device, false)?;
    Ok(Df64Kernels::new(&session.ctx, &session.probe)?)
}

pub(crate) fn print_json<T: serde::Serialize>(value: &T) -> Result<(), ExperimentError> {
    let text = serde_json::to_string_pretty(value)
        .map_err(|e| ExperimentError::Invalid(format!("JSON output: {e}")))?;
    println!("{text}");
    Ok(())
}

/// What every command shares: the device and the output format.
pub(crate) struct Global {
    device: DeviceChoice,
    json: bool,
}

/// Runs a parsed `df64gl` command line; the exit status it should end with.
pub fn run(cli: Cli) -> Result<ExitCode, ExperimentError> {
    if let Some(driver) = cli.gl_driver {
        driver.select()?;
    }
    let global = Global {
        device: DeviceChoice::from_arg_or_env(cli.device.as_deref()),
        json: cli.json,
    };
    match cli.command {
        Command::Info(args) => info::info(&global, args),
        Command::Probe(args) => probe::probe(&global, args),
        Command::Selftest(args) => selftest::selftest(&global, args),
        Command::Accuracy(args) => accuracy::accuracy(&global, args),
        Command::Glsl(args) => glsl::glsl(&global, args),
        Command::Wgsl(args) => wgsl::wgsl(&global, args),
        Command::Repro(args) => repro::repro(&global, args),
        Command::Mandelbrot(args) => mandelbrot::mandelbrot(&global, args),
        Command::Web(args) => web::web(&global, args),
        Command::Js(args) => js::js(&global, args),
        Command::Bench {
            what: BenchCommand::Ops(args),
        } => bench::bench_ops(&global, args),
        Command::Bench {
            what: BenchCommand::Wgsl(args),
        } => bench::bench_wgsl(&global, args),
        Command::Bench {
            what: BenchCommand::Lengths(args),
        } => bench::bench_lengths(&global, args),
        Command::Bench {
            what: BenchCommand::Vertex(args),
        } => bench::bench_vertex(&global, args),
        Command::Bench {
            what: BenchCommand::Fft(args),
        } => bench::bench_fft(&global, args),
    }
}

/// The Chromium the browser legs run in, or an error saying how to get one (`what`: the
/// command or flag that needs it).
pub(crate) fn require_chromium(what: &str) -> Result<std::path::PathBuf, ExperimentError> {
    find_chromium().ok_or_else(|| {
        ExperimentError::Invalid(format!(
            "{what} needs Chromium: apt-get install chromium, or set {CHROMIUM_ENV} to its \
             executable"
        ))
    })
}
