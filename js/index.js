// df64gl for WebGL 2: the df64 and qf128 GLSL ES 3.00 routines, a check that proves them on
// the context at hand, and the helpers that turn JavaScript numbers into f32 word pairs.
//
// Shader compilers rewrite floating-point code: on ANGLE over Mesa an unprotected df64 build is
// wrong in every routine (about 10^7 ulp48), on SwiftShader the same build happens to be
// right. Only a check on the machine at hand can tell, so run `check(gl)` once per context
// before you trust what the routines draw. The strings and the known answers come from
// `generated.js`, written by `df64gl js` from the same GLSL and Rust mirror as the rest of
// df64gl (a test keeps the committed file equal to its output).

import {
  VERSION,
  DF64_GLSL,
  QF128_GLSL,
  DF64_WGSL,
  DF64_QF128_WGSL,
  PROBE_MAIN,
  KNOWN_ANSWERS,
} from './generated.js';

export { VERSION, DF64_GLSL, QF128_GLSL, DF64_WGSL, DF64_QF128_WGSL };

// ------------------------------------------------------------------ numbers to f32 words

/**
 * The df64 of a JavaScript number: [hi, lo] with hi = fround(x), lo = fround(x - hi). NaN
 * gives [NaN, 0]; ±Infinity, and finite numbers that round beyond the f32 range
 * (|x| >= 2^128 - 2^103), give [±Infinity, 0]. The pair holds about 48 of the double's 53
 * bits; a lo below 2^-126 is a subnormal f32, which many GPUs read as 0.
 */
export function split(x) {
  const v = Number(x);
  const hi = Math.fround(v);
  if (!Number.isFinite(hi)) return [hi, 0];
  // x - hi is exact (Sterbenz); rounding it to f32 keeps 24 more bits.
  return [hi, Math.fround(v - hi)];
}

/** The number nearest to hi + lo (exact when the pair spans at most 53 bits). */
export function join(hi, lo) {
  return Number(hi) + Number(lo);
}

/**
 * The df64 of every number of an array (Float64Array or any array of numbers) as one
 * interleaved Float32Array [hi0, lo0, hi1, lo1, ...], ready for a vec2 attribute or an RG32F
 * texture. Each pair is `split`'s.
 */
export function splitArray(values) {
  const out = new Float32Array(2 * values.length);
  for (let i = 0; i < values.length; i++) {
    const w = split(values[i]);
    out[2 * i] = w[0];
    out[2 * i + 1] = w[1];
  }
  return out;
}

/**
 * A 4x4 matrix (16 numbers, column-major as WebGL takes it) as two Float32Arrays, `hi` and
 * `lo`, for two mat4 uniforms: element i is split(m[i]).
 */
export function splitMat4(m) {
  if (!m || m.length !== 16) throw new TypeError('splitMat4 takes 16 numbers (a column-major 4x4 matrix)');
  const hi = new Float32Array(16);
  const lo = new Float32Array(16);
  for (let i = 0; i < 16; i++) {
    const w = split(m[i]);
    hi[i] = w[0];
    lo[i] = w[1];
  }
  return { hi: hi, lo: lo };
}

// ------------------------------------------------------------------ luma.gl shader module

/**
 * df64 as a luma.gl 9 shader module: `new Model(device, {modules: [df64], ...})` pastes the
 * routines into both stages. Its one uniform, u_df64_zero (a uint the routines XOR with, so no
 * compiler can fold their float steps), must stay 0: it has no uniform block and nothing sets
 * it. Run `check` on the device's context (`device.gl`) before trusting the output.
 */
export const df64 = {
  name: 'df64',
  vs: DF64_GLSL,
  fs: DF64_GLSL,
  uniformTypes: {},
  defaultUniforms: {},
  getUniforms: function () { return {}; },
};

// ------------------------------------------------------------------ the check

// The least a host gives: float precision only (luma.gl's assembler, for one). DF64_GLSL sets
// highp int itself; a source that does not (an older export) is checked as such a host runs it.
const HEADER = '#version 300 es\nprecision highp float;\n';
const VERTEX = '#version 300 es\nvoid main() { vec2 p = vec2(float((gl_VertexID << 1) & 2), ' +
  'float(gl_VertexID & 2)); gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0); }\n';
const PROBE_SIZE = 64;
const KIND_VALUE = 0;
const KIND_NAN = 1;
const KIND_EXACT = 2;
const KIND_ZERO = 3;
// The df64 domain's floor where subnormals are flushed: the low word cannot hold less.
const DF64_FLOOR = Math.pow(2, -126);

function fromBase64(text, Type) {
  const bin = atob(text);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return new Type(bytes.buffer);
}

