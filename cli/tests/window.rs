//! A real window: winit + glutin under an X server (Xvfb, started here when DISPLAY is unset),
//! running a df64 program both into a float texture and onto the window's framebuffer.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use df64gl::gl::{
    run_windowed, AppError, Framebuffer, GlContext, GlslLibrary, Pass, Program, Texture, WindowApp,
    WindowOptions,
};
use glow::HasContext;

mod common;

/// The tests here share DISPLAY (set by `x_server`), so they run one at a time.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

struct Xvfb(Child);

impl Drop for Xvfb {
    fn drop(&mut self) {
        // SIGTERM lets Xvfb remove its socket and lock file (SIGKILL leaves them behind and
        // uses up display numbers); SIGKILL only if that did not work.
        let terminated = Command::new("kill")
            .args(["-TERM", &self.0.id().to_string()])
            .status()
            .is_ok_and(|s| s.success());
        if !terminated {
            let _ = self.0.kill();
        }
        let _ = self.0.wait();
    }
}

/// Uses $DISPLAY when set, else starts Xvfb on a free display number.
fn x_server() -> Option<Xvfb> {
    // A display that is still there (the user's, or one an earlier test left set but
    // stopped) is used; a stale one is replaced.
    if let Ok(d) = std::env::var("DISPLAY") {
        let n = d.trim_start_matches(':').split('.').next().unwrap_or("");
        let socket = format!("/tmp/.X11-unix/X{n}");
        if !d.starts_with(':') || std::os::unix::net::UnixStream::connect(socket).is_ok() {
            return None;
        }
    }
    let mut tried_install = false;
    let mut n = 91;
    while n < 120 {
        let socket = format!("/tmp/.X11-unix/X{n}");
        if Path::new(&socket).exists() || Path::new(&format!("/tmp/.X{n}-lock")).exists() {
            n += 1;
            continue;
        }
        let child = Command::new("Xvfb")
            .args([
                format!(":{n}").as_str(),
                "-screen",
                "0",
                "640x480x24",
                "-nolisten",
                "tcp",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
        let child = match child {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && !tried_install => {
                // A fresh machine has no Xvfb: the test command itself arranges it.
                install_xvfb();
                tried_install = true;
                continue;
            }
            Err(e) => panic!(
                "the window test needs an X server: install Xvfb (apt-get install xvfb), set \
                 DISPLAY, or set DF64GL_SKIP_WINDOW_TEST=1 to skip it ({e})"
            ),
        };
        let guard = Xvfb(child);
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(10) {
            if Path::new(&socket).exists() {
                // Only this test in this binary reads DISPLAY, and it sets it before any window.
                std::env::set_var("DISPLAY", format!(":{n}"));
                return Some(guard);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        n += 1;
    }
    panic!("could not start Xvfb on any display :91..:119");
}

/// Installs Xvfb with apt-get (as root, the way this project's machines run the tests); on
/// failure the caller's panic says what to do.
fn install_xvfb() {
    eprintln!("(DF64GL_SKIP_WINDOW_TEST=1 skips this test)");
    common::apt_install(&["xvfb"]);
}

const SHADER: &str = "
out vec4 o;
void main() {
    // (1/3) * 3 in df64 is 1 within half an ulp48; in f32 it is 1 exactly by luck, so check
    // the low word too: 1/3 carries a nonzero low word.
    vec2 third = df64_div(vec2(1.0, 0.0), vec2(3.0, 0.0));
    vec2 one = df64_mul(third, vec2(3.0, 0.0));
    float ok = (abs(one.x - 1.0) + abs(one.y) < 1e-13 && third.y != 0.0) ? 1.0 : 0.0;
    o = vec4(ok, third.y * 1e8, 0.25, 1.0);
}
";

#[derive(Default)]
struct App {
    program: Option<Program>,
    frames: u32,
    float_result: Vec<f32>,
    window_pixel: [u8; 4],
    size: (u32, u32),
}

impl WindowApp for App {
    fn init(&mut self, ctx: &GlContext) -> Result<(), AppError> {
        let lib =
            GlslLibrary::builtin().with_module_needing("window_test.glsl", &["df64.glsl"], SHADER);
        self.program = Some(Program::build(ctx, &lib, "window_test.glsl", &[])?);
        Ok(())
    }

    fn frame(&mut self, ctx: &GlContext, size: (u32, u32)) -> Result<bool, AppError> {
        let program = self.program.as_ref().ok_or("no program")?;
        // Off-screen, exact floats.
        let tex = Texture::new(ctx, 2, 2)?;
        let fb = Framebuffer::new(ctx, &[&tex])?;
        Pass::new(program).run(ctx, &fb)?;
        self.float_result = fb.read(ctx, 0)?;
        // On-screen, into the window's back buffer, then read one pixel of it back.
        let gl = ctx.gl();
        unsafe {
            gl.bind_framebuffer(glow::FRAMEBUFFER, None);
            gl.viewport(0, 0, size.0 as i32, size.1 as i32);
        }
        Pass::new(program).draw(ctx)?;
        let mut px = [0u8; 4];
        unsafe {
            gl.read_buffer(glow::BACK);
            gl.read_pixels(
                (size.0 / 2) as i32,
                (size.1 / 2) as i32,
                1,
                1,
                glow::RGBA,
                glow::UNSIGNED_BYTE,
                glow::PixelPackData::Slice(Some(&mut px)),
            );
        }
        ctx.check("glReadPixels(window)")?;
        self.window_pixel = px;
        self.size = size;
        self.frames += 1;
        Ok(true)
    }

    fn title(&self) -> Option<String> {
        Some(format!("df64gl test frame {}", self.frames))
    }
}

#[test]
fn df64_renders_in_a_real_window() {
    if std::env::var_os("DF64GL_SKIP_WINDOW_TEST").is_some() {
        eprintln!("df64_renders_in_a_real_window: skipped (DF64GL_SKIP_WINDOW_TEST is set)");
        return;
    }
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let _x = x_server();
    let mut app = App::default();
    let options = WindowOptions {
        title: "df64gl window test".into(),
        width: 96,
        height: 64,
        max_frames: Some(3),
    };
    run_windowed(options, &mut app).expect("window runs");
    assert_eq!(app.frames, 3);
    assert!(app.size.0 > 0 && app.size.1 > 0);
    assert_eq!(
        app.float_result[0],
        1.0,
        "df64 (1/3)*3 check failed: {:?}",
        &app.float_result[..4]
    );
    assert!(app.float_result[1] != 0.0);
    assert_eq!(
        app.window_pixel[0], 255,
        "window pixel {:?}",
        app.window_pixel
    );
    assert!(
        (app.window_pixel[2] as i32 - 64).abs() <= 1,
        "window pixel {:?}",
        app.window_pixel
    );
}

/// The Mandelbrot explorer as a user starts it, in a real window for a few frames: it
/// renders, and its title carries the precision and the zoom.
#[test]
fn mandelbrot_window_runs_and_titles_itself() {
    if std::env::var_os("DF64GL_SKIP_WINDOW_TEST").is_some() {
        eprintln!(
            "mandelbrot_window_runs_and_titles_itself: skipped (DF64GL_SKIP_WINDOW_TEST is set)"
        );
        return;
    }
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let _x = x_server();
    let display = std::env::var("DISPLAY").expect("x_server sets DISPLAY");
    let (code, _, err) = common::run_bin(
        env!("CARGO_BIN_EXE_df64gl"),
        &[
            "mandelbrot",
            "--window",
            "--frames",
            "3",
            "--size",
            "80x60",
            "--precision",
            "qf128",
            "--zoom",
            "1e-20",
            "--iterations",
            "300",
        ],
        &[("DISPLAY", &display)],
    );
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("3 frames"), "{err}");
    assert!(
        err.contains("qf128") && err.contains("zoom 1.000e-20"),
        "{err}"
    );
}
