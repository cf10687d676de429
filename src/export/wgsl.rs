//! df64 (and qf128) for WGSL, translated from the same GLSL as every other export: the GLSL
//! modules with the bit-level barrier on (`DF64_BARRIER 1`, as for GLSL ES) go through naga's
//! GLSL front end and WGSL back end, so the WGSL cannot drift from the GLSL and its mirror.
//!
//! WGSL has no `precise`, and its specification lets an implementation reassociate and fuse
//! float operations. Every rounding point of the routines therefore passes through
//! `df64_b(x) = bitcast<f32>(bitcast<u32>(x) ^ z)`, where `z` is read from a buffer: an
//! integer operation on a value no compiler can know when it builds the pipeline (a WGSL
//! `override` would be known then, and could be folded). The caller binds that buffer at the
//! group and binding chosen in [`WgslOptions`]; zeros make every barrier the identity.
//!
//! The buffer is a read-only storage buffer by default, not a uniform buffer: lavapipe (Mesa's
//! Vulkan) inlines the values of uniform buffers into the shaders it compiles, and with the
//! zero known the barriers fold (measured through wgpu: `df64_sin` then 1.1e7 ulp48 off, the
//! same as the unprotected build). [`ZeroBuffer::Uniform`] is for devices without storage
//! buffers in a stage (WebGPU's compatibility mode): check it there.
//!
//! The unprotected translation (`protected: false`) is the same routines written as plain
//! expressions: what a naive port gives, kept to show what each compiler does to it.

use naga::back::wgsl::WriterFlags;
use naga::front::glsl::{Frontend, Options};
use naga::valid::{Capabilities, ValidationFlags, Validator};
use naga::ShaderStage;

use super::snippet::domain_line;
use crate::gl::GlslLibrary;
use crate::probe::ProbeError;

/// The kind of buffer the barrier reads its zero from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum ZeroBuffer {
    /// `var<storage, read>`: no compiler can know it (the default).
    #[default]
    Storage,
    /// `var<uniform>`: for stages without storage buffers; lavapipe inlines it and breaks
    /// the barrier, so check the device first.
    Uniform,
}

/// What the WGSL export holds and where its one binding goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WgslOptions {
    /// df64_func.glsl's functions (exp, log, trigonometry, ...).
    pub functions: bool,
    /// qf128.glsl (which needs the functions).
    pub qf128: bool,
    /// `@group` of the barrier's buffer.
    pub group: u32,
    /// `@binding` of the barrier's buffer.
    pub binding: u32,
    /// The kind of buffer the barrier reads its zero from.
    pub zero: ZeroBuffer,
    /// Every float step behind the barrier (false: plain expressions, only to show what a
    /// compiler does to them; no bound holds for it).
    pub protected: bool,
}

impl Default for WgslOptions {
    fn default() -> Self {
        WgslOptions {
            functions: true,
            qf128: false,
            group: 0,
            binding: 0,
            zero: ZeroBuffer::Storage,
            protected: true,
        }
    }
}

/// The barrier's uniform as df64.glsl declares it; the translation gives it a group and a
/// binding (naga, like Vulkan GLSL, takes uniforms only in blocks).
const GLSL_ZERO_UNIFORM: &str = "uniform highp uint u_df64_zero;";

/// The name of the uniform buffer variable in the WGSL export.
pub const WGSL_ZERO_BUFFER: &str = "df64_zero";

/// The WGSL export of the modules `options` names, with its header.
///
/// ```
/// use df64gl::export::wgsl::{wgsl_export, WgslOptions};
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let wgsl = wgsl_export(&WgslOptions::default())?;
/// assert!(wgsl.contains("fn df64_mul(") && wgsl.contains("@group(0) @binding(0)"));
/// # Ok(())
/// # }
/// ```
pub fn wgsl_export(options: &WgslOptions) -> Result<String, ProbeError> {
    let library = GlslLibrary::builtin();
    let mut names = vec!["df64.glsl", "df64_vec.glsl"];
    if options.functions || options.qf128 {
        names.push("df64_func.glsl");
    }
    if options.qf128 {
        names.push("qf128.glsl");
    }
    let mut modules = Vec::new();
    for name in &names {
        let text = library.get(name).ok_or_else(|| ProbeError::Wgsl {
            detail: format!("the GLSL module {name} is not in the library"),
        })?;
        modules.push((*name, text));
    }
    wgsl_from_glsl(&modules, options)
}

