//! What a df64 program is built with on this driver (the protection against float rewrites and
//! the TwoProduct), and how the probe decides it from what it measured.

use super::*;

/// How df64 programs are built on this driver.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TwoProdKind {
    /// `fma(a, b, -p)`: proven fused here.
    Fma,
    /// Dekker's split: needs only correctly rounded multiply and add.
    Dekker,
}

/// How the error-free transforms are kept from the compiler's float rewrites, strongest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Protection {
    /// The GLSL `precise` qualifier (GLSL 4.00+).
    Precise,
    /// `precise` on GLSL 3.30 through `#extension GL_ARB_gpu_shader5`.
    PreciseExtension,
    /// The bit-level barrier around every operation ([`crate::export::insert_barriers`]).
    Barrier,
    /// Nothing: only for drivers that were measured not to rewrite, and for tests that show
    /// what goes wrong.
    None,
    /// df64gl 0.1.0's barrier (each statement multiplied by a uniform 1), which Mesa's
    /// compiler sees through. Never chosen; forcing it shows that the programs' self-tests
    /// refuse what the probe's transform checks let through.
    #[cfg_attr(feature = "clap", value(hide = true))]
    StatementMultiply,
}

impl Protection {
    /// The protections the probe tries, strongest first.
    pub const ALL: [Protection; 4] = [
        Protection::Precise,
        Protection::PreciseExtension,
        Protection::Barrier,
        Protection::None,
    ];

    /// "precise", "precise-extension", "barrier", "none" or "statement-multiply".
    pub fn name(self) -> &'static str {
        match self {
            Protection::Precise => "precise",
            Protection::PreciseExtension => "precise (GL_ARB_gpu_shader5)",
            Protection::Barrier => "bit-level barrier",
            Protection::None => "none",
            Protection::StatementMultiply => "statement multiply (0.1.0)",
        }
    }

    /// Whether the driver can build programs with this protection at all.
    pub fn available(self, info: &GlInfo) -> bool {
        match self {
            Protection::Precise => info.glsl_number >= 400,
            Protection::PreciseExtension => {
                info.glsl_number < 400
                    && info
                        .extensions_of_interest
                        .iter()
                        .any(|e| e == "GL_ARB_gpu_shader5")
            }
            Protection::Barrier | Protection::None | Protection::StatementMultiply => true,
        }
    }
}

/// Environment variable that forces a protection (`precise`, `precise-extension`, `barrier`,
/// `none`) instead of the strongest proven one: the probe and the self-tests still check it,
/// so a forced unsafe one is refused, not used.
pub const PROTECTION_ENV: &str = "DF64GL_PROTECTION";

/// Environment variable that picks the sum's TwoSum (`knuth` or `sorted`) instead of the
/// driver's default ([`TwoSumKind::for_driver`]), to measure both on a new GPU.
pub const TWO_SUM_ENV: &str = "DF64GL_TWO_SUM";

/// Which TwoSum the accurate sum's core is built with (`DF64_TWO_SUM_KNUTH` in df64.glsl).
/// Both return the same words (the mirror's `df64_two_sum_sorted` test holds them equal bit for
/// bit), and the check and the self-tests prove whichever is built, so this is the driver's
/// cheaper form, from measurements.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TwoSumKind {
    /// Ordered by magnitude, then QuickTwoSum: a compare, two selects and three operations
    /// (measured cheaper on ANGLE over Mesa; on llvmpipe the two measured alike, within noise).
    #[default]
    Sorted,
    /// Knuth's six operations (measured cheaper on NVIDIA: docs/nvidia.md).
    Knuth,
}

impl TwoSumKind {
    /// Knuth's on NVIDIA's drivers, the sorted form elsewhere; [`TWO_SUM_ENV`] overrides.
    pub fn for_driver(info: &GlInfo) -> Self {
        if let Some(forced) = forced_two_sum() {
            return forced;
        }
        if info.vendor.to_ascii_lowercase().contains("nvidia") {
            TwoSumKind::Knuth
        } else {
            TwoSumKind::Sorted
        }
    }

    /// "sorted" or "Knuth's".
    pub fn name(self) -> &'static str {
        match self {
            TwoSumKind::Sorted => "sorted",
            TwoSumKind::Knuth => "Knuth's",
        }
    }
}

/// The TwoSum forced through [`TWO_SUM_ENV`], if any (an unknown value is ignored with a
/// warning on standard error).
fn forced_two_sum() -> Option<TwoSumKind> {
    let v = std::env::var(TWO_SUM_ENV).ok()?;
    match v.trim().to_ascii_lowercase().as_str() {
        "knuth" => Some(TwoSumKind::Knuth),
        "sorted" => Some(TwoSumKind::Sorted),
        _ => {
            eprintln!("df64gl: ignoring {TWO_SUM_ENV}={v}: expected knuth or sorted");
            None
        }
    }
}

/// How df64 programs are built on this driver.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct DriverConfig {
    /// What keeps the compiler from rewriting the error-free transforms.
    pub protection: Protection,
    /// Dekker's split or fma() for TwoProduct.
    pub two_prod: TwoProdKind,
    /// The sum's TwoSum (the same words either way; the driver's cheaper one).
    #[serde(default)]
    pub two_sum: TwoSumKind,
}

impl DriverConfig {
    /// Intermediates carry the GLSL `precise` qualifier.
    pub fn precise(&self) -> bool {
        matches!(
            self.protection,
            Protection::Precise | Protection::PreciseExtension
        )
    }

