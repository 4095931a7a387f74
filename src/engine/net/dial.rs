//! Opening a connection without blocking. Resolving, the TCP or unix connect
//! and the TLS handshake each advance only when poll() says so, so that every
//! node of a round connects at the same time, each within its own deadline.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, Read, Write};
use std::net::{IpAddr, SocketAddr, ToSocketAddrs};
use std::os::fd::{AsRawFd, RawFd};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use native_tls::{HandshakeError, MidHandshakeTlsStream, TlsConnector, TlsStream};
use socket2::{Domain, SockAddr, Socket, Type};

use super::dsn::Addr;

/// A connected socket, in blocking mode, used without blocking: reads and
/// writes pass MSG_DONTWAIT, except `recv_waiting`, which lets a lone wait
/// happen in recv(2) itself (one system call instead of poll + read).
/// Writes never raise SIGPIPE: a closed peer is an error.
pub struct Sock {
    socket: Socket,
    /// SO_RCVTIMEO as last set (zero: never set).
    wait: Duration,
}

impl Sock {
    fn new(socket: Socket) -> io::Result<Self> {
        socket.set_nonblocking(false)?;
        Ok(Self { socket, wait: Duration::ZERO })
    }

    /// Reads, waiting at most about `left` for the first byte. The receive
    /// timeout is only changed when it is off by more than a millisecond,
    /// so that the usual wait (a whole reply timeout) costs no extra call.
    pub fn recv_waiting(&mut self, buf: &mut [u8], left: Duration) -> io::Result<usize> {
        let left = left.max(Duration::from_micros(1));
        if self.wait.abs_diff(left) > Duration::from_millis(1) {
            self.socket.set_read_timeout(Some(left))?;
            self.wait = left;
        }
        self.socket.read(buf)
    }
}

fn recv(socket: &Socket, buf: &mut [u8]) -> io::Result<usize> {
    // SAFETY: `buf` is valid for `buf.len()` writable bytes.
    let n = unsafe { libc::recv(socket.as_raw_fd(), buf.as_mut_ptr().cast(), buf.len(), libc::MSG_DONTWAIT) };
    if n < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(n as usize)
}

impl Read for Sock {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        recv(&self.socket, buf)
    }
}

impl Write for Sock {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.socket.send_with_flags(buf, libc::MSG_NOSIGNAL | libc::MSG_DONTWAIT)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// An open connection, in non-blocking mode.
pub enum Stream {
    Plain(Sock),
    Tls(Box<TlsStream<Sock>>),
}

impl Stream {
    /// Whether the stream may hold decrypted bytes that poll() cannot see.
    pub fn buffers_internally(&self) -> bool {
        matches!(self, Stream::Tls(_))
    }

    /// The peer's address, as a last-resort identity of the server.
    pub fn peer(&self) -> String {
        let sock = match self {
            Stream::Plain(s) => &s.socket,
            Stream::Tls(s) => &s.get_ref().socket,
        };
        match sock.peer_addr() {
            Ok(addr) => match (addr.as_socket(), addr.as_pathname()) {
                (Some(ip), _) => ip.to_string(),
                (None, Some(path)) => path.display().to_string(),
                _ => "unknown".into(),
            },
            Err(_) => "unknown".into(),
        }
    }
}

impl Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Stream::Plain(s) => s.read(buf),
            Stream::Tls(s) => s.read(buf),
        }
    }
}

impl Write for Stream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Stream::Plain(s) => s.write(buf),
            Stream::Tls(s) => s.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl AsRawFd for Stream {
    fn as_raw_fd(&self) -> RawFd {
        match self {
            Stream::Plain(s) => s.socket.as_raw_fd(),
            Stream::Tls(s) => s.get_ref().socket.as_raw_fd(),
        }
    }
}

/// What a dialer waits for next: readiness of `fd` (none when -1), or the
/// time `retry_at`, whichever comes first.
#[derive(Clone, Copy, Debug)]
pub struct Interest {
    pub fd: RawFd,
    pub events: i16,
    pub retry_at: Option<Instant>,
}

pub enum Dial {
    Ready(Stream),
    Wait(Interest),
    Failed(String),
}

