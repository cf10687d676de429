//! Host references for the GPU transforms and the paper's error measures.
//!
//! - rustfft in f64 (about 1e-16 relative): the reference for f32 and df64;
//! - [`fft_dd`]: a radix-2 FFT in double-double (about 2^-104 relative, twiddles from the
//!   oracle): the extended-precision reference for qf128, whose own error is about 2^-96;
//! - relative L2 error, round-trip RMSE of magnitude and phase (Thall's eqs. 14 to 16) and
//!   peak signal-to-noise ratio (eq. 17), all computed in double-double so they resolve
//!   qf128's errors too.

use rustfft::num_complex::Complex64;

use crate::numeric::df64::ComplexDf64;
use crate::numeric::qf128::{ComplexQf128, Qf128};
use crate::numeric::Dd;

use super::twiddle::{base_big, chirp_big};
use super::Direction;
use crate::numeric::oracle::{big, Oracle, ORACLE_BITS};

/// A complex double-double.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cdd {
    /// Real part.
    pub re: Dd,
    /// Imaginary part.
    pub im: Dd,
}

impl Cdd {
    /// 0 + 0i.
    pub const ZERO: Cdd = Cdd {
        re: Dd { hi: 0.0, lo: 0.0 },
        im: Dd { hi: 0.0, lo: 0.0 },
    };

    /// A complex df64, exactly.
    pub fn from_df64(c: ComplexDf64) -> Self {
        Cdd {
            re: Dd::from_df64(c.re),
            im: Dd::from_df64(c.im),
        }
    }

    /// The nearest double-double (qf128's four words can span more than 106 bits).
    pub fn from_qf128(c: ComplexQf128) -> Self {
        Cdd {
            re: dd_of_qf(c.re),
            im: dd_of_qf(c.im),
        }
    }

    /// Rounded to an f64 complex.
    pub fn to_c64(self) -> Complex64 {
        Complex64::new(self.re.to_f64(), self.im.to_f64())
    }

    fn add(self, b: Cdd) -> Cdd {
        Cdd {
            re: self.re + b.re,
            im: self.im + b.im,
        }
    }

    fn sub(self, b: Cdd) -> Cdd {
        Cdd {
            re: self.re - b.re,
            im: self.im - b.im,
        }
    }

    fn mul(self, b: Cdd) -> Cdd {
        Cdd {
            re: self.re * b.re - self.im * b.im,
            im: self.re * b.im + self.im * b.re,
        }
    }

    /// The complex conjugate.
    pub fn conj(self) -> Cdd {
        Cdd {
            re: self.re,
            im: -self.im,
        }
    }

    /// |z|^2 in double-double.
    pub fn norm_sqr(self) -> Dd {
        self.re * self.re + self.im * self.im
    }
}

impl Cdd {
    /// An oracle pair (re, im) to the nearest double-doubles.
    pub fn from_big(c: &(astro_float::BigFloat, astro_float::BigFloat)) -> Self {
        Cdd {
            re: Dd::from_big(&c.0),
            im: Dd::from_big(&c.1),
        }
    }

    /// An f64 complex, exactly.
    pub fn from_c64(c: Complex64) -> Self {
        Cdd {
            re: Dd::from_f64(c.re),
            im: Dd::from_f64(c.im),
        }
    }

    /// Both parts times `s`.
    pub fn scale(self, s: Dd) -> Cdd {
        Cdd {
            re: self.re * s,
            im: self.im * s,
        }
    }
}

impl std::ops::Add for Cdd {
    type Output = Cdd;
    fn add(self, b: Cdd) -> Cdd {
        Cdd::add(self, b)
    }
}

impl std::ops::Sub for Cdd {
    type Output = Cdd;
    fn sub(self, b: Cdd) -> Cdd {
        Cdd::sub(self, b)
    }
}

impl std::ops::Mul for Cdd {
    type Output = Cdd;
    fn mul(self, b: Cdd) -> Cdd {
        Cdd::mul(self, b)
    }
}

/// Exact values of block-scaled words times 2^`shift`, in double-double.
pub fn words_dd(words: &[ComplexQf128], shift: i32) -> Vec<Cdd> {
    let f = crate::numeric::reference::ldexp(1.0, shift);
    words
        .iter()
        .map(|c| Cdd::from_qf128(*c).scale(Dd::from_f64(f)))
        .collect()
}

