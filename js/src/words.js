// Numbers to f32 words: the df64 of a JavaScript number ([hi, lo]), of arrays and of 4x4
// matrices, as shaders take them (two f32 attributes or uniforms per value).

import { describe } from './options.js';

/**
 * The df64 of a JavaScript number: [hi, lo] with hi = fround(x), lo = fround(x - hi). NaN
 * gives [NaN, 0]; ±Infinity, and finite numbers that round beyond the f32 range
 * (|x| >= 2^128 - 2^103), give [±Infinity, 0]. The pair holds about 48 of the double's 53
 * bits; a lo below 2^-126 is a subnormal f32, which many GPUs read as 0.
 * @param {number} x
 * @returns {[number, number]}
 */
export function split(x) {
  const v = Number(x);
  const hi = Math.fround(v);
  if (!Number.isFinite(hi)) return [hi, 0];
  // x - hi is exact (Sterbenz); rounding it to f32 keeps 24 more bits.
  return [hi, Math.fround(v - hi)];
}

/**
 * The number nearest to hi + lo (exact when the pair spans at most 53 bits).
 * @param {number} hi
 * @param {number} lo
 * @returns {number}
 */
export function join(hi, lo) {
  return Number(hi) + Number(lo);
}

// `values` as an array of numbers (an Array, a typed array or another array-like object, not a
// string), or a TypeError naming `what`.
export function numbersArg(values, what, takes) {
  const list = values !== null && typeof values === 'object' && !(values instanceof DataView) &&
    Number.isInteger(values.length) && values.length >= 0;
  if (!list) throw new TypeError(what + ' takes ' + takes + ', not ' + describe(values));
  // A float array holds numbers only: no pass over a large one.
  if (values instanceof Float64Array || values instanceof Float32Array) return;
  for (let i = 0; i < values.length; i++) {
    if (typeof values[i] !== 'number') {
      throw new TypeError(what + ': element ' + i + ' is ' + describe(values[i]) + ', not a number');
    }
  }
}

// A pair from `split` that is a position's or a matrix's words: finite (within f32's range),
// or a RangeError naming element i of `what`.
export function finiteWords(v, i, what) {
  const w = split(v);
  if (!Number.isFinite(w[0]) || !Number.isFinite(w[1])) {
    throw new RangeError(what + ': element ' + i + ' is ' + v + (Number.isFinite(v)
      ? ', past f32\'s range (|x| < 3.4e38): its df64 words would be infinite' : ': df64 takes finite numbers'));
  }
  return w;
}

/**
 * The df64 of every number of an array (Float64Array or any array of numbers) as one
 * interleaved Float32Array [hi0, lo0, hi1, lo1, ...], ready for a vec2 attribute or an RG32F
 * texture. Each pair is `split`'s (so NaN and infinities, and numbers past f32's range, give
 * the pairs `split` documents). A TypeError for anything but an array of numbers.
 * @param {ArrayLike<number>} values
 * @returns {Float32Array}
 */
export function splitArray(values) {
  numbersArg(values, 'splitArray', 'an array of numbers (an Array or a Float64Array)');
  const out = new Float32Array(2 * values.length);
  for (let i = 0; i < values.length; i++) {
    const w = split(values[i]);
    out[2 * i] = w[0];
    out[2 * i + 1] = w[1];
  }
  return out;
}

/**
 * A 4x4 matrix (16 numbers, column-major as WebGL takes it) as two Float32Arrays, `hi` and
 * `lo`, for two mat4 uniforms: element i is split(m[i]).
 * @param {ArrayLike<number>} m
 * @returns {{ hi: Float32Array; lo: Float32Array }}
 */
export function splitMat4(m) {
  mat4Arg(m, 'splitMat4');
  const hi = new Float32Array(16);
  const lo = new Float32Array(16);
  for (let i = 0; i < 16; i++) {
    const w = finiteWords(m[i], i, 'splitMat4');
    hi[i] = w[0];
    lo[i] = w[1];
  }
  return { hi: hi, lo: lo };
}

// A column-major 4x4 matrix of finite numbers, or an Error naming `name`'s argument `arg`.
export function mat4Arg(m, name, arg) {
  const what = name + (arg ? ': ' + arg : '');
  numbersArg(m, what, '16 numbers (a column-major 4x4 matrix)');
  if (m.length !== 16) throw new TypeError(what + ' takes 16 numbers (a column-major 4x4 matrix), not ' + m.length);
  for (let i = 0; i < 16; i++) {
    if (!Number.isFinite(m[i])) throw new RangeError(what + ': element ' + i + ' is ' + m[i] + '; a matrix takes finite numbers');
  }
}
