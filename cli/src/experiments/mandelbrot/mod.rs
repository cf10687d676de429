//! Mandelbrot deep zoom, the paper's own example of df64 in a real fragment shader, built
//! from the same GLSL snippets users paste (`glsl/mandelbrot.glsl`): f32, df64 and qf128 side
//! by side, headless into PNG files or in a window with pan, zoom and a precision switch.

use std::time::Instant;

use astro_float::{BigFloat, RoundingMode};
use serde::Serialize;

use df64gl::gl::{timed, Framebuffer, GlContext, Pass, Program, Texture, Uniform};
use df64gl::kernels::proof::Outcome;
use df64gl::kernels::{Df64Kernels, KernelError};
use df64gl::numeric::df64::{
    df64_add, df64_add_unscaled, df64_mul_unscaled, df64_sqr_unscaled, df64_sub_unscaled, Df64,
};
use df64gl::numeric::oracle::{big, parse_decimal, round_to_qf128, to_f64, Oracle, ORACLE_BITS};
use df64gl::numeric::qf128::{qf128_add, qf128_mul, qf128_sqr, qf128_sub, Qf128};
use df64gl::probe::selftest::SelfTestFailure;

use crate::error::ExperimentError;
use crate::support::plot::{Canvas, BLACK, WHITE};

mod window;
pub use window::{MandelAction, MandelbrotApp};

/// Working precision of a Mandelbrot render.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum MandelPrecision {
    /// f32 arithmetic.
    F32,
    /// df64 arithmetic.
    Df64,
    /// qf128 arithmetic.
    Qf128,
}

impl MandelPrecision {
    /// The three, lowest first.
    pub const ALL: [MandelPrecision; 3] = [
        MandelPrecision::F32,
        MandelPrecision::Df64,
        MandelPrecision::Qf128,
    ];

    /// "f32", "df64" or "qf128".
    pub fn name(self) -> &'static str {
        match self {
            MandelPrecision::F32 => "f32",
            MandelPrecision::Df64 => "df64",
            MandelPrecision::Qf128 => "qf128",
        }
    }

    fn define(self) -> &'static str {
        match self {
            MandelPrecision::F32 => "MANDEL_F32",
            MandelPrecision::Df64 => "MANDEL_DF64",
            MandelPrecision::Qf128 => "MANDEL_QF128",
        }
    }
}

pub use crate::support::mandelbrot_view::{DEFAULT_CENTER, FULL_WIDTH, MAX_ZOOM, MIN_ZOOM};

/// `WIDTHxHEIGHT` in pixels (`640x480`); the sizes' limits are checked by
/// [`MandelbrotView::validate`].
pub fn parse_image_size(text: &str) -> Result<(u32, u32), ExperimentError> {
    text.split_once(['x', 'X'])
        .and_then(|(w, h)| Some((w.trim().parse().ok()?, h.trim().parse().ok()?)))
        .ok_or_else(|| {
            ExperimentError::Invalid(format!(
                "--size {text:?}: give WIDTHxHEIGHT in pixels, for example 640x480"
            ))
        })
}

/// What to draw: the center to full oracle precision, the zoom and the image size.
#[derive(Debug, Clone)]
pub struct MandelbrotView {
    /// Real part of the center, exact.
    pub center_re: BigFloat,
    /// Imaginary part of the center.
    pub center_im: BigFloat,
    /// The view is `FULL_WIDTH * zoom` wide in the complex plane.
    pub zoom: f64,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `None`: chosen from the zoom.
    pub max_iter: Option<u32>,
}

impl MandelbrotView {
    /// A view from the command line's strings: `center` is "X,Y" in decimal, any number of
    /// digits (kept to the oracle's 256 bits, so qf128 is not limited by f64).
    pub fn parse(
        center: &str,
        zoom: f64,
        width: u32,
        height: u32,
        max_iter: Option<u32>,
    ) -> Result<Self, ExperimentError> {
        let mut oracle = Oracle::new();
        let (re, im) = center.split_once(',').ok_or_else(|| {
            ExperimentError::Invalid(format!(
                "--center {center:?}: give the real and imaginary parts as X,Y, for example \
                 --center=-0.75,0.1"
            ))
        })?;
        let part = |s: &str, what: &str, o: &mut Oracle| {
            parse_decimal(s, o).ok_or_else(|| {
                ExperimentError::Invalid(format!(
                    "--center: the {what} part {s:?} is not a decimal number (digits, an optional \
                     sign, point and exponent)"
                ))
            })
        };
        let view = MandelbrotView {
            center_re: part(re, "real", &mut oracle)?,
            center_im: part(im, "imaginary", &mut oracle)?,
            zoom,
            width,
            height,
            max_iter,
        };
        view.validate(None)?;
        Ok(view)
    }

