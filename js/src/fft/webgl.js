// The WebGL 2 FFT (`createFft`): Thall's transposed Stockham FFT (his Algorithms 8 to 10) on the caller's WebGL 2
// context, in f32, df64 or qf128: the native engine's passes (glsl/stockham_*.glsl, the same
// files, from generated/fft-glsl.js), drawn one full-screen triangle per stage on RGBA32F textures in
// framebuffers, ping-pong, with the native plans' layout (src/fft/stockham_plan): radix 4 (8
// where asked and the context has 8 draw buffers) writing planes (layers of an array texture),
// the last radix-2 stage for odd log2 N, radix 3 last for 3 * 2^k points, and an unscramble
// pass back to natural order. Every other length runs through Bluestein (bluestein.js),
// real input through real.js, each on a plan of this file.
//
// Before a plan runs anything, `check` proves the df64 (and qf128) routines its passes use on
// this context, and each pass program computes a small transform both ways against an exact
// DFT computed here in fixed point (BigInt): a driver that breaks the arithmetic gets an Error,
// never a wrong spectrum. The data are block-scaled (an exact power of two per transform), so
// any finite input in the doubles' range runs.

import { DF64_GLSL } from '../generated/glsl-df64.js';
import { QF128_GLSL } from '../generated/glsl-qf128.js';
import { FFT_GLSL } from '../generated/fft-glsl.js';
import { check } from '../check/webgl.js';
import { provideCheckedAnswers } from './checked-answers.js';
import { saveState, neutralState, restoreState, takeErrors, putBackErrors, outOfMemory } from '../gl-state.js';
import { optionsOf } from '../options.js';
import { BluesteinFft } from './bluestein.js';
import { RealFft } from './real.js';
import {
  PRECISIONS, CHECKED, fail, REAL_POST, REAL_PRE, imageShape, realSelftest, fixedWords, exactDftError, checkInput, blockExponent, scalerOf, blockScaledParts, toDoubles, toWords, relativeError, selftestSignal, directionOf,
} from './host.js';
import { FIXED_BITS, fixedFromDouble, wordsFromFixed, baseDouble, baseFixed, wLong, splitDouble, powerOfTwo } from './words.js';


/**
 * Complex input: re and im interleaved, row after row (2 * length * batch finite numbers).
 * @typedef {Float64Array | Float32Array | number[]} FftInput
 */

/**
 * Options of `createFft`.
 * @typedef {Object} FftOptions
 * @property {number} length Points of each transform, 1 to 2^30 as the context's textures allow: 2^k and 3 * 2^k run on the passes as they are, any other length through Bluestein's chirp-z on 2^k >= 2 length - 1 points. With `real`, the reals of each row (a power of two, at least 4).
 * @property {[number, number]} [shape] A 2-D plan of [rows, columns] (each a power of two, 2 to 32768; row-major data, no batch): forward and inverse transform along both axes.
 * @property {boolean} [real] A real-input plan: forward takes `length` reals a row to `length / 2 + 1` bins a row (re, im interleaved; bins 0 and length/2 real), inverse the bins back to the reals (with 1/length).
 * @property {'f32' | 'df64' | 'qf128'} [precision] 'df64' (about 48 bits, default), 'qf128' (about 96 bits) or 'f32' (the baseline, not checked).
 * @property {number} [batch] Rows transformed at once, each of `length` points, one after the other in the input (default 1).
 * @property {2 | 4 | 8} [radix] The power-of-two stages' radix: 4 (default, measured fastest natively), 8 (f32 and df64, where the context has 8 draw buffers) or 2.
 * @property {boolean} [cache] Passed to `check` for the routines the passes use (default true: the verdict kept in `storage`).
 * @property {{ getItem(key: string): string | null; setItem(key: string, value: string): void } | null} [storage] Passed to `check` (default localStorage).
 */

/**
 * A planned FFT on one WebGL 2 context (see `createFft`). Any finite input runs, near 2^1024 and among the subnormals too; every method throws an Error that says why (bad input, a lost context or one restored since the plan was made, a disposed plan, a result that overflows the doubles) and never returns a wrong spectrum; each leaves the context's state as it found it, its pending GL errors included (read before the call and set again after).
 * @typedef {Object} WebGLFft
 * @property {number} length
 * @property {number} batch
 * @property {'f32' | 'df64' | 'qf128'} precision
 * @property {2 | 4 | 8} radix
 * @property {number} passes Full-screen draws of one transform (stages and the unscramble pass; qf128 without 8 draw buffers draws each twice).
 * @property {boolean} [real] A real-input plan (options.real).
 * @property {[number, number]} [shape] A 2-D plan's [rows, columns] (options.shape).
 * @property {(x: FftInput) => Float64Array} forward The spectrum, X_k = sum_j x_j exp(-2 pi i jk / n), as doubles (re, im interleaved).
 * @property {(y: FftInput) => Float64Array} inverse The inverse transform, scaled by 1/length.
 * @property {(x: FftInput) => Float32Array} forwardWords The spectrum's f32 words, per point 2 (f32: re, im), 4 (df64: re hi, lo, im hi, lo) or 8 (qf128: re's four, im's four); a RangeError where a word lies outside f32's range (use forward).
 * @property {(y: FftInput) => Float32Array} inverseWords The inverse transform's f32 words.
 * @property {(x: FftInput) => void} upload Loads x into the plan's textures (block-scaled by a power of two), for execute and download.
 * @property {(direction: 'forward' | 'inverse') => void} execute Transforms the data on the GPU in place; repeated transforms are rescaled through the host when their growth nears f32's range.
 * @property {() => Float64Array} download The data on the GPU, as doubles.
 * @property {() => Float32Array} downloadWords The data on the GPU, as f32 words (as forwardWords).
 * @property {(other: WebGLFft) => void} multiply The data on the GPU times `other`'s (a plan of the same length, batch and precision on the same context, both uploaded), element by element: the frequency-domain step of a convolution. Complex plans of 2^k and 3 * 2^k points only (a TypeError otherwise).
 * @property {() => void} dispose Frees the textures, framebuffers and (when no other plan on the context uses them) the programs.
 */

// Each butterfly: L grows by `radix`; `outputs` planes written (1: natural order).
const BUTTERFLIES = {
  radix2: { radix: 2, outputs: 1 },
  radix4: { radix: 4, outputs: 4 },
  radix8: { radix: 8, outputs: 8 },
  radix2_last: { radix: 2, outputs: 4 },
  radix3: { radix: 3, outputs: 3 },
};

