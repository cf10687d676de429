//! `df64gl bench wgsl`: accuracy and cost of the WGSL routines on each `wgpu` leg of this
//! machine (Vulkan on lavapipe, OpenGL on llvmpipe), library beside library on the same inputs:
//! df64gl's export, its unprotected translation (the same routines as plain expressions),
//! luma.gl 9.4's WGSL `fp64arithmetic` (from `js/node_modules`, put through luma.gl's own
//! preprocessor by Node, in three variants: [`LUMA_VARIANTS`]) and plain f32.
//!
//! - Accuracy: the routine on `pairs` operand pairs (df64 operands with full low words from
//!   each routine's range), its worst and RMS error in ulp48 against astro-float's correctly
//!   rounded value of the same operands.
//! - Cost: each of `lanes` invocations runs a chain of dependent calls (`x = routine(x, c)`);
//!   the chain is timed at two lengths and the difference, so fixed costs cancel, gives ns per
//!   op per lane (best of three); the ratio is to the f32 add of the same leg and run.
//!
//! The Chromium leg (Dawn and Tint on SwiftShader) runs the same comparison from
//! `js/bench/wgsl-fp64.html`.

use std::collections::HashMap;
use std::path::Path;
use std::time::Instant;

use astro_float::{BigFloat, RoundingMode};
use rand::{Rng, SeedableRng};
use serde::Serialize;

use super::wgsl_legs::{wgpu_device, WgpuBackend};
use crate::error::ExperimentError;
use crate::support::table::{num, text, ReportTable};
use df64gl::export::wgpu_compute::{compute_buffer_entry, read_back_f32, validated, wait};
use df64gl::export::wgsl::{wgsl_export, WgslOptions};
use df64gl::kernels::Df64Op;
use df64gl::numeric::df64::Df64;
use df64gl::numeric::oracle::{big_df64, error_ulp48, Oracle, ORACLE_BITS};
use df64gl::probe::ProbeError;

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

