//! OpenGL contexts: headless through the EGL device platform (the default), or a winit window.
//!
//! Both give the same [`GlContext`], so every engine object works the same way in either.

use std::cell::RefCell;
use std::ffi::CStr;
use std::num::NonZeroU32;
use std::rc::Rc;

use glow::HasContext;
use glutin::api::egl::{device::Device, display::Display};
use glutin::config::{ConfigSurfaceTypes, ConfigTemplateBuilder};
use glutin::context::{
    ContextApi, ContextAttributesBuilder, GlProfile, PossiblyCurrentContext, Version,
};
use glutin::display::GlDisplay;
use serde::{Deserialize, Serialize};

use super::error::{GlError, GlResult};

/// Environment variable that picks the EGL device, like `--device`.
pub const DEVICE_ENV: &str = "DF64GL_DEVICE";

/// Which EGL device to open.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum DeviceChoice {
    /// A hardware device when there is one, else Mesa's software device.
    #[default]
    Auto,
    /// The n-th device in `df64gl info --devices` order.
    Index(usize),
    /// The first device whose vendor, name, DRM path or extensions contain this text
    /// (case-insensitive), e.g. `nvidia` or `software`.
    Name(String),
}

impl DeviceChoice {
    /// Parses `auto`, an index, or a name fragment.
    pub fn parse(text: &str) -> Self {
        let t = text.trim();
        if t.is_empty() || t.eq_ignore_ascii_case("auto") {
            DeviceChoice::Auto
        } else if let Ok(i) = t.parse::<usize>() {
            DeviceChoice::Index(i)
        } else {
            DeviceChoice::Name(t.to_string())
        }
    }

    /// `--device` when given, else `DF64GL_DEVICE`, else auto.
    pub fn from_arg_or_env(arg: Option<&str>) -> Self {
        match arg {
            Some(a) => Self::parse(a),
            None => std::env::var(DEVICE_ENV)
                .map(|v| Self::parse(&v))
                .unwrap_or_default(),
        }
    }
}

/// A Mesa driver to run on, picked through Mesa's environment variables before the first
/// EGL call (`--gl-driver`). Each compiles shaders its own way, so each is its own test of
/// df64's protection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum MesaDriver {
    /// Gallium llvmpipe (LLVM JIT): OpenGL 4.5.
    Llvmpipe,
    /// Gallium softpipe (interpreter): OpenGL 3.3, `precise` only through GL_ARB_gpu_shader5.
    Softpipe,
    /// zink (OpenGL on Vulkan) over lavapipe: OpenGL 4.6 through SPIR-V; needs the
    /// mesa-vulkan-drivers package.
    Zink,
}

/// Where Debian's mesa-vulkan-drivers puts lavapipe's Vulkan ICD.
const LAVAPIPE_ICD: &str = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";

impl MesaDriver {
    /// Sets the variables for this driver. Call before any context is opened (Mesa reads them
    /// once, when EGL initialises).
    pub fn select(self) -> GlResult<()> {
        std::env::remove_var("MESA_LOADER_DRIVER_OVERRIDE");
        match self {
            MesaDriver::Llvmpipe => std::env::set_var("GALLIUM_DRIVER", "llvmpipe"),
            MesaDriver::Softpipe => std::env::set_var("GALLIUM_DRIVER", "softpipe"),
            MesaDriver::Zink => {
                if !std::path::Path::new(LAVAPIPE_ICD).exists() {
                    return Err(GlError::Unsupported(format!(
                        "--gl-driver zink runs on lavapipe, whose Vulkan driver ({LAVAPIPE_ICD}) is missing: install it with `apt-get install mesa-vulkan-drivers`"
                    )));
                }
                std::env::remove_var("GALLIUM_DRIVER");
                std::env::set_var("MESA_LOADER_DRIVER_OVERRIDE", "zink");
                std::env::set_var("LIBGL_ALWAYS_SOFTWARE", "1");
                std::env::set_var("VK_ICD_FILENAMES", LAVAPIPE_ICD);
                if std::env::var_os("XDG_RUNTIME_DIR").is_none() {
                    // zink's loader wants a runtime folder; a private one is enough headless
                    // (one for every run, not one per process left behind).
                    let dir = std::env::temp_dir().join("df64gl-xdg");
                    let _ = std::fs::create_dir_all(&dir);
                    #[cfg(unix)]
                    {
                        use std::os::unix::fs::PermissionsExt;
                        let _ =
                            std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700));
                    }
                    std::env::set_var("XDG_RUNTIME_DIR", dir);
                }
            }
        }
        Ok(())
    }

    /// The driver's name as Mesa spells it (`GALLIUM_DRIVER`, `MESA_LOADER_DRIVER_OVERRIDE`).
    pub fn name(self) -> &'static str {
        match self {
            MesaDriver::Llvmpipe => "llvmpipe",
            MesaDriver::Softpipe => "softpipe",
            MesaDriver::Zink => "zink",
        }
    }
}