// The known answers, decoded once: per set, its routines with their cases' operands, the
// mirror's words, what each must return and its bound.
let decoded = null;
function knownAnswers() {
  if (decoded) return decoded;
  decoded = {};
  Object.keys(KNOWN_ANSWERS).forEach(function (key) {
    const set = KNOWN_ANSWERS[key];
    decoded[key] = {
      words: set.words,
      routines: set.routines,
      f32: fromBase64(set.f32, Float32Array),
      f64: fromBase64(set.f64, Float64Array),
      kind: fromBase64(set.kind, Uint8Array),
    };
  });
  return decoded;
}

// Error-free sum of doubles (Shewchuk's grow-expansion), then its value to 53 bits.
function twoSum(a, b) {
  const s = a + b;
  const bb = s - a;
  return [s, (a - (s - bb)) + (b - bb)];
}
function exactSum(terms) {
  let e = [];
  for (let t = 0; t < terms.length; t++) {
    let q = terms[t];
    const h = [];
    for (let i = 0; i < e.length; i++) {
      const r = twoSum(q, e[i]);
      if (r[1] !== 0) h.push(r[1]);
      q = r[0];
    }
    h.push(q);
    e = h;
  }
  let s = 0;
  for (let i = 0; i < e.length; i++) s += e[i];
  return s;
}
function exponent(x) {
  const a = Math.abs(x);
  let e = Math.floor(Math.log2(a));
  if (Math.pow(2, e) > a) e -= 1;
  if (Math.pow(2, e + 1) <= a) e += 1;
  return e;
}

// The error of `got` (words) in ulp48 or ulp96 of the expected value beyond `floor`; 0 for a
// right special value, Infinity for a wrong one. The same rule as the Rust generator's gate.
function judge(got, kind, want, floor) {
  const precision = got.length === 2 ? 48 : 96;
  let restZero = true;
  let anyNaN = false;
  let allFinite = true;
  for (let i = 0; i < got.length; i++) {
    if (i > 0 && got[i] !== 0) restZero = false;
    if (Number.isNaN(got[i])) anyNaN = true;
    if (!Number.isFinite(got[i])) allFinite = false;
  }
  if (kind === KIND_NAN) return Number.isNaN(got[0]) ? 0 : Infinity;
  if (anyNaN) return Infinity;
  if (kind === KIND_EXACT) {
    const v = want[0];
    const first = got[0] === v && (v !== 0 || Object.is(got[0], v));
    return first && restZero ? 0 : Infinity;
  }
  if (kind === KIND_ZERO) return got[0] === 0 && restZero ? 0 : Infinity;
  if (!allFinite) return Infinity;
  const terms = Array.prototype.slice.call(got);
  for (let i = 0; i < 3; i++) terms.push(-want[i]);
  const err = Math.abs(exactSum(terms));
  return Math.max(err - floor, 0) / Math.pow(2, exponent(want[0]) - precision + 1);
}

// WebGL state check() touches, saved before and put back after, whatever happens.
function saveState(gl) {
  return {
    drawFramebuffer: gl.getParameter(gl.DRAW_FRAMEBUFFER_BINDING),
    readFramebuffer: gl.getParameter(gl.READ_FRAMEBUFFER_BINDING),
    program: gl.getParameter(gl.CURRENT_PROGRAM),
    viewport: gl.getParameter(gl.VIEWPORT),
    activeTexture: gl.getParameter(gl.ACTIVE_TEXTURE),
    textures: [0, 1].map(function (unit) {
      gl.activeTexture(gl.TEXTURE0 + unit);
      return gl.getParameter(gl.TEXTURE_BINDING_2D);
    }),
    vertexArray: gl.getParameter(gl.VERTEX_ARRAY_BINDING),
    packBuffer: gl.getParameter(gl.PIXEL_PACK_BUFFER_BINDING),
    unpackBuffer: gl.getParameter(gl.PIXEL_UNPACK_BUFFER_BINDING),
    enabled: [gl.BLEND, gl.CULL_FACE, gl.DEPTH_TEST, gl.SCISSOR_TEST, gl.STENCIL_TEST,
      gl.RASTERIZER_DISCARD, gl.SAMPLE_COVERAGE, gl.SAMPLE_ALPHA_TO_COVERAGE, gl.DITHER]
      .map(function (cap) { return [cap, gl.isEnabled(cap)]; }),
    colorMask: gl.getParameter(gl.COLOR_WRITEMASK),
    pixelStore: [gl.PACK_ALIGNMENT, gl.UNPACK_ALIGNMENT, gl.PACK_ROW_LENGTH, gl.PACK_SKIP_ROWS,
      gl.PACK_SKIP_PIXELS, gl.UNPACK_ROW_LENGTH, gl.UNPACK_IMAGE_HEIGHT, gl.UNPACK_SKIP_ROWS,
      gl.UNPACK_SKIP_PIXELS, gl.UNPACK_SKIP_IMAGES, gl.UNPACK_FLIP_Y_WEBGL,
      gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, gl.UNPACK_COLORSPACE_CONVERSION_WEBGL]
      .map(function (name) { return [name, gl.getParameter(name)]; }),
  };
}

