//! `df64gl js`: the data half of the npm package in `js/` (`js/src/generated/`): the es300 df64
//! and qf128 GLSL, the WGSL exports, the probe shader's body, the FFT's passes, and the known
//! answers every check judges with ([`known_answers`]), with their judging rules, a module per
//! routine; and the library's copy of the same known answers (`assets/known-answers.json`).
//! The hand-written modules of `js/src/` import them. A test keeps the committed files equal to
//! this output, so the package cannot drift from the GLSL or the mirror.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::error::ExperimentError;
pub mod known_answers;
pub mod packed_answers;
pub mod wgsl_parts;

use df64gl::export::known::{
    hex_f32, hex_f64, hex_u8, JudgeRule, JudgingFile, KnownAnswersFile, KnownSetFile,
    KnownVecSetFile,
};
use df64gl::export::snippet::{
    compact_glsl, defined_functions, probe_functions, probe_routine_names, snippet, SnippetOptions,
    SnippetTarget,
};
use df64gl::export::vec_shader::{vec_out_glsl, vec_out_wgsl};
use df64gl::export::wgsl::{wgsl_call, wgsl_export, WgslOptions};
use known_answers::{
    df64_known_answers, qf128_known_answers, vec_known_answers, KnownRoutine, KnownVecRoutine,
};
use packed_answers::{pack, PackLayout};

/// The seed of the embedded known answers.
pub const KNOWN_ANSWER_SEED: u64 = 2007;
/// qf128 cases per row of the qf128 table.
pub const QF128_CASES_PER_RANGE: usize = 12;
/// Where `df64gl js` writes the module's generated half, relative to the package folder.
pub const GENERATED_DIR: &str = "src/generated";
/// The library's copy of the known answers, relative to `assets/`.
pub const KNOWN_ANSWERS_FILE: &str = "known-answers.json";

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
/// keyed by its name without `stockham_` and `.glsl`: the same files the native plans build,
/// without the comments past their headers.
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
            compact_glsl(&text("stockham_common.glsl")?)
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
        out.insert(
            pass.into(),
            compact_glsl(&text(&format!("stockham_{pass}.glsl"))?).into(),
        );
    }
    Ok(serde_json::Value::Object(out))
}

/// The npm package's version (`js/package.json`, `VERSION`): the module's own, apart from the
/// crate's, since its entries changed where the crate's API did not.
pub const NPM_VERSION: &str = "0.2.0";

/// One file `df64gl js` writes: its path under the package folder and its text.
#[derive(Debug, Clone, PartialEq)]
pub struct GeneratedFile {
    /// Relative to the package folder, with `/`.
    pub path: String,
    /// The module's text.
    pub text: String,
}

/// The header of each generated module.
fn header(what: &str) -> String {
    format!(
        "// Generated by `df64gl js` (df64gl {}) from glsl/ and the Rust mirror: do not edit.\n// {what}\n",
        env!("CARGO_PKG_VERSION")
    )
}

fn module(path: &str, what: &str, body: String) -> GeneratedFile {
    GeneratedFile {
        path: format!("{GENERATED_DIR}/{path}"),
        text: format!("{}{body}", header(what)),
    }
}

/// The names a GLSL text calls (each identifier before a `(`), in order, once each: what
/// `routinesCalledBy` maps a vector routine's functions by, without its GLSL text.
fn called_names(glsl: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let bytes = glsl.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_alphabetic() || bytes[i] == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            let mut k = i;
            while k < bytes.len() && bytes[k].is_ascii_whitespace() {
                k += 1;
            }
            let name = &glsl[start..i];
            if bytes.get(k) == Some(&b'(') && !names.iter().any(|n| n == name) {
                names.push(name.to_string());
            }
        } else {
            i += 1;
        }
    }
    names
}

/// A routine's answers as its own module (loaded by the checks that check it), packed
/// ([`packed_answers`]): a page that checks every routine fetches half of their plain base64.
fn answer_module(set: &str, name: &str, packed: String) -> Result<GeneratedFile, ExperimentError> {
    Ok(module(
        &format!("answers/{set}-{name}.js"),
        &format!("{set} {name}: known answers (seed {KNOWN_ANSWER_SEED}), packed as src/check/known-answers.js reads them."),
        format!("export default {};\n", json(&packed)?),
    ))
}

