// three.js inside a MapLibre custom layer, its positions held as doubles: a world frame over
// MapLibre's mercator in which three.js's lights and normals work (x east, y north, z up, in
// metres at the equator), or the globe's (MapLibre's unit sphere in metres), a camera set from
// the layer's render arguments (not map.transform) in doubles, and a ready layer that checks
// its routines and draws a scene in one call.
//
// The frame is mercator scaled by the equator's circumference: world = C (x - 1/2, 1/2 - y, z).
// Mercator is conformal, so this frame is isotropic at every point (a metre there is 1/cos(lat)
// world units), and right-handed. The map's matrix taken to this frame is a perspective
// projection of a rigid view: the camera gets the view (eye and rotation, as three.js expects)
// and the projection the rest.

import { Matrix4, Vector3, WebGLRenderer } from 'three';
import { DF64_GLSL } from '../generated/glsl-df64.js';
import { RTE_ROUTINES } from '../three.js';
import { describe } from '../options.js';
import { EARTH_CIRCUMFERENCE, EARTH_RADIUS, checkPoint, convertTriples, mercatorX, mercatorY, mercatorZ } from './earth.js';
import { checkOncePerContext, followCheck, warnOnce } from './follow-check.js';
import { doubleMatrix, drawsTheGlobe, globeMatrix } from './render-args.js';

// A longitude, latitude, altitude in the mercator frame: C (x - 1/2, 1/2 - y, z), in doubles.
function worldOf(lng, lat, alt) {
  return [(mercatorX(lng) - 0.5) * EARTH_CIRCUMFERENCE, (0.5 - mercatorY(lat)) * EARTH_CIRCUMFERENCE,
    mercatorZ(alt, lat) * EARTH_CIRCUMFERENCE];
}

// In the globe's frame: MapLibre's unit sphere (projectToSphere's axes: y to the north pole, z
// to longitude 0 on the equator, x to 90 degrees east) times the radius plus the altitude.
function globeOf(lng, lat, alt) {
  const l = lng * Math.PI / 180, f = lat * Math.PI / 180, r = EARTH_RADIUS + alt;
  return [Math.sin(l) * Math.cos(f) * r, Math.sin(f) * r, Math.cos(l) * Math.cos(f) * r];
}

/**
 * Points (longitude, latitude in degrees, altitude in metres, triples) in the layer's mercator
 * frame, in doubles: hand them to `setDf64Positions`.
 * @param {ArrayLike<number>} lngLatAlt
 * @returns {Float64Array}
 */
export function lngLatAltToWorld(lngLatAlt) {
  return convertTriples(lngLatAlt, 'lngLatAltToWorld', false, worldOf);
}

/**
 * Points (longitude, latitude in degrees, altitude in metres, triples) in the globe's frame, in
 * doubles: MapLibre's unit sphere scaled to its radius (6,371,008.8 m) plus the altitude, in
 * metres. For a layer with `frame: 'globe'`; hand them to `setDf64Positions`.
 * @param {ArrayLike<number>} lngLatAlt
 * @returns {Float64Array}
 */
export function lngLatAltToGlobe(lngLatAlt) {
  return convertTriples(lngLatAlt, 'lngLatAltToGlobe', true, globeOf);
}

/**
 * Places `object` (its geometry in metres: x east, y north, z up) at a longitude, latitude and
 * altitude: in the mercator frame (`frame` 'mercator', the default) its position in doubles and
 * its scale the frame's units per metre there (1 / cos(latitude)), as MapLibre's three.js
 * example scales a model by `meterInMercatorCoordinateUnits`, its rotation yours; in the globe's
 * frame (`frame` 'globe') its position in doubles, its rotation the place's east, north and up,
 * its scale 1. Returns the object.
 * @template {{ position: { set(x: number, y: number, z: number): any }, scale: { setScalar(s: number): any }, quaternion?: { setFromRotationMatrix(m: any): any } }} O
 * @param {O} object
 * @param {number} lng
 * @param {number} lat
 * @param {number} [alt]
 * @param {'mercator' | 'globe'} [frame]
 * @returns {O}
 */