// The state the check's draws need: nothing the caller enabled may clip, blend or discard.
function neutralState(gl) {
  gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
  gl.bindBuffer(gl.PIXEL_UNPACK_BUFFER, null);
  [gl.BLEND, gl.CULL_FACE, gl.DEPTH_TEST, gl.SCISSOR_TEST, gl.STENCIL_TEST,
    gl.RASTERIZER_DISCARD, gl.SAMPLE_COVERAGE, gl.SAMPLE_ALPHA_TO_COVERAGE, gl.DITHER]
    .forEach(function (cap) { gl.disable(cap); });
  gl.colorMask(true, true, true, true);
  [[gl.PACK_ALIGNMENT, 4], [gl.UNPACK_ALIGNMENT, 4], [gl.PACK_ROW_LENGTH, 0],
    [gl.PACK_SKIP_ROWS, 0], [gl.PACK_SKIP_PIXELS, 0], [gl.UNPACK_ROW_LENGTH, 0],
    [gl.UNPACK_IMAGE_HEIGHT, 0], [gl.UNPACK_SKIP_ROWS, 0], [gl.UNPACK_SKIP_PIXELS, 0],
    [gl.UNPACK_SKIP_IMAGES, 0], [gl.UNPACK_FLIP_Y_WEBGL, false],
    [gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, false],
    [gl.UNPACK_COLORSPACE_CONVERSION_WEBGL, gl.NONE]]
    .forEach(function (p) { gl.pixelStorei(p[0], p[1]); });
}

function restoreState(gl, s) {
  gl.bindFramebuffer(gl.DRAW_FRAMEBUFFER, s.drawFramebuffer);
  gl.bindFramebuffer(gl.READ_FRAMEBUFFER, s.readFramebuffer);
  gl.useProgram(s.program);
  gl.viewport(s.viewport[0], s.viewport[1], s.viewport[2], s.viewport[3]);
  s.textures.forEach(function (t, unit) {
    gl.activeTexture(gl.TEXTURE0 + unit);
    gl.bindTexture(gl.TEXTURE_2D, t);
  });
  gl.activeTexture(s.activeTexture);
  gl.bindVertexArray(s.vertexArray);
  gl.bindBuffer(gl.PIXEL_PACK_BUFFER, s.packBuffer);
  gl.bindBuffer(gl.PIXEL_UNPACK_BUFFER, s.unpackBuffer);
  s.enabled.forEach(function (e) { if (e[1]) gl.enable(e[0]); else gl.disable(e[0]); });
  gl.colorMask(s.colorMask[0], s.colorMask[1], s.colorMask[2], s.colorMask[3]);
  s.pixelStore.forEach(function (p) { gl.pixelStorei(p[0], p[1]); });
}

// Everything the check creates, deleted at the end whatever happens.
function Scratch(gl) {
  this.gl = gl;
  this.items = [];
}
Scratch.prototype.add = function (kind, obj) {
  this.items.push([kind, obj]);
  return obj;
};
// Deletes one object now (and its shaders, for a program).
Scratch.prototype.drop = function (obj) {
  const gl = this.gl;
  const keep = [];
  this.items.forEach(function (it) {
    if (it[1] === obj) {
      if (it[0] === 'program') gl.deleteProgram(obj);
    } else {
      keep.push(it);
    }
  });
  this.items = keep;
};
Scratch.prototype.free = function () {
  const gl = this.gl;
  this.items.reverse().forEach(function (it) {
    if (it[0] === 'program') gl.deleteProgram(it[1]);
    else if (it[0] === 'texture') gl.deleteTexture(it[1]);
    else if (it[0] === 'framebuffer') gl.deleteFramebuffer(it[1]);
    else if (it[0] === 'vertexArray') gl.deleteVertexArray(it[1]);
  });
  this.items = [];
};

function CheckFailure(reason) {
  this.reason = reason;
}

function buildProgram(gl, scratch, fragment, what) {
  const p = scratch.add('program', gl.createProgram());
  function shader(kind, src) {
    const s = gl.createShader(kind);
    gl.shaderSource(s, src);
    gl.compileShader(s);
    const ok = gl.getShaderParameter(s, gl.COMPILE_STATUS);
    const log = ok ? '' : gl.getShaderInfoLog(s);
    gl.attachShader(p, s);
    // Flagged now, freed with the program.
    gl.deleteShader(s);
    if (!ok) throw new CheckFailure(what + ' does not compile here: ' + log);
  }
  shader(gl.VERTEX_SHADER, VERTEX);
  shader(gl.FRAGMENT_SHADER, fragment);
  gl.linkProgram(p);
  if (!gl.getProgramParameter(p, gl.LINK_STATUS)) {
    throw new CheckFailure(what + ' does not link here: ' + gl.getProgramInfoLog(p));
  }
  gl.useProgram(p);
  return p;
}

