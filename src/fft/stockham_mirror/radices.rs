//! Which passes a length takes: the butterflies the shaders hold ([`BUTTERFLIES`]), the odd
//! radices, and the ladder of stages for a length ([`ladder`]).

use super::*;

/// The arithmetic of a pass kind (unscrambling is a copy).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MirrorStage {
    /// Thall's radix-2 stage (natural order in and out).
    Radix2,
    /// A radix-3 stage: the last of a mixed-radix length 3 * 2^k.
    Radix3,
    /// A radix-4 stage.
    Radix4,
    /// A radix-8 stage.
    Radix8,
    /// The radix-2 stage that ends an odd log2 N.
    Radix2Last,
    /// A copy (the unscramble pass).
    Copy,
}

/// Where a butterfly may stand among a transform's stages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// A stage of the power-of-two part (the plan's radix option picks which).
    PowerOfTwo,
    /// The last stage of a power-of-two length when log2 N leaves one factor 2 over (it reads
    /// the planes before it and its span is N/4).
    FinishTwo,
    /// The last stage of a length with this odd factor (its twiddles are w_N, whose table the
    /// plan appends to W_long).
    OddLast,
}

/// One butterfly stage: all the plan needs to lay out, draw and prove a radix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Butterfly {
    /// The mirror's stage (and the pass kind's name).
    pub stage: MirrorStage,
    /// L grows by this factor.
    pub radix: usize,
    /// Outputs per fragment: 1 writes natural order; more write one plane each (layers of an
    /// array texture through as many color attachments; qf128 twice as many).
    pub outputs: usize,
    /// Where it stands in the stage ladder.
    pub place: Place,
    /// The GLSL file with its `main()` (after `stockham_common.glsl`), and its text.
    pub module: &'static str,
    /// The file's text, embedded.
    pub source: &'static str,
    /// Whether qf128 has it (its outputs times two attachments must fit).
    pub qf128: bool,
}

/// Every butterfly stage the plans draw, one row each.
pub const BUTTERFLIES: [Butterfly; 5] = [
    Butterfly {
        stage: MirrorStage::Radix2,
        radix: 2,
        outputs: 1,
        place: Place::PowerOfTwo,
        module: "stockham_radix2.glsl",
        source: include_str!("../../../glsl/stockham_radix2.glsl"),
        qf128: true,
    },
    Butterfly {
        stage: MirrorStage::Radix4,
        radix: 4,
        outputs: 4,
        place: Place::PowerOfTwo,
        module: "stockham_radix4.glsl",
        source: include_str!("../../../glsl/stockham_radix4.glsl"),
        qf128: true,
    },
    Butterfly {
        stage: MirrorStage::Radix8,
        radix: 8,
        outputs: 8,
        place: Place::PowerOfTwo,
        module: "stockham_radix8.glsl",
        source: include_str!("../../../glsl/stockham_radix8.glsl"),
        qf128: false,
    },
    Butterfly {
        stage: MirrorStage::Radix2Last,
        radix: 2,
        outputs: 4,
        place: Place::FinishTwo,
        module: "stockham_radix2_last.glsl",
        source: include_str!("../../../glsl/stockham_radix2_last.glsl"),
        qf128: true,
    },
    Butterfly {
        stage: MirrorStage::Radix3,
        radix: 3,
        outputs: 3,
        place: Place::OddLast,
        module: "stockham_radix3.glsl",
        source: include_str!("../../../glsl/stockham_radix3.glsl"),
        qf128: true,
    },
];

impl MirrorStage {
    /// The butterfly row of this stage; `None` for the copy.
    pub fn butterfly(self) -> Option<&'static Butterfly> {
        BUTTERFLIES.iter().find(|b| b.stage == self)
    }
}

/// The built-in GLSL modules with every butterfly pass added, each after
/// `stockham_common.glsl`.
pub fn stockham_library() -> GlslLibrary {
    BUTTERFLIES.iter().fold(GlslLibrary::builtin(), |lib, b| {
        lib.with_module_needing(b.module, &["stockham_common.glsl"], b.source)
    })
}

/// The odd factors a mixed-radix length may have (one `OddLast` stage each).
pub fn odd_radices() -> impl Iterator<Item = usize> {
    BUTTERFLIES
        .iter()
        .filter(|b| b.place == Place::OddLast)
        .map(|b| b.radix)
}

/// The butterfly stages of a transform of `odd * 2^log2` points with `radix` (2, 4 or 8) as
/// the power-of-two stages' radix, in order; `None` when no row serves `odd` or the
/// precision lacks a stage it needs. Pure powers of two: radix-R stages, finished by a
/// radix-4 stage or the last radix-2 one for the remainder of log2 N. With an odd factor its
/// stage comes last (its twiddles are w_N), so a remainder of one factor 2 goes first as
/// Thall's radix-2 stage (natural order in and out).
pub fn ladder(log2: u32, odd: usize, radix: usize, qf128: bool) -> Option<Vec<MirrorStage>> {
    // The row of this place and radix that the precision has.
    let find = |place: Place, radix: usize| {
        BUTTERFLIES
            .iter()
            .find(|b| b.place == place && b.radix == radix && (b.qf128 || !qf128))
    };
    let row = |stage: MirrorStage| stage.butterfly().filter(|b| b.qf128 || !qf128);
    let primary = find(Place::PowerOfTwo, radix)?;
    let odd_stage = if odd == 1 {
        None
    } else {
        Some(find(Place::OddLast, odd)?.stage)
    };
    let bits = primary.radix.trailing_zeros();
    let mut stages = Vec::new();
    if bits == 1 || log2 < 2 {
        stages.extend(std::iter::repeat_n(
            row(MirrorStage::Radix2)?.stage,
            log2 as usize,
        ));
    } else {
        // Radix 8 below 8 points runs as radix 4.
        let (p, bits) = if log2 < bits {
            (row(MirrorStage::Radix4)?, 2)
        } else {
            (primary, bits)
        };
        let rest = log2 % bits;
        if rest == 1 && odd_stage.is_some() {
            stages.push(row(MirrorStage::Radix2)?.stage);
        }
        stages.extend(std::iter::repeat_n(p.stage, (log2 / bits) as usize));
        if rest == 2 {
            stages.push(row(MirrorStage::Radix4)?.stage);
        } else if rest == 1 && odd_stage.is_none() {
            stages.push(find(Place::FinishTwo, 2)?.stage);
        }
    }
    stages.extend(odd_stage);
    Some(stages)
}

/// Whether the precision's radix-4 and last radix-2 passes use the loop form.
pub(crate) fn uses_loop_form(precision: FftPrecision) -> bool {
    precision == FftPrecision::Qf128
}