/// The WGSL translation of GLSL modules written like df64.glsl (the first one must declare the
/// barrier's uniform as df64.glsl does), with the export's header. Public so that a test can
/// translate a deliberately broken copy of the GLSL exactly as the export is translated.
pub fn wgsl_from_glsl(
    modules: &[(&str, &str)],
    options: &WgslOptions,
) -> Result<String, ProbeError> {
    let body = translate(modules, options)?;
    let names: Vec<&str> = modules.iter().map(|(n, _)| *n).collect();
    let mut out = format!(
        "// df64 for WGSL, generated by `df64gl wgsl{}{}{}{}` ({}) from {} through naga {}.\n",
        if options.qf128 { " --qf128" } else { "" },
        if options.zero == ZeroBuffer::Uniform {
            " --zero uniform"
        } else {
            ""
        },
        if !options.functions && !options.qf128 {
            " --no-functions"
        } else {
            ""
        },
        if options.protected {
            ""
        } else {
            " --unprotected"
        },
        env!("CARGO_PKG_VERSION"),
        names.join(" + "),
        NAGA_VERSION,
    );
    if options.protected {
        let kind = match options.zero {
            ZeroBuffer::Storage => "read-only storage",
            ZeroBuffer::Uniform => "uniform",
        };
        out.push_str(&format!(
            "// Bind a {kind} buffer of at least 16 bytes of zeros at @group({g}) @binding({b}) \
             (`{WGSL_ZERO_BUFFER}`):\n\
             // every float step of these routines passes through an XOR with its first u32, \
             which no compiler can\n\
             // know, so none can reassociate, fuse or cancel them (WGSL has no `precise`). It \
             must stay 0.\n\
             // Choose the group and binding with `df64gl wgsl --group G --binding B`.{}\n",
            match options.zero {
                ZeroBuffer::Storage => "\n// A storage buffer, not a uniform one: lavapipe (Mesa's Vulkan) inlines uniform \
                    values and the barrier then folds.",
                ZeroBuffer::Uniform => "\n// A uniform buffer: lavapipe (Mesa's Vulkan) inlines its value and the barrier \
                    folds there; check your device.",
            },
            g = options.group,
            b = options.binding,
        ));
        out.push_str(&format!("// Domain: {}\n", domain_line()));
        out.push_str(
            "// Prove it on the device at hand: `checkWebGPU(device)` of the npm package \
             df64gl, or df64gl's `check_wgpu`.\n",
        );
    } else {
        out.push_str(
            "// UNPROTECTED: plain expressions a compiler may rewrite (twoSum's error term folded \
             to 0, say).\n// For comparison only: no bound holds for this file.\n",
        );
    }
    out.push_str(&body);
    Ok(out)
}

/// The naga version the translation is made with (its output changes with it).
pub const NAGA_VERSION: &str = "30";

