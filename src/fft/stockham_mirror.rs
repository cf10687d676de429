//! CPU mirror of `glsl/stockham_*.glsl`: each pass with the same operations in the same order in
//! f32 arithmetic (the f32, df64 and qf128 variants), on data in natural (logical) order. The
//! passes' known-answer self-tests compare the GPU with it bit for bit; the plane layout and
//! the texture addressing are copies, so only the arithmetic is mirrored.

use crate::numeric::df64::{
    df64_add_unscaled, df64_mul_f32_unscaled, df64_mul_unscaled, df64_scale_words,
    df64_sub_unscaled, ComplexDf64, Df64,
};
use crate::numeric::df64_consts::PI_2;
use crate::numeric::df64_func::df64_sincos_reduced;
use crate::numeric::qf128::{
    qf128_add, qf128_mul, qf128_mul_f32, qf128_sincos_reduced, qf128_sub, ComplexQf128, Qf128,
};
use crate::numeric::qf128_consts::QF_PI_2;

use super::FftPrecision;
use crate::gl::GlslLibrary;

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
const SQRT1_2_HI: u32 = 0x3f35_04f3;
const SQRT1_2_LO: u32 = 0x324f_e77a;

fn sqrt1_2_df64() -> Df64 {
    Df64::new(f32::from_bits(SQRT1_2_HI), f32::from_bits(SQRT1_2_LO))
}

fn neg_df(a: Df64) -> Df64 {
    Df64::new(-a.hi, -a.lo)
}

fn neg_qf(a: Qf128) -> Qf128 {
    Qf128 { x: a.x.map(|w| -w) }
}

fn scale_qf(a: Qf128, s: f32) -> Qf128 {
    Qf128 {
        x: a.x.map(|w| w * s),
    }
}

/// The quarter-turn reduction both precisions share: j / L, q = round(4 j / L), g4 = 4 j/L - q.
fn reduce(l: i32, j: i32) -> (f32, f32) {
    let f = j as f32 / l as f32;
    let q = (4.0 * f + 0.5).floor();
    (q, 4.0 * f - q)
}

