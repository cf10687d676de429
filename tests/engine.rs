//! The GL layer and the driver probe on the real device: textures, framebuffers (MRT),
//! ping-pong, timing, the GLSL module system with error-line mapping, error paths, and the
//! probe's decisions (including refusing a driver that breaks the error-free transforms).

mod common;

use df64gl::gl::{
    timed, Framebuffer, GlError, GlslLibrary, Layout, Pass, PingPong, Program, Texture, Uniform,
};
use df64gl::kernels::{Df64Kernels, KernelError};
use df64gl::probe::{load_cached, store_cached, Protection, TwoProdKind};

#[test]
fn probe_measures_this_driver() {
    let (ctx, report) = common::probed();
    let add = report.op("add").unwrap();
    assert!(add.samples > 10_000);
    assert!(add.min_ulp <= 0.0 && add.max_ulp >= 0.0);
    // Whatever the driver, a configuration exists only if its transforms were proven exact.
    if let Some(cfg) = report.config {
        let p = report.transform("twoSum", cfg.protection).unwrap();
        assert!(p.exact());
        if cfg.two_prod == TwoProdKind::Fma {
            assert!(report.fma_fused);
        }
    }
    if common::is_llvmpipe(&ctx) {
        // Measured facts of Mesa llvmpipe: correctly rounded f32, unfused fma, and a compiler
        // that folds (a + b) - a unless the intermediates are precise.
        for op in ["add", "sub", "mul", "div", "sqrt"] {
            let r = report.op(op).unwrap();
            assert_eq!(r.rounding, "nearest", "{op}: {r:?}");
            assert!(r.min_ulp >= -0.5 && r.max_ulp <= 0.5, "{op}: {r:?}");
        }
        assert!(report.ties_to_even && report.guard_digit);
        assert!(!report.fma_fused);
        let plain = report.transform("twoSum", Protection::None).unwrap();
        assert!(
            plain.wrong > 0.5,
            "plain twoSum should be broken: {plain:?}"
        );
        assert!(report
            .transform("twoSum", Protection::Precise)
            .unwrap()
            .exact());
        assert!(report
            .transform("twoSum", Protection::Barrier)
            .unwrap()
            .exact());
        let cfg = report.config.expect("llvmpipe is usable with precise");
        assert_eq!(cfg.protection, Protection::Precise);
        assert_eq!(cfg.two_prod, TwoProdKind::Dekker);
        assert!(report.round_to_nearest());
    }
    let table = report.table();
    assert!(
        table.contains("twoSum") && table.contains("decision:"),
        "{table}"
    );
}

#[test]
fn kernels_refuse_a_driver_without_exact_transforms() {
    let (ctx, mut report) = common::probed();
    report.config = None;
    report.decision = "df64 refused on this driver: twoSum returned wrong results".into();
    match Df64Kernels::new(&ctx, &report) {
        Err(KernelError::Refused(msg)) => assert!(msg.contains("twoSum"), "{msg}"),
        Err(e) => panic!("wrong error: {e}"),
        Ok(_) => panic!("kernels must refuse an unproven driver"),
    }
}