fn translate(modules: &[(&str, &str)], options: &WgslOptions) -> Result<String, ProbeError> {
    let fail = |detail: String| ProbeError::Wgsl { detail };
    // GLSL ES's configuration (no `double`, no fma path, no `precise`), at naga's GLSL 4.50.
    let mut glsl = format!(
        "#version 450\n#define GL_ES 1\n#define DF64_PRECISE\n#define DF64_TWOPROD_FMA 0\n\
         #define DF64_BARRIER {}\n",
        u32::from(options.protected)
    );
    let block = format!(
        "layout(set = {}, binding = {}) {} Df64Zero {{ uint u_df64_zero; }};",
        options.group,
        options.binding,
        match options.zero {
            ZeroBuffer::Storage => "readonly buffer",
            ZeroBuffer::Uniform => "uniform",
        }
    );
    let mut declared = 0;
    for (name, text) in modules {
        declared += text.matches(GLSL_ZERO_UNIFORM).count();
        glsl.push_str(&format!("// {name}\n"));
        glsl.push_str(&text.replace(GLSL_ZERO_UNIFORM, &block));
        glsl.push('\n');
    }
    if declared != 1 {
        return Err(fail(format!(
            "the GLSL declares the barrier's uniform ({GLSL_ZERO_UNIFORM}) {declared} times, not once"
        )));
    }
    glsl.push_str("void main() {}\n");

    let mut module = Frontend::default()
        .parse(&Options::from(ShaderStage::Fragment), &glsl)
        .map_err(|e| {
            fail(format!(
                "naga's GLSL front end: {}",
                e.emit_to_string(&glsl)
            ))
        })?;
    // A library, not a shader: no entry point.
    module.entry_points.clear();
    for (_, var) in module.global_variables.iter_mut() {
        if matches!(
            var.space,
            naga::AddressSpace::Uniform | naga::AddressSpace::Storage { .. }
        ) {
            var.name = Some(WGSL_ZERO_BUFFER.to_string());
        }
    }
    let info = Validator::new(ValidationFlags::all(), Capabilities::empty())
        .validate(&module)
        .map_err(|e| fail(format!("naga's validator: {}", e.emit_to_string(&glsl))))?;
    let mut wgsl = naga::back::wgsl::write_string(&module, &info, WriterFlags::empty())
        .map_err(|e| fail(format!("naga's WGSL back end: {e}")))?;

    // naga appends `_` to names that end in a digit (its suffixes are digits); the export keeps
    // the GLSL names (`df64_mul_f32`, `qf128_mul_df64`, `df64_log2`, `DF64_PI_2`). Overloads
    // (only df64_b's, internal) keep naga's suffixes.
    let names = module
        .functions
        .iter()
        .filter_map(|(_, f)| f.name.as_deref())
        .chain(
            module
                .constants
                .iter()
                .filter_map(|(_, c)| c.name.as_deref()),
        )
        .chain(module.types.iter().filter_map(|(_, t)| t.name.as_deref()));
    let mut seen = std::collections::HashSet::new();
    for name in names {
        if !seen.insert(name) || !name.ends_with(|c: char| c.is_ascii_digit()) {
            continue;
        }
        let emitted = format!("{name}_");
        if has_token(&wgsl, name) {
            return Err(fail(format!(
                "naga named something else {name}: cannot give {emitted} its GLSL name"
            )));
        }
        wgsl = replace_token(&wgsl, &emitted, name);
    }
    let wgsl = index_tables_in_place(&wgsl).map_err(fail)?;
    // The result must be WGSL naga itself accepts.
    let reparsed = naga::front::wgsl::parse_str(&wgsl).map_err(|e| {
        fail(format!(
            "the translated WGSL does not parse: {}",
            e.emit_to_string(&wgsl)
        ))
    })?;
    Validator::new(ValidationFlags::all(), Capabilities::empty())
        .validate(&reparsed)
        .map_err(|e| {
            fail(format!(
                "the translated WGSL does not validate: {}",
                e.emit_to_string(&wgsl)
            ))
        })?;
    Ok(wgsl)
}

