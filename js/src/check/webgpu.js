// The check of the WGSL routines on a WebGPU device (`checkWebGPU`): every routine on the
// known answers `check` runs, judged alike, in a compute shader and in the vertex and fragment
// stages of a render pipeline.

import { DF64_WGSL, DF64_QF128_WGSL } from '../generated/wgsl.js';
import { WGSL_CALLS } from '../generated/catalog-wgsl.js';
import { CATALOG } from '../generated/catalog.js';
import { optionsOf, describe } from '../options.js';
import { deviceLost, lostMessage } from '../webgpu-device.js';
import { judgeRoutines, judgeVecRoutines } from './judge.js';
import { answersNeeded, loadAnswers, knownAnswers } from './known-answers.js';
import {
  CheckFailure, now, summarize, emptyResult, settle, routinesAskedFor, stagesAskedFor, flatRows, mergeStages,
} from './results.js';

/** @import { CheckResult } from './results.js' */

/**
 * Options of `checkWebGPU`.
 * @typedef {Object} WebGPUCheckOptions
 * @property {boolean} [qf128] Also check the qf128 routines (compiles DF64_QF128_WGSL).
 * @property {string[]} [routines] Check only these routines (names as in RoutineResult.name); default all.
 * @property {Array<'compute' | 'vertex' | 'fragment'>} [stages] The stages to check in: ['compute', 'vertex'] (the default: compute shaders and a render pipeline's vertex stage), or any of 'compute', 'vertex' and 'fragment' (a render pipeline's fragment stage: one fragment per answer).
 * @property {string} [wgsl] Check this WGSL instead of the export (df64, and qf128 with options.qf128; its barrier buffer, if any, at @group(0) @binding(0)).
 * @property {'storage' | 'uniform'} [zero] The kind of the barrier's buffer in `wgsl`: 'storage' (read-only, as exported; default) or 'uniform' (`df64gl wgsl --zero uniform`).
 */

// checkWebGPU's.
const WEBGPU_CHECK_OPTIONS = { qf128: 'boolean', routines: 'array', stages: 'array', wgsl: 'string', zero: 'string' };

// The check's own buffers sit at group 1; the export's barrier buffer at group 0, binding 0 (a
// read-only storage buffer, or with options.zero === 'uniform' a uniform one). Per routine a
// range (at a dynamic offset): its first output, how many, where its inputs start, and the
// width of the vertex stage's target row.
const WGSL_IO = '\n// ---- df64gl known-answer check\n' +
  '@group(1) @binding(0) var<storage, read> df64gl_in: array<vec4<f32>>;\n' +
  '@group(1) @binding(1) var<storage, read_write> df64gl_out: array<vec4<f32>>;\n' +
  'struct Df64glRange { first: u32, count: u32, input: u32, width: u32 }\n' +
  '@group(1) @binding(2) var<uniform> df64gl_range: Df64glRange;\n' +
  'struct Df64glVertex { @builtin(position) position: vec4<f32>, @location(0) @interpolate(flat) bits: vec4<u32> }\n' +
  '@fragment\nfn df64gl_fs(v: Df64glVertex) -> @location(0) vec4<f32> { return bitcast<vec4<f32>>(v.bits); }\n';

const RANGE_SLOT = 256;

// The stages checkWebGPU can prove the routines in (the fragment stage on request: the
// render form of createFftWebGPU runs there).
const WEBGPU_STAGES = ['compute', 'vertex', 'fragment'];

