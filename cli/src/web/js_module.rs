//! The npm module (`js/`) as pages load it: its files for an import map, the whole module as
//! one inline script, and a page of the repository's run in headless Chromium. The generated
//! half is the committed `js/generated.js` (a test keeps it equal to `df64gl js`'s output).

use std::path::{Path, PathBuf};

use crate::error::ExperimentError;

/// The generated half of the module (`df64gl js`) as committed.
const GENERATED_JS: &str = include_str!("../../../js/generated.js");
/// The module's code (`js/index.js`) as committed.
const INDEX_JS: &str = include_str!("../../../js/index.js");
/// The WebGL state helpers and the options checks it imports, and the lines that import them
/// and re-export the FFT.
const GL_STATE_JS: &str = include_str!("../../../js/gl-state.js");
const GL_STATE_IMPORT: &str = "import { saveState, neutralState, restoreState, takeErrors, putBackErrors, outOfMemory } from './gl-state.js';\n";
const OPTIONS_JS: &str = include_str!("../../../js/options.js");
const OPTIONS_IMPORT: &str = "import { optionsOf, describe } from './options.js';\n";
const DEVICE_JS: &str = include_str!("../../../js/webgpu-device.js");
const DEVICE_IMPORT: &str = "import { deviceLost, lostMessage } from './webgpu-device.js';\n";
/// The judge of the known answers, and the line that imports it.
const JUDGE_JS: &str = include_str!("../../../js/judge.js");
const JUDGE_IMPORT: &str =
    "import { decodeKnownAnswers, judgeRoutines, judgeVecRoutines } from './judge.js';\n";
const FFT_REEXPORT: &str = "export { createFft } from './fft.js';\n";
const FFT_WEBGPU_REEXPORT: &str = "export { createFftWebGPU } from './fft-webgpu.js';\n";
/// The browser FFT's files, as committed.
const FFT_JS: [(&str, &str); 6] = [
    ("fft.js", include_str!("../../../js/fft.js")),
    ("fft-words.js", include_str!("../../../js/fft-words.js")),
    (
        "fft-bluestein.js",
        include_str!("../../../js/fft-bluestein.js"),
    ),
    ("fft-real.js", include_str!("../../../js/fft-real.js")),
    ("fft-webgpu.js", include_str!("../../../js/fft-webgpu.js")),
    (
        "fft-webgpu-render.js",
        include_str!("../../../js/fft-webgpu-render.js"),
    ),
];

/// Every file of the module a page imports (`index.js` and what it imports, the FFT's files
/// too) as (file name, text), with each `from './x.js'` rewritten to the bare `from
/// 'df64gl/x.js'`, so that an import map can point each name at a `data:` URL: the whole
/// module inside one file:// page, its modules as they are.
pub fn module_files_for_import_map() -> Result<Vec<(&'static str, String)>, ExperimentError> {
    let mut files = vec![
        ("index.js", INDEX_JS.to_string()),
        ("generated.js", GENERATED_JS.to_string()),
        ("gl-state.js", GL_STATE_JS.to_string()),
        ("options.js", OPTIONS_JS.to_string()),
        ("webgpu-device.js", DEVICE_JS.to_string()),
        ("judge.js", JUDGE_JS.to_string()),
    ];
    files.extend(FFT_JS.iter().map(|(n, t)| (*n, t.to_string())));
    for (name, text) in files.iter_mut() {
        *text = text.replace("from './", "from 'df64gl/");
        if text.contains("from '.") || text.contains("import('") {
            return Err(ExperimentError::Invalid(format!(
                "js/{name} imports in a form the page's import map does not rewrite"
            )));
        }
    }
    Ok(files)
}

