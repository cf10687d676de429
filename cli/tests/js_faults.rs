//! The npm module's FFT as a skeptical user tries it (`cli/tests/data/js-faults.html`), on
//! WebGL 2 over ANGLE on SwiftShader and on Mesa, and on WebGPU (Dawn on SwiftShader):
//! - inputs near the doubles' largest and among their subnormals, through every plan kind
//!   (2^k, 3 * 2^k, Bluestein, real input, 2-D, `multiply`) in f32, df64 and qf128: the exact
//!   spectrum's rounding (judged here against the double-double DFT, with this file's bounds),
//!   or, where the spectrum overflows the doubles, an Error that says so, never an infinity or
//!   a NaN;
//! - WebGL: every plan kind, `check` and `checkAsync` on a context whose caller bound default
//!   samplers on units 0-7, left four kinds of GL error pending and has transform feedback
//!   active: each result right, the caller's errors there after each call and the state as it
//!   was; a context lost and restored with an older plan alive: the new plan runs, the old one
//!   says why it cannot, and disposing it leaves no error;
//! - WebGPU: calls in flight together on one plan, and a check beside them, each right; a
//!   destroyed device refused;
//! - misspelt options and values of the wrong type refused with an Error that names them.

mod common;

use std::collections::HashMap;
use std::sync::Mutex;

use base64::Engine;
use df64gl::fft::reference::{dft_dd, Cdd};
use df64gl::fft::Direction;
use df64gl::numeric::Dd;
use df64gl_cli::web::browser::BrowserBackend;
use df64gl_cli::web::js_module::run_module_page;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};

const PAGE: &str = "/cli/tests/data/js-faults.html";

/// One page at a time: the machine has two cores.
static PAGES: Mutex<()> = Mutex::new(());

/// Relative L2 error bounds (js_fft.rs's): f32 a hundred f32 roundings, df64 and qf128 their
/// precisions' targets.
fn bound(precision: &str) -> f64 {
    match precision {
        "f32" => 1e-5,
        "df64" => 1e-14,
        _ => 1e-27,
    }
}

/// v 2^e, exactly where the result is a normal double (steps of at most 2^500, each exact
/// while the value moves toward 1).
fn scale2(v: f64, e: i32) -> f64 {
    let mut out = v;
    let mut k = e;
    while k != 0 {
        let step = k.clamp(-500, 500);
        out *= 2f64.powi(step);
        k -= step;
    }
    out
}

/// What a plan's output is, for the reference.
#[derive(Clone, Copy)]
enum Kind {
    /// Rows of n complex points.
    Rows(usize),
    /// n reals to n/2 + 1 bins.
    Real(usize),
    /// n/2 + 1 bins (0 and n/2 real) back to n reals (the real plan's inverse).
    RealInverse(usize),
    /// A row-major image of h x w points.
    Image(usize, usize),
    /// `multiply`'s element-by-element product (no transform).
    Product,
    /// `download` right after `upload`: the input itself.
    Same,
}

#[derive(Clone, Copy)]
enum Expect {
    /// The transform (or product) of the inputs, the output 2^scale_log2 times its reference.
    Values {
        kind: Kind,
        direction: Direction,
        scale_log2: i32,
    },
    /// An Error whose message holds this text.
    Refused(&'static str),
}

struct Case {
    id: String,
    precision: &'static str,
    options: Value,
    call: &'static str,
    /// The input, and multiply's second factor, exactly as sent.
    x: Vec<f64>,
    y: Option<Vec<f64>>,
    /// x (and y) times 2^-x_log2 (2^-y_log2): the unscaled inputs the references take.
    x_log2: i32,
    y_log2: i32,
    expect: Expect,
    /// The output is f32 words (forwardWords), not doubles.
    words: bool,
}

fn random(seed: u64, len: usize) -> Vec<f64> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    (0..len).map(|_| rng.gen_range(-1.0..1.0)).collect()
}

/// An impulse of `value` at point `at` of n complex points.
fn impulse(n: usize, at: usize, value: f64) -> Vec<f64> {
    let mut x = vec![0.0; 2 * n];
    x[2 * at] = value;
    x
}

/// The plan options of a transform of `kind` (a product's plan is its length's).
fn options(precision: &str, kind: Kind) -> Value {
    match kind {
        Kind::Rows(n) => json!({ "length": n, "precision": precision }),
        Kind::Real(n) => json!({ "length": n, "precision": precision, "real": true }),
        Kind::Image(h, w) => json!({ "shape": [h, w], "precision": precision }),
        Kind::RealInverse(n) => json!({ "length": n, "precision": precision, "real": true }),
        Kind::Product | Kind::Same => unreachable!("only transforms are planned by kind"),
    }
}

/// A transform case: `unit` (unscaled) times 2^log2, exactly as a double can hold it (below
/// the normal range, rounded: the reference takes the rounded input back up, exactly).
#[allow(clippy::too_many_arguments)]
fn transform(
    id: &str,
    precision: &'static str,
    kind: Kind,
    direction: Direction,
    call: &'static str,
    unit: &[f64],
    log2: i32,
) -> Case {
    let x: Vec<f64> = unit.iter().map(|&v| scale2(v, log2)).collect();
    Case {
        id: id.to_string(),
        precision,
        options: options(precision, kind),
        call,
        x,
        y: None,
        x_log2: log2,
        y_log2: 0,
        expect: Expect::Values {
            kind,
            direction,
            scale_log2: log2,
        },
        words: call.ends_with("Words"),
    }
}

