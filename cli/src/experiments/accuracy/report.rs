//! The accuracy report as text and as report tables: the df64 operations, functions and qf128
//! sections through [`ReportTable`], the exponent sweep's domain counts, Warwick's statistics,
//! Da Graca and Defour's Table 5, and what fails the gate.

use super::*;

impl AccuracyReport {
    /// Rows that miss their targets, break the IEEE rules outside the domain, or differ from
    /// the CPU mirror where they must not: one line each.
    pub fn failures(&self) -> Vec<String> {
        let sections = [
            ("", &self.rows),
            ("", &self.functions),
            ("", &self.function_classes),
            ("qf128 ", &self.qf128),
        ];
        let mut f = Vec::new();
        for (prefix, rows) in sections {
            for r in rows.iter() {
                // Only the accurate defaults promise the IEEE rules outside the domain.
                let outside_wrong = match (r.domain, r.target) {
                    (Some(d), Some(_)) => d.outside_wrong,
                    _ => 0,
                };
                let mirror = if r.mirror_must_match {
                    r.mirror_mismatches
                } else {
                    0
                };
                if r.meets_target == Some(false) || outside_wrong > 0 || mirror > 0 {
                    f.push(format!(
                        "{prefix}{} on {}: max {:.3} / rms {:.3} {} (target {}), {} results \
                         outside the domain breaking the IEEE rules, {} differing from the CPU \
                         mirror",
                        r.op,
                        r.range,
                        r.max,
                        r.rms,
                        r.unit.name(),
                        target_text(r),
                        outside_wrong,
                        mirror
                    ));
                }
            }
        }
        for r in &self.vectors {
            let mirror = if r.mirror_must_match {
                r.mirror_mismatches
            } else {
                0
            };
            if !r.meets_target || mirror > 0 {
                f.push(format!(
                    "{} on {}: max {:.3} (vertex) / {:.3} (fragment) {} (bound {}), {} differing \
                     from the CPU mirror",
                    r.op, r.class, r.vertex_max, r.fragment_max, r.unit, r.bound, mirror
                ));
            }
        }
        for r in &self.qf128_exponents {
            let mirror = if self.qf128.first().is_some_and(|q| q.mirror_must_match) {
                r.mirror_mismatches
            } else {
                0
            };
            if r.nonfinite_wrong > 0 || mirror > 0 {
                f.push(format!(
                    "qf128 {} with results in 2^[{}, {}): {} NaN or infinite where the result is \
                     a number (or finite beyond f32::MAX), {} differing from the CPU mirror",
                    r.op, r.band.0, r.band.1, r.nonfinite_wrong, mirror
                ));
            }
        }
        let qf_mirror = self.qf128.first().is_some_and(|q| q.mirror_must_match);
        for r in &self.qf128_classes {
            let mirror = if qf_mirror { r.mirror_mismatches } else { 0 };
            if r.wrong > 0 || mirror > 0 {
                f.push(format!(
                    "qf128 {} on {}: {} results past T ulp96 + C 2^-126 (T, C = {:?}) or IEEE's \
                     value ({}), {} differing from the CPU mirror",
                    r.op, r.class, r.wrong, QF128_FUNCTION_BOUND, r.worst_case, mirror
                ));
            }
        }
        f
    }

    /// qf128's functions by argument class: the worst ulp96 over results from 2^-30 up (where
    /// a flushing driver keeps all 96 bits), else the fewest correct bits ("b"), "ieee" where
    /// every result was a special value and right.
    pub fn qf128_class_table(&self) -> ReportTable {
        let (t_bound, c_bound) = QF128_FUNCTION_BOUND;
        let mut header = vec!["function"];
        header.extend(ARGUMENT_CLASSES);
        let mut t = ReportTable::new(
            "accuracy-qf128-classes",
            format!(
                "qf128 functions by argument class: worst ulp96 where the result is 2^-30 or \
                 more, else the fewest correct bits (b); bound {t_bound} ulp96 + {c_bound} 2^-126, \
                 IEEE values at ±0, ±inf, NaN; \"x\" marks a class with a miss"
            ),
            &header,
        );
        let mut ops: Vec<&str> = Vec::new();
        for r in &self.qf128_classes {
            if !ops.contains(&r.op.as_str()) {
                ops.push(&r.op);
            }
        }
        for op in ops {
            let mut row = vec![text(op.to_string())];
            for class in ARGUMENT_CLASSES {
                let cell = match self
                    .qf128_classes
                    .iter()
                    .find(|r| r.op == op && r.class == class)
                {
                    None => "-".to_string(),
                    Some(r) if r.wrong > 0 => format!("x {}", r.wrong),
                    Some(r) => match (r.max_ulp96, r.values) {
                        (Some(u), _) => format!("{u:.3}"),
                        (None, 0) => "ieee".to_string(),
                        (None, _) => format!("{:.0}b", r.min_bits_below),
                    },
                };
                row.push(text(cell));
            }
            t.rows.push(row);
        }
        t
    }