/// The whole module as one script for a page that cannot import (file://): the generated half,
/// `gl-state.js`, `options.js`, `webgpu-device.js` and `judge.js`, then `index.js` without its imports and its re-exports (the FFT stays out of
/// the page). Top-level `export`s stay: they are legal in an inline module script.
pub fn inline_module() -> Result<String, ExperimentError> {
    let import_start = INDEX_JS.find("import {");
    let import_end = INDEX_JS
        .find("} from './generated.js';\n")
        .map(|at| at + "} from './generated.js';\n".len());
    let reexport = "export { VERSION, DF64_GLSL, QF128_GLSL, DF64_WGSL, DF64_QF128_WGSL };\n";
    let (Some(start), Some(end)) = (import_start, import_end) else {
        return Err(ExperimentError::Invalid(
            "js/index.js no longer imports './generated.js' as `import { ... } from`".into(),
        ));
    };
    if !INDEX_JS.contains(reexport) {
        return Err(ExperimentError::Invalid(format!(
            "js/index.js no longer has the line `{}`",
            reexport.trim()
        )));
    }
    let mut code = format!("{}{}", &INDEX_JS[..start], &INDEX_JS[end..]).replace(reexport, "");
    // gl-state.js, options.js, webgpu-device.js and judge.js inlined (their exports as plain functions);
    // the FFT stays out of the page.
    for line in [
        GL_STATE_IMPORT,
        OPTIONS_IMPORT,
        DEVICE_IMPORT,
        JUDGE_IMPORT,
        FFT_REEXPORT,
        FFT_WEBGPU_REEXPORT,
    ] {
        if !code.contains(line) {
            return Err(ExperimentError::Invalid(format!(
                "js/index.js no longer has the line `{}`",
                line.trim()
            )));
        }
        code = code.replace(line, "");
    }
    let state = GL_STATE_JS.replace("\nexport function ", "\nfunction ");
    let helpers = [OPTIONS_JS, DEVICE_JS, JUDGE_JS].map(|t| {
        t.replace("\nexport function ", "\nfunction ")
            .replace("\nexport async function ", "\nasync function ")
    });
    Ok(format!(
        "{GENERATED_JS}\n{state}\n{}\n{code}",
        helpers.join("\n")
    ))
}

/// The repository's root (where `js/` and the test pages are), from this package's folder.
pub fn repository_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."))
}

/// Loads `path?query` (a page under the repository's root, which imports `/js/index.js`) in
/// headless Chromium on `backend`, served over http with `memory`'s files beside the tree, and
/// returns the JSON the page put in `#result`. A page that awaits (luma.gl creates its device
/// asynchronously) needs `wait_ms`: Chromium then runs its virtual clock that far before it
/// dumps the page; 0 dumps it after the load event.
pub fn run_module_page(
    chromium: &Path,
    backend: super::browser::BrowserBackend,
    path: &str,
    query: &str,
    memory: std::collections::HashMap<String, Vec<u8>>,
    wait_ms: u64,
) -> Result<serde_json::Value, ExperimentError> {
    let server = super::serve::StaticServer::start(&repository_root(), memory)?;
    let extra: Vec<String> = if wait_ms > 0 {
        vec![format!("--virtual-time-budget={wait_ms}")]
    } else {
        vec![]
    };
    let url = server.url(&format!("{path}{query}"));
    let dom = super::browser::run_url(chromium, backend, &url, &extra)?;
    if let Some(e) = super::browser::element_text(&dom, "error").filter(|e| !e.trim().is_empty()) {
        return Err(ExperimentError::Invalid(format!(
            "the page {path} failed: {e}"
        )));
    }
    let text = super::browser::element_text(&dom, "result")
        .filter(|t| !t.trim().is_empty())
        .ok_or_else(|| {
            // A page that reports its steps in #progress says where it stopped.
            let progress = super::browser::element_text(&dom, "progress")
                .map(|p| {
                    let last: Vec<&str> = p.lines().rev().take(3).collect();
                    format!("; its last steps: {}", last.join(" <- "))
                })
                .unwrap_or_default();
            ExperimentError::Invalid(format!(
                "the page {path} left no result (did its module load? {}){progress}",
                dom.chars().take(400).collect::<String>()
            ))
        })?;
    serde_json::from_str(&text)
        .map_err(|e| ExperimentError::Invalid(format!("the page {path}'s result: {e}")))
}