fn refused(
    id: &str,
    precision: &'static str,
    kind: Kind,
    call: &'static str,
    x: Vec<f64>,
    text: &'static str,
) -> Case {
    Case {
        id: id.to_string(),
        precision,
        options: options(precision, kind),
        call,
        x,
        y: None,
        x_log2: 0,
        y_log2: 0,
        expect: Expect::Refused(text),
        words: false,
    }
}

fn product(
    id: &str,
    precision: &'static str,
    n: usize,
    x_log2: i32,
    y_log2: i32,
    expect: Option<&'static str>,
) -> Case {
    let x: Vec<f64> = random(700, 2 * n)
        .iter()
        .map(|&v| scale2(v, x_log2))
        .collect();
    let y: Vec<f64> = random(701, 2 * n)
        .iter()
        .map(|&v| scale2(v, y_log2))
        .collect();
    Case {
        id: id.to_string(),
        precision,
        options: json!({ "length": n, "precision": precision }),
        call: "multiply",
        x,
        y: Some(y),
        x_log2,
        y_log2,
        expect: match expect {
            Some(text) => Expect::Refused(text),
            None => Expect::Values {
                kind: Kind::Product,
                direction: Direction::Forward,
                scale_log2: x_log2 + y_log2,
            },
        },
        words: false,
    }
}

const OVERFLOW: &str = "overflows the doubles";

