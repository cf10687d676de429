// df64.glsl: double-float arithmetic (a vec2 holding the unevaluated sum hi + lo) for GLSL.
//
// Self-contained: paste it into any GLSL 3.30+ program. Four macros configure it; define them
// before this file to override the defaults:
//
//   DF64_PRECISE      `precise` (default with GLSL 4.00+). Without it, compilers fold
//                     (a + b) - a into b and the error-free transforms silently return wrong
//                     error terms. On GLSL 3.30 put `#extension GL_ARB_gpu_shader5 : enable`
//                     at the top of your shader and `#define DF64_PRECISE precise` before this
//                     file; without the extension the default is empty, which is safe ONLY
//                     after checking your driver keeps twoSum exact (df64gl's probe does).
//   DF64_TWOPROD_FMA  1 to form TwoProduct with fma() (GLSL 4.00+); only where fma() is
//                     proven fused. Default 0: Dekker's product on a split made from the
//                     bits, which needs only correct rounding.
//   DF64_BARRIER      1 where there is no `precise` (GLSL ES 3.00 / WebGL 2, GLSL 3.30
//                     without GL_ARB_gpu_shader5): then DF64_B(x) is a bit-level identity
//                     that no float rewrite crosses (below), and the uniform u_df64_zero must
//                     stay 0 (leave it unset). Default 0: DF64_B(x) is just (x).
//   DF64_TWO_SUM_KNUTH 1 to form the sum's TwoSums as Knuth's six operations instead of a
//                     sort by magnitude and QuickTwoSum: the same words either way; Knuth's
//                     measured cheaper on NVIDIA (the accurate add by 12%, the FFT's by 27%),
//                     alike on llvmpipe. With DF64_BARRIER, Knuth's (three barriers, no
//                     selects) measured cheaper on SwiftShader and the same on ANGLE over
//                     Mesa: the GLSL ES export sets it. Default 0 (sorted).
//
// Every routine has a Rust mirror with the same steps in src/numeric/df64.rs.
// Thall's published routines keep their names with a _thall suffix; the unsuffixed ones are
// the accurate defaults (add/sub/mul/sqr/sqrt within 0.5 ulp48, div/recip/rsqrt within 1, hypot
// within 1).
// The fast tier (df64_add_fast, _sub_fast, _mul_fast, _sqr_fast, _mul_f32_fast, _div_fast,
// _sqrt_fast; exp, log, sin and cos in df64_func.glsl) drops the scaling and the special
// values: within 2 ulp48 (div 1) for operands and results of magnitude 2^-40 to 2^126 or zero.
//
// Domain: the defaults scale their operands by exact powers of two, so these bounds hold for
// every operand and result of magnitude 2^-100 to 2^126 (plus 2^-126 absolute where the driver
// flushes subnormals: the low word cannot hold less), with IEEE zeros, infinities and NaN
// outside. The *_unscaled variants skip the scaling (faster, for data kept near 1): their
// bounds hold only for operands and results of magnitude 2^-40 to 2^126.

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

#ifndef DF64_BARRIER
#define DF64_BARRIER 0
#endif

#ifndef DF64_TWO_SUM_KNUTH
#define DF64_TWO_SUM_KNUTH 0
#endif

// The optimisation barrier, where exactness rests on a value. Without `precise`, compilers
// fold (a + b) - a into b, contract a product into the sum that uses it, and merge a barrier
// that is itself float arithmetic (Mesa factors a*k + b*k into k*(a + b)). An integer
// operation is out of reach of every float rewrite, hence DF64_B(x): x's bits XORed with a
// uniform 0. It is placed where an error-free transform needs it: QuickTwoSum's rounded sum,
// TwoSum's s and s - a (folded, s - (s - a) becomes a; on ANGLE over Mesa, an earlier TwoSum
// without its inner barriers came out a few ulps of the low word off the mirror in the known
// answers of atan, asin and acos), TwoProduct's rounded product (which a contraction would
// replace by the exact one), each public routine's operands (so no caller's product fuses
// into a routine) and each inexact product that is added to something (contracted, it would
// round once where the mirror rounds twice). The public transforms (df64_two_sum, ...) also
// make their operands and every step of TwoSum opaque, for any caller; the cores use the
// *_inner forms, whose operands are known safe. Splits are integer operations
// (df64_split_bits) and need none. The sums of error terms after that are plain float code;
// the check proves the whole on each driver.
#if DF64_BARRIER
uniform highp uint u_df64_zero;
float df64_b(float x) { return uintBitsToFloat(floatBitsToUint(x) ^ u_df64_zero); }
vec2 df64_b(vec2 x) { return uintBitsToFloat(floatBitsToUint(x) ^ u_df64_zero); }
vec3 df64_b(vec3 x) { return uintBitsToFloat(floatBitsToUint(x) ^ u_df64_zero); }
vec4 df64_b(vec4 x) { return uintBitsToFloat(floatBitsToUint(x) ^ u_df64_zero); }
int df64_b(int x) { return x; }
ivec2 df64_b(ivec2 x) { return x; }
uint df64_b(uint x) { return x; }
#if !defined(GL_ES) && __VERSION__ >= 400
double df64_b(double x) { return x; }
dvec2 df64_b(dvec2 x) { return x; }
#endif
#define DF64_B(x) df64_b(x)
#else
#define DF64_B(x) (x)
#endif

// 2^112: above this, 4097 * a can overflow, so split scales by 2^-14 first.
#define DF64_SPLIT_THRESHOLD 5.192297e33
#define DF64_SPLIT_DOWN 6.103515625e-5
#define DF64_SPLIT_UP 16384.0

// ---------------------------------------------------------------- error-free transforms

vec2 df64_from_f32(float a) { a = DF64_B(a); return vec2(a, 0.0); }

float df64_to_f32(vec2 a) {
    a = DF64_B(a);
    DF64_PRECISE float r = DF64_B(a.x + a.y);
    return r;
}

// The transforms inside the cores (df64_*_core and the fast tier), whose operands are other
// transforms' words, the routines' barriered operands or their exact scalings, never a rounded
// product that a contraction could fuse into the sum: only the values whose folding breaks the
// transform are opaque. In TwoSum, s (else (a + b) - a folds to b) and v (else s - (s - a)
// folds to a); in QuickTwoSum, s; in TwoProduct, p. A barrier costs an integer operation on the
// chain: on SwiftShader, the accurate product's core took 5.9 ns with the public transforms'
// barriers and 4.0 with these (one scratch run); the check proves the whole on each driver.
vec2 df64_two_sum_inner(float a, float b) {
    DF64_PRECISE float s = DF64_B(a + b);
    DF64_PRECISE float v = DF64_B(s - a);
    DF64_PRECISE float e = (a - (s - v)) + (b - v);
    return vec2(s, e);
}

// |a| >= |b|: s + e == a + b exactly (operands as df64_two_sum_inner's).
vec2 df64_quick_two_sum_inner(float a, float b) {
    DF64_PRECISE float s = DF64_B(a + b);
    DF64_PRECISE float e = b - (s - a);
    return vec2(s, e);
}

// |a| >= |b|: s + e == a + b exactly.
vec2 df64_quick_two_sum(float a, float b) {
    a = DF64_B(a); b = DF64_B(b);
    return df64_quick_two_sum_inner(a, b);
}

// Knuth's TwoSum: s + e == a + b exactly.
vec2 df64_two_sum(float a, float b) {
    a = DF64_B(a); b = DF64_B(b);
    DF64_PRECISE float s = DF64_B(a + b);
    DF64_PRECISE float v = DF64_B(s - a);
    DF64_PRECISE float e = DF64_B(DF64_B(a - DF64_B(s - v)) + DF64_B(b - v));
    return vec2(s, e);
}

