/**
 * Loads what `check(gl, options)` needs to run synchronously: the known answers of the routines
 * `options.routines` names (every routine where it names none; the qf128 ones with
 * `options.qf128`), a module per routine. `checkAsync` loads them itself.
 * @param {CheckOptions} [options]
 * @returns {Promise<void>}
 */
export function prepareCheck(options?: CheckOptions): Promise<void>;
/**
 * Proves the df64 routines, the vector and matrix routines (and with `options.qf128`, the
 * qf128 ones) on this WebGL 2 context, in the vertex and the fragment stage: the probe shader,
 * then every exported routine on known answers. Never throws for a driver that fails or a
 * context that is lost; throws for bad options, and where the known answers it needs are not
 * loaded (`await prepareCheck(options)` first, or use `checkAsync`). CheckOptions above;
 * CheckResult in results.js.
 * @param {WebGL2RenderingContext | null | undefined} gl
 * @param {CheckOptions} [options]
 * @returns {CheckResult}
 */
export function check(gl: WebGL2RenderingContext | null | undefined, options?: CheckOptions): CheckResult;
/**
 * The same check as `check`, as a Promise of the same result, that loads the known answers of
 * the routines it checks (past a cached verdict) and never holds the page: the
 * programs compile with KHR_parallel_shader_compile where the context has it (their status is
 * polled, never waited for; without it one program is started ahead of the one waited on),
 * draws are read back after a fence has signalled, and between
 * steps the page runs (its frames and input) with its own WebGL state in place.
 * @param {WebGL2RenderingContext | null | undefined} gl
 * @param {CheckOptions} [options]
 * @returns {Promise<CheckResult>}
 */
export function checkAsync(gl: WebGL2RenderingContext | null | undefined, options?: CheckOptions): Promise<CheckResult>;
/**
 * Options of `check`.
 */
export type CheckOptions = {
    /**
     * Remember the verdict per renderer, browser and module version in `storage` and reuse it (default true).
     */
    cache?: boolean;
    /**
     * Where verdicts are remembered (default: localStorage where there is one).
     */
    storage?: {
        getItem(key: string): string | null;
        setItem(key: string, value: string): void;
    } | null;
    /**
     * Also check the qf128 routines (compiles QF128_GLSL; slower).
     */
    qf128?: boolean;
    /**
     * Check only these routines (names as in RoutineResult.name; with qf128, the qf128 ones of these names); default all.
     */
    routines?: string[];
    /**
     * The shader stages to check in: ['vertex', 'fragment'] (the default), or one of them. Vertex and fragment shaders are separate compilations: check the stage your shaders call df64 from.
     */
    stages?: Array<"vertex" | "fragment">;
    /**
     * Check this df64 GLSL instead of DF64_GLSL (your own copy or an older export).
     */
    glsl?: string;
    /**
     * Check this qf128 GLSL instead of QF128_GLSL.
     */
    qf128Glsl?: string;
};
import type { CheckResult } from './results.js';