/// One EGL device as the loader reports it.
#[derive(Debug, Clone, Serialize)]
pub struct DeviceDesc {
    /// Its place in `df64gl info --devices` (what `--device N` takes).
    pub index: usize,
    /// The vendor string, where the device reports one.
    pub vendor: Option<String>,
    /// The device or driver name, where reported.
    pub name: Option<String>,
    /// The DRM render node, for a GPU.
    pub drm_path: Option<String>,
    /// Mesa's software rasteriser (llvmpipe), as opposed to a GPU.
    pub software: bool,
    /// The device's EGL extensions.
    pub extensions: Vec<String>,
}

impl DeviceDesc {
    fn from_device(index: usize, d: &Device) -> Self {
        let mut extensions: Vec<String> = d.extensions().iter().map(|s| s.to_string()).collect();
        extensions.sort();
        let software = d.extensions().contains("EGL_MESA_device_software");
        DeviceDesc {
            index,
            vendor: d.vendor().map(str::to_string),
            name: d.name().map(str::to_string),
            drm_path: d
                .drm_render_device_node_path()
                .or_else(|| d.drm_device_node_path())
                .map(|p| p.display().to_string()),
            software,
            extensions,
        }
    }

    /// A one-line description for listings and errors.
    pub fn label(&self) -> String {
        let mut parts = vec![format!("#{}", self.index)];
        if let Some(v) = &self.vendor {
            parts.push(v.clone());
        }
        if let Some(n) = &self.name {
            parts.push(n.clone());
        }
        if let Some(p) = &self.drm_path {
            parts.push(p.clone());
        }
        parts.push(
            if self.software {
                "(software)"
            } else {
                "(hardware)"
            }
            .to_string(),
        );
        parts.join(" ")
    }

    fn matches(&self, needle: &str) -> bool {
        let n = needle.to_ascii_lowercase();
        let hay = format!("{} {}", self.label(), self.extensions.join(" ")).to_ascii_lowercase();
        hay.contains(&n)
    }
}

fn query_devices() -> GlResult<Vec<Device>> {
    let devices = Device::query_devices().map_err(|e| {
        let text = e.to_string();
        if text.to_ascii_lowercase().contains("not found") || text.contains("NotFound") {
            GlError::NoEgl(text)
        } else {
            GlError::NoDevice(text)
        }
    })?;
    let list: Vec<Device> = devices.collect();
    if list.is_empty() {
        return Err(GlError::NoDevice("the EGL loader listed no devices".into()));
    }
    Ok(list)
}

/// Lists the EGL devices df64gl can render on.
pub fn list_devices() -> GlResult<Vec<DeviceDesc>> {
    Ok(query_devices()?
        .iter()
        .enumerate()
        .map(|(i, d)| DeviceDesc::from_device(i, d))
        .collect())
}

/// What the driver says about itself, plus the limits the engine relies on.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct GlInfo {
    /// The EGL device the context is on.
    pub device: String,
    /// `GL_VENDOR`.
    pub vendor: String,
    /// `GL_RENDERER`.
    pub renderer: String,
    /// `GL_VERSION`.
    pub version: String,
    /// `GL_SHADING_LANGUAGE_VERSION`.
    pub glsl_version: String,
    /// The OpenGL (or ES) major version.
    pub major: u32,
    /// The OpenGL (or ES) minor version.
    pub minor: u32,
    /// `#version` number to put in shaders (330, 400, 450, 460).
    pub glsl_number: u32,
    /// `GL_MAX_TEXTURE_SIZE`: the longest side of a texture, texels.
    pub max_texture_size: u32,
    /// `GL_MAX_COLOR_ATTACHMENTS`.
    pub max_color_attachments: u32,
    /// `GL_MAX_ARRAY_TEXTURE_LAYERS`.
    pub max_array_texture_layers: u32,
    /// `GL_MAX_DRAW_BUFFERS`.
    pub max_draw_buffers: u32,
    /// GL_ARB_gpu_shader_fp64 (GLSL `double` before 4.00).
    pub gpu_shader_fp64: bool,
    /// GL_ARB_gpu_shader5 (`precise` on GLSL 3.30).
    pub gpu_shader5: bool,
    /// Timer queries (GL_ARB_timer_query or GL 3.3).
    pub timer_query: bool,
    /// The extensions listed above that the driver has, for reports.
    pub extensions_of_interest: Vec<String>,
}

