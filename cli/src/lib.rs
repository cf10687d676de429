//! The `df64gl` command line's library: the papers' experiments (Thall's, Da Graca and
//! Defour's, Warwick's tables), the accuracy tables, benchmarks, the Mandelbrot zoom, the WebGL
//! page and the self-test command, built on the `df64gl` library. The binaries `df64gl` and
//! `fft-demo` are thin front ends over [`experiments`]. Kept apart from `df64gl` so that a
//! renderer that depends on the library compiles none of this (clap, plotters, hound, ...).

// Every public item is documented; keep it so.
#![warn(missing_docs)]

pub mod experiments;
