//! Warwick's FP64 comparison: Table 1 (ulp statistics), Table 2 (throughput against native
//! double) and Tables 3 and 4 (pi by Leibniz's series in f32, df64, Thall's df64 and double).

use super::*;

pub(super) fn warwick_table1(
    r: &AccuracyReport,
    dev: &str,
) -> Result<(ReportTable, Vec<(String, Canvas)>), ExperimentError> {
    let mut rows = Vec::new();
    let mut plots = Vec::new();
    for p in &r.warwick_paper.rows {
        let mut group = vec![vec![
            text(&p.op),
            text("Warwick 2020 (CUDA GPUs)"),
            num(p.mean),
            num(p.median),
            num(p.max),
            num(p.min),
            num(p.sd),
            num(1_024_000.0),
        ]];
        let variants = [
            (p.op.clone(), "df64 accurate"),
            (format!("{}_thall", p.op), "df64 Thall"),
        ];
        let mut series_data = Vec::new();
        for (name, label) in &variants {
            if let Some(w) = r.warwick.iter().find(|w| &w.op == name) {
                group.push(vec![
                    text(&p.op),
                    text(format!("{label} [{dev}]")),
                    num(w.mean),
                    num(w.median),
                    num(w.max),
                    num(w.min),
                    num(w.sd),
                    num(w.samples as f64),
                ]);
                let total = w.samples.max(1) as f64;
                series_data.push((
                    *label,
                    w.log2_histogram
                        .iter()
                        .map(|c| 100.0 * *c as f64 / total)
                        .collect::<Vec<f64>>(),
                ));
            }
        }
        rows.extend(group);
        if !series_data.is_empty() {
            let buckets = series_data.iter().map(|(_, v)| v.len()).max().unwrap_or(1);
            let padded: Vec<(&str, Vec<f64>)> = series_data
                .into_iter()
                .map(|(l, mut v)| {
                    v.resize(buckets, 0.0);
                    (l, v)
                })
                .collect();
            let title = format!("Warwick Fig.: ULP distance to FP64, df64 {} on {dev}", p.op);
            let chart = Chart {
                title: &title,
                x_label: "bucket k: ULP in [2^(k-1), 2^k), 0: exact",
                y_label: "% of inputs",
                x_range: (0.0, buckets as f64),
                y_range: (0.0, 100.0),
                y_step: 20.0,
                series: padded
                    .iter()
                    .zip([BLUE, ORANGE])
                    .map(|((l, v), c)| Series {
                        label: l,
                        color: c,
                        y: v,
                    })
                    .collect(),
            };
            plots.push((format!("warwick-ulp-{}.png", p.op), chart.render(720, 360)));
        }
    }
    Ok((
        ReportTable {
            id: "warwick-table1".into(),
            title: "Warwick Table 1: ULP distance of df64 results to FP64 (inputs uniform in [-1e6, 1e6])".into(),
            sources: vec![
                format!("{} ({})", r.warwick_paper.source, r.warwick_paper.device),
                format!("measured: df64gl on {dev}, control in f64 on the CPU"),
            ],
            notes: vec!["Histograms: warwick-ulp-<op>.png (log2 buckets, as his Figs. 1 to 4 show distributions).".into()],
            columns: vec![
                "op".into(),
                "source".into(),
                "mean".into(),
                "median".into(),
                "max".into(),
                "min".into(),
                "sd".into(),
                "samples".into(),
            ],
            rows,
        },
        plots,
    ))
}

