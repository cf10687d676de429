// caller-state.js: the WebGL state a test page sets up as "the caller" before df64gl draws on
// its context (check in js-check.html, createFft in js-fft.html), and what of it is still in
// place afterwards: each field true where the binding or setting is the caller's.

export function callerState(gl) {
  const fb = gl.createFramebuffer();
  const tex = gl.createTexture();
  gl.activeTexture(gl.TEXTURE1);
  gl.bindTexture(gl.TEXTURE_2D, tex);
  gl.texStorage2D(gl.TEXTURE_2D, 1, gl.RGBA8, 4, 4);
  gl.bindFramebuffer(gl.FRAMEBUFFER, fb);
  gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, tex, 0);
  const arr = gl.createTexture();
  gl.activeTexture(gl.TEXTURE0);
  gl.bindTexture(gl.TEXTURE_2D_ARRAY, arr);
  const vao = gl.createVertexArray();
  gl.bindVertexArray(vao);
  const buf = gl.createBuffer();
  gl.bindBuffer(gl.ARRAY_BUFFER, buf);
  const vs = gl.createShader(gl.VERTEX_SHADER);
  gl.shaderSource(vs, '#version 300 es\nvoid main() { gl_Position = vec4(0.0); }\n');
  gl.compileShader(vs);
  const fs = gl.createShader(gl.FRAGMENT_SHADER);
  gl.shaderSource(fs, '#version 300 es\nprecision highp float;\nout vec4 o;\nvoid main() { o = vec4(1.0); }\n');
  gl.compileShader(fs);
  const prog = gl.createProgram();
  gl.attachShader(prog, vs);
  gl.attachShader(prog, fs);
  gl.linkProgram(prog);
  gl.useProgram(prog);
  gl.viewport(1, 2, 3, 4);
  gl.enable(gl.SCISSOR_TEST);
  gl.scissor(0, 0, 1, 1);
  gl.enable(gl.BLEND);
  gl.pixelStorei(gl.UNPACK_ALIGNMENT, 1);
  gl.activeTexture(gl.TEXTURE3);
  return { fb: fb, tex: tex, arr: arr, vao: vao, buf: buf, prog: prog, errorBefore: gl.getError() };
}

export function stateAfter(gl, s) {
  const active = gl.getParameter(gl.ACTIVE_TEXTURE) - gl.TEXTURE0;
  gl.activeTexture(gl.TEXTURE1);
  const texture1 = gl.getParameter(gl.TEXTURE_BINDING_2D) === s.tex;
  gl.activeTexture(gl.TEXTURE0);
  const array0 = gl.getParameter(gl.TEXTURE_BINDING_2D_ARRAY) === s.arr;
  return {
    errorBefore: s.errorBefore,
    activeTexture: active,
    framebuffer: gl.getParameter(gl.FRAMEBUFFER_BINDING) === s.fb,
    program: gl.getParameter(gl.CURRENT_PROGRAM) === s.prog,
    vertexArray: gl.getParameter(gl.VERTEX_ARRAY_BINDING) === s.vao,
    arrayBuffer: gl.getParameter(gl.ARRAY_BUFFER_BINDING) === s.buf,
    texture1: texture1,
    array0: array0,
    viewport: Array.from(gl.getParameter(gl.VIEWPORT)),
    scissor: gl.isEnabled(gl.SCISSOR_TEST),
    blend: gl.isEnabled(gl.BLEND),
    unpackAlignment: gl.getParameter(gl.UNPACK_ALIGNMENT),
    error: gl.getError(),
  };
}