/// naga's GLSL front end reads a global const array at a run-time index through a copy of the
/// whole array in a function-local variable, one per access and made at the function's entry
/// whatever branch runs (`var local_7: array<f32, 96> = DF64_EXP2_TABLE;`): 96 to 195 stores
/// a copy, 27 copies in the export. On Chromium's WebGPU (SwiftShader) they were most of the
/// functions' cost: exp 249 ns against 55 ns for the same GLSL in WebGL, the one-line
/// coefficient lookup of the series 27 ns against 4 (2026-11-28). Here every read of a copy
/// becomes a read of one module-scope twin of the table, `var<private> DF64_EXP2_TABLE_INDEXED
/// = DF64_EXP2_TABLE;` (a reference, which WGSL indexes at a run-time index without a copy);
/// the `const` stays, for a user's const-expressions. Refused, with what it found, where a copy
/// is written or its address taken, or its table is not a module-scope `const` array.
fn index_tables_in_place(wgsl: &str) -> Result<String, String> {
    // (copy's name, table's name, the array type)
    let mut copies: Vec<(String, String, String)> = Vec::new();
    let mut kept = String::with_capacity(wgsl.len());
    for line in wgsl.split_inclusive('\n') {
        let copy = line
            .trim()
            .strip_prefix("var ")
            .and_then(|rest| rest.split_once(": array<"))
            .and_then(|(name, rest)| {
                let (element, table) = rest.split_once("> = ")?;
                let table = table.strip_suffix(';')?;
                let ident = |t: &str| !t.is_empty() && t.chars().all(is_ident_char);
                (name.starts_with("local") && ident(name) && ident(table)).then(|| {
                    (
                        name.to_string(),
                        table.to_string(),
                        format!("array<{element}>"),
                    )
                })
            });
        match copy {
            Some(c) => copies.push(c),
            None => kept.push_str(line),
        }
    }
    let mut out = kept;
    let mut tables: Vec<(&str, &str)> = Vec::new();
    for (name, table, ty) in &copies {
        for at in token_positions(&out, name) {
            let after = &out[at + name.len()..];
            let read = !out[..at].trim_end().ends_with('&')
                && after.starts_with('[')
                && closing_bracket(after).is_some_and(|close| !is_assigned(&after[close + 1..]));
            if !read {
                let line_end = after.find('\n').unwrap_or(after.len());
                return Err(format!(
                    "naga's copy {name} of {table} is not only read: `{name}{}`",
                    &after[..line_end]
                ));
            }
        }
        out = replace_token(&out, name, &format!("{table}_INDEXED"));
        if !tables.iter().any(|(t, _)| t == table) {
            tables.push((table, ty));
        }
    }
    for (table, ty) in tables {
        let head = format!("const {table}: {ty} = ");
        let at = out
            .match_indices(&head)
            .map(|(i, _)| i)
            .find(|&i| i == 0 || out[..i].ends_with('\n'))
            .ok_or_else(|| {
                format!("naga copied {table}, which is not a module-scope const {ty}")
            })?;
        let line_end = out[at..].find('\n').map_or(out.len(), |n| at + n + 1);
        out.insert_str(
            line_end,
            &format!("var<private> {table}_INDEXED: {ty} = {table};\n"),
        );
    }
    Ok(out)
}

