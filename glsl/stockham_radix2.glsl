// stockham_radix2.glsl: Thall's Algorithm 10 as published: one output per fragment,
// natural order in and out (the "faithful" transform). Layout: FFT_OUT_SLOTS 1.
// Needs stockham_common.glsl before it.

void main() {
    fft_locate();
    // Algorithm 10: out[k L + j] = x + w y, out[k L + j + L/2] = x - w y, with
    // x = in[k L/2 + j], y = in[k L/2 + j + N/2], w = w_L^j.
    int e = g_pos;
    int half_l = u_L >> 1;
    int k = e / u_L;
    int j = e - k * u_L;
    bool second = j >= half_l;
    if (second) j -= half_l;
    cplx x = fetch(k * half_l + j);
    cplx tau = c_mul(twiddle_signed(u_L, j), fetch(k * half_l + j + (FFT_N >> 1)));
    if (second) {
        emit(0, c_sub(x, tau));
    } else {
        emit(0, c_add(x, tau));
    }
}
