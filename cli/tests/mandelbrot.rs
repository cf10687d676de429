//! Mandelbrot deep zoom from the df64 snippets, headless: at zoom 1e-13 f32 collapses to
//! one value (every pixel's c rounds to the same f32) while df64 resolves every pixel; at
//! zoom 1 the three precisions draw the same picture; bad flags give clear errors.

use df64gl_cli::experiments::mandelbrot::{
    render_views, MandelAction, MandelPrecision, MandelbrotApp, MandelbrotView, DEFAULT_CENTER,
};

mod common;

#[test]
fn f32_is_blocky_at_1e_13_and_df64_is_not() {
    let k = common::kernels();
    let view = MandelbrotView::parse(DEFAULT_CENTER, 1e-13, 96, 72, None).unwrap();
    let (images, run) =
        render_views(&k, &view, &[MandelPrecision::F32, MandelPrecision::Df64]).unwrap();
    let f32s = run.images[0].stats;
    let df64 = run.images[1].stats;
    // f32: one c for the whole view, so one value; df64: a different value almost everywhere.
    assert!(f32s.distinct <= 2, "{f32s:?}");
    assert!(f32s.equal_neighbours > 0.99, "{f32s:?}");
    assert!(df64.distinct > 96 * 72 / 4, "{df64:?}");
    assert!(df64.equal_neighbours < 0.02, "{df64:?}");
    assert!(df64.escaped > 0.2, "{df64:?}");
    assert_eq!(images[1].counts.len(), 96 * 72);
}

#[test]
fn precisions_agree_on_the_whole_set_and_qf128_resolves_the_deep_view() {
    let k = common::kernels();
    let view = MandelbrotView::parse("-0.5,0", 1.0, 96, 64, Some(200)).unwrap();
    let (images, run) = render_views(&k, &view, &MandelPrecision::ALL).unwrap();
    // At zoom 1 rounding does not show: f32 and df64 match qf128 nearly everywhere.
    for i in &run.images {
        let a = i.agreement_with_qf128.unwrap();
        assert!(a > 0.97, "{:?}: {a}", i.precision);
    }
    // The set's interior (c = -0.5) is inside; a point at the left edge escapes at once.
    let (w, h) = (96usize, 64usize);
    assert!(images[2].counts[(h / 2) * w + w / 2] < 0.0);
    assert!(images[2].counts[(h / 2) * w] >= 0.0);

    let deep = MandelbrotView::parse(DEFAULT_CENTER, 1e-13, 32, 24, Some(1500)).unwrap();
    let (_, run) = render_views(&k, &deep, &[MandelPrecision::Qf128]).unwrap();
    assert!(
        run.images[0].stats.equal_neighbours < 0.02,
        "{:?}",
        run.images[0]
    );
}

#[test]
fn window_actions_pan_zoom_and_switch_precision() {
    let view = MandelbrotView::parse("-0.75,0.1", 1e-3, 200, 100, None).unwrap();
    let mut app = MandelbrotApp::new(view, MandelPrecision::Df64);
    let (re0, im0) = app.view.center_f64();
    let pixel = app.view.pixel_size();
    app.apply(MandelAction::Pan(10.0, -4.0));
    let (re1, im1) = app.view.center_f64();
    // The center is kept to 256 bits; read back as f64, the move is exact to an f64 ulp.
    approx::assert_abs_diff_eq!(re1 - re0, 10.0 * pixel, epsilon = 1e-15);
    approx::assert_abs_diff_eq!(im1 - im0, -4.0 * pixel, epsilon = 1e-15);
    // Zooming in at the center halves the zoom and keeps the center.
    app.apply(MandelAction::Zoom(0.5, 0.0, 0.0));
    assert_eq!(app.view.zoom, 5e-4);
    assert_eq!(app.view.center_f64(), (re1, im1));
    // Zooming at an offset keeps the point under the cursor where it was.
    let p0 = app.view.pixel_size();
    let under = re1 + 50.0 * p0;
    app.apply(MandelAction::Zoom(0.25, 50.0, 0.0));
    let (re2, _) = app.view.center_f64();
    approx::assert_abs_diff_eq!(re2 + 50.0 * app.view.pixel_size(), under, epsilon = 1e-15);
    app.apply(MandelAction::Precision(MandelPrecision::Qf128));
    let title = app.title_text();
    assert!(
        title.contains("qf128") && title.contains("zoom 1.250e-4"),
        "{title}"
    );
    // The zoom stops at its limits instead of reaching zero.
    for _ in 0..200 {
        app.apply(MandelAction::Zoom(1e-3, 0.0, 0.0));
    }
    assert!(app.view.zoom >= 1e-30);
}

fn df64gl(args: &[&str]) -> (i32, String, String) {
    common::run_bin(env!("CARGO_BIN_EXE_df64gl"), args, &[])
}

#[test]
fn headless_command_writes_a_png_and_rejects_bad_flags() {
    let png = std::env::temp_dir().join(format!("df64gl-mandel-{}.png", std::process::id()));
    let p = png.to_str().unwrap();
    let (code, out, err) = df64gl(&[
        "mandelbrot",
        "--center=-0.743643887037158704752191506114774,0.131825904205311970493132056385139",
        "--zoom",
        "1e-13",
        "--precision",
        "df64",
        "--size",
        "64x48",
        "--out",
        p,
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let run: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(run["images"][0]["precision"], "df64");
    assert!(std::fs::metadata(&png).unwrap().len() > 1000);
    let _ = std::fs::remove_file(&png);

    for (args, expect) in [
        (vec!["--zoom", "0"], "positive"),
        (vec!["--zoom", "-1"], "positive"),
        (vec!["--zoom", "1e-40"], "outside"),
        (vec!["--precision", "f16"], "invalid value"),
        (vec!["--size", "20000x10"], "texture limit"),
        (vec!["--size", "big"], "WIDTHxHEIGHT"),
        (vec!["--center", "1.5"], "X,Y"),
        (vec!["--center", "1.5,abc"], "not a decimal"),
        (vec!["--iterations", "0"], "iterations"),
        (vec!["--center", "1e40,0"], "2^60"),
        (vec!["--center", "0,-2e18"], "imaginary part"),
    ] {
        let mut a = vec!["mandelbrot", "--out", p];
        a.extend(args.iter().copied());
        let (code, _, err) = df64gl(&a);
        // Usage errors: exit status 2 (docs/commands.md's table of exit codes).
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(expect), "{args:?}: {err}");
    }
    assert!(!png.exists());
}
