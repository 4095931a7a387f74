//! Real redis-server processes on free loopback ports, and a small TCP proxy
//! that can delay traffic or drop a connection, for the engine's tests.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use redis_lock::engine::net::conn::Limits;
use redis_lock::engine::round::Node;
use redis_lock::engine::net::dsn::Server;

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("a free port")
}

pub struct Redis {
    pub port: u16,
    pub dir: PathBuf,
    child: Option<Child>,
    extra: Vec<String>,
}

impl Redis {
    pub fn start() -> Self {
        Self::start_with(&[])
    }

    pub fn start_with(extra: &[&str]) -> Self {
        let dir = std::env::temp_dir().join(format!("redis_lock_test_{}_{}", std::process::id(), free_port()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let mut redis = Redis { port: 0, dir, child: None, extra: extra.iter().map(|s| s.to_string()).collect() };
        for _ in 0..5 {
            redis.port = free_port();
            if redis.spawn() {
                return redis;
            }
        }
        panic!("redis-server did not start");
    }

    fn spawn(&mut self) -> bool {
        let child = Command::new("redis-server")
            .args(["--bind", "127.0.0.1", "--port", &self.port.to_string(), "--save", "", "--appendonly", "no"])
            .arg("--dir")
            .arg(&self.dir)
            .args(&self.extra)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("redis-server is installed");
        self.child = Some(child);
        let until = Instant::now() + Duration::from_secs(5);
        let pid = self.child.as_ref().map_or(0, |c| c.id());
        while Instant::now() < until {
            // The server that answers must be ours: the port, free a moment
            // ago, may have been taken by a server or proxy of a test running
            // beside this one (ours then failed to bind and exits).
            match self.process_id() {
                Some(id) if id == pid => return true,
                Some(_) => {
                    self.kill();
                    return false;
                }
                None => {}
            }
            if let Some(Ok(Some(_))) = self.child.as_mut().map(|c| c.try_wait()) {
                return false;
            }
            thread::sleep(Duration::from_millis(20));
        }
        false
    }

    /// The `process_id` of the server answering on our port, if one does.
    fn process_id(&self) -> Option<u32> {
        let info = match self.try_cmd(&["INFO", "server"]).ok()? {
            redis::Value::BulkString(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            redis::Value::VerbatimString { text, .. } => text,
            _ => return None,
        };
        info.lines().find_map(|l| l.strip_prefix("process_id:")).and_then(|v| v.trim().parse().ok())
    }

    pub fn server(&self) -> Server {
        Server::tcp("127.0.0.1", self.port)
    }

    pub fn node(&self, timeout: Duration) -> Node {
        Node { server: self.server(), timeout, connect: timeout }
    }

    fn client(&self) -> redis::RedisResult<redis::Connection> {
        let client = redis::Client::open(format!("redis://127.0.0.1:{}/", self.port))?;
        client.get_connection_with_timeout(Duration::from_secs(2))
    }

    pub fn try_cmd(&self, args: &[&str]) -> redis::RedisResult<redis::Value> {
        let mut con = self.client()?;
        let mut cmd = redis::cmd(args[0]);
        for a in &args[1..] {
            cmd.arg(*a);
        }
        cmd.query(&mut con)
    }

    pub fn get(&self, key: &[u8]) -> Option<Vec<u8>> {
        let mut con = self.client().expect("connect");
        redis::cmd("GET").arg(key).query(&mut con).expect("GET")
    }

    pub fn set(&self, key: &[u8], value: &[u8]) {
        let mut con = self.client().expect("connect");
        let _: () = redis::cmd("SET").arg(key).arg(value).query(&mut con).expect("SET");
    }

    pub fn pttl(&self, key: &[u8]) -> i64 {
        let mut con = self.client().expect("connect");
        redis::cmd("PTTL").arg(key).query(&mut con).expect("PTTL")
    }

    /// A section of `INFO`, as text.
    pub fn info(&self, section: &str) -> String {
        match self.try_cmd(&["INFO", section]) {
            Ok(redis::Value::BulkString(bytes)) => String::from_utf8_lossy(&bytes).into_owned(),
            Ok(redis::Value::VerbatimString { text, .. }) => text,
            other => panic!("INFO {section}: {other:?}"),
        }
    }

    /// How often the server ran `command` (INFO commandstats; a script's own
    /// commands included).
    pub fn calls(&self, command: &str) -> u64 {
        count(&self.info("commandstats"), &format!("cmdstat_{command}:calls="))
    }

    /// How many error replies of `kind` (`NOSCRIPT`) it sent (INFO errorstats).
    pub fn errors(&self, kind: &str) -> u64 {
        count(&self.info("errorstats"), &format!("errorstat_{kind}:count="))
    }

    pub fn dbsize(&self) -> i64 {
        let mut con = self.client().expect("connect");
        redis::cmd("DBSIZE").query(&mut con).expect("DBSIZE")
    }

    pub fn signal(&self, sig: &str) {
        if let Some(child) = &self.child {
            Command::new("kill").args([sig, &child.id().to_string()]).status().expect("kill");
        }
    }

    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Stops the server and starts it again on the same port.
    pub fn restart(&mut self) {
        self.kill();
        let until = Instant::now() + Duration::from_secs(5);
        while !self.spawn() {
            assert!(Instant::now() < until, "redis-server did not restart on port {}", self.port);
            thread::sleep(Duration::from_millis(50));
        }
    }
}

/// The number after `prefix` on its line of an INFO section (0 when absent).
fn count(info: &str, prefix: &str) -> u64 {
    info.lines().find_map(|line| line.strip_prefix(prefix)).and_then(|rest| rest.split(',').next()).map_or(0, |n| n.parse().expect("a count"))
}

impl Drop for Redis {
    fn drop(&mut self) {
        self.signal("-CONT");
        self.kill();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Half a second to connect and to read: the engine tests' limits.
pub fn limits() -> Limits {
    Limits { connect: Duration::from_millis(500), read: Duration::from_millis(500), tls_ca_file: None }
}

/// Forwards loopback TCP connections to a Redis port, optionally delaying
/// every chunk in each direction, holding what the connections open so far
/// send until told (a network that delivers them late, while new
/// connections pass), or closing the connection instead of forwarding the
/// next reply (the command ran, its reply is lost).
pub struct Proxy {
    pub port: u16,
    pub delay_us: Arc<AtomicU64>,
    pub drop_next_reply: Arc<AtomicBool>,
    hold: Arc<Hold>,
    stop: Arc<AtomicBool>,
}

/// Connections are numbered as they are accepted; while `on`, what those up
/// to `upto` send waits, and `held` counts the chunks that waited.
#[derive(Default)]
struct Hold {
    accepted: AtomicU64,
    upto: AtomicU64,
    on: AtomicBool,
    held: AtomicU64,
}

impl Proxy {
    pub fn start(upstream: u16) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("addr").port();
        let proxy = Proxy {
            port,
            delay_us: Arc::new(AtomicU64::new(0)),
            drop_next_reply: Arc::new(AtomicBool::new(false)),
            hold: Arc::default(),
            stop: Arc::new(AtomicBool::new(false)),
        };
        let (delay, drop_next, hold, stop) = (proxy.delay_us.clone(), proxy.drop_next_reply.clone(), proxy.hold.clone(), proxy.stop.clone());
        thread::spawn(move || {
            for client in listener.incoming() {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let Ok(client) = client else { continue };
                let Ok(server) = TcpStream::connect(("127.0.0.1", upstream)) else { continue };
                let _ = client.set_nodelay(true);
                let _ = server.set_nodelay(true);
                let (c2, s2) = (client.try_clone().expect("clone"), server.try_clone().expect("clone"));
                let (d1, d2, dn) = (delay.clone(), delay.clone(), drop_next.clone());
                let held = (hold.clone(), hold.accepted.fetch_add(1, Ordering::SeqCst) + 1);
                thread::spawn(move || pump(client, server, d1, None, Some(held)));
                thread::spawn(move || pump(s2, c2, d2, Some(dn), None));
            }
        });
        proxy
    }

    pub fn server(&self) -> Server {
        Server::tcp("127.0.0.1", self.port)
    }

    pub fn set_delay(&self, d: Duration) {
        self.delay_us.store(d.as_micros() as u64, Ordering::Relaxed);
    }

    /// From now on, what the connections already open send waits until
    /// `deliver_held`; connections opened later pass.
    pub fn hold_open_connections(&self) {
        self.hold.upto.store(self.hold.accepted.load(Ordering::SeqCst), Ordering::SeqCst);
        self.hold.on.store(true, Ordering::SeqCst);
    }

    /// How many chunks have waited so far.
    pub fn held(&self) -> u64 {
        self.hold.held.load(Ordering::SeqCst)
    }

    /// What waited goes on, in order.
    pub fn deliver_held(&self) {
        self.hold.on.store(false, Ordering::SeqCst);
    }
}

/// `n` servers, each behind its own proxy, and the nodes that reach them
/// through the proxies, already connected (so that a delay set afterwards
/// applies to commands, not to connecting).
pub struct Proxied {
    pub servers: Vec<Redis>,
    pub proxies: Vec<Proxy>,
    pub nodes: Vec<Node>,
}

impl Proxied {
    pub fn start(n: usize) -> Self {
        let servers: Vec<Redis> = (0..n).map(|_| Redis::start()).collect();
        let proxies: Vec<Proxy> = servers.iter().map(|r| Proxy::start(r.port)).collect();
        let nodes: Vec<Node> =
            proxies.iter().map(|p| Node { server: p.server(), timeout: Duration::from_secs(2), connect: Duration::from_secs(2) }).collect();
        let token = redis_lock::engine::features::token::new_token("");
        let lease = redis_lock::engine::features::lease::Lease::new(&nodes, b"connect", &token);
        lease.release(&redis_lock::engine::net::conn::Limits::default());
        Proxied { servers, proxies, nodes }
    }

    pub fn set_delay(&self, d: Duration) {
        for p in &self.proxies {
            p.set_delay(d);
        }
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.deliver_held();
        let _ = TcpStream::connect(("127.0.0.1", self.port));
    }
}

fn pump(mut from: TcpStream, mut to: TcpStream, delay_us: Arc<AtomicU64>, drop_lost: Option<Arc<AtomicBool>>, hold: Option<(Arc<Hold>, u64)>) {
    let mut buf = [0u8; 16384];
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        if let Some((hold, id)) = &hold {
            let holds = || hold.on.load(Ordering::SeqCst) && *id <= hold.upto.load(Ordering::SeqCst);
            if holds() {
                hold.held.fetch_add(1, Ordering::SeqCst);
                while holds() {
                    thread::sleep(Duration::from_millis(1));
                }
            }
        }
        let d = delay_us.load(Ordering::Relaxed);
        if d > 0 {
            thread::sleep(Duration::from_micros(d));
        }
        if drop_lost.as_ref().is_some_and(|f| f.swap(false, Ordering::Relaxed)) {
            break; // the command ran on Redis, its reply is lost with the connection
        }
        if to.write_all(&buf[..n]).is_err() {
            break;
        }
    }
    let _ = to.shutdown(Shutdown::Both);
    let _ = from.shutdown(Shutdown::Both);
}
