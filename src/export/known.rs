//! The known answers every check runs (the GL check [`check_context`], the npm module's
//! `check(gl)` and `checkWebGPU`, the wgpu check): each exported df64 and qf128 routine, and
//! each vector and matrix routine, on operands across the exponent range, ±0, ±inf and NaN,
//! with what it must return (generated with the oracle and gated on the CPU mirror by
//! `df64gl js`, committed as `assets/known-answers.json`), and the one rule each check judges
//! them by (each routine's [`JudgeRule`], stored with it; [`judge_routines`] and
//! [`judge_vec_routines`] apply them).
//!
//! [`check_context`]: super::context_check::check_context

use serde::{Deserialize, Serialize};

/// The known answers, as `df64gl js` writes them.
const KNOWN_ANSWERS_JSON: &str = include_str!("../../assets/known-answers.json");

/// The df64 domain's floor where subnormals are flushed (2^-126): a low word cannot hold less.
pub const DF64_FLOOR: f64 = 1.1754943508222875e-38;

/// What a case must return.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[repr(u8)]
pub enum AnswerKind {
    /// Within the bound of the value `want` (ulp48 or ulp96 of `want[0]`), beyond the floor.
    Value = 0,
    /// NaN, any payload.
    Nan = 1,
    /// Exactly `want[0]` in the first word (a zero's sign counts) and zeros after it.
    Exact = 2,
    /// ±0 in every word.
    Zero = 3,
}

impl AnswerKind {
    /// Its name in the known answers' `judging.kinds`.
    pub fn name(self) -> &'static str {
        match self {
            AnswerKind::Value => "value",
            AnswerKind::Nan => "nan",
            AnswerKind::Exact => "exact",
            AnswerKind::Zero => "zero",
        }
    }

    /// The kind of a stored byte, by the name the known answers give its code.
    fn by_code(names: &[String], b: u8) -> Option<Self> {
        let name = names.get(b as usize)?;
        [Self::Value, Self::Nan, Self::Exact, Self::Zero]
            .into_iter()
            .find(|k| k.name() == name)
    }
}

/// The value of a sum of doubles, exactly summed (Shewchuk's expansion) then rounded once.
pub(crate) fn exact_sum(terms: &[f64]) -> f64 {
    let mut e: Vec<f64> = Vec::new();
    for &t in terms {
        let mut q = t;
        let mut h = Vec::with_capacity(e.len() + 1);
        for &c in &e {
            let s = q + c;
            let bb = s - q;
            let err = (q - (s - bb)) + (c - bb);
            if err != 0.0 {
                h.push(err);
            }
            q = s;
        }
        h.push(q);
        e = h;
    }
    e.iter().sum()
}

/// 2^e with 2^e <= |x| < 2^(e+1).
fn exponent(x: f64) -> i32 {
    let a = x.abs();
    let mut e = a.log2().floor() as i32;
    if 2f64.powi(e) > a {
        e -= 1;
    }
    if 2f64.powi(e + 1) <= a {
        e += 1;
    }
    e
}

/// The special kinds of a case judged: `Some(0)` for a right NaN, exact word or zero,
/// `Some(inf)` for a wrong one (or a NaN where a value is wanted), `None` for a value to
/// measure (every word finite).
fn judge_special(got: &[f32], kind: AnswerKind, want: [f64; 3]) -> Option<f64> {
    let rest_zero = got.iter().skip(1).all(|w| *w == 0.0);
    let first = got.first().copied().unwrap_or(f32::NAN);
    let verdict = |ok: bool| Some(if ok { 0.0 } else { f64::INFINITY });
    match kind {
        AnswerKind::Nan => verdict(first.is_nan()),
        _ if got.iter().any(|w| w.is_nan()) => verdict(false),
        AnswerKind::Exact => {
            let v = want[0];
            let same =
                first as f64 == v && (v != 0.0 || first.is_sign_negative() == v.is_sign_negative());
            verdict(same && rest_zero)
        }
        AnswerKind::Zero => verdict(first == 0.0 && rest_zero),
        AnswerKind::Value if !got.iter().all(|w| w.is_finite()) => verdict(false),
        AnswerKind::Value => None,
    }
}

/// |got - want| (the words summed exactly) beyond `floor`.
fn excess(got: &[f32], want: [f64; 3], floor: f64) -> f64 {
    let mut terms: Vec<f64> = got.iter().map(|w| *w as f64).collect();
    terms.extend(want.iter().map(|w| -w));
    (exact_sum(&terms).abs() - floor).max(0.0)
}