function renderTarget(gl, scratch, w, h, internal) {
  const t = scratch.add('texture', gl.createTexture());
  gl.activeTexture(gl.TEXTURE0);
  gl.bindTexture(gl.TEXTURE_2D, t);
  gl.texStorage2D(gl.TEXTURE_2D, 1, internal, w, h);
  const fb = scratch.add('framebuffer', gl.createFramebuffer());
  gl.bindFramebuffer(gl.FRAMEBUFFER, fb);
  gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, t, 0);
  if (gl.checkFramebufferStatus(gl.FRAMEBUFFER) !== gl.FRAMEBUFFER_COMPLETE) {
    throw new CheckFailure('a ' + w + 'x' + h + ' render target is incomplete here');
  }
  gl.viewport(0, 0, w, h);
  return fb;
}

// The probe shader: every pixel green where twoSum, twoProd and the routines are exact here.
function runProbe(gl, scratch, source) {
  buildProgram(gl, scratch, HEADER + source + PROBE_MAIN, 'the probe shader');
  renderTarget(gl, scratch, PROBE_SIZE, PROBE_SIZE, gl.RGBA8);
  gl.drawArrays(gl.TRIANGLES, 0, 3);
  const px = new Uint8Array(PROBE_SIZE * PROBE_SIZE * 4);
  gl.readPixels(0, 0, PROBE_SIZE, PROBE_SIZE, gl.RGBA, gl.UNSIGNED_BYTE, px);
  let green = 0;
  for (let i = 0; i < px.length; i += 4) {
    if (px[i] === 0 && px[i + 1] === 255 && px[i + 2] === 0) green++;
  }
  return { green: green, pixels: PROBE_SIZE * PROBE_SIZE };
}

// Every routine of a known-answer set: routine k on row k, case i in column i, each routine in
// a program of its own (one program holding them all takes minutes to compile on some drivers).
function runKnown(gl, scratch, source, set, label, only) {
  const words = set.words;
  const chosen = function (r) { return !only || only.indexOf(r.name) >= 0; };
  const vec = words === 2 ? 'vec2' : 'vec4';
  const pick = words === 2 ? '.xy' : '';
  const head = HEADER + source +
    '\nuniform highp sampler2D u_df64gl_a;\nuniform highp sampler2D u_df64gl_b;\n' +
    'out vec4 o_df64gl;\nvoid main() {\n  ivec2 p = ivec2(gl_FragCoord.xy);\n' +
    '  ' + vec + ' a = texelFetch(u_df64gl_a, p, 0)' + pick + ';\n' +
    '  ' + vec + ' b = texelFetch(u_df64gl_b, p, 0)' + pick + ';\n';
  const w = set.routines.reduce(function (m, r) { return Math.max(m, r.cases); }, 1);
  const h = set.routines.length;
  const stride = 3 * words + 1;
  const inputs = [new Float32Array(w * h * 4), new Float32Array(w * h * 4)];
  let c = 0;
  set.routines.forEach(function (r, k) {
    for (let i = 0; i < r.cases; i++, c++) {
      for (let j = 0; j < words; j++) {
        inputs[0][4 * (k * w + i) + j] = set.f32[stride * c + j];
        inputs[1][4 * (k * w + i) + j] = set.f32[stride * c + words + j];
      }
    }
  });
  // The target first (it binds unit 0 while it is made), then the inputs on units 0 and 1.
  renderTarget(gl, scratch, w, h, gl.RGBA32F);
  [0, 1].forEach(function (unit) {
    const t = scratch.add('texture', gl.createTexture());
    gl.activeTexture(gl.TEXTURE0 + unit);
    gl.bindTexture(gl.TEXTURE_2D, t);
    gl.texStorage2D(gl.TEXTURE_2D, 1, gl.RGBA32F, w, h);
    // Float textures are not filterable in WebGL 2: anything but NEAREST reads zeros.
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
    gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, w, h, gl.RGBA, gl.FLOAT, inputs[unit]);
  });
  const times = [];
  set.routines.forEach(function (r, k) {
    if (!chosen(r)) {
      times.push(0);
      return;
    }
    const t = now();
    const src = head + '  o_df64gl = ' + (words === 2 ? 'vec4(' + r.call + ', 0.0, 0.0)' : r.call) + ';\n}\n';
    const program = buildProgram(gl, scratch, src, 'the ' + label + ' ' + r.name + ' known-answer shader');
    gl.uniform1i(gl.getUniformLocation(program, 'u_df64gl_a'), 0);
    gl.uniform1i(gl.getUniformLocation(program, 'u_df64gl_b'), 1);
    gl.viewport(0, k, w, 1);
    gl.drawArrays(gl.TRIANGLES, 0, 3);
    // Programs are freed as they are done: a check holds one at a time.
    gl.useProgram(null);
    scratch.drop(program);
    times.push(now() - t);
  });
  const px = new Float32Array(w * h * 4);
  gl.readPixels(0, 0, w, h, gl.RGBA, gl.FLOAT, px);
  return judgeRoutines(set, chosen, function (k, i) { return 4 * (k * w + i); }, px, times);
}

