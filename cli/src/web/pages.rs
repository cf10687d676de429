//! `df64gl web`: two self-contained HTML pages (no network, no build step) that show a web
//! developer df64 in their own browser. `index.html` (WebGL 2) runs the es300 export's probe
//! shader and a float check of df64 and qf128 against baked oracle answers (the npm module's
//! `check(gl)`); `webgpu.html` runs the WGSL export's known answers (`checkWebGPU(device)`).
//! Each prints the verdict with the renderer or adapter in the element `#df64-selftest` (text
//! starting with `pass` or `fail`), and then draws the Mandelbrot set in f32 next to df64 (and
//! qf128 where its check passed) with mouse pan and wheel zoom: the WebGL page from
//! `glsl/mandelbrot.glsl`, the WebGPU page from `assets/web/mandelbrot.wgsl`, the same steps
//! written in WGSL after the export as a user would. The center lives in the page as an exact
//! binary fixed-point number (JavaScript `BigInt`), shown as decimal strings and split into f32
//! words for the shader, so the zoom is limited by the arithmetic, not by JavaScript's doubles.
//!
//! The page's query string drives it for tests and links: `center=RE,IM`, `zoom=Z`,
//! `size=WxH` (each pane), `iter=N`, `qf128=0`, `wheel=K` (K scripted wheel notches in at the
//! center of the df64 pane after the self-test), `pan=DX,DY` (a scripted drag in pixels), and
//! `simulate=...` (the page's failure paths, as a browser without the feature or a driver that
//! breaks df64 would take them): `no-webgl2|no-float|selftest-fail` on the WebGL page,
//! `no-webgpu|no-adapter|selftest-fail` on the WebGPU page. The WebGPU page works
//! asynchronously and dispatches `df64gl-ready` on `window` when it has settled.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::browser::{element, run_page, run_url, BrowserBackend};
use super::js_module::inline_module;
use super::serve::{StaticServer, DONE_PATH, WAIT_PATH};
use crate::error::ExperimentError;
use crate::support::mandelbrot_view::{DEFAULT_CENTER, FULL_WIDTH, MAX_ZOOM, MIN_ZOOM};
use df64gl::gl::GlslLibrary;

/// The pages' markup, with `/*DF64GL_TITLE*/`, `/*DF64GL_ABOUT*/`, `/*DF64GL_DATA*/` and
/// `/*DF64GL_SCRIPT*/` where each page's own parts go.
const PAGE_TEMPLATE: &str = include_str!("../../../assets/web/page.html");
/// What both pages' scripts share: the view, its exact center and its controls.
const VIEW_SCRIPT: &str = include_str!("../../../assets/web/view.js");
const WEBGL_SCRIPT: &str = include_str!("../../../assets/web/page.js");
const WEBGPU_SCRIPT: &str = include_str!("../../../assets/web/webgpu.js");
/// The Mandelbrot in WGSL (f32 and df64 panes), written after the export as a user would.
pub const MANDELBROT_WGSL: &str = include_str!("../../../assets/web/mandelbrot.wgsl");
/// Its qf128 pane, after the export with qf128 and `MANDELBROT_WGSL`.
pub const MANDELBROT_QF128_WGSL: &str = include_str!("../../../assets/web/mandelbrot_qf128.wgsl");

/// The file name of the WebGL 2 page in `df64gl web`'s folder.
pub const WEBGL_PAGE: &str = "index.html";
/// The file name of the WebGPU page beside it.
pub const WEBGPU_PAGE: &str = "webgpu.html";

/// Which of the two pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WebPage {
    /// `index.html`: GLSL ES 3.00 in WebGL 2.
    WebGl,
    /// `webgpu.html`: WGSL in WebGPU.
    WebGpu,
}

impl WebPage {
    /// Its file name in the folder `df64gl web` writes.
    pub fn file_name(self) -> &'static str {
        match self {
            WebPage::WebGl => WEBGL_PAGE,
            WebPage::WebGpu => WEBGPU_PAGE,
        }
    }
}

