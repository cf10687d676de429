//! The optimisation barrier for GLSL without `precise`, and the tool that keeps it complete.
//!
//! The barrier itself is GLSL and lives in `df64.glsl`: every `+ - * /` that may be a float
//! operation is written `DF64_B(a op b)`, compound assignments are spelt out
//! (`x = DF64_B(x + y)`), and each float parameter passes through it on entry. With
//! `DF64_BARRIER` 1, `DF64_B(x)` is `uintBitsToFloat(floatBitsToUint(x) ^ u_df64_zero)` with a
//! uniform the application leaves at 0; otherwise it is `(x)` and `precise` does the work.
//! [`BARRIER_DEFINE`](super::library::BARRIER_DEFINE) only sets that macro: nothing rewrites
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
//! This module: a small GLSL tokenizer and expression parser that writes those barriers
//! ([`insert_barriers_after`], how the `glsl/` files got theirs and how a user's module can
//! get its own), removes them ([`strip_barriers`]) and checks a module has every one
//! ([`check_barriers_after`]; `GlslLibrary::check_barriers` runs it on the built-in modules
//! in the tests, so an edit that forgets one fails). Also the 0.1.0 statement barrier, kept
//! for the tests that show why it was dropped.
//!
//! Length: the tokenizer, parser, checker and their tests in one place (one grammar).

use std::collections::HashSet;
use std::fmt::Write;

/// What the rewrite could not read (a construct the df64 modules do not use).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BarrierError {
    /// The line, from 1.
    pub line: usize,
    /// What was expected or could not be read.
    pub detail: String,
}

impl std::fmt::Display for BarrierError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.detail)
    }
}

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
pub fn insert_statement_multiply(source: &str) -> String {
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

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    /// Whitespace and comments, kept as written between statements.
    Trivia(String),
    /// A whole preprocessor line (with continuations), newline included.
    Directive(String),
    Ident(String),
    Number(String),
    Punct(&'static str),
}

impl Tok {
    /// The token as written.
    fn source(&self) -> &str {
        match self {
            Tok::Trivia(s) | Tok::Directive(s) | Tok::Ident(s) | Tok::Number(s) => s,
            Tok::Punct(p) => p,
        }
    }
}

const PUNCTS: [&str; 44] = [
    "<<=", ">>=", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "==", "!=", "<=",
    ">=", "&&", "||", "^^", "<<", ">>", "+", "-", "*", "/", "%", "<", ">", "=", "!", "~", "&", "|",
    "^", "?", ":", ",", ";", ".", "(", ")", "[", "]", "{",
];

fn tokenize(src: &str) -> Result<Vec<(Tok, usize)>, BarrierError> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line = 1;
    let mut at_line_start = true;
    while i < b.len() {
        let start = i;
        let c = b[i];
        if c == b'#' && at_line_start {
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
            while i < b.len() {
                if b[i].is_ascii_whitespace() {
                    if b[i] == b'\n' {
                        line += 1;
                        at_line_start = true;
                    }
                    i += 1;
                } else if src[i..].starts_with("//") {
                    while i < b.len() && b[i] != b'\n' {
                        i += 1;
                    }
                } else if src[i..].starts_with("/*") {
                    let end = src[i + 2..].find("*/").map_or(b.len(), |e| i + 2 + e + 2);
                    line += src[i..end].matches('\n').count();
                    i = end;
                } else {
                    break;
                }
            }
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
        } else if let Some(p) = PUNCTS
            .iter()
            .chain(["}"].iter())
            .find(|p| src[i..].starts_with(**p))
        {
            i += p.len();
            out.push((Tok::Punct(p), line));
        } else {
            return Err(BarrierError {
                line,
                detail: format!("unexpected character {:?}", c as char),
            });
        }
    }
    Ok(out)
}

const QUALIFIERS: [&str; 11] = [
    "const",
    "precise",
    "DF64_PRECISE",
    "highp",
    "mediump",
    "lowp",
    "in",
    "out",
    "inout",
    "invariant",
    "QF128_PRECISE",
];

