//! `df64gl info`: the device, its limits and extensions (`--devices`: every EGL device).

use crate::error::ExperimentError;
use df64gl::gl::{list_devices, GlContext};
use std::process::ExitCode;

use super::args::*;
use super::{print_json, Global};

/// `df64gl info`.
pub(crate) fn info(global: &Global, args: InfoArgs) -> Result<ExitCode, ExperimentError> {
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
