//! `df64gl mandelbrot`: the deep zoom, headless to a PNG or in a window.

use crate::error::ExperimentError;
use crate::experiments::mandelbrot::{
    parse_image_size, render_views, side_by_side, MandelPrecision, MandelbrotApp, MandelbrotView,
};
use df64gl::gl::{run_windowed, WindowOptions};
use std::process::ExitCode;

use super::args::*;
use super::{kernels_on, print_json, Global};

/// `df64gl mandelbrot`.
pub(crate) fn mandelbrot(
    global: &Global,
    args: MandelbrotArgs,
) -> Result<ExitCode, ExperimentError> {
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
