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
