// The FFT's host side, shared by the WebGL (webgl.js) and WebGPU (webgpu.js) plans and their
// Bluestein and real-input forms: the precisions and the routines each checks, input checks,
// block scaling, the words out as doubles, directions, and the self-tests' signals, exact
// references (fixed point, BigInt) and error measures.

import { FIXED_BITS, fixedFromDouble, wordsFromFixed, unitRootsFixed, exponentOf, ldexp, powerOfTwo, splitDouble } from './words.js';

export const PRECISIONS = {
  f32: { words: 1, define: 'FFT_F32', selftestBound: 1e-5 },
  df64: { words: 2, define: null, selftestBound: 1e-14 },
  qf128: { words: 4, define: 'FFT_QF128', selftestBound: 1e-27 },
};

// The routines the passes call, for `check` (the *_unscaled ones are the df64 passes' cores;
// `add`, `sub` and `mul` name the qf128 ones too when options.qf128 is set).
export const CHECKED = { df64: ['add_unscaled', 'mul_unscaled', 'add', 'sub', 'mul'], qf128: ['add', 'sub', 'mul', 'add_unscaled', 'mul_unscaled'] };

export function fail(message) {
  return new Error('df64gl FFT: ' + message);
}

// The real-input transform's last pass (bins from the packed transform) and the inverse's first.
export const REAL_POST = { pass: 'real_post', fromPlanes: false, radix: 1, outputs: 1 };

export const REAL_PRE = { pass: 'real_pre', fromPlanes: false, radix: 1, outputs: 1 };

// options.shape checked (shared with webgpu.js): [rows, columns], each a power of two.
export function imageShape(opts) {
  const s = opts.shape;
  if (!Array.isArray(s) || s.length !== 2 || !s.every(function (v) {
    return typeof v === 'number' && Number.isInteger(v) && v >= 2 && v <= 0x8000 && (v & (v - 1)) === 0;
  })) {
    throw new RangeError('df64gl FFT: options.shape must be [rows, columns], each a power of two from 2 to 32768 (got ' +
      JSON.stringify(s) + '); pad an image of other sizes with zeros');
  }
  if (opts.real || (opts.batch !== undefined && opts.batch !== 1) || (opts.length !== undefined && opts.length !== s[0] * s[1])) {
    throw new RangeError('df64gl FFT: options.shape takes no batch, real or other length (a 2-D plan transforms one ' +
      s[0] + ' x ' + s[1] + ' image)');
  }
  return s;
}

// The real-input passes' known answers for n reals (shared with webgpu.js): x, the exact
// bins y of x (as the plan's words), and judge(bins, back), which throws unless the plan's
// forward(x) and inverse(y) (fixed point) are within the precision's self-test bound.
export function realSelftest(n, precision, words) {
  const x = selftestSignal(n, words, 31);
  const xf = Array.from(x, fixedFromDouble);
  const roots = unitRootsFixed(n, n);
  const bound = PRECISIONS[precision].selftestBound;
  const exact = [];
  for (let k = 0; k <= n / 2; k++) {
    let re = 0n;
    let im = 0n;
    for (let j = 0; j < n; j++) {
      const r = roots[(j * k) % n];
      re += xf[j] * r[0];
      im -= xf[j] * r[1];
    }
    exact.push(re >> BigInt(FIXED_BITS), im >> BigInt(FIXED_BITS));
  }
  const y = new Float64Array(n + 2);
  exact.forEach(function (v, i) {
    const parts = wordsFromFixed(v, 4);
    y[i] = words === 1 ? parts[0] : words === 2 ? parts[0] + parts[1] : (parts[0] + parts[1]) + parts[2];
  });
  y[1] = 0;
  y[n + 1] = 0;
  const judge = function (bins, back, where) {
    // Forward: bins 0..n/2 against the exact DFT.
    let err = 0n;
    let ref = 0n;
    for (let i = 0; i < exact.length; i++) {
      err += (bins[i] - exact[i]) ** 2n;
      ref += exact[i] * exact[i];
    }
    const forward = relativeError(err, ref);
    // Inverse: the exact bins (as the plan's words) back to the reals.
    const yf = Array.from(y, fixedFromDouble);
    err = 0n;
    ref = 0n;
    for (let j = 0; j < n; j++) {
      // x_j = (1/n) (X_0 + (-1)^j X_(n/2) + 2 Re sum_(0<k<n/2) X_k w^(-jk)).
      let v = yf[0] + (j % 2 ? -yf[n] : yf[n]);
      let sum = 0n;
      for (let k = 1; k < n / 2; k++) {
        const r = roots[(j * k) % n];
        sum += yf[2 * k] * r[0] - yf[2 * k + 1] * r[1];
      }
      v += (2n * sum) >> BigInt(FIXED_BITS);
      v /= BigInt(n);
      err += (back[j] - v) ** 2n;
      ref += v * v;
    }
    const inverse = relativeError(err, ref);
    if (!(forward <= bound) || !(inverse <= bound)) {
      throw fail('the ' + precision + ' real-input passes computed a ' + n + '-point transform with relative error ' +
        Math.max(forward, inverse).toExponential(2) + ' (bound ' + bound + ') on this ' + where + ': its compiler breaks them, so they will not run here');
    }
  };
  return { x: x, y: y, judge: judge };
}