/// How a routine's results are judged, stored with each routine of the known answers. The
/// Rust checks and the npm module's judge both read it from there and hold no copy of their
/// own, so that one rule cannot be changed in one of them alone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JudgeRule {
    /// The unit of errors and bounds: "ulp48", "ulp96", or a vector routine's (its catalog
    /// label).
    pub unit: String,
    /// The unit's size. Where not 0: an ulp at this many bits of the wanted value,
    /// 2^(e - bits + 1) with 2^e <= |want| < 2^(e+1). Where 0: the size stored with each
    /// result component (a vector routine's bound is stated against its products' magnitudes
    /// as often as against its result).
    pub bits: u32,
    /// The absolute error not counted: what a low word flushed to zero can lose (2^-126 for
    /// df64; none for qf128, whose known answers keep every word normal; 2^-122 for a vector
    /// routine, a few operations' worth).
    pub floor: f64,
    /// How a result's NaN words match the mirror's.
    pub nan: NanMatch,
}

/// How NaN words match the mirror's ([`JudgeRule::nan`]). An answer of kind
/// [`AnswerKind::Nan`] is right with any payload either way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NanMatch {
    /// Any NaN matches any NaN (drivers differ in the payloads they make).
    AnyPayload,
    /// Only the same bits match.
    SameBits,
}

impl JudgeRule {
    /// The rule of the df64 (2 words) or qf128 (4) routines.
    pub fn for_words(words: usize) -> Self {
        let df64 = words == 2;
        JudgeRule {
            unit: if df64 { "ulp48" } else { "ulp96" }.into(),
            bits: if df64 { 48 } else { 96 },
            floor: if df64 { DF64_FLOOR } else { 0.0 },
            nan: NanMatch::AnyPayload,
        }
    }

    /// The rule of a vector or matrix routine whose unit is `unit` (its catalog label).
    pub fn for_vector(unit: &str) -> Self {
        JudgeRule {
            unit: unit.into(),
            bits: 0,
            floor: crate::numeric::vec_catalog::VEC_FLOOR,
            nan: NanMatch::AnyPayload,
        }
    }

    /// The error of `got` (a result's words) in this rule's unit, beyond the floor, against
    /// what the case wants; `unit_size` is the unit's size at this result where the rule has
    /// no bits. 0 for a right special value and infinity for a wrong one.
    pub fn error(&self, got: &[f32], kind: AnswerKind, want: [f64; 3], unit_size: f64) -> f64 {
        judge_special(got, kind, want).unwrap_or_else(|| {
            let err = excess(got, want, self.floor);
            if self.bits > 0 {
                let e = exponent(want[0]).saturating_sub(self.bits as i32 - 1);
                err / 2f64.powi(e)
            } else if err == 0.0 {
                0.0
            } else if unit_size > 0.0 {
                err / unit_size
            } else {
                f64::INFINITY
            }
        })
    }

    /// Whether `got` equals the mirror's words, NaN words as [`Self::nan`] says.
    pub fn matches_mirror(&self, got: &[f32], mirror: &[f32]) -> bool {
        got.len() == mirror.len()
            && got.iter().zip(mirror).all(|(g, m)| {
                g.to_bits() == m.to_bits()
                    || self.nan == NanMatch::AnyPayload && g.is_nan() && m.is_nan()
            })
    }
}

/// What the known answers say for every routine alike.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JudgingFile {
    /// The kinds of answer by their byte codes: `kinds[b]` names code `b` ("value", "nan",
    /// "exact", "zero").
    pub kinds: Vec<String>,
    /// Characters of inlined code a check's program of small routines holds at most; a
    /// routine at or past it gets a program of its own (measured on SwiftShader, which inlines
    /// every call: an empty program pair compiles in 55 to 67 ms, atan2's 64,000 characters in
    /// about 1 s).
    pub program_group_size: usize,
}

impl JudgingFile {
    /// What `df64gl js` writes.
    pub fn current() -> Self {
        JudgingFile {
            kinds: [
                AnswerKind::Value,
                AnswerKind::Nan,
                AnswerKind::Exact,
                AnswerKind::Zero,
            ]
            .iter()
            .map(|k| k.name().to_string())
            .collect(),
            program_group_size: 24_000,
        }
    }
}

