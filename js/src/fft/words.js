// words.js: the host side of the browser FFT's numbers: doubles to the f32 words each
// precision stores, exact fixed-point arithmetic on BigInt (2^-FIXED_BITS) for the qf128
// twiddles and for the plans' known-answer self-tests, and the twiddle table in Thall's W_long
// layout (the native engine's src/fft/twiddle.rs, step for step).

/** Fraction bits of the fixed-point numbers: far below qf128's 2^-96. */
export const FIXED_BITS = 200;
const F = BigInt(FIXED_BITS);
const ONE = 1n << F;

// pi to 256 bits (hex digits of its fraction after 3).
const PI_HEX = '3243f6a8885a308d313198a2e03707344a4093822299f31d0082efa98ec4e6c89452821e638d01377be5466cf34e90c6cc0ac29b7c97c50dd3f84d5b5b5470917';
const PI_FIXED = BigInt('0x' + PI_HEX.slice(0, 66)) >> (65n * 4n - F);

const F64 = new DataView(new ArrayBuffer(8));

/** x exactly as a fixed-point BigInt (bits below 2^-FIXED_BITS dropped). */
export function fixedFromDouble(x) {
  if (x === 0) return 0n;
  F64.setFloat64(0, x);
  const hi = F64.getUint32(0);
  const lo = F64.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e;
  if (biased === 0) {
    e = -1074;
  } else {
    mant |= 1n << 52n;
    e = biased - 1075;
  }
  const s = e + FIXED_BITS;
  const v = s >= 0 ? mant << BigInt(s) : mant >> BigInt(-s);
  return x < 0 ? -v : v;
}

/** The f32 nearest to v 2^-FIXED_BITS (ties to even), as a double; 0 for 0. */
export function f32FromFixed(v) {
  if (v === 0n) return 0;
  const neg = v < 0n;
  const a = neg ? -v : v;
  const bits = a.toString(2).length;
  const shift = bits - 24;
  let m;
  if (shift > 0) {
    const sh = BigInt(shift);
    m = a >> sh;
    const rem = a - (m << sh);
    const half = 1n << (sh - 1n);
    if (rem > half || (rem === half && (m & 1n) === 1n)) m += 1n;
  } else {
    m = a << BigInt(-shift);
  }
  const r = Number(m) * Math.pow(2, shift - FIXED_BITS);
  return neg ? -r : r;
}

/** The first `count` f32 words of a fixed-point number: each the nearest f32 of what is left. */
export function wordsFromFixed(v, count) {
  const out = [];
  let rest = v;
  for (let k = 0; k < count; k++) {
    const w = f32FromFixed(rest);
    out.push(w);
    rest -= fixedFromDouble(w);
  }
  return out;
}

/** (cos t, sin t) of a fixed-point angle, by their Taylor series (any |t| <= pi). */
export function sinCosFixed(t) {
  let cos = 0n;
  let sin = 0n;
  let term = ONE; // t^k / k!
  for (let k = 0; term !== 0n; k++) {
    switch (k & 3) {
      case 0: cos += term; break;
      case 1: sin += term; break;
      case 2: cos -= term; break;
      default: sin -= term; break;
    }
    term = ((term * t) >> F) / BigInt(k + 1);
  }
  return [cos, sin];
}

/** (cos, sin)(2 pi j / n) for j = 0..count-1 in fixed point, by a rotation recurrence from the
 * series of 2 pi / n (each step off by about 2^-200: far below qf128's words). */
export function unitRootsFixed(n, count) {
  const step = sinCosFixed((2n * PI_FIXED) / BigInt(n));
  const out = [];
  let c = ONE;
  let s = 0n;
  for (let j = 0; j < count; j++) {
    out.push([c, s]);
    const c2 = (c * step[0] - s * step[1]) >> F;
    s = (c * step[1] + s * step[0]) >> F;
    c = c2;
  }
  return out;
}

/** w_n^j = (cos, -sin)(2 pi j / n) for j < n/2 from the first octant's values octant(j),
 * j <= n/8, by the symmetries (as src/fft/twiddle.rs's unfold: each factor as good as the
 * octant's). `neg` negates a value. */
function unfold(n, octant, neg) {
  const half = n >> 1;
  const out = new Array(half);
  if (n < 8) {
    for (let j = 0; j < half; j++) {
      const cs = octant(j);
      out[j] = [cs[0], neg(cs[1])];
    }
    return out;
  }
  const eighth = n >> 3;
  const quarter = n >> 2;
  const first = [];
  for (let j = 0; j <= eighth; j++) first.push(octant(j));
  const quarterTurn = function (k) {
    if (k <= eighth) return first[k];
    const cs = first[quarter - k];
    return [cs[1], cs[0]];
  };
  for (let j = 0; j < half; j++) {
    let cs;
    if (j <= quarter) {
      cs = quarterTurn(j);
    } else {
      const r = quarterTurn(half - j);
      cs = [neg(r[0]), r[1]];
    }
    out[j] = [cs[0], neg(cs[1])];
  }
  return out;
}

