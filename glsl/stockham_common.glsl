// stockham_common.glsl: what every pass of Thall's transposed Stockham autosort FFT (his
// Algorithms 8 to 10) shares: the uniforms, complex arithmetic in each precision, the texel
// addressing of natural order and planes, the output, the twiddles and the butterflies. Each kind
// of pass is its own file after it (stockham_radix2.glsl, _radix4, _radix8, _radix2_last,
// _real_post, _real_pre, _pointwise, _copy), holding only that pass's main().
//
// Layout, set by the engine for each pass:
//   FFT_OUT_SLOTS  outputs per fragment: 1 (natural order), 3, 4 or 8 (one per layer ("plane")
//                  of an array texture, through as many color attachments);
//   FFT_IN_PLANES  defined where the pass reads planes (else natural order);
//   FFT_ODD        the odd factor of the lengths (1, or 3 for 3 * 2^k: mixed radix), so
//                  divisions by it are by a constant.
//
// Precision: FFT_F32 (f32 arithmetic on the high words), FFT_QF128 (real and imaginary parts
// in two textures or two groups of layers), FFT_F64 (native double, GLSL 4.00 or
// GL_ARB_gpu_shader_fp64 (enabled at the top of the shader): each texel one complex double,
// its four 32-bit halves stored bit for bit), else df64 with each texel one complex
// [re_hi, re_lo, im_hi, im_lo]. For qf128, FFT_PART 1 or 2 writes only the real or the
// imaginary part (the two-pass variant); without it one pass writes both (two attachments).
// FFT_DIRECT computes twiddles in the shader with df64 (or qf128) sincos instead of reading W_long.
//
// Addressing: the data holds batches of transforms of N = FFT_ODD 2^u_log2_n elements;
// element e of transform b is at linear texel index ((b N + e) << u_log2_stride) | low bits
// (stride 1 for rows, the row length for the columns of a 2-D transform). Natural order stores
// element e there. Planes store, for a writer of R = u_in_radix planes and span
// Ls = 2^u_in_log2_ls, element e in layer (e / Ls) mod R at element position
// ((e / (Ls R)) Ls) + (e mod Ls), transform b at b N / R: exactly where a fragment of that
// writer puts its outputs.
// Needs df64.glsl before it; with FFT_QF128 also qf128.glsl, else with FFT_DIRECT df64_func.glsl.

uniform int u_log2_n;         // log2 of the transform length along this axis (of its power of two)
uniform int u_log2_stride;    // log2 of the distance between elements of one transform
uniform int u_log2_out_width; // width of the texture (layer) written, as a power of two
uniform int u_log2_in_width;  // width of the texture (layer) read
uniform int u_in_log2_ls;     // plane mapping of the input (planes only)
uniform int u_in_radix;       // layers of the planes read: FFT_ODD (3), 4 or 8
uniform int u_L;              // 2^q after this stage (stage passes)
uniform float u_conj;         // -1 for the inverse transform (conjugate twiddles), else 1
uniform float u_scale;        // 1, or 1/N on the last inverse pass (a power of two: exact)
uniform int u_radix;          // 4: a loop bound the compiler cannot see (qf128 passes)

#ifndef FFT_OUT_SLOTS
#define FFT_OUT_SLOTS 1
#endif
#ifndef FFT_ODD
#define FFT_ODD 1
#endif
// The transform's length N.
#define FFT_N (FFT_ODD << u_log2_n)
// A fragment's element positions per transform: FFT_OUT_ODD 2^FFT_OUT_ELEMENT_BITS = N / slots.
#if FFT_OUT_SLOTS == 8
#define FFT_OUT_ELEMENT_BITS (u_log2_n - 3)
#define FFT_OUT_ODD FFT_ODD
#elif FFT_OUT_SLOTS == 4
#define FFT_OUT_ELEMENT_BITS (u_log2_n - 2)
#define FFT_OUT_ODD FFT_ODD
#elif FFT_OUT_SLOTS == 1
#define FFT_OUT_ELEMENT_BITS u_log2_n
#define FFT_OUT_ODD FFT_ODD
#else
// An odd radix's planes: slots == FFT_ODD, N / slots = 2^u_log2_n.
#define FFT_OUT_ELEMENT_BITS u_log2_n
#define FFT_OUT_ODD 1
#endif

