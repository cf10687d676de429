//! Experiments: what the command line runs. Each opens the engine, measures, and returns a
//! serialisable report with a text rendering.

pub mod accuracy;
pub mod bench;
pub mod fft_study;
pub mod mandelbrot;
pub mod ops_bench;
pub mod paper;
pub mod plot;
pub mod repro;
pub mod signal;

use thiserror::Error;

use crate::fft::FftError;
use crate::gl::{DeviceChoice, GlContext, GlError};
use crate::kernels::KernelError;
use crate::probe::{probe_driver, ProbeError, ProbeReport};

#[derive(Debug, Error)]
pub enum ExperimentError {
    #[error(transparent)]
    Gl(#[from] GlError),
    #[error(transparent)]
    Probe(#[from] ProbeError),
    #[error(transparent)]
    Kernel(#[from] KernelError),
    #[error(transparent)]
    Fft(#[from] FftError),
    #[error("{0}: {1}")]
    Io(String, std::io::Error),
    #[error("invalid option: {0}")]
    Invalid(String),
    #[error("bundled paper data {file} is malformed: {detail}")]
    PaperData { file: String, detail: String },
}

/// A headless context and its probe report (cached per driver unless `fresh_probe`).
pub struct Session {
    pub ctx: GlContext,
    pub probe: ProbeReport,
}

impl Session {
    pub fn open(device: &DeviceChoice, fresh_probe: bool) -> Result<Self, ExperimentError> {
        let ctx = GlContext::headless(device)?;
        let probe = probe_driver(&ctx, fresh_probe)?;
        Ok(Session { ctx, probe })
    }
}
