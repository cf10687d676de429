//! The transposed Stockham FFT on the GPU against a naive O(N^2) DFT (small N), rustfft (f64)
//! and a double-double FFT (qf128): f32, df64 and qf128, radix 2 and 4, table and in-shader
//! twiddles, batches, 2-D, real input, pointwise products, and the error paths.

mod common;

use df64gl::fft::reference::{fft_dd, rel_l2 as rel_l2_dd, round_trip, Cdd, Dft};
use df64gl::fft::{
    Direction, FftError, FftOptions, FftPrecision, FftShape, GpuFft, QfWrite, Radix, RealFftPlan,
    StockhamPlan, TwiddleSource,
};
use df64gl::numeric::df64::{ComplexDf64, Df64};
use df64gl::numeric::qf128::{qf128_renorm4, ComplexQf128, Qf128};
use rand::{Rng, SeedableRng};
use rustfft::num_complex::Complex64;

fn to_df64(x: &[Complex64]) -> Vec<ComplexDf64> {
    x.iter()
        .map(|c| ComplexDf64::from_f64(c.re, c.im))
        .collect()
}

fn from_df64(x: &[ComplexDf64]) -> Vec<Complex64> {
    x.iter()
        .map(|c| Complex64::new(c.re.to_f64(), c.im.to_f64()))
        .collect()
}

fn opts(precision: FftPrecision, radix: Radix) -> FftOptions {
    FftOptions::new(precision).radix(radix)
}

#[test]
fn df64_matches_a_naive_dft_for_every_small_power_of_two() {
    let k = common::kernels();
    for radix in [Radix::Two, Radix::Four] {
        for m in 1..=9 {
            let n = 1usize << m;
            let x = to_df64(&common::random_signal(n, m as u64, 1.0));
            let shape = FftShape::Rows { n, batch: 1 };
            let mut plan =
                StockhamPlan::with_options(&k, shape, opts(FftPrecision::Df64, radix)).unwrap();
            let got = from_df64(&plan.transform(&x, Direction::Forward).unwrap());
            let e = common::rel_l2(&got, &Dft::new(n).apply_df64(&x), 1.0);
            // The f64 reference is good to ~1e-16 sqrt(n), the df64 transform to a few 1e-15.
            assert!(e < 1e-14, "{radix:?} n = {n}: relative L2 error {e:e}");
        }
    }
}

#[test]
fn df64_matches_rustfft_up_to_2_pow_16_and_inverts() {
    let k = common::kernels();
    let mut planner = rustfft::FftPlanner::<f64>::new();
    for m in [10, 11, 13, 16] {
        let n = 1usize << m;
        let sig = common::random_signal(n, 100 + m as u64, 1.0);
        let x = to_df64(&sig);
        let mut reference: Vec<Complex64> = from_df64(&x);
        planner.plan_fft_forward(n).process(&mut reference);
        let mut plan = StockhamPlan::new(&k, n, FftPrecision::Df64).unwrap();
        let fwd = plan.transform(&x, Direction::Forward).unwrap();
        let e = common::rel_l2(&from_df64(&fwd), &reference, 1.0);
        // rustfft in f64 is good to a few 1e-16; df64 (~48 bits) to a few 1e-15. The
        // engine's target is 3e-14 at N = 2^20.
        assert!(e < 3e-14, "n = {n}: forward error {e:e}");
        let back = plan.transform(&fwd, Direction::Inverse).unwrap();
        let e = common::rel_l2(&from_df64(&back), &from_df64(&x), 1.0);
        assert!(e < 3e-14, "n = {n}: round-trip error {e:e}");
    }
}

#[test]
fn f32_is_the_f32_baseline() {
    let k = common::kernels();
    let n = 1 << 12;
    let x = to_df64(&common::random_signal(n, 7, 1.0));
    let mut reference = from_df64(&x);
    rustfft::FftPlanner::<f64>::new()
        .plan_fft_forward(n)
        .process(&mut reference);
    let mut plan = StockhamPlan::new(&k, n, FftPrecision::F32).unwrap();
    let e = common::rel_l2(
        &from_df64(&plan.transform(&x, Direction::Forward).unwrap()),
        &reference,
        1.0,
    );
    assert!(e > 1e-9 && e < 1e-5, "f32 error {e:e}");
}

