//! Block floating point for the FFT. A df64 or qf128 number is made of f32 words, so its
//! exponent range is f32's: sums inside a transform of values near 1e38 overflow, and values
//! near 1e-39 are flushed by every GPU tried. The FFT is linear, so the data are scaled by one
//! exact power of two chosen from the largest component (it lands in [0.5, 1)), transformed,
//! and scaled back on the host: any finite input, 1e-300 or 1e300, transforms at the precision's
//! full accuracy. A component too small next to the largest to keep an f32 word of its own
//! is flushed, and counted in [`Underflow`], never dropped silently.

use astro_float::{BigFloat, RoundingMode};
use rustfft::num_complex::Complex64;
use serde::Serialize;

use crate::numeric::oracle::{big_words, ORACLE_BITS};
use crate::numeric::qf128::{ComplexQf128, Qf128};
pub use crate::numeric::reference::ldexp;
use crate::numeric::Dd;

use super::FftError;

/// What block scaling could not keep: nonzero components that became zero on the way to the
/// GPU because they lie more than about 2^126 below the largest one.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Underflow {
    /// Nonzero real or imaginary parts flushed to zero.
    pub flushed: usize,
    /// log2(|largest flushed| / |largest component|): how far below the largest they were.
    pub largest_flushed_log2: Option<f64>,
}

impl Underflow {
    fn note(&mut self, log2_below: f64) {
        self.flushed += 1;
        self.largest_flushed_log2 = Some(
            self.largest_flushed_log2
                .map_or(log2_below, |l| l.max(log2_below)),
        );
    }

    /// Both counts together.
    pub fn merge(self, other: Underflow) -> Underflow {
        Underflow {
            flushed: self.flushed + other.flushed,
            largest_flushed_log2: match (self.largest_flushed_log2, other.largest_flushed_log2) {
                (Some(a), Some(b)) => Some(a.max(b)),
                (a, b) => a.or(b),
            },
        }
    }

    /// A one-line warning, or `None` when nothing was flushed.
    pub fn warning(&self) -> Option<String> {
        let below = self.largest_flushed_log2?;
        Some(format!(
            "{} nonzero input component(s) lie 2^{:.0} (1e{:.0}) or further below the largest and \
             were flushed to zero: the GPU's f32 words cannot hold both; transform them \
             separately if they matter",
            self.flushed,
            below,
            below * std::f64::consts::LOG10_2
        ))
    }
}

/// `e` with 2^(e-1) <= |x| < 2^e, for finite nonzero `x` (subnormals included).
pub fn exponent_of(x: f64) -> i32 {
    let bits = x.abs().to_bits();
    let biased = (bits >> 52) as i32;
    if biased == 0 {
        // Subnormal: scale into the normal range first (exact).
        return exponent_of(x * 2f64.powi(64)) - 64;
    }
    biased - 1022
}

/// The nearest f32, or zero (of the same sign) below f32's normal range, as the GPU sees it.
fn gpu_word(x: f64) -> f32 {
    let w = x as f32;
    if w.abs() < f32::MIN_POSITIVE {
        0.0f32.copysign(x as f32)
    } else {
        w
    }
}

/// Complex data as the GPU transforms it: `words * 2^exponent`, the largest real or
/// imaginary part in [0.5, 1) (or all zero).
#[derive(Debug, Clone, PartialEq)]
pub struct BlockScaled {
    /// The words, the largest part in [0.5, 1) (or all zero).
    pub words: Vec<ComplexQf128>,
    /// The power of two the words are scaled by.
    pub exponent: i32,
    /// What fell below the smallest word when the data was scaled.
    pub underflow: Underflow,
}

impl BlockScaled {
    /// Any finite f64 data, held exactly (three words) unless a part underflows.
    pub fn from_f64(x: &[Complex64]) -> Result<Self, FftError> {
        if let Some(i) = x
            .iter()
            .position(|z| !z.re.is_finite() || !z.im.is_finite())
        {
            return Err(FftError::NonFinite(i));
        }
        Ok(Self::scaled(
            x,
            0,
            |z| [z.re, z.im],
            |v| v.abs(),
            |v, e| split_f64(ldexp(v, -e)),
        ))
    }