/// A unix socket whose listener's queue is full refuses with EAGAIN and
/// cannot be polled for: try again this often until the deadline.
const UNIX_RETRY: Duration = Duration::from_millis(2);
/// A TLS handshake that wants to write cannot be told apart from one that
/// wants to read; poll for input and look again this often.
const TLS_RECHECK: Duration = Duration::from_millis(5);

enum Step {
    Resolved(VecDeque<SocketAddr>),
    Resolving { answer: Arc<Mutex<Option<io::Result<Vec<SocketAddr>>>>>, wake: UnixStream },
    Connecting { sock: Socket, rest: VecDeque<SocketAddr> },
    UnixRetry { path: PathBuf },
    Handshake(MidHandshakeTlsStream<Sock>),
    Failed(String),
    Over,
}

pub struct Dialer {
    step: Step,
    host: String,
    tls: Option<TlsConnector>,
}

impl Dialer {
    /// Starts connecting to `addr` (TLS when `tls` is given); call `advance`
    /// at once and then whenever its interest is met.
    pub fn start(addr: &Addr, tls: Option<TlsConnector>) -> Self {
        let (step, host) = match addr {
            Addr::Unix(path) => (Step::UnixRetry { path: path.clone() }, String::new()),
            Addr::Tcp { host, port } => (resolve(host, *port), host.clone()),
        };
        Self { step, host, tls }
    }

    pub fn advance(&mut self) -> Dial {
        match std::mem::replace(&mut self.step, Step::Over) {
            Step::Resolved(addrs) => self.connect_next(addrs, String::new()),
            Step::Failed(why) => Dial::Failed(why),
            Step::Resolving { answer, wake } => {
                let result = answer.lock().map(|mut a| a.take()).unwrap_or(None);
                match result {
                    None => {
                        let interest = Interest { fd: wake.as_raw_fd(), events: libc::POLLIN, retry_at: None };
                        self.step = Step::Resolving { answer, wake };
                        Dial::Wait(interest)
                    }
                    Some(Err(e)) => Dial::Failed(format!("cannot resolve {}: {e}", self.host)),
                    Some(Ok(addrs)) if addrs.is_empty() => Dial::Failed(format!("{} resolves to no address", self.host)),
                    Some(Ok(addrs)) => self.connect_next(addrs.into(), String::new()),
                }
            }
            Step::Connecting { sock, rest } => match sock.take_error() {
                Ok(None) => self.established(sock),
                Ok(Some(e)) | Err(e) => self.connect_next(rest, describe(&e)),
            },
            Step::UnixRetry { path } => self.connect_unix(path),
            Step::Handshake(mid) => self.handshake(mid.handshake()),
            Step::Over => Dial::Failed("connection attempt already over".into()),
        }
    }

    fn connect_next(&mut self, mut rest: VecDeque<SocketAddr>, mut last: String) -> Dial {
        while let Some(addr) = rest.pop_front() {
            let attempt = Socket::new(Domain::for_address(addr), Type::STREAM, None).and_then(|sock| {
                sock.set_nonblocking(true)?;
                sock.set_tcp_nodelay(true)?;
                Ok(sock)
            });
            let sock = match attempt {
                Ok(sock) => sock,
                Err(e) => {
                    last = describe(&e);
                    continue;
                }
            };
            match sock.connect(&addr.into()) {
                Ok(()) => return self.established(sock),
                Err(e) if e.raw_os_error() == Some(libc::EINPROGRESS) => {
                    let interest = Interest { fd: sock.as_raw_fd(), events: libc::POLLOUT, retry_at: None };
                    self.step = Step::Connecting { sock, rest };
                    return Dial::Wait(interest);
                }
                Err(e) => last = describe(&e),
            }
        }
        Dial::Failed(last)
    }

