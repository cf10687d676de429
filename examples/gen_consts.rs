//! Regenerates the constant words of `glsl/df64_func.glsl` and `src/numeric/df64_consts.rs`
//! from the oracle (astro-float at 320 bits):
//!
//!     cargo run --release --example gen_consts -- rust > src/numeric/df64_consts.rs
//!     cargo run --release --example gen_consts -- glsl   # paste over the GLSL constant block
//!     cargo run --release --example gen_consts -- rust qf > src/numeric/qf128_consts.rs
//!     cargo run --release --example gen_consts -- glsl qf  # the block in glsl/qf128.glsl
//!
//! Each constant is split greedily into f32 words: w0 = fl32(v), w1 = fl32(v - w0), ...

use astro_float::{BigFloat, Consts, RoundingMode};
use df64gl::numeric::oracle::to_f64;

const P: usize = 320;
const RM: RoundingMode = RoundingMode::ToEven;

fn words(v: &BigFloat, n: usize) -> Vec<f32> {
    let mut r = v.clone();
    let mut out = vec![];
    for _ in 0..n {
        let mut w = to_f64(&r) as f32;
        // A subnormal word would be flushed to zero on many GPUs but kept by the CPU mirror:
        // store zero (the constant is then exact to within 2^-126 absolute).
        if w != 0.0 && !w.is_normal() {
            w = 0.0;
        }
        out.push(w);
        r = r.sub(&BigFloat::from_f64(w as f64, P), P, RM);
    }
    out
}

