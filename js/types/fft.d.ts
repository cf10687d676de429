export { createFft } from "./fft/webgl.js";
export type FftOptions = import("./fft/webgl.js").FftOptions;
export type FftInput = import("./fft/webgl.js").FftInput;
export type WebGLFft = import("./fft/webgl.js").WebGLFft;
