// df64_func.glsl: df64 elementary functions (exp, expm1, log, log1p, log2, log10, trigonometry,
// hyperbolic, pow, powi, rounding, fmod/remainder, frexp). Paste after df64.glsl.
// Rust mirror: src/numeric/df64_func.rs.
//
// Each function reduces its argument with multi-word constants and exact products, evaluates a
// short series on a small interval, and ends in one rounding (an accurate df64 operation, or a
// three-word sum rounded once): every function within 1 ulp48 of the exact value wherever it
// lies in the domain (pow 2, powi as it states). Limits:
//  - exp is finite up to x = 88.72283 and +0 below -103.97208 (ln 2^-150); between
//    -103.97208 and -87.33654 its result is an f32 subnormal where the driver keeps them and
//    +0 where it flushes them;
//  - sin, cos, tan take every finite argument: above |x| = 2^23 by Payne and Hanek's
//    reduction (in integers, with 384 bits of 2/pi);
//  - fmod and remainder are exact whenever the result is a df64 and |a/b| < 2^24, and NaN
//    where |a.x / b.x| >= 2^24 (their quotient digits can go wrong there).
// The fast tier (df64_exp_fast, df64_log_fast within 2 ulp48; df64_sin_fast, df64_cos_fast
// within 4 for |x| up to 2^20) is at the end.
// Needs df64.glsl before it.

// Constants (generated from a 320-bit oracle; src/numeric/df64_consts.rs holds the same words).
const float DF64_LN2[3] = float[](
    6.931472e-1, -1.9046542e-9, -8.783184e-17);
const float DF64_LN2_32[3] = float[](
    2.166085e-2, -5.9520444e-11, -2.744745e-18);
const float DF64_PI[4] = float[](
    3.1415927e0, -8.742278e-8, -3.430249e-15, 2.1125998e-23);
const float DF64_PI_2[5] = float[](
    1.5707964e0, -4.371139e-8, -1.7151245e-15, 1.0562999e-23, 8.4784276e-32);
const float DF64_PI_4[3] = float[](
    7.853982e-1, -2.1855694e-8, -8.5756226e-16);
const float DF64_INV_PI_2[2] = float[](
    6.3661975e-1, 2.5682553e-8);
const float DF64_LOG2_E[3] = float[](
    1.442695e0, 1.925963e-8, -4.2373395e-16);
const float DF64_LOG10_E[3] = float[](
    4.342945e-1, -1.010305e-8, -1.00039104e-16);
const float DF64_LOG10_2[3] = float[](
    3.0103e-1, -1.4320989e-8, -5.8314877e-17);
const float DF64_EXP2_TABLE[96] = float[](
    1e0, 0e0, 0e0, 1.0218972e0, -4.81156e-8, 9.392707e-16,
    1.0442737e0, 4.83347e-8, -1.3652571e-16, 1.0671405e0, -5.933752e-8, 1.4304606e-16,
    1.0905077e0, -1.307754e-8, -2.5251243e-16, 1.1143868e0, -5.43554e-8, -1.2281648e-15,
    1.1387886e0, 5.3862223e-8, -1.6872288e-15, 1.1637249e0, -4.0514415e-8, 2.6033666e-16,
    1.1892071e0, 3.7976353e-8, 1.1500432e-15, 1.2152474e0, -3.267395e-8, -1.1873493e-15,
    1.2418578e0, 4.496838e-8, 4.906695e-16, 1.269051e0, 1.4193333e-9, 2.667932e-18,
    1.2968396e0, -4.0189995e-8, 1.5796947e-15, 1.3252367e0, -3.4963733e-8, 4.155019e-16,
    1.3542556e0, -1.0123349e-8, 2.990541e-16, 1.38391e0, -5.8755774e-8, 1.0425179e-15,
    1.4142135e0, 2.4203235e-8, -7.6280674e-16, 1.4451808e0, 3.3242e-8, 8.579408e-16,
    1.4768262e0, -4.500899e-8, 1.5194723e-15, 1.5091645e0, -2.4959373e-8, 5.6448827e-16,
    1.5422108e0, 8.070905e-9, -1.4254626e-16, 1.5759809e0, -5.6610254e-8, 1.1000862e-15,
    1.6104903e0, 9.836217e-9, 2.4707193e-17, 1.6457555e0, -5.124972e-8, -7.673906e-16,
    1.6817929e0, -2.4755327e-8, -5.841437e-16, 1.7186193e0, -4.8496176e-8, 1.5357984e-15,
    1.7562522e0, -9.23577e-9, 2.9601406e-17, 1.7947091e0, -1.1415045e-8, 2.4027207e-16,
    1.8340081e0, -1.1239278e-8, -1.8921353e-16, 1.8741677e0, -4.6630056e-8, -2.8327225e-16,
    1.9152066e0, 9.845328e-9, 3.3788975e-16, 1.9571441e0, -1.7021804e-8, 8.9607675e-17);
const float DF64_LOG_TABLE[141] = float[](
    -3.522206e-1, 1.293613e-9, -5.7233317e-18, -3.3024168e-1, -6.725313e-9, 1.0828322e-17,
    -3.087355e-1, 8.195663e-9, -2.0584542e-16, -2.876821e-1, 1.37775436e-8, -1.3709391e-16,
    -2.6706278e-1, -2.0077733e-9, 7.328915e-18, -2.4686007e-1, -5.91481e-9, 1.806716e-16,
    -2.2705746e-1, 6.3348686e-9, 1.2922646e-16, -2.0763937e-1, 1.6100764e-9, 1.5702333e-17,
    -1.8859117e-1, -2.476808e-9, -4.8078986e-17, -1.6989903e-1, -5.2755076e-9, -5.502435e-17,
    -1.515499e-1, 7.411358e-9, -1.7170041e-16, -1.3353139e-1, -1.0038866e-9, 3.6644577e-18,
    -1.15831815e-1, -8.187962e-10, 2.3417091e-17, -9.844007e-2, 6.1728567e-10, -9.4387785e-18,
    -8.134564e-2, 6.6893807e-10, -5.077076e-18, -6.453852e-2, 2.4172309e-9, -9.067403e-17,
    -4.800922e-2, 1.3243606e-9, -2.2255772e-17, -3.1748697e-2, -1.1529058e-9, -3.0793803e-17,
    -1.5748357e-2, 4.3215895e-10, 2.467289e-18, 0e0, 0e0, 0e0,
    1.5504187e-2, -4.3701048e-10, 6.611062e-18, 3.0771658e-2, 8.422374e-10, 1.0431732e-18,
    4.5809537e-2, -1.1410233e-9, -2.5852615e-17, 6.062462e-2, 7.905942e-12, 4.031738e-20,
    7.522342e-2, -2.3030047e-9, 7.947183e-18, 8.9612156e-2, 2.536962e-9, -6.0937966e-17,
    1.03796795e-1, -1.3289232e-9, 4.711109e-17, 1.1778303e-1, 3.2986907e-9, 8.206956e-17,
    1.3157636e-1, -1.4832839e-9, 3.8878577e-17, 1.4518201e-1, -3.66716e-9, 9.1509145e-17,
    1.5860502e-1, 5.9580794e-9, -4.4254146e-17, 1.7185026e-1, -7.145759e-9, 1.0499985e-16,
    1.8492234e-1, 9.619685e-10, 3.077924e-17, 1.9782574e-1, -1.4181957e-9, 1.28211944e-17,
    2.1056476e-1, 6.7534525e-9, 7.901732e-17, 2.2314355e-1, 3.5408485e-9, 4.641988e-17,
    2.3556606e-1, 6.5973813e-9, 1.6413912e-16, 2.4783616e-1, 6.2250236e-9, -1.5121009e-16,
    2.5995752e-1, 2.2830717e-9, -3.481308e-17, 2.719337e-1, 1.0869003e-8, -1.1023898e-16,
    2.8376818e-1, -3.901826e-9, -1.3134896e-16, 2.9546422e-1, -4.7689754e-9, 3.3865042e-17,
    3.0702505e-1, -9.861567e-9, -3.4538682e-16, 3.1845373e-1, 1.9658553e-9, -8.390752e-17,
    3.2975328e-1, 6.686494e-9, -1.6441144e-16, 3.409266e-1, -6.1104133e-10, 1.7467136e-17,
    3.5197642e-1, -1.2984646e-9, 4.2557258e-17);