// The value routine k writes at output i (df64gl_value_k), and its compute, vertex and fragment
// entry points.
function wgslRoutine(set, r, k) {
  let helpers = '';
  let body;
  if (set.words === 2) {
    body = '  let c = df64gl_range.first + i;\n  let a: vec2<f32> = df64gl_in[2u * c].xy;\n' +
      '  let b: vec2<f32> = df64gl_in[2u * c + 1u].xy;\n  return vec4<f32>(' + r.wgsl + ', 0.0, 0.0);\n';
  } else if (set.words === 4) {
    body = '  let c = df64gl_range.first + i;\n  let a: vec4<f32> = df64gl_in[2u * c];\n' +
      '  let b: vec4<f32> = df64gl_in[2u * c + 1u];\n  return ' + r.wgsl + ';\n';
  } else {
    // A vector routine: its df64gl_vec_out and df64gl_in renamed for routine k (WGSL has no
    // overloading), its operand texels from the range's input.
    const tIn = Math.ceil(r.inputs / 2);
    const tOut = Math.ceil(r.outputs / 2);
    helpers = 'fn df64gl_vin_' + k + '(e: i32, j: i32) -> vec2<f32> {\n' +
      '  let q = df64gl_in[df64gl_range.input + u32(e * ' + tIn + ' + j / 2)];\n' +
      '  if ((j - 2 * (j / 2)) == 0) { return q.xy; }\n  return q.zw;\n}\n' +
      r.wgsl.split('df64gl_vec_out').join('df64gl_vec_out_' + k).split('df64gl_in(').join('df64gl_vin_' + k + '(');
    body = '  let col = i32(i);\n  let e = col / ' + tOut + ';\n  return df64gl_vec_out_' + k + '(e, col - ' + tOut + ' * e);\n';
  }
  return helpers +
    'fn df64gl_value_' + k + '(i: u32) -> vec4<f32> {\n' + body + '}\n' +
    '@compute @workgroup_size(64)\nfn df64gl_known_' + k + '(@builtin(global_invocation_id) id: vec3<u32>) {\n' +
    '  if (id.x >= df64gl_range.count) { return; }\n' +
    '  df64gl_out[df64gl_range.first + id.x] = df64gl_value_' + k + '(id.x);\n}\n' +
    '@vertex\nfn df64gl_vs_' + k + '(@builtin(vertex_index) i: u32) -> Df64glVertex {\n' +
    '  var v: Df64glVertex;\n' +
    '  v.position = vec4<f32>((f32(i) + 0.5) / f32(df64gl_range.width) * 2.0 - 1.0, 0.0, 0.0, 1.0);\n' +
    '  v.bits = bitcast<vec4<u32>>(df64gl_value_' + k + '(i));\n  return v;\n}\n' +
    '@fragment\nfn df64gl_fs_' + k + '(@builtin(position) p: vec4<f32>) -> @location(0) vec4<f32> {\n' +
    '  return df64gl_value_' + k + '(u32(p.x));\n}\n';
}

// A triangle that covers the viewport (the fragment stage's check draws row k of its target).
const WGSL_COVER = '@vertex\nfn df64gl_cover(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {\n' +
  '  return vec4<f32>(f32(i & 1u) * 4.0 - 1.0, f32(i >> 1u) * 4.0 - 1.0, 0.0, 1.0);\n}\n';