#[test]
fn bad_lengths_are_clear_errors() {
    let k = common::kernels();
    match StockhamPlan::new(&k, 1000, FftPrecision::Df64) {
        Err(FftError::NotPowerOfTwo(1000, 1024)) => {}
        Err(e) => panic!("wrong error {e}"),
        Ok(_) => panic!("1000 is not a power of two"),
    }
    let e = StockhamPlan::new(&k, 1000, FftPrecision::Df64)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("pad") && e.contains("1024"), "{e}");
    let max = k.context().info().max_texture_size as usize;
    let too_big = (max * max * 4).next_power_of_two();
    let e = StockhamPlan::new(&k, too_big, FftPrecision::Df64)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains(&max.to_string()), "{e}");
    assert!(StockhamPlan::new(&k, 1, FftPrecision::Df64).is_err());
    let mut plan = StockhamPlan::new(&k, 8, FftPrecision::Df64).unwrap();
    assert!(plan.upload(&[ComplexDf64::default(); 4]).is_err());
}

fn to_cdd(x: &[ComplexDf64]) -> Vec<Cdd> {
    x.iter().map(|c| Cdd::from_df64(*c)).collect()
}

/// A qf128 signal whose words fill all 96 bits (not just a df64 padded with zeros).
fn qf_signal(n: usize, seed: u64) -> Vec<ComplexQf128> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    // Each word a random fraction of half an ulp of the one before: ~96 random bits.
    let word = |rng: &mut rand_chacha::ChaCha8Rng| {
        let mut w = [0.0f32; 4];
        w[0] = rng.gen_range(-1.0f32..1.0);
        for i in 1..4 {
            let ulp = 2f32.powi(w[i - 1].abs().log2().floor() as i32 - 23);
            w[i] = rng.gen_range(-0.5f32..0.5) * ulp;
        }
        qf128_renorm4(w[0], w[1], w[2], w[3])
    };
    (0..n)
        .map(|_| ComplexQf128::new(word(&mut rng), word(&mut rng)))
        .collect()
}

#[test]
fn qf128_meets_1e_27_against_a_double_double_fft_in_every_variant() {
    let k = common::kernels();
    // (radix, write mode, twiddles, log2 n): the target size 2^16 with the defaults, every
    // variant on smaller sizes (odd log2 n exercises radix 4's last radix-2 stage).
    let cases = [
        (Radix::Four, QfWrite::Mrt, TwiddleSource::Table, 16),
        (Radix::Two, QfWrite::Mrt, TwiddleSource::Table, 11),
        (Radix::Two, QfWrite::TwoPass, TwiddleSource::Table, 10),
        (Radix::Four, QfWrite::TwoPass, TwiddleSource::Table, 9),
        (Radix::Four, QfWrite::Mrt, TwiddleSource::Direct, 7),
        (Radix::Two, QfWrite::Mrt, TwiddleSource::Direct, 6),
    ];
    for (radix, write, tw, m) in cases {
        let n = 1usize << m;
        let x = qf_signal(n, 30 + m as u64);
        let options = FftOptions::new(FftPrecision::Qf128)
            .radix(radix)
            .qf_write(write)
            .twiddles(tw);
        let mut plan =
            StockhamPlan::with_options(&k, FftShape::Rows { n, batch: 1 }, options).unwrap();
        let got = plan.transform(&x, Direction::Forward).unwrap();
        let xc: Vec<Cdd> = x.iter().map(|c| Cdd::from_qf128(*c)).collect();
        let reference = fft_dd(&xc);
        let g: Vec<Cdd> = got.iter().map(|c| Cdd::from_qf128(*c)).collect();
        let e = rel_l2_dd(&g, &reference);
        assert!(
            e < 1e-27,
            "{radix:?} {write:?} {tw:?} n = 2^{m}: error {e:e}"
        );
        // Far below df64: the low words are really used.
        assert!(e > 1e-33, "suspiciously exact: {e:e}");
        let back = plan.transform(&got, Direction::Inverse).unwrap();
        let b: Vec<Cdd> = back.iter().map(|c| Cdd::from_qf128(*c)).collect();
        let rt = round_trip(&xc, &b);
        assert!(
            rt.rmse_magnitude_relative < 1e-27,
            "{radix:?} {write:?} n = 2^{m}: round trip {rt:?}"
        );
    }
}

