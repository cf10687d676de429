// webgpu-render.js: the render form of createFftWebGPU (`form: 'render'`): Thall's radix-2
// stage (his Algorithm 10) as a fragment program over rgba32float textures, as the paper runs
// it and as the WebGL passes do, for the comparison issue 43 asks for (measure both): one
// full-screen triangle per stage, one fragment per output, ping-pong between two textures (two
// pairs for qf128: real and imaginary words), the twiddles and the stage's parameters as the
// compute stage reads them. Its WGSL (RENDER_WGSL) joins the compute stage's module, so it calls
// the same complex arithmetic over the same WGSL export, which `checkWebGPU` proves in the
// fragment stage before the first render plan; the plan's known-answer self-test is the compute
// form's (webgpu.js lends it its shared methods: input scaling, read-back, the self-test). 2^k complex plans only: Bluestein, mixed
// radix, real input, 2-D and multiply run on the compute form.

import { PRECISIONS, directionOf, fail } from './host.js';

// Uniform slots 256 bytes apart (minUniformBufferOffsetAlignment is at most 256), as the compute
// stage's.
const SLOT = 256;

// Each precision's texture loads and fragment outputs (t_load: the complex value at point i of
// the front textures; the outputs: one rgba32float target, two for qf128).
const TEXTURES = {
  f32: `
struct FftRenderOut { @location(0) v: vec4<f32> }
fn t_load(i: u32) -> vec2<f32> { return textureLoad(fft_tex, t_at(i), 0).xy; }
fn t_out(v: vec2<f32>) -> FftRenderOut { return FftRenderOut(vec4<f32>(v, 0.0, 0.0)); }
`,
  df64: `
struct FftRenderOut { @location(0) v: vec4<f32> }
fn t_load(i: u32) -> vec4<f32> { return textureLoad(fft_tex, t_at(i), 0); }
fn t_out(v: vec4<f32>) -> FftRenderOut { return FftRenderOut(v); }
`,
  qf128: `
@group(1) @binding(5) var fft_tex_im: texture_2d<f32>;
struct FftRenderOut { @location(0) re: vec4<f32>, @location(1) im: vec4<f32> }
fn t_load(i: u32) -> FftQ { return FftQ(textureLoad(fft_tex, t_at(i), 0), textureLoad(fft_tex_im, t_at(i), 0)); }
fn t_out(v: FftQ) -> FftRenderOut { return FftRenderOut(v.re, v.im); }
`,
};

/** The render stage's WGSL for a precision (after the compute stage's: its types, c_* and fft_p). */
export function RENDER_WGSL(precision) {
  return `
// ---- df64gl FFT render form (webgpu-render.js): point i at texel (i mod W, i / W),
// W = 2^fft_p.wlog2.
@group(1) @binding(4) var fft_tex: texture_2d<f32>;
fn t_at(i: u32) -> vec2<u32> { return vec2<u32>(i & ((1u << fft_p.wlog2) - 1u), i >> fft_p.wlog2); }
` + TEXTURES[precision] + `
@vertex
fn df64gl_fft_cover(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
  return vec4<f32>(f32(i & 1u) * 4.0 - 1.0, f32(i >> 1u) * 4.0 - 1.0, 0.0, 1.0);
}

// Thall's Algorithm 10, one fragment per output (fft_radix2_texel: webgpu.js's radix-2
// output with texture loads).
@fragment
fn df64gl_fft_render2(@builtin(position) pos: vec4<f32>) -> FftRenderOut {
  let i = (u32(pos.y) << fft_p.wlog2) + u32(pos.x);
  let row = (i / fft_p.n) * fft_p.n;
  return t_out(fft_radix2_texel(row, i - row));
}
`;
}

