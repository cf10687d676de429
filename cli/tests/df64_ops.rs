//! Every df64 operation on the real GL device: accuracy within target on 2^16 random inputs
//! against the double-double oracle, bit-for-bit equality with the CPU mirror where the probe
//! shows round-to-nearest, IEEE special values, and magnitudes where split must scale.

mod common;

use df64gl::kernels::{ComplexOp, Df64Op};
use df64gl::numeric::df64::{ComplexDf64, Df64};
use df64gl::numeric::domain::{exponent_operand, same_words};
use df64gl::numeric::reference::{error_ulp48, Dd};
use df64gl_cli::experiments::accuracy::{operand_range, random_df64};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

const N: usize = 1 << 16;

fn random_inputs(op: Df64Op, seed: u64) -> (Vec<Df64>, Vec<Df64>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (lo, hi, _) = operand_range(op);
    let a = (0..N).map(|_| random_df64(&mut rng, lo, hi)).collect();
    let b = (0..N)
        .map(|_| {
            let mut y = random_df64(&mut rng, -1.0, 1.0);
            if matches!(op, Df64Op::MulF32 | Df64Op::MulF32Fast) {
                y.lo = 0.0;
            }
            y
        })
        .collect();
    (a, b)
}

fn same_bits(x: Df64, y: Df64) -> bool {
    x.hi.to_bits() == y.hi.to_bits() && x.lo.to_bits() == y.lo.to_bits()
}

#[test]
fn accurate_and_fast_ops_meet_targets_and_match_the_mirror() {
    let k = common::kernels();
    let mut report = Vec::new();
    // The fast tier's functions are judged against the oracle in df64_functions.rs.
    let ops = Df64Op::ACCURATE
        .iter()
        .chain(&Df64Op::FAST)
        .filter(|op| op.reference().is_some());
    for (i, op) in ops.enumerate() {
        let (a, b) = random_inputs(*op, 100 + i as u64);
        let got = k.apply(*op, &a, &b).unwrap();
        let reference = op.reference().unwrap();
        let mirror = op.mirror();
        let (mut max, mut sum_sq, mut diffs) = (0.0f64, 0.0f64, 0usize);
        for j in 0..N {
            let e = error_ulp48(got[j], reference(Dd::from_df64(a[j]), Dd::from_df64(b[j])));
            max = max.max(e);
            sum_sq += e * e;
            if !same_bits(got[j], mirror(a[j], b[j])) {
                diffs += 1;
            }
        }
        let rms = (sum_sq / N as f64).sqrt();
        let (tmax, trms) = common::df64_bound(op.name());
        report.push(format!(
            "{}: max {max:.3} rms {rms:.3} mirror diffs {diffs}",
            op.name()
        ));
        assert!(max <= tmax, "{}: max {max} > {tmax}", op.name());
        assert!(rms <= trms, "{}: rms {rms} > {trms}", op.name());
        if common::mirror_documented_exact(k.context()) {
            assert_eq!(diffs, 0, "{}: GPU differs from the CPU mirror", op.name());
        }
    }
    eprintln!("{}", report.join("\n"));
}

#[test]
fn thall_variants_match_the_mirror_and_stay_near_the_paper() {
    let k = common::kernels();
    for (i, op) in Df64Op::THALL.iter().enumerate() {
        let (a, b) = random_inputs(*op, 200 + i as u64);
        let got = k.apply(*op, &a, &b).unwrap();
        let mirror = op.mirror();
        // Thall's sqrt uses inversesqrt, which need not be correctly rounded on any driver.
        let uses_inversesqrt = matches!(op, Df64Op::SqrtThall | Df64Op::RsqrtThall);
        if common::mirror_documented_exact(k.context()) && !uses_inversesqrt {
            let diffs = (0..N)
                .filter(|&j| !same_bits(got[j], mirror(a[j], b[j])))
                .count();
            assert_eq!(diffs, 0, "{}", op.name());
        }
        if *op != Df64Op::AddSloppy {
            let reference = op.reference().unwrap();
            let max = (0..N)
                .map(|j| error_ulp48(got[j], reference(Dd::from_df64(a[j]), Dd::from_df64(b[j]))))
                .fold(0.0, f64::max);
            // Published G80 figures are 1.1 to 4.5 ulp48; a port should be within a few ulps.
            assert!(max < 16.0, "{} max {max}", op.name());
        }
    }
}