    fn connect_unix(&mut self, path: PathBuf) -> Dial {
        let attempt = SockAddr::unix(&path).and_then(|addr| {
            let sock = Socket::new(Domain::UNIX, Type::STREAM, None)?;
            sock.set_nonblocking(true)?;
            sock.connect(&addr).map(|()| sock)
        });
        match attempt.and_then(Sock::new) {
            Ok(sock) => Dial::Ready(Stream::Plain(sock)),
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                self.step = Step::UnixRetry { path };
                Dial::Wait(Interest { fd: -1, events: 0, retry_at: Some(Instant::now() + UNIX_RETRY) })
            }
            Err(e) => Dial::Failed(describe(&e)),
        }
    }

    fn established(&mut self, sock: Socket) -> Dial {
        let sock = match Sock::new(sock) {
            Ok(sock) => sock,
            Err(e) => return Dial::Failed(describe(&e)),
        };
        match self.tls.take() {
            None => Dial::Ready(Stream::Plain(sock)),
            Some(connector) => self.handshake(connector.connect(&self.host, sock)),
        }
    }

    fn handshake(&mut self, result: Result<TlsStream<Sock>, HandshakeError<Sock>>) -> Dial {
        match result {
            Ok(tls) => Dial::Ready(Stream::Tls(Box::new(tls))),
            Err(HandshakeError::WouldBlock(mid)) => {
                let fd = mid.get_ref().socket.as_raw_fd();
                self.step = Step::Handshake(mid);
                Dial::Wait(Interest { fd, events: libc::POLLIN, retry_at: Some(Instant::now() + TLS_RECHECK) })
            }
            Err(HandshakeError::Failure(e)) => Dial::Failed(format!("TLS handshake: {e}")),
        }
    }
}

/// IP literals need no lookup. Names are looked up on a thread of their own
/// (getaddrinfo cannot be bounded in time); the round waits for its answer
/// on a socket pair and gives up at its deadline, leaving the thread to
/// finish alone.
fn resolve(host: &str, port: u16) -> Step {
    if let Ok(ip) = host.parse::<IpAddr>() {
        return Step::Resolved(VecDeque::from([SocketAddr::new(ip, port)]));
    }
    let (wake, signal) = match UnixStream::pair() {
        Ok(pair) => pair,
        Err(e) => return Step::Failed(format!("cannot resolve {host}: {e}")),
    };
    let answer = Arc::new(Mutex::new(None));
    let (slot, name) = (answer.clone(), host.to_owned());
    let spawned = super::threads::spawn("rl-resolve", move || {
        let result = (name.as_str(), port).to_socket_addrs().map(Iterator::collect);
        if let Ok(mut slot) = slot.lock() {
            *slot = Some(result);
        }
        let _ = (&signal).write(b"!");
    });
    match spawned {
        Ok(_) => Step::Resolving { answer, wake },
        Err(e) => Step::Failed(format!("cannot resolve {host}: {e}")),
    }
}

fn describe(e: &io::Error) -> String {
    e.to_string()
}

/// Largest CA file read: a bundle of every public root is about 250 KB.
const MAX_CA_FILE: u64 = 4 * 1024 * 1024;

/// A TLS connector that trusts `ca_file` (PEM) if given, else the system store.
/// The CA file must be a regular file of reasonable size: a FIFO or a device
/// would block or never end.
pub fn tls_connector(ca_file: Option<&Path>) -> Result<TlsConnector, String> {
    let mut builder = TlsConnector::builder();
    if let Some(ca) = ca_file {
        let shown = ca.display();
        let meta = std::fs::metadata(ca).map_err(|e| format!("cannot read the CA file {shown}: {e}"))?;
        if !meta.is_file() {
            return Err(format!("the CA file {shown} is not a regular file"));
        }
        if meta.len() > MAX_CA_FILE {
            return Err(format!("the CA file {shown} is larger than {} MB", MAX_CA_FILE >> 20));
        }
        let mut pem = Vec::new();
        let file = File::open(ca).map_err(|e| format!("cannot read the CA file {shown}: {e}"))?;
        file.take(MAX_CA_FILE + 1).read_to_end(&mut pem).map_err(|e| format!("cannot read the CA file {shown}: {e}"))?;
        let cert = native_tls::Certificate::from_pem(&pem).map_err(|e| format!("the CA file {shown} is not PEM: {e}"))?;
        builder.add_root_certificate(cert);
    }
    builder.build().map_err(|e| format!("TLS setup: {e}"))
}
