// df64gl for WebGL 2: the df64 and qf128 GLSL ES 3.00 routines, the check that proves them on
// the context at hand (`checkAsync`, or `prepareCheck` then `check`), the numbers as f32 words,
// and positions relative to the eye. The other uses have entries of their own: df64gl/three,
// df64gl/luma, df64gl/webgpu (WGSL and its check), df64gl/fft and df64gl/fft-webgpu.

export { VERSION } from './generated/version.js';
export { DF64_GLSL } from './generated/glsl-df64.js';
export { QF128_GLSL } from './generated/glsl-qf128.js';
export { split, join, splitArray, splitMat4 } from './words.js';
export { splitPositions, relativeToEye, viewRotation, rteUniforms, DF64_RTE_GLSL } from './geometry.js';
export { check, checkAsync, prepareCheck } from './check/webgl.js';
export { routinesCalledBy } from './check/routines-called-by.js';

/** @typedef {import('./check/results.js').CheckResult} CheckResult */
/** @typedef {import('./check/results.js').RoutineResult} RoutineResult */
/** @typedef {import('./check/results.js').StageResult} StageResult */
/** @typedef {import('./check/webgl.js').CheckOptions} CheckOptions */
/** @typedef {import('./check/routines-called-by.js').CalledRoutines} CalledRoutines */
