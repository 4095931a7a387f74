//! Where a Redis server is and how to log in: parsed from a DSN
//! (`redis://`, `rediss://`, `unix://`), or the deployment that says where it
//! is (`redis-cluster://` seeds, `redis-sentinel://` sentinels and a master
//! name): then `addr` is the first seed or sentinel and `route` the rest.

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

pub const DEFAULT_PORT: u16 = 6379;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Addr {
    Tcp { host: String, port: u16 },
    Unix(PathBuf),
}

/// One Redis server and the credentials to use on it. Two equal values share
/// pooled connections.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Server {
    pub addr: Addr,
    pub tls: bool,
    pub user: Option<String>,
    pub password: Option<String>,
    pub db: u32,
    /// How the server for a key is found (`Direct`: it is `addr`).
    pub route: Route,
    /// `wait_replicas=N` of the DSN (over `redis_lock.wait_replicas`).
    pub wait_replicas: Option<i64>,
}

#[derive(Clone, PartialEq, Eq, Hash)]
pub enum Route {
    Direct,
    /// A Redis Cluster known by these seed nodes: a key's server is the
    /// master of its slot.
    Cluster(Arc<[Addr]>),
    /// The master that these sentinels name.
    Sentinel(Arc<Sentinels>),
}

#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Sentinels {
    pub addrs: Vec<Addr>,
    pub master: String,
    /// The sentinels' own login (`sentinel_user=`, `sentinel_password=`).
    pub user: Option<String>,
    pub password: Option<String>,
}

impl Server {
    pub fn tcp(host: &str, port: u16) -> Self {
        Self {
            addr: Addr::Tcp { host: host.to_owned(), port },
            tls: false,
            user: None,
            password: None,
            db: 0,
            route: Route::Direct,
            wait_replicas: None,
        }
    }

    /// The server at `addr`, with this one's TLS and credentials.
    pub fn at(&self, addr: Addr) -> Self {
        Self { addr, route: Route::Direct, wait_replicas: None, ..self.clone() }
    }

    /// Whether the server for a key is looked up (Cluster, Sentinel).
    pub fn is_routed(&self) -> bool {
        !matches!(self.route, Route::Direct)
    }

    /// Parses `redis://[user[:password]@]host[:port][/db][?query]`, the same
    /// with `rediss://` (TLS), `unix:///path/to.sock[?db=N]`,
    /// `redis-cluster://[user[:password]@]host:port,host:port[?query]` and
    /// `redis-sentinel://[user[:password]@]host:port,host:port/master[?query]`
    /// (`rediss-…` for TLS).
    /// The user information is everything up to the LAST `@`, so a password
    /// may hold unencoded `/ ? @ :`; an `@` after it (in the query) must be
    /// written `%40`. Errors never quote any part of the DSN: it may hold a password.
    pub fn parse(dsn: &str) -> Result<Self, String> {
        if dsn.contains('\0') {
            return Err(NUL_BYTES.into());
        }
        if let Some(rest) = dsn.strip_prefix("redis://") {
            Self::parse_tcp(rest, false)
        } else if let Some(rest) = dsn.strip_prefix("rediss://") {
            Self::parse_tcp(rest, true)
        } else if let Some(rest) = dsn.strip_prefix("unix://") {
            Self::parse_unix(rest)
        } else if let Some((kind, tls, rest)) = DEPLOYMENTS.iter().find_map(|&(scheme, kind, tls)| Some((kind, tls, dsn.strip_prefix(scheme)?))) {
            Self::parse_deployment(rest, kind, tls)
        } else {
            Err("expected redis://, rediss://, unix://, redis-cluster:// or redis-sentinel://".into())
        }
    }

    fn parse_tcp(rest: &str, tls: bool) -> Result<Self, String> {
        let (userinfo, rest) = split_userinfo(rest);
        let (rest, query) = split_once_or(rest, '?');
        let (hostport, path) = split_once_or(rest, '/');
        let (host, port) = split_host_port(hostport)?;
        let mut server = Self::tcp(&host, port);
        server.tls = tls;
        server.log_in_as(userinfo)?;
        if !path.is_empty() {
            server.db = parse_db(path)?;
        }
        server.apply_query(query, &mut [])?;
        Ok(server)
    }