// TwoSum by magnitude: the operands ordered by one comparison and two selects, then
// QuickTwoSum (exact, since |big| >= |small|) with its error term as small + (big - s), which
// makes a zero e +0 as df64_two_sum does (small - (s - big) gives -0 where small is -0): the
// same s and e as df64_two_sum bit for bit, in three float operations fewer and no barrier
// inside the error term. Measured cheaper than df64_two_sum with its every-step barriers on
// ANGLE over Mesa, in the sum; dearer on NVIDIA (see DF64_TWO_SUM_KNUTH). Operands as
// df64_two_sum_inner's; df64_two_sum_sorted makes them opaque first.
vec2 df64_two_sum_sorted_inner(float a, float b) {
    bool swap = abs(b) > abs(a);
    float big = swap ? b : a;
    float small = swap ? a : b;
    DF64_PRECISE float s = DF64_B(big + small);
    DF64_PRECISE float e = small + (big - s);
    return vec2(s, e);
}

vec2 df64_two_sum_sorted(float a, float b) {
    a = DF64_B(a); b = DF64_B(b);
    return df64_two_sum_sorted_inner(a, b);
}

// The sum's TwoSum: the sorted form by default, Knuth's with DF64_TWO_SUM_KNUTH 1. Both give
// the same words, so the choice is the compiler's cost alone.
vec2 df64_two_sum_in_add(float a, float b) {
#if DF64_TWO_SUM_KNUTH
    return df64_two_sum_inner(a, b);
#else
    return df64_two_sum_sorted_inner(a, b);
#endif
}

// s + e == a - b exactly.
vec2 df64_two_diff(float a, float b) {
    a = DF64_B(a); b = DF64_B(b);
    DF64_PRECISE float s = DF64_B(a - b);
    DF64_PRECISE float v = DF64_B(s - a);
    DF64_PRECISE float e = DF64_B(DF64_B(a - DF64_B(s - v)) - DF64_B(b + v));
    return vec2(s, e);
}

// Dekker's split into two 12-bit halves (Veltkamp's, through 4097 a), guarded against
// overflow: the probe's measure of how a driver rounds; the routines split from the bits.
vec2 df64_split(float a) {
    a = DF64_B(a);
    if (abs(a) > DF64_SPLIT_THRESHOLD) {
        DF64_PRECISE float s = DF64_B(a * DF64_SPLIT_DOWN);
        DF64_PRECISE float t = DF64_B(4097.0 * s);
        DF64_PRECISE float hi = DF64_B(t - DF64_B(t - s));
        DF64_PRECISE float lo = DF64_B(s - hi);
        DF64_PRECISE float rh = DF64_B(hi * DF64_SPLIT_UP);
        DF64_PRECISE float rl = DF64_B(lo * DF64_SPLIT_UP);
        return vec2(rh, rl);
    }
    DF64_PRECISE float t = DF64_B(4097.0 * a);
    DF64_PRECISE float hi = DF64_B(t - DF64_B(t - a));
    DF64_PRECISE float lo = DF64_B(a - hi);
    return vec2(hi, lo);
}

// The same split from the bits: a rounded to its 12 leading bits by an integer add and mask
// (hi), and the exact rest a - hi (at most 12 bits, |lo| <= 2^-12 |a|). Integer operations are
// out of reach of every float rewrite, so it needs no barrier, and it is three operations where
// Veltkamp's is four. Exact for |a| < (2 - 2^-12) 2^127; above, hi rounds up to inf.
vec2 df64_split_bits(float a) {
    DF64_PRECISE float hi = intBitsToFloat((floatBitsToInt(a) + 0x800) & int(0xfffff000));
    DF64_PRECISE float lo = a - hi;
    return vec2(hi, lo);
}

// Dekker's TwoProduct through Veltkamp's split (the probe's and Thall's version).
vec2 df64_two_prod_dekker(float a, float b) {
    a = DF64_B(a); b = DF64_B(b);
    DF64_PRECISE float p = DF64_B(a * b);
    DF64_PRECISE vec2 sa = df64_split(a);
    DF64_PRECISE vec2 sb = df64_split(b);
    DF64_PRECISE float e = DF64_B(DF64_B(DF64_B(DF64_B(DF64_B(sa.x * sb.x) - p)
            + DF64_B(sa.x * sb.y)) + DF64_B(sa.y * sb.x)) + DF64_B(sa.y * sb.y));
    return vec2(p, e);
}

// Dekker's TwoProduct on the bit split: the products of halves are exact and so is each
// partial sum, whatever a compiler contracts; the rounded product p is the one value a
// contraction could replace (by the exact a*b), hence its barrier. |a|, |b| < 2^127.
vec2 df64_two_prod_bits_inner(float a, float b) {
    DF64_PRECISE float p = DF64_B(a * b);
    DF64_PRECISE vec2 sa = df64_split_bits(a);
    DF64_PRECISE vec2 sb = df64_split_bits(b);
    DF64_PRECISE float e = (((sa.x * sb.x - p) + sa.x * sb.y) + sa.y * sb.x) + sa.y * sb.y;
    return vec2(p, e);
}

// With its operands opaque, for any caller (one of them may be a rounded product: a - hi
// would fuse with it).
vec2 df64_two_prod_bits(float a, float b) {
    a = DF64_B(a); b = DF64_B(b);
    return df64_two_prod_bits_inner(a, b);
}

#if __VERSION__ >= 400
vec2 df64_two_prod_fma(float a, float b) {
    a = DF64_B(a); b = DF64_B(b);
    DF64_PRECISE float p = DF64_B(a * b);
    DF64_PRECISE float e = fma(a, b, -p);
    return vec2(p, e);
}
#endif

// p + e == a * b exactly, for |a|, |b| < 2^127 (the routines' operands are scaled far below).
vec2 df64_two_prod(float a, float b) {
#if DF64_TWOPROD_FMA
    return df64_two_prod_fma(a, b);
#else
    return df64_two_prod_bits(a, b);
#endif
}

// The cores' TwoProduct (operands as df64_two_sum_inner's).
vec2 df64_two_prod_inner(float a, float b) {
#if DF64_TWOPROD_FMA
    return df64_two_prod_fma(a, b);
#else
    return df64_two_prod_bits_inner(a, b);
#endif
}

// p + e == a * a exactly, for |a| < 2^127 (operands as df64_two_sum_inner's).
vec2 df64_two_sqr_inner(float a) {
    DF64_PRECISE float p = DF64_B(a * a);
    DF64_PRECISE vec2 s = df64_split_bits(a);
    DF64_PRECISE float e = ((s.x * s.x - p) + (2.0 * s.x) * s.y) + s.y * s.y;
    return vec2(p, e);
}

vec2 df64_two_sqr(float a) {
    a = DF64_B(a);
    return df64_two_sqr_inner(a);
}

// From the bits: some compilers assume no inf or NaN and fold isinf/isnan away.
bool df64_nonfinite(float x) { return (floatBitsToInt(x) & 0x7f800000) == 0x7f800000; }
bool df64_isnan(float x) { return (floatBitsToInt(x) & 0x7fffffff) > 0x7f800000; }
bool df64_isinf(float x) { return (floatBitsToInt(x) & 0x7fffffff) == 0x7f800000; }

// NaN and +inf from bits (0.0 / 0.0 and 1.0 / 0.0 are undefined in GLSL ES, and folded).
// The bits pass through a function parameter: a bit pattern of NaN or inf in a constant
// expression is an error in WGSL, which the WGSL export is translated into.
float df64_float_from_bits(int bits) { return intBitsToFloat(bits); }
vec2 df64_nan() { return vec2(df64_float_from_bits(0x7fc00000), 0.0); }
float df64_inf() { return df64_float_from_bits(0x7f800000); }
// ±inf with the sign of x.
float df64_signed_inf(float x) {
    return intBitsToFloat((floatBitsToInt(x) & int(0x80000000)) | 0x7f800000);
}

