//! Transforms of any length (Bluestein's chirp-z through the power-of-two passes, mixed radix
//! for rows of 3 * 2^k), 3-D
//! volumes, the inverse real transform and convolutions, against rustfft (f64), the
//! double-double DFT, the DFT by its definition and direct O(N M) sums. The bounds are the
//! issue's targets: df64 rel. L2 <= 1e-14, f32 <= 1e-6, qf128 <= 1e-27.

mod common;

use df64gl::fft::reference::{
    dft_dd, naive_dft_dd, rel_l2 as rel_l2_dd, rustfft_c64, words_dd, Cdd, Dft,
};
use df64gl::fft::{
    Convolution, Direction, FftError, FftOptions, FftPlan, FftPrecision, FftShape, GpuFft, Product,
    RealFftPlan, Wrap,
};
use df64gl::numeric::df64::Df64;
use df64gl::numeric::qf128::{ComplexQf128, Qf128};
use rand::{Rng, SeedableRng};
use rustfft::num_complex::Complex64;

const DF64_BOUND: f64 = 1e-14;
const F32_BOUND: f64 = 1e-6;
const QF128_BOUND: f64 = 1e-27;

/// Values with all four qf128 words in use, and their exact double-doubles.
fn wide_signal(n: usize, seed: u64) -> (Vec<ComplexQf128>, Vec<Cdd>) {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut word = || {
        let hi: f32 = rng.gen_range(-1.0..1.0);
        let lo: f32 = rng.gen_range(-1.0..1.0) * 2f32.powi(-26);
        let lo2: f32 = rng.gen_range(-1.0..1.0) * 2f32.powi(-52);
        Qf128 {
            x: [hi, lo, lo2, 0.0],
        }
    };
    let q: Vec<ComplexQf128> = (0..n).map(|_| ComplexQf128::new(word(), word())).collect();
    let dd = q.iter().map(|c| Cdd::from_qf128(*c)).collect();
    (q, dd)
}

/// The input as the plan holds it: f32 plans keep the nearest f32s.
fn held(x: &[Complex64], precision: FftPrecision) -> Vec<Complex64> {
    match precision {
        FftPrecision::F32 => x
            .iter()
            .map(|c| Complex64::new(c.re as f32 as f64, c.im as f32 as f64))
            .collect(),
        _ => x.to_vec(),
    }
}

fn bound(precision: FftPrecision) -> f64 {
    match precision {
        FftPrecision::F32 => F32_BOUND,
        FftPrecision::Df64 => DF64_BOUND,
        FftPrecision::Qf128 => QF128_BOUND,
        FftPrecision::F64 => 1e-15,
    }
}

/// Forward and inverse of `n` points in f32 and df64 against rustfft.
fn check_length(k: &df64gl::kernels::Df64Kernels, n: usize, precisions: &[FftPrecision]) {
    let x = common::random_signal(n, n as u64, 1.0);
    for &p in precisions {
        let mut plan = FftPlan::new(k, n, p).unwrap();
        let xs = held(&x, p);
        for d in [Direction::Forward, Direction::Inverse] {
            plan.upload(&x).unwrap();
            plan.execute(d).unwrap();
            let got = plan.download::<Complex64>().unwrap();
            let e = common::rel_l2(&got, &rustfft_c64(&xs, d), 1.0);
            assert!(
                e <= bound(p),
                "{} {n}-point {d:?}: rel. L2 {e:e} above {:e}",
                p.name(),
                bound(p)
            );
        }
    }
}

#[test]
fn every_length_to_300_and_some_primes_in_f32_and_df64() {
    let k = common::kernels();
    let both = [FftPrecision::F32, FftPrecision::Df64];
    for n in (1..=300).chain([509, 1009, 2039, 4093, 4096, 4097]) {
        check_length(&k, n, &both);
    }
}

#[test]
fn large_lengths_in_df64() {
    let k = common::kernels();
    for n in [10_000usize, 100_000, 65_537] {
        check_length(&k, n, &[FftPrecision::Df64]);
    }
}

