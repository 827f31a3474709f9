//! `despatch listen`: the receiver of one-click unsubscriptions (RFC 8058, docs/club-rules.md
//! L1), a small HTTP/1.1 server meant to sit behind the club's TLS reverse proxy. A POST of
//! `List-Unsubscribe=One-Click` to `<path>/<code>` only queues the code (an empty file under
//! `<data>/unsubscribe/`, see `store::one_click`); the daemon's next pass carries it out. It
//! must not read or change a game, take the daemon's lock, unsubscribe on a GET (link scanners
//! follow GETs), or log a code (its first 4 hex digits at most). Requests are parsed by
//! `httparse`; this module bounds what is read: size, time and connections.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use tracing::{debug, error, info, warn};

use crate::store::{DataDir, is_unsubscribe_code};

/// What one connection may cost. A request is one POST of a few dozen bytes, so every bound
/// is far above what a mail provider sends and far below what would hold the server.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// The request line, the headers and the body together.
    pub max_request: usize,
    /// The body alone (RFC 8058's is 26 bytes; a multipart form a few hundred).
    pub max_body: usize,
    /// The longest wait for one read.
    pub read_timeout: Duration,
    /// The longest a whole request may take to arrive (a client trickling bytes is cut off).
    pub deadline: Duration,
    /// Connections served at once; one more is answered 503 at once and closed.
    pub max_connections: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_request: 8 * 1024,
            max_body: 4 * 1024,
            read_timeout: Duration::from_secs(5),
            deadline: Duration::from_secs(10),
            max_connections: 32,
        }
    }
}

/// What the listener serves: the path of `[web] unsubscribe_url` (codes come after it), the
/// data folder it queues into, and its limits.
#[derive(Debug, Clone)]
pub struct Site {
    pub base_path: String,
    pub data: DataDir,
    pub limits: Limits,
}

/// The path part of the public URL (`https://club.example/despatch/stop` → `/despatch/stop`),
/// without a trailing `/`: the reverse proxy passes the path on unchanged.
pub fn base_path(url: &str) -> String {
    let rest = url.split_once("://").map(|(_, r)| r).unwrap_or(url);
    match rest.find('/') {
        Some(i) => rest[i..].trim_end_matches('/').to_string(),
        None => String::new(),
    }
}

/// What to do with one whole request. Pure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// A one-click POST: queue the code, answer 200.
    Queue(String),
    /// A GET (or HEAD) of a code's URL: the page with the button; nothing queued.
    Page { head: bool },
    /// Anything else: this status and a short reason; nothing queued.
    Refuse(u16, &'static str),
}

/// The code a request target names, if it is `<base>/<code>` (or `<base>?u=<code>`, the form
/// mails carried before the listener existed).
fn code_in(target: &str, base: &str) -> Option<String> {
    let rest = target.strip_prefix(base)?;
    let code = rest
        .strip_prefix('/')
        .or_else(|| rest.strip_prefix("?u="))?
        .to_ascii_lowercase();
    is_unsubscribe_code(&code).then_some(code)
}

/// Whether `body` (of type `content_type`) is RFC 8058's one-click form: the field
/// `List-Unsubscribe` with the value `One-Click`, url-encoded (§3.1) or as multipart/form-data.
fn one_click_body(content_type: Option<&str>, body: &[u8]) -> Result<bool, (u16, &'static str)> {
    let Ok(body) = std::str::from_utf8(body) else {
        return Ok(false);
    };
    let ct = content_type.unwrap_or("application/x-www-form-urlencoded");
    let (kind, params) = ct.split_once(';').unwrap_or((ct, ""));
    match kind.trim().to_ascii_lowercase().as_str() {
        "application/x-www-form-urlencoded" => Ok(body
            .trim_end()
            .split('&')
            .any(|pair| pair == "List-Unsubscribe=One-Click")),
        "multipart/form-data" => {
            let Some(boundary) = params.split(';').find_map(|p| {
                let (k, v) = p.split_once('=')?;
                k.trim()
                    .eq_ignore_ascii_case("boundary")
                    .then(|| v.trim().trim_matches('"'))
            }) else {
                return Err((400, "a multipart form needs a boundary"));
            };
            if boundary.is_empty() || boundary.len() > 70 {
                return Err((400, "a multipart boundary is 1 to 70 characters (RFC 2046)"));
            }
            let delimiter = format!("--{boundary}");
            Ok(body.split(delimiter.as_str()).any(|part| {
                let part = part.strip_prefix("\r\n").unwrap_or(part);
                let Some((head, value)) = part
                    .split_once("\r\n\r\n")
                    .or_else(|| part.split_once("\n\n"))
                else {
                    return false;
                };
                let named = head.lines().any(|l| {
                    let (name, v) = l.split_once(':').unwrap_or(("", ""));
                    name.trim().eq_ignore_ascii_case("content-disposition")
                        && v.split(';')
                            .any(|p| p.trim() == "name=\"List-Unsubscribe\"")
                });
                named && value.trim_end() == "One-Click"
            }))
        }
        _ => Err((415, "send the form as application/x-www-form-urlencoded")),
    }
}