// Overflowed or NaN results become (hi, 0), so inf stays inf as in IEEE.
vec2 df64_finish(vec2 r) { return df64_nonfinite(r.x) ? vec2(r.x, 0.0) : r; }

// ---------------------------------------------------------------- exponent scaling

// 2^k for -126 <= k <= 127, exactly, from its bits (exp2 is not exact on every driver: on
// llvmpipe it cost qf128 its last two words).
float df64_pow2(int k) { return intBitsToFloat((k + 127) << 23); }

// The biased exponent field of x: 0 for zero and subnormals, 255 for inf and NaN.
int df64_biased_exponent(float x) { return (floatBitsToInt(x) >> 23) & 0xff; }

// k such that x * 2^k has magnitude in [1, 4): x nonzero and finite (a subnormal counts as
// 2^-126, so it lands in (2^-23, 1)).
int df64_normalizer(float x) { return max(127 - max(df64_biased_exponent(x), 1), -126); }

// ±0 with the sign of x.
float df64_signed_zero(float x) { return intBitsToFloat(floatBitsToInt(x) & int(0x80000000)); }

// r * 2^n for a result of the scaled core (|r.x| in [2^-3, 2^5]) and any n: the first factor
// keeps the high word normal, the second rounds it once, so it is exact unless the result
// overflows (then (±inf, 0)) or underflows (then ±0, or the low word flushed or rounded).
vec2 df64_scale(vec2 r, int n) {
    int n1 = clamp(n, -120, 120);
    DF64_PRECISE vec2 s = r * df64_pow2(n1);
    DF64_PRECISE vec2 t = s * df64_pow2(clamp(n - n1, -126, 127));
    return df64_finish(t);
}

// The scale of x as the bits of a power of two: 2^(E-127) for x's biased exponent E taken in
// [1, 253] (zero and subnormals count as 2^-126, magnitudes from 2^127 as 2^126). A float
// clamp and one mask: integer min, max and clamp cost several operations each on the
// software renderers (on SwiftShader, in one scratch run, the accurate mul cost 14 to 17 ns
// against 6 for its core; its operands' scaling by df64_normalizer alone added 3.5 to 4).
#define DF64_MIN_NORMAL 1.17549435e-38
#define DF64_POW2_126 8.50705917e37
int df64_scale_bits(float x) { return floatBitsToInt(clamp(abs(x), DF64_MIN_NORMAL, DF64_POW2_126)) & 0x7f800000; }
// 2^(E-127) and 2^(127-E) for those bits: normal floats from 2^-126 to 2^126, and x times the
// second has magnitude in [1, 4) (in (2^-23, 1) for a subnormal x).
float df64_scale_up(int bits) { return intBitsToFloat(bits); }
float df64_scale_down(int bits) { return intBitsToFloat(0x7f000000 - bits); }
// Both operands' scales at once, the same words: on SwiftShader (Chromium 156) the vector forms
// cost the accurate mul 4.98 ns where two scalar ones cost 6.32, div 13.9 against 16.7 and
// mul_f32 4.21 against 4.70 (one scratch run, 2026-11-28; Chromium 148 alike); ANGLE over Mesa
// and llvmpipe run both forms alike.
ivec2 df64_scale_bits(vec2 x) { return floatBitsToInt(clamp(abs(x), DF64_MIN_NORMAL, DF64_POW2_126)) & 0x7f800000; }
vec2 df64_scale_up(ivec2 bits) { return intBitsToFloat(bits); }
vec2 df64_scale_down(ivec2 bits) { return intBitsToFloat(0x7f000000 - bits); }

// The scale of a product's operand: as df64_scale_bits with E taken in [64, 190] (2^-63 to
// 2^63), so that the product of two scales is a normal float and the result comes back in one
// multiply, not df64_rescale's selects (on SwiftShader, in one scratch run, the accurate mul
// took 10.0 to 12.5 ns with them and 7.7 to 8.2 without). An operand beyond stays 2^-63 or
// 2^63 times larger or smaller than [1, 2): in [2^-86, 1) or [2, 2^65). For a product in the
// domain the other operand is then in [1, 2) or beyond the other way, so the core's product
// lies in [2^-37, 2^65), its smallest terms about 2^-72 of it stay normal, and its words are
// the ones a scaling to [1, 2) gives; a product under the domain comes back as IEEE's
// underflow (one rounding of the high word).
#define DF64_POW2_M63 1.08420217e-19
#define DF64_POW2_63 9.22337204e18
int df64_product_scale_bits(float x) { return floatBitsToInt(clamp(abs(x), DF64_POW2_M63, DF64_POW2_63)) & 0x7f800000; }
ivec2 df64_product_scale_bits(vec2 x) { return floatBitsToInt(clamp(abs(x), DF64_POW2_M63, DF64_POW2_63)) & 0x7f800000; }

// r * f * g for powers of two f, g from 2^-126 to 2^126 and a result r of a scaled core
// (|r.x| in (2^-46, 16)): one rounding of the high word. Where f g is outside the normal range
// (a quotient's factor reaches 2^252) the factors are 2^64 f g then 2^-64 (or 2^-64 f g then
// 2^64), so the first product stays exact and the second rounds once; the result then
// underflows (±0, or the low word flushed or rounded) or overflows.
vec2 df64_rescale(vec2 r, float f, float g) {
    float fg = f * g;
    bool tiny = fg < DF64_MIN_NORMAL;
    bool huge = fg > DF64_POW2_126;
    float f1 = tiny ? (f * 1.8446744e19) * g : huge ? (f * 5.421011e-20) * g : fg;
    float f2 = tiny ? 5.421011e-20 : huge ? 1.8446744e19 : 1.0;
    DF64_PRECISE vec2 t = (r * f1) * f2;
    return t;
}

// Zero, infinite or NaN, from the bits in one unsigned compare: the high words' IEEE result
// (product or quotient) is then the answer. A flushing driver's subnormal result is zero.
bool df64_ieee_special(float x) { return (floatBitsToUint(x) & 0x7fffffffu) - 1u >= 0x7f7fffffu; }

// (x, 0) where x, the IEEE result of the high words, is zero, infinite or NaN; otherwise r,
// (±inf, 0) where r overflowed. Selects, no || (software renderers run each as a branch).
vec2 df64_ieee_or(float x, vec2 r) {
    DF64_PRECISE vec2 s = df64_ieee_special(x) ? vec2(x, 0.0) : r;
    return df64_finish(s);
}

// Zero, infinite or NaN high words: the IEEE product of the high words is the answer. Zero
// by a float comparison (a flushing driver's subnormal is zero, as in the mirror), the rest
// from the bits; for two operands one comparison each, no chain of ||s (software renderers
// run each as a branch).
bool df64_special(float x) { return any(bvec2(x == 0.0, (floatBitsToUint(x) & 0x7fffffffu) >= 0x7f800000u)); }
bool df64_special2(float a, float b) {
    return any(bvec2(min(abs(a), abs(b)) == 0.0,
            max(floatBitsToUint(a) & 0x7fffffffu, floatBitsToUint(b) & 0x7fffffffu) >= 0x7f800000u));
}

// ---------------------------------------------------------------- addition
//
// The accurate routines are a core of error-free transforms (no special values, no scaling:
// the *_core functions, for operands the caller has brought into range), an exponent scaling
// that runs on every call (branch-free: on SIMD hardware, and on the software renderers that
// run pixels as SIMD lanes, both sides of a branch run) and a select for IEEE's special values.

// Thall's df64_add (QD's IEEE add), as published.
vec2 df64_add_thall(vec2 a, vec2 b) {
    a = DF64_B(a); b = DF64_B(b);
    DF64_PRECISE vec2 s = df64_two_sum(a.x, b.x);
    DF64_PRECISE vec2 t = df64_two_sum(a.y, b.y);
    s.y = s.y + t.x;
    s = df64_quick_two_sum(s.x, s.y);
    s.y = s.y + t.y;
    s = df64_quick_two_sum(s.x, s.y);
    return s;
}