fn calls(pairs: &[(&'static str, &str)]) -> HashMap<&'static str, String> {
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

/// What to run.
#[derive(Debug, Clone)]
pub struct WgslBenchOptions {
    /// The legs.
    pub backends: Vec<WgpuBackend>,
    /// The routines (names of [`BENCH_ROUTINES`]).
    pub routines: Vec<String>,
    /// Operand pairs per routine for the accuracy.
    pub pairs: usize,
    /// Invocations per dispatch for the cost.
    pub lanes: u32,
    /// The chain's two lengths.
    pub chain: (u32, u32),
    /// The npm package folder whose node_modules has luma.gl (None: no luma.gl rows).
    pub luma: Option<std::path::PathBuf>,
    /// The unprotected translation too.
    pub unprotected: bool,
}

impl Default for WgslBenchOptions {
    fn default() -> Self {
        WgslBenchOptions {
            backends: vec![WgpuBackend::Vulkan, WgpuBackend::Gl],
            routines: BENCH_ROUTINES.iter().map(|r| r.name.to_string()).collect(),
            pairs: 4096,
            lanes: 16384,
            chain: (16, 80),
            luma: Some(crate::web::js_module::repository_root().join("js")),
            unprotected: true,
        }
    }
}

/// One library's routine on one leg.
#[derive(Debug, Clone, Serialize)]
pub struct WgslBenchRow {
    /// "wgpu, Vulkan", ...
    pub leg: String,
    /// The library.
    pub library: String,
    /// The routine.
    pub routine: String,
    /// Worst error in ulp48 over the pairs (infinite: a NaN or infinity from finite input).
    pub worst: f64,
    /// RMS error in ulp48.
    pub rms: f64,
    /// ns per op per lane (None: the timing came out at or below zero, noise).
    pub ns: Option<f64>,
    /// That over the f32 add's on the same leg.
    pub vs_f32_add: Option<f64>,
    /// Whether df64gl's bound is asked of this row (the export), and the bound.
    pub bound: Option<f64>,
    /// Why the row has no figures (the library lost the device, say).
    pub error: Option<String>,
}

/// Every leg's rows, and what could not run.
#[derive(Debug, Clone, Serialize)]
pub struct WgslBenchReport {
    /// Each leg's adapter.
    pub adapters: Vec<(String, String)>,
    /// The rows, leg by leg, routine by routine.
    pub rows: Vec<WgslBenchRow>,
    /// Libraries left out, and why.
    pub notes: Vec<String>,
    /// Pairs per routine, lanes, chain lengths.
    pub method: String,
}

/// df64gl's documented bound for a routine here, in ulp48, as the catalog states it (0.5 for
/// the arithmetic and sqrt, 1 for division and the functions); `None` for a name the catalog
/// does not hold.
pub fn df64gl_bound(routine: &str) -> Option<f64> {
    Df64Op::from_name(routine).and_then(|op| op.bound().max_ulp48())
}

/// Operand pairs for a routine: df64 values with full low words, seeded by its name.
fn operands(r: &BenchRoutine, pairs: usize) -> Vec<(Df64, Df64)> {
    let seed = r.name.bytes().fold(2007u64, |s, b| s * 31 + b as u64);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut draw = |(lo, hi): (f64, f64)| {
        // Full low word: a 53-bit f64 split into two f32 words (48 bits and more).
        let x: f64 = rng.gen_range(lo..hi);
        let hi_w = x as f32;
        let lo_w = (x - hi_w as f64) as f32;
        Df64 { hi: hi_w, lo: lo_w }
    };
    (0..pairs)
        .map(|_| {
            let a = draw(r.a);
            let b = r.b.map(&mut draw).unwrap_or(Df64 { hi: 0.0, lo: 0.0 });
            (a, b)
        })
        .collect()
}

/// A routine's operand pairs and the exact value of the routine at each.
type Operands = (Vec<(Df64, Df64)>, Vec<BigFloat>);

/// The correctly rounded value of a routine at df64 operands.
fn exact(oracle: &mut Oracle, routine: &str, a: Df64, b: Df64) -> BigFloat {
    let rm = RoundingMode::ToEven;
    let (x, y) = (big_df64(a), big_df64(b));
    match routine {
        "add" => x.add(&y, ORACLE_BITS, rm),
        "sub" => x.sub(&y, ORACLE_BITS, rm),
        "mul" => x.mul(&y, ORACLE_BITS, rm),
        "div" => x.div(&y, ORACLE_BITS, rm),
        "sqrt" => x.sqrt(ORACLE_BITS, rm),
        "exp" => oracle.exp(&x),
        "log" => oracle.ln(&x),
        "sin" => oracle.sin(&x),
        _ => oracle.cos(&x),
    }
}

/// The bench's own buffers (group 1) and its two kernels for one call.
fn kernels(source: &str, call: &str, arg: &str) -> String {
    format!(
        "{source}\n\
         // ---- df64gl bench wgsl\n\
         struct BenchParams {{ n: u32, count: u32, c: vec2<f32> }}\n\
         @group(1) @binding(0) var<storage, read> bench_in: array<vec4<f32>>;\n\
         @group(1) @binding(1) var<storage, read_write> bench_out: array<vec4<f32>>;\n\
         @group(1) @binding(2) var<uniform> bench: BenchParams;\n\
         @compute @workgroup_size(64)\n\
         fn bench_accuracy(@builtin(global_invocation_id) id: vec3<u32>) {{\n\
         \x20   if (id.x >= bench.count) {{ return; }}\n\
         \x20   let t = bench_in[id.x];\n\
         \x20   let a = t.xy;\n\
         \x20   let b = t.zw;\n\
         \x20   bench_out[id.x] = vec4<f32>({call}, 0.0, 0.0);\n\
         }}\n\
         @compute @workgroup_size(64)\n\
         fn bench_chain(@builtin(global_invocation_id) id: vec3<u32>) {{\n\
         \x20   if (id.x >= bench.count) {{ return; }}\n\
         \x20   var x = vec2<f32>(1.0 + f32(id.x % 256u) * 1e-4, f32(id.x / 256u) * 1e-12);\n\
         \x20   for (var i = 0u; i < bench.n; i++) {{\n\
         \x20       let a = {arg};\n\
         \x20       let b = bench.c;\n\
         \x20       x = {call};\n\
         \x20   }}\n\
         \x20   bench_out[id.x] = vec4<f32>(x, 0.0, 1.0);\n\
         }}\n"
    )
}

/// One library's pipelines and buffers on a device.
struct Rig<'a> {
    device: &'a wgpu::Device,
    queue: &'a wgpu::Queue,
    accuracy: wgpu::ComputePipeline,
    chain: wgpu::ComputePipeline,
    lib_group: wgpu::BindGroup,
    io_group: wgpu::BindGroup,
    input: wgpu::Buffer,
    output: wgpu::Buffer,
    readback: wgpu::Buffer,
    params: wgpu::Buffer,
    capacity: u32,
}

impl<'a> Rig<'a> {
    fn new(
        device: &'a wgpu::Device,
        queue: &'a wgpu::Queue,
        lib: &WgslLibrary,
        call: &str,
        arg: &str,
        capacity: u32,
    ) -> Result<Self, String> {
        use wgpu::util::DeviceExt;
        let built = validated(device, || {
            let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some("df64gl bench wgsl"),
                source: wgpu::ShaderSource::Wgsl(kernels(&lib.source, call, arg).into()),
            });
            let storage = |read_only| wgpu::BufferBindingType::Storage { read_only };
            let lib_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: Some("library"),
                entries: &lib
                    .buffers
                    .iter()
                    .map(|b| {
                        compute_buffer_entry(
                            b.binding,
                            if b.uniform {
                                wgpu::BufferBindingType::Uniform
                            } else {
                                storage(true)
                            },
                            false,
                        )
                    })
                    .collect::<Vec<_>>(),
            });
            let io_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: Some("bench"),
                entries: &[
                    compute_buffer_entry(0, storage(true), false),
                    compute_buffer_entry(1, storage(false), false),
                    compute_buffer_entry(2, wgpu::BufferBindingType::Uniform, false),
                ],
            });
            let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some("df64gl bench wgsl"),
                bind_group_layouts: &[Some(&lib_layout), Some(&io_layout)],
                immediate_size: 0,
            });
            let pipeline = |entry: &str| {
                device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                    label: Some(entry),
                    layout: Some(&layout),
                    module: &module,
                    entry_point: Some(entry),
                    compilation_options: Default::default(),
                    cache: None,
                })
            };
            let (accuracy, chain) = (pipeline("bench_accuracy"), pipeline("bench_chain"));
            let lib_buffers: Vec<wgpu::Buffer> = lib
                .buffers
                .iter()
                .map(|b| {
                    device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                        label: Some("library buffer"),
                        contents: &b.contents,
                        usage: if b.uniform {
                            wgpu::BufferUsages::UNIFORM
                        } else {
                            wgpu::BufferUsages::STORAGE
                        },
                    })
                })
                .collect();
            let lib_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("library"),
                layout: &lib_layout,
                entries: &lib
                    .buffers
                    .iter()
                    .zip(&lib_buffers)
                    .map(|(b, buf)| wgpu::BindGroupEntry {
                        binding: b.binding,
                        resource: buf.as_entire_binding(),
                    })
                    .collect::<Vec<_>>(),
            });
            let bytes = 16 * capacity as u64;
            let make = |usage, size| {
                device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("bench"),
                    size,
                    usage,
                    mapped_at_creation: false,
                })
            };
            use wgpu::BufferUsages as U;
            let input = make(U::STORAGE | U::COPY_DST, bytes);
            let output = make(U::STORAGE | U::COPY_SRC, bytes);
            let readback = make(U::MAP_READ | U::COPY_DST, bytes);
            let params = make(U::UNIFORM | U::COPY_DST, 16);
            let io_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("bench"),
                layout: &io_layout,
                entries: &[
                    wgpu::BindGroupEntry {
                        binding: 0,
                        resource: input.as_entire_binding(),
                    },
                    wgpu::BindGroupEntry {
                        binding: 1,
                        resource: output.as_entire_binding(),
                    },
                    wgpu::BindGroupEntry {
                        binding: 2,
                        resource: params.as_entire_binding(),
                    },
                ],
            });
            Rig {
                device,
                queue,
                accuracy,
                chain,
                lib_group,
                io_group,
                input,
                output,
                readback,
                params,
                capacity,
            }
        });
        built.map_err(|e| format!("{}: {e}", lib.name))
    }

    /// Runs `pipeline` over `count` lanes with chain length `n` and constant `c`; with
    /// `read`, returns the output words.
    fn dispatch(
        &self,
        accuracy: bool,
        count: u32,
        n: u32,
        c: Df64,
        read: bool,
    ) -> Result<Vec<f32>, String> {
        let count = count.min(self.capacity);
        let mut params = [0u8; 16];
        params[0..4].copy_from_slice(&n.to_le_bytes());
        params[4..8].copy_from_slice(&count.to_le_bytes());
        params[8..12].copy_from_slice(&c.hi.to_le_bytes());
        params[12..16].copy_from_slice(&c.lo.to_le_bytes());
        self.queue.write_buffer(&self.params, 0, &params);
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor::default());
            pass.set_pipeline(if accuracy {
                &self.accuracy
            } else {
                &self.chain
            });
            pass.set_bind_group(0, &self.lib_group, &[]);
            pass.set_bind_group(1, &self.io_group, &[]);
            pass.dispatch_workgroups(count.div_ceil(64), 1, 1);
        }
        let bytes = 16 * count as u64;
        if read {
            encoder.copy_buffer_to_buffer(&self.output, 0, &self.readback, 0, bytes);
        }
        self.queue.submit([encoder.finish()]);
        wait(self.device)?;
        if !read {
            return Ok(Vec::new());
        }
        read_back_f32(self.device, &self.readback, bytes)
    }

    /// Worst and RMS error in ulp48 over the pairs, against their exact values.
    fn accuracy(&self, pairs: &[(Df64, Df64)], exact: &[BigFloat]) -> Result<(f64, f64), String> {
        let input: Vec<f32> = pairs
            .iter()
            .flat_map(|(a, b)| [a.hi, a.lo, b.hi, b.lo])
            .collect();
        self.queue
            .write_buffer(&self.input, 0, bytemuck::cast_slice(&input));
        let out = self.dispatch(true, pairs.len() as u32, 0, Df64 { hi: 0.0, lo: 0.0 }, true)?;
        let (mut worst, mut sum) = (0f64, 0f64);
        for i in 0..pairs.len() {
            let got = match out.get(4 * i..4 * i + 2) {
                Some(w) => Df64 { hi: w[0], lo: w[1] },
                None => return Err("the read-back is short".into()),
            };
            let Some(x) = exact.get(i) else {
                return Err("fewer exact values than pairs".into());
            };
            let e = error_ulp48(got, x);
            worst = worst.max(e);
            sum += e * e;
        }
        Ok((worst, (sum / pairs.len().max(1) as f64).sqrt()))
    }

    /// ns per op per lane: chains of `n2` and `n1` ops, the difference, best of three; the
    /// longer chain grows until that difference reaches [`MIN_SECONDS`] (a cheap op's chain
    /// of 80 is lost in the dispatch's own time).
    fn cost(&self, lanes: u32, (n1, n2): (u32, u32), c: f64) -> Result<Option<f64>, String> {
        let c = Df64::from_f64(c);
        self.dispatch(false, lanes, 1, c, false)?;
        let time = |n| -> Result<f64, String> {
            let t = Instant::now();
            self.dispatch(false, lanes, n, c, false)?;
            Ok(t.elapsed().as_secs_f64())
        };
        let mut n2 = n2;
        loop {
            let mut best = f64::INFINITY;
            for _ in 0..3 {
                best = best.min(time(n2)? - time(n1)?);
            }
            if best >= MIN_SECONDS || n2 >= MAX_CHAIN {
                let ns = best * 1e9 / ((n2 - n1) as f64 * lanes as f64);
                return Ok((ns > 0.0).then_some(ns));
            }
            n2 = (n1 + 4 * (n2 - n1)).min(MAX_CHAIN);
        }
    }
}

