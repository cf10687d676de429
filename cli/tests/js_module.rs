//! The npm package in `js/`: its generated half equals `df64gl js`'s output, its number helpers
//! (run in Node) give the words computed here, its declarations name what it exports, and its
//! `check(gl)` — imported over http as a renderer imports it, on a context whose state the
//! page set up first — passes on ANGLE over SwiftShader and over Mesa, leaves that state as
//! it was, and fails when the answers are corrupted, when the GLSL is the unprotected build on
//! a compiler that breaks it, and when there is no WebGL 2.

mod common;

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;
use std::sync::{RwLock, RwLockReadGuard};

use df64gl::export::snippet::{compact_glsl, snippet, SnippetOptions, SnippetTarget};
use df64gl::numeric::vec_catalog::vec_ops;
use df64gl_cli::experiments::js::known_answers::checked_df64_ops;
use df64gl_cli::experiments::js::{generated_files, known_answers_json, NPM_VERSION};
use df64gl_cli::web::browser::BrowserBackend;
use df64gl_cli::web::js_module::{
    module_files, repository_root, resolve, run_module_page, HAND_WRITTEN,
};
use serde_json::Value;

const CHECK_PAGE: &str = "/cli/tests/data/js-check.html";

fn js_dir() -> PathBuf {
    repository_root().join("js")
}

