// stockham.glsl: the passes of Thall's transposed Stockham autosort FFT (his Algorithms 8 to 10)
// in f32, df64 and qf128, one fragment program per kind of pass, chosen by defines:
//
//   FFT_STAGE_RADIX2     Algorithm 10 as published: one output per fragment, natural order in
//                        and out (the "faithful" transform);
//   FFT_STAGE_RADIX4     one radix-4 butterfly per fragment, its four outputs written to four
//                        layers ("planes") of an array texture through four color attachments;
//   FFT_STAGE_RADIX8     one radix-8 butterfly per fragment, eight outputs to the eight layers
//                        of an array texture through eight color attachments (f32, df64, f64);
//   FFT_STAGE_RADIX2_LAST  the radix-2 stage that ends a radix-4 transform of odd log2 N (or a
//                        radix-8 one of log2 N = 1 mod 3): two butterflies per fragment, again
//                        four outputs to four planes;
//   FFT_STAGE_UNSCRAMBLE planes back to natural order (a copy);
//   FFT_STAGE_REAL_POST  the N/2-point transform of packed reals to the N/2 + 1 bins of the
//                        real-input FFT;
//   FFT_STAGE_REAL_PRE   its inverse: the N/2 + 1 bins to the N/2 complex values whose inverse
//                        transform is the packed reals (the inverse real FFT's first pass);
//   FFT_STAGE_POINTWISE  the product of two spectra, element by element;
//   FFT_STAGE_COPY       natural order to natural order, nothing computed: the floor a pass
//                        of the same layout cannot go below (bench fft times it).
//
// Precision: FFT_F32 (f32 arithmetic on the high words), FFT_QF128 (real and imaginary parts
// in two textures or two groups of layers), FFT_F64 (native double, GLSL 4.00 or
// GL_ARB_gpu_shader_fp64 (enabled at the top of the shader): each texel one complex double, its four
// 32-bit halves stored bit for bit), else df64 with each texel one complex
// [re_hi, re_lo, im_hi, im_lo]. For qf128, FFT_PART 1 or 2 writes only the real or the
// imaginary part (the two-pass variant); without it one pass writes both (two attachments).
// FFT_DIRECT computes twiddles in the shader with df64 (or qf128) sincos instead of reading W_long.
//
// Addressing: the data holds batches of transforms of 2^u_log2_n elements; element e of a
// transform is at bit position u_log2_stride of the linear texel index (stride 1 for rows,
// the row length for the columns of a 2-D transform), the other bits pick the transform.
// Natural order stores element e at that index. Planes store, for a writer of radix R =
// 2^u_in_log2_radix and span Ls = 2^u_in_log2_ls, element e in layer (e >> ls) & (R - 1) at
// element position ((e >> (ls + log2 R)) << ls) | (e & (Ls - 1)): exactly where a radix-R
// fragment writes its outputs.
// Needs df64.glsl before it; with FFT_QF128 also qf128.glsl, else with FFT_DIRECT df64_func.glsl.

uniform int u_log2_n;         // log2 of the transform length along this axis
uniform int u_log2_stride;    // log2 of the distance between elements of one transform
uniform int u_log2_out_width; // width of the texture (layer) written, as a power of two
uniform int u_log2_in_width;  // width of the texture (layer) read
uniform int u_in_log2_ls;     // plane mapping of the input (planes only)
uniform int u_in_log2_radix;  // layers of the planes read: 2 (four) or 3 (eight)
uniform int u_L;              // 2^q after this stage (stage passes)
uniform float u_conj;         // -1 for the inverse transform (conjugate twiddles), else 1
uniform float u_scale;        // 1, or 1/N on the last inverse pass (a power of two: exact)
uniform int u_radix;          // 4: a loop bound the compiler cannot see (qf128 passes)

#if defined(FFT_STAGE_RADIX8)
#define FFT_OUT_SLOTS 8
#define FFT_OUT_ELEMENT_BITS (u_log2_n - 3)
#elif defined(FFT_STAGE_RADIX4) || defined(FFT_STAGE_RADIX2_LAST)
#define FFT_OUT_SLOTS 4
#define FFT_OUT_ELEMENT_BITS (u_log2_n - 2)
#else
#define FFT_OUT_SLOTS 1
#define FFT_OUT_ELEMENT_BITS u_log2_n
#endif

#if ((defined(FFT_STAGE_RADIX4) || defined(FFT_STAGE_RADIX8)) && !defined(FFT_IN_NATURAL)) || defined(FFT_STAGE_RADIX2_LAST) || defined(FFT_STAGE_UNSCRAMBLE)
#define FFT_IN_PLANES
#endif

