//! `df64gl`: device information, the driver probe (Thall's Table I) and the df64 accuracy
//! tables (Table II, Warwick's statistics) on the chosen OpenGL device.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};

use df64gl::experiments::accuracy::{run_accuracy, AccuracyOptions};
use df64gl::experiments::bench::{run_fft_bench, FftBenchOptions};
use df64gl::experiments::browser::{
    find_chromium, measure_export_in_browser, BrowserBackend, CHROMIUM_ENV,
};
use df64gl::experiments::export_check::measure_export;
use df64gl::experiments::lengths::{run_length_sweep, LengthSweepOptions};
use df64gl::experiments::mandelbrot::{
    parse_image_size, render_views, side_by_side, MandelPrecision, MandelbrotApp, MandelbrotView,
    DEFAULT_CENTER,
};
use df64gl::experiments::ops_bench::{run_op_bench, OpBenchOptions};
use df64gl::experiments::repro::{check_out_dir, run_repro, ReproOptions};
use df64gl::experiments::selftest::{run_selftests, ProgramFamily};
use df64gl::experiments::web::write_web_page;
use df64gl::experiments::{exit_code, ExperimentError, Session};
use df64gl::fft::TwiddleSource;
use df64gl::gl::{list_devices, run_windowed, DeviceChoice, GlContext, MesaDriver, WindowOptions};
use df64gl::kernels::Df64Kernels;
use df64gl::kernels::Df64Op;
use df64gl::probe::snippet::{check_snippet, probe_shader, snippet, SnippetOptions, SnippetTarget};
use df64gl::probe::{probe_driver, run_probe, store_cached, DEFAULT_SAMPLES};

#[derive(Parser)]
#[command(
    name = "df64gl",
    version,
    about = "Double-float (df64) arithmetic as OpenGL fragment programs, measured on your driver"
)]
struct Cli {
    /// EGL device: `auto` (a GPU if there is one), an index from `df64gl info --devices`, or a
    /// name fragment such as `nvidia` or `software`. Also read from DF64GL_DEVICE.
    #[arg(long, global = true)]
    device: Option<String>,

    /// Print JSON instead of tables.
    #[arg(long, global = true)]
    json: bool,

