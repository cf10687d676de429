/**
 * Plans FFTs of `options.length` points (2^k or 3 * 2^k) on a WebGL 2 context, in
 * `options.precision` ('f32', 'df64' or 'qf128'; default 'df64'), for `options.batch` rows
 * (default 1); see FftOptions above. Checks the routines and self-tests the passes first: throws an
 * Error that says why where this context cannot run the plan exactly.
 * @param {WebGL2RenderingContext} gl
 * @param {FftOptions} options
 * @returns {WebGLFft}
 */
export function createFft(gl: WebGL2RenderingContext, options: FftOptions): WebGLFft;
/**
 * Complex input: re and im interleaved, row after row (2 * length * batch finite numbers).
 */
export type FftInput = Float64Array | Float32Array | number[];
/**
 * Options of `createFft`.
 */
export type FftOptions = {
    /**
     * Points of each transform, 1 to 2^30 as the context's textures allow: 2^k and 3 * 2^k run on the passes as they are, any other length through Bluestein's chirp-z on 2^k >= 2 length - 1 points. With `real`, the reals of each row (a power of two, at least 4).
     */
    length: number;
    /**
     * A 2-D plan of [rows, columns] (each a power of two, 2 to 32768; row-major data, no batch): forward and inverse transform along both axes.
     */
    shape?: [number, number];
    /**
     * A real-input plan: forward takes `length` reals a row to `length / 2 + 1` bins a row (re, im interleaved; bins 0 and length/2 real), inverse the bins back to the reals (with 1/length).
     */
    real?: boolean;
    /**
     * 'df64' (about 48 bits, default), 'qf128' (about 96 bits) or 'f32' (the baseline, not checked).
     */
    precision?: "f32" | "df64" | "qf128";
    /**
     * Rows transformed at once, each of `length` points, one after the other in the input (default 1).
     */
    batch?: number;
    /**
     * The power-of-two stages' radix: 4 (default, measured fastest natively), 8 (f32 and df64, where the context has 8 draw buffers) or 2.
     */
    radix?: 2 | 4 | 8;
    /**
     * Passed to `check` for the routines the passes use (default true: the verdict kept in `storage`).
     */
    cache?: boolean;
    /**
     * Passed to `check` (default localStorage).
     */
    storage?: {
        getItem(key: string): string | null;
        setItem(key: string, value: string): void;
    } | null;
};
/**
 * A planned FFT on one WebGL 2 context (see `createFft`). Any finite input runs, near 2^1024 and among the subnormals too; every method throws an Error that says why (bad input, a lost context or one restored since the plan was made, a disposed plan, a result that overflows the doubles) and never returns a wrong spectrum; each leaves the context's state as it found it, its pending GL errors included (read before the call and set again after).
 */
export type WebGLFft = {
    length: number;
    batch: number;
    precision: "f32" | "df64" | "qf128";
    radix: 2 | 4 | 8;
    /**
     * Full-screen draws of one transform (stages and the unscramble pass; qf128 without 8 draw buffers draws each twice).
     */
    passes: number;
    /**
     * A real-input plan (options.real).
     */
    real?: boolean;
    /**
     * A 2-D plan's [rows, columns] (options.shape).
     */
    shape?: [number, number];
    /**
     * The spectrum, X_k = sum_j x_j exp(-2 pi i jk / n), as doubles (re, im interleaved).
     */
    forward: (x: FftInput) => Float64Array;
    /**
     * The inverse transform, scaled by 1/length.
     */
    inverse: (y: FftInput) => Float64Array;
    /**
     * The spectrum's f32 words, per point 2 (f32: re, im), 4 (df64: re hi, lo, im hi, lo) or 8 (qf128: re's four, im's four); a RangeError where a word lies outside f32's range (use forward).
     */
    forwardWords: (x: FftInput) => Float32Array;
    /**
     * The inverse transform's f32 words.
     */
    inverseWords: (y: FftInput) => Float32Array;
    /**
     * Loads x into the plan's textures (block-scaled by a power of two), for execute and download.
     */
    upload: (x: FftInput) => void;
    /**
     * Transforms the data on the GPU in place; repeated transforms are rescaled through the host when their growth nears f32's range.
     */
    execute: (direction: "forward" | "inverse") => void;
    /**
     * The data on the GPU, as doubles.
     */
    download: () => Float64Array;
    /**
     * The data on the GPU, as f32 words (as forwardWords).
     */
    downloadWords: () => Float32Array;
    /**
     * The data on the GPU times `other`'s (a plan of the same length, batch and precision on the same context, both uploaded), element by element: the frequency-domain step of a convolution. Complex plans of 2^k and 3 * 2^k points only (a TypeError otherwise).
     */
    multiply: (other: WebGLFft) => void;
    /**
     * Frees the textures, framebuffers and (when no other plan on the context uses them) the programs.
     */
    dispose: () => void;
};
