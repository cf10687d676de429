// df64gl for three.js: positions held as doubles, drawn relative to the eye in df64 by
// three.js's own materials (MeshStandardMaterial with its lights, MeshBasicMaterial,
// LineBasicMaterial, PointsMaterial, ...), through onBeforeCompile.
//
// f32 positions 6.4e6 m from the origin (a point on the Earth in Earth-centred metres) are 0.5 m
// apart; 1e9 m out, 64 m. Here a mesh keeps its positions as two f32 attributes (`position`, the
// high words, and `position_lo`), and its vertex shader computes the position relative to the
// camera in df64 (the model matrix relative to the eye, computed in JavaScript doubles, times
// the position, both df64) before anything is rounded to f32: the difference is small, so its
// f32 value is exact enough to draw. Lights, normals and fog see the same view-space position
// three.js would compute in exact arithmetic.
//
// What does not change: the depth pass of shadow maps (three's own depth material, f32 world
// positions), environment maps and anything else that reads `worldPosition` (f32 world
// coordinates), instanced and batched meshes (refused), morph targets and skinning (their
// displacement is added to the high words in f32), and an ArrayCamera (WebXR, several
// viewports in one render call): three.js uploads a material's uniforms again only when the
// material changes, so the second camera's draw would keep the first camera's eye. Check the
// context first: `checkAsync(gl, { routines: RTE_ROUTINES, stages: ['vertex'] })` (from
// df64gl, or from here), with the routines these shaders call.

import { BufferAttribute, Sphere, Vector3 } from 'three';
import { DF64_GLSL } from './generated/glsl-df64.js';
import { DF64_RTE_GLSL, rteUniforms, splitPositions } from './geometry.js';
import { routinesCalledBy } from './check/routines-called-by.js';
import { librarySlice } from './check/glsl-slice.js';

/** The df64 routines the patched vertex shaders call: pass them to `check` as `routines`. */
export const RTE_ROUTINES = routinesCalledBy(DF64_RTE_GLSL).routines;

const PROJECT_VERTEX = `
vec4 mvPosition = df64_rte_view_position(transformed, position_lo);
gl_Position = projectionMatrix * mvPosition;
`;

/**
 * Sets `geometry`'s positions from doubles (x, y, z, ...: a Float64Array or an array of numbers):
 * `position` gets the high words (three.js reads it for bounds and raycasting), `position_lo`
 * the low words, and the bounding sphere is computed from the doubles. Returns the geometry.
 * @template {{ [key: string]: any }} G
 * @param {G} geometry
 * @param {ArrayLike<number>} positions
 * @returns {G}
 */
export function setDf64Positions(geometry, positions) {
  if (!geometry || typeof geometry.setAttribute !== 'function') {
    throw new TypeError('setDf64Positions takes a BufferGeometry and its positions as doubles');
  }
  if (!positions || positions.length % 3 !== 0) {
    throw new TypeError('setDf64Positions: positions are x, y, z triples (length a multiple of 3)');
  }
  const words = splitPositions(positions);
  geometry.setAttribute('position', new BufferAttribute(words.hi, 3));
  geometry.setAttribute('position_lo', new BufferAttribute(words.lo, 3));
  // The bounds in doubles: from the f32 words alone they would be half a metre off at 6.4e6 m,
  // and frustum culling would drop small objects in view.
  const n = positions.length / 3;
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k], positions[3 * i + k]);
      max[k] = Math.max(max[k], positions[3 * i + k]);
    }
  }
  const center = [0, 1, 2].map(function (k) { return n ? (min[k] + max[k]) / 2 : 0; });
  let r2 = 0;
  for (let i = 0; i < n; i++) {
    let d = 0;
    for (let k = 0; k < 3; k++) d += (positions[3 * i + k] - center[k]) * (positions[3 * i + k] - center[k]);
    r2 = Math.max(r2, d);
  }
  geometry.boundingSphere = new Sphere(new Vector3(center[0], center[1], center[2]), Math.sqrt(r2));
  return geometry;
}