// The WebGL 2 state a draw depends on (the spec's state tables: bindings, capabilities, masks,
// viewport and scissor, pixel store, transform feedback, and each of the first `units` texture
// units' 2-D, array, 3-D and cube bindings and sampler), as comparable values: objects as the
// index of their first appearance in `objects`.
const PARAMS = ['ACTIVE_TEXTURE', 'ARRAY_BUFFER_BINDING', 'ELEMENT_ARRAY_BUFFER_BINDING', 'COPY_READ_BUFFER_BINDING',
  'COPY_WRITE_BUFFER_BINDING', 'PIXEL_PACK_BUFFER_BINDING', 'PIXEL_UNPACK_BUFFER_BINDING', 'UNIFORM_BUFFER_BINDING',
  'TRANSFORM_FEEDBACK_BUFFER_BINDING', 'TRANSFORM_FEEDBACK_BINDING', 'TRANSFORM_FEEDBACK_ACTIVE', 'TRANSFORM_FEEDBACK_PAUSED',
  'CURRENT_PROGRAM', 'DRAW_FRAMEBUFFER_BINDING', 'READ_FRAMEBUFFER_BINDING', 'RENDERBUFFER_BINDING', 'VERTEX_ARRAY_BINDING',
  'VIEWPORT', 'SCISSOR_BOX', 'COLOR_WRITEMASK', 'COLOR_CLEAR_VALUE', 'DEPTH_WRITEMASK', 'DEPTH_FUNC', 'DEPTH_RANGE',
  'STENCIL_WRITEMASK', 'STENCIL_FUNC', 'STENCIL_REF', 'BLEND_SRC_RGB', 'BLEND_DST_RGB', 'BLEND_EQUATION_RGB', 'BLEND_COLOR',
  'CULL_FACE_MODE', 'FRONT_FACE', 'LINE_WIDTH', 'POLYGON_OFFSET_FACTOR', 'POLYGON_OFFSET_UNITS', 'SAMPLE_COVERAGE_VALUE',
  'PACK_ALIGNMENT', 'UNPACK_ALIGNMENT', 'PACK_ROW_LENGTH', 'UNPACK_ROW_LENGTH', 'UNPACK_IMAGE_HEIGHT', 'UNPACK_SKIP_ROWS',
  'UNPACK_SKIP_PIXELS', 'UNPACK_SKIP_IMAGES', 'PACK_SKIP_ROWS', 'PACK_SKIP_PIXELS', 'UNPACK_FLIP_Y_WEBGL',
  'UNPACK_PREMULTIPLY_ALPHA_WEBGL', 'UNPACK_COLORSPACE_CONVERSION_WEBGL', 'READ_BUFFER', 'DRAW_BUFFER0'];
const CAPS = ['BLEND', 'CULL_FACE', 'DEPTH_TEST', 'DITHER', 'POLYGON_OFFSET_FILL', 'RASTERIZER_DISCARD',
  'SAMPLE_ALPHA_TO_COVERAGE', 'SAMPLE_COVERAGE', 'SCISSOR_TEST', 'STENCIL_TEST'];

export function snapshot(gl, units, objects) {
  const value = function (v) {
    if (v !== null && typeof v === 'object' && !ArrayBuffer.isView(v) && !Array.isArray(v)) {
      if (objects.indexOf(v) < 0) objects.push(v);
      return 'object ' + objects.indexOf(v);
    }
    return ArrayBuffer.isView(v) || Array.isArray(v) ? Array.from(v) : v;
  };
  const out = {};
  PARAMS.forEach(function (p) { out[p] = value(gl.getParameter(gl[p])); });
  CAPS.forEach(function (c) { out['enabled ' + c] = gl.isEnabled(gl[c]); });
  const active = gl.getParameter(gl.ACTIVE_TEXTURE);
  for (let u = 0; u < units; u++) {
    gl.activeTexture(gl.TEXTURE0 + u);
    ['TEXTURE_BINDING_2D', 'TEXTURE_BINDING_2D_ARRAY', 'TEXTURE_BINDING_3D', 'TEXTURE_BINDING_CUBE_MAP', 'SAMPLER_BINDING']
      .forEach(function (p) { out['unit ' + u + ' ' + p] = value(gl.getParameter(gl[p])); });
  }
  gl.activeTexture(active);
  return out;
}

// The keys whose values differ between two snapshots, with both values.
export function changes(before, after) {
  return Object.keys(before).filter(function (k) {
    return JSON.stringify(before[k]) !== JSON.stringify(after[k]);
  }).map(function (k) { return k + ': ' + JSON.stringify(before[k]) + ' -> ' + JSON.stringify(after[k]); });
}
