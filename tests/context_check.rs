//! The known-answer check on a caller's own glow context (`export::context_check::check_context`,
//! the Rust twin of the npm module's `check(gl)`): it passes on llvmpipe in both shader stages
//! (every routine, vectors included), leaves the caller's bindings as they were, fails the
//! unprotected es300 export that Mesa breaks, fails a build broken in one stage there and only
//! there, and refuses an unknown routine rather than passing it.

mod common;

use glow::HasContext;

use df64gl::export::context_check::check_context;
use df64gl::export::snippet::{SnippetOptions, SnippetTarget};
use df64gl::gl::{DeviceChoice, GlContext};

#[test]
fn check_passes_and_leaves_the_callers_bindings() {
    let ctx = GlContext::headless(&DeviceChoice::Auto).unwrap();
    let gl = ctx.gl();
    // SAFETY: the context is current on this thread (made here).
    unsafe {
        // The caller's state.
        let fb = gl.create_framebuffer().unwrap();
        let tex = gl.create_texture().unwrap();
        gl.active_texture(glow::TEXTURE1);
        gl.bind_texture(glow::TEXTURE_2D, Some(tex));
        gl.tex_storage_2d(glow::TEXTURE_2D, 1, glow::RGBA8, 4, 4);
        gl.bind_framebuffer(glow::FRAMEBUFFER, Some(fb));
        gl.framebuffer_texture_2d(
            glow::FRAMEBUFFER,
            glow::COLOR_ATTACHMENT0,
            glow::TEXTURE_2D,
            Some(tex),
            0,
        );
        let vao = gl.create_vertex_array().unwrap();
        gl.bind_vertex_array(Some(vao));
        gl.viewport(1, 2, 3, 4);
        gl.enable(glow::SCISSOR_TEST);
        gl.pixel_store_i32(glow::UNPACK_ALIGNMENT, 1);
        gl.active_texture(glow::TEXTURE3);

        let only = ["add", "mul", "div", "sqrt", "exp", "sin", "pow", "eq"];
        let r = check_context(
            gl,
            &SnippetOptions::new(SnippetTarget::Glsl450),
            Some(&only),
        );
        assert!(r.pass, "{}", r.reason);
        assert_eq!(r.probe_green, 4096);
        let names: Vec<&str> = r.routines.iter().map(|x| x.name.as_str()).collect();
        assert_eq!(
            names,
            ["add", "mul", "div", "sqrt", "eq", "exp", "sin", "pow"]
        );
        // This test's own bounds (ulp48): 0.5 for add, mul, sqrt; 1 for div, exp, sin; pow 4 +
        // |y ln x| with |y ln x| <= 100 here; comparisons exact.
        for x in &r.routines {
            let own = match x.name.as_str() {
                "add" | "mul" | "sqrt" => 0.5,
                "div" | "exp" | "sin" => 1.0,
                "pow" => 104.0,
                _ => 0.0,
            };
            assert!(x.worst <= own && x.failed == 0, "{x:?}");
            assert!(x.cases >= 20, "{x:?}");
        }

        assert_eq!(
            gl.get_parameter_i32(glow::ACTIVE_TEXTURE),
            glow::TEXTURE3 as i32
        );
        gl.active_texture(glow::TEXTURE1);
        assert_eq!(
            gl.get_parameter_texture(glow::TEXTURE_BINDING_2D),
            Some(tex)
        );
        assert_eq!(
            gl.get_parameter_framebuffer(glow::DRAW_FRAMEBUFFER_BINDING),
            Some(fb)
        );
        assert_eq!(
            gl.get_parameter_vertex_array(glow::VERTEX_ARRAY_BINDING),
            Some(vao)
        );
        let mut vp = [0; 4];
        gl.get_parameter_i32_slice(glow::VIEWPORT, &mut vp);
        assert_eq!(vp, [1, 2, 3, 4]);
        assert!(gl.is_enabled(glow::SCISSOR_TEST));
        assert_eq!(gl.get_parameter_i32(glow::UNPACK_ALIGNMENT), 1);
        assert_eq!(gl.get_error(), glow::NO_ERROR);

        let r = check_context(
            gl,
            &SnippetOptions::new(SnippetTarget::Glsl450),
            Some(&["add", "not_a_routine"]),
        );
        assert!(
            !r.pass && r.reason.contains("not_a_routine"),
            "{}",
            r.reason
        );
    }
}