/// What a whole request asks, from its method, target, content type and body. Pure.
pub fn decide(
    method: &str,
    target: &str,
    content_type: Option<&str>,
    body: &[u8],
    base: &str,
) -> Action {
    let Some(code) = code_in(target, base) else {
        return Action::Refuse(404, "no such page");
    };
    match method {
        "GET" => Action::Page { head: false },
        "HEAD" => Action::Page { head: true },
        "POST" => match one_click_body(content_type, body) {
            Ok(true) => Action::Queue(code),
            Ok(false) => Action::Refuse(
                400,
                "not a one-click unsubscription: the body must be List-Unsubscribe=One-Click",
            ),
            Err((status, why)) => Action::Refuse(status, why),
        },
        _ => Action::Refuse(405, "only GET and POST"),
    }
}

/// The page a GET shows: one button that POSTs the one-click form to the same URL. Carries no
/// code (the URL does) and loads nothing.
const PAGE: &str = "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width\"><title>Unsubscribe</title></head>\n\
<body><h1>Stop these mails?</h1>\n<p>Press the button to stop the mails this link came with. \
A player still gets the mails that ask for orders (write RESIGN to leave a game); a \
spectator gets nothing more.</p>\n<form method=\"post\"><input type=\"hidden\" \
name=\"List-Unsubscribe\" value=\"One-Click\"><button type=\"submit\">Unsubscribe</button>\
</form></body></html>\n";

const DONE: &str = "Unsubscribed: it is carried out within minutes. A player still gets the \
mails that ask for orders (write RESIGN to leave a game); a spectator gets nothing more.\n";

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        411 => "Length Required",
        413 => "Content Too Large",
        415 => "Unsupported Media Type",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "Error",
    }
}

/// One whole response, closing the connection. `Referrer-Policy` keeps the code in the URL
/// from leaving with a click; the page may load nothing and post only to its own site.
fn response(status: u16, content_type: &str, body: &str, head: bool) -> Vec<u8> {
    let mut out = format!(
        "HTTP/1.1 {status} {}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\
         Connection: close\r\nCache-Control: no-store\r\nReferrer-Policy: no-referrer\r\n\
         X-Content-Type-Options: nosniff\r\nContent-Security-Policy: default-src 'none'; \
         form-action 'self'; frame-ancestors 'none'\r\n",
        reason(status),
        body.len()
    );
    if status == 405 {
        out.push_str("Allow: GET, HEAD, POST\r\n");
    }
    out.push_str("\r\n");
    let mut out = out.into_bytes();
    if !head {
        out.extend_from_slice(body.as_bytes());
    }
    out
}

fn text(status: u16, body: &str) -> Vec<u8> {
    response(status, "text/plain; charset=utf-8", body, false)
}

/// One connection being served; dropping it frees its place.
struct Done(Arc<AtomicUsize>);

