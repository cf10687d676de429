//! `df64gl repro --quick` as CI runs it: every table of every paper is in report.json with
//! no missing cells, REPORT.md and the plots are written, the measured accuracy meets the
//! engine's targets, and an existing report folder is not overwritten without --force.

use std::path::PathBuf;

mod common;

fn df64gl(args: &[&str]) -> (i32, String, String) {
    common::run_bin(env!("CARGO_BIN_EXE_df64gl"), args, &[])
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("df64gl-repro-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The rows of table `id` as JSON arrays.
fn rows<'a>(report: &'a serde_json::Value, id: &str) -> &'a Vec<serde_json::Value> {
    report["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == id)
        .unwrap_or_else(|| panic!("table {id} missing"))["rows"]
        .as_array()
        .unwrap()
}

fn column(report: &serde_json::Value, id: &str, prefix: &str) -> usize {
    let t = report["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == id)
        .unwrap();
    t["columns"]
        .as_array()
        .unwrap()
        .iter()
        .position(|c| c.as_str().unwrap().starts_with(prefix))
        .unwrap_or_else(|| panic!("{id}: no column {prefix}"))
}

#[test]
fn quick_repro_writes_every_table_without_missing_cells() {
    let out = scratch("quick");
    let out_s = out.to_str().unwrap();
    let (code, stdout, err) = df64gl(&["repro", "--quick", "--out", out_s]);
    assert_eq!(code, 0, "{err}");
    eprintln!("quick repro: {stdout}");
    let text = std::fs::read_to_string(out.join("report.json")).unwrap();
    let report: serde_json::Value = serde_json::from_str(&text).unwrap();
    let tables = report["tables"].as_array().unwrap();
    for id in [
        "thall-table1",
        "probe-eft",
        "thall-table2",
        "thall-table2-functions",
        "qf128",
        "warwick-table1",
        "dagraca-table5",
        "dagraca-table3",
        "dagraca-table4",
        "warwick-table2",
        "warwick-table3",
        "warwick-table4",
        "leibniz",
        "thall-fft",
    ] {
        assert!(tables.iter().any(|t| t["id"] == id), "table {id} missing");
    }
    for t in tables {
        let id = t["id"].as_str().unwrap();
        let columns = t["columns"].as_array().unwrap();
        let rows = t["rows"].as_array().unwrap();
        assert!(!rows.is_empty(), "{id}: no rows");
        assert!(
            !t["sources"].as_array().unwrap().is_empty(),
            "{id}: no source"
        );
        for (i, r) in rows.iter().enumerate() {
            let cells = r.as_array().unwrap();
            assert_eq!(cells.len(), columns.len(), "{id} row {i}");
            for (j, c) in cells.iter().enumerate() {
                let ok = match c {
                    serde_json::Value::Number(n) => n.as_f64().unwrap().is_finite(),
                    serde_json::Value::String(s) => {
                        !s.is_empty() && s != "not measured" && !s.starts_with("no ")
                    }
                    _ => false,
                };
                assert!(ok, "{id} row {i} column {}: {c}", columns[j]);
            }
        }
    }
    // Every measured column names the device; the paper columns name the paper.
    let device = report["device"].as_str().unwrap();
    let t2 = tables.iter().find(|t| t["id"] == "thall-table2").unwrap();
    let cols: Vec<&str> = t2["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    assert!(cols.iter().any(|c| c.contains("[Thall 2007]")));
    assert!(cols.iter().any(|c| c.contains(&format!("[{device}]"))));

    // What was measured holds: the accurate add meets 0.5 ulp48, and the GPU equals the CPU
    // mirror on every Table II row (llvmpipe rounds to nearest).
    let max = column(&report, "thall-table2", "max, ulp48");
    let mirror = column(&report, "thall-table2", "GPU vs CPU mirror");
    for r in rows(&report, "thall-table2") {
        if r[0] == "add" && r[1] == "accurate" {
            assert!(r[max].as_f64().unwrap() <= 0.5, "{r}");
        }
        assert_eq!(r[mirror], "equal", "{r}");
    }
    // Leibniz: native double is the CPU's double, df64 the CPU mirror's result.
    for r in rows(&report, "leibniz") {
        if r[0] == "f64" || r[0] == "df64" {
            assert_eq!(r[5], "equal", "{r}");
        }
    }
    // FFT round trip in df64 stays near 1e-15 for every size.
    let rmse = column(&report, "thall-fft", "RMSE |x|, table");
    for r in rows(&report, "thall-fft") {
        let e = r[rmse].as_f64().unwrap();
        assert!(e > 0.0 && e < 1e-13, "{r}");
    }
    let md = std::fs::read_to_string(out.join("REPORT.md")).unwrap();
    assert!(md.contains("## Warwick Table 2") && md.contains("| --- |"));
    for p in report["plots"].as_array().unwrap() {
        let path = out.join(p.as_str().unwrap());
        assert!(std::fs::metadata(&path).unwrap().len() > 1000, "{path:?}");
    }

    // The folder now exists: a second run refuses before measuring anything. It refuses
    // before it opens a device (a device that does not exist is not even looked for) and
    // leaves the report as it was.
    let written = std::fs::metadata(out.join("REPORT.md"))
        .and_then(|m| m.modified())
        .unwrap();
    let (code, _, err) = df64gl(&[
        "--device",
        "no-such-device",
        "repro",
        "--quick",
        "--out",
        out_s,
    ]);
    assert_eq!(code, 2, "usage error: {err}");
    assert!(err.contains("exists") && err.contains("--force"), "{err}");
    let after = std::fs::metadata(out.join("REPORT.md"))
        .and_then(|m| m.modified())
        .unwrap();
    assert_eq!(written, after);
    let _ = std::fs::remove_dir_all(&out);
}