    /// Mesa driver to run on (sets GALLIUM_DRIVER / MESA_LOADER_DRIVER_OVERRIDE before the
    /// first EGL call): llvmpipe, softpipe or zink (zink needs mesa-vulkan-drivers).
    #[arg(long, global = true, value_name = "DRIVER")]
    gl_driver: Option<MesaDriver>,

    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// The OpenGL device, driver, versions, limits and extensions that matter.
    Info {
        /// List every EGL device instead of opening one.
        #[arg(long)]
        devices: bool,
    },
    /// Measure the driver's f32 arithmetic and error-free transforms (Thall's Table I) and
    /// show the configuration df64 programs will use.
    Probe {
        /// Inputs per test.
        #[arg(long, default_value_t = DEFAULT_SAMPLES)]
        samples: usize,
    },
    /// Build every df64 and qf128 program (element-wise kernels, every FFT pass variant,
    /// Mandelbrot) so each runs its known-answer self-test against the CPU mirror here; list
    /// the outcome and the cost against the compile time. Exit status 4 if one is refused.
    Selftest {
        /// Test every program again, ignoring (and not writing) the record of what passed.
        #[arg(long)]
        fresh: bool,
        /// Probe the driver again instead of using the cached result.
        #[arg(long)]
        reprobe: bool,
        /// Only these families of programs (default: all).
        #[arg(long, value_delimiter = ',')]
        only: Vec<ProgramFamily>,
    },
    /// Table II: max and RMS error of each df64 op in ulp48 on the GPU, with Warwick's
    /// statistics and each op's cost relative to an f32 add.
    Accuracy {
        /// Random inputs per operation.
        #[arg(long, default_value_t = 1 << 22)]
        samples: usize,
        /// Operations to measure (default: the accurate defaults and Thall's variants).
        #[arg(long, value_delimiter = ',')]
        ops: Vec<Df64Op>,
        /// Inputs for Warwick's statistics; 0 skips them.
        #[arg(long, default_value_t = 1 << 20)]
        warwick_samples: usize,
        /// Skip the cost measurement.
        #[arg(long)]
        no_cost: bool,
        #[arg(long, default_value_t = 2007)]
        seed: u64,
        /// Probe the driver again instead of using the cached result.
        #[arg(long)]
        reprobe: bool,
        /// Exit with status 1 when an accurate op misses its target or a result differs from
        /// the CPU mirror on a round-to-nearest driver.
        #[arg(long)]
        check: bool,
        /// Inputs per df64 function row (elementary functions against the oracle); 0 skips.
        #[arg(long, default_value_t = 1 << 22)]
        function_samples: usize,
        /// Inputs per qf128 row; 0 skips the qf128 table.
        #[arg(long, default_value_t = 1 << 22)]
        qf128_samples: usize,
        /// Inputs for Da Graca and Defour's Table 5; 0 skips it.
        #[arg(long, default_value_t = 1 << 24)]
        dagraca_samples: usize,
        /// Every table at 2^16 inputs (2^20 for Table 5): minutes instead of most of an hour.
        #[arg(long)]
        quick: bool,
        /// Draw the op rows' operands as (1 + u) 2^k with k uniform in [-E, E] and random
        /// signs, instead of Thall's ranges: max and rms then count results of magnitude 2^-100
        /// to 2^126 (beyond 2^-126 absolute on drivers that flush subnormals), and results
        /// outside must follow the IEEE rules (overflow to ±inf, never NaN). At most 127.
        #[arg(long, value_name = "E", value_parser = clap::value_parser!(i32).range(0..=127))]
        exponents: Option<i32>,
    },
    /// Print df64 GLSL for another renderer: one self-contained file for a GLSL target, or
    /// the probe shader that checks a driver keeps twoSum and twoProd exact.
    Glsl {
        /// GLSL dialect: 330 (core), 450 (core, `precise`) or es300 (GLSL ES 3.00 / WebGL 2).
        #[arg(long, default_value = "450")]
        target: SnippetTarget,
        /// Include qf128.glsl.
        #[arg(long)]
        qf128: bool,
        /// Leave out df64_func.glsl (exp, log, trigonometry, ...).
        #[arg(long)]
        no_functions: bool,
        /// Print the probe fragment shader instead (green: exact, red: not).
        #[arg(long)]
        probe: bool,
        /// Run the probe shader on this device (es300 through an OpenGL ES context) and exit
        /// 1 unless every pixel is green.
        #[arg(long)]
        check: bool,
        /// Without `precise`, also leave out the barrier (to see what goes wrong: the probe shader
        /// must turn red).
        #[arg(long)]
        no_fallback: bool,
        /// Paste the snippet into a plain program of its GLSL version on this device and
        /// measure add, sub, mul, div, sqrt, exp, log, sin and cos against the oracle and the
        /// CPU mirror; exit 1 if one misses its bound.
        #[arg(long)]
        measure: bool,
        /// Operand pairs per routine for --measure.
        #[arg(long, default_value_t = 1 << 16)]
        samples: usize,
        /// With --measure and --target es300: run the page in WebGL 2 in headless Chromium
        /// (DF64GL_CHROMIUM or chromium on the PATH) on this ANGLE backend instead of a native
        /// GLES context.
        #[arg(long)]
        browser: Option<BrowserBackend>,
        /// Write to this file instead of standard output.
        #[arg(long)]
        output: Option<std::path::PathBuf>,
    },
    /// Reproduce the papers' experiments (Thall Tables I, II and FFT study; Da Graca and
    /// Defour Tables 3 to 5; Warwick Tables 1 to 4) and write a report folder: REPORT.md,
    /// report.json and PNG plots, published values beside this driver's.
    Repro {
        /// The report folder.
        #[arg(long, default_value = "repro-report")]
        out: std::path::PathBuf,
        /// Smaller samples and sizes (under two minutes on llvmpipe).
        #[arg(long)]
        quick: bool,
        /// Overwrite the files of an existing report folder.
        #[arg(long)]
        force: bool,
        #[arg(long, default_value_t = 2007)]
        seed: u64,
    },
    /// Mandelbrot deep zoom in f32, df64 and qf128 from the df64 GLSL snippets: a PNG, or an
    /// interactive window (drag: pan, wheel or +/-: zoom, 1/2/3: precision, Esc: quit).
    Mandelbrot {
        /// The view's center as X,Y in decimal, any number of digits (qf128 keeps ~29).
        #[arg(long, default_value = DEFAULT_CENTER, allow_hyphen_values = true)]
        center: String,
        /// The view is 3 x zoom wide in the complex plane (1: the whole set).
        #[arg(long, default_value_t = 1e-13, allow_hyphen_values = true)]
        zoom: f64,
        /// f32, df64, qf128, or all three side by side.
        #[arg(long, default_value = "df64")]
        precision: MandelChoice,
        /// Image (or window) size in pixels, WIDTHxHEIGHT.
        #[arg(long, default_value = "640x480")]
        size: String,
        /// Iteration limit (default: grows with the zoom depth).
        #[arg(long)]
        iterations: Option<u32>,
        /// PNG to write (headless).
        #[arg(long, default_value = "mandelbrot.png")]
        out: std::path::PathBuf,
        /// Open a window instead (needs a display).
        #[arg(long)]
        window: bool,
        /// Close the window after this many frames (scripts, tests).
        #[arg(long)]
        frames: Option<u64>,
    },
    /// Write a self-contained WebGL 2 page (one HTML file, no network) that self-tests the
    /// es300 df64 export in the browser that opens it and draws a Mandelbrot deep zoom in f32
    /// next to df64 and qf128, with mouse pan and wheel zoom.
    Web {
        /// Folder to create; the page is its index.html.
        #[arg(long, default_value = "df64gl-web")]
        out: std::path::PathBuf,
        /// Write into the folder even if it exists (overwrites its index.html).
        #[arg(long)]
        force: bool,
    },
    /// Benchmarks, as ratios taken in one run.
    Bench {
        #[command(subcommand)]
        what: BenchCommand,
    },
}

