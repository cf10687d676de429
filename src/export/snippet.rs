//! df64 GLSL for other people's renderers: one self-contained file per GLSL target (df64 core
//! and functions, qf128 optional) with its configuration written out, and a tiny probe shader
//! that paints green where the driver keeps the error-free transforms exact and red where not.
//!
//! Where GLSL has `precise` (4.00+), the file uses it. GLSL 3.30 gets `precise` through
//! GL_ARB_gpu_shader5 where the driver has it, chosen by the preprocessor; otherwise (and always
//! for GLSL ES 3.00, which has no such extension) every operation of the routines passes
//! through the bit-level barrier of [`crate::export::insert_barriers`], whose uniform `u_df64_zero` may stay
//! at its default 0. The earlier barrier, a multiply by a uniform `u_df64_one` around each
//! statement, was defeated by Mesa's factoring of common multipliers (see that module).

use crate::gl::{Framebuffer, GlContext, GlError, GlslLibrary, Pass, Program, Texture};
use astro_float::BigFloat;

use crate::numeric::catalog::{Df64Op, Tier};
use crate::numeric::df64::Df64;
use crate::numeric::domain::{DF64_DOMAIN_LOG2, FAST_TRIG_ARGUMENT_LOG2, UNSCALED_DOMAIN_LOG2};
use crate::numeric::oracle::{big, big_df64, round_to_df64, to_f64, Oracle};
use crate::numeric::reference::ulp48;

/// The GLSL dialect the snippet is written for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum SnippetTarget {
    /// `#version 330 core`: `precise` through GL_ARB_gpu_shader5, else the bit-level barrier.
    #[cfg_attr(feature = "clap", value(name = "330"))]
    Glsl330,
    /// `#version 450 core`: `precise`.
    #[cfg_attr(feature = "clap", value(name = "450"))]
    Glsl450,
    /// `#version 300 es` (WebGL 2, GLES 3.0): no `precise`; the bit-level barrier.
    #[cfg_attr(feature = "clap", value(name = "es300"))]
    Es300,
}

impl SnippetTarget {
    /// The `#version` line of this dialect.
    pub fn version_line(self) -> &'static str {
        match self {
            SnippetTarget::Glsl330 => "#version 330 core",
            SnippetTarget::Glsl450 => "#version 450 core",
            SnippetTarget::Es300 => "#version 300 es",
        }
    }

    /// Whether the dialect has `precise` in its core (GLSL 4.00+).
    pub fn has_precise(self) -> bool {
        self == SnippetTarget::Glsl450
    }

    /// GLSL ES (WebGL 2, OpenGL ES 3.0).
    pub fn is_es(self) -> bool {
        self == SnippetTarget::Es300
    }
}

/// What the exported file holds and for which dialect.
#[derive(Debug, Clone, Copy)]
pub struct SnippetOptions {
    /// The GLSL dialect.
    pub target: SnippetTarget,
    /// df64_func.glsl (exp, log, trigonometry, ...).
    pub functions: bool,
    /// qf128.glsl.
    pub qf128: bool,
    /// Keep the `precise`-free fallback off even where the target lacks `precise` (only to show
    /// what goes wrong: the probe shader then fails on drivers that fold).
    pub no_fallback: bool,
}

impl SnippetOptions {
    /// df64 core and functions for `target`, without qf128, with the fallback where needed.
    pub fn new(target: SnippetTarget) -> Self {
        SnippetOptions {
            target,
            functions: true,
            qf128: false,
            no_fallback: false,
        }
    }
}

/// The modules' text one after the other (each plain GLSL), comments kept.
fn concatenate(names: &[&str]) -> Result<String, GlError> {
    let lib = GlslLibrary::builtin();
    let mut out = String::new();
    for name in names {
        let text = lib.get(name).ok_or_else(|| GlError::ModuleNotFound {
            name: name.to_string(),
            from: "df64gl glsl".into(),
            known: lib.names().collect::<Vec<_>>().join(", "),
        })?;
        out.push_str(&format!(
            "\n// ================================================================ {name}\n"
        ));
        out.push_str(text);
        if !text.ends_with('\n') {
            out.push('\n');
        }
    }
    Ok(out)
}

