// Which of the check's routines a shader calls: what to pass as `options.routines`.

import { CATALOG } from '../generated/catalog.js';
import { GLSL_CALLS, LIBRARY_FUNCTIONS } from '../generated/catalog-glsl.js';
import { functionIndex, uncommented } from './glsl-slice.js';


/**
 * What `routinesCalledBy` found in your shaders.
 * @typedef {Object} CalledRoutines
 * @property {string[]} routines The routines (RoutineResult.name) whose functions your own functions call: pass as `options.routines`.
 * @property {boolean} qf128 A qf128 function is among them: pass as `options.qf128`.
 * @property {string[]} unchecked Library functions you call that no routine checks (conversions such as df64_from_f32, the transforms' inner forms, Thall's variants): the check proves nothing of these.
 */

// The names of the functions DF64_GLSL and QF128_GLSL define (the same names in the WGSL
// export), listed by `df64gl js`: no GLSL is loaded to find them.
let libraryNames = null;
function libraryFunctionNames() {
  if (!libraryNames) libraryNames = new Set(LIBRARY_FUNCTIONS);
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

/**
 * The check's routines that shaders call: the library functions called from the
 * sources' own functions, each mapped to the routines whose known-answer call names it (or, in
 * PROVEN_THROUGH, returns its results).
 * @param {string | string[]} sources
 * @returns {CalledRoutines}
 */
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
  CATALOG.df64.routines.forEach(function (r, k) { entries('df64', GLSL_CALLS.df64[k], r.name); });
  // A vector routine's code as the names it calls (a call each).
  CATALOG.df64vec.routines.forEach(function (r, k) { entries('df64vec', GLSL_CALLS.df64vec[k].join('() ') + '()', r.name); });
  CATALOG.qf128.routines.forEach(function (r, k) { entries('qf128', GLSL_CALLS.qf128[k], r.name); });
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
