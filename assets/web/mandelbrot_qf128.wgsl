// mandelbrot_qf128.wgsl: the qf128 pane of mandelbrot.wgsl (which comes before it), after
// DF64_QF128_WGSL, the export with qf128.

fn mandel_qf128(offset: vec2<f32>) -> f32 {
    let cr = qf128_add(mandel.center_re, vec4<f32>(offset.x, 0.0, 0.0, 0.0));
    let ci = qf128_add(mandel.center_im, vec4<f32>(offset.y, 0.0, 0.0, 0.0));
    var zr = vec4<f32>(0.0);
    var zi = vec4<f32>(0.0);
    for (var n: i32 = 0; n < mandel.max_iter; n++) {
        let zr2 = qf128_sqr(zr);
        let zi2 = qf128_sqr(zi);
        let m = df64_b(zr2.x + zi2.x);
        if (m > MANDEL_BAILOUT) {
            return mandel_smooth(n, m);
        }
        let t = qf128_mul(zr, zi);
        // 2t is exact: a power-of-two scaling of every word.
        let t2 = vec4<f32>(df64_b(2.0 * t.x), df64_b(2.0 * t.y), df64_b(2.0 * t.z), df64_b(2.0 * t.w));
        zi = qf128_add(t2, ci);
        zr = qf128_add(qf128_sub(zr2, zi2), cr);
    }
    return -1.0;
}

@fragment
fn mandel_qf128_pane(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {
    return mandel_color(mandel_qf128(mandel_offset(position)));
}
