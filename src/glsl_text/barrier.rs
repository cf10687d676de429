//! The optimisation barrier for GLSL without `precise`, and the tool that keeps it complete.
//!
//! The barrier itself is GLSL and lives in `df64.glsl`: every `+ - * /` that may be a float
//! operation is written `DF64_B(a op b)`, compound assignments are spelt out
//! (`x = DF64_B(x + y)`), and each float parameter passes through it on entry. With
//! `DF64_BARRIER` 1, `DF64_B(x)` is `uintBitsToFloat(floatBitsToUint(x) ^ u_df64_zero)` with a
//! uniform the application leaves at 0; otherwise it is `(x)` and `precise` does the work.
//! [`BARRIER_DEFINE`](crate::gl::BARRIER_DEFINE) only sets that macro: nothing rewrites
//! the source at build time, so the file a user pastes is the file the engine proves.
//!
//! `df64.glsl` itself places its barriers by hand where its error-free transforms rest on
//! them ([`DF64_TRANSFORM_BARRIERS`], checked by [`check_transform_barriers`]); the other
//! modules keep one on every operation, for the reason below.
//!
//! Why every operation: the previous barrier multiplied whole statements by a uniform set to 1.
//! Mesa's NIR algebraic pass factors a common multiplier out of a sum (`a*k + b*k` becomes
//! `k*(a + b)`, measured: on llvmpipe and softpipe `x*k + y*k` with k = 1.1 from a uniform
//! evaluates as `k*(x + y)` in 1,639 of 4,096 cases), so barriers on two operands merge and
//! move, and what they hid is again open to float algebra: the exported df64_mul, log and sin
//! lost their error terms. No float rewrite applies to an integer operation, and with one
//! barrier around each operation no expression has two float operations to fuse or
//! reassociate. Integer arithmetic (names declared with an integer type, integer literals)
//! is exact and left bare.
//!
//! This file writes those barriers ([`insert_barriers_after`], how the `glsl/` files got
//! theirs and how a user's module can get its own), removes them ([`strip_barriers`]) and
//! checks a module has every one ([`check_barriers_after`]; `GlslLibrary::check_barriers` runs
//! it on the built-in modules in the tests, so an edit that forgets one fails).

use std::collections::HashSet;
use std::fmt::Write;

use super::parser::{body, declared_names, float_params, global_scope, Parser};
use super::scanner::{scan_strict, Tok};
use super::BarrierError;

/// `const` declarations, loop headers and preprocessor lines are kept as written.
pub fn insert_barriers(source: &str) -> Result<String, BarrierError> {
    insert_barriers_after("", source)
}