#if defined(FFT_QF128) && !defined(FFT_PART)
layout(location = 0) out vec4 o_out[2 * FFT_OUT_SLOTS];
#else
layout(location = 0) out vec4 o_out[FFT_OUT_SLOTS];
#endif

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
cplx c_conj_if(cplx a, float conj) { return cplx(a.re, a.im * conj); }
cplx c_conj(cplx a) { return cplx(a.re, -a.im); }
// -i a (forward) or i a (inverse, conj = -1): exact.
cplx c_mul_neg_i(cplx a, float conj) { return cplx(a.im * conj, -a.re * conj); }
cplx c_scale(cplx a, float s) { return cplx(a.re * s, a.im * s); }
// a omega^k, omega = -i (forward) or i (inverse): exact.
cplx c_rot(cplx a, int k, float conj) {
    k &= 3;
    cplx r = (k & 1) == 1 ? c_mul_neg_i(a, conj) : a;
    return k >= 2 ? c_neg(r) : r;
}
#elif defined(FFT_F64)
#define cplx dvec2
cplx c_add(cplx a, cplx b) { DF64_PRECISE dvec2 r = a + b; return r; }
cplx c_sub(cplx a, cplx b) { DF64_PRECISE dvec2 r = a - b; return r; }
cplx c_mul(cplx a, cplx b) {
    DF64_PRECISE double re = a.x * b.x - a.y * b.y;
    DF64_PRECISE double im = a.x * b.y + a.y * b.x;
    return dvec2(re, im);
}
cplx c_neg(cplx a) { return -a; }
cplx c_conj_if(cplx a, float conj) { return dvec2(a.x, a.y * double(conj)); }
cplx c_conj(cplx a) { return dvec2(a.x, -a.y); }
cplx c_mul_neg_i(cplx a, float conj) { return dvec2(a.y * double(conj), -a.x * double(conj)); }
cplx c_scale(cplx a, float s) { return a * double(s); }
cplx from_texel(vec4 t) {
    return dvec2(packDouble2x32(floatBitsToUint(t.xy)), packDouble2x32(floatBitsToUint(t.zw)));
}
vec4 to_texel(cplx v) {
    return vec4(uintBitsToFloat(unpackDouble2x32(v.x)), uintBitsToFloat(unpackDouble2x32(v.y)));
}
#else
#define cplx vec4
#ifdef FFT_F32
cplx c_add(cplx a, cplx b) { DF64_PRECISE vec4 r = vec4(a.x + b.x, 0.0, a.z + b.z, 0.0); return r; }
cplx c_sub(cplx a, cplx b) { DF64_PRECISE vec4 r = vec4(a.x - b.x, 0.0, a.z - b.z, 0.0); return r; }
cplx c_mul(cplx a, cplx b) {
    DF64_PRECISE float re = a.x * b.x - a.z * b.z;
    DF64_PRECISE float im = a.x * b.z + a.z * b.x;
    return vec4(re, 0.0, im, 0.0);
}
#else
// The *_unscaled df64 ops: the plans keep data and twiddles near 1 (block scaling), where they
// equal the full-range ops bit for bit and skip the exponent scaling.
cplx c_add(cplx a, cplx b) { return vec4(df64_add_unscaled(a.xy, b.xy), df64_add_unscaled(a.zw, b.zw)); }
cplx c_sub(cplx a, cplx b) { return vec4(df64_sub_unscaled(a.xy, b.xy), df64_sub_unscaled(a.zw, b.zw)); }
cplx c_mul(cplx a, cplx b) {
    DF64_PRECISE vec2 re = df64_sub_unscaled(df64_mul_unscaled(a.xy, b.xy), df64_mul_unscaled(a.zw, b.zw));
    DF64_PRECISE vec2 im = df64_add_unscaled(df64_mul_unscaled(a.xy, b.zw), df64_mul_unscaled(a.zw, b.xy));
    return vec4(re, im);
}
#endif
cplx c_neg(cplx a) { return -a; }
cplx c_conj_if(cplx a, float conj) { return vec4(a.xy, a.zw * conj); }
cplx c_conj(cplx a) { return vec4(a.xy, -a.zw); }
cplx c_mul_neg_i(cplx a, float conj) { return vec4(a.zw * conj, -a.xy * conj); }
cplx c_scale(cplx a, float s) { return a * s; }
#define from_texel(t) (t)
#define to_texel(v) (v)
#endif

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
    g_pos = (p >> s) & ((1 << bits) - 1);
    g_hi = p >> (s + bits);
}

