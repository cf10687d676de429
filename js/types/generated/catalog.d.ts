/** @type {any} */
export const CATALOG: any;