impl GlInfo {
    /// Key that identifies a driver build, for the probe cache.
    pub(crate) fn driver_key(&self) -> String {
        format!("{} | {} | {}", self.vendor, self.renderer, self.version)
    }

    /// GL_TIME_ELAPSED measures the draws: false for Mesa's software rasterisers, where the
    /// query was measured closing before the rasterizer threads finish (a chain of 33M f32
    /// adds: 28 ms wall-clock between glFinish calls, 55 us by the query), so wall-clock time
    /// between glFinish calls is the time of the work there.
    pub fn timer_measures_draws(&self) -> bool {
        self.timer_query && !self.software_rasterizer()
    }

    /// Mesa's software rasterizers (llvmpipe, softpipe, lavapipe under zink, swrast): their
    /// textures are host memory.
    pub fn software_rasterizer(&self) -> bool {
        let r = self.renderer.to_ascii_lowercase();
        ["llvmpipe", "softpipe", "swrast", "lavapipe"]
            .iter()
            .any(|s| r.contains(s))
    }

    /// The shaders df64gl writes can use `precise`: GLSL 4.00+, or GLSL 3.30 with
    /// GL_ARB_gpu_shader5 (which the engine then enables).
    pub fn has_precise(&self) -> bool {
        self.glsl_number >= 400
            || self
                .extensions_of_interest
                .iter()
                .any(|e| e == "GL_ARB_gpu_shader5")
    }
}

pub(crate) enum Keeper {
    Headless {
        _context: PossiblyCurrentContext,
        _display: Display,
    },
    Windowed {
        _context: Rc<PossiblyCurrentContext>,
    },
}

/// The GL function table plus whatever keeps the context alive. Engine objects hold an `Rc`
/// of this, so the context outlives every texture or program created on it.
pub(crate) struct Shared {
    pub gl: glow::Context,
    /// Field order matters: the context is dropped after the function table.
    _keeper: Keeper,
    /// The empty VAO that full-screen draws need in a core profile.
    pub vao: RefCell<Option<glow::VertexArray>>,
}

impl Drop for Shared {
    fn drop(&mut self) {
        if let Some(vao) = self.vao.borrow_mut().take() {
            unsafe { self.gl.delete_vertex_array(vao) };
        }
    }
}

/// A current OpenGL context with its driver description.
#[derive(Clone)]
pub struct GlContext {
    pub(crate) shared: Rc<Shared>,
    info: Rc<GlInfo>,
}

impl GlContext {
    /// Opens a headless (surfaceless) context on an EGL device.
    ///
    /// ```
    /// use df64gl::gl::{DeviceChoice, GlContext};
    /// let ctx = GlContext::headless(&DeviceChoice::Auto).expect("an EGL device");
    /// let info = ctx.info();
    /// println!("{} {}, GLSL {}", info.vendor, info.renderer, info.glsl_version);
    /// assert!(info.max_texture_size >= 2048);
    /// ```
    pub fn headless(choice: &DeviceChoice) -> GlResult<Self> {
        Self::open_headless(choice, false)
    }

    /// A headless OpenGL ES 3.x context on an EGL device (to check GLSL ES shaders, such as the
    /// `es300` df64 snippet); the engine's own programs need desktop OpenGL.
    pub fn headless_gles(choice: &DeviceChoice) -> GlResult<Self> {
        Self::open_headless(choice, true)
    }

