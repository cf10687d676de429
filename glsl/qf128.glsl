// qf128.glsl: quad-float arithmetic (a vec4 holding the unevaluated sum x + y + z + w, about
// 96 bits) after Hida, Li and Bailey's quad-double algorithms and Thall's Figs. 6 to 8. Paste
// after df64.glsl (it uses df64's error-free transforms, DF64_PRECISE and DF64_TWOPROD_FMA).
// Rust mirror: src/numeric/qf128.rs.
//
// Accurate defaults: qf128_add (QD's IEEE add), qf128_mul (QD's accurate mul), qf128_div
// (five quotient words), qf128_sqrt/rsqrt (one qf128 step from the accurate df64 value), and
// qf128_exp/log/sin/cos (sin and cos at every finite argument, through df64.glsl's Payne and
// Hanek reduction on all four words). Thall's routines: qf128_add_sloppy (Fig. 7),
// qf128_mul_sloppy (Fig. 8).
// Full accuracy needs the fourth word (~2^-96 of the value) to stay a normal f32: magnitudes
// above about 2^-30 where the driver flushes subnormals.
// Needs df64.glsl before it.

// Constants (generated from a 320-bit oracle; src/numeric/qf128_consts.rs holds the same words).
const float QF128_LN2[5] = float[](
    6.931472e-1, -1.9046542e-9, -8.783184e-17, 3.0618407e-24, -2.510717e-33);
const float QF128_LN2_32[5] = float[](
    2.166085e-2, -5.9520444e-11, -2.744745e-18, 9.568252e-26, -7.845991e-35);
const float QF128_PI_2[5] = float[](
    1.5707964e0, -4.371139e-8, -1.7151245e-15, 1.0562999e-23, 8.4784276e-32);
const float QF128_EXP2_TABLE[128] = float[](
    1e0, 0e0, 0e0, 0e0, 1.0218972e0, -4.81156e-8,
    9.392707e-16, -3.5934817e-23, 1.0442737e0, 4.83347e-8, -1.3652571e-16, 2.2459724e-24,
    1.0671405e0, -5.933752e-8, 1.4304606e-16, 1.3921463e-24, 1.0905077e0, -1.307754e-8,
    -2.5251243e-16, 7.254172e-24, 1.1143868e0, -5.43554e-8, -1.2281648e-15, 1.3117884e-25,
    1.1387886e0, 5.3862223e-8, -1.6872288e-15, 3.7797485e-23, 1.1637249e0, -4.0514415e-8,
    2.6033666e-16, -8.3053e-24, 1.1892071e0, 3.7976353e-8, 1.1500432e-15, -3.1206072e-23,
    1.2152474e0, -3.267395e-8, -1.1873493e-15, -3.955193e-23, 1.2418578e0, 4.496838e-8,
    4.906695e-16, -2.4614835e-23, 1.269051e0, 1.4193333e-9, 2.667932e-18, 3.1895304e-26,
    1.2968396e0, -4.0189995e-8, 1.5796947e-15, -4.139889e-24, 1.3252367e0, -3.4963733e-8,
    4.155019e-16, -3.0701151e-24, 1.3542556e0, -1.0123349e-8, 2.990541e-16, 1.0907475e-24,
    1.38391e0, -5.8755774e-8, 1.0425179e-15, 2.68311e-23, 1.4142135e0, 2.4203235e-8,
    -7.6280674e-16, -4.073212e-24, 1.4451808e0, 3.3242e-8, 8.579408e-16, 1.2559381e-23,
    1.4768262e0, -4.500899e-8, 1.5194723e-15, 1.8592992e-24, 1.5091645e0, -2.4959373e-8,
    5.6448827e-16, 9.081863e-24, 1.5422108e0, 8.070905e-9, -1.4254626e-16, 4.6579748e-24,
    1.5759809e0, -5.6610254e-8, 1.1000862e-15, -4.9675013e-23, 1.6104903e0, 9.836217e-9,
    2.4707193e-17, -8.0416895e-25, 1.6457555e0, -5.124972e-8, -7.673906e-16, 7.5373135e-24,
    1.6817929e0, -2.4755327e-8, -5.841437e-16, 1.0829118e-23, 1.7186193e0, -4.8496176e-8,
    1.5357984e-15, 6.703743e-24, 1.7562522e0, -9.23577e-9, 2.9601406e-17, 9.630049e-25,
    1.7947091e0, -1.1415045e-8, 2.4027207e-16, -2.3827309e-24, 1.8340081e0, -1.1239278e-8,
    -1.8921353e-16, -4.2024593e-24, 1.8741677e0, -4.6630056e-8, -2.8327225e-16, 1.0113338e-23,
    1.9152066e0, 9.845328e-9, 3.3788975e-16, -4.8824325e-24, 1.9571441e0, -1.7021804e-8,
    8.9607675e-17, 2.8633302e-24);