export function placeAtLngLatAlt(object, lng, lat, alt, frame) {
  if (!object || !object.position || !object.scale) throw new TypeError('placeAtLngLatAlt takes a three.js Object3D, not ' + describe(object));
  const where = frameArg(frame, 'placeAtLngLatAlt');
  const height = alt === undefined ? 0 : alt;
  checkPoint(lng, lat, height, 'placeAtLngLatAlt', where === 'globe');
  if (where === 'globe') {
    if (!object.quaternion) throw new TypeError('placeAtLngLatAlt: in the globe\'s frame the object is turned; it needs a quaternion (an Object3D)');
    const w = globeOf(lng, lat, height);
    const l = lng * Math.PI / 180, f = lat * Math.PI / 180;
    const east = new Vector3(Math.cos(l), 0, -Math.sin(l));
    const north = new Vector3(-Math.sin(l) * Math.sin(f), Math.cos(f), -Math.cos(l) * Math.sin(f));
    const up = new Vector3(Math.sin(l) * Math.cos(f), Math.sin(f), Math.cos(l) * Math.cos(f));
    object.position.set(w[0], w[1], w[2]);
    object.quaternion.setFromRotationMatrix(new Matrix4().makeBasis(east, north, up));
    object.scale.setScalar(1);
    return object;
  }
  const w = worldOf(lng, lat, height);
  object.position.set(w[0], w[1], w[2]);
  object.scale.setScalar(1 / Math.cos(lat * Math.PI / 180));
  return object;
}

function frameArg(frame, who) {
  if (frame === undefined || frame === 'mercator') return 'mercator';
  if (frame === 'globe') return 'globe';
  throw new TypeError(who + ': frame is \'mercator\' or \'globe\', not ' + describe(frame));
}

// The inverse of a 4 x 4 matrix (column-major, doubles), or null where it has none.
function inverse4(m) {
  const a = Array.from(m);
  const inv = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
  // Gauss-Jordan on rows r of columns c: a[4 c + r].
  for (let c = 0; c < 4; c++) {
    let pivot = c;
    for (let r = c + 1; r < 4; r++) if (Math.abs(a[4 * c + r]) > Math.abs(a[4 * c + pivot])) pivot = r;
    const p = a[4 * c + pivot];
    if (!(Math.abs(p) > 0) || !Number.isFinite(p)) return null;
    for (let k = 0; k < 4; k++) {
      [a[4 * k + c], a[4 * k + pivot]] = [a[4 * k + pivot], a[4 * k + c]];
      [inv[4 * k + c], inv[4 * k + pivot]] = [inv[4 * k + pivot], inv[4 * k + c]];
    }
    for (let k = 0; k < 4; k++) {
      a[4 * k + c] /= p;
      inv[4 * k + c] /= p;
    }
    for (let r = 0; r < 4; r++) {
      if (r === c) continue;
      const f = a[4 * c + r];
      if (f === 0) continue;
      for (let k = 0; k < 4; k++) {
        a[4 * k + r] -= f * a[4 * k + c];
        inv[4 * k + r] -= f * inv[4 * k + c];
      }
    }
  }
  return inv;
}

function multiply4(a, b) {
  const out = new Array(16).fill(0);
  for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) for (let k = 0; k < 4; k++) out[4 * c + r] += a[4 * k + r] * b[4 * c + k];
  return out;
}

// The projection: 16 finite numbers (MapLibre hands it as f32 in mercator; it only orients the
// view, see below).
function projectionArg(m) {
  const ok = m instanceof Float64Array || m instanceof Float32Array || Array.isArray(m);
  if (!ok || m.length !== 16 || !Array.prototype.every.call(m, Number.isFinite)) {
    throw new TypeError('maplibreCamera: args.projectionMatrix is not 16 finite numbers (' + describe(m) + ')');
  }
  return m;
}

