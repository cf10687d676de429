//! Da Graca and Defour (2006): Table 5 (accuracy of their operators) and Tables 3 and 4 (GPU
//! time of each operator against the CPU at growing sizes).

use super::*;

pub(super) fn dagraca_table5(r: &AccuracyReport, dev: &str) -> ReportTable {
    let rows = r
        .dagraca_table5
        .iter()
        .map(|m| {
            let paper = r
                .dagraca_paper
                .rows
                .iter()
                .find(|p| p.op == m.op)
                .map_or_else(
                    || text(NOT_IN_PAPER),
                    |p| opt_num(p.log2_max_rel_error, "exact"),
                );
            vec![
                text(&m.op),
                text(&m.routine),
                paper,
                opt_num(m.log2_max_rel_error, "exact"),
                num(m.samples as f64),
            ]
        })
        .collect();
    ReportTable {
        id: "dagraca-table5".into(),
        title: "Da Graca and Defour Table 5: log2 of the maximum relative error".into(),
        sources: vec![
            format!("{} ({})", r.dagraca_paper.source, r.dagraca_paper.device),
            format!("measured: df64gl on {dev}, against the oracle"),
        ],
        notes: vec!["Routines *_dagraca are their algorithms as published; add and mul are df64gl's accurate defaults measured on the same inputs.".into()],
        columns: vec![
            "op".into(),
            "routine".into(),
            "log2 max rel error [Da Graca 2006]".into(),
            format!("log2 max rel error [{dev}]"),
            "inputs".into(),
        ],
        rows,
    }
}

/// Da Graca and Defour's columns and the df64gl routines measured for them, plus df64gl's
/// own accurate add and mul.
pub(super) const DAGRACA_OPS: [(&str, Df64Op); 9] = [
    ("Add", Df64Op::F32Add),
    ("Mul", Df64Op::F32Mul),
    ("Mad", Df64Op::F32Mad),
    ("Add12", Df64Op::TwoSum),
    ("Mul12", Df64Op::TwoProd),
    ("Add22", Df64Op::AddDagraca),
    ("Mul22", Df64Op::MulDagraca),
    ("df64gl add", Df64Op::Add),
    ("df64gl mul", Df64Op::Mul),
];
pub(super) const DAGRACA_SIZES: [usize; 5] = [4096, 16384, 65536, 262144, 1048576];

/// Best time of `f` over the elements, `tries` times.
pub(super) fn cpu_time(
    tries: usize,
    a: &[Df64],
    b: &[Df64],
    out: &mut [Df64],
    f: impl Fn(Df64, Df64) -> Df64,
) -> f64 {
    let mut best = f64::INFINITY;
    for _ in 0..tries.max(1) {
        let t = Instant::now();
        for ((o, x), y) in out.iter_mut().zip(a).zip(b) {
            *o = f(*x, *y);
        }
        std::hint::black_box(&mut *out);
        best = best.min(t.elapsed().as_secs_f64());
    }
    best
}

pub(super) fn cpu_op_time(
    op: Df64Op,
    tries: usize,
    a: &[Df64],
    b: &[Df64],
    out: &mut [Df64],
) -> f64 {
    // Each routine inlined into its own loop, as Da Graca and Defour's CPU code would be.
    match op {
        Df64Op::F32Add => cpu_time(tries, a, b, out, |x, y| Df64::new(x.hi + y.hi, 0.0)),
        Df64Op::F32Mul => cpu_time(tries, a, b, out, |x, y| Df64::new(x.hi * y.hi, 0.0)),
        Df64Op::F32Mad => cpu_time(tries, a, b, out, |x, y| Df64::new(x.hi * y.hi + x.lo, 0.0)),
        Df64Op::TwoSum => cpu_time(tries, a, b, out, |x, y| m::df64_two_sum(x.hi, y.hi)),
        Df64Op::TwoProd => cpu_time(tries, a, b, out, |x, y| m::df64_two_prod(x.hi, y.hi)),
        Df64Op::AddDagraca => cpu_time(tries, a, b, out, m::df64_add_dagraca),
        Df64Op::MulDagraca => cpu_time(tries, a, b, out, m::df64_mul_dagraca),
        Df64Op::Mul => cpu_time(tries, a, b, out, m::df64_mul),
        _ => cpu_time(tries, a, b, out, m::df64_add),
    }
}

