// df64gl/maplibre-three in Node: the world frames against MapLibre's mercator and unit sphere
// computed here, a model placed in metres against the mercator recipe of MapLibre's three.js
// example and along east, north and up on the globe, the camera against the map's matrices,
// and the errors for bad input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as THREE from 'three';
import { lngLatAltToWorld, lngLatAltToGlobe, placeAtLngLatAlt, maplibreCamera, df64ThreeLayer } from '../src/maplibre-three.js';

const R = 6371008.8;
const C = 2 * Math.PI * R;
function mercator(lng, lat, alt) {
  const phi = lat * Math.PI / 180;
  return [lng / 360 + 0.5, 0.5 - Math.log(Math.tan(Math.PI / 4 + phi / 2)) / (2 * Math.PI), alt / (C * Math.cos(phi))];
}
const mul = (a, b) => {
  const out = new Array(16).fill(0);
  for (let col = 0; col < 4; col++) for (let r = 0; r < 4; r++) for (let k = 0; k < 4; k++) out[4 * col + r] += a[4 * k + r] * b[4 * col + k];
  return out;
};
const apply = (m, p) => [0, 1, 2, 3].map((r) => m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r]);

// A mercator map matrix in MapLibre's shape at zoom 24 over (lng, lat): perspective with an
// offset centre, pixel y down, pitched and turned; and its projection (rounded to f32, as the
// mercator transform hands it).
function mapMatrices(lng, lat) {
  const [cx, cy] = mercator(lng, lat, 0);
  const world = 512 * 2 ** 24;
  const f = 1 / Math.tan(0.32);
  const projection = [f / (4 / 3), 0, 0, 0, 0, f, 0, 0, 0.05, -0.03, -1.0002, -1, 0, 0, -0.2, 0];
  const c = Math.cos(0.6), s = Math.sin(0.6), cb = Math.cos(0.4), sb = Math.sin(0.4);
  const view = [[1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1, 0, 0, 0, -900, 1], [1, 0, 0, 0, 0, c, s, 0, 0, -s, c, 0, 0, 0, 0, 1],
    [cb, sb, 0, 0, -sb, cb, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -cx * world, -cy * world, 0, 1],
    [world, 0, 0, 0, 0, world, 0, 0, 0, 0, world, 0, 0, 0, 0, 1]];
  return { main: Float64Array.from(view.reduce(mul, projection)), projection: Float32Array.from(projection) };
}

test('lngLatAltToWorld is MapLibre\'s mercator times the circumference, y north', () => {
  const points = [-122.4194, 37.7749, 12.5, 179.99995, -16.5, 0, 15.6267, 78.2232, 3];
  const w = lngLatAltToWorld(points);
  assert.ok(w instanceof Float64Array && w.length === 9);
  for (let i = 0; i < 3; i++) {
    const m = mercator(points[3 * i], points[3 * i + 1], points[3 * i + 2]);
    const want = [(m[0] - 0.5) * C, (0.5 - m[1]) * C, m[2] * C];
    for (let k = 0; k < 3; k++) assert.ok(Math.abs(w[3 * i + k] - want[k]) <= 1e-8 * Math.max(1, Math.abs(want[k])), `point ${i} axis ${k}`);
  }
  assert.throws(() => lngLatAltToWorld([0, 90, 0]), RangeError);
  assert.throws(() => lngLatAltToWorld([0, 0]), TypeError);
  assert.throws(() => lngLatAltToWorld([NaN, 0, 0]), RangeError);
});

