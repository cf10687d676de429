//! The vector and matrix routines (`glsl/df64_vec.glsl`) swept as the scalar ops are: each
//! routine on random operands of every class (near 1, 1e6 to 1e9, nearly cancelling, planet
//! scale, 2^-40 to 2^40), run from the export in a plain program in the vertex and in the
//! fragment stage of this context, each result component against the oracle in the routine's
//! unit (ulp48, ulp24, or 2^-48 / 2^-24 of the products' magnitudes), and bit for bit against
//! the CPU mirror.

use astro_float::BigFloat;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use super::super::known_answers::{vec_operands, VecClass};
use crate::error::ExperimentError;
use df64gl::gl::GlContext;
use df64gl::numeric::df64::Df64;
use df64gl::numeric::domain::same_words;
use df64gl::numeric::fpenv::with_flush_to_zero;
use df64gl::numeric::oracle::{big_df64, Oracle};
use df64gl::numeric::vec_catalog::{component_error, vec_ops, VEC_FLOOR};
use df64gl::probe::context_check::{run_vec_routine, Stages};
use df64gl::probe::snippet::{SnippetOptions, SnippetTarget};

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
