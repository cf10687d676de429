//! Experiments: what the commands run, each in the file or folder named for its command. Each
//! opens the engine, measures, and returns a serialisable report with a text rendering:
//! `accuracy/` (the accuracy tables), `repro/` (the papers' experiments), `bench/` (one file
//! per `bench` subcommand: `fft`, `lengths`, `ops`, `vertex`, and `wgsl/`), `fft_demo.rs` (the
//! FFT study), `mandelbrot/` (the zoom), `glsl.rs` and `wgsl.rs` (the exports measured in plain
//! programs: natively and in WebGL 2; on the wgpu legs), and `js/` (the npm module's generated
//! half and the known answers every check runs).

pub mod accuracy;
pub mod bench;
pub mod fft_demo;
pub mod glsl;
pub mod js;
pub mod mandelbrot;
pub mod repro;
pub mod wgsl;
