/**
 * The answers a check of `only` (routine names, or null for all) needs: per set the names, the
 * qf128 set only with `qf128`.
 */
export function answersNeeded(only: any, qf128: any): any[];
/** Of `needs`, those whose answers are not loaded yet. */
export function missingAnswers(needs: any): any;
/** Imports the answers of `needs` not loaded yet (each routine's module, in parallel). */
export function loadAnswers(needs: any): Promise<void>;
/**
 * Makes answers imported statically (a module's default export, packed) available to the checks.
 * @param {string} key
 * @param {string} name
 * @param {string} data
 */
export function provideAnswers(key: string, name: string, data: string): void;
/**
 * The known answers as the judge reads them: per set its routines, their cases' numbers (those
 * of routines not loaded are zeros: no check reads them) and where each routine starts; the
 * kinds of answer by name.
 */
export function knownAnswers(): any;
