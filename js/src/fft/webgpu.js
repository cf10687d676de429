// webgpu.js: the FFT on a WebGPU device (createFftWebGPU), in f32, df64 and qf128, for any
// length, real input and 2-D images (batches of rows): Thall's transposed Stockham stage (his
// Algorithm 10, natural order in and out, W_long twiddles) in radix 4 (one invocation a
// butterfly; a radix-2 stage last for odd log2 N) or radix 2 throughout (one invocation an
// output, as his fragment programs), one compute pipeline per radix and precision, run once per
// stage with the stage's L, ping-pong between two storage buffers.
// Beside it, from the same module: a pointwise product (Bluestein's chirp-z for lengths other
// than 2^k, with bluestein.js's factors, and `multiply`), the real-input passes (with
// real.js's packing) and a transpose (the columns of a 2-D plan). The arithmetic is the
// WGSL export (DF64_WGSL / DF64_QF128_WGSL: the same GLSL as the WebGL passes, translated by
// naga, every float step behind the export's barrier), so `checkWebGPU` proves it on the device
// first; then each pipeline runs a known-answer self-test (the stage against the exact DFT in
// BigInt, the product against exact products, the real passes both ways, the transpose word for
// word) before its first use. The host side (input checks, block scaling, words out, the
// self-tests' signals and bounds) is host.js's. WebGPU reads back asynchronously: every method
// that returns data returns a Promise.

import { DF64_WGSL, DF64_QF128_WGSL } from '../generated/wgsl.js';
import { FFT_GLSL } from '../generated/fft-glsl.js';
import { checkWebGPU } from '../check/webgpu.js';
import { CHECKED, PRECISIONS, blockExponent, blockScaledParts, checkInput, directionOf, exactDftError, fail, fixedWords, imageShape, realSelftest, relativeError, scalerOf, selftestSignal, toDoubles, toWords } from './host.js';
import { wordsFromFixed, baseDouble, baseFixed, wLong, splitDouble, fixedFromDouble, FIXED_BITS } from './words.js';
import { BluesteinBase, chirpDouble, chirpFixed, fftDouble } from './bluestein.js';
import { RealBase } from './real.js';
import { RENDER_WGSL, WebGpuRenderFft } from './webgpu-render.js';
import { optionsOf } from '../options.js';
import { deviceLost, lostMessage } from '../webgpu-device.js';

/** @import { FftInput } from './webgl.js' */

/**
 * Options of `createFftWebGPU`.
 * @typedef {Object} FftWebGPUOptions
 * @property {number} length Points of each transform: 2^k from 2 to 2^22, or any other length from 1 to 2^21 (through Bluestein on 2^k >= 2n - 1 points).
 * @property {'f32' | 'df64' | 'qf128'} [precision] 'df64' (default), 'qf128' or 'f32'.
 * @property {number} [batch] Rows transformed at once (1 to 65535, default 1).
 * @property {boolean} [real] Real input: `length` reals a row (a power of two, at least 4) to length/2 + 1 bins a row, and back (default false).
 * @property {[number, number]} [shape] A 2-D plan of one row-major image: [rows, columns], each a power of two from 2 to 32768 (then no batch, real or other length).
 * @property {2 | 4} [radix] The stages' radix: 4 (default: radix-4 stages, one radix-2 stage last for odd log2 N) or 2 (Thall's radix-2 stage throughout).
 * @property {'compute' | 'render'} [form] 'compute' (default: compute pipelines over storage buffers) or 'render' (Thall's radix-2 stage as a fragment program on rgba32float textures, checked in the fragment stage; 2^k complex plans only, no multiply).
 * @property {boolean} [cache] Accepted as `createFft` takes it; a WebGPU check's verdict is kept per device, for the device's life, whatever this says.
 * @property {{ getItem(key: string): string | null; setItem(key: string, value: string): void } | null} [storage] Accepted as `createFft` takes it (see `cache`).
 */

/**
 * A planned FFT on a WebGPU device (see `createFftWebGPU`): the methods of WebGLFft, each that returns data as a Promise (WebGPU reads back asynchronously). Every failure is an Error that says why, never a wrong spectrum. Calls may overlap: each does its GPU work when called and resolves with its own answer, as if it had finished before the next call began.
 * @typedef {Object} WebGPUFft
 * @property {object} device
 * @property {number} length
 * @property {[number, number]} [shape] A 2-D plan's [rows, columns] (options.shape).
 * @property {number} batch
 * @property {'f32' | 'df64' | 'qf128'} precision
 * @property {2 | 4} radix The stages' radix (options.radix; 2 for the render form).
 * @property {'render'} [form] 'render' for a render-form plan; absent for the compute form.
 * @property {(x: FftInput) => Promise<Float64Array>} forward
 * @property {(y: FftInput) => Promise<Float64Array>} inverse
 * @property {(x: FftInput) => Promise<Float32Array>} forwardWords
 * @property {(y: FftInput) => Promise<Float32Array>} inverseWords
 * @property {(x: FftInput) => void} upload
 * @property {(direction: 'forward' | 'inverse') => void} execute
 * @property {() => Promise<Float64Array>} download
 * @property {() => Promise<Float32Array>} downloadWords
 * @property {(other: WebGPUFft) => void} multiply The data on the device times `other`'s (same length, batch, precision and device; both uploaded), point by point: a convolution's frequency-domain step. 2^k plans only (a Bluestein plan throws a TypeError).
 * @property {() => void} dispose
 */

// Words per complex point.
const PER = { f32: 2, df64: 4, qf128: 8 };
// The largest transform: 2^24 points (a dispatch of 2^18 workgroups of 64 needs two dimensions
// past 65,535; rows take the second).
const MAX_LOG2 = 22;
const WORKGROUP = 64;
// Uniform slots for the stages' parameters: one per stage and direction, 256 bytes apart
// (minUniformBufferOffsetAlignment is at most 256).
const SLOT = 256;

