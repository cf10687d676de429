//! The GL layer's error type. Every message says what failed and what the user can do about it.

use thiserror::Error;

/// What went wrong in the GL layer.
#[derive(Debug, Error)]
pub enum GlError {
    /// The EGL library could not be loaded (the loader's message).
    #[error(
        "could not load EGL ({0}). Install the EGL loader and a driver: on Debian/Ubuntu \
         `apt-get install libegl1 libegl-mesa0 libgl1-mesa-dri` (Mesa llvmpipe, software) \
         or the NVIDIA driver for a GPU"
    )]
    NoEgl(String),

    /// EGL has no device to render on.
    #[error(
        "no EGL device found ({0}). df64gl renders headless through EGL_EXT_platform_device: \
         install Mesa (`apt-get install libegl-mesa0 libgl1-mesa-dri`) or the NVIDIA driver"
    )]
    NoDevice(String),

    /// `--device` named no device there is.
    #[error("EGL device '{wanted}' not found; available devices: {available}. Pass --device <index|name> or set DF64GL_DEVICE")]
    DeviceNotFound {
        /// What `--device` asked for.
        wanted: String,
        /// The devices there are.
        available: String,
    },

    /// The driver refused an OpenGL context.
    #[error("could not create an OpenGL context on {device}: {detail}. df64gl needs OpenGL 3.3 core or newer")]
    Context {
        /// The device.
        device: String,
        /// The driver's reason.
        detail: String,
    },

    /// The context is older than OpenGL 3.3 core.
    #[error("OpenGL {found} is too old: df64gl needs 3.3 core or newer (renderer: {renderer})")]
    VersionTooLow {
        /// The version the driver gave.
        found: String,
        /// The renderer string.
        renderer: String,
    },

    /// No window could be opened (no display).
    #[error("could not open a window: {0}. A window needs an X11 or Wayland display (for tests: run Xvfb and set DISPLAY)")]
    Window(String),

    /// A GL call raised an error.
    #[error("GL error {code_name} (0x{code:04x}) after {call}")]
    Call {
        /// The call (or step) after which glGetError reported.
        call: String,
        /// The GL error code.
        code: u32,
        /// Its name (`GL_INVALID_OPERATION`, ...).
        code_name: &'static str,
    },

    /// A framebuffer's attachments do not make a complete target.
    #[error("framebuffer incomplete ({status_name}, 0x{status:04x}) with {attachments} color attachment(s) of {width}x{height}")]
    IncompleteFramebuffer {
        /// glCheckFramebufferStatus's answer.
        status: u32,
        /// Its name.
        status_name: &'static str,
        /// Color attachments asked for.
        attachments: usize,
        /// Width of the first attachment, texels.
        width: u32,
        /// Its height.
        height: u32,
    },

    /// A texture beyond the driver's size limit.
    #[error("{what} of {width}x{height} texels exceeds this driver's GL_MAX_TEXTURE_SIZE of {max}; use a smaller size")]
    TooLarge {
        /// What was asked for.
        what: String,
        /// Its width, texels.
        width: u64,
        /// Its height, texels.
        height: u64,
        /// GL_MAX_TEXTURE_SIZE.
        max: u32,
    },

    /// Something this driver cannot do (the reason).
    #[error("not supported: {0}")]
    Unsupported(String),

    /// More color attachments than the driver has (asked, the limit).
    #[error("{0} color attachments requested; this driver supports 1 to {1}")]
    TooManyAttachments(usize, u32),

    /// Data that does not fit the texture it is meant for.
    #[error(
        "data of {got} bytes does not fit a {width}x{height} RGBA32F texture ({expected} bytes)"
    )]
    SizeMismatch {
        /// Bytes given.
        got: usize,
        /// Bytes the texture holds.
        expected: usize,
        /// The texture's width, texels.
        width: u32,
        /// Its height.
        height: u32,
    },

    /// A GLSL module that the library does not hold.
    #[error("GLSL module '{name}' not found (needed by {from}); known modules: {known}")]
    ModuleNotFound {
        /// The module asked for.
        name: String,
        /// Who needs it: a module, or "the program".
        from: String,
        /// The modules the library holds.
        known: String,
    },

    /// GLSL modules that need each other (the chain).
    #[error("GLSL modules that need each other (a cycle): {0}")]
    ModuleCycle(String),

    /// A module with an arithmetic operation outside the optimisation barrier `DF64_B`.
    #[error("{file} line {line}: {detail}; wrap each float + - * / in DF64_B(...) and pass each float parameter through it on entry (df64.glsl explains why), or generate the barriers with df64gl::export::insert_barriers")]
    UnguardedOperation {
        /// The module.
        file: String,
        /// The line, from 1.
        line: usize,
        /// What was expected there and what was found.
        detail: String,
    },

    /// An `#include` line in a GLSL module.
    #[error("#include in {file} line {line}: GLSL has no #include; declare the modules it needs in Rust (GlslLibrary::with_module_needing) so the file stays pasteable")]
    IncludeNotGlsl {
        /// The module.
        file: String,
        /// The line of the `#include`, from 1.
        line: usize,
    },

    /// A shader that does not compile on this driver.
    #[error("{stage} shader '{program}' failed to compile on this driver:\n{log}")]
    Compile {
        /// `vertex` or `fragment`.
        stage: &'static str,
        /// The program's name.
        program: String,
        /// The compile log, its lines mapped back to the modules.
        log: String,
    },

    /// A program that does not link.
    #[error("program '{program}' failed to link:\n{log}")]
    Link {
        /// The program's name.
        program: String,
        /// The link log.
        log: String,
    },

    /// A uniform the program does not have.
    #[error("program '{program}' has no uniform named '{name}': check the spelling against its GLSL (or, if it is declared, the driver optimised it away: set it with optional_uniform)")]
    NoUniform {
        /// The program's name.
        program: String,
        /// The uniform asked for.
        name: String,
    },

    /// The driver could not create a GL object.
    #[error("GL object creation failed: {0}")]
    Create(String),
}

