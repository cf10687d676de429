//! No silent wrong result at the edges: FFT input at any f64 magnitude, sums that would
//! overflow f32, parts too small to hold, full-precision decimal input and output through
//! `fft-demo`, the NaN guard when protection is off, and the element-wise kernels' domain.

use std::path::PathBuf;

use astro_float::{BigFloat, RoundingMode};
use df64gl::fft::{
    Direction, FftError, FftOptions, FftPrecision, FftShape, GpuFft, RealFftPlan, StockhamPlan,
};
use df64gl::kernels::{Df64Op, KernelError};
use df64gl::numeric::df64::{ComplexDf64, Df64};
use df64gl::numeric::oracle::{big, to_f64, Oracle, ORACLE_BITS};
use df64gl_cli::support::signal::parse_csv;
use rand::{Rng, SeedableRng};
use rustfft::num_complex::Complex64;

mod common;

const RM: RoundingMode = RoundingMode::ToEven;

/// rustfft in f64 (relative error about 1e-16, far below df64's target).
fn rustfft(x: &[Complex64], direction: Direction) -> Vec<Complex64> {
    let mut v = x.to_vec();
    let mut planner = rustfft::FftPlanner::<f64>::new();
    match direction {
        Direction::Forward => planner.plan_fft_forward(v.len()).process(&mut v),
        Direction::Inverse => {
            planner.plan_fft_inverse(v.len()).process(&mut v);
            let s = 1.0 / v.len() as f64;
            v.iter_mut().for_each(|z| *z *= s);
        }
    }
    v
}

#[test]
fn df64_transforms_any_f64_magnitude_at_full_accuracy() {
    let k = common::kernels();
    let n = 1024;
    let mut plan = StockhamPlan::new(&k, n, FftPrecision::Df64).unwrap();
    for scale in [1e-300, 1e-200, 1e-39, 1.0, 3e38, 1e200, 1e300] {
        let x = common::random_signal(n, 7, scale);
        for dir in [Direction::Forward, Direction::Inverse] {
            let underflow = plan.upload(&x).unwrap();
            assert_eq!(underflow.flushed, 0);
            plan.execute(dir).unwrap();
            let got = plan.download::<Complex64>().unwrap();
            let want = rustfft(&x, dir);
            let e = common::rel_l2(&got, &want, scale);
            assert!(e < 1e-14, "scale {scale:e} {dir:?}: rel. L2 {e:e}");
        }
    }
    // The DC term of 1024 values near 3e38 is 3e41: beyond f32 and df64, so downloading
    // df64 refuses, naming the way out, and downloading Complex64 gives it.
    let x = vec![Complex64::new(3e38, -2e38); n];
    plan.upload(&x).unwrap();
    plan.execute(Direction::Forward).unwrap();
    let e = plan.download::<ComplexDf64>().unwrap_err();
    assert!(
        matches!(e, FftError::ResultOutOfRange { element: 0, .. }),
        "{e}"
    );
    assert!(e.to_string().contains("download::<Complex64>"), "{e}");
    let got = plan.download::<Complex64>().unwrap();
    let dc = Complex64::new(3e38 * n as f64, -2e38 * n as f64);
    assert!((got[0] - dc).norm() < 1e-14 * dc.norm(), "{:?}", got[0]);
    assert!(got[1..].iter().all(|z| z.norm() == 0.0));
}

