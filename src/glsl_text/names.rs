//! Names in GLSL text, read with the one scanner: renaming an identifier (the check gives each
//! routine of a shared program its own entry points) and whether a uniform is declared (a
//! uniform the driver dropped is declared; a misspelt one is not).

use super::scanner::{scan, Directives, Tok};

/// `text` with every identifier `from` (whole names, outside comments) renamed `to`; the rest
/// as written.
pub(crate) fn rename_identifier(text: &str, from: &str, to: &str) -> String {
    scan(text, Directives::AsCode)
        .iter()
        .map(|(t, _)| match t {
            Tok::Ident(name) if name == from => to,
            t => t.source(),
        })
        .collect()
}

/// Whether `source` declares a uniform `name`: a top-level declaration (up to its `;`, a
/// uniform block's members included) with the word `uniform` and the name, comments aside.
pub(crate) fn declares_uniform(source: &str, name: &str) -> bool {
    let (mut depth, mut uniform, mut named) = (0usize, false, false);
    for (t, _) in scan(source, Directives::Whole) {
        match t {
            Tok::Ident(w) if w == "uniform" => uniform = true,
            Tok::Ident(w) if w == name => named = true,
            Tok::Punct("{") => depth += 1,
            Tok::Punct("}") => {
                depth = depth.saturating_sub(1);
                if depth == 0 && !uniform {
                    named = false;
                }
            }
            Tok::Punct(";") if depth == 0 => {
                if uniform && named {
                    return true;
                }
                uniform = false;
                named = false;
            }
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renames_whole_identifiers_only() {
        let text = "vec4 df64gl_result(int c) { return df64gl_result_old(c); } // df64gl_result\n";
        assert_eq!(
            rename_identifier(text, "df64gl_result", "df64gl_result_3"),
            "vec4 df64gl_result_3(int c) { return df64gl_result_old(c); } // df64gl_result\n"
        );
    }

    #[test]
    fn a_uniform_is_declared_only_by_a_uniform_declaration_naming_it() {
        let src = "uniform int u_log2_n; // u_other\nuniform vec4 u_center_re,\n  u_center_im;\n\
                   float u_not_uniform;\n/* uniform float u_comment; */\n\
                   uniform Block { float u_member; };\nvoid f() { float u_local; }\n";
        assert!(declares_uniform(src, "u_log2_n"));
        assert!(declares_uniform(src, "u_center_im"));
        assert!(declares_uniform(src, "u_member"));
        for name in [
            "u_log2_N",
            "u_other",
            "u_not_uniform",
            "u_log2",
            "u_comment",
            "u_local",
        ] {
            assert!(!declares_uniform(src, name), "{name}");
        }
    }
}