pub(super) fn warwick_table2(
    ops: &OpBenchReport,
    dev: &str,
) -> Result<ReportTable, ExperimentError> {
    let paper = paper_table("warwick-table2.json")?;
    let mut rows: Vec<Vec<Cell>> = paper
        .rows
        .iter()
        .map(|r| {
            let mut row = vec![text(format!("{} [Warwick 2020]", r.label))];
            row.extend(r.values.iter().map(json_cell));
            row
        })
        .collect();
    let get = |name: &str| ops.rows.iter().find(|r| r.op == name);
    let slug = get(F64Op::Add.name())
        .and_then(|r| r.vs_f32_add)
        .map_or_else(|| text("no double here"), num);
    for (label, names) in [
        ("df64 accurate", ["add", "sub", "mul", "div"]),
        (
            "df64 Thall",
            ["add_thall", "sub_thall", "mul_thall", "div_thall"],
        ),
    ] {
        let mut row = vec![text(format!("{label} [{dev}]"))];
        for n in names {
            row.push(
                get(n)
                    .and_then(|r| r.speedup_over_f64)
                    .map_or_else(|| text("no double here"), num),
            );
        }
        row.push(slug.clone());
        rows.push(row);
    }
    let mut columns = vec!["GPU / variant".to_string()];
    columns.extend(paper.columns.iter().cloned());
    Ok(ReportTable {
        id: "warwick-table2".into(),
        title: "Warwick Table 2: speed-up of df64 over native double (double time / df64 time)".into(),
        sources: vec![
            format!("{} ({})", paper.source, paper.device),
            format!("measured: GLSL double against df64 on {dev}, {}", ops.method),
        ],
        notes: vec!["Slug factor: Warwick quotes each GPU's specification; here it is measured, double add time over f32 add time.".into()],
        columns,
        rows,
    })
}

/// One variant of the Leibniz series on the GPU.
#[derive(Debug, Clone, Serialize)]
pub struct LeibnizRow {
    /// "f32", "df64", "f64" or "f64 in shaders".
    pub variant: &'static str,
    /// The GPU result as an f64 (exact for f32, df64 and double).
    pub value: f64,
    /// GPU seconds of one pass over all lanes.
    pub seconds: f64,
    /// Lanes (texels) computing the series at once.
    pub lanes: usize,
    /// ULP distance (of f64) to the GPU's native double result (Warwick's measure).
    pub ulp_vs_f64: Option<u64>,
    /// |value - exact partial sum| in ulps of f64 at the exact value.
    pub f64_ulps_vs_exact: f64,
    /// Equal bit for bit to the CPU computation of the same algorithm (f32 is not checked:
    /// GLSL's f32 division need not be correctly rounded).
    pub matches_cpu: Option<bool>,
}

/// The df64 partial sum of `glsl/leibniz.glsl` (before the exact times 4), with the accurate
/// routines or Thall's, as the shader sums it.
pub(super) fn leibniz_mirror(terms: i32, thall: bool) -> Df64 {
    let one = Df64::new(1.0, 0.0);
    let mut acc = Df64::new(0.0, 0.0);
    for k in 0..terms {
        let d = Df64::new((2 * k + 1) as f32, 0.0);
        acc = match (k % 2 == 0, thall) {
            (true, false) => m::df64_add(acc, m::df64_div(one, d)),
            (false, false) => m::df64_sub(acc, m::df64_div(one, d)),
            (true, true) => m::df64_add_thall(acc, m::df64_div_thall(one, d)),
            (false, true) => m::df64_sub_thall(acc, m::df64_div_thall(one, d)),
        };
    }
    acc
}

/// Builds (and self-tests) the df64 Leibniz programs (`df64gl selftest`).
pub fn prepare_leibniz(kernels: &Df64Kernels) -> Result<(), KernelError> {
    proven_leibniz(kernels, "df64", "LEIBNIZ_DF64", false)?;
    proven_leibniz(kernels, "df64 Thall", "LEIBNIZ_THALL", true)?;
    Ok(())
}

/// A df64 Leibniz program, built once its self-test passed.
pub(super) fn proven_leibniz(
    kernels: &Df64Kernels,
    name: &str,
    define: &str,
    thall: bool,
) -> Result<Program, KernelError> {
    let label = format!("leibniz.glsl ({name})");
    kernels.build_program_proven("leibniz.glsl", &[(define, "1")], &label, |p| {
        leibniz_self_test(kernels, p, thall, &label)
    })
}

/// Known-answer test of a df64 Leibniz program: 1,001 terms on a 4 x 4 target, every lane
/// against [`leibniz_mirror`] (times 4, exact) bit for bit.
pub(super) fn leibniz_self_test(
    kernels: &Df64Kernels,
    program: &Program,
    thall: bool,
    label: &str,
) -> Result<Outcome, KernelError> {
    const TERMS: i32 = 1001;
    let ctx = kernels.context();
    let tex = Texture::new(ctx, 4, 4)?;
    let fb = Framebuffer::new(ctx, &[&tex])?;
    Pass::new(program)
        .uniform("u_terms", Uniform::I32(TERMS))
        .run(ctx, &fb)?;
    let got: Vec<[f32; 4]> = fb.read(ctx, 0)?;
    let acc = kernels.mirror_map(1, |_| leibniz_mirror(TERMS, thall))[0];
    let want = vec![[4.0 * acc.hi, 4.0 * acc.lo, 0.0, 0.0]; got.len()];
    Ok(kernels.proof().compare(
        label,
        &got,
        &want,
        |w| w.to_vec(),
        |i| format!("lane {i}, the series to {TERMS} terms"),
    ))
}

