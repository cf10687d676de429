//! `df64gl js`: the data half of the npm package in `js/` (`js/generated.js`): the es300 df64
//! and qf128 GLSL, the WGSL exports, the probe shader's body, the FFT's passes, and the known
//! answers every check judges with ([`known_answers`]), with their judging rules; and the
//! library's copy of the same known answers (`assets/known-answers.json`). `js/index.js`
//! (hand-written) imports the module. A test keeps both committed files equal to this output,
//! so the package cannot drift from the GLSL or the mirror.

use std::path::{Path, PathBuf};

use base64::Engine;
use serde::Serialize;

use crate::error::ExperimentError;
pub mod known_answers;

use df64gl::export::known::{
    hex_f32, hex_f64, hex_u8, JudgeRule, JudgingFile, KnownAnswersFile, KnownSetFile,
    KnownVecSetFile,
};
use df64gl::export::snippet::{
    probe_functions, probe_routine_names, snippet, SnippetOptions, SnippetTarget,
};
use df64gl::export::vec_shader::{vec_out_glsl, vec_out_wgsl};
use df64gl::export::wgsl::{wgsl_call, wgsl_export, WgslOptions};
use known_answers::{
    df64_known_answers, qf128_known_answers, vec_known_answers, KnownRoutine, KnownVecRoutine,
};

/// The seed of the embedded known answers.
pub const KNOWN_ANSWER_SEED: u64 = 2007;
/// qf128 cases per row of the qf128 table.
pub const QF128_CASES_PER_RANGE: usize = 12;
/// The file `df64gl js` writes, relative to the package folder.
pub const GENERATED_FILE: &str = "generated.js";
/// The library's copy of the known answers, relative to `assets/`.
pub const KNOWN_ANSWERS_FILE: &str = "known-answers.json";

#[derive(Serialize)]
struct RoutineHeader {
    name: &'static str,
    call: &'static str,
    /// The same call in WGSL (`checkWebGPU`).
    wgsl: String,
    cases: usize,
    bound: f64,
    rule: JudgeRule,
}

#[derive(Serialize)]
struct EncodedSet {
    words: usize,
    routines: Vec<RoutineHeader>,
    /// Per case: a, b, the mirror's words, the bound (3 words + 1 f32s), little-endian.
    f32: String,
    /// Per case: the exact value's three f64 words.
    f64: String,
    /// Per case: the answer's kind (0 value, 1 NaN, 2 exact, 3 zero).
    kind: String,
}

/// Every case's numbers in the stored order: per case a, b, the mirror's words and the bound
/// (f32s), the exact value's three words (f64s) and the kind (a byte).
fn flatten(routines: &[KnownRoutine]) -> (Vec<f32>, Vec<f64>, Vec<u8>) {
    let (mut f32s, mut f64s, mut kinds) = (Vec::new(), Vec::new(), Vec::new());
    for c in routines.iter().flat_map(|r| &r.cases) {
        f32s.extend(&c.a);
        f32s.extend(&c.b);
        f32s.extend(&c.mirror);
        f32s.push(c.bound as f32);
        f64s.extend(c.want);
        kinds.push(c.kind as u8);
    }
    (f32s, f64s, kinds)
}

fn encode_set(words: usize, routines: &[KnownRoutine]) -> Result<EncodedSet, ExperimentError> {
    let (f32s, f64s, kinds) = flatten(routines);
    let b64 = base64::engine::general_purpose::STANDARD;
    Ok(EncodedSet {
        words,
        routines: routines
            .iter()
            .map(|r| {
                Ok(RoutineHeader {
                    name: r.name,
                    call: r.call,
                    wgsl: wgsl_call(r.call)?,
                    cases: r.cases.len(),
                    bound: r.bound,
                    rule: JudgeRule::for_words(words),
                })
            })
            .collect::<Result<_, ExperimentError>>()?,
        f32: b64.encode(bytemuck::cast_slice::<f32, u8>(&f32s)),
        f64: b64.encode(bytemuck::cast_slice::<f64, u8>(&f64s)),
        kind: b64.encode(&kinds),
    })
}