struct Parser<'a> {
    toks: &'a [(Tok, usize)],
    /// Names known to hold integers in the function being rewritten ([`declared_names`]).
    ints: HashSet<String>,
    pos: usize,
    /// Line of the last token taken, for errors.
    last_line: usize,
}

impl<'a> Parser<'a> {
    fn skip_trivia(&mut self) {
        while let Some((Tok::Trivia(_), _)) = self.toks.get(self.pos) {
            self.pos += 1;
        }
    }

    /// The next significant token, without consuming it.
    fn peek(&mut self) -> Option<&'a Tok> {
        self.skip_trivia();
        self.toks.get(self.pos).map(|t| &t.0)
    }

    fn peek_at(&self, mut k: usize) -> Option<&'a Tok> {
        let mut p = self.pos;
        loop {
            match self.toks.get(p) {
                Some((Tok::Trivia(_), _)) => p += 1,
                Some((t, _)) => {
                    if k == 0 {
                        return Some(t);
                    }
                    k -= 1;
                    p += 1;
                }
                None => return None,
            }
        }
    }

    fn line(&self) -> usize {
        self.last_line
    }

    fn err(&self, detail: impl Into<String>) -> BarrierError {
        BarrierError {
            line: self.line(),
            detail: detail.into(),
        }
    }

    fn next(&mut self) -> Result<&'a Tok, BarrierError> {
        self.skip_trivia();
        let t = self
            .toks
            .get(self.pos)
            .map(|t| &t.0)
            .ok_or_else(|| self.err("unexpected end of source"))?;
        self.last_line = self.toks[self.pos].1;
        self.pos += 1;
        Ok(t)
    }

    fn expect(&mut self, p: &str) -> Result<(), BarrierError> {
        match self.next()? {
            Tok::Punct(q) if *q == p => Ok(()),
            t => Err(self.err(format!("expected `{p}`, found {}", text(t)))),
        }
    }

    fn is_punct(&mut self, p: &str) -> bool {
        matches!(self.peek(), Some(Tok::Punct(q)) if *q == p)
    }

    /// `[...]` after its `[` was taken: an index, an array size, or empty (`float[](`).
    fn bracket(&mut self) -> Result<String, BarrierError> {
        let inner = if self.is_punct("]") {
            String::new()
        } else {
            self.expr(0)?
        };
        self.expect("]")?;
        Ok(format!("[{inner}]"))
    }

    /// Expression at or above binding power `min` (assignment is the lowest, 1).
    fn expr(&mut self, min: u8) -> Result<String, BarrierError> {
        Ok(self.typed_expr(min)?.text)
    }

    /// [`Parser::expr`] with whether the expression is known to be an integer.
    fn typed_expr(&mut self, min: u8) -> Result<Expr, BarrierError> {
        let mut lhs = self.unary()?;
        while let Some(Tok::Punct(op)) = self.peek() {
            let op: &'static str = op;
            let Some(bp) = binding(op) else { break };
            if bp < min {
                break;
            }
            self.next()?;
            lhs = match op {
                "?" => {
                    let a = self.typed_expr(1)?;
                    self.expect(":")?;
                    let b = self.typed_expr(2)?;
                    Expr::new(
                        format!("{} ? {} : {}", lhs.text, a.text, b.text),
                        a.int && b.int,
                    )
                }
                "=" => {
                    let rhs = self.typed_expr(1)?;
                    Expr::new(format!("{} = {}", lhs.text, rhs.text), lhs.int)
                }
                "+=" | "-=" | "*=" | "/=" => {
                    let rhs = self.typed_expr(1)?;
                    if lhs.int && rhs.int {
                        Expr::new(format!("{} {op} {}", lhs.text, rhs.text), true)
                    } else {
                        // A compound assignment is an operation too: spelt out, then guarded.
                        let right = rhs.operand();
                        Expr::new(
                            format!("{0} = DF64_B({0} {1} {right})", lhs.text, &op[..1]),
                            false,
                        )
                    }
                }
                _ if op.ends_with('=')
                    && op.len() >= 2
                    && !matches!(op, "==" | "!=" | "<=" | ">=") =>
                {
                    let rhs = self.typed_expr(1)?;
                    Expr::new(format!("{} {op} {}", lhs.text, rhs.text), lhs.int)
                }
                _ => {
                    // Left-associative: the right side binds one level tighter.
                    let rhs = self.typed_expr(bp + 1)?;
                    let text = format!("{} {op} {}", lhs.text, rhs.text);
                    let arithmetic = matches!(op, "+" | "-" | "*" | "/");
                    if arithmetic && !(lhs.int && rhs.int) {
                        Expr::new(format!("DF64_B({text})"), false)
                    } else {
                        // Integer arithmetic is exact: nothing to guard. Shifts, bit and
                        // remainder operators take integers only.
                        let int = (arithmetic && lhs.int && rhs.int)
                            || matches!(op, "<<" | ">>" | "&" | "|" | "^" | "%");
                        Expr::new(text, int)
                    }
                }
            };
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> Result<Expr, BarrierError> {
        if let Some(Tok::Punct(p)) = self.peek() {
            if matches!(*p, "-" | "+" | "!" | "~" | "++" | "--") {
                let p: &str = p;
                self.next()?;
                let operand = self.unary()?;
                return Ok(Expr::new(
                    format!("{p}{}", operand.text),
                    operand.int && p != "!",
                ));
            }
        }
        self.postfix()
    }

    fn postfix(&mut self) -> Result<Expr, BarrierError> {
        let mut e = match self.next()? {
            Tok::Ident(n) => Expr::new(n.clone(), self.ints.contains(n.as_str())),
            Tok::Number(n) => Expr::new(n.clone(), is_int_literal(n)),
            Tok::Punct("(") => {
                let inner = self.typed_expr(0)?;
                self.expect(")")?;
                if inner.is_barrier_call() {
                    // DF64_B(...) groups what it guards: the parentheses are redundant.
                    inner
                } else {
                    Expr::new(format!("({})", inner.text), inner.int)
                }
            }
            t => return Err(self.err(format!("unexpected {} in an expression", text(t)))),
        };
        loop {
            match self.peek() {
                Some(Tok::Punct("(")) => {
                    self.next()?;
                    let mut args = Vec::new();
                    if !self.is_punct(")") {
                        loop {
                            args.push(self.expr(1)?);
                            if self.is_punct(",") {
                                self.next()?;
                            } else {
                                break;
                            }
                        }
                    }
                    self.expect(")")?;
                    // A call gives an integer where it is a function declared to return one
                    // or an integer constructor or built-in (the callee's name decided `int`).
                    let int = e.int || INT_BUILTINS.contains(&e.text.as_str());
                    e = Expr::new(format!("{}({})", e.text, args.join(", ")), int);
                }
                Some(Tok::Punct("[")) => {
                    self.next()?;
                    e.text.push_str(&self.bracket()?);
                }
                Some(Tok::Punct(".")) => {
                    self.next()?;
                    match self.next()? {
                        // A swizzle of an integer vector is an integer; a field, unknown.
                        Tok::Ident(f) => {
                            let swizzle = f.chars().all(|c| "xyzwrgbastpq".contains(c));
                            e = Expr::new(format!("{}.{f}", e.text), e.int && swizzle);
                        }
                        t => return Err(self.err(format!("unexpected {} after `.`", text(t)))),
                    }
                }
                Some(Tok::Punct(p)) if *p == "++" || *p == "--" => {
                    let p: &str = p;
                    self.next()?;
                    e.text.push_str(p);
                }
                _ => return Ok(e),
            }
        }
    }
}

/// An expression as rewritten, and whether it is known to be an integer (then its arithmetic
/// needs no barrier: integer operations are exact).
struct Expr {
    text: String,
    int: bool,
}

impl Expr {
    fn new(text: String, int: bool) -> Self {
        Expr { text, int }
    }

    /// `DF64_B(...)` and nothing else.
    fn is_barrier_call(&self) -> bool {
        let Some(inner) = self.text.strip_prefix("DF64_B(") else {
            return false;
        };
        let mut depth = 1;
        for (k, c) in inner.char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        return k + 1 == inner.len();
                    }
                }
                _ => {}
            }
        }
        false
    }

    /// The text as the right operand of a binary operator: in parentheses unless it is one
    /// primary (a name, number, call, or guarded operation).
    fn operand(&self) -> String {
        let mut depth = 0;
        let mut top_level_space = false;
        for c in self.text.chars() {
            match c {
                '(' | '[' => depth += 1,
                ')' | ']' => depth -= 1,
                ' ' if depth == 0 => top_level_space = true,
                _ => {}
            }
        }
        let unary = self.text.starts_with(['-', '+', '!', '~']);
        if top_level_space || unary {
            format!("({})", self.text)
        } else {
            self.text.clone()
        }
    }
}