/// (re, im) of exp(-i (q pi/2 + phi)) from (sin phi, cos phi), as the shader's quadrant switch.
fn quadrant<T: Copy>(q: f32, s: T, c: T, neg: impl Fn(T) -> T) -> (T, T) {
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

/// `real_bin0` of `stockham_common.glsl` in native double: (re + im, re - im).
pub(crate) fn real_bin0_f64(z: F64Complex) -> F64Complex {
    F64Complex {
        re: z.re + z.im,
        im: z.re - z.im,
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
fn df64_twiddle_direct(l: i32, j: i32) -> ComplexDf64 {
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
fn qf128_twiddle_direct(l: i32, j: i32) -> ComplexQf128 {
    let (q, g4) = reduce(l, j);
    let pi_2 = Qf128 {
        x: [QF_PI_2[0], QF_PI_2[1], QF_PI_2[2], QF_PI_2[3]],
    };
    let phi = qf128_add(qf128_mul_f32(pi_2, g4), Qf128::from_f32(QF_PI_2[4] * g4));
    let (s, c) = qf128_sincos_reduced(phi);
    let (re, im) = quadrant(q, s, c, neg_qf);
    ComplexQf128 { re, im }
}

/// a omega^k, omega = -i (forward) or i (inverse): the qf128 loop's rotation.
fn c_rot<C: MirrorComplex>(a: C, k: i32, conj: f32) -> C {
    let k = k & 3;
    let r = if k & 1 == 1 { a.c_mul_neg_i(conj) } else { a };
    if k >= 2 {
        r.c_neg()
    } else {
        r
    }
}

/// Where the twiddles come from: Thall's W_long table (w_L^j at L/2 + j - 1) or the shader's
/// direct sincos.
pub enum Twiddles<'a, C> {
    /// W_long, as uploaded.
    Table(&'a [C]),
    /// sincos in the shader, as the precision's mirror computes it.
    Direct(fn(i32, i32) -> C),
}

impl<C: MirrorComplex> Twiddles<'_, C> {
    fn get(&self, l: i32, j: i32) -> C {
        match self {
            // W_long for powers of two; the odd length's own segment after it (see
            // `twiddle::w_long_mixed`).
            Twiddles::Table(t) if l & (l - 1) == 0 => t[((l >> 1) + j - 1) as usize],
            Twiddles::Table(t) => t[((l & -l) - 1 + j) as usize],
            Twiddles::Direct(f) => f(l, j),
        }
    }

    /// w_L^j for 0 <= j < L, conjugated for the inverse.
    fn signed(&self, l: i32, j: i32, conj: f32) -> C {
        let w = if j < (l >> 1) {
            self.get(l, j)
        } else {
            self.get(l, j - (l >> 1)).c_neg()
        };
        w.c_scale_im(conj)
    }
}

/// One stage of the transform of `x` (n points, natural order), as the GPU pass of `kind`
/// computes it: `l` is L after the stage, `qf_loop` the qf128 form of the radix-4 and last
/// radix-2 butterflies. Returns the outputs in natural order, or `None` for a pass this
/// precision does not have (radix 8 in qf128).
#[allow(clippy::too_many_arguments)]
pub fn stage<C: MirrorComplex>(
    kind: MirrorStage,
    x: &[C],
    l: usize,
    conj: f32,
    scale: f32,
    tw: &Twiddles<C>,
    qf_loop: bool,
) -> Option<Vec<C>> {
    let n = x.len();
    let li = l as i32;
    let mut out = vec![x[0]; n];
    let emit = |v: C| v.c_scale(scale);
    match kind {
        MirrorStage::Radix2 => {
            let half_l = l / 2;
            for (e, o) in out.iter_mut().enumerate() {
                let k = e / l;
                let mut j = e - k * l;
                let second = j >= half_l;
                if second {
                    j -= half_l;
                }
                let a = x[k * half_l + j];
                let tau = tw
                    .signed(li, j as i32, conj)
                    .c_mul(x[k * half_l + j + n / 2]);
                *o = emit(if second { a.c_sub(tau) } else { a.c_add(tau) });
            }
        }
        MirrorStage::Radix4 => {
            let quarter = n / 4;
            let ls = l / 4;
            for p in 0..quarter {
                let j = (p & (ls - 1)) as i32;
                let k = p / ls;
                let y = if qf_loop {
                    let mut y = [x[p]; 4];
                    for m in 1..4i32 {
                        let mut a = x[p + m as usize * quarter];
                        if l > 4 {
                            a = tw.signed(li, m * j, conj).c_mul(a);
                        }
                        y[0] = y[0].c_add(a);
                        y[1] = y[1].c_add(c_rot(a, m, conj));
                        y[2] = y[2].c_add(c_rot(a, 2 * m, conj));
                        y[3] = y[3].c_add(c_rot(a, 3 * m, conj));
                    }
                    y
                } else {
                    radix4_butterfly(twiddled::<C, 4>(x, p, quarter, l, j, conj, tw), conj)
                };
                for (t, v) in y.into_iter().enumerate() {
                    out[k * l + t * ls + j as usize] = emit(v);
                }
            }
        }
        MirrorStage::Radix8 => {
            let sqrt1_2 = C::radix8_rotation()?;
            let eighth = n / 8;
            let ls = l / 8;
            for p in 0..eighth {
                let j = (p & (ls - 1)) as i32;
                let k = p / ls;
                let a = twiddled::<C, 8>(x, p, eighth, l, j, conj, tw);
                let e = radix4_butterfly([a[0], a[2], a[4], a[6]], conj);
                let o = radix4_butterfly([a[1], a[3], a[5], a[7]], conj);
                let rot8 = |v: C| sqrt1_2(v.c_add(v.c_mul_neg_i(conj)));
                let odd = [
                    o[0],
                    rot8(o[1]),
                    o[2].c_mul_neg_i(conj),
                    rot8(o[3]).c_mul_neg_i(conj),
                ];
                for t in 0..4 {
                    out[k * l + t * ls + j as usize] = emit(e[t].c_add(odd[t]));
                    out[k * l + (t + 4) * ls + j as usize] = emit(e[t].c_sub(odd[t]));
                }
            }
        }
        MirrorStage::Radix3 => {
            let third = n / 3;
            let ls = l / 3;
            for p in 0..third {
                let j = (p % ls) as i32;
                let k = p / ls;
                let y = radix3_butterfly(twiddled::<C, 3>(x, p, third, l, j, conj, tw), conj);
                for (t, v) in y.into_iter().enumerate() {
                    let v = if conj < 0.0 { v.c_mul_real(THIRD) } else { v };
                    out[k * l + t * ls + j as usize] = emit(v);
                }
            }
        }
        MirrorStage::Radix2Last => {
            let quarter = n / 4;
            let half_n = n / 2;
            for p in 0..quarter {
                // Both forms compute the same two butterflies in the same order.
                for jb in [p, p + quarter] {
                    let a = x[jb];
                    let y = tw.signed(li, jb as i32, conj).c_mul(x[jb + half_n]);
                    out[jb] = emit(a.c_add(y));
                    out[jb + half_n] = emit(a.c_sub(y));
                }
            }
        }
        MirrorStage::Copy => {
            for (o, v) in out.iter_mut().zip(x) {
                *o = emit(*v);
            }
        }
    }
    Some(out)
}

/// The radix-R butterfly's inputs x[p + m stride] times w_L^(m j) (no twiddles in the first
/// stage, L = R), as the radix-4 and radix-8 passes read them.
fn twiddled<C: MirrorComplex, const R: usize>(
    x: &[C],
    p: usize,
    stride: usize,
    l: usize,
    j: i32,
    conj: f32,
    tw: &Twiddles<C>,
) -> [C; R] {
    std::array::from_fn(|m| {
        let a = x[p + m * stride];
        if m > 0 && l > R {
            tw.signed(l as i32, m as i32 * j, conj).c_mul(a)
        } else {
            a
        }
    })
}

/// The 4-point DFT (w_4 = -i, or i for the inverse) as `stockham_common.glsl` computes it.
fn radix4_butterfly<C: MirrorComplex>(a: [C; 4], conj: f32) -> [C; 4] {
    let s02 = a[0].c_add(a[2]);
    let d02 = a[0].c_sub(a[2]);
    let s13 = a[1].c_add(a[3]);
    let d13 = a[1].c_sub(a[3]).c_mul_neg_i(conj);
    [
        s02.c_add(s13),
        d02.c_add(d13),
        s02.c_sub(s13),
        d02.c_sub(d13),
    ]
}

/// sqrt(3)/2 as qf128 words (`FFT_SQRT3_2` of `stockham_radix3.glsl`).
pub(crate) const SQRT3_2: [f32; 4] = [
    f32::from_bits(0x3f5d_b3d7),
    f32::from_bits(0x3285_84cb),
    f32::from_bits(0xa631_89b5),
    f32::from_bits(0x98bd_28f8),
];

/// 1/3 as qf128 words (`FFT_THIRD`): the inverse's odd part of 1/N.
pub(crate) const THIRD: [f32; 4] = [
    f32::from_bits(0x3eaa_aaab),
    f32::from_bits(0xb22a_aaab),
    f32::from_bits(0x25aa_aaab),
    f32::from_bits(0x992a_aaab),
];

/// The 3-point DFT (w_3 = -1/2 -+ i sqrt(3)/2) as `stockham_radix3.glsl` computes it.
fn radix3_butterfly<C: MirrorComplex>(a: [C; 3], conj: f32) -> [C; 3] {
    let s = a[1].c_add(a[2]);
    let d = a[1].c_sub(a[2]).c_mul_real(SQRT3_2).c_mul_neg_i(conj);
    let m = a[0].c_sub(s.c_scale(0.5));
    [a[0].c_add(s), m.c_add(d), m.c_sub(d)]
}

/// The arithmetic of a pass kind (unscrambling is a copy).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MirrorStage {
    /// Thall's radix-2 stage (natural order in and out).
    Radix2,
    /// A radix-3 stage: the last of a mixed-radix length 3 * 2^k.
    Radix3,
    /// A radix-4 stage.
    Radix4,
    /// A radix-8 stage.
    Radix8,
    /// The radix-2 stage that ends an odd log2 N.
    Radix2Last,
    /// A copy (the unscramble pass).
    Copy,
}

/// Where a butterfly may stand among a transform's stages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// A stage of the power-of-two part (the plan's radix option picks which).
    PowerOfTwo,
    /// The last stage of a power-of-two length when log2 N leaves one factor 2 over (it reads
    /// the planes before it and its span is N/4).
    FinishTwo,
    /// The last stage of a length with this odd factor (its twiddles are w_N, whose table the
    /// plan appends to W_long).
    OddLast,
}

/// One butterfly stage: all the plan needs to lay out, draw and prove a radix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Butterfly {
    /// The mirror's stage (and the pass kind's name).
    pub stage: MirrorStage,
    /// L grows by this factor.
    pub radix: usize,
    /// Outputs per fragment: 1 writes natural order; more write one plane each (layers of an
    /// array texture through as many color attachments; qf128 twice as many).
    pub outputs: usize,
    /// Where it stands in the stage ladder.
    pub place: Place,
    /// The GLSL file with its `main()` (after `stockham_common.glsl`), and its text.
    pub module: &'static str,
    /// The file's text, embedded.
    pub source: &'static str,
    /// Whether qf128 has it (its outputs times two attachments must fit).
    pub qf128: bool,
}

