//! Plain WebGL 2 programs run as web developers run them (the export check's jobs: the probe
//! shader, then each routine on random operands), written into one local HTML page that headless Chromium loads with `--dump-dom`; the page's script
//! compiles and draws each job with WebGL 2, reads the pixels back and puts them into the DOM
//! as base64, and the results are checked here against the oracle and the CPU mirror.
//!
//! Two backends, both software on this project's machines: ANGLE over SwiftShader (Vulkan), and
//! ANGLE over the system's OpenGL ES (Mesa llvmpipe here), the path Chrome takes on many Linux
//! desktops.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine;
use serde::Serialize;

use crate::error::ExperimentError;
use df64gl::export::snippet::{PlainOutput, PlainPixels};

/// Which ANGLE backend Chromium renders WebGL with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum BrowserBackend {
    /// ANGLE over SwiftShader (`--use-angle=swiftshader`).
    Swiftshader,
    /// ANGLE over the system's OpenGL ES through EGL (`--use-angle=gl-egl`): Mesa here.
    AngleGl,
    /// WebGPU (`--enable-unsafe-webgpu`): Dawn and Tint on SwiftShader's Vulkan here. For the
    /// WebGPU pages only, not a WebGL backend.
    #[value(skip)]
    WebGpu,
}

impl BrowserBackend {
    fn flags(self) -> &'static [&'static str] {
        match self {
            BrowserBackend::Swiftshader => {
                &["--use-angle=swiftshader", "--enable-unsafe-swiftshader"]
            }
            BrowserBackend::AngleGl => &[
                "--use-angle=gl-egl",
                "--use-gl=angle",
                "--ignore-gpu-blocklist",
                "--enable-gpu",
            ],
            // Vulkan (SwiftShader) for the compositor too: without it, headless Chromium 156
            // destroys the WebGPU device when a canvas presents (measured: a page that clears
            // its canvas loses its device, "Device was destroyed", and shows nothing).
            BrowserBackend::WebGpu => &[
                "--enable-unsafe-webgpu",
                "--use-angle=swiftshader",
                "--enable-unsafe-swiftshader",
                "--use-vulkan=swiftshader",
                "--enable-features=Vulkan",
            ],
        }
    }

    /// "swiftshader" or "angle-gl".
    pub fn name(self) -> &'static str {
        match self {
            BrowserBackend::Swiftshader => "WebGL 2, ANGLE over SwiftShader",
            BrowserBackend::AngleGl => "WebGL 2, ANGLE over the system's OpenGL ES",
            BrowserBackend::WebGpu => "WebGPU, Dawn over SwiftShader",
        }
    }
}

/// Environment variable naming the Chromium (or Chrome) executable.
pub const CHROMIUM_ENV: &str = "DF64GL_CHROMIUM";

/// The Chromium executable: `DF64GL_CHROMIUM`, else the first of chromium, chromium-browser,
/// google-chrome on the PATH.
pub fn find_chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os(CHROMIUM_ENV) {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .flat_map(|name| std::env::split_paths(&path).map(move |d| d.join(name)))
        .find(|p| p.is_file())
}

/// How long one page may take (the qf128-free export compiles in seconds on SwiftShader).
const PAGE_TIMEOUT: Duration = Duration::from_secs(600);

