//! `df64gl selftest`: builds every df64 and qf128 program the engine has (element-wise kernels,
//! every FFT pass variant, the real-input and pointwise passes, Mandelbrot) so each runs its
//! known-answer self-test on this driver, and reports the outcome and the cost against the
//! compile time. Programs that passed before (this driver, same source) are not tested again
//! unless `--fresh`.

use serde::Serialize;

use df64gl::fft::TwiddleSource;
use df64gl::fft::{
    FftOptions, FftPlanner, FftPrecision, FftShape, QfWrite, Radix, RealFftPlan, StockhamPlan,
};
use df64gl::kernels::{ComplexOp, Df64Kernels, Df64Op, KernelError, Qf128Op};
use df64gl::numeric::df64::{ComplexDf64, Df64};
use df64gl::numeric::qf128::Qf128;
use df64gl::probe::selftest::{set_fresh, set_measure_rerun, take_records, SelfTestRecord};
use df64gl::probe::ProbeReport;

use crate::error::{ExperimentError, Session};
use crate::experiments::mandelbrot::{MandelPrecision, MandelRenderer};

/// One program's line of the report.
#[derive(Debug, Clone, Serialize)]
pub struct SelfTestRow {
    /// The program.
    pub program: String,
    /// The protection it was built with.
    pub protection: String,
    /// Cases its self-test ran.
    pub cases: usize,
    /// Compile and link time, ms.
    pub compile_ms: f64,
    /// Self-test time, ms (with the first draw's deferred compile on Mesa).
    pub test_ms: f64,
    /// The test run again at once: its cost without the first draw's deferred compile.
    pub rerun_ms: Option<f64>,
    /// It passed earlier (this process or the record on disk), so it did not run now.
    pub cached: bool,
    /// It passed.
    pub passed: bool,
}

impl From<SelfTestRecord> for SelfTestRow {
    fn from(r: SelfTestRecord) -> Self {
        SelfTestRow {
            program: r.program,
            protection: r.protection.to_string(),
            cases: r.cases,
            compile_ms: r.compile.as_secs_f64() * 1e3,
            test_ms: r.test.as_secs_f64() * 1e3,
            rerun_ms: r.rerun.map(|d| d.as_secs_f64() * 1e3),
            cached: r.cached,
            passed: r.passed,
        }
    }
}

/// `df64gl selftest`: every program and what its self-test cost.
#[derive(Debug, Clone, Serialize)]
pub struct SelfTestReport {
    /// The driver.
    pub driver: String,
    /// The configuration the probe chose.
    pub configuration: String,
    /// One row per program build.
    pub rows: Vec<SelfTestRow>,
    /// Programs refused (no proven configuration passed), with the error.
    pub refused: Vec<String>,
}

impl SelfTestReport {
    /// Builds, and the sums of compile, first-test and rerun times, of the rows that ran
    /// (`cached` false) or passed before.
    fn totals(&self, cached: bool) -> (usize, f64, f64, f64) {
        let rows = self.rows.iter().filter(|r| r.cached == cached);
        rows.fold((0, 0.0, 0.0, 0.0), |(n, c, t, r), row| {
            (
                n + 1,
                c + row.compile_ms,
                t + row.test_ms,
                r + row.rerun_ms.unwrap_or(0.0),
            )
        })
    }

    /// The report as aligned text for a terminal.
    pub fn table(&self) -> String {
        let mut s = format!(
            "Program self-tests on {}\nConfiguration: {}\n\n{:<84} {:<14} {:>6} {:>10} {:>9} {:>9}  result\n",
            self.driver,
            self.configuration,
            "program",
            "built with",
            "cases",
            "link ms",
            "test ms",
            "again ms"
        );
        for r in &self.rows {
            s.push_str(&format!(
                "{:<84} {:<14} {:>6} {:>10.1} {:>9.1} {:>9}  {}\n",
                r.program,
                r.protection,
                r.cases,
                r.compile_ms,
                r.test_ms,
                r.rerun_ms.map_or("-".into(), |v| format!("{v:.1}")),
                if r.cached {
                    "passed before (not run)"
                } else if r.passed {
                    "passed"
                } else {
                    "FAILED"
                }
            ));
        }
        let (n, c, t, r) = self.totals(false);
        if n > 0 {
            // The first test includes the driver's deferred compile at the first draw (Mesa's
            // software drivers compile then), which any first use pays: the program's build
            // is link + (first test - rerun), the self-test's own cost the rerun.
            let build = c + (t - r).max(0.0);
            s.push_str(&format!(
                "\ntested now: {n} program builds; link {c:.0} ms, first test {t:.0} ms, test run \
                 again {r:.0} ms: the self-tests cost {:.1}% of building the programs (link plus \
                 the first draw's deferred compile, {build:.0} ms)",
                100.0 * r / build.max(1e-9)
            ));
        }
        let (n, c, _, _) = self.totals(true);
        if n > 0 {
            s.push_str(&format!(
                "\npassed before: {n} program builds, link {c:.0} ms, self-tests not run (0 ms)"
            ));
        }
        s.push('\n');
        for r in &self.refused {
            s.push_str(&format!("\nREFUSED: {r}\n"));
        }
        s
    }
}

