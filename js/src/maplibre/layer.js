// A ready MapLibre custom layer: points, lines or triangles given in longitude, latitude and
// altitude, with colours, drawn through df64_maplibre_position once the context has proven the
// routines it calls (checkAsync, vertex stage, once per context and library text); where the
// check fails the layer draws nothing and says why.

import { DF64_GLSL } from '../generated/glsl-df64.js';
import { describe } from '../options.js';
import { checkOncePerContext, followCheck, warnOnce } from './follow-check.js';
import { splitMercator, maplibreUniforms, maplibreGlsl, MAPLIBRE_ROUTINES } from './position.js';

const MODES = { points: 'POINTS', lines: 'LINES', 'line-strip': 'LINE_STRIP', triangles: 'TRIANGLES' };
const DEFAULT_COLOR = [1, 0.5, 0, 1];

/**
 * @typedef {Object} Df64LayerOptions
 * @property {string} id the layer's id in the map's style
 * @property {ArrayLike<number>} positions longitude, latitude (degrees), altitude (metres) triples
 * @property {'points' | 'lines' | 'line-strip' | 'triangles'} [mode] how vertices join ('points')
 * @property {ArrayLike<number>} [colors] RGBA in [0, 1]: one colour, or one per vertex
 * @property {number} [pointSize] a point's size in pixels (6)
 * @property {string} [glsl] the df64 library the layer checks and draws with (`DF64_GLSL`)
 * @property {(verdict: import('../check/results.js').CheckResult) => void} [onCheck] called once the check ends
 */

/**
 * @typedef {Object} Df64Layer a MapLibre custom layer (`map.addLayer(layer)`)
 * @property {string} id
 * @property {'custom'} type
 * @property {'2d' | '3d'} renderingMode
 * @property {(map: any, gl: WebGL2RenderingContext) => void} onAdd
 * @property {(gl: WebGL2RenderingContext, args: any) => void} render
 * @property {(map: any, gl: WebGL2RenderingContext) => void} onRemove
 * @property {(positions: ArrayLike<number>, colors?: ArrayLike<number>) => void} setData replaces the vertices
 * @property {import('../check/results.js').CheckResult | null} verdict the check's result, once it ended
 * @property {string | null} message why the layer draws nothing, or null while it draws
 */

// Colours as one RGBA per vertex, premultiplied by alpha as MapLibre blends.
function colorsOf(colors, count, id) {
  const c = colors === undefined ? DEFAULT_COLOR : colors;
  if (!c || typeof c !== 'object' || !Number.isInteger(c.length)) {
    throw new TypeError('df64Layer ' + id + ': colors are RGBA numbers in [0, 1] (one colour, or one per vertex), not ' + describe(c));
  }
  const one = c.length === 4;
  if (!one && c.length !== 4 * count) {
    throw new TypeError('df64Layer ' + id + ': colors hold ' + c.length + ' numbers: give 4 (one colour) or ' + 4 * count + ' (one per vertex)');
  }
  const out = new Float32Array(4 * count);
  for (let i = 0; i < count; i++) {
    const at = one ? 0 : 4 * i;
    for (let k = 0; k < 4; k++) {
      const v = c[at + k];
      if (typeof v !== 'number' || !(v >= 0 && v <= 1)) {
        throw new RangeError('df64Layer ' + id + ': colour component ' + (at + k) + ' is ' + describe(v) + '; colours are numbers in [0, 1]');
      }
    }
    const a = c[at + 3];
    out.set([c[at] * a, c[at + 1] * a, c[at + 2] * a, a], 4 * i);
  }
  return out;
}

// The attributes at fixed locations, so that one vertex array serves every projection's program.
const ATTRIBUTES = ['a_df64_hi', 'a_df64_lo', 'a_df64_color'];
const UNIFORMS = ['df64_maplibre_eye_hi', 'df64_maplibre_eye_lo', 'df64_maplibre_matrix', 'u_df64_point_size',
  'df64_maplibre_globe_eye_hi', 'df64_maplibre_globe_eye_lo', 'df64_maplibre_globe_matrix', 'df64_maplibre_clipping_plane',
  'df64_maplibre_transition'];