/// Integer types: names declared with one hold integers.
const INT_TYPES: [&str; 8] = [
    "int", "uint", "ivec2", "ivec3", "ivec4", "uvec2", "uvec3", "uvec4",
];

/// Constructors and built-ins that return integers.
const INT_BUILTINS: [&str; 17] = [
    "int",
    "uint",
    "ivec2",
    "ivec3",
    "ivec4",
    "uvec2",
    "uvec3",
    "uvec4",
    "floatBitsToInt",
    "floatBitsToUint",
    "findMSB",
    "findLSB",
    "bitCount",
    "bitfieldExtract",
    "bitfieldInsert",
    "bitfieldReverse",
    "textureSize",
];

/// `7`, `0x3f3504f3u`, `12u`: an integer literal (no point, exponent or float suffix).
fn is_int_literal(n: &str) -> bool {
    if let Some(hex) = n.strip_prefix("0x").or_else(|| n.strip_prefix("0X")) {
        return hex
            .trim_end_matches(['u', 'U'])
            .chars()
            .all(|c| c.is_ascii_hexdigit());
    }
    n.trim_end_matches(['u', 'U'])
        .chars()
        .all(|c| c.is_ascii_digit())
}

/// The names `toks` declares (variables, parameters, uniforms, functions) with an integer type
/// and those it declares with another. A name in both is not known to be an integer, so its
/// arithmetic stays guarded.
fn declared_names<'t>(toks: impl Iterator<Item = &'t Tok>) -> (HashSet<String>, HashSet<String>) {
    let idents: Vec<&str> = toks
        .filter_map(|t| match t {
            Tok::Trivia(_) | Tok::Directive(_) => None,
            t => Some(t.source()),
        })
        .collect();
    let mut int = HashSet::new();
    let mut other = HashSet::new();
    let is_name = |s: &str| s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_');
    for w in idents.windows(2) {
        let (ty, name) = (w[0], w[1]);
        if !is_name(ty) || !is_name(name) || KEYWORDS.contains(&ty) || QUALIFIERS.contains(&ty) {
            continue;
        }
        if INT_TYPES.contains(&ty) {
            int.insert(name.to_string());
        } else {
            other.insert(name.to_string());
        }
    }
    // Later declarators of a list (`float a = 1.0, k = 2.0;`) have no type before them: in a
    // statement that starts with a type and a name, each name after a comma outside
    // parentheses and brackets has that type.
    for statement in idents.split(|t| matches!(*t, ";" | "{" | "}")) {
        let mut k = 0;
        while k < statement.len()
            && (KEYWORDS.contains(&statement[k]) || QUALIFIERS.contains(&statement[k]))
        {
            k += 1;
            if statement.get(k) == Some(&"(") {
                // layout(...)
                k += statement[k..]
                    .iter()
                    .position(|t| *t == ")")
                    .map_or(0, |e| e + 1);
            }
        }
        let (Some(ty), Some(name)) = (statement.get(k), statement.get(k + 1)) else {
            continue;
        };
        if !is_name(ty) || !is_name(name) {
            continue;
        }
        let set = if INT_TYPES.contains(ty) {
            &mut int
        } else {
            &mut other
        };
        let mut depth = 0i32;
        for w in statement[k + 2..].windows(2) {
            match w[0] {
                "(" | "[" => depth += 1,
                ")" | "]" => depth -= 1,
                "," if depth == 0 && is_name(w[1]) => {
                    set.insert(w[1].to_string());
                }
                _ => {}
            }
        }
    }
    (int, other)
}

