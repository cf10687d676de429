//! The catalog of df64 vector and matrix routines (`glsl/df64_vec.glsl`): one row per GLSL
//! function with its operands' and result's shapes, its CPU mirror ([`super::df64_vec`]), its
//! exact value at the oracle's precision, and its documented bound in the unit the bound is
//! stated in. The known answers, the sweeps and the export's checks read these rows, as they
//! read [`super::catalog`] for the scalar routines.
//!
//! Operands and results travel as flat lists of df64 numbers: a `df64vec3` is three, a
//! `df64mat4` sixteen (column by column), an f32 one with a zero low word.

use astro_float::BigFloat;

use super::df64::Df64;
use super::df64_vec::{self as v, Df64Mat4, Df64Vec};
use super::oracle::{big, to_f64, Oracle};
use super::reference::{ulp48, ulp_bits};

/// The GLSL type of an operand or a result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VecShape {
    /// A df64 scalar (`vec2`).
    Df64,
    /// `df64vecN`.
    Df64Vec(usize),
    /// `df64mat4`.
    Df64Mat4,
    /// `float`.
    F32,
    /// `vecN`.
    F32Vec(usize),
    /// `mat4`.
    F32Mat4,
}

impl VecShape {
    /// How many numbers it holds.
    pub fn numbers(self) -> usize {
        match self {
            VecShape::Df64 | VecShape::F32 => 1,
            VecShape::Df64Vec(n) | VecShape::F32Vec(n) => n,
            VecShape::Df64Mat4 | VecShape::F32Mat4 => 16,
        }
    }

    /// Numbers of f32 precision (the low words are zero).
    pub fn is_f32(self) -> bool {
        matches!(
            self,
            VecShape::F32 | VecShape::F32Vec(_) | VecShape::F32Mat4
        )
    }

    /// The GLSL type.
    pub(crate) fn glsl_type(self) -> String {
        match self {
            VecShape::Df64 => "vec2".into(),
            VecShape::Df64Vec(n) => format!("df64vec{n}"),
            VecShape::Df64Mat4 => "df64mat4".into(),
            VecShape::F32 => "float".into(),
            VecShape::F32Vec(n) => format!("vec{n}"),
            VecShape::F32Mat4 => "mat4".into(),
        }
    }
}

/// What a routine's bound is measured in, per result component (x the exact component).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VecUnit {
    /// ulp48(x) = 2^(e-47), 2^e <= |x| < 2^(e+1): the scalar routines' unit.
    Ulp48,
    /// ulp24(x) = 2^(e-23): an f32 result's ulp.
    Ulp24,
    /// 2^-48 times the sum of the magnitudes of the component's products (dot products, cross
    /// products, matrix products: the error that cancellation cannot shrink).
    Terms48,
    /// 2^-24 times the sum of the magnitudes of the f32 products, plus 2^-48 |x| (the transforms
    /// that apply an f32 matrix).
    Terms24,
}

impl VecUnit {
    /// The unit's size for a component of exact value `x` whose products sum to `terms` in
    /// magnitude.
    pub fn size(self, x: f64, terms: f64) -> f64 {
        match self {
            VecUnit::Ulp48 => ulp48(x),
            VecUnit::Ulp24 => ulp_bits(x, 23),
            VecUnit::Terms48 => 2f64.powi(-48) * terms,
            VecUnit::Terms24 => 2f64.powi(-24) * terms + 2f64.powi(-48) * x.abs(),
        }
    }

    /// How tables name it.
    pub fn label(self) -> &'static str {
        match self {
            VecUnit::Ulp48 => "ulp48",
            VecUnit::Ulp24 => "ulp24",
            VecUnit::Terms48 => "2^-48 sum|p|",
            VecUnit::Terms24 => "2^-24 sum|p| + 2^-48|x|",
        }
    }
}

/// The smallest error the vector routines are held to, absolute: a few operations' worth of the
/// 2^-126 a flushing driver's low word cannot hold.
pub const VEC_FLOOR: f64 = 1.880_790_961_315_66e-37; // 2^-122

/// The mirror on the flat operands.
pub(crate) type VecMirror = fn(&[Df64]) -> Vec<Df64>;
/// The exact result components from the flat operands.
pub(crate) type VecExact = fn(&mut Oracle, &[BigFloat]) -> Vec<BigFloat>;
/// Per result component, the sum of the magnitudes of its products (for the Terms units).
pub(crate) type VecTerms = fn(&[f64]) -> Vec<f64>;