#[test]
fn every_shape_and_precision_is_block_scaled() {
    let k = common::kernels();
    // 2-D image of values near 1e37 (sums of 256 of them overflow f32) in f32 and qf128.
    for precision in [FftPrecision::F32, FftPrecision::Qf128] {
        let shape = FftShape::Image { rows: 16, cols: 16 };
        let mut plan = StockhamPlan::with_options(&k, shape, FftOptions::new(precision)).unwrap();
        let x = common::random_signal(256, 3, 1e37);
        plan.upload(&x).unwrap();
        plan.execute(Direction::Forward).unwrap();
        let got = plan.download::<Complex64>().unwrap();
        // 2-D reference: rows then columns with rustfft.
        let mut want = x.clone();
        for row in want.chunks_exact_mut(16) {
            row.copy_from_slice(&rustfft(row, Direction::Forward));
        }
        for c in 0..16 {
            let col: Vec<Complex64> = (0..16).map(|r| want[r * 16 + c]).collect();
            for (r, v) in rustfft(&col, Direction::Forward).into_iter().enumerate() {
                want[r * 16 + c] = v;
            }
        }
        let target = if precision == FftPrecision::F32 {
            1e-6
        } else {
            1e-15
        };
        let e = common::rel_l2(&got, &want, 1e37);
        assert!(e < target, "{precision:?}: {e:e}");
    }
    // Real input near f32's largest values.
    let n = 256;
    let reals: Vec<Df64> = (0..n)
        .map(|i| Df64::from_f64(3e38 * ((i * 37 % 101) as f64 / 101.0 - 0.5)))
        .collect();
    let mut real = RealFftPlan::new(&k, n, 1, FftOptions::new(FftPrecision::Df64)).unwrap();
    real.upload(&reals).unwrap();
    real.execute(Direction::Forward).unwrap();
    // Bins sum 256 values of up to 1.5e38: beyond f32, so read as f64.
    let got = real.download::<Complex64>().unwrap();
    let full: Vec<Complex64> = reals
        .iter()
        .map(|r| Complex64::new(r.to_f64(), 0.0))
        .collect();
    let want = rustfft(&full, Direction::Forward);
    let e = common::rel_l2(&got, &want[..n / 2 + 1], 1e38);
    assert!(e < 1e-14, "real: {e:e}");
}

#[test]
fn parts_too_small_to_hold_are_counted() {
    let k = common::kernels();
    let mut plan = StockhamPlan::new(&k, 16, FftPrecision::Df64).unwrap();
    let mut x = vec![Complex64::new(0.0, 0.0); 16];
    x[0] = Complex64::new(1e30, 0.0);
    x[3] = Complex64::new(1e-20, 1e-25); // 2^-166 below: flushed, both parts
    x[5] = Complex64::new(1.0, 0.0); // 2^-100 below: kept
    let u = plan.upload(&x).unwrap();
    assert_eq!(u.flushed, 2);
    let below = u.largest_flushed_log2.unwrap();
    approx::assert_abs_diff_eq!(below, (1e-20f64 / 1e30).log2(), epsilon = 1e-9);
}

#[test]
fn without_protection_the_nan_is_caught_and_its_pass_named() {
    let k = common::kernels();
    let n = 256;
    let options = FftOptions::new(FftPrecision::Df64).block_scaling(false);
    let mut plan = StockhamPlan::with_options(&k, FftShape::Rows { n, batch: 1 }, options).unwrap();
    let x: Vec<_> = vec![Complex64::new(3e38, 3e38); n]
        .iter()
        .map(|z| df64gl::numeric::df64::ComplexDf64::from_f64(z.re, z.im))
        .collect();
    plan.upload(&x).unwrap();
    plan.execute(Direction::Forward).unwrap();
    let e = plan.download::<ComplexDf64>().unwrap_err();
    let text = e.to_string();
    assert!(
        matches!(
            e,
            FftError::NonFiniteResult {
                precision: "df64",
                ..
            }
        ) && text.contains("after a forward transform"),
        "{text}"
    );
    plan.upload(&x).unwrap();
    let e = plan
        .execute_checked(Direction::Forward)
        .unwrap_err()
        .to_string();
    assert!(e.contains("in pass 1 of") && e.contains("element"), "{e}");
}

