//! One connection to one Redis server: connect (TCP, TLS or unix socket),
//! log in, send packed commands and read replies with a timeout.

use std::io::{self, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::os::fd::{AsRawFd, RawFd};
use std::os::unix::net::UnixStream;
use std::path::PathBuf;
use std::time::Duration;

use redis::Value;

use super::error::{Cause, NodeError};
use super::server::{Addr, Server};

/// Timeouts and TLS settings in force for new connections.
#[derive(Clone, Debug, PartialEq)]
pub struct Limits {
    pub connect: Duration,
    pub read: Duration,
    /// PEM file of the CA that signs the servers' certificates (else the system store).
    pub tls_ca_file: Option<PathBuf>,
}

impl Default for Limits {
    fn default() -> Self {
        Self { connect: Duration::from_secs(1), read: Duration::from_secs(1), tls_ca_file: None }
    }
}

enum Stream {
    Tcp(TcpStream),
    Unix(UnixStream),
    Tls(Box<native_tls::TlsStream<TcpStream>>),
}

impl Stream {
    fn set_read_timeout(&self, t: Option<Duration>) -> io::Result<()> {
        match self {
            Stream::Tcp(s) => s.set_read_timeout(t),
            Stream::Unix(s) => s.set_read_timeout(t),
            Stream::Tls(s) => s.get_ref().set_read_timeout(t),
        }
    }

    fn set_write_timeout(&self, t: Option<Duration>) -> io::Result<()> {
        match self {
            Stream::Tcp(s) => s.set_write_timeout(t),
            Stream::Unix(s) => s.set_write_timeout(t),
            Stream::Tls(s) => s.get_ref().set_write_timeout(t),
        }
    }
}

impl Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Stream::Tcp(s) => s.read(buf),
            Stream::Unix(s) => s.read(buf),
            Stream::Tls(s) => s.read(buf),
        }
    }
}

impl Write for Stream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Stream::Tcp(s) => s.write(buf),
            // std sends with MSG_NOSIGNAL: a closed peer is an error, not SIGPIPE.
            Stream::Unix(s) => s.write(buf),
            Stream::Tls(s) => s.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Stream::Tcp(s) => s.flush(),
            Stream::Unix(s) => s.flush(),
            Stream::Tls(s) => s.flush(),
        }
    }
}

impl AsRawFd for Stream {
    fn as_raw_fd(&self) -> RawFd {
        match self {
            Stream::Tcp(s) => s.as_raw_fd(),
            Stream::Unix(s) => s.as_raw_fd(),
            Stream::Tls(s) => s.get_ref().as_raw_fd(),
        }
    }
}

pub struct Conn {
    stream: Stream,
    /// Bytes read but not yet consumed: replies are cut from here whole, so
    /// it is known when a reply is already in (poll() cannot see this buffer).
    buf: Vec<u8>,
    /// Where the socket is read into (allocated once: no zeroing per read).
    scratch: Box<[u8]>,
    label: String,
    read_timeout: Option<Duration>,
    /// Replies still on their way for commands whose answer nobody waited for
    /// (the round was decided without them); they are read and skipped, in
    /// order, before the next reply that counts.
    pub(crate) unread: usize,
}

impl Conn {
    /// Connects and logs in (AUTH, SELECT) within the limits.
    pub fn open(server: &Server, limits: &Limits) -> Result<Self, NodeError> {
        let label = server.to_string();
        let fail = |cause| NodeError::new(label.clone(), cause);
        let stream = match &server.addr {
            Addr::Tcp { host, port } => {
                let tcp = connect_tcp(host, *port, limits.connect).map_err(|e| fail(Cause::Connect(e)))?;
                if server.tls {
                    Stream::Tls(Box::new(
                        connect_tls(host, tcp, limits).map_err(|e| fail(Cause::Connect(e)))?,
                    ))
                } else {
                    Stream::Tcp(tcp)
                }
            }
            Addr::Unix(path) => {
                Stream::Unix(UnixStream::connect(path).map_err(|e| fail(Cause::Connect(e.to_string())))?)
            }
        };
        stream.set_write_timeout(Some(limits.read)).map_err(|e| fail(Cause::Connect(e.to_string())))?;
        let mut conn = Conn {
            stream,
            buf: Vec::with_capacity(512),
            scratch: vec![0; 4096].into_boxed_slice(),
            label,
            read_timeout: None,
            unread: 0,
        };
        conn.log_in(server, limits.read)?;
        Ok(conn)
    }

