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
mod tests {
    use super::*;

    #[test]
    fn parses_the_accepted_forms() {
        let s = Server::parse("redis://127.0.0.1:6380/2").unwrap();
        assert_eq!(s.addr, Addr::Tcp { host: "127.0.0.1".into(), port: 6380 });
        assert_eq!((s.db, s.tls, s.user.clone(), s.password.clone()), (2, false, None, None));
        assert_eq!(s.to_string(), "127.0.0.1:6380");

        let s = Server::parse("rediss://alice:p%40ss:w@cache.local").unwrap();
        assert_eq!(s.addr, Addr::Tcp { host: "cache.local".into(), port: 6379 });
        assert!(s.tls);
        assert_eq!((s.user.as_deref(), s.password.as_deref()), (Some("alice"), Some("p@ss:w")));

        let s = Server::parse("redis://:secret@[::1]:7000").unwrap();
        assert_eq!((s.user.clone(), s.password.as_deref()), (None, Some("secret")));
        assert_eq!(s.to_string(), "[::1]:7000");

        let s = Server::parse("unix:///run/redis.sock?db=3").unwrap();
        assert_eq!(s.addr, Addr::Unix("/run/redis.sock".into()));
        assert_eq!(s.db, 3);
        assert_eq!(s.to_string(), "/run/redis.sock");
    }

    #[test]
    fn the_user_information_runs_to_the_last_at() {
        let s = Server::parse("redis://u:pa/ss?x@h:1/2").unwrap();
        assert_eq!(s.addr, Addr::Tcp { host: "h".into(), port: 1 });
        assert_eq!((s.user.as_deref(), s.password.as_deref(), s.db), (Some("u"), Some("pa/ss?x"), 2));
        let s = Server::parse("rediss://:a@b:c/d?e@host?db=4").unwrap();
        assert_eq!(s.addr, Addr::Tcp { host: "host".into(), port: 6379 });
        assert_eq!((s.user.as_deref(), s.password.as_deref(), s.db), (None, Some("a@b:c/d?e"), 4));
        // An @ after the user information must be %40: here it ends the user information.
        assert!(Server::parse("redis://h?password=a@b").is_err());
        let s = Server::parse("redis://h?password=a%40b").unwrap();
        assert_eq!(s.password.as_deref(), Some("a@b"));
    }

    #[test]
    fn rejects_malformed_dsns_without_quoting_them() {
        for (dsn, want) in [
            ("http://x", "expected redis://"),
            ("127.0.0.1:6379", "expected redis://"),
            ("redis://", "host is missing"),
            ("redis://:6379", "host is missing"),
            ("redis://h:0", "invalid port (expected 1 to 65535)"),
            ("redis://h:70000", "invalid port (expected 1 to 65535)"),
            ("redis://h:+5", "invalid port"),
            ("redis://h/x", "invalid database index (expected 0 to 4294967295)"),
            ("redis://h/-1", "invalid database index"),
            ("redis://hunter2@h", "user:password"),
            ("unix://relative.sock", "absolute"),
            ("redis://h?hunter2=3", "unknown query parameter"),
            ("redis://[::1", "unclosed"),
            ("redis://u:hunter2/x:hunter2@h:hunter2", "invalid port"),
            ("redis://h/hunter2", "invalid database index"),
            ("redis://h:1?db=hunter2", "invalid database index"),
            ("redis://u:hunter2%zz@h", "invalid %-escape"),
            ("redis://u:hunter2\0@h", "null bytes (\\0)"),
            ("unix:///tmp/hunter2%00.sock", "null bytes (\\0)"),
        ] {
            let err = Server::parse(dsn).unwrap_err();
            assert!(err.contains(want), "{dsn}: {err}");
            assert!(!err.contains("hunter2") && !err.contains('"'), "{dsn}: {err}");
        }
    }

