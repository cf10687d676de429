//! The npm module (`js/`) as pages load it: its files for an import map, a bundle of some of
//! its entries as one inline script, and a page of the repository's run in headless Chromium.
//! The hand-written modules are the committed `js/src/` files; the generated ones come from
//! `df64gl js`'s generator (a test keeps the committed ones equal to them).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::error::ExperimentError;
use crate::experiments::js::generated_files;

/// The module's hand-written files (path under `js/`, text), as committed. A test keeps this
/// list equal to the files under `js/src/` outside `generated/`.
pub const HAND_WRITTEN: [(&str, &str); 35] = [
    (
        "src/check/inflate.js",
        include_str!("../../../js/src/check/inflate.js"),
    ),
    (
        "src/check/glsl-slice.js",
        include_str!("../../../js/src/check/glsl-slice.js"),
    ),
    (
        "src/check/judge.js",
        include_str!("../../../js/src/check/judge.js"),
    ),
    (
        "src/check/known-answers.js",
        include_str!("../../../js/src/check/known-answers.js"),
    ),
    (
        "src/check/results.js",
        include_str!("../../../js/src/check/results.js"),
    ),
    (
        "src/check/routines-called-by.js",
        include_str!("../../../js/src/check/routines-called-by.js"),
    ),
    (
        "src/check/webgl.js",
        include_str!("../../../js/src/check/webgl.js"),
    ),
    (
        "src/check/webgpu.js",
        include_str!("../../../js/src/check/webgpu.js"),
    ),
    (
        "src/fft-webgpu.js",
        include_str!("../../../js/src/fft-webgpu.js"),
    ),
    ("src/fft.js", include_str!("../../../js/src/fft.js")),
    (
        "src/fft/bluestein.js",
        include_str!("../../../js/src/fft/bluestein.js"),
    ),
    (
        "src/fft/checked-answers.js",
        include_str!("../../../js/src/fft/checked-answers.js"),
    ),
    (
        "src/fft/host.js",
        include_str!("../../../js/src/fft/host.js"),
    ),
    (
        "src/fft/real.js",
        include_str!("../../../js/src/fft/real.js"),
    ),
    (
        "src/fft/webgl.js",
        include_str!("../../../js/src/fft/webgl.js"),
    ),
    (
        "src/fft/webgpu-render.js",
        include_str!("../../../js/src/fft/webgpu-render.js"),
    ),
    (
        "src/fft/webgpu.js",
        include_str!("../../../js/src/fft/webgpu.js"),
    ),
    (
        "src/fft/words.js",
        include_str!("../../../js/src/fft/words.js"),
    ),
    (
        "src/geometry.js",
        include_str!("../../../js/src/geometry.js"),
    ),
    (
        "src/gl-state.js",
        include_str!("../../../js/src/gl-state.js"),
    ),
    ("src/index.js", include_str!("../../../js/src/index.js")),
    ("src/luma.js", include_str!("../../../js/src/luma.js")),
    (
        "src/maplibre.js",
        include_str!("../../../js/src/maplibre.js"),
    ),
    (
        "src/maplibre-three.js",
        include_str!("../../../js/src/maplibre-three.js"),
    ),
    (
        "src/maplibre/earth.js",
        include_str!("../../../js/src/maplibre/earth.js"),
    ),
    (
        "src/maplibre/follow-check.js",
        include_str!("../../../js/src/maplibre/follow-check.js"),
    ),
    (
        "src/maplibre/layer.js",
        include_str!("../../../js/src/maplibre/layer.js"),
    ),
    (
        "src/maplibre/position.js",
        include_str!("../../../js/src/maplibre/position.js"),
    ),
    (
        "src/maplibre/render-args.js",
        include_str!("../../../js/src/maplibre/render-args.js"),
    ),
    (
        "src/maplibre/three-layer.js",
        include_str!("../../../js/src/maplibre/three-layer.js"),
    ),
    ("src/options.js", include_str!("../../../js/src/options.js")),
    ("src/three.js", include_str!("../../../js/src/three.js")),
    (
        "src/webgpu-device.js",
        include_str!("../../../js/src/webgpu-device.js"),
    ),
    ("src/webgpu.js", include_str!("../../../js/src/webgpu.js")),
    ("src/words.js", include_str!("../../../js/src/words.js")),
];