    fn log_in(&mut self, server: &Server, timeout: Duration) -> Result<(), NodeError> {
        if let Some(password) = &server.password {
            let mut auth = redis::cmd("AUTH");
            if let Some(user) = &server.user {
                auth.arg(user);
            }
            auth.arg(password);
            self.call(&auth.get_packed_command(), timeout).map_err(|e| match e.cause {
                Cause::Reply(msg) => NodeError::new(e.server, Cause::Auth(msg)),
                _ => e,
            })?;
        }
        if server.db != 0 {
            let select = redis::cmd("SELECT").arg(server.db).get_packed_command();
            self.call(&select, timeout).map_err(|e| match e.cause {
                Cause::Reply(msg) => {
                    NodeError::new(e.server, Cause::Reply(format!("SELECT {}: {msg}", server.db)))
                }
                _ => e,
            })?;
        }
        Ok(())
    }

    pub fn fd(&self) -> RawFd {
        self.stream.as_raw_fd()
    }

    fn error(&self, cause: Cause) -> NodeError {
        NodeError::new(self.label.clone(), cause)
    }

    pub fn send(&mut self, packed: &[u8]) -> Result<(), NodeError> {
        self.stream.write_all(packed).map_err(|e| self.error(Cause::Io(e.to_string())))
    }

    /// Whether the connection can take a command: the replies it still owes
    /// may have arrived (they are skipped here), but anything else readable
    /// means the server closed it (a restart, an idle timeout).
    pub fn still_open(&mut self) -> bool {
        let pending = |c: &Conn| readable(&[c.fd()], Duration::ZERO).first().copied().unwrap_or(true);
        while pending(self) || (self.unread > 0 && self.has_reply()) {
            if self.unread == 0 {
                return false;
            }
            match self.recv(Duration::from_millis(1)) {
                Ok(_) => self.unread -= 1,
                Err(e) if !e.breaks_connection() => self.unread -= 1,
                Err(_) => return false,
            }
        }
        true
    }

    /// Whether a whole reply is already buffered.
    pub fn has_reply(&self) -> bool {
        matches!(frame_len(&self.buf), Ok(Some(_)))
    }

    /// Reads one reply, waiting at most `timeout` for more bytes. An error
    /// reply comes back as `Cause::Reply` (`NOAUTH`/`WRONGPASS` as `Cause::Auth`).
    pub fn recv(&mut self, timeout: Duration) -> Result<Value, NodeError> {
        let len = loop {
            match frame_len(&self.buf) {
                Ok(Some(len)) => break len,
                Ok(None) => self.fill(timeout)?,
                Err(e) => return Err(self.error(Cause::Protocol(e))),
            }
        };
        let value = parse_reply(&self.buf[..len]);
        self.buf.drain(..len);
        match value {
            Ok(value) => Ok(value),
            Err(Reply::Error(msg)) => {
                let auth = msg.starts_with("NOAUTH") || msg.starts_with("WRONGPASS");
                Err(self.error(if auth { Cause::Auth(msg) } else { Cause::Reply(msg) }))
            }
            Err(Reply::Malformed(e)) => Err(self.error(Cause::Protocol(e))),
        }
    }

