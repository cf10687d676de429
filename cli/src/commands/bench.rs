//! `df64gl bench ops|vertex|wgsl|lengths|fft`: the benchmarks, each against the peer a user would pick.

use crate::error::ExperimentError;
use crate::experiments::bench::fft::{run_fft_bench, FftBenchOptions};
use crate::experiments::bench::lengths::{run_length_sweep, LengthSweepOptions};
use crate::experiments::bench::ops::{run_op_bench, OpBenchOptions};
use crate::experiments::bench::vertex::run_vertex_bench;
use crate::experiments::bench::wgsl::{run_browser_wgsl_bench, run_wgsl_bench, WgslBenchOptions};

use df64gl::kernels::{Df64Op, TimedOp};
use std::process::ExitCode;

use super::args::*;
use super::{kernels_on, print_report, progress, progress_bar, require_chromium, Global};

/// `df64gl bench ops`.
pub(crate) fn bench_ops(global: &Global, args: BenchOpsArgs) -> Result<ExitCode, ExperimentError> {
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
pub(crate) fn bench_vertex(
    global: &Global,
    args: BenchVertexArgs,
) -> Result<ExitCode, ExperimentError> {
    let chromium = require_chromium("bench vertex")?;
    let report = run_vertex_bench(&chromium, &args.browser, args.vertices as usize)?;
    print_report(global.json, &report, |r| r.table())?;
    Ok(ExitCode::SUCCESS)
}

/// `df64gl bench wgsl`.
pub(crate) fn bench_wgsl(
    global: &Global,
    args: BenchWgslArgs,
) -> Result<ExitCode, ExperimentError> {
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
        let browser = require_chromium("--chromium")?;
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
            .chain(options.routines.iter().filter_map(|n| Df64Op::from_name(n)))
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

/// `df64gl bench lengths`.
pub(crate) fn bench_lengths(
    global: &Global,
    args: BenchLengthsArgs,
) -> Result<ExitCode, ExperimentError> {
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
pub(crate) fn bench_fft(global: &Global, args: BenchFftArgs) -> Result<ExitCode, ExperimentError> {
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
