//! The one GLSL scanner: what is a comment, a preprocessor line, a name, a number or an
//! operator. The barrier tool parses its tokens; the slicer splits a library into functions
//! and finds the names they call with them. Every token is its source text as written, so the
//! tokens of a text, joined, give the text back.

use super::BarrierError;

/// One token, as written.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Tok {
    /// Whitespace and comments, kept as written between statements.
    Trivia(String),
    /// A whole preprocessor line (with continuations), newline included.
    Directive(String),
    Ident(String),
    Number(String),
    Punct(&'static str),
    /// A character that is none of the above (GLSL has no strings; a `#` inside a line, a
    /// line continuation, anything outside ASCII).
    Other(String),
}

impl Tok {
    /// The token as written.
    pub(crate) fn source(&self) -> &str {
        match self {
            Tok::Trivia(s) | Tok::Directive(s) | Tok::Ident(s) | Tok::Number(s) | Tok::Other(s) => {
                s
            }
            Tok::Punct(p) => p,
        }
    }
}

/// Operators and punctuation, longest first.
const PUNCTS: [&str; 45] = [
    "<<=", ">>=", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "==", "!=", "<=",
    ">=", "&&", "||", "^^", "<<", ">>", "+", "-", "*", "/", "%", "<", ">", "=", "!", "~", "&", "|",
    "^", "?", ":", ",", ";", ".", "(", ")", "[", "]", "{", "}",
];

/// How a preprocessor line is scanned.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Directives {
    /// One [`Tok::Directive`] a line: what the barrier tool copies as written.
    Whole,
    /// Scanned like code (`#` is [`Tok::Other`]): where the names a line uses count.
    AsCode,
}

/// `src` as tokens, each with its line (from 1). Never fails: what is not GLSL is
/// [`Tok::Other`].
pub(crate) fn scan(src: &str, directives: Directives) -> Vec<(Tok, usize)> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line = 1;
    let mut at_line_start = true;
    while i < b.len() {
        let start = i;
        let c = b[i];
        if c == b'#' && at_line_start && directives == Directives::Whole {
            while i < b.len() && b[i] != b'\n' {
                if b[i] == b'\\' && i + 1 < b.len() && b[i + 1] == b'\n' {
                    i += 1;
                    line += 1;
                }
                i += 1;
            }
            i = (i + 1).min(b.len());
            out.push((Tok::Directive(src[start..i].to_string()), line));
            line += 1;
            continue;
        }
        if c.is_ascii_whitespace() || src[i..].starts_with("//") || src[i..].starts_with("/*") {
            i = trivia_end(src, i, &mut line, &mut at_line_start);
            out.push((Tok::Trivia(src[start..i].to_string()), line));
            continue;
        }
        at_line_start = false;
        if c.is_ascii_alphabetic() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push((Tok::Ident(src[start..i].to_string()), line));
        } else if c.is_ascii_digit() || (c == b'.' && i + 1 < b.len() && b[i + 1].is_ascii_digit())
        {
            while i < b.len() {
                let d = b[i];
                let exp_sign = (d == b'+' || d == b'-') && matches!(b[i - 1], b'e' | b'E');
                if d.is_ascii_alphanumeric() || d == b'.' || exp_sign {
                    i += 1;
                } else {
                    break;
                }
            }
            out.push((Tok::Number(src[start..i].to_string()), line));
        } else if let Some(p) = PUNCTS.iter().find(|p| src[i..].starts_with(**p)) {
            i += p.len();
            out.push((Tok::Punct(p), line));
        } else {
            // One whole character, so that the next start is on a character boundary.
            i += src[i..].chars().next().map_or(1, char::len_utf8);
            out.push((Tok::Other(src[start..i].to_string()), line));
        }
    }
    out
}

/// [`scan`] for text that must be GLSL: the first [`Tok::Other`] is an error.
pub(crate) fn scan_strict(src: &str) -> Result<Vec<(Tok, usize)>, BarrierError> {
    let toks = scan(src, Directives::Whole);
    match toks.iter().find(|(t, _)| matches!(t, Tok::Other(_))) {
        Some((t, line)) => Err(BarrierError {
            line: *line,
            detail: format!("unexpected character {:?}", t.source()),
        }),
        None => Ok(toks),
    }
}

/// Where the run of whitespace and comments from `i` ends; counts its lines.
fn trivia_end(src: &str, mut i: usize, line: &mut usize, at_line_start: &mut bool) -> usize {
    let b = src.as_bytes();
    while i < b.len() {
        if b[i].is_ascii_whitespace() {
            if b[i] == b'\n' {
                *line += 1;
                *at_line_start = true;
            }
            i += 1;
        } else if src[i..].starts_with("//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if src[i..].starts_with("/*") {
            let end = src[i + 2..].find("*/").map_or(b.len(), |e| i + 2 + e + 2);
            *line += src[i..end].matches('\n').count();
            i = end;
        } else {
            break;
        }
    }
    i
}

/// Trivia without its comments: the whitespace, and a block comment's line breaks.
fn without_comments(trivia: &str, out: &mut String) {
    let mut rest = trivia;
    while !rest.is_empty() {
        if rest.starts_with("//") {
            rest = &rest[rest.find('\n').unwrap_or(rest.len())..];
        } else if let Some(inner) = rest.strip_prefix("/*") {
            let end = inner.find("*/").map_or(rest.len(), |e| e + 4);
            out.extend(rest[..end].chars().filter(|&c| c == '\n'));
            rest = &rest[end..];
        } else {
            let ws = rest.find('/').unwrap_or(rest.len()).max(1);
            out.push_str(&rest[..ws]);
            rest = &rest[ws..];
        }
    }
}

/// GLSL without its comments (preprocessor lines included); the line breaks kept.
pub(crate) fn uncommented(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (t, _) in scan(text, Directives::AsCode) {
        match t {
            Tok::Trivia(s) => without_comments(&s, &mut out),
            t => out.push_str(t.source()),
        }
    }
    out
}

/// The tokens of `text` that are not trivia, preprocessor lines scanned as code.
pub(crate) fn significant(text: &str) -> impl Iterator<Item = Tok> {
    scan(text, Directives::AsCode)
        .into_iter()
        .map(|(t, _)| t)
        .filter(|t| !matches!(t, Tok::Trivia(_)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_join_to_the_text() {
        let text = "#define A(x) \\\n  (x)\nfloat f(float y) { /* é */ return 1.5e-3 * y; } // ü\n#x é\nfloat é;";
        for mode in [Directives::Whole, Directives::AsCode] {
            let joined: String = scan(text, mode).iter().map(|(t, _)| t.source()).collect();
            assert_eq!(joined, text);
        }
        let whole = scan(text, Directives::Whole);
        assert!(matches!(&whole[0].0, Tok::Directive(d) if d == "#define A(x) \\\n  (x)\n"));
        assert!(whole
            .iter()
            .any(|(t, l)| *t == Tok::Number("1.5e-3".into()) && *l == 3));
        assert!(scan_strict(text).is_err());
    }

    #[test]
    fn uncommented_keeps_lines() {
        assert_eq!(uncommented("a /* b\nc */ d // e\nf"), "a \n d \nf");
        assert_eq!(uncommented("#define K 2 // two\nx"), "#define K 2 \nx");
        assert_eq!(uncommented("a / b /* open"), "a / b ");
    }
}
