//! The vector and matrix routines (`glsl/df64_vec.glsl`) swept as the scalar ops are: each
//! routine on random operands of every class (near 1, 1e6 to 1e9, nearly cancelling, planet
//! scale, 2^-40 to 2^40), run from the export in a plain program in the vertex and in the
//! fragment stage of this context, each result component against the oracle in the routine's
//! unit (ulp48, ulp24, or 2^-48 / 2^-24 of the products' magnitudes), and bit for bit against
//! the CPU mirror.

use astro_float::BigFloat;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use crate::error::ExperimentError;
use df64gl::export::context_check::{run_vec_routine, Stages};
use df64gl::export::snippet::{SnippetOptions, SnippetTarget};
use df64gl::gl::GlContext;
use df64gl::numeric::df64::Df64;
use df64gl::numeric::domain::{operand_at_exponent, same_words};
use df64gl::numeric::fpenv::with_flush_to_zero;
use df64gl::numeric::oracle::{big, big_df64, round_to_df64, Oracle};
use df64gl::numeric::vec_catalog::{component_error, vec_ops, VecOpRow, VecShape, VEC_FLOOR};

/// One routine on one operand class, in both stages.
#[derive(Debug, Clone, Serialize)]
pub struct VecAccuracyRow {
    /// The routine ("vec3_add", ...).
    pub op: String,
    /// The operand class.
    pub class: String,
    /// Evaluations measured (each stage).
    pub samples: usize,
    /// What `max` and `rms` count.
    pub unit: String,
    /// The documented bound.
    pub bound: f64,
    /// Largest error over the components, vertex stage.
    pub vertex_max: f64,
    /// Largest error over the components, fragment stage.
    pub fragment_max: f64,
    /// RMS error over both stages' components.
    pub rms: f64,
    /// Components that differ from the CPU mirror in either stage.
    pub mirror_mismatches: usize,
    /// The driver rounds to nearest, so mismatches are errors.
    pub mirror_must_match: bool,
    /// Both stages within the bound.
    pub meets_target: bool,
}

/// The export a plain program of this context's GLSL takes: 4.50 where the context has it,
/// else 3.30 (`precise` through GL_ARB_gpu_shader5, else the bit-level barrier).
fn export_target(ctx: &GlContext) -> SnippetTarget {
    if ctx.info().glsl_version.starts_with("3.") {
        SnippetTarget::Glsl330
    } else {
        SnippetTarget::Glsl450
    }
}

/// Every vector routine on `samples` operand sets per class; `flush`: the context flushes
/// subnormals (the mirror then runs flushing), `round_to_nearest`: mismatches with the mirror
/// are errors.
pub fn measure_vectors(
    ctx: &GlContext,
    samples: usize,
    seed: u64,
    flush: bool,
    round_to_nearest: bool,
    progress: &mut dyn FnMut(&str),
) -> Result<Vec<VecAccuracyRow>, ExperimentError> {
    let options = SnippetOptions::new(export_target(ctx));
    let mut rows = Vec::new();
    let mut o = Oracle::new();
    for (k, row) in vec_ops().iter().enumerate() {
        progress(row.name);
        for (c, class) in VecClass::ALL.into_iter().enumerate() {
            let mut rng = ChaCha8Rng::seed_from_u64(seed ^ ((k as u64) << 8) ^ c as u64);
            let operands: Vec<Vec<Df64>> = (0..samples)
                .map(|_| vec_operands(row, class, &mut rng))
                .collect();
            let flat: Vec<Df64> = operands.iter().flatten().copied().collect();
            // SAFETY: the context is current on this thread (the session made it).
            let run = unsafe { run_vec_routine(ctx.gl(), &options, row, &flat, Stages::BOTH) }
                .map_err(|e| ExperimentError::Invalid(format!("{}: {e}", row.name)))?;
            let n_out = row.output_numbers();
            let mirror: Vec<Vec<Df64>> = with_flush_to_zero(flush, || {
                std::hint::black_box(operands.iter().map(|x| (row.mirror)(x)).collect())
            });
            let (mut worst, mut sum_sq, mut counted, mut mismatches) =
                ([0.0f64; 2], 0.0, 0usize, 0usize);
            for (e, x) in operands.iter().enumerate() {
                let big: Vec<BigFloat> = x.iter().map(|d| big_df64(*d)).collect();
                let exact = (row.exact)(&mut o, &big);
                let fx: Vec<f64> = x.iter().map(|d| d.to_f64()).collect();
                let terms = row.terms.map(|t| t(&fx));
                for (i, exact_i) in exact.iter().enumerate().take(n_out) {
                    let t = terms
                        .as_ref()
                        .and_then(|t| t.get(i).copied())
                        .unwrap_or(0.0);
                    let m = mirror.get(e).and_then(|m| m.get(i)).copied();
                    for (s, got) in [&run.vertex, &run.fragment].into_iter().enumerate() {
                        let g = got
                            .get(e * n_out + i)
                            .copied()
                            .unwrap_or(Df64::new(f32::NAN, 0.0));
                        let err = component_error(row.unit, g, exact_i, t, VEC_FLOOR, &mut o);
                        worst[s] = worst[s].max(if err.is_nan() { f64::INFINITY } else { err });
                        if err.is_finite() {
                            sum_sq += err * err;
                            counted += 1;
                        }
                        if m.is_none_or(|m| !same_words(g, m)) {
                            mismatches += 1;
                        }
                    }
                }
            }
            rows.push(VecAccuracyRow {
                op: row.name.to_string(),
                class: class.name().to_string(),
                samples,
                unit: row.unit.label().to_string(),
                bound: row.bound,
                vertex_max: worst[0],
                fragment_max: worst[1],
                rms: (sum_sq / counted.max(1) as f64).sqrt(),
                mirror_mismatches: mismatches,
                mirror_must_match: round_to_nearest,
                meets_target: worst[0] <= row.bound && worst[1] <= row.bound,
            });
        }
    }
    Ok(rows)
}