    /// Appends what the socket has (blocking up to `timeout` for the first byte).
    fn fill(&mut self, timeout: Duration) -> Result<(), NodeError> {
        let timeout = Some(timeout.max(Duration::from_micros(1)));
        if self.read_timeout != timeout {
            self.stream.set_read_timeout(timeout).map_err(|e| self.error(Cause::Io(e.to_string())))?;
            self.read_timeout = timeout;
        }
        match self.stream.read(&mut self.scratch) {
            Ok(0) => Err(self.error(Cause::Io("closed by the server".into()))),
            Ok(n) => {
                self.buf.extend_from_slice(&self.scratch[..n]);
                Ok(())
            }
            Err(e) if matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut) => {
                Err(self.error(Cause::Timeout(timeout.unwrap_or_default())))
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => Ok(()),
            Err(e) => Err(self.error(Cause::Io(e.to_string()))),
        }
    }

    /// One command, one reply.
    pub fn call(&mut self, packed: &[u8], timeout: Duration) -> Result<Value, NodeError> {
        self.send(packed)?;
        self.recv(timeout)
    }
}

enum Reply {
    Error(String),
    Malformed(String),
}

/// One whole reply (as cut by `frame_len`). The scalar replies that lock
/// commands get are decoded here directly; arrays go to the redis crate.
fn parse_reply(frame: &[u8]) -> Result<Value, Reply> {
    let body = &frame[1..frame.len() - 2];
    let text = || String::from_utf8_lossy(body).into_owned();
    match frame[0] {
        b'+' if body == b"OK" => Ok(Value::Okay),
        b'+' => Ok(Value::SimpleString(text())),
        b'-' => Err(Reply::Error(text())),
        b':' => std::str::from_utf8(body)
            .ok()
            .and_then(|n| n.parse().ok())
            .map(Value::Int)
            .ok_or_else(|| Reply::Malformed(format!("bad integer reply {:?}", text()))),
        b'$' if body.starts_with(b"-") => Ok(Value::Nil),
        b'$' => {
            let start = body.iter().position(|&b| b == b'\r').map_or(body.len(), |i| i + 2);
            Ok(Value::BulkString(body.get(start..).unwrap_or_default().to_vec()))
        }
        _ => redis::parse_redis_value(frame).map_err(|e| Reply::Malformed(e.to_string())),
    }
}

/// Length of the first whole RESP2 reply in `buf`, `None` while incomplete.
fn frame_len(buf: &[u8]) -> Result<Option<usize>, String> {
    fn line_end(buf: &[u8], from: usize) -> Option<usize> {
        buf.get(from..)?.windows(2).position(|w| w == b"\r\n").map(|i| from + i + 2)
    }
    fn number(buf: &[u8], from: usize, end: usize) -> Result<i64, String> {
        std::str::from_utf8(&buf[from..end - 2])
            .ok()
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| "malformed length in a reply".to_owned())
    }
    fn frame(buf: &[u8], at: usize) -> Result<Option<usize>, String> {
        let Some(&kind) = buf.get(at) else { return Ok(None) };
        let Some(end) = line_end(buf, at + 1) else { return Ok(None) };
        match kind {
            b'+' | b'-' | b':' => Ok(Some(end)),
            b'$' => match number(buf, at + 1, end)? {
                n if n < 0 => Ok(Some(end)),
                n => {
                    let total = end + n as usize + 2;
                    Ok((buf.len() >= total).then_some(total))
                }
            },
            b'*' => {
                let mut pos = end;
                for _ in 0..number(buf, at + 1, end)?.max(0) {
                    match frame(buf, pos)? {
                        Some(next) => pos = next,
                        None => return Ok(None),
                    }
                }
                Ok(Some(pos))
            }
            other => Err(format!("unexpected reply type byte 0x{other:02x}")),
        }
    }
    frame(buf, 0)
}

fn connect_tcp(host: &str, port: u16, timeout: Duration) -> Result<TcpStream, String> {
    let addrs = (host, port).to_socket_addrs().map_err(|e| format!("cannot resolve {host}: {e}"))?;
    let mut last = format!("{host} resolves to no address");
    for addr in addrs {
        match TcpStream::connect_timeout(&addr, timeout) {
            Ok(tcp) => {
                tcp.set_nodelay(true).map_err(|e| e.to_string())?;
                return Ok(tcp);
            }
            Err(e) if e.kind() == io::ErrorKind::TimedOut => {
                last = format!("timed out after {} s", timeout.as_secs_f64())
            }
            Err(e) => last = e.to_string(),
        }
    }
    Err(last)
}

