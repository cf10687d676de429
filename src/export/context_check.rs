//! The known-answer check on a caller's own `glow` context, the Rust twin of the npm module's
//! `check(gl)`: the probe shader, then each exported df64 routine and each vector and matrix
//! routine on the known answers of [`super::known`], judged by the same rules, in the vertex
//! stage and in the fragment stage (each a separate compilation, which a driver may treat
//! differently). It is right whatever state the caller left (samplers, pixel store,
//! capabilities, an active transform feedback: `gl_state.rs` lists what), leaves that state and
//! the caller's pending errors as it found them and deletes what it made; a driver that fails
//! is a `pass: false` with the reason, never an error.
//!
//! How a stage is checked: every case is one point drawn onto its own texel of a float target,
//! whose left half the fragment shader computes and whose right half is what the vertex shader
//! computed for that point, handed to the fragment shader bit for bit as a flat `uvec4`.

use glow::HasContext;
use serde::Serialize;

use super::gl_state::on_callers_context;
use super::known::{judge_routines, judge_vec_routines, known_answers, KnownAnswers, RoutineCheck};
use super::snippet::{
    probe_functions, probe_routine_names, snippet, SnippetOptions, SnippetTarget,
};
use super::vec_shader::{in_texels, out_texels, vec_out_glsl};
use crate::glsl_text::names::rename_identifier;
use crate::glsl_text::slice;
use crate::numeric::df64::Df64;
use crate::numeric::vec_catalog::VecOpRow;

/// The shader stages a check runs the routines in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Stages {
    /// In a vertex shader.
    pub vertex: bool,
    /// In a fragment shader.
    pub fragment: bool,
}

impl Stages {
    /// Both stages (the default).
    pub const BOTH: Stages = Stages {
        vertex: true,
        fragment: true,
    };
    /// The fragment stage only.
    pub const FRAGMENT: Stages = Stages {
        vertex: false,
        fragment: true,
    };
    /// The vertex stage only.
    pub const VERTEX: Stages = Stages {
        vertex: true,
        fragment: false,
    };
}

/// What one stage found.
#[derive(Debug, Clone, Serialize)]
pub struct StageCheck {
    /// The probe all green and every routine within its bound in this stage.
    pub pass: bool,
    /// The probe shader's green pixels (of 4096).
    pub probe_green: usize,
    /// Each df64 routine checked.
    pub routines: Vec<RoutineCheck>,
    /// Each vector and matrix routine checked.
    pub vectors: Vec<RoutineCheck>,
}

/// Each stage's result (`None`: not checked).
#[derive(Debug, Clone, Default, Serialize)]
pub struct StageChecks {
    /// The vertex stage.
    pub vertex: Option<StageCheck>,
    /// The fragment stage.
    pub fragment: Option<StageCheck>,
}

/// What [`check_context`] found.
#[derive(Debug, Clone, Serialize)]
pub struct ContextCheck {
    /// Every stage checked passed: the probe all green and every routine within its bound.
    pub pass: bool,
    /// Why, in a sentence.
    pub reason: String,
    /// GL_RENDERER.
    pub renderer: String,
    /// The probe shader's green pixels (of 4096) in the stage with the fewest.
    pub probe_green: usize,
    /// Each df64 routine over the stages checked (the worst error of any stage, the failures
    /// of all, the mirror matches of the stage with the fewest).
    pub routines: Vec<RoutineCheck>,
    /// Each vector and matrix routine, over the stages as `routines`.
    pub vectors: Vec<RoutineCheck>,
    /// Each stage's own result.
    pub stages: StageChecks,
}

/// What the check makes, deleted at the end.
#[derive(Default)]
struct Made {
    programs: Vec<glow::Program>,
    textures: Vec<glow::Texture>,
    framebuffers: Vec<glow::Framebuffer>,
    vertex_arrays: Vec<glow::VertexArray>,
}

impl Made {
    unsafe fn free(self, gl: &glow::Context) {
        self.programs.into_iter().for_each(|p| gl.delete_program(p));
        self.textures.into_iter().for_each(|t| gl.delete_texture(t));
        self.framebuffers
            .into_iter()
            .for_each(|f| gl.delete_framebuffer(f));
        self.vertex_arrays
            .into_iter()
            .for_each(|v| gl.delete_vertex_array(v));
    }
}

/// NEAREST filtering on the bound 2-D texture (float textures filter nothing else on ES).
unsafe fn nearest_filtering(gl: &glow::Context) {
    for p in [glow::TEXTURE_MIN_FILTER, glow::TEXTURE_MAG_FILTER] {
        gl.tex_parameter_i32(glow::TEXTURE_2D, p, glow::NEAREST as i32);
    }
}