// A linked program and its uniforms' locations, or null and the driver's log.
function compile(gl, vertex, fragment) {
  const program = gl.createProgram();
  const shaders = [[gl.VERTEX_SHADER, vertex], [gl.FRAGMENT_SHADER, fragment]].map(function (k) {
    const s = gl.createShader(k[0]);
    gl.shaderSource(s, k[1]);
    gl.compileShader(s);
    gl.attachShader(program, s);
    return s;
  });
  ATTRIBUTES.forEach(function (name, at) { gl.bindAttribLocation(program, at, name); });
  gl.linkProgram(program);
  const ok = gl.getProgramParameter(program, gl.LINK_STATUS);
  const log = ok ? '' : gl.getProgramInfoLog(program) || shaders.map(function (s) { return gl.getShaderInfoLog(s); }).join(' ');
  shaders.forEach(function (s) { gl.deleteShader(s); });
  if (!ok) {
    gl.deleteProgram(program);
    return { program: null, log: log, uniforms: {} };
  }
  const uniforms = {};
  UNIFORMS.forEach(function (name) { uniforms[name] = gl.getUniformLocation(program, name); });
  return { program: program, log: '', uniforms: uniforms };
}

const FRAGMENT = `#version 300 es
precision highp float;
in vec4 v_df64_color;
out vec4 o_df64_color;
void main() { o_df64_color = v_df64_color; }
`;

/**
 * A MapLibre custom layer that draws `options.positions` (longitude, latitude, altitude
 * triples, doubles) as points, lines or triangles within MapLibre's own projection at every
 * zoom, in the mercator and globe projections. It checks the routines it calls on the map's
 * context when added (`checkAsync`, vertex stage, shared by the layers of one context) and
 * draws nothing until that passes; where the check fails (or `maplibreUniforms` refuses a
 * frame's arguments) it draws nothing, sets `message`, and says it once on the console.
 * @param {Df64LayerOptions} options
 * @returns {Df64Layer}
 */
