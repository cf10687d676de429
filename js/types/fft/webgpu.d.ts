/**
 * A planned FFT of `options.length` points on a WebGPU device (2^k from 2 to 2^22, 3 * 2^k up
 * to 3 * 2^20 as mixed radix; any other length from 1 to 2^21 through Bluestein on the 2^k plan
 * of at least 2n - 1 points), in `options.precision` ('f32', 'df64' (default) or 'qf128'),
 * `options.batch` rows at once, `options.radix` 4 (default) or 2; `options.real`: n reals a row
 * (a power of two, at least 4) to n/2 + 1 bins and back. Resolves once `checkWebGPU` has passed
 * for the routines the stages use and the known-answer self-test of each pipeline the plan runs
 * (its stage kinds, the pointwise product, the real-input passes) has passed on this device;
 * rejects with an Error that says why otherwise, and for bad options.
 * @param {object} device
 * @param {FftWebGPUOptions} options
 * @returns {Promise<WebGPUFft>}
 */
export function createFftWebGPU(device: object, options: FftWebGPUOptions): Promise<WebGPUFft>;
/**
 * Options of `createFftWebGPU`.
 */
export type FftWebGPUOptions = {
    /**
     * Points of each transform: 2^k from 2 to 2^22, or any other length from 1 to 2^21 (through Bluestein on 2^k >= 2n - 1 points).
     */
    length: number;
    /**
     * 'df64' (default), 'qf128' or 'f32'.
     */
    precision?: "f32" | "df64" | "qf128";
    /**
     * Rows transformed at once (1 to 65535, default 1).
     */
    batch?: number;
    /**
     * Real input: `length` reals a row (a power of two, at least 4) to length/2 + 1 bins a row, and back (default false).
     */
    real?: boolean;
    /**
     * A 2-D plan of one row-major image: [rows, columns], each a power of two from 2 to 32768 (then no batch, real or other length).
     */
    shape?: [number, number];
    /**
     * The stages' radix: 4 (default: radix-4 stages, one radix-2 stage last for odd log2 N) or 2 (Thall's radix-2 stage throughout).
     */
    radix?: 2 | 4;
    /**
     * 'compute' (default: compute pipelines over storage buffers) or 'render' (Thall's radix-2 stage as a fragment program on rgba32float textures, checked in the fragment stage; 2^k complex plans only, no multiply).
     */
    form?: "compute" | "render";
    /**
     * Accepted as `createFft` takes it; a WebGPU check's verdict is kept per device, for the device's life, whatever this says.
     */
    cache?: boolean;
    /**
     * Accepted as `createFft` takes it (see `cache`).
     */
    storage?: {
        getItem(key: string): string | null;
        setItem(key: string, value: string): void;
    } | null;
};
/**
 * A planned FFT on a WebGPU device (see `createFftWebGPU`): the methods of WebGLFft, each that returns data as a Promise (WebGPU reads back asynchronously). Every failure is an Error that says why, never a wrong spectrum. Calls may overlap: each does its GPU work when called and resolves with its own answer, as if it had finished before the next call began.
 */
export type WebGPUFft = {
    device: object;
    length: number;
    /**
     * A 2-D plan's [rows, columns] (options.shape).
     */
    shape?: [number, number];
    batch: number;
    precision: "f32" | "df64" | "qf128";
    /**
     * The stages' radix (options.radix; 2 for the render form).
     */
    radix: 2 | 4;
    /**
     * 'render' for a render-form plan; absent for the compute form.
     */
    form?: "render";
    forward: (x: FftInput) => Promise<Float64Array>;
    inverse: (y: FftInput) => Promise<Float64Array>;
    forwardWords: (x: FftInput) => Promise<Float32Array>;
    inverseWords: (y: FftInput) => Promise<Float32Array>;
    upload: (x: FftInput) => void;
    execute: (direction: "forward" | "inverse") => void;
    download: () => Promise<Float64Array>;
    downloadWords: () => Promise<Float32Array>;
    /**
     * The data on the device times `other`'s (same length, batch, precision and device; both uploaded), point by point: a convolution's frequency-domain step. 2^k plans only (a Bluestein plan throws a TypeError).
     */
    multiply: (other: WebGPUFft) => void;
    dispose: () => void;
};
import type { FftInput } from './webgl.js';
