// What the ready layers share: one check per context of the routines they call, followed to a
// verdict and a message, and each message said once on the console.

import { checkAsync } from '../check/webgl.js';

// Per context, per routines and library text: the check's promise (a map's layers share it).
const checks = new WeakMap();

/**
 * The check of `routines` in the vertex stage with the df64 library `library` on `gl`: one
 * promise per context, routines and library, whichever layer asks first.
 * @param {WebGL2RenderingContext} gl
 * @param {string[]} routines
 * @param {string} library
 * @returns {Promise<import('../check/results.js').CheckResult>}
 */
export function checkOncePerContext(gl, routines, library) {
  let byKey = checks.get(gl);
  if (!byKey) {
    byKey = new Map();
    checks.set(gl, byKey);
  }
  const key = routines.join(',') + '\n' + library;
  if (!byKey.has(key)) byKey.set(key, checkAsync(gl, { routines: routines, stages: ['vertex'], glsl: library }));
  return byKey.get(key);
}

/**
 * A function that warns a message on the console unless it is the one it warned last (a
 * layer that draws nothing renders every frame).
 * @returns {(message: string) => void}
 */
export function warnOnce() {
  let said = null;
  return function (message) {
    if (said === message) return;
    said = message;
    if (typeof console !== 'undefined') console.warn(message);
  };
}

/**
 * Follows a ready layer's check: `layer.message` says it runs; when it ends `layer.verdict`
 * holds the result, `layer.message` why the layer draws nothing (null where it passed),
 * `onCheck` hears the verdict and the map (while the layer is on one) repaints.
 * @param {{ verdict: any, message: string | null }} layer
 * @param {Promise<import('../check/results.js').CheckResult>} checking
 * @param {string} name the layer as its messages name it ('df64Layer points')
 * @param {string} what what the routines serve ('it calls', 'its materials call')
 * @param {((verdict: import('../check/results.js').CheckResult) => void) | undefined} onCheck
 * @param {() => any} mapOf the map the layer is on, or null
 * @param {(message: string) => void} tell
 */
export function followCheck(layer, checking, name, what, onCheck, mapOf, tell) {
  layer.message = name + ': checking the df64 routines on this context';
  checking.then(function (verdict) {
    layer.verdict = verdict;
    layer.message = verdict.pass ? null
      : name + ' draws nothing: the df64 routines ' + what + ' failed their check on this context (' + verdict.reason + ')';
    if (layer.message) tell(layer.message);
    if (onCheck) onCheck(verdict);
    const map = mapOf();
    if (map && typeof map.triggerRepaint === 'function') map.triggerRepaint();
  }, function (e) {
    layer.message = name + ' draws nothing: its check could not run (' + (e && e.message ? e.message : String(e)) + ')';
    tell(layer.message);
  });
}
