//! The check's programs cut to what they run: the export's GLSL without the functions and
//! constant tables a program never reaches, and the size of its code with every call inlined
//! (what a compile that inlines every call, as Mesa's and SwiftShader's do, takes its time
//! from). The npm module's `librarySlice` and `inlinedSize` (`js/index.js`) cut the same way.
//! Comments, preprocessor lines and names are told apart by the one scanner
//! ([`super::scanner`]).
//!
//! Why: every check program used to hold the whole export (about 120 KB), parsed twice (one
//! copy a stage) for every routine; the compilers drop what is not reached anyway, so the code
//! proven is the same.

use std::collections::{HashMap, HashSet};

use super::scanner::{scan, significant, uncommented, Directives, Tok};

/// One top-level piece of the source: a function (with the comment and header before it), or
/// anything else (declarations, constants, preprocessor lines).
struct Piece {
    name: Option<String>,
    /// The text without its comments.
    text: String,
    /// The names it uses.
    idents: HashSet<String>,
    /// The constant it declares, if it is a constant declaration (not a function).
    constant: Option<String>,
    /// Characters of the body, whitespace runs as one (functions only).
    own: usize,
    /// The library functions it calls, once per call site (functions only).
    sites: Vec<String>,
}

/// The source's pieces and, per function name, what it calls.
pub(crate) struct FunctionIndex {
    pieces: Vec<Piece>,
    calls: HashMap<String, HashSet<String>>,
    /// What the pieces other than functions call (a macro's body names what it calls).
    macro_calls: Vec<String>,
}

/// The identifiers followed by `(` in `code` (calls, and a function's own header), preprocessor
/// lines included (a macro's body names what it calls).
fn called_names(code: &str) -> Vec<String> {
    let toks: Vec<Tok> = significant(code).collect();
    toks.windows(2)
        .filter_map(|w| match w {
            [Tok::Ident(name), Tok::Punct("(")] => Some(name.clone()),
            _ => None,
        })
        .collect()
}

/// The name of the function whose header ends `head` (`... name(params)`), if it is one.
fn function_name(head: &str) -> Option<String> {
    let toks: Vec<Tok> = significant(head).collect();
    let (Tok::Punct(")"), inner) = toks.split_last()? else {
        return None;
    };
    let open = inner.iter().rposition(|t| *t == Tok::Punct("("))?;
    if inner[open + 1..]
        .iter()
        .any(|t| matches!(t, Tok::Punct("(" | ")")))
    {
        return None;
    }
    match inner[..open].last()? {
        Tok::Ident(name) => Some(name.clone()),
        _ => None,
    }
}

/// Splits `source` into top-level pieces by brace depth (comments skipped; preprocessor lines
/// at the top level stand alone, so that an `#if` around functions stays whichever are kept).
/// None where the braces do not balance: such a source is compiled whole.
pub(crate) fn function_index(source: &str) -> Option<FunctionIndex> {
    let mut pieces: Vec<Piece> = Vec::new();
    fn push(
        pieces: &mut Vec<Piece>,
        source: &str,
        from: &mut usize,
        to: usize,
        name: Option<String>,
    ) {
        if to > *from {
            let text = &source[*from..to];
            pieces.push(Piece {
                constant: if name.is_none() {
                    constant_name(text)
                } else {
                    None
                },
                name,
                text: uncommented(text),
                idents: identifiers(text).collect(),
                own: 0,
                sites: Vec::new(),
            });
        }
        *from = to;
    }
    let (mut depth, mut at, mut from, mut open) = (0i64, 0usize, 0usize, 0usize);
    for (tok, _) in scan(source, Directives::Whole) {
        let start = at;
        at += tok.source().len();
        match tok {
            Tok::Directive(_) if depth == 0 => {
                // The line stands alone, with the indentation before it.
                let line_start = source[..start].rfind('\n').map_or(0, |s| s + 1);
                let to = line_start.max(from);
                push(&mut pieces, source, &mut from, to, None);
                push(&mut pieces, source, &mut from, at, None);
            }
            Tok::Punct("{") => {
                if depth == 0 {
                    open = start;
                }
                depth += 1;
            }
            Tok::Punct("}") => {
                depth -= 1;
                if depth < 0 {
                    return None;
                }
                // A struct's declaration runs on to its ';'.
                if depth == 0 {
                    if let Some(name) = function_name(&source[from..open]) {
                        push(&mut pieces, source, &mut from, at, Some(name));
                    }
                }
            }
            Tok::Punct(";") if depth == 0 => push(&mut pieces, source, &mut from, at, None),
            _ => {}
        }
    }
    if depth != 0 {
        return None;
    }
    push(&mut pieces, source, &mut from, source.len(), None);
    let mut calls: HashMap<String, HashSet<String>> = pieces
        .iter()
        .filter_map(|p| p.name.clone())
        .map(|name| (name, HashSet::new()))
        .collect();
    for p in pieces.iter_mut() {
        let Some(name) = p.name.clone() else { continue };
        let body = &p.text[body_start(&p.text)..];
        p.own = body.split_whitespace().map(|w| w.len() + 1).sum();
        p.sites = called_names(body)
            .into_iter()
            .filter(|c| *c != name && calls.contains_key(c))
            .collect();
        if let Some(set) = calls.get_mut(&name) {
            set.extend(p.sites.iter().cloned());
        }
    }
    let macro_calls = pieces
        .iter()
        .filter(|p| p.name.is_none())
        .flat_map(|p| called_names(&p.text))
        .collect();
    Some(FunctionIndex {
        pieces,
        calls,
        macro_calls,
    })
}

