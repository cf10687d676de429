/**
 * `DF64_MAPLIBRE_POSITION_GLSL` after the slice of the df64 library `library` that it reaches.
 * @param {string} library
 * @returns {string}
 */
export function maplibreGlsl(library: string): string;
/**
 * Points (longitude, latitude in degrees, altitude in metres; a Float64Array or any array of
 * numbers, triples) as mercator (x, y, z) in two Float32Arrays of the same length for two vec3
 * attributes: `hi` the nearest f32 of each coordinate, `lo` the f32 of the rest. The
 * coordinates are MapLibre's (`MercatorCoordinate.fromLngLat`: x and y in [0, 1] across the
 * world, z the altitude in mercator units at the point's latitude), computed in doubles.
 * @param {ArrayLike<number>} lngLatAlt
 * @returns {{ hi: Float32Array; lo: Float32Array }}
 */
export function splitMercator(lngLatAlt: ArrayLike<number>): {
    hi: Float32Array;
    lo: Float32Array;
};
/**
 * The uniforms of `df64_maplibre_position`, by name; the globe's only under the globe.
 * @typedef {Object} MaplibreUniforms
 * @property {Float32Array} df64_maplibre_eye_hi
 * @property {Float32Array} df64_maplibre_eye_lo
 * @property {Float32Array} df64_maplibre_matrix
 * @property {Float32Array} [df64_maplibre_globe_eye_hi]
 * @property {Float32Array} [df64_maplibre_globe_eye_lo]
 * @property {Float32Array} [df64_maplibre_globe_matrix]
 * @property {Float32Array} [df64_maplibre_clipping_plane]
 * @property {number} [df64_maplibre_transition]
 */
/**
 * The uniforms of `df64_maplibre_position` for this frame, from your custom layer's
 * `render(gl, args)`, computed in doubles: `df64_maplibre_eye_hi` and `_lo` (the map's centre in
 * mercator, two words a coordinate) and `df64_maplibre_matrix` (the mercator matrix,
 * `args.defaultProjectionData.mainMatrix` or in the globe's transition its `fallbackMatrix`, a
 * Float64Array, with its translation moved to that eye, then rounded to f32). Under the globe
 * (`GLOBE` in `args.shaderData.define`) also `df64_maplibre_globe_eye_hi` and `_lo` (the centre on
 * MapLibre's unit sphere), `df64_maplibre_globe_matrix` (the map's f64 globe matrix,
 * `args.modelViewProjectionMatrix`, with its translation at that eye; an Error where it does not
 * round to the f32 `mainMatrix`), `df64_maplibre_clipping_plane` (its w taken at the eye) and
 * `df64_maplibre_transition`. Upload each with `uniform3fv`, `uniformMatrix4fv`, `uniform4fv`,
 * `uniform1f`.
 * @param {{ getCenter(): { lng: number, lat: number } }} map
 * @param {{ defaultProjectionData: { mainMatrix: ArrayLike<number>, fallbackMatrix?: ArrayLike<number>, clippingPlane?: ArrayLike<number>, projectionTransition?: number }, modelViewProjectionMatrix?: ArrayLike<number>, shaderData?: { define?: string } }} args
 * @returns {MaplibreUniforms}
 */
export function maplibreUniforms(map: {
    getCenter(): {
        lng: number;
        lat: number;
    };
}, args: {
    defaultProjectionData: {
        mainMatrix: ArrayLike<number>;
        fallbackMatrix?: ArrayLike<number>;
        clippingPlane?: ArrayLike<number>;
        projectionTransition?: number;
    };
    modelViewProjectionMatrix?: ArrayLike<number>;
    shaderData?: {
        define?: string;
    };
}): MaplibreUniforms;
/**
 * GLSL ES 3.00 defining `vec4 df64_maplibre_position(vec3 mercator_hi, vec3 mercator_lo)` and
 * its uniforms, with the df64 routines it calls: paste it after `args.shaderData.vertexShaderPrelude`
 * and `args.shaderData.define`, and not after `DF64_GLSL` (it holds the part of it that it
 * needs; a page that pastes `DF64_GLSL` itself pastes `DF64_MAPLIBRE_POSITION_GLSL` after it).
 * @type {string}
 */
export const DF64_MAPLIBRE_POSITION_GLSL: string;
/** The df64 routines `df64_maplibre_position` calls: what to check, in the vertex stage. */
export const MAPLIBRE_ROUTINES: string[];
/** `DF64_MAPLIBRE_POSITION_GLSL` with the slice of `DF64_GLSL` it reaches, to paste alone. */
export const DF64_MAPLIBRE_GLSL: string;
/**
 * The uniforms of `df64_maplibre_position`, by name; the globe's only under the globe.
 */
export type MaplibreUniforms = {
    df64_maplibre_eye_hi: Float32Array;
    df64_maplibre_eye_lo: Float32Array;
    df64_maplibre_matrix: Float32Array;
    df64_maplibre_globe_eye_hi?: Float32Array;
    df64_maplibre_globe_eye_lo?: Float32Array;
    df64_maplibre_globe_matrix?: Float32Array;
    df64_maplibre_clipping_plane?: Float32Array;
    df64_maplibre_transition?: number;
};