test('a model placed in metres lands where MapLibre\'s three.js recipe puts it, and the camera reproduces the map\'s pixels', () => {
  const lng = 15.6267, lat = 78.2232;
  const { main, projection } = mapMatrices(lng, lat);
  const camera = new THREE.Camera();
  maplibreCamera(camera, { defaultProjectionData: { mainMatrix: main }, projectionMatrix: projection, shaderData: { define: '#define PROJECTION_MERCATOR' } });
  assert.equal(camera.matrixAutoUpdate, false);
  // The view is rigid: its rotation orthonormal.
  const v = camera.matrixWorldInverse.elements;
  for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) {
    const d = v[a] * v[b] + v[4 + a] * v[4 + b] + v[8 + a] * v[8 + b];
    assert.ok(Math.abs(d - (a === b ? 1 : 0)) < 1e-12, `rows ${a} ${b}: ${d}`);
  }
  const group = placeAtLngLatAlt(new THREE.Group(), lng, lat, 0);
  group.rotation.set(0, 0, 0.3);
  group.updateMatrixWorld(true);
  const eye = [12, 13, 14].map((i) => camera.matrixWorld.elements[i]);
  const s = 1 / (C * Math.cos(lat * Math.PI / 180));
  const origin = mercator(lng, lat, 0);
  let worst = 0;
  // Corners of a 0.3 m block at zoom 24 (a pixel is 0.5 mm here), relative to the eye as the
  // shaders take them: (model p - eye) in doubles, then the view and projection.
  for (const p of [[0.15, 0.1, 0], [-0.15, 0.1, 0.1], [0.15, -0.1, 0.1], [0.0025, 0.0025, 0.1025]]) {
    const world = new THREE.Vector3(...p).applyMatrix4(group.matrixWorld);
    const rel = [world.x - eye[0], world.y - eye[1], world.z - eye[2]];
    const view = [0, 1, 2].map((r) => v[r] * rel[0] + v[4 + r] * rel[1] + v[8 + r] * rel[2]);
    const got = apply(camera.projectionMatrix.elements, view);
    const x = p[0] * Math.cos(0.3) - p[1] * Math.sin(0.3), y = p[0] * Math.sin(0.3) + p[1] * Math.cos(0.3);
    const want = apply(main, [origin[0] + s * x, origin[1] - s * y, origin[2] + s * p[2]]);
    for (const k of [0, 1]) worst = Math.max(worst, Math.abs(got[k] / got[3] - want[k] / want[3]) * 400);
  }
  assert.ok(worst < 1e-3, `worst ${worst} px`);
});