/// The extreme-input cases, the same on every leg.
fn cases() -> Vec<Case> {
    use Direction::{Forward, Inverse};
    use Kind::{Image, Real, Rows};
    let mut out = Vec::new();
    for p in ["f32", "df64", "qf128"] {
        // One point of 1.7e308 (1.89 2^1023): every bin 1.7e308.
        let near_largest = impulse(8, 0, 1.7e308 / 2f64.powi(1023));
        // One subnormal point, 1e-310, away from point 0: bins of subnormal size.
        let subnormal = impulse(8, 3, scale2(1e-310, 1040));
        for (what, kind, unit, log2) in [
            ("impulse near the largest", Rows(8), near_largest, 1023),
            ("subnormal impulse", Rows(8), subnormal, -1040),
            ("large", Rows(32), random(10, 64), 1000),
            ("subnormal", Rows(32), random(11, 64), -1060),
        ] {
            out.push(transform(
                &format!("{p} {what}"),
                p,
                kind,
                Forward,
                "forward",
                &unit,
                log2,
            ));
        }
        // Every point 1e308: the DC bin, 16e308, overflows (bins 1 to 7 are exactly 0).
        out.push(refused(
            &format!("{p} all 1e308"),
            p,
            Rows(16),
            "forward",
            vec![1e308; 32],
            OVERFLOW,
        ));
    }
    // (id, precision, kind, direction, input seed, input log2)
    let table: [(&str, &'static str, Kind, Direction, u64, i32); 9] = [
        ("df64 large inverse", "df64", Rows(256), Inverse, 12, 1000),
        (
            "df64 subnormal inverse",
            "df64",
            Rows(256),
            Inverse,
            13,
            -1060,
        ),
        (
            "qf128 subnormal inverse",
            "qf128",
            Rows(32),
            Inverse,
            14,
            -1060,
        ),
        (
            "df64 mixed radix large",
            "df64",
            Rows(48),
            Forward,
            15,
            1000,
        ),
        (
            "df64 mixed radix subnormal",
            "df64",
            Rows(48),
            Inverse,
            16,
            -1060,
        ),
        (
            "df64 Bluestein inverse subnormal",
            "df64",
            Rows(10),
            Inverse,
            20,
            -1060,
        ),
        (
            "df64 2-D inverse large",
            "df64",
            Image(4, 8),
            Inverse,
            21,
            1000,
        ),
        (
            "qf128 2-D subnormal",
            "qf128",
            Image(4, 8),
            Forward,
            22,
            -1060,
        ),
        ("f32 real large", "f32", Real(64), Forward, 23, 1000),
    ];
    for (id, p, kind, direction, seed, log2) in table {
        let call = if direction == Forward {
            "forward"
        } else {
            "inverse"
        };
        out.push(transform(
            id,
            p,
            kind,
            direction,
            call,
            &random(seed, 2 * points_of(kind)),
            log2,
        ));
    }
    for (p, log2) in [
        ("df64", 1000),
        ("df64", -1060),
        ("qf128", 1000),
        ("f32", -1060),
    ] {
        for (what, kind, seed) in [
            ("real", Real(64), 17),
            ("Bluestein", Rows(10), 18),
            ("2-D", Image(4, 8), 19),
        ] {
            let unit = random(seed, 2 * points_of(kind));
            out.push(transform(
                &format!("{p} {what} {log2}"),
                p,
                kind,
                Forward,
                "forward",
                &unit,
                log2,
            ));
        }
    }
    // At 65,536 points one point of 1e306 made every output non-finite.
    let far = impulse(1 << 16, 12345, scale2(1e306, -1016));
    out.push(transform(
        "df64 65536 one point of 1e306",
        "df64",
        Rows(1 << 16),
        Forward,
        "forward",
        &far,
        1016,
    ));
    for (id, kind, x) in [
        ("df64 real overflow", Real(16), vec![1.5e308; 16]),
        ("df64 Bluestein overflow", Rows(10), vec![1e308; 20]),
        ("df64 2-D overflow", Image(2, 4), vec![1e308; 16]),
    ] {
        out.push(refused(id, "df64", kind, "forward", x, OVERFLOW));
    }
    let words = impulse(8, 0, 1.7e308);
    out.push(refused(
        "df64 words past f32",
        "df64",
        Rows(8),
        "forwardWords",
        words,
        "outside the f32 range",
    ));
    out.push(product(
        "df64 product 2^1200",
        "df64",
        16,
        600,
        600,
        Some(OVERFLOW),
    ));
    out.push(product(
        "df64 product 2^600 by 2^-600",
        "df64",
        16,
        600,
        -600,
        None,
    ));
    out.push(product(
        "qf128 product 2^900 by 2^-1000",
        "qf128",
        16,
        900,
        -1000,
        None,
    ));
    out
}

/// The numbers a plan of `kind` takes, halved (complex points, or reals / 2).
fn points_of(kind: Kind) -> usize {
    match kind {
        Kind::Rows(n) => n,
        Kind::Real(n) => n / 2,
        Kind::Image(h, w) => h * w,
        Kind::RealInverse(n) => n / 2 + 1,
        Kind::Product | Kind::Same => unreachable!("no plan of its own"),
    }
}

/// The inputs of the fault runs (as js-faults.html names them), with their plans' precision
/// and kind: each judged as a forward transform of an unscaled input.
fn fault_inputs() -> Vec<(&'static str, &'static str, Kind, Vec<f64>)> {
    let big = |v: Vec<f64>| v.iter().map(|x| x * 1e6).collect::<Vec<f64>>();
    vec![
        ("fault-complex", "df64", Kind::Rows(64), random(30, 128)),
        (
            "fault-complex-big",
            "df64",
            Kind::Rows(64),
            big(random(30, 128)),
        ),
        ("fault-mixed", "qf128", Kind::Rows(48), random(31, 96)),
        ("fault-bluestein", "df64", Kind::Rows(10), random(32, 20)),
        (
            "fault-bluestein-big",
            "df64",
            Kind::Rows(10),
            big(random(32, 20)),
        ),
        ("fault-real", "df64", Kind::Real(64), random(33, 64)),
        (
            "fault-real-big",
            "df64",
            Kind::Real(64),
            big(random(33, 64)),
        ),
        ("fault-real-bins", "df64", Kind::RealInverse(64), {
            let mut bins = random(39, 66);
            bins[1] = 0.0;
            bins[65] = 0.0;
            bins
        }),
        ("fault-image", "df64", Kind::Image(4, 8), random(34, 64)),
        (
            "fault-image-big",
            "df64",
            Kind::Image(4, 8),
            big(random(34, 64)),
        ),
        ("fault-f32", "f32", Kind::Rows(64), random(35, 128)),
        ("fault-other", "df64", Kind::Rows(16), random(36, 32)),
        ("fault-a", "df64", Kind::Rows(16), random(37, 32)),
        ("fault-b", "df64", Kind::Rows(16), random(38, 32)),
    ]
}

fn bytes_f64(v: &[f64]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// The page's memory: the case list and every input.
fn memory() -> (Vec<Case>, HashMap<String, Vec<u8>>) {
    let cases = cases();
    let mut memory = HashMap::new();
    let list: Vec<Value> = cases
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let mut v = json!({ "id": c.id, "options": c.options, "call": c.call, "x": format!("/__df64gl/faults/case-{i}-x.bin") });
            if c.y.is_some() {
                v["y"] = json!(format!("/__df64gl/faults/case-{i}-y.bin"));
            }
            v
        })
        .collect();
    memory.insert(
        "/__df64gl/faults/cases.json".to_string(),
        serde_json::to_vec(&list).expect("the case list"),
    );
    for (i, c) in cases.iter().enumerate() {
        memory.insert(format!("/__df64gl/faults/case-{i}-x.bin"), bytes_f64(&c.x));
        if let Some(y) = &c.y {
            memory.insert(format!("/__df64gl/faults/case-{i}-y.bin"), bytes_f64(y));
        }
    }
    for (name, _, _, x) in fault_inputs() {
        memory.insert(format!("/__df64gl/faults/{name}.bin"), bytes_f64(&x));
    }
    (cases, memory)
}

fn decode(v: &Value) -> Vec<u8> {
    base64::engine::general_purpose::STANDARD
        .decode(
            v.as_str()
                .unwrap_or_else(|| panic!("no base64 output: {v}")),
        )
        .expect("base64")
}

/// A result's values as double-doubles: doubles, or f32 words (2, 4 or 8 a point).
fn values(r: &Value, precision: &str) -> Vec<Cdd> {
    let bytes = decode(&r["out"]);
    if r["f64"] == true {
        let d: Vec<f64> = bytes
            .chunks_exact(8)
            .map(|c| f64::from_le_bytes(c.try_into().expect("8 bytes")))
            .collect();
        return complex(&d);
    }
    let w: Vec<f32> = bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
        .collect();
    common::points(&w, precision)
}

