// real.js: the real-input FFT on the Stockham passes (the native engine's
// src/fft/real_plan.rs): n reals packed as n/2 complex values z_k = x_2k + i x_2k+1, an
// n/2-point transform, and one more pass (stockham_real_post.glsl) that separates the even and
// odd halves into the n/2 + 1 bins X_0 .. X_(n/2) (the others are their conjugates). The
// inverse runs the same way back (stockham_real_pre.glsl, then the inverse transform).

import { REAL_POST, REAL_PRE, checkInput, directionOf, fail, toDoubles, toWords } from './host.js';

/**
 * A plan of `n` reals a row over `inner`, a complex plan of n/2 points whose twiddle table
 * serves n (see webgl.js's createFft). forward(x): n reals a row to n/2 + 1 bins a row (re,
 * im interleaved); inverse(bins): back to the n reals (with 1/n).
 */

// What the WebGL and the WebGPU real-input plans share (their prototypes' base): the bins
// packed and unpacked, the reals' checks, the product of two spectra.
export function RealBase() {}

export function RealFft(inner, n) {
  this.gl = inner.gl;
  this.length = n;
  this.batch = inner.batch;
  this.precision = inner.precision;
  this.radix = inner.radix;
  this.real = true;
  this.passes = inner.passes + 1;
  this._inner = inner;
  this._disposed = false;
  // What the GPU holds after upload or execute: 'reals' or 'bins'.
  this._holds = null;
}
Object.setPrototypeOf(RealFft.prototype, RealBase.prototype);

// Rows of n/2 + 1 bins to rows of n/2 packed values: bin 0 carries X_0 in re and X_(n/2) in
// im, whose imaginary parts must be 0 (the spectrum of reals).
RealBase.prototype._packBins = function (bins) {
  const n = this.length;
  const m = n / 2;
  checkInput(bins, (m + 1) * 2 * this.batch, 'the bins');
  const out = new Float64Array(n * this.batch);
  for (let row = 0; row < this.batch; row++) {
    const at = 2 * (m + 1) * row;
    [0, m].forEach(function (bin) {
      if (bins[at + 2 * bin + 1] !== 0) {
        throw new RangeError('df64gl FFT: bin ' + bin + ' of row ' + row + ' has the imaginary part ' + bins[at + 2 * bin + 1] +
          ': bins 0 and n/2 of a real signal are real (pass the n/2 + 1 bins of forward())');
      }
    });
    out[n * row] = bins[at];
    out[n * row + 1] = bins[at + 2 * m];
    for (let i = 2; i < n; i++) out[n * row + i] = bins[at + i];
  }
  return out;
};

// A download of packed bins as rows of n/2 + 1 bins.
RealBase.prototype._unpackBins = function (result) {
  const m = this.length / 2;
  const per = result.per;
  const half = per / 2;
  const words = new Float32Array(per * (m + 1) * this.batch);
  for (let row = 0; row < this.batch; row++) {
    const src = result.words.subarray(per * m * row, per * m * (row + 1));
    const at = per * (m + 1) * row;
    // X_0 = (re of bin 0, 0); X_1 .. X_(m-1) as they are; X_m = (im of bin 0, 0).
    words.set(src.subarray(0, half), at);
    words.set(src.subarray(per, per * m), at + per);
    words.set(src.subarray(half, per), at + per * m);
  }
  return { words: words, per: per, exponent: result.exponent };
};

RealFft.prototype._usable = function () {
  if (this._disposed) throw fail('this plan was disposed: create a new one');
  this._inner._usable();
};

RealFft.prototype._apply = function (direction) {
  const inner = this._inner;
  if (direction === 'forward') {
    inner._transform('forward');
    inner._realPass(REAL_POST);
    this._holds = 'bins';
  } else {
    inner._realPass(REAL_PRE);
    inner._transform('inverse');
    this._holds = 'reals';
  }
};

RealFft.prototype._result = function (inner) {
  const r = inner._download();
  // Packed reals (n/2 complex values a row) read part by part are the n reals as they stand.
  return this._holds === 'bins' ? this._unpackBins(r) : r;
};

RealFft.prototype._run = function (x, direction) {
  this._usable();
  const packed = direction === 'forward' ? this._reals(x) : this._packBins(x);
  const self = this;
  return this._inner._guarded(function () {
    this._upload(packed);
    self._apply(direction);
    return self._result(this);
  });
};

RealBase.prototype._reals = function (x) {
  // The n reals of a row are the n/2 packed values, re and im interleaved, as they stand.
  checkInput(x, this.length * this.batch, 'the reals');
  return x;
};

/** n reals a row to the n/2 + 1 bins a row. */
RealFft.prototype.forward = function (x) { return toDoubles(this._run(x, 'forward')); };
/** n/2 + 1 bins a row back to the n reals (with 1/n). */
RealFft.prototype.inverse = function (bins) { return toDoubles(this._run(bins, 'inverse')); };
RealFft.prototype.forwardWords = function (x) { return toWords(this._run(x, 'forward')); };
RealFft.prototype.inverseWords = function (bins) { return toWords(this._run(bins, 'inverse')); };
/** Loads reals (n a row) or bins (n/2 + 1 a row: the length says which). */
RealFft.prototype.upload = function (data) {
  this._usable();
  const bins = data && data.length === (this.length + 2) * this.batch;
  const packed = bins ? this._packBins(data) : this._reals(data);
  const self = this;
  this._inner._guarded(function () {
    this._upload(packed);
    self._holds = bins ? 'bins' : 'reals';
  });
};
/** 'forward' takes reals to bins, 'inverse' bins to reals. */
RealFft.prototype.execute = function (direction) {
  this._usable();
  directionOf(direction);
  const wants = direction === 'forward' ? 'reals' : 'bins';
  if (this._holds !== wants) {
    throw fail(this._holds === null ? 'nothing uploaded: call upload(x) before execute()'
      : 'the ' + direction + ' real transform takes ' + wants + ' and the plan holds ' + this._holds);
  }
  const self = this;
  this._inner._guarded(function () { self._apply(direction); });
};
RealFft.prototype._downloaded = function () {
  this._usable();
  if (this._holds === null) throw fail('nothing uploaded: call upload(x) before download()');
  const self = this;
  return this._inner._guarded(function () { return self._result(this); });
};
RealFft.prototype.download = function () { return toDoubles(this._downloaded()); };
RealFft.prototype.downloadWords = function () { return toWords(this._downloaded()); };
RealBase.prototype.multiply = function () {
  throw new TypeError('df64gl FFT: multiply is for complex plans: transform the reals as complex values to convolve them');
};
RealFft.prototype.dispose = function () {
  if (this._disposed) return;
  this._disposed = true;
  this._inner.dispose();
};
