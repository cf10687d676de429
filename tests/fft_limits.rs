//! Sizes past what the device holds are refused with a message that names the limit, before
//! anything is allocated: the planner's judge and every plan constructor, at the largest
//! length the texture takes and one past it, and under a memory budget set by hand
//! (`DF64GL_MEMORY_BUDGET`, so the test does not depend on the machine's free memory).

mod common;

use std::time::{Duration, Instant};

use df64gl::fft::{
    Direction, FftError, FftOptions, FftPlan, FftPlanner, FftPrecision, FftShape, GpuFft,
    RealFftPlan, StockhamPlan,
};
use df64gl::gl::MEMORY_BUDGET_ENV;
use df64gl::numeric::df64::ComplexDf64;

/// The budget every test of this file runs under: small enough that no plan allowed here
/// takes long to build on llvmpipe.
const BUDGET: &str = "64M";
const BUDGET_BYTES: u128 = 64 << 20;

/// A refusal is taken before anything is allocated: it comes back at once.
const REFUSAL_TIME: Duration = Duration::from_millis(500);

const PRECISIONS: [FftPrecision; 3] = [FftPrecision::F32, FftPrecision::Df64, FftPrecision::Qf128];

fn refused_at_once<T>(what: &str, f: impl FnOnce() -> Result<T, FftError>) -> FftError {
    let t = Instant::now();
    let result = f();
    let took = t.elapsed();
    match result {
        Ok(_) => panic!("{what}: accepted, expected a refusal"),
        Err(e) => {
            assert!(took < REFUSAL_TIME, "{what}: refused after {took:?}: {e}");
            e
        }
    }
}

