//! Comparisons, absolute value, minimum and maximum: on the unevaluated sum, so that two
//! values equal in their high words are ordered by their low words.

use super::*;

/// CPU mirror of `df64_eq` in `glsl/df64.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn df64_eq(a: Df64, b: Df64) -> bool {
    a.hi == b.hi && a.lo == b.lo
}

/// CPU mirror of `df64_neq` in `glsl/df64.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn df64_neq(a: Df64, b: Df64) -> bool {
    !(a.hi == b.hi && a.lo == b.lo)
}

/// CPU mirror of `df64_lt` in `glsl/df64.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn df64_lt(a: Df64, b: Df64) -> bool {
    a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo)
}

/// CPU mirror of `df64_le` in `glsl/df64.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn df64_le(a: Df64, b: Df64) -> bool {
    a.hi < b.hi || (a.hi == b.hi && a.lo <= b.lo)
}

/// CPU mirror of `df64_gt` in `glsl/df64.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn df64_gt(a: Df64, b: Df64) -> bool {
    a.hi > b.hi || (a.hi == b.hi && a.lo > b.lo)
}

/// CPU mirror of `df64_ge` in `glsl/df64.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn df64_ge(a: Df64, b: Df64) -> bool {
    a.hi > b.hi || (a.hi == b.hi && a.lo >= b.lo)
}

/// CPU mirror of `df64_abs` in `glsl/df64.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn df64_abs(a: Df64) -> Df64 {
    if a.hi < 0.0 {
        df64_neg(a)
    } else {
        Df64::new(a.hi.abs(), a.lo)
    }
}

/// CPU mirror of `df64_min` in `glsl/df64.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn df64_min(a: Df64, b: Df64) -> Df64 {
    if df64_lt(b, a) {
        b
    } else {
        a
    }
}

/// CPU mirror of `df64_max` in `glsl/df64.glsl`: the same operations in the same order in
/// f32 arithmetic.
pub fn df64_max(a: Df64, b: Df64) -> Df64 {
    if df64_gt(b, a) {
        b
    } else {
        a
    }
}