    /// Checks the zoom, the iteration count and (with a context) the size against the limits.
    pub fn validate(&self, ctx: Option<&GlContext>) -> Result<(), ExperimentError> {
        if !(self.zoom.is_finite() && self.zoom > 0.0) {
            return Err(ExperimentError::Invalid(format!(
                "--zoom {}: the zoom must be a positive number (1 shows the whole set, 1e-13 a \
                 view 3e-13 wide)",
                self.zoom
            )));
        }
        if !(MIN_ZOOM..=MAX_ZOOM).contains(&self.zoom) {
            return Err(ExperimentError::Invalid(format!(
                "--zoom {:e} is outside [{MIN_ZOOM:e}, {MAX_ZOOM}]: below {MIN_ZOOM:e} pixels are \
                 finer than qf128 resolves",
                self.zoom
            )));
        }
        if self.max_iter == Some(0) || self.max_iter.is_some_and(|n| n > 1_000_000) {
            return Err(ExperimentError::Invalid(
                "--iterations must be between 1 and 1000000".into(),
            ));
        }
        // The center goes to the GPU as f32 words: past 2^60 the first square of the
        // iteration leaves f32's range before the escape test sees it. Tiny centers need no
        // guard: a part too small for f32 is far below any pixel (zoom >= 1e-30).
        let limit_center = 2f64.powi(60);
        for (what, v) in [("real", &self.center_re), ("imaginary", &self.center_im)] {
            let x = to_f64(v);
            if x.is_nan() || x.abs() > limit_center {
                return Err(ExperimentError::Invalid(format!(
                    "--center: the {what} part {x:e} is beyond +-2^60 ({limit_center:.2e}), which \
                     df64's f32 words cannot iterate (the set itself lies within |c| <= 2)"
                )));
            }
        }
        // Without a context only emptiness is checked; the limit is the driver's.
        let limit = ctx.map_or(u32::MAX, |c| c.info().max_texture_size);
        if self.width == 0 || self.height == 0 || self.width > limit || self.height > limit {
            return Err(ExperimentError::Invalid(format!(
                "image size {}x{}: each side must be between 1 and {limit} (this driver's texture \
                 limit)",
                self.width, self.height
            )));
        }
        Ok(())
    }

    /// Complex-plane units per pixel.
    pub fn pixel_size(&self) -> f64 {
        FULL_WIDTH * self.zoom / self.width as f64
    }

    /// Iterations: as given, else growing with the depth of the zoom.
    pub fn iterations(&self) -> u32 {
        self.max_iter
            .unwrap_or_else(|| (250.0 + 250.0 * (1.0 / self.zoom).log10().max(0.0)) as u32)
    }

    /// The center rounded to qf128 words (the shader takes what each precision keeps).
    pub fn center_words(&self) -> ([f32; 4], [f32; 4]) {
        (
            round_to_qf128(&self.center_re).x,
            round_to_qf128(&self.center_im).x,
        )
    }

    /// Moves the center by a number of pixels (x right, y up), exactly in the oracle.
    pub fn pan_pixels(&mut self, dx: f64, dy: f64) {
        let p = self.pixel_size();
        let rm = RoundingMode::ToEven;
        self.center_re = self.center_re.add(&big(dx * p), ORACLE_BITS, rm);
        self.center_im = self.center_im.add(&big(dy * p), ORACLE_BITS, rm);
    }

