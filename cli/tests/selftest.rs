//! Every df64/qf128 program proves itself on first build: a known-answer self-test against
//! the CPU mirror, remembered per driver and source; a configuration the probe lets through
//! but the programs break (df64gl 0.1.0's statement barrier, forced) is refused, naming the
//! program, the input and both values; f32 work still runs where df64 is refused.

mod common;

use df64gl::fft::{FftPrecision, StockhamPlan};
use df64gl::kernels::Df64Op;
use df64gl::numeric::df64::Df64;
use df64gl::probe::selftest::take_records;

fn temp_dir(tag: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("df64gl-selftest-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn df64gl(args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    common::run_bin(env!("CARGO_BIN_EXE_df64gl"), args, env)
}

fn fft_demo(args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    common::run_bin(env!("CARGO_BIN_EXE_fft-demo"), args, env)
}

/// The only test of this binary that reads the process environment (the record's folder).
#[test]
fn programs_test_themselves_once_per_driver_and_source() {
    let dir = temp_dir("record");
    std::env::set_var("DF64GL_CACHE_DIR", &dir);
    let kernels = common::kernels();
    take_records();
    let plan = StockhamPlan::new(&kernels, 64, FftPrecision::Df64).unwrap();
    drop(plan);
    let a = vec![Df64::from_f64(1.0 / 3.0); 8];
    kernels.apply(Df64Op::Mul, &a, &a).unwrap();
    let first = take_records();
    let fft = first
        .iter()
        .find(|r| r.program.starts_with("stockham (df64, table twiddles"))
        .expect("the FFT's passes tested themselves");
    assert!(!fft.cached && fft.passed && fft.cases >= 2 * 64, "{fft:?}");
    let mul = first
        .iter()
        .find(|r| r.program.contains("df64_mul(a, b)"))
        .expect("df64_mul tested itself");
    assert!(!mul.cached && mul.passed && mul.cases >= 96, "{mul:?}");

    // The same sources again: remembered, not run.
    let plan = StockhamPlan::new(&kernels, 64, FftPrecision::Df64).unwrap();
    drop(plan);
    let again = take_records();
    assert!(
        !again.is_empty() && again.iter().all(|r| r.cached && r.cases == 0),
        "{again:?}"
    );

    // And on disk, one line per source, for the next process.
    let file = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(Result::ok)
        .find(|e| e.file_name().to_string_lossy().starts_with("selftests-"))
        .expect("the record is written next to the probe cache");
    let lines = std::fs::read_to_string(file.path()).unwrap();
    assert!(lines.lines().count() >= 4, "{lines}");
    assert!(
        lines.lines().all(|l| u64::from_str_radix(l, 16).is_ok()),
        "{lines}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The 0.1.0 barrier (a uniform 1 multiplied into each statement) passes the probe's checks
/// of the four transforms, yet Mesa's compiler defeats it inside the routines: the element-wise
/// multiply, the FFT's passes and the Mandelbrot program must each refuse (exit 4) with the
/// program, the input and both values; a plain add still passes.
#[test]
fn a_forced_configuration_the_probe_accepts_is_refused_by_the_self_tests() {
    let dir = temp_dir("forced");
    let cache = dir.to_string_lossy().into_owned();
    let env = [
        ("DF64GL_CACHE_DIR", cache.as_str()),
        ("DF64GL_PROTECTION", "statement-multiply"),
    ];
    let (code, out, err) = df64gl(&["--json", "probe", "--samples", "4096"], &env);
    assert_eq!(code, 0, "the probe lets the 0.1.0 barrier through: {err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["config"]["protection"], "statement-multiply", "{out}");

    let (code, _, err) = fft_demo(
        &[
            "--precision",
            "df64",
            "--size",
            "256",
            "--no-plot",
            "--repeats",
            "1",
        ],
        &env,
    );
    assert_eq!(code, 4, "{err}");
    assert!(err.contains("the self-test of stockham_"), "{err}");
    assert!(
        err.contains("the GPU returned [") && err.contains("the CPU mirror ["),
        "{err}"
    );
    assert!(
        err.contains("tried statement multiply (0.1.0): failed"),
        "{err}"
    );

    let png = dir.join("m.png");
    let (code, _, err) = df64gl(
        &[
            "mandelbrot",
            "--precision",
            "df64",
            "--size",
            "16x16",
            "--out",
            png.to_str().unwrap(),
        ],
        &env,
    );
    assert_eq!(code, 4, "{err}");
    assert!(
        err.contains("self-test of mandelbrot.glsl (df64) failed: for pixel"),
        "{err}"
    );

    let (code, out, err) = df64gl(&["selftest", "--only", "elementwise"], &env);
    assert_eq!(code, 4, "{out} {err}");
    let line = |needle: &str| {
        out.lines()
            .find(|l| l.starts_with(needle))
            .unwrap_or_else(|| panic!("no row {needle}: {out}"))
            .to_string()
    };
    assert!(line("elementwise.glsl (df64_mul(a, b))").ends_with("FAILED"));
    // Thall's add has no product and no scaling for the barrier to move: it still passes.
    assert!(line("elementwise.glsl (df64_add_thall(a, b))").ends_with("passed"));
    assert!(
        out.contains("REFUSED: df64 refused for elementwise.glsl (df64_mul(a, b)): the self-test"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `df64gl selftest` on the default driver: every Mandelbrot program passes, the cost line is
/// there, and a second run finds them passed before.
#[test]
fn selftest_command_reports_outcome_and_cost() {
    let dir = temp_dir("command");
    let cache = dir.to_string_lossy().into_owned();
    let env = [("DF64GL_CACHE_DIR", cache.as_str())];
    let (code, out, err) = df64gl(&["selftest", "--only", "mandelbrot"], &env);
    assert_eq!(code, 0, "{out} {err}");
    let rows: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("mandelbrot.glsl"))
        .collect();
    assert_eq!(rows.len(), 4, "{out}");
    assert!(rows.iter().all(|r| r.ends_with("  passed")), "{out}");
    assert!(out.contains("tested now: 4 program builds"), "{out}");
    let (code, out, _) = df64gl(&["selftest", "--only", "mandelbrot"], &env);
    assert_eq!(code, 0);
    assert!(out.contains("passed before: 4 program builds"), "{out}");
    assert!(!out.contains("tested now"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Where the probe refuses df64 (forced `none` on llvmpipe), the f32 FFT still runs and says
/// what it skipped; df64 alone is refused with exit 4.
#[test]
fn f32_work_runs_where_df64_is_refused() {
    let dir = temp_dir("refused");
    let cache = dir.to_string_lossy().into_owned();
    let env = [
        ("DF64GL_CACHE_DIR", cache.as_str()),
        ("DF64GL_PROTECTION", "none"),
    ];
    let args = [
        "--size",
        "1024",
        "--no-plot",
        "--repeats",
        "1",
        "--precision",
    ];
    let mut both = args.to_vec();
    both.push("f32,df64");
    let (code, out, err) = fft_demo(&both, &env);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("skipped df64: df64 refused on this driver"),
        "{err}"
    );
    assert!(
        out.contains("| f32 |") && !out.contains("| df64 |"),
        "{out}"
    );
    let mut df64_only = args.to_vec();
    df64_only.push("df64");
    let (code, _, err) = fft_demo(&df64_only, &env);
    assert_eq!(code, 4, "{err}");
    assert!(err.contains("df64 refused on this driver"), "{err}");
    let (code, out, _) = df64gl(&["info"], &env);
    assert_eq!(code, 0);
    assert!(out.contains("llvmpipe") || out.contains("OpenGL"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
