//! `df64gl web`: one self-contained HTML page (no network, no build step) that shows a web
//! developer df64 in their own WebGL 2: it runs the es300 export's probe shader and a float
//! check of df64 and qf128 against baked oracle answers, prints the verdict with the renderer
//! string in the element `#df64-selftest` (text starting with `pass` or `fail`), and then
//! draws the Mandelbrot set from `glsl/mandelbrot.glsl` in f32 next to df64 (and qf128 where
//! its check passed) with mouse pan and wheel zoom. The center lives in the page as an exact
//! binary fixed-point number (JavaScript `BigInt`), shown as decimal strings and split into f32
//! words for the shader, so the zoom is limited by the arithmetic, not by JavaScript's doubles.
//!
//! The page's query string drives it for tests and links: `center=RE,IM`, `zoom=Z`,
//! `size=WxH` (each pane), `iter=N`, `qf128=0`, `wheel=K` (K scripted wheel notches in at the
//! center of the df64 pane after the self-test), `pan=DX,DY` (a scripted drag in pixels), and
//! `simulate=no-webgl2|no-float|selftest-fail` (the page's failure paths, as a browser without
//! the feature or a driver that breaks df64 would take them).

use std::path::{Path, PathBuf};

use astro_float::BigFloat;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use super::accuracy::{random_df64, random_qf128};
use super::browser::{element, run_page, BrowserBackend};
use super::mandelbrot::{DEFAULT_CENTER, FULL_WIDTH, MAX_ZOOM, MIN_ZOOM};
use super::ExperimentError;
use df64gl::gl::GlslLibrary;
use df64gl::numeric::oracle::{big_words, to_f64, Oracle};
use df64gl::probe::snippet::{probe_shader, snippet, SnippetOptions, SnippetTarget};

/// The page's markup and script, with `/*DF64GL_DATA*/` where the data goes.
const PAGE_TEMPLATE: &str = include_str!("../../../assets/web/page.html");
const PAGE_SCRIPT: &str = include_str!("../../../assets/web/page.js");

/// Operand pairs per checked routine in the page's float check.
pub const CHECK_SAMPLES: usize = 256;

/// One routine the page checks on the GPU against the oracle: its GLSL call on `a` and `b`
/// (vec2 for df64, vec4 for qf128), its bound, operands as f32 words and the exact answer as
/// three f64 words (159 bits, far below either bound).
#[derive(Debug, Clone, Serialize)]
pub struct CheckRoutine {
    /// The routine ("df64_add", ...).
    pub name: &'static str,
    /// Its GLSL call on `a` and `b`.
    pub call: &'static str,
    /// Max error in ulp48 (df64) or ulp96 (qf128), the library's documented bound.
    pub bound: f64,
    /// First operands, as words.
    pub a: Vec<f32>,
    /// Second operands.
    pub b: Vec<f32>,
    /// The exact answers, three f64 words each.
    pub want: Vec<f64>,
}

#[derive(Serialize)]
struct PageData {
    version: &'static str,
    probe_shader: String,
    df64_snippet: String,
    qf128_snippet: String,
    mandelbrot: String,
    df64_checks: Vec<CheckRoutine>,
    qf128_checks: Vec<CheckRoutine>,
    default_center: &'static str,
    full_width: f64,
    min_zoom: f64,
    max_zoom: f64,
}

/// The exact value as three f64 words, each the nearest double to what the ones before left.
fn f64_words(o: &mut Oracle, x: &BigFloat) -> [f64; 3] {
    let mut rest = x.clone();
    let mut out = [0.0; 3];
    for w in &mut out {
        *w = to_f64(&rest);
        if *w == 0.0 || !w.is_finite() {
            break;
        }
        rest = o.sub(&rest, &df64gl::numeric::oracle::big(*w));
    }
    out
}

type Exact = fn(&mut Oracle, &BigFloat, &BigFloat) -> BigFloat;
/// Name, GLSL call, bound, operand range of a, and the exact answer.
type CheckSpec = (&'static str, &'static str, f64, (f64, f64), Exact);

