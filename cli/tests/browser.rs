//! The driver matrix's WebGL 2 legs: the es300 export pasted into plain WebGL 2 programs on a
//! local page in headless Chromium (`df64gl glsl --target es300 --measure --browser B`), on
//! ANGLE over SwiftShader and on ANGLE over Mesa's OpenGL ES (the path Chrome takes on many
//! Linux desktops). The page's pixels come back through the DOM and are checked here against
//! the oracle and the CPU mirror. Chromium is installed with apt-get when missing (as root, the
//! way this project's machines run the tests).

mod common;

use serde_json::Value;

fn measure(backend: &str, extra: &[&str]) -> (i32, Value, String) {
    common::chromium();
    let mut args = vec![
        "--json",
        "glsl",
        "--target",
        "es300",
        "--measure",
        "--browser",
        backend,
    ];
    args.extend_from_slice(extra);
    let (code, out, err) = common::run_bin(env!("CARGO_BIN_EXE_df64gl"), &args, &[]);
    let v: Value = serde_json::from_str(&out)
        .unwrap_or_else(|e| panic!("{backend}: no JSON report ({e}): {out} {err}"));
    (code, v, err)
}

/// Every routine within its bound on 2^16 operand pairs (the core ops also at exponents from
/// -100 to 100) and equal to the mirror bit for bit (run in the page's measured flush mode),
/// and the probe shader all green; without the barrier, on a compiler that breaks the routines
/// (`unprotected_breaks`), the probe shader is not all green and a routine misses its bound.
fn assert_leg(backend: &str, renderer: &str, unprotected_breaks: bool) {
    let (code, v, err) = measure(backend, &[]);
    assert_eq!(code, 0, "{backend}: {err} {v}");
    let r = v["renderer"].as_str().unwrap();
    assert!(r.contains(renderer), "{backend}: renderer {r}");
    assert_eq!(v["probe"]["green"], v["probe"]["pixels"], "{backend}: {v}");
    let rows = v["rows"].as_array().unwrap();
    // 11 routines on their ranges, then add, sub, mul, div and sqrt with exponents in
    // [-100, 100] (passed: within the bound in the domain, no IEEE rule broken outside).
    assert_eq!(rows.len(), 16);
    assert_eq!(
        rows.iter().filter(|r| r["range"] == "2^±100").count(),
        5,
        "{backend}: {v}"
    );
    for row in rows {
        assert_eq!(row["samples"], 65536, "{row}");
        assert_eq!(row["passed"], true, "{backend}: {row}");
        assert_eq!(row["mirror_mismatches"], 0, "{backend}: {row}");
    }

    // Without the barrier: where the compiler breaks the routines (Mesa's NIR under ANGLE
    // folds twoSum), the probe shader is not all green and a routine misses its bound; where it
    // happens not to (SwiftShader's Subzero, measured exact on this export since the routines
    // scale their exponents), everything passes and equals the mirror. Never a green probe over
    // a broken routine.
    let (code, v, _) = measure(backend, &["--no-fallback", "--samples", "4096"]);
    let green = v["probe"]["green"].as_u64().unwrap();
    let rows = v["rows"].as_array().unwrap();
    let broken = rows.iter().any(|r| r["passed"] == false);
    if unprotected_breaks {
        assert_eq!(code, 1, "{backend}: the unprotected export must fail: {v}");
        assert!(
            green < 4096,
            "{backend}: unprotected probe shader all green"
        );
        assert!(broken, "{backend}: {v}");
    } else if broken {
        assert!(
            green < 4096,
            "{backend}: green probe over a broken routine: {v}"
        );
    } else {
        assert_eq!(code, 0, "{backend}: {v}");
        assert!(
            rows.iter().all(|r| r["mirror_mismatches"] == 0),
            "{backend}: {v}"
        );
    }
}

#[test]
fn webgl2_on_swiftshader() {
    assert_leg("swiftshader", "SwiftShader", false);
}

#[test]
fn webgl2_on_angle_over_mesa() {
    assert_leg("angle-gl", "llvmpipe", true);
}
