//! Transforms of any length: [`FftPlan`] takes every extent as it is. Powers of two (and the
//! points of rows of 3 * 2^k, mixed radix, with table twiddles) go straight through the
//! Stockham passes; any other length n goes through Bluestein's chirp-z,
//! nk = (n^2 + k^2 - (k - n)^2) / 2, as a circular convolution of power-of-two length
//! M >= 2n - 1 on the same passes:
//!
//! X_k = w_k sum_j (x_j w_j) conj(w_(k-j)),  w_j = exp(-i pi j^2 / n)  (forward),
//!
//! all on the GPU: the data times the chirp, forward transforms along the Bluestein axes (and
//! the power-of-two axes in the requested direction), the product with the filter (the
//! transform of conj(w), with 1/n for the inverse), inverse transforms along the Bluestein
//! axes, the chirp again. Extents multiply, so 2-D and 3-D use the outer products of the
//! axes' chirps and filters in one pass each. The chirp index j^2 mod 2n is exact; the chirp
//! and filter are computed in f64 (f32 and df64 plans: 53 bits against df64's 48) or from the
//! oracle in double-double (qf128).

use rustfft::num_complex::Complex64;

use crate::gl::{timed, Timing};
use crate::kernels::Df64Kernels;
use crate::numeric::df64::ComplexDf64;
use crate::numeric::qf128::{ComplexQf128, Qf128};
use crate::numeric::Dd;

use super::plan::{first_non_finite, mixed_length, FftShape, GpuOperand, PassKind, StockhamPlan};
use super::reference::{fft_dd, Cdd};
use super::twiddle::{chirp_big, chirp_f64};
use super::{BlockScaled, Direction, FftError, FftOptions, FftPrecision, TwiddleSource, Underflow};

/// One extent of the data, slowest first as [`FftShape::dims`] lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Extent {
    /// The user's length.
    n: usize,
    /// Its length on the GPU: n for powers of two (and batches padded with zero rows), the
    /// power of two >= 2n - 1 for Bluestein.
    padded: usize,
    transformed: bool,
    bluestein: bool,
}

/// The GPU factors of one direction: the chirp (zero beyond each Bluestein axis's n) and the
/// filter, over the padded shape.
struct Factors {
    chirp: GpuOperand,
    filter: GpuOperand,
}

/// A planned transform of any shape and length (see the module's text).
pub struct FftPlan {
    inner: StockhamPlan,
    shape: FftShape,
    extents: Vec<Extent>,
    /// Forward and inverse factors, made on the first transform in that direction.
    factors: [Option<Factors>; 2],
}

/// The GPU's padded length of one extent (`transformed`: a transform runs along it; `mixed`:
/// the passes take an odd radix times a power of two as it is, in rows with table twiddles).
fn padded_length(n: usize, transformed: bool, mixed: bool) -> (usize, bool) {
    if !transformed {
        (n.next_power_of_two(), false)
    } else if (n >= 2 && n.is_power_of_two()) || (mixed && mixed_length(n).is_some()) {
        (n, false)
    } else {
        ((2 * n - 1).next_power_of_two().max(2), true)
    }
}

fn extent_names(shape: &FftShape) -> Vec<&'static str> {
    match shape {
        FftShape::Rows { .. } => vec!["rows of the batch", "points"],
        FftShape::Image { .. } => vec!["rows", "columns"],
        FftShape::Volume { .. } => vec!["slices", "rows", "columns"],
    }
}

fn direction_index(d: Direction) -> usize {
    match d {
        Direction::Forward => 0,
        Direction::Inverse => 1,
    }
}

impl FftPlan {
    /// Plans one `n`-point transform (any n >= 1) with the default options for `precision`.
    pub fn new(kernels: &Df64Kernels, n: usize, precision: FftPrecision) -> Result<Self, FftError> {
        Self::with_options(
            kernels,
            FftShape::Rows { n, batch: 1 },
            FftOptions::new(precision),
        )
    }

