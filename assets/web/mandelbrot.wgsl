// mandelbrot.wgsl: the Mandelbrot set as a WGSL user writes it after pasting df64gl's WGSL
// export (`df64gl wgsl`, or DF64_WGSL of the npm module): the steps of glsl/mandelbrot.glsl,
// one pixel per fragment, in f32 (mandel_f32_pane) and df64 (mandel_df64_pane); qf128 is in
// mandelbrot_qf128.wgsl, after DF64_QF128_WGSL. The center arrives as qf128 words, so each
// precision starts from the center rounded to it; the pixel's offset from the center is an
// f32 (small integers times the pixel size) and c = center + offset is formed in the working
// precision. Every float step of our own goes through the export's `df64_b` (WGSL has no
// `precise`), as glsl/mandelbrot.glsl's go through DF64_B.
// Bindings: the export's zero at @group(0) @binding(0), these parameters at @binding(1).

struct MandelParams {
    center_re: vec4<f32>,
    center_im: vec4<f32>,
    // The pane's center in framebuffer pixels.
    half_size: vec2<f32>,
    // Complex-plane units per pixel.
    pixel: f32,
    max_iter: i32,
}

@group(0) @binding(1) var<uniform> mandel: MandelParams;

// Escape radius 256: the smooth count is then accurate to a small fraction of an iteration.
const MANDEL_BAILOUT: f32 = 65536.0;

fn mandel_smooth(n: i32, modulus2: f32) -> f32 {
    let m = df64_b(modulus2);
    return df64_b(df64_b(f32(n) + 1.0) - log2(df64_b(0.5 * log2(m))));
}

// The pixel's offset from the pane's center, y up as in GLSL's gl_FragCoord (WGSL's position
// has y down). Pixel centers are at .5, so the difference is exact in pixels.
fn mandel_offset(position: vec4<f32>) -> vec2<f32> {
    let dx = df64_b(df64_b(position.x - mandel.half_size.x) * mandel.pixel);
    let dy = df64_b(df64_b(mandel.half_size.y - position.y) * mandel.pixel);
    return vec2<f32>(dx, dy);
}

fn mandel_f32(offset: vec2<f32>) -> f32 {
    let cr = df64_b(mandel.center_re.x + offset.x);
    let ci = df64_b(mandel.center_im.x + offset.y);
    var zr: f32 = 0.0;
    var zi: f32 = 0.0;
    for (var n: i32 = 0; n < mandel.max_iter; n++) {
        let zr2 = df64_b(zr * zr);
        let zi2 = df64_b(zi * zi);
        let m = df64_b(zr2 + zi2);
        if (m > MANDEL_BAILOUT) {
            return mandel_smooth(n, m);
        }
        zi = df64_b(df64_b(df64_b(2.0 * zr) * zi) + ci);
        zr = df64_b(df64_b(zr2 - zi2) + cr);
    }
    return -1.0;
}

// 2t: exact, a power-of-two scaling of each word.
fn mandel_twice(t: vec2<f32>) -> vec2<f32> {
    return vec2<f32>(df64_b(2.0 * t.x), df64_b(2.0 * t.y));
}

fn mandel_df64(offset: vec2<f32>) -> f32 {
    let cr = df64_add(mandel.center_re.xy, vec2<f32>(offset.x, 0.0));
    let ci = df64_add(mandel.center_im.xy, vec2<f32>(offset.y, 0.0));
    var zr = vec2<f32>(0.0, 0.0);
    var zi = vec2<f32>(0.0, 0.0);
    // The orbit stays below the bailout and errors count against 1, not against each term's
    // own size: the unscaled ops suffice and skip the exponent scaling.
    for (var n: i32 = 0; n < mandel.max_iter; n++) {
        let zr2 = df64_sqr_unscaled(zr);
        let zi2 = df64_sqr_unscaled(zi);
        let m = df64_b(zr2.x + zi2.x);
        if (m > MANDEL_BAILOUT) {
            return mandel_smooth(n, m);
        }
        let t = df64_mul_unscaled(zr, zi);
        zi = df64_add_unscaled(mandel_twice(t), ci);
        zr = df64_add_unscaled(df64_sub_unscaled(zr2, zi2), cr);
    }
    return -1.0;
}

// A cyclic palette over the square root of the count (black: did not escape); the same as
// glsl/mandelbrot.glsl's.
fn mandel_color(mu: f32) -> vec4<f32> {
    if (mu < 0.0) {
        return vec4<f32>(0.0, 0.0, 0.0, 1.0);
    }
    let t = df64_b(0.6 * sqrt(mu));
    let phase = vec3<f32>(0.0, 0.6, 1.0) * 3.0;
    return vec4<f32>(0.5 + 0.5 * cos(vec3<f32>(t, t, t) + phase), 1.0);
}

// One triangle that covers the viewport.
@vertex
fn mandel_vertex(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
    let p = vec2<f32>(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4<f32>(p * 2.0 - 1.0, 0.0, 1.0);
}

@fragment
fn mandel_f32_pane(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {
    return mandel_color(mandel_f32(mandel_offset(position)));
}

@fragment
fn mandel_df64_pane(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {
    return mandel_color(mandel_df64(mandel_offset(position)));
}
