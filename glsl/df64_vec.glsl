// df64_vec.glsl: df64 vectors and matrices for geometry (positions far from the origin), in any
// shader stage. Paste after df64.glsl. Rust mirror: src/numeric/df64_vec.rs.
//
// A df64vecN holds N df64 numbers as two f32 vectors, the high words and the low words, so a
// position kept in two vertex attributes is `df64vec3(position_hi, position_lo)`; df64mat4 is
// two mat4 (column-major, as GLSL), element (c, r) the df64 (hi[c][r], lo[c][r]).
//
// Bounds, with u = 2^-24 (so u^2 = 2^-48 is half an ulp48 of a number in [1, 2)):
//  - add, sub, mul (by a df64), mul_f32: each component as the scalar routine (0.5 ulp48); neg
//    exact.
//  - dot, cross, and each entry of mat4_mul_vec4 and mat4_mul: a sum of n products p_k
//    (n = N for dot, 2 for cross, 4 for the matrices) within gamma_n * sum |p_k|, where
//    gamma_n = n u^2 / (1 - n u^2): recursive summation of df64 products, each product and
//    each sum rounded once with relative error u^2 (Higham, eq. 3.5, with u^2 for u; the form
//    in which Joldes, Muller and Popescu 2017 and Lefevre et al. 2022 state double-word dot
//    products and norms). Near cancellation that is the error that matters: small against the
//    terms, possibly large against the result.
//  - length: (N + 1) / 2 ulp48 (the squares and their sum N u^2 relative, halved by the root,
//    plus the root's own 0.5), with no overflow or underflow on the way (the vector is scaled
//    by a power of two first, as df64_hypot).
//  - to_f32: each component the nearest f32 (hi + lo, one rounding of the exact value).
//  - normalize (an f32 vecN): each component within 0.5 ulp24 + 2^-21 ulp24 of the exact
//    quotient (the df64 direction, rounded once to f32); NaN for a zero, infinite or NaN vector.
//  - the transforms below state their own.
// Bounds hold while every product and partial sum lies in df64's domain (2^-100 to 2^126; plus
// 2^-126 absolute per operation where the driver flushes subnormals).

struct df64vec2 { vec2 hi; vec2 lo; };
struct df64vec3 { vec3 hi; vec3 lo; };
struct df64vec4 { vec4 hi; vec4 lo; };
struct df64mat4 { mat4 hi; mat4 lo; };

// ---------------------------------------------------------------- construction

df64vec2 df64vec2_from_f32(vec2 a) { a = DF64_B(a); return df64vec2(a, vec2(0.0)); }
df64vec3 df64vec3_from_f32(vec3 a) { a = DF64_B(a); return df64vec3(a, vec3(0.0)); }
df64vec4 df64vec4_from_f32(vec4 a) { a = DF64_B(a); return df64vec4(a, vec4(0.0)); }

// Each component's nearest f32: hi + lo, rounded once.
vec2 df64vec2_to_f32(df64vec2 a) {
    return vec2(df64_to_f32(vec2(a.hi.x, a.lo.x)), df64_to_f32(vec2(a.hi.y, a.lo.y)));
}
vec3 df64vec3_to_f32(df64vec3 a) {
    return vec3(df64_to_f32(vec2(a.hi.x, a.lo.x)), df64_to_f32(vec2(a.hi.y, a.lo.y)),
        df64_to_f32(vec2(a.hi.z, a.lo.z)));
}
vec4 df64vec4_to_f32(df64vec4 a) {
    return vec4(df64_to_f32(vec2(a.hi.x, a.lo.x)), df64_to_f32(vec2(a.hi.y, a.lo.y)),
        df64_to_f32(vec2(a.hi.z, a.lo.z)), df64_to_f32(vec2(a.hi.w, a.lo.w)));
}

// ---------------------------------------------------------------- component-wise

