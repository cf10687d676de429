// df64.glsl: double-float arithmetic (a vec2 holding the unevaluated sum hi + lo) for GLSL.
//
// Self-contained: paste it into any GLSL 3.30+ program. Two macros configure it; define them
// before this file to override the defaults:
//
//   DF64_PRECISE      `precise` (default with GLSL 4.00+). Without it, compilers fold
//                     (a + b) - a into b and the error-free transforms silently return wrong
//                     error terms. On GLSL 3.30 put `#extension GL_ARB_gpu_shader5 : enable`
//                     at the top of your shader and `#define DF64_PRECISE precise` before this
//                     file; without the extension the default is empty, which is safe ONLY
//                     after checking your driver keeps twoSum exact (df64gl's probe does).
//   DF64_TWOPROD_FMA  1 to form TwoProduct with fma() (GLSL 4.00+); only where fma() is
//                     proven fused. Default 0: Dekker's split, which needs only correct
//                     rounding.
//
// Every routine has a Rust mirror with the same steps in src/numeric/df64.rs.
// Thall's published routines keep their names with a _thall suffix; the unsuffixed ones are
// the accurate defaults (add/sub/mul/sqr/sqrt within 0.5 ulp48, div/recip/rsqrt within 1).

#ifndef DF64_PRECISE
#if __VERSION__ >= 400
#define DF64_PRECISE precise
#else
#define DF64_PRECISE
#endif
#endif

#ifndef DF64_TWOPROD_FMA
#define DF64_TWOPROD_FMA 0
#endif

// 2^112: above this, 4097 * a can overflow, so split scales by 2^-14 first.
#define DF64_SPLIT_THRESHOLD 5.192297e33
#define DF64_SPLIT_DOWN 6.103515625e-5
#define DF64_SPLIT_UP 16384.0

// ---------------------------------------------------------------- error-free transforms

vec2 df64_from_f32(float a) { return vec2(a, 0.0); }

float df64_to_f32(vec2 a) {
    DF64_PRECISE float r = a.x + a.y;
    return r;
}

// |a| >= |b|: s + e == a + b exactly.
vec2 df64_quick_two_sum(float a, float b) {
    DF64_PRECISE float s = a + b;
    DF64_PRECISE float e = b - (s - a);
    return vec2(s, e);
}

// Knuth's TwoSum: s + e == a + b exactly.
vec2 df64_two_sum(float a, float b) {
    DF64_PRECISE float s = a + b;
    DF64_PRECISE float v = s - a;
    DF64_PRECISE float e = (a - (s - v)) + (b - v);
    return vec2(s, e);
}

// s + e == a - b exactly.
vec2 df64_two_diff(float a, float b) {
    DF64_PRECISE float s = a - b;
    DF64_PRECISE float v = s - a;
    DF64_PRECISE float e = (a - (s - v)) - (b + v);
    return vec2(s, e);
}

// Dekker's split into two 12-bit halves.
vec2 df64_split(float a) {
    if (abs(a) > DF64_SPLIT_THRESHOLD) {
        DF64_PRECISE float s = a * DF64_SPLIT_DOWN;
        DF64_PRECISE float t = 4097.0 * s;
        DF64_PRECISE float hi = t - (t - s);
        DF64_PRECISE float lo = s - hi;
        DF64_PRECISE float rh = hi * DF64_SPLIT_UP;
        DF64_PRECISE float rl = lo * DF64_SPLIT_UP;
        return vec2(rh, rl);
    }
    DF64_PRECISE float t = 4097.0 * a;
    DF64_PRECISE float hi = t - (t - a);
    DF64_PRECISE float lo = a - hi;
    return vec2(hi, lo);
}

vec2 df64_two_prod_dekker(float a, float b) {
    DF64_PRECISE float p = a * b;
    DF64_PRECISE vec2 sa = df64_split(a);
    DF64_PRECISE vec2 sb = df64_split(b);
    DF64_PRECISE float e = ((sa.x * sb.x - p) + sa.x * sb.y + sa.y * sb.x) + sa.y * sb.y;
    return vec2(p, e);
}

#if __VERSION__ >= 400
vec2 df64_two_prod_fma(float a, float b) {
    DF64_PRECISE float p = a * b;
    DF64_PRECISE float e = fma(a, b, -p);
    return vec2(p, e);
}
#endif

// p + e == a * b exactly.
vec2 df64_two_prod(float a, float b) {
#if DF64_TWOPROD_FMA
    return df64_two_prod_fma(a, b);
#else
    return df64_two_prod_dekker(a, b);
#endif
}