#[test]
fn probe_cache_round_trips_per_driver() {
    let dir = std::env::temp_dir().join(format!("df64gl-cache-test-{}", std::process::id()));
    // Only this test in this binary reads the variable.
    std::env::set_var("DF64GL_CACHE_DIR", &dir);
    let (ctx, report) = common::probed();
    let path = store_cached(&report).unwrap();
    assert!(path.starts_with(&dir));
    let back = load_cached(ctx.info()).expect("cached report loads");
    assert!(back.from_cache);
    assert_eq!(back.config, report.config);
    let mut other = ctx.info().clone();
    other.version.push_str(" (another build)");
    assert!(
        load_cached(&other).is_none(),
        "a different driver must not reuse the cache"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn textures_round_trip_and_enforce_limits() {
    let ctx = common::context();
    let data: Vec<f32> = (0..5 * 3 * 4).map(|i| i as f32 * 0.25 - 7.0).collect();
    let t = Texture::with_data(&ctx, 5, 3, &data).unwrap();
    assert_eq!(t.read::<f32>(&ctx).unwrap(), data);
    let max = ctx.info().max_texture_size;
    let e = Texture::new(&ctx, max + 1, 1).err().unwrap().to_string();
    assert!(e.contains(&max.to_string()), "{e}");
    let e = t.upload(&ctx, &data[..8]).unwrap_err();
    assert!(matches!(e, GlError::SizeMismatch { .. }), "{e}");
    let e = Layout::padded(usize::MAX / 64, 2, max)
        .unwrap_err()
        .to_string();
    assert!(e.contains("GL_MAX_TEXTURE_SIZE"), "{e}");
    // Odd log2 N gives the paper's non-square layout.
    let l = Layout::power_of_two(1 << 9, max).unwrap();
    assert_eq!((l.width, l.height), (32, 16));
}

const MRT_SHADER: &str = "
uniform sampler2D u_in;
uniform float u_scale;
// Declared and never read: the driver drops it.
uniform float u_unused;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out vec4 o2;
void main() {
    vec4 x = texelFetch(u_in, ivec2(gl_FragCoord.xy), 0);
    o0 = x * u_scale;
    o1 = x + 1.0;
    o2 = vec4(gl_FragCoord.xy, 0.0, 1.0);
}
";

#[test]
fn passes_write_multiple_render_targets_and_ping_pong() {
    let ctx = common::context();
    let lib = GlslLibrary::builtin().with_module("mrt.glsl", MRT_SHADER);
    let program = Program::build(&ctx, &lib, "mrt.glsl", &[]).unwrap();
    let (w, h) = (4u32, 2u32);
    let input: Vec<f32> = (0..w * h * 4).map(|i| i as f32).collect();
    let tin = Texture::with_data(&ctx, w, h, &input).unwrap();
    let outs: Vec<Texture> = (0..3).map(|_| Texture::new(&ctx, w, h).unwrap()).collect();
    let fb = Framebuffer::new(&ctx, &outs.iter().collect::<Vec<_>>()).unwrap();
    let ((), timing) = timed(&ctx, || {
        Pass::new(&program)
            .input("u_in", &tin)
            .uniform("u_scale", Uniform::F32(2.0))
            .run(&ctx, &fb)
    })
    .unwrap();
    assert!(timing.wall.as_nanos() > 0);
    let o0: Vec<f32> = fb.read(&ctx, 0).unwrap();
    let o1: Vec<f32> = fb.read(&ctx, 1).unwrap();
    let o2: Vec<f32> = fb.read(&ctx, 2).unwrap();
    for i in 0..input.len() {
        assert_eq!(o0[i], input[i] * 2.0);
        assert_eq!(o1[i], input[i] + 1.0);
    }
    // Texel (x, y) sees its own centre: rows are laid out bottom-up from y = 0.
    assert_eq!(&o2[4 * 5..4 * 5 + 2], &[1.5, 1.5]);

    // Ping-pong: each pass doubles the front texture.
    let mut pp = PingPong::new(&ctx, w, h).unwrap();
    pp.front().upload(&ctx, &input).unwrap();
    for _ in 0..3 {
        Pass::new(&program)
            .input("u_in", pp.front())
            .uniform("u_scale", Uniform::F32(2.0))
            .run(&ctx, pp.back_framebuffer())
            .unwrap();
        pp.swap();
    }
    let r: Vec<f32> = pp.front().read(&ctx).unwrap();
    assert_eq!(r[5], input[5] * 8.0);

    // A typo in a uniform name is an error that names it.
    let e = Pass::new(&program)
        .input("u_inn", &tin)
        .run(&ctx, &fb)
        .unwrap_err()
        .to_string();
    assert!(e.contains("u_inn"), "{e}");
    // An optional uniform may be optimised away, but a name the program does not declare is
    // still a misspelling, and an error.
    let e = Pass::new(&program)
        .input("u_in", &tin)
        .uniform("u_scale", Uniform::F32(2.0))
        .optional_uniform("u_scael", Uniform::F32(2.0))
        .run(&ctx, &fb)
        .unwrap_err()
        .to_string();
    assert!(e.contains("u_scael") && e.contains("spelling"), "{e}");
    Pass::new(&program)
        .input("u_in", &tin)
        .uniform("u_scale", Uniform::F32(2.0))
        .optional_uniform("u_unused", Uniform::F32(2.0))
        .run(&ctx, &fb)
        .expect("a declared uniform the driver dropped is no error");
    // More attachments than the driver has: an error naming the limit.
    let many: Vec<Texture> = (0..9).map(|_| Texture::new(&ctx, 1, 1).unwrap()).collect();
    let e = Framebuffer::new(&ctx, &many.iter().collect::<Vec<_>>())
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("9 color attachments"), "{e}");
    // Attachments of different sizes make an incomplete framebuffer, reported as such.
    let odd = Texture::new(&ctx, 3, 3).unwrap();
    let e = Framebuffer::new(&ctx, &[&outs[0], &odd])
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("incomplete"), "{e}");
}

