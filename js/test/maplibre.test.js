// df64gl/maplibre in Node: the mercator words against the projection computed here, the
// uniforms' matrices (mercator and globe) against the map's matrices applied in doubles, and the
// errors for bad input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { splitMercator, maplibreUniforms, df64Layer, MAPLIBRE_ROUTINES, DF64_MAPLIBRE_GLSL } from '../src/maplibre.js';

const R = 6371008.8;
// Spherical mercator as x = lng / 360 + 1/2, y = 1/2 - ln tan(pi/4 + phi/2) / (2 pi), z = metres
// over the circumference at the latitude.
function mercator(lng, lat, alt) {
  const phi = lat * Math.PI / 180;
  return [lng / 360 + 0.5, 0.5 - Math.log(Math.tan(Math.PI / 4 + phi / 2)) / (2 * Math.PI), alt / (2 * Math.PI * R * Math.cos(phi))];
}

test('splitMercator gives the mercator coordinates to about 48 bits, hi the nearest f32', () => {
  const points = [179.99995, -16.5, 0, 15.6267, 78.2232, 12.5, -122.4194, 37.7749, 3.25, 0, 0, 0];
  const { hi, lo } = splitMercator(points);
  assert.ok(hi instanceof Float32Array && lo instanceof Float32Array && hi.length === 12);
  for (let i = 0; i < 4; i++) {
    const want = mercator(points[3 * i], points[3 * i + 1], points[3 * i + 2]);
    for (let k = 0; k < 3; k++) {
      assert.equal(hi[3 * i + k], Math.fround(want[k]), `point ${i} axis ${k}`);
      // Two f32 words hold the double to 2^-48 of it; the two formulas agree to a few ulp of 1.
      assert.ok(Math.abs(hi[3 * i + k] + lo[3 * i + k] - want[k]) <= 2 ** -48 * Math.abs(want[k]) + 4e-16, `point ${i} axis ${k}`);
    }
  }
  assert.throws(() => splitMercator([0, 90, 0]), RangeError);
  assert.throws(() => splitMercator([0, NaN, 0]), RangeError);
  assert.throws(() => splitMercator([0, 1]), TypeError);
  assert.throws(() => splitMercator('0,0,0'), TypeError);
});

// A perspective camera's matrix over mercator in MapLibre's shape: world size 512 * 2^23 px
// (zoom 23), pitched, looking at `center`.
function mapMatrix(center) {
  const world = 512 * 2 ** 23;
  const cols = (m) => m;
  const f = 1 / Math.tan(0.32);
  const proj = cols([f / (4 / 3), 0, 0, 0, 0, f, 0, 0, 0, 0, -1.0002, -1, 0, 0, -0.2, 0]);
  const c = Math.cos(0.6), s = Math.sin(0.6);
  const pitch = [1, 0, 0, 0, 0, c, s, 0, 0, -s, c, 0, 0, 0, 0, 1];
  const move = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -center[0] * world, -center[1] * world, -900, 1];
  const scale = [world, 0, 0, 0, 0, world, 0, 0, 0, 0, world, 0, 0, 0, 0, 1];
  const mul = (a, b) => {
    const out = new Array(16).fill(0);
    for (let col = 0; col < 4; col++) for (let r = 0; r < 4; r++) for (let k = 0; k < 4; k++) out[4 * col + r] += a[4 * k + r] * b[4 * col + k];
    return out;
  };
  return Float64Array.from(mul(proj, mul(pitch, mul(move, scale))));
}