// Every chosen routine of a set in the stages asked (compute: one dispatch per routine; vertex:
// one point per output texel into a row of an rgba32float target, handed to the fragment
// shader flat; fragment: one fragment per output texel of such a row, under a triangle that
// covers it), one module holding them all. Returns per stage a function out(k) giving routine
// k's output texels (4 floats each), and the times.
async function runSetWebGPU(device, source, set, label, chosen, opts, stages) {
  const isVec = set.words === undefined;
  const U = GPUBufferUsage;
  // Inputs: scalar sets two texels a case (a, b); vector sets their operand texels.
  const inputs = [];
  const counts = [];
  let c = 0;
  set.routines.forEach(function (r, k) {
    if (isVec) {
      const tIn = Math.ceil(r.inputs / 2);
      const input = new Float32Array(4 * tIn * r.evaluations);
      for (let e = 0; e < r.evaluations; e++) {
        const at = set.offsets[k].f32 + e * 2 * (r.inputs + r.outputs);
        input.set(set.f32.subarray(at, at + 2 * r.inputs), 4 * tIn * e);
      }
      inputs.push(input);
      counts.push(Math.ceil(r.outputs / 2) * r.evaluations);
    } else {
      const words = set.words;
      const stride = 3 * words + 1;
      const input = new Float32Array(8 * r.cases);
      for (let i = 0; i < r.cases; i++, c++) {
        for (let j = 0; j < words; j++) {
          input[8 * i + j] = set.f32[stride * c + j];
          input[8 * i + 4 + j] = set.f32[stride * c + words + j];
        }
      }
      inputs.push(input);
      counts.push(r.cases);
    }
  });
  const width = counts.reduce(function (m, x) { return Math.max(m, x); }, 1);
  const ranges = new Uint32Array(RANGE_SLOT / 4 * set.routines.length);
  const total = counts.reduce(function (a, b) { return a + b; }, 0);
  const input = new Float32Array(inputs.reduce(function (n, x) { return n + x.length; }, 0) || 4);
  let first = 0;
  let inputAt = 0;
  set.routines.forEach(function (r, k) {
    ranges[k * RANGE_SLOT / 4] = first;
    ranges[k * RANGE_SLOT / 4 + 1] = counts[k];
    ranges[k * RANGE_SLOT / 4 + 2] = inputAt / 4;
    ranges[k * RANGE_SLOT / 4 + 3] = width;
    input.set(inputs[k], inputAt);
    first += counts[k];
    inputAt += inputs[k].length;
  });
  let code = source + WGSL_IO + WGSL_COVER;
  set.routines.forEach(function (r, k) { if (chosen(r)) code += wgslRoutine(set, r, k); });
  const made = [];
  const buffer = function (size, usage, data) {
    const b = device.createBuffer({ size: size, usage: usage, mappedAtCreation: !!data });
    made.push(b);
    if (data) {
      new Uint8Array(b.getMappedRange()).set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
      b.unmap();
    }
    return b;
  };
  // The scope is popped on every path: one left pushed would swallow the caller's errors.
  let scoped = false;
  try {
    device.pushErrorScope('validation');
    scoped = true;
    const module = device.createShaderModule({ code: code, label: 'df64gl ' + label + ' known answers' });
    const info = module.getCompilationInfo ? await module.getCompilationInfo() : { messages: [] };
    const errors = info.messages.filter(function (m) { return m.type === 'error'; });
    if (errors.length) {
      scoped = false;
      await device.popErrorScope();
      throw new CheckFailure('the ' + label + ' WGSL does not compile here: ' + errors.map(function (m) {
        return m.lineNum + ':' + m.linePos + ' ' + m.message;
      }).slice(0, 3).join('; '));
    }
    const S = GPUShaderStage;
    const zeroKind = opts.zero === 'uniform' ? 'uniform' : 'read-only-storage';
    const zeroLayout = device.createBindGroupLayout({ entries: [
      { binding: 0, visibility: S.COMPUTE | S.VERTEX | S.FRAGMENT, buffer: { type: zeroKind } }] });
    const ioLayout = device.createBindGroupLayout({ entries: [
      { binding: 0, visibility: S.COMPUTE, buffer: { type: 'read-only-storage' } },
      { binding: 1, visibility: S.COMPUTE, buffer: { type: 'storage' } },
      { binding: 2, visibility: S.COMPUTE, buffer: { type: 'uniform', hasDynamicOffset: true } }] });
    // The vertex stage may not write storage buffers: its layout leaves the output out.
    const vertexIoLayout = device.createBindGroupLayout({ entries: [
      { binding: 0, visibility: S.VERTEX | S.FRAGMENT, buffer: { type: 'read-only-storage' } },
      { binding: 2, visibility: S.VERTEX | S.FRAGMENT, buffer: { type: 'uniform', hasDynamicOffset: true } }] });
    const zero = buffer(16, U.UNIFORM | U.STORAGE, new Uint32Array(4));
    const inBuf = buffer(input.byteLength, U.STORAGE, input);
    const rangeBuf = buffer(ranges.byteLength, U.UNIFORM, ranges);
    const zeroGroup = device.createBindGroup({ layout: zeroLayout, entries: [
      { binding: 0, resource: { buffer: zero } }] });
    const times = set.routines.map(function () { return 0; });
    const encoder = device.createCommandEncoder();
    let computeRead = null;
    if (stages.compute) {
      const outBuf = buffer(16 * Math.max(total, 1), U.STORAGE | U.COPY_SRC);
      computeRead = buffer(16 * Math.max(total, 1), U.MAP_READ | U.COPY_DST);
      const layout = device.createPipelineLayout({ bindGroupLayouts: [zeroLayout, ioLayout] });
      const ioGroup = device.createBindGroup({ layout: ioLayout, entries: [
        { binding: 0, resource: { buffer: inBuf } },
        { binding: 1, resource: { buffer: outBuf } },
        { binding: 2, resource: { buffer: rangeBuf, size: 16 } }] });
      // Every pipeline's compile started at once (Dawn compiles them on its worker threads: 1.4x
      // faster for every routine on SwiftShader's two cores than one after the other); a
      // routine's time is then from the start to its pipeline being ready.
      const started = now();
      const pending = set.routines.map(function (r, k) {
        return chosen(r) ? device.createComputePipelineAsync({
          layout: layout,
          compute: { module: module, entryPoint: 'df64gl_known_' + k },
        }) : null;
      });
      for (let k = 0; k < set.routines.length; k++) {
        if (!pending[k]) continue;
        const pipeline = await pending[k];
        times[k] += now() - started;
        const pass = encoder.beginComputePass();
        pass.setPipeline(pipeline);
        pass.setBindGroup(0, zeroGroup);
        pass.setBindGroup(1, ioGroup, [k * RANGE_SLOT]);
        pass.dispatchWorkgroups(Math.ceil(counts[k] / 64));
        pass.end();
      }
      encoder.copyBufferToBuffer(outBuf, 0, computeRead, 0, 16 * Math.max(total, 1));
    }
    const rowBytes = Math.ceil(16 * width / 256) * 256;
    // vertex: one point per output; fragment: a covering triangle over the row.
    const renderStage = async function (stage) {
      const target = device.createTexture({
        size: [width, set.routines.length],
        format: 'rgba32float',
        usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC,
      });
      made.push(target);
      const read = buffer(rowBytes * set.routines.length, U.MAP_READ | U.COPY_DST);
      const layout = device.createPipelineLayout({ bindGroupLayouts: [zeroLayout, vertexIoLayout] });
      const ioGroup = device.createBindGroup({ layout: vertexIoLayout, entries: [
        { binding: 0, resource: { buffer: inBuf } },
        { binding: 2, resource: { buffer: rangeBuf, size: 16 } }] });
      const vertex = stage === 'vertex';
      const started = now();
      const pipelines = await Promise.all(set.routines.map(function (r, k) {
        if (!chosen(r)) return null;
        return device.createRenderPipelineAsync({
          layout: layout,
          vertex: { module: module, entryPoint: vertex ? 'df64gl_vs_' + k : 'df64gl_cover' },
          fragment: { module: module, entryPoint: vertex ? 'df64gl_fs' : 'df64gl_fs_' + k, targets: [{ format: 'rgba32float' }] },
          primitive: { topology: vertex ? 'point-list' : 'triangle-list' },
        }).then(function (pipeline) {
          times[k] += now() - started;
          return pipeline;
        });
      }));
      const pass = encoder.beginRenderPass({ colorAttachments: [{
        view: target.createView(), loadOp: 'clear', storeOp: 'store', clearValue: [0, 0, 0, 0] }] });
      pass.setBindGroup(0, zeroGroup);
      pipelines.forEach(function (pipeline, k) {
        if (!pipeline) return;
        pass.setPipeline(pipeline);
        pass.setBindGroup(1, ioGroup, [k * RANGE_SLOT]);
        if (stage === 'vertex') {
          pass.setViewport(0, k, width, 1, 0, 1);
          pass.draw(counts[k]);
        } else {
          pass.setViewport(0, k, counts[k], 1, 0, 1);
          pass.draw(3);
        }
      });
      pass.end();
      encoder.copyTextureToBuffer({ texture: target }, { buffer: read, bytesPerRow: rowBytes },
        [width, set.routines.length]);
      return read;
    };
    const vertexRead = stages.vertex ? await renderStage('vertex') : null;
    const fragmentRead = stages.fragment ? await renderStage('fragment') : null;
    device.queue.submit([encoder.finish()]);
    scoped = false;
    const error = await device.popErrorScope();
    if (error) throw new CheckFailure('WebGPU error during the ' + label + ' check: ' + error.message);
    const out = { compute: null, vertex: null, fragment: null, times: times };
    if (computeRead) {
      await computeRead.mapAsync(GPUMapMode.READ);
      const px = new Float32Array(computeRead.getMappedRange().slice(0));
      computeRead.unmap();
      out.compute = function (k) {
        const at = 4 * ranges[k * RANGE_SLOT / 4];
        return px.subarray(at, at + 4 * counts[k]);
      };
    }
    for (const [stage, read] of [['vertex', vertexRead], ['fragment', fragmentRead]]) {
      if (!read) continue;
      await read.mapAsync(GPUMapMode.READ);
      const px = new Float32Array(read.getMappedRange().slice(0));
      read.unmap();
      out[stage] = function (k) {
        const at = k * rowBytes / 4;
        return px.subarray(at, at + 4 * counts[k]);
      };
    }
    return out;
  } finally {
    if (scoped) await device.popErrorScope().catch(function () {});
    made.forEach(function (b) { b.destroy(); });
  }
}

