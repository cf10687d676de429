//! Per-driver cache of probe reports, keyed by vendor + renderer + version, the probe version
//! and the df64 GLSL source (a changed module is probed again).

use std::path::PathBuf;

use super::{ProbeError, ProbeReport, PROBE_VERSION};
use crate::gl::GlInfo;

/// Environment variable that moves the cache (tests point it at a temporary folder).
pub(crate) const CACHE_ENV: &str = "DF64GL_CACHE_DIR";

/// Where probe results are cached (under the user's cache folder), if there is one.
pub(crate) fn cache_dir() -> Option<PathBuf> {
    if let Ok(d) = std::env::var(CACHE_ENV) {
        return Some(PathBuf::from(d));
    }
    if let Ok(d) = std::env::var("XDG_CACHE_HOME") {
        return Some(PathBuf::from(d).join("df64gl"));
    }
    std::env::var("HOME")
        .ok()
        .map(|h| PathBuf::from(h).join(".cache").join("df64gl"))
}

fn fnv1a(text: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

fn key(info: &GlInfo) -> String {
    let glsl = crate::gl::GlslLibrary::builtin();
    let sources = format!(
        "{}{}",
        glsl.get("df64.glsl").unwrap_or_default(),
        glsl.get("probe.glsl").unwrap_or_default()
    );
    format!(
        "v{PROBE_VERSION} | {} | {} | glsl {:016x}",
        info.driver_key(),
        info.device,
        fnv1a(&sources)
    )
}

fn path_for(info: &GlInfo) -> Option<PathBuf> {
    cache_dir().map(|d| d.join(format!("probe-{:016x}.json", fnv1a(&key(info)))))
}

#[derive(serde::Serialize, serde::Deserialize)]
struct Entry {
    key: String,
    report: ProbeReport,
}

/// The cached report for this driver, if one with the same key exists and parses.
pub fn load_cached(info: &GlInfo) -> Option<ProbeReport> {
    let path = path_for(info)?;
    let text = std::fs::read_to_string(path).ok()?;
    let entry: Entry = serde_json::from_str(&text).ok()?;
    if entry.key != key(info) {
        return None;
    }
    let mut r = entry.report;
    // The sum's TwoSum follows the vendor or DF64GL_TWO_SUM at each run: a report made under
    // another choice is probed again (about a second), not reused with the wrong defines.
    if r.config
        .is_some_and(|c| c.two_sum != super::TwoSumKind::for_driver(info))
    {
        return None;
    }
    r.from_cache = true;
    Some(r)
}

/// Writes the report to the cache; the file written.
pub fn store_cached(report: &ProbeReport) -> Result<PathBuf, ProbeError> {
    if super::forced_protection().is_some() {
        // A forced protection is a test of the probe: its verdict must not leak into the
        // runs after it, which read this cache.
        return Err(ProbeError::Cache {
            path: "(not written)".into(),
            detail: format!("{} is set", super::PROTECTION_ENV),
        });
    }
    if std::env::var(super::TWO_SUM_ENV).is_ok() {
        // A forced TwoSum is a measurement: the runs after it get the driver's own choice.
        return Err(ProbeError::Cache {
            path: "(not written)".into(),
            detail: format!("{} is set", super::TWO_SUM_ENV),
        });
    }
    let path = path_for(&report.driver).ok_or_else(|| ProbeError::Cache {
        path: "(none)".into(),
        detail: "no cache folder: set DF64GL_CACHE_DIR or HOME".into(),
    })?;
    let err = |detail: String| ProbeError::Cache {
        path: path.display().to_string(),
        detail,
    };
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| err(e.to_string()))?;
    }
    let entry = Entry {
        key: key(&report.driver),
        report: report.clone(),
    };
    let text = serde_json::to_string_pretty(&entry).map_err(|e| err(e.to_string()))?;
    std::fs::write(&path, text).map_err(|e| err(e.to_string()))?;
    Ok(path)
}