#[test]
fn in_shader_twiddles_match_the_table() {
    let k = common::kernels();
    for radix in [Radix::Two, Radix::Four] {
        for m in [5, 12] {
            let n = 1usize << m;
            let x = to_df64(&common::random_signal(n, 50 + m as u64, 1.0));
            let reference = rustfft_f64(&x);
            let shape = FftShape::Rows { n, batch: 1 };
            let options = opts(FftPrecision::Df64, radix).twiddles(TwiddleSource::Direct);
            let mut plan = StockhamPlan::with_options(&k, shape, options).unwrap();
            let got = from_df64(&plan.transform(&x, Direction::Forward).unwrap());
            let e = common::rel_l2(&got, &reference, 1.0);
            assert!(e < 3e-14, "{radix:?} n = {n}: direct twiddles error {e:e}");
        }
    }
}

fn rustfft_f64(x: &[ComplexDf64]) -> Vec<Complex64> {
    let mut r = from_df64(x);
    rustfft::FftPlanner::<f64>::new()
        .plan_fft_forward(r.len())
        .process(&mut r);
    r
}

#[test]
fn batches_transform_every_row() {
    let k = common::kernels();
    for radix in [Radix::Two, Radix::Four] {
        let (n, batch) = (1usize << 9, 8);
        let x = to_df64(&common::random_signal(n * batch, 60, 1.0));
        let shape = FftShape::Rows { n, batch };
        let mut plan =
            StockhamPlan::with_options(&k, shape, opts(FftPrecision::Df64, radix)).unwrap();
        let got = from_df64(&plan.transform(&x, Direction::Forward).unwrap());
        for r in 0..batch {
            let reference = rustfft_f64(&x[r * n..(r + 1) * n]);
            let e = common::rel_l2(&got[r * n..(r + 1) * n], &reference, 1.0);
            assert!(e < 3e-14, "{radix:?} row {r}: error {e:e}");
        }
    }
    assert!(matches!(
        StockhamPlan::with_options(
            &k,
            FftShape::Rows { n: 8, batch: 3 },
            FftOptions::new(FftPrecision::Df64)
        ),
        Err(FftError::BadBatch(3))
    ));
}

#[test]
fn image_2d_is_rows_then_columns() {
    let k = common::kernels();
    let (rows, cols) = (32usize, 128usize);
    let x = to_df64(&common::random_signal(rows * cols, 70, 1.0));
    // Reference: rustfft on every row, then on every column.
    let mut r = from_df64(&x);
    let mut planner = rustfft::FftPlanner::<f64>::new();
    for row in r.chunks_exact_mut(cols) {
        planner.plan_fft_forward(cols).process(row);
    }
    let col_fft = planner.plan_fft_forward(rows);
    for c in 0..cols {
        let mut col: Vec<Complex64> = (0..rows).map(|i| r[i * cols + c]).collect();
        col_fft.process(&mut col);
        for i in 0..rows {
            r[i * cols + c] = col[i];
        }
    }
    for radix in [Radix::Two, Radix::Four] {
        let shape = FftShape::Image { rows, cols };
        let mut plan =
            StockhamPlan::with_options(&k, shape, opts(FftPrecision::Df64, radix)).unwrap();
        let fwd = plan.transform(&x, Direction::Forward).unwrap();
        let e = common::rel_l2(&from_df64(&fwd), &r, 1.0);
        assert!(e < 3e-14, "{radix:?}: 2-D error {e:e}");
        let back = plan.transform(&fwd, Direction::Inverse).unwrap();
        let e = common::rel_l2(&from_df64(&back), &from_df64(&x), 1.0);
        assert!(e < 3e-14, "{radix:?}: 2-D round trip {e:e}");
    }
}

