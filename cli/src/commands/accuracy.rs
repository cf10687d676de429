//! `df64gl accuracy`: Table II and every accuracy table on this driver.

use crate::error::{ExperimentError, Session};
use crate::experiments::accuracy::{run_accuracy, AccuracyOptions};
use std::process::ExitCode;

use df64gl::gl::{host_memory_available, human_bytes};

use super::args::*;
use super::{print_report, progress, progress_bar, Global};

/// `df64gl accuracy`.
pub(crate) fn accuracy(global: &Global, args: AccuracyArgs) -> Result<ExitCode, ExperimentError> {
    let AccuracyArgs {
        samples,
        ops,
        warwick_samples,
        no_cost,
        seed,
        reprobe,
        check,
        function_samples,
        class_samples,
        qf128_samples,
        qf128_exponent_samples,
        qf128_class_samples,
        dagraca_samples,
        vector_samples,
        quick,
        exponents,
    } = args;
    let session = Session::open(&global.device, reprobe)?;
    let q = |n: usize, small: usize| if quick { n.min(small) } else { n };
    let mut options = AccuracyOptions {
        samples: q(samples, 1 << 16),
        seed,
        warwick_samples: q(warwick_samples, 1 << 16),
        cost: !no_cost,
        function_samples: q(function_samples, 1 << 16),
        class_samples: q(class_samples, 1 << 8),
        qf128_samples: q(qf128_samples, 1 << 16),
        qf128_exponent_samples: q(qf128_exponent_samples, 1 << 12),
        qf128_class_samples: q(qf128_class_samples, 1 << 8),
        dagraca_samples: q(dagraca_samples, 1 << 20),
        vector_samples: q(vector_samples, 1 << 8),
        exponents,
        ..AccuracyOptions::default()
    };
    if !ops.is_empty() {
        options.ops = ops;
    }
    check_counts(
        &session,
        &[
            ("--samples", options.samples),
            ("--warwick-samples", options.warwick_samples),
            ("--function-samples", options.function_samples),
            ("--class-samples", options.class_samples),
            ("--qf128-samples", options.qf128_samples),
            ("--qf128-exponent-samples", options.qf128_exponent_samples),
            ("--qf128-class-samples", options.qf128_class_samples),
            ("--dagraca-samples", options.dagraca_samples),
            ("--vector-samples", options.vector_samples),
        ],
    )?;
    let bar = progress_bar();
    let report = run_accuracy(&session, &options, &mut progress(&bar))?;
    bar.finish_and_clear();
    print_report(global.json, &report, |r| r.table())?;
    let failures = report.failures();
    if check && !failures.is_empty() {
        for f in failures {
            eprintln!("df64gl: {f}");
        }
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

/// Host bytes a table holds per input at its peak, rounded up from what was measured on
/// llvmpipe (56 a sample for an op row, 43 for Table 5, between 2^20 and 2^22 inputs), for
/// the rows that keep wider references.
const HOST_BYTES_PER_INPUT: u128 = 256;

/// Each count of inputs must fit one texture of the driver (the inputs are evaluated in one)
/// and the host's available memory, checked before anything is allocated.
fn check_counts(session: &Session, counts: &[(&str, usize)]) -> Result<(), ExperimentError> {
    let side = session.ctx.info().max_texture_size as u128;
    let available = host_memory_available();
    for (flag, n) in counts {
        let n = *n as u128;
        if n > side * side {
            return Err(ExperimentError::Invalid(format!(
                "{flag} {n}: more inputs than this driver's {side} x {side} texture holds; use \
                 at most {}",
                side * side
            )));
        }
        let needed = n * HOST_BYTES_PER_INPUT;
        if let Some(free) = available.filter(|free| needed > *free as u128) {
            return Err(ExperimentError::Invalid(format!(
                "{flag} {n} needs about {} of host memory and the host has {} available; use \
                 at most about {}",
                human_bytes(needed),
                human_bytes(free as u128),
                free as u128 / HOST_BYTES_PER_INPUT
            )));
        }
    }
    Ok(())
}
