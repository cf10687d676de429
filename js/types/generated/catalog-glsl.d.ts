/** @type {any} */
export const GLSL_CALLS: any;
/** @type {string[]} */
export const LIBRARY_FUNCTIONS: string[];
