//! The known-answer check on a caller's own `glow` context, the Rust twin of the npm module's
//! `check(gl)`: the probe shader, then each exported df64 routine on the same known answers
//! (operands across the exponent range, ±0, ±inf, NaN; generated with the oracle and gated on
//! the CPU mirror by `df64gl js`, committed as `assets/known-answers.json`), judged by the
//! same rule ([`judge_words`]). It leaves the context's bindings as it found them and deletes
//! what it made; a driver that fails is a `pass: false` with the reason, never an error.

use glow::HasContext;
use serde::{Deserialize, Serialize};

use super::snippet::{probe_shader, snippet, SnippetOptions, SnippetTarget};

/// The known answers, as `df64gl js` writes them.
const KNOWN_ANSWERS_JSON: &str = include_str!("../../assets/known-answers.json");

/// The df64 domain's floor where subnormals are flushed (2^-126): a low word cannot hold less.
pub const DF64_FLOOR: f64 = 1.1754943508222875e-38;

/// What a case must return.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[repr(u8)]
pub enum AnswerKind {
    /// Within the bound of the value `want` (ulp48 or ulp96 of `want[0]`), beyond the floor.
    Value = 0,
    /// NaN, any payload.
    Nan = 1,
    /// Exactly `want[0]` in the first word (a zero's sign counts) and zeros after it.
    Exact = 2,
    /// ±0 in every word.
    Zero = 3,
}

impl AnswerKind {
    /// The kind of a stored byte.
    pub fn from_u8(b: u8) -> Option<Self> {
        [Self::Value, Self::Nan, Self::Exact, Self::Zero]
            .into_iter()
            .find(|k| *k as u8 == b)
    }
}

/// The value of a sum of doubles, exactly summed (Shewchuk's expansion) then rounded once.
pub fn exact_sum(terms: &[f64]) -> f64 {
    let mut e: Vec<f64> = Vec::new();
    for &t in terms {
        let mut q = t;
        let mut h = Vec::with_capacity(e.len() + 1);
        for &c in &e {
            let s = q + c;
            let bb = s - q;
            let err = (q - (s - bb)) + (c - bb);
            if err != 0.0 {
                h.push(err);
            }
            q = s;
        }
        h.push(q);
        e = h;
    }
    e.iter().sum()
}

/// 2^e with 2^e <= |x| < 2^(e+1).
fn exponent(x: f64) -> i32 {
    let a = x.abs();
    let mut e = a.log2().floor() as i32;
    if 2f64.powi(e) > a {
        e -= 1;
    }
    if 2f64.powi(e + 1) <= a {
        e += 1;
    }
    e
}

/// The error of `got` (2 words: ulp48; 4: ulp96) beyond `floor` against what the case wants;
/// 0 for a right special value and infinity for a wrong one.
pub fn judge_words(got: &[f32], kind: AnswerKind, want: [f64; 3], floor: f64) -> f64 {
    let precision = if got.len() == 2 { 48 } else { 96 };
    let rest_zero = got.iter().skip(1).all(|w| *w == 0.0);
    let first = got.first().copied().unwrap_or(f32::NAN);
    match kind {
        AnswerKind::Nan => {
            if first.is_nan() {
                0.0
            } else {
                f64::INFINITY
            }
        }
        _ if got.iter().any(|w| w.is_nan()) => f64::INFINITY,
        AnswerKind::Exact => {
            let v = want[0];
            let same =
                first as f64 == v && (v != 0.0 || first.is_sign_negative() == v.is_sign_negative());
            if same && rest_zero {
                0.0
            } else {
                f64::INFINITY
            }
        }
        AnswerKind::Zero => {
            if first == 0.0 && rest_zero {
                0.0
            } else {
                f64::INFINITY
            }
        }
        AnswerKind::Value => {
            if !got.iter().all(|w| w.is_finite()) {
                return f64::INFINITY;
            }
            let mut terms: Vec<f64> = got.iter().map(|w| *w as f64).collect();
            terms.extend(want.iter().map(|w| -w));
            let err = exact_sum(&terms).abs();
            (err - floor).max(0.0) / 2f64.powi(exponent(want[0]) - precision + 1)
        }
    }
}

