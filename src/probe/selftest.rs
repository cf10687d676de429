//! Known-answer self-tests of whole programs. The probe proves four error-free transforms; a
//! compiler can still rewrite the routines built from them once they are inlined into a
//! program (Mesa factors `a*b + a*c` into `a*(b + c)`, for one). So every df64 or qf128 program
//! the engine builds runs fixed inputs once per driver, on first build, and its results are
//! compared with the CPU mirror (bit for bit where the probe saw round-to-nearest f32). What
//! passed is remembered per driver and program source, in memory and next to the probe's cache,
//! so a later build of the same program costs nothing.
//!
//! The tests themselves live beside the programs (the element-wise kernels, the FFT passes, the
//! Mandelbrot renderer): this module holds the record of what passed and the cost.

use std::cell::RefCell;
use std::collections::HashSet;
use std::path::PathBuf;
use std::time::Duration;

use super::{cache_dir, forced_protection, PROBE_VERSION};
use crate::gl::GlInfo;

/// Bumped when the self-tests change, so programs are tested again.
const SELFTEST_VERSION: u32 = 1;

/// A self-test that failed: the program, the input and the values, for the error message.
#[derive(Debug, Clone)]
pub struct SelfTestFailure {
    /// The program.
    pub program: String,
    /// The input that failed.
    pub input: String,
    /// What the GPU returned.
    pub got: String,
    /// What the CPU mirror computes.
    pub expected: String,
}

impl std::fmt::Display for SelfTestFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the self-test of {} failed: for {} the GPU returned {}, the CPU mirror {}",
            self.program, self.input, self.got, self.expected
        )
    }
}

/// What one program's self-test cost, for `df64gl selftest` and the report.
#[derive(Debug, Clone)]
pub struct SelfTestRecord {
    /// The program.
    pub program: String,
    /// Configuration it was built with (the protection's name).
    pub protection: &'static str,
    /// Cases run.
    pub cases: usize,
    /// Compile and link time.
    pub compile: Duration,
    /// Time of the test (draw, read-back, mirror); zero when it passed earlier. On Mesa's
    /// software drivers it includes the deferred compile at a program's first draw, which any
    /// first use pays.
    pub test: Duration,
    /// The same test run again right after (`df64gl selftest` only): its cost without the
    /// first draw's deferred compile.
    pub rerun: Option<Duration>,
    /// Passed before (this process or the cache), so it did not run.
    pub cached: bool,
    /// It passed.
    pub passed: bool,
}

thread_local! {
    static VERIFIED: RefCell<HashSet<u64>> = RefCell::new(HashSet::new());
    static LOADED: RefCell<HashSet<String>> = RefCell::new(HashSet::new());
    static RECORDS: RefCell<Vec<SelfTestRecord>> = const { RefCell::new(Vec::new()) };
    static FRESH: RefCell<bool> = const { RefCell::new(false) };
    static RERUN: RefCell<bool> = const { RefCell::new(false) };
}

/// Makes this thread run each self-test twice and record the second run's time.
pub fn set_measure_rerun(on: bool) {
    RERUN.with(|r| *r.borrow_mut() = on);
}

/// Whether this thread runs each self-test twice ([`set_measure_rerun`]).
pub(crate) fn measure_rerun() -> bool {
    RERUN.with(|r| *r.borrow())
}

/// Makes this thread ignore (and not load) the record on disk: every program tests itself
/// again (`df64gl selftest --fresh`).
pub fn set_fresh(fresh: bool) {
    FRESH.with(|f| *f.borrow_mut() = fresh);
    if fresh {
        VERIFIED.with(|v| v.borrow_mut().clear());
        LOADED.with(|l| l.borrow_mut().clear());
    }
}

