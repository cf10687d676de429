//! `df64gl accuracy`: Table II and every accuracy table on this driver.

use crate::error::{ExperimentError, Session};
use crate::experiments::accuracy::{run_accuracy, AccuracyOptions};
use std::process::ExitCode;

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