/** The base table w_n^j, j < n/2, as [re, im] doubles (f32 and df64 plans: about 2^-53). */
export function baseDouble(n) {
  return unfold(n, function (j) {
    const t = (2 * Math.PI * j) / n;
    return [Math.cos(t), Math.sin(t)];
  }, function (x) { return -x; });
}

/** The same table in fixed point (qf128 plans). */
export function baseFixed(n) {
  const count = n < 8 ? n >> 1 : (n >> 3) + 1;
  let roots = null;
  return unfold(n, function (j) {
    if (roots === null) roots = unitRootsFixed(n, count);
    return roots[j];
  }, function (x) { return -x; });
}

/** Thall's W_long for a transform of n = odd 2^k points (src/fft/twiddle.rs's w_long_mixed):
 * w_L^j at index L/2 + j - 1 for the powers of two L <= 2^k, then for odd > 1 w_n^j (j < n/2)
 * from index 2^k - 1; padded with `fill` to a power of two. */
export function wLong(n, base, fill) {
  const p = 1 << Math.log2(n & -n);
  const out = [];
  const upTo = p === n ? n : p - 1;
  for (let i = 0; i < Math.max(upTo, 1); i++) out.push(fill);
  for (let l = 2; l <= p; l *= 2) {
    const half = l >> 1;
    for (let j = 0; j < half; j++) out[half + j - 1] = base[j * (n / l)];
  }
  if (p !== n) {
    out.length = p - 1;
    for (let j = 0; j < n >> 1; j++) out.push(base[j]);
  }
  let size = 1;
  while (size < out.length) size *= 2;
  while (out.length < size) out.push(fill);
  return out;
}

/** The f32 words of a double: 1 (f32), 2 (df64: about 48 bits) or 4 (qf128: the double exactly,
 * in three words, and a zero). */
export function splitDouble(x, words, out, at) {
  const hi = Math.fround(x);
  out[at] = hi;
  if (words === 1) return;
  const mid = Math.fround(x - hi);
  out[at + 1] = mid;
  if (words === 2) return;
  out[at + 2] = x - hi - mid; // exact: 53 - 48 bits are left
  out[at + 3] = 0;
}

// ------------------------------------------------------------------ powers of two

/** 2^e for an integer e in [-1074, 1023], from its bits (Math.pow's result is not promised
 * exact, and 2^e outside that range is no double). */
export function powerOfTwo(e) {
  if (e > 1023) return Infinity;
  if (e < -1074) return 0;
  if (e >= -1022) {
    F64.setUint32(0, (e + 1023) << 20);
    F64.setUint32(4, 0);
  } else if (e >= -1042) {
    // Subnormal: the one set bit in the high word's 20 fraction bits.
    F64.setUint32(0, 1 << (e + 1042));
    F64.setUint32(4, 0);
  } else {
    F64.setUint32(0, 0);
    F64.setUint32(4, 2 ** (e + 1074));
  }
  return F64.getFloat64(0);
}

/** The e with 2^e <= |x| < 2^(e+1), exactly (subnormals included); -Infinity for 0. */
export function exponentOf(x) {
  if (x === 0) return -Infinity;
  F64.setFloat64(0, x);
  const biased = (F64.getUint32(0) >>> 20) & 0x7ff;
  if (biased !== 0) return biased - 1023;
  // Subnormal: its leading bit's place.
  const hi = F64.getUint32(0) & 0xfffff;
  const lo = F64.getUint32(4);
  return hi !== 0 ? (31 - Math.clz32(hi)) - 1042 : (31 - Math.clz32(lo)) - 1074;
}

/** x 2^e rounded once (ties to even), for any integer e: x's product with powers of two that
 * are doubles, the intermediate kept exact (the C library's ldexp). Overflows to +-Infinity and
 * underflows through the subnormals to +-0 as one rounding of the exact product would. */
export function ldexp(x, e) {
  if (x === 0 || !Number.isFinite(x) || e === 0) return x;
  let v = x;
  let k = e;
  if (k > 0) {
    // Growing: every step is exact until the result overflows, which is then the answer.
    while (k > 1023) {
      v *= powerOfTwo(1023);
      k -= 1023;
      if (!Number.isFinite(v)) return v;
    }
    return v * powerOfTwo(k);
  }
  // Shrinking: exact steps down to the smallest normal (2^-1022), then one rounding step.
  while (k < 0) {
    const room = -1022 - exponentOf(v);
    if (room >= 0) break;
    const step = Math.max(k, room, -1022);
    v *= powerOfTwo(step);
    k -= step;
  }
  // |v| < 2^-1021 here when k < 0: below 2^-1074 of it the product rounds to a signed 0.
  return k === 0 ? v : k < -1074 ? v * 0 : v * powerOfTwo(k);
}
