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
  /** The routine's name ("add", "exp", ...: the GLSL function is df64_<name>; "vec3_add", "mat4_mul", ...: df64<name>; "transform_point", "relative_to_eye", "world_to_view": df64_<name>). */
  name: string;
  /** Cases run (for a vector routine: result components judged). */
  cases: number;
  /** The unit of `bound` and `worst`: "ulp48", "ulp96", "ulp24" (an f32 result), "2^-48 sum|p|" (dot, cross and matrix products: 2^-48 times the sum of the magnitudes of the products), "2^-24 sum|p| + 2^-48|x|" (the transforms that apply an f32 matrix). */
  unit: string;
  /** The documented bound in `unit`; 0: exact. */
  bound: number;
  /** The worst error beyond the domain's floor, in `unit` (Infinity: a wrong NaN, infinity or zero). */
  worst: number;
  /** Cases off the bound or with a wrong special value. */
  failed: number;
  /** Every case within the bound. */
  pass: boolean;
  /** Cases whose words equal the CPU mirror's bit for bit (the rest may still be within the bound). */
  mirrorMatched: number;
  /** The first case whose words differ from the mirror's, or null (a vector routine's: its operands' words and the component). */
  mirrorMismatch: { a?: number[]; b?: number[]; operands?: number[]; component?: number; got: number[]; mirror: number[] } | null;
  /** The worst case when the routine failed, or null. */
  worstCase: { a?: number[]; b?: number[]; operands?: number[]; component?: number; got: number[]; want: number[] | 'NaN' } | null;
  /** Milliseconds to compile and run this routine: its share of its program's compile (small routines share a program) and its draws (`checkWebGPU`, which compiles every routine's pipeline at once: from the start of the compiles to its pipeline being ready). */
  ms: number;
}

/** What one shader stage found. */
export interface StageResult {
  /** The probe all green (WebGL) and every routine within its bound in this stage. */
  pass: boolean;
  /** The probe shader's green pixels in this stage (null for WebGPU, which has no probe shader). */
  probe: { green: number; pixels: number; ms: number } | null;
  /** Each df64 routine checked in this stage. */
  routines: RoutineResult[];
  /** Each vector and matrix routine checked in this stage. */
  vectors: RoutineResult[];
  /** The qf128 routines, with options.qf128; else null. */
  qf128: { pass: boolean; routines: RoutineResult[] } | null;
}

/** What `check` found. Plain data: it survives JSON (Infinity becomes null there). */
export interface CheckResult {
  /** Every stage checked passed: the probe shader all green and every routine within its bound (and qf128's, when asked). */
  pass: boolean;
  /** Why it passed or failed, in a sentence for a log or an error message. */
  reason: string;
  /** The WebGL renderer string (unmasked where the browser allows). */
  renderer: string;
  /** VERSION. */
  version: string;
  /** The probe shader's green pixels in the stage with the fewest. */
  probe: { green: number; pixels: number; ms: number } | null;
  /** Each df64 routine over the stages checked (the worst error of any, the failures of all). */
  routines: RoutineResult[];
  /** Each vector and matrix routine (df64_vec.glsl) over the stages checked. */
  vectors: RoutineResult[];
  /** The qf128 routines, with options.qf128; else null. */
  qf128: { pass: boolean; routines: RoutineResult[] } | null;
  /** Each stage's own result (null: not checked). `check` has vertex and fragment; `checkWebGPU` compute, vertex and (on request) fragment. */
  stages: { vertex: StageResult | null; fragment?: StageResult | null; compute?: StageResult | null };
  /** Milliseconds the check took (or the cache lookup). */
  ms: number;
  /** The verdict came from options.storage (localStorage), stored by an earlier check. */
  cached: boolean;
}

/** Options of `check`. */
export interface CheckOptions {
  /** Remember the verdict per renderer, browser and module version in `storage` and reuse it (default true). */
  cache?: boolean;
  /** Where verdicts are remembered (default: localStorage where there is one). */
  storage?: { getItem(key: string): string | null; setItem(key: string, value: string): void } | null;
  /** Also check the qf128 routines (compiles QF128_GLSL; slower). */
  qf128?: boolean;
  /** Check only these routines (names as in RoutineResult.name; with qf128, the qf128 ones of these names); default all. */
  routines?: string[];
  /** The shader stages to check in: ['vertex', 'fragment'] (the default), or one of them. Vertex and fragment shaders are separate compilations: check the stage your shaders call df64 from. */
  stages?: Array<'vertex' | 'fragment'>;
  /** Check this df64 GLSL instead of DF64_GLSL (your own copy or an older export). */
  glsl?: string;
  /** Check this qf128 GLSL instead of QF128_GLSL. */
  qf128Glsl?: string;
}

