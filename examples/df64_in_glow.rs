//! df64 in someone else's glow program: paste the exported module into your own shader, set
//! the barrier uniform it asks for, prove it once on your context with
//! `df64gl::export::check_context` (the probe shader and the routines your
//! shaders call on known answers, in the vertex and the fragment stage: the same check as the
//! npm module's `check(gl)`), then draw with it. Nothing of
//! df64gl's engine is used past getting the text, the check and (here) a headless context; in
//! your renderer `gl` is your own `glow::Context`.
//!
//! `cargo run --release --example df64_in_glow [330|450|es300]`

use glow::HasContext;

use df64gl::export::{check_context, snippet, SnippetOptions, SnippetTarget};
use df64gl::gl::{DeviceChoice, GlContext};

type Error = Box<dyn std::error::Error>;

/// A program from a full-screen-triangle vertex shader and `fragment`.
fn build(gl: &glow::Context, version: &str, fragment: &str) -> Result<glow::Program, Error> {
    let vertex = format!(
        "{version}\nvoid main() {{ vec2 p = vec2(float((gl_VertexID << 1) & 2), \
         float(gl_VertexID & 2)); gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0); }}\n"
    );
    unsafe {
        let program = gl.create_program()?;
        for (kind, src) in [
            (glow::VERTEX_SHADER, vertex.as_str()),
            (glow::FRAGMENT_SHADER, fragment),
        ] {
            let s = gl.create_shader(kind)?;
            gl.shader_source(s, src);
            gl.compile_shader(s);
            if !gl.get_shader_compile_status(s) {
                return Err(format!("compile: {}", gl.get_shader_info_log(s)).into());
            }
            gl.attach_shader(program, s);
            gl.delete_shader(s);
        }
        gl.link_program(program);
        if !gl.get_program_link_status(program) {
            return Err(format!("link: {}", gl.get_program_info_log(program)).into());
        }
        gl.use_program(Some(program));
        // The es300 (and shader5-less 330) export's bit barrier: 0, its default; set it anyway.
        if let Some(zero) = gl.get_uniform_location(program, "u_df64_zero") {
            gl.uniform_1_u32(Some(&zero), 0);
        }
        Ok(program)
    }
}

/// Draws `program` into a fresh `w` x `h` target of `format` and reads it back.
fn draw<T: bytemuck::Pod + Default>(
    gl: &glow::Context,
    format: u32,
    (w, h): (i32, i32),
) -> Result<Vec<T>, Error> {
    let (read_format, read_type, per_texel) = if format == glow::RGBA8 {
        (glow::RGBA, glow::UNSIGNED_BYTE, 4)
    } else {
        (glow::RGBA, glow::FLOAT, 16)
    };
    unsafe {
        let tex = gl.create_texture()?;
        gl.bind_texture(glow::TEXTURE_2D, Some(tex));
        gl.tex_storage_2d(glow::TEXTURE_2D, 1, format, w, h);
        let fb = gl.create_framebuffer()?;
        gl.bind_framebuffer(glow::FRAMEBUFFER, Some(fb));
        gl.framebuffer_texture_2d(
            glow::FRAMEBUFFER,
            glow::COLOR_ATTACHMENT0,
            glow::TEXTURE_2D,
            Some(tex),
            0,
        );
        gl.viewport(0, 0, w, h);
        gl.draw_arrays(glow::TRIANGLES, 0, 3);
        let mut out = vec![T::default(); (w * h) as usize * per_texel / std::mem::size_of::<T>()];
        gl.read_pixels(
            0,
            0,
            w,
            h,
            read_format,
            read_type,
            glow::PixelPackData::Slice(Some(bytemuck::cast_slice_mut(&mut out))),
        );
        gl.delete_framebuffer(fb);
        gl.delete_texture(tex);
        Ok(out)
    }
}

fn main() -> Result<(), Error> {
    let target = match std::env::args().nth(1).as_deref() {
        None | Some("330") => SnippetTarget::Glsl330,
        Some("450") => SnippetTarget::Glsl450,
        Some("es300") => SnippetTarget::Es300,
        Some(other) => return Err(format!("unknown target {other:?}: 330, 450 or es300").into()),
    };
    // Your renderer's context (GLES for es300, as WebGL 2 is); a headless one here.
    let ctx = if target.is_es() {
        GlContext::headless_gles(&DeviceChoice::Auto)?
    } else {
        GlContext::headless(&DeviceChoice::Auto)?
    };
    let gl = ctx.gl();
    unsafe {
        let vao = gl.create_vertex_array()?;
        gl.bind_vertex_array(Some(vao));
    }
    let version = target.version_line();
    let header = if target.is_es() {
        format!("{version}\nprecision highp float;\nprecision highp int;\n")
    } else {
        format!("{version}\n")
    };
    // What `df64gl glsl --target ...` prints: the text you paste.
    let options = SnippetOptions::new(target);
    let df64 = snippet(&options)?;

    // 1. The check, once per context: the probe shader all green and the routines the shader
    // below calls within their bounds on the known answers, in both stages, or do not use df64
    // here (`None` instead of the list checks every routine).
    // SAFETY: `gl` is current on this thread (the context was made here).
    let verdict = unsafe { check_context(gl, &options, Some(&["div", "sqr"])) };
    println!(
        "check: {} (probe shader: {} of 4096 pixels green; {} routines)",
        verdict.reason,
        verdict.probe_green,
        verdict.routines.len()
    );
    if !verdict.pass {
        return Err(format!("df64 is not proven here: {}", verdict.reason).into());
    }

    // 2. Your own shader with df64 in it: pixel k computes 1/(k+1) and (1/(k+1))^2 in df64.
    let fragment = format!(
        "{header}{df64}\nout vec4 color;\nvoid main() {{\n    \
         float k = floor(gl_FragCoord.x) + 256.0 * floor(gl_FragCoord.y) + 1.0;\n    \
         vec2 r = df64_div(vec2(1.0, 0.0), vec2(k, 0.0));\n    \
         color = vec4(r, df64_sqr(r));\n}}\n"
    );
    build(gl, version, &fragment)?;
    let out: Vec<f32> = draw(gl, glow::RGBA32F, (256, 16))?;
    let mut worst: f64 = 0.0;
    for (i, px) in out.chunks_exact(4).enumerate() {
        let k = (i + 1) as f64;
        let recip = px[0] as f64 + px[1] as f64;
        let square = px[2] as f64 + px[3] as f64;
        worst = worst
            .max(((recip - 1.0 / k) * k).abs())
            .max(((square - 1.0 / (k * k)) * k * k).abs());
    }
    println!(
        "1/k and 1/k^2 for k = 1..4096 in df64 ({}): largest relative error {worst:.3e}",
        version
    );
    Ok(())
}
