//! The driver matrix: the engine and the exports on each Mesa driver of this machine, picked
//! with `--gl-driver` (a separate process each, since Mesa reads its variables once), and the
//! protection the probe chooses there. llvmpipe is the default device of every other test;
//! here: softpipe (GL 3.3, `precise` only through GL_ARB_gpu_shader5), zink over lavapipe
//! (GL 4.6 through SPIR-V; mesa-vulkan-drivers is installed with apt-get when missing and the
//! test runs as root), and forced protections that must be refused or must hold.

mod common;

use df64gl::export::context_check::check_context;
use df64gl::export::snippet::{SnippetOptions, SnippetTarget};

use df64gl::gl::MesaDriver;
use serde_json::Value;

fn df64gl(args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let cache = std::env::temp_dir().join(format!("df64gl-drivers-{}", std::process::id()));
    let cache = cache.to_string_lossy().into_owned();
    let mut all: Vec<(&str, &str)> = vec![("DF64GL_CACHE_DIR", &cache)];
    all.extend_from_slice(env);
    common::run_bin(env!("CARGO_BIN_EXE_df64gl"), args, &all)
}

fn fft_demo(args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    common::run_bin(env!("CARGO_BIN_EXE_fft-demo"), args, env)
}

fn probe_json(driver: &str, env: &[(&str, &str)]) -> (i32, Value) {
    let (code, out, err) = df64gl(
        &[
            "--gl-driver",
            driver,
            "--json",
            "probe",
            "--samples",
            "4096",
        ],
        env,
    );
    let v = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{driver}: {e}: {out} {err}"));
    (code, v)
}

/// `df64gl --gl-driver <driver> --json accuracy --no-cost --check` running only the sections
/// `run` names (`--flag`, samples) beside Table II's `samples` of `ops`: every other section's
/// samples 0. The exit code and the parsed report.
fn accuracy_only(
    driver: &str,
    samples: &str,
    ops: &str,
    run: &[(&str, &str)],
    env: &[(&str, &str)],
) -> (i32, Value, String) {
    let sections = [
        "--warwick-samples",
        "--function-samples",
        "--qf128-samples",
        "--dagraca-samples",
        "--class-samples",
        "--qf128-exponent-samples",
        "--qf128-class-samples",
        "--vector-samples",
    ];
    let mut args = vec![
        "--gl-driver",
        driver,
        "--json",
        "accuracy",
        "--samples",
        samples,
        "--ops",
        ops,
        "--no-cost",
        "--check",
    ];
    for flag in sections {
        args.push(flag);
        args.push(
            run.iter()
                .find(|(f, _)| *f == flag)
                .map_or("0", |(_, n)| *n),
        );
    }
    let (code, out, err) = df64gl(&args, env);
    let v = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{driver}: {e}: {out} {err}"));
    (code, v, err)
}