    /// A cluster's seeds, or sentinels and the master's name.
    fn parse_deployment(rest: &str, kind: Kind, tls: bool) -> Result<Self, String> {
        let (userinfo, rest) = split_userinfo(rest);
        let (rest, query) = split_once_or(rest, '?');
        let (hosts, path) = split_once_or(rest, '/');
        let mut addrs = Vec::new();
        for hostport in hosts.split(',') {
            let (host, port) = split_host_port(hostport)?;
            addrs.push(Addr::Tcp { host, port });
        }
        let first = addrs.first().cloned().ok_or("the host is missing")?;
        let mut server = Self { addr: first, tls, ..Self::tcp("", 0) };
        server.log_in_as(userinfo)?;
        let mut sentinels = Sentinels { addrs, master: String::new(), user: None, password: None };
        match kind {
            Kind::Cluster => {
                if !path.is_empty() {
                    return Err("a cluster DSN names no database (a cluster has only database 0)".into());
                }
                server.route = Route::Cluster(sentinels.addrs.into());
                server.apply_query(query, &mut [])?;
            }
            Kind::Sentinel => {
                sentinels.master = percent_decode(path)?;
                if sentinels.master.is_empty() {
                    return Err("the master name is missing (redis-sentinel://host:port/name)".into());
                }
                server.apply_query(query, &mut [("sentinel_user", &mut sentinels.user), ("sentinel_password", &mut sentinels.password)])?;
                server.route = Route::Sentinel(Arc::new(sentinels));
            }
        }
        Ok(server)
    }

    /// `user:password` or `:password` of the user information, if any.
    fn log_in_as(&mut self, userinfo: Option<&str>) -> Result<(), String> {
        let Some(userinfo) = userinfo else { return Ok(()) };
        let (user, password) = userinfo.split_once(':').ok_or("the user information must be user:password or :password")?;
        if !user.is_empty() {
            self.user = Some(percent_decode(user).map_err(|e| format!("user name: {e}"))?);
        }
        self.password = Some(percent_decode(password).map_err(|e| format!("password: {e}"))?);
        Ok(())
    }

    fn parse_unix(rest: &str) -> Result<Self, String> {
        let (path, query) = split_once_or(rest, '?');
        if !path.starts_with('/') {
            return Err("a unix socket path must be absolute (unix:///path/to.sock)".into());
        }
        let path = percent_decode(path)?;
        if path.contains('\0') {
            return Err(NUL_BYTES.into());
        }
        let mut server = Self { addr: Addr::Unix(PathBuf::from(path)), ..Self::tcp("", 0) };
        server.apply_query(query, &mut [])?;
        Ok(server)
    }

    /// `db=N`, `user=…`, `password=…`, `wait_replicas=N` query parameters,
    /// and the `extra` ones a kind of DSN has.
    fn apply_query(&mut self, query: &str, extra: &mut [(&str, &mut Option<String>)]) -> Result<(), String> {
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            match name {
                "db" if !self.is_cluster() => self.db = parse_db(value)?,
                "user" => self.user = Some(percent_decode(value)?),
                "password" => self.password = Some(percent_decode(value)?),
                "wait_replicas" => self.wait_replicas = Some(parse_replicas(value)?),
                _ => match extra.iter_mut().find(|(known, _)| *known == name) {
                    Some((_, slot)) => **slot = Some(percent_decode(value)?),
                    None => {
                        let mut known = vec!["user", "password", "wait_replicas"];
                        if !self.is_cluster() {
                            known.insert(0, "db");
                        }
                        known.extend(extra.iter().map(|(name, _)| *name));
                        return Err(format!("unknown query parameter (known: {})", known.join(", ")));
                    }
                },
            }
        }
        Ok(())
    }

    fn is_cluster(&self) -> bool {
        matches!(self.route, Route::Cluster(_))
    }

    /// Whether two entries point at the same Redis process (same address,
    /// or the same first seed or sentinel), whatever database or
    /// credentials they use.
    pub fn same_place(&self, other: &Server) -> bool {
        self.addr == other.addr
    }
}

#[derive(Clone, Copy)]
enum Kind {
    Cluster,
    Sentinel,
}

const DEPLOYMENTS: [(&str, Kind, bool); 4] = [
    ("redis-cluster://", Kind::Cluster, false),
    ("rediss-cluster://", Kind::Cluster, true),
    ("redis-sentinel://", Kind::Sentinel, false),
    ("rediss-sentinel://", Kind::Sentinel, true),
];

/// `host:port`, `[v6]:port` or the socket path: what error messages show;
/// `cluster h1:p1,h2:p2` and `master NAME of sentinels h1:p1,h2:p2` for
/// the deployments.
impl fmt::Display for Server {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |addrs: &[Addr]| addrs.iter().map(ToString::to_string).collect::<Vec<_>>().join(",");
        match &self.route {
            Route::Direct => write!(f, "{}", self.addr),
            Route::Cluster(seeds) => write!(f, "cluster {}", list(seeds)),
            Route::Sentinel(s) => write!(f, "master {} of sentinels {}", s.master, list(&s.addrs)),
        }
    }
}

