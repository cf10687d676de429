// df64gl/maplibre in Node: the mercator words against the projection computed here, the
// uniforms' matrix against the map's matrix applied in doubles, and the errors for bad input.
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

test('maplibreUniforms refuses the globe, an f32 matrix and what is not a map', () => {
  const map = { getCenter: () => ({ lng: 0, lat: 0 }) };
  const m = mapMatrix([0.5, 0.5, 0]);
  assert.throws(() => maplibreUniforms(map, { defaultProjectionData: { mainMatrix: m }, shaderData: { define: '#define GLOBE' } }), /globe/);
  assert.throws(() => maplibreUniforms(map, { defaultProjectionData: { mainMatrix: Float32Array.from(m) } }), /Float64Array/);
  assert.throws(() => maplibreUniforms(null, { defaultProjectionData: { mainMatrix: m } }), TypeError);
  assert.throws(() => maplibreUniforms(map, {}), TypeError);
  const bad = Float64Array.from(m);
  bad[5] = Infinity;
  assert.throws(() => maplibreUniforms(map, { defaultProjectionData: { mainMatrix: bad } }), RangeError);
});

test('the GLSL defines the position function and refuses the globe at compile time', () => {
  assert.match(DF64_MAPLIBRE_GLSL, /vec4 df64_maplibre_position\(vec3 mercator_hi, vec3 mercator_lo\)/);
  assert.match(DF64_MAPLIBRE_GLSL, /#ifdef GLOBE\n#error/);
  assert.match(DF64_MAPLIBRE_GLSL, /\bvec4 df64_world_to_view\s*\(/);
  assert.ok(MAPLIBRE_ROUTINES.includes('world_to_view'), MAPLIBRE_ROUTINES.join(','));
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
