//! The `df64gl` command line's library, built on the `df64gl` library and kept apart from it so
//! that a renderer that depends on the library compiles none of this (clap, plotters, hound):
//!
//! - [`commands`]: one module per command of `df64gl` and `fft-demo`; the binaries in
//!   `src/bin/` only parse their arguments and call [`commands::run`] or
//!   [`commands::fft_demo::run_fft_demo`];
//! - [`experiments`]: what the commands run, each in the file or folder named for its command
//!   (the accuracy tables, the papers' experiments, the benchmarks, the FFT study, the
//!   Mandelbrot zoom, the exports measured, the npm module's generated half);
//! - [`web`]: the browser and web tooling (HTTP server, headless Chromium, the npm module as
//!   pages load it, the `df64gl web` pages);
//! - [`support`]: what several commands share (report tables, plots, signal files, the
//!   papers' tables, random operands, the Mandelbrot view's limits);
//! - [`error`]: the error type, the exit statuses and the session every command opens.
//!
//! Data flow one way: commands call experiments, experiments call web tooling, both call
//! support and the library; nothing under `web/` reads from `experiments/`.

// Every public item is documented; keep it so.
#![warn(missing_docs)]

pub mod commands;
pub mod error;
pub mod experiments;
pub mod support;
pub mod web;
