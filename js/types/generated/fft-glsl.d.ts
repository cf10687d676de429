/** @type {Record<string, string>} */
export const FFT_GLSL: Record<string, string>;