/// Every file of the module (path under `js/`, text): the hand-written ones and the generated.
pub fn module_files() -> Result<Vec<(String, String)>, ExperimentError> {
    let mut files: Vec<(String, String)> = HAND_WRITTEN
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect();
    files.extend(generated_files()?.into_iter().map(|f| (f.path, f.text)));
    Ok(files)
}

/// `spec` (`./x.js`, `../y/z.js`) imported from the module at `from` (a path under `js/`), as a
/// path under `js/`; None for a bare specifier (`three`) or one that leaves the package.
pub fn resolve(from: &str, spec: &str) -> Option<String> {
    if !spec.starts_with("./") && !spec.starts_with("../") {
        return None;
    }
    let mut parts: Vec<&str> = from.split('/').collect();
    parts.pop();
    for piece in spec.split('/') {
        match piece {
            "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

/// The module specifiers a text names, with where each sits: `from '...'` and `import('...')`.
fn specifiers(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for opener in ["from '", "import('"] {
        let mut at = 0;
        while let Some(i) = text[at..].find(opener) {
            let start = at + i + opener.len();
            let Some(len) = text[start..].find('\'') else {
                break;
            };
            out.push((start, start + len));
            at = start + len;
        }
    }
    out.sort();
    out
}

/// `text` with each relative specifier replaced by `rename(resolved path)`; an error naming the
/// file for one that leaves the package.
fn rewrite_specifiers(
    path: &str,
    text: &str,
    rename: impl Fn(&str) -> String,
) -> Result<String, ExperimentError> {
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for (start, end) in specifiers(text) {
        let spec = &text[start..end];
        if !spec.starts_with('.') {
            continue;
        }
        let resolved = resolve(path, spec).ok_or_else(|| {
            ExperimentError::Invalid(format!("js/{path} imports {spec}, outside the package"))
        })?;
        out.push_str(&text[last..start]);
        out.push_str(&rename(&resolved));
        last = end;
    }
    out.push_str(&text[last..]);
    Ok(out)
}

/// Every file of the module a page imports, as (path under `js/`, text), with each relative
/// specifier rewritten to the bare `df64gl/<path>`, so that an import map can point each name
/// at a `data:` URL: the whole module inside one file:// page, its modules as they are.
pub fn module_files_for_import_map() -> Result<Vec<(String, String)>, ExperimentError> {
    module_files()?
        .into_iter()
        .map(|(path, text)| {
            let text = rewrite_specifiers(&path, &text, |p| format!("df64gl/{p}"))?;
            Ok((path, text))
        })
        .collect()
}

/// One `import ... from '...';` or `export { ... } from '...';` statement of a module: its
/// names (`local`, `imported`) and the module it names.
struct Binding {
    names: Vec<(String, String)>,
    module: String,
    reexport: bool,
}

/// A module's static import and re-export statements (each up to its `;`) and its text without
/// them; an error for a form the bundle does not read.
fn bindings(path: &str, text: &str) -> Result<(Vec<Binding>, String), ExperimentError> {
    let bad = |what: &str| {
        ExperimentError::Invalid(format!(
            "js/{path}: {what}, which the page's bundle cannot read"
        ))
    };
    let mut out = Vec::new();
    let mut rest = String::with_capacity(text.len());
    let mut lines = text.split_inclusive('\n');
    while let Some(line) = lines.next() {
        // `export { ... } from` is a re-export (its list may span lines); a local `export { ... }`
        // has no `from`, and is refused below.
        let reexport = line.starts_with("export {");
        if !(line.starts_with("import ") || reexport) {
            rest.push_str(line);
            continue;
        }
        let mut statement = line.to_string();
        while !statement.trim_end().ends_with(';') {
            statement.push_str(
                lines
                    .next()
                    .ok_or_else(|| bad("an import without its `;`"))?,
            );
        }
        let (head, tail) = statement.rsplit_once(" from '").ok_or_else(|| {
            bad(if reexport {
                "an export list without `from`"
            } else {
                "an import without `from`"
            })
        })?;
        let spec = tail.split('\'').next().unwrap_or("");
        let module = resolve(path, spec).ok_or_else(|| bad(&format!("an import of {spec}")))?;
        let head = head
            .trim_start_matches("import")
            .trim_start_matches("export")
            .trim();
        let names = if let Some(list) = head.strip_prefix('{').and_then(|h| h.strip_suffix('}')) {
            list.split(',')
                .map(str::trim)
                .filter(|n| !n.is_empty())
                .map(|n| match n.split_once(" as ") {
                    Some((imported, local)) => {
                        (local.trim().to_string(), imported.trim().to_string())
                    }
                    None => (n.to_string(), n.to_string()),
                })
                .collect()
        } else if !head.is_empty() && head.chars().all(|c| c.is_alphanumeric() || c == '_') {
            vec![(head.to_string(), "default".to_string())]
        } else {
            return Err(bad(&format!("the import `{}`", statement.trim())));
        };
        out.push(Binding {
            names,
            module,
            reexport,
        });
    }
    Ok((out, rest))
}

/// The names a module exports by declaration (`export function f`, `export const X`,
/// `export default`), and its text with those `export` keywords gone.
fn declared_exports(text: &str) -> (Vec<(String, String)>, String) {
    let mut names = Vec::new();
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        if let Some(value) = line.strip_prefix("export default ") {
            out.push_str("const __default = ");
            out.push_str(value);
            names.push(("default".to_string(), "__default".to_string()));
            continue;
        }
        let Some(decl) = line.strip_prefix("export ") else {
            out.push_str(line);
            continue;
        };
        let words: Vec<&str> = decl
            .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '*'))
            .filter(|w| !w.is_empty())
            .collect();
        let name = match words.as_slice() {
            ["async", "function", n, ..]
            | ["function", n, ..]
            | ["const", n, ..]
            | ["let", n, ..] => n.trim_start_matches('*'),
            ["async", "function*", n, ..] | ["function*", n, ..] => n,
            _ => "",
        };
        if !name.is_empty() {
            names.push((name.to_string(), name.to_string()));
        }
        out.push_str(decl);
    }
    (names, out)
}

