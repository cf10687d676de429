/**
 * One routine's known-answer results.
 * @typedef {Object} RoutineResult
 * @property {string} name The routine's name ("add", "exp", ...: the GLSL function is df64_<name>; "vec3_add", "mat4_mul", ...: df64<name>; "transform_point", "relative_to_eye", "world_to_view": df64_<name>).
 * @property {number} cases Cases run (for a vector routine: result components judged).
 * @property {string} unit The unit of `bound` and `worst`: "ulp48", "ulp96", "ulp24" (an f32 result), "2^-48 sum|p|" (dot, cross and matrix products: 2^-48 times the sum of the magnitudes of the products), "2^-24 sum|p| + 2^-48|x|" (the transforms that apply an f32 matrix).
 * @property {number} bound The documented bound in `unit`; 0: exact.
 * @property {number} worst The worst error beyond the domain's floor, in `unit` (Infinity: a wrong NaN, infinity or zero).
 * @property {number} failed Cases off the bound or with a wrong special value.
 * @property {boolean} pass Every case within the bound.
 * @property {number} mirrorMatched Cases whose words equal the CPU mirror's bit for bit (the rest may still be within the bound).
 * @property {{ a?: number[]; b?: number[]; operands?: number[]; component?: number; got: number[]; mirror: number[] } | null} mirrorMismatch The first case whose words differ from the mirror's, or null (a vector routine's: its operands' words and the component).
 * @property {{ a?: number[]; b?: number[]; operands?: number[]; component?: number; got: number[]; want: number[] | 'NaN' } | null} worstCase The worst case when the routine failed, or null.
 * @property {number} ms Milliseconds to compile and run this routine: its share of its program's compile (small routines share a program) and its draws (`checkWebGPU`, which compiles every routine's pipeline at once: from the start of the compiles to its pipeline being ready).
 */
/**
 * What one shader stage found.
 * @typedef {Object} StageResult
 * @property {boolean} pass The probe all green (WebGL) and every routine within its bound in this stage.
 * @property {{ green: number; pixels: number; ms: number } | null} probe The probe shader's green pixels in this stage (null for WebGPU, which has no probe shader).
 * @property {RoutineResult[]} routines Each df64 routine checked in this stage.
 * @property {RoutineResult[]} vectors Each vector and matrix routine checked in this stage.
 * @property {{ pass: boolean; routines: RoutineResult[] } | null} qf128 The qf128 routines, with options.qf128; else null.
 */
/**
 * What `check` found. Plain data: it survives JSON (Infinity becomes null there).
 * @typedef {Object} CheckResult
 * @property {boolean} pass Every stage checked passed: the probe shader all green and every routine within its bound (and qf128's, when asked).
 * @property {string} reason Why it passed or failed, in a sentence for a log or an error message.
 * @property {string} renderer The WebGL renderer string (unmasked where the browser allows).
 * @property {string} version VERSION.
 * @property {{ green: number; pixels: number; ms: number } | null} probe The probe shader's green pixels in the stage with the fewest.
 * @property {RoutineResult[]} routines Each df64 routine over the stages checked (the worst error of any, the failures of all).
 * @property {RoutineResult[]} vectors Each vector and matrix routine (df64_vec.glsl) over the stages checked.
 * @property {{ pass: boolean; routines: RoutineResult[] } | null} qf128 The qf128 routines, with options.qf128; else null.
 * @property {{ vertex: StageResult | null; fragment?: StageResult | null; compute?: StageResult | null }} stages Each stage's own result (null: not checked). `check` has vertex and fragment; `checkWebGPU` compute, vertex and (on request) fragment.
 * @property {number} ms Milliseconds the check took (or the cache lookup).
 * @property {boolean} cached The verdict came from options.storage (localStorage), stored by an earlier check.
 */
