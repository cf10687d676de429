export function BluesteinBase(): void;
export class BluesteinBase {
    _padded(x: any): Float64Array<ArrayBuffer>;
    _cut(result: any): {
        words: Float32Array<ArrayBuffer>;
        per: any;
        exponent: any;
    };
}
/**
 * A plan of `n` points (any length) over `inner`, a power-of-two plan of m >= 2n - 1 points
 * and the same batch (see webgl.js's WebGLFftPlan for the methods' contracts).
 */
export function BluesteinFft(inner: any, n: any, batch: any): void;
export class BluesteinFft {
    /**
     * A plan of `n` points (any length) over `inner`, a power-of-two plan of m >= 2n - 1 points
     * and the same batch (see webgl.js's WebGLFftPlan for the methods' contracts).
     */
    constructor(inner: any, n: any, batch: any);
    gl: any;
    length: any;
    batch: any;
    precision: any;
    radix: any;
    passes: number;
    _inner: any;
    _m: any;
    _factors: {};
    _disposed: boolean;
    _factorsOf(direction: any): any;
    _apply(direction: any): void;
    _usable(): void;
    _run(x: any, direction: any): any;
    forward(x: any): Float64Array<ArrayBuffer>;
    inverse(y: any): Float64Array<ArrayBuffer>;
    forwardWords(x: any): Float32Array<any>;
    inverseWords(y: any): Float32Array<any>;
    upload(x: any): void;
    execute(direction: any): void;
    _downloaded(): any;
    download(): Float64Array<ArrayBuffer>;
    downloadWords(): Float32Array<any>;
    multiply(): never;
    dispose(): void;
}
export function chirpDouble(n: any, sign: any): number[][];
export function chirpFixed(n: any, sign: any): bigint[][];
export function fftDouble(v: any, m: any): void;
