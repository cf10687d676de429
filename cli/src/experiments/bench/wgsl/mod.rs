//! `df64gl bench wgsl`: accuracy and cost of the WGSL routines on each `wgpu` leg of this
//! machine (Vulkan on lavapipe, OpenGL on llvmpipe), library beside library on the same inputs:
//! df64gl's export, its unprotected translation (the same routines as plain expressions),
//! luma.gl 9.4's WGSL `fp64arithmetic` (from `js/node_modules`, put through luma.gl's own
//! preprocessor by Node, in three variants: [`LUMA_VARIANTS`]) and plain f32.
//!
//! - Accuracy: the routine on `pairs` operand pairs (df64 operands with full low words from
//!   each routine's range), its worst and RMS error in ulp48 against astro-float's correctly
//!   rounded value of the same operands.
//! - Cost: each of `lanes` invocations runs a chain of dependent calls (`x = routine(x, c)`);
//!   the chain is timed at two lengths and the difference, so fixed costs cancel, gives ns per
//!   op per lane (best of three); the ratio is to the f32 add of the same leg and run.
//!
//! The Chromium leg (Dawn and Tint on SwiftShader) runs the same comparison from
//! `js/bench/wgsl-fp64.html`.

use std::collections::HashMap;
use std::path::Path;
use std::time::Instant;

use astro_float::{BigFloat, RoundingMode};
use rand::{Rng, SeedableRng};
use serde::Serialize;

use crate::error::ExperimentError;
use crate::experiments::wgsl::{wgpu_device, WgpuBackend};
use crate::support::table::{num, text, ReportTable};
use df64gl::export::wgpu_compute::{
    compute_buffer_entry, compute_pipeline, read_back_f32, validated, wait,
};
use df64gl::export::wgsl::{wgsl_export, WgslOptions};
use df64gl::kernels::Df64Op;
use df64gl::numeric::df64::Df64;
use df64gl::numeric::oracle::{big_df64, error_ulp48, Oracle, ORACLE_BITS};
use df64gl::probe::ProbeError;

mod browser;
mod libraries;
mod rig;

pub use browser::*;
pub use libraries::*;
pub use rig::MIN_SECONDS;
use rig::{device_error, Rig};

/// What to run.
#[derive(Debug, Clone)]
pub struct WgslBenchOptions {
    /// The legs.
    pub backends: Vec<WgpuBackend>,
    /// The routines (names of [`BENCH_ROUTINES`]).
    pub routines: Vec<String>,
    /// Operand pairs per routine for the accuracy.
    pub pairs: usize,
    /// Invocations per dispatch for the cost.
    pub lanes: u32,
    /// The chain's two lengths.
    pub chain: (u32, u32),
    /// The npm package folder whose node_modules has luma.gl (None: no luma.gl rows).
    pub luma: Option<std::path::PathBuf>,
    /// The unprotected translation too.
    pub unprotected: bool,
}

impl Default for WgslBenchOptions {
    fn default() -> Self {
        WgslBenchOptions {
            backends: vec![WgpuBackend::Vulkan, WgpuBackend::Gl],
            routines: BENCH_ROUTINES.iter().map(|r| r.name.to_string()).collect(),
            pairs: 4096,
            lanes: 16384,
            chain: (16, 80),
            luma: Some(crate::web::js_module::repository_root().join("js")),
            unprotected: true,
        }
    }
}

/// One library's routine on one leg.
#[derive(Debug, Clone, Serialize)]
pub struct WgslBenchRow {
    /// "wgpu, Vulkan", ...
    pub leg: String,
    /// The library.
    pub library: String,
    /// The routine.
    pub routine: String,
    /// Worst error in ulp48 over the pairs (infinite: a NaN or infinity from finite input).
    pub worst: f64,
    /// RMS error in ulp48.
    pub rms: f64,
    /// ns per op per lane (None: the timing came out at or below zero, noise).
    pub ns: Option<f64>,
    /// That over the f32 add's on the same leg.
    pub vs_f32_add: Option<f64>,
    /// Whether df64gl's bound is asked of this row (the export), and the bound.
    pub bound: Option<f64>,
    /// Why the row has no figures (the library lost the device, say).
    pub error: Option<String>,
}

/// Every leg's rows, and what could not run.
#[derive(Debug, Clone, Serialize)]
pub struct WgslBenchReport {
    /// Each leg's adapter.
    pub adapters: Vec<(String, String)>,
    /// The rows, leg by leg, routine by routine.
    pub rows: Vec<WgslBenchRow>,
    /// Libraries left out, and why.
    pub notes: Vec<String>,
    /// Pairs per routine, lanes, chain lengths.
    pub method: String,
}

