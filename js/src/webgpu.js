// df64gl for WebGPU: the df64 (and qf128) WGSL routines and the check that proves them on the
// device at hand, in the compute, vertex and fragment stages. No GLSL is loaded here.

export { VERSION } from './generated/version.js';
export { DF64_WGSL, DF64_QF128_WGSL } from './generated/wgsl.js';
export { checkWebGPU } from './check/webgpu.js';

/** @typedef {import('./check/webgpu.js').WebGPUCheckOptions} WebGPUCheckOptions */
/** @typedef {import('./check/results.js').CheckResult} CheckResult */
