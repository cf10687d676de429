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
  PROBE_FUNCTIONS,
  PROBE_ROUTINES,
  KNOWN_ANSWERS,
} from './generated.js';
import { saveState, neutralState, restoreState, takeErrors, putBackErrors, outOfMemory } from './gl-state.js';
import { optionsOf, describe } from './options.js';
import { deviceLost, lostMessage } from './webgpu-device.js';
import { decodeKnownAnswers, judgeRoutines, judgeVecRoutines } from './judge.js';

export { VERSION, DF64_GLSL, QF128_GLSL, DF64_WGSL, DF64_QF128_WGSL };
export { createFft } from './fft.js';
export { createFftWebGPU } from './fft-webgpu.js';

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

// `values` as an array of numbers (an Array, a typed array or another array-like object, not a
// string), or a TypeError naming `what`.
function numbersArg(values, what, takes) {
  const list = values !== null && typeof values === 'object' && !(values instanceof DataView) &&
    Number.isInteger(values.length) && values.length >= 0;
  if (!list) throw new TypeError(what + ' takes ' + takes + ', not ' + describe(values));
  // A float array holds numbers only: no pass over a large one.
  if (values instanceof Float64Array || values instanceof Float32Array) return;
  for (let i = 0; i < values.length; i++) {
    if (typeof values[i] !== 'number') {
      throw new TypeError(what + ': element ' + i + ' is ' + describe(values[i]) + ', not a number');
    }
  }
}

// A pair from `split` that is a position's or a matrix's words: finite (within f32's range),
// or a RangeError naming element i of `what`.
function finiteWords(v, i, what) {
  const w = split(v);
  if (!Number.isFinite(w[0]) || !Number.isFinite(w[1])) {
    throw new RangeError(what + ': element ' + i + ' is ' + v + (Number.isFinite(v)
      ? ', past f32\'s range (|x| < 3.4e38): its df64 words would be infinite' : ': df64 takes finite numbers'));
  }
  return w;
}

/**
 * The df64 of every number of an array (Float64Array or any array of numbers) as one
 * interleaved Float32Array [hi0, lo0, hi1, lo1, ...], ready for a vec2 attribute or an RG32F
 * texture. Each pair is `split`'s (so NaN and infinities, and numbers past f32's range, give
 * the pairs `split` documents). A TypeError for anything but an array of numbers.
 */
export function splitArray(values) {
  numbersArg(values, 'splitArray', 'an array of numbers (an Array or a Float64Array)');
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
  mat4Arg(m, 'splitMat4');
  const hi = new Float32Array(16);
  const lo = new Float32Array(16);
  for (let i = 0; i < 16; i++) {
    const w = finiteWords(m[i], i, 'splitMat4');
    hi[i] = w[0];
    lo[i] = w[1];
  }
  return { hi: hi, lo: lo };
}

// ------------------------------------------------------------------ positions relative to the eye

/**
 * Positions held as doubles (x, y, z, x, y, z, ...: a Float64Array or any array of numbers) as
 * two Float32Arrays of the same length, `hi` and `lo`, for two vec3 attributes: element i is
 * split(positions[i]). In a shader `df64vec3(position_hi, position_lo)` is the position again
 * to about 48 bits (millimetres at a billion metres).
 */
export function splitPositions(positions) {
  numbersArg(positions, 'splitPositions', 'an array of numbers (x, y, z, x, y, z, ...)');
  const hi = new Float32Array(positions.length);
  const lo = new Float32Array(positions.length);
  for (let i = 0; i < positions.length; i++) {
    const w = finiteWords(positions[i], i, 'splitPositions');
    hi[i] = w[0];
    lo[i] = w[1];
  }
  return { hi: hi, lo: lo };
}

// A column-major 4x4 matrix of finite numbers, or an Error naming `name`'s argument `arg`.
function mat4Arg(m, name, arg) {
  const what = name + (arg ? ': ' + arg : '');
  numbersArg(m, what, '16 numbers (a column-major 4x4 matrix)');
  if (m.length !== 16) throw new TypeError(what + ' takes 16 numbers (a column-major 4x4 matrix), not ' + m.length);
  for (let i = 0; i < 16; i++) {
    if (!Number.isFinite(m[i])) throw new RangeError(what + ': element ' + i + ' is ' + m[i] + '; a matrix takes finite numbers');
  }
}

// A camera position [x, y, z] of finite numbers, or an Error naming `name`.
function eyeArg(eye, name) {
  numbersArg(eye, name + ': eye', '[x, y, z] (three numbers)');
  if (eye.length !== 3) throw new TypeError(name + ': eye is [x, y, z], not ' + eye.length + ' numbers');
  for (let i = 0; i < 3; i++) {
    if (!Number.isFinite(eye[i])) throw new RangeError(name + ': eye[' + i + '] is ' + eye[i] + '; the eye takes finite numbers');
  }
}

/**
 * The model matrix relative to the eye, in doubles: translate(-eye) times `model` (both
 * column-major; `eye` the camera's world position [x, y, z]). Its translation column is the
 * object's origin minus the eye, computed before any f32 rounding; `splitMat4` of it gives the
 * df64mat4 a vertex shader multiplies local positions by (`df64mat4_mul_vec4`).
 */
export function relativeToEye(model, eye) {
  mat4Arg(model, 'relativeToEye', 'model');
  eyeArg(eye, 'relativeToEye');
  const out = new Float64Array(16);
  for (let i = 0; i < 16; i++) out[i] = model[i];
  // Column c gains -eye times its w (row 3) entry.
  for (let c = 0; c < 4; c++) {
    for (let r = 0; r < 3; r++) {
      const v = model[4 * c + r] - eye[r] * model[4 * c + 3];
      if (!Number.isFinite(v)) {
        throw new RangeError('relativeToEye: element ' + (4 * c + r) + ' of the matrix relative to the eye overflows the doubles (' +
          model[4 * c + r] + ' - ' + eye[r] + ' * ' + model[4 * c + 3] + ')');
      }
      out[4 * c + r] = v;
    }
  }
  return out;
}

/**
 * A view matrix (column-major) without its translation, as a Float32Array: the view of a
 * camera at the origin with the same orientation. What the f32 side of relative-to-eye
 * rendering multiplies by (`df64_world_to_view`, or after `df64mat4_mul_vec4`).
 */
export function viewRotation(view) {
  mat4Arg(view, 'viewRotation', 'view');
  const out = new Float32Array(16);
  for (let i = 0; i < 12; i++) out[i] = view[i];
  out[15] = view[15];
  return out;
}

/**
 * The vertex shader code of relative-to-eye rendering with a per-object model matrix, for
 * GLSL ES 3.00 after DF64_GLSL: three uniforms (the model matrix relative to the eye as a
 * df64mat4, `df64_model_rte_hi` and `df64_model_rte_lo`, from `splitMat4(relativeToEye(model,
 * eye))`, and `df64_view_rotation` from `viewRotation(view)`) and
 * `vec4 df64_rte_view_position(vec3 position_hi, vec3 position_lo)`, the view-space position.
 * With `DF64_RTE_TRANSLATION_ONLY` defined (a model matrix with no rotation or scale) it adds
 * the df64 translation only: 3 df64 additions a vertex instead of a df64 matrix product.
 */
export const DF64_RTE_GLSL = `
uniform highp mat4 df64_model_rte_hi;
uniform highp mat4 df64_model_rte_lo;
uniform highp mat4 df64_view_rotation;
vec4 df64_rte_view_position(vec3 position_hi, vec3 position_lo) {
#ifdef DF64_RTE_TRANSLATION_ONLY
  df64vec3 t = df64vec3(df64_model_rte_hi[3].xyz, df64_model_rte_lo[3].xyz);
  return df64_world_to_view(df64_view_rotation, df64vec3_neg(t), df64vec3(position_hi, position_lo));
#else
  df64mat4 m = df64mat4(df64_model_rte_hi, df64_model_rte_lo);
  df64vec4 p = df64mat4_mul_vec4(m, df64vec4(vec4(position_hi, 1.0), vec4(position_lo, 0.0)));
  return df64_view_rotation * vec4(df64vec4_to_f32(p).xyz, 1.0);
#endif
}
`;

/**
 * The uniforms of DF64_RTE_GLSL for one object and camera: `model` the object's world matrix,
 * `eye` the camera's world position, `view` the camera's view matrix (all doubles,
 * column-major). `translationOnly` says whether `model` has no rotation or scale (its upper
 * 3 x 3 the identity), for DF64_RTE_TRANSLATION_ONLY.
 */
