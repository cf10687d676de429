// bluestein.js: every length that is not 2^k or 3 * 2^k, through Bluestein's chirp-z as a
// circular convolution of power-of-two length m >= 2n - 1 on the Stockham passes (the native
// engine's src/fft/bluestein.rs), with nk = (n^2 + k^2 - (k - n)^2) / 2:
//
//   X_k = w_k sum_j (x_j w_j) conj(w_(k-j)),  w_j = exp(-i pi j^2 / n)  (forward),
//
// all on the GPU: the data times the chirp, a forward transform of m points, the product with
// the filter (the transform of conj(w) over the m points, with 1/n for the inverse), an inverse
// transform, the chirp again. The chirp index j^2 mod 2n is exact; chirp and filter come from
// doubles for f32 and df64 plans (53 bits against df64's 48) and from 200-bit fixed point for
// qf128 (its filter transformed by the qf128 passes themselves, proven by then).

import { checkInput, directionOf, fail, toDoubles, toWords } from './host.js';
import { unitRootsFixed, baseDouble } from './words.js';

// What the WebGL and the WebGPU Bluestein plans share (their prototypes' base): the input padded
// to the inner plan's length and the result cut back to n points.
export function BluesteinBase() {}

/**
 * A plan of `n` points (any length) over `inner`, a power-of-two plan of m >= 2n - 1 points
 * and the same batch (see webgl.js's WebGLFftPlan for the methods' contracts).
 */
export function BluesteinFft(inner, n, batch) {
  this.gl = inner.gl;
  this.length = n;
  this.batch = batch;
  this.precision = inner.precision;
  this.radix = inner.radix;
  // Two transforms of m points and three products.
  this.passes = 2 * inner.passes + 3;
  this._inner = inner;
  this._m = inner.length;
  this._factors = {};
  this._disposed = false;
}
Object.setPrototypeOf(BluesteinFft.prototype, BluesteinBase.prototype);

// The chirp exp(sign i pi j^2 / n) for j < n as [re, im] doubles, the quarter turns taken off
// in integers (src/fft/twiddle.rs's chirp_f64): each factor within about an f64 ulp.
export function chirpDouble(n, sign) {
  const out = [];
  for (let j = 0; j < n; j++) {
    const r = (j * j) % (2 * n); // j^2 < 2^53: exact
    const q = Math.floor((4 * r + n) / (2 * n));
    const r2 = 2 * r - q * n;
    const phi = Math.PI * (r2 / (2 * n));
    const s = Math.sin(phi);
    const c = Math.cos(phi);
    let cos;
    let sin;
    switch (q & 3) {
      case 0: cos = c; sin = s; break;
      case 1: cos = -s; sin = c; break;
      case 2: cos = -c; sin = -s; break;
      default: cos = s; sin = -c; break;
    }
    out.push([cos, sign * sin]);
  }
  return out;
}

// The same chirp in fixed point: w_j = exp(sign 2 pi i r / 2n), r = j^2 mod 2n, from the
// 2n-th roots of unity.
export function chirpFixed(n, sign) {
  const roots = unitRootsFixed(2 * n, 2 * n);
  const out = [];
  for (let j = 0; j < n; j++) {
    const r = Number((BigInt(j) * BigInt(j)) % BigInt(2 * n));
    out.push([roots[r][0], sign > 0 ? roots[r][1] : -roots[r][1]]);
  }
  return out;
}

// The forward transform of m points (a power of two) of interleaved doubles, in place:
// iterative radix 2 with twiddles from the octant table (about 1e-16 relative).
export function fftDouble(v, m) {
  const w = baseDouble(m);
  const bits = Math.round(Math.log2(m));
  for (let i = 0; i < m; i++) {
    let r = 0;
    for (let b = 0; b < bits; b++) r |= ((i >> b) & 1) << (bits - 1 - b);
    if (r > i) {
      let t = v[2 * i]; v[2 * i] = v[2 * r]; v[2 * r] = t;
      t = v[2 * i + 1]; v[2 * i + 1] = v[2 * r + 1]; v[2 * r + 1] = t;
    }
  }
  for (let len = 2; len <= m; len *= 2) {
    const step = m / len;
    const half = len / 2;
    for (let start = 0; start < m; start += len) {
      for (let j = 0; j < half; j++) {
        const c = w[j * step][0];
        const s = w[j * step][1];
        const a = 2 * (start + j);
        const b = 2 * (start + j + half);
        const tr = c * v[b] - s * v[b + 1];
        const ti = c * v[b + 1] + s * v[b];
        v[b] = v[a] - tr;
        v[b + 1] = v[a + 1] - ti;
        v[a] += tr;
        v[a + 1] += ti;
      }
    }
  }
}