#[test]
fn compile_errors_point_at_the_original_file_and_line() {
    let ctx = common::context();
    let lib = GlslLibrary::builtin()
        .with_module(
            "inner.glsl",
            "// line 1\nfloat helper(float x) {\n    return x +* 2.0; // line 3 is wrong\n}\n",
        )
        .with_module_needing(
            "outer.glsl",
            &["df64.glsl", "inner.glsl"],
            "out vec4 o;\nvoid main() { o = vec4(helper(1.0)); }\n",
        );
    let e = Program::build(&ctx, &lib, "outer.glsl", &[]).err().unwrap();
    let text = e.to_string();
    assert!(matches!(e, GlError::Compile { .. }), "{text}");
    assert!(
        text.contains("inner.glsl:3"),
        "log not mapped to inner.glsl:3:\n{text}"
    );

    // A line of a module that needs another maps back to the module itself.
    let lib = GlslLibrary::builtin().with_module_needing(
        "after.glsl",
        &["df64.glsl"],
        "// after df64\nout vec4 o;\nvoid main() { o = vec4(undefined_name); }\n",
    );
    let text = Program::build(&ctx, &lib, "after.glsl", &[])
        .err()
        .unwrap()
        .to_string();
    assert!(text.contains("after.glsl:3"), "{text}");

    let e = Program::build(&ctx, &lib, "missing.glsl", &[])
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("missing.glsl") && e.contains("df64.glsl"), "{e}");
}

#[test]
fn df64_module_compiles_without_precise_for_glsl_330() {
    // The pasteable module must build on a plain 3.30 core compiler too (no precise, no fma).
    let ctx = common::context();
    let lib = GlslLibrary::builtin().with_module_needing(
        "use330.glsl",
        &["df64.glsl"],
        "uniform vec4 u;\nout vec4 o;\nvoid main() { o = vec4(df64_div(u.xy, u.zw), df64_sqrt(u.xy)); }\n",
    );
    let source = lib.resolve("use330.glsl", 330, &[]).unwrap();
    assert!(source.text.starts_with("#version 330 core"));
    let gl = ctx.gl();
    use glow::HasContext;
    unsafe {
        let sh = gl.create_shader(glow::FRAGMENT_SHADER).unwrap();
        gl.shader_source(sh, &source.text);
        gl.compile_shader(sh);
        let ok = gl.get_shader_compile_status(sh);
        let log = gl.get_shader_info_log(sh);
        gl.delete_shader(sh);
        assert!(ok, "{}", source.map_log(&log));
    }
}

/// Every file in `glsl/` is GLSL on its own: after the modules it declares it needs (and no
/// engine defines; a template gets the one parameter it documents), it compiles as a fragment
/// shader on this driver, at GLSL 4.50 and 3.30.
#[test]
fn every_glsl_file_compiles_alone_after_what_it_needs() {
    use glow::HasContext;
    let ctx = common::context();
    // The built-in modules and the FFT's butterfly files (which the FFT layer adds).
    let lib = df64gl::fft::stockham_mirror::stockham_library();
    let names: Vec<String> = lib.names().map(str::to_string).collect();
    assert!(names.len() >= 8, "{names:?}");
    assert!(
        names.iter().any(|n| n == "stockham_radix3.glsl"),
        "{names:?}"
    );
    let gl = ctx.gl();
    for name in &names {
        for version in [450, 330] {
            // elementwise.glsl is a template over the op it applies.
            let parameters: Vec<(String, String)> = match name.as_str() {
                "elementwise.glsl" => vec![("ELEMENTWISE_OP".into(), "df64_add".into())],
                _ => vec![],
            };
            let source = lib.resolve(name, version, &parameters).unwrap();
            unsafe {
                let sh = gl.create_shader(glow::FRAGMENT_SHADER).unwrap();
                gl.shader_source(sh, &source.text);
                gl.compile_shader(sh);
                let ok = gl.get_shader_compile_status(sh);
                let log = source.map_log(&gl.get_shader_info_log(sh));
                gl.delete_shader(sh);
                assert!(
                    ok,
                    "{name} at GLSL {version} with {:?}:\n{log}",
                    source.files
                );
            }
        }
    }
}

/// The probe's verdict on f32 rounding agrees with what is documented for the drivers the tests
/// assert the mirror on (`common::MIRROR_EXACT_DRIVERS`): a probe that called llvmpipe inexact
/// (or a driver update that made it so) fails here instead of silently turning the mirror
/// comparisons into the bounds-only judgement.
#[test]
fn the_probe_agrees_with_the_documented_drivers() {
    let (ctx, report) = common::probed();
    if common::mirror_documented_exact(&ctx) {
        assert!(
            report.round_to_nearest(),
            "{} is documented to round f32 + - * / sqrt to nearest, the probe says otherwise:\n{}",
            ctx.info().renderer,
            report.table()
        );
    } else {
        eprintln!(
            "{}: not a documented mirror-exact driver; the probe says round to nearest: {}",
            ctx.info().renderer,
            report.round_to_nearest()
        );
    }
}