// The render pipeline of a precision's module (built at the first render plan).
export function renderPipelineOf(device, stage) {
  if (stage.render) return stage.render;
  const S = GPUShaderStage;
  const parts = stage.precision === 'qf128' ? 2 : 1;
  const entries = [
    { binding: 2, visibility: S.FRAGMENT, buffer: { type: 'read-only-storage' } },
    { binding: 3, visibility: S.FRAGMENT, buffer: { type: 'uniform', hasDynamicOffset: true } },
    { binding: 4, visibility: S.FRAGMENT, texture: { sampleType: 'unfilterable-float' } },
  ];
  if (parts === 2) entries.push({ binding: 5, visibility: S.FRAGMENT, texture: { sampleType: 'unfilterable-float' } });
  const ioLayout = device.createBindGroupLayout({ entries: entries });
  const targets = [];
  for (let p = 0; p < parts; p++) targets.push({ format: 'rgba32float' });
  stage.render = {
    ioLayout: ioLayout,
    pipeline: device.createRenderPipeline({
      label: 'df64gl ' + stage.precision + ' FFT render stage',
      layout: device.createPipelineLayout({ bindGroupLayouts: [stage.zeroLayout, ioLayout] }),
      vertex: { module: stage.module, entryPoint: 'df64gl_fft_cover' },
      fragment: { module: stage.module, entryPoint: 'df64gl_fft_render2', targets: targets },
      primitive: { topology: 'triangle-list' },
    }),
    label: stage.precision + ' FFT render pipeline',
  };
  return stage.render;
}

/**
 * A render-form plan of n = 2^k points (`batch` rows) on textures of W x H texels, W = 2^ceil(k/2)
 * (the paper's layout), H = batch n / W (at most the device's maxTextureDimension2D).
 */