/// [`insert_barriers`] for a module that comes after `needs` (the modules it needs, whose
/// declarations tell which names hold integers; they are not rewritten).
pub fn insert_barriers_after(needs: &str, source: &str) -> Result<String, BarrierError> {
    let toks = scan_strict(source)?;
    let needs = scan_strict(needs)?;
    let (mut global_int, global_other) =
        declared_names(global_scope(&needs).chain(global_scope(&toks)));
    global_int.retain(|n| !global_other.contains(n));
    let mut p = Parser {
        toks: &toks,
        ints: HashSet::new(),
        pos: 0,
        last_line: 1,
    };
    let mut params_start = 0;
    let mut out = String::with_capacity(source.len() * 2);
    // Global scope: copy tokens until a function definition's body.
    let mut pending_params: Option<Vec<String>> = None;
    let mut depth_parens = 0usize;
    let mut params_text = String::new();
    let mut last_ident_before_paren = false;
    let mut function_name = String::new();
    while p.pos < toks.len() {
        let (tok, _) = &toks[p.pos];
        p.pos += 1;
        match tok {
            Tok::Punct("{")
                if depth_parens == 0
                    && pending_params.is_some()
                    && function_name == BARRIER_FUNCTION =>
            {
                // The barrier itself, as written.
                pending_params = None;
                out.push('{');
                let mut depth = 1;
                while depth > 0 {
                    let Some((t, _)) = toks.get(p.pos) else {
                        return Err(p.err("unterminated function body"));
                    };
                    p.pos += 1;
                    match t {
                        Tok::Punct("{") => depth += 1,
                        Tok::Punct("}") => depth -= 1,
                        _ => {}
                    }
                    out.push_str(t.source());
                }
            }
            Tok::Punct("{") if depth_parens == 0 && pending_params.is_some() => {
                // Integer names here: the function's own declarations first, then globals.
                let end = block_end(&toks, p.pos);
                let (local_int, local_other) =
                    declared_names(toks[params_start..end].iter().map(|(t, _)| t));
                p.ints = global_int.union(&local_int).cloned().collect();
                p.ints.retain(|n| !local_other.contains(n));
                out.push('{');
                let params = pending_params.take().unwrap_or_default();
                if !params.is_empty() {
                    let entry: Vec<String> = params
                        .iter()
                        .map(|n| format!("{n} = DF64_B({n});"))
                        .collect();
                    let _ = write!(out, " {}", entry.join(" "));
                }
                body(&mut p, &mut out)?;
            }
            Tok::Punct("(") => {
                if depth_parens == 0 && last_ident_before_paren {
                    params_text.clear();
                    params_start = p.pos - 1;
                    if let Some((Tok::Ident(name), _)) = toks[..p.pos - 1]
                        .iter()
                        .rev()
                        .find(|(t, _)| !matches!(t, Tok::Trivia(_)))
                    {
                        function_name.clone_from(name);
                    }
                }
                depth_parens += 1;
                out.push('(');
            }
            Tok::Punct(")") => {
                depth_parens = depth_parens.saturating_sub(1);
                out.push(')');
                if depth_parens == 0 {
                    pending_params = Some(float_params(&params_text));
                }
            }
            Tok::Punct(";") => {
                pending_params = None;
                out.push(';');
            }
            _ => {
                if depth_parens > 0 {
                    params_text.push_str(tok.source());
                    params_text.push(' ');
                }
                out.push_str(tok.source());
            }
        }
        last_ident_before_paren = matches!(tok, Tok::Ident(_));
    }
    Ok(out)
}

/// The index after the `}` that closes the block whose `{` came just before `start`.
fn block_end(toks: &[(Tok, usize)], start: usize) -> usize {
    let mut depth = 1;
    for (k, (t, _)) in toks.iter().enumerate().skip(start) {
        match t {
            Tok::Punct("{") => depth += 1,
            Tok::Punct("}") => {
                depth -= 1;
                if depth == 0 {
                    return k + 1;
                }
            }
            _ => {}
        }
    }
    toks.len()
}

/// The function `DF64_B` calls where the barrier is on (defined in `df64.glsl`; left as written).
const BARRIER_FUNCTION: &str = "df64_b";

/// `source` without its barriers: each `DF64_B(e)` becomes `(e)` and each entry barrier
/// `x = DF64_B(x);` goes. The inverse of [`insert_barriers`] up to redundant parentheses.
pub fn strip_barriers(source: &str) -> Result<String, BarrierError> {
    let toks = scan_strict(source)?;
    let significant: Vec<usize> = (0..toks.len())
        .filter(|&k| !matches!(toks[k].0, Tok::Trivia(_)))
        .collect();
    let sig = |k: usize| significant.get(k).map(|&i| toks[i].0.source());
    let mut drop = vec![false; toks.len()];
    for k in 0..significant.len() {
        if sig(k) != Some("DF64_B") || sig(k + 1) != Some("(") {
            continue;
        }
        let name = k.checked_sub(2).and_then(sig);
        let statement_start = k < 3 || matches!(sig(k - 3), Some("{" | ";" | "}"));
        let entry = name.is_some()
            && statement_start
            && k.checked_sub(1).and_then(sig) == Some("=")
            && sig(k + 2) == name
            && sig(k + 3) == Some(")")
            && sig(k + 4) == Some(";");
        if entry {
            for j in k - 2..=k + 4 {
                drop[significant[j]] = true;
            }
        } else {
            drop[significant[k]] = true;
        }
    }
    Ok(toks
        .iter()
        .zip(&drop)
        .filter(|(_, d)| !**d)
        .map(|((t, _), _)| t.source())
        .collect())
}