const float DF64_ATAN_TABLE[195] = float[](
    0e0, 0e0, 0e0, 1.5623729e-2, -1.2420882e-10, 4.7128103e-18,
    3.1239834e-2, -2.525072e-10, -1.15967835e-17, 4.6840712e-2, 4.878767e-10, 1.371222e-17,
    6.241881e-2, -1.0272779e-9, -4.3182438e-17, 7.796663e-2, 3.3727106e-9, -3.5828812e-17,
    9.347678e-2, 1.3996593e-9, -2.0162261e-17, 1.0894196e-1, -3.646798e-10, -7.051075e-18,
    1.24354996e-1, -1.2403822e-9, -3.08809e-17, 1.3970888e-1, -2.3206386e-9, -3.0713564e-17,
    1.5499674e-1, 4.0861496e-9, -1.0143689e-16, 1.7021193e-1, -8.1716384e-10, -3.541164e-18,
    1.8534794e-1, 5.4976326e-9, 5.969184e-17, 2.0039855e-1, 4.3883555e-9, 1.696734e-16,
    2.153577e-1, -6.252999e-9, 5.598497e-17, 2.3021959e-1, -4.0683396e-10, 1.2313405e-17,
    2.4497867e-1, -3.1786778e-9, -7.256797e-17, 2.5962964e-1, -7.5946875e-9, 1.3026105e-16,
    2.7416745e-1, 2.837417e-9, 8.261354e-18, 2.8858736e-1, 3.199044e-10, 1.3471876e-17,
    3.0288488e-1, -8.353086e-9, -2.3305542e-16, 3.1705576e-1, -8.60497e-9, -3.520062e-16,
    3.3109608e-1, -6.2216645e-9, 1.0306969e-16, 3.4500217e-1, 2.8296636e-9, 8.80835e-17,
    3.5877067e-1, 1.7639499e-9, 3.0887334e-17, 3.7239844e-1, 1.0607265e-8, 4.0819037e-16,
    3.8588268e-1, -6.2496617e-9, -1.4274522e-16, 3.9922076e-1, 4.938259e-9, 2.246598e-17,
    4.1241044e-1, 3.5366268e-9, 3.963463e-17, 4.2544964e-1, -2.1887498e-9, 2.3315531e-17,
    4.3833655e-1, 8.668535e-9, -2.4942771e-17, 4.5106965e-1, 2.9543132e-9, 3.2807356e-17,
    4.636476e-1, 5.0121587e-9, -3.2812372e-17, 4.7606933e-1, -8.463672e-10, 1.4654487e-17,
    4.8833394e-1, 1.0550424e-8, 4.3271597e-16, 5.0044084e-1, -2.2805464e-8, -4.912709e-16,
    5.123895e-1, -2.075692e-8, -2.5462782e-17, 5.2417964e-1, -8.649185e-9, 2.275647e-16,
    5.3581125e-1, -7.480973e-9, 1.0695851e-16, 5.4728436e-1, 1.628712e-8, 3.82304e-16,
    5.585993e-1, 2.2111598e-8, 4.3863358e-16, 5.6975645e-1, 5.2140883e-9, -2.0978955e-16,
    5.8075637e-1, -1.2685229e-8, 9.660766e-17, 5.915997e-1, 7.500028e-9, 2.7124957e-16,
    6.0228735e-1, -5.9501493e-9, -8.1517994e-17, 6.128202e-1, -5.907421e-9, 1.9049255e-16,
    6.2319934e-1, -1.3747269e-8, -4.1736516e-16, 6.334259e-1, -8.430239e-9, -2.4933537e-16,
    6.435011e-1, 5.8689373e-9, 1.268571e-16, 6.5342635e-1, -7.982293e-9, -4.0828857e-16,
    6.63203e-1, -8.3162455e-9, -1.4178285e-16, 6.7283255e-1, -1.0245534e-9, -1.899315e-17,
    6.8231654e-1, 1.3202995e-8, 6.943223e-18, 6.9165665e-1, -2.7259501e-8, -2.3016175e-16,
    7.008544e-1, -1.2777476e-8, -1.3089857e-16, 7.0991164e-1, -2.5995245e-8, -8.2312777e-16,
    7.1883e-1, 1.01883355e-8, 4.226108e-16, 7.276113e-1, 2.9297043e-8, -1.08452974e-16,
    7.3625743e-1, -4.909868e-9, -1.8730523e-16, 7.447701e-1, 1.6062602e-8, 3.7015006e-16,
    7.531513e-1, -1.660708e-8, -3.5732384e-16, 7.614028e-1, -1.5972468e-8, 5.6496155e-16,
    7.695265e-1, -1.2227597e-9, -3.704992e-17, 7.775243e-1, 1.7904323e-8, -2.487211e-16,
    7.853982e-1, -2.1855694e-8, -8.5756226e-16);
const float DF64_INV_FACT[42] = float[](
    1e0, 0e0, 1e0, 0e0, 5e-1, 0e0,
    1.6666667e-1, -4.967054e-9, 4.1666668e-2, -1.2417635e-9, 8.333334e-3, -4.346172e-10,
    1.3888889e-3, -3.3631094e-11, 1.984127e-4, -2.7255969e-12, 2.4801588e-5, -3.406996e-13,
    2.7557319e-6, 3.7935712e-14, 2.755732e-7, -7.575112e-15, 2.5052108e-8, 4.417623e-16,
    2.0876756e-9, 1.1082839e-16, 1.6059044e-10, -5.3525265e-18, 1.1470745e-11, 2.3722077e-19,
    7.6471636e-13, 1.22007105e-20, 4.7794773e-14, 7.625444e-22, 2.8114574e-15, -1.0462085e-22,
    1.5619207e-16, 1.5404471e-24, 8.220635e-18, 1.6814781e-25, 4.1103176e-19, 3.2375117e-27);
const float DF64_INV_ODD[26] = float[](
    1e0, 0e0, 3.3333334e-1, -9.934108e-9, 2e-1, -2.9802323e-9,
    1.4285715e-1, -6.386212e-9, 1.1111111e-1, -8.278423e-10, 9.090909e-2, -2.7093021e-9,
    7.692308e-2, -2.865608e-9, 6.666667e-2, -3.4769376e-9, 5.882353e-2, -2.1913472e-10,
    5.263158e-2, -3.9213582e-10, 4.761905e-2, -8.869739e-10, 4.347826e-2, -8.098457e-10,
    4e-2, 8.9406965e-10);

vec2 df64_inv_fact(int n) { return vec2(DF64_INV_FACT[2 * n], DF64_INV_FACT[2 * n + 1]); }
vec2 df64_inv_odd(int k) { return vec2(DF64_INV_ODD[2 * k], DF64_INV_ODD[2 * k + 1]); }
vec2 df64_coef(bool odd_table, int i) { return odd_table ? df64_inv_odd(i) : df64_inv_fact(i); }

// x - k (c0 + c1 + c2 [+ c3]) with exact products and accurate subtractions (the cores: the
// operands are finite and a remainder under 2^-40 of them loses nothing that matters to exp).
vec2 df64_reduce3(vec2 a, float k, float c0, float c1, float c2) {
    a = DF64_B(a); k = DF64_B(k); c0 = DF64_B(c0); c1 = DF64_B(c1); c2 = DF64_B(c2);
    DF64_PRECISE vec2 r = df64_add_core(a, -df64_two_prod(k, c0));
    r = df64_add_core(r, -df64_two_prod(k, c1));
    DF64_PRECISE float t = DF64_B(k * c2);
    return df64_add_core(r, vec2(-t, 0.0));
}

// n / d for three-word n and d (d nonzero and finite) to about 2^-70 of the quotient: both
// scaled to [1, 4), the accurate df64 quotient q, the remainder n - q d formed with exact
// products in the accumulator, and its quotient by d as a third word; scaled back.
vec3 df64_div3(vec3 n, vec3 d) {
    n = DF64_B(n); d = DF64_B(d);
    int kn = df64_normalizer(n.x);
    int kd = df64_normalizer(d.x);
    n = DF64_B(n * df64_pow2(kn));
    d = DF64_B(d * df64_pow2(kd));
    DF64_PRECISE vec2 q = df64_div(n.xy, d.xy);
    DF64_PRECISE vec2 p00 = df64_two_prod(q.x, d.x);
    DF64_PRECISE vec2 p01 = df64_two_prod(q.x, d.y);
    DF64_PRECISE vec2 p10 = df64_two_prod(q.y, d.x);
    DF64_PRECISE float t = DF64_B(DF64_B(q.x * d.z) + DF64_B(q.y * d.y));
    DF64_PRECISE vec3 r = n;
    r = df64_acc3(r, -p00.x);
    r = df64_acc3(r, -p00.y);
    r = df64_acc3(r, -p01.x);
    r = df64_acc3(r, -p10.x);
    r = df64_acc3(r, -p01.y);
    r = df64_acc3(r, -p10.y);
    r = df64_acc3(r, -t);
    DF64_PRECISE float delta = DF64_B(DF64_B(DF64_B(r.x + r.y) + r.z) / d.x);
    int s = kd - kn;
    int s1 = clamp(s, -120, 120);
    DF64_PRECISE vec3 o = DF64_B(vec3(q, delta) * df64_pow2(s1));
    return DF64_B(o * df64_pow2(clamp(s - s1, -126, 127)));
}

// c - a for three-word c and a, in the accumulator.
vec3 df64_sub3(vec3 c, vec3 a) {
    c = DF64_B(c); a = DF64_B(a);
    DF64_PRECISE vec3 r = df64_acc3(c, -a.x);
    r = df64_acc3(r, -a.y);
    return df64_acc3(r, -a.z);
}

// a b for three-word a and b (each word below 2^-23 of the one before) to about 2^-68 of the
// product: the three leading products exact, the next three rounded (2^-48 of the product),
// all summed in the exact accumulator. Three words out, the first two a normalised pair.
vec3 df64_mul3(vec3 a, vec3 b) {
    a = DF64_B(a); b = DF64_B(b);
    DF64_PRECISE vec2 p00 = df64_two_prod(a.x, b.x);
    DF64_PRECISE vec2 p01 = df64_two_prod(a.x, b.y);
    DF64_PRECISE vec2 p10 = df64_two_prod(a.y, b.x);
    DF64_PRECISE float t = DF64_B(DF64_B(DF64_B(a.x * b.z) + DF64_B(a.y * b.y))
            + DF64_B(a.z * b.x));
    DF64_PRECISE vec3 acc = vec3(p00.x, p00.y, 0.0);
    acc = df64_acc3(acc, p01.x);
    acc = df64_acc3(acc, p10.x);
    acc = df64_acc3(acc, p01.y);
    acc = df64_acc3(acc, p10.y);
    acc = df64_acc3(acc, t);
    DF64_PRECISE vec2 hh = df64_two_sum(acc.x, acc.y);
    return vec3(hh, acc.z);
}