    /// Zooms by `factor` (< 1: in) keeping the point under pixel offset (dx, dy) from the
    /// center in place; clamped to the zoom limits.
    pub fn zoom_at(&mut self, factor: f64, dx: f64, dy: f64) {
        let new_zoom = (self.zoom * factor).clamp(MIN_ZOOM, MAX_ZOOM);
        let f = new_zoom / self.zoom;
        // The point under the cursor stays: center' = center + d * p * (1 - f).
        self.pan_pixels(dx * (1.0 - f), dy * (1.0 - f));
        self.zoom = new_zoom;
    }

    /// The center rounded to f64.
    pub fn center_f64(&self) -> (f64, f64) {
        (to_f64(&self.center_re), to_f64(&self.center_im))
    }
}

/// Smooth escape counts, row 0 at the bottom (GL order); negative: did not escape.
#[derive(Debug, Clone)]
pub struct MandelImage {
    /// The precision.
    pub precision: MandelPrecision,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Smooth escape count per pixel, row-major (-1: did not escape).
    pub counts: Vec<f32>,
    /// GPU time of the render.
    pub gpu_seconds: f64,
}

/// How blocky an image is: neighbours that came out identical because their c values
/// rounded to the same number.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct ImageStats {
    /// Distinct escape counts in the image.
    pub distinct: usize,
    /// Share of horizontally or vertically adjacent escaped pixel pairs with equal counts.
    pub equal_neighbours: f64,
    /// Share of pixels that escaped.
    pub escaped: f64,
}

impl MandelImage {
    /// Distinct values, equal neighbours and escaped pixels.
    pub fn stats(&self) -> ImageStats {
        let (w, h) = (self.width as usize, self.height as usize);
        let at = |x: usize, y: usize| self.counts[y * w + x];
        let (mut pairs, mut equal) = (0usize, 0usize);
        for y in 0..h {
            for x in 0..w {
                let v = at(x, y);
                if v < 0.0 {
                    continue;
                }
                for (nx, ny) in [(x + 1, y), (x, y + 1)] {
                    if nx < w && ny < h && at(nx, ny) >= 0.0 {
                        pairs += 1;
                        equal += (at(nx, ny).to_bits() == v.to_bits()) as usize;
                    }
                }
            }
        }
        let mut bits: Vec<u32> = self.counts.iter().map(|c| c.to_bits()).collect();
        bits.sort_unstable();
        bits.dedup();
        ImageStats {
            distinct: bits.len(),
            equal_neighbours: if pairs > 0 {
                equal as f64 / pairs as f64
            } else {
                0.0
            },
            escaped: self.counts.iter().filter(|c| **c >= 0.0).count() as f64
                / self.counts.len().max(1) as f64,
        }
    }

    /// The palette of the window (`MANDEL_COLOR` in the shader), top row first.
    pub fn colorize(&self) -> Canvas {
        let (w, h) = (self.width as usize, self.height as usize);
        let mut c = Canvas::new(w, h, BLACK);
        for y in 0..h {
            for x in 0..w {
                let mu = self.counts[y * w + x];
                if mu >= 0.0 {
                    c.set(x as i64, (h - 1 - y) as i64, palette(mu));
                }
            }
        }
        c
    }
}

/// The shader's palette: cosines over the square root of the count.
pub fn palette(mu: f32) -> [u8; 3] {
    let t = 0.6 * mu.sqrt();
    let ch = |phase: f32| ((0.5 + 0.5 * (t + phase * 3.0).cos()) * 255.0).round() as u8;
    [ch(0.0), ch(0.6), ch(1.0)]
}

/// Compiled Mandelbrot programs, one per precision (and colour/count variant), on demand.
#[derive(Default)]
pub struct MandelRenderer {
    programs: Vec<((MandelPrecision, bool), Program)>,
}

impl MandelRenderer {
    /// A renderer with no programs built yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Builds (and self-tests) the program of `precision` ahead of its first render.
    pub fn prepare(
        &mut self,
        kernels: &Df64Kernels,
        precision: MandelPrecision,
        color: bool,
    ) -> Result<(), ExperimentError> {
        self.program(kernels, precision, color).map(|_| ())
    }