    /// The `#define`s that configure `df64.glsl` (and the engine's barrier rewrite).
    pub fn defines(&self) -> Vec<(String, String)> {
        let mut d = vec![
            (
                "DF64_PRECISE".into(),
                if self.precise() { "precise" } else { "" }.into(),
            ),
            (
                "DF64_TWOPROD_FMA".into(),
                if self.two_prod == TwoProdKind::Fma {
                    "1"
                } else {
                    "0"
                }
                .into(),
            ),
            (
                "DF64_TWO_SUM_KNUTH".into(),
                if self.two_sum == TwoSumKind::Knuth {
                    "1"
                } else {
                    "0"
                }
                .into(),
            ),
        ];
        match self.protection {
            Protection::PreciseExtension => d.push((GPU_SHADER5_DEFINE.into(), "1".into())),
            Protection::Barrier => d.push((BARRIER_DEFINE.into(), "1".into())),
            Protection::StatementMultiply => d.push((STATEMENT_MULTIPLY_DEFINE.into(), "1".into())),
            _ => {}
        }
        d
    }
}

/// The protection forced through [`PROTECTION_ENV`], if any (an unknown value is ignored with a
/// warning on standard error).
pub(crate) fn forced_protection() -> Option<Protection> {
    let v = std::env::var(PROTECTION_ENV).ok()?;
    let p = match v.trim().to_ascii_lowercase().as_str() {
        "precise" => Some(Protection::Precise),
        "precise-extension" => Some(Protection::PreciseExtension),
        "barrier" => Some(Protection::Barrier),
        "none" => Some(Protection::None),
        "statement-multiply" => Some(Protection::StatementMultiply),
        _ => None,
    };
    if p.is_none() {
        eprintln!(
            "df64gl: ignoring {PROTECTION_ENV}={v}: expected precise, precise-extension, barrier or none"
        );
    }
    p
}

/// Whether every error-free transform came out exact under `p`.
pub(super) fn transforms_exact(rows: &[EftRow], p: Protection) -> bool {
    ["twoSum", "split", "twoDiff+twoSqr", "twoProd (Dekker)"]
        .iter()
        .all(|name| {
            rows.iter()
                .any(|r| r.transform == *name && r.protection == p && r.exact())
        })
}

/// The strongest protection under which every error-free transform came out exact (or the
/// forced one, if it did), and Dekker's or the FMA TwoProduct.
pub(super) fn decide(
    available: &[Protection],
    forced: Option<Protection>,
    fma_fused: bool,
    fma_exact: bool,
    rows: &[EftRow],
    two_sum: TwoSumKind,
) -> (Option<DriverConfig>, String) {
    let all_exact = |p: Protection| transforms_exact(rows, p);
    let tried: Vec<String> = available
        .iter()
        .map(|p| {
            format!(
                "{}: {}",
                p.name(),
                if all_exact(*p) { "exact" } else { "WRONG" }
            )
        })
        .collect();
    let candidates: Vec<Protection> = match forced {
        Some(f) => vec![f],
        None => available.to_vec(),
    };
    let Some(protection) = candidates
        .iter()
        .copied()
        .find(|p| available.contains(p) && all_exact(*p))
    else {
        let what = match forced {
            Some(f) if !available.contains(&f) => format!(
                "the forced protection `{}` ({PROTECTION_ENV}) cannot be built on this driver",
                f.name()
            ),
            Some(f) => format!(
                "the forced protection `{}` ({PROTECTION_ENV}) breaks the error-free transforms here",
                f.name()
            ),
            None => "no protection keeps the error-free transforms exact".into(),
        };
        // Name one wrong lane per broken transform of the first protection tried, so the
        // refusal can be reproduced.
        let examples: Vec<String> = rows
            .iter()
            .filter(|r| Some(r.protection) == candidates.first().copied())
            .filter_map(|r| {
                r.first_wrong
                    .as_ref()
                    .map(|w| format!("{} ({}): {w}", r.transform, r.protection.name()))
            })
            .collect();
        let examples = if examples.is_empty() {
            String::new()
        } else {
            format!(" First wrong lanes: {}.", examples.join("; "))
        };
        return (
            None,
            format!(
                "df64 refused on this driver: {what} (tried {}), so every df64 result would be silently wrong.{examples}",
                tried.join(", ")
            ),
        );
    };
    let two_prod = if fma_fused && fma_exact && protection != Protection::None {
        TwoProdKind::Fma
    } else {
        TwoProdKind::Dekker
    };
    let mut why = format!(
        "{} (tried {}{})",
        protection.name(),
        tried.join(", "),
        if forced.is_some() {
            format!("; forced by {PROTECTION_ENV}")
        } else {
            String::new()
        }
    );
    why.push_str(match two_prod {
        TwoProdKind::Fma => "; twoProd via fma (proven fused and exact)",
        TwoProdKind::Dekker if fma_fused => {
            "; twoProd via Dekker split (fma fused but its twoProd was not exact)"
        }
        TwoProdKind::Dekker => "; twoProd via Dekker split (fma is not fused on this driver)",
    });
    why.push_str(&format!(
        "; the sum's TwoSum {} ({}; the two give the same words)",
        two_sum.name(),
        if std::env::var(TWO_SUM_ENV).is_ok() {
            format!("forced by {TWO_SUM_ENV}")
        } else {
            "Knuth's on NVIDIA, where it measured cheaper; sorted elsewhere".to_string()
        }
    ));
    (
        Some(DriverConfig {
            protection,
            two_prod,
            two_sum,
        }),
        why,
    )
}
