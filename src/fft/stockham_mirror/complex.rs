//! One complex value of each working precision with the shader's `cplx` operations
//! ([`MirrorComplex`]): f32 (df64 pairs whose low words stay 0), df64, qf128, and f64 for the
//! references; the twiddles each computes directly.

use super::*;

/// One complex value of the working precision, with the shader's `cplx` operations. f32
/// values are df64 pairs whose low words stay 0, as in the shader.
pub trait MirrorComplex: Copy {
    /// `self + b` as the shader's `c_add`.
    fn c_add(self, b: Self) -> Self;
    /// `self - b` as the shader's `c_sub`.
    fn c_sub(self, b: Self) -> Self;
    /// `self * b` as the shader's `c_mul`.
    fn c_mul(self, b: Self) -> Self;
    /// Every word times `s` (negation is `s = -1`).
    fn c_scale(self, s: f32) -> Self;
    /// The imaginary words times `s`.
    fn c_scale_im(self, s: f32) -> Self;
    /// `vec4(a.zw * conj, -a.xy * conj)`: -i a, or i a for the inverse.
    fn c_mul_neg_i(self, conj: f32) -> Self;
    /// The direct twiddle w_L^j, j < L/2, as the shader computes it, for the precisions whose
    /// plans compute twiddles in the shader; `None` for native double (GLSL has no double sin,
    /// so those plans take the table only).
    fn direct_twiddle() -> Option<fn(i32, i32) -> Self>;
    /// `-a`: every word negated.
    fn c_neg(self) -> Self;
    /// Both parts times 1/sqrt(2), the radix-8 rotation's product, for the precisions that
    /// have a radix-8 pass (f32, df64, f64); `None` for qf128, which has none.
    fn radix8_rotation() -> Option<fn(Self) -> Self>;
    /// Both parts times the real constant whose qf128 words are `k`, as the shader's
    /// `c_mul_real` (df64: two words, f32: one, f64: the sum of three, qf128: all four).
    fn c_mul_real(self, k: [f32; 4]) -> Self;
}

/// 1/sqrt(2) as the shader's df64 constant (f32 plans use the high word).
pub(super) const SQRT1_2_HI: u32 = 0x3f35_04f3;

pub(super) const SQRT1_2_LO: u32 = 0x324f_e77a;

pub(super) fn sqrt1_2_df64() -> Df64 {
    Df64::new(f32::from_bits(SQRT1_2_HI), f32::from_bits(SQRT1_2_LO))
}

pub(super) fn neg_df(a: Df64) -> Df64 {
    Df64::new(-a.hi, -a.lo)
}

pub(super) fn neg_qf(a: Qf128) -> Qf128 {
    Qf128 { x: a.x.map(|w| -w) }
}

pub(super) fn scale_qf(a: Qf128, s: f32) -> Qf128 {
    Qf128 {
        x: a.x.map(|w| w * s),
    }
}

/// The quarter-turn reduction both precisions share: j / L, q = round(4 j / L), g4 = 4 j/L - q.
pub(super) fn reduce(l: i32, j: i32) -> (f32, f32) {
    let f = j as f32 / l as f32;
    let q = (4.0 * f + 0.5).floor();
    (q, 4.0 * f - q)
}

/// (re, im) of exp(-i (q pi/2 + phi)) from (sin phi, cos phi), as the shader's quadrant switch.
pub(super) fn quadrant<T: Copy>(q: f32, s: T, c: T, neg: impl Fn(T) -> T) -> (T, T) {
    match (q as i32) & 3 {
        0 => (c, neg(s)),
        1 => (neg(s), neg(c)),
        2 => (neg(c), s),
        _ => (s, c),
    }
}

/// Native double values (`FFT_F64`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct F64Complex {
    /// Real part.
    pub re: f64,
    /// Imaginary part.
    pub im: f64,
}

