//! PNG plots: line charts drawn by plotters with a real font (DejaVu Sans, bundled in
//! `assets/fonts` so no system font is needed), into a plain RGB raster that also holds the
//! Mandelbrot images and writes PNG files.

use std::fs::File;
use std::io::BufWriter;
use std::path::Path;
use std::sync::Once;

use plotters::prelude::*;
use plotters::style::{register_font, FontStyle};

use crate::error::ExperimentError;

/// An 8-bit colour.
pub type Rgb = [u8; 3];

/// White.
pub const WHITE: Rgb = [255, 255, 255];
/// Black.
pub const BLACK: Rgb = [0, 0, 0];
/// Light grey (grid lines).
pub const GREY: Rgb = [215, 215, 215];
/// Red.
pub const RED: Rgb = [214, 39, 40];
/// Blue.
pub const BLUE: Rgb = [31, 119, 180];
/// Green.
pub const GREEN: Rgb = [44, 160, 44];
/// Orange.
pub const ORANGE: Rgb = [255, 127, 14];
/// Purple.
pub const PURPLE: Rgb = [148, 103, 189];

/// An RGB image.
pub struct Canvas {
    /// Width in pixels.
    pub width: usize,
    /// Height in pixels.
    pub height: usize,
    pixels: Vec<Rgb>,
}

impl Canvas {
    /// A canvas filled with `background`.
    pub fn new(width: usize, height: usize, background: Rgb) -> Self {
        Canvas {
            width,
            height,
            pixels: vec![background; width * height],
        }
    }

    /// Sets a pixel (ignored outside the canvas).
    pub fn set(&mut self, x: i64, y: i64, c: Rgb) {
        if x >= 0 && y >= 0 && (x as usize) < self.width && (y as usize) < self.height {
            self.pixels[y as usize * self.width + x as usize] = c;
        }
    }

    /// A pixel's colour.
    pub fn get(&self, x: usize, y: usize) -> Rgb {
        self.pixels[y * self.width + x]
    }

    /// Bresenham line.
    pub fn line(&mut self, (x0, y0): (i64, i64), (x1, y1): (i64, i64), c: Rgb) {
        let (dx, dy) = ((x1 - x0).abs(), -(y1 - y0).abs());
        let (sx, sy) = (if x0 < x1 { 1 } else { -1 }, if y0 < y1 { 1 } else { -1 });
        let (mut x, mut y, mut err) = (x0, y0, dx + dy);
        loop {
            self.set(x, y, c);
            if x == x1 && y == y1 {
                break;
            }
            let e2 = 2 * err;
            if e2 >= dy {
                err += dy;
                x += sx;
            }
            if e2 <= dx {
                err += dx;
                y += sy;
            }
        }
    }

    /// Text in the bundled sans-serif font, `size` pixels high, top-left at (x, y).
    pub fn text(&mut self, x: i64, y: i64, s: &str, size: u32, c: Rgb) {
        register_fonts();
        let (w, h) = (self.width as u32, self.height as u32);
        let buf: &mut [u8] = bytemuck::cast_slice_mut(&mut self.pixels);
        let root = BitMapBackend::with_buffer(buf, (w, h)).into_drawing_area();
        let style = (FONT, size).into_font().color(&rgb(c));
        // Drawing text cannot fail on an in-memory buffer but for a font error, which the
        // bundled font rules out; a failure leaves the canvas without the label.
        let _ = root.draw_text(s, &style, (x as i32, y as i32));
        let _ = root.present();
    }

    /// `top` above `bottom` (the wider sets the width).
    pub fn stack(top: &Canvas, bottom: &Canvas) -> Canvas {
        let mut c = Canvas::new(
            top.width.max(bottom.width),
            top.height + bottom.height,
            WHITE,
        );
        for (dy, part) in [(0, top), (top.height, bottom)] {
            for y in 0..part.height {
                for x in 0..part.width {
                    c.pixels[(y + dy) * c.width + x] = part.get(x, y);
                }
            }
        }
        c
    }

