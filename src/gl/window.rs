//! A winit window with a GL context, giving the same [`GlContext`] as the headless path.

use std::error::Error;
use std::rc::Rc;

use glutin::config::{ConfigTemplateBuilder, GlConfig};
use glutin::context::{
    ContextApi, ContextAttributesBuilder, GlProfile, PossiblyCurrentContext, Version,
};
use glutin::display::{GetGlDisplay, GlDisplay};
use glutin::prelude::*;
use glutin::surface::{Surface, SwapInterval, WindowSurface};
use glutin_winit::{DisplayBuilder, GlWindow};
use raw_window_handle::HasWindowHandle;
use winit::application::ApplicationHandler;
use winit::dpi::PhysicalSize;
use winit::event::WindowEvent;
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::window::{Window, WindowId};

use super::context::{nonzero, GlContext};
use super::error::{GlError, GlResult};

/// Errors an application's callbacks may return; they end the loop and come back from
/// [`run_windowed`].
pub type AppError = Box<dyn Error>;

/// A window to open for a [`WindowApp`].
#[derive(Debug, Clone)]
pub struct WindowOptions {
    /// The title.
    pub title: String,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Close after this many frames (tests, screenshots); `None` runs until closed.
    pub max_frames: Option<u64>,
}

impl Default for WindowOptions {
    fn default() -> Self {
        WindowOptions {
            title: "df64gl".into(),
            width: 800,
            height: 600,
            max_frames: None,
        }
    }
}

/// What a windowed program does; the engine owns the event loop and the context.
pub trait WindowApp {
    /// Called once, with the context current, before the first frame.
    fn init(&mut self, ctx: &GlContext) -> Result<(), AppError>;
    /// Draws one frame into the default framebuffer of `size` pixels. Return `false` to close.
    fn frame(&mut self, ctx: &GlContext, size: (u32, u32)) -> Result<bool, AppError>;
    /// Input and other window events; return `true` to have a new frame drawn.
    fn event(&mut self, _event: &WindowEvent) -> bool {
        false
    }
    /// A new window title, asked for after every event and frame.
    fn title(&self) -> Option<String> {
        None
    }
}

struct Live {
    window: Window,
    surface: Surface<WindowSurface>,
    context: Rc<PossiblyCurrentContext>,
    ctx: GlContext,
}

struct Runner<'a> {
    options: WindowOptions,
    app: &'a mut dyn WindowApp,
    live: Option<Live>,
    frames: u64,
    error: Option<String>,
    last_title: String,
}

impl Runner<'_> {
    fn create(&mut self, event_loop: &ActiveEventLoop) -> Result<Live, String> {
        let attrs = Window::default_attributes()
            .with_title(self.options.title.clone())
            .with_inner_size(PhysicalSize::new(
                self.options.width.max(1),
                self.options.height.max(1),
            ));
        let template = ConfigTemplateBuilder::new().with_alpha_size(8);
        let (window, config) = DisplayBuilder::new()
            .with_window_attributes(Some(attrs))
            .build(event_loop, template, |mut configs| {
                // Any config will do: rendering happens in float textures.
                let first = configs.next();
                configs
                    .fold(first, |best, c| match best {
                        Some(b) if b.num_samples() <= c.num_samples() => Some(b),
                        _ => Some(c),
                    })
                    .expect("glutin never calls the picker with no configs")
            })
            .map_err(|e| e.to_string())?;
        let window = window.ok_or("the window system created no window")?;
        let raw = window.window_handle().map_err(|e| e.to_string())?.as_raw();
        let display = config.display();
        let mut made = None;
        let mut last = String::new();
        for (major, minor) in [(4, 6), (4, 5), (4, 3), (4, 0), (3, 3)] {
            let ca = ContextAttributesBuilder::new()
                .with_profile(GlProfile::Core)
                .with_context_api(ContextApi::OpenGl(Some(Version::new(major, minor))))
                .build(Some(raw));
            match unsafe { display.create_context(&config, &ca) } {
                Ok(c) => {
                    made = Some(c);
                    break;
                }
                Err(e) => last = format!("core {major}.{minor}: {e}"),
            }
        }
        let not_current = made.ok_or(last)?;
        let size = window.inner_size();
        let surface_attrs = window
            .build_surface_attributes(Default::default())
            .map_err(|e| e.to_string())?;
        let surface = unsafe { display.create_window_surface(&config, &surface_attrs) }
            .map_err(|e| e.to_string())?;
        let context = not_current
            .make_current(&surface)
            .map_err(|e| e.to_string())?;
        // Vsync off: frames are driven by events, and tests must not wait on a display.
        let _ = surface.set_swap_interval(&context, SwapInterval::DontWait);
        surface.resize(&context, nonzero(size.width), nonzero(size.height));
        let gl =
            unsafe { glow::Context::from_loader_function_cstr(|s| display.get_proc_address(s)) };
        let context = Rc::new(context);
        let label = format!("window {}x{}", size.width, size.height);
        let ctx = GlContext::windowed(gl, context.clone(), label).map_err(|e| e.to_string())?;
        Ok(Live {
            window,
            surface,
            context,
            ctx,
        })
    }

    fn fail(&mut self, event_loop: &ActiveEventLoop, msg: String) {
        self.error = Some(msg);
        event_loop.exit();
    }

    fn update_title(&mut self) {
        if let (Some(t), Some(live)) = (self.app.title(), &self.live) {
            if t != self.last_title {
                live.window.set_title(&t);
                self.last_title = t;
            }
        }
    }
}