/// One routine's row in a known-answer set.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct KnownRoutine {
    /// The routine ("add", "exp", ...).
    pub name: String,
    /// Its GLSL call on `a` and `b` (vec2 for df64, vec4 for qf128).
    pub call: String,
    /// Its cases.
    pub cases: usize,
    /// The largest bound of its cases (ulp48 or ulp96; 0: exact).
    pub bound: f64,
    /// How its results are judged.
    pub rule: JudgeRule,
}

/// A known-answer set as stored: headers, then per case (in the routines' order) the words of
/// a, b and the mirror's result and the bound (f32s, hex of their bits), the exact value's three
/// f64 words (hex) and the kind (hex bytes). Hex keeps every bit through JSON.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct KnownSetFile {
    /// 2 (df64) or 4 (qf128).
    pub words: usize,
    /// The routines.
    pub routines: Vec<KnownRoutine>,
    /// 3 words + 1 f32s per case, 8 hex digits each.
    pub f32: String,
    /// 3 f64s per case, 16 hex digits each.
    pub f64: String,
    /// 1 byte per case, 2 hex digits each.
    pub kind: String,
}

/// One vector or matrix routine's row in the known answers (`df64_vec.glsl`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct KnownVecRoutine {
    /// The routine ("vec3_add", "mat4_mul", ...; the catalog's name).
    pub name: String,
    /// `vec4 df64gl_vec_out(int e, int t)` in GLSL ([`super::vec_shader`]).
    pub glsl: String,
    /// The same in WGSL.
    pub wgsl: String,
    /// Evaluations (each a full set of operands).
    pub evaluations: usize,
    /// df64 numbers each evaluation reads.
    pub inputs: usize,
    /// Result components of each evaluation.
    pub outputs: usize,
    /// The documented bound, in its rule's unit.
    pub bound: f64,
    /// How its results are judged.
    pub rule: JudgeRule,
}

/// The vector routines' known answers as stored: per evaluation its operands' words (2 f32s a
/// number), then per result component the mirror's words; per component the exact value's three
/// f64 words and the unit's size there (f64s), and its kind (a byte). Hex as [`KnownSetFile`].
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct KnownVecSetFile {
    /// The routines.
    pub routines: Vec<KnownVecRoutine>,
    /// 2 words per operand number, then 2 per result component, per evaluation.
    pub f32: String,
    /// 3 + 1 f64s per result component.
    pub f64: String,
    /// 1 byte per result component.
    pub kind: String,
}

/// Both sets as stored.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct KnownAnswersFile {
    /// What holds for every routine.
    pub judging: JudgingFile,
    /// The df64 routines.
    pub df64: KnownSetFile,
    /// The qf128 routines.
    pub qf128: KnownSetFile,
    /// The df64 vector and matrix routines.
    pub df64vec: KnownVecSetFile,
}

/// Hex digits of f32 bits.
pub fn hex_f32(values: &[f32]) -> String {
    values
        .iter()
        .map(|v| format!("{:08x}", v.to_bits()))
        .collect()
}

/// Hex digits of f64 bits.
pub fn hex_f64(values: &[f64]) -> String {
    values
        .iter()
        .map(|v| format!("{:016x}", v.to_bits()))
        .collect()
}

/// Hex digits of bytes.
pub fn hex_u8(values: &[u8]) -> String {
    values.iter().map(|v| format!("{v:02x}")).collect()
}

fn unhex(text: &str, digits: usize) -> Option<Vec<u64>> {
    if !text.len().is_multiple_of(digits) || !text.is_ascii() {
        return None;
    }
    (0..text.len() / digits)
        .map(|i| u64::from_str_radix(text.get(i * digits..(i + 1) * digits)?, 16).ok())
        .collect()
}

/// A set's three hex strings: f32 words, f64 words and kind bytes.
type Decoded = (Vec<f32>, Vec<f64>, Vec<AnswerKind>);