/// The self-contained file: paste it after your `#version` line (and, for ES, your precision
/// statements) and before code that calls df64.
///
/// ```
/// use df64gl::export::snippet::{probe_shader, snippet, SnippetOptions, SnippetTarget};
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// // What `df64gl glsl --target es300` prints, for a WebGL 2 shader.
/// let options = SnippetOptions::new(SnippetTarget::Es300);
/// let glsl = snippet(&options)?;
/// assert!(glsl.contains("vec2 df64_mul(") && !glsl.contains("#include"));
/// // A complete fragment shader that paints green where the driver keeps df64 exact.
/// let probe = probe_shader(&options)?;
/// assert!(probe.starts_with("#version 300 es"));
/// # Ok(())
/// # }
/// ```
pub fn snippet(options: &SnippetOptions) -> Result<String, GlError> {
    let mut names = vec!["df64.glsl", "df64_vec.glsl"];
    if options.functions {
        names.push("df64_func.glsl");
    }
    if options.qf128 {
        names.push("qf128.glsl");
    }
    let target = options.target;
    let body = concatenate(&names)?;
    let body = if target.is_es() {
        tables_as_globals(&body)
    } else {
        body
    };
    let fallback = !target.has_precise() && !options.no_fallback;
    let mut out = format!(
        "// df64 for GLSL, generated by `df64gl glsl --target {}` ({}): {}.\n\
         // Paste after `{}`{}. Test your driver with `df64gl glsl --target {} --probe`.\n\
         // Domain: {}\n",
        match target {
            SnippetTarget::Glsl330 => "330",
            SnippetTarget::Glsl450 => "450",
            SnippetTarget::Es300 => "es300",
        },
        env!("CARGO_PKG_VERSION"),
        names.join(" + "),
        target.version_line(),
        if target.is_es() {
            " (it sets `precision highp float; precision highp int;` itself)"
        } else {
            ""
        },
        match target {
            SnippetTarget::Glsl330 => "330",
            SnippetTarget::Glsl450 => "450",
            SnippetTarget::Es300 => "es300",
        },
        domain_line(),
    );
    if target.is_es() {
        // The routines need highp integers as much as highp floats: measured, in a host that
        // leaves int at its fragment default (mediump; luma.gl's shader assembler does), mul,
        // div, sqrt and exp are wrong on ANGLE over Mesa. These hold for the code after them.
        out.push_str(
            "// highp for these routines and the code after them (ints too: with mediump ints, \
             mul, div, sqrt and exp were measured wrong on ANGLE over Mesa).\n\
             // The tables the routines index at run time (DF64_EXP2_TABLE, ...) are plain \
             globals, not const, here: ANGLE in Chromium 148 copies a const array at every \
             run-time index (exp cost 3x on SwiftShader). Never write to them.\n\
             precision highp float;\nprecision highp int;\n",
        );
    }
    if target.has_precise() {
        out.push_str("#define DF64_PRECISE precise\n#define DF64_TWOPROD_FMA 0\n");
        out.push_str(&body);
        return Ok(out);
    }
    out.push_str("#define DF64_TWOPROD_FMA 0\n");
    if !fallback {
        out.push_str("#define DF64_PRECISE\n");
        out.push_str(&body);
        return Ok(out);
    }
    if target == SnippetTarget::Glsl330 {
        // `precise` where the driver has GL_ARB_gpu_shader5 (an unknown extension only warns
        // with `enable`); the bit-level barrier where it has not.
        out.push_str(
            "#extension GL_ARB_gpu_shader5 : enable\n\
             #ifdef GL_ARB_gpu_shader5\n\
             #define DF64_PRECISE precise\n\
             #else\n\
             #define DF64_PRECISE\n\
             #define DF64_BARRIER 1\n\
             #endif\n",
        );
    } else {
        // With the bit-level barrier Knuth's TwoSum (three barriers, no selects) measured
        // cheaper than the sorted one on SwiftShader and the same on ANGLE over Mesa.
        out.push_str(
            "#define DF64_PRECISE\n#define DF64_BARRIER 1\n#define DF64_TWO_SUM_KNUTH 1\n",
        );
    }
    out.push_str(&body);
    Ok(out)
}

/// The tables the routines index at run time (the modules declare them `const`).
const RUN_TIME_TABLES: [&str; 10] = [
    "DF64_TWO_OVER_PI_DIGITS",
    "DF64_EXP2_TABLE",
    "DF64_LOG_TABLE",
    "DF64_ATAN_TABLE",
    "DF64_INV_FACT",
    "DF64_INV_ODD",
    "QF128_EXP2_TABLE",
    "QF128_LOG_TABLE",
    "QF128_INV_FACT",
    "QF128_INV_ODD",
];

/// The GLSL ES export declares the tables the routines index at run time as plain globals
/// (initialised with the same literals, never written), not `const`: ANGLE in Chromium 148 reads
/// a `const` array at a run-time index through a copy of the whole array, and on SwiftShader
/// the accurate exp, log, sin and cos cost 2.1 to 3.1 times as much that way (161 against 52 ns
/// for exp, one page run), their fast tier 2.4 to 4.1 times. The small constants stay `const`
/// (a caller's constant expressions may use them).
fn tables_as_globals(body: &str) -> String {
    let mut out = body.to_string();
    for name in RUN_TIME_TABLES {
        for ty in ["float", "int"] {
            out = out.replace(&format!("\nconst {ty} {name}["), &format!("\n{ty} {name}["));
        }
    }
    out
}

/// The names of the functions `source` defines at its top level (overloads once), sorted; none
/// where its braces do not balance.
pub fn defined_functions(source: &str) -> Vec<String> {
    let mut names: Vec<String> = crate::glsl_text::slice::function_index(source)
        .map(|index| index.function_names().map(str::to_string).collect())
        .unwrap_or_default();
    names.sort();
    names
}