// a - k pi/2 with pi/2 to five words (~120 bits) and every product and partial sum exact, so
// the result keeps its relative accuracy even when a lies within 2^-60 of a multiple of pi/2.
// The largest terms cancel first, exactly, so the accumulator starts near the result's size.
vec2 df64_reduce_pi_2(vec2 a, float k) {
    a = DF64_B(a); k = DF64_B(k);
    DF64_PRECISE vec2 p0 = df64_two_prod(k, DF64_PI_2[0]);
    DF64_PRECISE vec2 p1 = df64_two_prod(k, DF64_PI_2[1]);
    DF64_PRECISE vec2 e = df64_two_diff(a.y, p0.y);
    DF64_PRECISE vec2 g = df64_two_sum(DF64_B(a.x - p0.x), e.x);
    DF64_PRECISE vec2 h = df64_two_sum(g.x, -p1.x);
    DF64_PRECISE vec3 acc = vec3(h.x, h.y, 0.0);
    acc = df64_acc3(acc, g.y);
    acc = df64_acc3(acc, e.y);
    acc = df64_acc3(acc, -p1.y);
    for (int i = 2; i < 4; ++i) {
        DF64_PRECISE vec2 p = df64_two_prod(k, DF64_PI_2[i]);
        acc = df64_acc3(acc, -p.x);
        acc = df64_acc3(acc, -p.y);
    }
    DF64_PRECISE float t = DF64_B(k * DF64_PI_2[4]);
    acc = df64_acc3(acc, -t);
    DF64_PRECISE vec2 hh = df64_two_sum(acc.x, acc.y);
    DF64_PRECISE float lo = DF64_B(hh.y + acc.z);
    return df64_quick_two_sum(hh.x, lo);
}

// Horner: c[first] + x (c[first+step] + x (...)), count coefficients, signs alternating if asked.
// On the accurate cores (0.5 ulp48 each, no scaling, no special values): x is a reduced
// argument (|x| <= 1) and every step finite; a step whose value falls below 2^-40 (a top
// coefficient, or x tiny) loses bits the series' sum cannot see.
vec2 df64_horner(vec2 x, bool odd_table, int first, int count, int step, bool alternate) {
    x = DF64_B(x);
    float sl = (alternate && ((count - 1) % 2 == 1)) ? -1.0 : 1.0;
    DF64_PRECISE vec2 h = DF64_B(df64_coef(odd_table, first + (count - 1) * step) * sl);
    for (int k = count - 2; k >= 0; --k) {
        float si = (alternate && (k % 2 == 1)) ? -1.0 : 1.0;
        h = df64_add_core(df64_mul_core(h, x), DF64_B(df64_coef(odd_table, first + k * step) * si));
    }
    return h;
}

// ---------------------------------------------------------------- exp family

// expm1(t) for |t| <= ln2/64.
vec2 df64_expm1_kernel(vec2 t) {
    t = DF64_B(t);
    DF64_PRECISE vec2 h = df64_horner(t, false, 2, 6, 1, false);
    return df64_add_core(t, df64_mul_core(df64_sqr_core(t), h));
}

// exp(a) = 2^n T[j] (1 + q), k = round(32 a / ln2) = 32 n + j.
void df64_exp_parts(vec2 a, out float n, out int j, out vec2 q) {
    a = DF64_B(a);
    DF64_PRECISE float k = floor(DF64_B(DF64_B(a.x * 46.16624) + 0.5));
    DF64_PRECISE vec2 t = df64_reduce3(a, k, DF64_LN2_32[0], DF64_LN2_32[1], DF64_LN2_32[2]);
    q = df64_expm1_kernel(t);
    n = floor(DF64_B(k / 32.0));
    j = int(DF64_B(k - DF64_B(32.0 * n)));
}

#define DF64_EXP_MAX 88.72283
#define DF64_EXP_MIN -103.97208

vec2 df64_exp(vec2 a) {
    a = DF64_B(a);
    if (df64_isnan(a.x)) return a;
    if (a.x > DF64_EXP_MAX) return vec2(df64_inf(), 0.0);
    if (a.x < DF64_EXP_MIN) return vec2(0.0);
    float n;
    int j;
    vec2 q;
    df64_exp_parts(a, n, j, q);
    vec2 th = vec2(DF64_EXP2_TABLE[3 * j], DF64_EXP2_TABLE[3 * j + 1]);
    DF64_PRECISE vec2 small = df64_add_core(df64_mul_core(th, q), vec2(DF64_EXP2_TABLE[3 * j + 2], 0.0));
    return df64_ldexp(df64_add_core(th, small), int(n));
}

// expm1(a) in three words, unrounded, for a finite a in [-20, 40] (for expm1 itself and for
// sinh and tanh, which divide by it).
vec3 df64_expm1_3(vec2 a) {
    a = DF64_B(a);
    if (abs(a.x) < 0.010830425) {
        // The kernel's t + t^2 (1/2 + t/6 + ...), its tail not rounded into t.
        DF64_PRECISE vec2 h = df64_horner(a, false, 2, 6, 1, false);
        DF64_PRECISE vec2 u = df64_mul(df64_sqr(a), h);
        return df64_acc3(df64_acc3(vec3(a, 0.0), u.x), u.y);
    }
    float n;
    int j;
    vec2 q;
    df64_exp_parts(a, n, j, q);
    int ni = int(n);
    vec2 th = vec2(DF64_EXP2_TABLE[3 * j], DF64_EXP2_TABLE[3 * j + 1]);
    // 2^n T - 1 + 2^n T q, the first difference exact.
    DF64_PRECISE vec2 w = df64_two_sum(df64_ldexp(vec2(th.x, 0.0), ni).x, -1.0);
    DF64_PRECISE vec2 tq = df64_ldexp(df64_mul(th, q), ni);
    DF64_PRECISE vec3 acc = vec3(w, 0.0);
    acc = df64_acc3(acc, tq.x);
    acc = df64_acc3(acc, df64_ldexp(vec2(th.y, 0.0), ni).x);
    acc = df64_acc3(acc, tq.y);
    acc = df64_acc3(acc, df64_ldexp(vec2(DF64_EXP2_TABLE[3 * j + 2], 0.0), ni).x);
    return acc;
}

vec2 df64_expm1(vec2 a) {
    a = DF64_B(a);
    if (a.x == 0.0) return a; // +-0 in, the same zero out (odd function)
    if (df64_isnan(a.x)) return a;
    // Far from 0 the - 1 is one accurate subtraction (above 40 it is below exp's last bit's
    // worth, and near the top 2^n T alone would overflow where exp(a) does not).
    if (a.x < -20.0 || a.x > 40.0) return df64_sub(df64_exp(a), vec2(1.0, 0.0));
    return df64_round3(df64_expm1_3(a));
}

// ---------------------------------------------------------------- log family

// 2 atanh(f) = 2 (f + f s), s = f^2 (1/3 + f^2/5 + ...), `terms` coefficients.
vec2 df64_atanh2(vec2 f, int terms) {
    f = DF64_B(f);
    DF64_PRECISE vec2 f2 = df64_sqr_core(f);
    DF64_PRECISE vec2 s = df64_mul_core(f2, df64_horner(f2, true, 1, terms, 1, false));
    DF64_PRECISE vec2 at = df64_add_core(f, df64_mul_core(f, s));
    return DF64_B(2.0 * at);
}

// The special values of the logarithms: NaN for NaN and below 0, -inf at +-0, +inf at +inf
// (returned in r, with true); false for a finite a > 0.
bool df64_log_special(vec2 a, out vec2 r) {
    a = DF64_B(a);
    r = a;
    if (df64_isnan(a.x) || a.x < 0.0) {
        r = df64_nan();
        return true;
    }
    if (a.x == 0.0) {
        r = vec2(-df64_inf(), 0.0);
        return true;
    }
    return df64_isinf(a.x);
}

// For a finite a > 0: a = 2^e m with m in [0.703125, 1.40625) (no cancellation between
// e ln 2 and ln m near 1), c = i/64 the table point nearest m, idx its row in DF64_LOG_TABLE
// and at = 2 atanh((m - c) / (m + c)) = ln(m / c); so ln a = e ln 2 + ln c + at.
void df64_log_parts(vec2 a, out float ef, out int idx, out vec2 at) {
    a = DF64_B(a);
    // A subnormal (where the driver keeps them) has no exponent in its bits: lift it by 2^24,
    // exactly, so that it has one.
    int lift = 0;
    if (df64_biased_exponent(a.x) == 0) {
        a = DF64_B(a * 16777216.0);
        lift = 24;
    }
    int e = df64_exponent(a.x);
    DF64_PRECISE vec2 m = df64_ldexp(a, -e);
    e -= lift;
    if (m.x < 0.703125) {
        m = DF64_B(2.0 * m);
        e -= 1;
    }
    DF64_PRECISE float i = floor(DF64_B(DF64_B(m.x * 64.0) + 0.5));
    DF64_PRECISE float c = DF64_B(i / 64.0);
    DF64_PRECISE vec2 f = df64_div_core(df64_add_core(m, vec2(-c, 0.0)), df64_add_core(m, vec2(c, 0.0)));
    at = df64_atanh2(f, 4);
    // i is 45 to 90 for a normalised input; the clamp keeps any other pair inside the table.
    int row = clamp(int(i), 45, 91);
    idx = 3 * (row - 45);
    ef = float(e);
}

vec2 df64_log(vec2 a) {
    a = DF64_B(a);
    vec2 special;
    if (df64_log_special(a, special)) return special;
    float ef;
    int idx;
    vec2 at;
    df64_log_parts(a, ef, idx, at);
    DF64_PRECISE vec2 big = df64_add_core(df64_two_prod(ef, DF64_LN2[0]),
            vec2(DF64_LOG_TABLE[idx], DF64_LOG_TABLE[idx + 1]));
    DF64_PRECISE float t3 = DF64_B(DF64_LOG_TABLE[idx + 2] + DF64_B(ef * DF64_LN2[2]));
    DF64_PRECISE vec2 small = df64_add_core(df64_add_core(df64_two_prod(ef, DF64_LN2[1]), vec2(t3, 0.0)), at);
    return df64_add_core(big, small);
}