/// The df64 and qf128 routines the page checks, on `samples` seeded operand pairs each.
pub fn check_routines(samples: usize, seed: u64) -> (Vec<CheckRoutine>, Vec<CheckRoutine>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut o = Oracle::new();
    let df64: [CheckSpec; 5] = [
        ("add", "df64_add(a, b)", 0.5, (-1.0, 1.0), |o, a, b| {
            o.add(a, b)
        }),
        ("sub", "df64_sub(a, b)", 0.5, (-1.0, 1.0), |o, a, b| {
            o.sub(a, b)
        }),
        ("mul", "df64_mul(a, b)", 0.5, (-1.0, 1.0), |o, a, b| {
            o.mul(a, b)
        }),
        ("div", "df64_div(a, b)", 1.0, (-1.0, 1.0), |o, a, b| {
            o.div(a, b)
        }),
        ("sqrt", "df64_sqrt(a)", 0.5, (0.0, 1.0), |o, a, _| o.sqrt(a)),
    ];
    let qf128: [CheckSpec; 5] = [
        ("add", "qf128_add(a, b)", 2.0, (-1.0, 1.0), |o, a, b| {
            o.add(a, b)
        }),
        ("sub", "qf128_sub(a, b)", 2.0, (-1.0, 1.0), |o, a, b| {
            o.sub(a, b)
        }),
        ("mul", "qf128_mul(a, b)", 2.0, (-1.0, 1.0), |o, a, b| {
            o.mul(a, b)
        }),
        ("sqr", "qf128_sqr(a)", 2.0, (-1.0, 1.0), |o, a, _| {
            o.mul(a, a)
        }),
        ("div", "qf128_div(a, b)", 4.0, (-1.0, 1.0), |o, a, b| {
            o.div(a, b)
        }),
    ];
    let mut make = |words: usize, spec: &CheckSpec| {
        let (name, call, bound, (lo, hi), exact) = *spec;
        let mut r = CheckRoutine {
            name,
            call,
            bound,
            a: Vec::new(),
            b: Vec::new(),
            want: Vec::new(),
        };
        for _ in 0..samples {
            let (a, b): (Vec<f32>, Vec<f32>) = if words == 2 {
                let (a, b) = (
                    random_df64(&mut rng, lo, hi),
                    random_df64(&mut rng, -1.0, 1.0),
                );
                (vec![a.hi, a.lo], vec![b.hi, b.lo])
            } else {
                let (a, b) = (
                    random_qf128(&mut rng, lo, hi),
                    random_qf128(&mut rng, -1.0, 1.0),
                );
                (a.x.to_vec(), b.x.to_vec())
            };
            let e = exact(&mut o, &big_words(&a), &big_words(&b));
            r.a.extend(&a);
            r.b.extend(&b);
            r.want.extend(f64_words(&mut o, &e));
        }
        r
    };
    let d = df64.iter().map(|s| make(2, s)).collect();
    let q = qf128.iter().map(|s| make(4, s)).collect();
    (d, q)
}

/// `mandelbrot.glsl` as it is: the page puts the snippet (df64 and qf128) in front.
fn mandelbrot_body() -> Result<String, ExperimentError> {
    let lib = GlslLibrary::builtin();
    let text = lib.get("mandelbrot.glsl").ok_or_else(|| {
        ExperimentError::Invalid("mandelbrot.glsl is missing from the built-in modules".into())
    })?;
    Ok(text.to_string())
}

/// The page's HTML: self-contained, the GLSL and the check data inline.
pub fn web_page() -> Result<String, ExperimentError> {
    let es = |functions: bool, qf128: bool| SnippetOptions {
        functions,
        qf128,
        ..SnippetOptions::new(SnippetTarget::Es300)
    };
    let (df64_checks, qf128_checks) = check_routines(CHECK_SAMPLES, 2007);
    let data = PageData {
        version: env!("CARGO_PKG_VERSION"),
        probe_shader: probe_shader(&es(true, false))?,
        df64_snippet: snippet(&es(false, false))?,
        qf128_snippet: snippet(&es(false, true))?,
        mandelbrot: mandelbrot_body()?,
        df64_checks,
        qf128_checks,
        default_center: DEFAULT_CENTER,
        full_width: FULL_WIDTH,
        min_zoom: MIN_ZOOM,
        max_zoom: MAX_ZOOM,
    };
    let json = serde_json::to_string(&data)
        .map_err(|e| ExperimentError::Invalid(format!("page data: {e}")))?
        // Nothing inside the script element may close it.
        .replace('<', "\\u003c");
    Ok(PAGE_TEMPLATE
        .replace("/*DF64GL_DATA*/", &json)
        .replace("/*DF64GL_SCRIPT*/", PAGE_SCRIPT))
}

/// Writes the page as `dir/index.html`; `dir` must not exist unless `force`.
pub fn write_web_page(dir: &Path, force: bool) -> Result<PathBuf, ExperimentError> {
    if dir.exists() && !force {
        // As `repro --out`: a usage error (exit status 2).
        return Err(ExperimentError::Invalid(format!(
            "{} already exists: choose another --out folder, or add --force to overwrite its \
             index.html",
            dir.display()
        )));
    }
    let html = web_page()?;
    std::fs::create_dir_all(dir).map_err(|e| ExperimentError::Io(dir.display().to_string(), e))?;
    let path = dir.join("index.html");
    std::fs::write(&path, html).map_err(|e| ExperimentError::Io(path.display().to_string(), e))?;
    Ok(path)
}

/// What the page showed when headless Chromium loaded it.
#[derive(Debug, Clone, Serialize)]
pub struct PageRun {
    /// `#df64-selftest`: starts with `pass` or `fail`.
    pub selftest: String,
    /// `#renderer`: the WebGL renderer string and versions.
    pub renderer: String,
    /// `#checks`: the probe's green count and each routine's worst error.
    pub checks: String,
    /// `#view-state`: zoom, iterations, draw times.
    pub view_state: String,
    /// The zoom the page drew at (after the scripted wheel), when it drew.
    pub zoom: Option<f64>,
    /// The text of `#message` when the page displayed it (a failure explained).
    pub message: Option<String>,
    /// Whether the Mandelbrot canvas was hidden.
    pub canvas_hidden: bool,
    /// The canvas on the page, CSS pixels: left, top, width, height (when it drew).
    pub canvas_rect: Option<[u32; 4]>,
    /// The panes left to right (`f32`, `df64`, `qf128`).
    pub panes: Vec<String>,
}

