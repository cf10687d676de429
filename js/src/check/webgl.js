// The WebGL 2 check (`check`, `checkAsync`, `prepareCheck`): the probe shader, then every
// routine asked for on known answers, in the vertex and the fragment stage, on the caller's
// context, whose state it leaves as it found it.
//
// Shader compilers rewrite floating-point code: on ANGLE over Mesa an unprotected df64 build is
// wrong in every routine (about 10^7 ulp48), on SwiftShader the same build happens to be
// right. Only a check on the machine at hand can tell, so run it once per context before you
// trust what the routines draw.

import { VERSION } from '../generated/version.js';
import { DF64_GLSL } from '../generated/glsl-df64.js';
import { PROBE_FUNCTIONS, PROBE_ROUTINES } from '../generated/probe.js';
import { CATALOG } from '../generated/catalog.js';
import { GLSL_CALLS } from '../generated/catalog-glsl.js';
import { saveState, neutralState, restoreState, takeErrors, putBackErrors, outOfMemory } from '../gl-state.js';
import { optionsOf } from '../options.js';
import { judgeRoutines, judgeVecRoutines } from './judge.js';
import { answersNeeded, loadAnswers, missingAnswers, knownAnswers } from './known-answers.js';
import { librarySlice, programGroups } from './glsl-slice.js';
import {
  CheckFailure, now, summarize, emptyResult, settle, routinesAskedFor, stagesAskedFor, flatRows, gridRows, mergeStages,
} from './results.js';

/** @import { CheckResult } from './results.js' */

/**
 * Options of `check`.
 * @typedef {Object} CheckOptions
 * @property {boolean} [cache] Remember the verdict per renderer, browser and module version in `storage` and reuse it (default true).
 * @property {{ getItem(key: string): string | null; setItem(key: string, value: string): void } | null} [storage] Where verdicts are remembered (default: localStorage where there is one).
 * @property {boolean} [qf128] Also check the qf128 routines (compiles QF128_GLSL; slower).
 * @property {string[]} [routines] Check only these routines (names as in RoutineResult.name; with qf128, the qf128 ones of these names); default all.
 * @property {Array<'vertex' | 'fragment'>} [stages] The shader stages to check in: ['vertex', 'fragment'] (the default), or one of them. Vertex and fragment shaders are separate compilations: check the stage your shaders call df64 from.
 * @property {string} [glsl] Check this df64 GLSL instead of DF64_GLSL (your own copy or an older export).
 * @property {string} [qf128Glsl] Check this qf128 GLSL instead of QF128_GLSL.
 */

// The least a host gives a fragment shader: float precision only (luma.gl's assembler, for
// one). DF64_GLSL sets highp int itself; a source that does not (an older export) is checked as
// such a host runs it. Vertex shaders default to highp.
const VERSION_LINE = '#version 300 es\n';

const FRAGMENT_HEADER = VERSION_LINE + 'precision highp float;\n';

const PROBE_SIZE = 64;

const STAGES = ['vertex', 'fragment'];

// The GLSL of the vector routines' evaluations (generated/vec-glsl.js), imported with the
// first check of a vector routine: a page that checks only scalar routines never fetches it.
let vecGlsl = null;
async function loadVecGlsl() {
  if (!vecGlsl) vecGlsl = (await import('../generated/vec-glsl.js')).VEC_GLSL;
}

