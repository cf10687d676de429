//! A plan's programs: the pass kinds each axis needs, one program per kind (two for the
//! two-pass qf128 write) built from `stockham_common.glsl` and the kind's file, proven by the
//! passes' self-tests on the first configuration the probe proved that passes them.

use std::collections::HashMap;
use std::rc::Rc;

use crate::fft::stockham_mirror::stockham_library;
use crate::fft::{FftError, FftPrecision, QfWrite, TwiddleSource};
use crate::gl::Program;
use crate::kernels::proof::build_proven;
use crate::probe::DriverConfig;

use super::{ladder_kinds, Axis, PassKind, StockhamPlan};

impl StockhamPlan {
    /// The passes of one axis (the plan checked every axis's ladder when it was allocated).
    pub(super) fn stage_kinds(&self, axis: Axis) -> Result<Vec<PassKind>, FftError> {
        ladder_kinds(&self.options, self.odd, axis)
    }

    pub(crate) fn ensure_program(&mut self, kind: PassKind) -> Result<(), FftError> {
        self.prove(&[kind])
    }

    /// Builds and self-tests the passes not drawn by a transform: the real transform's both
    /// ways, the pointwise product and the copy (`df64gl selftest` proves every program).
    pub fn prove_single_passes(&mut self) -> Result<(), FftError> {
        if self.odd > 1 {
            // Mixed-radix plans have no real-input passes.
            return self.prove(&[PassKind::Pointwise, PassKind::Copy]);
        }
        self.prove(&[
            PassKind::RealPost,
            PassKind::RealPre,
            PassKind::Pointwise,
            PassKind::Copy,
        ])
    }

    /// Builds the programs of `kinds` that this plan lacks under the first proven
    /// configuration whose known-answer self-test passes (see [`selftest`]).
    pub(super) fn prove(&mut self, kinds: &[PassKind]) -> Result<(), FftError> {
        let missing: Vec<PassKind> = kinds
            .iter()
            .copied()
            .filter(|k| !self.programs.contains_key(k))
            .collect();
        if missing.is_empty() {
            return Ok(());
        }
        let Some(proof) = self.proof.clone() else {
            return Err(FftError::Unsupported(format!(
                "internal: a self-test plan lacks the programs for {missing:?}"
            )));
        };
        let baseline = matches!(
            self.options.precision,
            FftPrecision::F32 | FftPrecision::F64
        );
        if baseline && proof.refusal.is_some() {
            // df64 refused here: plain f32 passes still run, unprotected and untested, as any
            // f32 GPU FFT would (the f32 FFT is the baseline, not a df64 result).
            for kind in missing {
                let programs = self.build_programs(kind, self.config)?;
                self.programs.insert(kind, programs);
            }
            return Ok(());
        }
        let info = self.ctx.info().clone();
        let name = format!("stockham ({} {missing:?} passes)", self.variant_text());
        let build = |config: DriverConfig| -> Result<_, FftError> {
            let mut map = HashMap::new();
            for kind in &missing {
                map.insert(*kind, self.build_programs(*kind, config)?);
            }
            Ok(map)
        };
        let sources = |map: &HashMap<PassKind, Vec<Rc<Program>>>| {
            map.values()
                .flatten()
                .map(|p| p.source().text.clone())
                .collect()
        };
        let test = |map: &HashMap<PassKind, Vec<Rc<Program>>>| self.self_test(map, &missing);
        let (built, config) = build_proven(&info, &proof, &name, build, sources, test)?;
        self.programs.extend(built);
        self.config = config;
        Ok(())
    }

    /// "df64, table twiddles" (and the qf128 write): what the pass programs are built for.
    pub(super) fn variant_text(&self) -> String {
        let mut s = format!(
            "{}, {} twiddles",
            self.options.precision.name(),
            match self.options.twiddles {
                TwiddleSource::Table => "table",
                TwiddleSource::Direct => "direct",
            }
        );
        if self.options.precision == FftPrecision::Qf128 {
            s.push_str(match self.options.qf_write {
                QfWrite::Mrt => ", one-pass write",
                QfWrite::TwoPass => ", two-pass write",
            });
        }
        s
    }

    /// The program (two for the two-pass qf128 write) of one pass kind under `config`.
    pub(super) fn build_programs(
        &self,
        kind: PassKind,
        config: DriverConfig,
    ) -> Result<Vec<Rc<Program>>, FftError> {
        let mut base = config.defines();
        base.extend(kind.layout_defines());
        if self.odd > 1 {
            base.push(("FFT_ODD".into(), self.odd.to_string()));
        }
        match self.options.precision {
            FftPrecision::F32 => base.push(("FFT_F32".into(), "1".into())),
            FftPrecision::Df64 => {}
            FftPrecision::F64 => {
                base.push(("FFT_F64".into(), "1".into()));
                if self.ctx.info().glsl_number < 400 {
                    base.push((crate::gl::FP64_EXTENSION_DEFINE.into(), "1".into()));
                }
            }
            FftPrecision::Qf128 => base.push(("FFT_QF128".into(), "1".into())),
        }
        if self.options.twiddles == TwiddleSource::Direct {
            base.push(("FFT_DIRECT".into(), "1".into()));
        }
        let parts: Vec<Option<&str>> = if self.two_pass() {
            vec![Some("1"), Some("2")]
        } else {
            vec![None]
        };
        let lib = stockham_library();
        let mut programs = Vec::new();
        for part in parts {
            let mut defines = base.clone();
            if let Some(p) = part {
                defines.push(("FFT_PART".into(), p.into()));
            }
            programs.push(Rc::new(Program::build(
                &self.ctx,
                &lib,
                kind.module(),
                &defines,
            )?));
        }
        Ok(programs)
    }

    pub(super) fn two_pass(&self) -> bool {
        self.options.precision == FftPrecision::Qf128 && self.options.qf_write == QfWrite::TwoPass
    }
}