/// One routine of `df64_vec.glsl`.
pub struct VecOpRow {
    /// The name in tables and known answers (the GLSL name without `df64`: "vec3_add").
    pub name: &'static str,
    /// The GLSL function.
    pub function: &'static str,
    /// Its parameters' shapes.
    pub inputs: &'static [VecShape],
    /// Its result's shape.
    pub output: VecShape,
    /// The CPU mirror.
    pub mirror: VecMirror,
    /// The exact result.
    pub exact: VecExact,
    /// The products' magnitudes, for the Terms units.
    pub terms: Option<VecTerms>,
    /// The bound's unit.
    pub unit: VecUnit,
    /// The documented bound, in `unit`.
    pub bound: f64,
}

impl VecOpRow {
    /// How many numbers the routine reads.
    pub fn input_numbers(&self) -> usize {
        self.inputs.iter().map(|s| s.numbers()).sum()
    }

    /// How many numbers it returns.
    pub fn output_numbers(&self) -> usize {
        self.output.numbers()
    }

    /// The GLSL call on operands named `x0`, `x1`, ...
    pub fn call(&self) -> String {
        let args: Vec<String> = (0..self.inputs.len()).map(|i| format!("x{i}")).collect();
        format!("{}({})", self.function, args.join(", "))
    }
}

fn vec_at<const N: usize>(x: &[Df64], at: usize) -> Df64Vec<N> {
    Df64Vec::from_components(std::array::from_fn(|i| {
        x.get(at + i).copied().unwrap_or_default()
    }))
}

fn mat_at(x: &[Df64], at: usize) -> Df64Mat4 {
    let e = |c: usize, r: usize| x.get(at + 4 * c + r).copied().unwrap_or_default();
    Df64Mat4 {
        hi: std::array::from_fn(|c| std::array::from_fn(|r| e(c, r).hi)),
        lo: std::array::from_fn(|c| std::array::from_fn(|r| e(c, r).lo)),
    }
}

fn f32_mat_at(x: &[Df64], at: usize) -> [[f32; 4]; 4] {
    mat_at(x, at).hi
}

fn flat<const N: usize>(r: Df64Vec<N>) -> Vec<Df64> {
    r.components().to_vec()
}

fn flat_f32<const N: usize>(r: [f32; N]) -> Vec<Df64> {
    r.iter().map(|x| Df64::new(*x, 0.0)).collect()
}

fn at(x: &[Df64], i: usize) -> Df64 {
    x.get(i).copied().unwrap_or_default()
}

fn bat(x: &[BigFloat], i: usize) -> BigFloat {
    x.get(i).cloned().unwrap_or_else(|| big(f64::NAN))
}

fn fat(x: &[f64], i: usize) -> f64 {
    x.get(i).copied().unwrap_or(f64::NAN)
}

/// sum_k a[k] b[k] exactly.
fn exact_dot(o: &mut Oracle, a: &[BigFloat], b: &[BigFloat]) -> BigFloat {
    a.iter().zip(b).fold(big(0.0), |s, (x, y)| {
        let p = o.mul(x, y);
        o.add(&s, &p)
    })
}

/// Row r of the column-major 4x4 at `m` (elements m[4c + r]).
fn row<T: Clone>(m: &[T], r: usize) -> Vec<T> {
    (0..4).filter_map(|c| m.get(4 * c + r).cloned()).collect()
}

fn abs_dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x * y).abs()).sum()
}