fn complex(x: &[f64]) -> Vec<Cdd> {
    x.chunks_exact(2)
        .map(|c| Cdd {
            re: Dd::from_f64(c[0]),
            im: Dd::from_f64(c[1]),
        })
        .collect()
}

/// The reference of `kind` in `direction` on the unscaled inputs.
fn reference(kind: Kind, direction: Direction, x: &[f64], y: Option<&[f64]>) -> Vec<Cdd> {
    match kind {
        Kind::Rows(n) => complex(x)
            .chunks(n)
            .flat_map(|row| dft_dd(row, direction))
            .collect(),
        Kind::Real(n) => {
            let reals: Vec<Cdd> = x
                .iter()
                .map(|&v| Cdd {
                    re: Dd::from_f64(v),
                    im: Dd::from_f64(0.0),
                })
                .collect();
            reals
                .chunks(n)
                .flat_map(|row| dft_dd(row, direction).into_iter().take(n / 2 + 1))
                .collect()
        }
        Kind::RealInverse(n) => {
            // The Hermitian extension of the bins, its inverse DFT, whose parts are the reals.
            let bins = complex(x);
            let full: Vec<Cdd> = (0..n)
                .map(|k| {
                    if k <= n / 2 {
                        bins[k]
                    } else {
                        bins[n - k].conj()
                    }
                })
                .collect();
            let reals: Vec<Dd> = dft_dd(&full, Direction::Inverse)
                .into_iter()
                .map(|c| c.re)
                .collect();
            reals
                .chunks_exact(2)
                .map(|p| Cdd { re: p[0], im: p[1] })
                .collect()
        }
        Kind::Image(h, w) => {
            let rows: Vec<Cdd> = complex(x)
                .chunks(w)
                .flat_map(|r| dft_dd(r, direction))
                .collect();
            let mut out = rows.clone();
            for c in 0..w {
                let column: Vec<Cdd> = (0..h).map(|r| rows[r * w + c]).collect();
                for (r, v) in dft_dd(&column, direction).into_iter().enumerate() {
                    out[r * w + c] = v;
                }
            }
            out
        }
        Kind::Product => complex(x)
            .into_iter()
            .zip(complex(y.expect("a product's second factor")))
            .map(|(a, b)| a * b)
            .collect(),
        Kind::Same => complex(x),
    }
}

/// The L2 error of `got` (times 2^-scale_log2) against `want`, and the bound it must meet: the
/// precision's relative bound, plus, for doubles, their rounding (2^-52 relative: qf128's words'
/// sum and its scaling are two roundings), and where they lie among the subnormals the smallest
/// subnormal per part (the doubles' own precision there).
fn judge(
    got: &[Cdd],
    want: &[Cdd],
    precision: &str,
    scale_log2: i32,
    doubles: bool,
) -> Result<f64, String> {
    if got.len() != want.len() {
        return Err(format!("{} values, want {}", got.len(), want.len()));
    }
    let (mut err, mut norm) = (0.0f64, 0.0f64);
    for (g, w) in got.iter().zip(want) {
        let g = Cdd {
            re: Dd::from_f64(scale2(g.re.hi, -scale_log2))
                + Dd::from_f64(scale2(g.re.lo, -scale_log2)),
            im: Dd::from_f64(scale2(g.im.hi, -scale_log2))
                + Dd::from_f64(scale2(g.im.lo, -scale_log2)),
        };
        err += (g - *w).norm_sqr().to_f64();
        norm += w.norm_sqr().to_f64();
    }
    let floor = if doubles && scale_log2 < -1000 {
        (2.0 * got.len() as f64).sqrt() * scale2(1.0, -1074 - scale_log2)
    } else {
        0.0
    };
    let rounding = if doubles { scale2(1.0, -52) } else { 0.0 };
    let tolerance = (bound(precision) + rounding) * norm.sqrt() + floor;
    if err.sqrt() <= tolerance {
        Ok(err.sqrt() / norm.sqrt())
    } else {
        Err(format!(
            "L2 error {:.3e} against a norm of {:.3e} (tolerance {tolerance:.3e})",
            err.sqrt(),
            norm.sqrt()
        ))
    }
}

/// What a leg got wrong, gathered so that one run reports every case (and a table of them).
#[derive(Default)]
struct Verdicts {
    failures: Vec<String>,
}

impl Verdicts {
    fn check(&mut self, ok: bool, what: impl FnOnce() -> String) {
        if !ok {
            self.failures.push(what());
        }
    }

    /// A result `r` (of `precision`) against `want`, judged as `judge` does.
    fn judge(
        &mut self,
        r: &Value,
        want: &[Cdd],
        precision: &str,
        scale_log2: i32,
        what: &str,
    ) -> String {
        if r["threw"] != false {
            let line = format!("{what}: threw {}", r["message"]);
            self.failures.push(line.clone());
            return line;
        }
        match judge(
            &values(r, precision),
            want,
            precision,
            scale_log2,
            r["f64"] == true,
        ) {
            Ok(e) => format!("{what}: relative L2 error {e:.2e}"),
            Err(e) => {
                let line = format!("{what}: {e}");
                self.failures.push(line.clone());
                line
            }
        }
    }

