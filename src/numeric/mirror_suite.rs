//! One test suite for the CPU mirrors of both extended types, written once over the
//! [`Extended`] trait and run for [`Df64`] (in `df64.rs`) and [`Qf128`] (in `qf128.rs`), as QD
//! tests its double-double and quad-double types: the arithmetic within its documented bound
//! against the oracle at 256 bits, on operands near 1 and at exponents across the range;
//! identities that must be exact; results that stay normalised (each word below half an ulp
//! of the one before).

use astro_float::BigFloat;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::df64::{self, Df64};
use super::oracle::{big_words, error_ulps, Oracle};
use super::qf128::{self, Qf128};

/// An extended-precision type with a CPU mirror: its words, its arithmetic and the bounds
/// its GLSL documents for it.
pub(crate) trait Extended: Copy + std::fmt::Debug {
    const NAME: &'static str;
    /// Bits of the unit the bounds are in: 47 for ulp48, 95 for ulp96.
    const ULP_BITS: i32;
    /// Max error of add, sub, mul, div and sqrt in that unit.
    const BOUNDS: [f64; 5];
    fn from_words(w: &[f32]) -> Self;
    fn words(self) -> Vec<f32>;
    fn add(a: Self, b: Self) -> Self;
    fn sub(a: Self, b: Self) -> Self;
    fn mul(a: Self, b: Self) -> Self;
    fn div(a: Self, b: Self) -> Self;
    fn sqrt(a: Self) -> Self;
}

impl Extended for Df64 {
    const NAME: &'static str = "df64";
    const ULP_BITS: i32 = 47;
    const BOUNDS: [f64; 5] = [0.5, 0.5, 0.5, 1.0, 0.5];
    fn from_words(w: &[f32]) -> Self {
        Df64::new(w[0], w[1])
    }
    fn words(self) -> Vec<f32> {
        vec![self.hi, self.lo]
    }
    fn add(a: Self, b: Self) -> Self {
        df64::df64_add(a, b)
    }
    fn sub(a: Self, b: Self) -> Self {
        df64::df64_sub(a, b)
    }
    fn mul(a: Self, b: Self) -> Self {
        df64::df64_mul(a, b)
    }
    fn div(a: Self, b: Self) -> Self {
        df64::df64_div(a, b)
    }
    fn sqrt(a: Self) -> Self {
        df64::df64_sqrt(a)
    }
}

impl Extended for Qf128 {
    const NAME: &'static str = "qf128";
    const ULP_BITS: i32 = 95;
    const BOUNDS: [f64; 5] = [2.0, 2.0, 2.0, 4.0, 4.0];
    fn from_words(w: &[f32]) -> Self {
        Qf128::new(w[0], w[1], w[2], w[3])
    }
    fn words(self) -> Vec<f32> {
        self.x.to_vec()
    }
    fn add(a: Self, b: Self) -> Self {
        qf128::qf128_add(a, b)
    }
    fn sub(a: Self, b: Self) -> Self {
        qf128::qf128_sub(a, b)
    }
    fn mul(a: Self, b: Self) -> Self {
        qf128::qf128_mul(a, b)
    }
    fn div(a: Self, b: Self) -> Self {
        qf128::qf128_div(a, b)
    }
    fn sqrt(a: Self) -> Self {
        qf128::qf128_sqrt(a)
    }
}

/// A value of `T` with every word used: a uniform f64 in [lo, hi) times 2^e, split greedily
/// into words from 256 random bits (so the low words are full, not the zeros of an f64).
pub(crate) fn random<T: Extended>(rng: &mut impl Rng, lo: f64, hi: f64, e: i32) -> T {
    let n = T::ULP_BITS as usize / 24 + 1;
    let mut words = Vec::with_capacity(n);
    let head = (rng.gen_range(lo..hi) * 2f64.powi(e)) as f32;
    words.push(head);
    let mut scale = if head == 0.0 {
        0.0
    } else {
        f32::EPSILON * head.abs()
    };
    for _ in 1..n {
        // Below half an ulp of the word before, so the words stay non-overlapping; kept far
        // above the subnormals (the GPUs flush those).
        let w = rng.gen_range(-0.5f32..0.5) * scale;
        let floor = f32::MIN_POSITIVE * 2f32.powi(30);
        let w = if w.abs() < floor {
            floor.copysign(w)
        } else {
            w
        };
        words.push(w);
        scale = f32::EPSILON * w.abs();
    }
    T::from_words(&words)
}

