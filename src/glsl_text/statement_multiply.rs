//! df64gl 0.1.0's barrier, kept only so that tests can force it
//! (`DF64GL_PROTECTION=statement-multiply`, which `cli/tests/selftest.rs` runs through the
//! command line) and show that the programs' self-tests catch what the probe's transform
//! checks do not. It multiplied each `DF64_PRECISE` initialiser by a uniform set to 1; Mesa
//! factors such a multiplier out of a sum, which is why every operation now has a barrier of
//! its own (see the barrier module).

/// GLSL for df64gl 0.1.0's barrier, kept only so tests can force it and show that the
/// programs' self-tests catch what the probe's transform checks do not: each `DF64_PRECISE`
/// initialiser multiplied by a uniform set to 1 ([`insert_statement_multiply`]).
pub(crate) const STATEMENT_MULTIPLY_DEFINITIONS: &str = "\
uniform float u_df64_one;
float df64_opaque(float x) { return x * u_df64_one; }
vec2 df64_opaque(vec2 x) { return x * u_df64_one; }
vec3 df64_opaque(vec3 x) { return x * u_df64_one; }
vec4 df64_opaque(vec4 x) { return x * u_df64_one; }
";

/// The 0.1.0 barrier: `DF64_PRECISE T x = e;` becomes `DF64_PRECISE T x = df64_opaque(e);`
/// (every declarator of such a statement). Measured broken on Mesa (see the module text).
pub(crate) fn insert_statement_multiply(source: &str) -> String {
    let mut out = String::with_capacity(source.len() * 5 / 4);
    let bytes = source.as_bytes();
    let mut i = 0;
    let mut line_start = true;
    while i < bytes.len() {
        let rest = &source[i..];
        if line_start && rest.trim_start_matches([' ', '\t']).starts_with('#') {
            let end = rest.find('\n').map_or(source.len(), |e| i + e + 1);
            out.push_str(&source[i..end]);
            i = end;
            continue;
        }
        if rest.starts_with("DF64_PRECISE") {
            let end = rest.find(';').map_or(source.len(), |e| i + e);
            out.push_str(&wrap_initialisers(&source[i..end]));
            i = end;
            line_start = false;
            continue;
        }
        let c = rest.chars().next().unwrap_or(' ');
        out.push(c);
        line_start = c == '\n';
        i += c.len_utf8();
    }
    out
}

/// `DF64_PRECISE T a = e1, b = e2` with each `ei` wrapped in `df64_opaque(...)`.
fn wrap_initialisers(statement: &str) -> String {
    let mut out = String::new();
    let mut depth = 0i32;
    let mut in_init = false;
    let chars: Vec<char> = statement.chars().collect();
    for (k, &c) in chars.iter().enumerate() {
        let prev = if k > 0 { chars[k - 1] } else { ' ' };
        let next = chars.get(k + 1).copied().unwrap_or(' ');
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            _ => {}
        }
        if depth == 0 && c == '=' && !"=<>!".contains(prev) && next != '=' && !in_init {
            out.push_str("= df64_opaque(");
            in_init = true;
            continue;
        }
        if depth == 0 && c == ',' && in_init {
            out.push_str("),");
            in_init = false;
            continue;
        }
        out.push(c);
    }
    if in_init {
        out.push(')');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statement_multiply_wraps_precise_initialisers_only() {
        let src = "#define DF64_PRECISE\nvec2 f(float a, float b) {\n    DF64_PRECISE float s = a + b, e = (a == b ? 1.0 : 2.0) * s;\n    float t = a * b;\n    DF64_PRECISE vec2 r;\n    return vec2(s, e + t);\n}\n";
        let out = insert_statement_multiply(src);
        assert!(out.starts_with("#define DF64_PRECISE\n"), "{out}");
        assert!(
            out.contains("DF64_PRECISE float s = df64_opaque( a + b), e = df64_opaque( (a == b ? 1.0 : 2.0) * s);"),
            "{out}"
        );
        assert!(out.contains("    float t = a * b;"), "{out}");
        assert!(out.contains("DF64_PRECISE vec2 r;"), "{out}");
    }
}