const PAGE_SCRIPT: &str = r#"
(function () {
  const out = document.createElement('div');
  document.body.appendChild(out);
  function put(id, text) {
    const p = document.createElement('pre');
    p.id = id;
    p.textContent = text;
    out.appendChild(p);
  }
  function fromBase64(b) {
    const s = atob(b);
    const u = new Uint8Array(s.length);
    for (let i = 0; i < s.length; i++) u[i] = s.charCodeAt(i);
    return new Float32Array(u.buffer);
  }
  function toBase64(bytes) {
    let s = '';
    for (let i = 0; i < bytes.length; i += 0x8000) {
      s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    }
    return btoa(s);
  }
  try {
    const holder = document.getElementById('jobs');
    const jobs = JSON.parse(holder.textContent);
    holder.remove();
    const gl = document.createElement('canvas').getContext('webgl2');
    if (!gl) throw new Error('no WebGL 2 context');
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    put('renderer', info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER));
    put('version', gl.getParameter(gl.VERSION));
    put('glsl', gl.getParameter(gl.SHADING_LANGUAGE_VERSION));
    const floatTargets = gl.getExtension('EXT_color_buffer_float') !== null;
    const vertex = '#version 300 es\nvoid main() { vec2 p = vec2(float((gl_VertexID << 1) & 2), ' +
      'float(gl_VertexID & 2)); gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0); }\n';
    function shader(kind, src) {
      const s = gl.createShader(kind);
      gl.shaderSource(s, src);
      gl.compileShader(s);
      if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error('compile: ' + gl.getShaderInfoLog(s));
      return s;
    }
    jobs.forEach(function (job, k) {
      const [w, h] = job.size;
      if (job.float && !floatTargets) throw new Error('EXT_color_buffer_float is missing');
      const program = gl.createProgram();
      gl.attachShader(program, shader(gl.VERTEX_SHADER, vertex));
      gl.attachShader(program, shader(gl.FRAGMENT_SHADER, job.source));
      gl.linkProgram(program);
      if (!gl.getProgramParameter(program, gl.LINK_STATUS)) throw new Error('job ' + k + ' link: ' + gl.getProgramInfoLog(program));
      gl.useProgram(program);
      const textures = [];
      job.inputs.forEach(function (input, unit) {
        const t = gl.createTexture();
        gl.activeTexture(gl.TEXTURE0 + unit);
        gl.bindTexture(gl.TEXTURE_2D, t);
        gl.texStorage2D(gl.TEXTURE_2D, 1, gl.RGBA32F, w, h);
        gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
        gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
        gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, w, h, gl.RGBA, gl.FLOAT, fromBase64(input[1]));
        gl.uniform1i(gl.getUniformLocation(program, input[0]), unit);
        textures.push(t);
      });
      const target = gl.createTexture();
      gl.activeTexture(gl.TEXTURE0 + textures.length);
      gl.bindTexture(gl.TEXTURE_2D, target);
      gl.texStorage2D(gl.TEXTURE_2D, 1, job.float ? gl.RGBA32F : gl.RGBA8, w, h);
      const fb = gl.createFramebuffer();
      gl.bindFramebuffer(gl.FRAMEBUFFER, fb);
      gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, target, 0);
      // The legacy barrier's uniform, set as its header asked (the bit barrier's stays 0).
      const one = gl.getUniformLocation(program, 'u_df64_one');
      if (one !== null) gl.uniform1f(one, 1.0);
      gl.viewport(0, 0, w, h);
      gl.drawArrays(gl.TRIANGLES, 0, 3);
      const pixels = job.float ? new Float32Array(w * h * 4) : new Uint8Array(w * h * 4);
      gl.readPixels(0, 0, w, h, gl.RGBA, job.float ? gl.FLOAT : gl.UNSIGNED_BYTE, pixels);
      const err = gl.getError();
      if (err !== gl.NO_ERROR) throw new Error('job ' + k + ': GL error ' + err);
      put('job' + k, toBase64(new Uint8Array(pixels.buffer)));
      gl.deleteFramebuffer(fb);
      gl.deleteTexture(target);
      textures.forEach(function (t) { gl.deleteTexture(t); });
      gl.deleteProgram(program);
    });
    put('done', String(jobs.length));
  } catch (e) {
    put('error', String(e && e.stack ? e.stack : e));
  }
})();
"#;