fn connect_tls(host: &str, tcp: TcpStream, limits: &Limits) -> Result<native_tls::TlsStream<TcpStream>, String> {
    let mut builder = native_tls::TlsConnector::builder();
    if let Some(ca) = &limits.tls_ca_file {
        let pem = std::fs::read(ca).map_err(|e| format!("cannot read the CA file {}: {e}", ca.display()))?;
        let cert = native_tls::Certificate::from_pem(&pem)
            .map_err(|e| format!("the CA file {} is not PEM: {e}", ca.display()))?;
        builder.add_root_certificate(cert);
    }
    let connector = builder.build().map_err(|e| format!("TLS setup: {e}"))?;
    tcp.set_read_timeout(Some(limits.connect)).map_err(|e| e.to_string())?;
    connector.connect(host, tcp).map_err(|e| format!("TLS handshake: {e}"))
}

/// Which of `fds` can be read without blocking, waiting at most `timeout`.
pub fn readable(fds: &[RawFd], timeout: Duration) -> Vec<bool> {
    let mut polls: Vec<libc::pollfd> =
        fds.iter().map(|&fd| libc::pollfd { fd, events: libc::POLLIN, revents: 0 }).collect();
    // Round up so that a wait of 0.4 ms does not become a busy loop of 0 ms polls.
    let ms = timeout.as_micros().div_ceil(1000).min(i32::MAX as u128) as libc::c_int;
    loop {
        // SAFETY: `polls` is a valid array of `polls.len()` pollfd structures.
        let n = unsafe { libc::poll(polls.as_mut_ptr(), polls.len() as libc::nfds_t, ms) };
        if n >= 0 || io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
            break;
        }
    }
    polls.iter().map(|p| p.revents != 0).collect()
}

#[cfg(test)]
mod tests {
    use super::frame_len;

    #[test]
    fn frames_are_cut_whole() {
        assert_eq!(frame_len(b"+OK\r\n:1\r\n"), Ok(Some(5)));
        assert_eq!(frame_len(b"+OK\r"), Ok(None));
        assert_eq!(frame_len(b"$-1\r\n"), Ok(Some(5)));
        assert_eq!(frame_len(b"$3\r\na\r\n\r\n"), Ok(Some(9)));
        assert_eq!(frame_len(b"$3\r\na\r"), Ok(None));
        assert_eq!(frame_len(b"*2\r\n:1\r\n$1\r\nx\r\n+next"), Ok(Some(15)));
        assert_eq!(frame_len(b"*2\r\n:1\r\n"), Ok(None));
        assert_eq!(frame_len(b"-NOSCRIPT No matching script\r\n"), Ok(Some(30)));
        assert_eq!(frame_len(b""), Ok(None));
        assert!(frame_len(b"?x\r\n").is_err());
        assert!(frame_len(b"$x\r\n").is_err());
    }

    #[test]
    fn scalar_replies_are_decoded() {
        use super::{parse_reply, Reply};
        use redis::Value;
        assert_eq!(parse_reply(b"+OK\r\n").ok(), Some(Value::Okay));
        assert_eq!(parse_reply(b":1\r\n").ok(), Some(Value::Int(1)));
        assert_eq!(parse_reply(b"$-1\r\n").ok(), Some(Value::Nil));
        assert_eq!(parse_reply(b"$3\r\na\r\n\r\n").ok(), Some(Value::BulkString(b"a\r\n".to_vec())));
        assert!(matches!(parse_reply(b"-NOSCRIPT No script\r\n"), Err(Reply::Error(m)) if m == "NOSCRIPT No script"));
        assert_eq!(parse_reply(b"*1\r\n:2\r\n").ok(), Some(Value::Array(vec![Value::Int(2)])));
    }
}
