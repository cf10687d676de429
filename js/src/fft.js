// Thall's texture FFT on a WebGL 2 context, in f32, df64 or qf128 (`createFft`).

export { createFft } from './fft/webgl.js';

/** @typedef {import('./fft/webgl.js').FftOptions} FftOptions */
/** @typedef {import('./fft/webgl.js').FftInput} FftInput */
/** @typedef {import('./fft/webgl.js').WebGLFft} WebGLFft */