/// The global-scope tokens of `toks`: everything outside function bodies (and struct bodies).
fn global_scope(toks: &[(Tok, usize)]) -> impl Iterator<Item = &Tok> {
    let mut depth = 0usize;
    toks.iter().filter_map(move |(t, _)| {
        match t {
            Tok::Punct("{") => depth += 1,
            Tok::Punct("}") => {
                depth = depth.saturating_sub(1);
                return None;
            }
            _ => {}
        }
        (depth == 0).then_some(t)
    })
}

/// Words that can precede a name without being its type.
const KEYWORDS: [&str; 9] = [
    "return", "uniform", "flat", "smooth", "layout", "struct", "else", "case", "define",
];

/// Binding power of a binary (or ternary, or assignment) operator; `None` ends an expression.
fn binding(op: &str) -> Option<u8> {
    Some(match op {
        "=" | "+=" | "-=" | "*=" | "/=" | "%=" | "<<=" | ">>=" | "&=" | "|=" | "^=" => 1,
        "?" => 2,
        "||" => 3,
        "^^" => 4,
        "&&" => 5,
        "|" => 6,
        "^" => 7,
        "&" => 8,
        "==" | "!=" => 9,
        "<" | ">" | "<=" | ">=" => 10,
        "<<" | ">>" => 11,
        "+" | "-" => 12,
        "*" | "/" | "%" => 13,
        _ => return None,
    })
}

