//! CPU mirror of `glsl/df64_vec.glsl`: df64 vectors and matrices, the same steps in the same
//! order in f32 arithmetic. One generic function stands for the GLSL's three sizes
//! (`df64vec_add::<3>` is `df64vec3_add`); the rest keep the GLSL names.
//!
//! The bounds are the GLSL file's; [`super::vec_catalog`] states each routine's as a row.

use super::df64::{self as m, Df64};

/// N df64 numbers as two f32 vectors, the GLSL `df64vecN { vecN hi; vecN lo; }`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Df64Vec<const N: usize> {
    /// The high words.
    pub hi: [f32; N],
    /// The low words.
    pub lo: [f32; N],
}

/// `df64vec2`.
pub type Df64Vec2 = Df64Vec<2>;
/// `df64vec3`.
pub type Df64Vec3 = Df64Vec<3>;
/// `df64vec4`.
pub type Df64Vec4 = Df64Vec<4>;

impl<const N: usize> Df64Vec<N> {
    /// From its components.
    pub fn from_components(c: [Df64; N]) -> Self {
        Df64Vec {
            hi: c.map(|d| d.hi),
            lo: c.map(|d| d.lo),
        }
    }

    /// Component `i` as a df64 (`i < N`; a larger index reads as NaN).
    pub fn get(&self, i: usize) -> Df64 {
        match (self.hi.get(i), self.lo.get(i)) {
            (Some(h), Some(l)) => Df64::new(*h, *l),
            _ => Df64::new(f32::NAN, 0.0),
        }
    }

    /// The components.
    pub fn components(&self) -> [Df64; N] {
        std::array::from_fn(|i| self.get(i))
    }

    /// The nearest df64 of each of `x`'s components.
    pub fn from_f64(x: [f64; N]) -> Self {
        Self::from_components(x.map(Df64::from_f64))
    }
}

/// `df64mat4 { mat4 hi; mat4 lo; }`: columns, as GLSL (`hi[c][r]` is row r of column c).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Df64Mat4 {
    /// The high words, by column.
    pub hi: [[f32; 4]; 4],
    /// The low words, by column.
    pub lo: [[f32; 4]; 4],
}

impl Df64Mat4 {
    /// Column `c` as a df64vec4.
    pub fn column(&self, c: usize) -> Df64Vec4 {
        Df64Vec {
            hi: self.hi.get(c).copied().unwrap_or([f32::NAN; 4]),
            lo: self.lo.get(c).copied().unwrap_or([0.0; 4]),
        }
    }

    /// The nearest df64 of each element of a column-major matrix of doubles (`m[4 c + r]`, as
    /// WebGL takes matrices).
    pub fn from_f64(m: [f64; 16]) -> Self {
        let at = |c: usize, r: usize| Df64::from_f64(m[4 * c + r]);
        Df64Mat4 {
            hi: std::array::from_fn(|c| std::array::from_fn(|r| at(c, r).hi)),
            lo: std::array::from_fn(|c| std::array::from_fn(|r| at(c, r).lo)),
        }
    }
}

// ---------------------------------------------------------------- construction

/// Mirror of `df64vecN_from_f32`.
pub fn df64vec_from_f32<const N: usize>(a: [f32; N]) -> Df64Vec<N> {
    Df64Vec {
        hi: a,
        lo: [0.0; N],
    }
}

/// Mirror of `df64vecN_to_f32`: each component's nearest f32.
pub fn df64vec_to_f32<const N: usize>(a: &Df64Vec<N>) -> [f32; N] {
    a.components().map(m::df64_to_f32)
}

// ---------------------------------------------------------------- component-wise

fn each<const N: usize>(a: &Df64Vec<N>, f: impl Fn(Df64, usize) -> Df64) -> Df64Vec<N> {
    let c = a.components();
    Df64Vec::from_components(std::array::from_fn(|i| f(c[i], i)))
}

/// Mirror of `df64vecN_add`.
pub fn df64vec_add<const N: usize>(a: &Df64Vec<N>, b: &Df64Vec<N>) -> Df64Vec<N> {
    each(a, |x, i| m::df64_add(x, b.get(i)))
}

/// Mirror of `df64vecN_sub`.
pub fn df64vec_sub<const N: usize>(a: &Df64Vec<N>, b: &Df64Vec<N>) -> Df64Vec<N> {
    each(a, |x, i| m::df64_sub(x, b.get(i)))
}

/// Mirror of `df64vecN_neg`.
pub fn df64vec_neg<const N: usize>(a: &Df64Vec<N>) -> Df64Vec<N> {
    Df64Vec {
        hi: a.hi.map(|x| -x),
        lo: a.lo.map(|x| -x),
    }
}

