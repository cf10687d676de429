// df64gl repro page: the papers' experiments on this browser's WebGL 2, in the schema of the
// native `df64gl repro --json` (device, driver, quick, seed, seconds, tables, plots), each table
// with the published values beside the values measured here. `df64gl web` writes the page with
// the npm module behind an import map and the data below in #df64gl-repro-data: the published
// tables (assets/) and, for the functions, the oracle's answers on fixed inputs. Every other
// reference is computed here: exact rationals in BigInt for the f32 and df64 arithmetic.
// ?quick=1: smaller sizes; ?seed=N; ?report=URL: POST the report's JSON to URL when done;
// ?simulate=unprotected: the context compiles the export without its barrier (as a driver that
// rewrote it would), for testing the page's refusal. ?api=webgpu: the same experiments on
// WebGPU (compute shaders over the WGSL export, checkWebGPU, createFftWebGPU) instead of WebGL 2.
import { checkAsync, DF64_GLSL, VERSION } from 'df64gl/src/index.js';
import { checkWebGPU, DF64_WGSL } from 'df64gl/src/webgpu.js';
import { createFft } from 'df64gl/src/fft.js';
import { createFftWebGPU } from 'df64gl/src/fft-webgpu.js';

const DATA = JSON.parse(document.getElementById('df64gl-repro-data').textContent);
const params = new URLSearchParams(location.search);
const QUICK = params.get('quick') === '1';
const SEED = Number(params.get('seed') || DATA.seed) >>> 0;
const REPORT_URL = params.get('report');
const API = params.get('api') === 'webgpu' ? 'webgpu' : 'webgl2';
// The routines the tables call (the FFT's cores too), checked in the stage they run in; the
// full run checks every routine in both stages.
const USED = QUICK ? ['add', 'sub', 'mul', 'div', 'recip', 'sqrt', 'exp', 'log1p', 'sin', 'cos', 'add12', 'mul12',
  'add_unscaled', 'mul_unscaled'] : null;
const el = function (id) { return document.getElementById(id); };

const HEADER = '#version 300 es\nprecision highp float;\nprecision highp int;\n';
const VERTEX = HEADER + 'void main() { vec2 p = vec2(float((gl_VertexID << 1) & 2), ' +
  'float(gl_VertexID & 2)); gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0); }\n';
const IO = 'uniform highp sampler2D u_a;\nuniform highp sampler2D u_b;\nuniform int u_k;\n' +
  'out highp vec4 o_result;\n';

// ------------------------------------------------------------------ numbers

// mulberry32: the same inputs for the same seed, in any browser.
function rng(seed) {
  let s = seed >>> 0;
  return function () {
    s = (s + 0x6D2B79F5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const F64 = new Float64Array(1);
const U32 = new Uint32Array(F64.buffer);
// floor(log2 |x|) for a finite nonzero double, from its bits.
function exponentOf(x) {
  F64[0] = x;
  const biased = (U32[1] >>> 20) & 0x7ff;
  if (biased > 0) return biased - 1023;
  return Math.floor(Math.log2(Math.abs(x)));
}

// Exact rationals: a double x as the integer x 2^S (every f32 word and every double of the
// inputs here is a multiple of 2^-S).
const S = 200;
const SB = BigInt(S);
const SCALE = Math.pow(2, S);
function big(x) { return BigInt(x * SCALE); }
function babs(n) { return n < 0n ? -n : n; }
function bitLength(n) { return n === 0n ? 0 : babs(n).toString(2).length; }
// n 2^-k as a double, for any size of n (Number(n) keeps 53 bits; the power is applied in two
// steps so neither overflows).
function scaled(n, k) {
  const b = bitLength(n);
  if (b > 900) {
    const shift = b - 900;
    return Number(n >> BigInt(shift)) * Math.pow(2, shift - k);
  }
  return Number(n) * Math.pow(2, -k);
}

// A random df64 in [lo, hi]: the double rounded to f32 (hi word) and its rest (lo word).
function randomDf64(r, lo, hi) {
  const x = lo + (hi - lo) * (r() + r() * Math.pow(2, -32));
  const h = Math.fround(x);
  return [h, Math.fround(x - h)];
}

// A random f32 of random sign with exponent in [-e, e].
function randomF32(r, e, positive) {
  const m = 1 + r();
  const k = Math.floor(r() * (2 * e + 1)) - e;
  const x = Math.fround(m * Math.pow(2, k));
  return positive || r() < 0.5 ? x : -x;
}

// ------------------------------------------------------------------ WebGL 2

// The WebGL 2 engine: fragment programs on RGBA32F textures. Both engines have the same
// interface: run (GLSL or WGSL `body` over the lanes of a and b), chain (a dependent chain's
// time per op), fft (a plan), and the strings that differ between the two languages.
function Gpu(gl) {
  this.api = 'webgl2';
  this.df64 = DF64_GLSL;
  this.vec4 = 'vec4';
  this.gl = gl;
  this.fb = gl.createFramebuffer();
  this.vao = gl.createVertexArray();
  this.programs = new Map();
}

Gpu.prototype.program = function (fragment, what) {
  const gl = this.gl;
  const cached = this.programs.get(fragment);
  if (cached) return cached;
  function shader(kind, src) {
    const s = gl.createShader(kind);
    gl.shaderSource(s, src);
    gl.compileShader(s);
    if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) {
      throw new Error(what + ' does not compile here: ' + gl.getShaderInfoLog(s));
    }
    return s;
  }
  const p = gl.createProgram();
  gl.attachShader(p, shader(gl.VERTEX_SHADER, VERTEX));
  gl.attachShader(p, shader(gl.FRAGMENT_SHADER, fragment));
  gl.linkProgram(p);
  if (!gl.getProgramParameter(p, gl.LINK_STATUS)) {
    throw new Error(what + ' does not link here: ' + gl.getProgramInfoLog(p));
  }
  this.programs.set(fragment, p);
  return p;
};

// An RGBA32F texture of w x h texels holding `data` (null: uninitialised).
Gpu.prototype.texture = function (w, h, data) {
  const gl = this.gl;
  const t = gl.createTexture();
  gl.bindTexture(gl.TEXTURE_2D, t);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
  gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA32F, w, h, 0, gl.RGBA, gl.FLOAT, data);
  return t;
};

// Draws `program` over w x h texels into `target` (or a fresh texture), with u_a, u_b
// (textures) and u_k.
Gpu.prototype.draw = function (program, a, b, w, h, k, target) {
  const gl = this.gl;
  const out = target || this.texture(w, h, null);
  gl.bindFramebuffer(gl.FRAMEBUFFER, this.fb);
  gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, out, 0);
  gl.viewport(0, 0, w, h);
  gl.useProgram(program);
  gl.bindVertexArray(this.vao);
  gl.activeTexture(gl.TEXTURE0);
  gl.bindTexture(gl.TEXTURE_2D, a);
  gl.activeTexture(gl.TEXTURE1);
  gl.bindTexture(gl.TEXTURE_2D, b);
  gl.uniform1i(gl.getUniformLocation(program, 'u_a'), 0);
  gl.uniform1i(gl.getUniformLocation(program, 'u_b'), 1);
  const uk = gl.getUniformLocation(program, 'u_k');
  if (uk !== null) gl.uniform1i(uk, k || 0);
  gl.drawArrays(gl.TRIANGLES, 0, 3);
  return out;
};

