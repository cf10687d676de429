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