const float QF128_LOG_TABLE[188] = float[](
    -3.522206e-1, 1.293613e-9, -5.7233317e-18, 3.2917298e-26, -3.3024168e-1, -6.725313e-9,
    1.0828322e-17, -3.2206607e-25, -3.087355e-1, 8.195663e-9, -2.0584542e-16, -1.3937352e-24,
    -2.876821e-1, 1.37775436e-8, -1.3709391e-16, 1.7776127e-24, -2.6706278e-1, -2.0077733e-9,
    7.328915e-18, -2.56701e-26, -2.4686007e-1, -5.91481e-9, 1.806716e-16, -2.6618315e-24,
    -2.2705746e-1, 6.3348686e-9, 1.2922646e-16, 5.6831867e-24, -2.0763937e-1, 1.6100764e-9,
    1.5702333e-17, -7.732044e-25, -1.8859117e-1, -2.476808e-9, -4.8078986e-17, -6.4503283e-25,
    -1.6989903e-1, -5.2755076e-9, -5.502435e-17, -1.5314884e-24, -1.515499e-1, 7.411358e-9,
    -1.7170041e-16, -5.450651e-24, -1.3353139e-1, -1.0038866e-9, 3.6644577e-18, -1.283505e-26,
    -1.15831815e-1, -8.187962e-10, 2.3417091e-17, 1.8805495e-25, -9.844007e-2, 6.1728567e-10,
    -9.4387785e-18, 2.9751036e-25, -8.134564e-2, 6.6893807e-10, -5.077076e-18, -1.6116799e-25,
    -6.453852e-2, 2.4172309e-9, -9.067403e-17, 1.9776173e-24, -4.800922e-2, 1.3243606e-9,
    -2.2255772e-17, 4.4468237e-25, -3.1748697e-2, -1.1529058e-9, -3.0793803e-17, 1.4639943e-24,
    -1.5748357e-2, 4.3215895e-10, 2.467289e-18, -1.3213771e-26, 0e0, 0e0,
    0e0, 0e0, 1.5504187e-2, -4.3701048e-10, 6.611062e-18, -1.5960948e-25,
    3.0771658e-2, 8.422374e-10, 1.0431732e-18, 1.5978334e-26, 4.5809537e-2, -1.1410233e-9,
    -2.5852615e-17, -5.6556727e-25, 6.062462e-2, 7.905942e-12, 4.031738e-20, -9.155914e-28,
    7.522342e-2, -2.3030047e-9, 7.947183e-18, 3.814843e-25, 8.9612156e-2, 2.536962e-9,
    -6.0937966e-17, 1.4279405e-24, 1.03796795e-1, -1.3289232e-9, 4.711109e-17, -1.51668005e-24,
    1.1778303e-1, 3.2986907e-9, 8.206956e-17, -3.787214e-28, 1.3157636e-1, -1.4832839e-9,
    3.8878577e-17, -8.643199e-25, 1.4518201e-1, -3.66716e-9, 9.1509145e-17, 7.30295e-25,
    1.5860502e-1, 5.9580794e-9, -4.4254146e-17, -1.1311005e-24, 1.7185026e-1, -7.145759e-9,
    1.0499985e-16, -3.243919e-24, 1.8492234e-1, 9.619685e-10, 3.077924e-17, -1.3608791e-24,
    1.9782574e-1, -1.4181957e-9, 1.28211944e-17, -6.9653996e-26, 2.1056476e-1, 6.7534525e-9,
    7.901732e-17, 1.6296732e-25, 2.2314355e-1, 3.5408485e-9, 4.641988e-17, 2.0000461e-25,
    2.3556606e-1, 6.5973813e-9, 1.6413912e-16, -7.574428e-28, 2.4783616e-1, 6.2250236e-9,
    -1.5121009e-16, -2.6093858e-24, 2.5995752e-1, 2.2830717e-9, -3.481308e-17, -1.2395371e-24,
    2.719337e-1, 1.0869003e-8, -1.1023898e-16, -5.5005555e-25, 2.8376818e-1, -3.901826e-9,
    -1.3134896e-16, 4.105579e-24, 2.9546422e-1, -4.7689754e-9, 3.3865042e-17, 3.427585e-25,
    3.0702505e-1, -9.861567e-9, -3.4538682e-16, -7.2707456e-24, 3.1845373e-1, 1.9658553e-9,
    -8.390752e-17, -2.588815e-24, 3.2975328e-1, 6.686494e-9, -1.6441144e-16, 4.5599777e-24,
    3.409266e-1, -6.1104133e-10, 1.7467136e-17, 1.9962589e-25, 3.5197642e-1, -1.2984646e-9,
    4.2557258e-17, 2.0784976e-25);
const float QF128_INV_FACT[116] = float[](
    1e0, 0e0, 0e0, 0e0, 1e0, 0e0,
    0e0, 0e0, 5e-1, 0e0, 0e0, 0e0,
    1.6666667e-1, -4.967054e-9, 1.4802974e-16, -4.41163e-24, 4.1666668e-2, -1.2417635e-9,
    3.7007435e-17, -1.1029075e-24, 8.333334e-3, -4.346172e-10, 1.8503718e-18, -9.6504405e-26,
    1.3888889e-3, -3.3631094e-11, 1.4648776e-18, -1.6084068e-26, 1.984127e-4, -2.7255969e-12,
    5.438221e-20, -3.2209166e-27, 2.4801588e-5, -3.406996e-13, 6.797776e-21, -4.0261457e-28,
    2.7557319e-6, 3.7935712e-14, 1.5082265e-21, 4.5019888e-29, 2.755732e-7, -7.575112e-15,
    -1.8799053e-22, 4.5019888e-30, 2.5052108e-8, 4.417623e-16, 1.1786076e-23, -2.1016054e-32,
    2.0876756e-9, 1.1082839e-16, 3.1879879e-24, 6.398707e-32, 1.6059044e-10, -5.3525265e-18,
    -1.6836047e-25, 4.9220825e-33, 1.1470745e-11, 2.3722077e-19, -4.640206e-27, -8.863525e-35,
    7.6471636e-13, 1.22007105e-20, -9.393547e-29, 2.5169272e-36, 4.7794773e-14, 7.625444e-22,
    -5.870967e-30, 1.5730795e-37, 2.8114574e-15, -1.0462085e-22, -2.2014942e-30, -6.819093e-38,
    1.5619207e-16, 1.5404471e-24, -1.2741223e-32, 0e0, 8.220635e-18, 1.6814781e-25,
    -1.319325e-33, 0e0, 4.1103176e-19, 3.2375117e-27, -1.4300345e-34, 0e0,
    1.9572942e-20, -4.6129455e-28, 4.6541806e-36, 0e0, 8.896791e-22, 4.3288372e-29,
    4.8512325e-37, 0e0, 3.8681703e-23, -1.2733404e-30, -3.6149148e-38, -0e0,
    1.6117376e-24, -2.0186648e-32, 0e0, 0e0, 6.4469503e-26, -5.609469e-34,
    0e0, 0e0, 2.4795963e-27, -2.1574882e-35, 0e0, 0e0,
    9.18369e-29, 5.383817e-37, 0e0, 0e0, 3.279889e-30, 7.2964804e-38,
    0e0, 0e0);
