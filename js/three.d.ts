// Type declarations of df64gl's three.js helpers (three.js): positions held as doubles, drawn
// relative to the eye in df64 by three.js's own materials.

/** The df64 routines the patched vertex shaders call: pass them to `check` as `routines`. */
export declare const RTE_ROUTINES: string[];

/**
 * Sets a BufferGeometry's positions from doubles (x, y, z, ...): `position` the high words,
 * `position_lo` the low words, the bounding sphere from the doubles. Returns the geometry.
 */
export declare function setDf64Positions<G extends object>(geometry: G, positions: ArrayLike<number>): G;

/**
 * Makes a Mesh, Line or Points (its geometry set with setDf64Positions) draw relative to the
 * eye in df64 with its own material (cloned, patched through onBeforeCompile; the model matrix
 * relative to the camera computed in doubles before each draw). Shadow maps, environment maps,
 * instancing, batching, morph targets and skinning keep f32 world positions. Returns the object.
 */
export declare function useDf64Positions<O extends object>(object: O): O;