// Each precision's complex type and operations, in WGSL, after the export (f32: plain, but each
// product behind a barrier of its own, so no compiler fuses it into the sum, as the WebGL
// passes do).
const KERNELS = {
  f32: {
    library: '', type: 'vec2<f32>',
    code: `
@group(0) @binding(0) var<storage> fft_zero: array<u32, 4>;
fn fb(x: f32) -> f32 { return bitcast<f32>(bitcast<u32>(x) ^ fft_zero[0]); }
fn c_load_in(i: u32) -> vec2<f32> { return vec2<f32>(fft_in[2u * i], fft_in[2u * i + 1u]); }
fn c_load_tw(i: u32) -> vec2<f32> { return vec2<f32>(fft_tw[2u * i], fft_tw[2u * i + 1u]); }
fn c_store(i: u32, v: vec2<f32>) { fft_out[2u * i] = v.x; fft_out[2u * i + 1u] = v.y; }
fn c_add(a: vec2<f32>, b: vec2<f32>) -> vec2<f32> { return vec2<f32>(fb(a.x + b.x), fb(a.y + b.y)); }
fn c_sub(a: vec2<f32>, b: vec2<f32>) -> vec2<f32> { return vec2<f32>(fb(a.x - b.x), fb(a.y - b.y)); }
fn c_mul(a: vec2<f32>, b: vec2<f32>) -> vec2<f32> {
  return vec2<f32>(fb(fb(a.x * b.x) - fb(a.y * b.y)), fb(fb(a.x * b.y) + fb(a.y * b.x)));
}
fn c_conj_if(a: vec2<f32>, conj: f32) -> vec2<f32> { return select(a, vec2<f32>(a.x, -a.y), conj < 0.0); }
fn c_scale(a: vec2<f32>, s: f32) -> vec2<f32> { return a * s; }
fn c_bin0(a: vec2<f32>) -> vec2<f32> { return vec2<f32>(fb(a.x + a.y), fb(a.x - a.y)); }
fn c_mul_neg_i(a: vec2<f32>, conj: f32) -> vec2<f32> { return vec2<f32>(a.y * conj, -a.x * conj); }
fn c_neg(a: vec2<f32>) -> vec2<f32> { return -a; }
fn c_mul_real(a: vec2<f32>, c: vec4<f32>) -> vec2<f32> { return vec2<f32>(fb(a.x * c.x), fb(a.y * c.x)); }
`,
  },
  df64: {
    library: 'df64', type: 'vec4<f32>',
    code: `
fn c_load_in(i: u32) -> vec4<f32> { return vec4<f32>(fft_in[4u * i], fft_in[4u * i + 1u], fft_in[4u * i + 2u], fft_in[4u * i + 3u]); }
fn c_load_tw(i: u32) -> vec4<f32> { return vec4<f32>(fft_tw[4u * i], fft_tw[4u * i + 1u], fft_tw[4u * i + 2u], fft_tw[4u * i + 3u]); }
fn c_store(i: u32, v: vec4<f32>) { fft_out[4u * i] = v.x; fft_out[4u * i + 1u] = v.y; fft_out[4u * i + 2u] = v.z; fft_out[4u * i + 3u] = v.w; }
// The *_unscaled ops, as the WebGL passes: block scaling keeps data and twiddles near 1.
fn c_add(a: vec4<f32>, b: vec4<f32>) -> vec4<f32> { return vec4<f32>(df64_add_unscaled(a.xy, b.xy), df64_add_unscaled(a.zw, b.zw)); }
fn c_sub(a: vec4<f32>, b: vec4<f32>) -> vec4<f32> { return vec4<f32>(df64_sub_unscaled(a.xy, b.xy), df64_sub_unscaled(a.zw, b.zw)); }
fn c_mul(a: vec4<f32>, b: vec4<f32>) -> vec4<f32> {
  return vec4<f32>(df64_sub_unscaled(df64_mul_unscaled(a.xy, b.xy), df64_mul_unscaled(a.zw, b.zw)),
    df64_add_unscaled(df64_mul_unscaled(a.xy, b.zw), df64_mul_unscaled(a.zw, b.xy)));
}
fn c_conj_if(a: vec4<f32>, conj: f32) -> vec4<f32> { return select(a, vec4<f32>(a.xy, -a.zw), conj < 0.0); }
// Times a power of two: each word exactly.
fn c_scale(a: vec4<f32>, s: f32) -> vec4<f32> { return a * s; }
fn c_bin0(a: vec4<f32>) -> vec4<f32> { return vec4<f32>(df64_add_unscaled(a.xy, a.zw), df64_sub_unscaled(a.xy, a.zw)); }
fn c_mul_neg_i(a: vec4<f32>, conj: f32) -> vec4<f32> { return vec4<f32>(a.zw * conj, -a.xy * conj); }
fn c_neg(a: vec4<f32>) -> vec4<f32> { return -a; }
fn c_mul_real(a: vec4<f32>, c: vec4<f32>) -> vec4<f32> { return vec4<f32>(df64_mul_unscaled(a.xy, c.xy), df64_mul_unscaled(a.zw, c.xy)); }
`,
  },
  qf128: {
    library: 'qf128', type: 'FftQ',
    code: `
struct FftQ { re: vec4<f32>, im: vec4<f32> }
fn q_at(i: u32) -> vec4<f32> { return vec4<f32>(fft_in[i], fft_in[i + 1u], fft_in[i + 2u], fft_in[i + 3u]); }
fn c_load_in(i: u32) -> FftQ { return FftQ(q_at(8u * i), q_at(8u * i + 4u)); }
fn c_load_tw(i: u32) -> FftQ {
  let j = 8u * i;
  return FftQ(vec4<f32>(fft_tw[j], fft_tw[j + 1u], fft_tw[j + 2u], fft_tw[j + 3u]),
    vec4<f32>(fft_tw[j + 4u], fft_tw[j + 5u], fft_tw[j + 6u], fft_tw[j + 7u]));
}
fn c_store(i: u32, v: FftQ) {
  let j = 8u * i;
  fft_out[j] = v.re.x; fft_out[j + 1u] = v.re.y; fft_out[j + 2u] = v.re.z; fft_out[j + 3u] = v.re.w;
  fft_out[j + 4u] = v.im.x; fft_out[j + 5u] = v.im.y; fft_out[j + 6u] = v.im.z; fft_out[j + 7u] = v.im.w;
}
fn c_add(a: FftQ, b: FftQ) -> FftQ { return FftQ(qf128_add(a.re, b.re), qf128_add(a.im, b.im)); }
fn c_sub(a: FftQ, b: FftQ) -> FftQ { return FftQ(qf128_sub(a.re, b.re), qf128_sub(a.im, b.im)); }
fn c_mul(a: FftQ, b: FftQ) -> FftQ {
  return FftQ(qf128_sub(qf128_mul(a.re, b.re), qf128_mul(a.im, b.im)),
    qf128_add(qf128_mul(a.re, b.im), qf128_mul(a.im, b.re)));
}
fn c_conj_if(a: FftQ, conj: f32) -> FftQ { if (conj < 0.0) { return FftQ(a.re, -a.im); } return a; }
fn c_scale(a: FftQ, s: f32) -> FftQ { return FftQ(a.re * s, a.im * s); }
fn c_bin0(a: FftQ) -> FftQ { return FftQ(qf128_add(a.re, a.im), qf128_sub(a.re, a.im)); }
fn c_mul_neg_i(a: FftQ, conj: f32) -> FftQ { return FftQ(a.im * conj, -a.re * conj); }
fn c_neg(a: FftQ) -> FftQ { return FftQ(-a.re, -a.im); }
fn c_mul_real(a: FftQ, c: vec4<f32>) -> FftQ { return FftQ(qf128_mul(a.re, c), qf128_mul(a.im, c)); }
`,
  },
};

// The radix-4 stage's loads and twiddle products: f32 and df64 straight-line; qf128 as a loop
// whose bound the compiler cannot see (l < 2^31, so it is 4), as stockham_radix4.glsl does,
// since three qf128 complex products inline make a slow compile.
const RADIX4_LOADS = {
  plain: `
  let a0 = c_load_in(row + p);
  var a1 = c_load_in(row + p + quarter);
  var a2 = c_load_in(row + p + 2u * quarter);
  var a3 = c_load_in(row + p + 3u * quarter);
  if (l > 4u) {
    a1 = c_mul(tw_power(l, j), a1);
    a2 = c_mul(tw_power(l, 2u * j), a2);
    a3 = c_mul(tw_power(l, 3u * j), a3);
  }`,
  looped: `
  var a: array<FftQ, 4>;
  let radix = 4u + (l >> 31u);
  for (var m = 0u; m < radix; m++) {
    var v = c_load_in(row + p + m * quarter);
    if (m > 0u && l > 4u) { v = c_mul(tw_power(l, m * j), v); }
    a[m & 3u] = v;
  }
  let a0 = a[0];
  let a1 = a[1];
  let a2 = a[2];
  let a3 = a[3];`,
};

// A qf128 constant of stockham_radix3.glsl (sqrt(3)/2, 1/3) as a WGSL vec4, from its #define
// (one source for both passes).
function radix3Constant(name) {
  const at = FFT_GLSL.radix3.indexOf('#define ' + name + ' ');
  const words = at < 0 ? null : FFT_GLSL.radix3.slice(at).split('\n').slice(0, 2).join('\n').match(/0x[0-9a-f]{8}u/g);
  if (!words || words.length !== 4) throw fail('internal: stockham_radix3.glsl defines no ' + name);
  return 'vec4<f32>(' + words.map(function (w) { return 'bitcast<f32>(' + w + ')'; }).join(', ') + ')';
}

// Output e of the row starting at point `row` of Thall's radix-2 stage (his Algorithm 10), as
// the WGSL function `name` whose inputs `load` reads: the compute stage's (storage buffers) and
// the render form's (textures) alike.
function radix2Output(name, load, type) {
  return `fn ${name}(row: u32, e: u32) -> ${type} {
  let half_l = fft_p.l >> 1u;
  let k = e / fft_p.l;
  var j = e - k * fft_p.l;
  let second = j >= half_l;
  if (second) { j = j - half_l; }
  let x = ${load}(row + k * half_l + j);
  let y = ${load}(row + k * half_l + j + (fft_p.n >> 1u));
  let tau = c_mul(c_conj_if(c_load_tw(half_l + j - 1u), fft_p.conj), y);
  // scale: 1, or the inverse's 1/N (a power of two) in its last stage, so that the words leave
  // at the data's own scale (as the WebGL passes' results do).
  if (second) { return c_scale(c_sub(x, tau), fft_p.scale); }
  return c_scale(c_add(x, tau), fft_p.scale);
}`;
}