export function CheckFailure(reason: any): void;
export class CheckFailure {
    /**
     * One routine's known-answer results.
     * @typedef {Object} RoutineResult
     * @property {string} name The routine's name ("add", "exp", ...: the GLSL function is df64_<name>; "vec3_add", "mat4_mul", ...: df64<name>; "transform_point", "relative_to_eye", "world_to_view": df64_<name>).
     * @property {number} cases Cases run (for a vector routine: result components judged).
     * @property {string} unit The unit of `bound` and `worst`: "ulp48", "ulp96", "ulp24" (an f32 result), "2^-48 sum|p|" (dot, cross and matrix products: 2^-48 times the sum of the magnitudes of the products), "2^-24 sum|p| + 2^-48|x|" (the transforms that apply an f32 matrix).
     * @property {number} bound The documented bound in `unit`; 0: exact.
     * @property {number} worst The worst error beyond the domain's floor, in `unit` (Infinity: a wrong NaN, infinity or zero).
     * @property {number} failed Cases off the bound or with a wrong special value.
     * @property {boolean} pass Every case within the bound.
     * @property {number} mirrorMatched Cases whose words equal the CPU mirror's bit for bit (the rest may still be within the bound).
     * @property {{ a?: number[]; b?: number[]; operands?: number[]; component?: number; got: number[]; mirror: number[] } | null} mirrorMismatch The first case whose words differ from the mirror's, or null (a vector routine's: its operands' words and the component).
     * @property {{ a?: number[]; b?: number[]; operands?: number[]; component?: number; got: number[]; want: number[] | 'NaN' } | null} worstCase The worst case when the routine failed, or null.
     * @property {number} ms Milliseconds to compile and run this routine: its share of its program's compile (small routines share a program) and its draws (`checkWebGPU`, which compiles every routine's pipeline at once: from the start of the compiles to its pipeline being ready).
     */
    /**
     * What one shader stage found.
     * @typedef {Object} StageResult
     * @property {boolean} pass The probe all green (WebGL) and every routine within its bound in this stage.
     * @property {{ green: number; pixels: number; ms: number } | null} probe The probe shader's green pixels in this stage (null for WebGPU, which has no probe shader).
     * @property {RoutineResult[]} routines Each df64 routine checked in this stage.
     * @property {RoutineResult[]} vectors Each vector and matrix routine checked in this stage.
     * @property {{ pass: boolean; routines: RoutineResult[] } | null} qf128 The qf128 routines, with options.qf128; else null.
     */
    /**
     * What `check` found. Plain data: it survives JSON (Infinity becomes null there).
     * @typedef {Object} CheckResult
     * @property {boolean} pass Every stage checked passed: the probe shader all green and every routine within its bound (and qf128's, when asked).
     * @property {string} reason Why it passed or failed, in a sentence for a log or an error message.
     * @property {string} renderer The WebGL renderer string (unmasked where the browser allows).
     * @property {string} version VERSION.
     * @property {{ green: number; pixels: number; ms: number } | null} probe The probe shader's green pixels in the stage with the fewest.
     * @property {RoutineResult[]} routines Each df64 routine over the stages checked (the worst error of any, the failures of all).
     * @property {RoutineResult[]} vectors Each vector and matrix routine (df64_vec.glsl) over the stages checked.
     * @property {{ pass: boolean; routines: RoutineResult[] } | null} qf128 The qf128 routines, with options.qf128; else null.
     * @property {{ vertex: StageResult | null; fragment?: StageResult | null; compute?: StageResult | null }} stages Each stage's own result (null: not checked). `check` has vertex and fragment; `checkWebGPU` compute, vertex and (on request) fragment.
     * @property {number} ms Milliseconds the check took (or the cache lookup).
     * @property {boolean} cached The verdict came from options.storage (localStorage), stored by an earlier check.
     */
    constructor(reason: any);
    reason: any;
}
export function now(): number;
export function summarize(routines: any): any;
export function emptyResult(): {
    pass: boolean;
    reason: string;
    renderer: string;
    version: string;
    probe: any;
    routines: any[];
    vectors: any[];
    qf128: any;
    stages: {
        vertex: any;
        fragment: any;
    };
    ms: number;
    cached: boolean;
};
export function settle(result: any, pass: any, reason: any, t0: any): any;
export function routinesAskedFor(known: any, opts: any, what: any): any;
export function stagesAskedFor(opts: any, all: any, defaults: any, what: any): any;
export function flatRows(set: any, chosen: any, rowOf: any): {
    px: Float32Array<ArrayBuffer>;
    at: (k: any, i: any) => any;
};
export function gridRows(set: any, chosen: any, rows: any): (k: any) => any;
export function mergeStages(lists: any): any[];
/**
 * One routine's known-answer results.
 */
