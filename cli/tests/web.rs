//! `df64gl web`: the self-contained WebGL 2 page, loaded in headless Chromium on ANGLE over
//! SwiftShader as a web developer's browser would, and the WebGPU page beside it (the WGSL
//! export, Dawn and Tint over SwiftShader). Each self-test must say `pass`; after a scripted
//! wheel zoom to 1e-13 at Seahorse valley each screenshot must show what the headless
//! Mandelbrot test demands of the counts: the f32 pane one flat colour (every pixel's c rounds
//! to the same f32), the df64 pane a picture (neighbours differ, some points escape, some do
//! not); and the WebGPU page's df64 pane must be the WebGL page's, pixel for pixel but for a
//! few palette roundings (the same steps, each exact, on the same f32 words). The failure
//! paths (no WebGL 2 or WebGPU, no float targets or no adapter, a failed self-test) must
//! explain themselves and draw nothing.

mod common;

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use df64gl_cli::web::browser::BrowserBackend;
use df64gl_cli::web::pages::{load_page, load_webgpu_page, write_web_page, PageRun, WEBGPU_PAGE};

/// The page written once per test into its own folder.
fn page(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("df64gl-web-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    write_web_page(&dir, false).expect("df64gl web writes the page")
}

fn load(page: &Path, query: &str, shot: Option<(&Path, u32, u32)>) -> PageRun {
    load_page(
        &common::chromium(),
        BrowserBackend::Swiftshader,
        page,
        query,
        shot,
    )
    .unwrap_or_else(|e| panic!("loading the page with {query:?}: {e}"))
}

fn load_webgpu(page: &Path, query: &str, shot: Option<(&Path, u32, u32)>) -> PageRun {
    load_webgpu_page(
        &common::chromium(),
        &page.with_file_name(WEBGPU_PAGE),
        query,
        shot,
    )
    .unwrap_or_else(|e| panic!("loading the WebGPU page with {query:?}: {e}"))
}

/// What the screenshot of one pane shows (colours, as the user sees them).
#[derive(Debug)]
struct PaneStats {
    /// Distinct colours.
    distinct: usize,
    /// Share of adjacent pairs of escaped (not black) pixels with the same colour.
    equal_neighbours: f64,
    /// Share of pixels that are not black (escaped).
    escaped: f64,
}

fn pane_stats(rgb: &[[u8; 3]], w: usize, h: usize) -> PaneStats {
    let black = |p: [u8; 3]| p == [0, 0, 0];
    let (mut pairs, mut equal) = (0usize, 0usize);
    for y in 0..h {
        for x in 0..w {
            let p = rgb[y * w + x];
            if black(p) {
                continue;
            }
            for (nx, ny) in [(x + 1, y), (x, y + 1)] {
                if nx < w && ny < h && !black(rgb[ny * w + nx]) {
                    pairs += 1;
                    equal += (rgb[ny * w + nx] == p) as usize;
                }
            }
        }
    }
    PaneStats {
        distinct: rgb.iter().collect::<HashSet<_>>().len(),
        equal_neighbours: equal as f64 / pairs.max(1) as f64,
        escaped: rgb.iter().filter(|p| !black(**p)).count() as f64 / rgb.len() as f64,
    }
}

/// The screenshot's pixels inside `rect` (left, top, width, height), split into `panes`
/// side-by-side panes.
fn panes_of(png_path: &Path, rect: [u32; 4], panes: usize) -> Vec<PaneStats> {
    let pane_w = rect[2] as usize / panes;
    pane_pixels(png_path, rect, panes)
        .iter()
        .map(|rgb| pane_stats(rgb, pane_w, rect[3] as usize))
        .collect()
}

/// The pixels of each pane, rows top to bottom.
fn pane_pixels(png_path: &Path, rect: [u32; 4], panes: usize) -> Vec<Vec<[u8; 3]>> {
    let file = std::fs::File::open(png_path).expect("the screenshot exists");
    let mut decoder = png::Decoder::new(file);
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().expect("the screenshot is a PNG");
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).expect("the screenshot decodes");
    let channels = info.color_type.samples();
    let [left, top, width, height] = rect.map(|v| v as usize);
    assert!(left + width <= info.width as usize && top + height <= info.height as usize);
    let pane_w = width / panes;
    (0..panes)
        .map(|k| {
            let mut rgb = Vec::with_capacity(pane_w * height);
            for y in top..top + height {
                for x in left + k * pane_w..left + (k + 1) * pane_w {
                    let i = (y * info.width as usize + x) * channels;
                    rgb.push([buf[i], buf[i + 1], buf[i + 2]]);
                }
            }
            rgb
        })
        .collect()
}

