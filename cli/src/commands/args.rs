//! The `df64gl` command line: its commands and their options (clap derives; the library's own
//! types do not depend on clap's, its option enums derive `ValueEnum` behind a feature).

use clap::{Args, Parser, Subcommand};

use crate::commands::selftest_programs::ProgramFamily;
use crate::experiments::mandelbrot::DEFAULT_CENTER;
use crate::web::browser::BrowserBackend;
use df64gl::export::snippet::SnippetTarget;
use df64gl::fft::TwiddleSource;
use df64gl::gl::MesaDriver;
use df64gl::kernels::Df64Op;
use df64gl::probe::DEFAULT_SAMPLES;

#[derive(Parser)]
#[command(
    name = "df64gl",
    version,
    about = "Double-float (df64) arithmetic as OpenGL fragment programs, measured on your driver"
)]
/// The parsed `df64gl` command line.
pub struct Cli {
    /// EGL device: `auto` (a GPU if there is one), an index from `df64gl info --devices`, or a
    /// name fragment such as `nvidia` or `software`. Also read from DF64GL_DEVICE.
    #[arg(long, global = true)]
    pub(crate) device: Option<String>,

    /// Print JSON instead of tables.
    #[arg(long, global = true)]
    pub(crate) json: bool,

    /// Mesa driver to run on (sets GALLIUM_DRIVER / MESA_LOADER_DRIVER_OVERRIDE before the
    /// first EGL call): llvmpipe, softpipe or zink (zink needs mesa-vulkan-drivers).
    #[arg(long, global = true, value_name = "DRIVER")]
    pub(crate) gl_driver: Option<MesaDriver>,

    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Subcommand)]
pub(crate) enum Command {
    /// The OpenGL device, driver, versions, limits and extensions that matter.
    Info(InfoArgs),
    /// Measure the driver's f32 arithmetic and error-free transforms (Thall's Table I) and
    /// show the configuration df64 programs will use.
    Probe(ProbeArgs),
    /// Build every df64 and qf128 program (element-wise kernels, every FFT pass variant,
    /// Mandelbrot) so each runs its known-answer self-test against the CPU mirror here; list
    /// the outcome and the cost against the compile time. Exit status 4 if one is refused.
    Selftest(SelftestArgs),
    /// Table II: max and RMS error of each df64 op in ulp48 on the GPU, with Warwick's
    /// statistics and each op's cost relative to an f32 add.
    Accuracy(AccuracyArgs),
    /// Print df64 GLSL for another renderer: one self-contained file for a GLSL target, or
    /// the probe shader that checks a driver keeps twoSum and twoProd exact.
    Glsl(GlslArgs),
    /// Print df64 (and qf128) for WGSL, translated from the same GLSL by naga, every float
    /// step behind a barrier no compiler can cross; or check it on this machine's WebGPU
    /// implementations through wgpu (--check).
    Wgsl(WgslArgs),
    /// Reproduce the papers' experiments (Thall Tables I, II and FFT study; Da Graca and
    /// Defour Tables 3 to 5; Warwick Tables 1 to 4) and write a report folder: REPORT.md,
    /// report.json and PNG plots, published values beside this driver's.
    Repro(ReproArgs),
    /// Mandelbrot deep zoom in f32, df64 and qf128 from the df64 GLSL snippets: a PNG, or an
    /// interactive window (drag: pan, wheel or +/-: zoom, 1/2/3: precision, Esc: quit).
    Mandelbrot(MandelbrotArgs),
    /// Write three self-contained pages (one HTML file each, no network): WebGL 2 (index.html)
    /// self-tests the es300 df64 export, WebGPU (webgpu.html) the WGSL export, in the browser
    /// that opens it; each then draws a Mandelbrot deep zoom in f32 next to df64 and qf128,
    /// with mouse pan and wheel zoom; repro.html runs the papers' tables (Thall I and II, Da
    /// Graca and Defour 5, the FFT) on the browser's GPU, as JSON in `repro --json`'s schema.
    Web(WebArgs),
    /// Write the generated half of the npm package (`js/generated.js`: the es300 df64 and
    /// qf128 GLSL, the probe shader and the known answers `check(gl)` runs; `js/index.js`
    /// imports it) and the same known answers for the library (`assets/known-answers.json`).
    Js(JsArgs),
    /// Benchmarks, as ratios taken in one run.
    Bench {
        #[command(subcommand)]
        what: BenchCommand,
    },
}

