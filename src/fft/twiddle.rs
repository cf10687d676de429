//! Twiddle factors computed on the CPU: the base table w_N^j = exp(-2 pi i j / N), j < N/2, in
//! f64 (enough for df64: about 2^-53 against df64's 2^-48) or from the oracle (for qf128 and
//! the double-double reference), and Thall's W_long layout built from it.
//!
//! Only the first octant (j <= N/8) is evaluated; the rest follows exactly by the symmetries
//! cos(pi/2 - t) = sin t and cos(pi - t) = -cos t, so every factor is as good as the octant's.

use astro_float::{BigFloat, RoundingMode};

use crate::numeric::oracle::{big, Oracle, ORACLE_BITS};

/// The base table from the first-octant values `(cos 2 pi j / n, sin 2 pi j / n)`, j <= n/8,
/// given by `octant(j)`: returns `(cos, -sin)` for j < n/2.
fn unfold<T: Clone + std::ops::Neg<Output = T>>(
    n: usize,
    mut octant: impl FnMut(usize) -> (T, T),
) -> Vec<(T, T)> {
    let half = n / 2;
    let eighth = n / 8;
    if n < 8 {
        // No symmetry to use: every factor directly.
        return (0..half)
            .map(|j| {
                let (c, s) = octant(j);
                (c, -s)
            })
            .collect();
    }
    let first: Vec<(T, T)> = (0..=eighth).map(&mut octant).collect();
    (0..half)
        .map(|j| {
            let (c, s) = if j <= eighth {
                first[j].clone()
            } else if j <= n / 4 {
                let (c, s) = first[n / 4 - j].clone();
                (s, c)
            } else {
                // pi - t with t = 2 pi (n/2 - j) / n, which lies in the first quarter.
                let k = half - j;
                let (c, s) = if k <= eighth {
                    first[k].clone()
                } else {
                    let (c, s) = first[n / 4 - k].clone();
                    (s, c)
                };
                (-c, s)
            };
            (c, -s)
        })
        .collect()
}

/// w_n^j = (cos, -sin)(2 pi j / n) for j < n/2, in f64.
pub(crate) fn base_f64(n: usize) -> Vec<(f64, f64)> {
    unfold(n, |j| {
        let t = 2.0 * std::f64::consts::PI * j as f64 / n as f64;
        (t.cos(), t.sin())
    })
}

/// w_n^j for j < n/2 from the correctly rounded oracle (256 bits). The octant's values are
/// evaluated on every core (about 25 us each on one core: 2^22 points take seconds).
pub(crate) fn base_big(n: usize) -> Vec<(BigFloat, BigFloat)> {
    let count = if n < 8 { n / 2 } else { n / 8 + 1 };
    let threads = std::thread::available_parallelism()
        .map_or(1, |t| t.get())
        .clamp(1, 16)
        .min(count.div_ceil(256).max(1));
    let chunk = count.div_ceil(threads);
    let parts: Vec<Vec<(BigFloat, BigFloat)>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| scope.spawn(move || octant_big(n, t * chunk..((t + 1) * chunk).min(count))))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    let first: Vec<(BigFloat, BigFloat)> = parts.into_iter().flatten().collect();
    unfold(n, |j| first[j].clone())
}

/// (cos, sin)(2 pi j / n) for j in `range`.
fn octant_big(n: usize, range: std::ops::Range<usize>) -> Vec<(BigFloat, BigFloat)> {
    let mut o = Oracle::new();
    let two_pi = o.pi().mul(&big(2.0), ORACLE_BITS, RoundingMode::ToEven);
    let step = two_pi.div(&big(n as f64), ORACLE_BITS, RoundingMode::ToEven);
    range
        .map(|j| {
            let t = step.mul(&big(j as f64), ORACLE_BITS, RoundingMode::ToEven);
            (o.cos(&t), o.sin(&t))
        })
        .collect()
}

/// Thall's W_long: w_L^j at index L/2 + j - 1 for L = 2, 4, ..., n and j < L/2 (n - 1
/// entries; slot n - 1 is `fill`). w_L^j = w_n^(j n / L), so it is the base table resampled.
pub(crate) fn w_long<B: Clone, T>(
    n: usize,
    base: &[B],
    fill: T,
    convert: impl Fn(&B) -> T,
) -> Vec<T>
where
    T: Clone,
{
    w_long_up_to(n, n, base, fill, convert)
}

/// W_long for L = 2, ..., p (p entries, the last `fill`) from the base table of w_n.
fn w_long_up_to<B: Clone, T>(
    p: usize,
    n: usize,
    base: &[B],
    fill: T,
    convert: impl Fn(&B) -> T,
) -> Vec<T>
where
    T: Clone,
{
    let mut w = vec![fill; p.max(1)];
    let mut l = 2;
    while l <= p {
        let half = l / 2;
        for j in 0..half {
            w[half + j - 1] = convert(&base[j * (n / l)]);
        }
        l *= 2;
    }
    w
}

/// The twiddle table of a transform of n = odd 2^k points (odd > 1: mixed radix): W_long up to
/// 2^k (its 2^k - 1 entries), then w_n^j for j < n/2 (the last stage's, L = n), `base` being
/// w_n's base table. For a power of two n, W_long itself.
pub fn w_long_mixed<B: Clone, T>(n: usize, base: &[B], fill: T, convert: impl Fn(&B) -> T) -> Vec<T>
where
    T: Clone,
{
    let p = 1usize << n.max(1).trailing_zeros();
    if p == n {
        return w_long(n, base, fill, convert);
    }
    let mut w = w_long_up_to(p, n, base, fill, &convert);
    w.truncate(p - 1);
    w.extend(base.iter().take(n / 2).map(convert));
    w
}