#if defined(FFT_QF128) && !defined(FFT_PART)
#define FFT_OUT_TOTAL (2 * FFT_OUT_SLOTS)
#else
#define FFT_OUT_TOTAL FFT_OUT_SLOTS
#endif
layout(location = 0) out vec4 o_out[FFT_OUT_TOTAL];

// o_out[i] with constant indices only: GLSL ES 3.00 (WebGL 2) indexes fragment outputs by
// constant expressions alone, and the passes' slots are arguments and loop indices. Where i is
// known after inlining the tests fold away.
void fft_store(int i, vec4 v) {
    v = DF64_B(v);
    if (i == 0) o_out[0] = v;
#if FFT_OUT_TOTAL > 1
    if (i == 1) o_out[1] = v;
#endif
#if FFT_OUT_TOTAL > 2
    if (i == 2) o_out[2] = v;
#endif
#if FFT_OUT_TOTAL > 3
    if (i == 3) o_out[3] = v;
#endif
#if FFT_OUT_TOTAL > 4
    if (i == 4) o_out[4] = v;
#endif
#if FFT_OUT_TOTAL > 5
    if (i == 5) o_out[5] = v;
#endif
#if FFT_OUT_TOTAL > 6
    if (i == 6) o_out[6] = v;
#endif
#if FFT_OUT_TOTAL > 7
    if (i == 7) o_out[7] = v;
#endif
}

// ---------------------------------------------------------------- complex arithmetic

#ifdef FFT_QF128
struct cplx { vec4 re; vec4 im; };
cplx c_add(cplx a, cplx b) { return cplx(qf128_add(a.re, b.re), qf128_add(a.im, b.im)); }
cplx c_sub(cplx a, cplx b) { return cplx(qf128_sub(a.re, b.re), qf128_sub(a.im, b.im)); }
cplx c_mul(cplx a, cplx b) {
    return cplx(qf128_sub(qf128_mul(a.re, b.re), qf128_mul(a.im, b.im)),
            qf128_add(qf128_mul(a.re, b.im), qf128_mul(a.im, b.re)));
}
cplx c_neg(cplx a) { return cplx(-a.re, -a.im); }
cplx c_conj_if(cplx a, float conj) { conj = DF64_B(conj); return cplx(a.re, DF64_B(a.im * conj)); }
cplx c_conj(cplx a) { return cplx(a.re, -a.im); }
// -i a (forward) or i a (inverse, conj = -1): exact.
cplx c_mul_neg_i(cplx a, float conj) {
    conj = DF64_B(conj);
    return cplx(DF64_B(a.im * conj), DF64_B(-a.re * conj));
}
cplx c_scale(cplx a, float s) { s = DF64_B(s); return cplx(DF64_B(a.re * s), DF64_B(a.im * s)); }
// a omega^k, omega = -i (forward) or i (inverse): exact.
cplx c_rot(cplx a, int k, float conj) {
    conj = DF64_B(conj);
    k &= 3;
    // if, not ?: on the struct: GLSL ES 3.00 (WebGL 2) has no ternary on structures.
    cplx r = a;
    if ((k & 1) == 1) r = c_mul_neg_i(a, conj);
    if (k >= 2) r = c_neg(r);
    return r;
}
#elif defined(FFT_F64)
#define cplx dvec2
cplx c_add(cplx a, cplx b) { DF64_PRECISE dvec2 r = DF64_B(a + b); return r; }
cplx c_sub(cplx a, cplx b) { DF64_PRECISE dvec2 r = DF64_B(a - b); return r; }
cplx c_mul(cplx a, cplx b) {
    DF64_PRECISE double re = DF64_B(DF64_B(a.x * b.x) - DF64_B(a.y * b.y));
    DF64_PRECISE double im = DF64_B(DF64_B(a.x * b.y) + DF64_B(a.y * b.x));
    return dvec2(re, im);
}
cplx c_neg(cplx a) { return -a; }
cplx c_conj_if(cplx a, float conj) {
    conj = DF64_B(conj);
    return dvec2(a.x, DF64_B(a.y * double(conj)));
}
cplx c_conj(cplx a) { return dvec2(a.x, -a.y); }
cplx c_mul_neg_i(cplx a, float conj) {
    conj = DF64_B(conj);
    return dvec2(DF64_B(a.y * double(conj)), DF64_B(-a.x * double(conj)));
}
cplx c_scale(cplx a, float s) { s = DF64_B(s); return DF64_B(a * double(s)); }
cplx from_texel(vec4 t) {
    t = DF64_B(t);
    return dvec2(packDouble2x32(floatBitsToUint(t.xy)), packDouble2x32(floatBitsToUint(t.zw)));
}
vec4 to_texel(cplx v) {
    return vec4(uintBitsToFloat(unpackDouble2x32(v.x)), uintBitsToFloat(unpackDouble2x32(v.y)));
}
#else
#define cplx vec4
#ifdef FFT_F32
cplx c_add(cplx a,
        cplx b) { DF64_PRECISE vec4 r = vec4(DF64_B(a.x + b.x), 0.0, DF64_B(a.z + b.z),
        0.0); return r; }
