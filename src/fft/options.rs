//! What a transform is asked to do: its shape, precision, radix, twiddles, qf128 write and
//! direction. [`FftPlanner`](super::FftPlanner) judges which combinations run.

/// Arithmetic of the transform.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum FftPrecision {
    /// Plain f32 complex arithmetic: the baseline.
    F32,
    /// Complex df64 with the accurate df64 routines (about 48 bits).
    Df64,
    /// Complex qf128 (about 96 bits), real and imaginary parts in two textures.
    Qf128,
    /// Native double (GLSL `double`, GLSL 4.00 or GL_ARB_gpu_shader_fp64): the comparator a
    /// user with fast FP64 hardware would pick instead (Warwick's comparison at the FFT level).
    F64,
}

impl FftPrecision {
    /// "f32", "df64", "qf128" or "f64".
    pub fn name(self) -> &'static str {
        match self {
            FftPrecision::F32 => "f32",
            FftPrecision::Df64 => "df64",
            FftPrecision::Qf128 => "qf128",
            FftPrecision::F64 => "f64",
        }
    }
}

/// Butterfly radix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Radix {
    /// Thall's Algorithm 10: one output per fragment, log2 N passes.
    #[cfg_attr(feature = "clap", value(name = "2"))]
    #[serde(rename = "2")]
    Two,
    /// Radix 4: one butterfly (four outputs) per fragment, ceil(log2 N / 2) passes + 1 copy.
    #[cfg_attr(feature = "clap", value(name = "4"))]
    #[serde(rename = "4")]
    Four,
    /// Radix 8 (f32, df64, f64): eight outputs per fragment through eight color attachments,
    /// a radix-4 or radix-2 stage to finish, ceil(log2 N / 3) passes + 1 copy.
    #[cfg_attr(feature = "clap", value(name = "8"))]
    #[serde(rename = "8")]
    Eight,
}

/// Where the twiddle factors come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum TwiddleSource {
    /// Thall's W_long texture, computed on the host (f64 for f32/df64, the oracle for qf128).
    Table,
    /// Computed per fragment with df64 (or qf128) sincos: the paper's "direct computation".
    Direct,
}

/// How a qf128 pass writes its real and imaginary textures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum QfWrite {
    /// One pass, both parts through two (radix 4: eight) color attachments.
    Mrt,
    /// Two passes, one part each.
    TwoPass,
}

/// How a plan computes: its arithmetic, radix, twiddle source and qf128 write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct FftOptions {
    /// The arithmetic.
    pub precision: FftPrecision,
    /// Radix 2 (Thall's published passes), 4 or 8.
    pub radix: Radix,
    /// Twiddles from the W_long table or computed in the shader.
    pub twiddles: TwiddleSource,
    /// qf128: both parts in one pass or one part per pass.
    pub qf_write: QfWrite,
    /// Block floating point (see [`scale`](super::scale)): on by default. Off only to test what the guards
    /// catch: without it sums overflow f32 for data near 1e38.
    pub block_scaling: bool,
}

impl FftOptions {
    /// Radix 4, the W_long table, qf128 written in one pass: the fastest choices measured.
    pub fn new(precision: FftPrecision) -> Self {
        FftOptions {
            precision,
            radix: Radix::Four,
            twiddles: TwiddleSource::Table,
            qf_write: QfWrite::Mrt,
            block_scaling: true,
        }
    }

    /// With or without block floating point.
    pub fn block_scaling(mut self, on: bool) -> Self {
        self.block_scaling = on;
        self
    }

    /// With this radix.
    pub fn radix(mut self, radix: Radix) -> Self {
        self.radix = radix;
        self
    }

    /// With twiddles from this source.
    pub fn twiddles(mut self, twiddles: TwiddleSource) -> Self {
        self.twiddles = twiddles;
        self
    }

    /// With this qf128 write.
    pub fn qf_write(mut self, qf_write: QfWrite) -> Self {
        self.qf_write = qf_write;
        self
    }
}

/// Which transform: forward (exp(-2 pi i jk/N)) or inverse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// The forward transform, unscaled.
    Forward,
    /// The inverse transform with the 1/N scaling.
    Inverse,
}

/// What is transformed: a batch of 1-D rows, a 2-D image (rows, then columns) or a 3-D
/// volume (rows, columns, then depth).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FftShape {
    /// `batch` transforms of `n` points, stored one after the other.
    Rows {
        /// Points per row.
        n: usize,
        /// Rows.
        batch: usize,
    },
    /// A `rows x cols` image in row-major order; the 2-D transform.
    Image {
        /// Rows.
        rows: usize,
        /// Columns.
        cols: usize,
    },
    /// A `depth x rows x cols` volume, `cols` fastest; the 3-D transform.
    Volume {
        /// Planes along the third axis.
        depth: usize,
        /// Rows of each plane.
        rows: usize,
        /// Columns of each row.
        cols: usize,
    },
}

impl FftShape {
    /// Elements in all: the product of the extents.
    pub fn total(&self) -> usize {
        self.dims().iter().product()
    }

    /// The extents, slowest first (a batch of rows: `[batch, n]`).
    pub fn dims(&self) -> Vec<usize> {
        match *self {
            FftShape::Rows { n, batch } => vec![batch, n],
            FftShape::Image { rows, cols } => vec![rows, cols],
            FftShape::Volume { depth, rows, cols } => vec![depth, rows, cols],
        }
    }

    /// Whether the extent at `dims()[i]` is transformed (the batch is not).
    pub fn transformed(&self) -> Vec<bool> {
        match self {
            FftShape::Rows { .. } => vec![false, true],
            FftShape::Image { .. } => vec![true, true],
            FftShape::Volume { .. } => vec![true, true, true],
        }
    }

    /// The same kind of shape with other extents (slowest first, as [`dims`](Self::dims)).
    pub(crate) fn with_dims(&self, d: &[usize]) -> FftShape {
        match self {
            FftShape::Rows { .. } => FftShape::Rows {
                batch: d[0],
                n: d[1],
            },
            FftShape::Image { .. } => FftShape::Image {
                rows: d[0],
                cols: d[1],
            },
            FftShape::Volume { .. } => FftShape::Volume {
                depth: d[0],
                rows: d[1],
                cols: d[2],
            },
        }
    }
}