#[test]
fn small_lengths_match_the_definition() {
    let k = common::kernels();
    for n in [1usize, 2, 3, 5, 7, 12, 15, 31, 100] {
        let x = common::random_signal(n, 7 + n as u64, 1.0);
        let x_dd: Vec<Cdd> = x.iter().map(|c| Cdd::from_c64(*c)).collect();
        let mut plan = FftPlan::new(&k, n, FftPrecision::Df64).unwrap();
        plan.upload(&x).unwrap();
        plan.execute(Direction::Forward).unwrap();
        let got: Vec<Cdd> = plan
            .download::<Complex64>()
            .unwrap()
            .into_iter()
            .map(Cdd::from_c64)
            .collect();
        let e = rel_l2_dd(&got, &naive_dft_dd(&x_dd, Direction::Forward));
        assert!(
            e <= DF64_BOUND,
            "{n}-point df64 against the definition: {e:e}"
        );
    }
}

#[test]
fn qf128_any_length_against_the_double_double_dft() {
    let k = common::kernels();
    for n in [3usize, 5, 12, 100, 127, 1000] {
        let (q, dd) = wide_signal(n, 3 * n as u64);
        let mut plan = FftPlan::new(&k, n, FftPrecision::Qf128).unwrap();
        for d in [Direction::Forward, Direction::Inverse] {
            plan.upload(&q).unwrap();
            plan.execute(d).unwrap();
            let out = plan.download_scaled().unwrap();
            let got = words_dd(&out.words, out.exponent);
            let e = rel_l2_dd(&got, &dft_dd(&dd, d));
            assert!(e <= QF128_BOUND, "qf128 {n}-point {d:?}: {e:e}");
        }
    }
}

#[test]
fn batches_and_images_of_any_size() {
    let k = common::kernels();
    // Batches of 3 rows: each row its own transform. 12 = 3 * 4 runs as mixed radix at its
    // own length, 10 through Bluestein at 32; the batch pads to 4 rows.
    for (n, padded) in [(12usize, 12usize), (10, 32)] {
        let batch = 3usize;
        let x = common::random_signal(n * batch, 5, 1.0);
        let shape = FftShape::Rows { n, batch };
        let mut plan =
            FftPlan::with_options(&k, shape, FftOptions::new(FftPrecision::Df64)).unwrap();
        assert_eq!(
            plan.padded_shape(),
            FftShape::Rows {
                n: padded,
                batch: 4
            }
        );
        assert_eq!(plan.uses_bluestein(), n != padded);
        plan.upload(&x).unwrap();
        plan.execute(Direction::Forward).unwrap();
        let got = plan.download::<Complex64>().unwrap();
        for r in 0..batch {
            let want = rustfft_c64(&x[r * n..(r + 1) * n], Direction::Forward);
            let e = common::rel_l2(&got[r * n..(r + 1) * n], &want, 1.0);
            assert!(e <= DF64_BOUND, "{n} points, row {r}: {e:e}");
        }
    }
    // Images: one extent a power of two and the other not, and both not.
    for (rows, cols) in [(6usize, 8usize), (8, 5), (7, 9)] {
        let x = common::random_signal(rows * cols, (rows * cols) as u64, 1.0);
        let shape = FftShape::Image { rows, cols };
        let mut plan =
            FftPlan::with_options(&k, shape, FftOptions::new(FftPrecision::Df64)).unwrap();
        for d in [Direction::Forward, Direction::Inverse] {
            plan.upload(&x).unwrap();
            plan.execute(d).unwrap();
            let got = plan.download::<Complex64>().unwrap();
            let e = common::rel_l2(
                &got,
                &Dft::dims(&[rows, cols]).direction(d).apply_f64(&x),
                1.0,
            );
            assert!(e <= DF64_BOUND, "{rows}x{cols} {d:?}: {e:e}");
        }
    }
}