df64vec2 df64vec2_add(df64vec2 a, df64vec2 b) {
    vec2 x = df64_add(vec2(a.hi.x, a.lo.x), vec2(b.hi.x, b.lo.x));
    vec2 y = df64_add(vec2(a.hi.y, a.lo.y), vec2(b.hi.y, b.lo.y));
    return df64vec2(vec2(x.x, y.x), vec2(x.y, y.y));
}
df64vec3 df64vec3_add(df64vec3 a, df64vec3 b) {
    vec2 x = df64_add(vec2(a.hi.x, a.lo.x), vec2(b.hi.x, b.lo.x));
    vec2 y = df64_add(vec2(a.hi.y, a.lo.y), vec2(b.hi.y, b.lo.y));
    vec2 z = df64_add(vec2(a.hi.z, a.lo.z), vec2(b.hi.z, b.lo.z));
    return df64vec3(vec3(x.x, y.x, z.x), vec3(x.y, y.y, z.y));
}
df64vec4 df64vec4_add(df64vec4 a, df64vec4 b) {
    vec2 x = df64_add(vec2(a.hi.x, a.lo.x), vec2(b.hi.x, b.lo.x));
    vec2 y = df64_add(vec2(a.hi.y, a.lo.y), vec2(b.hi.y, b.lo.y));
    vec2 z = df64_add(vec2(a.hi.z, a.lo.z), vec2(b.hi.z, b.lo.z));
    vec2 w = df64_add(vec2(a.hi.w, a.lo.w), vec2(b.hi.w, b.lo.w));
    return df64vec4(vec4(x.x, y.x, z.x, w.x), vec4(x.y, y.y, z.y, w.y));
}

df64vec2 df64vec2_sub(df64vec2 a, df64vec2 b) {
    vec2 x = df64_sub(vec2(a.hi.x, a.lo.x), vec2(b.hi.x, b.lo.x));
    vec2 y = df64_sub(vec2(a.hi.y, a.lo.y), vec2(b.hi.y, b.lo.y));
    return df64vec2(vec2(x.x, y.x), vec2(x.y, y.y));
}
df64vec3 df64vec3_sub(df64vec3 a, df64vec3 b) {
    vec2 x = df64_sub(vec2(a.hi.x, a.lo.x), vec2(b.hi.x, b.lo.x));
    vec2 y = df64_sub(vec2(a.hi.y, a.lo.y), vec2(b.hi.y, b.lo.y));
    vec2 z = df64_sub(vec2(a.hi.z, a.lo.z), vec2(b.hi.z, b.lo.z));
    return df64vec3(vec3(x.x, y.x, z.x), vec3(x.y, y.y, z.y));
}
df64vec4 df64vec4_sub(df64vec4 a, df64vec4 b) {
    vec2 x = df64_sub(vec2(a.hi.x, a.lo.x), vec2(b.hi.x, b.lo.x));
    vec2 y = df64_sub(vec2(a.hi.y, a.lo.y), vec2(b.hi.y, b.lo.y));
    vec2 z = df64_sub(vec2(a.hi.z, a.lo.z), vec2(b.hi.z, b.lo.z));
    vec2 w = df64_sub(vec2(a.hi.w, a.lo.w), vec2(b.hi.w, b.lo.w));
    return df64vec4(vec4(x.x, y.x, z.x, w.x), vec4(x.y, y.y, z.y, w.y));
}

df64vec2 df64vec2_neg(df64vec2 a) { return df64vec2(-a.hi, -a.lo); }
df64vec3 df64vec3_neg(df64vec3 a) { return df64vec3(-a.hi, -a.lo); }
df64vec4 df64vec4_neg(df64vec4 a) { return df64vec4(-a.hi, -a.lo); }

