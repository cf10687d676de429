//! `df64gl/maplibre` in MapLibre GL JS 6 (`js/examples/maplibre-custom-layer.html`), in headless
//! Chromium on both ANGLE legs: the custom layer's own vertex shader, captured by transform
//! feedback, against the map's matrix in doubles, in three places at zoom 22 and 24, at every
//! step of a camera moving 1 cm at a time; the official example's f32 way beside it. The ready
//! layer (`js/examples/maplibre-ready-layer.html`): its points where `map.project` puts them,
//! and nothing drawn, with a message, where its check fails.

mod common;

use std::collections::HashMap;

use df64gl::export::snippet::{snippet, SnippetOptions, SnippetTarget};
use df64gl_cli::web::browser::BrowserBackend;
use df64gl_cli::web::js_module::run_module_page;
use serde_json::Value;

/// A pixel of an f32 mercator coordinate at zoom z is 2^(z - 16) of the world's f32 step; the
/// df64 way holds the map's own projection to this, in CSS pixels.
const DF64_BOUND_PX: f64 = 0.125;

fn custom_layer(backend: BrowserBackend) -> Value {
    common::js_dev_dependencies();
    let chromium = common::chromium();
    let v = run_module_page(
        &chromium,
        backend,
        "/js/examples/maplibre-custom-layer.html",
        "",
        HashMap::new(),
        0,
    )
    .unwrap_or_else(|e| panic!("maplibre-custom-layer.html on {}: {e}", backend.name()));
    eprintln!("{}: {v}", backend.name());
    assert_eq!(v["check"]["pass"], true, "{}: {v}", backend.name());
    let rows = v["rows"]
        .as_array()
        .unwrap_or_else(|| panic!("no rows: {v}"));
    // Three places, two zooms.
    assert_eq!(rows.len(), 6, "{v}");
    for row in rows {
        let df64 = row["df64Px"].as_f64().unwrap_or(f64::INFINITY);
        let f32 = row["f32Px"].as_f64().unwrap_or(0.0);
        let reference = row["referenceVsProjectPx"]
            .as_f64()
            .unwrap_or(f64::INFINITY);
        assert_eq!(row["steps"], 8, "{row}");
        assert_eq!(row["points"], 64, "{row}");
        // Every point in front of the camera: each comparison means something.
        assert_eq!(row["behindCamera"], 0, "{row}");
        assert!(df64 <= DF64_BOUND_PX, "{}: {row}", backend.name());
        // The f32 way is pixels off at these zooms: the page measures what it claims to.
        assert!(
            f32 > 1.0,
            "{}: the f32 way within a pixel? {row}",
            backend.name()
        );
        // The reference (the map's matrix in doubles) is map.project's pixel.
        assert!(reference < 1e-3, "{}: {row}", backend.name());
    }
    assert_eq!(v["pass"], true, "{v}");
    v
}

#[test]
fn custom_layer_within_an_eighth_of_a_pixel_on_swiftshader() {
    custom_layer(BrowserBackend::Swiftshader);
}

#[test]
fn custom_layer_within_an_eighth_of_a_pixel_on_angle_over_mesa() {
    custom_layer(BrowserBackend::AngleGl);
}

/// `js/examples/maplibre-ready-layer.html` with `query` and the files `memory` serves.
fn ready_layer(backend: BrowserBackend, query: &str, memory: HashMap<String, Vec<u8>>) -> Value {
    common::js_dev_dependencies();
    let chromium = common::chromium();
    let v = run_module_page(
        &chromium,
        backend,
        "/js/examples/maplibre-ready-layer.html",
        query,
        memory,
        0,
    )
    .unwrap_or_else(|e| panic!("maplibre-ready-layer.html on {}: {e}", backend.name()));
    eprintln!("{}: {v}", backend.name());
    v
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
    let unprotected = snippet(&SnippetOptions {
        no_fallback: true,
        ..SnippetOptions::new(SnippetTarget::Es300)
    })
    .unwrap_or_else(|e| panic!("the unprotected export: {e}"));
    let mut memory = HashMap::new();
    memory.insert("/unprotected.glsl".to_string(), unprotected.into_bytes());
    let v = ready_layer(BrowserBackend::AngleGl, "?source=/unprotected.glsl", memory);
    assert_eq!(v["check"]["pass"], false, "{v}");
    assert_eq!(v["red"], 0, "{v}");
    assert_eq!(v["white"], 5, "nothing drawn under the points: {v}");
    let message = v["message"].as_str().unwrap_or("");
    assert!(
        message.contains("draws nothing") && message.contains("failed their check"),
        "{v}"
    );
    assert_eq!(v["pass"], true, "{v}");
}

/// Under the globe (`vertical-perspective`, which defines `GLOBE` at every zoom) the ready
/// layer draws nothing and says why: never a position off the map's projection.
#[test]
fn ready_layer_refuses_the_globe() {
    let v = ready_layer(
        BrowserBackend::Swiftshader,
        "?projection=vertical-perspective",
        HashMap::new(),
    );
    assert_eq!(v["check"]["pass"], true, "{v}");
    assert_eq!(v["red"], 0, "{v}");
    let message = v["message"].as_str().unwrap_or("");
    assert!(
        message.contains("draws nothing") && message.contains("globe"),
        "{v}"
    );
    assert_eq!(v["pass"], true, "{v}");
}
