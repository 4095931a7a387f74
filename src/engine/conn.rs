//! One connection to one Redis server: connect (TCP, TLS or unix socket),
//! log in, send packed commands and read replies with a timeout.

use std::io::{self, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::os::fd::{AsRawFd, RawFd};
use std::os::unix::net::UnixStream;
use std::path::PathBuf;
use std::time::Duration;

use redis::{Parser, Value};

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
    parser: Parser,
    label: String,
    read_timeout: Option<Duration>,
    /// Replies still on their way for commands whose answer nobody waited for.
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
        let mut conn = Conn { stream, parser: Parser::new(), label, read_timeout: None, unread: 0 };
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

    pub fn label(&self) -> &str {
        &self.label
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

    /// Reads one reply, waiting at most `timeout`. An error reply comes back
    /// as `Cause::Reply` (with `NOAUTH`/`WRONGPASS` as `Cause::Auth`).
    pub fn recv(&mut self, timeout: Duration) -> Result<Value, NodeError> {
        let timeout = Some(timeout.max(Duration::from_micros(1)));
        if self.read_timeout != timeout {
            self.stream.set_read_timeout(timeout).map_err(|e| self.error(Cause::Io(e.to_string())))?;
            self.read_timeout = timeout;
        }
        match self.parser.parse_value(&mut self.stream) {
            Ok(Value::ServerError(err)) => {
                let msg = format!("{} {}", err.code(), err.details().unwrap_or("")).trim_end().to_owned();
                let auth = msg.starts_with("NOAUTH") || msg.starts_with("WRONGPASS");
                Err(self.error(if auth { Cause::Auth(msg) } else { Cause::Reply(msg) }))
            }
            Ok(value) => Ok(value),
            Err(e) if e.is_timeout() => Err(self.error(Cause::Timeout(timeout.unwrap_or_default()))),
            Err(e) if e.is_io_error() || e.is_connection_dropped() => Err(self.error(Cause::Io(e.to_string()))),
            // The decoder reports a closed socket as an unexpected end of input.
            Err(e) if e.to_string().contains("end of input") || e.to_string().contains("EOF") => {
                Err(self.error(Cause::Io("closed by the server".into())))
            }
            Err(e) => Err(self.error(Cause::Protocol(e.to_string()))),
        }
    }

    /// One command, one reply.
    pub fn call(&mut self, packed: &[u8], timeout: Duration) -> Result<Value, NodeError> {
        self.send(packed)?;
        self.recv(timeout)
    }

    /// Reads the replies of abandoned commands if they are already here;
    /// false when one is still missing (the connection is then not reusable).
    pub fn drain(&mut self, timeout: Duration) -> bool {
        while self.unread > 0 {
            if !readable(&[self.fd()], Duration::ZERO).first().copied().unwrap_or(false) {
                return false;
            }
            match self.recv(timeout) {
                Ok(_) => {}
                Err(e) if !e.breaks_connection() => {}
                Err(_) => return false,
            }
            self.unread -= 1;
        }
        true
    }
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
