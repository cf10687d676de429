//! df64 GLSL for other people's renderers: one self-contained file per GLSL target (df64 core
//! and functions, qf128 optional) with its configuration written out, and a tiny probe shader
//! that paints green where the driver keeps the error-free transforms exact and red where not.
//!
//! Where GLSL has `precise` (4.00+), the file uses it. Where it has not (GLSL 3.30 without
//! GL_ARB_gpu_shader5, GLSL ES 3.00), every value the transforms depend on passes through
//! `df64_opaque(x) = x * u_df64_one`, a uniform the application sets to 1.0: the compiler cannot
//! know its value, so it cannot fold `(a + b) - a` into `b`. On llvmpipe, without it the probe
//! shader at `#version 330 core` is red (twoSum folded) and with it green (tested).

use glow::HasContext;

use crate::gl::{GlContext, GlError, GlslLibrary};

/// The GLSL dialect the snippet is written for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, clap::ValueEnum)]
pub enum SnippetTarget {
    /// `#version 330 core`: no `precise`; the `u_df64_one` fallback.
    #[value(name = "330")]
    Glsl330,
    /// `#version 450 core`: `precise`.
    #[value(name = "450")]
    Glsl450,
    /// `#version 300 es` (WebGL 2, GLES 3.0): no `precise`; the `u_df64_one` fallback.
    #[value(name = "es300")]
    Es300,
}

impl SnippetTarget {
    pub fn version_line(self) -> &'static str {
        match self {
            SnippetTarget::Glsl330 => "#version 330 core",
            SnippetTarget::Glsl450 => "#version 450 core",
            SnippetTarget::Es300 => "#version 300 es",
        }
    }

    pub fn has_precise(self) -> bool {
        self == SnippetTarget::Glsl450
    }

    pub fn is_es(self) -> bool {
        self == SnippetTarget::Es300
    }
}

#[derive(Debug, Clone, Copy)]
pub struct SnippetOptions {
    pub target: SnippetTarget,
    /// df64_func.glsl (exp, log, trigonometry, ...).
    pub functions: bool,
    /// qf128.glsl.
    pub qf128: bool,
    /// Keep the `precise`-free fallback off even where the target lacks `precise` (only to show
    /// what goes wrong: the probe shader then fails on drivers that fold).
    pub no_fallback: bool,
}

impl SnippetOptions {
    pub fn new(target: SnippetTarget) -> Self {
        SnippetOptions {
            target,
            functions: true,
            qf128: false,
            no_fallback: false,
        }
    }
}

const OPAQUE_DEFINITIONS: &str = "\
// No `precise` in this GLSL: every intermediate of the error-free transforms goes through
// df64_opaque(). SET u_df64_one TO 1.0 FROM THE APPLICATION (glUniform1f); the compiler cannot
// know its value, so it cannot rewrite (a + b) - a into b. Left at its default 0 every result
// is 0 (and the probe shader is red). Costs one multiply per intermediate.
// Limits, measured on llvmpipe: the probe and df64 (core and functions) stay exact; qf128
// does NOT: qf128_exp(1) keeps only about 1e-15 (the barrier protects named values, not the
// reassociation of longer expressions that `precise` forbids). For qf128 use `precise`
// (GLSL 4.00+, or GL_ARB_gpu_shader5 on 3.30).
uniform float u_df64_one;
float df64_opaque(float x) { return x * u_df64_one; }
vec2 df64_opaque(vec2 x) { return x * u_df64_one; }
vec3 df64_opaque(vec3 x) { return x * u_df64_one; }
vec4 df64_opaque(vec4 x) { return x * u_df64_one; }
";