    /// The qf128 sweep over the exponent range: per op and band of result magnitudes, the
    /// worst error in ulp96, the fewest correct bits and the largest absolute error.
    pub fn qf128_exponent_table(&self) -> ReportTable {
        let samples = self
            .qf128_exponents
            .iter()
            .map(|r| r.samples)
            .sum::<usize>();
        let mut t = ReportTable::new(
            "accuracy-qf128-exponents",
            format!(
                "qf128 at every exponent, by the exact result's magnitude 2^e ({samples} results): \
                 worst ulp96, fewest correct bits, largest absolute error in 2^-126"
            ),
            &[
                "op",
                "e from",
                "e to",
                "results",
                "max ulp96",
                "min bits",
                "max abs",
                "wrong",
                "mirror",
            ],
        );
        for r in &self.qf128_exponents {
            let from = if r.band.0 <= -1000 {
                "-inf".to_string()
            } else {
                r.band.0.to_string()
            };
            t.rows.push(vec![
                text(r.op.clone()),
                text(from),
                text(r.band.1.to_string()),
                text(r.samples.to_string()),
                text(if r.band.0 <= -1000 {
                    "-".to_string()
                } else {
                    format!("{:.3}", r.max_ulp96)
                }),
                text(format!("{:.1}", r.min_bits)),
                text(format!("{:.3e}", r.max_abs_min_normal)),
                text(r.nonfinite_wrong.to_string()),
                text(if r.mirror_mismatches == 0 {
                    "=".to_string()
                } else {
                    format!("{} diff", r.mirror_mismatches)
                }),
            ]);
        }
        t
    }

    /// The vector and matrix routines per operand class, both stages.
    pub fn vector_table(&self) -> ReportTable {
        let mut t = ReportTable::new(
            "accuracy-vectors",
            "df64 vectors and matrices (df64_vec.glsl) from the export in both shader stages: \
             worst error per class in the routine's unit, RMS over both stages"
                .to_string(),
            &[
                "routine",
                "class",
                "samples",
                "unit",
                "bound",
                "vertex max",
                "fragment max",
                "rms",
                "mirror",
                "ok",
            ],
        );
        for r in &self.vectors {
            t.rows.push(vec![
                text(r.op.clone()),
                text(r.class.clone()),
                text(r.samples.to_string()),
                text(r.unit.clone()),
                text(format!("{:.4}", r.bound)),
                text(format!("{:.4}", r.vertex_max)),
                text(format!("{:.4}", r.fragment_max)),
                text(format!("{:.4}", r.rms)),
                text(if r.mirror_mismatches == 0 {
                    "=".to_string()
                } else {
                    format!("{} diff", r.mirror_mismatches)
                }),
                text(if r.meets_target { "yes" } else { "NO" }.to_string()),
            ]);
        }
        t
    }

    /// The df64 operations, df64 functions and qf128 sections as report tables.
    pub fn tables(&self) -> [ReportTable; 3] {
        let samples = |rows: &[AccuracyRow]| rows.first().map_or(0, |r| r.samples);
        [
            accuracy_table(
                "accuracy-ops",
                format!(
                    "df64 accuracy on {} ({}), ulp48 = 2^(e-47); {} inputs per op, seed {}",
                    self.driver.renderer,
                    self.driver.version,
                    samples(&self.rows),
                    self.seed
                ),
                &self.rows,
            ),
            accuracy_table(
                "accuracy-functions",
                format!(
                    "df64 functions against the correctly rounded oracle (astro-float, 256 \
                     bits), ulp48; {} inputs per row",
                    samples(&self.functions)
                ),
                &self.functions,
            ),
            accuracy_table(
                "accuracy-qf128",
                format!(
                    "qf128 against the oracle, ulp96 = 2^(e-95); {} inputs per row",
                    samples(&self.qf128)
                ),
                &self.qf128,
            ),
        ]
    }

