//! `repro.html` (written by `df64gl web`) in headless Chromium on both ANGLE legs (SwiftShader,
//! and Mesa through EGL) and on WebGPU (`?api=webgpu`: Dawn over SwiftShader), its quick sizes: the report it POSTs to `?report=` has the schema of
//! the native `repro --json`, every table it promises with whole rows, the published values of
//! `assets/` beside the page's, and measured values within this file's bounds (the accurate
//! df64 routines' documented bounds, correctly rounded f32 add/sub/mul on both legs, the FFT's
//! round trip per precision); and where the check fails, no tables but the check's, and the
//! reason.

mod common;

use df64gl_cli::support::table::ReportTable;
use df64gl_cli::web::browser::BrowserBackend;
use df64gl_cli::web::repro_page::run_repro_page;
use serde_json::Value;

fn table<'a>(report: &'a Value, id: &str) -> &'a Value {
    report["tables"]
        .as_array()
        .and_then(|t| t.iter().find(|t| t["id"] == id))
        .unwrap_or_else(|| panic!("no table {id} in the report: {report}"))
}

fn rows<'a>(report: &'a Value, id: &str) -> &'a Vec<Value> {
    table(report, id)["rows"].as_array().unwrap()
}

fn row<'a>(report: &'a Value, id: &str, first: &str) -> &'a Value {
    rows(report, id)
        .iter()
        .find(|r| r[0] == first)
        .unwrap_or_else(|| panic!("no row {first} in {id}"))
}

/// The cell of `row` under the column starting with `prefix`.
fn cell<'a>(report: &Value, id: &str, row: &'a Value, prefix: &str) -> &'a Value {
    let columns = table(report, id)["columns"].as_array().unwrap();
    let k = columns
        .iter()
        .position(|c| c.as_str().unwrap().starts_with(prefix))
        .unwrap_or_else(|| panic!("no column {prefix} in {id}: {columns:?}"));
    &row[k]
}

fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("{v} is not a number"))
}

