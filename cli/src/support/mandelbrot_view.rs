//! The Mandelbrot view's limits and default target, shared by the native zoom and the
//! `df64gl web` page.

/// Width of the view in the complex plane at zoom 1 (the whole set).
pub const FULL_WIDTH: f64 = 3.0;
/// Smallest zoom: below it pixels are finer than qf128 (about 96 bits) resolves anywhere
/// near the set, and their size (an f32 uniform) approaches f32's range.
pub const MIN_ZOOM: f64 = 1e-30;
/// Largest zoom: the set is a dot.
pub const MAX_ZOOM: f64 = 100.0;
/// Seahorse valley, to 33 digits: the default deep-zoom target.
pub const DEFAULT_CENTER: &str =
    "-0.743643887037158704752191506114774,0.131825904205311970493132056385139";