    /// The report as text: the three sections, the exponent sweep's domain counts, Warwick's
    /// statistics and Da Graca and Defour's Table 5.
    pub fn table(&self) -> String {
        let [ops, functions, qf128] = self.tables();
        let mut s = ops.text();
        if self.rows.iter().any(|r| r.domain.is_some()) {
            s.push_str(
                "exponent sweep: max and rms over results of magnitude 2^-100 to 2^126, beyond \
                 the flush allowance; results outside must be ±inf on overflow (never NaN), ±0 \
                 or within the allowance on underflow\n",
            );
            for r in &self.rows {
                if let Some(d) = r.domain {
                    s.push_str(&format!(
                        "  {:<12} in domain {:>8}   outside {:>8}   outside breaking the rules {:>6}\n",
                        r.op, d.in_domain, d.outside, d.outside_wrong
                    ));
                }
            }
        }
        if !self.warwick.is_empty() {
            s.push_str(&format!(
                "\nWarwick's statistics: distance in f64 ulps to the f64 result, inputs uniform in [-1e6, 1e6] ({} samples)\n",
                self.warwick[0].samples
            ));
            s.push_str(&format!(
                "{:<12} {:>10} {:>8} {:>10} {:>6} {:>10}   {}\n",
                "op", "mean", "median", "max", "min", "sd", "Warwick (CUDA): mean/median/max/sd"
            ));
            for w in &self.warwick {
                let paper = self
                    .warwick_paper
                    .rows
                    .iter()
                    .find(|p| w.op.starts_with(&p.op))
                    .map(|p| format!("{}/{}/{}/{}", p.mean, p.median, p.max, p.sd))
                    .unwrap_or_default();
                s.push_str(&format!(
                    "{:<12} {:>10.3} {:>8} {:>10} {:>6} {:>10.3}   {}\n",
                    w.op, w.mean, w.median, w.max, w.min, w.sd, paper
                ));
            }
        }
        for t in [
            functions,
            self.class_table(),
            qf128,
            self.qf128_exponent_table(),
            self.qf128_class_table(),
            self.vector_table(),
        ] {
            if !t.rows.is_empty() {
                s.push('\n');
                s.push_str(&t.text());
            }
        }
        for w in &self.function_class_worst {
            s.push_str(&format!("  worst: {w}\n"));
        }
        if !self.dagraca_table5.is_empty() {
            s.push_str(&format!(
                "\nDa Graca and Defour Table 5: log2 of the max relative error over {} inputs (paper: {})\n",
                self.dagraca_table5[0].samples, self.dagraca_paper.device
            ));
            s.push_str(&format!(
                "{:<8} {:<16} {:>10} {:>10}\n",
                "op", "routine", "measured", "paper"
            ));
            let show = |v: Option<f64>| v.map_or("exact".to_string(), |v| format!("{v:.1}"));
            for r in &self.dagraca_table5 {
                let paper = self
                    .dagraca_paper
                    .rows
                    .iter()
                    .find(|p| p.op == r.op)
                    .map(|p| show(p.log2_max_rel_error))
                    .unwrap_or_default();
                s.push_str(&format!(
                    "{:<8} {:<16} {:>10} {:>10}\n",
                    r.op,
                    r.routine,
                    show(r.log2_max_rel_error),
                    paper
                ));
            }
        }
        s.push_str(&format!("\ncost: {}\n", self.cost_method));
        s
    }
}

impl AccuracyReport {
    /// The argument-class sweep as one row per function (and operand, for two-operand
    /// functions) and one column per class: the worst error in ulp48 over results in the
    /// domain, "ieee" where every result lay outside it and followed the rules, "N wrong" where
    /// results broke them, "(N != mirror)" where results differ from the CPU mirror.
    pub fn class_table(&self) -> ReportTable {
        let mut columns = vec!["function", "operand", "bound"];
        columns.extend(ARGUMENT_CLASSES);
        let samples = self
            .function_classes
            .iter()
            .map(|r| r.samples)
            .max()
            .unwrap_or(0);
        let mut t = ReportTable::new(
            "accuracy-function-classes",
            format!(
                "df64 functions by argument class: worst ulp48 where the result lies in the \
                 domain (2^-100 to 2^126), IEEE rules elsewhere; up to {samples} inputs per class"
            ),
            &columns,
        );
        let mut keys: Vec<(String, String)> = Vec::new();
        for r in &self.function_classes {
            let (operand, _) = class_parts(&r.range);
            let key = (r.op.clone(), operand.to_string());
            if !keys.contains(&key) {
                keys.push(key);
            }
        }
        for (op, operand) in keys {
            let mut cells = vec![text(op.clone()), text(operand.clone())];
            let rows: Vec<&AccuracyRow> = self
                .function_classes
                .iter()
                .filter(|r| r.op == op && class_parts(&r.range).0 == operand)
                .collect();
            let bound = rows.first().and_then(|r| r.target).map_or(0.0, |t| t.max);
            cells.push(text(if op == "powi" {
                "max(|n| - 1, 1/2), n < 0: |n| + 1".into()
            } else if bound == 0.0 {
                "exact".into()
            } else {
                format!("{bound}")
            }));
            for c in ARGUMENT_CLASSES {
                let in_col: Vec<&&AccuracyRow> = rows
                    .iter()
                    .filter(|r| class_parts(&r.range).1 == c)
                    .collect();
                cells.push(text(class_cell(&in_col)));
            }
            t.rows.push(cells);
        }
        t
    }
}

