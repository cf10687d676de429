// probe.glsl: fragment program of the driver probe (Thall's Table I, Da Graca and Defour's
// Table 2, on today's driver). u_test picks what is measured; inputs come from textures so the
// compiler cannot fold them. The engine builds it with and without precise, with and without
// the FMA TwoProduct, and compares every lane with the CPU.
// Needs df64.glsl before it.

uniform sampler2D u_a;
uniform sampler2D u_b;
uniform int u_test;
out vec4 o_result;

void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    vec4 a = texelFetch(u_a, p, 0);
    vec4 b = texelFetch(u_b, p, 0);
    vec4 r = vec4(0.0);
    if (u_test == 0) r = DF64_B(a + b);
    else if (u_test == 1) r = DF64_B(a - b);
    else if (u_test == 2) r = DF64_B(a * b);
    else if (u_test == 3) r = DF64_B(a / b);
    else if (u_test == 4) r = DF64_B(a * DF64_B(1.0 / b));
    else if (u_test == 5) r = sqrt(a);
    else if (u_test == 6) r = inversesqrt(a);
#if __VERSION__ >= 400
    else if (u_test == 7) {
        // Nonzero only where fma() really fuses: a*b - fl(a*b) rounded once.
        precise vec4 q = DF64_B(a * b);
        precise vec4 f = fma(a, b, -q);
        r = f;
    }
    else if (u_test == 13) r = vec4(df64_two_prod_fma(a.x, b.x), df64_two_prod_fma(a.y, b.y));
#endif
    else if (u_test == 10) r = vec4(df64_two_sum(a.x, b.x), df64_two_sum(a.y, b.y));
    else if (u_test == 11) r = vec4(df64_split(a.x), df64_split(a.y));
    else if (u_test == 12) r = vec4(df64_two_prod_dekker(a.x, b.x), df64_two_prod_dekker(a.y, b.y));
    else if (u_test == 14) r = vec4(df64_two_diff(a.x, b.x), df64_two_sqr(a.y));
    o_result = r;
}
