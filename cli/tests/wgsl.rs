//! The WGSL export (`df64gl wgsl`) on this machine's WebGPU implementations: wgpu on OpenGL
//! (llvmpipe), wgpu on Vulkan (lavapipe) and Chromium's WebGPU (Dawn and Tint on SwiftShader)
//! through the npm module's `checkWebGPU`. On each: the export within the bounds this file
//! states and equal to the CPU mirror bit for bit; the unprotected translation measured; and a
//! deliberately broken build (twoSum's error term forced to 0) failing, so the check can fail.

mod common;

use std::collections::HashMap;

use df64gl::export::known::{known_answers, RoutineCheck};
use df64gl::export::wgpu_check::{check_wgpu, WgpuCheck, WgpuCheckOptions};
use df64gl::export::wgsl::{wgsl_call, wgsl_export, wgsl_from_glsl, WgslOptions, ZeroBuffer};
use df64gl_cli::experiments::bench::wgsl::{
    run_browser_wgsl_bench, run_wgsl_bench, WgslBenchOptions, WgslBenchReport,
};
use df64gl_cli::experiments::wgsl::{wgpu_device, wgsl_leg, WgpuBackend};
use df64gl_cli::web::browser::BrowserBackend;
use df64gl_cli::web::js_module::run_module_page;
use serde_json::Value;

const DF64_GLSL: &str = include_str!("../../glsl/df64.glsl");
const DF64_FUNC_GLSL: &str = include_str!("../../glsl/df64_func.glsl");
const QF128_GLSL: &str = include_str!("../../glsl/qf128.glsl");
/// twoSum's error term in df64.glsl, the sorted twoSum's (the sum's core) and the cores' inner
/// twoSum's, which the broken build replaces with 0.
const TWO_SUM_ERRORS: [&str; 3] = [
    "DF64_PRECISE float e = DF64_B(DF64_B(a - DF64_B(s - v)) + DF64_B(b - v));",
    "DF64_PRECISE float e = small + (big - s);",
    "DF64_PRECISE float e = (a - (s - v)) + (b - v);",
];

/// The export translated from a copy of df64.glsl whose twoSums return no error term: what a
/// compiler that folds `(a + b) - a` into `b` makes of unprotected code.
fn broken_two_sum_wgsl(qf128: bool) -> String {
    let mut broken = DF64_GLSL.to_string();
    for line in TWO_SUM_ERRORS {
        assert_eq!(
            broken.matches(line).count(),
            1,
            "twoSum's line moved: {line}"
        );
        broken = broken.replace(line, "DF64_PRECISE float e = 0.0;");
    }
    let mut modules = vec![
        ("df64.glsl", broken.as_str()),
        ("df64_func.glsl", DF64_FUNC_GLSL),
    ];
    if qf128 {
        modules.push(("qf128.glsl", QF128_GLSL));
    }
    wgsl_from_glsl(
        &modules,
        &WgslOptions {
            qf128,
            ..WgslOptions::default()
        },
    )
    .unwrap()
}

/// Every routine within the bound this file states and equal to the mirror bit for bit, but,
/// where the device `flushes` subnormals, for the df64 cases `common::flushable_mirror_cases`
/// counts (measured on SwiftShader: recip, cos and cos_fast, as in WebGL) and one case of each
/// vector and qf128 routine.
fn assert_within_own_bounds(leg: &str, check: &WgpuCheck, qf128: bool, flushes: bool) {
    assert!(check.pass, "{leg}: {}", check.reason);
    let judge = |r: &RoutineCheck, bound: f64, set: &str, slack: usize| {
        assert!(
            r.worst <= bound,
            "{leg}: {set} {} worst {} > {bound}",
            r.name,
            r.worst
        );
        assert_eq!(r.failed, 0, "{leg}: {set} {r:?}");
        assert!(
            r.mirror_matched + slack >= r.cases,
            "{leg}: {set} {} differs from the CPU mirror in {} of {} cases",
            r.name,
            r.cases - r.mirror_matched,
            r.cases
        );
    };
    let known = known_answers().unwrap();
    assert_eq!(check.routines.len(), known.df64.routines.len(), "{leg}");
    for r in &check.routines {
        let slack = if flushes {
            common::flushable_mirror_cases(&r.name)
        } else {
            0
        };
        judge(r, common::known_answer_bound(&r.name), "df64", slack);
    }
    // The vector and matrix routines, each in the unit this file's bounds are stated in.
    assert_eq!(check.vectors.len(), known.df64vec.routines.len(), "{leg}");
    for r in &check.vectors {
        let (unit, bound) = common::vec_bound(&r.name);
        assert_eq!(r.unit, unit, "{leg}: {r:?}");
        judge(r, bound, "df64 vector", usize::from(flushes));
    }
    if qf128 {
        let q = check.qf128.as_ref().expect("qf128 results");
        assert_eq!(q.len(), known.qf128.routines.len(), "{leg}");
        for r in q {
            judge(
                r,
                common::qf128_known_answer_bound(&r.name),
                "qf128",
                usize::from(flushes),
            );
        }
    }
}