const float QF128_INV_ODD[36] = float[](
    1e0, 0e0, 0e0, 0e0, 3.3333334e-1, -9.934108e-9,
    2.9605948e-16, -8.82326e-24, 2e-1, -2.9802323e-9, 4.440892e-17, -6.617445e-25,
    1.4285715e-1, -6.386212e-9, 6.344132e-17, -2.8360478e-24, 1.1111111e-1, -8.278423e-10,
    6.1679057e-18, -4.595448e-26, 9.090909e-2, -2.7093021e-9, 8.0743495e-17, -2.4063437e-24,
    7.692308e-2, -2.865608e-9, 5.1241063e-17, -2.5451712e-25, 6.666667e-2, -3.4769376e-9,
    1.4802974e-17, -7.7203524e-25, 5.882353e-2, -2.1913472e-10, 8.1634046e-19, -3.0411052e-27);

// ---------------------------------------------------------------- building blocks

vec3 qf128_three_sum(float a, float b, float c) {
    a = DF64_B(a); b = DF64_B(b); c = DF64_B(c);
    DF64_PRECISE vec2 t = df64_two_sum(a, b);
    DF64_PRECISE vec2 u = df64_two_sum(c, t.x);
    DF64_PRECISE vec2 v = df64_two_sum(t.y, u.y);
    return vec3(u.x, v.x, v.y);
}

vec2 qf128_three_sum2(float a, float b, float c) {
    a = DF64_B(a); b = DF64_B(b); c = DF64_B(c);
    DF64_PRECISE vec2 t = df64_two_sum(a, b);
    DF64_PRECISE vec2 u = df64_two_sum(c, t.x);
    DF64_PRECISE float s = DF64_B(t.y + u.y);
    return vec2(u.x, s);
}

// From the bits, as df64.glsl's tests: some compilers fold isnan/isinf away (WGSL has neither).
bool qf128_nonfinite(float x) {
    x = DF64_B(x);
    return (floatBitsToInt(x) & 0x7fffffff) >= 0x7f800000;
}

vec4 qf128_renorm5(float c0, float c1, float c2, float c3, float c4) {
    c0 = DF64_B(c0); c1 = DF64_B(c1); c2 = DF64_B(c2); c3 = DF64_B(c3); c4 = DF64_B(c4);
    if (df64_isinf(c0)) return vec4(c0, c1, c2, c3);
    DF64_PRECISE vec2 t = df64_quick_two_sum(c3, c4);
    c4 = t.y;
    t = df64_quick_two_sum(c2, t.x);
    c3 = t.y;
    t = df64_quick_two_sum(c1, t.x);
    c2 = t.y;
    t = df64_quick_two_sum(c0, t.x);
    c0 = t.x;
    c1 = t.y;
    DF64_PRECISE float s0 = c0;
    DF64_PRECISE float s1 = c1;
    DF64_PRECISE float s2 = 0.0;
    DF64_PRECISE float s3 = 0.0;
    if (s1 != 0.0) {
        t = df64_quick_two_sum(s1, c2); s1 = t.x; s2 = t.y;
        if (s2 != 0.0) {
            t = df64_quick_two_sum(s2, c3); s2 = t.x; s3 = t.y;
            if (s3 != 0.0) {
                s3 = DF64_B(s3 + c4);
            } else {
                t = df64_quick_two_sum(s2, c4); s2 = t.x; s3 = t.y;
            }
        } else {
            t = df64_quick_two_sum(s1, c3); s1 = t.x; s2 = t.y;
            if (s2 != 0.0) {
                t = df64_quick_two_sum(s2, c4); s2 = t.x; s3 = t.y;
            } else {
                t = df64_quick_two_sum(s1, c4); s1 = t.x; s2 = t.y;
            }
        }
    } else {
        t = df64_quick_two_sum(s0, c2); s0 = t.x; s1 = t.y;
        if (s1 != 0.0) {
            t = df64_quick_two_sum(s1, c3); s1 = t.x; s2 = t.y;
            if (s2 != 0.0) {
                t = df64_quick_two_sum(s2, c4); s2 = t.x; s3 = t.y;
            } else {
                t = df64_quick_two_sum(s1, c4); s1 = t.x; s2 = t.y;
            }
        } else {
            t = df64_quick_two_sum(s0, c3); s0 = t.x; s1 = t.y;
            if (s1 != 0.0) {
                t = df64_quick_two_sum(s1, c4); s1 = t.x; s2 = t.y;
            } else {
                t = df64_quick_two_sum(s0, c4); s0 = t.x; s1 = t.y;
            }
        }
    }
    return vec4(s0, s1, s2, s3);
}

// QD's four-term renormalization: the five-term one with a zero fifth term (its extra steps
// are then quick_two_sum(x, 0) = (x, 0), so the words are the same).
vec4 qf128_renorm4(float c0, float c1, float c2, float c3) {
    c0 = DF64_B(c0); c1 = DF64_B(c1); c2 = DF64_B(c2); c3 = DF64_B(c3);
    return qf128_renorm5(c0, c1, c2, c3, 0.0);
}

vec4 qf128_from_f32(float a) { a = DF64_B(a); return vec4(a, 0.0, 0.0, 0.0); }
vec4 qf128_from_df64(vec2 a) { a = DF64_B(a); return vec4(a, 0.0, 0.0); }
vec2 qf128_to_df64(vec4 a) {
    a = DF64_B(a);
    DF64_PRECISE float l = DF64_B(a.y + a.z);
    return df64_quick_two_sum(a.x, l);
}

// ---------------------------------------------------------------- addition

// Thall's Fig. 7 (QD's sloppy_add).
vec4 qf128_add_sloppy(vec4 a, vec4 b) {
    a = DF64_B(a); b = DF64_B(b);
    DF64_PRECISE vec2 r0 = df64_two_sum(a.x, b.x);
    if (qf128_nonfinite(r0.x)) return qf128_from_f32(r0.x);
    DF64_PRECISE vec2 r1 = df64_two_sum(a.y, b.y);
    DF64_PRECISE vec2 r2 = df64_two_sum(a.z, b.z);
    DF64_PRECISE vec2 r3 = df64_two_sum(a.w, b.w);
    DF64_PRECISE vec2 u = df64_two_sum(r1.x, r0.y);
    DF64_PRECISE vec3 v = qf128_three_sum(r2.x, u.y, r1.y);
    DF64_PRECISE vec2 w = qf128_three_sum2(r3.x, v.y, r2.y);
    DF64_PRECISE float t0 = DF64_B(DF64_B(w.y + v.z) + r3.y);
    return qf128_renorm5(r0.x, u.x, v.x, w.x, t0);
}