// Largest log2 magnitude the words may reach between rescales (src/fft/stockham_plan: far
// below f32's 2^128, so Dekker's split and the butterflies' sums cannot overflow).
const HEADROOM_LOG2 = 100;

// Texture units: the input (and its imaginary part), the twiddles (and theirs), the pointwise
// product's second factor (and its imaginary part).
const UNITS = 6;

const VERTEX = '#version 300 es\nvoid main() {\n' +
  '  gl_Position = vec4(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0, 0.0, 1.0);\n}\n';

// The option that marks a self-test's own plan (module-private: callers cannot skip the proof).
const SELFTEST = Symbol('df64gl FFT self-test');

// The option of a real-input plan's inner plan: the length its twiddle table serves.
const TABLE_LENGTH = Symbol('df64gl FFT twiddle table length');

function log2Exact(n) {
  return Math.round(Math.log2(n));
}

/** The odd factor and log2 of the rest of a length the passes take as it is (2^k, 3 * 2^k), or null. */
function mixedLength(n) {
  if (!Number.isInteger(n) || n < 2 || n > 0x40000000) return null;
  const pow2 = n & -n;
  const odd = n / pow2;
  return odd === 1 || odd === 3 ? { odd: odd, log2: log2Exact(pow2) } : null;
}

/** The butterfly stages of odd * 2^log2 points (src/fft/stockham_mirror.rs's ladder). */
function ladder(log2, odd, radix) {
  const bits = log2Exact(radix);
  const stages = [];
  const repeat = function (name, count) { for (let i = 0; i < count; i++) stages.push(name); };
  if (bits === 1 || log2 < 2) {
    repeat('radix2', log2);
  } else {
    const b = log2 < bits ? 2 : bits;
    const primary = b === 2 ? 'radix4' : 'radix8';
    const rest = log2 % b;
    if (rest === 1 && odd > 1) stages.push('radix2');
    repeat(primary, Math.floor(log2 / b));
    if (rest === 2) stages.push('radix4');
    else if (rest === 1 && odd === 1) stages.push('radix2_last');
  }
  if (odd === 3) stages.push('radix3');
  return stages;
}

/** The passes of one transform: each stage (reading planes after a stage that wrote them), then
 * the unscramble pass (a copy from planes) when the last stage wrote planes. */
function passKinds(log2, odd, radix) {
  const kinds = [];
  let fromPlanes = false;
  ladder(log2, odd, radix).forEach(function (name) {
    kinds.push({ pass: name, fromPlanes: fromPlanes, radix: BUTTERFLIES[name].radix, outputs: BUTTERFLIES[name].outputs });
    fromPlanes = BUTTERFLIES[name].outputs > 1;
  });
  if (fromPlanes) kinds.push({ pass: 'copy', fromPlanes: true, radix: 1, outputs: 1 });
  return kinds;
}

// The product of two spectra, element by element (natural order in and out).
const POINTWISE = { pass: 'pointwise', fromPlanes: false, radix: 1, outputs: 1 };

function kindKey(kind) {
  return kind.pass + (kind.fromPlanes ? ':planes' : '');
}

// Width and height of odd * 2^m texels: width 2^ceil(m/2) (the paper's layout).
function layoutOf(texels) {
  const m = log2Exact(texels & -texels);
  const width = 1 << Math.ceil(m / 2);
  return { width: width, height: texels / width, log2Width: Math.ceil(m / 2) };
}

// ------------------------------------------------------------------ per-context programs

// Per context: the check's verdict per precision, and the pass programs (shared by the plans of
// one precision and odd factor; each program's self-test verdict with it). A lost context's
// record is dropped (its programs died with it): plans made after the context is restored
// build and prove their own, whatever older plans are still alive.
const CONTEXTS = new WeakMap();

function contextOf(gl) {
  let c = CONTEXTS.get(gl);
  // Without a canvas to hear the loss on, a cached program that is no longer a program tells
  // the same (isProgram is a round trip to the GPU process: only there).
  if (c && !c.heard && Array.from(c.programs.values()).some(function (e) { return !gl.isProgram(e.program); })) {
    c.lost = true;
    CONTEXTS.delete(gl);
    c = null;
  }
  if (!c) {
    c = { checks: {}, programs: new Map(), proven: new Map(), lost: false, heard: false };
    CONTEXTS.set(gl, c);
    const canvas = gl.canvas;
    if (canvas && typeof canvas.addEventListener === 'function') {
      const record = c;
      record.heard = true;
      canvas.addEventListener('webglcontextlost', function () {
        record.lost = true;
        if (CONTEXTS.get(gl) === record) CONTEXTS.delete(gl);
      }, { once: true });
    }
  }
  return c;
}

// Whether `record` (a plan's contextOf when it was made) is still the context's: false once the
// context was lost, even if it is restored now.
function current(gl, record) {
  return !record.lost && CONTEXTS.get(gl) === record && !(gl.isContextLost && gl.isContextLost());
}

function compile(gl, fragment, what) {
  const p = gl.createProgram();
  if (p === null) throw fail(lostOr(gl, 'WebGL could not create a program for ' + what));
  const shaders = [[gl.VERTEX_SHADER, VERTEX], [gl.FRAGMENT_SHADER, fragment]].map(function (k) {
    const s = gl.createShader(k[0]);
    if (s === null) throw fail(lostOr(gl, 'WebGL could not create a shader for ' + what));
    gl.shaderSource(s, k[1]);
    gl.compileShader(s);
    gl.attachShader(p, s);
    return s;
  });
  gl.linkProgram(p);
  let error = null;
  shaders.forEach(function (s, i) {
    if (!error && !gl.getShaderParameter(s, gl.COMPILE_STATUS)) {
      error = what + ' does not compile here (' + (i ? 'fragment' : 'vertex') + ' shader): ' + gl.getShaderInfoLog(s);
    }
    gl.deleteShader(s);
  });
  if (!error && !gl.getProgramParameter(p, gl.LINK_STATUS)) error = what + ' does not link here: ' + gl.getProgramInfoLog(p);
  if (error) {
    gl.deleteProgram(p);
    throw fail(lostOr(gl, error));
  }
  const uniforms = {};
  const count = gl.getProgramParameter(p, gl.ACTIVE_UNIFORMS);
  for (let i = 0; i < count; i++) {
    const info = gl.getActiveUniform(p, i);
    if (info) uniforms[info.name] = gl.getUniformLocation(p, info.name);
  }
  return { program: p, uniforms: uniforms, users: 0 };
}

function lostOr(gl, message) {
  return gl.isContextLost && gl.isContextLost()
    ? 'the WebGL context was lost: create the plan again once the context is restored' : message;
}