/// The modules of `entries` (paths under `js/`) and all they import, statically or not, as one
/// script: each module a function scope returning its exports, evaluated in dependency order,
/// a dynamic import a promise of the module's exports; then the entries' exports as top-level
/// constants, and every routine's known answers provided to the check (a page that cannot import
/// has them all). For the pages `df64gl web` writes, which open from file://.
pub fn bundle(entries: &[&str]) -> Result<String, ExperimentError> {
    let files: HashMap<String, String> = module_files()?.into_iter().collect();
    let mut order: Vec<String> = Vec::new();
    let mut parsed: HashMap<String, (Vec<Binding>, String)> = HashMap::new();
    // Depth-first, each module after what it imports.
    fn visit(
        path: &str,
        files: &HashMap<String, String>,
        parsed: &mut HashMap<String, (Vec<Binding>, String)>,
        order: &mut Vec<String>,
        stack: &mut Vec<String>,
    ) -> Result<(), ExperimentError> {
        if order.iter().any(|p| p == path) || stack.iter().any(|p| p == path) {
            return Ok(());
        }
        let text = files
            .get(path)
            .ok_or_else(|| ExperimentError::Invalid(format!("the module has no file {path}")))?;
        let (binds, rest) = bindings(path, text)?;
        stack.push(path.to_string());
        let mut deps: Vec<String> = binds.iter().map(|b| b.module.clone()).collect();
        for (start, end) in specifiers(&rest) {
            if let Some(p) = resolve(path, &rest[start..end]) {
                deps.push(p);
            }
        }
        for dep in deps {
            visit(&dep, files, parsed, order, stack)?;
        }
        stack.pop();
        parsed.insert(path.to_string(), (binds, rest));
        order.push(path.to_string());
        Ok(())
    }
    let mut stack = Vec::new();
    for entry in entries {
        visit(entry, &files, &mut parsed, &mut order, &mut stack)?;
    }
    for path in files
        .keys()
        .filter(|p| p.starts_with("src/generated/answers/"))
    {
        visit(path, &files, &mut parsed, &mut order, &mut stack)?;
    }
    let var = |path: &str| {
        format!(
            "__df64gl_{}",
            path.trim_end_matches(".js")
                .chars()
                .map(|c| if c.is_alphanumeric() { c } else { '_' })
                .collect::<String>()
        )
    };
    let mut out = String::new();
    for path in &order {
        let Some((binds, rest)) = parsed.get(path) else {
            continue;
        };
        let (mut exports, code) = declared_exports(rest);
        let mut head = String::new();
        for b in binds {
            for (local, imported) in &b.names {
                if b.reexport {
                    exports.push((local.clone(), format!("{}.{imported}", var(&b.module))));
                } else {
                    head.push_str(&format!("const {local} = {}.{imported};\n", var(&b.module)));
                }
            }
        }
        let code = dynamic_imports_resolved(path, &code, &var)?;
        let returned: Vec<String> = exports
            .iter()
            .map(|(name, value)| format!("{name}: {value}"))
            .collect();
        out.push_str(&format!(
            "// js/{path}\nconst {} = (function () {{\n{head}{code}\nreturn {{ {} }};\n}})();\n",
            var(path),
            returned.join(", ")
        ));
    }
    // Each entry's exports as top-level constants, a name the entries share (VERSION) once.
    let mut bound: Vec<String> = Vec::new();
    for entry in entries {
        let names: Vec<String> = entry_names(&parsed, entry)?
            .into_iter()
            .filter(|n| !bound.contains(n))
            .collect();
        bound.extend(names.iter().cloned());
        out.push_str(&format!(
            "const {{ {} }} = {};\n",
            names.join(", "),
            var(entry)
        ));
    }
    let known = var("src/check/known-answers.js");
    for path in order
        .iter()
        .filter(|p| p.starts_with("src/generated/answers/") && !p.ends_with("/index.js"))
    {
        let file = path
            .trim_start_matches("src/generated/answers/")
            .trim_end_matches(".js");
        let Some((set, name)) = file.split_once('-') else {
            continue;
        };
        out.push_str(&format!(
            "{known}.provideAnswers('{set}', '{name}', {}.default);\n",
            var(path)
        ));
    }
    Ok(out)
}

