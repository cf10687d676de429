//! Bluestein's chirp-z on the Stockham passes: any length n as a circular convolution of
//! power-of-two length M >= 2n - 1, with nk = (n^2 + k^2 - (k - n)^2) / 2:
//!
//! X_k = w_k sum_j (x_j w_j) conj(w_(k-j)),  w_j = exp(-i pi j^2 / n)  (forward),
//!
//! all on the GPU: the data times the chirp, forward transforms along the Bluestein axes (and
//! the power-of-two axes in the requested direction), the product with the filter (the
//! transform of conj(w), with 1/n for the inverse), inverse transforms along the Bluestein
//! axes, the chirp again. Extents multiply, so 2-D and 3-D use the outer products of the
//! axes' chirps and filters in one pass each. The chirp index j^2 mod 2n is exact; the chirp
//! and filter are computed in f64 (f32 and df64 plans: 53 bits against df64's 48) or from the
//! oracle in double-double (qf128). [`FftPlan`](super::FftPlan) runs it on the axes the
//! planner gave to [`AxisAlgorithm::Bluestein`](super::AxisAlgorithm::Bluestein).

use rustfft::num_complex::Complex64;

use crate::numeric::df64::ComplexDf64;
use crate::numeric::qf128::{ComplexQf128, Qf128};
use crate::numeric::Dd;

use super::planner::Extent;
use super::reference::{fft_dd, Cdd};
use super::stockham_plan::{GpuOperand, StockhamPlan};
use super::twiddle::{chirp_big, chirp_f64};
use super::{Direction, FftError};

/// The GPU factors of one direction: the chirp (zero beyond each Bluestein axis's n) and the
/// filter, over the padded shape.
pub(crate) struct Factors {
    chirp: GpuOperand,
    filter: GpuOperand,
}

/// The factors of `direction` for the extents of `inner`'s padded data (`qf`: from the
/// oracle, for qf128 plans).
pub(crate) fn bluestein_factors(
    inner: &StockhamPlan,
    extents: &[Extent],
    qf: bool,
    direction: Direction,
) -> Result<Factors, FftError> {
    let per_extent: Vec<Option<(Vec<Cdd>, Vec<Cdd>)>> = extents
        .iter()
        .map(|e| e.bluestein().then(|| extent_factors(e, qf, direction)))
        .collect();
    let chirp = outer_product(extents, &per_extent, |f| &f.0, qf);
    let filter = outer_product(extents, &per_extent, |f| &f.1, qf);
    Ok(Factors {
        chirp: inner.operand(&chirp)?,
        filter: inner.operand(&filter)?,
    })
}

/// The transform in `direction` on the data in `inner`: `blue` marks the GPU axes (fastest
/// first) that run Bluestein; the others run straight.
pub(crate) fn run_bluestein(
    inner: &mut StockhamPlan,
    blue: &[bool],
    factors: &Factors,
    direction: Direction,
    check: bool,
) -> Result<(), FftError> {
    let straight: Vec<bool> = blue.iter().map(|b| !b).collect();
    inner.multiply_by_operand(&factors.chirp)?;
    inner.run_axes(Direction::Forward, blue, check)?;
    if straight.iter().any(|s| *s) {
        inner.run_axes(direction, &straight, check)?;
    }
    inner.multiply_by_operand(&factors.filter)?;
    inner.run_axes(Direction::Inverse, blue, check)?;
    inner.multiply_by_operand(&factors.chirp)
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

#[cfg(test)]
mod tests {
    use super::*;

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