/// The vector routines' numbers in the stored order: per evaluation its operands' words, then
/// per component the mirror's words (f32s); per component the exact words and the unit's size
/// (f64s) and the kind (a byte).
fn flatten_vec(routines: &[KnownVecRoutine]) -> (Vec<f32>, Vec<f64>, Vec<u8>) {
    let (mut f32s, mut f64s, mut kinds) = (Vec::new(), Vec::new(), Vec::new());
    for e in routines.iter().flat_map(|r| &r.evaluations) {
        f32s.extend(e.operands.iter().flat_map(|d| [d.hi, d.lo]));
        for (kind, want, size, mirror) in &e.components {
            f32s.extend([mirror.hi, mirror.lo]);
            f64s.extend(want);
            f64s.push(*size);
            kinds.push(*kind as u8);
        }
    }
    (f32s, f64s, kinds)
}

/// The vector routines' rows as both files store them.
fn vec_headers(routines: &[KnownVecRoutine]) -> Vec<df64gl::export::known::KnownVecRoutine> {
    routines
        .iter()
        .map(|r| df64gl::export::known::KnownVecRoutine {
            name: r.row.name.to_string(),
            glsl: vec_out_glsl(r.row),
            wgsl: vec_out_wgsl(r.row),
            evaluations: r.evaluations.len(),
            inputs: r.row.input_numbers(),
            outputs: r.row.output_numbers(),
            bound: r.row.bound,
            rule: JudgeRule::for_vector(r.row.unit.label()),
        })
        .collect()
}

fn json<T: Serialize>(value: &T) -> Result<String, ExperimentError> {
    serde_json::to_string(value).map_err(|e| ExperimentError::Invalid(format!("JSON: {e}")))
}

/// The es300 export: df64 and its functions, and qf128's part alone (to paste after it).
pub fn es300_sources() -> Result<(String, String), ExperimentError> {
    let es = |qf128: bool| SnippetOptions {
        qf128,
        ..SnippetOptions::new(SnippetTarget::Es300)
    };
    let df64 = snippet(&es(false))?;
    let both = snippet(&es(true))?;
    // The qf128 export is the df64 one (its first line names the modules) plus qf128.glsl.
    let marker =
        "\n// ================================================================ qf128.glsl\n";
    let at = both.find(marker).ok_or_else(|| {
        ExperimentError::Invalid("the es300 qf128 export has no qf128.glsl section".into())
    })?;
    Ok((df64, both[at..].to_string()))
}

/// The Stockham passes for the npm module's FFT (`js/fft.js`): `common` (the sampler
/// precisions GLSL ES 3.00 needs, then `stockham_common.glsl`) and each pass's `main` file,
/// keyed by its name without `stockham_` and `.glsl`: the same files the native plans build.
pub fn fft_sources() -> Result<serde_json::Value, ExperimentError> {
    let lib = df64gl::fft::stockham_mirror::stockham_library();
    let text = |name: &str| {
        lib.get(name)
            .map(str::to_string)
            .ok_or_else(|| ExperimentError::Invalid(format!("no GLSL module {name}")))
    };
    let mut out = serde_json::Map::new();
    out.insert(
        "common".into(),
        format!(
            "precision highp sampler2D;\nprecision highp sampler2DArray;\n{}",
            text("stockham_common.glsl")?
        )
        .into(),
    );
    for pass in [
        "radix2",
        "radix4",
        "radix8",
        "radix2_last",
        "radix3",
        "copy",
        "pointwise",
        "real_post",
        "real_pre",
    ] {
        out.insert(pass.into(), text(&format!("stockham_{pass}.glsl"))?.into());
    }
    Ok(serde_json::Value::Object(out))
}