/**
 * Proves df64 on this WebGL 2 context, in the vertex and the fragment stage: compiles and runs
 * the probe shader and a known-answer test of every routine, the vector and matrix ones too
 * (operands across the exponent range, zeros, infinities, NaN) in its own framebuffer and
 * textures, judges each result against the exact answer, leaves the context's state as it
 * found it and deletes what it made. Never throws for a driver that fails: no WebGL 2, no
 * EXT_color_buffer_float, a shader that does not compile, a wrong answer, a context lost
 * during the check are each `pass: false` with the reason. A bad option (a name it does not
 * have, a value of the wrong type, an unknown routine or stage) throws a TypeError or
 * RangeError that names it. GL errors pending before the call are set again after it.
 */
export declare function check(gl: WebGL2RenderingContext | null | undefined, options?: CheckOptions): CheckResult;

/**
 * The same check as `check`, as a Promise of the same result, that never holds the page: the
 * programs compile with KHR_parallel_shader_compile where the context has it (their status is
 * polled, not waited for; without it only the next program is started ahead, so that a task
 * waits on at most two compiles; the largest routines' programs are built one stage at a time),
 * read-backs wait for a fence, and between steps the page runs (its
 * frames, input and its own drawing, with its WebGL state put back). Same options, same cache.
 */
export declare function checkAsync(gl: WebGL2RenderingContext | null | undefined, options?: CheckOptions): Promise<CheckResult>;

/** What `routinesCalledBy` found in your shaders. */
export interface CalledRoutines {
  /** The routines (RoutineResult.name) whose functions your own functions call: pass as `options.routines`. */
  routines: string[];
  /** A qf128 function is among them: pass as `options.qf128`. */
  qf128: boolean;
  /** Library functions you call that no routine checks (conversions such as df64_from_f32, the transforms' inner forms, Thall's variants): the check proves nothing of these. */
  unchecked: string[];
}

/**
 * The check's routines that your shaders call, so that a check proves those and no more (its
 * time is the compile of each routine it proves; docs/web.md has the figures):
 * `const used = routinesCalledBy([vertexSource, fragmentSource]);
 * check(gl, { routines: used.routines, qf128: used.qf128 })`. GLSL or WGSL, with or without
 * the library pasted in: the calls counted are those made from your own functions (any function
 * whose name the library does not define), not the library's calls inside itself. A routine is
 * proven as the function you call (df64_sin's check compiles df64_sin, with its df64_mul), so
 * the list holds what you call. Two functions no known answer calls are proven through a
 * routine that returns their results word for word: df64_to_f32 through vec2_to_f32, and
 * df64_frexp through frexp and frexp_exp.
 */
export declare function routinesCalledBy(sources: string | string[]): CalledRoutines;

/** Options of `checkWebGPU`. */
export interface WebGPUCheckOptions {
  /** Also check the qf128 routines (compiles DF64_QF128_WGSL). */
  qf128?: boolean;
  /** Check only these routines (names as in RoutineResult.name); default all. */
  routines?: string[];
  /** The stages to check in: ['compute', 'vertex'] (the default: compute shaders and a render pipeline's vertex stage), or any of 'compute', 'vertex' and 'fragment' (a render pipeline's fragment stage: one fragment per answer). */
  stages?: Array<'compute' | 'vertex' | 'fragment'>;
  /** Check this WGSL instead of the export (df64, and qf128 with options.qf128; its barrier buffer, if any, at @group(0) @binding(0)). */
  wgsl?: string;
  /** The kind of the barrier's buffer in `wgsl`: 'storage' (read-only, as exported; default) or 'uniform' (`df64gl wgsl --zero uniform`). */
  zero?: 'storage' | 'uniform';
}