// One stage's results from the sets' outputs (out(k): routine k's texels).
function webgpuStage(known, chosen, df64, vectors, qf128, stage) {
  const scalar = function (set, run) {
    const v = flatRows(set, chosen, run[stage]);
    return judgeRoutines(known, set, chosen, v.at, v.px, run.times);
  };
  const routines = scalar(known.df64, df64);
  const vec = judgeVecRoutines(known, known.df64vec, chosen, function (k, e) {
    const tOut = Math.ceil(known.df64vec.routines[k].outputs / 2);
    return vectors[stage](k).subarray(4 * tOut * e, 4 * tOut * (e + 1));
  }, vectors.times);
  let q = null;
  if (qf128) {
    const rows = scalar(known.qf128, qf128);
    q = { pass: rows.every(function (r) { return r.pass; }), routines: rows };
  }
  const fine = function (rows) { return rows.every(function (r) { return r.pass; }); };
  return { pass: fine(routines) && fine(vec) && !(q && !q.pass), probe: null, routines: routines, vectors: vec, qf128: q };
}

function adapterOf(device) {
  const info = device.adapterInfo;
  if (!info) return 'unknown';
  return [info.vendor, info.architecture, info.device, info.description]
    .filter(function (x) { return x; }).join(' ') || 'unknown';
}

