//! Known-answer self-tests of the FFT's pass programs: small transforms (every pass kind the
//! plan draws, forward and inverse, two rows so the row addressing is exercised), the real
//! transform's passes (both ways) and the pointwise product, run with the plan's programs on fixed data with full low
//! words, cancelling pairs and signed zeros, each pass's output compared with the CPU mirror of
//! `glsl/stockham_*.glsl` ([`crate::fft::stockham_mirror`]).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use std::collections::HashMap;
use std::rc::Rc;

use super::{
    high_words, texel_double, twiddle_words, Loc, PassKind, StageDone, StockhamPlan, TwiddleWords,
};
use crate::fft::scale::{qf_to_f64, split_f64};
use crate::fft::stockham_mirror::{
    real_bin0_df64, real_bin0_f32, real_bin0_f64, real_bin0_qf128, real_post, real_pre, stage,
    uses_loop_form, F32Complex, F64Complex, MirrorComplex, MirrorStage, Twiddles,
};
use crate::fft::{Direction, FftError, FftPrecision, FftShape, GpuFft, Radix, TwiddleSource};
use crate::gl::{Framebuffer, Program};
use crate::kernels::proof::Outcome;
use crate::kernels::proof::Proof;
use crate::numeric::df64::ComplexDf64;
use crate::numeric::qf128::qf128_add;
use crate::numeric::qf128::{ComplexQf128, Qf128};
use crate::probe::selftest::{words_text, SelfTestFailure};

/// A complex type of the mirror with what the test needs from it.
trait TestComplex: MirrorComplex {
    /// The value the plan's upload stores for `c`.
    fn from_upload(c: ComplexQf128) -> Self;
    fn table(words: &TwiddleWords) -> Vec<Self>;
    /// The words as the GPU stores them (re then im).
    fn words(&self) -> Vec<f32>;
    /// Bin 0 of the real-input pass.
    fn bin0(self) -> Self;
}

fn df64_of(c: ComplexQf128) -> ComplexDf64 {
    ComplexDf64::new(c.re.to_df64(), c.im.to_df64())
}

fn pair_words(c: &ComplexDf64) -> Vec<f32> {
    vec![c.re.hi, c.re.lo, c.im.hi, c.im.lo]
}

impl TestComplex for ComplexDf64 {
    fn from_upload(c: ComplexQf128) -> Self {
        df64_of(c)
    }
    fn table(words: &TwiddleWords) -> Vec<Self> {
        match words {
            TwiddleWords::Pairs(p) => p.clone(),
            _ => Vec::new(),
        }
    }
    fn words(&self) -> Vec<f32> {
        pair_words(self)
    }
    fn bin0(self) -> Self {
        real_bin0_df64(self)
    }
}

impl TestComplex for F32Complex {
    fn from_upload(c: ComplexQf128) -> Self {
        F32Complex(high_words(df64_of(c)))
    }
    fn table(words: &TwiddleWords) -> Vec<Self> {
        match words {
            TwiddleWords::Pairs(p) => p.iter().map(|c| F32Complex(*c)).collect(),
            _ => Vec::new(),
        }
    }
    fn words(&self) -> Vec<f32> {
        pair_words(&self.0)
    }
    fn bin0(self) -> Self {
        real_bin0_f32(self)
    }
}

/// A double as exact f32 words (three: 53 bits), so values compare word by word.
fn double_words(x: f64) -> [f32; 3] {
    let q = split_f64(x);
    [q.x[0], q.x[1], q.x[2]]
}

impl TestComplex for F64Complex {
    fn from_upload(c: ComplexQf128) -> Self {
        F64Complex {
            re: qf_to_f64(c.re),
            im: qf_to_f64(c.im),
        }
    }
    fn table(words: &TwiddleWords) -> Vec<Self> {
        match words {
            TwiddleWords::Doubles(d) => d
                .iter()
                .map(|(re, im)| F64Complex { re: *re, im: *im })
                .collect(),
            _ => Vec::new(),
        }
    }
    fn words(&self) -> Vec<f32> {
        double_words(self.re)
            .into_iter()
            .chain(double_words(self.im))
            .collect()
    }
    fn bin0(self) -> Self {
        real_bin0_f64(self)
    }
}