export function df64Layer(options) {
  if (!options || typeof options !== 'object') throw new TypeError('df64Layer takes options ({ id, positions, ... }), not ' + describe(options));
  const id = options.id;
  if (typeof id !== 'string' || !id) throw new TypeError('df64Layer: options.id is the layer\'s id (a non-empty string), not ' + describe(id));
  const mode = options.mode === undefined ? 'points' : options.mode;
  if (!Object.prototype.hasOwnProperty.call(MODES, mode)) {
    throw new TypeError('df64Layer ' + id + ': mode is one of ' + Object.keys(MODES).join(', ') + ', not ' + describe(mode));
  }
  const pointSize = options.pointSize === undefined ? 6 : options.pointSize;
  if (typeof pointSize !== 'number' || !(pointSize > 0 && pointSize <= 256)) {
    throw new RangeError('df64Layer ' + id + ': pointSize is a number of pixels in (0, 256], not ' + describe(pointSize));
  }
  const library = options.glsl === undefined ? DF64_GLSL : options.glsl;
  if (typeof library !== 'string') throw new TypeError('df64Layer ' + id + ': glsl is the df64 library\'s text, not ' + describe(library));
  const onCheck = options.onCheck;
  if (onCheck !== undefined && typeof onCheck !== 'function') throw new TypeError('df64Layer ' + id + ': onCheck is a function');

  let data = null;
  const setData = function (positions, colors) {
    const words = splitMercator(positions);
    const count = words.hi.length / 3;
    data = { hi: words.hi, lo: words.lo, colors: colorsOf(colors, count, id), count: count, uploaded: false };
  };
  setData(options.positions, options.colors);

  let map = null;
  let objects = null;
  const programs = new Map();
  const tell = warnOnce();

  const layer = {
    id: id,
    type: /** @type {'custom'} */ ('custom'),
    renderingMode: /** @type {'2d' | '3d'} */ (mode === 'triangles' ? '3d' : '2d'),
    verdict: /** @type {import('../check/results.js').CheckResult | null} */ (null),
    message: /** @type {string | null} */ (null),
    onAdd: function (m, gl) {
      map = m;
      objects = { vao: gl.createVertexArray(), hi: gl.createBuffer(), lo: gl.createBuffer(), color: gl.createBuffer() };
      if (data) data.uploaded = false;
      followCheck(layer, checkOncePerContext(gl, MAPLIBRE_ROUTINES, library), 'df64Layer ' + id, 'it calls', onCheck, function () { return map; }, tell);
    },
    onRemove: function (m, gl) {
      if (objects) {
        gl.deleteVertexArray(objects.vao);
        gl.deleteBuffer(objects.hi);
        gl.deleteBuffer(objects.lo);
        gl.deleteBuffer(objects.color);
      }
      programs.forEach(function (p) { if (p.program) gl.deleteProgram(p.program); });
      programs.clear();
      objects = null;
      map = null;
    },
    setData: function (positions, colors) {
      setData(positions, colors);
      if (map && typeof map.triggerRepaint === 'function') map.triggerRepaint();
    },
    render: function (gl, args) {
      if (!objects || !data || !layer.verdict || !layer.verdict.pass) return;
      const variant = args.shaderData.variantName;
      if (!programs.has(variant)) {
        programs.set(variant, compile(gl, '#version 300 es\n' + args.shaderData.vertexShaderPrelude + '\n' + args.shaderData.define + '\n' +
          maplibreGlsl(library) + `
in vec3 a_df64_hi;
in vec3 a_df64_lo;
in vec4 a_df64_color;
out vec4 v_df64_color;
uniform float u_df64_point_size;
void main() {
  gl_Position = df64_maplibre_position(a_df64_hi, a_df64_lo);
  gl_PointSize = u_df64_point_size;
  v_df64_color = a_df64_color;
}
`, FRAGMENT));
      }
      const compiled = programs.get(variant);
      if (!compiled.program) {
        layer.message = 'df64Layer ' + id + ' draws nothing: its program did not compile here (' + compiled.log + ')';
        tell(layer.message);
        return;
      }
      let u;
      try {
        u = maplibreUniforms(map, args);
      } catch (e) {
        layer.message = 'df64Layer ' + id + ' draws nothing: ' + (e && e.message ? e.message : String(e));
        tell(layer.message);
        return;
      }
      layer.message = null;
      gl.bindVertexArray(objects.vao);
      if (!data.uploaded) {
        // The vertex array keeps the attributes: set once per upload, not per frame.
        [[objects.hi, data.hi, 3], [objects.lo, data.lo, 3], [objects.color, data.colors, 4]].forEach(function (a, at) {
          gl.bindBuffer(gl.ARRAY_BUFFER, a[0]);
          gl.bufferData(gl.ARRAY_BUFFER, a[1], gl.STATIC_DRAW);
          gl.enableVertexAttribArray(at);
          gl.vertexAttribPointer(at, a[2], gl.FLOAT, false, 0, 0);
        });
        data.uploaded = true;
      }
      const where = compiled.uniforms;
      gl.useProgram(compiled.program);
      gl.uniform3fv(where.df64_maplibre_eye_hi, u.df64_maplibre_eye_hi);
      gl.uniform3fv(where.df64_maplibre_eye_lo, u.df64_maplibre_eye_lo);
      gl.uniformMatrix4fv(where.df64_maplibre_matrix, false, u.df64_maplibre_matrix);
      if (u.df64_maplibre_globe_matrix) {
        gl.uniform3fv(where.df64_maplibre_globe_eye_hi, /** @type {Float32Array} */ (u.df64_maplibre_globe_eye_hi));
        gl.uniform3fv(where.df64_maplibre_globe_eye_lo, /** @type {Float32Array} */ (u.df64_maplibre_globe_eye_lo));
        gl.uniformMatrix4fv(where.df64_maplibre_globe_matrix, false, u.df64_maplibre_globe_matrix);
        gl.uniform4fv(where.df64_maplibre_clipping_plane, /** @type {Float32Array} */ (u.df64_maplibre_clipping_plane));
        gl.uniform1f(where.df64_maplibre_transition, /** @type {number} */ (u.df64_maplibre_transition));
      }
      gl.uniform1f(where.u_df64_point_size, pointSize);
      // MapLibre blends premultiplied colours; triangles share the map's depth (renderingMode 3d).
      gl.enable(gl.BLEND);
      gl.blendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA);
      if (mode === 'triangles') {
        gl.enable(gl.DEPTH_TEST);
        gl.depthFunc(gl.LEQUAL);
      } else {
        gl.disable(gl.DEPTH_TEST);
      }
      gl.drawArrays(gl[MODES[mode]], 0, data.count);
      gl.bindVertexArray(null);
      gl.useProgram(null);
    },
  };

  return layer;
}
