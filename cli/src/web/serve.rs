//! A static HTTP server on 127.0.0.1 for pages that use ES modules (browsers refuse module
//! imports from file://): it serves the files under one folder, plus files held in memory,
//! with the content types browsers insist on for scripts. For the tests and the examples' runs,
//! not for the open network: GET only, no ranges, one thread per connection.
//!
//! A page whose work is asynchronous (WebGPU) holds its document's load event, and so
//! Chromium's `--dump-dom`, with `<img src="/__df64gl/wait">`: the server answers that request
//! only after the page has sent `POST /__df64gl/done` (or after [`WAIT_LIMIT`]).

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use crate::error::ExperimentError;

/// The request a page holds its load event with.
pub const WAIT_PATH: &str = "/__df64gl/wait";
/// The request that releases it.
pub const DONE_PATH: &str = "/__df64gl/done";
/// Where a page POSTs a report (the repro page's `?report=`): the server keeps the last body.
pub const REPORT_PATH: &str = "/__df64gl/report";
/// The largest report body kept.
const REPORT_LIMIT: usize = 64 << 20;
/// How long a held load event waits for the page at most: under the browser's own limit
/// (`browser::PAGE_TIMEOUT`, 600 s). checkWebGPU of every routine with qf128 on SwiftShader took
/// 200 s alone and over 240 s beside the other wgsl tests (2026-11-27): the limit is a safety
/// net for a page that never reports, not a bound on a slow one.
pub const WAIT_LIMIT: Duration = Duration::from_secs(540);

/// Whether the page said it is done, and a way to wait for it.
type Done = Arc<(Mutex<bool>, Condvar)>;
/// The last body POSTed to [`REPORT_PATH`].
type Report = Arc<Mutex<Option<Vec<u8>>>>;

/// A running server; it stops when dropped.
pub struct StaticServer {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    report: Report,
}

fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("js") | Some("mjs") => "text/javascript; charset=utf-8",
        Some("json") | Some("map") => "application/json",
        Some("css") => "text/css",
        Some("png") => "image/png",
        Some("wasm") => "application/wasm",
        _ => "text/plain; charset=utf-8",
    }
}

/// The file under `root` for a URL path, or `None` for one that leaves it.
fn resolve(root: &Path, url_path: &str) -> Option<PathBuf> {
    let path = url_path.split(['?', '#']).next()?;
    let mut out = root.to_path_buf();
    for c in Path::new(path.trim_start_matches('/')).components() {
        match c {
            Component::Normal(p) => out.push(p),
            Component::CurDir => {}
            _ => return None,
        }
    }
    if out.is_dir() {
        out.push("index.html");
    }
    Some(out)
}

fn respond(
    mut stream: TcpStream,
    root: &Path,
    memory: &HashMap<String, Vec<u8>>,
    done: &Done,
    report: &Report,
) -> std::io::Result<()> {
    let mut line = String::new();
    let mut reader = BufReader::new(stream.try_clone()?);
    reader.read_line(&mut line)?;
    // The headers: only the body's length matters.
    let mut header = String::new();
    let mut length = 0usize;
    while reader.read_line(&mut header)? > 2 {
        if let Some((name, value)) = header.split_once(':') {
            if name.trim().eq_ignore_ascii_case("content-length") {
                length = value.trim().parse().unwrap_or(0);
            }
        }
        header.clear();
    }
    let mut parts = line.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or("/"));
    let path = target.split(['?', '#']).next().unwrap_or("/");
    let (flag, wake) = &**done;
    if method == "POST" && path == REPORT_PATH {
        if length > REPORT_LIMIT {
            return write!(
                stream,
                "HTTP/1.1 413 Payload Too Large\r\nConnection: close\r\n\r\n"
            );
        }
        let mut body = vec![0u8; length];
        std::io::Read::read_exact(&mut reader, &mut body)?;
        if let Ok(mut r) = report.lock() {
            *r = Some(body);
        }
        return write!(
            stream,
            "HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n"
        );
    }
    if method == "POST" && path == DONE_PATH {
        if let Ok(mut d) = flag.lock() {
            *d = true;
        }
        wake.notify_all();
        return write!(
            stream,
            "HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n"
        );
    }
    if method == "GET" && path == WAIT_PATH {
        if let Ok(d) = flag.lock() {
            let _ = wake.wait_timeout_while(d, WAIT_LIMIT, |d| !*d);
        }
        return write!(
            stream,
            "HTTP/1.1 204 No Content\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n"
        );
    }
    let body = if method != "GET" {
        None
    } else if let Some(bytes) = memory.get(path) {
        Some(bytes.clone())
    } else {
        resolve(root, path).and_then(|p| std::fs::read(p).ok())
    };
    match body {
        Some(b) => {
            write!(
                stream,
                "HTTP/1.1 200 OK\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
                content_type(path),
                b.len()
            )?;
            stream.write_all(&b)?;
        }
        None => {
            let msg = format!("not found: {path}\n");
            write!(
                stream,
                "HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{msg}",
                msg.len()
            )?;
        }
    }
    stream.flush()
}

