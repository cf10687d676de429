// What the comparison pages (luma-fp64.html: WebGL 2; wgsl-fp64.html: WebGPU) share: each
// routine's operand ranges and chain step, seeded operands, and references from JavaScript
// doubles (exact for add, sub and mul; within 2^-53 relative for the rest, so errors carry
// about +-0.05 ulp48).
import { split } from 'df64gl';

// Operand ranges, and the chain's step: x = routine(arg, c), x the running value, c a uniform
// (exp's argument negated so the chain stays bounded; log's made 2 + |x| by two f32 ops).
export const SPEC = {
  add: { a: [-2, 2], b: [-2, 2], arg: 'x', c: 1e-3 },
  sub: { a: [-2, 2], b: [-2, 2], arg: 'x', c: 1e-3 },
  mul: { a: [-2, 2], b: [-2, 2], arg: 'x', c: 1.0001 },
  div: { a: [-2, 2], b: [0.5, 2], arg: 'x', c: 1.0001 },
  sqrt: { a: [0.25, 4], arg: 'x' },
  exp: { function: true, a: [-1, 1], arg: '-x' },
  log: { function: true, a: [0.5, 2], arg: 'vec2(abs(x.x) + 2.0, x.y)' },
  sin: { function: true, a: [-1, 1], arg: 'x' },
  cos: { function: true, a: [-1, 1], arg: 'x' },
};

// A seeded generator (mulberry32) and df64 operands with full low words.
let seed = 2007;
// Restarts the sequence (each routine from its own seed, so pages and runs see the same operands).
export function reseed(s) { seed = s; }
function next32() {
  seed = (seed + 0x6D2B79F5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return (t ^ (t >>> 14)) >>> 0;
}
// 53 random bits: one 32-bit draw alone leaves the low word nearly empty (every operand a
// multiple of 2^-30 in [-2, 2]), which made add and sub exact by construction.
function random() {
  return (next32() * 2097152 + (next32() >>> 11)) / 9007199254740992;
}
export function operand([lo, hi]) { return split(lo + (hi - lo) * random()); }

function twoSum(a, b) { const s = a + b; const bb = s - a; return [s, (a - (s - bb)) + (b - bb)]; }
export function exactSum(terms) {
  let e = [];
  for (const t of terms) {
    let qv = t; const h = [];
    for (const c of e) { const r = twoSum(qv, c); if (r[1] !== 0) h.push(r[1]); qv = r[0]; }
    h.push(qv); e = h;
  }
  return e.reduce((x, y) => x + y, 0);
}
export function reference(name, a, b) {
  const x = a[0] + a[1], y = b[0] + b[1];
  switch (name) {
    case 'add': return exactSum([a[0], a[1], b[0], b[1]]);
    case 'sub': return exactSum([a[0], a[1], -b[0], -b[1]]);
    case 'mul': return exactSum([a[0] * b[0], a[0] * b[1], a[1] * b[0], a[1] * b[1]]);
    case 'div': return x / y;
    case 'sqrt': return Math.sqrt(x);
    case 'exp': return Math.exp(x);
    case 'log': return Math.log(x);
    case 'sin': return Math.sin(x);
    case 'cos': return Math.cos(x);
  }
}
export function ulp48(x) {
  let e = Math.floor(Math.log2(Math.abs(x)));
  if (Math.pow(2, e) > Math.abs(x)) e -= 1;
  return Math.pow(2, e - 47);
}