// For a finite a > 0: a = 2^e m with m in [0.703125, 1.40625) and ln m = ln c + 2 atanh(f),
// f = (m - c) / (m + c), in three words (about 2^-66 of it): f to three words (df64_div3), every
// term summed in the exact accumulator. For pow (through df64_log3), log2 and log10.
vec3 df64_log3_parts(vec2 a, out float ef) {
    a = DF64_B(a);
    int lift = 0;
    if (df64_biased_exponent(a.x) == 0) {
        a = DF64_B(a * 16777216.0);
        lift = 24;
    }
    int e = df64_exponent(a.x);
    DF64_PRECISE vec2 m = df64_ldexp(a, -e);
    e -= lift;
    if (m.x < 0.703125) {
        m = DF64_B(2.0 * m);
        e -= 1;
    }
    DF64_PRECISE float i = floor(DF64_B(DF64_B(m.x * 64.0) + 0.5));
    DF64_PRECISE float c = DF64_B(i / 64.0);
    // m - c exactly: m.x is within 1/128 of c (Sterbenz).
    DF64_PRECISE vec2 u = df64_two_sum(DF64_B(m.x - c), m.y);
    // f = (m - c) / (m + c) to three words, m + c exact in three.
    DF64_PRECISE vec3 f3 = df64_div3(vec3(u, 0.0),
            df64_acc3(df64_acc3(vec3(c, 0.0, 0.0), m.x), m.y));
    DF64_PRECISE vec2 q = f3.xy;
    DF64_PRECISE float q2 = f3.z;
    // 2 atanh(f) = 2 (f + f s), s = f^2 (1/3 + f^2/5 + f^4/7 + f^6/9): f s is 2^-17 of f, so
    // q alone serves there.
    DF64_PRECISE vec2 f2 = df64_sqr(q);
    DF64_PRECISE vec2 s = df64_mul(f2, df64_horner(f2, true, 1, 4, 1, false));
    DF64_PRECISE vec2 fs = df64_mul(q, s);
    ef = float(e);
    // i is 45 to 90 for a normalised input; the clamp keeps any other value inside the table.
    int row = clamp(int(i), 45, 91);
    int idx = 3 * (row - 45);
    DF64_PRECISE vec3 acc = vec3(DF64_LOG_TABLE[idx], DF64_LOG_TABLE[idx + 1],
            DF64_LOG_TABLE[idx + 2]);
    acc = df64_acc3(acc, DF64_B(2.0 * q.x));
    acc = df64_acc3(acc, DF64_B(2.0 * q.y));
    acc = df64_acc3(acc, DF64_B(2.0 * fs.x));
    acc = df64_acc3(acc, DF64_B(2.0 * q2));
    acc = df64_acc3(acc, DF64_B(2.0 * fs.y));
    DF64_PRECISE vec2 h = df64_two_sum(acc.x, acc.y);
    return vec3(h, acc.z);
}

// ln a in three words (about 2^-66 of it) for a finite a > 0, for pow: e ln 2 in exact
// products plus ln m from df64_log3_parts, summed in the exact accumulator.
vec3 df64_log3(vec2 a) {
    a = DF64_B(a);
    float ef;
    DF64_PRECISE vec3 lm = df64_log3_parts(a, ef);
    DF64_PRECISE vec2 l0 = df64_two_prod(ef, DF64_LN2[0]);
    DF64_PRECISE vec2 l1 = df64_two_prod(ef, DF64_LN2[1]);
    DF64_PRECISE vec3 acc = vec3(l0, 0.0);
    acc = df64_acc3(acc, lm.x);
    acc = df64_acc3(acc, l1.x);
    acc = df64_acc3(acc, lm.y);
    acc = df64_acc3(acc, l1.y);
    acc = df64_acc3(acc, DF64_B(ef * DF64_LN2[2]));
    acc = df64_acc3(acc, lm.z);
    DF64_PRECISE vec2 h = df64_two_sum(acc.x, acc.y);
    return vec3(h, acc.z);
}

// log_b a = e log_b 2 + ln(m) log_b e: ln m in three words (df64_log3_parts) times log_b e in
// three words, e log_b 2 in exact products, all summed in the accumulator and rounded once.
// For log2, log_b 2 = 1: log2 of a power of two is its exponent exactly (ln 1 is 0).
vec2 df64_log_base(vec2 a, vec3 log_b_2, vec3 log_b_e) {
    a = DF64_B(a);
    log_b_2 = DF64_B(log_b_2);
    log_b_e = DF64_B(log_b_e);
    vec2 special;
    if (df64_log_special(a, special)) return special;
    float ef;
    DF64_PRECISE vec3 lm = df64_log3_parts(a, ef);
    DF64_PRECISE vec3 p = df64_mul3(lm, log_b_e);
    DF64_PRECISE vec2 l0 = df64_two_prod(ef, log_b_2.x);
    DF64_PRECISE vec2 l1 = df64_two_prod(ef, log_b_2.y);
    DF64_PRECISE vec3 acc = vec3(l0, 0.0);
    acc = df64_acc3(acc, p.x);
    acc = df64_acc3(acc, l1.x);
    acc = df64_acc3(acc, p.y);
    acc = df64_acc3(acc, l1.y);
    acc = df64_acc3(acc, DF64_B(ef * log_b_2.z));
    acc = df64_acc3(acc, p.z);
    return df64_round3(acc);
}

vec2 df64_log2(vec2 a) {
    a = DF64_B(a);
    return df64_log_base(a, vec3(1.0, 0.0, 0.0),
            vec3(DF64_LOG2_E[0], DF64_LOG2_E[1], DF64_LOG2_E[2]));
}

vec2 df64_log10(vec2 a) {
    a = DF64_B(a);
    return df64_log_base(a, vec3(DF64_LOG10_2[0], DF64_LOG10_2[1], DF64_LOG10_2[2]),
            vec3(DF64_LOG10_E[0], DF64_LOG10_E[1], DF64_LOG10_E[2]));
}

vec2 df64_log1p(vec2 a) {
    a = DF64_B(a);
    if (a.x == 0.0) return a; // +-0 in, the same zero out (odd function)
    if (df64_isnan(a.x) || a.x < -1.0) return df64_nan();
    if (df64_isinf(a.x)) return a;
    // ln(1 + a) = a (1 - a/2 + ...): below 2^-50 the series' second term is under 2^-51 a.
    if (abs(a.x) < 8.8817842e-16) return a;
    if (abs(a.x) < 0.25) {
        DF64_PRECISE vec2 f = df64_div(a, df64_add(vec2(2.0, 0.0), a));
        return df64_atanh2(f, 10);
    }
    // 1 + a = h + l + d exactly (three words), so ln(1 + a) = ln(h + l) + d / (h + l): 1 + a
    // rounded to a df64 alone would lose up to 2^-49 absolute, all of ln's accuracy near a = -1.
    DF64_PRECISE vec2 s = df64_two_sum(1.0, a.x);
    DF64_PRECISE vec3 w = df64_acc3(vec3(s.x, s.y, 0.0), a.y);
    DF64_PRECISE vec2 u = df64_two_sum(w.x, w.y);
    if (u.x == 0.0) return vec2(-df64_inf(), 0.0);
    DF64_PRECISE float c = DF64_B(w.z / u.x);
    return df64_add(df64_log(u), vec2(c, 0.0));
}

// ---------------------------------------------------------------- trigonometry

// Above this |x.hi| the argument goes to Payne and Hanek's reduction: below it round(2x/pi) is
// an exact f32 and pi/2 in five words is enough (df64_reduce_pi_2).
#define DF64_TRIG_SHORT 8388608.0

// (f0 + f1 + f2) pi/2 for the words of df64_reduce_long, as a df64.
vec2 df64_times_pi_2(vec3 f) {
    f = DF64_B(f);
    DF64_PRECISE vec3 p = df64_mul3(f, vec3(DF64_PI_2[0], DF64_PI_2[1], DF64_PI_2[2]));
    DF64_PRECISE float lo = DF64_B(p.y + p.z);
    return df64_quick_two_sum(p.x, lo);
}

// r = a - n pi/2 with |r| <= pi/4 (to its last bit), and n mod 4: the five-word subtraction
// for |a.hi| <= 2^23, Payne and Hanek's reduction above (a branch ordinary arguments never
// take).
vec2 df64_trig_reduce(vec2 a, out int quadrant) {
    a = DF64_B(a);
    DF64_PRECISE float k = floor(DF64_B(DF64_B(a.x * DF64_INV_PI_2[0]) + 0.5));
    // Near 2^23 the f32 estimate of k can be one off (rounding, and the low word it ignores):
    // one step puts r back in [-pi/4, pi/4], where the series hold. The rare paths (this step,
    // and the long reduction below) are loops that run once where a pixel needs them, not
    // ifs: SwiftShader runs both sides of an if for every pixel, and a loop no pixel enters
    // costs less there (measured: the reduction 210 ns a pixel with ifs, 135 to 180 with loops).
    // The step's reduction is the loop's second pass, so that the reduction is compiled once.
    DF64_PRECISE vec2 r = vec2(0.0);
    for (int pass = 0; pass < 2; ++pass) {
        r = df64_reduce_pi_2(a, k);
        float step = r.x > DF64_PI_4[0] ? 1.0 : (r.x < -DF64_PI_4[0] ? -1.0 : 0.0);
        if (pass == 1 || step == 0.0) break;
        k = DF64_B(k + step);
    }
    quadrant = int(DF64_B(k - DF64_B(4.0 * floor(DF64_B(k / 4.0)))));
    for (int pass = abs(a.x) > DF64_TRIG_SHORT ? 0 : 1; pass < 1; ++pass) {
        vec4 f;
        float f4;
        int f_exp;
        quadrant = df64_reduce_long(vec4(a, 0.0, 0.0), 2, f, f4, f_exp);
        r = df64_ldexp(df64_times_pi_2(f.xyz), f_exp);
    }
    return r;
}

// sin r and cos r for |r| <= pi/4: the series alone, no reduction (for callers whose
// argument is reduced already, as the FFT's twiddles).
void df64_sincos_reduced(vec2 r, out vec2 s, out vec2 c) {
    r = DF64_B(r);
    DF64_PRECISE vec2 r2 = df64_sqr(r);
    DF64_PRECISE vec2 sp = df64_horner(r2, false, 3, 8, 2, true);
    s = df64_add(r, df64_mul(df64_mul(r, r2), -sp));
    DF64_PRECISE vec2 cp = df64_horner(r2, false, 2, 9, 2, true);
    c = df64_add(vec2(1.0, 0.0), df64_mul(r2, -cp));
}