/// The inverse through the forward transform: conj(F(conj x)) / N.
fn inverse_through(x: &[Cdd], forward: impl Fn(&[Cdd]) -> Vec<Cdd>) -> Vec<Cdd> {
    let conj: Vec<Cdd> = x.iter().map(|c| c.conj()).collect();
    let s = Dd::from_f64(1.0) / Dd::from_f64(x.len() as f64);
    forward(&conj)
        .into_iter()
        .map(|c| c.conj().scale(s))
        .collect()
}

/// The DFT of any length in double-double (about 2^-100 relative): [`fft_dd`] for powers of
/// two, otherwise Bluestein's chirp-z through it with the oracle's chirp; inverse with 1/N.
pub fn dft_dd(x: &[Cdd], direction: Direction) -> Vec<Cdd> {
    match direction {
        Direction::Forward => bluestein_dd(x),
        Direction::Inverse => inverse_through(x, bluestein_dd),
    }
}

fn bluestein_dd(x: &[Cdd]) -> Vec<Cdd> {
    let n = x.len();
    if n <= 1 || n.is_power_of_two() {
        return fft_dd(x);
    }
    let m = (2 * n - 1).next_power_of_two();
    let w: Vec<Cdd> = chirp_big(n, -1.0).iter().map(Cdd::from_big).collect();
    let mut a = vec![Cdd::ZERO; m];
    let mut b = vec![Cdd::ZERO; m];
    for j in 0..n {
        a[j] = x[j].mul(w[j]);
        b[j] = w[j].conj();
        if j > 0 {
            b[m - j] = w[j].conj();
        }
    }
    let spectrum: Vec<Cdd> = fft_dd(&a)
        .into_iter()
        .zip(fft_dd(&b))
        .map(|(p, q)| p.mul(q))
        .collect();
    let c = inverse_through(&spectrum, fft_dd);
    (0..n).map(|k| w[k].mul(c[k])).collect()
}

/// The DFT by its definition, O(N^2), in double-double with the oracle's twiddles: the
/// independent check of every fast transform at small N.
pub fn naive_dft_dd(x: &[Cdd], direction: Direction) -> Vec<Cdd> {
    Dft::new(x.len()).direction(direction).apply_dd(x)
}

/// The twiddles exp(sign 2 pi i t / n), t < n, from the oracle, rounded to double-double.
fn oracle_twiddles(n: usize, sign: f64) -> Vec<Cdd> {
    let mut o = Oracle::new();
    let rm = astro_float::RoundingMode::ToEven;
    let two_pi = o.pi().mul(&big(2.0), ORACLE_BITS, rm);
    (0..n)
        .map(|t| {
            let a =
                two_pi
                    .mul(&big(t as f64), ORACLE_BITS, rm)
                    .div(&big(n as f64), ORACLE_BITS, rm);
            Cdd {
                re: Dd::from_big(&o.cos(&a)),
                im: Dd::from_big(&o.sin(&a)).mul_f64(sign),
            }
        })
        .collect()
}

/// The DFT by its definition along every axis of a row-major array of any shape and lengths,
/// in double-double with the oracle's twiddles (each product reduced exactly, jk mod n): the
/// reference every FFT test compares with, independent of every fast algorithm here.
///
/// ```
/// use df64gl::fft::reference::Dft;
/// use df64gl::fft::{Complex64, Direction};
/// // An impulse at 1 of 3 x 4 points: the 2-D spectrum is w_3^k1 w_4^k2.
/// let mut x = vec![Complex64::new(0.0, 0.0); 12];
/// x[1] = Complex64::new(1.0, 0.0);
/// let s = Dft::dims(&[3, 4]).apply_f64(&x);
/// assert!((s[1] - Complex64::new(0.0, -1.0)).norm() < 1e-15);
/// let back = Dft::dims(&[3, 4]).direction(Direction::Inverse).apply_f64(&s);
/// assert!((back[1] - x[1]).norm() < 1e-15);
/// ```
#[derive(Debug, Clone)]
pub struct Dft {
    dims: Vec<usize>,
    direction: Direction,
}