test('maplibreUniforms moves the translation to the eye in doubles: pixels within 1e-3 of the map\'s', () => {
  const lng = -122.4194, lat = 37.7749;
  const center = mercator(lng, lat, 0);
  const m = mapMatrix(center);
  const u = maplibreUniforms({ getCenter: () => ({ lng, lat }) }, { defaultProjectionData: { mainMatrix: m }, shaderData: { define: '#define PROJECTION_MERCATOR' } });
  for (let k = 0; k < 3; k++) {
    assert.ok(Math.abs(u.df64_maplibre_eye_hi[k] + u.df64_maplibre_eye_lo[k] - center[k]) <= 2 ** -48, `eye axis ${k}`);
  }
  const eye = [0, 1, 2].map((k) => u.df64_maplibre_eye_hi[k] + u.df64_maplibre_eye_lo[k]);
  const t = u.df64_maplibre_matrix;
  // Points up to 300 px from the centre at zoom 23, and 20 px up.
  const px = 1 / (512 * 2 ** 23);
  let worst = 0;
  for (const [dx, dy, dz] of [[0, 0, 0], [300, 0, 0], [-200, 250, 20], [150, -300, 5], [-300, -300, 0]]) {
    const p = [center[0] + dx * px, center[1] + dy * px, dz * px];
    const want = [0, 1, 2, 3].map((r) => m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r]);
    const d = p.map((x, k) => Math.fround(x - eye[k]));
    const got = [0, 1, 2, 3].map((r) => t[r] * d[0] + t[4 + r] * d[1] + t[8 + r] * d[2] + t[12 + r]);
    for (const k of [0, 1]) worst = Math.max(worst, Math.abs(got[k] / got[3] - want[k] / want[3]) * 400);
  }
  assert.ok(worst < 1e-3, `worst ${worst} px`);
  // With the f32 matrix and f32 positions (the usual way) the same points are pixels off.
  const m32 = Float32Array.from(m);
  let f32Worst = 0;
  for (const [dx, dy] of [[300, 0], [-200, 250]]) {
    const p = [center[0] + dx * px, center[1] + dy * px, 0].map(Math.fround);
    const want = [0, 1, 2, 3].map((r) => m[r] * (center[0] + dx * px) + m[4 + r] * (center[1] + dy * px) + m[12 + r]);
    const got = [0, 1, 2, 3].map((r) => m32[r] * p[0] + m32[4 + r] * p[1] + m32[8 + r] * p[2] + m32[12 + r]);
    for (const k of [0, 1]) f32Worst = Math.max(f32Worst, Math.abs(got[k] / got[3] - want[k] / want[3]) * 400);
  }
  assert.ok(f32Worst > 1, `the f32 way ${f32Worst} px`);
});

test('maplibreUniforms refuses an f32 matrix and what is not a map', () => {
  const map = { getCenter: () => ({ lng: 0, lat: 0 }) };
  const m = mapMatrix([0.5, 0.5, 0]);
  assert.throws(() => maplibreUniforms(map, { defaultProjectionData: { mainMatrix: Float32Array.from(m) } }), /Float64Array/);
  assert.throws(() => maplibreUniforms(null, { defaultProjectionData: { mainMatrix: m } }), TypeError);
  assert.throws(() => maplibreUniforms(map, {}), TypeError);
  assert.throws(() => maplibreUniforms({ getCenter: () => ({ lng: 0, lat: 90 }) }, { defaultProjectionData: { mainMatrix: m } }), RangeError);
  const bad = Float64Array.from(m);
  bad[5] = Infinity;
  assert.throws(() => maplibreUniforms(map, { defaultProjectionData: { mainMatrix: bad } }), RangeError);
});

