//! `df64gl glsl`: the GLSL export for other renderers, its probe shader, and its check here or in WebGL 2.

use crate::error::ExperimentError;
use crate::experiments::glsl::measure_export;
use crate::experiments::glsl::measure_export_in_browser;
use df64gl::export::snippet::{check_snippet, probe_shader, snippet, SnippetOptions};
use df64gl::gl::GlContext;
use std::process::ExitCode;

use super::args::*;
use super::{print_json, print_report, require_chromium, Global};

/// `df64gl glsl`.
pub(crate) fn glsl(global: &Global, args: GlslArgs) -> Result<ExitCode, ExperimentError> {
    let GlslArgs {
        target,
        qf128,
        no_functions,
        probe,
        check,
        no_fallback,
        measure,
        samples,
        browser,
        output,
    } = args;
    let options = SnippetOptions {
        target,
        functions: !no_functions,
        qf128,
        no_fallback,
    };
    if browser.is_some() && !measure {
        return Err(ExperimentError::Invalid(
            "--browser goes with --measure (the page measures the export)".into(),
        ));
    }
    if measure {
        let report = if let Some(backend) = browser {
            let chromium = require_chromium("--browser")?;
            measure_export_in_browser(&chromium, backend, &options, samples, 2026)?
        } else {
            let ctx = if target.is_es() {
                GlContext::headless_gles(&global.device)?
            } else {
                GlContext::headless(&global.device)?
            };
            measure_export(&ctx, &options, samples, 2026)?
        };
        print_report(global.json, &report, |r| r.table())?;
        let failures = report.failures();
        for f in &failures {
            eprintln!("df64gl: {f}");
        }
        return Ok(if failures.is_empty() {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        });
    }
    if check {
        let ctx = if target.is_es() {
            GlContext::headless_gles(&global.device)?
        } else {
            GlContext::headless(&global.device)?
        };
        let result = check_snippet(&ctx, &options)?;
        if global.json {
            print_json(&result)?;
        } else {
            println!(
                "{} probe shader on {} ({}): {} of {} pixels exact{}",
                target.version_line(),
                ctx.info().renderer,
                ctx.info().version,
                result.green,
                result.pixels,
                if result.passed() {
                    ": df64 is safe to use here"
                } else {
                    ": this driver breaks the error-free transforms; do not use df64 here"
                }
            );
        }
        return Ok(if result.passed() {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        });
    }
    let text = if probe {
        probe_shader(&options)?
    } else {
        snippet(&options)?
    };
    write_or_print(output, &text)
}

/// `text` to the file, or to standard output.
pub(crate) fn write_or_print(
    output: Option<std::path::PathBuf>,
    text: &str,
) -> Result<ExitCode, ExperimentError> {
    match output {
        Some(path) => std::fs::write(&path, text)
            .map_err(|e| ExperimentError::Io(path.display().to_string(), e))?,
        None => {
            use std::io::Write;
            // A closed pipe (`| head`) is not an error worth a message.
            let _ = std::io::stdout().write_all(text.as_bytes());
        }
    }
    Ok(ExitCode::SUCCESS)
}