/// A compiled, linked program from a vertex and a fragment source; made current.
unsafe fn program(
    gl: &glow::Context,
    made: &mut Made,
    vertex: &str,
    fragment: &str,
    what: &str,
) -> Result<glow::Program, String> {
    let p = gl.create_program()?;
    made.programs.push(p);
    for (kind, stage, src) in [
        (glow::VERTEX_SHADER, "vertex", vertex),
        (glow::FRAGMENT_SHADER, "fragment", fragment),
    ] {
        let s = gl.create_shader(kind)?;
        gl.shader_source(s, src);
        gl.compile_shader(s);
        let ok = gl.get_shader_compile_status(s);
        let log = if ok {
            String::new()
        } else {
            gl.get_shader_info_log(s)
        };
        gl.attach_shader(p, s);
        gl.delete_shader(s);
        if !ok {
            return Err(format!(
                "{what} does not compile here ({stage} shader): {log}"
            ));
        }
    }
    gl.link_program(p);
    if !gl.get_program_link_status(p) {
        return Err(format!(
            "{what} does not link here: {}",
            gl.get_program_info_log(p)
        ));
    }
    gl.use_program(Some(p));
    Ok(p)
}

/// A `w` x `h` render target of `internal` format, bound, with the viewport on it.
unsafe fn target_texture(
    gl: &glow::Context,
    made: &mut Made,
    (w, h): (i32, i32),
    internal: u32,
) -> Result<(), String> {
    let t = gl.create_texture()?;
    made.textures.push(t);
    gl.active_texture(glow::TEXTURE0);
    gl.bind_texture(glow::TEXTURE_2D, Some(t));
    let (format, ty) = if internal == glow::RGBA8 {
        (glow::RGBA, glow::UNSIGNED_BYTE)
    } else {
        (glow::RGBA, glow::FLOAT)
    };
    gl.tex_image_2d(
        glow::TEXTURE_2D,
        0,
        internal as i32,
        w,
        h,
        0,
        format,
        ty,
        glow::PixelUnpackData::Slice(None),
    );
    nearest_filtering(gl);
    let fb = gl.create_framebuffer()?;
    made.framebuffers.push(fb);
    gl.bind_framebuffer(glow::FRAMEBUFFER, Some(fb));
    gl.framebuffer_texture_2d(
        glow::FRAMEBUFFER,
        glow::COLOR_ATTACHMENT0,
        glow::TEXTURE_2D,
        Some(t),
        0,
    );
    if gl.check_framebuffer_status(glow::FRAMEBUFFER) != glow::FRAMEBUFFER_COMPLETE {
        return Err(format!(
            "a {w}x{h} render target is incomplete here{}",
            if internal == glow::RGBA32F {
                " (OpenGL ES needs EXT_color_buffer_float)"
            } else {
                ""
            }
        ));
    }
    gl.viewport(0, 0, w, h);
    Ok(())
}

/// The two shaders of a check program for `stages`: `library` (the export and the code that
/// defines what is computed) goes into each stage that computes; `vertex_main` and
/// `fragment_main` follow, each told by `DF64GL_CHECK_VERTEX` or `DF64GL_CHECK_FRAGMENT`
/// (defined before the export) whether its stage computes.
fn staged_sources(
    target: SnippetTarget,
    stages: Stages,
    library: &str,
    vertex_main: &str,
    fragment_main: &str,
) -> (String, String) {
    let version = target.version_line();
    let mut vertex = format!("{version}\n");
    if stages.vertex {
        vertex.push_str("#define DF64GL_CHECK_VERTEX 1\n");
        vertex.push_str(library);
    }
    vertex.push_str(vertex_main);
    // The least a host gives a fragment shader: float precision only (luma.gl's assembler, for
    // one); the export sets highp int itself.
    let mut fragment = format!("{version}\n");
    if target.is_es() {
        fragment.push_str("precision highp float;\n");
    }
    if stages.fragment {
        fragment.push_str("#define DF64GL_CHECK_FRAGMENT 1\n");
        fragment.push_str(library);
    }
    fragment.push_str(fragment_main);
    (vertex, fragment)
}

/// The probe in both halves of a 128 x 64 image: left the fragment shader's pixels, right the
/// vertex shader's (one point per pixel, its verdict passed on flat).
const PROBE_VERTEX_MAIN: &str = "
flat out highp uint v_df64gl_ok;
void main() {
    int id = gl_VertexID;
    int half_ = id / 4096;
    int p = id - 4096 * half_;
    int px = p - 64 * (p / 64);
    int py = p / 64;
    gl_Position = vec4((float(px + 64 * half_) + 0.5) / 64.0 - 1.0, (float(py) + 0.5) / 32.0 - 1.0, 0.0, 1.0);
    gl_PointSize = 1.0;
    v_df64gl_ok = 0u;
#ifdef DF64GL_CHECK_VERTEX
    if (half_ == 1) v_df64gl_ok = df64_probe_pixel(vec2(float(px) + 0.5, float(py) + 0.5)) ? 1u : 0u;
#endif
}
";

const PROBE_FRAGMENT_MAIN: &str = "
flat in highp uint v_df64gl_ok;
out highp vec4 o_df64gl;
void main() {
    bool ok = false;
    if (gl_FragCoord.x >= 64.0) {
        ok = v_df64gl_ok == 1u;
    } else {
#ifdef DF64GL_CHECK_FRAGMENT
        ok = df64_probe_pixel(gl_FragCoord.xy);
#endif
    }
    o_df64gl = ok ? vec4(0.0, 1.0, 0.0, 1.0) : vec4(1.0, 0.0, 0.0, 1.0);
}
";

