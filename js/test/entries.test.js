// The package's entries as a page without a bundler loads them: each entry's static imports
// (no cycle; nothing GLSL in the WebGPU entry, nothing WGSL in the WebGL ones, no FFT in the
// root) and the bytes a check adds, within the budgets js/README.md states.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RTE_ROUTINES_FOR_TEST } from './rte-routines.js';
import { CATALOG } from '../src/generated/catalog.js';

const PACKAGE = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const PKG = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8'));

// A module's relative static imports (import/export ... from './x.js').
function staticImports(file) {
  const text = readFileSync(file, 'utf8');
  const out = [];
  for (const m of text.matchAll(/^(?:import|export)\s[^;]*?\sfrom\s+'(\.[^']+)';/gms)) out.push(resolve(dirname(file), m[1]));
  for (const m of text.matchAll(/^import\s+'(\.[^']+)';/gm)) out.push(resolve(dirname(file), m[1]));
  return out;
}

// The static closure of an entry, in visit order; throws on a cycle, naming it.
function closure(entry) {
  const done = new Set();
  const order = [];
  const visit = (file, stack) => {
    if (stack.includes(file)) throw new Error('import cycle: ' + stack.concat(file).map((f) => relative(PACKAGE, f)).join(' -> '));
    if (done.has(file)) return;
    for (const dep of staticImports(file)) visit(dep, stack.concat(file));
    done.add(file);
    order.push(file);
  };
  visit(resolve(PACKAGE, entry), []);
  return order.map((f) => relative(PACKAGE, f));
}

const bytes = (files) => files.reduce((n, f) => n + readFileSync(join(PACKAGE, f)).length, 0);
const entryFile = (name) => PKG.exports[name].import;
const ENTRIES = ['.', './three', './luma', './webgpu', './fft', './fft-webgpu', './maplibre', './maplibre-three'];

test('every entry exists, has its types and no import cycle', () => {
  for (const name of ENTRIES) {
    assert.ok(PKG.exports[name] && PKG.exports[name].types, name);
    readFileSync(join(PACKAGE, PKG.exports[name].types));
    closure(entryFile(name));
  }
  assert.equal(PKG.sideEffects, false);
});

test('each entry loads only what its use needs', () => {
  const has = (files, pattern) => files.some((f) => pattern.test(f));
  const root = closure(entryFile('.'));
  assert.ok(!has(root, /generated\/wgsl|catalog-wgsl|\/fft|webgpu/), root.join(' '));
  assert.ok(!has(root, /generated\/answers\/(?!index)/), 'the root loads no known answers statically');
  for (const name of ['./three', './luma', './fft', './maplibre', './maplibre-three']) assert.ok(!has(closure(entryFile(name)), /generated\/wgsl|catalog-wgsl/), name);
  const map = closure(entryFile('./maplibre'));
  assert.ok(!has(map, /glsl-qf128|\/fft|three\.js$|luma/), 'a MapLibre page loads no qf128 GLSL, FFT, three.js or luma.gl code: ' + map.join(' '));
  const mapThree = closure(entryFile('./maplibre-three'));
  assert.ok(!has(mapThree, /glsl-qf128|\/fft|luma|maplibre\/(layer|position)/), 'three.js in MapLibre loads no qf128 GLSL, FFT, luma.gl code or the raw layer: ' + mapThree.join(' '));
  const gpu = closure(entryFile('./webgpu'));
  assert.ok(!has(gpu, /glsl-df64|glsl-qf128|probe\.js|vec-glsl|catalog-glsl|fft-glsl/), gpu.join(' '));
  assert.ok(!has(closure(entryFile('./three')), /glsl-qf128/), 'three.js pages load no qf128 GLSL');
});

// What a check of `routines` fetches beyond the entry: each routine's answers (and the vector
// routines' GLSL where it checks one).
function checked(routines) {
  const files = [];
  let vectors = false;
  for (const [set, list] of Object.entries(CATALOG)) {
    if (set === 'judging' || set === 'qf128') continue;
    for (const r of list.routines) {
      if (routines.includes(r.name)) {
        files.push(`src/generated/answers/${set}-${r.name}.js`);
        if (set === 'df64vec') vectors = true;
      }
    }
  }
  if (vectors) files.push('src/generated/vec-glsl.js');
  return files;
}

test('the budgets: checkAsync of add, mul, div, sqrt from df64gl; of its routines from df64gl/three', () => {
  const root = bytes(closure(entryFile('.'))) + bytes(checked(['add', 'mul', 'div', 'sqrt']));
  assert.ok(root <= 300 * 1024, `df64gl and checkAsync of four routines: ${(root / 1024).toFixed(1)} KB`);
  const three = bytes(closure(entryFile('./three'))) + bytes(checked(RTE_ROUTINES_FOR_TEST));
  assert.ok(three <= 250 * 1024, `df64gl/three and checkAsync of its routines: ${(three / 1024).toFixed(1)} KB`);
});