/// Where the bracket that `text` opens with closes.
fn closing_bracket(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in text.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Whether what follows an indexed place assigns to it (`=`, `+=`, ..., not `==`).
fn is_assigned(rest: &str) -> bool {
    let rest = rest.trim_start();
    let op_len = rest.find('=').filter(|&i| {
        rest[..i]
            .chars()
            .all(|c| matches!(c, '+' | '-' | '*' | '/' | '%' | '&' | '|' | '^' | '<' | '>'))
    });
    match op_len {
        // `<=` and `>=` compare; `<<=` and `>>=` assign.
        Some(i) => !rest[i + 1..].starts_with('=') && !matches!(&rest[..i], "<" | ">"),
        None => false,
    }
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Every position where `token` stands as a whole identifier.
fn token_positions(text: &str, token: &str) -> Vec<usize> {
    text.match_indices(token)
        .filter(|(i, _)| {
            let before = text[..*i].chars().next_back();
            let after = text[i + token.len()..].chars().next();
            !before.is_some_and(is_ident_char) && !after.is_some_and(is_ident_char)
        })
        .map(|(i, _)| i)
        .collect()
}

fn has_token(text: &str, token: &str) -> bool {
    !token_positions(text, token).is_empty()
}

fn replace_token(text: &str, from: &str, to: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for i in token_positions(text, from) {
        out.push_str(&text[last..i]);
        out.push_str(to);
        last = i + from.len();
    }
    out.push_str(&text[last..]);
    out
}

/// A known-answer call as WGSL: the GLSL calls of `assets/known-answers.json` use two GLSL
/// forms WGSL lacks, `vec2(C ? 1.0 : 0.0, 0.0)` (a comparison as a number) and `int(x)`.
pub fn wgsl_call(glsl_call: &str) -> Result<String, ProbeError> {
    let call = glsl_call.trim();
    let out = if let Some(inner) = call
        .strip_prefix("vec2(")
        .and_then(|s| s.strip_suffix(" ? 1.0 : 0.0, 0.0)"))
    {
        format!("vec2<f32>(select(0.0, 1.0, {inner}), 0.0)")
    } else {
        call.replace("int(", "i32(")
    };
    if out.contains('?') || out.contains("vec2(") || out.contains("vec4(") || has_token(&out, "int")
    {
        return Err(ProbeError::Wgsl {
            detail: format!("no WGSL form for the known-answer call {glsl_call}"),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_become_wgsl() {
        assert_eq!(
            wgsl_call("df64_add(a, b)").ok().as_deref(),
            Some("df64_add(a, b)")
        );
        assert_eq!(
            wgsl_call("vec2(df64_lt(a, b) ? 1.0 : 0.0, 0.0)")
                .ok()
                .as_deref(),
            Some("vec2<f32>(select(0.0, 1.0, df64_lt(a, b)), 0.0)")
        );
        assert_eq!(
            wgsl_call("df64_ldexp(a, int(b.x))").ok().as_deref(),
            Some("df64_ldexp(a, i32(b.x))")
        );
        assert!(wgsl_call("vec2(a.x > 0.0 ? a : b)").is_err());
    }

    #[test]
    fn table_copies_become_reads_of_one_private_twin() {
        let naga_like = "const T: array<f32, 3> = array<f32, 3>(1f, 2f, 3f);\n\
                         fn f(i: i32) -> f32 {\n    var local_1: array<f32, 3> = T;\n    \
                         var local_2: array<f32, 3> = T;\n    let a = local_1[i];\n    \
                         let b = local_2[(i + 1i)];\n    return a + b + T[0];\n}\n";
        let out = index_tables_in_place(naga_like).unwrap_or_else(|e| panic!("{e}"));
        assert!(!out.contains("local_"), "{out}");
        assert!(out.contains("const T: array<f32, 3> = array<f32, 3>(1f, 2f, 3f);\n"));
        assert_eq!(
            out.matches("var<private> T_INDEXED: array<f32, 3> = T;\n")
                .count(),
            1,
            "{out}"
        );
        assert!(out.contains("let a = T_INDEXED[i];") && out.contains("T_INDEXED[(i + 1i)]"));
        // A copy that is written, or whose address is taken, is not a table read: refused.
        let written = naga_like.replace("let a = local_1[i];", "local_1[i] = 0f;");
        assert!(index_tables_in_place(&written).is_err());
        let pointer = naga_like.replace("let a = local_1[i];", "let a = g(&local_1);");
        assert!(index_tables_in_place(&pointer).is_err());
        let added = naga_like.replace("let a = local_1[i];", "local_1[i[0]] += 1f;");
        assert!(index_tables_in_place(&added).is_err());
        // A comparison reads it.
        for read in [
            "f32(local_1[i] == 1f)",
            "f32(local_1[i] <= 1f)",
            "f32(local_1[i] >= 1f)",
        ] {
            let compared = naga_like.replace("let a = local_1[i];", &format!("let a = {read};"));
            assert!(index_tables_in_place(&compared).is_ok(), "{read}");
        }
    }

    #[test]
    fn the_export_copies_no_table() {
        let wgsl = wgsl_export(&WgslOptions {
            qf128: true,
            ..WgslOptions::default()
        })
        .unwrap_or_else(|e| panic!("{e}"));
        // naga's copies are declared `var local...: array<...> = NAME;` in a function.
        let copies = wgsl
            .lines()
            .filter(|l| l.trim_start().starts_with("var local") && l.contains(": array<"))
            .count();
        assert_eq!(copies, 0);
        assert!(wgsl
            .contains("var<private> DF64_EXP2_TABLE_INDEXED: array<f32, 96> = DF64_EXP2_TABLE;"));
        assert!(wgsl.contains("const DF64_PI_2: array<f32, 5>"));
    }

    #[test]
    fn tokens_are_whole_identifiers() {
        assert_eq!(
            replace_token("f_ f__ af_ f_(x)", "f_", "f"),
            "f f__ af_ f(x)"
        );
    }
}
