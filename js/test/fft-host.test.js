// The FFT's host side without a GPU: bad arguments are errors that say why, before any GL call.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createFft } from '../src/fft.js';
import { createFftWebGPU } from '../src/fft-webgpu.js';
import { checkInput, directionOf, imageShape, blockExponent } from '../src/fft/host.js';

test('createFft refuses bad lengths and options before it touches the context', () => {
  assert.throws(() => createFft(null, { length: 0 }), RangeError);
  assert.throws(() => createFft(null, { length: 2.5 }), RangeError);
  assert.throws(() => createFft(null, { lenght: 16 }), /did you mean "length"/);
  assert.throws(() => createFft(null, { shape: [3, 4] }), RangeError);
});

test('createFftWebGPU refuses what is not a device, saying what it needs', async () => {
  await assert.rejects(createFftWebGPU(null, { length: 16 }), (e) => e instanceof TypeError && /GPUDevice/.test(e.message));
  await assert.rejects(createFftWebGPU({}, { length: 16 }), TypeError);
});

test('the host checks inputs, directions and shapes', () => {
  assert.throws(() => checkInput('x', 4, 'the input'), TypeError);
  assert.throws(() => checkInput(new Float64Array(3), 4, 'the input'));
  assert.throws(() => checkInput([1, NaN, 0, 0], 4, 'the input'));
  assert.throws(() => directionOf('backward'), TypeError);
  assert.equal(directionOf('inverse'), 'inverse');
  assert.deepEqual(imageShape({ shape: [4, 8] }), [4, 8]);
  assert.throws(() => imageShape({ shape: [4, 8], real: true }), RangeError);
  // The block exponent s puts the largest magnitude times 2^-s in [0.5, 1), subnormals too.
  for (const max of [1024, 1023.5, 3e300, 5e-324, 0.75]) {
    const s = blockExponent(max);
    // 2^-s in two exact halves: one factor alone leaves the doubles' range at the extremes.
    const half = Math.trunc(s / 2);
    const scaled = max * 2 ** -half * 2 ** -(s - half);
    assert.ok(scaled >= 0.5 && scaled < 1, `${max}: 2^${s}`);
  }
  assert.equal(blockExponent(0), 0);
});
