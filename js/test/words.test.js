// Numbers to f32 words (src/words.js): the words against Math.fround computed here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { split, join, splitArray, splitMat4 } from '../src/words.js';

const XS = [Math.PI, -1e-30 / 3, 1e30 / 7, 0.1, 6.02214076e23, 123456789.12345679, 1e-45, 2 ** 100 + 2 ** 60];

// The reference: hi the f32 nearest x, lo the f32 nearest x - hi (exact in doubles).
function words(x) {
  const hi = Math.fround(x);
  return Number.isFinite(hi) ? [hi, Math.fround(x - hi)] : [hi, 0];
}

test('split gives the nearest f32 and the f32 of the rest', () => {
  for (const x of XS) assert.deepEqual(split(x), words(x), String(x));
  assert.ok(Object.is(split(-0)[0], -0), 'the sign of zero stays');
  assert.deepEqual(split(Infinity), [Infinity, 0]);
  assert.deepEqual(split(1e300), [Infinity, 0], 'past the f32 range: infinity');
  const nan = split(NaN);
  assert.ok(Number.isNaN(nan[0]) && nan[1] === 0);
});

test('join(split(x)) holds about 48 bits', () => {
  for (const x of XS.filter((v) => Math.abs(v) > 1e-30)) {
    const [hi, lo] = split(x);
    assert.ok(Math.abs((join(hi, lo) - x) / x) < 2 ** -48, String(x));
  }
});

test('splitArray interleaves and splitMat4 refuses what it cannot hold', () => {
  const a = splitArray(new Float64Array(XS));
  assert.ok(a instanceof Float32Array && a.length === 2 * XS.length);
  XS.forEach((x, i) => assert.deepEqual([a[2 * i], a[2 * i + 1]], words(x)));
  const m = Array.from({ length: 16 }, (_, i) => XS[i % XS.length]);
  const { hi, lo } = splitMat4(m);
  m.forEach((x, i) => assert.deepEqual([hi[i], lo[i]], words(x)));
  assert.throws(() => splitMat4([1, 2]), TypeError);
  assert.throws(() => splitMat4(m.map((x, i) => (i === 3 ? 1e39 : x))), RangeError);
  assert.throws(() => splitArray('12'), TypeError);
});
