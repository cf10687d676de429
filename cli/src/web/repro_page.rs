//! `repro.html`, the third page `df64gl web` writes: the papers' experiments on the visitor's
//! own GPU through WebGL 2 (`assets/web/repro.js`): Thall's Table I (the f32 probe), Table II
//! (df64 arithmetic against exact rationals in BigInt, the functions against the oracle's
//! answers carried in the page), Da Graca and Defour's Table 5, and the FFT (Thall's round-trip
//! study and every precision's error and time), each table beside the published values of
//! `assets/`, as JSON in the schema of `df64gl repro --json` (a download button, and a POST to
//! `?report=URL`). One self-contained file: the npm module travels as `data:` URLs behind an
//! import map, so the page works from file:// as well as from a server.

use std::collections::HashMap;
use std::path::Path;

use base64::Engine;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use super::browser::{run_url, BrowserBackend};
use super::js_module::module_files_for_import_map;
use super::serve::{StaticServer, DONE_PATH, REPORT_PATH, WAIT_PATH};
use crate::error::ExperimentError;
use crate::support::operands::random_df64;
use df64gl::kernels::Df64Op;
use df64gl::numeric::df64::Df64;
use df64gl::numeric::oracle::{big, big_df64, to_f64, Oracle, ORACLE_BITS};

/// The file name of the repro page in `df64gl web`'s folder.
pub const REPRO_PAGE: &str = "repro.html";
/// The page's script.
const REPRO_SCRIPT: &str = include_str!("../../../assets/web/repro.js");
/// The seed of the functions' fixed inputs (the page's own random inputs take `?seed=`).
const ORACLE_SEED: u64 = 2007;
/// Inputs per function carried in the page.
const ORACLE_CASES: usize = 2048;

/// One function's fixed inputs and the oracle's answers, as the page reads them.
#[derive(Serialize)]
struct OracleSet {
    /// The row's name (as the native report's functions table).
    op: &'static str,
    /// The GLSL routine.
    glsl: &'static str,
    /// The range, as printed.
    range: &'static str,
    /// Its name in Thall's Table II.
    paper: &'static str,
    /// The inputs: df64 words (hi, lo) as f32, base64.
    a: String,
    /// The oracle's values as double-double (hi, lo) f64 pairs, base64.
    want: String,
}

#[derive(Serialize)]
struct Published {
    thall_table1: serde_json::Value,
    thall_table2: serde_json::Value,
    dagraca_table5: serde_json::Value,
    thall_fft: serde_json::Value,
}

#[derive(Serialize)]
struct ReproData {
    version: &'static str,
    seed: u64,
    paper: Published,
    oracle: Vec<OracleSet>,
}

fn asset(name: &str, text: &str) -> Result<serde_json::Value, ExperimentError> {
    serde_json::from_str(text).map_err(|e| ExperimentError::PaperData {
        file: format!("assets/{name}"),
        detail: e.to_string(),
    })
}