    /// qf128 words times 2^`exponent` (df64 data: the two leading words), rescaled.
    pub fn from_qf128(x: &[ComplexQf128], exponent: i32) -> Result<Self, FftError> {
        if let Some(i) = first_non_finite(x) {
            return Err(FftError::NonFinite(i));
        }
        Ok(Self::scaled(
            x,
            exponent,
            |z| [z.re, z.im],
            |q| q.x[0].abs() as f64,
            |q, e| Qf128 {
                x: q.x.map(|w| gpu_word(ldexp(w as f64, -e))),
            },
        ))
    }

    /// Scales every part by 2^-e, e taken from the largest `magnitude`, through `scale`; a
    /// nonzero part whose leading word is flushed is counted in the underflow.
    fn scaled<T, P: Copy>(
        x: &[T],
        exponent: i32,
        parts: impl Fn(&T) -> [P; 2],
        magnitude: impl Fn(P) -> f64,
        scale: impl Fn(P, i32) -> Qf128,
    ) -> Self {
        let largest = x
            .iter()
            .flat_map(|z| parts(z).map(&magnitude))
            .fold(0.0, f64::max);
        if largest == 0.0 {
            return Self::zeros(x.len());
        }
        let e = exponent_of(largest);
        let mut underflow = Underflow::default();
        let mut part = |p: P| {
            let q = scale(p, e);
            let m = magnitude(p);
            if q.x[0] == 0.0 && m != 0.0 {
                underflow.note((m / largest).log2());
                return Qf128::ZERO;
            }
            q
        };
        let words = x
            .iter()
            .map(|z| {
                let [re, im] = parts(z);
                ComplexQf128::new(part(re), part(im))
            })
            .collect();
        BlockScaled {
            words,
            exponent: exponent + e,
            underflow,
        }
    }

    /// Values of any magnitude the oracle holds (decimal input), rounded to qf128 words.
    pub fn from_big(x: &[[BigFloat; 2]]) -> Result<Self, FftError> {
        if let Some(i) = x
            .iter()
            .position(|z| z.iter().any(|v| v.is_nan() || v.is_inf()))
        {
            return Err(FftError::NonFinite(i));
        }
        let exp = |v: &BigFloat| (!v.is_zero()).then(|| v.exponent()).flatten();
        let Some(e) = x.iter().flat_map(|z| z.iter().filter_map(exp)).max() else {
            return Ok(Self::zeros(x.len()));
        };
        let mut underflow = Underflow::default();
        let mut part = |v: &BigFloat| {
            let Some(ev) = exp(v) else {
                return Qf128::ZERO;
            };
            let mut s = v.clone();
            // |s| in [2^(ev-e-1), 2^(ev-e)): below f32's normal range it is flushed.
            if ev - e <= -126 {
                underflow.note((ev - e) as f64);
                return Qf128::ZERO;
            }
            s.set_exponent(ev - e);
            let q = Qf128::from_big(&s);
            Qf128 {
                x: q.x.map(|w| gpu_word(w as f64)),
            }
        };
        let words = x
            .iter()
            .map(|z| ComplexQf128::new(part(&z[0]), part(&z[1])))
            .collect();
        Ok(BlockScaled {
            words,
            exponent: e,
            underflow,
        })
    }

    fn zeros(n: usize) -> Self {
        BlockScaled {
            words: vec![ComplexQf128::new(Qf128::ZERO, Qf128::ZERO); n],
            exponent: 0,
            underflow: Underflow::default(),
        }
    }

