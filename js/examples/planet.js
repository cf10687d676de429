// The scene of the relative-to-eye examples: a patch of ground on a planet of radius 6.4e6 m
// (Earth-centred metres), with a row of 5 mm boxes 5 mm apart on it, seen by a camera 2 m above
// the surface. Positions are JavaScript doubles; each example draws them in df64 and in f32.
// Also the small 4x4 matrix helpers the plain WebGL 2 and WebGPU examples need (column-major,
// as WebGL takes matrices), and the capture shared by the examples' `?capture=N` mode.

export const RADIUS = 6.4e6;

const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const add = (a, b) => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const scale = (a, s) => [a[0] * s, a[1] * s, a[2] * s];
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const unit = (a) => scale(a, 1 / Math.sqrt(dot(a, a)));

/**
 * The scene at distance `radius` from the origin (default 6.4e6 m): `positions` (Float64Array,
 * x y z per vertex, triangles), `normals` (Float32Array), `colors` (Float32Array, r g b), the
 * local frame (`origin` on the surface, `east`, `north`, `up`) and `camera(step)`: the camera
 * moved `step` times 0.1 mm east, as {eye, target, up, fov (degrees), near, far}.
 */
export function planet(radius) {
  const r = radius || RADIUS;
  const lat = 0.7;
  const lon = 0.3;
  const up = [Math.cos(lat) * Math.cos(lon), Math.cos(lat) * Math.sin(lon), Math.sin(lat)];
  const east = [-Math.sin(lon), Math.cos(lon), 0];
  const north = cross(up, east);
  const origin = scale(up, r);
  const at = (e, n, u) => add(add(add(origin, scale(east, e)), scale(north, n)), scale(up, u));
  const positions = [];
  const normals = [];
  const colors = [];
  const quad = (a, b, c, d, normal, color) => {
    [a, b, c, a, c, d].forEach((p) => {
      positions.push(p[0], p[1], p[2]);
      normals.push(normal[0], normal[1], normal[2]);
      colors.push(color[0], color[1], color[2]);
    });
  };
  // Ground: 8 x 8 tiles of 5 cm, a checkerboard in two greys.
  for (let i = 0; i < 8; i++) {
    for (let j = 0; j < 8; j++) {
      const e = (i - 4) * 0.05;
      const n = (j - 4) * 0.05;
      const g = (i + j) % 2 ? [0.55, 0.55, 0.5] : [0.35, 0.4, 0.35];
      quad(at(e, n, 0), at(e + 0.05, n, 0), at(e + 0.05, n + 0.05, 0), at(e, n + 0.05, 0), up, g);
    }
  }
  // Eight 5 mm boxes, 5 mm apart, in a row along east.
  for (let b = 0; b < 8; b++) {
    const e0 = -0.04 + 0.01 * b;
    const s = 0.005;
    const c = [0.9, 0.3 + 0.08 * b, 0.2];
    const p = (x, y, z) => at(e0 + x * s, -0.0025 + y * s, z * s);
    quad(p(0, 0, 1), p(1, 0, 1), p(1, 1, 1), p(0, 1, 1), up, c);
    quad(p(0, 0, 0), p(1, 0, 0), p(1, 0, 1), p(0, 0, 1), scale(north, -1), c);
    quad(p(1, 1, 0), p(0, 1, 0), p(0, 1, 1), p(1, 1, 1), north, c);
    quad(p(1, 0, 0), p(1, 1, 0), p(1, 1, 1), p(1, 0, 1), east, c);
    quad(p(0, 1, 0), p(0, 0, 0), p(0, 0, 1), p(0, 1, 1), scale(east, -1), c);
  }
  const camera = (step) => {
    const shift = scale(east, 1e-4 * (step || 0));
    return {
      eye: add(at(0.0, -0.35, 2.0), shift),
      target: add(at(0.0, 0.0, 0.0), shift),
      up: north,
      fov: 8,
      near: 0.5,
      far: 10,
    };
  };
  return {
    positions: new Float64Array(positions),
    normals: new Float32Array(normals),
    colors: new Float32Array(colors),
    origin: origin,
    east: east,
    north: north,
    up: up,
    camera: camera,
  };
}

/** The view matrix of a camera at `eye` looking at `target` (doubles, column-major). */
export function lookAt(eye, target, upHint) {
  const z = unit(sub(eye, target));
  const x = unit(cross(upHint, z));
  const y = cross(z, x);
  return [x[0], y[0], z[0], 0, x[1], y[1], z[1], 0, x[2], y[2], z[2], 0,
    -dot(x, eye), -dot(y, eye), -dot(z, eye), 1];
}

/** A perspective projection (fov in degrees, vertical), as WebGL's clip space (z in [-1, 1]). */
export function perspective(fov, aspect, near, far) {
  const f = 1 / Math.tan(fov * Math.PI / 360);
  return [f / aspect, 0, 0, 0, 0, f, 0, 0, 0, 0, (far + near) / (near - far), -1,
    0, 0, 2 * far * near / (near - far), 0];
}

/** a times b, column-major 4x4s. */
export function multiply(a, b) {
  const out = new Array(16).fill(0);
  for (let c = 0; c < 4; c++) {
    for (let r = 0; r < 4; r++) {
      for (let k = 0; k < 4; k++) out[4 * c + r] += a[4 * k + r] * b[4 * c + k];
    }
  }
  return out;
}

// ------------------------------------------------------------------ the capture

/**
 * GLSL ES 3.00 to add to a vertex shader for the capture: after the example's own code has set
 * gl_Position, `df64_capture_vertex()` hands it on bit for bit and moves the vertex onto its own
 * pixel (vertex i at pixel (i % width, i / width) of a `width`-wide float target), where the
 * fragment shader writes it out (`df64_capture_fragment`). The vertex shader is the example's;
 * only where its result goes changes.
 */
export function captureVertexGlsl(width, height) {
  return `
flat out highp uvec4 df64_capture_bits;
void df64_capture_vertex() {
  df64_capture_bits = floatBitsToUint(gl_Position);
  int i = gl_VertexID;
  gl_Position = vec4((float(i % ${width}) + 0.5) / ${width}.0 * 2.0 - 1.0,
                     (float(i / ${width}) + 0.5) / ${height}.0 * 2.0 - 1.0, 0.0, 1.0);
  gl_PointSize = 1.0;
}
`;
}

/** The fragment side of the capture: declarations, and the statement that writes the value. */
export const CAPTURE_FRAGMENT_DECLARATIONS = 'flat in highp uvec4 df64_capture_bits;\n';
export const CAPTURE_FRAGMENT_WRITE = 'uintBitsToFloat(df64_capture_bits)';

/** The target size that holds `n` captured vertices, one a pixel. */
export function captureSize(n) {
  const width = 256;
  return { width: width, height: Math.max(1, Math.ceil(n / width)) };
}
