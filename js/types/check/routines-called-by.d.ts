/**
 * The check's routines that shaders call: the library functions called from the
 * sources' own functions, each mapped to the routines whose known-answer call names it (or, in
 * PROVEN_THROUGH, returns its results).
 * @param {string | string[]} sources
 * @returns {CalledRoutines}
 */
export function routinesCalledBy(sources: string | string[]): CalledRoutines;
/**
 * What `routinesCalledBy` found in your shaders.
 */
export type CalledRoutines = {
    /**
     * The routines (RoutineResult.name) whose functions your own functions call: pass as `options.routines`.
     */
    routines: string[];
    /**
     * A qf128 function is among them: pass as `options.qf128`.
     */
    qf128: boolean;
    /**
     * Library functions you call that no routine checks (conversions such as df64_from_f32, the transforms' inner forms, Thall's variants): the check proves nothing of these.
     */
    unchecked: string[];
};