// A set of known answers with each routine's WGSL (generated/catalog-wgsl.js) as `wgsl`.
function withWgsl(set, key) {
  return Object.assign({}, set, {
    routines: set.routines.map(function (r, k) { return Object.assign({}, r, { wgsl: WGSL_CALLS[key][k] }); }),
  });
}

/**
 * Proves the WGSL routines (DF64_WGSL; with `options.qf128`, DF64_QF128_WGSL) on this WebGPU
 * device: every routine on the known answers `check` runs, judged alike, in a compute shader
 * and in a render pipeline's vertex stage. Resolves to the same kind of result as `check(gl)`
 * (no probe shader: the known answers include twoSum and twoProduct; `stages` has `compute`
 * and `vertex`); never rejects for a device that fails (CheckResult: check/results.js).
 * @param {object | null | undefined} device
 * @param {WebGPUCheckOptions} [options]
 * @returns {Promise<CheckResult>}
 */
export async function checkWebGPU(device, options) {
  const opts = optionsOf(options, WEBGPU_CHECK_OPTIONS, 'checkWebGPU');
  const stages = stagesAskedFor(opts, WEBGPU_STAGES, { compute: true, vertex: true, fragment: false }, 'checkWebGPU');
  const only = routinesAskedFor(CATALOG, opts, 'checkWebGPU');
  if (opts.zero !== undefined && opts.zero !== 'storage' && opts.zero !== 'uniform') {
    throw new RangeError("df64gl: checkWebGPU's options.zero is 'storage' or 'uniform', not " + describe(opts.zero));
  }
  const t0 = now();
  const result = emptyResult();
  result.stages = { compute: null, vertex: null, fragment: null };
  const done = function (pass, reason) {
    return settle(result, pass, reason, t0);
  };
  if (!device || typeof device.createShaderModule !== 'function' || typeof GPUBufferUsage === 'undefined') {
    return done(false, 'no WebGPU device: pass the GPUDevice your renderer uses (navigator.gpu.requestAdapter(), then adapter.requestDevice())');
  }
  result.renderer = adapterOf(device);
  const source = typeof opts.wgsl === 'string' ? opts.wgsl : opts.qf128 ? DF64_QF128_WGSL : DF64_WGSL;
  // A destroyed or lost device runs nothing and reports no error: say so.
  const lost = await deviceLost(device);
  if (lost) return done(false, lostMessage(lost));
  try {
    await loadAnswers(answersNeeded(only, opts.qf128));
    const known = knownAnswers();
    const chosen = function (r) { return !only || only.indexOf(r.name) >= 0; };
    const df64 = await runSetWebGPU(device, source, withWgsl(known.df64, 'df64'), 'df64', chosen, opts, stages);
    const vectors = await runSetWebGPU(device, source, withWgsl(known.df64vec, 'df64vec'), 'df64 vector', chosen, opts, stages);
    const qf128 = opts.qf128 ? await runSetWebGPU(device, source, withWgsl(known.qf128, 'qf128'), 'qf128', chosen, opts, stages) : null;
    WEBGPU_STAGES.forEach(function (stage) {
      if (stages[stage]) result.stages[stage] = webgpuStage(known, chosen, df64, vectors, qf128, stage);
    });
    const run = WEBGPU_STAGES.filter(function (x) { return result.stages[x]; }).map(function (x) { return result.stages[x]; });
    result.routines = mergeStages(run.map(function (s) { return s.routines; }));
    result.vectors = mergeStages(run.map(function (s) { return s.vectors; }));
    if (opts.qf128) {
      const rows = mergeStages(run.map(function (s) { return s.qf128.routines; }));
      result.qf128 = { pass: rows.every(function (r) { return r.pass; }), routines: rows };
    }
    const out = [];
    WEBGPU_STAGES.forEach(function (stage) {
      const s = result.stages[stage];
      if (!s) return;
      const f = summarize(s.routines.concat(s.vectors));
      if (f) out.push('df64 routines off their bounds on ' + result.renderer + ' in the ' + stage + ' stage: ' + f);
      if (s.qf128 && !s.qf128.pass) {
        out.push('qf128 routines off their bounds on ' + result.renderer + ' in the ' + stage + ' stage: ' + summarize(s.qf128.routines));
      }
    });
    const names = WEBGPU_STAGES.filter(function (x) { return stages[x]; });
    const which = names.length > 1 ? names.slice(0, -1).join(', ') + ' and ' + names[names.length - 1] + ' stages' : names[0] + ' stage';
    return done(!out.length, out.length ? out.join('; ') : 'df64' + (result.qf128 ? ' and qf128' : '') + ' exact on ' + result.renderer + ' in the ' + which);
  } catch (e) {
    // A device lost during the check fails its work in many ways: the loss is the reason.
    const lostNow = await deviceLost(device);
    if (lostNow) return done(false, lostMessage(lostNow));
    return done(false, e instanceof CheckFailure ? e.reason : 'the check could not run: ' + (e && e.message ? e.message : String(e)));
  }
}