// QD's sloppy add: no error bound when a and b nearly cancel.
vec2 df64_add_sloppy(vec2 a, vec2 b) {
    a = DF64_B(a); b = DF64_B(b);
    DF64_PRECISE vec2 s = df64_two_sum(a.x, b.x);
    DF64_PRECISE float e = s.y + (a.y + b.y);
    return df64_quick_two_sum(s.x, e);
}

// The accurate sum's core: the four terms summed error-free down to one rounding of the low
// word. Finite operands; error terms below 2^-126 are lost on flushing drivers. s.x + u.x is
// QuickTwoSum's (exact: Joldes, Muller and Popescu's AccurateDWPlusDW adds s.x and the
// rounded s.y + t.x the same way), so it gives the same words as with TwoSum there.
vec2 df64_add_core(vec2 a, vec2 b) {
    DF64_PRECISE vec2 s = df64_two_sum_in_add(a.x, b.x);
    DF64_PRECISE vec2 t = df64_two_sum_in_add(a.y, b.y);
    DF64_PRECISE vec2 u = df64_two_sum_in_add(s.y, t.x);
    DF64_PRECISE float w = u.y + t.y;
    DF64_PRECISE vec2 h = df64_quick_two_sum_inner(s.x, u.x);
    DF64_PRECISE float lo = h.y + w;
    return df64_quick_two_sum_inner(h.x, lo);
}

// Accurate add without scaling: results under 2^-77 can miss the bound on flushing drivers.
vec2 df64_add_unscaled(vec2 a, vec2 b) {
    a = DF64_B(a); b = DF64_B(b);
    DF64_PRECISE float s = a.x + b.x;
    return df64_nonfinite(s) ? vec2(s, 0.0) : df64_finish(df64_add_core(a, b));
}

// Da Graca and Defour's Add22 (their Theorem 5), for their Table 5.
vec2 df64_add_dagraca(vec2 a, vec2 b) {
    a = DF64_B(a); b = DF64_B(b);
    DF64_PRECISE float r = DF64_B(a.x + b.x);
    DF64_PRECISE float s;
    if (abs(a.x) >= abs(b.x)) s = DF64_B(DF64_B(DF64_B(DF64_B(a.x - r) + b.x) + b.y) + a.y);
    else s = DF64_B(DF64_B(DF64_B(DF64_B(b.x - r) + a.x) + a.y) + b.y);
    return df64_two_sum(r, s);
}

// Accurate add at every exponent: operands both under 2^-40 are lifted by 2^80 (exact) so that
// no error term falls below f32's normal range, and the sum is brought back with one rounding.
vec2 df64_add(vec2 a, vec2 b) {
    a = DF64_B(a); b = DF64_B(b);
    float big = max(abs(a.x), abs(b.x));
    bool tiny = big < df64_pow2(-40);
    float up = tiny ? df64_pow2(80) : 1.0;
    float down = tiny ? df64_pow2(-80) : 1.0;
    DF64_PRECISE float s = a.x + b.x;
    DF64_PRECISE vec2 r = df64_add_core(a * up, b * up) * down;
    // Infinite or NaN sums as IEEE; -0 + -0 is -0 (the error-free sum would give +0). any(),
    // not ||: software renderers run each || as a branch (0.7 ns of the add on SwiftShader).
    // An overflowed r is (r.x, 0), as df64_finish makes it, folded into the same selects: one
    // select a word instead of two (0.35 to 0.4 ns of the add's 4.2 to 4.7 on SwiftShader).
    bool ieee = any(bvec2(df64_nonfinite(s), big == 0.0));
    return vec2(ieee ? s : r.x, any(bvec2(ieee, df64_nonfinite(r.x))) ? 0.0 : r.y);
}

vec2 df64_neg(vec2 a) { return -a; }

vec2 df64_sub(vec2 a, vec2 b) { return df64_add(a, -b); }

vec2 df64_sub_unscaled(vec2 a, vec2 b) { return df64_add_unscaled(a, -b); }

vec2 df64_sub_thall(vec2 a, vec2 b) { return df64_add_thall(a, -b); }

// ---------------------------------------------------------------- multiplication

// Thall's df64_mult, as published.
vec2 df64_mul_thall(vec2 a, vec2 b) {
    a = DF64_B(a); b = DF64_B(b);
    DF64_PRECISE vec2 p = df64_two_prod(a.x, b.x);
    p.y = p.y + DF64_B(a.x * b.y);
    p.y = p.y + DF64_B(a.y * b.x);
    return df64_quick_two_sum(p.x, p.y);
}

// Da Graca and Defour's Mul22 (Dekker's), for their Table 5.
vec2 df64_mul_dagraca(vec2 a, vec2 b) {
    a = DF64_B(a); b = DF64_B(b);
    DF64_PRECISE vec2 t = df64_two_prod(a.x, b.x);
    DF64_PRECISE float t3 = DF64_B(DF64_B(DF64_B(a.x * b.y) + DF64_B(a.y * b.x)) + t.y);
    return df64_two_sum(t.x, t3);
}

// The accurate product's core: cross products error-free, one rounding of the low word. The
// cross products' rounded words enter TwoSum as TwoProduct made them (opaque).
vec2 df64_mul_core(vec2 a, vec2 b) {
    DF64_PRECISE vec2 p = df64_two_prod_inner(a.x, b.x);
    DF64_PRECISE vec2 c1 = df64_two_prod_inner(a.x, b.y);
    DF64_PRECISE vec2 c2 = df64_two_prod_inner(a.y, b.x);
    DF64_PRECISE vec2 t = df64_two_sum_inner(c1.x, c2.x);
    DF64_PRECISE vec2 t2 = df64_two_sum_inner(p.y, t.x);
    DF64_PRECISE float low = ((t.y + t2.y) + (c1.y + c2.y)) + DF64_B(a.y * b.y);
    DF64_PRECISE vec2 h = df64_quick_two_sum_inner(p.x, t2.x);
    DF64_PRECISE float lo = h.y + low;
    return df64_quick_two_sum_inner(h.x, lo);
}

// Accurate multiply without scaling: the bound holds for operands and results of magnitude
// 2^-40 to 2^126.
vec2 df64_mul_unscaled(vec2 a, vec2 b) {
    a = DF64_B(a); b = DF64_B(b);
    DF64_PRECISE float p = a.x * b.x;
    return df64_nonfinite(p) ? vec2(p, 0.0) : df64_finish(df64_mul_core(a, b));
}

// Accurate multiply at every exponent: both operands scaled by exact powers of two (to [1, 2)
// from 2^-63 to 2^64), multiplied, and the product scaled back with one rounding.
vec2 df64_mul(vec2 a, vec2 b) {
    a = DF64_B(a); b = DF64_B(b);
    ivec2 e = df64_product_scale_bits(vec2(a.x, b.x));
    vec2 down = df64_scale_down(e);
    DF64_PRECISE vec2 r = df64_mul_core(a * down.x, b * down.y);
    DF64_PRECISE float p = a.x * b.x;
    vec2 up = df64_scale_up(e);
    DF64_PRECISE vec2 t = r * (up.x * up.y);
    return df64_ieee_or(p, t);
}

// Thall's df64_sqr.
vec2 df64_sqr_thall(vec2 a) {
    a = DF64_B(a);
    DF64_PRECISE vec2 p = df64_two_sqr(a.x);
    p.y = p.y + DF64_B((2.0 * a.x) * a.y);
    return df64_quick_two_sum(p.x, p.y);
}