// a times the df64 s.
df64vec2 df64vec2_mul(df64vec2 a, vec2 s) { s = DF64_B(s);
    vec2 x = df64_mul(vec2(a.hi.x, a.lo.x), s);
    vec2 y = df64_mul(vec2(a.hi.y, a.lo.y), s);
    return df64vec2(vec2(x.x, y.x), vec2(x.y, y.y));
}
df64vec3 df64vec3_mul(df64vec3 a, vec2 s) { s = DF64_B(s);
    vec2 x = df64_mul(vec2(a.hi.x, a.lo.x), s);
    vec2 y = df64_mul(vec2(a.hi.y, a.lo.y), s);
    vec2 z = df64_mul(vec2(a.hi.z, a.lo.z), s);
    return df64vec3(vec3(x.x, y.x, z.x), vec3(x.y, y.y, z.y));
}
df64vec4 df64vec4_mul(df64vec4 a, vec2 s) { s = DF64_B(s);
    vec2 x = df64_mul(vec2(a.hi.x, a.lo.x), s);
    vec2 y = df64_mul(vec2(a.hi.y, a.lo.y), s);
    vec2 z = df64_mul(vec2(a.hi.z, a.lo.z), s);
    vec2 w = df64_mul(vec2(a.hi.w, a.lo.w), s);
    return df64vec4(vec4(x.x, y.x, z.x, w.x), vec4(x.y, y.y, z.y, w.y));
}

// a times the float s.
df64vec2 df64vec2_mul_f32(df64vec2 a, float s) { s = DF64_B(s);
    vec2 x = df64_mul_f32(vec2(a.hi.x, a.lo.x), s);
    vec2 y = df64_mul_f32(vec2(a.hi.y, a.lo.y), s);
    return df64vec2(vec2(x.x, y.x), vec2(x.y, y.y));
}
df64vec3 df64vec3_mul_f32(df64vec3 a, float s) { s = DF64_B(s);
    vec2 x = df64_mul_f32(vec2(a.hi.x, a.lo.x), s);
    vec2 y = df64_mul_f32(vec2(a.hi.y, a.lo.y), s);
    vec2 z = df64_mul_f32(vec2(a.hi.z, a.lo.z), s);
    return df64vec3(vec3(x.x, y.x, z.x), vec3(x.y, y.y, z.y));
}
df64vec4 df64vec4_mul_f32(df64vec4 a, float s) { s = DF64_B(s);
    vec2 x = df64_mul_f32(vec2(a.hi.x, a.lo.x), s);
    vec2 y = df64_mul_f32(vec2(a.hi.y, a.lo.y), s);
    vec2 z = df64_mul_f32(vec2(a.hi.z, a.lo.z), s);
    vec2 w = df64_mul_f32(vec2(a.hi.w, a.lo.w), s);
    return df64vec4(vec4(x.x, y.x, z.x, w.x), vec4(x.y, y.y, z.y, w.y));
}

// ---------------------------------------------------------------- products

// Sum of the products, in order x, y, z, w (gamma_N times the sum of their magnitudes).
vec2 df64vec2_dot(df64vec2 a, df64vec2 b) {
    vec2 s = df64_mul(vec2(a.hi.x, a.lo.x), vec2(b.hi.x, b.lo.x));
    return df64_add(s, df64_mul(vec2(a.hi.y, a.lo.y), vec2(b.hi.y, b.lo.y)));
}
vec2 df64vec3_dot(df64vec3 a, df64vec3 b) {
    vec2 s = df64_mul(vec2(a.hi.x, a.lo.x), vec2(b.hi.x, b.lo.x));
    s = df64_add(s, df64_mul(vec2(a.hi.y, a.lo.y), vec2(b.hi.y, b.lo.y)));
    return df64_add(s, df64_mul(vec2(a.hi.z, a.lo.z), vec2(b.hi.z, b.lo.z)));
}
vec2 df64vec4_dot(df64vec4 a, df64vec4 b) {
    vec2 s = df64_mul(vec2(a.hi.x, a.lo.x), vec2(b.hi.x, b.lo.x));
    s = df64_add(s, df64_mul(vec2(a.hi.y, a.lo.y), vec2(b.hi.y, b.lo.y)));
    s = df64_add(s, df64_mul(vec2(a.hi.z, a.lo.z), vec2(b.hi.z, b.lo.z)));
    return df64_add(s, df64_mul(vec2(a.hi.w, a.lo.w), vec2(b.hi.w, b.lo.w)));
}