/// An export without its comments but for the comment lines it opens with (what it is, its
/// domain, its configuration), each line without its indentation or trailing spaces, and no
/// blank lines: the same program in about three fifths of the bytes (the npm module's strings,
/// which every page that loads them fetches). Preprocessor lines stay whole.
pub fn compact_glsl(text: &str) -> String {
    let mut header_end = 0;
    for line in text.split_inclusive('\n') {
        let t = line.trim();
        if !(t.is_empty() || t.starts_with("//")) {
            break;
        }
        header_end += line.len();
    }
    let mut out = text[..header_end].to_string();
    for line in crate::glsl_text::uncommented(&text[header_end..]).lines() {
        let line = line.trim();
        if !line.is_empty() {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// The header's statement of the bounds, from the catalog: the accurate defaults grouped by
/// bound, the domain, the fast tier and the unscaled variants.
pub(crate) fn domain_line() -> String {
    let tier_bounds = |tier: Tier| {
        let mut groups: Vec<(f64, Vec<&str>)> = Vec::new();
        for op in Df64Op::ALL.into_iter().filter(|op| op.tier() == tier) {
            let max = op.bound().max_ulp48().unwrap_or(f64::NAN);
            match groups.iter_mut().find(|(m, _)| *m == max) {
                Some((_, names)) => names.push(op.name()),
                None => groups.push((max, vec![op.name()])),
            }
        }
        groups
    };
    let accurate = tier_bounds(Tier::Accurate)
        .iter()
        .enumerate()
        .map(|(i, (max, names))| {
            let unit = if i == 0 { " ulp48" } else { "" };
            format!("{} within {max}{unit}", names.join("/"))
        })
        .collect::<Vec<_>>()
        .join(", ");
    let fast = tier_bounds(Tier::Fast)
        .iter()
        .map(|(max, names)| {
            let calls: Vec<String> = names.iter().map(|n| format!("df64_{n}")).collect();
            format!("{} within {max} ulp48", calls.join(", "))
        })
        .collect::<Vec<_>>()
        .join("; ");
    let (lo, hi) = DF64_DOMAIN_LOG2;
    let fast_lo = UNSCALED_DOMAIN_LOG2.0;
    format!(
        "{accurate}, for results of magnitude 2^{lo} to 2^{hi} (plus 2^-126 absolute where \
         subnormals are flushed); ±0, ±inf, NaN as IEEE outside; the fast tier ({fast}), no \
         scaling and no IEEE special values, for operands and results of magnitude 2^{fast_lo} \
         to 2^{hi} or zero (exp and log: results and arguments from 2^{lo}; sin and cos: \
         arguments up to 2^{FAST_TRIG_ARGUMENT_LOG2}); the *_unscaled variants only from \
         2^{fast_lo}."
    )
}

/// The probe fragment shader, part 1: each pixel checks twoSum, twoDiff, split and Dekker's
/// twoProd on inputs made from its coordinates (so nothing folds at compile time) against
/// values known exactly.
const PROBE_TRANSFORMS: &str = "
// ================================================================ df64 probe
// Green where this driver computes df64 correctly, red where it does not. Part 1: the
// error-free transforms on inputs from gl_FragCoord (unknown to the compiler), whose error
// terms are known exactly (see the comments). Part 2: the library's routines on baked answers
// from a correctly rounded oracle, each pixel one case picked by its coordinates, plus the
// same routines on literal arguments, which a compiler may evaluate at compile time. Any stage:
// the check also runs df64_probe_pixel in a vertex shader, on coordinates from gl_VertexID.

bool df64_probe_transforms(vec2 coord) {
    float i = floor(coord.x) + 2.0;            // 2, 3, 4, ...
    float k = mod(floor(coord.y), 64.0) + 1.0; // 1 .. 64
    // twoSum(i, k 2^-30): k 2^-30 <= 2^-24 is at most half an ulp of i >= 2 on either side
    // (a tie rounds to the even i), so s = i and e = k 2^-30.
    float small = k * 9.313225746154785e-10;
    vec2 s = df64_two_sum(i, small);
    bool ok = s.x == i && s.y == small;
    // twoDiff(i, k 2^-30): s = i, e = -k 2^-30.
    vec2 d = df64_two_diff(i, small);
    ok = ok && d.x == i && d.y == -small;
    // split: hi + lo == b exactly.
    float a = 1.0 + k * 2.44140625e-4;         // 1 + k 2^-12, exact
    float b = a * 1.000244140625;              // a (1 + 2^-12), rounded
    vec2 h = df64_split(b);
    ok = ok && h.x + h.y == b;
    // twoProd(a, a) = 1 + k 2^-11 + k^2 2^-24: the last term is below the f32 ulp (2^-23)
    // when k is odd, so the error term is +-2^-24 then, and 0 when k is even.
    vec2 p = df64_two_prod(a, a);
    bool odd = mod(k, 2.0) == 1.0;
    ok = ok && (odd ? abs(p.y) == 5.9604644775390625e-8 : p.y == 0.0);
    return ok;
}

// lo <= got <= hi, where lo and hi are the df64 ends of the documented bound around the
// oracle's value, computed on the CPU: compared word by word, with no arithmetic of the family
// under test. got must be canonical (|got.y| at most half an ulp of got.x, a quarter below a
// power of two), where the order of the words is the order of the values; NaN fails.
bool df64_probe_within(vec2 got, vec2 lo, vec2 hi) {
    int bits = floatBitsToInt(abs(got.x));
    float half_ulp = intBitsToFloat(bits & 0x7f800000) * 5.9604644775390625e-8;
    if ((bits & 0x007fffff) == 0 && sign(got.y) == -sign(got.x)) half_ulp *= 0.5;
    bool canonical = abs(got.y) <= half_ulp;
    bool above = got.x > lo.x || (got.x == lo.x && got.y >= lo.y);
    bool below = got.x < hi.x || (got.x == hi.x && got.y <= hi.y);
    return canonical && above && below;
}
";

/// One baked probe case: routine, operands and the df64 ends of the interval the result must
/// lie in (the oracle's value within the routine's documented bound).
struct ProbeCase {
    op: usize,
    a: Df64,
    b: Df64,
    lo: Df64,
    hi: Df64,
}

/// The routines the probe shader checks, by index into its dispatch (the first five without
/// the functions); their calls, oracles and bounds come from the catalog.
const PROBE_OPS: [Df64Op; 9] = [
    Df64Op::Add,
    Df64Op::Sub,
    Df64Op::Mul,
    Df64Op::Div,
    Df64Op::Sqrt,
    Df64Op::Exp,
    Df64Op::Log,
    Df64Op::Sin,
    Df64Op::Cos,
];

/// The canonical df64 nearest `x`, moved by whole df64 steps until it lies on the `up` side of
/// `x` (at or above it when `up`), so the interval [lo, hi] never admits more than the bound.
fn df64_on_side(x: &BigFloat, up: bool) -> Df64 {
    let canonical = |d: Df64| crate::numeric::df64::df64_quick_two_sum(d.hi, d.lo);
    let mut d = canonical(round_to_df64(x));
    for _ in 0..4 {
        let v = big_df64(d);
        let ok = if up { v >= *x } else { v <= *x };
        if ok || !d.hi.is_finite() {
            break;
        }
        let lo = if up { d.lo.next_up() } else { d.lo.next_down() };
        d = canonical(Df64::new(d.hi, lo));
    }
    d
}

fn df64_of(x: f64, lo_fraction: f64) -> Df64 {
    // x's nearest f32 plus a low word that uses its full 24 bits.
    let hi = x as f32;
    let ulp = crate::numeric::reference::ulp_bits(hi as f64, 23);
    crate::numeric::df64::df64_quick_two_sum(hi, (lo_fraction * ulp) as f32)
}

/// Cases with full low words and the hard spots: cancellation, quotients and roots near 1,
/// exp near its table points and far out, log near 1 and of tiny values, sin and cos next to
/// multiples of pi/2 and at large arguments (argument reduction).
fn probe_cases(functions: bool) -> Vec<ProbeCase> {
    use std::f64::consts::{FRAC_PI_2, FRAC_PI_4, LN_2, PI, TAU};
    let mut o = Oracle::new();
    let raw: Vec<(usize, f64, f64, f64, f64)> = vec![
        (0, FRAC_PI_4, 0.31, 0.1234567890123, -0.27),
        (0, 1.0000001, 0.45, -1.0, 0.0), // cancellation: only the low words remain
        (0, 3.0e-5, -0.49, 2.5e3, 0.37),
        (1, 1.0, 0.25, 0.99999994, -0.4),
        (1, -0.3333333333, 0.11, 0.6666666666, 0.42),
        (2, 1.1, 0.3, 0.9090909090909, -0.33),
        (2, -PI, 0.41, 1.0e-3, 0.29),
        (2, 0.99999994, 0.49, 1.00000012, -0.49),
        (3, 1.0, 0.0, 3.0, 0.0),
        (3, 0.7, 0.37, -0.13, 0.21),
        (3, 1.0e10, 0.17, 7.0e-3, -0.45),
        (4, 2.0, 0.0, 0.0, 0.0),
        (4, 0.123456789, 0.33, 0.0, 0.0),
        (4, 1.0e-12, -0.41, 0.0, 0.0),
    ];
    let mut raw = raw;
    if functions {
        raw.extend([
            (5, 1.0, 0.0, 0.0, 0.0),
            (5, -0.5, 0.43, 0.0, 0.0),
            (5, 15.0 * LN_2, 0.12, 0.0, 0.0), // a table point
            (5, 80.5, -0.31, 0.0, 0.0),
            (6, 10.0, 0.0, 0.0, 0.0),
            (6, 1.0000001, 0.27, 0.0, 0.0), // log near 1
            (6, 0.75, 0.39, 0.0, 0.0),
            (6, 1.0e-20, -0.22, 0.0, 0.0),
            (7, 1.0, 0.0, 0.0, 0.0),
            (7, PI, -0.44, 0.0, 0.0), // next to pi: cancellation in the reduction
            (7, 1000.5, 0.18, 0.0, 0.0),
            (7, 4.0e-4, 0.31, 0.0, 0.0),
            (8, FRAC_PI_2, 0.36, 0.0, 0.0), // next to pi/2
            (8, 2.0, -0.12, 0.0, 0.0),
            (8, 1000.25, 0.47, 0.0, 0.0),
            (8, TAU, 0.05, 0.0, 0.0), // next to 2 pi
        ]);
    }
    raw.into_iter()
        .map(|(op, a, alo, b, blo)| {
            let a = df64_of(a, alo);
            let b = df64_of(b, blo);
            let (x, y) = (big_df64(a), big_df64(b));
            let routine = PROBE_OPS.get(op).copied().unwrap_or(Df64Op::Add);
            // Every probe op has an oracle and a bound in the catalog (the tests below check it).
            let exact = routine
                .oracle(&mut o, &x, &y)
                .unwrap_or_else(|| big(f64::NAN));
            let bound = routine.bound().max_ulp48().unwrap_or(0.0);
            let tol = big(bound * ulp48(to_f64(&exact)));
            ProbeCase {
                op,
                a,
                b,
                lo: df64_on_side(&o.sub(&exact, &tol), true),
                hi: df64_on_side(&o.add(&exact, &tol), false),
            }
        })
        .collect()
}

fn lit(x: f32) -> String {
    // Shortest decimal that reads back as the same f32.
    let s = format!("{x:e}");
    if s.contains('.') {
        s
    } else {
        s.replacen('e', ".0e", 1)
    }
}

fn vec2_lit(d: Df64) -> String {
    format!("vec2({}, {})", lit(d.hi), lit(d.lo))
}

/// Part 2 of the probe shader: the baked cases and `main`.
fn probe_routines(functions: bool) -> String {
    let cases = probe_cases(functions);
    let n = cases.len();
    let ops = if functions { 9 } else { 5 };
    let mut s = String::from(
        "\n// Baked cases: routine, operands (a, b), and the ends of the interval the result must lie\n// in (the oracle's value within the routine's bound in ulp48).\n",
    );
    s.push_str(&format!("const int DF64_PROBE_CASES = {n};\n"));
    let join =
        |f: &dyn Fn(&ProbeCase) -> String| cases.iter().map(f).collect::<Vec<_>>().join(",\n    ");
    s.push_str(&format!(
        "const int DF64_PROBE_OP[{n}] = int[](\n    {});\n",
        join(&|c| c.op.to_string())
    ));
    s.push_str(&format!(
        "const vec4 DF64_PROBE_IN[{n}] = vec4[](\n    {});\n",
        join(&|c| format!(
            "vec4({}, {}, {}, {})",
            lit(c.a.hi),
            lit(c.a.lo),
            lit(c.b.hi),
            lit(c.b.lo)
        ))
    ));
    s.push_str(&format!(
        "const vec2 DF64_PROBE_LO[{n}] = vec2[](\n    {});\n",
        join(&|c| vec2_lit(c.lo))
    ));
    s.push_str(&format!(
        "const vec2 DF64_PROBE_HI[{n}] = vec2[](\n    {});\n\n",
        join(&|c| vec2_lit(c.hi))
    ));
    // In a check, known answers run every routine at run time; its probe (DF64_PROBE_CHECK)
    // keeps the error-free transforms and, without the barrier, the literal cases of the
    // routines it covers.
    s.push_str(
        "// A check defines DF64_PROBE_CHECK: its known answers run every routine at run time, so its\n\
         // probe keeps the error-free transforms and (below) the literal (compile-time) cases, and\n\
         // DF64_PROBE_OP_<k> 0 leaves routine k's literal case out (a probe no larger than the\n\
         // routines checked).\n",
    );
    for k in 0..ops {
        s.push_str(&format!(
            "#ifndef DF64_PROBE_OP_{k}\n#define DF64_PROBE_OP_{k} 1\n#endif\n"
        ));
    }
    // Decided by the preprocessor, which knows whether the barrier is on in this compile (a
    // 330 export turns it on only without GL_ARB_gpu_shader5). The nested #if reads
    // DF64_BARRIER only where it is defined: GLSL ES makes an undefined name in #if an error.
    s.push_str(
        "// With the barrier (DF64_BARRIER 1) each routine XORs its operands with a uniform on entry,\n\
         // so a literal argument reaches its arithmetic as a value no compiler knows: a check\n\
         // (whose known answers run that code path) leaves the literal cases out then.\n\
         #if defined(DF64_PROBE_CHECK) && defined(DF64_BARRIER)\n\
         #if DF64_BARRIER\n\
         #define DF64_PROBE_LITERALS 0\n\
         #endif\n\
         #endif\n\
         #ifndef DF64_PROBE_LITERALS\n\
         #define DF64_PROBE_LITERALS 1\n\
         #endif\n",
    );
    s.push_str("\nvec2 df64_probe_apply(int op, vec2 a, vec2 b) {\n");
    for (k, op) in PROBE_OPS.iter().enumerate().take(ops) {
        s.push_str(&format!("    if (op == {k}) return {};\n", op.glsl()));
    }
    s.push_str("    return vec2(0.0);\n}\n\n");
    // The first case of each routine again, on literal arguments.
    s.push_str("// The same routines on literal arguments (compile-time paths).\nbool df64_probe_literals() {\n    bool ok = true;\n");
    for (k, op) in PROBE_OPS.iter().enumerate().take(ops) {
        if let Some(c) = cases.iter().find(|c| c.op == k) {
            let call = op
                .glsl()
                .replace("(a, b)", &format!("({}, {})", vec2_lit(c.a), vec2_lit(c.b)))
                .replace("(a)", &format!("({})", vec2_lit(c.a)));
            s.push_str(&format!(
                "#if DF64_PROBE_OP_{k} && DF64_PROBE_LITERALS\n    ok = ok && df64_probe_within({call}, {}, {});\n#endif\n",
                vec2_lit(c.lo),
                vec2_lit(c.hi)
            ));
        }
    }
    s.push_str("    return ok;\n}\n\n");
    s.push_str(
        "bool df64_probe_pixel(vec2 coord) {
#ifdef DF64_PROBE_CHECK
    return df64_probe_transforms(coord) && df64_probe_literals();
#else
    int i = (int(coord.x) + 64 * int(coord.y)) % DF64_PROBE_CASES;
    vec4 in_ = DF64_PROBE_IN[i];
    vec2 got = df64_probe_apply(DF64_PROBE_OP[i], in_.xy, in_.zw);
    return df64_probe_transforms(coord) && df64_probe_literals()
        && df64_probe_within(got, DF64_PROBE_LO[i], DF64_PROBE_HI[i]);
#endif
}
",
    );
    s
}

/// The catalog names of the routines the probe covers, by index k of its `DF64_PROBE_OP_<k>`
/// switches (the first five without the functions).
pub fn probe_routine_names(functions: bool) -> Vec<&'static str> {
    let ops = if functions { 9 } else { 5 };
    PROBE_OPS.iter().take(ops).map(|op| op.name()).collect()
}

/// The probe's functions after the export (the error-free transforms, the baked cases and
/// `bool df64_probe_pixel(vec2 coord)`, true where everything at pixel `coord` is exact), with
/// no `main`: for a check that runs them in a stage of its choosing.
pub fn probe_functions(functions: bool) -> String {
    format!("{PROBE_TRANSFORMS}{}", probe_routines(functions))
}

/// The probe shader's fragment `main`: green where the pixel's checks hold.
const PROBE_FRAGMENT_MAIN: &str = "
out vec4 df64_probe_color;

void main() {
    df64_probe_color = df64_probe_pixel(gl_FragCoord.xy) ? vec4(0.0, 1.0, 0.0, 1.0)
                                                        : vec4(1.0, 0.0, 0.0, 1.0);
}
";

/// A complete fragment shader (version line included) that runs the probe on the snippet as
/// `options` configures it: the transforms, then the exported routines on baked answers.
pub fn probe_shader(options: &SnippetOptions) -> Result<String, GlError> {
    Ok(probe_shader_around(
        options.target,
        &snippet(options)?,
        options.functions,
    ))
}

/// The probe shader around any df64 snippet text for `target` (an older export, say), which
/// must define the routines the probe calls (exp, log, sin and cos when `functions`).
pub fn probe_shader_around(target: SnippetTarget, snippet_text: &str, functions: bool) -> String {
    let mut out = String::from(target.version_line());
    out.push('\n');
    if target.is_es() {
        out.push_str("precision highp float;\nprecision highp int;\n");
    }
    out.push_str(snippet_text);
    out.push_str(&probe_functions(functions));
    out.push_str(PROBE_FRAGMENT_MAIN);
    out
}

/// The probe shader's result on one device.
#[derive(Debug, Clone, serde::Serialize)]
pub struct SnippetProbeResult {
    /// The dialect exported.
    pub target: SnippetTarget,
    /// Whether the export used the bit-level barrier (no `precise` in the dialect).
    pub fallback: bool,
    /// Pixels drawn (64 x 64).
    pub pixels: usize,
    /// Pixels that came out green: exact.
    pub green: usize,
}

impl SnippetProbeResult {
    /// Every pixel green: df64 is safe on this driver.
    pub fn passed(&self) -> bool {
        self.green == self.pixels
    }
}

/// Where a plain program draws: 8-bit colour (the probe shader) or 32-bit floats (measurements).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlainOutput {
    /// An RGBA8 target (colours, the probe shader's).
    Rgba8,
    /// An RGBA32F target (numbers).
    Rgba32f,
}