// The accurate square's core.
vec2 df64_sqr_core(vec2 a) {
    DF64_PRECISE vec2 p = df64_two_sqr_inner(a.x);
    DF64_PRECISE vec2 c = df64_two_prod_inner(a.x, a.y);
    DF64_PRECISE vec2 t2 = df64_two_sum_inner(p.y, 2.0 * c.x);
    DF64_PRECISE float low = (t2.y + 2.0 * c.y) + DF64_B(a.y * a.y);
    DF64_PRECISE vec2 h = df64_quick_two_sum_inner(p.x, t2.x);
    DF64_PRECISE float lo = h.y + low;
    return df64_quick_two_sum_inner(h.x, lo);
}

// Accurate square without scaling (domain as df64_mul_unscaled).
vec2 df64_sqr_unscaled(vec2 a) {
    a = DF64_B(a);
    DF64_PRECISE float p = a.x * a.x;
    return df64_nonfinite(p) ? vec2(p, 0.0) : df64_finish(df64_sqr_core(a));
}

// Accurate square at every exponent.
vec2 df64_sqr(vec2 a) {
    a = DF64_B(a);
    int e = df64_product_scale_bits(a.x);
    DF64_PRECISE vec2 r = df64_sqr_core(a * df64_scale_down(e));
    DF64_PRECISE float p = a.x * a.x;
    DF64_PRECISE vec2 t = r * (df64_scale_up(e) * df64_scale_up(e));
    return df64_ieee_or(p, t);
}

// a * b for a float b: the core.
vec2 df64_mul_f32_core(vec2 a, float b) {
    DF64_PRECISE vec2 p = df64_two_prod_inner(a.x, b);
    DF64_PRECISE vec2 c = df64_two_prod_inner(a.y, b);
    DF64_PRECISE vec2 t2 = df64_two_sum_inner(p.y, c.x);
    DF64_PRECISE float low = t2.y + c.y;
    DF64_PRECISE vec2 h = df64_quick_two_sum_inner(p.x, t2.x);
    DF64_PRECISE float lo = h.y + low;
    return df64_quick_two_sum_inner(h.x, lo);
}

// a * b for a float b, accurate, without scaling (domain as df64_mul_unscaled).
vec2 df64_mul_f32_unscaled(vec2 a, float b) {
    a = DF64_B(a); b = DF64_B(b);
    DF64_PRECISE float p = a.x * b;
    return df64_nonfinite(p) ? vec2(p, 0.0) : df64_finish(df64_mul_f32_core(a, b));
}

// a * b for a float b, accurate at every exponent.
vec2 df64_mul_f32(vec2 a, float b) {
    a = DF64_B(a); b = DF64_B(b);
    ivec2 e = df64_product_scale_bits(vec2(a.x, b));
    vec2 down = df64_scale_down(e);
    DF64_PRECISE vec2 r = df64_mul_f32_core(a * down.x, b * down.y);
    DF64_PRECISE float p = a.x * b;
    vec2 up = df64_scale_up(e);
    DF64_PRECISE vec2 t = r * (up.x * up.y);
    return df64_ieee_or(p, t);
}

// ---------------------------------------------------------------- the fast tier

// The fast tier: for shaders that pay per pixel or per vertex and keep their values in a
// known range (positions relative to an origin, colours, normalised times). The error-free
// cores with no exponent scaling and no IEEE special values, for operands and results that
// are zero or of magnitude 2^-40 to 2^126 (the *_unscaled domain); outside it there is no
// bound (an infinity or NaN operand gives a NaN or an infinity, never a finite value).
// add, sub, div and sqrt are the accurate cores themselves (0.5, 0.5, 1 and 0.5 ulp48 there);
// mul, sqr and mul_f32 form only the high words' product error-free: the cross products
// a.x*b.y and a.y*b.x are rounded once each (each at most 0.5 ulp48 of the result),
// everything after them is summed error-free down to the final rounding of the low word
// (0.5 ulp48): 1.5 at most, bound 2.

vec2 df64_add_fast(vec2 a, vec2 b) {
    a = DF64_B(a); b = DF64_B(b);
    return df64_add_core(a, b);
}

vec2 df64_sub_fast(vec2 a, vec2 b) { return df64_add_fast(a, -b); }

vec2 df64_mul_fast(vec2 a, vec2 b) {
    a = DF64_B(a); b = DF64_B(b);
    DF64_PRECISE vec2 p = df64_two_prod_inner(a.x, b.x);
    // The rounded cross products enter TwoSum opaque: a contraction would fuse them into it.
    DF64_PRECISE vec2 t = df64_two_sum_inner(DF64_B(a.x * b.y), DF64_B(a.y * b.x));
    DF64_PRECISE vec2 t2 = df64_two_sum_inner(p.y, t.x);
    DF64_PRECISE float low = (t.y + t2.y) + DF64_B(a.y * b.y);
    DF64_PRECISE vec2 h = df64_quick_two_sum_inner(p.x, t2.x);
    DF64_PRECISE float lo = h.y + low;
    return df64_quick_two_sum_inner(h.x, lo);
}

// The one cross product 2*a.x*a.y rounded once (at most 1 ulp48), the rest as df64_mul_fast.
vec2 df64_sqr_fast(vec2 a) {
    a = DF64_B(a);
    DF64_PRECISE vec2 p = df64_two_sqr_inner(a.x);
    DF64_PRECISE float c = DF64_B((2.0 * a.x) * a.y);
    DF64_PRECISE vec2 t2 = df64_two_sum_inner(p.y, c);
    DF64_PRECISE float low = t2.y + DF64_B(a.y * a.y);
    DF64_PRECISE vec2 h = df64_quick_two_sum_inner(p.x, t2.x);
    DF64_PRECISE float lo = h.y + low;
    return df64_quick_two_sum_inner(h.x, lo);
}

// a * b for a float b: a.y*b rounded once (at most 0.5 ulp48), the rest as df64_mul_fast.
vec2 df64_mul_f32_fast(vec2 a, float b) {
    a = DF64_B(a); b = DF64_B(b);
    DF64_PRECISE vec2 p = df64_two_prod_inner(a.x, b);
    DF64_PRECISE vec2 t2 = df64_two_sum_inner(p.y, DF64_B(a.y * b));
    DF64_PRECISE vec2 h = df64_quick_two_sum_inner(p.x, t2.x);
    DF64_PRECISE float lo = h.y + t2.y;
    return df64_quick_two_sum_inner(h.x, lo);
}

// The exponent e of frexp (x = m 2^e, m in [0.5, 1)) for a normal, nonzero x, from its bits
// (frexp itself needs GLSL 4.00).
int df64_exponent(float x) { return ((floatBitsToInt(x) >> 23) & 0xff) - 126; }

// a * 2^n: exact unless it overflows or underflows. Not the builtin ldexp: on NVIDIA 580
// (GLSL 4.60) df64_log(3e38) came out NaN through it (ldexp(m, -128), as if by a float 2^-128
// flushed to 0), and the same routine here is right. Three power-of-two factors instead, each a normal float: the last is
// 2^n where |n| <= 126, and the two before it (same sign) are exact whenever the result is
// nonzero and finite, so it rounds once, as ldexp does. |n| is clamped to 280: beyond, every
// nonzero f32 over- or underflows.
vec2 df64_ldexp(vec2 a, int n) {
    a = DF64_B(a);
    n = clamp(n, -280, 280);
    int last = clamp(n, -126, 126);
    int rest = n - last;
    int h = rest / 2;
    DF64_PRECISE vec2 r = DF64_B(DF64_B(a * df64_pow2(h)) * df64_pow2(rest - h));
    r = DF64_B(r * df64_pow2(last));
    return df64_finish(r);
}

// ---------------------------------------------------------------- division

// Thall's Karp division (his Fig. 1): B / A.
vec2 df64_div_thall(vec2 B, vec2 A) {
    B = DF64_B(B); A = DF64_B(A);
    DF64_PRECISE float xn = DF64_B(1.0 / A.x);
    DF64_PRECISE float yn = DF64_B(B.x * xn);
    DF64_PRECISE float diff = df64_sub_thall(B, df64_mul_thall(A, vec2(yn, 0.0))).x;
    DF64_PRECISE vec2 prod = df64_two_prod(xn, diff);
    return df64_add_thall(vec2(yn, 0.0), prod);
}

