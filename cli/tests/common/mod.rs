//! The shared set-up of the root package's tests (`tests/common`: a context, a probe, kernels,
//! running binaries, apt-get), and what only the command line's tests need: Chromium.

#![allow(dead_code)]

#[path = "../../../tests/common/mod.rs"]
mod shared;
pub use shared::*;

use df64gl::fft::reference::Cdd;
use df64gl::kernels::{Df64Kernels, Df64Op};
use df64gl::numeric::df64::Df64;
use df64gl::numeric::domain::{exponent_operand, operand_at_exponent, same_words};
use df64gl::numeric::qf128::{ComplexQf128, Qf128};
use df64gl::numeric::reference::{error_ulp48, Dd};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Chromium for the WebGL 2 tests, installed with apt-get when missing (once per process:
/// tests run in parallel and apt-get takes a lock). Panics with what to do when it cannot be
/// had: these tests run in CI, which is root.
pub fn chromium() -> std::path::PathBuf {
    static FOUND: std::sync::OnceLock<Option<std::path::PathBuf>> = std::sync::OnceLock::new();
    FOUND
        .get_or_init(|| {
            let find = df64gl_cli::web::browser::find_chromium;
            find().or_else(|| {
                if apt_install(&["chromium"]) {
                    find()
                } else {
                    None
                }
            })
        })
        .clone()
        .expect(
            "the WebGL 2 tests need Chromium: apt-get install chromium (or set \
             DF64GL_CHROMIUM), or run the tests as root",
        )
}

/// The `js/` package's pinned devDependencies (three, luma.gl), installed with npm when missing (once
/// per process), as the browser tests install Chromium. Panics with what to do when it fails.
pub fn js_dev_dependencies() -> std::path::PathBuf {
    static DONE: std::sync::OnceLock<Result<std::path::PathBuf, String>> =
        std::sync::OnceLock::new();
    DONE.get_or_init(|| {
        let js = df64gl_cli::web::js_module::repository_root().join("js");
        let have = |p: &str| js.join("node_modules").join(p).is_file();
        if have("three/build/three.module.js")
            && have("@luma.gl/engine/dist/index.js")
            && have("fft.js/lib/fft.js")
            && have("typescript/bin/tsc")
            && have("maplibre-gl/dist/maplibre-gl.mjs")
        {
            return Ok(js);
        }
        let out = std::process::Command::new("npm")
            .args(["install", "--no-audit", "--no-fund", "--no-save"])
            .current_dir(&js)
            .output()
            .map_err(|e| format!("npm: {e} (install Node.js and npm)"))?;
        if out.status.success() {
            Ok(js)
        } else {
            Err(format!(
                "npm install in js/ failed: {}",
                String::from_utf8_lossy(&out.stderr)
            ))
        }
    })
    .clone()
    .unwrap_or_else(|e| panic!("{e}"))
}

/// The domain on the context of `k`: `pairs` operand pairs per accurate op with
/// exponents uniform in [-100, 100] (random signs): every result of magnitude 2^-100 to 2^126
/// within the bound stated in [`df64_bound`] beyond the driver's flush allowance, every other
/// result as the IEEE rules say ([`judge_result`], never NaN for a finite or infinite exact
/// result), and, on the drivers of [`MIRROR_EXACT_DRIVERS`], every result equal to the CPU
/// mirror run in the driver's subnormal mode, bit for bit. The references are double-double
/// products, sums, quotients and roots computed here.
pub fn assert_every_exponent(k: &Df64Kernels, pairs: usize) {
    let flush = k.proof().flushes_subnormals;
    // Every accurate op; each must have a bound stated in tests/common. (The fast tier has a
    // domain of its own: `assert_fast_domain`.)
    let bounds: Vec<(Df64Op, f64)> = Df64Op::ACCURATE
        .into_iter()
        .map(|op| (op, df64_bound(op.name()).0))
        .collect();
    let mut report = Vec::new();
    for (i, (op, bound)) in bounds.into_iter().enumerate() {
        let mut rng = ChaCha8Rng::seed_from_u64(400 + i as u64);
        let positive = matches!(op, Df64Op::Sqrt | Df64Op::Rsqrt);
        let (a, b) = operand_pairs(op, pairs, || {
            (
                exponent_operand(&mut rng, 100, positive),
                exponent_operand(&mut rng, 100, false),
            )
        });
        let got = k.apply_unchecked(op, &a, &b).unwrap();
        let mirror = op.mirror();
        let want = k.mirror_map(pairs, |j| mirror(a[j], b[j]));
        let reference = df64_reference(op.name());
        let (mut max, mut inside, mut wrong, mut diffs) = (0.0f64, 0usize, Vec::new(), 0usize);
        for j in 0..pairs {
            if !same_words(got[j], want[j]) {
                diffs += 1;
            }
            let exact = reference(Dd::from_df64(a[j]), Dd::from_df64(b[j]));
            match judge_result(got[j], exact, bound, flush) {
                Judged::InDomain(e) => {
                    inside += 1;
                    max = max.max(e);
                }
                Judged::OutsideOk => {}
                Judged::OutsideWrong => wrong.push((a[j], b[j], got[j], exact.to_f64())),
            }
        }
        report.push(format!(
            "{}: {inside} results in the domain, max {max:.3} ulp48; {} outside against the rules; {diffs} differ from the mirror",
            op.name(),
            wrong.len()
        ));
        assert!(inside > pairs / 2, "{}: {inside} in the domain", op.name());
        assert!(max <= bound, "{}: max {max} ulp48 > {bound}", op.name());
        assert!(
            wrong.is_empty(),
            "{}: {:?}",
            op.name(),
            &wrong[..wrong.len().min(4)]
        );
        if mirror_documented_exact(k.context()) {
            assert_eq!(diffs, 0, "{}: GPU differs from the mirror", op.name());
        }
    }
    eprintln!("{}", report.join("\n"));
}

/// `pairs` operand pairs drawn by `draw`, b's low word cleared where the op takes an f32 b.
fn operand_pairs(
    op: Df64Op,
    pairs: usize,
    mut draw: impl FnMut() -> (Df64, Df64),
) -> (Vec<Df64>, Vec<Df64>) {
    (0..pairs)
        .map(|_| {
            let (x, mut y) = draw();
            if matches!(op, Df64Op::MulF32 | Df64Op::MulF32Fast) {
                y.lo = 0.0;
            }
            (x, y)
        })
        .unzip()
}

/// The fast tier's arithmetic over its own domain on the context of `k`: `pairs` operand pairs
/// per op with exponents uniform in [-18, 60] ([-18, 18] for div, [-40, 126] for sqrt; random
/// signs), so that operands and exact results lie in 2^-40 to 2^126 or are zero: every result
/// within the bound stated in [`df64_bound`] (no flush allowance: the domain keeps every error
/// term normal) and, on the drivers of [`MIRROR_EXACT_DRIVERS`], equal to the CPU mirror bit
/// for bit. References are double-double, computed here.
pub fn assert_fast_domain(k: &Df64Kernels, pairs: usize) {
    let mut report = Vec::new();
    for (i, op) in [
        Df64Op::AddFast,
        Df64Op::SubFast,
        Df64Op::MulFast,
        Df64Op::SqrFast,
        Df64Op::MulF32Fast,
        Df64Op::DivFast,
        Df64Op::SqrtFast,
    ]
    .into_iter()
    .enumerate()
    {
        let bound = df64_bound(op.name()).0;
        let mut rng = ChaCha8Rng::seed_from_u64(700 + i as u64);
        let (lo, hi) = match op {
            Df64Op::DivFast => (-18, 18),
            Df64Op::SqrtFast => (-40, 126),
            _ => (-18, 60),
        };
        let (a, b) = operand_pairs(op, pairs, || {
            let (kx, ky) = (rng.gen_range(lo..=hi), rng.gen_range(lo..=hi));
            (
                operand_at_exponent(&mut rng, kx, op == Df64Op::SqrtFast),
                operand_at_exponent(&mut rng, ky, false),
            )
        });
        let got = k.apply_unchecked(op, &a, &b).unwrap();
        let mirror = op.mirror();
        let want = k.mirror_map(pairs, |j| mirror(a[j], b[j]));
        let reference = df64_reference(op.name());
        let (mut max, mut judged, mut diffs) = (0.0f64, 0usize, 0usize);
        for j in 0..pairs {
            if !same_words(got[j], want[j]) {
                diffs += 1;
            }
            let exact = reference(Dd::from_df64(a[j]), Dd::from_df64(b[j]));
            // A sum that cancels below 2^-40 is exact where its terms are in the domain.
            let x = exact.to_f64();
            let sum = matches!(op, Df64Op::AddFast | Df64Op::SubFast);
            if x != 0.0 && x.abs() < 2f64.powi(-40) && !sum {
                continue;
            }
            judged += 1;
            max = max.max(error_ulp48(got[j], exact));
        }
        report.push(format!(
            "{}: {judged} judged, max {max:.3} ulp48; {diffs} differ from the mirror",
            op.name()
        ));
        assert!(judged > pairs * 9 / 10, "{}: {judged} judged", op.name());
        assert!(max <= bound, "{}: max {max} ulp48 > {bound}", op.name());
        if mirror_documented_exact(k.context()) {
            assert_eq!(diffs, 0, "{}: GPU differs from the mirror", op.name());
        }
    }
    eprintln!("{}", report.join("\n"));
}

/// The exact result of an accurate or fast op in double-double (2^-100 relative, far below
/// every bound), computed here and not taken from the library's catalog. Panics for an op
/// without one: a test that judges an op must state its reference.
pub fn df64_reference(op: &str) -> fn(Dd, Dd) -> Dd {
    match op {
        "add" | "add_fast" => |a, b| a + b,
        "sub" | "sub_fast" => |a, b| a - b,
        "mul" | "mul_fast" => |a, b| a * b,
        "mul_f32" | "mul_f32_fast" => |a, b| a * Dd::from_f64(b.hi as f32 as f64),
        "sqr" | "sqr_fast" => |a, _| a * a,
        "div" | "div_fast" => |a, b| a / b,
        "recip" => |a, _| a.recip(),
        "sqrt" | "sqrt_fast" => |a, _| a.sqrt(),
        "rsqrt" => |a, _| a.sqrt().recip(),
        "hypot" => |a, b| (a * a + b * b).sqrt(),
        other => panic!("no df64 reference stated in the tests for {other}"),
    }
}

/// A browser page's f32 words of each point (its re words, then its im words: 2, 4 or 8 a
/// point) as exact double-doubles.
pub fn points(words: &[f32], precision: &str) -> Vec<Cdd> {
    let part = |w: &[f32]| -> Dd {
        match w.len() {
            1 => Dd::from_f64(w[0] as f64),
            // hi + lo is exact in f64 (the pair spans at most 49 bits).
            2 => Dd::from_f64(w[0] as f64 + w[1] as f64),
            _ => {
                Cdd::from_qf128(ComplexQf128::new(
                    Qf128 {
                        x: [w[0], w[1], w[2], w[3]],
                    },
                    Qf128::ZERO,
                ))
                .re
            }
        }
    };
    let per = match precision {
        "f32" => 1,
        "df64" => 2,
        _ => 4,
    };
    words
        .chunks_exact(2 * per)
        .map(|c| Cdd {
            re: part(&c[..per]),
            im: part(&c[per..]),
        })
        .collect()
}
