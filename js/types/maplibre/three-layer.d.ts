/**
 * Points (longitude, latitude in degrees, altitude in metres, triples) in the layer's mercator
 * frame, in doubles: hand them to `setDf64Positions`.
 * @param {ArrayLike<number>} lngLatAlt
 * @returns {Float64Array}
 */
export function lngLatAltToWorld(lngLatAlt: ArrayLike<number>): Float64Array;
/**
 * Points (longitude, latitude in degrees, altitude in metres, triples) in the globe's frame, in
 * doubles: MapLibre's unit sphere scaled to its radius (6,371,008.8 m) plus the altitude, in
 * metres. For a layer with `frame: 'globe'`; hand them to `setDf64Positions`.
 * @param {ArrayLike<number>} lngLatAlt
 * @returns {Float64Array}
 */
export function lngLatAltToGlobe(lngLatAlt: ArrayLike<number>): Float64Array;
/**
 * Places `object` (its geometry in metres: x east, y north, z up) at a longitude, latitude and
 * altitude: in the mercator frame (`frame` 'mercator', the default) its position in doubles and
 * its scale the frame's units per metre there (1 / cos(latitude)), as MapLibre's three.js
 * example scales a model by `meterInMercatorCoordinateUnits`, its rotation yours; in the globe's
 * frame (`frame` 'globe') its position in doubles, its rotation the place's east, north and up,
 * its scale 1. Returns the object.
 * @template {{ position: { set(x: number, y: number, z: number): any }, scale: { setScalar(s: number): any }, quaternion?: { setFromRotationMatrix(m: any): any } }} O
 * @param {O} object
 * @param {number} lng
 * @param {number} lat
 * @param {number} [alt]
 * @param {'mercator' | 'globe'} [frame]
 * @returns {O}
 */
export function placeAtLngLatAlt<O extends {
    position: {
        set(x: number, y: number, z: number): any;
    };
    scale: {
        setScalar(s: number): any;
    };
    quaternion?: {
        setFromRotationMatrix(m: any): any;
    };
}>(object: O, lng: number, lat: number, alt?: number, frame?: "mercator" | "globe"): O;
/**
 * Sets a three.js camera from a MapLibre custom layer's `render(gl, args)` for the world frame
 * (`lngLatAltToWorld`, `placeAtLngLatAlt`), in doubles, so that its projection times its view
 * is the map's matrix (`args.defaultProjectionData.mainMatrix`, a Float64Array) taken to the
 * frame: the eye is where that matrix's x, y and w rows vanish (solved in doubles), the view's
 * rotation that of `args.projectionMatrix`'s inverse times the map's matrix, made orthonormal,
 * and the projection the map's matrix times the view's inverse. Lights and normals see a rigid
 * view. Its matrices stop updating themselves (`matrixAutoUpdate`, `matrixWorldAutoUpdate`).
 * With `frame` 'globe' (positions from `lngLatAltToGlobe`), under the globe
 * (`vertical-perspective`, or the `globe` preset before its hand-over), the map's f64 globe
 * matrix (`args.modelViewProjectionMatrix`, which must round to `mainMatrix`) in its place. An
 * Error where the frame is not the projection the map draws, or in the hand-over. Returns the
 * camera.
 * @template {{ projectionMatrix: { fromArray(a: ArrayLike<number>): any }, projectionMatrixInverse: { fromArray(a: ArrayLike<number>): any }, matrixWorld: { fromArray(a: ArrayLike<number>): any }, matrixWorldInverse: { fromArray(a: ArrayLike<number>): any }, matrixAutoUpdate: boolean, matrixWorldAutoUpdate: boolean }} C
 * @param {C} camera
 * @param {{ defaultProjectionData: { mainMatrix: ArrayLike<number>, projectionTransition?: number }, projectionMatrix: ArrayLike<number>, modelViewProjectionMatrix?: ArrayLike<number>, shaderData?: { define?: string } }} args
 * @param {'mercator' | 'globe'} [frame]
 * @returns {C}
 */
