//! `df64gl bench vertex`: what a renderer pays per vertex for positions far from the origin,
//! on one page with the same vertices (`js/bench/rte-vertex.html` in headless Chromium on each
//! ANGLE leg): the plain f32 transform, df64gl's relative-to-eye transforms (the eye subtracted
//! in df64, and the model matrix relative to the eye as a df64mat4) and luma.gl's fp64
//! projection (`mat4_vec4_mul_fp64`), each vertex's clip position captured with transform
//! feedback: ns per vertex, the ratio to f32, and the worst error in pixels against the
//! projection in doubles.

use std::collections::HashMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::ExperimentError;
use crate::web::browser::BrowserBackend;
use crate::web::js_module::run_module_page;

/// The page.
pub const VERTEX_BENCH_PAGE: &str = "/js/bench/rte-vertex.html";

/// One transform on one leg.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct VertexBenchRow {
    /// The leg (the browser's WebGL backend).
    #[serde(default)]
    pub leg: String,
    /// The transform.
    pub variant: String,
    /// Nanoseconds per vertex (best of the page's repeats).
    #[serde(rename = "nsPerVertex")]
    pub ns_per_vertex: f64,
    /// Over the f32 transform's, in the same run.
    #[serde(rename = "ratioToF32")]
    pub ratio_to_f32: Option<f64>,
    /// The largest distance from the f64 projection in a 1000-pixel viewport.
    #[serde(rename = "worstPx")]
    pub worst_px: f64,
}

/// Every leg's rows.
#[derive(Debug, Clone, Serialize)]
pub struct VertexBenchReport {
    /// Vertices per draw.
    pub vertices: usize,
    /// The rows, leg by leg.
    pub rows: Vec<VertexBenchRow>,
}

impl VertexBenchReport {
    /// An aligned table.
    pub fn table(&self) -> String {
        let mut s = format!(
            "cost per vertex of the transform, {} vertices 6.4e6 m out (transform feedback, the \
             rasterizer off; best of 3); worst error in pixels of a 1000-pixel viewport against \
             the projection in doubles\n{:<42} {:<32} {:>10} {:>8} {:>12}\n",
            self.vertices, "leg", "transform", "ns/vertex", "x f32", "worst px"
        );
        for r in &self.rows {
            s.push_str(&format!(
                "{:<42} {:<32} {:>10.2} {:>8} {:>12.3e}\n",
                r.leg,
                r.variant,
                r.ns_per_vertex,
                r.ratio_to_f32
                    .map_or("-".to_string(), |x| format!("{x:.2}")),
                r.worst_px
            ));
        }
        s
    }
}

fn number(v: &serde_json::Value) -> f64 {
    match v {
        serde_json::Value::String(s) => s.parse().unwrap_or(f64::NAN),
        _ => v.as_f64().unwrap_or(f64::NAN),
    }
}

/// Runs the page on each backend with `vertices` vertices.
pub fn run_vertex_bench(
    chromium: &Path,
    backends: &[BrowserBackend],
    vertices: usize,
) -> Result<VertexBenchReport, ExperimentError> {
    let mut rows = Vec::new();
    for &backend in backends {
        let v = run_module_page(
            chromium,
            backend,
            VERTEX_BENCH_PAGE,
            &format!("?n={vertices}"),
            HashMap::new(),
            0,
        )?;
        let list = v["rows"].as_array().ok_or_else(|| {
            ExperimentError::Invalid(format!("{VERTEX_BENCH_PAGE}: no rows in {v}"))
        })?;
        if list.is_empty() {
            return Err(ExperimentError::Invalid(format!(
                "{VERTEX_BENCH_PAGE} on {}: no transform measured",
                backend.name()
            )));
        }
        let leg = backend.name().to_string();
        for r in list {
            rows.push(VertexBenchRow {
                leg: leg.clone(),
                variant: r["variant"].as_str().unwrap_or("?").to_string(),
                ns_per_vertex: number(&r["nsPerVertex"]),
                ratio_to_f32: r["ratioToF32"].as_f64(),
                worst_px: number(&r["worstPx"]),
            });
        }
    }
    Ok(VertexBenchReport { vertices, rows })
}