export function WebGpuRenderFft(device, stage, n, batch, precision) {
  this.device = device;
  this.length = n;
  this.batch = batch;
  this.precision = precision;
  this.radix = 2;
  this.form = 'render';
  this._stage = stage;
  this._log2 = Math.round(Math.log2(n));
  this._radices = [];
  for (let s = 0; s < this._log2; s++) this._radices.push(2);
  this._words = PRECISIONS[precision].words;
  this._per = 2 * this._words;
  this._parts = precision === 'qf128' ? 2 : 1;
  this._wlog2 = Math.ceil(this._log2 / 2);
  this._width = 1 << this._wlog2;
  this._height = (n / this._width) * batch;
  const limit = device.limits.maxTextureDimension2D;
  if (this._height > limit) {
    throw new RangeError('df64gl FFT: a render-form plan of ' + n + ' x ' + batch + ' points needs textures ' + this._height +
      ' texels high; this device allows ' + limit + ': take a smaller batch, or the compute form');
  }
  // copyTextureToBuffer wants rows of a multiple of 256 bytes.
  this._rowBytes = Math.ceil(16 * this._width / 256) * 256;
  const render = renderPipelineOf(device, stage);
  this._render = render;
  const T = GPUTextureUsage;
  const self = this;
  // Two sides (ping-pong), each one texture per part.
  this._textures = [0, 1].map(function () {
    const side = [];
    for (let p = 0; p < self._parts; p++) {
      side.push(device.createTexture({
        size: [self._width, self._height], format: 'rgba32float',
        usage: T.TEXTURE_BINDING | T.RENDER_ATTACHMENT | T.COPY_DST | T.COPY_SRC,
      }));
    }
    return side;
  });
  this._read = device.createBuffer({ size: this._rowBytes * this._height * this._parts, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  this._twiddles = this._twiddleBuffer();
  // The compute form's parameter slots, with the texture width.
  this._params = this._paramsBuffer(this._wlog2);
  this._groups = [0, 1].map(function (from) {
    const entries = [
      { binding: 2, resource: { buffer: self._twiddles } },
      { binding: 3, resource: { buffer: self._params, size: 32 } },
    ];
    for (let p = 0; p < self._parts; p++) entries.push({ binding: 4 + p, resource: self._textures[from][p].createView() });
    return device.createBindGroup({ layout: render.ioLayout, entries: entries });
  });
  this._views = this._textures.map(function (side) { return side.map(function (t) { return t.createView(); }); });
  this._front = 0;
  this._exponent = 0;
  this._growth = 0;
  this._loaded = false;
  this._disposed = false;
  this._owned = [];
}

// x (doubles) block-scaled by a power of two into the front textures' texels: point i at texel
// i, its words in part order (f32: re, im, 0, 0; df64: re hi, lo, im hi, lo; qf128: the re
// words in part 0, the im words in part 1).
WebGpuRenderFft.prototype._upload = function (x) {
  const scaled = this._scaled(x);
  const per = this._per;
  const texels = this._width * this._height;
  const parts = [];
  for (let p = 0; p < this._parts; p++) parts.push(new Float32Array(4 * texels));
  for (let i = 0; i < this.length * this.batch; i++) {
    for (let k = 0; k < per; k++) parts[k >> 2][4 * i + (k & 3)] = scaled.data[per * i + k];
  }
  for (let p = 0; p < this._parts; p++) {
    this.device.queue.writeTexture({ texture: this._textures[0][p] }, parts[p],
      { bytesPerRow: 16 * this._width, rowsPerImage: this._height }, [this._width, this._height]);
  }
  this._front = 0;
  this._exponent = scaled.exponent;
  this._growth = 0;
  this._loaded = true;
};

WebGpuRenderFft.prototype._execute = function (direction) {
  this._usable();
  if (!this._loaded) throw fail('nothing uploaded: call upload(x) before execute()');
  const d = directionOf(direction) === 'inverse' ? 1 : 0;
  const encoder = this.device.createCommandEncoder({ label: 'df64gl FFT render ' + direction });
  for (let s = 0; s < this._log2; s++) {
    const back = 1 - this._front;
    const pass = encoder.beginRenderPass({
      colorAttachments: this._views[back].map(function (view) {
        return { view: view, loadOp: 'clear', storeOp: 'store', clearValue: [0, 0, 0, 0] };
      }),
    });
    pass.setPipeline(this._render.pipeline);
    pass.setBindGroup(0, this._stage.zeroGroup);
    pass.setBindGroup(1, this._groups[this._front], [(d * this._log2 + s) * SLOT]);
    pass.draw(3);
    pass.end();
    this._front = back;
  }
  this.device.queue.submit([encoder.finish()]);
  // See webgpu.js's _execute.
  this._growth += d === 0 ? this._log2 : 0;
};

// The front textures' words in the compute form's point layout (a Promise).
WebGpuRenderFft.prototype._download = async function () {
  this._usable();
  if (!this._loaded) throw fail('nothing uploaded: call upload(x) before download()');
  // The result as the data stand now (see webgpu.js's _download).
  const exponent = this._exponent;
  const growth = this._growth;
  const read = this._staging();
  const encoder = this.device.createCommandEncoder();
  const part = this._rowBytes * this._height;
  for (let p = 0; p < this._parts; p++) {
    encoder.copyTextureToBuffer({ texture: this._textures[this._front][p] },
      { buffer: read, offset: p * part, bytesPerRow: this._rowBytes, rowsPerImage: this._height }, [this._width, this._height]);
  }
  this.device.queue.submit([encoder.finish()]);
  const texels = await this._readBack(read, growth);
  const points = this.length * this.batch;
  const per = this._per;
  const words = new Float32Array(per * points);
  const rowFloats = this._rowBytes / 4;
  for (let i = 0; i < points; i++) {
    const at = (i >> this._wlog2) * rowFloats + 4 * (i & (this._width - 1));
    for (let p = 0; p < this._parts; p++) {
      const src = p * part / 4 + at;
      for (let k = 0; k < Math.min(4, per); k++) words[per * i + 4 * p + k] = texels[src + k];
    }
  }
  return { words: words, per: per, exponent: exponent };
};

WebGpuRenderFft.prototype.multiply = function () {
  throw new TypeError("df64gl FFT: multiply runs on the compute form: create the plans without form: 'render'");
};

WebGpuRenderFft.prototype.dispose = function () {
  if (this._disposed) return;
  this._disposed = true;
  this._textures.forEach(function (side) { side.forEach(function (t) { t.destroy(); }); });
  [this._read, this._twiddles, this._params].forEach(function (b) { b.destroy(); });
};