/// The value of `name="..."` in a start tag.
fn attribute<'a>(tag: &'a str, name: &str) -> Option<std::borrow::Cow<'a, str>> {
    let key = format!(" {name}=\"");
    let start = tag.find(&key)? + key.len();
    let end = start + tag[start..].find('"')?;
    Some(super::browser::unescape_html(&tag[start..end]))
}

/// Reads what the page showed from the DOM Chromium dumped.
pub fn parse_page_dom(dom: &str) -> Result<PageRun, ExperimentError> {
    let text = |id: &str| element(dom, id).map(|(_, t)| t.trim().to_string());
    let selftest = text("df64-selftest").ok_or_else(|| {
        ExperimentError::Invalid("the page has no #df64-selftest element (did it load?)".into())
    })?;
    let (message_tag, message) = element(dom, "message").unwrap_or(("", "".into()));
    let (canvas_tag, _) = element(dom, "mandel").unwrap_or(("", "".into()));
    let (state_tag, _) = element(dom, "view-state").unwrap_or(("", "".into()));
    let shown = |tag: &str| attribute(tag, "style").is_some_and(|s| s.contains("display: block"));
    let rect = attribute(canvas_tag, "data-rect").and_then(|r| {
        let v: Vec<u32> = r.split(',').filter_map(|x| x.trim().parse().ok()).collect();
        <[u32; 4]>::try_from(v).ok()
    });
    Ok(PageRun {
        selftest,
        renderer: text("renderer").unwrap_or_default(),
        checks: text("checks").unwrap_or_default(),
        view_state: text("view-state").unwrap_or_default(),
        zoom: attribute(state_tag, "data-zoom").and_then(|z| z.parse().ok()),
        message: shown(message_tag).then(|| message.trim().to_string()),
        canvas_hidden: attribute(canvas_tag, "style").is_some_and(|s| s.contains("display: none")),
        canvas_rect: rect,
        panes: attribute(canvas_tag, "data-panes")
            .map(|p| p.split(',').map(str::to_string).collect())
            .unwrap_or_default(),
    })
}

/// Loads the page at `page` with `query` (`?size=160x120&wheel=86`, or empty) in headless
/// Chromium on `backend`; with `screenshot`, also saves the window (`width` x `height` CSS
/// pixels at scale 1) as a PNG there.
pub fn load_page(
    chromium: &Path,
    backend: BrowserBackend,
    page: &Path,
    query: &str,
    screenshot: Option<(&Path, u32, u32)>,
) -> Result<PageRun, ExperimentError> {
    let mut extra = Vec::new();
    if let Some((path, width, height)) = screenshot {
        extra.extend([
            format!("--screenshot={}", path.display()),
            format!("--window-size={width},{height}"),
            "--hide-scrollbars".into(),
            "--force-device-scale-factor=1".into(),
        ]);
    }
    parse_page_dom(&run_page(chromium, backend, page, query, &extra)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_is_self_contained_and_checks_carry_exact_answers() {
        let html = web_page().unwrap();
        assert!(html.contains("id=\"df64-selftest\""));
        assert!(!html.contains("/*DF64GL_"));
        // No network: nothing is fetched from elsewhere.
        assert!(!html.contains("http://") && !html.contains("https://") && !html.contains(" src="));
        let (d, q) = check_routines(8, 1);
        assert_eq!((d.len(), q.len()), (5, 5));
        for r in d.iter().chain(&q) {
            let words = if r.call.starts_with("df64") { 2 } else { 4 };
            assert_eq!(r.a.len(), 8 * words);
            assert_eq!(r.want.len(), 8 * 3);
        }
        let dom = "<p id=\"df64-selftest\" class=\"fail\">fail: no &amp; WebGL</p>\
                   <canvas id=\"mandel\" style=\"display: none;\"></canvas>\
                   <div id=\"message\" style=\"display: block;\">WebGL 2 is missing</div>";
        let run = parse_page_dom(dom).unwrap();
        assert_eq!(run.selftest, "fail: no & WebGL");
        assert!(run.canvas_hidden && run.canvas_rect.is_none() && run.zoom.is_none());
        assert_eq!(run.message.as_deref(), Some("WebGL 2 is missing"));
        assert!(parse_page_dom("<p>nothing</p>").is_err());
        // The three f64 words of a sum of two f32 words hold it exactly.
        let e = big_words(&[1.0, 2f32.powi(-60)]);
        assert_eq!(
            f64_words(&mut Oracle::new(), &e),
            [1.0, 2f64.powi(-60), 0.0]
        );
    }
}