/// Bluestein's chirp index j^2 mod 2n, taken exactly (j^2 overflows no integer type used).
pub(crate) fn chirp_index(j: usize, n: usize) -> u64 {
    ((j as u128 * j as u128) % (2 * n as u128)) as u64
}

/// The chirp index r as r' = r or r - 2n, so the angle pi r' / n has |angle| <= pi (exact).
fn symmetric_index(r: u64, n: usize) -> i64 {
    let (r, n) = (r as i64, n as i64);
    if r > n {
        r - 2 * n
    } else {
        r
    }
}

/// Bluestein's chirp w_j = exp(sign i pi j^2 / n), j < n, in f64 (sign -1: forward). The
/// quarter turns come off exactly in integers (pi r / n = q pi/2 + pi r2 / 2n, |r2| <= n/2), so
/// sin and cos see |phi| <= pi/4 and each factor is within about an f64 ulp.
pub(crate) fn chirp_f64(n: usize, sign: f64) -> Vec<(f64, f64)> {
    (0..n)
        .map(|j| {
            let r = chirp_index(j, n) as i128;
            let n_i = n as i128;
            let q = (4 * r + n_i) / (2 * n_i); // round(2 r / n), 0..=4
            let r2 = 2 * r - q * n_i;
            let phi = std::f64::consts::PI * (r2 as f64 / (2 * n) as f64);
            let (s, c) = phi.sin_cos();
            let (cos, sin) = match q & 3 {
                0 => (c, s),
                1 => (-s, c),
                2 => (-c, -s),
                _ => (s, -c),
            };
            (cos, sign * sin)
        })
        .collect()
}

/// The same chirp from the correctly rounded oracle (for qf128 and the double-double
/// reference), as (cos, sign sin) oracle values.
pub(crate) fn chirp_big(n: usize, sign: f64) -> Vec<(BigFloat, BigFloat)> {
    let mut o = Oracle::new();
    let pi = o.pi();
    (0..n)
        .map(|j| {
            let r = symmetric_index(chirp_index(j, n), n);
            let t = pi
                .mul(&big(r as f64), ORACLE_BITS, RoundingMode::ToEven)
                .div(&big(n as f64), ORACLE_BITS, RoundingMode::ToEven);
            let s = o.sin(&t).mul(&big(sign), ORACLE_BITS, RoundingMode::ToEven);
            (o.cos(&t), s)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numeric::oracle::to_f64;

    #[test]
    fn octant_symmetry_gives_every_factor() {
        for n in [2usize, 4, 8, 16, 64, 1024] {
            let base = base_f64(n);
            assert_eq!(base.len(), n / 2);
            for (j, (c, s)) in base.iter().enumerate() {
                let t = -2.0 * std::f64::consts::PI * j as f64 / n as f64;
                assert!((c - t.cos()).abs() < 1e-15, "n {n} j {j}: cos {c}");
                assert!((s - t.sin()).abs() < 1e-15, "n {n} j {j}: sin {s}");
            }
        }
        let big = base_big(64);
        let f = base_f64(64);
        for (b, f) in big.iter().zip(&f) {
            assert!((to_f64(&b.0) - f.0).abs() < 4e-16);
            assert!((to_f64(&b.1) - f.1).abs() < 4e-16);
        }
    }

    #[test]
    fn w_long_is_thall_layout() {
        let n = 16;
        let base = base_f64(n);
        let w = w_long(n, &base, (0.0, 0.0), |b| *b);
        // L = 8, j = 3: index 4 + 3 - 1 = 6, w_8^3 = exp(-3 pi i / 4).
        let t = -2.0 * std::f64::consts::PI * 3.0 / 8.0;
        assert!((w[6].0 - t.cos()).abs() < 1e-15 && (w[6].1 - t.sin()).abs() < 1e-15);
        assert_eq!(w[0], (1.0, 0.0)); // w_2^0
    }

    #[test]
    fn chirp_is_exact_in_its_index_and_matches_the_oracle() {
        // j^2 for j near 2^32 overflows u64 arithmetic done naively; the index must not.
        let n = 1_000_003;
        let j = (1usize << 32) + 12345;
        let want = ((j as u128 * j as u128) % (2 * n as u128)) as u64;
        assert_eq!(chirp_index(j, n), want);
        assert!(chirp_index(j, n) < 2 * n as u64);
        for n in [1usize, 3, 5, 7, 12, 1000] {
            let f = chirp_f64(n, -1.0);
            let b = chirp_big(n, -1.0);
            for (j, ((c, s), (bc, bs))) in f.iter().zip(&b).enumerate() {
                let t = -std::f64::consts::PI * (j * j) as f64 / n as f64;
                assert!(
                    (c - t.cos()).abs() < 1e-12 && (s - t.sin()).abs() < 1e-12,
                    "n {n} j {j}"
                );
                assert!((to_f64(bc) - c).abs() < 4e-16, "n {n} j {j}: {c} vs oracle");
                assert!((to_f64(bs) - s).abs() < 4e-16, "n {n} j {j}: {s} vs oracle");
            }
        }
    }
}