// p + e == a * a exactly.
vec2 df64_two_sqr(float a) {
    DF64_PRECISE float p = a * a;
    DF64_PRECISE vec2 s = df64_split(a);
    DF64_PRECISE float e = ((s.x * s.x - p) + 2.0 * s.x * s.y) + s.y * s.y;
    return vec2(p, e);
}

bool df64_nonfinite(float x) { return isnan(x) || isinf(x); }

// Overflowed or NaN results become (hi, 0), so inf stays inf as in IEEE.
vec2 df64_finish(vec2 r) { return df64_nonfinite(r.x) ? vec2(r.x, 0.0) : r; }

// ---------------------------------------------------------------- addition

// Thall's df64_add (QD's IEEE add), as published.
vec2 df64_add_thall(vec2 a, vec2 b) {
    DF64_PRECISE vec2 s = df64_two_sum(a.x, b.x);
    DF64_PRECISE vec2 t = df64_two_sum(a.y, b.y);
    s.y += t.x;
    s = df64_quick_two_sum(s.x, s.y);
    s.y += t.y;
    s = df64_quick_two_sum(s.x, s.y);
    return s;
}

// QD's sloppy add: no error bound when a and b nearly cancel.
vec2 df64_add_sloppy(vec2 a, vec2 b) {
    DF64_PRECISE vec2 s = df64_two_sum(a.x, b.x);
    DF64_PRECISE float e = s.y + (a.y + b.y);
    return df64_quick_two_sum(s.x, e);
}

// Accurate add: the four terms are summed error-free down to one rounding of the low word.
vec2 df64_add(vec2 a, vec2 b) {
    DF64_PRECISE vec2 s = df64_two_sum(a.x, b.x);
    if (df64_nonfinite(s.x)) return vec2(s.x, 0.0);
    DF64_PRECISE vec2 t = df64_two_sum(a.y, b.y);
    DF64_PRECISE vec2 u = df64_two_sum(s.y, t.x);
    DF64_PRECISE float w = u.y + t.y;
    DF64_PRECISE vec2 h = df64_two_sum(s.x, u.x);
    DF64_PRECISE float lo = h.y + w;
    return df64_finish(df64_quick_two_sum(h.x, lo));
}

// Da Graca and Defour's Add22 (their Theorem 5), for their Table 5.
vec2 df64_add_dagraca(vec2 a, vec2 b) {
    DF64_PRECISE float r = a.x + b.x;
    DF64_PRECISE float s;
    if (abs(a.x) >= abs(b.x)) s = (((a.x - r) + b.x) + b.y) + a.y;
    else s = (((b.x - r) + a.x) + a.y) + b.y;
    return df64_two_sum(r, s);
}

vec2 df64_neg(vec2 a) { return -a; }

vec2 df64_sub(vec2 a, vec2 b) { return df64_add(a, -b); }

vec2 df64_sub_thall(vec2 a, vec2 b) { return df64_add_thall(a, -b); }

// ---------------------------------------------------------------- multiplication

// Thall's df64_mult, as published.
vec2 df64_mul_thall(vec2 a, vec2 b) {
    DF64_PRECISE vec2 p = df64_two_prod(a.x, b.x);
    p.y += a.x * b.y;
    p.y += a.y * b.x;
    return df64_quick_two_sum(p.x, p.y);
}

// Da Graca and Defour's Mul22 (Dekker's), for their Table 5.
vec2 df64_mul_dagraca(vec2 a, vec2 b) {
    DF64_PRECISE vec2 t = df64_two_prod(a.x, b.x);
    DF64_PRECISE float t3 = ((a.x * b.y) + (a.y * b.x)) + t.y;
    return df64_two_sum(t.x, t3);
}

// Accurate multiply: cross products error-free, one rounding of the low word.
vec2 df64_mul(vec2 a, vec2 b) {
    DF64_PRECISE vec2 p = df64_two_prod(a.x, b.x);
    if (df64_nonfinite(p.x)) return vec2(p.x, 0.0);
    DF64_PRECISE vec2 c1 = df64_two_prod(a.x, b.y);
    DF64_PRECISE vec2 c2 = df64_two_prod(a.y, b.x);
    DF64_PRECISE vec2 t = df64_two_sum(c1.x, c2.x);
    DF64_PRECISE vec2 t2 = df64_two_sum(p.y, t.x);
    DF64_PRECISE float low = ((t.y + t2.y) + (c1.y + c2.y)) + a.y * b.y;
    DF64_PRECISE vec2 h = df64_quick_two_sum(p.x, t2.x);
    DF64_PRECISE float lo = h.y + low;
    return df64_finish(df64_quick_two_sum(h.x, lo));
}