    fn finish(self, leg: &str) {
        assert!(
            self.failures.is_empty(),
            "{leg}: {} failures:\n{}",
            self.failures.len(),
            self.failures.join("\n")
        );
    }
}

fn unscaled(v: &[f64], log2: i32) -> Vec<f64> {
    v.iter().map(|&x| scale2(x, -log2)).collect()
}

/// Every case's outcome against its expectation; prints the table of outcomes.
fn assert_cases(v: &Value, cases: &[Case], leg: &str, verdicts: &mut Verdicts) {
    for c in cases {
        let r = &v["cases"][&c.id];
        let what = format!("{leg} {}", c.id);
        let line = match c.expect {
            Expect::Refused(text) => {
                let m = r["message"].as_str().unwrap_or("");
                verdicts.check(r["threw"] == true && m.contains(text), || {
                    format!("{what}: want an Error with \"{text}\", got {r}")
                });
                format!(
                    "{what}: {}",
                    if r["threw"] == true {
                        format!("threw \"{m}\"")
                    } else {
                        "no Error".to_string()
                    }
                )
            }
            Expect::Values {
                kind,
                direction,
                scale_log2,
            } => {
                verdicts.check(r["threw"] == true || r["f64"] == !c.words, || {
                    format!("{what}: the wrong kind of output {r}")
                });
                let want = reference(
                    kind,
                    direction,
                    &unscaled(&c.x, c.x_log2),
                    c.y.as_ref().map(|y| unscaled(y, c.y_log2)).as_deref(),
                );
                verdicts.judge(r, &want, c.precision, scale_log2, &what)
            }
        };
        eprintln!("{line}");
    }
}

fn fault_reference(name: &str, direction: Direction) -> (&'static str, Vec<Cdd>) {
    let (_, precision, kind, x) = fault_inputs()
        .into_iter()
        .find(|f| f.0 == name)
        .unwrap_or_else(|| panic!("no input {name}"));
    (precision, reference(kind, direction, &x, None))
}

fn assert_options(v: &Value, leg: &str) {
    let expect: &[(&str, &str)] = &[
        (
            "misspelt length",
            "no option \"lenght\" (did you mean \"length\"?)",
        ),
        ("length as a string", "option length takes a number"),
        ("real as a number", "option real takes true or false"),
        ("options a string", "takes its options as an object"),
        ("check: routines a string", "option routines takes an array"),
        ("check: misspelt qf128", "no option \"qf182\""),
        ("checkAsync: unknown stage", "options.stages is a list of"),
        (
            "check: misspelt stages",
            "no option \"stage\" (did you mean \"stages\"?)",
        ),
    ];
    let got = v["options"].as_array().expect("the options' results");
    for r in got {
        let name = r["name"].as_str().unwrap_or("");
        let (_, text) = expect
            .iter()
            .find(|e| e.0 == name)
            .unwrap_or_else(|| panic!("{leg}: an unexpected case {name}"));
        assert_eq!(r["threw"], true, "{leg} {name}: {r}");
        assert!(
            r["type"] == "TypeError" || r["type"] == "RangeError",
            "{leg} {name}: {r}"
        );
        assert!(
            r["message"].as_str().unwrap_or("").contains(text),
            "{leg} {name}: {r}"
        );
    }
    // Four createFft or createFftWebGPU calls; three of check and checkAsync, or two of checkWebGPU.
    let want = if leg == "WebGPU" { 6 } else { 7 };
    assert_eq!(got.len(), want, "{leg}: {got:?}");
}

fn run(backend: BrowserBackend, leg: &str) -> (Vec<Case>, Value) {
    let chromium = common::chromium();
    let (cases, memory) = memory();
    let _one = PAGES.lock().unwrap_or_else(|e| e.into_inner());
    let v = run_module_page(&chromium, backend, PAGE, &format!("?leg={leg}"), memory, 0)
        .unwrap_or_else(|e| panic!("{} {PAGE}: {e}", backend.name()));
    (cases, v)
}

// The four kinds of error the page leaves pending, as getError() codes.
const PENDING: [u64; 4] = [0x500, 0x501, 0x502, 0x506];