#[test]
fn check_fails_the_unprotected_es300_export_on_mesa() {
    let ctx = GlContext::headless_gles(&DeviceChoice::Auto).unwrap();
    let options = SnippetOptions {
        no_fallback: true,
        ..SnippetOptions::new(SnippetTarget::Es300)
    };
    // SAFETY: the context is current on this thread (made here).
    let r = unsafe { check_context(ctx.gl(), &options, Some(&["add", "mul", "div", "sqrt"])) };
    assert!(!r.pass, "{}", r.reason);
    assert!(r.probe_green < 4096);
    assert!(
        r.routines.iter().filter(|x| x.failed > 0).count() >= 3,
        "{:?}",
        r.routines
    );
}

/// Both stages run, each on its own: an export broken in the vertex stage only (its df64_add
/// nudged where `DF64GL_CHECK_VERTEX` is defined, as a compiler that rewrote one stage's code
/// would leave it) fails there and passes in the fragment stage; one stage can be asked for
/// alone; the vector routines are judged in both.
#[test]
fn check_covers_the_vertex_stage_and_tells_which_stage_fails() {
    use df64gl::export::context_check::{check_context_stages, check_source, CheckSource, Stages};
    use df64gl::export::snippet::snippet;
    let ctx = GlContext::headless(&DeviceChoice::Auto).unwrap();
    let gl = ctx.gl();
    let options = SnippetOptions::new(SnippetTarget::Glsl450);
    let only = ["add", "mul", "vec3_sub", "vec4_dot", "world_to_view"];
    // SAFETY: the context is current on this thread (made here).
    let r = unsafe { check_context_stages(gl, &options, Some(&only), Stages::BOTH) };
    assert!(r.pass, "{}", r.reason);
    for s in [&r.stages.vertex, &r.stages.fragment] {
        let s = s.as_ref().expect("both stages ran");
        assert!(s.pass && s.probe_green == 4096);
        assert_eq!(s.routines.len(), 2);
        let names: Vec<&str> = s.vectors.iter().map(|x| x.name.as_str()).collect();
        assert_eq!(names, ["vec3_sub", "vec4_dot", "world_to_view"]);
        for x in &s.vectors {
            let (unit, bound) = common::vec_bound(&x.name);
            assert!(
                x.unit == unit && x.worst <= bound && x.mirror_matched == x.cases,
                "{x:?}"
            );
        }
    }

    let export = snippet(&options).unwrap();
    let last =
        "    return vec2(ieee ? s : r.x, any(bvec2(ieee, df64_nonfinite(r.x))) ? 0.0 : r.y);";
    assert_eq!(
        export.matches(last).count(),
        1,
        "df64_add's last line moved"
    );
    let broken = export.replace(
        last,
        &format!("#ifdef DF64GL_CHECK_VERTEX\n    r.y = r.y * 1.5;\n#endif\n{last}"),
    );
    let source = CheckSource {
        target: SnippetTarget::Glsl450,
        text: &broken,
        functions: true,
    };
    // SAFETY: as above.
    let r = unsafe { check_source(gl, &source, Some(&only), Stages::BOTH) };
    assert!(!r.pass);
    let (vertex, fragment) = (r.stages.vertex.unwrap(), r.stages.fragment.unwrap());
    assert!(!vertex.pass && fragment.pass, "{}", r.reason);
    assert!(vertex
        .routines
        .iter()
        .any(|x| x.name == "add" && x.failed > 0));
    assert!(vertex
        .vectors
        .iter()
        .any(|x| x.name == "vec3_sub" && x.failed > 0));
    assert!(
        r.reason.contains("vertex stage") && !r.reason.contains("fragment stage"),
        "{}",
        r.reason
    );
    // SAFETY: as above.
    let r = unsafe { check_source(gl, &source, Some(&only), Stages::FRAGMENT) };
    assert!(r.pass && r.stages.vertex.is_none(), "{}", r.reason);
}