// sin r (odd false) or cos r (odd true) for |r| <= pi/4: df64_sincos_reduced's series for the
// one that is wanted, not both. Its coefficients are chosen by odd (sin's list padded with a 0
// at the top, which leaves sin's words as they were: 0 r^2 + c is c exactly).
// The series' steps on the accurate cores (as df64_horner: for |r| under 2^-20 their r^2 terms
// lose bits under 2^-40 of the result), r^2 and the last product and sum scaled: those carry
// the r^2 of a tiny r into the result, and scaled they give the same words whether or not the
// driver flushes subnormals (on the cores, cos of r near 2^-53 moved a low word's last bit).
// The four highest terms, c_5 .. c_8, in f32 (c_5 r^10 is under 2^-28 of h for |r| <= pi/4,
// so their rounding is under 2^-52 of the result): three core steps fewer, an eighth to a
// sixth of sin's time on ANGLE over Mesa.
vec2 df64_sin_or_cos_reduced(vec2 r, bool odd) {
    r = DF64_B(r);
    DF64_PRECISE vec2 r2 = df64_sqr(r);
    // t = c_5 + z (c_6 + z (c_7 + z c_8)) in f32 (z = r^2 rounded), then h = c_k + r^2 h for
    // k = 4 .. 0 on the cores; c_k = (-1)^k / (2k + 2)! for cos and (-1)^k / (2k + 3)! for sin.
    float z = r2.x;
    DF64_PRECISE float t = odd ? df64_inv_fact(18).x : 0.0;
    for (int k = 7; k >= 5; --k) {
        float c = odd ? df64_inv_fact(2 * k + 2).x : df64_inv_fact(2 * k + 3).x;
        t = DF64_B((k % 2 == 1 ? -c : c) + DF64_B(z * t));
    }
    DF64_PRECISE vec2 h = vec2(t, 0.0);
    for (int k = 4; k >= 0; --k) {
        vec2 c = odd ? df64_inv_fact(2 * k + 2) : df64_inv_fact(2 * k + 3);
        h = df64_add_core(df64_mul_core(h, r2), (k % 2 == 1) ? -c : c);
    }
    // sin r = r + (r r^2)(-h), cos r = 1 + r^2 (-h).
    DF64_PRECISE vec2 a = odd ? vec2(1.0, 0.0) : r;
    DF64_PRECISE vec2 b = odd ? r2 : df64_mul(r, r2);
    return df64_add(a, df64_mul(b, -h));
}

// sin a (want_cos false) or cos a: cos a is sin a in the next quadrant.
vec2 df64_sin_or_cos(vec2 a, bool want_cos) {
    a = DF64_B(a);
    if (df64_isnan(a.x) || df64_isinf(a.x)) return df64_nan();
    int q;
    DF64_PRECISE vec2 r = df64_trig_reduce(a, q);
    q = q + (want_cos ? 1 : 0);
    DF64_PRECISE vec2 v = df64_sin_or_cos_reduced(r, (q & 1) == 1);
    return (q & 2) == 2 ? -v : v;
}

vec2 df64_sin(vec2 a) {
    a = DF64_B(a);
    if (a.x == 0.0) return a; // sin(+-0) = +-0
    return df64_sin_or_cos(a, false);
}
vec2 df64_cos(vec2 a) { a = DF64_B(a); return df64_sin_or_cos(a, true); }

// sin a and cos a from one reduction: the same words as df64_sin and df64_cos.
void df64_sincos(vec2 a, out vec2 s_out, out vec2 c_out) {
    a = DF64_B(a);
    if (df64_isnan(a.x) || df64_isinf(a.x)) {
        s_out = df64_nan();
        c_out = df64_nan();
        return;
    }
    int q;
    DF64_PRECISE vec2 r = df64_trig_reduce(a, q);
    DF64_PRECISE vec2 s = df64_sin_or_cos_reduced(r, (q & 1) == 1);
    DF64_PRECISE vec2 c = df64_sin_or_cos_reduced(r, (q & 1) == 0);
    s_out = a.x == 0.0 ? a : ((q & 2) == 2 ? -s : s);
    c_out = ((q + 1) & 2) == 2 ? -c : c;
}
// sin r and cos r for |r| <= pi/4 in three words each (for tan's one rounding): sin's series
// tail as a df64 on r, cos as 1 - r^2/2 with r^2/2 in exact words plus r^4 (1/4! - r^2/6! + ...).
void df64_sincos3(vec2 r, out vec3 s, out vec3 c) {
    r = DF64_B(r);
    DF64_PRECISE vec2 r2 = df64_sqr(r);
    DF64_PRECISE vec2 sp = df64_horner(r2, false, 3, 8, 2, true);
    DF64_PRECISE vec2 t = df64_mul(df64_mul(r, r2), -sp);
    s = df64_acc3(df64_acc3(vec3(r, 0.0), t.x), t.y);
    DF64_PRECISE vec2 cp = df64_horner(r2, false, 4, 8, 2, true);
    DF64_PRECISE vec2 u = df64_mul(df64_sqr(r2), cp);
    DF64_PRECISE vec2 p = df64_two_prod(r.x, r.x);
    DF64_PRECISE vec2 q = df64_two_prod(r.x, r.y);
    DF64_PRECISE vec3 acc = vec3(1.0, 0.0, 0.0);
    acc = df64_acc3(acc, DF64_B(-0.5 * p.x));
    acc = df64_acc3(acc, u.x);
    acc = df64_acc3(acc, -q.x);
    acc = df64_acc3(acc, DF64_B(-0.5 * p.y));
    acc = df64_acc3(acc, u.y);
    acc = df64_acc3(acc, -q.y);
    acc = df64_acc3(acc, DF64_B(-0.5 * DF64_B(r.y * r.y)));
    c = acc;
}

// Below this |x| an odd function whose series is x (1 + O(x^2)) returns x itself: the O(x^2)
// is under 2^-52 of it (0.03 ulp48), and its rounding steps would meet the flush floor.
#define DF64_ODD_TINY 1.4901161e-8

vec2 df64_tan(vec2 a) {
    a = DF64_B(a);
    if (abs(a.x) < DF64_ODD_TINY) return a; // tan(x) = x (1 + x^2/3 + ...), +-0 as it is
    if (df64_nonfinite(a.x)) return df64_nan();
    int q;
    DF64_PRECISE vec2 r = df64_trig_reduce(a, q);
    vec3 s, c;
    df64_sincos3(r, s, c);
    // tan = sin / cos, or -cos / sin in the odd quadrants, each rounded once (one division,
    // on operands chosen first, so that it is compiled once).
    bool odd = (q & 1) == 1;
    vec2 t = df64_round3(df64_div3(odd ? c : s, odd ? s : c));
    return odd ? -t : t;
}

// atan(z) for a three-word z in [0, 1], in three words: atan(c) from the table (c =
// round(64 z)/64) plus atan(t), t = (z - c) / (1 + z c) formed to three words (z - c exactly,
// 1 + z c with exact products), |t| <= 1/128.
vec3 df64_atan_unit3(vec3 z) {
    z = DF64_B(z);
    DF64_PRECISE float i = floor(DF64_B(DF64_B(z.x * 64.0) + 0.5));
    DF64_PRECISE float c = DF64_B(i / 64.0);
    // z.x - c is exact: z.x is within 1/128 of c (Sterbenz), or c = 0.
    DF64_PRECISE vec2 n = df64_two_sum(DF64_B(z.x - c), z.y);
    DF64_PRECISE vec3 num = df64_acc3(vec3(n, 0.0), z.z);
    DF64_PRECISE vec2 p = df64_two_prod(z.x, c);
    DF64_PRECISE vec2 pl = df64_two_prod(z.y, c);
    DF64_PRECISE vec3 den = vec3(1.0, 0.0, 0.0);
    den = df64_acc3(den, p.x);
    den = df64_acc3(den, pl.x);
    den = df64_acc3(den, p.y);
    den = df64_acc3(den, pl.y);
    den = df64_acc3(den, DF64_B(z.z * c));
    DF64_PRECISE vec3 t3 = df64_div3(num, den);
    // atan t = t + t^3 (-1/3 + t^2/5 - t^4/7).
    DF64_PRECISE vec2 t2 = df64_sqr(t3.xy);
    DF64_PRECISE vec2 poly = df64_horner(t2, true, 1, 3, 1, true);
    DF64_PRECISE vec2 tail = df64_mul(df64_mul(t3.xy, t2), -poly);
    // i is 0 to 64 for z in [0, 1]; the clamp keeps any other value inside the table.
    int row = clamp(int(i), 0, 64);
    int idx = 3 * row;
    DF64_PRECISE vec3 acc = vec3(DF64_ATAN_TABLE[idx], DF64_ATAN_TABLE[idx + 1],
            DF64_ATAN_TABLE[idx + 2]);
    acc = df64_acc3(acc, t3.x);
    acc = df64_acc3(acc, t3.y);
    acc = df64_acc3(acc, tail.x);
    acc = df64_acc3(acc, t3.z);
    acc = df64_acc3(acc, tail.y);
    return acc;
}

// atan2(y, x) for y, x >= 0 in three words (both finite, not both zero): atan(y/x) or
// pi/2 - atan(x/y), whichever has its ratio in [0, 1]; each ratio to three words. One call of
// the division and of the series, on operands chosen first: a compiler that inlines every call
// (SwiftShader) compiles each once (atan2's program took 3.2 s to compile there with two).
vec3 df64_atan2_first3(vec3 y, vec3 x) {
    y = DF64_B(y); x = DF64_B(x);
    bool direct = df64_le(y.xy, x.xy);
    DF64_PRECISE vec3 a = df64_atan_unit3(df64_div3(direct ? y : x, direct ? x : y));
    if (direct) return a;
    return df64_sub3(vec3(DF64_PI_2[0], DF64_PI_2[1], DF64_PI_2[2]), a);
}

vec2 df64_atan(vec2 a) {
    a = DF64_B(a);
    if (abs(a.x) < DF64_ODD_TINY) return a; // atan(x) = x (1 - x^2/3 + ...), +-0 as it is
    if (df64_isnan(a.x)) return a;
    vec2 x = df64_abs(a);
    vec2 r = df64_isinf(x.x) ? vec2(DF64_PI_2[0], DF64_PI_2[1])
            : df64_round3(df64_atan2_first3(vec3(x, 0.0), vec3(1.0, 0.0, 0.0)));
    return a.x < 0.0 ? -r : r;
}