/// The barriers `df64.glsl` places by hand, function by function: those its error-free
/// transforms rest on. The public transforms make their operands opaque and call the inner
/// forms, or (TwoSum, TwoDiff) make every step opaque; the inner forms, which the cores use on
/// operands known safe, keep the values whose folding breaks them (TwoSum's sum and s - a,
/// QuickTwoSum's sum, TwoProduct's rounded product). The rest of that module is plain float
/// code, which the probe and the known answers prove on each driver; a barrier on every
/// operation there cost about as much as the arithmetic it guarded.
pub const DF64_TRANSFORM_BARRIERS: &[(&str, &[&str])] = &[
    (
        "vec2 df64_quick_two_sum_inner(float a, float b) {",
        &["DF64_PRECISE float s = DF64_B(a + b);"],
    ),
    (
        "vec2 df64_quick_two_sum(float a, float b) {",
        &[
            "a = DF64_B(a); b = DF64_B(b);",
            "return df64_quick_two_sum_inner(a, b);",
        ],
    ),
    (
        "vec2 df64_two_sum_inner(float a, float b) {",
        &[
            "DF64_PRECISE float s = DF64_B(a + b);",
            "DF64_PRECISE float v = DF64_B(s - a);",
        ],
    ),
    (
        "vec2 df64_two_sum(float a, float b) {",
        &[
            "a = DF64_B(a); b = DF64_B(b);",
            "DF64_PRECISE float s = DF64_B(a + b);",
            "DF64_PRECISE float v = DF64_B(s - a);",
            "DF64_PRECISE float e = DF64_B(DF64_B(a - DF64_B(s - v)) + DF64_B(b - v));",
        ],
    ),
    (
        "vec2 df64_two_sum_sorted_inner(float a, float b) {",
        &["DF64_PRECISE float s = DF64_B(big + small);"],
    ),
    (
        "vec2 df64_two_sum_sorted(float a, float b) {",
        &[
            "a = DF64_B(a); b = DF64_B(b);",
            "return df64_two_sum_sorted_inner(a, b);",
        ],
    ),
    (
        "vec2 df64_two_diff(float a, float b) {",
        &[
            "a = DF64_B(a); b = DF64_B(b);",
            "DF64_PRECISE float s = DF64_B(a - b);",
            "DF64_PRECISE float v = DF64_B(s - a);",
            "DF64_PRECISE float e = DF64_B(DF64_B(a - DF64_B(s - v)) - DF64_B(b + v));",
        ],
    ),
    (
        "vec2 df64_two_prod_bits_inner(float a, float b) {",
        &["DF64_PRECISE float p = DF64_B(a * b);"],
    ),
    (
        "vec2 df64_two_prod_bits(float a, float b) {",
        &[
            "a = DF64_B(a); b = DF64_B(b);",
            "return df64_two_prod_bits_inner(a, b);",
        ],
    ),
    (
        "vec2 df64_two_sqr_inner(float a) {",
        &["DF64_PRECISE float p = DF64_B(a * a);"],
    ),
    (
        "vec2 df64_two_sqr(float a) {",
        &["a = DF64_B(a);", "return df64_two_sqr_inner(a);"],
    ),
];

/// Checks that `df64.glsl`'s error-free transforms keep every barrier of
/// [`DF64_TRANSFORM_BARRIERS`]; the error names the function's line and the statement.
pub fn check_transform_barriers(source: &str) -> Result<(), BarrierError> {
    for (head, statements) in DF64_TRANSFORM_BARRIERS {
        let line_of = |at: usize| 1 + source[..at].matches('\n').count();
        let start = source.find(head).ok_or_else(|| BarrierError {
            line: 1,
            detail: format!("no `{head}`: the error-free transform is missing"),
        })?;
        let end = source[start..]
            .find("\n}")
            .map_or(source.len(), |e| start + e);
        let body = &source[start..end];
        if let Some(missing) = statements.iter().find(|st| !body.contains(**st)) {
            return Err(BarrierError {
                line: line_of(start),
                detail: format!(
                    "`{head}` lost a barrier its exactness rests on: expected `{missing}`"
                ),
            });
        }
    }
    Ok(())
}