fn decode_hex(f32s: &str, f64s: &str, kinds: &str, names: &[String]) -> Result<Decoded, String> {
    let f32 = unhex(f32s, 8)
        .ok_or("f32 words")?
        .into_iter()
        .map(|b| f32::from_bits(b as u32))
        .collect();
    let f64 = unhex(f64s, 16)
        .ok_or("f64 words")?
        .into_iter()
        .map(f64::from_bits)
        .collect();
    let kind = unhex(kinds, 2)
        .ok_or("kinds")?
        .into_iter()
        .map(|b| {
            AnswerKind::by_code(names, b as u8).ok_or("a kind byte judging.kinds does not name")
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((f32, f64, kind))
}

/// A decoded set: per case `3 words + 1` f32s, 3 f64s and a kind.
#[derive(Debug, Clone)]
pub struct KnownSet {
    /// 2 or 4.
    pub words: usize,
    /// The routines.
    pub routines: Vec<KnownRoutine>,
    f32: Vec<f32>,
    f64: Vec<f64>,
    kind: Vec<AnswerKind>,
}

impl KnownSet {
    fn decode(file: &KnownSetFile, kinds: &[String]) -> Result<Self, String> {
        let (f32, f64, kind) = decode_hex(&file.f32, &file.f64, &file.kind, kinds)?;
        let n: usize = file.routines.iter().map(|r| r.cases).sum();
        let stride = 3 * file.words + 1;
        if f32.len() != n * stride || f64.len() != 3 * n || kind.len() != n {
            return Err(format!(
                "{n} cases but {} f32s, {} f64s, {} kinds",
                f32.len(),
                f64.len(),
                kind.len()
            ));
        }
        Ok(KnownSet {
            words: file.words,
            routines: file.routines.clone(),
            f32,
            f64,
            kind,
        })
    }

    /// Case `c` (counted over all routines): a, b, the mirror's words, the bound, the kind and
    /// the exact value's words.
    pub fn case(&self, c: usize) -> Option<KnownCase<'_>> {
        let w = self.words;
        let f = self.f32.get(c * (3 * w + 1)..(c + 1) * (3 * w + 1))?;
        let want = self.f64.get(3 * c..3 * c + 3)?;
        Some(KnownCase {
            a: &f[..w],
            b: &f[w..2 * w],
            mirror: &f[2 * w..3 * w],
            bound: f[3 * w] as f64,
            kind: *self.kind.get(c)?,
            want: [want[0], want[1], want[2]],
        })
    }
}

/// One case of a set.
#[derive(Debug, Clone, Copy)]
pub struct KnownCase<'a> {
    /// First operand's words.
    pub a: &'a [f32],
    /// Second operand's words.
    pub b: &'a [f32],
    /// The CPU mirror's result words.
    pub mirror: &'a [f32],
    /// The bound for this case.
    pub bound: f64,
    /// How `want` is read.
    pub kind: AnswerKind,
    /// The exact value's words.
    pub want: [f64; 3],
}

/// The vector routines' known answers, decoded.
#[derive(Debug, Clone)]
pub struct KnownVecSet {
    /// The routines.
    pub routines: Vec<KnownVecRoutine>,
    f32: Vec<f32>,
    f64: Vec<f64>,
    kind: Vec<AnswerKind>,
    /// Per routine: where its evaluations start in `f32` and its components in `f64`/`kind`.
    starts: Vec<(usize, usize)>,
}

/// One result component of one evaluation of a vector routine.
#[derive(Debug, Clone, Copy)]
pub struct KnownVecComponent<'a> {
    /// The CPU mirror's words.
    pub mirror: &'a [f32],
    /// How `want` is read.
    pub kind: AnswerKind,
    /// The exact value's words.
    pub want: [f64; 3],
    /// The size of the routine's unit at this component (absolute).
    pub unit_size: f64,
}

impl KnownVecSet {
    fn decode(file: &KnownVecSetFile, kinds: &[String]) -> Result<Self, String> {
        let (f32, f64, kind) = decode_hex(&file.f32, &file.f64, &file.kind, kinds)?;
        let mut starts = Vec::new();
        let (mut w, mut c) = (0, 0);
        for r in &file.routines {
            starts.push((w, c));
            w += r.evaluations * 2 * (r.inputs + r.outputs);
            c += r.evaluations * r.outputs;
        }
        if f32.len() != w || f64.len() != 4 * c || kind.len() != c {
            return Err(format!(
                "{w} words and {c} components expected, {} f32s, {} f64s, {} kinds stored",
                f32.len(),
                f64.len(),
                kind.len()
            ));
        }
        Ok(KnownVecSet {
            routines: file.routines.clone(),
            f32,
            f64,
            kind,
            starts,
        })
    }

