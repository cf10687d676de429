//! The two judges of the known answers agree: the Rust checks' (`df64gl::export::known`) and
//! the npm module's (`js/judge.js`, run in Node) are given the same results, the mirror's words
//! and the same words corrupted in each way a driver can get them wrong, and must give every
//! routine the same verdict: cases failed, worst error (bit for bit), cases equal to the
//! mirror's. Every routine of the three sets takes part, so every unit and floor the known
//! answers hold is covered, under the NaN rule stored with them and under the other one.

use std::process::Command;

use base64::Engine;
use df64gl::export::known::{
    judge_routines, judge_vec_routines, known_answers, KnownSet, KnownVecSet, NanMatch,
    RoutineCheck,
};
use df64gl_cli::web::js_module::repository_root;
use serde_json::Value;

/// The corruptions (see [`corrupt`]), taken in turn case by case: what a broken compile or a
/// flushing driver returns instead of the mirror's words.
const EVERY_CORRUPTION: [usize; 10] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
/// Those that leave a finite value: the worst errors are then measured, not infinite.
const FINITE_CORRUPTIONS: [usize; 4] = [0, 1, 2, 8];

/// `words` (the mirror's result) corrupted in way `how`.
fn corrupt(words: &[f32], how: usize) -> Vec<f32> {
    let mut w = words.to_vec();
    let last = w.len() - 1;
    match how {
        // As the mirror has it.
        0 => {}
        // The last word one f32 ulp off (within most bounds).
        1 => w[last] = next_up(w[last]),
        // An error term of about 4 units of the wanted precision.
        2 => w[last] += w[0] * 2f32.powi(if w.len() == 2 { -45 } else { -93 }),
        // The high word one f32 ulp off: far past every bound.
        3 => w[0] = next_up(w[0]),
        // NaN with a payload the mirror never makes.
        4 => w[0] = f32::from_bits(0x7fc0_1234),
        // The quiet NaN.
        5 => w[0] = f32::from_bits(0x7fc0_0000),
        // Infinity.
        6 => w[0] = f32::INFINITY,
        // The sign flipped (a zero's sign counts for exact answers).
        7 => w[0] = -w[0],
        // A subnormal last word: what a flushing driver loses, within df64's floor.
        8 => w[last] = f32::from_bits(0x0000_0400),
        // Every word zero.
        _ => w.iter_mut().for_each(|x| *x = 0.0),
    }
    w
}

fn next_up(x: f32) -> f32 {
    if x.is_nan() || x == f32::INFINITY {
        return x;
    }
    if x == 0.0 {
        return f32::from_bits(1);
    }
    let b = x.to_bits();
    f32::from_bits(if x > 0.0 { b + 1 } else { b - 1 })
}

/// Every case of `set`, corrupted in turn `ways`: the words in case order.
fn set_results(set: &KnownSet, ways: &[usize]) -> Vec<f32> {
    let n: usize = set.routines.iter().map(|r| r.cases).sum();
    (0..n)
        .flat_map(|c| corrupt(set.case(c).expect("case").mirror, ways[c % ways.len()]))
        .collect()
}

/// Every result component of `set`, corrupted in turn `ways`: per routine, per evaluation, the
/// components' words.
fn vec_results(set: &KnownVecSet, ways: &[usize]) -> Vec<f32> {
    let mut out = Vec::new();
    let mut n = 0;
    for (k, r) in set.routines.iter().enumerate() {
        for e in 0..r.evaluations {
            for i in 0..r.outputs {
                let c = set.component(k, e, i).expect("component");
                out.extend(corrupt(c.mirror, ways[n % ways.len()]));
                n += 1;
            }
        }
    }
    out
}

fn rust_verdicts(set: &KnownSet, results: &[f32]) -> Vec<RoutineCheck> {
    let w = set.words;
    let mut starts = Vec::new();
    let mut c = 0;
    for r in &set.routines {
        starts.push(c);
        c += r.cases;
    }
    let got = |k: usize, i: usize| {
        let at = (starts.get(k)? + i) * w;
        results.get(at..at + w)
    };
    judge_routines(set, &|_| true, &got).expect("the Rust judge")
}