/// Every butterfly stage the plans draw, one row each.
pub const BUTTERFLIES: [Butterfly; 5] = [
    Butterfly {
        stage: MirrorStage::Radix2,
        radix: 2,
        outputs: 1,
        place: Place::PowerOfTwo,
        module: "stockham_radix2.glsl",
        source: include_str!("../../glsl/stockham_radix2.glsl"),
        qf128: true,
    },
    Butterfly {
        stage: MirrorStage::Radix4,
        radix: 4,
        outputs: 4,
        place: Place::PowerOfTwo,
        module: "stockham_radix4.glsl",
        source: include_str!("../../glsl/stockham_radix4.glsl"),
        qf128: true,
    },
    Butterfly {
        stage: MirrorStage::Radix8,
        radix: 8,
        outputs: 8,
        place: Place::PowerOfTwo,
        module: "stockham_radix8.glsl",
        source: include_str!("../../glsl/stockham_radix8.glsl"),
        qf128: false,
    },
    Butterfly {
        stage: MirrorStage::Radix2Last,
        radix: 2,
        outputs: 4,
        place: Place::FinishTwo,
        module: "stockham_radix2_last.glsl",
        source: include_str!("../../glsl/stockham_radix2_last.glsl"),
        qf128: true,
    },
    Butterfly {
        stage: MirrorStage::Radix3,
        radix: 3,
        outputs: 3,
        place: Place::OddLast,
        module: "stockham_radix3.glsl",
        source: include_str!("../../glsl/stockham_radix3.glsl"),
        qf128: true,
    },
];