// The chirp and the filter of one direction as operands of the inner plan (over every row).
BluesteinFft.prototype._factorsOf = function (direction) {
  if (this._factors[direction]) return this._factors[direction];
  const inner = this._inner;
  const n = this.length;
  const m = this._m;
  const total = inner._total;
  const sign = direction === 'inverse' ? 1 : -1;
  let chirp;
  let filter;
  if (inner.precision !== 'qf128') {
    const w = chirpDouble(n, sign);
    const c = new Float64Array(2 * total);
    for (let row = 0; row < total / m; row++) {
      for (let j = 0; j < n; j++) {
        c[2 * (row * m + j)] = w[j][0];
        c[2 * (row * m + j) + 1] = w[j][1];
      }
    }
    chirp = inner._operand(c, false);
    const b = new Float64Array(2 * m);
    const scale = direction === 'inverse' ? 1 / n : 1;
    for (let j = 0; j < n; j++) {
      b[2 * j] = w[j][0];
      b[2 * j + 1] = -w[j][1];
      if (j > 0) {
        b[2 * (m - j)] = w[j][0];
        b[2 * (m - j) + 1] = -w[j][1];
      }
    }
    fftDouble(b, m);
    const f = new Float64Array(2 * total);
    for (let row = 0; row < total / m; row++) {
      for (let i = 0; i < 2 * m; i++) f[2 * row * m + i] = b[i] * scale;
    }
    filter = inner._operand(f, false);
  } else {
    const w = chirpFixed(n, sign);
    const c = new Array(2 * total).fill(0n);
    for (let row = 0; row < total / m; row++) {
      for (let j = 0; j < n; j++) {
        c[2 * (row * m + j)] = w[j][0];
        c[2 * (row * m + j) + 1] = w[j][1];
      }
    }
    chirp = inner._operand(c, true);
    // conj(w) (over n for the inverse) on every row, transformed by the proven qf128 passes.
    const b = new Array(2 * total).fill(0n);
    const div = direction === 'inverse' ? BigInt(n) : 1n;
    for (let row = 0; row < total / m; row++) {
      for (let j = 0; j < n; j++) {
        const re = w[j][0] / div;
        const im = -w[j][1] / div;
        b[2 * (row * m + j)] = re;
        b[2 * (row * m + j) + 1] = im;
        if (j > 0) {
          b[2 * (row * m + m - j)] = re;
          b[2 * (row * m + m - j) + 1] = im;
        }
      }
    }
    const spare = inner._operand(b, true);
    // The filter's transform runs in the inner plan's own buffers; its result becomes the operand.
    // The data (if any) stay in `kept`; the result's buffer leaves the plan as the filter and
    // the spare takes its place.
    const front = inner._front;
    const kept = inner._natural[front];
    const other = inner._natural[1 - front];
    const state = [inner._exponent, inner._bound, inner._loaded];
    inner._natural[front] = spare.buffer;
    inner._exponent = spare.exponent;
    inner._bound = spare.bound;
    inner._transform('forward');
    const result = inner._natural[inner._front];
    filter = { buffer: result, exponent: inner._exponent, bound: inner._bound };
    inner._natural[front] = kept;
    inner._natural[1 - front] = result === spare.buffer ? other : spare.buffer;
    inner._front = front;
    inner._exponent = state[0];
    inner._bound = state[1];
    inner._loaded = state[2];
  }
  this._factors[direction] = { chirp: chirp, filter: filter };
  return this._factors[direction];
};

// The Bluestein steps on the data in the inner plan.
BluesteinFft.prototype._apply = function (direction) {
  const inner = this._inner;
  const f = this._factorsOf(direction);
  inner._pointwise(f.chirp);
  inner._transform('forward');
  inner._pointwise(f.filter);
  inner._transform('inverse');
  inner._pointwise(f.chirp);
};

// x (n points a row) padded with zeros to m a row.
BluesteinBase.prototype._padded = function (x) {
  const n = this.length;
  const m = this._m;
  checkInput(x, 2 * n * this.batch, 'the input');
  const out = new Float64Array(2 * m * this.batch);
  for (let row = 0; row < this.batch; row++) {
    for (let i = 0; i < 2 * n; i++) out[2 * row * m + i] = x[2 * row * n + i];
  }
  return out;
};

// The first n points of each row of a download.
BluesteinBase.prototype._cut = function (result) {
  const n = this.length;
  const m = this._m;
  const per = result.per;
  const words = new Float32Array(per * n * this.batch);
  for (let row = 0; row < this.batch; row++) {
    words.set(result.words.subarray(per * row * m, per * (row * m + n)), per * row * n);
  }
  return { words: words, per: per, exponent: result.exponent };
};

BluesteinFft.prototype._usable = function () {
  if (this._disposed) throw fail('this plan was disposed: create a new one');
  this._inner._usable();
};

BluesteinFft.prototype._run = function (x, direction) {
  this._usable();
  const padded = this._padded(x);
  const self = this;
  return this._inner._guarded(function () {
    this._upload(padded);
    self._apply(direction);
    return self._cut(this._download());
  });
};

BluesteinFft.prototype.forward = function (x) { return toDoubles(this._run(x, 'forward')); };
BluesteinFft.prototype.inverse = function (y) { return toDoubles(this._run(y, 'inverse')); };
BluesteinFft.prototype.forwardWords = function (x) { return toWords(this._run(x, 'forward')); };
BluesteinFft.prototype.inverseWords = function (y) { return toWords(this._run(y, 'inverse')); };
BluesteinFft.prototype.upload = function (x) {
  this._usable();
  const padded = this._padded(x);
  this._inner._guarded(function () { this._upload(padded); });
};
BluesteinFft.prototype.execute = function (direction) {
  this._usable();
  const d = directionOf(direction);
  const self = this;
  this._inner._guarded(function () {
    if (!this._loaded) throw fail('nothing uploaded: call upload(x) before execute()');
    self._apply(d);
  });
};
BluesteinFft.prototype._downloaded = function () {
  this._usable();
  const self = this;
  return this._inner._guarded(function () {
    if (!this._loaded) throw fail('nothing uploaded: call upload(x) before download()');
    return self._cut(this._download());
  });
};
BluesteinFft.prototype.download = function () { return toDoubles(this._downloaded()); };
BluesteinFft.prototype.downloadWords = function () { return toWords(this._downloaded()); };
BluesteinFft.prototype.multiply = function () {
  throw new TypeError('df64gl FFT: multiply is for plans of 2^k and 3 * 2^k points (this one runs ' + this.length +
    ' points through Bluestein on ' + this._m + '): zero-pad the convolution to such a length');
};
BluesteinFft.prototype.dispose = function () {
  if (this._disposed) return;
  this._disposed = true;
  this._inner.dispose();
};

