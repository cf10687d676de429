//! `df64gl bench`: one file per subcommand. `fft` (the FFT plans against f32, native double
//! and rustfft), `lengths` (accuracy and cost at every length), `ops` (ns per op per lane of
//! each tier), `vertex` (the cost per vertex of positions relative to the eye) and `wgsl/`
//! (the WGSL routines beside luma.gl's on each wgpu leg and in Chromium).

pub mod fft;
pub mod lengths;
pub mod ops;
pub mod vertex;
pub mod wgsl;