fn asset(name: &str) -> Value {
    let path = df64gl_cli::web::js_module::repository_root()
        .join("assets")
        .join(name);
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

fn judge(report: &Value, leg: &str) {
    // The native report's keys, and each table's (from the native type itself).
    let keys: Vec<&str> = report
        .as_object()
        .unwrap()
        .keys()
        .map(|k| k.as_str())
        .collect();
    for k in [
        "device", "driver", "quick", "seed", "seconds", "tables", "plots",
    ] {
        assert!(keys.contains(&k), "{leg}: no {k} in the report");
    }
    assert!(
        report.get("error").is_none(),
        "{leg}: the page stopped: {}",
        report["error"]
    );
    assert_eq!(report["quick"], true);
    assert!(num(&report["seconds"]) > 0.0);
    assert!(report["driver"]["renderer"]
        .as_str()
        .is_some_and(|r| !r.is_empty()));
    let native = serde_json::to_value(ReportTable::new("x", "y", &["a"])).unwrap();
    let mut native_keys: Vec<&String> = native.as_object().unwrap().keys().collect();
    native_keys.sort();
    for t in report["tables"].as_array().unwrap() {
        let mut k: Vec<&String> = t.as_object().unwrap().keys().collect();
        k.sort();
        assert_eq!(k, native_keys, "{leg}: table {} has other keys", t["id"]);
        let width = t["columns"].as_array().unwrap().len();
        assert!(!t["sources"].as_array().unwrap().is_empty());
        for r in t["rows"].as_array().unwrap() {
            assert_eq!(
                r.as_array().unwrap().len(),
                width,
                "{leg}: {} row {r}",
                t["id"]
            );
        }
    }

    // The check the tables rest on.
    // (quick: the routines the tables call, in the stage they run in)
    let check = rows(report, "check");
    for routine in [
        "add", "mul", "div", "sqrt", "exp", "log1p", "sin", "cos", "add12", "mul12",
    ] {
        assert!(
            check.iter().any(|r| r[0] == routine),
            "{leg}: {routine} not checked"
        );
    }
    assert!(check.iter().all(|r| r[3] == "yes"), "{leg}: {check:?}");

    // Table I: the published columns as in assets/, add, sub and mul correctly rounded.
    let paper = asset("thall-table1.json");
    let one = rows(report, "thall-table1");
    assert_eq!(one.len(), 7);
    for p in paper["rows"].as_array().unwrap() {
        let r = row(report, "thall-table1", p["label"].as_str().unwrap());
        assert_eq!(
            &r.as_array().unwrap()[1..6],
            p["values"].as_array().unwrap().as_slice()
        );
    }
    for op in ["add", "sub", "mul"] {
        let r = row(report, "thall-table1", op);
        assert_eq!(
            num(cell(report, "thall-table1", r, "correctly rounded")),
            100.0,
            "{leg} {op}"
        );
        assert_eq!(
            cell(report, "thall-table1", r, "rounding"),
            "nearest",
            "{leg} {op}"
        );
    }
    for r in one {
        let rounding = cell(report, "thall-table1", r, "rounding")
            .as_str()
            .unwrap();
        assert!(
            ["nearest", "chopped", "faithful", "worse than faithful"].contains(&rounding),
            "{leg}: {r:?}"
        );
    }

    // Table II: each accurate op within its documented bound, and measured (above 0).
    let paper = asset("thall-table2.json");
    for (op, bound) in [
        ("add", 0.5),
        ("sub", 0.5),
        ("mul", 0.5),
        ("div", 1.0),
        ("recip", 1.0),
        ("sqrt", 0.5),
    ] {
        let r = row(report, "thall-table2", op);
        let max = num(cell(report, "thall-table2", r, "max, ulp48"));
        let rms = num(cell(report, "thall-table2", r, "RMS, ulp48"));
        assert!(
            max > 0.0 && max <= bound,
            "{leg} {op}: max {max} ulp48 (bound {bound})"
        );
        assert!(rms > 0.0 && rms <= max, "{leg} {op}: rms {rms}");
        let published = paper["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["op"] == op)
            .unwrap();
        assert_eq!(
            cell(report, "thall-table2", r, "G80 max"),
            &published["max"]
        );
        let cost = num(cell(report, "thall-table2", r, "cost / f32 add"));
        assert!(cost.is_finite() && cost > 0.0, "{leg} {op}: cost {cost}");
    }
    for op in ["exp", "log1p", "sin", "cos"] {
        let r = row(report, "thall-table2-functions", op);
        let max = num(cell(report, "thall-table2-functions", r, "max, ulp48"));
        assert!(
            max > 0.0 && max <= 1.0,
            "{leg} {op}: max {max} ulp48 (bound 1)"
        );
    }

    // Da Graca and Defour's Table 5: the error-free transforms exact, the sum and product
    // within 2^-47 relative (0.5 ulp48 is at most 2^-48 relative).
    assert_eq!(row(report, "dagraca-table5", "add12")[3], "exact", "{leg}");
    assert_eq!(row(report, "dagraca-table5", "mul12")[3], "exact", "{leg}");
    for op in ["add22", "mul22"] {
        let log2 = num(&row(report, "dagraca-table5", op)[3]);
        assert!(log2 <= -47.0, "{leg} {op}: log2 max rel error {log2}");
    }

    // The FFT: Thall's round trip in df64 and each precision's.
    let fft = rows(report, "thall-fft");
    assert!(fft.len() >= 5, "{leg}: {fft:?}");
    for r in fft {
        let snr = num(cell(report, "thall-fft", r, "peak S/N"));
        let rmse = num(cell(report, "thall-fft", r, "RMSE |x|"));
        assert!(snr > 270.0 && rmse < 1e-13, "{leg}: {r:?}");
    }
    for r in rows(report, "fft-precisions") {
        let bound = match r[0].as_str().unwrap() {
            "f32" => 1e-5,
            "df64" => 1e-14,
            _ => 1e-27,
        };
        let err = num(&r[2]);
        assert!(err > 0.0 && err < bound, "{leg}: {r:?}");
        assert!(num(&r[3]) > 0.0);
    }
    for p in ["f32", "df64", "qf128"] {
        assert!(
            rows(report, "fft-precisions").iter().any(|r| r[0] == p),
            "{leg}: no {p}"
        );
    }
}

#[test]
fn repro_page_reports_every_table_on_both_angle_legs_and_webgpu() {
    let chromium = common::chromium();
    for (backend, leg, query) in [
        (BrowserBackend::Swiftshader, "SwiftShader", "quick=1"),
        (BrowserBackend::AngleGl, "ANGLE over Mesa", "quick=1"),
        (BrowserBackend::WebGpu, "WebGPU", "quick=1&api=webgpu"),
    ] {
        let report =
            run_repro_page(&chromium, backend, query).unwrap_or_else(|e| panic!("{leg}: {e}"));
        // Kept for a reader (the docs' tables come from such a run).
        let kept = std::env::temp_dir().join(format!("df64gl-repro-page-{backend:?}.json"));
        let _ = std::fs::write(&kept, serde_json::to_string_pretty(&report).unwrap());
        eprintln!("{leg}: the report is in {}", kept.display());
        judge(&report, leg);
    }
    // Where the check fails (the export without its barrier, which ANGLE over Mesa's compiler
    // breaks), the page measures nothing and its report says why.
    let report = run_repro_page(
        &chromium,
        BrowserBackend::AngleGl,
        "quick=1&simulate=unprotected",
    )
    .unwrap_or_else(|e| panic!("unprotected: {e}"));
    let error = report["error"].as_str().unwrap_or_default();
    assert!(error.contains("not exact on this context"), "{report}");
    let ids: Vec<&Value> = report["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| &t["id"])
        .collect();
    assert_eq!(ids, ["check"], "{report}");
    assert!(
        rows(&report, "check").iter().any(|r| r[3] == "NO"),
        "{report}"
    );
}
