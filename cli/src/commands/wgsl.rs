//! `df64gl wgsl`: the WGSL export and its check on wgpu's legs.

use crate::error::ExperimentError;
use crate::experiments::wgsl::wgsl_leg;
use df64gl::export::wgsl::{wgsl_export, WgslOptions};
use std::process::ExitCode;

use super::args::*;
use super::glsl::write_or_print;
use super::{print_report, Global};

/// `df64gl wgsl`.
pub(crate) fn wgsl(global: &Global, args: WgslArgs) -> Result<ExitCode, ExperimentError> {
    let WgslArgs {
        qf128,
        no_functions,
        group,
        binding,
        zero,
        unprotected,
        check,
        routines,
        output,
    } = args;
    if !check.is_empty() {
        let names: Vec<&str> = routines.iter().map(String::as_str).collect();
        let only = (!names.is_empty()).then_some(names.as_slice());
        let mut legs = Vec::new();
        for backend in check {
            legs.push(wgsl_leg(backend, qf128, only, None)?);
        }
        print_report(global.json, &legs, |legs| {
            legs.iter()
                .map(|l| l.table())
                .collect::<Vec<_>>()
                .join("\n")
        })?;
        // A leg whose check measured no routine could not run it (a pipeline the back end
        // could not build): that is not a bound missed.
        let failed: Vec<String> = legs
            .iter()
            .filter(|l| !l.protected.pass)
            .map(|l| {
                if l.protected.routines.is_empty() {
                    format!("{} could not run the check: {}", l.leg, l.protected.reason)
                } else {
                    format!("the WGSL export misses a bound on {}", l.leg)
                }
            })
            .collect();
        if !failed.is_empty() {
            eprintln!("df64gl: {}", failed.join("; "));
            return Ok(ExitCode::from(1));
        }
        return Ok(ExitCode::SUCCESS);
    }
    let text = wgsl_export(&WgslOptions {
        functions: !no_functions,
        qf128,
        group,
        binding,
        zero,
        protected: !unprotected,
    })?;
    write_or_print(output, &text)
}