impl ApplicationHandler for Runner<'_> {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.live.is_some() {
            return;
        }
        match self.create(event_loop) {
            Ok(live) => {
                if let Err(e) = self.app.init(&live.ctx) {
                    self.fail(event_loop, format!("window application init: {e}"));
                    return;
                }
                live.window.request_redraw();
                self.live = Some(live);
            }
            Err(e) => self.fail(event_loop, e),
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        match &event {
            WindowEvent::CloseRequested => {
                event_loop.exit();
                return;
            }
            WindowEvent::Resized(size) => {
                if let Some(live) = &self.live {
                    live.surface
                        .resize(&live.context, nonzero(size.width), nonzero(size.height));
                    live.window.request_redraw();
                }
            }
            WindowEvent::RedrawRequested => {
                let Some(live) = &self.live else { return };
                let size = live.window.inner_size();
                let keep = match self.app.frame(&live.ctx, (size.width, size.height)) {
                    Ok(k) => k,
                    Err(e) => {
                        self.fail(event_loop, format!("frame: {e}"));
                        return;
                    }
                };
                if let Err(e) = live.surface.swap_buffers(&live.context) {
                    self.fail(event_loop, format!("eglSwapBuffers: {e}"));
                    return;
                }
                self.frames += 1;
                let limit = self.options.max_frames.is_some_and(|m| self.frames >= m);
                if !keep || limit {
                    event_loop.exit();
                    return;
                }
                if self.options.max_frames.is_some() {
                    live.window.request_redraw();
                }
            }
            _ => {}
        }
        if self.app.event(&event) {
            if let Some(live) = &self.live {
                live.window.request_redraw();
            }
        }
        self.update_title();
    }
}

/// Opens a window, runs `app` in it until it closes, and returns the first error, if any.
pub fn run_windowed(options: WindowOptions, app: &mut dyn WindowApp) -> GlResult<()> {
    let mut builder = EventLoop::builder();
    // Tests and embedders may not own the main thread.
    #[cfg(all(unix, not(target_os = "macos")))]
    {
        use winit::platform::wayland::EventLoopBuilderExtWayland;
        use winit::platform::x11::EventLoopBuilderExtX11;
        EventLoopBuilderExtX11::with_any_thread(&mut builder, true);
        EventLoopBuilderExtWayland::with_any_thread(&mut builder, true);
    }
    let event_loop = builder
        .build()
        .map_err(|e| GlError::Window(e.to_string()))?;
    event_loop.set_control_flow(ControlFlow::Wait);
    let mut runner = Runner {
        last_title: options.title.clone(),
        options,
        app,
        live: None,
        frames: 0,
        error: None,
    };
    event_loop
        .run_app(&mut runner)
        .map_err(|e| GlError::Window(e.to_string()))?;
    match runner.error {
        Some(e) => Err(GlError::Window(e)),
        None => Ok(()),
    }
}
