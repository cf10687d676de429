// What the MapLibre layers read from a custom layer's render arguments: whether the map draws
// the globe, and its matrices in doubles, refused (never guessed) where they are not what this
// package was built against.

import { describe } from '../options.js';

/**
 * Whether a custom layer's render arguments are for the globe (`GLOBE` defined).
 * @param {{ shaderData?: { define?: string } }} args
 * @returns {boolean}
 */
export function drawsTheGlobe(args) {
  const define = args && args.shaderData && typeof args.shaderData.define === 'string' ? args.shaderData.define : '';
  return /\bGLOBE\b/.test(define);
}

/**
 * `m` as 16 finite doubles (a Float64Array), or a TypeError or RangeError naming `who` and `what`.
 * @param {any} m
 * @param {string} who
 * @param {string} what
 * @returns {Float64Array}
 */
export function doubleMatrix(m, who, what) {
  if (!(m instanceof Float64Array) || m.length !== 16) {
    throw new TypeError(who + ': ' + what + ' is not a Float64Array of 16 numbers (' + describe(m) +
      '): df64 needs the map\'s matrices in doubles (MapLibre GL JS 5 or 6)');
  }
  for (let i = 0; i < 16; i++) {
    if (!Number.isFinite(m[i])) throw new RangeError(who + ': ' + what + ' holds ' + m[i] + ' at ' + i);
  }
  return m;
}

/**
 * The map's globe matrix in doubles (`args.modelViewProjectionMatrix`), which must round entry
 * for entry to the f32 one MapLibre draws its own shaders with (`mainMatrix`): where this
 * MapLibre hands another, an Error, so that a layer stops rather than draw off the map.
 * @param {{ modelViewProjectionMatrix?: any, defaultProjectionData: { mainMatrix: ArrayLike<number> } }} args
 * @param {string} who
 * @returns {Float64Array}
 */
export function globeMatrix(args, who) {
  const globe = doubleMatrix(args.modelViewProjectionMatrix, who, 'args.modelViewProjectionMatrix (the globe\'s matrix)');
  const f32 = args.defaultProjectionData.mainMatrix;
  for (let i = 0; i < 16; i++) {
    if (!f32 || Math.fround(globe[i]) !== f32[i]) {
      throw new Error(who + ': args.modelViewProjectionMatrix does not round to args.defaultProjectionData.mainMatrix ' +
        '(entry ' + i + '): this MapLibre version hands the globe\'s matrix in doubles some other way; draw nothing, and report it');
    }
  }
  return globe;
}