// IEEE atan2 where an argument is infinite or both are zero: k pi/4 with the sign of y, k from
// the quadrant (0, 1, 2, 3 or 4), in df64 (the driver's f32 atan is not correctly rounded).
vec2 df64_atan2_special(float y, float x) {
    y = DF64_B(y); x = DF64_B(x);
    bool x_negative = floatBitsToInt(x) < 0;
    float k;
    if (df64_nonfinite(x)) {
        k = df64_nonfinite(y) ? (x_negative ? 3.0 : 1.0) : (x_negative ? 4.0 : 0.0);
    } else if (df64_nonfinite(y)) {
        k = 2.0;
    } else {
        k = x_negative ? 4.0 : 0.0;
    }
    vec2 r = k == 0.0 ? vec2(0.0) : df64_mul_f32(vec2(DF64_PI[0], DF64_PI[1]), DF64_B(0.25 * k));
    return floatBitsToInt(y) < 0 ? -r : r;
}

vec2 df64_atan2(vec2 y, vec2 x) {
    y = DF64_B(y); x = DF64_B(x);
    if (df64_isnan(y.x) || df64_isnan(x.x)) return df64_nan();
    if (df64_nonfinite(y.x) || df64_nonfinite(x.x) || (y.x == 0.0 && x.x == 0.0)) {
        return df64_atan2_special(y.x, x.x);
    }
    DF64_PRECISE vec3 r = df64_atan2_first3(vec3(df64_abs(y), 0.0), vec3(df64_abs(x), 0.0));
    if (x.x < 0.0) r = df64_sub3(vec3(DF64_PI[0], DF64_PI[1], DF64_PI[2]), r);
    vec2 rr = df64_round3(r);
    // The sign bit, so that atan2(-0, x) is -0 or -pi.
    return floatBitsToInt(y.x) < 0 ? -rr : rr;
}

// sqrt(1 - a^2) for 0 <= a <= 1 in three words, 1 - a^2 formed as (1 - a)(1 + a) with both
// factors exact in three words.
vec3 df64_sqrt_1m_sq3(vec2 a) {
    a = DF64_B(a);
    DF64_PRECISE vec3 u = df64_acc3(df64_acc3(vec3(1.0, 0.0, 0.0), -a.x), -a.y);
    DF64_PRECISE vec3 v = df64_acc3(df64_acc3(vec3(1.0, 0.0, 0.0), a.x), a.y);
    return df64_sqrt3(df64_mul3(u, v));
}

vec2 df64_asin(vec2 a) {
    a = DF64_B(a);
    if (abs(a.x) < DF64_ODD_TINY) return a; // asin(x) = x (1 + x^2/6 + ...), +-0 as it is
    if (df64_isnan(a.x) || abs(a.x) > 1.0) return df64_nan();
    vec2 x = df64_abs(a);
    vec2 r = df64_round3(df64_atan2_first3(vec3(x, 0.0), df64_sqrt_1m_sq3(x)));
    return a.x < 0.0 ? -r : r;
}

vec2 df64_acos(vec2 a) {
    a = DF64_B(a);
    if (df64_isnan(a.x) || abs(a.x) > 1.0) return df64_nan();
    vec2 x = df64_abs(a);
    DF64_PRECISE vec3 r = df64_atan2_first3(df64_sqrt_1m_sq3(x), vec3(x, 0.0));
    if (a.x < 0.0) r = df64_sub3(vec3(DF64_PI[0], DF64_PI[1], DF64_PI[2]), r);
    return df64_round3(r);
}

// ---------------------------------------------------------------- hyperbolic

vec2 df64_sinh(vec2 a) {
    a = DF64_B(a);
    if (abs(a.x) < DF64_ODD_TINY) return a; // sinh(x) = x (1 + x^2/6 + ...), +-0 as it is
    if (df64_isnan(a.x)) return a;
    vec2 x = df64_abs(a);
    vec2 r;
    if (x.x > DF64_EXP_MAX) {
        r = vec2(df64_inf(), 0.0);
    } else if (x.x > 20.0) {
        // e^x / 2: the e^-x / 2 it leaves out is under 2^-57 of it.
        r = DF64_B(0.5 * df64_exp(x));
    } else {
        // (e - 1/e)/2 = (m + m/(m + 1))/2 with m = expm1(x) in three words: no cancellation
        // near 0, and one rounding.
        DF64_PRECISE vec3 m = df64_expm1_3(x);
        DF64_PRECISE vec3 v = df64_div3(m, df64_acc3(m, 1.0));
        DF64_PRECISE vec3 s = df64_acc3(m, v.x);
        s = df64_acc3(s, v.y);
        s = df64_acc3(s, v.z);
        r = DF64_B(0.5 * df64_round3(s));
    }
    return a.x < 0.0 ? -r : r;
}

vec2 df64_cosh(vec2 a) {
    a = DF64_B(a);
    if (df64_isnan(a.x)) return a;
    vec2 x = df64_abs(a);
    if (x.x > DF64_EXP_MAX) return vec2(df64_inf(), 0.0);
    DF64_PRECISE vec2 e = df64_exp(x);
    DF64_PRECISE vec2 s = df64_add(e, df64_recip(e));
    return DF64_B(0.5 * s);
}

vec2 df64_tanh(vec2 a) {
    a = DF64_B(a);
    if (abs(a.x) < DF64_ODD_TINY) return a; // tanh(x) = x (1 - x^2/3 + ...), +-0 as it is
    if (df64_isnan(a.x)) return a;
    vec2 x = df64_abs(a);
    vec2 r;
    if (x.x > 20.0) {
        r = vec2(1.0, 0.0);
    } else {
        // m / (m + 2), m = expm1(2x) in three words, rounded once.
        DF64_PRECISE vec3 m = df64_expm1_3(DF64_B(2.0 * x));
        r = df64_round3(df64_div3(m, df64_acc3(m, 2.0)));
    }
    return a.x < 0.0 ? -r : r;
}

// ---------------------------------------------------------------- rounding and pow

vec2 df64_floor(vec2 a) {
    a = DF64_B(a);
    float h = floor(a.x);
    // An integral hi with a zero low word (±0 and ±inf among them) is its own floor.
    if (h == a.x && a.y == 0.0) return vec2(h, 0.0);
    return h == a.x ? df64_quick_two_sum(h, floor(a.y)) : vec2(h, 0.0);
}

vec2 df64_ceil(vec2 a) {
    a = DF64_B(a);
    float h = ceil(a.x);
    if (h == a.x && a.y == 0.0) return vec2(h, 0.0);
    return h == a.x ? df64_quick_two_sum(h, ceil(a.y)) : vec2(h, 0.0);
}

vec2 df64_trunc(vec2 a) { a = DF64_B(a); return a.x < 0.0 ? df64_ceil(a) : df64_floor(a); }

// Round half away from zero (C round).
vec2 df64_round(vec2 a) {
    a = DF64_B(a);
    vec2 t = df64_trunc(a);
    vec2 d = df64_sub(a, t);
    if (df64_ge(d, vec2(0.5, 0.0))) return df64_add(t, vec2(1.0, 0.0));
    if (df64_le(d, vec2(-0.5, 0.0))) return df64_sub(t, vec2(1.0, 0.0));
    return t;
}

bool df64_is_integer(vec2 a) { a = DF64_B(a); return df64_eq(df64_floor(a), a); }
// x^n for an integer n by binary powering over |n|'s bits (1 / x^|n| for n < 0): within
// max(|n| - 1, 0) ulp48 for n > 0 and |n| + 1 for n < 0 (each product adds its 2^-48 to a
// relative error that each squaring doubles), exact wherever every power on the way is a
// df64. IEEE values at zeros, infinities and NaN; x^0 = 1.
vec2 df64_powi(vec2 x, int n) {
    x = DF64_B(x);
    if (n == 0) return vec2(1.0, 0.0);
    // A NaN in either word is NaN (x^1 would return a NaN low word under a finite high one).
    if (df64_isnan(x.x) || df64_isnan(x.y)) return df64_nan();
    // |n|, clamped to 2^30 with its parity kept (beyond, every |x| != 1 over- or underflows).
    int k = n < 0 ? -max(n, -0x40000000) : min(n, 0x40000000);
    k = (k & 0x7ffffffe) | (n & 1);
    // The top bit of |n|, from the exponent of float(|n|) (one too high where float rounds
    // |n| up to a power of two, above 2^24).
    int top = df64_exponent(float(k)) - 1;
    if ((k >> top) == 0) top -= 1;
    // x = m 2^e with |m.x| in [1/2, 1), and each power kept as such a pair: no intermediate
    // power over- or underflows (x^-2 of 2^-60 needs x^2 = 2^-120, whose low word a flushing
    // driver loses); the exponent is applied once at the end. Zeros, infinities and NaN are
    // powered as they are (their IEEE results need no scaling).
    bool plain = x.x == 0.0 || df64_nonfinite(x.x);
    int e = plain ? 0 : df64_exponent(x.x);
    DF64_PRECISE vec2 m = df64_ldexp(x, -e);
    DF64_PRECISE vec2 r = m;
    int re = e;
    for (int bit = top - 1; bit >= 0; --bit) {
        r = df64_sqr(r);
        re = 2 * re;
        if (((k >> bit) & 1) == 1) {
            r = df64_mul(r, m);
            re += e;
        }
        int f = plain ? 0 : df64_exponent(r.x);
        r = df64_ldexp(r, -f);
        re = clamp(re + f, -100000, 100000);
    }
    if (n < 0) {
        r = df64_recip(r);
        re = -re;
    }
    return df64_ldexp(r, re);
}