/// One routine's row in a known-answer set.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct KnownRoutine {
    /// The routine ("add", "exp", ...).
    pub name: String,
    /// Its GLSL call on `a` and `b` (vec2 for df64, vec4 for qf128).
    pub call: String,
    /// Its cases.
    pub cases: usize,
    /// The largest bound of its cases (ulp48 or ulp96; 0: exact).
    pub bound: f64,
}

/// A known-answer set as stored: headers, then per case (in the routines' order) the words of
/// a, b and the mirror's result and the bound (f32s, hex of their bits), the exact value's three
/// f64 words (hex) and the kind (hex bytes). Hex keeps every bit through JSON.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct KnownSetFile {
    /// 2 (df64) or 4 (qf128).
    pub words: usize,
    /// The routines.
    pub routines: Vec<KnownRoutine>,
    /// 3 words + 1 f32s per case, 8 hex digits each.
    pub f32: String,
    /// 3 f64s per case, 16 hex digits each.
    pub f64: String,
    /// 1 byte per case, 2 hex digits each.
    pub kind: String,
}

/// Both sets as stored.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct KnownAnswersFile {
    /// The df64 routines.
    pub df64: KnownSetFile,
    /// The qf128 routines.
    pub qf128: KnownSetFile,
}

/// Hex digits of f32 bits.
pub fn hex_f32(values: &[f32]) -> String {
    values
        .iter()
        .map(|v| format!("{:08x}", v.to_bits()))
        .collect()
}

/// Hex digits of f64 bits.
pub fn hex_f64(values: &[f64]) -> String {
    values
        .iter()
        .map(|v| format!("{:016x}", v.to_bits()))
        .collect()
}

/// Hex digits of bytes.
pub fn hex_u8(values: &[u8]) -> String {
    values.iter().map(|v| format!("{v:02x}")).collect()
}

fn unhex(text: &str, digits: usize) -> Option<Vec<u64>> {
    if !text.len().is_multiple_of(digits) || !text.is_ascii() {
        return None;
    }
    (0..text.len() / digits)
        .map(|i| u64::from_str_radix(text.get(i * digits..(i + 1) * digits)?, 16).ok())
        .collect()
}

/// A decoded set: per case `3 words + 1` f32s, 3 f64s and a kind.
#[derive(Debug, Clone)]
pub struct KnownSet {
    /// 2 or 4.
    pub words: usize,
    /// The routines.
    pub routines: Vec<KnownRoutine>,
    f32: Vec<f32>,
    f64: Vec<f64>,
    kind: Vec<AnswerKind>,
}

impl KnownSet {
    fn decode(file: &KnownSetFile) -> Result<Self, String> {
        let f32: Vec<f32> = unhex(&file.f32, 8)
            .ok_or("f32 words")?
            .into_iter()
            .map(|b| f32::from_bits(b as u32))
            .collect();
        let f64: Vec<f64> = unhex(&file.f64, 16)
            .ok_or("f64 words")?
            .into_iter()
            .map(f64::from_bits)
            .collect();
        let kind = unhex(&file.kind, 2)
            .ok_or("kinds")?
            .into_iter()
            .map(|b| AnswerKind::from_u8(b as u8).ok_or("a kind byte"))
            .collect::<Result<Vec<_>, _>>()?;
        let n: usize = file.routines.iter().map(|r| r.cases).sum();
        let stride = 3 * file.words + 1;
        if f32.len() != n * stride || f64.len() != 3 * n || kind.len() != n {
            return Err(format!(
                "{n} cases but {} f32s, {} f64s, {} kinds",
                f32.len(),
                f64.len(),
                kind.len()
            ));
        }
        Ok(KnownSet {
            words: file.words,
            routines: file.routines.clone(),
            f32,
            f64,
            kind,
        })
    }

