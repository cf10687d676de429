//! The GLSL module library.
//!
//! Shader sources live in `glsl/` and are embedded in the binary. Each file is plain GLSL (no
//! `#include`, which GLSL does not have, so a user can paste it as it is); what a module needs
//! before it is declared here, in Rust, and the resolver puts those modules first (each once,
//! cycles reported), with `#line` directives so that a driver's compile log maps back to the
//! original file and line.

use std::borrow::Cow;
use std::collections::BTreeMap;

use super::error::{GlError, GlResult};

/// A module a GLSL module needs before it: always, or only when a define is set (and another
/// is not).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Needs {
    /// The module needed.
    pub module: String,
    /// Needed only when this define is set (to any value).
    pub when: Option<String>,
    /// Not needed when this define is set.
    pub unless: Option<String>,
}

impl Needs {
    /// `module`, always.
    pub fn always(module: &str) -> Self {
        Needs {
            module: module.into(),
            when: None,
            unless: None,
        }
    }

    fn applies(&self, defines: &[(String, String)]) -> bool {
        let set = |d: &Option<String>| d.as_ref().map(|d| defines.iter().any(|(k, _)| k == d));
        set(&self.when).unwrap_or(true) && !set(&self.unless).unwrap_or(false)
    }
}

/// The modules shipped in `glsl/` and what each needs before it (the FFT's butterfly passes,
/// one file per radix, are added by the FFT layer from its rows: `fft::stockham_mirror::BUTTERFLIES`).
fn builtin_modules() -> Vec<(&'static str, Vec<Needs>, &'static str)> {
    let always = |m: &[&str]| m.iter().map(|m| Needs::always(m)).collect::<Vec<_>>();
    // One FFT pass kind: its main() after the shared common file.
    let stockham_pass = |name: &'static str, source: &'static str| {
        (name, always(&["stockham_common.glsl"]), source)
    };
    let when = |define: &str, unless: Option<&str>, module: &str| Needs {
        module: module.into(),
        when: Some(define.into()),
        unless: unless.map(Into::into),
    };
    vec![
        ("df64.glsl", vec![], include_str!("../../glsl/df64.glsl")),
        (
            "df64_vec.glsl",
            always(&["df64.glsl"]),
            include_str!("../../glsl/df64_vec.glsl"),
        ),
        (
            "df64_func.glsl",
            always(&["df64.glsl"]),
            include_str!("../../glsl/df64_func.glsl"),
        ),
        (
            "qf128.glsl",
            always(&["df64.glsl"]),
            include_str!("../../glsl/qf128.glsl"),
        ),
        (
            "stockham_common.glsl",
            vec![
                Needs::always("df64.glsl"),
                when("FFT_QF128", None, "qf128.glsl"),
                when("FFT_DIRECT", Some("FFT_QF128"), "df64_func.glsl"),
            ],
            include_str!("../../glsl/stockham_common.glsl"),
        ),
        stockham_pass(
            "stockham_real_post.glsl",
            include_str!("../../glsl/stockham_real_post.glsl"),
        ),
        stockham_pass(
            "stockham_real_pre.glsl",
            include_str!("../../glsl/stockham_real_pre.glsl"),
        ),
        stockham_pass(
            "stockham_pointwise.glsl",
            include_str!("../../glsl/stockham_pointwise.glsl"),
        ),
        stockham_pass(
            "stockham_copy.glsl",
            include_str!("../../glsl/stockham_copy.glsl"),
        ),
        (
            "probe.glsl",
            always(&["df64.glsl"]),
            include_str!("../../glsl/probe.glsl"),
        ),
        (
            "elementwise.glsl",
            always(&["df64_func.glsl", "qf128.glsl"]),
            include_str!("../../glsl/elementwise.glsl"),
        ),
        (
            "mandelbrot.glsl",
            always(&["qf128.glsl"]),
            include_str!("../../glsl/mandelbrot.glsl"),
        ),
        (
            "leibniz.glsl",
            always(&["df64.glsl"]),
            include_str!("../../glsl/leibniz.glsl"),
        ),
    ]
}