// x with component k replaced by v (k in 0..3), without dynamic indexing.
vec4 qf128_put(vec4 x, int k, float v) {
    x = DF64_B(x); v = DF64_B(v);
    if (k == 0) x.x = v;
    else if (k == 1) x.y = v;
    else if (k == 2) x.z = v;
    else x.w = v;
    return x;
}

// Accurate add (QD's ieee_add): the eight words merged by magnitude into a two-word
// accumulator. The inputs are consumed as shifting queues and the output placed by a
// four-way select: QD's algorithm exactly, without the dynamic array indexing that makes
// shader compilers (llvmpipe) take minutes once this is inlined a few dozen times.
vec4 qf128_add(vec4 av, vec4 bv) {
    av = DF64_B(av); bv = DF64_B(bv);
    DF64_PRECISE float s0 = DF64_B(av.x + bv.x);
    if (qf128_nonfinite(s0)) return qf128_from_f32(s0);
    vec4 A = av;
    vec4 B = bv;
    int na = 4;
    int nb = 4;
    vec4 X = vec4(0.0);
    int k = 0;
    DF64_PRECISE float u;
    DF64_PRECISE float v;
    if (abs(A.x) > abs(B.x)) { u = A.x; A = vec4(A.yzw,
            0.0); na--; } else { u = B.x; B = vec4(B.yzw, 0.0); nb--; }
    if (abs(A.x) > abs(B.x)) { v = A.x; A = vec4(A.yzw,
            0.0); na--; } else { v = B.x; B = vec4(B.yzw, 0.0); nb--; }
    DF64_PRECISE vec2 t2 = df64_quick_two_sum(u, v);
    u = t2.x;
    v = t2.y;
    // QD drops the accumulator's low word when the last input arrives with k = 3, the whole
    // accumulator when the four words fill up first, and rounds the unmerged inputs into the
    // fourth word; here all of that becomes a fifth term for the renormalization.
    DF64_PRECISE float leftover = 0.0;
    bool stored = false;
    for (int it = 0; it < 8; ++it) {
        if (k >= 4) break;
        if (na == 0 && nb == 0) {
            X = qf128_put(X, k, u);
            if (k < 3) { k++; X = qf128_put(X, k, v); } else { leftover = v; }
            stored = true;
            break;
        }
        float t;
        if (na == 0) { t = B.x; B = vec4(B.yzw, 0.0); nb--; }
        else if (nb == 0) { t = A.x; A = vec4(A.yzw, 0.0); na--; }
        else if (abs(A.x) > abs(B.x)) { t = A.x; A = vec4(A.yzw, 0.0); na--; }
        else { t = B.x; B = vec4(B.yzw, 0.0); nb--; }
        // quick_three_accum(u, v, t)
        DF64_PRECISE vec2 p = df64_two_sum(v, t);
        DF64_PRECISE vec2 q = df64_two_sum(u, p.x);
        u = q.y;
        v = p.y;
        float s = q.x;
        bool za = u != 0.0;
        bool zb = v != 0.0;
        if (!(za && zb)) {
            if (!zb) { v = u; u = s; } else { u = s; }
            s = 0.0;
        }
        if (s != 0.0) { X = qf128_put(X, k, s); k++; }
    }
    // What the merge left: the remaining words are at the front of A and B, zeros after.
    if (!stored) leftover = DF64_B(leftover + DF64_B(u + v));
    leftover = DF64_B(DF64_B(DF64_B(DF64_B(DF64_B(DF64_B(DF64_B(DF64_B(leftover + A.x) + A.y)
            + A.z) + A.w) + B.x) + B.y) + B.z) + B.w);
    return qf128_renorm5(X.x, X.y, X.z, X.w, leftover);
}

vec4 qf128_neg(vec4 a) { a = DF64_B(a); return -a; }
vec4 qf128_sub(vec4 a, vec4 b) { a = DF64_B(a); b = DF64_B(b); return qf128_add(a, -b); }
vec4 qf128_sub_sloppy(vec4 a, vec4 b) {
    a = DF64_B(a); b = DF64_B(b);
    return qf128_add_sloppy(a, -b);
}

// ---------------------------------------------------------------- multiplication

// The part of QD's sloppy and accurate multiplies that is the same: the O(1), O(eps) and
// O(eps^2) products error-free and summed. head = (p0, p1, s0, s1), s2 and the error words
// err = (q0, q3, q4, q5) that the two versions treat differently.
void qf128_mul_head(vec4 a, vec4 b, out vec4 head, out float s2_out, out vec4 err) {
    a = DF64_B(a); b = DF64_B(b);
    DF64_PRECISE vec2 r0 = df64_two_prod(a.x, b.x);
    DF64_PRECISE vec2 r1 = df64_two_prod(a.x, b.y);
    DF64_PRECISE vec2 r2 = df64_two_prod(a.y, b.x);
    DF64_PRECISE vec2 r3 = df64_two_prod(a.x, b.z);
    DF64_PRECISE vec2 r4 = df64_two_prod(a.y, b.y);
    DF64_PRECISE vec2 r5 = df64_two_prod(a.z, b.x);
    DF64_PRECISE vec3 m = qf128_three_sum(r1.x, r2.x, r0.y);   // p1, p2, q0
    DF64_PRECISE vec3 n = qf128_three_sum(m.y, r1.y, r2.y);    // p2, q1, q2
    DF64_PRECISE vec3 o = qf128_three_sum(r3.x, r4.x, r5.x);   // p3, p4, p5
    DF64_PRECISE vec2 s0 = df64_two_sum(n.x, o.x);
    DF64_PRECISE vec2 s1 = df64_two_sum(n.y, o.y);
    DF64_PRECISE float s2 = DF64_B(n.z + o.z);
    DF64_PRECISE vec2 s1b = df64_two_sum(s1.x, s0.y);
    s2 = DF64_B(s2 + DF64_B(s1b.y + s1.y));
    head = vec4(r0.x, m.x, s0.x, s1b.x);
    s2_out = s2;
    err = vec4(m.z, r3.y, r4.y, r5.y);
}

