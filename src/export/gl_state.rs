//! The caller's GL state that the check's draws touch, saved before them and put back after
//! (the check runs on the caller's own context, between its frames), and the neutral state the
//! draws need: nothing the caller enabled may clip, blend or discard, no sampler object the
//! caller bound may filter the float textures (a sampler's default mipmapped filter makes them
//! incomplete, and `texelFetch` then reads zeros), no pixel-store setting may reorder what is
//! read back, and the caller's transform feedback is paused while the check draws. The caller's
//! pending GL errors are taken before the check and set again after it, so that `glGetError`
//! afterwards tells the caller what it would have told without the check, and the check sees
//! only its own errors. The npm module's `js/gl-state.js` does the same for WebGL 2.
//!
//! From the GL state tables, what a draw of points and a triangle into a framebuffer with
//! `texelFetch` reads, and so what is set here: the framebuffers, program, viewport, vertex
//! array and array buffer, the capabilities below (and, on desktop GL, the clip distances and
//! the polygon mode), the color mask, the texture and sampler bindings of the units used, pixel
//! pack and unpack state, and transform feedback. Depth and stencil functions, blend equations,
//! polygon offset, line width, scissor box and sample coverage values act only through the
//! capabilities disabled here; uniform buffers, copy buffers and queries are not touched.

use std::num::NonZeroU32;

use glow::HasContext;

/// The texture units the check binds.
pub(crate) const UNITS: u32 = 2;

const CAPABILITIES: [u32; 10] = [
    glow::BLEND,
    glow::CULL_FACE,
    glow::DEPTH_TEST,
    glow::SCISSOR_TEST,
    glow::STENCIL_TEST,
    glow::RASTERIZER_DISCARD,
    glow::SAMPLE_COVERAGE,
    glow::SAMPLE_ALPHA_TO_COVERAGE,
    glow::DITHER,
    glow::POLYGON_OFFSET_FILL,
];

/// Pixel-store parameters and the values the check's reads and uploads need, on every GL.
const PIXEL_STORE: [(u32, i32); 10] = [
    (glow::PACK_ALIGNMENT, 4),
    (glow::UNPACK_ALIGNMENT, 4),
    (glow::PACK_ROW_LENGTH, 0),
    (glow::PACK_SKIP_ROWS, 0),
    (glow::PACK_SKIP_PIXELS, 0),
    (glow::UNPACK_ROW_LENGTH, 0),
    (glow::UNPACK_IMAGE_HEIGHT, 0),
    (glow::UNPACK_SKIP_ROWS, 0),
    (glow::UNPACK_SKIP_PIXELS, 0),
    (glow::UNPACK_SKIP_IMAGES, 0),
];

/// Desktop GL's further pixel-store parameters: swapped bytes would scramble every float read.
const DESKTOP_PIXEL_STORE: [(u32, i32); 6] = [
    (glow::PACK_SWAP_BYTES, 0),
    (glow::PACK_LSB_FIRST, 0),
    (glow::PACK_IMAGE_HEIGHT, 0),
    (glow::PACK_SKIP_IMAGES, 0),
    (glow::UNPACK_SWAP_BYTES, 0),
    (glow::UNPACK_LSB_FIRST, 0),
];

/// The bindings and settings the check changes, saved and put back.
pub(crate) struct SavedState {
    draw_fb: Option<glow::Framebuffer>,
    read_fb: Option<glow::Framebuffer>,
    program: Option<glow::Program>,
    viewport: [i32; 4],
    active_texture: i32,
    /// Per unit: the 2-D and array texture bindings and the sampler object.
    units: Vec<(
        Option<glow::Texture>,
        Option<glow::Texture>,
        Option<glow::Sampler>,
    )>,
    vertex_array: Option<glow::VertexArray>,
    array_buffer: Option<glow::Buffer>,
    pack_buffer: Option<glow::Buffer>,
    unpack_buffer: Option<glow::Buffer>,
    enabled: Vec<(u32, bool)>,
    color_mask: [bool; 4],
    pixel_store: Vec<(u32, i32)>,
    /// Desktop GL: the polygon mode (front and back are one setting in the core profile).
    polygon_mode: Option<i32>,
    /// An active, unpaused transform feedback, paused for the check.
    feedback: bool,
}

