/**
 * Proves the WGSL routines (DF64_WGSL; with `options.qf128`, DF64_QF128_WGSL) on this WebGPU
 * device: every routine on the known answers `check` runs, judged alike, in a compute shader
 * and in a render pipeline's vertex stage. Resolves to the same kind of result as `check(gl)`
 * (no probe shader: the known answers include twoSum and twoProduct; `stages` has `compute`
 * and `vertex`); never rejects for a device that fails (CheckResult: check/results.js).
 * @param {object | null | undefined} device
 * @param {WebGPUCheckOptions} [options]
 * @returns {Promise<CheckResult>}
 */
export function checkWebGPU(device: object | null | undefined, options?: WebGPUCheckOptions): Promise<CheckResult>;
/**
 * Options of `checkWebGPU`.
 */
export type WebGPUCheckOptions = {
    /**
     * Also check the qf128 routines (compiles DF64_QF128_WGSL).
     */
    qf128?: boolean;
    /**
     * Check only these routines (names as in RoutineResult.name); default all.
     */
    routines?: string[];
    /**
     * The stages to check in: ['compute', 'vertex'] (the default: compute shaders and a render pipeline's vertex stage), or any of 'compute', 'vertex' and 'fragment' (a render pipeline's fragment stage: one fragment per answer).
     */
    stages?: Array<"compute" | "vertex" | "fragment">;
    /**
     * Check this WGSL instead of the export (df64, and qf128 with options.qf128; its barrier buffer, if any, at
     */
    wgsl?: string;
};
import type { CheckResult } from './results.js';
