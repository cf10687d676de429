// The known answers of the routines the WebGL FFT's passes use (host.js's CHECKED: the qf128
// set has no *_unscaled routines, so those names ask for df64's), imported
// with the plan: createFft is synchronous and checks them with `check` before it draws.

import { provideAnswers } from '../check/known-answers.js';
import df64AddUnscaled from '../generated/answers/df64-add_unscaled.js';
import df64MulUnscaled from '../generated/answers/df64-mul_unscaled.js';
import df64Add from '../generated/answers/df64-add.js';
import df64Sub from '../generated/answers/df64-sub.js';
import df64Mul from '../generated/answers/df64-mul.js';
import qf128Add from '../generated/answers/qf128-add.js';
import qf128Sub from '../generated/answers/qf128-sub.js';
import qf128Mul from '../generated/answers/qf128-mul.js';

/** Makes those answers available to `check`. */
export function provideCheckedAnswers() {
  provideAnswers('df64', 'add_unscaled', df64AddUnscaled);
  provideAnswers('df64', 'mul_unscaled', df64MulUnscaled);
  provideAnswers('df64', 'add', df64Add);
  provideAnswers('df64', 'sub', df64Sub);
  provideAnswers('df64', 'mul', df64Mul);
  provideAnswers('qf128', 'add', qf128Add);
  provideAnswers('qf128', 'sub', qf128Sub);
  provideAnswers('qf128', 'mul', qf128Mul);
}