    /// Elements.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// No elements.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// The values rounded to f64; an error naming the element when one exceeds f64's range.
    pub fn to_f64(&self) -> Result<Vec<Complex64>, FftError> {
        self.words
            .iter()
            .enumerate()
            .map(|(i, z)| {
                let re = ldexp(qf_to_f64(z.re), self.exponent);
                let im = ldexp(qf_to_f64(z.im), self.exponent);
                if re.is_finite() && im.is_finite() {
                    Ok(Complex64::new(re, im))
                } else {
                    Err(FftError::ResultOutOfRange {
                        element: i,
                        what: "f64".into(),
                    })
                }
            })
            .collect()
    }

    /// Element `i` exactly, in the oracle.
    pub fn to_big(&self, i: usize) -> [BigFloat; 2] {
        let z = &self.words[i];
        [z.re, z.im].map(|q| {
            let mut b = big_words(&q.x);
            if let Some(e) = (!b.is_zero()).then(|| b.exponent()).flatten() {
                b.set_exponent(e + self.exponent);
            }
            b
        })
    }
}

/// The nearest f64 to a qf128 (summed in double-double, then rounded once).
/// The exact three-word split of an f64 near 1 (each word the nearest f32 to what remains).
pub fn split_f64(s: f64) -> Qf128 {
    let w0 = gpu_word(s);
    let r = s - w0 as f64; // exact
    let w1 = gpu_word(r);
    Qf128::new(w0, w1, gpu_word(r - w1 as f64), 0.0)
}

/// A qf128 rounded to f64 (the sum of its words in f64, largest last).
pub fn qf_to_f64(q: Qf128) -> f64 {
    q.x.iter()
        .fold(Dd::from_f64(0.0), |acc, w| acc + Dd::from_f64(*w as f64))
        .to_f64()
}

/// `x` in decimal with `digits` significant digits (`-1.2345e-300`), for any magnitude.
pub fn format_decimal(x: &BigFloat, digits: usize) -> String {
    let mut consts = crate::numeric::oracle::Oracle::new();
    if x.is_zero() {
        return if x.is_negative() { "-0" } else { "0" }.into();
    }
    // Format at the oracle's full precision: astro-float writes as many digits as the
    // number's own precision justifies, which for a sum of a few words is too few.
    let mut x = x.clone();
    let _ = x.set_precision(ORACLE_BITS, RoundingMode::None);
    let text = x
        .format(
            astro_float::Radix::Dec,
            RoundingMode::ToEven,
            consts.consts(),
        )
        .unwrap_or_else(|_| "NaN".into());
    round_decimal_text(&text, digits.max(1)).unwrap_or(text)
}

/// Rounds astro-float's `d.ddde±x` text to `digits` significant digits (half up on the digit
/// string, which is already correctly rounded at the oracle's 256 bits).
fn round_decimal_text(text: &str, digits: usize) -> Option<String> {
    let (sign, rest) = match text.strip_prefix('-') {
        Some(r) => ("-", r),
        None => ("", text),
    };
    let (mantissa, exp) = rest.split_once(['e', 'E'])?;
    let mut exp: i64 = exp.parse().ok()?;
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let mut all: Vec<u8> = int.bytes().chain(frac.bytes()).map(|b| b - b'0').collect();
    // Normalise to one digit before the point.
    exp += int.len() as i64 - 1;
    while all.len() > 1 && all[0] == 0 {
        all.remove(0);
        exp -= 1;
    }
    let round_up = all.get(digits).is_some_and(|d| *d >= 5);
    all.resize(digits, 0);
    if round_up {
        let mut i = digits;
        loop {
            if i == 0 {
                all.insert(0, 1);
                all.truncate(digits);
                exp += 1;
                break;
            }
            i -= 1;
            if all[i] == 9 {
                all[i] = 0;
            } else {
                all[i] += 1;
                break;
            }
        }
    }
    let d: String = all.iter().map(|d| (b'0' + d) as char).collect();
    let (head, tail) = d.split_at(1);
    Some(if tail.is_empty() {
        format!("{sign}{head}e{exp}")
    } else {
        format!("{sign}{head}.{tail}e{exp}")
    })
}