/// The exact value of `x`.
pub(crate) fn exact<T: Extended>(x: T) -> BigFloat {
    big_words(&x.words())
}

/// Error of `got` against `want` in T's unit.
pub(crate) fn error<T: Extended>(got: T, want: &BigFloat) -> f64 {
    error_ulps(&exact(got), want, T::ULP_BITS)
}

/// add, sub, mul, div, sqrt of `samples` random pairs at exponents in [-e, e], each within
/// its bound; returns the worst errors.
pub(crate) fn arithmetic_within_bounds<T: Extended>(samples: usize, e: i32) -> [f64; 5] {
    let mut rng = ChaCha8Rng::seed_from_u64(48 + T::ULP_BITS as u64);
    let mut o = Oracle::new();
    let mut worst = [0.0f64; 5];
    for _ in 0..samples {
        let (ea, eb) = (rng.gen_range(-e..=e), rng.gen_range(-e..=e));
        let a: T = random(&mut rng, -1.0, 1.0, ea);
        let b: T = random(&mut rng, -1.0, 1.0, eb);
        let root: T = random(&mut rng, 0.0, 1.0, ea);
        let (xa, xb) = (exact(a), exact(b));
        let cases = [
            (T::add(a, b), o.add(&xa, &xb)),
            (T::sub(a, b), o.sub(&xa, &xb)),
            (T::mul(a, b), o.mul(&xa, &xb)),
            (T::div(a, b), o.div(&xa, &xb)),
            (T::sqrt(root), o.sqrt(&exact(root))),
        ];
        for (k, (got, want)) in cases.iter().enumerate() {
            let err = error(*got, want);
            assert!(
                err <= T::BOUNDS[k],
                "{} op {k} of {a:?}, {b:?} (sqrt of {root:?}): {got:?} is {err} units off",
                T::NAME
            );
            worst[k] = worst[k].max(err);
        }
    }
    worst
}

/// x + 0 = x, x - x = 0, x * 1 = x, x / 1 = x, exactly; sqrt(x^2) within the sqrt bound of |x|.
pub(crate) fn identities_are_exact<T: Extended>(samples: usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(7 + T::ULP_BITS as u64);
    let n = T::ULP_BITS as usize / 24 + 1;
    let (zero, one) = (T::from_words(&vec![0.0; n]), {
        let mut w = vec![0.0; n];
        w[0] = 1.0;
        T::from_words(&w)
    });
    let mut o = Oracle::new();
    for _ in 0..samples {
        let x: T = random(&mut rng, -4.0, 4.0, 0);
        let xv = exact(x);
        for (what, got) in [
            ("x + 0", T::add(x, zero)),
            ("x * 1", T::mul(x, one)),
            ("x / 1", T::div(x, one)),
        ] {
            assert_eq!(exact(got), xv, "{}: {what} of {x:?} = {got:?}", T::NAME);
        }
        assert_eq!(exact(T::sub(x, x)), exact(zero), "{}: x - x", T::NAME);
        let square = T::mul(x, x);
        let root = T::sqrt(square);
        let want = o.sqrt(&exact(square));
        assert!(
            error(root, &want) <= T::BOUNDS[4],
            "{}: sqrt({square:?})",
            T::NAME
        );
    }
}

/// Every result of the arithmetic is normalised: each word at most half an ulp of the one
/// before (the form every routine assumes of its operands).
pub(crate) fn results_stay_normalised<T: Extended>(samples: usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(11 + T::ULP_BITS as u64);
    for _ in 0..samples {
        let a: T = random(&mut rng, -1.0, 1.0, 0);
        let b: T = random(&mut rng, -1.0, 1.0, 0);
        for r in [T::add(a, b), T::sub(a, b), T::mul(a, b), T::div(a, b)] {
            let w = r.words();
            for pair in w.windows(2) {
                let half_ulp = f32::EPSILON * pair[0].abs() / 2.0;
                assert!(
                    pair[1].abs() <= half_ulp,
                    "{}: {r:?} from {a:?}, {b:?} is not normalised",
                    T::NAME
                );
            }
        }
    }
}
