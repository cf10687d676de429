//! `df64gl`: device information, the driver probe (Thall's Table I) and the df64 accuracy
//! tables (Table II, Warwick's statistics) on the chosen OpenGL device.

use std::process::ExitCode;

use clap::Parser;
use indicatif::{ProgressBar, ProgressStyle};

use df64gl::gl::{list_devices, run_windowed, DeviceChoice, GlContext, WindowOptions};
use df64gl::kernels::{Df64Kernels, Df64Op, TimedOp};
use df64gl::probe::snippet::{check_snippet, probe_shader, snippet, SnippetOptions};
use df64gl::probe::wgsl::{wgsl_export, WgslOptions};
use df64gl::probe::{probe_driver, run_probe, store_cached, DEFAULT_SAMPLES};
use df64gl_cli::experiments::accuracy::{run_accuracy, AccuracyOptions};
use df64gl_cli::experiments::bench::{run_fft_bench, FftBenchOptions};
use df64gl_cli::experiments::browser::{find_chromium, measure_export_in_browser, CHROMIUM_ENV};
use df64gl_cli::experiments::export_check::measure_export;
use df64gl_cli::experiments::js_module::write_js_module;
use df64gl_cli::experiments::lengths::{run_length_sweep, LengthSweepOptions};
use df64gl_cli::experiments::mandelbrot::{
    parse_image_size, render_views, side_by_side, MandelPrecision, MandelbrotApp, MandelbrotView,
};
use df64gl_cli::experiments::ops_bench::{run_op_bench, OpBenchOptions};
use df64gl_cli::experiments::repro::{check_out_dir, run_repro, ReproOptions};
use df64gl_cli::experiments::selftest::run_selftests;
use df64gl_cli::experiments::vertex_bench::run_vertex_bench;
use df64gl_cli::experiments::web::{write_web_page, WEBGPU_PAGE};
use df64gl_cli::experiments::wgsl_bench::{
    run_browser_wgsl_bench, run_wgsl_bench, WgslBenchOptions,
};
use df64gl_cli::experiments::wgsl_legs::wgsl_leg;
use df64gl_cli::experiments::{exit_code, ExperimentError, Session};

mod cli;

use cli::*;

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

/// What every command shares: the device and the output format.
struct Global {
    device: DeviceChoice,
    json: bool,
}

fn run(cli: Cli) -> Result<ExitCode, ExperimentError> {
    if let Some(driver) = cli.gl_driver {
        driver.select()?;
    }
    let global = Global {
        device: DeviceChoice::from_arg_or_env(cli.device.as_deref()),
        json: cli.json,
    };
    match cli.command {
        Command::Info(args) => info(&global, args),
        Command::Probe(args) => probe(&global, args),
        Command::Selftest(args) => selftest(&global, args),
        Command::Accuracy(args) => accuracy(&global, args),
        Command::Glsl(args) => glsl(&global, args),
        Command::Wgsl(args) => wgsl(&global, args),
        Command::Repro(args) => repro(&global, args),
        Command::Mandelbrot(args) => mandelbrot(&global, args),
        Command::Web(args) => web(&global, args),
        Command::Js(args) => js(&global, args),
        Command::Bench {
            what: BenchCommand::Ops(args),
        } => bench_ops(&global, args),
        Command::Bench {
            what: BenchCommand::Wgsl(args),
        } => bench_wgsl(&global, args),
        Command::Bench {
            what: BenchCommand::Lengths(args),
        } => bench_lengths(&global, args),
        Command::Bench {
            what: BenchCommand::Vertex(args),
        } => bench_vertex(&global, args),
        Command::Bench {
            what: BenchCommand::Fft(args),
        } => bench_fft(&global, args),
    }
}