// Every chosen routine of a set judged: case i of routine k left its words in `px` (a
// Float32Array) from index at(k, i). The error against the known value and its bound, and bit
// equality with the CPU mirror's words (any NaN equals any NaN). WebGL and WebGPU alike.
function judgeRoutines(set, chosen, at, px, times) {
  const words = set.words;
  const stride = 3 * words + 1;
  const bits = new Uint32Array(px.buffer, px.byteOffset, px.length);
  const mirrorBits = new Uint32Array(set.f32.buffer);
  // Word `part` (0: a, 1: b, 2: the mirror's result) of case c.
  const caseWords = function (c, part) {
    return Array.prototype.slice.call(set.f32, stride * c + part * words, stride * c + (part + 1) * words);
  };
  const results = [];
  let c = 0;
  set.routines.forEach(function (r, k) {
    if (!chosen(r)) {
      c += r.cases;
      return;
    }
    let worst = 0;
    let worstCase = null;
    let matched = 0;
    let failed = 0;
    let firstMismatch = null;
    for (let i = 0; i < r.cases; i++, c++) {
      const from = at(k, i);
      const got = Array.prototype.slice.call(px, from, from + words);
      const kind = set.kind[c];
      const want = [set.f64[3 * c], set.f64[3 * c + 1], set.f64[3 * c + 2]];
      const bound = set.f32[stride * c + 3 * words];
      const e = judge(got, kind, want, words === 2 ? DF64_FLOOR : 0);
      if (!(e <= bound)) failed++;
      if (!(e <= worst)) {
        worst = Number.isNaN(e) ? Infinity : e;
        worstCase = {
          a: caseWords(c, 0),
          b: caseWords(c, 1),
          got: got,
          want: kind === KIND_NAN ? 'NaN' : want,
        };
      }
      let same = true;
      for (let j = 0; j < words; j++) {
        const g = bits[from + j];
        const m = mirrorBits[stride * c + 2 * words + j];
        const bothNaN = Number.isNaN(px[from + j]) && Number.isNaN(set.f32[stride * c + 2 * words + j]);
        if (g !== m && !bothNaN) same = false;
      }
      if (same) matched++;
      else if (!firstMismatch) {
        firstMismatch = { a: caseWords(c, 0), b: caseWords(c, 1), got: got, mirror: caseWords(c, 2) };
      }
    }
    results.push({
      name: r.name,
      cases: r.cases,
      bound: r.bound,
      worst: worst,
      failed: failed,
      pass: failed === 0,
      mirrorMatched: matched,
      mirrorMismatch: firstMismatch,
      worstCase: failed ? worstCase : null,
      ms: times[k],
    });
  });
  return results;
}

function rendererOf(gl) {
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  return String(info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER));
}

// FNV-1a of the sources checked: a cached verdict is for these exact strings.
function hash(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16);
}

function storageOf(options) {
  if (options.storage !== undefined) return options.storage;
  try {
    return typeof localStorage !== 'undefined' ? localStorage : null;
  } catch (e) {
    return null; // a sandboxed frame throws on access
  }
}

function now() {
  return typeof performance !== 'undefined' ? performance.now() : Date.now();
}

function summarize(routines) {
  return routines.filter(function (r) { return !r.pass; }).map(function (r) {
    return r.name + ' ' + (Number.isFinite(r.worst) ? r.worst.toPrecision(3) : 'wrong special') +
      ' (bound ' + r.bound + ', ' + r.failed + ' of ' + r.cases + ' cases)';
  }).join(', ');
}

// A check's result before it is settled (the shape index.d.ts declares as CheckResult).
function emptyResult() {
  return {
    pass: false,
    reason: '',
    renderer: '',
    version: VERSION,
    probe: null,
    routines: [],
    qf128: null,
    ms: 0,
    cached: false,
  };
}

function settle(result, pass, reason, t0) {
  result.pass = pass;
  result.reason = reason;
  result.ms = now() - t0;
  return result;
}

