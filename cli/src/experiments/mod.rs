//! Experiments: what the commands run. Each opens the engine, measures, and returns a
//! serialisable report with a text rendering: the accuracy tables, the papers' experiments
//! (`repro/`), the benchmarks (`*_bench.rs`, `lengths.rs`), the FFT study, the Mandelbrot zoom,
//! the exports measured in plain programs (`export_check.rs`, `wgsl_legs.rs`), and what they
//! share (signals, plots, report tables, paper data, known answers).

pub mod accuracy;
pub mod export_check;
pub mod fft_bench;
pub mod fft_study;
pub mod known_answers;
pub mod lengths;
pub mod mandelbrot;
pub mod ops_bench;
pub mod paper;
pub mod plot;
pub mod repro;
pub mod signal;
pub mod table;
pub mod vertex_bench;
pub mod wgsl_bench;
pub mod wgsl_legs;