// The stages: Thall's Algorithm 10 (radix 2, one invocation an output) and its radix-4 form
// (one invocation a butterfly, as glsl/stockham_radix4.glsl, natural order out); one pipeline
// each, run once per stage with the stage's L.
function stageSource(precision) {
  const k = KERNELS[precision];
  const library = k.library === 'df64' ? DF64_WGSL : k.library === 'qf128' ? DF64_QF128_WGSL : '';
  return library + `
// ---- df64gl FFT stage (webgpu.js)
// wlog2: the render form's texture width (log2); the compute stages leave it 0.
struct FftParams { n: u32, l: u32, conj: f32, scale: f32, wlog2: u32, pad0: u32, pad1: u32, pad2: u32 }
@group(1) @binding(0) var<storage, read> fft_in: array<f32>;
@group(1) @binding(1) var<storage, read_write> fft_out: array<f32>;
@group(1) @binding(2) var<storage, read> fft_tw: array<f32>;
@group(1) @binding(3) var<uniform> fft_p: FftParams;
` + k.code + `
// The element (or butterfly) an invocation takes: the dispatch's first dimension, and past
// 2^21 its third (a dimension holds at most 65,535 workgroups of 64).
fn fft_index(id: vec3<u32>) -> u32 { return id.x + (id.z << 21u); }

// w_L^i for i < L, conjugated for the inverse: W_long holds w_L^i for i < L/2 at L/2 + i - 1,
// and w_L^(L/2 + i) = -w_L^i (exact).
fn tw_power(l: u32, i: u32) -> ${k.type} {
  let h = l >> 1u;
  if (i < h) { return c_conj_if(c_load_tw(h + i - 1u), fft_p.conj); }
  return c_neg(c_conj_if(c_load_tw(i - 1u), fft_p.conj));
}

// Thall's Algorithm 10 for one stage of length L: out[k L + j] = x + w y and
// out[k L + j + L/2] = x - w y, x = in[k L/2 + j], y = in[k L/2 + j + N/2], w = w_L^j (W_long
// index L/2 + j - 1); one invocation per output, one row per id.y.
@compute @workgroup_size(${WORKGROUP})
fn df64gl_fft_radix2(@builtin(global_invocation_id) id: vec3<u32>) {
  let e = fft_index(id);
  if (e >= fft_p.n) { return; }
  let row = id.y * fft_p.n;
  c_store(row + e, fft_radix2_output(row, e));
}
${radix2Output('fft_radix2_output', 'c_load_in', k.type)}
${radix2Output('fft_radix2_texel', 't_load', k.type)}

// Radix 4: invocation p = k Ls + j (Ls = L/4) reads a_m = in[m N/4 + p] times w_L^(m j) and
// writes out[k L + t Ls + j], t = 0..3: y0,2 = (a0 + a2) +- (a1 + a3), y1,3 = (a0 - a2) -+
// i (a1 - a3) (forward; the inverse swaps the sign of i).
@compute @workgroup_size(${WORKGROUP})
fn df64gl_fft_radix4(@builtin(global_invocation_id) id: vec3<u32>) {
  let n = fft_p.n;
  let quarter = n >> 2u;
  let p = fft_index(id);
  if (p >= quarter) { return; }
  let l = fft_p.l;
  let ls = l >> 2u;
  let k = p / ls;
  let j = p - k * ls;
  let row = id.y * n;` + (precision === 'qf128' ? RADIX4_LOADS.looped : RADIX4_LOADS.plain) + `
  let s02 = c_add(a0, a2);
  let d02 = c_sub(a0, a2);
  let s13 = c_add(a1, a3);
  let d13 = c_mul_neg_i(c_sub(a1, a3), fft_p.conj);
  let at = row + k * l + j;
  c_store(at, c_scale(c_add(s02, s13), fft_p.scale));
  c_store(at + ls, c_scale(c_add(d02, d13), fft_p.scale));
  c_store(at + 2u * ls, c_scale(c_sub(s02, s13), fft_p.scale));
  c_store(at + 3u * ls, c_scale(c_sub(d02, d13), fft_p.scale));
}

// Radix 3, the last stage of N = 3 * 2^k points (glsl/stockham_radix3.glsl; L = N, Ls = N/3):
// invocation p reads a_m = in[m N/3 + p] times w_N^(m p) and writes out[t N/3 + p], t = 0..2;
// w_3 = -1/2 - i sqrt(3)/2 (forward), so with s = a1 + a2: y0 = a0 + s, y1,2 = (a0 - s/2) -+
// i sqrt(3)/2 (a1 - a2) (the signs swap for the inverse, which takes its 1/3 here). Its
// twiddles w_N^i (i < N/2) follow the power-of-two stages' W_long (2^k - 1 entries) in the
// table, and w_N^(N/2 + i) = -w_N^i.
fn tw_odd(third: u32, i: u32) -> ${k.type} {
  let h = fft_p.n >> 1u;
  if (i < h) { return c_conj_if(c_load_tw(third - 1u + i), fft_p.conj); }
  return c_neg(c_conj_if(c_load_tw(third - 1u + i - h), fft_p.conj));
}

@compute @workgroup_size(${WORKGROUP})
fn df64gl_fft_radix3(@builtin(global_invocation_id) id: vec3<u32>) {
  let n = fft_p.n;
  let third = n / 3u;
  let p = fft_index(id);
  if (p >= third) { return; }
  let row = id.y * n;
  // The products and the stores as loops whose bound the compiler cannot see (n < 2^31, so it
  // is 3), as stockham_radix3.glsl does for qf128: one stage of the transform, and a compile
  // that stays short.
  let radix = 3u + (n >> 31u);
  var a: array<${k.type}, 3>;
  for (var m = 0u; m < radix; m++) {
    var v = c_load_in(row + p + m * third);
    if (m > 0u && n > 3u) { v = c_mul(tw_odd(third, m * p), v); }
    a[m % 3u] = v;
  }
  let s = c_add(a[1], a[2]);
  let d = c_mul_neg_i(c_mul_real(c_sub(a[1], a[2]), ${radix3Constant('FFT_SQRT3_2')}), fft_p.conj);
  let m = c_sub(a[0], c_scale(s, 0.5));
  let y = array<${k.type}, 3>(c_add(a[0], s), c_add(m, d), c_sub(m, d));
  for (var t = 0u; t < radix; t++) {
    var v = y[t % 3u];
    if (fft_p.conj < 0.0) { v = c_mul_real(v, ${radix3Constant('FFT_THIRD')}); }
    c_store(row + p + t * third, c_scale(v, fft_p.scale));
  }
}

// The real-input passes (glsl/stockham_real_post.glsl and _pre.glsl): n/2 packed values z_k =
// x_2k + i x_2k+1 transformed to the n/2 + 1 bins (bin 0 carries X_0 in re and X_(n/2) in im),
// and back; the twiddles w_n^k (k < n/2) bound where the stage has its table, fft_p.conj -1
// conjugating them for the inverse.
@compute @workgroup_size(${WORKGROUP})
fn df64gl_fft_real_post(@builtin(global_invocation_id) id: vec3<u32>) {
  let m = fft_p.n;
  let k = fft_index(id);
  if (k >= m) { return; }
  let row = id.y * m;
  let z = c_load_in(row + k);
  if (k == 0u) {
    c_store(row, c_bin0(z));
    return;
  }
  let b = c_conj_if(c_load_in(row + m - k), -1.0);
  let even = c_scale(c_add(z, b), 0.5);
  let odd = c_mul_neg_i(c_scale(c_sub(z, b), 0.5), 1.0);
  c_store(row + k, c_add(even, c_mul(c_conj_if(c_load_tw(k), fft_p.conj), odd)));
}

@compute @workgroup_size(${WORKGROUP})
fn df64gl_fft_real_pre(@builtin(global_invocation_id) id: vec3<u32>) {
  let m = fft_p.n;
  let k = fft_index(id);
  if (k >= m) { return; }
  let row = id.y * m;
  let z = c_load_in(row + k);
  if (k == 0u) {
    c_store(row, c_scale(c_bin0(z), 0.5));
    return;
  }
  let b = c_conj_if(c_load_in(row + m - k), -1.0);
  let even = c_scale(c_add(z, b), 0.5);
  let odd = c_mul(c_conj_if(c_load_tw(k), fft_p.conj), c_scale(c_sub(z, b), 0.5));
  c_store(row + k, c_add(even, c_mul_neg_i(odd, -1.0)));
}

// The data of a row-major fft_p.l x fft_p.n image transposed (out[c l + r] = in[r n + c]):
// a copy, for the columns' transforms of a 2-D plan.
@compute @workgroup_size(${WORKGROUP})
fn df64gl_fft_transpose(@builtin(global_invocation_id) id: vec3<u32>) {
  if (id.x >= fft_p.n) { return; }
  c_store(id.x * fft_p.l + id.y, c_load_in(id.y * fft_p.n + id.x));
}

// The data times an operand of the same layout (bound where the stage has its twiddles),
// point by point: Bluestein's chirps and filter, and multiply().
@compute @workgroup_size(${WORKGROUP})
fn df64gl_fft_pointwise(@builtin(global_invocation_id) id: vec3<u32>) {
  let e = fft_index(id);
  if (e >= fft_p.n) { return; }
  let i = id.y * fft_p.n + e;
  c_store(i, c_mul(c_load_in(i), c_load_tw(i)));
}
` + RENDER_WGSL(precision);
}

// _growth (log2) past which a non-finite word is the data's own overflow, not the device's
// fault: f32's range ends at 2^128.
const GROWTH_LIMIT = 120;

// Per device: the precisions' pipelines (built and self-tested once) and check verdicts.
const DEVICES = new WeakMap();
function deviceState(device) {
  let s = DEVICES.get(device);
  if (!s) {
    s = { pipelines: {}, checks: {}, zero: null };
    DEVICES.set(device, s);
  }
  return s;
}

// Runs `work` (synchronous) inside error scopes of its own: pushed and popped in one turn of the
// page, so that no other call on the device (a transform, a check, another plan) can push or
// pop between them and take its errors or give it theirs.
async function errorScoped(device, work) {
  device.pushErrorScope('out-of-memory');
  device.pushErrorScope('internal');
  device.pushErrorScope('validation');
  let value;
  let thrown = null;
  try {
    value = work();
  } catch (e) {
    thrown = e;
  }
  const popped = [device.popErrorScope(), device.popErrorScope(), device.popErrorScope()];
  const errors = (await Promise.all(popped)).filter(Boolean).map(function (e) { return e.message; });
  if (thrown) throw thrown;
  if (errors.length) throw fail('WebGPU refused the FFT\'s ' + (typeof value === 'object' && value && value.label ? value.label : 'work') + ': ' + errors.join('; '));
  return value;
}

