//! The check's programs cut to what they run: the export's GLSL without the functions and
//! constant tables a program never reaches, and the size of its code with every call inlined
//! (what a compile that inlines every call, as Mesa's and SwiftShader's do, takes its time
//! from). The same scan as `librarySlice` and `inlinedSize` in the npm module (`js/index.js`).
//!
//! Why: every check program used to hold the whole export (about 120 KB), parsed twice (one
//! copy a stage) for every routine; the compilers drop what is not reached anyway, so the code
//! proven is the same.

use std::collections::{HashMap, HashSet};

/// One top-level piece of the source: a function (with the comment and header before it), or
/// anything else (declarations, constants, preprocessor lines).
struct Piece<'a> {
    name: Option<String>,
    text: &'a str,
    /// Characters of the body, whitespace runs as one (functions only).
    own: usize,
    /// The library functions it calls, once per call site (functions only).
    sites: Vec<String>,
}

/// The source's pieces and, per function name, what it calls.
pub(crate) struct FunctionIndex<'a> {
    pieces: Vec<Piece<'a>>,
    calls: HashMap<String, HashSet<String>>,
}

/// GLSL without its comments (it has no strings, so every `//` and `/*` starts one); the line
/// breaks kept.
pub(crate) fn uncommented(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find('/') {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        if tail.starts_with("//") {
            let end = tail.find('\n').unwrap_or(tail.len());
            rest = &tail[end..];
        } else if let Some(inner) = tail.strip_prefix("/*") {
            let end = inner.find("*/").map_or(tail.len(), |e| e + 4);
            out.extend(tail[..end].chars().filter(|&c| c == '\n'));
            rest = &tail[end..];
        } else {
            out.push('/');
            rest = &tail[1..];
        }
    }
    out.push_str(rest);
    out
}

/// The identifiers followed by `(` in `code` (calls, and a function's own header).
fn called_names(code: &str) -> Vec<&str> {
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            let mut j = i;
            while j < bytes.len() && bytes[j].is_ascii_whitespace() {
                j += 1;
            }
            if bytes.get(j) == Some(&b'(') {
                out.push(&code[start..i]);
            }
        } else if c.is_ascii_digit() {
            // A number's digits and suffix are not a name.
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
        } else {
            i += 1;
        }
    }
    out
}

/// The name of the function whose header ends `head` (`... name(params)`), if it is one.
fn function_name(head: &str) -> Option<&str> {
    let head = head.trim_end();
    let inner = head.strip_suffix(')')?;
    let open = inner.rfind('(')?;
    if inner[open + 1..].contains(['(', ')']) {
        return None;
    }
    let before = inner[..open].trim_end();
    let start = before
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .map_or(0, |i| i + 1);
    let name = &before[start..];
    (!name.is_empty() && !name.starts_with(|c: char| c.is_ascii_digit())).then_some(name)
}

/// Splits `source` into top-level pieces by brace depth (comments skipped; preprocessor lines
/// at the top level stand alone, so that an `#if` around functions stays whichever are kept).
/// None where the braces do not balance: such a source is compiled whole.
pub(crate) fn function_index(source: &str) -> Option<FunctionIndex<'_>> {
    let bytes = source.as_bytes();
    let n = bytes.len();
    let mut pieces: Vec<Piece> = Vec::new();
    fn push<'a>(
        pieces: &mut Vec<Piece<'a>>,
        source: &'a str,
        from: &mut usize,
        to: usize,
        name: Option<String>,
    ) {
        if to > *from {
            pieces.push(Piece {
                name,
                text: &source[*from..to],
                own: 0,
                sites: Vec::new(),
            });
        }
        *from = to;
    }
    let (mut depth, mut i, mut from, mut open) = (0i64, 0usize, 0usize, 0usize);
    while i < n {
        let c = bytes[i];
        if c == b'/' && bytes.get(i + 1) == Some(&b'/') {
            i = source[i..].find('\n').map_or(n, |e| i + e);
        } else if c == b'/' && bytes.get(i + 1) == Some(&b'*') {
            i = source[i + 2..].find("*/").map_or(n, |e| i + e + 4);
        } else if c == b'#' && depth == 0 {
            let start = source[..i].rfind('\n').map_or(0, |s| s + 1);
            let to = start.max(from);
            push(&mut pieces, source, &mut from, to, None);
            // The line and its continuations.
            let mut e = i;
            i = loop {
                match source[e..].find('\n') {
                    Some(k) if k > 0 && bytes[e + k - 1] == b'\\' => e += k + 1,
                    Some(k) => break e + k + 1,
                    None => break n,
                }
            };
            push(&mut pieces, source, &mut from, i, None);
        } else {
            match c {
                b'{' => {
                    if depth == 0 {
                        open = i;
                    }
                    depth += 1;
                }
                b'}' => {
                    depth -= 1;
                    if depth < 0 {
                        return None;
                    }
                    if depth == 0 {
                        // A struct's declaration runs on to its ';'.
                        if let Some(name) = function_name(&uncommented(&source[from..open])) {
                            push(
                                &mut pieces,
                                source,
                                &mut from,
                                i + 1,
                                Some(name.to_string()),
                            );
                        }
                    }
                }
                b';' if depth == 0 => push(&mut pieces, source, &mut from, i + 1, None),
                _ => {}
            }
            i += 1;
        }
    }
    if depth != 0 {
        return None;
    }
    push(&mut pieces, source, &mut from, n, None);
    let mut calls: HashMap<String, HashSet<String>> = pieces
        .iter()
        .filter_map(|p| p.name.clone())
        .map(|name| (name, HashSet::new()))
        .collect();
    for p in pieces.iter_mut() {
        let Some(name) = p.name.clone() else { continue };
        let body = uncommented(&p.text[p.text.find('{').unwrap_or(0)..]);
        p.own = body.split_whitespace().map(|w| w.len() + 1).sum();
        p.sites = called_names(&body)
            .into_iter()
            .filter(|c| *c != name && calls.contains_key(*c))
            .map(str::to_string)
            .collect();
        if let Some(set) = calls.get_mut(&name) {
            set.extend(p.sites.iter().cloned());
        }
    }
    Some(FunctionIndex { pieces, calls })
}

