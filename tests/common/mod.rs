//! Shared set-up for the integration tests: a headless context on the default EGL device
//! (llvmpipe in CI) and a fresh probe of it.

#![allow(dead_code)]

use df64gl::gl::{DeviceChoice, GlContext};
use df64gl::kernels::Df64Kernels;
use df64gl::probe::{run_probe, ProbeReport};

pub fn context() -> GlContext {
    match GlContext::headless(&DeviceChoice::from_arg_or_env(None)) {
        Ok(c) => c,
        Err(e) => panic!("integration tests need an OpenGL device: {e}"),
    }
}

pub fn probed() -> (GlContext, ProbeReport) {
    let ctx = context();
    let report = run_probe(&ctx, 1 << 14).expect("probe runs");
    (ctx, report)
}

pub fn kernels() -> Df64Kernels {
    let (ctx, report) = probed();
    Df64Kernels::new(&ctx, &report).expect("the probe finds an exact configuration")
}

pub fn is_llvmpipe(ctx: &GlContext) -> bool {
    ctx.info().renderer.contains("llvmpipe")
}

/// The drivers on which the GPU's results are documented to equal the CPU mirror bit for bit
/// (docs/proof.md): Mesa's llvmpipe, softpipe and zink over lavapipe round every f32 `+ - * /`
/// and `sqrt` to nearest. Written here, not taken from the probe: on these the tests assert the
/// mirror comparison whatever the probe says, and `the_probe_agrees_with_the_documented_drivers`
/// fails if the probe's verdict differs. Elsewhere (a GPU, whose division or square root GLSL
/// lets be off by an ulp) the tests judge the bounds only.
pub const MIRROR_EXACT_DRIVERS: [&str; 3] = ["llvmpipe", "softpipe", "zink"];

/// Whether this context's driver is one of [`MIRROR_EXACT_DRIVERS`].
pub fn mirror_documented_exact(ctx: &GlContext) -> bool {
    let renderer = &ctx.info().renderer;
    MIRROR_EXACT_DRIVERS.iter().any(|d| renderer.contains(d))
}

