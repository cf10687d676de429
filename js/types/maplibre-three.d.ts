export type Df64ThreeLayerOptions = import("./maplibre/three-layer.js").Df64ThreeLayerOptions;
export type Df64ThreeLayer = import("./maplibre/three-layer.js").Df64ThreeLayer;
export { df64ThreeLayer, maplibreCamera, lngLatAltToWorld, lngLatAltToGlobe, placeAtLngLatAlt } from "./maplibre/three-layer.js";
export { setDf64Positions, useDf64Positions, RTE_ROUTINES, checkAsync } from "./three.js";
