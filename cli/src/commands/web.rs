//! `df64gl web`: the WebGL 2 and WebGPU pages, and the repro page.

use crate::error::ExperimentError;
use crate::web::pages::{write_web_page, WEBGPU_PAGE};
use crate::web::repro_page::REPRO_PAGE;
use std::process::ExitCode;

use super::args::*;
use super::{print_json, Global};

/// `df64gl web`.
pub(crate) fn web(global: &Global, args: WebArgs) -> Result<ExitCode, ExperimentError> {
    let WebArgs { out, force } = args;
    let page = write_web_page(&out, force)?;
    let webgpu = page.with_file_name(WEBGPU_PAGE);
    let repro = page.with_file_name(REPRO_PAGE);
    if global.json {
        print_json(&serde_json::json!({
            "page": page,
            "webgpu_page": webgpu,
            "repro_page": repro,
        }))?;
    } else {
        println!(
            "wrote {} (WebGL 2) and {} (WebGPU); open one in a browser: its self-test verdict \
             is the element #df64-selftest (WebGPU needs a secure context: a file, localhost or \
             https); and {} (the papers' tables on the browser's GPU, as JSON in the schema of \
             `df64gl repro --json`)",
            page.display(),
            webgpu.display(),
            repro.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}
