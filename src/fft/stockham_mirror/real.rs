//! The passes of a real transform around the half-length complex one: the split of the
//! packed spectrum ([`real_post`]), its inverse ([`real_pre`]), and bin 0 and the Nyquist bin.

use super::*;

/// `real_bin0` of `stockham_common.glsl` in native double: (re + im, re - im).
pub(crate) fn real_bin0_f64(z: F64Complex) -> F64Complex {
    F64Complex {
        re: z.re + z.im,
        im: z.re - z.im,
    }
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
