/** @type {string} */
export const DF64_GLSL: string;