fn rust_vec_verdicts(set: &KnownVecSet, results: &[f32]) -> Vec<RoutineCheck> {
    let mut starts = Vec::new();
    let mut c = 0;
    for r in &set.routines {
        starts.push(c);
        c += r.evaluations * r.outputs;
    }
    let got = |k: usize, e: usize, i: usize| {
        let r = set.routines.get(k)?;
        let at = 2 * (starts.get(k)? + e * r.outputs + i);
        results.get(at..at + 2)
    };
    judge_vec_routines(set, &|_| true, &got).expect("the Rust judge")
}

/// The verdicts as both sides print them: name, cases failed, cases equal to the mirror's,
/// and the worst error's bits.
fn rows(checks: &[RoutineCheck]) -> Vec<(String, usize, usize, String)> {
    checks
        .iter()
        .map(|r| {
            (
                r.name.clone(),
                r.failed,
                r.mirror_matched,
                format!("{:016x}", r.worst.to_bits()),
            )
        })
        .collect()
}

/// The npm module's verdicts on the same results, from Node.
fn js_verdicts(
    df64: &[f32],
    qf128: &[f32],
    vec: &[f32],
    nan: &str,
) -> [Vec<(String, usize, usize, String)>; 3] {
    let b64 = |x: &[f32]| {
        base64::engine::general_purpose::STANDARD.encode(bytemuck::cast_slice::<f32, u8>(x))
    };
    let js = repository_root().join("js");
    let url = |f: &str| format!("file://{}", js.join(f).display());
    let script = format!(
        "import {{ answersNeeded, loadAnswers, knownAnswers }} from '{known_answers}';\n\
         import {{ judgeRoutines, judgeVecRoutines }} from '{judge}';\n\
         await loadAnswers(answersNeeded(null, true));\n\
         const known = knownAnswers();\n\
         for (const key of ['df64', 'qf128', 'df64vec']) {{\n\
           for (const r of known[key].routines) r.rule = Object.assign({{}}, r.rule, {{ nan: '{nan}' }});\n\
         }}\n\
         const words = (b) => new Float32Array(Uint8Array.from(atob(b), (c) => c.charCodeAt(0)).buffer);\n\
         const bits = (x) => {{ const v = new DataView(new ArrayBuffer(8)); v.setFloat64(0, x);\n\
           return v.getBigUint64(0).toString(16).padStart(16, '0'); }};\n\
         const row = (r) => [r.name, r.failed, r.mirrorMatched, bits(r.worst)];\n\
         const all = () => true;\n\
         const set = (s, px) => {{\n\
           const starts = []; let c = 0;\n\
           for (const r of s.routines) {{ starts.push(c); c += r.cases; }}\n\
           return judgeRoutines(known, s, all, (k, i) => (starts[k] + i) * s.words, px, []).map(row);\n\
         }};\n\
         const vec = (s, px) => {{\n\
           const starts = []; let c = 0;\n\
           for (const r of s.routines) {{ starts.push(c); c += r.evaluations * r.outputs; }}\n\
           const out = (k, e) => {{ const r = s.routines[k]; const at = 2 * (starts[k] + e * r.outputs);\n\
             return px.subarray(at, at + 2 * r.outputs); }};\n\
           return judgeVecRoutines(known, s, all, out, []).map(row);\n\
         }};\n\
         console.log(JSON.stringify([\n\
           set(known.df64, words('{d}')),\n\
           set(known.qf128, words('{q}')),\n\
           vec(known.df64vec, words('{v}')),\n\
         ]));\n",
        known_answers = url("src/check/known-answers.js"),
        judge = url("src/check/judge.js"),
        d = b64(df64),
        q = b64(qf128),
        v = b64(vec),
    );
    let dir = std::env::temp_dir().join(format!("df64gl-judging-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("agree-{nan}.mjs"));
    std::fs::write(&path, script).unwrap();
    let out = Command::new("node")
        .arg(&path)
        .output()
        .expect("node (Node.js 18 or later) runs the npm module's judge");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        out.status.success(),
        "node: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("the judge's verdicts as JSON");
    let set = |k: usize| -> Vec<(String, usize, usize, String)> {
        v[k].as_array()
            .expect("rows")
            .iter()
            .map(|r| {
                (
                    r[0].as_str().unwrap().to_string(),
                    r[1].as_u64().unwrap() as usize,
                    r[2].as_u64().unwrap() as usize,
                    r[3].as_str().unwrap().to_string(),
                )
            })
            .collect()
    };
    [set(0), set(1), set(2)]
}

#[test]
fn the_rust_and_the_npm_judges_give_the_same_verdicts() {
    let known = known_answers().expect("the embedded known answers");
    let passes = [
        (&EVERY_CORRUPTION[..], NanMatch::AnyPayload),
        (&EVERY_CORRUPTION[..], NanMatch::SameBits),
        (&FINITE_CORRUPTIONS[..], NanMatch::AnyPayload),
    ];
    let mut finite_worst = 0;
    for (ways, nan) in passes {
        let df64 = set_results(&known.df64, ways);
        let qf128 = set_results(&known.qf128, ways);
        let vec = vec_results(&known.df64vec, ways);
        let (mut d, mut q, mut v) = (
            known.df64.clone(),
            known.qf128.clone(),
            known.df64vec.clone(),
        );
        d.routines.iter_mut().for_each(|r| r.rule.nan = nan);
        q.routines.iter_mut().for_each(|r| r.rule.nan = nan);
        v.routines.iter_mut().for_each(|r| r.rule.nan = nan);
        let checks = [
            rust_verdicts(&d, &df64),
            rust_verdicts(&q, &qf128),
            rust_vec_verdicts(&v, &vec),
        ];
        let rust = checks.each_ref().map(|c| rows(c));
        let name = serde_json::to_value(nan).unwrap();
        let js = js_verdicts(&df64, &qf128, &vec, name.as_str().unwrap());
        for (k, set) in ["df64", "qf128", "df64vec"].iter().enumerate() {
            let (r, j) = (&rust[k], &js[k]);
            assert_eq!(r.len(), j.len(), "{set}: routines judged");
            for (a, b) in r.iter().zip(j) {
                assert_eq!(
                    a, b,
                    "{set} under {name}: (routine, failed, mirror matched, worst bits)"
                );
            }
            // The results tell the judges apart only where some cases pass and some fail,
            // and some match the mirror and some do not, in every set.
            let total = |f: fn(&RoutineCheck) -> usize| checks[k].iter().map(f).sum::<usize>();
            let (cases, failed, matched) = (
                total(|r| r.cases),
                total(|r| r.failed),
                total(|r| r.mirror_matched),
            );
            finite_worst += checks[k]
                .iter()
                .filter(|r| r.worst.is_finite() && r.worst > 0.0)
                .count();
            assert!(
                0 < failed && failed < cases && 0 < matched && matched < cases,
                "{set}: {cases} cases, {failed} failed, {matched} matched"
            );
        }
    }
    // Measured errors were compared, not only infinite ones.
    assert!(
        finite_worst > 20,
        "{finite_worst} routines with a finite worst error"
    );
    // The stored NaN rule and the other one judge the payload NaN apart.
    let df64 = set_results(&known.df64, &EVERY_CORRUPTION);
    let any = rust_verdicts(&known.df64, &df64);
    let mut same = known.df64.clone();
    same.routines
        .iter_mut()
        .for_each(|r| r.rule.nan = NanMatch::SameBits);
    let strict = rust_verdicts(&same, &df64);
    let matched = |v: &[RoutineCheck]| v.iter().map(|r| r.mirror_matched).sum::<usize>();
    assert!(matched(&strict) < matched(&any));
}
