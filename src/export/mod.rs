//! Everything a renderer needs to use df64 in its own shaders, in one place: the GLSL export
//! (GLSL 3.30, 4.50 and ES 3.00, with vectors, matrices, functions and qf128), its probe shader,
//! the WGSL export, the checks that prove them on the caller's own context (GL in both shader
//! stages, wgpu; the WGSL items with the features `wgsl` and `wgpu`), and the barrier tool for df64 code of one's own on drivers without `precise`.
//!
//! ```
//! use df64gl::export::{snippet, SnippetOptions, SnippetTarget};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let options = SnippetOptions::new(SnippetTarget::Es300);
//! let glsl = snippet(&options)?; // paste after `#version 300 es` and the precision lines
//! assert!(glsl.contains("vec2 df64_mul(vec2 a, vec2 b)"));
//! # Ok(())
//! # }
//! ```
//!
//! Prove it where it runs with [`check_context`] (GL, both stages; the npm module's `check(gl)`
//! does the same in WebGL 2) or [`check_wgpu`] (feature `wgpu`; `checkWebGPU` in the browser).

pub mod context_check;
mod gl_state;
#[doc(hidden)] // For df64gl-cli and the tests: not part of the API.
pub mod known;
pub mod snippet;
#[doc(hidden)] // For df64gl-cli and the tests: not part of the API.
pub mod vec_shader;
#[cfg(feature = "wgpu")]
pub mod wgpu_check;
#[cfg(feature = "wgpu")]
#[doc(hidden)] // For df64gl-cli and the tests: not part of the API.
pub mod wgpu_compute;
#[cfg(feature = "wgsl")]
pub mod wgsl;

pub use crate::glsl_text::{check_barriers_after, insert_barriers, BarrierError};
pub use context_check::{
    check_context, check_context_stages, check_source, CheckSource, ContextCheck, StageCheck,
    StageChecks, Stages,
};
pub use snippet::{probe_shader, snippet, SnippetOptions, SnippetTarget};
#[cfg(feature = "wgpu")]
pub use wgpu_check::{check_wgpu, WgpuCheck, WgpuCheckOptions};
#[cfg(feature = "wgsl")]
pub use wgsl::{wgsl_export, WgslOptions, ZeroBuffer};