impl MirrorComplex for F64Complex {
    fn c_add(self, b: Self) -> Self {
        F64Complex {
            re: self.re + b.re,
            im: self.im + b.im,
        }
    }
    fn c_sub(self, b: Self) -> Self {
        F64Complex {
            re: self.re - b.re,
            im: self.im - b.im,
        }
    }
    fn c_mul(self, b: Self) -> Self {
        // No fused multiply-add: the shader's products are `precise`.
        let (p, q) = (self.re * b.re, self.im * b.im);
        let (r, s) = (self.re * b.im, self.im * b.re);
        F64Complex {
            re: p - q,
            im: r + s,
        }
    }
    fn c_scale(self, s: f32) -> Self {
        F64Complex {
            re: self.re * s as f64,
            im: self.im * s as f64,
        }
    }
    fn c_scale_im(self, s: f32) -> Self {
        F64Complex {
            re: self.re,
            im: self.im * s as f64,
        }
    }
    fn c_mul_neg_i(self, conj: f32) -> Self {
        let c = conj as f64;
        F64Complex {
            re: self.im * c,
            im: -self.re * c,
        }
    }
    fn radix8_rotation() -> Option<fn(Self) -> Self> {
        Some(|a| F64Complex {
            re: a.re * std::f64::consts::FRAC_1_SQRT_2,
            im: a.im * std::f64::consts::FRAC_1_SQRT_2,
        })
    }
    fn direct_twiddle() -> Option<fn(i32, i32) -> Self> {
        None
    }
    fn c_mul_real(self, k: [f32; 4]) -> Self {
        let kd = (k[0] as f64 + k[1] as f64) + k[2] as f64;
        F64Complex {
            re: self.re * kd,
            im: self.im * kd,
        }
    }
    fn c_neg(self) -> Self {
        F64Complex {
            re: -self.re,
            im: -self.im,
        }
    }
}

/// f32 values: only the high words (`FFT_F32`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct F32Complex(pub ComplexDf64);

impl MirrorComplex for F32Complex {
    fn c_add(self, b: Self) -> Self {
        let (a, b) = (self.0, b.0);
        F32Complex(ComplexDf64::new(
            Df64::new(a.re.hi + b.re.hi, 0.0),
            Df64::new(a.im.hi + b.im.hi, 0.0),
        ))
    }
    fn c_sub(self, b: Self) -> Self {
        let (a, b) = (self.0, b.0);
        F32Complex(ComplexDf64::new(
            Df64::new(a.re.hi - b.re.hi, 0.0),
            Df64::new(a.im.hi - b.im.hi, 0.0),
        ))
    }
    fn c_mul(self, b: Self) -> Self {
        let (a, b) = (self.0, b.0);
        let re = a.re.hi * b.re.hi - a.im.hi * b.im.hi;
        let im = a.re.hi * b.im.hi + a.im.hi * b.re.hi;
        F32Complex(ComplexDf64::new(Df64::new(re, 0.0), Df64::new(im, 0.0)))
    }
    fn c_scale(self, s: f32) -> Self {
        F32Complex(self.0.c_scale(s))
    }
    fn c_scale_im(self, s: f32) -> Self {
        F32Complex(self.0.c_scale_im(s))
    }
    fn c_mul_neg_i(self, conj: f32) -> Self {
        F32Complex(self.0.c_mul_neg_i(conj))
    }
    fn c_neg(self) -> Self {
        F32Complex(self.0.c_neg())
    }
    fn radix8_rotation() -> Option<fn(Self) -> Self> {
        Some(|a| {
            let k = f32::from_bits(SQRT1_2_HI);
            let a = a.0;
            F32Complex(ComplexDf64::new(
                Df64::new(a.re.hi * k, 0.0),
                Df64::new(a.im.hi * k, 0.0),
            ))
        })
    }
    fn direct_twiddle() -> Option<fn(i32, i32) -> Self> {
        // FFT_F32 with FFT_DIRECT computes the df64 twiddle; its products read the high words.
        Some(|l, j| F32Complex(df64_twiddle_direct(l, j)))
    }
    fn c_mul_real(self, k: [f32; 4]) -> Self {
        let a = self.0;
        F32Complex(ComplexDf64::new(
            Df64::new(a.re.hi * k[0], 0.0),
            Df64::new(a.im.hi * k[0], 0.0),
        ))
    }
}

