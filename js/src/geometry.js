// Positions relative to the eye: a local position as two f32 attributes (splitPositions), the
// model matrix relative to the eye in df64 and the view's rotation (relativeToEye,
// viewRotation, rteUniforms), and the GLSL that takes them to view space (DF64_RTE_GLSL).

import { splitMat4, numbersArg, finiteWords, mat4Arg } from './words.js';

/**
 * Positions held as doubles (x, y, z, x, y, z, ...: a Float64Array or any array of numbers) as
 * two Float32Arrays of the same length, `hi` and `lo`, for two vec3 attributes: element i is
 * split(positions[i]). In a shader `df64vec3(position_hi, position_lo)` is the position again
 * to about 48 bits (millimetres at a billion metres).
 * @param {ArrayLike<number>} positions
 * @returns {{ hi: Float32Array; lo: Float32Array }}
 */
export function splitPositions(positions) {
  numbersArg(positions, 'splitPositions', 'an array of numbers (x, y, z, x, y, z, ...)');
  const hi = new Float32Array(positions.length);
  const lo = new Float32Array(positions.length);
  for (let i = 0; i < positions.length; i++) {
    const w = finiteWords(positions[i], i, 'splitPositions');
    hi[i] = w[0];
    lo[i] = w[1];
  }
  return { hi: hi, lo: lo };
}

// A camera position [x, y, z] of finite numbers, or an Error naming `name`.
function eyeArg(eye, name) {
  numbersArg(eye, name + ': eye', '[x, y, z] (three numbers)');
  if (eye.length !== 3) throw new TypeError(name + ': eye is [x, y, z], not ' + eye.length + ' numbers');
  for (let i = 0; i < 3; i++) {
    if (!Number.isFinite(eye[i])) throw new RangeError(name + ': eye[' + i + '] is ' + eye[i] + '; the eye takes finite numbers');
  }
}

/**
 * The model matrix relative to the eye, in doubles: translate(-eye) times `model` (both
 * column-major; `eye` the camera's world position [x, y, z]). Its translation column is the
 * object's origin minus the eye, computed before any f32 rounding; `splitMat4` of it gives the
 * df64mat4 a vertex shader multiplies local positions by (`df64mat4_mul_vec4`).
 * @param {ArrayLike<number>} model
 * @param {ArrayLike<number>} eye
 * @returns {Float64Array}
 */
export function relativeToEye(model, eye) {
  mat4Arg(model, 'relativeToEye', 'model');
  eyeArg(eye, 'relativeToEye');
  const out = new Float64Array(16);
  for (let i = 0; i < 16; i++) out[i] = model[i];
  // Column c gains -eye times its w (row 3) entry.
  for (let c = 0; c < 4; c++) {
    for (let r = 0; r < 3; r++) {
      const v = model[4 * c + r] - eye[r] * model[4 * c + 3];
      if (!Number.isFinite(v)) {
        throw new RangeError('relativeToEye: element ' + (4 * c + r) + ' of the matrix relative to the eye overflows the doubles (' +
          model[4 * c + r] + ' - ' + eye[r] + ' * ' + model[4 * c + 3] + ')');
      }
      out[4 * c + r] = v;
    }
  }
  return out;
}

/**
 * A view matrix (column-major) without its translation, as a Float32Array: the view of a
 * camera at the origin with the same orientation. What the f32 side of relative-to-eye
 * rendering multiplies by (`df64_world_to_view`, or after `df64mat4_mul_vec4`).
 * @param {ArrayLike<number>} view
 * @returns {Float32Array}
 */
export function viewRotation(view) {
  mat4Arg(view, 'viewRotation', 'view');
  const out = new Float32Array(16);
  for (let i = 0; i < 12; i++) out[i] = view[i];
  out[15] = view[15];
  return out;
}

/**
 * The vertex shader code of relative-to-eye rendering with a per-object model matrix, for
 * GLSL ES 3.00 after DF64_GLSL: three uniforms (the model matrix relative to the eye as a
 * df64mat4, `df64_model_rte_hi` and `df64_model_rte_lo`, from `splitMat4(relativeToEye(model,
 * eye))`, and `df64_view_rotation` from `viewRotation(view)`) and
 * `vec4 df64_rte_view_position(vec3 position_hi, vec3 position_lo)`, the view-space position.
 * With `DF64_RTE_TRANSLATION_ONLY` defined (a model matrix with no rotation or scale) it adds
 * the df64 translation only: 3 df64 additions a vertex instead of a df64 matrix product.
 */
export const DF64_RTE_GLSL = `
uniform highp mat4 df64_model_rte_hi;
uniform highp mat4 df64_model_rte_lo;
uniform highp mat4 df64_view_rotation;
vec4 df64_rte_view_position(vec3 position_hi, vec3 position_lo) {
#ifdef DF64_RTE_TRANSLATION_ONLY
  df64vec3 t = df64vec3(df64_model_rte_hi[3].xyz, df64_model_rte_lo[3].xyz);
  return df64_world_to_view(df64_view_rotation, df64vec3_neg(t), df64vec3(position_hi, position_lo));
#else
  df64mat4 m = df64mat4(df64_model_rte_hi, df64_model_rte_lo);
  df64vec4 p = df64mat4_mul_vec4(m, df64vec4(vec4(position_hi, 1.0), vec4(position_lo, 0.0)));
  return df64_view_rotation * vec4(df64vec4_to_f32(p).xyz, 1.0);
#endif
}
`;

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
export function rteUniforms(model, eye, view) {
  const m = relativeToEye(model, eye);
  let words;
  try {
    words = splitMat4(m);
  } catch (e) {
    // The object is too far from the eye for f32's range: say so in the caller's terms.
    throw new RangeError('rteUniforms: the model matrix relative to the eye lies past f32\'s range (' +
      e.message.replace(/^splitMat4: /, '') + '): bring the eye nearer the object');
  }
  let translationOnly = true;
  for (let c = 0; c < 3; c++) {
    for (let r = 0; r < 4; r++) if (model[4 * c + r] !== (c === r ? 1 : 0)) translationOnly = false;
  }
  return {
    df64_model_rte_hi: words.hi,
    df64_model_rte_lo: words.lo,
    df64_view_rotation: viewRotation(view),
    translationOnly: translationOnly,
  };
}
