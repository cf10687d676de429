// gl-state.js: the caller's WebGL 2 state that df64gl's draws touch, saved before them and put
// back after (the check and the FFT run on the caller's own context, between its frames), and
// the neutral state those draws need: nothing the caller enabled may clip, blend or discard.

const CAPS = ['BLEND', 'CULL_FACE', 'DEPTH_TEST', 'SCISSOR_TEST', 'STENCIL_TEST', 'RASTERIZER_DISCARD',
  'SAMPLE_COVERAGE', 'SAMPLE_ALPHA_TO_COVERAGE', 'DITHER'];
const PIXEL_STORE = [['PACK_ALIGNMENT', 4], ['UNPACK_ALIGNMENT', 4], ['PACK_ROW_LENGTH', 0],
  ['PACK_SKIP_ROWS', 0], ['PACK_SKIP_PIXELS', 0], ['UNPACK_ROW_LENGTH', 0], ['UNPACK_IMAGE_HEIGHT', 0],
  ['UNPACK_SKIP_ROWS', 0], ['UNPACK_SKIP_PIXELS', 0], ['UNPACK_SKIP_IMAGES', 0],
  ['UNPACK_FLIP_Y_WEBGL', false], ['UNPACK_PREMULTIPLY_ALPHA_WEBGL', false],
  ['UNPACK_COLORSPACE_CONVERSION_WEBGL', 'NONE']];

/** The state of `units` texture units (both 2-D and array bindings) and everything else the draws set. */
export function saveState(gl, units) {
  const n = units || 2;
  const active = gl.getParameter(gl.ACTIVE_TEXTURE);
  const textures = [];
  for (let unit = 0; unit < n; unit++) {
    gl.activeTexture(gl.TEXTURE0 + unit);
    textures.push([gl.getParameter(gl.TEXTURE_BINDING_2D), gl.getParameter(gl.TEXTURE_BINDING_2D_ARRAY)]);
  }
  gl.activeTexture(active);
  return {
    drawFramebuffer: gl.getParameter(gl.DRAW_FRAMEBUFFER_BINDING),
    readFramebuffer: gl.getParameter(gl.READ_FRAMEBUFFER_BINDING),
    program: gl.getParameter(gl.CURRENT_PROGRAM),
    viewport: gl.getParameter(gl.VIEWPORT),
    activeTexture: active,
    textures: textures,
    vertexArray: gl.getParameter(gl.VERTEX_ARRAY_BINDING),
    arrayBuffer: gl.getParameter(gl.ARRAY_BUFFER_BINDING),
    packBuffer: gl.getParameter(gl.PIXEL_PACK_BUFFER_BINDING),
    unpackBuffer: gl.getParameter(gl.PIXEL_UNPACK_BUFFER_BINDING),
    enabled: CAPS.map(function (cap) { return [gl[cap], gl.isEnabled(gl[cap])]; }),
    colorMask: gl.getParameter(gl.COLOR_WRITEMASK),
    pixelStore: PIXEL_STORE.map(function (p) { return [gl[p[0]], gl.getParameter(gl[p[0]])]; }),
  };
}

/** The state df64gl's draws need (see the file's text). */
export function neutralState(gl) {
  gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
  gl.bindBuffer(gl.PIXEL_UNPACK_BUFFER, null);
  CAPS.forEach(function (cap) { gl.disable(gl[cap]); });
  gl.colorMask(true, true, true, true);
  PIXEL_STORE.forEach(function (p) {
    gl.pixelStorei(gl[p[0]], typeof p[1] === 'string' ? gl[p[1]] : p[1]);
  });
}

/** Puts back what `saveState` saw. */
export function restoreState(gl, s) {
  gl.bindFramebuffer(gl.DRAW_FRAMEBUFFER, s.drawFramebuffer);
  gl.bindFramebuffer(gl.READ_FRAMEBUFFER, s.readFramebuffer);
  gl.useProgram(s.program);
  gl.viewport(s.viewport[0], s.viewport[1], s.viewport[2], s.viewport[3]);
  s.textures.forEach(function (t, unit) {
    gl.activeTexture(gl.TEXTURE0 + unit);
    gl.bindTexture(gl.TEXTURE_2D, t[0]);
    gl.bindTexture(gl.TEXTURE_2D_ARRAY, t[1]);
  });
  gl.activeTexture(s.activeTexture);
  gl.bindVertexArray(s.vertexArray);
  gl.bindBuffer(gl.ARRAY_BUFFER, s.arrayBuffer);
  gl.bindBuffer(gl.PIXEL_PACK_BUFFER, s.packBuffer);
  gl.bindBuffer(gl.PIXEL_UNPACK_BUFFER, s.unpackBuffer);
  s.enabled.forEach(function (e) { if (e[1]) gl.enable(e[0]); else gl.disable(e[0]); });
  gl.colorMask(s.colorMask[0], s.colorMask[1], s.colorMask[2], s.colorMask[3]);
  s.pixelStore.forEach(function (p) { gl.pixelStorei(p[0], p[1]); });
}
