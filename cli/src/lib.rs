//! The `df64gl` command line's library, built on the `df64gl` library and kept apart from it so
//! that a renderer that depends on the library compiles none of this (clap, plotters, hound):
//!
//! - [`commands`]: one module per command of `df64gl` and `fft-demo`; the binaries in
//!   `src/bin/` only parse their arguments and call [`commands::run`] or
//!   [`commands::fft_demo::run_fft_demo`];
//! - [`experiments`]: what the commands run (the papers' experiments, the accuracy tables, the
//!   benchmarks, the FFT study, the Mandelbrot zoom);
//! - [`web`]: the browser and web tooling (HTTP server, headless Chromium, the npm module's
//!   generator, the `df64gl web` pages);
//! - [`support`]: what several commands share (report tables, plots, signal files, the
//!   papers' tables, random operands, the Mandelbrot view's limits);
//! - [`error`]: the error type, the exit statuses and the session every command opens.
//!
//! Data flow one way: commands call experiments, experiments call web tooling, both call
//! support and the library. (The npm module's generator in `web/js_module.rs` still reads the
//! known answers from `experiments/known_answers.rs`.)

// Every public item is documented; keep it so.
#![warn(missing_docs)]

pub mod commands;
pub mod error;
pub mod experiments;
pub mod support;
pub mod web;
