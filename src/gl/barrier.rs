//! The optimisation barrier for GLSL without `precise`: a source rewrite that passes the
//! result of every `+ - * /` inside function bodies through `DF64_B(...)`, turns compound
//! assignments into plain ones (`x += y` becomes `x = DF64_B(x + y)`) and passes each float
//! parameter through it on entry.
//!
//! Length: a small GLSL tokenizer, the rewrite and its tests in one place; issue 13 asks for the
//! fallback as a macro inside `df64.glsl` instead, which would retire most of this file.
//!
//! Why every operation: the previous barrier multiplied whole statements by a uniform set to 1.
//! Mesa's NIR algebraic pass factors a common multiplier out of a sum (`a*k + b*k` becomes
//! `k*(a + b)`, measured: on llvmpipe and softpipe `x*k + y*k` with k = 1.1 from a uniform
//! evaluates as `k*(x + y)` in 1,639 of 4,096 cases), so barriers on two operands merge and
//! move, and what they hid is again open to float algebra: the exported df64_mul, log and sin
//! lost their error terms. `DF64_B` is bit-level instead (`floatBitsToUint(x) ^ u_df64_zero`
//! with a uniform the application leaves at 0): no float rewrite applies to an integer
//! operation, and with one around each operation no expression has two float operations the
//! compiler could fuse or reassociate. Where `precise` exists, `DF64_B(x)` is just `(x)`.

use std::fmt::Write;

/// What the rewrite could not read (a construct the df64 modules do not use).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BarrierError {
    pub line: usize,
    pub detail: String,
}

impl std::fmt::Display for BarrierError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.detail)
    }
}

/// GLSL that defines the bit-level barrier: uniform, overloads for every type an operation in
/// the df64 modules yields (integer ones pass through unchanged) and `DF64_B`.
pub const BARRIER_DEFINITIONS: &str = "\
// Optimisation barrier: every operation of the df64 routines passes through DF64_B, so the
// compiler can neither reassociate, contract nor fold across it. u_df64_zero must be 0: leave
// it unset (uniforms start at 0) or set it to 0.
uniform highp uint u_df64_zero;
float df64_b(float x) { return uintBitsToFloat(floatBitsToUint(x) ^ u_df64_zero); }
vec2 df64_b(vec2 x) { return uintBitsToFloat(floatBitsToUint(x) ^ u_df64_zero); }
vec3 df64_b(vec3 x) { return uintBitsToFloat(floatBitsToUint(x) ^ u_df64_zero); }
vec4 df64_b(vec4 x) { return uintBitsToFloat(floatBitsToUint(x) ^ u_df64_zero); }
int df64_b(int x) { return x; }
ivec2 df64_b(ivec2 x) { return x; }
uint df64_b(uint x) { return x; }
#if !defined(GL_ES) && __VERSION__ >= 400
double df64_b(double x) { return x; }
dvec2 df64_b(dvec2 x) { return x; }
#endif
#define DF64_B(x) df64_b(x)
";

/// GLSL for df64gl 0.1.0's barrier, kept only so tests can force it and show that the
/// programs' self-tests catch what the probe's transform checks do not: each `DF64_PRECISE`
/// initialiser multiplied by a uniform set to 1 ([`insert_statement_multiply`]).
pub const STATEMENT_MULTIPLY_DEFINITIONS: &str = "\
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

/// `DF64_B` where `precise` protects the operations instead.
pub const NO_BARRIER_DEFINITION: &str = "#define DF64_B(x) (x)\n";

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
        let mut lhs = self.unary()?;
        while let Some(Tok::Punct(op)) = self.peek() {
            let op: &'static str = op;
            let Some(bp) = binding(op) else { break };
            if bp < min {
                break;
            }
            self.next()?;
            match op {
                "?" => {
                    let a = self.expr(1)?;
                    self.expect(":")?;
                    let b = self.expr(2)?;
                    lhs = format!("{lhs} ? {a} : {b}");
                }
                "=" => {
                    let rhs = self.expr(1)?;
                    lhs = format!("{lhs} = {rhs}");
                }
                "+=" | "-=" | "*=" | "/=" => {
                    let rhs = self.expr(1)?;
                    lhs = format!("{lhs} = DF64_B({lhs} {} ({rhs}))", &op[..1]);
                }
                _ if op.ends_with('=')
                    && op.len() >= 2
                    && !matches!(op, "==" | "!=" | "<=" | ">=") =>
                {
                    let rhs = self.expr(1)?;
                    lhs = format!("{lhs} {op} {rhs}");
                }
                _ => {
                    // Left-associative: the right side binds one level tighter.
                    let rhs = self.expr(bp + 1)?;
                    lhs = if matches!(op, "+" | "-" | "*" | "/") {
                        format!("DF64_B({lhs} {op} {rhs})")
                    } else {
                        format!("{lhs} {op} {rhs}")
                    };
                }
            }
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> Result<String, BarrierError> {
        if let Some(Tok::Punct(p)) = self.peek() {
            if matches!(*p, "-" | "+" | "!" | "~" | "++" | "--") {
                let p: &str = p;
                self.next()?;
                let operand = self.unary()?;
                return Ok(format!("{p}{operand}"));
            }
        }
        self.postfix()
    }

    fn postfix(&mut self) -> Result<String, BarrierError> {
        let mut s = match self.next()? {
            Tok::Ident(n) => n.clone(),
            Tok::Number(n) => n.clone(),
            Tok::Punct("(") => {
                let inner = self.expr(0)?;
                self.expect(")")?;
                format!("({inner})")
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
                    s = format!("{s}({})", args.join(", "));
                }
                Some(Tok::Punct("[")) => {
                    self.next()?;
                    s.push_str(&self.bracket()?);
                }
                Some(Tok::Punct(".")) => {
                    self.next()?;
                    match self.next()? {
                        Tok::Ident(f) => s = format!("{s}.{f}"),
                        t => return Err(self.err(format!("unexpected {} after `.`", text(t)))),
                    }
                }
                Some(Tok::Punct(p)) if *p == "++" || *p == "--" => {
                    let p: &str = p;
                    self.next()?;
                    s.push_str(p);
                }
                _ => return Ok(s),
            }
        }
    }
}

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
    let toks = tokenize(source)?;
    let mut p = Parser {
        toks: &toks,
        pos: 0,
        last_line: 1,
    };
    let mut out = String::with_capacity(source.len() * 2);
    // Global scope: copy tokens until a function definition's body.
    let mut pending_params: Option<Vec<String>> = None;
    let mut depth_parens = 0usize;
    let mut params_text = String::new();
    let mut last_ident_before_paren = false;
    while p.pos < toks.len() {
        let (tok, _) = &toks[p.pos];
        p.pos += 1;
        match tok {
            Tok::Punct("{") if depth_parens == 0 && pending_params.is_some() => {
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
            out.contains("float hi = DF64_B(t - (DF64_B(t - a)));"),
            "{out}"
        );
        assert!(
            out.contains("c = DF64_B(c + (DF64_B(b.x * b.y)));"),
            "{out}"
        );
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
            out.contains("vec2 r = vec2(DF64_B(T[DF64_B(2 * n)] + DF64_B(T[n] * K)), 0.0);"),
            "{out}"
        );
        assert!(out.contains("for (int i = 0; i < n; i++) {"), "{out}");
        assert!(out.contains("r.x = DF64_B(r.x - (1.0));"), "{out}");
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
    fn reports_what_it_cannot_read() {
        let e = insert_barriers("float f() {\n  return 1.0 +;\n}\n").unwrap_err();
        assert_eq!(e.line, 2, "{e}");
    }
}
