//! The programs in `examples/` run as a user would run them, and print what they promise:
//! the FFT of a `Vec` finds its tones and agrees with rustfft, the element-wise kernel agrees
//! with f64, and the glow program's probe shader is all green, its check passes and its df64 is
//! within 2^-47. `cargo
//! test` builds the examples before it runs the tests.

mod common;

use std::path::PathBuf;

fn example(name: &str) -> PathBuf {
    // This test runs from target/<profile>/deps; the examples are built beside it.
    let exe = std::env::current_exe().expect("the test's own path");
    let dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("the profile's folder")
        .join("examples");
    let path = dir.join(name);
    assert!(
        path.is_file(),
        "{} is not built: run the tests with `cargo test --release` (which builds the examples) \
         or `cargo build --release --examples` first",
        path.display()
    );
    path
}

/// Runs an example; its stdout, after asserting it succeeded.
fn run(name: &str, args: &[&str]) -> String {
    let exe = example(name);
    let (code, out, err) = common::run_bin(exe.to_str().unwrap(), args, &[]);
    assert_eq!(code, 0, "{name} {args:?}: {out}\n{err}");
    out
}

/// The number after `label` in `text`.
fn number_after(text: &str, label: &str) -> f64 {
    let rest = &text[text
        .find(label)
        .unwrap_or_else(|| panic!("{label:?} in {text}"))
        + label.len()..];
    let token: String = rest
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | '-' | '+'))
        .collect();
    token
        .parse()
        .unwrap_or_else(|e| panic!("{token:?} after {label:?}: {e}"))
}

#[test]
fn fft_of_a_vec_finds_both_tones_and_agrees_with_rustfft() {
    let out = run("fft_of_a_vec", &[]);
    assert!(out.contains("peak bins: 50, 120"), "{out}");
    approx::assert_abs_diff_eq!(number_after(&out, "|X[50]| ="), 500.0, epsilon = 1e-9);
    approx::assert_abs_diff_eq!(number_after(&out, "|X[120]| ="), 250.0, epsilon = 1e-9);
    // 1,000 points of magnitude <= 1.5 through Bluestein in df64: far below f32's 1e-4 here.
    assert!(number_after(&out, "from rustfft:") < 1e-11, "{out}");
}

#[test]
fn elementwise_kernel_agrees_with_f64() {
    let out = run("elementwise_kernel", &[]);
    assert!(out.contains("100000 elements"), "{out}");
    // Three df64 ops, each within 1 ulp48 = 2^-47 relative, on inputs rounded to df64.
    assert!(
        number_after(&out, "from f64:") < 4.0 * 2f64.powi(-47),
        "{out}"
    );
}

#[test]
fn df64_in_a_plain_glow_program_on_every_target() {
    for target in ["330", "450", "es300"] {
        let out = run("df64_in_glow", &[target]);
        assert!(out.contains("4096 of 4096 pixels green"), "{target}: {out}");
        // The known-answer check on the example's own context, the routines it calls.
        assert!(out.contains("check: df64 exact on"), "{target}: {out}");
        assert!(out.contains("; 2 routines)"), "{target}: {out}");
        // div within 1 ulp48 and sqr within 0.5 of the rounded quotient: under 2^-46.
        assert!(
            number_after(&out, "largest relative error") < 2f64.powi(-46),
            "{target}: {out}"
        );
    }
}