// a x b: each component a difference of two products (gamma_2 times their magnitudes).
df64vec3 df64vec3_cross(df64vec3 a, df64vec3 b) {
    vec2 ax = vec2(a.hi.x, a.lo.x);
    vec2 ay = vec2(a.hi.y, a.lo.y);
    vec2 az = vec2(a.hi.z, a.lo.z);
    vec2 bx = vec2(b.hi.x, b.lo.x);
    vec2 by = vec2(b.hi.y, b.lo.y);
    vec2 bz = vec2(b.hi.z, b.lo.z);
    vec2 x = df64_sub(df64_mul(ay, bz), df64_mul(az, by));
    vec2 y = df64_sub(df64_mul(az, bx), df64_mul(ax, bz));
    vec2 z = df64_sub(df64_mul(ax, by), df64_mul(ay, bx));
    return df64vec3(vec3(x.x, y.x, z.x), vec3(x.y, y.y, z.y));
}

// ---------------------------------------------------------------- length and direction

// The length at every exponent, as df64_hypot: the components scaled by the power of two 2^k
// that brings the largest to [1, 4) (exact), their squares summed and rooted without scaling
// (nothing can overflow; a component under 2^-60 of the largest adds nothing its square could
// keep), the root scaled back with one rounding. An infinite component gives +inf (even beside
// a NaN, as hypot), a NaN one NaN, the zero vector +0.
vec2 df64vec2_length(df64vec2 a) {
    vec2 x = df64_abs(vec2(a.hi.x, a.lo.x));
    vec2 y = df64_abs(vec2(a.hi.y, a.lo.y));
    if (df64_isinf(x.x) || df64_isinf(y.x)) return vec2(df64_inf(), 0.0);
    if (df64_isnan(x.x) || df64_isnan(y.x)) return df64_nan();
    vec2 big = df64_max(x, y);
    if (big.x == 0.0) return vec2(0.0);
    int k = df64_normalizer(big.x);
    float f = df64_pow2(k);
    vec2 s = df64_add_unscaled(df64_sqr_unscaled(DF64_B(x * f)),
        df64_sqr_unscaled(DF64_B(y * f)));
    return df64_scale(df64_sqrt_unscaled(s), -k);
}
vec2 df64vec3_length(df64vec3 a) {
    vec2 x = df64_abs(vec2(a.hi.x, a.lo.x));
    vec2 y = df64_abs(vec2(a.hi.y, a.lo.y));
    vec2 z = df64_abs(vec2(a.hi.z, a.lo.z));
    if (df64_isinf(x.x) || df64_isinf(y.x) || df64_isinf(z.x)) return vec2(df64_inf(), 0.0);
    if (df64_isnan(x.x) || df64_isnan(y.x) || df64_isnan(z.x)) return df64_nan();
    vec2 big = df64_max(df64_max(x, y), z);
    if (big.x == 0.0) return vec2(0.0);
    int k = df64_normalizer(big.x);
    float f = df64_pow2(k);
    vec2 s = df64_add_unscaled(df64_sqr_unscaled(DF64_B(x * f)),
        df64_sqr_unscaled(DF64_B(y * f)));
    s = df64_add_unscaled(s, df64_sqr_unscaled(DF64_B(z * f)));
    return df64_scale(df64_sqrt_unscaled(s), -k);
}
vec2 df64vec4_length(df64vec4 a) {
    vec2 x = df64_abs(vec2(a.hi.x, a.lo.x));
    vec2 y = df64_abs(vec2(a.hi.y, a.lo.y));
    vec2 z = df64_abs(vec2(a.hi.z, a.lo.z));
    vec2 w = df64_abs(vec2(a.hi.w, a.lo.w));
    if (df64_isinf(x.x) || df64_isinf(y.x) || df64_isinf(z.x) || df64_isinf(w.x)) {
        return vec2(df64_inf(), 0.0);
    }
    if (df64_isnan(x.x) || df64_isnan(y.x) || df64_isnan(z.x) || df64_isnan(w.x)) {
        return df64_nan();
    }
    vec2 big = df64_max(df64_max(x, y), df64_max(z, w));
    if (big.x == 0.0) return vec2(0.0);
    int k = df64_normalizer(big.x);
    float f = df64_pow2(k);
    vec2 s = df64_add_unscaled(df64_sqr_unscaled(DF64_B(x * f)),
        df64_sqr_unscaled(DF64_B(y * f)));
    s = df64_add_unscaled(s, df64_sqr_unscaled(DF64_B(z * f)));
    s = df64_add_unscaled(s, df64_sqr_unscaled(DF64_B(w * f)));
    return df64_scale(df64_sqrt_unscaled(s), -k);
}