/// A small df64 FFT through fft-demo: exit 0 and the df64 error within its target.
fn assert_fft_runs(driver: &str, env: &[(&str, &str)]) {
    let (code, out, err) = fft_demo(
        &[
            "--gl-driver",
            driver,
            "--size",
            "1024",
            "--precision",
            "df64",
            "--no-plot",
            "--repeats",
            "1",
            "--json",
        ],
        env,
    );
    assert_eq!(code, 0, "{driver}: {err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let rel = v["rows"][0]["rel_l2"].as_f64().unwrap();
    assert!(rel > 0.0 && rel < 3e-14, "{driver}: df64 rel L2 {rel}");
}

/// Each export pasted into a plain program on `driver`: probe green, every routine in bounds.
fn assert_exports(driver: &str, targets: &[&str]) {
    for t in targets {
        let (code, out, err) = df64gl(
            &[
                "--gl-driver",
                driver,
                "glsl",
                "--target",
                t,
                "--measure",
                "--samples",
                "4096",
            ],
            &[],
        );
        assert_eq!(code, 0, "{driver} {t}: {out}{err}");
        assert!(out.contains("4096 of 4096 green"), "{driver} {t}: {out}");
    }
}

/// The domain on `driver`: this test binary run again as a child process, with the driver
/// chosen before its first EGL call (Mesa reads its variables once per process), running
/// `every_exponent_on_the_driver_of_this_process`: 2^18 operand pairs per accurate and fast op
/// judged by the tests' own bounds, references and rules (`common::assert_every_exponent`), not
/// by the command line's report.
fn assert_every_exponent(driver: &str) {
    let exe = std::env::current_exe().expect("the test binary's own path");
    let exe = exe.to_string_lossy().into_owned();
    let (code, out, err) = common::run_bin(
        &exe,
        &[
            "--exact",
            "every_exponent_on_the_driver_of_this_process",
            "--ignored",
            "--nocapture",
            "--test-threads",
            "1",
        ],
        &[("DF64GL_TEST_DRIVER", driver)],
    );
    assert_eq!(code, 0, "{driver}: {out}\n{err}");
    assert!(
        out.contains("1 passed"),
        "{driver}: the child ran no test: {out}\n{err}"
    );
    eprintln!("{driver}:\n{err}");
}

#[test]
#[ignore = "run by the driver tests as a child process with DF64GL_TEST_DRIVER set"]
fn every_exponent_on_the_driver_of_this_process() {
    let name = std::env::var("DF64GL_TEST_DRIVER").expect("DF64GL_TEST_DRIVER names the driver");
    let driver = match name.as_str() {
        "llvmpipe" => MesaDriver::Llvmpipe,
        "softpipe" => MesaDriver::Softpipe,
        "zink" => MesaDriver::Zink,
        other => panic!("DF64GL_TEST_DRIVER={other}: llvmpipe, softpipe or zink"),
    };
    driver.select().expect("the driver can be selected");
    let k = common::kernels();
    let renderer = k.context().info().renderer.clone();
    // zink reports itself as "zink (llvmpipe ...)": the driver's own name must be there.
    assert!(
        renderer.contains(&name),
        "asked for {name}, got {renderer}: the child would test the wrong driver"
    );
    common::assert_every_exponent(&k, 1 << 18);
    common::assert_fast_domain(&k, 1 << 16);
    // The vector and matrix routines in both stages, from the export a user of this driver
    // pastes (GL 3.3 has `precise` only through GL_ARB_gpu_shader5: the 330 export).
    let target = if k.context().info().glsl_version.starts_with("3.") {
        SnippetTarget::Glsl330
    } else {
        SnippetTarget::Glsl450
    };
    let report = common::assert_vector_sweep(k.context(), target, 512);
    eprintln!("{renderer} vectors ({target:?}):\n{}", report.join("\n"));
    // The known-answer check in both stages, as a renderer runs it on this driver.
    let only = [
        "add",
        "mul",
        "div",
        "sqrt",
        "exp",
        "sin",
        "vec3_sub",
        "mat4_mul_vec4",
        "world_to_view",
    ];
    // SAFETY: the kernels' context is current on this thread.
    let r = unsafe { check_context(k.context().gl(), &SnippetOptions::new(target), Some(&only)) };
    assert!(r.pass, "{renderer}: {}", r.reason);
    let stages = [&r.stages.vertex, &r.stages.fragment];
    assert!(
        stages
            .iter()
            .all(|s| s.as_ref().is_some_and(|s| s.pass && s.probe_green == 4096)),
        "{r:?}"
    );
}

#[test]
fn softpipe_runs_df64_through_precise_from_gpu_shader5() {
    let (code, v) = probe_json("softpipe", &[]);
    assert_eq!(code, 0);
    assert!(
        v["driver"]["renderer"]
            .as_str()
            .unwrap()
            .contains("softpipe"),
        "{v}"
    );
    assert_eq!(v["config"]["protection"], "precise-extension", "{v}");
    assert_exports("softpipe", &["330", "es300"]);
    assert_fft_runs("softpipe", &[]);
    assert_every_exponent("softpipe");
}

fn lavapipe_available() -> bool {
    const ICD: &str = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";
    if std::path::Path::new(ICD).exists() {
        return true;
    }
    // A fresh machine of this kind lacks the package.
    common::apt_install(&["mesa-vulkan-drivers"]) && std::path::Path::new(ICD).exists()
}

#[test]
fn zink_over_lavapipe_runs_df64_with_precise() {
    assert!(
        lavapipe_available(),
        "zink needs mesa-vulkan-drivers (lavapipe); install it or run the tests as root"
    );
    let (code, v) = probe_json("zink", &[]);
    assert_eq!(code, 0);
    assert!(
        v["driver"]["renderer"].as_str().unwrap().contains("zink"),
        "{v}"
    );
    assert_eq!(v["config"]["protection"], "precise", "{v}");
    assert_exports("zink", &["450"]);
    assert_fft_runs("zink", &[]);
    assert_every_exponent("zink");
}

#[test]
fn a_forced_unprotected_build_is_refused() {
    for driver in ["llvmpipe", "softpipe"] {
        let (code, v) = probe_json(driver, &[("DF64GL_PROTECTION", "none")]);
        assert_eq!(code, 4, "{driver}: {v}");
        let why = v["decision"].as_str().unwrap();
        assert!(
            v["config"].is_null() && why.contains("forced") && why.contains("none: WRONG"),
            "{driver}: {why}"
        );
        // The export without any protection paints red on the same driver.
        let (code, out, _) = df64gl(
            &[
                "--gl-driver",
                driver,
                "glsl",
                "--target",
                "es300",
                "--check",
                "--no-fallback",
            ],
            &[],
        );
        assert_eq!(code, 1, "{driver}: {out}");
        assert!(out.contains(" 0 of 4096"), "{driver}: {out}");
    }
}

#[test]
fn the_bit_level_barrier_runs_the_engine_without_precise() {
    let env = [("DF64GL_PROTECTION", "barrier")];
    let (code, v) = probe_json("llvmpipe", &env);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["config"]["protection"], "barrier", "{v}");
    assert_fft_runs("llvmpipe", &env);
}