/// The timed difference a cost is read from, at least.
pub const MIN_SECONDS: f64 = 0.02;
/// The longest chain a cost times.
const MAX_CHAIN: u32 = 1 << 16;

/// A failure of the device or of a library's shader on it (exit status 1, not a usage error).
fn device_error(detail: String) -> ExperimentError {
    ExperimentError::Probe(ProbeError::Wgsl { detail })
}

/// The libraries of a run: df64gl (and unprotected), luma.gl's variants where it can be read,
/// f32; with notes for any left out.
pub fn bench_libraries(
    options: &WgslBenchOptions,
) -> Result<(Vec<WgslLibrary>, Vec<String>), ExperimentError> {
    let functions = options
        .routines
        .iter()
        .any(|r| matches!(r.as_str(), "exp" | "log" | "sin" | "cos"));
    let mut libs = vec![
        df64gl_library(true, functions)?,
        df64gl_fast_library(functions)?,
    ];
    let mut notes = Vec::new();
    if options.unprotected {
        libs.push(df64gl_library(false, functions)?);
    }
    if let Some(js) = &options.luma {
        for (name, defines) in LUMA_VARIANTS {
            match luma_library(js, name, defines) {
                Ok(lib) => libs.push(lib),
                Err(e) => {
                    notes.push(format!("{name} left out: {e}"));
                    break;
                }
            }
        }
    }
    libs.push(f32_library());
    Ok((libs, notes))
}