impl fmt::Display for Addr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Addr::Tcp { host, port } if host.contains(':') => write!(f, "[{host}]:{port}"),
            Addr::Tcp { host, port } => write!(f, "{host}:{port}"),
            Addr::Unix(path) => write!(f, "{}", path.display()),
        }
    }
}

/// Debug output must not show the password either.
impl fmt::Debug for Server {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Server({self}, db {}, tls {})", self.db, self.tls)
    }
}

/// The DSN for display: everything between `//` and the last `@` (user and
/// password, whatever they contain) becomes `***`, and so does the value of
/// every `password=` and `sentinel_password=` query parameter after it.
pub fn redact(dsn: &str) -> String {
    let (head, rest) = match dsn.split_once("//") {
        Some((scheme, rest)) => (format!("{scheme}//"), rest),
        None => (String::new(), dsn),
    };
    let (masked, rest) = match rest.rsplit_once('@') {
        Some((_, rest)) => ("***@", rest),
        None => ("", rest),
    };
    let (main, query) = split_once_or(rest, '?');
    let mut out = format!("{head}{masked}{main}");
    if rest.contains('?') {
        let params: Vec<String> =
            query.split('&').map(|p| match p.split_once('=') {
                Some((name @ ("password" | "sentinel_password"), _)) => format!("{name}=***"),
                _ => p.to_owned(),
            }).collect();
        out.push('?');
        out.push_str(&params.join("&"));
    }
    out
}

/// Why a DSN, host or path with a NUL byte is refused (PHP's wording).
pub const NUL_BYTES: &str = "must not contain any null bytes (\\0)";

/// The user information (up to the last `@`) and the rest.
fn split_userinfo(rest: &str) -> (Option<&str>, &str) {
    match rest.rsplit_once('@') {
        Some((userinfo, rest)) => (Some(userinfo), rest),
        None => (None, rest),
    }
}

fn split_once_or(s: &str, sep: char) -> (&str, &str) {
    s.split_once(sep).unwrap_or((s, ""))
}

fn split_host_port(hostport: &str) -> Result<(String, u16), String> {
    let (host, port) = if let Some(v6) = hostport.strip_prefix('[') {
        let (host, after) = v6.split_once(']').ok_or("unclosed [ in the host")?;
        match after {
            "" => (host, None),
            _ => (host, Some(after.strip_prefix(':').ok_or("expected :port after ]")?)),
        }
    } else {
        match hostport.rsplit_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (hostport, None),
        }
    };
    if host.is_empty() {
        return Err("the host is missing".into());
    }
    let port = match port {
        None => DEFAULT_PORT,
        Some(p) => parse_port(p)?,
    };
    Ok((host.to_owned(), port))
}

pub fn parse_port(p: &str) -> Result<u16, String> {
    match p.parse::<u16>() {
        Ok(port) if port > 0 && p.bytes().all(|b| b.is_ascii_digit()) => Ok(port),
        _ => Err("invalid port (expected 1 to 65535)".into()),
    }
}

fn parse_db(s: &str) -> Result<u32, String> {
    match s.parse::<u32>() {
        Ok(db) if s.bytes().all(|b| b.is_ascii_digit()) => Ok(db),
        _ => Err(format!("invalid database index (expected 0 to {})", u32::MAX)),
    }
}

/// The most replicas `wait_replicas` may ask for (a DSN's or the INI setting).
pub const MAX_REPLICAS: i64 = 1000;

/// `wait_replicas=N`, 0 (off) to `MAX_REPLICAS`.
fn parse_replicas(s: &str) -> Result<i64, String> {
    match s.parse::<i64>() {
        Ok(n) if (0..=MAX_REPLICAS).contains(&n) && s.bytes().all(|b| b.is_ascii_digit()) => Ok(n),
        _ => Err(format!("invalid wait_replicas (expected 0 to {MAX_REPLICAS})")),
    }
}

fn percent_decode(s: &str) -> Result<String, String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok());
            let byte = hex.and_then(|h| u8::from_str_radix(h, 16).ok()).ok_or("invalid %-escape")?;
            out.push(byte);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| "a %-escape does not decode to UTF-8".into())
}

#[cfg(test)]
#[path = "dsn_tests.rs"]
mod tests;