fn routine<'a>(check: &'a WgpuCheck, name: &str) -> &'a RoutineCheck {
    check
        .routines
        .iter()
        .find(|r| r.name == name)
        .unwrap_or_else(|| panic!("no {name} in {check:?}"))
}

#[test]
fn export_keeps_the_glsl_names_and_the_chosen_binding() {
    let wgsl = wgsl_export(&WgslOptions {
        qf128: true,
        group: 3,
        binding: 7,
        ..WgslOptions::default()
    })
    .unwrap();
    assert!(wgsl.contains("@group(3) @binding(7)"), "the binding");
    assert!(wgsl.contains("var<storage> df64_zero: Df64Zero;"));
    assert!(wgsl.contains("Bind a read-only storage buffer"));
    // GLSL names that end in a digit keep them (naga would append `_`).
    for name in [
        "fn df64_mul_f32(",
        "fn df64_log2(",
        "fn df64_log10(",
        "fn qf128_mul_df64(",
        "const DF64_PI_2:",
    ] {
        assert!(wgsl.contains(name), "{name} is missing");
    }
    // Every routine the known answers call is defined under its GLSL name.
    let known = known_answers().unwrap();
    for r in known.df64.routines.iter().chain(&known.qf128.routines) {
        let call = wgsl_call(&r.call).unwrap();
        let f = call
            .split('(')
            .find(|p| p.contains("df64_") || p.contains("qf128_"))
            .map(|p| p.rsplit([' ', ',']).next().unwrap_or(p))
            .unwrap();
        assert!(
            wgsl.contains(&format!("fn {f}(")),
            "{f} ({}) is not defined",
            r.call
        );
    }
    // The unprotected translation has no barrier to bind.
    let plain = wgsl_export(&WgslOptions {
        protected: false,
        ..WgslOptions::default()
    })
    .unwrap();
    assert!(!plain.contains("df64_zero") && plain.contains("UNPROTECTED"));
    // Without the functions: the arithmetic only.
    let core = wgsl_export(&WgslOptions {
        functions: false,
        ..WgslOptions::default()
    })
    .unwrap();
    assert!(core.contains("fn df64_div(") && !core.contains("fn df64_exp("));
}

/// What the unprotected build is run on per leg (compiling every routine twice takes minutes on
/// lavapipe): the arithmetic, a function of each family, the error-free transforms.
const UNPROTECTED_ROUTINES: [&str; 8] =
    ["add", "mul", "div", "sqrt", "exp", "sin", "add12", "mul12"];

/// One wgpu leg: the export (df64 and qf128, every routine) passes within the bounds stated
/// here, bit-equal to the mirror; the broken build fails add; the unprotected translation is
/// measured and returned.
fn wgpu_leg(backend: WgpuBackend) -> WgpuCheck {
    let leg = wgsl_leg(backend, true, None, Some(&UNPROTECTED_ROUTINES)).unwrap();
    eprintln!("{}", leg.table());
    assert_within_own_bounds(backend.name(), &leg.protected, true, false);
    let (_, device, queue) = wgpu_device(backend).unwrap();
    let broken = check_wgpu(
        &device,
        &queue,
        &WgpuCheckOptions {
            source: Some(broken_two_sum_wgsl(false)),
            routines: Some(vec!["add".into(), "add12".into(), "mul".into()]),
            ..Default::default()
        },
    )
    .unwrap();
    assert!(!broken.pass, "{}: the broken build passed", backend.name());
    assert!(routine(&broken, "add").failed > 0, "{broken:?}");
    assert!(routine(&broken, "add12").failed > 0, "{broken:?}");
    leg.unprotected
}

