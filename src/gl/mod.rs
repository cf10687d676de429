//! GL plumbing: contexts, textures, framebuffers, programs and passes.
//!
//! Nothing here knows about df64; it moves RGBA32F texels through fragment programs.

mod context;
mod error;
mod framebuffer;
mod library;
mod memory;
mod pass;
mod program;
mod texture;
mod window;

pub use context::{
    list_devices, DeviceChoice, DeviceDesc, GlContext, GlInfo, MesaDriver, DEVICE_ENV,
};
pub(crate) use error::gl_error_name;
pub use error::{GlError, GlResult};
pub use framebuffer::Framebuffer;
pub use library::ResolvedSource;
pub use library::{GlslLibrary, BARRIER_DEFINE, FP64_EXTENSION_DEFINE};
pub(crate) use library::{GPU_SHADER5_DEFINE, STATEMENT_MULTIPLY_DEFINE};
pub use memory::{host_memory_available, human_bytes, MemoryBudget, MEMORY_BUDGET_ENV};
pub use pass::{timed, Pass, PingPong, Timing, Uniform};
pub use program::Program;
pub use texture::{Layout, Texture};

pub use window::{run_windowed, AppError, WindowApp, WindowOptions};