#[test]
fn real_input_fft_gives_the_half_spectrum() {
    let k = common::kernels();
    for (radix, m, batch) in [
        (Radix::Four, 11, 2),
        (Radix::Two, 4, 1),
        (Radix::Four, 2, 1),
    ] {
        let n = 1usize << m;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(80 + m as u64);
        let reals: Vec<Df64> = (0..n * batch)
            .map(|_| Df64::from_f64(rng.gen_range(-1.0..1.0)))
            .collect();
        let mut plan = RealFftPlan::new(&k, n, batch, opts(FftPrecision::Df64, radix)).unwrap();
        let got = from_df64(&plan.forward::<_, ComplexDf64>(&reals).unwrap());
        assert_eq!(got.len(), batch * (n / 2 + 1));
        for r in 0..batch {
            let row: Vec<ComplexDf64> = reals[r * n..(r + 1) * n]
                .iter()
                .map(|v| ComplexDf64 {
                    re: *v,
                    im: Df64::ZERO,
                })
                .collect();
            let full = rustfft_f64(&row);
            let bins = &got[r * (n / 2 + 1)..(r + 1) * (n / 2 + 1)];
            let e = common::rel_l2(bins, &full[..n / 2 + 1], 1.0);
            assert!(e < 3e-14, "{radix:?} n = {n} row {r}: error {e:e}");
        }
    }
    // qf128 real input against the double-double reference.
    let n = 256;
    let x = qf_signal(n / 2, 90);
    let reals: Vec<Qf128> = x.iter().flat_map(|c| [c.re, c.im]).collect();
    let mut plan = RealFftPlan::new(&k, n, 1, FftOptions::new(FftPrecision::Qf128)).unwrap();
    plan.upload(&reals).unwrap();
    plan.execute(Direction::Forward).unwrap();
    let got: Vec<Cdd> = plan
        .download::<ComplexQf128>()
        .unwrap()
        .iter()
        .map(|c| Cdd::from_qf128(*c))
        .collect();
    let full: Vec<Cdd> = reals
        .iter()
        .map(|v| Cdd::from_qf128(ComplexQf128::new(*v, Qf128::ZERO)))
        .collect();
    let reference = fft_dd(&full);
    let e = rel_l2_dd(&got, &reference[..n / 2 + 1]);
    assert!(e < 1e-27, "qf128 real input: error {e:e}");
    assert!(RealFftPlan::new(&k, 2, 1, FftOptions::new(FftPrecision::Df64)).is_err());
}

#[test]
fn convolution_stays_on_the_gpu() {
    let k = common::kernels();
    let n = 256;
    let a = to_df64(&common::random_signal(n, 100, 1.0));
    let b = to_df64(&common::random_signal(n, 101, 1.0));
    let shape = FftShape::Rows { n, batch: 1 };
    let options = FftOptions::new(FftPrecision::Df64);
    let mut pa = StockhamPlan::with_options(&k, shape, options).unwrap();
    let mut pb = StockhamPlan::with_options(&k, shape, options).unwrap();
    pa.upload(&a).unwrap();
    pb.upload(&b).unwrap();
    pa.execute(Direction::Forward).unwrap();
    pb.execute(Direction::Forward).unwrap();
    pa.multiply_by(&pb).unwrap();
    pa.execute(Direction::Inverse).unwrap();
    let got = from_df64(&pa.download::<ComplexDf64>().unwrap());
    let (af, bf) = (from_df64(&a), from_df64(&b));
    let direct: Vec<Complex64> = (0..n)
        .map(|i| (0..n).map(|j| af[j] * bf[(n + i - j) % n]).sum())
        .collect();
    let e = common::rel_l2(&got, &direct, 1.0);
    assert!(e < 3e-14, "circular convolution error {e:e}");
    let other = StockhamPlan::new(&k, 2 * n, FftPrecision::Df64).unwrap();
    assert!(matches!(
        pa.multiply_by(&other),
        Err(FftError::PlanMismatch)
    ));
}

#[test]
fn non_finite_input_is_refused_with_its_index() {
    let k = common::kernels();
    let mut x = to_df64(&common::random_signal(16, 3, 1.0));
    x[5].im = Df64::from_f64(f64::NAN);
    let mut plan = StockhamPlan::new(&k, 16, FftPrecision::Df64).unwrap();
    let e = plan.upload(&x).unwrap_err();
    assert!(matches!(e, FftError::NonFinite(5)), "{e}");
    x[5].im = Df64::from_f64(f64::INFINITY);
    let mut q = StockhamPlan::new(&k, 16, FftPrecision::Qf128).unwrap();
    assert!(matches!(q.upload(&x), Err(FftError::NonFinite(5))));
}

#[test]
fn df64_meets_the_targets_at_2_pow_20() {
    let k = common::kernels();
    let n = 1 << 20;
    let x = to_df64(&common::random_signal(n, 2007, 1.0));
    let reference = rustfft_f64(&x);
    let mut plan = StockhamPlan::new(&k, n, FftPrecision::Df64).unwrap();
    let fwd = plan.transform(&x, Direction::Forward).unwrap();
    let e = common::rel_l2(&from_df64(&fwd), &reference, 1.0);
    assert!(e < 3e-14, "forward error {e:e} at 2^20");
    plan.execute(Direction::Inverse).unwrap();
    let back = plan.download::<ComplexDf64>().unwrap();
    let rt = round_trip(&to_cdd(&x), &to_cdd(&back));
    assert!(rt.rmse_magnitude_relative < 3e-14, "{rt:?}");
    assert!(rt.peak_snr_db > 250.0, "{rt:?}");
}