impl MirrorComplex for ComplexDf64 {
    // The *_unscaled ops, as stockham_common.glsl uses (data near 1).
    fn c_add(self, b: Self) -> Self {
        ComplexDf64::new(
            df64_add_unscaled(self.re, b.re),
            df64_add_unscaled(self.im, b.im),
        )
    }
    fn c_sub(self, b: Self) -> Self {
        ComplexDf64::new(
            df64_sub_unscaled(self.re, b.re),
            df64_sub_unscaled(self.im, b.im),
        )
    }
    fn c_mul(self, b: Self) -> Self {
        let (a, m) = (self, df64_mul_unscaled);
        ComplexDf64::new(
            df64_sub_unscaled(m(a.re, b.re), m(a.im, b.im)),
            df64_add_unscaled(m(a.re, b.im), m(a.im, b.re)),
        )
    }
    fn c_scale(self, s: f32) -> Self {
        ComplexDf64::new(df64_scale_words(self.re, s), df64_scale_words(self.im, s))
    }
    fn c_scale_im(self, s: f32) -> Self {
        ComplexDf64::new(self.re, df64_scale_words(self.im, s))
    }
    fn c_mul_neg_i(self, conj: f32) -> Self {
        ComplexDf64::new(
            df64_scale_words(self.im, conj),
            df64_scale_words(neg_df(self.re), conj),
        )
    }
    fn c_neg(self) -> Self {
        ComplexDf64::new(neg_df(self.re), neg_df(self.im))
    }
    fn radix8_rotation() -> Option<fn(Self) -> Self> {
        Some(|a| {
            let k = sqrt1_2_df64();
            ComplexDf64::new(df64_mul_unscaled(a.re, k), df64_mul_unscaled(a.im, k))
        })
    }
    fn direct_twiddle() -> Option<fn(i32, i32) -> Self> {
        Some(df64_twiddle_direct)
    }
    fn c_mul_real(self, k: [f32; 4]) -> Self {
        let k = Df64::new(k[0], k[1]);
        ComplexDf64::new(df64_mul_unscaled(self.re, k), df64_mul_unscaled(self.im, k))
    }
}

/// The df64 direct twiddle w_L^j, j < L/2, as `stockham_common.glsl` computes it.
pub(super) fn df64_twiddle_direct(l: i32, j: i32) -> ComplexDf64 {
    let (q, g4) = reduce(l, j);
    let pi_2 = Df64::new(PI_2[0], PI_2[1]);
    let phi = df64_add_unscaled(
        df64_mul_f32_unscaled(pi_2, g4),
        Df64::new(PI_2[2] * g4, 0.0),
    );
    let (s, c) = df64_sincos_reduced(phi);
    let (re, im) = quadrant(q, s, c, neg_df);
    ComplexDf64::new(re, im)
}

impl MirrorComplex for ComplexQf128 {
    fn c_add(self, b: Self) -> Self {
        ComplexQf128 {
            re: qf128_add(self.re, b.re),
            im: qf128_add(self.im, b.im),
        }
    }
    fn c_sub(self, b: Self) -> Self {
        ComplexQf128 {
            re: qf128_sub(self.re, b.re),
            im: qf128_sub(self.im, b.im),
        }
    }
    fn c_mul(self, b: Self) -> Self {
        ComplexQf128 {
            re: qf128_sub(qf128_mul(self.re, b.re), qf128_mul(self.im, b.im)),
            im: qf128_add(qf128_mul(self.re, b.im), qf128_mul(self.im, b.re)),
        }
    }
    fn c_scale(self, s: f32) -> Self {
        ComplexQf128 {
            re: scale_qf(self.re, s),
            im: scale_qf(self.im, s),
        }
    }
    fn c_scale_im(self, s: f32) -> Self {
        ComplexQf128 {
            re: self.re,
            im: scale_qf(self.im, s),
        }
    }
    fn c_mul_neg_i(self, conj: f32) -> Self {
        ComplexQf128 {
            re: scale_qf(self.im, conj),
            im: scale_qf(neg_qf(self.re), conj),
        }
    }
    fn c_neg(self) -> Self {
        ComplexQf128 {
            re: neg_qf(self.re),
            im: neg_qf(self.im),
        }
    }
    fn radix8_rotation() -> Option<fn(Self) -> Self> {
        None
    }
    fn direct_twiddle() -> Option<fn(i32, i32) -> Self> {
        Some(qf128_twiddle_direct)
    }
    fn c_mul_real(self, k: [f32; 4]) -> Self {
        let k = Qf128 { x: k };
        ComplexQf128 {
            re: qf128_mul(self.re, k),
            im: qf128_mul(self.im, k),
        }
    }
}

/// The qf128 direct twiddle w_L^j, j < L/2, as `stockham_common.glsl` computes it.
pub(super) fn qf128_twiddle_direct(l: i32, j: i32) -> ComplexQf128 {
    let (q, g4) = reduce(l, j);
    let pi_2 = Qf128 {
        x: [QF_PI_2[0], QF_PI_2[1], QF_PI_2[2], QF_PI_2[3]],
    };
    let phi = qf128_add(qf128_mul_f32(pi_2, g4), Qf128::from_f32(QF_PI_2[4] * g4));
    let (s, c) = qf128_sincos_reduced(phi);
    let (re, im) = quadrant(q, s, c, neg_qf);
    ComplexQf128 { re, im }
}