    /// The operand words (2 per number) of evaluation `e` of routine `k`.
    pub fn operands(&self, k: usize, e: usize) -> Option<&[f32]> {
        let r = self.routines.get(k).filter(|r| e < r.evaluations)?;
        let (w, _) = *self.starts.get(k)?;
        let at = w + e * 2 * (r.inputs + r.outputs);
        self.f32.get(at..at + 2 * r.inputs)
    }

    /// Result component `i` of evaluation `e` of routine `k`.
    pub fn component(&self, k: usize, e: usize, i: usize) -> Option<KnownVecComponent<'_>> {
        let r = self
            .routines
            .get(k)
            .filter(|r| e < r.evaluations && i < r.outputs)?;
        let (w, c) = *self.starts.get(k)?;
        let at = w + e * 2 * (r.inputs + r.outputs) + 2 * r.inputs + 2 * i;
        let n = c + e * r.outputs + i;
        let f = self.f64.get(4 * n..4 * n + 4)?;
        Some(KnownVecComponent {
            mirror: self.f32.get(at..at + 2)?,
            kind: *self.kind.get(n)?,
            want: [f[0], f[1], f[2]],
            unit_size: f[3],
        })
    }
}

/// The sets, decoded.
#[derive(Debug, Clone)]
pub struct KnownAnswers {
    /// What holds for every routine.
    pub judging: JudgingFile,
    /// The df64 routines.
    pub df64: KnownSet,
    /// The qf128 routines.
    pub qf128: KnownSet,
    /// The df64 vector and matrix routines.
    pub df64vec: KnownVecSet,
}

/// The embedded known answers.
pub fn known_answers() -> Result<KnownAnswers, String> {
    let file: KnownAnswersFile = serde_json::from_str(KNOWN_ANSWERS_JSON)
        .map_err(|e| format!("assets/known-answers.json: {e}"))?;
    let kinds = &file.judging.kinds;
    Ok(KnownAnswers {
        df64: KnownSet::decode(&file.df64, kinds)
            .map_err(|e| format!("known answers, df64: {e}"))?,
        qf128: KnownSet::decode(&file.qf128, kinds)
            .map_err(|e| format!("known answers, qf128: {e}"))?,
        df64vec: KnownVecSet::decode(&file.df64vec, kinds)
            .map_err(|e| format!("known answers, df64 vectors: {e}"))?,
        judging: file.judging,
    })
}

/// Every routine of `set` that `chosen` names, judged: case `i` of routine `k` returned
/// `got(k, i)` (its words). Shared by every check (GL, WebGPU) so each judges alike: by each
/// routine's [`JudgeRule`], the error against the case's bound and equality with the mirror's
/// words.
pub fn judge_routines<'a>(
    set: &KnownSet,
    chosen: &dyn Fn(&str) -> bool,
    got: &dyn Fn(usize, usize) -> Option<&'a [f32]>,
) -> Result<Vec<RoutineCheck>, String> {
    let mut rows = Vec::new();
    let mut c = 0;
    for (k, r) in set.routines.iter().enumerate() {
        if !chosen(&r.name) {
            c += r.cases;
            continue;
        }
        let mut row = RoutineCheck {
            name: r.name.clone(),
            cases: r.cases,
            unit: r.rule.unit.clone(),
            bound: r.bound,
            worst: 0.0,
            failed: 0,
            mirror_matched: 0,
        };
        for i in 0..r.cases {
            let case = set.case(c).ok_or("known answers end early")?;
            let got = got(k, i).ok_or("fewer results than known answers")?;
            let e = r.rule.error(got, case.kind, case.want, 0.0);
            if e.is_nan() || e > case.bound {
                row.failed += 1;
            }
            row.worst = if e.is_nan() {
                f64::INFINITY
            } else {
                row.worst.max(e)
            };
            row.mirror_matched += r.rule.matches_mirror(got, case.mirror) as usize;
            c += 1;
        }
        rows.push(row);
    }
    Ok(rows)
}

