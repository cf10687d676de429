//! Numeric types and their CPU mirrors: each GLSL module in `glsl/` has its reference here,
//! in a Rust module of the same name.

pub mod catalog;
pub mod df64;
pub(crate) mod df64_consts;
pub mod df64_func;
pub mod df64_vec;
#[doc(hidden)] // For df64gl-cli and the tests: not part of the API.
pub mod domain;
#[doc(hidden)] // For df64gl-cli and the tests: not part of the API.
pub mod fpenv;
pub mod oracle;
pub mod qf128;
pub(crate) mod qf128_consts;
pub mod reference;
#[doc(hidden)] // For df64gl-cli and the tests: not part of the API.
pub mod trig_hard_cases;
#[doc(hidden)] // For df64gl-cli and the tests: not part of the API.
pub mod vec_catalog;

#[cfg(test)]
pub(crate) mod mirror_suite;

pub use df64::{ComplexDf64, Df64};
pub use reference::{error_ulp48, ulp48, Dd};
