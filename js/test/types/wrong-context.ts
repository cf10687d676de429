// A number where the WebGL 2 context goes: must not compile.
import { check } from 'df64gl';
export const v = check(42, { routines: ['add'] });