/// Green pixels of the probe image's left (fragment) and right (vertex) halves.
unsafe fn run_probe(
    gl: &glow::Context,
    made: &mut Made,
    source: &CheckSource,
    chosen: &dyn Fn(&str) -> bool,
    stages: Stages,
) -> Result<(usize, usize), String> {
    // The check's probe: the error-free transforms and the literal cases of the routines
    // checked (the known answers run them at run time).
    let mut switches = String::from("#define DF64_PROBE_CHECK 1\n");
    for (k, name) in probe_routine_names(source.functions).iter().enumerate() {
        if !chosen(name) {
            switches.push_str(&format!("#define DF64_PROBE_OP_{k} 0\n"));
        }
    }
    let library = format!(
        "{switches}{}",
        slice::Library::new(&format!(
            "{}{}",
            source.text,
            probe_functions(source.functions)
        ))
        .slice(&format!("{PROBE_VERTEX_MAIN}{PROBE_FRAGMENT_MAIN}"))
    );
    let (vs, fs) = staged_sources(
        source.target,
        stages,
        &library,
        PROBE_VERTEX_MAIN,
        PROBE_FRAGMENT_MAIN,
    );
    program(gl, made, &vs, &fs, "the probe shader")?;
    target_texture(gl, made, (128, 64), glow::RGBA8)?;
    if stages.fragment {
        gl.draw_arrays(glow::POINTS, 0, 4096);
    }
    if stages.vertex {
        gl.draw_arrays(glow::POINTS, 4096, 4096);
    }
    let mut px = vec![0u8; 128 * 64 * 4];
    gl.read_pixels(
        0,
        0,
        128,
        64,
        glow::RGBA,
        glow::UNSIGNED_BYTE,
        glow::PixelPackData::Slice(Some(&mut px)),
    );
    let mut green = (0, 0);
    for (i, p) in px.chunks_exact(4).enumerate() {
        if p[0] == 0 && p[1] == 255 && p[2] == 0 {
            if i % 128 < 64 {
                green.0 += 1;
            } else {
                green.1 += 1;
            }
        }
    }
    Ok(green)
}

/// One routine of a grid: GLSL that defines `vec4 df64gl_result(int col)` (output texel `col`
/// of the routine's current row, from texels of its input row read by `df64gl_texel(i)`), and
/// its rows: each an input (4 floats a texel) and how many output texels it writes. One program
/// draws all of a routine's rows.
struct GridRoutine {
    /// The routine, for messages.
    name: String,
    /// `vec4 df64gl_result(int col)`.
    body: String,
    /// Its rows.
    rows: Vec<GridRow>,
}

/// One row of a grid routine.
struct GridRow {
    /// Input texels, 4 floats each.
    input: Vec<f32>,
    /// Output texels.
    width: usize,
}

/// What a grid wrote: per routine and row, its output texels (4 floats each) in the fragment
/// stage and in the vertex stage (empty for a stage not run).
struct GridOutput {
    fragment: Vec<Vec<Vec<f32>>>,
    vertex: Vec<Vec<Vec<f32>>>,
}

const GRID_PRELUDE: &str = "
uniform highp sampler2D u_df64gl_in;
uniform highp int u_df64gl_row;
vec4 df64gl_texel(int i) { return texelFetch(u_df64gl_in, ivec2(i, u_df64gl_row), 0); }
";

/// Output texel x of the row: left half (x < width) the fragment shader's, right half the
/// vertex shader's for point x - width.
const GRID_VERTEX_MAIN: &str = "
uniform highp int u_df64gl_width;
flat out highp uvec4 v_df64gl;
void main() {
    int x = gl_VertexID;
    gl_Position = vec4((float(x) + 0.5) / float(u_df64gl_width) - 1.0, 0.0, 0.0, 1.0);
    gl_PointSize = 1.0;
    v_df64gl = uvec4(0u);
#ifdef DF64GL_CHECK_VERTEX
    if (x >= u_df64gl_width) v_df64gl = floatBitsToUint(df64gl_result(x - u_df64gl_width));
#endif
}
";

const GRID_FRAGMENT_MAIN: &str = "
uniform highp int u_df64gl_width;
flat in highp uvec4 v_df64gl;
out highp vec4 o_df64gl;
void main() {
    int x = int(gl_FragCoord.x);
    o_df64gl = vec4(0.0);
    if (x >= u_df64gl_width) {
        o_df64gl = uintBitsToFloat(v_df64gl);
    } else {
#ifdef DF64GL_CHECK_FRAGMENT
        o_df64gl = df64gl_result(x);
#endif
    }
}
";