#ifdef FFT_IN_PLANES
uniform sampler2DArray u_in;
cplx fetch(int e) {
    int ls = u_in_log2_ls;
    int rb = u_in_log2_radix;
    int layer = (e >> ls) & ((1 << rb) - 1);
    int epos = ((e >> (ls + rb)) << ls) | (e & ((1 << ls) - 1));
    int i = (g_hi << (u_log2_stride + u_log2_n - rb)) | (epos << u_log2_stride) | g_lo;
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
    int i = (g_hi << (u_log2_stride + u_log2_n)) | (e << u_log2_stride) | g_lo;
    return fft_texel(i, u_log2_in_width);
}
cplx fetch(int e) { return FFT_FETCH2(u_in, u_in_im, fft_natural_texel(e)); }
#endif

#ifdef FFT_STAGE_POINTWISE
uniform sampler2D u_in_b;
#ifdef FFT_QF128
uniform sampler2D u_in_b_im;
#endif
cplx fetch_b(int e) { return FFT_FETCH2(u_in_b, u_in_b_im, fft_natural_texel(e)); }
#endif

void emit(int slot, cplx v) {
    v = c_scale(v, u_scale);
#ifdef FFT_QF128
#if !defined(FFT_PART)
    o_out[slot] = v.re;
    o_out[slot + FFT_OUT_SLOTS] = v.im;
#elif FFT_PART == 1
    o_out[slot] = v.re;
#else
    o_out[slot] = v.im;
#endif
#else
    o_out[slot] = to_texel(v);
#endif
}

// ---------------------------------------------------------------- twiddles