    /// Writes the canvas as a PNG file.
    pub fn write_png(&self, path: &Path) -> Result<(), ExperimentError> {
        let io = |e: std::io::Error| ExperimentError::Io(path.display().to_string(), e);
        let file = File::create(path).map_err(io)?;
        let mut enc =
            png::Encoder::new(BufWriter::new(file), self.width as u32, self.height as u32);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        let png_err = |e: png::EncodingError| {
            ExperimentError::Io(path.display().to_string(), std::io::Error::other(e))
        };
        let mut w = enc.write_header().map_err(png_err)?;
        w.write_image_data(bytemuck::cast_slice(&self.pixels))
            .map_err(png_err)?;
        Ok(())
    }
}

/// One curve: y values at x = 0, 1, ... (NaN or infinite values leave gaps).
pub struct Series<'a> {
    /// The legend text.
    pub label: &'a str,
    /// Its colour.
    pub color: Rgb,
    /// The values; point i is at x = x0 + i.
    pub y: &'a [f64],
}

/// The family name the bundled font is registered under.
const FONT: &str = "sans-serif";
static FONT_DATA: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSans.ttf");

fn register_fonts() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The bundled font parses (a test renders text with it); an error would only leave
        // labels out.
        let _ = register_font(FONT, FontStyle::Normal, FONT_DATA);
    });
}

fn rgb(c: Rgb) -> RGBColor {
    RGBColor(c[0], c[1], c[2])
}

/// A line chart of series (point i at x = x_range.0 + i) with labelled axes, a title and a legend in a
/// column of its own at the right (so it never covers a curve). The y axis is linear over
/// `y_range` with ticks every `y_step` (values already in dB or log10 for data that spans
/// decades).
pub struct Chart<'a> {
    /// The title.
    pub title: &'a str,
    /// The x axis label.
    pub x_label: &'a str,
    /// The y axis label.
    pub y_label: &'a str,
    /// The x axis range.
    pub x_range: (f64, f64),
    /// The y axis range.
    pub y_range: (f64, f64),
    /// Distance between y ticks.
    pub y_step: f64,
    /// The curves.
    pub series: Vec<Series<'a>>,
}

/// Least width of the legend column, pixels.
const LEGEND_WIDTH: u32 = 120;

impl Chart<'_> {
    /// Width of the legend column: the longest label at about 8 pixels a character.
    fn legend_width(&self) -> u32 {
        let longest = self.series.iter().map(|s| s.label.chars().count()).max();
        (50 + 8 * longest.unwrap_or(0) as u32).clamp(LEGEND_WIDTH, 320)
    }

    /// The chart as a `width` x `height` image.
    pub fn render(&self, width: usize, height: usize) -> Canvas {
        register_fonts();
        let mut c = Canvas::new(width, height, WHITE);
        let (w, h) = (width as u32, height as u32);
        {
            let buf: &mut [u8] = bytemuck::cast_slice_mut(&mut c.pixels);
            let root = BitMapBackend::with_buffer(buf, (w, h)).into_drawing_area();
            // Drawing into a buffer fails only on a font error, which the bundled font rules
            // out; the canvas is then left as far as it got.
            let _ = self.draw(&root, w);
            let _ = root.present();
        }
        c
    }

    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, plotters::coord::Shift>,
        width: u32,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        // The title over the whole width (a long one is not clipped to the plot's).
        let body = root.titled(self.title, (FONT, 18))?;
        let (plot, legend) = body.split_horizontally(width.saturating_sub(self.legend_width()));
        let (x0, x1) = self.x_range;
        let (y0, y1) = self.y_range;
        let ticks = ((y1 - y0) / self.y_step).round().max(1.0) as usize + 1;
        let mut chart = ChartBuilder::on(&plot)
            .margin(10)
            .x_label_area_size(40)
            .y_label_area_size(64)
            .build_cartesian_2d(x0..x1, y0..y1)?;
        chart
            .configure_mesh()
            .x_desc(self.x_label)
            .y_desc(self.y_label)
            .y_labels(ticks)
            .x_label_formatter(&|v| tick(*v))
            .y_label_formatter(&|v| tick(*v))
            .label_style((FONT, 13))
            .axis_desc_style((FONT, 14))
            .light_line_style(RGBColor(240, 240, 240))
            .bold_line_style(RGBColor(215, 215, 215))
            .draw()?;
        for s in &self.series {
            let style = rgb(s.color).stroke_width(1);
            // A non-finite value breaks the line (a gap), as the values are undefined there.
            let mut run: Vec<(f64, f64)> = Vec::new();
            let mut runs = Vec::new();
            for (i, v) in s.y.iter().enumerate() {
                if v.is_finite() {
                    run.push((x0 + i as f64, v.clamp(y0, y1)));
                } else if !run.is_empty() {
                    runs.push(std::mem::take(&mut run));
                }
            }
            runs.push(run);
            for r in runs.into_iter().filter(|r| !r.is_empty()) {
                chart.draw_series(LineSeries::new(r, style))?;
            }
        }
        // The legend: a swatch and the label per series, top down.
        for (i, s) in self.series.iter().enumerate() {
            let y = 20 + 22 * i as i32;
            legend.draw(&Rectangle::new(
                [(8, y - 2), (30, y + 2)],
                rgb(s.color).filled(),
            ))?;
            legend.draw(&Text::new(
                s.label.to_string(),
                (36, y - 8),
                (FONT, 14).into_font().color(&BLACK_TEXT),
            ))?;
        }
        Ok(())
    }
}