#[derive(Subcommand)]
pub(crate) enum BenchCommand {
    /// FFT: f32, df64 (radix 2 and 4) and qf128 on the GPU against rustfft f64 on the host.
    Fft(BenchFftArgs),
    /// FFT accuracy at every length (mixed radix for 3 * 2^k, Bluestein for other lengths
    /// that are not powers of two) against rustfft, the DFT by its definition and the
    /// double-double DFT; Bluestein's and mixed radix's cost.
    Lengths(BenchLengthsArgs),
    /// Throughput of f32, df64, qf128 and native double ops, as ratios to the f32 add and
    /// speed-ups over double (Warwick's Table 2 measure).
    Ops(BenchOpsArgs),
    /// The WGSL routines on wgpu's legs (Vulkan on lavapipe, OpenGL on llvmpipe): accuracy
    /// (worst and RMS ulp48 against the oracle) and ns per op per lane of df64gl's export,
    /// its unprotected translation, luma.gl 9.4's WGSL fp64arithmetic and f32 on the same
    /// inputs; then df64gl's GLSL engine on this GL device, the same routines, for the ratios.
    Wgsl(BenchWgslArgs),
    /// Cost per vertex of positions relative to the eye in WebGL 2 (headless Chromium on each
    /// ANGLE leg, js/bench/rte-vertex.html): the f32 transform, df64gl's df64_world_to_view
    /// and df64mat4 transforms and luma.gl's fp64 projection on the same vertices, with each
    /// one's error in pixels.
    Vertex(BenchVertexArgs),
}

/// Options of `df64gl info`.
#[derive(Args)]
pub(crate) struct InfoArgs {
    /// List every EGL device instead of opening one.
    #[arg(long)]
    pub(crate) devices: bool,
}

/// Options of `df64gl probe`.
#[derive(Args)]
pub(crate) struct ProbeArgs {
    /// Inputs per test.
    #[arg(long, default_value_t = DEFAULT_SAMPLES)]
    pub(crate) samples: usize,
}

/// Options of `df64gl selftest`.
#[derive(Args)]
pub(crate) struct SelftestArgs {
    /// Test every program again, ignoring (and not writing) the record of what passed.
    #[arg(long)]
    pub(crate) fresh: bool,
    /// Probe the driver again instead of using the cached result.
    #[arg(long)]
    pub(crate) reprobe: bool,
    /// Only these families of programs (default: all).
    #[arg(long, value_delimiter = ',')]
    pub(crate) only: Vec<ProgramFamily>,
}

/// Options of `df64gl accuracy`.
#[derive(Args)]
pub(crate) struct AccuracyArgs {
    /// Random inputs per operation.
    #[arg(long, default_value_t = 1 << 22)]
    pub(crate) samples: usize,
    /// Operations to measure (default: the accurate defaults, the fast tier and Thall's variants).
    #[arg(long, value_delimiter = ',')]
    pub(crate) ops: Vec<Df64Op>,
    /// Inputs for Warwick's statistics; 0 skips them.
    #[arg(long, default_value_t = 1 << 20)]
    pub(crate) warwick_samples: usize,
    /// Skip the cost measurement.
    #[arg(long)]
    pub(crate) no_cost: bool,
    #[arg(long, default_value_t = 2007)]
    pub(crate) seed: u64,
    /// Probe the driver again instead of using the cached result.
    #[arg(long)]
    pub(crate) reprobe: bool,
    /// Exit with status 1 when an accurate op misses its target or a result differs from
    /// the CPU mirror on a round-to-nearest driver.
    #[arg(long)]
    pub(crate) check: bool,
    /// Inputs per df64 function row (elementary functions against the oracle); 0 skips.
    #[arg(long, default_value_t = 1 << 22)]
    pub(crate) function_samples: usize,
    /// Inputs per argument class in the sweep of every df64 function over its argument
    /// classes (±0, subnormal, tiny ... huge, ±inf, NaN, its own edges); 0 skips it.
    #[arg(long, default_value_t = 1 << 12)]
    pub(crate) class_samples: usize,
    /// Inputs per qf128 row; 0 skips the qf128 table.
    #[arg(long, default_value_t = 1 << 22)]
    pub(crate) qf128_samples: usize,
    /// Inputs per qf128 op in the sweep over the exponent range (results from 2^-140 to
    /// 2^127, bucketed by magnitude); 0 skips it.
    #[arg(long, default_value_t = 1 << 14)]
    pub(crate) qf128_exponent_samples: usize,
    /// Inputs per argument class in the sweep of qf128's functions (exp, log, sin, cos) over
    /// ±0, subnormal, tiny ... huge, ±inf, NaN and their own edges; 0 skips it.
    #[arg(long, default_value_t = 1 << 10)]
    pub(crate) qf128_class_samples: usize,
    /// Inputs for Da Graca and Defour's Table 5; 0 skips it.
    #[arg(long, default_value_t = 1 << 24)]
    pub(crate) dagraca_samples: usize,
    /// Operand sets per class (near 1, 1e6 to 1e9, cancelling, planet scale, 2^-40 to 2^40)
    /// for each vector and matrix routine, run in the vertex and the fragment stage; 0 skips
    /// them.
    #[arg(long, default_value_t = 1 << 12)]
    pub(crate) vector_samples: usize,
    /// Every table at 2^16 inputs (2^20 for Table 5): minutes instead of most of an hour.
    #[arg(long)]
    pub(crate) quick: bool,
    /// Draw the op rows' operands as (1 + u) 2^k with k uniform in [-E, E] and random
    /// signs, instead of Thall's ranges: max and rms then count results of magnitude 2^-100
    /// to 2^126 (beyond 2^-126 absolute on drivers that flush subnormals), and results
    /// outside must follow the IEEE rules (overflow to ±inf, never NaN). At most 127.
    #[arg(long, value_name = "E", value_parser = clap::value_parser!(i32).range(0..=127))]
    pub(crate) exponents: Option<i32>,
}

