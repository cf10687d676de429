//! GLSL source text: one scanner ([`scanner`]) and what reads its tokens. The barrier tool
//! writes, removes and checks the optimisation barrier around each float operation of a
//! module (`insert_barriers_after`, `strip_barriers`, `check_barriers_after`; the
//! expression parser behind it in `parser.rs`); the slicer cuts a library to the functions
//! and constants a program reaches and sizes it inlined (`slice.rs`, for the check's
//! programs); `names.rs` renames an identifier and tells whether a uniform is declared.
//! `statement_multiply.rs` keeps df64gl 0.1.0's barrier for the tests that show why
//! it was dropped.
//!
//! Text in, text out: nothing here touches GL.

mod barrier;
pub(crate) mod names;
mod parser;
mod scanner;
pub(crate) use scanner::uncommented;
pub(crate) mod slice;
pub(crate) mod statement_multiply;

pub use barrier::{check_barriers_after, check_transform_barriers, insert_barriers};

/// What the barrier tool could not read (a construct the df64 modules do not use).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BarrierError {
    /// The line, from 1.
    pub line: usize,
    /// What was expected or could not be read.
    pub detail: String,
}

impl std::fmt::Display for BarrierError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.detail)
    }
}

impl std::error::Error for BarrierError {}