// options.routines checked against the known answers: null for all, else the names.
function routinesAskedFor(known, opts) {
  const only = Array.isArray(opts.routines) ? opts.routines.map(String) : null;
  if (!only) return null;
  const names = known.df64.routines.map(function (r) { return r.name; });
  const qfNames = known.qf128.routines.map(function (r) { return r.name; });
  const unknown = only.filter(function (n) { return names.indexOf(n) < 0 && qfNames.indexOf(n) < 0; });
  if (unknown.length) {
    throw new CheckFailure('options.routines: no routine ' + unknown.join(', ') + '; the df64 routines are ' + names.join(', ') + ' and the qf128 ones ' + qfNames.join(', '));
  }
  // Nothing passes unchecked: each set asked for checks at least one of its routines.
  if (!only.some(function (n) { return names.indexOf(n) >= 0; })) {
    throw new CheckFailure('options.routines names no df64 routine (' + names.join(', ') + ')');
  }
  if (opts.qf128 && !only.some(function (n) { return qfNames.indexOf(n) >= 0; })) {
    throw new CheckFailure('options.routines names no qf128 routine (' + qfNames.join(', ') + ') but options.qf128 asks for them');
  }
  return only;
}

/**
 * Proves the df64 routines (and with `options.qf128`, the qf128 ones) on this WebGL 2
 * context: the probe shader, then every exported routine on known answers. Never throws for a
 * driver that fails; see index.d.ts for the options and the result.
 */
export function check(gl, options) {
  const opts = options || {};
  const t0 = now();
  const df64Source = typeof opts.glsl === 'string' ? opts.glsl : DF64_GLSL;
  const qf128Source = typeof opts.qf128Glsl === 'string' ? opts.qf128Glsl : QF128_GLSL;
  const result = emptyResult();
  const done = function (pass, reason) {
    return settle(result, pass, reason, t0);
  };
  const isWebGL2 = gl && typeof gl.texStorage2D === 'function' && typeof gl.createVertexArray === 'function';
  if (!isWebGL2) {
    return done(false, 'no WebGL 2 context: df64 needs WebGL 2 (GLSL ES 3.00, for floatBitsToUint and highp integers)');
  }
  if (gl.isContextLost && gl.isContextLost()) return done(false, 'the WebGL context is lost');
  let renderer = '';
  try {
    renderer = rendererOf(gl);
  } catch (e) {
    renderer = 'unknown';
  }
  result.renderer = renderer;
  const storage = opts.cache === false ? null : storageOf(opts);
  const key = 'df64gl-check:' + VERSION + ':' + hash(df64Source + (opts.qf128 ? qf128Source : '') +
    (Array.isArray(opts.routines) ? ':' + opts.routines.join(',') : '')) +
    (opts.qf128 ? ':qf128' : '') + ':' + renderer;
  if (storage) {
    try {
      const saved = storage.getItem(key);
      if (saved) {
        const r = JSON.parse(saved);
        if (r && typeof r.pass === 'boolean') {
          r.cached = true;
          r.ms = now() - t0;
          return r;
        }
      }
    } catch (e) {
      // An unreadable entry is checked again.
    }
  }
  if (!gl.getExtension('EXT_color_buffer_float')) {
    return done(false, 'EXT_color_buffer_float is missing on ' + renderer + ': the check cannot read float results back, so df64 is unproven here');
  }
  const saved = saveState(gl);
  const scratch = new Scratch(gl);
  let measured = false;
  try {
    neutralState(gl);
    const vao = scratch.add('vertexArray', gl.createVertexArray());
    gl.bindVertexArray(vao);
    const known = knownAnswers();
    const only = routinesAskedFor(known, opts);
    const t = now();
    result.probe = runProbe(gl, scratch, df64Source);
    result.probe.ms = now() - t;
    result.routines = runKnown(gl, scratch, df64Source, known.df64, 'df64', only);
    if (opts.qf128) {
      const routines = runKnown(gl, scratch, df64Source + qf128Source, known.qf128, 'qf128', only);
      result.qf128 = { pass: routines.every(function (r) { return r.pass; }), routines: routines };
    }
    const glError = gl.getError();
    if (glError !== gl.NO_ERROR) throw new CheckFailure('WebGL error ' + glError + ' during the check');
    measured = true;
    const probeOk = result.probe.green === result.probe.pixels;
    const failures = summarize(result.routines);
    let reason;
    if (!probeOk) {
      reason = 'the probe shader is green on ' + result.probe.green + ' of ' + result.probe.pixels +
        ' pixels: this compiler rewrites the error-free transforms df64 is made of';
    } else if (failures) {
      reason = 'df64 routines off their bounds on ' + renderer + ': ' + failures;
    } else if (result.qf128 && !result.qf128.pass) {
      reason = 'qf128 routines off their bounds on ' + renderer + ': ' + summarize(result.qf128.routines);
    } else {
      reason = 'df64' + (result.qf128 ? ' and qf128' : '') + ' exact on ' + renderer;
    }
    done(probeOk && !failures && !(result.qf128 && !result.qf128.pass), reason);
  } catch (e) {
    done(false, e instanceof CheckFailure ? e.reason : 'the check could not run: ' + (e && e.message ? e.message : String(e)));
  } finally {
    try {
      scratch.free();
      restoreState(gl, saved);
    } catch (e) {
      // A lost context cannot be restored; the result says why already.
    }
  }
  if (measured && storage) {
    try {
      storage.setItem(key, JSON.stringify(result));
    } catch (e) {
      // A full or refused storage only costs a new check next time.
    }
  }
  return result;
}

