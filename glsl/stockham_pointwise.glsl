// stockham_pointwise.glsl: the product of two spectra, element by element. Natural order.
// Needs stockham_common.glsl before it.

uniform sampler2D u_in_b;
#ifdef FFT_QF128
uniform sampler2D u_in_b_im;
#endif
cplx fetch_b(int e) { return FFT_FETCH2(u_in_b, u_in_b_im, fft_natural_texel(e)); }

void main() {
    fft_locate();
    emit(0, c_mul(fetch(g_pos), fetch_b(g_pos)));
}