impl TestComplex for ComplexQf128 {
    fn from_upload(c: ComplexQf128) -> Self {
        c
    }
    fn table(words: &TwiddleWords) -> Vec<Self> {
        match words {
            TwiddleWords::Qf(re, im) => re
                .iter()
                .zip(im)
                .map(|(re, im)| ComplexQf128::new(*re, *im))
                .collect(),
            _ => Vec::new(),
        }
    }
    fn words(&self) -> Vec<f32> {
        self.re.x.iter().chain(&self.im.x).copied().collect()
    }
    fn bin0(self) -> Self {
        real_bin0_qf128(self)
    }
}

/// `count` known-answer values below 1 in magnitude: four full words each, every eighth a
/// signed zero, and the second half of each row nearly cancelling the first (the butterflies'
/// sums and differences then lose their leading bits, where broken error terms show).
fn test_values(count: usize, n: usize, seed: u64) -> Vec<ComplexQf128> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut word = |scale: f64| -> Qf128 {
        let mut q = Qf128::ZERO;
        for k in 0..3 {
            let w = rng.gen_range(-1.0..1.0) * scale * 2f64.powi(-25 * k);
            q = qf128_add(q, Qf128::from_f32(w as f32));
        }
        q
    };
    let mut v: Vec<ComplexQf128> = (0..count)
        .map(|_| ComplexQf128::new(word(0.9), word(0.9)))
        .collect();
    for i in 0..count {
        let (row, e) = (i / n, i % n);
        if e % 8 == 3 {
            v[i] = ComplexQf128::new(Qf128::from_f32(-0.0), Qf128::ZERO);
        } else if e >= n / 2 && e % 3 == 0 {
            let a = v[row * n + e - n / 2];
            let tail = word(2f64.powi(-20));
            v[i] = ComplexQf128::new(
                qf128_add(
                    Qf128 {
                        x: a.re.x.map(|w| -w),
                    },
                    tail,
                ),
                qf128_add(
                    Qf128 {
                        x: a.im.x.map(|w| -w),
                    },
                    tail,
                ),
            );
        }
    }
    v
}

fn mirror_stage(kind: PassKind) -> MirrorStage {
    match kind {
        PassKind::Stage { stage, .. } => stage,
        _ => MirrorStage::Copy,
    }
}

/// One layer's texels read back: the real part's, and the imaginary part's for qf128.
type LayerTexels = (Vec<[f32; 4]>, Option<Vec<[f32; 4]>>);

/// The passes tested alone (not as stages of a transform).
const SINGLE_PASSES: [PassKind; 4] = [
    PassKind::RealPost,
    PassKind::RealPre,
    PassKind::Pointwise,
    PassKind::Copy,
];

/// Rows the test transforms hold.
const ROWS: usize = 2;

impl StockhamPlan {
    /// The self-test of the programs of `kinds` (see the module's text).
    pub(super) fn self_test(
        &self,
        programs: &HashMap<PassKind, Vec<Rc<Program>>>,
        kinds: &[PassKind],
    ) -> Result<Outcome, FftError> {
        match self.options.precision {
            FftPrecision::F32 => self.self_test_as::<F32Complex>(programs, kinds),
            FftPrecision::Df64 => self.self_test_as::<ComplexDf64>(programs, kinds),
            FftPrecision::Qf128 => self.self_test_as::<ComplexQf128>(programs, kinds),
            FftPrecision::F64 => self.self_test_as::<F64Complex>(programs, kinds),
        }
    }

