/** @type {string[]} */
export const VEC_GLSL: string[];