/**
 * Proves the WGSL routines on this WebGPU device (a GPUDevice): every routine on the same known answers as
 * `check`, in compute shaders and in a render pipeline's vertex stage (and its fragment stage with `stages`), judged alike (`probe` is
 * null: twoSum and twoProduct are among the routines). Resolves to the same kind of result as `check`; never rejects for a device
 * that fails (a module that does not compile, a validation error, a wrong answer, a lost or destroyed device: `pass: false`
 * with the reason); rejects with a TypeError or RangeError for a bad option. Its buffers are destroyed before it resolves.
 */
export declare function checkWebGPU(device: object | null | undefined, options?: WebGPUCheckOptions): Promise<CheckResult>;

/** Options of `createFft`. */
export interface FftOptions {
  /** Points of each transform, 1 to 2^30 as the context's textures allow: 2^k and 3 * 2^k run on the passes as they are, any other length through Bluestein's chirp-z on 2^k >= 2 length - 1 points. With `real`, the reals of each row (a power of two, at least 4). */
  length: number;
  /** A 2-D plan of [rows, columns] (each a power of two, 2 to 32768; row-major data, no batch): forward and inverse transform along both axes. */
  shape?: [number, number];
  /** A real-input plan: forward takes `length` reals a row to `length / 2 + 1` bins a row (re, im interleaved; bins 0 and length/2 real), inverse the bins back to the reals (with 1/length). */
  real?: boolean;
  /** 'df64' (about 48 bits, default), 'qf128' (about 96 bits) or 'f32' (the baseline, not checked). */
  precision?: 'f32' | 'df64' | 'qf128';
  /** Rows transformed at once, each of `length` points, one after the other in the input (default 1). */
  batch?: number;
  /** The power-of-two stages' radix: 4 (default, measured fastest natively), 8 (f32 and df64, where the context has 8 draw buffers) or 2. */
  radix?: 2 | 4 | 8;
  /** Passed to `check` for the routines the passes use (default true: the verdict kept in `storage`). */
  cache?: boolean;
  /** Passed to `check` (default localStorage). */
  storage?: { getItem(key: string): string | null; setItem(key: string, value: string): void } | null;
}

/**
 * Complex input: re and im interleaved, row after row (2 * length * batch finite numbers).
 */
export type FftInput = Float64Array | Float32Array | number[];

/** A planned FFT on one WebGL 2 context (see `createFft`). Any finite input runs, near 2^1024 and among the subnormals too; every method throws an Error that says why (bad input, a lost context or one restored since the plan was made, a disposed plan, a result that overflows the doubles) and never returns a wrong spectrum; each leaves the context's state as it found it, its pending GL errors included (read before the call and set again after). */
export interface WebGLFft {
  readonly length: number;
  readonly batch: number;
  readonly precision: 'f32' | 'df64' | 'qf128';
  readonly radix: 2 | 4 | 8;
  /** Full-screen draws of one transform (stages and the unscramble pass; qf128 without 8 draw buffers draws each twice). */
  readonly passes: number;
  /** A real-input plan (options.real). */
  readonly real?: boolean;
  /** A 2-D plan's [rows, columns] (options.shape). */
  readonly shape?: [number, number];
  /** The spectrum, X_k = sum_j x_j exp(-2 pi i jk / n), as doubles (re, im interleaved). */
  forward(x: FftInput): Float64Array;
  /** The inverse transform, scaled by 1/length. */
  inverse(y: FftInput): Float64Array;
  /** The spectrum's f32 words, per point 2 (f32: re, im), 4 (df64: re hi, lo, im hi, lo) or 8 (qf128: re's four, im's four); a RangeError where a word lies outside f32's range (use forward). */
  forwardWords(x: FftInput): Float32Array;
  /** The inverse transform's f32 words. */
  inverseWords(y: FftInput): Float32Array;
  /** Loads x into the plan's textures (block-scaled by a power of two), for execute and download. */
  upload(x: FftInput): void;
  /** Transforms the data on the GPU in place; repeated transforms are rescaled through the host when their growth nears f32's range. */
  execute(direction: 'forward' | 'inverse'): void;
  /** The data on the GPU, as doubles. */
  download(): Float64Array;
  /** The data on the GPU, as f32 words (as forwardWords). */
  downloadWords(): Float32Array;
  /** The data on the GPU times `other`'s (a plan of the same length, batch and precision on the same context, both uploaded), element by element: the frequency-domain step of a convolution. Complex plans of 2^k and 3 * 2^k points only (a TypeError otherwise). */
  multiply(other: WebGLFft): void;
  /** Frees the textures, framebuffers and (when no other plan on the context uses them) the programs. */
  dispose(): void;
}