/// Options of `df64gl glsl`.
#[derive(Args)]
pub(crate) struct GlslArgs {
    /// GLSL dialect: 330 (core), 450 (core, `precise`) or es300 (GLSL ES 3.00 / WebGL 2).
    #[arg(long, default_value = "450")]
    pub(crate) target: SnippetTarget,
    /// Include qf128.glsl.
    #[arg(long)]
    pub(crate) qf128: bool,
    /// Leave out df64_func.glsl (exp, log, trigonometry, ...).
    #[arg(long)]
    pub(crate) no_functions: bool,
    /// Print the probe fragment shader instead (green: exact, red: not).
    #[arg(long)]
    pub(crate) probe: bool,
    /// Run the probe shader on this device (es300 through an OpenGL ES context) and exit
    /// 1 unless every pixel is green.
    #[arg(long)]
    pub(crate) check: bool,
    /// Without `precise`, also leave out the barrier (to see what goes wrong: the probe shader
    /// must turn red).
    #[arg(long)]
    pub(crate) no_fallback: bool,
    /// Paste the snippet into a plain program of its GLSL version on this device and
    /// measure add, sub, mul, div, sqrt, exp, log, sin and cos against the oracle and the
    /// CPU mirror; exit 1 if one misses its bound.
    #[arg(long)]
    pub(crate) measure: bool,
    /// Operand pairs per routine for --measure.
    #[arg(long, default_value_t = 1 << 16)]
    pub(crate) samples: usize,
    /// With --measure and --target es300: run the page in WebGL 2 in headless Chromium
    /// (DF64GL_CHROMIUM or chromium on the PATH) on this ANGLE backend instead of a native
    /// GLES context.
    #[arg(long)]
    pub(crate) browser: Option<BrowserBackend>,
    /// Write to this file instead of standard output.
    #[arg(long)]
    pub(crate) output: Option<std::path::PathBuf>,
}