impl Drop for Done {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Serves `listener` until the process ends. A connection is served on a thread of its own
/// (at most `max_connections` at once); nothing one request does stops the server.
pub fn serve(listener: TcpListener, site: Site) {
    let site = Arc::new(site);
    let busy = Arc::new(AtomicUsize::new(0));
    for conn in listener.incoming() {
        let mut stream = match conn {
            Ok(s) => s,
            Err(e) => {
                // Out of file descriptors and the like: wait a little and go on.
                warn!("accepting a connection failed: {e}");
                std::thread::sleep(Duration::from_millis(100));
                continue;
            }
        };
        if busy.fetch_add(1, Ordering::SeqCst) >= site.limits.max_connections {
            busy.fetch_sub(1, Ordering::SeqCst);
            let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
            let _ = stream.write_all(&text(503, "busy; try again in a minute\n"));
            continue;
        }
        // Counted down however the connection ends: a panic, or no thread to run it (the
        // closure, and this with it, is then dropped unrun).
        let done = Done(busy.clone());
        let site = site.clone();
        let spawned = std::thread::Builder::new()
            .name("listen-conn".into())
            .spawn(move || {
                let _done = done;
                let answer = handle(&mut stream, &site);
                let _ = stream.write_all(&answer);
                let _ = stream.flush();
                linger(&mut stream, site.limits);
            });
        if let Err(e) = spawned {
            error!("no thread for a connection: {e}");
        }
    }
}

/// Reads one request from `stream` within the limits and says what to answer.
fn handle(stream: &mut TcpStream, site: &Site) -> Vec<u8> {
    let limits = site.limits;
    let started = Instant::now();
    let _ = stream.set_read_timeout(Some(limits.read_timeout));
    let _ = stream.set_write_timeout(Some(limits.read_timeout));
    let mut buf = Vec::with_capacity(1024);
    let mut chunk = [0u8; 1024];
    // The request line and headers.
    let (head_len, method, target, content_type, length) = loop {
        let mut headers = [httparse::EMPTY_HEADER; 32];
        let mut req = httparse::Request::new(&mut headers);
        match req.parse(&buf) {
            Ok(httparse::Status::Complete(n)) => {
                let header = |name: &str| {
                    req.headers
                        .iter()
                        .find(|h| h.name.eq_ignore_ascii_case(name))
                        .map(|h| String::from_utf8_lossy(h.value).trim().to_string())
                };
                if header("transfer-encoding").is_some() {
                    return text(411, "send the body with a Content-Length\n");
                }
                let length = match header("content-length").map(|v| v.parse::<usize>()) {
                    None => None,
                    Some(Ok(n)) => Some(n),
                    Some(Err(_)) => return text(400, "a bad Content-Length\n"),
                };
                break (
                    n,
                    req.method.unwrap_or("").to_string(),
                    req.path.unwrap_or("").to_string(),
                    header("content-type"),
                    length,
                );
            }
            Ok(httparse::Status::Partial) => {}
            Err(httparse::Error::TooManyHeaders) => return text(431, "too many headers\n"),
            Err(_) => return text(400, "not an HTTP request\n"),
        }
        if buf.len() >= limits.max_request {
            return text(431, "the request is too large\n");
        }
        match read_some(stream, &mut chunk, started, limits) {
            Ok(0) => return text(400, "the request ended early\n"),
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(status) => return text(status, "the request took too long\n"),
        }
    };
    let length = match (method.as_str(), length) {
        ("POST", None) => return text(411, "send the body with a Content-Length\n"),
        (_, n) => n.unwrap_or(0),
    };
    if length > limits.max_body || head_len + length > limits.max_request {
        return text(413, "the body is too large\n");
    }
    while buf.len() < head_len + length {
        match read_some(stream, &mut chunk, started, limits) {
            Ok(0) => return text(400, "the body ended early\n"),
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(status) => return text(status, "the request took too long\n"),
        }
    }
    let body = &buf[head_len..head_len + length];
    match decide(
        &method,
        &target,
        content_type.as_deref(),
        body,
        &site.base_path,
    ) {
        Action::Queue(code) => match site.data.queue_unsubscribe(&code) {
            Ok(true) => {
                info!(code = &code[..4], "one-click unsubscription queued");
                text(200, DONE)
            }
            Ok(false) => {
                warn!("one-click queue full: refused (the daemon is not running?)");
                text(503, "busy; try again in a minute\n")
            }
            Err(e) => {
                error!("queueing a one-click unsubscription failed: {e}");
                text(500, "not done; try again later\n")
            }
        },
        Action::Page { head } => response(200, "text/html; charset=utf-8", PAGE, head),
        Action::Refuse(status, why) => {
            // The target is not logged: it may hold a code.
            debug!(status, "request refused");
            text(status, &format!("{why}\n"))
        }
    }
}

/// After the answer: stop writing and read what the client still sends (bounded in bytes
/// and time) before closing, so a refused oversize request gets its answer rather than a
/// reset that would drop it.
fn linger(stream: &mut TcpStream, limits: Limits) {
    let _ = stream.shutdown(std::net::Shutdown::Write);
    let started = Instant::now();
    let mut chunk = [0u8; 4096];
    let mut drained = 0usize;
    while drained < 1024 * 1024 {
        match read_some(stream, &mut chunk, started, limits) {
            Ok(n) if n > 0 => drained += n,
            _ => break,
        }
    }
}

/// One read within the request's deadline: `Err(408)` when it has passed or a read timed out.
fn read_some(
    stream: &mut TcpStream,
    chunk: &mut [u8],
    started: Instant,
    limits: Limits,
) -> Result<usize, u16> {
    let left = limits.deadline.saturating_sub(started.elapsed());
    if left.is_zero() {
        return Err(408);
    }
    let _ = stream.set_read_timeout(Some(left.min(limits.read_timeout)));
    match stream.read(chunk) {
        Ok(n) => Ok(n),
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
            ) =>
        {
            Err(408)
        }
        Err(_) => Err(400),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CODE: &str = "0123456789abcdef0123456789abcdef";

    #[test]
    fn the_base_path_is_the_urls_path() {
        assert_eq!(
            base_path("https://club.example/despatch/stop"),
            "/despatch/stop"
        );
        assert_eq!(base_path("https://club.example/stop/"), "/stop");
        assert_eq!(base_path("https://club.example"), "");
    }

    #[test]
    fn only_a_one_click_post_to_a_codes_url_queues() {
        let form = Some("application/x-www-form-urlencoded");
        let post = |target: &str, ct: Option<&str>, body: &str| {
            decide("POST", target, ct, body.as_bytes(), "/stop")
        };
        let ok = "List-Unsubscribe=One-Click";
        assert_eq!(
            post(&format!("/stop/{CODE}"), form, ok),
            Action::Queue(CODE.into())
        );
        assert_eq!(
            post(&format!("/stop?u={CODE}"), form, ok),
            Action::Queue(CODE.into())
        );
        assert_eq!(
            post(
                &format!("/stop/{CODE}"),
                None,
                "a=b&List-Unsubscribe=One-Click\r\n"
            ),
            Action::Queue(CODE.into())
        );
        // One token off: another path, a short code, another value, another type.
        assert!(matches!(
            post(&format!("/stops/{CODE}"), form, ok),
            Action::Refuse(404, _)
        ));
        assert!(matches!(
            post(&format!("/stop/{}", &CODE[1..]), form, ok),
            Action::Refuse(404, _)
        ));
        assert!(matches!(
            post(&format!("/stop/{CODE}/x"), form, ok),
            Action::Refuse(404, _)
        ));
        assert!(matches!(
            post(
                &format!("/stop/{CODE}"),
                form,
                "List-Unsubscribe=One-Clicks"
            ),
            Action::Refuse(400, _)
        ));
        assert!(matches!(
            post(&format!("/stop/{CODE}"), form, ""),
            Action::Refuse(400, _)
        ));
        assert!(matches!(
            post(&format!("/stop/{CODE}"), Some("application/json"), ok),
            Action::Refuse(415, _)
        ));
        // GET never queues; other methods are refused.
        assert_eq!(
            decide("GET", &format!("/stop/{CODE}"), None, b"", "/stop"),
            Action::Page { head: false }
        );
        assert!(matches!(
            decide("DELETE", &format!("/stop/{CODE}"), None, b"", "/stop"),
            Action::Refuse(405, _)
        ));
    }

    #[test]
    fn the_form_may_come_as_multipart() {
        let body = "--XyZ\r\nContent-Disposition: form-data; name=\"List-Unsubscribe\"\r\n\r\nOne-Click\r\n--XyZ--\r\n";
        let target = format!("/stop/{CODE}");
        let post =
            |ct: &str, body: &str| decide("POST", &target, Some(ct), body.as_bytes(), "/stop");
        assert_eq!(
            post("multipart/form-data; boundary=XyZ", body),
            Action::Queue(CODE.into())
        );
        assert_eq!(
            post("multipart/form-data; boundary=\"XyZ\"", body),
            Action::Queue(CODE.into())
        );
        assert!(matches!(
            post("multipart/form-data; boundary=Other", body),
            Action::Refuse(400, _)
        ));
        assert!(matches!(
            post("multipart/form-data", body),
            Action::Refuse(400, _)
        ));
        let other = body.replace("name=\"List-Unsubscribe\"", "name=\"Other\"");
        assert!(matches!(
            post("multipart/form-data; boundary=XyZ", &other),
            Action::Refuse(400, _)
        ));
    }
}