/// A define (value "1") that builds the program with the bit-level optimisation barrier that
/// `df64.glsl` defines (`DF64_B`, see [`crate::export::insert_barriers`]) instead of `precise`.
pub const BARRIER_DEFINE: &str = "DF64_BARRIER";
/// A define (value "1") that enables GL_ARB_gpu_shader5 (for `precise` on GLSL 3.30).
pub(crate) const GPU_SHADER5_DEFINE: &str = "DF64_GPU_SHADER5";
/// A define (value "1") that enables GL_ARB_gpu_shader_fp64 (GLSL `double` before 4.00).
pub const FP64_EXTENSION_DEFINE: &str = "DF64GL_FP64_EXTENSION";
/// Define (value "1") that applies df64gl 0.1.0's statement barrier (tests only; see
/// `glsl_text/statement_multiply.rs`). `Program::build` sets `u_df64_one` to 1.
pub(crate) const STATEMENT_MULTIPLY_DEFINE: &str = "DF64_STATEMENT_MULTIPLY";

/// One module: its source and what it needs before it.
#[derive(Clone, Debug)]
struct Module {
    needs: Vec<Needs>,
    source: Cow<'static, str>,
}

/// A set of named GLSL modules, each with the modules it needs before it.
#[derive(Clone, Debug)]
pub struct GlslLibrary {
    modules: BTreeMap<String, Module>,
}

impl Default for GlslLibrary {
    fn default() -> Self {
        Self::builtin()
    }
}

/// A preprocessed source and the file names its `#line` source numbers refer to.
#[derive(Clone, Debug)]
pub struct ResolvedSource {
    /// The whole source, `#version` first.
    pub text: String,
    /// The module names `#line` source numbers refer to (the entry is 0).
    pub files: Vec<String>,
}