    /// Case `c` (counted over all routines): a, b, the mirror's words, the bound, the kind and
    /// the exact value's words.
    pub fn case(&self, c: usize) -> Option<KnownCase<'_>> {
        let w = self.words;
        let f = self.f32.get(c * (3 * w + 1)..(c + 1) * (3 * w + 1))?;
        let want = self.f64.get(3 * c..3 * c + 3)?;
        Some(KnownCase {
            a: &f[..w],
            b: &f[w..2 * w],
            mirror: &f[2 * w..3 * w],
            bound: f[3 * w] as f64,
            kind: *self.kind.get(c)?,
            want: [want[0], want[1], want[2]],
        })
    }
}

/// One case of a set.
#[derive(Debug, Clone, Copy)]
pub struct KnownCase<'a> {
    /// First operand's words.
    pub a: &'a [f32],
    /// Second operand's words.
    pub b: &'a [f32],
    /// The CPU mirror's result words.
    pub mirror: &'a [f32],
    /// The bound for this case.
    pub bound: f64,
    /// How `want` is read.
    pub kind: AnswerKind,
    /// The exact value's words.
    pub want: [f64; 3],
}

/// Both sets, decoded.
#[derive(Debug, Clone)]
pub struct KnownAnswers {
    /// The df64 routines.
    pub df64: KnownSet,
    /// The qf128 routines.
    pub qf128: KnownSet,
}

/// The embedded known answers.
pub fn known_answers() -> Result<KnownAnswers, String> {
    let file: KnownAnswersFile = serde_json::from_str(KNOWN_ANSWERS_JSON)
        .map_err(|e| format!("assets/known-answers.json: {e}"))?;
    Ok(KnownAnswers {
        df64: KnownSet::decode(&file.df64).map_err(|e| format!("known answers, df64: {e}"))?,
        qf128: KnownSet::decode(&file.qf128).map_err(|e| format!("known answers, qf128: {e}"))?,
    })
}

/// Every routine of `set` that `chosen` names, judged: case `i` of routine `k` returned
/// `got(k, i)` (its words). Shared by every check (GL, WebGPU) so each judges alike: the error
/// beyond the floor (df64: [`DF64_FLOOR`]; qf128: none) against the case's bound, and bit
/// equality with the mirror's words (any NaN equals any NaN).
pub fn judge_routines<'a>(
    set: &KnownSet,
    chosen: &dyn Fn(&str) -> bool,
    got: &dyn Fn(usize, usize) -> Option<&'a [f32]>,
) -> Result<Vec<RoutineCheck>, String> {
    let floor = if set.words == 2 { DF64_FLOOR } else { 0.0 };
    let mut rows = Vec::new();
    let mut c = 0;
    for (k, r) in set.routines.iter().enumerate() {
        if !chosen(&r.name) {
            c += r.cases;
            continue;
        }
        let mut row = RoutineCheck {
            name: r.name.clone(),
            cases: r.cases,
            bound: r.bound,
            worst: 0.0,
            failed: 0,
            mirror_matched: 0,
        };
        for i in 0..r.cases {
            let case = set.case(c).ok_or("known answers end early")?;
            let got = got(k, i).ok_or("fewer results than known answers")?;
            let e = judge_words(got, case.kind, case.want, floor);
            if e.is_nan() || e > case.bound {
                row.failed += 1;
            }
            row.worst = if e.is_nan() {
                f64::INFINITY
            } else {
                row.worst.max(e)
            };
            let same = got.len() == case.mirror.len()
                && got
                    .iter()
                    .zip(case.mirror)
                    .all(|(g, m)| g.to_bits() == m.to_bits() || g.is_nan() && m.is_nan());
            row.mirror_matched += same as usize;
            c += 1;
        }
        rows.push(row);
    }
    Ok(rows)
}

