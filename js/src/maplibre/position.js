// Mercator positions as two f32 words, the GLSL that draws them relative to an eye in df64,
// and that GLSL's uniforms from a custom layer's render arguments.

import { DF64_GLSL } from '../generated/glsl-df64.js';
import { routinesCalledBy } from '../check/routines-called-by.js';
import { librarySlice } from '../check/glsl-slice.js';
import { numbersArg } from '../words.js';
import { describe } from '../options.js';

// The position function, after MapLibre's prelude and define (which say the projection).
const POSITION_GLSL = `
#ifdef GLOBE
#error df64gl/maplibre: the globe projection is not supported; use the mercator projection
#endif
uniform highp vec3 df64_maplibre_eye_hi;
uniform highp vec3 df64_maplibre_eye_lo;
uniform highp mat4 df64_maplibre_matrix;
// The clip-space position of a mercator point (x, y in [0, 1], z in mercator units) held as
// two words: (mercator - eye) in df64, rounded to f32, times the map's matrix with its
// translation at the eye.
vec4 df64_maplibre_position(vec3 mercator_hi, vec3 mercator_lo) {
  return df64_world_to_view(df64_maplibre_matrix,
    df64vec3(df64_maplibre_eye_hi, df64_maplibre_eye_lo), df64vec3(mercator_hi, mercator_lo));
}
`;

/**
 * GLSL ES 3.00 defining `vec4 df64_maplibre_position(vec3 mercator_hi, vec3 mercator_lo)` and
 * its uniforms, with the df64 routines it calls: paste it after `args.shaderData.vertexShaderPrelude`
 * and `args.shaderData.define`, and not after `DF64_GLSL` (it holds the part of it that it
 * needs; a page that pastes `DF64_GLSL` itself pastes `DF64_MAPLIBRE_POSITION_GLSL` after it).
 * @type {string}
 */
export const DF64_MAPLIBRE_POSITION_GLSL = POSITION_GLSL;

/** The df64 routines `df64_maplibre_position` calls: what to check, in the vertex stage. */
export const MAPLIBRE_ROUTINES = routinesCalledBy(POSITION_GLSL).routines;

/**
 * `DF64_MAPLIBRE_POSITION_GLSL` after the slice of the df64 library `library` that it reaches.
 * @param {string} library
 * @returns {string}
 */
export function maplibreGlsl(library) {
  return librarySlice(library, POSITION_GLSL) + POSITION_GLSL;
}

/** `DF64_MAPLIBRE_POSITION_GLSL` with the slice of `DF64_GLSL` it reaches, to paste alone. */
export const DF64_MAPLIBRE_GLSL = maplibreGlsl(DF64_GLSL);

/**
 * Whether a custom layer's render arguments are for the globe (`GLOBE` defined).
 * @param {{ shaderData?: { define?: string } }} args
 * @returns {boolean}
 */
export function drawsTheGlobe(args) {
  const define = args && args.shaderData && typeof args.shaderData.define === 'string' ? args.shaderData.define : '';
  return /\bGLOBE\b/.test(define);
}

// MapLibre's spherical mercator (MercatorCoordinate.fromLngLat), in doubles.
const EARTH_RADIUS = 6371008.8;
const EARTH_CIRCUMFERENCE = 2 * Math.PI * EARTH_RADIUS;

function mercatorX(lng) {
  return (180 + lng) / 360;
}

function mercatorY(lat) {
  return (180 - 180 / Math.PI * Math.log(Math.tan(Math.PI / 4 + lat * Math.PI / 360))) / 360;
}

function mercatorZ(altitude, lat) {
  return altitude / (EARTH_CIRCUMFERENCE * Math.cos(lat * Math.PI / 180));
}

/**
 * Points (longitude, latitude in degrees, altitude in metres; a Float64Array or any array of
 * numbers, triples) as mercator (x, y, z) in two Float32Arrays of the same length for two vec3
 * attributes: `hi` the nearest f32 of each coordinate, `lo` the f32 of the rest. The
 * coordinates are MapLibre's (`MercatorCoordinate.fromLngLat`: x and y in [0, 1] across the
 * world, z the altitude in mercator units at the point's latitude), computed in doubles.
 * @param {ArrayLike<number>} lngLatAlt
 * @returns {{ hi: Float32Array; lo: Float32Array }}
 */
