// mandelbrot.glsl: the Mandelbrot set as a df64 user would write it, from the same df64.glsl
// and qf128.glsl a renderer pastes in. One pixel per fragment, in f32 (MANDEL_F32), df64
// (MANDEL_DF64) or qf128 (MANDEL_QF128). The center arrives as qf128 words, so each precision
// starts from the center rounded to it; the pixel's offset from the center is an f32 (small
// integers times the pixel size), and c = center + offset is formed in the working precision.
// Output: the smooth escape count in .x (-1 for points that did not escape) or, with
// MANDEL_COLOR, a palette colour for the window.
// Needs df64.glsl and qf128.glsl before it.

uniform vec4 u_center_re;
uniform vec4 u_center_im;
// Complex-plane units per pixel.
uniform float u_pixel;
// Half the image size in pixels.
uniform vec2 u_half;
uniform int u_max_iter;
out vec4 o_result;

// Escape radius 256: the smooth count is then accurate to a small fraction of an iteration.
const float MANDEL_BAILOUT = 65536.0;

float mandel_smooth(int n, float modulus2) {
    modulus2 = DF64_B(modulus2);
    return DF64_B(DF64_B(float(n) + 1.0) - log2(DF64_B(0.5 * log2(modulus2))));
}

float mandel_count(vec2 offset) {
    offset = DF64_B(offset);
#if defined(MANDEL_QF128)
    vec4 cr = qf128_add(u_center_re, vec4(offset.x, 0.0, 0.0, 0.0));
    vec4 ci = qf128_add(u_center_im, vec4(offset.y, 0.0, 0.0, 0.0));
    vec4 zr = vec4(0.0);
    vec4 zi = vec4(0.0);
    for (int n = 0; n < u_max_iter; ++n) {
        vec4 zr2 = qf128_sqr(zr);
        vec4 zi2 = qf128_sqr(zi);
        float m = DF64_B(zr2.x + zi2.x);
        if (m > MANDEL_BAILOUT) {
            return mandel_smooth(n, m);
        }
        vec4 t = qf128_mul(zr, zi);
        // 2t is exact: a power-of-two scaling of every word.
        zi = qf128_add(DF64_B(2.0 * t), ci);
        zr = qf128_add(qf128_sub(zr2, zi2), cr);
    }
#elif defined(MANDEL_DF64)
    vec2 cr = df64_add(u_center_re.xy, vec2(offset.x, 0.0));
    vec2 ci = df64_add(u_center_im.xy, vec2(offset.y, 0.0));
    vec2 zr = vec2(0.0);
    vec2 zi = vec2(0.0);
    // The orbit stays below the bailout and errors count against 1, not against each term's
    // own size: the unscaled ops suffice and skip the exponent scaling.
    for (int n = 0; n < u_max_iter; ++n) {
        vec2 zr2 = df64_sqr_unscaled(zr);
        vec2 zi2 = df64_sqr_unscaled(zi);
        float m = DF64_B(zr2.x + zi2.x);
        if (m > MANDEL_BAILOUT) {
            return mandel_smooth(n, m);
        }
        vec2 t = df64_mul_unscaled(zr, zi);
        zi = df64_add_unscaled(DF64_B(2.0 * t), ci);
        zr = df64_add_unscaled(df64_sub_unscaled(zr2, zi2), cr);
    }
#else
    float cr = DF64_B(u_center_re.x + offset.x);
    float ci = DF64_B(u_center_im.x + offset.y);
    float zr = 0.0;
    float zi = 0.0;
    for (int n = 0; n < u_max_iter; ++n) {
        float zr2 = DF64_B(zr * zr);
        float zi2 = DF64_B(zi * zi);
        float m = DF64_B(zr2 + zi2);
        if (m > MANDEL_BAILOUT) {
            return mandel_smooth(n, m);
        }
        zi = DF64_B(DF64_B(DF64_B(2.0 * zr) * zi) + ci);
        zr = DF64_B(DF64_B(zr2 - zi2) + cr);
    }
#endif
    return -1.0;
}

void main() {
    // gl_FragCoord is the pixel centre (x + 0.5), so the offset is exact in pixels.
    vec2 offset = DF64_B(DF64_B(gl_FragCoord.xy - u_half) * u_pixel);
    float mu = mandel_count(offset);
#ifdef MANDEL_COLOR
    if (mu < 0.0) {
        o_result = vec4(0.0, 0.0, 0.0, 1.0);
    } else {
        // A cyclic palette over the square root of the count: bands stay visible at the
        // thousands of iterations of a deep zoom.
        float t = DF64_B(0.6 * sqrt(mu));
        o_result = vec4(DF64_B(0.5
                + DF64_B(0.5 * cos(DF64_B(t + DF64_B(vec3(0.0, 0.6, 1.0) * 3.0))))), 1.0);
    }
#else
    o_result = vec4(mu, 0.0, 0.0, 0.0);
#endif
}
