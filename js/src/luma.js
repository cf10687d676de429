// df64 for luma.gl 9: the routines and positions relative to the eye as shader modules.
// Run `checkAsync` (from 'df64gl') on the device's context (`device.gl`) before trusting them.

import { DF64_GLSL } from './generated/glsl-df64.js';
import { rteUniforms } from './geometry.js';

/**
 * df64 as a luma.gl 9 shader module: `new Model(device, {modules: [df64], ...})` pastes the
 * routines into both stages. Its one uniform, u_df64_zero (a uint the routines XOR with, so no
 * compiler can fold their float steps), must stay 0: it has no uniform block and nothing sets
 * it. Run `check` on the device's context (`device.gl`) before trusting the output.
 */
export const df64 = {
  name: 'df64',
  vs: DF64_GLSL,
  fs: DF64_GLSL,
  uniformTypes: {},
  defaultUniforms: {},
  getUniforms: function () { return {}; },
};

/**
 * df64 positions relative to the eye as a luma.gl 9 shader module (deck.gl's use of fp64):
 * `modules: [df64rte]` (it brings `df64`) gives a vertex shader
 * `vec4 df64rte_viewPosition(vec3 positionHigh, vec3 positionLow)`, the view-space position of
 * a local position held as two f32 attributes (`splitPositions`), through the model matrix
 * relative to the eye in df64. Set its props per draw with
 * `model.shaderInputs.setProps({df64rte: {modelMatrix, eye, viewMatrix}})` (doubles,
 * column-major; eye the camera's world position), then project with your f32 projection.
 */
export const df64rte = {
  name: 'df64rte',
  dependencies: [df64],
  vs: `\
layout(std140) uniform df64rteUniforms {
  mat4 modelHigh;
  mat4 modelLow;
  mat4 viewRotation;
} df64rte;

vec4 df64rte_viewPosition(vec3 positionHigh, vec3 positionLow) {
  df64mat4 m = df64mat4(df64rte.modelHigh, df64rte.modelLow);
  df64vec4 p = df64mat4_mul_vec4(m, df64vec4(vec4(positionHigh, 1.0), vec4(positionLow, 0.0)));
  return df64rte.viewRotation * vec4(df64vec4_to_f32(p).xyz, 1.0);
}
`,
  uniformTypes: { modelHigh: 'mat4x4<f32>', modelLow: 'mat4x4<f32>', viewRotation: 'mat4x4<f32>' },
  defaultUniforms: {
    modelHigh: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
    modelLow: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    viewRotation: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
  },
  getUniforms: function (props) {
    if (!props || !props.modelMatrix || !props.eye || !props.viewMatrix) return {};
    const u = rteUniforms(props.modelMatrix, props.eye, props.viewMatrix);
    return {
      modelHigh: Array.from(u.df64_model_rte_hi),
      modelLow: Array.from(u.df64_model_rte_lo),
      viewRotation: Array.from(u.df64_view_rotation),
    };
  },
};