fn fnv1a(bytes: &[u8], mut h: u64) -> u64 {
    for b in bytes {
        h ^= *b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The key of one program on one driver: driver, device, test version and the exact source
/// handed to the compiler (which includes the configuration's defines).
pub(crate) fn program_key(info: &GlInfo, source: &str) -> u64 {
    let driver = format!(
        "v{PROBE_VERSION}.{SELFTEST_VERSION} | {} | {}",
        info.driver_key(),
        info.device
    );
    fnv1a(
        source.as_bytes(),
        fnv1a(driver.as_bytes(), 0xcbf2_9ce4_8422_2325),
    )
}

fn store_path(info: &GlInfo) -> Option<PathBuf> {
    let driver = format!("{} | {}", info.driver_key(), info.device);
    cache_dir().map(|d| {
        d.join(format!(
            "selftests-{:016x}.txt",
            fnv1a(driver.as_bytes(), 0xcbf2_9ce4_8422_2325)
        ))
    })
}

/// Forced protections are tests of the proof itself: they neither read nor write the record
/// on disk (as with the probe's cache), and a fresh run ignores it.
fn disk_allowed() -> bool {
    forced_protection().is_none() && !FRESH.with(|f| *f.borrow())
}

fn load_disk(info: &GlInfo) {
    let Some(path) = store_path(info) else { return };
    let name = path.display().to_string();
    if LOADED.with(|l| !l.borrow_mut().insert(name)) {
        return;
    }
    if !disk_allowed() {
        return;
    }
    let Ok(text) = std::fs::read_to_string(&path) else {
        return;
    };
    VERIFIED.with(|v| {
        let mut v = v.borrow_mut();
        for line in text.lines() {
            if let Ok(k) = u64::from_str_radix(line.trim(), 16) {
                v.insert(k);
            }
        }
    });
}

/// Whether the program with this source already passed its self-test on this driver.
pub(crate) fn already_verified(info: &GlInfo, source: &str) -> bool {
    load_disk(info);
    let key = program_key(info, source);
    VERIFIED.with(|v| v.borrow().contains(&key))
}

/// Records a pass (in memory, and appended to the per-driver file unless forced).
pub(crate) fn mark_verified(info: &GlInfo, source: &str) {
    let key = program_key(info, source);
    let new = VERIFIED.with(|v| v.borrow_mut().insert(key));
    if !new || !disk_allowed() {
        return;
    }
    if let Some(path) = store_path(info) {
        // A record that cannot be written only costs a re-test next time.
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        use std::io::Write;
        if let Ok(mut f) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
        {
            let _ = writeln!(f, "{key:016x}");
        }
    }
}

/// Records kept at most: a long-running program that builds plans again and again must not
/// grow without bound (the oldest go first).
const MAX_RECORDS: usize = 4096;

/// Appends one record of cost and outcome.
pub fn record(r: SelfTestRecord) {
    RECORDS.with(|rs| {
        let mut rs = rs.borrow_mut();
        if rs.len() >= MAX_RECORDS {
            rs.remove(0);
        }
        rs.push(r);
    });
}

/// Every record since the start of this thread (or the last [`take_records`]).
pub fn take_records() -> Vec<SelfTestRecord> {
    RECORDS.with(|rs| std::mem::take(&mut *rs.borrow_mut()))
}

/// Whether every program source in `sources` passed its self-test on this driver.
pub(crate) fn all_verified(info: &GlInfo, sources: &[&str]) -> bool {
    sources.iter().all(|s| already_verified(info, s))
}

/// How two f32 words compare in a self-test: equal bits, or both NaN (payloads differ between
/// a GPU and the CPU), or (off round-to-nearest drivers) within `2^-tol_bits` of the mirror's
/// value relative to `scale`.
pub(crate) fn words_agree(got: f32, want: f32, scale: f64, tol_bits: Option<i32>) -> bool {
    if got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()) {
        return true;
    }
    match tol_bits {
        Some(t) if got.is_finite() && want.is_finite() => {
            (got as f64 - want as f64).abs() <= scale.abs() * 2f64.powi(-t)
        }
        _ => false,
    }
}

/// The documented bound off round-to-nearest drivers: results within 2^-44 (16 ulp48) of the
/// mirror relative to the value's leading word, far above rounding differences and far below
/// what a broken error-free transform leaves (f32's 2^-24).
pub const NON_NEAREST_TOLERANCE_BITS: i32 = 44;

/// Formats df64/qf128 words for an error message.
pub(crate) fn words_text(words: &[f32]) -> String {
    let parts: Vec<String> = words.iter().map(|w| format!("{w:e}")).collect();
    format!("[{}]", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_agree_is_bitwise_on_nearest_drivers() {
        assert!(words_agree(1.0, 1.0, 1.0, None));
        assert!(words_agree(f32::NAN, -f32::NAN, 1.0, None));
        assert!(!words_agree(0.0, -0.0, 1.0, None));
        let next = f32::from_bits(1.0f32.to_bits() + 1);
        assert!(!words_agree(next, 1.0, 1.0, None));
        assert!(words_agree(1e-20, 0.0, 1.0, Some(44)));
        assert!(!words_agree(1e-10, 0.0, 1.0, Some(44)));
    }

    #[test]
    fn key_depends_on_source_and_driver() {
        let mut info = GlInfo::default();
        let a = program_key(&info, "x");
        assert_ne!(a, program_key(&info, "y"));
        info.renderer = "other".into();
        assert_ne!(a, program_key(&info, "x"));
    }
}
