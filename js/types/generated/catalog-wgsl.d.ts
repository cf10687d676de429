/** @type {any} */
export const WGSL_CALLS: any;
