//! Shared set-up for the integration tests: a headless context on the default EGL device
//! (llvmpipe in CI) and a fresh probe of it.

#![allow(dead_code)]

use df64gl::gl::{DeviceChoice, GlContext};
use df64gl::kernels::Df64Kernels;
use df64gl::probe::{run_probe, ProbeReport};

pub fn context() -> GlContext {
    match GlContext::headless(&DeviceChoice::from_arg_or_env(None)) {
        Ok(c) => c,
        Err(e) => panic!("integration tests need an OpenGL device: {e}"),
    }
}

pub fn probed() -> (GlContext, ProbeReport) {
    let ctx = context();
    let report = run_probe(&ctx, 1 << 14).expect("probe runs");
    (ctx, report)
}

pub fn kernels() -> Df64Kernels {
    let (ctx, report) = probed();
    Df64Kernels::new(&ctx, &report).expect("the probe finds an exact configuration")
}

pub fn is_llvmpipe(ctx: &GlContext) -> bool {
    ctx.info().renderer.contains("llvmpipe")
}

/// The drivers on which the GPU's results are documented to equal the CPU mirror bit for bit
/// (docs/proof.md): Mesa's llvmpipe, softpipe and zink over lavapipe round every f32 `+ - * /`
/// and `sqrt` to nearest. Written here, not taken from the probe: on these the tests assert the
/// mirror comparison whatever the probe says, and `the_probe_agrees_with_the_documented_drivers`
/// fails if the probe's verdict differs. Elsewhere (a GPU, whose division or square root GLSL
/// lets be off by an ulp) the tests judge the bounds only.
pub const MIRROR_EXACT_DRIVERS: [&str; 3] = ["llvmpipe", "softpipe", "zink"];

/// Whether this context's driver is one of [`MIRROR_EXACT_DRIVERS`].
pub fn mirror_documented_exact(ctx: &GlContext) -> bool {
    let renderer = &ctx.info().renderer;
    MIRROR_EXACT_DRIVERS.iter().any(|d| renderer.contains(d))
}

/// Runs one of the crate's binaries (`env!("CARGO_BIN_EXE_...")`) as a user would, without a
/// DF64GL_DEVICE from the test's environment and with `env` added: (exit code, stdout,
/// stderr).
pub fn run_bin(exe: &str, args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let out = std::process::Command::new(exe)
        .args(args)
        .env_remove("DF64GL_DEVICE")
        .envs(env.iter().copied())
        .output()
        .unwrap_or_else(|e| panic!("{exe} runs: {e}"));
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Installs Debian packages with apt-get when this is root (the way this project's machines
/// run the tests: a fresh machine lacks Xvfb, lavapipe and Chromium); refreshes the package
/// lists and tries again when the first attempt fails. False when not root or on failure.
pub fn apt_install(packages: &[&str]) -> bool {
    let root = std::process::Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    if !root {
        eprintln!(
            "{} missing and this is not root: not installing",
            packages.join(", ")
        );
        return false;
    }
    eprintln!("{} missing: installing with apt-get", packages.join(", "));
    let apt = |args: &[&str]| {
        std::process::Command::new("apt-get")
            .args(args)
            .env("DEBIAN_FRONTEND", "noninteractive")
            .stdout(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    let mut install = vec!["install", "-y", "-qq", "--no-install-recommends"];
    install.extend_from_slice(packages);
    apt(&install) || (apt(&["update", "-qq"]) && apt(&install))
}

/// The documented qf128 bound at every exponent (docs/accuracy.md, "qf128 at every exponent"),
/// written here and not read from the library: |result - exact| <= T ulp96(exact) + C 2^-126
/// for exact results from 2^-126 up (and at most C 2^-126 below), as (T, C). T is each op's
/// bound near 1; C is the floor of error terms that fall below 2^-126 and are flushed (or
/// rounded as subnormals): the multiplies form partial products down to 2^-24 below their
/// trailing word and are not exponent-scaled, so theirs is larger.
#[allow(dead_code)]
pub fn qf128_exponent_bound(op: &str) -> (f64, f64) {
    match op {
        "add" | "sub" | "sqr" => (2.0, 4.0),
        "mul" | "mul_f32" | "mul_df64" => (2.0, 1024.0),
        "div" | "recip" | "sqrt" | "rsqrt" => (4.0, 4.0),
        "exp" | "log" | "sin" | "cos" => (8.0, 4.0),
        other => panic!("no qf128 exponent bound stated for {other}"),
    }
}

/// The documented df64 bounds (docs/glsl.md, README), written here and not read from the library
/// so that loosening the library's table cannot loosen a test: (max, RMS on Thall's ranges) in
/// ulp48 for the accurate defaults and the fast tier. Panics for an op without one: a test
/// that judges an op must state its bound.
pub fn df64_bound(op: &str) -> (f64, f64) {
    match op {
        "add" | "sub" | "mul" | "sqr" | "mul_f32" | "sqrt" => (0.5, 0.25),
        "div" | "recip" | "rsqrt" => (1.0, 0.25),
        "mul_fast" | "sqr_fast" | "mul_f32_fast" => (2.0, 0.5),
        other => panic!("no df64 bound stated in the tests for {other}"),
    }
}
