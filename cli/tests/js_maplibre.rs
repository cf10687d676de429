//! `df64gl/maplibre` in MapLibre GL JS 6 (`js/examples/maplibre-custom-layer.html`), in headless
//! Chromium on both ANGLE legs: the custom layer's own vertex shader, captured by transform
//! feedback, against the map's matrix in doubles, in three places at zoom 22 and 24, at every
//! step of a camera moving 1 cm at a time, and on the globe (`vertical-perspective` at 4, 18 and
//! 22, the globe preset's hand-over at 11 to 12); the official example's f32 way beside it. The
//! ready layer (`js/examples/maplibre-ready-layer.html`): its points where `map.project` puts
//! them, in mercator and on the globe, and nothing drawn, with a message, where its check fails.
//! three.js inside MapLibre (`js/examples/maplibre-three.html`): its stock materials' vertex
//! shaders against MapLibre's own placement, in mercator and on the globe, and nothing drawn
//! where the check fails.

mod common;

use std::collections::HashMap;

use df64gl::export::snippet::{snippet, SnippetOptions, SnippetTarget};
use df64gl_cli::web::browser::BrowserBackend;
use df64gl_cli::web::js_module::run_module_page;
use serde_json::Value;

/// A pixel of an f32 mercator coordinate at zoom z is 2^(z - 16) of the world's f32 step; the
/// df64 way holds the map's own projection to this, in CSS pixels.
const DF64_BOUND_PX: f64 = 0.125;

/// The custom layer page with `query`, its rows checked: `rows` of them, each within
/// [`DF64_BOUND_PX`] at every step, every point in front of the camera, the reference being
/// `map.project`'s pixel, and the f32 way over a pixel off from zoom 18 up.
fn custom_layer(backend: BrowserBackend, query: &str, rows: usize) -> Value {
    let v = example(
        backend,
        "/js/examples/maplibre-custom-layer.html",
        query,
        HashMap::new(),
    );
    assert_eq!(v["check"]["pass"], true, "{}: {v}", backend.name());
    let got = v["rows"]
        .as_array()
        .unwrap_or_else(|| panic!("no rows: {v}"));
    assert_eq!(got.len(), rows, "{v}");
    for row in got {
        let df64 = row["df64Px"].as_f64().unwrap_or(f64::INFINITY);
        let f32 = row["f32Px"].as_f64().unwrap_or(0.0);
        let zoom = row["zoom"].as_f64().unwrap_or(0.0);
        let reference = row["referenceVsProjectPx"]
            .as_f64()
            .unwrap_or(f64::INFINITY);
        assert_eq!(row["steps"], 8, "{row}");
        assert_eq!(row["points"], 64, "{row}");
        // Every point in front of the camera: each comparison means something.
        assert_eq!(row["behindCamera"], 0, "{row}");
        assert!(df64 <= DF64_BOUND_PX, "{}: {row}", backend.name());
        // The f32 way is pixels off at these zooms: the page measures what it claims to.
        if zoom >= 18.0 {
            assert!(
                f32 > 1.0,
                "{}: the f32 way within a pixel? {row}",
                backend.name()
            );
        }
        // The reference (the map's matrices in doubles) is map.project's pixel; in the globe
        // preset's hand-over, where the shaders mix the two projections' clip positions,
        // map.project lands within a few hundredths of a pixel of that mix.
        let mixing = row["transition"]
            .as_f64()
            .is_some_and(|t| t > 0.0 && t < 0.999);
        let bound = if mixing { 0.05 } else { 1e-3 };
        assert!(reference < bound, "{}: {row}", backend.name());
    }
    assert_eq!(v["pass"], true, "{v}");
    v
}

#[test]
fn custom_layer_within_an_eighth_of_a_pixel_on_swiftshader() {
    custom_layer(BrowserBackend::Swiftshader, "", 6);
}

#[test]
fn custom_layer_within_an_eighth_of_a_pixel_on_angle_over_mesa() {
    custom_layer(BrowserBackend::AngleGl, "", 6);
}

