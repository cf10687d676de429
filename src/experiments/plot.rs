//! PNG plots drawn on a plain RGB raster: axes, grid, polylines, labels in an 8x8 bitmap
//! font. Enough for spectra and error curves without a plotting stack or system fonts.

use std::fs::File;
use std::io::BufWriter;
use std::path::Path;

use font8x8::legacy::BASIC_LEGACY;

use super::ExperimentError;

pub type Rgb = [u8; 3];

pub const WHITE: Rgb = [255, 255, 255];
pub const BLACK: Rgb = [0, 0, 0];
pub const GREY: Rgb = [215, 215, 215];
pub const RED: Rgb = [214, 39, 40];
pub const BLUE: Rgb = [31, 119, 180];
pub const GREEN: Rgb = [44, 160, 44];
pub const ORANGE: Rgb = [255, 127, 14];
pub const PURPLE: Rgb = [148, 103, 189];

/// An RGB image.
pub struct Canvas {
    pub width: usize,
    pub height: usize,
    pixels: Vec<Rgb>,
}

impl Canvas {
    pub fn new(width: usize, height: usize, background: Rgb) -> Self {
        Canvas {
            width,
            height,
            pixels: vec![background; width * height],
        }
    }

    pub fn set(&mut self, x: i64, y: i64, c: Rgb) {
        if x >= 0 && y >= 0 && (x as usize) < self.width && (y as usize) < self.height {
            self.pixels[y as usize * self.width + x as usize] = c;
        }
    }

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

    /// ASCII text, 8x8 pixels a character, top-left at (x, y).
    pub fn text(&mut self, x: i64, y: i64, s: &str, c: Rgb) {
        for (i, ch) in s.chars().enumerate() {
            let glyph = BASIC_LEGACY[(ch as usize).min(127)];
            for (row, bits) in glyph.iter().enumerate() {
                for col in 0..8 {
                    if bits & (1 << col) != 0 {
                        self.set(x + 8 * i as i64 + col, y + row as i64, c);
                    }
                }
            }
        }
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
    pub label: &'a str,
    pub color: Rgb,
    pub y: &'a [f64],
}

/// A line chart with a linear x axis over the series' indices and a linear y axis over
/// `y_range`, labelled ticks, a title and a legend. Columns that cover many x values draw
/// the min-max range of those values, so narrow peaks survive decimation.
pub struct Chart<'a> {
    pub title: &'a str,
    pub x_label: &'a str,
    pub y_label: &'a str,
    pub x_range: (f64, f64),
    pub y_range: (f64, f64),
    pub y_step: f64,
    pub series: Vec<Series<'a>>,
}

impl Chart<'_> {
    pub fn render(&self, width: usize, height: usize) -> Canvas {
        let mut c = Canvas::new(width, height, WHITE);
        let (left, right, top, bottom) = (80i64, 20i64, 40i64, 50i64);
        let pw = width as i64 - left - right;
        let ph = height as i64 - top - bottom;
        let (y0, y1) = self.y_range;
        let ypix = |v: f64| top + ((y1 - v) / (y1 - y0) * ph as f64).round() as i64;
        // Grid and y ticks.
        let mut v = (y0 / self.y_step).ceil() * self.y_step;
        while v <= y1 + 1e-9 {
            let y = ypix(v);
            c.line((left, y), (left + pw, y), GREY);
            let label = format!("{v:.0}");
            c.text(left - 8 - 8 * label.len() as i64, y - 4, &label, BLACK);
            v += self.y_step;
        }
        // x ticks: five divisions of the x range.
        let (x0, x1) = self.x_range;
        for i in 0..=4 {
            let x = left + pw * i / 4;
            c.line((x, top), (x, top + ph), GREY);
            let value = x0 + (x1 - x0) * i as f64 / 4.0;
            let label = format!("{value:.0}");
            c.text(x - 4 * label.len() as i64, top + ph + 8, &label, BLACK);
        }
        c.line((left, top), (left, top + ph), BLACK);
        c.line((left, top + ph), (left + pw, top + ph), BLACK);
        c.text(left, 12, self.title, BLACK);
        c.text(
            left + pw / 2 - 4 * self.x_label.len() as i64,
            top + ph + 28,
            self.x_label,
            BLACK,
        );
        c.text(4, top - 16, self.y_label, BLACK);
        for s in &self.series {
            let n = s.y.len();
            if n == 0 {
                continue;
            }
            let mut prev: Option<(i64, i64)> = None;
            for px in 0..pw {
                let a = (px as usize * n) / pw as usize;
                let b = (((px + 1) as usize * n) / pw as usize).max(a + 1).min(n);
                let vals = s.y[a..b].iter().filter(|v| v.is_finite());
                let (lo, hi) = vals.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
                    (lo.min(*v), hi.max(*v))
                });
                if !lo.is_finite() {
                    prev = None;
                    continue;
                }
                let clamp = |v: f64| v.clamp(y0, y1);
                let (ylo, yhi) = (ypix(clamp(lo)), ypix(clamp(hi)));
                let x = left + px;
                c.line((x, ylo), (x, yhi), s.color);
                if let Some(p) = prev {
                    c.line(p, (x, (ylo + yhi) / 2), s.color);
                }
                prev = Some((x, (ylo + yhi) / 2));
            }
        }
        // Legend, top right.
        for (i, s) in self.series.iter().enumerate() {
            let y = top + 8 + 14 * i as i64;
            let x = left + pw - 12 - 8 * s.label.len() as i64 - 24;
            for dy in 0..3 {
                c.line((x, y + 3 + dy), (x + 18, y + 3 + dy), s.color);
            }
            c.text(x + 24, y, s.label, BLACK);
        }
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chart_draws_series_where_they_are() {
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
        let c = chart.render(400, 300);
        // The peak reaches the top of the plot area (y = 40) near the middle column.
        let reds_at_top = (80..380).filter(|x| c.get(*x, 40) == RED).count();
        assert!((1..10).contains(&reds_at_top), "{reds_at_top}");
        // The floor lies on the bottom line of the plot area.
        let reds_at_bottom = (80..380).filter(|x| c.get(*x, 250) == RED).count();
        assert!(reds_at_bottom > 250, "{reds_at_bottom}");
        let dir = std::env::temp_dir().join("df64gl-plot-test.png");
        c.write_png(&dir).unwrap();
        assert!(std::fs::metadata(&dir).unwrap().len() > 100);
    }
}
