// A string length and an unknown precision: must not compile.
import { createFft } from 'df64gl/fft';
declare const gl: WebGL2RenderingContext;
export const f = createFft(gl, { length: '16', precision: 'f16' });
