//! The command line's error type, its exit statuses, and the session every command opens.

use thiserror::Error;

use df64gl::fft::FftError;
use df64gl::gl::{DeviceChoice, GlContext, GlError};
use df64gl::kernels::KernelError;
use df64gl::probe::{probe_driver, ProbeError, ProbeReport};

/// What can go wrong running an experiment; each message says what to do.
#[derive(Debug, Error)]
pub enum ExperimentError {
    /// The GL layer failed.
    #[error(transparent)]
    Gl(#[from] GlError),
    /// The probe failed.
    #[error(transparent)]
    Probe(#[from] ProbeError),
    /// A kernel failed or was refused.
    #[error(transparent)]
    Kernel(#[from] KernelError),
    /// The FFT failed.
    #[error(transparent)]
    Fft(#[from] FftError),
    /// A file could not be read or written (its path).
    #[error("{0}: {1}")]
    Io(String, std::io::Error),
    /// An option out of range (which and why).
    #[error("invalid option: {0}")]
    Invalid(String),
    /// Bad input data (a file's content, a value out of range), with its position.
    #[error("{0}")]
    Input(String),
    /// A bundled paper table that does not parse.
    #[error("bundled paper data {file} is malformed: {detail}")]
    PaperData {
        /// The file in `assets/`.
        file: String,
        /// What is wrong with it.
        detail: String,
    },
}

/// Exit statuses of `df64gl` and `fft-demo` (the table in docs/commands.md).
pub mod exit_code {
    /// Everything ran and met its targets.
    pub const SUCCESS: u8 = 0;
    /// The computation or a check failed: a GL or driver error, a NaN from finite input, a
    /// check that missed its target.
    pub const FAILED: u8 = 1;
    /// Usage: an unknown flag, or an option value that is malformed or out of range.
    pub const USAGE: u8 = 2;
    /// Data: a file that cannot be read, parsed or written, or input the engine cannot take.
    pub const DATA: u8 = 3;
    /// The driver refuses df64: no configuration was proven exact there.
    pub const REFUSED: u8 = 4;
}

impl ExperimentError {
    /// The process exit status for this error ([`exit_code`]).
    pub fn exit_code(&self) -> u8 {
        match self {
            ExperimentError::Invalid(_) => exit_code::USAGE,
            ExperimentError::Input(_) | ExperimentError::Io(..) => exit_code::DATA,
            ExperimentError::Kernel(KernelError::Refused(_))
            | ExperimentError::Fft(FftError::Kernel(KernelError::Refused(_))) => exit_code::REFUSED,
            ExperimentError::Kernel(KernelError::OutOfDomain { .. })
            | ExperimentError::Fft(
                FftError::NonFinite(_)
                | FftError::ResultOutOfRange { .. }
                | FftError::LengthMismatch { .. }
                | FftError::NotPowerOfTwo(..)
                | FftError::ZeroLength(_)
                | FftError::NotReal { .. }
                | FftError::ShapeMismatch(_)
                | FftError::TooLarge { .. }
                | FftError::OutOfMemory { .. }
                | FftError::TooShort(..),
            ) => exit_code::DATA,
            _ => exit_code::FAILED,
        }
    }
}

/// A headless context and its probe report (cached per driver unless `fresh_probe`).
pub struct Session {
    /// The headless context.
    pub ctx: GlContext,
    /// The probe's report of its driver.
    pub probe: ProbeReport,
}

impl Session {
    /// Opens the device and probes it (or loads its cached probe).
    pub fn open(device: &DeviceChoice, fresh_probe: bool) -> Result<Self, ExperimentError> {
        let ctx = GlContext::headless(device)?;
        let probe = probe_driver(&ctx, fresh_probe)?;
        Ok(Session { ctx, probe })
    }
}