/// Rewrites `DF64_PRECISE T name = expr;` into `T name = df64_opaque(expr);` and drops the
/// qualifier from declarations without an initializer (their later values are copies).
fn opaque_rewrite(source: &str) -> String {
    let mut out = String::with_capacity(source.len() + source.len() / 8);
    let mut rest = source;
    const KEY: &str = "DF64_PRECISE ";
    while let Some(pos) = rest.find(KEY) {
        let before = &rest[..pos];
        out.push_str(before);
        let after = &rest[pos + KEY.len()..];
        // A `#define DF64_PRECISE ...` or `#ifndef DF64_PRECISE` line, or a comment: keep.
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let line = &before[line_start..];
        if line.trim_start().starts_with('#') || line.contains("//") {
            out.push_str(KEY);
            rest = after;
            continue;
        }
        let Some(end) = after.find(';') else {
            out.push_str(after);
            return out;
        };
        let statement = &after[..end];
        match statement.split_once('=') {
            Some((decl, expr)) if !decl.contains('(') => {
                out.push_str(decl.trim_end());
                out.push_str(" = df64_opaque(");
                out.push_str(expr.trim());
                out.push_str(");");
            }
            _ => {
                out.push_str(statement);
                out.push(';');
            }
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    out
}

/// The modules' text one after the other, `#include` lines and comments-only headers kept,
/// each module once.
fn concatenate(names: &[&str]) -> Result<String, GlError> {
    let lib = GlslLibrary::builtin();
    let mut out = String::new();
    for name in names {
        let text = lib.get(name).ok_or_else(|| GlError::ModuleNotFound {
            name: name.to_string(),
            from: "df64gl glsl".into(),
            known: lib.names().collect::<Vec<_>>().join(", "),
        })?;
        out.push_str(&format!(
            "\n// ================================================================ {name}\n"
        ));
        for line in text.lines() {
            if line.trim_start().starts_with("#include") {
                continue;
            }
            out.push_str(line);
            out.push('\n');
        }
    }
    Ok(out)
}

/// The self-contained file: paste it after your `#version` line (and, for ES, your precision
/// statements) and before code that calls df64.
pub fn snippet(options: &SnippetOptions) -> Result<String, GlError> {
    let mut names = vec!["df64.glsl"];
    if options.functions {
        names.push("df64_func.glsl");
    }
    if options.qf128 {
        names.push("qf128.glsl");
    }
    let body = concatenate(&names)?;
    let target = options.target;
    let fallback = !target.has_precise() && !options.no_fallback;
    let mut out = format!(
        "// df64 for GLSL, generated by `df64gl glsl --target {}` ({}): {}.\n\
         // Paste after `{}`{}. Test your driver with `df64gl glsl --target {} --probe`.\n",
        match target {
            SnippetTarget::Glsl330 => "330",
            SnippetTarget::Glsl450 => "450",
            SnippetTarget::Es300 => "es300",
        },
        env!("CARGO_PKG_VERSION"),
        names.join(" + "),
        target.version_line(),
        if target.is_es() {
            " and `precision highp float; precision highp int;`"
        } else {
            ""
        },
        match target {
            SnippetTarget::Glsl330 => "330",
            SnippetTarget::Glsl450 => "450",
            SnippetTarget::Es300 => "es300",
        },
    );
    if target.has_precise() {
        out.push_str("#define DF64_PRECISE precise\n");
    } else {
        out.push_str("#define DF64_PRECISE\n");
    }
    out.push_str("#define DF64_TWOPROD_FMA 0\n");
    if fallback {
        out.push_str(OPAQUE_DEFINITIONS);
        out.push_str(&opaque_rewrite(&body));
    } else {
        out.push_str(&body);
    }
    Ok(out)
}

/// The probe fragment shader: each pixel checks twoSum, twoDiff, split and Dekker's twoProd
/// on inputs made from its coordinates (so nothing folds at compile time) against values
/// known exactly, and paints green (all exact) or red.
const PROBE_MAIN: &str = "
// ================================================================ df64 probe
// Green where this driver keeps df64's error-free transforms exact, red where it does not.
// Inputs come from gl_FragCoord, so the compiler cannot evaluate them; the expected error
// terms are known exactly (see the comments).
out vec4 df64_probe_color;

bool df64_probe_pixel(vec2 coord) {
    float i = floor(coord.x) + 2.0;            // 2, 3, 4, ...
    float k = mod(floor(coord.y), 64.0) + 1.0; // 1 .. 64
    // twoSum(i, k 2^-30): k 2^-30 <= 2^-24 is at most half an ulp of i >= 2 on either side
    // (a tie rounds to the even i), so s = i and e = k 2^-30.
    float small = k * 9.313225746154785e-10;
    vec2 s = df64_two_sum(i, small);
    bool ok = s.x == i && s.y == small;
    // twoDiff(i, k 2^-30): s = i, e = -k 2^-30.
    vec2 d = df64_two_diff(i, small);
    ok = ok && d.x == i && d.y == -small;
    // split: hi + lo == b exactly.
    float a = 1.0 + k * 2.44140625e-4;         // 1 + k 2^-12, exact
    float b = a * 1.000244140625;              // a (1 + 2^-12), rounded
    vec2 h = df64_split(b);
    ok = ok && h.x + h.y == b;
    // twoProd(a, a) = 1 + k 2^-11 + k^2 2^-24: the last term is below the f32 ulp (2^-23)
    // when k is odd, so the error term is +-2^-24 then, and 0 when k is even.
    vec2 p = df64_two_prod(a, a);
    bool odd = mod(k, 2.0) == 1.0;
    ok = ok && (odd ? abs(p.y) == 5.9604644775390625e-8 : p.y == 0.0);
    return ok;
}

void main() {
    df64_probe_color = df64_probe_pixel(gl_FragCoord.xy) ? vec4(0.0, 1.0, 0.0, 1.0)
                                                        : vec4(1.0, 0.0, 0.0, 1.0);
}
";

/// A complete fragment shader (version line included) that runs the probe with the df64 core
/// as `options` configures it.
pub fn probe_shader(options: &SnippetOptions) -> Result<String, GlError> {
    let core = SnippetOptions {
        functions: false,
        qf128: false,
        ..*options
    };
    let mut out = String::from(options.target.version_line());
    out.push('\n');
    if options.target.is_es() {
        out.push_str("precision highp float;\nprecision highp int;\n");
    }
    out.push_str(&snippet(&core)?);
    out.push_str(PROBE_MAIN);
    Ok(out)
}

/// The probe shader's result on one device.
#[derive(Debug, Clone, serde::Serialize)]
pub struct SnippetProbeResult {
    pub target: SnippetTarget,
    pub fallback: bool,
    pub pixels: usize,
    pub green: usize,
}

impl SnippetProbeResult {
    pub fn passed(&self) -> bool {
        self.green == self.pixels
    }
}

/// Compiles `fragment` (a complete shader for `target`) with a full-screen vertex shader,
/// draws it into a 64 x 64 RGBA8 target with `u_df64_one` = 1 and counts green pixels. For
/// es300 the context must be a GLES one ([`GlContext::headless_gles`]).
pub fn run_probe_shader(
    ctx: &GlContext,
    target: SnippetTarget,
    fragment: &str,
) -> Result<usize, GlError> {
    let vertex = format!(
        "{}\nvoid main() {{ vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2)); \
         gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0); }}\n",
        target.version_line()
    );
    const SIZE: i32 = 64;
    let gl = ctx.gl();
    unsafe {
        let compile =
            |kind: u32, src: &str, stage: &'static str| -> Result<glow::Shader, GlError> {
                let s = gl.create_shader(kind).map_err(GlError::Create)?;
                gl.shader_source(s, src);
                gl.compile_shader(s);
                if !gl.get_shader_compile_status(s) {
                    let log = gl.get_shader_info_log(s);
                    gl.delete_shader(s);
                    return Err(GlError::Compile {
                        stage,
                        program: format!("df64 probe shader ({})", target.version_line()),
                        log,
                    });
                }
                Ok(s)
            };
        let vs = compile(glow::VERTEX_SHADER, &vertex, "vertex")?;
        let fs = compile(glow::FRAGMENT_SHADER, fragment, "fragment")?;
        let program = gl.create_program().map_err(GlError::Create)?;
        gl.attach_shader(program, vs);
        gl.attach_shader(program, fs);
        gl.link_program(program);
        gl.delete_shader(vs);
        gl.delete_shader(fs);
        if !gl.get_program_link_status(program) {
            let log = gl.get_program_info_log(program);
            gl.delete_program(program);
            return Err(GlError::Link {
                program: "df64 probe shader".into(),
                log,
            });
        }
        let tex = gl.create_texture().map_err(GlError::Create)?;
        gl.bind_texture(glow::TEXTURE_2D, Some(tex));
        gl.tex_storage_2d(glow::TEXTURE_2D, 1, glow::RGBA8, SIZE, SIZE);
        let fb = gl.create_framebuffer().map_err(GlError::Create)?;
        gl.bind_framebuffer(glow::FRAMEBUFFER, Some(fb));
        gl.framebuffer_texture_2d(
            glow::FRAMEBUFFER,
            glow::COLOR_ATTACHMENT0,
            glow::TEXTURE_2D,
            Some(tex),
            0,
        );
        let vao = gl.create_vertex_array().map_err(GlError::Create)?;
        gl.bind_vertex_array(Some(vao));
        gl.viewport(0, 0, SIZE, SIZE);
        gl.use_program(Some(program));
        if let Some(loc) = gl.get_uniform_location(program, "u_df64_one") {
            gl.uniform_1_f32(Some(&loc), 1.0);
        }
        gl.draw_arrays(glow::TRIANGLES, 0, 3);
        let mut pixels = vec![0u8; (SIZE * SIZE * 4) as usize];
        gl.read_pixels(
            0,
            0,
            SIZE,
            SIZE,
            glow::RGBA,
            glow::UNSIGNED_BYTE,
            glow::PixelPackData::Slice(Some(&mut pixels)),
        );
        gl.bind_framebuffer(glow::FRAMEBUFFER, None);
        gl.bind_vertex_array(None);
        gl.delete_vertex_array(vao);
        gl.delete_framebuffer(fb);
        gl.delete_texture(tex);
        gl.delete_program(program);
        ctx.check("the df64 probe shader")?;
        Ok(pixels
            .chunks_exact(4)
            .filter(|p| p[0] == 0 && p[1] == 255 && p[2] == 0)
            .count())
    }
}

/// Builds the probe shader for `options` and runs it on `ctx`.
pub fn check_snippet(
    ctx: &GlContext,
    options: &SnippetOptions,
) -> Result<SnippetProbeResult, GlError> {
    let shader = probe_shader(options)?;
    let green = run_probe_shader(ctx, options.target, &shader)?;
    Ok(SnippetProbeResult {
        target: options.target,
        fallback: !options.target.has_precise() && !options.no_fallback,
        pixels: 64 * 64,
        green,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opaque_rewrite_wraps_initializers_only() {
        let src = "#define DF64_PRECISE precise\n// DF64_PRECISE   is `precise`; ok\n    \
                   DF64_PRECISE float s = a + b;\n    \
                   DF64_PRECISE vec2 t = f(\n  x, y);\n    DF64_PRECISE float u;\n";
        let out = opaque_rewrite(src);
        assert!(out.contains("#define DF64_PRECISE precise"), "{out}");
        assert!(
            out.contains("// DF64_PRECISE   is `precise`; ok\n"),
            "{out}"
        );
        assert!(out.contains("float s = df64_opaque(a + b);"), "{out}");
        assert!(out.contains("vec2 t = df64_opaque(f(\n  x, y));"), "{out}");
        assert!(out.contains("    float u;"), "{out}");
        assert!(!out.contains("DF64_PRECISE float"), "{out}");
    }

    #[test]
    fn snippets_carry_their_configuration() {
        let s = snippet(&SnippetOptions::new(SnippetTarget::Glsl450)).unwrap();
        assert!(s.contains("#define DF64_PRECISE precise") && !s.contains("u_df64_one"));
        assert!(s.contains("vec2 df64_exp(") && !s.contains("qf128_add("));
        let s = snippet(&SnippetOptions {
            qf128: true,
            ..SnippetOptions::new(SnippetTarget::Es300)
        })
        .unwrap();
        assert!(s.contains("uniform float u_df64_one;") && s.contains("qf128_add("));
        let directive = |d: &str| s.lines().any(|l| l.trim_start().starts_with(d));
        assert!(!directive("#include") && !directive("#version"));
    }
}
