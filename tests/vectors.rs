//! The vector and matrix routines (`glsl/df64_vec.glsl`) as the export runs them on llvmpipe, in
//! the vertex and the fragment stage: the GLSL 4.50 export (`precise`) and the GLSL ES 3.00 one
//! (the bit-level barrier), every routine on 2,560 operand sets from five classes (near 1, 1e6
//! to 1e9, nearly cancelling, planet scale, 2^-40 to 2^40) within the bound the tests state
//! (`common::vec_bound`) against double-double references computed here, and equal to the CPU
//! mirror bit for bit. softpipe and zink run the same sweep in `cli/tests/drivers.rs`.

mod common;

use df64gl::export::snippet::SnippetTarget;
use df64gl::gl::{DeviceChoice, GlContext};

#[test]
fn vector_routines_keep_their_bounds_in_both_stages_on_llvmpipe() {
    let ctx = GlContext::headless(&DeviceChoice::Auto).unwrap();
    let report = common::assert_vector_sweep(&ctx, SnippetTarget::Glsl450, 2560);
    eprintln!("{} (450):\n{}", ctx.info().renderer, report.join("\n"));
    let ctx = GlContext::headless_gles(&DeviceChoice::Auto).unwrap();
    let report = common::assert_vector_sweep(&ctx, SnippetTarget::Es300, 2560);
    eprintln!("{} (es300):\n{}", ctx.info().renderer, report.join("\n"));
}
