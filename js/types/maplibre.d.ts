export { df64Layer } from "./maplibre/layer.js";
export { checkAsync } from "./check/webgl.js";
export type Df64LayerOptions = import("./maplibre/layer.js").Df64LayerOptions;
export type Df64Layer = import("./maplibre/layer.js").Df64Layer;
export type MaplibreUniforms = import("./maplibre/position.js").MaplibreUniforms;
export { splitMercator, maplibreUniforms, DF64_MAPLIBRE_GLSL, DF64_MAPLIBRE_POSITION_GLSL, MAPLIBRE_ROUTINES } from "./maplibre/position.js";