impl FunctionIndex<'_> {
    /// The library functions `code` calls, directly or not.
    fn reachable(&self, code: &str) -> HashSet<&str> {
        let mut seen: HashSet<&str> = HashSet::new();
        let mut stack: Vec<&str> = Vec::new();
        let code = uncommented(code);
        for name in called_names(&code) {
            if let Some((key, _)) = self.calls.get_key_value(name) {
                if seen.insert(key.as_str()) {
                    stack.push(key.as_str());
                }
            }
        }
        while let Some(f) = stack.pop() {
            for c in self.calls.get(f).into_iter().flatten() {
                if seen.insert(c.as_str()) {
                    stack.push(c.as_str());
                }
            }
        }
        seen
    }

    /// The size of a function with every call inlined: its own body plus its callees' at each
    /// call site (the largest of its definitions, where the preprocessor picks one).
    fn inlined(&self, name: &str, memo: &mut HashMap<String, usize>, depth: usize) -> usize {
        if let Some(&s) = memo.get(name) {
            return s;
        }
        let mut size = 0;
        for p in self
            .pieces
            .iter()
            .filter(|p| p.name.as_deref() == Some(name))
        {
            let mut t = p.own;
            if depth < 64 {
                for c in &p.sites {
                    t += self.inlined(c, memo, depth + 1);
                }
            }
            size = size.max(t);
        }
        memo.insert(name.to_string(), size);
        size
    }
}

/// The name a top-level `const` declaration defines, or a plain global array with an
/// initialiser (the GLSL ES export's tables), if `text` is one.
fn constant_name(text: &str) -> Option<String> {
    let t = uncommented(text);
    let t = t.trim_start();
    let rest = match t.strip_prefix("const") {
        Some(rest) if rest.starts_with(char::is_whitespace) => rest,
        Some(_) => return None,
        // A plain global: an array of a scalar type with an initialiser (`float T[3] = ...`).
        None => {
            let word = t.split(|c: char| !c.is_ascii_alphanumeric()).next()?;
            let head = &t[..t.find('=')?];
            if !["float", "int", "uint"].contains(&word) || !head.trim_end().ends_with(']') {
                return None;
            }
            &t[word.len()..]
        }
    };
    // A declaration of several names is kept whole: a comma outside brackets.
    let mut depth = 0i32;
    for c in rest.chars() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ',' if depth == 0 => return None,
            _ => {}
        }
    }
    let eq = rest.find('=')?;
    let decl = rest[..eq].trim_end();
    let decl = match decl.strip_suffix(']') {
        Some(d) => d[..d.rfind('[')?].trim_end(),
        None => decl,
    };
    let start = decl
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .map_or(0, |i| i + 1);
    let name = &decl[start..];
    (!name.is_empty()).then(|| name.to_string())
}

/// Whether `name` occurs in `text` as a whole identifier.
fn names(text: &str, name: &str) -> bool {
    let is_word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
    text.match_indices(name).any(|(i, _)| {
        !is_word(text[..i].chars().next_back()) && !is_word(text[i + name.len()..].chars().next())
    })
}

/// A library's source with its index, made once for every program cut from it.
pub(crate) struct Library<'a> {
    source: &'a str,
    index: Option<FunctionIndex<'a>>,
}

impl<'a> Library<'a> {
    /// Indexes `source` ([`function_index`]).
    pub(crate) fn new(source: &'a str) -> Self {
        Library {
            source,
            index: function_index(source),
        }
    }