impl ResolvedSource {
    /// Rewrites a driver log so that `0:12(5)` (Mesa) or `0(12)` (NVIDIA) reads `df64.glsl:12`.
    pub fn map_log(&self, log: &str) -> String {
        log.lines()
            .map(|l| map_log_line(l, &self.files))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

fn take_digits(s: &str) -> Option<(usize, &str)> {
    let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    if end == 0 {
        return None;
    }
    Some((s[..end].parse().ok()?, &s[end..]))
}

pub(crate) fn map_log_line(line: &str, files: &[String]) -> String {
    let trimmed = line.trim_start();
    let indent = &line[..line.len() - trimmed.len()];
    let Some((file, rest)) = take_digits(trimmed) else {
        return line.to_string();
    };
    let (lineno, rest) = if let Some(r) = rest.strip_prefix(':') {
        // Mesa: "0:12(5): error: ..."
        match take_digits(r) {
            Some(v) => v,
            None => return line.to_string(),
        }
    } else if let Some(r) = rest.strip_prefix('(') {
        // NVIDIA: "0(12) : error C0000: ..."
        match take_digits(r) {
            Some((n, r2)) => match r2.strip_prefix(')') {
                Some(r3) => (n, r3),
                None => return line.to_string(),
            },
            None => return line.to_string(),
        }
    } else {
        return line.to_string();
    };
    match files.get(file) {
        Some(name) => format!("{indent}{name}:{lineno}{rest}"),
        None => line.to_string(),
    }
}

impl GlslLibrary {
    /// The modules shipped with df64gl.
    pub fn builtin() -> Self {
        let modules = builtin_modules()
            .into_iter()
            .map(|(n, needs, s)| {
                (
                    n.to_string(),
                    Module {
                        needs,
                        source: Cow::Borrowed(s),
                    },
                )
            })
            .collect();
        GlslLibrary { modules }
    }

    /// Adds or replaces a module that needs nothing before it (user kernels, tests).
    pub fn with_module(self, name: &str, source: impl Into<String>) -> Self {
        self.with_module_needing(name, &[], source)
    }

    /// Adds or replaces a module that needs the modules `needs` (in order) before it.
    pub fn with_module_needing(
        mut self,
        name: &str,
        needs: &[&str],
        source: impl Into<String>,
    ) -> Self {
        self.modules.insert(
            name.to_string(),
            Module {
                needs: needs.iter().map(|m| Needs::always(m)).collect(),
                source: Cow::Owned(source.into()),
            },
        );
        self
    }

    /// The source of module `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.modules.get(name).map(|m| m.source.as_ref())
    }

    /// What module `name` needs before it, given `defines`, in order.
    pub fn needs(&self, name: &str, defines: &[(String, String)]) -> Vec<String> {
        self.modules.get(name).map_or_else(Vec::new, |m| {
            m.needs
                .iter()
                .filter(|n| n.applies(defines))
                .map(|n| n.module.clone())
                .collect()
        })
    }

    /// Every module `name` can need under some defines, transitively, each before the
    /// modules that need it (what [`Self::check_barriers`] reads declarations from).
    pub(crate) fn possible_needs(&self, name: &str) -> Vec<String> {
        fn visit(lib: &GlslLibrary, name: &str, out: &mut Vec<String>, stack: &mut Vec<String>) {
            let Some(module) = lib.modules.get(name) else {
                return;
            };
            for need in &module.needs {
                let m = &need.module;
                if !out.contains(m) && !stack.contains(m) {
                    stack.push(m.clone());
                    visit(lib, m, out, stack);
                    stack.pop();
                    out.push(m.clone());
                }
            }
        }
        let mut out = Vec::new();
        visit(self, name, &mut out, &mut vec![name.to_string()]);
        out
    }

    /// Checks that module `name` guards every operation with the optimisation barrier
    /// (`DF64_B`, defined in `df64.glsl`) as [`crate::export::check_barriers_after`] says, with
    /// the declarations of the modules it can need in view; `df64.glsl` itself, that its
    /// error-free transforms keep theirs (`DF64_TRANSFORM_BARRIERS` in the barrier tool).
    pub fn check_barriers(&self, name: &str) -> GlResult<()> {
        let source = self.get(name).ok_or_else(|| GlError::ModuleNotFound {
            name: name.to_string(),
            from: "check_barriers".into(),
            known: self.names().collect::<Vec<_>>().join(", "),
        })?;
        let needs: String = self
            .possible_needs(name)
            .iter()
            .filter_map(|m| self.get(m))
            .collect();
        let checked = if name == "df64.glsl" {
            crate::glsl_text::check_transform_barriers(source)
        } else {
            crate::glsl_text::check_barriers_after(&needs, source)
        };
        checked.map_err(|e| GlError::UnguardedOperation {
            file: name.to_string(),
            line: e.line,
            detail: e.detail,
        })
    }

    /// The modules the library holds.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.modules.keys().map(String::as_str)
    }

