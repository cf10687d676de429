/** x exactly as a fixed-point BigInt (bits below 2^-FIXED_BITS dropped). */
export function fixedFromDouble(x: any): bigint;
/** The f32 nearest to v 2^-FIXED_BITS (ties to even), as a double; 0 for 0. */
export function f32FromFixed(v: any): number;
/** The first `count` f32 words of a fixed-point number: each the nearest f32 of what is left. */
export function wordsFromFixed(v: any, count: any): number[];
/** (cos t, sin t) of a fixed-point angle, by their Taylor series (any |t| <= pi). */
export function sinCosFixed(t: any): bigint[];
/** (cos, sin)(2 pi j / n) for j = 0..count-1 in fixed point, by a rotation recurrence from the
 * series of 2 pi / n (each step off by about 2^-200: far below qf128's words). */
export function unitRootsFixed(n: any, count: any): bigint[][];
/** The base table w_n^j, j < n/2, as [re, im] doubles (f32 and df64 plans: about 2^-53). */
export function baseDouble(n: any): any[];
/** The same table in fixed point (qf128 plans). */
export function baseFixed(n: any): any[];
/** Thall's W_long for a transform of n = odd 2^k points (src/fft/twiddle.rs's w_long_mixed):
 * w_L^j at index L/2 + j - 1 for the powers of two L <= 2^k, then for odd > 1 w_n^j (j < n/2)
 * from index 2^k - 1; padded with `fill` to a power of two. */
export function wLong(n: any, base: any, fill: any): any[];
/** The f32 words of a double: 1 (f32), 2 (df64: about 48 bits) or 4 (qf128: the double exactly,
 * in three words, and a zero). */
export function splitDouble(x: any, words: any, out: any, at: any): void;
/** 2^e for an integer e in [-1074, 1023], from its bits (Math.pow's result is not promised
 * exact, and 2^e outside that range is no double). */
export function powerOfTwo(e: any): number;
/** The e with 2^e <= |x| < 2^(e+1), exactly (subnormals included); -Infinity for 0. */
export function exponentOf(x: any): number;
/** x 2^e rounded once (ties to even), for any integer e: x's product with powers of two that
 * are doubles, the intermediate kept exact (the C library's ldexp). Overflows to +-Infinity and
 * underflows through the subnormals to +-0 as one rounding of the exact product would. */
export function ldexp(x: any, e: any): any;
/** Fraction bits of the fixed-point numbers: far below qf128's 2^-96. */
export const FIXED_BITS: 200;