// What the patched shaders take of DF64_GLSL: the functions DF64_RTE_GLSL reaches (the slice the
// check compiles when it proves RTE_ROUTINES), not the whole library: each material's vertex
// shader parses a tenth of the text.
let rteSlice = null;
function rteLibrary() {
  if (rteSlice === null) rteSlice = librarySlice(DF64_GLSL, DF64_RTE_GLSL + PROJECT_VERTEX);
  return rteSlice;
}

// Patches one material's vertex shader; `uniforms` are the object's (shared with the shader);
// `original` is the material it was cloned from (clone() does not copy the hooks).
function patch(material, original, uniforms, state) {
  const before = original.onBeforeCompile;
  material.onBeforeCompile = function (shader, renderer) {
    if (typeof before === 'function') before.call(this, shader, renderer);
    if (shader.vertexShader.indexOf('#include <project_vertex>') < 0) {
      throw new Error('df64gl/three: this material\'s vertex shader has no <project_vertex> to replace');
    }
    shader.uniforms.df64_model_rte_hi = uniforms.hi;
    shader.uniforms.df64_model_rte_lo = uniforms.lo;
    shader.uniforms.df64_view_rotation = uniforms.rotation;
    const declarations = rteLibrary() + '\nin vec3 position_lo;\n' +
      (state.translationOnly ? '#define DF64_RTE_TRANSLATION_ONLY 1\n' : '') + DF64_RTE_GLSL;
    shader.vertexShader = shader.vertexShader
      .replace('void main() {', declarations + '\nvoid main() {')
      .replace('#include <project_vertex>', PROJECT_VERTEX);
  };
  const key = original.customProgramCacheKey;
  material.customProgramCacheKey = function () {
    return (typeof key === 'function' ? key.call(this) : '') + ':df64-rte:' + (state.translationOnly ? 't' : 'm');
  };
  material.needsUpdate = true;
}

/**
 * Makes `object` (a Mesh, Line or Points whose geometry has `position_lo`, see
 * `setDf64Positions`) draw its positions relative to the eye in df64 with its own material.
 * The material is cloned (each object needs its own: the model matrix relative to the eye is
 * per object and per frame) and patched through onBeforeCompile; before each draw the
 * object's matrix relative to the camera is computed in doubles and uploaded as a df64mat4,
 * or, where the object's matrix has no rotation or scale, as a df64 translation only (3 df64
 * additions a vertex instead of a df64 matrix product). Returns the object.
 * @template {{ [key: string]: any }} O
 * @param {O} object
 * @returns {O}
 */
export function useDf64Positions(object) {
  if (!object || !object.geometry || !object.material) {
    throw new TypeError('useDf64Positions takes a Mesh, Line or Points');
  }
  if (object.isInstancedMesh || object.isBatchedMesh) {
    throw new Error('useDf64Positions: instanced and batched meshes are not supported (their instance matrices are f32)');
  }
  if (!object.geometry.getAttribute('position_lo')) {
    throw new Error('useDf64Positions: the geometry has no position_lo attribute; set its positions with setDf64Positions');
  }
  const uniforms = {
    hi: { value: new Float32Array(16) },
    lo: { value: new Float32Array(16) },
    rotation: { value: new Float32Array(16) },
  };
  const state = { translationOnly: false };
  const materials = Array.isArray(object.material) ? object.material : [object.material];
  const patched = materials.map(function (m) {
    const c = m.clone();
    patch(c, m, uniforms, state);
    return c;
  });
  object.material = Array.isArray(object.material) ? patched : patched[0];
  const before = object.onBeforeRender;
  object.onBeforeRender = function (renderer, scene, camera, geometry, material, group) {
    if (typeof before === 'function') before.call(this, renderer, scene, camera, geometry, material, group);
    const e = camera.matrixWorld.elements;
    const u = rteUniforms(this.matrixWorld.elements, [e[12], e[13], e[14]], camera.matrixWorldInverse.elements);
    uniforms.hi.value.set(u.df64_model_rte_hi);
    uniforms.lo.value.set(u.df64_model_rte_lo);
    uniforms.rotation.value.set(u.df64_view_rotation);
    if (u.translationOnly !== state.translationOnly) {
      state.translationOnly = u.translationOnly;
      patched.forEach(function (m) { m.needsUpdate = true; });
    }
  };
  return object;
}

// The check, for a page that imports only this entry.
export { check, checkAsync, prepareCheck } from './check/webgl.js';
