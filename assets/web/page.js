// df64gl web page: prove df64 in this browser's WebGL 2 with the npm module's check() (inlined
// before this script by `df64gl web`, with DF64_GLSL and QF128_GLSL), then draw the Mandelbrot
// set in f32 next to df64 (and qf128) with pan and zoom (view.js, before this script). The rest
// it needs is in the JSON element #df64gl-data.
(function () {
  'use strict';
  const DATA = JSON.parse(document.getElementById('df64gl-data').textContent);
  const params = new URLSearchParams(location.search);
  const simulate = params.get('simulate') || '';
  const el = function (id) { return document.getElementById(id); };
  const canvas = el('mandel');

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

  // ------------------------------------------------------------------ Mandelbrot
  const PANES = [
    // f32 alone pastes no df64 routines, so DF64_B (df64.glsl's barrier) is the identity.
    { name: 'f32', define: 'MANDEL_F32', snippet: '', prelude: '#define DF64_B(x) (x)\n' },
    { name: 'df64', define: 'MANDEL_DF64', snippet: DF64_GLSL },
    { name: 'qf128', define: 'MANDEL_QF128', snippet: DF64_GLSL + QF128_GLSL },
  ];
  let gl = null;
  const programs = {};

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

  function draw(panes, view) {
    const px = view.pixelSize();
    const n = view.iterations();
    const words = view.centerWords();
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    const times = [];
    const one = new Uint8Array(4);
    panes.forEach(function (pane, i) {
      const m = mandelProgram(pane);
      const u = m.u;
      gl.useProgram(m.program);
      gl.uniform4fv(u.u_center_re, words.re);
      gl.uniform4fv(u.u_center_im, words.im);
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
    return times;
  }

  // ------------------------------------------------------------------ start
  const view = new MandelView(DATA, params, canvas, draw);

  function start() {
    try {
      view.readParams();
    } catch (e) {
      view.fail('bad query', String(e.message || e));
      return;
    }
    gl = simulate === 'no-webgl2' ? null : canvas.getContext('webgl2', { antialias: false, preserveDrawingBuffer: true });
    if (!gl) {
      view.fail('this browser gives no WebGL 2 context',
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
      view.fail('EXT_color_buffer_float is missing (renderer ' + renderer + ')',
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
    // The bundle above holds every routine's answers; the qf128 text is passed, as the check
    // would otherwise import it (a synchronous call cannot wait for an import).
    const result = check(gl, { qf128: true, qf128Glsl: QF128_GLSL, routines: MANDEL_CHECKED, cache: false });
    if (!result.probe) {
      view.fail('the self-test could not run', 'The self-test could not run in this browser: ' + result.reason + '. df64 is not drawn.');
      return;
    }
    const probe = result.probe;
    el('checks').textContent = 'Probe shader: ' + probe.green + ' of ' + probe.pixels +
      ' pixels green (' + ms(probe.ms) + '). ';
    const qf128ok = view.judge(result, probe.green === probe.pixels, renderer, 'compiler',
      'renderer string', 'probe ' + probe.green + '/' + probe.pixels);
    if (qf128ok === null) return;
    try {
      view.attachControls(PANES, qf128ok);
      view.start().catch(function (e) { view.drawingFailed(e); });
    } catch (e) {
      view.drawingFailed(e);
    }
  }

  start();
})();