/// Every vector routine of `set` that `chosen` names, judged: `got(k, e, i)` is component `i` of
/// evaluation `e` of routine `k` (its two words). Each component by the routine's
/// [`JudgeRule`]: against its unit and the routine's bound, and against the mirror's words.
pub fn judge_vec_routines<'a>(
    set: &KnownVecSet,
    chosen: &dyn Fn(&str) -> bool,
    got: &dyn Fn(usize, usize, usize) -> Option<&'a [f32]>,
) -> Result<Vec<RoutineCheck>, String> {
    let mut rows = Vec::new();
    for (k, r) in set.routines.iter().enumerate() {
        if !chosen(&r.name) {
            continue;
        }
        let mut row = RoutineCheck {
            name: r.name.clone(),
            cases: r.evaluations * r.outputs,
            unit: r.rule.unit.clone(),
            bound: r.bound,
            worst: 0.0,
            failed: 0,
            mirror_matched: 0,
        };
        for e in 0..r.evaluations {
            for i in 0..r.outputs {
                let c = set
                    .component(k, e, i)
                    .ok_or("vector known answers end early")?;
                let g = got(k, e, i).ok_or("fewer vector results than known answers")?;
                let err = r.rule.error(g, c.kind, c.want, c.unit_size);
                if err.is_nan() || err > r.bound {
                    row.failed += 1;
                }
                row.worst = if err.is_nan() {
                    f64::INFINITY
                } else {
                    row.worst.max(err)
                };
                row.mirror_matched += r.rule.matches_mirror(g, c.mirror) as usize;
            }
        }
        rows.push(row);
    }
    Ok(rows)
}

/// One routine's result.
#[derive(Debug, Clone, Serialize)]
pub struct RoutineCheck {
    /// The routine.
    pub name: String,
    /// Cases run (for a vector routine: result components judged).
    pub cases: usize,
    /// The unit of `bound` and `worst` (ulp48, ulp96, or a vector routine's).
    pub unit: String,
    /// Its documented bound.
    pub bound: f64,
    /// The worst error beyond the floor (infinity: a wrong special value).
    pub worst: f64,
    /// Cases off their bound.
    pub failed: usize,
    /// Cases whose words equal the mirror's bit for bit.
    pub mirror_matched: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The df64 (2 words) or qf128 (4) rule with `floor`.
    fn judge_words(got: &[f32], kind: AnswerKind, want: [f64; 3], floor: f64) -> f64 {
        let rule = JudgeRule {
            floor,
            ..JudgeRule::for_words(got.len())
        };
        rule.error(got, kind, want, 0.0)
    }

    /// A vector routine's rule with `floor`.
    fn judge_vec_component(
        got: &[f32],
        kind: AnswerKind,
        want: [f64; 3],
        unit_size: f64,
        floor: f64,
    ) -> f64 {
        let rule = JudgeRule {
            floor,
            ..JudgeRule::for_vector("unit")
        };
        rule.error(got, kind, want, unit_size)
    }

    #[test]
    fn nan_words_match_the_mirror_as_the_rule_says() {
        let quiet = f32::from_bits(0x7fc0_0000);
        let payload = f32::from_bits(0x7fc0_1234);
        let any = JudgeRule::for_words(2);
        let same = JudgeRule {
            nan: NanMatch::SameBits,
            ..any.clone()
        };
        assert!(any.matches_mirror(&[payload, 0.0], &[quiet, 0.0]));
        assert!(!same.matches_mirror(&[payload, 0.0], &[quiet, 0.0]));
        assert!(same.matches_mirror(&[quiet, 0.0], &[quiet, 0.0]));
        assert!(!any.matches_mirror(&[1.0, 0.0], &[1.0, -0.0]));
        assert!(!any.matches_mirror(&[1.0], &[1.0, 0.0]));
    }

    #[test]
    fn the_stored_rules_are_the_catalogs() {
        let k = known_answers().unwrap();
        assert_eq!(k.judging, JudgingFile::current());
        assert!(k
            .df64
            .routines
            .iter()
            .all(|r| r.rule == JudgeRule::for_words(2)));
        assert!(k
            .qf128
            .routines
            .iter()
            .all(|r| r.rule == JudgeRule::for_words(4)));
        assert!(k
            .df64vec
            .routines
            .iter()
            .all(|r| r.rule == JudgeRule::for_vector(&r.rule.unit)));
    }