// Thall's Fig. 8 (QD's sloppy_mul).
vec4 qf128_mul_sloppy(vec4 a, vec4 b) {
    a = DF64_B(a); b = DF64_B(b);
    DF64_PRECISE float p0 = DF64_B(a.x * b.x);
    if (qf128_nonfinite(p0)) return qf128_from_f32(p0);
    vec4 h;
    float s2;
    vec4 q;
    qf128_mul_head(a, b, h, s2, q);
    DF64_PRECISE float e3 = DF64_B(DF64_B(DF64_B(DF64_B(DF64_B(DF64_B(DF64_B(DF64_B(a.x * b.w)
            + DF64_B(a.y * b.z)) + DF64_B(a.z * b.y)) + DF64_B(a.w * b.x)) + q.x) + q.y) + q.z)
            + q.w);
    DF64_PRECISE float s1 = DF64_B(h.w + e3);
    return qf128_renorm5(h.x, h.y, h.z, s1, s2);
}

// Accurate multiply (QD's accurate_mul): the O(eps^3) products error-free too.
vec4 qf128_mul(vec4 a, vec4 b) {
    a = DF64_B(a); b = DF64_B(b);
    DF64_PRECISE float p0 = DF64_B(a.x * b.x);
    if (qf128_nonfinite(p0)) return qf128_from_f32(p0);
    vec4 h;
    float s2;
    vec4 q;
    qf128_mul_head(a, b, h, s2, q);
    DF64_PRECISE vec2 r6 = df64_two_prod(a.x, b.w);
    DF64_PRECISE vec2 r7 = df64_two_prod(a.y, b.z);
    DF64_PRECISE vec2 r8 = df64_two_prod(a.z, b.y);
    DF64_PRECISE vec2 r9 = df64_two_prod(a.w, b.x);
    DF64_PRECISE vec2 g0 = df64_two_sum(q.x, q.y);       // q0, q3
    DF64_PRECISE vec2 g1 = df64_two_sum(q.z, q.w);       // q4, q5
    DF64_PRECISE vec2 g2 = df64_two_sum(r6.x, r7.x);     // p6, p7
    DF64_PRECISE vec2 g3 = df64_two_sum(r8.x, r9.x);     // p8, p9
    DF64_PRECISE vec2 h0 = df64_two_sum(g0.x, g1.x);     // t0, t1
    DF64_PRECISE float h0l = DF64_B(h0.y + DF64_B(g0.y + g1.y));
    DF64_PRECISE vec2 h1 = df64_two_sum(g2.x, g3.x);     // r0, r1
    DF64_PRECISE float h1l = DF64_B(h1.y + DF64_B(g2.y + g3.y));
    DF64_PRECISE vec2 h2 = df64_two_sum(h0.x, h1.x);     // q3, q4
    DF64_PRECISE float h2l = DF64_B(h2.y + DF64_B(h0l + h1l));
    DF64_PRECISE vec2 h3 = df64_two_sum(h2.x, h.w);      // t0, t1
    DF64_PRECISE float t1 = DF64_B(h3.y + h2l);
    t1 = DF64_B(t1
            + DF64_B(DF64_B(DF64_B(DF64_B(DF64_B(DF64_B(DF64_B(DF64_B(a.y * b.w)
            + DF64_B(a.z * b.z)) + DF64_B(a.w * b.y)) + r6.y) + r7.y) + r8.y) + r9.y) + s2));
    return qf128_renorm5(h.x, h.y, h.z, h3.x, t1);
}

// a * b for a float b.
vec4 qf128_mul_f32(vec4 a, float b) {
    a = DF64_B(a); b = DF64_B(b);
    DF64_PRECISE vec2 r0 = df64_two_prod(a.x, b);
    if (qf128_nonfinite(r0.x)) return qf128_from_f32(r0.x);
    DF64_PRECISE vec2 r1 = df64_two_prod(a.y, b);
    DF64_PRECISE vec2 r2 = df64_two_prod(a.z, b);
    DF64_PRECISE float p3 = DF64_B(a.w * b);
    DF64_PRECISE vec2 s1 = df64_two_sum(r0.y, r1.x);           // s1, s2
    DF64_PRECISE vec3 t = qf128_three_sum(s1.y, r1.y, r2.x);   // s2, q1, p2
    DF64_PRECISE vec2 u = qf128_three_sum2(t.y, r2.y, p3);     // q1, q2
    DF64_PRECISE float s4 = DF64_B(u.y + t.z);
    return qf128_renorm5(r0.x, s1.x, t.x, u.x, s4);
}

// a * b for a df64 b.
vec4 qf128_mul_df64(vec4 a, vec2 b) {
    a = DF64_B(a); b = DF64_B(b);
    DF64_PRECISE vec2 r0 = df64_two_prod(a.x, b.x);
    if (qf128_nonfinite(r0.x)) return qf128_from_f32(r0.x);
    DF64_PRECISE vec2 r1 = df64_two_prod(a.x, b.y);
    DF64_PRECISE vec2 r2 = df64_two_prod(a.y, b.x);
    DF64_PRECISE vec2 r3 = df64_two_prod(a.y, b.y);
    DF64_PRECISE vec2 r4 = df64_two_prod(a.z, b.x);
    DF64_PRECISE vec3 m = qf128_three_sum(r1.x, r2.x, r0.y);   // p1, p2, q0
    DF64_PRECISE vec3 n = qf128_three_sum(m.y, r3.x, r4.x);    // p2, p3, p4
    DF64_PRECISE vec2 q = df64_two_sum(r1.y, r2.y);            // q1, q2
    DF64_PRECISE vec2 s0 = df64_two_sum(n.x, q.x);
    DF64_PRECISE vec2 s1 = df64_two_sum(n.y, q.y);
    DF64_PRECISE vec2 s1b = df64_two_sum(s1.x, s0.y);
    DF64_PRECISE float s2 = DF64_B(DF64_B(s1b.y + s1.y) + n.z);
    DF64_PRECISE float p3 = DF64_B(DF64_B(DF64_B(DF64_B(a.z * b.y) + DF64_B(a.w * b.x)) + r3.y)
            + r4.y);
    DF64_PRECISE vec2 w = qf128_three_sum2(p3, m.z, s1b.x);    // p3, q0
    DF64_PRECISE float p4 = DF64_B(w.y + s2);
    return qf128_renorm5(r0.x, m.x, s0.x, w.x, p4);
}