    fn self_test_as<C: TestComplex>(
        &self,
        programs: &HashMap<PassKind, Vec<Rc<Program>>>,
        kinds: &[PassKind],
    ) -> Result<Outcome, FftError> {
        let mut cases = 0;
        let mut sizes: Vec<u32> = Vec::new();
        if kinds.iter().any(|k| !SINGLE_PASSES.contains(k)) {
            // The smallest transform with every kind an axis draws: 16 or 32 points (the
            // parity of log2 N decides whether a last radix-2 stage exists; radix 8: 64 to 256
            // points by log2 N mod 3), or N itself.
            // A mixed-radix plan's programs take its odd factor times these.
            sizes = self
                .axes
                .iter()
                .map(|a| match self.options.radix {
                    // Radix 8: the residue mod 3 decides the finishing stage.
                    Radix::Eight if a.log2_n > 8 => 6 + a.log2_n % 3,
                    Radix::Eight => a.log2_n,
                    _ if a.log2_n <= 5 => a.log2_n,
                    _ => 4 + a.log2_n % 2,
                })
                .collect();
            sizes.sort_unstable();
            sizes.dedup();
        }
        for log2 in sizes {
            let o = self.test_transform::<C>(programs, self.odd << log2)?;
            cases += o.cases;
            if o.failure.is_some() {
                return Ok(Outcome { cases, ..o });
            }
        }
        let n = self.odd << self.axes[0].log2_n.min(5);
        for kind in SINGLE_PASSES {
            if kinds.contains(&kind) {
                let o = self.test_single_pass::<C>(programs, kind, n)?;
                cases += o.cases;
                if o.failure.is_some() {
                    return Ok(Outcome { cases, ..o });
                }
            }
        }
        Ok(Outcome {
            cases,
            failure: None,
        })
    }

    /// A plan of `ROWS` rows of `n` points that runs `programs` (no scaling, so the words are
    /// the mirror's), with a twiddle table for transforms up to `table_len`.
    fn test_plan(
        &self,
        programs: &HashMap<PassKind, Vec<Rc<Program>>>,
        n: usize,
        table_len: usize,
        seed: u64,
    ) -> Result<(StockhamPlan, Vec<ComplexQf128>), FftError> {
        let options = self.options.block_scaling(false);
        let shape = FftShape::Rows { n, batch: ROWS };
        let mut t = StockhamPlan::allocate(&self.ctx, self.config, shape, options, table_len)?;
        t.programs = programs.clone();
        let data = test_values(n * ROWS, n, seed);
        t.upload(&data)?;
        Ok((t, data))
    }

    fn twiddles_for<C: TestComplex>(&self, table_len: usize) -> Vec<C> {
        match self.options.twiddles {
            TwiddleSource::Table => C::table(&twiddle_words(self.options.precision, table_len)),
            TwiddleSource::Direct => Vec::new(),
        }
    }

    fn program_label(&self, kind: PassKind) -> String {
        format!("{} {kind:?} pass ({})", kind.module(), self.variant_text())
    }

    /// The probe's proof the self-test judges by: a plan without one (a test plan itself, or
    /// one not built through `build`) has nothing to prove its programs against, an error
    /// rather than a pass.
    fn proof_for_self_test(&self) -> Result<Proof, FftError> {
        self.proof.clone().ok_or_else(|| {
            FftError::Unsupported(
                "an FFT self-test ran on a plan without the probe's proof; build plans with \
                 StockhamPlan::on_driver or FftPlan so their programs are proven"
                    .into(),
            )
        })
    }