/// Mirror of `df64vecN_mul`: times the df64 `s`.
pub fn df64vec_mul<const N: usize>(a: &Df64Vec<N>, s: Df64) -> Df64Vec<N> {
    each(a, |x, _| m::df64_mul(x, s))
}

/// Mirror of `df64vecN_mul_f32`: times the f32 `s`.
pub fn df64vec_mul_f32<const N: usize>(a: &Df64Vec<N>, s: f32) -> Df64Vec<N> {
    each(a, |x, _| m::df64_mul_f32(x, s))
}

// ---------------------------------------------------------------- products

/// Mirror of `df64vecN_dot`: products summed in order.
pub fn df64vec_dot<const N: usize>(a: &Df64Vec<N>, b: &Df64Vec<N>) -> Df64 {
    let mut s = m::df64_mul(a.get(0), b.get(0));
    for i in 1..N {
        s = m::df64_add(s, m::df64_mul(a.get(i), b.get(i)));
    }
    s
}

/// Mirror of `df64vec3_cross`.
pub fn df64vec3_cross(a: &Df64Vec3, b: &Df64Vec3) -> Df64Vec3 {
    let [ax, ay, az] = a.components();
    let [bx, by, bz] = b.components();
    let diff =
        |p: Df64, q: Df64, r: Df64, s: Df64| m::df64_sub(m::df64_mul(p, q), m::df64_mul(r, s));
    Df64Vec::from_components([
        diff(ay, bz, az, by),
        diff(az, bx, ax, bz),
        diff(ax, by, ay, bx),
    ])
}

// ---------------------------------------------------------------- length and direction

/// Mirror of `df64vecN_length`: at every exponent, as `df64_hypot`.
pub fn df64vec_length<const N: usize>(a: &Df64Vec<N>) -> Df64 {
    if N == 0 {
        return Df64::ZERO;
    }
    let c = a.components().map(m::df64_abs);
    if c.iter().any(|x| x.hi.is_infinite()) {
        return Df64::new(f32::INFINITY, 0.0);
    }
    if c.iter().any(|x| x.hi.is_nan()) {
        return Df64::new(f32::NAN, 0.0);
    }
    let big = c.iter().fold(Df64::ZERO, |b, x| m::df64_max(b, *x));
    if big.hi == 0.0 {
        return Df64::ZERO;
    }
    let k = m::df64_normalizer(big.hi);
    let f = m::df64_pow2(k);
    let sq = |x: Df64| m::df64_sqr_unscaled(m::df64_scale_words(x, f));
    // As the GLSL: the first two squares summed, then each further one (a lone component's
    // square is its sum).
    let mut squares = c.iter().map(|x| sq(*x));
    let first = squares.next().unwrap_or(Df64::ZERO);
    let mut s = match squares.next() {
        Some(second) => m::df64_add_unscaled(first, second),
        None => first,
    };
    for x in squares {
        s = m::df64_add_unscaled(s, x);
    }
    m::df64_scale(m::df64_sqrt_unscaled(s), -k)
}

/// Mirror of `df64vec_unit_factor`: 1 / length, NaN for a zero or non-finite vector.
fn df64vec_unit_factor(scaled_length: Df64, largest: f32) -> Df64 {
    if largest == 0.0 || !largest.is_finite() {
        return Df64::new(f32::NAN, 0.0);
    }
    m::df64_div(Df64::ONE, scaled_length)
}

/// Mirror of `df64vecN_normalize`: the direction, each component rounded to f32.
pub fn df64vec_normalize<const N: usize>(a: &Df64Vec<N>) -> [f32; N] {
    let largest = a.hi.iter().fold(0.0f32, |l, x| l.max(x.abs()));
    let k = m::df64_normalizer(largest);
    let f = m::df64_pow2(k);
    let s = Df64Vec {
        hi: a.hi.map(|x| x * f),
        lo: a.lo.map(|x| x * f),
    };
    let r = df64vec_unit_factor(df64vec_length(&s), largest);
    s.components().map(|x| m::df64_to_f32(m::df64_mul(x, r)))
}

// ---------------------------------------------------------------- matrices

/// Mirror of `df64mat4_mul_vec4`: each component a row of `a` dotted with `v`.
pub fn df64mat4_mul_vec4(a: &Df64Mat4, v: &Df64Vec4) -> Df64Vec4 {
    let row = |r: usize| Df64Vec {
        hi: std::array::from_fn(|c| a.hi[c][r]),
        lo: std::array::from_fn(|c| a.lo[c][r]),
    };
    Df64Vec::from_components(std::array::from_fn(|r| df64vec_dot(&row(r), v)))
}

