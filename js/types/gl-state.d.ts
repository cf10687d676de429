/** The state of `units` texture units (2-D and array bindings, and the sampler object bound to
 * each) and everything else the draws set. */
export function saveState(gl: any, units: any): {
    feedback: boolean;
    drawFramebuffer: any;
    readFramebuffer: any;
    program: any;
    viewport: any;
    activeTexture: any;
    textures: any[][];
    vertexArray: any;
    arrayBuffer: any;
    packBuffer: any;
    unpackBuffer: any;
    enabled: any[][];
    colorMask: any;
    pixelStore: any[][];
};
/** The state df64gl's draws need (see the file's text), on the first `units` texture units. */
export function neutralState(gl: any, units: any): void;
/** Puts back what `saveState` saw. */
export function restoreState(gl: any, s: any): void;
/** Every error flag set on the context now, read (and so cleared) one by one: the codes, each
 * once. */
export function takeErrors(gl: any): any[];
/**
 * Sets the error flags `codes` again (from takeErrors, before df64gl's work), each through a
 * call that only sets that flag (a code the context held twice comes back once).
 * OUT_OF_MEMORY and CONTEXT_LOST_WEBGL cannot be set so: the callers refuse to work after the
 * first (see outOfMemory) and stop on the second.
 */
export function putBackErrors(gl: any, codes: any): void;
/** The message for an OUT_OF_MEMORY found pending before df64gl's work, or null. */
export function outOfMemory(gl: any, codes: any): string;
