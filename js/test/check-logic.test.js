// The check's logic that runs without a GPU: which routines a shader calls, the library cut to
// what a program reaches, the known answers loaded per routine, and the errors a caller gets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DF64_GLSL } from '../src/generated/glsl-df64.js';
import { QF128_GLSL } from '../src/generated/glsl-qf128.js';
import { LIBRARY_FUNCTIONS } from '../src/generated/catalog-glsl.js';
import { CATALOG } from '../src/generated/catalog.js';
import { routinesCalledBy } from '../src/check/routines-called-by.js';
import { functionIndex, librarySlice, inlinedSize, programGroups } from '../src/check/glsl-slice.js';
import { answersNeeded, loadAnswers, missingAnswers, knownAnswers } from '../src/check/known-answers.js';
import { check, checkAsync, prepareCheck } from '../src/index.js';

test('the listed library functions are those the GLSL defines', () => {
  const names = new Set();
  for (const source of [DF64_GLSL, QF128_GLSL]) functionIndex(source).calls.forEach((_, name) => names.add(name));
  assert.deepEqual([...names].sort(), LIBRARY_FUNCTIONS);
});

test('routinesCalledBy names what the shader\'s own functions call', () => {
  const shader = DF64_GLSL + '\nuniform vec4 u;\nout vec4 o;\n// df64_exp(x) named only in a comment\n' +
    'void main() { o = vec4(df64_mul(u.xy, u.zw), df64_sqrt(u.xy)); }\n';
  const r = routinesCalledBy(shader);
  assert.deepEqual(r.routines.sort(), ['mul', 'sqrt']);
  assert.equal(r.qf128, false);
  assert.ok(!r.routines.includes('exp'));
  const q = routinesCalledBy('vec4 f(vec4 a) { return qf128_exp(a); }');
  assert.equal(q.qf128, true);
  assert.ok(q.routines.includes('exp'));
});

test('a program\'s slice holds what it reaches and no more', () => {
  const code = 'vec2 f(vec2 a, vec2 b) { return df64_add(a, b); }';
  const slice = librarySlice(DF64_GLSL, code);
  assert.match(slice, /\bvec2 df64_add\s*\(/);
  assert.doesNotMatch(slice, /\bdf64_exp\s*\(/);
  assert.ok(slice.length < DF64_GLSL.length / 4);
  assert.ok(inlinedSize(DF64_GLSL, code) > code.length);
});

test('a check\'s programs: a large routine between small ones does not split them', () => {
  // Sizes computed here from the library's own text: three small routines and a matrix product.
  const small = 'vec4 df64gl_result(int col) { return vec4(df64_add(vec2(1.0), vec2(2.0)), 0.0, 0.0); }';
  const large = 'vec4 df64gl_result(int col) { df64mat4 m; df64vec4 v; return df64vec4_to_f32(df64mat4_mul_vec4(m, v)); }';
  const s = inlinedSize(DF64_GLSL, small);
  const l = inlinedSize(DF64_GLSL, large);
  assert.ok(l > 4 * s, 'the matrix product is the larger: ' + l + ' against ' + s);
  // The large one's size: the small ones together beside it (in order they would be split).
  assert.deepEqual(programGroups(DF64_GLSL, [small, large, small, small], l).map((g) => g.members), [[0, 2, 3], [1]]);
  // Room for two small ones a program: the third starts one after the large one's.
  const two = 2 * s + Math.floor(s / 2);
  const groups = programGroups(DF64_GLSL, [small, large, small, small], two);
  assert.deepEqual(groups.map((g) => g.members), [[0, 2], [1], [3]]);
  assert.deepEqual(groups.map((g) => g.size), [2 * s, l, s]);
  // Every routine in exactly one program, whatever the size.
  for (const n of [0, s, two, l, Infinity]) {
    assert.deepEqual(programGroups(DF64_GLSL, [small, large, small, small], n).flatMap((g) => g.members).sort(), [0, 1, 2, 3]);
  }
});

test('answers load per routine and land at their place', async () => {
  const needs = answersNeeded(['add', 'vec3_dot'], false);
  assert.deepEqual(needs.map((n) => n.set + ' ' + n.name), ['df64 add', 'df64vec vec3_dot']);
  assert.equal(missingAnswers(needs).length, 2);
  await loadAnswers(needs);
  assert.equal(missingAnswers(needs).length, 0);
  const known = knownAnswers();
  const k = CATALOG.df64.routines.findIndex((r) => r.name === 'add');
  const r = CATALOG.df64.routines[k];
  const stride = 3 * known.df64.words + 1;
  const first = known.df64.offsets[k].f32;
  // Every case of add has finite operands or IEEE specials, and a bound of 0.5 ulp48.
  for (let i = 0; i < r.cases; i++) assert.equal(known.df64.f32[first + stride * i + 3 * known.df64.words], r.bound);
  // A routine not loaded is still zeros.
  const sub = known.df64.offsets[CATALOG.df64.routines.findIndex((x) => x.name === 'sub')].f32;
  assert.equal(known.df64.f32[sub + 3 * known.df64.words], 0);
});

test('check throws where its answers are not loaded; prepareCheck loads them', async () => {
  assert.throws(() => check(null, { routines: ['exp'] }), /prepareCheck/);
  await prepareCheck({ routines: ['exp'] });
  // Loaded, the check runs: with no WebGL 2 it fails with the reason, never throws.
  const r = check(null, { routines: ['exp'] });
  assert.equal(r.pass, false);
  assert.match(r.reason, /no WebGL 2 context/);
  const a = await checkAsync(null, { routines: ['log'] });
  assert.equal(a.pass, false);
});

test('bad options are errors that name them, before anything loads', async () => {
  assert.throws(() => check(null, { qf182: true }), /did you mean "qf128"/);
  assert.throws(() => check(null, { routines: ['nope'] }), RangeError);
  await assert.rejects(prepareCheck({ stages: ['vertx'] }), RangeError);
  await assert.rejects(checkAsync(null, { routines: 'add' }), TypeError);
});