impl Dft {
    /// One forward transform of `n` points.
    pub fn new(n: usize) -> Self {
        Self::dims(&[n])
    }

    /// A forward transform over every axis of a row-major array of extents `dims` (slowest
    /// first). A batch of rows is one `Dft::new(n)` per row.
    pub fn dims(dims: &[usize]) -> Self {
        Dft {
            dims: dims.to_vec(),
            direction: Direction::Forward,
        }
    }

    /// The same transform in `direction` (the inverse scaled by 1/N per axis).
    pub fn direction(mut self, direction: Direction) -> Self {
        self.direction = direction;
        self
    }

    /// The transform of double-double values.
    pub(crate) fn apply_dd(&self, x: &[Cdd]) -> Vec<Cdd> {
        let total: usize = self.dims.iter().product();
        assert_eq!(
            x.len(),
            total,
            "Dft over {:?}: {} values",
            self.dims,
            x.len()
        );
        let sign = if self.direction == Direction::Forward {
            -1.0
        } else {
            1.0
        };
        let mut v = x.to_vec();
        for (axis, &n) in self.dims.iter().enumerate() {
            if n <= 1 {
                continue;
            }
            let w = oracle_twiddles(n, sign);
            let s = if self.direction == Direction::Inverse {
                Dd::from_f64(1.0) / Dd::from_f64(n as f64)
            } else {
                Dd::from_f64(1.0)
            };
            let stride: usize = self.dims[axis + 1..].iter().product();
            let mut line = vec![Cdd::ZERO; n];
            for start in (0..total).filter(|i| (i / stride).is_multiple_of(n)) {
                for (i, l) in line.iter_mut().enumerate() {
                    *l = v[start + i * stride];
                }
                for k in 0..n {
                    let mut acc = Cdd::ZERO;
                    for (j, xj) in line.iter().enumerate() {
                        acc = acc.add(xj.mul(w[(j * k) % n]));
                    }
                    v[start + k * stride] = acc.scale(s);
                }
            }
        }
        v
    }

    /// The transform of f64 values (computed in double-double, rounded at the end).
    pub fn apply_f64(&self, x: &[Complex64]) -> Vec<Complex64> {
        let xs: Vec<Cdd> = x.iter().map(|c| Cdd::from_c64(*c)).collect();
        self.apply_dd(&xs).into_iter().map(Cdd::to_c64).collect()
    }

    /// The transform of df64 values, every bit of both words taken.
    pub fn apply_df64(&self, x: &[ComplexDf64]) -> Vec<Complex64> {
        let xs: Vec<Cdd> = x.iter().map(|c| Cdd::from_df64(*c)).collect();
        self.apply_dd(&xs).into_iter().map(Cdd::to_c64).collect()
    }
}

fn dd_of_qf(q: Qf128) -> Dd {
    q.x.iter()
        .fold(Dd::from_f64(0.0), |acc, w| acc + Dd::from_f64(*w as f64))
}

/// rustfft in f64 on the df64 values rounded to f64 (unnormalised inverse scaled by 1/N).
pub fn rustfft_f64(x: &[ComplexDf64], direction: Direction) -> Vec<Complex64> {
    let v: Vec<Complex64> = x
        .iter()
        .map(|c| Complex64::new(c.re.to_f64(), c.im.to_f64()))
        .collect();
    rustfft_c64(&v, direction)
}

/// rustfft in f64 of f64 data (inverse with 1/N), any length.
pub fn rustfft_c64(x: &[Complex64], direction: Direction) -> Vec<Complex64> {
    let mut v = x.to_vec();
    let mut planner = rustfft::FftPlanner::<f64>::new();
    let n = v.len();
    match direction {
        Direction::Forward => planner.plan_fft_forward(n).process(&mut v),
        Direction::Inverse => {
            planner.plan_fft_inverse(n).process(&mut v);
            let s = 1.0 / n as f64;
            v.iter_mut().for_each(|c| *c *= s);
        }
    }
    v
}