impl StaticServer {
    /// Serves `root` and `memory` (URL path, starting with '/', to bytes) on a free port.
    pub fn start(root: &Path, memory: HashMap<String, Vec<u8>>) -> Result<Self, ExperimentError> {
        let listener = TcpListener::bind("127.0.0.1:0")
            .map_err(|e| ExperimentError::Io("binding 127.0.0.1 for the page server".into(), e))?;
        let addr = listener
            .local_addr()
            .map_err(|e| ExperimentError::Io("the page server's address".into(), e))?;
        let stop = Arc::new(AtomicBool::new(false));
        let (root, memory, flag) = (root.to_path_buf(), Arc::new(memory), stop.clone());
        let done: Done = Arc::new((Mutex::new(false), Condvar::new()));
        let report: Report = Arc::new(Mutex::new(None));
        let posted = report.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                if flag.load(Ordering::Relaxed) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let (root, memory, done) = (root.clone(), memory.clone(), done.clone());
                let report = posted.clone();
                std::thread::spawn(move || {
                    let _ = respond(stream, &root, &memory, &done, &report);
                });
            }
        });
        Ok(StaticServer { addr, stop, report })
    }

    /// The last body a page POSTed to [`REPORT_PATH`], if any.
    pub fn report(&self) -> Option<Vec<u8>> {
        self.report.lock().ok().and_then(|r| r.clone())
    }

    /// The URL of a path on this server (`/js/examples/webgl2.html`).
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }
}

impl Drop for StaticServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        // Wake the accept loop so it sees the flag.
        let _ = TcpStream::connect(self.addr);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn serves_files_and_memory_and_refuses_to_leave_the_root() {
        let dir = std::env::temp_dir().join(format!("df64gl-serve-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("a.js"), "export const A = 1;").unwrap();
        let mut memory = HashMap::new();
        memory.insert("/m.txt".to_string(), b"held".to_vec());
        let server = StaticServer::start(&dir, memory).unwrap();
        let get = |path: &str| {
            let mut s = TcpStream::connect(server.addr).unwrap();
            write!(s, "GET {path} HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
            let mut out = String::new();
            s.read_to_string(&mut out).unwrap();
            out
        };
        let js = get("/a.js?x=1");
        assert!(js.starts_with("HTTP/1.1 200") && js.contains("text/javascript"));
        assert!(js.ends_with("export const A = 1;"));
        assert!(get("/m.txt").ends_with("held"));
        assert!(get("/../etc/passwd").starts_with("HTTP/1.1 404"));
        assert!(get("/missing.js").starts_with("HTTP/1.1 404"));
        // The held request is answered once the page says it is done, not before.
        let waiter = std::thread::spawn({
            let addr = server.addr;
            move || {
                let t = std::time::Instant::now();
                let mut s = TcpStream::connect(addr).unwrap();
                write!(s, "GET {WAIT_PATH} HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
                let mut out = String::new();
                s.read_to_string(&mut out).unwrap();
                (out, t.elapsed())
            }
        });
        std::thread::sleep(Duration::from_millis(300));
        let mut s = TcpStream::connect(server.addr).unwrap();
        write!(
            s,
            "POST {DONE_PATH} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n"
        )
        .unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        assert!(out.starts_with("HTTP/1.1 204"));
        let (held, waited) = waiter.join().unwrap();
        assert!(held.starts_with("HTTP/1.1 204") && waited >= Duration::from_millis(250));
        // A report is kept whole, the last one wins.
        assert_eq!(server.report(), None);
        for body in ["{\"first\":1}", "{\"tables\":[]}"] {
            let mut s = TcpStream::connect(server.addr).unwrap();
            write!(
                s,
                "POST {REPORT_PATH} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
                body.len()
            )
            .unwrap();
            let mut out = String::new();
            s.read_to_string(&mut out).unwrap();
            assert!(out.starts_with("HTTP/1.1 204"), "{out}");
        }
        assert_eq!(server.report().as_deref(), Some(&b"{\"tables\":[]}"[..]));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