// Thall's df64_sqr.
vec2 df64_sqr_thall(vec2 a) {
    DF64_PRECISE vec2 p = df64_two_sqr(a.x);
    p.y += 2.0 * a.x * a.y;
    return df64_quick_two_sum(p.x, p.y);
}

// Accurate square.
vec2 df64_sqr(vec2 a) {
    DF64_PRECISE vec2 p = df64_two_sqr(a.x);
    if (df64_nonfinite(p.x)) return vec2(p.x, 0.0);
    DF64_PRECISE vec2 c = df64_two_prod(a.x, a.y);
    DF64_PRECISE vec2 t2 = df64_two_sum(p.y, 2.0 * c.x);
    DF64_PRECISE float low = (t2.y + 2.0 * c.y) + a.y * a.y;
    DF64_PRECISE vec2 h = df64_quick_two_sum(p.x, t2.x);
    DF64_PRECISE float lo = h.y + low;
    return df64_finish(df64_quick_two_sum(h.x, lo));
}

// a * b for a float b, accurate.
vec2 df64_mul_f32(vec2 a, float b) {
    DF64_PRECISE vec2 p = df64_two_prod(a.x, b);
    if (df64_nonfinite(p.x)) return vec2(p.x, 0.0);
    DF64_PRECISE vec2 c = df64_two_prod(a.y, b);
    DF64_PRECISE vec2 t2 = df64_two_sum(p.y, c.x);
    DF64_PRECISE float low = t2.y + c.y;
    DF64_PRECISE vec2 h = df64_quick_two_sum(p.x, t2.x);
    DF64_PRECISE float lo = h.y + low;
    return df64_finish(df64_quick_two_sum(h.x, lo));
}

// The exponent e of frexp (x = m 2^e, m in [0.5, 1)) for a normal, nonzero x, from its bits
// (frexp itself needs GLSL 4.00).
int df64_exponent(float x) { return ((floatBitsToInt(x) >> 23) & 0xff) - 126; }

// a * 2^n: exact unless it overflows or underflows.
#if __VERSION__ >= 400
vec2 df64_ldexp(vec2 a, int n) { return vec2(ldexp(a.x, n), ldexp(a.y, n)); }
#else
// 2^k for -126 <= k <= 127, exactly, from its bits (exp2 is not exact on every driver: on
// llvmpipe it cost qf128 its last two words).
float df64_pow2(int k) { return intBitsToFloat((k + 127) << 23); }
// Two power-of-two factors, each a normal float, cover |n| <= 252.
vec2 df64_ldexp(vec2 a, int n) {
    int h = n / 2;
    DF64_PRECISE vec2 r = a * df64_pow2(h) * df64_pow2(n - h);
    return r;
}
#endif

// ---------------------------------------------------------------- division

// Thall's Karp division (his Fig. 1): B / A.
vec2 df64_div_thall(vec2 B, vec2 A) {
    DF64_PRECISE float xn = 1.0 / A.x;
    DF64_PRECISE float yn = B.x * xn;
    DF64_PRECISE float diff = df64_sub_thall(B, df64_mul_thall(A, vec2(yn, 0.0))).x;
    DF64_PRECISE vec2 prod = df64_two_prod(xn, diff);
    return df64_add_thall(vec2(yn, 0.0), prod);
}

// Accurate division: long division with three quotient terms (QD's accurate div).
vec2 df64_div(vec2 a, vec2 b) {
    DF64_PRECISE float q1 = a.x / b.x;
    // Infinite or NaN quotients, and x / inf (= 0 or NaN), are final as they stand.
    if (df64_nonfinite(q1) || df64_nonfinite(b.x)) return vec2(q1, 0.0);
    DF64_PRECISE vec2 p = df64_two_prod(q1, b.x);
    DF64_PRECISE vec2 pl = df64_two_prod(q1, b.y);
    DF64_PRECISE float d = a.x - p.x;
    DF64_PRECISE vec2 s1 = df64_two_sum(d, a.y);
    DF64_PRECISE vec2 s2 = df64_two_sum(p.y, pl.x);
    DF64_PRECISE vec2 r0 = df64_two_diff(s1.x, s2.x);
    DF64_PRECISE float rl = ((s1.y - s2.y) + r0.y) - pl.y;
    DF64_PRECISE vec2 r = df64_quick_two_sum(r0.x, rl);
    DF64_PRECISE float q2 = r.x / b.x;
    DF64_PRECISE vec2 p2 = df64_two_prod(q2, b.x);
    DF64_PRECISE float r2 = ((r.x - p2.x) + (r.y - p2.y)) - q2 * b.y;
    DF64_PRECISE float q3 = r2 / b.x;
    DF64_PRECISE vec2 h = df64_quick_two_sum(q1, q2);
    DF64_PRECISE float lo = h.y + q3;
    return df64_finish(df64_quick_two_sum(h.x, lo));
}