/// A program's worth of routines: each routine in the first program that still has room for
/// it, alone where its code inlined is `group_size` characters or more (the known answers'
/// `judging.program_group_size`, which the npm module's check reads too), the small ones
/// together up to that size (one program holding every routine takes minutes to compile on
/// some drivers; one each paid a program's fixed cost, 55 to 67 ms for an empty pair on
/// SwiftShader, 97 times). First fit, as the npm module's check groups: a large routine between
/// small ones does not split them. Indices into `routines`, ascending in each group.
fn program_groups(
    library: &slice::Library,
    routines: &[GridRoutine],
    group_size: usize,
) -> Vec<Vec<usize>> {
    // (members, their inlined size together)
    let mut groups: Vec<(Vec<usize>, usize)> = Vec::new();
    for (k, r) in routines.iter().enumerate() {
        let s = library.inlined_size(&r.body);
        match groups
            .iter_mut()
            .find(|(_, size)| size.saturating_add(s) <= group_size)
        {
            Some((members, size)) => {
                members.push(k);
                *size += s;
            }
            None => groups.push((vec![k], s)),
        }
    }
    groups.into_iter().map(|(members, _)| members).collect()
}

/// One program's code for a group of routines: each routine's functions renamed for its index
/// (`df64gl_result_<k>`, and a vector routine's `df64gl_in_<k>` and `df64gl_vec_out_<k>`), and
/// the `df64gl_result` the mains call picking by the row drawn (`first`: each routine's first
/// row).
fn group_body(routines: &[GridRoutine], group: &[usize], first: &[i32]) -> String {
    let mut out = String::new();
    let mut picks = String::new();
    for &k in group {
        let (Some(r), Some(&start)) = (routines.get(k), first.get(k)) else {
            continue;
        };
        let mut body = r.body.clone();
        for f in ["df64gl_result", "df64gl_in", "df64gl_vec_out"] {
            body = rename_identifier(&body, f, &format!("{f}_{k}"));
        }
        out.push_str(&body);
        picks.push_str(&format!(
            "    if (u_df64gl_row >= {start} && u_df64gl_row < {}) return df64gl_result_{k}(col);\n",
            start + r.rows.len() as i32
        ));
    }
    out.push_str(&format!(
        "vec4 df64gl_result(int col) {{\n{picks}    return vec4(0.0);\n}}\n"
    ));
    out
}

/// Runs every routine of a grid in `stages`: each row reads its row of one input texture and
/// writes its row of the target, one point per output texel and stage; routines share programs
/// ([`program_groups`]), each program the export cut to what its routines call
/// ([`slice::Library::slice`]). `export` is the df64 GLSL under test; the routines come with
/// the program group size that [`program_groups`] fills programs to.
unsafe fn run_grid(
    gl: &glow::Context,
    made: &mut Made,
    target: SnippetTarget,
    export: &str,
    (routines, group_size): (&[GridRoutine], usize),
    stages: Stages,
    label: &str,
) -> Result<GridOutput, String> {
    let all_rows = || routines.iter().flat_map(|r| &r.rows);
    let rows = all_rows().count().max(1) as i32;
    let width = all_rows().map(|r| r.width).max().unwrap_or(1).max(1) as i32;
    let in_width = all_rows()
        .map(|r| r.input.len() / 4)
        .max()
        .unwrap_or(1)
        .max(1) as i32;
    let mut input = vec![0f32; (in_width * rows * 4) as usize];
    for (k, r) in all_rows().enumerate() {
        let at = k * in_width as usize * 4;
        input[at..at + r.input.len()].copy_from_slice(&r.input);
    }
    target_texture(gl, made, (2 * width, rows), glow::RGBA32F)?;
    let t = gl.create_texture()?;
    made.textures.push(t);
    gl.active_texture(glow::TEXTURE0);
    gl.bind_texture(glow::TEXTURE_2D, Some(t));
    gl.tex_image_2d(
        glow::TEXTURE_2D,
        0,
        glow::RGBA32F as i32,
        in_width,
        rows,
        0,
        glow::RGBA,
        glow::FLOAT,
        glow::PixelUnpackData::Slice(Some(bytemuck::cast_slice(&input))),
    );
    nearest_filtering(gl);
    // The first row of each routine.
    let mut first = Vec::with_capacity(routines.len());
    let mut k = 0;
    for r in routines {
        first.push(k);
        k += r.rows.len() as i32;
    }
    let library = slice::Library::new(export);
    for group in program_groups(&library, routines, group_size) {
        let body = group_body(routines, &group, &first);
        let code = format!("{GRID_PRELUDE}{body}");
        let library = format!(
            "{}{code}",
            library.slice(&format!("{code}{GRID_VERTEX_MAIN}{GRID_FRAGMENT_MAIN}"))
        );
        let (vs, fs) = staged_sources(
            target,
            stages,
            &library,
            GRID_VERTEX_MAIN,
            GRID_FRAGMENT_MAIN,
        );
        let names: Vec<&str> = group
            .iter()
            .filter_map(|&g| routines.get(g))
            .map(|r| r.name.as_str())
            .collect();
        let p = program(
            gl,
            made,
            &vs,
            &fs,
            &format!("the {label} {} shader", names.join(", ")),
        )?;
        let set = |name: &str, v: i32| {
            let loc = gl.get_uniform_location(p, name);
            gl.uniform_1_i32(loc.as_ref(), v);
        };
        set("u_df64gl_in", 0);
        set("u_df64gl_width", width);
        for &g in &group {
            let (Some(r), Some(&start)) = (routines.get(g), first.get(g)) else {
                continue;
            };
            for (j, row) in r.rows.iter().enumerate() {
                let k = start + j as i32;
                set("u_df64gl_row", k);
                gl.viewport(0, k, 2 * width, 1);
                if stages.fragment {
                    gl.draw_arrays(glow::POINTS, 0, row.width as i32);
                }
                if stages.vertex {
                    gl.draw_arrays(glow::POINTS, width, row.width as i32);
                }
            }
        }
        // A check holds one program at a time.
        gl.use_program(None);
        if let Some(p) = made.programs.pop() {
            gl.delete_program(p);
        }
    }
    let mut result = vec![0f32; (2 * width * rows * 4) as usize];
    gl.read_pixels(
        0,
        0,
        2 * width,
        rows,
        glow::RGBA,
        glow::FLOAT,
        glow::PixelPackData::Slice(Some(bytemuck::cast_slice_mut(&mut result))),
    );
    let half = |offset: usize, run: bool| -> Vec<Vec<Vec<f32>>> {
        let mut k = 0;
        routines
            .iter()
            .map(|r| {
                r.rows
                    .iter()
                    .map(|row| {
                        let at = 4 * (k * 2 * width as usize + offset);
                        k += 1;
                        if run {
                            result.get(at..at + 4 * row.width).unwrap_or(&[]).to_vec()
                        } else {
                            Vec::new()
                        }
                    })
                    .collect()
            })
            .collect()
    };
    Ok(GridOutput {
        fragment: half(0, stages.fragment),
        vertex: half(width as usize, stages.vertex),
    })
}