#[test]
fn element_wise_kernels_refuse_operands_outside_their_domain() {
    let k = common::kernels();
    let a = vec![Df64::from_f64(1.5), Df64::from_f64(1e-31)];
    let b = vec![Df64::from_f64(2.0), Df64::from_f64(1e-31)];
    // 1e-31 lies below the domain (2^-100, about 7.9e-31): the second element is named.
    let e = k.apply(Df64Op::Mul, &a, &b).unwrap_err();
    assert!(
        matches!(
            e,
            KernelError::OutOfDomain {
                element: 1,
                what: "first operand",
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("2^-100"), "{e}");
    let small = vec![Df64::from_f64(1e-16); 2];
    let e = k.apply(Df64Op::Mul, &small, &small).unwrap_err();
    assert!(
        matches!(
            e,
            KernelError::OutOfDomain {
                element: 0,
                what: "result",
                ..
            }
        ),
        "{e}"
    );
    // 1e-10 * 1e-10 is in the domain of the scaled mul, not of the unscaled one (2^-40).
    let e10 = vec![Df64::from_f64(1e-10); 2];
    assert!(k.apply(Df64Op::Mul, &e10, &e10).is_ok());
    let e = k.apply(Df64Op::MulUnscaled, &e10, &e10).unwrap_err();
    assert!(e.to_string().contains("2^-40"), "{e}");
    // Sums may cancel to anything (exactly); comparisons and negation take any finite value.
    let got = k.apply(Df64Op::Sub, &a[..1], &a[..1]).unwrap();
    assert_eq!(got[0], Df64::ZERO);
    let huge = vec![Df64::from_f64(3e38)];
    assert_eq!(k.apply(Df64Op::Neg, &huge, &huge).unwrap()[0].hi, -3e38);
    // 2^100 * 2^20 is in the domain; 2^120 * 2^20 overflows it.
    let (x, y) = (
        vec![Df64::from_f64(2f64.powi(100))],
        vec![Df64::from_f64(2f64.powi(20))],
    );
    assert_eq!(k.apply(Df64Op::Mul, &x, &y).unwrap()[0].hi, 2f32.powi(120));
    let x = vec![Df64::from_f64(2f64.powi(120))];
    assert!(matches!(
        k.apply(Df64Op::Mul, &x, &y),
        Err(KernelError::OutOfDomain { what: "result", .. })
    ));
    let nan = vec![Df64::new(f32::NAN, 0.0)];
    assert!(k.apply(Df64Op::Neg, &nan, &nan).is_err());
    // apply_unchecked computes anyway, for measuring.
    assert!(k.apply_unchecked(Df64Op::Mul, &a, &b).is_ok());
}

// ---------------------------------------------------------------- through fft-demo

fn demo(args: &[&str]) -> (i32, String, String) {
    let cache = std::env::temp_dir().join(format!("df64gl-edges-cache-{}", std::process::id()));
    common::run_bin(
        env!("CARGO_BIN_EXE_fft-demo"),
        args,
        &[("DF64GL_CACHE_DIR", cache.to_string_lossy().as_ref())],
    )
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("df64gl-edges-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// The exact DFT in the oracle (O(N^2), 256 bits): forward, or inverse with 1/N.
fn exact_dft(x: &[[BigFloat; 2]], inverse: bool) -> Vec<[BigFloat; 2]> {
    let n = x.len();
    let mut o = Oracle::new();
    let two_pi = o.pi().mul(&big(2.0), ORACLE_BITS, RM);
    let angle: Vec<[BigFloat; 2]> = (0..n)
        .map(|j| {
            let t =
                two_pi
                    .mul(&big(j as f64), ORACLE_BITS, RM)
                    .div(&big(n as f64), ORACLE_BITS, RM);
            let s = o.sin(&t);
            [o.cos(&t), if inverse { s } else { s.neg() }]
        })
        .collect();
    (0..n)
        .map(|k| {
            let (mut re, mut im) = (big(0.0), big(0.0));
            for (t, v) in x.iter().enumerate() {
                let [c, s] = &angle[(k * t) % n];
                re = re.add(
                    &v[0].mul(c, ORACLE_BITS, RM).sub(
                        &v[1].mul(s, ORACLE_BITS, RM),
                        ORACLE_BITS,
                        RM,
                    ),
                    ORACLE_BITS,
                    RM,
                );
                im = im.add(
                    &v[0].mul(s, ORACLE_BITS, RM).add(
                        &v[1].mul(c, ORACLE_BITS, RM),
                        ORACLE_BITS,
                        RM,
                    ),
                    ORACLE_BITS,
                    RM,
                );
            }
            if inverse {
                let nn = big(n as f64);
                [re.div(&nn, ORACLE_BITS, RM), im.div(&nn, ORACLE_BITS, RM)]
            } else {
                [re, im]
            }
        })
        .collect()
}

/// Relative L2 error of `got` against `want`, in the oracle (any magnitude).
fn rel_l2_big(got: &[[BigFloat; 2]], want: &[[BigFloat; 2]]) -> f64 {
    let (mut num, mut den) = (big(0.0), big(0.0));
    for (g, w) in got.iter().zip(want) {
        for i in 0..2 {
            let d = g[i].sub(&w[i], ORACLE_BITS, RM);
            num = num.add(&d.mul(&d, ORACLE_BITS, RM), ORACLE_BITS, RM);
            den = den.add(&w[i].mul(&w[i], ORACLE_BITS, RM), ORACLE_BITS, RM);
        }
    }
    to_f64(&num.div(&den, ORACLE_BITS, RM).sqrt(ORACLE_BITS, RM))
}

/// Writes `x` as CSV, runs fft-demo on it and reads its output back.
fn demo_round(
    name: &str,
    text: &str,
    precision: &str,
    extra: &[&str],
) -> (i32, String, Vec<[BigFloat; 2]>) {
    let input = scratch(&format!("{name}.csv"));
    let output = scratch(&format!("{name}-out.csv"));
    std::fs::write(&input, text).unwrap();
    let mut args = vec![
        "--input",
        input.to_str().unwrap(),
        "--output",
        output.to_str().unwrap(),
        "--precision",
        precision,
        "--no-plot",
        "--repeats",
        "1",
    ];
    args.extend_from_slice(extra);
    let (code, out, err) = demo(&args);
    let got = if code == 0 {
        parse_csv(&std::fs::read_to_string(&output).unwrap()).unwrap()
    } else {
        Vec::new()
    };
    (code, format!("{out}{err}"), got)
}

#[test]
fn fft_demo_is_accurate_at_every_magnitude_and_never_prints_nan() {
    let n = 64;
    for scale in ["1e-200", "1e-39", "3e37", "1e200"] {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let text: String = (0..n)
            .map(|_| {
                format!(
                    "{:.17}{scale},{:.17}{scale}\n",
                    rng.gen_range(-1.0..1.0f64),
                    rng.gen_range(-1.0..1.0f64)
                )
            })
            .collect();
        let x = parse_csv(&text).unwrap();
        for inverse in [false, true] {
            let extra: &[&str] = if inverse { &["--inverse"] } else { &[] };
            let (code, log, got) = demo_round(&format!("mag{scale}"), &text, "df64", extra);
            assert_eq!(code, 0, "{log}");
            assert!(!log.contains("NaN") && !log.contains("inf dB"), "{log}");
            let e = rel_l2_big(&got, &exact_dft(&x, inverse));
            eprintln!("df64 at {scale}, inverse={inverse}: rel. L2 against the exact DFT {e:.2e}");
            assert!(e < 1e-14, "{scale} inverse={inverse}: rel. L2 {e:e}");
        }
    }
}

#[test]
fn fft_demo_qf128_keeps_36_digit_decimals_both_ways() {
    let n = 32;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    // 36 random significant digits a part: more than f64 (17) or df64 (15) carry.
    let mut digits = || {
        let d: String = (0..35)
            .map(|_| char::from(b'0' + rng.gen_range(0..10u8)))
            .collect();
        format!(
            "{}{}.{d}e-3",
            if rng.gen_bool(0.5) { "-" } else { "" },
            rng.gen_range(1..10)
        )
    };
    let text: String = (0..n)
        .map(|_| format!("{},{}\n", digits(), digits()))
        .collect();
    let x = parse_csv(&text).unwrap();
    for inverse in [false, true] {
        let extra: &[&str] = if inverse { &["--inverse"] } else { &[] };
        let (code, log, got) = demo_round("qf", &text, "qf128", extra);
        assert_eq!(code, 0, "{log}");
        let e = rel_l2_big(&got, &exact_dft(&x, inverse));
        eprintln!("qf128 from 36-digit decimals, inverse={inverse}: rel. L2 {e:.2e}");
        assert!(e < 1e-27, "inverse={inverse}: rel. L2 {e:e}");
        // The output carries 36 significant digits.
        let line = std::fs::read_to_string(scratch("qf-out.csv")).unwrap();
        let first = line.lines().nth(1).unwrap();
        let mantissa = first.split(',').next().unwrap().split('e').next().unwrap();
        assert_eq!(mantissa.trim_start_matches('-').len(), 37, "{first}");
    }
}

#[test]
fn fft_demo_warns_of_flushed_parts_and_reports_a_broken_transform_as_an_error() {
    let mut text = String::from("1e30,0\n1e-30,0\n");
    text.push_str(&"0.5,0.25\n".repeat(14));
    let (code, log, _) = demo_round("flush", &text, "df64", &[]);
    assert_eq!(code, 0, "{log}");
    assert!(
        log.contains("warning") && log.contains("1 nonzero input component"),
        "{log}"
    );
    // With the protection switched off, values near 3e38 overflow inside the transform: an
    // error naming the precision, the pass and the element, exit status 1, no table.
    let text: String = (0..64).map(|i| format!("3e38,{}e37\n", i % 7)).collect();
    let (code, log, _) = demo_round("nan", &text, "df64", &["--no-block-scaling"]);
    assert_eq!(code, 1, "{log}");
    assert!(
        log.contains("df64 FFT produced a NaN")
            && log.contains("pass 1 of")
            && !log.contains("peak S/N"),
        "{log}"
    );
}
