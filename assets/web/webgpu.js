// df64gl WebGPU page: prove the WGSL export in this browser's WebGPU with the npm module's
// checkWebGPU() (inlined before this script by `df64gl web`, with DF64_WGSL and
// DF64_QF128_WGSL), then draw the Mandelbrot set in f32 next to df64 (and qf128) through the
// WGSL export with pan and zoom (view.js, before this script). The Mandelbrot WGSL
// (assets/web/mandelbrot.wgsl) is in the JSON element #df64gl-data. When the page has settled
// (drawn, or failed with its reason) it dispatches the event `df64gl-ready` on window.
(function () {
  'use strict';
  const DATA = JSON.parse(document.getElementById('df64gl-data').textContent);
  const params = new URLSearchParams(location.search);
  const simulate = params.get('simulate') || '';
  const el = function (id) { return document.getElementById(id); };
  const canvas = el('mandel');

  // ------------------------------------------------------------------ WebGPU
  // Two modules, each the export pasted as a user would, then the Mandelbrot after it.
  const MODULES = {
    df64: DF64_WGSL + '\n' + DATA.mandelbrot_wgsl,
    qf128: DF64_QF128_WGSL + '\n' + DATA.mandelbrot_wgsl + '\n' + DATA.mandelbrot_qf128_wgsl,
  };
  const PANES = [
    { name: 'f32', module: 'df64', entry: 'mandel_f32_pane' },
    { name: 'df64', module: 'df64', entry: 'mandel_df64_pane' },
    { name: 'qf128', module: 'qf128', entry: 'mandel_qf128_pane' },
  ];
  // MandelParams in mandelbrot.wgsl: two vec4, a vec2, an f32, an i32 (48 bytes).
  const PARAM_BYTES = 48;
  let device = null;
  let context = null;
  let format = null;
  let layout = null;
  let bindLayout = null;
  let zero = null;
  let target = null;
  const modules = {};
  const pipelines = {};
  const paneParams = [];

  async function moduleOf(name) {
    if (!modules[name]) {
      const m = device.createShaderModule({ code: MODULES[name], label: 'df64gl Mandelbrot, ' + name });
      const info = m.getCompilationInfo ? await m.getCompilationInfo() : { messages: [] };
      const errors = info.messages.filter(function (x) { return x.type === 'error'; });
      if (errors.length) {
        throw new Error('the ' + name + ' Mandelbrot WGSL does not compile here: ' + errors.map(function (x) {
          return x.lineNum + ':' + x.linePos + ' ' + x.message;
        }).slice(0, 3).join('; '));
      }
      modules[name] = m;
    }
    return modules[name];
  }

  async function pipelineOf(pane) {
    if (!pipelines[pane.name]) {
      const module = await moduleOf(pane.module);
      pipelines[pane.name] = await device.createRenderPipelineAsync({
        layout: layout,
        vertex: { module: module, entryPoint: 'mandel_vertex' },
        fragment: { module: module, entryPoint: pane.entry, targets: [{ format: format }] },
        primitive: { topology: 'triangle-list' },
      });
    }
    return pipelines[pane.name];
  }

  // The bind group of pane slot i: the export's zero and that pane's parameters.
  function paneSlot(i) {
    while (paneParams.length <= i) {
      const buffer = device.createBuffer({ size: PARAM_BYTES, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
      const group = device.createBindGroup({ layout: bindLayout, entries: [
        { binding: 0, resource: { buffer: zero } },
        { binding: 1, resource: { buffer: buffer } }] });
      paneParams.push({ buffer: buffer, group: group });
    }
    return paneParams[i];
  }

  // Every pane into an offscreen texture, each timed to its completion; then one copy to the
  // canvas (the canvas's texture may be presented between the awaits).
  async function draw(panes, view) {
    const w = canvas.width;
    const h = canvas.height;
    if (!target || target.width !== w || target.height !== h) {
      if (target) target.destroy();
      target = device.createTexture({ size: [w, h], format: format,
        usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC });
    }
    const words = view.centerWords();
    const data = new ArrayBuffer(PARAM_BYTES);
    const f = new Float32Array(data);
    const times = [];
    for (let i = 0; i < panes.length; i++) {
      const pane = panes[i];
      const pipeline = await pipelineOf(pane);
      f.set(words.re, 0);
      f.set(words.im, 4);
      // The pane's own center in framebuffer pixels: i w + w/2, h/2.
      f[8] = i * view.width + view.width / 2;
      f[9] = view.height / 2;
      f[10] = Math.fround(view.pixelSize());
      new Int32Array(data, 44, 1)[0] = view.iterations();
      const slot = paneSlot(i);
      device.queue.writeBuffer(slot.buffer, 0, data);
      const encoder = device.createCommandEncoder();
      const pass = encoder.beginRenderPass({ colorAttachments: [{
        view: target.createView(), loadOp: i === 0 ? 'clear' : 'load', storeOp: 'store',
        clearValue: { r: 0, g: 0, b: 0, a: 1 } }] });
      pass.setViewport(i * view.width, 0, view.width, view.height, 0, 1);
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, slot.group);
      pass.draw(3);
      pass.end();
      const t0 = performance.now();
      device.queue.submit([encoder.finish()]);
      await device.queue.onSubmittedWorkDone();
      times.push(pane.name + ' ' + ms(performance.now() - t0));
    }
    const encoder = device.createCommandEncoder();
    encoder.copyTextureToTexture({ texture: target }, { texture: context.getCurrentTexture() }, [w, h]);
    // The canvas presents it at the end of the frame.
    device.queue.submit([encoder.finish()]);
    return times;
  }

  // A device whose results come back one f32 ulp off, as a broken compiler's would: every
  // buffer mapped for reading has the low bit of its finite non-zero floats flipped.
  function simulateBrokenDevice() {
    const mapped = GPUBuffer.prototype.getMappedRange;
    GPUBuffer.prototype.getMappedRange = function () {
      const range = mapped.apply(this, arguments);
      if (this.usage & GPUBufferUsage.MAP_READ) {
        const floats = new Float32Array(range);
        const bits = new Uint32Array(range);
        for (let i = 0; i < bits.length; i++) if (floats[i] !== 0 && Number.isFinite(floats[i])) bits[i] ^= 1;
      }
      return range;
    };
  }

  // ------------------------------------------------------------------ start
  const view = new MandelView(DATA, params, canvas, draw);

  async function start() {
    try {
      view.readParams();
    } catch (e) {
      view.fail('bad query', String(e.message || e));
      return;
    }
    const gpu = simulate === 'no-webgpu' ? null : navigator.gpu;
    if (!gpu) {
      view.fail('this browser gives no WebGPU',
        'WebGPU is not available here (no navigator.gpu), so the WGSL df64 cannot run. WebGPU ' +
        'needs a recent browser and a secure context (https, localhost or a file); some ' +
        'browsers keep it behind a flag. The WebGL 2 page beside this one (index.html) runs ' +
        'df64 in GLSL; nothing is drawn in f32 in its place.');
      return;
    }
    const adapter = simulate === 'no-adapter' ? null : await gpu.requestAdapter();
    if (!adapter) {
      view.fail('navigator.gpu.requestAdapter() gave no adapter',
        'This browser has WebGPU but gave no adapter (no usable GPU, or WebGPU is blocked for ' +
        'it), so df64 cannot be checked and is not drawn. Try the WebGL 2 page (index.html).');
      return;
    }
    device = await adapter.requestDevice();
    const info = adapter.info || {};
    const renderer = [info.vendor, info.architecture, info.description].filter(function (x) { return x; }).join(' ') || 'unknown adapter';
    el('renderer').textContent = 'Adapter: ' + renderer + ' — WebGPU, WGSL';
    if (simulate === 'selftest-fail') simulateBrokenDevice();
    const result = await checkWebGPU(device, { qf128: true, routines: MANDEL_CHECKED });
    if (!result.routines.length) {
      view.fail('the self-test could not run', 'The self-test could not run in this browser: ' + result.reason + '. df64 is not drawn.');
      return;
    }
    const qf128ok = view.judge(result, true, renderer, 'WGSL compiler', 'adapter', 'WGSL export');
    if (qf128ok === null) return;
    context = canvas.getContext('webgpu');
    format = gpu.getPreferredCanvasFormat();
    context.configure({ device: device, format: format, alphaMode: 'opaque',
      usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_DST });
    bindLayout = device.createBindGroupLayout({ entries: [
      { binding: 0, visibility: GPUShaderStage.FRAGMENT, buffer: { type: 'read-only-storage' } },
      { binding: 1, visibility: GPUShaderStage.FRAGMENT, buffer: { type: 'uniform' } }] });
    layout = device.createPipelineLayout({ bindGroupLayouts: [bindLayout] });
    // The export's barrier reads its zero from here: 16 bytes of zeros, never written.
    zero = device.createBuffer({ size: 16, usage: GPUBufferUsage.STORAGE });
    view.attachControls(PANES, qf128ok);
    await view.start();
    // Two frames: the canvas has presented the copy when the page says it is ready.
    await new Promise(function (resolve) {
      requestAnimationFrame(function () { requestAnimationFrame(resolve); });
    });
  }

  start().catch(function (e) { view.drawingFailed(e); }).finally(function () {
    window.dispatchEvent(new Event('df64gl-ready'));
  });
})();
