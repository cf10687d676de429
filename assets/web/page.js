// df64gl web page: prove df64 in this browser's WebGL 2 with the npm module's check() (inlined
// before this script by `df64gl web`, with DF64_GLSL and QF128_GLSL), then draw the Mandelbrot
// set in f32 next to df64 (and qf128) with pan and zoom. The rest it needs is in the JSON
// element #df64gl-data.
(function () {
  'use strict';
  const DATA = JSON.parse(document.getElementById('df64gl-data').textContent);
  const params = new URLSearchParams(location.search);
  const simulate = params.get('simulate') || '';
  const el = function (id) { return document.getElementById(id); };
  el('version').textContent = DATA.version;

  // ------------------------------------------------------------------ exact numbers
  // The center is a binary fixed-point BigInt with FRAC fraction bits: decimal strings go in
  // and come out exactly, pans add exact multiples of the pixel size, and the f32 words the
  // shader gets are split from it exactly (JavaScript's doubles alone stop at 53 bits).
  const FRAC = 400;
  const FRAC_N = BigInt(FRAC);
  const TWO_FRAC = Math.pow(2, FRAC);

  function parseDecimal(text) {
    const m = /^\s*([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$/.exec(text);
    if (!m || (m[2] === '' && !m[3])) return null;
    const e10 = (m[4] ? parseInt(m[4], 10) : 0) - (m[3] ? m[3].length : 0);
    if (Math.abs(e10) > 300) return null;
    let v = BigInt((m[2] || '') + (m[3] || '')) << FRAC_N;
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
    const q = (v * 10n ** BigInt(digits) + (1n << (FRAC_N - 1n))) >> FRAC_N;
    let s = q.toString().padStart(digits + 1, '0');
    s = s.slice(0, s.length - digits) + (digits > 0 ? '.' + s.slice(s.length - digits) : '');
    return (neg ? '-' : '') + s;
  }

  function fixedOfDouble(x) { return BigInt(Math.round(x * TWO_FRAC)); }

  // Greedy split into f32 words: each the f32 nearest (through the double) to what is left.
  // A word times 2^FRAC is an integer (f32 ulps are >= 2^-149), so the subtraction is exact.
  function f32Words(v, n) {
    const out = [];
    let rest = v;
    for (let i = 0; i < n; i++) {
      const w = Math.fround(Number(rest) / TWO_FRAC);
      out.push(w);
      rest -= BigInt(w * TWO_FRAC);
    }
    return out;
  }

  // ------------------------------------------------------------------ page state
  const canvas = el('mandel');
  const view = {
    re: parseDecimal(DATA.default_center.split(',')[0]),
    im: parseDecimal(DATA.default_center.split(',')[1]),
    zoom: 1.0,
    width: 320,
    height: 240,
    iterations: null,
    qf128: params.get('qf128') !== '0',
  };

  function fail(verdict, message) {
    const v = el('df64-selftest');
    v.textContent = 'fail: ' + verdict;
    v.className = 'fail';
    const m = el('message');
    m.textContent = message;
    m.style.display = 'block';
    canvas.style.display = 'none';
    el('labels').style.display = 'none';
  }

  function readParams() {
    const c = params.get('center');
    if (c !== null) {
      const parts = c.split(',');
      const re = parts.length === 2 ? parseDecimal(parts[0]) : null;
      const im = parts.length === 2 ? parseDecimal(parts[1]) : null;
      if (re === null || im === null) throw new Error('center=' + c + ': give RE,IM as decimal numbers, for example center=-0.75,0.1');
      view.re = re;
      view.im = im;
    }
    const z = params.get('zoom');
    if (z !== null) {
      const zoom = Number(z);
      if (!(zoom >= DATA.min_zoom && zoom <= DATA.max_zoom)) throw new Error('zoom=' + z + ': give a number in [' + DATA.min_zoom + ', ' + DATA.max_zoom + ']');
      view.zoom = zoom;
    }
    const s = params.get('size');
    if (s !== null) {
      const m = /^(\d+)x(\d+)$/.exec(s);
      if (!m || +m[1] < 1 || +m[2] < 1 || +m[1] > 4096 || +m[2] > 4096) throw new Error('size=' + s + ': give WIDTHxHEIGHT of each pane, 1 to 4096 pixels');
      view.width = +m[1];
      view.height = +m[2];
    }
    const it = params.get('iter');
    if (it !== null) {
      const n = Number(it);
      if (!(Number.isInteger(n) && n >= 1 && n <= 1000000)) throw new Error('iter=' + it + ': give an integer from 1 to 1000000');
      view.iterations = n;
    }
  }

  // ------------------------------------------------------------------ WebGL 2
  const HEADER = '#version 300 es\nprecision highp float;\nprecision highp int;\n';
  const VERTEX = '#version 300 es\nvoid main() { vec2 p = vec2(float((gl_VertexID << 1) & 2), ' +
    'float(gl_VertexID & 2)); gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0); }\n';

  function build(gl, fragment, what) {
    function shader(kind, src) {
      const s = gl.createShader(kind);
      gl.shaderSource(s, src);
      gl.compileShader(s);
      if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) {
        const log = gl.getShaderInfoLog(s);
        gl.deleteShader(s);
        throw new Error(what + ' does not compile here: ' + log);
      }
      return s;
    }
    const p = gl.createProgram();
    const vs = shader(gl.VERTEX_SHADER, VERTEX);
    const fs = shader(gl.FRAGMENT_SHADER, fragment);
    gl.attachShader(p, vs);
    gl.attachShader(p, fs);
    gl.linkProgram(p);
    gl.deleteShader(vs);
    gl.deleteShader(fs);
    if (!gl.getProgramParameter(p, gl.LINK_STATUS)) throw new Error(what + ' does not link here: ' + gl.getProgramInfoLog(p));
    gl.useProgram(p);
    // The barrier uniforms the snippet asks for keep their defaults (0); the older one is 1.
    const one = gl.getUniformLocation(p, 'u_df64_one');
    if (one !== null) gl.uniform1f(one, 1.0);
    return p;
  }

  // The locations of `names` in program `p`, looked up once (a missing one is an error).
  function uniforms(gl, p, names) {
    const locs = {};
    names.forEach(function (name) {
      const loc = gl.getUniformLocation(p, name);
      if (loc === null) throw new Error('the program has no uniform ' + name);
      locs[name] = loc;
    });
    return locs;
  }

  function ms(t) { return t.toFixed(0) + ' ms'; }

  function describe(results, unit) {
    return results.map(function (r) {
      return r.name + ' ' + (Number.isFinite(r.worst) ? r.worst.toFixed(3) : 'NaN/inf') + (r.pass ? '' : ' (over ' + r.bound + ')');
    }).join(', ') + ' ' + unit;
  }

  // The routines the Mandelbrot shaders use (df64's unscaled sub and sqr are the scaled ones'
  // steps without the exponent scaling); qf128 checks those of these names it has.
  const CHECKED = ['add', 'sub', 'mul', 'sqr', 'add_unscaled', 'mul_unscaled'];

  // ------------------------------------------------------------------ Mandelbrot
  const PANES = [
    // f32 alone pastes no df64 routines, so DF64_B (df64.glsl's barrier) is the identity.
    { name: 'f32', define: 'MANDEL_F32', snippet: '', prelude: '#define DF64_B(x) (x)\n' },
    { name: 'df64', define: 'MANDEL_DF64', snippet: DF64_GLSL },
    { name: 'qf128', define: 'MANDEL_QF128', snippet: DF64_GLSL + QF128_GLSL },
  ];
  let gl = null;
  let programs = {};
  let panes = [];
  let pending = false;
  let frame = 0;

  function mandelProgram(pane) {
    if (!programs[pane.name]) {
      const src = HEADER + '#define ' + pane.define + '\n#define MANDEL_COLOR\n' +
        (pane.prelude || '') + pane.snippet + '\n' + DATA.mandelbrot;
      const p = build(gl, src, 'the ' + pane.name + ' Mandelbrot shader');
      programs[pane.name] = {
        program: p,
        u: uniforms(gl, p, ['u_center_re', 'u_center_im', 'u_pixel', 'u_half', 'u_max_iter']),
      };
    }
    return programs[pane.name];
  }

  function pixelSize() { return DATA.full_width * view.zoom / view.width; }
  function iterations() {
    return view.iterations || Math.floor(250 + 250 * Math.max(0, Math.log10(1 / view.zoom)));
  }

  function layout() {
    canvas.width = view.width * panes.length;
    canvas.height = view.height;
    const labels = el('labels');
    labels.textContent = '';
    panes.forEach(function (pane) {
      const s = document.createElement('span');
      s.style.width = view.width + 'px';
      s.textContent = pane.name;
      if (pane.name === 'f32') s.title = 'what a WebGL shader gives without df64';
      s.id = 'label-' + pane.name;
      labels.appendChild(s);
    });
  }

  function render() {
    pending = false;
    const px = pixelSize();
    const n = iterations();
    const digits = Math.max(8, Math.ceil(-Math.log10(px)) + 3);
    el('center').textContent = toDecimal(view.re, digits) + ', ' + toDecimal(view.im, digits);
    const re = f32Words(view.re, 4);
    const im = f32Words(view.im, 4);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    const times = [];
    const one = new Uint8Array(4);
    panes.forEach(function (pane, i) {
      const m = mandelProgram(pane);
      const u = m.u;
      gl.useProgram(m.program);
      gl.uniform4fv(u.u_center_re, re);
      gl.uniform4fv(u.u_center_im, im);
      gl.uniform1f(u.u_pixel, Math.fround(px));
      // gl_FragCoord is in canvas pixels: the pane's own center is at i w + w/2.
      gl.uniform2f(u.u_half, i * view.width + view.width / 2, view.height / 2);
      gl.uniform1i(u.u_max_iter, n);
      gl.viewport(i * view.width, 0, view.width, view.height);
      const t0 = performance.now();
      gl.drawArrays(gl.TRIANGLES, 0, 3);
      // Reading one pixel waits for the draw (finish does not, in some browsers).
      gl.readPixels(i * view.width, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, one);
      times.push(pane.name + ' ' + ms(performance.now() - t0));
    });
    el('view-state').textContent = 'zoom ' + view.zoom.toExponential(3) + ' (view ' +
      (DATA.full_width * view.zoom).toExponential(3) + ' wide), ' + n + ' iterations, ' +
      view.width + 'x' + view.height + ' per pane; ' + times.join(', ');
    el('view-state').dataset.zoom = String(view.zoom);
    // Where the panes are on the page, for a screenshot's reader.
    const r = canvas.getBoundingClientRect();
    canvas.dataset.rect = [r.left, r.top, r.width, r.height].map(Math.round).join(',');
    canvas.dataset.panes = panes.map(function (p) { return p.name; }).join(',');
    el('iterations').value = String(n);
  }

  function schedule() {
    if (!pending) {
      pending = true;
      frame = requestAnimationFrame(render);
    }
  }

  // Pixel offset of a mouse position from the center of the pane under it (y up).
  function offsetInPane(x, y) {
    const r = canvas.getBoundingClientRect();
    const cx = x - r.left;
    const cy = y - r.top;
    const pane = Math.min(panes.length - 1, Math.max(0, Math.floor(cx / view.width)));
    return [cx - pane * view.width - view.width / 2, view.height / 2 - cy];
  }

  function zoomAt(factor, dx, dy) {
    const z = Math.min(DATA.max_zoom, Math.max(DATA.min_zoom, view.zoom * factor));
    const f = z / view.zoom;
    // The point under the cursor stays where it is.
    const px = pixelSize();
    view.re += fixedOfDouble(dx * px * (1 - f));
    view.im += fixedOfDouble(dy * px * (1 - f));
    view.zoom = z;
  }

  function pan(dx, dy) {
    const px = pixelSize();
    view.re -= fixedOfDouble(dx * px);
    view.im += fixedOfDouble(dy * px);
  }

  function attachControls() {
    let drag = null;
    canvas.addEventListener('mousedown', function (e) { drag = [e.clientX, e.clientY]; });
    window.addEventListener('mouseup', function () { drag = null; });
    window.addEventListener('mousemove', function (e) {
      if (!drag) return;
      pan(e.clientX - drag[0], e.clientY - drag[1]);
      drag = [e.clientX, e.clientY];
      schedule();
    });
    canvas.addEventListener('wheel', function (e) {
      e.preventDefault();
      const d = offsetInPane(e.clientX, e.clientY);
      // One notch (100) zooms by sqrt(2).
      zoomAt(Math.pow(2, e.deltaY / 200), d[0], d[1]);
      schedule();
    }, { passive: false });
    el('iterations').addEventListener('change', function () {
      const n = Number(el('iterations').value);
      if (Number.isInteger(n) && n >= 1 && n <= 1000000) {
        view.iterations = n;
        schedule();
      }
    });
    el('reset').addEventListener('click', function () { view.zoom = 1; view.re = parseDecimal('-0.75'); view.im = 0n; view.iterations = null; schedule(); });
    el('deep').addEventListener('click', function () {
      const c = DATA.default_center.split(',');
      view.re = parseDecimal(c[0]);
      view.im = parseDecimal(c[1]);
      view.zoom = 1e-13;
      view.iterations = null;
      schedule();
    });
  }

  // The query's scripted input, through the same handlers a user's mouse reaches.
  function scripted() {
    const r = canvas.getBoundingClientRect();
    const cx = r.left + view.width * 1.5;
    const cy = r.top + view.height / 2;
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
  }

  // ------------------------------------------------------------------ start
  function start() {
    try {
      readParams();
    } catch (e) {
      fail('bad query', String(e.message || e));
      return;
    }
    gl = simulate === 'no-webgl2' ? null : canvas.getContext('webgl2', { antialias: false, preserveDrawingBuffer: true });
    if (!gl) {
      fail('this browser gives no WebGL 2 context',
        'WebGL 2 is not available here, so df64 cannot run: df64 needs WebGL 2 (GLSL ES 3.00, ' +
        'for floatBitsToInt and highp integers). Enable hardware acceleration or WebGL in the ' +
        'browser settings, or try another browser; nothing is drawn in f32 in its place.');
      return;
    }
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const renderer = info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER);
    el('renderer').textContent = 'Renderer: ' + renderer + ' — ' + gl.getParameter(gl.VERSION) + ', ' + gl.getParameter(gl.SHADING_LANGUAGE_VERSION);
    const floats = simulate === 'no-float' ? null : gl.getExtension('EXT_color_buffer_float');
    if (!floats) {
      fail('EXT_color_buffer_float is missing (renderer ' + renderer + ')',
        'This WebGL 2 cannot render to float textures (EXT_color_buffer_float is missing), so ' +
        'the self-test cannot read df64 results back and df64 is not drawn. Most desktop ' +
        'browsers have it; on this device df64 results could not be checked.');
      return;
    }
    if (simulate === 'selftest-fail') {
      // A driver that returns every float one f32 ulp off, as a broken compiler would.
      const read = gl.readPixels.bind(gl);
      gl.readPixels = function (x, y, w, h, format, type, out) {
        read(x, y, w, h, format, type, out);
        if (type === gl.FLOAT) {
          const bits = new Uint32Array(out.buffer, out.byteOffset, out.length);
          for (let i = 0; i < bits.length; i++) if (out[i] !== 0 && Number.isFinite(out[i])) bits[i] ^= 1;
        }
      };
    }
    const result = check(gl, { qf128: true, routines: CHECKED, cache: false });
    if (!result.probe) {
      fail('the self-test could not run', 'The self-test could not run in this browser: ' + result.reason + '. df64 is not drawn.');
      return;
    }
    const probe = result.probe;
    el('checks').textContent = 'Probe shader: ' + probe.green + ' of ' + probe.pixels +
      ' pixels green (' + ms(probe.ms) + '). df64 worst of the known answers: ' +
      describe(result.routines, 'ulp48') + '.';
    const df64ok = probe.green === probe.pixels && result.routines.every(function (r) { return r.pass; });
    if (!df64ok) {
      fail('df64 is not exact on ' + renderer,
        'The df64 self-test failed in this browser (' + result.reason + '). The ' +
        'compiler here rewrites the error-free transforms df64 is made of, so df64 results ' +
        'would be silently wrong; df64 is not drawn. Please report the renderer string above.');
      return;
    }
    const qf128ok = result.qf128 !== null && result.qf128.pass;
    el('checks').textContent += ' qf128 ' + (qf128ok ? 'pass' : 'fail') + ': ' +
      (result.qf128 ? describe(result.qf128.routines, 'ulp96') : result.reason) + ' (check ' + ms(result.ms) + ').';
    const verdict = 'pass: df64 exact on ' + renderer + ' (probe ' + probe.green + '/' + probe.pixels +
      ', routines within bounds); qf128 ' + (qf128ok ? 'pass' : 'fail, not drawn');
    panes = PANES.filter(function (p) { return p.name !== 'qf128' || (qf128ok && view.qf128); });
    el('show-qf128').checked = qf128ok && view.qf128;
    el('show-qf128').disabled = !qf128ok;
    el('show-qf128').addEventListener('change', function () {
      view.qf128 = el('show-qf128').checked;
      panes = PANES.filter(function (p) { return p.name !== 'qf128' || view.qf128; });
      layout();
      schedule();
    });
    const v = el('df64-selftest');
    v.textContent = verdict;
    v.className = 'pass';
    try {
      layout();
      attachControls();
      scripted();
      cancelAnimationFrame(frame);
      pending = false;
      render();
    } catch (e) {
      el('message').textContent = 'Drawing failed: ' + (e.message || e);
      el('message').style.display = 'block';
    }
  }

  start();
})();
