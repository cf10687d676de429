//! The GL layer's error type. Every message says what failed and what the user can do about it.

use thiserror::Error;

#[derive(Debug, Error)]
pub enum GlError {
    #[error(
        "could not load EGL ({0}). Install the EGL loader and a driver: on Debian/Ubuntu \
         `apt-get install libegl1 libegl-mesa0 libgl1-mesa-dri` (Mesa llvmpipe, software) \
         or the NVIDIA driver for a GPU"
    )]
    NoEgl(String),

    #[error(
        "no EGL device found ({0}). df64gl renders headless through EGL_EXT_platform_device: \
         install Mesa (`apt-get install libegl-mesa0 libgl1-mesa-dri`) or the NVIDIA driver"
    )]
    NoDevice(String),

    #[error("EGL device '{wanted}' not found; available devices: {available}. Pass --device <index|name> or set DF64GL_DEVICE")]
    DeviceNotFound { wanted: String, available: String },

    #[error("could not create an OpenGL context on {device}: {detail}. df64gl needs OpenGL 3.3 core or newer")]
    Context { device: String, detail: String },

    #[error("OpenGL {found} is too old: df64gl needs 3.3 core or newer (renderer: {renderer})")]
    VersionTooLow { found: String, renderer: String },

    #[error("could not open a window: {0}. A window needs an X11 or Wayland display (for tests: run Xvfb and set DISPLAY)")]
    Window(String),

    #[error("GL error {code_name} (0x{code:04x}) after {call}")]
    Call {
        call: String,
        code: u32,
        code_name: &'static str,
    },

    #[error("framebuffer incomplete ({status_name}, 0x{status:04x}) with {attachments} color attachment(s) of {width}x{height}")]
    IncompleteFramebuffer {
        status: u32,
        status_name: &'static str,
        attachments: usize,
        width: u32,
        height: u32,
    },

    #[error("{what} of {width}x{height} texels exceeds this driver's GL_MAX_TEXTURE_SIZE of {max}; use a smaller size")]
    TooLarge {
        what: String,
        width: u64,
        height: u64,
        max: u32,
    },

    #[error("not supported: {0}")]
    Unsupported(String),

    #[error("{0} color attachments requested; this driver supports 1 to {1}")]
    TooManyAttachments(usize, u32),

    #[error(
        "data of {got} bytes does not fit a {width}x{height} RGBA32F texture ({expected} bytes)"
    )]
    SizeMismatch {
        got: usize,
        expected: usize,
        width: u32,
        height: u32,
    },

    #[error("GLSL module '{name}' not found (included from {from}); known modules: {known}")]
    ModuleNotFound {
        name: String,
        from: String,
        known: String,
    },

    #[error("GLSL modules that need each other (a cycle): {0}")]
    ModuleCycle(String),

    #[error("#include in {file} line {line}: GLSL has no #include; declare the modules it needs in Rust (GlslLibrary::with_module_needing) so the file stays pasteable")]
    IncludeNotGlsl { file: String, line: usize },

    #[error("{stage} shader '{program}' failed to compile on this driver:\n{log}")]
    Compile {
        stage: &'static str,
        program: String,
        log: String,
    },

    #[error("program '{program}' failed to link:\n{log}")]
    Link { program: String, log: String },

    #[error("program '{program}' has no uniform named '{name}': check the spelling against its GLSL (or, if it is declared, the driver optimised it away: set it with optional_uniform)")]
    NoUniform { program: String, name: String },

    #[error("GL object creation failed: {0}")]
    Create(String),
}

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