/// Every file of the npm module's generated half, under `src/generated/`: the es300 GLSL
/// (df64, and qf128's part to paste after it), the WGSL (the qf128 export composed from the
/// df64 one and what it adds), the probe shader's body, the FFT's passes, the known answers'
/// catalog (names, case counts, bounds, rules), the calls each check builds its programs from
/// (GLSL and WGSL apart), and each routine's answers in a module of its own.
pub fn generated_files() -> Result<Vec<GeneratedFile>, ExperimentError> {
    // The GLSL as pages fetch it: without the comments past each text's header.
    let (df64_glsl, qf128_glsl) = es300_sources()?;
    let (df64_glsl, qf128_glsl) = (compact_glsl(&df64_glsl), compact_glsl(&qf128_glsl));
    let df64_wgsl = wgsl_export(&WgslOptions::default())?;
    let both_wgsl = wgsl_export(&WgslOptions {
        qf128: true,
        ..WgslOptions::default()
    })?;
    let wgsl = wgsl_parts::compose(&df64_wgsl, &both_wgsl)?;
    let df64 = df64_known_answers(KNOWN_ANSWER_SEED)?;
    let qf128 = qf128_known_answers(KNOWN_ANSWER_SEED, QF128_CASES_PER_RANGE)?;
    let vectors = vec_known_answers(KNOWN_ANSWER_SEED)?;
    let vec_rows = vec_headers(&vectors);

    let mut files = vec![
        module(
            "version.js",
            "The package's version (a check's cache key holds it).",
            format!("/** @type {{string}} */\nexport const VERSION = {};\n", json(&NPM_VERSION)?),
        ),
        module(
            "glsl-df64.js",
            "`df64gl glsl --target es300` without the comments past its header: df64, its vectors and functions, for GLSL ES 3.00.",
            format!("/** @type {{string}} */\nexport const DF64_GLSL = {};\n", json(&df64_glsl)?),
        ),
        module(
            "glsl-qf128.js",
            "qf128's part of `df64gl glsl --target es300 --qf128`, without the comments past its header: paste it after DF64_GLSL.",
            format!("/** @type {{string}} */\nexport const QF128_GLSL = {};\n", json(&qf128_glsl)?),
        ),
        module(
            "probe.js",
            "The probe shader's code after the export, without a main (the check runs it in each stage), and the routines of its DF64_PROBE_OP_<k> switches.",
            format!(
                "/** @type {{string}} */\nexport const PROBE_FUNCTIONS = {};\n/** @type {{string[]}} */\nexport const PROBE_ROUTINES = {};\n",
                json(&compact_glsl(&probe_functions(true)))?,
                json(&probe_routine_names(true))?
            ),
        ),
        module(
            "wgsl.js",
            "`df64gl wgsl` and `df64gl wgsl --qf128`, each complete: the second is the first with its first line replaced and qf128's constants and functions inserted, stored once here.",
            format!(
                "/** @type {{string[]}} */\nconst DF64_PIECES = {};\n/** @type {{string[]}} */\nconst QF128_INSERTED = {};\n\
                 export const DF64_WGSL = DF64_PIECES.join('');\n\
                 export const DF64_QF128_WGSL = QF128_INSERTED[0] + DF64_PIECES.slice(1).map(function (piece, k) {{ return piece + QF128_INSERTED[k + 1]; }}).join('');\n",
                json(&wgsl.df64_pieces)?,
                json(&wgsl.inserted)?
            ),
        ),
        module(
            "fft-glsl.js",
            "The Stockham passes of glsl/ that `createFft` builds (`common` first, then one pass's `main`).",
            format!(
                "/** @type {{Record<string, string>}} */\nexport const FFT_GLSL = {};\n",
                json(&fft_sources()?)?
            ),
        ),
    ];

    // The catalog: what every check and routinesCalledBy need to know of each routine, without
    // its cases or any shader text. The rules are few: each stored once, a routine's row names
    // its rule by index (a row: name, cases, bound, rule; a vector routine's: name,
    // evaluations, inputs, outputs, bound, rule).
    let mut rules: Vec<serde_json::Value> = Vec::new();
    let mut rule_index = |rule: serde_json::Value| -> usize {
        match rules.iter().position(|r| *r == rule) {
            Some(k) => k,
            None => {
                rules.push(rule);
                rules.len() - 1
            }
        }
    };
    let mut scalar_rows = |words: usize,
                           routines: &[KnownRoutine]|
     -> Result<Vec<serde_json::Value>, ExperimentError> {
        routines
            .iter()
            .map(|r| {
                let rule = serde_json::to_value(JudgeRule::for_words(words))
                    .map_err(|e| ExperimentError::Invalid(format!("JSON: {e}")))?;
                Ok(serde_json::json!([
                    r.name,
                    r.cases.len(),
                    r.bound,
                    rule_index(rule)
                ]))
            })
            .collect()
    };
    let df64_rows = scalar_rows(2, &df64)?;
    let qf128_rows = scalar_rows(4, &qf128)?;
    let mut vec_catalog_rows = Vec::new();
    for r in &vec_rows {
        let rule = serde_json::to_value(&r.rule)
            .map_err(|e| ExperimentError::Invalid(format!("JSON: {e}")))?;
        vec_catalog_rows.push(serde_json::json!([
            r.name,
            r.evaluations,
            r.inputs,
            r.outputs,
            r.bound,
            rule_index(rule)
        ]));
    }
    files.push(module(
        "catalog.js",
        "The known answers' catalog: per set its routines in order, their case counts, bounds and judging rules, and how results are judged; each routine's cases are in answers/.",
        format!(
            "const RULES = {rules};\nconst ROWS = {rows};\n\
             function scalar(row) {{ return {{ name: row[0], cases: row[1], bound: row[2], rule: RULES[row[3]] }}; }}\n\
             function vector(row) {{\n  return {{ name: row[0], evaluations: row[1], inputs: row[2], outputs: row[3], bound: row[4], rule: RULES[row[5]] }};\n}}\n\
             /** @type {{any}} */\nexport const CATALOG = {{\n  judging: {judging},\n  df64: {{ words: 2, routines: ROWS.df64.map(scalar) }},\n  qf128: {{ words: 4, routines: ROWS.qf128.map(scalar) }},\n  df64vec: {{ routines: ROWS.df64vec.map(vector) }},\n}};\n",
            rules = json(&rules)?,
            rows = json(&serde_json::json!({ "df64": df64_rows, "qf128": qf128_rows, "df64vec": vec_catalog_rows }))?,
            judging = json(&JudgingFile::current())?,
        ),
    ));
    let glsl_calls = serde_json::json!({
        "df64": df64.iter().map(|r| r.call).collect::<Vec<_>>(),
        "qf128": qf128.iter().map(|r| r.call).collect::<Vec<_>>(),
        "df64vec": vec_rows.iter().map(|r| called_names(&r.glsl)).collect::<Vec<_>>(),
    });
    // The functions DF64_GLSL and QF128_GLSL define (the WGSL export has the same names).
    let mut library = defined_functions(&df64_glsl);
    library.extend(defined_functions(&qf128_glsl));
    library.sort();
    library.dedup();
    files.push(module(
        "catalog-glsl.js",
        "Per routine of the catalog, in its order: the GLSL call the WebGL check evaluates (df64, qf128), the names a vector routine's code calls (df64vec); and the functions DF64_GLSL and QF128_GLSL define.",
        format!(
            "/** @type {{any}} */\nexport const GLSL_CALLS = {};\n/** @type {{string[]}} */\nexport const LIBRARY_FUNCTIONS = {};\n",
            json(&glsl_calls)?,
            json(&library)?
        ),
    ));
    files.push(module(
        "vec-glsl.js",
        "Per vector routine of the catalog, in its order: the GLSL function the WebGL check evaluates it through.",
        format!(
            "/** @type {{string[]}} */\nexport const VEC_GLSL = {};\n",
            json(&vec_rows.iter().map(|r| compact_glsl(&r.glsl)).collect::<Vec<_>>())?
        ),
    ));
    let wgsl_calls = serde_json::json!({
        "df64": df64.iter().map(|r| wgsl_call(r.call)).collect::<Result<Vec<_>, _>>()?,
        "qf128": qf128.iter().map(|r| wgsl_call(r.call)).collect::<Result<Vec<_>, _>>()?,
        "df64vec": vec_rows.iter().map(|r| &r.wgsl).collect::<Vec<_>>(),
    });
    files.push(module(
        "catalog-wgsl.js",
        "Per routine of the catalog, in its order: the WGSL the WebGPU check evaluates.",
        format!(
            "/** @type {{any}} */\nexport const WGSL_CALLS = {};\n",
            json(&wgsl_calls)?
        ),
    ));

    // Each routine's answers, and the loaders: a literal import() each, so that a bundler
    // makes each a chunk of its own and a page fetches only the routines it checks.
    let mut loader_lines = String::new();
    for (set, chunks) in [
        (
            "df64",
            df64.iter()
                .map(|r| {
                    let (f32s, f64s, kinds) = flatten(std::slice::from_ref(r));
                    let layout = PackLayout::Scalar { words: 2 };
                    Ok((r.name.to_string(), pack(layout, &f32s, &f64s, &kinds)?))
                })
                .collect::<Result<Vec<_>, ExperimentError>>()?,
        ),
        (
            "qf128",
            qf128
                .iter()
                .map(|r| {
                    let (f32s, f64s, kinds) = flatten(std::slice::from_ref(r));
                    let layout = PackLayout::Scalar { words: 4 };
                    Ok((r.name.to_string(), pack(layout, &f32s, &f64s, &kinds)?))
                })
                .collect::<Result<Vec<_>, ExperimentError>>()?,
        ),
        (
            "df64vec",
            vectors
                .iter()
                .map(|r| {
                    let (f32s, f64s, kinds) = flatten_vec(std::slice::from_ref(r));
                    let layout = PackLayout::Vector {
                        inputs: r.row.input_numbers(),
                        outputs: r.row.output_numbers(),
                    };
                    Ok((r.row.name.to_string(), pack(layout, &f32s, &f64s, &kinds)?))
                })
                .collect::<Result<Vec<_>, ExperimentError>>()?,
        ),
    ] {
        loader_lines.push_str(&format!("  {set}: {{\n"));
        for (name, packed) in chunks {
            files.push(answer_module(set, &name, packed)?);
            loader_lines.push_str(&format!(
                "    {}: function () {{ return import('./{set}-{name}.js'); }},\n",
                json(&name)?
            ));
        }
        loader_lines.push_str("  },\n");
    }
    files.push(module(
        "answers/index.js",
        "Per set and routine, a function that imports that routine's answers.",
        format!(
            "/** @type {{Record<string, Record<string, () => Promise<{{ default: string }}>>>}} */\nexport const ANSWER_MODULES = {{\n{loader_lines}}};\n"
        ),
    ));
    Ok(files)
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

/// Writes the generated modules under `js_dir` (removing answer modules no routine has any
/// longer) and `assets_dir/known-answers.json`; returns their paths.
pub fn write_js_module(js_dir: &Path, assets_dir: &Path) -> Result<Vec<PathBuf>, ExperimentError> {
    let io = |path: &Path, e: std::io::Error| ExperimentError::Io(path.display().to_string(), e);
    let files = generated_files()?;
    let answers = js_dir.join(GENERATED_DIR).join("answers");
    if let Ok(entries) = std::fs::read_dir(&answers) {
        for entry in entries.flatten() {
            let path = entry.path();
            let kept = files.iter().any(|f| js_dir.join(&f.path) == path);
            if !kept && path.extension().is_some_and(|e| e == "js") {
                std::fs::remove_file(&path).map_err(|e| io(&path, e))?;
            }
        }
    }
    let mut written = Vec::new();
    let assets = [(assets_dir.join(KNOWN_ANSWERS_FILE), known_answers_json()?)];
    for (path, text) in files
        .into_iter()
        .map(|f| (js_dir.join(f.path), f.text))
        .chain(assets)
    {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
        }
        std::fs::write(&path, text).map_err(|e| io(&path, e))?;
        written.push(path);
    }
    Ok(written)
}
