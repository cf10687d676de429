export { VERSION } from "./generated/version.js";
export { checkWebGPU } from "./check/webgpu.js";
export type WebGPUCheckOptions = import("./check/webgpu.js").WebGPUCheckOptions;
export type CheckResult = import("./check/results.js").CheckResult;
export { DF64_WGSL, DF64_QF128_WGSL } from "./generated/wgsl.js";