// The accurate quotient's core: long division with three quotient terms (QD's accurate div),
// for finite operands with a finite quotient.
vec2 df64_div_core(vec2 a, vec2 b) {
    DF64_PRECISE float q1 = DF64_B(a.x / b.x);
    DF64_PRECISE vec2 p = df64_two_prod(q1, b.x);
    DF64_PRECISE vec2 pl = df64_two_prod(q1, b.y);
    DF64_PRECISE float d = a.x - p.x;
    DF64_PRECISE vec2 s1 = df64_two_sum(d, a.y);
    DF64_PRECISE vec2 s2 = df64_two_sum(p.y, pl.x);
    DF64_PRECISE vec2 r0 = df64_two_diff(s1.x, s2.x);
    DF64_PRECISE float rl = ((s1.y - s2.y) + r0.y) - pl.y;
    DF64_PRECISE vec2 r = df64_quick_two_sum(r0.x, rl);
    DF64_PRECISE float q2 = DF64_B(r.x / b.x);
    DF64_PRECISE vec2 p2 = df64_two_prod(q2, b.x);
    DF64_PRECISE float r2 = ((r.x - p2.x) + (r.y - p2.y)) - DF64_B(q2 * b.y);
    DF64_PRECISE float q3 = r2 / b.x;
    DF64_PRECISE vec2 h = df64_quick_two_sum(q1, q2);
    DF64_PRECISE float lo = h.y + q3;
    return df64_quick_two_sum(h.x, lo);
}

// Accurate division without scaling; domain as df64_mul_unscaled.
vec2 df64_div_unscaled(vec2 a, vec2 b) {
    a = DF64_B(a); b = DF64_B(b);
    DF64_PRECISE float q1 = a.x / b.x;
    // Infinite or NaN quotients, and x / inf (= 0 or NaN), are final as they stand.
    return any(bvec2(df64_nonfinite(q1), df64_nonfinite(b.x))) ? vec2(q1, 0.0) : df64_finish(df64_div_core(a, b));
}

// Zero, infinite or NaN operands of a division, as IEEE (sign from both operands).
vec2 df64_div_special(float a, float b) {
    float sign_of = intBitsToFloat(floatBitsToInt(a) ^ (floatBitsToInt(b) & int(0x80000000)));
    // Selects only: it runs for every pixel on the software renderers, as a branch would.
    bool nan = any(bvec4(df64_isnan(a), df64_isnan(b), max(abs(a), abs(b)) == 0.0,
            all(bvec2(df64_nonfinite(a), df64_nonfinite(b)))));
    bool inf = any(bvec2(b == 0.0, df64_nonfinite(a)));
    vec2 r = vec2(inf ? df64_signed_inf(sign_of) : df64_signed_zero(sign_of), 0.0);
    return nan ? df64_nan() : r;
}

// Accurate division at every exponent: dividend and divisor scaled to [1, 4), the quotient
// (in (1/4, 4)) scaled back with one rounding.
vec2 df64_div(vec2 a, vec2 b) {
    a = DF64_B(a); b = DF64_B(b);
    ivec2 e = df64_scale_bits(vec2(a.x, b.x));
    vec2 down = df64_scale_down(e);
    DF64_PRECISE vec2 r = df64_div_core(a * down.x, b * down.y);
    r = df64_finish(df64_rescale(r, df64_scale_up(e.x), down.y));
    return df64_special2(a.x, b.x) ? df64_div_special(a.x, b.x) : r;
}

vec2 df64_recip(vec2 a) { return df64_div(vec2(1.0, 0.0), a); }

// The fast tier's quotient: the accurate core alone (1 ulp48 over the fast tier's domain).
vec2 df64_div_fast(vec2 a, vec2 b) {
    a = DF64_B(a); b = DF64_B(b);
    return df64_div_core(a, b);
}

vec2 df64_recip_thall(vec2 a) { return df64_div_thall(vec2(1.0, 0.0), a); }

// ---------------------------------------------------------------- square root

// sqrt of 0, negatives, infinities and NaN as IEEE: ±0 (and a subnormal the driver flushes)
// -> ±0, x < 0 -> NaN, +inf -> +inf, NaN -> NaN; from bits, the same on every target.
vec2 df64_sqrt_special(vec2 a) {
    vec2 r = any(bvec2(a.x < 0.0, df64_isnan(a.x))) ? df64_nan() : vec2(a.x, 0.0);
    return a.x == 0.0 ? vec2(df64_signed_zero(a.x), 0.0) : r;
}

// 2m such that a * 2^(2m) has magnitude in [1, 4): even, so the root scales back by 2^-m exactly.
int df64_even_normalizer(float x) { return -2 * ((max(df64_biased_exponent(x), 1) - 127) >> 1); }

// Thall's Karp square root (his Fig. 1).
vec2 df64_sqrt_thall(vec2 a) {
    a = DF64_B(a);
    if (a.x <= 0.0 || df64_nonfinite(a.x)) return df64_sqrt_special(a);
    DF64_PRECISE float xn = inversesqrt(a.x);
    DF64_PRECISE float yn = DF64_B(a.x * xn);
    DF64_PRECISE vec2 ynsqr = df64_sqr_thall(vec2(yn, 0.0));
    DF64_PRECISE float diff = df64_sub_thall(a, ynsqr).x;
    DF64_PRECISE vec2 p = df64_two_prod(xn, diff);
    DF64_PRECISE vec2 prod = p * 0.5;
    return df64_add_thall(vec2(yn, 0.0), prod);
}

// The accurate root's core, for a positive finite a of magnitude 2^-60 to 2^126: a Karp step
// from the f32 root, then one correction with an accurate residual r = a - s^2. The residual
// comes from exact words: s.x^2 and 2 s.x s.y as exact products, a.x - s.x^2 exact (Sterbenz),
// two TwoSums, and the sum of their leading words exact (they cancel to r within a factor 2,
// or are themselves under 2^-43 a); the rest are roundings under 2^-68 a.
vec2 df64_sqrt_core(vec2 a) {
    DF64_PRECISE float y = sqrt(a.x);
    DF64_PRECISE vec2 p = df64_two_sqr(y);
    DF64_PRECISE float d = ((a.x - p.x) - p.y) + a.y;
    DF64_PRECISE vec2 s1 = df64_quick_two_sum(y, d / (2.0 * y));
    DF64_PRECISE vec2 p2 = df64_two_sqr(s1.x);
    DF64_PRECISE vec2 q = df64_two_prod(2.0 * s1.x, s1.y);
    DF64_PRECISE vec2 u1 = df64_two_sum(-p2.y, -q.x);
    DF64_PRECISE vec2 u2 = df64_two_sum(DF64_B(a.x - p2.x), a.y);
    DF64_PRECISE float r = DF64_B(u2.x + u1.x) + (((u2.y + u1.y) - q.y) - DF64_B(s1.y * s1.y));
    DF64_PRECISE float lo = s1.y + r / (2.0 * s1.x);
    return df64_quick_two_sum(s1.x, lo);
}

// Accurate square root without scaling, for a of magnitude 2^-60 to 2^126.
vec2 df64_sqrt_unscaled(vec2 a) {
    a = DF64_B(a);
    return any(bvec2(a.x <= 0.0, df64_nonfinite(a.x))) ? df64_sqrt_special(a) : df64_finish(df64_sqrt_core(a));
}