#[test]
fn comparisons_and_sign_ops_match_the_mirror() {
    let k = common::kernels();
    // Pairs that differ only in the low word, equal pairs, and opposite signs.
    let mut a = Vec::new();
    let mut b = Vec::new();
    for i in 0..64 {
        let h = 1.0 + i as f32 / 64.0;
        for (x, y) in [
            (Df64::new(h, 1e-9), Df64::new(h, 2e-9)),
            (Df64::new(h, 2e-9), Df64::new(h, 1e-9)),
            (Df64::new(h, 0.0), Df64::new(h, 0.0)),
            (Df64::new(-h, 1e-9), Df64::new(h, -1e-9)),
            (Df64::new(h, -1e-9), Df64::new(h + 1.0, -1e-9)),
        ] {
            a.push(x);
            b.push(y);
        }
    }
    for op in [
        Df64Op::Eq,
        Df64Op::Neq,
        Df64Op::Lt,
        Df64Op::Le,
        Df64Op::Gt,
        Df64Op::Ge,
        Df64Op::Min,
        Df64Op::Max,
        Df64Op::Abs,
        Df64Op::Neg,
    ] {
        let got = k.apply(op, &a, &b).unwrap();
        let mirror = op.mirror();
        for j in 0..a.len() {
            assert!(
                same_bits(got[j], mirror(a[j], b[j])),
                "{} on {:?} {:?}",
                op.name(),
                a[j],
                b[j]
            );
        }
    }
    // Spot-check semantics, not just agreement.
    let got = k.apply(Df64Op::Lt, &a[..2], &b[..2]).unwrap();
    assert_eq!((got[0].hi, got[1].hi), (1.0, 0.0));
}

#[test]
fn complex_ops_and_ldexp_match_the_mirror() {
    let k = common::kernels();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut c = |n| -> Vec<ComplexDf64> {
        (0..n)
            .map(|_| {
                ComplexDf64::new(
                    random_df64(&mut rng, -1.0, 1.0),
                    random_df64(&mut rng, -1.0, 1.0),
                )
            })
            .collect()
    };
    let (a, b) = (c(4096), c(4096));
    for op in [ComplexOp::Add, ComplexOp::Sub, ComplexOp::Mul] {
        let got = k.apply_complex(op, &a, &b).unwrap();
        for j in 0..a.len() {
            let m = op.mirror()(a[j], b[j]);
            if common::mirror_documented_exact(k.context()) {
                assert!(
                    same_bits(got[j].re, m.re) && same_bits(got[j].im, m.im),
                    "{op:?} {j}"
                );
            }
        }
        if op == ComplexOp::Mul {
            // (ar br - ai bi) against the oracle: accurate ops give a few ulp48 at most.
            for j in 0..a.len() {
                let (ar, ai) = (Dd::from_df64(a[j].re), Dd::from_df64(a[j].im));
                let (br, bi) = (Dd::from_df64(b[j].re), Dd::from_df64(b[j].im));
                let re = ar * br - ai * bi;
                let err = (Dd::from_df64(got[j].re) - re).to_f64().abs();
                let scale = (ar * br).to_f64().abs() + (ai * bi).to_f64().abs();
                assert!(
                    err <= scale * 2f64.powi(-46),
                    "cmul re {j}: {err} vs {scale}"
                );
            }
        }
    }
    let a: Vec<Df64> = (0..64)
        .map(|i| Df64::from_f64(1.0 / 3.0 + i as f64))
        .collect();
    let n: Vec<Df64> = (0..64).map(|i| Df64::new((i as f32) - 32.0, 0.0)).collect();
    let got = k.apply(Df64Op::Ldexp, &a, &n).unwrap();
    for j in 0..64 {
        let want = a[j].to_f64() * 2f64.powi(j as i32 - 32);
        assert_eq!(got[j].to_f64(), want, "ldexp {j}");
    }
}

