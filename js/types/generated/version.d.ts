/** @type {string} */
export const VERSION: string;
