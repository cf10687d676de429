//! The npm module's `createFft` (js/fft.js) on WebGL 2 in headless Chromium, over ANGLE on
//! SwiftShader and on Mesa: every length class (2^k with k even and odd, 3 * 2^k, any other
//! through Bluestein, the smallest of each, batches, radix 8, real input, 2-D images) in f32,
//! df64 and qf128, forward
//! and inverse, circular convolutions through `multiply`, judged
//! here against the double-double DFT of `df64gl::fft::reference` (oracle twiddles, Bluestein
//! for 3 * 2^k) with this file's bounds; the data kept on the GPU through a rescale; bad calls
//! refused with a message; the caller's WebGL state left as it was; and a plan refused where
//! the check fails, where the passes' df64 product is broken, and (ANGLE over Mesa) where the
//! passes are the unprotected build.

mod common;

use std::collections::HashMap;
use std::sync::Mutex;

use base64::Engine;
use df64gl::fft::reference::{dft_dd, rel_l2, Cdd};
use df64gl::fft::Direction;
use df64gl::numeric::Dd;
use df64gl_cli::web::browser::BrowserBackend;
use df64gl_cli::web::js_module::run_module_page;

use common::points;
use rand::{Rng, SeedableRng};
use serde_json::Value;

const PAGE: &str = "/cli/tests/data/js-fft.html";

/// Relative L2 error bounds: the for df64 and qf128; f32's a hundred f32 roundings.
fn bound(precision: &str) -> f64 {
    match precision {
        "f32" => 1e-5,
        "df64" => 1e-14,
        _ => 1e-27,
    }
}

/// One page per Chromium at a time: the machine has two cores.
static PAGES: Mutex<()> = Mutex::new(());

struct Case {
    precision: &'static str,
    length: usize,
    batch: usize,
    radix: usize,
    /// Inputs times this power of two (the block scaling's range).
    scale_log2: i32,
    doubles: bool,
    /// A real-input plan: `length` reals a row to `length / 2 + 1` bins.
    real: bool,
    /// A 2-D plan of rows x columns (`length` their product).
    shape: Option<(usize, usize)>,
}

impl Case {
    /// Whether the page returns the f32 words (not where the data lie outside f32's range).
    fn words(&self) -> bool {
        self.scale_log2.abs() < 100
    }
}

fn case(precision: &'static str, length: usize) -> Case {
    Case {
        precision,
        length,
        batch: 1,
        radix: 4,
        scale_log2: 0,
        doubles: false,
        real: false,
        shape: None,
    }
}

fn image(precision: &'static str, rows: usize, columns: usize) -> Case {
    Case {
        shape: Some((rows, columns)),
        ..case(precision, rows * columns)
    }
}

fn real(precision: &'static str, length: usize, batch: usize) -> Case {
    Case {
        real: true,
        batch,
        ..case(precision, length)
    }
}

fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    for n in [16, 12, 1000, 1 << 16] {
        out.push(case("f32", n));
    }
    // Both parities of log2 N, 3 * 2^k with k even and odd, the smallest lengths of each class.
    for n in [2, 4, 8, 32, 3, 6, 12, 24, 48, 2048, 3072, 1 << 16, 3 << 14] {
        out.push(case("df64", n));
    }
    // Bluestein: the smallest, odd and even, a prime, and one near 2^15 (m = 2^17).
    for n in [1, 5, 7, 100, 1000, 10007, 40000] {
        out.push(case("df64", n));
    }
    out.push(Case {
        batch: 3,
        ..case("df64", 20)
    });
    out.push(Case {
        doubles: true,
        ..case("df64", 1024)
    });
    out.push(Case {
        batch: 3,
        ..case("df64", 64)
    });
    for n in [512, 1024] {
        out.push(Case {
            radix: 8,
            ..case("df64", n)
        });
    }
    for scale_log2 in [300, -300] {
        out.push(Case {
            scale_log2,
            doubles: true,
            ..case("df64", 256)
        });
    }
    for n in [2, 8, 32, 6, 12, 48, 1024, 3072, 1 << 16, 5, 100, 1000] {
        out.push(case("qf128", n));
    }
    out.push(Case {
        batch: 2,
        ..case("qf128", 16)
    });
    for c in [
        real("f32", 256, 1),
        real("df64", 4, 1),
        real("df64", 16, 1),
        real("df64", 1024, 1),
        real("df64", 1 << 16, 1),
        real("df64", 64, 2),
        real("qf128", 8, 1),
        real("qf128", 1024, 1),
        image("f32", 32, 64),
        image("df64", 2, 2),
        image("df64", 4, 8),
        image("df64", 16, 2),
        image("df64", 256, 256),
        image("qf128", 8, 16),
        image("qf128", 64, 64),
    ] {
        out.push(c);
    }
    out
}