/// `df64gl info`.
fn info(global: &Global, args: InfoArgs) -> Result<ExitCode, ExperimentError> {
    let InfoArgs { devices } = args;
    if devices {
        let list = list_devices()?;
        if global.json {
            print_json(&list)?;
        } else {
            for d in &list {
                println!("{}", d.label());
                println!("    extensions: {}", d.extensions.join(" "));
            }
        }
        return Ok(ExitCode::SUCCESS);
    }
    let ctx = GlContext::headless(&global.device)?;
    let info = ctx.info();
    if global.json {
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

/// `df64gl probe`.
fn probe(global: &Global, args: ProbeArgs) -> Result<ExitCode, ExperimentError> {
    let ProbeArgs { samples } = args;
    let ctx = GlContext::headless(&global.device)?;
    let report = if samples == DEFAULT_SAMPLES {
        probe_driver(&ctx, true)?
    } else {
        let r = run_probe(&ctx, samples.max(1))?;
        let _ = store_cached(&r);
        r
    };
    print_report(global.json, &report, |r| r.table())?;
    Ok(if report.config.is_some() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(exit_code::REFUSED)
    })
}

/// `df64gl selftest`.
fn selftest(global: &Global, args: SelftestArgs) -> Result<ExitCode, ExperimentError> {
    let SelftestArgs {
        fresh,
        reprobe,
        only,
    } = args;
    let session = Session::open(&global.device, reprobe)?;
    let report = run_selftests(&session, fresh, &only)?;
    print_report(global.json, &report, |r| r.table())?;
    Ok(if report.refused.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(exit_code::REFUSED)
    })
}

/// `df64gl accuracy`.
fn accuracy(global: &Global, args: AccuracyArgs) -> Result<ExitCode, ExperimentError> {
    let AccuracyArgs {
        samples,
        ops,
        warwick_samples,
        no_cost,
        seed,
        reprobe,
        check,
        function_samples,
        class_samples,
        qf128_samples,
        qf128_exponent_samples,
        dagraca_samples,
        vector_samples,
        quick,
        exponents,
    } = args;
    let session = Session::open(&global.device, reprobe)?;
    let q = |n: usize, small: usize| if quick { n.min(small) } else { n };
    let mut options = AccuracyOptions {
        samples: q(samples, 1 << 16),
        seed,
        warwick_samples: q(warwick_samples, 1 << 16),
        cost: !no_cost,
        function_samples: q(function_samples, 1 << 16),
        class_samples: q(class_samples, 1 << 8),
        qf128_samples: q(qf128_samples, 1 << 16),
        qf128_exponent_samples: q(qf128_exponent_samples, 1 << 12),
        dagraca_samples: q(dagraca_samples, 1 << 20),
        vector_samples: q(vector_samples, 1 << 8),
        exponents,
        ..AccuracyOptions::default()
    };
    if !ops.is_empty() {
        options.ops = ops;
    }
    let bar = progress_bar();
    let report = run_accuracy(&session, &options, &mut progress(&bar))?;
    bar.finish_and_clear();
    print_report(global.json, &report, |r| r.table())?;
    let failures = report.failures();
    if check && !failures.is_empty() {
        for f in failures {
            eprintln!("df64gl: {f}");
        }
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

/// `df64gl wgsl`.
fn wgsl(global: &Global, args: WgslArgs) -> Result<ExitCode, ExperimentError> {
    let WgslArgs {
        qf128,
        no_functions,
        group,
        binding,
        zero,
        unprotected,
        check,
        routines,
        output,
    } = args;
    if !check.is_empty() {
        let names: Vec<&str> = routines.iter().map(String::as_str).collect();
        let only = (!names.is_empty()).then_some(names.as_slice());
        let mut legs = Vec::new();
        for backend in check {
            legs.push(wgsl_leg(backend, qf128, only, None)?);
        }
        print_report(global.json, &legs, |legs| {
            legs.iter()
                .map(|l| l.table())
                .collect::<Vec<_>>()
                .join("\n")
        })?;
        let failed: Vec<&str> = legs
            .iter()
            .filter(|l| !l.protected.pass)
            .map(|l| l.leg.as_str())
            .collect();
        if !failed.is_empty() {
            eprintln!(
                "df64gl: the WGSL export misses a bound on {}",
                failed.join(", ")
            );
            return Ok(ExitCode::from(1));
        }
        return Ok(ExitCode::SUCCESS);
    }
    let text = wgsl_export(&WgslOptions {
        functions: !no_functions,
        qf128,
        group,
        binding,
        zero,
        protected: !unprotected,
    })?;
    write_or_print(output, &text)
}

/// `df64gl glsl`.
fn glsl(global: &Global, args: GlslArgs) -> Result<ExitCode, ExperimentError> {
    let GlslArgs {
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
    } = args;
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
                GlContext::headless_gles(&global.device)?
            } else {
                GlContext::headless(&global.device)?
            };
            measure_export(&ctx, &options, samples, 2026)?
        };
        print_report(global.json, &report, |r| r.table())?;
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
            GlContext::headless_gles(&global.device)?
        } else {
            GlContext::headless(&global.device)?
        };
        let result = check_snippet(&ctx, &options)?;
        if global.json {
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
    write_or_print(output, &text)
}