fn desktop(gl: &glow::Context) -> bool {
    !gl.version().is_embedded
}

/// The capabilities the check sets off: [`CAPABILITIES`] and, on desktop GL, every clip
/// distance (the check's vertex shaders write none, so an enabled one would clip at random).
fn capabilities(gl: &glow::Context) -> Vec<u32> {
    let mut c = CAPABILITIES.to_vec();
    if desktop(gl) {
        let clip = unsafe { gl.get_parameter_i32(glow::MAX_CLIP_DISTANCES) }.clamp(0, 32) as u32;
        c.extend((0..clip).map(|i| glow::CLIP_DISTANCE0 + i));
    }
    c
}

fn pixel_store(gl: &glow::Context) -> Vec<(u32, i32)> {
    let mut p = PIXEL_STORE.to_vec();
    if desktop(gl) {
        p.extend(DESKTOP_PIXEL_STORE);
    }
    p
}

impl SavedState {
    /// Saves what the check changes (and pauses an active transform feedback).
    ///
    /// # Safety
    /// `gl` must be current on this thread.
    pub(crate) unsafe fn save(gl: &glow::Context) -> SavedState {
        let mut viewport = [0; 4];
        gl.get_parameter_i32_slice(glow::VIEWPORT, &mut viewport);
        let active_texture = gl.get_parameter_i32(glow::ACTIVE_TEXTURE);
        let mut units = Vec::new();
        for unit in 0..UNITS {
            gl.active_texture(glow::TEXTURE0 + unit);
            units.push((
                gl.get_parameter_texture(glow::TEXTURE_BINDING_2D),
                gl.get_parameter_texture(glow::TEXTURE_BINDING_2D_ARRAY),
                gl.get_parameter_sampler(glow::SAMPLER_BINDING),
            ));
        }
        gl.active_texture(active_texture as u32);
        // An active transform feedback that is not paused would take the check's draws (and
        // refuse its glUseProgram): it is paused for them and resumed after.
        let feedback = gl.get_parameter_bool(glow::TRANSFORM_FEEDBACK_ACTIVE)
            && !gl.get_parameter_bool(glow::TRANSFORM_FEEDBACK_PAUSED);
        if feedback {
            gl.pause_transform_feedback();
        }
        let polygon_mode = desktop(gl).then(|| {
            let mut mode = [glow::FILL as i32; 2];
            gl.get_parameter_i32_slice(glow::POLYGON_MODE, &mut mode);
            mode[0]
        });
        SavedState {
            draw_fb: gl.get_parameter_framebuffer(glow::DRAW_FRAMEBUFFER_BINDING),
            read_fb: gl.get_parameter_framebuffer(glow::READ_FRAMEBUFFER_BINDING),
            program: gl.get_parameter_program(glow::CURRENT_PROGRAM),
            viewport,
            active_texture,
            units,
            vertex_array: gl.get_parameter_vertex_array(glow::VERTEX_ARRAY_BINDING),
            array_buffer: gl.get_parameter_buffer(glow::ARRAY_BUFFER_BINDING),
            pack_buffer: gl.get_parameter_buffer(glow::PIXEL_PACK_BUFFER_BINDING),
            unpack_buffer: gl.get_parameter_buffer(glow::PIXEL_UNPACK_BUFFER_BINDING),
            enabled: capabilities(gl)
                .into_iter()
                .chain(desktop(gl).then_some(glow::PROGRAM_POINT_SIZE))
                .map(|c| (c, gl.is_enabled(c)))
                .collect(),
            color_mask: gl.get_parameter_bool_array::<4>(glow::COLOR_WRITEMASK),
            pixel_store: pixel_store(gl)
                .into_iter()
                .map(|(p, _)| (p, gl.get_parameter_i32(p)))
                .collect(),
            polygon_mode,
            feedback,
        }
    }