// Accurate square root at every exponent: a scaled by an even power of two to [0.5, 4), its
// root scaled back exactly (no rounding: the root of any f32 is far inside the normal range).
// The factors from the scale's bits with the exponent's lowest bit cleared (even): 2^(126-E)
// and 2^((E-126)/2) for that even E, both normal.
vec2 df64_sqrt(vec2 a) {
    a = DF64_B(a);
    int e = df64_scale_bits(a.x) & 0x7f000000;
    DF64_PRECISE vec2 r = df64_sqrt_core(a * intBitsToFloat(0x7e800000 - e)) * intBitsToFloat((e >> 1) + 0x20000000);
    return any(bvec2(a.x <= 0.0, df64_nonfinite(a.x))) ? df64_sqrt_special(a) : r;
}

// The fast tier's root: the accurate core alone (0.5 ulp48 over the fast tier's domain), and
// sqrt(+-0) = +-0 (a zero length is common in geometry; the core would divide 0 by 0).
vec2 df64_sqrt_fast(vec2 a) {
    a = DF64_B(a);
    DF64_PRECISE vec2 r = df64_sqrt_core(a);
    return a.x == 0.0 ? vec2(a.x, 0.0) : r;
}

vec2 df64_rsqrt_thall(vec2 a) { return df64_recip_thall(df64_sqrt_thall(a)); }

// Accurate 1/sqrt(a) at every exponent: the root of the accurate reciprocal (which halves its
// relative error) of a scaled to [1, 4), scaled back exactly.
vec2 df64_rsqrt(vec2 a) {
    a = DF64_B(a);
    int k = df64_even_normalizer(a.x);
    DF64_PRECISE vec2 r = df64_sqrt_core(df64_div_core(vec2(1.0, 0.0), a * df64_pow2(k)))
            * df64_pow2(k / 2);
    if (a.x == 0.0) return vec2(df64_signed_inf(a.x), 0.0);
    if (a.x < 0.0 || df64_nonfinite(a.x)) return a.x > 0.0 ? vec2(0.0) : df64_nan();
    return r;
}

// ---------------------------------------------------------------- comparisons and friends

bool df64_eq(vec2 a, vec2 b) { a = DF64_B(a); b = DF64_B(b); return a.x == b.x && a.y == b.y; }
// Not equal as the negation of ==: Tint on SwiftShader (WebGPU) makes `x != y` false for a
// NaN (WGSL lets an implementation assume there are none); `!(x == y)` stays true.
bool df64_neq(vec2 a, vec2 b) { a = DF64_B(a); b = DF64_B(b); return !(a.x == b.x && a.y == b.y); }
bool df64_lt(vec2 a, vec2 b) {
    a = DF64_B(a); b = DF64_B(b);
    return a.x < b.x || (a.x == b.x && a.y < b.y);
}
bool df64_le(vec2 a, vec2 b) {
    a = DF64_B(a); b = DF64_B(b);
    return a.x < b.x || (a.x == b.x && a.y <= b.y);
}
bool df64_gt(vec2 a, vec2 b) {
    a = DF64_B(a); b = DF64_B(b);
    return a.x > b.x || (a.x == b.x && a.y > b.y);
}
bool df64_ge(vec2 a, vec2 b) {
    a = DF64_B(a); b = DF64_B(b);
    return a.x > b.x || (a.x == b.x && a.y >= b.y);
}

// |-0| is +0: compilers fold `x < 0 ? -x : x` into abs(x), so the zero's sign is set here.
vec2 df64_abs(vec2 a) { a = DF64_B(a); return a.x < 0.0 ? -a : vec2(abs(a.x), a.y); }
vec2 df64_min(vec2 a, vec2 b) { a = DF64_B(a); b = DF64_B(b); return df64_lt(b, a) ? b : a; }
vec2 df64_max(vec2 a, vec2 b) { a = DF64_B(a); b = DF64_B(b); return df64_gt(b, a) ? b : a; }

// ---------------------------------------------------------------- three-word sums

// Exact running sum in three words: the third absorbs roundings ~2^-72 below the first.
// The TwoSums are the cores' (df64_two_sum_inner), on opaque operands: the barriered a and t,
// and each error term made opaque before it is summed again. Without the barrier on s1.y,
// ANGLE over Mesa regrouped a.z + s1.y into s1.y's own sum: atan, atan2, asin and acos came
// out a few ulps of the low word off the mirror (measured); s0.y's is there for the same
// rewrite of a.y + s0.y. Against the public transform's every-step barriers, this takes 10 %
// off the instructions, and about as much off the time, of a check of every routine on
// SwiftShader (docs/web.md).
vec3 df64_acc3(vec3 a, float t) {
    a = DF64_B(a); t = DF64_B(t);
    DF64_PRECISE vec2 s0 = df64_two_sum_inner(a.x, t);
    DF64_PRECISE vec2 s1 = df64_two_sum_inner(a.y, DF64_B(s0.y));
    DF64_PRECISE float s2 = DF64_B(a.z + DF64_B(s1.y));
    return vec3(s0.x, s1.x, s2);
}

// A three-word sum (from df64_acc3) rounded once to a df64.
vec2 df64_round3(vec3 a) {
    a = DF64_B(a);
    DF64_PRECISE vec2 h = df64_two_sum_inner(a.x, a.y);
    DF64_PRECISE float lo = DF64_B(DF64_B(h.y) + a.z);
    return df64_quick_two_sum(h.x, lo);
}

// sqrt(w) for a three-word w > 0 whose root lies in [2^-30, 2^30]: the accurate df64 root s and
// (w - s^2) / 2s, the remainder formed with exact products, as a third word.
vec3 df64_sqrt3(vec3 w) {
    w = DF64_B(w);
    DF64_PRECISE vec2 s = df64_sqrt(w.xy);
    if (s.x == 0.0) return vec3(s.x, 0.0, 0.0);
    DF64_PRECISE vec2 p = df64_two_prod(s.x, s.x);
    DF64_PRECISE vec2 q = df64_two_prod(DF64_B(2.0 * s.x), s.y);
    DF64_PRECISE vec3 r = w;
    r = df64_acc3(r, -p.x);
    r = df64_acc3(r, -p.y);
    r = df64_acc3(r, -q.x);
    r = df64_acc3(r, -q.y);
    r = df64_acc3(r, -DF64_B(s.y * s.y));
    DF64_PRECISE float ds = DF64_B(DF64_B(DF64_B(r.x + r.y) + r.z) / DF64_B(2.0 * s.x));
    return vec3(s, ds);
}

// ---------------------------------------------------------------- Payne and Hanek's reduction

// (For the trigonometry of df64_func.glsl and qf128.glsl, above 2^23.)
// 2/pi in base 4096: 2/pi = the sum of DF64_TWO_OVER_PI_DIGITS[i - 1] 2^(-12 i), i = 1..32
// (384 bits: an f32 exponent moves the window by at most 104 bits, the reduction keeps 240
// below the point, and the multiplier spans three digits).
const int DF64_TWO_OVER_PI_DIGITS[32] = int[](
    2607, 2435, 1764, 3652, 338, 2556, 629, 2001,
    3923, 1245, 3085, 2914, 2393, 2364, 1081, 65,
    4069, 355, 2749, 3771, 3158, 439, 582, 3642,
    1060, 3538, 3584, 1609, 750, 2569, 3353, 540);

int df64_two_over_pi_digit(int i) {
    int c = clamp(i, 1, 32);
    return (i >= 1 && i <= 32) ? DF64_TWO_OVER_PI_DIGITS[c - 1] : 0;
}