export function rteUniforms(model, eye, view) {
  const m = relativeToEye(model, eye);
  let words;
  try {
    words = splitMat4(m);
  } catch (e) {
    // The object is too far from the eye for f32's range: say so in the caller's terms.
    throw new RangeError('rteUniforms: the model matrix relative to the eye lies past f32\'s range (' +
      e.message.replace(/^splitMat4: /, '') + '): bring the eye nearer the object');
  }
  let translationOnly = true;
  for (let c = 0; c < 3; c++) {
    for (let r = 0; r < 4; r++) if (model[4 * c + r] !== (c === r ? 1 : 0)) translationOnly = false;
  }
  return {
    df64_model_rte_hi: words.hi,
    df64_model_rte_lo: words.lo,
    df64_view_rotation: viewRotation(view),
    translationOnly: translationOnly,
  };
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

/**
 * df64 positions relative to the eye as a luma.gl 9 shader module (deck.gl's use of fp64):
 * `modules: [df64rte]` (it brings `df64`) gives a vertex shader
 * `vec4 df64rte_viewPosition(vec3 positionHigh, vec3 positionLow)`, the view-space position of
 * a local position held as two f32 attributes (`splitPositions`), through the model matrix
 * relative to the eye in df64. Set its props per draw with
 * `model.shaderInputs.setProps({df64rte: {modelMatrix, eye, viewMatrix}})` (doubles,
 * column-major; eye the camera's world position), then project with your f32 projection.
 */
export const df64rte = {
  name: 'df64rte',
  dependencies: [df64],
  vs: `\
layout(std140) uniform df64rteUniforms {
  mat4 modelHigh;
  mat4 modelLow;
  mat4 viewRotation;
} df64rte;

vec4 df64rte_viewPosition(vec3 positionHigh, vec3 positionLow) {
  df64mat4 m = df64mat4(df64rte.modelHigh, df64rte.modelLow);
  df64vec4 p = df64mat4_mul_vec4(m, df64vec4(vec4(positionHigh, 1.0), vec4(positionLow, 0.0)));
  return df64rte.viewRotation * vec4(df64vec4_to_f32(p).xyz, 1.0);
}
`,
  uniformTypes: { modelHigh: 'mat4x4<f32>', modelLow: 'mat4x4<f32>', viewRotation: 'mat4x4<f32>' },
  defaultUniforms: {
    modelHigh: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
    modelLow: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    viewRotation: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
  },
  getUniforms: function (props) {
    if (!props || !props.modelMatrix || !props.eye || !props.viewMatrix) return {};
    const u = rteUniforms(props.modelMatrix, props.eye, props.viewMatrix);
    return {
      modelHigh: Array.from(u.df64_model_rte_hi),
      modelLow: Array.from(u.df64_model_rte_lo),
      viewRotation: Array.from(u.df64_view_rotation),
    };
  },
};

// ------------------------------------------------------------------ the check

// The least a host gives a fragment shader: float precision only (luma.gl's assembler, for
// one). DF64_GLSL sets highp int itself; a source that does not (an older export) is checked as
// such a host runs it. Vertex shaders default to highp.
const VERSION_LINE = '#version 300 es\n';
const FRAGMENT_HEADER = VERSION_LINE + 'precision highp float;\n';
const PROBE_SIZE = 64;
const STAGES = ['vertex', 'fragment'];

// The known answers, decoded once.
let decoded = null;
function knownAnswers() {
  if (!decoded) decoded = decodeKnownAnswers(KNOWN_ANSWERS);
  return decoded;
}

// WebGL state check() touches, saved before and put back after, whatever happens.
// Everything the check creates, deleted at the end whatever happens.
function Scratch(gl) {
  this.gl = gl;
  this.items = [];
}
Scratch.prototype.add = function (kind, obj) {
  // A lost context hands out null objects: say so rather than fail on the first use.
  if (obj === null) throw new CheckFailure(lostOr(this.gl, 'WebGL could not create a ' + kind));
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

const LOST = 'the WebGL context was lost during the check';

// The reason, unless the context is lost (then that is the reason).
function lostOr(gl, reason) {
  return gl.isContextLost && gl.isContextLost() ? LOST : reason;
}

// Starts a program's compile and link; nothing here waits for the driver (with
// KHR_parallel_shader_compile the driver compiles while the page runs).
function startProgram(gl, scratch, vertex, fragment) {
  const p = scratch.add('program', gl.createProgram());
  const shaders = [[gl.VERTEX_SHADER, 'vertex', vertex], [gl.FRAGMENT_SHADER, 'fragment', fragment]].map(function (k) {
    const s = gl.createShader(k[0]);
    if (s === null) throw new CheckFailure(lostOr(gl, 'WebGL could not create a shader'));
    gl.shaderSource(s, k[2]);
    gl.compileShader(s);
    gl.attachShader(p, s);
    return [s, k[1]];
  });
  gl.linkProgram(p);
  return { program: p, shaders: shaders };
}

// A started program's verdict (this waits for the driver if it has not finished), in use.
function finishProgram(gl, started, what) {
  const p = started.program;
  let failure = null;
  started.shaders.forEach(function (sh) {
    if (!failure && !gl.getShaderParameter(sh[0], gl.COMPILE_STATUS)) {
      failure = what + ' does not compile here (' + sh[1] + ' shader): ' + gl.getShaderInfoLog(sh[0]);
    }
    // Flagged now, freed with the program.
    gl.deleteShader(sh[0]);
  });
  if (failure) throw new CheckFailure(lostOr(gl, failure));
  if (!gl.getProgramParameter(p, gl.LINK_STATUS)) {
    throw new CheckFailure(lostOr(gl, what + ' does not link here: ' + gl.getProgramInfoLog(p)));
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
    throw new CheckFailure(lostOr(gl, 'a ' + w + 'x' + h + ' render target is incomplete here'));
  }
  gl.viewport(0, 0, w, h);
  return fb;
}

// A check program's two shaders: `library` (the export and what it computes) in each stage
// that computes, told which by DF64GL_CHECK_VERTEX or DF64GL_CHECK_FRAGMENT; then the mains.
// The same layout as the Rust check (df64gl::export::context_check).
function stagedSources(stages, library, vertexMain, fragmentMain) {
  const vertex = VERSION_LINE + (stages.vertex ? '#define DF64GL_CHECK_VERTEX 1\n' + library : '') + vertexMain;
  const fragment = FRAGMENT_HEADER + (stages.fragment ? '#define DF64GL_CHECK_FRAGMENT 1\n' + library : '') + fragmentMain;
  return [vertex, fragment];
}

// The probe in both halves of a 128 x 64 image: left the fragment shader's pixels, right the
// vertex shader's (one point per pixel, its verdict passed on flat).
const PROBE_VERTEX_MAIN = '\nflat out highp uint v_df64gl_ok;\nvoid main() {\n' +
  '    int id = gl_VertexID;\n    int half_ = id / 4096;\n    int p = id - 4096 * half_;\n' +
  '    int px = p - 64 * (p / 64);\n    int py = p / 64;\n' +
  '    gl_Position = vec4((float(px + 64 * half_) + 0.5) / 64.0 - 1.0, (float(py) + 0.5) / 32.0 - 1.0, 0.0, 1.0);\n' +
  '    gl_PointSize = 1.0;\n    v_df64gl_ok = 0u;\n#ifdef DF64GL_CHECK_VERTEX\n' +
  '    if (half_ == 1) v_df64gl_ok = df64_probe_pixel(vec2(float(px) + 0.5, float(py) + 0.5)) ? 1u : 0u;\n' +
  '#endif\n}\n';
const PROBE_FRAGMENT_MAIN = '\nflat in highp uint v_df64gl_ok;\nout highp vec4 o_df64gl;\nvoid main() {\n' +
  '    bool ok = false;\n    if (gl_FragCoord.x >= 64.0) {\n        ok = v_df64gl_ok == 1u;\n    } else {\n' +
  '#ifdef DF64GL_CHECK_FRAGMENT\n        ok = df64_probe_pixel(gl_FragCoord.xy);\n#endif\n    }\n' +
  '    o_df64gl = ok ? vec4(0.0, 1.0, 0.0, 1.0) : vec4(1.0, 0.0, 0.0, 1.0);\n}\n';

// Whether a source turns the barrier on (DF64_BARRIER 1, as every GLSL ES export does). Then
// each routine XORs its operands with a uniform on entry, a literal argument reaches its
// arithmetic as a value no compiler knows, and the probe's literal cases would run the known
// answers' code path again: the probe's GLSL leaves them out in a check (DF64_PROBE_LITERALS,
// decided by the preprocessor), and the probe is one small program. On SwiftShader they were
// 2.2 of the 2.3 s of the probe of a check of every routine (exp, log, sin and cos compiled a
// second time in each stage).
function barrierOn(source) {
  return /^[ \t]*#[ \t]*define[ \t]+DF64_BARRIER[ \t]+1\b/m.test(source);
}

// The probe shader in each stage asked for: green pixels of each half. A check's probe: the
// error-free transforms and, without the barrier, the literal (compile-time) cases of the
// routines checked, whose known answers run them at run time (a probe no larger than the proof
// needs). A generator of the check's steps (see checkSteps).
function* probeSteps(gl, scratch, source, stages, chosen, inFlight) {
  const t = now();
  // `check` (every program in flight), or the barrier on (the transforms alone): one program.
  // checkAsync otherwise: one program per probe routine checked, each with the transforms,
  // started as in gridSteps: as one program the probe of every routine took 5.4 s to compile
  // on SwiftShader, all of it one task of the page (split, the longest task was 0.83 s; split
  // in `check` too, the four arithmetic routines' probe took twice as long). A pixel is green
  // when it is green in every program.
  const picked = [];
  PROBE_ROUTINES.forEach(function (name, k) {
    if (chosen({ name: name })) picked.push(k);
  });
  const groups = inFlight > 2 || barrierOn(source) ? [picked] : picked.length ? picked.map(function (k) { return [k]; }) : [[]];
  const start = function (group) {
    const switches = '#define DF64_PROBE_CHECK 1\n' + PROBE_ROUTINES.map(function (name, k) {
      return group.indexOf(k) >= 0 ? '' : '#define DF64_PROBE_OP_' + k + ' 0\n';
    }).join('');
    const src = stagedSources(stages, switches + librarySlice(source + PROBE_FUNCTIONS, PROBE_VERTEX_MAIN + PROBE_FRAGMENT_MAIN),
      PROBE_VERTEX_MAIN, PROBE_FRAGMENT_MAIN);
    return startProgram(gl, scratch, src[0], src[1]);
  };
  const fb = renderTarget(gl, scratch, 2 * PROBE_SIZE, PROBE_SIZE, gl.RGBA8);
  const ok = new Uint8Array(2 * PROBE_SIZE * PROBE_SIZE).fill(1);
  const px = new Uint8Array(2 * PROBE_SIZE * PROBE_SIZE * 4);
  const started = [];
  const ahead = inFlight;
  for (let g = 0; g < groups.length; g++) {
    while (started.length < Math.min(g + ahead, groups.length)) started.push(start(groups[started.length]));
    yield { program: started[g].program };
    const program = finishProgram(gl, started[g], 'the probe shader');
    // The page may have drawn in between: bind what this draw writes.
    gl.bindFramebuffer(gl.FRAMEBUFFER, fb);
    gl.viewport(0, 0, 2 * PROBE_SIZE, PROBE_SIZE);
    if (stages.fragment) gl.drawArrays(gl.POINTS, 0, PROBE_SIZE * PROBE_SIZE);
    if (stages.vertex) gl.drawArrays(gl.POINTS, PROBE_SIZE * PROBE_SIZE, PROBE_SIZE * PROBE_SIZE);
    gl.useProgram(null);
    yield { fence: true };
    gl.bindFramebuffer(gl.FRAMEBUFFER, fb);
    gl.readPixels(0, 0, 2 * PROBE_SIZE, PROBE_SIZE, gl.RGBA, gl.UNSIGNED_BYTE, px);
    scratch.drop(program);
    for (let i = 0; i < ok.length; i++) {
      if (!(px[4 * i] === 0 && px[4 * i + 1] === 255 && px[4 * i + 2] === 0)) ok[i] = 0;
    }
  }
  const green = [0, 0];
  for (let i = 0; i < ok.length; i++) {
    if (ok[i]) green[i % (2 * PROBE_SIZE) < PROBE_SIZE ? 0 : 1]++;
  }
  const ms = now() - t;
  const pixels = PROBE_SIZE * PROBE_SIZE;
  return {
    fragment: stages.fragment ? { green: green[0], pixels: pixels, ms: ms } : null,
    vertex: stages.vertex ? { green: green[1], pixels: pixels, ms: ms } : null,
  };
}

// ---- the check's programs: each the library cut to what it calls, small routines together

// The top-level functions of GLSL source (brace depth, comments and preprocessor lines skipped
// at the top level), as pieces: {name, text} for a function (its comment and header with it),
// {name: null, text} for everything else (declarations, constants, preprocessor lines); and per
// function name the names it calls and its inlined size. Null where the braces do not balance
// (a source this scan cannot split is compiled whole).
let indexedSource = null;
let indexed = null;
function functionIndex(source) {
  if (source === indexedSource) return indexed;
  const pieces = [];
  const n = source.length;
  let depth = 0;
  let i = 0;
  let from = 0;
  let open = -1;
  const cut = function (to, name) {
    if (to > from) pieces.push({ name: name, text: source.slice(from, to) });
    from = to;
  };
  while (i < n) {
    const c = source[i];
    if (c === '/' && source[i + 1] === '/') {
      const e = source.indexOf('\n', i);
      i = e < 0 ? n : e;
    } else if (c === '/' && source[i + 1] === '*') {
      const e = source.indexOf('*/', i + 2);
      i = e < 0 ? n : e + 2;
    } else if (c === '#' && depth === 0) {
      // A preprocessor line (and its continuations) stands alone: an #if around functions
      // stays whichever of them are kept.
      const start = source.lastIndexOf('\n', i) + 1;
      if (start > from) cut(start, null);
      let e = i;
      do {
        e = source.indexOf('\n', e + 1);
      } while (e > 0 && source[e - 1] === '\\');
      i = e < 0 ? n : e + 1;
      cut(i, null);
    } else {
      if (c === '{') {
        if (depth === 0) open = i;
        depth++;
      } else if (c === '}') {
        depth--;
        if (depth < 0) break;
        if (depth === 0) {
          const head = source.slice(from, open).replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, '');
          // A GLSL head ends `name(...)`; a WGSL one (routinesCalledBy reads WGSL) has `fn name(`.
          const m = /\bfn\s+(\w+)\s*\(/.exec(head) || /(\w+)\s*\([^()]*\)\s*$/.exec(head);
          // A struct's declaration runs to its ';'.
          if (m) cut(i + 1, m[1]);
        }
      } else if (c === ';' && depth === 0) {
        cut(i + 1, null);
      }
      i++;
    }
  }
  indexedSource = source;
  indexed = null;
  if (depth !== 0) return null;
  cut(n, null);
  const calls = new Map();
  pieces.forEach(function (p) {
    if (p.name !== null) calls.set(p.name, new Set());
  });
  pieces.forEach(function (p) {
    if (p.name === null) return;
    const body = p.text.slice(p.text.indexOf('{')).replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, '');
    p.own = body.replace(/\s+/g, ' ').length;
    p.sites = [];
    for (const m of body.matchAll(/\b(\w+)\s*\(/g)) {
      if (calls.has(m[1]) && m[1] !== p.name) {
        calls.get(p.name).add(m[1]);
        p.sites.push(m[1]);
      }
    }
  });
  indexed = { pieces: pieces, calls: calls, sizes: new Map() };
  return indexed;
}

// The names of the library's functions that `code` calls, directly or not.
function reachable(index, code) {
  const seen = new Set();
  const stack = [];
  for (const m of code.replace(/\/\/[^\n]*/g, '').matchAll(/\b(\w+)\s*\(/g)) {
    if (index.calls.has(m[1]) && !seen.has(m[1])) {
      seen.add(m[1]);
      stack.push(m[1]);
    }
  }
  while (stack.length) {
    index.calls.get(stack.pop()).forEach(function (c) {
      if (!seen.has(c)) {
        seen.add(c);
        stack.push(c);
      }
    });
  }
  return seen;
}

// `source` without the functions and constant tables `code` never reaches, and without its
// comments: the driver parses only what the program runs (the whole export is about 60 ms of
// every program's compile on SwiftShader, measured; the compilers drop what is not reached
// anyway, so the code proven is the same).
function librarySlice(source, code) {
  const index = functionIndex(source);
  if (!index) return source;
  // Roots: what the program's code calls and what the library's macros call (DF64_B).
  const keep = reachable(index, code + index.pieces.filter(function (p) { return p.name === null; })
    .map(function (p) { return uncommented(p.text); }).join(''));
  const kept = index.pieces.filter(function (p) { return p.name === null || keep.has(p.name); });
  // A constant is kept where what is kept names it (twice over: a table may name another).
  // The name a top-level `const` declaration defines, or a plain global array with an
  // initialiser (the GLSL ES export's tables); null for anything else, and for a declaration
  // of several names (kept whole).
  const constant = function (p) {
    if (p.name !== null) return null;
    const t = uncommented(p.text);
    const m = /^\s*const\s+(?:\w+\s+)*?(\w+)\s*(?:\[[^\]]*\]\s*)?=/.exec(t) ||
      /^\s*(?:float|int|uint)\s+(\w+)\s*\[[^\]]*\]\s*=/.exec(t);
    let flat = t;
    for (let k = 0; k < 8 && /\([^()]*\)|\[[^\[\]]*\]/.test(flat); k++) flat = flat.replace(/\([^()]*\)|\[[^\[\]]*\]/g, '');
    return m && flat.indexOf(',') < 0 ? m[1] : null;
  };
  let text = kept.filter(function (p) { return !constant(p); }).map(function (p) { return uncommented(p.text); }).join('') + code;
  let out = kept;
  for (let pass = 0; pass < 2; pass++) {
    out = kept.filter(function (p) {
      const name = constant(p);
      return !name || new RegExp('\\b' + name + '\\b').test(text);
    });
    text = out.map(function (p) { return uncommented(p.text); }).join('') + code;
  }
  return out.map(function (p) { return uncommented(p.text); }).join('');
}

// GLSL without its comments (it has no strings, so every // and /* starts one); lines kept.
function uncommented(text) {
  return text.replace(/\/\*[\s\S]*?\*\//g, function (c) { return c.replace(/[^\n]/g, ''); })
    .replace(/\/\/[^\n]*/g, '');
}

// The size of `code` with every call inlined (characters), as a compiler that inlines every
// call (SwiftShader) compiles it: what a program's compile time follows.
function inlinedSize(source, code) {
  const index = functionIndex(source);
  if (!index) return 0;
  // A function's size: its own text plus its callees' at each call site (the largest of its
  // definitions, where the preprocessor picks one).
  const size = function (name, depth) {
    if (index.sizes.has(name)) return index.sizes.get(name);
    let s = 0;
    index.pieces.forEach(function (p) {
      if (p.name !== name) return;
      let t = p.own;
      if (depth < 64) p.sites.forEach(function (c) { t += size(c, depth + 1); });
      s = Math.max(s, t);
    });
    index.sizes.set(name, s);
    return s;
  };
  let total = code.length;
  for (const m of code.replace(/\/\/[^\n]*/g, '').matchAll(/\b(\w+)\s*\(/g)) {
    if (index.calls.has(m[1])) total += size(m[1], 0);
  }
  return total;
}

const GRID_PRELUDE = '\nuniform highp sampler2D u_df64gl_in;\nuniform highp int u_df64gl_row;\n' +
  'vec4 df64gl_texel(int i) { return texelFetch(u_df64gl_in, ivec2(i, u_df64gl_row), 0); }\n';
const GRID_VERTEX_MAIN = '\nuniform highp int u_df64gl_width;\nflat out highp uvec4 v_df64gl;\nvoid main() {\n' +
  '    int x = gl_VertexID;\n' +
  '    gl_Position = vec4((float(x) + 0.5) / float(u_df64gl_width) - 1.0, 0.0, 0.0, 1.0);\n' +
  '    gl_PointSize = 1.0;\n    v_df64gl = uvec4(0u);\n#ifdef DF64GL_CHECK_VERTEX\n' +
  '    if (x >= u_df64gl_width) v_df64gl = floatBitsToUint(df64gl_result(x - u_df64gl_width));\n' +
  '#endif\n}\n';
const GRID_FRAGMENT_MAIN = '\nuniform highp int u_df64gl_width;\nflat in highp uvec4 v_df64gl;\n' +
  'out highp vec4 o_df64gl;\nvoid main() {\n    int x = int(gl_FragCoord.x);\n    o_df64gl = vec4(0.0);\n' +
  '    if (x >= u_df64gl_width) {\n        o_df64gl = uintBitsToFloat(v_df64gl);\n    } else {\n' +
  '#ifdef DF64GL_CHECK_FRAGMENT\n        o_df64gl = df64gl_result(x);\n#endif\n    }\n}\n';

// A program's worth of routines: routines in order, each alone where its code inlined is
// GROUP_SIZE or more, the small ones together up to that size (characters of code with every
// call inlined; measured on SwiftShader, which inlines every call: an empty program pair
// compiles in 55 to 67 ms, atan2's 64,000 characters in about 1 s, and a check of every routine
// paid the first 97 times). Returns {members: indices into `routines`, size}.
const GROUP_SIZE = KNOWN_ANSWERS.judging.program_group_size;
function programGroups(source, routines) {
  const groups = [];
  let current = { members: [], size: 0 };
  routines.forEach(function (r, k) {
    const s = inlinedSize(source, r.body);
    if (current.members.length && current.size + s > GROUP_SIZE) {
      groups.push(current);
      current = { members: [], size: 0 };
    }
    current.members.push(k);
    current.size += s;
  });
  if (current.members.length) groups.push(current);
  return groups;
}

// One program's code for a group of routines: each routine's functions renamed for its row
// (df64gl_result_<k>, and a vector routine's df64gl_in_<k> and df64gl_vec_out_<k>), and the
// df64gl_result the mains call picking by the row drawn.
function groupBody(routines, group) {
  const bodies = group.map(function (k) {
    return routines[k].body.replace(/\bdf64gl_(result|in|vec_out)\b/g, 'df64gl_$1_' + k);
  });
  const picks = group.map(function (k) {
    return '    if (u_df64gl_row == ' + k + ') return df64gl_result_' + k + '(col);\n';
  });
  return bodies.join('') + 'vec4 df64gl_result(int col) {\n' + picks.join('') + '    return vec4(0.0);\n}\n';
}

// A program this size or larger (characters inlined, as programGroups counts) is built once per
// stage by checkAsync. SwiftShader compiles a program's pipeline in the browser's thread pool
// after the link (ANGLE's warm-up), the program's first draw waits for it on the browser's GPU
// thread, and any call of the page that waits on that thread (a readPixels of its own) waits
// for the whole compile: pow's took 1.0 to 1.3 s in both stages, its vertex-stage
// program 0.8 s in checkAsync (2026-11-28). GROUP_SIZE, so that every program of one routine
// alone is split: llvmpipe unrolls loops that SwiftShader keeps, and df64mat4_mul's sixteen
// dot products (26,700 characters as counted here) held the page for 0.90 to 1.11 s on ANGLE
// over Mesa with 48,000; with 24,000, 0.60 to 0.68 s, the total time the same (docs/web-check.md).
const SPLIT_SIZE = GROUP_SIZE;

// Runs a grid of routines in the stages asked: routine k reads row k of one input texture
// ({name, body: GLSL defining vec4 df64gl_result(int col), input: Float32Array, width: output
// texels}) and writes row k of the target, one point per output texel and stage. Routines share
// programs (programGroups: one holding them all takes minutes to compile on some drivers), each
// program the library cut to what its routines call (librarySlice); with `paused` (checkAsync),
// a program of SPLIT_SIZE or more is built once per stage.
// Returns per stage the target's rows (Float32Array of 4 floats per texel) and the times.
function* gridSteps(gl, scratch, source, routines, stages, label, inFlight, paused) {
  const rows = Math.max(routines.length, 1);
  const width = routines.reduce(function (m, r) { return Math.max(m, r.width); }, 1);
  const inWidth = routines.reduce(function (m, r) { return Math.max(m, r.input.length / 4); }, 1);
  const input = new Float32Array(inWidth * rows * 4);
  routines.forEach(function (r, k) { input.set(r.input, 4 * inWidth * k); });
  // The target first (it binds unit 0 while it is made), then the input on unit 0.
  const fb = renderTarget(gl, scratch, 2 * width, rows, gl.RGBA32F);
  const t = scratch.add('texture', gl.createTexture());
  gl.activeTexture(gl.TEXTURE0);
  gl.bindTexture(gl.TEXTURE_2D, t);
  gl.texStorage2D(gl.TEXTURE_2D, 1, gl.RGBA32F, inWidth, rows);
  // Float textures are not filterable in WebGL 2: anything but NEAREST reads zeros.
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
  gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, inWidth, rows, gl.RGBA, gl.FLOAT, input);
  // The programs: each group's, in the stages asked, or one per stage (see SPLIT_SIZE).
  const units = [];
  programGroups(source, routines).forEach(function (group) {
    if (paused && stages.vertex && stages.fragment && group.size >= SPLIT_SIZE) {
      units.push({ group: group.members, stages: { vertex: true, fragment: false } });
      units.push({ group: group.members, stages: { vertex: false, fragment: true } });
    } else {
      units.push({ group: group.members, stages: stages });
    }
  });
  const start = function (unit) {
    const body = GRID_PRELUDE + groupBody(routines, unit.group);
    const src = stagedSources(unit.stages, librarySlice(source, body + GRID_VERTEX_MAIN + GRID_FRAGMENT_MAIN) + body,
      GRID_VERTEX_MAIN, GRID_FRAGMENT_MAIN);
    return startProgram(gl, scratch, src[0], src[1]);
  };
  // `inFlight` programs compile at once (see checkSteps): `check` starts every one, then draws
  // each as it is ready; checkAsync on a context without parallel compile starts the next
  // program ahead, so that no task of the page waits on more than two compiles while the driver
  // still has one to work on as the page takes its turn.
  const started = [];
  const ahead = inFlight;
  const times = routines.map(function () { return 0; });
  for (let g = 0; g < units.length; g++) {
    while (started.length < Math.min(g + ahead, units.length)) started.push(start(units[started.length]));
    const unit = units[g];
    const group = unit.group;
    const names = group.map(function (k) { return routines[k].name; }).join(', ');
    const t0 = now();
    const s = started[g];
    yield { program: s.program };
    const program = finishProgram(gl, s, 'the ' + label + ' ' + names + ' known-answer shader');
    // Each routine's time: its share of the compile, and its draws.
    const compiled = (now() - t0) / group.length;
    for (let j = 0; j < group.length; j++) {
      const k = group[j];
      const r = routines[k];
      const t1 = now();
      if (j > 0) gl.useProgram(program);
      // The page may have drawn in between: bind what this draw reads and writes.
      gl.bindFramebuffer(gl.FRAMEBUFFER, fb);
      gl.activeTexture(gl.TEXTURE0);
      gl.bindTexture(gl.TEXTURE_2D, t);
      gl.uniform1i(gl.getUniformLocation(program, 'u_df64gl_in'), 0);
      gl.uniform1i(gl.getUniformLocation(program, 'u_df64gl_row'), k);
      gl.uniform1i(gl.getUniformLocation(program, 'u_df64gl_width'), width);
      gl.viewport(0, k, 2 * width, 1);
      if (unit.stages.fragment) gl.drawArrays(gl.POINTS, 0, r.width);
      if (unit.stages.vertex) gl.drawArrays(gl.POINTS, width, r.width);
      gl.useProgram(null);
      // Drivers that build the pipeline at the first draw (ANGLE over Vulkan) do it here: the
      // asynchronous check waits on a fence for it rather than in its next query.
      yield { fence: true };
      times[k] += compiled + now() - t1;
    }
    // Programs are freed as they are done.
    scratch.drop(program);
  }
  yield { fence: true };
  gl.bindFramebuffer(gl.FRAMEBUFFER, fb);
  const px = new Float32Array(2 * width * rows * 4);
  gl.readPixels(0, 0, 2 * width, rows, gl.RGBA, gl.FLOAT, px);
  if (gl.isContextLost && gl.isContextLost()) throw new CheckFailure(LOST);
  const half = function (offset) {
    return routines.map(function (r, k) {
      const at = 4 * (k * 2 * width + offset);
      return px.subarray(at, at + 4 * r.width);
    });
  };
  return { fragment: half(0), vertex: half(width), times: times };
}

// The scalar routines of a set as grid rows: df64 one texel a case (a.xy, b.xy), qf128 two.
function scalarGrid(set, chosen) {
  const words = set.words;
  const stride = 3 * words + 1;
  const out = [];
  let c = 0;
  set.routines.forEach(function (r) {
    const texels = words === 2 ? 1 : 2;
    const input = new Float32Array(4 * texels * r.cases);
    for (let i = 0; i < r.cases; i++, c++) {
      for (let j = 0; j < words; j++) {
        input[4 * texels * i + j] = set.f32[stride * c + j];
        input[4 * texels * i + (words === 2 ? 2 : 4) + j] = set.f32[stride * c + words + j];
      }
    }
    if (!chosen(r)) return;
    const body = words === 2
      ? 'vec4 df64gl_result(int col) {\n    vec4 t = df64gl_texel(col);\n    vec2 a = t.xy;\n    vec2 b = t.zw;\n    return vec4(' + r.call + ', 0.0, 0.0);\n}\n'
      : 'vec4 df64gl_result(int col) {\n    vec4 a = df64gl_texel(2 * col);\n    vec4 b = df64gl_texel(2 * col + 1);\n    return ' + r.call + ';\n}\n';
    out.push({ name: r.name, body: body, input: input, width: r.cases });
  });
  return out;
}

// The vector routines as grid rows: each evaluation's operand numbers two to a texel in, its
// result components two to a texel out (df64gl_vec_out from the known answers).
function vecGrid(set, chosen) {
  const out = [];
  set.routines.forEach(function (r, k) {
    if (!chosen(r)) return;
    const tIn = Math.ceil(r.inputs / 2);
    const tOut = Math.ceil(r.outputs / 2);
    const input = new Float32Array(4 * tIn * r.evaluations);
    for (let e = 0; e < r.evaluations; e++) {
      const at = set.starts[k][0] + e * 2 * (r.inputs + r.outputs);
      input.set(set.f32.subarray(at, at + 2 * r.inputs), 4 * tIn * e);
    }
    const body = 'vec2 df64gl_in(int e, int j) {\n    vec4 q = df64gl_texel(e * ' + tIn + ' + j / 2);\n' +
      '    return (j - 2 * (j / 2)) == 0 ? q.xy : q.zw;\n}\n' + r.glsl +
      'vec4 df64gl_result(int col) {\n    int e = col / ' + tOut + ';\n    return df64gl_vec_out(e, col - ' + tOut + ' * e);\n}\n';
    out.push({ name: r.name, body: body, input: input, width: tOut * r.evaluations });
  });
  return out;
}
// One routine's results over the stages run: the worst error, all failures, the fewest mirror
// matches, the time of all.
function mergeStages(lists) {
  const out = [];
  lists.forEach(function (rows) {
    rows.forEach(function (r) {
      const o = out.find(function (x) { return x.name === r.name; });
      if (!o) {
        out.push(Object.assign({}, r));
        return;
      }
      if (!(r.worst <= o.worst)) {
        o.worst = r.worst;
        o.worstCase = r.worstCase || o.worstCase;
      }
      o.failed += r.failed;
      o.pass = o.pass && r.pass;
      o.mirrorMatched = Math.min(o.mirrorMatched, r.mirrorMatched);
      o.mirrorMismatch = o.mirrorMismatch || r.mirrorMismatch;
      o.ms += r.ms;
    });
  });
  return out;
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
    return r.name + ' ' + (Number.isFinite(r.worst) ? r.worst.toPrecision(3) + ' ' + r.unit : 'wrong special') +
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
    vectors: [],
    qf128: null,
    stages: { vertex: null, fragment: null },
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

// What check's and checkAsync's options may name, and the type each takes.
const CHECK_OPTIONS = {
  cache: 'boolean', storage: 'storage', qf128: 'boolean', routines: 'array', stages: 'array', glsl: 'string', qf128Glsl: 'string',
};
// checkWebGPU's.
const WEBGPU_CHECK_OPTIONS = { qf128: 'boolean', routines: 'array', stages: 'array', wgsl: 'string', zero: 'string' };

// options.routines checked against the known answers' routine names (KNOWN_ANSWERS, or its
// decoded form): null for all, else the names; an Error for a name no set has, or a list
// that leaves a set it asks for unchecked.
function routinesAskedFor(known, opts, what) {
  if (opts.routines === undefined) return null;
  opts.routines.forEach(function (n, i) {
    if (typeof n !== 'string') throw new TypeError('df64gl: ' + what + "'s options.routines[" + i + '] is ' + describe(n) + ', not a routine name');
  });
  const only = opts.routines;
  const names = known.df64.routines.map(function (r) { return r.name; });
  const vecNames = known.df64vec.routines.map(function (r) { return r.name; });
  const qfNames = known.qf128.routines.map(function (r) { return r.name; });
  const unknown = only.filter(function (n) { return names.indexOf(n) < 0 && qfNames.indexOf(n) < 0 && vecNames.indexOf(n) < 0; });
  if (unknown.length) {
    throw new RangeError('df64gl: ' + what + "'s options.routines: no routine " + unknown.join(', ') + '; the df64 routines are ' + names.join(', ') +
      ', the vector and matrix ones ' + vecNames.join(', ') + ' and the qf128 ones ' + qfNames.join(', '));
  }
  // Nothing passes unchecked: each set asked for checks at least one of its routines.
  if (!only.some(function (n) { return names.indexOf(n) >= 0 || vecNames.indexOf(n) >= 0; })) {
    throw new RangeError('df64gl: ' + what + "'s options.routines names no df64 routine (" + names.join(', ') + ', ' + vecNames.join(', ') + ')');
  }
  if (opts.qf128 && !only.some(function (n) { return qfNames.indexOf(n) >= 0; })) {
    throw new RangeError('df64gl: ' + what + "'s options.routines names no qf128 routine (" + qfNames.join(', ') + ') but options.qf128 asks for them');
  }
  return only;
}

// options.stages: which of `all` stages to check in ({ stage: true/false }; `defaults` where
// the option is absent); an Error for a list that names no stage or one not in `all`.
function stagesAskedFor(opts, all, defaults, what) {
  if (opts.stages === undefined) return defaults;
  const list = opts.stages;
  const bad = list.filter(function (x) { return all.indexOf(x) < 0; });
  if (!list.length || bad.length) {
    throw new RangeError('df64gl: ' + what + "'s options.stages is a list of " + all.map(function (x) { return "'" + x + "'"; }).join(', ') +
      ' (got ' + JSON.stringify(list) + ')');
  }
  const out = {};
  all.forEach(function (x) { out[x] = list.indexOf(x) >= 0; });
  return out;
}

// The chosen routines' output texels in one array: rowOf(k) gives routine k's (4 floats a
// texel); at(k, i) is where case i of routine k starts.
function flatRows(set, chosen, rowOf) {
  const rows = [];
  const at = [];
  let offset = 0;
  set.routines.forEach(function (r, k) {
    if (chosen(r)) {
      const row = rowOf(k);
      rows.push(row);
      at.push(offset);
      offset += row.length;
    } else {
      at.push(-1);
    }
  });
  const px = new Float32Array(offset);
  let o = 0;
  rows.forEach(function (row) { px.set(row, o); o += row.length; });
  return { px: px, at: function (k, i) { return at[k] + 4 * i; } };
}

// A grid's rows (chosen routines only, in set order) as a function of the routine's index.
function gridRows(set, chosen, rows) {
  const of = [];
  let g = 0;
  set.routines.forEach(function (r) { of.push(chosen(r) ? rows[g++] : null); });
  return function (k) { return of[k]; };
}

// The results of one stage from the grids' outputs.
function stageResult(known, chosen, probe, df64, vectors, qf128, times) {
  const view = function (rows, set) {
    return flatRows(set, chosen, gridRows(set, chosen, rows));
  };
  const d = view(df64, known.df64);
  const routines = judgeRoutines(known, known.df64, chosen, d.at, d.px, times.df64);
  const vecRow = gridRows(known.df64vec, chosen, vectors);
  const vec = judgeVecRoutines(known, known.df64vec, chosen, function (k, e) {
    const tOut = Math.ceil(known.df64vec.routines[k].outputs / 2);
    return vecRow(k).subarray(4 * tOut * e, 4 * tOut * (e + 1));
  }, times.vectors);
  let q = null;
  if (qf128) {
    const v = view(qf128, known.qf128);
    const rows = judgeRoutines(known, known.qf128, chosen, v.at, v.px, times.qf128);
    q = { pass: rows.every(function (r) { return r.pass; }), routines: rows };
  }
  const fine = function (rows) { return rows.every(function (r) { return r.pass; }); };
  return {
    pass: probe.green === probe.pixels && fine(routines) && fine(vec) && !(q && !q.pass),
    probe: probe,
    routines: routines,
    vectors: vec,
    qf128: q,
  };
}

// Why a check failed, stage by stage, or null.
function failureReason(result, renderer) {
  const out = [];
  STAGES.forEach(function (stage) {
    const s = result.stages[stage];
    if (!s) return;
    if (s.probe.green !== s.probe.pixels) {
      out.push('the probe shader is green on ' + s.probe.green + ' of ' + s.probe.pixels + ' pixels in the ' + stage +
        ' stage: this compiler rewrites the error-free transforms df64 is made of');
    }
    const f = summarize(s.routines.concat(s.vectors));
    if (f) out.push('df64 routines off their bounds on ' + renderer + ' in the ' + stage + ' stage: ' + f);
    if (s.qf128 && !s.qf128.pass) {
      out.push('qf128 routines off their bounds on ' + renderer + ' in the ' + stage + ' stage: ' + summarize(s.qf128.routines));
    }
  });
  return out.length ? out.join('; ') : null;
}

// The check as a generator of steps: it yields what it waits for ({program}: a program's
// compile and link; {fence}: the draws before a read-back) and returns the result. check()
// runs the steps back to back; checkAsync() lets the page run between them. With `paused`, the
// caller's WebGL state is put back at each pause and the check's taken again after it.
function* checkSteps(gl, options, paused) {
  // A bad option is the caller's mistake, not the driver's: an Error before anything runs.
  const what = paused ? 'checkAsync' : 'check';
  const opts = optionsOf(options, CHECK_OPTIONS, what);
  const stages = stagesAskedFor(opts, STAGES, { vertex: true, fragment: true }, what);
  const only = routinesAskedFor(KNOWN_ANSWERS, opts, what);
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
    (opts.qf128 ? ':qf128' : '') + ':' + (stages.vertex ? 'v' : '') + (stages.fragment ? 'f' : '') + ':' + renderer +
    // A new browser (its ANGLE and shader compiler) checks again.
    ':' + (typeof navigator !== 'undefined' && navigator.userAgent ? navigator.userAgent : '');
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
  // The caller's pending errors: taken now, set again when the check ends (and around each of
  // checkAsync's pauses, where the page runs), so that they are neither the check's nor lost.
  let pending = takeErrors(gl);
  const refused = outOfMemory(gl, pending);
  if (refused) {
    putBackErrors(gl, pending);
    return done(false, refused);
  }
  let saved = saveState(gl);
  const scratch = new Scratch(gl);
  let measured = false;
  let vao = null;
  // The check's own GL errors, read before each pause.
  const own = [];
  // Runs a generator of steps, pausing where it yields (see checkSteps).
  const steps = function* (inner) {
    let step = inner.next();
    while (!step.done) {
      if (paused) {
        takeErrors(gl).forEach(function (e) { if (own.indexOf(e) < 0) own.push(e); });
        restoreState(gl, saved);
        putBackErrors(gl, pending);
      }
      yield step.value;
      if (paused) {
        if (gl.isContextLost && gl.isContextLost()) throw new CheckFailure(LOST);
        pending = takeErrors(gl);
        saved = saveState(gl);
        neutralState(gl);
        gl.bindVertexArray(vao);
      }
      step = inner.next();
    }
    return step.value;
  };
  try {
    neutralState(gl);
    vao = scratch.add('vertexArray', gl.createVertexArray());
    gl.bindVertexArray(vao);
    const known = knownAnswers();
    const chosen = function (r) { return !only || only.indexOf(r.name) >= 0; };
    // Programs in flight: `check` starts them all; checkAsync one ahead of the one it waits on
    // without KHR_parallel_shader_compile, and with it one at a time (polled). Every program
    // started at once held the page for 5.4 s on ANGLE over Mesa (presumably a query waiting for
    // the browser's GPU process to take every compile queued before it); four at a time 0.8 s,
    // one 0.4 to 0.5 s, with the same total time (measured, a check of every routine).
    const inFlight = !paused ? Infinity : gl.getExtension('KHR_parallel_shader_compile') ? 1 : 2;
    const probe = yield* steps(probeSteps(gl, scratch, df64Source, stages, chosen, inFlight));
    const df64 = yield* steps(gridSteps(gl, scratch, df64Source, scalarGrid(known.df64, chosen), stages, 'df64', inFlight, paused));
    const vectors = yield* steps(gridSteps(gl, scratch, df64Source, vecGrid(known.df64vec, chosen), stages, 'df64 vector', inFlight, paused));
    const qf128 = opts.qf128
      ? yield* steps(gridSteps(gl, scratch, df64Source + qf128Source, scalarGrid(known.qf128, chosen), stages, 'qf128', inFlight, paused))
      : null;
    takeErrors(gl).forEach(function (e) { if (own.indexOf(e) < 0) own.push(e); });
    if (gl.isContextLost && gl.isContextLost()) throw new CheckFailure(LOST);
    if (own.length) throw new CheckFailure('WebGL error ' + own.join(', ') + ' during the check');
    // Times per routine, by index in its set (0 for one not checked).
    const byIndex = function (set, grid) {
      let k = 0;
      return set.routines.map(function (r) { return chosen(r) ? grid.times[k++] : 0; });
    };
    const times = {
      df64: byIndex(known.df64, df64),
      vectors: byIndex(known.df64vec, vectors),
      qf128: qf128 ? byIndex(known.qf128, qf128) : null,
    };
    STAGES.forEach(function (stage) {
      if (!stages[stage]) return;
      result.stages[stage] = stageResult(known, chosen, probe[stage], df64[stage], vectors[stage],
        qf128 ? qf128[stage] : null, times);
    });
    measured = true;
    const run = STAGES.filter(function (x) { return result.stages[x]; }).map(function (x) { return result.stages[x]; });
    result.probe = run.reduce(function (p, s) { return !p || s.probe.green < p.green ? s.probe : p; }, null);
    result.routines = mergeStages(run.map(function (s) { return s.routines; }));
    result.vectors = mergeStages(run.map(function (s) { return s.vectors; }));
    if (opts.qf128) {
      const rows = mergeStages(run.map(function (s) { return s.qf128.routines; }));
      result.qf128 = { pass: rows.every(function (r) { return r.pass; }), routines: rows };
    }
    const failure = failureReason(result, renderer);
    const which = stages.vertex && stages.fragment ? 'vertex and fragment stages' : stages.vertex ? 'vertex stage' : 'fragment stage';
    done(!failure, failure || 'df64' + (result.qf128 ? ' and qf128' : '') + ' exact on ' + renderer + ' in the ' + which);
  } catch (e) {
    const reason = e instanceof CheckFailure ? e.reason : 'the check could not run: ' + (e && e.message ? e.message : String(e));
    done(false, lostOr(gl, reason));
  } finally {
    try {
      scratch.free();
      // Errors of the check's own left on a failed path are not the caller's.
      takeErrors(gl);
      restoreState(gl, saved);
      putBackErrors(gl, pending);
    } catch (e) {
      // A lost context cannot be restored; the result says why already.
    }
  }
  if (measured && storage && !(gl.isContextLost && gl.isContextLost())) {
    try {
      storage.setItem(key, JSON.stringify(result));
    } catch (e) {
      // A full or refused storage only costs a new check next time.
    }
  }
  return result;
}

// The names of the functions DF64_GLSL and QF128_GLSL define (the same names in the WGSL export).
let libraryNames = null;
function libraryFunctionNames() {
  if (!libraryNames) {
    libraryNames = new Set();
    [DF64_GLSL, QF128_GLSL].forEach(function (source) {
      const index = functionIndex(source);
      if (index) index.calls.forEach(function (callees, name) { libraryNames.add(name); });
    });
  }
  return libraryNames;
}

// Library functions that no known-answer call names but whose every result is a checked
// routine's result, word for word: df64vec2_to_f32 returns df64_to_f32 of each component, and
// frexp and frexp_exp return df64_frexp's two results (through df64_frexp_mantissa and
// df64_frexp_exponent). A function met only inside a routine's code is not listed: its part in
// the routine's answer can be too small to judge it (an error term below the routine's bound).
const PROVEN_THROUGH = new Map([
  ['df64_to_f32', ['vec2_to_f32']],
  ['df64_frexp', ['frexp', 'frexp_exp']],
]);

// The check's routines that shaders call (index.d.ts): the library functions called from the
// sources' own functions, each mapped to the routines whose known-answer call names it (or, in
// PROVEN_THROUGH, returns its results).
export function routinesCalledBy(sources) {
  const list = (Array.isArray(sources) ? sources : [sources]).map(function (s) { return String(s); });
  const library = libraryFunctionNames();
  const called = new Set();
  list.forEach(function (source) {
    const index = functionIndex(source);
    // A source whose braces do not balance is read whole (more routines, never fewer).
    const own = !index ? [uncommented(source)] : index.pieces.filter(function (p) {
      // The library's own, and in WGSL its overloads as naga names them (df64_b_1, ...).
      return p.name !== null && !library.has(p.name) && !library.has(p.name.replace(/_\d+$/, ''));
    }).map(function (p) {
      const text = uncommented(p.text);
      return text.slice(text.indexOf('{'));
    });
    own.forEach(function (body) {
      for (const m of body.matchAll(/\b(\w+)\s*\(/g)) if (library.has(m[1])) called.add(m[1]);
    });
  });
  // Each routine's entry functions: what its known-answer call names.
  const byFunction = new Map();
  const entries = function (set, text, name) {
    for (const m of text.matchAll(/\b(\w+)\s*\(/g)) {
      if (!library.has(m[1])) continue;
      if (!byFunction.has(m[1])) byFunction.set(m[1], []);
      byFunction.get(m[1]).push({ set: set, name: name });
    }
  };
  KNOWN_ANSWERS.df64.routines.forEach(function (r) { entries('df64', r.call, r.name); });
  KNOWN_ANSWERS.df64vec.routines.forEach(function (r) { entries('df64vec', r.glsl, r.name); });
  KNOWN_ANSWERS.qf128.routines.forEach(function (r) { entries('qf128', r.call, r.name); });
  const routines = [];
  const unchecked = [];
  let qf128 = false;
  Array.from(called).sort().forEach(function (fn) {
    const through = PROVEN_THROUGH.get(fn);
    const rs = byFunction.get(fn) || (through && through.map(function (name) { return { set: 'df64', name: name }; }));
    if (!rs) {
      unchecked.push(fn);
      return;
    }
    rs.forEach(function (r) {
      if (r.set === 'qf128') qf128 = true;
      if (routines.indexOf(r.name) < 0) routines.push(r.name);
    });
  });
  return { routines: routines, qf128: qf128, unchecked: unchecked };
}

/**
 * Proves the df64 routines, the vector and matrix routines (and with `options.qf128`, the
 * qf128 ones) on this WebGL 2 context, in the vertex and the fragment stage: the probe shader,
 * then every exported routine on known answers. Never throws for a driver that fails or a
 * context that is lost; see index.d.ts for the options and the result.
 */
export function check(gl, options) {
  const gen = checkSteps(gl, options, false);
  let step = gen.next();
  while (!step.done) step = gen.next();
  return step.value;
}

// The next task of the page: a macrotask, so that frames, input and timers run in between.
function nextTask() {
  return new Promise(function (resolve) { setTimeout(resolve, 0); });
}

/**
 * The same check as `check`, as a Promise of the same result, that never holds the page: the
 * programs compile with KHR_parallel_shader_compile where the context has it (their status is
 * polled, never waited for; without it one program is started ahead of the one waited on),
 * draws are read back after a fence has signalled, and between
 * steps the page runs (its frames and input) with its own WebGL state in place.
 */
export async function checkAsync(gl, options) {
  const parallel = gl && typeof gl.getExtension === 'function' ? gl.getExtension('KHR_parallel_shader_compile') : null;
  const gen = checkSteps(gl, options, true);
  let step = gen.next();
  while (!step.done) {
    const wait = step.value;
    if (wait.program && parallel) {
      while (!(gl.isContextLost && gl.isContextLost()) &&
        !gl.getProgramParameter(wait.program, parallel.COMPLETION_STATUS_KHR)) await nextTask();
    } else if (wait.fence && typeof gl.fenceSync === 'function') {
      const sync = gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0);
      gl.flush();
      while (sync && !(gl.isContextLost && gl.isContextLost()) &&
        gl.getSyncParameter(sync, gl.SYNC_STATUS) !== gl.SIGNALED) await nextTask();
      if (sync) gl.deleteSync(sync);
    } else {
      await nextTask();
    }
    step = gen.next();
  }
  return step.value;
}

// ------------------------------------------------------------------ WebGPU

// The check's own buffers sit at group 1; the export's barrier buffer at group 0, binding 0 (a
// read-only storage buffer, or with options.zero === 'uniform' a uniform one). Per routine a
// range (at a dynamic offset): its first output, how many, where its inputs start, and the
// width of the vertex stage's target row.
const WGSL_IO = '\n// ---- df64gl known-answer check\n' +
  '@group(1) @binding(0) var<storage, read> df64gl_in: array<vec4<f32>>;\n' +
  '@group(1) @binding(1) var<storage, read_write> df64gl_out: array<vec4<f32>>;\n' +
  'struct Df64glRange { first: u32, count: u32, input: u32, width: u32 }\n' +
  '@group(1) @binding(2) var<uniform> df64gl_range: Df64glRange;\n' +
  'struct Df64glVertex { @builtin(position) position: vec4<f32>, @location(0) @interpolate(flat) bits: vec4<u32> }\n' +
  '@fragment\nfn df64gl_fs(v: Df64glVertex) -> @location(0) vec4<f32> { return bitcast<vec4<f32>>(v.bits); }\n';
const RANGE_SLOT = 256;
// The stages checkWebGPU can prove the routines in (the fragment stage on request: the
// render form of createFftWebGPU runs there).
const WEBGPU_STAGES = ['compute', 'vertex', 'fragment'];

// The value routine k writes at output i (df64gl_value_k), and its compute, vertex and fragment
// entry points.
function wgslRoutine(set, r, k) {
  let helpers = '';
  let body;
  if (set.words === 2) {
    body = '  let c = df64gl_range.first + i;\n  let a: vec2<f32> = df64gl_in[2u * c].xy;\n' +
      '  let b: vec2<f32> = df64gl_in[2u * c + 1u].xy;\n  return vec4<f32>(' + r.wgsl + ', 0.0, 0.0);\n';
  } else if (set.words === 4) {
    body = '  let c = df64gl_range.first + i;\n  let a: vec4<f32> = df64gl_in[2u * c];\n' +
      '  let b: vec4<f32> = df64gl_in[2u * c + 1u];\n  return ' + r.wgsl + ';\n';
  } else {
    // A vector routine: its df64gl_vec_out and df64gl_in renamed for routine k (WGSL has no
    // overloading), its operand texels from the range's input.
    const tIn = Math.ceil(r.inputs / 2);
    const tOut = Math.ceil(r.outputs / 2);
    helpers = 'fn df64gl_vin_' + k + '(e: i32, j: i32) -> vec2<f32> {\n' +
      '  let q = df64gl_in[df64gl_range.input + u32(e * ' + tIn + ' + j / 2)];\n' +
      '  if ((j - 2 * (j / 2)) == 0) { return q.xy; }\n  return q.zw;\n}\n' +
      r.wgsl.split('df64gl_vec_out').join('df64gl_vec_out_' + k).split('df64gl_in(').join('df64gl_vin_' + k + '(');
    body = '  let col = i32(i);\n  let e = col / ' + tOut + ';\n  return df64gl_vec_out_' + k + '(e, col - ' + tOut + ' * e);\n';
  }
  return helpers +
    'fn df64gl_value_' + k + '(i: u32) -> vec4<f32> {\n' + body + '}\n' +
    '@compute @workgroup_size(64)\nfn df64gl_known_' + k + '(@builtin(global_invocation_id) id: vec3<u32>) {\n' +
    '  if (id.x >= df64gl_range.count) { return; }\n' +
    '  df64gl_out[df64gl_range.first + id.x] = df64gl_value_' + k + '(id.x);\n}\n' +
    '@vertex\nfn df64gl_vs_' + k + '(@builtin(vertex_index) i: u32) -> Df64glVertex {\n' +
    '  var v: Df64glVertex;\n' +
    '  v.position = vec4<f32>((f32(i) + 0.5) / f32(df64gl_range.width) * 2.0 - 1.0, 0.0, 0.0, 1.0);\n' +
    '  v.bits = bitcast<vec4<u32>>(df64gl_value_' + k + '(i));\n  return v;\n}\n' +
    '@fragment\nfn df64gl_fs_' + k + '(@builtin(position) p: vec4<f32>) -> @location(0) vec4<f32> {\n' +
    '  return df64gl_value_' + k + '(u32(p.x));\n}\n';
}

// A triangle that covers the viewport (the fragment stage's check draws row k of its target).
const WGSL_COVER = '@vertex\nfn df64gl_cover(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {\n' +
  '  return vec4<f32>(f32(i & 1u) * 4.0 - 1.0, f32(i >> 1u) * 4.0 - 1.0, 0.0, 1.0);\n}\n';

// Every chosen routine of a set in the stages asked (compute: one dispatch per routine; vertex:
// one point per output texel into a row of an rgba32float target, handed to the fragment
// shader flat; fragment: one fragment per output texel of such a row, under a triangle that
// covers it), one module holding them all. Returns per stage a function out(k) giving routine
// k's output texels (4 floats each), and the times.
async function runSetWebGPU(device, source, set, label, chosen, opts, stages) {
  const isVec = set.words === undefined;
  const U = GPUBufferUsage;
  // Inputs: scalar sets two texels a case (a, b); vector sets their operand texels.
  const inputs = [];
  const counts = [];
  let c = 0;
  set.routines.forEach(function (r, k) {
    if (isVec) {
      const tIn = Math.ceil(r.inputs / 2);
      const input = new Float32Array(4 * tIn * r.evaluations);
      for (let e = 0; e < r.evaluations; e++) {
        const at = set.starts[k][0] + e * 2 * (r.inputs + r.outputs);
        input.set(set.f32.subarray(at, at + 2 * r.inputs), 4 * tIn * e);
      }
      inputs.push(input);
      counts.push(Math.ceil(r.outputs / 2) * r.evaluations);
    } else {
      const words = set.words;
      const stride = 3 * words + 1;
      const input = new Float32Array(8 * r.cases);
      for (let i = 0; i < r.cases; i++, c++) {
        for (let j = 0; j < words; j++) {
          input[8 * i + j] = set.f32[stride * c + j];
          input[8 * i + 4 + j] = set.f32[stride * c + words + j];
        }
      }
      inputs.push(input);
      counts.push(r.cases);
    }
  });
  const width = counts.reduce(function (m, x) { return Math.max(m, x); }, 1);
  const ranges = new Uint32Array(RANGE_SLOT / 4 * set.routines.length);
  const total = counts.reduce(function (a, b) { return a + b; }, 0);
  const input = new Float32Array(inputs.reduce(function (n, x) { return n + x.length; }, 0) || 4);
  let first = 0;
  let inputAt = 0;
  set.routines.forEach(function (r, k) {
    ranges[k * RANGE_SLOT / 4] = first;
    ranges[k * RANGE_SLOT / 4 + 1] = counts[k];
    ranges[k * RANGE_SLOT / 4 + 2] = inputAt / 4;
    ranges[k * RANGE_SLOT / 4 + 3] = width;
    input.set(inputs[k], inputAt);
    first += counts[k];
    inputAt += inputs[k].length;
  });
  let code = source + WGSL_IO + WGSL_COVER;
  set.routines.forEach(function (r, k) { if (chosen(r)) code += wgslRoutine(set, r, k); });
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
    const S = GPUShaderStage;
    const zeroKind = opts.zero === 'uniform' ? 'uniform' : 'read-only-storage';
    const zeroLayout = device.createBindGroupLayout({ entries: [
      { binding: 0, visibility: S.COMPUTE | S.VERTEX | S.FRAGMENT, buffer: { type: zeroKind } }] });
    const ioLayout = device.createBindGroupLayout({ entries: [
      { binding: 0, visibility: S.COMPUTE, buffer: { type: 'read-only-storage' } },
      { binding: 1, visibility: S.COMPUTE, buffer: { type: 'storage' } },
      { binding: 2, visibility: S.COMPUTE, buffer: { type: 'uniform', hasDynamicOffset: true } }] });
    // The vertex stage may not write storage buffers: its layout leaves the output out.
    const vertexIoLayout = device.createBindGroupLayout({ entries: [
      { binding: 0, visibility: S.VERTEX | S.FRAGMENT, buffer: { type: 'read-only-storage' } },
      { binding: 2, visibility: S.VERTEX | S.FRAGMENT, buffer: { type: 'uniform', hasDynamicOffset: true } }] });
    const zero = buffer(16, U.UNIFORM | U.STORAGE, new Uint32Array(4));
    const inBuf = buffer(input.byteLength, U.STORAGE, input);
    const rangeBuf = buffer(ranges.byteLength, U.UNIFORM, ranges);
    const zeroGroup = device.createBindGroup({ layout: zeroLayout, entries: [
      { binding: 0, resource: { buffer: zero } }] });
    const times = set.routines.map(function () { return 0; });
    const encoder = device.createCommandEncoder();
    let computeRead = null;
    if (stages.compute) {
      const outBuf = buffer(16 * Math.max(total, 1), U.STORAGE | U.COPY_SRC);
      computeRead = buffer(16 * Math.max(total, 1), U.MAP_READ | U.COPY_DST);
      const layout = device.createPipelineLayout({ bindGroupLayouts: [zeroLayout, ioLayout] });
      const ioGroup = device.createBindGroup({ layout: ioLayout, entries: [
        { binding: 0, resource: { buffer: inBuf } },
        { binding: 1, resource: { buffer: outBuf } },
        { binding: 2, resource: { buffer: rangeBuf, size: 16 } }] });
      // Every pipeline's compile started at once (Dawn compiles them on its worker threads: 1.4x
      // faster for every routine on SwiftShader's two cores than one after the other); a
      // routine's time is then from the start to its pipeline being ready.
      const started = now();
      const pending = set.routines.map(function (r, k) {
        return chosen(r) ? device.createComputePipelineAsync({
          layout: layout,
          compute: { module: module, entryPoint: 'df64gl_known_' + k },
        }) : null;
      });
      for (let k = 0; k < set.routines.length; k++) {
        if (!pending[k]) continue;
        const pipeline = await pending[k];
        times[k] += now() - started;
        const pass = encoder.beginComputePass();
        pass.setPipeline(pipeline);
        pass.setBindGroup(0, zeroGroup);
        pass.setBindGroup(1, ioGroup, [k * RANGE_SLOT]);
        pass.dispatchWorkgroups(Math.ceil(counts[k] / 64));
        pass.end();
      }
      encoder.copyBufferToBuffer(outBuf, 0, computeRead, 0, 16 * Math.max(total, 1));
    }
    const rowBytes = Math.ceil(16 * width / 256) * 256;
    // vertex: one point per output; fragment: a covering triangle over the row.
    const renderStage = async function (stage) {
      const target = device.createTexture({
        size: [width, set.routines.length],
        format: 'rgba32float',
        usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC,
      });
      made.push(target);
      const read = buffer(rowBytes * set.routines.length, U.MAP_READ | U.COPY_DST);
      const layout = device.createPipelineLayout({ bindGroupLayouts: [zeroLayout, vertexIoLayout] });
      const ioGroup = device.createBindGroup({ layout: vertexIoLayout, entries: [
        { binding: 0, resource: { buffer: inBuf } },
        { binding: 2, resource: { buffer: rangeBuf, size: 16 } }] });
      const vertex = stage === 'vertex';
      const started = now();
      const pipelines = await Promise.all(set.routines.map(function (r, k) {
        if (!chosen(r)) return null;
        return device.createRenderPipelineAsync({
          layout: layout,
          vertex: { module: module, entryPoint: vertex ? 'df64gl_vs_' + k : 'df64gl_cover' },
          fragment: { module: module, entryPoint: vertex ? 'df64gl_fs' : 'df64gl_fs_' + k, targets: [{ format: 'rgba32float' }] },
          primitive: { topology: vertex ? 'point-list' : 'triangle-list' },
        }).then(function (pipeline) {
          times[k] += now() - started;
          return pipeline;
        });
      }));
      const pass = encoder.beginRenderPass({ colorAttachments: [{
        view: target.createView(), loadOp: 'clear', storeOp: 'store', clearValue: [0, 0, 0, 0] }] });
      pass.setBindGroup(0, zeroGroup);
      pipelines.forEach(function (pipeline, k) {
        if (!pipeline) return;
        pass.setPipeline(pipeline);
        pass.setBindGroup(1, ioGroup, [k * RANGE_SLOT]);
        if (stage === 'vertex') {
          pass.setViewport(0, k, width, 1, 0, 1);
          pass.draw(counts[k]);
        } else {
          pass.setViewport(0, k, counts[k], 1, 0, 1);
          pass.draw(3);
        }
      });
      pass.end();
      encoder.copyTextureToBuffer({ texture: target }, { buffer: read, bytesPerRow: rowBytes },
        [width, set.routines.length]);
      return read;
    };
    const vertexRead = stages.vertex ? await renderStage('vertex') : null;
    const fragmentRead = stages.fragment ? await renderStage('fragment') : null;
    device.queue.submit([encoder.finish()]);
    scoped = false;
    const error = await device.popErrorScope();
    if (error) throw new CheckFailure('WebGPU error during the ' + label + ' check: ' + error.message);
    const out = { compute: null, vertex: null, fragment: null, times: times };
    if (computeRead) {
      await computeRead.mapAsync(GPUMapMode.READ);
      const px = new Float32Array(computeRead.getMappedRange().slice(0));
      computeRead.unmap();
      out.compute = function (k) {
        const at = 4 * ranges[k * RANGE_SLOT / 4];
        return px.subarray(at, at + 4 * counts[k]);
      };
    }
    for (const [stage, read] of [['vertex', vertexRead], ['fragment', fragmentRead]]) {
      if (!read) continue;
      await read.mapAsync(GPUMapMode.READ);
      const px = new Float32Array(read.getMappedRange().slice(0));
      read.unmap();
      out[stage] = function (k) {
        const at = k * rowBytes / 4;
        return px.subarray(at, at + 4 * counts[k]);
      };
    }
    return out;
  } finally {
    if (scoped) await device.popErrorScope().catch(function () {});
    made.forEach(function (b) { b.destroy(); });
  }
}

// One stage's results from the sets' outputs (out(k): routine k's texels).
function webgpuStage(known, chosen, df64, vectors, qf128, stage) {
  const scalar = function (set, run) {
    const v = flatRows(set, chosen, run[stage]);
    return judgeRoutines(known, set, chosen, v.at, v.px, run.times);
  };
  const routines = scalar(known.df64, df64);
  const vec = judgeVecRoutines(known, known.df64vec, chosen, function (k, e) {
    const tOut = Math.ceil(known.df64vec.routines[k].outputs / 2);
    return vectors[stage](k).subarray(4 * tOut * e, 4 * tOut * (e + 1));
  }, vectors.times);
  let q = null;
  if (qf128) {
    const rows = scalar(known.qf128, qf128);
    q = { pass: rows.every(function (r) { return r.pass; }), routines: rows };
  }
  const fine = function (rows) { return rows.every(function (r) { return r.pass; }); };
  return { pass: fine(routines) && fine(vec) && !(q && !q.pass), probe: null, routines: routines, vectors: vec, qf128: q };
}

function adapterOf(device) {
  const info = device.adapterInfo;
  if (!info) return 'unknown';
  return [info.vendor, info.architecture, info.device, info.description]
    .filter(function (x) { return x; }).join(' ') || 'unknown';
}

/**
 * Proves the WGSL routines (DF64_WGSL; with `options.qf128`, DF64_QF128_WGSL) on this WebGPU
 * device: every routine on the known answers `check` runs, judged alike, in a compute shader
 * and in a render pipeline's vertex stage. Resolves to the same kind of result as `check(gl)`
 * (no probe shader: the known answers include twoSum and twoProduct; `stages` has `compute`
 * and `vertex`); never rejects for a device that fails. See index.d.ts.
 */
export async function checkWebGPU(device, options) {
  const opts = optionsOf(options, WEBGPU_CHECK_OPTIONS, 'checkWebGPU');
  const stages = stagesAskedFor(opts, WEBGPU_STAGES, { compute: true, vertex: true, fragment: false }, 'checkWebGPU');
  const only = routinesAskedFor(KNOWN_ANSWERS, opts, 'checkWebGPU');
  if (opts.zero !== undefined && opts.zero !== 'storage' && opts.zero !== 'uniform') {
    throw new RangeError("df64gl: checkWebGPU's options.zero is 'storage' or 'uniform', not " + describe(opts.zero));
  }
  const t0 = now();
  const result = emptyResult();
  result.stages = { compute: null, vertex: null, fragment: null };
  const done = function (pass, reason) {
    return settle(result, pass, reason, t0);
  };
  if (!device || typeof device.createShaderModule !== 'function' || typeof GPUBufferUsage === 'undefined') {
    return done(false, 'no WebGPU device: pass the GPUDevice your renderer uses (navigator.gpu.requestAdapter(), then adapter.requestDevice())');
  }
  result.renderer = adapterOf(device);
  const source = typeof opts.wgsl === 'string' ? opts.wgsl : opts.qf128 ? DF64_QF128_WGSL : DF64_WGSL;
  // A destroyed or lost device runs nothing and reports no error: say so.
  const lost = await deviceLost(device);
  if (lost) return done(false, lostMessage(lost));
  try {
    const known = knownAnswers();
    const chosen = function (r) { return !only || only.indexOf(r.name) >= 0; };
    const df64 = await runSetWebGPU(device, source, known.df64, 'df64', chosen, opts, stages);
    const vectors = await runSetWebGPU(device, source, known.df64vec, 'df64 vector', chosen, opts, stages);
    const qf128 = opts.qf128 ? await runSetWebGPU(device, source, known.qf128, 'qf128', chosen, opts, stages) : null;
    WEBGPU_STAGES.forEach(function (stage) {
      if (stages[stage]) result.stages[stage] = webgpuStage(known, chosen, df64, vectors, qf128, stage);
    });
    const run = WEBGPU_STAGES.filter(function (x) { return result.stages[x]; }).map(function (x) { return result.stages[x]; });
    result.routines = mergeStages(run.map(function (s) { return s.routines; }));
    result.vectors = mergeStages(run.map(function (s) { return s.vectors; }));
    if (opts.qf128) {
      const rows = mergeStages(run.map(function (s) { return s.qf128.routines; }));
      result.qf128 = { pass: rows.every(function (r) { return r.pass; }), routines: rows };
    }
    const out = [];
    WEBGPU_STAGES.forEach(function (stage) {
      const s = result.stages[stage];
      if (!s) return;
      const f = summarize(s.routines.concat(s.vectors));
      if (f) out.push('df64 routines off their bounds on ' + result.renderer + ' in the ' + stage + ' stage: ' + f);
      if (s.qf128 && !s.qf128.pass) {
        out.push('qf128 routines off their bounds on ' + result.renderer + ' in the ' + stage + ' stage: ' + summarize(s.qf128.routines));
      }
    });
    const names = WEBGPU_STAGES.filter(function (x) { return stages[x]; });
    const which = names.length > 1 ? names.slice(0, -1).join(', ') + ' and ' + names[names.length - 1] + ' stages' : names[0] + ' stage';
    return done(!out.length, out.length ? out.join('; ') : 'df64' + (result.qf128 ? ' and qf128' : '') + ' exact on ' + result.renderer + ' in the ' + which);
  } catch (e) {
    // A device lost during the check fails its work in many ways: the loss is the reason.
    const lostNow = await deviceLost(device);
    if (lostNow) return done(false, lostMessage(lostNow));
    return done(false, e instanceof CheckFailure ? e.reason : 'the check could not run: ' + (e && e.message ? e.message : String(e)));
  }
}