vec2 df64_recip(vec2 a) { return df64_div(vec2(1.0, 0.0), a); }

vec2 df64_recip_thall(vec2 a) { return df64_div_thall(vec2(1.0, 0.0), a); }

// ---------------------------------------------------------------- square root

// sqrt of 0, negatives, infinities and NaN as IEEE: +-0 -> +-0, x < 0 -> NaN, inf -> inf.
vec2 df64_sqrt_special(vec2 a) {
    return a.x == 0.0 ? vec2(a.x, 0.0) : vec2(sqrt(a.x), 0.0);
}

// Thall's Karp square root (his Fig. 1).
vec2 df64_sqrt_thall(vec2 a) {
    if (a.x <= 0.0 || df64_nonfinite(a.x)) return df64_sqrt_special(a);
    DF64_PRECISE float xn = inversesqrt(a.x);
    DF64_PRECISE float yn = a.x * xn;
    DF64_PRECISE vec2 ynsqr = df64_sqr_thall(vec2(yn, 0.0));
    DF64_PRECISE float diff = df64_sub_thall(a, ynsqr).x;
    DF64_PRECISE vec2 p = df64_two_prod(xn, diff);
    DF64_PRECISE vec2 prod = vec2(p.x * 0.5, p.y * 0.5);
    return df64_add_thall(vec2(yn, 0.0), prod);
}

// Accurate square root: a Karp step from the f32 root, then one correction with an accurate
// residual a - s^2.
vec2 df64_sqrt(vec2 a) {
    if (a.x <= 0.0 || df64_nonfinite(a.x)) return df64_sqrt_special(a);
    DF64_PRECISE float y = sqrt(a.x);
    DF64_PRECISE vec2 p = df64_two_sqr(y);
    DF64_PRECISE float d = ((a.x - p.x) - p.y) + a.y;
    DF64_PRECISE vec2 s1 = df64_quick_two_sum(y, d / (2.0 * y));
    DF64_PRECISE vec2 r = df64_sub(a, df64_sqr(s1));
    DF64_PRECISE float lo = s1.y + r.x / (2.0 * s1.x);
    return df64_finish(df64_quick_two_sum(s1.x, lo));
}

vec2 df64_rsqrt_thall(vec2 a) { return df64_recip_thall(df64_sqrt_thall(a)); }

// Accurate 1/sqrt(a): the root of the accurate reciprocal halves its relative error.
vec2 df64_rsqrt(vec2 a) { return df64_sqrt(df64_recip(a)); }

// ---------------------------------------------------------------- comparisons and friends

bool df64_eq(vec2 a, vec2 b) { return a.x == b.x && a.y == b.y; }
bool df64_neq(vec2 a, vec2 b) { return a.x != b.x || a.y != b.y; }
bool df64_lt(vec2 a, vec2 b) { return a.x < b.x || (a.x == b.x && a.y < b.y); }
bool df64_le(vec2 a, vec2 b) { return a.x < b.x || (a.x == b.x && a.y <= b.y); }
bool df64_gt(vec2 a, vec2 b) { return a.x > b.x || (a.x == b.x && a.y > b.y); }
bool df64_ge(vec2 a, vec2 b) { return a.x > b.x || (a.x == b.x && a.y >= b.y); }

// |-0| is +0: compilers fold `x < 0 ? -x : x` into abs(x), so the zero's sign is set here.
vec2 df64_abs(vec2 a) { return a.x < 0.0 ? -a : vec2(abs(a.x), a.y); }
vec2 df64_min(vec2 a, vec2 b) { return df64_lt(b, a) ? b : a; }
vec2 df64_max(vec2 a, vec2 b) { return df64_gt(b, a) ? b : a; }

// ---------------------------------------------------------------- complex (vec4: re.hi, re.lo, im.hi, im.lo)

vec4 cdf64_add(vec4 a, vec4 b) { return vec4(df64_add(a.xy, b.xy), df64_add(a.zw, b.zw)); }
vec4 cdf64_sub(vec4 a, vec4 b) { return vec4(df64_sub(a.xy, b.xy), df64_sub(a.zw, b.zw)); }

vec4 cdf64_mul(vec4 a, vec4 b) {
    DF64_PRECISE vec2 re = df64_sub(df64_mul(a.xy, b.xy), df64_mul(a.zw, b.zw));
    DF64_PRECISE vec2 im = df64_add(df64_mul(a.xy, b.zw), df64_mul(a.zw, b.xy));
    return vec4(re, im);
}
