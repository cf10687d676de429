// What the FFT comparison pages (fft.html: WebGL 2; fft-webgpu.html: WebGPU) share: fft.js
// loaded from js/node_modules, the median, the relative L2 error, the seeded signal, timing
// and fft.js's 2-D transform.

// fft.js (CommonJS) run with a module object of our own.
export function loadFftJs() {
  const x = new XMLHttpRequest();
  x.open('GET', '../node_modules/fft.js/lib/fft.js', false);
  x.send();
  if (x.status !== 200) throw new Error('fft.js is not installed: npm install in js/');
  const module = { exports: {} };
  new Function('module', 'exports', x.responseText)(module, module.exports);
  return module.exports;
}

export function median(v) {
  const s = v.slice().sort(function (a, b) { return a - b; });
  return s[Math.floor(s.length / 2)];
}

export function relL2(got, want) {
  let e = 0;
  let r = 0;
  for (let i = 0; i < want.length; i++) {
    e += (got[i] - want[i]) * (got[i] - want[i]);
    r += want[i] * want[i];
  }
  return Math.sqrt(e / r);
}

// `count` numbers in [-1/2, 1/2) from a fixed linear congruential sequence.
export function signal(count) {
  const x = new Float64Array(count);
  let s = 2007;
  for (let i = 0; i < count; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    x[i] = s / 4294967296 - 0.5;
  }
  return x;
}

// The median time of `reps` calls of f after one warm-up, and f's last value.
export function timed(f, reps) {
  const times = [];
  let v = null;
  for (let r = 0; r <= reps; r++) {
    const t0 = performance.now();
    v = f();
    if (r > 0) times.push(performance.now() - t0);
  }
  return { ms: median(times), value: v };
}

// The same for an async f (each call awaited).
export async function timedAsync(f, reps) {
  const times = [];
  let v = null;
  for (let r = 0; r <= reps; r++) {
    const t0 = performance.now();
    v = await f();
    if (r > 0) times.push(performance.now() - t0);
  }
  return { ms: median(times), value: v };
}

// fft.js's 2-D transform of a row-major h x w image (re, im interleaved): rows, then columns,
// with fft.js plans of w and h points made once by the caller.
export function fftJs2d(rowsPlan, colsPlan, x, h, w) {
  const y = new Float64Array(2 * h * w);
  const line = rowsPlan.createComplexArray();
  for (let r = 0; r < h; r++) {
    rowsPlan.transform(line, Array.prototype.slice.call(x, 2 * r * w, 2 * (r + 1) * w));
    y.set(line, 2 * r * w);
  }
  const col = new Array(2 * h);
  const res = colsPlan.createComplexArray();
  for (let k = 0; k < w; k++) {
    for (let r = 0; r < h; r++) { col[2 * r] = y[2 * (r * w + k)]; col[2 * r + 1] = y[2 * (r * w + k) + 1]; }
    colsPlan.transform(res, col);
    for (let r = 0; r < h; r++) { y[2 * (r * w + k)] = res[2 * r]; y[2 * (r * w + k) + 1] = res[2 * r + 1]; }
  }
  return y;
}
