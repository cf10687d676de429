//! The expression parser behind the barrier tool: statements and expressions of a function
//! body, rewritten with a barrier around each float operation, and which names hold integers
//! (their arithmetic is exact and stays bare).

use std::collections::HashSet;
use std::fmt::Write;

use super::scanner::Tok;
use super::BarrierError;

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

pub(super) struct Parser<'a> {
    pub(super) toks: &'a [(Tok, usize)],
    /// Names known to hold integers in the function being rewritten ([`declared_names`]).
    pub(super) ints: HashSet<String>,
    pub(super) pos: usize,
    /// Line of the last token taken, for errors.
    pub(super) last_line: usize,
}

impl<'a> Parser<'a> {
    pub(super) fn skip_trivia(&mut self) {
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

    pub(super) fn err(&self, detail: impl Into<String>) -> BarrierError {
        BarrierError {
            line: self.line(),
            detail: detail.into(),
        }
    }

    pub(super) fn next(&mut self) -> Result<&'a Tok, BarrierError> {
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

    pub(super) fn expect(&mut self, p: &str) -> Result<(), BarrierError> {
        match self.next()? {
            Tok::Punct(q) if *q == p => Ok(()),
            t => Err(self.err(format!("expected `{p}`, found {}", text(t)))),
        }
    }

    pub(super) fn is_punct(&mut self, p: &str) -> bool {
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
    pub(super) fn expr(&mut self, min: u8) -> Result<String, BarrierError> {
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
pub(super) fn declared_names<'t>(
    toks: impl Iterator<Item = &'t Tok>,
) -> (HashSet<String>, HashSet<String>) {
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
pub(super) fn global_scope(toks: &[(Tok, usize)]) -> impl Iterator<Item = &Tok> {
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

pub(super) fn text(t: &Tok) -> String {
    format!("`{}`", t.source().trim())
}

/// Rewrites every function body of `source` (see the module comment). Global declarations,
/// Names of the `in` float/vec parameters in a parameter list's text.
pub(super) fn float_params(params: &str) -> Vec<String> {
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
pub(super) fn body(p: &mut Parser<'_>, out: &mut String) -> Result<(), BarrierError> {
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
                let Some((t, _)) = p.toks.get(p.pos) else {
                    return Err(p.err("unterminated for header"));
                };
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