Gpu.prototype.read = function (tex, w, h) {
  const gl = this.gl;
  gl.bindFramebuffer(gl.FRAMEBUFFER, this.fb);
  gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, tex, 0);
  const px = new Float32Array(4 * w * h);
  gl.readPixels(0, 0, w, h, gl.RGBA, gl.FLOAT, px);
  if (gl.isContextLost()) throw new Error('the WebGL context was lost');
  return px;
};

// `body` (GLSL computing vec4 o from vec4 a, b) on the texels of `a` and `b` (Float32Array of
// 4 w h each): the output texels.
Gpu.prototype.run = async function (library, body, a, b, side, what) {
  const w = side;
  const h = side;
  const gl = this.gl;
  const p = this.program(HEADER + library + IO + 'void main() {\n  ivec2 q = ivec2(gl_FragCoord.xy);\n' +
    '  vec4 a = texelFetch(u_a, q, 0);\n  vec4 b = texelFetch(u_b, q, 0);\n  ' + body + '\n}\n', what);
  const ta = this.texture(w, h, a);
  const tb = this.texture(w, h, b);
  const out = this.draw(p, ta, tb, w, h, 0);
  const px = this.read(out, w, h);
  [ta, tb, out].forEach(function (t) { gl.deleteTexture(t); });
  return px;
};

// Time per op of `step` (GLSL that updates vec2 x from x and y) in a dependent chain: a pass
// of K steps minus a pass of none, over K, K doubled until the difference reaches `target` ms;
// best of 3. Wall-clock time around a draw and a 1-texel read (WebGL has no draw timer here).
Gpu.prototype.chain = async function (library, init, step, side, targetMs) {
  const gl = this.gl;
  const p = this.program(HEADER + library + IO + 'void main() {\n  ivec2 q = ivec2(gl_FragCoord.xy);\n' +
    '  vec4 a = texelFetch(u_a, q, 0);\n  vec4 b = texelFetch(u_b, q, 0);\n  ' + init + '\n' +
    '  for (int i = 0; i < u_k; i++) {\n    ' + step + '\n  }\n  o_result = vec4(x, y);\n}\n', 'the cost chain');
  const ta = this.texture(side, side, chainData(side));
  // One target for every timed draw: no allocation inside the timing.
  const out = this.texture(side, side, null);
  const one = new Float32Array(4);
  const self = this;
  function time(k) {
    let best = Infinity;
    for (let t = 0; t < 3; t++) {
      const t0 = performance.now();
      self.draw(p, ta, ta, side, side, k, out);
      gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.FLOAT, one);
      best = Math.min(best, performance.now() - t0);
    }
    return best;
  }
  const empty = time(0);
  let k = 4;
  let diff = time(k) - empty;
  while (diff < targetMs && k < (1 << 20)) {
    k *= 2;
    diff = time(k) - empty;
  }
  gl.deleteTexture(ta);
  gl.deleteTexture(out);
  return Math.max(diff, 0) / k;
};

Gpu.prototype.fft = async function (n, precision) {
  return createFft(this.gl, { length: n, precision: precision });
};

// The WebGPU engine: one compute shader per body over storage buffers of vec4 lanes, after the
// WGSL export (its barrier's zero at @group(0) @binding(0)).
function GpuWebGPU(device) {
  this.api = 'webgpu';
  this.df64 = DF64_WGSL;
  this.vec4 = 'vec4<f32>';
  this.device = device;
  this.pipelines = new Map();
  this.zero = device.createBuffer({ size: 16, usage: GPUBufferUsage.STORAGE, mappedAtCreation: true });
  new Uint32Array(this.zero.getMappedRange()).fill(0);
  this.zero.unmap();
  const ro = { type: 'read-only-storage' };
  this.zeroLayout = device.createBindGroupLayout({ entries: [{ binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: ro }] });
  this.ioLayout = device.createBindGroupLayout({
    entries: [
      { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: ro },
      { binding: 1, visibility: GPUShaderStage.COMPUTE, buffer: ro },
      { binding: 2, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'storage' } },
      { binding: 3, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'uniform' } },
    ],
  });
  this.zeroGroup = device.createBindGroup({ layout: this.zeroLayout, entries: [{ binding: 0, resource: { buffer: this.zero } }] });
}