/// A result of the GL layer.
pub type GlResult<T> = Result<T, GlError>;

pub(crate) fn gl_error_name(code: u32) -> &'static str {
    match code {
        glow::INVALID_ENUM => "GL_INVALID_ENUM",
        glow::INVALID_VALUE => "GL_INVALID_VALUE",
        glow::INVALID_OPERATION => "GL_INVALID_OPERATION",
        glow::INVALID_FRAMEBUFFER_OPERATION => "GL_INVALID_FRAMEBUFFER_OPERATION",
        glow::OUT_OF_MEMORY => "GL_OUT_OF_MEMORY",
        glow::STACK_OVERFLOW => "GL_STACK_OVERFLOW",
        glow::STACK_UNDERFLOW => "GL_STACK_UNDERFLOW",
        _ => "unknown GL error",
    }
}

pub(crate) fn framebuffer_status_name(status: u32) -> &'static str {
    match status {
        glow::FRAMEBUFFER_UNDEFINED => "GL_FRAMEBUFFER_UNDEFINED",
        glow::FRAMEBUFFER_INCOMPLETE_ATTACHMENT => "GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT",
        glow::FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT => {
            "GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT"
        }
        glow::FRAMEBUFFER_INCOMPLETE_DRAW_BUFFER => "GL_FRAMEBUFFER_INCOMPLETE_DRAW_BUFFER",
        glow::FRAMEBUFFER_INCOMPLETE_READ_BUFFER => "GL_FRAMEBUFFER_INCOMPLETE_READ_BUFFER",
        glow::FRAMEBUFFER_UNSUPPORTED => "GL_FRAMEBUFFER_UNSUPPORTED",
        glow::FRAMEBUFFER_INCOMPLETE_MULTISAMPLE => "GL_FRAMEBUFFER_INCOMPLETE_MULTISAMPLE",
        glow::FRAMEBUFFER_INCOMPLETE_LAYER_TARGETS => "GL_FRAMEBUFFER_INCOMPLETE_LAYER_TARGETS",
        _ => "unknown status",
    }
}