/**
 * Plans FFTs (Thall's transposed Stockham passes, the native engine's GLSL) on a WebGL 2
 * context: before it returns, `check` proves the df64 (qf128) routines the passes use on this
 * context, and each pass program computes a small transform both ways within the precision's
 * bound of an exact DFT; where either fails, or EXT_color_buffer_float is missing, it throws an
 * Error that says why. Measured (df64gl's tests): df64 within 1e-14 and qf128 within 1e-27
 * relative L2 of a double-double DFT up to 65,536 points (Bluestein and real input included)
 * on ANGLE over SwiftShader and Mesa.
 */
export declare function createFft(gl: WebGL2RenderingContext, options: FftOptions): WebGLFft;

/**
 * [hi, lo] f32 words of a number: hi = Math.fround(x), lo = Math.fround(x - hi). NaN gives
 * [NaN, 0]; ±Infinity and numbers beyond the f32 range give [±Infinity, 0].
 */
export declare function split(x: number): [number, number];

/** The number nearest to hi + lo. */
export declare function join(hi: number, lo: number): number;

/** split of every value, interleaved: [hi0, lo0, hi1, lo1, ...]; a TypeError for anything but an array of numbers. */
export declare function splitArray(values: ArrayLike<number>): Float32Array;

/** split of each of a column-major 4x4 matrix's 16 numbers, as two matrices; a TypeError for anything but 16 numbers, a RangeError for one that is not finite or lies past f32's range. */
export declare function splitMat4(m: ArrayLike<number>): { hi: Float32Array; lo: Float32Array };

/** split of each of an array of positions in doubles (x, y, z, ...), as two attribute arrays; a TypeError for anything but numbers, a RangeError for one that is not finite or lies past f32's range. */
export declare function splitPositions(positions: ArrayLike<number>): { hi: Float32Array; lo: Float32Array };

/** translate(-eye) times a column-major model matrix, in doubles: the model matrix relative to the eye. A TypeError for anything but 16 and 3 numbers, a RangeError for a number that is not finite or a result that overflows the doubles. */
export declare function relativeToEye(model: ArrayLike<number>, eye: ArrayLike<number>): Float64Array;

/** A column-major view matrix without its translation (the camera's rotation), as f32; an Error for anything but 16 finite numbers. */
export declare function viewRotation(view: ArrayLike<number>): Float32Array;

/**
 * Relative-to-eye vertex shader code (GLSL ES 3.00, after DF64_GLSL): uniforms
 * df64_model_rte_hi, df64_model_rte_lo (mat4: the model matrix relative to the eye as a
 * df64mat4) and df64_view_rotation (mat4), and `vec4 df64_rte_view_position(vec3 position_hi,
 * vec3 position_lo)`, the view-space position. With DF64_RTE_TRANSLATION_ONLY defined, for a
 * model matrix without rotation or scale, it adds the translation only.
 */
export declare const DF64_RTE_GLSL: string;

/** The uniforms of DF64_RTE_GLSL for one object (its world matrix), the camera's world position and view matrix (doubles); the errors of relativeToEye, and a RangeError where the matrix relative to the eye lies past f32's range (the object too far from the eye). */
export declare function rteUniforms(model: ArrayLike<number>, eye: ArrayLike<number>, view: ArrayLike<number>): {
  df64_model_rte_hi: Float32Array;
  df64_model_rte_lo: Float32Array;
  df64_view_rotation: Float32Array;
  /** The model matrix has no rotation or scale: DF64_RTE_TRANSLATION_ONLY applies. */
  translationOnly: boolean;
};

/**
 * df64 positions relative to the eye as a luma.gl 9 shader module (`modules: [df64rte]`, which
 * brings df64): `vec4 df64rte_viewPosition(vec3 positionHigh, vec3 positionLow)` in the vertex
 * shader; props `{modelMatrix, eye, viewMatrix}` (doubles, column-major).
 */