    fn program(
        &mut self,
        kernels: &Df64Kernels,
        precision: MandelPrecision,
        color: bool,
    ) -> Result<&Program, ExperimentError> {
        let key = (precision, color);
        if let Some(i) = self.programs.iter().position(|(k, _)| *k == key) {
            return Ok(&self.programs[i].1);
        }
        let mut defines = vec![(precision.define(), "1")];
        if color {
            defines.push(("MANDEL_COLOR", "1"));
        }
        let p = if precision == MandelPrecision::F32 {
            // Plain f32 code, which a compiler may contract as it likes: nothing to prove.
            kernels.build_program("mandelbrot.glsl", &defines)?
        } else {
            let name = format!(
                "mandelbrot.glsl ({}{})",
                precision.name(),
                if color { ", colour" } else { "" }
            );
            kernels.build_program_proven("mandelbrot.glsl", &defines, &name, |program| {
                self_test(kernels, program, precision, color, &name)
            })?
        };
        self.programs.push((key, p));
        Ok(&self.programs[self.programs.len() - 1].1)
    }

    fn pass<'a>(program: &'a Program, view: &MandelbrotView) -> Pass<'a> {
        let (re, im) = view.center_words();
        Pass::new(program)
            .uniform("u_center_re", Uniform::Vec4(re))
            .uniform("u_center_im", Uniform::Vec4(im))
            .uniform("u_pixel", Uniform::F32(view.pixel_size() as f32))
            .uniform(
                "u_half",
                Uniform::Vec2([view.width as f32 / 2.0, view.height as f32 / 2.0]),
            )
            .uniform("u_max_iter", Uniform::I32(view.iterations() as i32))
    }

    /// Renders the escape counts into a float texture and reads them back.
    pub fn render(
        &mut self,
        kernels: &Df64Kernels,
        view: &MandelbrotView,
        precision: MandelPrecision,
    ) -> Result<MandelImage, ExperimentError> {
        let ctx = kernels.context().clone();
        view.validate(Some(&ctx))?;
        let tex = Texture::new(&ctx, view.width, view.height)?;
        let fb = Framebuffer::new(&ctx, &[&tex])?;
        let program = self.program(kernels, precision, false)?;
        let pass = Self::pass(program, view);
        let ((), t) = timed::<_, ExperimentError>(&ctx, || Ok(pass.run(&ctx, &fb)?))?;
        let texels: Vec<[f32; 4]> = fb.read(&ctx, 0)?;
        Ok(MandelImage {
            precision,
            width: view.width,
            height: view.height,
            counts: texels.iter().map(|t| t[0]).collect(),
            gpu_seconds: t.best().as_secs_f64(),
        })
    }

    /// Draws the coloured view into the bound (window) framebuffer, `view.width` x
    /// `view.height` pixels.
    pub fn draw_colored(
        &mut self,
        kernels: &Df64Kernels,
        view: &MandelbrotView,
        precision: MandelPrecision,
    ) -> Result<(), ExperimentError> {
        let ctx = kernels.context().clone();
        let program = self.program(kernels, precision, true)?;
        Self::pass(program, view).draw(&ctx)?;
        Ok(())
    }
}

/// The view a Mandelbrot program's self-test renders: 8 x 8 pixels of seahorse valley about
/// 2^-45 of the center apart, orbits of up to 3000 iterations near the set's boundary. The
/// orbits are chaotic, so a difference in the last bits of one product (df64 or qf128) grows
/// until it changes escape counts: measured, the 0.1.0 barrier's errors change them in both.
fn self_test_view(precision: MandelPrecision) -> Result<MandelbrotView, ExperimentError> {
    // qf128's mirror costs about 3 us an iteration: 4 x 4 pixels keep the test near 5% of
    // the program's build.
    let side = if precision == MandelPrecision::Qf128 {
        4
    } else {
        8
    };
    MandelbrotView::parse(DEFAULT_CENTER, 1e-13, side, side, Some(3000))
}

