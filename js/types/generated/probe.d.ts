/** @type {string} */
export const PROBE_FUNCTIONS: string;
/** @type {string[]} */
export const PROBE_ROUTINES: string[];