/// `code` with each `import('./x.js')` replaced by a promise of the bundled module's exports.
fn dynamic_imports_resolved(
    path: &str,
    code: &str,
    var: &dyn Fn(&str) -> String,
) -> Result<String, ExperimentError> {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(at) = rest.find("import('") {
        let after = &rest[at + "import('".len()..];
        let end = after.find("')").ok_or_else(|| {
            ExperimentError::Invalid(format!("js/{path}: an import( without its ')"))
        })?;
        let module = resolve(path, &after[..end]).ok_or_else(|| {
            ExperimentError::Invalid(format!(
                "js/{path} imports {}, outside the package",
                &after[..end]
            ))
        })?;
        out.push_str(&rest[..at]);
        out.push_str(&format!("Promise.resolve({})", var(&module)));
        rest = &after[end + "')".len()..];
    }
    out.push_str(rest);
    Ok(out)
}

/// The names an entry exports.
fn entry_names(
    parsed: &HashMap<String, (Vec<Binding>, String)>,
    entry: &str,
) -> Result<Vec<String>, ExperimentError> {
    let (binds, rest) = parsed
        .get(entry)
        .ok_or_else(|| ExperimentError::Invalid(format!("no module {entry}")))?;
    let mut names: Vec<String> = declared_exports(rest)
        .0
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    names.extend(
        binds
            .iter()
            .filter(|b| b.reexport)
            .flat_map(|b| b.names.iter().map(|(l, _)| l.clone())),
    );
    Ok(names)
}