// The words of a download as fixed-point values (re, im interleaved), times 2^exponent.
export function fixedWords(result) {
  const out = [];
  const words = result.words;
  const per = result.per / 2; // words of one part (re or im)
  for (let i = 0; i < words.length / per; i++) {
    let v = 0n;
    for (let k = 0; k < per; k++) v += fixedFromDouble(words[per * i + k]);
    const e = result.exponent;
    out.push(e >= 0 ? v << BigInt(e) : v >> BigInt(-e));
  }
  return out;
}

// The relative L2 error of `got` (fixed point, re and im interleaved) against the exact DFT of
// x (sign 1: forward; -1: inverse, with 1/n), computed here in fixed point.
export function exactDftError(x, got, sign) {
  const n = x.length / 2;
  const roots = unitRootsFixed(n, n);
  const xf = Array.from(x, fixedFromDouble);
  let err = 0n;
  let ref = 0n;
  for (let k = 0; k < n; k++) {
    let re = 0n;
    let im = 0n;
    for (let j = 0; j < n; j++) {
      const r = roots[(j * k) % n];
      const s = sign > 0 ? -r[1] : r[1]; // exp(-+ 2 pi i jk / n)
      re += xf[2 * j] * r[0] - xf[2 * j + 1] * s;
      im += xf[2 * j] * s + xf[2 * j + 1] * r[0];
    }
    re >>= BigInt(FIXED_BITS);
    im >>= BigInt(FIXED_BITS);
    if (sign < 0) {
      re /= BigInt(n);
      im /= BigInt(n);
    }
    const dr = got[2 * k] - re;
    const di = got[2 * k + 1] - im;
    err += dr * dr + di * di;
    ref += re * re + im * im;
  }
  return relativeError(err, ref);
}

// ------------------------------------------------------------------ data in and out

export function checkInput(x, count, what) {
  if (!(x instanceof Float64Array) && !(x instanceof Float32Array) && !Array.isArray(x)) {
    throw new TypeError('df64gl FFT: ' + what + ' must be a Float64Array of ' + count + ' numbers (re, im interleaved), not ' +
      (x === null ? 'null' : typeof x === 'object' ? x.constructor.name : typeof x));
  }
  if (x.length !== count) {
    throw new RangeError('df64gl FFT: ' + what + ' has ' + x.length + ' numbers; this plan takes ' + count +
      ' (re and im of each point, interleaved, row after row)');
  }
  let max = 0;
  for (let i = 0; i < count; i++) {
    const v = x[i];
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      throw new RangeError('df64gl FFT: ' + what + '[' + i + '] is ' + String(v) +
        ': the FFT takes finite numbers only (one NaN or infinity would spoil every bin of its row)');
    }
    const a = Math.abs(v);
    if (a > max) max = a;
  }
  return max;
}

// The power of two s with max 2^-s in [0.5, 1) (0 for all zeros), subnormals included.
export function blockExponent(max) {
  return max === 0 ? 0 : exponentOf(max) + 1;
}