/// The df64 routines' grid: one texel a case (a.hi, a.lo, b.hi, b.lo in, the result's words
/// out).
fn df64_grid(
    known: &KnownAnswers,
    chosen: &dyn Fn(&str) -> bool,
) -> Result<Vec<GridRoutine>, String> {
    let set = &known.df64;
    let mut out = Vec::new();
    let mut c = 0;
    for r in &set.routines {
        let mut input = Vec::with_capacity(4 * r.cases);
        for _ in 0..r.cases {
            let case = set.case(c).ok_or("known answers end early")?;
            input.extend_from_slice(case.a);
            input.extend_from_slice(case.b);
            c += 1;
        }
        if chosen(&r.name) {
            out.push(GridRoutine {
                name: format!("{} known-answer", r.name),
                body: format!(
                    "vec4 df64gl_result(int col) {{\n    vec4 t = df64gl_texel(col);\n    \
                     vec2 a = t.xy;\n    vec2 b = t.zw;\n    return vec4({}, 0.0, 0.0);\n}}\n",
                    r.call
                ),
                rows: vec![GridRow {
                    input,
                    width: r.cases,
                }],
            });
        }
    }
    Ok(out)
}

/// The vector routines' grid: each evaluation's operand numbers two to a texel in, its result
/// components two to a texel out.
fn vec_grid(
    known: &KnownAnswers,
    chosen: &dyn Fn(&str) -> bool,
) -> Result<Vec<GridRoutine>, String> {
    let set = &known.df64vec;
    let mut out = Vec::new();
    for (k, r) in set.routines.iter().enumerate() {
        if !chosen(&r.name) {
            continue;
        }
        let (t_in, t_out) = (r.inputs.div_ceil(2), r.outputs.div_ceil(2));
        let mut input = vec![0f32; 4 * t_in * r.evaluations];
        for e in 0..r.evaluations {
            let words = set.operands(k, e).ok_or("vector known answers end early")?;
            input[4 * t_in * e..4 * t_in * e + words.len()].copy_from_slice(words);
        }
        out.push(GridRoutine {
            name: format!("{} known-answer", r.name),
            body: vec_body(&r.glsl, r.inputs, r.outputs),
            rows: vec![GridRow {
                input,
                width: t_out * r.evaluations,
            }],
        });
    }
    Ok(out)
}

/// `df64gl_result` of a vector routine from its `df64gl_vec_out` ([`super::vec_shader`]): each
/// evaluation's operand numbers two to a texel in, its result components two to a texel out.
fn vec_body(vec_out: &str, inputs: usize, outputs: usize) -> String {
    let (t_in, t_out) = (inputs.div_ceil(2), outputs.div_ceil(2));
    format!(
        "vec2 df64gl_in(int e, int j) {{\n    vec4 q = df64gl_texel(e * {t_in} + j / 2);\n    \
         return (j - 2 * (j / 2)) == 0 ? q.xy : q.zw;\n}}\n{vec_out}\
         vec4 df64gl_result(int col) {{\n    int e = col / {t_out};\n    \
         return df64gl_vec_out(e, col - {t_out} * e);\n}}\n"
    )
}

/// Per stage run, the df64 and vector routines' checks.
struct StageResults {
    routines: Vec<RoutineCheck>,
    vectors: Vec<RoutineCheck>,
}