const mul4 = (a, b) => {
  const out = new Array(16).fill(0);
  for (let col = 0; col < 4; col++) for (let r = 0; r < 4; r++) for (let k = 0; k < 4; k++) out[4 * col + r] += a[4 * k + r] * b[4 * col + k];
  return out;
};
const rotX = (a) => [1, 0, 0, 0, 0, Math.cos(a), Math.sin(a), 0, 0, -Math.sin(a), Math.cos(a), 0, 0, 0, 0, 1];
const rotY = (a) => [Math.cos(a), 0, -Math.sin(a), 0, 0, 1, 0, 0, Math.sin(a), 0, Math.cos(a), 0, 0, 0, 0, 1];
const rotZ = (a) => [Math.cos(a), Math.sin(a), 0, 0, -Math.sin(a), Math.cos(a), 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
const translate = (x, y, z) => [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1];

// A globe matrix in MapLibre's shape (the unit sphere to clip space): zoom 22, looking at
// (lng, lat) from 900 px, pitched 0.6 rad, turned 0.4 rad.
function globeMatrix(lng, lat) {
  const radius = 512 * 2 ** 22 / (2 * Math.PI) / Math.cos(lat * Math.PI / 180);
  const f = 1 / Math.tan(0.32);
  const proj = [f / (4 / 3), 0, 0, 0, 0, f, 0, 0, 0, 0, -1.0002, -1, 0, 0, -0.2, 0];
  const steps = [translate(0, 0, -900), rotX(-0.6), rotZ(0.4), translate(0, 0, -radius), rotX(lat * Math.PI / 180),
    rotY(-lng * Math.PI / 180), [radius, 0, 0, 0, 0, radius, 0, 0, 0, 0, radius, 0, 0, 0, 0, 1]];
  return Float64Array.from(steps.reduce(mul4, proj));
}

test('maplibreUniforms under the globe: the sphere relative to its eye, pixels within 1e-3 of the map\'s f64 matrix', () => {
  const lng = 15.6267, lat = 78.2232;
  const g = globeMatrix(lng, lat);
  const args = {
    modelViewProjectionMatrix: g,
    defaultProjectionData: { mainMatrix: Float32Array.from(g), clippingPlane: [0.1, 0.9, 0.4, -0.95], projectionTransition: 1 },
    shaderData: { define: '#define GLOBE' },
  };
  const u = maplibreUniforms({ getCenter: () => ({ lng, lat }) }, args);
  // The unit sphere point of a longitude, latitude and altitude, computed here.
  const sphere = (lo, la, alt) => {
    const l = lo * Math.PI / 180, f = la * Math.PI / 180, s = 1 + alt / R;
    return [Math.sin(l) * Math.cos(f) * s, Math.sin(f) * s, Math.cos(l) * Math.cos(f) * s];
  };
  const eye = [0, 1, 2].map((k) => u.df64_maplibre_globe_eye_hi[k] + u.df64_maplibre_globe_eye_lo[k]);
  const centre = sphere(lng, lat, 0);
  for (let k = 0; k < 3; k++) assert.ok(Math.abs(eye[k] - centre[k]) < 1e-15, `eye axis ${k}`);
  const t = u.df64_maplibre_globe_matrix;
  const apply = (m, p) => [0, 1, 2, 3].map((r) => m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r]);
  // Points up to 300 px from the centre at zoom 22 (a pixel is 4.6 mm there), some 2 m up.
  const degPerPx = 360 / (512 * 2 ** 22);
  let worst = 0, f32Worst = 0;
  for (const [dx, dy, alt] of [[0, 0, 0], [300, 0, 0], [-200, 250, 2], [150, -300, 0], [-300, -300, 2]]) {
    const p = sphere(lng + dx * degPerPx / Math.cos(lat * Math.PI / 180), lat + dy * degPerPx, alt);
    const want = apply(g, p);
    // The shader's sum: the offset from the eye rounded to f32, times the matrix at the eye.
    const got = apply(t, p.map((x, k) => Math.fround(x - eye[k])));
    const f32 = apply(args.defaultProjectionData.mainMatrix, p.map(Math.fround));
    for (const k of [0, 1]) {
      worst = Math.max(worst, Math.abs(got[k] / got[3] - want[k] / want[3]) * 400);
      f32Worst = Math.max(f32Worst, Math.abs(f32[k] / f32[3] - want[k] / want[3]) * 400);
    }
  }
  assert.ok(worst < 1e-3, `worst ${worst} px`);
  assert.ok(f32Worst > 1, `the f32 way ${f32Worst} px`);
  // The clipping plane's w taken at the eye: the plane's value at any offset is the same.
  const plane = u.df64_maplibre_clipping_plane;
  assert.ok(Math.abs(plane[3] - (0.1 * eye[0] + 0.9 * eye[1] + 0.4 * eye[2] - 0.95)) < 1e-7);
  assert.equal(u.df64_maplibre_transition, 1);
});