    /// A plan with these options (radix, twiddles, qf128 write, block scaling).
    pub fn with_options(
        kernels: &Df64Kernels,
        shape: FftShape,
        options: FftOptions,
    ) -> Result<Self, FftError> {
        let dims = shape.dims();
        let names = extent_names(&shape);
        let mut extents = Vec::new();
        // Mixed radix: the points of rows, with the twiddle table (see StockhamPlan).
        let mixed =
            matches!(shape, FftShape::Rows { .. }) && options.twiddles == TwiddleSource::Table;
        for ((n, transformed), name) in dims.iter().zip(shape.transformed()).zip(&names) {
            if *n == 0 {
                return Err(FftError::ZeroLength(name.to_string()));
            }
            let (padded, bluestein) = padded_length(*n, transformed, mixed);
            extents.push(Extent {
                n: *n,
                padded,
                transformed,
                bluestein,
            });
        }
        check_fits(kernels, &shape, &extents)?;
        let padded: Vec<usize> = extents.iter().map(|e| e.padded).collect();
        let inner = StockhamPlan::with_options(kernels, shape.with_dims(&padded), options)?;
        let mut plan = FftPlan {
            inner,
            shape,
            extents,
            factors: [None, None],
        };
        if plan.uses_bluestein() {
            plan.inner.ensure_program(PassKind::Pointwise)?;
        }
        Ok(plan)
    }

    /// The shape the user asked for (before padding).
    pub fn shape(&self) -> FftShape {
        self.shape
    }

    /// The shape on the GPU (each Bluestein extent padded to its power of two).
    pub fn padded_shape(&self) -> FftShape {
        self.inner.shape()
    }

    /// Whether any extent goes through Bluestein's chirp-z.
    pub fn uses_bluestein(&self) -> bool {
        self.extents.iter().any(|e| e.bluestein)
    }

    /// Elements the plan takes: the product of the shape's extents.
    pub fn len(&self) -> usize {
        self.shape.total()
    }

    /// Never true: every extent is at least 1.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The arithmetic.
    pub fn precision(&self) -> FftPrecision {
        self.inner.precision()
    }

    /// The options it was planned with.
    pub fn options(&self) -> FftOptions {
        self.inner.options()
    }

    /// Full-screen passes one transform draws (with Bluestein: both of its transforms along
    /// those axes and the three products).
    pub fn passes(&self) -> usize {
        if !self.uses_bluestein() {
            return self.inner.passes();
        }
        let per_axis = self.inner.axis_passes();
        let twice: usize = self
            .axes_where(|e| e.bluestein)
            .iter()
            .zip(&per_axis)
            .map(|(b, p)| if *b { 2 * p } else { *p })
            .sum();
        twice + 3
    }

    /// Whether each GPU axis (fastest first, as the Stockham plan orders them) satisfies `f`.
    fn axes_where(&self, f: impl Fn(&Extent) -> bool) -> Vec<bool> {
        self.extents
            .iter()
            .rev()
            .filter(|e| e.transformed)
            .map(f)
            .collect()
    }

    /// Padded index of every logical element, in logical order.
    fn padded_indices(&self) -> Vec<usize> {
        let mut out = vec![0usize];
        for e in &self.extents {
            let mut next = Vec::with_capacity(out.len() * e.n);
            for base in &out {
                for i in 0..e.n {
                    next.push(base * e.padded + i);
                }
            }
            out = next;
        }
        out
    }

    fn scatter(&self, words: &[ComplexQf128]) -> Vec<ComplexQf128> {
        let zero = ComplexQf128::new(Qf128::ZERO, Qf128::ZERO);
        let mut padded = vec![zero; self.inner.len()];
        for (w, i) in words.iter().zip(self.padded_indices()) {
            padded[i] = *w;
        }
        padded
    }

    fn check_len(&self, got: usize) -> Result<(), FftError> {
        if got != self.len() {
            return Err(FftError::LengthMismatch { got, n: self.len() });
        }
        Ok(())
    }

    /// Loads complex df64 data (see [`StockhamPlan::upload`]).
    pub fn upload(&mut self, data: &[ComplexDf64]) -> Result<Underflow, FftError> {
        let q: Vec<ComplexQf128> = data.iter().map(|c| ComplexQf128::from_df64(*c)).collect();
        self.upload_qf128(&q)
    }