#[test]
fn export_passes_on_wgpu_over_opengl_and_the_plain_translation_does_not() {
    let unprotected = wgpu_leg(WgpuBackend::Gl);
    // Mesa's GLSL compiler (llvmpipe) folds twoSum's error term in the GLSL naga writes for
    // the plain expressions, as it does in plain GLSL without `precise`.
    assert!(!unprotected.pass, "{}", unprotected.reason);
    assert!(routine(&unprotected, "add").failed > 0);
}

/// lavapipe (`mesa-vulkan-drivers`), installed when missing as the zink leg does.
fn need_lavapipe() {
    if !common::apt_install(&["mesa-vulkan-drivers"]) {
        panic!("the Vulkan leg needs lavapipe: apt-get install mesa-vulkan-drivers (as root)");
    }
}

#[test]
fn export_passes_on_wgpu_over_vulkan_and_the_plain_translation_does_not() {
    need_lavapipe();
    let unprotected = wgpu_leg(WgpuBackend::Vulkan);
    // lavapipe (NIR from naga's SPIR-V) folds it as well.
    assert!(!unprotected.pass, "{}", unprotected.reason);
    assert!(routine(&unprotected, "add").failed > 0);
}

/// The barrier's zero in a uniform buffer (`--zero uniform`) on lavapipe: lavapipe inlines
/// uniform values, the barrier folds, and df64_sin comes out at f32 accuracy; the check catches
/// it. Why the export reads its zero from a storage buffer.
#[test]
// Since the module holds the long trigonometric reduction (2026-11-25), lavapipe no longer
// breaks the uniform-buffer build: the whole check passes with ZeroBuffer::Uniform (before it,
// sin, cos and tan failed 21, 16 and 21 of 30 cases by up to 1.7e7 ulp48). Why the uniform is
// no longer inlined (or no longer breaks anything) is not yet understood; until it is, this
// negative test cannot show the check catching it.
#[ignore = "lavapipe no longer breaks the uniform-zero build since the long reduction; see comment"]
fn uniform_zero_is_inlined_and_caught_on_lavapipe() {
    need_lavapipe();
    let (_, device, queue) = wgpu_device(WgpuBackend::Vulkan).unwrap();
    let check = check_wgpu(
        &device,
        &queue,
        &WgpuCheckOptions {
            zero: ZeroBuffer::Uniform,
            routines: Some(vec!["add".into(), "sin".into()]),
            ..Default::default()
        },
    )
    .unwrap();
    assert!(!check.pass, "{}", check.reason);
    assert!(routine(&check, "sin").failed > 0, "{check:?}");
}

fn webgpu_page(query: &str, memory: HashMap<String, Vec<u8>>) -> Value {
    let chromium = common::chromium();
    run_module_page(
        &chromium,
        BrowserBackend::WebGpu,
        "/cli/tests/data/js-check-webgpu.html",
        query,
        memory,
        0,
    )
    .unwrap_or_else(|e| panic!("WebGPU page: {e}"))
}

/// `checkWebGPU` as the JavaScript module runs it: a RoutineCheck per row of its result.
fn js_rows(rows: &Value) -> Vec<RoutineCheck> {
    rows.as_array()
        .unwrap()
        .iter()
        .map(|x| RoutineCheck {
            name: x["name"].as_str().unwrap().to_string(),
            cases: x["cases"].as_u64().unwrap() as usize,
            unit: x["unit"].as_str().unwrap().to_string(),
            bound: x["bound"].as_f64().unwrap(),
            worst: x["worst"].as_f64().unwrap_or(f64::INFINITY),
            failed: x["failed"].as_u64().unwrap() as usize,
            mirror_matched: x["mirrorMatched"].as_u64().unwrap() as usize,
        })
        .collect()
}

/// One stage of a `checkWebGPU` result as a WgpuCheck (its qf128 rows where asked).
fn js_stage(r: &Value, stage: &str, qf128: bool) -> WgpuCheck {
    let s = &r["stages"][stage];
    WgpuCheck {
        pass: s["pass"].as_bool().unwrap(),
        reason: r["reason"].as_str().unwrap().to_string(),
        routines: js_rows(&s["routines"]),
        vectors: js_rows(&s["vectors"]),
        qf128: qf128.then(|| js_rows(&s["qf128"]["routines"])),
        ms: r["ms"].as_f64().unwrap_or(0.0),
    }
}