cplx c_sub(cplx a,
        cplx b) { DF64_PRECISE vec4 r = vec4(DF64_B(a.x - b.x), 0.0, DF64_B(a.z - b.z),
        0.0); return r; }
cplx c_mul(cplx a, cplx b) {
    DF64_PRECISE float re = DF64_B(DF64_B(a.x * b.x) - DF64_B(a.z * b.z));
    DF64_PRECISE float im = DF64_B(DF64_B(a.x * b.z) + DF64_B(a.z * b.x));
    return vec4(re, 0.0, im, 0.0);
}
#else
// The *_unscaled df64 ops: the plans keep data and twiddles near 1 (block scaling), where they
// equal the full-range ops bit for bit and skip the exponent scaling.
cplx c_add(cplx a,
        cplx b) { return vec4(df64_add_unscaled(a.xy, b.xy), df64_add_unscaled(a.zw, b.zw)); }
cplx c_sub(cplx a,
        cplx b) { return vec4(df64_sub_unscaled(a.xy, b.xy), df64_sub_unscaled(a.zw, b.zw)); }
cplx c_mul(cplx a, cplx b) {
    DF64_PRECISE vec2 re = df64_sub_unscaled(df64_mul_unscaled(a.xy, b.xy),
            df64_mul_unscaled(a.zw, b.zw));
    DF64_PRECISE vec2 im = df64_add_unscaled(df64_mul_unscaled(a.xy, b.zw),
            df64_mul_unscaled(a.zw, b.xy));
    return vec4(re, im);
}
#endif
cplx c_neg(cplx a) { return -a; }
cplx c_conj_if(cplx a, float conj) { conj = DF64_B(conj); return vec4(a.xy, DF64_B(a.zw * conj)); }
cplx c_conj(cplx a) { return vec4(a.xy, -a.zw); }
cplx c_mul_neg_i(cplx a, float conj) {
    conj = DF64_B(conj);
    return vec4(DF64_B(a.zw * conj), DF64_B(-a.xy * conj));
}
cplx c_scale(cplx a, float s) { s = DF64_B(s); return DF64_B(a * s); }
#define from_texel(t) (t)
#define to_texel(v) (v)
#endif

// a k for a real constant k given as its qf128 words (k.x + k.y + k.z + k.w): df64 takes two
// words, f32 one, native double the sum of three (exact to 53 bits), qf128 all four.
cplx c_mul_real(cplx a, vec4 k) {
    k = DF64_B(k);
#ifdef FFT_QF128
    return cplx(qf128_mul(a.re, k), qf128_mul(a.im, k));
#elif defined(FFT_F64)
    DF64_PRECISE double kd = DF64_B(DF64_B(double(k.x) + double(k.y)) + double(k.z));
    DF64_PRECISE dvec2 r = DF64_B(a * kd);
    return r;
#elif defined(FFT_F32)
    DF64_PRECISE vec4 r = vec4(DF64_B(a.x * k.x), 0.0, DF64_B(a.z * k.x), 0.0);
    return r;
#else
    return vec4(df64_mul_unscaled(a.xy, k.xy), df64_mul_unscaled(a.zw, k.xy));
#endif
}