/// The globe: `vertical-perspective` at zoom 4, 18 and 22 and the globe preset at 11, 11.5 and
/// 12 (globe, half-way, mercator), in three places; the rows' projections and hand-over as
/// asked.
fn custom_layer_on_the_globe(backend: BrowserBackend) {
    let v = custom_layer(backend, "?projection=globe", 18);
    let rows = v["rows"].as_array().cloned().unwrap_or_default();
    let transitions: Vec<String> = rows
        .iter()
        .map(|r| format!("{} {} {}", r["projection"], r["zoom"], r["transition"]))
        .collect();
    for place in 0..3 {
        assert!(
            transitions[3 * place..3 * place + 3]
                .iter()
                .all(|t| t.starts_with("\"vertical-perspective\"") && t.ends_with(" 1")),
            "{transitions:?}"
        );
        let preset = &transitions[9 + 3 * place..9 + 3 * place + 3];
        assert_eq!(
            preset,
            &["\"globe\" 11 1", "\"globe\" 11.5 0.5", "\"globe\" 12 null"],
            "{transitions:?}"
        );
    }
}

#[test]
fn custom_layer_on_the_globe_within_an_eighth_of_a_pixel_on_swiftshader() {
    custom_layer_on_the_globe(BrowserBackend::Swiftshader);
}

#[test]
fn custom_layer_on_the_globe_within_an_eighth_of_a_pixel_on_angle_over_mesa() {
    custom_layer_on_the_globe(BrowserBackend::AngleGl);
}

/// The example page at `path` with `query` and the files `memory` serves.
fn example(
    backend: BrowserBackend,
    path: &str,
    query: &str,
    memory: HashMap<String, Vec<u8>>,
) -> Value {
    common::js_dev_dependencies();
    let chromium = common::chromium();
    let v = run_module_page(&chromium, backend, path, query, memory, 0)
        .unwrap_or_else(|e| panic!("{path}{query} on {}: {e}", backend.name()));
    eprintln!("{}: {v}", backend.name());
    v
}

/// `js/examples/maplibre-ready-layer.html` with `query` and the files `memory` serves.
fn ready_layer(backend: BrowserBackend, query: &str, memory: HashMap<String, Vec<u8>>) -> Value {
    example(
        backend,
        "/js/examples/maplibre-ready-layer.html",
        query,
        memory,
    )
}

/// The library built without its compiler barrier (which ANGLE over Mesa's compiler breaks),
/// served at `/unprotected.glsl`: a page given `?source=/unprotected.glsl` checks with it.
fn unprotected_library() -> HashMap<String, Vec<u8>> {
    let unprotected = snippet(&SnippetOptions {
        no_fallback: true,
        ..SnippetOptions::new(SnippetTarget::Es300)
    })
    .unwrap_or_else(|e| panic!("the unprotected export: {e}"));
    HashMap::from([("/unprotected.glsl".to_string(), unprotected.into_bytes())])
}

/// Where a layer's check failed: it says it draws nothing, and why.
fn says_it_draws_nothing(v: &Value) {
    assert_eq!(v["check"]["pass"], false, "{v}");
    let message = v["message"].as_str().unwrap_or("");
    assert!(
        message.contains("draws nothing") && message.contains("failed their check"),
        "{v}"
    );
    assert_eq!(v["pass"], true, "{v}");
}

/// The ready layer draws each point where `map.project` puts it (a 9 px point at zoom 23, where
/// the f32 way is 128 px off), once its check passed.
fn ready_layer_draws(backend: BrowserBackend) {
    let v = ready_layer(backend, "", HashMap::new());
    assert_eq!(v["check"]["pass"], true, "{v}");
    assert!(v["message"].is_null(), "{v}");
    assert_eq!(v["red"], 5, "{v}");
    assert_eq!(v["pass"], true, "{v}");
}

#[test]
fn ready_layer_draws_on_swiftshader() {
    ready_layer_draws(BrowserBackend::Swiftshader);
}

#[test]
fn ready_layer_draws_on_angle_over_mesa() {
    ready_layer_draws(BrowserBackend::AngleGl);
}

/// With the library built without its compiler barrier, which ANGLE over Mesa's compiler
/// breaks, the layer's check fails and it draws nothing, with a message saying why.
#[test]
fn ready_layer_refuses_to_draw_where_its_check_fails() {
    let v = ready_layer(
        BrowserBackend::AngleGl,
        "?source=/unprotected.glsl",
        unprotected_library(),
    );
    assert_eq!(v["red"], 0, "{v}");
    assert_eq!(v["white"], 5, "nothing drawn under the points: {v}");
    says_it_draws_nothing(&v);
}

