//! df64gl: double-float (df64) arithmetic as OpenGL fragment programs on RGBA32F textures,
//! after Thall (2007), with a driver probe that proves the error-free transforms exact on the
//! driver at hand before anything runs.

pub mod experiments;
pub mod fft;
pub mod gl;
pub mod kernels;
pub mod numeric;
pub mod probe;