// ---------------------------------------------------------------- addressing

#ifdef FFT_QF128
#define FFT_FETCH2(re, im, t) cplx(texelFetch(re, t, 0), texelFetch(im, t, 0))
#else
#define FFT_FETCH2(re, im, t) from_texel(texelFetch(re, t, 0))
#endif

int g_lo;   // index bits below the element field
int g_hi;   // index bits above it
int g_pos;  // this fragment's element position in the texture it writes

ivec2 fft_texel(int i, int log2_width) {
    return ivec2(i & ((1 << log2_width) - 1), i >> log2_width);
}

void fft_locate() {
    ivec2 c = ivec2(gl_FragCoord.xy);
    int p = (c.y << u_log2_out_width) | c.x;
    int s = u_log2_stride;
    int bits = FFT_OUT_ELEMENT_BITS;
    g_lo = p & ((1 << s) - 1);
    int q = p >> s;
    int r = q >> bits;
    // Integer arithmetic (DF64_B on an int is the identity; the barrier check cannot tell).
    g_hi = DF64_B(r / FFT_OUT_ODD);
    g_pos = (DF64_B(r - DF64_B(g_hi * FFT_OUT_ODD)) << bits) | (q & ((1 << bits) - 1));
}

// t / r for the planes' count r (the odd radix, 4 or 8): a division by a constant, or a shift
// (no findLSB: GLSL 3.30 has none).
int fft_div_radix(int t, int r) {
    if (r == FFT_ODD) {
        return DF64_B(t / FFT_ODD);
    }
    return t >> (r == 8 ? 3 : 2);
}

#ifdef FFT_IN_PLANES
uniform sampler2DArray u_in;
cplx fetch(int e) {
    int ls = u_in_log2_ls;
    int rr = u_in_radix;
    int span = e >> ls;
    int over = fft_div_radix(span, rr);
    int layer = span - over * rr;
    int epos = (over << ls) | (e & ((1 << ls) - 1));
    int i = ((g_hi * fft_div_radix(FFT_N, rr) + epos) << u_log2_stride) | g_lo;
    ivec2 t = fft_texel(i, u_log2_in_width);
#ifdef FFT_QF128
    return cplx(texelFetch(u_in, ivec3(t, layer), 0), texelFetch(u_in, ivec3(t, layer + 4), 0));
#else
    return from_texel(texelFetch(u_in, ivec3(t, layer), 0));
#endif
}
#else
uniform sampler2D u_in;
#ifdef FFT_QF128
uniform sampler2D u_in_im;
#endif
ivec2 fft_natural_texel(int e) {
    int i = (DF64_B(DF64_B(g_hi * FFT_N) + e) << u_log2_stride) | g_lo;
    return fft_texel(i, u_log2_in_width);
}
cplx fetch(int e) { return FFT_FETCH2(u_in, u_in_im, fft_natural_texel(e)); }
#endif

void emit(int slot, cplx v) {
    v = c_scale(v, u_scale);
#ifdef FFT_QF128
#if !defined(FFT_PART)
    fft_store(slot, v.re);
    fft_store(DF64_B(slot + FFT_OUT_SLOTS), v.im);
#elif FFT_PART == 1
    fft_store(slot, v.re);
#else
    fft_store(slot, v.im);
#endif
#else
    fft_store(slot, to_texel(v));
#endif
}

// ---------------------------------------------------------------- twiddles

