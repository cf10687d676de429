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
        "hypot" => (1.5, 0.25),
        "mul_fast" | "sqr_fast" | "mul_f32_fast" => (2.0, 0.5),
        other => panic!("no df64 bound stated in the tests for {other}"),
    }
}

/// A test's verdict on one df64 result, by the domain's rules as docs/glsl.md states them,
/// written here and not taken from the library (`numeric::domain::judge` is the library's own
/// allowance, which a test must not borrow).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Judged {
    /// The exact result lies in 2^-100 to 2^126: the error in ulp48 beyond the flush allowance.
    InDomain(f64),
    /// Outside the domain and as the IEEE rules say.
    OutsideOk,
    /// Outside the domain and not as they say.
    OutsideWrong,
}

/// ulp48(x) = 2^(e-47) where 2^e <= |x| < 2^(e+1), from the bits of a normal f64.
pub fn ulp48_of(x: f64) -> f64 {
    let e = ((x.abs().to_bits() >> 52) & 0x7ff) as i32 - 1023;
    2f64.powi(e - 47)
}

/// Judges `got` against `exact` with the documented rules: in 2^-100 to 2^126 the error beyond
/// 2^-126 absolute where the driver flushes subnormals (2^-149 where it keeps them: the low
/// word cannot hold less) is measured in ulp48; outside, NaN only for a NaN exact value, ±inf (zero low word, right
/// sign) only past f32::MAX, an exact zero exactly, and otherwise within `bound` ulp48 beyond
/// the same allowance.
pub fn judge_result(
    got: df64gl::numeric::df64::Df64,
    exact: df64gl::numeric::reference::Dd,
    bound: f64,
    flush: bool,
) -> Judged {
    use df64gl::numeric::reference::Dd;
    let x = exact.to_f64();
    let verdict = |ok: bool| {
        if ok {
            Judged::OutsideOk
        } else {
            Judged::OutsideWrong
        }
    };
    if x.is_nan() || got.hi.is_nan() || got.lo.is_nan() {
        return verdict(x.is_nan() && got.hi.is_nan());
    }
    if got.hi.is_infinite() {
        let same_sign = (got.hi > 0.0) == (x > 0.0);
        return verdict(same_sign && got.lo == 0.0 && x.abs() > f32::MAX as f64);
    }
    if !x.is_finite() {
        return Judged::OutsideWrong;
    }
    // The smallest low word the driver keeps: 2^-126 where it flushes subnormals, the smallest
    // subnormal (2^-149) where it keeps them.
    let allowance = if flush {
        2f64.powi(-126)
    } else {
        2f64.powi(-149)
    };
    let diff = (Dd::from_df64(got) - exact).to_f64().abs();
    let beyond = (diff - allowance).max(0.0);
    if x == 0.0 {
        return verdict(diff == 0.0);
    }
    let ax = x.abs();
    if (2f64.powi(-100)..=2f64.powi(126)).contains(&ax) {
        Judged::InDomain(beyond / ulp48_of(x))
    } else {
        verdict(beyond <= bound * ulp48_of(x))
    }
}