export function splitMercator(lngLatAlt) {
  numbersArg(lngLatAlt, 'splitMercator', 'an array of numbers (longitude, latitude, altitude, ...)');
  if (lngLatAlt.length % 3 !== 0) {
    throw new TypeError('splitMercator: the points are (longitude, latitude, altitude) triples; the length ' +
      lngLatAlt.length + ' is not a multiple of 3');
  }
  const hi = new Float32Array(lngLatAlt.length);
  const lo = new Float32Array(lngLatAlt.length);
  for (let i = 0; i < lngLatAlt.length; i += 3) {
    const lng = lngLatAlt[i];
    const lat = lngLatAlt[i + 1];
    const alt = lngLatAlt[i + 2];
    if (!Number.isFinite(lng) || !Number.isFinite(lat) || !Number.isFinite(alt)) {
      throw new RangeError('splitMercator: point ' + i / 3 + ' is (' + lng + ', ' + lat + ', ' + alt +
        '): longitude, latitude and altitude are finite numbers');
    }
    if (!(Math.abs(lat) < 90)) {
      throw new RangeError('splitMercator: point ' + i / 3 + ' has latitude ' + lat +
        '; mercator takes latitudes strictly between -90 and 90');
    }
    const m = [mercatorX(lng), mercatorY(lat), mercatorZ(alt, lat)];
    for (let k = 0; k < 3; k++) {
      hi[i + k] = m[k];
      lo[i + k] = m[k] - hi[i + k];
    }
  }
  return { hi: hi, lo: lo };
}

/**
 * The uniforms of `df64_maplibre_position` for this frame, from your custom layer's
 * `render(gl, args)`: `df64_maplibre_eye_hi` and `_lo` (the map's centre in mercator, two
 * words a coordinate) and `df64_maplibre_matrix` (`args.defaultProjectionData.mainMatrix`, a
 * Float64Array, with its translation moved to that eye in doubles, then rounded to f32).
 * Upload each with `uniform3fv` / `uniformMatrix4fv`. An Error under the globe projection.
 * @param {{ getCenter(): { lng: number, lat: number } }} map
 * @param {{ defaultProjectionData: { mainMatrix: ArrayLike<number> }, shaderData?: { define?: string } }} args
 * @returns {{ df64_maplibre_eye_hi: Float32Array, df64_maplibre_eye_lo: Float32Array, df64_maplibre_matrix: Float32Array }}
 */
export function maplibreUniforms(map, args) {
  if (!map || typeof map.getCenter !== 'function') {
    throw new TypeError('maplibreUniforms takes the map (a maplibregl.Map) first, not ' + describe(map));
  }
  if (!args || typeof args !== 'object' || !args.defaultProjectionData) {
    throw new TypeError('maplibreUniforms takes the second argument of your custom layer\'s render(gl, args), not ' + describe(args));
  }
  if (drawsTheGlobe(args)) {
    throw new Error('maplibreUniforms: the map draws the globe projection, which df64gl/maplibre does not support yet: ' +
      'set the projection to mercator, or draw nothing this frame');
  }
  const m = args.defaultProjectionData.mainMatrix;
  if (!(m instanceof Float64Array) || m.length !== 16) {
    throw new TypeError('maplibreUniforms: args.defaultProjectionData.mainMatrix is not a Float64Array of 16 numbers (' +
      describe(m) + '): df64 needs the map\'s matrix in doubles (MapLibre GL JS 5 or 6)');
  }
  for (let i = 0; i < 16; i++) {
    if (!Number.isFinite(m[i])) throw new RangeError('maplibreUniforms: the map\'s matrix holds ' + m[i] + ' at ' + i);
  }
  const c = map.getCenter();
  const center = [mercatorX(c.lng), mercatorY(c.lat), 0];
  const hi = new Float32Array(3);
  const lo = new Float32Array(3);
  const eye = [0, 0, 0];
  for (let k = 0; k < 3; k++) {
    hi[k] = center[k];
    lo[k] = center[k] - hi[k];
    // The eye the shader subtracts (to 2^-53 of the world: a pixel at zoom 24 is 2^-33).
    eye[k] = hi[k] + lo[k];
  }
  const matrix = new Float32Array(16);
  for (let i = 0; i < 12; i++) matrix[i] = m[i];
  // The translation at the eye: m (eye, 1), in doubles.
  for (let r = 0; r < 4; r++) matrix[12 + r] = m[r] * eye[0] + m[4 + r] * eye[1] + m[8 + r] * eye[2] + m[12 + r];
  return { df64_maplibre_eye_hi: hi, df64_maplibre_eye_lo: lo, df64_maplibre_matrix: matrix };
}
