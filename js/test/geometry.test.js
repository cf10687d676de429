// Positions relative to the eye (src/geometry.js): the matrices against f64 references computed
// here, column-major as WebGL takes them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { relativeToEye, viewRotation, rteUniforms, splitPositions } from '../src/geometry.js';

// a * b for column-major 4x4 matrices, in doubles.
function multiply(a, b) {
  const out = new Array(16).fill(0);
  for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) {
    for (let k = 0; k < 4; k++) out[4 * c + r] += a[4 * k + r] * b[4 * c + k];
  }
  return out;
}
const translate = (t) => [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, t[0], t[1], t[2], 1];
// A rotation about z by 0.3 rad, then a translation to a point on the Earth's surface.
const c = Math.cos(0.3), s = Math.sin(0.3);
const MODEL = multiply(translate([6378137.25, -12.5, 0.125]), [c, s, 0, 0, -s, c, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
const EYE = [6378100.5, 3.25, 40.0625];

test('relativeToEye is translate(-eye) times the model, in doubles', () => {
  const got = relativeToEye(MODEL, EYE);
  const want = multiply(translate(EYE.map((x) => -x)), MODEL);
  assert.ok(got instanceof Float64Array);
  for (let i = 0; i < 16; i++) assert.ok(Math.abs(got[i] - want[i]) <= 1e-9 * Math.max(1, Math.abs(want[i])), `element ${i}`);
  assert.throws(() => relativeToEye(MODEL, [1, 2]), TypeError);
  assert.throws(() => relativeToEye(MODEL.map((x, i) => (i === 0 ? NaN : x)), EYE), RangeError);
});

test('viewRotation drops the translation; rteUniforms splits the model relative to the eye', () => {
  const view = multiply([c, 0, s, 0, 0, 1, 0, 0, -s, 0, c, 0, 0, 0, 0, 1], translate(EYE.map((x) => -x)));
  const r = viewRotation(view);
  for (let i = 0; i < 12; i++) assert.equal(r[i], Math.fround(view[i]));
  assert.deepEqual(Array.from(r.slice(12)), [0, 0, 0, 1]);
  const u = rteUniforms(MODEL, EYE, view);
  const rel = relativeToEye(MODEL, EYE);
  for (let i = 0; i < 16; i++) {
    assert.equal(u.df64_model_rte_hi[i], Math.fround(rel[i]));
    assert.equal(u.df64_model_rte_lo[i], Math.fround(rel[i] - Math.fround(rel[i])));
  }
});

test('splitPositions gives the two attribute arrays', () => {
  const p = [6378137.123456789, -0.000123, 1e7 / 3];
  const { hi, lo } = splitPositions(p);
  p.forEach((x, i) => {
    assert.equal(hi[i], Math.fround(x));
    assert.equal(lo[i], Math.fround(x - Math.fround(x)));
  });
  assert.throws(() => splitPositions([1, Infinity, 2]), RangeError);
});
