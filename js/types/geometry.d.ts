/**
 * Positions held as doubles (x, y, z, x, y, z, ...: a Float64Array or any array of numbers) as
 * two Float32Arrays of the same length, `hi` and `lo`, for two vec3 attributes: element i is
 * split(positions[i]). In a shader `df64vec3(position_hi, position_lo)` is the position again
 * to about 48 bits (millimetres at a billion metres).
 * @param {ArrayLike<number>} positions
 * @returns {{ hi: Float32Array; lo: Float32Array }}
 */
export function splitPositions(positions: ArrayLike<number>): {
    hi: Float32Array;
    lo: Float32Array;
};
/**
 * The model matrix relative to the eye, in doubles: translate(-eye) times `model` (both
 * column-major; `eye` the camera's world position [x, y, z]). Its translation column is the
 * object's origin minus the eye, computed before any f32 rounding; `splitMat4` of it gives the
 * df64mat4 a vertex shader multiplies local positions by (`df64mat4_mul_vec4`).
 * @param {ArrayLike<number>} model
 * @param {ArrayLike<number>} eye
 * @returns {Float64Array}
 */
export function relativeToEye(model: ArrayLike<number>, eye: ArrayLike<number>): Float64Array;
/**
 * A view matrix (column-major) without its translation, as a Float32Array: the view of a
 * camera at the origin with the same orientation. What the f32 side of relative-to-eye
 * rendering multiplies by (`df64_world_to_view`, or after `df64mat4_mul_vec4`).
 * @param {ArrayLike<number>} view
 * @returns {Float32Array}
 */
export function viewRotation(view: ArrayLike<number>): Float32Array;
/**
 * The uniforms of DF64_RTE_GLSL for one object and camera: `model` the object's world matrix,
 * `eye` the camera's world position, `view` the camera's view matrix (all doubles,
 * column-major). `translationOnly` says whether `model` has no rotation or scale (its upper
 * 3 x 3 the identity), for DF64_RTE_TRANSLATION_ONLY.
 * @param {ArrayLike<number>} model
 * @param {ArrayLike<number>} eye
 * @param {ArrayLike<number>} view
 * @returns {{
  df64_model_rte_hi: Float32Array}
 */
export function rteUniforms(model: ArrayLike<number>, eye: ArrayLike<number>, view: ArrayLike<number>): {
    df64_model_rte_hi: Float32Array;
};
/**
 * The vertex shader code of relative-to-eye rendering with a per-object model matrix, for
 * GLSL ES 3.00 after DF64_GLSL: three uniforms (the model matrix relative to the eye as a
 * df64mat4, `df64_model_rte_hi` and `df64_model_rte_lo`, from `splitMat4(relativeToEye(model,
 * eye))`, and `df64_view_rotation` from `viewRotation(view)`) and
 * `vec4 df64_rte_view_position(vec3 position_hi, vec3 position_lo)`, the view-space position.
 * With `DF64_RTE_TRANSLATION_ONLY` defined (a model matrix with no rotation or scale) it adds
 * the df64 translation only: 3 df64 additions a vertex instead of a df64 matrix product.
 */
export const DF64_RTE_GLSL: "\nuniform highp mat4 df64_model_rte_hi;\nuniform highp mat4 df64_model_rte_lo;\nuniform highp mat4 df64_view_rotation;\nvec4 df64_rte_view_position(vec3 position_hi, vec3 position_lo) {\n#ifdef DF64_RTE_TRANSLATION_ONLY\n  df64vec3 t = df64vec3(df64_model_rte_hi[3].xyz, df64_model_rte_lo[3].xyz);\n  return df64_world_to_view(df64_view_rotation, df64vec3_neg(t), df64vec3(position_hi, position_lo));\n#else\n  df64mat4 m = df64mat4(df64_model_rte_hi, df64_model_rte_lo);\n  df64vec4 p = df64mat4_mul_vec4(m, df64vec4(vec4(position_hi, 1.0), vec4(position_lo, 0.0)));\n  return df64_view_rotation * vec4(df64vec4_to_f32(p).xyz, 1.0);\n#endif\n}\n";