// options.batch: rows at once, 1 to 65535 (a dispatch dimension's limit).
function batchOf(opts) {
  const batch = opts.batch === undefined ? 1 : opts.batch;
  if (!Number.isInteger(batch) || batch < 1 || batch > 65535) {
    throw new RangeError('df64gl FFT: batch must be an integer from 1 to 65535, not ' + String(batch));
  }
  return batch;
}

// checkWebGPU of the routines the FFT's complex arithmetic calls, once per precision and
// shader stage on a device (f32 has none to prove); throws where it fails.
async function checkedIn(device, precision, shaderStage) {
  const state = deviceState(device);
  const key = precision + ':' + shaderStage;
  if (precision === 'f32' || state.checks[key]) return;
  const verdict = await checkWebGPU(device, {
    routines: CHECKED[precision], qf128: precision === 'qf128', stages: [shaderStage],
  });
  if (!verdict.pass) {
    throw fail('the ' + precision + ' routines the FFT uses failed checkWebGPU on this device (' + shaderStage +
      ' stage), so its spectra would be wrong: ' + verdict.reason);
  }
  state.checks[key] = verdict;
}

// What createFftWebGPU's options may name, and the type each takes.
const FFT_WEBGPU_OPTIONS = {
  length: 'number', precision: 'string', batch: 'number', radix: 'number', real: 'boolean', shape: 'array',
  form: 'string', cache: 'boolean', storage: 'storage',
};

// A lost device (destroyed, or lost by its driver) runs nothing and reports no error: no plan
// is made on one (asked before, and again where the making fails, so that the Error says so).
async function refuseLost(device) {
  const info = await deviceLost(device);
  if (info) throw fail(lostMessage(info) + ': request a new device and create the plan on it');
}

// A render-form plan (webgpu-render.js): 2^k complex points, radix 2; checkWebGPU in the
// fragment stage and the render stage's self-test first.
async function createRenderFftWebGPU(device, opts, precision) {
  const n = opts.length;
  const log2 = powerOfTwoLog2(n);
  if (opts.shape !== undefined || opts.real || log2 < 1 || log2 > MAX_LOG2) {
    throw new RangeError("df64gl FFT: form 'render' runs complex plans of 2^k points (2 to 2^" + MAX_LOG2 +
      '), not ' + (opts.shape !== undefined ? 'a 2-D shape' : opts.real ? 'real input' : String(n) + ' points') +
      ': use the compute form (the default) for that');
  }
  if (opts.radix !== undefined && opts.radix !== 2) {
    throw new RangeError("df64gl FFT: form 'render' is Thall's radix-2 stage: leave options.radix out (or 2), or use the compute form");
  }
  const batch = batchOf(opts);
  await checkedIn(device, precision, 'fragment');
  const stage = await stageOf(device, precision);
  if (!stage.proven.render2) {
    const small = await errorScoped(device, function () { return new WebGpuRenderFft(device, stage, 16, 1, precision); });
    try {
      await small._selftest();
    } finally {
      small.dispose();
    }
    stage.proven.render2 = true;
  }
  return errorScoped(device, function () { return new WebGpuRenderFft(device, stage, n, batch, precision); });
}

// A precision's FFT module on a device (built once): its layouts; each entry point's pipeline is
// built at its first use (pipelineFor) and self-tested before a plan runs it (prove).
async function stageOf(device, precision) {
  const state = deviceState(device);
  if (state.pipelines[precision]) return state.pipelines[precision];
  const built = await errorScoped(device, function () {
    const module = device.createShaderModule({ label: 'df64gl ' + precision + ' FFT stage', code: stageSource(precision) });
    const zeroLayout = device.createBindGroupLayout({
      entries: [{ binding: 0, visibility: GPUShaderStage.COMPUTE | GPUShaderStage.FRAGMENT, buffer: { type: 'read-only-storage' } }],
    });
    const ioLayout = device.createBindGroupLayout({
      entries: [
        { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'read-only-storage' } },
        { binding: 1, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'storage' } },
        { binding: 2, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'read-only-storage' } },
        { binding: 3, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'uniform', hasDynamicOffset: true } },
      ],
    });
    const layout = device.createPipelineLayout({ bindGroupLayouts: [zeroLayout, ioLayout] });
    if (!state.zero) {
      state.zero = device.createBuffer({ size: 16, usage: GPUBufferUsage.STORAGE, mappedAtCreation: true });
      new Uint32Array(state.zero.getMappedRange()).fill(0);
      state.zero.unmap();
    }
    const zeroGroup = device.createBindGroup({ layout: zeroLayout, entries: [{ binding: 0, resource: { buffer: state.zero } }] });
    return {
      precision: precision, module: module, layout: layout, ioLayout: ioLayout, zeroLayout: zeroLayout, zeroGroup: zeroGroup,
      render: null,
      label: precision + ' FFT module',
      // Entry point (radix2, radix3, radix4, pointwise, real_post, real_pre, transpose): its
      // pipeline, and whether its self-test has passed on this device.
      pipelines: {}, proven: {},
    };
  });
  state.pipelines[precision] = built;
  return built;
}

// The pipeline of entry point df64gl_fft_<name> (built at its first use).
async function pipelineFor(device, stage, name) {
  if (!stage.pipelines[name]) {
    stage.pipelines[name] = await errorScoped(device, function () {
      return device.createComputePipeline({
        label: 'df64gl ' + stage.precision + ' FFT ' + name, layout: stage.layout,
        compute: { module: stage.module, entryPoint: 'df64gl_fft_' + name },
      });
    });
  }
  return stage.pipelines[name];
}

// Builds the stage pipelines an n-point plan of `radix` runs, and self-tests those not yet
// proven on this device: the plan of the fewest points that runs the same stage kinds
// (at least 16 where one exists: a twiddled stage), both ways against the exact DFT.
async function proveStages(device, stage, n, radix) {
  const odd = oddFactor(n);
  const log2 = Math.round(Math.log2(n / odd));
  const kinds = stageRadices(log2, radix).concat(odd === 3 ? [3] : []);
  const names = kinds.map(function (r) { return 'radix' + r; });
  if (names.every(function (k) { return stage.proven[k]; })) return;
  for (const name of names) await pipelineFor(device, stage, name);
  const small = log2 < 2 ? log2 : radix === 4 && log2 % 2 === 1 ? 5 : 4;
  const plan = new WebGpuFft(device, stage, odd << small, 1, stage.precision, radix);
  try {
    await plan._selftest();
  } finally {
    plan.dispose();
  }
  for (const name of names) stage.proven[name] = true;
}

// Builds the pointwise product and self-tests it once (Bluestein and multiply run it).
async function provePointwise(device, stage) {
  await pipelineFor(device, stage, 'pointwise');
  if (stage.proven.pointwise) return;
  const small = new WebGpuFft(device, stage, 16, 1, stage.precision, 4);
  try {
    await small._selftestPointwise();
  } finally {
    small.dispose();
  }
  stage.proven.pointwise = true;
}

// `count` invocations a row over `rows` rows: workgroups along x, past 2^21 invocations also
// along z (fft_index in the shader).
function dispatch(pass, count, rows) {
  const groups = Math.ceil(count / WORKGROUP);
  const across = Math.min(groups, (1 << 21) / WORKGROUP);
  pass.dispatchWorkgroups(across, rows, Math.ceil(groups / across));
}

// The stages' radices for 2^log2 points: radix 4, and one radix-2 stage last for odd log2
// (or radix 2 throughout).
function stageRadices(log2, radix) {
  const stages = [];
  if (radix === 4) {
    for (let s = 0; s + 2 <= log2; s += 2) stages.push(4);
    if (log2 % 2) stages.push(2);
  } else {
    for (let s = 0; s < log2; s++) stages.push(2);
  }
  return stages;
}

function powerOfTwoLog2(n) {
  if (!Number.isInteger(n) || n < 2 || (n & (n - 1)) !== 0) return -1;
  return Math.round(Math.log2(n));
}

// 3 for N = 3 * 2^k (k >= 0: mixed radix, the radix-3 stage last), else 1.
function oddFactor(n) {
  return n % 3 === 0 && (n === 3 || powerOfTwoLog2(n / 3) >= 1) ? 3 : 1;
}


/**
 * A planned FFT of `options.length` points on a WebGPU device (2^k from 2 to 2^22, 3 * 2^k up
 * to 3 * 2^20 as mixed radix; any other length from 1 to 2^21 through Bluestein on the 2^k plan
 * of at least 2n - 1 points), in `options.precision` ('f32', 'df64' (default) or 'qf128'),
 * `options.batch` rows at once, `options.radix` 4 (default) or 2; `options.real`: n reals a row
 * (a power of two, at least 4) to n/2 + 1 bins and back. Resolves once `checkWebGPU` has passed
 * for the routines the stages use and the known-answer self-test of each pipeline the plan runs
 * (its stage kinds, the pointwise product, the real-input passes) has passed on this device;
 * rejects with an Error that says why otherwise, and for bad options.
 * @param {object} device
 * @param {FftWebGPUOptions} options
 * @returns {Promise<WebGPUFft>}
 */
