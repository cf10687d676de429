// stockham_copy.glsl: one element to its place, nothing computed: with FFT_IN_PLANES
// it puts planes back in natural order (the unscramble pass), without it it copies natural
// order (the floor a pass of the same layout cannot go below; bench fft times it).
// Needs stockham_common.glsl before it.

void main() {
    fft_locate();
    emit(0, fetch(g_pos));
}
