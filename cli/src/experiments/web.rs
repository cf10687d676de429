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

use serde::Serialize;

use super::browser::{element, run_page, BrowserBackend};
use super::js_module::inline_module;
use super::mandelbrot::{DEFAULT_CENTER, FULL_WIDTH, MAX_ZOOM, MIN_ZOOM};
use super::ExperimentError;
use df64gl::gl::GlslLibrary;

/// The page's markup and script, with `/*DF64GL_DATA*/` where the data goes.
const PAGE_TEMPLATE: &str = include_str!("../../../assets/web/page.html");
const PAGE_SCRIPT: &str = include_str!("../../../assets/web/page.js");

#[derive(Serialize)]
struct PageData {
    version: &'static str,
    mandelbrot: String,
    default_center: &'static str,
    full_width: f64,
    min_zoom: f64,
    max_zoom: f64,
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
    let data = PageData {
        version: env!("CARGO_PKG_VERSION"),
        mandelbrot: mandelbrot_body()?,
        default_center: DEFAULT_CENTER,
        full_width: FULL_WIDTH,
        min_zoom: MIN_ZOOM,
        max_zoom: MAX_ZOOM,
    };
    let json = serde_json::to_string(&data)
        .map_err(|e| ExperimentError::Invalid(format!("page data: {e}")))?
        // Nothing inside the script element may close it.
        .replace('<', "\\u003c");
    // The npm module (its generated half, then its code) and the page's script in one inline
    // module script: a file:// page cannot import one.
    let script = format!("{}\n{PAGE_SCRIPT}", inline_module()?);
    if script.contains("</script") {
        return Err(ExperimentError::Invalid(
            "the page's script would close its element early".into(),
        ));
    }
    Ok(PAGE_TEMPLATE
        .replace("/*DF64GL_DATA*/", &json)
        .replace("/*DF64GL_SCRIPT*/", &script))
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
        let dom = "<p id=\"df64-selftest\" class=\"fail\">fail: no &amp; WebGL</p>\
                   <canvas id=\"mandel\" style=\"display: none;\"></canvas>\
                   <div id=\"message\" style=\"display: block;\">WebGL 2 is missing</div>";
        let run = parse_page_dom(dom).unwrap();
        assert_eq!(run.selftest, "fail: no & WebGL");
        assert!(run.canvas_hidden && run.canvas_rect.is_none() && run.zoom.is_none());
        assert_eq!(run.message.as_deref(), Some("WebGL 2 is missing"));
        assert!(parse_page_dom("<p>nothing</p>").is_err());
    }
}