export async function createFftWebGPU(device, options) {
  if (!device || typeof device.createComputePipeline !== 'function') {
    throw new TypeError('df64gl FFT: createFftWebGPU needs a GPUDevice (from adapter.requestDevice())');
  }
  const opts = optionsOf(options, FFT_WEBGPU_OPTIONS, 'createFftWebGPU');
  await refuseLost(device);
  try {
    return await planOn(device, opts);
  } catch (e) {
    if (e instanceof TypeError || e instanceof RangeError) throw e;
    await refuseLost(device);
    throw e;
  }
}

// createFftWebGPU's plan, its options checked and the device not lost.
async function planOn(device, opts) {
  const precision = opts.precision === undefined ? 'df64' : opts.precision;
  if (!PER[precision]) {
    throw new TypeError("df64gl FFT: precision must be 'f32', 'df64' or 'qf128', not " + String(precision));
  }
  const form = opts.form === undefined ? 'compute' : opts.form;
  if (form !== 'compute' && form !== 'render') {
    throw new RangeError("df64gl FFT: options.form must be 'compute' (default) or 'render', not " + String(form));
  }
  if (form === 'render') return createRenderFftWebGPU(device, opts, precision);
  if (opts.shape !== undefined) return createImageFftWebGPU(device, opts, precision);
  const n = opts.length;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > (1 << MAX_LOG2)) {
    throw new RangeError('df64gl FFT: createFftWebGPU takes a whole number of points, 1 to 2^' + MAX_LOG2 +
      ' (2^k) or 2^' + (MAX_LOG2 - 1) + ' (other lengths, through Bluestein), not ' + String(n));
  }
  const real = Boolean(opts.real);
  if (real && (n < 4 || powerOfTwoLog2(n) < 2)) {
    throw new RangeError('df64gl FFT: a real-input plan takes a power of two of at least 4 reals (got ' + n +
      '): zero-pad to ' + Math.max(4, 1 << Math.ceil(Math.log2(n))) + ', or transform as complex');
  }
  // Real input: n/2 packed values; 3 * 2^k: mixed radix; Bluestein: a circular convolution of
  // m >= 2n - 1 points.
  let m = real ? n / 2 : n;
  const odd = real ? 1 : oddFactor(n);
  if (!real && odd === 1 && powerOfTwoLog2(n) < 1) {
    m = 2;
    while (m < 2 * n - 1) m *= 2;
    if (m > (1 << MAX_LOG2)) {
      throw new RangeError('df64gl FFT: ' + n + ' points run through Bluestein on ' + m + ', past the largest plan (2^' +
        MAX_LOG2 + '): take at most 2^' + (MAX_LOG2 - 1) + ' points, or a power of two up to 2^' + MAX_LOG2);
    }
  }
  const batch = batchOf(opts);
  const radix = opts.radix === undefined ? 4 : opts.radix;
  if (radix !== 2 && radix !== 4) {
    throw new RangeError('df64gl FFT: options.radix must be 4 (default) or 2 on WebGPU, not ' + String(radix));
  }
  const bytes = 4 * PER[precision] * m * batch;
  if (bytes > device.limits.maxStorageBufferBindingSize) {
    throw new RangeError('df64gl FFT: ' + m + ' x ' + batch + ' ' + precision + ' points need ' + bytes +
      ' bytes a buffer; this device binds at most ' + device.limits.maxStorageBufferBindingSize +
      (real ? ' (' + n + ' reals as ' + m + ' packed points)' : m !== n ? ' (' + n + ' points run through Bluestein on ' + m + ')' : ''));
  }
  await checkedIn(device, precision, 'compute');
  const stage = await stageOf(device, precision);
  if (real) {
    if (!stage.proven.real) {
      await proveStages(device, stage, 8, radix);
      await pipelineFor(device, stage, 'real_post');
      await pipelineFor(device, stage, 'real_pre');
      const small = new WebGpuRealFft(new WebGpuFft(device, stage, 8, 1, precision, radix), 16);
      try {
        const t = realSelftest(16, precision, PER[precision] / 2);
        const bins = fixedWords(await small._run(t.x, 'forward'));
        t.judge(bins, fixedWords(await small._run(t.y, 'inverse')), 'device');
      } finally {
        small.dispose();
      }
      stage.proven.real = true;
    }
    await proveStages(device, stage, m, radix);
    return new WebGpuRealFft(new WebGpuFft(device, stage, m, batch, precision, radix), n);
  }
  await proveStages(device, stage, m, radix);
  // Every complex plan can multiply (a 2^k or 3 * 2^k plan by another) or runs Bluestein.
  await provePointwise(device, stage);
  if (m === n) return new WebGpuFft(device, stage, n, batch, precision, radix);
  const inner = new WebGpuFft(device, stage, m, batch, precision, radix);
  try {
    return new WebGpuBluestein(inner, n);
  } catch (e) {
    inner.dispose();
    throw e;
  }
}

// What the compute form (WebGpuFft) and the render form (webgpu-render.js) share, their
// prototypes' base: tables and buffers, the input scaled, the read-back, runs and the
// self-test, and the public methods on top of each form's _upload, _execute and _download.
function WebGpuPlanBase() {}
Object.setPrototypeOf(WebGpuRenderFft.prototype, WebGpuPlanBase.prototype);