impl FunctionIndex {
    /// The names of the functions the source defines, each once.
    pub(crate) fn function_names(&self) -> impl Iterator<Item = &str> {
        self.calls.keys().map(String::as_str)
    }

    /// The library functions `code` and the library's macros call, directly or not.
    fn reachable(&self, code: &str) -> HashSet<&str> {
        let mut seen: HashSet<&str> = HashSet::new();
        let mut stack: Vec<&str> = Vec::new();
        for name in called_names(code).iter().chain(&self.macro_calls) {
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
    let toks: Vec<Tok> = significant(text).collect();
    let rest = match toks.first()? {
        Tok::Ident(word) if word == "const" => &toks[1..],
        // A plain global: an array of a scalar type with an initialiser (`float T[3] = ...`).
        Tok::Ident(word) if ["float", "int", "uint"].contains(&word.as_str()) => {
            let eq = toks.iter().position(|t| *t == Tok::Punct("="))?;
            if eq == 0 || toks[eq - 1] != Tok::Punct("]") {
                return None;
            }
            &toks[1..]
        }
        _ => return None,
    };
    // A declaration of several names is kept whole: a comma outside brackets.
    let mut depth = 0i32;
    for t in rest {
        match t {
            Tok::Punct("(" | "[") => depth += 1,
            Tok::Punct(")" | "]") => depth -= 1,
            Tok::Punct(",") if depth == 0 => return None,
            _ => {}
        }
    }
    let eq = rest.iter().position(|t| *t == Tok::Punct("="))?;
    let mut decl = &rest[..eq];
    if let Some((Tok::Punct("]"), before)) = decl.split_last() {
        decl = &before[..before.iter().rposition(|t| *t == Tok::Punct("["))?];
    }
    match decl.last()? {
        Tok::Ident(name) => Some(name.clone()),
        _ => None,
    }
}

/// The identifiers `text` uses, outside comments.
fn identifiers(text: &str) -> impl Iterator<Item = String> {
    significant(text).filter_map(|t| match t {
        Tok::Ident(name) => Some(name),
        _ => None,
    })
}

/// Where a function's body starts: its first `{` outside comments.
fn body_start(text: &str) -> usize {
    let mut at = 0;
    for (t, _) in scan(text, Directives::AsCode) {
        if t == Tok::Punct("{") {
            return at;
        }
        at += t.source().len();
    }
    0
}

/// A library's source with its index, made once for every program cut from it.
pub(crate) struct Library<'a> {
    source: &'a str,
    index: Option<FunctionIndex>,
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
        let keep = index.reachable(code);
        let kept: Vec<&Piece> = index
            .pieces
            .iter()
            .filter(|p| p.name.as_deref().is_none_or(|n| keep.contains(n)))
            .collect();
        // A constant is kept where what is kept names it (twice over: a table may name another).
        let code_idents: HashSet<String> = identifiers(code).collect();
        let mut wanted: Vec<bool> = kept.iter().map(|p| p.constant.is_none()).collect();
        for _ in 0..2 {
            let named = |n: &String| {
                code_idents.contains(n)
                    || kept
                        .iter()
                        .zip(&wanted)
                        .any(|(p, w)| *w && p.idents.contains(n))
            };
            wanted = kept
                .iter()
                .map(|p| p.constant.as_ref().is_none_or(named))
                .collect();
        }
        kept.iter()
            .zip(&wanted)
            .filter(|(_, w)| **w)
            .map(|(p, _)| p.text.as_str())
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
                .filter(|n| index.calls.contains_key(n))
                .map(|n| index.inlined(&n, &mut memo, 0))
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
}