/// The nine rows of one vector size: names "vecN_op", functions "df64vecN_op".
macro_rules! sized_rows {
    ($n:literal) => {
        [
            VecOpRow {
                name: concat!("vec", $n, "_add"),
                function: concat!("df64vec", $n, "_add"),
                inputs: &[VecShape::Df64Vec($n), VecShape::Df64Vec($n)],
                output: VecShape::Df64Vec($n),
                mirror: |x| flat(v::df64vec_add::<$n>(&vec_at(x, 0), &vec_at(x, $n))),
                exact: |o, x| {
                    (0..$n)
                        .map(|i| o.add(&bat(x, i), &bat(x, $n + i)))
                        .collect()
                },
                terms: None,
                unit: VecUnit::Ulp48,
                bound: 0.5,
            },
            VecOpRow {
                name: concat!("vec", $n, "_sub"),
                function: concat!("df64vec", $n, "_sub"),
                inputs: &[VecShape::Df64Vec($n), VecShape::Df64Vec($n)],
                output: VecShape::Df64Vec($n),
                mirror: |x| flat(v::df64vec_sub::<$n>(&vec_at(x, 0), &vec_at(x, $n))),
                exact: |o, x| {
                    (0..$n)
                        .map(|i| o.sub(&bat(x, i), &bat(x, $n + i)))
                        .collect()
                },
                terms: None,
                unit: VecUnit::Ulp48,
                bound: 0.5,
            },
            VecOpRow {
                name: concat!("vec", $n, "_neg"),
                function: concat!("df64vec", $n, "_neg"),
                inputs: &[VecShape::Df64Vec($n)],
                output: VecShape::Df64Vec($n),
                mirror: |x| flat(v::df64vec_neg::<$n>(&vec_at(x, 0))),
                exact: |_, x| (0..$n).map(|i| bat(x, i).neg()).collect(),
                terms: None,
                unit: VecUnit::Ulp48,
                bound: 0.0,
            },
            VecOpRow {
                name: concat!("vec", $n, "_mul"),
                function: concat!("df64vec", $n, "_mul"),
                inputs: &[VecShape::Df64Vec($n), VecShape::Df64],
                output: VecShape::Df64Vec($n),
                mirror: |x| flat(v::df64vec_mul::<$n>(&vec_at(x, 0), at(x, $n))),
                exact: |o, x| (0..$n).map(|i| o.mul(&bat(x, i), &bat(x, $n))).collect(),
                terms: None,
                unit: VecUnit::Ulp48,
                bound: 0.5,
            },
            VecOpRow {
                name: concat!("vec", $n, "_mul_f32"),
                function: concat!("df64vec", $n, "_mul_f32"),
                inputs: &[VecShape::Df64Vec($n), VecShape::F32],
                output: VecShape::Df64Vec($n),
                mirror: |x| flat(v::df64vec_mul_f32::<$n>(&vec_at(x, 0), at(x, $n).hi)),
                exact: |o, x| (0..$n).map(|i| o.mul(&bat(x, i), &bat(x, $n))).collect(),
                terms: None,
                unit: VecUnit::Ulp48,
                bound: 0.5,
            },
            VecOpRow {
                name: concat!("vec", $n, "_dot"),
                function: concat!("df64vec", $n, "_dot"),
                inputs: &[VecShape::Df64Vec($n), VecShape::Df64Vec($n)],
                output: VecShape::Df64,
                mirror: |x| vec![v::df64vec_dot::<$n>(&vec_at(x, 0), &vec_at(x, $n))],
                exact: |o, x| {
                    vec![exact_dot(
                        o,
                        &x[..$n.min(x.len())],
                        x.get($n..).unwrap_or(&[]),
                    )]
                },
                terms: Some(|x| vec![abs_dot(&x[..$n.min(x.len())], x.get($n..).unwrap_or(&[]))]),
                unit: VecUnit::Terms48,
                // gamma_n = n u^2 / (1 - n u^2), a hair above n.
                bound: $n as f64 * (1.0 + 1e-12),
            },
            VecOpRow {
                name: concat!("vec", $n, "_length"),
                function: concat!("df64vec", $n, "_length"),
                inputs: &[VecShape::Df64Vec($n)],
                output: VecShape::Df64,
                mirror: |x| vec![v::df64vec_length::<$n>(&vec_at(x, 0))],
                exact: |o, x| {
                    // As hypot: an infinite component wins over a NaN one.
                    if (0..$n).any(|i| to_f64(&bat(x, i)).is_infinite()) {
                        return vec![big(f64::INFINITY)];
                    }
                    let s = exact_dot(o, &x[..$n.min(x.len())], &x[..$n.min(x.len())]);
                    vec![o.sqrt(&s)]
                },
                terms: None,
                unit: VecUnit::Ulp48,
                bound: ($n as f64 + 1.0) / 2.0,
            },
            VecOpRow {
                name: concat!("vec", $n, "_normalize"),
                function: concat!("df64vec", $n, "_normalize"),
                inputs: &[VecShape::Df64Vec($n)],
                output: VecShape::F32Vec($n),
                mirror: |x| flat_f32(v::df64vec_normalize::<$n>(&vec_at(x, 0))),
                exact: |o, x| {
                    // Documented: NaN for a zero, infinite or NaN vector.
                    let f: Vec<f64> = (0..$n).map(|i| to_f64(&bat(x, i))).collect();
                    if f.iter().all(|v| *v == 0.0) || f.iter().any(|v| !v.is_finite()) {
                        return vec![big(f64::NAN); $n];
                    }
                    let s = exact_dot(o, &x[..$n.min(x.len())], &x[..$n.min(x.len())]);
                    let l = o.sqrt(&s);
                    (0..$n).map(|i| o.div(&bat(x, i), &l)).collect()
                },
                terms: None,
                unit: VecUnit::Ulp24,
                bound: 0.5 + 1.0 / 2_097_152.0, // 0.5 + 2^-21
            },
            VecOpRow {
                name: concat!("vec", $n, "_to_f32"),
                function: concat!("df64vec", $n, "_to_f32"),
                inputs: &[VecShape::Df64Vec($n)],
                output: VecShape::F32Vec($n),
                mirror: |x| flat_f32(v::df64vec_to_f32::<$n>(&vec_at(x, 0))),
                exact: |_, x| (0..$n).map(|i| bat(x, i)).collect(),
                terms: None,
                unit: VecUnit::Ulp24,
                bound: 0.5,
            },
        ]
    };
}