fn judge_grids(
    known: &KnownAnswers,
    chosen: &dyn Fn(&str) -> bool,
    df64: &[Vec<Vec<f32>>],
    vectors: &[Vec<Vec<f32>>],
) -> Result<StageResults, String> {
    // The grids hold the chosen routines in set order: index k of the set to index of the grid.
    let index = |names: Vec<&String>| {
        let mut at = Vec::new();
        let mut i = 0;
        for n in names {
            at.push(chosen(n).then(|| {
                i += 1;
                i - 1
            }));
        }
        at
    };
    let df64_at = index(known.df64.routines.iter().map(|r| &r.name).collect());
    let got = |k: usize, i: usize| {
        let row = df64.get((*df64_at.get(k)?)?)?.first()?;
        row.get(4 * i..4 * i + 2)
    };
    let routines = judge_routines(&known.df64, chosen, &got)?;
    let vec_at = index(known.df64vec.routines.iter().map(|r| &r.name).collect());
    let vgot = |k: usize, e: usize, i: usize| {
        let r = known.df64vec.routines.get(k)?;
        let row = vectors.get((*vec_at.get(k)?)?)?.first()?;
        let at = 4 * (e * r.outputs.div_ceil(2)) + 2 * i;
        row.get(at..at + 2)
    };
    let vectors = judge_vec_routines(&known.df64vec, chosen, &vgot)?;
    Ok(StageResults { routines, vectors })
}

/// The check's steps; the caller saves and restores the state around it.
unsafe fn run(
    gl: &glow::Context,
    made: &mut Made,
    source: &CheckSource,
    only: Option<&[&str]>,
    stages: Stages,
    out: &mut ContextCheck,
) -> Result<(), String> {
    if !stages.vertex && !stages.fragment {
        return Err(
            "no stage to check: ask for the vertex stage, the fragment stage or both".into(),
        );
    }
    let known = known_answers()?;
    if let Some(only) = only {
        let unknown: Vec<&&str> = only
            .iter()
            .filter(|n| {
                !known.df64.routines.iter().any(|r| r.name == **n)
                    && !known.df64vec.routines.iter().any(|r| r.name == **n)
            })
            .collect();
        if only.is_empty() || !unknown.is_empty() {
            return Err(format!(
                "routines: {unknown:?} are not df64 routines (or none given)"
            ));
        }
    }
    let chosen = |name: &str| only.is_none_or(|o| o.contains(&name));
    let vao = gl.create_vertex_array()?;
    made.vertex_arrays.push(vao);
    gl.bind_vertex_array(Some(vao));
    let export = source.text;
    let (fragment_green, vertex_green) = run_probe(gl, made, source, &chosen, stages)?;
    let df64 = run_grid(
        gl,
        made,
        source.target,
        export,
        (
            &df64_grid(&known, &chosen)?,
            known.judging.program_group_size,
        ),
        stages,
        "df64",
    )?;
    let vectors = run_grid(
        gl,
        made,
        source.target,
        export,
        (
            &vec_grid(&known, &chosen)?,
            known.judging.program_group_size,
        ),
        stages,
        "df64 vector",
    )?;
    if gl.get_error() != glow::NO_ERROR {
        return Err("a GL error during the check".into());
    }
    let stage = |green: usize, df64: &[Vec<Vec<f32>>], vectors: &[Vec<Vec<f32>>]| {
        let r = judge_grids(&known, &chosen, df64, vectors)?;
        let fine = |v: &[RoutineCheck]| v.iter().all(|x| x.failed == 0);
        Ok::<StageCheck, String>(StageCheck {
            pass: green == 64 * 64 && fine(&r.routines) && fine(&r.vectors),
            probe_green: green,
            routines: r.routines,
            vectors: r.vectors,
        })
    };
    if stages.fragment {
        out.stages.fragment = Some(stage(fragment_green, &df64.fragment, &vectors.fragment)?);
    }
    if stages.vertex {
        out.stages.vertex = Some(stage(vertex_green, &df64.vertex, &vectors.vertex)?);
    }
    let checked: Vec<&StageCheck> = [&out.stages.fragment, &out.stages.vertex]
        .into_iter()
        .flatten()
        .collect();
    out.probe_green = checked.iter().map(|s| s.probe_green).min().unwrap_or(0);
    out.routines = merge(checked.iter().map(|s| s.routines.as_slice()));
    out.vectors = merge(checked.iter().map(|s| s.vectors.as_slice()));
    Ok(())
}

/// One routine's results over several stages: the worst error, all failures, the fewest mirror
/// matches.
fn merge<'a>(stages: impl Iterator<Item = &'a [RoutineCheck]>) -> Vec<RoutineCheck> {
    let mut out: Vec<RoutineCheck> = Vec::new();
    for rows in stages {
        for r in rows {
            match out.iter_mut().find(|o| o.name == r.name) {
                Some(o) => {
                    o.worst = o.worst.max(r.worst);
                    o.failed += r.failed;
                    o.mirror_matched = o.mirror_matched.min(r.mirror_matched);
                }
                None => out.push(r.clone()),
            }
        }
    }
    out
}

