//! The libraries `bench wgsl` sets side by side, each as WGSL with its buffers: df64gl's
//! export (protected, unprotected, its fast tier), luma.gl's `fp64arithmetic` through its own
//! preprocessor (three variants), and plain f32; and the routines each is measured on.

use super::*;

/// A routine of the comparison: its operands' ranges and its chain's step.
#[derive(Debug, Clone, Copy)]
pub struct BenchRoutine {
    /// "add", "sqrt", ...
    pub name: &'static str,
    /// Range of the first operand.
    pub a: (f64, f64),
    /// Range of the second operand (binary routines).
    pub b: Option<(f64, f64)>,
    /// The chain's first argument, from the running value `x` (kept bounded).
    pub arg: &'static str,
    /// The chain's constant second argument.
    pub c: f64,
}

/// Every routine of the comparison (luma.gl's WGSL has the first five).
pub const BENCH_ROUTINES: [BenchRoutine; 9] = [
    BenchRoutine {
        name: "add",
        a: (-2.0, 2.0),
        b: Some((-2.0, 2.0)),
        arg: "x",
        c: 1e-3,
    },
    BenchRoutine {
        name: "sub",
        a: (-2.0, 2.0),
        b: Some((-2.0, 2.0)),
        arg: "x",
        c: 1e-3,
    },
    BenchRoutine {
        name: "mul",
        a: (-2.0, 2.0),
        b: Some((-2.0, 2.0)),
        arg: "x",
        c: 1.0001,
    },
    BenchRoutine {
        name: "div",
        a: (-2.0, 2.0),
        b: Some((0.5, 2.0)),
        arg: "x",
        c: 1.0001,
    },
    BenchRoutine {
        name: "sqrt",
        a: (0.25, 4.0),
        b: None,
        arg: "x",
        c: 0.0,
    },
    // exp's argument negated so that the chain stays bounded; log's made 2 + |x|.
    BenchRoutine {
        name: "exp",
        a: (-1.0, 1.0),
        b: None,
        arg: "-x",
        c: 0.0,
    },
    BenchRoutine {
        name: "log",
        a: (0.5, 2.0),
        b: None,
        arg: "vec2<f32>(abs(x.x) + 2.0, x.y)",
        c: 0.0,
    },
    BenchRoutine {
        name: "sin",
        a: (-1.0, 1.0),
        b: None,
        arg: "x",
        c: 0.0,
    },
    BenchRoutine {
        name: "cos",
        a: (-1.0, 1.0),
        b: None,
        arg: "x",
        c: 0.0,
    },
];

/// A buffer a library's WGSL declares at `@group(0)`, and what it holds.
#[derive(Debug, Clone)]
pub struct LibraryBuffer {
    /// Its `@binding`.
    pub binding: u32,
    /// A uniform buffer (else a read-only storage buffer).
    pub uniform: bool,
    /// Its contents.
    pub contents: Vec<u8>,
}

/// One library: its WGSL, what it binds, and its call of each routine it has (on `a`, `b`).
#[derive(Debug, Clone)]
pub struct WgslLibrary {
    /// "df64gl", "luma.gl fp64arithmetic", ...
    pub name: String,
    /// The WGSL pasted before the bench's kernels.
    pub source: String,
    /// Its buffers at @group(0).
    pub buffers: Vec<LibraryBuffer>,
    /// Routine name to the WGSL expression, of `a` and `b` (`vec2<f32>` each).
    pub calls: HashMap<&'static str, String>,
    /// Whether its errors are judged (df64gl's export) or only reported.
    pub judged: bool,
    /// What the catalog calls its routines after the routine's name ("" for the accurate
    /// tier, "_fast" for the fast tier), for the bound it is judged by.
    pub tier_suffix: &'static str,
}

