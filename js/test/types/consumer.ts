// A TypeScript page that uses every entry as its README shows: compiles with --strict.
import { checkAsync, check, prepareCheck, routinesCalledBy, DF64_GLSL, QF128_GLSL, VERSION, split, join, splitArray, splitMat4,
  splitPositions, relativeToEye, viewRotation, rteUniforms, DF64_RTE_GLSL } from 'df64gl';
import type { CheckResult, CheckOptions } from 'df64gl';
import { RTE_ROUTINES, setDf64Positions, useDf64Positions, checkAsync as checkThree } from 'df64gl/three';
import { df64, df64rte } from 'df64gl/luma';
import { DF64_WGSL, DF64_QF128_WGSL, checkWebGPU } from 'df64gl/webgpu';
import { createFft } from 'df64gl/fft';
import type { WebGLFft } from 'df64gl/fft';
import { createFftWebGPU } from 'df64gl/fft-webgpu';
import { splitMercator, maplibreUniforms, DF64_MAPLIBRE_GLSL, DF64_MAPLIBRE_POSITION_GLSL, MAPLIBRE_ROUTINES, checkAsync as checkMap } from 'df64gl/maplibre';
import { df64ThreeLayer, lngLatAltToWorld, placeAtLngLatAlt, RTE_ROUTINES as MAP_THREE_ROUTINES } from 'df64gl/maplibre-three';
import type { Df64ThreeLayer } from 'df64gl/maplibre-three';

declare const gl: WebGL2RenderingContext;
declare const device: object;

export async function page(): Promise<number> {
  const options: CheckOptions = { routines: routinesCalledBy([DF64_GLSL, DF64_RTE_GLSL]).routines, stages: ['vertex'] };
  const verdict: CheckResult = await checkAsync(gl, options);
  await prepareCheck({ routines: ['add'], qf128: false });
  const sync: boolean = check(gl, { routines: ['add'] }).pass;
  const three: CheckResult = await checkThree(gl, { routines: RTE_ROUTINES, stages: ['vertex'] });
  const [hi, lo]: [number, number] = split(Math.PI);
  const words: Float32Array = splitArray([1, 2, 3]);
  const m: { hi: Float32Array; lo: Float32Array } = splitMat4(new Float64Array(16));
  const p = splitPositions([6378137, 0, 0]);
  const rel: Float64Array = relativeToEye(new Float64Array(16), [1, 2, 3]);
  const rot: Float32Array = viewRotation(new Float64Array(16));
  const u = rteUniforms(new Float64Array(16), [0, 0, 0], new Float64Array(16));
  const geometry = setDf64Positions({ kind: 'geometry' }, new Float64Array(3));
  const mesh = useDf64Positions({ geometry });
  const fft: WebGLFft = createFft(gl, { length: 16, precision: 'df64' });
  const y: Float64Array = fft.forward(new Float64Array(32));
  fft.dispose();
  const gpuVerdict: CheckResult = await checkWebGPU(device, { routines: ['add'], stages: ['compute'] });
  const gpuFft = await createFftWebGPU(device, { length: 16, precision: 'df64' });
  const z: Float64Array = await gpuFft.forward(y);
  const mercator: { hi: Float32Array; lo: Float32Array } = splitMercator([-122.4194, 37.7749, 10]);
  const map = { getCenter: () => ({ lng: -122.4194, lat: 37.7749 }) };
  const mu = maplibreUniforms(map, { defaultProjectionData: { mainMatrix: new Float64Array(16) }, shaderData: { define: '' } });
  const mapVerdict: CheckResult = await checkMap(gl, { routines: MAPLIBRE_ROUTINES, stages: ['vertex'] });
  const mapText: string = DF64_MAPLIBRE_GLSL + DF64_MAPLIBRE_POSITION_GLSL;
  const world: Float64Array = lngLatAltToWorld([-122.4194, 37.7749, 10]);
  const placed = placeAtLngLatAlt({ position: { set: () => 0 }, scale: { setScalar: () => 0 } }, -122.4194, 37.7749, 2);
  const threeLayer: Df64ThreeLayer = df64ThreeLayer({ id: 'model', scene: {}, camera: {} });
  const text: string = DF64_GLSL + QF128_GLSL + DF64_WGSL + DF64_QF128_WGSL + VERSION + df64.name + df64rte.name;
  return [verdict.pass, sync, three.pass, gpuVerdict.pass].length + hi + lo + join(hi, lo) + words.length + m.hi.length +
    p.hi.length + rel.length + rot.length + u.df64_model_rte_hi.length + z.length + text.length + String(geometry) .length +
    String(mesh).length + mercator.hi.length + mu.df64_maplibre_matrix.length + Number(mapVerdict.pass) + mapText.length +
    world.length + String(placed).length + threeLayer.id.length + MAP_THREE_ROUTINES.length;
}