fn webgl_survives_a_skeptical_caller(backend: BrowserBackend) {
    let leg = backend.name();
    let (cases, v) = run(backend, "webgl");
    let mut verdicts = Verdicts::default();
    assert_cases(&v, &cases, leg, &mut verdicts);
    assert_options(&v, leg);

    // Under every fault: each result right, the caller's errors back, its state unchanged.
    let f = &v["faults"];
    verdicts.check(f["setupErrors"] == json!([]), || {
        format!(
            "{leg}: the page's own set-up made errors: {}",
            f["setupErrors"]
        )
    });
    let calls = f["calls"].as_array().map(Vec::as_slice).unwrap_or_default();
    verdicts.check(calls.len() == 19, || {
        format!("{leg}: {} calls under faults, want 19", calls.len())
    });
    for r in calls {
        let name = r["name"].as_str().unwrap_or("");
        let what = format!("{leg} {name} under faults");
        verdicts.check(r["errors"] == json!(PENDING), || {
            format!(
                "{what}: the caller's pending errors afterwards are {}, want {PENDING:?}",
                r["errors"]
            )
        });
        verdicts.check(r["changed"] == json!([]), || {
            format!("{what} changed the caller's state: {}", r["changed"])
        });
        let judged = match name {
            "complex" | "mixed" | "bluestein" | "real" | "image" => Some(format!("fault-{name}")),
            "download" => Some("fault-f32".to_string()),
            _ => None,
        };
        let line = if let Some(input) = judged {
            let (precision, want) = fault_reference(&input, Direction::Forward);
            verdicts.judge(r, &want, precision, 0, &what)
        } else if name == "multiply" {
            let a = fault_inputs()
                .into_iter()
                .find(|f| f.0 == "fault-a")
                .expect("fault-a")
                .3;
            let b = fault_inputs()
                .into_iter()
                .find(|f| f.0 == "fault-b")
                .expect("fault-b")
                .3;
            let want = reference(Kind::Product, Direction::Forward, &a, Some(&b));
            verdicts.judge(r, &want, "df64", 0, &what)
        } else {
            let passed =
                r["threw"] == false && values(r, "df64").first().map(|c| c.re.hi) == Some(1.0);
            verdicts.check(
                r["threw"] == false && (!name.starts_with("check") || passed),
                || format!("{what}: {r}"),
            );
            format!(
                "{what}: {}",
                if r["threw"] == true { "threw" } else { "ran" }
            )
        };
        eprintln!(
            "{line}; errors after it {}; state changed {}",
            r["errors"], r["changed"]
        );
    }
    verdicts.check(
        f["feedbackActive"] == true && f["feedbackErrors"] == json!([]),
        || {
            format!(
                "{leg}: the caller's transform feedback after the calls: active {}, errors {}",
                f["feedbackActive"], f["feedbackErrors"]
            )
        },
    );

    // Lost and restored with an older plan alive.
    let l = &v["loss"];
    let msg = |r: &Value| r["message"].as_str().unwrap_or("").to_string();
    verdicts.check(
        l["whileLost"]["threw"] == true && msg(&l["whileLost"]).contains("lost"),
        || {
            format!(
                "{leg}: a plan while the context is lost: {}",
                l["whileLost"]
            )
        },
    );
    let (_, want) = fault_reference("fault-other", Direction::Forward);
    for key in ["newer", "newerAfterDispose"] {
        let line = verdicts.judge(
            &l[key],
            &want,
            "df64",
            0,
            &format!("{leg} {key} plan after a restore"),
        );
        eprintln!("{line}");
    }
    verdicts.check(
        l["older"]["threw"] == true && msg(&l["older"]).contains("lost since this plan was made"),
        || format!("{leg}: the older plan after a restore: {}", l["older"]),
    );
    verdicts.check(l["errorsAfterDispose"] == json!([]), || {
        format!(
            "{leg}: disposing the older plan left errors {}",
            l["errorsAfterDispose"]
        )
    });
    verdicts.check(l["check"] == true && l["errorsAtEnd"] == json!([]), || {
        format!("{leg}: check after a restore: {l}")
    });
    verdicts.finish(leg);
}

#[test]
fn webgl_fft_survives_a_skeptical_caller_on_swiftshader() {
    webgl_survives_a_skeptical_caller(BrowserBackend::Swiftshader);
}

#[test]
fn webgl_fft_survives_a_skeptical_caller_on_angle_over_mesa() {
    webgl_survives_a_skeptical_caller(BrowserBackend::AngleGl);
}