/// Runs Warwick's Leibniz series in every variant this driver can.
pub fn run_leibniz(
    kernels: &Df64Kernels,
    side: u32,
    terms: i32,
    progress: &mut dyn FnMut(usize, usize, &str),
) -> Result<Vec<LeibnizRow>, ExperimentError> {
    let ctx = kernels.context();
    let ext = kernels.double_support();
    let variants: [(&str, &str); 4] = [
        ("f32", "LEIBNIZ_F32"),
        ("df64", "LEIBNIZ_DF64"),
        ("df64 Thall", "LEIBNIZ_THALL"),
        ("f64", "LEIBNIZ_F64"),
    ];
    // The exact partial sum and the CPU versions of each algorithm, summed in the same order.
    let (mut exact, mut f64_sum) = (Dd::from_f64(0.0), 0.0f64);
    for k in 0..terms {
        let d = (2 * k + 1) as f64;
        let term = Dd::from_f64(1.0) / Dd::from_f64(d);
        if k % 2 == 0 {
            exact = exact + term;
            f64_sum += 1.0 / d;
        } else {
            exact = exact - term;
            f64_sum -= 1.0 / d;
        }
    }
    let acc = leibniz_mirror(terms, false);
    let acc_thall = leibniz_mirror(terms, true);
    let exact = exact * Dd::from_f64(4.0);
    let cpu = |v: &str| match v {
        "df64" => Some(4.0 * acc.to_f64()),
        "df64 Thall" => Some(4.0 * acc_thall.to_f64()),
        "f64" => Some(4.0 * f64_sum),
        _ => None,
    };
    let tex = Texture::new(ctx, side, side)?;
    let fb = Framebuffer::new(ctx, &[&tex])?;
    let mut rows: Vec<LeibnizRow> = Vec::new();
    for (i, (name, define)) in variants.iter().enumerate() {
        progress(i, variants.len(), name);
        let mut defines = vec![(*define, "1")];
        if *name == "f64" {
            match &ext {
                Ok(true) => defines.push((df64gl::gl::FP64_EXTENSION_DEFINE, "1")),
                Ok(false) => {}
                Err(e) => {
                    return Err(ExperimentError::Invalid(format!(
                        "Warwick's Leibniz test needs double in shaders: {e}"
                    )))
                }
            }
        }
        let program = match *name {
            "df64" | "df64 Thall" => proven_leibniz(kernels, name, define, *name == "df64 Thall")?,
            _ => kernels.build_program("leibniz.glsl", &defines)?,
        };
        let pass = Pass::new(&program).uniform("u_terms", Uniform::I32(terms));
        pass.run(ctx, &fb)?;
        let mut best = f64::INFINITY;
        for _ in 0..3 {
            let ((), t) = timed::<_, ExperimentError>(ctx, || Ok(pass.run(ctx, &fb)?))?;
            best = best.min(t.best().as_secs_f64());
        }
        let texels: Vec<[f32; 4]> = fb.read(ctx, 0)?;
        let w = texels[0];
        if texels
            .iter()
            .any(|t| t.map(f32::to_bits) != w.map(f32::to_bits))
        {
            return Err(ExperimentError::Invalid(format!(
                "Leibniz {name}: lanes disagree on the same series; the driver is not deterministic"
            )));
        }
        let value = w[0] as f64 + w[1] as f64 + w[2] as f64;
        let err = (Dd::from_f64(value) - exact).to_f64().abs();
        rows.push(LeibnizRow {
            variant: name,
            value,
            seconds: best,
            lanes: (side * side) as usize,
            ulp_vs_f64: None,
            f64_ulps_vs_exact: err / ulp_bits(exact.to_f64(), 52),
            matches_cpu: cpu(name).map(|c| c.to_bits() == value.to_bits()),
        });
    }
    progress(variants.len(), variants.len(), "done");
    if let Some(d) = rows.iter().find(|r| r.variant == "f64").map(|r| r.value) {
        for r in &mut rows {
            r.ulp_vs_f64 = Some(ulp_distance_f64(r.value, d));
        }
    }
    Ok(rows)
}

