// The FFT on a WebGPU device, in f32, df64 or qf128 (`createFftWebGPU`).

export { createFftWebGPU } from './fft/webgpu.js';

/** @typedef {import('./fft/webgpu.js').FftWebGPUOptions} FftWebGPUOptions */
/** @typedef {import('./fft/webgpu.js').WebGPUFft} WebGPUFft */
