//! The `fft-demo` binary as a user runs it: the embedded default, file input and output,
//! the plot, and clear errors for bad input.

use std::path::PathBuf;

use rustfft::num_complex::Complex64;

mod common;

fn demo(args: &[&str]) -> (i32, String, String) {
    let cache = std::env::temp_dir().join(format!("df64gl-demo-cache-{}", std::process::id()));
    let cache = cache.to_string_lossy();
    common::run_bin(
        env!("CARGO_BIN_EXE_fft-demo"),
        args,
        &[("DF64GL_CACHE_DIR", cache.as_ref())],
    )
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("df64gl-demo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn default_run_reports_every_precision_within_its_target_and_plots() {
    let png = scratch("default.png");
    let (code, out, err) = demo(&["--json", "--plot", png.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let report: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(report["n"], 65536);
    let rows = report["rows"].as_array().unwrap();
    let row = |p: &str| {
        rows.iter()
            .find(|r| r["precision"] == p)
            .unwrap_or_else(|| panic!("no {p} row"))
    };
    let err_of = |p: &str| row(p)["rel_l2"].as_f64().unwrap();
    assert!(
        err_of("f32") > 1e-9 && err_of("f32") < 1e-5,
        "{}",
        err_of("f32")
    );
    assert!(
        err_of("df64") > 1e-17 && err_of("df64") < 3e-14,
        "{}",
        err_of("df64")
    );
    assert!(
        err_of("qf128") > 1e-34 && err_of("qf128") < 1e-27,
        "{}",
        err_of("qf128")
    );
    for p in ["f32", "df64", "qf128"] {
        let r = row(p);
        assert!(r["seconds"].as_f64().unwrap() > 0.0);
        assert!(r["gflops"].as_f64().unwrap() > 0.0);
        let rt = &r["round_trip"];
        assert!(rt["peak_snr_db"].as_f64().unwrap() > 100.0, "{p}: {rt}");
    }
    let rel = |p: &str| {
        row(p)["round_trip"]["rmse_magnitude_relative"]
            .as_f64()
            .unwrap()
    };
    assert!(rel("df64") < 3e-14 && rel("qf128") < 1e-27 && rel("f32") < 1e-5);
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[1..4], b"PNG");
    // IHDR width and height.
    assert_eq!(u32::from_be_bytes(bytes[16..20].try_into().unwrap()), 1200);
    assert_eq!(u32::from_be_bytes(bytes[20..24].try_into().unwrap()), 960);
}

#[test]
fn csv_input_is_transformed_at_its_own_length_and_matches_rustfft() {
    let input = scratch("in.csv");
    let reals: Vec<f64> = (0..1000)
        .map(|i| ((i * i) % 17) as f64 / 17.0 - 0.5)
        .collect();
    let text: String = reals.iter().map(|v| format!("{v}\n")).collect();
    std::fs::write(&input, format!("value\n{text}")).unwrap();
    let output = scratch("out.csv");
    let (code, out, err) = demo(&[
        "--input",
        input.to_str().unwrap(),
        "--precision",
        "df64",
        "--radix",
        "2",
        "--output",
        output.to_str().unwrap(),
        "--no-plot",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("padding"), "nothing is padded unasked: {err}");
    assert!(
        out.contains("| df64 |") && out.contains("rustfft f64 (host)"),
        "{out}"
    );
    let read_output = || -> Vec<Complex64> {
        std::fs::read_to_string(&output)
            .unwrap()
            .lines()
            .skip(1)
            .map(|l| {
                let (a, b) = l.split_once(',').unwrap();
                Complex64::new(a.parse().unwrap(), b.parse().unwrap())
            })
            .collect()
    };
    let worst_against = |len: usize| -> f64 {
        let mut reference: Vec<Complex64> = reals.iter().map(|v| Complex64::new(*v, 0.0)).collect();
        reference.resize(len, Complex64::new(0.0, 0.0));
        rustfft::FftPlanner::<f64>::new()
            .plan_fft_forward(len)
            .process(&mut reference);
        let got = read_output();
        assert_eq!(got.len(), len);
        got.iter()
            .zip(&reference)
            .map(|(a, b)| (a - b).norm())
            .fold(0.0, f64::max)
    };
    // The 1000-point DFT of the data (Bluestein), not a transform of padded data.
    let worst = worst_against(1000);
    assert!(worst < 1e-12, "worst bin error {worst:e}");
    // Padding only when asked, and said.
    let (code, _, err) = demo(&[
        "--input",
        input.to_str().unwrap(),
        "--precision",
        "df64",
        "--size",
        "1024",
        "--output",
        output.to_str().unwrap(),
        "--no-plot",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("zero-padding 1000 samples to 1024"), "{err}");
    let worst = worst_against(1024);
    assert!(worst < 1e-12, "worst bin error {worst:e}");
}

#[test]
fn inverse_of_raw_input_with_in_shader_twiddles() {
    let input = scratch("in.raw");
    let n = 256;
    let values: Vec<Complex64> = (0..n)
        .map(|i| Complex64::new((i as f64 * 0.1).sin(), (i as f64 * 0.3).cos()))
        .collect();
    let bytes: Vec<u8> = values
        .iter()
        .flat_map(|z| z.re.to_le_bytes().into_iter().chain(z.im.to_le_bytes()))
        .collect();
    std::fs::write(&input, bytes).unwrap();
    let (code, out, err) = demo(&[
        "--input",
        input.to_str().unwrap(),
        "--inverse",
        "--twiddles",
        "direct",
        "--precision",
        "df64,qf128",
        "--json",
        "--no-plot",
    ]);
    assert_eq!(code, 0, "{err}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["direction"], "inverse");
    assert_eq!(report["twiddles"], "direct");
    for r in report["rows"].as_array().unwrap() {
        let target = if r["precision"] == "df64" {
            3e-14
        } else {
            1e-27
        };
        assert!(r["rel_l2"].as_f64().unwrap() < target, "{r}");
    }
}

#[test]
fn bad_input_gives_clear_errors() {
    let (code, _, err) = demo(&["--size", "0", "--no-plot"]);
    assert_eq!(code, 2);
    assert!(err.contains("at least 1"), "{err}");
    let (code, _, err) = demo(&["--input", "/nonexistent/x.csv", "--no-plot"]);
    assert_eq!(code, 3);
    assert!(err.contains("/nonexistent/x.csv"), "{err}");
    let bad = scratch("nan.csv");
    std::fs::write(&bad, "1,2\nnan,0\n").unwrap();
    let (code, _, err) = demo(&["--input", bad.to_str().unwrap(), "--no-plot"]);
    assert_eq!(code, 3);
    assert!(
        err.contains("line 2, field 1") && err.contains("not finite"),
        "{err}"
    );
    let bad = scratch("field.csv");
    std::fs::write(&bad, "1,2\n3,1e5x\n").unwrap();
    let (code, _, err) = demo(&["--input", bad.to_str().unwrap(), "--no-plot"]);
    assert_eq!(code, 3);
    assert!(
        err.contains("line 2, field 2") && err.contains("1e5x"),
        "{err}"
    );
    let (code, _, err) = demo(&["--precision", "f16"]);
    assert_eq!(code, 2, "{err}");
}

/// The driver's texture side (GL_MAX_TEXTURE_SIZE), read from a context of the test's own.
fn texture_side() -> usize {
    let ctx = df64gl::gl::GlContext::headless(&df64gl::gl::DeviceChoice::Auto)
        .unwrap_or_else(|e| panic!("a GL device: {e}"));
    ctx.info().max_texture_size as usize
}

#[test]
fn sizes_past_the_device_are_refused_at_once_and_the_largest_under_the_budget_runs() {
    let side = texture_side();
    let capacity = side * side;
    let huge = [
        "99999999999".to_string(),
        usize::MAX.to_string(),
        (capacity + 1).to_string(),
        (capacity / 2 + 1).to_string(),
    ];
    for size in &huge {
        let t = std::time::Instant::now();
        let (code, _, err) = demo(&["--size", size, "--no-plot"]);
        assert_eq!(code, 3, "--size {size}: {err}");
        assert!(
            err.contains(&format!("{side} x {side}")) && err.contains(&capacity.to_string()),
            "--size {size} names the texture limit and the largest length: {err}"
        );
        assert!(
            !err.contains("panicked") && !err.contains("memory allocation"),
            "{err}"
        );
        assert!(
            t.elapsed().as_secs() < 20,
            "--size {size}: {:?}",
            t.elapsed()
        );
    }
    // Under a 64 MiB budget: df64's two natural buffers alone take 2^21 points past it; the
    // largest the library allows there (2^19, tests/fft_limits.rs) runs.
    let budget = [("DF64GL_MEMORY_BUDGET", "64M")];
    let run = |size: &str| {
        let cache = std::env::temp_dir().join(format!("df64gl-demo-cache-{}", std::process::id()));
        let cache = cache.to_string_lossy().into_owned();
        let mut env = vec![("DF64GL_CACHE_DIR", cache.as_str())];
        env.extend(budget);
        common::run_bin(
            env!("CARGO_BIN_EXE_fft-demo"),
            &["--size", size, "--precision", "df64", "--no-plot", "--json"],
            &env,
        )
    };
    let (code, _, err) = run(&(1usize << 21).to_string());
    assert_eq!(code, 3, "{err}");
    assert!(
        err.contains("64.0 MiB") && err.contains("DF64GL_MEMORY_BUDGET"),
        "the memory refusal names the budget: {err}"
    );
    let (code, out, err) = run(&(1usize << 19).to_string());
    assert_eq!(code, 0, "{err}");
    let report: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(report["n"], 1 << 19);
}
