//! `df64gl selftest`: every program's known-answer self-test here (the programs in `selftest_programs.rs`).

use crate::commands::selftest_programs::run_selftests;
use crate::error::{exit_code, ExperimentError, Session};
use std::process::ExitCode;

use super::args::*;
use super::{print_report, Global};

/// `df64gl selftest`.
pub(crate) fn selftest(global: &Global, args: SelftestArgs) -> Result<ExitCode, ExperimentError> {
    let SelftestArgs {
        fresh,
        reprobe,
        only,
    } = args;
    let session = Session::open(&global.device, reprobe)?;
    let report = run_selftests(&session, fresh, &only)?;
    print_report(global.json, &report, |r| r.table())?;
    Ok(if report.refused.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(exit_code::REFUSED)
    })
}