#[test]
fn volumes_in_three_dimensions() {
    let k = common::kernels();
    for (dims, p) in [
        ([4usize, 8, 16], FftPrecision::Df64),
        ([3, 5, 8], FftPrecision::Df64),
        ([4, 4, 8], FftPrecision::F32),
        ([2, 3, 4], FftPrecision::Qf128),
    ] {
        let x = common::random_signal(dims.iter().product(), 11, 1.0);
        let shape = FftShape::Volume {
            depth: dims[0],
            rows: dims[1],
            cols: dims[2],
        };
        let mut plan = FftPlan::with_options(&k, shape, FftOptions::new(p)).unwrap();
        for d in [Direction::Forward, Direction::Inverse] {
            plan.upload(&x).unwrap();
            plan.execute(d).unwrap();
            let got = plan.download::<Complex64>().unwrap();
            let e = common::rel_l2(
                &got,
                &Dft::dims(&dims).direction(d).apply_f64(&held(&x, p)),
                1.0,
            );
            // qf128 is checked against rustfft here, so f64's own error bounds it.
            let b = if p == FftPrecision::Qf128 {
                1e-15
            } else {
                bound(p)
            };
            assert!(e <= b, "{} {dims:?} {d:?}: {e:e}", p.name());
        }
    }
}

#[test]
fn bad_shapes_are_clear_errors() {
    let k = common::kernels();
    let e = FftPlan::new(&k, 0, FftPrecision::Df64).err().unwrap();
    assert!(matches!(e, FftError::ZeroLength(_)), "{e}");
    assert!(e.to_string().contains("at least 1"), "{e}");
    let limit = k.context().info().max_texture_size as usize;
    let cap = limit * limit;
    // Bluestein pads 2^27 + 1 to 2^29: past the limit of a 16384^2 texture.
    let n = cap / 2 + 1;
    let e = FftPlan::new(&k, n, FftPrecision::Df64).err().unwrap();
    let text = e.to_string();
    assert!(matches!(e, FftError::TooLarge { .. }), "{text}");
    assert!(text.contains(&limit.to_string()), "{text}");
    assert!(text.contains(&(cap / 2).to_string()), "{text}");
    let mut plan = FftPlan::new(&k, 12, FftPrecision::Df64).unwrap();
    let e = plan
        .upload(&common::random_signal(16, 1, 1.0))
        .err()
        .unwrap();
    assert!(
        matches!(e, FftError::LengthMismatch { got: 16, n: 12 }),
        "{e}"
    );
    let other = FftPlan::new(&k, 13, FftPrecision::Df64).unwrap();
    assert!(matches!(
        plan.multiply_by(&other),
        Err(FftError::PlanMismatch)
    ));
    let mut bad = common::random_signal(12, 2, 1.0);
    bad[4].re = f64::NAN;
    assert!(matches!(plan.upload(&bad), Err(FftError::NonFinite(4))));
}

#[test]
fn inverse_real_transform_returns_the_reals() {
    let k = common::kernels();
    let (n, batch) = (256usize, 2usize);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(99);
    let reals: Vec<f64> = (0..n * batch).map(|_| rng.gen_range(-1.0..1.0)).collect();
    // The bins from rustfft, rows of N/2 + 1.
    let mut bins = Vec::new();
    for row in reals.chunks(n) {
        let c: Vec<Complex64> = row.iter().map(|v| Complex64::new(*v, 0.0)).collect();
        let spectrum = rustfft_c64(&c, Direction::Forward);
        bins.extend_from_slice(&spectrum[..n / 2 + 1]);
    }
    // rustfft's X_0 and X_(N/2) of reals have imaginary parts of exactly 0.
    for p in [FftPrecision::F32, FftPrecision::Df64, FftPrecision::Qf128] {
        let mut plan = RealFftPlan::new(&k, n, batch, FftOptions::new(p)).unwrap();
        plan.upload(&bins).unwrap();
        plan.execute(Direction::Inverse).unwrap();
        let got = plan.download::<f64>().unwrap();
        let e = rel_l2_real(&got, &reals);
        // The bins are f64 (53 bits): qf128 is bounded by them here.
        let b = if p == FftPrecision::Qf128 {
            1e-15
        } else {
            bound(p)
        };
        assert!(e <= b, "{} inverse real: {e:e}", p.name());
        // Forward then inverse on the GPU, data never leaving it.
        let held: Vec<f64> = match p {
            FftPrecision::F32 => reals.iter().map(|v| *v as f32 as f64).collect(),
            _ => reals.clone(),
        };
        let as_df64: Vec<Df64> = held.iter().map(|v| Df64::from_f64(*v)).collect();
        plan.upload(&as_df64).unwrap();
        plan.execute(Direction::Forward).unwrap();
        plan.execute(Direction::Inverse).unwrap();
        let back = plan.download::<f64>().unwrap();
        let sent: Vec<f64> = as_df64.iter().map(|v| v.to_f64()).collect();
        let e = rel_l2_real(&back, &sent);
        // Read back as f64: qf128's round trip shows f64's rounding only.
        assert!(
            e <= bound(p).max(2e-16),
            "{} real round trip: {e:e}",
            p.name()
        );
    }
    // Bins 0 and N/2 must be real.
    let mut plan = RealFftPlan::new(&k, n, batch, FftOptions::new(FftPrecision::Df64)).unwrap();
    let mut bad = bins.clone();
    bad[n / 2 + 1 + n / 2].im = 1e-3;
    let e = plan.upload(&bad).err().unwrap();
    assert!(
        matches!(
            e,
            FftError::NotReal {
                row: 1,
                bin: 128,
                ..
            }
        ),
        "{e}"
    );
    let e = plan.upload(&bins[1..]).err().unwrap();
    assert!(matches!(e, FftError::LengthMismatch { .. }), "{e}");
}