/// The forward transform in double-double: iterative radix-2, oracle twiddles. `x.len()` a
/// power of two.
pub fn fft_dd(x: &[Cdd]) -> Vec<Cdd> {
    let n = x.len();
    if n <= 1 {
        return x.to_vec();
    }
    let w: Vec<Cdd> = base_big(n)
        .iter()
        .map(|(c, s)| Cdd {
            re: Dd::from_big(c),
            im: Dd::from_big(s),
        })
        .collect();
    let bits = n.trailing_zeros();
    let mut a: Vec<Cdd> = (0..n)
        .map(|i| x[i.reverse_bits() >> (usize::BITS - bits)])
        .collect();
    let mut len = 2;
    while len <= n {
        let step = n / len;
        for start in (0..n).step_by(len) {
            for j in 0..len / 2 {
                let t = w[j * step].mul(a[start + j + len / 2]);
                let u = a[start + j];
                a[start + j] = u.add(t);
                a[start + j + len / 2] = u.sub(t);
            }
        }
        len *= 2;
    }
    a
}

/// ||got - reference|| / ||reference||, the difference taken in double-double.
pub fn rel_l2(got: &[Cdd], reference: &[Cdd]) -> f64 {
    let mut num = 0.0;
    let mut den = 0.0;
    for (g, r) in got.iter().zip(reference) {
        num += g.sub(*r).norm_sqr().to_f64();
        den += r.norm_sqr().to_f64();
    }
    (num / den).sqrt()
}

/// The same against an f64 reference.
pub fn rel_l2_c64(got: &[ComplexDf64], reference: &[Complex64]) -> f64 {
    let r: Vec<Cdd> = reference
        .iter()
        .map(|c| Cdd {
            re: Dd::from_f64(c.re),
            im: Dd::from_f64(c.im),
        })
        .collect();
    let g: Vec<Cdd> = got.iter().map(|c| Cdd::from_df64(*c)).collect();
    rel_l2(&g, &r)
}

/// Thall's round-trip measures of x' = F^-1(F(x)) against x.
#[derive(Debug, Clone, Copy, serde::Serialize)]
pub struct RoundTrip {
    /// RMSE of the magnitudes (eq. 14 with M = mag).
    pub rmse_magnitude: f64,
    /// The same divided by the RMS magnitude of the signal.
    pub rmse_magnitude_relative: f64,
    /// RMSE of the phases in radians (eq. 14 with M = phase).
    pub rmse_phase: f64,
    /// Peak signal-to-noise ratio in dB (eq. 17): 10 log10(I_max^2 / MSE), MSE of |x' - x|^2.
    pub peak_snr_db: f64,
}