#[derive(Serialize)]
struct PageData {
    version: &'static str,
    mandelbrot: String,
    mandelbrot_wgsl: &'static str,
    mandelbrot_qf128_wgsl: &'static str,
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

/// A page's HTML: self-contained, the shaders and the check data inline.
pub fn web_page(page: WebPage) -> Result<String, ExperimentError> {
    let data = PageData {
        version: env!("CARGO_PKG_VERSION"),
        // Each page carries only the Mandelbrot it draws.
        mandelbrot: match page {
            WebPage::WebGl => mandelbrot_body()?,
            WebPage::WebGpu => String::new(),
        },
        mandelbrot_wgsl: if page == WebPage::WebGpu {
            MANDELBROT_WGSL
        } else {
            ""
        },
        mandelbrot_qf128_wgsl: if page == WebPage::WebGpu {
            MANDELBROT_QF128_WGSL
        } else {
            ""
        },
        default_center: DEFAULT_CENTER,
        full_width: FULL_WIDTH,
        min_zoom: MIN_ZOOM,
        max_zoom: MAX_ZOOM,
    };
    let json = serde_json::to_string(&data)
        .map_err(|e| ExperimentError::Invalid(format!("page data: {e}")))?
        // Nothing inside the script element may close it.
        .replace('<', "\\u003c");
    // The npm module (its generated half, then its code), the shared view and the page's
    // script in one inline module script: a file:// page cannot import one.
    let (own_script, title, about) = match page {
        WebPage::WebGl => (
            WEBGL_SCRIPT,
            "df64gl: df64 and qf128 in WebGL 2",
            "Generated by <code>df64gl web</code> (df64gl <span id=\"version\"></span>). The df64 \
             GLSL here is <code>df64gl glsl --target es300</code>: paste it after <code>#version \
             300 es</code> and the <code>precision highp</code> lines of your own shader, and \
             prove it on your users' browsers before trusting it with <code>check(gl)</code> \
             from df64gl's npm module (<code>js/</code>), which this page runs. The same in WGSL: \
             <a href=\"webgpu.html\">webgpu.html</a>.",
        ),
        WebPage::WebGpu => (
            WEBGPU_SCRIPT,
            "df64gl: df64 and qf128 in WebGPU (WGSL)",
            "Generated by <code>df64gl web</code> (df64gl <span id=\"version\"></span>). The df64 \
             WGSL here is <code>df64gl wgsl</code> (<code>DF64_WGSL</code> of df64gl's npm \
             module), translated from the same GLSL as the WebGL page's: paste it into your \
             module, bind 16 bytes of zeros as a read-only storage buffer at <code>@group(0) \
             @binding(0)</code>, and prove it on your users' devices before trusting it with \
             <code>await checkWebGPU(device)</code>, which this page runs. The same in WebGL 2: \
             <a href=\"index.html\">index.html</a>.",
        ),
    };
    let script = format!("{}\n{VIEW_SCRIPT}\n{own_script}", inline_module()?);
    if script.contains("</script") {
        return Err(ExperimentError::Invalid(
            "the page's script would close its element early".into(),
        ));
    }
    Ok(PAGE_TEMPLATE
        .replace("/*DF64GL_TITLE*/", title)
        .replace("/*DF64GL_ABOUT*/", about)
        .replace("/*DF64GL_DATA*/", &json)
        .replace("/*DF64GL_SCRIPT*/", &script))
}

/// Writes the pages, `dir/index.html` (WebGL 2), `dir/webgpu.html` (WebGPU) and `dir/repro.html`
/// (the papers' experiments); `dir` must not exist unless `force`. Returns the WebGL page's path (the other is beside it).
pub fn write_web_page(dir: &Path, force: bool) -> Result<PathBuf, ExperimentError> {
    if dir.exists() && !force {
        // As `repro --out`: a usage error (exit status 2).
        return Err(ExperimentError::Invalid(format!(
            "{} already exists: choose another --out folder, or add --force to overwrite its \
             index.html",
            dir.display()
        )));
    }
    std::fs::create_dir_all(dir).map_err(|e| ExperimentError::Io(dir.display().to_string(), e))?;
    for page in [WebPage::WebGpu, WebPage::WebGl] {
        let html = web_page(page)?;
        let path = dir.join(page.file_name());
        std::fs::write(&path, html)
            .map_err(|e| ExperimentError::Io(path.display().to_string(), e))?;
    }
    super::repro_page::write_repro_page(dir)?;
    Ok(dir.join(WEBGL_PAGE))
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

/// Chromium's flags for a screenshot of the window (`width` x `height` CSS pixels at scale 1).
fn screenshot_flags(screenshot: Option<(&Path, u32, u32)>) -> Vec<String> {
    let mut extra = Vec::new();
    if let Some((path, width, height)) = screenshot {
        extra.extend([
            format!("--screenshot={}", path.display()),
            format!("--window-size={width},{height}"),
            "--hide-scrollbars".into(),
            "--force-device-scale-factor=1".into(),
        ]);
    }
    extra
}

/// Loads the WebGL page at `page` with `query` (`?size=160x120&wheel=86`, or empty) in headless
/// Chromium on `backend`; with `screenshot`, also saves the window (`width` x `height` CSS
/// pixels at scale 1) as a PNG there.
pub fn load_page(
    chromium: &Path,
    backend: BrowserBackend,
    page: &Path,
    query: &str,
    screenshot: Option<(&Path, u32, u32)>,
) -> Result<PageRun, ExperimentError> {
    parse_page_dom(&run_page(
        chromium,
        backend,
        page,
        query,
        &screenshot_flags(screenshot),
    )?)
}

/// What the test server adds to the WebGPU page's head: an image request that holds the load
/// event (and so Chromium's DOM dump and screenshot) until the page's `df64gl-ready`.
fn held_until_ready(html: &str) -> Result<String, ExperimentError> {
    let hook = format!(
        "<img src=\"{WAIT_PATH}\" alt=\"\" hidden>\n<script>window.addEventListener('df64gl-ready', \
         function () {{ fetch('{DONE_PATH}', {{ method: 'POST' }}); }});</script>\n</head>"
    );
    if !html.contains("</head>") {
        return Err(ExperimentError::Invalid(
            "the WebGPU page has no </head> to hold its load event at".into(),
        ));
    }
    Ok(html.replacen("</head>", &hook, 1))
}

/// Loads the WebGPU page at `page` with `query` in headless Chromium's WebGPU (Dawn over
/// SwiftShader), served from 127.0.0.1 (WebGPU's promises settle after the load event a
/// file:// page ends on, so the server holds that event until the page is ready).
pub fn load_webgpu_page(
    chromium: &Path,
    page: &Path,
    query: &str,
    screenshot: Option<(&Path, u32, u32)>,
) -> Result<PageRun, ExperimentError> {
    let html = std::fs::read_to_string(page)
        .map_err(|e| ExperimentError::Io(page.display().to_string(), e))?;
    let served = format!("/{WEBGPU_PAGE}");
    let memory = HashMap::from([(served.clone(), held_until_ready(&html)?.into_bytes())]);
    let root = page.parent().unwrap_or(Path::new("."));
    let server = StaticServer::start(root, memory)?;
    let dom = run_url(
        chromium,
        BrowserBackend::WebGpu,
        &server.url(&format!("{served}{query}")),
        &screenshot_flags(screenshot),
    )?;
    parse_page_dom(&dom)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_is_self_contained_and_checks_carry_exact_answers() {
        for page in [WebPage::WebGl, WebPage::WebGpu] {
            let html = web_page(page).unwrap();
            assert!(html.contains("id=\"df64-selftest\""));
            assert!(!html.contains("/*DF64GL_"), "{page:?}");
            // No network: nothing is fetched from elsewhere.
            assert!(
                !html.contains("http://") && !html.contains("https://") && !html.contains(" src="),
                "{page:?}"
            );
            let held = held_until_ready(&html).unwrap();
            assert!(held.contains(WAIT_PATH) && held.matches("</head>").count() == 1);
        }
        let webgpu = web_page(WebPage::WebGpu).unwrap();
        assert!(webgpu.contains("fn mandel_df64_pane") && webgpu.contains("checkWebGPU("));
        assert!(webgpu.contains("fn df64_add("), "the WGSL export is inline");
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