// a^2 (QD's sqr).
vec4 qf128_sqr(vec4 a) {
    a = DF64_B(a);
    DF64_PRECISE vec2 r0 = df64_two_prod(a.x, a.x);
    if (qf128_nonfinite(r0.x)) return qf128_from_f32(r0.x);
    DF64_PRECISE float a2 = DF64_B(2.0 * a.x);
    DF64_PRECISE vec2 r1 = df64_two_prod(a2, a.y);
    DF64_PRECISE vec2 r2 = df64_two_prod(a2, a.z);
    DF64_PRECISE vec2 r3 = df64_two_prod(a.y, a.y);
    DF64_PRECISE vec2 u = df64_two_sum(r0.y, r1.x);   // p1, q0
    DF64_PRECISE vec2 v = df64_two_sum(u.y, r1.y);    // q0, q1
    DF64_PRECISE vec2 w = df64_two_sum(r2.x, r3.x);   // p2, p3
    DF64_PRECISE vec2 s0 = df64_two_sum(v.x, w.x);
    DF64_PRECISE vec2 s1 = df64_two_sum(v.y, w.y);
    DF64_PRECISE vec2 s1b = df64_two_sum(s1.x, s0.y);
    DF64_PRECISE float t0 = DF64_B(s1b.y + s1.y);
    DF64_PRECISE vec2 s1c = df64_quick_two_sum(s1b.x, t0);   // s1, t0
    DF64_PRECISE vec2 p2 = df64_quick_two_sum(s0.x, s1c.x);  // p2, t1
    DF64_PRECISE vec2 p3 = df64_quick_two_sum(p2.y, s1c.y);  // p3, q0
    DF64_PRECISE float p4 = DF64_B(DF64_B(2.0 * a.x) * a.w);
    DF64_PRECISE float p5 = DF64_B(DF64_B(2.0 * a.y) * a.z);
    DF64_PRECISE vec2 x4 = df64_two_sum(p4, p5);
    DF64_PRECISE vec2 x2 = df64_two_sum(r2.y, r3.y);
    DF64_PRECISE vec2 y0 = df64_two_sum(x4.x, x2.x);
    DF64_PRECISE float y1 = DF64_B(DF64_B(y0.y + x4.y) + x2.y);
    DF64_PRECISE vec2 z = df64_two_sum(p3.x, y0.x);
    DF64_PRECISE float z4 = DF64_B(DF64_B(z.y + p3.y) + y1);
    return qf128_renorm5(r0.x, u.x, p2.x, z.x, z4);
}

vec4 qf128_ldexp(vec4 a, int n) {
    a = DF64_B(a);
    return vec4(df64_ldexp(a.xy, n), df64_ldexp(a.zw, n));
}

// ---------------------------------------------------------------- division and roots

// Long division with five quotient words (QD's accurate_div), on operands whose exponents are
// near 0: the unscaled core of qf128_div.
vec4 qf128_div_unscaled(vec4 a, vec4 b) {
    a = DF64_B(a); b = DF64_B(b);
    DF64_PRECISE float q0 = DF64_B(a.x / b.x);
    if (qf128_nonfinite(q0) || qf128_nonfinite(b.x)) return qf128_from_f32(q0);
    DF64_PRECISE vec4 r = qf128_sub(a, qf128_mul_f32(b, q0));
    DF64_PRECISE float q1 = DF64_B(r.x / b.x);
    r = qf128_sub(r, qf128_mul_f32(b, q1));
    DF64_PRECISE float q2 = DF64_B(r.x / b.x);
    r = qf128_sub(r, qf128_mul_f32(b, q2));
    DF64_PRECISE float q3 = DF64_B(r.x / b.x);
    r = qf128_sub(r, qf128_mul_f32(b, q3));
    DF64_PRECISE float q4 = DF64_B(r.x / b.x);
    return qf128_renorm5(q0, q1, q2, q3, q4);
}

// r * 2^n for a result of a scaled core: each pair of words scaled with one rounding; an
// overflow is (±inf, 0, 0, 0), as every routine returns it.
vec4 qf128_scale(vec4 r, int n) {
    r = DF64_B(r);
    DF64_PRECISE vec4 s = qf128_ldexp(r, n);
    if (qf128_nonfinite(s.x)) return qf128_from_f32(s.x);
    return s;
}

// Division at every exponent: both operands scaled to [1, 4) by exact powers of two (without
// it the remainders of 1 / 2^-40 fall below 2^-126 and are flushed: 12 correct bits), divided,
// and the quotient scaled back.
vec4 qf128_div(vec4 a, vec4 b) {
    a = DF64_B(a); b = DF64_B(b);
    if (df64_special(a.x) || df64_special(b.x)) return qf128_div_unscaled(a, b);
    int ka = df64_normalizer(a.x);
    int kb = df64_normalizer(b.x);
    DF64_PRECISE vec4 q = qf128_div_unscaled(qf128_ldexp(a, ka), qf128_ldexp(b, kb));
    return qf128_scale(q, kb - ka);
}

vec4 qf128_recip(vec4 a) { a = DF64_B(a); return qf128_div(vec4(1.0, 0.0, 0.0, 0.0), a); }

