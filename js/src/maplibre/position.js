// Mercator positions as two f32 words, the GLSL that draws them relative to an eye in df64,
// and that GLSL's uniforms from a custom layer's render arguments.

import { DF64_GLSL } from '../generated/glsl-df64.js';
import { routinesCalledBy } from '../check/routines-called-by.js';
import { librarySlice } from '../check/glsl-slice.js';
import { convertTriples, mercatorX, mercatorY, mercatorZ } from './earth.js';
import { doubleMatrix, drawsTheGlobe, globeMatrix } from './render-args.js';
import { describe } from '../options.js';

// The position function, after MapLibre's prelude and define (which say the projection).
// Mercator: (mercator - eye) in df64, rounded to f32, times the map's matrix with its
// translation at the eye. The globe (GLOBE defined): the point on MapLibre's unit sphere in
// df64, relative to the sphere's eye, times the map's f64 globe matrix with its translation
// at that eye; in the globe preset's transition, mixed with the mercator position as
// MapLibre's interpolateProjection mixes them.
const POSITION_GLSL = `
uniform highp vec3 df64_maplibre_eye_hi;
uniform highp vec3 df64_maplibre_eye_lo;
uniform highp mat4 df64_maplibre_matrix;
#ifdef GLOBE
uniform highp vec3 df64_maplibre_globe_eye_hi;
uniform highp vec3 df64_maplibre_globe_eye_lo;
uniform highp mat4 df64_maplibre_globe_matrix;
uniform highp vec4 df64_maplibre_clipping_plane;
uniform highp float df64_maplibre_transition;

// 2 pi in two words.
const vec2 DF64_MAPLIBRE_TWO_PI = vec2(6.28318548, -1.74845553e-7);

// A mercator point (x, y in df64) on MapLibre's unit sphere (projectToSphere's point) in df64,
// and the cosine of its latitude: longitude 2 pi (x - 1/2); with t = exp(pi - 2 pi y), the
// latitude's sine (t^2 - 1) / (t^2 + 1) and cosine 2 t / (t^2 + 1).
df64vec3 df64_maplibre_sphere(vec2 x, vec2 y, out vec2 cos_latitude) {
  vec2 longitude = df64_mul(df64_sub(x, vec2(0.5, 0.0)), DF64_MAPLIBRE_TWO_PI);
  vec2 t = df64_exp(df64_mul(df64_sub(vec2(0.5, 0.0), y), DF64_MAPLIBRE_TWO_PI));
  vec2 t2 = df64_sqr(t);
  vec2 denominator = df64_add(t2, vec2(1.0, 0.0));
  vec2 sin_latitude = df64_div(df64_sub(t2, vec2(1.0, 0.0)), denominator);
  cos_latitude = df64_div(2.0 * t, denominator);
  vec2 sx = df64_mul(df64_sin(longitude), cos_latitude);
  vec2 sz = df64_mul(df64_cos(longitude), cos_latitude);
  return df64vec3(vec3(sx.x, sin_latitude.x, sz.x), vec3(sx.y, sin_latitude.y, sz.y));
}
#endif

// The clip-space position of a mercator point (x, y in [0, 1], z the altitude in mercator
// units) held as two words, under the map's projection this frame.
vec4 df64_maplibre_position(vec3 mercator_hi, vec3 mercator_lo) {
  df64vec3 mercator = df64vec3(mercator_hi, mercator_lo);
#ifdef GLOBE
  vec2 cos_latitude;
  df64vec3 sphere = df64_maplibre_sphere(vec2(mercator_hi.x, mercator_lo.x),
    vec2(mercator_hi.y, mercator_lo.y), cos_latitude);
  vec3 offset = df64_relative_to_eye(sphere,
    df64vec3(df64_maplibre_globe_eye_hi, df64_maplibre_globe_eye_lo));
  // The sphere point times 1 + altitude / GLOBE_RADIUS: the altitude over the radius is z
  // times 2 pi cos(latitude) (z is the altitude over the circumference at the latitude).
  float lift = (mercator_hi.z + mercator_lo.z) * 6.28318548 * cos_latitude.x;
  offset += (df64_maplibre_globe_eye_hi + offset) * lift;
  vec4 globe = df64_maplibre_globe_matrix * vec4(offset, 1.0);
  // MapLibre's depth: the side of the horizon's plane (its w holds the eye's part).
  globe.z = (1.0 - (dot(offset, df64_maplibre_clipping_plane.xyz) + df64_maplibre_clipping_plane.w)) * globe.w;
  if (df64_maplibre_transition > 0.999) return globe;
  vec4 flat_position = df64_world_to_view(df64_maplibre_matrix,
    df64vec3(df64_maplibre_eye_hi, df64_maplibre_eye_lo), mercator);
  vec4 result = globe;
  result.z = mix(0.0, globe.z, clamp((df64_maplibre_transition - 0.2) / 0.8, 0.0, 1.0));
  result.xyw = mix(flat_position.xyw, globe.xyw, df64_maplibre_transition);
  return result;
#else
  return df64_world_to_view(df64_maplibre_matrix,
    df64vec3(df64_maplibre_eye_hi, df64_maplibre_eye_lo), mercator);
#endif
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
 * Points (longitude, latitude in degrees, altitude in metres; a Float64Array or any array of
 * numbers, triples) as mercator (x, y, z) in two Float32Arrays of the same length for two vec3
 * attributes: `hi` the nearest f32 of each coordinate, `lo` the f32 of the rest. The
 * coordinates are MapLibre's (`MercatorCoordinate.fromLngLat`: x and y in [0, 1] across the
 * world, z the altitude in mercator units at the point's latitude), computed in doubles.
 * @param {ArrayLike<number>} lngLatAlt
 * @returns {{ hi: Float32Array; lo: Float32Array }}
 */
export function splitMercator(lngLatAlt) {
  const m = convertTriples(lngLatAlt, 'splitMercator', false, function (lng, lat, alt) {
    return [mercatorX(lng), mercatorY(lat), mercatorZ(alt, lat)];
  });
  const hi = new Float32Array(m);
  const lo = new Float32Array(m.length);
  for (let i = 0; i < m.length; i++) lo[i] = m[i] - hi[i];
  return { hi: hi, lo: lo };
}

// A point in doubles as two words: hi the nearest f32, lo the f32 of the rest, and the sum the
// shader sees (to 2^-48 of the point).
function twoWords(point) {
  const hi = new Float32Array(3);
  const lo = new Float32Array(3);
  const sum = [0, 0, 0];
  for (let k = 0; k < 3; k++) {
    hi[k] = point[k];
    lo[k] = point[k] - hi[k];
    sum[k] = hi[k] + lo[k];
  }
  return { hi: hi, lo: lo, sum: sum };
}

// The matrix m (column-major, doubles) rounded to f32, its translation moved to `eye`: m (eye, 1)
// in doubles.
function matrixAt(m, eye) {
  const out = new Float32Array(16);
  for (let i = 0; i < 12; i++) out[i] = m[i];
  for (let r = 0; r < 4; r++) out[12 + r] = m[r] * eye[0] + m[4 + r] * eye[1] + m[8 + r] * eye[2] + m[12 + r];
  return out;
}

// MapLibre's projectToSphere of a mercator point, in doubles: the point on the unit sphere.
function sphereOf(mercator) {
  const longitude = mercator[0] * Math.PI * 2 + Math.PI;
  const t = Math.exp(Math.PI - mercator[1] * Math.PI * 2);
  const cosLatitude = 2 * t / (t * t + 1);
  return [Math.sin(longitude) * cosLatitude, (t * t - 1) / (t * t + 1), Math.cos(longitude) * cosLatitude];
}

/**
 * The uniforms of `df64_maplibre_position`, by name; the globe's only under the globe.
 * @typedef {Object} MaplibreUniforms
 * @property {Float32Array} df64_maplibre_eye_hi
 * @property {Float32Array} df64_maplibre_eye_lo
 * @property {Float32Array} df64_maplibre_matrix
 * @property {Float32Array} [df64_maplibre_globe_eye_hi]
 * @property {Float32Array} [df64_maplibre_globe_eye_lo]
 * @property {Float32Array} [df64_maplibre_globe_matrix]
 * @property {Float32Array} [df64_maplibre_clipping_plane]
 * @property {number} [df64_maplibre_transition]
 */

/**
 * The uniforms of `df64_maplibre_position` for this frame, from your custom layer's
 * `render(gl, args)`, computed in doubles: `df64_maplibre_eye_hi` and `_lo` (the map's centre in
 * mercator, two words a coordinate) and `df64_maplibre_matrix` (the mercator matrix,
 * `args.defaultProjectionData.mainMatrix` or in the globe's transition its `fallbackMatrix`, a
 * Float64Array, with its translation moved to that eye, then rounded to f32). Under the globe
 * (`GLOBE` in `args.shaderData.define`) also `df64_maplibre_globe_eye_hi` and `_lo` (the centre on
 * MapLibre's unit sphere), `df64_maplibre_globe_matrix` (the map's f64 globe matrix,
 * `args.modelViewProjectionMatrix`, with its translation at that eye; an Error where it does not
 * round to the f32 `mainMatrix`), `df64_maplibre_clipping_plane` (its w taken at the eye) and
 * `df64_maplibre_transition`. Upload each with `uniform3fv`, `uniformMatrix4fv`, `uniform4fv`,
 * `uniform1f`.
 * @param {{ getCenter(): { lng: number, lat: number } }} map
 * @param {{ defaultProjectionData: { mainMatrix: ArrayLike<number>, fallbackMatrix?: ArrayLike<number>, clippingPlane?: ArrayLike<number>, projectionTransition?: number }, modelViewProjectionMatrix?: ArrayLike<number>, shaderData?: { define?: string } }} args
 * @returns {MaplibreUniforms}
 */
export function maplibreUniforms(map, args) {
  if (!map || typeof map.getCenter !== 'function') {
    throw new TypeError('maplibreUniforms takes the map (a maplibregl.Map) first, not ' + describe(map));
  }
  if (!args || typeof args !== 'object' || !args.defaultProjectionData) {
    throw new TypeError('maplibreUniforms takes the second argument of your custom layer\'s render(gl, args), not ' + describe(args));
  }
  const data = args.defaultProjectionData;
  const c = map.getCenter();
  if (!c || !Number.isFinite(c.lng) || !(Math.abs(c.lat) < 90)) {
    throw new RangeError('maplibreUniforms: the map\'s centre is ' + describe(c) + '; a longitude and a latitude strictly between -90 and 90');
  }
  const eye = twoWords([mercatorX(c.lng), mercatorY(c.lat), 0]);
  /** @type {MaplibreUniforms} */
  const uniforms = { df64_maplibre_eye_hi: eye.hi, df64_maplibre_eye_lo: eye.lo, df64_maplibre_matrix: new Float32Array(16) };
  if (!drawsTheGlobe(args)) {
    uniforms.df64_maplibre_matrix = matrixAt(doubleMatrix(data.mainMatrix, 'maplibreUniforms', 'args.defaultProjectionData.mainMatrix'), eye.sum);
    return uniforms;
  }
  const globe = globeMatrix(args, 'maplibreUniforms');
  const transition = data.projectionTransition;
  const plane = data.clippingPlane;
  if (typeof transition !== 'number' || !(transition >= 0 && transition <= 1)) {
    throw new RangeError('maplibreUniforms: args.defaultProjectionData.projectionTransition is ' + describe(transition) + ', not a number in [0, 1]');
  }
  if (!plane || plane.length !== 4 || !Array.prototype.every.call(plane, Number.isFinite)) {
    throw new TypeError('maplibreUniforms: args.defaultProjectionData.clippingPlane is ' + describe(plane) + ', not 4 finite numbers');
  }
  const sphere = twoWords(sphereOf(eye.sum));
  uniforms.df64_maplibre_globe_eye_hi = sphere.hi;
  uniforms.df64_maplibre_globe_eye_lo = sphere.lo;
  uniforms.df64_maplibre_globe_matrix = matrixAt(globe, sphere.sum);
  const e = sphere.sum;
  uniforms.df64_maplibre_clipping_plane = new Float32Array([plane[0], plane[1], plane[2],
    plane[0] * e[0] + plane[1] * e[1] + plane[2] * e[2] + plane[3]]);
  uniforms.df64_maplibre_transition = transition;
  // The mercator matrix is read only in the transition (where the shader sees 0.999 or less).
  uniforms.df64_maplibre_matrix = Math.fround(transition) > Math.fround(0.999) ? new Float32Array(16)
    : matrixAt(doubleMatrix(data.fallbackMatrix, 'maplibreUniforms', 'args.defaultProjectionData.fallbackMatrix'), eye.sum);
  return uniforms;
}