#[test]
fn webgpu_fft_survives_a_skeptical_caller() {
    let leg = "WebGPU";
    let (cases, v) = run(BrowserBackend::WebGpu, "webgpu");
    let mut verdicts = Verdicts::default();
    assert_cases(&v, &cases, leg, &mut verdicts);
    assert_options(&v, leg);

    // Calls in flight together: each its own answer.
    let o = &v["overlapping"];
    for (k, input) in [
        ("complex", "fault-complex"),
        ("bluestein", "fault-bluestein"),
        ("real", "fault-real"),
        ("image", "fault-image"),
        ("render", "fault-complex"),
    ] {
        let r = o[k].as_array().map(Vec::as_slice).unwrap_or_default();
        verdicts.check(r.len() == 4, || {
            format!("{leg} {k}: {} calls in flight came back, want 4", r.len())
        });
        let big = format!("{input}-big");
        let back = if k == "real" {
            "fault-real-bins"
        } else {
            input
        };
        for (i, (name, direction)) in [
            (input, Direction::Forward),
            (big.as_str(), Direction::Forward),
            (back, Direction::Inverse),
            (input, Direction::Forward),
        ]
        .into_iter()
        .enumerate()
        .take(r.len())
        {
            let (precision, want) = fault_reference(name, direction);
            let line = verdicts.judge(
                &r[i],
                &want,
                precision,
                0,
                &format!("{leg} {k}: call {i} of 4 in flight"),
            );
            eprintln!("{line}");
        }
        // A download in flight while the data are transformed, and one after.
        let r = o[format!("{k} resident")]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default();
        verdicts.check(r.len() == 2, || {
            format!("{leg} {k}: {} downloads came back, want 2", r.len())
        });
        let (kind, x) = fault_inputs()
            .into_iter()
            .find(|f| f.0 == big)
            .map(|f| (f.2, f.3))
            .expect("the big input");
        let uploaded = match kind {
            // Reals read back as they stand: n reals, as n/2 complex values.
            Kind::Real(_) => complex(&x),
            _ => reference(Kind::Same, Direction::Forward, &x, None),
        };
        let (_, spectrum) = fault_reference(&big, Direction::Forward);
        for (i, (want, what)) in [
            (&uploaded, "download in flight"),
            (&spectrum, "transform after it"),
        ]
        .into_iter()
        .enumerate()
        .take(r.len())
        {
            let line = verdicts.judge(&r[i], want, "df64", 0, &format!("{leg} {k}: {what}"));
            eprintln!("{line}");
        }
    }
    let c = &o["checkBeside"];
    verdicts.check(c["pass"] == true, || {
        format!("{leg}: a check beside transforms: {c}")
    });
    for (i, name) in ["fault-complex", "fault-complex-big"].iter().enumerate() {
        let (precision, want) = fault_reference(name, Direction::Forward);
        let line = verdicts.judge(
            &c["transforms"][i],
            &want,
            precision,
            0,
            &format!("{leg} transform {i} beside a check"),
        );
        eprintln!("{line}");
    }

    // A destroyed device: no plan, and a check that says why.
    let d = &v["destroyed"];
    let says = |r: &Value, key: &str| r[key].as_str().unwrap_or("").contains("device is lost");
    verdicts.check(
        d["create"]["threw"] == true && says(&d["create"], "message"),
        || format!("{leg}: a plan on a destroyed device: {d}"),
    );
    verdicts.check(
        d["check"]["pass"] == false && says(&d["check"], "reason"),
        || format!("{leg}: a check on a destroyed device: {d}"),
    );
    verdicts.check(d["older"]["threw"] == true, || {
        format!("{leg}: a plan made before its device was destroyed: {d}")
    });
    verdicts.finish(leg);
}

/// Runs an ES module script in Node with `words` (js/src/fft/words.js) and `df64gl` (the root
/// entry, js/src/index.js) imported; its standard output.
fn node(script: &str) -> String {
    let js = df64gl_cli::web::js_module::repository_root().join("js");
    let path = |f: &str| js.join(f).display().to_string().replace('\\', "/");
    let full = format!(
        "import * as words from '{}';\nimport * as df64gl from '{}';\n{script}",
        path("src/fft/words.js"),
        path("src/index.js")
    );
    let out = std::process::Command::new("node")
        .args(["--input-type=module", "-e", &full])
        .output()
        .expect("these tests need Node.js (node on the PATH; this kind's image has it)");
    assert!(
        out.status.success(),
        "node failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// x 2^e rounded once to the nearest double (ties to even), from x's integer mantissa.
fn ldexp_reference(x: f64, e: i32) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let bits = x.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let (m, q) = if biased == 0 {
        (bits & ((1 << 52) - 1), -1074)
    } else {
        ((bits & ((1 << 52) - 1)) | (1 << 52), biased - 1075)
    };
    let q = q + e;
    let magnitude = if q >= -1074 {
        // Exact unless it overflows: m < 2^53.
        if 64 - m.leading_zeros() as i32 + q > 1024 {
            f64::INFINITY
        } else {
            scale2(m as f64, q)
        }
    } else {
        let shift = (-1074 - q) as u32;
        let r = if shift >= 64 {
            0
        } else {
            let t = m >> shift;
            let rest = m - (t << shift);
            let half = 1u64 << (shift - 1);
            if rest > half || (rest == half && t & 1 == 1) {
                t + 1
            } else {
                t
            }
        };
        r as f64 * f64::from_bits(1)
    };
    if x < 0.0 {
        -magnitude
    } else {
        magnitude
    }
}

/// The block scaling's `ldexp` rounds x 2^e once, at every exponent: across the doubles'
/// range, into and through the subnormals, and to an infinity where the exact product
/// overflows; `exponentOf` gives floor(log2 |x|) exactly, subnormals included.
#[test]
fn ldexp_rounds_once_at_every_exponent() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(65);
    let mut xs: Vec<f64> = vec![
        1.0,
        -1.5,
        1.7e308,
        f64::MAX,
        f64::MIN_POSITIVE,
        1e-310,
        f64::from_bits(1),
        -f64::from_bits(3),
    ];
    for _ in 0..600 {
        let mantissa: f64 = rng.gen_range(-1.0..1.0);
        xs.push(scale2(mantissa, rng.gen_range(-1000..1000)));
        xs.push(
            f64::from_bits(rng.gen_range(1..(1u64 << 52)))
                * if rng.gen_bool(0.5) { 1.0 } else { -1.0 },
        );
    }
    let es: Vec<i32> = (0..xs.len())
        .map(|i| match i % 4 {
            0 => rng.gen_range(-2200..2200),
            1 => rng.gen_range(-1100..-1020),
            2 => rng.gen_range(1000..1100),
            _ => rng.gen_range(-60..60),
        })
        .collect();
    let list: Vec<String> = xs
        .iter()
        .zip(&es)
        .map(|(x, e)| format!("[{x:e}, {e}]"))
        .collect();
    let out = node(&format!(
        "const cases = [{}];\nfor (const [x, e] of cases) {{\n  const b = new DataView(new ArrayBuffer(8));\n  b.setFloat64(0, words.ldexp(x, e));\n  console.log(b.getBigUint64(0).toString(), words.exponentOf(x));\n}}",
        list.join(",")
    ));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), xs.len());
    for ((x, e), line) in xs.iter().zip(&es).zip(lines) {
        let mut parts = line.split(' ');
        let got = f64::from_bits(parts.next().and_then(|v| v.parse().ok()).expect("bits"));
        let want = ldexp_reference(*x, *e);
        assert_eq!(
            got.to_bits(),
            want.to_bits(),
            "ldexp({x:e}, {e}): {got:e}, want {want:e}"
        );
        let exponent: i32 = parts.next().and_then(|v| v.parse().ok()).expect("exponent");
        let bits = x.abs().to_bits();
        let want = if bits >> 52 == 0 {
            63 - bits.leading_zeros() as i32 - 1074
        } else {
            (bits >> 52) as i32 - 1023
        };
        assert_eq!(exponent, want, "exponentOf({x:e})");
    }
}