const VEC2_ROWS: [VecOpRow; 9] = sized_rows!(2);
const VEC3_ROWS: [VecOpRow; 9] = sized_rows!(3);
const VEC4_ROWS: [VecOpRow; 9] = sized_rows!(4);

/// sum_j |m[j][i] p_j| for each row i of the column-major 4x4 at 0 and the vector at 16.
fn matrix_terms(x: &[f64], width: usize) -> Vec<f64> {
    let p = x.get(16..16 + width).unwrap_or(&[]);
    (0..4).map(|r| abs_dot(&row(x, r), p)).collect()
}

/// The exact m p for the column-major 4x4 at 0 and the 4-vector `p`.
fn exact_matrix_apply(o: &mut Oracle, m: &[BigFloat], p: &[BigFloat]) -> Vec<BigFloat> {
    (0..4).map(|r| exact_dot(o, &row(m, r), p)).collect()
}

/// The rows that are not per size.
const OTHER_ROWS: [VecOpRow; 6] = [
    VecOpRow {
        name: "vec3_cross",
        function: "df64vec3_cross",
        inputs: &[VecShape::Df64Vec(3), VecShape::Df64Vec(3)],
        output: VecShape::Df64Vec(3),
        mirror: |x| flat(v::df64vec3_cross(&vec_at(x, 0), &vec_at(x, 3))),
        exact: |o, x| {
            let a = |i: usize| bat(x, i);
            let b = |i: usize| bat(x, 3 + i);
            [(1, 2), (2, 0), (0, 1)]
                .into_iter()
                .map(|(j, k)| {
                    let p = o.mul(&a(j), &b(k));
                    let q = o.mul(&a(k), &b(j));
                    o.sub(&p, &q)
                })
                .collect()
        },
        terms: Some(|x| {
            [(1, 2), (2, 0), (0, 1)]
                .into_iter()
                .map(|(j, k)| (fat(x, j) * fat(x, 3 + k)).abs() + (fat(x, k) * fat(x, 3 + j)).abs())
                .collect()
        }),
        unit: VecUnit::Terms48,
        bound: 2.0 * (1.0 + 1e-12),
    },
    VecOpRow {
        name: "mat4_mul_vec4",
        function: "df64mat4_mul_vec4",
        inputs: &[VecShape::Df64Mat4, VecShape::Df64Vec(4)],
        output: VecShape::Df64Vec(4),
        mirror: |x| flat(v::df64mat4_mul_vec4(&mat_at(x, 0), &vec_at(x, 16))),
        exact: |o, x| exact_matrix_apply(o, &x[..16.min(x.len())], x.get(16..).unwrap_or(&[])),
        terms: Some(|x| matrix_terms(x, 4)),
        unit: VecUnit::Terms48,
        bound: 4.0 * (1.0 + 1e-12),
    },
    VecOpRow {
        name: "mat4_mul",
        function: "df64mat4_mul",
        inputs: &[VecShape::Df64Mat4, VecShape::Df64Mat4],
        output: VecShape::Df64Mat4,
        mirror: |x| {
            let p = v::df64mat4_mul(&mat_at(x, 0), &mat_at(x, 16));
            (0..16)
                .map(|k| Df64::new(p.hi[k / 4][k % 4], p.lo[k / 4][k % 4]))
                .collect()
        },
        exact: |o, x| {
            let a = &x[..16.min(x.len())];
            let b = x.get(16..).unwrap_or(&[]);
            (0..16)
                .map(|k| {
                    let col = b.get(4 * (k / 4)..4 * (k / 4) + 4).unwrap_or(&[]);
                    exact_dot(o, &row(a, k % 4), col)
                })
                .collect()
        },
        terms: Some(|x| {
            let a = &x[..16.min(x.len())];
            let b = x.get(16..).unwrap_or(&[]);
            (0..16)
                .map(|k| {
                    abs_dot(
                        &row(a, k % 4),
                        b.get(4 * (k / 4)..4 * (k / 4) + 4).unwrap_or(&[]),
                    )
                })
                .collect()
        }),
        unit: VecUnit::Terms48,
        bound: 4.0 * (1.0 + 1e-12),
    },
    VecOpRow {
        name: "transform_point",
        function: "df64_transform_point",
        inputs: &[VecShape::F32Mat4, VecShape::Df64Vec(3), VecShape::F32Vec(3)],
        output: VecShape::Df64Vec(3),
        mirror: |x| {
            let p = [at(x, 19).hi, at(x, 20).hi, at(x, 21).hi];
            flat(v::df64_transform_point(
                &f32_mat_at(x, 0),
                &vec_at(x, 16),
                p,
            ))
        },
        exact: |o, x| {
            let mut p: Vec<BigFloat> = (19..22).map(|i| bat(x, i)).collect();
            p.push(big(1.0));
            let q = exact_matrix_apply(o, &x[..16.min(x.len())], &p);
            (0..3).map(|i| o.add(&q[i], &bat(x, 16 + i))).collect()
        },
        terms: Some(|x| {
            let mut p: Vec<f64> = (19..22).map(|i| fat(x, i)).collect();
            p.push(1.0);
            (0..3).map(|r| abs_dot(&row(x, r), &p)).collect()
        }),
        unit: VecUnit::Terms24,
        // gamma_4 in f32 (4.000001 u) for the matrix, u^2 |x| for the df64 add.
        bound: 4.0001,
    },
    VecOpRow {
        name: "relative_to_eye",
        function: "df64_relative_to_eye",
        inputs: &[VecShape::Df64Vec(3), VecShape::Df64Vec(3)],
        output: VecShape::F32Vec(3),
        mirror: |x| flat_f32(v::df64_relative_to_eye(&vec_at(x, 0), &vec_at(x, 3))),
        exact: |o, x| (0..3).map(|i| o.sub(&bat(x, i), &bat(x, 3 + i))).collect(),
        terms: None,
        unit: VecUnit::Ulp24,
        bound: 0.5 + 1.0 / 4_194_304.0, // 0.5 + 2^-22
    },
    VecOpRow {
        name: "world_to_view",
        function: "df64_world_to_view",
        inputs: &[
            VecShape::F32Mat4,
            VecShape::Df64Vec(3),
            VecShape::Df64Vec(3),
        ],
        output: VecShape::F32Vec(4),
        mirror: |x| {
            flat_f32(v::df64_world_to_view(
                &f32_mat_at(x, 0),
                &vec_at(x, 16),
                &vec_at(x, 19),
            ))
        },
        exact: |o, x| {
            let mut d: Vec<BigFloat> = (0..3)
                .map(|i| o.sub(&bat(x, 19 + i), &bat(x, 16 + i)))
                .collect();
            d.push(big(1.0));
            exact_matrix_apply(o, &x[..16.min(x.len())], &d)
        },
        terms: Some(|x| {
            let mut d: Vec<f64> = (0..3).map(|i| fat(x, 19 + i) - fat(x, 16 + i)).collect();
            d.push(1.0);
            (0..4).map(|r| abs_dot(&row(x, r), &d)).collect()
        }),
        unit: VecUnit::Terms24,
        // The demotion (u per component) and gamma_4 in f32 for the matrix.
        bound: 5.0001,
    },
];