/// The module's WebGL and WebGPU entries as one script for a page that cannot import (file://),
/// with every routine's known answers in it.
pub fn inline_module() -> Result<String, ExperimentError> {
    bundle(&["src/index.js", "src/webgpu.js"])
}

/// The repository's root (where `js/` and the test pages are), from this package's folder.
pub fn repository_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."))
}

/// Loads `path?query` (a page under the repository's root, which imports `/js/index.js`) in
/// headless Chromium on `backend`, served over http with `memory`'s files beside the tree, and
/// returns the JSON the page put in `#result`. A page that awaits (luma.gl creates its device
/// asynchronously) needs `wait_ms`: Chromium then runs its virtual clock that far before it
/// dumps the page; 0 dumps it after the load event.
pub fn run_module_page(
    chromium: &Path,
    backend: super::browser::BrowserBackend,
    path: &str,
    query: &str,
    memory: std::collections::HashMap<String, Vec<u8>>,
    wait_ms: u64,
) -> Result<serde_json::Value, ExperimentError> {
    let server = super::serve::StaticServer::start(&repository_root(), memory)?;
    let extra: Vec<String> = if wait_ms > 0 {
        vec![format!("--virtual-time-budget={wait_ms}")]
    } else {
        vec![]
    };
    let url = server.url(&format!("{path}{query}"));
    let dom = super::browser::run_url(chromium, backend, &url, &extra)?;
    if let Some(e) = super::browser::element_text(&dom, "error").filter(|e| !e.trim().is_empty()) {
        return Err(ExperimentError::Invalid(format!(
            "the page {path} failed: {e}"
        )));
    }
    let text = super::browser::element_text(&dom, "result")
        .filter(|t| !t.trim().is_empty())
        .ok_or_else(|| {
            // A page that reports its steps in #progress says where it stopped.
            let progress = super::browser::element_text(&dom, "progress")
                .map(|p| {
                    let last: Vec<&str> = p.lines().rev().take(3).collect();
                    format!("; its last steps: {}", last.join(" <- "))
                })
                .unwrap_or_default();
            ExperimentError::Invalid(format!(
                "the page {path} left no result (did its module load? {}){progress}",
                dom.chars().take(400).collect::<String>()
            ))
        })?;
    serde_json::from_str(&text)
        .map_err(|e| ExperimentError::Invalid(format!("the page {path}'s result: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specifiers_resolve_inside_the_package_only() {
        assert_eq!(
            resolve("src/check/webgl.js", "../generated/version.js").as_deref(),
            Some("src/generated/version.js")
        );
        assert_eq!(
            resolve("src/index.js", "./words.js").as_deref(),
            Some("src/words.js")
        );
        assert_eq!(resolve("src/index.js", "three"), None);
        assert_eq!(resolve("index.js", "../../x.js"), None);
    }

    #[test]
    fn imports_and_export_lists_are_read_across_lines_and_a_local_list_is_refused() {
        let text = "import {\n  a,\n  b as c,\n} from './x.js';\nexport {\n  d,\n} from '../y.js';\nconst e = 1;\n";
        let (binds, rest) = bindings("src/m/z.js", text).unwrap();
        assert_eq!(rest, "const e = 1;\n");
        assert_eq!(binds.len(), 2);
        assert_eq!(binds[0].module, "src/m/x.js");
        assert_eq!(
            binds[0].names,
            vec![("a".into(), "a".into()), ("c".into(), "b".into())]
        );
        assert!(binds[1].reexport && binds[1].module == "src/y.js");
        assert!(bindings("src/z.js", "export { e };\n").is_err());
    }
}