/// Every routine (64 df64, 33 vector and matrix) on its known answers in both stages of a
/// native context, the GLSL 4.50 export: pass, each routine within the bound the tests state,
/// every answer equal to the CPU mirror's (llvmpipe rounds every f32 operation to nearest) but
/// where a subnormal of the mirror's is flushed here (`common::flushable_mirror_cases`: recip,
/// cos and cos_fast, within the domain's 2^-126 floor).
#[test]
fn every_routine_passes_in_both_stages_on_llvmpipe() {
    let ctx = GlContext::headless(&DeviceChoice::Auto).unwrap();
    // SAFETY: the context is current on this thread (made here).
    let r = unsafe { check_context(ctx.gl(), &SnippetOptions::new(SnippetTarget::Glsl450), None) };
    assert!(r.pass, "{}", r.reason);
    assert_eq!(r.routines.len(), 64);
    assert_eq!(r.vectors.len(), 33);
    for s in [&r.stages.vertex, &r.stages.fragment] {
        let s = s.as_ref().expect("both stages ran");
        assert!(s.pass && s.probe_green == 4096);
        for x in &s.routines {
            let bound = common::known_answer_bound(&x.name);
            assert!(x.failed == 0 && x.worst <= bound, "{x:?} (bound {bound})");
        }
        for x in &s.vectors {
            let (unit, bound) = common::vec_bound(&x.name);
            assert!(x.unit == unit && x.failed == 0 && x.worst <= bound, "{x:?}");
        }
        let exact = common::mirror_documented_exact(&ctx);
        for x in &s.routines {
            let flushable = common::flushable_mirror_cases(&x.name);
            assert!(!exact || x.mirror_matched + flushable >= x.cases, "{x:?}");
        }
        for x in &s.vectors {
            assert!(!exact || x.mirror_matched + 1 >= x.cases, "{x:?}");
        }
    }
}

/// A driver that broke Payne and Hanek's reduction is refused, with the routines named: here the
/// 2/pi table read as if it ended after 16 of its 32 digits (192 bits, as a compiler that
/// mis-sized the constant array would leave it). Arguments up to 2^23 never take that path
/// (exp and the reduced sine pass); the known answers' hardest arguments above it fail sin, cos
/// and tan, and the reason says so.
#[test]
fn check_refuses_a_broken_long_reduction_and_names_the_routines() {
    use df64gl::export::context_check::{check_source, CheckSource, Stages};
    use df64gl::export::snippet::snippet;
    let ctx = GlContext::headless(&DeviceChoice::Auto).unwrap();
    let export = snippet(&SnippetOptions::new(SnippetTarget::Glsl450)).unwrap();
    let line = "    return (i >= 1 && i <= 32) ? DF64_TWO_OVER_PI_DIGITS[c - 1] : 0;";
    assert_eq!(export.matches(line).count(), 1, "the digit reader moved");
    let broken = export.replace(line, &line.replace("i <= 32", "i <= 16"));
    let check = |text: &str| {
        let source = CheckSource {
            target: SnippetTarget::Glsl450,
            text,
            functions: true,
        };
        // SAFETY: the context is current on this thread (made here).
        unsafe {
            check_source(
                ctx.gl(),
                &source,
                Some(&["exp", "sin", "cos", "tan"]),
                Stages::FRAGMENT,
            )
        }
    };
    let r = check(&broken);
    assert!(!r.pass, "a broken reduction passed: {:?}", r.routines);
    let failed = |name: &str| r.routines.iter().any(|x| x.name == name && x.failed > 0);
    assert!(!failed("exp"), "{:?}", r.routines);
    for name in ["sin", "cos", "tan"] {
        assert!(failed(name), "{name} passed: {:?}", r.routines);
        assert!(r.reason.contains(name), "{}", r.reason);
    }
    // The same export unbroken passes.
    let r = check(&export);
    assert!(r.pass, "{}", r.reason);
}