/// Known-answer test of a df64 or qf128 Mandelbrot program: the escape counts of
/// [`self_test_view`] against [`mandel_count_mirror`] (the smooth part uses the GPU's log2, so
/// counts agree to 1e-3; the escape iteration exactly). The colour variant draws the palette of
/// the same counts, compared to 2/255.
fn self_test(
    kernels: &Df64Kernels,
    program: &Program,
    precision: MandelPrecision,
    color: bool,
    name: &str,
) -> Result<Outcome, KernelError> {
    let ctx = kernels.context();
    let view = self_test_view(precision).map_err(|e| KernelError::Refused(e.to_string()))?;
    let tex = Texture::new(ctx, view.width, view.height)?;
    let fb = Framebuffer::new(ctx, &[&tex])?;
    MandelRenderer::pass(program, &view).run(ctx, &fb)?;
    let texels: Vec<[f32; 4]> = fb.read(ctx, 0)?;
    let (re, im) = view.center_words();
    let pixel = view.pixel_size() as f32;
    let (w, h) = (view.width as usize, view.height as usize);
    let half = [view.width as f32 / 2.0, view.height as f32 / 2.0];
    let iterations = view.iterations() as i32;
    let want = kernels.mirror_map(w * h, |i| {
        let offset = [
            ((i % w) as f32 + 0.5 - half[0]) * pixel,
            ((i / w) as f32 + 0.5 - half[1]) * pixel,
        ];
        mandel_count_mirror(precision, (re, im), offset, iterations)
    });
    let failure = texels
        .iter()
        .zip(&want)
        .enumerate()
        .find_map(|(i, (t, mu))| {
            let ok = if color {
                let rgb = if *mu < 0.0 { [0; 3] } else { palette(*mu) };
                rgb.iter()
                    .zip(t)
                    .all(|(c, g)| (*c as f32 - g * 255.0).abs() <= 2.0)
            } else {
                (t[0] < 0.0 && *mu < 0.0) || (t[0] - mu).abs() <= 1e-3 * mu.abs().max(1.0)
            };
            (!ok).then(|| SelfTestFailure {
                program: name.to_string(),
                input: format!(
                    "pixel ({}, {}) of an 8x8 view at the default center, zoom {:e}, {iterations} \
                 iterations",
                    i % w,
                    i / w,
                    view.zoom
                ),
                got: format!("{t:?}"),
                expected: format!("escape count {mu}"),
            })
        });
    Ok(Outcome {
        cases: want.len(),
        failure,
    })
}

/// CPU mirror of `mandel_count` in `glsl/mandelbrot.glsl` for df64 and qf128: the same
/// operations in the same order; -1 for points that did not escape.
pub fn mandel_count_mirror(
    precision: MandelPrecision,
    center: ([f32; 4], [f32; 4]),
    offset: [f32; 2],
    max_iter: i32,
) -> f32 {
    const BAILOUT: f32 = 65536.0;
    let smooth = |n: i32, m: f32| n as f32 + 1.0 - (0.5 * m.log2()).log2();
    match precision {
        MandelPrecision::Qf128 => {
            let cr = qf128_add(Qf128 { x: center.0 }, Qf128::from_f32(offset[0]));
            let ci = qf128_add(Qf128 { x: center.1 }, Qf128::from_f32(offset[1]));
            let (mut zr, mut zi) = (Qf128::ZERO, Qf128::ZERO);
            for n in 0..max_iter {
                let zr2 = qf128_sqr(zr);
                let zi2 = qf128_sqr(zi);
                let m = zr2.x[0] + zi2.x[0];
                if m > BAILOUT {
                    return smooth(n, m);
                }
                let t = qf128_mul(zr, zi);
                zi = qf128_add(
                    Qf128 {
                        x: t.x.map(|w| 2.0 * w),
                    },
                    ci,
                );
                zr = qf128_add(qf128_sub(zr2, zi2), cr);
            }
        }
        MandelPrecision::Df64 | MandelPrecision::F32 => {
            let cr = df64_add(
                Df64::new(center.0[0], center.0[1]),
                Df64::new(offset[0], 0.0),
            );
            let ci = df64_add(
                Df64::new(center.1[0], center.1[1]),
                Df64::new(offset[1], 0.0),
            );
            let (mut zr, mut zi) = (Df64::ZERO, Df64::ZERO);
            // The unscaled ops, as mandelbrot.glsl uses in the orbit.
            for n in 0..max_iter {
                let zr2 = df64_sqr_unscaled(zr);
                let zi2 = df64_sqr_unscaled(zi);
                let m = zr2.hi + zi2.hi;
                if m > BAILOUT {
                    return smooth(n, m);
                }
                let t = df64_mul_unscaled(zr, zi);
                zi = df64_add_unscaled(Df64::new(2.0 * t.hi, 2.0 * t.lo), ci);
                zr = df64_add_unscaled(df64_sub_unscaled(zr2, zi2), cr);
            }
        }
    }
    -1.0
}