/// The text of `js/generated.js`.
pub fn generated_js() -> Result<String, ExperimentError> {
    let (df64, qf128) = es300_sources()?;
    let probe = probe_functions(true);
    let b64 = base64::engine::general_purpose::STANDARD;
    let vectors = vec_known_answers(KNOWN_ANSWER_SEED)?;
    let (vf32, vf64, vkind) = flatten_vec(&vectors);
    let sets = serde_json::json!({
        "judging": JudgingFile::current(),
        "df64": encode_set(2, &df64_known_answers(KNOWN_ANSWER_SEED)?)?,
        "qf128": encode_set(4, &qf128_known_answers(KNOWN_ANSWER_SEED, QF128_CASES_PER_RANGE)?)?,
        "df64vec": {
            "routines": vec_headers(&vectors),
            "f32": b64.encode(bytemuck::cast_slice::<f32, u8>(&vf32)),
            "f64": b64.encode(bytemuck::cast_slice::<f64, u8>(&vf64)),
            "kind": b64.encode(&vkind),
        },
    });
    Ok(format!(
        "// Generated by `df64gl js` (df64gl {version}) from glsl/ and the Rust mirror: do not edit.\n\
         // DF64_GLSL and QF128_GLSL are `df64gl glsl --target es300` (QF128_GLSL is the part to\n\
         // paste after DF64_GLSL); DF64_WGSL and DF64_QF128_WGSL are `df64gl wgsl` and\n\
         // `df64gl wgsl --qf128` (each complete); PROBE_FUNCTIONS is the probe shader's code\n\
         // after the export, without a main (`check` runs it in each stage), PROBE_ROUTINES the\n\
         // routines of its DF64_PROBE_OP_<k> switches; KNOWN_ANSWERS are\n\
         // the cases `check` and `checkWebGPU` run (seed {seed}); FFT_GLSL the Stockham passes\n\
         // of glsl/ that `createFft` builds (`common` first, then one pass's `main`).\n\
         export const VERSION = {v};\n\
         export const DF64_GLSL = {d};\n\
         export const QF128_GLSL = {q};\n\
         export const DF64_WGSL = {dw};\n\
         export const DF64_QF128_WGSL = {qw};\n\
         export const PROBE_FUNCTIONS = {p};\n\
         export const PROBE_ROUTINES = {pr};\n\
         export const KNOWN_ANSWERS = {k};\n\
         export const FFT_GLSL = {f};\n",
        version = env!("CARGO_PKG_VERSION"),
        seed = KNOWN_ANSWER_SEED,
        v = json(&env!("CARGO_PKG_VERSION"))?,
        d = json(&df64)?,
        q = json(&qf128)?,
        p = json(&probe)?,
        pr = json(&probe_routine_names(true))?,
        dw = json(&wgsl_export(&WgslOptions::default())?)?,
        qw = json(&wgsl_export(&WgslOptions {
            qf128: true,
            ..WgslOptions::default()
        })?)?,
        k = json(&sets)?,
        f = json(&fft_sources()?)?,
    ))
}

/// The known answers as the library embeds them (`assets/known-answers.json`, read by
/// `df64gl::export::known`): the same cases as the module's, every bit in hex.
pub fn known_answers_json() -> Result<String, ExperimentError> {
    let set = |words: usize, routines: &[KnownRoutine]| {
        let (f32s, f64s, kinds) = flatten(routines);
        KnownSetFile {
            words,
            routines: routines
                .iter()
                .map(|r| df64gl::export::known::KnownRoutine {
                    name: r.name.to_string(),
                    call: r.call.to_string(),
                    cases: r.cases.len(),
                    bound: r.bound,
                    rule: JudgeRule::for_words(words),
                })
                .collect(),
            f32: hex_f32(&f32s),
            f64: hex_f64(&f64s),
            kind: hex_u8(&kinds),
        }
    };
    let vectors = vec_known_answers(KNOWN_ANSWER_SEED)?;
    let (vf32, vf64, vkind) = flatten_vec(&vectors);
    let file = KnownAnswersFile {
        judging: JudgingFile::current(),
        df64: set(2, &df64_known_answers(KNOWN_ANSWER_SEED)?),
        qf128: set(
            4,
            &qf128_known_answers(KNOWN_ANSWER_SEED, QF128_CASES_PER_RANGE)?,
        ),
        df64vec: KnownVecSetFile {
            routines: vec_headers(&vectors),
            f32: hex_f32(&vf32),
            f64: hex_f64(&vf64),
            kind: hex_u8(&vkind),
        },
    };
    Ok(serde_json::to_string_pretty(&file)
        .map_err(|e| ExperimentError::Invalid(format!("JSON: {e}")))?
        + "\n")
}

/// Writes `js_dir/generated.js` and `assets_dir/known-answers.json`; returns their paths.
pub fn write_js_module(js_dir: &Path, assets_dir: &Path) -> Result<Vec<PathBuf>, ExperimentError> {
    let mut written = Vec::new();
    for (dir, name, text) in [
        (js_dir, GENERATED_FILE, generated_js()?),
        (assets_dir, KNOWN_ANSWERS_FILE, known_answers_json()?),
    ] {
        std::fs::create_dir_all(dir)
            .map_err(|e| ExperimentError::Io(dir.display().to_string(), e))?;
        let path = dir.join(name);
        std::fs::write(&path, text)
            .map_err(|e| ExperimentError::Io(path.display().to_string(), e))?;
        written.push(path);
    }
    Ok(written)
}