/// Every vector and matrix routine, in the order of `df64_vec.glsl`'s sections.
pub fn vec_ops() -> &'static [VecOpRow] {
    static ROWS: std::sync::OnceLock<Vec<VecOpRow>> = std::sync::OnceLock::new();
    ROWS.get_or_init(|| {
        let mut rows = Vec::new();
        rows.extend(VEC2_ROWS);
        rows.extend(VEC3_ROWS);
        rows.extend(VEC4_ROWS);
        rows.extend(OTHER_ROWS);
        rows
    })
}

/// The routine of that name ("vec3_add"), if any.
pub fn vec_op(name: &str) -> Option<&'static VecOpRow> {
    vec_ops().iter().find(|r| r.name == name)
}

/// The error of one result component in the routine's unit, beyond `floor` absolute: `got` the
/// component's words (hi, lo), `exact` its value, `terms` the products' magnitudes. NaN and
/// infinities: 0 where both agree (same infinity, or both NaN), infinity otherwise.
pub fn component_error(
    unit: VecUnit,
    got: Df64,
    exact: &BigFloat,
    terms: f64,
    floor: f64,
    o: &mut Oracle,
) -> f64 {
    let x = to_f64(exact);
    if !x.is_finite() || !got.is_finite() {
        let same = (x.is_nan() && got.hi.is_nan()) || (x == got.hi as f64 && got.lo == 0.0);
        return if same { 0.0 } else { f64::INFINITY };
    }
    let g = super::oracle::big_df64(got);
    let diff = to_f64(&o.sub(&g, exact)).abs();
    let size = unit.size(x, terms);
    if diff <= floor {
        return 0.0;
    }
    if size == 0.0 {
        return f64::INFINITY;
    }
    (diff - floor) / size
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::numeric::oracle::big_df64;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn names_are_unique_and_shapes_add_up() {
        let mut names: Vec<&str> = vec_ops().iter().map(|r| r.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), vec_ops().len());
        for r in vec_ops() {
            let x = vec![Df64::new(1.5, 0.0); r.input_numbers()];
            assert_eq!((r.mirror)(&x).len(), r.output_numbers(), "{}", r.name);
            let mut o = Oracle::new();
            let bx: Vec<BigFloat> = x.iter().map(|d| big_df64(*d)).collect();
            assert_eq!(
                (r.exact)(&mut o, &bx).len(),
                r.output_numbers(),
                "{}",
                r.name
            );
            if let Some(t) = r.terms {
                assert_eq!(t(&vec![1.5; r.input_numbers()]).len(), r.output_numbers());
            }
            assert!(vec_op(r.name).is_some() && r.call().starts_with(r.function));
        }
    }

    /// The mirror within every row's bound on operands near 1e9 that nearly cancel.
    #[test]
    fn mirrors_keep_their_bounds_on_large_cancelling_operands() {
        let mut rng = ChaCha8Rng::seed_from_u64(39);
        let mut o = Oracle::new();
        for r in vec_ops() {
            let mut worst = 0.0f64;
            for _ in 0..200 {
                let x: Vec<Df64> = r
                    .inputs
                    .iter()
                    .flat_map(|s| {
                        let n = s.numbers();
                        let f32_only = s.is_f32();
                        let base: f64 = if f32_only { 1.0 } else { 1e9 };
                        (0..n)
                            .map(|_| {
                                let v = base
                                    * rng.gen_range(0.999..1.001)
                                    * if rng.gen() { 1.0 } else { -1.0 };
                                if f32_only {
                                    Df64::new(v as f32, 0.0)
                                } else {
                                    Df64::from_f64(v)
                                }
                            })
                            .collect::<Vec<_>>()
                    })
                    .collect();
                let got = (r.mirror)(&x);
                let bx: Vec<BigFloat> = x.iter().map(|d| big_df64(*d)).collect();
                let exact = (r.exact)(&mut o, &bx);
                let fx: Vec<f64> = x.iter().map(|d| d.to_f64()).collect();
                let terms = r.terms.map(|t| t(&fx));
                for (k, (g, e)) in got.iter().zip(&exact).enumerate() {
                    let t = terms.as_ref().map_or(0.0, |t| t[k]);
                    worst = worst.max(component_error(r.unit, *g, e, t, 0.0, &mut o));
                }
            }
            assert!(worst <= r.bound, "{}: {worst} > {}", r.name, r.bound);
        }
    }
}