// The solution of the 3 x 3 system a x = b (a by rows), by Cramer's rule, or null.
function solve3(a, b) {
  const det = (m) => m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) + m[2] * (m[3] * m[7] - m[4] * m[6]);
  const d = det(a);
  if (!(Math.abs(d) > 0) || !Number.isFinite(d)) return null;
  return [0, 1, 2].map(function (k) {
    const m = a.slice();
    for (let r = 0; r < 3; r++) m[3 * r + k] = b[r];
    return det(m) / d;
  });
}

/**
 * Sets a three.js camera from a MapLibre custom layer's `render(gl, args)` for the world frame
 * (`lngLatAltToWorld`, `placeAtLngLatAlt`), in doubles, so that its projection times its view
 * is the map's matrix (`args.defaultProjectionData.mainMatrix`, a Float64Array) taken to the
 * frame: the eye is where that matrix's x, y and w rows vanish (solved in doubles), the view's
 * rotation that of `args.projectionMatrix`'s inverse times the map's matrix, made orthonormal,
 * and the projection the map's matrix times the view's inverse. Lights and normals see a rigid
 * view. Its matrices stop updating themselves (`matrixAutoUpdate`, `matrixWorldAutoUpdate`).
 * With `frame` 'globe' (positions from `lngLatAltToGlobe`), under the globe
 * (`vertical-perspective`, or the `globe` preset before its hand-over), the map's f64 globe
 * matrix (`args.modelViewProjectionMatrix`, which must round to `mainMatrix`) in its place. An
 * Error where the frame is not the projection the map draws, or in the hand-over. Returns the
 * camera.
 * @template {{ projectionMatrix: { fromArray(a: ArrayLike<number>): any }, projectionMatrixInverse: { fromArray(a: ArrayLike<number>): any }, matrixWorld: { fromArray(a: ArrayLike<number>): any }, matrixWorldInverse: { fromArray(a: ArrayLike<number>): any }, matrixAutoUpdate: boolean, matrixWorldAutoUpdate: boolean }} C
 * @param {C} camera
 * @param {{ defaultProjectionData: { mainMatrix: ArrayLike<number>, projectionTransition?: number }, projectionMatrix: ArrayLike<number>, modelViewProjectionMatrix?: ArrayLike<number>, shaderData?: { define?: string } }} args
 * @param {'mercator' | 'globe'} [frame]
 * @returns {C}
 */