// QF128_GLSL, imported with the first check that asks for qf128 without a text of its own.
let qf128Glsl = null;
async function loadQf128Glsl() {
  if (!qf128Glsl) qf128Glsl = (await import('../generated/glsl-qf128.js')).QF128_GLSL;
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

// The probe's functions as a check compiles them: what the preprocessor leaves of
// PROBE_FUNCTIONS under the switches above is what is left here too, so that the library's
// slice does not reach the routines only the removed text calls (df64_probe_apply, and the
// literal cases of the routines not probed, or of all where the barrier is on): for the
// transforms alone the slice was 35 KB of the library, exp, log, sin and cos included, and the
// page's work before the probe compiled 20 to 30 ms longer on SwiftShader (traced). A text
// these patterns miss is left whole (a larger program, the same proof).
function probeText(probed, literals) {
  return PROBE_FUNCTIONS
    .replace(/#if DF64_PROBE_OP_(\d+) && DF64_PROBE_LITERALS\n[^#]*#endif\n/g, function (block, k) {
      return literals && probed.indexOf(Number(k)) >= 0 ? block : '';
    })
    .replace(/#ifdef DF64_PROBE_CHECK\n([^#]*)#else\n[^#]*#endif\n/, '$1');
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
    const text = probeText(group, !barrierOn(source));
    const src = stagedSources(stages, switches + librarySlice(source + text, PROBE_VERTEX_MAIN + PROBE_FRAGMENT_MAIN),
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

// A program's worth of routines (programGroups, glsl-slice.js): first fit up to GROUP_SIZE
// characters of code with every call inlined, as SwiftShader (which inlines every call)
// compiles it: an empty program pair compiles there in 55 to 67 ms, atan2's 64,000 characters
// in about 1 s, and a check of every routine with a program each paid the first 97 times.
const GROUP_SIZE = CATALOG.judging.program_group_size;

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
  // Nothing of this set asked for: no target, no draw, no read-back (a check of the vector
  // routines alone paid a fence and a read on SwiftShader for its empty scalar grid).
  if (!routines.length) return { fragment: [], vertex: [], times: [] };
  const rows = routines.length;
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
  programGroups(source, routines.map(function (r) { return r.body; }), GROUP_SIZE).forEach(function (group) {
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
function scalarGrid(set, calls, chosen) {
  const words = set.words;
  const stride = 3 * words + 1;
  const out = [];
  let c = 0;
  set.routines.forEach(function (r, k) {
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
      ? 'vec4 df64gl_result(int col) {\n    vec4 t = df64gl_texel(col);\n    vec2 a = t.xy;\n    vec2 b = t.zw;\n    return vec4(' + calls[k] + ', 0.0, 0.0);\n}\n'
      : 'vec4 df64gl_result(int col) {\n    vec4 a = df64gl_texel(2 * col);\n    vec4 b = df64gl_texel(2 * col + 1);\n    return ' + calls[k] + ';\n}\n';
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
      const at = set.offsets[k].f32 + e * 2 * (r.inputs + r.outputs);
      input.set(set.f32.subarray(at, at + 2 * r.inputs), 4 * tIn * e);
    }
    const body = 'vec2 df64gl_in(int e, int j) {\n    vec4 q = df64gl_texel(e * ' + tIn + ' + j / 2);\n' +
      '    return (j - 2 * (j / 2)) == 0 ? q.xy : q.zw;\n}\n' + vecGlsl[k] +
      'vec4 df64gl_result(int col) {\n    int e = col / ' + tOut + ';\n    return df64gl_vec_out(e, col - ' + tOut + ' * e);\n}\n';
    out.push({ name: r.name, body: body, input: input, width: tOut * r.evaluations });
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

// What check's and checkAsync's options may name, and the type each takes.
const CHECK_OPTIONS = {
  cache: 'boolean', storage: 'storage', qf128: 'boolean', routines: 'array', stages: 'array', glsl: 'string', qf128Glsl: 'string',
};

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

// The check as a generator of steps: it yields what it waits for ({load}: start loading the
// known answers of the routines asked for, {loaded}: their arrival, the probe's compile in
// between; {program}: a program's compile and link; {fence}: the draws before a read-back) and
// returns the result. check()
// runs the steps back to back; checkAsync() lets the page run between them. With `paused`, the
// caller's WebGL state is put back at each pause and the check's taken again after it.
function* checkSteps(gl, asked, paused) {
  const opts = asked.opts;
  const stages = asked.stages;
  const only = asked.only;
  const t0 = now();
  const df64Source = typeof opts.glsl === 'string' ? opts.glsl : DF64_GLSL;
  const qf128Source = typeof opts.qf128Glsl === 'string' ? opts.qf128Glsl : qf128Glsl || '';
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
  // checkAsync imports the answers of the routines it checks from here, past the cached
  // verdict, while the probe compiles (`check` has them already: see `ready`).
  if (!ready(asked)) yield { load: asked };
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
    if (!ready(asked)) yield* steps([{ loaded: true }].values());
    const df64 = yield* steps(gridSteps(gl, scratch, df64Source, scalarGrid(known.df64, GLSL_CALLS.df64, chosen), stages, 'df64', inFlight, paused));
    const vectors = yield* steps(gridSteps(gl, scratch, df64Source, vecGrid(known.df64vec, chosen), stages, 'df64 vector', inFlight, paused));
    const qf128 = opts.qf128
      ? yield* steps(gridSteps(gl, scratch, df64Source + qf128Source, scalarGrid(known.qf128, GLSL_CALLS.qf128, chosen), stages, 'qf128', inFlight, paused))
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

// What a check's options ask for, validated: a bad option is the caller's mistake, not the
// driver's, an Error before anything runs.
function askedFor(options, what) {
  const opts = optionsOf(options, CHECK_OPTIONS, what);
  const stages = stagesAskedFor(opts, STAGES, { vertex: true, fragment: true }, what);
  const only = routinesAskedFor(CATALOG, opts, what);
  const needs = answersNeeded(only, opts.qf128);
  const vectors = needs.some(function (n) { return n.set === 'df64vec'; });
  const qf128Text = !!opts.qf128 && typeof opts.qf128Glsl !== 'string';
  return { opts: opts, stages: stages, only: only, needs: needs, vectors: vectors, qf128Text: qf128Text };
}

// Whether the answers (and the vector routines' GLSL) a check needs are loaded.
function ready(asked) {
  return missingAnswers(asked.needs).length === 0 && (!asked.vectors || vecGlsl !== null) &&
    (!asked.qf128Text || qf128Glsl !== null);
}

// Loads what a check of `asked` needs.
async function load(asked) {
  await Promise.all([
    loadAnswers(asked.needs), asked.vectors ? loadVecGlsl() : null, asked.qf128Text ? loadQf128Glsl() : null,
  ]);
}

/**
 * Loads what `check(gl, options)` needs to run synchronously: the known answers of the routines
 * `options.routines` names (every routine where it names none; the qf128 ones with
 * `options.qf128`), a module per routine. `checkAsync` loads them itself.
 * @param {CheckOptions} [options]
 * @returns {Promise<void>}
 */
export async function prepareCheck(options) {
  await load(askedFor(options, 'prepareCheck'));
}

/**
 * Proves the df64 routines, the vector and matrix routines (and with `options.qf128`, the
 * qf128 ones) on this WebGL 2 context, in the vertex and the fragment stage: the probe shader,
 * then every exported routine on known answers. Never throws for a driver that fails or a
 * context that is lost; throws for bad options, and where the known answers it needs are not
 * loaded (`await prepareCheck(options)` first, or use `checkAsync`). CheckOptions above;
 * CheckResult in results.js.
 * @param {WebGL2RenderingContext | null | undefined} gl
 * @param {CheckOptions} [options]
 * @returns {CheckResult}
 */
export function check(gl, options) {
  const asked = askedFor(options, 'check');
  if (!ready(asked)) {
    const missing = missingAnswers(asked.needs).map(function (n) { return n.name; });
    throw new Error('df64gl: check needs the known answers of the routines it checks, and ' +
      (missing.length ? missing.length + ' are not loaded (' + missing.slice(0, 6).join(', ') + (missing.length > 6 ? ', ...' : '') + ')'
        : 'the GLSL of its vector or qf128 routines is not loaded') +
      ': `await prepareCheck(options)` once before check(gl, options), or use `await checkAsync(gl, options)`, which loads them');
  }
  const gen = checkSteps(gl, asked, false);
  let step = gen.next();
  while (!step.done) step = gen.next();
  return step.value;
}

// The next task of the page: a macrotask, so that frames, input and timers run in between.
function nextTask() {
  return new Promise(function (resolve) { setTimeout(resolve, 0); });
}

/**
 * The same check as `check`, as a Promise of the same result, that loads the known answers of
 * the routines it checks (past a cached verdict) and never holds the page: the
 * programs compile with KHR_parallel_shader_compile where the context has it (their status is
 * polled, never waited for; without it one program is started ahead of the one waited on),
 * draws are read back after a fence has signalled, and between
 * steps the page runs (its frames and input) with its own WebGL state in place.
 * @param {WebGL2RenderingContext | null | undefined} gl
 * @param {CheckOptions} [options]
 * @returns {Promise<CheckResult>}
 */
export async function checkAsync(gl, options) {
  const parallel = gl && typeof gl.getExtension === 'function' ? gl.getExtension('KHR_parallel_shader_compile') : null;
  const asked = askedFor(options, 'checkAsync');
  // The qf128 text first: the cached verdict's key holds it.
  if (asked.qf128Text) await loadQf128Glsl();
  const gen = checkSteps(gl, asked, true);
  let loading = null;
  let step = gen.next();
  while (!step.done) {
    const wait = step.value;
    if (wait.load) {
      // Not awaited here: the probe needs no answers.
      loading = load(wait.load);
      loading.catch(function () {});
    } else if (wait.loaded) {
      try {
        await loading;
      } catch (e) {
        // The check's objects freed and the caller's state put back before the error goes on.
        gen.return(undefined);
        throw e;
      }
    } else if (wait.program && parallel) {
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
