// leibniz.glsl: Warwick's real-world test, pi by Leibniz's series with u_terms terms,
// 4 (1 - 1/3 + 1/5 - ...), summed in order as 2 divisions, 1 add and 1 subtract per pair of
// terms, in f32 (LEIBNIZ_F32), df64 (LEIBNIZ_DF64, the accurate routines), Thall's df64
// (LEIBNIZ_THALL) or native double (LEIBNIZ_F64). Every fragment sums the same series; the
// result is written as exact f32 words (double: three).
// Needs df64.glsl before it; LEIBNIZ_F64 before GLSL 4.00 needs `#extension
// GL_ARB_gpu_shader_fp64 : require` at the top of the shader.

uniform int u_terms;
out vec4 o_result;

void main() {
#if defined(LEIBNIZ_F64)
    double acc = 0.0;
    for (int k = 0; k < u_terms; k += 2) {
        acc = DF64_B(acc + DF64_B(1.0 / double(2 * k + 1)));
        if (k + 1 < u_terms) {
            acc = DF64_B(acc - DF64_B(1.0 / double(2 * k + 3)));
        }
    }
    acc = DF64_B(acc * 4.0);
    float w0 = float(acc);
    double r = DF64_B(acc - double(w0));
    float w1 = float(r);
    o_result = vec4(w0, w1, float(DF64_B(r - double(w1))), 0.0);
#elif defined(LEIBNIZ_DF64) || defined(LEIBNIZ_THALL)
#ifdef LEIBNIZ_THALL
#define LEIBNIZ_ADD df64_add_thall
#define LEIBNIZ_SUB df64_sub_thall
#define LEIBNIZ_DIV df64_div_thall
#else
#define LEIBNIZ_ADD df64_add
#define LEIBNIZ_SUB df64_sub
#define LEIBNIZ_DIV df64_div
#endif
    vec2 acc = vec2(0.0);
    for (int k = 0; k < u_terms; k += 2) {
        acc = LEIBNIZ_ADD(acc, LEIBNIZ_DIV(vec2(1.0, 0.0), vec2(float(2 * k + 1), 0.0)));
        if (k + 1 < u_terms) {
            acc = LEIBNIZ_SUB(acc, LEIBNIZ_DIV(vec2(1.0, 0.0), vec2(float(2 * k + 3), 0.0)));
        }
    }
    // Times 4: exact.
    o_result = vec4(DF64_B(4.0 * acc), 0.0, 0.0);
#else
    float acc = 0.0;
    for (int k = 0; k < u_terms; k += 2) {
        acc = DF64_B(acc + DF64_B(1.0 / float(2 * k + 1)));
        if (k + 1 < u_terms) {
            acc = DF64_B(acc - DF64_B(1.0 / float(2 * k + 3)));
        }
    }
    o_result = vec4(DF64_B(4.0 * acc), 0.0, 0.0, 0.0);
#endif
}