/// `text` to the file, or to standard output.
fn write_or_print(
    output: Option<std::path::PathBuf>,
    text: &str,
) -> Result<ExitCode, ExperimentError> {
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

/// `df64gl repro`.
fn repro(global: &Global, args: ReproArgs) -> Result<ExitCode, ExperimentError> {
    let ReproArgs {
        out,
        quick,
        force,
        seed,
    } = args;
    // Refuse an existing folder before minutes of measurement, not after.
    check_out_dir(&out, force)?;
    let session = Session::open(&global.device, false)?;
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
    if global.json {
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

/// `df64gl mandelbrot`.
fn mandelbrot(global: &Global, args: MandelbrotArgs) -> Result<ExitCode, ExperimentError> {
    let MandelbrotArgs {
        center,
        zoom,
        precision,
        size,
        iterations,
        out,
        window,
        frames,
    } = args;
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
    let kernels = kernels_on(&global.device)?;
    let (images, run) = render_views(&kernels, &view, &precisions)?;
    side_by_side(&images).write_png(&out)?;
    if global.json {
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

/// `df64gl web`.
fn web(global: &Global, args: WebArgs) -> Result<ExitCode, ExperimentError> {
    let WebArgs { out, force } = args;
    let page = write_web_page(&out, force)?;
    let webgpu = page.with_file_name(WEBGPU_PAGE);
    if global.json {
        print_json(&serde_json::json!({ "page": page, "webgpu_page": webgpu }))?;
    } else {
        println!(
            "wrote {} (WebGL 2) and {} (WebGPU); open one in a browser: its self-test verdict \
             is the element #df64-selftest (WebGPU needs a secure context: a file, localhost or \
             https)",
            page.display(),
            webgpu.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// `df64gl js`.
fn js(global: &Global, args: JsArgs) -> Result<ExitCode, ExperimentError> {
    let paths = write_js_module(&args.out, &args.assets)?;
    if global.json {
        print_json(&serde_json::json!({ "written": paths }))?;
    } else {
        for p in paths {
            println!("wrote {}", p.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `df64gl bench ops`.
fn bench_ops(global: &Global, args: BenchOpsArgs) -> Result<ExitCode, ExperimentError> {
    let BenchOpsArgs {
        texels,
        min_seconds,
    } = args;
    let kernels = kernels_on(&global.device)?;
    let options = OpBenchOptions {
        texels,
        min_seconds,
        ..OpBenchOptions::default()
    };
    let bar = progress_bar();
    let report = run_op_bench(&kernels, &options, &mut progress(&bar))?;
    bar.finish_and_clear();
    print_report(global.json, &report, |r| r.table())?;
    Ok(ExitCode::SUCCESS)
}

/// `df64gl bench vertex`.
fn bench_vertex(global: &Global, args: BenchVertexArgs) -> Result<ExitCode, ExperimentError> {
    let chromium = find_chromium().ok_or_else(|| {
        ExperimentError::Invalid(format!(
            "bench vertex needs Chromium: apt-get install chromium, or set {CHROMIUM_ENV} to its \
             executable"
        ))
    })?;
    let report = run_vertex_bench(&chromium, &args.browser, args.vertices as usize)?;
    print_report(global.json, &report, |r| r.table())?;
    Ok(ExitCode::SUCCESS)
}

/// `df64gl bench wgsl`.
fn bench_wgsl(global: &Global, args: BenchWgslArgs) -> Result<ExitCode, ExperimentError> {
    let BenchWgslArgs {
        backends,
        routines,
        pairs,
        lanes,
        no_luma,
        no_unprotected,
        no_glsl,
        chromium,
    } = args;
    let defaults = WgslBenchOptions::default();
    let options = WgslBenchOptions {
        backends,
        routines: if routines.is_empty() {
            defaults.routines.clone()
        } else {
            routines
        },
        pairs: pairs as usize,
        lanes,
        luma: if no_luma { None } else { defaults.luma.clone() },
        unprotected: !no_unprotected,
        ..defaults
    };
    let bar = progress_bar();
    let mut report = run_wgsl_bench(&options, &mut progress(&bar))?;
    if chromium {
        bar.set_message("Chromium WebGPU: js/bench/wgsl-fp64.html");
        let browser = find_chromium().ok_or_else(|| {
            ExperimentError::Invalid(format!(
                "--chromium needs Chromium: apt-get install chromium, or set {CHROMIUM_ENV}"
            ))
        })?;
        // The wgpu legs' figures stand without it: a failure here is a note.
        if let Err(e) = run_browser_wgsl_bench(&browser, &options.routines, &mut report) {
            report
                .notes
                .push(format!("the Chromium WebGPU leg failed: {e}"));
        }
    }
    // The same routines in df64gl's GLSL engine on this GL device, for the ratios beside them.
    let glsl = if no_glsl {
        None
    } else {
        let ops: Vec<TimedOp> = std::iter::once(Df64Op::F32Add)
            .chain(options.routines.iter().filter_map(|n| glsl_op(n)))
            .map(TimedOp::from)
            .collect();
        let kernels = kernels_on(&global.device)?;
        Some(run_op_bench(
            &kernels,
            &OpBenchOptions {
                ops,
                ..OpBenchOptions::default()
            },
            &mut progress(&bar),
        )?)
    };
    bar.finish_and_clear();
    let both = serde_json::json!({ "wgsl": report, "glsl": glsl });
    print_report(global.json, &both, |_| {
        let mut s = report.table();
        if let Some(g) = &glsl {
            s.push_str(&format!(
                "\nThe GLSL engine on this GL device, the same routines (ratios to its f32 add):\n{}",
                g.table()
            ));
        }
        s
    })?;
    let over: Vec<String> = report
        .rows
        .iter()
        .filter(|r| r.bound.is_some_and(|b| r.worst > b))
        .map(|r| format!("{} {} on {}", r.library, r.routine, r.leg))
        .collect();
    if !over.is_empty() {
        eprintln!("df64gl: over the bound: {}", over.join(", "));
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

/// The GLSL engine's op of a `bench wgsl` routine.
fn glsl_op(routine: &str) -> Option<Df64Op> {
    Some(match routine {
        "add" => Df64Op::Add,
        "sub" => Df64Op::Sub,
        "mul" => Df64Op::Mul,
        "div" => Df64Op::Div,
        "sqrt" => Df64Op::Sqrt,
        "exp" => Df64Op::Exp,
        "log" => Df64Op::Log,
        "sin" => Df64Op::Sin,
        "cos" => Df64Op::Cos,
        _ => return None,
    })
}

/// `df64gl bench lengths`.
fn bench_lengths(global: &Global, args: BenchLengthsArgs) -> Result<ExitCode, ExperimentError> {
    let BenchLengthsArgs {
        every_up_to,
        qf128_every_up_to,
        lengths,
        qf128_lengths,
        cost_length,
        mixed_length,
        repeats,
        check,
    } = args;
    let kernels = kernels_on(&global.device)?;
    let defaults = LengthSweepOptions::default();
    let options = LengthSweepOptions {
        every_up_to,
        qf128_every_up_to,
        large: lengths.unwrap_or(defaults.large),
        qf128_large: qf128_lengths.unwrap_or(defaults.qf128_large),
        cost_length,
        mixed_length,
        repeats,
        ..defaults
    };
    let bar = progress_bar();
    let report = run_length_sweep(&kernels, &options, &mut |label| {
        bar.set_message(label.to_string());
        bar.tick();
    })?;
    bar.finish_and_clear();
    print_report(global.json, &report, |r| r.table())?;
    if check && !report.met() {
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

/// `df64gl bench fft`.
fn bench_fft(global: &Global, args: BenchFftArgs) -> Result<ExitCode, ExperimentError> {
    let BenchFftArgs {
        min_log2,
        max_log2,
        qf128_max_log2,
        repeats,
        twiddles,
    } = args;
    let kernels = kernels_on(&global.device)?;
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
    print_report(global.json, &report, |r| r.table())?;
    Ok(ExitCode::SUCCESS)
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
