// stockham_radix2_last.glsl: the radix-2 stage that ends a radix-4 transform of odd log2 N
// (or a radix-8 one of log2 N = 1 mod 3): two butterflies per fragment, four outputs to four
// planes (FFT_OUT_SLOTS 4), planes in.
// Needs stockham_common.glsl before it.

void main() {
    fft_locate();
    // The last stage (L = N) of an odd log2 N: butterflies j = p and j = p + N/4. Output
    // o = t N/2 + j lies in plane o >> (log2 N - 2) = 2 t + (j >= N/4), at position p.
    int p = g_pos;
    int quarter = FFT_N >> 2;
    int half_n = 2 * quarter;
#ifdef FFT_QF128
    // A loop for the same reason as in the radix-4 stage; slot = b + 2 t for butterfly b.
    for (int b = 0; b < u_radix / 2; b++) {
        int jb = p + b * quarter;
        cplx x = fetch(jb);
        cplx y = c_mul(twiddle_signed(u_L, jb), fetch(jb + half_n));
        cplx sum = c_add(x, y);
        cplx diff = c_sub(x, y);
        if (b == 0) {
            emit(0, sum);
            emit(2, diff);
        } else {
            emit(1, sum);
            emit(3, diff);
        }
    }
#else
    cplx x0 = fetch(p);
    cplx y0 = c_mul(twiddle_signed(u_L, p), fetch(p + half_n));
    cplx x1 = fetch(p + quarter);
    cplx y1 = c_mul(twiddle_signed(u_L, p + quarter), fetch(p + quarter + half_n));
    emit(0, c_add(x0, y0));
    emit(1, c_add(x1, y1));
    emit(2, c_sub(x0, y0));
    emit(3, c_sub(x1, y1));
#endif
}