#[test]
fn check_webgpu_passes_in_chromium_and_fails_the_broken_build() {
    let v = webgpu_page("?qf128=1", HashMap::new());
    let r = &v["result"];
    assert_eq!(r["pass"], true, "{v}");
    eprintln!("adapter {} in {} ms", v["adapter"], r["ms"]);
    // Each stage on its own, then over both.
    for stage in ["compute", "vertex"] {
        let check = js_stage(r, stage, true);
        assert_within_own_bounds(
            &format!("Chromium WebGPU, {stage} stage"),
            &check,
            true,
            true,
        );
    }

    // What the vertex stage computed corrupted: that stage fails, the compute stage passes.
    let v = webgpu_page("?corrupt=vertex&routines=add,mul,vec3_sub", HashMap::new());
    let r = &v["result"];
    assert_eq!(r["pass"], false, "{r}");
    assert_eq!(r["stages"]["vertex"]["pass"], false, "{r}");
    assert_eq!(r["stages"]["compute"]["pass"], true, "{r}");
    assert!(
        r["reason"].as_str().unwrap().contains("vertex stage"),
        "{r}"
    );

    // The broken build (twoSum's error term 0) served at /broken.wgsl.
    let broken = |query: &str| {
        let mut memory = HashMap::new();
        memory.insert(
            "/broken.wgsl".to_string(),
            broken_two_sum_wgsl(false).into_bytes(),
        );
        webgpu_page(query, memory)
    };
    let v = broken("?source=/broken.wgsl&routines=add,add12,mul");
    let r = &v["result"];
    assert_eq!(r["pass"], false, "the broken build passed: {r}");
    let rows = js_rows(&r["routines"]);
    assert!(rows.iter().any(|x| x.name == "add" && x.failed > 0), "{r}");

    // The fragment stage (asked for: createFftWebGPU's render form runs there): every df64
    // and vector routine within its own bounds, and the broken build failing there too.
    let v = webgpu_page("?stages=fragment", HashMap::new());
    let r = &v["result"];
    assert_eq!(r["pass"], true, "fragment stage: {r}");
    assert!(
        r["stages"]["compute"].is_null() && r["stages"]["vertex"].is_null(),
        "{r}"
    );
    let check = js_stage(r, "fragment", false);
    assert_within_own_bounds("Chromium WebGPU, fragment stage", &check, false, true);
    assert!(
        r["reason"].as_str().unwrap().contains("fragment stage"),
        "{r}"
    );
    let v = broken("?source=/broken.wgsl&routines=add,add12,mul&stages=fragment");
    let r = &v["result"];
    assert_eq!(
        r["pass"], false,
        "the broken build passed in the fragment stage: {r}"
    );
    assert_eq!(r["stages"]["fragment"]["pass"], false, "{r}");

    let v = webgpu_page("?nodevice=1", HashMap::new());
    assert_eq!(v["result"]["pass"], false);
    assert!(v["result"]["reason"]
        .as_str()
        .unwrap()
        .contains("no WebGPU device"));
}

