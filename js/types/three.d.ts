/**
 * Sets `geometry`'s positions from doubles (x, y, z, ...: a Float64Array or an array of numbers):
 * `position` gets the high words (three.js reads it for bounds and raycasting), `position_lo`
 * the low words, and the bounding sphere is computed from the doubles. Returns the geometry.
 * @template {{ [key: string]: any }} G
 * @param {G} geometry
 * @param {ArrayLike<number>} positions
 * @returns {G}
 */
export function setDf64Positions<G extends {
    [key: string]: any;
}>(geometry: G, positions: ArrayLike<number>): G;
/**
 * Makes `object` (a Mesh, Line or Points whose geometry has `position_lo`, see
 * `setDf64Positions`) draw its positions relative to the eye in df64 with its own material.
 * The material is cloned (each object needs its own: the model matrix relative to the eye is
 * per object and per frame) and patched through onBeforeCompile; before each draw the
 * object's matrix relative to the camera is computed in doubles and uploaded as a df64mat4,
 * or, where the object's matrix has no rotation or scale, as a df64 translation only (3 df64
 * additions a vertex instead of a df64 matrix product). Returns the object.
 * @template {{ [key: string]: any }} O
 * @param {O} object
 * @returns {O}
 */
export function useDf64Positions<O extends {
    [key: string]: any;
}>(object: O): O;
/** The df64 routines the patched vertex shaders call: pass them to `check` as `routines`. */
export const RTE_ROUTINES: string[];
export { check, checkAsync, prepareCheck } from "./check/webgl.js";