/// df64gl's documented bound for a routine here, in ulp48, as the catalog states it (0.5 for
/// the arithmetic and sqrt, 1 for division and the functions); `None` for a name the catalog
/// does not hold.
pub fn df64gl_bound(routine: &str) -> Option<f64> {
    Df64Op::from_name(routine).and_then(|op| op.bound().max_ulp48())
}

/// Operand pairs for a routine: df64 values with full low words, seeded by its name.
fn operands(r: &BenchRoutine, pairs: usize) -> Vec<(Df64, Df64)> {
    let seed = r.name.bytes().fold(2007u64, |s, b| s * 31 + b as u64);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut draw = |(lo, hi): (f64, f64)| {
        // Full low word: a 53-bit f64 split into two f32 words (48 bits and more).
        let x: f64 = rng.gen_range(lo..hi);
        let hi_w = x as f32;
        let lo_w = (x - hi_w as f64) as f32;
        Df64 { hi: hi_w, lo: lo_w }
    };
    (0..pairs)
        .map(|_| {
            let a = draw(r.a);
            let b = r.b.map(&mut draw).unwrap_or(Df64 { hi: 0.0, lo: 0.0 });
            (a, b)
        })
        .collect()
}

/// A routine's operand pairs and the exact value of the routine at each.
type Operands = (Vec<(Df64, Df64)>, Vec<BigFloat>);

/// The correctly rounded value of a routine at df64 operands.
fn exact(oracle: &mut Oracle, routine: &str, a: Df64, b: Df64) -> BigFloat {
    let rm = RoundingMode::ToEven;
    let (x, y) = (big_df64(a), big_df64(b));
    match routine {
        "add" => x.add(&y, ORACLE_BITS, rm),
        "sub" => x.sub(&y, ORACLE_BITS, rm),
        "mul" => x.mul(&y, ORACLE_BITS, rm),
        "div" => x.div(&y, ORACLE_BITS, rm),
        "sqrt" => x.sqrt(ORACLE_BITS, rm),
        "exp" => oracle.exp(&x),
        "log" => oracle.ln(&x),
        "sin" => oracle.sin(&x),
        _ => oracle.cos(&x),
    }
}

/// The libraries of a run: df64gl (and unprotected), luma.gl's variants where it can be read,
/// f32; with notes for any left out.
pub fn bench_libraries(
    options: &WgslBenchOptions,
) -> Result<(Vec<WgslLibrary>, Vec<String>), ExperimentError> {
    let functions = options
        .routines
        .iter()
        .any(|r| matches!(r.as_str(), "exp" | "log" | "sin" | "cos"));
    let mut libs = vec![
        df64gl_library(true, functions)?,
        df64gl_fast_library(functions)?,
    ];
    let mut notes = Vec::new();
    if options.unprotected {
        libs.push(df64gl_library(false, functions)?);
    }
    if let Some(js) = &options.luma {
        for (name, defines) in LUMA_VARIANTS {
            match luma_library(js, name, defines) {
                Ok(lib) => libs.push(lib),
                Err(e) => {
                    notes.push(format!("{name} left out: {e}"));
                    break;
                }
            }
        }
    }
    libs.push(f32_library());
    Ok((libs, notes))
}

