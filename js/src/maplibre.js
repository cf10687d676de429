// df64gl for MapLibre GL JS custom layers: positions held as doubles (longitude, latitude,
// altitude), drawn relative to an eye point in df64, so that a layer stays on the map's own f64
// projection at every zoom.
//
// An f32 mercator coordinate is rounded to about 2^-25 of the world: 2^(z-16) pixels at zoom z
// (64 px at 22, 256 px at 24). Here a vertex keeps its mercator position as two f32 words (hi
// and lo), the vertex shader subtracts the eye (the map's centre, also two words) in df64, and
// only the small difference is rounded to f32 and multiplied by the map's matrix, whose
// translation was moved to the eye in JavaScript doubles. Under the globe (`GLOBE` defined in
// `args.shaderData.define`) the same with the point on MapLibre's unit sphere, computed in df64,
// and the map's f64 globe matrix (`args.modelViewProjectionMatrix`); in the globe preset's
// hand-over to mercator, the two mixed as MapLibre's shaders mix them.

export {
  splitMercator, maplibreUniforms, DF64_MAPLIBRE_GLSL, DF64_MAPLIBRE_POSITION_GLSL, MAPLIBRE_ROUTINES,
} from './maplibre/position.js';
export { df64Layer } from './maplibre/layer.js';
export { checkAsync } from './check/webgl.js';

/** @typedef {import('./maplibre/layer.js').Df64LayerOptions} Df64LayerOptions */
/** @typedef {import('./maplibre/layer.js').Df64Layer} Df64Layer */
/** @typedef {import('./maplibre/position.js').MaplibreUniforms} MaplibreUniforms */