// The bits a df64 spans, from its leading bit to its last set one (hi and lo together); 99
// when a word is subnormal. x^n is a df64 whenever n times this is at most 48.
int df64_span(vec2 a) {
    a = DF64_B(a);
    float w = a.y != 0.0 ? a.y : a.x;
    int bits = floatBitsToInt(w);
    int be = (bits >> 23) & 0xff;
    if (be == 0 || df64_biased_exponent(a.x) == 0) return 99;
    int mant = (bits & 0x7fffff) | 0x800000;
    int lowest = mant & -mant;
    int low = be - 150 + df64_biased_exponent(float(lowest)) - 127;
    return df64_exponent(a.x) - low;
}

vec2 df64_pow(vec2 x, vec2 y) {
    x = DF64_B(x); y = DF64_B(y);
    // C99 Annex F: pow(x, ±0) = pow(1, y) = 1 for any x and y, NaN among them.
    if (y.x == 0.0 || (x.x == 1.0 && x.y == 0.0)) return vec2(1.0, 0.0);
    if (df64_isnan(x.x) || df64_isnan(y.x)) return df64_nan();
    if (df64_isinf(y.x)) {
        if (abs(x.x) == 1.0 && x.y == 0.0) return vec2(1.0, 0.0);
        return (abs(x.x) < 1.0) == (y.x > 0.0) ? vec2(0.0) : vec2(df64_inf(), 0.0);
    }
    bool integer = df64_is_integer(y);
    bool odd = integer && !df64_is_integer(DF64_B(0.5 * y));
    if (x.x == 0.0 || df64_isinf(x.x)) {
        // ±0 and ±inf: 0 or inf, negative for a negative x and an odd integer y.
        float r = ((x.x == 0.0) == (y.x < 0.0)) ? df64_inf() : 0.0;
        return vec2((floatBitsToInt(x.x) < 0 && odd) ? -r : r, 0.0);
    }
    if (x.x < 0.0 && !integer) return df64_nan();
    // Exact cases exact: sqrt for y = 1/2, and binary powering where every power on the way
    // is a df64 (|y| <= 48 and |y| times the bits x spans at most 48; for y < 0, x a power of
    // two).
    if (y.x == 0.5 && y.y == 0.0) return df64_sqrt(x);
    if (integer && abs(y.x) <= 48.0) {
        int n = int(DF64_B(y.x + y.y));
        int span = df64_span(x);
        int an = abs(n);
        if (span * an <= 48 && (n > 0 || span == 1)) return df64_powi(x, n);
    }
    // exp(y ln|x|) with y ln|x| in three words (right to 2^-60 absolute up to |y ln x| = 88,
    // where a df64 product would be off by 2^-43): exp of the first two, times 1 + the third.
    DF64_PRECISE vec3 l = df64_log3(df64_abs(x));
    // Far outside exp's range (y huge) the exact products would overflow: exp of the f32
    // product alone is the same 0 or inf.
    // One call of exp, on the argument chosen first (so that it is compiled once).
    DF64_PRECISE float t = DF64_B(y.x * l.x);
    bool near = abs(t) <= 256.0;
    DF64_PRECISE vec3 z = near ? df64_mul3(vec3(y, 0.0), l) : vec3(t, 0.0, 0.0);
    DF64_PRECISE vec2 r = df64_exp(z.xy);
    if (near && !df64_nonfinite(r.x) && r.x != 0.0) r = df64_add(r, df64_mul_f32(r, z.z));
    return odd && x.x < 0.0 ? -r : r;
}

// ---------------------------------------------------------------- fmod, remainder, frexp

// r - q bs for an f32 integer q: exact products, summed in the exact three-word accumulator,
// so the result is exact whenever it is a df64 (partial sums may be far larger than it).
vec2 df64_sub_digit(vec2 r, float q, vec2 bs) {
    r = DF64_B(r); q = DF64_B(q); bs = DF64_B(bs);
    DF64_PRECISE vec2 p0 = df64_two_prod(q, bs.x);
    DF64_PRECISE vec2 p1 = df64_two_prod(q, bs.y);
    DF64_PRECISE vec3 acc = vec3(DF64_B(r.x - p0.x), 0.0, 0.0);
    acc = df64_acc3(acc, r.y);
    acc = df64_acc3(acc, -p0.y);
    acc = df64_acc3(acc, -p1.x);
    acc = df64_acc3(acc, -p1.y);
    DF64_PRECISE vec2 h = df64_two_sum(acc.x, acc.y);
    DF64_PRECISE float lo = DF64_B(h.y + acc.z);
    return df64_quick_two_sum(h.x, lo);
}

// |a| reduced modulo |b| by long division in digits of at most 24 bits; `nearest` rounds the
// last digit to nearest (ties to even) for the IEEE remainder.
vec2 df64_mod_core(vec2 a, vec2 b, bool nearest) {
    a = DF64_B(a); b = DF64_B(b);
    vec2 bb = df64_abs(b);
    DF64_PRECISE vec2 r = df64_abs(a);
    for (int it = 0; it < 12; ++it) {
        if (!nearest && df64_lt(r, bb)) break;
        int eq = df64_exponent(DF64_B(r.x / bb.x));
        int s = max(eq - 24, 0);
        if (s == 0 && nearest) {
            DF64_PRECISE float q = floor(DF64_B(DF64_B(r.x / bb.x) + 0.5));
            DF64_PRECISE vec2 n = df64_sub_digit(r, q, bb);
            vec2 half_b = DF64_B(0.5 * bb);
            // The digit can be off by more than one where `/` is not correctly rounded (2.5
            // ulp of a quotient near 2^24 is 2.5 units; NVIDIA's is not): n is exact, so n / b,
            // rounded, is the error within one, and the second step takes the last unit.
            // Each step's digit is chosen first and n recomputed at one call (a compiler that
            // inlines every call, SwiftShader, compiles each call site: fmod and remainder had
            // eight).
            for (int c = 0; c < 2; ++c) {
                bool up = df64_gt(n, half_b);
                bool down = !up && df64_lt(n, -half_b);
                if (up || down) {
                    float d = floor(DF64_B(DF64_B(n.x / bb.x) + 0.5));
                    q = DF64_B(q + (up ? max(d, 1.0) : min(d, -1.0)));
                    n = df64_sub_digit(r, q, bb);
                }
            }
            bool odd = DF64_B(q - DF64_B(2.0 * floor(DF64_B(q / 2.0)))) == 1.0;
            bool tie_up = odd && df64_eq(n, half_b);
            bool tie_down = !tie_up && odd && df64_eq(n, -half_b);
            if (tie_up || tie_down) n = df64_sub_digit(r, DF64_B(q + (tie_up ? 1.0 : -1.0)), bb);
            return n;
        }
        vec2 bs = df64_ldexp(bb, s);
        DF64_PRECISE float q = max(floor(DF64_B(r.x / bs.x)), 1.0);
        DF64_PRECISE vec2 n = df64_sub_digit(r, q, bs);
        // The f32 digit can be off by a few units either way (the division, up to 2.5 ulp off
        // as GLSL allows, and the ignored low words): n is exact, so floor(n / bs) is the
        // error within one; each step recomputes from r.
        for (int c = 0; c < 2; ++c) {
            bool down = n.x < 0.0;
            bool up = !down && df64_ge(n, bs);
            if (up || down) {
                float d = floor(DF64_B(n.x / bs.x));
                q = DF64_B(q + (down ? min(d, -1.0) : max(d, 1.0)));
                n = df64_sub_digit(r, q, bs);
            }
        }
        r = n;
    }
    return r;
}

// fmod and remainder are exact for |a/b| < 2^24; beyond it their quotient digits can go
// wrong, so there they return NaN rather than a wrong number.
#define DF64_MOD_LIMIT 16777216.0
bool df64_beyond_mod_limit(vec2 a, vec2 b) {
    a = DF64_B(a); b = DF64_B(b);
    return !(abs(DF64_B(a.x / b.x)) < DF64_MOD_LIMIT);
}

vec2 df64_fmod(vec2 a, vec2 b) {
    a = DF64_B(a); b = DF64_B(b);
    if (df64_isnan(a.x) || df64_isnan(b.x) || df64_isinf(a.x) || b.x == 0.0) return df64_nan();
    if (df64_isinf(b.x)) return a;
    if (df64_beyond_mod_limit(a, b)) return df64_nan();
    // Huge operands are scaled down by 2^64 (exactly) first: the digit products split them.
    int k = max(abs(a.x), abs(b.x)) > 1.2676506e30 ? 64 : 0;
    vec2 r = df64_ldexp(df64_mod_core(df64_ldexp(a, -k), df64_ldexp(b, -k), false), k);
    // The sign bit, so that fmod(-0, b) is -0.
    return floatBitsToInt(a.x) < 0 ? -r : r;
}

vec2 df64_remainder(vec2 a, vec2 b) {
    a = DF64_B(a); b = DF64_B(b);
    if (df64_isnan(a.x) || df64_isnan(b.x) || df64_isinf(a.x) || b.x == 0.0) return df64_nan();
    if (df64_isinf(b.x)) return a;
    if (df64_beyond_mod_limit(a, b)) return df64_nan();
    // |a| <= |b|/2 is its own remainder (a tie goes to the even quotient, 0).
    if (df64_le(df64_abs(a), DF64_B(0.5 * df64_abs(b)))) return a;
    int k = max(abs(a.x), abs(b.x)) > 1.2676506e30 ? 64 : 0;
    vec2 r = df64_ldexp(df64_mod_core(df64_ldexp(a, -k), df64_ldexp(b, -k), true), k);
    return floatBitsToInt(a.x) < 0 ? -r : r;
}

// a = m 2^e with |m| in [0.5, 1).
vec2 df64_frexp(vec2 a, out int e) {
    a = DF64_B(a);
    e = 0;
    if (a.x == 0.0) return vec2(df64_signed_zero(a.x), 0.0);
    if (df64_nonfinite(a.x)) return a;
    // A subnormal (where the driver keeps them) is lifted by 2^24 first, as in df64_log.
    int lift = 0;
    if (df64_biased_exponent(a.x) == 0) {
        a = DF64_B(a * 16777216.0);
        lift = 24;
    }
    e = df64_exponent(a.x);
    vec2 m = df64_ldexp(a, -e);
    e -= lift;
    if (abs(m.x) == 0.5 && DF64_B(m.x * m.y) < 0.0) {
        m = DF64_B(2.0 * m);
        e -= 1;
    }
    return m;
}