/// The files under `dir` (relative to it, with `/`), recursively.
fn files_under(dir: &std::path::Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let rel = path
                    .strip_prefix(dir)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                out.push(rel);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn generated_files_are_the_generators_output_and_the_package_names_this_version() {
    // Every generated module as committed, and no other file under src/generated/.
    let fresh = generated_files().unwrap();
    for f in &fresh {
        let committed = std::fs::read_to_string(js_dir().join(&f.path)).unwrap_or_default();
        assert!(
            committed == f.text,
            "js/{} differs from `df64gl js` output: run `cargo run --release -- js` and commit it",
            f.path
        );
    }
    let mut expected: Vec<String> = fresh
        .iter()
        .map(|f| f.path.trim_start_matches("src/generated/").to_string())
        .collect();
    expected.sort();
    assert_eq!(files_under(&js_dir().join("src/generated")), expected);
    // The library's copy of the same known answers (export::known, for a glow context).
    let asset = repository_root().join("assets/known-answers.json");
    assert!(
        std::fs::read_to_string(asset).unwrap() == known_answers_json().unwrap(),
        "assets/known-answers.json differs from `df64gl js` output: run `cargo run --release \
         -- js` and commit it"
    );
    // The pages' bundles list the hand-written modules: all of them.
    let mut hand: Vec<String> = HAND_WRITTEN.iter().map(|(p, _)| p.to_string()).collect();
    hand.sort();
    let on_disk: Vec<String> = files_under(&js_dir().join("src"))
        .into_iter()
        .filter(|p| !p.starts_with("generated/"))
        .map(|p| format!("src/{p}"))
        .collect();
    assert_eq!(
        hand, on_disk,
        "js_module::HAND_WRITTEN lists js/src/ as it is"
    );
    let package: Value =
        serde_json::from_str(&std::fs::read_to_string(js_dir().join("package.json")).unwrap())
            .unwrap();
    assert_eq!(package["version"], NPM_VERSION);
    assert_eq!(package["type"], "module");
    assert_eq!(package["sideEffects"], false);
    let files: Vec<&str> = package["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    let listed = |p: &str| {
        files.iter().any(|f| {
            if f.ends_with('/') {
                p.starts_with(f)
            } else {
                p == *f
            }
        })
    };
    for f in &files {
        assert!(
            js_dir().join(f).exists(),
            "package.json lists {f}, which is missing"
        );
    }
    // Every module a packed module imports is packed too (the package works installed), and
    // every entry's module and types are.
    for (path, text) in module_files().unwrap() {
        assert!(listed(&path), "{path} is not in package.json's files");
        for part in text
            .split("from '.")
            .skip(1)
            .chain(text.split("import('.").skip(1))
        {
            let spec = format!(".{}", part.split('\'').next().unwrap_or(""));
            let target = resolve(&path, &spec).unwrap();
            assert!(
                js_dir().join(&target).is_file() && listed(&target),
                "{path} imports {spec}, which is missing or not packed"
            );
        }
    }
    let exports = package["exports"].as_object().unwrap();
    for entry in [
        ".",
        "./three",
        "./luma",
        "./webgpu",
        "./fft",
        "./fft-webgpu",
    ] {
        for key in ["import", "types"] {
            let file = exports[entry][key]
                .as_str()
                .unwrap()
                .trim_start_matches("./");
            assert!(
                js_dir().join(file).is_file() && listed(file),
                "{entry}'s {key}: {file}"
            );
        }
    }
    // The GLSL string is the es300 export itself, without the comments past its header.
    let df64 = compact_glsl(&snippet(&SnippetOptions::new(SnippetTarget::Es300)).unwrap());
    let glsl = std::fs::read_to_string(js_dir().join("src/generated/glsl-df64.js")).unwrap();
    assert!(glsl.contains(&serde_json::to_string(&df64).unwrap()));
}

/// The package's entries without a peer dependency, as `import * as` names them in `node`.
const NODE_ENTRIES: [(&str, &str); 3] = [
    ("root", "src/index.js"),
    ("luma", "src/luma.js"),
    ("webgpu", "src/webgpu.js"),
];

/// Runs an ES module script in Node with the package's entries merged as `df64gl` (root, luma
/// and webgpu: those that need no peer package); its stdout.
fn node(script: &str) -> String {
    let imports: String = NODE_ENTRIES
        .iter()
        .map(|(name, file)| {
            format!(
                "import * as {name} from '{}';\n",
                js_dir().join(file).display().to_string().replace('\\', "/")
            )
        })
        .collect();
    let full = format!("{imports}const df64gl = {{ ...root, ...luma, ...webgpu }};\n{script}");
    let out = Command::new("node")
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

#[test]
fn split_join_and_arrays_give_the_f32_words() {
    let xs: Vec<f64> = vec![
        std::f64::consts::PI,
        -1e-30 / 3.0,
        1e30 / 7.0,
        0.1,
        -0.0,
        6.02214076e23,
        3.4028235677973366e38, // rounds to f32::MAX
        3.4028235677973367e38, // beyond: rounds to infinity as an f32
        1e-45,
        123_456_789.123_456_79,
    ];
    let list = xs
        .iter()
        .map(|x| format!("{x:e}"))
        .collect::<Vec<_>>()
        .join(",");
    let out = node(&format!(
        "const xs = [{list}];\n\
         const w = xs.map(df64gl.split);\n\
         const a = Array.from(df64gl.splitArray(new Float64Array(xs)));\n\
         const finite = [0, 1, 2, 3, 4, 5, 8, 9].map(i => xs[i]);\n\
         const m = df64gl.splitMat4(finite.concat(finite));\n\
         let past = 'none'; try {{ df64gl.splitMat4(finite.concat([xs[7]], finite.slice(1))); }} catch (e) {{ past = e.name; }}\n\
         const j = w.map(p => df64gl.join(p[0], p[1]));\n\
         const s = [NaN, Infinity, -Infinity, 1e300].map(df64gl.split);\n\
         let bad = 'none'; try {{ df64gl.splitMat4([1, 2]); }} catch (e) {{ bad = e.name; }}\n\
         const r = v => typeof v === 'number' && !Number.isFinite(v) ? String(v) : v;\n\
         console.log(JSON.stringify({{ w, a, hi: Array.from(m.hi), lo: Array.from(m.lo), j, s, bad, past, \
         sign: Object.is(w[4][0], -0) }}, (k, v) => r(v)));"
    ));
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    // Every number here is an f32 word; read through f32, serde_json's float parsing (not
    // always the nearest double) cannot move it.
    let f = |v: &Value| match v {
        Value::String(s) => s.parse::<f64>().unwrap(),
        _ => v.as_f64().unwrap() as f32 as f64,
    };
    for (i, x) in xs.iter().enumerate() {
        // The words, computed here: hi the f32 nearest x, lo the f32 nearest x - hi.
        let hi = *x as f32;
        let lo = if hi.is_finite() {
            (x - hi as f64) as f32
        } else {
            0.0
        };
        let got = (f(&v["w"][i][0]), f(&v["w"][i][1]));
        assert_eq!(got, (hi as f64, lo as f64), "split({x})");
        assert_eq!(
            (f(&v["a"][2 * i]), f(&v["a"][2 * i + 1])),
            got,
            "splitArray at {i}"
        );
        // splitMat4 took the finite elements (xs 6 and 7 round past f32's range).
        if let Some(k) = [0, 1, 2, 3, 4, 5, 8, 9].iter().position(|&j| j == i) {
            assert_eq!((f(&v["hi"][k]), f(&v["lo"][k])), got, "splitMat4 at {k}");
            assert_eq!((f(&v["hi"][k + 8]), f(&v["lo"][k + 8])), got);
        }
        if hi.is_finite() && x.abs() > 1e-30 {
            // About 48 bits: the pair is within 2^-48 of x, relatively.
            let rel = ((v["j"][i].as_f64().unwrap() - x) / x).abs();
            assert!(rel < 2f64.powi(-48), "join(split({x})) off by {rel}");
        }
    }
    assert!(v["sign"].as_bool().unwrap(), "split(-0) keeps the sign");
    assert!(f(&v["s"][0][0]).is_nan() && f(&v["s"][0][1]) == 0.0);
    assert_eq!((f(&v["s"][1][0]), f(&v["s"][1][1])), (f64::INFINITY, 0.0));
    assert_eq!(
        (f(&v["s"][2][0]), f(&v["s"][2][1])),
        (f64::NEG_INFINITY, 0.0)
    );
    assert_eq!((f(&v["s"][3][0]), f(&v["s"][3][1])), (f64::INFINITY, 0.0));
    assert_eq!(v["bad"], "TypeError");
    // A matrix element whose words would be infinite is refused, not passed on.
    assert_eq!(v["past"], "RangeError");
}

/// The values a declaration file declares (`export function|const|namespace NAME`, with or
/// without `declare`, and the names of its `export { ... } from` lines; not its types).
fn declared(file: &str) -> Vec<String> {
    let dts = std::fs::read_to_string(js_dir().join("types").join(file)).unwrap();
    let mut names: Vec<String> = dts
        .lines()
        .flat_map(|l| {
            if let Some(list) = l.strip_prefix("export {") {
                let list = list.split('}').next().unwrap_or("");
                return list
                    .split(',')
                    .map(|n| n.trim().to_string())
                    .filter(|n| !n.is_empty())
                    .collect::<Vec<_>>();
            }
            let Some(rest) = l.strip_prefix("export ") else {
                return vec![];
            };
            let rest = rest.strip_prefix("declare ").unwrap_or(rest);
            ["const ", "function ", "namespace "]
                .iter()
                .find_map(|k| rest.strip_prefix(k))
                .and_then(|r| r.split([':', '(', ' ', '<', ';']).next())
                .map(|n| vec![n.to_string()])
                .unwrap_or_default()
        })
        .collect();
    names.sort();
    names
}

/// The names a module of the package exports (run in Node; three is installed for the tests).
fn exported(file: &str) -> Vec<String> {
    common::js_dev_dependencies();
    let out = Command::new("node")
        .args([
            "--input-type=module",
            "-e",
            &format!(
                "import * as m from '{}'; console.log(Object.keys(m).sort().join(' '));",
                js_dir().join(file).display()
            ),
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut names: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .map(str::to_string)
        .collect();
    names.sort();
    names
}

#[test]
fn declarations_name_exactly_each_entrys_exports() {
    for (module, types) in [
        ("src/index.js", "index.d.ts"),
        ("src/three.js", "three.d.ts"),
        ("src/luma.js", "luma.d.ts"),
        ("src/webgpu.js", "webgpu.d.ts"),
        ("src/fft.js", "fft.d.ts"),
        ("src/fft-webgpu.js", "fft-webgpu.d.ts"),
    ] {
        assert_eq!(
            exported(module),
            declared(types),
            "{module} against types/{types}"
        );
    }
    let root = exported("src/index.js");
    for name in [
        "check",
        "checkAsync",
        "prepareCheck",
        "routinesCalledBy",
        "split",
        "join",
        "splitArray",
        "splitMat4",
        "splitPositions",
        "relativeToEye",
        "viewRotation",
        "rteUniforms",
        "DF64_GLSL",
        "DF64_RTE_GLSL",
        "QF128_GLSL",
        "VERSION",
    ] {
        assert!(root.iter().any(|n| n == name), "{name} is not exported");
    }
    // The root entry loads no FFT, WGSL or WebGPU code: those are their entries' alone.
    for name in [
        "createFft",
        "createFftWebGPU",
        "DF64_WGSL",
        "checkWebGPU",
        "df64",
    ] {
        assert!(
            !root.iter().any(|n| n == name),
            "the root entry exports {name}"
        );
    }
}

/// routinesCalledBy counts the calls made from the user's own functions: with the library
/// pasted in (whose functions call nearly every routine) and a routine named only in a comment,
/// it gives the routines called and nothing else; WGSL alike; a function no routine checks is
/// reported, not dropped.
#[test]
fn routines_called_by_names_what_the_users_functions_call() {
    let out = node(
        "const fs = '#version 300 es\\nprecision highp float;\\n' + df64gl.DF64_GLSL + df64gl.QF128_GLSL +\n\
         '\\nuniform vec4 u;\\nout vec4 o;\\n// df64_exp(x) and df64_tan(x) only in a comment\\n' +\n\
         'vec2 twice(vec2 a) { return df64_mul(a, vec2(2.0, 0.0)); }\\n' +\n\
         'float mantissa(vec2 a) { int e; return df64_to_f32(df64_frexp(a, e)); }\\n' +\n\
         'void main() {\\n  vec2 a = df64_from_f32(u.x);\\n  df64vec3 v = df64vec3_add(df64vec3(u.xyz, vec3(0.0)), df64vec3(u.xyz, vec3(0.0)));\\n' +\n\
         '  o = vec4(df64_sin(twice(a)).x, mantissa(a), qf128_exp(u).xy);\\n}\\n';\n\
         const wgsl = df64gl.DF64_WGSL + '\\n@fragment fn fs_main(@location(0) v: vec4<f32>) -> @location(0) vec4<f32> {\\n' +\n\
         '  let m = df64_div(v.xy, v.zw);\\n  return vec4<f32>(m, m);\\n}\\n';\n\
         console.log(JSON.stringify([df64gl.routinesCalledBy(fs), df64gl.routinesCalledBy(wgsl),\n\
           df64gl.routinesCalledBy(df64gl.DF64_GLSL), df64gl.routinesCalledBy([fs, wgsl])]));",
    );
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    let sorted = |x: &Value| {
        let mut names: Vec<String> = x["routines"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_str().unwrap().to_string())
            .collect();
        names.sort();
        names
    };
    // df64_to_f32 and df64_frexp are proven through the routines that return their results.
    let glsl_routines = [
        "exp",
        "frexp",
        "frexp_exp",
        "mul",
        "sin",
        "vec2_to_f32",
        "vec3_add",
    ];
    assert_eq!(sorted(&v[0]), glsl_routines, "{}", v[0]);
    assert_eq!(v[0]["qf128"], true);
    assert_eq!(v[0]["unchecked"], serde_json::json!(["df64_from_f32"]));
    assert_eq!(sorted(&v[1]), ["div"], "{}", v[1]);
    assert_eq!(v[1]["qf128"], false);
    // The library alone calls nothing of the user's.
    assert_eq!(sorted(&v[2]), Vec::<String>::new(), "{}", v[2]);
    // Both sources: the GLSL's routines and the WGSL's div.
    let mut both: Vec<&str> = glsl_routines.to_vec();
    both.push("div");
    both.sort();
    assert_eq!(sorted(&v[3]), both, "{}", v[3]);
}

/// relativeToEye, viewRotation and rteUniforms against matrices computed here: the translation
/// column minus the eye exactly, the rotation kept, the words of each element split as `split`
/// does, and a model with a rotation not taken for a translation.
#[test]
fn relative_to_eye_helpers_give_the_matrices_computed_here() {
    let out = node(
        "const model = [0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 6400000.125, -3.5, 1e9 + 0.25, 1];\n\
         const view = [1, 0, 0, 0, 0, 0, -1, 0, 0, 1, 0, 0, -6400000.5, 2, 3, 1];\n\
         const eye = [6400000.0625, -3.25, 1e9];\n\
         const m = Array.from(df64gl.relativeToEye(model, eye));\n\
         const r = Array.from(df64gl.viewRotation(view));\n\
         const u = df64gl.rteUniforms(model, eye, view);\n\
         const t = df64gl.rteUniforms([1,0,0,0, 0,1,0,0, 0,0,1,0, 5,6,7,1], eye, view).translationOnly;\n\
         const p = df64gl.splitPositions(new Float64Array([6400000.123456789, -1, 2]));\n\
         console.log(JSON.stringify({ m, r, hi: Array.from(u.df64_model_rte_hi), lo: Array.from(u.df64_model_rte_lo), \
         t, rot: u.translationOnly, phi: Array.from(p.hi), plo: Array.from(p.lo) }));",
    );
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    let nums = |k: &str| -> Vec<f64> {
        v[k].as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect()
    };
    let m = nums("m");
    // Translation minus the eye (w = 1 in column 3, 0 in the others): differences of doubles
    // that are exact here.
    assert_eq!(&m[12..15], &[0.0625, -0.25, 0.25]);
    assert_eq!(
        &m[..12],
        &[0.0, 1.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0]
    );
    assert_eq!(m[15], 1.0);
    let r = nums("r");
    assert_eq!(
        &r[12..15],
        &[0.0, 0.0, 0.0],
        "the rotation keeps no translation"
    );
    assert_eq!(
        &r[..12],
        &[1.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 1.0, 0.0, 0.0]
    );
    let (hi, lo) = (nums("hi"), nums("lo"));
    for i in 0..16 {
        assert_eq!(hi[i], m[i] as f32 as f64, "hi {i}");
        assert_eq!(lo[i], (m[i] - m[i] as f32 as f64) as f32 as f64, "lo {i}");
    }
    assert_eq!(v["t"], true);
    assert_eq!(v["rot"], false);
    let x = 6400000.123456789f64;
    assert_eq!(nums("phi")[0], x as f32 as f64);
    assert_eq!(nums("plo")[0], (x - x as f32 as f64) as f32 as f64);
}

/// The page that times itself (checkAsync's longest task, against 1 s) runs alone: the other
/// pages of this file share this lock and it takes it whole, so that no other Chromium competes
/// for the machine's two cores meanwhile (measured: its longest task 0.4 to 0.6 s alone, 1.0 s
/// beside two other pages).
static PAGES: RwLock<()> = RwLock::new(());

fn shared_page() -> RwLockReadGuard<'static, ()> {
    PAGES.read().unwrap_or_else(|e| e.into_inner())
}

fn page(backend: BrowserBackend, query: &str, memory: HashMap<String, Vec<u8>>) -> Value {
    let chromium = common::chromium();
    let _page = shared_page();
    run_module_page(&chromium, backend, CHECK_PAGE, query, memory, 0)
        .unwrap_or_else(|e| panic!("{}: {e}", backend.name()))
}

/// The whole check on one backend: it passes in both stages, every checked routine (the
/// vector and matrix ones too) ran within the bound this file states, the probe is all green in
/// each stage, and the caller's state is as the page left it.
fn full_check_passes(backend: BrowserBackend, renderer: &str) {
    let v = page(backend, "", HashMap::new());
    let r = &v["result"];
    assert_eq!(r["pass"], true, "{}: {}", backend.name(), r["reason"]);
    assert!(r["renderer"].as_str().unwrap().contains(renderer), "{r}");
    assert_eq!(r["probe"]["green"], r["probe"]["pixels"]);
    for stage in ["vertex", "fragment"] {
        let s = &r["stages"][stage];
        assert_eq!(s["pass"], true, "{stage}: {s}");
        assert_eq!(s["probe"]["green"], 4096, "{stage}");
    }
    let vectors = r["vectors"].as_array().unwrap();
    let names: Vec<&str> = vectors
        .iter()
        .map(|x| x["name"].as_str().unwrap())
        .collect();
    let expected: Vec<&str> = vec_ops().iter().map(|r| r.name).collect();
    assert_eq!(names, expected);
    for x in vectors {
        let name = x["name"].as_str().unwrap();
        let (unit, bound) = common::vec_bound(name);
        assert_eq!(x["unit"], unit, "{x}");
        let worst = x["worst"].as_f64().unwrap_or(f64::INFINITY);
        assert!(
            worst <= bound && x["failed"] == 0,
            "{name}: {worst} {unit} > {bound}"
        );
        assert_eq!(x["mirrorMatched"], x["cases"], "{x}");
    }
    let routines = r["routines"].as_array().unwrap();
    let names: Vec<&str> = routines
        .iter()
        .map(|x| x["name"].as_str().unwrap())
        .collect();
    let expected: Vec<&str> = checked_df64_ops().iter().map(|op| op.name()).collect();
    assert_eq!(names, expected);
    for x in routines {
        assert_eq!(x["pass"], true, "{x}");
        assert_eq!(x["failed"], 0, "{x}");
        let name = x["name"].as_str().unwrap();
        let own_bound = common::known_answer_bound(name);
        let worst = x["worst"].as_f64().unwrap_or(f64::INFINITY);
        assert!(worst <= own_bound, "{name}: {worst} > {own_bound}");
        // Bit-equal to the mirror but where a subnormal of the mirror's is flushed here
        // (`common::flushable_mirror_cases`).
        let cases = x["cases"].as_u64().unwrap();
        let flushable = common::flushable_mirror_cases(name) as u64;
        assert!(
            x["mirrorMatched"].as_u64().unwrap() + flushable >= cases,
            "{x}"
        );
    }
    let s = &v["state"];
    assert_eq!(s["errorBefore"], 0);
    assert_eq!(s["error"], 0, "check() left a GL error: {s}");
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
        assert_eq!(s[key], true, "check() changed the caller's {key}: {s}");
    }
    assert_eq!(s["viewport"], serde_json::json!([1, 2, 3, 4]));
    assert_eq!(s["activeTexture"], 3);
    assert_eq!(s["unpackAlignment"], 1);
}

#[test]
fn check_passes_on_swiftshader_and_leaves_the_state() {
    full_check_passes(BrowserBackend::Swiftshader, "SwiftShader");
}

#[test]
fn check_passes_on_angle_over_mesa_and_leaves_the_state() {
    full_check_passes(BrowserBackend::AngleGl, "llvmpipe");
}

/// A subset, as a renderer that uses only arithmetic would ask for.
const SUBSET: &str = "routines=add,mul,div,sqrt,exp,vec3_sub";

#[test]
fn check_fails_on_corrupted_answers_and_without_webgl2_and_caches_its_verdict() {
    // One ulp of f32 off in every float read back: each routine fails, the probe (bytes) not.
    // (The fragment stage alone: the vertex stage's corruption is the next case.)
    let v = page(
        BrowserBackend::Swiftshader,
        &format!("?corrupt=1&stages=fragment&{SUBSET}"),
        HashMap::new(),
    );
    let r = &v["result"];
    assert_eq!(r["pass"], false, "{r}");
    assert!(
        r["reason"].as_str().unwrap().contains("off their bounds"),
        "{r}"
    );
    assert_eq!(r["probe"]["green"], r["probe"]["pixels"]);
    let routines = r["routines"].as_array().unwrap();
    assert_eq!(routines.len(), 5);
    assert!(routines.iter().all(|x| x["pass"] == false), "{r}");

    // Only what the vertex stage computed corrupted: the vertex stage fails, the fragment stage
    // passes, and the verdict says which.
    let v = page(
        BrowserBackend::Swiftshader,
        "?corrupt=vertex&routines=add,mul,vec3_sub,mat4_mul_vec4",
        HashMap::new(),
    );
    let r = &v["result"];
    assert_eq!(r["pass"], false, "{r}");
    assert_eq!(r["stages"]["vertex"]["pass"], false, "{r}");
    assert_eq!(r["stages"]["fragment"]["pass"], true, "{r}");
    let reason = r["reason"].as_str().unwrap();
    assert!(
        reason.contains("vertex stage") && !reason.contains("fragment stage"),
        "{reason}"
    );
    let failed = |key: &str| {
        r["stages"]["vertex"][key]
            .as_array()
            .unwrap()
            .iter()
            .all(|x| x["pass"] == false)
    };
    assert!(failed("routines") && failed("vectors"), "{r}");

    // One stage asked for: only that one runs.
    let v = page(
        BrowserBackend::Swiftshader,
        "?stages=vertex&routines=add,vec3_sub",
        HashMap::new(),
    );
    let r = &v["result"];
    assert_eq!(r["pass"], true, "{r}");
    assert!(
        r["stages"]["fragment"].is_null() && r["stages"]["vertex"]["pass"] == true,
        "{r}"
    );

    // The context lost in the middle of the check: a fail with that reason, never a throw.
    let v = page(
        BrowserBackend::Swiftshader,
        "?lose=3&routines=add,vec3_sub",
        HashMap::new(),
    );
    assert_eq!(v["result"]["pass"], false, "{v}");
    assert!(
        v["result"]["reason"].as_str().unwrap().contains("lost"),
        "{v}"
    );

    // No context: a fail with the reason, not an exception.
    let v = page(BrowserBackend::Swiftshader, "?nogl=1", HashMap::new());
    assert_eq!(v["result"]["pass"], false);
    assert!(v["result"]["reason"]
        .as_str()
        .unwrap()
        .contains("no WebGL 2"));

    // A verdict is stored once and reused for the same renderer and sources.
    let v = page(
        BrowserBackend::Swiftshader,
        &format!("?cache=1&stages=fragment&{SUBSET}"),
        HashMap::new(),
    );
    assert_eq!(v["result"]["pass"], true, "{v}");
    assert_eq!(v["result"]["cached"], false);
    assert_eq!(v["second"]["cached"], true);
    assert_eq!(v["second"]["pass"], true);
    assert_eq!(v["stored"].as_array().unwrap().len(), 1);
}

#[test]
fn check_fails_the_unprotected_build_and_mediump_ints_on_angle_over_mesa() {
    // The export without its barrier, which Mesa's compiler under ANGLE breaks.
    let unprotected = snippet(&SnippetOptions {
        no_fallback: true,
        ..SnippetOptions::new(SnippetTarget::Es300)
    })
    .unwrap();
    let mut memory = HashMap::new();
    memory.insert("/unprotected.glsl".to_string(), unprotected.into_bytes());
    let v = page(
        BrowserBackend::AngleGl,
        &format!("?source=/unprotected.glsl&{SUBSET}"),
        memory,
    );
    let r = &v["result"];
    assert_eq!(r["pass"], false, "{r}");
    assert!(r["probe"]["green"].as_u64().unwrap() < r["probe"]["pixels"].as_u64().unwrap());
    // In the vertex stage as in the fragment stage: each compilation breaks them.
    let vertex = &r["stages"]["vertex"];
    assert_eq!(vertex["pass"], false, "{r}");
    assert!(
        vertex["probe"]["green"].as_u64().unwrap() < 4096,
        "{vertex}"
    );
    let vertex_failed = vertex["routines"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|x| x["pass"] == false)
        .count();
    assert!(vertex_failed >= 3, "{vertex}");
    // Not only the probe: the routines themselves are off.
    let failed = r["routines"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|x| x["pass"] == false)
        .count();
    assert!(failed >= 3, "{r}");
}

/// checkAsync() on SwiftShader (where a check's compiles are slowest) while the page draws its
/// own frames on the same context: the same verdict as check(), the page's state intact in
/// every frame, and the page's timer never held for a second (the bound the check promises a
/// renderer's start-up). The four arithmetic routines, as a renderer checks what it uses.
#[test]
fn check_async_keeps_the_page_running_and_gives_checks_verdict() {
    let chromium = common::chromium();
    let _alone = PAGES.write().unwrap_or_else(|e| e.into_inner());
    let v = run_module_page(
        &chromium,
        BrowserBackend::Swiftshader,
        "/cli/tests/data/js-check-async.html",
        // sinh's program (90,000 characters inlined) is one checkAsync builds once per stage
        // (src/check/webgl.js: SPLIT_SIZE).
        "?routines=add,sub,mul,div,sqrt,sinh",
        HashMap::new(),
        0,
    )
    .unwrap();
    assert_eq!(v["pass"], true, "{v}");
    assert_eq!(v["syncPass"], true, "{v}");
    assert_eq!(v["sameVerdict"], true, "{v}");
    assert_eq!(v["routines"], 6, "{v}");
    assert_eq!(v["stateKept"], true, "{v}");
    let ms = |k: &str| v[k].as_f64().unwrap();
    assert!(
        ms("frames") >= 1.0 && ms("ticks") >= 2.0,
        "the page ran: {v}"
    );
    assert!(ms("tickGap") < 1000.0, "the page's timer was held: {v}");
    assert!(ms("longestTask") < 1000.0, "a task held the page: {v}");
}

/// checkAsync() whose known answers fail to load (`cli/tests/data/js-check-load-fails.html`: the
/// answers' module import rejected): the Promise rejects with the load's error, and only after
/// the caller's program, framebuffer, viewport and pending GL error are back; with the answers
/// back, the next check passes.
#[test]
fn check_async_rejects_a_failed_load_and_leaves_the_callers_state() {
    let chromium = common::chromium();
    let _page = shared_page();
    let v = run_module_page(
        &chromium,
        BrowserBackend::Swiftshader,
        "/cli/tests/data/js-check-load-fails.html",
        "",
        HashMap::new(),
        0,
    )
    .unwrap();
    assert_eq!(v["rejected"], true, "{v}");
    assert_eq!(v["message"], "the answers are offline", "{v}");
    assert_eq!(v["program"], true, "{v}");
    assert_eq!(v["framebuffer"], true, "{v}");
    assert_eq!(v["viewport"], serde_json::json!([1, 2, 3, 4]), "{v}");
    assert_eq!(v["pendingError"], true, "{v}");
    assert_eq!(v["thenNoError"], true, "{v}");
    assert_eq!(v["secondPass"], true, "{v}");
}

#[test]
fn check_passes_qf128_on_swiftshader() {
    let v = page(
        BrowserBackend::Swiftshader,
        "?qf128=1&routines=add,mul,mul_df64,div,sqrt,exp,log,sin,cos",
        HashMap::new(),
    );
    let r = &v["result"];
    assert_eq!(r["pass"], true, "{r}");
    let names = |x: &Value| -> Vec<String> {
        x.as_array()
            .unwrap()
            .iter()
            .map(|x| x["name"].as_str().unwrap().to_string())
            .collect()
    };
    // mul_df64 is qf128's alone.
    assert_eq!(
        names(&r["routines"]),
        ["add", "mul", "div", "sqrt", "exp", "log", "sin", "cos"]
    );
    let q = &r["qf128"];
    assert_eq!(q["pass"], true, "{q}");
    assert_eq!(
        names(&q["routines"]),
        ["add", "mul", "mul_df64", "div", "sqrt", "exp", "log", "sin", "cos"]
    );
    // The documented bounds in ulp96: 2 for add to mul_df64, 4 for div to rsqrt, 8 for the
    // functions.
    for x in q["routines"].as_array().unwrap() {
        let own = match x["name"].as_str().unwrap() {
            "div" | "recip" | "sqrt" | "rsqrt" => 4.0,
            "exp" | "log" | "sin" | "cos" => 8.0,
            _ => 2.0,
        };
        assert!(x["worst"].as_f64().unwrap() <= own, "{x}");
    }
}

/// An example page's `#result` on one backend (the examples' npm packages installed first).
fn example(backend: BrowserBackend, name: &str) -> Value {
    common::js_dev_dependencies();
    let chromium = common::chromium();
    // luma.gl makes its device asynchronously: let the page's clock run.
    let wait_ms = if name.starts_with("luma") { 120_000 } else { 0 };
    let path = format!("/js/examples/{name}");
    let _page = shared_page();
    let v = run_module_page(&chromium, backend, &path, "", HashMap::new(), wait_ms)
        .unwrap_or_else(|e| panic!("{name} on {}: {e}", backend.name()));
    assert_eq!(v["pass"], true, "{name} on {}: {v}", backend.name());
    v
}

/// The plain WebGL 2 example: x x + y for x = 1 + 2^-20, y = -1 (2^-19 + 2^-40, exact in a
/// double) is exact in df64 and loses the 2^-40 in f32.
fn plain_example(backend: BrowserBackend) {
    let v = example(backend, "webgl2.html");
    let exact = 2f64.powi(-19) + 2f64.powi(-40);
    let df64 = v["df64"].as_f64().unwrap();
    let f32 = v["f32"].as_f64().unwrap();
    assert!(((df64 - exact) / exact).abs() < 2f64.powi(-46), "{v}");
    assert!(((f32 - exact) / exact).abs() > 2f64.powi(-24), "{v}");
}

/// three.js: the deep zoom has one colour in f32 and a picture in df64; the squares 1e7 to 1e9
/// units out are ten apart in df64 and not in f32.
fn three_examples(backend: BrowserBackend) {
    let v = example(backend, "three-mandelbrot.html");
    assert!(v["f32Colours"].as_u64().unwrap() <= 2, "{v}");
    assert!(v["df64Colours"].as_u64().unwrap() > 200, "{v}");
    let v = example(backend, "three-large-coordinates.html");
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 3, "{v}");
    for row in rows {
        assert_eq!(row["df64Squares"], 10, "{row}");
        assert_ne!(row["f32Squares"], 10, "f32 should not resolve them: {row}");
    }
}

/// luma.gl 9: the Model with `modules: [df64]` computes five results within 1 ulp48 (green),
/// the same sums in f32 miss (red).
fn luma_example(backend: BrowserBackend) {
    let v = example(backend, "luma.html");
    assert_eq!(v["df64"], serde_json::json!(vec![true; 5]), "{v}");
    assert_eq!(v["f32"], serde_json::json!(vec![false; 5]), "{v}");
}

#[test]
fn luma_example_on_swiftshader() {
    luma_example(BrowserBackend::Swiftshader);
}

#[test]
fn luma_example_on_angle_over_mesa() {
    luma_example(BrowserBackend::AngleGl);
}

#[test]
fn plain_webgl2_example_on_swiftshader() {
    plain_example(BrowserBackend::Swiftshader);
}

#[test]
fn plain_webgl2_example_on_angle_over_mesa() {
    plain_example(BrowserBackend::AngleGl);
}

#[test]
fn three_examples_on_swiftshader() {
    three_examples(BrowserBackend::Swiftshader);
}

#[test]
fn three_examples_on_angle_over_mesa() {
    three_examples(BrowserBackend::AngleGl);
}

/// The comparison with luma.gl's fp64 (js/bench/luma-fp64.html) runs on the same inputs and
/// measures both: ours within the bounds this test states (plus 0.06 ulp48 for the page's
/// double-precision references), a cost for every row, f32 far off. luma.gl's figures are
/// reported (docs/web-check.md), not judged.
#[test]
fn luma_comparison_measures_both_libraries() {
    common::js_dev_dependencies();
    let chromium = common::chromium();
    let _page = shared_page();
    let v = run_module_page(
        &chromium,
        BrowserBackend::Swiftshader,
        "/js/bench/luma-fp64.html",
        "?routines=add,mul,div,sqrt",
        HashMap::new(),
        0,
    )
    .unwrap();
    let rows = v["rows"].as_array().unwrap();
    // Five libraries per routine: df64gl's two tiers, luma.gl twice, f32.
    assert_eq!(rows.len(), 20, "{v}");
    let num = |x: &Value| match x {
        Value::String(s) => s.parse::<f64>().unwrap(),
        _ => x.as_f64().unwrap(),
    };
    for row in rows {
        let (routine, lib) = (
            row["routine"].as_str().unwrap(),
            row["lib"].as_str().unwrap(),
        );
        let (worst, ns) = (num(&row["worst"]), num(&row["ns"]));
        // A number: the chain ran (the page reports a negative, noisy difference as 0).
        assert!(ns.is_finite(), "{row}");
        if lib == "df64gl" {
            let bound = if routine == "div" { 1.0 } else { 0.5 };
            assert!(worst <= bound + 0.06, "{row}");
        }
        if lib == "df64gl fast tier" {
            // The page's operands (Thall's ranges) lie in the fast tier's domain.
            let bound = match routine {
                "mul" => 2.0,
                "div" => 1.0,
                _ => 0.5,
            };
            assert!(worst <= bound + 0.06, "{row}");
        }
        if lib == "f32" {
            assert!(worst > 1e5, "f32 cannot be within df64's bounds: {row}");
        }
    }
}

/// `npm test` in `js/` (Node's test runner over `js/test/`: the words, the matrices against f64
/// references, routinesCalledBy, the slices, the answers per routine, the FFT's argument errors,
/// each entry's imports and bytes) passes: the README's test command runs the package's own.
#[test]
fn npm_test_passes() {
    // TypeScript (the declarations' test) is among the dev dependencies it installs.
    common::js_dev_dependencies();
    // tsc takes the CPU for seconds: not beside the page that times its tasks.
    let _page = shared_page();
    let out = Command::new("npm")
        .args(["test", "--silent"])
        .current_dir(js_dir())
        .output()
        .expect("npm runs the package's tests (this kind's image has Node.js and npm)");
    assert!(
        out.status.success(),
        "npm test failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// What a page fetches from the package (`js/bench/page-bytes.html`: the files under `js/src/`
/// the browser loaded, as Resource Timing reports them), within the budgets `js/README.md`
/// states: `df64gl` and `checkAsync` of add, mul, div and sqrt at most 300 KB; `df64gl/three`
/// and `checkAsync` of the routines its materials call at most 250 KB; `df64gl`,
/// `prepareCheck()` and the synchronous `check` of every df64 and vector routine at most 400 KB.
#[test]
fn a_page_fetches_only_what_its_use_needs() {
    let chromium = common::chromium();
    common::js_dev_dependencies();
    let _page = shared_page();
    for (usage, budget_kb) in [
        ("root-async", 300.0),
        ("three-async", 250.0),
        ("root-sync", 400.0),
    ] {
        let v = run_module_page(
            &chromium,
            BrowserBackend::Swiftshader,
            "/js/bench/page-bytes.html",
            &format!("?use={usage}"),
            HashMap::new(),
            0,
        )
        .unwrap();
        assert_eq!(v["pass"], true, "{usage}: {v}");
        let raw = v["raw"].as_f64().unwrap() / 1024.0;
        let list: Vec<&str> = v["list"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|f| f.as_str())
            .collect();
        eprintln!(
            "{usage}: {} files, {raw:.1} KB raw, {:.1} KB gzip",
            v["files"],
            v["gzip"].as_f64().unwrap() / 1024.0
        );
        assert!(
            raw <= budget_kb,
            "{usage}: {raw:.1} KB over {budget_kb} KB: {list:?}"
        );
        // A WebGL page fetches no WGSL, FFT or WebGPU module, and only the answers it checks.
        assert!(
            !list
                .iter()
                .any(|f| f.contains("wgsl") || f.contains("fft") || f.contains("webgpu")),
            "{usage}: {list:?}"
        );
        if usage == "root-async" {
            let answers: Vec<&&str> = list
                .iter()
                .filter(|f| f.contains("answers/df64-"))
                .collect();
            assert_eq!(answers.len(), 4, "{answers:?}");
        }
    }
}