/// Runs the comparison on every leg of `options`; `progress` hears (rows done, rows in all,
/// the next row's label).
pub fn run_wgsl_bench(
    options: &WgslBenchOptions,
    progress: &mut dyn FnMut(usize, usize, &str),
) -> Result<WgslBenchReport, ExperimentError> {
    let routines: Vec<&BenchRoutine> = options
        .routines
        .iter()
        .map(|n| {
            BENCH_ROUTINES.iter().find(|r| r.name == n).ok_or_else(|| {
                ExperimentError::Invalid(format!(
                    "unknown routine {n}: choose from {}",
                    BENCH_ROUTINES.map(|r| r.name).join(", ")
                ))
            })
        })
        .collect::<Result<_, _>>()?;
    if options.pairs == 0 || options.lanes == 0 || options.chain.1 <= options.chain.0 {
        return Err(ExperimentError::Invalid(
            "give at least one pair and one lane, and a second chain length above the first".into(),
        ));
    }
    let (libs, mut notes) = bench_libraries(options)?;
    let per_leg: usize = routines
        .iter()
        .map(|r| libs.iter().filter(|l| l.calls.contains_key(r.name)).count())
        .sum();
    let total = per_leg * options.backends.len();
    // Each routine's operands and their exact values, once for every library and leg.
    let mut oracle = Oracle::new();
    let inputs: Vec<Operands> = routines
        .iter()
        .map(|r| {
            let pairs = operands(r, options.pairs);
            let exact = pairs
                .iter()
                .map(|(a, b)| exact(&mut oracle, r.name, *a, *b))
                .collect();
            (pairs, exact)
        })
        .collect();
    let mut rows = Vec::new();
    let mut adapters = Vec::new();
    let capacity = options.lanes.max(options.pairs as u32);
    for &backend in &options.backends {
        let (info, device, queue) = wgpu_device(backend)?;
        adapters.push((
            backend.name().to_string(),
            format!("{} ({} {})", info.name, info.driver, info.driver_info),
        ));
        let rig = |lib: &WgslLibrary, r: &BenchRoutine, call: &str| {
            Rig::new(&device, &queue, lib, call, r.arg, capacity).map_err(device_error)
        };
        // The f32 add first: every row's ratio is to its cost in this run.
        let f32_lib = f32_library();
        let add = &BENCH_ROUTINES[0];
        let f32_add = match f32_lib.calls.get(add.name) {
            Some(call) => rig(&f32_lib, add, call)?
                .cost(options.lanes, options.chain, add.c)
                .map_err(device_error)?,
            None => None,
        };
        if f32_add.is_none() {
            notes.push(format!(
                "{}: the f32 add's timing was noise (at or below zero): no ratios",
                backend.name()
            ));
        }
        for (r, (pairs, exact)) in routines.iter().zip(&inputs) {
            for lib in &libs {
                let Some(call) = lib.calls.get(r.name) else {
                    continue;
                };
                progress(
                    rows.len(),
                    total,
                    &format!("{}: {} {}", backend.name(), lib.name, r.name),
                );
                let rig = rig(lib, r, call)?;
                let (worst, rms) = rig.accuracy(pairs, exact).map_err(device_error)?;
                let ns = rig
                    .cost(options.lanes, options.chain, r.c)
                    .map_err(device_error)?;
                rows.push(WgslBenchRow {
                    leg: backend.name().to_string(),
                    library: lib.name.clone(),
                    routine: r.name.to_string(),
                    worst,
                    rms,
                    ns,
                    vs_f32_add: ns.zip(f32_add).map(|(a, b)| a / b),
                    bound: if lib.judged {
                        df64gl_bound(&format!("{}{}", r.name, lib.tier_suffix))
                    } else {
                        None
                    },
                    error: None,
                });
            }
        }
    }
    Ok(WgslBenchReport {
        adapters,
        rows,
        notes,
        method: format!(
            "{} operand pairs per routine against astro-float; cost: {} lanes, chains of {} and \
             {} dependent ops, the difference, best of 3",
            options.pairs, options.lanes, options.chain.0, options.chain.1
        ),
    })
}

impl WgslBenchReport {
    /// One table per leg: routine, library, worst and RMS ulp48, ns per op, ratio.
    pub fn table(&self) -> String {
        let mut out = Vec::new();
        for (leg, adapter) in &self.adapters {
            let mut t = ReportTable::new(
                "wgsl-bench",
                format!("{leg} on {adapter}"),
                &[
                    "routine",
                    "library",
                    "worst ulp48",
                    "rms ulp48",
                    "ns/op/lane",
                    "x f32 add",
                ],
            );
            for r in self.rows.iter().filter(|r| &r.leg == leg) {
                if let Some(e) = &r.error {
                    t.rows.push(vec![
                        text(r.routine.clone()),
                        text(r.library.clone()),
                        text(format!("failed: {e}")),
                        text("-"),
                        text("-"),
                        text("-"),
                    ]);
                    continue;
                }
                let over = r.bound.is_some_and(|b| r.worst > b);
                t.rows.push(vec![
                    text(r.routine.clone()),
                    text(r.library.clone()),
                    if over {
                        text(format!("{} (over {})", r.worst, r.bound.unwrap_or(0.0)))
                    } else {
                        num(r.worst)
                    },
                    num(r.rms),
                    r.ns.map(num).unwrap_or_else(|| text("noise")),
                    r.vs_f32_add.map(num).unwrap_or_else(|| text("-")),
                ]);
            }
            out.push(t.text());
        }
        let mut s = out.join("\n");
        s.push_str(&format!("\n{}\n", self.method));
        for n in &self.notes {
            s.push_str(&format!("note: {n}\n"));
        }
        s
    }
}