/// A caller's state that breaks a draw with texelFetch or a read-back if left as it is, and
/// the errors it has pending: the check must be right under it and leave all of it as it was.
/// `desktop`: the context is desktop GL (clip distances, polygon mode, swapped bytes exist).
unsafe fn skeptical_caller_check(gl: &glow::Context, desktop: bool, target: SnippetTarget) {
    // Samplers of the default (mipmapped) filter on both units the check uses: float textures
    // with one level are incomplete under them, and texelFetch reads zeros.
    let samplers = [gl.create_sampler().unwrap(), gl.create_sampler().unwrap()];
    gl.bind_sampler(0, Some(samplers[0]));
    gl.bind_sampler(1, Some(samplers[1]));
    let array_texture = gl.create_texture().unwrap();
    gl.active_texture(glow::TEXTURE0);
    gl.bind_texture(glow::TEXTURE_2D_ARRAY, Some(array_texture));
    let buffer = gl.create_buffer().unwrap();
    gl.bind_buffer(glow::ARRAY_BUFFER, Some(buffer));
    gl.buffer_data_size(glow::ARRAY_BUFFER, 64, glow::STATIC_DRAW);
    let mut caps = vec![
        glow::BLEND,
        glow::CULL_FACE,
        glow::SAMPLE_ALPHA_TO_COVERAGE,
        glow::POLYGON_OFFSET_FILL,
    ];
    if desktop {
        caps.push(glow::CLIP_DISTANCE0);
        gl.polygon_mode(glow::FRONT_AND_BACK, glow::LINE);
        gl.pixel_store_i32(glow::PACK_SWAP_BYTES, 1);
    }
    for c in &caps {
        gl.enable(*c);
    }
    gl.disable(glow::DITHER);
    gl.cull_face(glow::FRONT_AND_BACK);
    gl.color_mask(false, true, false, true);
    gl.pixel_store_i32(glow::PACK_SKIP_ROWS, 3);
    gl.pixel_store_i32(glow::UNPACK_ROW_LENGTH, 7);
    // An active transform feedback, recording points into a buffer.
    let vs = gl.create_shader(glow::VERTEX_SHADER).unwrap();
    let version = if desktop {
        "#version 330 core"
    } else {
        "#version 300 es"
    };
    gl.shader_source(
        vs,
        &format!("{version}\nout float v;\nvoid main() {{ v = 1.0; gl_Position = vec4(0.0); }}\n"),
    );
    gl.compile_shader(vs);
    let fs = gl.create_shader(glow::FRAGMENT_SHADER).unwrap();
    gl.shader_source(
        fs,
        &format!(
            "{version}\nprecision highp float;\nout vec4 c;\nvoid main() {{ c = vec4(1.0); }}\n"
        ),
    );
    gl.compile_shader(fs);
    let program = gl.create_program().unwrap();
    gl.attach_shader(program, vs);
    gl.attach_shader(program, fs);
    gl.transform_feedback_varyings(program, &["v"], glow::INTERLEAVED_ATTRIBS);
    gl.link_program(program);
    assert!(
        gl.get_program_link_status(program),
        "{}",
        gl.get_program_info_log(program)
    );
    let feedback_buffer = gl.create_buffer().unwrap();
    gl.bind_buffer(glow::TRANSFORM_FEEDBACK_BUFFER, Some(feedback_buffer));
    gl.buffer_data_size(glow::TRANSFORM_FEEDBACK_BUFFER, 1024, glow::STATIC_DRAW);
    gl.bind_buffer_base(glow::TRANSFORM_FEEDBACK_BUFFER, 0, Some(feedback_buffer));
    gl.use_program(Some(program));
    gl.begin_transform_feedback(glow::POINTS);
    assert_eq!(gl.get_error(), glow::NO_ERROR, "the caller's set-up");
    // Three errors pending; what the context holds of them (Mesa's desktop GL keeps the
    // first only) is read once without the check, as the reference.
    let make_errors = || {
        gl.is_enabled(0);
        let max_attribs = gl.get_parameter_i32(glow::MAX_VERTEX_ATTRIBS) as u32;
        gl.vertex_attrib_4_f32(max_attribs, 0.0, 0.0, 0.0, 1.0);
        gl.end_query(glow::ANY_SAMPLES_PASSED);
    };
    let read_errors = || {
        let mut errors = Vec::new();
        loop {
            let e = gl.get_error();
            if e == glow::NO_ERROR || errors.len() > 8 {
                break;
            }
            errors.push(e);
        }
        errors.sort();
        errors
    };
    make_errors();
    let expected = read_errors();
    assert!(!expected.is_empty());
    make_errors();

    let r = check_context(
        gl,
        &SnippetOptions::new(target),
        Some(&["add", "mul", "div", "sqrt"]),
    );
    assert!(
        r.pass,
        "{target:?} under the skeptical caller: {}",
        r.reason
    );
    assert_eq!(r.probe_green, 4096);

    // The errors come back as the context held them, and nothing else.
    assert_eq!(
        read_errors(),
        expected,
        "{target:?}: the caller's pending errors"
    );
    // The state as the caller left it.
    assert!(gl.get_parameter_bool(glow::TRANSFORM_FEEDBACK_ACTIVE));
    assert!(!gl.get_parameter_bool(glow::TRANSFORM_FEEDBACK_PAUSED));
    assert_eq!(
        gl.get_parameter_program(glow::CURRENT_PROGRAM),
        Some(program)
    );
    gl.active_texture(glow::TEXTURE0);
    assert_eq!(
        gl.get_parameter_sampler(glow::SAMPLER_BINDING),
        Some(samplers[0])
    );
    assert_eq!(
        gl.get_parameter_texture(glow::TEXTURE_BINDING_2D_ARRAY),
        Some(array_texture)
    );
    gl.active_texture(glow::TEXTURE1);
    assert_eq!(
        gl.get_parameter_sampler(glow::SAMPLER_BINDING),
        Some(samplers[1])
    );
    assert_eq!(
        gl.get_parameter_buffer(glow::ARRAY_BUFFER_BINDING),
        Some(buffer)
    );
    for c in &caps {
        assert!(gl.is_enabled(*c), "{target:?}: capability 0x{c:04x}");
    }
    assert!(!gl.is_enabled(glow::DITHER));
    assert_eq!(
        gl.get_parameter_bool_array::<4>(glow::COLOR_WRITEMASK),
        [false, true, false, true]
    );
    assert_eq!(gl.get_parameter_i32(glow::PACK_SKIP_ROWS), 3);
    assert_eq!(gl.get_parameter_i32(glow::UNPACK_ROW_LENGTH), 7);
    if desktop {
        assert_eq!(gl.get_parameter_i32(glow::PACK_SWAP_BYTES), 1);
        let mut mode = [0; 2];
        gl.get_parameter_i32_slice(glow::POLYGON_MODE, &mut mode);
        assert_eq!(mode[0], glow::LINE as i32);
    }
    gl.end_transform_feedback();
    assert_eq!(gl.get_error(), glow::NO_ERROR);
}

#[test]
fn check_is_right_under_a_skeptical_caller_and_leaves_its_state_and_errors() {
    let ctx = GlContext::headless(&DeviceChoice::Auto).unwrap();
    // SAFETY: the context is current on this thread (made here).
    unsafe { skeptical_caller_check(ctx.gl(), true, SnippetTarget::Glsl450) };
    let es = GlContext::headless_gles(&DeviceChoice::Auto).unwrap();
    // SAFETY: as above.
    unsafe { skeptical_caller_check(es.gl(), false, SnippetTarget::Es300) };
}
