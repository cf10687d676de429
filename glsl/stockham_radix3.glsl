// stockham_radix3.glsl: the radix-3 stage of a mixed-radix transform of N = 3 * 2^k points, its
// last butterfly stage (L = N, so its twiddles w_N come from the table's odd segment): one
// butterfly per fragment, three outputs to three planes (FFT_OUT_SLOTS 3, FFT_ODD 3); reads
// natural order (N = 3, 6, or after radix-2 stages) or the planes of a radix-4 or -8 stage.
// The inverse takes its 1/3 here (the power of two of 1/N is the last pass's exact scale).
// Needs stockham_common.glsl before it.

// sqrt(3)/2 and 1/3 as qf128 words (c_mul_real takes what its precision needs of them).
#define FFT_SQRT3_2 vec4(uintBitsToFloat(0x3f5db3d7u), uintBitsToFloat(0x328584cbu), \
        uintBitsToFloat(0xa63189b5u), uintBitsToFloat(0x98bd28f8u))
#define FFT_THIRD vec4(uintBitsToFloat(0x3eaaaaabu), uintBitsToFloat(0xb22aaaabu), \
        uintBitsToFloat(0x25aaaaabu), uintBitsToFloat(0x992aaaabu))

void main() {
    fft_locate();
    // Fragment p = k Ls + j computes out[k L + t Ls + j], t = 0..2, from x_m = in[m N/3 + p]
    // times w_L^(m j); w_3 = -1/2 - i sqrt(3)/2 (forward), so with s = x1 + x2, d = x1 - x2:
    // y0 = x0 + s, y1,2 = (x0 - s/2) -+ i sqrt(3)/2 d (the signs swap for the inverse).
    int p = g_pos;
    int third = 1 << u_log2_n;
    int ls = u_L / 3;
    int j = p & (ls - 1);
    cplx a0 = fetch(p);
#ifdef FFT_QF128
    // The two twiddle products as one loop whose bound is a uniform (u_radix - 2 = 2), as in the
    // radix-4 stage: two qf128 complex products inline took ANGLE over Mesa two minutes to compile.
    cplx a12[2];
    for (int m = 1; m < u_radix - 1; m++) {
        cplx v = fetch(DF64_B(p + DF64_B(m * third)));
        if (u_L > 3) v = c_mul(twiddle_signed(u_L, DF64_B(m * j)), v);
        a12[DF64_B(m - 1)] = v;
    }
    cplx a1 = a12[0];
    cplx a2 = a12[1];
#else
    cplx a1 = fetch(p + third);
    cplx a2 = fetch(p + 2 * third);
    if (u_L > 3) {
        a1 = c_mul(twiddle_signed(u_L, j), a1);
        a2 = c_mul(twiddle_signed(u_L, 2 * j), a2);
    }
#endif
    cplx s = c_add(a1, a2);
    cplx d = c_mul_neg_i(c_mul_real(c_sub(a1, a2), FFT_SQRT3_2), u_conj);
    cplx m = c_sub(a0, c_scale(s, 0.5));
    cplx y[3];
    y[0] = c_add(a0, s);
    y[1] = c_add(m, d);
    y[2] = c_sub(m, d);
#ifdef FFT_QF128
    // A loop whose bound is a uniform (u_radix - 1 = 3), as in the radix-4 stage: qf128 products
    // inlined straight-line make llvmpipe's compile time explode.
    // (if, not ?: on the struct: GLSL ES 3.00 has no ternary on structures.)
    for (int t = 0; t < u_radix - 1; t++) {
        cplx v = y[t];
        if (u_conj < 0.0) v = c_mul_real(v, FFT_THIRD);
        emit(t, v);
    }
#else
    for (int t = 0; t < 3; t++) {
        emit(t, u_conj < 0.0 ? c_mul_real(y[t], FFT_THIRD) : y[t]);
    }
#endif
}