// ------------------------------------------------------------------ the plan

/**
 * Plans FFTs of `options.length` points (2^k or 3 * 2^k) on a WebGL 2 context, in
 * `options.precision` ('f32', 'df64' or 'qf128'; default 'df64'), for `options.batch` rows
 * (default 1); see FftOptions above. Checks the routines and self-tests the passes first: throws an
 * Error that says why where this context cannot run the plan exactly.
 * @param {WebGL2RenderingContext} gl
 * @param {FftOptions} options
 * @returns {WebGLFft}
 */
export function createFft(gl, options) {
  const opts = optionsOf(options, FFT_OPTIONS, 'createFft');
  if (opts.shape !== undefined) return createImageFft(gl, opts);
  const n = opts.length;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 0x40000000) {
    throw new RangeError('df64gl FFT: options.length must be a whole number of points from 1 to 2^30 (got ' + String(n) + ')');
  }
  if (opts.real) return createRealFft(gl, opts, n);
  if (mixedLength(n)) return new WebGLFftPlan(gl, opts);
  // Bluestein: a circular convolution of m >= 2n - 1 points on the passes.
  let m = 2;
  while (m < 2 * n - 1) m *= 2;
  let inner;
  try {
    inner = new WebGLFftPlan(gl, Object.assign({}, opts, { length: m }));
  } catch (e) {
    if (e instanceof RangeError) {
      throw new RangeError(e.message + ' (' + n + ' points run through Bluestein on ' + m + ')');
    }
    throw e;
  }
  try {
    inner._guarded(function () { this._ensurePointwise(); });
  } catch (e) {
    inner.dispose();
    throw e;
  }
  return new BluesteinFft(inner, n, inner.batch);
}

// What createFft's options may name, and the type each takes.
const FFT_OPTIONS = {
  length: 'number', precision: 'string', batch: 'number', radix: 'number', real: 'boolean', shape: 'array',
  cache: 'boolean', storage: 'storage',
};

// A 2-D plan: [rows, columns], each a power of two, row-major data.
function createImageFft(gl, opts) {
  const s = imageShape(opts);
  return new WebGLFftPlan(gl, Object.assign({}, opts, { length: s[0] * s[1], batch: 1 }));
}

// A real-input plan: n reals (a power of two, at least 4) a row as n/2 packed complex values.
function createRealFft(gl, opts, n) {
  if (n < 4 || (n & (n - 1)) !== 0) {
    throw new RangeError('df64gl FFT: a real-input plan takes a power of two of at least 4 reals (got ' + n +
      '): zero-pad to ' + Math.max(4, 1 << Math.ceil(Math.log2(n))) + ', or transform as complex');
  }
  const inner = new WebGLFftPlan(gl, Object.assign({}, opts, { length: n / 2, real: false, [TABLE_LENGTH]: n }));
  try {
    inner._guarded(function () { this._ensureReal(); });
  } catch (e) {
    inner.dispose();
    throw e;
  }
  return new RealFft(inner, n);
}

// The real-input passes, proven once per context: a real transform of 16 reals both ways
// against the exact DFT.
WebGLFftPlan.prototype._ensureReal = function () {
  this._acquire([REAL_POST, REAL_PRE]);
  const ctx = contextOf(this.gl);
  const proven = [this.precision, this._twoPass, 'real'].join('/');
  if (ctx.proven.get(proven)) return;
  const n = 16;
  const inner = this.length * 2 === n && this._tableLength === n ? null
    : new WebGLFftPlan(this.gl, { length: n / 2, precision: this.precision, radix: this.radix, [TABLE_LENGTH]: n });
  const test = new RealFft(inner || this, n);
  try {
    if (inner) inner._acquire([REAL_POST, REAL_PRE]);
    selftestReal(test, this.precision, this._words);
  } finally {
    if (inner) inner.dispose();
  }
  ctx.proven.set(proven, true);
};

function selftestReal(plan, precision, words) {
  const t = realSelftest(plan.length, precision, words);
  t.judge(fixedWords(plan._run(t.x, 'forward')), fixedWords(plan._run(t.y, 'inverse')), 'context');
}

function WebGLFftPlan(gl, opts) {
  if (!gl || typeof gl.texStorage3D !== 'function' || typeof gl.createVertexArray !== 'function') {
    throw new TypeError('df64gl FFT: createFft needs a WebGL 2 context (canvas.getContext("webgl2"))');
  }
  if (gl.isContextLost && gl.isContextLost()) throw fail('the WebGL context is lost: create the plan once it is restored');
  const precision = opts.precision === undefined ? 'df64' : opts.precision;
  if (!Object.prototype.hasOwnProperty.call(PRECISIONS, precision)) {
    throw new TypeError("df64gl FFT: options.precision must be 'f32', 'df64' or 'qf128', not " + JSON.stringify(precision));
  }
  const n = opts.length;
  const mixed = mixedLength(n);
  if (!mixed) throw new RangeError('df64gl FFT: internal: the passes take 2^k and 3 * 2^k points, not ' + String(n));
  const batch = opts.batch === undefined ? 1 : opts.batch;
  if (typeof batch !== 'number' || !Number.isInteger(batch) || batch < 1) {
    throw new RangeError('df64gl FFT: options.batch must be a whole number of rows, 1 or more (got ' + String(batch) + ')');
  }
  const radix = opts.radix === undefined ? 4 : opts.radix;
  if (radix !== 2 && radix !== 4 && radix !== 8) throw new RangeError('df64gl FFT: options.radix must be 2, 4 or 8');
  if (radix === 8 && precision === 'qf128') {
    throw new RangeError('df64gl FFT: radix 8 is built for f32 and df64 (qf128 would write 16 color attachments): use radix 4 for qf128');
  }
  if (!gl.getExtension('EXT_color_buffer_float')) {
    throw fail('this context has no EXT_color_buffer_float, so the passes cannot render to float textures: no FFT here');
  }
  const maxSize = gl.getParameter(gl.MAX_TEXTURE_SIZE);
  const maxOut = Math.min(gl.getParameter(gl.MAX_DRAW_BUFFERS), gl.getParameter(gl.MAX_COLOR_ATTACHMENTS));
  const rows = 1 << Math.ceil(Math.log2(batch));
  const total = n * rows;
  const natural = layoutOf(total);
  if (natural.width > maxSize || natural.height > maxSize) {
    throw new RangeError('df64gl FFT: ' + n + ' points x ' + batch + ' rows need a ' + natural.width + ' x ' + natural.height +
      ' texture and this context allows ' + maxSize + ' x ' + maxSize + ': plan fewer rows or points');
  }
  // The axes, fastest first: the rows' points, then (2-D) the columns, each element of a column
  // 2^stride apart.
  const shape = opts.shape ? [opts.shape[0], opts.shape[1]] : null;
  const axes = shape
    ? [{ log2: log2Exact(shape[1]), stride: 0 }, { log2: log2Exact(shape[0]), stride: log2Exact(shape[1]) }]
    : [{ log2: mixed.log2, stride: 0 }];
  axes.forEach(function (a) { a.kinds = passKinds(a.log2, mixed.odd, radix); });
  // Every kind the axes draw, once.
  const kinds = [];
  axes.forEach(function (a) {
    a.kinds.forEach(function (k) {
      if (!kinds.some(function (x) { return kindKey(x) === kindKey(k) && x.outputs === k.outputs; })) kinds.push(k);
    });
  });
  const widest = kinds.reduce(function (m, k) { return Math.max(m, k.outputs); }, 1);
  if (precision !== 'qf128' && widest > maxOut) {
    throw new RangeError('df64gl FFT: radix ' + radix + ' writes ' + widest + ' color attachments and this context has ' + maxOut + ': use radix 4');
  }
  this.gl = gl;
  this.length = n;
  this.batch = batch;
  this.precision = precision;
  this.radix = radix;
  this.passes = axes.reduce(function (t, a) { return t + a.kinds.length; }, 0);
  if (shape) this.shape = shape;
  this._axes = axes;
  this._odd = mixed.odd;
  this._rows = rows;
  this._total = total;
  this._kinds = kinds;
  this._words = PRECISIONS[precision].words;
  // The twiddle table serves L up to this (the real-input passes need w_2n: the table of 2n).
  this._tableLength = opts[TABLE_LENGTH] || (shape ? Math.max(shape[0], shape[1]) : n);
  this._qf = precision === 'qf128';
  // qf128 writes real and imaginary parts: in one pass where the attachments allow, else two.
  this._twoPass = this._qf && 2 * widest > maxOut;
  this._exponent = 0;
  this._bound = 1;
  this._loaded = false;
  this._disposed = false;
  this._objects = [];
  this._programs = {};
  this._context = contextOf(gl);
  try {
    this._onContext(function () {
      this._allocate();
      this._acquire(kinds);
      // A self-test's own small plan only borrows the programs being proven.
      if (!opts[SELFTEST]) this._prove(opts);
    }, 'while the plan was built');
  } catch (e) {
    this._free();
    throw e;
  }
}