/// What a plain program's draw read back.
#[derive(Debug)]
pub enum PlainPixels {
    /// Four bytes a pixel.
    Rgba8(Vec<u8>),
    /// Four floats a pixel.
    Rgba32f(Vec<f32>),
}

/// Compiles `fragment` (a complete shader for `target`, as a user would write it) with a
/// full-screen vertex shader, binds `inputs` (RGBA32F textures of `width` x `height`, read
/// with texelFetch) to the named samplers, sets the df64 barrier uniforms the snippet asks the
/// application to set, draws once and reads the target back. Only the GL layer's plumbing is
/// used (owned objects, so nothing leaks on an error), none of the engine's module resolution
/// or defines: the shader text is exactly what a user's renderer would compile. For es300 the context must be a GLES one
/// ([`GlContext::headless_gles`]); float output there needs EXT_color_buffer_float.
pub fn run_plain_shader(
    ctx: &GlContext,
    target: SnippetTarget,
    fragment: &str,
    inputs: &[(&str, &[f32])],
    size: (i32, i32),
    output: PlainOutput,
) -> Result<PlainPixels, GlError> {
    let vertex = format!(
        "{}\nvoid main() {{ vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2)); \
         gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0); }}\n",
        target.version_line()
    );
    let (width, height) = (size.0.max(0) as u32, size.1.max(0) as u32);
    let name = format!("df64 plain shader ({})", target.version_line());
    // Every object below is owned: an error on any step deletes what was made before it.
    let program = Program::from_sources(ctx, &name, &vertex, fragment)?;
    let out = match output {
        PlainOutput::Rgba8 => Texture::new_rgba8(ctx, width, height)?,
        PlainOutput::Rgba32f => Texture::new(ctx, width, height)?,
    };
    let fb = Framebuffer::new(ctx, &[&out]).map_err(|e| {
        GlError::Unsupported(format!(
            "{name}: this driver cannot render to {} textures{} ({e})",
            if output == PlainOutput::Rgba32f {
                "RGBA32F"
            } else {
                "RGBA8"
            },
            if target.is_es() {
                "; OpenGL ES needs EXT_color_buffer_float"
            } else {
                ""
            }
        ))
    })?;
    let textures = inputs
        .iter()
        .map(|(_, data)| Texture::with_data(ctx, width, height, data))
        .collect::<Result<Vec<_>, _>>()?;
    // A sampler the compiler dropped is fine; one the shader does not declare is an error.
    // u_df64_zero keeps its default 0, as the snippet's header allows (u_df64_one, the earlier
    // barrier's, was set to 1 when the program linked).
    let pass = inputs
        .iter()
        .zip(&textures)
        .fold(Pass::new(&program), |p, ((sampler, _), t)| {
            p.optional_input(sampler, t)
        });
    pass.run(ctx, &fb)?;
    Ok(match output {
        PlainOutput::Rgba8 => PlainPixels::Rgba8(fb.read_rgba8(ctx, 0)?),
        PlainOutput::Rgba32f => PlainPixels::Rgba32f(fb.read(ctx, 0)?),
    })
}