export function maplibreCamera<C extends {
    projectionMatrix: {
        fromArray(a: ArrayLike<number>): any;
    };
    projectionMatrixInverse: {
        fromArray(a: ArrayLike<number>): any;
    };
    matrixWorld: {
        fromArray(a: ArrayLike<number>): any;
    };
    matrixWorldInverse: {
        fromArray(a: ArrayLike<number>): any;
    };
    matrixAutoUpdate: boolean;
    matrixWorldAutoUpdate: boolean;
}>(camera: C, args: {
    defaultProjectionData: {
        mainMatrix: ArrayLike<number>;
        projectionTransition?: number;
    };
    projectionMatrix: ArrayLike<number>;
    modelViewProjectionMatrix?: ArrayLike<number>;
    shaderData?: {
        define?: string;
    };
}, frame?: "mercator" | "globe"): C;
/**
 * @typedef {Object} Df64ThreeLayerOptions
 * @property {string} id the layer's id in the map's style
 * @property {any} scene the three.js Scene to draw (its df64 objects through `useDf64Positions`)
 * @property {any} camera a three.js Camera the layer sets each frame (`maplibreCamera`)
 * @property {'mercator' | 'globe'} [frame] the frame the scene's positions are in ('mercator': `lngLatAltToWorld`; 'globe': `lngLatAltToGlobe`); the layer draws only while the map draws that projection
 * @property {string} [glsl] the df64 library the layer's check proves (`DF64_GLSL`)
 * @property {(verdict: import('../check/results.js').CheckResult) => void} [onCheck] called once the check ends
 */
/**
 * @typedef {Object} Df64ThreeLayer a MapLibre custom layer (`map.addLayer(layer)`)
 * @property {string} id
 * @property {'custom'} type
 * @property {'3d'} renderingMode
 * @property {(map: any, gl: WebGL2RenderingContext) => void} onAdd
 * @property {(gl: WebGL2RenderingContext, args: any) => void} render
 * @property {(map: any, gl: WebGL2RenderingContext) => void} onRemove
 * @property {any} renderer the three.js WebGLRenderer on the map's context, once added
 * @property {import('../check/results.js').CheckResult | null} verdict the check's result, once it ended
 * @property {string | null} message why the layer draws nothing, or null while it draws
 */
/**
 * A MapLibre custom layer that draws a three.js scene with the map's camera, in one call:
 * on `onAdd` a `WebGLRenderer` on the map's canvas and context and a check of `RTE_ROUTINES` in
 * the vertex stage (what `useDf64Positions`'s shaders call; one per context); each frame, once the check passed,
 * `maplibreCamera` and a render that keeps the map's drawing (no clear). Where the check fails,
 * or the map draws another projection than the scene's frame (or the globe's hand-over), it
 * draws nothing, sets `message` and says it once on the console.
 * @param {Df64ThreeLayerOptions} options
 * @returns {Df64ThreeLayer}
 */
export function df64ThreeLayer(options: Df64ThreeLayerOptions): Df64ThreeLayer;
export type Df64ThreeLayerOptions = {
    /**
     * the layer's id in the map's style
     */
    id: string;
    /**
     * the three.js Scene to draw (its df64 objects through `useDf64Positions`)
     */
    scene: any;
    /**
     * a three.js Camera the layer sets each frame (`maplibreCamera`)
     */
    camera: any;
    /**
     * the frame the scene's positions are in ('mercator': `lngLatAltToWorld`; 'globe': `lngLatAltToGlobe`); the layer draws only while the map draws that projection
     */
    frame?: "mercator" | "globe";
    /**
     * the df64 library the layer's check proves (`DF64_GLSL`)
     */
    glsl?: string;
    /**
     * called once the check ends
     */
    onCheck?: (verdict: import("../check/results.js").CheckResult) => void;
};
/**
 * a MapLibre custom layer (`map.addLayer(layer)`)
 */
export type Df64ThreeLayer = {
    id: string;
    type: "custom";
    renderingMode: "3d";
    onAdd: (map: any, gl: WebGL2RenderingContext) => void;
    render: (gl: WebGL2RenderingContext, args: any) => void;
    onRemove: (map: any, gl: WebGL2RenderingContext) => void;
    /**
     * the three.js WebGLRenderer on the map's context, once added
     */
    renderer: any;
    /**
     * the check's result, once it ended
     */
    verdict: import("../check/results.js").CheckResult | null;
    /**
     * why the layer draws nothing, or null while it draws
     */
    message: string | null;
};