/// Proves the export `options` describes (what `df64gl glsl` prints for them; use
/// `SnippetOptions::new(target)` for the one you paste) on the caller's current context, in
/// the vertex and the fragment stage: the probe shader and every df64, vector and matrix routine
/// (or those named in `only`) on the known answers, in its own framebuffers and textures. The
/// context's bindings are as they were afterwards. Without `options.functions`, `only` must
/// leave the functions out (they are not in the export).
///
/// ```
/// use df64gl::gl::{DeviceChoice, GlContext};
/// use df64gl::export::context_check::check_context;
/// use df64gl::export::snippet::{SnippetOptions, SnippetTarget};
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let ctx = GlContext::headless(&DeviceChoice::Auto)?;
/// let options = SnippetOptions::new(SnippetTarget::Glsl330);
/// // SAFETY: the context is current on this thread.
/// let verdict = unsafe { check_context(ctx.gl(), &options, Some(&["add", "vec3_sub"])) };
/// assert!(verdict.pass, "{}", verdict.reason);
/// assert!(verdict.stages.vertex.is_some() && verdict.stages.fragment.is_some());
/// # Ok(())
/// # }
/// ```
///
/// # Safety
/// `gl` must be current on this thread, as for every `glow` call.
pub unsafe fn check_context(
    gl: &glow::Context,
    options: &SnippetOptions,
    only: Option<&[&str]>,
) -> ContextCheck {
    check_context_stages(gl, options, only, Stages::BOTH)
}

/// [`check_context`] in the stages `stages` names.
///
/// # Safety
/// `gl` must be current on this thread, as for every `glow` call.
pub unsafe fn check_context_stages(
    gl: &glow::Context,
    options: &SnippetOptions,
    only: Option<&[&str]>,
    stages: Stages,
) -> ContextCheck {
    match snippet(options) {
        Ok(text) => {
            let source = CheckSource {
                target: options.target,
                text: &text,
                functions: options.functions,
            };
            check_source(gl, &source, only, stages)
        }
        Err(e) => ContextCheck {
            pass: false,
            reason: format!("the export could not be made: {e}"),
            renderer: gl.get_parameter_string(glow::RENDERER),
            probe_green: 0,
            routines: Vec::new(),
            vectors: Vec::new(),
            stages: StageChecks::default(),
        },
    }
}

/// df64 GLSL to check: your own copy of the export or an older one, for `target`.
#[derive(Debug, Clone, Copy)]
pub struct CheckSource<'a> {
    /// The dialect it is written for (its `#version` is prepended).
    pub target: SnippetTarget,
    /// The GLSL: the export's text (df64, the vectors and, with `functions`, the functions).
    pub text: &'a str,
    /// It holds the functions (exp, log, sin, cos: the probe calls them).
    pub functions: bool,
}

/// [`check_context_stages`] on GLSL of the caller's (`source`), as the npm module's `check`
/// takes `options.glsl`: each stage compiles it after `#define DF64GL_CHECK_VERTEX 1` or
/// `#define DF64GL_CHECK_FRAGMENT 1`.
///
/// # Safety
/// `gl` must be current on this thread, as for every `glow` call.
pub unsafe fn check_source(
    gl: &glow::Context,
    source: &CheckSource,
    only: Option<&[&str]>,
    stages: Stages,
) -> ContextCheck {
    let mut out = ContextCheck {
        pass: false,
        reason: String::new(),
        renderer: gl.get_parameter_string(glow::RENDERER),
        probe_green: 0,
        routines: Vec::new(),
        vectors: Vec::new(),
        stages: StageChecks::default(),
    };
    let ran = on_callers_context(gl, || {
        let mut made = Made::default();
        let ran = run(gl, &mut made, source, only, stages, &mut out);
        made.free(gl);
        ran
    });
    match ran {
        Err(e) => out.reason = e,
        Ok(()) => {
            let mut off = Vec::new();
            for (stage, s) in [
                ("vertex", &out.stages.vertex),
                ("fragment", &out.stages.fragment),
            ] {
                let Some(s) = s else { continue };
                if s.probe_green != 64 * 64 {
                    off.push(format!(
                        "the probe is green on {} of 4096 pixels in the {stage} stage: this \
                         compiler rewrites df64's error-free transforms there",
                        s.probe_green
                    ));
                }
                off.extend(
                    s.routines
                        .iter()
                        .chain(&s.vectors)
                        .filter(|r| r.failed > 0)
                        .map(|r| {
                            format!(
                                "{} {:.3} {} in the {stage} stage (bound {}, {} of {})",
                                r.name, r.worst, r.unit, r.bound, r.failed, r.cases
                            )
                        }),
                );
            }
            out.pass = off.is_empty();
            out.reason = if off.is_empty() {
                let which = match (stages.vertex, stages.fragment) {
                    (true, true) => "vertex and fragment stages",
                    (true, false) => "vertex stage",
                    _ => "fragment stage",
                };
                format!("df64 exact on {} in the {which}", out.renderer)
            } else {
                format!("df64 off on {}: {}", out.renderer, off.join("; "))
            };
        }
    }
    out
}

