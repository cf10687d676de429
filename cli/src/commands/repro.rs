//! `df64gl repro`: every paper experiment, published values beside this driver's.

use crate::error::{ExperimentError, Session};
use crate::experiments::repro::{check_out_dir, run_repro, ReproOptions};
use std::process::ExitCode;

use super::args::*;
use super::{print_json, progress, progress_bar, Global};

/// `df64gl repro`.
pub(crate) fn repro(global: &Global, args: ReproArgs) -> Result<ExitCode, ExperimentError> {
    let ReproArgs {
        out,
        quick,
        force,
        seed,
    } = args;
    // Refuse an existing folder before minutes of measurement, not after.
    check_out_dir(&out, force)?;
    let session = Session::open(&global.device, false)?;
    let options = ReproOptions {
        out: out.clone(),
        quick,
        force,
        seed,
    };
    let bar = progress_bar();
    let (report, plots) = run_repro(&session, &options, &mut progress(&bar))?;
    bar.finish_and_clear();
    report.write(&out, &plots)?;
    if global.json {
        print_json(&report)?;
    } else {
        println!(
            "{} tables and {} plots in {} ({:.0} s); see {}",
            report.tables.len(),
            plots.len(),
            out.display(),
            report.seconds,
            out.join("REPORT.md").display()
        );
    }
    Ok(ExitCode::SUCCESS)
}