export function maplibreCamera(camera, args, frame) {
  if (!camera || !camera.projectionMatrix || !camera.matrixWorldInverse) {
    throw new TypeError('maplibreCamera takes a three.js Camera first, not ' + describe(camera));
  }
  if (!args || typeof args !== 'object' || !args.defaultProjectionData) {
    throw new TypeError('maplibreCamera takes the second argument of your custom layer\'s render(gl, args), not ' + describe(args));
  }
  const where = frameArg(frame, 'maplibreCamera');
  const globe = drawsTheGlobe(args);
  if (globe !== (where === 'globe')) {
    throw new Error('maplibreCamera: the map draws ' + (globe ? 'the globe' : 'mercator') + ' and the scene is in the ' + where +
      ' frame: build it with ' + (globe ? 'lngLatAltToGlobe and frame \'globe\'' : 'lngLatAltToWorld and frame \'mercator\'') +
      ', or draw nothing this frame');
  }
  const projection = projectionArg(args.projectionMatrix);
  let m;
  if (globe) {
    const t = args.defaultProjectionData.projectionTransition;
    if (!(Math.fround(typeof t === 'number' ? t : 1) > Math.fround(0.999))) {
      throw new Error('maplibreCamera: the globe is handing over to mercator (transition ' + t + '), which three.js inside the map does not draw: draw nothing this frame');
    }
    const g = globeMatrix(args, 'maplibreCamera');
    // The globe's frame to the unit sphere: metres over the radius.
    const r = 1 / EARTH_RADIUS;
    m = multiply4(Array.from(g), [r, 0, 0, 0, 0, r, 0, 0, 0, 0, r, 0, 0, 0, 0, 1]);
  } else {
    const main = doubleMatrix(args.defaultProjectionData.mainMatrix, 'maplibreCamera', 'args.defaultProjectionData.mainMatrix');
    // World frame to mercator: x = X / C + 1/2, y = 1/2 - Y / C, z = Z / C.
    const c = 1 / EARTH_CIRCUMFERENCE;
    m = multiply4(Array.from(main), [c, 0, 0, 0, 0, -c, 0, 0, 0, 0, c, 0, 0.5, 0.5, 0, 1]);
  }
  // The eye: x, y and w of m (eye, 1) are 0 (a perspective projection's centre).
  const eye = solve3([m[0], m[4], m[8], m[1], m[5], m[9], m[3], m[7], m[11]], [-m[12], -m[13], -m[15]]);
  const unproject = inverse4(projection);
  if (!eye || !unproject) throw new RangeError('maplibreCamera: the map\'s matrices are not a perspective camera\'s (no eye or no inverse)');
  // The rotation: rows of the projection's inverse times m, orthonormalised (Gram-Schmidt);
  // only lighting's orientation rests on it, the positions on the eye and the projection below.
  const view = multiply4(unproject, m);
  const rows = [0, 1, 2].map(function (r) { return [view[r], view[4 + r], view[8 + r]]; });
  const dot = (u, v) => u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
  const unit = (u) => { const l = Math.sqrt(dot(u, u)); return [u[0] / l, u[1] / l, u[2] / l]; };
  const z = unit(rows[2]);
  const y = unit(rows[1].map(function (v, k) { return v - dot(rows[1], z) * z[k]; }));
  const x = [y[1] * z[2] - y[2] * z[1], y[2] * z[0] - y[0] * z[2], y[0] * z[1] - y[1] * z[0]];
  if (!(dot(x, rows[0]) > 0) || ![...x, ...y, ...z].every(Number.isFinite)) {
    throw new RangeError('maplibreCamera: the map\'s matrix is not a projection of a right-handed view');
  }
  const rigid = [x[0], y[0], z[0], 0, x[1], y[1], z[1], 0, x[2], y[2], z[2], 0, 0, 0, 0, 1];
  for (let r = 0; r < 3; r++) rigid[12 + r] = -(rigid[r] * eye[0] + rigid[4 + r] * eye[1] + rigid[8 + r] * eye[2]);
  const world = [x[0], x[1], x[2], 0, y[0], y[1], y[2], 0, z[0], z[1], z[2], 0, eye[0], eye[1], eye[2], 1];
  // The projection that makes projection times view the map's matrix: m times the view's inverse.
  const scaled = multiply4(m, world);
  const scaledInverse = inverse4(scaled);
  if (!scaledInverse) throw new RangeError('maplibreCamera: the map\'s matrix has no inverse');
  camera.matrixAutoUpdate = false;
  camera.matrixWorldAutoUpdate = false;
  camera.projectionMatrix.fromArray(scaled);
  camera.projectionMatrixInverse.fromArray(scaledInverse);
  camera.matrixWorld.fromArray(world);
  camera.matrixWorldInverse.fromArray(rigid);
  return camera;
}

/**
 * @typedef {Object} Df64ThreeLayerOptions
 * @property {string} id the layer's id in the map's style
 * @property {any} scene the three.js Scene to draw (its df64 objects through `useDf64Positions`)
 * @property {any} camera a three.js Camera the layer sets each frame (`maplibreCamera`)
 * @property {'mercator' | 'globe'} [frame] the frame the scene's positions are in ('mercator': `lngLatAltToWorld`; 'globe': `lngLatAltToGlobe`); the layer draws only while the map draws that projection
 * @property {string} [glsl] the df64 library the layer's check proves (`DF64_GLSL`)
 * @property {(verdict: import('../check/results.js').CheckResult) => void} [onCheck] called once the check ends
 */