/// Options of `df64gl wgsl`.
#[derive(Args)]
pub(crate) struct WgslArgs {
    /// Include qf128 (and the functions it needs).
    #[arg(long)]
    pub(crate) qf128: bool,
    /// Leave out the functions (exp, log, trigonometry, ...).
    #[arg(long, conflicts_with = "qf128")]
    pub(crate) no_functions: bool,
    /// @group of the barrier's buffer (16 bytes of zeros the caller binds).
    #[arg(long, default_value_t = 0)]
    pub(crate) group: u32,
    /// @binding of the barrier's buffer.
    #[arg(long, default_value_t = 0)]
    pub(crate) binding: u32,
    /// The barrier's buffer: storage (read-only; the default) or uniform (for stages without
    /// storage buffers; lavapipe inlines uniform values and breaks the barrier).
    #[arg(long, default_value = "storage")]
    pub(crate) zero: df64gl::export::wgsl::ZeroBuffer,
    /// The routines as plain expressions, without the barrier (only to see what a compiler
    /// does to them: no bound holds).
    #[arg(long)]
    pub(crate) unprotected: bool,
    /// Run the known-answer check of the export and of the unprotected translation on these
    /// wgpu back ends instead of printing; exit 1 if the export misses a bound on one.
    #[arg(long, value_delimiter = ',', num_args = 1..)]
    pub(crate) check: Vec<crate::experiments::wgsl::WgpuBackend>,
    /// With --check: only these routines (names of the known answers: add, exp, ...; of both
    /// sets with --qf128).
    #[arg(long, value_delimiter = ',', num_args = 1..)]
    pub(crate) routines: Vec<String>,
    /// Write to this file instead of standard output.
    #[arg(long)]
    pub(crate) output: Option<std::path::PathBuf>,
}

/// Options of `df64gl repro`.
#[derive(Args)]
pub(crate) struct ReproArgs {
    /// The report folder.
    #[arg(long, default_value = "repro-report")]
    pub(crate) out: std::path::PathBuf,
    /// Smaller samples and sizes (under two minutes on llvmpipe).
    #[arg(long)]
    pub(crate) quick: bool,
    /// Overwrite the files of an existing report folder.
    #[arg(long)]
    pub(crate) force: bool,
    #[arg(long, default_value_t = 2007)]
    pub(crate) seed: u64,
}

/// Options of `df64gl mandelbrot`.
#[derive(Args)]
pub(crate) struct MandelbrotArgs {
    /// The view's center as X,Y in decimal, any number of digits (qf128 keeps ~29).
    #[arg(long, default_value = DEFAULT_CENTER, allow_hyphen_values = true)]
    pub(crate) center: String,
    /// The view is 3 x zoom wide in the complex plane (1: the whole set).
    #[arg(long, default_value_t = 1e-13, allow_hyphen_values = true)]
    pub(crate) zoom: f64,
    /// f32, df64, qf128, or all three side by side.
    #[arg(long, default_value = "df64")]
    pub(crate) precision: MandelChoice,
    /// Image (or window) size in pixels, WIDTHxHEIGHT.
    #[arg(long, default_value = "640x480")]
    pub(crate) size: String,
    /// Iteration limit (default: grows with the zoom depth).
    #[arg(long)]
    pub(crate) iterations: Option<u32>,
    /// PNG to write (headless).
    #[arg(long, default_value = "mandelbrot.png")]
    pub(crate) out: std::path::PathBuf,
    /// Open a window instead (needs a display).
    #[arg(long)]
    pub(crate) window: bool,
    /// Close the window after this many frames (scripts, tests).
    #[arg(long)]
    pub(crate) frames: Option<u64>,
}

/// Options of `df64gl web`.
#[derive(Args)]
pub(crate) struct WebArgs {
    /// Folder to create; the pages are its index.html (WebGL 2), webgpu.html (WebGPU) and
    /// repro.html (the papers' tables).
    #[arg(long, default_value = "df64gl-web")]
    pub(crate) out: std::path::PathBuf,
    /// Write into the folder even if it exists (overwrites its index.html, webgpu.html and
    /// repro.html).
    #[arg(long)]
    pub(crate) force: bool,
}

/// Options of `df64gl js`.
#[derive(Args)]
pub(crate) struct JsArgs {
    /// The package folder (the repository's `js/`).
    #[arg(long, default_value = "js")]
    pub(crate) out: std::path::PathBuf,
    /// Where the library's copy of the known answers goes (the repository's `assets/`).
    #[arg(long, default_value = "assets")]
    pub(crate) assets: std::path::PathBuf,
}

/// Options of `df64gl bench fft`.
#[derive(Args)]
pub(crate) struct BenchFftArgs {
    /// Smallest log2 N.
    #[arg(long, default_value_t = 10)]
    pub(crate) min_log2: u32,
    /// Largest log2 N.
    #[arg(long, default_value_t = 22)]
    pub(crate) max_log2: u32,
    /// Largest log2 N for qf128.
    #[arg(long, default_value_t = 20)]
    pub(crate) qf128_max_log2: u32,
    /// Timed repetitions per transform (the best counts).
    #[arg(long, default_value_t = 3)]
    pub(crate) repeats: usize,
    /// Twiddles from the W_long table or computed in the shader.
    #[arg(long, default_value = "table")]
    pub(crate) twiddles: TwiddleSource,
}

