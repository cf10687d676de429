/**
 * `DF64_MAPLIBRE_POSITION_GLSL` after the slice of the df64 library `library` that it reaches.
 * @param {string} library
 * @returns {string}
 */
export function maplibreGlsl(library: string): string;
/**
 * Whether a custom layer's render arguments are for the globe (`GLOBE` defined).
 * @param {{ shaderData?: { define?: string } }} args
 * @returns {boolean}
 */
export function drawsTheGlobe(args: {
    shaderData?: {
        define?: string;
    };
}): boolean;
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
 * The uniforms of `df64_maplibre_position` for this frame, from your custom layer's
 * `render(gl, args)`: `df64_maplibre_eye_hi` and `_lo` (the map's centre in mercator, two
 * words a coordinate) and `df64_maplibre_matrix` (`args.defaultProjectionData.mainMatrix`, a
 * Float64Array, with its translation moved to that eye in doubles, then rounded to f32).
 * Upload each with `uniform3fv` / `uniformMatrix4fv`. An Error under the globe projection.
 * @param {{ getCenter(): { lng: number, lat: number } }} map
 * @param {{ defaultProjectionData: { mainMatrix: ArrayLike<number> }, shaderData?: { define?: string } }} args
 * @returns {{ df64_maplibre_eye_hi: Float32Array, df64_maplibre_eye_lo: Float32Array, df64_maplibre_matrix: Float32Array }}
 */
export function maplibreUniforms(map: {
    getCenter(): {
        lng: number;
        lat: number;
    };
}, args: {
    defaultProjectionData: {
        mainMatrix: ArrayLike<number>;
    };
    shaderData?: {
        define?: string;
    };
}): {
    df64_maplibre_eye_hi: Float32Array;
    df64_maplibre_eye_lo: Float32Array;
    df64_maplibre_matrix: Float32Array;
};
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
