//! The browser and web tooling: the static HTTP server pages are served from (`serve.rs`), the
//! headless Chromium driver (`browser.rs`), the npm module's generator and its page runner
//! (`js_module.rs`), the `df64gl web` pages (`pages.rs`) and its repro page (`repro_page.rs`).

pub mod browser;
pub mod js_module;
pub mod pages;
pub mod repro_page;
pub mod serve;