/// A function row: the op, its name, its GLSL routine, the range as printed and its bounds.
type FunctionRow = (Df64Op, &'static str, &'static str, &'static str, (f64, f64));

/// Thall's function rows: exp, ln1p, sin and cos on his ranges, each input a random df64, each
/// answer the oracle's value rounded to double-double (106 bits: the page's error is taken to
/// 2^-100 relative, far below an ulp48).
fn oracle_sets() -> Result<Vec<OracleSet>, ExperimentError> {
    let b64 = base64::engine::general_purpose::STANDARD;
    let half_pi = std::f64::consts::FRAC_PI_2;
    let rows: [FunctionRow; 4] = [
        (Df64Op::Exp, "exp", "df64_exp", "[-1, 1]", (-1.0, 1.0)),
        (Df64Op::Log1p, "log1p", "df64_log1p", "[1, 2]", (1.0, 2.0)),
        (
            Df64Op::Sin,
            "sin",
            "df64_sin",
            "[-pi/2, pi/2]",
            (-half_pi, half_pi),
        ),
        (
            Df64Op::Cos,
            "cos",
            "df64_cos",
            "[-pi/2, pi/2]",
            (-half_pi, half_pi),
        ),
    ];
    let mut oracle = Oracle::new();
    let mut sets = Vec::new();
    for (k, (op, name, glsl, range, (lo, hi))) in rows.into_iter().enumerate() {
        let mut rng = ChaCha8Rng::seed_from_u64(ORACLE_SEED ^ ((k as u64 + 1) << 40));
        let mut words = Vec::with_capacity(2 * ORACLE_CASES);
        let mut want = Vec::with_capacity(2 * ORACLE_CASES);
        for _ in 0..ORACLE_CASES {
            let a: Df64 = random_df64(&mut rng, lo, hi);
            let exact = op
                .oracle(&mut oracle, &big_df64(a), &big(0.0))
                .ok_or_else(|| {
                    ExperimentError::Invalid(format!("{name} has no oracle in the catalog"))
                })?;
            let h = to_f64(&exact);
            let rest = exact.sub(&big(h), ORACLE_BITS, astro_float::RoundingMode::ToEven);
            words.extend([a.hi, a.lo]);
            want.extend([h, to_f64(&rest)]);
        }
        sets.push(OracleSet {
            op: name,
            glsl,
            range,
            paper: if name == "log1p" { "ln1p" } else { name },
            a: b64.encode(bytemuck::cast_slice::<f32, u8>(&words)),
            want: b64.encode(bytemuck::cast_slice::<f64, u8>(&want)),
        });
    }
    Ok(sets)
}

/// The page's HTML.
pub fn repro_page() -> Result<String, ExperimentError> {
    let data = ReproData {
        version: env!("CARGO_PKG_VERSION"),
        seed: ORACLE_SEED,
        paper: Published {
            thall_table1: asset(
                "thall-table1.json",
                include_str!("../../../assets/thall-table1.json"),
            )?,
            thall_table2: asset(
                "thall-table2.json",
                include_str!("../../../assets/thall-table2.json"),
            )?,
            dagraca_table5: asset(
                "dagraca-table5.json",
                include_str!("../../../assets/dagraca-table5.json"),
            )?,
            thall_fft: asset(
                "thall-fft.json",
                include_str!("../../../assets/thall-fft.json"),
            )?,
        },
        oracle: oracle_sets()?,
    };
    let json = serde_json::to_string(&data)
        .map_err(|e| ExperimentError::Invalid(format!("repro page data: {e}")))?
        // Nothing inside the script element may close it.
        .replace('<', "\\u003c");
    let b64 = base64::engine::general_purpose::STANDARD;
    let imports: serde_json::Map<String, serde_json::Value> = module_files_for_import_map()?
        .into_iter()
        .map(|(name, text)| {
            (
                format!("df64gl/{name}"),
                serde_json::Value::String(format!(
                    "data:text/javascript;base64,{}",
                    b64.encode(text)
                )),
            )
        })
        .collect();
    let map = serde_json::json!({ "imports": imports }).to_string();
    if REPRO_SCRIPT.contains("</script") {
        return Err(ExperimentError::Invalid(
            "assets/web/repro.js contains </script, which would end the page's script".into(),
        ));
    }
    Ok(format!(
        r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>df64gl: the papers' experiments on this GPU</title>
<style>
body {{ font: 14px/1.45 system-ui, sans-serif; margin: 1.5em auto; max-width: 72em; padding: 0 1em; color: #222; }}
table {{ border-collapse: collapse; margin: 0.5em 0 1.5em; font-variant-numeric: tabular-nums; }}
th, td {{ border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: right; }}
th:first-child, td:first-child {{ text-align: left; }}
p.note {{ color: #555; margin: 0.2em 0; font-size: 13px; }}
#status {{ font-weight: 600; }}
</style>
<script type="importmap">{map}</script>
</head>
<body>
<h1>The papers' experiments on this GPU</h1>
<p>Thall's Tables I and II (<i>Extended-Precision Floating-Point Numbers for GPU Computation</i>,
2007), Da Graca and Defour's Table 5 (2006) and Thall's FFT study, run here through WebGL 2 by
df64gl {version} and set beside the published values. The df64 routines are proven on this
context first (<code>check</code>); the arithmetic is judged against exact rationals computed in
this page, the functions against a correctly rounded oracle's answers carried in it. Download
the tables as JSON (the schema of <code>df64gl repro --json</code>) to compare them with other
GPUs; <code>?quick=1</code> runs smaller sizes, <code>?report=URL</code> POSTs the JSON to URL.</p>
<p id="status">starting ...</p>
<p><button id="download" disabled>Download the tables as JSON</button></p>
<pre id="result" hidden></pre>
<div id="tables"></div>
<script type="application/json" id="df64gl-repro-data">{json}</script>
<script type="module">
{script}
</script>
</body>
</html>
"#,
        version = env!("CARGO_PKG_VERSION"),
        script = REPRO_SCRIPT,
    ))
}

/// Writes `dir/repro.html`.
pub fn write_repro_page(dir: &Path) -> Result<std::path::PathBuf, ExperimentError> {
    let path = dir.join(REPRO_PAGE);
    std::fs::write(&path, repro_page()?)
        .map_err(|e| ExperimentError::Io(path.display().to_string(), e))?;
    Ok(path)
}

/// Runs the repro page with `query` (`quick=1`, `seed=N`) in headless Chromium on `backend`,
/// served from 127.0.0.1, and returns the report it POSTed (`?report=`), as JSON. The server
/// holds the page's load event (and so Chromium's DOM dump) until the page is done.
pub fn run_repro_page(
    chromium: &Path,
    backend: BrowserBackend,
    query: &str,
) -> Result<serde_json::Value, ExperimentError> {
    let html = repro_page()?;
    let hook = format!(
        "<img src=\"{WAIT_PATH}\" alt=\"\" hidden>\n<script>window.addEventListener('df64gl-ready', \
         function () {{ fetch('{DONE_PATH}', {{ method: 'POST' }}); }});</script>\n</body>"
    );
    let held = html.replacen("</body>", &hook, 1);
    let served = format!("/{REPRO_PAGE}");
    let memory = HashMap::from([(served.clone(), held.into_bytes())]);
    // The page needs nothing beside itself: the server's folder is an empty one of its own.
    let root = std::env::temp_dir().join(format!("df64gl-repro-page-{}", std::process::id()));
    std::fs::create_dir_all(&root)
        .map_err(|e| ExperimentError::Io(root.display().to_string(), e))?;
    let server = StaticServer::start(&root, memory)?;
    let sep = if query.is_empty() { "" } else { "&" };
    let url = server.url(&format!("{served}?{query}{sep}report={REPORT_PATH}"));
    let dom = run_url(chromium, backend, &url, &[]);
    let _ = std::fs::remove_dir(&root);
    let dom = dom?;
    let body = server.report().ok_or_else(|| {
        let tail: String = dom
            .chars()
            .rev()
            .take(600)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        ExperimentError::Invalid(format!(
            "the repro page sent no report on {backend:?}; the end of its page: {tail}"
        ))
    })?;
    serde_json::from_slice(&body)
        .map_err(|e| ExperimentError::Invalid(format!("the repro page's report is not JSON: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decoded<T: bytemuck::Pod>(b64: &str) -> Vec<T> {
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(b64)
            .unwrap();
        bytemuck::pod_collect_to_vec(&bytes)
    }

    #[test]
    fn the_page_carries_the_module_and_the_oracles_answers() {
        let html = repro_page().unwrap();
        for (name, _) in crate::web::js_module::module_files().unwrap() {
            assert!(
                html.contains(&format!("\"df64gl/{name}\":\"data:text/javascript;base64,")),
                "{name} is not in the import map"
            );
        }
        assert!(html.contains("from 'df64gl/src/index.js'"));
        // One script element each, none closed early by the data.
        assert_eq!(html.matches("</script>").count(), 3);
        // The answers against f64's own functions (within 2^-50 relative: the oracle's
        // double-double is far better, f64's libm within an ulp of 2^-52).
        let sets = oracle_sets().unwrap();
        assert_eq!(sets.len(), 4);
        for set in &sets {
            let a: Vec<f32> = decoded(&set.a);
            let want: Vec<f64> = decoded(&set.want);
            assert_eq!(a.len(), 2 * ORACLE_CASES);
            assert_eq!(want.len(), 2 * ORACLE_CASES);
            for i in 0..ORACLE_CASES {
                // The df64 input is hi + lo; x is that rounded to f64 and dx the rest, which
                // the first-order term carries (dx is below 2^-53 |x|).
                let x = a[2 * i] as f64 + a[2 * i + 1] as f64;
                let dx = (a[2 * i] as f64 - x) + a[2 * i + 1] as f64;
                let (f, slope) = match set.op {
                    "exp" => (x.exp(), x.exp()),
                    "log1p" => (x.ln_1p(), 1.0 / (1.0 + x)),
                    "sin" => (x.sin(), x.cos()),
                    _ => (x.cos(), -x.sin()),
                };
                let f = f + slope * dx;
                let (hi, lo) = (want[2 * i], want[2 * i + 1]);
                assert!(
                    (hi - f).abs() <= f.abs() * 2f64.powi(-50),
                    "{}({x}) = {f}, carried {hi} (case {i})",
                    set.op
                );
                assert!(
                    lo.abs() <= hi.abs() * 2f64.powi(-53),
                    "{} {hi} {lo}",
                    set.op
                );
            }
        }
    }
}