vec4 qf128_sqrt_special(vec4 a) {
    a = DF64_B(a);
    return a.x == 0.0 ? qf128_from_f32(a.x) : qf128_from_f32(sqrt(a.x));
}

// Square root of a in [1, 4): the accurate df64 root s, then one Karp step s + (a - s^2) / (2 s)
// with the residual in qf128.
vec4 qf128_sqrt_unscaled(vec4 a) {
    a = DF64_B(a);
    DF64_PRECISE vec2 s0 = df64_sqrt(qf128_to_df64(a));
    DF64_PRECISE vec4 s = qf128_from_df64(s0);
    DF64_PRECISE vec4 d = qf128_sub(a, qf128_sqr(s));
    DF64_PRECISE vec2 inv = df64_recip(DF64_B(2.0 * s0));
    return qf128_add(s, qf128_mul_df64(d, inv));
}

// Square root at every exponent: a scaled by an even power of two to [1, 4), the root scaled
// back by half of it (exact).
vec4 qf128_sqrt(vec4 a) {
    a = DF64_B(a);
    if (a.x <= 0.0 || qf128_nonfinite(a.x)) return qf128_sqrt_special(a);
    int k = df64_even_normalizer(a.x);
    return qf128_scale(qf128_sqrt_unscaled(qf128_ldexp(a, k)), -k / 2);
}

// 1 / sqrt(a) for a in [1, 4): the accurate df64 value y, then one Newton step
// y + y (1 - a y^2) / 2 in qf128.
vec4 qf128_rsqrt_unscaled(vec4 a) {
    a = DF64_B(a);
    DF64_PRECISE vec2 y0 = df64_rsqrt(qf128_to_df64(a));
    DF64_PRECISE vec4 y = qf128_from_df64(y0);
    DF64_PRECISE vec4 e = qf128_sub(vec4(1.0, 0.0, 0.0, 0.0), qf128_mul(a, qf128_sqr(y)));
    return qf128_add(y, qf128_mul_df64(e, DF64_B(0.5 * y0)));
}

// 1 / sqrt(a) at every exponent, scaled as qf128_sqrt.
vec4 qf128_rsqrt(vec4 a) {
    a = DF64_B(a);
    if (a.x <= 0.0 || qf128_nonfinite(a.x)) return qf128_recip(qf128_sqrt_special(a));
    int k = df64_even_normalizer(a.x);
    return qf128_scale(qf128_rsqrt_unscaled(qf128_ldexp(a, k)), k / 2);
}

// ---------------------------------------------------------------- comparisons

bool qf128_eq(vec4 a, vec4 b) { a = DF64_B(a); b = DF64_B(b); return all(equal(a, b)); }
bool qf128_lt(vec4 a, vec4 b) {
    a = DF64_B(a); b = DF64_B(b);
    return a.x < b.x
            || (a.x == b.x
            && (a.y < b.y || (a.y == b.y && (a.z < b.z || (a.z == b.z && a.w < b.w)))));
}
bool qf128_gt(vec4 a, vec4 b) { a = DF64_B(a); b = DF64_B(b); return qf128_lt(b, a); }
bool qf128_le(vec4 a, vec4 b) { a = DF64_B(a); b = DF64_B(b); return !qf128_gt(a, b); }
bool qf128_ge(vec4 a, vec4 b) { a = DF64_B(a); b = DF64_B(b); return !qf128_lt(a, b); }

// ---------------------------------------------------------------- elementary functions

vec4 qf128_coef(bool odd_table, int i) {
    return odd_table
            ? vec4(QF128_INV_ODD[4 * i], QF128_INV_ODD[4 * i + 1], QF128_INV_ODD[4 * i + 2],
            QF128_INV_ODD[4 * i + 3])
            : vec4(QF128_INV_FACT[4 * i], QF128_INV_FACT[4 * i + 1], QF128_INV_FACT[4 * i + 2],
            QF128_INV_FACT[4 * i + 3]);
}

vec4 qf128_horner(vec4 x, bool odd_table, int first, int count, int step, bool alternate) {
    x = DF64_B(x);
    DF64_PRECISE vec4 h = qf128_coef(odd_table, first + (count - 1) * step);
    if (alternate && ((count - 1) % 2 == 1)) h = -h;
    for (int k = count - 2; k >= 0; --k) {
        vec4 c = qf128_coef(odd_table, first + k * step);
        if (alternate && (k % 2 == 1)) c = -c;
        h = qf128_add(qf128_mul(h, x), c);
    }
    return h;
}

// a - k (c0 + ... + c4): exact products of the first four words, accurate adds.
vec4 qf128_reduce(vec4 a, float k, float c0, float c1, float c2, float c3, float c4) {
    a = DF64_B(a); k = DF64_B(k);
    c0 = DF64_B(c0); c1 = DF64_B(c1); c2 = DF64_B(c2); c3 = DF64_B(c3); c4 = DF64_B(c4);
    DF64_PRECISE vec4 r = a;
    DF64_PRECISE vec2 p = df64_two_prod(k, c0);
    r = qf128_add(r, vec4(-p, 0.0, 0.0));
    p = df64_two_prod(k, c1);
    r = qf128_add(r, vec4(-p, 0.0, 0.0));
    p = df64_two_prod(k, c2);
    r = qf128_add(r, vec4(-p, 0.0, 0.0));
    p = df64_two_prod(k, c3);
    r = qf128_add(r, vec4(-p, 0.0, 0.0));
    DF64_PRECISE float t = DF64_B(k * c4);
    return qf128_add(r, qf128_from_f32(-t));
}

vec4 qf128_word4(int which, int i) {
    if (which == 0) return vec4(QF128_EXP2_TABLE[4 * i], QF128_EXP2_TABLE[4 * i + 1],
            QF128_EXP2_TABLE[4 * i + 2], QF128_EXP2_TABLE[4 * i + 3]);
    return vec4(QF128_LOG_TABLE[4 * i], QF128_LOG_TABLE[4 * i + 1], QF128_LOG_TABLE[4 * i + 2],
            QF128_LOG_TABLE[4 * i + 3]);
}