/// Runs one of the crate's binaries (`env!("CARGO_BIN_EXE_...")`) as a user would, without a
/// DF64GL_DEVICE from the test's environment and with `env` added: (exit code, stdout,
/// stderr).
pub fn run_bin(exe: &str, args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let out = std::process::Command::new(exe)
        .args(args)
        .env_remove("DF64GL_DEVICE")
        .envs(env.iter().copied())
        .output()
        .unwrap_or_else(|e| panic!("{exe} runs: {e}"));
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Installs Debian packages with apt-get when this is root (the way this project's machines
/// run the tests: a fresh machine lacks Xvfb, lavapipe and Chromium); refreshes the package
/// lists and tries again when the first attempt fails. False when not root or on failure.
pub fn apt_install(packages: &[&str]) -> bool {
    let root = std::process::Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    if !root {
        eprintln!(
            "{} missing and this is not root: not installing",
            packages.join(", ")
        );
        return false;
    }
    eprintln!("{} missing: installing with apt-get", packages.join(", "));
    let apt = |args: &[&str]| {
        std::process::Command::new("apt-get")
            .args(args)
            .env("DEBIAN_FRONTEND", "noninteractive")
            .stdout(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    let mut install = vec!["install", "-y", "-qq", "--no-install-recommends"];
    install.extend_from_slice(packages);
    apt(&install) || (apt(&["update", "-qq"]) && apt(&install))
}

/// The documented qf128 bound at every exponent (docs/accuracy-functions.md, "qf128 at every exponent"),
/// written here and not read from the library: |result - exact| <= T ulp96(exact) + C 2^-126
/// for exact results from 2^-126 up (and at most C 2^-126 below), as (T, C). T is each op's
/// bound near 1; C is the floor of error terms that fall below 2^-126 and are flushed (or
/// rounded as subnormals): the multiplies form partial products down to 2^-24 below their
/// trailing word and are not exponent-scaled, so theirs is larger.
#[allow(dead_code)]
pub fn qf128_exponent_bound(op: &str) -> (f64, f64) {
    match op {
        "add" | "sub" | "sqr" => (2.0, 4.0),
        "mul" | "mul_f32" | "mul_df64" => (2.0, 1024.0),
        "div" | "recip" | "sqrt" | "rsqrt" => (4.0, 4.0),
        "exp" | "log" | "sin" | "cos" => (8.0, 4.0),
        other => panic!("no qf128 exponent bound stated for {other}"),
    }
}

/// The documented df64 bounds (docs/glsl.md, README), written here and not read from the library
/// so that loosening the library's table cannot loosen a test: (max, RMS on Thall's ranges) in
/// ulp48 for the accurate defaults and the fast tier. Panics for an op without one: a test
/// that judges an op must state its bound.
pub fn df64_bound(op: &str) -> (f64, f64) {
    match op {
        "add" | "sub" | "mul" | "sqr" | "mul_f32" | "sqrt" => (0.5, 0.25),
        "div" | "recip" | "rsqrt" => (1.0, 0.25),
        "hypot" => (1.0, 0.25),
        "mul_fast" | "sqr_fast" | "mul_f32_fast" => (2.0, 0.5),
        // The fast add, subtract, quotient and root are the accurate cores (fast domain only).
        "add_fast" | "sub_fast" | "sqrt_fast" => (0.5, 0.25),
        "div_fast" => (1.0, 0.25),
        other => panic!("no df64 bound stated in the tests for {other}"),
    }
}

/// A test's verdict on one df64 result, by the domain's rules as docs/glsl.md states them,
/// written here and not taken from the library (`numeric::domain::judge` is the library's own
/// allowance, which a test must not borrow).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Judged {
    /// The exact result lies in 2^-100 to 2^126: the error in ulp48 beyond the flush allowance.
    InDomain(f64),
    /// Outside the domain and as the IEEE rules say.
    OutsideOk,
    /// Outside the domain and not as they say.
    OutsideWrong,
}

/// ulp48(x) = 2^(e-47) where 2^e <= |x| < 2^(e+1), from the bits of a normal f64.
pub fn ulp48_of(x: f64) -> f64 {
    let e = ((x.abs().to_bits() >> 52) & 0x7ff) as i32 - 1023;
    2f64.powi(e - 47)
}

/// Judges `got` against `exact` with the documented rules: in 2^-100 to 2^126 the error beyond
/// 2^-126 absolute where the driver flushes subnormals (2^-149 where it keeps them: the low
/// word cannot hold less) is measured in ulp48; outside, NaN only for a NaN exact value, ±inf (zero low word, right
/// sign) only past f32::MAX, an exact zero exactly, and otherwise within `bound` ulp48 beyond
/// the same allowance.
pub fn judge_result(
    got: df64gl::numeric::df64::Df64,
    exact: df64gl::numeric::reference::Dd,
    bound: f64,
    flush: bool,
) -> Judged {
    use df64gl::numeric::reference::Dd;
    let x = exact.to_f64();
    let verdict = |ok: bool| {
        if ok {
            Judged::OutsideOk
        } else {
            Judged::OutsideWrong
        }
    };
    if x.is_nan() || got.hi.is_nan() || got.lo.is_nan() {
        return verdict(x.is_nan() && got.hi.is_nan());
    }
    if got.hi.is_infinite() {
        let same_sign = (got.hi > 0.0) == (x > 0.0);
        return verdict(same_sign && got.lo == 0.0 && x.abs() > f32::MAX as f64);
    }
    if !x.is_finite() {
        return Judged::OutsideWrong;
    }
    // The smallest low word the driver keeps: 2^-126 where it flushes subnormals, the smallest
    // subnormal (2^-149) where it keeps them.
    let allowance = if flush {
        2f64.powi(-126)
    } else {
        2f64.powi(-149)
    };
    let diff = (Dd::from_df64(got) - exact).to_f64().abs();
    let beyond = (diff - allowance).max(0.0);
    if x == 0.0 {
        return verdict(diff == 0.0);
    }
    let ax = x.abs();
    if (2f64.powi(-100)..=2f64.powi(126)).contains(&ax) {
        Judged::InDomain(beyond / ulp48_of(x))
    } else {
        verdict(beyond <= bound * ulp48_of(x))
    }
}

/// The bound of each vector and matrix routine as the tests state it, with its unit (the same
/// unit names as the library's reports): component-wise operations as the scalar ones in
/// ulp48; dot, cross and matrix products within n times 2^-48 the sum of the magnitudes of the
/// products (n terms; the recursive-summation bound with the double-word operations' 2^-48);
/// length (N + 1) / 2 ulp48; to_f32 the nearest f32 (0.5 ulp24), normalize and relative_to_eye
/// within a hair of it; the transforms that apply an f32 matrix 4 (transform_point) and 5
/// (world_to_view) times 2^-24 the products' magnitudes plus 2^-48 of the result. Panics for a
/// routine without one.
pub fn vec_bound(name: &str) -> (&'static str, f64) {
    let n = |s: &str| -> f64 {
        match s.as_bytes().get(3) {
            Some(b'2') => 2.0,
            Some(b'3') => 3.0,
            Some(b'4') => 4.0,
            _ => panic!("no size in {s}"),
        }
    };
    let op = name.split_once('_').map_or("", |(_, op)| op);
    match (name, op) {
        (_, "add" | "sub" | "mul" | "mul_f32") if name.starts_with("vec") => ("ulp48", 0.5),
        (_, "neg") => ("ulp48", 0.0),
        (_, "dot") => ("2^-48 sum|p|", n(name) * (1.0 + 1e-9)),
        (_, "length") => ("ulp48", (n(name) + 1.0) / 2.0),
        (_, "normalize") => ("ulp24", 0.5 + 2f64.powi(-21)),
        (_, "to_f32") => ("ulp24", 0.5),
        ("vec3_cross", _) => ("2^-48 sum|p|", 2.0 * (1.0 + 1e-9)),
        ("mat4_mul_vec4" | "mat4_mul", _) => ("2^-48 sum|p|", 4.0 * (1.0 + 1e-9)),
        ("transform_point", _) => ("2^-24 sum|p| + 2^-48|x|", 4.0001),
        ("relative_to_eye", _) => ("ulp24", 0.5 + 2f64.powi(-22)),
        ("world_to_view", _) => ("2^-24 sum|p| + 2^-48|x|", 5.0001),
        _ => panic!("no bound stated in the tests for the vector routine {name}"),
    }
}

/// The exact components of vector routine `name` on the flat operands `x` (laid out as the
/// routine's parameters: vectors component by component, matrices column by column), in
/// double-double, and per component the sum of the magnitudes of its products (for the sum
/// units). Computed here from the definitions, not from the library's catalog.
pub fn vec_reference(
    name: &str,
    x: &[df64gl::numeric::df64::Df64],
) -> (Vec<df64gl::numeric::reference::Dd>, Vec<f64>) {
    use df64gl::numeric::reference::Dd;
    let d = |i: usize| Dd::from_df64(x[i]);
    let f = |i: usize| x[i].to_f64();
    let dot = |a: &[usize], b: &[Dd]| -> (Dd, f64) {
        let mut s = Dd::from_f64(0.0);
        let mut t = 0.0;
        for (i, bj) in a.iter().zip(b) {
            s = s + d(*i) * *bj;
            t += (f(*i) * bj.to_f64()).abs();
        }
        (s, t)
    };
    let row = |base: usize, r: usize| -> Vec<usize> { (0..4).map(|c| base + 4 * c + r).collect() };
    let size = |s: &str| s.as_bytes().get(3).map_or(0, |b| (b - b'0') as usize);
    // "vecN_op" for the sized routines; the others by their whole name.
    let op = if name.starts_with("vec") && name != "vec3_cross" {
        name.split_once('_').map_or("", |(_, op)| op)
    } else {
        ""
    };
    let n = size(name);
    match (name, op) {
        (_, "add" | "sub") => (
            (0..n)
                .map(|i| {
                    if op == "add" {
                        d(i) + d(n + i)
                    } else {
                        d(i) - d(n + i)
                    }
                })
                .collect(),
            vec![0.0; n],
        ),
        (_, "neg") => ((0..n).map(|i| -d(i)).collect(), vec![0.0; n]),
        (_, "mul" | "mul_f32") => ((0..n).map(|i| d(i) * d(n)).collect(), vec![0.0; n]),
        (_, "to_f32") => ((0..n).map(d).collect(), vec![0.0; n]),
        (_, "dot") => {
            let (s, t) = dot(
                &(0..n).collect::<Vec<_>>(),
                &(n..2 * n).map(d).collect::<Vec<_>>(),
            );
            (vec![s], vec![t])
        }
        (_, "length" | "normalize") => {
            let (s, _) = dot(
                &(0..n).collect::<Vec<_>>(),
                &(0..n).map(d).collect::<Vec<_>>(),
            );
            let len = s.sqrt();
            if op == "length" {
                (vec![len], vec![0.0])
            } else {
                ((0..n).map(|i| d(i) / len).collect(), vec![0.0; n])
            }
        }
        ("vec3_cross", _) => {
            let pair = |j: usize, k: usize| {
                (
                    d(j) * d(3 + k) - d(k) * d(3 + j),
                    (f(j) * f(3 + k)).abs() + (f(k) * f(3 + j)).abs(),
                )
            };
            let c = [pair(1, 2), pair(2, 0), pair(0, 1)];
            (
                c.iter().map(|p| p.0).collect(),
                c.iter().map(|p| p.1).collect(),
            )
        }
        ("mat4_mul_vec4", _) => {
            let v: Vec<Dd> = (16..20).map(d).collect();
            let rows: Vec<(Dd, f64)> = (0..4).map(|r| dot(&row(0, r), &v)).collect();
            (
                rows.iter().map(|p| p.0).collect(),
                rows.iter().map(|p| p.1).collect(),
            )
        }
        ("mat4_mul", _) => {
            let e: Vec<(Dd, f64)> = (0..16)
                .map(|k| {
                    dot(
                        &row(0, k % 4),
                        &(0..4).map(|j| d(16 + 4 * (k / 4) + j)).collect::<Vec<_>>(),
                    )
                })
                .collect();
            (
                e.iter().map(|p| p.0).collect(),
                e.iter().map(|p| p.1).collect(),
            )
        }
        ("transform_point", _) => {
            let p: Vec<Dd> = vec![d(19), d(20), d(21), Dd::from_f64(1.0)];
            let r: Vec<(Dd, f64)> = (0..3).map(|i| dot(&row(0, i), &p)).collect();
            (
                (0..3).map(|i| r[i].0 + d(16 + i)).collect(),
                r.iter().map(|p| p.1).collect(),
            )
        }
        ("relative_to_eye", _) => ((0..3).map(|i| d(i) - d(3 + i)).collect(), vec![0.0; 3]),
        ("world_to_view", _) => {
            let mut v: Vec<Dd> = (0..3).map(|i| d(19 + i) - d(16 + i)).collect();
            v.push(Dd::from_f64(1.0));
            let r: Vec<(Dd, f64)> = (0..4).map(|i| dot(&row(0, i), &v)).collect();
            (
                r.iter().map(|p| p.0).collect(),
                r.iter().map(|p| p.1).collect(),
            )
        }
        _ => panic!("no reference stated in the tests for the vector routine {name}"),
    }
}

/// The size of the unit `unit` (as [`vec_bound`] names it) at a component of exact value `x`
/// whose products sum to `terms` in magnitude.
pub fn vec_unit_size(unit: &str, x: f64, terms: f64) -> f64 {
    let e = ((x.abs().to_bits() >> 52) & 0x7ff) as i32 - 1023;
    match unit {
        "ulp48" => 2f64.powi(e - 47),
        "ulp24" => 2f64.powi(e - 23),
        "2^-48 sum|p|" => 2f64.powi(-48) * terms,
        "2^-24 sum|p| + 2^-48|x|" => 2f64.powi(-24) * terms + 2f64.powi(-48) * x.abs(),
        other => panic!("no unit {other} in the tests"),
    }
}

/// Operands for one evaluation of vector routine `row` (its parameter shapes from the catalog,
/// the values drawn here): class 0 near 1, 1 from 1e6 to 1e9, 2 nearly cancelling (the second
/// vector the first times 1 + 2^-40..2^-10, a dot product's last term cancelling the others,
/// the eye next to the position), 3 planet scale (2^22), 4 exponents 2^-40 to 2^40.
pub fn vec_operands<R: rand::Rng>(
    row: &df64gl::numeric::vec_catalog::VecOpRow,
    class: usize,
    rng: &mut R,
) -> Vec<df64gl::numeric::df64::Df64> {
    use df64gl::numeric::df64::Df64;
    use df64gl::numeric::domain::operand_at_exponent;
    use df64gl::numeric::vec_catalog::VecShape;
    let (lo, hi) = [(-2, 1), (20, 30), (-2, 2), (22, 22), (-40, 40)][class % 5];
    fn number<R: rand::Rng>(rng: &mut R, lo: i32, hi: i32, f32_only: bool) -> Df64 {
        let k = rng.gen_range(lo..=hi);
        let d = operand_at_exponent(rng, k, false);
        if f32_only {
            Df64::new(d.hi, 0.0)
        } else {
            d
        }
    }
    fn nearby<R: rand::Rng>(rng: &mut R, v: Df64) -> Df64 {
        let k = rng.gen_range(-40..=-10);
        let eps = if rng.gen() {
            2f64.powi(k)
        } else {
            -(2f64.powi(k))
        };
        Df64::from_f64(v.to_f64() * (1.0 + eps))
    }
    let mut x = Vec::new();
    for shape in row.inputs {
        match shape {
            VecShape::F32Mat4 => {
                for k in 0..16 {
                    x.push(match k {
                        15 => Df64::ONE,
                        3 | 7 | 11 => Df64::ZERO,
                        12..=14 => number(rng, -4, 6, true),
                        _ => number(rng, -3, 1, true),
                    });
                }
            }
            VecShape::F32Vec(n) => (0..*n).for_each(|_| x.push(number(rng, -4, 7, true))),
            VecShape::F32 => x.push(number(rng, -3, 3, true)),
            s => (0..s.numbers()).for_each(|_| x.push(number(rng, lo, hi, false))),
        }
    }
    if class % 5 == 2 || class % 5 == 3 {
        let name = row.name;
        let first = row.inputs.first().map_or(0, |s| s.numbers());
        if name.ends_with("_add")
            || name.ends_with("_sub")
            || name.ends_with("_cross")
            || name == "relative_to_eye"
        {
            for i in 0..first {
                let b = nearby(rng, x[i]);
                x[first + i] = if name.ends_with("_add") { -b } else { b };
            }
        } else if name == "world_to_view" {
            for i in 0..3 {
                x[19 + i] = nearby(rng, x[16 + i]);
            }
        } else if name.ends_with("_dot") {
            let n = first;
            let partial: f64 = (0..n - 1).map(|i| x[i].to_f64() * x[n + i].to_f64()).sum();
            x[2 * n - 1] = Df64::from_f64(-partial / x[n - 1].to_f64());
        }
    }
    x
}

/// Every vector and matrix routine of the export for `target` on `ctx`, in the vertex and the
/// fragment stage, on `evaluations` operand sets each (drawn by [`vec_operands`], all five
/// classes): every component within the bound of [`vec_bound`] against [`vec_reference`],
/// beyond 2^-122 absolute; on the drivers of [`MIRROR_EXACT_DRIVERS`], equal to the CPU mirror
/// bit for bit. Returns one report line per routine (worst per stage).
pub fn assert_vector_sweep(
    ctx: &GlContext,
    target: df64gl::export::snippet::SnippetTarget,
    evaluations: usize,
) -> Vec<String> {
    use df64gl::export::context_check::{run_vec_routine, Stages};
    use df64gl::export::snippet::SnippetOptions;
    use rand::SeedableRng;
    let options = SnippetOptions::new(target);
    let exact_mirror = mirror_documented_exact(ctx);
    let mut report = Vec::new();
    for (k, row) in df64gl::numeric::vec_catalog::vec_ops().iter().enumerate() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3900 + k as u64);
        let operands: Vec<Vec<df64gl::numeric::df64::Df64>> = (0..evaluations)
            .map(|e| vec_operands(row, e, &mut rng))
            .collect();
        let flat: Vec<_> = operands.iter().flatten().copied().collect();
        // SAFETY: the context is current on this thread (the test made it).
        let run = unsafe { run_vec_routine(ctx.gl(), &options, row, &flat, Stages::BOTH) }
            .unwrap_or_else(|e| panic!("{}: {e}", row.name));
        let (unit, bound) = vec_bound(row.name);
        assert_eq!(
            row.unit.label(),
            unit,
            "{}: the library states another unit",
            row.name
        );
        let n_out = row.output_numbers();
        let mut line = format!("{:<16}", row.name);
        for (stage, got) in [("vertex", &run.vertex), ("fragment", &run.fragment)] {
            assert_eq!(got.len(), evaluations * n_out, "{} {stage}", row.name);
            let mut worst = 0.0f64;
            for (e, x) in operands.iter().enumerate() {
                let (exact, terms) = vec_reference(row.name, x);
                let mirror = (row.mirror)(x);
                for i in 0..n_out {
                    let g = got[e * n_out + i];
                    let diff = (df64gl::numeric::reference::Dd::from_df64(g) - exact[i])
                        .to_f64()
                        .abs();
                    let beyond = (diff - 2f64.powi(-122)).max(0.0);
                    let err = if beyond == 0.0 {
                        0.0
                    } else {
                        beyond / vec_unit_size(unit, exact[i].to_f64(), terms[i])
                    };
                    assert!(
                        err <= bound,
                        "{} {stage}: {err} {unit} > {bound} on {x:?} component {i}: got {g:?}, exact {}",
                        row.name,
                        exact[i].to_f64()
                    );
                    worst = worst.max(err);
                    if exact_mirror {
                        assert!(
                            df64gl::numeric::domain::same_words(g, mirror[i]),
                            "{} {stage}: {g:?} differs from the mirror's {:?} on {x:?}",
                            row.name,
                            mirror[i]
                        );
                    }
                }
            }
            line.push_str(&format!(" {stage} {worst:.4}"));
        }
        line.push_str(&format!(" {unit} (bound {bound:.4})"));
        report.push(line);
    }
    report
}

/// How many of a df64 routine's known answers may differ from the CPU mirror's stored words on a
/// driver that flushes subnormals (the stored words come from the mirror run keeping them):
/// those whose stored result holds a subnormal word, which such a driver returns as 0 (counted
/// here from the embedded known answers; measured: recip, cos and cos_fast), and one more, for
/// a subnormal intermediate that moves the last bit of a normal low word (measured: sin at
/// -1.5e32, whose reduced argument's square has subnormal partial products). Panics for a
/// routine without known answers.
pub fn flushable_mirror_cases(name: &str) -> usize {
    1 + subnormal_mirror_cases(name)
}

/// How many of a df64 routine's known answers hold a subnormal word in the CPU mirror's stored
/// result. Panics for a routine without known answers.
pub fn subnormal_mirror_cases(name: &str) -> usize {
    let known = df64gl::export::known::known_answers().expect("the embedded known answers");
    let set = &known.df64;
    let mut first = 0;
    for r in &set.routines {
        if r.name == name {
            return (first..first + r.cases)
                .filter_map(|c| set.case(c))
                .filter(|c| {
                    c.mirror
                        .iter()
                        .any(|w| *w != 0.0 && w.abs() < f32::MIN_POSITIVE)
                })
                .count();
        }
        first += r.cases;
    }
    panic!("no known answers for {name}")
}

/// The bound of each known-answer routine (`check`, `checkWebGPU`, `check_wgpu`) as the tests
/// state it, not the module's: add/sub/mul/sqr/sqrt 0.5 ulp48, div/recip/rsqrt 1, hypot 1.5,
/// the fast tier 0.5 to 2 (its sin and cos 4), functions 1 to 2 (pow 4 + |y ln x|), exact operations 0. Panics for a
/// routine without one: a routine this file states no bound for fails rather than passing.
pub fn known_answer_bound(name: &str) -> f64 {
    match name {
        "add" | "sub" | "mul" | "sqr" | "mul_f32" | "sqrt" | "add_unscaled" | "mul_unscaled"
        | "sqrt_unscaled" => 0.5,
        "div" | "recip" | "rsqrt" | "div_unscaled" => 1.0,
        "hypot" => 1.5,
        "mul_fast" | "sqr_fast" | "mul_f32_fast" | "exp_fast" | "log_fast" => 2.0,
        "add_fast" | "sub_fast" | "sqrt_fast" => 0.5,
        "div_fast" => 1.0,
        "sin_fast" | "cos_fast" => 4.0,
        "exp" | "expm1" | "log" | "log1p" | "sin" | "cos" | "fmod" | "remainder" => 1.0,
        "log2" | "log10" | "tan" | "atan" | "atan2" | "asin" | "acos" | "sinh" | "cosh"
        | "tanh" => 2.0,
        "pow" => 2.0,
        // powi's known answers take |n| <= 8: at most |n| + 1 = 9.
        "powi" => 9.0,
        "neg" | "abs" | "min" | "max" | "eq" | "neq" | "lt" | "le" | "gt" | "ge" | "ldexp"
        | "floor" | "ceil" | "round" | "trunc" | "frexp" | "frexp_exp" | "add12" | "mul12" => 0.0,
        other => panic!("no bound stated in the tests for the df64 routine {other}"),
    }
}

/// The qf128 known-answer bounds in ulp96 as the tests state them (docs/glsl.md): add, sub,
/// the products 2; div, recip, sqrt, rsqrt 4; exp, log, sin, cos 8.
pub fn qf128_known_answer_bound(name: &str) -> f64 {
    match name {
        "add" | "sub" | "mul" | "sqr" | "mul_f32" | "mul_df64" => 2.0,
        "div" | "recip" | "sqrt" | "rsqrt" => 4.0,
        "exp" | "log" | "sin" | "cos" => 8.0,
        other => panic!("no bound stated in the tests for the qf128 routine {other}"),
    }
}

/// `n` complex values with real and imaginary parts uniform in (-scale, scale), seeded.
pub fn random_signal(n: usize, seed: u64, scale: f64) -> Vec<rustfft::num_complex::Complex64> {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    (0..n)
        .map(|_| {
            rustfft::num_complex::Complex64::new(
                rng.gen_range(-1.0..1.0) * scale,
                rng.gen_range(-1.0..1.0) * scale,
            )
        })
        .collect()
}

/// ||a - b|| / ||b||, on values divided by `unit` (1 for data near 1) so no square overflows.
pub fn rel_l2(
    a: &[rustfft::num_complex::Complex64],
    b: &[rustfft::num_complex::Complex64],
    unit: f64,
) -> f64 {
    let (mut num, mut den) = (0.0, 0.0);
    for (x, y) in a.iter().zip(b) {
        num += ((x - y) / unit).norm_sqr();
        den += (y / unit).norm_sqr();
    }
    (num / den).sqrt()
}