/// One routine's result.
#[derive(Debug, Clone, Serialize)]
pub struct RoutineCheck {
    /// The routine.
    pub name: String,
    /// Cases run.
    pub cases: usize,
    /// Its documented bound.
    pub bound: f64,
    /// The worst error beyond the floor (infinity: a wrong special value).
    pub worst: f64,
    /// Cases off their bound.
    pub failed: usize,
    /// Cases whose words equal the mirror's bit for bit.
    pub mirror_matched: usize,
}

/// What [`check_context`] found.
#[derive(Debug, Clone, Serialize)]
pub struct ContextCheck {
    /// The probe all green and every routine within its bound.
    pub pass: bool,
    /// Why, in a sentence.
    pub reason: String,
    /// GL_RENDERER.
    pub renderer: String,
    /// The probe shader's green pixels (of 4096).
    pub probe_green: usize,
    /// Each df64 routine checked.
    pub routines: Vec<RoutineCheck>,
}

/// The bindings the check changes, saved and put back.
struct SavedState {
    draw_fb: Option<glow::Framebuffer>,
    read_fb: Option<glow::Framebuffer>,
    program: Option<glow::Program>,
    viewport: [i32; 4],
    active_texture: i32,
    textures: [Option<glow::Texture>; 2],
    vertex_array: Option<glow::VertexArray>,
    pack_buffer: Option<glow::Buffer>,
    unpack_buffer: Option<glow::Buffer>,
    enabled: Vec<(u32, bool)>,
    pixel_store: Vec<(u32, i32)>,
}

const CAPABILITIES: [u32; 6] = [
    glow::BLEND,
    glow::CULL_FACE,
    glow::DEPTH_TEST,
    glow::SCISSOR_TEST,
    glow::STENCIL_TEST,
    glow::RASTERIZER_DISCARD,
];
const PIXEL_STORE: [(u32, i32); 4] = [
    (glow::PACK_ALIGNMENT, 4),
    (glow::UNPACK_ALIGNMENT, 4),
    (glow::PACK_ROW_LENGTH, 0),
    (glow::UNPACK_ROW_LENGTH, 0),
];

unsafe fn save_state(gl: &glow::Context) -> SavedState {
    let mut viewport = [0; 4];
    gl.get_parameter_i32_slice(glow::VIEWPORT, &mut viewport);
    let active_texture = gl.get_parameter_i32(glow::ACTIVE_TEXTURE);
    let mut textures = [None, None];
    for (unit, t) in textures.iter_mut().enumerate() {
        gl.active_texture(glow::TEXTURE0 + unit as u32);
        *t = gl.get_parameter_texture(glow::TEXTURE_BINDING_2D);
    }
    SavedState {
        draw_fb: gl.get_parameter_framebuffer(glow::DRAW_FRAMEBUFFER_BINDING),
        read_fb: gl.get_parameter_framebuffer(glow::READ_FRAMEBUFFER_BINDING),
        program: gl.get_parameter_program(glow::CURRENT_PROGRAM),
        viewport,
        active_texture,
        textures,
        vertex_array: gl.get_parameter_vertex_array(glow::VERTEX_ARRAY_BINDING),
        pack_buffer: gl.get_parameter_buffer(glow::PIXEL_PACK_BUFFER_BINDING),
        unpack_buffer: gl.get_parameter_buffer(glow::PIXEL_UNPACK_BUFFER_BINDING),
        enabled: CAPABILITIES
            .iter()
            .map(|c| (*c, gl.is_enabled(*c)))
            .collect(),
        pixel_store: PIXEL_STORE
            .iter()
            .map(|(p, _)| (*p, gl.get_parameter_i32(*p)))
            .collect(),
    }
}

unsafe fn neutral_state(gl: &glow::Context) {
    gl.bind_buffer(glow::PIXEL_PACK_BUFFER, None);
    gl.bind_buffer(glow::PIXEL_UNPACK_BUFFER, None);
    for c in CAPABILITIES {
        gl.disable(c);
    }
    for (p, v) in PIXEL_STORE {
        gl.pixel_store_i32(p, v);
    }
}