/// The round-trip measures, each difference taken in double-double: |x'| - |x| as
/// (|x'|^2 - |x|^2) / (|x'| + |x|), the phase difference as arg(x' conj(x)).
pub fn round_trip(original: &[Cdd], back: &[Cdd]) -> RoundTrip {
    let finite = |v: &[Cdd]| {
        v.iter()
            .all(|c| c.re.to_f64().is_finite() && c.im.to_f64().is_finite())
    };
    if !finite(original) || !finite(back) {
        // A broken result must not look like a perfect one (RMSE 0, S/N inf).
        return RoundTrip {
            rmse_magnitude: f64::NAN,
            rmse_magnitude_relative: f64::NAN,
            rmse_phase: f64::NAN,
            peak_snr_db: f64::NAN,
        };
    }
    let n = original.len() as f64;
    let (mut mag2, mut ph2, mut err2, mut sig2, mut peak) = (0.0, 0.0, 0.0, 0.0, 0.0f64);
    for (x, y) in original.iter().zip(back) {
        let nx = x.norm_sqr();
        let ny = y.norm_sqr();
        let ax = nx.to_f64().sqrt();
        let ay = ny.to_f64().sqrt();
        let dm = if ax + ay > 0.0 {
            (ny - nx).to_f64() / (ax + ay)
        } else {
            0.0
        };
        mag2 += dm * dm;
        let rot = y.mul(x.conj());
        let dp = if ax > 0.0 && ay > 0.0 {
            rot.im.to_f64().atan2(rot.re.to_f64())
        } else {
            0.0
        };
        ph2 += dp * dp;
        err2 += y.sub(*x).norm_sqr().to_f64();
        sig2 += nx.to_f64();
        peak = peak.max(ax);
    }
    let rmse_magnitude = (mag2 / n).sqrt();
    let mse = err2 / n;
    RoundTrip {
        rmse_magnitude,
        rmse_magnitude_relative: rmse_magnitude / (sig2 / n).sqrt(),
        rmse_phase: (ph2 / n).sqrt(),
        peak_snr_db: if mse > 0.0 {
            10.0 * (peak * peak / mse).log10()
        } else {
            f64::INFINITY
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn double_double_fft_matches_rustfft_and_beats_it() {
        let n = 256;
        let x: Vec<ComplexDf64> = (0..n)
            .map(|i| {
                let t = i as f64;
                ComplexDf64::from_f64((0.37 * t).sin(), (1.3 * t).cos() / 3.0)
            })
            .collect();
        let dd = fft_dd(&x.iter().map(|c| Cdd::from_df64(*c)).collect::<Vec<_>>());
        let f64ref = rustfft_f64(&x, Direction::Forward);
        let g: Vec<ComplexDf64> = dd
            .iter()
            .map(|c| ComplexDf64::from_f64(c.re.to_f64(), c.im.to_f64()))
            .collect();
        let e = rel_l2_c64(&g, &f64ref);
        assert!(e > 1e-18 && e < 1e-15, "rustfft vs double-double {e:e}");
        // A pure tone lands in one bin, exactly N, to double-double accuracy.
        let tone: Vec<Cdd> = (0..n)
            .map(|i| {
                let z = base_big(n)[(5 * i) % (n / 2)].clone();
                let sign = if (5 * i) % n >= n / 2 { -1.0 } else { 1.0 };
                Cdd {
                    re: Dd::from_big(&z.0) * Dd::from_f64(sign),
                    im: -(Dd::from_big(&z.1) * Dd::from_f64(sign)),
                }
            })
            .collect();
        let spec = fft_dd(&tone);
        let err: f64 = spec
            .iter()
            .enumerate()
            .map(|(k, c)| {
                let want = if k == 5 { n as f64 } else { 0.0 };
                (c.re - Dd::from_f64(want)).to_f64().abs() + c.im.to_f64().abs()
            })
            .fold(0.0, f64::max);
        assert!(err < 1e-27, "tone leaks {err:e}");
    }

    #[test]
    fn any_length_dft_matches_the_definition() {
        for n in [1usize, 3, 5, 6, 7, 12, 17, 31, 100] {
            let x: Vec<Cdd> = (0..n)
                .map(|i| {
                    let t = i as f64;
                    Cdd::from_df64(ComplexDf64::from_f64(
                        (0.37 * t).sin() + 0.1,
                        (1.3 * t).cos(),
                    ))
                })
                .collect();
            for d in [Direction::Forward, Direction::Inverse] {
                let fast = dft_dd(&x, d);
                let slow = naive_dft_dd(&x, d);
                let e = rel_l2(&fast, &slow);
                assert!(e < 1e-29, "n {n} {d:?}: Bluestein vs definition {e:e}");
            }
            let back = dft_dd(&dft_dd(&x, Direction::Forward), Direction::Inverse);
            assert!(rel_l2(&back, &x) < 1e-29, "n {n} round trip");
        }
    }

    #[test]
    fn round_trip_measures_see_small_errors() {
        let x: Vec<Cdd> = (0..64)
            .map(|i| Cdd::from_df64(ComplexDf64::from_f64(1.0 + i as f64, 0.5)))
            .collect();
        let mut y = x.clone();
        y[3].re = y[3].re + Dd::from_f64(1e-20);
        let r = round_trip(&x, &y);
        assert!(
            r.rmse_magnitude > 1e-22 && r.rmse_magnitude < 1e-20,
            "{r:?}"
        );
        assert!(r.peak_snr_db > 400.0 && r.peak_snr_db.is_finite(), "{r:?}");
        assert_eq!(round_trip(&x, &x).rmse_phase, 0.0);
        // NaN data give NaN measures, never RMSE 0 or S/N inf.
        y[5].im = Dd::from_f64(f64::NAN);
        let r = round_trip(&x, &y);
        assert!(r.rmse_magnitude.is_nan() && r.peak_snr_db.is_nan(), "{r:?}");
        assert!(rel_l2(&y, &x).is_nan());
    }
}
