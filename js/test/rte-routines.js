// The routines df64gl/three's shaders call, as the entry computes them (three is a peer
// dependency: the tests read them without importing it).
import { routinesCalledBy } from '../src/check/routines-called-by.js';
import { DF64_RTE_GLSL } from '../src/geometry.js';

export const RTE_ROUTINES_FOR_TEST = routinesCalledBy(DF64_RTE_GLSL).routines;
