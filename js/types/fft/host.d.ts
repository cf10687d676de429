export function fail(message: any): Error;
export function imageShape(opts: any): any[];
export function realSelftest(n: any, precision: any, words: any): {
    x: Float64Array<any>;
    y: Float64Array<any>;
    judge: (bins: any, back: any, where: any) => void;
};
export function fixedWords(result: any): bigint[];
export function exactDftError(x: any, got: any, sign: any): number;
export function checkInput(x: any, count: any, what: any): number;
export function blockExponent(max: any): number;
export function scalerOf(e: any): (v: any) => any;
export function blockScaledParts(values: any, fixed: any, words: any): {
    exponent: number;
    part: (i: any, out: any, at: any) => void;
};
export function toDoubles(result: any): Float64Array<ArrayBuffer>;
export function toWords(result: any): Float32Array<any>;
export function relativeError(err: any, ref: any): number;
export function selftestSignal(count: any, words: any, seed: any): Float64Array<any>;
export function directionOf(d: any): any;
export namespace PRECISIONS {
    namespace f32 {
        let words: number;
        let define: string;
        let selftestBound: number;
    }
    namespace df64 {
        let words_1: number;
        export { words_1 as words };
        let define_1: any;
        export { define_1 as define };
        let selftestBound_1: number;
        export { selftestBound_1 as selftestBound };
    }
    namespace qf128 {
        let words_2: number;
        export { words_2 as words };
        let define_2: string;
        export { define_2 as define };
        let selftestBound_2: number;
        export { selftestBound_2 as selftestBound };
    }
}
export namespace CHECKED {
    let df64_1: string[];
    export { df64_1 as df64 };
    let qf128_1: string[];
    export { qf128_1 as qf128 };
}
export namespace REAL_POST {
    let pass: string;
    let fromPlanes: boolean;
    let radix: number;
    let outputs: number;
}
export namespace REAL_PRE {
    let pass_1: string;
    export { pass_1 as pass };
    let fromPlanes_1: boolean;
    export { fromPlanes_1 as fromPlanes };
    let radix_1: number;
    export { radix_1 as radix };
    let outputs_1: number;
    export { outputs_1 as outputs };
}