#[test]
fn web_command_writes_its_pages_and_refuses_to_overwrite_without_force() {
    let dir = std::env::temp_dir().join(format!("df64gl-web-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let exe = env!("CARGO_BIN_EXE_df64gl");
    let out = dir.to_str().unwrap();
    let (code, stdout, err) = common::run_bin(exe, &["web", "--out", out], &[]);
    assert_eq!(code, 0, "{err}");
    assert!(stdout.contains("index.html"), "{stdout}");
    let files: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(files.len(), 3, "three self-contained files");
    let repro = std::fs::read_to_string(dir.join("repro.html")).unwrap();
    assert!(repro.contains("type=\"importmap\"") && repro.contains("df64gl-repro-data"));
    assert!(stdout.contains("repro.html"), "{stdout}");
    let html = std::fs::read_to_string(dir.join("index.html")).unwrap();
    assert!(html.contains("id=\"df64-selftest\"") && html.contains("df64_add"));
    let webgpu = std::fs::read_to_string(dir.join(WEBGPU_PAGE)).unwrap();
    assert!(webgpu.contains("id=\"df64-selftest\"") && webgpu.contains("fn df64_add("));
    assert!(stdout.contains(WEBGPU_PAGE), "{stdout}");

    let (code, _, err) = common::run_bin(exe, &["web", "--out", out], &[]);
    assert_eq!(code, 2, "an existing folder is refused (usage): {err}");
    assert!(err.contains("--force"), "{err}");
    let (code, _, err) = common::run_bin(exe, &["web", "--out", out, "--force"], &[]);
    assert_eq!(code, 0, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// 86 wheel notches of sqrt(2) from zoom 1: 2^-43 = 1.137e-13, through the page's own wheel
/// handler (zoom at the cursor, the center kept as exact binary fixed point).
const DEEP_ZOOM_QUERY: &str = "?size=160x120&wheel=86&qf128=0";

/// The page drew f32 and df64 at the deep zoom: the view the query asked for, and the panes.
fn assert_drew_the_deep_zoom(run: &PageRun) -> [u32; 4] {
    assert!(run.selftest.starts_with("pass"), "{run:#?}");
    assert!(run.selftest.contains("qf128 pass"), "{run:#?}");
    assert!(
        run.renderer.to_lowercase().contains("swiftshader"),
        "{}",
        run.renderer
    );
    let zoom = run.zoom.expect("the page drew");
    approx::assert_relative_eq!(zoom, 2f64.powi(-43), max_relative = 1e-12);
    assert_eq!(run.panes, ["f32", "df64"]);
    let rect = run.canvas_rect.expect("the canvas's place on the page");
    assert_eq!([rect[2], rect[3]], [320, 120]);
    rect
}

/// f32 is one flat colour, df64 a picture.
fn assert_df64_resolves_what_f32_cannot(stats: &[PaneStats]) {
    eprintln!("f32 pane: {:?}\ndf64 pane: {:?}", stats[0], stats[1]);
    let (f32s, df64) = (&stats[0], &stats[1]);
    // f32: one c for the whole view, so one colour.
    assert!(f32s.distinct <= 2, "{f32s:?}");
    assert!(f32s.equal_neighbours > 0.99, "{f32s:?}");
    // df64: a picture, the set's interior and escaped points. Colours are 8-bit, so smooth
    // counts that differ by little share one (measured: 1,201 colours, 5.7% equal neighbours,
    // 91% escaped; the counts themselves differ almost everywhere in the headless test).
    assert!(df64.distinct > 500, "{df64:?}");
    assert!(df64.equal_neighbours < 0.1, "{df64:?}");
    assert!(df64.escaped > 0.2 && df64.escaped < 0.99, "{df64:?}");
}

#[test]
fn page_passes_its_self_test_and_after_a_wheel_zoom_df64_resolves_what_f32_cannot() {
    let page = page("zoom");
    let shot = page.with_file_name("zoomed.png");
    let run = load(&page, DEEP_ZOOM_QUERY, Some((&shot, 800, 500)));
    eprintln!("{run:#?}");
    let rect = assert_drew_the_deep_zoom(&run);
    assert!(
        run.checks.contains("4096 of 4096 pixels green"),
        "{}",
        run.checks
    );
    assert_df64_resolves_what_f32_cannot(&panes_of(&shot, rect, 2));

    // The WebGPU page, the same view through the WGSL export: the same pictures.
    let gpu_shot = page.with_file_name("zoomed-webgpu.png");
    let gpu = load_webgpu(&page, DEEP_ZOOM_QUERY, Some((&gpu_shot, 800, 500)));
    eprintln!("{gpu:#?}");
    let gpu_rect = assert_drew_the_deep_zoom(&gpu);
    assert!(
        gpu.checks.contains("df64 worst of the known answers"),
        "{}",
        gpu.checks
    );
    assert_df64_resolves_what_f32_cannot(&panes_of(&gpu_shot, gpu_rect, 2));
    let webgl_df64 = &pane_pixels(&shot, rect, 2)[1];
    let webgpu_df64 = &pane_pixels(&gpu_shot, gpu_rect, 2)[1];
    let close = webgl_df64
        .iter()
        .zip(webgpu_df64)
        .filter(|(a, b)| (0..3).all(|c| a[c].abs_diff(b[c]) <= 2))
        .count();
    let share = close as f64 / webgl_df64.len() as f64;
    eprintln!(
        "WebGPU's df64 pane within 2 levels of WebGL's at {:.2}% of pixels",
        100.0 * share
    );
    assert!(share > 0.99, "{share}");

    // The qf128 pane (the export with qf128, mandelbrot_qf128.wgsl), small: a picture too.
    let qf_shot = page.with_file_name("zoomed-webgpu-qf128.png");
    let qf = load_webgpu(&page, "?size=40x30&wheel=86", Some((&qf_shot, 400, 300)));
    assert_eq!(qf.panes, ["f32", "df64", "qf128"], "{qf:#?}");
    let qf_rect = qf.canvas_rect.expect("the canvas's place on the page");
    let stats = panes_of(&qf_shot, qf_rect, 3);
    eprintln!("qf128 pane: {:?}", stats[2]);
    assert!(stats[0].distinct <= 2, "{:?}", stats[0]);
    assert!(stats[2].distinct > 100, "{:?}", stats[2]);
    assert!(
        stats[2].escaped > 0.2 && stats[2].escaped < 0.99,
        "{:?}",
        stats[2]
    );
    if std::env::var_os("DF64GL_KEEP_WEB_TEST").is_none() {
        let _ = std::fs::remove_dir_all(page.parent().unwrap());
    }
}

/// Each `?simulate=` path fails, says why (and that df64 is not drawn) and draws nothing.
fn assert_failures_explained(load: impl Fn(&str) -> PageRun, cases: &[(&str, &str)]) {
    for (simulate, says) in cases {
        let run = load(&format!("?simulate={simulate}"));
        assert!(run.selftest.starts_with("fail"), "{simulate}: {run:#?}");
        let message = run.message.as_deref().unwrap_or_default();
        assert!(message.contains(says), "{simulate}: {run:#?}");
        assert!(message.contains("df64"), "{simulate}: {run:#?}");
        assert!(
            run.canvas_hidden && run.zoom.is_none(),
            "{simulate}: {run:#?}"
        );
    }
}

#[test]
fn page_explains_a_missing_feature_or_a_failed_self_test_and_draws_nothing() {
    let page = page("fail");
    assert_failures_explained(
        |q| load(&page, q, None),
        &[
            ("no-webgl2", "WebGL 2 is not available"),
            ("no-float", "EXT_color_buffer_float is missing"),
            ("selftest-fail", "self-test failed"),
        ],
    );
    let run = load(&page, "?zoom=banana", None);
    assert!(run.selftest.starts_with("fail"), "{run:#?}");
    assert!(run.message.unwrap_or_default().contains("zoom=banana"));

    assert_failures_explained(
        |q| load_webgpu(&page, q, None),
        &[
            ("no-webgpu", "WebGPU is not available"),
            ("no-adapter", "gave no adapter"),
            ("selftest-fail", "self-test failed"),
        ],
    );
    let run = load_webgpu(&page, "?size=0x5", None);
    assert!(run.selftest.starts_with("fail"), "{run:#?}");
    assert!(run.message.unwrap_or_default().contains("size=0x5"));
    let _ = std::fs::remove_dir_all(page.parent().unwrap());
}
