//! The mirror against f64 references and the shaders' self-tests.
use super::*;
use crate::fft::reference::{fft_dd, Cdd};
use crate::fft::twiddle::{base_f64, w_long};

fn table(n: usize) -> Vec<ComplexDf64> {
    w_long(n, &base_f64(n), ComplexDf64::default(), |(c, s)| {
        ComplexDf64::from_f64(*c, *s)
    })
}

fn input(n: usize) -> Vec<ComplexDf64> {
    (0..n)
        .map(|i| ComplexDf64::from_f64((i as f64 * 0.37).sin(), (i as f64 * 0.11).cos()))
        .collect()
}

fn max_err(got: &[ComplexDf64], want: &[Cdd]) -> f64 {
    got.iter()
        .zip(want)
        .map(|(g, w)| {
            let w = w.to_c64();
            (g.re.to_f64() - w.re)
                .abs()
                .max((g.im.to_f64() - w.im).abs())
        })
        .fold(0.0, f64::max)
}

/// The radix-3 constants are sqrt(3)/2 and 1/3 to qf128's 2^-100 and are the qf128 split
/// (each word the nearest f32 to what the words before it leave).
#[test]
fn radix3_constants_are_their_values_split_into_qf128_words() {
    use crate::numeric::oracle::{big, big_words, ORACLE_BITS};
    use astro_float::RoundingMode::ToEven;
    let three = big(3.0);
    let sqrt3_2 = three
        .sqrt(ORACLE_BITS, ToEven)
        .div(&big(2.0), ORACLE_BITS, ToEven);
    let third = big(1.0).div(&three, ORACLE_BITS, ToEven);
    for (words, exact) in [(SQRT3_2, sqrt3_2), (THIRD, third)] {
        let rest = exact.sub(&big_words(&words), ORACLE_BITS, ToEven);
        let rel = rest.div(&exact, ORACLE_BITS, ToEven);
        let rel: f64 = Qf128::from_big(&rel).to_f64().abs();
        assert!(rel < 2f64.powi(-99), "{words:?}: relative rest {rel:e}");
        for k in 1..4 {
            let ahead = exact.sub(&big_words(&words[..k]), ORACLE_BITS, ToEven);
            let nearest = Qf128::from_big(&ahead).x[0];
            assert_eq!(words[k], nearest, "word {k} of {words:?}");
        }
    }
}

/// Every butterfly file guards every float operation with the barrier, as the built-in
/// modules do, and the ladder uses each row where its place says.
#[test]
fn butterfly_rows_build_and_stand_in_their_place() {
    let lib = stockham_library();
    for b in BUTTERFLIES {
        lib.check_barriers(b.module).expect(b.module);
        assert_eq!(lib.needs(b.module, &[]), ["stockham_common.glsl"]);
    }
    use MirrorStage::*;
    assert_eq!(
        ladder(5, 1, 4, false),
        Some(vec![Radix4, Radix4, Radix2Last])
    );
    assert_eq!(
        ladder(7, 1, 8, false),
        Some(vec![Radix8, Radix8, Radix2Last])
    );
    assert_eq!(ladder(8, 1, 8, false), Some(vec![Radix8, Radix8, Radix4]));
    assert_eq!(ladder(2, 1, 8, false), Some(vec![Radix4]));
    assert_eq!(ladder(3, 1, 2, false), Some(vec![Radix2, Radix2, Radix2]));
    assert_eq!(
        ladder(5, 3, 4, false),
        Some(vec![Radix2, Radix4, Radix4, Radix3])
    );
    assert_eq!(ladder(18, 3, 4, false).map(|l| l.len()), Some(10));
    assert_eq!(ladder(7, 3, 8, true), None);
    assert_eq!(ladder(0, 3, 4, true), Some(vec![Radix3]));
    assert_eq!(ladder(4, 5, 4, false), None);
    // Each ladder multiplies up to its length.
    for log2 in 0..12 {
        for radix in [2, 4, 8] {
            for odd in [1, 3] {
                if let Some(l) = ladder(log2, odd, radix, false) {
                    let product: usize = l
                        .iter()
                        .map(|s| s.butterfly().map_or(0, |b| b.radix))
                        .product();
                    assert_eq!(product, odd << log2, "{log2} {radix} {odd}: {l:?}");
                }
            }
        }
    }
}

/// The radix-3 stage after the power-of-two stages is the DFT of 3 * 2^k points, forward
/// and (with its 1/3 and the last pass's 2^-k) inverse, to df64 accuracy.
#[test]
fn mixed_radix_stages_compute_the_dft() {
    for log2 in [0u32, 1, 2, 3, 4, 5] {
        let n = 3usize << log2;
        let x = input(n);
        let x_dd: Vec<Cdd> = x.iter().map(|c| Cdd::from_df64(*c)).collect();
        let want = crate::fft::reference::naive_dft_dd(&x_dd, crate::fft::Direction::Forward);
        let t = crate::fft::twiddle::w_long_mixed(
            n,
            &crate::fft::twiddle::base_f64(n),
            ComplexDf64::default(),
            |(c, s)| ComplexDf64::from_f64(*c, *s),
        );
        let tw = Twiddles::Table(&t);
        let stages = ladder(log2, 3, 4, false).expect("radix 4 with radix 3");
        let run = |x: &[ComplexDf64], conj: f32| {
            let mut y = x.to_vec();
            let mut l = 1;
            for (i, s) in stages.iter().enumerate() {
                l *= s.butterfly().map_or(1, |b| b.radix);
                let scale = if conj < 0.0 && i == stages.len() - 1 {
                    1.0 / (1u32 << log2) as f32
                } else {
                    1.0
                };
                y = stage(*s, &y, l, conj, scale, &tw, false).expect("df64 stage");
            }
            y
        };
        let y = run(&x, 1.0);
        assert!(max_err(&y, &want) < 1e-13, "{n}: {}", max_err(&y, &want));
        let back = run(&y, -1.0);
        assert!(
            max_err(&back, &x_dd) < 1e-13,
            "{n} inverse: {}",
            max_err(&back, &x_dd)
        );
    }
}

/// The mirrored stages, chained as the plan chains them, are a forward DFT to df64
/// accuracy (radix 2, radix 4 with a last radix-2 stage, direct and table twiddles).
#[test]
fn mirrored_stages_compute_the_dft() {
    let n = 32;
    let x = input(n);
    let want = fft_dd(&x.iter().map(|c| Cdd::from_df64(*c)).collect::<Vec<_>>());
    let t = table(n);
    let direct = ComplexDf64::direct_twiddle().expect("df64 computes twiddles in the shader");
    for tw in [Twiddles::Table(&t), Twiddles::Direct(direct)] {
        let mut y = x.clone();
        let mut l = 1;
        while l < n {
            l *= 2;
            y = stage(MirrorStage::Radix2, &y, l, 1.0, 1.0, &tw, false).expect("radix 2");
        }
        assert!(
            max_err(&y, &want) < 1e-13,
            "radix 2: {}",
            max_err(&y, &want)
        );
        for qf_loop in [false, true] {
            let mut y = x.clone();
            let mut l = 1;
            for kind in [MirrorStage::Radix4, MirrorStage::Radix4] {
                l *= 4;
                y = stage(kind, &y, l, 1.0, 1.0, &tw, qf_loop).expect("radix 4");
            }
            y = stage(MirrorStage::Radix2Last, &y, 32, 1.0, 1.0, &tw, qf_loop)
                .expect("last radix 2");
            assert!(
                max_err(&y, &want) < 1e-13,
                "radix 4: {}",
                max_err(&y, &want)
            );
        }
    }
}