pub(super) fn dagraca_timings(
    kernels: &Df64Kernels,
    tries: usize,
    dev: &str,
    progress: &mut dyn FnMut(usize, usize, &str),
) -> Result<(ReportTable, ReportTable, Canvas), ExperimentError> {
    let total = DAGRACA_OPS.len() * 2;
    let mut gpu = vec![vec![0.0; DAGRACA_OPS.len()]; DAGRACA_SIZES.len()];
    let mut cpu = gpu.clone();
    let mut rng = ChaCha8Rng::seed_from_u64(2006);
    let n_max = DAGRACA_SIZES[DAGRACA_SIZES.len() - 1];
    let a: Vec<Df64> = (0..n_max)
        .map(|_| Df64::from_f64(rng.gen_range(-1.0..1.0)))
        .collect();
    let b: Vec<Df64> = (0..n_max)
        .map(|_| Df64::from_f64(rng.gen_range(-1.0..1.0)))
        .collect();
    let mut out = vec![Df64::new(0.0, 0.0); n_max];
    for (j, (name, op)) in DAGRACA_OPS.iter().enumerate() {
        progress(j, total, &format!("GPU {name}"));
        for (i, &n) in DAGRACA_SIZES.iter().enumerate() {
            // Two elements per RGBA32F texel; one pass applying the op once.
            gpu[i][j] = kernels
                .time_chain(*op, n / 2, 1, tries)?
                .best()
                .as_secs_f64();
        }
        progress(DAGRACA_OPS.len() + j, total, &format!("CPU {name}"));
        for (i, &n) in DAGRACA_SIZES.iter().enumerate() {
            cpu[i][j] = cpu_op_time(*op, tries, &a[..n], &b[..n], &mut out[..n]);
        }
    }
    let make =
        |id: &str, title: &str, paper: PaperTable, times: &[Vec<f64>], what: String, here: &str| {
            let unit = times[0][0];
            let mut columns = vec!["elements".to_string(), "source".to_string()];
            columns.extend(DAGRACA_OPS.iter().map(|(n, _)| n.to_string()));
            let mut rows = Vec::new();
            for (i, &n) in DAGRACA_SIZES.iter().enumerate() {
                let mut p = vec![
                    num(n as f64),
                    text(format!("Da Graca 2006 ({})", paper.device)),
                ];
                for (name, _) in DAGRACA_OPS.iter() {
                    let col = paper.columns.iter().position(|c| c == name);
                    let v = paper
                        .row(&n.to_string())
                        .zip(col)
                        .map(|(r, c)| json_cell(&r.values[c]));
                    p.push(v.unwrap_or_else(|| text(NOT_IN_PAPER)));
                }
                rows.push(p);
                let mut m = vec![num(n as f64), text(format!("measured [{here}]"))];
                m.extend(times[i].iter().map(|t| num(t / unit)));
                rows.push(m);
            }
            ReportTable {
                id: id.into(),
                title: title.into(),
                sources: vec![format!("{} ({})", paper.source, paper.device), what],
                notes: vec![format!(
                    "Normalised to the f32 Add on 4096 elements of the same table ({:.3} us here).",
                    unit * 1e6
                )],
                columns,
                rows,
            }
        };
    let t3 = make(
        "dagraca-table3",
        "Da Graca and Defour Table 3: GPU time per pass, normalised to the f32 Add on 4096 elements",
        paper_table("dagraca-table3.json")?,
        &gpu,
        format!("measured: one full-screen pass over the elements (two per RGBA32F texel) on {dev}, GL_TIME_ELAPSED where it measures draws, else wall-clock time between glFinish calls (llvmpipe), best of {tries}"),
        dev,
    );
    let t4 = make(
        "dagraca-table4",
        "Da Graca and Defour Table 4: CPU time (the Rust mirrors), normalised to the f32 Add on 4096 elements",
        paper_table("dagraca-table4.json")?,
        &cpu,
        format!("measured: the CPU mirrors in one loop per routine, one thread of this machine's CPU, best of {tries}"),
        "host CPU, Rust mirror",
    );
    progress(total, total, "done");
    let series: Vec<Vec<f64>> = (0..7)
        .map(|j| {
            DAGRACA_SIZES
                .iter()
                .enumerate()
                .map(|(i, _)| (gpu[i][j] / gpu[0][0]).log10())
                .collect()
        })
        .collect();
    // Seven distinct colours, one per column of the table (the plot module has four).
    let colors = [
        BLUE,
        GREEN,
        ORANGE,
        RED,
        [148, 103, 189],
        [140, 86, 75],
        [227, 119, 194],
    ];
    let title = format!("Da Graca Table 3 on {dev}: log10 GPU time / f32 Add at 4096");
    let ymax = series
        .iter()
        .flatten()
        .fold(1.0f64, |a, b| a.max(*b))
        .ceil();
    let chart = Chart {
        title: &title,
        x_label: "log4(elements / 4096)",
        y_label: "log10 time",
        x_range: (0.0, 4.0),
        y_range: (-1.0, ymax),
        y_step: 1.0,
        series: DAGRACA_OPS[..7]
            .iter()
            .zip(&series)
            .zip(colors)
            .map(|(((name, _), y), c)| Series {
                label: name,
                color: c,
                y,
            })
            .collect(),
    };
    Ok((t3, t4, chart.render(720, 400)))
}
