//! Passes: bind a program, its input textures and uniforms, draw one full-screen triangle into a
//! framebuffer. Plus the ping-pong pair and GPU timing.

use std::time::{Duration, Instant};

use glow::HasContext;

use super::context::GlContext;
use super::error::GlResult;
use super::framebuffer::Framebuffer;
use super::program::Program;
use super::texture::Texture;

/// A uniform value.
#[derive(Debug, Clone, Copy)]
pub enum Uniform {
    /// `int`.
    I32(i32),
    /// `float`.
    F32(f32),
    /// `ivec2`.
    IVec2([i32; 2]),
    /// `vec2`.
    Vec2([f32; 2]),
    /// `vec4`.
    Vec4([f32; 4]),
}

/// One draw of `program` over every texel of a target framebuffer.
pub struct Pass<'a> {
    program: &'a Program,
    inputs: Vec<(&'a str, &'a Texture, bool)>,
    uniforms: Vec<(&'a str, Uniform, bool)>,
}

impl<'a> Pass<'a> {
    /// A draw of `program` with no inputs or uniforms yet.
    pub fn new(program: &'a Program) -> Self {
        Pass {
            program,
            inputs: Vec::new(),
            uniforms: Vec::new(),
        }
    }

    /// Binds `texture` to the sampler uniform `name`; an error if the program has none.
    pub fn input(mut self, name: &'a str, texture: &'a Texture) -> Self {
        self.inputs.push((name, texture, true));
        self
    }

    /// Like [`input`](Self::input), but skipped when the program does not use `name` (a
    /// generic kernel whose op ignores an operand).
    pub(crate) fn optional_input(mut self, name: &'a str, texture: &'a Texture) -> Self {
        self.inputs.push((name, texture, false));
        self
    }

    /// Sets a uniform the program declares (an error at draw time if it does not: a misspelt name).
    pub fn uniform(mut self, name: &'a str, value: Uniform) -> Self {
        self.uniforms.push((name, value, true));
        self
    }

    /// A uniform that the program declares but may have optimised away; a name the program
    /// does not declare at all (a misspelling) is still an error.
    pub fn optional_uniform(mut self, name: &'a str, value: Uniform) -> Self {
        self.uniforms.push((name, value, false));
        self
    }

    /// Draws into `target`.
    pub fn run(&self, ctx: &GlContext, target: &Framebuffer) -> GlResult<()> {
        target.bind(ctx);
        self.draw(ctx)
    }

    /// Draws into whatever framebuffer is bound (a window's default framebuffer, say).
    pub fn draw(&self, ctx: &GlContext) -> GlResult<()> {
        let gl = ctx.gl();
        unsafe {
            gl.use_program(Some(self.program.id));
            for (unit, (name, tex, required)) in self.inputs.iter().enumerate() {
                let Some(loc) = self.program.uniform(ctx, name, *required)? else {
                    continue;
                };
                gl.active_texture(glow::TEXTURE0 + unit as u32);
                gl.bind_texture(tex.target, Some(tex.id));
                gl.uniform_1_i32(Some(&loc), unit as i32);
            }
            for (name, value, required) in &self.uniforms {
                let Some(loc) = self.program.uniform(ctx, name, *required)? else {
                    continue;
                };
                let l = Some(&loc);
                match *value {
                    Uniform::I32(v) => gl.uniform_1_i32(l, v),
                    Uniform::F32(v) => gl.uniform_1_f32(l, v),
                    Uniform::IVec2(v) => gl.uniform_2_i32(l, v[0], v[1]),
                    Uniform::Vec2(v) => gl.uniform_2_f32(l, v[0], v[1]),
                    Uniform::Vec4(v) => gl.uniform_4_f32(l, v[0], v[1], v[2], v[3]),
                }
            }
            gl.bind_vertex_array(ctx.vao());
            gl.draw_arrays(glow::TRIANGLES, 0, 3);
            gl.bind_vertex_array(None);
            for (unit, (_, tex, _)) in self.inputs.iter().enumerate() {
                gl.active_texture(glow::TEXTURE0 + unit as u32);
                gl.bind_texture(tex.target, None);
            }
            gl.active_texture(glow::TEXTURE0);
        }
        ctx.check(&format!("glDrawArrays (program '{}')", self.program.name()))
    }
}