vec2 df64_frexp_mantissa(vec2 a) { a = DF64_B(a); int e; return df64_frexp(a, e); }
vec2 df64_frexp_exponent(vec2 a) {
    a = DF64_B(a);
    int e; df64_frexp(a, e); return vec2(float(e), 0.0);
}

// ---------------------------------------------------------------- the fast tier

// exp, log, sin and cos for shaders that pay per pixel: the fast arithmetic of df64.glsl (no
// exponent scaling) and short series whose smallest terms are summed in f32: a term under
// 2^-20 of the result needs only 2^-28 of itself, which f32 gives. Bounds (2 ulp48 for exp
// and log, 4 for sin and cos) over the domains below; NaN gives NaN.

// e^a: k = round(32 a / ln 2) = 32 n + j, t = a - k ln2/32 (|t| <= ln2/64; k ln2/32 in exact
// products), e^a = 2^n T[j] (1 + q), q = expm1(t) = t + t^2 (1/2 + t (1/6 + t R)) with
// R = 1/24 + t/120 + t^2/720 in f32 (t^4 R is under 2^-30, so its rounding is under 2^-54).
// Within 2 ulp48 for results of 2^-100 to 2^128 (a from -69.3 to 88.7); beyond, +inf above and
// the f32 underflow below (0 past -103.97), as df64_exp.
vec2 df64_exp_fast(vec2 a) {
    a = DF64_B(a);
    // Arguments past the ends act as the ends: the result then over- or underflows in the
    // scaling, and no table index leaves the table.
    float xc = clamp(a.x, -105.0, 89.0);
    DF64_PRECISE vec2 x = xc == a.x ? a : vec2(xc, 0.0);
    DF64_PRECISE float k = floor(DF64_B(DF64_B(x.x * 46.16624) + 0.5));
    DF64_PRECISE vec2 t = df64_add_fast(x, -df64_two_prod(k, DF64_LN2_32[0]));
    t = df64_add_fast(t, -df64_two_prod(k, DF64_LN2_32[1]));
    t = df64_add_fast(t, vec2(-DF64_B(k * DF64_LN2_32[2]), 0.0));
    DF64_PRECISE float r = DF64_B(DF64_INV_FACT[8] + DF64_B(t.x * DF64_B(DF64_INV_FACT[10]
            + DF64_B(t.x * DF64_INV_FACT[12]))));
    DF64_PRECISE vec2 h = df64_add_fast(df64_inv_fact(3), vec2(DF64_B(t.x * r), 0.0));
    DF64_PRECISE vec2 g = df64_add_fast(vec2(0.5, 0.0), df64_mul_fast(t, h));
    DF64_PRECISE vec2 q = df64_add_fast(t, df64_mul_fast(df64_sqr_fast(t), g));
    DF64_PRECISE float n = floor(DF64_B(k / 32.0));
    int j = clamp(int(DF64_B(k - DF64_B(32.0 * n))), 0, 31);
    vec2 th = vec2(DF64_EXP2_TABLE[3 * j], DF64_EXP2_TABLE[3 * j + 1]);
    DF64_PRECISE vec2 small = df64_add_fast(df64_mul_fast(th, q), vec2(DF64_EXP2_TABLE[3 * j + 2], 0.0));
    DF64_PRECISE vec2 e = df64_add_fast(th, small);
    // 2^n in two exact factors (n from -152 to 128), so that the result rounds once.
    int ni = clamp(int(n), -160, 128);
    int n1 = ni / 2;
    DF64_PRECISE vec2 v = DF64_B(DF64_B(e * df64_pow2(n1)) * df64_pow2(ni - n1));
    return df64_isnan(a.x) ? a : df64_finish(v);
}

// ln a: a = 2^e m with m in [0.703125, 1.40625), c = i/64 the table point nearest m,
// f = (m - c)/(m + c) (|f| < 2^-7.4), ln a = e ln 2 + ln c + 2 atanh f, and
// 2 atanh f = 2 (f + f f^2 S), S = 1/3 + f^2 (1/5 + f^2/7) with the f^2 terms in f32 (under
// 2^-17 of S, so their rounding is under 2^-41 of it). Within 2 ulp48 for a from 2^-100 to
// 2^128; ln(+-0) = -inf, ln(+inf) = +inf, NaN below 0 (a subnormal counts as 0).
vec2 df64_log_fast(vec2 a) {
    a = DF64_B(a);
    int bits = floatBitsToInt(a.x);
    int e = df64_exponent(a.x);
    int e1 = e / 2;
    DF64_PRECISE vec2 m = DF64_B(DF64_B(a * df64_pow2(clamp(-e1, -126, 126)))
            * df64_pow2(clamp(e1 - e, -126, 126)));
    bool low = m.x < 0.703125;
    m = low ? DF64_B(2.0 * m) : m;
    e = low ? e - 1 : e;
    DF64_PRECISE float i = floor(DF64_B(DF64_B(m.x * 64.0) + 0.5));
    DF64_PRECISE float c = DF64_B(i / 64.0);
    DF64_PRECISE vec2 f = df64_div_fast(df64_sub_fast(m, vec2(c, 0.0)), df64_add_fast(m, vec2(c, 0.0)));
    DF64_PRECISE vec2 f2 = df64_sqr_fast(f);
    DF64_PRECISE float s2 = DF64_B(f2.x * DF64_B(DF64_INV_ODD[4] + DF64_B(f2.x * DF64_INV_ODD[6])));
    DF64_PRECISE vec2 s = df64_add_fast(df64_inv_odd(1), vec2(s2, 0.0));
    DF64_PRECISE vec2 at = DF64_B(2.0 * df64_add_fast(f, df64_mul_fast(f, df64_mul_fast(f2, s))));
    int row = clamp(int(i), 45, 91);
    int idx = 3 * (row - 45);
    float ef = float(e);
    DF64_PRECISE vec2 big = df64_add_fast(df64_two_prod(ef, DF64_LN2[0]),
            vec2(DF64_LOG_TABLE[idx], DF64_LOG_TABLE[idx + 1]));
    DF64_PRECISE float t3 = DF64_B(DF64_LOG_TABLE[idx + 2] + DF64_B(ef * DF64_LN2[2]));
    DF64_PRECISE vec2 small = df64_add_fast(df64_add_fast(df64_two_prod(ef, DF64_LN2[1]), vec2(t3, 0.0)), at);
    DF64_PRECISE vec2 v = df64_add_fast(big, small);
    // Zeros, subnormals, negatives, infinities and NaN from the bits, in one select.
    bool normal = bits >= 0x00800000 && bits < 0x7f800000;
    vec2 special = (a.x == 0.0 || (bits >= 0 && bits < 0x00800000)) ? vec2(-df64_inf(), 0.0)
            : (bits == 0x7f800000 ? vec2(df64_inf(), 0.0) : df64_nan());
    return normal ? v : special;
}

// The coefficient of z^k in the fast series of sin (odd false: (-1)^k / (2k + 1)!) or cos
// (odd true: (-1)^k / (2k)!).
vec2 df64_trig_fast_coef(bool odd, int k) {
    vec2 c = odd ? df64_inv_fact(2 * k) : df64_inv_fact(2 * k + 1);
    return (k % 2 == 1) ? -c : c;
}

// sin a (want_cos false) or cos a for |a| <= 2^20: a - k pi/2 in five words (df64_reduce_pi_2,
// exact, so results near a zero keep their relative accuracy), k from one f32 product (for
// |a| <= 2^20 the remainder r stays within 1 of 0), then one series for the quadrant:
// sin r = r + r z P(z) or cos r = 1 + z P(z), z = r^2, with P's five leading coefficients in
// df64 and four more in f32 (under 2^-28 of the result for |r| <= 1). Within 4 ulp48 there.
vec2 df64_sin_or_cos_fast(vec2 a, bool want_cos) {
    a = DF64_B(a);
    DF64_PRECISE float k = floor(DF64_B(DF64_B(a.x * DF64_INV_PI_2[0]) + 0.5));
    DF64_PRECISE vec2 r = df64_reduce_pi_2(a, k);
    int q = int(DF64_B(k - DF64_B(4.0 * floor(DF64_B(k / 4.0))))) + (want_cos ? 1 : 0);
    bool odd = (q & 1) == 1;
    DF64_PRECISE vec2 z = df64_sqr_core(r);
    float zx = z.x;
    DF64_PRECISE float tail = DF64_B(df64_trig_fast_coef(odd, 6).x + DF64_B(zx
            * DF64_B(df64_trig_fast_coef(odd, 7).x + DF64_B(zx * DF64_B(df64_trig_fast_coef(odd, 8).x
            + DF64_B(zx * df64_trig_fast_coef(odd, 9).x))))));
    DF64_PRECISE vec2 p = df64_add_fast(df64_trig_fast_coef(odd, 5), vec2(DF64_B(zx * tail), 0.0));
    for (int i = 4; i >= 1; --i) p = df64_add_fast(df64_trig_fast_coef(odd, i), df64_mul_fast(z, p));
    DF64_PRECISE vec2 lead = odd ? vec2(1.0, 0.0) : r;
    DF64_PRECISE vec2 b = odd ? z : df64_mul_fast(r, z);
    DF64_PRECISE vec2 v = df64_add_fast(lead, df64_mul_core(b, p));
    v = (q & 2) == 2 ? -v : v;
    return df64_nonfinite(a.x) ? df64_nan() : v;
}

vec2 df64_sin_fast(vec2 a) {
    a = DF64_B(a);
    DF64_PRECISE vec2 v = df64_sin_or_cos_fast(a, false);
    return a.x == 0.0 ? a : v; // sin(+-0) = +-0
}

vec2 df64_cos_fast(vec2 a) { a = DF64_B(a); return df64_sin_or_cos_fast(a, true); }