fn input(seed: u64, len: usize, scale_log2: i32) -> Vec<f64> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let s = 2f64.powi(scale_log2);
    (0..len).map(|_| rng.gen_range(-1.0..1.0) * s).collect()
}

fn bytes_f64(v: &[f64]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn decode<T: Copy>(v: &Value, width: usize, from: fn([u8; 8]) -> T) -> Vec<T> {
    let b64 = base64::engine::general_purpose::STANDARD;
    let bytes = b64
        .decode(
            v.as_str()
                .unwrap_or_else(|| panic!("no base64 output: {v}")),
        )
        .unwrap();
    bytes
        .chunks_exact(width)
        .map(|c| {
            let mut a = [0u8; 8];
            a[..width].copy_from_slice(c);
            from(a)
        })
        .collect()
}

fn f32s(v: &Value) -> Vec<f32> {
    decode(v, 4, |a| f32::from_le_bytes([a[0], a[1], a[2], a[3]]))
}

fn f64s(v: &Value) -> Vec<f64> {
    decode(v, 8, f64::from_le_bytes)
}

fn complex(x: &[f64]) -> Vec<Cdd> {
    x.chunks_exact(2)
        .map(|c| Cdd {
            re: Dd::from_f64(c[0]),
            im: Dd::from_f64(c[1]),
        })
        .collect()
}

/// The double-double DFT of each row of `n` points.
fn rows_dft(x: &[Cdd], n: usize, direction: Direction) -> Vec<Cdd> {
    x.chunks(n).flat_map(|row| dft_dd(row, direction)).collect()
}

/// The 2-D double-double DFT of a row-major `h` x `w` image: its rows, then its columns.
fn image_dft(x: &[Cdd], h: usize, w: usize, direction: Direction) -> Vec<Cdd> {
    let rows = rows_dft(x, w, direction);
    let mut out = rows.clone();
    for c in 0..w {
        let column: Vec<Cdd> = (0..h).map(|r| rows[r * w + c]).collect();
        for (r, v) in dft_dd(&column, direction).into_iter().enumerate() {
            out[r * w + c] = v;
        }
    }
    out
}

/// A real case's errors: the bins of each row of reals against the first n/2 + 1 bins of the
/// double-double DFT, and the reals from the given bins against the inverse DFT of their
/// Hermitian extension.
fn real_errors(c: &Case, x: &[f64], bins_bytes: &[u8], r: &Value) -> (f64, f64) {
    let n = c.length;
    let half = n / 2 + 1;
    let reals: Vec<Cdd> = x
        .iter()
        .map(|v| Cdd {
            re: Dd::from_f64(*v),
            im: Dd::from_f64(0.0),
        })
        .collect();
    let want: Vec<Cdd> = reals
        .chunks(n)
        .flat_map(|row| dft_dd(row, Direction::Forward).into_iter().take(half))
        .collect();
    let got = points(&f32s(&r["forward"]), c.precision);
    let forward = rel_l2(&got, &want);
    let bins: Vec<f64> = bins_bytes
        .chunks_exact(8)
        .map(|b| f64::from_le_bytes(b.try_into().unwrap_or([0; 8])))
        .collect();
    let mut want = Vec::new();
    for row in complex(&bins).chunks(half) {
        let full: Vec<Cdd> = (0..n)
            .map(|k| if k < half { row[k] } else { row[n - k].conj() })
            .collect();
        want.extend(dft_dd(&full, Direction::Inverse).into_iter().map(|c| Cdd {
            re: c.re,
            im: Dd::from_f64(0.0),
        }));
    }
    let words = f32s(&r["inverse"]);
    let per = match c.precision {
        "f32" => 1,
        "df64" => 2,
        _ => 4,
    };
    // Each real is one part of `per` words: read them as points with a zero imaginary part.
    let padded: Vec<f32> = words
        .chunks_exact(per)
        .flat_map(|w| w.iter().copied().chain(std::iter::repeat_n(0.0, per)))
        .collect();
    let got = points(&padded, c.precision);
    (forward, rel_l2(&got, &want))
}

/// The two signals of each circular convolution the pages run (df64 of 256 points, qf128 of
/// 64), served at /__df64gl/fft/conv-<precision>-x.bin and -y.bin.
fn convolution_inputs(
    seed: u64,
    memory: &mut HashMap<String, Vec<u8>>,
) -> Vec<(&'static str, Vec<f64>, Vec<f64>)> {
    let mut convolutions = Vec::new();
    for (k, (precision, n)) in [("df64", 256), ("qf128", 64)].into_iter().enumerate() {
        let x = input(seed + 2 * k as u64, 2 * n, 0);
        let y = input(seed + 1 + 2 * k as u64, 2 * n, 0);
        for (name, v) in [("x", &x), ("y", &y)] {
            memory.insert(
                format!("/__df64gl/fft/conv-{precision}-{name}.bin"),
                bytes_f64(v),
            );
        }
        convolutions.push((precision, x, y));
    }
    convolutions
}

/// The page's circular convolutions (two spectra, multiply, inverse) against the sum computed
/// here in double-double.
fn assert_convolutions(v: &Value, convolutions: &[(&str, Vec<f64>, Vec<f64>)], leg: &str) {
    let got = v["convolution"].as_array().expect("convolutions");
    assert_eq!(got.len(), convolutions.len(), "{leg}");
    for ((precision, x, y), r) in convolutions.iter().zip(got) {
        let (x, y) = (complex(x), complex(y));
        let n = x.len();
        let want: Vec<Cdd> = (0..n)
            .map(|k| (0..n).fold(Cdd::ZERO, |acc, j| acc + x[j] * y[(n + k - j) % n]))
            .collect();
        let e = rel_l2(&points(&f32s(r), precision), &want);
        assert!(
            e <= bound(precision),
            "{leg} {precision} convolution of {n}: {e:.2e}"
        );
    }
}

fn run_page(backend: BrowserBackend, query: &str, memory: HashMap<String, Vec<u8>>) -> Value {
    run_page_at(PAGE, backend, query, memory)
}

/// The test page at `path` with `query` on `backend`, one page at a time.
fn run_page_at(
    path: &str,
    backend: BrowserBackend,
    query: &str,
    memory: HashMap<String, Vec<u8>>,
) -> Value {
    let chromium = common::chromium();
    let _one = PAGES.lock().unwrap_or_else(|e| e.into_inner());
    run_module_page(&chromium, backend, path, query, memory, 0)
        .unwrap_or_else(|e| panic!("{} {path}: {e}", backend.name()))
}

fn transforms_match_the_reference(backend: BrowserBackend) {
    let cases = cases();
    let mut memory = HashMap::new();
    let mut inputs = Vec::new();
    let list: Vec<Value> = cases
        .iter()
        .map(|c| {
            serde_json::json!({
                "precision": c.precision, "length": c.length, "batch": c.batch,
                "radix": c.radix, "doubles": c.doubles, "words": c.words(), "real": c.real,
                "shape": c.shape.map(|(h, w)| vec![h, w]),
            })
        })
        .collect();
    memory.insert(
        "/__df64gl/fft/cases.json".to_string(),
        serde_json::to_vec(&list).unwrap(),
    );
    for (i, c) in cases.iter().enumerate() {
        let per_row = if c.real { 1 } else { 2 };
        let x = input(i as u64, per_row * c.length * c.batch, c.scale_log2);
        memory.insert(format!("/__df64gl/fft/{i}.bin"), bytes_f64(&x));
        inputs.push(x);
        if c.real {
            // Random bins 0..=n/2 a row, bins 0 and n/2 real.
            let mut b = input(500 + i as u64, (c.length + 2) * c.batch, 0);
            for row in b.chunks_exact_mut(c.length + 2) {
                row[1] = 0.0;
                row[c.length + 1] = 0.0;
            }
            memory.insert(format!("/__df64gl/fft/{i}-bins.bin"), bytes_f64(&b));
        }
    }
    let resident = input(1000, 2048, 0);
    memory.insert(
        "/__df64gl/fft/resident.bin".to_string(),
        bytes_f64(&resident),
    );
    let convolutions = convolution_inputs(2000, &mut memory);
    let v = run_page(backend, "", memory.clone());
    let got = v["cases"].as_array().expect("cases");
    assert_eq!(got.len(), cases.len());
    let mut failures = Vec::new();
    let mut table = Vec::new();
    let attachments = v["attachments"].as_u64().expect("attachments");
    let mut refused = 0;
    for (i, ((c, x), r)) in cases.iter().zip(&inputs).zip(got).enumerate() {
        // Radix 8 writes 8 color attachments: a context with fewer refuses it, saying what to
        // use instead; one with 8 runs it (below, as every case).
        if c.radix == 8 && attachments < 8 {
            let why = &r["refused"];
            assert_eq!(
                why["threw"], true,
                "radix 8 with {attachments} attachments: {r}"
            );
            assert_eq!(why["type"], "RangeError", "{r}");
            assert!(
                why["message"]
                    .as_str()
                    .unwrap_or("")
                    .contains("use radix 4"),
                "{r}"
            );
            refused += 1;
            continue;
        }
        assert!(
            r.get("refused").is_none(),
            "refused with {attachments}: {r}"
        );
        if c.real {
            let (forward, inverse) =
                real_errors(c, x, &memory[&format!("/__df64gl/fft/{i}-bins.bin")], r);
            for (key, e) in [("forward", forward), ("inverse", inverse)] {
                table.push(format!(
                    "{} real n={} batch={} {key}: {e:.2e}",
                    c.precision, c.length, c.batch
                ));
                if e.is_nan() || e > bound(c.precision) {
                    failures.push(table.last().cloned().unwrap_or_default());
                }
            }
            continue;
        }
        let xs = complex(x);
        for (dir, key) in [
            (Direction::Forward, "forward"),
            (Direction::Inverse, "inverse"),
        ] {
            let reference = match c.shape {
                Some((h, w)) => image_dft(&xs, h, w, dir),
                None => rows_dft(&xs, c.length, dir),
            };
            let mut outputs = Vec::new();
            if c.words() {
                outputs.push(("words", points(&f32s(&r[key]), c.precision)));
            }
            if c.doubles {
                outputs.push(("doubles", complex(&f64s(&r[format!("{key}Doubles")]))));
            }
            for (form, y) in outputs {
                assert_eq!(y.len(), reference.len(), "{} {}", c.precision, c.length);
                let e = rel_l2(&y, &reference);
                let shape = c
                    .shape
                    .map_or(String::new(), |(h, w)| format!(" image {h}x{w}"));
                table.push(format!(
                    "{} n={}{shape} batch={} radix={} x 2^{} {key} {form}: {e:.2e}",
                    c.precision, c.length, c.batch, c.radix, c.scale_log2
                ));
                if e.is_nan() || e > bound(c.precision) {
                    failures.push(table.last().cloned().unwrap_or_default());
                }
            }
        }
    }
    eprintln!(
        "{}: {} ({refused} radix-8 cases refused: {attachments} color attachments)",
        backend.name(),
        table.join("\n")
    );
    assert!(failures.is_empty(), "{}: {failures:?}", backend.name());

    // 20 forward transforms of 1024 points: N^10 x = 2^100 x, through a rescale.
    let power = complex(&f64s(&v["resident"]["power"]));
    let want: Vec<Cdd> = complex(
        &resident
            .iter()
            .map(|x| x * 2f64.powi(100))
            .collect::<Vec<_>>(),
    );
    let e = rel_l2(&power, &want);
    assert!(e <= 1e-13, "F^20 x on the GPU: {e:.2e}");
    let back = complex(&f64s(&v["resident"]["roundTrip"]));
    let e = rel_l2(&back, &complex(&resident));
    assert!(e <= 1e-14, "round trip on the GPU: {e:.2e}");

    assert_convolutions(&v, &convolutions, "WebGL");

    // Every bad call throws, of the right type, saying what to do.
    let expect: [(&str, &str, &str); 20] = [
        ("no context", "TypeError", "WebGL 2"),
        ("length 0", "RangeError", "options.length"),
        (
            "length as a string",
            "TypeError",
            "option length takes a number",
        ),
        ("length 2.5", "RangeError", "options.length"),
        ("precision f64", "TypeError", "options.precision"),
        ("batch 0", "RangeError", "options.batch"),
        ("radix 8 qf128", "RangeError", "use radix 4"),
        ("too large", "RangeError", "texture"),
        ("short input", "RangeError", "has 30 numbers"),
        ("string input", "TypeError", "Float64Array"),
        ("NaN input", "RangeError", "[7] is NaN"),
        ("infinite input", "RangeError", "[3] is -Infinity"),
        ("bad direction", "TypeError", "'forward' or 'inverse'"),
        ("execute before upload", "Error", "upload(x)"),
        ("multiply by another length", "TypeError", "same length"),
        ("multiply through Bluestein", "TypeError", "zero-pad"),
        ("real of 12", "RangeError", "power of two"),
        ("shape 3 x 4", "RangeError", "options.shape"),
        ("complex bins", "RangeError", "bins 0 and n/2"),
        ("disposed", "Error", "disposed"),
    ];
    let bad = v["bad"].as_array().expect("bad calls");
    assert_eq!(bad.len(), expect.len());
    for (b, (name, ty, text)) in bad.iter().zip(expect) {
        assert_eq!(b["name"], name);
        assert_eq!(b["threw"], true, "{name} did not throw");
        assert_eq!(b["type"], ty, "{name}: {b}");
        assert!(
            b["message"].as_str().unwrap_or("").contains(text),
            "{name}: {b}"
        );
    }
    let lost = &v["lost"];
    assert_eq!(lost["threw"], true, "a lost context: {lost}");
    assert!(
        lost["message"].as_str().unwrap_or("").contains("lost"),
        "{lost}"
    );

    let s = &v["state"];
    assert_eq!(s["errorBefore"], 0);
    assert_eq!(s["error"], 0, "the FFT left a GL error: {s}");
    for key in [
        "framebuffer",
        "program",
        "vertexArray",
        "arrayBuffer",
        "texture1",
        "array0",
        "scissor",
        "blend",
    ] {
        assert_eq!(s[key], true, "the FFT changed the caller's {key}: {s}");
    }
    assert_eq!(s["viewport"], serde_json::json!([1, 2, 3, 4]));
    assert_eq!(s["activeTexture"], 3);
    assert_eq!(s["unpackAlignment"], 1);
}

#[test]
fn create_fft_matches_the_reference_on_swiftshader() {
    transforms_match_the_reference(BrowserBackend::Swiftshader);
}

#[test]
fn create_fft_matches_the_reference_on_angle_over_mesa() {
    transforms_match_the_reference(BrowserBackend::AngleGl);
}

fn refused(v: &Value, key: &str, text: &str) {
    let r = &v[key];
    assert_eq!(r["threw"], true, "{key}: a plan was made: {v}");
    assert!(
        r["message"].as_str().unwrap_or("").contains(text),
        "{key}: {r}"
    );
}

#[test]
fn create_fft_refuses_broken_passes_and_a_failing_check() {
    let v = run_page(BrowserBackend::Swiftshader, "?break=1", HashMap::new());
    refused(&v, "folded", "relative error");
    refused(&v, "corrupt", "failed the check");
    // ANGLE over Mesa folds the unprotected build's transforms (check's own test shows it for
    // the routines): the passes' self-test must see it too.
    let v = run_page(
        BrowserBackend::AngleGl,
        "?break=1&unprotected=1",
        HashMap::new(),
    );
    refused(&v, "folded", "relative error");
    refused(&v, "corrupt", "failed the check");
    refused(&v, "unprotected", "relative error");
}

/// `createFftWebGPU` (js/fft-webgpu.js) in headless Chromium's WebGPU (Dawn on SwiftShader):
/// f32, df64 and qf128 at several powers of two (radix 4 with and without the last radix-2
/// stage, radix 2 throughout, and the render form: radix 2 as a fragment program on
/// textures), 3 * 2^k as mixed radix, through Bluestein, a batch, real input and 2-D, forward and
/// inverse, against the double-double DFT with this file's bounds; a 2^22-point plan past the
/// dispatch's first dimension; a round trip kept on the device; bad calls rejected with a
/// message; broken pipelines refused.
#[test]
fn create_fft_webgpu_matches_the_reference() {
    // 3 * 2^k runs as mixed radix (the radix-3 stage last); other lengths than 2^k run through
    // Bluestein on 2^k >= 2n - 1 points. The first df64 and qf128 plans are Bluestein's, so
    // the stages' self-tests run from such a plan.
    // (precision, points, batch, doubles too, variant: radix "4" or "2", or "render": the
    // fragment-program form)
    let cases: Vec<(&str, usize, usize, bool, &str)> = vec![
        ("f32", 16, 1, false, "4"),
        ("f32", 4096, 1, false, "4"),
        ("f32", 2048, 1, false, "2"),
        ("f32", 10, 1, false, "4"),
        ("f32", 3 << 10, 1, false, "4"),
        ("df64", 10, 2, true, "4"),
        ("df64", 3, 1, false, "4"),
        ("df64", 6, 2, false, "4"),
        ("df64", 12, 1, true, "4"),
        ("df64", 96, 1, false, "2"),
        ("df64", 3 << 15, 1, false, "4"),
        ("df64", 2, 1, false, "4"),
        ("df64", 16, 1, true, "4"),
        ("df64", 64, 3, false, "4"),
        ("df64", 128, 2, false, "4"),
        ("df64", 4096, 1, false, "4"),
        ("df64", 4096, 1, false, "2"),
        ("df64", 1 << 16, 1, false, "4"),
        ("df64", 1 << 17, 1, false, "4"),
        ("df64", 1, 1, false, "4"),
        ("df64", 3000, 1, false, "4"),
        ("qf128", 10, 1, false, "4"),
        ("qf128", 16, 1, false, "4"),
        ("qf128", 48, 1, false, "4"),
        ("qf128", 32, 1, false, "2"),
        ("qf128", 512, 1, false, "4"),
        ("qf128", 100, 1, false, "4"),
        ("f32", 1024, 1, false, "render"),
        ("df64", 2, 1, false, "render"),
        ("df64", 64, 3, false, "render"),
        ("df64", 1 << 14, 1, false, "render"),
        ("qf128", 32, 2, false, "render"),
    ];
    let mut memory = HashMap::new();
    let list: Vec<Value> = cases
        .iter()
        .map(|(p, n, b, d, v)| serde_json::json!({ "precision": p, "length": n, "batch": b, "doubles": d, "variant": v }))
        .collect();
    memory.insert(
        "/__df64gl/fft/cases.json".to_string(),
        serde_json::to_vec(&list).unwrap(),
    );
    let mut inputs = Vec::new();
    for (i, (_, n, b, _, _)) in cases.iter().enumerate() {
        let x = input(3000 + i as u64, 2 * n * b, 0);
        memory.insert(format!("/__df64gl/fft/{i}.bin"), bytes_f64(&x));
        inputs.push(x);
    }
    let resident = input(4000, 2048, 0);
    memory.insert(
        "/__df64gl/fft/resident.bin".to_string(),
        bytes_f64(&resident),
    );
    let convolutions = convolution_inputs(5000, &mut memory);
    // An impulse at point `at` of 2^22 (radix 2: one invocation an output, so the stages'
    // dispatches take their third dimension), every `stride`-th bin back.
    let (big_n, big_at, big_stride) = (1usize << 22, 1_234_567usize, 4096usize);
    memory.insert(
        "/__df64gl/fft/big-cases.json".to_string(),
        serde_json::to_vec(&serde_json::json!([{ "precision": "f32", "length": big_n, "radix": 2, "at": big_at, "stride": big_stride }])).unwrap(),
    );
    // Real input: n reals a row to n/2 + 1 bins, and random bins back.
    let real_cases = [
        real("f32", 256, 1),
        real("df64", 4, 1),
        real("df64", 1024, 2),
        real("qf128", 64, 1),
    ];
    let list: Vec<Value> = real_cases
        .iter()
        .map(|c| serde_json::json!({ "precision": c.precision, "length": c.length, "batch": c.batch }))
        .collect();
    memory.insert(
        "/__df64gl/fft/real-cases.json".to_string(),
        serde_json::to_vec(&list).unwrap(),
    );
    // 2-D images (row-major), transformed both ways.
    let image_cases = [
        image("df64", 2, 2),
        image("df64", 4, 8),
        image("f32", 32, 64),
        image("qf128", 8, 16),
    ];
    let list: Vec<Value> = image_cases
        .iter()
        .map(|c| serde_json::json!({ "precision": c.precision, "shape": c.shape.map(|(h, w)| vec![h, w]) }))
        .collect();
    memory.insert(
        "/__df64gl/fft/image-cases.json".to_string(),
        serde_json::to_vec(&list).unwrap(),
    );
    let mut image_inputs = Vec::new();
    for (i, c) in image_cases.iter().enumerate() {
        let x = input(7000 + i as u64, 2 * c.length, 0);
        memory.insert(format!("/__df64gl/fft/image-{i}.bin"), bytes_f64(&x));
        image_inputs.push(x);
    }
    let mut real_inputs = Vec::new();
    for (i, c) in real_cases.iter().enumerate() {
        let x = input(6000 + i as u64, c.length * c.batch, 0);
        let mut b = input(6500 + i as u64, (c.length + 2) * c.batch, 0);
        for row in b.chunks_exact_mut(c.length + 2) {
            row[1] = 0.0;
            row[c.length + 1] = 0.0;
        }
        memory.insert(format!("/__df64gl/fft/real-{i}.bin"), bytes_f64(&x));
        memory.insert(format!("/__df64gl/fft/real-{i}-bins.bin"), bytes_f64(&b));
        real_inputs.push((x, bytes_f64(&b)));
    }
    let v = run_page_at(
        "/cli/tests/data/js-fft-webgpu.html",
        BrowserBackend::WebGpu,
        "",
        memory,
    );
    let got = v["cases"]
        .as_array()
        .unwrap_or_else(|| panic!("the page gave no cases: {v}"));
    assert_eq!(got.len(), cases.len());
    let mut table = Vec::new();
    let mut failures = Vec::new();
    for ((&(precision, n, batch, doubles, variant), x), r) in cases.iter().zip(&inputs).zip(got) {
        let xs = complex(x);
        for (dir, key) in [
            (Direction::Forward, "forward"),
            (Direction::Inverse, "inverse"),
        ] {
            let reference = rows_dft(&xs, n, dir);
            let y = points(&f32s(&r[key]), precision);
            assert_eq!(y.len(), reference.len(), "{precision} {n}");
            let e = rel_l2(&y, &reference);
            table.push(format!(
                "{precision} n={n} batch={batch} {variant} {key}: {e:.2e} (plan {:.0} ms, both {:.0} ms)",
                r["planMs"].as_f64().unwrap_or(f64::NAN),
                r["runMs"].as_f64().unwrap_or(f64::NAN)
            ));
            if e.is_nan() || e > bound(precision) {
                failures.push(table.last().cloned().unwrap_or_default());
            }
            if doubles && dir == Direction::Forward {
                let d = complex(&f64s(&r["forwardDoubles"]));
                let e = rel_l2(&d, &reference);
                assert!(e <= bound(precision), "{precision} {n} doubles: {e:.2e}");
            }
        }
    }
    eprintln!("WebGPU: {}", table.join("\n"));
    assert!(failures.is_empty(), "WebGPU: {failures:?}");
    // The impulse's spectrum: X_k = w^(at k), w = e^(-2 pi i / N), at the sampled k.
    let big = points(&f32s(&v["big"][0]), "f32");
    let exact: Vec<Cdd> = (0..big_n / big_stride)
        .map(|s| {
            let phase = (big_at * s * big_stride) % big_n;
            let angle = -2.0 * std::f64::consts::PI * phase as f64 / big_n as f64;
            Cdd {
                re: Dd::from_f64(angle.cos()),
                im: Dd::from_f64(angle.sin()),
            }
        })
        .collect();
    assert_eq!(big.len(), exact.len(), "2^22 impulse: sampled bins");
    let e = rel_l2(&big, &exact);
    eprintln!("WebGPU f32 2^22 radix 2 impulse: {e:.2e}");
    assert!(
        e <= bound("f32"),
        "WebGPU f32 2^22 radix 2 impulse: {e:.2e}"
    );
    let back = points(&f32s(&v["roundTrip"]), "df64");
    let e = rel_l2(&back, &complex(&resident));
    assert!(e <= bound("df64"), "round trip on the device: {e:.2e}");
    assert_convolutions(&v, &convolutions, "WebGPU");
    let got = v["images"].as_array().expect("images");
    assert_eq!(got.len(), image_cases.len());
    for ((c, x), r) in image_cases.iter().zip(&image_inputs).zip(got) {
        let (h, w) = c.shape.unwrap_or((1, c.length));
        for (dir, key) in [
            (Direction::Forward, "forward"),
            (Direction::Inverse, "inverse"),
        ] {
            let e = rel_l2(
                &points(&f32s(&r[key]), c.precision),
                &image_dft(&complex(x), h, w, dir),
            );
            eprintln!("WebGPU {} image {h}x{w} {key}: {e:.2e}", c.precision);
            assert!(
                e <= bound(c.precision),
                "WebGPU {} image {h}x{w} {key}: {e:.2e}",
                c.precision
            );
        }
    }
    let got = v["real"].as_array().expect("real cases");
    assert_eq!(got.len(), real_cases.len());
    for ((c, (x, bins)), r) in real_cases.iter().zip(&real_inputs).zip(got) {
        let (forward, inverse) = real_errors(c, x, bins, r);
        eprintln!(
            "WebGPU {} real n={} batch={}: forward {forward:.2e}, inverse {inverse:.2e}",
            c.precision, c.length, c.batch
        );
        for e in [forward, inverse] {
            assert!(
                e <= bound(c.precision),
                "WebGPU {} real n={} batch={}: forward {forward:.2e}, inverse {inverse:.2e}",
                c.precision,
                c.length,
                c.batch
            );
        }
    }
    let bad = v["bad"].as_array().unwrap();
    for (name, text) in [
        ("no device", "GPUDevice"),
        ("length 0", "whole number of points"),
        ("real of 12", "power of two"),
        ("shape 3 x 4", "options.shape"),
        ("shape with a batch", "no batch"),
        ("length 2.5", "whole number of points"),
        ("Bluestein too large", "past the largest plan"),
        ("multiply by another length", "same length"),
        ("multiply through Bluestein", "zero-pad"),
        ("multiply before upload", "nothing uploaded"),
        ("precision f64", "precision"),
        ("batch 0", "batch"),
        ("radix 8", "radix must be 4"),
        ("form bogus", "options.form"),
        ("render real", "complex plans of 2^k"),
        ("render of 12", "complex plans of 2^k"),
        ("render radix 4", "radix-2 stage"),
        ("render multiply", "compute form"),
        ("too large", "whole number of points"),
        ("short input", "this plan takes 32"),
        ("NaN input", "finite numbers only"),
        ("bad direction", "direction"),
        ("download before upload", "nothing uploaded"),
        ("disposed", "disposed"),
    ] {
        let r = bad
            .iter()
            .find(|r| r["name"] == name)
            .unwrap_or_else(|| panic!("no {name}: {v}"));
        assert_eq!(r["threw"], true, "{name}: {r}");
        assert!(
            r["message"].as_str().unwrap_or("").contains(text),
            "{name}: {r}"
        );
    }
    // A stage whose products lose their low words fails its self-test; a device whose
    // read-backs are corrupted fails the check first.
    let v = run_page_at(
        "/cli/tests/data/js-fft-webgpu.html",
        BrowserBackend::WebGpu,
        "?break=1",
        HashMap::new(),
    );
    refused(&v, "folded", "relative error");
    refused(&v, "radix4", "inverse transform with relative error");
    refused(&v, "render", "relative error");
    refused(&v, "pointwise", "pointwise product computed known products");
    refused(&v, "real", "real-input passes computed");
    refused(&v, "transpose", "transpose moved point");
    refused(&v, "corrupt", "failed checkWebGPU");
}