/// Runs a complete probe-style fragment shader on a 64 x 64 RGBA8 target and counts the
/// green pixels.
pub fn run_probe_shader(
    ctx: &GlContext,
    target: SnippetTarget,
    fragment: &str,
) -> Result<usize, GlError> {
    let pixels = run_plain_shader(ctx, target, fragment, &[], (64, 64), PlainOutput::Rgba8)?;
    Ok(match pixels {
        PlainPixels::Rgba8(p) => count_green(&p),
        PlainPixels::Rgba32f(_) => 0,
    })
}

/// Pure green pixels of an RGBA8 image: the probe shader's "exact".
pub fn count_green(rgba: &[u8]) -> usize {
    rgba.chunks_exact(4)
        .filter(|p| p[0] == 0 && p[1] == 255 && p[2] == 0)
        .count()
}

/// Builds the probe shader for `options` and runs it on `ctx`.
pub fn check_snippet(
    ctx: &GlContext,
    options: &SnippetOptions,
) -> Result<SnippetProbeResult, GlError> {
    let shader = probe_shader(options)?;
    let green = run_probe_shader(ctx, options.target, &shader)?;
    Ok(SnippetProbeResult {
        target: options.target,
        fallback: !options.target.has_precise() && !options.no_fallback,
        pixels: 64 * 64,
        green,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ES export declares the run-time tables as plain globals and every other target keeps
    /// them `const`; each listed table exists (with qf128), and no other table is left `const`
    /// in the ES export but the small constants.
    #[test]
    fn es_export_declares_the_run_time_tables_as_globals() {
        let options = SnippetOptions {
            qf128: true,
            ..SnippetOptions::new(SnippetTarget::Es300)
        };
        let es = snippet(&options).unwrap();
        for target in [SnippetTarget::Glsl330, SnippetTarget::Glsl450] {
            let desktop = snippet(&SnippetOptions { target, ..options }).unwrap();
            for name in RUN_TIME_TABLES {
                let declared = |text: &str, prefix: &str| {
                    ["float", "int"]
                        .iter()
                        .any(|ty| text.contains(&format!("\n{prefix}{ty} {name}[")))
                };
                assert!(declared(&es, "") && !declared(&es, "const "), "{name}");
                assert!(declared(&desktop, "const "), "{name} in {target:?}");
            }
        }
        // The arrays still const in the ES export are the small ones (at most 5 words).
        for line in es
            .lines()
            .filter(|l| l.starts_with("const ") && l.contains("[]("))
        {
            let size: usize = line
                .split('[')
                .nth(1)
                .and_then(|x| x.split(']').next())
                .and_then(|x| x.parse().ok())
                .unwrap_or(usize::MAX);
            assert!(size <= 5, "{line}");
        }
    }

    /// The name of a probe routine's GLSL function (`df64_add` of `df64_add(a, b)`).
    fn function_name(op: Df64Op) -> &'static str {
        let call = op.glsl();
        &call[..call.find('(').unwrap_or(call.len())]
    }

    /// A check leaves the probe's literal cases out where the barrier is on
    /// (DF64_PROBE_LITERALS), on the ground that every probe routine makes its operands opaque
    /// before any arithmetic: its body opens with `a = DF64_B(a);` (and `b = DF64_B(b);`), or
    /// hands its operands, as they are or negated, to another probe routine.
    #[test]
    fn probe_routines_make_their_operands_opaque_on_entry() {
        let lib = snippet(&SnippetOptions::new(SnippetTarget::Es300)).unwrap();
        assert!(lib.contains("\n#define DF64_BARRIER 1\n"));
        for op in PROBE_OPS {
            let name = function_name(op);
            let at = lib
                .find(&format!("vec2 {name}(vec2 a"))
                .unwrap_or_else(|| panic!("no {name} in the export"));
            let body = &lib[at..];
            let first = body[body.find('{').unwrap() + 1..].trim_start();
            let opens = if op.glsl().contains("(a, b)") {
                "a = DF64_B(a); b = DF64_B(b);"
            } else {
                "a = DF64_B(a);"
            };
            let hands_on = PROBE_OPS.iter().any(|&other| {
                let callee = function_name(other);
                callee != name
                    && (first.starts_with(&format!("return {callee}(a, b);"))
                        || first.starts_with(&format!("return {callee}(a, -b);")))
            });
            assert!(
                first.starts_with(opens) || hands_on,
                "{name} does arithmetic before its operands are opaque: {}",
                first.chars().take(120).collect::<String>()
            );
        }
    }

    /// The literal cases stay in the standalone probe and in a check without the barrier; the
    /// preprocessor drops them in a check with it, reading DF64_BARRIER only where it is defined.
    #[test]
    fn probe_leaves_literal_cases_out_only_in_a_check_with_the_barrier() {
        let p = probe_functions(true);
        let guard = "#if defined(DF64_PROBE_CHECK) && defined(DF64_BARRIER)\n#if DF64_BARRIER\n\
                     #define DF64_PROBE_LITERALS 0\n#endif\n#endif\n\
                     #ifndef DF64_PROBE_LITERALS\n#define DF64_PROBE_LITERALS 1\n#endif\n";
        assert!(p.contains(guard), "{p}");
        // Every literal case sits under it, and the guard comes before them.
        let cases = p.matches("ok = ok && df64_probe_within(").count();
        assert_eq!(cases, PROBE_OPS.len());
        assert_eq!(
            p.matches("&& DF64_PROBE_LITERALS\n    ok = ok").count(),
            cases
        );
        assert!(p.find(guard) < p.find("bool df64_probe_literals()"));
    }

    #[test]
    fn snippets_carry_their_configuration() {
        let s = snippet(&SnippetOptions::new(SnippetTarget::Glsl450)).unwrap();
        assert!(s.contains("#define DF64_PRECISE precise\n"), "{s}");
        // The barrier macro is in the file (df64.glsl's own), and off: precise alone.
        assert!(s.contains("#if DF64_BARRIER\n") && !s.contains("#define DF64_BARRIER 1"));
        assert!(
            s.lines()
                .take(4)
                .any(|l| l.starts_with("// Domain: ") && l.contains("2^-100 to 2^126")),
            "the header states the domain"
        );
        assert!(s.contains("vec2 df64_exp(") && !s.contains("qf128_add("));
        let s = snippet(&SnippetOptions {
            qf128: true,
            ..SnippetOptions::new(SnippetTarget::Es300)
        })
        .unwrap();
        assert!(s.contains("#define DF64_BARRIER 1\n") && s.contains("qf128_add("));
        // WebGL 2's sums take Knuth's TwoSum (measured cheaper with the barrier there).
        assert!(s.contains("#define DF64_BARRIER 1\n#define DF64_TWO_SUM_KNUTH 1\n"));
        assert!(s.contains("uniform highp uint u_df64_zero;"));
        assert!(!s.lines().any(|l| l.starts_with("#extension")));
        let s330 = snippet(&SnippetOptions::new(SnippetTarget::Glsl330)).unwrap();
        assert!(s330.contains(
            "#extension GL_ARB_gpu_shader5 : enable\n#ifdef GL_ARB_gpu_shader5\n\
             #define DF64_PRECISE precise\n#else\n#define DF64_PRECISE\n\
             #define DF64_BARRIER 1\n#endif\n"
        ));
        let directive = |d: &str| s.lines().any(|l| l.trim_start().starts_with(d));
        assert!(!directive("#include") && !directive("#version"));
    }

    #[test]
    fn probe_intervals_hold_the_exact_value_and_no_more_than_the_bound() {
        for op in PROBE_OPS {
            assert!(op.row().oracle.is_some(), "{} has no oracle", op.name());
            assert!(
                matches!(op.bound(), crate::numeric::catalog::Bound::Ulp48 { .. }),
                "{} has no ulp48 bound",
                op.name()
            );
        }
        let mut o = Oracle::new();
        for c in probe_cases(true) {
            let op = PROBE_OPS[c.op];
            let exact = op
                .oracle(&mut o, &big_df64(c.a), &big_df64(c.b))
                .unwrap_or_else(|| big(f64::NAN));
            let x = to_f64(&exact);
            let tol = op.bound().max_ulp48().unwrap_or(0.0) * ulp48(x);
            let (lo, hi) = (big_df64(c.lo), big_df64(c.hi));
            assert!(
                lo <= exact && exact <= hi,
                "{}: {:?} {:?}",
                op.name(),
                c.lo,
                c.hi
            );
            let below = to_f64(&o.sub(&exact, &lo));
            let above = to_f64(&o.sub(&hi, &exact));
            assert!(
                below <= tol && above <= tol,
                "{}: {below} {above} > {tol}",
                op.name()
            );
            // Both ends canonical (the shader's word order is the value order only then).
            for d in [c.lo, c.hi] {
                let q = crate::numeric::df64::df64_quick_two_sum(d.hi, d.lo);
                assert_eq!((q.hi, q.lo), (d.hi, d.lo), "{}: {d:?}", op.name());
            }
        }
    }
}
