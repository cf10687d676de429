/**
 * The check of `routines` in the vertex stage with the df64 library `library` on `gl`: one
 * promise per context, routines and library, whichever layer asks first.
 * @param {WebGL2RenderingContext} gl
 * @param {string[]} routines
 * @param {string} library
 * @returns {Promise<import('../check/results.js').CheckResult>}
 */
export function checkOncePerContext(gl: WebGL2RenderingContext, routines: string[], library: string): Promise<import("../check/results.js").CheckResult>;
/**
 * A function that warns a message on the console unless it is the one it warned last (a
 * layer that draws nothing renders every frame).
 * @returns {(message: string) => void}
 */
export function warnOnce(): (message: string) => void;
/**
 * Follows a ready layer's check: `layer.message` says it runs; when it ends `layer.verdict`
 * holds the result, `layer.message` why the layer draws nothing (null where it passed),
 * `onCheck` hears the verdict and the map (while the layer is on one) repaints.
 * @param {{ verdict: any, message: string | null }} layer
 * @param {Promise<import('../check/results.js').CheckResult>} checking
 * @param {string} name the layer as its messages name it ('df64Layer points')
 * @param {string} what what the routines serve ('it calls', 'its materials call')
 * @param {((verdict: import('../check/results.js').CheckResult) => void) | undefined} onCheck
 * @param {() => any} mapOf the map the layer is on, or null
 * @param {(message: string) => void} tell
 */
export function followCheck(layer: {
    verdict: any;
    message: string | null;
}, checking: Promise<import("../check/results.js").CheckResult>, name: string, what: string, onCheck: ((verdict: import("../check/results.js").CheckResult) => void) | undefined, mapOf: () => any, tell: (message: string) => void): void;