    /// Resolves `entry` after a `#version` line, `defines` and the modules it needs.
    pub fn resolve(
        &self,
        entry: &str,
        version: u32,
        defines: &[(String, String)],
    ) -> GlResult<ResolvedSource> {
        let mut out = String::new();
        out.push_str(&format!(
            "#version {version}{}\n",
            if version >= 150 { " core" } else { "" }
        ));
        let on = |name: &str| defines.iter().any(|(k, v)| k == name && v == "1");
        if on(GPU_SHADER5_DEFINE) {
            // `precise` on GLSL 3.30; an #extension line must come before any declaration.
            out.push_str("#extension GL_ARB_gpu_shader5 : require\n");
        }
        if on(FP64_EXTENSION_DEFINE) {
            out.push_str("#extension GL_ARB_gpu_shader_fp64 : require\n");
        }
        for (k, v) in defines {
            out.push_str(&format!("#define {k} {v}\n"));
        }
        // DF64_BARRIER itself is read by df64.glsl, which defines DF64_B by it.
        let statement_multiply = on(STATEMENT_MULTIPLY_DEFINE);
        if statement_multiply {
            out.push_str(crate::glsl_text::statement_multiply::STATEMENT_MULTIPLY_DEFINITIONS);
        }
        // The entry is source string 0: Mesa reports errors in the last source of a shader
        // under number 0 whatever its #line said, so the entry, which comes last, must be 0.
        let mut files = vec![entry.to_string()];
        let mut emitted = Vec::new();
        let mut stack = Vec::new();
        let mut body = String::new();
        self.expand(
            entry,
            "the program",
            defines,
            &mut body,
            (&mut files, &mut emitted),
            &mut stack,
        )?;
        if statement_multiply {
            out.push_str(&crate::glsl_text::statement_multiply::insert_statement_multiply(&body));
        } else {
            out.push_str(&body);
        }
        Ok(ResolvedSource { text: out, files })
    }