test('maplibreUniforms under the globe refuses a matrix that is not the map\'s, and wants the mercator one in the hand-over', () => {
  const map = { getCenter: () => ({ lng: 0, lat: 10 }) };
  const g = globeMatrix(0, 10);
  const good = () => ({ modelViewProjectionMatrix: g, shaderData: { define: '#define GLOBE' },
    defaultProjectionData: { mainMatrix: Float32Array.from(g), clippingPlane: [0, 0, 1, -0.9], projectionTransition: 1 } });
  assert.doesNotThrow(() => maplibreUniforms(map, good()));
  const other = good();
  other.defaultProjectionData.mainMatrix = Float32Array.from(globeMatrix(0.001, 10));
  assert.throws(() => maplibreUniforms(map, other), /does not round to/);
  const none = good();
  delete none.modelViewProjectionMatrix;
  assert.throws(() => maplibreUniforms(map, none), /modelViewProjectionMatrix/);
  const half = good();
  half.defaultProjectionData.projectionTransition = 0.5;
  assert.throws(() => maplibreUniforms(map, half), /fallbackMatrix/);
  half.defaultProjectionData.fallbackMatrix = mapMatrix([0.5, 0.4, 0]);
  assert.equal(maplibreUniforms(map, half).df64_maplibre_transition, 0.5);
  const beyond = good();
  beyond.defaultProjectionData.projectionTransition = 2;
  assert.throws(() => maplibreUniforms(map, beyond), RangeError);
  const plane = good();
  plane.defaultProjectionData.clippingPlane = [0, 0, 1];
  assert.throws(() => maplibreUniforms(map, plane), /clippingPlane/);
});

test('the GLSL defines the position function for mercator and the globe', () => {
  assert.match(DF64_MAPLIBRE_GLSL, /vec4 df64_maplibre_position\(vec3 mercator_hi, vec3 mercator_lo\)/);
  assert.doesNotMatch(DF64_MAPLIBRE_GLSL, /#error/);
  assert.match(DF64_MAPLIBRE_GLSL, /#ifdef GLOBE[^]*df64_maplibre_sphere[^]*#endif/);
  assert.match(DF64_MAPLIBRE_GLSL, /\bvec4 df64_world_to_view\s*\(/);
  for (const routine of ['world_to_view', 'relative_to_eye', 'sin', 'cos', 'exp', 'div']) {
    assert.ok(MAPLIBRE_ROUTINES.includes(routine), routine + ' in ' + MAPLIBRE_ROUTINES.join(','));
  }
});

test('df64Layer takes its options or says what is wrong with them', () => {
  const positions = [-122.4194, 37.7749, 0, -122.4193, 37.7749, 0, -122.4193, 37.775, 0];
  const layer = df64Layer({ id: 'a', positions, mode: 'triangles' });
  assert.equal(layer.type, 'custom');
  assert.equal(layer.renderingMode, '3d');
  assert.equal(layer.verdict, null);
  assert.equal(df64Layer({ id: 'b', positions }).renderingMode, '2d');
  assert.throws(() => df64Layer({ positions }), /options\.id/);
  assert.throws(() => df64Layer({ id: 'c', positions, mode: 'quads' }), /mode is one of/);
  assert.throws(() => df64Layer({ id: 'd', positions, colors: [1, 0, 0] }), /give 4 \(one colour\) or 12/);
  assert.throws(() => df64Layer({ id: 'e', positions, colors: [1, 0, 0, 2] }), /in \[0, 1\]/);
  assert.throws(() => df64Layer({ id: 'f', positions, pointSize: 0 }), /pointSize/);
  assert.throws(() => df64Layer({ id: 'g', positions: [0, 95, 0] }), /latitude/);
  assert.throws(() => layer.setData([0, 0]), /triples/);
});