    /// The source without the functions and constant tables `code` never reaches (roots: what
    /// `code` calls and what the library's macros call, as `DF64_B` calls `df64_b`), and
    /// without its comments. The source as it is where its braces do not balance.
    pub(crate) fn slice(&self, code: &str) -> String {
        let Some(index) = &self.index else {
            return self.source.to_string();
        };
        let others: String = index
            .pieces
            .iter()
            .filter(|p| p.name.is_none())
            .map(|p| uncommented(p.text))
            .collect();
        let keep = index.reachable(&format!("{code}\n{others}"));
        let kept: Vec<&Piece> = index
            .pieces
            .iter()
            .filter(|p| p.name.as_deref().is_none_or(|n| keep.contains(n)))
            .collect();
        let constants: Vec<Option<String>> = kept
            .iter()
            .map(|p| {
                if p.name.is_none() {
                    constant_name(p.text)
                } else {
                    None
                }
            })
            .collect();
        // A constant is kept where what is kept names it (twice over: a table may name another).
        let mut wanted: Vec<bool> = constants.iter().map(|c| c.is_none()).collect();
        for _ in 0..2 {
            let text: String = kept
                .iter()
                .zip(&wanted)
                .filter(|(_, w)| **w)
                .map(|(p, _)| uncommented(p.text))
                .chain(std::iter::once(code.to_string()))
                .collect();
            wanted = constants
                .iter()
                .map(|c| c.as_deref().is_none_or(|n| names(&text, n)))
                .collect();
        }
        kept.iter()
            .zip(&wanted)
            .filter(|(_, w)| **w)
            .map(|(p, _)| uncommented(p.text))
            .collect()
    }

    /// The size of `code` with every call into the source inlined (characters): what a
    /// program's compile time follows on a compiler that inlines every call. 0 where the
    /// source's braces do not balance.
    pub(crate) fn inlined_size(&self, code: &str) -> usize {
        let Some(index) = &self.index else {
            return 0;
        };
        let mut memo = HashMap::new();
        let code = uncommented(code);
        code.len()
            + called_names(&code)
                .into_iter()
                .filter(|n| index.calls.contains_key(*n))
                .map(|n| index.inlined(n, &mut memo, 0))
                .sum::<usize>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOURCE: &str = "// a library\n#define TWICE(x) twice_impl(x)\nconst float TABLE[2] = float[](1.0, 2.0);\nfloat GLOBAL_TABLE[2] = float[](3.0, 4.0);\nfloat UNUSED_TABLE[2] = float[](5.0, 6.0);\nconst float UNUSED = 3.0;\nconst float PAIR_A = 1.0, PAIR_B = 2.0;\nstruct Pair { float a; float b; };\n\
        float twice_impl(float x) { return 2.0 * x; }\n\
        // leaf\nfloat leaf(float x) { return x + TABLE[1] + GLOBAL_TABLE[0]; }\n\
        #if FAST\nfloat mid(float x) { return leaf(x); }\n#else\nfloat mid(float x) {\n    if (x > 0.0) { return leaf(leaf(x)); }\n    return TWICE(x);\n}\n#endif\n\
        float unused(float x) { return mid(x) + UNUSED; }\n";

    #[test]
    fn slice_keeps_what_is_reached_and_the_macros_callees() {
        let s = Library::new(SOURCE).slice("void main() { float y = mid(1.0); }");
        for kept in [
            "float leaf(",
            "float mid(float x) { return leaf(x); }",
            "return leaf(leaf(x));",
            "float twice_impl(",
            "const float TABLE[2]",
            "float GLOBAL_TABLE[2]",
            "struct Pair",
            "#if FAST",
            "#else",
            "#endif",
            "#define TWICE(x)",
            "PAIR_A = 1.0, PAIR_B",
        ] {
            assert!(s.contains(kept), "{kept} missing from\n{s}");
        }
        for gone in [
            "float unused(",
            "UNUSED = 3.0",
            "UNUSED_TABLE",
            "// leaf",
            "// a library",
        ] {
            assert!(!s.contains(gone), "{gone} kept in\n{s}");
        }
    }

    #[test]
    fn an_unbalanced_source_is_kept_whole() {
        let broken = "float f() { return 1.0; \nfloat g() { return 2.0; }\n";
        assert_eq!(Library::new(broken).slice("f()"), broken);
        assert_eq!(Library::new(broken).inlined_size("f()"), 0);
    }

    #[test]
    fn inlined_size_counts_each_call_site() {
        let one = Library::new(SOURCE).inlined_size("leaf(1.0)");
        let mid = Library::new(SOURCE).inlined_size("mid(1.0)");
        // mid's larger definition calls leaf twice (and twice_impl through the macro's text is
        // not a call site of mid's).
        assert!(mid > 2 * (one - "leaf(1.0)".len()), "{one} {mid}");
        assert_eq!(
            Library::new(SOURCE).inlined_size("nothing()"),
            "nothing()".len()
        );
    }

    #[test]
    fn uncommented_keeps_lines() {
        assert_eq!(uncommented("a /* b\nc */ d // e\nf"), "a \n d \nf");
    }
}
