// stockham_real_post.glsl: the N/2-point transform of packed reals to the N/2 + 1 bins
// of the real-input FFT. Natural order in and out.
// Needs stockham_common.glsl before it.

void main() {
    fft_locate();
    // z_k = x_2k + i x_2k+1 transformed (M = N/2 points): X_k = (Z_k + conj Z_(M-k)) / 2
    // - i w_N^k (Z_k - conj Z_(M-k)) / 2; bin 0 carries X_0 in re and X_(N/2) in im.
    int k = g_pos;
    int m = 1 << u_log2_n;
    cplx z = fetch(k);
    if (k == 0) {
        emit(0, real_bin0(z));
    } else {
        cplx b = c_conj(fetch(m - k));
        cplx even = c_scale(c_add(z, b), 0.5);
        cplx odd = c_mul_neg_i(c_scale(c_sub(z, b), 0.5), 1.0);
        emit(0, c_add(even, c_mul(twiddle_signed(2 * m, k), odd)));
    }
}
