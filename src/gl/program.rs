//! Programs: a resolved GLSL module ([`super::library`]) linked with a full-screen triangle,
//! with uniforms looked up once and a misspelt uniform name reported as an error.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use glow::HasContext;

use super::context::{GlContext, Shared};
use super::error::{GlError, GlResult};
use super::library::{GlslLibrary, ResolvedSource};

const FULLSCREEN_VERTEX: &str = "
// One triangle that covers the viewport: (-1,-1), (3,-1), (-1,3).
void main() {
    vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}
";

/// A linked full-screen-triangle program whose fragment stage is a resolved GLSL module.
pub struct Program {
    shared: Rc<Shared>,
    pub(crate) id: glow::Program,
    name: String,
    source: ResolvedSource,
    /// Each name looked up once: its location, or `None` with whether the source declares it.
    uniforms: RefCell<HashMap<String, Lookup>>,
}

impl Program {
    /// Builds a program whose fragment shader is `entry` from `library`, with `defines`.
    pub fn build(
        ctx: &GlContext,
        library: &GlslLibrary,
        entry: &str,
        defines: &[(String, String)],
    ) -> GlResult<Self> {
        let version = ctx.info().glsl_number;
        let source = library.resolve(entry, version, defines)?;
        let vertex_src = format!("#version {version} core\n{FULLSCREEN_VERTEX}");
        Self::link(ctx, entry, &vertex_src, source)
    }

    /// A program from complete shader texts of someone else's (their own `#version` lines,
    /// GLSL ES for a GLES context), as a user's renderer would build it; the fragment shader
    /// draws, the vertex shader must cover the viewport. Compile and link errors name `name`;
    /// nothing is left behind on an error.
    pub fn from_sources(
        ctx: &GlContext,
        name: &str,
        vertex: &str,
        fragment: &str,
    ) -> GlResult<Self> {
        let source = ResolvedSource {
            text: fragment.to_string(),
            files: vec![name.to_string()],
        };
        Self::link(ctx, name, vertex, source)
    }

    fn link(
        ctx: &GlContext,
        name: &str,
        vertex_src: &str,
        source: ResolvedSource,
    ) -> GlResult<Self> {
        let gl = ctx.gl();
        unsafe {
            let vs =
                compile(gl, glow::VERTEX_SHADER, vertex_src).map_err(|log| GlError::Compile {
                    stage: "vertex",
                    program: name.to_string(),
                    log,
                })?;
            let fs = match compile(gl, glow::FRAGMENT_SHADER, &source.text) {
                Ok(fs) => fs,
                Err(log) => {
                    gl.delete_shader(vs);
                    return Err(GlError::Compile {
                        stage: "fragment",
                        program: name.to_string(),
                        log: source.map_log(&log),
                    });
                }
            };
            let id = match gl.create_program() {
                Ok(id) => id,
                Err(e) => {
                    gl.delete_shader(vs);
                    gl.delete_shader(fs);
                    return Err(GlError::Create(e));
                }
            };
            gl.attach_shader(id, vs);
            gl.attach_shader(id, fs);
            gl.link_program(id);
            let ok = gl.get_program_link_status(id);
            let log = gl.get_program_info_log(id);
            gl.detach_shader(id, vs);
            gl.detach_shader(id, fs);
            gl.delete_shader(vs);
            gl.delete_shader(fs);
            if !ok {
                gl.delete_program(id);
                return Err(GlError::Link {
                    program: name.to_string(),
                    log: source.map_log(&log),
                });
            }
            // The 0.1.0 statement barrier (forced in tests only, and in its old exports)
            // multiplies by this uniform; a uniform keeps its value in the program, so it is
            // set once here.
            if let Some(loc) = gl.get_uniform_location(id, "u_df64_one") {
                gl.use_program(Some(id));
                gl.uniform_1_f32(Some(&loc), 1.0);
                gl.use_program(None);
            }
            // From here the program is owned: dropped (deleted) on any later error.
            let program = Program {
                shared: ctx.shared.clone(),
                id,
                name: name.to_string(),
                source,
                uniforms: RefCell::new(HashMap::new()),
            };
            ctx.check("glLinkProgram")?;
            Ok(program)
        }
    }

    /// The entry module's name, for messages.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The preprocessed fragment source as handed to the driver.
    pub fn source(&self) -> &ResolvedSource {
        &self.source
    }

    /// The location of uniform `name`; `None` (or an error when `required`) if the program
    /// has no such active uniform.
    pub(crate) fn uniform(
        &self,
        ctx: &GlContext,
        name: &str,
        required: bool,
    ) -> GlResult<Option<glow::UniformLocation>> {
        let cached = self.uniforms.borrow().get(name).cloned();
        let lookup = match cached {
            Some(l) => l,
            None => {
                // The source is scanned once per name, not on every draw.
                let l = match unsafe { ctx.gl().get_uniform_location(self.id, name) } {
                    Some(loc) => Lookup::Active(loc),
                    None if crate::glsl_text::names::declares_uniform(&self.source.text, name) => {
                        Lookup::Dropped
                    }
                    None => Lookup::Undeclared,
                };
                self.uniforms
                    .borrow_mut()
                    .insert(name.to_string(), l.clone());
                l
            }
        };
        match lookup {
            Lookup::Active(loc) => Ok(Some(loc)),
            Lookup::Dropped if !required => Ok(None),
            Lookup::Dropped | Lookup::Undeclared => Err(self.no_uniform(name)),
        }
    }

    fn no_uniform(&self, name: &str) -> GlError {
        GlError::NoUniform {
            program: self.name.clone(),
            name: name.to_string(),
        }
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        unsafe { self.shared.gl.delete_program(self.id) };
    }
}

/// What a uniform name came to in a program.
#[derive(Clone, Debug)]
enum Lookup {
    /// Active: its location.
    Active(glow::UniformLocation),
    /// Declared, but the driver dropped it (unused).
    Dropped,
    /// Not declared at all: a misspelling.
    Undeclared,
}

unsafe fn compile(gl: &glow::Context, stage: u32, src: &str) -> Result<glow::Shader, String> {
    let sh = gl.create_shader(stage)?;
    gl.shader_source(sh, src);
    gl.compile_shader(sh);
    if gl.get_shader_compile_status(sh) {
        Ok(sh)
    } else {
        let log = gl.get_shader_info_log(sh);
        gl.delete_shader(sh);
        Err(log)
    }
}
