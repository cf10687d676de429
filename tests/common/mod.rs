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