/// Knuth's TwoSum in the sum (what the engine builds on NVIDIA) on llvmpipe: the probe
/// records it, and the sum and difference in both tiers hold their bounds and equal the CPU
/// mirror (which runs the sorted form) bit for bit: the two forms give the same words; a df64
/// FFT runs on it.
#[test]
fn knuths_two_sum_in_the_sum_gives_the_mirrors_words() {
    let env = [("DF64GL_TWO_SUM", "knuth")];
    let (code, v) = probe_json("llvmpipe", &env);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["config"]["two_sum"], "knuth", "{v}");
    let (code, v, err) = accuracy_only(
        "llvmpipe",
        "65536",
        "add,sub,add_unscaled,add_fast,sub_fast",
        &[],
        &env,
    );
    assert_eq!(code, 0, "{v}{err}");
    assert_eq!(v["config"]["two_sum"], "knuth", "{v}");
    let rows = v["rows"].as_array().expect("Table II rows");
    assert_eq!(rows.len(), 5, "{v}");
    for r in rows {
        assert_eq!(r["mirror_mismatches"], 0, "{r}");
        assert_eq!(r["mirror_must_match"], true, "{r}");
        let max = r["max"].as_f64().expect("max ulp48");
        assert!(max > 0.0 && max <= 0.5, "{r}");
    }
    assert_fft_runs("llvmpipe", &env);
}

#[test]
fn an_unknown_driver_lists_the_choices() {
    let (code, _, err) = df64gl(&["--gl-driver", "radeonsi", "info"], &[]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("llvmpipe") && err.contains("softpipe") && err.contains("zink"),
        "{err}"
    );
}

