//! `df64gl glsl` snippets in other programs: for each target the probe shader compiles and
//! passes on this device (es300 through an OpenGL ES context), every exported routine meets
//! its bound pasted into a plain program of the target's GLSL version, the full snippet
//! (functions and qf128) computes exp(1) correctly from a shader that is not df64gl's, and on
//! llvmpipe the probe shader turns red without protection and on the earlier export, whose
//! multiply barrier Mesa defeats.

mod common;

use df64gl::export::snippet::{
    check_snippet, probe_shader_around, run_probe_shader, snippet, SnippetOptions, SnippetTarget,
};
use df64gl::gl::{DeviceChoice, GlContext};
use df64gl::numeric::oracle::{big, Oracle};
use df64gl::numeric::qf128::Qf128;
use df64gl_cli::experiments::glsl::measure_export;

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
            // What other drivers fold is theirs to show: this test states llvmpipe's.
            eprintln!(
                "without_precise_or_fallback_llvmpipe_breaks_two_sum: skipped on {} (not llvmpipe)",
                ctx.info().renderer
            );
            return;
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
    bool ok = abs(de.x) < 2e-14 && abs(dq.x) < 1e-27 && ed.x == {:e};
    color = ok ? vec4(0.0, 1.0, 0.0, 1.0) : vec4(1.0, 0.0, 0.0, 1.0);
}}
",
            d.hi, d.lo, q.x[0], q.x[1], q.x[2], q.x[3], d.hi
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

#[test]
fn exports_meet_their_bounds_in_plain_programs() {
    for target in TARGETS {
        let ctx = context_for(target);
        let report = measure_export(&ctx, &SnippetOptions::new(target), 1 << 14, 7).unwrap();
        assert!(report.probe.passed(), "{}", report.table());
        assert!(report.failures().is_empty(), "{}", report.table());
        // 11 routines on their ranges, then add, sub, mul, div and sqrt with exponents in
        // [-100, 100] under the domain's rules.
        assert_eq!(report.rows.len(), 16);
        let sweeps = report.rows.iter().filter(|r| r.domain.is_some()).count();
        assert_eq!(sweeps, 5, "{}", report.table());
        if common::is_llvmpipe(&ctx) {
            assert_eq!(
                report.flushes_subnormals,
                (true, true),
                "{}",
                report.table()
            );
        }
        if common::is_llvmpipe(&ctx) {
            // Correctly rounded f32 and an exact protection: the mirror's bits exactly.
            for r in &report.rows {
                assert_eq!(r.mirror_mismatches, 0, "{}", report.table());
            }
        }
    }
}

/// The es300 export of df64gl 0.1 (before this change): a multiply by the uniform
/// `u_df64_one` around each statement. On llvmpipe its twoSum probe was green while mul, div,
/// log, sin and cos were wrong (log by 1,000 ulp48, sin by 2.8 million).
const LEGACY_ES300_EXPORT: &str = include_str!("data/legacy-export-es300.glsl");

#[test]
fn probe_shader_is_red_on_the_legacy_multiply_barrier() {
    let ctx = context_for(SnippetTarget::Es300);
    if !common::is_llvmpipe(&ctx) {
        // Measured on Mesa's compiler; others may or may not defeat the legacy barrier.
        eprintln!(
            "probe_shader_is_red_on_the_legacy_multiply_barrier: skipped on {} (not llvmpipe)",
            ctx.info().renderer
        );
        return;
    }
    let shader = probe_shader_around(SnippetTarget::Es300, LEGACY_ES300_EXPORT, true);
    let green = run_probe_shader(&ctx, SnippetTarget::Es300, &shader).unwrap();
    assert!(
        green < 4096,
        "the probe shader must not be all green on an export with broken routines"
    );
    let current = check_snippet(&ctx, &SnippetOptions::new(SnippetTarget::Es300)).unwrap();
    assert!(current.passed());
}