    /// Puts back what [`save`](Self::save) saw.
    ///
    /// # Safety
    /// `gl` must be current on this thread.
    pub(crate) unsafe fn restore(&self, gl: &glow::Context) {
        gl.bind_framebuffer(glow::DRAW_FRAMEBUFFER, self.draw_fb);
        gl.bind_framebuffer(glow::READ_FRAMEBUFFER, self.read_fb);
        gl.use_program(self.program);
        let [x, y, w, h] = self.viewport;
        gl.viewport(x, y, w, h);
        for (unit, (t2d, tarray, sampler)) in (0u32..).zip(&self.units) {
            gl.active_texture(glow::TEXTURE0 + unit);
            gl.bind_texture(glow::TEXTURE_2D, *t2d);
            gl.bind_texture(glow::TEXTURE_2D_ARRAY, *tarray);
            gl.bind_sampler(unit, *sampler);
        }
        gl.active_texture(self.active_texture as u32);
        gl.bind_vertex_array(self.vertex_array);
        gl.bind_buffer(glow::ARRAY_BUFFER, self.array_buffer);
        gl.bind_buffer(glow::PIXEL_PACK_BUFFER, self.pack_buffer);
        gl.bind_buffer(glow::PIXEL_UNPACK_BUFFER, self.unpack_buffer);
        for (c, on) in &self.enabled {
            if *on {
                gl.enable(*c);
            } else {
                gl.disable(*c);
            }
        }
        let [r, g, b, a] = self.color_mask;
        gl.color_mask(r, g, b, a);
        for (p, v) in &self.pixel_store {
            gl.pixel_store_i32(*p, *v);
        }
        if let Some(mode) = self.polygon_mode {
            gl.polygon_mode(glow::FRONT_AND_BACK, mode as u32);
        }
        // After the program: resuming checks that the feedback's program is current again.
        if self.feedback {
            gl.resume_transform_feedback();
        }
    }
}

/// The state the check's draws need (see the module's text). On desktop GL, points take their
/// size from the vertex shader (PROGRAM_POINT_SIZE on, always so on ES), not from the caller's
/// glPointSize.
///
/// # Safety
/// `gl` must be current on this thread.
pub(crate) unsafe fn neutral_state(gl: &glow::Context) {
    for unit in 0..UNITS {
        gl.bind_sampler(unit, None);
    }
    gl.bind_buffer(glow::PIXEL_PACK_BUFFER, None);
    gl.bind_buffer(glow::PIXEL_UNPACK_BUFFER, None);
    for c in capabilities(gl) {
        gl.disable(c);
    }
    gl.color_mask(true, true, true, true);
    for (p, v) in pixel_store(gl) {
        gl.pixel_store_i32(p, v);
    }
    if desktop(gl) {
        gl.polygon_mode(glow::FRONT_AND_BACK, glow::FILL);
        gl.enable(glow::PROGRAM_POINT_SIZE);
    }
}

/// The most error flags a context holds at once (one per code; a few drivers keep a second
/// list beneath, as WebGL does).
const MAX_FLAGS: usize = 16;

/// Every error flag set on the context now, read (and so cleared) one by one: each code once.
///
/// # Safety
/// `gl` must be current on this thread.
pub(crate) unsafe fn take_errors(gl: &glow::Context) -> Vec<u32> {
    let mut codes = Vec::new();
    for _ in 0..MAX_FLAGS {
        let e = gl.get_error();
        if e == glow::NO_ERROR {
            break;
        }
        if !codes.contains(&e) {
            codes.push(e);
        }
    }
    codes
}