pub(super) fn calls(pairs: &[(&'static str, &str)]) -> HashMap<&'static str, String> {
    pairs.iter().map(|(k, v)| (*k, v.to_string())).collect()
}

/// df64gl's WGSL export (or, unprotected, its plain-expression translation); with
/// `functions`, df64_func's too (exp, log, sin, cos: a module four times the size, which the
/// arithmetic alone does not need compiled).
pub fn df64gl_library(protected: bool, functions: bool) -> Result<WgslLibrary, ExperimentError> {
    let source = wgsl_export(&WgslOptions {
        protected,
        functions,
        ..WgslOptions::default()
    })?;
    Ok(WgslLibrary {
        name: if protected {
            "df64gl".into()
        } else {
            "df64gl, unprotected".into()
        },
        source,
        buffers: if protected {
            vec![LibraryBuffer {
                binding: 0,
                uniform: false,
                contents: vec![0; 16],
            }]
        } else {
            Vec::new()
        },
        calls: calls(
            &[
                ("add", "df64_add(a, b)"),
                ("sub", "df64_sub(a, b)"),
                ("mul", "df64_mul(a, b)"),
                ("div", "df64_div(a, b)"),
                ("sqrt", "df64_sqrt(a)"),
                ("exp", "df64_exp(a)"),
                ("log", "df64_log(a)"),
                ("sin", "df64_sin(a)"),
                ("cos", "df64_cos(a)"),
            ][..if functions { 9 } else { 5 }],
        ),
        judged: protected,
        tier_suffix: "",
    })
}

/// df64gl's fast tier in the same export (no scaling, no special values; the comparison's
/// operands lie in its domain).
pub fn df64gl_fast_library(functions: bool) -> Result<WgslLibrary, ExperimentError> {
    let accurate = df64gl_library(true, functions)?;
    Ok(WgslLibrary {
        name: "df64gl fast tier".into(),
        calls: accurate
            .calls
            .keys()
            .map(|name| {
                let args = if matches!(*name, "add" | "sub" | "mul" | "div") {
                    "a, b"
                } else {
                    "a"
                };
                (*name, format!("df64_{name}_fast({args})"))
            })
            .collect(),
        tier_suffix: "_fast",
        ..accurate
    })
}

/// Plain f32 (the high word alone).
pub fn f32_library() -> WgslLibrary {
    WgslLibrary {
        name: "f32".into(),
        source: String::new(),
        buffers: Vec::new(),
        calls: calls(&[
            ("add", "vec2<f32>(a.x + b.x, 0.0)"),
            ("sub", "vec2<f32>(a.x - b.x, 0.0)"),
            ("mul", "vec2<f32>(a.x * b.x, 0.0)"),
            ("div", "vec2<f32>(a.x / b.x, 0.0)"),
            ("sqrt", "vec2<f32>(sqrt(a.x), 0.0)"),
            ("exp", "vec2<f32>(exp(a.x), 0.0)"),
            ("log", "vec2<f32>(log(a.x), 0.0)"),
            ("sin", "vec2<f32>(sin(a.x), 0.0)"),
            ("cos", "vec2<f32>(cos(a.x), 0.0)"),
        ]),
        judged: false,
        tier_suffix: "",
    }
}

/// The variants of luma.gl's WGSL `fp64arithmetic`: no define (what its WGSL assembler builds
/// for a device that is not Apple's), its code-elimination workaround (multiplies by a
/// uniform ONE; a define its GLSL assembler sets and its WGSL assembler does not, for
/// comparison), and its integer path (what its WGSL assembler builds for Apple GPUs, where
/// Metal reassociates).
pub const LUMA_VARIANTS: [(&str, &str); 3] = [
    ("luma.gl fp64arithmetic", "{}"),
    (
        "luma.gl, code-elimination workaround",
        "{\"LUMA_FP64_CODE_ELIMINATION_WORKAROUND\": true}",
    ),
    (
        "luma.gl, integer path",
        "{\"LUMA_FP64_INTEGER_ARITHMETIC\": true}",
    ),
];

/// luma.gl 9.4's WGSL `fp64arithmetic` under `defines` (JSON), from `js_dir`'s node_modules
/// through luma.gl's own preprocessor (run by Node); its uniforms (ONE = 1, SPLIT = 4097, its
/// defaults) at @group(0) @binding(0).
pub fn luma_library(
    js_dir: &Path,
    name: &str,
    defines: &str,
) -> Result<WgslLibrary, ExperimentError> {
    let script = "import { fp64arithmetic, preprocess } from '@luma.gl/shadertools';\n\
                  const defines = JSON.parse(process.argv[1]);\n\
                  process.stdout.write(preprocess(fp64arithmetic.source, { defines }));";
    let out = std::process::Command::new("node")
        .args(["--input-type=module", "-e", script, defines])
        .current_dir(js_dir)
        .output()
        .map_err(|e| {
            ExperimentError::Invalid(format!(
                "luma.gl's WGSL needs Node.js ({e}): install nodejs and run npm install in {}",
                js_dir.display()
            ))
        })?;
    if !out.status.success() {
        return Err(ExperimentError::Invalid(format!(
            "luma.gl's WGSL could not be read from {}: {} (run npm install there)",
            js_dir.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    let wgsl = String::from_utf8_lossy(&out.stdout).into_owned();
    let auto = "@group(0) @binding(auto)";
    if wgsl.matches(auto).count() != 1 {
        return Err(ExperimentError::Invalid(
            "luma.gl's fp64arithmetic no longer declares one `@group(0) @binding(auto)` uniform"
                .into(),
        ));
    }
    let uniforms: Vec<u8> = [1.0f32, 4097.0, 0.0, 0.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    Ok(WgslLibrary {
        name: name.to_string(),
        source: wgsl.replace(auto, "@group(0) @binding(0)"),
        buffers: vec![LibraryBuffer {
            binding: 0,
            uniform: true,
            contents: uniforms,
        }],
        calls: calls(&[
            ("add", "sum_fp64(a, b)"),
            ("sub", "sub_fp64(a, b)"),
            ("mul", "mul_fp64(a, b)"),
            ("div", "div_fp64(a, b)"),
            ("sqrt", "sqrt_fp64(a)"),
        ]),
        judged: false,
        tier_suffix: "",
    })
}