export declare const df64rte: {
  name: 'df64rte';
  dependencies: object[];
  vs: string;
  uniformTypes: Record<string, string>;
  defaultUniforms: Record<string, number[]>;
  getUniforms(props?: { modelMatrix: ArrayLike<number>; eye: ArrayLike<number>; viewMatrix: ArrayLike<number> }): Record<string, number[]>;
};

/** df64 as a luma.gl 9 shader module (`modules: [df64]`). */
export declare const df64: {
  name: 'df64';
  vs: string;
  fs: string;
  uniformTypes: Record<string, never>;
  defaultUniforms: Record<string, never>;
  getUniforms(): Record<string, never>;
};

/** Options of `createFftWebGPU`. */
export interface FftWebGPUOptions {
  /** Points of each transform: 2^k from 2 to 2^22, or any other length from 1 to 2^21 (through Bluestein on 2^k >= 2n - 1 points). */
  length: number;
  /** 'df64' (default), 'qf128' or 'f32'. */
  precision?: 'f32' | 'df64' | 'qf128';
  /** Rows transformed at once (1 to 65535, default 1). */
  batch?: number;
  /** Real input: `length` reals a row (a power of two, at least 4) to length/2 + 1 bins a row, and back (default false). */
  real?: boolean;
  /** A 2-D plan of one row-major image: [rows, columns], each a power of two from 2 to 32768 (then no batch, real or other length). */
  shape?: [number, number];
  /** The stages' radix: 4 (default: radix-4 stages, one radix-2 stage last for odd log2 N) or 2 (Thall's radix-2 stage throughout). */
  radix?: 2 | 4;
  /** 'compute' (default: compute pipelines over storage buffers) or 'render' (Thall's radix-2 stage as a fragment program on rgba32float textures, checked in the fragment stage; 2^k complex plans only, no multiply). */
  form?: 'compute' | 'render';
  /** Accepted as `createFft` takes it; a WebGPU check's verdict is kept per device, for the device's life, whatever this says. */
  cache?: boolean;
  /** Accepted as `createFft` takes it (see `cache`). */
  storage?: { getItem(key: string): string | null; setItem(key: string, value: string): void } | null;
}

/** A planned FFT on a WebGPU device (see `createFftWebGPU`): the methods of WebGLFft, each that returns data as a Promise (WebGPU reads back asynchronously). Every failure is an Error that says why, never a wrong spectrum. Calls may overlap: each does its GPU work when called and resolves with its own answer, as if it had finished before the next call began. */
export interface WebGPUFft {
  readonly device: object;
  readonly length: number;
  /** A 2-D plan's [rows, columns] (options.shape). */
  readonly shape?: [number, number];
  readonly batch: number;
  readonly precision: 'f32' | 'df64' | 'qf128';
  /** The stages' radix (options.radix; 2 for the render form). */
  readonly radix: 2 | 4;
  /** 'render' for a render-form plan; absent for the compute form. */
  readonly form?: 'render';
  forward(x: FftInput): Promise<Float64Array>;
  inverse(y: FftInput): Promise<Float64Array>;
  forwardWords(x: FftInput): Promise<Float32Array>;
  inverseWords(y: FftInput): Promise<Float32Array>;
  upload(x: FftInput): void;
  execute(direction: 'forward' | 'inverse'): void;
  download(): Promise<Float64Array>;
  downloadWords(): Promise<Float32Array>;
  /** The data on the device times `other`'s (same length, batch, precision and device; both uploaded), point by point: a convolution's frequency-domain step. 2^k plans only (a Bluestein plan throws a TypeError). */
  multiply(other: WebGPUFft): void;
  dispose(): void;
}

/**
 * The FFT on a WebGPU device: Thall's Stockham stage in radix 4 (and radix 2) as compute pipelines over the
 * WGSL export, for 2^k points, every other length through Bluestein (a pointwise product
 * pipeline beside the stage), real input (`real: true`) and 2-D images (`shape`: the rows, a
 * transpose, the columns, a transpose back), in f32, df64 or qf128. Resolves after `checkWebGPU` of the
 * routines it uses and the stage's (and the pointwise product's) known-answer self-tests pass
 * on this device; rejects with an Error that says why otherwise (a bad option, a lost or
 * destroyed device, a check or self-test that fails).
 */
export declare function createFftWebGPU(device: object, options: FftWebGPUOptions): Promise<WebGPUFft>;
