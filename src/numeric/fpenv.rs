//! The CPU floating-point environment the mirrors run in. GPUs (and llvmpipe, which sets these
//! very bits) flush f32 subnormals to zero; on x86-64 the MXCSR FTZ and DAZ bits make the
//! CPU's SSE arithmetic do the same, so a mirror can match such a driver bit for bit even where
//! error terms fall below 2^-126.
//!
//! The environment also says which TwoProduct the GPU program was built with: Dekker's split
//! and a fused `fma` give the same pair wherever both are exact, but not where Dekker's partial
//! products overflow (operands near f32::MAX) or its error term falls below 2^-126, so the
//! mirror of a program built with `fma` must use a fused multiply-add too.

use std::cell::Cell;

thread_local! {
    static FUSED_TWO_PROD: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` with the mirrors' TwoProduct fused (`fused`) or by Dekker's split; the previous
/// choice is restored afterwards.
pub fn with_fused_two_prod<T>(fused: bool, f: impl FnOnce() -> T) -> T {
    let old = FUSED_TWO_PROD.with(|c| c.replace(fused));
    let r = f();
    FUSED_TWO_PROD.with(|c| c.set(old));
    r
}

/// Whether the mirrors' TwoProduct is fused here (inside `with_fused_two_prod(true, ..)`).
pub(crate) fn fused_two_prod() -> bool {
    FUSED_TWO_PROD.with(Cell::get)
}

/// Runs `f` with flush-to-zero and denormals-are-zero on when `flush` is true (x86-64 only;
/// elsewhere `f` runs unchanged). The previous mode is restored afterwards.
///
/// The mode switches are barriers for memory, not for registers: `f` must read its operands
/// from memory and leave its results in memory (slices, `Vec`s, `black_box`), so that the
/// compiler cannot move the arithmetic outside the switched region.
pub fn with_flush_to_zero<T>(flush: bool, f: impl FnOnce() -> T) -> T {
    #[cfg(target_arch = "x86_64")]
    if flush {
        // SAFETY: stmxcsr/ldmxcsr only read and write the SSE control register; the asm blocks
        // are full compiler barriers, so no float operation moves across them.
        let old = unsafe { mxcsr::get() };
        unsafe { mxcsr::set(old | mxcsr::FTZ | mxcsr::DAZ) };
        let r = f();
        unsafe { mxcsr::set(old) };
        return r;
    }
    let _ = flush;
    f()
}

/// Whether the code runs inside `with_flush_to_zero(true, ..)` (the DAZ bit is set).
pub(crate) fn denormals_are_zero() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: stmxcsr only reads the SSE control register.
        unsafe { mxcsr::get() & mxcsr::DAZ != 0 }
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// x as a driver that flushes subnormals reads it, when the mirror runs in that mode: a
/// subnormal becomes ±0. The mirrors call it wherever they classify an operand or return it
/// without arithmetic: rustc's LLVM assumes IEEE subnormals and rewrites such code (measured:
/// `if x == 0.0 { signed_zero(x) }` returned the subnormal x itself under DAZ), while the
/// arithmetic itself is flushed by the CPU.
pub(crate) fn ftz(x: f32) -> f32 {
    if x.is_subnormal() && denormals_are_zero() {
        0.0f32.copysign(x)
    } else {
        x
    }
}

/// Whether `with_flush_to_zero(true, ..)` really flushes on this CPU.
pub fn flush_to_zero_supported() -> bool {
    cfg!(target_arch = "x86_64")
}

#[cfg(target_arch = "x86_64")]
mod mxcsr {
    use std::arch::asm;

    pub const FTZ: u32 = 1 << 15;
    pub const DAZ: u32 = 1 << 6;

    pub unsafe fn get() -> u32 {
        let mut x: u32 = 0;
        asm!("stmxcsr [{}]", in(reg) &mut x, options(nostack));
        x
    }

    pub unsafe fn set(x: u32) {
        asm!("ldmxcsr [{}]", in(reg) &x, options(nostack, readonly));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flushes_subnormal_results_and_inputs_only_inside() {
        let tiny = std::hint::black_box(f32::MIN_POSITIVE);
        let half = std::hint::black_box(0.5f32);
        let sub = std::hint::black_box(f32::from_bits(1));
        assert!(tiny * half > 0.0);
        if flush_to_zero_supported() {
            let mut out = [1.0f32; 2];
            with_flush_to_zero(true, || {
                let (a, b, c) = std::hint::black_box((tiny, half, sub));
                out = std::hint::black_box([a * b, c * 4.0]);
            });
            assert_eq!(out[0], 0.0, "subnormal result not flushed");
            assert_eq!(out[1], 0.0, "subnormal input not treated as zero");
        }
        assert!(tiny * half > 0.0, "mode not restored");
        assert_eq!(ftz(sub), sub);
        if flush_to_zero_supported() {
            let flushed = with_flush_to_zero(true, || ftz(std::hint::black_box(-sub)));
            assert_eq!(flushed.to_bits(), (-0.0f32).to_bits());
        }
    }
}
