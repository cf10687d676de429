// df64gl for three.js inside MapLibre GL JS custom layers: three.js's own materials drawing
// geometry given in longitude, latitude and altitude (or in metres placed at one), positions
// held as doubles and drawn relative to the eye in df64 (`df64gl/three`), with the map's camera
// set from the layer's render arguments in doubles, in mercator or on the globe (a scene in the
// frame of the projection the map draws).

export { df64ThreeLayer, maplibreCamera, lngLatAltToWorld, lngLatAltToGlobe, placeAtLngLatAlt } from './maplibre/three-layer.js';
export { setDf64Positions, useDf64Positions, RTE_ROUTINES, checkAsync } from './three.js';

/** @typedef {import('./maplibre/three-layer.js').Df64ThreeLayerOptions} Df64ThreeLayerOptions */
/** @typedef {import('./maplibre/three-layer.js').Df64ThreeLayer} Df64ThreeLayer */
