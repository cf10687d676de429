//! Published values from the papers, read from the JSON files in `assets/` (embedded).

use serde::{Deserialize, Serialize};

use crate::error::ExperimentError;

/// One row of Thall's Table II.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ThallRow {
    /// The operation.
    pub op: String,
    /// The operand range.
    pub range: String,
    /// Largest error.
    pub max: f64,
    /// RMS error.
    pub rms: f64,
}

/// Thall's Table II (G80), from `assets/thall-table2.json`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ThallTable2 {
    /// Where the published values come from (paper, table).
    pub source: String,
    /// The device the paper measured.
    pub device: String,
    /// Its rows.
    pub rows: Vec<ThallRow>,
}

/// One row of Warwick's Table 1.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct WarwickRow {
    /// The operation.
    pub op: String,
    /// Mean distance in f64 ulps.
    pub mean: f64,
    /// Median.
    pub median: f64,
    /// Largest error.
    pub max: f64,
    /// Smallest.
    pub min: f64,
    /// Standard deviation.
    pub sd: f64,
}

/// Warwick's Table 1, from `assets/`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct WarwickTable1 {
    /// Where the published values come from (paper, table).
    pub source: String,
    /// The device the paper measured.
    pub device: String,
    /// Its rows.
    pub rows: Vec<WarwickRow>,
}

/// One row of Da Graca and Defour's Table 5.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DagracaRow {
    /// The operation.
    pub op: String,
    /// `None` where the paper reports the operation exact.
    pub log2_max_rel_error: Option<f64>,
}

/// Da Graca and Defour's Table 5, from `assets/`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DagracaTable5 {
    /// Where the published values come from (paper, table).
    pub source: String,
    /// The device the paper measured.
    pub device: String,
    /// Its rows.
    pub rows: Vec<DagracaRow>,
}

/// A published table as data: row labels and one value per column (a number, or text such
/// as an interval).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PaperTable {
    /// Where the published values come from (paper, table).
    pub source: String,
    /// The device the paper measured.
    pub device: String,
    /// Why a table has no values (it was withdrawn, say).
    #[serde(default)]
    pub note: Option<String>,
    /// Column headings.
    pub columns: Vec<String>,
    /// Its rows.
    pub rows: Vec<PaperRow>,
}

/// One row of a published table.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PaperRow {
    /// The row label.
    pub label: String,
    /// Its values, one per column (numbers, text or null).
    pub values: Vec<serde_json::Value>,
}

impl PaperTable {
    /// The row with this label.
    pub fn row(&self, label: &str) -> Option<&PaperRow> {
        self.rows.iter().find(|r| r.label == label)
    }
}

/// The generic tables in `assets/`, by file name.
pub fn paper_table(name: &str) -> Result<PaperTable, ExperimentError> {
    let text = match name {
        "thall-table1.json" => include_str!("../../../assets/thall-table1.json"),
        "thall-fft.json" => include_str!("../../../assets/thall-fft.json"),
        "dagraca-table3.json" => include_str!("../../../assets/dagraca-table3.json"),
        "dagraca-table4.json" => include_str!("../../../assets/dagraca-table4.json"),
        "warwick-table2.json" => include_str!("../../../assets/warwick-table2.json"),
        "warwick-table3.json" => include_str!("../../../assets/warwick-table3.json"),
        "warwick-table4.json" => include_str!("../../../assets/warwick-table4.json"),
        _ => {
            return Err(ExperimentError::PaperData {
                file: format!("assets/{name}"),
                detail: "no such bundled table".into(),
            })
        }
    };
    let table: PaperTable = parse(&format!("assets/{name}"), text)?;
    if let Some(r) = table
        .rows
        .iter()
        .find(|r| r.values.len() != table.columns.len())
    {
        return Err(ExperimentError::PaperData {
            file: format!("assets/{name}"),
            detail: format!(
                "row {} has {} values for {} columns",
                r.label,
                r.values.len(),
                table.columns.len()
            ),
        });
    }
    Ok(table)
}

fn parse<T: for<'de> Deserialize<'de>>(file: &str, text: &str) -> Result<T, ExperimentError> {
    serde_json::from_str(text).map_err(|e| ExperimentError::PaperData {
        file: file.to_string(),
        detail: e.to_string(),
    })
}

/// Thall's Table II, parsed from the bundled JSON.
pub fn thall_table2() -> Result<ThallTable2, ExperimentError> {
    parse(
        "assets/thall-table2.json",
        include_str!("../../../assets/thall-table2.json"),
    )
}

/// Warwick's Table 1.
pub fn warwick_table1() -> Result<WarwickTable1, ExperimentError> {
    parse(
        "assets/warwick-table1.json",
        include_str!("../../../assets/warwick-table1.json"),
    )
}

/// Da Graca and Defour's Table 5.
pub fn dagraca_table5() -> Result<DagracaTable5, ExperimentError> {
    parse(
        "assets/dagraca-table5.json",
        include_str!("../../../assets/dagraca-table5.json"),
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn bundled_paper_data_parses() {
        let t = super::thall_table2().unwrap();
        assert!(t.rows.iter().any(|r| r.op == "div" && r.max == 4.1));
        let w = super::warwick_table1().unwrap();
        assert_eq!(w.rows.len(), 4);
        let d = super::dagraca_table5().unwrap();
        assert_eq!(d.rows[1].log2_max_rel_error, None);
        for name in [
            "thall-table1.json",
            "thall-fft.json",
            "dagraca-table3.json",
            "dagraca-table4.json",
            "warwick-table2.json",
            "warwick-table3.json",
            "warwick-table4.json",
        ] {
            super::paper_table(name).unwrap();
        }
        let t3 = super::paper_table("dagraca-table3.json").unwrap();
        assert_eq!(t3.row("1048576").unwrap().values[6], 24.64);
        assert!(super::paper_table("nope.json").is_err());
    }
}