/// Runs the comparison on every leg of `options`; `progress` hears (rows done, rows in all,
/// the next row's label).
pub fn run_wgsl_bench(
    options: &WgslBenchOptions,
    progress: &mut dyn FnMut(usize, usize, &str),
) -> Result<WgslBenchReport, ExperimentError> {
    let routines: Vec<&BenchRoutine> = options
        .routines
        .iter()
        .map(|n| {
            BENCH_ROUTINES.iter().find(|r| r.name == n).ok_or_else(|| {
                ExperimentError::Invalid(format!(
                    "unknown routine {n}: choose from {}",
                    BENCH_ROUTINES.map(|r| r.name).join(", ")
                ))
            })
        })
        .collect::<Result<_, _>>()?;
    if options.pairs == 0 || options.lanes == 0 || options.chain.1 <= options.chain.0 {
        return Err(ExperimentError::Invalid(
            "give at least one pair and one lane, and a second chain length above the first".into(),
        ));
    }
    let (libs, mut notes) = bench_libraries(options)?;
    let per_leg: usize = routines
        .iter()
        .map(|r| libs.iter().filter(|l| l.calls.contains_key(r.name)).count())
        .sum();
    let total = per_leg * options.backends.len();
    // Each routine's operands and their exact values, once for every library and leg.
    let mut oracle = Oracle::new();
    let inputs: Vec<Operands> = routines
        .iter()
        .map(|r| {
            let pairs = operands(r, options.pairs);
            let exact = pairs
                .iter()
                .map(|(a, b)| exact(&mut oracle, r.name, *a, *b))
                .collect();
            (pairs, exact)
        })
        .collect();
    let mut rows = Vec::new();
    let mut adapters = Vec::new();
    let capacity = options.lanes.max(options.pairs as u32);
    for &backend in &options.backends {
        let (info, device, queue) = wgpu_device(backend)?;
        adapters.push((
            backend.name().to_string(),
            format!("{} ({} {})", info.name, info.driver, info.driver_info),
        ));
        let rig = |lib: &WgslLibrary, r: &BenchRoutine, call: &str| {
            Rig::new(&device, &queue, lib, call, r.arg, capacity).map_err(device_error)
        };
        // The f32 add first: every row's ratio is to its cost in this run.
        let f32_lib = f32_library();
        let add = &BENCH_ROUTINES[0];
        let f32_add = match f32_lib.calls.get(add.name) {
            Some(call) => rig(&f32_lib, add, call)?
                .cost(options.lanes, options.chain, add.c)
                .map_err(device_error)?,
            None => None,
        };
        if f32_add.is_none() {
            notes.push(format!(
                "{}: the f32 add's timing was noise (at or below zero): no ratios",
                backend.name()
            ));
        }
        for (r, (pairs, exact)) in routines.iter().zip(&inputs) {
            for lib in &libs {
                let Some(call) = lib.calls.get(r.name) else {
                    continue;
                };
                progress(
                    rows.len(),
                    total,
                    &format!("{}: {} {}", backend.name(), lib.name, r.name),
                );
                let rig = rig(lib, r, call)?;
                let (worst, rms) = rig.accuracy(pairs, exact).map_err(device_error)?;
                let ns = rig
                    .cost(options.lanes, options.chain, r.c)
                    .map_err(device_error)?;
                rows.push(WgslBenchRow {
                    leg: backend.name().to_string(),
                    library: lib.name.clone(),
                    routine: r.name.to_string(),
                    worst,
                    rms,
                    ns,
                    vs_f32_add: ns.zip(f32_add).map(|(a, b)| a / b),
                    bound: if lib.judged {
                        df64gl_bound(&format!("{}{}", r.name, lib.tier_suffix))
                    } else {
                        None
                    },
                    error: None,
                });
            }
        }
    }
    Ok(WgslBenchReport {
        adapters,
        rows,
        notes,
        method: format!(
            "{} operand pairs per routine against astro-float; cost: {} lanes, chains of {} and \
             {} dependent ops, the difference, best of 3",
            options.pairs, options.lanes, options.chain.0, options.chain.1
        ),
    })
}