    /// Uploads qf128 data (a qf128 plan keeps every word); what underflowed in the scaling.
    pub fn upload_qf128(&mut self, data: &[ComplexQf128]) -> Result<Underflow, FftError> {
        self.check_len(data.len())?;
        if let Some(i) = first_non_finite(data) {
            return Err(FftError::NonFinite(i));
        }
        self.inner.upload_qf128(&self.scatter(data))
    }

    /// Loads any finite f64 data, block-scaled.
    pub fn upload_f64(&mut self, data: &[Complex64]) -> Result<Underflow, FftError> {
        self.check_len(data.len())?;
        self.upload_scaled(&BlockScaled::from_f64(data)?)
    }

    /// Uploads data already block-scaled (words and a power-of-two exponent).
    pub fn upload_scaled(&mut self, data: &BlockScaled) -> Result<Underflow, FftError> {
        self.check_len(data.len())?;
        self.inner.upload_scaled(&BlockScaled {
            words: self.scatter(&data.words),
            ..*data
        })
    }

    /// The result as words and a power-of-two exponent: no range limit.
    pub fn download_scaled(&self) -> Result<BlockScaled, FftError> {
        let all = self.inner.download_scaled()?;
        if all.words.len() == self.len() {
            return Ok(all);
        }
        Ok(BlockScaled {
            words: self
                .padded_indices()
                .iter()
                .map(|i| all.words[*i])
                .collect(),
            ..all
        })
    }

    /// The result rounded to f64 (an error where it exceeds f64's range).
    pub fn download_f64(&self) -> Result<Vec<Complex64>, FftError> {
        self.download_scaled()?.to_f64()
    }

    /// The current data as complex df64 (see [`StockhamPlan::download`]).
    pub fn download(&self) -> Result<Vec<ComplexDf64>, FftError> {
        let all = self.inner.download()?;
        Ok(self.padded_indices().iter().map(|i| all[*i]).collect())
    }

    /// The result in qf128.
    pub fn download_qf128(&self) -> Result<Vec<ComplexQf128>, FftError> {
        let all = self.inner.download_qf128()?;
        Ok(self.padded_indices().iter().map(|i| all[*i]).collect())
    }

    /// Upload, execute, download.
    pub fn transform(
        &mut self,
        data: &[ComplexDf64],
        direction: Direction,
    ) -> Result<Vec<ComplexDf64>, FftError> {
        self.upload(data)?;
        self.execute(direction)?;
        self.download()
    }

    /// The transform on the data on the GPU; returns the time of its passes.
    pub fn execute(&mut self, direction: Direction) -> Result<Timing, FftError> {
        if !self.uses_bluestein() {
            return self.inner.execute(direction);
        }
        self.ensure_factors(direction)?;
        let ctx = self.inner.context().clone();
        let ((), t) = timed(&ctx, || self.run(direction, false))?;
        Ok(t)
    }

    /// [`execute`](Self::execute) reading every pass back (finds the pass of a NaN).
    pub fn execute_checked(&mut self, direction: Direction) -> Result<(), FftError> {
        self.ensure_factors(direction)?;
        self.run(direction, true)
    }

    pub(crate) fn context(&self) -> &crate::gl::GlContext {
        self.inner.context()
    }

    /// Multiplies the data, element by element, by the data of `other` (same shape and
    /// precision), on the GPU: the frequency-domain step of a convolution. The padding of a
    /// Bluestein transform's output is zero, so the product of the padded data is the product
    /// of the user's.
    pub fn multiply_by(&mut self, other: &FftPlan) -> Result<(), FftError> {
        if other.shape != self.shape {
            return Err(FftError::PlanMismatch);
        }
        self.inner.multiply_by(&other.inner)
    }