/**
 * @typedef {Object} Df64ThreeLayer a MapLibre custom layer (`map.addLayer(layer)`)
 * @property {string} id
 * @property {'custom'} type
 * @property {'3d'} renderingMode
 * @property {(map: any, gl: WebGL2RenderingContext) => void} onAdd
 * @property {(gl: WebGL2RenderingContext, args: any) => void} render
 * @property {(map: any, gl: WebGL2RenderingContext) => void} onRemove
 * @property {any} renderer the three.js WebGLRenderer on the map's context, once added
 * @property {import('../check/results.js').CheckResult | null} verdict the check's result, once it ended
 * @property {string | null} message why the layer draws nothing, or null while it draws
 */

/**
 * A MapLibre custom layer that draws a three.js scene with the map's camera, in one call:
 * on `onAdd` a `WebGLRenderer` on the map's canvas and context and a check of `RTE_ROUTINES` in
 * the vertex stage (what `useDf64Positions`'s shaders call; one per context); each frame, once the check passed,
 * `maplibreCamera` and a render that keeps the map's drawing (no clear). Where the check fails,
 * or the map draws another projection than the scene's frame (or the globe's hand-over), it
 * draws nothing, sets `message` and says it once on the console.
 * @param {Df64ThreeLayerOptions} options
 * @returns {Df64ThreeLayer}
 */
export function df64ThreeLayer(options) {
  if (!options || typeof options !== 'object') throw new TypeError('df64ThreeLayer takes options ({ id, scene, camera }), not ' + describe(options));
  const id = options.id;
  if (typeof id !== 'string' || !id) throw new TypeError('df64ThreeLayer: options.id is the layer\'s id (a non-empty string), not ' + describe(id));
  const scene = options.scene;
  if (!scene || !scene.isScene) throw new TypeError('df64ThreeLayer ' + id + ': options.scene is a three.js Scene, not ' + describe(scene));
  const camera = options.camera;
  if (!camera || !camera.isCamera) throw new TypeError('df64ThreeLayer ' + id + ': options.camera is a three.js Camera, not ' + describe(camera));
  const library = options.glsl === undefined ? DF64_GLSL : options.glsl;
  if (typeof library !== 'string') throw new TypeError('df64ThreeLayer ' + id + ': glsl is the df64 library\'s text, not ' + describe(library));
  const onCheck = options.onCheck;
  if (onCheck !== undefined && typeof onCheck !== 'function') throw new TypeError('df64ThreeLayer ' + id + ': onCheck is a function');
  const frame = frameArg(options.frame, 'df64ThreeLayer ' + id);
  let map = null;
  const tell = warnOnce();
  const layer = {
    id: id,
    type: /** @type {'custom'} */ ('custom'),
    renderingMode: /** @type {'3d'} */ ('3d'),
    renderer: /** @type {any} */ (null),
    verdict: /** @type {import('../check/results.js').CheckResult | null} */ (null),
    message: /** @type {string | null} */ (null),
    onAdd: function (m, gl) {
      map = m;
      layer.renderer = new WebGLRenderer({ canvas: m.getCanvas(), context: gl, antialias: true });
      layer.renderer.autoClear = false;
      followCheck(layer, checkOncePerContext(gl, RTE_ROUTINES, library), 'df64ThreeLayer ' + id,
        'its materials call', onCheck, function () { return map; }, tell);
    },
    onRemove: function () {
      if (layer.renderer) layer.renderer.dispose();
      layer.renderer = null;
      map = null;
    },
    render: function (gl, args) {
      if (!layer.renderer || !layer.verdict || !layer.verdict.pass) return;
      try {
        maplibreCamera(camera, args, frame);
      } catch (e) {
        layer.message = 'df64ThreeLayer ' + id + ' draws nothing: ' + (e && e.message ? e.message : String(e));
        tell(layer.message);
        return;
      }
      layer.message = null;
      // three.js's idea of the context's state is stale after MapLibre drew: forget it.
      layer.renderer.resetState();
      layer.renderer.render(scene, camera);
      layer.renderer.resetState();
    },
  };
  return layer;
}