#if defined(FFT_STAGE_RADIX2) || defined(FFT_STAGE_RADIX4) || defined(FFT_STAGE_RADIX8) || defined(FFT_STAGE_RADIX2_LAST) || defined(FFT_STAGE_REAL_POST) || defined(FFT_STAGE_REAL_PRE)
#ifdef FFT_DIRECT
// w_L^j = exp(-2 pi i j / L) for 0 <= j < L/2. j / L is exact in f32; the quarter turns are
// taken off exactly, so sincos sees |phi| <= pi/4 and phi carries only its own rounding.
cplx twiddle(int L, int j) {
    float f = float(j) / float(L);
    float q = floor(4.0 * f + 0.5);
    float g4 = 4.0 * f - q; // 4 (f - q/4), in [-1/2, 1/2], exact
#ifdef FFT_QF128
    vec4 pi_2 = vec4(QF128_PI_2[0], QF128_PI_2[1], QF128_PI_2[2], QF128_PI_2[3]);
    DF64_PRECISE vec4 phi = qf128_add(qf128_mul_f32(pi_2, g4), qf128_from_f32(QF128_PI_2[4] * g4));
    vec4 s, c;
    qf128_sincos(phi, s, c);
#else
    vec2 pi_2 = vec2(DF64_PI_2[0], DF64_PI_2[1]);
    DF64_PRECISE vec2 phi = df64_add_unscaled(df64_mul_f32_unscaled(pi_2, g4), vec2(DF64_PI_2[2] * g4, 0.0));
    vec2 s, c;
    df64_sincos(phi, s, c);
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
// W_long: w_L^j at index L/2 + j - 1.
cplx twiddle(int L, int j) {
    return FFT_FETCH2(u_twiddle, u_twiddle_im, fft_texel((L >> 1) + j - 1, u_log2_twiddle_width));
}
#endif

// w_L^j for 0 <= j < L (w_L^(L/2) = -1), conjugated for the inverse transform.
cplx twiddle_signed(int L, int j) {
    cplx w = j < (L >> 1) ? twiddle(L, j) : c_neg(twiddle(L, j - (L >> 1)));
    return c_conj_if(w, u_conj);
}
#endif

// ---------------------------------------------------------------- passes

#if (defined(FFT_STAGE_RADIX4) || defined(FFT_STAGE_RADIX8)) && !defined(FFT_QF128)
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
#endif

#ifdef FFT_STAGE_RADIX8
// a w_8 = (a - i a) / sqrt(2) forward, (a + i a) / sqrt(2) inverse: the sum is exact up to its
// rounding, the product by 1/sqrt(2) is one real multiply of each part.
cplx c_rot8(cplx a, float conj) {
    cplx s = c_add(a, c_mul_neg_i(a, conj));
#if defined(FFT_F64)
    DF64_PRECISE dvec2 r = s * 0.70710678118654752440LF;
    return r;
#elif defined(FFT_F32)
    DF64_PRECISE vec4 r = vec4(s.x * uintBitsToFloat(0x3f3504f3u), 0.0, s.z * uintBitsToFloat(0x3f3504f3u), 0.0);
    return r;
#else
    vec2 k = vec2(uintBitsToFloat(0x3f3504f3u), uintBitsToFloat(0x324fe77au));
    return vec4(df64_mul_unscaled(s.xy, k), df64_mul_unscaled(s.zw, k));
#endif
}
#endif

#if defined(FFT_STAGE_REAL_POST) || defined(FFT_STAGE_REAL_PRE)
// (re + im, re - im): bin 0 of the real transform both ways (X_0 and X_(N/2) from Z_0, and
// back to 2 Z_0).
cplx real_bin0(cplx z) {
#ifdef FFT_QF128
    return cplx(qf128_add(z.re, z.im), qf128_sub(z.re, z.im));
#elif defined(FFT_F32)
    DF64_PRECISE vec4 r = vec4(z.x + z.z, 0.0, z.x - z.z, 0.0);
    return r;
#elif defined(FFT_F64)
    DF64_PRECISE dvec2 r = dvec2(z.x + z.y, z.x - z.y);
    return r;
#else
    return vec4(df64_add_unscaled(z.xy, z.zw), df64_sub_unscaled(z.xy, z.zw));
#endif
}
#endif

void main() {
    fft_locate();
#if defined(FFT_STAGE_RADIX2)
    // Algorithm 10: out[k L + j] = x + w y, out[k L + j + L/2] = x - w y, with
    // x = in[k L/2 + j], y = in[k L/2 + j + N/2], w = w_L^j.
    int e = g_pos;
    int half_l = u_L >> 1;
    int k = e / u_L;
    int j = e - k * u_L;
    bool second = j >= half_l;
    if (second) j -= half_l;
    cplx x = fetch(k * half_l + j);
    cplx tau = c_mul(twiddle_signed(u_L, j), fetch(k * half_l + j + (1 << (u_log2_n - 1))));
    emit(0, second ? c_sub(x, tau) : c_add(x, tau));
#elif defined(FFT_STAGE_RADIX4)
    // Fragment p = k Ls + j computes out[k L + t Ls + j], t = 0..3, from
    // x_m = in[m N/4 + p] times w_L^(m j), and writes output t to plane t.
    int p = g_pos;
    int quarter = 1 << (u_log2_n - 2);
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
#elif defined(FFT_STAGE_RADIX8)
    // Fragment p = k Ls + j computes out[k L + t Ls + j], t = 0..7, from x_m = in[m N/8 + p]
    // times w_L^(m j): two radix-4 butterflies (even and odd m), joined by w_8^t.
    int p = g_pos;
    int eighth = 1 << (u_log2_n - 3);
    int ls = u_L >> 3;
    int j = p & (ls - 1);
    cplx a[8];
    for (int m = 0; m < 8; m++) a[m] = fetch(p + m * eighth);
    if (u_L > 8) {
        for (int m = 1; m < 8; m++) a[m] = c_mul(twiddle_signed(u_L, m * j), a[m]);
    }
    cplx e[4];
    cplx o[4];
    radix4_butterfly(a[0], a[2], a[4], a[6], e);
    radix4_butterfly(a[1], a[3], a[5], a[7], o);
    // w_8 = (1 - i)/sqrt(2) (forward; conj for the inverse): o1 w_8, o2 w_8^2 = -i o2, o3 w_8^3.
    cplx o1 = c_rot8(o[1], u_conj);
    cplx o2 = c_mul_neg_i(o[2], u_conj);
    cplx o3 = c_mul_neg_i(c_rot8(o[3], u_conj), u_conj);
    emit(0, c_add(e[0], o[0]));
    emit(1, c_add(e[1], o1));
    emit(2, c_add(e[2], o2));
    emit(3, c_add(e[3], o3));
    emit(4, c_sub(e[0], o[0]));
    emit(5, c_sub(e[1], o1));
    emit(6, c_sub(e[2], o2));
    emit(7, c_sub(e[3], o3));
#elif defined(FFT_STAGE_RADIX2_LAST)
    // The last stage (L = N) of an odd log2 N: butterflies j = p and j = p + N/4. Output
    // o = t N/2 + j lies in plane o >> (log2 N - 2) = 2 t + (j >= N/4), at position p.
    int p = g_pos;
    int quarter = 1 << (u_log2_n - 2);
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
#elif defined(FFT_STAGE_UNSCRAMBLE)
    emit(0, fetch(g_pos));
#elif defined(FFT_STAGE_REAL_POST)
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
#elif defined(FFT_STAGE_REAL_PRE)
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
#elif defined(FFT_STAGE_POINTWISE)
    emit(0, c_mul(fetch(g_pos), fetch_b(g_pos)));
#elif defined(FFT_STAGE_COPY)
    emit(0, fetch(g_pos));
#endif
}