    #[test]
    fn exact_sum_and_judge_read_each_kind() {
        assert_eq!(exact_sum(&[1.0, 1e-30, -1.0]), 1e-30);
        let one = [1.0, 0.0, 0.0];
        assert_eq!(judge_words(&[1.0, 0.0], AnswerKind::Value, one, 0.0), 0.0);
        assert_eq!(
            judge_words(&[1.0, 2f32.powi(-47)], AnswerKind::Value, one, 0.0),
            1.0
        );
        assert!(judge_words(&[f32::NAN, 0.0], AnswerKind::Value, one, 0.0).is_infinite());
        assert_eq!(
            judge_words(&[f32::NAN, 0.0], AnswerKind::Nan, one, 0.0),
            0.0
        );
        let neg_zero = [-0.0, 0.0, 0.0];
        assert_eq!(
            judge_words(&[-0.0, 0.0], AnswerKind::Exact, neg_zero, 0.0),
            0.0
        );
        assert!(judge_words(&[0.0, 0.0], AnswerKind::Exact, neg_zero, 0.0).is_infinite());
        assert_eq!(
            judge_words(&[0.0, -0.0], AnswerKind::Zero, [0.0; 3], 0.0),
            0.0
        );
        let q = judge_words(
            &[1.0, 2f32.powi(-95), 0.0, 0.0],
            AnswerKind::Value,
            one,
            0.0,
        );
        assert_eq!(q, 1.0);
        // The floor: 2^-126 absolute is forgiven, not more.
        let tiny = [2f64.powi(-100), 0.0, 0.0];
        let got = [2f32.powi(-100), 2f32.powi(-127)];
        assert_eq!(judge_words(&got, AnswerKind::Value, tiny, DF64_FLOOR), 0.0);
    }

    #[test]
    fn vector_components_are_judged_in_their_unit() {
        // 1 + 2^-40 against 1, in a unit of 2^-40: one unit; within the floor: none.
        let one = [1.0, 0.0, 0.0];
        let got = [1.0, 2f32.powi(-40)];
        let e = judge_vec_component(&got, AnswerKind::Value, one, 2f64.powi(-40), 0.0);
        assert_eq!(e, 1.0);
        assert_eq!(
            judge_vec_component(&got, AnswerKind::Value, one, 1.0, 2f64.powi(-39)),
            0.0
        );
        // An exact zero wanted: any error in a unit of size 0 is infinitely wrong.
        let zero = [0.0; 3];
        assert!(judge_vec_component(&got, AnswerKind::Value, zero, 0.0, 0.0).is_infinite());
        assert_eq!(
            judge_vec_component(&[0.0, 0.0], AnswerKind::Value, zero, 0.0, 0.0),
            0.0
        );
        // Special kinds as judge_words has them.
        let inf = [f64::INFINITY, 0.0, 0.0];
        assert_eq!(
            judge_vec_component(&[f32::INFINITY, 0.0], AnswerKind::Exact, inf, 1.0, 0.0),
            0.0
        );
        assert!(
            judge_vec_component(&[f32::MAX, 0.0], AnswerKind::Exact, inf, 1.0, 0.0).is_infinite()
        );
        assert_eq!(
            judge_vec_component(&[f32::NAN, 0.0], AnswerKind::Nan, one, 1.0, 0.0),
            0.0
        );
        assert!(
            judge_vec_component(&[f32::NAN, 0.0], AnswerKind::Value, one, 1.0, 0.0).is_infinite()
        );
    }

    #[test]
    fn embedded_known_answers_decode_and_hex_round_trips() {
        let k = known_answers().unwrap();
        assert_eq!(k.df64vec.routines.len(), 33);
        let last = k.df64vec.routines.len() - 1;
        let r = &k.df64vec.routines[last];
        assert!(k
            .df64vec
            .component(last, r.evaluations - 1, r.outputs - 1)
            .is_some());
        assert!(k.df64vec.component(last, r.evaluations, 0).is_none());
        assert!(k
            .df64vec
            .component(0, 0, k.df64vec.routines[0].outputs)
            .is_none());
        assert!(k
            .df64vec
            .operands(0, k.df64vec.routines[0].evaluations)
            .is_none());
        assert_eq!(
            k.df64vec.operands(0, 0).map(<[f32]>::len),
            Some(2 * k.df64vec.routines[0].inputs)
        );
        assert_eq!(k.df64.words, 2);
        assert_eq!(k.qf128.words, 4);
        let n: usize = k.df64.routines.iter().map(|r| r.cases).sum();
        assert!(k.df64.case(n - 1).is_some() && k.df64.case(n).is_none());
        let xs = [1.5f32, -0.0, f32::NAN, f32::INFINITY];
        let back: Vec<u32> = unhex(&hex_f32(&xs), 8)
            .unwrap()
            .into_iter()
            .map(|b| b as u32)
            .collect();
        assert_eq!(back, xs.map(f32::to_bits).to_vec());
        assert!(unhex("abc", 2).is_none() && unhex("zz", 2).is_none());
    }
}