#[test]
fn every_power_of_two_up_to_2_pow_24() {
    let k = common::kernels();
    let sizes: Vec<u32> = (1..=16).chain([21, 24]).collect();
    for m in sizes {
        let n = 1usize << m;
        let x = to_df64(&common::random_signal(n, 200 + m as u64, 1.0));
        let mut plan = StockhamPlan::new(&k, n, FftPrecision::Df64).unwrap();
        let (w, h) = plan.texture_shape();
        // The paper's layout: 2^ceil(m/2) x 2^floor(m/2), non-square for odd m.
        assert_eq!((w, h), (1 << m.div_ceil(2), 1 << (m / 2)));
        let got = from_df64(&plan.transform(&x, Direction::Forward).unwrap());
        let e = common::rel_l2(&got, &rustfft_f64(&x), 1.0);
        assert!(e < 3e-14, "n = 2^{m}: forward error {e:e}");
    }
}

#[test]
fn radix_8_matches_radix_4_and_the_dft_at_every_size() {
    let k = common::kernels();
    let mut planner = rustfft::FftPlanner::<f64>::new();
    // Every residue of log2 N mod 3 (the finishing stage: none, radix 2, radix 4), batches
    // and 2-D; f32, df64 and native double.
    for p in [FftPrecision::Df64, FftPrecision::F32, FftPrecision::F64] {
        let bound = match p {
            FftPrecision::F32 => 1e-6,
            // Both sides f64: a few roundings apart (the 1/sqrt(2) rotations add two).
            FftPrecision::F64 => 3e-15,
            _ => 1e-14,
        };
        for m in 1..=13 {
            let n = 1usize << m;
            let batch = if m <= 6 { 2 } else { 1 };
            let x = to_df64(&common::random_signal(n * batch, 300 + m as u64, 1.0));
            let shape = FftShape::Rows { n, batch };
            let mut plan = StockhamPlan::with_options(&k, shape, opts(p, Radix::Eight)).unwrap();
            for d in [Direction::Forward, Direction::Inverse] {
                let got = from_df64(&plan.transform(&x, d).unwrap());
                for r in 0..batch {
                    let mut want: Vec<Complex64> = from_df64(&x[r * n..(r + 1) * n]);
                    if p == FftPrecision::F32 {
                        want.iter_mut().for_each(|c| {
                            *c = Complex64::new(c.re as f32 as f64, c.im as f32 as f64)
                        });
                    }
                    match d {
                        Direction::Forward => planner.plan_fft_forward(n).process(&mut want),
                        Direction::Inverse => {
                            planner.plan_fft_inverse(n).process(&mut want);
                            want.iter_mut().for_each(|c| *c /= n as f64);
                        }
                    }
                    let e = common::rel_l2(&got[r * n..(r + 1) * n], &want, 1.0);
                    assert!(
                        e < bound,
                        "{} radix 8, n = {n} {d:?} row {r}: {e:e}",
                        p.name()
                    );
                }
            }
        }
    }
    // 2-D with radix 8 along both axes (2^5 columns: radix 8 then 4; 2^7 rows: 8, 8, 2).
    let (rows, cols) = (128usize, 32usize);
    let x = to_df64(&common::random_signal(rows * cols, 77, 1.0));
    let shape = FftShape::Image { rows, cols };
    let mut r8 =
        StockhamPlan::with_options(&k, shape, opts(FftPrecision::Df64, Radix::Eight)).unwrap();
    let mut r4 =
        StockhamPlan::with_options(&k, shape, opts(FftPrecision::Df64, Radix::Four)).unwrap();
    let a = from_df64(&r8.transform(&x, Direction::Forward).unwrap());
    let b = from_df64(&r4.transform(&x, Direction::Forward).unwrap());
    assert!(
        common::rel_l2(&a, &b, 1.0) < 1e-14,
        "2-D radix 8 against radix 4: {:e}",
        common::rel_l2(&a, &b, 1.0)
    );
    // qf128 has no radix-8 pass: a clear error.
    let e = StockhamPlan::with_options(
        &k,
        FftShape::Rows { n: 64, batch: 1 },
        opts(FftPrecision::Qf128, Radix::Eight),
    )
    .err()
    .unwrap();
    assert!(e.to_string().contains("radix 4 for qf128"), "{e}");
}