    fn open_headless(choice: &DeviceChoice, gles: bool) -> GlResult<Self> {
        let devices = query_devices()?;
        let descs: Vec<DeviceDesc> = devices
            .iter()
            .enumerate()
            .map(|(i, d)| DeviceDesc::from_device(i, d))
            .collect();
        let available = descs
            .iter()
            .map(DeviceDesc::label)
            .collect::<Vec<_>>()
            .join("; ");
        let index = match choice {
            DeviceChoice::Auto => descs
                .iter()
                .find(|d| !d.software)
                .or_else(|| descs.first())
                .map(|d| d.index),
            DeviceChoice::Index(i) => descs.get(*i).map(|d| d.index),
            DeviceChoice::Name(n) => descs.iter().find(|d| d.matches(n)).map(|d| d.index),
        };
        let Some(index) = index else {
            return Err(GlError::DeviceNotFound {
                wanted: match choice {
                    DeviceChoice::Auto => "auto".into(),
                    DeviceChoice::Index(i) => i.to_string(),
                    DeviceChoice::Name(n) => n.clone(),
                },
                available,
            });
        };
        let label = descs[index].label();
        let ctx_err = |detail: String| GlError::Context {
            device: label.clone(),
            detail,
        };
        let display = unsafe { Display::with_device(&devices[index], None) }
            .map_err(|e| ctx_err(format!("eglGetPlatformDisplay: {e}")))?;
        let template = ConfigTemplateBuilder::new()
            .with_surface_type(ConfigSurfaceTypes::empty())
            .build();
        let config = unsafe { display.find_configs(template) }
            .map_err(|e| ctx_err(format!("eglChooseConfig: {e}")))?
            .next();
        // Surfaceless contexts do not need a config; fall back to none when the device lists none.
        let mut last_err = String::from("no version accepted");
        let mut made = None;
        let versions: &[(u8, u8)] = if gles {
            &[(3, 2), (3, 1), (3, 0)]
        } else {
            &[(4, 6), (4, 5), (4, 3), (4, 1), (4, 0), (3, 3)]
        };
        for &(major, minor) in versions {
            let attrs = if gles {
                ContextAttributesBuilder::new()
                    .with_context_api(ContextApi::Gles(Some(Version::new(major, minor))))
                    .build(None)
            } else {
                ContextAttributesBuilder::new()
                    .with_context_api(ContextApi::OpenGl(Some(Version::new(major, minor))))
                    .with_profile(GlProfile::Core)
                    .build(None)
            };
            let res = match &config {
                Some(c) => unsafe { display.create_context(c, &attrs) },
                None => {
                    last_err = "the device offers no EGL config".into();
                    break;
                }
            };
            match res {
                Ok(c) => {
                    made = Some(c);
                    break;
                }
                Err(e) => {
                    let api = if gles { "ES" } else { "core" };
                    last_err = format!("{api} {major}.{minor}: {e}");
                }
            }
        }
        let not_current = made.ok_or_else(|| ctx_err(last_err))?;
        let context = not_current
            .make_current_surfaceless()
            .map_err(|e| ctx_err(format!("eglMakeCurrent (surfaceless): {e}")))?;
        let gl = unsafe {
            glow::Context::from_loader_function_cstr(|s: &CStr| display.get_proc_address(s))
        };
        Self::finish(
            gl,
            Keeper::Headless {
                _context: PossiblyCurrentContext::Egl(context),
                _display: display,
            },
            label,
        )
    }

    pub(crate) fn windowed(
        gl: glow::Context,
        context: Rc<PossiblyCurrentContext>,
        label: String,
    ) -> GlResult<Self> {
        Self::finish(gl, Keeper::Windowed { _context: context }, label)
    }

    fn finish(gl: glow::Context, keeper: Keeper, device: String) -> GlResult<Self> {
        let info = unsafe { read_info(&gl, device) };
        let es = gl.version().is_embedded;
        if (info.major, info.minor) < (3, if es { 0 } else { 3 }) {
            return Err(GlError::VersionTooLow {
                found: info.version.clone(),
                renderer: info.renderer.clone(),
            });
        }
        let vao = unsafe { gl.create_vertex_array() }.map_err(GlError::Create)?;
        let shared = Rc::new(Shared {
            gl,
            _keeper: keeper,
            vao: RefCell::new(Some(vao)),
        });
        Ok(GlContext {
            shared,
            info: Rc::new(info),
        })
    }

    /// The raw function table, for code that needs a call the engine does not wrap.
    pub fn gl(&self) -> &glow::Context {
        &self.shared.gl
    }

    /// What the driver says about itself and its limits.
    pub fn info(&self) -> &GlInfo {
        &self.info
    }