/// Parses a decimal number of any length and magnitude (`1e-300`, 36 digits of pi), correctly
/// rounded at the oracle's 256 bits; `None` for anything else.
pub fn parse_wide_decimal(text: &str) -> Option<BigFloat> {
    let mut oracle = crate::numeric::oracle::Oracle::new();
    crate::numeric::oracle::parse_decimal(text, &mut oracle)
}

/// The index of the first element with a NaN or infinite word.
pub(crate) fn first_non_finite(words: &[ComplexQf128]) -> Option<usize> {
    words
        .iter()
        .position(|z| z.re.x.iter().chain(&z.im.x).any(|w| !w.is_finite()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numeric::oracle::{big, to_f64};

    #[test]
    fn exponents_and_ldexp_are_exact() {
        assert_eq!(exponent_of(1.0), 1);
        assert_eq!(exponent_of(0.75), 0);
        assert_eq!(exponent_of(-3.0), 2);
        assert_eq!(exponent_of(f64::MIN_POSITIVE / 8.0), -1024);
        assert_eq!(
            ldexp(1e300, -2000),
            1e300 * 2f64.powi(-1000) * 2f64.powi(-1000)
        );
        assert_eq!(ldexp(ldexp(1e-300, 1900), -1900), 1e-300);
    }

    #[test]
    fn f64_data_of_any_magnitude_scale_exactly() {
        for s in [1e-300, 1e-39, 1.0, 3e38, 1e300] {
            let x = vec![
                Complex64::new(0.3 * s, -s),
                Complex64::new(1.0 / 3.0 * s, 0.0),
            ];
            let b = BlockScaled::from_f64(&x).unwrap();
            let top = b.words[0].im.x[0].abs();
            assert!((0.5..1.0).contains(&top), "{s}: {top}");
            assert_eq!(b.to_f64().unwrap(), x, "{s}");
            assert_eq!(b.underflow.flushed, 0);
        }
    }

    #[test]
    fn parts_far_below_the_largest_are_counted_not_hidden() {
        let x = vec![
            Complex64::new(1e30, 0.0),
            Complex64::new(1e-30, 2.0),
            Complex64::new(1e-20, 0.0),
        ];
        let b = BlockScaled::from_f64(&x).unwrap();
        assert_eq!(b.underflow.flushed, 2);
        let below = b.underflow.largest_flushed_log2.unwrap();
        assert!((below - (1e-20f64 / 1e30).log2()).abs() < 1e-9, "{below}");
        assert!(b.underflow.warning().unwrap().contains("2 nonzero"));
        assert!(matches!(
            BlockScaled::from_f64(&[Complex64::new(0.0, f64::NAN)]),
            Err(FftError::NonFinite(0))
        ));
    }

    #[test]
    fn decimals_keep_qf128_digits_at_any_exponent() {
        let pi = "3.14159265358979323846264338327950288419716939937510";
        for e in ["e-300", "", "e250"] {
            let v = parse_wide_decimal(&format!("{pi}{e}")).unwrap();
            let b = BlockScaled::from_big(&[[v.clone(), big(0.0)]]).unwrap();
            let back = b.to_big(0)[0].clone();
            let rel = to_f64(&back.sub(&v, ORACLE_BITS, RoundingMode::ToEven).div(
                &v,
                ORACLE_BITS,
                RoundingMode::ToEven,
            ));
            assert!(rel.abs() < 1e-28, "{e}: {rel:e}");
            let text = format_decimal(&back, 36);
            assert!(text.starts_with("3.1415926535897932384626433832"), "{text}");
        }
    }

    #[test]
    fn decimal_text_rounds_to_the_digits_asked() {
        assert_eq!(round_decimal_text("9.9996e+0", 4).unwrap(), "1.000e1");
        assert_eq!(round_decimal_text("-1.25e-3", 2).unwrap(), "-1.3e-3");
        assert_eq!(round_decimal_text("1.e+0", 3).unwrap(), "1.00e0");
        assert_eq!(format_decimal(&big(0.0), 5), "0");
    }
}