fn main() {
    let glsl = std::env::args().nth(1).as_deref() == Some("glsl");
    let mut cc = Consts::new().expect("constants cache");
    let b = |x: f64| BigFloat::from_f64(x, P);
    let ln2 = b(2.0).ln(P, RM, &mut cc);
    let pi = cc.pi(P, RM);
    let ln10 = b(10.0).ln(P, RM, &mut cc);
    // qf128 tables (four words per entry, ~96 bits) for glsl/qf128.glsl, or the df64 ones.
    let qf = std::env::args().nth(2).as_deref() == Some("qf");
    let w = if qf { 4 } else { 3 };
    // Series coefficients need fewer words in df64 (their terms are small).
    let coef_words = if qf { 4 } else { 2 };
    // One table: f(i) for each i, split into `n` words.
    let mut table =
        |idx: std::ops::RangeInclusive<i32>, n: usize, f: &dyn Fn(i32, &mut Consts) -> BigFloat| {
            idx.flat_map(|i| words(&f(i, &mut cc), n))
                .collect::<Vec<f32>>()
        };
    let exp2 = table(0..=31, w, &|j, cc| {
        b(j as f64 / 32.0).mul(&ln2, P, RM).exp(P, RM, cc)
    });
    let logs = table(45..=91, w, &|i, cc| b(i as f64 / 64.0).ln(P, RM, cc));
    let atans = table(0..=64, 3, &|i, cc| b(i as f64 / 64.0).atan(P, RM, cc));
    let fact = |n: i32| (1..=n).fold(b(1.0), |f, k| f.mul(&b(k as f64), P, RM));
    let inv_fact = table(0..=if qf { 28 } else { 20 }, coef_words, &|n, _| {
        b(1.0).div(&fact(n), P, RM)
    });
    let inv_odd = table(0..=if qf { 8 } else { 12 }, coef_words, &|k, _| {
        b(1.0).div(&b((2 * k + 1) as f64), P, RM)
    });
    let tables: Vec<(&str, Vec<f32>)> = if qf {
        vec![
            ("QF_LN2", words(&ln2, 5)),
            ("QF_LN2_32", words(&ln2.div(&b(32.0), P, RM), 5)),
            ("QF_PI_2", words(&pi.div(&b(2.0), P, RM), 5)),
            ("QF_EXP2_TABLE", exp2),
            ("QF_LOG_TABLE", logs),
            ("QF_INV_FACT", inv_fact),
            ("QF_INV_ODD", inv_odd),
        ]
    } else {
        vec![
            ("LN2", words(&ln2, 3)),
            ("LN2_32", words(&ln2.div(&b(32.0), P, RM), 3)),
            ("PI", words(&pi, 4)),
            // Five words: the sixth would be subnormal and flushed on many GPUs.
            ("PI_2", words(&pi.div(&b(2.0), P, RM), 5)),
            ("PI_4", words(&pi.div(&b(4.0), P, RM), 3)),
            ("INV_PI_2", words(&b(2.0).div(&pi, P, RM), 2)),
            ("LOG2_E", words(&b(1.0).div(&ln2, P, RM), 3)),
            ("LOG10_E", words(&b(1.0).div(&ln10, P, RM), 3)),
            ("LOG10_2", words(&ln2.div(&ln10, P, RM), 3)),
            ("EXP2_TABLE", exp2),
            ("LOG_TABLE", logs),
            ("ATAN_TABLE", atans),
            ("INV_FACT", inv_fact),
            ("INV_ODD", inv_odd),
        ]
    };
    let prefix = if qf { "QF128" } else { "DF64" };

    if glsl {
        println!(
            "// Constants (generated from a 320-bit oracle; src/numeric/{}_consts.rs holds the same words).",
            if qf { "qf128" } else { "df64" }
        );
        for (name, v) in &tables {
            let rows: Vec<String> = v
                .chunks(6)
                .map(|c| {
                    format!(
                        "    {}",
                        c.iter()
                            .map(|x| format!("{x:e}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                })
                .collect();
            let name = name.trim_start_matches("QF_");
            println!(
                "const float {prefix}_{name}[{}] = float[](\n{});",
                v.len(),
                rows.join(",\n")
            );
        }
        return;
    }
    if qf {
        println!("//! Constants of `glsl/qf128.glsl`: four or five f32 words per constant (~96-120 bits),");
        println!("//! generated from the oracle (astro-float at 320 bits) by `examples/gen_consts.rs -- rust qf`.");
        println!(
            "//! QF_EXP2_TABLE[4j..] = 2^(j/32); QF_LOG_TABLE[4(i-45)..] = ln(i/64), i = 45..=91;"
        );
        println!(
            "//! QF_INV_FACT[4n..] = 1/n!, n = 0..=28; QF_INV_ODD[4k..] = 1/(2k+1), k = 0..=8."
        );
        println!();
        println!("#![allow(clippy::approx_constant)]");
        for (name, v) in &tables {
            println!();
            println!("/// {}", const_doc(name));
            println!("pub const {name}: [f32; {}] = [", v.len());
            for c in v.chunks(8) {
                println!(
                    "    {},",
                    c.iter()
                        .map(|x| format!("{x:e}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                );
            }
            println!("];");
        }
        return;
    }
    println!("//! Constants of `glsl/df64_func.glsl`, as f32 words whose exact sum is the constant to about");
    println!("//! 3 x 24 bits, generated from the oracle (astro-float at 320 bits) by");
    println!("//! `examples/gen_consts.rs`; `numeric::oracle` tests re-derive them.");
    println!(
        "//! Tables: EXP2_TABLE[3j..3j+3] = 2^(j/32), j = 0..32; LOG_TABLE[3(i-45)..] = ln(i/64),"
    );
    println!("//! i = 45..=91; ATAN_TABLE[3i..] = atan(i/64), i = 0..=64; INV_FACT[2n..2n+2] = 1/n!, n = 0..=20;");
    println!("//! INV_ODD[2k..2k+2] = 1/(2k+1), k = 0..=12.");
    println!();
    println!("// Generated words: some coincide with named f32 constants (2^(16/32) is sqrt 2).");
    println!("#![allow(clippy::approx_constant)]");
    for (name, v) in &tables {
        println!();
        println!("/// {}", const_doc(name));
        println!("pub const {name}: [f32; {}] = [", v.len());
        for c in v.chunks(6) {
            println!(
                "    {},",
                c.iter()
                    .map(|x| format!("{x:e}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        println!("];");
    }
}

/// The doc line of a generated constant.
fn const_doc(name: &str) -> &'static str {
    match name {
        "LN2" => "ln 2.",
        "LN2_32" => "ln 2 / 32 (the step of the exp table).",
        "PI" => "pi.",
        "PI_2" => "pi / 2 (more words: Cody-Waite reduction).",
        "PI_4" => "pi / 4.",
        "INV_PI_2" => "2 / pi.",
        "LOG2_E" => "log2(e) = 1 / ln 2 (log2's scale).",
        "LOG10_E" => "log10(e) = 1 / ln 10 (log10's scale).",
        "LOG10_2" => "log10(2) (log10's exponent step).",
        "EXP2_TABLE" => "2^(j/32), j = 0..32, three words each.",
        "LOG_TABLE" => "ln(i/64), i = 45..=91, three words each.",
        "ATAN_TABLE" => "atan(i/64), i = 0..=64, three words each.",
        "INV_FACT" => "1/n!, n = 0..=20, two words each.",
        "INV_ODD" => "1/(2k+1), k = 0..=12, two words each.",
        "QF_LN2" => "ln 2.",
        "QF_LN2_32" => "ln 2 / 32.",
        "QF_PI_2" => "pi / 2.",
        "QF_EXP2_TABLE" => "2^(j/32), j = 0..32, four words each.",
        "QF_LOG_TABLE" => "ln(i/64), i = 45..=91, four words each.",
        "QF_INV_FACT" => "1/n!, n = 0..=28, four words each.",
        "QF_INV_ODD" => "1/(2k+1), k = 0..=8, four words each.",
        _ => "A generated constant.",
    }
}