/// A plan made from the context and the probe's configuration alone, without a kernel set,
/// transforms exactly as one made from the kernels.
#[test]
fn a_plan_from_the_context_and_the_probe_equals_one_from_the_kernels() {
    let (ctx, report) = common::probed();
    let config = report.require_config().expect("df64 runs on this driver");
    let proof = df64gl::kernels::proof::Proof::from_report(&report);
    let shape = FftShape::Rows { n: 256, batch: 2 };
    let options = opts(FftPrecision::Df64, Radix::Four);
    let mut bare = StockhamPlan::on_driver(&ctx, config, &proof, shape, options).unwrap();
    let kernels = df64gl::kernels::Df64Kernels::new(&ctx, &report).unwrap();
    let mut from_kernels = StockhamPlan::with_options(&kernels, shape, options).unwrap();
    let x = to_df64(&common::random_signal(512, 3, 1.0));
    let a = bare.transform(&x, Direction::Forward).unwrap();
    let b = from_kernels.transform(&x, Direction::Forward).unwrap();
    assert_eq!(a, b);
    let e = common::rel_l2(
        &from_df64(&a[..256]),
        &Dft::new(256).apply_df64(&x[..256]),
        1.0,
    );
    assert!(e < 1e-14, "{e:e}");
}

/// Rows of 3 * 2^k points run as mixed radix (the power-of-two stages, then one radix-3
/// stage) with no Bluestein padding, in every precision and radix: forward against a naive
/// DFT (small) or rustfft, and the inverse back to the input.
#[test]
fn three_times_powers_of_two_run_as_mixed_radix() {
    let k = common::kernels();
    let mut planner = rustfft::FftPlanner::<f64>::new();
    for (precision, bound) in [
        (FftPrecision::F32, 1e-5),
        (FftPrecision::Df64, 1e-14),
        (FftPrecision::F64, 1e-14),
        (FftPrecision::Qf128, 1e-14),
    ] {
        let radices: &[Radix] = match precision {
            FftPrecision::Qf128 => &[Radix::Four],
            _ => &[Radix::Two, Radix::Four, Radix::Eight],
        };
        for &radix in radices {
            // Every ladder shape: the radix-3 stage alone, after radix 2, after an even and an
            // odd count of radix-4 stages, after radix 8 with each remainder; larger in df64.
            let sizes: &[u32] = match (precision, radix) {
                (FftPrecision::Qf128, _) => &[0, 1, 3],
                (FftPrecision::Df64, Radix::Four) => &[0, 1, 2, 3, 4, 5, 12],
                (_, Radix::Eight) => &[3, 4, 5],
                _ => &[0, 1, 2, 3],
            };
            for &log2 in sizes {
                let n = 3usize << log2;
                let x = to_df64(&common::random_signal(n, 300 + log2 as u64, 1.0));
                let shape = FftShape::Rows { n, batch: 2 };
                let mut plan = match StockhamPlan::with_options(&k, shape, opts(precision, radix)) {
                    Ok(p) => p,
                    Err(e) => panic!("{precision:?} {radix:?} n = {n}: {e}"),
                };
                let rows: Vec<ComplexDf64> = x.iter().chain(x.iter().rev()).copied().collect();
                let fwd = plan.transform(&rows, Direction::Forward).unwrap();
                for (r, row) in rows.chunks(n).enumerate() {
                    let mut reference = from_df64(row);
                    planner.plan_fft_forward(n).process(&mut reference);
                    let e = common::rel_l2(&from_df64(&fwd[r * n..(r + 1) * n]), &reference, 1.0);
                    assert!(
                        e < bound,
                        "{precision:?} {radix:?} n = {n} row {r}: forward error {e:e}"
                    );
                }
                let back = plan.transform(&fwd, Direction::Inverse).unwrap();
                let e = common::rel_l2(&from_df64(&back), &from_df64(&rows), 1.0);
                assert!(
                    e < bound,
                    "{precision:?} {radix:?} n = {n}: round trip {e:e}"
                );
            }
        }
    }
    // qf128 written one part per pass: three attachments of each part.
    let n = 12;
    let x = to_df64(&common::random_signal(n, 17, 1.0));
    let options = opts(FftPrecision::Qf128, Radix::Four).qf_write(QfWrite::TwoPass);
    let mut plan = StockhamPlan::with_options(&k, FftShape::Rows { n, batch: 1 }, options).unwrap();
    let mut reference = from_df64(&x);
    planner.plan_fft_forward(n).process(&mut reference);
    let got = from_df64(&plan.transform(&x, Direction::Forward).unwrap());
    let e = common::rel_l2(&got, &reference, 1.0);
    assert!(e < 1e-14, "qf128 two-pass n = 12: {e:e}");
}
