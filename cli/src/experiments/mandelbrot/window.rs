//! The interactive explorer: a window that redraws the view on pan, zoom and precision keys
//! (input mapped to [`MandelAction`]s, so the mapping is testable without a display).

use super::*;

/// What the window does with input, separated from winit's events so it can be tested.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum MandelAction {
    /// Move the view by pixels (x right, y up).
    Pan(f64, f64),
    /// Multiply the zoom by the factor, keeping the point at this pixel offset from the
    /// center (x right, y up) in place.
    Zoom(f64, f64, f64),
    /// Switch to this precision.
    Precision(MandelPrecision),
    /// Close the window.
    Quit,
}

/// The windowed explorer: drag to pan, wheel or +/- to zoom, 1/2/3 for f32/df64/qf128,
/// arrows to pan, Escape to quit; zoom and precision in the title.
pub struct MandelbrotApp {
    /// The view shown.
    pub view: MandelbrotView,
    /// The precision drawn.
    pub precision: MandelPrecision,
    /// Frames drawn.
    pub frames: u64,
    kernels: Option<Df64Kernels>,
    renderer: MandelRenderer,
    cursor: (f64, f64),
    dragging: bool,
    quit: bool,
}

impl MandelbrotApp {
    /// An explorer of `view` in `precision`.
    pub fn new(view: MandelbrotView, precision: MandelPrecision) -> Self {
        MandelbrotApp {
            view,
            precision,
            frames: 0,
            kernels: None,
            renderer: MandelRenderer::new(),
            cursor: (0.0, 0.0),
            dragging: false,
            quit: false,
        }
    }

    /// Changes the view as the action says.
    pub fn apply(&mut self, action: MandelAction) {
        match action {
            MandelAction::Pan(dx, dy) => self.view.pan_pixels(dx, dy),
            MandelAction::Zoom(f, dx, dy) => self.view.zoom_at(f, dx, dy),
            MandelAction::Precision(p) => self.precision = p,
            MandelAction::Quit => self.quit = true,
        }
    }

    /// The window title: precision, zoom and center.
    pub fn title_text(&self) -> String {
        let (re, im) = self.view.center_f64();
        format!(
            "df64gl Mandelbrot | {} | zoom {:.3e} | {} iterations | center {re:.15}, {im:.15} | \
             drag: pan, wheel or +/-: zoom, 1/2/3: f32/df64/qf128",
            self.precision.name(),
            self.view.zoom,
            self.view.iterations()
        )
    }

    /// The cursor as a pixel offset from the center, y up.
    fn cursor_offset(&self) -> (f64, f64) {
        (
            self.cursor.0 - self.view.width as f64 / 2.0,
            self.view.height as f64 / 2.0 - self.cursor.1,
        )
    }

    fn action_for(&mut self, event: &winit::event::WindowEvent) -> Option<MandelAction> {
        use winit::event::{ElementState, MouseButton, MouseScrollDelta, WindowEvent};
        use winit::keyboard::{Key, NamedKey};
        match event {
            WindowEvent::CursorMoved { position, .. } => {
                let (x, y) = (position.x, position.y);
                let (dx, dy) = (x - self.cursor.0, y - self.cursor.1);
                self.cursor = (x, y);
                // Dragging moves the picture with the mouse: the center goes the other way.
                self.dragging.then_some(MandelAction::Pan(-dx, dy))
            }
            WindowEvent::MouseInput {
                state,
                button: MouseButton::Left,
                ..
            } => {
                self.dragging = *state == ElementState::Pressed;
                None
            }
            WindowEvent::MouseWheel { delta, .. } => {
                let lines = match delta {
                    MouseScrollDelta::LineDelta(_, y) => *y as f64,
                    MouseScrollDelta::PixelDelta(p) => p.y / 40.0,
                };
                let (dx, dy) = self.cursor_offset();
                Some(MandelAction::Zoom(0.8f64.powf(lines), dx, dy))
            }
            WindowEvent::KeyboardInput { event, .. } if event.state == ElementState::Pressed => {
                let step = self.view.width.min(self.view.height) as f64 / 8.0;
                match &event.logical_key {
                    Key::Character(c) => match c.as_str() {
                        "+" | "=" => Some(MandelAction::Zoom(0.5, 0.0, 0.0)),
                        "-" | "_" => Some(MandelAction::Zoom(2.0, 0.0, 0.0)),
                        "1" => Some(MandelAction::Precision(MandelPrecision::F32)),
                        "2" => Some(MandelAction::Precision(MandelPrecision::Df64)),
                        "3" => Some(MandelAction::Precision(MandelPrecision::Qf128)),
                        "q" => Some(MandelAction::Quit),
                        _ => None,
                    },
                    Key::Named(NamedKey::ArrowLeft) => Some(MandelAction::Pan(-step, 0.0)),
                    Key::Named(NamedKey::ArrowRight) => Some(MandelAction::Pan(step, 0.0)),
                    Key::Named(NamedKey::ArrowUp) => Some(MandelAction::Pan(0.0, step)),
                    Key::Named(NamedKey::ArrowDown) => Some(MandelAction::Pan(0.0, -step)),
                    Key::Named(NamedKey::Escape) => Some(MandelAction::Quit),
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

impl df64gl::gl::WindowApp for MandelbrotApp {
    fn init(&mut self, ctx: &GlContext) -> Result<(), df64gl::gl::AppError> {
        let probe = df64gl::probe::probe_driver(ctx, false)?;
        self.kernels = Some(Df64Kernels::new(ctx, &probe)?);
        Ok(())
    }

    fn frame(&mut self, ctx: &GlContext, size: (u32, u32)) -> Result<bool, df64gl::gl::AppError> {
        if self.quit {
            return Ok(false);
        }
        let kernels = self
            .kernels
            .as_ref()
            .ok_or("the window was not initialised")?;
        // The window's size is the view's: a resize shows more, not a stretched picture.
        self.view.width = size.0.max(1);
        self.view.height = size.1.max(1);
        let gl = ctx.gl();
        // Framebuffer 0 is the window's; the viewport follows its size.
        unsafe {
            use glow::HasContext;
            gl.bind_framebuffer(glow::FRAMEBUFFER, None);
            gl.viewport(0, 0, self.view.width as i32, self.view.height as i32);
        }
        self.renderer
            .draw_colored(kernels, &self.view, self.precision)?;
        self.frames += 1;
        Ok(true)
    }

    fn event(&mut self, event: &winit::event::WindowEvent) -> bool {
        match self.action_for(event) {
            Some(a) => {
                self.apply(a);
                true
            }
            None => false,
        }
    }

    fn title(&self) -> Option<String> {
        Some(self.title_text())
    }
}