    /// The transform without the timer (callers time a larger block); factors made first.
    pub(crate) fn run(&mut self, direction: Direction, check: bool) -> Result<(), FftError> {
        if !self.uses_bluestein() {
            return self.inner.run(direction, check);
        }
        let blue = self.axes_where(|e| e.bluestein);
        let straight: Vec<bool> = blue.iter().map(|b| !b).collect();
        let Some(f) = &self.factors[direction_index(direction)] else {
            return Err(FftError::Unsupported(
                "internal: Bluestein factors missing".into(),
            ));
        };
        let inner = &mut self.inner;
        inner.multiply_by_operand(&f.chirp)?;
        inner.run_axes(Direction::Forward, &blue, check)?;
        if straight.iter().any(|s| *s) {
            inner.run_axes(direction, &straight, check)?;
        }
        inner.multiply_by_operand(&f.filter)?;
        inner.run_axes(Direction::Inverse, &blue, check)?;
        inner.multiply_by_operand(&f.chirp)
    }

    pub(crate) fn ensure_factors(&mut self, direction: Direction) -> Result<(), FftError> {
        let i = direction_index(direction);
        if self.factors[i].is_some() || !self.uses_bluestein() {
            return Ok(());
        }
        let qf = self.precision() == FftPrecision::Qf128;
        let per_extent: Vec<Option<(Vec<Cdd>, Vec<Cdd>)>> = self
            .extents
            .iter()
            .map(|e| e.bluestein.then(|| extent_factors(e, qf, direction)))
            .collect();
        let chirp = outer_product(&self.extents, &per_extent, |f| &f.0, qf);
        let filter = outer_product(&self.extents, &per_extent, |f| &f.1, qf);
        self.factors[i] = Some(Factors {
            chirp: self.inner.operand(&chirp)?,
            filter: self.inner.operand(&filter)?,
        });
        Ok(())
    }
}

/// One Bluestein extent's chirp (zero beyond n) and filter (the forward transform of the
/// padded conj(w), times 1/n for the inverse), in double-double.
fn extent_factors(e: &Extent, qf: bool, direction: Direction) -> (Vec<Cdd>, Vec<Cdd>) {
    let (n, m) = (e.n, e.padded);
    let sign = match direction {
        Direction::Forward => -1.0,
        Direction::Inverse => 1.0,
    };
    let w: Vec<Cdd> = if qf {
        chirp_big(n, sign).iter().map(Cdd::from_big).collect()
    } else {
        chirp_f64(n, sign)
            .into_iter()
            .map(|(c, s)| Cdd::from_c64(Complex64::new(c, s)))
            .collect()
    };
    let mut chirp = vec![Cdd::ZERO; m];
    let mut b = vec![Cdd::ZERO; m];
    for j in 0..n {
        chirp[j] = w[j];
        b[j] = w[j].conj();
        if j > 0 {
            b[m - j] = w[j].conj();
        }
    }
    let mut filter = if qf {
        fft_dd(&b)
    } else {
        let mut v: Vec<Complex64> = b.iter().map(|c| c.to_c64()).collect();
        rustfft::FftPlanner::<f64>::new()
            .plan_fft_forward(m)
            .process(&mut v);
        v.into_iter().map(Cdd::from_c64).collect()
    };
    if direction == Direction::Inverse {
        let s = Dd::from_f64(1.0) / Dd::from_f64(n as f64);
        filter.iter_mut().for_each(|c| *c = c.scale(s));
    }
    (chirp, filter)
}

/// The product over the Bluestein extents of each one's factor at the element's coordinate
/// (1 along the other extents), over the padded shape, as the plan's words.
fn outer_product(
    extents: &[Extent],
    per_extent: &[Option<(Vec<Cdd>, Vec<Cdd>)>],
    pick: impl Fn(&(Vec<Cdd>, Vec<Cdd>)) -> &Vec<Cdd>,
    qf: bool,
) -> Vec<ComplexQf128> {
    let one = Cdd {
        re: Dd::from_f64(1.0),
        im: Dd::from_f64(0.0),
    };
    let mut values = vec![one];
    for (e, f) in extents.iter().zip(per_extent) {
        let mut next = Vec::with_capacity(values.len() * e.padded);
        for v in &values {
            match f {
                Some(f) => next.extend(pick(f).iter().map(|x| *v * *x)),
                None => next.extend(std::iter::repeat_n(*v, e.padded)),
            }
        }
        values = next;
    }
    values
        .into_iter()
        .map(|c| {
            if qf {
                ComplexQf128::new(qf128_of_dd(c.re), qf128_of_dd(c.im))
            } else {
                ComplexQf128::from_df64(ComplexDf64::from_f64(c.re.to_f64(), c.im.to_f64()))
            }
        })
        .collect()
}