impl MirrorStage {
    /// The butterfly row of this stage; `None` for the copy.
    pub fn butterfly(self) -> Option<&'static Butterfly> {
        BUTTERFLIES.iter().find(|b| b.stage == self)
    }
}

/// The built-in GLSL modules with every butterfly pass added, each after
/// `stockham_common.glsl`.
pub fn stockham_library() -> GlslLibrary {
    BUTTERFLIES.iter().fold(GlslLibrary::builtin(), |lib, b| {
        lib.with_module_needing(b.module, &["stockham_common.glsl"], b.source)
    })
}

/// The odd factors a mixed-radix length may have (one `OddLast` stage each).
pub fn odd_radices() -> impl Iterator<Item = usize> {
    BUTTERFLIES
        .iter()
        .filter(|b| b.place == Place::OddLast)
        .map(|b| b.radix)
}

/// The butterfly stages of a transform of `odd * 2^log2` points with `radix` (2, 4 or 8) as
/// the power-of-two stages' radix, in order; `None` when no row serves `odd` or the
/// precision lacks a stage it needs. Pure powers of two: radix-R stages, finished by a
/// radix-4 stage or the last radix-2 one for the remainder of log2 N. With an odd factor its
/// stage comes last (its twiddles are w_N), so a remainder of one factor 2 goes first as
/// Thall's radix-2 stage (natural order in and out).
pub fn ladder(log2: u32, odd: usize, radix: usize, qf128: bool) -> Option<Vec<MirrorStage>> {
    // The row of this place and radix that the precision has.
    let find = |place: Place, radix: usize| {
        BUTTERFLIES
            .iter()
            .find(|b| b.place == place && b.radix == radix && (b.qf128 || !qf128))
    };
    let row = |stage: MirrorStage| stage.butterfly().filter(|b| b.qf128 || !qf128);
    let primary = find(Place::PowerOfTwo, radix)?;
    let odd_stage = if odd == 1 {
        None
    } else {
        Some(find(Place::OddLast, odd)?.stage)
    };
    let bits = primary.radix.trailing_zeros();
    let mut stages = Vec::new();
    if bits == 1 || log2 < 2 {
        stages.extend(std::iter::repeat_n(
            row(MirrorStage::Radix2)?.stage,
            log2 as usize,
        ));
    } else {
        // Radix 8 below 8 points runs as radix 4.
        let (p, bits) = if log2 < bits {
            (row(MirrorStage::Radix4)?, 2)
        } else {
            (primary, bits)
        };
        let rest = log2 % bits;
        if rest == 1 && odd_stage.is_some() {
            stages.push(row(MirrorStage::Radix2)?.stage);
        }
        stages.extend(std::iter::repeat_n(p.stage, (log2 / bits) as usize));
        if rest == 2 {
            stages.push(row(MirrorStage::Radix4)?.stage);
        } else if rest == 1 && odd_stage.is_none() {
            stages.push(find(Place::FinishTwo, 2)?.stage);
        }
    }
    stages.extend(odd_stage);
    Some(stages)
}

