//! The report table: titled columns of cells (numbers or text) with where their values come
//! from, rendered as Markdown (REPORT.md), as aligned text (the terminal) or as JSON. The
//! accuracy tables and every paper table of `repro` go through it.

use serde::Serialize;

/// A table cell: a number, or text (an interval, "exact", "not in paper").
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum Cell {
    /// A measured or published number (finite).
    Num(f64),
    /// Anything else, as written.
    Text(String),
}

/// A number cell; an infinity becomes text, since JSON has none.
pub fn num(x: f64) -> Cell {
    if x.is_finite() {
        Cell::Num(x)
    } else {
        Cell::Text(format!("{x}"))
    }
}

/// A text cell.
pub fn text(s: impl Into<String>) -> Cell {
    Cell::Text(s.into())
}

impl Cell {
    /// The cell as it reads in a table: integers whole, very large or small numbers in
    /// scientific notation, others with up to four decimals (trailing zeros dropped).
    pub fn shown(&self) -> String {
        match self {
            Cell::Text(s) => s.clone(),
            Cell::Num(x) => {
                let a = x.abs();
                if *x == x.trunc() && a < 1e9 {
                    format!("{x:.0}")
                } else if a != 0.0 && !(1e-3..1e6).contains(&a) {
                    format!("{x:.3e}")
                } else if a >= 100.0 {
                    format!("{x:.1}")
                } else {
                    format!("{x:.4}")
                        .trim_end_matches('0')
                        .trim_end_matches('.')
                        .to_string()
                }
            }
        }
    }

    /// Says nothing: empty, "-", "not measured" or "no ...".
    pub fn is_blank(&self) -> bool {
        match self {
            Cell::Text(s) => {
                s.is_empty() || s == "-" || s == "not measured" || s.starts_with("no ")
            }
            Cell::Num(x) => !x.is_finite(),
        }
    }
}

/// One table of a report.
#[derive(Debug, Clone, Serialize)]
pub struct ReportTable {
    /// Short identifier (`thall-table2`), for tests and links.
    pub id: String,
    /// The heading.
    pub title: String,
    /// Where each column's values come from: the paper (with its device) and this run.
    pub sources: Vec<String>,
    /// What a reader needs to read the values.
    pub notes: Vec<String>,
    /// Column headings.
    pub columns: Vec<String>,
    /// The rows, one cell per column.
    pub rows: Vec<Vec<Cell>>,
}

impl ReportTable {
    /// A table with its columns and no sources or notes yet.
    pub fn new(id: &str, title: impl Into<String>, columns: &[&str]) -> Self {
        ReportTable {
            id: id.to_string(),
            title: title.into(),
            sources: Vec::new(),
            notes: Vec::new(),
            columns: columns.iter().map(|c| c.to_string()).collect(),
            rows: Vec::new(),
        }
    }

    /// The same table without the columns in which every row says nothing ("-"): a section
    /// whose rows have no variant or no published value does not show an empty column.
    pub fn without_blank_columns(mut self) -> Self {
        let keep: Vec<bool> = (0..self.columns.len())
            .map(|j| {
                self.rows
                    .iter()
                    .any(|r| r.get(j).is_some_and(|c| !c.is_blank()))
            })
            .collect();
        fn kept<T>(v: Vec<T>, keep: &[bool]) -> Vec<T> {
            v.into_iter()
                .zip(keep)
                .filter(|(_, k)| **k)
                .map(|(c, _)| c)
                .collect()
        }
        self.columns = kept(self.columns, &keep);
        self.rows = self.rows.into_iter().map(|r| kept(r, &keep)).collect();
        self
    }

    /// The Markdown section: heading, sources and notes as a list, then the table.
    pub fn markdown(&self) -> String {
        let mut s = format!("\n## {}\n\n", self.title);
        for line in self.sources.iter().chain(&self.notes) {
            s.push_str(&format!("- {line}\n"));
        }
        s.push('\n');
        s.push_str(&format!("| {} |\n", self.columns.join(" | ")));
        s.push_str(&format!("|{}\n", " --- |".repeat(self.columns.len())));
        for r in &self.rows {
            let cells: Vec<String> = r.iter().map(|c| c.shown().replace('|', "\\|")).collect();
            s.push_str(&format!("| {} |\n", cells.join(" | ")));
        }
        s
    }

    /// Aligned text for a terminal: the title, the notes, then columns padded to their widest
    /// cell (text left-aligned, numbers right-aligned).
    pub fn text(&self) -> String {
        let shown: Vec<Vec<String>> = self
            .rows
            .iter()
            .map(|r| r.iter().map(Cell::shown).collect())
            .collect();
        let width = |j: usize| {
            shown
                .iter()
                .filter_map(|r| r.get(j))
                .chain(self.columns.get(j))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        };
        let widths: Vec<usize> = (0..self.columns.len()).map(width).collect();
        let numeric: Vec<bool> = (0..self.columns.len())
            .map(|j| {
                self.rows
                    .iter()
                    .filter_map(|r| r.get(j))
                    .any(|c| matches!(c, Cell::Num(_)))
            })
            .collect();
        let line = |cells: &[String]| {
            let parts: Vec<String> = cells
                .iter()
                .enumerate()
                .map(|(j, c)| {
                    let w = widths.get(j).copied().unwrap_or(0);
                    if numeric.get(j) == Some(&true) {
                        format!("{c:>w$}")
                    } else {
                        format!("{c:<w$}")
                    }
                })
                .collect();
            format!("{}\n", parts.join("  ").trim_end())
        };
        let mut s = format!("{}\n", self.title);
        for n in &self.notes {
            s.push_str(&format!("  {n}\n"));
        }
        s.push_str(&line(&self.columns));
        for r in &shown {
            s.push_str(&line(r));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_well() {
        assert_eq!(num(4096.0).shown(), "4096");
        assert_eq!(num(0.25).shown(), "0.25");
        assert_eq!(num(2.81e-15).shown(), "2.810e-15");
        assert_eq!(num(123.456).shown(), "123.5");
        assert_eq!(num(f64::INFINITY).shown(), "inf");
    }

    #[test]
    fn text_aligns_and_blank_columns_go() {
        let mut t = ReportTable::new("t", "Title", &["op", "variant", "max"]);
        t.rows.push(vec![text("add"), text("-"), num(0.25)]);
        t.rows.push(vec![text("sqrt"), text("-"), num(12.5)]);
        let t = t.without_blank_columns();
        assert_eq!(t.columns, ["op", "max"]);
        assert_eq!(t.text(), "Title\nop     max\nadd   0.25\nsqrt  12.5\n");
        assert!(t
            .markdown()
            .contains("| op | max |\n| --- | --- |\n| add | 0.25 |\n"));
        let mut pipe = ReportTable::new("p", "P", &["a"]);
        pipe.rows.push(vec![text("a|b")]);
        assert!(pipe.markdown().contains("| a\\|b |"));
    }
}
