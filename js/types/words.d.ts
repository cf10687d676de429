/**
 * The df64 of a JavaScript number: [hi, lo] with hi = fround(x), lo = fround(x - hi). NaN
 * gives [NaN, 0]; ±Infinity, and finite numbers that round beyond the f32 range
 * (|x| >= 2^128 - 2^103), give [±Infinity, 0]. The pair holds about 48 of the double's 53
 * bits; a lo below 2^-126 is a subnormal f32, which many GPUs read as 0.
 * @param {number} x
 * @returns {[number, number]}
 */
export function split(x: number): [number, number];
/**
 * The number nearest to hi + lo (exact when the pair spans at most 53 bits).
 * @param {number} hi
 * @param {number} lo
 * @returns {number}
 */
export function join(hi: number, lo: number): number;
export function numbersArg(values: any, what: any, takes: any): void;
export function finiteWords(v: any, i: any, what: any): [number, number];
/**
 * The df64 of every number of an array (Float64Array or any array of numbers) as one
 * interleaved Float32Array [hi0, lo0, hi1, lo1, ...], ready for a vec2 attribute or an RG32F
 * texture. Each pair is `split`'s (so NaN and infinities, and numbers past f32's range, give
 * the pairs `split` documents). A TypeError for anything but an array of numbers.
 * @param {ArrayLike<number>} values
 * @returns {Float32Array}
 */
export function splitArray(values: ArrayLike<number>): Float32Array;
/**
 * A 4x4 matrix (16 numbers, column-major as WebGL takes it) as two Float32Arrays, `hi` and
 * `lo`, for two mat4 uniforms: element i is split(m[i]).
 * @param {ArrayLike<number>} m
 * @returns {{ hi: Float32Array; lo: Float32Array }}
 */
export function splitMat4(m: ArrayLike<number>): {
    hi: Float32Array;
    lo: Float32Array;
};
export function mat4Arg(m: any, name: any, arg: any): void;