/// The real-input FFT's last pass: bins of the N-point real transform from the M = N/2-point
/// transform `z` of the packed reals (`f32`: only high words, as `FFT_F32`).
pub fn real_post<C: MirrorComplex>(
    z: &[C],
    tw: &Twiddles<C>,
    bin0: impl Fn(C) -> C,
    scale: f32,
) -> Vec<C> {
    let m = z.len();
    (0..m)
        .map(|k| {
            let v = if k == 0 {
                bin0(z[0])
            } else {
                let b = z[m - k].c_scale_im(-1.0);
                let even = z[k].c_add(b).c_scale(0.5);
                let odd = z[k].c_sub(b).c_scale(0.5).c_mul_neg_i(1.0);
                even.c_add(tw.signed(2 * m as i32, k as i32, 1.0).c_mul(odd))
            };
            v.c_scale(scale)
        })
        .collect()
}

/// The inverse real FFT's first pass (the inverse of [`real_post`]): from the bins (bin 0
/// packed as `real_post` writes it) to the M values whose inverse transform is the packed
/// reals.
pub(crate) fn real_pre<C: MirrorComplex>(
    x: &[C],
    tw: &Twiddles<C>,
    bin0: impl Fn(C) -> C,
) -> Vec<C> {
    let m = x.len();
    (0..m)
        .map(|k| {
            if k == 0 {
                bin0(x[0]).c_scale(0.5)
            } else {
                let b = x[m - k].c_scale_im(-1.0);
                let even = x[k].c_add(b).c_scale(0.5);
                let odd = tw
                    .signed(2 * m as i32, k as i32, -1.0)
                    .c_mul(x[k].c_sub(b).c_scale(0.5));
                even.c_add(odd.c_mul_neg_i(-1.0))
            }
        })
        .collect()
}

/// Bin 0 of [`real_post`] for each precision: (re + im, re - im).
pub(crate) fn real_bin0_df64(z: ComplexDf64) -> ComplexDf64 {
    ComplexDf64::new(df64_add_unscaled(z.re, z.im), df64_sub_unscaled(z.re, z.im))
}

/// `real_bin0` in f32: (re + im, re - im).
pub(crate) fn real_bin0_f32(z: F32Complex) -> F32Complex {
    let z = z.0;
    F32Complex(ComplexDf64::new(
        Df64::new(z.re.hi + z.im.hi, 0.0),
        Df64::new(z.re.hi - z.im.hi, 0.0),
    ))
}

/// `real_bin0` in qf128: (re + im, re - im).
pub(crate) fn real_bin0_qf128(z: ComplexQf128) -> ComplexQf128 {
    ComplexQf128 {
        re: qf128_add(z.re, z.im),
        im: qf128_sub(z.re, z.im),
    }
}

/// Whether the precision's radix-4 and last radix-2 passes use the loop form.
pub(crate) fn uses_loop_form(precision: FftPrecision) -> bool {
    precision == FftPrecision::Qf128
}

#[cfg(test)]
mod tests {
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
}