// Runs `work` on the context with the caller's state saved and put back (gl-state.js): the
// caller's pending errors taken first and set again after, the draws' neutral state set, and
// any GL error of df64gl's own (`during` says when) turned into an Error. Nested calls (a
// self-test plan made inside a plan's constructor) take and put back the outer call's errors
// alike.
WebGLFftPlan.prototype._onContext = function (work, during) {
  const gl = this.gl;
  const pending = takeErrors(gl);
  const refused = outOfMemory(gl, pending);
  if (refused) {
    putBackErrors(gl, pending);
    throw fail(refused);
  }
  const saved = saveState(gl, UNITS);
  let r;
  let own;
  try {
    neutralState(gl, UNITS);
    r = work.call(this);
  } finally {
    // df64gl's own errors (read even where the work threw: they are not the caller's), then
    // the caller's state and errors back.
    own = takeErrors(gl);
    restoreState(gl, saved);
    putBackErrors(gl, pending);
  }
  if (own.length || (gl.isContextLost && gl.isContextLost())) {
    throw fail(lostOr(gl, 'WebGL error ' + own.join(', ') + ' ' + during));
  }
  return r;
};

WebGLFftPlan.prototype._own = function (kind, obj) {
  if (obj === null) throw fail(lostOr(this.gl, 'WebGL could not create a ' + kind));
  this._objects.push([kind, obj]);
  return obj;
};