#[test]
fn ieee_special_values() {
    let k = common::kernels();
    let inf = Df64::new(f32::INFINITY, 0.0);
    let ninf = Df64::new(f32::NEG_INFINITY, 0.0);
    let nan = Df64::new(f32::NAN, 0.0);
    let one = Df64::ONE;
    let zero = Df64::ZERO;
    let big = Df64::new(3.0e38, 1.0e31);
    let check = |op: Df64Op, a: Df64, b: Df64, want: f32| {
        let got = k.apply_unchecked(op, &[a], &[b]).unwrap()[0];
        let ok = if want.is_nan() {
            got.hi.is_nan()
        } else {
            got.hi == want && (got.lo == 0.0 || want.is_finite())
        };
        assert!(ok, "{}({a:?}, {b:?}) = {got:?}, want {want}", op.name());
        // The mirror documents the same behaviour.
        let m = op.mirror()(a, b);
        assert!(
            if want.is_nan() {
                m.hi.is_nan()
            } else {
                m.hi == want
            },
            "mirror {}({a:?}, {b:?}) = {m:?}",
            op.name()
        );
    };
    check(Df64Op::Add, inf, one, f32::INFINITY);
    check(Df64Op::Add, inf, ninf, f32::NAN);
    check(Df64Op::Add, big, big, f32::INFINITY);
    check(Df64Op::Sub, ninf, one, f32::NEG_INFINITY);
    check(Df64Op::Add, nan, one, f32::NAN);
    check(Df64Op::Mul, inf, Df64::new(-2.0, 0.0), f32::NEG_INFINITY);
    check(Df64Op::Mul, inf, zero, f32::NAN);
    check(Df64Op::Mul, big, big, f32::INFINITY);
    check(Df64Op::Mul, nan, one, f32::NAN);
    check(Df64Op::Sqr, ninf, zero, f32::INFINITY);
    check(Df64Op::Div, one, zero, f32::INFINITY);
    check(Df64Op::Div, Df64::new(-1.0, 0.0), zero, f32::NEG_INFINITY);
    check(Df64Op::Div, zero, zero, f32::NAN);
    check(Df64Op::Div, one, inf, 0.0);
    check(Df64Op::Div, inf, inf, f32::NAN);
    check(Df64Op::Recip, inf, zero, 0.0);
    check(Df64Op::Sqrt, Df64::new(-1.0, 0.0), zero, f32::NAN);
    check(Df64Op::Sqrt, zero, zero, 0.0);
    check(Df64Op::Sqrt, inf, zero, f32::INFINITY);
    check(Df64Op::Sqrt, nan, zero, f32::NAN);
    check(Df64Op::Rsqrt, zero, zero, f32::INFINITY);
    check(Df64Op::Rsqrt, inf, zero, 0.0);
    check(Df64Op::Rsqrt, Df64::new(-4.0, 0.0), zero, f32::NAN);
    // Overflow from finite operands: +inf with a zero low word on every target, never NaN
    // (the 1.7e23 * 1.9e23 gave NaN from the es300 export in WebGL before).
    let p = Df64::from_f64(1.7e23);
    check(Df64Op::Mul, p, Df64::from_f64(1.9e23), f32::INFINITY);
    check(Df64Op::Sqr, Df64::from_f64(-2e19), zero, f32::INFINITY);
    check(Df64Op::Div, big, Df64::from_f64(1e-20), f32::INFINITY);
    check(Df64Op::MulF32, big, Df64::new(-8.0, 0.0), f32::NEG_INFINITY);
    // Underflow: ±0 (or the nearest value the words hold), with the sign of the exact result.
    let tiny = Df64::from_f64(3e-30);
    let under = k
        .apply_unchecked(Df64Op::Mul, &[tiny], &[Df64::from_f64(-1e-20)])
        .unwrap()[0];
    assert!(
        under.hi.to_bits() == (-0.0f32).to_bits() || under.hi.abs() < 1e-45,
        "{under:?}"
    );
    // Signed zeros and subnormal inputs: sqrt(-0) = -0; a subnormal is 0 where it is flushed
    // (its root where it is not, 9.9e-40 -> 3.1e-20: never the input itself).
    let sub = Df64::new(9.9e-40, 0.0);
    let root = k.apply_unchecked(Df64Op::Sqrt, &[sub], &[zero]).unwrap()[0];
    if k.proof().flushes_subnormals {
        assert_eq!(root, zero, "sqrt of a flushed subnormal");
    } else {
        approx::assert_abs_diff_eq!(root.to_f64(), 3.146e-20, epsilon = 1e-22);
    }
    let neg_zero = Df64::new(-0.0, 0.0);
    let r = k
        .apply_unchecked(Df64Op::Sqrt, &[neg_zero], &[zero])
        .unwrap()[0];
    assert_eq!(r.hi.to_bits(), (-0.0f32).to_bits(), "sqrt(-0) = {r:?}");
    check(Df64Op::Rsqrt, neg_zero, zero, f32::NEG_INFINITY);
    check(Df64Op::Div, neg_zero, one, -0.0);
    let q = k.apply_unchecked(Df64Op::Div, &[neg_zero], &[one]).unwrap()[0];
    assert_eq!(q.hi.to_bits(), (-0.0f32).to_bits(), "-0 / 1 = {q:?}");
    let s = k
        .apply_unchecked(Df64Op::Add, &[neg_zero], &[neg_zero])
        .unwrap()[0];
    assert_eq!(s.hi.to_bits(), (-0.0f32).to_bits(), "-0 + -0 = {s:?}");
    check(Df64Op::Mul, nan, zero, f32::NAN);
    check(Df64Op::Div, nan, zero, f32::NAN);
    check(Df64Op::Rsqrt, nan, zero, f32::NAN);
}