/// The name of the Chromium leg's rows.
pub const CHROMIUM_LEG: &str = "Chromium WebGPU";

/// The libraries of `js/bench/wgsl-fp64.html`, as it names them.
pub const BROWSER_LIBRARIES: [&str; 7] = [
    "df64gl",
    "df64gl fast tier",
    "df64gl, unprotected",
    "luma.gl fp64arithmetic",
    "luma.gl, code-elimination workaround",
    "luma.gl, integer path",
    "f32",
];

/// The same comparison on Chromium's WebGPU (Dawn and Tint on SwiftShader here), from
/// `js/bench/wgsl-fp64.html` served beside the repository's `js/` (which needs its
/// node_modules). The f32 add first (every row's ratio is to it); then per routine one page
/// load for every library but luma.gl's integer path, which the page times in turns (so that
/// a change in the machine's load falls on all of them alike), and one for the integer path
/// alone: a page holds its result for at most [`crate::web::serve::WAIT_LIMIT`], and the
/// integer path takes microseconds an op there. A load that fails is a row with its error for
/// each of its libraries. The rows are added to `report`. Its references are JavaScript
/// doubles (about +-0.05 ulp48 on the functions), and its luma.gl rows come from luma.gl's own
/// preprocessor in the page.
pub fn run_browser_wgsl_bench(
    chromium: &Path,
    routines: &[String],
    report: &mut WgslBenchReport,
) -> Result<(), ExperimentError> {
    let unprotected = wgsl_export(&WgslOptions {
        protected: false,
        ..WgslOptions::default()
    })?;
    let number = |x: &serde_json::Value| match x {
        serde_json::Value::String(s) => s.parse::<f64>().ok(),
        _ => x.as_f64(),
    };
    let load = |routine: &str, libraries: &[&str]| {
        let memory = HashMap::from([(
            "/unprotected.wgsl".to_string(),
            unprotected.clone().into_bytes(),
        )]);
        let libs: String = libraries
            .iter()
            .map(|l| format!("&lib={}", l.replace(' ', "%20").replace(',', "%2C")))
            .collect();
        crate::web::js_module::run_module_page(
            chromium,
            crate::web::browser::BrowserBackend::WebGpu,
            "/js/bench/wgsl-fp64.html",
            &format!("?routines={routine}{libs}&unprotected=/unprotected.wgsl"),
            memory,
            0,
        )
    };
    let baseline = load("add", &["f32"])?;
    let f32_add = baseline["rows"]
        .as_array()
        .and_then(|rows| rows.first())
        .and_then(|row| number(&row["ns"]));
    report.adapters.push((
        CHROMIUM_LEG.to_string(),
        baseline["adapter"]
            .as_str()
            .unwrap_or("unknown adapter")
            .to_string(),
    ));
    let (slow, together): (Vec<&str>, Vec<&str>) = BROWSER_LIBRARIES
        .iter()
        .partition(|l| **l == "luma.gl, integer path");
    for routine in routines {
        for libraries in [&together, &slow] {
            let page = load(routine, libraries);
            for library in libraries.iter() {
                let tier_suffix = match *library {
                    "df64gl" => Some(""),
                    "df64gl fast tier" => Some("_fast"),
                    _ => None,
                };
                let mut row = WgslBenchRow {
                    leg: CHROMIUM_LEG.to_string(),
                    library: library.to_string(),
                    routine: routine.clone(),
                    worst: f64::NAN,
                    rms: f64::NAN,
                    ns: None,
                    vs_f32_add: None,
                    bound: tier_suffix
                        .and_then(|t| df64gl_bound(&format!("{routine}{t}")))
                        .map(|b| b + 0.06),
                    error: None,
                };
                match &page {
                    Ok(v) => match v["rows"]
                        .as_array()
                        .and_then(|rows| rows.iter().find(|r| r["lib"].as_str() == Some(library)))
                    {
                        Some(got) => {
                            row.worst = number(&got["worst"]).unwrap_or(f64::NAN);
                            row.rms = number(&got["rms"]).unwrap_or(f64::NAN);
                            row.ns = number(&got["ns"]);
                            row.vs_f32_add = row.ns.zip(f32_add).map(|(a, b)| a / b);
                            row.error = got["error"].as_str().map(str::to_string);
                        }
                        // luma.gl has no such routine.
                        None => continue,
                    },
                    Err(e) => row.error = Some(e.to_string()),
                }
                report.rows.push(row);
            }
        }
    }
    Ok(())
}