/// Every FFT configuration a user can pick, as the planner judges them on this driver
/// (native double where shaders have `double`, and with the twiddle table only).
fn fft_variants(planner: &FftPlanner) -> Vec<FftOptions> {
    let mut v = Vec::new();
    let shape = FftShape::Rows { n: 32, batch: 1 };
    let precisions = [
        FftPrecision::F32,
        FftPrecision::Df64,
        FftPrecision::Qf128,
        FftPrecision::F64,
    ];
    for precision in precisions {
        for radix in [Radix::Two, Radix::Four] {
            for twiddles in [TwiddleSource::Table, TwiddleSource::Direct] {
                // The write only differs for qf128: one variant for the others.
                let writes: &[QfWrite] = if precision == FftPrecision::Qf128 {
                    &[QfWrite::Mrt, QfWrite::TwoPass]
                } else {
                    &[QfWrite::Mrt]
                };
                for w in writes {
                    let options = FftOptions::new(precision)
                        .radix(radix)
                        .twiddles(twiddles)
                        .qf_write(*w);
                    // df64 and qf128 refusals of the probe are kept and reported by the caller.
                    if planner.judge(shape, options).is_ok() {
                        v.push(options);
                    }
                }
            }
        }
    }
    v
}

fn keep_refusal<T>(
    refused: &mut Vec<String>,
    r: Result<T, impl Into<ExperimentError>>,
) -> Result<(), ExperimentError> {
    match r.map_err(Into::into) {
        Ok(_) => Ok(()),
        Err(ExperimentError::Kernel(KernelError::Refused(m))) => {
            refused.push(m);
            Ok(())
        }
        Err(ExperimentError::Fft(df64gl::fft::FftError::Kernel(KernelError::Refused(m)))) => {
            refused.push(m);
            Ok(())
        }
        Err(e) => Err(e),
    }
}

/// The families of programs `df64gl selftest` builds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ProgramFamily {
    /// The element-wise df64, complex df64 and qf128 kernels.
    Elementwise,
    /// Every FFT pass variant (precision, radix, twiddles, qf128 write), real-input and
    /// pointwise passes.
    Fft,
    /// The df64 and qf128 Mandelbrot programs.
    Mandelbrot,
    /// The df64 programs of Warwick's Leibniz test (`repro`).
    Leibniz,
}

/// Builds (and so self-tests) every program of `families` (all when empty); `fresh` ignores
/// what passed before.
pub fn run_selftests(
    session: &Session,
    fresh: bool,
    families: &[ProgramFamily],
) -> Result<SelfTestReport, ExperimentError> {
    let want = |f: ProgramFamily| families.is_empty() || families.contains(&f);
    set_fresh(fresh);
    set_measure_rerun(true);
    take_records();
    let report: &ProbeReport = &session.probe;
    let kernels = Df64Kernels::new(&session.ctx, report)?;
    let mut refused = Vec::new();
    if want(ProgramFamily::Elementwise) {
        let one = [Df64::new(1.0, 0.0)];
        for op in &Df64Op::ALL {
            keep_refusal(&mut refused, kernels.apply_unchecked(*op, &one, &one))?;
        }
        let c = [ComplexDf64::from_f64(1.0, 0.5)];
        for op in [ComplexOp::Add, ComplexOp::Sub, ComplexOp::Mul] {
            keep_refusal(&mut refused, kernels.apply_complex(op, &c, &c))?;
        }
        let q = [Qf128::from_f32(1.0)];
        for op in Qf128Op::ALL {
            keep_refusal(&mut refused, kernels.apply_qf128(op, &q, &q))?;
        }
    }
    let fft = if want(ProgramFamily::Fft) {
        fft_variants(&FftPlanner::new(&kernels))
    } else {
        Vec::new()
    };
    for options in fft {
        // 32 points: every pass kind of a radix-4 transform (two radix-4 stages and a last
        // radix-2 stage), so the programs of every length are built.
        let shape = FftShape::Rows { n: 32, batch: 1 };
        match StockhamPlan::with_options(&kernels, shape, options) {
            Ok(plan) => {
                let other = StockhamPlan::with_options(&kernels, shape, options)?;
                let mut plan = plan;
                keep_refusal(&mut refused, plan.multiply_by(&other))?;
                // The real transform's passes both ways and the copy of `bench fft`.
                keep_refusal(&mut refused, plan.prove_single_passes())?;
            }
            Err(e) => keep_refusal(&mut refused, Err::<(), _>(e))?,
        }
        keep_refusal(&mut refused, RealFftPlan::new(&kernels, 64, 1, options))?;
    }
    let mut mandel = MandelRenderer::new();
    let mandel_precisions = if want(ProgramFamily::Mandelbrot) {
        vec![MandelPrecision::Df64, MandelPrecision::Qf128]
    } else {
        Vec::new()
    };
    for precision in mandel_precisions {
        for color in [false, true] {
            keep_refusal(&mut refused, mandel.prepare(&kernels, precision, color))?;
        }
    }
    if want(ProgramFamily::Leibniz) {
        keep_refusal(
            &mut refused,
            crate::experiments::repro::prepare_leibniz(&kernels),
        )?;
    }
    set_fresh(false);
    set_measure_rerun(false);
    Ok(SelfTestReport {
        driver: format!(
            "{} / {} / OpenGL {}",
            report.driver.vendor, report.driver.renderer, report.driver.version
        ),
        configuration: report.decision.clone(),
        rows: take_records().into_iter().map(SelfTestRow::from).collect(),
        refused,
    })
}
