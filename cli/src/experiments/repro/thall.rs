//! Thall (2007): Table I (the driver's f32 arithmetic), Table II (df64 accuracy and cost) and
//! the FFT study, published values beside this driver's.

use super::*;

pub(super) fn thall_table1(
    probe: &ProbeReport,
    dev: &str,
) -> Result<Vec<ReportTable>, ExperimentError> {
    let paper = paper_table("thall-table1.json")?;
    let mut columns = vec!["operation".to_string()];
    columns.extend(paper.columns.iter().map(|c| paper_label(c, "Thall 2007")));
    columns.extend([
        format!("error range, ulp [{dev}]"),
        format!("correctly rounded, % [{dev}]"),
        format!("rounding [{dev}]"),
    ]);
    let rows = probe
        .ops
        .iter()
        .map(|r| {
            let mut row = vec![text(&r.op)];
            match paper.row(&r.op) {
                Some(p) => row.extend(p.values.iter().map(json_cell)),
                None => row.extend(paper.columns.iter().map(|_| text(NOT_IN_PAPER))),
            }
            row.extend([
                text(format!("[{:.3}, {:.3}]", r.min_ulp, r.max_ulp)),
                num(100.0 * r.correctly_rounded),
                text(&r.rounding),
            ]);
            row
        })
        .collect();
    let eft_rows = probe
        .transforms
        .iter()
        .map(|t| {
            vec![
                text(&t.transform),
                text(t.protection.name()),
                num(100.0 * t.wrong),
                num(t.samples as f64),
            ]
        })
        .collect();
    Ok(vec![
        ReportTable {
            id: "thall-table1".into(),
            title: "Thall Table I: f32 arithmetic error (GPU paranoia)".into(),
            sources: vec![
                format!("{} ({})", paper.source, paper.device),
                format!("measured: df64gl probe on {dev}, {} inputs per op", probe.ops.first().map_or(0, |r| r.samples)),
            ],
            notes: vec![format!(
                "Also measured: ties to even {}, guard digit {}, subnormal results flushed {}, fma fused {}.",
                probe.ties_to_even, probe.guard_digit, probe.flushes_subnormal_results, probe.fma_fused
            )],
            columns,
            rows,
        },
        ReportTable {
            id: "probe-eft".into(),
            title: "Error-free transforms as this driver compiles them (share of wrong results)".into(),
            sources: vec![format!("measured: df64gl probe on {dev}")],
            notes: vec![format!("Configuration chosen: {}", probe.decision)],
            columns: vec![
                "transform".into(),
                "compiled".into(),
                format!("wrong, % [{dev}]"),
                "inputs".into(),
            ],
            rows: eft_rows,
        },
    ])
}

pub(super) fn thall_table2(r: &AccuracyReport, dev: &str) -> Vec<ReportTable> {
    let paper_src = format!("{} ({})", r.thall_paper.source, r.thall_paper.device);
    let cols = |first: &[&str], unit: &str| {
        let mut c: Vec<String> = first.iter().map(|s| s.to_string()).collect();
        c.extend([
            "G80 max [Thall 2007]".into(),
            "G80 RMS [Thall 2007]".into(),
            format!("max, {unit} [{dev}]"),
            format!("RMS, {unit} [{dev}]"),
            format!("cost / f32 add [{dev}]"),
            format!("GPU vs CPU mirror [{dev}]"),
        ]);
        c
    };
    let arithmetic = r
        .rows
        .iter()
        .map(|a| {
            vec![
                text(&a.op),
                text(a.variant.unwrap_or("-")),
                text(&a.range),
                opt_num(a.thall_g80.map(|t| t.0), NOT_IN_PAPER),
                opt_num(a.thall_g80.map(|t| t.1), NOT_IN_PAPER),
                num(a.max),
                num(a.rms),
                opt_num(a.cost_vs_f32_add, "not measured"),
                mirror_cell(a.mirror_mismatches, a.mirror_must_match),
            ]
        })
        .collect();
    let functions = r
        .functions
        .iter()
        .map(|f| {
            vec![
                text(&f.op),
                text(&f.range),
                opt_num(f.thall_g80.map(|t| t.0), NOT_IN_PAPER),
                opt_num(f.thall_g80.map(|t| t.1), NOT_IN_PAPER),
                num(f.max),
                num(f.rms),
                opt_num(f.cost_vs_f32_add, "not measured"),
                mirror_cell(f.mirror_mismatches, f.mirror_must_match),
            ]
        })
        .collect();
    let qf = r
        .qf128
        .iter()
        .map(|q| {
            vec![
                text(&q.op),
                text(&q.range),
                opt_num(q.target.map(|t| t.max), "none"),
                num(q.max),
                num(q.rms),
                opt_num(q.cost_vs_f32_add, "not measured"),
                mirror_cell(q.mirror_mismatches, q.mirror_must_match),
            ]
        })
        .collect();
    let samples = |n: usize| {
        format!("measured: df64gl on {dev}, {n} random inputs per row, against the oracle (astro-float, 256 bits) and the CPU mirror")
    };
    vec![
        ReportTable {
            id: "thall-table2".into(),
            title: "Thall Table II: df64 arithmetic, max and RMS error in ulp48".into(),
            sources: vec![paper_src.clone(), samples(r.rows.first().map_or(0, |a| a.samples))],
            notes: vec![
                "variant 'accurate': df64gl's defaults; 'thall': the routines as published.".into(),
                r.cost_method.clone(),
            ],
            columns: cols(&["op", "variant", "range"], "ulp48"),
            rows: arithmetic,
        },
        ReportTable {
            id: "thall-table2-functions".into(),
            title: "Thall Table II: df64 functions, max and RMS error in ulp48".into(),
            sources: vec![paper_src, samples(r.functions.first().map_or(0, |f| f.samples))],
            notes: vec!["Thall's rows are exp, ln(1+x) (here log1p on [1, 2]), sin and cos; the rest are df64gl's additions.".into()],
            columns: cols(&["function", "range"], "ulp48"),
            rows: functions,
        },
        ReportTable {
            id: "qf128".into(),
            title: "qf128 (the new Table II rows): max and RMS error in ulp96".into(),
            sources: vec![samples(r.qf128.first().map_or(0, |q| q.samples))],
            notes: vec!["Thall describes qf128 (his Figs. 6 to 8) but publishes no error table for it; the target column is df64gl's specification.".into()],
            columns: vec![
                "op".into(),
                "range".into(),
                "target max, ulp96 [df64gl spec]".into(),
                format!("max, ulp96 [{dev}]"),
                format!("RMS, ulp96 [{dev}]"),
                format!("cost / f32 add [{dev}]"),
                format!("GPU vs CPU mirror [{dev}]"),
            ],
            rows: qf,
        },
    ]
}