impl WgslBenchReport {
    /// One table per leg: routine, library, worst and RMS ulp48, ns per op, ratio.
    pub fn table(&self) -> String {
        let mut out = Vec::new();
        for (leg, adapter) in &self.adapters {
            let mut t = ReportTable::new(
                "wgsl-bench",
                format!("{leg} on {adapter}"),
                &[
                    "routine",
                    "library",
                    "worst ulp48",
                    "rms ulp48",
                    "ns/op/lane",
                    "x f32 add",
                ],
            );
            for r in self.rows.iter().filter(|r| &r.leg == leg) {
                if let Some(e) = &r.error {
                    t.rows.push(vec![
                        text(r.routine.clone()),
                        text(r.library.clone()),
                        text(format!("failed: {e}")),
                        text("-"),
                        text("-"),
                        text("-"),
                    ]);
                    continue;
                }
                let over = r.bound.is_some_and(|b| r.worst > b);
                t.rows.push(vec![
                    text(r.routine.clone()),
                    text(r.library.clone()),
                    if over {
                        text(format!("{} (over {})", r.worst, r.bound.unwrap_or(0.0)))
                    } else {
                        num(r.worst)
                    },
                    num(r.rms),
                    r.ns.map(num).unwrap_or_else(|| text("noise")),
                    r.vs_f32_add.map(num).unwrap_or_else(|| text("-")),
                ]);
            }
            out.push(t.text());
        }
        let mut s = out.join("\n");
        s.push_str(&format!("\n{}\n", self.method));
        for n in &self.notes {
            s.push_str(&format!("note: {n}\n"));
        }
        s
    }
}
