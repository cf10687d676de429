//! One Stockham pass ([`stage`]): the twiddles (table or direct), and the radix-2, 3, 4 and
//! odd-radix butterflies, each as the shader writes it.

use super::*;

/// a omega^k, omega = -i (forward) or i (inverse): the qf128 loop's rotation.
pub(super) fn c_rot<C: MirrorComplex>(a: C, k: i32, conj: f32) -> C {
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
    pub(super) fn signed(&self, l: i32, j: i32, conj: f32) -> C {
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
pub(super) fn twiddled<C: MirrorComplex, const R: usize>(
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
pub(super) fn radix4_butterfly<C: MirrorComplex>(a: [C; 4], conj: f32) -> [C; 4] {
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
pub(super) fn radix3_butterfly<C: MirrorComplex>(a: [C; 3], conj: f32) -> [C; 3] {
    let s = a[1].c_add(a[2]);
    let d = a[1].c_sub(a[2]).c_mul_real(SQRT3_2).c_mul_neg_i(conj);
    let m = a[0].c_sub(s.c_scale(0.5));
    [a[0].c_add(s), m.c_add(d), m.c_sub(d)]
}