/// The four-word split of a double-double (each word the nearest f32 to what remains).
fn qf128_of_dd(d: Dd) -> Qf128 {
    let mut rest = d;
    let mut x = [0.0f32; 4];
    for w in x.iter_mut() {
        *w = rest.to_f64() as f32;
        rest = rest - Dd::from_f64(*w as f64);
    }
    Qf128 { x }
}

/// The padded data must fit the driver's texture (GL_MAX_TEXTURE_SIZE squared texels); the
/// error names the limit and the largest length of the longest extent that fits.
fn check_fits(kernels: &Df64Kernels, shape: &FftShape, extents: &[Extent]) -> Result<(), FftError> {
    let limit = kernels.context().info().max_texture_size;
    let capacity = (limit as u128) * (limit as u128);
    let texels: u128 = extents.iter().map(|e| e.padded as u128).product();
    if texels <= capacity {
        return Ok(());
    }
    let names = extent_names(shape);
    let (k, longest) = extents
        .iter()
        .enumerate()
        .filter(|(_, e)| e.transformed)
        .max_by_key(|(_, e)| e.n)
        .unwrap_or((0, &extents[0]));
    let others: u128 = texels / longest.padded as u128;
    let room = (capacity / others.max(1)) as u64;
    let pow2 = if room == 0 {
        0
    } else {
        1u64 << (63 - room.leading_zeros())
    };
    let dims: Vec<String> = extents.iter().map(|e| e.n.to_string()).collect();
    Err(FftError::TooLarge {
        what: format!(
            "a transform of {} ({})",
            dims.join(" x "),
            names.join(" x ")
        ),
        texels,
        limit,
        why: "a length that is not a power of two is padded to a power of two of at least \
              2n - 1 for Bluestein's convolution",
        largest: format!(
            "{} {} with the other extents as they are ({pow2} if a power of two, {} otherwise)",
            pow2,
            names[k],
            pow2 / 2
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn padded_lengths_follow_bluestein() {
        for mixed in [false, true] {
            assert_eq!(padded_length(1, true, mixed), (2, true));
            assert_eq!(padded_length(2, true, mixed), (2, false));
            assert_eq!(padded_length(1024, true, mixed), (1024, false));
            assert_eq!(padded_length(1000, true, mixed), (2048, true));
            assert_eq!(padded_length(1_000_000, true, mixed), (1 << 21, true));
            assert_eq!(padded_length(3, false, mixed), (4, false));
            assert_eq!(padded_length(1, false, mixed), (1, false));
            assert_eq!(padded_length(5 << 4, true, mixed), (256, true));
        }
        assert_eq!(padded_length(3, true, false), (8, true));
        assert_eq!(padded_length(3, true, true), (3, false));
        assert_eq!(padded_length(3 << 18, true, false), (1 << 21, true));
        assert_eq!(padded_length(3 << 18, true, true), (3 << 18, false));
    }

    #[test]
    fn quad_split_of_double_double_is_exact_to_96_bits() {
        let d = Dd::from_f64(1.0) / Dd::from_f64(3.0);
        let q = qf128_of_dd(d);
        let back: f64 = q.x.iter().map(|w| *w as f64).sum();
        assert!((back - d.hi).abs() <= d.hi * 1e-16);
        let rest = d - Dd::from_f64(q.x[0] as f64) - Dd::from_f64(q.x[1] as f64);
        let rest = rest - Dd::from_f64(q.x[2] as f64) - Dd::from_f64(q.x[3] as f64);
        assert!(rest.to_f64().abs() < 1e-29, "{rest:?}");
    }
}