/// The operand classes of the vector routines (the sweeps draw from the same).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VecClass {
    /// Every number near 1 (2^-2 to 2^2), full low words.
    Unit,
    /// 2^20 to 2^30 (about 1e6 to 1e9).
    Large,
    /// Operands that nearly cancel: sums and differences of nearly equal vectors, dot products
    /// near zero, positions near the eye (relative 2^-40 to 2^-10 apart).
    Cancel,
    /// Planet-scale positions: 6.4e6 m out, the eye 0.1 mm to 10 km away.
    Planet,
    /// Exponents from 2^-40 to 2^40, independently per number.
    Exponents,
}

impl VecClass {
    /// Every class.
    pub const ALL: [VecClass; 5] = [
        VecClass::Unit,
        VecClass::Large,
        VecClass::Cancel,
        VecClass::Planet,
        VecClass::Exponents,
    ];

    /// How tables name it.
    pub fn name(self) -> &'static str {
        match self {
            VecClass::Unit => "unit",
            VecClass::Large => "1e6..1e9",
            VecClass::Cancel => "cancelling",
            VecClass::Planet => "planet 6.4e6",
            VecClass::Exponents => "2^+-40",
        }
    }
}

/// A df64 number of magnitude 2^lo to 2^hi (random sign), or its f32 part for an f32 operand.
fn vec_number(rng: &mut ChaCha8Rng, lo: i32, hi: i32, f32_only: bool) -> Df64 {
    let k = rng.gen_range(lo..=hi);
    let d = operand_at_exponent(rng, k, false);
    if f32_only {
        Df64::new(d.hi, 0.0)
    } else {
        d
    }
}

/// `x (1 + r)` to about 53 bits, rounded to df64, r of magnitude 2^-40 to 2^-10 (random sign).
fn nearby(rng: &mut ChaCha8Rng, x: Df64) -> Df64 {
    let k = rng.gen_range(-40..=-10);
    let r = operand_at_exponent(rng, k, false).to_f64();
    Df64::from_f64(x.to_f64() * (1.0 + r))
}

/// Operands of one evaluation of `row` in `class` (flat, as the row's shapes lay them out).
pub fn vec_operands(row: &VecOpRow, class: VecClass, rng: &mut ChaCha8Rng) -> Vec<Df64> {
    let (lo, hi) = match class {
        VecClass::Unit | VecClass::Cancel => (-2, 2),
        VecClass::Large => (20, 30),
        VecClass::Planet => (22, 22),
        VecClass::Exponents => (-40, 40),
    };
    let mut x: Vec<Df64> = Vec::with_capacity(row.input_numbers());
    for shape in row.inputs {
        match shape {
            // A renderer's matrix: entries within [-2, 2] (translations larger), last row
            // 0 0 0 1.
            VecShape::F32Mat4 => {
                for k in 0..16 {
                    let v = if k % 4 == 3 {
                        if k == 15 {
                            1.0
                        } else {
                            0.0
                        }
                    } else if k >= 12 {
                        vec_number(rng, -4, 6, true).hi
                    } else {
                        vec_number(rng, -3, 1, true).hi
                    };
                    x.push(Df64::new(v, 0.0));
                }
            }
            // Local positions: small, f32.
            VecShape::F32Vec(n) => {
                x.extend((0..*n).map(|_| vec_number(rng, -4, 7, true)));
            }
            VecShape::F32 => x.push(vec_number(rng, -3, 3, true)),
            _ => {
                let n = shape.numbers();
                x.extend((0..n).map(|_| vec_number(rng, lo, hi, false)));
            }
        }
    }
    let at =
        |row: &VecOpRow, i: usize| -> usize { row.inputs[..i].iter().map(|s| s.numbers()).sum() };
    match class {
        VecClass::Cancel | VecClass::Planet => {
            let name = row.name;
            if name.ends_with("_sub")
                || name.ends_with("_add")
                || name.ends_with("cross")
                || name == "relative_to_eye"
            {
                // The second operand close to the first (to its negation for a sum).
                let n = row.inputs[0].numbers();
                for i in 0..n {
                    let b = nearby(rng, x[i]);
                    x[n + i] = if name.ends_with("_add") { -b } else { b };
                }
            } else if name == "world_to_view" {
                // The world position close to the eye (operands: matrix, eye, world).
                let (eye, world) = (at(row, 1), at(row, 2));
                for i in 0..3 {
                    x[world + i] = nearby(rng, x[eye + i]);
                }
            } else if name.ends_with("_dot") || name == "mat4_mul_vec4" {
                // The last product cancels the others to within the words: a b nearly 0 (the
                // first row of the matrix against the vector).
                let n = row.inputs[1].numbers();
                let b0 = at(row, 1);
                let first = |i: usize| if name == "mat4_mul_vec4" { 4 * i } else { i };
                let mut o = Oracle::new();
                let mut s = big(0.0);
                for i in 0..n - 1 {
                    let p = o.mul(&big_df64(x[first(i)]), &big_df64(x[b0 + i]));
                    s = o.add(&s, &p);
                }
                let last = o.div(&s.neg(), &big_df64(x[first(n - 1)]));
                x[b0 + n - 1] = round_to_df64(&last);
            }
        }
        _ => {}
    }
    x
}