/// ("a" or "b" or "", the column) of a class row's label.
fn class_parts(label: &str) -> (&str, &str) {
    let (operand, class) = match label.split_once(": ") {
        Some((o, c)) => (o, c),
        None => ("", label),
    };
    let column = if ARGUMENT_CLASSES.contains(&class) {
        class
    } else {
        "edges"
    };
    (operand, column)
}

fn class_cell(rows: &[&&AccuracyRow]) -> String {
    if rows.is_empty() {
        return "-".into();
    }
    let wrong: usize = rows
        .iter()
        .filter_map(|r| r.domain)
        .map(|d| d.outside_wrong)
        .sum();
    let in_domain: usize = rows
        .iter()
        .filter_map(|r| r.domain)
        .map(|d| d.in_domain)
        .sum();
    let max = rows.iter().map(|r| r.max).fold(0.0, f64::max);
    let mismatches: usize = rows.iter().map(|r| r.mirror_mismatches).sum();
    let mut s = if in_domain == 0 {
        "ieee".to_string()
    } else {
        format!("{:.3}", max)
    };
    if wrong > 0 {
        s.push_str(&format!(" {wrong} wrong"));
    }
    if mismatches > 0 {
        s.push_str(&format!(" ({mismatches} != mirror)"));
    }
    s
}

/// "max/rms" of a published pair, or "-".
/// "0.5/0.5 ok", "8 MISS", "exact 99/100" (fmod), or "-".
fn target_text(r: &AccuracyRow) -> String {
    let verdict = match r.meets_target {
        Some(true) => " ok",
        Some(false) => " MISS",
        None => "",
    };
    match (r.target, r.inexact_of_representable) {
        (Some(t), _) => match t.rms {
            Some(rms) => format!("{}/{rms}{verdict}", t.max),
            None => format!("{}{verdict}", t.max),
        },
        (None, Some((bad, of))) => format!("exact {}/{of}", of - bad),
        _ => "-".into(),
    }
}

/// Rows of one section as a report table; columns no row fills (a variant, Thall's value,
/// ns/op) are left out.
pub fn accuracy_table(id: &str, title: String, rows: &[AccuracyRow]) -> ReportTable {
    let unit = rows.first().map_or("ulp48", |r| r.unit.name());
    let max = format!("max {unit}");
    let columns = [
        "op",
        "variant",
        "range",
        max.as_str(),
        "rms",
        "target",
        "Thall G80",
        "mirror",
        "cost/f32add",
        "ns/op",
    ];
    let mut t = ReportTable::new(id, title, &columns);
    let or_dash = |s: Option<String>| text(s.unwrap_or_else(|| "-".into()));
    for r in rows {
        t.rows.push(vec![
            text(r.op.clone()),
            text(r.variant.unwrap_or("-")),
            text(r.range.clone()),
            num((r.max * 1000.0).round() / 1000.0),
            num((r.rms * 1000.0).round() / 1000.0),
            text(target_text(r)),
            or_dash(r.thall_g80.map(|(m, q)| format!("{m}/{q}"))),
            text(if r.mirror_mismatches == 0 {
                "=".to_string()
            } else {
                format!("{} diff", r.mirror_mismatches)
            }),
            or_dash(r.cost_vs_f32_add.map(|c| format!("{c:.1}x"))),
            or_dash(r.ns_per_op.map(|c| format!("{c:.3}"))),
        ]);
    }
    t.without_blank_columns()
}

