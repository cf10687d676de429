//! `df64gl web`: the WebGL 2 and WebGPU pages.

use crate::error::ExperimentError;
use crate::web::pages::{write_web_page, WEBGPU_PAGE};
use std::process::ExitCode;

use super::args::*;
use super::{print_json, Global};

/// `df64gl web`.
pub(crate) fn web(global: &Global, args: WebArgs) -> Result<ExitCode, ExperimentError> {
    let WebArgs { out, force } = args;
    let page = write_web_page(&out, force)?;
    let webgpu = page.with_file_name(WEBGPU_PAGE);
    if global.json {
        print_json(&serde_json::json!({ "page": page, "webgpu_page": webgpu }))?;
    } else {
        println!(
            "wrote {} (WebGL 2) and {} (WebGPU); open one in a browser: its self-test verdict \
             is the element #df64-selftest (WebGPU needs a secure context: a file, localhost or \
             https)",
            page.display(),
            webgpu.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}
