//! The shared set-up of the root package's tests (`tests/common`: a context, a probe, kernels,
//! running binaries, apt-get), and what only the command line's tests need: Chromium.

#![allow(dead_code)]

#[path = "../../../tests/common/mod.rs"]
mod shared;
pub use shared::*;

/// Chromium for the WebGL 2 tests, installed with apt-get when missing (once per process:
/// tests run in parallel and apt-get takes a lock). Panics with what to do when it cannot be
/// had: these tests run in CI, which is root.
pub fn chromium() -> std::path::PathBuf {
    static FOUND: std::sync::OnceLock<Option<std::path::PathBuf>> = std::sync::OnceLock::new();
    FOUND
        .get_or_init(|| {
            let find = df64gl_cli::experiments::browser::find_chromium;
            find().or_else(|| {
                if apt_install(&["chromium"]) {
                    find()
                } else {
                    None
                }
            })
        })
        .clone()
        .expect(
            "the WebGL 2 tests need Chromium: apt-get install chromium (or set \
             DF64GL_CHROMIUM), or run the tests as root",
        )
}

/// The `js/` package's pinned devDependencies (three, luma.gl), installed with npm when missing (once
/// per process), as the browser tests install Chromium. Panics with what to do when it fails.
pub fn js_dev_dependencies() -> std::path::PathBuf {
    static DONE: std::sync::OnceLock<Result<std::path::PathBuf, String>> =
        std::sync::OnceLock::new();
    DONE.get_or_init(|| {
        let js = df64gl_cli::experiments::js_module::repository_root().join("js");
        let have = |p: &str| js.join("node_modules").join(p).is_file();
        if have("three/build/three.module.js") && have("@luma.gl/engine/dist/index.js") {
            return Ok(js);
        }
        let out = std::process::Command::new("npm")
            .args(["install", "--no-audit", "--no-fund", "--no-save"])
            .current_dir(&js)
            .output()
            .map_err(|e| format!("npm: {e} (install Node.js and npm)"))?;
        if out.status.success() {
            Ok(js)
        } else {
            Err(format!(
                "npm install in js/ failed: {}",
                String::from_utf8_lossy(&out.stderr)
            ))
        }
    })
    .clone()
    .unwrap_or_else(|e| panic!("{e}"))
}
