//! A df64 element-wise computation on your own data: y = sqrt(x) * c + x over a `Vec<f64>`,
//! each op a GPU pass over RGBA32F textures, the result compared with f64 on the host.
//!
//! `cargo run --release --example elementwise_kernel`

use df64gl::gl::{DeviceChoice, GlContext};
use df64gl::kernels::{Df64Kernels, Df64Op};
use df64gl::numeric::df64::Df64;
use df64gl::probe::probe_driver;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let x: Vec<f64> = (1..=100_000).map(|k| k as f64 / 7.0).collect();
    let c = std::f64::consts::PI;

    let ctx = GlContext::headless(&DeviceChoice::Auto)?;
    let probe = probe_driver(&ctx, false)?;
    let kernels = Df64Kernels::new(&ctx, &probe)?;

    // Each f64 split into a pair of f32 (hi, lo): 48 of its 53 bits.
    let xd: Vec<Df64> = x.iter().map(|v| Df64::from_f64(*v)).collect();
    let cd = vec![Df64::from_f64(c); x.len()];
    let root = kernels.apply(Df64Op::Sqrt, &xd, &xd)?;
    let scaled = kernels.apply(Df64Op::Mul, &root, &cd)?;
    let y = kernels.apply(Df64Op::Add, &scaled, &xd)?;

    // Relative difference from f64 (f64 itself rounds at 2^-53, df64 at about 2^-48).
    let worst = y
        .iter()
        .zip(&x)
        .map(|(y, x)| {
            let want = x.sqrt() * c + x;
            ((y.to_f64() - want) / want).abs()
        })
        .fold(0.0, f64::max);
    println!("{} elements, y[0] = {:.15}", y.len(), y[0].to_f64());
    println!("largest relative difference from f64: {worst:.3e}");
    Ok(())
}
