//! Experiments: what the commands run. Each opens the engine, measures, and returns a
//! serialisable report with a text rendering: the accuracy tables, the papers' experiments
//! (`repro/`), the benchmarks (`*_bench.rs`, `lengths.rs`), the FFT study, the Mandelbrot zoom,
//! the exports measured in plain programs (`export_check.rs`, natively and in WebGL 2;
//! `wgsl_legs.rs`), and the known answers the npm module and the library check with.

pub mod accuracy;
pub mod export_check;
pub mod fft_bench;
pub mod fft_study;
pub mod known_answers;
pub mod lengths;
pub mod mandelbrot;
pub mod ops_bench;
pub mod repro;
pub mod vertex_bench;
pub mod wgsl_bench;
pub mod wgsl_legs;