pub(super) fn thall_fft(
    kernels: &Df64Kernels,
    s: &Sizes,
    seed: u64,
    dev: &str,
    progress: &mut dyn FnMut(usize, usize, &str),
) -> Result<(ReportTable, Canvas), ExperimentError> {
    let paper = paper_table("thall-fft.json")?;
    let ms: Vec<u32> = s.fft_log2.clone().collect();
    let mut rows = Vec::new();
    let (mut rmse_table, mut rmse_direct) = (Vec::new(), Vec::new());
    for (i, &m) in ms.iter().enumerate() {
        progress(i, ms.len(), &format!("N = 2^{m}"));
        let n = 1usize << m;
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ (m as u64) << 32);
        let signal: Vec<Complex64> = (0..n)
            .map(|_| Complex64::new(rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0)))
            .collect();
        let signal = df64gl::fft::BlockScaled::from_f64(&signal)?;
        let study =
            |radix: Radix, twiddles: TwiddleSource| -> Result<PrecisionRow, ExperimentError> {
                let options = FftStudyOptions {
                    precisions: vec![FftPrecision::Df64],
                    radix,
                    twiddles,
                    repeats: s.fft_repeats,
                    ..FftStudyOptions::default()
                };
                let st = run_fft_study(
                    kernels,
                    &signal,
                    "uniform random complex",
                    &options,
                    &mut |_| {},
                )?;
                st.report
                    .rows
                    .into_iter()
                    .next()
                    .ok_or_else(|| ExperimentError::Invalid("FFT study returned no row".into()))
            };
        let table = study(Radix::Two, TwiddleSource::Table)?;
        let direct = study(Radix::Two, TwiddleSource::Direct)?;
        let r4 = study(Radix::Four, TwiddleSource::Table)?;
        rmse_table.push(table.round_trip.rmse_magnitude.log10());
        rmse_direct.push(direct.round_trip.rmse_magnitude.log10());
        rows.push(vec![
            num(m as f64),
            num(n as f64),
            num(table.round_trip.rmse_magnitude),
            num(table.round_trip.rmse_phase),
            num(table.round_trip.peak_snr_db),
            num(table.gflops),
            num(direct.round_trip.rmse_magnitude),
            num(direct.round_trip.rmse_phase),
            num(direct.round_trip.peak_snr_db),
            num(direct.gflops),
            num(r4.gflops),
            num(table.rel_l2),
        ]);
    }
    progress(ms.len(), ms.len(), "done");
    let title = format!("Thall FFT on {dev}: log10 RMSE of |x'| - |x| (round trip), df64 radix 2");
    let chart = Chart {
        title: &title,
        x_label: "m = log2 N",
        y_label: "log10 RMSE",
        x_range: (
            *ms.first().unwrap_or(&0) as f64,
            *ms.last().unwrap_or(&0) as f64 + 1.0,
        ),
        y_range: (-17.0, -12.0),
        y_step: 1.0,
        series: vec![
            Series {
                label: "W_long table",
                color: BLUE,
                y: &rmse_table,
            },
            Series {
                label: "df64 sincos in shader",
                color: RED,
                y: &rmse_direct,
            },
        ],
    };
    let col = |what: &str, tw: &str| format!("{what}, {tw} [{dev}]");
    Ok((
        ReportTable {
            id: "thall-fft".into(),
            title: "Thall's FFT study: df64 transposed Stockham, round-trip accuracy and GFLOP/s, precomputed vs in-shader twiddles".into(),
            sources: vec![
                format!("{} ({})", paper.source, paper.device),
                format!("measured: df64gl on {dev}, uniform random complex input in [-1, 1]^2, best of {} forward transforms", s.fft_repeats),
            ],
            notes: paper.note.clone().into_iter().chain([
                "Radix 2 is the paper's Algorithm 10; the radix-4 column is df64gl's default engine. GFLOP/s = 5 N log2 N / time. rel L2: forward transform against rustfft in f64.".to_string(),
            ]).collect(),
            columns: vec![
                "m".into(),
                "N".into(),
                col("RMSE |x|", "table"),
                col("RMSE phase", "table"),
                col("peak S/N dB", "table"),
                col("GFLOP/s", "table"),
                col("RMSE |x|", "direct"),
                col("RMSE phase", "direct"),
                col("peak S/N dB", "direct"),
                col("GFLOP/s", "direct"),
                col("GFLOP/s radix 4", "table"),
                col("rel L2 vs rustfft", "table"),
            ],
            rows,
        },
        chart.render(720, 400),
    ))
}
