// elementwise.glsl: applies ELEMENTWISE_OP(a, b) to two df64 operands per lane, two lanes per
// RGBA32F texel (xy and zw). With ELEMENTWISE_CHAIN, the op is applied u_repeat times in a
// dependent chain, x = OP(x, b), which is how op cost is timed. With ELEMENTWISE_VEC4 the
// op takes and returns a whole texel (a complex df64 or a qf128). With ELEMENTWISE_F64 the
// chain runs in native double (the baseline of Warwick's comparison), starting from the df64
// lanes as doubles and returning each result as a df64.
// Needs df64.glsl, df64_func.glsl and qf128.glsl before it; ELEMENTWISE_F64 before GLSL 4.00
// needs `#extension GL_ARB_gpu_shader_fp64 : require` at the top of the shader.

uniform sampler2D u_a;
uniform sampler2D u_b;
uniform int u_repeat;
out vec4 o_result;

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    vec4 a = texelFetch(u_a, p, 0);
    vec4 b = texelFetch(u_b, p, 0);
#if defined(ELEMENTWISE_F64)
    double x0 = DF64_B(double(a.x) + double(a.y));
    double x1 = DF64_B(double(a.z) + double(a.w));
    double b0 = DF64_B(double(b.x) + double(b.y));
    double b1 = DF64_B(double(b.z) + double(b.w));
    for (int i = 0; i < u_repeat; ++i) {
        x0 = ELEMENTWISE_OP(x0, b0);
        x1 = ELEMENTWISE_OP(x1, b1);
    }
    float h0 = float(x0);
    float h1 = float(x1);
    o_result = vec4(h0, float(DF64_B(x0 - double(h0))), h1, float(DF64_B(x1 - double(h1))));
#elif defined(ELEMENTWISE_CHAIN) && defined(ELEMENTWISE_VEC4)
    // qf128 ops, chained through a negligible perturbation of a fixed argument.
    DF64_PRECISE vec4 x = a;
    for (int i = 0; i < u_repeat; ++i) {
        x = ELEMENTWISE_OP(vec4(DF64_B(a.x + DF64_B(x.x * 1e-30)), a.yzw), b);
    }
    o_result = x;
#elif defined(ELEMENTWISE_CHAIN)
    // precise: the chain is timed as written, never reassociated or folded.
    DF64_PRECISE vec2 x0 = a.xy;
    DF64_PRECISE vec2 x1 = a.zw;
    for (int i = 0; i < u_repeat; ++i) {
#ifdef ELEMENTWISE_CHAIN_FIXED
        // Functions whose own output would leave their domain (exp, log, asin, ...) are
        // chained through a negligible perturbation of a fixed argument instead.
        x0 = ELEMENTWISE_OP(vec2(DF64_B(a.x + DF64_B(x0.x * 1e-30)), a.y), b.xy);
        x1 = ELEMENTWISE_OP(vec2(DF64_B(a.z + DF64_B(x1.x * 1e-30)), a.w), b.zw);
#else
        x0 = ELEMENTWISE_OP(x0, b.xy);
        x1 = ELEMENTWISE_OP(x1, b.zw);
#endif
    }
    o_result = vec4(x0, x1);
#elif defined(ELEMENTWISE_VEC4)
    // One value per texel: a complex df64 [re.hi, re.lo, im.hi, im.lo] or a qf128.
    o_result = ELEMENTWISE_OP(a, b);
#else
    o_result = vec4(ELEMENTWISE_OP(a.xy, b.xy), ELEMENTWISE_OP(a.zw, b.zw));
#endif
}