function WebGpuFft(device, stage, n, batch, precision, radix) {
  this.device = device;
  this.length = n;
  this.batch = batch;
  this.precision = precision;
  this.radix = radix;
  this._stage = stage;
  // N = odd * 2^log2: the power-of-two stages, then (odd 3) the radix-3 stage.
  this._odd = oddFactor(n);
  this._log2 = Math.round(Math.log2(n / this._odd));
  this._radices = stageRadices(this._log2, radix).concat(this._odd === 3 ? [3] : []);
  this._per = PER[precision];
  this._words = this._per / 2;
  this._bytes = 4 * this._per * n * batch;
  const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
  this._buffers = [device.createBuffer({ size: this._bytes, usage: usage }), device.createBuffer({ size: this._bytes, usage: usage })];
  this._read = device.createBuffer({ size: this._bytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  this._twiddles = this._twiddleBuffer();
  this._params = this._paramsBuffer(0);
  const self = this;
  this._groups = [0, 1].map(function (from) {
    return device.createBindGroup({
      layout: stage.ioLayout,
      entries: [
        { binding: 0, resource: { buffer: self._buffers[from] } },
        { binding: 1, resource: { buffer: self._buffers[1 - from] } },
        { binding: 2, resource: { buffer: self._twiddles } },
        { binding: 3, resource: { buffer: self._params, size: 32 } },
      ],
    });
  });
  this._front = 0;
  this._exponent = 0;
  // log2 of the most the words may have grown since the upload (they start below 1): f32 holds
  // them below 2^128 only, and data kept on the device for repeated transforms have no host
  // step between them to rescale (the WebGL plans rescale there).
  this._growth = 0;
  this._loaded = false;
  this._disposed = false;
  // Operands made for this plan (Bluestein's factors), freed with it.
  this._owned = [];
}
Object.setPrototypeOf(WebGpuFft.prototype, WebGpuPlanBase.prototype);

// Each stage's (n, L, conj, scale, wlog2) in its own uniform slot, forward stages first, then the
// inverse's (slot _radices.length is the inverse's first: conj -1; its last stage takes the
// power of two of 1/N). wlog2: the render form's texture width (log2), 0 for the compute form.
WebGpuPlanBase.prototype._paramsBuffer = function (wlog2) {
  const stages = this._radices.length;
  const params = new ArrayBuffer(2 * Math.max(stages, 1) * SLOT);
  for (let d = 0; d < 2; d++) {
    let l = 1;
    for (let s = 0; s < stages; s++) {
      l *= this._radices[s];
      const at = (d * stages + s) * SLOT;
      new Uint32Array(params, at, 2).set([this.length, l]);
      const last = d === 1 && s === stages - 1;
      new Float32Array(params, at + 8, 2).set([d === 0 ? 1 : -1, last ? Math.pow(2, -this._log2) : 1]);
      new Uint32Array(params, at + 16, 1).set([wlog2]);
    }
  }
  const buffer = this.device.createBuffer({ size: params.byteLength, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  this.device.queue.writeBuffer(buffer, 0, params);
  return buffer;
};

// W_long (w_L^j at L/2 + j - 1) in the plan's words: f32 and df64 from doubles, qf128 from the
// exact fixed-point roots.
WebGpuPlanBase.prototype._twiddleBuffer = function () {
  const n = this.length;
  const qf = this.precision === 'qf128';
  return this._tableBuffer(qf ? wLong(n, baseFixed(n), [0n, 0n]) : wLong(n, baseDouble(n), [0, 0]));
};

// A table of complex factors ([re, im]: doubles, or BigInt fixed point for qf128) in the plan's
// words, unscaled (each part below 1 in magnitude).
WebGpuPlanBase.prototype._tableBuffer = function (table) {
  const per = this._per;
  const words = this._words;
  const qf = this.precision === 'qf128';
  const data = new Float32Array(per * Math.max(table.length, 1));
  const pair = [0, 0, 0, 0];
  table.forEach(function (w, i) {
    for (let part = 0; part < 2; part++) {
      if (qf) {
        data.set(wordsFromFixed(w[part], 4), per * i + 4 * part);
      } else {
        splitDouble(w[part], words, pair, 0);
        for (let k = 0; k < words; k++) data[per * i + words * part + k] = pair[k];
      }
    }
  });
  const buffer = this.device.createBuffer({ size: data.byteLength, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
  this.device.queue.writeBuffer(buffer, 0, data);
  return buffer;
};

WebGpuPlanBase.prototype._usable = function () {
  if (this._disposed) throw fail('this plan was disposed: create a new one');
};

// x (doubles) block-scaled by a power of two, in the plan's words point by point (re words,
// then im words): {data, exponent}.
WebGpuPlanBase.prototype._scaled = function (x) {
  this._usable();
  const count = 2 * this.length * this.batch;
  const max = checkInput(x, count, 'the input');
  const s = blockExponent(max);
  const scale = scalerOf(-s);
  const words = this._words;
  const data = new Float32Array(count * words);
  const w = [0, 0, 0, 0];
  for (let i = 0; i < count; i++) {
    splitDouble(scale(x[i]), words, w, 0);
    // Point i >> 1, part i & 1: [re words, im words].
    const at = (i >> 1) * this._per + (i & 1) * words;
    for (let k = 0; k < words; k++) data[at + k] = w[k];
  }
  return { data: data, exponent: s };
};

// x into the front buffer's words.
WebGpuFft.prototype._upload = function (x) {
  const scaled = this._scaled(x);
  this.device.queue.writeBuffer(this._buffers[0], 0, scaled.data);
  this._front = 0;
  this._exponent = scaled.exponent;
  this._growth = 0;
  this._loaded = true;
};

// A MAP_READ buffer for one read-back: the plan's own when no read-back holds it, else one
// made for this call and destroyed after it (WebGPU maps a buffer once at a time, and calls on
// one plan may overlap: each copies the data as they stand when it is made, into its own).
WebGpuPlanBase.prototype._staging = function () {
  if (!this._reading) {
    this._reading = true;
    return this._read;
  }
  return this.device.createBuffer({ size: this._read.size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
};

// The words of a MAP_READ buffer from _staging that the queue fills (a Promise), every one
// finite (`growth`: the data's _growth when the read-back was made, for the message); the
// buffer is free again after.
WebGpuPlanBase.prototype._readBack = async function (buffer, growth) {
  let words;
  try {
    try {
      await buffer.mapAsync(GPUMapMode.READ);
    } catch (e) {
      throw fail(this._disposed ? 'the plan was disposed before its result was read back'
        : 'the device could not read the result back (' + (e && e.message) + '): was it lost?');
    }
    words = new Float32Array(buffer.getMappedRange().slice(0));
    buffer.unmap();
  } finally {
    if (buffer === this._read) this._reading = false;
    else buffer.destroy();
  }
  for (let i = 0; i < words.length; i++) {
    if (!Number.isFinite(words[i])) {
      throw fail('the transform produced a non-finite word (' + words[i] + ' at ' + i + '): ' + (growth >= GROWTH_LIMIT
        ? 'the data kept on the device grew by up to 2^' + growth + ' over its transforms, past f32\'s range: download and upload them again between transforms'
        : 'the device did not compute what the check proved'));
    }
  }
  return words;
};

WebGpuFft.prototype._execute = function (direction) {
  this._usable();
  if (!this._loaded) throw fail('nothing uploaded: call upload(x) before execute()');
  const d = directionOf(direction) === 'inverse' ? 1 : 0;
  const encoder = this.device.createCommandEncoder({ label: 'df64gl FFT' });
  const pass = encoder.beginComputePass({ label: 'df64gl FFT ' + direction });
  pass.setBindGroup(0, this._stage.zeroGroup);
  const stages = this._radices.length;
  for (let s = 0; s < stages; s++) {
    const r = this._radices[s];
    pass.setPipeline(this._stage.pipelines['radix' + r]);
    pass.setBindGroup(1, this._groups[this._front], [(d * stages + s) * SLOT]);
    // Radix 4 and 3: one invocation a butterfly; radix 2: one an output.
    dispatch(pass, r === 2 ? this.length : this.length / r, this.batch);
    this._front = 1 - this._front;
  }
  pass.end();
  this.device.queue.submit([encoder.finish()]);
  // A forward transform grows by up to N (the inverse takes 1/N back); radix 3 by up to 3.
  this._growth += (d === 0 ? this._log2 : 0) + (this._odd === 3 ? 2 : 0);
};

// The front buffer's words (a Promise).
WebGpuFft.prototype._download = async function () {
  this._usable();
  if (!this._loaded) throw fail('nothing uploaded: call upload(x) before download()');
  // What the result is, as the data stand now (a later call may change the plan's before the
  // read-back resolves).
  const exponent = this._exponent;
  const growth = this._growth;
  const read = this._staging();
  const encoder = this.device.createCommandEncoder();
  encoder.copyBufferToBuffer(this._buffers[this._front], 0, read, 0, this._bytes);
  this.device.queue.submit([encoder.finish()]);
  const words = await this._readBack(read, growth);
  return { words: words, per: this._per, exponent: exponent };
};

WebGpuPlanBase.prototype._run = async function (x, direction) {
  this._upload(x);
  this._execute(direction);
  return this._download();
};

// A constant factor on the device in the data's layout (Bluestein's chirps and filters):
// `values` (re and im interleaved over every point of the plan) as doubles, or (`fixed`) as
// BigInt fixed-point numbers; block-scaled like the data: {buffer, exponent}.
WebGpuFft.prototype._operand = function (values, fixed) {
  const words = this._words;
  const per = this._per;
  const data = new Float32Array(values.length * words);
  const scaled = blockScaledParts(values, fixed, words);
  const s = scaled.exponent;
  // Part i: point i >> 1, re words then im words.
  for (let i = 0; i < values.length; i++) scaled.part(i, data, (i >> 1) * per + (i & 1) * words);
  const buffer = this.device.createBuffer({
    size: this._bytes, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC,
  });
  this.device.queue.writeBuffer(buffer, 0, data);
  this._owned.push(buffer);
  return { buffer: buffer, exponent: s };
};

// The data times `operand` ({buffer, exponent}: a constant factor or another plan's data),
// point by point, on the device.
WebGpuFft.prototype._pointwise = function (operand) {
  this._elementwise(this._stage.pipelines.pointwise, operand.buffer, 0);
  this._exponent += operand.exponent;
  // A complex product's parts are at most twice the factors' magnitudes' product.
  this._growth += (operand.growth || 0) + 1;
};

// One pass of `pipeline` over the data, reading `operand` where the stage reads its twiddles
// and the parameters of uniform slot `slot` (0: the forward's first stage, n and conj 1;
// _radices.length: the inverse's, conj -1).
WebGpuFft.prototype._elementwise = function (pipeline, operand, slot) {
  const encoder = this.device.createCommandEncoder({ label: 'df64gl FFT ' + pipeline.label });
  const pass = encoder.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, this._stage.zeroGroup);
  pass.setBindGroup(1, this.device.createBindGroup({
    layout: this._stage.ioLayout,
    entries: [
      { binding: 0, resource: { buffer: this._buffers[this._front] } },
      { binding: 1, resource: { buffer: this._buffers[1 - this._front] } },
      { binding: 2, resource: { buffer: operand } },
      { binding: 3, resource: { buffer: this._params, size: 32 } },
    ],
  }), [slot * SLOT]);
  dispatch(pass, this.length, this.batch);
  pass.end();
  this.device.queue.submit([encoder.finish()]);
  this._front = 1 - this._front;
};

// Known products (fixed signals) against their exact values in BigInt.
WebGpuFft.prototype._selftestPointwise = async function () {
  const n = this.length;
  const a = selftestSignal(2 * n, this._words, 11);
  const b = selftestSignal(2 * n, this._words, 12);
  this._upload(a);
  this._pointwise(this._operand(b, false));
  const got = fixedWords(await this._download());
  const bits = BigInt(FIXED_BITS);
  let err = 0n;
  let ref = 0n;
  for (let k = 0; k < n; k++) {
    const [ar, ai, br, bi] = [a[2 * k], a[2 * k + 1], b[2 * k], b[2 * k + 1]].map(fixedFromDouble);
    const re = (ar * br - ai * bi) >> bits;
    const im = (ar * bi + ai * br) >> bits;
    err += (got[2 * k] - re) ** 2n + (got[2 * k + 1] - im) ** 2n;
    ref += re * re + im * im;
  }
  const rel = relativeError(err, ref);
  const bound = PRECISIONS[this.precision].selftestBound;
  if (!(rel <= bound)) {
    throw fail('the ' + this.precision + ' WebGPU pointwise product computed known products with relative error ' +
      rel.toExponential(2) + ' (bound ' + bound + ') on this device: its compiler breaks it, so this plan will not run here');
  }
};

// Forward and inverse of a fixed signal against the exact DFT (BigInt fixed point).
WebGpuPlanBase.prototype._selftest = async function () {
  const n = this.length;
  const x = selftestSignal(2 * n, this._words, 2007);
  const bound = PRECISIONS[this.precision].selftestBound;
  for (const sign of [1, -1]) {
    const got = fixedWords(await this._run(x, sign > 0 ? 'forward' : 'inverse'));
    const rel = exactDftError(x, got, sign);
    if (!(rel <= bound)) {
      throw fail('the ' + this.precision + ' WebGPU stage computed a ' + n + '-point ' + (sign > 0 ? 'forward' : 'inverse') +
        ' transform with relative error ' + rel.toExponential(2) + ' (bound ' + bound + ') on this device: its compiler breaks it, so this plan will not run here');
    }
  }
};

/** The spectrum of x (2 * length * batch numbers, re and im interleaved), as doubles. */
WebGpuPlanBase.prototype.forward = async function (x) { return toDoubles(await this._run(x, 'forward')); };
/** The inverse transform (with 1/length), as doubles. */
WebGpuPlanBase.prototype.inverse = async function (y) { return toDoubles(await this._run(y, 'inverse')); };
/** The spectrum's f32 words (2, 4 or 8 a point). */
WebGpuPlanBase.prototype.forwardWords = async function (x) { return toWords(await this._run(x, 'forward')); };
/** The inverse's f32 words. */
WebGpuPlanBase.prototype.inverseWords = async function (y) { return toWords(await this._run(y, 'inverse')); };
/** Loads x into the plan's buffer (block-scaled by a power of two), for execute and download. */
WebGpuPlanBase.prototype.upload = function (x) { this._upload(x); };
/** Transforms the data on the device in place ('forward' or 'inverse'). */
WebGpuPlanBase.prototype.execute = function (direction) { this._execute(direction); };
/** The data on the device, as doubles. */
WebGpuPlanBase.prototype.download = async function () { return toDoubles(await this._download()); };
/** The data on the device, as f32 words. */
WebGpuPlanBase.prototype.downloadWords = async function () { return toWords(await this._download()); };
/** Frees the plan's buffers (the device's pipelines stay for the next plan). */
WebGpuFft.prototype.dispose = function () {
  if (this._disposed) return;
  this._disposed = true;
  this._buffers.concat([this._read, this._twiddles, this._params], this._owned).forEach(function (b) { b.destroy(); });
};

/**
 * The data on the device times `other`'s (a plan of the same length, batch and precision on the
 * same device, both uploaded), point by point: the frequency-domain step of a convolution.
 */
WebGpuFft.prototype.multiply = function (other) {
  if (!(other instanceof WebGpuFft) || other.device !== this.device || other.length !== this.length ||
    other.batch !== this.batch || other.precision !== this.precision) {
    throw new TypeError('df64gl FFT: multiply takes a plan of the same length, batch and precision on the same device');
  }
  this._usable();
  other._usable();
  if (!this._loaded || !other._loaded) throw fail('nothing uploaded: call upload(x) on both plans before multiply()');
  this._pointwise({ buffer: other._buffers[other._front], exponent: other._exponent, growth: other._growth });
};

// ------------------------------------------------------------------ Bluestein

/**
 * A plan of `n` points (not a power of two) over `inner`, a 2^k plan of m >= 2n - 1 points:
 * the data times the chirp, a forward transform of m points, the product with the filter, an
 * inverse transform, the chirp again (bluestein.js has the algebra). The factors of both
 * directions are made here: chirps and the f32 and df64 filters from doubles, the qf128 filter
 * from 200-bit fixed point transformed by the qf128 stage itself (proven by then).
 */
function WebGpuBluestein(inner, n) {
  this.device = inner.device;
  this.length = n;
  this.batch = inner.batch;
  this.precision = inner.precision;
  this.radix = inner.radix;
  this._inner = inner;
  this._m = inner.length;
  this._disposed = false;
  this._factors = { forward: this._factorsOf('forward'), inverse: this._factorsOf('inverse') };
}
Object.setPrototypeOf(WebGpuBluestein.prototype, BluesteinBase.prototype);

WebGpuBluestein.prototype._factorsOf = function (direction) {
  const inner = this._inner;
  const n = this.length;
  const m = this._m;
  const rows = this.batch;
  const sign = direction === 'inverse' ? 1 : -1;
  const qf = this.precision === 'qf128';
  const w = qf ? chirpFixed(n, sign) : chirpDouble(n, sign);
  const zero = qf ? 0n : 0;
  const c = new Array(2 * m * rows).fill(zero);
  const b = new Array(2 * m).fill(zero);
  const div = direction === 'inverse' ? (qf ? BigInt(n) : n) : (qf ? 1n : 1);
  for (let j = 0; j < n; j++) {
    for (let row = 0; row < rows; row++) {
      c[2 * (row * m + j)] = w[j][0];
      c[2 * (row * m + j) + 1] = w[j][1];
    }
    // conj(w) (over n for the inverse) at j and m - j.
    const re = w[j][0] / div;
    const im = -w[j][1] / div;
    for (const at of j > 0 ? [j, m - j] : [0]) {
      b[2 * at] = re;
      b[2 * at + 1] = im;
    }
  }
  const chirp = inner._operand(c, qf);
  let filter;
  if (!qf) {
    const t = Float64Array.from(b);
    fftDouble(t, m);
    const f = new Float64Array(2 * m * rows);
    for (let row = 0; row < rows; row++) f.set(t, 2 * m * row);
    filter = inner._operand(f, false);
  } else {
    // Transformed on the device: the spare's words through the inner plan's own buffers.
    const spare = inner._operand(new Array(rows).fill(b).flat(), true);
    const encoder = this.device.createCommandEncoder();
    encoder.copyBufferToBuffer(spare.buffer, 0, inner._buffers[0], 0, inner._bytes);
    this.device.queue.submit([encoder.finish()]);
    inner._front = 0;
    inner._loaded = true;
    inner._execute('forward');
    const back = this.device.createCommandEncoder();
    back.copyBufferToBuffer(inner._buffers[inner._front], 0, spare.buffer, 0, inner._bytes);
    this.device.queue.submit([back.finish()]);
    inner._loaded = false;
    filter = spare;
  }
  return { chirp: chirp, filter: filter };
};

WebGpuBluestein.prototype._apply = function (direction) {
  const inner = this._inner;
  const f = this._factors[direction];
  inner._pointwise(f.chirp);
  inner._execute('forward');
  inner._pointwise(f.filter);
  inner._execute('inverse');
  inner._pointwise(f.chirp);
};

// Padding to m and cutting back to n a row: the WebGL Bluestein plan's own.

WebGpuBluestein.prototype._usable = function () {
  if (this._disposed) throw fail('this plan was disposed: create a new one');
};

WebGpuBluestein.prototype._run = async function (x, direction) {
  this._usable();
  this._inner._upload(this._padded(x));
  this._apply(directionOf(direction));
  return this._cut(await this._inner._download());
};

WebGpuBluestein.prototype.forward = async function (x) { return toDoubles(await this._run(x, 'forward')); };
WebGpuBluestein.prototype.inverse = async function (y) { return toDoubles(await this._run(y, 'inverse')); };
WebGpuBluestein.prototype.forwardWords = async function (x) { return toWords(await this._run(x, 'forward')); };
WebGpuBluestein.prototype.inverseWords = async function (y) { return toWords(await this._run(y, 'inverse')); };
WebGpuBluestein.prototype.upload = function (x) {
  this._usable();
  this._inner._upload(this._padded(x));
};
WebGpuBluestein.prototype.execute = function (direction) {
  this._usable();
  const d = directionOf(direction);
  if (!this._inner._loaded) throw fail('nothing uploaded: call upload(x) before execute()');
  this._apply(d);
};
WebGpuBluestein.prototype.download = async function () {
  this._usable();
  return toDoubles(this._cut(await this._inner._download()));
};
WebGpuBluestein.prototype.downloadWords = async function () {
  this._usable();
  return toWords(this._cut(await this._inner._download()));
};
WebGpuBluestein.prototype.multiply = function () {
  throw new TypeError('df64gl FFT: multiply is for plans of 2^k points (this one runs ' + this.length +
    ' points through Bluestein on ' + this._m + '): zero-pad the convolution to such a length');
};
WebGpuBluestein.prototype.dispose = function () {
  if (this._disposed) return;
  this._disposed = true;
  this._inner.dispose();
};

// ------------------------------------------------------------------ real input

/**
 * A plan of `n` reals a row (a power of two, at least 4) over `inner`, a complex plan of n/2
 * points: forward(x) takes n reals a row to the n/2 + 1 bins a row (re, im interleaved),
 * inverse(bins) takes them back (with 1/n), through one real-input pass after the forward
 * transform and one before the inverse (real.js's algebra; its packing of the bins).
 */
function WebGpuRealFft(inner, n) {
  this.device = inner.device;
  this.length = n;
  this.batch = inner.batch;
  this.precision = inner.precision;
  this.radix = inner.radix;
  this.real = true;
  this._inner = inner;
  this._disposed = false;
  // What the device holds after upload or execute: 'reals' or 'bins'.
  this._holds = null;
  const qf = this.precision === 'qf128';
  this._twiddles = inner._tableBuffer(qf ? baseFixed(n) : baseDouble(n));
  inner._owned.push(this._twiddles);
}
Object.setPrototypeOf(WebGpuRealFft.prototype, RealBase.prototype);


WebGpuRealFft.prototype._usable = function () {
  if (this._disposed) throw fail('this plan was disposed: create a new one');
};

WebGpuRealFft.prototype._apply = function (direction) {
  const inner = this._inner;
  if (direction === 'forward') {
    inner._execute('forward');
    inner._elementwise(inner._stage.pipelines.real_post, this._twiddles, 0);
    // The bins are sums of two packed values' parts.
    inner._growth += 1;
    this._holds = 'bins';
  } else {
    inner._elementwise(inner._stage.pipelines.real_pre, this._twiddles, inner._radices.length);
    inner._execute('inverse');
    this._holds = 'reals';
  }
};

WebGpuRealFft.prototype._result = async function () {
  // What the device holds now (a later call may change it before the read-back resolves).
  const bins = this._holds === 'bins';
  const r = await this._inner._download();
  // Packed reals (n/2 complex values a row) read part by part are the n reals as they stand.
  return bins ? this._unpackBins(r) : r;
};

WebGpuRealFft.prototype._run = async function (x, direction) {
  this._usable();
  const d = directionOf(direction);
  this._inner._upload(d === 'forward' ? this._reals(x) : this._packBins(x));
  this._apply(d);
  return this._result();
};

/** n reals a row to the n/2 + 1 bins a row. */
WebGpuRealFft.prototype.forward = async function (x) { return toDoubles(await this._run(x, 'forward')); };
/** n/2 + 1 bins a row back to the n reals (with 1/n). */
WebGpuRealFft.prototype.inverse = async function (bins) { return toDoubles(await this._run(bins, 'inverse')); };
WebGpuRealFft.prototype.forwardWords = async function (x) { return toWords(await this._run(x, 'forward')); };
WebGpuRealFft.prototype.inverseWords = async function (bins) { return toWords(await this._run(bins, 'inverse')); };
/** Loads reals (n a row) or bins (n/2 + 1 a row: the length says which). */
WebGpuRealFft.prototype.upload = function (data) {
  this._usable();
  const bins = Boolean(data) && data.length === (this.length + 2) * this.batch;
  this._inner._upload(bins ? this._packBins(data) : this._reals(data));
  this._holds = bins ? 'bins' : 'reals';
};
/** 'forward' takes reals to bins, 'inverse' bins to reals. */
WebGpuRealFft.prototype.execute = function (direction) {
  this._usable();
  const d = directionOf(direction);
  const wants = d === 'forward' ? 'reals' : 'bins';
  if (this._holds !== wants) {
    throw fail(this._holds === null ? 'nothing uploaded: call upload(x) before execute()'
      : 'the ' + d + ' real transform takes ' + wants + ' and the plan holds ' + this._holds);
  }
  this._apply(d);
};
WebGpuRealFft.prototype.download = async function () {
  this._usable();
  if (this._holds === null) throw fail('nothing uploaded: call upload(x) before download()');
  return toDoubles(await this._result());
};
WebGpuRealFft.prototype.downloadWords = async function () {
  this._usable();
  if (this._holds === null) throw fail('nothing uploaded: call upload(x) before download()');
  return toWords(await this._result());
};
WebGpuRealFft.prototype.dispose = function () {
  if (this._disposed) return;
  this._disposed = true;
  this._inner.dispose();
};

// ------------------------------------------------------------------ 2-D

// A 2-D plan: [rows, columns], each a power of two, row-major data: the rows' transforms (a
// plan of `columns` points, `rows` rows), a transpose into a plan of `rows` points a row, the
// columns' transforms, and a transpose back.
async function createImageFftWebGPU(device, opts, precision) {
  const s = imageShape(opts);
  const common = { precision: precision, radix: opts.radix, storage: opts.storage, cache: opts.cache };
  const rows = await createFftWebGPU(device, Object.assign({ length: s[1], batch: s[0] }, common));
  let columns;
  try {
    columns = await createFftWebGPU(device, Object.assign({ length: s[0], batch: s[1] }, common));
    const plan = new WebGpuImageFft(rows, columns, s);
    if (!rows._stage.proven.transpose) {
      await pipelineFor(device, rows._stage, 'transpose');
      await plan._selftestTranspose();
      rows._stage.proven.transpose = true;
    }
    return plan;
  } catch (e) {
    rows.dispose();
    if (columns) columns.dispose();
    throw e;
  }
}

function WebGpuImageFft(rows, columns, shape) {
  this.device = rows.device;
  this.length = shape[0] * shape[1];
  this.batch = 1;
  this.precision = rows.precision;
  this.radix = rows.radix;
  this.shape = [shape[0], shape[1]];
  this._rows = rows;
  this._columns = columns;
  this._disposed = false;
  // Each plan's transpose parameters (n = the source's row length, l = its rows) in a slot of
  // its own.
  const params = new ArrayBuffer(2 * SLOT);
  new Uint32Array(params, 0, 2).set([shape[1], shape[0]]);
  new Uint32Array(params, SLOT, 2).set([shape[0], shape[1]]);
  this._params = this.device.createBuffer({ size: params.byteLength, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  this.device.queue.writeBuffer(this._params, 0, params);
}

// The front data of `from` transposed into `to`'s first buffer (slot 0: rows to columns).
WebGpuImageFft.prototype._transpose = function (from, to, slot) {
  const stage = from._stage;
  const encoder = this.device.createCommandEncoder({ label: 'df64gl FFT transpose' });
  const pass = encoder.beginComputePass();
  pass.setPipeline(stage.pipelines.transpose);
  pass.setBindGroup(0, stage.zeroGroup);
  pass.setBindGroup(1, this.device.createBindGroup({
    layout: stage.ioLayout,
    entries: [
      { binding: 0, resource: { buffer: from._buffers[from._front] } },
      { binding: 1, resource: { buffer: to._buffers[0] } },
      { binding: 2, resource: { buffer: from._twiddles } },
      { binding: 3, resource: { buffer: this._params, size: 32 } },
    ],
  }), [slot * SLOT]);
  dispatch(pass, from.length, from.batch);
  pass.end();
  this.device.queue.submit([encoder.finish()]);
  to._front = 0;
  to._exponent = from._exponent;
  to._growth = from._growth;
  to._loaded = true;
};

WebGpuImageFft.prototype._usable = function () {
  if (this._disposed) throw fail('this plan was disposed: create a new one');
};

WebGpuImageFft.prototype._apply = function (direction) {
  this._rows._execute(direction);
  this._transpose(this._rows, this._columns, 0);
  this._columns._execute(direction);
  this._transpose(this._columns, this._rows, 1);
};

// Known words through both transposes: each must come back to its place, bit for bit (a copy).
WebGpuImageFft.prototype._selftestTranspose = async function () {
  const x = selftestSignal(2 * this.length, this._rows._words, 7);
  this._rows._upload(x);
  const sent = await this._rows._download();
  this._transpose(this._rows, this._columns, 0);
  const across = await this._columns._download();
  this._transpose(this._columns, this._rows, 1);
  const back = await this._rows._download();
  const [h, w] = this.shape;
  const per = sent.per;
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      for (let k = 0; k < per; k++) {
        const v = sent.words[per * (r * w + c) + k];
        if (across.words[per * (c * h + r) + k] !== v || back.words[per * (r * w + c) + k] !== v) {
          throw fail('the ' + this.precision + ' WebGPU transpose moved point (' + r + ', ' + c +
            ') wrongly on this device, so a 2-D plan will not run here');
        }
      }
    }
  }
};

WebGpuImageFft.prototype._run = async function (x, direction) {
  this._usable();
  const d = directionOf(direction);
  this._rows._upload(x);
  this._apply(d);
  return this._rows._download();
};

WebGpuImageFft.prototype.forward = async function (x) { return toDoubles(await this._run(x, 'forward')); };
WebGpuImageFft.prototype.inverse = async function (y) { return toDoubles(await this._run(y, 'inverse')); };
WebGpuImageFft.prototype.forwardWords = async function (x) { return toWords(await this._run(x, 'forward')); };
WebGpuImageFft.prototype.inverseWords = async function (y) { return toWords(await this._run(y, 'inverse')); };
WebGpuImageFft.prototype.upload = function (x) {
  this._usable();
  this._rows._upload(x);
};
WebGpuImageFft.prototype.execute = function (direction) {
  this._usable();
  const d = directionOf(direction);
  if (!this._rows._loaded) throw fail('nothing uploaded: call upload(x) before execute()');
  this._apply(d);
};
WebGpuImageFft.prototype.download = async function () {
  this._usable();
  return toDoubles(await this._rows._download());
};
WebGpuImageFft.prototype.downloadWords = async function () {
  this._usable();
  return toWords(await this._rows._download());
};
/** The data times `other`'s (a 2-D plan of the same shape and precision on the same device, both uploaded). */
WebGpuImageFft.prototype.multiply = function (other) {
  if (!(other instanceof WebGpuImageFft) || String(other.shape) !== String(this.shape)) {
    throw new TypeError('df64gl FFT: multiply takes a plan of the same shape, batch and precision on the same device');
  }
  this._usable();
  other._usable();
  this._rows.multiply(other._rows);
};
WebGpuImageFft.prototype.dispose = function () {
  if (this._disposed) return;
  this._disposed = true;
  this._rows.dispose();
  this._columns.dispose();
  this._params.destroy();
};