// v -> v 2^e rounded once, for any integer e: a product with the exact double 2^e where there
// is one (one rounding), else ldexp (2^e past the doubles' range: inputs near 2^1024 or
// subnormal, and their spectra).
export function scalerOf(e) {
  if (e >= -1074 && e <= 1023) {
    const p = powerOfTwo(e);
    return function (v) { return v * p; };
  }
  return function (v) { return ldexp(v, e); };
}

// Constant factors (doubles, or with `fixed` BigInt fixed-point numbers) block-scaled by a
// power of two: the exponent, and part(i, out, at), which writes part i's `words` f32 words at
// out[at..] (shared with webgpu.js).
export function blockScaledParts(values, fixed, words) {
  if (fixed) {
    let max = 0n;
    values.forEach(function (v) { const a = v < 0n ? -v : v; if (a > max) max = a; });
    const s = max === 0n ? 0 : max.toString(2).length - FIXED_BITS;
    const shift = BigInt(Math.abs(s));
    return {
      exponent: s,
      part: function (i, out, at) {
        const w = wordsFromFixed(s >= 0 ? values[i] >> shift : values[i] << shift, words);
        for (let k = 0; k < words; k++) out[at + k] = w[k];
      },
    };
  }
  let max = 0;
  for (let i = 0; i < values.length; i++) max = Math.max(max, Math.abs(values[i]));
  const s = blockExponent(max);
  const scale = scalerOf(-s);
  return { exponent: s, part: function (i, out, at) { splitDouble(scale(values[i]), words, out, at); } };
}

// The result as doubles (each part's words summed, times 2^exponent rounded once); an Error
// where a part lies past the doubles' range (its magnitude 2^1024 or more), never an infinity.
export function toDoubles(result) {
  const per = result.per / 2;
  const out = new Float64Array(result.words.length / per);
  const scale = scalerOf(result.exponent);
  const w = result.words;
  for (let i = 0; i < out.length; i++) {
    const at = per * i;
    let v;
    if (per === 1) v = w[at];
    else if (per === 2) v = w[at] + w[at + 1];
    else v = (w[at] + w[at + 1]) + (w[at + 2] + w[at + 3]);
    const d = scale(v);
    if (!Number.isFinite(d)) throw overflow(v, result.exponent, i);
    out[i] = d;
  }
  return out;
}

// The Error of a result part v 2^e (part i: the re or im of point i / 2) past the doubles.
function overflow(v, e, i) {
  const log2 = exponentOf(v) + e;
  return new RangeError('df64gl FFT: the result overflows the doubles: the ' + (i % 2 ? 'imaginary' : 'real') +
    ' part of point ' + Math.floor(i / 2) + ' is about ' + (v < 0 ? '-' : '') + '2^' + log2 +
    ' and the largest double is below 2^1024; scale the input down by 2^' + (log2 - 1020) +
    ' (exact) and the result back up');
}

export function toWords(result) {
  const scale = scalerOf(result.exponent);
  const out = new Float32Array(result.words.length);
  for (let i = 0; i < out.length; i++) {
    const v = scale(result.words[i]);
    // Each word exactly, or not at all: past f32's range (or below its normal range) the words
    // would be infinite or lose their low bits.
    if (Math.fround(v) !== v || (v !== 0 && Math.abs(v) < 1.1754943508222875e-38)) {
      throw new RangeError('df64gl FFT: a word of the result, ' + result.words[i] + ' * 2^' + result.exponent +
        ', lies outside the f32 range: use forward() or inverse() (doubles) for data this large or small');
    }
    out[i] = v;
  }
  return out;
}

export function relativeError(err, ref) {
  return Math.sqrt(Number((err << 256n) / (ref === 0n ? 1n : ref)) / Math.pow(2, 256));
}

// A fixed signal in [-1/2, 1/2), each value exact in `words` f32 words (qf128: a double).
export function selftestSignal(count, words, seed) {
  const x = new Float64Array(count);
  let state = seed;
  const w = [0, 0, 0, 0];
  for (let i = 0; i < count; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    const u = state / 4294967296 - 0.5;
    splitDouble(u, words, w, 0);
    x[i] = words === 1 ? w[0] : words === 2 ? w[0] + w[1] : u;
  }
  return x;
}

export function directionOf(d) {
  if (d !== 'forward' && d !== 'inverse') throw new TypeError("df64gl FFT: the direction must be 'forward' or 'inverse'");
  return d;
}
