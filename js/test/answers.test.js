// The packed known answers: the inflater against Node's zlib, and every routine's answers as the
// module decodes them against the library's own copy (assets/known-answers.json, every bit in
// hex, written without the packing).

import test from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { readFileSync } from 'node:fs';

import { inflate } from '../src/check/inflate.js';
import { answersNeeded, loadAnswers, knownAnswers } from '../src/check/known-answers.js';

// A generator of its own, so that a failure repeats.
function bytesOf(n, seed, alphabet) {
  const out = new Uint8Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = alphabet ? (s >>> 24) % alphabet : s >>> 24;
  }
  return out;
}

test('inflate gives back what zlib deflates, in every kind of block', () => {
  const inputs = [
    new Uint8Array(0),
    bytesOf(1, 1),
    bytesOf(70000, 2), // incompressible: stored blocks past 65,535 bytes
    bytesOf(50000, 3, 4), // few symbols: long matches
    new Uint8Array(40000).fill(7), // one byte repeated: the longest matches and distance 1
    bytesOf(30000, 4, 40),
  ];
  const settings = [
    { level: 0 },
    { level: 1 },
    { level: 6 },
    { level: 9 },
    { level: 9, strategy: zlib.constants.Z_FIXED },
    { level: 9, strategy: zlib.constants.Z_HUFFMAN_ONLY },
    { level: 9, strategy: zlib.constants.Z_RLE },
  ];
  for (const input of inputs) {
    for (const s of settings) {
      const deflated = new Uint8Array(zlib.deflateRawSync(input, s));
      assert.deepEqual(inflate(deflated, input.length), input, input.length + ' bytes, ' + JSON.stringify(s));
    }
  }
});

test('inflate refuses a damaged stream with an error, never a wrong answer', () => {
  const input = bytesOf(5000, 5, 16);
  const deflated = new Uint8Array(zlib.deflateRawSync(input, { level: 9 }));
  assert.throws(() => inflate(deflated.subarray(0, deflated.length >> 1), input.length), /damaged/);
  assert.throws(() => inflate(deflated, input.length - 1), /damaged/);
  assert.throws(() => inflate(deflated, input.length + 1), /damaged/);
  // Block type 3 does not exist.
  assert.throws(() => inflate(new Uint8Array([0x07, 0, 0]), 0), /damaged/);
  // A stored block whose length's complement is wrong.
  assert.throws(() => inflate(new Uint8Array([0x01, 0x02, 0x00, 0x00, 0x00, 1, 2]), 2), /damaged/);
});

function words(hex, digits) {
  const out = [];
  for (let i = 0; i < hex.length; i += digits) out.push(hex.slice(i, i + digits));
  return out;
}

function hexOf(view, digits) {
  const out = [];
  for (let i = 0; i < view.length; i++) out.push(view[i].toString(16).padStart(digits, '0'));
  return out;
}

test('every routine\'s answers decode to the library\'s copy bit for bit', async () => {
  const library = JSON.parse(readFileSync(new URL('../../assets/known-answers.json', import.meta.url), 'utf8'));
  await loadAnswers(answersNeeded(null, true));
  const known = knownAnswers();
  for (const key of ['df64', 'qf128', 'df64vec']) {
    const set = known[key];
    const f32 = hexOf(new Uint32Array(set.f32.buffer), 8);
    const f64 = [];
    const halves = new Uint32Array(set.f64.buffer);
    for (let i = 0; i < set.f64.length; i++) {
      f64.push(halves[2 * i + 1].toString(16).padStart(8, '0') + halves[2 * i].toString(16).padStart(8, '0'));
    }
    const kind = hexOf(set.kind, 2);
    assert.equal(set.loaded.size, set.routines.length, key);
    assert.deepEqual(f32, words(library[key].f32, 8), key + ' f32');
    assert.deepEqual(f64, words(library[key].f64, 16), key + ' f64');
    assert.deepEqual(kind, words(library[key].kind, 2), key + ' kind');
  }
});