/// A vector routine's results in each stage run (empty for a stage not run): per evaluation its
/// result components, in order.
#[derive(Debug, Clone, Default)]
pub struct VecRun {
    /// The fragment stage's.
    pub fragment: Vec<Df64>,
    /// The vertex stage's.
    pub vertex: Vec<Df64>,
}

/// Evaluations a row of a vector run holds (a row of mat4_mul is then 2 x 8 x 256 = 4096
/// texels wide, which every GL and WebGL 2 context allows).
const VEC_RUN_ROW: usize = 256;

/// Runs the vector or matrix routine `row` of the export `options` describes on the caller's
/// current context, in `stages`: `operands` holds the evaluations one after the other, each
/// `row.input_numbers()` df64 numbers laid out as [`VecShape::numbers`] says (f32 operands with
/// a zero low word). What the sweeps and tests measure the routines with, in the stages a
/// renderer calls them from; the context's bindings are as they were afterwards.
///
/// [`VecShape::numbers`]: crate::numeric::vec_catalog::VecShape::numbers
///
/// # Safety
/// `gl` must be current on this thread, as for every `glow` call.
pub unsafe fn run_vec_routine(
    gl: &glow::Context,
    options: &SnippetOptions,
    row: &VecOpRow,
    operands: &[Df64],
    stages: Stages,
) -> Result<VecRun, String> {
    let n_in = row.input_numbers();
    if n_in == 0 || !operands.len().is_multiple_of(n_in) {
        return Err(format!(
            "{}: {} operand numbers are not whole evaluations of {n_in}",
            row.name,
            operands.len()
        ));
    }
    let (t_in, t_out) = (in_texels(row), out_texels(row));
    let rows: Vec<GridRow> = operands
        .chunks(n_in * VEC_RUN_ROW)
        .map(|chunk| {
            let evaluations = chunk.len() / n_in;
            let mut input = vec![0f32; 4 * t_in * evaluations];
            for (e, numbers) in chunk.chunks(n_in).enumerate() {
                for (j, d) in numbers.iter().enumerate() {
                    input[4 * t_in * e + 2 * j] = d.hi;
                    input[4 * t_in * e + 2 * j + 1] = d.lo;
                }
            }
            GridRow {
                input,
                width: t_out * evaluations,
            }
        })
        .collect();
    let grid = [GridRoutine {
        name: row.name.to_string(),
        body: vec_body(&vec_out_glsl(row), n_in, row.output_numbers()),
        rows,
    }];
    let ran = on_callers_context(gl, || {
        let mut made = Made::default();
        let ran = (|| {
            let vao = gl.create_vertex_array()?;
            made.vertex_arrays.push(vao);
            gl.bind_vertex_array(Some(vao));
            let export = snippet(options).map_err(|e| e.to_string())?;
            run_grid(
                gl,
                &mut made,
                options.target,
                &export,
                // One routine: one program.
                (&grid, usize::MAX),
                stages,
                "df64 vector",
            )
        })();
        made.free(gl);
        ran
    });
    let out = ran?;
    let n_out = row.output_numbers();
    let components = |rows: &[Vec<Vec<f32>>]| -> Vec<Df64> {
        rows.iter()
            .flatten()
            .flat_map(|texels| {
                texels
                    .chunks_exact(4 * t_out)
                    .flat_map(|e| e.chunks_exact(2).take(n_out).map(|w| Df64::new(w[0], w[1])))
                    .collect::<Vec<_>>()
            })
            .collect()
    };
    Ok(VecRun {
        fragment: components(&out.fragment),
        vertex: components(&out.vertex),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn routine(body: &str) -> GridRoutine {
        GridRoutine {
            name: body.to_string(),
            body: body.to_string(),
            rows: Vec::new(),
        }
    }

    #[test]
    fn a_large_routine_between_small_ones_does_not_split_them() {
        // `big` inlines to more than the group size on its own; the small calls fit together.
        let source = format!(
            "float big(float x) {{ return x{}; }}\nfloat small(float x) {{ return x + 1.0; }}\n",
            " + 1.0".repeat(200)
        );
        let library = slice::Library::new(&source);
        let small = "vec4 df64gl_result(int col) { return vec4(small(1.0)); }\n";
        let large = "vec4 df64gl_result(int col) { return vec4(big(1.0)); }\n";
        let group_size = 2 * library.inlined_size(small) + library.inlined_size(small) / 2;
        assert!(library.inlined_size(large) > group_size);
        let routines = [
            routine(small),
            routine(large),
            routine(small),
            routine(small),
        ];
        // Two small ones fill a program; the third starts the next after the large one's.
        assert_eq!(
            program_groups(&library, &routines, group_size),
            vec![vec![0, 2], vec![1], vec![3]]
        );
        // Every routine is in exactly one program whatever the size.
        for size in [0, 1, group_size, usize::MAX] {
            let mut all: Vec<usize> = program_groups(&library, &routines, size)
                .into_iter()
                .flatten()
                .collect();
            all.sort_unstable();
            assert_eq!(all, vec![0, 1, 2, 3], "group size {size}");
        }
    }
}