/// Checks that every arithmetic operation of `source` that may be a float one passes through
/// `DF64_B`, every compound assignment of one is spelt out and every float `in` parameter
/// passes it on entry: that `source` is what `insert_barriers_after` makes of it without its
/// barriers (whitespace and comments aside). The error names the first line that differs and
/// what was expected there.
pub fn check_barriers_after(needs: &str, source: &str) -> Result<(), BarrierError> {
    let expected = insert_barriers_after(needs, &strip_barriers(source)?)?;
    let significant = |src: &str| -> Result<Vec<(String, usize)>, BarrierError> {
        Ok(scan_strict(src)?
            .into_iter()
            .filter(|(t, _)| !matches!(t, Tok::Trivia(_)))
            .map(|(t, line)| (t.source().trim().to_string(), line))
            .collect())
    };
    let have = significant(source)?;
    let want = significant(&expected)?;
    let at = have
        .iter()
        .zip(&want)
        .position(|(h, w)| h.0 != w.0)
        .or((have.len() != want.len()).then(|| have.len().min(want.len())));
    let Some(at) = at else { return Ok(()) };
    let line = have.get(at).or(have.last()).map_or(1, |t| t.1);
    let context = |toks: &[(String, usize)]| {
        toks.iter()
            .skip(at)
            .take(8)
            .map(|t| t.0.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    };
    Err(BarrierError {
        line,
        detail: format!(
            "an operation without its barrier: expected `{}`, found `{}`",
            context(&want),
            context(&have)
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_every_arithmetic_operation() {
        let src = "float f(float a, vec2 b, out float c) {\n    DF64_PRECISE float t = 4097.0 * a;\n    \
                   float hi = t - (t - a);\n    c = hi;\n    c += b.x * b.y;\n    return -hi / 2.0;\n}\n";
        let out = insert_barriers(src).unwrap();
        assert!(
            out.contains("{ a = DF64_B(a); b = DF64_B(b);"),
            "float parameters pass the barrier on entry (not out ones): {out}"
        );
        assert!(
            out.contains("DF64_PRECISE float t = DF64_B(4097.0 * a);"),
            "{out}"
        );
        assert!(
            out.contains("float hi = DF64_B(t - DF64_B(t - a));"),
            "{out}"
        );
        assert!(out.contains("c = DF64_B(c + DF64_B(b.x * b.y));"), "{out}");
        assert!(out.contains("return DF64_B(-hi / 2.0);"), "{out}");
    }

    #[test]
    fn keeps_precedence_and_what_it_must_not_touch() {
        let src = "#define K 2.0\nconst float T[2] = float[](1.0 + 2.0, 3.0);\n\
                   vec2 g(int n) {\n#if K > 1\n    vec2 r = vec2(T[2 * n] + T[n] * K, 0.0);\n#endif\n    \
                   for (int i = 0; i < n; i++) { r.x -= 1.0; }\n    \
                   if (r.x > 0.0 && n == 1) r = r.x < 1.0 ? r * 2.0 : -r;\n    \
                   const float c = 1.0 / 3.0;\n    return r;\n}\n";
        let out = insert_barriers(src).unwrap();
        assert!(
            out.contains("const float T[2] = float[](1.0 + 2.0, 3.0);"),
            "{out}"
        );
        assert!(out.contains("#if K > 1\n"), "{out}");
        assert!(
            out.contains("vec2 r = vec2(DF64_B(T[2 * n] + DF64_B(T[n] * K)), 0.0);"),
            "{out}"
        );
        assert!(out.contains("for (int i = 0; i < n; i++) {"), "{out}");
        assert!(out.contains("r.x = DF64_B(r.x - 1.0);"), "{out}");
        assert!(
            out.contains("if (r.x > 0.0 && n == 1) r = r.x < 1.0 ? DF64_B(r * 2.0) : -r;"),
            "{out}"
        );
        assert!(out.contains("const float c = 1.0 / 3.0;"), "{out}");
        assert!(
            out.contains("vec2 g(int n) {"),
            "int parameters are left alone: {out}"
        );
    }

    #[test]
    fn leaves_integer_arithmetic_bare() {
        let needs = "uniform int u_n;\nint g(int k) { return k; }\n";
        let src = "float f(float x, int i) {\n    int a = i + u_n * 2, b = a - 1;\n    \
                   a += g(b) * 3;\n    uint u = floatBitsToUint(x) + 1u;\n    \
                   return x * float(a + int(u)) + float(b * i);\n}\n\
                   void h() {\n    float i = 0.5, k = i * 2.0;\n    k -= i;\n}\n";
        let out = insert_barriers_after(needs, src).unwrap();
        assert!(out.contains("int a = i + u_n * 2, b = a - 1;"), "{out}");
        assert!(out.contains("a += g(b) * 3;"), "{out}");
        assert!(out.contains("uint u = floatBitsToUint(x) + 1u;"), "{out}");
        assert!(
            out.contains("return DF64_B(DF64_B(x * float(a + int(u))) + float(b * i));"),
            "{out}"
        );
        // `i` is a float in h: a name's own function decides, and a declarator list counts.
        assert!(out.contains("float i = 0.5, k = DF64_B(i * 2.0);"), "{out}");
        assert!(out.contains("k = DF64_B(k - i);"), "{out}");
    }

    #[test]
    fn leaves_the_barrier_function_alone() {
        let src = "float df64_b(float x) { return uintBitsToFloat(floatBitsToUint(x) ^ z); }\n\
                   float f(float x) { return x + 1.0; }\n";
        let out = insert_barriers(src).unwrap();
        assert!(out.starts_with(src.lines().next().unwrap()), "{out}");
        assert!(
            out.contains("float f(float x) { x = DF64_B(x); return DF64_B(x + 1.0); }"),
            "{out}"
        );
    }

    #[test]
    fn strip_undoes_insert_and_check_finds_a_missing_barrier() {
        let src = "vec2 f(float a, float b) {\n    DF64_PRECISE float s = a + b;\n    \
                   DF64_PRECISE float e = b - (s - a);\n    s.x = 2.0;\n    \
                   return vec2(s, e * (a - b));\n}\n";
        let guarded = insert_barriers(src).unwrap();
        assert!(check_barriers_after("", &guarded).is_ok(), "{guarded}");
        let stripped = strip_barriers(&guarded).unwrap();
        assert!(!stripped.contains("DF64_B"), "{stripped}");
        let words = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
        assert_eq!(words(&insert_barriers(&stripped).unwrap()), words(&guarded));
        // One operation without its barrier, on line 3.
        let broken = guarded.replacen("DF64_B(s - a)", "(s - a)", 1);
        let e = check_barriers_after("", &broken).unwrap_err();
        assert_eq!(e.line, 3, "{e}");
        assert!(e.detail.contains("DF64_B ( s - a )"), "{e}");
        // A missing entry barrier.
        let broken = guarded.replacen("a = DF64_B(a);", "", 1);
        assert_eq!(check_barriers_after("", &broken).unwrap_err().line, 1);
    }

    #[test]
    fn reports_what_it_cannot_read() {
        let e = insert_barriers("float f() {\n  return 1.0 +;\n}\n").unwrap_err();
        assert_eq!(e.line, 2, "{e}");
        // Cut short or not GLSL: an error with its line, never a panic.
        for (text, line) in [
            ("float f() { for", 1),
            ("float f() { for (int i = 0;", 1),
            ("float f(float x) {\n  return x * µ;\n}\n", 2),
            ("float f() {\n  return 1.0;\n", 2),
        ] {
            let e = insert_barriers(text).unwrap_err();
            assert_eq!(e.line, line, "{text}: {e}");
        }
    }
}
