// What the WebGL and the WebGPU checks share: their options' routine and stage lists, the
// shape of a result and its summary, a failure's carrier, the clock.

import { VERSION } from '../generated/version.js';
import { describe } from '../options.js';


/**
 * One routine's known-answer results.
 * @typedef {Object} RoutineResult
 * @property {string} name The routine's name ("add", "exp", ...: the GLSL function is df64_<name>; "vec3_add", "mat4_mul", ...: df64<name>; "transform_point", "relative_to_eye", "world_to_view": df64_<name>).
 * @property {number} cases Cases run (for a vector routine: result components judged).
 * @property {string} unit The unit of `bound` and `worst`: "ulp48", "ulp96", "ulp24" (an f32 result), "2^-48 sum|p|" (dot, cross and matrix products: 2^-48 times the sum of the magnitudes of the products), "2^-24 sum|p| + 2^-48|x|" (the transforms that apply an f32 matrix).
 * @property {number} bound The documented bound in `unit`; 0: exact.
 * @property {number} worst The worst error beyond the domain's floor, in `unit` (Infinity: a wrong NaN, infinity or zero).
 * @property {number} failed Cases off the bound or with a wrong special value.
 * @property {boolean} pass Every case within the bound.
 * @property {number} mirrorMatched Cases whose words equal the CPU mirror's bit for bit (the rest may still be within the bound).
 * @property {{ a?: number[]; b?: number[]; operands?: number[]; component?: number; got: number[]; mirror: number[] } | null} mirrorMismatch The first case whose words differ from the mirror's, or null (a vector routine's: its operands' words and the component).
 * @property {{ a?: number[]; b?: number[]; operands?: number[]; component?: number; got: number[]; want: number[] | 'NaN' } | null} worstCase The worst case when the routine failed, or null.
 * @property {number} ms Milliseconds to compile and run this routine: its share of its program's compile (small routines share a program) and its draws (`checkWebGPU`, which compiles every routine's pipeline at once: from the start of the compiles to its pipeline being ready).
 */

/**
 * What one shader stage found.
 * @typedef {Object} StageResult
 * @property {boolean} pass The probe all green (WebGL) and every routine within its bound in this stage.
 * @property {{ green: number; pixels: number; ms: number } | null} probe The probe shader's green pixels in this stage (null for WebGPU, which has no probe shader).
 * @property {RoutineResult[]} routines Each df64 routine checked in this stage.
 * @property {RoutineResult[]} vectors Each vector and matrix routine checked in this stage.
 * @property {{ pass: boolean; routines: RoutineResult[] } | null} qf128 The qf128 routines, with options.qf128; else null.
 */

/**
 * What `check` found. Plain data: it survives JSON (Infinity becomes null there).
 * @typedef {Object} CheckResult
 * @property {boolean} pass Every stage checked passed: the probe shader all green and every routine within its bound (and qf128's, when asked).
 * @property {string} reason Why it passed or failed, in a sentence for a log or an error message.
 * @property {string} renderer The WebGL renderer string (unmasked where the browser allows).
 * @property {string} version VERSION.
 * @property {{ green: number; pixels: number; ms: number } | null} probe The probe shader's green pixels in the stage with the fewest.
 * @property {RoutineResult[]} routines Each df64 routine over the stages checked (the worst error of any, the failures of all).
 * @property {RoutineResult[]} vectors Each vector and matrix routine (df64_vec.glsl) over the stages checked.
 * @property {{ pass: boolean; routines: RoutineResult[] } | null} qf128 The qf128 routines, with options.qf128; else null.
 * @property {{ vertex: StageResult | null; fragment?: StageResult | null; compute?: StageResult | null }} stages Each stage's own result (null: not checked). `check` has vertex and fragment; `checkWebGPU` compute, vertex and (on request) fragment.
 * @property {number} ms Milliseconds the check took (or the cache lookup).
 * @property {boolean} cached The verdict came from options.storage (localStorage), stored by an earlier check.
 */

export function CheckFailure(reason) {
  this.reason = reason;
}

export function now() {
  return typeof performance !== 'undefined' ? performance.now() : Date.now();
}

export function summarize(routines) {
  return routines.filter(function (r) { return !r.pass; }).map(function (r) {
    return r.name + ' ' + (Number.isFinite(r.worst) ? r.worst.toPrecision(3) + ' ' + r.unit : 'wrong special') +
      ' (bound ' + r.bound + ', ' + r.failed + ' of ' + r.cases + ' cases)';
  }).join(', ');
}

// A check's result before it is settled (the shape of CheckResult, above).
export function emptyResult() {
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

export function settle(result, pass, reason, t0) {
  result.pass = pass;
  result.reason = reason;
  result.ms = now() - t0;
  return result;
}

// options.routines checked against the known answers' routine names (CATALOG, or its
// decoded form): null for all, else the names; an Error for a name no set has, or a list
// that leaves a set it asks for unchecked.
export function routinesAskedFor(known, opts, what) {
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
export function stagesAskedFor(opts, all, defaults, what) {
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
export function flatRows(set, chosen, rowOf) {
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
export function gridRows(set, chosen, rows) {
  const of = [];
  let g = 0;
  set.routines.forEach(function (r) { of.push(chosen(r) ? rows[g++] : null); });
  return function (k) { return of[k]; };
}

// One routine's results over the stages run: the worst error, all failures, the fewest mirror
// matches, the time of all.
export function mergeStages(lists) {
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