/// Renders each precision and lays the images side by side, labelled, for one PNG.
pub fn side_by_side(images: &[MandelImage]) -> Canvas {
    let w: usize =
        images.iter().map(|i| i.width as usize).sum::<usize>() + 4 * images.len().saturating_sub(1);
    let h = images.iter().map(|i| i.height as usize).max().unwrap_or(0) + 16;
    let mut c = Canvas::new(w.max(1), h, WHITE);
    let mut x0 = 0usize;
    for img in images {
        let part = img.colorize();
        for y in 0..img.height as usize {
            for x in 0..img.width as usize {
                c.set((x0 + x) as i64, (16 + y) as i64, part.get(x, y));
            }
        }
        c.text(x0 as i64 + 4, 1, img.precision.name(), 14, BLACK);
        x0 += img.width as usize + 4;
    }
    c
}

/// The headless command's result, for `--json` and the tests.
#[derive(Debug, Clone, Serialize)]
pub struct MandelRun {
    /// The center, rounded to f64.
    pub center: (f64, f64),
    /// The zoom (1: the whole set).
    pub zoom: f64,
    /// Complex-plane units per pixel.
    pub pixel_size: f64,
    /// Iteration limit.
    pub iterations: u32,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// One image per precision.
    pub images: Vec<MandelRunImage>,
}

/// One rendered image in the run summary.
#[derive(Debug, Clone, Serialize)]
pub struct MandelRunImage {
    /// The precision.
    pub precision: MandelPrecision,
    /// GPU time of the render.
    pub gpu_seconds: f64,
    /// Wall-clock time of the render.
    pub wall_seconds: f64,
    /// Its statistics.
    pub stats: ImageStats,
    /// When qf128 was rendered too: share of pixels that agree with it (both inside, or both
    /// escaped with counts within 1%).
    pub agreement_with_qf128: Option<f64>,
}

/// Share of pixels of `a` that agree with `b` (same escape status, counts within 1%).
pub fn agreement(a: &MandelImage, b: &MandelImage) -> f64 {
    let same = a
        .counts
        .iter()
        .zip(&b.counts)
        .filter(|(x, y)| {
            (**x < 0.0 && **y < 0.0)
                || (**x >= 0.0 && **y >= 0.0 && (*x - *y).abs() <= 0.01 * y.max(1.0))
        })
        .count();
    same as f64 / a.counts.len().max(1) as f64
}

/// Renders `precisions` of `view`; returns the images and their summary.
pub fn render_views(
    kernels: &Df64Kernels,
    view: &MandelbrotView,
    precisions: &[MandelPrecision],
) -> Result<(Vec<MandelImage>, MandelRun), ExperimentError> {
    let mut renderer = MandelRenderer::new();
    let mut images = Vec::new();
    let mut summary = Vec::new();
    for &p in precisions {
        let t0 = Instant::now();
        let img = renderer.render(kernels, view, p)?;
        summary.push(MandelRunImage {
            precision: p,
            gpu_seconds: img.gpu_seconds,
            wall_seconds: t0.elapsed().as_secs_f64(),
            stats: img.stats(),
            agreement_with_qf128: None,
        });
        images.push(img);
    }
    if let Some(q) = images
        .iter()
        .position(|i| i.precision == MandelPrecision::Qf128)
    {
        for (k, s) in summary.iter_mut().enumerate() {
            s.agreement_with_qf128 = Some(agreement(&images[k], &images[q]));
        }
    }
    Ok((
        images,
        MandelRun {
            center: view.center_f64(),
            zoom: view.zoom,
            pixel_size: view.pixel_size(),
            iterations: view.iterations(),
            width: view.width,
            height: view.height,
            images: summary,
        },
    ))
}