/// The comparison with luma.gl's WGSL on Chromium's WebGPU (js/bench/wgsl-fp64.html, as
/// `df64gl bench wgsl --chromium` runs it): ours within the bounds this test states (plus 0.06
/// ulp48 for the page's double-precision references), f32 far off, a cost for every row of
/// ours; luma.gl's figures are reported (docs/wgsl.md), not judged.
#[test]
fn wgsl_comparison_in_chromium_measures_every_library() {
    common::js_dev_dependencies();
    let mut report = WgslBenchReport {
        adapters: Vec::new(),
        rows: Vec::new(),
        notes: Vec::new(),
        method: String::new(),
    };
    // One routine: the page compiles each library's module twice on SwiftShader, its slowest part.
    let routines = ["mul"].map(String::from);
    run_browser_wgsl_bench(&common::chromium(), &routines, &mut report)
        .unwrap_or_else(|e| panic!("the WGSL comparison page: {e}"));
    eprintln!("{}", report.table());
    assert_eq!(report.adapters.len(), 1);
    // df64gl's two tiers, unprotected, three luma.gl variants, f32: seven libraries a routine.
    assert_eq!(report.rows.len(), 7, "{report:?}");
    for row in &report.rows {
        assert!(routines.contains(&row.routine), "{row:?}");
        // A row whose library lost the device says so (luma.gl's integer sqrt, measured).
        assert!(
            row.error.is_none() || row.library.starts_with("luma.gl"),
            "{row:?}"
        );
        match row.library.as_str() {
            "df64gl" => {
                assert!(row.worst <= 0.5 + 0.06, "{row:?}");
                assert!(row.ns.is_some_and(|ns| ns > 0.0), "{row:?}");
            }
            // mul_fast: 2 ulp48 over its domain, which the page's operands lie in.
            "df64gl fast tier" => {
                assert!(row.worst <= 2.0 + 0.06, "{row:?}");
                assert!(row.ns.is_some_and(|ns| ns > 0.0), "{row:?}");
            }
            // Measured: Tint on SwiftShader leaves the plain expressions exact; reported.
            "df64gl, unprotected" => {}
            "f32" => assert!(
                row.worst > 1e5,
                "f32 cannot be within df64's bounds: {row:?}"
            ),
            l => assert!(l.starts_with("luma.gl"), "{row:?}"),
        }
    }
}

/// `df64gl bench wgsl`'s comparison on both wgpu legs (add and mul, 256 pairs): df64gl's export
/// within the bounds stated here (0.5 ulp48, against astro-float), with a cost; the unprotected
/// translation and f32 far off; luma.gl's three variants measured (reported in docs/wgsl.md,
/// not judged).
#[test]
fn wgsl_bench_on_wgpu_legs_measures_every_library() {
    need_lavapipe();
    common::js_dev_dependencies();
    let report = run_wgsl_bench(
        &WgslBenchOptions {
            routines: vec!["add".into(), "mul".into()],
            pairs: 256,
            lanes: 4096,
            ..WgslBenchOptions::default()
        },
        &mut |_, _, _| {},
    )
    .unwrap();
    eprintln!("{}", report.table());
    assert!(report.notes.is_empty(), "{:?}", report.notes);
    for leg in [WgpuBackend::Vulkan, WgpuBackend::Gl] {
        let rows: Vec<_> = report.rows.iter().filter(|r| r.leg == leg.name()).collect();
        // df64gl's two tiers, unprotected, three luma.gl variants, f32: seven libraries a
        // routine.
        assert_eq!(rows.len(), 14, "{}", leg.name());
        for r in rows {
            match r.library.as_str() {
                "df64gl" => {
                    assert!(r.worst <= 0.5, "{r:?}");
                    assert!(r.ns.is_some_and(|ns| ns > 0.0), "{r:?}");
                }
                // add_fast 0.5, mul_fast 2 ulp48 over their domain (these operands are in it).
                "df64gl fast tier" => {
                    let bound = if r.routine == "mul" { 2.0 } else { 0.5 };
                    assert!(r.worst <= bound, "{r:?}");
                    assert!(r.ns.is_some_and(|ns| ns > 0.0), "{r:?}");
                }
                // Mesa folds the plain expressions on both legs (measured).
                "df64gl, unprotected" => assert!(r.worst > 1e3, "{r:?}"),
                "f32" => assert!(r.worst > 1e5, "{r:?}"),
                l => assert!(l.starts_with("luma.gl"), "{r:?}"),
            }
        }
    }
}

#[test]
fn bench_wgsl_command_prints_json_and_refuses_an_unknown_routine() {
    let exe = env!("CARGO_BIN_EXE_df64gl");
    let args = [
        "--json",
        "bench",
        "wgsl",
        "--backends",
        "gl",
        "--routines",
        "add",
        "--pairs",
        "64",
        "--lanes",
        "1024",
        "--no-luma",
        "--no-glsl",
    ];
    let (code, stdout, err) = common::run_bin(exe, &args, &[]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&stdout).unwrap();
    let rows = v["wgsl"]["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 4, "df64gl's two tiers, unprotected, f32: {v}");
    assert!(v["glsl"].is_null());
    let (code, _, err) = common::run_bin(
        exe,
        &[
            "bench",
            "wgsl",
            "--backends",
            "gl",
            "--routines",
            "tan",
            "--no-glsl",
        ],
        &[],
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("unknown routine tan"), "{err}");
}