#if defined(FFT_DIRECT) && FFT_ODD > 1
#error "mixed-radix lengths take their twiddles from the table"
#endif
#ifdef FFT_DIRECT
// w_L^j = exp(-2 pi i j / L) for 0 <= j < L/2. j / L is exact in f32; the quarter turns are
// taken off exactly, so sincos sees |phi| <= pi/4 and phi carries only its own rounding.
cplx twiddle(int L, int j) {
    float f = DF64_B(float(j) / float(L));
    float q = floor(DF64_B(DF64_B(4.0 * f) + 0.5));
    float g4 = DF64_B(DF64_B(4.0 * f) - q); // 4 (f - q/4), in [-1/2, 1/2], exact
#ifdef FFT_QF128
    vec4 pi_2 = vec4(QF128_PI_2[0], QF128_PI_2[1], QF128_PI_2[2], QF128_PI_2[3]);
    DF64_PRECISE vec4 phi = qf128_add(qf128_mul_f32(pi_2, g4),
            qf128_from_f32(DF64_B(QF128_PI_2[4] * g4)));
    vec4 s, c;
    qf128_sincos_reduced(phi, s, c);
#else
    vec2 pi_2 = vec2(DF64_PI_2[0], DF64_PI_2[1]);
    DF64_PRECISE vec2 phi = df64_add_unscaled(df64_mul_f32_unscaled(pi_2, g4),
            vec2(DF64_B(DF64_PI_2[2] * g4), 0.0));
    vec2 s, c;
    df64_sincos_reduced(phi, s, c);
#endif
    // angle = -(q pi/2 + phi): cos = cos(q pi/2 + phi), sin = -sin(q pi/2 + phi).
    int qi = int(q) & 3;
#ifdef FFT_QF128
    if (qi == 0) return cplx(c, -s);
    if (qi == 1) return cplx(-s, -c);
    if (qi == 2) return cplx(-c, s);
    return cplx(s, c);
#else
    if (qi == 0) return vec4(c, -s);
    if (qi == 1) return vec4(-s, -c);
    if (qi == 2) return vec4(-c, s);
    return vec4(s, c);
#endif
}
#else
uniform sampler2D u_twiddle;
#ifdef FFT_QF128
uniform sampler2D u_twiddle_im;
#endif
uniform int u_log2_twiddle_width;
#if FFT_ODD > 1
// Mixed radix: the table for N = FFT_ODD 2^k holds W_long up to 2^k (2^k - 1 entries), then
// w_N^j for j < N/2, the twiddles of the one stage whose L has the odd factor (L = N).
int fft_twiddle_index(int L, int j) {
    if ((L & (L - 1)) == 0) {
        return (L >> 1) + j - 1;
    }
    return (L & -L) - 1 + j;
}
#else
int fft_twiddle_index(int L, int j) { return (L >> 1) + j - 1; }
#endif
// W_long: w_L^j at index L/2 + j - 1.
cplx twiddle(int L, int j) {
    return FFT_FETCH2(u_twiddle, u_twiddle_im, fft_texel(fft_twiddle_index(L, j),
            u_log2_twiddle_width));
}
#endif

// w_L^j for 0 <= j < L (w_L^(L/2) = -1), conjugated for the inverse transform.
cplx twiddle_signed(int L, int j) {
    cplx w;
    if (j < (L >> 1)) {
        w = twiddle(L, j);
    } else {
        w = c_neg(twiddle(L, j - (L >> 1)));
    }
    return c_conj_if(w, u_conj);
}

// ---------------------------------------------------------------- butterflies

// The 4-point DFT of (a0, a1, a2, a3): the radix-4 butterfly (w_4 = -i, or i).
void radix4_butterfly(cplx a0, cplx a1, cplx a2, cplx a3, out cplx y[4]) {
    cplx s02 = c_add(a0, a2);
    cplx d02 = c_sub(a0, a2);
    cplx s13 = c_add(a1, a3);
    cplx d13 = c_mul_neg_i(c_sub(a1, a3), u_conj);
    y[0] = c_add(s02, s13);
    y[1] = c_add(d02, d13);
    y[2] = c_sub(s02, s13);
    y[3] = c_sub(d02, d13);
}

// (re + im, re - im): bin 0 of the real transform both ways (X_0 and X_(N/2) from Z_0, and
// back to 2 Z_0).
cplx real_bin0(cplx z) {
#ifdef FFT_QF128
    return cplx(qf128_add(z.re, z.im), qf128_sub(z.re, z.im));
#elif defined(FFT_F32)
    DF64_PRECISE vec4 r = vec4(DF64_B(z.x + z.z), 0.0, DF64_B(z.x - z.z), 0.0);
    return r;
#elif defined(FFT_F64)
    DF64_PRECISE dvec2 r = dvec2(DF64_B(z.x + z.y), DF64_B(z.x - z.y));
    return r;
#else
    return vec4(df64_add_unscaled(z.xy, z.zw), df64_sub_unscaled(z.xy, z.zw));
#endif
}