/// Why the check cannot run with these errors pending: a code that no call sets alone (out of
/// memory leaves the context undefined; a lost context or a debug-stack error cannot be made
/// again here). `None` when every code can be put back.
pub(crate) fn refusal(codes: &[u32]) -> Option<String> {
    let fixed = [
        glow::INVALID_ENUM,
        glow::INVALID_VALUE,
        glow::INVALID_OPERATION,
        glow::INVALID_FRAMEBUFFER_OPERATION,
    ];
    codes.iter().find(|c| !fixed.contains(c)).map(|c| {
        format!(
            "GL error 0x{c:04x} ({}) was pending before the check (read here, and no call sets \
             it again alone): the context's state may be undefined; clear it with glGetError \
             before the check, or check on a new context",
            crate::gl::gl_error_name(*c)
        )
    })
}

/// Sets the error flags `codes` again (from [`take_errors`], before the check), each through
/// a call that only sets that flag.
///
/// # Safety
/// `gl` must be current on this thread.
pub(crate) unsafe fn put_back_errors(gl: &glow::Context, codes: &[u32]) {
    for code in codes {
        match *code {
            glow::INVALID_ENUM => {
                gl.is_enabled(0);
            }
            glow::INVALID_VALUE => {
                let max = gl.get_parameter_i32(glow::MAX_VERTEX_ATTRIBS).max(0) as u32;
                gl.vertex_attrib_4_f32(max, 0.0, 0.0, 0.0, 1.0);
            }
            glow::INVALID_OPERATION => {
                // A vertex array name never generated (names are handed out from 1 up), then
                // the caller's binding again.
                let bound = gl.get_parameter_vertex_array(glow::VERTEX_ARRAY_BINDING);
                if let Some(name) = NonZeroU32::new(u32::MAX - 1) {
                    gl.bind_vertex_array(Some(glow::NativeVertexArray(name)));
                }
                gl.bind_vertex_array(bound);
            }
            glow::INVALID_FRAMEBUFFER_OPERATION => {
                // A read from a framebuffer with no attachment, the caller's bindings kept.
                let read = gl.get_parameter_framebuffer(glow::READ_FRAMEBUFFER_BINDING);
                let pack = gl.get_parameter_buffer(glow::PIXEL_PACK_BUFFER_BINDING);
                if let Ok(fb) = gl.create_framebuffer() {
                    gl.bind_buffer(glow::PIXEL_PACK_BUFFER, None);
                    gl.bind_framebuffer(glow::READ_FRAMEBUFFER, Some(fb));
                    let mut pixel = [0u8; 4];
                    gl.read_pixels(
                        0,
                        0,
                        1,
                        1,
                        glow::RGBA,
                        glow::UNSIGNED_BYTE,
                        glow::PixelPackData::Slice(Some(&mut pixel)),
                    );
                    gl.bind_framebuffer(glow::READ_FRAMEBUFFER, read);
                    gl.bind_buffer(glow::PIXEL_PACK_BUFFER, pack);
                    gl.delete_framebuffer(fb);
                }
            }
            _ => {}
        }
    }
}

/// Runs `work` on the caller's context as if it were not there: the caller's pending errors
/// taken (refused where one cannot be set again), its state saved and the neutral state set,
/// then after `work` (whatever it returns) the check's own errors drained, the state put back
/// and the caller's errors set again.
///
/// # Safety
/// `gl` must be current on this thread.
pub(crate) unsafe fn on_callers_context<T>(
    gl: &glow::Context,
    work: impl FnOnce() -> Result<T, String>,
) -> Result<T, String> {
    let pending = take_errors(gl);
    if let Some(why) = refusal(&pending) {
        put_back_errors(gl, &pending);
        return Err(why);
    }
    let saved = SavedState::save(gl);
    neutral_state(gl);
    let result = work();
    take_errors(gl);
    saved.restore(gl);
    take_errors(gl);
    put_back_errors(gl, &pending);
    result
}