#[cfg(test)]
mod tests {
    use super::*;
    use df64gl::probe::{Protection, TwoProdKind};

    fn row(op: &str, unit: ErrorUnit, max: f64, target: Option<Target>) -> AccuracyRow {
        AccuracyRow {
            op: op.into(),
            variant: None,
            range: "[-1, 1]".into(),
            samples: 16,
            unit,
            max,
            rms: max / 4.0,
            target,
            meets_target: target.map(|t| t.met(max, max / 4.0)),
            thall_g80: None,
            mirror_mismatches: 0,
            mirror_must_match: true,
            inexact_of_representable: None,
            cost_vs_f32_add: None,
            ns_per_op: None,
            domain: None,
        }
    }

    #[test]
    fn failures_name_each_row_that_misses_or_breaks_a_rule() {
        let half = Some(Target {
            max: 0.5,
            rms: Some(0.5),
        });
        let counts = |outside_wrong| DomainCounts {
            in_domain: 10,
            outside: 6,
            outside_wrong,
        };
        let ok = row("add", ErrorUnit::Ulp48, 0.25, half);
        let missed = row("mul", ErrorUnit::Ulp48, 0.75, half);
        // Outside the domain only the accurate defaults promise the IEEE rules.
        let thall = AccuracyRow {
            domain: Some(counts(3)),
            ..row("add_thall", ErrorUnit::Ulp48, 1.0, None)
        };
        let broke = AccuracyRow {
            domain: Some(counts(2)),
            ..row("div", ErrorUnit::Ulp48, 0.5, half)
        };
        let differs = AccuracyRow {
            mirror_mismatches: 5,
            ..row(
                "sqr",
                ErrorUnit::Ulp96,
                0.5,
                Some(Target {
                    max: 2.0,
                    rms: None,
                }),
            )
        };
        let report = AccuracyReport {
            driver: GlInfo::default(),
            config: DriverConfig {
                protection: Protection::Precise,
                two_prod: TwoProdKind::Dekker,
                two_sum: Default::default(),
            },
            seed: 1,
            rows: vec![ok, missed, thall, broke],
            warwick: vec![],
            warwick_paper: warwick_table1().unwrap(),
            thall_paper: thall_table2().unwrap(),
            functions: vec![],
            function_classes: vec![],
            function_class_worst: vec![],
            qf128: vec![differs],
            qf128_exponents: [0, 2]
                .map(|nonfinite_wrong| QfExponentRow {
                    op: "recip".into(),
                    band: (30, 60),
                    samples: 10,
                    max_ulp96: 0.1,
                    min_bits: 98.0,
                    max_abs_min_normal: 1e20,
                    nonfinite_wrong,
                    mirror_mismatches: 0,
                })
                .to_vec(),
            qf128_classes: vec![],
            dagraca_table5: vec![],
            dagraca_paper: dagraca_table5().unwrap(),
            cost_method: String::new(),
            vectors: [(0.4, 0), (0.6, 0), (0.1, 3)]
                .map(|(worst, mirror_mismatches)| vectors::VecAccuracyRow {
                    op: "vec3_add".into(),
                    class: "unit".into(),
                    samples: 8,
                    unit: "ulp48".into(),
                    bound: 0.5,
                    vertex_max: worst,
                    fragment_max: 0.1,
                    rms: 0.1,
                    mirror_mismatches,
                    mirror_must_match: true,
                    meets_target: worst <= 0.5,
                })
                .to_vec(),
        };
        let f = report.failures();
        assert_eq!(f.len(), 6, "{f:#?}");
        assert!(
            f[3].starts_with("vec3_add on unit: max 0.600 (vertex)"),
            "{}",
            f[3]
        );
        assert!(f[4].contains("3 differing from the CPU mirror"), "{}", f[4]);
        let f: Vec<String> = f
            .into_iter()
            .filter(|x| !x.starts_with("vec3_add"))
            .collect();
        assert!(f[3].starts_with("qf128 recip with results in 2^[30, 60): 2 NaN or infinite"));
        assert!(f[0].starts_with("mul on [-1, 1]: max 0.750") && f[0].contains("0.5/0.5 MISS"));
        assert!(f[1].starts_with("div on") && f[1].contains(", 2 results outside"));
        assert!(f[2].starts_with("qf128 sqr on") && f[2].contains("ulp96"));
        assert!(
            f[2].contains(", 5 differing from the CPU mirror"),
            "{}",
            f[2]
        );
    }
}