GpuWebGPU.prototype.pipeline = async function (library, body, what) {
  const key = library.length + ':' + body;
  const cached = this.pipelines.get(key);
  if (cached) return cached;
  const device = this.device;
  const code = (library || '@group(0) @binding(0) var<storage> repro_zero: array<u32, 4>;\n') + `
@group(1) @binding(0) var<storage, read> in_a: array<vec4<f32>>;
@group(1) @binding(1) var<storage, read> in_b: array<vec4<f32>>;
@group(1) @binding(2) var<storage, read_write> out_r: array<vec4<f32>>;
@group(1) @binding(3) var<uniform> u_repro: vec4<u32>;
@compute @workgroup_size(64)
fn repro_main(@builtin(global_invocation_id) id: vec3<u32>) {
  let i = id.x;
  if (i >= u_repro.x) { return; }
  let a = in_a[i];
  let b = in_b[i];
  let u_k = u_repro.y;
  var o_result = vec4<f32>(0.0);
  ${body}
  out_r[i] = o_result;
}
`;
  device.pushErrorScope('validation');
  device.pushErrorScope('internal');
  const pipeline = device.createComputePipeline({
    layout: device.createPipelineLayout({ bindGroupLayouts: [this.zeroLayout, this.ioLayout] }),
    compute: { module: device.createShaderModule({ code: code }), entryPoint: 'repro_main' },
  });
  const errors = [await device.popErrorScope(), await device.popErrorScope()].filter(Boolean);
  if (errors.length) throw new Error(what + ' does not compile here: ' + errors.map(function (e) { return e.message; }).join('; '));
  this.pipelines.set(key, pipeline);
  return pipeline;
};

// Buffers for a and b (4 floats a lane), the output and its read-back, and a uniform
// (lanes, chain length).
GpuWebGPU.prototype.buffers = function (a, b, count) {
  const device = this.device;
  const make = function (data, usage) {
    const buf = device.createBuffer({ size: Math.max(data.byteLength, 16), usage: usage | GPUBufferUsage.COPY_DST });
    device.queue.writeBuffer(buf, 0, data);
    return buf;
  };
  const bytes = 16 * count;
  const io = {
    a: make(a, GPUBufferUsage.STORAGE),
    b: make(b, GPUBufferUsage.STORAGE),
    out: device.createBuffer({ size: bytes, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC }),
    read: device.createBuffer({ size: bytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST }),
    uniform: make(new Uint32Array([count, 0, 0, 0]), GPUBufferUsage.UNIFORM),
    bytes: bytes,
    count: count,
  };
  io.group = device.createBindGroup({
    layout: this.ioLayout,
    entries: ['a', 'b', 'out', 'uniform'].map(function (k, i) { return { binding: i, resource: { buffer: io[k] } }; }),
  });
  return io;
};

GpuWebGPU.prototype.dispatch = function (pipeline, io) {
  const encoder = this.device.createCommandEncoder();
  const pass = encoder.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, this.zeroGroup);
  pass.setBindGroup(1, io.group);
  pass.dispatchWorkgroups(Math.ceil(io.count / 64));
  pass.end();
  return encoder;
};

GpuWebGPU.prototype.run = async function (library, body, a, b, side, what) {
  const pipeline = await this.pipeline(library, body, what);
  const io = this.buffers(a, b, side * side);
  const encoder = this.dispatch(pipeline, io);
  encoder.copyBufferToBuffer(io.out, 0, io.read, 0, io.bytes);
  this.device.queue.submit([encoder.finish()]);
  await io.read.mapAsync(GPUMapMode.READ);
  const out = new Float32Array(io.read.getMappedRange().slice(0));
  io.read.unmap();
  ['a', 'b', 'out', 'read', 'uniform'].forEach(function (k) { io[k].destroy(); });
  return out;
};

