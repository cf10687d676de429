// stockham_radix8.glsl: one radix-8 butterfly per fragment (f32, df64, f64), eight
// outputs to eight planes (FFT_OUT_SLOTS 8); natural order in the first pass, planes after.
// Needs stockham_common.glsl before it.

// a w_8 = (a - i a) / sqrt(2) forward, (a + i a) / sqrt(2) inverse: the sum is exact up to its
// rounding, the product by 1/sqrt(2) is one real multiply of each part.
cplx c_rot8(cplx a, float conj) {
    conj = DF64_B(conj);
    cplx s = c_add(a, c_mul_neg_i(a, conj));
#if defined(FFT_F64)
    DF64_PRECISE dvec2 r = DF64_B(s * 0.70710678118654752440LF);
    return r;
#elif defined(FFT_F32)
    DF64_PRECISE vec4 r = vec4(DF64_B(s.x * uintBitsToFloat(0x3f3504f3u)), 0.0,
            DF64_B(s.z * uintBitsToFloat(0x3f3504f3u)), 0.0);
    return r;
#else
    vec2 k = vec2(uintBitsToFloat(0x3f3504f3u), uintBitsToFloat(0x324fe77au));
    return vec4(df64_mul_unscaled(s.xy, k), df64_mul_unscaled(s.zw, k));
#endif
}

void main() {
    fft_locate();
    // Fragment p = k Ls + j computes out[k L + t Ls + j], t = 0..7, from x_m = in[m N/8 + p]
    // times w_L^(m j): two radix-4 butterflies (even and odd m), joined by w_8^t.
    int p = g_pos;
    int eighth = FFT_N >> 3;
    int ls = u_L >> 3;
    int j = p & (ls - 1);
    cplx a[8];
    for (int m = 0; m < 8; m++) a[m] = fetch(p + m * eighth);
    if (u_L > 8) {
        for (int m = 1; m < 8; m++) a[m] = c_mul(twiddle_signed(u_L, m * j), a[m]);
    }
    cplx e[4];
    cplx o[4];
    radix4_butterfly(a[0], a[2], a[4], a[6], e);
    radix4_butterfly(a[1], a[3], a[5], a[7], o);
    // w_8 = (1 - i)/sqrt(2) (forward; conj for the inverse): o1 w_8, o2 w_8^2 = -i o2, o3 w_8^3.
    cplx o1 = c_rot8(o[1], u_conj);
    cplx o2 = c_mul_neg_i(o[2], u_conj);
    cplx o3 = c_mul_neg_i(c_rot8(o[3], u_conj), u_conj);
    emit(0, c_add(e[0], o[0]));
    emit(1, c_add(e[1], o1));
    emit(2, c_add(e[2], o2));
    emit(3, c_add(e[3], o3));
    emit(4, c_sub(e[0], o[0]));
    emit(5, c_sub(e[1], o1));
    emit(6, c_sub(e[2], o2));
    emit(7, c_sub(e[3], o3));
}
