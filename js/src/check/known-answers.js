// The known answers the checks judge by, loaded per routine: the catalog (names, case counts,
// rules) is small and always here; each routine's cases are a module of their own
// (generated/answers/), imported when a check asks for that routine, so a page pays only for
// the routines it checks. Loaded answers are decoded into one array per set, at the routine's
// place, where judge.js and the grids read them.

import { CATALOG } from '../generated/catalog.js';
import { ANSWER_MODULES } from '../generated/answers/index.js';
import { inflate } from './inflate.js';

const SETS = ['df64', 'qf128', 'df64vec'];

function fromBase64(text) {
  const bin = atob(text);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes;
}

// Per routine of a set, how many numbers of each array its cases take: scalar routines per case
// their operands, the mirror's words and the bound (f32), the exact value's three words (f64),
// a kind; vector routines per evaluation its operands' and results' words (f32), per component
// the exact words and the unit's size (f64) and a kind.
function extents(key, r, words) {
  if (key === 'df64vec') {
    return { f32: r.evaluations * 2 * (r.inputs + r.outputs), f64: 4 * r.evaluations * r.outputs, kind: r.evaluations * r.outputs };
  }
  return { f32: r.cases * (3 * words + 1), f64: 3 * r.cases, kind: r.cases };
}

// The sets with every routine's place and room for its answers (zeros until loaded).
let assembled = null;
function sets() {
  if (assembled) return assembled;
  const known = { judging: CATALOG.judging, kinds: {} };
  CATALOG.judging.kinds.forEach(function (name, code) { known.kinds[name] = code; });
  SETS.forEach(function (key) {
    const set = CATALOG[key];
    let at = { f32: 0, f64: 0, kind: 0 };
    const starts = [];
    set.routines.forEach(function (r) {
      starts.push(at);
      const n = extents(key, r, set.words);
      at = { f32: at.f32 + n.f32, f64: at.f64 + n.f64, kind: at.kind + n.kind };
    });
    known[key] = {
      words: set.words,
      routines: set.routines,
      f32: new Float32Array(at.f32),
      f64: new Float64Array(at.f64),
      kind: new Uint8Array(at.kind),
      // Where each routine's numbers start in each array ({f32, f64, kind}; for a vector
      // routine, `kind` counts its components).
      offsets: starts,
      loaded: new Set(),
    };
  });
  assembled = known;
  return known;
}

// How a routine's answers are packed (cli/src/experiments/js/packed_answers.rs writes them):
// deflated; inside, the f32s' bits by columns of their rows (a case, or a vector evaluation),
// the f64s' bits by columns of theirs (a case, or a component), the first column XORed with the
// f64 sum of the row's mirror words where that is finite, then the kinds. The words move as
// 32-bit integers so that a NaN's payload survives.
function mirrorSum(f32, key, r, words, row, f32Row) {
  let at;
  let n;
  if (key === 'df64vec') {
    at = Math.floor(row / r.outputs) * f32Row + 2 * r.inputs + 2 * (row % r.outputs);
    n = 2;
  } else {
    at = row * f32Row + 2 * words;
    n = words;
  }
  let sum = 0;
  for (let k = 0; k < n; k++) sum += f32[at + k];
  return Number.isFinite(sum) ? sum : 0;
}

const sumBits = new Float64Array(1);
const sumWords = new Uint32Array(sumBits.buffer);

// Puts one routine's answers (a module's default export) in place.
function place(key, name, text) {
  const set = sets()[key];
  const k = set.routines.findIndex(function (r) { return r.name === name; });
  if (k < 0 || set.loaded.has(name)) return;
  const r = set.routines[k];
  const at = set.offsets[k];
  const n = extents(key, r, set.words);
  if (typeof text !== 'string') throw damagedAnswers(key, name);
  let bytes;
  try {
    bytes = inflate(fromBase64(text), 4 * n.f32 + 8 * n.f64 + n.kind);
  } catch (e) {
    throw damagedAnswers(key, name);
  }
  const narrow = new Uint32Array(bytes.buffer, 0, n.f32);
  const wide = new Uint32Array(bytes.buffer, 4 * n.f32, 2 * n.f64);
  const f32Row = key === 'df64vec' ? 2 * (r.inputs + r.outputs) : 3 * set.words + 1;
  const f64Row = key === 'df64vec' ? 4 : 3;
  const rows32 = n.f32 / f32Row;
  const rows64 = n.f64 / f64Row;
  const f32 = new Uint32Array(set.f32.buffer, 4 * at.f32, n.f32);
  for (let col = 0; col < f32Row; col++) {
    for (let i = 0; i < rows32; i++) f32[i * f32Row + col] = narrow[col * rows32 + i];
  }
  const f64 = new Uint32Array(set.f64.buffer, 8 * at.f64, 2 * n.f64);
  for (let col = 0; col < f64Row; col++) {
    for (let i = 0; i < rows64; i++) {
      f64[2 * (i * f64Row + col)] = wide[2 * (col * rows64 + i)];
      f64[2 * (i * f64Row + col) + 1] = wide[2 * (col * rows64 + i) + 1];
    }
  }
  const mirrors = set.f32.subarray(at.f32, at.f32 + n.f32);
  for (let i = 0; i < rows64; i++) {
    sumBits[0] = mirrorSum(mirrors, key, r, set.words, i, f32Row);
    f64[2 * i * f64Row] ^= sumWords[0];
    f64[2 * i * f64Row + 1] ^= sumWords[1];
  }
  set.kind.set(bytes.subarray(4 * n.f32 + 8 * n.f64), at.kind);
  set.loaded.add(name);
}

function damagedAnswers(key, name) {
  return new Error('df64gl: the known answers of ' + key + ' ' + name + ' do not match the catalog: the package is damaged; reinstall it');
}

/**
 * The answers a check of `only` (routine names, or null for all) needs: per set the names, the
 * qf128 set only with `qf128`.
 */
export function answersNeeded(only, qf128) {
  const needs = [];
  SETS.forEach(function (key) {
    if (key === 'qf128' && !qf128) return;
    CATALOG[key].routines.forEach(function (r) {
      if (!only || only.indexOf(r.name) >= 0) needs.push({ set: key, name: r.name });
    });
  });
  return needs;
}

/** Of `needs`, those whose answers are not loaded yet. */
export function missingAnswers(needs) {
  const known = sets();
  return needs.filter(function (n) { return !known[n.set].loaded.has(n.name); });
}

/** Imports the answers of `needs` not loaded yet (each routine's module, in parallel). */
export async function loadAnswers(needs) {
  const missing = missingAnswers(needs);
  const modules = await Promise.all(missing.map(function (n) { return ANSWER_MODULES[n.set][n.name](); }));
  modules.forEach(function (m, i) { place(missing[i].set, missing[i].name, m.default); });
}

/**
 * Makes answers imported statically (a module's default export, packed) available to the checks.
 * @param {string} key
 * @param {string} name
 * @param {string} data
 */
export function provideAnswers(key, name, data) {
  place(key, name, data);
}

/**
 * The known answers as the judge reads them: per set its routines, their cases' numbers (those
 * of routines not loaded are zeros: no check reads them) and where each routine starts; the
 * kinds of answer by name.
 */
export function knownAnswers() {
  return sets();
}