WebGLFftPlan.prototype._texture = function (w, h, layers, data) {
  const gl = this.gl;
  const t = this._own('texture', gl.createTexture());
  const target = layers ? gl.TEXTURE_2D_ARRAY : gl.TEXTURE_2D;
  gl.activeTexture(gl.TEXTURE0);
  gl.bindTexture(target, t);
  // Float textures are not filterable: NEAREST keeps them complete for texelFetch.
  gl.texParameteri(target, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
  gl.texParameteri(target, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
  if (layers) {
    gl.texStorage3D(target, 1, gl.RGBA32F, w, h, layers);
  } else {
    gl.texStorage2D(target, 1, gl.RGBA32F, w, h);
    if (data) gl.texSubImage2D(target, 0, 0, 0, w, h, gl.RGBA, gl.FLOAT, data);
  }
  gl.bindTexture(target, null);
  return t;
};

// A framebuffer writing `targets` ([texture, layer or -1]) to its attachments 0.. in order.
WebGLFftPlan.prototype._framebuffer = function (targets) {
  const gl = this.gl;
  const fb = this._own('framebuffer', gl.createFramebuffer());
  gl.bindFramebuffer(gl.DRAW_FRAMEBUFFER, fb);
  const buffers = targets.map(function (t, i) {
    if (t[1] < 0) gl.framebufferTexture2D(gl.DRAW_FRAMEBUFFER, gl.COLOR_ATTACHMENT0 + i, gl.TEXTURE_2D, t[0], 0);
    else gl.framebufferTextureLayer(gl.DRAW_FRAMEBUFFER, gl.COLOR_ATTACHMENT0 + i, t[0], 0, t[1]);
    return gl.COLOR_ATTACHMENT0 + i;
  });
  gl.drawBuffers(buffers);
  const status = gl.checkFramebufferStatus(gl.DRAW_FRAMEBUFFER);
  gl.bindFramebuffer(gl.DRAW_FRAMEBUFFER, null);
  if (status !== gl.FRAMEBUFFER_COMPLETE) {
    throw fail(lostOr(gl, 'a framebuffer of ' + targets.length + ' RGBA32F attachments is incomplete here (status ' + status + ')'));
  }
  return { fb: fb, attachments: targets.length };
};

// Storage for one copy of the data (see src/fft/stockham_plan/mod.rs's Buffer).
WebGLFftPlan.prototype._naturalBuffer = function (layout) {
  const re = this._texture(layout.width, layout.height, 0, null);
  const textures = [re];
  if (this._qf) textures.push(this._texture(layout.width, layout.height, 0, null));
  const all = this._framebuffer(textures.map(function (t) { return [t, -1]; }));
  const self = this;
  const parts = this._qf ? textures.map(function (t) { return self._framebuffer([[t, -1]]); }) : null;
  return { textures: textures, array: false, all: all, parts: parts, layout: layout, planes: 1 };
};

WebGLFftPlan.prototype._planesBuffer = function (layout, count) {
  const arr = this._texture(layout.width, layout.height, this._qf ? 8 : count, null);
  const layers = function (from) {
    const out = [];
    for (let i = 0; i < count; i++) out.push([arr, from + i]);
    return out;
  };
  let all;
  let parts = null;
  if (!this._qf) {
    all = this._framebuffer(layers(0));
  } else {
    // Real parts in layers 0.., imaginary parts in 4..: the shader's offset.
    parts = [this._framebuffer(layers(0)), this._framebuffer(layers(4))];
    all = this._twoPass ? parts[0] : this._framebuffer(layers(0).concat(layers(4)));
  }
  return { textures: [arr], array: true, all: all, parts: parts, layout: layout, planes: count };
};

WebGLFftPlan.prototype._allocate = function () {
  const gl = this.gl;
  this._vao = this._own('vertexArray', gl.createVertexArray());
  const layout = layoutOf(this._total);
  this._natural = [this._naturalBuffer(layout), this._naturalBuffer(layout)];
  this._front = 0;
  this._planes = {};
  const self = this;
  this._kinds.forEach(function (k) {
    if (k.outputs > 1 && !self._planes[k.outputs]) {
      const pl = layoutOf(self._total / k.outputs);
      self._planes[k.outputs] = [self._planesBuffer(pl, k.outputs), self._planesBuffer(pl, k.outputs)];
    }
  });
  this._twiddles = this._twiddleTextures();
};

// W_long as textures: complex df64 texels [re_hi, re_lo, im_hi, im_lo] (f32: high words only),
// or qf128 real and imaginary parts in two textures.
WebGLFftPlan.prototype._twiddleTextures = function () {
  const n = this._tableLength;
  let table;
  let words;
  if (this._qf) {
    table = wLong(n, baseFixed(n), [0n, 0n]);
    words = 4;
  } else {
    table = wLong(n, baseDouble(n), [0, 0]);
    words = this._words;
  }
  const layout = layoutOf(table.length);
  const texels = layout.width * layout.height;
  if (this._qf) {
    const re = new Float32Array(4 * texels);
    const im = new Float32Array(4 * texels);
    table.forEach(function (w, i) {
      re.set(wordsFromFixed(w[0], 4), 4 * i);
      im.set(wordsFromFixed(w[1], 4), 4 * i);
    });
    return {
      textures: [this._texture(layout.width, layout.height, 0, re), this._texture(layout.width, layout.height, 0, im)],
      log2Width: layout.log2Width,
    };
  }
  const data = new Float32Array(4 * texels);
  const pair = [0, 0];
  table.forEach(function (w, i) {
    splitDouble(w[0], 2, pair, 0);
    data[4 * i] = pair[0];
    data[4 * i + 1] = words === 2 ? pair[1] : 0;
    splitDouble(w[1], 2, pair, 0);
    data[4 * i + 2] = pair[0];
    data[4 * i + 3] = words === 2 ? pair[1] : 0;
  });
  return { textures: [this._texture(layout.width, layout.height, 0, data)], log2Width: layout.log2Width };
};

// The program key and its defines (src/fft/stockham_plan/programs.rs's build_programs).
WebGLFftPlan.prototype._programKey = function (kind, part) {
  return [this.precision, this._odd, kindKey(kind), kind.outputs, part || 0].join('/');
};

WebGLFftPlan.prototype._fragment = function (kind, part) {
  const defines = ['FFT_OUT_SLOTS ' + kind.outputs];
  if (kind.fromPlanes) defines.push('FFT_IN_PLANES 1');
  if (this._odd > 1) defines.push('FFT_ODD ' + this._odd);
  const d = PRECISIONS[this.precision].define;
  if (d) defines.push(d + ' 1');
  if (part) defines.push('FFT_PART ' + part);
  return '#version 300 es\n' + defines.map(function (x) { return '#define ' + x + '\n'; }).join('') +
    DF64_GLSL + (this._qf ? QF128_GLSL : '') + '\n' + FFT_GLSL.common + '\n' + FFT_GLSL[kind.pass];
};

// The plan's programs, compiled or shared with the context's other plans.
WebGLFftPlan.prototype._acquire = function (kinds) {
  const ctx = contextOf(this.gl);
  const self = this;
  kinds.forEach(function (kind) {
    const parts = self._twoPass ? [1, 2] : [0];
    const list = parts.map(function (part) {
      const key = self._programKey(kind, part);
      let entry = ctx.programs.get(key);
      if (!entry) {
        entry = compile(self.gl, self._fragment(kind, part), 'the ' + self.precision + ' ' + kind.pass +
          (kind.fromPlanes ? ' (planes in)' : '') + ' pass');
        entry.key = key;
        ctx.programs.set(key, entry);
      }
      return entry;
    });
    if (!self._programs[kindKey(kind) + '/' + kind.outputs]) {
      list.forEach(function (e) { e.users++; });
      self._programs[kindKey(kind) + '/' + kind.outputs] = list;
    }
  });
};

// The check of the routines the passes use, then each program's known-answer self-test.
WebGLFftPlan.prototype._prove = function (opts) {
  const gl = this.gl;
  const ctx = contextOf(gl);
  if (this.precision !== 'f32') {
    let verdict = ctx.checks[this.precision];
    if (!verdict) {
      provideCheckedAnswers();
      verdict = check(gl, {
        routines: CHECKED[this.precision], qf128: this._qf, stages: ['fragment'],
        storage: opts.storage, cache: opts.cache,
        // The text the passes compile (the check would otherwise import it, which a
        // synchronous call cannot wait for).
        qf128Glsl: this._qf ? QF128_GLSL : undefined,
      });
      if (verdict.pass) ctx.checks[this.precision] = verdict;
    }
    if (!verdict.pass) {
      throw fail('the ' + this.precision + ' routines the passes use failed the check on this context, so its spectra would be wrong: ' + verdict.reason);
    }
  }
  const self = this;
  this._axes.forEach(function (axis) {
    const mine = kindSet(axis.kinds);
    const key = [self.precision, self._odd, self._twoPass, mine].join('/');
    if (ctx.proven.get(key)) return;
    // The shortest 1-D transform that draws the axis's pass kinds (their programs do not
    // depend on the length or the stride): 96 points at most for radix 4.
    let small = self._odd << axis.log2;
    for (let m = 0; m < axis.log2; m++) {
      if (kindSet(passKinds(m, self._odd, self.radix)) === mine && (self._odd << m) >= 2) {
        small = self._odd << m;
        break;
      }
    }
    const test = small === self.length && self._axes.length === 1 ? self : new WebGLFftPlan(gl, {
      length: small, precision: self.precision, radix: self.radix, [SELFTEST]: true,
    });
    try {
      test._selftest();
    } finally {
      if (test !== self) test.dispose();
    }
    ctx.proven.set(key, true);
  });
};

// The distinct programs of a list of pass kinds, as one string.
function kindSet(kinds) {
  return kinds.map(function (k) { return kindKey(k) + '/' + k.outputs; })
    .filter(function (x, i, a) { return a.indexOf(x) === i; }).sort().join();
}

// Forward and inverse transforms of a fixed signal against the exact DFT (fixed point): the
// relative L2 error within the precision's bound, or an Error naming the pass kinds.
WebGLFftPlan.prototype._selftest = function () {
  const n = this.length;
  const x = selftestSignal(2 * n, this._words, 2007);
  const bound = PRECISIONS[this.precision].selftestBound;
  const self = this;
  [1, -1].forEach(function (sign) {
    const got = fixedWords(self._run(x, sign > 0 ? 'forward' : 'inverse'));
    const rel = exactDftError(x, got, sign);
    if (!(rel <= bound)) {
      throw fail('the ' + self.precision + ' passes (' + self._kinds.map(kindKey).join(', ') + ') computed a ' + n + '-point ' +
        (sign > 0 ? 'forward' : 'inverse') + ' transform with relative error ' + rel.toExponential(2) + ' (bound ' + bound +
        ') on this context: its compiler breaks them, so this plan will not run here');
    }
  });
};

WebGLFftPlan.prototype._usable = function () {
  if (this._disposed) throw fail('this plan was disposed: create a new one');
  if (!current(this.gl, this._context)) {
    throw fail('the WebGL context was lost' + (this.gl.isContextLost && this.gl.isContextLost() ? '' : ' since this plan was made') +
      ': create the plan again once the context is restored');
  }
};

// Stores `count` points in `buf`: part(i, out, at) writes the f32 words of part i (the real
// part of point i / 2 for even i, else its imaginary part) at out[at..].
WebGLFftPlan.prototype._storeParts = function (buf, count, part) {
  const layout = buf.layout;
  const texels = layout.width * layout.height;
  if (!this._qf) {
    const data = new Float32Array(4 * texels);
    const w = [0, 0];
    const two = this._words === 2;
    for (let i = 0; i < count; i++) {
      part(2 * i, w, 0);
      data[4 * i] = w[0];
      data[4 * i + 1] = two ? w[1] : 0;
      part(2 * i + 1, w, 0);
      data[4 * i + 2] = w[0];
      data[4 * i + 3] = two ? w[1] : 0;
    }
    this._put(buf.textures[0], layout, data);
  } else {
    const re = new Float32Array(4 * texels);
    const im = new Float32Array(4 * texels);
    for (let i = 0; i < count; i++) {
      part(2 * i, re, 4 * i);
      part(2 * i + 1, im, 4 * i);
    }
    this._put(buf.textures[0], layout, re);
    this._put(buf.textures[1], layout, im);
  }
};

// Stores x (block-scaled) in the front natural buffer.
WebGLFftPlan.prototype._upload = function (x) {
  const count = 2 * this.length * this.batch;
  const s = blockExponent(checkInput(x, count, 'the input'));
  const scale = scalerOf(-s);
  const per = this._words;
  this._storeParts(this._natural[this._front], count / 2, function (i, out, at) {
    splitDouble(scale(x[i]), per, out, at);
  });
  this._exponent = s;
  this._bound = 1;
  this._loaded = true;
};

// A constant factor kept on the GPU in the plan's layout (Bluestein's chirps and filters):
// `values` as doubles, or (`fixed`) as BigInt fixed-point numbers, re and im interleaved over
// every point of the plan; block-scaled like the data.
WebGLFftPlan.prototype._operand = function (values, fixed) {
  const buffer = this._naturalBuffer(this._natural[0].layout);
  const scaled = blockScaledParts(values, fixed, this._words);
  this._storeParts(buffer, values.length / 2, scaled.part);
  // Words below 1: complex magnitudes below 2^1.
  return { buffer: buffer, exponent: scaled.exponent, bound: 1 };
};

WebGLFftPlan.prototype._put = function (texture, layout, data) {
  const gl = this.gl;
  gl.activeTexture(gl.TEXTURE0);
  gl.bindTexture(gl.TEXTURE_2D, texture);
  gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, layout.width, layout.height, gl.RGBA, gl.FLOAT, data);
  gl.bindTexture(gl.TEXTURE_2D, null);
};

// The front buffer's words: per complex value `per` words (re words, then im words), and the
// block exponent.
WebGLFftPlan.prototype._download = function () {
  const gl = this.gl;
  const buf = this._natural[this._front];
  const layout = buf.layout;
  const texels = layout.width * layout.height;
  const count = this.length * this.batch;
  gl.bindFramebuffer(gl.READ_FRAMEBUFFER, buf.all.fb);
  const read = function (attachment) {
    const out = new Float32Array(4 * texels);
    gl.readBuffer(gl.COLOR_ATTACHMENT0 + attachment);
    gl.readPixels(0, 0, layout.width, layout.height, gl.RGBA, gl.FLOAT, out);
    return out;
  };
  const per = 2 * this._words;
  const words = new Float32Array(per * count);
  if (!this._qf) {
    const t = read(0);
    for (let i = 0; i < count; i++) {
      if (per === 2) {
        words[2 * i] = t[4 * i];
        words[2 * i + 1] = t[4 * i + 2];
      } else {
        words.set(t.subarray(4 * i, 4 * i + 4), 4 * i);
      }
    }
  } else {
    const re = read(0);
    const im = read(1);
    for (let i = 0; i < count; i++) {
      words.set(re.subarray(4 * i, 4 * i + 4), 8 * i);
      words.set(im.subarray(4 * i, 4 * i + 4), 8 * i + 4);
    }
  }
  gl.bindFramebuffer(gl.READ_FRAMEBUFFER, null);
  for (let i = 0; i < words.length; i++) {
    if (!Number.isFinite(words[i])) {
      throw fail('the transform produced a non-finite value at point ' + Math.floor(i / per) +
        ' (the data overflowed the words, or the context failed)');
    }
  }
  return { words: words, per: per, exponent: this._exponent };
};

// One transform of the front buffer along the rows (src/fft/stockham_plan/passes.rs's run_axis).
WebGLFftPlan.prototype._transform = function (direction) {
  const conj = direction === 'inverse' ? -1 : 1;
  const self = this;
  this._axes.forEach(function (axis) { self._transformAxis(axis, conj); });
};

// One transform along `axis` (conj -1: the inverse).
WebGLFftPlan.prototype._transformAxis = function (axis, conj) {
  const gl = this.gl;
  const l = axis.log2;
  const growth = l + (this._odd > 1 ? 2 : 0);
  if (this._bound + growth > HEADROOM_LOG2) this._rescale();
  // The last pass scales by 2^-shift (exact): about 1/sqrt(N) each way, the rest of the
  // inverse's 1/N in the exponent, so round trips neither grow nor shrink the words.
  const shift = conj > 0 ? Math.floor(l / 2) : Math.ceil(l / 2);
  this._exponent += conj > 0 ? Math.floor(l / 2) : -Math.floor(l / 2);
  this._bound += growth - shift;
  let src = { planes: 0, index: this._front, ls: 0 };
  let L = 1;
  const last = axis.kinds.length - 1;
  gl.bindVertexArray(this._vao);
  for (let i = 0; i < axis.kinds.length; i++) {
    const kind = axis.kinds[i];
    L *= kind.radix;
    src = this._pass(kind, src, L, conj, i === last ? Math.pow(2, -shift) : 1, null, axis);
  }
  if (src.planes) throw fail('internal: a transform ended in planes');
  this._front = src.index;
};

// One real-input pass (REAL_POST forward, REAL_PRE before the inverse) over the data: n/2
// packed values, the twiddles of n (src/fft/stockham_plan/passes.rs's real_post, real_pre).
WebGLFftPlan.prototype._realPass = function (kind) {
  this.gl.bindVertexArray(this._vao);
  const dst = this._pass(kind, { planes: 0, index: this._front, ls: 0 }, 1, kind === REAL_PRE ? -1 : 1, 1, null);
  this._front = dst.index;
  // At most twice the largest value.
  this._bound += 1;
};

// The data times `operand` ({buffer, exponent, bound}: another plan's data or a constant
// factor), element by element, on the GPU.
WebGLFftPlan.prototype._pointwise = function (operand) {
  this._ensurePointwise();
  this.gl.bindVertexArray(this._vao);
  const dst = this._pass(POINTWISE, { planes: 0, index: this._front, ls: 0 }, 1, 1, 1, operand.buffer);
  this._front = dst.index;
  this._exponent += operand.exponent;
  this._bound += operand.bound;
};

// The pointwise program, proven once per context (its own self-test: products of known words
// against their exact products).
WebGLFftPlan.prototype._ensurePointwise = function () {
  const key = kindKey(POINTWISE) + '/1';
  if (this._programs[key]) return;
  this._acquire([POINTWISE]);
  const ctx = contextOf(this.gl);
  const proven = [this.precision, this._odd, this._twoPass, 'pointwise'].join('/');
  if (this._selftestPlan || ctx.proven.get(proven)) return;
  const test = new WebGLFftPlan(this.gl, { length: this._odd * 4, precision: this.precision, [SELFTEST]: true });
  test._selftestPlan = true;
  try {
    test._selftestPointwise();
  } finally {
    test.dispose();
  }
  ctx.proven.set(proven, true);
};

WebGLFftPlan.prototype._selftestPointwise = function () {
  this._guarded(this._selftestPointwiseRun);
};

WebGLFftPlan.prototype._selftestPointwiseRun = function () {
  const n = this.length;
  const a = selftestSignal(2 * n, this._words, 11);
  const b = selftestSignal(2 * n, this._words, 12);
  this._upload(a);
  this._pointwise(this._operand(b, false));
  const got = fixedWords(this._download());
  let err = 0n;
  let ref = 0n;
  for (let k = 0; k < n; k++) {
    const ar = fixedFromDouble(a[2 * k]);
    const ai = fixedFromDouble(a[2 * k + 1]);
    const br = fixedFromDouble(b[2 * k]);
    const bi = fixedFromDouble(b[2 * k + 1]);
    const re = (ar * br - ai * bi) >> BigInt(FIXED_BITS);
    const im = (ar * bi + ai * br) >> BigInt(FIXED_BITS);
    err += (got[2 * k] - re) ** 2n + (got[2 * k + 1] - im) ** 2n;
    ref += re * re + im * im;
  }
  const rel = relativeError(err, ref);
  const bound = PRECISIONS[this.precision].selftestBound;
  if (!(rel <= bound)) {
    throw fail('the ' + this.precision + ' pointwise product computed known products with relative error ' +
      rel.toExponential(2) + ' (bound ' + bound + ') on this context: its compiler breaks it, so it will not run here');
  }
};

// Scales the words back to a largest word in [0.5, 1) through the host, word by word by a power
// of two (exact: the words keep every bit, qf128's 96 included, and the exponent takes the
// power). Rare: the tracked bound assumes the worst growth of every pass.
WebGLFftPlan.prototype._rescale = function () {
  const r = this._download();
  let max = 0;
  for (let i = 0; i < r.words.length; i++) max = Math.max(max, Math.abs(r.words[i]));
  const s = blockExponent(max);
  const scale = powerOfTwo(-s);
  const words = this._words;
  const per = r.per;
  this._storeParts(this._natural[this._front], r.words.length / per, function (i, out, at) {
    // Part i: point i >> 1, its re words then its im words.
    const from = (i >> 1) * per + (i & 1) * words;
    for (let k = 0; k < words; k++) out[at + k] = Math.fround(r.words[from + k] * scale);
  });
  this._exponent = r.exponent + s;
  this._bound = 1;
};

WebGLFftPlan.prototype._pass = function (kind, src, L, conj, scale, second, axis) {
  const gl = this.gl;
  const input = src.planes ? this._planes[src.planes][src.index] : this._natural[src.index];
  let dst;
  let out;
  if (kind.outputs > 1) {
    const pair = this._planes[kind.outputs];
    const next = src.planes === kind.outputs ? 1 - src.index : 0;
    dst = { planes: kind.outputs, index: next, ls: log2Exact(L / kind.outputs) };
    out = pair[next];
  } else {
    const next = src.planes ? 1 - this._front : 1 - src.index;
    dst = { planes: 0, index: next, ls: 0 };
    out = this._natural[next];
  }
  const programs = this._programs[kindKey(kind) + '/' + kind.outputs];
  const targets = programs.length === 2 ? out.parts : [out.all];
  for (let p = 0; p < programs.length; p++) {
    const prog = programs[p];
    const u = prog.uniforms;
    gl.bindFramebuffer(gl.DRAW_FRAMEBUFFER, targets[p].fb);
    gl.viewport(0, 0, out.layout.width, out.layout.height);
    gl.useProgram(prog.program);
    const int = function (name, v) { if (u[name]) gl.uniform1i(u[name], v); };
    const float = function (name, v) { if (u[name]) gl.uniform1f(u[name], v); };
    // The pointwise pass runs over the whole data as one axis; the real passes along the rows.
    const along = axis || this._axes[0];
    int('u_log2_n', kind === POINTWISE ? log2Exact(this._total / this._odd) : along.log2);
    int('u_log2_stride', kind === POINTWISE ? 0 : along.stride);
    int('u_log2_out_width', out.layout.log2Width);
    int('u_log2_in_width', input.layout.log2Width);
    int('u_in_log2_ls', src.ls);
    int('u_in_radix', input.planes);
    int('u_L', L);
    int('u_radix', 4);
    float('u_conj', conj);
    float('u_scale', scale);
    int('u_log2_twiddle_width', this._twiddles.log2Width);
    this._bind(0, 'u_in', u, input.textures[0], input.array);
    this._bind(1, 'u_in_im', u, input.textures[1] || null, false);
    this._bind(2, 'u_twiddle', u, this._twiddles.textures[0], false);
    this._bind(3, 'u_twiddle_im', u, this._twiddles.textures[1] || null, false);
    this._bind(4, 'u_in_b', u, second ? second.textures[0] : null, false);
    this._bind(5, 'u_in_b_im', u, second ? second.textures[1] || null : null, false);
    gl.drawArrays(gl.TRIANGLES, 0, 3);
  }
  return dst;
};

// Binds `texture` at `unit` for the sampler `name` (if the program has it); clears the other
// target, so no texture the pass writes stays bound where it samples.
WebGLFftPlan.prototype._bind = function (unit, name, uniforms, texture, array) {
  const gl = this.gl;
  gl.activeTexture(gl.TEXTURE0 + unit);
  gl.bindTexture(array ? gl.TEXTURE_2D : gl.TEXTURE_2D_ARRAY, null);
  gl.bindTexture(array ? gl.TEXTURE_2D_ARRAY : gl.TEXTURE_2D, uniforms[name] ? texture : null);
  if (uniforms[name]) gl.uniform1i(uniforms[name], unit);
};

// Runs `work` on a usable plan with the caller's state saved and put back (see _onContext).
WebGLFftPlan.prototype._guarded = function (work) {
  this._usable();
  return this._onContext(work, 'during the transform');
};

WebGLFftPlan.prototype._run = function (x, direction) {
  return this._guarded(function () {
    this._upload(x);
    this._transform(direction);
    return this._download();
  });
};

/** The spectrum of x (2 * length * batch numbers, re and im interleaved), as doubles. */
WebGLFftPlan.prototype.forward = function (x) { return toDoubles(this._run(x, 'forward')); };

/** The inverse transform of y, scaled by 1/length. */
WebGLFftPlan.prototype.inverse = function (y) { return toDoubles(this._run(y, 'inverse')); };

/** The spectrum's f32 words: 2 (f32), 4 (df64: re hi, lo, im hi, lo) or 8 (qf128) per point. */
WebGLFftPlan.prototype.forwardWords = function (x) { return toWords(this._run(x, 'forward')); };

/** The inverse transform's f32 words. */
WebGLFftPlan.prototype.inverseWords = function (y) { return toWords(this._run(y, 'inverse')); };

/** Loads x into the plan's textures (block-scaled), for execute and download. */
WebGLFftPlan.prototype.upload = function (x) { this._guarded(function () { this._upload(x); }); };

/** Transforms the data on the GPU in place: 'forward' or 'inverse'. */
WebGLFftPlan.prototype.execute = function (direction) {
  const d = directionOf(direction);
  this._guarded(function () {
    if (!this._loaded) throw fail('nothing uploaded: call upload(x) before execute()');
    this._transform(d);
  });
};

/** The data on the GPU, as doubles. */
WebGLFftPlan.prototype.download = function () {
  return toDoubles(this._guarded(function () {
    if (!this._loaded) throw fail('nothing uploaded: call upload(x) before download()');
    return this._download();
  }));
};

/** The data on the GPU, as their f32 words. */
WebGLFftPlan.prototype.downloadWords = function () {
  return toWords(this._guarded(function () {
    if (!this._loaded) throw fail('nothing uploaded: call upload(x) before downloadWords()');
    return this._download();
  }));
};

/**
 * The data on the GPU times `other`'s (a plan of the same length, batch and precision on the
 * same context, both uploaded), element by element: the frequency-domain step of a convolution.
 */
WebGLFftPlan.prototype.multiply = function (other) {
  if (!(other instanceof WebGLFftPlan) || other.gl !== this.gl || other.length !== this.length ||
    other.batch !== this.batch || other.precision !== this.precision || other._odd !== this._odd ||
    String(other.shape) !== String(this.shape)) {
    throw new TypeError('df64gl FFT: multiply takes a plan of the same length, batch and precision on the same context');
  }
  other._usable();
  this._guarded(function () {
    if (!this._loaded || !other._loaded) throw fail('nothing uploaded: call upload(x) on both plans before multiply()');
    this._pointwise({ buffer: other._natural[other._front], exponent: other._exponent, bound: other._bound });
  });
};

WebGLFftPlan.prototype._free = function () {
  const gl = this.gl;
  // A lost context took the plan's objects with it (deleting them on the restored context would
  // be an error of the caller's).
  if (!current(gl, this._context)) {
    this._objects = [];
    this._programs = {};
    return;
  }
  this._objects.reverse().forEach(function (it) {
    if (it[0] === 'texture') gl.deleteTexture(it[1]);
    else if (it[0] === 'framebuffer') gl.deleteFramebuffer(it[1]);
    else if (it[0] === 'vertexArray') gl.deleteVertexArray(it[1]);
  });
  this._objects = [];
  const ctx = contextOf(gl);
  const programs = this._programs;
  Object.keys(programs).forEach(function (k) {
    programs[k].forEach(function (e) {
      e.users--;
      if (e.users <= 0 && ctx.programs.get(e.key) === e) {
        gl.deleteProgram(e.program);
        ctx.programs.delete(e.key);
      }
    });
  });
  this._programs = {};
};

/** Frees the plan's textures, framebuffers and (when no other plan uses them) programs. */
WebGLFftPlan.prototype.dispose = function () {
  if (this._disposed) return;
  this._disposed = true;
  this._free();
};
