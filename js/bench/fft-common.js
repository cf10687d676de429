// What the FFT comparison pages (fft.html: WebGL 2; fft-webgpu.html: WebGPU) share: fft.js
// loaded from js/node_modules, the median, the relative L2 error, and the seeded signal.

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
