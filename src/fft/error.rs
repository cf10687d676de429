//! What can go wrong planning or running a transform.

use thiserror::Error;

use crate::gl::GlError;
use crate::kernels::KernelError;

/// What can go wrong planning or running a transform; each message says what to do.
#[derive(Debug, Error)]
pub enum FftError {
    /// A `StockhamPlan` length that is not a power of two (the length, the next one up).
    #[error("FFT length {0} is not a power of two (nor, for rows with table twiddles, 3 times one), which StockhamPlan needs: use FftPlan, which takes any length (Bluestein), or pad the input with zeros to {1} if that transform is the one you want")]
    NotPowerOfTwo(usize, usize),
    /// An extent of 0 (which one).
    #[error("an FFT over 0 {0}: every extent must be at least 1")]
    ZeroLength(String),
    /// More texels than the driver's largest texture holds.
    #[error(
        "{what} needs {texels} texels on the GPU, more than this driver's {limit} x {limit} \
         texture holds ({why}): the largest that fits is {largest}"
    )]
    TooLarge {
        /// The transform asked for.
        what: String,
        /// Texels it needs.
        texels: u128,
        /// GL_MAX_TEXTURE_SIZE.
        limit: u32,
        /// Why that many texels (the layout).
        why: &'static str,
        /// The largest transform of that kind that fits.
        largest: String,
    },
    /// A plan whose textures need more memory than the device has free (the message names
    /// both figures, where the free one comes from and the way out).
    #[error("{message}")]
    OutOfMemory {
        /// Bytes the plan's textures need.
        needed: u128,
        /// Bytes free.
        available: u128,
        /// The whole message.
        message: String,
    },
    /// An extent of 1 where the transform needs 2 (the extent, which one).
    #[error("an FFT over {0} {1} is too small: the transform needs at least 2")]
    TooShort(usize, String),
    /// A batch that is not a power of two.
    #[error("batch of {0} transforms: the batch must be a power of two, at least 1 (pad with zero rows)")]
    BadBatch(usize),
    /// A NaN or infinity in the input (its index).
    #[error("input element {0} is NaN or infinite: the FFT needs finite input (clean or clamp the data first)")]
    NonFinite(usize),
    /// The GL layer failed.
    #[error(transparent)]
    Gl(#[from] GlError),
    /// A kernel (or a program's proof) failed.
    #[error(transparent)]
    Kernel(#[from] KernelError),
    /// Data whose length is not the plan's.
    #[error("data of {got} points given to a plan of {n} points")]
    LengthMismatch {
        /// Points given.
        got: usize,
        /// Points the plan holds.
        n: usize,
    },
    /// A pointwise product of plans that differ.
    #[error("the two plans differ in size or precision; a pointwise product needs equal plans")]
    PlanMismatch,
    /// What this driver or these options cannot do (the reason and the way out).
    #[error("{0}")]
    Unsupported(String),
    /// A spectrum given to the inverse real FFT that is not the spectrum of reals.
    #[error(
        "bin {bin} of row {row} has a non-zero imaginary part: bins 0 and N/2 of the spectrum \
         of {n} reals are real, so this is not the spectrum of a real signal (set those \
         imaginary parts to 0, or use the complex FftPlan)"
    )]
    NotReal {
        /// The row.
        row: usize,
        /// The bin (0 or N/2).
        bin: usize,
        /// The real transform's length.
        n: usize,
    },
    /// Data of another shape than the plan's (what differs).
    #[error("{0}")]
    ShapeMismatch(String),
    /// A NaN or infinity out of finite input: a fault to report.
    #[error(
        "the {precision} FFT produced a NaN or infinity from finite input: element {element} \
             {after}. This is a fault of the driver or of df64gl: please report it with the \
             output of `df64gl info` and `df64gl probe`"
    )]
    NonFiniteResult {
        /// The FFT's precision.
        precision: &'static str,
        /// The first element found non-finite.
        element: usize,
        /// After which pass it appeared.
        after: String,
    },
    /// A result beyond the range of the type it is read back as.
    #[error(
        "result element {element} exceeds the range of {what}: read the result as \
             Complex64 (download::<Complex64>) or with download_scaled (fft-demo: write CSV, \
             which has no range limit)"
    )]
    ResultOutOfRange {
        /// The element.
        element: usize,
        /// The type it does not fit ("f64", "df64").
        what: String,
    },
}

impl FftError {
    /// `NotPowerOfTwo` with the next power of two to pad to; past the largest `usize` power of
    /// two, the length is refused as too large for any texture.
    pub(crate) fn not_power_of_two(n: usize) -> FftError {
        match n.checked_next_power_of_two() {
            Some(p) => FftError::NotPowerOfTwo(n, p),
            None => FftError::Unsupported(format!(
                "{n} points: past 2^{}, more than any texture holds; use a length of at most \
                 the driver's GL_MAX_TEXTURE_SIZE squared",
                usize::BITS - 1
            )),
        }
    }
}
