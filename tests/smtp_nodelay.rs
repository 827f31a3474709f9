//! The SMTP connections Despatch opens have `TCP_NODELAY` set (issue 15 point 2: without it
//! every mail waits ~40 ms for the server's delayed ACK before its final `.` goes out). The
//! option comes from the patched lettre in `vendor/lettre`; an update to a lettre release
//! without the fix would drop it without a word, so this test asks the kernel: it opens a
//! connection through `SmtpOutbox` to a small SMTP responder on loopback, finds that socket
//! among the process's own descriptors while lettre's pool keeps it open, and reads the option.
//! Its control reads the same option, by the same probe, from a socket left as the OS made it.

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::os::fd::BorrowedFd;
use std::sync::mpsc;

use despatch::config::SmtpConfig;
use despatch::mail::smtp::SmtpOutbox;
use nix::sys::socket::{SockaddrStorage, getpeername, getsockopt, sockopt};

/// Answers EHLO and NOOP on one connection and keeps it open until told to stop.
fn responder() -> (SocketAddr, mpsc::Sender<()>, std::thread::JoinHandle<()>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = mpsc::channel::<()>();
    let server = std::thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        let mut out = stream.try_clone().unwrap();
        out.write_all(b"220 probe ESMTP\r\n").unwrap();
        let mut lines = BufReader::new(stream);
        let mut line = String::new();
        while lines.read_line(&mut line).is_ok_and(|n| n > 0) {
            let verb = line.get(..4).unwrap_or("").to_ascii_uppercase();
            let reply: &[u8] = match verb.as_str() {
                "EHLO" => b"250 probe\r\n",
                "QUIT" => b"221 bye\r\n",
                _ => b"250 ok\r\n",
            };
            out.write_all(reply).unwrap();
            line.clear();
            if verb == "NOOP" {
                // lettre's pool keeps the connection: hold it until the probe has looked.
                let _ = stopped.recv();
                return;
            }
        }
    });
    (addr, stop, server)
}

/// `TCP_NODELAY` of every socket of this process connected to `peer`.
fn nodelay_to(peer: SocketAddr) -> Vec<bool> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc/self/fd").unwrap().flatten() {
        let Some(fd) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<i32>().ok())
        else {
            continue;
        };
        let is_socket = std::fs::read_link(entry.path())
            .is_ok_and(|t| t.to_string_lossy().starts_with("socket:"));
        if !is_socket {
            continue;
        }
        let Ok(addr) = getpeername::<SockaddrStorage>(fd) else {
            continue;
        };
        if addr
            .as_sockaddr_in()
            .map(|a| SocketAddr::from(std::net::SocketAddrV4::from(*a)))
            != Some(peer)
        {
            continue;
        }
        // SAFETY: the descriptor is open for as long as the responder holds its end (it waits
        // for `stop`), and it is only read here, never closed.
        #[allow(unsafe_code)]
        let borrowed = unsafe { BorrowedFd::borrow_raw(fd) };
        found.push(getsockopt(&borrowed, sockopt::TcpNoDelay).unwrap());
    }
    found
}

#[test]
fn smtp_connections_are_opened_with_tcp_nodelay() {
    let (addr, stop, server) = responder();
    let cfg: SmtpConfig = toml::from_str(&format!(
        "host = \"127.0.0.1\"\nport = {}\nsecurity = \"none\"\n",
        addr.port()
    ))
    .unwrap();
    let outbox = SmtpOutbox::new(&cfg, None).unwrap();
    assert!(
        outbox.test_connection().unwrap(),
        "the responder answered NOOP"
    );
    let seen = nodelay_to(addr);
    stop.send(()).unwrap();
    server.join().unwrap();
    assert_eq!(seen, vec![true], "the SMTP connection's TCP_NODELAY");
}

#[test]
fn the_probe_sees_a_socket_without_tcp_nodelay() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let plain = TcpStream::connect(addr).unwrap();
    let (_held, _) = listener.accept().unwrap();
    assert_eq!(nodelay_to(addr), vec![false]);
    plain.set_nodelay(true).unwrap();
    assert_eq!(nodelay_to(addr), vec![true]);
}