/// One plain program to run: its fragment source, its RGBA32F inputs (each `size`), and what
/// it writes. The probe shader is the first job of an export measurement.
#[derive(Debug, Clone)]
pub struct PlainJob {
    /// The fragment shader, complete (`#version` first).
    pub source: String,
    /// Sampler names and their RGBA32F data.
    pub inputs: Vec<(&'static str, Vec<f32>)>,
    /// Width and height of every input and of the output.
    pub size: (i32, i32),
    /// What the program writes.
    pub output: PlainOutput,
}

/// Where the jobs ran, for the report.
#[derive(Debug)]
pub struct RanOn {
    /// GL_RENDERER.
    pub renderer: String,
    /// GL_VERSION.
    pub version: String,
    /// GL_SHADING_LANGUAGE_VERSION.
    pub glsl_version: String,
}

#[derive(Serialize)]
struct PageJob<'a> {
    source: &'a str,
    inputs: Vec<(&'a str, String)>,
    size: (i32, i32),
    float: bool,
}

/// The page that runs `jobs` in WebGL 2.
pub fn page(jobs: &[PlainJob]) -> Result<String, ExperimentError> {
    let b64 = base64::engine::general_purpose::STANDARD;
    let page_jobs: Vec<PageJob> = jobs
        .iter()
        .map(|j| PageJob {
            source: &j.source,
            inputs: j
                .inputs
                .iter()
                .map(|(n, d)| (*n, b64.encode(bytemuck::cast_slice::<f32, u8>(d))))
                .collect(),
            size: j.size,
            float: j.output == PlainOutput::Rgba32f,
        })
        .collect();
    let json = serde_json::to_string(&page_jobs)
        .map_err(|e| ExperimentError::Invalid(format!("page JSON: {e}")))?
        // Nothing inside the script element may close it.
        .replace('<', "\\u003c");
    Ok(format!(
        "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>df64gl WebGL 2 export \
         check</title></head><body>\n<script id=\"jobs\" type=\"application/json\">{json}\
         </script>\n<script>{PAGE_SCRIPT}</script>\n</body></html>\n"
    ))
}

/// The text of the element with `id` in the dumped DOM, unescaped.
pub fn element_text<'a>(dom: &'a str, id: &str) -> Option<std::borrow::Cow<'a, str>> {
    element(dom, id).map(|(_, text)| text)
}

/// The start tag and the (unescaped) text of the element with `id` in serialized HTML.
pub fn element<'a>(dom: &'a str, id: &str) -> Option<(&'a str, std::borrow::Cow<'a, str>)> {
    let at = dom.find(&format!(" id=\"{id}\""))?;
    let open = dom[..at].rfind('<')?;
    let close = at + dom[at..].find('>')?;
    let text_end = close + 1 + dom[close + 1..].find('<').unwrap_or(0);
    Some((&dom[open..=close], unescape_html(&dom[close + 1..text_end])))
}

/// Text or an attribute value of serialized HTML with its entities decoded.
pub fn unescape_html(raw: &str) -> std::borrow::Cow<'_, str> {
    if raw.contains('&') {
        raw.replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&#39;", "'")
            .replace("&nbsp;", "\u{a0}")
            .replace("&amp;", "&")
            .into()
    } else {
        raw.into()
    }
}

/// Where the page ran and what each job returned, from the dumped DOM.
pub fn parse_dom(
    dom: &str,
    jobs: &[PlainJob],
) -> Result<(RanOn, Vec<PlainPixels>), ExperimentError> {
    if let Some(e) = element_text(dom, "error") {
        return Err(ExperimentError::Invalid(format!(
            "the WebGL 2 page failed: {e}"
        )));
    }
    if element_text(dom, "done").is_none() {
        return Err(ExperimentError::Invalid(
            "the WebGL 2 page did not finish (no result in the DOM Chromium dumped)".into(),
        ));
    }
    let text = |id: &str| {
        element_text(dom, id)
            .map(|t| t.into_owned())
            .unwrap_or_default()
    };
    let b64 = base64::engine::general_purpose::STANDARD;
    let mut outputs = Vec::new();
    for (k, job) in jobs.iter().enumerate() {
        let bytes = b64
            .decode(text(&format!("job{k}")).trim())
            .map_err(|e| ExperimentError::Invalid(format!("job {k}'s pixels: {e}")))?;
        let expected = (job.size.0 * job.size.1 * 4) as usize;
        outputs.push(match job.output {
            PlainOutput::Rgba8 if bytes.len() == expected => PlainPixels::Rgba8(bytes),
            PlainOutput::Rgba32f if bytes.len() == expected * 4 => PlainPixels::Rgba32f(
                bytes
                    .chunks_exact(4)
                    .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                    .collect(),
            ),
            _ => {
                return Err(ExperimentError::Invalid(format!(
                    "job {k}: {} bytes of pixels, expected {}",
                    bytes.len(),
                    expected
                )))
            }
        });
    }
    Ok((
        RanOn {
            renderer: text("renderer"),
            version: text("version"),
            glsl_version: text("glsl"),
        },
        outputs,
    ))
}

