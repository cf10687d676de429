/** @type {string} */
export const QF128_GLSL: string;
