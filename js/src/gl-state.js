// gl-state.js: the caller's WebGL 2 state that df64gl's draws touch, saved before them and put
// back after (the check and the FFT run on the caller's own context, between its frames), and
// the neutral state those draws need: nothing the caller enabled may clip, blend or discard,
// no sampler object the caller bound may filter the float textures (a sampler's default
// mipmapped filter makes them incomplete, and texelFetch then reads zeros), and the caller's
// transform feedback is paused while df64gl draws. The caller's pending GL errors are taken
// before df64gl's work and set again after it, so that getError() afterwards tells the caller
// what it would have told without the call, and df64gl sees only its own errors.
//
// From the WebGL 2 state tables, what a full-screen triangle into a framebuffer with texelFetch
// reads, and so what is set here: the framebuffers, program, viewport, vertex array, the
// capabilities below, color mask, texture and sampler bindings of the units used, pixel pack
// and unpack state, and transform feedback. Depth and stencil functions, blend equations,
// polygon offset, line width, scissor box and sample coverage values act only through the
// capabilities disabled here; uniform buffers, copy buffers and queries are not touched.

const CAPS = ['BLEND', 'CULL_FACE', 'DEPTH_TEST', 'SCISSOR_TEST', 'STENCIL_TEST', 'RASTERIZER_DISCARD',
  'SAMPLE_COVERAGE', 'SAMPLE_ALPHA_TO_COVERAGE', 'DITHER', 'POLYGON_OFFSET_FILL'];
const PIXEL_STORE = [['PACK_ALIGNMENT', 4], ['UNPACK_ALIGNMENT', 4], ['PACK_ROW_LENGTH', 0],
  ['PACK_SKIP_ROWS', 0], ['PACK_SKIP_PIXELS', 0], ['UNPACK_ROW_LENGTH', 0], ['UNPACK_IMAGE_HEIGHT', 0],
  ['UNPACK_SKIP_ROWS', 0], ['UNPACK_SKIP_PIXELS', 0], ['UNPACK_SKIP_IMAGES', 0],
  ['UNPACK_FLIP_Y_WEBGL', false], ['UNPACK_PREMULTIPLY_ALPHA_WEBGL', false],
  ['UNPACK_COLORSPACE_CONVERSION_WEBGL', 'NONE']];

/** The state of `units` texture units (2-D and array bindings, and the sampler object bound to
 * each) and everything else the draws set. */
export function saveState(gl, units) {
  const n = units || 2;
  const active = gl.getParameter(gl.ACTIVE_TEXTURE);
  const textures = [];
  for (let unit = 0; unit < n; unit++) {
    gl.activeTexture(gl.TEXTURE0 + unit);
    textures.push([gl.getParameter(gl.TEXTURE_BINDING_2D), gl.getParameter(gl.TEXTURE_BINDING_2D_ARRAY),
      gl.getParameter(gl.SAMPLER_BINDING)]);
  }
  gl.activeTexture(active);
  // An active transform feedback that is not paused would take df64gl's draws (and refuse
  // its useProgram): it is paused for them and resumed after.
  const feedback = gl.getParameter(gl.TRANSFORM_FEEDBACK_ACTIVE) && !gl.getParameter(gl.TRANSFORM_FEEDBACK_PAUSED);
  if (feedback) gl.pauseTransformFeedback();
  return {
    feedback: feedback,
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

/** The state df64gl's draws need (see the file's text), on the first `units` texture units. */
export function neutralState(gl, units) {
  const n = units || 2;
  for (let unit = 0; unit < n; unit++) gl.bindSampler(unit, null);
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
    gl.bindSampler(unit, t[2]);
  });
  gl.activeTexture(s.activeTexture);
  gl.bindVertexArray(s.vertexArray);
  gl.bindBuffer(gl.ARRAY_BUFFER, s.arrayBuffer);
  gl.bindBuffer(gl.PIXEL_PACK_BUFFER, s.packBuffer);
  gl.bindBuffer(gl.PIXEL_UNPACK_BUFFER, s.unpackBuffer);
  s.enabled.forEach(function (e) { if (e[1]) gl.enable(e[0]); else gl.disable(e[0]); });
  gl.colorMask(s.colorMask[0], s.colorMask[1], s.colorMask[2], s.colorMask[3]);
  s.pixelStore.forEach(function (p) { gl.pixelStorei(p[0], p[1]); });
  // After the program: resuming checks that the feedback's program is current again.
  if (s.feedback) gl.resumeTransformFeedback();
}

// The most error flags a context keeps at once: one per code (INVALID_ENUM, INVALID_VALUE,
// INVALID_OPERATION, INVALID_FRAMEBUFFER_OPERATION, OUT_OF_MEMORY, CONTEXT_LOST_WEBGL) both in
// WebGL's own list and in the driver's beneath it (Chromium returns a code from each: seen
// with INVALID_OPERATION).
const MAX_FLAGS = 12;

/** Every error flag set on the context now, read (and so cleared) one by one: the codes, each
 * once. */
export function takeErrors(gl) {
  const codes = [];
  for (let i = 0; i < MAX_FLAGS; i++) {
    const e = gl.getError();
    if (e === gl.NO_ERROR) break;
    if (codes.indexOf(e) < 0) codes.push(e);
  }
  return codes;
}

/**
 * Sets the error flags `codes` again (from takeErrors, before df64gl's work), each through a
 * call that only sets that flag (a code the context held twice comes back once).
 * OUT_OF_MEMORY and CONTEXT_LOST_WEBGL cannot be set so: the callers refuse to work after the
 * first (see outOfMemory) and stop on the second.
 */
export function putBackErrors(gl, codes) {
  codes.forEach(function (code) {
    if (code === gl.INVALID_ENUM) {
      gl.isEnabled(0);
    } else if (code === gl.INVALID_VALUE) {
      gl.getVertexAttrib(gl.getParameter(gl.MAX_VERTEX_ATTRIBS), gl.CURRENT_VERTEX_ATTRIB);
    } else if (code === gl.INVALID_OPERATION) {
      // endQuery on a target with no query active: the first such target.
      const target = [gl.ANY_SAMPLES_PASSED, gl.ANY_SAMPLES_PASSED_CONSERVATIVE, gl.TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN]
        .find(function (t) { return gl.getQuery(t, gl.CURRENT_QUERY) === null; });
      if (target !== undefined) gl.endQuery(target);
    } else if (code === gl.INVALID_FRAMEBUFFER_OPERATION) {
      // A read from a framebuffer with no attachment (incomplete), the caller's bindings kept.
      const read = gl.getParameter(gl.READ_FRAMEBUFFER_BINDING);
      const pack = gl.getParameter(gl.PIXEL_PACK_BUFFER_BINDING);
      const fb = gl.createFramebuffer();
      gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
      gl.bindFramebuffer(gl.READ_FRAMEBUFFER, fb);
      gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
      gl.bindFramebuffer(gl.READ_FRAMEBUFFER, read);
      gl.bindBuffer(gl.PIXEL_PACK_BUFFER, pack);
      gl.deleteFramebuffer(fb);
    }
  });
}

/** The message for an OUT_OF_MEMORY found pending before df64gl's work, or null. */
export function outOfMemory(gl, codes) {
  return codes.indexOf(gl.OUT_OF_MEMORY) >= 0
    ? 'WebGL reported OUT_OF_MEMORY before this call (the context\'s state is undefined after it, and the flag was read here): free memory or create a new context'
    : null;
}