/// The helpers take arrays of finite numbers only: anything else is an Error that names the
/// argument, never an empty array, a NaN matrix or an infinite uniform.
#[test]
fn helpers_refuse_what_is_not_numbers() {
    let out = node(
        "const I = [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1];\n\
         const cases = [\n\
           ['splitArray(null)', () => df64gl.splitArray(null)],\n\
           ['splitArray(5)', () => df64gl.splitArray(5)],\n\
           ['splitArray of strings', () => df64gl.splitArray(['1', '2'])],\n\
           ['splitMat4 of a string', () => df64gl.splitMat4('abcdefghijklmnop')],\n\
           ['splitMat4 of NaN', () => df64gl.splitMat4(I.map((v, i) => i === 5 ? NaN : v))],\n\
           ['splitPositions of a string', () => df64gl.splitPositions('abc')],\n\
           ['splitPositions past f32', () => df64gl.splitPositions([0, 0, 1e39])],\n\
           ['relativeToEye of a string eye', () => df64gl.relativeToEye(I, 'abc')],\n\
           ['relativeToEye of a NaN eye', () => df64gl.relativeToEye(I, [NaN, 0, 0])],\n\
           ['relativeToEye overflowing', () => df64gl.relativeToEye(I.map((v, i) => i === 12 ? 1.5e308 : v), [-1.5e308, 0, 0])],\n\
           ['viewRotation of Infinity', () => df64gl.viewRotation(I.map((v, i) => i === 2 ? Infinity : v))],\n\
           ['rteUniforms with an eye of 1e308', () => df64gl.rteUniforms(I, [1e308, 0, 0], I)],\n\
         ];\n\
         for (const [name, f] of cases) {\n\
           try { const r = f(); console.log(JSON.stringify({ name, threw: false, r: String(r) })); }\n\
           catch (e) { console.log(JSON.stringify({ name, threw: true, type: e.constructor.name, message: e.message })); }\n\
         }\n\
         const ok = df64gl.rteUniforms(I, [6.4e6, 0, 1], I);\n\
         console.log(JSON.stringify({ name: 'in range', x: ok.df64_model_rte_hi[12] + ok.df64_model_rte_lo[12], z: ok.df64_model_rte_hi[14] }));\n",
    );
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(lines.len(), 13, "{out}");
    for (r, (name, ty, text)) in lines.iter().zip([
        ("splitArray(null)", "TypeError", "not null"),
        ("splitArray(5)", "TypeError", "not 5"),
        (
            "splitArray of strings",
            "TypeError",
            "element 0 is the string \"1\"",
        ),
        ("splitMat4 of a string", "TypeError", "not the string"),
        ("splitMat4 of NaN", "RangeError", "element 5 is NaN"),
        ("splitPositions of a string", "TypeError", "not the string"),
        ("splitPositions past f32", "RangeError", "past f32's range"),
        ("relativeToEye of a string eye", "TypeError", "eye"),
        ("relativeToEye of a NaN eye", "RangeError", "eye[0] is NaN"),
        (
            "relativeToEye overflowing",
            "RangeError",
            "overflows the doubles",
        ),
        (
            "viewRotation of Infinity",
            "RangeError",
            "element 2 is Infinity",
        ),
        (
            "rteUniforms with an eye of 1e308",
            "RangeError",
            "past f32's range",
        ),
    ]) {
        assert_eq!(r["name"], name, "{r}");
        assert_eq!(r["threw"], true, "{name}: {r}");
        assert_eq!(r["type"], ty, "{name}: {r}");
        assert!(
            r["message"].as_str().unwrap_or("").contains(text),
            "{name}: {r}"
        );
    }
    // An eye in range still gives the translation relative to it, exactly.
    assert_eq!(lines[12]["x"], -6.4e6);
    assert_eq!(lines[12]["z"], -1.0);
}