/// Loads `page` (a file, with an optional `?query`) in headless Chromium with `backend` and
/// returns the DOM after its script ran; `extra` are more Chromium flags (`--screenshot=...`).
pub fn run_page(
    chromium: &Path,
    backend: BrowserBackend,
    page: &Path,
    query: &str,
    extra: &[String],
) -> Result<String, ExperimentError> {
    run_url(
        chromium,
        backend,
        &format!("file://{}{query}", page.display()),
        extra,
    )
}

/// Loads `url` (file:// or http://) in headless Chromium with `backend` and returns the DOM
/// after its scripts ran; `extra` are more Chromium flags.
pub fn run_url(
    chromium: &Path,
    backend: BrowserBackend,
    url: &str,
    extra: &[String],
) -> Result<String, ExperimentError> {
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let profile = std::env::temp_dir().join(format!(
        "df64gl-chromium-{}-{}",
        std::process::id(),
        RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    let mut child = Command::new(chromium)
        .args(["--headless=new", "--no-sandbox", "--disable-gpu-sandbox", "--no-first-run"])
        // This machine's network is closed: no background connections to wait for.
        .args([
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-quic",
        ])
        .args(backend.flags())
        .args(extra)
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--dump-dom")
        .arg(url)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| {
            ExperimentError::Io(
                format!(
                    "starting {} (install Chromium: apt-get install chromium, or set {CHROMIUM_ENV})",
                    chromium.display()
                ),
                e,
            )
        })?;
    // Read both pipes on threads: the DOM is megabytes, and a full pipe would stall Chromium.
    let mut stdout = child.stdout.take();
    let mut stderr = child.stderr.take();
    let read = |p: Option<&mut dyn std::io::Read>| {
        let mut s = String::new();
        if let Some(p) = p {
            let _ = p.read_to_string(&mut s);
        }
        s
    };
    let (dom, log, status) = std::thread::scope(|scope| {
        let out = scope.spawn(|| read(stdout.as_mut().map(|p| p as &mut dyn std::io::Read)));
        let err = scope.spawn(|| read(stderr.as_mut().map(|p| p as &mut dyn std::io::Read)));
        let start = Instant::now();
        let status = loop {
            match child.try_wait() {
                Ok(Some(s)) => break Some(s),
                Ok(None) if start.elapsed() > PAGE_TIMEOUT => {
                    let _ = child.kill();
                    break None;
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(50)),
                Err(_) => break None,
            }
        };
        (
            out.join().unwrap_or_default(),
            err.join().unwrap_or_default(),
            status,
        )
    });
    let _ = std::fs::remove_dir_all(&profile);
    match status {
        Some(s) if s.success() => Ok(dom),
        Some(s) => Err(ExperimentError::Invalid(format!(
            "Chromium exited with {s}: {}",
            log.lines().rev().take(8).collect::<Vec<_>>().join(" | ")
        ))),
        None => Err(ExperimentError::Invalid(format!(
            "Chromium did not finish the page within {} s",
            PAGE_TIMEOUT.as_secs()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dom_round_trip() {
        let jobs = vec![PlainJob {
            source: "x < y".into(),
            inputs: vec![],
            size: (1, 1),
            output: PlainOutput::Rgba32f,
        }];
        let html = page(&jobs).unwrap();
        assert!(html.contains("x \\u003c y") && !html.contains("x < y"));
        let b64 = base64::engine::general_purpose::STANDARD;
        let px = b64.encode(bytemuck::cast_slice::<f32, u8>(&[1.0, -2.5, 0.0, 3.0]));
        let dom = format!(
            "<pre id=\"renderer\">A &amp; B</pre><pre id=\"job0\">{px}</pre><pre id=\"done\">1</pre>"
        );
        let (on, out) = parse_dom(&dom, &jobs).unwrap();
        assert_eq!(on.renderer, "A & B");
        match &out[0] {
            PlainPixels::Rgba32f(v) => assert_eq!(v, &[1.0, -2.5, 0.0, 3.0]),
            PlainPixels::Rgba8(_) => panic!("float expected"),
        }
        let e = parse_dom("<pre id=\"error\">compile: bad</pre>", &jobs).unwrap_err();
        assert!(e.to_string().contains("compile: bad"));
        assert!(parse_dom("", &jobs).is_err());
    }
}
