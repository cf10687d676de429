// A misspelt option: must not compile.
import { checkAsync } from 'df64gl';
declare const gl: WebGL2RenderingContext;
export const v = checkAsync(gl, { rutines: ['add'] });