/// Every df64 function over every argument class on softpipe, which keeps subnormals (the
/// driver where df64_log of a subnormal was once wrong by 10^13 ulp48): `accuracy --check`
/// with only the class sweep exits 0, every class row within its bound, none breaking the
/// IEEE rules, every result equal to the mirror.
#[test]
fn softpipe_functions_hold_at_every_argument_class() {
    // The vector routines on softpipe: every_exponent_on_the_driver_of_this_process.
    let (code, v, err) = accuracy_only("softpipe", "16", "add", &[("--class-samples", "128")], &[]);
    assert_eq!(code, 0, "softpipe: {err}");
    let rows = v["function_classes"].as_array().unwrap();
    assert!(rows.len() > 300, "{} class rows", rows.len());
    for r in rows {
        assert_eq!(r["domain"]["outside_wrong"], 0, "{r}");
        assert_eq!(r["mirror_mismatches"], 0, "{r}");
        assert_eq!(r["meets_target"], true, "{r}");
    }
    // The subnormal class is measured, not skipped: log of a positive subnormal lies in the
    // domain (about half of the class; the negative half is NaN by the IEEE rules).
    let log_sub = rows
        .iter()
        .find(|r| r["op"] == "log" && r["range"] == "subnormal")
        .unwrap();
    assert!(
        log_sub["domain"]["in_domain"].as_u64().unwrap() > 40,
        "{log_sub}"
    );
}

/// qf128 at every exponent on a driver that keeps subnormals (softpipe): no NaN or infinity
/// for a number, equal to the mirror (run in IEEE mode there), and within the bound stated in
/// cli/tests/qf128.rs (`target ulp96 + C 2^-126`), where results keep subnormal trailing words;
/// and qf128's functions over every argument class there.
#[test]
fn softpipe_qf128_holds_at_every_exponent() {
    // qf128's functions by argument class on an IEEE driver, judged below.
    let (code, v, err) = accuracy_only(
        "softpipe",
        "16",
        "add",
        &[
            ("--qf128-exponent-samples", "512"),
            ("--qf128-class-samples", "32"),
        ],
        &[],
    );
    assert_eq!(code, 0, "softpipe: {err}");
    // qf128's functions by class (exp, log, sin, cos over 11 classes): --check above already
    // refused a miss; here, that every class ran and none differed from the mirror.
    let classes = v["qf128_classes"].as_array().unwrap();
    assert_eq!(classes.len(), 44, "{classes:?}");
    for r in classes {
        assert_eq!(r["wrong"], 0, "{r}");
        assert_eq!(r["mirror_mismatches"], 0, "{r}");
        // From 2^-30 up the bound is its T alone (C 2^-126 is under 2^-96 of the result).
        let (target, _) = common::qf128_exponent_bound(r["op"].as_str().unwrap());
        if let Some(u) = r["max_ulp96"].as_f64() {
            assert!(u <= target, "{r}");
        }
    }
    let rows = v["qf128_exponents"].as_array().unwrap();
    assert!(rows.len() > 100, "{} rows", rows.len());
    for r in rows {
        assert_eq!(r["nonfinite_wrong"], 0, "{r}");
        assert_eq!(r["mirror_mismatches"], 0, "{r}");
        let op = r["op"].as_str().unwrap();
        let (target, c) = common::qf128_exponent_bound(op);
        let lo = r["band"][0].as_i64().unwrap();
        let max_abs = r["max_abs_min_normal"].as_f64().unwrap();
        let max_ulp96 = r["max_ulp96"].as_f64().unwrap();
        // In ulp96 of the band's smallest result, C 2^-126 is C 2^(-126 - lo + 95).
        if lo >= -126 {
            let allowed = target + c * 2f64.powi(-126 - lo as i32 + 95);
            assert!(
                max_ulp96 <= allowed,
                "{op} from 2^{lo}: {max_ulp96} > {allowed}: {r}"
            );
        } else {
            assert!(max_abs <= c, "{op} below 2^-126: {max_abs} 2^-126: {r}");
        }
    }
}