// ------------------------------------------------------------------ WebGPU

// The check's own buffers sit at group 1; the export's barrier buffer at group 0, binding 0 (a
// read-only storage buffer, or with options.zero === 'uniform' a uniform one).
const WGSL_IO = '\n// ---- df64gl known-answer check\n' +
  '@group(1) @binding(0) var<storage, read> df64gl_in: array<vec4<f32>>;\n' +
  '@group(1) @binding(1) var<storage, read_write> df64gl_out: array<vec4<f32>>;\n' +
  'struct Df64glRange { first: u32, count: u32, pad0: u32, pad1: u32 }\n' +
  '@group(1) @binding(2) var<uniform> df64gl_range: Df64glRange;\n';
const RANGE_SLOT = 256;

// Every chosen routine of a set as a compute entry point of one module, run on its cases.
async function runKnownWebGPU(device, source, set, label, only, opts) {
  const words = set.words;
  const chosen = function (r) { return !only || only.indexOf(r.name) >= 0; };
  const ty = words === 2 ? 'vec2<f32>' : 'vec4<f32>';
  const pick = words === 2 ? '.xy' : '';
  let code = source + WGSL_IO;
  set.routines.forEach(function (r, k) {
    if (!chosen(r)) return;
    const value = words === 2 ? 'vec4<f32>(' + r.wgsl + ', 0.0, 0.0)' : r.wgsl;
    code += '@compute @workgroup_size(64)\nfn df64gl_known_' + k +
      '(@builtin(global_invocation_id) id: vec3<u32>) {\n' +
      '  if (id.x >= df64gl_range.count) { return; }\n' +
      '  let i = df64gl_range.first + id.x;\n' +
      '  let a: ' + ty + ' = df64gl_in[2u * i]' + pick + ';\n' +
      '  let b: ' + ty + ' = df64gl_in[2u * i + 1u]' + pick + ';\n' +
      '  df64gl_out[i] = ' + value + ';\n}\n';
  });
  const cases = set.routines.reduce(function (n, r) { return n + r.cases; }, 0);
  const stride = 3 * words + 1;
  const input = new Float32Array(8 * cases);
  const start = [];
  let c = 0;
  set.routines.forEach(function (r) {
    start.push(4 * c);
    for (let i = 0; i < r.cases; i++, c++) {
      for (let j = 0; j < words; j++) {
        input[8 * c + j] = set.f32[stride * c + j];
        input[8 * c + 4 + j] = set.f32[stride * c + words + j];
      }
    }
  });
  const ranges = new Uint32Array(RANGE_SLOT / 4 * set.routines.length);
  let first = 0;
  set.routines.forEach(function (r, k) {
    ranges[k * RANGE_SLOT / 4] = first;
    ranges[k * RANGE_SLOT / 4 + 1] = r.cases;
    first += r.cases;
  });
  const made = [];
  const buffer = function (size, usage, data) {
    const b = device.createBuffer({ size: size, usage: usage, mappedAtCreation: !!data });
    made.push(b);
    if (data) {
      new Uint8Array(b.getMappedRange()).set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
      b.unmap();
    }
    return b;
  };
  const U = GPUBufferUsage;
  // The scope is popped on every path: one left pushed would swallow the caller's errors.
  let scoped = false;
  try {
    device.pushErrorScope('validation');
    scoped = true;
    const module = device.createShaderModule({ code: code, label: 'df64gl ' + label + ' known answers' });
    const info = module.getCompilationInfo ? await module.getCompilationInfo() : { messages: [] };
    const errors = info.messages.filter(function (m) { return m.type === 'error'; });
    if (errors.length) {
      scoped = false;
      await device.popErrorScope();
      throw new CheckFailure('the ' + label + ' WGSL does not compile here: ' + errors.map(function (m) {
        return m.lineNum + ':' + m.linePos + ' ' + m.message;
      }).slice(0, 3).join('; '));
    }
    const zeroLayout = device.createBindGroupLayout({ entries: [
      { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: opts.zero === 'uniform' ? 'uniform' : 'read-only-storage' } }] });
    const ioLayout = device.createBindGroupLayout({ entries: [
      { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'read-only-storage' } },
      { binding: 1, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'storage' } },
      { binding: 2, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'uniform', hasDynamicOffset: true } }] });
    const layout = device.createPipelineLayout({ bindGroupLayouts: [zeroLayout, ioLayout] });
    const zero = buffer(16, U.UNIFORM | U.STORAGE, new Uint32Array(4));
    const inBuf = buffer(input.byteLength, U.STORAGE, input);
    const outBuf = buffer(16 * cases, U.STORAGE | U.COPY_SRC);
    const readBuf = buffer(16 * cases, U.MAP_READ | U.COPY_DST);
    const rangeBuf = buffer(ranges.byteLength, U.UNIFORM, ranges);
    const zeroGroup = device.createBindGroup({ layout: zeroLayout, entries: [
      { binding: 0, resource: { buffer: zero } }] });
    const ioGroup = device.createBindGroup({ layout: ioLayout, entries: [
      { binding: 0, resource: { buffer: inBuf } },
      { binding: 1, resource: { buffer: outBuf } },
      { binding: 2, resource: { buffer: rangeBuf, size: 16 } }] });
    const times = [];
    const encoder = device.createCommandEncoder();
    for (let k = 0; k < set.routines.length; k++) {
      const r = set.routines[k];
      if (!chosen(r)) {
        times.push(0);
        continue;
      }
      const t = now();
      const pipeline = await device.createComputePipelineAsync({
        layout: layout,
        compute: { module: module, entryPoint: 'df64gl_known_' + k },
      });
      times.push(now() - t);
      const pass = encoder.beginComputePass();
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, zeroGroup);
      pass.setBindGroup(1, ioGroup, [k * RANGE_SLOT]);
      pass.dispatchWorkgroups(Math.ceil(r.cases / 64));
      pass.end();
    }
    encoder.copyBufferToBuffer(outBuf, 0, readBuf, 0, 16 * cases);
    device.queue.submit([encoder.finish()]);
    scoped = false;
    const error = await device.popErrorScope();
    if (error) throw new CheckFailure('WebGPU error during the ' + label + ' check: ' + error.message);
    await readBuf.mapAsync(GPUMapMode.READ);
    const px = new Float32Array(readBuf.getMappedRange().slice(0));
    readBuf.unmap();
    return judgeRoutines(set, chosen, function (k, i) { return start[k] + 4 * i; }, px, times);
  } finally {
    if (scoped) await device.popErrorScope().catch(function () {});
    made.forEach(function (b) { b.destroy(); });
  }
}

