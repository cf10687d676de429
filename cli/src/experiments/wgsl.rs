//! The WGSL export on the WebGPU implementations of this machine that `wgpu` reaches: Vulkan
//! (lavapipe, Mesa's software Vulkan: naga's SPIR-V, then Mesa's NIR and LLVM) and OpenGL
//! (llvmpipe: naga's GLSL, then Mesa's GLSL compiler). Each leg runs the known-answer check
//! ([`check_wgpu`]) on the protected export and on the unprotected translation.

use serde::Serialize;

use crate::error::ExperimentError;
use crate::support::table::{num, text, ReportTable};
use df64gl::export::known::RoutineCheck;
use df64gl::export::wgpu_check::{check_wgpu, WgpuCheck, WgpuCheckOptions};
use df64gl::export::wgpu_compute::block_on;

/// A `wgpu` back end on this machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, clap::ValueEnum)]
pub enum WgpuBackend {
    /// Vulkan (lavapipe here: `apt-get install mesa-vulkan-drivers`).
    Vulkan,
    /// OpenGL through EGL (llvmpipe here).
    Gl,
}

impl WgpuBackend {
    fn backends(self) -> wgpu::Backends {
        match self {
            WgpuBackend::Vulkan => wgpu::Backends::VULKAN,
            WgpuBackend::Gl => wgpu::Backends::GL,
        }
    }

    /// "wgpu, Vulkan" or "wgpu, OpenGL".
    pub fn name(self) -> &'static str {
        match self {
            WgpuBackend::Vulkan => "wgpu, Vulkan",
            WgpuBackend::Gl => "wgpu, OpenGL",
        }
    }
}

/// A device on `backend`'s first adapter, with its description.
pub fn wgpu_device(
    backend: WgpuBackend,
) -> Result<(wgpu::AdapterInfo, wgpu::Device, wgpu::Queue), ExperimentError> {
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends: backend.backends(),
        flags: wgpu::InstanceFlags::empty(),
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    });
    let adapter = block_on(
        instance.request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::None,
            force_fallback_adapter: false,
            compatible_surface: None,
            ..Default::default()
        }),
        std::thread::yield_now,
    )
    .map_err(|e| {
        ExperimentError::Invalid(format!(
            "no {} adapter here ({e}){}",
            backend.name(),
            match backend {
                WgpuBackend::Vulkan =>
                    ": install a Vulkan driver (apt-get install mesa-vulkan-drivers for lavapipe)",
                WgpuBackend::Gl => ": wgpu needs OpenGL ES 3.1 or OpenGL 4.3 through EGL",
            }
        ))
    })?;
    let info = adapter.get_info();
    // The check runs compute shaders; wgpu's GL back end on an OpenGL ES 3.0 context has none.
    if !adapter
        .get_downlevel_capabilities()
        .flags
        .contains(wgpu::DownlevelFlags::COMPUTE_SHADERS)
    {
        return Err(ExperimentError::Invalid(format!(
            "{} ({}, {}): this adapter has no compute shaders, which the check runs; use \
             another leg (--check vulkan)",
            backend.name(),
            info.name,
            info.driver_info
        )));
    }
    let (device, queue) = block_on(
        adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("df64gl"),
            required_features: wgpu::Features::empty(),
            required_limits: adapter.limits(),
            ..Default::default()
        }),
        std::thread::yield_now,
    )
    .map_err(|e| {
        ExperimentError::Invalid(format!(
            "{} ({}): no device: {e}",
            backend.name(),
            info.name
        ))
    })?;
    Ok((info, device, queue))
}

/// One leg: the protected export and the unprotected translation on one back end.
#[derive(Debug, Clone, Serialize)]
pub struct WgslLeg {
    /// "wgpu, Vulkan", ...
    pub leg: String,
    /// The adapter's name and driver.
    pub adapter: String,
    /// The export's check.
    pub protected: WgpuCheck,
    /// The plain expressions' check.
    pub unprotected: WgpuCheck,
}

/// Runs both builds on `backend` (with qf128: its routines too; with `routines`, only those
/// of both sets; the unprotected build only on `unprotected_routines` where given: compiling
/// every routine twice takes minutes on lavapipe).
pub fn wgsl_leg(
    backend: WgpuBackend,
    qf128: bool,
    routines: Option<&[&str]>,
    unprotected_routines: Option<&[&str]>,
) -> Result<WgslLeg, ExperimentError> {
    let (info, device, queue) = wgpu_device(backend)?;
    let names = |r: Option<&[&str]>| r.map(|r| r.iter().map(|n| n.to_string()).collect());
    let run = |unprotected: bool| {
        check_wgpu(
            &device,
            &queue,
            &WgpuCheckOptions {
                qf128,
                unprotected,
                routines: if unprotected {
                    names(unprotected_routines.or(routines))
                } else {
                    names(routines)
                },
                ..Default::default()
            },
        )
    };
    Ok(WgslLeg {
        leg: backend.name().to_string(),
        adapter: format!("{} ({} {})", info.name, info.driver, info.driver_info),
        protected: run(false)?,
        unprotected: run(true)?,
    })
}

impl WgslLeg {
    /// Per routine: the worst error and mirror agreement of both builds.
    pub fn table(&self) -> String {
        let mut t = ReportTable::new(
            "wgsl-leg",
            format!("{} on {}", self.leg, self.adapter),
            &[
                "routine",
                "bound",
                "protected worst",
                "= mirror",
                "unprotected worst",
                "= mirror",
            ],
        );
        let rows = |c: &WgpuCheck| {
            let mut all: Vec<(String, RoutineCheck)> = c
                .routines
                .iter()
                .map(|r| (r.name.clone(), r.clone()))
                .collect();
            if let Some(q) = &c.qf128 {
                all.extend(q.iter().map(|r| (format!("qf128 {}", r.name), r.clone())));
            }
            all
        };
        let unprotected = rows(&self.unprotected);
        let worst = |r: &RoutineCheck| {
            if r.worst.is_finite() {
                num(r.worst)
            } else {
                text("wrong special")
            }
        };
        for (name, p) in rows(&self.protected) {
            let u = unprotected.iter().find(|(n, _)| *n == name).map(|(_, r)| r);
            t.rows.push(vec![
                text(name.clone()),
                num(p.bound),
                worst(&p),
                text(format!("{}/{}", p.mirror_matched, p.cases)),
                u.map(worst).unwrap_or_else(|| text("-")),
                text(
                    u.map(|r| format!("{}/{}", r.mirror_matched, r.cases))
                        .unwrap_or_else(|| "-".into()),
                ),
            ]);
        }
        format!(
            "protected export: {} ({:.0} ms)\nunprotected: {} ({:.0} ms)\n{}",
            self.protected.reason,
            self.protected.ms,
            self.unprotected.reason,
            self.unprotected.ms,
            t.text()
        )
    }
}