/// Under the globe (`vertical-perspective`, which defines `GLOBE` at every zoom) the ready
/// layer draws, each point where `map.project` puts it. At zoom 23 the globe and mercator agree
/// within a pixel here: the custom layer's globe test (zoom 4 and 11) is what tells them apart.
#[test]
fn ready_layer_draws_on_the_globe() {
    let v = ready_layer(
        BrowserBackend::Swiftshader,
        "?projection=vertical-perspective",
        HashMap::new(),
    );
    assert_eq!(v["check"]["pass"], true, "{v}");
    assert!(v["message"].is_null(), "{v}");
    assert_eq!(v["red"], 5, "{v}");
    assert_eq!(v["pass"], true, "{v}");
}

/// `js/examples/maplibre-three.html` with `query` and the files `memory` serves.
fn three_page(backend: BrowserBackend, query: &str, memory: HashMap<String, Vec<u8>>) -> Value {
    example(backend, "/js/examples/maplibre-three.html", query, memory)
}

/// three.js inside MapLibre: a lit model (MeshStandardMaterial), its edges
/// (LineBasicMaterial) and 64 points (PointsMaterial) from the layer's own vertex shaders,
/// within 1/8 px of MapLibre's own placement in doubles in three places, at every step of a
/// camera moving 1 cm: in mercator at zoom 22 and 24 (`query` empty), on the globe at 18 and 22
/// (`?projection=vertical-perspective`); the same points as three.js alone holds them (f32) are
/// pixels off.
fn three_inside_maplibre(backend: BrowserBackend, query: &str, projection: &str) {
    let v = three_page(backend, query, HashMap::new());
    assert_eq!(v["check"]["pass"], true, "{v}");
    let rows = v["rows"]
        .as_array()
        .unwrap_or_else(|| panic!("no rows: {v}"));
    assert_eq!(rows.len(), 6, "{v}");
    for row in rows {
        assert_eq!(row["projection"], projection, "{row}");
        assert_eq!(row["steps"], 8, "{row}");
        // The block and 5 studs (36 vertices each), 12 edges, 64 points.
        assert_eq!(row["vertices"], 304, "{row}");
        assert_eq!(row["behindCamera"], 0, "{row}");
        for key in ["modelPx", "outlinePx", "pointsPx"] {
            let px = row[key].as_f64().unwrap_or(f64::INFINITY);
            assert!(px <= DF64_BOUND_PX, "{}: {key} {row}", backend.name());
        }
        let plain = row["plainPointsPx"].as_f64().unwrap_or(0.0);
        assert!(
            plain > 1.0,
            "{}: f32 world positions within a pixel? {row}",
            backend.name()
        );
    }
    assert!(v["message"].is_null(), "{v}");
    assert_eq!(v["pass"], true, "{v}");
}

#[test]
fn three_inside_maplibre_within_an_eighth_of_a_pixel_on_swiftshader() {
    three_inside_maplibre(BrowserBackend::Swiftshader, "", "mercator");
}

#[test]
fn three_inside_maplibre_within_an_eighth_of_a_pixel_on_angle_over_mesa() {
    three_inside_maplibre(BrowserBackend::AngleGl, "", "mercator");
}

#[test]
fn three_on_the_globe_within_an_eighth_of_a_pixel_on_swiftshader() {
    three_inside_maplibre(
        BrowserBackend::Swiftshader,
        "?projection=vertical-perspective",
        "vertical-perspective",
    );
}

#[test]
fn three_on_the_globe_within_an_eighth_of_a_pixel_on_angle_over_mesa() {
    three_inside_maplibre(
        BrowserBackend::AngleGl,
        "?projection=vertical-perspective",
        "vertical-perspective",
    );
}

/// The three.js layer checked with the library built without its compiler barrier (which
/// ANGLE over Mesa breaks): its check fails, it draws none of its materials, and says why.
#[test]
fn three_layer_refuses_to_draw_where_its_check_fails() {
    let v = three_page(
        BrowserBackend::AngleGl,
        "?source=/unprotected.glsl",
        unprotected_library(),
    );
    assert_eq!(v["drew"], 0, "{v}");
    says_it_draws_nothing(&v);
}