#[derive(Subcommand)]
enum BenchCommand {
    /// FFT: f32, df64 (radix 2 and 4) and qf128 on the GPU against rustfft f64 on the host.
    Fft {
        /// Smallest log2 N.
        #[arg(long, default_value_t = 10)]
        min_log2: u32,
        /// Largest log2 N.
        #[arg(long, default_value_t = 22)]
        max_log2: u32,
        /// Largest log2 N for qf128.
        #[arg(long, default_value_t = 20)]
        qf128_max_log2: u32,
        /// Timed repetitions per transform (the best counts).
        #[arg(long, default_value_t = 3)]
        repeats: usize,
        /// Twiddles from the W_long table or computed in the shader.
        #[arg(long, default_value = "table")]
        twiddles: TwiddleSource,
    },
    /// FFT accuracy at every length (Bluestein where N is not a power of two) against
    /// rustfft, the DFT by its definition and the double-double DFT; Bluestein's cost.
    Lengths {
        /// Every N in 1..=this, f32 and df64.
        #[arg(long, default_value_t = 4096)]
        every_up_to: usize,
        /// Every N in 1..=this, qf128.
        #[arg(long, default_value_t = 64)]
        qf128_every_up_to: usize,
        /// Further f32 and df64 lengths (comma-separated; default: powers of ten and primes
        /// up to 10^6).
        #[arg(long, value_delimiter = ',')]
        lengths: Option<Vec<usize>>,
        /// Further qf128 lengths (default: 100, 127, 1000, 1009, 4093, 4095, 4096).
        #[arg(long, value_delimiter = ',')]
        qf128_lengths: Option<Vec<usize>>,
        /// Bluestein's cost: df64 at this N over the power of two it pads to (0: skip).
        #[arg(long, default_value_t = 1_000_000)]
        cost_length: usize,
        /// Timed repetitions for the cost (the best counts).
        #[arg(long, default_value_t = 3)]
        repeats: usize,
        /// Exit with 1 when a group misses its accuracy target.
        #[arg(long)]
        check: bool,
    },
    /// Throughput of f32, df64, qf128 and native double ops, as ratios to the f32 add and
    /// speed-ups over double (Warwick's Table 2 measure).
    Ops {
        /// Texels per timed pass.
        #[arg(long, default_value_t = 1 << 16)]
        texels: usize,
        /// Chains grow until they take this many seconds longer than an empty pass.
        #[arg(long, default_value_t = 0.02)]
        min_seconds: f64,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum MandelChoice {
    F32,
    Df64,
    Qf128,
    All,
}

/// "640x480" to (640, 480).
fn progress_bar() -> ProgressBar {
    let bar = ProgressBar::new(1);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} {msg} [{elapsed}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// The callback experiments report progress through: (done, total, what).
fn progress(bar: &ProgressBar) -> impl FnMut(usize, usize, &str) + '_ {
    |done, total, label| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
        bar.set_message(label.to_string());
    }
}

/// A report as JSON with `--json`, else as its text table.
fn print_report<T: serde::Serialize>(
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
fn kernels_on(device: &DeviceChoice) -> Result<Df64Kernels, ExperimentError> {
    let session = Session::open(device, false)?;
    Ok(Df64Kernels::new(&session.ctx, &session.probe)?)
}

fn print_json<T: serde::Serialize>(value: &T) -> Result<(), ExperimentError> {
    let text = serde_json::to_string_pretty(value)
        .map_err(|e| ExperimentError::Invalid(format!("JSON output: {e}")))?;
    println!("{text}");
    Ok(())
}

fn run(cli: Cli) -> Result<ExitCode, ExperimentError> {
    if let Some(driver) = cli.gl_driver {
        driver.select()?;
    }
    let device = DeviceChoice::from_arg_or_env(cli.device.as_deref());
    match cli.command {
        Command::Info { devices } => {
            if devices {
                let list = list_devices()?;
                if cli.json {
                    print_json(&list)?;
                } else {
                    for d in &list {
                        println!("{}", d.label());
                        println!("    extensions: {}", d.extensions.join(" "));
                    }
                }
                return Ok(ExitCode::SUCCESS);
            }
            let ctx = GlContext::headless(&device)?;
            let info = ctx.info();
            if cli.json {
                print_json(info)?;
            } else {
                println!("device:        {}", info.device);
                println!("vendor:        {}", info.vendor);
                println!("renderer:      {}", info.renderer);
                println!("OpenGL:        {}", info.version);
                println!(
                    "GLSL:          {} (shaders use #version {})",
                    info.glsl_version, info.glsl_number
                );
                println!("max texture:   {} texels", info.max_texture_size);
                println!(
                    "color attach.: {} (draw buffers {})",
                    info.max_color_attachments, info.max_draw_buffers
                );
                println!(
                    "precise:       {}",
                    if info.has_precise() { "yes" } else { "no" }
                );
                println!(
                    "fp64 shaders:  {}",
                    if info.gpu_shader_fp64 { "yes" } else { "no" }
                );
                println!(
                    "gpu_shader5:   {}",
                    if info.gpu_shader5 { "yes" } else { "no" }
                );
                println!(
                    "timer queries: {}",
                    if info.timer_query { "yes" } else { "no" }
                );
                println!("extensions:    {}", info.extensions_of_interest.join(" "));
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Probe { samples } => {
            let ctx = GlContext::headless(&device)?;
            let report = if samples == DEFAULT_SAMPLES {
                probe_driver(&ctx, true)?
            } else {
                let r = run_probe(&ctx, samples.max(1))?;
                let _ = store_cached(&r);
                r
            };
            print_report(cli.json, &report, |r| r.table())?;
            Ok(if report.config.is_some() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(exit_code::REFUSED)
            })
        }
        Command::Selftest {
            fresh,
            reprobe,
            only,
        } => {
            let session = Session::open(&device, reprobe)?;
            let report = run_selftests(&session, fresh, &only)?;
            print_report(cli.json, &report, |r| r.table())?;
            Ok(if report.refused.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(exit_code::REFUSED)
            })
        }
        Command::Accuracy {
            samples,
            ops,
            warwick_samples,
            no_cost,
            seed,
            reprobe,
            check,
            function_samples,
            qf128_samples,
            dagraca_samples,
            quick,
            exponents,
        } => {
            let session = Session::open(&device, reprobe)?;
            let q = |n: usize, small: usize| if quick { n.min(small) } else { n };
            let mut options = AccuracyOptions {
                samples: q(samples, 1 << 16),
                seed,
                warwick_samples: q(warwick_samples, 1 << 16),
                cost: !no_cost,
                function_samples: q(function_samples, 1 << 16),
                qf128_samples: q(qf128_samples, 1 << 16),
                dagraca_samples: q(dagraca_samples, 1 << 20),
                exponents,
                ..AccuracyOptions::default()
            };
            if !ops.is_empty() {
                options.ops = ops;
            }
            let bar = progress_bar();
            let report = run_accuracy(&session, &options, &mut progress(&bar))?;
            bar.finish_and_clear();
            print_report(cli.json, &report, |r| r.table())?;
            let failures = report.failures();
            if check && !failures.is_empty() {
                for f in failures {
                    eprintln!("df64gl: {f}");
                }
                return Ok(ExitCode::from(1));
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Glsl {
            target,
            qf128,
            no_functions,
            probe,
            check,
            no_fallback,
            measure,
            samples,
            browser,
            output,
        } => {
            let options = SnippetOptions {
                target,
                functions: !no_functions,
                qf128,
                no_fallback,
            };
            if browser.is_some() && !measure {
                return Err(ExperimentError::Invalid(
                    "--browser goes with --measure (the page measures the export)".into(),
                ));
            }
            if measure {
                let report = if let Some(backend) = browser {
                    let chromium = find_chromium().ok_or_else(|| {
                        ExperimentError::Invalid(format!(
                            "--browser needs Chromium: apt-get install chromium, or set \
                             {CHROMIUM_ENV} to its executable"
                        ))
                    })?;
                    measure_export_in_browser(&chromium, backend, &options, samples, 2026)?
                } else {
                    let ctx = if target.is_es() {
                        GlContext::headless_gles(&device)?
                    } else {
                        GlContext::headless(&device)?
                    };
                    measure_export(&ctx, &options, samples, 2026)?
                };
                print_report(cli.json, &report, |r| r.table())?;
                let failures = report.failures();
                for f in &failures {
                    eprintln!("df64gl: {f}");
                }
                return Ok(if failures.is_empty() {
                    ExitCode::SUCCESS
                } else {
                    ExitCode::from(1)
                });
            }
            if check {
                let ctx = if target.is_es() {
                    GlContext::headless_gles(&device)?
                } else {
                    GlContext::headless(&device)?
                };
                let result = check_snippet(&ctx, &options)?;
                if cli.json {
                    print_json(&result)?;
                } else {
                    println!(
                        "{} probe shader on {} ({}): {} of {} pixels exact{}",
                        target.version_line(),
                        ctx.info().renderer,
                        ctx.info().version,
                        result.green,
                        result.pixels,
                        if result.passed() {
                            ": df64 is safe to use here"
                        } else {
                            ": this driver breaks the error-free transforms; do not use df64 here"
                        }
                    );
                }
                return Ok(if result.passed() {
                    ExitCode::SUCCESS
                } else {
                    ExitCode::from(1)
                });
            }
            let text = if probe {
                probe_shader(&options)?
            } else {
                snippet(&options)?
            };
            match output {
                Some(path) => std::fs::write(&path, text)
                    .map_err(|e| ExperimentError::Io(path.display().to_string(), e))?,
                None => {
                    use std::io::Write;
                    // A closed pipe (`| head`) is not an error worth a message.
                    let _ = std::io::stdout().write_all(text.as_bytes());
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Repro {
            out,
            quick,
            force,
            seed,
        } => {
            // Refuse an existing folder before minutes of measurement, not after.
            check_out_dir(&out, force)?;
            let session = Session::open(&device, false)?;
            let options = ReproOptions {
                out: out.clone(),
                quick,
                force,
                seed,
            };
            let bar = progress_bar();
            let (report, plots) = run_repro(&session, &options, &mut progress(&bar))?;
            bar.finish_and_clear();
            report.write(&out, &plots)?;
            if cli.json {
                print_json(&report)?;
            } else {
                println!(
                    "{} tables and {} plots in {} ({:.0} s); see {}",
                    report.tables.len(),
                    plots.len(),
                    out.display(),
                    report.seconds,
                    out.join("REPORT.md").display()
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Mandelbrot {
            center,
            zoom,
            precision,
            size,
            iterations,
            out,
            window,
            frames,
        } => {
            let (width, height) = parse_image_size(&size)?;
            let view = MandelbrotView::parse(&center, zoom, width, height, iterations)?;
            let first = match precision {
                MandelChoice::F32 => MandelPrecision::F32,
                MandelChoice::Qf128 => MandelPrecision::Qf128,
                MandelChoice::Df64 | MandelChoice::All => MandelPrecision::Df64,
            };
            if window {
                let mut app = MandelbrotApp::new(view, first);
                let options = WindowOptions {
                    title: app.title_text(),
                    width,
                    height,
                    max_frames: frames,
                };
                run_windowed(options, &mut app)?;
                eprintln!("{} frames; last title: {}", app.frames, app.title_text());
                return Ok(ExitCode::SUCCESS);
            }
            let precisions: Vec<MandelPrecision> = if precision == MandelChoice::All {
                MandelPrecision::ALL.to_vec()
            } else {
                vec![first]
            };
            let kernels = kernels_on(&device)?;
            let (images, run) = render_views(&kernels, &view, &precisions)?;
            side_by_side(&images).write_png(&out)?;
            if cli.json {
                print_json(&run)?;
            } else {
                println!(
                    "center {:.17}, {:.17}, zoom {:e} (pixel {:.3e}), {} iterations, {}x{} -> {}",
                    run.center.0,
                    run.center.1,
                    run.zoom,
                    run.pixel_size,
                    run.iterations,
                    run.width,
                    run.height,
                    out.display()
                );
                for i in &run.images {
                    println!(
                        "{:>6}: {:.3} s on the GPU, {} distinct values, {:.1}% of neighbours equal \
                         (blockiness), {:.1}% escaped{}",
                        i.precision.name(),
                        i.gpu_seconds,
                        i.stats.distinct,
                        100.0 * i.stats.equal_neighbours,
                        100.0 * i.stats.escaped,
                        i.agreement_with_qf128
                            .map(|a| format!(", {:.1}% of pixels agree with qf128", 100.0 * a))
                            .unwrap_or_default()
                    );
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Web { out, force } => {
            let page = write_web_page(&out, force)?;
            println!(
                "wrote {} (open it in a browser; its self-test verdict is the element \
                 #df64-selftest)",
                page.display()
            );
            Ok(ExitCode::SUCCESS)
        }
        Command::Bench {
            what:
                BenchCommand::Ops {
                    texels,
                    min_seconds,
                },
        } => {
            let kernels = kernels_on(&device)?;
            let options = OpBenchOptions {
                texels,
                min_seconds,
                ..OpBenchOptions::default()
            };
            let bar = progress_bar();
            let report = run_op_bench(&kernels, &options, &mut progress(&bar))?;
            bar.finish_and_clear();
            print_report(cli.json, &report, |r| r.table())?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Bench {
            what:
                BenchCommand::Lengths {
                    every_up_to,
                    qf128_every_up_to,
                    lengths,
                    qf128_lengths,
                    cost_length,
                    repeats,
                    check,
                },
        } => {
            let kernels = kernels_on(&device)?;
            let defaults = LengthSweepOptions::default();
            let options = LengthSweepOptions {
                every_up_to,
                qf128_every_up_to,
                large: lengths.unwrap_or(defaults.large),
                qf128_large: qf128_lengths.unwrap_or(defaults.qf128_large),
                cost_length,
                repeats,
                ..defaults
            };
            let bar = progress_bar();
            let report = run_length_sweep(&kernels, &options, &mut |label| {
                bar.set_message(label.to_string());
                bar.tick();
            })?;
            bar.finish_and_clear();
            print_report(cli.json, &report, |r| r.table())?;
            if check && !report.met() {
                return Ok(ExitCode::from(1));
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Bench {
            what:
                BenchCommand::Fft {
                    min_log2,
                    max_log2,
                    qf128_max_log2,
                    repeats,
                    twiddles,
                },
        } => {
            let kernels = kernels_on(&device)?;
            let options = FftBenchOptions {
                min_log2,
                max_log2,
                qf128_max_log2,
                repeats,
                twiddles,
            };
            let bar = progress_bar();
            let report = run_fft_bench(&kernels, &options, &mut progress(&bar))?;
            bar.finish_and_clear();
            print_report(cli.json, &report, |r| r.table())?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("df64gl: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
