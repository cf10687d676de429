// stockham_radix4.glsl: one radix-4 butterfly per fragment, its four outputs written to
// four planes (FFT_OUT_SLOTS 4); reads natural order in the first pass, planes after.
// Needs stockham_common.glsl before it.

void main() {
    fft_locate();
    // Fragment p = k Ls + j computes out[k L + t Ls + j], t = 0..3, from
    // x_m = in[m N/4 + p] times w_L^(m j), and writes output t to plane t.
    int p = g_pos;
    int quarter = FFT_N >> 2;
    int ls = u_L >> 2;
    int j = p & (ls - 1);
#ifdef FFT_QF128
    // qf128: the same butterfly as a loop whose bound is a uniform (4), so the compiler does
    // not unroll it: inlining three straight-line qf128 complex products and eight sums made
    // llvmpipe's compile time explode (minutes); the loop costs four extra complex sums.
    cplx y0 = fetch(p);
    cplx y1 = y0;
    cplx y2 = y0;
    cplx y3 = y0;
    for (int m = 1; m < u_radix; m++) {
        cplx a = fetch(p + m * quarter);
        if (u_L > 4) a = c_mul(twiddle_signed(u_L, m * j), a);
        y0 = c_add(y0, a);
        y1 = c_add(y1, c_rot(a, m, u_conj));
        y2 = c_add(y2, c_rot(a, 2 * m, u_conj));
        y3 = c_add(y3, c_rot(a, 3 * m, u_conj));
    }
    emit(0, y0);
    emit(1, y1);
    emit(2, y2);
    emit(3, y3);
#else
    cplx a0 = fetch(p);
    cplx a1 = fetch(p + quarter);
    cplx a2 = fetch(p + 2 * quarter);
    cplx a3 = fetch(p + 3 * quarter);
    if (u_L > 4) {
        a1 = c_mul(twiddle_signed(u_L, j), a1);
        a2 = c_mul(twiddle_signed(u_L, 2 * j), a2);
        a3 = c_mul(twiddle_signed(u_L, 3 * j), a3);
    }
    cplx y[4];
    radix4_butterfly(a0, a1, a2, a3, y);
    emit(0, y[0]);
    emit(1, y[1]);
    emit(2, y[2]);
    emit(3, y[3]);
#endif
}
