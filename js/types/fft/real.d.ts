/**
 * A plan of `n` reals a row over `inner`, a complex plan of n/2 points whose twiddle table
 * serves n (see webgl.js's createFft). forward(x): n reals a row to n/2 + 1 bins a row (re,
 * im interleaved); inverse(bins): back to the n reals (with 1/n).
 */
export function RealBase(): void;
export class RealBase {
    _packBins(bins: any): Float64Array<ArrayBuffer>;
    _unpackBins(result: any): {
        words: Float32Array<ArrayBuffer>;
        per: any;
        exponent: any;
    };
    _reals(x: any): any;
    multiply(): never;
}
export function RealFft(inner: any, n: any): void;
export class RealFft {
    constructor(inner: any, n: any);
    gl: any;
    length: any;
    batch: any;
    precision: any;
    radix: any;
    real: boolean;
    passes: any;
    _inner: any;
    _disposed: boolean;
    _holds: string;
    _usable(): void;
    _apply(direction: any): void;
    _result(inner: any): any;
    _run(x: any, direction: any): any;
    /** n reals a row to the n/2 + 1 bins a row. */
    forward(x: any): Float64Array<ArrayBuffer>;
    /** n/2 + 1 bins a row back to the n reals (with 1/n). */
    inverse(bins: any): Float64Array<ArrayBuffer>;
    forwardWords(x: any): Float32Array<any>;
    inverseWords(bins: any): Float32Array<any>;
    /** Loads reals (n a row) or bins (n/2 + 1 a row: the length says which). */
    upload(data: any): void;
    /** 'forward' takes reals to bins, 'inverse' bins to reals. */
    execute(direction: any): void;
    _downloaded(): any;
    download(): Float64Array<ArrayBuffer>;
    downloadWords(): Float32Array<any>;
    dispose(): void;
}
