// Type declarations of df64gl's WebGL 2 module (index.js).

/** The df64gl version the GLSL and the known answers were generated from. */
export declare const VERSION: string;

/**
 * df64 arithmetic and functions in GLSL ES 3.00: paste after `#version 300 es` and
 * `precision highp float; precision highp int;`. Declares `uniform highp uint u_df64_zero`,
 * which must stay 0 (leave it unset).
 */
export declare const DF64_GLSL: string;

/** qf128 arithmetic and functions in GLSL ES 3.00: paste after DF64_GLSL. */
export declare const QF128_GLSL: string;

/**
 * df64 arithmetic and functions in WGSL (`df64gl wgsl`), translated from the same GLSL. Every
 * float step passes through an XOR with the first u32 of a read-only storage buffer the caller
 * binds at `@group(0) @binding(0)` (16 bytes of zeros), which no compiler can know: WGSL has no
 * `precise` and lets compilers reassociate (a uniform buffer is not enough: lavapipe inlines
 * uniform values). Other groups: `df64gl wgsl --group G --binding B`.
 */
export declare const DF64_WGSL: string;

/** DF64_WGSL with qf128 (`df64gl wgsl --qf128`): complete, use it instead of DF64_WGSL. */
export declare const DF64_QF128_WGSL: string;

/** One routine's known-answer results. */
export interface RoutineResult {
  /** The routine's name ("add", "exp", ...; the GLSL function is df64_<name>). */
  name: string;
  /** Cases run. */
  cases: number;
  /** The documented bound in ulp48 (df64) or ulp96 (qf128); 0: exact. */
  bound: number;
  /** The worst error beyond the domain's floor, in the bound's unit (Infinity: a wrong NaN, infinity or zero). */
  worst: number;
  /** Cases off the bound or with a wrong special value. */
  failed: number;
  /** Every case within the bound. */
  pass: boolean;
  /** Cases whose words equal the CPU mirror's bit for bit (the rest may still be within the bound). */
  mirrorMatched: number;
  /** The first case whose words differ from the mirror's, or null. */
  mirrorMismatch: { a: number[]; b: number[]; got: number[]; mirror: number[] } | null;
  /** The worst case when the routine failed, or null. */
  worstCase: { a: number[]; b: number[]; got: number[]; want: number[] | 'NaN' } | null;
  /** Milliseconds to compile and run this routine's program. */
  ms: number;
}

/** What `check` found. Plain data: it survives JSON (Infinity becomes null there). */
export interface CheckResult {
  /** The probe shader all green and every routine within its bound (and qf128's, when asked). */
  pass: boolean;
  /** Why it passed or failed, in a sentence for a log or an error message. */
  reason: string;
  /** The WebGL renderer string (unmasked where the browser allows). */
  renderer: string;
  /** VERSION. */
  version: string;
  /** The probe shader's green pixels of all. */
  probe: { green: number; pixels: number; ms: number } | null;
  /** Each df64 routine checked. */
  routines: RoutineResult[];
  /** The qf128 routines, with options.qf128; else null. */
  qf128: { pass: boolean; routines: RoutineResult[] } | null;
  /** Milliseconds the check took (or the cache lookup). */
  ms: number;
  /** The verdict came from options.storage (localStorage), stored by an earlier check. */
  cached: boolean;
}

/** Options of `check`. */
export interface CheckOptions {
  /** Remember the verdict per renderer in `storage` and reuse it (default true). */
  cache?: boolean;
  /** Where verdicts are remembered (default: localStorage where there is one). */
  storage?: { getItem(key: string): string | null; setItem(key: string, value: string): void } | null;
  /** Also check the qf128 routines (compiles QF128_GLSL; slower). */
  qf128?: boolean;
  /** Check only these routines (names as in RoutineResult.name; with qf128, the qf128 ones of these names); default all. */
  routines?: string[];
  /** Check this df64 GLSL instead of DF64_GLSL (your own copy or an older export). */
  glsl?: string;
  /** Check this qf128 GLSL instead of QF128_GLSL. */
  qf128Glsl?: string;
}

/**
 * Proves df64 on this WebGL 2 context: compiles and runs the probe shader and a known-answer
 * test of every routine (operands across the exponent range, zeros, infinities, NaN) in its
 * own framebuffer and textures, judges each result against the exact answer, leaves the
 * context's state as it found it and deletes what it made. Never throws for a driver that
 * fails: no WebGL 2, no EXT_color_buffer_float, a shader that does not compile, a wrong
 * answer are each `pass: false` with the reason.
 */
export declare function check(gl: WebGL2RenderingContext | null | undefined, options?: CheckOptions): CheckResult;

/** Options of `checkWebGPU`. */
export interface WebGPUCheckOptions {
  /** Also check the qf128 routines (compiles DF64_QF128_WGSL). */
  qf128?: boolean;
  /** Check only these routines (names as in RoutineResult.name); default all. */
  routines?: string[];
  /** Check this WGSL instead of the export (df64, and qf128 with options.qf128; its barrier buffer, if any, at @group(0) @binding(0)). */
  wgsl?: string;
  /** The kind of the barrier's buffer in `wgsl`: 'storage' (read-only, as exported; default) or 'uniform' (`df64gl wgsl --zero uniform`). */
  zero?: 'storage' | 'uniform';
}

/**
 * Proves the WGSL routines on this WebGPU device (a GPUDevice): every routine on the same known answers as
 * `check`, as compute shaders, judged alike (`probe` is null: twoSum and twoProduct are among
 * the routines). Resolves to the same kind of result as `check`; never rejects for a device
 * that fails (a module that does not compile, a validation error, a wrong answer: `pass: false`
 * with the reason). Its buffers are destroyed before it resolves.
 */
export declare function checkWebGPU(device: object | null | undefined, options?: WebGPUCheckOptions): Promise<CheckResult>;

/**
 * [hi, lo] f32 words of a number: hi = Math.fround(x), lo = Math.fround(x - hi). NaN gives
 * [NaN, 0]; ±Infinity and numbers beyond the f32 range give [±Infinity, 0].
 */
export declare function split(x: number): [number, number];

/** The number nearest to hi + lo. */
export declare function join(hi: number, lo: number): number;

/** split of every value, interleaved: [hi0, lo0, hi1, lo1, ...]. */
export declare function splitArray(values: ArrayLike<number>): Float32Array;

/** split of each of a column-major 4x4 matrix's 16 numbers, as two matrices. */
export declare function splitMat4(m: ArrayLike<number>): { hi: Float32Array; lo: Float32Array };

/** df64 as a luma.gl 9 shader module (`modules: [df64]`). */
export declare const df64: {
  name: 'df64';
  vs: string;
  fs: string;
  uniformTypes: Record<string, never>;
  defaultUniforms: Record<string, never>;
  getUniforms(): Record<string, never>;
};