fn rel_l2_real(a: &[f64], b: &[f64]) -> f64 {
    let num: f64 = a.iter().zip(b).map(|(x, y)| (x - y).powi(2)).sum();
    let den: f64 = b.iter().map(|y| y * y).sum();
    (num / den).sqrt()
}

/// The direct sum in double-double: sum_m a_(k-m) b'_m over the linear or circular index.
fn direct_dd(a: &[Complex64], b: &[Complex64], wrap: Wrap, product: Product) -> Vec<Cdd> {
    let (na, nb) = (a.len(), b.len());
    let out_len = match wrap {
        Wrap::Linear => na + nb - 1,
        Wrap::Circular => na,
    };
    let cdd = |z: Complex64| Cdd::from_c64(z);
    (0..out_len)
        .map(|k| {
            let mut acc = Cdd::ZERO;
            for (m, bm) in b.iter().enumerate() {
                let ai = match (wrap, product) {
                    (Wrap::Linear, Product::Convolution) => k.checked_sub(m).filter(|i| *i < na),
                    // Lag k - (nb - 1): a_(n + lag) conj(b_n).
                    (Wrap::Linear, Product::Correlation) => {
                        (m + k).checked_sub(nb - 1).filter(|i| *i < na)
                    }
                    (Wrap::Circular, Product::Convolution) => Some((k + na - m) % na),
                    (Wrap::Circular, Product::Correlation) => Some((m + k) % na),
                };
                if let Some(i) = ai {
                    let bv = match product {
                        Product::Convolution => *bm,
                        Product::Correlation => bm.conj(),
                    };
                    acc = acc + cdd(a[i]) * cdd(bv);
                }
            }
            acc
        })
        .collect()
}