#[test]
fn sizes_past_the_texture_and_the_memory_budget_are_refused_before_anything_is_allocated() {
    // Every test of this binary runs under the same budget, set before any context exists.
    std::env::set_var(MEMORY_BUDGET_ENV, BUDGET);
    let kernels = common::kernels();
    let planner = FftPlanner::new(&kernels);
    let side = kernels.context().info().max_texture_size as usize;
    let capacity = side * side;
    assert!(side.is_power_of_two(), "GL_MAX_TEXTURE_SIZE {side}");
    let rows = |n: usize, batch: usize| FftShape::Rows { n, batch };

    for p in PRECISIONS {
        let options = FftOptions::new(p);
        let judge = |shape: FftShape| planner.judge(shape, options);
        // The texture: a power of two up to side^2 points fits it; Bluestein pads n to the
        // power of two at or above 2n - 1, so side^2 / 2 - 1 fits and side^2 / 2 + 1 does not.
        let fits_texture = |shape: FftShape| match judge(shape) {
            Ok(()) | Err(FftError::OutOfMemory { .. }) => true,
            Err(FftError::TooLarge { .. }) => false,
            Err(e) => panic!("{} {shape:?}: {e}", p.name()),
        };
        for (shape, fits) in [
            (rows(capacity, 1), true),
            (rows(capacity + 1, 1), false),
            (rows(capacity / 2 - 1, 1), true),
            (rows(capacity / 2 + 1, 1), false),
            (rows(2, capacity / 2), true),
            (rows(2, capacity / 2 + 1), false),
            (rows(usize::MAX, 1), false),
            (rows(usize::MAX, usize::MAX), false),
            (
                FftShape::Image {
                    rows: side,
                    cols: side,
                },
                true,
            ),
            (
                FftShape::Image {
                    rows: side,
                    cols: side + 1,
                },
                false,
            ),
            (
                FftShape::Volume {
                    depth: 2,
                    rows: side,
                    cols: side / 2,
                },
                true,
            ),
            (
                FftShape::Volume {
                    depth: usize::MAX,
                    rows: 2,
                    cols: 2,
                },
                false,
            ),
        ] {
            let t = Instant::now();
            assert_eq!(fits_texture(shape), fits, "{} {shape:?}", p.name());
            assert!(
                t.elapsed() < REFUSAL_TIME,
                "{} {shape:?}: judged slowly",
                p.name()
            );
        }
        let e = refused_at_once("one past the texture", || judge(rows(capacity + 1, 1)));
        let text = e.to_string();
        assert!(
            text.contains(&format!("{side} x {side}")) && text.contains(&capacity.to_string()),
            "the texture refusal names the limit and the largest length: {text}"
        );

        // The memory budget: the two natural buffers alone hold 2 x 16 bytes a point (32 for
        // qf128's two textures), so past BUDGET / 32 points no plan can fit.
        let raw = if p == FftPrecision::Qf128 { 64 } else { 32 };
        let past_budget = (BUDGET_BYTES / raw).next_power_of_two() as usize * 2;
        let e = refused_at_once("past the budget", || judge(rows(past_budget, 1)));
        assert!(
            matches!(e, FftError::OutOfMemory { .. })
                && e.to_string().contains("64.0 MiB")
                && e.to_string().contains(MEMORY_BUDGET_ENV),
            "{} at {past_budget}: {e}",
            p.name()
        );
        // Every constructor refuses it, as the judge does, before allocating.
        refused_at_once("FftPlan past the budget", || {
            FftPlan::with_options(&kernels, rows(past_budget, 1), options)
        });
        refused_at_once("FftPlan, Bluestein, past the budget", || {
            FftPlan::with_options(&kernels, rows(past_budget / 2 + 1, 1), options)
        });
        refused_at_once("StockhamPlan past the budget", || {
            StockhamPlan::with_options(&kernels, rows(past_budget, 1), options)
        });
        refused_at_once("RealFftPlan past the budget", || {
            RealFftPlan::new(&kernels, 2 * past_budget, 1, options)
        });
        refused_at_once("FftPlan past the texture", || {
            FftPlan::with_options(&kernels, rows(usize::MAX, 1), options)
        });
        refused_at_once("RealFftPlan past the texture", || {
            RealFftPlan::new(&kernels, 1 << (usize::BITS - 1), 1, options)
        });
        refused_at_once("RealFftPlan of a length past every power of two", || {
            RealFftPlan::new(&kernels, usize::MAX, 1, options)
        });

        // The largest power of two the judge allows under the budget is a plan that builds
        // and transforms (the judge's figure is not an underestimate that the driver then
        // fails); twice it is refused.
        let largest = (1..usize::BITS)
            .map(|k| 1usize << k)
            .take_while(|n| judge(rows(*n, 1)).is_ok())
            .last()
            .unwrap_or_else(|| panic!("{}: no length fits {BUDGET}", p.name()));
        assert!(
            largest * raw as usize <= BUDGET_BYTES as usize,
            "{}: {largest} points allowed, more than the raw data fit",
            p.name()
        );
        eprintln!(
            "{}: the largest power of two under {BUDGET}: {largest}",
            p.name()
        );
        let mut plan = FftPlan::with_options(&kernels, rows(largest, 1), options)
            .unwrap_or_else(|e| panic!("{} at {largest}: {e}", p.name()));
        let mut x = vec![ComplexDf64::from_f64(0.0, 0.0); largest];
        x[1] = ComplexDf64::from_f64(1.0, 0.0);
        let y = plan
            .transform(&x, Direction::Forward)
            .unwrap_or_else(|e| panic!("{} at {largest}: {e}", p.name()));
        // The impulse at t = 1: bin k is exp(-2 pi i k / n); bin n / 4 is -i.
        let quarter = y[largest / 4];
        assert!(
            quarter.re.to_f64().abs() < 1e-6 && (quarter.im.to_f64() + 1.0).abs() < 1e-6,
            "{} at {largest}: bin n/4 = {quarter:?}",
            p.name()
        );
        refused_at_once("twice the largest", || judge(rows(2 * largest, 1)));
    }
}