// Payne and Hanek's reduction in integer arithmetic (exact on every driver, and no float
// rewrite applies to it). For x the sum of the first `words` words of w (w.x the largest,
// nonzero and finite): |x| 2/pi = n + f with n an integer and |f| <= 1/2; returns (n mod 4, f)
// signed as x (x 2/pi = -n - f for a negative x), f = (f03 + f4) 2^f_exp in five exact words
// (the first an integer of 13 to 24 bits, each next one below 2^-24 of the one before;
// together within 2^(f_exp - 96) + 2^-224 of f, at least 108 bits of it).
// Each word m 2^e (m < 2^24) times the digits of 2/pi is summed in 12-bit columns: digit 0
// holds the integer part (only its value mod 4 matters, so the digits above it are never
// formed), digits 1 to 20 the fraction.
int df64_reduce_long(vec4 w, int words, out vec4 f03, out float f4, out int f_exp) {
    w = DF64_B(w);
    int acc[21];
    for (int p = 0; p < 21; ++p) acc[p] = 0;
    bool neg = w.x < 0.0;
    for (int k = 0; k < words; ++k) {
        float x = k == 0 ? w.x : (k == 1 ? w.y : (k == 2 ? w.z : w.w));
        int bits = floatBitsToInt(x);
        int be = (bits >> 23) & 0xff;
        if (x == 0.0 || be == 0xff) continue;
        int m = (bits & 0x7fffff) | (be == 0 ? 0 : 0x800000);
        int bn = max(be, 1);
        int e = bn - 150;
        // x = m 2^e = m 2^s 4096^q with 0 <= s < 12, and m 2^s < 2^36 in three digits.
        int q = (e + 1200) / 12 - 100;
        int s = e - 12 * q;
        int low = (m & 0xfff) << s;
        int high = (m >> 12) << s;
        int m0 = low & 0xfff;
        int m1 = (low >> 12) + (high & 0xfff);
        int m2 = high >> 12;
        int sg = ((x < 0.0) != neg) ? -1 : 1;
        // The window of 2/pi this word needs, read once (23 table reads, not 63).
        int d[23];
        for (int i = 0; i < 23; ++i) d[i] = df64_two_over_pi_digit(q + i);
        for (int p = 0; p < 21; ++p) {
            acc[p] = acc[p] + sg * (m0 * d[p] + m1 * d[p + 1] + m2 * d[p + 2]);
        }
    }
    // Carries, low to high: each column is below 2^28 in magnitude, so the bias 2^30 makes
    // the shift a floor division on every driver.
    for (int p = 20; p > 0; --p) {
        int c = ((acc[p] + 0x40000000) >> 12) - 0x40000;
        acc[p] = acc[p] - c * 4096;
        acc[p - 1] = acc[p - 1] + c;
    }
    int n = (acc[0] + 0x40000000) & 3;
    float sign = neg ? -1.0 : 1.0;
    if (acc[1] >= 2048) {
        // f >= 1/2: n + 1, and f - 1 = -(1 - f), the fraction's digits negated.
        n = (n + 1) & 3;
        sign = -sign;
        int carry = 1;
        for (int p = 20; p > 0; --p) {
            int d = 4095 - acc[p] + carry;
            carry = d >> 12;
            acc[p] = d & 0xfff;
        }
    }
    // The fraction's 20 digits, shifted until the first is nonzero (in vectors, without
    // indexing, so that compilers keep them in registers), then paired into f32 words scaled
    // by 2^(12 lead + 24) so that none underflows: f = (f03 + f4) 2^f_exp, the first word
    // holding 13 to 24 bits.
    ivec4 D0 = ivec4(acc[1], acc[2], acc[3], acc[4]);
    ivec4 D1 = ivec4(acc[5], acc[6], acc[7], acc[8]);
    ivec4 D2 = ivec4(acc[9], acc[10], acc[11], acc[12]);
    ivec4 D3 = ivec4(acc[13], acc[14], acc[15], acc[16]);
    ivec4 D4 = ivec4(acc[17], acc[18], acc[19], acc[20]);
    int lead = 0;
    for (int step = 0; step < 19; ++step) {
        if (D0.x == 0) {
            D0 = ivec4(D0.yzw, D1.x);
            D1 = ivec4(D1.yzw, D2.x);
            D2 = ivec4(D2.yzw, D3.x);
            D3 = ivec4(D3.yzw, D4.x);
            D4 = ivec4(D4.yzw, 0);
            lead += 1;
        }
    }
    f_exp = -12 * lead - 24;
    ivec4 pairs = ivec4(D0.xz, D1.xz) * 4096 + ivec4(D0.yw, D1.yw);
    int fifth = D2.x * 4096 + D2.y;
    f03 = DF64_B(DF64_B(sign * vec4(pairs))
            * vec4(1.0, 5.9604645e-8, 3.5527137e-15, 2.1175824e-22));
    f4 = DF64_B(DF64_B(sign * float(fifth)) * 1.2621775e-29);
    // x = -(n + f) pi/2 for a negative x: the quadrant is -n mod 4.
    return neg ? (4 - n) & 3 : n;
}

// ---------------------------------------------------------------- hypot

// sqrt(a^2 + b^2) at every exponent, with no overflow or underflow on the way: both operands
// scaled by the power of two that brings the larger to [1, 4) (exact), the squares summed
// in three words from exact products, rooted to three words (df64_sqrt3) and rounded once,
// then scaled back: within 0.5 ulp48 and a little. As C's hypot, an infinity wins over NaN;
// where the smaller operand is under 2^-60 of the larger, its square is far below the last bit
// of the sum and the result is |larger|.
vec2 df64_hypot(vec2 a, vec2 b) {
    a = DF64_B(a); b = DF64_B(b);
    a = df64_abs(a); b = df64_abs(b);
    if (df64_isinf(a.x) || df64_isinf(b.x)) return vec2(df64_inf(), 0.0);
    if (df64_isnan(a.x) || df64_isnan(b.x)) return df64_nan();
    bool swap = df64_lt(a, b);
    vec2 big = swap ? b : a;
    vec2 small = swap ? a : b;
    int apart = df64_biased_exponent(big.x) - df64_biased_exponent(small.x);
    if (big.x == 0.0 || apart > 60) return big;
    int k = df64_normalizer(big.x);
    DF64_PRECISE vec2 sb = DF64_B(big * df64_pow2(k));
    DF64_PRECISE vec2 ss = DF64_B(small * df64_pow2(k));
    DF64_PRECISE vec2 p = df64_two_prod(sb.x, sb.x);
    DF64_PRECISE vec2 q = df64_two_prod(DF64_B(2.0 * sb.x), sb.y);
    DF64_PRECISE vec2 u = df64_two_prod(ss.x, ss.x);
    DF64_PRECISE vec2 v = df64_two_prod(DF64_B(2.0 * ss.x), ss.y);
    DF64_PRECISE vec3 w = vec3(p, 0.0);
    w = df64_acc3(w, u.x);
    w = df64_acc3(w, q.x);
    w = df64_acc3(w, v.x);
    w = df64_acc3(w, u.y);
    w = df64_acc3(w, q.y);
    w = df64_acc3(w, v.y);
    w = df64_acc3(w, DF64_B(DF64_B(sb.y * sb.y) + DF64_B(ss.y * ss.y)));
    return df64_scale(df64_round3(df64_sqrt3(w)), -k);
}

// ---------------------------------------------------------------- complex (vec4: re.hi, re.lo, im.hi, im.lo)

vec4 cdf64_add(vec4 a, vec4 b) {
    a = DF64_B(a); b = DF64_B(b);
    return vec4(df64_add(a.xy, b.xy), df64_add(a.zw, b.zw));
}
vec4 cdf64_sub(vec4 a, vec4 b) {
    a = DF64_B(a); b = DF64_B(b);
    return vec4(df64_sub(a.xy, b.xy), df64_sub(a.zw, b.zw));
}

vec4 cdf64_mul(vec4 a, vec4 b) {
    a = DF64_B(a); b = DF64_B(b);
    DF64_PRECISE vec2 re = df64_sub(df64_mul(a.xy, b.xy), df64_mul(a.zw, b.zw));
    DF64_PRECISE vec2 im = df64_add(df64_mul(a.xy, b.zw), df64_mul(a.zw, b.xy));
    return vec4(re, im);
}
