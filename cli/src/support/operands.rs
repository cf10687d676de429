//! Random df64 operands, as the accuracy tables, the export checks and the repro page draw them.

use rand::Rng;

use df64gl::numeric::df64::{df64_quick_two_sum, Df64};
use df64gl::numeric::reference::ulp_bits;

/// A df64 with a full-precision low word: hi uniform in [lo, hi), lo uniform within ulp(hi)/2.
pub fn random_df64(rng: &mut impl Rng, lo: f64, hi: f64) -> Df64 {
    let x: f64 = rng.gen_range(lo..hi);
    let h = x as f32;
    if h == 0.0 {
        return Df64::new(h, 0.0);
    }
    let l = (rng.gen_range(-0.5..0.5) * ulp_bits(h as f64, 23)) as f32;
    let d = df64_quick_two_sum(h, l);
    if d.hi as f64 <= lo || d.hi as f64 >= hi {
        Df64::new(h, 0.0)
    } else {
        d
    }
}