// The factor that takes a component to the unit vector's: 1 / length, of the vector scaled so
// that its largest component is in [1, 4) (so the reciprocal is in (1/8, 1]); (NaN, 0) for a
// zero, infinite or NaN vector.
vec2 df64vec_unit_factor(vec2 scaled_length, float largest) {
    scaled_length = DF64_B(scaled_length); largest = DF64_B(largest);
    if (largest == 0.0 || df64_nonfinite(largest)) return df64_nan();
    return df64_div(vec2(1.0, 0.0), scaled_length);
}

vec2 df64vec2_normalize(df64vec2 a) {
    float largest = max(abs(a.hi.x), abs(a.hi.y));
    int k = df64_normalizer(largest);
    float f = df64_pow2(k);
    df64vec2 s = df64vec2(DF64_B(a.hi * f), DF64_B(a.lo * f));
    vec2 r = df64vec_unit_factor(df64vec2_length(s), largest);
    vec2 x = df64_mul(vec2(s.hi.x, s.lo.x), r);
    vec2 y = df64_mul(vec2(s.hi.y, s.lo.y), r);
    return vec2(df64_to_f32(x), df64_to_f32(y));
}
vec3 df64vec3_normalize(df64vec3 a) {
    float largest = max(max(abs(a.hi.x), abs(a.hi.y)), abs(a.hi.z));
    int k = df64_normalizer(largest);
    float f = df64_pow2(k);
    df64vec3 s = df64vec3(DF64_B(a.hi * f), DF64_B(a.lo * f));
    vec2 r = df64vec_unit_factor(df64vec3_length(s), largest);
    vec2 x = df64_mul(vec2(s.hi.x, s.lo.x), r);
    vec2 y = df64_mul(vec2(s.hi.y, s.lo.y), r);
    vec2 z = df64_mul(vec2(s.hi.z, s.lo.z), r);
    return vec3(df64_to_f32(x), df64_to_f32(y), df64_to_f32(z));
}
vec4 df64vec4_normalize(df64vec4 a) {
    float largest = max(max(abs(a.hi.x), abs(a.hi.y)), max(abs(a.hi.z), abs(a.hi.w)));
    int k = df64_normalizer(largest);
    float f = df64_pow2(k);
    df64vec4 s = df64vec4(DF64_B(a.hi * f), DF64_B(a.lo * f));
    vec2 r = df64vec_unit_factor(df64vec4_length(s), largest);
    vec2 x = df64_mul(vec2(s.hi.x, s.lo.x), r);
    vec2 y = df64_mul(vec2(s.hi.y, s.lo.y), r);
    vec2 z = df64_mul(vec2(s.hi.z, s.lo.z), r);
    vec2 w = df64_mul(vec2(s.hi.w, s.lo.w), r);
    return vec4(df64_to_f32(x), df64_to_f32(y), df64_to_f32(z), df64_to_f32(w));
}

