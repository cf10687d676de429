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
 * `m` as 16 finite doubles (a Float64Array), or a TypeError or RangeError naming `who` and `what`.
 * @param {any} m
 * @param {string} who
 * @param {string} what
 * @returns {Float64Array}
 */
export function doubleMatrix(m: any, who: string, what: string): Float64Array;
/**
 * The map's globe matrix in doubles (`args.modelViewProjectionMatrix`), which must round entry
 * for entry to the f32 one MapLibre draws its own shaders with (`mainMatrix`): where this
 * MapLibre hands another, an Error, so that a layer stops rather than draw off the map.
 * @param {{ modelViewProjectionMatrix?: any, defaultProjectionData: { mainMatrix: ArrayLike<number> } }} args
 * @param {string} who
 * @returns {Float64Array}
 */
export function globeMatrix(args: {
    modelViewProjectionMatrix?: any;
    defaultProjectionData: {
        mainMatrix: ArrayLike<number>;
    };
}, who: string): Float64Array;