vec4 qf128_exp(vec4 a) {
    a = DF64_B(a);
    if (df64_isnan(a.x)) return a;
    if (a.x > 88.72283) return qf128_from_f32(df64_inf());
    if (a.x < -87.33654) return vec4(0.0);
    DF64_PRECISE float k = floor(DF64_B(DF64_B(a.x * 46.16624) + 0.5));
    DF64_PRECISE vec4 t = qf128_reduce(a, k, QF128_LN2_32[0], QF128_LN2_32[1], QF128_LN2_32[2],
            QF128_LN2_32[3], QF128_LN2_32[4]);
    DF64_PRECISE vec4 h = qf128_horner(t, false, 2, 10, 1, false);
    DF64_PRECISE vec4 q = qf128_add(t, qf128_mul(qf128_sqr(t), h));
    DF64_PRECISE float n = floor(DF64_B(k / 32.0));
    int j = int(DF64_B(k - DF64_B(32.0 * n)));
    vec4 tj = qf128_word4(0, j);
    return qf128_ldexp(qf128_add(tj, qf128_mul(tj, q)), int(n));
}

vec4 qf128_log(vec4 a) {
    a = DF64_B(a);
    if (df64_isnan(a.x) || a.x < 0.0) return qf128_from_f32(df64_nan().x);
    if (a.x == 0.0) return qf128_from_f32(-df64_inf());
    if (df64_isinf(a.x)) return a;
    // A subnormal (where the driver keeps them) has no exponent in its bits: lift it by 2^24,
    // exactly, so that it has one.
    int lift = 0;
    if (df64_biased_exponent(a.x) == 0) {
        a = DF64_B(a * 16777216.0);
        lift = 24;
    }
    int e = df64_exponent(a.x);
    DF64_PRECISE vec4 m = qf128_ldexp(a, -e);
    e -= lift;
    if (m.x < 0.703125) {
        m = qf128_ldexp(m, 1);
        e -= 1;
    }
    DF64_PRECISE float i = floor(DF64_B(DF64_B(m.x * 64.0) + 0.5));
    vec4 c = qf128_from_f32(DF64_B(i / 64.0));
    DF64_PRECISE vec4 f = qf128_div(qf128_sub(m, c), qf128_add(m, c));
    DF64_PRECISE vec4 f2 = qf128_sqr(f);
    DF64_PRECISE vec4 s = qf128_mul(f2, qf128_horner(f2, true, 1, 7, 1, false));
    DF64_PRECISE vec4 at = qf128_ldexp(qf128_add(f, qf128_mul(f, s)), 1);
    float ef = float(e);
    // i is 45 to 90 for a normalised input; the clamp keeps any other value inside the table.
    int row = clamp(int(i), 45, 91);
    DF64_PRECISE vec4 r = qf128_word4(1, row - 45);
    for (int w = 0; w < 4; ++w) {
        DF64_PRECISE vec2 p = df64_two_prod(ef, QF128_LN2[w]);
        r = qf128_add(r, vec4(p, 0.0, 0.0));
    }
    DF64_PRECISE float l4 = DF64_B(ef * QF128_LN2[4]);
    r = qf128_add(r, qf128_from_f32(l4));
    return qf128_add(r, at);
}

// sin r and cos r for |r| <= pi/4: the series alone, no reduction (for callers whose argument
// is reduced already, as the FFT's twiddles).
void qf128_sincos_reduced(vec4 r, out vec4 s, out vec4 c) {
    r = DF64_B(r);
    DF64_PRECISE vec4 r2 = qf128_sqr(r);
    DF64_PRECISE vec4 sp = qf128_horner(r2, false, 3, 13, 2, true);
    s = qf128_sub(r, qf128_mul(qf128_mul(r, r2), sp));
    DF64_PRECISE vec4 cp = qf128_horner(r2, false, 2, 14, 2, true);
    c = qf128_sub(vec4(1.0, 0.0, 0.0, 0.0), qf128_mul(r2, cp));
}

// r = a - n pi/2 with |r| <= pi/4, and n mod 4, for every finite a: a itself up to pi/4,
// Payne and Hanek's reduction (df64_reduce_long on all four words, 240 bits of the fraction,
// at least 108 of them kept) above, so that r keeps 96 bits however close a lies to a
// multiple of pi/2; the fraction's five words renormalised, times pi/2 in four words.
vec4 qf128_trig_reduce(vec4 a, out int quadrant) {
    a = DF64_B(a);
    if (abs(a.x) <= 0.7853982) {
        quadrant = 0;
        return a;
    }
    vec4 f;
    float f4;
    int f_exp;
    quadrant = df64_reduce_long(a, 4, f, f4, f_exp);
    DF64_PRECISE vec4 fr = qf128_renorm5(f.x, f.y, f.z, f.w, f4);
    vec4 pi_2 = vec4(QF128_PI_2[0], QF128_PI_2[1], QF128_PI_2[2], QF128_PI_2[3]);
    return qf128_ldexp(qf128_mul(fr, pi_2), f_exp);
}

// sin a and cos a for every finite a (NaN at inf and NaN).
void qf128_sincos(vec4 a, out vec4 s_out, out vec4 c_out) {
    a = DF64_B(a);
    if (df64_isnan(a.x) || df64_isinf(a.x)) {
        s_out = qf128_from_f32(df64_nan().x);
        c_out = s_out;
        return;
    }
    int q;
    DF64_PRECISE vec4 r = qf128_trig_reduce(a, q);
    vec4 s, c;
    qf128_sincos_reduced(r, s, c);
    if (q == 0) { s_out = s; c_out = c; }
    else if (q == 1) { s_out = c; c_out = -s; }
    else if (q == 2) { s_out = -s; c_out = -c; }
    else { s_out = -c; c_out = s; }
}

vec4 qf128_sin(vec4 a) {
    a = DF64_B(a);
    if (a.x == 0.0) return a; // sin(+-0) = +-0
    vec4 s, c;
    qf128_sincos(a, s, c);
    return s;
}
vec4 qf128_cos(vec4 a) { a = DF64_B(a); vec4 s, c; qf128_sincos(a, s, c); return c; }