    /// Fails with the name of `call` when the driver has recorded a GL error.
    pub fn check(&self, call: &str) -> GlResult<()> {
        let code = unsafe { self.gl().get_error() };
        if code == glow::NO_ERROR {
            return Ok(());
        }
        // Drain the queue so the next check reports only what follows.
        for _ in 0..16 {
            if unsafe { self.gl().get_error() } == glow::NO_ERROR {
                break;
            }
        }
        Err(GlError::Call {
            call: call.to_string(),
            code,
            code_name: super::error::gl_error_name(code),
        })
    }

    /// Blocks until the GPU has finished all submitted work.
    pub fn finish_gpu(&self) {
        unsafe { self.gl().finish() };
    }

    pub(crate) fn vao(&self) -> Option<glow::VertexArray> {
        *self.shared.vao.borrow()
    }
}

unsafe fn read_info(gl: &glow::Context, device: String) -> GlInfo {
    let vendor = gl.get_parameter_string(glow::VENDOR);
    let renderer = gl.get_parameter_string(glow::RENDERER);
    let version = gl.get_parameter_string(glow::VERSION);
    let glsl_version = gl.get_parameter_string(glow::SHADING_LANGUAGE_VERSION);
    let v = gl.version();
    let (major, minor) = (v.major, v.minor);
    let glsl_number = parse_glsl_number(&glsl_version).unwrap_or(330);
    let exts = gl.supported_extensions();
    let has = |e: &str| exts.contains(e);
    let interesting = [
        "GL_ARB_gpu_shader_fp64",
        "GL_ARB_gpu_shader5",
        "GL_ARB_timer_query",
        "GL_ARB_texture_float",
        "GL_ARB_color_buffer_float",
        "GL_ARB_shader_precision",
        "GL_NV_gpu_shader5",
    ];
    let core_fp64 = (major, minor) >= (4, 0);
    GlInfo {
        device,
        vendor,
        renderer,
        version,
        glsl_version,
        major,
        minor,
        glsl_number: pick_glsl_number(glsl_number),
        max_texture_size: gl.get_parameter_i32(glow::MAX_TEXTURE_SIZE).max(0) as u32,
        max_color_attachments: gl.get_parameter_i32(glow::MAX_COLOR_ATTACHMENTS).max(0) as u32,
        max_draw_buffers: gl.get_parameter_i32(glow::MAX_DRAW_BUFFERS).max(0) as u32,
        max_array_texture_layers: gl.get_parameter_i32(glow::MAX_ARRAY_TEXTURE_LAYERS).max(0)
            as u32,
        gpu_shader_fp64: core_fp64 || has("GL_ARB_gpu_shader_fp64"),
        gpu_shader5: core_fp64 || has("GL_ARB_gpu_shader5"),
        timer_query: (major, minor) >= (3, 3) || has("GL_ARB_timer_query"),
        extensions_of_interest: interesting
            .iter()
            .filter(|e| has(e))
            .map(|e| e.to_string())
            .collect(),
    }
}

/// "4.50" or "4.60 NVIDIA" -> 450 / 460.
fn parse_glsl_number(text: &str) -> Option<u32> {
    let head = text.split_whitespace().next()?;
    let mut it = head.split('.');
    let major: u32 = it.next()?.parse().ok()?;
    let minor_text: String = it
        .next()?
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    let minor: u32 = minor_text.parse().ok()?;
    Some(major * 100 + if minor < 10 { minor * 10 } else { minor })
}

/// The highest `#version` df64gl writes: 450 (enough for everything it uses), never above
/// what the driver reports.
fn pick_glsl_number(driver: u32) -> u32 {
    [450, 440, 430, 420, 410, 400, 330]
        .into_iter()
        .find(|v| *v <= driver)
        .unwrap_or(330)
}

pub(crate) fn nonzero(v: u32) -> NonZeroU32 {
    NonZeroU32::new(v).unwrap_or(NonZeroU32::MIN)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_glsl_versions() {
        assert_eq!(parse_glsl_number("4.50"), Some(450));
        assert_eq!(parse_glsl_number("4.60 NVIDIA"), Some(460));
        assert_eq!(parse_glsl_number("3.30"), Some(330));
        assert_eq!(pick_glsl_number(460), 450);
        assert_eq!(pick_glsl_number(330), 330);
    }

    #[test]
    fn parses_device_choice() {
        assert_eq!(DeviceChoice::parse("auto"), DeviceChoice::Auto);
        assert_eq!(DeviceChoice::parse("1"), DeviceChoice::Index(1));
        assert_eq!(
            DeviceChoice::parse("nvidia"),
            DeviceChoice::Name("nvidia".into())
        );
    }
}