/// Two same-sized textures with a framebuffer each: read one, write the other, swap.
pub struct PingPong {
    textures: [Texture; 2],
    framebuffers: [Framebuffer; 2],
    front: usize,
}

impl PingPong {
    /// Two RGBA32F textures of this size, each with its framebuffer.
    pub fn new(ctx: &GlContext, width: u32, height: u32) -> GlResult<Self> {
        let a = Texture::new(ctx, width, height)?;
        let b = Texture::new(ctx, width, height)?;
        let fa = Framebuffer::new(ctx, &[&a])?;
        let fb = Framebuffer::new(ctx, &[&b])?;
        Ok(PingPong {
            textures: [a, b],
            framebuffers: [fa, fb],
            front: 0,
        })
    }

    /// The texture holding the current data.
    pub fn front(&self) -> &Texture {
        &self.textures[self.front]
    }

    /// The framebuffer the next pass writes.
    pub fn back_framebuffer(&self) -> &Framebuffer {
        &self.framebuffers[1 - self.front]
    }

    /// Makes the last written texture the front.
    pub fn swap(&mut self) {
        self.front = 1 - self.front;
    }

    /// The framebuffer of the front texture (the last one written).
    pub fn front_framebuffer(&self) -> &Framebuffer {
        &self.framebuffers[self.front]
    }
}

/// Wall-clock time of a block of GL work and, when the driver's timer queries measure draws
/// (not on llvmpipe: see `GlInfo::timer_measures_draws`), GPU time.
#[derive(Debug, Clone, Copy)]
pub struct Timing {
    /// Wall-clock time, with the GL work finished.
    pub wall: Duration,
    /// GPU time (GL_TIME_ELAPSED) where the driver measures draws.
    pub gpu: Option<Duration>,
}

impl Timing {
    /// GPU time when measured, else wall-clock time.
    pub fn best(&self) -> Duration {
        self.gpu.unwrap_or(self.wall)
    }
}

/// Runs `work`, waits for the GPU to finish, and reports wall and GL_TIME_ELAPSED time.
pub fn timed<T, E: From<super::error::GlError>>(
    ctx: &GlContext,
    work: impl FnOnce() -> Result<T, E>,
) -> Result<(T, Timing), E> {
    let gl = ctx.gl();
    let query = if ctx.info().timer_measures_draws() {
        unsafe { gl.create_query().ok() }
    } else {
        None
    };
    ctx.finish_gpu();
    let start = Instant::now();
    if let Some(q) = query {
        unsafe { gl.begin_query(glow::TIME_ELAPSED, q) };
    }
    let result = work();
    if query.is_some() {
        unsafe { gl.end_query(glow::TIME_ELAPSED) };
    }
    ctx.finish_gpu();
    let wall = start.elapsed();
    let gpu = query.map(|q| unsafe {
        let mut ns: u64 = 0;
        gl.get_query_parameter_u64_with_offset(q, glow::QUERY_RESULT, &mut ns as *mut u64 as usize);
        gl.delete_query(q);
        Duration::from_nanos(ns)
    });
    let value = result?;
    ctx.check("GL_TIME_ELAPSED query")?;
    Ok((
        value,
        Timing {
            wall,
            // The work lies between two glFinish calls, so GPU time cannot exceed the wall time
            // between them; a larger value is a driver error and the wall clock is kept.
            gpu: gpu.filter(|d| !d.is_zero() && *d <= wall + wall / 20 + Duration::from_millis(1)),
        },
    ))
}
