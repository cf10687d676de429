// stockham.glsl: one stage of Thall's transposed Stockham autosort FFT (his Algorithm 10), one
// fragment per output element. Each RGBA32F texel is a complex df64 [re_hi, re_lo, im_hi, im_lo]
// (with FFT_F32: the same layout with zero low words, f32 arithmetic). The twiddle texture
// holds W_long, the N-1 factors w_L^j = exp(-2 pi i j / L) for L = 2, 4, ..., N at index
// L/2 + j - 1.
#include "df64.glsl"

uniform sampler2D u_data;
uniform sampler2D u_twiddle;
uniform int u_L;          // 2^q at stage q
uniform int u_n;          // transform length
uniform int u_log2_width; // the texture is 2^u_log2_width texels wide
uniform float u_conj;     // -1 for the inverse transform (conjugate twiddles), else 1
uniform float u_scale;    // 1, or 1/N on the last inverse stage (a power of two: exact)
out vec4 o_result;

ivec2 fft_texel(int i) {
    return ivec2(i & ((1 << u_log2_width) - 1), i >> u_log2_width);
}

vec4 fft_mul(vec4 a, vec4 b) {
#ifdef FFT_F32
    DF64_PRECISE float re = a.x * b.x - a.z * b.z;
    DF64_PRECISE float im = a.x * b.z + a.z * b.x;
    return vec4(re, 0.0, im, 0.0);
#else
    return cdf64_mul(a, b);
#endif
}

vec4 fft_add(vec4 a, vec4 b) {
#ifdef FFT_F32
    DF64_PRECISE vec4 r = vec4(a.x + b.x, 0.0, a.z + b.z, 0.0);
    return r;
#else
    return cdf64_add(a, b);
#endif
}

vec4 fft_sub(vec4 a, vec4 b) {
#ifdef FFT_F32
    DF64_PRECISE vec4 r = vec4(a.x - b.x, 0.0, a.z - b.z, 0.0);
    return r;
#else
    return cdf64_sub(a, b);
#endif
}

void main() {
    ivec2 c = ivec2(gl_FragCoord.xy);
    int i = (c.y << u_log2_width) + c.x;
    int half_l = u_L >> 1;
    int k = i / u_L;
    int j = i - k * u_L;
    bool second = j >= half_l;
    if (second) j -= half_l;
    vec4 w = texelFetch(u_twiddle, fft_texel(half_l + j - 1), 0);
    w.zw *= u_conj;
    vec4 y = texelFetch(u_data, fft_texel(k * half_l + j + (u_n >> 1)), 0);
    vec4 x = texelFetch(u_data, fft_texel(k * half_l + j), 0);
    vec4 tau = fft_mul(w, y);
    vec4 r = second ? fft_sub(x, tau) : fft_add(x, tau);
    o_result = r * u_scale;
}
