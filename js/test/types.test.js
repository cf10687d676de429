// The declarations: written by tsc from the code's JSDoc (`npm run types`), committed as tsc
// writes them; and as a TypeScript user meets them: a page that uses every entry compiles with
// --strict, a misspelt option, a number for the context and a string length do not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TSC = join(PACKAGE, 'node_modules', 'typescript', 'bin', 'tsc');
const FLAGS = ['--strict', '--noEmit', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--lib', 'es2022,dom'];

function tsc(file) {
  assert.ok(existsSync(TSC), 'TypeScript is a devDependency: run npm install in js/');
  const r = spawnSync(process.execPath, [TSC, ...FLAGS, join(PACKAGE, 'test', 'types', file)], { encoding: 'utf8' });
  return { status: r.status, out: r.stdout + r.stderr };
}

// The files under `dir`, relative to it.
function files(dir, base = dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path, base) : [path.slice(base.length + 1)];
  }).sort();
}

test('types/ is what tsc writes from the code', () => {
  assert.ok(existsSync(TSC), 'TypeScript is a devDependency: run npm install in js/');
  const out = mkdtempSync(join(tmpdir(), 'df64gl-types-'));
  try {
    const r = spawnSync(process.execPath, [TSC, '-p', join(PACKAGE, 'tsconfig.json'), '--outDir', out], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const fresh = files(out);
    assert.deepEqual(files(join(PACKAGE, 'types')), fresh, 'run npm run types in js/ and commit types/');
    for (const f of fresh) {
      assert.equal(readFileSync(join(PACKAGE, 'types', f), 'utf8'), readFileSync(join(out, f), 'utf8'),
        'types/' + f + ' differs from what tsc writes: run npm run types in js/ and commit it');
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('a strict TypeScript page that imports every entry compiles', () => {
  const r = tsc('consumer.ts');
  assert.equal(r.status, 0, r.out);
});

test('wrong calls do not compile, each for its own reason', () => {
  for (const [file, code] of [['wrong-option.ts', 'TS2561'], ['wrong-context.ts', 'TS2345'], ['wrong-fft.ts', 'TS2322']]) {
    const r = tsc(file);
    assert.notEqual(r.status, 0, file + ' compiled');
    assert.match(r.out, new RegExp(code), file + ': ' + r.out);
  }
});
