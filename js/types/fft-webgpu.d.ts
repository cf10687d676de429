export { createFftWebGPU } from "./fft/webgpu.js";
export type FftWebGPUOptions = import("./fft/webgpu.js").FftWebGPUOptions;
export type WebGPUFft = import("./fft/webgpu.js").WebGPUFft;
