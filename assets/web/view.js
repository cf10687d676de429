// df64gl web pages: what the WebGL 2 page (page.js) and the WebGPU page (webgpu.js) share, the
// view of the Mandelbrot set and its controls. `df64gl web` puts this file before the page's
// own script in the same inline module. Nothing here draws: each page passes its `draw`.

// ------------------------------------------------------------------ exact numbers
// The center is a binary fixed-point BigInt with FRAC fraction bits: decimal strings go in and
// come out exactly, pans add exact multiples of the pixel size, and the f32 words the shader
// gets are split from it exactly (JavaScript's doubles alone stop at 53 bits).
const VIEW_FRAC = 400;
const VIEW_FRAC_N = BigInt(VIEW_FRAC);
const VIEW_TWO_FRAC = Math.pow(2, VIEW_FRAC);

function parseDecimal(text) {
  const m = /^\s*([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$/.exec(text);
  if (!m || (m[2] === '' && !m[3])) return null;
  const e10 = (m[4] ? parseInt(m[4], 10) : 0) - (m[3] ? m[3].length : 0);
  if (Math.abs(e10) > 300) return null;
  let v = BigInt((m[2] || '') + (m[3] || '')) << VIEW_FRAC_N;
  if (e10 >= 0) {
    v *= 10n ** BigInt(e10);
  } else {
    const d = 10n ** BigInt(-e10);
    v = (v + d / 2n) / d;
  }
  return m[1] === '-' ? -v : v;
}

function toDecimal(v, digits) {
  const neg = v < 0n;
  if (neg) v = -v;
  const q = (v * 10n ** BigInt(digits) + (1n << (VIEW_FRAC_N - 1n))) >> VIEW_FRAC_N;
  let s = q.toString().padStart(digits + 1, '0');
  s = s.slice(0, s.length - digits) + (digits > 0 ? '.' + s.slice(s.length - digits) : '');
  return (neg ? '-' : '') + s;
}

function fixedOfDouble(x) { return BigInt(Math.round(x * VIEW_TWO_FRAC)); }

// Greedy split into f32 words: each the f32 nearest (through the double) to what is left. A
// word times 2^FRAC is an integer (f32 ulps are >= 2^-149), so the subtraction is exact.
function f32Words(v, n) {
  const out = [];
  let rest = v;
  for (let i = 0; i < n; i++) {
    const w = Math.fround(Number(rest) / VIEW_TWO_FRAC);
    out.push(w);
    rest -= BigInt(w * VIEW_TWO_FRAC);
  }
  return out;
}

function ms(t) { return t.toFixed(0) + ' ms'; }

function describeRoutines(results, unit) {
  return results.map(function (r) {
    return r.name + ' ' + (Number.isFinite(r.worst) ? r.worst.toFixed(3) : 'NaN/inf') + (r.pass ? '' : ' (over ' + r.bound + ')');
  }).join(', ') + ' ' + unit;
}

// The routines the Mandelbrot shaders use (df64's unscaled sub and sqr are the scaled ones'
// steps without the exponent scaling); qf128 checks those of these names it has.
const MANDEL_CHECKED = ['add', 'sub', 'mul', 'sqr', 'add_unscaled', 'mul_unscaled'];

// ------------------------------------------------------------------ the view and its controls
// `draw(panes, view)` renders every pane and returns each one's time as 'name N ms' strings
// (a promise of them for an asynchronous API). The view object it gets has re/im (fixed
// point), zoom, width and height (per pane), pixelSize() and iterations().
function MandelView(data, params, canvas, draw) {
  const el = function (id) { return document.getElementById(id); };
  this.data = data;
  this.params = params;
  this.canvas = canvas;
  this.draw = draw;
  this.el = el;
  this.re = parseDecimal(data.default_center.split(',')[0]);
  this.im = parseDecimal(data.default_center.split(',')[1]);
  this.zoom = 1.0;
  this.width = 320;
  this.height = 240;
  this.maxIterations = null;
  this.qf128 = params.get('qf128') !== '0';
  this.panes = [];
  this.pending = false;
  this.frame = 0;
  el('version').textContent = data.version;
}

// The page's failure: the verdict, a message that explains it, and nothing drawn.
MandelView.prototype.fail = function (verdict, message) {
  const v = this.el('df64-selftest');
  v.textContent = 'fail: ' + verdict;
  v.className = 'fail';
  const m = this.el('message');
  m.textContent = message;
  m.style.display = 'block';
  this.canvas.style.display = 'none';
  this.el('labels').style.display = 'none';
};

// Judges a check's result (`check(gl)` or `checkWebGPU(device)`): fails the page when df64
// is off (`probeOk` false, or a routine off its bound), else says pass with qf128's verdict.
// `compiler` and `device` name them in the messages ('compiler', 'renderer string'; 'WGSL
// compiler', 'adapter'). Returns whether qf128 passed, or null when df64 failed.
MandelView.prototype.judge = function (result, probeOk, renderer, compiler, device, detail) {
  const el = this.el;
  el('checks').textContent += 'df64 worst of the known answers: ' + describeRoutines(result.routines, 'ulp48') + '.';
  if (!probeOk || !result.routines.every(function (r) { return r.pass; })) {
    this.fail('df64 is not exact on ' + renderer,
      'The df64 self-test failed in this browser (' + result.reason + '). The ' + compiler +
      ' here rewrites the error-free transforms df64 is made of, so df64 results would be ' +
      'silently wrong; df64 is not drawn. Please report the ' + device + ' above.');
    return null;
  }
  const qf128ok = result.qf128 !== null && result.qf128.pass;
  el('checks').textContent += ' qf128 ' + (qf128ok ? 'pass' : 'fail') + ': ' +
    (result.qf128 ? describeRoutines(result.qf128.routines, 'ulp96') : result.reason) + ' (check ' + ms(result.ms) + ').';
  const v = el('df64-selftest');
  v.textContent = 'pass: df64 exact on ' + renderer + ' (' + detail + ', routines within bounds); qf128 ' +
    (qf128ok ? 'pass' : 'fail, not drawn');
  v.className = 'pass';
  return qf128ok;
};

// center=RE,IM, zoom=Z, size=WxH, iter=N from the query; throws with what to give instead.
MandelView.prototype.readParams = function () {
  const params = this.params;
  const data = this.data;
  const c = params.get('center');
  if (c !== null) {
    const parts = c.split(',');
    const re = parts.length === 2 ? parseDecimal(parts[0]) : null;
    const im = parts.length === 2 ? parseDecimal(parts[1]) : null;
    if (re === null || im === null) throw new Error('center=' + c + ': give RE,IM as decimal numbers, for example center=-0.75,0.1');
    this.re = re;
    this.im = im;
  }
  const z = params.get('zoom');
  if (z !== null) {
    const zoom = Number(z);
    if (!(zoom >= data.min_zoom && zoom <= data.max_zoom)) throw new Error('zoom=' + z + ': give a number in [' + data.min_zoom + ', ' + data.max_zoom + ']');
    this.zoom = zoom;
  }
  const s = params.get('size');
  if (s !== null) {
    const m = /^(\d+)x(\d+)$/.exec(s);
    if (!m || +m[1] < 1 || +m[2] < 1 || +m[1] > 4096 || +m[2] > 4096) throw new Error('size=' + s + ': give WIDTHxHEIGHT of each pane, 1 to 4096 pixels');
    this.width = +m[1];
    this.height = +m[2];
  }
  const it = params.get('iter');
  if (it !== null) {
    const n = Number(it);
    if (!(Number.isInteger(n) && n >= 1 && n <= 1000000)) throw new Error('iter=' + it + ': give an integer from 1 to 1000000');
    this.maxIterations = n;
  }
};

MandelView.prototype.pixelSize = function () { return this.data.full_width * this.zoom / this.width; };

MandelView.prototype.iterations = function () {
  return this.maxIterations || Math.floor(250 + 250 * Math.max(0, Math.log10(1 / this.zoom)));
};

// The center's f32 words (four: qf128 takes them all, df64 two, f32 one).
MandelView.prototype.centerWords = function () {
  return { re: f32Words(this.re, 4), im: f32Words(this.im, 4) };
};

// The canvas sized for the panes side by side, and a label over each.
MandelView.prototype.layout = function () {
  const canvas = this.canvas;
  const width = this.width;
  canvas.width = width * this.panes.length;
  canvas.height = this.height;
  const labels = this.el('labels');
  labels.textContent = '';
  this.panes.forEach(function (pane) {
    const s = document.createElement('span');
    s.style.width = width + 'px';
    s.textContent = pane.name;
    if (pane.name === 'f32') s.title = 'what a shader gives without df64';
    s.id = 'label-' + pane.name;
    labels.appendChild(s);
  });
};

// Draws every pane and then says what it drew: zoom, iterations, times, the canvas's place.
MandelView.prototype.render = function () {
  const self = this;
  const el = this.el;
  this.pending = false;
  const px = this.pixelSize();
  const n = this.iterations();
  const digits = Math.max(8, Math.ceil(-Math.log10(px)) + 3);
  el('center').textContent = toDecimal(this.re, digits) + ', ' + toDecimal(this.im, digits);
  return Promise.resolve(this.draw(this.panes, this)).then(function (times) {
    el('view-state').textContent = 'zoom ' + self.zoom.toExponential(3) + ' (view ' +
      (self.data.full_width * self.zoom).toExponential(3) + ' wide), ' + n + ' iterations, ' +
      self.width + 'x' + self.height + ' per pane; ' + times.join(', ');
    el('view-state').dataset.zoom = String(self.zoom);
    // Where the panes are on the page, for a screenshot's reader.
    const r = self.canvas.getBoundingClientRect();
    self.canvas.dataset.rect = [r.left, r.top, r.width, r.height].map(Math.round).join(',');
    self.canvas.dataset.panes = self.panes.map(function (p) { return p.name; }).join(',');
    el('iterations').value = String(n);
  });
};

MandelView.prototype.schedule = function () {
  const self = this;
  if (!this.pending) {
    this.pending = true;
    this.frame = requestAnimationFrame(function () {
      self.render().catch(function (e) { self.drawingFailed(e); });
    });
  }
};

MandelView.prototype.drawingFailed = function (e) {
  this.el('message').textContent = 'Drawing failed: ' + (e && e.message ? e.message : e);
  this.el('message').style.display = 'block';
};

// Pixel offset of a mouse position from the center of the pane under it (y up).
MandelView.prototype.offsetInPane = function (x, y) {
  const r = this.canvas.getBoundingClientRect();
  const cx = x - r.left;
  const cy = y - r.top;
  const pane = Math.min(this.panes.length - 1, Math.max(0, Math.floor(cx / this.width)));
  return [cx - pane * this.width - this.width / 2, this.height / 2 - cy];
};

MandelView.prototype.zoomAt = function (factor, dx, dy) {
  const z = Math.min(this.data.max_zoom, Math.max(this.data.min_zoom, this.zoom * factor));
  const f = z / this.zoom;
  // The point under the cursor stays where it is.
  const px = this.pixelSize();
  this.re += fixedOfDouble(dx * px * (1 - f));
  this.im += fixedOfDouble(dy * px * (1 - f));
  this.zoom = z;
};

MandelView.prototype.pan = function (dx, dy) {
  const px = this.pixelSize();
  this.re -= fixedOfDouble(dx * px);
  this.im += fixedOfDouble(dy * px);
};

// Mouse drag and wheel, the iterations field, the two view buttons and the qf128 checkbox
// (`allPanes`: the panes with qf128; shown when qf128 passed its check).
MandelView.prototype.attachControls = function (allPanes, qf128ok) {
  const self = this;
  const el = this.el;
  const canvas = this.canvas;
  let drag = null;
  this.panes = allPanes.filter(function (p) { return p.name !== 'qf128' || (qf128ok && self.qf128); });
  el('show-qf128').checked = qf128ok && this.qf128;
  el('show-qf128').disabled = !qf128ok;
  el('show-qf128').addEventListener('change', function () {
    self.qf128 = el('show-qf128').checked;
    self.panes = allPanes.filter(function (p) { return p.name !== 'qf128' || self.qf128; });
    self.layout();
    self.schedule();
  });
  canvas.addEventListener('mousedown', function (e) { drag = [e.clientX, e.clientY]; });
  window.addEventListener('mouseup', function () { drag = null; });
  window.addEventListener('mousemove', function (e) {
    if (!drag) return;
    self.pan(e.clientX - drag[0], e.clientY - drag[1]);
    drag = [e.clientX, e.clientY];
    self.schedule();
  });
  canvas.addEventListener('wheel', function (e) {
    e.preventDefault();
    const d = self.offsetInPane(e.clientX, e.clientY);
    // One notch (100) zooms by sqrt(2).
    self.zoomAt(Math.pow(2, e.deltaY / 200), d[0], d[1]);
    self.schedule();
  }, { passive: false });
  el('iterations').addEventListener('change', function () {
    const n = Number(el('iterations').value);
    if (Number.isInteger(n) && n >= 1 && n <= 1000000) {
      self.maxIterations = n;
      self.schedule();
    }
  });
  el('reset').addEventListener('click', function () {
    self.zoom = 1;
    self.re = parseDecimal('-0.75');
    self.im = 0n;
    self.maxIterations = null;
    self.schedule();
  });
  el('deep').addEventListener('click', function () {
    const c = self.data.default_center.split(',');
    self.re = parseDecimal(c[0]);
    self.im = parseDecimal(c[1]);
    self.zoom = 1e-13;
    self.maxIterations = null;
    self.schedule();
  });
};

// The query's scripted input (pan=DX,DY, wheel=K at the center of the second pane), through
// the same handlers a user's mouse reaches; then the first drawing, awaited.
MandelView.prototype.start = function () {
  const params = this.params;
  const canvas = this.canvas;
  this.layout();
  const r = canvas.getBoundingClientRect();
  const cx = r.left + this.width * 1.5;
  const cy = r.top + this.height / 2;
  const p = params.get('pan');
  if (p !== null) {
    const d = p.split(',').map(Number);
    canvas.dispatchEvent(new MouseEvent('mousedown', { clientX: cx, clientY: cy, bubbles: true }));
    window.dispatchEvent(new MouseEvent('mousemove', { clientX: cx + d[0], clientY: cy + d[1], bubbles: true }));
    window.dispatchEvent(new MouseEvent('mouseup', { clientX: cx + d[0], clientY: cy + d[1], bubbles: true }));
  }
  const k = Number(params.get('wheel') || 0);
  for (let i = 0; i < k; i++) {
    canvas.dispatchEvent(new WheelEvent('wheel', { deltaY: -100, clientX: cx, clientY: cy, bubbles: true, cancelable: true }));
  }
  cancelAnimationFrame(this.frame);
  this.pending = false;
  return this.render();
};