// A globe matrix in MapLibre's shape (unit sphere to clip) at zoom 22 over (lng, lat).
function globeMatrix(lng, lat) {
  const radius = 512 * 2 ** 22 / (2 * Math.PI) / Math.cos(lat * Math.PI / 180);
  const f = 1 / Math.tan(0.32);
  const proj = [f / (4 / 3), 0, 0, 0, 0, f, 0, 0, 0, 0, -1.0002, -1, 0, 0, -0.2, 0];
  const rotX = (a) => [1, 0, 0, 0, 0, Math.cos(a), Math.sin(a), 0, 0, -Math.sin(a), Math.cos(a), 0, 0, 0, 0, 1];
  const rotY = (a) => [Math.cos(a), 0, -Math.sin(a), 0, 0, 1, 0, 0, Math.sin(a), 0, Math.cos(a), 0, 0, 0, 0, 1];
  const rotZ = (a) => [Math.cos(a), Math.sin(a), 0, 0, -Math.sin(a), Math.cos(a), 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
  const move = (z) => [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, z, 1];
  const steps = [move(-900), rotX(-0.6), rotZ(0.4), move(-radius), rotX(lat * Math.PI / 180), rotY(-lng * Math.PI / 180),
    [radius, 0, 0, 0, 0, radius, 0, 0, 0, 0, radius, 0, 0, 0, 0, 1]];
  return { main: Float64Array.from(steps.reduce(mul, proj)), projection: Float32Array.from(proj) };
}

test('on the globe: points on MapLibre\'s sphere in metres, a model along east, north and up, the camera from the f64 globe matrix', () => {
  const lng = -122.4194, lat = 37.7749;
  const w = lngLatAltToGlobe([lng, lat, 10]);
  const l = lng * Math.PI / 180, f = lat * Math.PI / 180;
  const unit = [Math.sin(l) * Math.cos(f), Math.sin(f), Math.cos(l) * Math.cos(f)];
  for (let k = 0; k < 3; k++) assert.ok(Math.abs(w[k] - unit[k] * (R + 10)) < 1e-8, `axis ${k}`);
  const { main, projection } = globeMatrix(lng, lat);
  const args = { defaultProjectionData: { mainMatrix: Float32Array.from(main), projectionTransition: 1 }, modelViewProjectionMatrix: main,
    projectionMatrix: projection, shaderData: { define: '#define GLOBE' } };
  const camera = maplibreCamera(new THREE.Camera(), args, 'globe');
  const group = placeAtLngLatAlt(new THREE.Group(), lng, lat, 0, 'globe');
  group.updateMatrixWorld(true);
  const east = [Math.cos(l), 0, -Math.sin(l)], north = [-Math.sin(l) * Math.sin(f), Math.cos(f), -Math.cos(l) * Math.sin(f)];
  const v = camera.matrixWorldInverse.elements;
  const eye = [12, 13, 14].map((i) => camera.matrixWorld.elements[i]);
  let worst = 0;
  // A 6 m block's corners at zoom 22 (a pixel is 3.7 cm here), its metres along east, north, up.
  for (const p of [[3, 2, 0], [-3, 2, 2], [3, -2, 2], [0.0025, 0.0025, 2.005]]) {
    const world = new THREE.Vector3(...p).applyMatrix4(group.matrixWorld);
    const rel = [world.x - eye[0], world.y - eye[1], world.z - eye[2]];
    const got = apply(camera.projectionMatrix.elements, [0, 1, 2].map((r) => v[r] * rel[0] + v[4 + r] * rel[1] + v[8 + r] * rel[2]));
    const want = apply(main, [0, 1, 2].map((k) => unit[k] + (p[0] * east[k] + p[1] * north[k] + p[2] * unit[k]) / R));
    for (const k of [0, 1]) worst = Math.max(worst, Math.abs(got[k] / got[3] - want[k] / want[3]) * 400);
  }
  assert.ok(worst < 1e-3, `worst ${worst} px`);
  // The frame must be the projection the map draws, the hand-over is refused, and the f64
  // matrix must be the map's.
  assert.throws(() => maplibreCamera(new THREE.Camera(), args), /globe/);
  assert.throws(() => maplibreCamera(new THREE.Camera(), Object.assign({}, args, { shaderData: { define: '' } }), 'globe'), /mercator/);
  assert.throws(() => maplibreCamera(new THREE.Camera(), Object.assign({}, args,
    { defaultProjectionData: { mainMatrix: Float32Array.from(main), projectionTransition: 0.5 } }), 'globe'), /handing over/);
  assert.throws(() => maplibreCamera(new THREE.Camera(), Object.assign({}, args,
    { defaultProjectionData: { mainMatrix: Float32Array.from(globeMatrix(lng + 1e-3, lat).main), projectionTransition: 1 } }), 'globe'), /does not round/);
  assert.throws(() => maplibreCamera(new THREE.Camera(), args, 'sphere'), /frame/);
  assert.throws(() => placeAtLngLatAlt({ position: new THREE.Vector3(), scale: new THREE.Vector3() }, 0, 0, 0, 'globe'), /quaternion/);
});

test('maplibreCamera and df64ThreeLayer refuse f32 matrices and bad options', () => {
  const { main, projection } = mapMatrices(0, 0);
  const camera = new THREE.Camera();
  const args = (over) => Object.assign({ defaultProjectionData: { mainMatrix: main }, projectionMatrix: projection, shaderData: { define: '' } }, over);
  assert.throws(() => maplibreCamera(camera, args({ defaultProjectionData: { mainMatrix: Float32Array.from(main) } })), /Float64Array/);
  assert.throws(() => maplibreCamera(camera, args({ projectionMatrix: new Float32Array(16) })), /perspective/);
  assert.throws(() => maplibreCamera({}, args({})), TypeError);
  assert.throws(() => placeAtLngLatAlt(null, 0, 0), TypeError);
  assert.throws(() => placeAtLngLatAlt(new THREE.Group(), 0, 91), RangeError);
  const scene = new THREE.Scene();
  assert.equal(df64ThreeLayer({ id: 'a', scene, camera }).renderingMode, '3d');
  assert.throws(() => df64ThreeLayer({ id: 'a', scene: {}, camera }), /Scene/);
  assert.throws(() => df64ThreeLayer({ id: 'a', scene, camera: {} }), /Camera/);
  assert.throws(() => df64ThreeLayer({ scene, camera }), /options\.id/);
  assert.throws(() => df64ThreeLayer({ id: 'a', scene, camera, onCheck: 1 }), /onCheck/);
  assert.throws(() => df64ThreeLayer({ id: 'a', scene, camera, frame: 'polar' }), /frame/);
});
