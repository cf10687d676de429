//! `df64gl wgsl`: the WGSL export and its check on wgpu's legs.

use crate::error::ExperimentError;
use crate::experiments::wgsl_legs::wgsl_leg;
use df64gl::probe::wgsl::{wgsl_export, WgslOptions};
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
        let failed: Vec<&str> = legs
            .iter()
            .filter(|l| !l.protected.pass)
            .map(|l| l.leg.as_str())
            .collect();
        if !failed.is_empty() {
            eprintln!(
                "df64gl: the WGSL export misses a bound on {}",
                failed.join(", ")
            );
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
