//! The Chromium leg of `bench wgsl`: `js/bench/wgsl-fp64.html` in headless Chromium's WebGPU
//! (Dawn and Tint on SwiftShader), one page load per routine.

use super::*;

/// The name of the Chromium leg's rows.
pub const CHROMIUM_LEG: &str = "Chromium WebGPU";

/// The libraries of `js/bench/wgsl-fp64.html`, as it names them.
pub const BROWSER_LIBRARIES: [&str; 7] = [
    "df64gl",
    "df64gl fast tier",
    "df64gl, unprotected",
    "luma.gl fp64arithmetic",
    "luma.gl, code-elimination workaround",
    "luma.gl, integer path",
    "f32",
];

/// The same comparison on Chromium's WebGPU (Dawn and Tint on SwiftShader here), from
/// `js/bench/wgsl-fp64.html` served beside the repository's `js/` (which needs its
/// node_modules). The f32 add first (every row's ratio is to it); then per routine one page
/// load for every library but luma.gl's integer path, which the page times in turns (so that
/// a change in the machine's load falls on all of them alike), and one for the integer path
/// alone: a page holds its result for at most [`crate::web::serve::WAIT_LIMIT`], and the
/// integer path takes microseconds an op there. A load that fails is a row with its error for
/// each of its libraries. The rows are added to `report`. Its references are JavaScript
/// doubles (about +-0.05 ulp48 on the functions), and its luma.gl rows come from luma.gl's own
/// preprocessor in the page.
pub fn run_browser_wgsl_bench(
    chromium: &Path,
    routines: &[String],
    report: &mut WgslBenchReport,
) -> Result<(), ExperimentError> {
    let unprotected = wgsl_export(&WgslOptions {
        protected: false,
        ..WgslOptions::default()
    })?;
    let number = |x: &serde_json::Value| match x {
        serde_json::Value::String(s) => s.parse::<f64>().ok(),
        _ => x.as_f64(),
    };
    let load = |routine: &str, libraries: &[&str]| {
        let memory = HashMap::from([(
            "/unprotected.wgsl".to_string(),
            unprotected.clone().into_bytes(),
        )]);
        let libs: String = libraries
            .iter()
            .map(|l| format!("&lib={}", l.replace(' ', "%20").replace(',', "%2C")))
            .collect();
        crate::web::js_module::run_module_page(
            chromium,
            crate::web::browser::BrowserBackend::WebGpu,
            "/js/bench/wgsl-fp64.html",
            &format!("?routines={routine}{libs}&unprotected=/unprotected.wgsl"),
            memory,
            0,
        )
    };
    let baseline = load("add", &["f32"])?;
    let f32_add = baseline["rows"]
        .as_array()
        .and_then(|rows| rows.first())
        .and_then(|row| number(&row["ns"]));
    report.adapters.push((
        CHROMIUM_LEG.to_string(),
        baseline["adapter"]
            .as_str()
            .unwrap_or("unknown adapter")
            .to_string(),
    ));
    let (slow, together): (Vec<&str>, Vec<&str>) = BROWSER_LIBRARIES
        .iter()
        .partition(|l| **l == "luma.gl, integer path");
    for routine in routines {
        for libraries in [&together, &slow] {
            let page = load(routine, libraries);
            for library in libraries.iter() {
                let tier_suffix = match *library {
                    "df64gl" => Some(""),
                    "df64gl fast tier" => Some("_fast"),
                    _ => None,
                };
                let mut row = WgslBenchRow {
                    leg: CHROMIUM_LEG.to_string(),
                    library: library.to_string(),
                    routine: routine.clone(),
                    worst: f64::NAN,
                    rms: f64::NAN,
                    ns: None,
                    vs_f32_add: None,
                    bound: tier_suffix
                        .and_then(|t| df64gl_bound(&format!("{routine}{t}")))
                        .map(|b| b + 0.06),
                    error: None,
                };
                match &page {
                    Ok(v) => match v["rows"]
                        .as_array()
                        .and_then(|rows| rows.iter().find(|r| r["lib"].as_str() == Some(library)))
                    {
                        Some(got) => {
                            row.worst = number(&got["worst"]).unwrap_or(f64::NAN);
                            row.rms = number(&got["rms"]).unwrap_or(f64::NAN);
                            row.ns = number(&got["ns"]);
                            row.vs_f32_add = row.ns.zip(f32_add).map(|(a, b)| a / b);
                            row.error = got["error"].as_str().map(str::to_string);
                        }
                        // luma.gl has no such routine.
                        None => continue,
                    },
                    Err(e) => row.error = Some(e.to_string()),
                }
                report.rows.push(row);
            }
        }
    }
    Ok(())
}