// ---------------------------------------------------------------- matrices

// m v: component r is row r of m dotted with v, in column order (gamma_4 times the sum of the
// magnitudes of its products). A loop over the rows, not four copies of the dot product:
// compilers that inline every call (SwiftShader, and with it the check on SwiftShader) took
// 2.6 s to compile the four copies, and df64mat4_mul's sixteen 17.6 s.
df64vec4 df64mat4_mul_vec4(df64mat4 m, df64vec4 v) {
    mat4 th = transpose(m.hi);
    mat4 tl = transpose(m.lo);
    df64vec4 r = df64vec4(vec4(0.0), vec4(0.0));
    for (int i = 0; i < 4; ++i) {
        vec2 d = df64vec4_dot(df64vec4(th[i], tl[i]), v);
        r.hi[i] = d.x;
        r.lo[i] = d.y;
    }
    return r;
}

// a b, column by column (each entry as in df64mat4_mul_vec4), in a loop for the same reason.
df64mat4 df64mat4_mul(df64mat4 a, df64mat4 b) {
    df64mat4 r = df64mat4(mat4(0.0), mat4(0.0));
    for (int c = 0; c < 4; ++c) {
        df64vec4 col = df64mat4_mul_vec4(a, df64vec4(b.hi[c], b.lo[c]));
        r.hi[c] = col.hi;
        r.lo[c] = col.lo;
    }
    return r;
}

// ---------------------------------------------------------------- the transforms renderers use

// m (p, 1) in f32, column by column in a fixed order (no contraction: the same on every
// driver and in the mirror): each component within 4.0001 u times the sum of the magnitudes of
// its four terms.
vec4 df64_mat4_apply_f32(mat4 m, vec4 p) { p = DF64_B(p);
    DF64_PRECISE vec4 s = DF64_B(m[0] * p.x);
    s = DF64_B(s + DF64_B(m[1] * p.y));
    s = DF64_B(s + DF64_B(m[2] * p.z));
    DF64_PRECISE vec4 r = DF64_B(s + DF64_B(m[3] * p.w));
    return r;
}

// Local to world, as Unreal's FDFMatrix (an f32 matrix with a df64 PostTranslation): the f32
// matrix m (rotation, scale and any small translation of its own) applied to the f32 local
// position p, then the df64 translation added. Component i is within
// 4.0001 u sum_j |m[j][i] p_j| (p_3 = 1) + u^2 |result| of the exact m (p, 1) + translation.
df64vec3 df64_transform_point(mat4 m, df64vec3 translation, vec3 p) { p = DF64_B(p);
    vec4 q = df64_mat4_apply_f32(m, vec4(p, 1.0));
    return df64vec3_add(translation, df64vec3(q.xyz, vec3(0.0)));
}

// A world position relative to the eye, demoted: world - eye in df64 (the difference of two
// large numbers is exact to 0.5 ulp48), each component then rounded to its nearest f32 (within
// 0.5 ulp24 + 2^-22 ulp24 of the exact difference). What a vertex shader hands to an f32 view
// matrix without its translation.
vec3 df64_relative_to_eye(df64vec3 world, df64vec3 eye) {
    return df64vec3_to_f32(df64vec3_sub(world, eye));
}

// World to view, as Unreal's FDFInverseMatrix (a df64 PreTranslation, then an f32 matrix):
// view_rotation is the view matrix of a camera at the origin (the camera's rotation, without
// its translation), eye the camera's position in df64. Component i is within
// 5.0001 u sum_j |view_rotation[j][i] d_j| of the exact view_rotation (d, 1), d = world - eye.
vec4 df64_world_to_view(mat4 view_rotation, df64vec3 eye, df64vec3 world) {
    return df64_mat4_apply_f32(view_rotation, vec4(df64_relative_to_eye(world, eye), 1.0));
}
