//! The browser and web tooling: the static HTTP server pages are served from (`serve.rs`), the
//! headless Chromium driver (`browser.rs`), the npm module's generator and its page runner
//! (`js_module.rs`), and the `df64gl web` pages (`pages.rs`).

pub mod browser;
pub mod js_module;
pub mod pages;
pub mod serve;