/// Mirror of `df64mat4_mul`: column by column.
pub fn df64mat4_mul(a: &Df64Mat4, b: &Df64Mat4) -> Df64Mat4 {
    let cols: [Df64Vec4; 4] = std::array::from_fn(|c| df64mat4_mul_vec4(a, &b.column(c)));
    Df64Mat4 {
        hi: cols.map(|c| c.hi),
        lo: cols.map(|c| c.lo),
    }
}

// ---------------------------------------------------------------- the transforms

/// Mirror of `df64_mat4_apply_f32`: `m p` in f32, column by column, each step rounded.
pub fn df64_mat4_apply_f32(m: &[[f32; 4]; 4], p: [f32; 4]) -> [f32; 4] {
    std::array::from_fn(|i| {
        let s = m[0][i] * p[0];
        let s = s + m[1][i] * p[1];
        let s = s + m[2][i] * p[2];
        s + m[3][i] * p[3]
    })
}

/// Mirror of `df64_transform_point`: the f32 matrix on the f32 position, then the df64
/// translation added.
pub fn df64_transform_point(m: &[[f32; 4]; 4], translation: &Df64Vec3, p: [f32; 3]) -> Df64Vec3 {
    let q = df64_mat4_apply_f32(m, [p[0], p[1], p[2], 1.0]);
    df64vec_add(translation, &df64vec_from_f32([q[0], q[1], q[2]]))
}

/// Mirror of `df64_relative_to_eye`: `world - eye` in df64, each component rounded to f32.
pub fn df64_relative_to_eye(world: &Df64Vec3, eye: &Df64Vec3) -> [f32; 3] {
    df64vec_to_f32(&df64vec_sub(world, eye))
}

/// Mirror of `df64_world_to_view`: relative to the eye, then the f32 rotation.
pub fn df64_world_to_view(
    view_rotation: &[[f32; 4]; 4],
    eye: &Df64Vec3,
    world: &Df64Vec3,
) -> [f32; 4] {
    let d = df64_relative_to_eye(world, eye);
    df64_mat4_apply_f32(view_rotation, [d[0], d[1], d[2], 1.0])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_to_eye_keeps_what_f32_positions_lose() {
        // 6.4e6 m out, 0.1 mm apart: f32 positions there are 0.5 m apart.
        let world = Df64Vec3::from_f64([6.4e6 + 1.2345e-4, -2.0, 0.5]);
        let eye = Df64Vec3::from_f64([6.4e6, -2.0 - 3e-5, 0.5]);
        let d = df64_relative_to_eye(&world, &eye);
        let want = [1.2345e-4, 3e-5, 0.0];
        for i in 0..3 {
            // The difference of the two df64 values (exact in f64 here), rounded once to f32.
            let exact = world.get(i).to_f64() - eye.get(i).to_f64();
            assert_eq!(d[i], exact as f32, "{d:?}");
            // Within the df64 inputs' own rounding (ulp48 of 6.4e6 is 2^-25) of what was meant.
            assert!((d[i] as f64 - want[i]).abs() <= 2f64.powi(-25), "{d:?}");
        }
    }

    #[test]
    fn length_and_normalize_at_the_ends_of_the_range() {
        let big = Df64Vec3::from_f64([3e37, 4e37, 0.0]);
        assert!((df64vec_length(&big).to_f64() / 5e37 - 1.0).abs() < 1e-14);
        let tiny = Df64Vec2::from_f64([3e-30, -4e-30]);
        assert!((df64vec_length(&tiny).to_f64() / 5e-30 - 1.0).abs() < 1e-14);
        assert_eq!(df64vec_normalize(&tiny), [0.6, -0.8]);
        assert!(df64vec_normalize(&Df64Vec3::from_f64([0.0; 3]))[0].is_nan());
        let inf = Df64Vec3::from_f64([f64::INFINITY, f64::NAN, 1.0]);
        assert_eq!(df64vec_length(&inf).hi, f32::INFINITY);
    }

    #[test]
    fn matrix_products_follow_column_major_order() {
        // A translation by (t, 0, 0) with t = 1e9 + 0.25 (not an f32) applied to (1, 2, 3, 1).
        let mut e = [0.0f64; 16];
        for i in 0..4 {
            e[5 * i] = 1.0;
        }
        e[12] = 1e9 + 0.25;
        let t = Df64Mat4::from_f64(e);
        let p = df64mat4_mul_vec4(&t, &Df64Vec4::from_f64([1.0, 2.0, 3.0, 1.0]));
        assert_eq!(p.get(0).to_f64(), 1e9 + 1.25);
        assert_eq!(p.get(1).to_f64(), 2.0);
        let tt = df64mat4_mul(&t, &t);
        assert_eq!(tt.column(3).get(0).to_f64(), 2e9 + 0.5);
        assert_eq!(tt.column(0).get(0).to_f64(), 1.0);
    }
}