    fn expand(
        &self,
        name: &str,
        from: &str,
        defines: &[(String, String)],
        out: &mut String,
        (files, emitted): (&mut Vec<String>, &mut Vec<String>),
        stack: &mut Vec<String>,
    ) -> GlResult<()> {
        if stack.iter().any(|s| s == name) {
            let mut chain = stack.clone();
            chain.push(name.to_string());
            return Err(GlError::ModuleCycle(chain.join(" -> ")));
        }
        if emitted.iter().any(|f| f == name) {
            return Ok(()); // once
        }
        let source = self.get(name).ok_or_else(|| GlError::ModuleNotFound {
            name: name.to_string(),
            from: from.to_string(),
            known: self.names().collect::<Vec<_>>().join(", "),
        })?;
        stack.push(name.to_string());
        for need in self.needs(name, defines) {
            self.expand(
                &need,
                name,
                defines,
                out,
                (&mut *files, &mut *emitted),
                stack,
            )?;
        }
        emitted.push(name.to_string());
        let index = files.iter().position(|f| f == name).unwrap_or_else(|| {
            files.push(name.to_string());
            files.len() - 1
        });
        out.push_str(&format!("#line 1 {index}\n"));
        for (i, line) in source.lines().enumerate() {
            let t = line.trim_start();
            if t.starts_with("#include") {
                // Not GLSL: what a module needs is declared in Rust, so files stay pasteable.
                return Err(GlError::IncludeNotGlsl {
                    file: name.to_string(),
                    line: i + 1,
                });
            } else if t.starts_with("#version") {
                // The engine writes #version itself; keep line numbers aligned.
                out.push('\n');
            } else {
                out.push_str(line);
                out.push('\n');
            }
        }
        stack.pop();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lib() -> GlslLibrary {
        GlslLibrary {
            modules: BTreeMap::new(),
        }
        .with_module_needing("a.glsl", &["b.glsl", "c.glsl"], "float a;\n")
        .with_module_needing("b.glsl", &["c.glsl"], "float b;\n")
        .with_module("c.glsl", "float c;\n")
        .with_module_needing("x.glsl", &["y.glsl"], "float x;\n")
        .with_module_needing("y.glsl", &["x.glsl"], "float y;\n")
        .with_module("bad.glsl", "float d;\n#include \"c.glsl\"\n")
    }

    #[test]
    fn needs_come_first_once_in_dependency_order() {
        let r = lib()
            .resolve("a.glsl", 450, &[("K".into(), "1".into())])
            .unwrap();
        assert_eq!(r.files, vec!["a.glsl", "c.glsl", "b.glsl"]);
        assert_eq!(r.text.matches("float c;").count(), 1);
        let c = r.text.find("float c;").unwrap();
        assert!(c < r.text.find("float b;").unwrap());
        assert!(r.text.find("float b;").unwrap() < r.text.find("float a;").unwrap());
        assert!(r.text.starts_with("#version 450 core\n#define K 1\n"));
    }

    #[test]
    fn conditional_needs_follow_the_defines() {
        let lib = GlslLibrary::builtin();
        let on = |k: &str| (k.to_string(), "1".to_string());
        assert_eq!(lib.needs("stockham_common.glsl", &[]), ["df64.glsl"]);
        assert_eq!(
            lib.needs("stockham_common.glsl", &[on("FFT_DIRECT")]),
            ["df64.glsl", "df64_func.glsl"]
        );
        assert_eq!(
            lib.needs("stockham_common.glsl", &[on("FFT_QF128"), on("FFT_DIRECT")]),
            ["df64.glsl", "qf128.glsl"]
        );
        let r = lib.resolve("leibniz.glsl", 330, &[on(FP64_EXTENSION_DEFINE)]);
        let text = r.unwrap().text;
        assert!(
            text.starts_with("#version 330 core\n#extension GL_ARB_gpu_shader_fp64 : require\n")
        );
    }

    #[test]
    fn builtin_files_are_plain_glsl() {
        for name in GlslLibrary::builtin().names() {
            let text = GlslLibrary::builtin().get(name).unwrap().to_string();
            assert!(
                !text.lines().any(|l| l.trim_start().starts_with("#include")),
                "{name}"
            );
        }
    }

    /// Every built-in module has the optimisation barrier on every operation that may be a
    /// float one (what makes the bit-level barrier hold on drivers without `precise`).
    #[test]
    fn builtin_modules_guard_every_operation() {
        let lib = GlslLibrary::builtin();
        for name in lib.names() {
            lib.check_barriers(name).unwrap();
        }
        assert_eq!(
            lib.possible_needs("stockham_copy.glsl"),
            [
                "df64.glsl",
                "qf128.glsl",
                "df64_func.glsl",
                "stockham_common.glsl"
            ]
        );
        // Take one barrier out of the cores' TwoSum: the check names the function's line.
        let df64 = lib.get("df64.glsl").unwrap();
        let guarded = "DF64_PRECISE float v = DF64_B(s - a);";
        let head = "vec2 df64_two_sum_inner(float a, float b) {";
        let line = 1 + df64[..df64.find(head).unwrap()].matches('\n').count();
        let broken = lib.clone().with_module_needing(
            "df64.glsl",
            &[],
            df64.replacen(guarded, "DF64_PRECISE float v = s - a;", 1),
        );
        let e = broken.check_barriers("df64.glsl").unwrap_err().to_string();
        assert!(e.starts_with(&format!("df64.glsl line {line}:")), "{e}");
    }

    #[test]
    fn detects_cycles_missing_modules_and_includes() {
        let e = lib().resolve("x.glsl", 450, &[]).unwrap_err().to_string();
        assert!(e.contains("x.glsl -> y.glsl -> x.glsl"), "{e}");
        let e = lib()
            .resolve("nope.glsl", 450, &[])
            .unwrap_err()
            .to_string();
        assert!(e.contains("nope.glsl") && e.contains("a.glsl"), "{e}");
        let e = lib().resolve("bad.glsl", 450, &[]).unwrap_err().to_string();
        assert!(
            e.contains("bad.glsl line 2") && e.contains("with_module_needing"),
            "{e}"
        );
    }

    #[test]
    fn maps_mesa_and_nvidia_log_lines() {
        let files = vec!["main.glsl".to_string(), "df64.glsl".to_string()];
        assert_eq!(
            map_log_line("1:12(5): error: syntax error", &files),
            "df64.glsl:12(5): error: syntax error"
        );
        assert_eq!(
            map_log_line("0(7) : error C0000: syntax error", &files),
            "main.glsl:7 : error C0000: syntax error"
        );
        assert_eq!(map_log_line("no location here", &files), "no location here");
    }
}
