//! What several commands share and no command owns: report tables (`table.rs`: Markdown,
//! text, JSON), PNG plots (`plot.rs`), signal files (`signal.rs`), the papers' published tables
//! (`paper.rs`), random df64 operands (`operands.rs`) and the Mandelbrot view's limits
//! (`mandelbrot_view.rs`, for the native zoom and the web page). It depends on the library
//! only: experiments and web tooling call it, never the other way.

pub mod mandelbrot_view;
pub mod operands;
pub mod paper;
pub mod plot;
pub mod signal;
pub mod table;