    #[test]
    fn redact_hides_everything_up_to_the_last_at() {
        for (dsn, want) in [
            ("redis://u:s3cret@h:1/2", "redis://***@h:1/2"),
            ("rediss://:s3cret@h", "rediss://***@h"),
            ("redis://s3cret@h", "redis://***@h"),
            ("redis://h:1", "redis://h:1"),
            ("unix:///run/r.sock?db=1&password=s3cret", "unix:///run/r.sock?db=1&password=***"),
            ("redis://a:b@c@h", "redis://***@h"),
            ("redis://u:pa/ss?x@h:1/2", "redis://***@h:1/2"),
            ("redis://u:p:a@s/s?x=1&password=2@h:1/2?password=s3cret&db=1", "redis://***@h:1/2?password=***&db=1"),
            ("redis://h?password=s3c@ret", "redis://***@ret"),
            ("u:s3cret@h", "***@h"),
        ] {
            assert_eq!(redact(dsn), want, "{dsn}");
        }
    }

    #[test]
    fn parses_cluster_and_sentinel_dsns() {
        let s = Server::parse("redis-cluster://u:p%40ss@10.0.0.1:7000,[::1]:7001,h?wait_replicas=1").unwrap();
        let seeds: Vec<String> = match &s.route {
            Route::Cluster(seeds) => seeds.iter().map(ToString::to_string).collect(),
            _ => panic!("not a cluster"),
        };
        assert_eq!(seeds, ["10.0.0.1:7000", "[::1]:7001", "h:6379"]);
        assert_eq!((s.user.as_deref(), s.password.as_deref(), s.wait_replicas, s.tls), (Some("u"), Some("p@ss"), Some(1), false));
        assert_eq!(s.to_string(), "cluster 10.0.0.1:7000,[::1]:7001,h:6379");
        assert!(Server::parse("rediss-cluster://h:1").unwrap().tls);

        let s = Server::parse("redis-sentinel://:pw@s1:26379,s2:26380/my%20master?db=2&sentinel_password=sp").unwrap();
        let Route::Sentinel(sentinels) = &s.route else { panic!("not sentinel") };
        assert_eq!((sentinels.master.as_str(), sentinels.password.as_deref(), sentinels.user.as_deref()), ("my master", Some("sp"), None));
        assert_eq!((s.password.as_deref(), s.db), (Some("pw"), 2));
        assert_eq!(s.to_string(), "master my master of sentinels s1:26379,s2:26380");
        let endpoint = s.at(Addr::Tcp { host: "m".into(), port: 1 });
        assert_eq!((endpoint.to_string(), endpoint.password.as_deref(), endpoint.db, endpoint.is_routed()), ("m:1".into(), Some("pw"), 2, false));
        assert!(s.is_routed() && !Server::parse("redis://h").unwrap().is_routed());
    }

    #[test]
    fn rejects_malformed_deployment_dsns() {
        for (dsn, want) in [
            ("redis-cluster://h:1/0", "a cluster has only database 0"),
            ("redis-cluster://h:1?db=1", "unknown query parameter (known: user, password, wait_replicas)"),
            ("redis-cluster://h:1,,h:2", "host is missing"),
            ("redis-cluster://h:1,h:0", "invalid port"),
            ("redis-sentinel://s:1", "master name is missing"),
            ("redis-sentinel://s:1/m?x=1", "(known: db, user, password, wait_replicas, sentinel_user, sentinel_password)"),
            ("redis://h?wait_replicas=1001", "invalid wait_replicas (expected 0 to 1000)"),
            ("redis://h?wait_replicas=-1", "invalid wait_replicas"),
            ("redis-clusters://h", "expected redis://"),
        ] {
            let err = Server::parse(dsn).unwrap_err();
            assert!(err.contains(want), "{dsn}: {err}");
        }
        assert_eq!(redact("redis-sentinel://:pw@s:1/m?sentinel_password=sp&db=1"), "redis-sentinel://***@s:1/m?sentinel_password=***&db=1");
    }

    #[test]
    fn debug_hides_the_password() {
        let s = Server::parse("redis://u:topsecret@h:1").unwrap();
        assert!(!format!("{s:?}").contains("topsecret"));
    }
}