fn text(t: &Tok) -> String {
    format!("`{}`", t.source().trim())
}

/// Rewrites every function body of `source` (see the module comment). Global declarations,
/// `const` declarations, loop headers and preprocessor lines are kept as written.
pub fn insert_barriers(source: &str) -> Result<String, BarrierError> {
    insert_barriers_after("", source)
}

/// [`insert_barriers`] for a module that comes after `needs` (the modules it needs, whose
/// declarations tell which names hold integers; they are not rewritten).
pub fn insert_barriers_after(needs: &str, source: &str) -> Result<String, BarrierError> {
    let toks = tokenize(source)?;
    let needs = tokenize(needs)?;
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
    let toks = tokenize(source)?;
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
        Ok(tokenize(src)?
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

/// Names of the `in` float/vec parameters in a parameter list's text.
fn float_params(params: &str) -> Vec<String> {
    params
        .split(',')
        .filter_map(|decl| {
            let words: Vec<&str> = decl
                .split_whitespace()
                .filter(|w| !w.starts_with("//"))
                .collect();
            let (ty, name) = match words.as_slice() {
                [.., ty, name] => (*ty, *name),
                _ => return None,
            };
            let writable_in = !words
                .iter()
                .any(|w| matches!(*w, "out" | "inout" | "const"));
            let float = matches!(ty, "float" | "vec2" | "vec3" | "vec4");
            (writable_in && float && name.chars().all(|c| c.is_alphanumeric() || c == '_'))
                .then(|| name.to_string())
        })
        .collect()
}

/// A function body after its `{`, up to and including the matching `}`.
fn body(p: &mut Parser<'_>, out: &mut String) -> Result<(), BarrierError> {
    loop {
        // Trivia between statements, kept as written.
        while let Some((Tok::Trivia(s), _)) = p.toks.get(p.pos) {
            out.push_str(s);
            p.pos += 1;
        }
        let Some((tok, _)) = p.toks.get(p.pos) else {
            return Err(p.err("unterminated function body"));
        };
        match tok {
            Tok::Punct("}") => {
                p.pos += 1;
                out.push('}');
                return Ok(());
            }
            Tok::Punct("{") => {
                p.pos += 1;
                out.push('{');
                body(p, out)?;
            }
            Tok::Directive(d) => {
                p.pos += 1;
                out.push_str(d);
            }
            _ => statement(p, out)?,
        }
    }
}

fn statement(p: &mut Parser<'_>, out: &mut String) -> Result<(), BarrierError> {
    let Some(first) = p.peek() else {
        return Err(p.err("unexpected end of source"));
    };
    match first {
        Tok::Ident(k) if k == "if" || k == "while" => {
            let k = k.clone();
            p.next()?;
            p.expect("(")?;
            let cond = p.expr(0)?;
            p.expect(")")?;
            let _ = write!(out, "{k} ({cond}) ");
            sub_statement(p, out)
        }
        Tok::Ident(k) if k == "else" => {
            p.next()?;
            out.push_str("else ");
            sub_statement(p, out)
        }
        Tok::Ident(k) if k == "for" => {
            // Loop headers are integer bookkeeping: kept as written.
            p.next()?;
            p.skip_trivia();
            out.push_str("for ");
            let mut depth = 0;
            loop {
                let (t, _) = &p.toks[p.pos];
                p.pos += 1;
                match t {
                    Tok::Punct("(") => {
                        depth += 1;
                        out.push('(');
                    }
                    Tok::Punct(")") => {
                        depth -= 1;
                        out.push(')');
                        if depth == 0 {
                            break;
                        }
                    }
                    t => out.push_str(t.source()),
                }
                if p.pos >= p.toks.len() {
                    return Err(p.err("unterminated for header"));
                }
            }
            out.push(' ');
            sub_statement(p, out)
        }
        Tok::Ident(k) if k == "do" => {
            p.next()?;
            out.push_str("do ");
            sub_statement(p, out)
        }
        Tok::Ident(k) if matches!(k.as_str(), "break" | "continue" | "discard") => {
            let k = k.clone();
            p.next()?;
            p.expect(";")?;
            let _ = write!(out, "{k};");
            Ok(())
        }
        Tok::Ident(k) if k == "return" => {
            p.next()?;
            if p.is_punct(";") {
                p.next()?;
                out.push_str("return;");
            } else {
                let e = p.expr(0)?;
                p.expect(";")?;
                let _ = write!(out, "return {e};");
            }
            Ok(())
        }
        Tok::Punct(";") => {
            p.next()?;
            out.push(';');
            Ok(())
        }
        _ => declaration_or_expression(p, out),
    }
}

/// The statement after `if (...)`, `else`, `for (...)` or `do`: a block or a single one.
fn sub_statement(p: &mut Parser<'_>, out: &mut String) -> Result<(), BarrierError> {
    if p.is_punct("{") {
        p.next()?;
        out.push('{');
        body(p, out)
    } else {
        statement(p, out)
    }
}

fn declaration_or_expression(p: &mut Parser<'_>, out: &mut String) -> Result<(), BarrierError> {
    // Qualifiers, then a type followed by a name: a declaration.
    let mut k = 0;
    let mut quals = Vec::new();
    while let Some(Tok::Ident(q)) = p.peek_at(k) {
        if QUALIFIERS.contains(&q.as_str()) {
            quals.push(q.clone());
            k += 1;
        } else {
            break;
        }
    }
    // Two names in a row start a declaration: a built-in type or a struct or macro one
    // (`cplx r = ...`).
    let is_decl = matches!(
        (p.peek_at(k), p.peek_at(k + 1)),
        (Some(Tok::Ident(_)), Some(Tok::Ident(_)))
    );
    if !is_decl {
        let e = p.expr(0)?;
        p.expect(";")?;
        let _ = write!(out, "{e};");
        return Ok(());
    }
    if quals.iter().any(|q| q == "const") {
        // Constant expressions cannot call functions: as written.
        while let Some((t, _)) = p.toks.get(p.pos) {
            p.pos += 1;
            match t {
                Tok::Punct(";") => {
                    out.push(';');
                    return Ok(());
                }
                t => out.push_str(t.source()),
            }
        }
        return Err(p.err("unterminated declaration"));
    }
    for q in &quals {
        p.next()?;
        let _ = write!(out, "{q} ");
    }
    let Tok::Ident(ty) = p.next()? else {
        return Err(p.err("expected a type"));
    };
    let _ = write!(out, "{ty} ");
    loop {
        let Tok::Ident(name) = p.next()? else {
            return Err(p.err("expected a variable name"));
        };
        out.push_str(name);
        if p.is_punct("[") {
            p.next()?;
            out.push_str(&p.bracket()?);
        }
        if p.is_punct("=") {
            p.next()?;
            let e = p.expr(1)?;
            let _ = write!(out, " = {e}");
        }
        if p.is_punct(",") {
            p.next()?;
            out.push_str(", ");
        } else {
            p.expect(";")?;
            out.push(';');
            return Ok(());
        }
    }
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
    }
}
