// stockham_real_pre.glsl: the inverse of stockham_real_post.glsl: the N/2 + 1 bins to the
// N/2 complex values whose inverse transform is the packed reals (the inverse real FFT's first
// pass). Natural order in and out.
// Needs stockham_common.glsl before it.

void main() {
    fft_locate();
    // Bins X_k (bin 0 packed as above) to Z_k = E_k + i O_k with E_k = (X_k + conj X_(M-k)) / 2
    // and O_k = w_N^-k (X_k - conj X_(M-k)) / 2 (u_conj = -1 conjugates the twiddle): the
    // inverse M-point transform of Z is z_n = x_2n + i x_2n+1.
    int k = g_pos;
    int m = 1 << u_log2_n;
    cplx z = fetch(k);
    if (k == 0) {
        emit(0, c_scale(real_bin0(z), 0.5));
    } else {
        cplx b = c_conj(fetch(m - k));
        cplx even = c_scale(c_add(z, b), 0.5);
        cplx odd = c_mul(twiddle_signed(2 * m, k), c_scale(c_sub(z, b), 0.5));
        emit(0, c_add(even, c_mul_neg_i(odd, -1.0)));
    }
}
