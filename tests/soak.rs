//! Soak: 10,000 FFT executions and 1,000 plan create/drop cycles with flat resident memory
//! and no leaked GL objects (counted by name with glIsTexture, glIsFramebuffer, glIsProgram).

use df64gl::fft::{Direction, FftPrecision, GpuFft, StockhamPlan};
use df64gl::gl::GlContext;
use glow::HasContext;
use rustfft::num_complex::Complex64;

mod common;

/// Resident set size of this process in KiB (Linux). Unreadable is a failure: a soak that
/// cannot see memory proves nothing about it.
fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status")
        .expect("the soak reads VmRSS from /proc/self/status (Linux only)");
    status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        .expect("no readable VmRSS line in /proc/self/status")
}

/// Live GL objects: (textures, framebuffers, programs) among the first 4096 names.
fn gl_objects(ctx: &GlContext) -> (usize, usize, usize) {
    let gl = ctx.gl();
    // A deleted program stays alive while it is current: unbind it first.
    unsafe { gl.use_program(None) };
    let mut counts = (0, 0, 0);
    for i in 1..=4096u32 {
        let n = std::num::NonZeroU32::new(i).expect("nonzero");
        unsafe {
            counts.0 += gl.is_texture(glow::NativeTexture(n)) as usize;
            counts.1 += gl.is_framebuffer(glow::NativeFramebuffer(n)) as usize;
            counts.2 += gl.is_program(glow::NativeProgram(n)) as usize;
        }
    }
    counts
}

#[test]
#[cfg_attr(
    not(target_os = "linux"),
    ignore = "reads resident memory from /proc/self/status, which only Linux has"
)]
fn ten_thousand_executions_and_a_thousand_plans_leak_nothing() {
    let k = common::kernels();
    let ctx = k.context().clone();
    let n = 256;
    let x: Vec<Complex64> = (0..n)
        .map(|i| Complex64::new((i as f64 * 0.37).sin(), (i as f64 * 1.3).cos()))
        .collect();

    let mut plan = StockhamPlan::new(&k, n, FftPrecision::Df64).unwrap();
    plan.upload(&x).unwrap();
    let mut rss = Vec::new();
    for i in 0..10_000 {
        // Forward then inverse keeps the data where they started.
        let d = if i % 2 == 0 {
            Direction::Forward
        } else {
            Direction::Inverse
        };
        plan.execute(d).unwrap();
        if i % 2000 == 1999 {
            ctx.finish_gpu();
            rss.push(rss_kib());
        }
    }
    let back = plan.download::<Complex64>().unwrap();
    let drift = back
        .iter()
        .zip(&x)
        .map(|(a, b)| (a - b).norm())
        .fold(0.0, f64::max);
    assert!(drift < 1e-11, "5000 round trips drifted by {drift:e}");
    drop(plan);

    let objects_before = gl_objects(&ctx);
    for i in 0..1000 {
        let precision = [FftPrecision::F32, FftPrecision::Df64][i % 2];
        let mut p = StockhamPlan::new(&k, 64, precision).unwrap();
        p.upload(&x[..64]).unwrap();
        p.execute(Direction::Forward).unwrap();
        if i % 250 == 249 {
            ctx.finish_gpu();
            rss.push(rss_kib());
        }
    }
    let objects_after = gl_objects(&ctx);
    assert_eq!(
        objects_before, objects_after,
        "GL objects (textures, framebuffers, programs)"
    );
    eprintln!("soak: RSS KiB after each block {rss:?}; GL objects {objects_after:?}");
    // Flat: after the first block (driver caches warm), no block may add more than 8 MiB
    // over the first, in the FFT phase or the plan phase.
    let (first_fft, first_plan) = (rss[0], rss[5]);
    for (i, r) in rss.iter().enumerate() {
        let base = if i < 5 { first_fft } else { first_plan };
        assert!(
            *r <= base + 8 * 1024,
            "resident memory grew from {base} KiB to {r} KiB (block {i}): {rss:?}"
        );
    }
}