/// Options of `df64gl bench lengths`.
#[derive(Args)]
pub(crate) struct BenchLengthsArgs {
    /// Every N in 1..=this, f32 and df64.
    #[arg(long, default_value_t = 4096)]
    pub(crate) every_up_to: usize,
    /// Every N in 1..=this, qf128.
    #[arg(long, default_value_t = 64)]
    pub(crate) qf128_every_up_to: usize,
    /// Further f32 and df64 lengths (comma-separated; default: powers of ten and primes
    /// up to 10^6).
    #[arg(long, value_delimiter = ',')]
    pub(crate) lengths: Option<Vec<usize>>,
    /// Further qf128 lengths (default: 100, 127, 1000, 1009, 4093, 4095, 4096).
    #[arg(long, value_delimiter = ',')]
    pub(crate) qf128_lengths: Option<Vec<usize>>,
    /// Bluestein's cost: df64 at this N over the power of two it pads to (0: skip).
    #[arg(long, default_value_t = 1_000_000)]
    pub(crate) cost_length: usize,
    /// Mixed radix's cost: df64 at this N (3 * 2^k) over the next power of two, and its error
    /// against rustfft (0: skip).
    #[arg(long, default_value_t = 3 << 18)]
    pub(crate) mixed_length: usize,
    /// Timed repetitions for the cost (the best counts).
    #[arg(long, default_value_t = 3)]
    pub(crate) repeats: usize,
    /// Exit with 1 when a group misses its accuracy target.
    #[arg(long)]
    pub(crate) check: bool,
}

/// Options of `df64gl bench ops`.
#[derive(Args)]
pub(crate) struct BenchOpsArgs {
    /// Texels per timed pass.
    #[arg(long, default_value_t = 1 << 16)]
    pub(crate) texels: usize,
    /// Chains grow until they take this many seconds longer than an empty pass.
    #[arg(long, default_value_t = 0.02)]
    pub(crate) min_seconds: f64,
}

/// Options of `df64gl bench wgsl`.
#[derive(Args)]
pub(crate) struct BenchWgslArgs {
    /// The legs.
    #[arg(long, value_delimiter = ',', default_values = ["vulkan", "gl"])]
    pub(crate) backends: Vec<crate::experiments::wgsl::WgpuBackend>,
    /// The routines (add, sub, mul, div, sqrt, exp, log, sin, cos; luma.gl has the first five).
    #[arg(long, value_delimiter = ',')]
    pub(crate) routines: Vec<String>,
    /// Operand pairs per routine for the accuracy.
    #[arg(long, default_value_t = 4096, value_parser = clap::value_parser!(u32).range(1..=1_048_576))]
    pub(crate) pairs: u32,
    /// Invocations per timed dispatch.
    #[arg(long, default_value_t = 16384, value_parser = clap::value_parser!(u32).range(64..=4_194_304))]
    pub(crate) lanes: u32,
    /// Leave out luma.gl (its WGSL is read from js/node_modules through Node).
    #[arg(long)]
    pub(crate) no_luma: bool,
    /// Leave out the unprotected translation.
    #[arg(long)]
    pub(crate) no_unprotected: bool,
    /// Leave out the GLSL engine's rows.
    #[arg(long)]
    pub(crate) no_glsl: bool,
    /// Also on Chromium's WebGPU (js/bench/wgsl-fp64.html in headless Chromium: this
    /// repository's js/ with its node_modules, and Chromium).
    #[arg(long)]
    pub(crate) chromium: bool,
}

/// Options of `df64gl bench vertex`.
#[derive(Args)]
pub(crate) struct BenchVertexArgs {
    /// The ANGLE legs.
    #[arg(long, value_delimiter = ',', default_values = ["swiftshader", "angle-gl"])]
    pub(crate) browser: Vec<BrowserBackend>,
    /// Vertices per draw.
    #[arg(long, default_value_t = 65536, value_parser = clap::value_parser!(u32).range(256..=4_194_304))]
    pub(crate) vertices: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum MandelChoice {
    F32,
    Df64,
    Qf128,
    All,
}