// As the WebGL engine's chain, timed around a dispatch and the queue's completion.
GpuWebGPU.prototype.chain = async function (library, init, step, side, targetMs) {
  const wgslInit = init.replace(/vec2 (\w+) = /g, 'var $1: vec2<f32> = ').replace(/vec2\(/g, 'vec2<f32>(');
  const body = wgslInit + '\n  for (var i = 0u; i < u_k; i++) {\n    ' + step + '\n  }\n  o_result = vec4<f32>(x, y);';
  const pipeline = await this.pipeline(library, body, 'the cost chain');
  const data = chainData(side);
  const io = this.buffers(data, data, side * side);
  const self = this;
  async function time(k) {
    self.device.queue.writeBuffer(io.uniform, 0, new Uint32Array([io.count, k, 0, 0]));
    let best = Infinity;
    for (let t = 0; t < 3; t++) {
      const t0 = performance.now();
      self.device.queue.submit([self.dispatch(pipeline, io).finish()]);
      await self.device.queue.onSubmittedWorkDone();
      best = Math.min(best, performance.now() - t0);
    }
    return best;
  }
  const empty = await time(0);
  let k = 4;
  let diff = await time(k) - empty;
  while (diff < targetMs && k < (1 << 20)) {
    k *= 2;
    diff = await time(k) - empty;
  }
  ['a', 'b', 'out', 'read', 'uniform'].forEach(function (key) { io[key].destroy(); });
  return Math.max(diff, 0) / k;
};

GpuWebGPU.prototype.fft = function (n, precision) {
  return createFftWebGPU(this.device, { length: n, precision: precision, cache: false });
};

// The chains' operands: x from 0.5 to 0.75, y from 0.9 to 1.
function chainData(side) {
  const r = rng(SEED ^ 0x5eed);
  const data = new Float32Array(4 * side * side);
  for (let i = 0; i < data.length; i += 4) {
    data[i] = Math.fround(0.5 + 0.25 * r());
    data[i + 2] = Math.fround(0.9 + 0.1 * r());
  }
  return data;
}

// ------------------------------------------------------------------ report tables

function table(id, title, sources, notes, columns) {
  return { id: id, title: title, sources: sources, notes: notes, columns: columns, rows: [] };
}
function round(x, digits) {
  if (!Number.isFinite(x)) return String(x);
  const f = Math.pow(10, digits);
  return Math.round(x * f) / f;
}

// ------------------------------------------------------------------ Thall's Table I

const TABLE1_OPS = [
  { name: 'add', glsl: 'a.x + a.y', f: function (a, b) { return a + b; } },
  { name: 'sub', glsl: 'a.x - a.y', f: function (a, b) { return a - b; } },
  { name: 'mul', glsl: 'a.x * a.y', f: function (a, b) { return a * b; } },
  { name: 'div', glsl: 'a.x / a.y', f: function (a, b) { return a / b; } },
  { name: 'mul by recip', glsl: 'a.x * (1.0 / a.y)', f: function (a, b) { return a / b; } },
  { name: 'sqrt', glsl: 'sqrt(abs(a.x))', f: function (a) { return Math.sqrt(Math.abs(a)); } },
  { name: 'inversesqrt', glsl: 'inversesqrt(abs(a.x))', f: function (a) { return 1 / Math.sqrt(Math.abs(a)); } },
];

// Error of an f32 result in ulps of the exact value's binade (Thall's Table I measure) and
// whether it is the correctly rounded one. Exact: sums and products of these f32 are exact in
// double; quotients and roots are within 2^-29 ulp of exact.
function f32Error(got, exact) {
  const ulp = Math.pow(2, exponentOf(exact) - 23);
  return { ulps: (got - exact) / ulp, correct: got === Math.fround(exact) };
}

function roundingOf(lo, hi) {
  if (lo >= -0.5 && hi <= 0.5) return 'nearest';
  if (lo > -1 && hi <= 0) return 'chopped';
  if (lo > -1 && hi < 1) return 'faithful';
  return 'worse than faithful';
}

async function tableOne(gpu, dev, n) {
  const paper = DATA.paper.thall_table1;
  const t = table('thall-table1', 'Thall Table I: f32 arithmetic error (GPU paranoia)',
    [paper.source + ' (' + paper.device + ')', 'measured: df64gl repro page on ' + dev + ', ' + n + ' inputs per op'],
    ['Inputs: f32 of random sign and exponent in [-10, 10]; references in double arithmetic (sums and products exact, quotients and roots within 2^-29 ulp).'],
    ['operation'].concat(paper.columns.map(function (c) { return c + ' [Thall 2007]'; }),
      ['error range, ulp [' + dev + ']', 'correctly rounded, % [' + dev + ']', 'rounding [' + dev + ']']));
  const side = Math.ceil(Math.sqrt(n / 2));
  const r = rng(SEED ^ 0x7ab1e1);
  const a = new Float32Array(4 * side * side);
  for (let i = 0; i < a.length; i++) a[i] = randomF32(r, 10, false);
  for (const op of TABLE1_OPS) {
    // Two lanes a texel: (a.x, a.y) and (a.z, a.w), each drawn on its own.
    const expr = gpu.api === 'webgpu' ? op.glsl.replace('inversesqrt', 'inverseSqrt') : op.glsl;
    const lane = function (x, y) {
      return gpu.run('', 'o_result = ' + gpu.vec4 + '(' + expr.replace(/a\.x/g, 'a.' + x).replace(/a\.y/g, 'a.' + y) +
        ', 0.0, 0.0, 0.0);', a, a, side, 'f32 ' + op.name);
    };
    const out = await lane('x', 'y');
    const out2 = await lane('z', 'w');
    let lo = Infinity, hi = -Infinity, correct = 0, count = 0;
    for (let i = 0; i < side * side; i++) {
      [[a[4 * i], a[4 * i + 1], out[4 * i]], [a[4 * i + 2], a[4 * i + 3], out2[4 * i]]].forEach(function (c) {
        const exact = op.f(c[0], c[1]);
        if (!Number.isFinite(exact) || exact === 0 || !Number.isFinite(c[2])) return;
        const e = f32Error(c[2], exact);
        lo = Math.min(lo, e.ulps);
        hi = Math.max(hi, e.ulps);
        correct += e.correct ? 1 : 0;
        count++;
      });
    }
    const row = paper.rows.find(function (p) { return p.label === op.name; });
    t.rows.push([op.name].concat(row ? row.values : paper.columns.map(function () { return 'not in paper'; }),
      ['[' + lo.toFixed(3) + ', ' + hi.toFixed(3) + ']', 100 * correct / count, roundingOf(lo, hi)]));
  }
  return t;
}

// ------------------------------------------------------------------ Thall's Table II

// Each op: its GLSL on lanes (a.xy, b.xy) and (a.zw, b.zw), its operand ranges, and its exact
// error in ulp48 from BigInt (A, B, G: the operands and the result as integers times 2^S).
function ulp48Error(diff, exponentK, e) { return scaled(babs(diff), exponentK - 47 + e); }
function exponentOfBig(n, k) { return bitLength(n) - 1 - k; }

const ARITH = [
  { name: 'add', glsl: 'df64_add', range: '[-1, 1]', a: [-1, 1], err: function (A, B, G) {
    const E = A + B;
    return E === 0n ? null : { ulp: ulp48Error(G - E, S, exponentOfBig(E, S)), rel: relErr(G - E, E) };
  } },
  { name: 'sub', glsl: 'df64_sub', range: '[-1, 1]', a: [-1, 1], err: function (A, B, G) {
    const E = A - B;
    return E === 0n ? null : { ulp: ulp48Error(G - E, S, exponentOfBig(E, S)), rel: relErr(G - E, E) };
  } },
  { name: 'mul', glsl: 'df64_mul', range: '[-1, 1]', a: [-1, 1], err: function (A, B, G) {
    const E = A * B;
    if (E === 0n) return null;
    const D = (G << SB) - E;
    return { ulp: ulp48Error(D, 2 * S, exponentOfBig(E, 2 * S)), rel: relErr(D, E) };
  } },
  { name: 'div', glsl: 'df64_div', range: '[-1, 1]', a: [-1, 1], err: function (A, B, G) {
    return A === 0n || B === 0n ? null : quotientError(A, B, G);
  } },
  { name: 'recip', glsl: 'df64_recip', unary: 'b', range: '[-1, 1]', a: [-1, 1], err: function (A, B, G) {
    return B === 0n ? null : quotientError(1n << SB, B, G);
  } },
  { name: 'sqrt', glsl: 'df64_sqrt', unary: 'a', range: '[0, 1]', a: [0, 1], err: function (A, B, G) {
    if (A === 0n || G <= 0n) return null;
    // |g - sqrt(a)| = |g^2 - a| / (g + sqrt(a)), and g + sqrt(a) = 2 g to 2^-47 relative.
    const D = G * G - (A << SB);
    const g = scaled(G, S);
    const e = exponentOfBig(G, S);
    const abs = scaled(babs(D), 2 * S) / (2 * g);
    return { ulp: abs / Math.pow(2, e - 47), rel: abs / g };
  } },
];

function relErr(D, E) {
  return scaled((babs(D) << 200n) / babs(E), 200);
}

// |g - a/b| in ulp48 of a/b, exactly: |g b - a| / |b|, with floor(log2 |a/b|) from the integers.
function quotientError(A, B, G) {
  const a = babs(A), b = babs(B);
  let e = bitLength(a) - bitLength(b);
  const atLeast = e >= 0 ? a >= (b << BigInt(e)) : (a << BigInt(-e)) >= b;
  if (!atLeast) e -= 1;
  const D = babs(G * B - (A << SB));
  const abs = scaled((D << 64n) / b, S + 64);
  return { ulp: abs / Math.pow(2, e - 47), rel: scaled((D << 200n) / a, 200) };
}

// Random inputs for `op`, run on the GPU; per lane the exact error.
async function runArith(gpu, op, n, library) {
  const side = Math.ceil(Math.sqrt(n / 2));
  const r = rng(SEED ^ (0x9e3779b9 * (ARITH.indexOf(op) + 1)));
  const a = new Float32Array(4 * side * side);
  const b = new Float32Array(4 * side * side);
  for (let i = 0; i < a.length; i += 2) {
    const x = randomDf64(r, op.a[0], op.a[1]);
    const y = randomDf64(r, -1, 1);
    a[i] = x[0]; a[i + 1] = x[1];
    b[i] = y[0]; b[i + 1] = y[1];
  }
  const call = function (l) {
    if (op.unary === 'a') return op.glsl + '(a.' + l + ')';
    if (op.unary === 'b') return op.glsl + '(b.' + l + ')';
    return op.glsl + '(a.' + l + ', b.' + l + ')';
  };
  const out = await gpu.run(library, 'o_result = ' + gpu.vec4 + '(' + call('xy') + ', ' + call('zw') + ');', a, b, side, 'df64 ' + op.name);
  const errors = [];
  for (let i = 0; i < a.length; i += 2) {
    if (!Number.isFinite(out[i]) || !Number.isFinite(out[i + 1])) {
      errors.push({ ulp: Infinity, rel: Infinity });
      continue;
    }
    const A = big(a[i]) + big(a[i + 1]);
    const B = big(b[i]) + big(b[i + 1]);
    const G = big(out[i]) + big(out[i + 1]);
    const e = op.err(A, B, G);
    if (e) errors.push(e);
  }
  return errors;
}

function summary(errors) {
  let max = 0, sq = 0, rel = 0;
  errors.forEach(function (e) {
    max = Math.max(max, e.ulp);
    sq += e.ulp * e.ulp;
    rel = Math.max(rel, e.rel);
  });
  return { max: max, rms: Math.sqrt(sq / Math.max(errors.length, 1)), rel: rel, count: errors.length };
}

// The functions against the oracle's double-double answers: |g - w| in ulp48 of w.
async function runFunction(gpu, f, library) {
  const a32 = decode(f.a, Float32Array);
  const want = decode(f.want, Float64Array);
  const n = a32.length / 2;
  const side = Math.ceil(Math.sqrt(n / 2));
  const a = new Float32Array(4 * side * side);
  a.set(a32);
  const out = await gpu.run(library, 'o_result = ' + gpu.vec4 + '(' + f.glsl + '(a.xy), ' + f.glsl + '(a.zw));', a, a, side, 'df64 ' + f.op);
  const errors = [];
  for (let i = 0; i < n; i++) {
    const wh = want[2 * i], wl = want[2 * i + 1];
    if (wh === 0) continue;
    const d = (out[2 * i] - wh) + (out[2 * i + 1] - wl);
    const ulp = Math.pow(2, exponentOf(wh + wl) - 47);
    errors.push({ ulp: Number.isFinite(d) ? Math.abs(d) / ulp : Infinity, rel: Math.abs(d / wh) });
  }
  return errors;
}

function decode(b64, Type) {
  const bin = atob(b64);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return new Type(bytes.buffer);
}

// Dependent chains for the cost column: each keeps x in its op's range.
const CHAINS = {
  f32: { lib: '', init: 'vec2 x = a.xy; vec2 y = a.zw;', step: 'x.x = x.x + y.x;' },
  add: { init: 'vec2 x = a.xy; vec2 y = vec2(a.z * 1e-3, 0.0);', step: 'x = df64_add(x, y);' },
  sub: { init: 'vec2 x = a.xy; vec2 y = vec2(a.z * 1e-3, 0.0);', step: 'x = df64_sub(x, y);' },
  mul: { init: 'vec2 x = a.xy; vec2 y = vec2(1.0 + 1e-7 * a.z, 0.0);', step: 'x = df64_mul(x, y);' },
  div: { init: 'vec2 x = a.xy; vec2 y = vec2(1.0 + 1e-7 * a.z, 0.0);', step: 'x = df64_div(x, y);' },
  recip: { init: 'vec2 x = a.xy; vec2 y = a.zw;', step: 'x = df64_recip(x);' },
  sqrt: { init: 'vec2 x = a.xy; vec2 y = a.zw;', step: 'x = df64_sqrt(x);' },
  exp: { init: 'vec2 x = a.xy; vec2 y = a.zw;', step: 'x = df64_exp(-x);' },
  log1p: { init: 'vec2 x = a.xy; vec2 y = a.zw;', step: 'x = df64_log1p(x);' },
  sin: { init: 'vec2 x = a.xy; vec2 y = a.zw;', step: 'x = df64_sin(x);' },
  cos: { init: 'vec2 x = a.xy; vec2 y = a.zw;', step: 'x = df64_cos(x);' },
};

async function tableTwo(gpu, dev, n, library, costs) {
  const paper = DATA.paper.thall_table2;
  const mirror = 'GPU vs CPU mirror [' + dev + ']';
  const t = table('thall-table2', 'Thall Table II: df64 arithmetic, max and RMS error in ulp48',
    [paper.source + ' (' + paper.device + ')', 'measured: df64gl repro page on ' + dev + ', ' + n + ' random inputs per row, against exact rationals (BigInt)'],
    ["variant 'accurate': df64gl's defaults (" + (gpu.api === 'webgpu' ? 'DF64_WGSL' : 'DF64_GLSL, ES 3.00') + ', behind the barrier).',
      'cost: per-op time in a dependent chain (a pass of K ops minus a pass of none, over K; wall-clock around ' +
        (gpu.api === 'webgpu' ? "a dispatch and the queue's completion" : 'a draw and a 1-texel read') + '), divided by the same for an f32 add, all in this run.',
      'The page has no CPU mirror: that column is "-".'],
    ['op', 'variant', 'range', 'G80 max [Thall 2007]', 'G80 RMS [Thall 2007]', 'max, ulp48 [' + dev + ']',
      'RMS, ulp48 [' + dev + ']', 'cost / f32 add [' + dev + ']', mirror]);
  const stats = {};
  for (const op of ARITH) {
    const s = summary(await runArith(gpu, op, n, library));
    stats[op.name] = s;
    const p = paper.rows.find(function (r) { return r.op === op.name; });
    t.rows.push([op.name, 'accurate', op.range, p ? p.max : 'not in paper', p ? p.rms : 'not in paper',
      s.max, s.rms, costs[op.name] === undefined ? '-' : costs[op.name], '-']);
  }
  const f = table('thall-table2-functions', 'Thall Table II: df64 functions, max and RMS error in ulp48',
    [paper.source + ' (' + paper.device + ')', 'measured: df64gl repro page on ' + dev + ', against the oracle (astro-float, 256 bits) on inputs fixed by `df64gl web`'],
    ['The oracle\'s answers travel in the page as double-double words; the error is taken in double from them.'],
    ['function', 'range', 'G80 max [Thall 2007]', 'G80 RMS [Thall 2007]', 'max, ulp48 [' + dev + ']',
      'RMS, ulp48 [' + dev + ']', 'cost / f32 add [' + dev + ']', mirror]);
  for (const fn of DATA.oracle) {
    const s = summary(await runFunction(gpu, fn, library));
    stats[fn.op] = s;
    const p = paper.rows.find(function (r) { return r.op === fn.paper; });
    f.rows.push([fn.op, fn.range, p ? p.max : 'not in paper', p ? p.rms : 'not in paper', s.max, s.rms,
      costs[fn.op] === undefined ? '-' : costs[fn.op], '-']);
  }
  return { arith: t, functions: f, stats: stats };
}

async function dagraca(gpu, dev, n, library, stats) {
  const paper = DATA.paper.dagraca_table5;
  const t = table('dagraca-table5', 'Da Graca and Defour Table 5: log2 of the maximum relative error',
    [paper.source + ' (' + paper.device + ')', 'measured: df64gl repro page on ' + dev + ', against exact rationals (BigInt)'],
    ["add and mul are df64gl's accurate defaults on Table II's inputs; add12 and mul12 are its df64_two_sum and df64_two_prod on f32 operands. Their add22 and mul22 as published are not in the export, so the page has no *_dagraca rows."],
    ['op', 'routine', 'log2 max rel error [Da Graca 2006]', 'log2 max rel error [' + dev + ']', 'inputs']);
  const side = Math.ceil(Math.sqrt(n / 2));
  const r = rng(SEED ^ 0xda9ac);
  const a = new Float32Array(4 * side * side);
  for (let i = 0; i < a.length; i++) a[i] = randomF32(r, 10, false);
  const published = function (op) {
    const p = paper.rows.find(function (x) { return x.op === op; });
    return !p ? 'not in paper' : p.log2_max_rel_error === null ? 'exact' : p.log2_max_rel_error;
  };
  for (const c of [['add12', 'df64_two_sum'], ['mul12', 'df64_two_prod']]) {
    const out = await gpu.run(library, 'o_result = ' + gpu.vec4 + '(' + c[1] + '(a.x, a.y), ' + c[1] + '(a.z, a.w));', a, a, side, c[1]);
    let worst = 0, count = 0;
    for (let i = 0; i < a.length; i += 2) {
      const E = c[0] === 'add12' ? big(a[i]) + big(a[i + 1]) : big(a[i]) * big(a[i + 1]);
      const G = c[0] === 'add12' ? big(out[i]) + big(out[i + 1]) : (big(out[i]) + big(out[i + 1])) << SB;
      count++;
      if (E === 0n) continue;
      worst = Math.max(worst, relErr(G - E, E));
    }
    t.rows.push([c[0], c[0], published(c[0]), worst === 0 ? 'exact' : Math.log2(worst), count]);
  }
  [['add22', 'add'], ['mul22', 'mul']].forEach(function (c) {
    const s = stats[c[1]];
    t.rows.push([c[0], c[1], published(c[0]), s.rel === 0 ? 'exact' : Math.log2(s.rel), s.count]);
  });
  return t;
}

// ------------------------------------------------------------------ the FFT

// Round trip x -> F^-1(F(x)) with the data kept on the GPU, from the words: Thall's measures
// (RMSE of magnitude and phase, peak S/N, in double: enough for df64) and the relative RMS
// error from the exact words (BigInt: enough for qf128).
async function roundTrip(plan, x, words) {
  plan.upload(x);
  plan.execute('forward');
  plan.execute('inverse');
  const w = await plan.downloadWords();
  const n = x.length / 2;
  let mag2 = 0, ph2 = 0, err2 = 0, sig2 = 0, peak = 0, exact2 = 0;
  for (let i = 0; i < n; i++) {
    let re = 0, im = 0;
    const per = words / 2;
    for (let k = 0; k < per; k++) { re += w[words * i + k]; im += w[words * i + per + k]; }
    const xr = x[2 * i], xi = x[2 * i + 1];
    const ax = Math.hypot(xr, xi), ay = Math.hypot(re, im);
    const dm = ay - ax;
    mag2 += dm * dm;
    const rr = re * xr + im * xi, ri = im * xr - re * xi;
    const dp = ax > 0 && ay > 0 ? Math.atan2(ri, rr) : 0;
    ph2 += dp * dp;
    err2 += (re - xr) * (re - xr) + (im - xi) * (im - xi);
    sig2 += ax * ax;
    peak = Math.max(peak, ax);
    let dr = -big(xr), di = -big(xi);
    for (let k = 0; k < per; k++) { dr += big(w[words * i + k]); di += big(w[words * i + per + k]); }
    const er = scaled(dr, S), ei = scaled(di, S);
    exact2 += er * er + ei * ei;
  }
  const mse = err2 / n;
  return {
    rmseMagnitude: Math.sqrt(mag2 / n), rmsePhase: Math.sqrt(ph2 / n),
    peakSnrDb: mse > 0 ? 10 * Math.log10(peak * peak / mse) : Infinity,
    relRms: Math.sqrt(exact2 / sig2),
  };
}

async function fftTables(gpu, dev) {
  const maxLog2 = { f32: QUICK ? 10 : 16, df64: QUICK ? 10 : 16, qf128: QUICK ? 8 : 12 };
  const paper = DATA.paper.thall_fft;
  const thall = table('thall-fft', "Thall's FFT study: df64 transposed Stockham, round-trip accuracy and GFLOP/s, per N",
    [paper.source + ' (' + paper.device + ')', 'measured: df64gl repro page, ' + (gpu.api === 'webgpu' ? 'createFftWebGPU' : 'createFft') + ' on ' + dev + ', uniform random complex input in [-1, 1]^2, best of 3 forward transforms'],
    (paper.note ? [paper.note] : []).concat([gpu.api === 'webgpu'
      ? 'The page runs the npm module\'s createFftWebGPU (radix-4 compute stages, twiddles from a table computed exactly in BigInt); the last column is its GFLOP/s.'
      : 'The page runs the npm module\'s createFft (radix 4, twiddles from a table computed exactly in BigInt).']),
    ['m', 'N', 'RMSE |x|, table [' + dev + ']', 'RMSE phase, table [' + dev + ']', 'peak S/N dB, table [' + dev + ']', 'GFLOP/s radix 4, table [' + dev + ']']);
  const prec = table('fft-precisions', 'The FFT per precision: round-trip error and forward time',
    ['measured: df64gl repro page, ' + (gpu.api === 'webgpu' ? 'createFftWebGPU' : 'createFft') + ' on ' + dev],
    ['round trip: x -> F^-1(F(x)) on the GPU, relative RMS error from the exact words; time: best of 3 forward transforms, data on the GPU, ending in a read of the result.'],
    ['precision', 'N', 'round-trip rel RMS error [' + dev + ']', 'forward ms [' + dev + ']', 'GFLOP/s [' + dev + ']']);
  const r = rng(SEED ^ 0xff7);
  for (const p of ['f32', 'df64', 'qf128']) {
    const words = p === 'f32' ? 2 : p === 'df64' ? 4 : 8;
    for (let m = 4; m <= maxLog2[p]; m++) {
      const n = 1 << m;
      const x = new Float64Array(2 * n);
      for (let i = 0; i < x.length; i++) x[i] = 2 * r() - 1;
      const plan = await gpu.fft(n, p);
      try {
        const rt = await roundTrip(plan, x, words);
        plan.upload(x);
        let best = Infinity;
        for (let t = 0; t < 3; t++) {
          const t0 = performance.now();
          plan.execute('forward');
          await plan.downloadWords();
          best = Math.min(best, performance.now() - t0);
          plan.upload(x);
        }
        const gflops = 5 * n * m / (best * 1e6);
        prec.rows.push([p, n, rt.relRms, best, gflops]);
        if (p === 'df64') thall.rows.push([m, n, rt.rmseMagnitude, rt.rmsePhase, rt.peakSnrDb, gflops]);
      } finally {
        plan.dispose();
      }
    }
  }
  return [thall, prec];
}

// ------------------------------------------------------------------ the run

function shortDevice(renderer, api) {
  if (/SwiftShader/i.test(renderer)) return 'SwiftShader (' + api + ')';
  const inner = renderer.replace(/^ANGLE \(/, '').replace(/\)$/, '').split(', ');
  const name = (inner.length > 1 ? inner[1] : inner[0]).replace(/ \(.*$/, '').trim();
  return (name || renderer) + ' (' + api + ')';
}

function driverOf(gl) {
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  const renderer = info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER);
  const vendor = info ? gl.getParameter(info.UNMASKED_VENDOR_WEBGL) : gl.getParameter(gl.VENDOR);
  const ext = gl.getSupportedExtensions() || [];
  return {
    device: 'WebGL 2 in ' + navigator.userAgent,
    vendor: vendor,
    renderer: renderer,
    version: gl.getParameter(gl.VERSION),
    glsl_version: gl.getParameter(gl.SHADING_LANGUAGE_VERSION),
    major: 3,
    minor: 0,
    glsl_number: 300,
    max_texture_size: gl.getParameter(gl.MAX_TEXTURE_SIZE),
    max_color_attachments: gl.getParameter(gl.MAX_COLOR_ATTACHMENTS),
    max_array_texture_layers: gl.getParameter(gl.MAX_ARRAY_TEXTURE_LAYERS),
    max_draw_buffers: gl.getParameter(gl.MAX_DRAW_BUFFERS),
    gpu_shader_fp64: false,
    gpu_shader5: false,
    timer_query: ext.indexOf('EXT_disjoint_timer_query_webgl2') >= 0,
    extensions_of_interest: ext.filter(function (e) { return /color_buffer_float|timer_query|parallel_shader/.test(e); }),
  };
}

function render(report) {
  const out = el('tables');
  out.textContent = '';
  report.tables.forEach(function (t) {
    const h = document.createElement('h2');
    h.textContent = t.title;
    out.appendChild(h);
    t.sources.concat(t.notes).forEach(function (s) {
      const p = document.createElement('p');
      p.className = 'note';
      p.textContent = s;
      out.appendChild(p);
    });
    const tab = document.createElement('table');
    const head = tab.insertRow();
    t.columns.forEach(function (c) { const th = document.createElement('th'); th.textContent = c; head.appendChild(th); });
    t.rows.forEach(function (row) {
      const tr = tab.insertRow();
      row.forEach(function (c) {
        tr.insertCell().textContent = typeof c === 'number' ? (Math.abs(c) < 1e-3 && c !== 0 ? c.toExponential(3) : String(round(c, 4))) : c;
      });
    });
    out.appendChild(tab);
  });
}

function status(text) {
  el('status').textContent = text;
  console.log('df64gl repro: ' + text);
}

function download(report) {
  const blob = new Blob([JSON.stringify(report, null, 2)], { type: 'application/json' });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = 'report.json';
  a.click();
}

// Steps with a pause between them, so the page paints its progress.
function pause() { return new Promise(function (resolve) { setTimeout(resolve, 0); }); }

// The WebGL 2 context, its check and its engine.
async function openWebGl2() {
  const canvas = document.createElement('canvas');
  const gl = canvas.getContext('webgl2', { antialias: false, depth: false, stencil: false });
  if (!gl) throw new Error('this browser gives no WebGL 2 context');
  if (!gl.getExtension('EXT_color_buffer_float')) throw new Error('this WebGL 2 context cannot render to float textures (EXT_color_buffer_float)');
  if (params.get('simulate') === 'unprotected') {
    const source = gl.shaderSource.bind(gl);
    gl.shaderSource = function (shader, text) {
      source(shader, text.replace('#define DF64_BARRIER 1', '#define DF64_BARRIER 0'));
    };
  }
  const driver = driverOf(gl);
  return {
    driver: driver, dev: shortDevice(driver.renderer, 'WebGL 2'), gpu: new Gpu(gl),
    what: 'checkAsync(gl) of the npm module ' + VERSION + (USED ? ', the routines the tables call, in the fragment stage' : ', every routine in the vertex and fragment stages'),
    check: function () { return checkAsync(gl, USED ? { cache: false, routines: USED, stages: ['fragment'] } : { cache: false }); },
  };
}

// The WebGPU device, its check and its engine.
async function openWebGpu() {
  if (!navigator.gpu) throw new Error('this browser has no WebGPU (navigator.gpu)');
  const adapter = await navigator.gpu.requestAdapter();
  if (!adapter) throw new Error('WebGPU gave no adapter here');
  const device = await adapter.requestDevice();
  const info = adapter.info || {};
  const renderer = [info.vendor, info.architecture, info.description].filter(Boolean).join(' ') || 'unknown adapter';
  const l = device.limits;
  const driver = {
    device: 'WebGPU in ' + navigator.userAgent,
    vendor: info.vendor || '',
    renderer: renderer,
    version: 'WebGPU',
    glsl_version: 'WGSL',
    major: 0,
    minor: 0,
    glsl_number: 0,
    max_texture_size: l.maxTextureDimension2D,
    max_color_attachments: l.maxColorAttachments,
    max_array_texture_layers: l.maxTextureArrayLayers,
    max_draw_buffers: l.maxColorAttachments,
    gpu_shader_fp64: false,
    gpu_shader5: false,
    timer_query: adapter.features.has('timestamp-query'),
    extensions_of_interest: Array.from(adapter.features).sort(),
  };
  return {
    driver: driver, dev: shortDevice(renderer, 'WebGPU'), gpu: new GpuWebGPU(device),
    what: 'checkWebGPU(device) of the npm module ' + VERSION + (USED ? ', the routines the tables call, in the compute stage' : ', every routine in the compute and vertex stages'),
    check: function () { return checkWebGPU(device, USED ? { routines: USED, stages: ['compute'] } : {}); },
  };
}

async function run() {
  const t0 = performance.now();
  const leg = API === 'webgpu' ? await openWebGpu() : await openWebGl2();
  const driver = leg.driver;
  const dev = leg.dev;
  const gpu = leg.gpu;
  const n = QUICK ? 4096 : 65536;
  const tables = [];
  status('checking df64 on ' + dev + ' ...');
  await pause();
  const verdict = await leg.check();
  const checkTable = table('check', "df64gl's check of the export here (the proof the tables below rest on)",
    ['measured: ' + leg.what], [verdict.reason], ['routine', 'worst, in its unit [' + dev + ']', 'bound', 'within [' + dev + ']']);
  verdict.routines.forEach(function (r) {
    checkTable.rows.push([r.name, Number.isFinite(r.worst) ? r.worst : String(r.worst), r.bound, r.pass ? 'yes' : 'NO']);
  });
  tables.push(checkTable);
  if (!verdict.pass) throw Object.assign(new Error('df64 is not exact on this context: ' + verdict.reason), { tables: tables, driver: driver, dev: dev });
  status('Table I (the f32 probe) ...');
  await pause();
  tables.push(await tableOne(gpu, dev, n));
  status('costs ...');
  await pause();
  const target = QUICK ? 8 : 40;
  const side = QUICK ? 64 : 256;
  const base = await gpu.chain('', CHAINS.f32.init, CHAINS.f32.step, side, target);
  const costs = {};
  for (const name of Object.keys(CHAINS)) {
    if (name === 'f32') continue;
    const c = CHAINS[name];
    costs[name] = base > 0 ? await gpu.chain(gpu.df64, c.init, c.step, side, target) / base : '-';
    await pause();
  }
  status('Table II ...');
  await pause();
  const two = await tableTwo(gpu, dev, n, gpu.df64, costs);
  tables.push(two.arith, two.functions);
  tables.push(await dagraca(gpu, dev, n, gpu.df64, two.stats));
  status('the FFT ...');
  await pause();
  (await fftTables(gpu, dev)).forEach(function (t) { tables.push(t); });
  return {
    device: dev,
    driver: driver,
    quick: QUICK,
    seed: SEED,
    seconds: (performance.now() - t0) / 1000,
    tables: tables,
    plots: [],
  };
}

async function post(report) {
  if (!REPORT_URL) return;
  try {
    await fetch(REPORT_URL, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(report) });
  } catch (e) {
    status(el('status').textContent + ' (the report could not be sent to ' + REPORT_URL + ': ' + e.message + ')');
  }
}

run().then(function (report) {
  window.df64glReport = report;
  el('result').textContent = JSON.stringify({ pass: true, seconds: report.seconds });
  render(report);
  el('download').disabled = false;
  el('download').onclick = function () { download(report); };
  status('done in ' + report.seconds.toFixed(1) + ' s on ' + report.device);
  return post(report);
}, function (e) {
  const report = { device: e.dev || 'unknown', driver: e.driver || null, quick: QUICK, seed: SEED, seconds: 0,
    tables: e.tables || [], plots: [], error: String(e && e.message || e) };
  window.df64glReport = report;
  el('result').textContent = JSON.stringify({ pass: false, error: report.error });
  render(report);
  status('stopped: ' + report.error);
  return post(report);
}).finally(function () {
  window.dispatchEvent(new Event('df64gl-ready'));
});