export type RoutineResult = {
    /**
     * The routine's name ("add", "exp", ...: the GLSL function is df64_<name>; "vec3_add", "mat4_mul", ...: df64<name>; "transform_point", "relative_to_eye", "world_to_view": df64_<name>).
     */
    name: string;
    /**
     * Cases run (for a vector routine: result components judged).
     */
    cases: number;
    /**
     * The unit of `bound` and `worst`: "ulp48", "ulp96", "ulp24" (an f32 result), "2^-48 sum|p|" (dot, cross and matrix products: 2^-48 times the sum of the magnitudes of the products), "2^-24 sum|p| + 2^-48|x|" (the transforms that apply an f32 matrix).
     */
    unit: string;
    /**
     * The documented bound in `unit`; 0: exact.
     */
    bound: number;
    /**
     * The worst error beyond the domain's floor, in `unit` (Infinity: a wrong NaN, infinity or zero).
     */
    worst: number;
    /**
     * Cases off the bound or with a wrong special value.
     */
    failed: number;
    /**
     * Every case within the bound.
     */
    pass: boolean;
    /**
     * Cases whose words equal the CPU mirror's bit for bit (the rest may still be within the bound).
     */
    mirrorMatched: number;
    /**
     * The first case whose words differ from the mirror's, or null (a vector routine's: its operands' words and the component).
     */
    mirrorMismatch: {
        a?: number[];
        b?: number[];
        operands?: number[];
        component?: number;
        got: number[];
        mirror: number[];
    } | null;
    /**
     * The worst case when the routine failed, or null.
     */
    worstCase: {
        a?: number[];
        b?: number[];
        operands?: number[];
        component?: number;
        got: number[];
        want: number[] | "NaN";
    } | null;
    /**
     * Milliseconds to compile and run this routine: its share of its program's compile (small routines share a program) and its draws (`checkWebGPU`, which compiles every routine's pipeline at once: from the start of the compiles to its pipeline being ready).
     */
    ms: number;
};
/**
 * What one shader stage found.
 */
export type StageResult = {
    /**
     * The probe all green (WebGL) and every routine within its bound in this stage.
     */
    pass: boolean;
    /**
     * The probe shader's green pixels in this stage (null for WebGPU, which has no probe shader).
     */
    probe: {
        green: number;
        pixels: number;
        ms: number;
    } | null;
    /**
     * Each df64 routine checked in this stage.
     */
    routines: RoutineResult[];
    /**
     * Each vector and matrix routine checked in this stage.
     */
    vectors: RoutineResult[];
    /**
     * The qf128 routines, with options.qf128; else null.
     */
    qf128: {
        pass: boolean;
        routines: RoutineResult[];
    } | null;
};
/**
 * What `check` found. Plain data: it survives JSON (Infinity becomes null there).
 */
export type CheckResult = {
    /**
     * Every stage checked passed: the probe shader all green and every routine within its bound (and qf128's, when asked).
     */
    pass: boolean;
    /**
     * Why it passed or failed, in a sentence for a log or an error message.
     */
    reason: string;
    /**
     * The WebGL renderer string (unmasked where the browser allows).
     */
    renderer: string;
    /**
     * VERSION.
     */
    version: string;
    /**
     * The probe shader's green pixels in the stage with the fewest.
     */
    probe: {
        green: number;
        pixels: number;
        ms: number;
    } | null;
    /**
     * Each df64 routine over the stages checked (the worst error of any, the failures of all).
     */
    routines: RoutineResult[];
    /**
     * Each vector and matrix routine (df64_vec.glsl) over the stages checked.
     */
    vectors: RoutineResult[];
    /**
     * The qf128 routines, with options.qf128; else null.
     */
    qf128: {
        pass: boolean;
        routines: RoutineResult[];
    } | null;
    /**
     * Each stage's own result (null: not checked). `check` has vertex and fragment; `checkWebGPU` compute, vertex and (on request) fragment.
     */
    stages: {
        vertex: StageResult | null;
        fragment?: StageResult | null;
        compute?: StageResult | null;
    };
    /**
     * Milliseconds the check took (or the cache lookup).
     */
    ms: number;
    /**
     * The verdict came from options.storage (localStorage), stored by an earlier check.
     */
    cached: boolean;
};