#[test]
fn huge_magnitudes_split_without_overflow() {
    // Beyond 2^112, 4097 * a would overflow; split scales instead, so products stay exact.
    let k = common::kernels();
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let n = 4096;
    let a: Vec<Df64> = (0..n)
        .map(|i| {
            let x = random_df64(&mut rng, 1.0, 2.0);
            let s = 2f32.powi(100 + (i % 27) as i32); // up to 2^126
            Df64::new(x.hi * s, x.lo * s)
        })
        .collect();
    let b: Vec<Df64> = (0..n)
        .map(|_| random_df64(&mut rng, 2f64.powi(-30), 0.5))
        .collect();
    for op in [Df64Op::Mul, Df64Op::Div, Df64Op::Sqrt, Df64Op::Sqr] {
        let got = k.apply_unchecked(op, &a, &b).unwrap();
        let r = op.reference().unwrap();
        for j in 0..n {
            let exact = r(Dd::from_df64(a[j]), Dd::from_df64(b[j]));
            if !exact.hi.is_finite() || exact.hi.abs() > f32::MAX as f64 {
                assert!(
                    !got[j].hi.is_finite(),
                    "{} {j}: {:?} should overflow",
                    op.name(),
                    got[j]
                );
                continue;
            }
            let e = error_ulp48(got[j], exact);
            assert!(
                e <= common::df64_bound(op.name()).0,
                "{} at {:?} x {:?}: {e} ulp48",
                op.name(),
                a[j],
                b[j]
            );
        }
    }
}

#[test]
fn length_mismatch_is_an_error() {
    let k = common::kernels();
    let e = k
        .apply(Df64Op::Add, &[Df64::ONE], &[])
        .unwrap_err()
        .to_string();
    assert!(e.contains("1 and 0"), "{e}");
}

/// The domain, on the GPU: 2^18 operand pairs per accurate op with exponents uniform in
/// [-100, 100] (`common::assert_every_exponent`), and 2^16 per fast op over the fast tier's own
/// domain (`common::assert_fast_domain`); the driver tests run both on softpipe and zink too.
#[test]
fn every_exponent_keeps_the_bounds_and_the_mirror() {
    let k = common::kernels();
    common::assert_every_exponent(&k, 1 << 18);
    common::assert_fast_domain(&k, 1 << 16);
}

/// The `*_unscaled` variants (what the FFT and the Mandelbrot orbit use) equal the full-range
/// ops bit for bit inside their own domain, on the GPU.
#[test]
fn unscaled_variants_equal_the_scaled_ops_near_one() {
    let k = common::kernels();
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    let n = 1 << 14;
    let a: Vec<Df64> = (0..n)
        .map(|_| exponent_operand(&mut rng, 20, true))
        .collect();
    let b: Vec<Df64> = (0..n)
        .map(|_| exponent_operand(&mut rng, 20, false))
        .collect();
    for (scaled, unscaled) in [
        (Df64Op::Add, Df64Op::AddUnscaled),
        (Df64Op::Mul, Df64Op::MulUnscaled),
        (Df64Op::Div, Df64Op::DivUnscaled),
        (Df64Op::Sqrt, Df64Op::SqrtUnscaled),
    ] {
        let want = k.apply_unchecked(scaled, &a, &b).unwrap();
        let got = k.apply_unchecked(unscaled, &a, &b).unwrap();
        let diffs = (0..n).filter(|&j| !same_words(got[j], want[j])).count();
        assert_eq!(
            diffs,
            0,
            "{} differs from {}",
            unscaled.name(),
            scaled.name()
        );
    }
}
