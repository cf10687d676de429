//! `df64gl js`: the npm module's generated half and the library's copy of the known answers.

use crate::error::ExperimentError;
use crate::experiments::js::write_js_module;
use std::process::ExitCode;

use super::args::*;
use super::{print_json, Global};

/// `df64gl js`.
pub(crate) fn js(global: &Global, args: JsArgs) -> Result<ExitCode, ExperimentError> {
    let paths = write_js_module(&args.out, &args.assets)?;
    if global.json {
        print_json(&serde_json::json!({ "written": paths }))?;
    } else {
        for p in paths {
            println!("wrote {}", p.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}