#[test]
fn convolutions_and_correlations_match_the_direct_sum() {
    let k = common::kernels();
    for (na, nb, wrap) in [
        (100usize, 37usize, Wrap::Linear),
        (1usize, 5usize, Wrap::Linear),
        (60, 60, Wrap::Circular),
        (64, 64, Wrap::Circular),
    ] {
        let a = common::random_signal(na, 21, 1.0);
        let b = common::random_signal(nb, 22, 1.0);
        for product in [Product::Convolution, Product::Correlation] {
            for p in [FftPrecision::F32, FftPrecision::Df64] {
                let mut c =
                    Convolution::new(&k, na, nb, wrap, product, FftOptions::new(p)).unwrap();
                c.set_kernel(&held(&b, p)).unwrap();
                let got: Vec<Cdd> = c
                    .apply(&held(&a, p))
                    .unwrap()
                    .into_iter()
                    .map(Cdd::from_c64)
                    .collect();
                let want = direct_dd(&held(&a, p), &held(&b, p), wrap, product);
                assert_eq!(got.len(), want.len());
                let e = rel_l2_dd(&got, &want);
                assert!(
                    e <= bound(p),
                    "{} {wrap:?} {product:?} {na}x{nb}: {e:e}",
                    p.name()
                );
            }
        }
    }
    // Real signals with a real kernel: a real result.
    let a: Vec<f64> = (0..50).map(|i| ((i * 7) % 11) as f64 - 5.0).collect();
    let b = [0.25, 0.5, 0.25];
    let mut c = Convolution::new(
        &k,
        50,
        3,
        Wrap::Linear,
        Product::Convolution,
        FftOptions::new(FftPrecision::Df64),
    )
    .unwrap();
    c.set_kernel_real(&b).unwrap();
    let got = c.apply_real(&a).unwrap();
    assert_eq!(got.len(), 52);
    for (i, g) in got.iter().enumerate() {
        let want: f64 = (0..3)
            .filter_map(|m| i.checked_sub(m).filter(|j| *j < 50).map(|j| a[j] * b[m]))
            .sum();
        approx::assert_abs_diff_eq!(*g, want, epsilon = 1e-13);
    }
    // Bad shapes.
    let e = Convolution::new(
        &k,
        10,
        12,
        Wrap::Circular,
        Product::Convolution,
        FftOptions::new(FftPrecision::Df64),
    )
    .err()
    .unwrap();
    assert!(
        matches!(e, FftError::ShapeMismatch(_)) && e.to_string().contains("10 and 12"),
        "{e}"
    );
    let mut c = Convolution::new(
        &k,
        10,
        3,
        Wrap::Linear,
        Product::Convolution,
        FftOptions::new(FftPrecision::Df64),
    )
    .unwrap();
    assert!(matches!(
        c.apply(&common::random_signal(10, 1, 1.0)),
        Err(FftError::ShapeMismatch(_))
    ));
    assert!(matches!(
        c.set_kernel(&common::random_signal(4, 1, 1.0)),
        Err(FftError::LengthMismatch { got: 4, n: 3 })
    ));
    c.set_kernel(&common::random_signal(3, 1, 1.0)).unwrap();
    assert!(matches!(
        c.apply_real(&[1.0; 10]),
        Err(FftError::ShapeMismatch(_))
    ));
    assert!(matches!(
        c.apply(&common::random_signal(11, 1, 1.0)),
        Err(FftError::LengthMismatch { got: 11, n: 10 })
    ));
}

#[test]
fn native_double_transforms_match_rustfft() {
    let k = common::kernels();
    let info = k.context().info().clone();
    if info.glsl_number < 400 && !info.gpu_shader_fp64 {
        // A driver without double refuses the plan with the reason.
        let e = FftPlan::new(&k, 64, FftPrecision::F64).err().unwrap();
        assert!(e.to_string().contains("GL_ARB_gpu_shader_fp64"), "{e}");
        return;
    }
    for n in [2usize, 8, 1024, 1000, 4097] {
        let x = common::random_signal(n, 40 + n as u64, 1.0);
        let mut plan = FftPlan::new(&k, n, FftPrecision::F64).unwrap();
        for d in [Direction::Forward, Direction::Inverse] {
            plan.upload(&x).unwrap();
            plan.execute(d).unwrap();
            let e = common::rel_l2(
                &plan.download::<Complex64>().unwrap(),
                &rustfft_c64(&x, d),
                1.0,
            );
            // Both sides are f64 FFTs: their difference is a few f64 roundings per stage;
            // Bluestein's three transforms of 2n and more points and its chirps add some.
            let b = if n.is_power_of_two() { 1e-15 } else { 4e-15 };
            assert!(e <= b, "f64 {n}-point {d:?}: {e:e}");
        }
    }
    let e = FftPlan::with_options(
        &k,
        FftShape::Rows { n: 64, batch: 1 },
        FftOptions::new(FftPrecision::F64).twiddles(df64gl::fft::TwiddleSource::Direct),
    )
    .err()
    .unwrap();
    assert!(e.to_string().contains("--twiddles table"), "{e}");
}