function adapterOf(device) {
  const info = device.adapterInfo;
  if (!info) return 'unknown';
  return [info.vendor, info.architecture, info.device, info.description]
    .filter(function (x) { return x; }).join(' ') || 'unknown';
}

/**
 * Proves the WGSL routines (DF64_WGSL; with `options.qf128`, DF64_QF128_WGSL) on this WebGPU
 * device: every routine on the known answers `check` runs, judged alike. Resolves to the same
 * kind of result as `check(gl)` (no probe shader: the known answers include twoSum and
 * twoProduct); never rejects for a device that fails. See index.d.ts.
 */
export async function checkWebGPU(device, options) {
  const opts = options || {};
  const t0 = now();
  const result = emptyResult();
  const done = function (pass, reason) {
    return settle(result, pass, reason, t0);
  };
  if (!device || typeof device.createShaderModule !== 'function' || typeof GPUBufferUsage === 'undefined') {
    return done(false, 'no WebGPU device: pass the GPUDevice your renderer uses (navigator.gpu.requestAdapter(), then adapter.requestDevice())');
  }
  result.renderer = adapterOf(device);
  const source = typeof opts.wgsl === 'string' ? opts.wgsl : opts.qf128 ? DF64_QF128_WGSL : DF64_WGSL;
  try {
    const known = knownAnswers();
    const only = routinesAskedFor(known, opts);
    result.routines = await runKnownWebGPU(device, source, known.df64, 'df64', only, opts);
    if (opts.qf128) {
      const routines = await runKnownWebGPU(device, source, known.qf128, 'qf128', only, opts);
      result.qf128 = { pass: routines.every(function (r) { return r.pass; }), routines: routines };
    }
    const failures = summarize(result.routines);
    let reason;
    if (failures) {
      reason = 'df64 routines off their bounds on ' + result.renderer + ': ' + failures;
    } else if (result.qf128 && !result.qf128.pass) {
      reason = 'qf128 routines off their bounds on ' + result.renderer + ': ' + summarize(result.qf128.routines);
    } else {
      reason = 'df64' + (result.qf128 ? ' and qf128' : '') + ' exact on ' + result.renderer;
    }
    return done(!failures && !(result.qf128 && !result.qf128.pass), reason);
  } catch (e) {
    return done(false, e instanceof CheckFailure ? e.reason : 'the check could not run: ' + (e && e.message ? e.message : String(e)));
  }
}