pub(super) fn warwick_tables34(
    rows: &[LeibnizRow],
    dev: &str,
) -> Result<Vec<ReportTable>, ExperimentError> {
    let t3p = paper_table("warwick-table3.json")?;
    let t4p = paper_table("warwick-table4.json")?;
    let time = |v: &str| rows.iter().find(|r| r.variant == v).map(|r| r.seconds);
    let (f32t, f64t) = (time("f32"), time("f64"));
    let paper_rows = |p: &PaperTable| -> Vec<Vec<Cell>> {
        p.rows
            .iter()
            .map(|r| {
                let mut row = vec![text(format!("{} [Warwick 2020]", r.label))];
                row.extend(r.values.iter().map(json_cell));
                row
            })
            .collect()
    };
    let mut t3 = paper_rows(&t3p);
    let mut t4 = paper_rows(&t4p);
    for v in ["df64", "df64 Thall"] {
        let Some(r) = rows.iter().find(|r| r.variant == v) else {
            continue;
        };
        t3.push(vec![
            text(format!("{v} [{dev}]")),
            opt_num(f64t.map(|d| d / r.seconds), "no double here"),
            opt_num(r.ulp_vs_f64.map(|u| u as f64), "no double here"),
        ]);
        t4.push(vec![
            text(format!("{v} [{dev}]")),
            opt_num(f32t.map(|f| r.seconds / f), "no f32 time"),
            opt_num(f64t.zip(f32t).map(|(d, f)| d / f), "no double here"),
        ]);
    }
    let lanes = rows.first().map_or(0, |r| r.lanes);
    let method = format!("measured: one pass on {dev} in which each of {lanes} fragments sums the 2000-term series (Warwick: one CUDA thread, 100,000 repetitions), GPU time best of 3");
    let detail = rows
        .iter()
        .map(|r| {
            vec![
                text(r.variant),
                text(format!("{:.17}", r.value)),
                num(r.f64_ulps_vs_exact),
                opt_num(r.ulp_vs_f64.map(|u| u as f64), "no double here"),
                num(r.seconds * 1e3),
                r.matches_cpu.map_or_else(
                    || text("not checked"),
                    |m| text(if m { "equal" } else { "differs" }),
                ),
            ]
        })
        .collect();
    let mut c3 = vec!["GPU / variant".to_string()];
    c3.extend(t3p.columns.iter().cloned());
    let mut c4 = vec!["GPU / variant".to_string()];
    c4.extend(t4p.columns.iter().cloned());
    Ok(vec![
        ReportTable {
            id: "warwick-table3".into(),
            title: "Warwick Table 3: pi by Leibniz (2000 terms), speed-up of df64 over double and ULP error against double".into(),
            sources: vec![format!("{} ({})", t3p.source, t3p.device), method.clone()],
            notes: vec![],
            columns: c3,
            rows: t3,
        },
        ReportTable {
            id: "warwick-table4".into(),
            title: "Warwick Table 4: effective slug factor of the pi calculation (time over the f32 time)".into(),
            sources: vec![format!("{} ({})", t4p.source, t4p.device), method.clone()],
            notes: vec!["Warwick's FP64 column is the specified slug factor; here the double column is measured (double time over f32 time).".into()],
            columns: c4,
            rows: t4,
        },
        ReportTable {
            id: "leibniz".into(),
            title: "Leibniz pi (2000 terms) on this driver, each precision".into(),
            sources: vec![method],
            notes: vec!["The exact partial sum is computed in double-double on the CPU; 'CPU' is the same algorithm in the same order on the host.".into()],
            columns: vec![
                "variant".into(),
                format!("4 x sum [{dev}]"),
                "error, f64 ulps vs exact partial sum".into(),
                "ULP distance to GPU double".into(),
                format!("ms per pass [{dev}]"),
                "GPU vs CPU".into(),
            ],
            rows: detail,
        },
    ])
}