unsafe fn restore_state(gl: &glow::Context, s: &SavedState) {
    gl.bind_framebuffer(glow::DRAW_FRAMEBUFFER, s.draw_fb);
    gl.bind_framebuffer(glow::READ_FRAMEBUFFER, s.read_fb);
    gl.use_program(s.program);
    gl.viewport(s.viewport[0], s.viewport[1], s.viewport[2], s.viewport[3]);
    for (unit, t) in s.textures.iter().enumerate() {
        gl.active_texture(glow::TEXTURE0 + unit as u32);
        gl.bind_texture(glow::TEXTURE_2D, *t);
    }
    gl.active_texture(s.active_texture as u32);
    gl.bind_vertex_array(s.vertex_array);
    gl.bind_buffer(glow::PIXEL_PACK_BUFFER, s.pack_buffer);
    gl.bind_buffer(glow::PIXEL_UNPACK_BUFFER, s.unpack_buffer);
    for (c, on) in &s.enabled {
        if *on {
            gl.enable(*c);
        } else {
            gl.disable(*c);
        }
    }
    for (p, v) in &s.pixel_store {
        gl.pixel_store_i32(*p, *v);
    }
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

unsafe fn program(
    gl: &glow::Context,
    made: &mut Made,
    target: SnippetTarget,
    fragment: &str,
    what: &str,
) -> Result<glow::Program, String> {
    let vertex = format!(
        "{}\nvoid main() {{ vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2)); \
         gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0); }}\n",
        target.version_line()
    );
    let p = gl.create_program()?;
    made.programs.push(p);
    for (kind, src) in [
        (glow::VERTEX_SHADER, vertex.as_str()),
        (glow::FRAGMENT_SHADER, fragment),
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
            return Err(format!("{what} does not compile here: {log}"));
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

/// NEAREST filtering on the bound 2-D texture (float textures filter nothing else on ES).
unsafe fn nearest_filtering(gl: &glow::Context) {
    for p in [glow::TEXTURE_MIN_FILTER, glow::TEXTURE_MAG_FILTER] {
        gl.tex_parameter_i32(glow::TEXTURE_2D, p, glow::NEAREST as i32);
    }
}

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

/// The check's steps; the caller saves and restores the state around it.
unsafe fn run(
    gl: &glow::Context,
    made: &mut Made,
    options: &SnippetOptions,
    only: Option<&[&str]>,
    out: &mut ContextCheck,
) -> Result<(), String> {
    let target = options.target;
    let known = known_answers()?;
    let set = &known.df64;
    if let Some(only) = only {
        let unknown: Vec<&&str> = only
            .iter()
            .filter(|n| !set.routines.iter().any(|r| r.name == **n))
            .collect();
        if only.is_empty() || !unknown.is_empty() {
            return Err(format!(
                "routines: {unknown:?} are not df64 routines (or none given)"
            ));
        }
    }
    let vao = gl.create_vertex_array()?;
    made.vertex_arrays.push(vao);
    gl.bind_vertex_array(Some(vao));

    // The probe shader.
    let probe = probe_shader(options).map_err(|e| e.to_string())?;
    program(gl, made, target, &probe, "the probe shader")?;
    target_texture(gl, made, (64, 64), glow::RGBA8)?;
    gl.draw_arrays(glow::TRIANGLES, 0, 3);
    let mut px = vec![0u8; 64 * 64 * 4];
    gl.read_pixels(
        0,
        0,
        64,
        64,
        glow::RGBA,
        glow::UNSIGNED_BYTE,
        glow::PixelPackData::Slice(Some(&mut px)),
    );
    out.probe_green = px
        .chunks_exact(4)
        .filter(|p| p[0] == 0 && p[1] == 255 && p[2] == 0)
        .count();

    // The known answers: routine k on row k, case i in column i, one program per routine.
    let df64 = snippet(options).map_err(|e| e.to_string())?;
    let w = set.routines.iter().map(|r| r.cases).max().unwrap_or(1) as i32;
    let h = set.routines.len() as i32;
    let mut inputs = [
        vec![0f32; (w * h * 4) as usize],
        vec![0f32; (w * h * 4) as usize],
    ];
    let mut c = 0;
    for (k, r) in set.routines.iter().enumerate() {
        for i in 0..r.cases {
            let case = set.case(c).ok_or("known answers end early")?;
            let at = 4 * (k * w as usize + i);
            inputs[0][at..at + 2].copy_from_slice(case.a);
            inputs[1][at..at + 2].copy_from_slice(case.b);
            c += 1;
        }
    }
    target_texture(gl, made, (w, h), glow::RGBA32F)?;
    for (unit, data) in inputs.iter().enumerate() {
        let t = gl.create_texture()?;
        made.textures.push(t);
        gl.active_texture(glow::TEXTURE0 + unit as u32);
        gl.bind_texture(glow::TEXTURE_2D, Some(t));
        gl.tex_image_2d(
            glow::TEXTURE_2D,
            0,
            glow::RGBA32F as i32,
            w,
            h,
            0,
            glow::RGBA,
            glow::FLOAT,
            glow::PixelUnpackData::Slice(Some(bytemuck::cast_slice(data))),
        );
        nearest_filtering(gl);
    }
    let head =
        format!(
        "{}\n{}{df64}\nuniform highp sampler2D u_df64gl_a;\nuniform highp sampler2D u_df64gl_b;\n\
         out vec4 o_df64gl;\nvoid main() {{\n  ivec2 p = ivec2(gl_FragCoord.xy);\n  \
         vec2 a = texelFetch(u_df64gl_a, p, 0).xy;\n  vec2 b = texelFetch(u_df64gl_b, p, 0).xy;\n",
        target.version_line(),
        if target.is_es() { "precision highp float;\n" } else { "" }
    );
    let chosen = |name: &str| only.is_none_or(|o| o.contains(&name));
    for (k, r) in set.routines.iter().enumerate() {
        if !chosen(&r.name) {
            continue;
        }
        let src = format!("{head}  o_df64gl = vec4({}, 0.0, 0.0);\n}}\n", r.call);
        let p = program(
            gl,
            made,
            target,
            &src,
            &format!("the {} known-answer shader", r.name),
        )?;
        for (unit, name) in ["u_df64gl_a", "u_df64gl_b"].iter().enumerate() {
            let loc = gl.get_uniform_location(p, name);
            gl.uniform_1_i32(loc.as_ref(), unit as i32);
        }
        gl.viewport(0, k as i32, w, 1);
        gl.draw_arrays(glow::TRIANGLES, 0, 3);
    }
    let mut result = vec![0f32; (w * h * 4) as usize];
    gl.read_pixels(
        0,
        0,
        w,
        h,
        glow::RGBA,
        glow::FLOAT,
        glow::PixelPackData::Slice(Some(bytemuck::cast_slice_mut(&mut result))),
    );
    let row_of = |k: usize, i: usize| {
        let at = 4 * (k * w as usize + i);
        result.get(at..at + 2)
    };
    out.routines = judge_routines(set, &chosen, &row_of)?;
    if gl.get_error() != glow::NO_ERROR {
        return Err("a GL error during the check".into());
    }
    Ok(())
}

/// Proves the export `options` describes (what `df64gl glsl` prints for them; use
/// `SnippetOptions::new(target)` for the one you paste) on the caller's current context: the
/// probe shader and every df64 routine (or those named in `only`) on the known answers, in its
/// own framebuffers and textures. The context's bindings are as they were afterwards. Without
/// `options.functions`, `only` must leave the functions out (they are not in the export).
///
/// # Safety
/// `gl` must be current on this thread, as for every `glow` call.
pub unsafe fn check_context(
    gl: &glow::Context,
    options: &SnippetOptions,
    only: Option<&[&str]>,
) -> ContextCheck {
    let mut out = ContextCheck {
        pass: false,
        reason: String::new(),
        renderer: gl.get_parameter_string(glow::RENDERER),
        probe_green: 0,
        routines: Vec::new(),
    };
    let saved = save_state(gl);
    neutral_state(gl);
    let mut made = Made::default();
    let ran = run(gl, &mut made, options, only, &mut out);
    made.free(gl);
    restore_state(gl, &saved);
    match ran {
        Err(e) => out.reason = e,
        Ok(()) => {
            let off: Vec<String> = out
                .routines
                .iter()
                .filter(|r| r.failed > 0)
                .map(|r| {
                    format!(
                        "{} {:.3} (bound {}, {} of {})",
                        r.name, r.worst, r.bound, r.failed, r.cases
                    )
                })
                .collect();
            out.pass = out.probe_green == 64 * 64 && off.is_empty();
            out.reason = if out.probe_green != 64 * 64 {
                format!(
                    "the probe shader is green on {} of 4096 pixels: this compiler rewrites df64's error-free transforms",
                    out.probe_green
                )
            } else if !off.is_empty() {
                format!(
                    "df64 routines off their bounds on {}: {}",
                    out.renderer,
                    off.join(", ")
                )
            } else {
                format!("df64 exact on {}", out.renderer)
            };
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_sum_and_judge_read_each_kind() {
        assert_eq!(exact_sum(&[1.0, 1e-30, -1.0]), 1e-30);
        let one = [1.0, 0.0, 0.0];
        assert_eq!(judge_words(&[1.0, 0.0], AnswerKind::Value, one, 0.0), 0.0);
        assert_eq!(
            judge_words(&[1.0, 2f32.powi(-47)], AnswerKind::Value, one, 0.0),
            1.0
        );
        assert!(judge_words(&[f32::NAN, 0.0], AnswerKind::Value, one, 0.0).is_infinite());
        assert_eq!(
            judge_words(&[f32::NAN, 0.0], AnswerKind::Nan, one, 0.0),
            0.0
        );
        let neg_zero = [-0.0, 0.0, 0.0];
        assert_eq!(
            judge_words(&[-0.0, 0.0], AnswerKind::Exact, neg_zero, 0.0),
            0.0
        );
        assert!(judge_words(&[0.0, 0.0], AnswerKind::Exact, neg_zero, 0.0).is_infinite());
        assert_eq!(
            judge_words(&[0.0, -0.0], AnswerKind::Zero, [0.0; 3], 0.0),
            0.0
        );
        let q = judge_words(
            &[1.0, 2f32.powi(-95), 0.0, 0.0],
            AnswerKind::Value,
            one,
            0.0,
        );
        assert_eq!(q, 1.0);
        // The floor: 2^-126 absolute is forgiven, not more.
        let tiny = [2f64.powi(-100), 0.0, 0.0];
        let got = [2f32.powi(-100), 2f32.powi(-127)];
        assert_eq!(judge_words(&got, AnswerKind::Value, tiny, DF64_FLOOR), 0.0);
    }

    #[test]
    fn embedded_known_answers_decode_and_hex_round_trips() {
        let k = known_answers().unwrap();
        assert_eq!(k.df64.words, 2);
        assert_eq!(k.qf128.words, 4);
        let n: usize = k.df64.routines.iter().map(|r| r.cases).sum();
        assert!(k.df64.case(n - 1).is_some() && k.df64.case(n).is_none());
        let xs = [1.5f32, -0.0, f32::NAN, f32::INFINITY];
        let back: Vec<u32> = unhex(&hex_f32(&xs), 8)
            .unwrap()
            .into_iter()
            .map(|b| b as u32)
            .collect();
        assert_eq!(back, xs.map(f32::to_bits).to_vec());
        assert!(unhex("abc", 2).is_none() && unhex("zz", 2).is_none());
    }
}