    /// The twiddles of the mirror: the table, or the shader's direct ones where the precision
    /// computes them (not native double).
    fn mirror_twiddles<'t, C: TestComplex>(
        &self,
        table: &'t [C],
    ) -> Result<Twiddles<'t, C>, FftError> {
        match self.options.twiddles {
            TwiddleSource::Table => Ok(Twiddles::Table(table)),
            TwiddleSource::Direct => C::direct_twiddle().map(Twiddles::Direct).ok_or_else(|| {
                FftError::Unsupported(format!(
                    "{} transforms take their twiddles from the table only (GLSL has no double \
                     sin): plan them with TwiddleSource::Table",
                    self.options.precision.name()
                ))
            }),
        }
    }

    /// A forward then an inverse transform of `n` points, every pass against the mirror.
    fn test_transform<C: TestComplex>(
        &self,
        programs: &HashMap<PassKind, Vec<Rc<Program>>>,
        n: usize,
    ) -> Result<Outcome, FftError> {
        let (mut t, data) = self.test_plan(programs, n, n, 0x0ff7_5e1f)?;
        let table = self.twiddles_for::<C>(n);
        let tw = self.mirror_twiddles::<C>(&table)?;
        let proof = self.proof_for_self_test()?;
        let qf_loop = uses_loop_form(self.options.precision);
        let mut rows: Vec<Vec<C>> = data
            .chunks(n)
            .map(|r| r.iter().map(|c| C::from_upload(*c)).collect())
            .collect();
        let mut failure: Option<SelfTestFailure> = None;
        let mut cases = 0;
        for direction in [Direction::Forward, Direction::Inverse] {
            let mut observe = |plan: &StockhamPlan, s: &StageDone| -> Result<(), FftError> {
                if failure.is_some() {
                    return Ok(());
                }
                let kind = mirror_stage(s.kind);
                let mirrored = proof.in_env(|| {
                    rows.iter()
                        .map(|row| stage(kind, row, s.l, s.conj, s.scale, &tw, qf_loop))
                        .collect::<Option<Vec<_>>>()
                });
                rows = mirrored.ok_or_else(|| no_mirror(self.program_label(s.kind)))?;
                let got = plan.read_logical(s.loc, n)?;
                cases += got.len();
                let want: Vec<Vec<f32>> = rows.iter().flatten().map(C::words).collect();
                if let Some(i) = (0..got.len()).find(|i| !proof.agree(&got[*i], &want[*i])) {
                    failure = Some(SelfTestFailure {
                        program: self.program_label(s.kind),
                        input: format!(
                            "pass {} of {} of a {n}-point {} transform of the known-answer data \
                             (row {}, element {})",
                            s.index + 1,
                            s.total,
                            match direction {
                                Direction::Forward => "forward",
                                Direction::Inverse => "inverse",
                            },
                            i / n,
                            i % n
                        ),
                        got: words_text(&got[i]),
                        expected: words_text(&want[i]),
                    });
                }
                Ok(())
            };
            let axis = t.axes[0];
            t.run_axis(axis, direction, Some(&mut observe))?;
        }
        Ok(Outcome { cases, failure })
    }

    /// The real-input pass or the pointwise product on `ROWS` rows of `n` points.
    fn test_single_pass<C: TestComplex>(
        &self,
        programs: &HashMap<PassKind, Vec<Rc<Program>>>,
        kind: PassKind,
        n: usize,
    ) -> Result<Outcome, FftError> {
        let (mut t, data) = self.test_plan(programs, n, 2 * n, 0x7ea1_9057)?;
        let x: Vec<C> = data.iter().map(|c| C::from_upload(*c)).collect();
        let proof = self.proof_for_self_test()?;
        let proof = &proof;
        let table = self.twiddles_for::<C>(2 * n);
        let tw = self.mirror_twiddles::<C>(&table)?;
        let want: Vec<C> = if kind == PassKind::RealPost {
            t.real_post()?;
            proof.in_env(|| {
                x.chunks(n)
                    .flat_map(|row| real_post(row, &tw, C::bin0, 1.0))
                    .collect()
            })
        } else if kind == PassKind::Copy {
            t.copy_pass()?;
            x.clone()
        } else if kind == PassKind::RealPre {
            t.real_pre()?;
            proof.in_env(|| {
                x.chunks(n)
                    .flat_map(|row| real_pre(row, &tw, C::bin0))
                    .collect()
            })
        } else {
            let (other, b) = self.test_plan(programs, n, 2 * n, 0x90a7_3c11)?;
            t.multiply_by(&other)?;
            proof.in_env(|| {
                x.iter()
                    .zip(&b)
                    .map(|(a, b)| a.c_mul(C::from_upload(*b)).c_scale(1.0))
                    .collect()
            })
        };
        let got = t.read_logical(Loc::Natural(t.front), n)?;
        let failure = {
            let want: Vec<Vec<f32>> = want.iter().map(C::words).collect();
            (0..got.len())
                .find(|i| !proof.agree(&got[*i], &want[*i]))
                .map(|i| SelfTestFailure {
                    program: self.program_label(kind),
                    input: format!(
                        "the known-answer data, {ROWS} rows of {n} points (row {}, element {})",
                        i / n,
                        i % n
                    ),
                    got: words_text(&got[i]),
                    expected: words_text(&want[i]),
                })
        };
        Ok(Outcome {
            cases: got.len(),
            failure,
        })
    }

    /// The words of every element at `loc` in logical order (row after row of `n`), re then
    /// im: 4 words a value for f32 and df64, 8 for qf128.
    fn read_logical(&self, loc: Loc, n: usize) -> Result<Vec<Vec<f32>>, FftError> {
        let qf = self.options.precision == FftPrecision::Qf128;
        let f64_texels = self.options.precision == FftPrecision::F64;
        let rows = self.len() / n;
        let read = |fb: &Framebuffer, a: usize| -> Result<Vec<[f32; 4]>, FftError> {
            Ok(fb.read(&self.ctx, a)?)
        };
        // (re, im) texels of each layer (natural order: one layer).
        let mut layers: Vec<LayerTexels> = Vec::new();
        let ls = match loc {
            Loc::Natural(i) => {
                let fb = &self.natural[i].all;
                layers.push((read(fb, 0)?, if qf { Some(read(fb, 1)?) } else { None }));
                None
            }
            Loc::Planes(i, ls) => {
                let buf = self.plane_buffer(i)?;
                for layer in 0..buf.planes {
                    if qf {
                        let (re_fb, im_fb, im_at) = match &buf.parts {
                            Some([re, im]) => (re, im, layer),
                            None => (&buf.all, &buf.all, layer + 4),
                        };
                        layers.push((read(re_fb, layer)?, Some(read(im_fb, im_at)?)));
                    } else {
                        layers.push((read(&buf.all, layer)?, None));
                    }
                }
                Some((ls, buf.planes))
            }
        };
        let mut out = Vec::with_capacity(rows * n);
        for b in 0..rows {
            for e in 0..n {
                // Where stockham_common.glsl's fetch finds element e of row b.
                let (layer, index) = match ls {
                    None => (0, b * n + e),
                    Some((ls, r)) => {
                        let span = e >> ls;
                        let epos = ((span / r) << ls) | (e & ((1 << ls) - 1));
                        (span % r, b * (n / r) + epos)
                    }
                };
                let (re, im) = &layers[layer];
                let mut w = re[index].to_vec();
                if let Some(im) = im {
                    w.extend_from_slice(&im[index]);
                }
                if f64_texels {
                    // The bits of two doubles, compared as their exact f32 words.
                    let (re, im) = texel_double(&re[index]);
                    w = double_words(re)
                        .into_iter()
                        .chain(double_words(im))
                        .collect();
                }
                out.push(w);
            }
        }
        Ok(out)
    }
}

/// A pass the mirror has no model of (a qf128 radix-8 pass): its program cannot be proven.
fn no_mirror(program: String) -> FftError {
    FftError::Unsupported(format!(
        "the {program} has no CPU mirror to be proven against (qf128 has no radix-8 pass): \
         choose radix 4 for qf128 transforms"
    ))
}