const BLACK_TEXT: RGBColor = RGBColor(0, 0, 0);

/// A tick label without trailing zeros: 500, 0.5, -1.25.
fn tick(v: f64) -> String {
    let s = format!("{v:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chart_draws_series_where_they_are_and_the_legend_beside_them() {
        let y: Vec<f64> = (0..100)
            .map(|i| if i == 50 { 0.0 } else { -100.0 })
            .collect();
        let chart = Chart {
            title: "t",
            x_label: "bin",
            y_label: "dB",
            x_range: (0.0, 100.0),
            y_range: (-100.0, 0.0),
            y_step: 20.0,
            series: vec![Series {
                label: "s",
                color: RED,
                y: &y,
            }],
        };
        let (w, h) = (600, 300);
        let c = chart.render(w, h);
        let plot_w = w - chart.legend_width() as usize;
        let reds = |x: std::ops::Range<usize>, y: std::ops::Range<usize>| {
            x.flat_map(|x| y.clone().map(move |y| (x, y)))
                // Steep lines are antialiased: reddish counts.
                .filter(|&(x, y)| {
                    let [r, g, b] = c.get(x, y);
                    r > 150 && g < 150 && b < 150
                })
                .count()
        };
        // The floor is a long horizontal red run low in the plot; the peak a narrow spike
        // reaching the top half near the middle of the x range.
        let low_rows = (0..h).max_by_key(|&y| reds(0..plot_w, y..y + 1)).unwrap();
        assert!(
            reds(0..plot_w, low_rows..low_rows + 1) > plot_w / 2,
            "{low_rows}"
        );
        assert!(low_rows > h / 2);
        let top_half = reds(0..plot_w, 0..h / 2);
        assert!(top_half > 10, "{top_half}");
        // The legend's swatch is in its own column, not over the plot.
        assert!(reds(plot_w..w, 0..h) > 20);
        // Text is drawn (dark pixels in the legend column beyond the swatch).
        let dark = (plot_w + 36..w)
            .flat_map(|x| (0..h).map(move |y| (x, y)))
            .filter(|&(x, y)| c.get(x, y).iter().all(|v| *v < 100))
            .count();
        assert!(dark > 5, "{dark}");
        let dir = std::env::temp_dir().join("df64gl-plot-test.png");
        c.write_png(&dir).unwrap();
        assert!(std::fs::metadata(&dir).unwrap().len() > 100);
    }

    #[test]
    fn tick_labels_drop_trailing_zeros() {
        assert_eq!(tick(500.0), "500");
        assert_eq!(tick(0.5), "0.5");
        assert_eq!(tick(-1.25), "-1.25");
        assert_eq!(tick(-0.001), "0");
    }

    #[test]
    fn canvas_text_uses_the_bundled_font() {
        let mut c = Canvas::new(120, 30, WHITE);
        c.text(2, 2, "df64 0.5", 20, BLACK);
        let dark = (0..120)
            .flat_map(|x| (0..30).map(move |y| (x, y)))
            .filter(|&(x, y)| c.get(x, y)[0] < 128)
            .count();
        assert!(dark > 40, "{dark}");
    }
}
