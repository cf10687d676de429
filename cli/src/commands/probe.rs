//! `df64gl probe`: Thall's Table I on this driver and the configuration it proves.

use crate::error::{exit_code, ExperimentError};
use df64gl::gl::GlContext;
use df64gl::probe::{probe_driver, run_probe, store_cached, DEFAULT_SAMPLES};
use std::process::ExitCode;

use super::args::*;
use super::{print_report, Global};

/// `df64gl probe`.
pub(crate) fn probe(global: &Global, args: ProbeArgs) -> Result<ExitCode, ExperimentError> {
    let ProbeArgs { samples } = args;
    let ctx = GlContext::headless(&global.device)?;
    let report = if samples == DEFAULT_SAMPLES {
        probe_driver(&ctx, true)?
    } else {
        let r = run_probe(&ctx, samples.max(1))?;
        let _ = store_cached(&r);
        r
    };
    print_report(global.json, &report, |r| r.table())?;
    Ok(if report.config.is_some() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(exit_code::REFUSED)
    })
}
