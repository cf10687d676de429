//! `df64gl glsl` snippets in other programs: for each target the probe shader compiles and
//! passes on this device (es300 through an OpenGL ES context), the full snippet (functions and
//! qf128) computes exp(1) correctly from a shader that is not df64gl's, and on llvmpipe the
//! precise-free targets fail without the u_df64_one fallback.

mod common;

use df64gl::gl::{DeviceChoice, GlContext};
use df64gl::numeric::oracle::{big, Oracle};
use df64gl::numeric::qf128::Qf128;
use df64gl::probe::snippet::{
    check_snippet, run_probe_shader, snippet, SnippetOptions, SnippetTarget,
};

const TARGETS: [SnippetTarget; 3] = [
    SnippetTarget::Glsl330,
    SnippetTarget::Glsl450,
    SnippetTarget::Es300,
];

fn context_for(target: SnippetTarget) -> GlContext {
    if target.is_es() {
        GlContext::headless_gles(&DeviceChoice::from_arg_or_env(None))
            .expect("the driver offers OpenGL ES 3 (Mesa does)")
    } else {
        common::context()
    }
}

#[test]
fn probe_shader_passes_for_every_target() {
    for target in TARGETS {
        let ctx = context_for(target);
        let r = check_snippet(&ctx, &SnippetOptions::new(target)).unwrap();
        assert!(
            r.passed(),
            "{target:?}: {} of {} pixels exact",
            r.green,
            r.pixels
        );
    }
}

#[test]
fn without_precise_or_fallback_llvmpipe_breaks_two_sum() {
    for target in [SnippetTarget::Glsl330, SnippetTarget::Es300] {
        let ctx = context_for(target);
        if !common::is_llvmpipe(&ctx) {
            return; // what other drivers fold is theirs to show
        }
        let options = SnippetOptions {
            no_fallback: true,
            ..SnippetOptions::new(target)
        };
        let r = check_snippet(&ctx, &options).unwrap();
        assert_eq!(
            r.green, 0,
            "{target:?}: llvmpipe was expected to fold twoSum"
        );
    }
}

#[test]
fn full_snippet_computes_exp_in_a_foreign_shader() {
    let mut o = Oracle::new();
    let e = o.exp(&big(1.0));
    let q = Qf128::from_big(&e);
    let d = q.to_df64();
    for target in TARGETS {
        let ctx = context_for(target);
        let options = SnippetOptions {
            qf128: true,
            ..SnippetOptions::new(target)
        };
        let mut src = format!("{}\n", target.version_line());
        if target.is_es() {
            src.push_str("precision highp float;\nprecision highp int;\n");
        }
        src.push_str(&snippet(&options).unwrap());
        src.push_str(&format!(
            "
out vec4 color;
void main() {{
    float one = floor(gl_FragCoord.x / 1024.0) + 1.0; // 1, unknown to the compiler
    vec2 ed = df64_exp(vec2(one, 0.0));
    vec2 de = df64_sub(ed, vec2({:e}, {:e}));
    vec4 eq = qf128_exp(vec4(one, 0.0, 0.0, 0.0));
    vec4 dq = qf128_sub(eq, vec4({:e}, {:e}, {:e}, {:e}));
    // qf128 needs `precise`: through the u_df64_one fallback (330, es300) llvmpipe keeps only
    // about 1e-15 of qf128_exp's accuracy (see the snippet's header), so it is checked at 450.
    bool qf_ok = {} ? abs(dq.x) < 1e-27 : abs(dq.x) < 1e-12;
    bool ok = abs(de.x) < 2e-14 && qf_ok && ed.x == {:e};
    color = ok ? vec4(0.0, 1.0, 0.0, 1.0) : vec4(1.0, 0.0, 0.0, 1.0);
}}
",
            d.hi,
            d.lo,
            q.x[0],
            q.x[1],
            q.x[2],
            q.x[3],
            target.has_precise(),
            d.hi
        ));
        let green =
            run_probe_shader(&ctx, target, &src).unwrap_or_else(|e| panic!("{target:?}: {e}"));
        assert_eq!(
            green,
            64 * 64,
            "{target:?}: exp(1) wrong in {} pixels",
            4096 - green
        );
    }
}
